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
