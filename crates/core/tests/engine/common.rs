//! Helpers shared by the ruleset tests: resolve a procedure with physical dice and check the
//! explanation. (Each test binary uses a subset: the root's `tests/it` includes this file too.)
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use umpire_core::resolve::{DiceSource, Resolution, ResolveError, parse_inputs, resolve};
use umpire_core::rules::{Library, Ruleset, Value};

/// A shipped ruleset, loaded once per test binary; panics with the load errors if it fails.
pub fn shipped(id: &str) -> &'static Ruleset {
    static LIB: OnceLock<Library> = OnceLock::new();
    let lib = LIB.get_or_init(Library::shipped);
    lib.get(id).unwrap_or_else(|| {
        panic!(
            "{id} does not load: {:?}",
            lib.failed
                .iter()
                .map(|(id, e)| format!("{id}: {e}"))
                .collect::<Vec<_>>()
        )
    })
}

/// A test fixture's ruleset from its folder; panics with the load errors if it fails.
pub fn fixture(dir: &std::path::Path) -> Ruleset {
    let files = umpire_core::rules::read_ruleset_dir(dir).expect("fixture folder reads");
    match umpire_core::rules::load_ruleset(&files) {
        Ok(r) => r,
        Err(e) => panic!("{} does not load:\n{e}", dir.display()),
    }
}

/// Typed inputs from NAME, VALUE pairs.
pub fn inputs_for(
    rs: &Ruleset,
    procedure: &str,
    inputs: &[(&str, &str)],
) -> BTreeMap<String, Value> {
    let p = rs
        .procedure(procedure)
        .unwrap_or_else(|| panic!("no procedure {procedure}"));
    let pairs: Vec<(String, String)> = inputs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    parse_inputs(p, &pairs).expect("inputs parse")
}

/// Resolves with physical dice (and a chart result, if given).
pub fn try_run(
    rs: &Ruleset,
    procedure: &str,
    inputs: &[(&str, &str)],
    faces: &[&str],
    chart: Option<&str>,
) -> Result<Resolution, Box<ResolveError>> {
    let p = rs
        .procedure(procedure)
        .unwrap_or_else(|| panic!("no procedure {procedure}"));
    let given = inputs_for(rs, procedure, inputs);
    let dice = DiceSource::Physical {
        faces: faces.iter().map(|f| f.to_string()).collect(),
        entered_by: None,
    };
    resolve(rs, p, &given, dice, chart).map_err(Box::new)
}

/// Resolves with physical dice; panics with the error.
pub fn run_in(
    rs: &Ruleset,
    procedure: &str,
    inputs: &[(&str, &str)],
    faces: &[&str],
) -> Resolution {
    try_run(rs, procedure, inputs, faces, None)
        .unwrap_or_else(|e| panic!("{procedure} {inputs:?} {faces:?}: {e}"))
}

/// Asserts that some explanation line contains `needle`.
#[track_caller]
pub fn explains(r: &Resolution, needle: &str) {
    assert!(
        r.explanation.iter().any(|l| l.contains(needle)),
        "no explanation line contains {needle:?}:\n{}",
        r.explanation.join("\n")
    );
}
