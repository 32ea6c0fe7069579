//! Every table shape the engine must express, resolved with physical dice against the
//! `tests/fixtures/shapes/shapes` ruleset, plus the QRS derived examples on the shipped rules.

use std::sync::OnceLock;

use umpire_core::dice::Fraction;
use umpire_core::resolve::{Effect, Odds, Resolution, ResolveError, odds};
use umpire_core::rules::{Library, Ruleset};

use crate::common;
use common::{explains, inputs_for, run_in, try_run};

fn shapes() -> &'static Ruleset {
    static SHAPES: OnceLock<Ruleset> = OnceLock::new();
    SHAPES
        .get_or_init(|| crate::common::fixture(&crate::root().join("tests/fixtures/shapes/shapes")))
}

fn qrs() -> &'static Ruleset {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(Library::shipped)
        .get("qrs")
        .expect("qrs ships")
}

/// Resolves with physical dice (the error boxed: `ResolveError` is large).
fn run(procedure: &str, inputs: &[(&str, &str)], faces: &[&str]) -> Resolution {
    run_in(shapes(), procedure, inputs, faces)
}

fn odds_of(rs: &Ruleset, procedure: &str, inputs: &[(&str, &str)]) -> Odds {
    let p = rs.procedure(procedure).expect("procedure");
    odds(rs, p, &inputs_for(rs, procedure, inputs)).expect("odds")
}

/// The odds as (code, value, "n/d") triples in the order the engine lists them.
fn odds_table(o: &Odds) -> Vec<(String, Option<i64>, String)> {
    o.outcomes
        .iter()
        .map(|x| (x.code.clone(), x.value, x.fraction.to_string()))
        .collect()
}

fn fraction_of(o: &Odds, code: &str) -> Fraction {
    o.outcomes
        .iter()
        .find(|x| x.code == code)
        .unwrap_or_else(|| panic!("no outcome {code} in {:?}", odds_table(o)))
        .fraction
        .clone()
}

fn frac(n: u128, d: u128) -> Fraction {
    Fraction::new(n, d)
}

/// Asserts that some explanation line contains `needle`.
/// Asserts that no explanation line contains `needle`.
#[track_caller]
fn never_explains(r: &Resolution, needle: &str) {
    assert!(
        !r.explanation.iter().any(|l| l.contains(needle)),
        "an explanation line contains {needle:?}:\n{}",
        r.explanation.join("\n")
    );
}

/// (row, column, cell) of the table lookup.
fn cell_at(r: &Resolution) -> (String, Option<String>, String) {
    let l = r.lookup.as_ref().expect("a table lookup");
    (l.row.clone(), l.column.clone(), l.cell.clone())
}

fn rc(row: &str, column: Option<&str>, cell: &str) -> (String, Option<String>, String) {
    (
        row.to_string(),
        column.map(str::to_string),
        cell.to_string(),
    )
}

/// (kind, side, amount, status, procedure) of each effect, in order.
type EffectSummary = (
    String,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<String>,
);
fn effects(r: &Resolution) -> Vec<EffectSummary> {
    r.outcome
        .effects
        .iter()
        .map(|e: &Effect| {
            (
                e.kind.id().to_string(),
                e.side.clone(),
                e.amount,
                e.status.clone(),
                e.procedure.clone(),
            )
        })
        .collect()
}

fn eff(
    kind: &str,
    side: Option<&str>,
    amount: Option<i64>,
    status: Option<&str>,
    procedure: Option<&str>,
) -> EffectSummary {
    (
        kind.to_string(),
        side.map(str::to_string),
        amount,
        status.map(str::to_string),
        procedure.map(str::to_string),
    )
}

// ── Die roll → result list ────────────────────────────────────────────────────────────────

#[test]
fn capitano_fate_one_result_per_face() {
    let expected = [
        "slain",
        "captured",
        "wounded_badly",
        "wounded_lightly",
        "unhorsed",
        "unharmed",
    ];
    for (face, code) in (1..=6).zip(expected) {
        let f = face.to_string();
        let r = run("capitano_fate", &[], &[&f]);
        assert_eq!(r.outcome.code, code, "face {face}");
        assert_eq!(cell_at(&r), rc(&f, None, code));
        assert_eq!(r.natural, Some(face));
        assert_eq!(r.modified, Some(face));
    }
    let slain = run("capitano_fate", &[], &["1"]);
    assert_eq!(slain.outcome.label, "The Capitano is slain");
    assert_eq!(
        effects(&slain),
        vec![eff("eliminate", Some("defender"), None, None, None)]
    );
    explains(
        &slain,
        "The Fate of the Capitano: row 1 → The Capitano is slain",
    );
    explains(
        &slain,
        "Outcome: The Capitano is slain — defender eliminated (Capitano)",
    );

    let o = odds_of(shapes(), "capitano_fate", &[]);
    assert!(o.complete);
    assert_eq!(o.cases, num_bigint::BigUint::from(6u32));
    let codes: Vec<String> = o.outcomes.iter().map(|x| x.code.clone()).collect();
    assert_eq!(codes, expected);
    assert!(o.outcomes.iter().all(|x| x.fraction == frac(1, 6)));
}

#[test]
fn rally_ranges_one_to_three_four_five_six() {
    for (face, row, code) in [
        (1, "1-3", "shaken"),
        (2, "1-3", "shaken"),
        (3, "1-3", "shaken"),
        (4, "4-5", "steady"),
        (5, "4-5", "steady"),
        (6, "6", "inspired"),
    ] {
        let r = run("rally", &[], &[&face.to_string()]);
        assert_eq!(cell_at(&r), rc(row, None, code), "face {face}");
        never_explains(&r, "off the chart");
    }
    let o = odds_of(shapes(), "rally", &[]);
    assert_eq!(
        odds_table(&o),
        vec![
            ("shaken".into(), None, "1/2".into()),
            ("steady".into(), None, "1/3".into()),
            ("inspired".into(), None, "1/6".into())
        ]
    );
}

// ── Modified roll clamped at the chart's edges ──────────────────────────────────────────

#[test]
fn modified_roll_clamps_to_the_chart_edges() {
    // +3 DRM with a 6 reads row 6.
    let r = run("rally", &[("veteran_leader", "true")], &["6"]);
    assert_eq!((r.natural, r.modified), (Some(6), Some(9)));
    assert_eq!(cell_at(&r), rc("6", None, "inspired"));
    explains(
        &r,
        "Modifier: Veteran leader +3 to the roll [fixture §1.2a]",
    );
    explains(&r, "Modified roll: 6 + 3 = 9");
    explains(&r, "Modified roll 9 is off the chart: read at its edge, 6");
    assert_eq!(
        effects(&r),
        vec![eff("status", None, None, Some("inspired"), None)]
    );

    // Within the chart: no clamping note.
    let r = run("rally", &[("veteran_leader", "true")], &["2"]);
    assert_eq!(cell_at(&r), rc("4-5", None, "steady"));
    never_explains(&r, "off the chart");

    // Below the chart: −2 with a 1 reads the lowest row.
    let r = run("rally", &[("under_fire", "true")], &["1"]);
    assert_eq!((r.natural, r.modified), (Some(1), Some(-1)));
    assert_eq!(cell_at(&r), rc("1-3", None, "shaken"));
    explains(&r, "Modified roll: 1 − 2 = -1");
    explains(&r, "Modified roll -1 is off the chart: read at its edge, 1");

    let o = odds_of(shapes(), "rally", &[("veteran_leader", "true")]);
    assert_eq!(
        odds_table(&o),
        vec![
            ("steady".into(), None, "1/3".into()),
            ("inspired".into(), None, "2/3".into())
        ]
    );
}

#[test]
fn open_ended_roll_rows_take_any_modified_roll() {
    // Firefight rows are ≤1, 2-3, 4-5, 6+: no clamping needed.
    let r = run(
        "firefight",
        &[("firing_sp", "20"), ("target_sp", "2")],
        &["6"],
    );
    assert_eq!(r.modified, Some(8));
    assert_eq!(cell_at(&r), rc("6+", None, "routed"));
    never_explains(&r, "off the chart");
    assert_eq!(
        effects(&r),
        vec![
            eff("sp_loss", Some("defender"), Some(1), None, None),
            eff("retreat", Some("defender"), Some(2), None, None)
        ]
    );

    let r = run(
        "firefight",
        &[("firing_sp", "2"), ("target_sp", "5"), ("cover", "town")],
        &["1"],
    );
    assert_eq!(r.modified, Some(-2));
    assert_eq!(cell_at(&r), rc("≤1", None, "miss"));
    never_explains(&r, "off the chart");
}

// ── Odds ratios ──────────────────────────────────────────────────────────────────────────

#[test]
fn ratio_against_the_attacker_rounds_toward_one_to_one() {
    // 3 SP vs 7 SP is 2.33:1 against → the 1:2 column.
    let r = run(
        "assault",
        &[("attacker_sp", "3"), ("defender_sp", "7")],
        &["3"],
    );
    assert_eq!(cell_at(&r), rc("3", Some("1:2"), "A1"));
    explains(
        &r,
        "3:7 = 2.3 to 1 against the attacker, rounded down to 2 to 1 against the attacker",
    );
    explains(&r, "Assault Combat Results Table: row 3, column 1:2 → A1");
    assert_eq!(r.outcome.label, "Attacker loses 1 SP");
    assert_eq!(
        effects(&r),
        vec![eff("sp_loss", Some("attacker"), Some(1), None, None)]
    );
}

#[test]
fn ratio_in_the_attackers_favour_rounds_down() {
    let r = run(
        "assault",
        &[("attacker_sp", "7"), ("defender_sp", "3")],
        &["3"],
    );
    assert_eq!(cell_at(&r), rc("3", Some("2:1"), "D1"));
    explains(&r, "7:3 = 2.3 to 1, rounded down to 2 to 1");
    never_explains(&r, "against");

    // 4:3 = 1.33 → 1:1 (3:2 would be rounding up).
    let r = run(
        "assault",
        &[("attacker_sp", "4"), ("defender_sp", "3")],
        &["4"],
    );
    assert_eq!(cell_at(&r), rc("4", Some("1:1"), "EX"));
    explains(&r, "4:3 = 1.3 to 1, rounded down to 1 to 1");

    // Far beyond the best column: read at 4:1.
    let r = run(
        "assault",
        &[("attacker_sp", "30"), ("defender_sp", "1")],
        &["1"],
    );
    assert_eq!(cell_at(&r), rc("1", Some("4:1"), "D1"));
    explains(&r, "30:1 = 30.0 to 1, rounded down to 4 to 1");

    // Far beyond the worst column against the attacker: read at 1:3.
    let r = run(
        "assault",
        &[("attacker_sp", "1"), ("defender_sp", "10")],
        &["1"],
    );
    assert_eq!(cell_at(&r), rc("1", Some("1:3"), "A3"));
    explains(
        &r,
        "1:10 = 10.0 to 1 against the attacker, rounded down to 3 to 1 against the attacker",
    );
}

#[test]
fn exact_ratios_need_no_rounding() {
    for (a, d, column) in [
        ("6", "3", "2:1"),
        ("2", "6", "1:3"),
        ("3", "2", "3:2"),
        ("5", "5", "1:1"),
        ("4", "8", "1:2"),
        ("12", "3", "4:1"),
    ] {
        let r = run("assault", &[("attacker_sp", a), ("defender_sp", d)], &["2"]);
        assert_eq!(
            r.lookup.as_ref().unwrap().column.as_deref(),
            Some(column),
            "{a}:{d}"
        );
        never_explains(&r, "rounded");
        never_explains(&r, "below every");
    }
}

#[test]
fn ratio_with_defender_zero_reads_at_the_best_column() {
    let r = run(
        "assault",
        &[("attacker_sp", "5"), ("defender_sp", "0")],
        &["4"],
    );
    assert_eq!(cell_at(&r), rc("4", Some("4:1"), "D1 DC"));
    explains(&r, "5:0 (no strength on one side)");
    // And with the attacker at zero: the worst column against the attacker.
    let r = run(
        "assault",
        &[("attacker_sp", "0"), ("defender_sp", "5")],
        &["4"],
    );
    assert_eq!(cell_at(&r), rc("4", Some("1:3"), "A1"));
    explains(&r, "0:5 (no strength on one side)");
    explains(&r, "against the attacker");
}

#[test]
fn ratio_below_every_listed_ratio_reads_at_the_weakest_column() {
    // The Overrun Table starts at 3:1.
    let r = run(
        "overrun",
        &[("attacker_sp", "5"), ("defender_sp", "2")],
        &["5"],
    );
    assert_eq!(cell_at(&r), rc("5-6", Some("3:1"), "DR"));
    explains(
        &r,
        "5:2 = 2.5 to 1 is below every listed ratio: read at 3:1",
    );
    let r = run(
        "overrun",
        &[("attacker_sp", "1"), ("defender_sp", "4")],
        &["6"],
    );
    assert_eq!(cell_at(&r), rc("5-6", Some("3:1"), "DR"));
    explains(
        &r,
        "1:4 = 4.0 to 1 against the attacker is below every listed ratio: read at 3:1",
    );
    // 5:1 between listed ratios rounds down to 4:1; 6:1 is exact.
    let r = run(
        "overrun",
        &[("attacker_sp", "10"), ("defender_sp", "2")],
        &["3"],
    );
    assert_eq!(cell_at(&r), rc("3-4", Some("4:1"), "DR"));
    explains(&r, "10:2 = 5.0 to 1, rounded down to 4 to 1");
    let r = run(
        "overrun",
        &[("attacker_sp", "12"), ("defender_sp", "2")],
        &["3"],
    );
    assert_eq!(cell_at(&r), rc("3-4", Some("6:1"), "DE"));
    never_explains(&r, "rounded");
}

// ── Column shifts ────────────────────────────────────────────────────────────────────────

#[test]
fn column_shifts_move_along_the_listed_columns() {
    let r = run(
        "assault",
        &[
            ("attacker_sp", "6"),
            ("defender_sp", "3"),
            ("fortified", "true"),
        ],
        &["4"],
    );
    assert_eq!(cell_at(&r), rc("4", Some("1:1"), "EX"));
    explains(
        &r,
        "Modifier: Defender fortified −2 column shift [fixture §2.5]",
    );
    explains(&r, "Column shift −2: 2:1 → 1:1");
    never_explains(&r, "chart's edge");
    // The exchange's effects fall in the listed order.
    assert_eq!(
        effects(&r),
        vec![
            eff("sp_loss", Some("defender"), Some(1), None, None),
            eff("sp_loss", Some("attacker"), Some(1), None, None)
        ]
    );

    // Both shifts: net −1 after rounding 7:3 down to 2:1.
    let r = run(
        "assault",
        &[
            ("attacker_sp", "7"),
            ("defender_sp", "3"),
            ("fortified", "true"),
            ("artillery_support", "true"),
        ],
        &["1"],
    );
    assert_eq!(cell_at(&r), rc("1", Some("3:2"), "A1"));
    explains(&r, "rounded down to 2 to 1");
    explains(&r, "Column shift −1: 2:1 → 3:2");
}

#[test]
fn column_shifts_clamp_at_the_edges() {
    let r = run(
        "assault",
        &[
            ("attacker_sp", "2"),
            ("defender_sp", "6"),
            ("fortified", "true"),
        ],
        &["6"],
    );
    assert_eq!(cell_at(&r), rc("6", Some("1:3"), "EX"));
    explains(&r, "Column shift −2: 1:3 → 1:3 (the chart's edge)");

    let r = run(
        "assault",
        &[
            ("attacker_sp", "12"),
            ("defender_sp", "3"),
            ("artillery_support", "true"),
        ],
        &["6"],
    );
    assert_eq!(cell_at(&r), rc("6", Some("4:1"), "D3 DC"));
    explains(&r, "Column shift +1: 4:1 → 4:1 (the chart's edge)");

    // Partly off the edge: 3:1 + 1 → 4:1 exactly; 1:2 − 2 → 1:3, clamped.
    let r = run(
        "assault",
        &[
            ("attacker_sp", "9"),
            ("defender_sp", "3"),
            ("artillery_support", "true"),
        ],
        &["2"],
    );
    assert_eq!(cell_at(&r), rc("2", Some("4:1"), "D2"));
    explains(&r, "Column shift +1: 3:1 → 4:1");
    never_explains(&r, "chart's edge");
    let r = run(
        "assault",
        &[
            ("attacker_sp", "4"),
            ("defender_sp", "8"),
            ("fortified", "true"),
        ],
        &["2"],
    );
    assert_eq!(cell_at(&r), rc("2", Some("1:3"), "A2"));
    explains(&r, "Column shift −2: 1:2 → 1:3 (the chart's edge)");
}

// ── Result codes with ordered effects ──────────────────────────────────────────────────

#[test]
fn result_codes_carry_numbers_and_ordered_effects() {
    // "D1 DC": loss, then disorder, then the queued cohesion check.
    let r = run(
        "assault",
        &[("attacker_sp", "12"), ("defender_sp", "3")],
        &["4"],
    );
    assert_eq!(r.outcome.code, "D1 DC");
    assert_eq!(
        r.outcome.label,
        "Defender loses 1 SP; Defender disordered, takes a cohesion check"
    );
    assert_eq!(r.outcome.value, None);
    assert_eq!(
        effects(&r),
        vec![
            eff("sp_loss", Some("defender"), Some(1), None, None),
            eff("status", Some("defender"), None, Some("disordered"), None),
            eff(
                "follow_up",
                Some("defender"),
                None,
                None,
                Some("cohesion_check")
            ),
        ]
    );
    assert!(
        shapes().procedure("cohesion_check").is_some(),
        "the follow-up names a real procedure"
    );
    explains(
        &r,
        "Outcome: Defender loses 1 SP; Defender disordered, takes a cohesion check — defender loses 1 SP; defender: disordered; defender then cohesion check (defender tests cohesion)",
    );

    // "A1 DC": the attacker's loss comes first, as printed.
    let r = run(
        "assault",
        &[("attacker_sp", "6"), ("defender_sp", "3")],
        &["6"],
    );
    assert_eq!(r.outcome.code, "A1 DC");
    assert_eq!(
        effects(&r)[0],
        eff("sp_loss", Some("attacker"), Some(1), None, None)
    );
    assert_eq!(effects(&r)[2].4.as_deref(), Some("cohesion_check"));

    // A numbered code: A{n} with n = 3.
    let r = run(
        "assault",
        &[("attacker_sp", "1"), ("defender_sp", "3")],
        &["1"],
    );
    assert_eq!(r.outcome.code, "A3");
    assert_eq!(r.outcome.label, "Attacker loses 3 SP");
    assert_eq!(
        effects(&r),
        vec![eff("sp_loss", Some("attacker"), Some(3), None, None)]
    );
}

// ── Differential columns ─────────────────────────────────────────────────────────────────

#[test]
fn differential_columns_are_exact_and_clamped() {
    let r = run(
        "melee",
        &[("attacker_quality", "4"), ("defender_quality", "3")],
        &["3"],
    );
    assert_eq!(cell_at(&r), rc("3-4", Some("+1"), "DR"));
    explains(&r, "Quality differential = 1 [fixture §3.1]");
    never_explains(&r, "off the chart");

    let r = run(
        "melee",
        &[("attacker_quality", "3"), ("defender_quality", "3")],
        &["5"],
    );
    assert_eq!(cell_at(&r), rc("5-6", Some("0"), "DR"));

    let r = run(
        "melee",
        &[("attacker_quality", "2"), ("defender_quality", "4")],
        &["1"],
    );
    assert_eq!(cell_at(&r), rc("1-2", Some("-2"), "AR"));
    never_explains(&r, "off the chart");

    let r = run(
        "melee",
        &[("attacker_quality", "6"), ("defender_quality", "1")],
        &["5"],
    );
    assert_eq!(cell_at(&r), rc("5-6", Some("+2"), "DE"));
    explains(&r, "Column +5 is off the chart: read at its edge, +2");
    assert_eq!(
        effects(&r),
        vec![eff("eliminate", Some("defender"), None, None, None)]
    );

    let r = run(
        "melee",
        &[("attacker_quality", "1"), ("defender_quality", "6")],
        &["1"],
    );
    assert_eq!(cell_at(&r), rc("1-2", Some("-2"), "AR"));
    explains(&r, "Column -5 is off the chart: read at its edge, -2");
}

// ── Bracket columns and a bracket-keyed modifier table ─────────────────────────────────

#[test]
fn bracket_columns_by_strength_points() {
    for (sp, column) in [
        ("1", "1-4"),
        ("4", "1-4"),
        ("5", "5-8"),
        ("8", "5-8"),
        ("9", "9-12"),
        ("12", "9-12"),
        ("13", "13+"),
        ("20", "13+"),
    ] {
        let r = run("attrition", &[("strength", sp)], &["5"]);
        assert_eq!(
            r.lookup.as_ref().unwrap().column.as_deref(),
            Some(column),
            "SP {sp}"
        );
        never_explains(&r, "off the chart");
    }
    let r = run("attrition", &[("strength", "13")], &["5"]);
    assert_eq!(cell_at(&r), rc("5-6", Some("13+"), "2"));
    assert_eq!(r.outcome.value, Some(2));
    assert_eq!(r.outcome.label, "Lose 2 SP");
    assert_eq!(effects(&r), vec![eff("sp_loss", None, Some(2), None, None)]);

    // Below the lowest bracket: read at its edge.
    let r = run("attrition", &[("strength", "0")], &["1"]);
    assert_eq!(cell_at(&r), rc("≤2", Some("1-4"), "0"));
    explains(&r, "Column 0 is off the chart: read at its edge, 1");
    assert_eq!(r.outcome.label, "No loss");
    assert_eq!(r.outcome.value, Some(0));
}

#[test]
fn modifier_from_a_bracket_table_loc_distance() {
    let r = run(
        "attrition",
        &[("strength", "13"), ("loc_distance", "7")],
        &["6"],
    );
    explains(
        &r,
        "Modifier: LOC distance +2 to the roll (LOC Distance DRM: 6-8 = 2) [fixture §4.2]",
    );
    assert_eq!((r.natural, r.modified), (Some(6), Some(8)));
    assert_eq!(cell_at(&r), rc("7-8", Some("13+"), "3"));
    assert_eq!(r.outcome.value, Some(3));
    assert_eq!(r.modifiers.len(), 1);
    assert_eq!(r.modifiers[0].value, Some(2));

    let r = run(
        "attrition",
        &[("strength", "13"), ("loc_distance", "12")],
        &["6"],
    );
    assert_eq!(r.modifiers[0].value, Some(3));
    assert_eq!(cell_at(&r), rc("9+", Some("13+"), "4"));

    let o = odds_of(
        shapes(),
        "attrition",
        &[("strength", "6"), ("loc_distance", "3")],
    );
    // d6+1: 2 → ≤2 (0); 3,4 → 0; 5,6 → 1; 7 → 1.
    assert_eq!(
        odds_table(&o),
        vec![
            ("0".into(), Some(0), "1/2".into()),
            ("1".into(), Some(1), "1/2".into())
        ]
    );
}

// ── Alternative header lines ───────────────────────────────────────────────────────────

#[test]
fn header_line_chosen_by_terrain() {
    let r = run(
        "terrain_fire",
        &[("range", "2"), ("terrain_affects", "true")],
        &["6"],
    );
    assert_eq!(
        r.lookup.as_ref().unwrap().line.as_deref(),
        Some("affecting")
    );
    assert_eq!(cell_at(&r), rc("6", Some("2-3"), "H2"));
    explains(&r, "Header line: Affecting terrain");
    assert_eq!(r.outcome.label, "2 hits");

    // Same range and roll, other line: other column heading, other cell.
    let r = run(
        "terrain_fire",
        &[("range", "2"), ("terrain_affects", "false")],
        &["6"],
    );
    assert_eq!(
        r.lookup.as_ref().unwrap().line.as_deref(),
        Some("not_affecting")
    );
    assert_eq!(cell_at(&r), rc("6", Some("0-2"), "H3"));
    explains(&r, "Header line: Not-Affecting terrain");

    // The same column index carries different headings on each line.
    let a = run(
        "terrain_fire",
        &[("range", "7"), ("terrain_affects", "true")],
        &["6"],
    );
    let n = run(
        "terrain_fire",
        &[("range", "7"), ("terrain_affects", "false")],
        &["6"],
    );
    assert_eq!(cell_at(&a), rc("6", Some("6+"), "H1"));
    assert_eq!(cell_at(&n), rc("6", Some("6-8"), "H2"));
    let r = run(
        "terrain_fire",
        &[("range", "12"), ("terrain_affects", "false")],
        &["3"],
    );
    assert_eq!(cell_at(&r), rc("3-4", Some("9+"), "-"));
    assert_eq!(r.outcome.label, "No effect");
    assert!(r.outcome.effects.is_empty());
}

// ── Modifiers from tables ──────────────────────────────────────────────────────────────

#[test]
fn modifiers_from_tables_including_an_odds_ratio_drm() {
    let r = run(
        "firefight",
        &[("firing_sp", "7"), ("target_sp", "3"), ("cover", "woods")],
        &["4"],
    );
    explains(
        &r,
        "Modifier: Fire superiority +1 to the roll (Fire Superiority DRM: DRM × 2:1 = 1; 7:3 = 2.3 to 1, rounded down to 2 to 1) [fixture §6.1]",
    );
    explains(
        &r,
        "Modifier: Cover −1 to the roll (Cover DRM: Woods = -1) [fixture §6.2]",
    );
    let values: Vec<(String, Option<i64>)> = r
        .modifiers
        .iter()
        .map(|m| (m.name.clone(), m.value))
        .collect();
    assert_eq!(
        values,
        vec![
            ("Fire superiority".into(), Some(1)),
            ("Cover".into(), Some(-1))
        ]
    );
    assert_eq!((r.natural, r.modified), (Some(4), Some(4)));
    assert_eq!(cell_at(&r), rc("4-5", None, "hit"));

    // Against the firer: 2 vs 5 is 2.5 to 1 against → 1:2 → −1.
    let r = run(
        "firefight",
        &[("firing_sp", "2"), ("target_sp", "5")],
        &["3"],
    );
    explains(&r, "Fire Superiority DRM: DRM × 1:2 = -1");
    assert_eq!(r.modified, Some(2));
    assert_eq!(cell_at(&r), rc("2-3", None, "suppressed"));

    // 20 vs 2 → 3:1 → +2; town −2.
    let r = run(
        "firefight",
        &[("firing_sp", "20"), ("target_sp", "2"), ("cover", "town")],
        &["3"],
    );
    assert_eq!(
        r.modifiers.iter().map(|m| m.value).collect::<Vec<_>>(),
        vec![Some(2), Some(-2)]
    );
    assert_eq!(r.modified, Some(3));

    let o = odds_of(
        shapes(),
        "firefight",
        &[("firing_sp", "7"), ("target_sp", "3"), ("cover", "open")],
    );
    // d6+1: 2,3 suppressed; 4,5 hit; 6,7 routed.
    assert_eq!(
        odds_table(&o),
        vec![
            ("suppressed".into(), None, "1/3".into()),
            ("hit".into(), None, "1/3".into()),
            ("routed".into(), None, "1/3".into())
        ]
    );
}

// ── Missing cells ──────────────────────────────────────────────────────────────────────

#[test]
fn missing_cell_fails_naming_table_row_and_column() {
    let err = try_run(
        shapes(),
        "sortie",
        &[("sortie_type", "breakout")],
        &["4"],
        None,
    )
    .expect_err("cell is missing");
    match err.as_ref() {
        ResolveError::MissingCell {
            table,
            title,
            row,
            column,
            rule,
            at,
        } => {
            assert_eq!(at, "row 3-4, column Breakout");
            assert_eq!(table, "sortie");
            assert_eq!(title, "Sortie Table");
            assert_eq!(row, "3-4");
            assert_eq!(column, "breakout");
            assert_eq!(rule, " [fixture §7.1]");
        }
        other => panic!("expected MissingCell, got {other:?}"),
    }
    let message = err.to_string();
    assert!(
        message.contains("Sortie Table [fixture §7.1]") && !message.contains("(sortie"),
        "{message}"
    );
    assert!(message.contains("row 3-4, column Breakout"), "{message}");
    assert!(message.contains("--chart-result"), "{message}");
    // The desk's wording asks for the result in its own words, not the command line's.
    let form = err.for_a_form();
    assert!(
        form.contains("enter it below") && !form.contains("--chart-result"),
        "{form}"
    );

    // The known cells of the same column still resolve.
    let r = run("sortie", &[("sortie_type", "breakout")], &["2"]);
    assert_eq!(cell_at(&r), rc("1-2", Some("breakout"), "R"));
    assert!(!r.outcome.from_physical_chart);
    let r = run("sortie", &[("sortie_type", "raid")], &["6"]);
    assert_eq!(cell_at(&r), rc("5-6", Some("raid"), "S"));
}

#[test]
fn missing_cell_resolves_with_a_chart_result() {
    let r = try_run(
        shapes(),
        "sortie",
        &[("sortie_type", "breakout")],
        &["5"],
        Some("B"),
    )
    .expect("chart result given");
    assert!(r.outcome.from_physical_chart);
    assert_eq!(r.outcome.code, "B");
    assert_eq!(r.outcome.label, "Breakout");
    assert_eq!(r.outcome.effects.len(), 1);
    assert_eq!(r.outcome.effects[0].kind.id(), "move");
    assert_eq!(cell_at(&r), rc("5-6", Some("breakout"), "B"));
    explains(
        &r,
        "Sortie Table: row 5-6, column Breakout is not in the rule text; result read off the physical chart: B",
    );

    // A chart result that is not one of the table's codes is refused.
    let err = try_run(
        shapes(),
        "sortie",
        &[("sortie_type", "breakout")],
        &["5"],
        Some("Z"),
    )
    .expect_err("bad code");
    assert!(
        matches!(err.as_ref(), ResolveError::BadChartResult { given, .. } if given == "Z"),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("R, S, B") || err.to_string().contains("B, R, S"),
        "{err}"
    );

    // A chart result is not used when the cell is known.
    let r = try_run(
        shapes(),
        "sortie",
        &[("sortie_type", "breakout")],
        &["1"],
        Some("B"),
    )
    .expect("known cell");
    assert_eq!(r.outcome.code, "R");
    assert!(!r.outcome.from_physical_chart);
}

#[test]
fn odds_show_missing_cells() {
    let o = odds_of(shapes(), "sortie", &[("sortie_type", "breakout")]);
    assert!(!o.complete);
    assert_eq!(
        odds_table(&o),
        vec![
            ("R".into(), None, "1/3".into()),
            ("?".into(), None, "2/3".into())
        ]
    );
    let o = odds_of(
        shapes(),
        "sortie",
        &[("sortie_type", "raid"), ("garrison", "militia")],
    );
    assert!(o.complete);
    // d6−1: 0,1,2 → R (clamped); 3..5 → S.
    assert_eq!(
        odds_table(&o),
        vec![
            ("R".into(), None, "1/2".into()),
            ("S".into(), None, "1/2".into())
        ]
    );
}

#[test]
fn missing_modifier_cell_fails_resolution_and_odds() {
    let err = try_run(
        shapes(),
        "sortie",
        &[("sortie_type", "raid"), ("garrison", "guard")],
        &["4"],
        None,
    )
    .expect_err("DRM cell is missing");
    assert!(
        matches!(err.as_ref(), ResolveError::MissingCell { table, row, column, .. } if table == "garrison" && row == "guard" && column == "result"),
        "{err:?}"
    );
    let p = shapes().procedure("sortie").unwrap();
    let o = odds(
        shapes(),
        p,
        &inputs_for(
            shapes(),
            "sortie",
            &[("sortie_type", "raid"), ("garrison", "guard")],
        ),
    );
    assert!(matches!(o, Err(ResolveError::MissingCell { .. })), "{o:?}");
    // With the umpire's reading of the chart, it resolves.
    let r = try_run(
        shapes(),
        "sortie",
        &[("sortie_type", "raid"), ("garrison", "guard")],
        &["4"],
        Some("S"),
    )
    .expect("chart result");
    assert!(r.outcome.from_physical_chart);
    assert_eq!(r.outcome.code, "S");
}

// ── Threshold tests ────────────────────────────────────────────────────────────────────

#[test]
fn discipline_at_least_target() {
    for (discipline, target) in [("A", 3), ("B", 4), ("C", 5)] {
        let pass = run(
            "discipline",
            &[("discipline", discipline)],
            &[&target.to_string()],
        );
        assert_eq!(pass.outcome.code, "pass", "{discipline} on {target}");
        explains(&pass, &format!("Target = {target} [fixture §10.1]"));
        explains(
            &pass,
            &format!("Test: {target} against {target} or more → Pass"),
        );
        let fail = run(
            "discipline",
            &[("discipline", discipline)],
            &[&(target - 1).to_string()],
        );
        assert_eq!(fail.outcome.code, "fail", "{discipline} on {}", target - 1);
        assert_eq!(
            effects(&fail),
            vec![eff("status", None, None, Some("disordered"), None)]
        );
    }
    let o = odds_of(shapes(), "discipline", &[("discipline", "B")]);
    assert_eq!(fraction_of(&o, "pass"), frac(1, 2));
    assert_eq!(fraction_of(&o, "fail"), frac(1, 2));
}

#[test]
fn discipline_natural_overrides() {
    // Modified 1 + 3 = 4 would pass Discipline A, but an unmodified 1 fails.
    let r = run(
        "discipline",
        &[
            ("discipline", "A"),
            ("guard", "true"),
            ("leader_attached", "true"),
        ],
        &["1"],
    );
    assert_eq!(r.modified, Some(4));
    assert_eq!(r.outcome.code, "fail");
    explains(&r, "Test: an unmodified 1 always fails → Fail");

    // Modified 6 − 1 = 5 against a target of 5 + 1 = 6 would fail, but an unmodified 6 passes.
    let r = run(
        "discipline",
        &[
            ("discipline", "C"),
            ("shaken", "true"),
            ("out_of_command", "true"),
        ],
        &["6"],
    );
    assert_eq!(r.modified, Some(5));
    assert_eq!(r.outcome.code, "pass");
    explains(&r, "Test: an unmodified 6 always passes → Pass");

    // Target modifiers are shown as a sum.
    let r = run(
        "discipline",
        &[("discipline", "B"), ("shaken", "true")],
        &["5"],
    );
    explains(&r, "Test: 5 against 4 + 1 = 5 or more → Pass");

    // With +3, Discipline A passes on everything but the natural 1.
    let o = odds_of(
        shapes(),
        "discipline",
        &[
            ("discipline", "A"),
            ("guard", "true"),
            ("leader_attached", "true"),
        ],
    );
    assert_eq!(fraction_of(&o, "fail"), frac(1, 6));
    assert_eq!(fraction_of(&o, "pass"), frac(5, 6));
    // Needing 7 (C, shaken, out of command: 6 to pass with −1), only the natural 6 passes.
    let o = odds_of(
        shapes(),
        "discipline",
        &[
            ("discipline", "C"),
            ("shaken", "true"),
            ("out_of_command", "true"),
        ],
    );
    assert_eq!(fraction_of(&o, "pass"), frac(1, 6));
}

#[test]
fn gradisca_hits_on_fire_value_or_less() {
    let r = run("gradisca_fire", &[("fire_value", "4")], &["4"]);
    assert_eq!(r.outcome.code, "hit");
    explains(&r, "Test: 4 against 4 or less → Hit");
    assert_eq!(
        effects(&r),
        vec![eff("sp_loss", Some("defender"), Some(1), None, None)]
    );
    assert_eq!(
        run("gradisca_fire", &[("fire_value", "4")], &["5"])
            .outcome
            .code,
        "miss"
    );
    // d10 reads 0–9: a 0 always hits a fire value of 0.
    let r = run("gradisca_fire", &[("fire_value", "0")], &["0"]);
    assert_eq!(r.outcome.code, "hit");
    assert_eq!(r.natural, Some(0));
    // Long range adds 2 to the roll: 3 + 2 = 5 misses a fire value of 4.
    let r = run(
        "gradisca_fire",
        &[("fire_value", "4"), ("long_range", "true")],
        &["3"],
    );
    assert_eq!(r.modified, Some(5));
    assert_eq!(r.outcome.code, "miss");

    let o = odds_of(shapes(), "gradisca_fire", &[("fire_value", "4")]);
    assert_eq!(o.cases, num_bigint::BigUint::from(10u32));
    assert_eq!(fraction_of(&o, "hit"), frac(1, 2));
    let o = odds_of(
        shapes(),
        "gradisca_fire",
        &[("fire_value", "4"), ("long_range", "true")],
    );
    assert_eq!(fraction_of(&o, "hit"), frac(3, 10));
    let o = odds_of(shapes(), "gradisca_fire", &[("fire_value", "9")]);
    assert_eq!(odds_table(&o), vec![("hit".into(), None, "1/1".into())]);
}

// ── Dice pools ─────────────────────────────────────────────────────────────────────────

#[test]
fn pool_counts_sixes_and_double_fives() {
    for (faces, hits) in [
        (["6", "5", "5", "2"], 2),
        (["5", "5", "5", "5"], 2),
        (["5", "5", "5", "6"], 2),
        (["6", "6", "6", "6"], 4),
        (["1", "2", "3", "4"], 0),
        (["5", "1", "2", "3"], 0),
    ] {
        let r = run("volley", &[("muskets", "4")], &faces);
        assert_eq!(r.outcome.code, "hits");
        assert_eq!(r.outcome.value, Some(hits), "{faces:?}");
        assert_eq!(
            effects(&r),
            vec![eff("sp_loss", Some("defender"), Some(hits), None, None)]
        );
    }
    let r = run("volley", &[("muskets", "4")], &["6", "5", "5", "2"]);
    explains(&r, "Hits: 2 (1 × 6 → 1; 2 × 5 (per 2) → 1)");
    explains(&r, "Outcome: Hits (2)");

    // A dice modifier changes the pool size.
    let r = run(
        "volley",
        &[("muskets", "4"), ("disordered", "true")],
        &["6", "6", "1"],
    );
    explains(&r, "Dice: 4 − 1 = 3");
    assert_eq!(r.outcome.value, Some(2));
    let err = try_run(
        shapes(),
        "volley",
        &[("muskets", "4"), ("disordered", "true")],
        &["6", "6", "1", "1"],
        None,
    )
    .expect_err("3 dice");
    assert!(matches!(*err, ResolveError::Dice(_)), "{err:?}");

    let o = odds_of(shapes(), "volley", &[("muskets", "2")]);
    assert_eq!(o.cases, num_bigint::BigUint::from(36u32));
    assert_eq!(
        odds_table(&o),
        vec![
            ("hits".into(), Some(0), "2/3".into()),
            ("hits".into(), Some(1), "11/36".into()),
            ("hits".into(), Some(2), "1/36".into())
        ]
    );
}

#[test]
fn pool_sum_with_per_die_modifier_and_floor() {
    let r = run(
        "bombard",
        &[("guns", "3"), ("long_range", "true")],
        &["1", "4", "6"],
    );
    explains(&r, "Modifier: Long range −2 to each die [fixture §12.4]");
    explains(&r, "Each die −2, no lower than 0: [0, 2, 4]");
    explains(&r, "Score: 6");
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("damage", Some(6))
    );
    assert_eq!(effects(&r), vec![eff("value", None, Some(6), None, None)]);

    let r = run("bombard", &[("guns", "3")], &["1", "4", "6"]);
    assert_eq!(r.outcome.value, Some(11));

    let r = run(
        "bombard",
        &[
            ("guns", "2"),
            ("heavy_guns", "true"),
            ("long_range", "true"),
        ],
        &["2", "1", "3"],
    );
    explains(&r, "Dice: 2 + 1 = 3");
    assert_eq!(r.outcome.value, Some(1));

    // One die at long range: faces 1, 2 → 0; 3 → 1 … 6 → 4.
    let o = odds_of(
        shapes(),
        "bombard",
        &[("guns", "1"), ("long_range", "true")],
    );
    assert_eq!(
        odds_table(&o),
        vec![
            ("damage".into(), Some(0), "1/3".into()),
            ("damage".into(), Some(1), "1/6".into()),
            ("damage".into(), Some(2), "1/6".into()),
            ("damage".into(), Some(3), "1/6".into()),
            ("damage".into(), Some(4), "1/6".into()),
        ]
    );
}

// ── Chained arithmetic ─────────────────────────────────────────────────────────────────

#[test]
fn chained_arithmetic_with_let_and_cases() {
    let r = run(
        "cohesion_check",
        &[("cohesion", "4"), ("losses", "2")],
        &["5"],
    );
    explains(&r, "Critical number = 2 [fixture §13.1]");
    explains(&r, "Margin = 3");
    // Said in words: no expression source in the explanation.
    never_explains(&r, "natural - critical");
    explains(&r, "So: Wavers (3) [fixture §13.5]");
    never_explains(&r, "margin > 0");
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("waver", Some(3))
    );
    assert_eq!(effects(&r), vec![eff("sp_loss", None, Some(3), None, None)]);

    let r = run(
        "cohesion_check",
        &[("cohesion", "4"), ("losses", "2")],
        &["2"],
    );
    assert_eq!((r.outcome.code.as_str(), r.outcome.value), ("steady", None));
    explains(&r, "So: Steady [fixture §13.6]");

    let r = run(
        "cohesion_check",
        &[("cohesion", "4"), ("losses", "2")],
        &["6"],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("rout", Some(4))
    );
    assert_eq!(
        effects(&r),
        vec![
            eff("sp_loss", None, Some(4), None, None),
            eff("retreat", None, Some(2), None, None)
        ]
    );

    // Target modifiers feed the critical number: general near +1, flanked −2.
    let r = run(
        "cohesion_check",
        &[("cohesion", "4"), ("losses", "2"), ("general_near", "true")],
        &["3"],
    );
    explains(&r, "Critical number = 3");
    assert_eq!(r.outcome.code, "steady");
    let r = run(
        "cohesion_check",
        &[("cohesion", "4"), ("losses", "2"), ("flanked", "true")],
        &["1"],
    );
    explains(&r, "Critical number = 0");
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("waver", Some(1))
    );

    // A natural 6 routs even far above the roll: at least 1 loss.
    let r = run("cohesion_check", &[("cohesion", "10")], &["6"]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("rout", Some(1))
    );

    let o = odds_of(
        shapes(),
        "cohesion_check",
        &[("cohesion", "4"), ("losses", "2")],
    );
    assert_eq!(
        odds_table(&o),
        vec![
            ("steady".into(), None, "1/3".into()),
            ("waver".into(), Some(1), "1/6".into()),
            ("waver".into(), Some(2), "1/6".into()),
            ("waver".into(), Some(3), "1/6".into()),
            ("rout".into(), Some(4), "1/6".into()),
        ]
    );
}

// ── Dice expressions ───────────────────────────────────────────────────────────────────

#[test]
fn two_d6_table() {
    let r = run("reaction", &[], &["1", "1"]);
    assert_eq!(cell_at(&r), rc("2", None, "flee"));
    explains(&r, "Roll 2d6: [1, 1] = 2 (physical dice)");
    let r = run("reaction", &[], &["3", "4"]);
    assert_eq!(cell_at(&r), rc("6-8", None, "hold"));
    let r = run("reaction", &[], &["6", "6"]);
    assert_eq!(cell_at(&r), rc("12", None, "charge"));
    let o = odds_of(shapes(), "reaction", &[]);
    assert_eq!(o.cases, num_bigint::BigUint::from(36u32));
    assert_eq!(
        odds_table(&o),
        vec![
            ("flee".into(), None, "1/36".into()),
            ("fall_back".into(), None, "1/4".into()),
            ("hold".into(), None, "4/9".into()),
            ("advance".into(), None, "1/4".into()),
            ("charge".into(), None, "1/36".into()),
        ]
    );
}

#[test]
fn d6_plus_two_table() {
    let r = run("forage", &[], &["1"]);
    assert_eq!(r.natural, Some(3));
    assert_eq!(cell_at(&r), rc("3-4", None, "0"));
    explains(&r, "Roll d6+2: [1] = 3 (physical dice)");
    let r = run("forage", &[], &["6"]);
    assert_eq!(r.natural, Some(8));
    assert_eq!((r.outcome.code.as_str(), r.outcome.value), ("2", Some(2)));
    let o = odds_of(shapes(), "forage", &[]);
    assert_eq!(
        odds_table(&o),
        vec![
            ("0".into(), Some(0), "1/3".into()),
            ("1".into(), Some(1), "1/3".into()),
            ("2".into(), Some(2), "1/3".into())
        ]
    );
}

#[test]
fn halved_dice_round_up_and_down() {
    for (face, up, down) in [
        (1, 1, 0),
        (2, 1, 1),
        (3, 2, 1),
        (4, 2, 2),
        (5, 3, 2),
        (6, 3, 3),
    ] {
        let f = face.to_string();
        let r = run("casualties", &[], &[&f]);
        assert_eq!(r.natural, Some(up), "ceil({face}/2)");
        assert_eq!(r.outcome.value, Some(up));
        let r = run("stragglers", &[], &[&f]);
        assert_eq!(r.natural, Some(down), "floor({face}/2)");
        assert_eq!(
            r.outcome.code,
            if down == 0 { "none" } else { "stragglers" }
        );
    }
    explains(
        &run("casualties", &[], &["5"]),
        "Roll ceil(d6/2): [5] = 3 (physical dice)",
    );
    let o = odds_of(shapes(), "stragglers", &[]);
    assert_eq!(
        odds_table(&o),
        vec![
            ("none".into(), None, "1/6".into()),
            ("stragglers".into(), Some(1), "1/3".into()),
            ("stragglers".into(), Some(2), "1/3".into()),
            ("stragglers".into(), Some(3), "1/6".into())
        ]
    );
}

#[test]
fn custom_weighted_symbolic_die() {
    let r = run("orders", &[], &["Cmd", "Star"]);
    assert_eq!(r.natural, Some(3));
    assert_eq!(r.outcome.code, "inspired");
    explains(&r, "Roll 2dcmd: [Cmd(1), Star(2)] = 3 (physical dice)");
    assert_eq!(r.rolls[0].dice[0].label.as_deref(), Some("Cmd"));
    assert_eq!(r.rolls[0].dice[1].label.as_deref(), Some("Star"));
    // Labels are matched without regard to case; values are accepted too.
    let r = run("orders", &[], &["blank", "1"]);
    assert_eq!(r.natural, Some(1));
    assert_eq!(r.outcome.code, "orders_received");
    assert_eq!(r.rolls[0].dice[1].label.as_deref(), Some("Cmd"));
    assert_eq!(
        run("orders", &[], &["Blank", "Blank"]).outcome.code,
        "no_orders"
    );
    let err = try_run(shapes(), "orders", &[], &["Cmd", "Sword"], None).expect_err("no such face");
    let message = err.to_string();
    assert!(
        message.contains("Sword is not a face of a dcmd"),
        "{message}"
    );
    assert!(
        message.contains("Blank (0), Cmd (1), Star (2)"),
        "{message}"
    );

    // Weights 3/2/1: P(0) = 9/36, P(1) = 12/36, P(2) = 10/36, P(3) = 4/36, P(4) = 1/36.
    let o = odds_of(shapes(), "orders", &[]);
    assert_eq!(o.cases, num_bigint::BigUint::from(36u32));
    assert_eq!(fraction_of(&o, "no_orders"), frac(9, 36));
    assert_eq!(fraction_of(&o, "orders_received"), frac(22, 36));
    assert_eq!(fraction_of(&o, "inspired"), frac(5, 36));
    let o = odds_of(shapes(), "orders", &[("staff_officer", "true")]);
    assert!(o.outcomes.iter().all(|x| x.code != "no_orders"));
    assert_eq!(fraction_of(&o, "orders_received"), frac(21, 36));
    assert_eq!(fraction_of(&o, "inspired"), frac(15, 36));
}

// ── A full explanation, pinned ─────────────────────────────────────────────────────────

#[test]
fn full_explanation_snapshot() {
    let r = run(
        "assault",
        &[
            ("attacker_sp", "7"),
            ("defender_sp", "3"),
            ("fortified", "true"),
            ("artillery_support", "true"),
        ],
        &["6"],
    );
    insta::assert_snapshot!("assault_explanation", r.explanation.join("\n"));
}

// ── QRS derived examples (shipped ruleset) ─────────────────────────────────────────────

#[test]
fn qrs_discipline_examples() {
    let r = run_in(
        qrs(),
        "discipline_test",
        &[("discipline", "B"), ("outside_command_range", "true")],
        &["4"],
    );
    assert_eq!(r.modified, Some(3));
    assert_eq!(r.outcome.code, "fail");
    explains(&r, "Test: 3 against 4 or more → Fail");

    let r = run_in(
        qrs(),
        "discipline_test",
        &[
            ("discipline", "C"),
            ("test_for", "opportunity_charge"),
            ("foot", "true"),
            ("disordered", "true"),
        ],
        &["6"],
    );
    assert_eq!(r.modified, Some(3));
    assert_eq!(r.outcome.code, "pass");
    explains(
        &r,
        "Modifier: Opportunity Charge: Foot −2 to the roll [The Discipline Test › Additional Modifiers › For Opportunity Charge]",
    );
    explains(
        &r,
        "Modifier: Opportunity Charge: in Disorder −1 to the roll [The Discipline Test › Additional Modifiers › For Opportunity Charge]",
    );
    explains(&r, "Test: an unmodified 6 always passes → Pass");

    let r = run_in(
        qrs(),
        "discipline_test",
        &[("discipline", "A"), ("leader_attached", "true")],
        &["1"],
    );
    assert_eq!(r.modified, Some(2));
    assert_eq!(r.outcome.code, "fail");
    explains(&r, "Test: an unmodified 1 always fails → Fail");
}

#[test]
fn qrs_cohesion_examples() {
    let inputs = [
        ("vbu", "4"),
        ("damage", "2"),
        ("test_from", "shooting"),
        ("shot_range", "long"),
    ];
    let r = run_in(qrs(), "cohesion_test", &inputs, &["5"]);
    explains(
        &r,
        "Critical Number = 4 [Cohesion Test and Losses › Step 2: Calculate Critical Number]",
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("fail", Some(1))
    );
    assert_eq!(r.outcome.effects[0].kind.id(), "sp_loss");
    assert_eq!(r.outcome.effects[0].amount, Some(1));

    let r = run_in(qrs(), "cohesion_test", &inputs, &["4"]);
    assert_eq!(r.outcome.code, "pass");
    assert_eq!(r.outcome.effects[0].status.as_deref(), Some("disordered"));

    let r = run_in(qrs(), "cohesion_test", &inputs, &["6"]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("fail", Some(2))
    );
    assert_eq!(r.outcome.effects[0].amount, Some(2));
}

#[test]
fn qrs_shooting_hits() {
    let r = run_in(
        qrs(),
        "shooting",
        &[
            ("base_dice", "4"),
            ("weapon", "arquebus"),
            ("band", "short"),
        ],
        &["6", "5", "5", "2"],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("hits", Some(2))
    );
    explains(&r, "Hits: 2");
    assert_eq!(
        r.outcome.effects[0].procedure.as_deref(),
        Some("cohesion_test")
    );
}

#[test]
fn qrs_pursuit_and_retreat() {
    let r = run_in(
        qrs(),
        "charge_bonus_pursuit",
        &[("troop_class", "mounted")],
        &["4"],
    );
    assert_eq!(cell_at(&r), rc("4", Some("mounted"), "1BU"));
    assert_eq!(r.outcome.label, "1 BU");
    assert_eq!(r.outcome.effects[0].kind.id(), "advance");
    assert_eq!(r.outcome.effects[0].amount, Some(1));

    let r = run_in(qrs(), "retreat", &[("troop_class", "slow_mounted")], &["6"]);
    assert_eq!(cell_at(&r), rc("6", Some("slow_mounted"), "3BU"));
    assert_eq!(r.outcome.label, "Retreat 3 BU");
    assert_eq!(r.outcome.effects[0].kind.id(), "retreat");
    assert_eq!(r.outcome.effects[0].amount, Some(3));
}

// ── Opposed rolls ───────────────────────────────────────────────────────────────────────

#[test]
fn opposed_battle_with_short_die_per_die_modifiers_and_floor() {
    // Attacker 7,000: one d6 per 5,000 plus a short die at −3 (two thousand of five), Spanish +1
    // each. Defender 5,000 with Fatigue 2: one die at −2. Faces in throw order: attacker's, then
    // defender's.
    let r = run(
        "battle",
        &[
            ("attacker_thousands", "7"),
            ("defender_thousands", "5"),
            ("attacker_spanish", "true"),
            ("defender_fatigue", "2"),
        ],
        &["4", "1", "3"],
    );
    explains(
        &r,
        "attacker: 1d6 +1 each, no lower than 0 (one per 5,000) + 1d6 −2 each, no lower than 0 (short die)",
    );
    explains(&r, "defender: 1d6 −2 each, no lower than 0 (one per 5,000)");
    never_explains(&r, "0d6");
    // Attacker: 4+1 = 5, short die 1+1−3 = −1 → floor 0: total 5. Defender: 3−2 = 1.
    explains(&r, "attacker: [5, 0] → score 5");
    explains(&r, "defender: [1] → score 1");
    assert_eq!(r.outcome.code, "attacker_wins");
    assert_eq!(r.outcome.value, Some(2), "winner inflicts ⌊score/2⌋");
    assert_eq!(r.outcome.effects[0].side.as_deref(), Some("defender"));
    assert_eq!(r.rolls[0].dice.len(), 3);
}

#[test]
fn opposed_battle_odds_are_exact_and_sum_to_one() {
    let o = odds_of(
        shapes(),
        "battle",
        &[("attacker_thousands", "5"), ("defender_thousands", "5")],
    );
    let sum: num_bigint::BigUint = o.outcomes.iter().map(|x| &x.count).sum();
    assert_eq!(sum, num_bigint::BigUint::from(36u32));
    // One d6 each: draws on 6 of 36 throws.
    let draw = o.outcomes.iter().find(|x| x.code == "draw").expect("draw");
    assert_eq!(draw.fraction.to_string(), "1/6");
}

#[test]
fn opposed_hits_can_draw() {
    let r = run(
        "skirmish_fire",
        &[("red_units", "2"), ("blue_units", "2"), ("fire_value", "3")],
        &["1", "5", "2", "6"],
    );
    explains(&r, "red: [1, 5] → hits 1");
    explains(&r, "blue: [2, 6] → hits 1");
    assert_eq!(r.outcome.code, "draw");
    let o = odds_of(
        shapes(),
        "skirmish_fire",
        &[("red_units", "1"), ("blue_units", "1"), ("fire_value", "3")],
    );
    let draw = o.outcomes.iter().find(|x| x.code == "draw").expect("draw");
    assert_eq!(
        draw.fraction.to_string(),
        "1/2",
        "both hit or both miss: 1/4 + 1/4"
    );
}

#[test]
fn activation_reads_each_players_die() {
    // Initiative 3 − die 4 = −1 against 2 − die 1 = 1: the second Capitano activates.
    let r = run(
        "activation",
        &[("first_initiative", "3"), ("second_initiative", "2")],
        &["4", "1"],
    );
    assert_eq!(r.outcome.code, "second");
    assert_eq!(r.outcome.value, Some(1));
    let o = odds_of(
        shapes(),
        "activation",
        &[("first_initiative", "3"), ("second_initiative", "3")],
    );
    let tie = o.outcomes.iter().find(|x| x.code == "tie").expect("tie");
    assert_eq!(
        tie.fraction.to_string(),
        "1/6",
        "equal Initiative ties when the dice match"
    );
}

#[test]
fn arithmetic_without_dice_is_computed_and_certain() {
    let r = run(
        "fortress_strength",
        &[("sp", "10"), ("doubling_limit", "4")],
        &[],
    );
    assert!(r.rolls.is_empty());
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("strength", Some(14))
    );
    assert_eq!(
        r.outcome.effects.len(),
        1,
        "conditional effect applies when value > 12"
    );
    let small = run(
        "fortress_strength",
        &[("sp", "5"), ("doubling_limit", "4")],
        &[],
    );
    assert_eq!(small.outcome.value, Some(9));
    assert!(
        small.outcome.effects.is_empty(),
        "conditional effect left out when value ≤ 12"
    );
    let o = odds_of(shapes(), "fortress_strength", &[("sp", "3")]);
    assert_eq!(o.outcomes.len(), 1);
    assert_eq!(o.outcomes[0].fraction.to_string(), "1/1");
    assert_eq!(o.outcomes[0].value, Some(6));
}
