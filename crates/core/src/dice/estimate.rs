//! A Monte Carlo estimate of a distribution, for notations whose exact odds are past the budget
//! and only on request (`umpire roll … --odds --estimate`). Always labelled as an estimate,
//! with its margin; never mixed with exact odds.
//!
//! Held to the same [`Budget`] as exact odds: its work (throws × dice, each die a search of its
//! faces) and memory (one table of faces per kind of die) are estimated before any throw, and a
//! notation whose fewest throws do not fit is refused at once, with the most of its dice that
//! would. A clock stops a run that the estimate got wrong, so no one number typed can run for
//! minutes.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::die::Die;
use super::error::DiceError;
use super::exact::Budget;
use super::expr::{DiceExpr, seconds_words};

/// Simulated throws of a notation.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// How many throws were simulated.
    pub throws: u64,
    /// The seed of the simulation (the same seed gives the same estimate).
    pub seed: u64,
    /// How many throws gave each value.
    pub counts: BTreeMap<i64, u64>,
}

/// The fewest and the most throws an estimate simulates.
const THROWS: (u64, u64) = (10_000, 1_000_000);

/// Die faces simulated a second, rounded down (BENCHMARKS.md, "Exact odds of big pools").
const FACES_PER_SECOND: f64 = 5.0e7;

/// What one throw costs, in faces of a six-sided die drawn (the unit [`FACES_PER_SECOND`] was
/// measured in): a face is one draw and a binary search of the die's cumulative weights, so a
/// die of many faces (an exploding `d1000!` has about 3,000) costs more than a d6.
fn die_weight(die: &Die) -> f64 {
    ((die.faces.len() as f64 + 1.0).log2() / 7f64.log2()).max(1.0)
}

/// Bytes held per face of a die's table (a cumulative weight and a value).
const BYTES_PER_FACE: f64 = 16.0;

/// Bytes held per distinct total counted (a node of the map of counts, at worst).
const BYTES_PER_TOTAL: f64 = 64.0;

/// Each kind of die once, as cumulative weights and values (so a face is one draw and a
/// search), and for each die of the throw the index of its table: ten thousand dice of one kind
/// hold one table, not ten thousand.
type Tables = (Vec<(Vec<u64>, Vec<i64>)>, Vec<usize>);

fn tables(dice: &[&Die]) -> Tables {
    let mut kinds: Vec<*const Die> = Vec::new();
    let mut tables = Vec::new();
    let mut slots = Vec::with_capacity(dice.len());
    for d in dice {
        let ptr: *const Die = *d;
        if let Some(i) = kinds.iter().position(|k| std::ptr::eq(*k, ptr)) {
            slots.push(i);
            continue;
        }
        let mut acc = 0u64;
        let cumulative = d
            .faces
            .iter()
            .map(|f| {
                acc += u64::from(f.weight);
                acc
            })
            .collect();
        tables.push((cumulative, d.faces.iter().map(|f| f.value).collect()));
        kinds.push(ptr);
        slots.push(tables.len() - 1);
    }
    (tables, slots)
}

impl Estimate {
    /// Simulates `expr` for about `budget.seconds`: as many throws as fit, from 10,000 to
    /// 1,000,000. Refused before any throw when even 10,000 throws would pass the budget's time
    /// or memory, saying how many of its dice would fit. Should a run take twice its time and
    /// two seconds after all, it stops: with 10,000 throws done it keeps them, else it is
    /// refused.
    pub fn run(expr: &DiceExpr, budget: &Budget, seed: u64) -> Result<Estimate, DiceError> {
        let dice = expr.dice();
        let weights: Vec<f64> = dice.iter().map(|d| die_weight(d)).collect();
        let per_throw = weights.iter().sum::<f64>().max(1.0);
        let fewest = THROWS.0 as f64 * per_throw / FACES_PER_SECOND;
        let (tables, slots) = tables(&dice);
        let bytes = tables
            .iter()
            .map(|(c, _)| c.len() as f64 * BYTES_PER_FACE)
            .sum::<f64>()
            + dice.len() as f64 * 16.0
            + THROWS.1 as f64 * BYTES_PER_TOTAL;
        if fewest > budget.seconds || bytes > budget.bytes {
            let each = per_throw / dice.len().max(1) as f64;
            let fit = (budget.seconds * FACES_PER_SECOND / (THROWS.0 as f64 * each)).floor();
            return Err(DiceError::TooManyToEstimate {
                expr: expr.source().to_string(),
                problem: format!(
                    "{} simulated throws of its {} dice would take about {} (the limit is {}); at most {} such dice fit",
                    THROWS.0,
                    dice.len(),
                    seconds_words(fewest),
                    seconds_words(budget.seconds),
                    fit as u64
                ),
            });
        }
        let throws =
            ((budget.seconds * FACES_PER_SECOND / per_throw) as u64).clamp(THROWS.0, THROWS.1);
        // Should the speed measured be wrong for this machine (a debug build, a busy one), the
        // clock stops the run: with the fewest throws done it keeps them (its margin says how
        // many), else it is refused.
        let allowed = budget.seconds * 2.0 + 2.0;
        let stop = Instant::now() + Duration::from_secs_f64(allowed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut faces = vec![0i64; dice.len()];
        let mut counts = BTreeMap::new();
        let mut done = 0;
        while done < throws {
            if done % 1024 == 1023 && Instant::now() > stop {
                if done >= THROWS.0 {
                    break;
                }
                return Err(DiceError::TooManyToEstimate {
                    expr: expr.source().to_string(),
                    problem: format!(
                        "only {done} of {throws} simulated throws were done in {} (the limit is {})",
                        seconds_words(allowed),
                        seconds_words(budget.seconds)
                    ),
                });
            }
            for (slot, table) in faces.iter_mut().zip(&slots) {
                let Some((cumulative, values)) = tables.get(*table) else {
                    continue;
                };
                let top = cumulative.last().copied().unwrap_or(1).max(1);
                let r = rng.random_range(0..top);
                let i = cumulative.partition_point(|&c| c <= r);
                *slot = values.get(i).copied().unwrap_or(0);
            }
            *counts.entry(expr.total(&faces)).or_insert(0u64) += 1;
            done += 1;
        }
        let throws = done;
        Ok(Estimate {
            throws,
            seed,
            counts,
        })
    }

    /// The estimated probability of each value.
    pub fn probabilities(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.counts
            .iter()
            .map(|(v, c)| (*v, *c as f64 / self.throws as f64))
    }

    /// The 95 % margin of any one probability, at worst (p = ½): 1.96·√(¼ / throws).
    pub fn margin(&self) -> f64 {
        1.96 * (0.25 / self.throws as f64).sqrt()
    }
}
