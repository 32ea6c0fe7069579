//! `umpire resolve RULESET PROCEDURE --input NAME=VALUE … [--roll N …|--seed N] [--json]`.

use anyhow::Result;
use clap::Args;

use super::{Cli, ProcedureArgs, find_procedure, library, print_json};
use umpire::dice::AppDice;
use umpire::resolve::{DiceSource, parse_inputs, resolve};

/// Arguments of `resolve`.
#[derive(Debug, Args)]
pub struct ResolveArgs {
    #[command(flatten)]
    pub procedure: ProcedureArgs,
    /// Physical dice, one face per die (e.g. --roll 3 --roll 5, or --roll 3 5).
    #[arg(
        long = "roll",
        num_args = 1..,
        value_name = "FACE",
        conflicts_with = "seed",
        allow_negative_numbers = true
    )]
    pub roll: Vec<String>,
    /// Seed for the app's dice (a fresh one is drawn and shown when omitted).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Who rolled the physical dice.
    #[arg(long, value_name = "NAME")]
    pub by: Option<String>,
    /// The result read off the physical chart, for a cell that is not in the rule text (a
    /// negative one too: `--chart-result -2`).
    #[arg(long, value_name = "CODE", allow_hyphen_values = true)]
    pub chart_result: Option<String>,
}

/// Runs `resolve`.
pub fn run(cli: &Cli, args: &ResolveArgs) -> Result<()> {
    let lib = library(cli)?;
    let ruleset = &args.procedure.ruleset(&lib)?;
    let procedure = find_procedure(ruleset, &args.procedure.procedure)?;
    let inputs = parse_inputs(procedure, &args.procedure.pairs()?)?;
    let mut app = AppDice::new(args.seed.unwrap_or_else(AppDice::fresh_seed));
    let dice = if args.roll.is_empty() {
        DiceSource::App(&mut app)
    } else {
        DiceSource::Physical {
            faces: args.roll.clone(),
            entered_by: args.by.clone(),
        }
    };
    let resolution = resolve(
        ruleset,
        procedure,
        &inputs,
        dice,
        args.chart_result.as_deref(),
    )?;
    if args.procedure.json {
        return print_json(&resolution);
    }
    for line in &resolution.explanation {
        println!("{line}");
    }
    Ok(())
}
