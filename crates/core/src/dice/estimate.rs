//! A Monte Carlo estimate of a distribution, for notations whose exact odds are past the budget
//! and only on request (`umpire roll … --odds --estimate`). Always labelled as an estimate,
//! with its margin; never mixed with exact odds.

use std::collections::BTreeMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::expr::DiceExpr;

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

impl Estimate {
    /// Simulates `expr` for about `seconds`: as many throws as fit, from 10,000 to 1,000,000.
    pub fn run(expr: &DiceExpr, seconds: f64, seed: u64) -> Estimate {
        let dice = expr.dice();
        let per_throw = dice.len().max(1) as f64;
        let throws = ((seconds * FACES_PER_SECOND / per_throw) as u64).clamp(THROWS.0, THROWS.1);
        // Each die as cumulative weights, so a face is one draw and a search.
        let tables: Vec<(Vec<u64>, Vec<i64>)> = dice
            .iter()
            .map(|d| {
                let mut acc = 0u64;
                let cumulative = d
                    .faces
                    .iter()
                    .map(|f| {
                        acc += u64::from(f.weight);
                        acc
                    })
                    .collect();
                (cumulative, d.faces.iter().map(|f| f.value).collect())
            })
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut faces = vec![0i64; dice.len()];
        let mut counts = BTreeMap::new();
        for _ in 0..throws {
            for (slot, (cumulative, values)) in faces.iter_mut().zip(&tables) {
                let top = cumulative.last().copied().unwrap_or(1).max(1);
                let r = rng.random_range(0..top);
                let i = cumulative.partition_point(|&c| c <= r);
                *slot = values.get(i).copied().unwrap_or(0);
            }
            *counts.entry(expr.total(&faces)).or_insert(0u64) += 1;
        }
        Estimate {
            throws,
            seed,
            counts,
        }
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
