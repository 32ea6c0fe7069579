//! Exact odds of every outcome, before the roll, from the same definitions the resolver uses:
//! every possible throw is pushed through [`Prepared::finish_with`] and counted.

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigUint;
use num_traits::One;
use serde::Serialize;

use super::{Prepared, ResolveError, prepare};
use crate::dice::{DiceExpr, Distribution, Fraction, Reducer, choose as binomial};
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
    pub count: BigUint,
}

impl OutcomeOdds {
    /// The outcome as people read it: its label, with the number it carries when the label
    /// does not already say it ("Hits (3)", "D", "2").
    pub fn words(&self) -> String {
        match self.value {
            Some(v) if self.label != v.to_string() && self.label.parse::<i64>().is_err() => {
                format!("{} ({v})", self.label)
            }
            _ => self.label.clone(),
        }
    }
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
    pub cases: BigUint,
    /// Whether every case reached a known cell.
    pub complete: bool,
}

fn as_string<S: serde::Serializer>(v: &BigUint, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// The most states the pool odds may walk (counts of dice in each class of faces).
const MAX_POOL_STATES: u64 = 3_000_000;

/// Counts by outcome (code and value), in the order first reached, with each outcome's label.
struct Tally {
    entries: Vec<Counted>,
    /// Where each outcome is in `entries` (built when an outcome is added one at a time).
    index: HashMap<(String, Option<i64>), usize>,
}

struct Counted {
    code: String,
    value: Option<i64>,
    label: String,
    count: BigUint,
}

impl Tally {
    fn add(&mut self, code: String, label: String, value: Option<i64>, count: BigUint) {
        if self.index.len() != self.entries.len() {
            self.index = (self.entries.iter().enumerate())
                .map(|(i, e)| ((e.code.clone(), e.value), i))
                .collect();
        }
        match self.index.get(&(code.clone(), value)) {
            Some(&i) => self.entries[i].count += count,
            None => {
                self.index.insert((code.clone(), value), self.entries.len());
                self.entries.push(Counted {
                    code,
                    value,
                    label,
                    count,
                });
            }
        }
    }

    /// Counts one finished lookup; a missing chart cell counts under [`MISSING_CODE`].
    fn count(
        &mut self,
        finished: Result<super::Finished, ResolveError>,
        count: BigUint,
    ) -> Result<(), ResolveError> {
        match finished {
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

    fn record(
        &mut self,
        prepared: &Prepared,
        natural: Option<i64>,
        faces: &[i64],
        count: BigUint,
    ) -> Result<(), ResolveError> {
        self.count(prepared.finish_with(natural, faces, None), count)
    }
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
        entries: Vec::new(),
        index: HashMap::new(),
    };
    let cases = match (&prepared.dice, &procedure.lookup) {
        (None, _) => {
            tally.record(&prepared, None, &[], BigUint::one())?;
            BigUint::one()
        }
        (Some(expr), Lookup::Pool { .. }) => pool_odds(&prepared, expr, &mut tally)?,
        (Some(_), Lookup::Opposed { sum, hits, .. }) => {
            opposed_odds(&prepared, *sum, hits, &mut tally)?
        }
        (Some(expr), lookup) if lookup.reads_faces() => {
            each_face_odds(&prepared, expr, &mut tally)?
        }
        (Some(expr), _) => {
            let dist = expr
                .distribution()
                .map_err(|e| ResolveError::TooLarge(e.to_string()))?;
            for (natural, count) in dist.counts() {
                tally.record(&prepared, Some(natural), &[], count.clone())?;
            }
            dist.total().clone()
        }
    };
    let complete = !tally.entries.iter().any(|e| e.code == MISSING_CODE);
    // Pools: list by score.
    if matches!(procedure.lookup, Lookup::Pool { .. }) {
        tally.entries.sort_by_key(|e| e.value);
    }
    // Each fraction reduced by the total's prime factors, found once.
    let mut reducer = Reducer::new(&cases);
    let outcomes = tally
        .entries
        .into_iter()
        .map(|e| {
            let fraction = reducer.fraction(&e.count);
            OutcomeOdds {
                code: e.code,
                label: e.label,
                value: e.value,
                probability: fraction.to_f64(),
                fraction,
                count: e.count,
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
) -> Result<BigUint, ResolveError> {
    let sides = prepared
        .groups
        .iter()
        .map(|g| g.side)
        .max()
        .map_or(0, |m| m + 1);
    // Each side's score so far: none until its first dice (then those dice's sum, not a sum
    // added to zero).
    let mut by_side: Vec<Option<Distribution>> = vec![None; sides];
    for g in prepared.groups.iter().filter(|g| g.count > 0) {
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
        let too_large = || ResolveError::TooLarge("a score passes the range of numbers".into());
        let group = Distribution::from_weights(pairs)
            .sum_of(u64::from(g.count))
            .ok_or_else(too_large)?;
        by_side[g.side] = Some(match &by_side[g.side] {
            None => group,
            Some(so_far) => so_far.add(&group).ok_or_else(too_large)?,
        });
    }
    let dists: Vec<Distribution> = by_side
        .into_iter()
        .map(|d| d.unwrap_or_else(|| Distribution::constant(0)))
        .collect();
    let pairs: f64 = dists.iter().map(|d| d.counts().count() as f64).product();
    if pairs > MAX_POOL_STATES as f64 {
        return Err(ResolveError::TooLarge(format!(
            "exact odds of this opposed roll would compare {pairs:.0} pairs of scores; the limit is {MAX_POOL_STATES}"
        )));
    }
    let total = dists.iter().fold(BigUint::one(), |acc, d| acc * d.total());
    // One pass over ranges of scores where the lookup's expressions allow it.
    if let Lookup::Opposed {
        sides: specs,
        lets,
        cases,
        ..
    } = &prepared.procedure.lookup
        && specs.len() == dists.len()
    {
        let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        if let Some(counted) =
            super::ranged::opposed_by_ranges(prepared, &names, lets, cases, &dists)
        {
            // Each outcome once, in order: straight into an empty tally.
            let fresh = tally.entries.is_empty();
            for (code, value, count) in counted? {
                let label = prepared
                    .procedure
                    .outcome(&code)
                    .map_or_else(|| code.clone(), |o| o.label.clone());
                if fresh {
                    tally.entries.push(Counted {
                        code,
                        value,
                        label,
                        count,
                    });
                } else {
                    tally.add(code, label, value, count);
                }
            }
            return Ok(total);
        }
    }
    let mut scores = vec![0i64; sides];
    fn go(
        dists: &[Distribution],
        i: usize,
        scores: &mut Vec<i64>,
        count: &BigUint,
        prepared: &Prepared,
        tally: &mut Tally,
    ) -> Result<(), ResolveError> {
        if i == dists.len() {
            let f = prepared.finish_scores(scores)?;
            tally.add(
                f.outcome.code,
                f.outcome.label,
                f.outcome.value,
                count.clone(),
            );
            return Ok(());
        }
        for (v, c) in dists[i].counts() {
            scores[i] = v;
            go(dists, i + 1, scores, &(count * c), prepared, tally)?;
        }
        Ok(())
    }
    go(&dists, 0, &mut scores, &BigUint::one(), prepared, tally)?;
    Ok(total)
}

/// The most face combinations enumerated when a lookup reads individual dice.
const MAX_FACE_COMBINATIONS: u128 = 1_000_000;

/// Odds when the lookup reads each die (`die_1`, `die_2`…): every ordered combination of faces.
fn each_face_odds(
    prepared: &Prepared,
    expr: &DiceExpr,
    tally: &mut Tally,
) -> Result<BigUint, ResolveError> {
    let dice = expr.dice();
    let combinations: u128 = dice
        .iter()
        .try_fold(1u128, |acc, d| acc.checked_mul(d.faces.len() as u128))
        .unwrap_or(u128::MAX);
    if combinations > MAX_FACE_COMBINATIONS {
        return Err(ResolveError::TooLarge(format!(
            "{expr}: too many face combinations to enumerate"
        )));
    }
    let total = dice
        .iter()
        .fold(BigUint::one(), |acc, d| acc * d.total_weight());
    let mut index = vec![0usize; dice.len()];
    loop {
        let faces: Vec<i64> = dice
            .iter()
            .zip(&index)
            .map(|(d, &i)| d.faces[i].value)
            .collect();
        let count = dice
            .iter()
            .zip(&index)
            .fold(BigUint::one(), |acc, (d, &i)| acc * d.faces[i].weight);
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

/// A pool's odds without enumerating its throws. Summed pools convolve the scored dice. Pools
/// that count hits sort the faces into classes by which hit rules each scored face matches
/// (for the QRS: 6s, 5s, and the rest); the throws are then the ways to share the dice among
/// the classes, C(n, m)·wᵐ at a time, with the matches of each rule counted on the way — for
/// 34 dice in three classes, 630 states instead of the 575,757 multisets of faces.
fn pool_odds(
    prepared: &Prepared,
    expr: &DiceExpr,
    tally: &mut Tally,
) -> Result<BigUint, ResolveError> {
    let dice = expr.dice();
    let n = dice.len() as u64;
    let (Some(die), Some(scoring)) = (dice.first(), prepared.pool_scoring()) else {
        tally.record(prepared, None, &[], BigUint::one())?;
        return Ok(BigUint::one());
    };
    let total = BigUint::from(die.total_weight()).pow(n as u32);
    let too_large = || ResolveError::TooLarge("a pool's score passes the range of numbers".into());
    if scoring.sum {
        let one = Distribution::from_weights(
            die.faces
                .iter()
                .map(|f| (scoring.scored(f.value), u128::from(f.weight))),
        );
        for (score, count) in one.sum_of(n).ok_or_else(too_large)?.counts() {
            tally.count(prepared.finish_pool_score(score), count.clone())?;
        }
        return Ok(total);
    }
    let mut rules = Vec::new();
    for rule in scoring.hits {
        if prepared.hit_rule_counts(rule)? {
            rules.push(rule);
        }
    }
    // Classes of faces: which rules a scored face matches → the weight of those faces.
    let mut classes: BTreeMap<Vec<bool>, u64> = BTreeMap::new();
    for f in &die.faces {
        let scored = scoring.scored(f.value);
        let mut signature = Vec::with_capacity(rules.len());
        for rule in &rules {
            signature.push(prepared.hit_rule_matches(rule, scored)?);
        }
        *classes.entry(signature).or_insert(0) += u64::from(f.weight);
    }
    let states = binomial(
        u128::from(n) + classes.len() as u128 - 1,
        classes.len() as u128 - 1,
    );
    if states.is_none_or(|s| s > u128::from(MAX_POOL_STATES)) {
        return Err(ResolveError::TooLarge(format!(
            "exact odds of a pool of {n} {} would walk more than {MAX_POOL_STATES} states",
            die.name
        )));
    }
    // Pascal's triangle up to n: C(a, m) for the dice left.
    let mut pascal: Vec<Vec<BigUint>> = vec![vec![BigUint::one()]];
    for a in 1..=n as usize {
        let prev = &pascal[a - 1];
        let mut row = vec![BigUint::one(); a + 1];
        for m in 1..a {
            row[m] = &prev[m - 1] + &prev[m];
        }
        pascal.push(row);
    }
    // (dice placed, matches of each rule) → ways.
    let mut walk: HashMap<(u64, Vec<u64>), BigUint> =
        HashMap::from([((0, vec![0; rules.len()]), BigUint::one())]);
    let last = classes.len() - 1;
    for (i, (signature, weight)) in classes.iter().enumerate() {
        let mut powers = vec![BigUint::one()];
        for m in 1..=n as usize {
            let next = &powers[m - 1] * *weight;
            powers.push(next);
        }
        let mut next: HashMap<(u64, Vec<u64>), BigUint> = HashMap::new();
        for ((placed, matches), ways) in walk {
            let left = n - placed;
            // The last class takes every die left.
            let range = if i == last { left..=left } else { 0..=left };
            for m in range {
                let mut matched = matches.clone();
                for (slot, hit) in matched.iter_mut().zip(signature) {
                    if *hit {
                        *slot += m;
                    }
                }
                let w = &ways * &pascal[left as usize][m as usize] * &powers[m as usize];
                *next.entry((placed + m, matched)).or_default() += w;
            }
        }
        walk = next;
    }
    // Score each state: the rules' hits from their matches; then one lookup per score.
    let mut by_score: BTreeMap<i64, BigUint> = BTreeMap::new();
    for ((_, matches), ways) in walk {
        let mut score = 0i64;
        for (rule, count) in rules.iter().zip(&matches) {
            let mut h = (*count / u64::from(rule.per.max(1))) as i64 * i64::from(rule.hits);
            if let Some(max) = rule.max_hits {
                h = h.min(i64::from(max));
            }
            score += h;
        }
        *by_score.entry(score).or_default() += ways;
    }
    for (score, ways) in by_score {
        tally.count(prepared.finish_pool_score(score), ways)?;
    }
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
