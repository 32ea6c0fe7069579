//! `umpire roll EXPR [--seed N] [--odds] [--json]`.

use anyhow::Result;
use clap::Args;
use serde_json::json;

use super::{Cli, find_ruleset, library, print_json};
use umpire::dice::{AppDice, Budget, DiceExpr, DieSet, Distribution, Estimate, Output, write_odds};

fn parse_budget(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 3600.0 => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds from 0 to 3600")),
    }
}

/// A Monte Carlo estimate, labelled as one.
fn print_estimate(expr: &DiceExpr, args: &RollArgs) -> Result<()> {
    let seed = args.seed.unwrap_or_else(AppDice::fresh_seed);
    let budget = Budget {
        seconds: args.budget,
        ..Budget::default()
    };
    let estimate = Estimate::run(expr, &budget, seed)?;
    let margin = estimate.margin();
    if args.json {
        let rows: Vec<_> = estimate
            .probabilities()
            .map(|(value, p)| json!({"value": value, "probability": p}))
            .collect();
        return print_json(&json!({
            "expr": expr.source(),
            "exact": false,
            "estimate": {"throws": estimate.throws, "seed": seed, "margin_95": margin},
            "distribution": rows,
        }));
    }
    println!(
        "{}: ESTIMATE, not exact — {} simulated throws (seed {seed}); each probability within ±{:.2} percentage points (95 %)",
        expr.source(),
        estimate.throws,
        margin * 100.0
    );
    // Many values (a thousand dice): in about 40 equal bins, each a range of totals.
    let (lo, hi) = (
        estimate.counts.keys().next().copied().unwrap_or(0),
        estimate.counts.keys().next_back().copied().unwrap_or(0),
    );
    let width = if estimate.counts.len() > 60 {
        ((hi - lo) / 40).max(1)
    } else {
        1
    };
    let mut bins: std::collections::BTreeMap<i64, f64> = std::collections::BTreeMap::new();
    for (value, p) in estimate.probabilities() {
        *bins.entry(lo + (value - lo) / width * width).or_insert(0.0) += p;
    }
    for (start, p) in bins {
        let label = if width == 1 {
            start.to_string()
        } else {
            format!("{start}–{}", (start + width - 1).min(hi))
        };
        println!("{label:>17}  ~{:>6.2}%", p * 100.0);
    }
    Ok(())
}

/// The exact odds, written through one buffer (a line a value would be a write a value through
/// a pipe).
fn print_odds(expr: &DiceExpr, dist: &Distribution, output: Output) -> Result<()> {
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    write_odds(expr, dist, output, &mut out)?;
    out.flush()?;
    Ok(())
}

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
    /// With --odds: seconds the exact odds may take (estimated before any work is done).
    #[arg(long, default_value_t = 1.0, value_parser = parse_budget)]
    pub budget: f64,
    /// With --odds: when the exact odds are past the budget, estimate them by simulating
    /// throws (Monte Carlo), labelled as an estimate with its margin.
    #[arg(long, requires = "odds")]
    pub estimate: bool,
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
        let budget = Budget {
            seconds: args.budget,
            ..Budget::default()
        };
        let output = if args.json {
            Output::Json
        } else {
            Output::Text
        };
        let dist = match expr.distribution_printed(&budget, output) {
            Ok(dist) => dist,
            Err(_) if args.estimate => return print_estimate(&expr, args),
            Err(e) => anyhow::bail!(
                "{e} — or add --estimate for a Monte Carlo estimate, or --budget SECONDS"
            ),
        };
        return print_odds(&expr, &dist, output);
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
