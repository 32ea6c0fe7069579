//! The desk (eframe/egui). Thin: views over the engine.

use std::path::PathBuf;

/// Opens the desk.
pub fn run(_rules: Option<PathBuf>) -> anyhow::Result<()> {
    anyhow::bail!("the desk is not built yet")
}
