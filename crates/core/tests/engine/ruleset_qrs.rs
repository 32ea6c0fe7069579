//! Renaissance miniatures QRS (seed 002). The QRS holds no worked examples: every vector here is
//! DERIVED from the quoted tables (digest B6, D1–D15), plus checks of the rulings. "L…" are lines
//! of seeds/002_8acfc58ebde69db2.txt.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use umpire_core::resolve::{DiceSource, Resolution, ResolveError, parse_inputs, resolve};
use umpire_core::rules::{Library, Ruleset, Value};

fn qrs() -> &'static Ruleset {
    static LIB: OnceLock<Library> = OnceLock::new();
    let lib = LIB.get_or_init(Library::shipped);
    lib.get("qrs").unwrap_or_else(|| {
        panic!(
            "qrs does not load: {:?}",
            lib.failed
                .iter()
                .map(|(id, e)| format!("{id}: {e}"))
                .collect::<Vec<_>>()
        )
    })
}

fn try_run(
    rs: &Ruleset,
    procedure: &str,
    inputs: &[(&str, &str)],
    faces: &[&str],
) -> Result<Resolution, Box<ResolveError>> {
    let p = rs
        .procedure(procedure)
        .unwrap_or_else(|| panic!("no procedure {procedure}"));
    let pairs: Vec<(String, String)> = inputs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let given: BTreeMap<String, Value> = parse_inputs(p, &pairs).expect("inputs parse");
    let dice = DiceSource::Physical {
        faces: faces.iter().map(|f| f.to_string()).collect(),
        entered_by: None,
    };
    resolve(rs, p, &given, dice, None).map_err(Box::new)
}

fn run_in(rs: &Ruleset, procedure: &str, inputs: &[(&str, &str)], faces: &[&str]) -> Resolution {
    try_run(rs, procedure, inputs, faces)
        .unwrap_or_else(|e| panic!("{procedure} {inputs:?} {faces:?}: {e}"))
}

fn run(procedure: &str, inputs: &[(&str, &str)], faces: &[&str]) -> Resolution {
    run_in(qrs(), procedure, inputs, faces)
}

#[track_caller]
fn explains(r: &Resolution, needle: &str) {
    assert!(
        r.explanation.iter().any(|l| l.contains(needle)),
        "no explanation line contains {needle:?}:\n{}",
        r.explanation.join("\n")
    );
}

fn cell(r: &Resolution) -> String {
    r.lookup
        .as_ref()
        .map(|l| l.cell.clone())
        .unwrap_or_default()
}

// ── Structure ──────────────────────────────────────────────────────────────────────────

#[test]
fn qrs_structure() {
    let rs = qrs();
    let g = rs.geometry.as_ref().expect("geometry");
    assert_eq!(g.distance_unit.as_deref(), Some("BU"));
    for a in [
        "discipline",
        "vbu",
        "vd",
        "shooting_modifier",
        "melee_modifier",
        "weapon",
        "movement_class",
        "mounted",
        "massed",
        "disordered",
    ] {
        assert!(
            rs.units.iter().any(|u| u.name == a),
            "no unit attribute {a}"
        );
    }
    assert!(rs.leaders.iter().any(|l| l.name == "commander_type"));
    let turn = &rs.sequence_of_play[0];
    let steps: Vec<&str> = turn.steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        steps,
        [
            "initiative",
            "activate_units",
            "reassess_initiative",
            "end_of_turn"
        ]
    );
    for r in ["double_five", "cohesion_equal", "firing_band_edges"] {
        assert!(rs.rulings.iter().any(|x| x.id == r), "no ruling {r}");
    }
    for t in rs.tables.values() {
        assert!(t.is_complete(), "QRS table {} has missing cells", t.id);
    }
}

// ── Discipline Test (L34–74): derived D1–D4 ────────────────────────────────────────────

#[test]
fn d1_outside_command_range_l39() {
    // DERIVED D1: Discipline B (4+), outside Command Range (−1), d6 = 4 → 3 < 4: fail.
    let r = run(
        "discipline_test",
        &[("discipline", "B"), ("outside_command_range", "true")],
        &["4"],
    );
    assert_eq!((r.modified, r.outcome.code.as_str()), (Some(3), "fail"));
}

#[test]
fn d2_unmodified_six_passes_l40() {
    // DERIVED D2: Discipline C, Opportunity Charge by Foot (−2), Disordered (−1), d6 = 6 → pass.
    let r = run(
        "discipline_test",
        &[
            ("discipline", "C"),
            ("test_for", "opportunity_charge"),
            ("foot", "true"),
            ("disordered", "true"),
        ],
        &["6"],
    );
    assert_eq!(r.outcome.code, "pass");
    explains(&r, "an unmodified 6 always passes");
}

#[test]
fn d3_unmodified_one_fails_l40() {
    // DERIVED D3: Discipline A (3+), leader attached (+1), d6 = 1 → fail.
    let r = run(
        "discipline_test",
        &[("discipline", "A"), ("leader_attached", "true")],
        &["1"],
    );
    assert_eq!(r.outcome.code, "fail");
    explains(&r, "an unmodified 1 always fails");
}

#[test]
fn d4_second_evasion_by_cl_l67_l72() {
    // DERIVED D4: Evasion, CL (+2), second evasion this turn (−1), Discipline B, d6 = 3 → 4: pass.
    let r = run(
        "discipline_test",
        &[
            ("discipline", "B"),
            ("test_for", "evasion"),
            ("cl", "true"),
            ("earlier_evasions", "1"),
        ],
        &["3"],
    );
    assert_eq!((r.modified, r.outcome.code.as_str()), (Some(4), "pass"));
}

// ── Firing Table (L136–160): derived D5–D8 ─────────────────────────────────────────────

#[test]
fn d5_musket_long_and_extreme_l140() {
    // DERIVED D5: Musket at 4BU (long): −2 dice; at 8BU "No" (cannot fire).
    let r = run(
        "shooting",
        &[("base_dice", "4"), ("weapon", "musket"), ("band", "long")],
        &["6", "1"],
    );
    explains(&r, "Musket × long = -2");
    explains(&r, "Dice: 4 − 2 = 2");
    match try_run(
        qrs(),
        "shooting",
        &[
            ("base_dice", "4"),
            ("weapon", "musket"),
            ("band", "extreme"),
        ],
        &[],
    ) {
        Err(e) => assert!(
            matches!(*e, ResolveError::NotANumber { .. }),
            "expected the 'No' cell, got {e}"
        ),
        Ok(r) => panic!("a musket fired at extreme range: {:?}", r.outcome),
    }
}

#[test]
fn d6_medium_cannon_at_massed_l145_l160() {
    // DERIVED D6: Medium Cannon at 2BU against a Massed target: table +2, cannon vs Massed +1 → +3.
    let r = run(
        "shooting",
        &[
            ("base_dice", "4"),
            ("weapon", "medium_cannon"),
            ("band", "short"),
            ("target_massed", "true"),
        ],
        &["1", "1", "1", "1", "1", "1", "1"],
    );
    explains(&r, "Dice: 4 + 3 = 7");
}

#[test]
fn d7_medium_howitzer_at_massed_l148_l160() {
    // DERIVED D7: Medium Howitzer at 2BU against Massed: table +1; the +1 does not apply to howitzers.
    let r = run(
        "shooting",
        &[
            ("base_dice", "4"),
            ("weapon", "medium_howitzer"),
            ("band", "short"),
            ("target_massed", "true"),
        ],
        &["1", "1", "1", "1", "1"],
    );
    explains(&r, "Dice: 4 + 1 = 5");
    assert!(!r.modifiers.iter().any(|m| m.name.contains("Massed")));
}

#[test]
fn d8_hits_six_and_double_five_l204() {
    // DERIVED D8: dice [6, 5, 5, 2] → 2 hits (one 6, one double 5).
    let r = run(
        "shooting",
        &[
            ("base_dice", "4"),
            ("weapon", "arquebus"),
            ("band", "short"),
        ],
        &["6", "5", "5", "2"],
    );
    assert_eq!(r.outcome.value, Some(2));
    // Three 5s are one pair (ruling double_five: per_pair).
    let r = run(
        "shooting",
        &[
            ("base_dice", "4"),
            ("weapon", "arquebus"),
            ("band", "short"),
        ],
        &["5", "5", "5", "2"],
    );
    assert_eq!(r.outcome.value, Some(1));
}

/// The ruling double_five (L204) read "once only": four 5s and a 6 make 2 hits, not 3; and the
/// exact odds follow the same reading.
#[test]
fn double_five_once_only_caps_the_fives_at_one_hit() {
    let inputs = [
        ("base_dice", "5"),
        ("weapon", "arquebus"),
        ("band", "short"),
    ];
    let faces = ["5", "5", "5", "5", "6"];
    let per_pair = run("shooting", &inputs, &faces);
    assert_eq!(per_pair.outcome.value, Some(3), "two pairs of 5s and a 6");
    let once = qrs()
        .with_rulings(&[("double_five".to_string(), "once_only".to_string())])
        .expect("ruling");
    let r = run_in(&once, "shooting", &inputs, &faces);
    assert_eq!(
        r.outcome.value,
        Some(2),
        "one hit for the 5s and one for the 6"
    );
    explains(&r, "at most 1");
    // Exact odds: P(at least 2 hits) is lower under "once only" (two pairs of 5s no longer make
    // 2 hits on their own), and the two readings agree on P(0 hits).
    let given = |rs: &Ruleset| {
        let p = rs.procedure("shooting").expect("shooting");
        let pairs: Vec<(String, String)> = inputs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        parse_inputs(p, &pairs).expect("inputs")
    };
    let odds_of = |rs: &Ruleset| {
        let odds = umpire_core::resolve::odds(rs, rs.procedure("shooting").expect("p"), &given(rs))
            .expect("odds");
        let total: num_bigint::BigUint = odds.outcomes.iter().map(|o| &o.count).sum();
        let at_least_two: num_bigint::BigUint = odds
            .outcomes
            .iter()
            .filter(|o| o.value.is_some_and(|v| v >= 2))
            .map(|o| &o.count)
            .sum();
        let none: num_bigint::BigUint = odds
            .outcomes
            .iter()
            .filter(|o| o.value == Some(0))
            .map(|o| &o.count)
            .sum();
        (total, at_least_two, none)
    };
    let (t1, two1, none1) = odds_of(qrs());
    let (t2, two2, none2) = odds_of(&once);
    assert_eq!(t1, t2);
    assert_eq!(none1, none2);
    assert!(two2 < two1, "{two2} < {two1}");
}

// ── Cohesion Test (L200–230): derived D9–D11 and the equal-roll ruling ───────────────────

#[test]
fn d9_cohesion_long_range_l208_l230() {
    // DERIVED D9: VBU 4, 2 hits, shot at long range (+2): CN 4. d6 5 → fail, loss 1; d6 4 → pass,
    // Disordered; d6 6 → fail, loss 2.
    let inputs = [
        ("vbu", "4"),
        ("damage", "2"),
        ("test_from", "shooting"),
        ("shot_range", "long"),
    ];
    let r = run("cohesion_test", &inputs, &["5"]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("fail", Some(1))
    );
    let r = run("cohesion_test", &inputs, &["4"]);
    assert_eq!(r.outcome.code, "pass");
    assert_eq!(r.outcome.effects[0].status.as_deref(), Some("disordered"));
    let r = run("cohesion_test", &inputs, &["6"]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("fail", Some(2))
    );
    // A 6 on the Cohesion Test: roll for an attached leader — dead on 5+ when shot.
    assert_eq!(
        run("leader_loss_shooting", &[], &["5"]).outcome.code,
        "leader_dead"
    );
    assert_eq!(
        run("leader_loss_shooting", &[], &["4"]).outcome.code,
        "no_effect"
    );
}

#[test]
fn d10_critical_number_seven_l230() {
    // DERIVED D10: CN 7: d6 1–5 pass; d6 6 fails with a loss of exactly 1.
    for face in ["1", "5"] {
        assert_eq!(
            run(
                "cohesion_test",
                &[
                    ("test_from", "shooting"),
                    ("shot_range", "point_blank"),
                    ("vbu", "7")
                ],
                &[face]
            )
            .outcome
            .code,
            "pass"
        );
    }
    let r = run(
        "cohesion_test",
        &[
            ("test_from", "shooting"),
            ("shot_range", "point_blank"),
            ("vbu", "7"),
        ],
        &["6"],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("fail", Some(1))
    );
}

#[test]
fn d11_pass_while_disordered_l230() {
    // DERIVED D11: passing while already Disordered: stays Disordered, 1 permanent loss.
    let r = run(
        "cohesion_test",
        &[
            ("test_from", "shooting"),
            ("shot_range", "point_blank"),
            ("vbu", "5"),
            ("disordered", "true"),
        ],
        &["2"],
    );
    assert_eq!(r.outcome.code, "pass_already_disordered");
    assert_eq!(r.outcome.effects[0].amount, Some(1));
}

#[test]
fn cohesion_roll_equal_to_critical_number_ruling_l228() {
    // Default: a roll equal to the Critical Number passes.
    let inputs = [
        ("vbu", "4"),
        ("damage", "1"),
        ("test_from", "shooting"),
        ("shot_range", "point_blank"),
    ];
    assert_eq!(run("cohesion_test", &inputs, &["3"]).outcome.code, "pass");
    let rs = qrs()
        .with_rulings(&[("cohesion_equal".into(), "fail_no_loss".into())])
        .expect("ruling");
    let r = run_in(&rs, "cohesion_test", &inputs, &["3"]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("fail", Some(0))
    );
}

// ── Pursuit and Retreat (L232–250): derived D12, D13 ────────────────────────────────────

#[test]
fn d12_pursuit_l234_l240() {
    // DERIVED D12: Mounted d6 4 → 1BU; Fast Mounted d6 1 → 1BU; Slow Foot d6 4 → 0.
    assert_eq!(
        cell(&run(
            "charge_bonus_pursuit",
            &[("troop_class", "mounted")],
            &["4"]
        )),
        "1BU"
    );
    assert_eq!(
        cell(&run(
            "charge_bonus_pursuit",
            &[("troop_class", "fast_mounted")],
            &["1"]
        )),
        "1BU"
    );
    assert_eq!(
        cell(&run(
            "charge_bonus_pursuit",
            &[("troop_class", "slow_foot")],
            &["4"]
        )),
        "0"
    );
}

#[test]
fn d13_retreat_l244_l250() {
    // DERIVED D13: Slow Mounted d6 6 → 3BU; Fast Mounted d6 3 → 2BU; Foot d6 6 → 1BU.
    assert_eq!(
        cell(&run("retreat", &[("troop_class", "slow_mounted")], &["6"])),
        "3BU"
    );
    assert_eq!(
        cell(&run("retreat", &[("troop_class", "fast_mounted")], &["3"])),
        "2BU"
    );
    let r = run("retreat", &[("troop_class", "foot")], &["6"]);
    assert_eq!(
        (cell(&r).as_str(), r.outcome.effects[0].amount),
        ("1BU", Some(1))
    );
}

// ── Break points (L252–262): derived D14 ─────────────────────────────────────────────────

#[test]
fn d14_army_break_point_l255_l257() {
    // DERIVED D14: a unit with VD 2 Eliminated: VDT −4; a village lost: −1.
    let r = run(
        "army_break_deduction",
        &[("event", "eliminated_unit"), ("unit_vd", "2")],
        &[],
    );
    assert_eq!(cell(&r), "Twice the Unit's VD");
    assert_eq!(r.outcome.effects[0].amount, Some(-4));
    let r = run(
        "army_break_deduction",
        &[("unit_vd", "0"), ("event", "village_lost")],
        &[],
    );
    assert_eq!(r.outcome.effects[0].amount, Some(-1));
    let r = run(
        "army_break_deduction",
        &[("event", "baggage_lost"), ("unit_vd", "2")],
        &[],
    );
    assert_eq!(
        r.outcome.effects[0].amount,
        Some(-3),
        "ruling baggage_3vds: three points"
    );
    // The Command break point deducts the VD once for an Eliminated unit (not twice).
    let r = run(
        "command_break_deduction",
        &[("event", "eliminated_unit"), ("unit_vd", "2")],
        &[],
    );
    assert_eq!(r.outcome.effects[0].amount, Some(-2));
}

#[test]
fn command_break_discipline_test_l262() {
    // DERIVED: at VDC 0 every Unit tests; failing Units are eliminated.
    let r = run("command_break_test", &[("discipline", "B")], &["3"]);
    assert_eq!(r.outcome.code, "eliminated");
    assert_eq!(r.outcome.effects[0].kind.id(), "eliminate");
    assert_eq!(
        run("command_break_test", &[("discipline", "B")], &["4"])
            .outcome
            .code,
        "continues"
    );
    assert_eq!(
        run(
            "command_break_test",
            &[("discipline", "C"), ("outside_command_range", "true")],
            &["6"]
        )
        .outcome
        .code,
        "continues"
    );
}

// ── Leaders (L76–107): derived D15 and the reference tables ─────────────────────────────

#[test]
fn d15_leader_lost_in_melee_l98() {
    // DERIVED D15: leader loss in melee, d6 5 → leader lost, no troop test.
    let r = run("leader_loss_melee", &[], &["5"]);
    assert_eq!(r.outcome.code, "leader_lost");
    assert!(
        !r.outcome
            .effects
            .iter()
            .any(|e| e.kind == umpire_core::rules::EffectKind::FollowUp)
    );
    let r = run("leader_loss_melee", &[], &["6"]);
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.procedure.as_deref() == Some("discipline_test"))
    );
}

#[test]
fn reference_tables_as_printed() {
    let r = run("command_range", &[("command_structure", "average")], &[]);
    assert_eq!(
        (cell(&r).as_str(), r.outcome.effects[0].amount),
        ("6BU", Some(6))
    );
    assert_eq!(
        cell(&run(
            "leader_bonus",
            &[("show", "bonus"), ("commander_type", "expert")],
            &[]
        )),
        "3"
    );
    assert_eq!(
        cell(&run(
            "leader_bonus",
            &[("commander_type", "incompetent"), ("show", "special")],
            &[]
        )),
        "loses activation on a double"
    );
    assert_eq!(
        cell(&run(
            "terrain_movement",
            &[("troops", "other_troops"), ("terrain", "difficult_terrain")],
            &[]
        )),
        "1BU+ DISORDER"
    );
    assert_eq!(
        cell(&run(
            "terrain_movement",
            &[("troops", "wb_t"), ("terrain", "linear_obstacles")],
            &[]
        )),
        "DISORDER"
    );
    assert_eq!(
        cell(&run("visibility", &[("terrain", "gentle_hill")], &[])),
        "2U (1BU with ridge)"
    );
    assert_eq!(
        cell(&run("possible_reactions", &[("action", "charge")], &[])),
        "Opportunity Fire, Defensive Fire or Countercharge (or evade)"
    );
}

#[test]
fn retreat_slow_foot_ruling_l244() {
    // The Retreat Table has no Slow Foot column: by default there is nothing to read.
    match try_run(qrs(), "retreat", &[("troop_class", "slow_foot")], &["3"]) {
        Err(e) => assert!(matches!(*e, ResolveError::NoSuchKey { .. }), "{e}"),
        Ok(r) => panic!("Slow Foot read a column: {}", cell(&r)),
    }
    let rs = qrs()
        .with_rulings(&[("retreat_slow_foot".into(), "as_foot".into())])
        .expect("ruling");
    assert_eq!(
        cell(&run_in(
            &rs,
            "retreat",
            &[("troop_class", "slow_foot")],
            &["6"]
        )),
        "1BU"
    );
}

/// The shooting pool at 34 dice (32 base and the musket's +2 at point blank), against the
/// multinomial: a 6 is a hit, a pair of 5s another. Computed by classes of faces, not throws.
#[test]
fn shooting_odds_at_34_dice_match_the_multinomial() {
    use num_bigint::BigUint;
    let p = qrs().procedure("shooting").expect("shooting");
    let pairs: Vec<(String, String)> = [
        ("base_dice", "32"),
        ("weapon", "musket"),
        ("band", "point_blank"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    let inputs = parse_inputs(p, &pairs).expect("inputs");
    let start = std::time::Instant::now();
    let odds = umpire_core::resolve::odds(qrs(), p, &inputs).expect("odds");
    assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
    let n = 34u32;
    assert_eq!(odds.cases, BigUint::from(6u32).pow(n));
    let fact = |k: u32| (1..=k).fold(BigUint::from(1u32), |a, i| a * i);
    let mut expected: BTreeMap<i64, BigUint> = BTreeMap::new();
    for sixes in 0..=n {
        for fives in 0..=n - sixes {
            let rest = n - sixes - fives;
            let ways =
                fact(n) / (fact(sixes) * fact(fives) * fact(rest)) * BigUint::from(4u32).pow(rest);
            *expected.entry(i64::from(sixes + fives / 2)).or_default() += ways;
        }
    }
    let got: BTreeMap<i64, BigUint> = odds
        .outcomes
        .iter()
        .map(|o| (o.value.expect("hits"), o.count.clone()))
        .collect();
    assert_eq!(got, expected);
}
