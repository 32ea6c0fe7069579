//! Where rulesets come from: the shipped `tables/` folder (embedded in the binary) or a folder
//! on disk, one sub-folder per ruleset holding `ruleset.yaml` and one file per table.

use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};

use super::error::{LoadError, LoadErrors};
use super::layer::UserTable;
use super::limits::read_text;
use super::model::Ruleset;
use super::validate::{RulesetFiles, SourceFile, load_ruleset};

static SHIPPED: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/tables");

/// The file name of a ruleset's main file.
pub const RULESET_FILE: &str = "ruleset.yaml";

/// The shipped rulesets' files, as embedded at build time.
pub fn shipped_sources() -> Vec<RulesetFiles> {
    let mut out = Vec::new();
    for dir in SHIPPED.dirs() {
        let id = dir.path().to_string_lossy().to_string();
        let mut ruleset = None;
        let mut tables = Vec::new();
        for file in dir.files() {
            let name = file
                .path()
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            if !(name.ends_with(".yaml") || name.ends_with(".yml")) {
                continue;
            }
            let source = SourceFile {
                name: format!("tables/{id}/{name}"),
                text: file.contents_utf8().unwrap_or_default().to_string(),
            };
            if name == RULESET_FILE {
                ruleset = Some(source);
            } else {
                tables.push(source);
            }
        }
        if let Some(ruleset) = ruleset {
            tables.sort_by(|a, b| a.name.cmp(&b.name));
            out.push(RulesetFiles { ruleset, tables });
        }
    }
    out.sort_by(|a, b| a.ruleset.name.cmp(&b.ruleset.name));
    out
}

fn io_error(path: &Path, e: &std::io::Error) -> LoadErrors {
    LoadErrors(vec![LoadError {
        file: path.display().to_string(),
        line: 0,
        column: 0,
        problem: format!("cannot read: {e}"),
        hint: "check the path and permissions".into(),
    }])
}

/// Reads one ruleset folder from disk. A file over [`super::limits::MAX_FILE_BYTES`] is
/// refused unread.
pub fn read_ruleset_dir(dir: &Path) -> Result<RulesetFiles, LoadErrors> {
    let main = dir.join(RULESET_FILE);
    let text = read_text(&main).map_err(|e| LoadErrors(vec![e]))?;
    let mut tables = Vec::new();
    let mut errors = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| io_error(dir, &e))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let is_yaml = path.extension().is_some_and(|x| x == "yaml" || x == "yml");
        if !is_yaml || path.file_name().is_some_and(|n| n == RULESET_FILE) {
            continue;
        }
        match read_text(&path) {
            Ok(text) => tables.push(SourceFile {
                name: path.display().to_string(),
                text,
            }),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    Ok(RulesetFiles {
        ruleset: SourceFile {
            name: main.display().to_string(),
            text,
        },
        tables,
    })
}

/// Reads every ruleset folder under `root` (folders holding a `ruleset.yaml`).
pub fn read_rules_root(root: &Path) -> Result<Vec<RulesetFiles>, LoadErrors> {
    let entries = std::fs::read_dir(root).map_err(|e| io_error(root, &e))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(RULESET_FILE).is_file())
        .collect();
    dirs.sort();
    dirs.iter().map(|d| read_ruleset_dir(d)).collect()
}

/// The id a ruleset's files declare, read cheaply (for messages about rulesets that fail).
pub fn declared_id(files: &RulesetFiles) -> String {
    files
        .ruleset
        .text
        .lines()
        .find_map(|l| {
            l.strip_prefix("id:")
                .map(|v| v.trim().trim_matches('"').to_string())
        })
        .unwrap_or_else(|| files.ruleset.name.clone())
}

/// Loaded rulesets and the ones that failed, with their errors.
#[derive(Debug, Default, Clone)]
pub struct Library {
    /// Rulesets that loaded.
    pub rulesets: Vec<Ruleset>,
    /// Rulesets that did not, by declared id.
    pub failed: Vec<(String, LoadErrors)>,
    /// Tables taken from the umpire's transcription layer.
    pub user_tables: Vec<UserTable>,
}

impl Library {
    /// Loads every ruleset given.
    pub fn load(sources: &[RulesetFiles]) -> Library {
        let mut lib = Library::default();
        for files in sources {
            match load_ruleset(files) {
                Ok(r) => lib.rulesets.push(r),
                Err(e) => lib.failed.push((declared_id(files), e)),
            }
        }
        lib
    }

    /// Loads every ruleset given, with the umpire's transcriptions from `user_dir` laid over them.
    pub fn load_layered(sources: &[RulesetFiles], user_dir: Option<&Path>) -> Library {
        let Some(dir) = user_dir else {
            return Library::load(sources);
        };
        let mut lib = Library::default();
        for files in sources {
            let id = declared_id(files);
            let (layered, used) = match super::layer::apply(files, &id, dir) {
                Ok(x) => x,
                Err(e) => {
                    lib.failed.push((id, e));
                    continue;
                }
            };
            match load_ruleset(&layered) {
                Ok(r) => {
                    lib.rulesets.push(r);
                    lib.user_tables.extend(used);
                }
                Err(e) => lib.failed.push((id, e)),
            }
        }
        lib
    }

    /// Whether a table of a ruleset comes from the umpire's transcription layer.
    pub fn user_table(&self, ruleset: &str, table: &str) -> Option<&UserTable> {
        self.user_tables
            .iter()
            .find(|u| u.ruleset == ruleset && u.table == table)
    }

    /// The shipped rulesets.
    pub fn shipped() -> Library {
        Library::load(&shipped_sources())
    }

    /// A ruleset by id.
    pub fn get(&self, id: &str) -> Option<&Ruleset> {
        self.rulesets.iter().find(|r| r.id == id)
    }

    /// Ids of the loaded rulesets.
    pub fn ids(&self) -> Vec<&str> {
        self.rulesets.iter().map(|r| r.id.as_str()).collect()
    }
}
