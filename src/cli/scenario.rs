//! `umpire scenario`: a scenario file checked, and the organiser's starting data entered once —
//! the briefing pack's sheets to fill in (`setup-template`), and the filled-in sheets merged
//! into a scenario file (`import-setup`).

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::{Cli, library};
use umpire::game::scenario::setup::{
    import_setup, problems_text, read_folder, template_files, template_readme,
};
use umpire::game::scenario::{Scenario, load_scenario};
use umpire::rules::{Library, Ruleset, SourceFile};

/// `scenario` subcommands.
#[derive(Debug, Subcommand)]
pub enum ScenarioCommand {
    /// Check a scenario (a YAML file or a shipped scenario's id) against its ruleset.
    Check {
        /// Scenario id or file.
        scenario: String,
    },
    /// Write the sheets to fill in for a scenario's starting data (one CSV file a kind, with a
    /// README of their columns): the rows the text gives, every number it does not give empty.
    SetupTemplate {
        /// Scenario id or file.
        scenario: String,
        /// The folder to write them into (created if need be).
        #[arg(short, long)]
        output: PathBuf,
        /// Replace the files if they exist.
        #[arg(long)]
        force: bool,
    },
    /// Merge a folder of filled-in sheets (CSV files saved from a spreadsheet: `,` or `;`
    /// separators, UTF-8) into a scenario and write it as a scenario file that loads. Every
    /// problem is listed with its file, line and column; with any, nothing is written.
    ImportSetup {
        /// The folder of CSV files (states.csv, cards.csv, characters.csv, areas.csv,
        /// cities.csv, armies.csv, fleets.csv; counters.csv for other games).
        folder: PathBuf,
        /// The scenario they set up (an id or a YAML file).
        #[arg(long)]
        scenario: String,
        /// The scenario file to write (YAML).
        #[arg(short, long)]
        output: PathBuf,
        /// Replace the file if it exists.
        #[arg(long)]
        force: bool,
        /// Print JSON: {"output", "rows"} or {"problems": [{file, line, column, problem}]}.
        #[arg(long)]
        json: bool,
    },
}

/// A scenario and its ruleset, loaded.
fn loaded<'l>(lib: &'l Library, source: &SourceFile) -> Result<(Scenario, &'l Ruleset)> {
    let scenario =
        load_scenario(source, lib).map_err(|e| super::with_ruleset_errors(lib, anyhow!("{e}")))?;
    let ruleset = lib
        .get(&scenario.ruleset)
        .ok_or_else(|| anyhow!("ruleset '{}' is not loaded", scenario.ruleset))?;
    Ok((scenario, ruleset))
}

/// Runs `scenario`.
pub fn run(cli: &Cli, command: &ScenarioCommand) -> Result<()> {
    match command {
        ScenarioCommand::Check { scenario } => {
            let lib = library(cli)?;
            let source = super::scenario_source(scenario)?;
            let (s, ruleset) = loaded(&lib, &source)?;
            println!(
                "{}: {} — loads ({}, {} turns, {} counters at start)",
                source.name,
                s.title,
                ruleset.name,
                s.turns,
                s.counters.len()
            );
            Ok(())
        }
        ScenarioCommand::SetupTemplate {
            scenario,
            output,
            force,
        } => setup_template(cli, scenario, output, *force),
        ScenarioCommand::ImportSetup {
            folder,
            scenario,
            output,
            force,
            json,
        } => import(cli, folder, scenario, output, *force, *json),
    }
}

fn setup_template(cli: &Cli, scenario: &str, output: &Path, force: bool) -> Result<()> {
    let lib = library(cli)?;
    let source = super::scenario_source(scenario)?;
    let (s, ruleset) = loaded(&lib, &source)?;
    let mut files = template_files(&s, ruleset);
    files.push(("README.md".into(), template_readme(&s, ruleset)));
    if !force {
        let there: Vec<String> = files
            .iter()
            .map(|(n, _)| output.join(n))
            .filter(|p| p.exists())
            .map(|p| p.display().to_string())
            .collect();
        if !there.is_empty() {
            bail!(
                "{} already exist{} — choose another folder, or replace them with --force",
                there.join(", "),
                if there.len() == 1 { "s" } else { "" }
            );
        }
    }
    std::fs::create_dir_all(output).map_err(|e| anyhow!("{}: {e}", output.display()))?;
    for (name, text) in &files {
        let path = output.join(name);
        std::fs::write(&path, text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    }
    println!(
        "wrote {} sheets and README.md to {} — fill them in (a spreadsheet saved as CSV), then \
         `umpire scenario import-setup {} --scenario {} -o my_game.yaml`",
        files.len() - 1,
        output.display(),
        output.display(),
        scenario
    );
    Ok(())
}

fn import(
    cli: &Cli,
    folder: &Path,
    scenario: &str,
    output: &Path,
    force: bool,
    json: bool,
) -> Result<()> {
    if output.exists() && !force {
        bail!(
            "{} already exists — choose another name, or replace it with --force",
            output.display()
        );
    }
    let lib = library(cli)?;
    let source = super::scenario_source(scenario)?;
    let (s, ruleset) = loaded(&lib, &source)?;
    let name = output.display().to_string();
    let result = read_folder(folder)
        .and_then(|sheets| import_setup(&source.text, &s, ruleset, &lib, &sheets, &name));
    let imported = match result {
        Ok(i) => i,
        Err(problems) => {
            if json {
                super::print_json(&serde_json::json!({ "problems": problems }))?;
            }
            bail!(
                "nothing written — {} problem{} in the sheets:\n{}",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" },
                problems_text(&problems)
            );
        }
    };
    umpire::game::scenario::save::write_scenario_file(output, &imported.text, force)
        .map_err(anyhow::Error::msg)?;
    if json {
        return super::print_json(&serde_json::json!({
            "output": name,
            "rows": imported.rows.iter().map(|(f, n)| serde_json::json!({"file": f, "rows": n})).collect::<Vec<_>>(),
        }));
    }
    let rows: Vec<String> = imported
        .rows
        .iter()
        .map(|(f, n)| format!("{f} {n}"))
        .collect();
    println!(
        "wrote {} — {} set up from {} ({}); it loads. Print it (a megagame's cast and Control roster with it) with `umpire sheet {} -o sheet.pdf`, \
         start a game with `umpire game new {} -o game.umpire`",
        output.display(),
        s.title,
        folder.display(),
        rows.join(", "),
        output.display(),
        output.display()
    );
    Ok(())
}
