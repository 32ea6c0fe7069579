//! Exact odds of every outcome, before the roll, from the same definitions the resolver uses:
//! every possible throw is pushed through [`Prepared::finish_with`] and counted.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Prepared, ResolveError, prepare};
use crate::dice::{DiceExpr, Distribution, Fraction, choose as binomial};
use crate::rules::{Lookup, Procedure, Ruleset, Value};

/// Code shown for throws that land on a missing chart cell.
pub const MISSING_CODE: &str = "?";

/// The chance of one outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutcomeOdds {
    /// Result code (`?` for a missing chart cell).
    pub code: String,
    /// Label.
    pub label: String,
    /// The number it carries (hits, losses, table value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// Probability as a float, for bars.
    pub probability: f64,
    /// Exact probability in lowest terms.
    pub fraction: Fraction,
    /// Equally likely cases giving it.
    #[serde(skip)]
    pub count: u128,
}

/// The odds of a procedure for given inputs: the JSON contract of `umpire odds`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    /// Ruleset id.
    pub ruleset: String,
    /// Procedure id.
    pub procedure: String,
    /// Inputs used.
    pub inputs: BTreeMap<String, Value>,
    /// Outcomes in the order the dice reach them (lowest roll first).
    pub outcomes: Vec<OutcomeOdds>,
    /// Number of equally likely cases enumerated.
    #[serde(serialize_with = "as_string")]
    pub cases: u128,
    /// Whether every case reached a known cell.
    pub complete: bool,
}

fn as_string<S: serde::Serializer>(v: &u128, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// The most distinct pool throws enumerated for exact pool odds.
const MAX_POOL_STATES: u128 = 3_000_000;

struct Tally {
    order: Vec<(String, Option<i64>)>,
    counts: BTreeMap<(String, Option<i64>), (String, u128)>,
}

impl Tally {
    fn add(&mut self, code: String, label: String, value: Option<i64>, count: u128) {
        let key = (code, value);
        match self.counts.get_mut(&key) {
            Some(slot) => slot.1 += count,
            None => {
                self.order.push(key.clone());
                self.counts.insert(key, (label, count));
            }
        }
    }

    fn record(
        &mut self,
        prepared: &Prepared,
        natural: Option<i64>,
        faces: &[i64],
        count: u128,
    ) -> Result<(), ResolveError> {
        match prepared.finish_with(natural, faces, None) {
            Ok(f) => self.add(f.outcome.code, f.outcome.label, f.outcome.value, count),
            Err(ResolveError::MissingCell { .. }) => {
                self.add(
                    MISSING_CODE.into(),
                    "not in the rule text (chart cell missing)".into(),
                    None,
                    count,
                );
            }
            Err(e) => return Err(e),
        }
        Ok(())
    }
}

/// Called with each distinct throw (its faces) and how many equally likely cases give it.
type Visit<'a> = &'a mut dyn FnMut(&[i64], u128) -> Result<(), ResolveError>;

/// Every multiset of faces for a pool of `n` dice: calls `f(faces, count)`.
fn each_pool_throw(weights: &[(i64, u128)], n: u32, f: Visit<'_>) -> Result<(), ResolveError> {
    fn go(
        weights: &[(i64, u128)],
        i: usize,
        left: u32,
        faces: &mut Vec<i64>,
        count: u128,
        f: Visit<'_>,
    ) -> Result<(), ResolveError> {
        if i + 1 == weights.len() {
            let (v, w) = weights[i];
            let c = w
                .checked_pow(left)
                .and_then(|p| count.checked_mul(p))
                .ok_or_else(|| {
                    ResolveError::TooLarge("exact odds of this pool overflow 128 bits".into())
                })?;
            let len = faces.len();
            faces.extend(std::iter::repeat_n(v, left as usize));
            f(faces, c)?;
            faces.truncate(len);
            return Ok(());
        }
        let (v, w) = weights[i];
        for k in 0..=left {
            // Within the total (checked before the walk), so no product here overflows.
            let c = binomial(u128::from(left), u128::from(k))
                .and_then(|b| count.checked_mul(b))
                .and_then(|c| c.checked_mul(w.checked_pow(k)?))
                .ok_or_else(|| {
                    ResolveError::TooLarge("exact odds of this pool overflow 128 bits".into())
                })?;
            let len = faces.len();
            faces.extend(std::iter::repeat_n(v, k as usize));
            go(weights, i + 1, left - k, faces, c, f)?;
            faces.truncate(len);
        }
        Ok(())
    }
    if weights.is_empty() {
        return Ok(());
    }
    go(weights, 0, n, &mut Vec::with_capacity(n as usize), 1, f)
}

/// Exact odds of each outcome of `procedure` for these inputs.
pub fn odds(
    ruleset: &Ruleset,
    procedure: &Procedure,
    inputs: &BTreeMap<String, Value>,
) -> Result<Odds, ResolveError> {
    let prepared = prepare(ruleset, procedure, inputs)?;
    if let Some(e) = &prepared.unknown_modifier {
        return Err(e.clone());
    }
    let mut tally = Tally {
        order: Vec::new(),
        counts: BTreeMap::new(),
    };
    let cases = match (&prepared.dice, &procedure.lookup) {
        (None, _) => {
            tally.record(&prepared, None, &[], 1)?;
            1
        }
        (Some(expr), Lookup::Pool { .. }) => pool_odds(&prepared, expr, &mut tally)?,
        (Some(_), Lookup::Opposed { sum, hits, .. }) => {
            opposed_odds(&prepared, *sum, hits, &mut tally)?
        }
        (Some(expr), lookup) if lookup.reads_faces() => {
            each_face_odds(&prepared, expr, &mut tally)?
        }
        (Some(expr), _) => {
            let dist = expr.distribution().ok_or_else(|| {
                ResolveError::TooLarge(format!(
                    "{expr}: its exact odds count more equally likely cases than 128 bits hold"
                ))
            })?;
            for (natural, count) in dist.counts() {
                tally.record(&prepared, Some(natural), &[], count)?;
            }
            dist.total()
        }
    };
    let complete = !tally.counts.keys().any(|(c, _)| c == MISSING_CODE);
    // Pools: list by score.
    if matches!(procedure.lookup, Lookup::Pool { .. }) {
        tally.order.sort_by_key(|(_, v)| *v);
    }
    let outcomes = tally
        .order
        .iter()
        .map(|key| {
            let (label, count) = &tally.counts[key];
            let fraction = Fraction::new(*count, cases);
            OutcomeOdds {
                code: key.0.clone(),
                label: label.clone(),
                value: key.1,
                probability: fraction.to_f64(),
                fraction,
                count: *count,
            }
        })
        .collect();
    Ok(Odds {
        ruleset: ruleset.id.clone(),
        procedure: procedure.id.clone(),
        inputs: prepared.inputs.clone(),
        outcomes,
        cases,
        complete,
    })
}

/// Opposed rolls: each side's score distribution by convolution of its dice, then every pair.
fn opposed_odds(
    prepared: &Prepared,
    sum: bool,
    hits: &[crate::rules::HitRule],
    tally: &mut Tally,
) -> Result<u128, ResolveError> {
    let sides = prepared
        .groups
        .iter()
        .map(|g| g.side)
        .max()
        .map_or(0, |m| m + 1);
    let mut dists = vec![Distribution::constant(0); sides];
    for g in &prepared.groups {
        let mut pairs = Vec::new();
        for f in &g.die.faces {
            let scored = g.score(f.value);
            let v = if sum {
                scored
            } else {
                super::single_die_hits(hits, scored, prepared.scope())?.ok_or_else(|| {
                    ResolveError::TooLarge(
                        "exact odds of opposed rolls counting pairs of dice are not supported"
                            .into(),
                    )
                })?
            };
            pairs.push((v, u128::from(f.weight)));
        }
        let one = Distribution::from_weights(pairs);
        for _ in 0..g.count {
            dists[g.side] = dists[g.side]
                .add(&one)
                .ok_or_else(|| ResolveError::TooLarge("too many dice to enumerate".into()))?;
        }
    }
    let total = dists
        .iter()
        .try_fold(1u128, |acc, d| acc.checked_mul(d.total()))
        .ok_or_else(|| ResolveError::TooLarge("too many dice to enumerate".into()))?;
    let mut scores = vec![0i64; sides];
    fn go(
        dists: &[Distribution],
        i: usize,
        scores: &mut Vec<i64>,
        count: u128,
        prepared: &Prepared,
        tally: &mut Tally,
    ) -> Result<(), ResolveError> {
        if i == dists.len() {
            return match prepared.finish_scores(scores) {
                Ok(f) => {
                    tally.add(f.outcome.code, f.outcome.label, f.outcome.value, count);
                    Ok(())
                }
                Err(e) => Err(e),
            };
        }
        for (v, c) in dists[i].counts() {
            scores[i] = v;
            go(dists, i + 1, scores, count * c, prepared, tally)?;
        }
        Ok(())
    }
    go(&dists, 0, &mut scores, 1, prepared, tally)?;
    Ok(total)
}

/// The most face combinations enumerated when a lookup reads individual dice.
const MAX_FACE_COMBINATIONS: u128 = 1_000_000;

/// Odds when the lookup reads each die (`die_1`, `die_2`…): every ordered combination of faces.
fn each_face_odds(
    prepared: &Prepared,
    expr: &DiceExpr,
    tally: &mut Tally,
) -> Result<u128, ResolveError> {
    let dice = expr.dice();
    let total: u128 = dice.iter().map(|d| u128::from(d.total_weight())).product();
    let combinations: u128 = dice.iter().map(|d| d.faces.len() as u128).product();
    if combinations > MAX_FACE_COMBINATIONS {
        return Err(ResolveError::TooLarge(format!(
            "{expr}: too many face combinations to enumerate"
        )));
    }
    let mut index = vec![0usize; dice.len()];
    loop {
        let faces: Vec<i64> = dice
            .iter()
            .zip(&index)
            .map(|(d, &i)| d.faces[i].value)
            .collect();
        let count: u128 = dice
            .iter()
            .zip(&index)
            .map(|(d, &i)| u128::from(d.faces[i].weight))
            .product();
        tally.record(prepared, Some(expr.total(&faces)), &faces, count)?;
        // Next combination (odometer).
        let mut k = 0;
        loop {
            if k == dice.len() {
                return Ok(total);
            }
            index[k] += 1;
            if index[k] < dice[k].faces.len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
}

fn pool_odds(
    prepared: &Prepared,
    expr: &DiceExpr,
    tally: &mut Tally,
) -> Result<u128, ResolveError> {
    let dice = expr.dice();
    let n = dice.len() as u32;
    let Some(die) = dice.first() else {
        tally.record(prepared, None, &[], 1)?;
        return Ok(1);
    };
    let weights: Vec<(i64, u128)> = die
        .faces
        .iter()
        .map(|f| (f.value, u128::from(f.weight)))
        .collect();
    let states = binomial(
        u128::from(n) + weights.len() as u128 - 1,
        weights.len() as u128 - 1,
    );
    let total = u128::from(die.total_weight()).checked_pow(n);
    let Some(total) = total.filter(|_| states.is_some_and(|s| s <= MAX_POOL_STATES)) else {
        return Err(ResolveError::TooLarge(format!(
            "exact odds of a pool of {n} {} are too large to enumerate",
            die.name
        )));
    };
    each_pool_throw(&weights, n, &mut |faces, count| {
        tally.record(prepared, None, faces, count)
    })?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_is_exact_or_none_never_wrapped() {
        assert_eq!(binomial(10, 3), Some(120));
        assert_eq!(binomial(6 + 6 - 1, 5), Some(462));
        // The states of a pool of three d1000: C(1002, 999) = C(1002, 3), computed the short
        // way (the long way passed 128 bits and wrapped into a small number).
        assert_eq!(binomial(1002, 999), Some(167_167_000));
        // Past 128 bits: None, never a wrapped value.
        assert_eq!(binomial(1000, 500), None);
        assert_eq!(binomial(3, 5), Some(0));
    }
}
