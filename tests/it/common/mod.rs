//! Helpers shared by the integration tests: the engine's (one file with the engine's own tests,
//! `crates/core/tests/engine/common.rs`) and a PostgreSQL server of their own ([`pg`]).
#![allow(dead_code, unused_imports)]

pub mod browser;
#[path = "../../../crates/core/tests/engine/common.rs"]
mod engine;
pub mod pg;
pub mod tool;

pub use engine::*;
