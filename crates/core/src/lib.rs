//! Umpire's engine: everything that adjudicates and records, with no window, no network server
//! and no PDF. Layers, each depending only on those before it: [`dice`] ← [`rules`] ←
//! [`resolve`] ← [`game`] (the Sequence of Play, checks, the journal and the SQLite game file,
//! side views) ← [`megagame`] (the phase clock, ledgers). The crates above it (`umpire-server`,
//! `umpire-report`, `umpire-serve`, `umpire-desk`, the `umpire` command line) build on it; the
//! compiler keeps it from importing any of them. [`schema`] describes the YAML files that
//! [`rules`] and [`game`] read, from the types they read them into.

pub mod dice;
pub mod game;
pub mod megagame;
pub mod resolve;
pub mod rules;
pub mod schema;

/// The version and the git commit it was built from: "0.1.0 (3f2c1a9b0d4e)".
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("UMPIRE_COMMIT"), ")");
