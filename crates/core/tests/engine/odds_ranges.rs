//! Opposed odds by ranges of scores (issue 32) against every pair of scores evaluated the
//! ordinary way: the same outcomes, values, counts and order, for the rr3 battle and Gradisca's
//! Field Combat over inputs that exercise every `let` and case.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use umpire_core::dice::Distribution;
use umpire_core::resolve::{odds, prepare};

use crate::common::{inputs_for, shipped};

/// The shipped lookup, every pair of scores the ordinary way ([`every_throw`]).
fn pair_by_pair(ruleset: &str, procedure: &str, inputs: &[(&str, &str)], hits: bool) -> Outcomes {
    every_throw(shipped(ruleset), procedure, inputs, hits).expect("finishes")
}

fn by_ranges(
    ruleset: &str,
    procedure: &str,
    inputs: &[(&str, &str)],
) -> Vec<((String, Option<i64>), BigUint)> {
    let rs = shipped(ruleset);
    let p = rs.procedure(procedure).expect("procedure");
    let o = odds(rs, p, &inputs_for(rs, procedure, inputs)).expect("odds");
    assert!(o.complete);
    let total: BigUint = o.outcomes.iter().map(|x| x.count.clone()).sum();
    assert_eq!(
        total, o.cases,
        "{procedure}: the counts add up to the cases"
    );
    o.outcomes
        .into_iter()
        .map(|x| ((x.code, x.value), x.count))
        .collect()
}

#[test]
fn the_rr3_battle_by_ranges_is_every_pair() {
    for inputs in [
        vec![("attacker_thousands", "70"), ("defender_thousands", "70")],
        vec![
            ("attacker_thousands", "23"),
            ("defender_thousands", "9"),
            ("defender_river", "true"),
        ],
        vec![
            ("attacker_thousands", "47"),
            ("attacker_nationality", "french"),
            ("attacker_fatigue", "2"),
            ("defender_thousands", "31"),
            ("defender_nationality", "spanish"),
            ("defender_looting", "true"),
        ],
        vec![("attacker_thousands", "3"), ("defender_thousands", "4")],
    ] {
        let mut inputs = inputs;
        for (name, default) in [
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
        ] {
            if !inputs.iter().any(|(n, _)| *n == name) {
                inputs.push((name, default));
            }
        }
        assert_eq!(
            by_ranges("rr3", "battle", &inputs),
            pair_by_pair("rr3", "battle", &inputs, false),
            "{inputs:?}"
        );
    }
}

#[test]
fn gradisca_field_combat_by_ranges_is_every_pair() {
    for inputs in [
        vec![
            ("attacker_fv3", "4"),
            ("attacker_fv5", "2"),
            ("attacker_two_hit_units", "3"),
            ("attacker_one_hit_units", "2"),
            ("defender_fv2", "5"),
            ("defender_cmd_lv2", "1"),
            ("defender_two_hit_units", "2"),
            ("defender_one_hit_units", "3"),
            ("forts", "1"),
            ("attacker_artillery_fv", "3"),
            ("defender_artillery_fv", "2"),
        ],
        vec![
            ("attacker_fv1", "30"),
            ("attacker_fv6", "12"),
            ("attacker_two_hit_units", "30"),
            ("attacker_one_hit_units", "0"),
            ("defender_fv4", "20"),
            ("defender_two_hit_units", "5"),
            ("defender_one_hit_units", "30"),
            ("fortified_town", "true"),
            ("defender_in_fortress_through_breach", "true"),
            ("attacker_artillery_fv", "4"),
            ("defender_artillery_fv", "4"),
        ],
    ] {
        assert_eq!(
            by_ranges("gradisca", "field_combat", &inputs),
            pair_by_pair("gradisca", "field_combat", &inputs, true),
            "{inputs:?}"
        );
    }
}

/// Outcomes and their counts, in the order reached.
type Outcomes = Vec<((String, Option<i64>), BigUint)>;

/// Each side's score distribution as the odds build it (sums, or with `hits` a hit for each
/// `die − fv ≤ 0`), then every throw of every side through `finish_scores`: (code, value) →
/// count, in the order of the sides' scores (the first side's lowest first), or the first error.
fn every_throw(
    rs: &umpire_core::rules::Ruleset,
    procedure: &str,
    inputs: &[(&str, &str)],
    hits: bool,
) -> Result<Outcomes, String> {
    let p = rs.procedure(procedure).expect("procedure");
    let typed = inputs_for(rs, procedure, inputs);
    let prepared = prepare(rs, p, &typed).expect("prepares");
    let sides = prepared
        .groups
        .iter()
        .map(|g| g.side)
        .max()
        .map_or(0, |m| m + 1);
    let mut dists = vec![Distribution::constant(0); sides];
    for g in &prepared.groups {
        let one = Distribution::from_weights(g.die.faces.iter().map(|f| {
            let s = g.score(f.value);
            (
                if hits { i64::from(s <= 0) } else { s },
                u128::from(f.weight),
            )
        }));
        dists[g.side] = dists[g.side]
            .add(&one.sum_of(u64::from(g.count)).expect("sum"))
            .expect("sum");
    }
    let mut order = Vec::new();
    let mut counts: BTreeMap<(String, Option<i64>), BigUint> = BTreeMap::new();
    // Odometer over the sides' scores, the last side fastest.
    let lists: Vec<Vec<(i64, BigUint)>> = dists
        .iter()
        .map(|d| d.counts().map(|(v, c)| (v, c.clone())).collect())
        .collect();
    let mut at = vec![0usize; sides];
    'throws: loop {
        let scores: Vec<i64> = at.iter().zip(&lists).map(|(&i, l)| l[i].0).collect();
        let count = at
            .iter()
            .zip(&lists)
            .fold(BigUint::from(1u8), |acc, (&i, l)| acc * &l[i].1);
        let f = prepared.finish_scores(&scores).map_err(|e| e.to_string())?;
        let key = (f.outcome.code.clone(), f.outcome.value);
        if !counts.contains_key(&key) {
            order.push(key.clone());
        }
        *counts.entry(key).or_default() += count;
        for s in (0..sides).rev() {
            at[s] += 1;
            if at[s] < lists[s].len() {
                continue 'throws;
            }
            at[s] = 0;
        }
        break;
    }
    Ok(order
        .into_iter()
        .map(|k| {
            let c = counts[&k].clone();
            (k, c)
        })
        .collect())
}

fn opposed_fixture() -> &'static umpire_core::rules::Ruleset {
    static FIXTURE: std::sync::OnceLock<umpire_core::rules::Ruleset> = std::sync::OnceLock::new();
    FIXTURE.get_or_init(|| {
        crate::common::fixture(&crate::root().join("tests/fixtures/opposed/opposed"))
    })
}

#[test]
fn every_compiled_shape_by_ranges_is_every_throw() {
    let rs = opposed_fixture();
    let mut cases: Vec<(&str, Vec<(&str, &str)>)> = Vec::new();
    // The last: 6⁴⁰·8⁴⁰ throws, past 128 bits (counts of four words).
    for (a, b, edge) in [
        ("6", "5", "1"),
        ("1", "12", "-3"),
        ("12", "3", "3"),
        ("4", "4", "0"),
        ("40", "40", "2"),
    ] {
        cases.push(("margin", vec![("a_dice", a), ("b_dice", b), ("edge", edge)]));
    }
    for dice in ["1", "3", "5"] {
        cases.push(("three_way", vec![("dice", dice)]));
    }
    cases.push(("ratio", vec![("zero_possible", "false")]));
    for (procedure, inputs) in cases {
        let expected = every_throw(rs, procedure, &inputs, false).expect("no throw fails");
        let p = rs.procedure(procedure).expect("procedure");
        let o = odds(rs, p, &inputs_for(rs, procedure, &inputs)).expect("odds");
        let got: Vec<_> = o
            .outcomes
            .into_iter()
            .map(|x| ((x.code, x.value), x.count))
            .collect();
        assert_eq!(got, expected, "{procedure} {inputs:?}");
        assert!(
            expected.len() > 1,
            "{procedure} {inputs:?} reaches several outcomes"
        );
    }
}

#[test]
fn a_throw_that_fails_fails_the_odds_as_the_resolver_does() {
    let rs = opposed_fixture();
    // A let that divides by the defender's 0; and one whose `if` guards against it in vain
    // (evalexpr computes both branches), where passing the branch by would hide the error.
    for (procedure, inputs, name) in [
        ("ratio", vec![("zero_possible", "true")], "ratio"),
        ("guarded", vec![], "guarded"),
    ] {
        let resolver =
            every_throw(rs, procedure, &inputs, false).expect_err("a defender's 0 divides by zero");
        let p = rs.procedure(procedure).expect("procedure");
        let odds_error = odds(rs, p, &inputs_for(rs, procedure, &inputs))
            .expect_err("the odds meet the same throw")
            .to_string();
        assert_eq!(odds_error, resolver);
        assert!(odds_error.contains(name), "{odds_error}");
    }
}
