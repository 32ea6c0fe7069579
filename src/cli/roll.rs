//! `umpire roll EXPR [--seed N] [--odds] [--json]`.

use anyhow::Result;
use clap::Args;
use serde_json::json;

use super::{Cli, find_ruleset, library, print_json};
use umpire::dice::{AppDice, DiceExpr, DieSet};

/// Arguments of `roll`.
#[derive(Debug, Args)]
pub struct RollArgs {
    /// Dice notation, e.g. 2d6, d10, d66, d%, d6+2, ceil(d6/2), 4d6 (a leading minus is
    /// notation too: `umpire roll -d6`).
    #[arg(allow_hyphen_values = true)]
    pub expr: String,
    /// Seed for the app's dice (a fresh one is drawn and printed when omitted).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Show the exact distribution instead of rolling.
    #[arg(long)]
    pub odds: bool,
    /// Use this ruleset's custom dice too.
    #[arg(long)]
    pub ruleset: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `roll`.
pub fn run(cli: &Cli, args: &RollArgs) -> Result<()> {
    let dice = match &args.ruleset {
        Some(id) => find_ruleset(&library(cli)?, id)?.dice.clone(),
        None => DieSet::new(),
    };
    let expr = DiceExpr::parse(&args.expr, &dice)?;
    if args.odds {
        let dist = expr.distribution().ok_or_else(|| {
            anyhow::anyhow!(
                "{expr}: its exact odds count more equally likely cases than 128 bits hold"
            )
        })?;
        let rows: Vec<_> = dist
            .counts()
            .map(|(value, _)| {
                let p = dist.probability(value);
                json!({"value": value, "probability": p.to_f64(), "fraction": p.to_string()})
            })
            .collect();
        if args.json {
            return print_json(&json!({"expr": expr.source(), "distribution": rows}));
        }
        println!("{}: {} equally likely cases", expr.source(), dist.total());
        for (value, _) in dist.counts() {
            let p = dist.probability(value);
            if expr.is_opposed() {
                // Two sides against each other: who is higher, in words.
                let words = match value {
                    1 => "the first side higher",
                    0 => "a tie",
                    _ => "the second side higher",
                };
                println!("{words:>22}  {:>7.3}%  {p}", p.to_f64() * 100.0);
            } else {
                println!("{value:>6}  {:>7.3}%  {p}", p.to_f64() * 100.0);
            }
        }
        return Ok(());
    }
    let seed = args.seed.unwrap_or_else(AppDice::fresh_seed);
    let roll = AppDice::new(seed).roll(&expr);
    if args.json {
        return print_json(&roll);
    }
    let faces: Vec<String> = roll
        .dice
        .iter()
        .map(|d| d.label.clone().unwrap_or_else(|| d.face.to_string()))
        .collect();
    println!(
        "{} → [{}] = {}   (seed {seed})",
        roll.expr,
        faces.join(", "),
        roll.total
    );
    Ok(())
}
