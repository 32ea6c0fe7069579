//! Scenarios: a ruleset, the counters on the table at start, the calendar and the schedules.
//!
//! A scenario file (`scenarios/<ruleset>/<id>.yaml`) deserialises into raw structs that refuse
//! unknown fields, then is validated against its ruleset: sides and armies, counter attributes
//! (names, types, ranges and choices declared by the ruleset's `units` and `leaders`), positions
//! (hex ids as quoted strings of the ruleset's digits, areas, free x/y, or off map), turns and
//! procedures. Errors name the file, line and column.

use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};

use crate::rules::{Library, LoadError, LoadErrors, SourceFile};

pub mod model;
pub mod position;
pub(crate) mod raw;
pub mod save;
pub mod setup;
mod validate;
pub mod victory;

pub use model::*;
pub use validate::{distribute_sp, five_day_calendar, load_scenario};
pub use victory::{Condition, PlaceRef, Raise, VictoryCheck, VictoryWhen};

static SHIPPED: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../scenarios");

/// The shipped scenario files (`scenarios/<ruleset>/*.yaml`), as embedded at build time, sorted
/// by name.
pub fn shipped_scenarios() -> Vec<SourceFile> {
    let mut out = Vec::new();
    for dir in SHIPPED.dirs() {
        for file in dir.files() {
            let path = file.path().to_string_lossy().to_string();
            if !(path.ends_with(".yaml") || path.ends_with(".yml")) {
                continue;
            }
            out.push(SourceFile {
                name: format!("scenarios/{path}"),
                text: file.contents_utf8().unwrap_or_default().to_string(),
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Reads every scenario file under `root` (`<root>/<ruleset>/*.yaml`).
pub fn read_scenarios_root(root: &Path) -> Result<Vec<SourceFile>, LoadErrors> {
    let io = |path: &Path, e: std::io::Error| {
        LoadErrors(vec![LoadError {
            file: path.display().to_string(),
            line: 0,
            column: 0,
            problem: format!("cannot read: {e}"),
            hint: "check the path and permissions".into(),
        }])
    };
    let mut paths: Vec<PathBuf> = Vec::new();
    for dir in std::fs::read_dir(root).map_err(|e| io(root, e))? {
        let dir = dir.map_err(|e| io(root, e))?.path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).map_err(|e| io(&dir, e))? {
            let p = f.map_err(|e| io(&dir, e))?.path();
            if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                paths.push(p);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).map_err(|e| io(&p, e))?;
            Ok(SourceFile {
                name: p.display().to_string(),
                text,
            })
        })
        .collect()
}

/// Loaded scenarios and the files that failed, with their errors.
#[derive(Debug, Default)]
pub struct ScenarioLibrary {
    /// Scenarios that loaded, in file order.
    pub scenarios: Vec<Scenario>,
    /// Files that did not load, by file name.
    pub failed: Vec<(String, LoadErrors)>,
}

impl ScenarioLibrary {
    /// Loads every file given against the rulesets; a scenario id used twice fails the second.
    pub fn load(files: &[SourceFile], rulesets: &Library) -> ScenarioLibrary {
        let mut lib = ScenarioLibrary::default();
        for file in files {
            match load_scenario(file, rulesets) {
                Ok(s) if lib.get(&s.id).is_some() => {
                    let e = LoadError {
                        file: file.name.clone(),
                        line: 1,
                        column: 1,
                        problem: format!("scenario id '{}' is used by another file", s.id),
                        hint: "give each scenario a unique id".into(),
                    };
                    lib.failed.push((file.name.clone(), LoadErrors(vec![e])));
                }
                Ok(s) => lib.scenarios.push(s),
                Err(e) => lib.failed.push((file.name.clone(), e)),
            }
        }
        lib
    }

    /// The shipped scenarios, against the given rulesets.
    pub fn shipped(rulesets: &Library) -> ScenarioLibrary {
        ScenarioLibrary::load(&shipped_scenarios(), rulesets)
    }

    /// A scenario by id.
    pub fn get(&self, id: &str) -> Option<&Scenario> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    /// The scenarios of one ruleset.
    pub fn for_ruleset<'a>(&'a self, ruleset: &'a str) -> impl Iterator<Item = &'a Scenario> {
        self.scenarios.iter().filter(move |s| s.ruleset == ruleset)
    }
}
