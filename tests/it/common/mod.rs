//! Helpers shared by the integration tests: the engine's (one file with the engine's own tests,
//! `crates/core/tests/engine/common.rs`) and a PostgreSQL server of their own ([`pg`]).
#![allow(dead_code, unused_imports)]

pub mod browser;
#[path = "../../../crates/core/tests/engine/common.rs"]
mod engine;
pub mod pg;
pub mod tool;

pub use engine::*;

/// A scratch folder of one test's own, emptied first: `umpire-GROUP-TAG-PID` under the system's
/// temporary folder (GROUP names the test file, TAG the test; the process id keeps two runs
/// apart).
pub fn scratch_dir(group: &str, tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-{group}-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A game file's path (`game.umpire`) in a scratch folder of one test's own.
pub fn scratch_game(group: &str, tag: &str) -> std::path::PathBuf {
    scratch_dir(group, tag).join("game.umpire")
}
