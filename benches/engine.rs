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

criterion_group!(engine, benches, versus_icepool);
criterion_main!(engine);
