//! Opposed odds by ranges of scores (issue 32) against every pair of scores evaluated the
//! ordinary way: the same outcomes, values, counts and order, for the rr3 battle and Gradisca's
//! Field Combat over inputs that exercise every `let` and case.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use umpire_core::dice::Distribution;
use umpire_core::resolve::{odds, prepare};

use crate::common::{inputs_for, shipped};

/// Each side's score distribution as the odds build it (sums, or hits of `die − fv ≤ 0`), then
/// every pair of scores through `finish_scores`: (code, value) → count, in the order reached.
fn pair_by_pair(
    ruleset: &str,
    procedure: &str,
    inputs: &[(&str, &str)],
    hits: bool,
) -> Vec<((String, Option<i64>), BigUint)> {
    let rs = shipped(ruleset);
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
    for (a, ca) in dists[0].counts() {
        for (d, cd) in dists[1].counts() {
            let f = prepared.finish_scores(&[a, d]).expect("finishes");
            let key = (f.outcome.code.clone(), f.outcome.value);
            if !counts.contains_key(&key) {
                order.push(key.clone());
            }
            *counts.entry(key).or_default() += ca * cd;
        }
    }
    order
        .into_iter()
        .map(|k| {
            let c = counts[&k].clone();
            (k, c)
        })
        .collect()
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
