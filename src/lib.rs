//! Umpire: an adjudication assistant for human-umpired tabletop wargames and megagames.
//!
//! The work is done in the workspace's crates, one per layer (docs/developers.md, "Layout"); each may use
//! only those below it, and the compiler holds it to that:
//!
//! - `umpire-core`: [`dice`] ← [`rules`] ← [`resolve`] ← [`game`] ← [`megagame`] — the engine,
//!   the journal and the SQLite game file; no window, no network server, no PDF;
//! - `umpire-server` ([`server`]): a game's journal on a PostgreSQL server, over TLS;
//! - `umpire-report` ([`report`]): the printed paper, as PDF;
//! - `umpire-serve` ([`serve`]): the players' view over the LAN;
//! - `umpire-desk` ([`app`]): the eframe/egui desk;
//! - this package: the `umpire` command line (`src/cli`), and this facade, which names the
//!   crates as the integration tests and benches use them.

pub use umpire_core::{VERSION, dice, game, megagame, resolve, rules, schema};
pub use umpire_desk as app;
pub use umpire_report as report;
pub use umpire_serve as serve;
pub use umpire_server as server;
