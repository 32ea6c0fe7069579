//! `umpire odds RULESET PROCEDURE --input NAME=VALUE … [--json]`.

use anyhow::Result;
use clap::Args;

use super::{Cli, ProcedureArgs, find_procedure, library, print_json};
use umpire::resolve::{odds, parse_inputs, prepare};

/// Arguments of `odds`.
#[derive(Debug, Args)]
pub struct OddsArgs {
    #[command(flatten)]
    pub procedure: ProcedureArgs,
}

/// Runs `odds`.
pub fn run(cli: &Cli, args: &OddsArgs) -> Result<()> {
    let lib = library(cli)?;
    let ruleset = &args.procedure.ruleset(&lib)?;
    let procedure = find_procedure(ruleset, &args.procedure.procedure)?;
    let inputs = parse_inputs(procedure, &args.procedure.pairs()?)?;
    let result = odds(ruleset, procedure, &inputs)?;
    if args.procedure.json {
        return print_json(&result);
    }
    for line in prepare(ruleset, procedure, &inputs)?.explanation() {
        println!("{line}");
    }
    println!();
    for o in &result.outcomes {
        let bar = "█".repeat((o.probability * 40.0).round() as usize);
        let name = match o.value {
            Some(v) if o.code.parse::<i64>().is_err() => format!("{} {v}", o.label),
            _ => o.label.clone(),
        };
        println!(
            "{:>7.3}%  {:>9}  {bar} {name}",
            o.probability * 100.0,
            o.fraction.words()
        );
    }
    if !result.complete {
        println!("\nSome rolls land on chart cells that are not in the rule text ('?').");
    }
    Ok(())
}
