//! `umpire charts` and `umpire sheet`: chart sheets and scenario sheets as PDF.

use crate::cli::GameFile;

use anyhow::{Result, anyhow};
use clap::Args;

use super::output::PdfOut;
use super::{Cli, find_ruleset, library};
use umpire::game::scenario::load_scenario;
use umpire::report::{Template, charts_pdf, scenario_pdf};

/// Arguments of `umpire charts`.
#[derive(Debug, Args)]
pub struct ChartsArgs {
    /// Ruleset id (see `umpire rules list`).
    pub ruleset: String,
    #[command(flatten)]
    pub pdf: PdfOut,
    /// Only these tables (repeat the flag); all tables when omitted.
    #[arg(long = "table", value_name = "TABLE")]
    pub tables: Vec<String>,
    /// Chart cards: a player aid in two columns, each procedure with how it is resolved, its
    /// modifiers with their rules, its table and its results (instead of the tables alone).
    #[arg(long, conflicts_with = "tables")]
    pub cards: bool,
    /// Landscape pages (chart cards in three columns).
    #[arg(long)]
    pub landscape: bool,
}

/// Runs `charts`: every table with the umpire's transcriptions laid over the shipped ones.
pub fn charts(cli: &Cli, args: &ChartsArgs) -> Result<()> {
    args.pdf.force.check(&args.pdf.output)?;
    let lib = library(cli)?;
    let ruleset = find_ruleset(&lib, &args.ruleset)?;
    for id in &args.tables {
        if ruleset.table(id).is_none() {
            return Err(anyhow!(
                "unknown table '{id}' in {} — tables: {}",
                ruleset.id,
                ruleset
                    .tables
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let mut template = match &args.pdf.template {
        Some(path) => Template::read(path)?,
        None if args.cards => Template::cards_default()?,
        None => Template::charts_default()?,
    };
    if let Some(paper) = args.pdf.paper {
        template.paper = paper;
    }
    if args.landscape {
        template.orientation = umpire::report::template::Orientation::Landscape;
        if args.cards && args.pdf.template.is_none() {
            template.columns = Some(3);
        }
    }
    let bytes = if args.cards {
        umpire::report::charts::chart_cards_pdf(ruleset, template)?
    } else {
        charts_pdf(ruleset, &args.tables, template)?
    };
    args.pdf.force.write(&args.pdf.output, &bytes)?;
    println!(
        "wrote {} ({} tables, {} bytes)",
        args.pdf.output.display(),
        if args.tables.is_empty() {
            ruleset.tables.len()
        } else {
            args.tables.len()
        },
        bytes.len()
    );
    Ok(())
}

/// Arguments of `umpire sheet`.
#[derive(Debug, Args)]
pub struct SheetArgs {
    /// Scenario id (shipped) or a scenario YAML file.
    pub scenario: String,
    #[command(flatten)]
    pub pdf: PdfOut,
    /// One side's handout: only that side's set-up, reinforcements, supply sources and cards
    /// (a side of the scenario, by name or id, e.g. Venetian).
    #[arg(long, value_name = "SIDE")]
    pub side: Option<String>,
}

/// Runs `sheet`.
pub fn sheet(cli: &Cli, args: &SheetArgs) -> Result<()> {
    args.pdf.force.check(&args.pdf.output)?;
    let lib = library(cli)?;
    let source = super::scenario_source(&args.scenario)?;
    let scenario = load_scenario(&source, &lib)
        .map_err(|e| super::with_ruleset_errors(&lib, anyhow!("{e}")))?;
    let mut template = match &args.pdf.template {
        Some(path) => Template::read(path)?,
        None => Template::sheet_default()?,
    };
    if let Some(paper) = args.pdf.paper {
        template.paper = paper;
    }
    let ruleset = lib
        .get(&scenario.ruleset)
        .ok_or_else(|| anyhow!("ruleset '{}' is not loaded", scenario.ruleset))?;
    let side = args
        .side
        .as_deref()
        .map(|s| umpire::game::side_in(&scenario, s))
        .transpose()?;
    let bytes = scenario_pdf(
        &scenario,
        ruleset,
        side.as_ref().map(|s| s.as_str()),
        template,
    )?;
    args.pdf.force.write(&args.pdf.output, &bytes)?;
    println!(
        "wrote {} ({} bytes)",
        args.pdf.output.display(),
        bytes.len()
    );
    Ok(())
}

/// Arguments of `umpire report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub game: GameFile,
    /// One turn (the whole game when omitted).
    #[arg(long)]
    pub turn: Option<u32>,
    /// One side's view: its own forces, and the enemy only as the rules reveal it.
    #[arg(long)]
    pub side: Option<String>,
    #[command(flatten)]
    pub pdf: PdfOut,
}

/// Runs `report`: the turn's events and the forces at its end, for the umpire or one side.
pub fn report(cli: &Cli, args: &ReportArgs) -> Result<()> {
    args.pdf.force.check(&args.pdf.output)?;
    let lib = library(cli)?;
    super::password::ready(&args.game.file.to_string_lossy())?;
    let game = umpire::server::open_at(&args.game.file.to_string_lossy(), &lib)
        .map_err(|e| super::with_ruleset_errors(&lib, e))?;
    let side = args
        .side
        .as_deref()
        .map(|s| umpire::game::side_in(game.scenario(), s))
        .transpose()?;
    if let Some(turn) = args.turn
        && (turn == 0 || turn > game.scenario().turns)
    {
        return Err(anyhow!(
            "turn {turn} is not in the scenario (1 to {})",
            game.scenario().turns
        ));
    }
    let mut template = match &args.pdf.template {
        Some(path) => Template::read(path)?,
        None => Template::sheet_default()?,
    };
    if let Some(paper) = args.pdf.paper {
        template.paper = paper;
    }
    let options = umpire::report::ReportOptions {
        turn: args.turn,
        side: side.map(String::from),
        printed_at: chrono::Local::now(),
    };
    let bytes = umpire::report::turn_report_pdf(&game, &options, template)?;
    args.pdf.force.write(&args.pdf.output, &bytes)?;
    println!(
        "wrote {} ({} bytes)",
        args.pdf.output.display(),
        bytes.len()
    );
    Ok(())
}
