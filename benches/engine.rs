//! Engine benchmarks: loading rulesets, resolving, odds, a large distribution.
//! Targets (2-core CI machine): resolve ≤ 20 µs, odds ≤ 200 µs, loading all rulesets ≤ 50 ms.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use umpire::dice::{AppDice, DiceExpr, DieSet};
use umpire::resolve::{DiceSource, odds, parse_inputs, resolve};
use umpire::rules::{Library, shipped_sources};

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn benches(c: &mut Criterion) {
    let sources = shipped_sources();
    c.bench_function("load_all_shipped_rulesets", |b| {
        b.iter(|| {
            let lib = Library::load(black_box(&sources));
            assert!(lib.failed.is_empty());
            lib
        })
    });

    let lib = Library::shipped();
    let qrs = lib.get("qrs").expect("qrs ships");
    let discipline = qrs.procedure("discipline_test").expect("procedure");
    let inputs = parse_inputs(
        discipline,
        &pairs(&[
            ("discipline", "B"),
            ("outside_command_range", "true"),
            ("test_for", "evasion"),
            ("cl", "true"),
        ]),
    )
    .expect("inputs");
    let mut app = AppDice::new(42);
    c.bench_function("resolve_discipline_test_app_dice", |b| {
        b.iter(|| {
            resolve(
                qrs,
                discipline,
                black_box(&inputs),
                DiceSource::App(&mut app),
                None,
            )
            .expect("resolves")
        })
    });

    let cohesion = qrs.procedure("cohesion_test").expect("procedure");
    let cohesion_inputs = parse_inputs(
        cohesion,
        &pairs(&[
            ("vbu", "4"),
            ("damage", "2"),
            ("test_from", "shooting"),
            ("shot_range", "long"),
        ]),
    )
    .expect("inputs");
    c.bench_function("odds_cohesion_test", |b| {
        b.iter(|| odds(qrs, cohesion, black_box(&cohesion_inputs)).expect("odds"))
    });

    let shooting = qrs.procedure("shooting").expect("procedure");
    let shooting_inputs: BTreeMap<_, _> = parse_inputs(
        shooting,
        &pairs(&[
            ("base_dice", "6"),
            ("weapon", "musket"),
            ("band", "point_blank"),
        ]),
    )
    .expect("inputs");
    c.bench_function("odds_shooting_pool_8d6", |b| {
        b.iter(|| odds(qrs, shooting, black_box(&shooting_inputs)).expect("odds"))
    });

    let ten = DiceExpr::parse("10d6", &DieSet::new()).expect("parses");
    c.bench_function("distribution_10d6", |b| {
        b.iter(|| black_box(&ten).distribution().expect("fits"))
    });

    // Keep and count, without enumerating throws (issue 16): the shapes the 128-bit counts
    // still hold.
    for notation in [
        "4d6kh3", "7d6kh1", "40d6kh3", "30d6>=5", "45d6>=6", "12d1000",
    ] {
        let expr = DiceExpr::parse(notation, &DieSet::new()).expect("parses");
        c.bench_function(&format!("distribution_{notation}"), |b| {
            b.iter(|| black_box(&expr).distribution().expect("fits"))
        });
    }
}

/// The cases of `scripts/icepool_compare.py`, under the same ids, so the script can read
/// Umpire's times beside icepool's (BENCHMARKS.md, "Umpire and icepool side by side").
fn versus_icepool(c: &mut Criterion) {
    let mut group = c.benchmark_group("versus_icepool");
    group.sample_size(10);
    for (id, notation) in [
        ("sum_10d6", "10d6"),
        ("sum_100d6", "100d6"),
        ("sum_500d6", "500d6"),
        ("sum_10d1000", "10d1000"),
        ("pool_30d6_count_5up", "30d6>=5"),
        ("pool_150d6_count_6s", "150d6>=6"),
        ("keep_4d6kh3", "4d6kh3"),
        ("keep_7d6kh1", "7d6kh1"),
        ("keep_1000d6kh3", "1000d6kh3"),
    ] {
        let expr = DiceExpr::parse(notation, &DieSet::new()).expect("parses");
        group.bench_function(id, |b| {
            b.iter(|| black_box(&expr).distribution().expect("fits"))
        });
    }
    // The QRS shooting pool at 34 dice: 32 base dice and the musket's +2 at point blank; one
    // hit per 6 and one per pair of 5s (the ruling's default reading).
    let library = Library::shipped();
    let qrs = library.get("qrs").expect("qrs ships");
    let shooting = qrs.procedure("shooting").expect("procedure");
    let inputs: BTreeMap<_, _> = parse_inputs(
        shooting,
        &pairs(&[
            ("base_dice", "32"),
            ("weapon", "musket"),
            ("band", "point_blank"),
        ]),
    )
    .expect("inputs");
    group.bench_function("qrs_shooting_34", |b| {
        b.iter(|| odds(qrs, shooting, black_box(&inputs)).expect("odds"))
    });
    group.finish();
}

/// Issue 32's series, under the ids `scripts/icepool_compare.py --series` reads: `Nd6`,
/// `Nd6khN/2`, `Nd6>=5`, `Nd6 > Nd6`, `max(300d6,300d6)` and `12d1000+12d1000`, each with its
/// floor, the least any method must do: for a sum, one pass over its output (adding up every
/// count, which any algorithm writes); for an opposed roll or a highest, the two sums it
/// compares; for `12d1000+12d1000`, the one term it makes (`24d1000`).
fn series(c: &mut Criterion) {
    let mut group = c.benchmark_group("series");
    group.sample_size(10);
    let exact = |n: &str| DiceExpr::parse(n, &DieSet::new()).expect("parses");
    let unlimited = umpire::dice::Budget {
        seconds: 1.0e9,
        bytes: 1.0e15,
    };
    let mut cases: Vec<(String, String)> = Vec::new();
    for n in [10, 100, 500, 1000, 2000, 5000] {
        cases.push((format!("sum_{n}d6"), format!("{n}d6")));
    }
    for n in [10, 50, 100, 200, 400, 700, 1000] {
        cases.push((
            format!("keep_{n}d6kh{}", n / 2),
            format!("{n}d6kh{}", n / 2),
        ));
    }
    for n in [100, 1000, 10000] {
        cases.push((format!("count_{n}d6_5up"), format!("{n}d6>=5")));
    }
    for n in [10, 100, 500, 1000] {
        cases.push((format!("opposed_{n}d6"), format!("{n}d6 > {n}d6")));
    }
    // The other two: a highest of two sums, and two sums of separate terms.
    cases.push(("max_300d6".into(), "max(300d6,300d6)".into()));
    cases.push(("sum_12d1000_twice".into(), "12d1000+12d1000".into()));
    for (id, notation) in &cases {
        let expr = exact(notation);
        group.bench_function(id.as_str(), |b| {
            b.iter(|| {
                black_box(&expr)
                    .distribution_within(&unlimited)
                    .expect("fits")
            })
        });
        // The floor: one pass over the output (or the two sums an opposed roll or a highest
        // compares).
        if let Some(n) = id
            .strip_prefix("opposed_")
            .or_else(|| id.strip_prefix("max_"))
        {
            let side = exact(n);
            group.bench_function(format!("floor_{id}"), |b| {
                b.iter(|| {
                    let a = black_box(&side)
                        .distribution_within(&unlimited)
                        .expect("fits");
                    let b = black_box(&side)
                        .distribution_within(&unlimited)
                        .expect("fits");
                    (a, b)
                })
            });
        } else if id == "sum_12d1000_twice" {
            // Two terms of the same dice: the floor is the one term they make (the issue's
            // 24d1000, the same distribution).
            let one = exact("24d1000");
            group.bench_function(format!("floor_{id}"), |b| {
                b.iter(|| {
                    black_box(&one)
                        .distribution_within(&unlimited)
                        .expect("fits")
                })
            });
        } else {
            let dist = expr.distribution_within(&unlimited).expect("fits");
            group.bench_function(format!("floor_{id}"), |b| {
                b.iter(|| {
                    black_box(&dist)
                        .counts()
                        .fold(num_bigint::BigUint::default(), |acc, (_, c)| acc + c)
                })
            });
        }
    }
    group.finish();
}

/// Every procedure against icepool on the same distribution (issue 32): the rr3 battle at
/// 70,000 and 200,000 a side (the second past the ruleset's limit of 70: the bench raises it,
/// as the same distribution), the QRS shooting pool at 64 dice and Gradisca's Field Combat
/// with every input at its maximum (208 dice a side). Ids as `scripts/icepool_compare.py`.
fn procedures_versus_icepool(c: &mut Criterion) {
    let mut group = c.benchmark_group("procedures_versus_icepool");
    group.sample_size(10);
    let mut sources = shipped_sources();
    for files in &mut sources {
        if files.ruleset.name.contains("rr3") {
            files.ruleset.text = files
                .ruleset
                .text
                .replace(
                    "type: int, min: 1, max: 70, label: Attacker strength",
                    "type: int, min: 1, max: 200, label: Attacker strength",
                )
                .replace(
                    "type: int, min: 1, max: 70, label: Defender strength",
                    "type: int, min: 1, max: 200, label: Defender strength",
                );
        }
    }
    let library = Library::load(&sources);
    assert!(library.failed.is_empty(), "{:?}", library.failed);
    for (id, ruleset, procedure, inputs) in procedure_cases() {
        let rs = library.get(ruleset).expect("ships");
        let p = rs.procedure(procedure).expect("procedure");
        let typed = parse_inputs(p, &pairs(&inputs)).expect("inputs");
        group.bench_function(id, |b| {
            b.iter(|| odds(rs, p, black_box(&typed)).expect("odds"))
        });
        // The rr3 battle beside its floor, and the preparing every roll of it pays (inputs,
        // derived values, modifiers), which the floor leaves out.
        if let Some(thousands) = id
            .strip_prefix("rr3_battle_")
            .and_then(|k| k.strip_suffix('k'))
        {
            let dice: u64 = thousands.parse::<u64>().expect("thousands") / 5;
            let mut ours: Vec<_> = odds(rs, p, &typed).expect("odds").outcomes;
            let mut floor = battle_floor(dice);
            let key = |o: &umpire::resolve::OutcomeOdds| (o.code.clone(), o.value);
            ours.sort_by_key(key);
            floor.sort_by_key(key);
            let fractions = |v: &[umpire::resolve::OutcomeOdds]| -> Vec<_> {
                v.iter().map(|o| (key(o), o.fraction.clone())).collect()
            };
            assert_eq!(
                fractions(&ours),
                fractions(&floor),
                "{id}: the floor gives the same odds"
            );
            group.bench_function(format!("floor_{id}"), |b| {
                b.iter(|| battle_floor(black_box(dice)))
            });
            group.bench_function(format!("prepare_{id}"), |b| {
                b.iter(|| umpire::resolve::prepare(rs, p, black_box(&typed)).expect("prepares"))
            });
        }
    }
    group.finish();
}

/// The floor of the rr3 battle's odds at `dice` d6 a side, the least any method must do: the
/// two sums, one pass over each side's scores against the other side's cumulative counts (the
/// winner's score decides the value: the loser loses half of it), and the outcomes as the odds
/// give them (code, label, value, fraction in lowest terms, probability). Counts in machine
/// words where the throws fit in them.
fn battle_floor(dice: u64) -> Vec<umpire::resolve::OutcomeOdds> {
    use num_bigint::BigUint;
    use umpire::dice::{Distribution, Reducer};
    use umpire::resolve::OutcomeOdds;
    let d6 = Distribution::from_weights((1..=6).map(|f| (f, 1u128)));
    let (a, d) = (d6.sum_of(dice).expect("sum"), d6.sum_of(dice).expect("sum"));
    let total = a.total() * d.total();
    // Both sides score dice..=6·dice: the other side's scores below this side's i-th score are
    // its first i.
    let wins = |x: &Distribution, y: &Distribution| -> Vec<(i64, BigUint)> {
        let mut out: Vec<(i64, BigUint)> = Vec::new();
        let mut push = |s: i64, c: BigUint| match out.last_mut() {
            Some(last) if last.0 == s / 2 => last.1 += c,
            _ => out.push((s / 2, c)),
        };
        if total.bits() < 128 {
            let mut below = 0u128;
            for ((s, n), (_, m)) in x.counts().zip(y.counts()) {
                let n = u128::try_from(n).expect("fits");
                push(s, BigUint::from(n * below));
                below += u128::try_from(m).expect("fits");
            }
        } else {
            let mut below = BigUint::from(0u8);
            for ((s, n), (_, m)) in x.counts().zip(y.counts()) {
                push(s, n * &below);
                below += m;
            }
        }
        out.retain(|(_, c)| c.bits() > 0);
        out
    };
    let tie: BigUint = a
        .counts()
        .zip(d.counts())
        .map(|((_, x), (_, y))| x * y)
        .sum();
    let mut reducer = Reducer::new(&total);
    let mut outcome = |code: &str, label: &str, value: Option<i64>, count: BigUint| {
        let fraction = reducer.fraction(&count);
        OutcomeOdds {
            code: code.to_string(),
            label: label.to_string(),
            value,
            probability: fraction.to_f64(),
            fraction,
            count,
        }
    };
    let mut outcomes = Vec::new();
    for (v, c) in wins(&a, &d) {
        outcomes.push(outcome("attacker_wins", "Attacker wins", Some(v), c));
    }
    for (v, c) in wins(&d, &a) {
        outcomes.push(outcome("defender_wins", "Defender wins", Some(v), c));
    }
    outcomes.push(outcome("tie", "Tie", None, tie));
    outcomes
}

/// The procedures compared with icepool: id, ruleset, procedure, inputs.
#[allow(clippy::type_complexity)]
fn procedure_cases() -> Vec<(
    &'static str,
    &'static str,
    &'static str,
    Vec<(&'static str, &'static str)>,
)> {
    let side = |who: &'static str, n: &'static str| -> Vec<(&'static str, &'static str)> {
        let (t, nat) = if who == "attacker" {
            ("attacker_thousands", "attacker_nationality")
        } else {
            ("defender_thousands", "defender_nationality")
        };
        vec![(t, n), (nat, "other")]
    };
    let battle = |n: &'static str| [side("attacker", n), side("defender", n)].concat();
    let mut gradisca: Vec<(&'static str, &'static str)> = Vec::new();
    for who in ["attacker", "defender"] {
        let names: &[(&str, &str)] = if who == "attacker" {
            &[
                ("attacker_fv1", "30"),
                ("attacker_fv2", "30"),
                ("attacker_fv3", "30"),
                ("attacker_fv4", "30"),
                ("attacker_fv5", "30"),
                ("attacker_fv6", "30"),
                ("attacker_cmd_lv1", "6"),
                ("attacker_cmd_lv2", "6"),
                ("attacker_cmd_lv3", "6"),
                ("attacker_artillery", "10"),
                ("attacker_artillery_fv", "6"),
                ("attacker_two_hit_units", "30"),
                ("attacker_one_hit_units", "30"),
            ]
        } else {
            &[
                ("defender_fv1", "30"),
                ("defender_fv2", "30"),
                ("defender_fv3", "30"),
                ("defender_fv4", "30"),
                ("defender_fv5", "30"),
                ("defender_fv6", "30"),
                ("defender_cmd_lv1", "6"),
                ("defender_cmd_lv2", "6"),
                ("defender_cmd_lv3", "6"),
                ("defender_artillery", "10"),
                ("defender_artillery_fv", "6"),
                ("defender_two_hit_units", "30"),
                ("defender_one_hit_units", "30"),
            ]
        };
        gradisca.extend_from_slice(names);
    }
    gradisca.extend_from_slice(&[("forts", "3"), ("fortified_town", "true")]);
    vec![
        ("rr3_battle_70k", "rr3", "battle", battle("70")),
        ("rr3_battle_200k", "rr3", "battle", battle("200")),
        (
            "qrs_shooting_64",
            "qrs",
            "shooting",
            vec![
                ("base_dice", "60"),
                ("weapon", "heavy_cannon"),
                ("band", "point_blank"),
                ("target_massed", "true"),
            ],
        ),
        (
            "gradisca_field_combat_max",
            "gradisca",
            "field_combat",
            gradisca,
        ),
    ]
}

criterion_group!(
    engine,
    benches,
    versus_icepool,
    series,
    procedures_versus_icepool
);
criterion_main!(engine);
