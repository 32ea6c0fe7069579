//! The engine's integration tests, in one binary (it links once): dice, the ruleset loader and
//! its refusals, every shipped ruleset's procedures against the texts, scenarios, the lookup
//! shapes and the inputs asked for. `cargo test -p umpire-core` runs them with no PostgreSQL,
//! Chromium or GPU; the command line, the desk, the PDFs and shared games are tested by the
//! root package (`tests/it`).

// A test reads best as one story from set-up to its assertions: the function-length gate
// (clippy.toml, `.ci/run`) holds for the product's code, not for the tests.
#![allow(clippy::too_many_lines)]

mod arrivals;
mod common;

mod dice;
mod effect_facts;
mod extent;
mod fuzz_loader;
mod inputs;
mod layers;
mod malformed;
mod odds_ranges;
mod orders;
mod played;
mod properties;
mod references;
mod results;
mod ruleset_ailsh;
mod ruleset_arquebus;
mod ruleset_gradisca;
mod ruleset_qrs;
mod ruleset_rr3;
mod scenarios;
mod shapes;
mod timeline;
mod transcribed;
mod victory;
mod walk;

/// The workspace's root: the shipped tables and scenarios, and the test fixtures.
pub fn root() -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}
