//! Where rulesets come from: the shipped `tables/` folder (embedded in the binary) or a folder
//! on disk, one sub-folder per ruleset holding `ruleset.yaml` and one file per table.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use include_dir::{Dir, include_dir};

use super::error::{LoadError, LoadErrors};
use super::layer::UserTable;
use super::limits::read_text;
use super::model::Ruleset;
use super::validate::{RulesetFiles, SourceFile, load_ruleset};

static SHIPPED: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../tables");

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

/// The ruleset folders under `root` (folders holding a `ruleset.yaml`), sorted.
fn ruleset_dirs(root: &Path) -> Result<Vec<PathBuf>, LoadErrors> {
    let entries = std::fs::read_dir(root).map_err(|e| io_error(root, &e))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join(RULESET_FILE).is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Reads every ruleset folder under `root` (folders holding a `ruleset.yaml`); fails if any
/// does not read. [`rules_root_sources`] lists them without reading them.
pub fn read_rules_root(root: &Path) -> Result<Vec<RulesetFiles>, LoadErrors> {
    ruleset_dirs(root)?
        .iter()
        .map(|d| read_ruleset_dir(d))
        .collect()
}

/// Where one ruleset's files are, before they are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesetSource {
    /// Files already in memory (the shipped rulesets, embedded in the binary).
    Files(RulesetFiles),
    /// A folder holding `ruleset.yaml` and one file per table, read when the ruleset is needed.
    Dir(PathBuf),
}

impl RulesetSource {
    /// The ruleset's files, read from disk for a folder.
    pub fn read(&self) -> Result<RulesetFiles, LoadErrors> {
        match self {
            RulesetSource::Files(files) => Ok(files.clone()),
            RulesetSource::Dir(dir) => read_ruleset_dir(dir),
        }
    }

    /// The id the ruleset declares, read cheaply from its main file alone; a folder whose main
    /// file does not read goes by the folder's name.
    pub fn declared_id(&self) -> String {
        match self {
            RulesetSource::Files(files) => declared_id(files),
            RulesetSource::Dir(dir) => {
                let folder = || {
                    dir.file_name().map_or_else(
                        || dir.display().to_string(),
                        |n| n.to_string_lossy().to_string(),
                    )
                };
                let main = dir.join(RULESET_FILE);
                match read_text(&main) {
                    Ok(text) => id_line(&text).unwrap_or_else(folder),
                    Err(_) => folder(),
                }
            }
        }
    }
}

/// The shipped rulesets, as sources.
pub fn shipped_ruleset_sources() -> Vec<RulesetSource> {
    shipped_sources()
        .into_iter()
        .map(RulesetSource::Files)
        .collect()
}

/// The ruleset folders under `root`, unread: a folder with a broken or oversized file fails
/// only when its ruleset is loaded. Fails only when `root` itself cannot be listed.
pub fn rules_root_sources(root: &Path) -> Result<Vec<RulesetSource>, LoadErrors> {
    Ok(ruleset_dirs(root)?
        .into_iter()
        .map(RulesetSource::Dir)
        .collect())
}

/// The value of a top-level `id:` line, unquoted and without a trailing comment.
fn id_line(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let value = l.strip_prefix("id:")?;
        let value = value.split(" #").next().unwrap_or(value).trim();
        Some(value.trim_matches(|c| c == '"' || c == '\'').to_string())
    })
}

/// The id a ruleset's files declare, read cheaply (for messages about rulesets that fail).
pub fn declared_id(files: &RulesetFiles) -> String {
    id_line(&files.ruleset.text).unwrap_or_else(|| files.ruleset.name.clone())
}

/// What loading one ruleset gives: the ruleset and the transcriptions laid over it, or every
/// problem found.
type Loaded = Result<(Ruleset, Vec<UserTable>), LoadErrors>;

/// A ruleset not loaded yet: read and validated the first time it is asked for.
#[derive(Debug, Clone)]
pub(crate) struct Deferred {
    /// The id its main file declares (see [`RulesetSource::declared_id`]).
    id: String,
    source: RulesetSource,
    user_dir: Option<PathBuf>,
    loaded: OnceLock<Loaded>,
}

impl Deferred {
    fn new(source: RulesetSource, user_dir: Option<&Path>) -> Deferred {
        Deferred {
            id: source.declared_id(),
            source,
            user_dir: user_dir.map(Path::to_path_buf),
            loaded: OnceLock::new(),
        }
    }

    fn load(&self) -> &Loaded {
        self.loaded
            .get_or_init(|| load_one(&self.source, &self.id, self.user_dir.as_deref()))
    }
}

/// Reads one ruleset, lays the umpire's transcriptions from `user_dir` over it and validates it.
fn load_one(source: &RulesetSource, id: &str, user_dir: Option<&Path>) -> Loaded {
    let files = source.read()?;
    let (files, used) = match user_dir {
        Some(dir) => super::layer::apply(&files, id, dir)?,
        None => (files, Vec::new()),
    };
    load_ruleset(&files).map(|r| (r, used))
}

/// Loaded rulesets and the ones that failed, with their errors.
///
/// [`Library::load`] and [`Library::load_layered`] load every ruleset at once (for lists and
/// checks); [`Library::on_demand`] reads and validates each ruleset only when [`Library::get`]
/// first asks for it, so a broken or huge file in one ruleset's folder costs nothing to a
/// command about another.
#[derive(Debug, Default, Clone)]
pub struct Library {
    /// Rulesets that loaded (with [`Library::on_demand`], none until [`Library::load_all`]).
    pub rulesets: Vec<Ruleset>,
    /// Rulesets that did not, by declared id (with [`Library::on_demand`], see
    /// [`Library::errors`] and [`Library::all_failed`]).
    pub failed: Vec<(String, LoadErrors)>,
    /// Tables taken from the umpire's transcription layer.
    pub user_tables: Vec<UserTable>,
    /// Rulesets not loaded yet, each loaded on its first [`Library::get`].
    pub(crate) deferred: Vec<Deferred>,
    /// Where the rulesets [`Library::load_all`] loaded came from (for
    /// [`Library::unlayered`]).
    pub(crate) read: Vec<Deferred>,
}

impl Library {
    /// A library of rulesets already loaded (a game's own, for a desk that resolves in it).
    pub fn of(rulesets: Vec<Ruleset>) -> Library {
        Library {
            rulesets,
            ..Library::default()
        }
    }

    /// Loads every ruleset given.
    pub fn load(sources: &[RulesetFiles]) -> Library {
        Library::load_layered(sources, None)
    }

    /// Loads every ruleset given, with the umpire's transcriptions from `user_dir` laid over them.
    pub fn load_layered(sources: &[RulesetFiles], user_dir: Option<&Path>) -> Library {
        let sources = sources.iter().cloned().map(RulesetSource::Files).collect();
        let mut lib = Library::on_demand(sources, user_dir);
        lib.load_all();
        lib
    }

    /// The rulesets given, none read yet: each is read, laid over with the transcriptions from
    /// `user_dir` and validated the first time [`Library::get`] (or [`Library::errors`]) asks
    /// for it by id.
    pub fn on_demand(sources: Vec<RulesetSource>, user_dir: Option<&Path>) -> Library {
        Library {
            deferred: sources
                .into_iter()
                .map(|s| Deferred::new(s, user_dir))
                .collect(),
            ..Library::default()
        }
    }

    /// Loads every ruleset not loaded yet, into [`Library::rulesets`] and [`Library::failed`].
    pub fn load_all(&mut self) {
        for d in std::mem::take(&mut self.deferred) {
            let id = d.id.clone();
            self.read.push(Deferred {
                id: d.id.clone(),
                source: d.source.clone(),
                user_dir: d.user_dir.clone(),
                loaded: OnceLock::new(),
            });
            d.load();
            match d.loaded.into_inner() {
                Some(Ok((r, used))) => {
                    self.rulesets.push(r);
                    self.user_tables.extend(used);
                }
                Some(Err(e)) => self.failed.push((id, e)),
                None => {}
            }
        }
    }

    /// Whether a table of a ruleset comes from the umpire's transcription layer.
    pub fn user_table(&self, ruleset: &str, table: &str) -> Option<&UserTable> {
        let deferred = self
            .deferred
            .iter()
            .filter(|d| d.id == ruleset)
            .filter_map(|d| d.load().as_ref().ok())
            .flat_map(|(_, used)| used);
        self.user_tables
            .iter()
            .chain(deferred)
            .find(|u| u.ruleset == ruleset && u.table == table)
    }

    /// The tables of a ruleset taken from the umpire's transcription layer.
    pub fn user_tables_of(&self, ruleset: &str) -> Vec<&UserTable> {
        let _ = self.get(ruleset);
        let deferred = self
            .deferred
            .iter()
            .filter(|d| d.id == ruleset)
            .filter_map(|d| d.loaded.get()?.as_ref().ok())
            .flat_map(|(_, used)| used);
        self.user_tables
            .iter()
            .chain(deferred)
            .filter(|u| u.ruleset == ruleset)
            .collect()
    }

    /// A ruleset as its own files give it, without the umpire's transcriptions: read and
    /// validated again on each call. None when the library lays no transcription folder over
    /// it, or does not know its files (a library of rulesets already loaded).
    pub fn unlayered(&self, id: &str) -> Option<Ruleset> {
        let d = self
            .deferred
            .iter()
            .chain(&self.read)
            .find(|d| d.id == id && d.user_dir.is_some())?;
        let files = d.source.read().ok()?;
        load_ruleset(&files).ok()
    }

    /// The shipped rulesets.
    pub fn shipped() -> Library {
        Library::load(&shipped_sources())
    }

    /// A ruleset by id, loading it if it is not loaded yet.
    pub fn get(&self, id: &str) -> Option<&Ruleset> {
        if let Some(r) = self.rulesets.iter().find(|r| r.id == id) {
            return Some(r);
        }
        fn loaded<'a>(d: &'a Deferred, id: &str) -> Option<&'a Ruleset> {
            match d.load() {
                Ok((r, _)) if r.id == id => Some(r),
                _ => None,
            }
        }
        if self.deferred.iter().any(|d| d.id == id) {
            return self
                .deferred
                .iter()
                .filter(|d| d.id == id)
                .find_map(|d| loaded(d, id));
        }
        // No main file declares the id plainly on one line (a quoted key, a flow mapping…):
        // look at what the others hold.
        self.deferred.iter().find_map(|d| loaded(d, id))
    }

    /// Why a ruleset does not load (loading it if it is not loaded yet); None when it loads or
    /// is unknown.
    pub fn errors(&self, id: &str) -> Option<&LoadErrors> {
        if let Some((_, e)) = self.failed.iter().find(|(fid, _)| fid == id) {
            return Some(e);
        }
        self.deferred
            .iter()
            .filter(|d| d.id == id)
            .find_map(|d| d.load().as_ref().err())
    }

    /// Every ruleset known to fail so far, by declared id: [`Library::failed`] and the
    /// rulesets loaded on demand that failed (no ruleset is loaded for this).
    pub fn all_failed(&self) -> Vec<(&str, &LoadErrors)> {
        let deferred = self
            .deferred
            .iter()
            .filter_map(|d| Some((d.id.as_str(), d.loaded.get()?.as_ref().err()?)));
        self.failed
            .iter()
            .map(|(id, e)| (id.as_str(), e))
            .chain(deferred)
            .collect()
    }

    /// Ids of the rulesets that loaded, then of those not loaded yet (as their main files
    /// declare them) that are not known to fail.
    pub fn ids(&self) -> Vec<&str> {
        let deferred = self
            .deferred
            .iter()
            .filter(|d| d.loaded.get().is_none_or(Result::is_ok))
            .map(|d| d.id.as_str());
        self.rulesets
            .iter()
            .map(|r| r.id.as_str())
            .chain(deferred)
            .collect()
    }
}
