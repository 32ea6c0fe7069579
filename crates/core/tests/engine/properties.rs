//! Properties of the engine, checked with random inputs:
//! - the odds of every procedure (shapes fixture and shipped QRS) sum to exactly 1;
//! - resolving every possible throw reproduces the odds exactly;
//! - `DiceExpr::distribution()` equals brute-force enumeration of the faces.
//!
//! Failures are not persisted to disk (the regressions file would be an untracked side effect);
//! proptest prints the failing, shrunk inputs instead.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use umpire_core::dice::{DiceExpr, DieSet, Fraction};
use umpire_core::resolve::{Odds, ResolveError, odds, prepare};
use umpire_core::rules::{
    InputKind, InputSpec, Library, Procedure, Ruleset, Value, load_ruleset, read_ruleset_dir,
};

/// Throws enumerated one by one at most (larger cases check only the odds' sum).
const MAX_COMBINATIONS: u128 = 50_000;
/// Random input sets per procedure.
const CASES_PER_PROCEDURE: u32 = 64;
/// Random input sets per pool procedure: a case may enumerate up to 46,656 throws (6d6), each
/// resolved in full, so pools get fewer cases to keep the file well under 30 s in debug.
const CASES_PER_POOL: u32 = 24;

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn shapes() -> &'static Ruleset {
    static SHAPES: OnceLock<Ruleset> = OnceLock::new();
    SHAPES.get_or_init(|| {
        let dir = crate::root().join("tests/fixtures/shapes/shapes");
        let files = read_ruleset_dir(&dir).expect("fixture folder reads");
        load_ruleset(&files).unwrap_or_else(|e| panic!("shapes fixture does not load:\n{e}"))
    })
}

fn qrs() -> &'static Ruleset {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(Library::shipped)
        .get("qrs")
        .expect("qrs ships")
}

// ── Input generation ──────────────────────────────────────────────────────────────────

/// A valid value for an input. Numbers favour the low end half the time (small pools can be
/// enumerated), and cover the whole range the other half.
fn value_strategy(spec: &InputSpec) -> BoxedStrategy<Value> {
    match &spec.kind {
        InputKind::Int { min, max } => {
            let (min, max) = (*min, *max);
            let low_end = min..=max.min(min.saturating_add(4));
            prop_oneof![low_end, min..=max].prop_map(Value::Int).boxed()
        }
        InputKind::Choice { choices } => prop::sample::select(choices.clone())
            .prop_map(Value::Text)
            .boxed(),
        InputKind::Flag => any::<bool>().prop_map(Value::Bool).boxed(),
    }
}

/// Inputs for a procedure; inputs that may be left out (flags, defaults) sometimes are.
fn inputs_strategy(procedure: &Procedure) -> BoxedStrategy<BTreeMap<String, Value>> {
    let parts: Vec<BoxedStrategy<Option<(String, Value)>>> = procedure
        .inputs
        .iter()
        .map(|spec| {
            let name = spec.name.clone();
            let value = value_strategy(spec).prop_map(move |v| Some((name.clone(), v)));
            if spec.default.is_some() || matches!(spec.kind, InputKind::Flag) {
                prop_oneof![1 => Just(None), 4 => value].boxed()
            } else {
                value.boxed()
            }
        })
        .collect();
    parts
        .prop_map(|pairs| pairs.into_iter().flatten().collect())
        .boxed()
}

// ── Exact arithmetic helpers ──────────────────────────────────────────────────────────

/// Exact sum of fractions (big rationals: never an overflow).
fn sum_fractions(fractions: impl IntoIterator<Item = Fraction>) -> Option<Fraction> {
    use num_bigint::BigUint;
    let (mut n, mut d) = (BigUint::from(0u8), BigUint::from(1u8));
    for f in fractions {
        n = n * f.denominator() + f.numerator() * &d;
        d *= f.denominator();
    }
    Some(Fraction::of(n, d))
}

// ── The odds properties ───────────────────────────────────────────────────────────────

type Key = (String, Option<i64>);

/// Every throw of the prepared dice, with its weight: `None` when there are too many.
fn each_throw(dice: &[&umpire_core::dice::Die]) -> Option<Vec<(Vec<i64>, u128)>> {
    let combinations = dice
        .iter()
        .try_fold(1u128, |acc, d| acc.checked_mul(d.faces.len() as u128))?;
    if combinations > MAX_COMBINATIONS {
        return None;
    }
    let mut out = Vec::with_capacity(combinations as usize);
    let mut index = vec![0usize; dice.len()];
    loop {
        let faces = dice
            .iter()
            .zip(&index)
            .map(|(d, &i)| d.faces[i].value)
            .collect();
        let weight = dice
            .iter()
            .zip(&index)
            .map(|(d, &i)| u128::from(d.faces[i].weight))
            .product();
        out.push((faces, weight));
        // Odometer.
        let mut k = 0;
        loop {
            if k == dice.len() {
                return Some(out);
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

/// Weight of each outcome over every throw, or the first error met.
type Tally = Result<BTreeMap<Key, u128>, Box<ResolveError>>;

/// What happens for every throw, with the total weight; `None` when prepare fails or there
/// are too many throws to enumerate.
fn tally_all_throws(
    ruleset: &Ruleset,
    procedure: &Procedure,
    inputs: &BTreeMap<String, Value>,
) -> Option<(Tally, u128)> {
    let prepared = prepare(ruleset, procedure, inputs).ok()?;
    let throws = match &prepared.dice {
        Some(expr) => each_throw(&expr.dice())?,
        None => vec![(Vec::new(), 1)],
    };
    let total: u128 = throws.iter().map(|(_, w)| w).sum();
    let mut tally: BTreeMap<Key, u128> = BTreeMap::new();
    for (faces, weight) in throws {
        let key = match prepared.finish(&faces, None) {
            Ok(f) => (f.outcome.code, f.outcome.value),
            Err(ResolveError::MissingCell { .. }) => ("?".to_string(), None),
            Err(e) => return Some((Err(Box::new(e)), total)),
        };
        *tally.entry(key).or_insert(0) += weight;
    }
    Some((Ok(tally), total))
}

fn check_odds_sum(o: &Odds) -> Result<(), TestCaseError> {
    prop_assert!(!o.outcomes.is_empty(), "no outcomes");
    let counted: num_bigint::BigUint = o.outcomes.iter().map(|x| &x.count).sum();
    prop_assert_eq!(&counted, &o.cases, "counts do not add up to the cases");
    for x in &o.outcomes {
        prop_assert_eq!(
            &x.fraction,
            &Fraction::of(x.count.clone(), o.cases.clone()),
            "fraction of {} is not count/cases",
            x.code
        );
    }
    let sum = sum_fractions(o.outcomes.iter().map(|x| x.fraction.clone()));
    prop_assert_eq!(
        sum,
        Some(Fraction::new(1, 1)),
        "fractions do not sum to 1: {:?}",
        o.outcomes
    );
    // Each (code, value) is listed once.
    let mut keys: Vec<Key> = o
        .outcomes
        .iter()
        .map(|x| (x.code.clone(), x.value))
        .collect();
    keys.sort();
    keys.dedup();
    prop_assert_eq!(keys.len(), o.outcomes.len(), "an outcome is listed twice");
    prop_assert_eq!(o.complete, !o.outcomes.iter().any(|x| x.code == "?"));
    Ok(())
}

fn check_procedure(
    ruleset: &Ruleset,
    procedure: &Procedure,
    inputs: &BTreeMap<String, Value>,
) -> Result<(), TestCaseError> {
    let computed = odds(ruleset, procedure, inputs);
    let prepared = prepare(ruleset, procedure, inputs);
    match (&prepared, &computed) {
        (Err(p), Err(o)) => {
            prop_assert_eq!(p, o, "odds and prepare fail differently");
            return Ok(());
        }
        (Err(p), Ok(_)) => {
            return Err(TestCaseError::fail(format!(
                "prepare fails ({p}) but odds do not"
            )));
        }
        (Ok(prepared), Err(e)) => {
            if let Some(missing) = &prepared.unknown_modifier {
                prop_assert_eq!(missing, e);
                return Ok(());
            }
            if matches!(e, ResolveError::TooLarge(_)) {
                return Ok(());
            }
            // Otherwise some throw must meet the same error.
            match tally_all_throws(ruleset, procedure, inputs) {
                Some((Err(t), _)) => prop_assert_eq!(t.as_ref(), e),
                Some((Ok(t), _)) => {
                    return Err(TestCaseError::fail(format!(
                        "odds fail ({e}) but every throw resolves: {t:?}"
                    )));
                }
                None => {}
            }
            return Ok(());
        }
        (Ok(_), Ok(_)) => {}
    }
    let o = computed.expect("checked above");
    check_odds_sum(&o)?;
    let Some((tally, total)) = tally_all_throws(ruleset, procedure, inputs) else {
        return Ok(()); // too many throws to enumerate
    };
    let tally =
        tally.map_err(|e| TestCaseError::fail(format!("odds succeed but a throw fails: {e}")))?;
    prop_assert_eq!(
        num_bigint::BigUint::from(total),
        o.cases.clone(),
        "weighted throws ≠ odds cases"
    );
    let from_odds: BTreeMap<Key, u128> = o
        .outcomes
        .iter()
        .map(|x| {
            let count = u128::try_from(&x.count).expect("small cases fit 128 bits");
            ((x.code.clone(), x.value), count)
        })
        .collect();
    prop_assert_eq!(
        &tally,
        &from_odds,
        "resolving every throw does not reproduce the odds"
    );
    for x in &o.outcomes {
        prop_assert_eq!(
            Fraction::new(tally[&(x.code.clone(), x.value)], total),
            x.fraction.clone()
        );
    }
    Ok(())
}

fn is_pool(procedure: &Procedure) -> bool {
    matches!(procedure.lookup, umpire_core::rules::Lookup::Pool { .. })
}

/// Runs the odds properties on every procedure of `ruleset` that `pick` selects; returns how
/// many were checked.
fn check_ruleset(ruleset: &Ruleset, pick: fn(&Procedure) -> bool) -> usize {
    let mut checked = 0;
    for procedure in ruleset.procedures.iter().filter(|p| pick(p)) {
        // A procedure without inputs has a single case.
        let cases = match (procedure.inputs.is_empty(), is_pool(procedure)) {
            (true, _) => 1,
            (false, true) => CASES_PER_POOL,
            (false, false) => CASES_PER_PROCEDURE,
        };
        let mut runner = TestRunner::new(config(cases));
        let result = runner.run(&inputs_strategy(procedure), |inputs| {
            check_procedure(ruleset, procedure, &inputs)
        });
        if let Err(e) = result {
            panic!("{}/{}: {e}", ruleset.id, procedure.id);
        }
        checked += 1;
    }
    checked
}

// Pools (tens of thousands of throws per case) run as their own tests, in parallel with the
// rest; together the four tests cover every procedure.

#[test]
fn shapes_tables_tests_and_arithmetic_match_every_throw() {
    assert!(check_ruleset(shapes(), |p| !is_pool(p)) >= 15);
}

#[test]
fn shapes_pools_match_every_throw() {
    assert_eq!(check_ruleset(shapes(), is_pool), 2);
}

#[test]
fn qrs_tables_tests_and_arithmetic_match_every_throw() {
    assert!(check_ruleset(qrs(), |p| !is_pool(p)) >= 6);
}

#[test]
fn qrs_pools_match_every_throw() {
    assert_eq!(check_ruleset(qrs(), is_pool), 1);
}

/// The enumeration itself is checked on fixed cases, so the properties above cannot pass by
/// skipping everything.
#[test]
fn enumeration_covers_pools_tables_and_missing_cells() {
    let given = |pairs: &[(&str, Value)]| {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<BTreeMap<_, _>>()
    };
    let sortie = shapes().procedure("sortie").unwrap();
    let inputs = given(&[("sortie_type", Value::Text("breakout".into()))]);
    let (tally, total) = tally_all_throws(shapes(), sortie, &inputs).expect("6 throws");
    assert_eq!(total, 6);
    assert_eq!(
        tally.unwrap(),
        BTreeMap::from([(("R".to_string(), None), 2), (("?".to_string(), None), 4)])
    );
    check_procedure(shapes(), sortie, &inputs).expect("consistent");

    let volley = shapes().procedure("volley").unwrap();
    let inputs = given(&[("muskets", Value::Int(6))]);
    let (tally, total) = tally_all_throws(shapes(), volley, &inputs).expect("46,656 throws");
    assert_eq!(total, 46_656);
    assert_eq!(tally.unwrap().values().sum::<u128>(), 46_656);
    check_procedure(shapes(), volley, &inputs).expect("consistent");
    // Seven dice are too many to enumerate one by one.
    assert!(tally_all_throws(shapes(), volley, &given(&[("muskets", Value::Int(7))])).is_none());

    let orders = shapes().procedure("orders").unwrap();
    let (tally, total) =
        tally_all_throws(shapes(), orders, &BTreeMap::new()).expect("9 distinct throws");
    assert_eq!(total, 36, "weights count: 6 slots per die");
    assert_eq!(tally.unwrap()[&("no_orders".to_string(), None)], 9);

    let shooting = qrs().procedure("shooting").unwrap();
    let inputs = given(&[
        ("base_dice", Value::Int(3)),
        ("weapon", Value::Text("musket".into())),
        ("band", Value::Text("short".into())),
    ]);
    check_procedure(qrs(), shooting, &inputs).expect("consistent");
    // "No" on the Firing Table: odds and prepare refuse alike.
    let inputs = given(&[
        ("base_dice", Value::Int(3)),
        ("weapon", Value::Text("bow".into())),
        ("band", Value::Text("long".into())),
    ]);
    assert!(matches!(
        prepare(qrs(), shooting, &inputs),
        Err(ResolveError::NotANumber { .. })
    ));
    check_procedure(qrs(), shooting, &inputs).expect("consistent");
}

#[test]
fn fraction_sum_helper_is_exact() {
    assert_eq!(
        sum_fractions([
            Fraction::new(1, 3),
            Fraction::new(1, 6),
            Fraction::new(1, 2)
        ]),
        Some(Fraction::new(1, 1))
    );
    assert_eq!(
        sum_fractions([Fraction::new(1, 3), Fraction::new(1, 3)]),
        Some(Fraction::new(2, 3))
    );
    assert_ne!(
        sum_fractions([Fraction::new(1, 3), Fraction::new(1, 2)]),
        Some(Fraction::new(1, 1))
    );
}

// ── Dice distributions ───────────────────────────────────────────────────────────────

fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec!["d4", "d6", "d8", "d10", "2d6"]).prop_map(String::from),
        // The shapes of issue 16: keep, count, reroll, explode, Fudge, d66, inline faces,
        // extremes, products.
        2 => prop::sample::select(vec![
            "3d6kh2", "4d4dl1", "3d6kl1", "3d6>=5", "4d6cs6", "3d8cf<=2", "2d6r1", "d6rr<3",
            "d4!", "2dF", "d66", "d{1,1,2,3}", "d{1..4}", "max(d4,d6)", "min(2d4,d6)",
            "(d4+1)*2",
        ])
        .prop_map(String::from),
        1 => (0i64..=6).prop_map(|c| c.to_string()),
    ]
}

fn sign() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["+", "-"])
}

fn term() -> impl Strategy<Value = String> {
    let halved = (
        atom(),
        prop::option::of((sign(), atom())),
        1i64..=3,
        any::<bool>(),
    )
        .prop_map(|(a, more, divisor, up)| {
            let inner = more.map_or_else(|| a.clone(), |(s, b)| format!("{a}{s}{b}"));
            format!("{}({inner}/{divisor})", if up { "ceil" } else { "floor" })
        });
    prop_oneof![3 => atom(), 1 => halved]
}

/// Up to four terms joined by + and −, optionally negated at the front.
fn dice_expression() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        term(),
        prop::collection::vec((sign(), term()), 0..=3),
    )
        .prop_map(|(negate, first, rest)| {
            let mut s = if negate { format!("-{first}") } else { first };
            for (sign, t) in rest {
                s.push_str(sign);
                s.push_str(&t);
            }
            s
        })
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn distribution_equals_brute_force(source in dice_expression()) {
        let expr = DiceExpr::parse(&source, &DieSet::new()).map_err(|e| TestCaseError::fail(format!("{source}: {e}")))?;
        let dice = expr.dice();
        let combinations: u128 = dice.iter().map(|d| d.faces.len() as u128).product();
        prop_assume!(combinations <= 200_000, "too many throws to brute-force");
        let throws = each_throw_unbounded(&dice);
        let mut brute: BTreeMap<i64, u128> = BTreeMap::new();
        for (faces, weight) in &throws {
            *brute.entry(expr.total(faces)).or_insert(0) += weight;
        }
        let dist = expr.distribution().expect("no overflow for small expressions");
        let exact: BTreeMap<i64, u128> = dist
            .counts()
            .map(|(v, c)| (v, u128::try_from(c).expect("small")))
            .collect();
        prop_assert_eq!(&exact, &brute, "{}", source);
        // The counts add up to the cases exactly: the probabilities sum to 1.
        let counted: num_bigint::BigUint = dist.counts().map(|(_, c)| c).sum();
        prop_assert_eq!(&counted, dist.total(), "{}", source);
        prop_assert_eq!(
            dist.total(),
            &num_bigint::BigUint::from(throws.iter().map(|(_, w)| w).sum::<u128>())
        );
        prop_assert_eq!(dist.min(), brute.keys().next().copied());
        prop_assert_eq!(dist.max(), brute.keys().next_back().copied());
    }
}

fn each_throw_unbounded(dice: &[&umpire_core::dice::Die]) -> Vec<(Vec<i64>, u128)> {
    let mut out: Vec<(Vec<i64>, u128)> = vec![(Vec::new(), 1)];
    for die in dice {
        out = out
            .into_iter()
            .flat_map(|(faces, w)| {
                die.faces.iter().map(move |f| {
                    let mut next = faces.clone();
                    next.push(f.value);
                    (next, w * u128::from(f.weight))
                })
            })
            .collect();
    }
    out
}
