//! Umpire: an adjudication assistant for human-umpired tabletop wargames and megagames.
//!
//! Layers, each depending only on those before it: [`dice`] ← [`rules`] ← [`resolve`] ←
//! {`cli`, `app`}. Nothing below the front ends imports egui, eframe or clap.

pub mod app;
pub mod dice;
pub mod game;
pub mod megagame;
pub mod report;
pub mod resolve;
pub mod rules;
pub mod serve;

/// The version and the git commit it was built from: "0.1.0 (3f2c1a9b0d4e)".
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("UMPIRE_COMMIT"), ")");
