//! "All is lost save Honour" (ruleset `ailsh`): every worked example of the rule text that the
//! data can carry, plus the fixed-number procedures. Line numbers (L…) refer to
//! seeds/000_73d28750ad550589.txt.

use umpire_core::resolve::{Odds, Resolution, ResolveError, odds};
use umpire_core::rules::{Ruleset, Value};

use crate::common;
use common::{explains, inputs_for, run_in, shipped, try_run as try_run_in};

fn ailsh() -> &'static Ruleset {
    shipped("ailsh")
}

/// The ruleset with one ruling switched.
fn with_ruling(id: &str, option: &str) -> Ruleset {
    ailsh()
        .with_rulings(&[(id.to_string(), option.to_string())])
        .unwrap_or_else(|e| panic!("{e}"))
}

fn run(procedure: &str, inputs: &[(&str, &str)], faces: &[&str]) -> Resolution {
    run_in(ailsh(), procedure, inputs, faces)
}

fn try_run(
    procedure: &str,
    inputs: &[(&str, &str)],
    faces: &[&str],
    chart: Option<&str>,
) -> Result<Resolution, Box<ResolveError>> {
    try_run_in(ailsh(), procedure, inputs, faces, chart)
}

/// Resolves a procedure whose table cell is missing, with the result read off the chart.
fn run_chart(procedure: &str, inputs: &[(&str, &str)], faces: &[&str], chart: &str) -> Resolution {
    try_run(procedure, inputs, faces, Some(chart))
        .unwrap_or_else(|e| panic!("{procedure} {inputs:?}: {e}"))
}

fn odds_of(procedure: &str, inputs: &[(&str, &str)]) -> Odds {
    let rs = ailsh();
    let p = rs.procedure(procedure).expect("procedure");
    odds(rs, p, &inputs_for(rs, procedure, inputs)).expect("odds")
}

fn derived(r: &Resolution, name: &str) -> Value {
    r.derived
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no derived value {name}: {:?}", r.derived))
        .value
        .clone()
}

fn derived_int(r: &Resolution, name: &str) -> i64 {
    match derived(r, name) {
        Value::Int(i) => i,
        other => panic!("derived {name} is {other:?}, not a number"),
    }
}

#[track_caller]
fn missing_cell(result: Result<Resolution, Box<ResolveError>>, table: &str) {
    match result.map_err(|e| *e) {
        Err(ResolveError::MissingCell { table: t, .. }) => assert_eq!(t, table),
        Err(e) => panic!("expected a missing cell of {table}, got error {e}"),
        Ok(r) => panic!("expected a missing cell of {table}, got {}", r.outcome.code),
    }
}

fn effect_amounts(r: &Resolution, kind: &str) -> Vec<i64> {
    r.outcome
        .effects
        .iter()
        .filter(|e| e.kind.id() == kind)
        .filter_map(|e| e.amount)
        .collect()
}

// ── The ruleset loads, with its structure ────────────────────────────────────────────────────

/// A step with procedures of its own and sub-steps is walked as a step, then its sub-steps: the
/// activated Force acts (C.2.b: one item per Force, 16 procedures offered) before its Field
/// Engineers, which once took its place and hid its procedures. Its Attrition after a second
/// activation is the Force's own item there (7.2, 8).
#[test]
fn the_activation_step_keeps_its_procedures_before_its_sub_steps() {
    let rs = ailsh();
    let steps = umpire_core::game::sequence::leaf_steps(rs);
    let at = |id: &str| {
        steps
            .iter()
            .position(|s| s.id == id)
            .unwrap_or_else(|| panic!("leaf step {id}"))
    };
    let act = &steps[at("c2b_activate")];
    assert_eq!(act.offered.len(), 14, "{:?}", act.offered);
    assert_eq!(act.procedures.len(), 18, "{:?}", act.procedures);
    assert!(act.offered.contains(&"assault".to_string()));
    let per_force: Vec<&str> = act.per_force.iter().map(|f| f.procedure.as_str()).collect();
    assert_eq!(
        per_force,
        [
            "activation",
            "attack_from_march_cost",
            "recovery_check",
            "attrition"
        ]
    );
    let mandatory: Vec<bool> = act.per_force.iter().map(|f| f.mandatory).collect();
    assert_eq!(mandatory, [false, false, false, true]);
    assert!(
        act.path
            .ends_with("b. Roll for activation; the activated Force acts")
    );
    assert_eq!(at("c2b_field_engineers"), at("c2b_activate") + 1);
    assert_eq!(
        steps[at("c2b_field_engineers")].procedures,
        vec!["field_engineers_defence".to_string()]
    );
    // Every procedure the sequence names is in some leaf step.
    fn named(steps: &[umpire_core::rules::Step], out: &mut Vec<String>) {
        for s in steps {
            out.extend(s.procedures.iter().cloned());
            named(&s.steps, out);
        }
    }
    let mut all = Vec::new();
    named(&rs.sequence_of_play, &mut all);
    for p in all {
        assert!(
            steps.iter().any(|s| s.procedures.contains(&p)),
            "procedure {p} is in no leaf step"
        );
    }
}

#[test]
fn ruleset_loads_with_geometry_attributes_and_sequence_of_play() {
    let rs = ailsh();
    let g = rs.geometry.as_ref().expect("geometry");
    assert_eq!(g.hex_id_digits, Some(4), "four-digit hex numbers (L114)");
    for attr in [
        "strength_points",
        "maximum_strength",
        "troop_quality",
        "reliability_class",
        "movement_allowance",
        "firearms",
        "named_unit",
    ] {
        assert!(
            rs.units.iter().any(|a| a.name == attr),
            "unit attribute {attr}"
        );
    }
    for attr in ["initiative", "rank", "bonus_star", "special_features"] {
        assert!(
            rs.leaders.iter().any(|a| a.name == attr),
            "leader attribute {attr}"
        );
    }
    let phases: Vec<&str> = rs.sequence_of_play.iter().map(|s| s.id.as_str()).collect();
    let order = [
        "phase_a_weather",
        "phase_b_command",
        "phase_c_activation",
        "phase_d_combat_attrition",
        "phase_e_victory",
        "phase_f_advance",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|p| {
            phases
                .iter()
                .position(|x| x == p)
                .unwrap_or_else(|| panic!("phase {p} (L206–271)"))
        })
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "phases A–F in order (L206): {phases:?}"
    );
    // Every table the text prints in full is complete; the two examples' cells are present.
    assert!(
        rs.tables["italian_mercenary_recruits"].rows.len() == 6,
        "Recruits Table has six rows (L1595–1600)"
    );
}

// ── EX-06 (L414): Administrative Points ──────────────────────────────────────────────────────

#[test]
fn ex06_administrative_points_l414() {
    // L414: LOC of 38 hexes, 5 nominal APs, two dice roll 7: the table reads −2, so 3 APs.
    let r = run(
        "administrative_points",
        &[("loc_distance", "38"), ("nominal_aps", "5")],
        &["3", "4"],
    );
    assert_eq!(
        r.lookup.as_ref().map(|l| l.cell.as_str()),
        Some("-2"),
        "L414: the AP Table reads -2"
    );
    assert_eq!(r.outcome.value, Some(-2), "L414: the AP Table reads -2");
    assert_eq!(
        effect_amounts(&r, "value").first(),
        Some(&3),
        "L414: 3 APs are actually received (5-2=3)"
    );
    explains(&r, "row 7, column 38");
    // The final result is never negative (L412).
    let r = run(
        "administrative_points",
        &[("loc_distance", "38"), ("nominal_aps", "1")],
        &["6", "1"],
    );
    assert_eq!(
        effect_amounts(&r, "value").first(),
        Some(&0),
        "L412: never negative, treat as 0"
    );
}

#[test]
fn administrative_points_other_cells_are_not_in_the_text() {
    // Any other roll, any other LOC distance, and any shifted column are unknown (L408, L1464, L1570).
    missing_cell(
        try_run(
            "administrative_points",
            &[("loc_distance", "38"), ("nominal_aps", "5")],
            &["4", "4"],
            None,
        ),
        "administrative_points",
    );
    missing_cell(
        try_run(
            "administrative_points",
            &[("loc_distance", "20"), ("nominal_aps", "5")],
            &["3", "4"],
            None,
        ),
        "administrative_points",
    );
    missing_cell(
        try_run(
            "administrative_points",
            &[
                ("loc_distance", "38"),
                ("nominal_aps", "5"),
                ("mud_or_snow", "true"),
            ],
            &["3", "4"],
            None,
        ),
        "administrative_points",
    );
    missing_cell(
        try_run(
            "administrative_points",
            &[
                ("loc_distance", "38"),
                ("nominal_aps", "5"),
                ("refused_interphase", "true"),
            ],
            &["3", "4"],
            None,
        ),
        "administrative_points",
    );
    // A shorter LOC shifted right is never read in the 38 column (ruling administrative_points_table).
    missing_cell(
        try_run(
            "administrative_points",
            &[
                ("loc_distance", "37"),
                ("nominal_aps", "5"),
                ("mud_or_snow", "true"),
            ],
            &["3", "4"],
            None,
        ),
        "administrative_points",
    );
    let r = run_chart(
        "administrative_points",
        &[
            ("loc_distance", "30"),
            ("nominal_aps", "5"),
            ("refused_interphase", "true"),
        ],
        &["3", "4"],
        "-3",
    );
    assert_eq!(
        derived_int(&r, "column_shift"),
        2,
        "L1570: two columns right"
    );
    // With the result read off the chart.
    let r = run_chart(
        "administrative_points",
        &[("loc_distance", "20"), ("nominal_aps", "5")],
        &["3", "4"],
        "-1",
    );
    assert!(
        r.outcome.from_physical_chart,
        "L408: read off the physical Administrative Points Table"
    );
    assert_eq!(r.outcome.value, Some(-1));
    assert_eq!(
        effect_amounts(&r, "value").first(),
        Some(&4),
        "L412: the chart's -1 modifies the 5 nominal APs"
    );
    // Order costs read off the chart still get the Temporeggiatore's +1 (L380).
    let r = run_chart(
        "order_cost",
        &[
            ("force", "major"),
            ("order", "attack"),
            ("temporeggiatore", "true"),
        ],
        &[],
        "3",
    );
    assert_eq!(
        effect_amounts(&r, "value"),
        vec![4],
        "L380: chart cost 3 + 1"
    );
}

// ── EX-08 (L475): Orders ─────────────────────────────────────────────────────────────────────

#[test]
fn ex08_change_manoeuvre_to_attack_major_force_l475() {
    // L475: changing from Manoeuvre to Attack for a Major Force costs 4-2=2 APs.
    let r = run(
        "order_cost",
        &[
            ("force", "major"),
            ("order", "attack"),
            ("change_from", "manoeuvre"),
        ],
        &[],
    );
    assert_eq!(
        r.outcome.value,
        Some(2),
        "L475: Manoeuvre to Attack, Major Force, costs 2 APs"
    );
    assert_eq!(effect_amounts(&r, "value"), vec![2], "L475: 2 APs to pay");
}

#[test]
fn order_costs_given_by_the_text_l494_l496_l380() {
    // L494: Minor Forces pay 1 AP for Manoeuvre and Attack Orders.
    for order in ["manoeuvre", "attack"] {
        let r = run("order_cost", &[("force", "minor"), ("order", order)], &[]);
        assert_eq!(
            r.outcome.value,
            Some(1),
            "L494: a Minor Force pays 1 AP for {order}"
        );
    }
    // L494–496: solely Light Cavalry or 1 SP: always 0 AP.
    for order in ["garrison", "stand", "manoeuvre", "attack", "retreat"] {
        let r = run(
            "order_cost",
            &[
                ("force", "minor"),
                ("order", order),
                ("light_cavalry_or_1_sp", "true"),
            ],
            &[],
        );
        assert_eq!(
            effect_amounts(&r, "value"),
            vec![0],
            "L496: always 0 AP for {order}"
        );
    }
    // L380: the Temporeggiatore (W) pays 1 more for an Attack Order.
    let r = run(
        "order_cost",
        &[
            ("force", "minor"),
            ("order", "attack"),
            ("temporeggiatore", "true"),
        ],
        &[],
    );
    assert_eq!(
        effect_amounts(&r, "value"),
        vec![2],
        "L380 + L494: 1 + 1 APs"
    );
    assert_eq!(derived_int(&r, "temporeggiatore_surcharge"), 1, "L380");
    // L474: a Forced Order is not paid, and needs a Discipline Check.
    let r = run(
        "order_cost",
        &[
            ("force", "minor"),
            ("order", "attack"),
            ("forced", "true"),
            ("previous_attack", "true"),
        ],
        &[],
    );
    assert_eq!(
        effect_amounts(&r, "value"),
        vec![0],
        "L474: Forced, nothing paid"
    );
    assert_eq!(
        derived_int(&r, "discipline_checks"),
        2,
        "L474 + L483: Forced and Continuous Attack checks"
    );
    // A Major Force's own costs are not in the text…
    missing_cell(
        try_run(
            "order_cost",
            &[("force", "major"), ("order", "attack")],
            &[],
            None,
        ),
        "orders",
    );
    // …unless the umpire reads the L475 example as Attack 4, Manoeuvre 2.
    let rs = with_ruling("major_order_costs", "l475_example");
    assert_eq!(
        run_in(
            &rs,
            "order_cost",
            &[("force", "major"), ("order", "attack")],
            &[]
        )
        .outcome
        .value,
        Some(4),
        "L475 read as 4-2"
    );
    assert_eq!(
        run_in(
            &rs,
            "order_cost",
            &[("force", "major"), ("order", "manoeuvre")],
            &[]
        )
        .outcome
        .value,
        Some(2),
        "L475 read as 4-2"
    );
}

// ── EX-09 (L561) and EX-13 (L671): activation ────────────────────────────────────────────────

#[test]
fn ex09_activation_movement_penalty_l561() {
    // L561: Initiative 3, no modifiers, Infantry MA 5: a die of 3 or less gives 5 MP; a 4 gives -1, so 4 MP.
    for die in ["1", "2", "3"] {
        let r = run(
            "activation_single",
            &[("order", "manoeuvre"), ("initiative", "3"), ("ma", "5")],
            &[die],
        );
        assert_eq!(
            (r.outcome.code.as_str(), r.outcome.value),
            ("full_ma", Some(5)),
            "L561: die {die} ≤ 3 → up to 5 MP"
        );
    }
    let r = run(
        "activation_single",
        &[("order", "manoeuvre"), ("initiative", "3"), ("ma", "5")],
        &["4"],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("reduced_ma", Some(4)),
        "L561: die 4 → 3-4 = -1 → 4 MP"
    );
    explains(&r, "Modified Initiative − die = -1");
    // Derived, not stated: 5 → 3 MP, 6 → 2 MP.
    assert_eq!(
        run(
            "activation_single",
            &[("order", "manoeuvre"), ("initiative", "3"), ("ma", "5")],
            &["6"]
        )
        .outcome
        .value,
        Some(2),
        "L559 (derived): die 6 → 2 MP"
    );
    // The same inside the two-player contest: die 1 is player A's.
    let r = run(
        "activation",
        &[
            ("order_a", "manoeuvre"),
            ("order_b", "manoeuvre"),
            ("ma_b", "0"),
            ("initiative_a", "3"),
            ("ma_a", "5"),
            ("initiative_b", "1"),
        ],
        &["4", "6"],
    );
    assert_eq!(r.outcome.code, "a_decides", "L546: -1 beats 1-6 = -5");
    explains(&r, "A: MPs if activated = 4");
}

#[test]
fn ex13_exiting_a_zoc_l671() {
    // L671: Initiative 2 exits the ZOC of an enemy of Initiative 3: the IMT reads -4; 2-4 = -2; a 3 gives -5 MP.
    let r = run("initiative_modifier", &[("enemy_initiative", "3")], &[]);
    assert_eq!(
        r.outcome.value,
        Some(-4),
        "L671: the Initiative Modifier Table reads -4"
    );
    let r = run(
        "activation_single",
        &[
            ("order", "manoeuvre"),
            ("initiative", "2"),
            ("imt", "-4"),
            ("ma", "5"),
        ],
        &["3"],
    );
    assert_eq!(derived_int(&r, "modified_initiative"), -2, "L671: 2-4 = -2");
    explains(&r, "MA penalty = -5");
    assert_eq!(
        r.outcome.value,
        Some(0),
        "L671: a -5 MP penalty leaves a 5-MA Force no MP"
    );
    // Other enemy Initiatives are not in the text.
    missing_cell(
        try_run(
            "initiative_modifier",
            &[("enemy_initiative", "2")],
            &[],
            None,
        ),
        "initiative_modifier",
    );
}

#[test]
fn activation_contest_ties_and_orders_l550_l563() {
    // L550: equal results — the higher printed Initiative decides.
    let r = run(
        "activation",
        &[
            ("order_a", "manoeuvre"),
            ("order_b", "manoeuvre"),
            ("ma_a", "0"),
            ("ma_b", "0"),
            ("initiative_a", "2"),
            ("initiative_b", "3"),
        ],
        &["2", "3"],
    );
    assert_eq!(
        r.outcome.code, "b_decides",
        "L550: tie, higher printed Initiative"
    );
    // Same printed Initiative: the Bonus star decides; else re-roll.
    let r = run(
        "activation",
        &[
            ("order_a", "manoeuvre"),
            ("order_b", "manoeuvre"),
            ("ma_a", "0"),
            ("ma_b", "0"),
            ("initiative_a", "2"),
            ("initiative_b", "2"),
            ("bonus_star_a", "true"),
        ],
        &["4", "4"],
    );
    assert_eq!(r.outcome.code, "a_decides", "L550: tie, Bonus star");
    let r = run(
        "activation",
        &[
            ("order_a", "manoeuvre"),
            ("order_b", "manoeuvre"),
            ("ma_a", "0"),
            ("ma_b", "0"),
            ("initiative_a", "2"),
            ("initiative_b", "2"),
        ],
        &["4", "4"],
    );
    assert_eq!(r.outcome.code, "reroll", "L550: still undecided, re-roll");
    // L563: Garrison/Stand reduce the Initiative to 0; Retreat +1; L555 second activation -1.
    let r = run(
        "activation",
        &[
            ("ma_a", "0"),
            ("ma_b", "0"),
            ("initiative_a", "3"),
            ("order_a", "stand"),
            ("initiative_b", "3"),
            ("order_b", "retreat"),
            ("second_activation_b", "true"),
        ],
        &["1", "1"],
    );
    assert_eq!(
        derived_int(&r, "modified_initiative_a"),
        0,
        "L563: Stand → 0"
    );
    assert_eq!(
        derived_int(&r, "modified_initiative_b"),
        3,
        "L563 + L555: 3 + 1 - 1"
    );
    let o = odds_of(
        "activation",
        &[
            ("order_a", "manoeuvre"),
            ("order_b", "manoeuvre"),
            ("ma_a", "0"),
            ("ma_b", "0"),
            ("initiative_a", "2"),
            ("initiative_b", "2"),
        ],
    );
    assert!(o.complete, "the contest is fully computed");
}

// ── Assault Table arithmetic: EX-10, EX-14, EX-15, EX-16, EX-17 ──────────────────────────────

#[test]
fn ex15_force_quality_with_downgrading_l1260() {
    // L1260: 4 SPs Q3, 2 SPs Q2, 5 SPs Q1: downgrade the Q3 group, 6 SPs at Q2 is more than half → Q2.
    let r = run_chart(
        "assault",
        &[
            ("battle", "skirmish"),
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("attacker_q3_sp", "4"),
            ("attacker_q2_sp", "2"),
            ("attacker_q1_sp", "5"),
            ("defender_q2_sp", "4"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "attacker_base_quality"),
        2,
        "L1260: the Force has Q=2"
    );
    assert_eq!(derived_int(&r, "attacker_sp"), 11, "L1260: 11 SPs");
    assert_eq!(derived_int(&r, "quality_differential"), 0, "L1268: 2 - 2");
    // A group of exactly half keeps its Quality (\"half or more\", L1258).
    let r = run_chart(
        "assault",
        &[
            ("battle", "skirmish"),
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("attacker_q3_sp", "3"),
            ("attacker_q1_sp", "3"),
            ("defender_q1_sp", "3"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "attacker_base_quality"),
        3,
        "L1258: half or more"
    );
}

#[test]
fn ex16_odds_rounded_down_against_the_attacker_l1276() {
    // L1276: three SPs attacking seven SPs: 2.3 to 1, rounded down to 2 to 1 against the attacker.
    let r = run_chart(
        "assault",
        &[
            ("battle", "skirmish"),
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("attacker_q2_sp", "3"),
            ("defender_q2_sp", "7"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "odds_ratio"),
        2,
        "L1276: 2.3 to 1 rounded down to 2 to 1"
    );
    assert_eq!(
        derived(&r, "odds_against_attacker"),
        Value::Bool(true),
        "L1276: against the attacker"
    );
    assert_eq!(
        derived(&r, "odds"),
        Value::Text("2 to 1 against the attacker".into()),
        "L1276"
    );
    // The AST itself is not in the text: a missing cell without a chart result (L1254).
    missing_cell(
        try_run(
            "assault",
            &[
                ("battle", "skirmish"),
                ("weather", "fair"),
                ("attacker_force_sp", "0"),
                ("defender_force_sp", "0"),
                ("attacker_q2_sp", "3"),
                ("defender_q2_sp", "7"),
                ("odds_drm", "0"),
            ],
            &["4"],
            None,
        ),
        "assault",
    );
}

#[test]
fn ex10_fortified_town_with_earthworks_l619() {
    // L619: a Force of 10 SPs in a Fortified Town with Earthworks, attacked through a fortified
    // hexside: up to 4 + 4 = 8 SPs doubled, 8*2 + 2 = 18 SPs.
    let r = run_chart(
        "assault",
        &[
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("battle", "storm"),
            ("attacker_q2_sp", "6"),
            ("defender_q2_sp", "10"),
            ("defender_inside", "fortified_town"),
            ("through_fortified_hexside", "true"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "defender_doubled_sp"),
        8,
        "L619: up to 4 + 4 = 8 SPs doubled"
    );
    assert_eq!(
        derived_int(&r, "defender_sp_for_odds"),
        18,
        "L619: 8*2 + 2 = 18 SPs"
    );
    // Storming: the attacker is Disrupted, Quality -1 (L1184, L798).
    assert_eq!(
        derived_int(&r, "attacker_quality"),
        1,
        "L1184: Storming Force Disrupted"
    );
}

#[test]
fn ex17_fortress_doubling_l1442() {
    // L1442: a 3 SP Force in a Fortified Town defends at 6 SPs; a Force of 10 SPs at 14 (8+6).
    let r = run_chart(
        "assault",
        &[
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("battle", "storm"),
            ("attacker_q2_sp", "6"),
            ("defender_q2_sp", "3"),
            ("defender_inside", "fortified_town"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "defender_sp_for_odds"),
        6,
        "L1442: 3 SP defend at 6"
    );
    let r = run_chart(
        "assault",
        &[
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("battle", "storm"),
            ("attacker_q2_sp", "6"),
            ("defender_q2_sp", "10"),
            ("defender_inside", "fortified_town"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "defender_sp_for_odds"),
        14,
        "L1442: 10 SP defend at 14 (8+6)"
    );
    // EX-19 (derived from L1442, not stated): a Fortified City doubles up to 10: 12 SP → 22.
    let r = run_chart(
        "assault",
        &[
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("battle", "in_breach"),
            ("attacker_q2_sp", "6"),
            ("defender_q2_sp", "12"),
            ("defender_inside", "fortified_city"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "defender_sp_for_odds"),
        22,
        "L1442 (derived): 10*2 + 2 = 22"
    );
    // Outside the Fortress nothing is doubled (L872, L1292).
    let r = run_chart(
        "assault",
        &[
            ("battle", "skirmish"),
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("attacker_q2_sp", "6"),
            ("defender_q2_sp", "10"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "defender_sp_for_odds"),
        10,
        "L1292: only inside"
    );
}

#[test]
fn ex14_combined_arms_l1098() {
    // L1098: 2 SPs of Heavy Cavalry and 3 SP of Infantry render 9 SPs in the Odds determination.
    let r = run_chart(
        "assault",
        &[
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("battle", "major_battle"),
            ("attacker_q2_sp", "5"),
            ("combined_arms", "true"),
            ("attacker_cavalry_sp", "2"),
            ("attacker_infantry_sp", "3"),
            ("defender_q2_sp", "3"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "attacker_sp_for_odds"),
        9,
        "L1098: 2 x 1.5 + 3 x 2 = 9 SPs"
    );
    assert_eq!(derived_int(&r, "odds_ratio"), 3, "9 against 3 is 3 to 1");
    // An odd number of cavalry SPs: 3 x 1.5 = 4.5 kept exact (ruling combined_arms_half).
    let r = run_chart(
        "assault",
        &[
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("battle", "major_battle"),
            ("attacker_q2_sp", "3"),
            ("combined_arms", "true"),
            ("attacker_cavalry_sp", "3"),
            ("defender_q2_sp", "9"),
            ("odds_drm", "0"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "attacker_half_sp_for_odds"),
        9,
        "L1098: 4.5 SPs, kept as 9 half-SPs"
    );
    assert_eq!(
        derived_int(&r, "odds_ratio"),
        2,
        "9 against 4.5 is exactly 2 to 1 against"
    );
}

#[test]
fn assault_line_modifiers_and_chart_result_l708_l1296_l1472() {
    // L708: Attack from March uses the Affecting line, except Forces solely of Light Cavalry.
    let base = [
        ("battle", "attack_from_march"),
        ("weather", "fair"),
        ("attacker_force_sp", "0"),
        ("defender_force_sp", "0"),
        ("attacker_q2_sp", "4"),
        ("defender_q2_sp", "4"),
        ("odds_drm", "0"),
    ];
    let r = run_chart("assault", &base, &["4"], "X");
    assert_eq!(
        derived(&r, "ast_line"),
        Value::Text("affecting".into()),
        "L708: Affecting row"
    );
    let mut lc = base.to_vec();
    lc.push(("light_cavalry_only", "true"));
    let r = run_chart("assault", &lc, &["4"], "X");
    assert_eq!(
        derived(&r, "ast_line"),
        Value::Text("not_affecting".into()),
        "L708: Light Cavalry use Not-Affecting"
    );
    // L1296: attacker's Bonus +1, defender's -1; L1472–1474: Rain, Mud, Snow -1.
    let r = run_chart(
        "assault",
        &[
            ("battle", "skirmish"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("attacker_q2_sp", "4"),
            ("defender_q2_sp", "4"),
            ("odds_drm", "1"),
            ("attacker_bonus_star", "true"),
            ("weather", "mud"),
        ],
        &["4"],
        "A1",
    );
    assert_eq!(r.modified, Some(5), "L1276, L1296, L1474: 4 + 1 + 1 - 1");
    assert!(
        r.outcome.from_physical_chart,
        "the AST is read off the physical chart"
    );
    assert_eq!(r.outcome.code, "A1");
    // L1264: Firearms reduces the attacker's Quality, not in Rain (L1088, L1472).
    let r = run_chart(
        "assault",
        &[
            ("battle", "skirmish"),
            ("weather", "fair"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("attacker_q2_sp", "4"),
            ("defender_q2_sp", "4"),
            ("odds_drm", "0"),
            ("defender_firearms", "true"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "quality_differential"),
        -1,
        "L1264: Firearms -1"
    );
    let r = run_chart(
        "assault",
        &[
            ("battle", "skirmish"),
            ("attacker_force_sp", "0"),
            ("defender_force_sp", "0"),
            ("attacker_q2_sp", "4"),
            ("defender_q2_sp", "4"),
            ("odds_drm", "0"),
            ("defender_firearms", "true"),
            ("weather", "rain"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived_int(&r, "quality_differential"),
        0,
        "L1472: no Firearms in Rain"
    );
    // L1200: the Larger Force in a Skirmish; a tie goes to the attacker.
    let r = run_chart(
        "assault",
        &[
            ("battle", "skirmish"),
            ("weather", "fair"),
            ("attacker_q2_sp", "4"),
            ("defender_q2_sp", "4"),
            ("odds_drm", "0"),
            ("attacker_force_sp", "9"),
            ("defender_force_sp", "9"),
        ],
        &["4"],
        "X",
    );
    assert_eq!(
        derived(&r, "larger_force"),
        Value::Text("attacker".into()),
        "L1200: tie, the attacker is the Larger Force"
    );
}

// ── Pursuit: L967–969 ────────────────────────────────────────────────────────────────────────

#[test]
fn pursuit_loss_accounting_l969() {
    // L969: Demoralised SPs count 1 Pursuit Loss, undemoralised 2; Artillery, then Infantry, then
    // Cavalry; Demoralised first. 5 PL against 1 Demoralised Artillery SP, 1 good Infantry SP and
    // 3 Demoralised Cavalry SPs: 1 + 2 + 2 PL → 1 + 1 + 2 = 4 SPs.
    let inputs = [
        ("pursuit_losses", "5"),
        ("artillery_demoralised_sp", "1"),
        ("infantry_good_sp", "1"),
        ("cavalry_demoralised_sp", "3"),
    ];
    let r = run("pursuit_losses", &inputs, &[]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("losses", Some(4)),
        "L969: 4 SPs lost"
    );
    explains(&r, "Cavalry Demoralised SPs lost = 2");
    assert_eq!(
        derived_int(&r, "pursuit_loss_capacity"),
        1 + 2 + 3,
        "L969: 1 PL per Demoralised SP, 2 per good SP"
    );
    // 3 PL against 2 good Infantry SPs: one SP (2 PL), the last PL is unused (ruling pursuit_odd_loss)…
    let r = run(
        "pursuit_losses",
        &[
            ("pursuit_losses", "3"),
            ("infantry_good_sp", "2"),
            ("cavalry_demoralised_sp", "2"),
        ],
        &[],
    );
    assert_eq!(
        r.outcome.value,
        Some(1),
        "L969: the odd PL cannot reach the Cavalry before the Infantry is gone"
    );
    // …or removes another SP.
    let rs = with_ruling("pursuit_odd_loss", "removes_sp");
    let r = run_in(
        &rs,
        "pursuit_losses",
        &[
            ("pursuit_losses", "3"),
            ("infantry_good_sp", "2"),
            ("cavalry_demoralised_sp", "2"),
        ],
        &[],
    );
    assert_eq!(r.outcome.value, Some(2), "ruling removes_sp");
    // Every SP removed: the Capitani are captured (L319).
    let r = run(
        "pursuit_losses",
        &[
            ("pursuit_losses", "9"),
            ("infantry_good_sp", "2"),
            ("cavalry_demoralised_sp", "2"),
        ],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("force_destroyed", Some(4)),
        "L319"
    );
}

#[test]
fn pursuit_modifiers_and_ap_loot_l967_l977() {
    // L967: half (rounded up) of the loser Army's APs go to the winner.
    let r = run_chart(
        "pursuit",
        &[
            ("context", "major_battle"),
            ("loser_army_aps", "7"),
            ("pursuer_bonus_star", "true"),
            ("undemoralised_stradiots", "true"),
        ],
        &["3"],
        "4",
    );
    assert_eq!(derived_int(&r, "ap_loot"), 4, "L967: half of 7, rounded up");
    assert_eq!(r.modified, Some(5), "L977–978: +1 Bonus, +1 Stradiots");
    assert_eq!(
        r.outcome.value,
        Some(4),
        "Pursuit Losses read off the chart"
    );
    // L677: -1 per MP voluntarily expended exiting a ZOC; no loot outside a Major Battle by default.
    let r = run_chart(
        "pursuit",
        &[
            ("context", "exit_zoc"),
            ("loser_army_aps", "7"),
            ("mp_voluntarily_expended", "2"),
        ],
        &["3"],
        "1",
    );
    assert_eq!(r.modified, Some(1), "L677: -2");
    assert_eq!(
        derived_int(&r, "ap_loot"),
        0,
        "ruling pursuit_loot: Major Battle only"
    );
    missing_cell(
        try_run("pursuit", &[("context", "major_battle")], &["3"], None),
        "pursuit",
    );
}

// ── Fixed-number procedures ──────────────────────────────────────────────────────────────────

#[test]
fn capitano_elimination_on_two_or_less_l324() {
    for (die, code) in [
        ("1", "eliminated"),
        ("2", "eliminated"),
        ("3", "survives"),
        ("6", "survives"),
    ] {
        assert_eq!(
            run("capitano_elimination", &[], &[die]).outcome.code,
            code,
            "L324: eliminated on 2 or less (die {die})"
        );
    }
}

#[test]
fn unemployed_capture_l320() {
    assert_eq!(
        run("unemployed_capture", &[("initiative", "2")], &["2"])
            .outcome
            .code,
        "escapes",
        "L320: no higher than the Initiative"
    );
    assert_eq!(
        run("unemployed_capture", &[("initiative", "2")], &["3"])
            .outcome
            .code,
        "captured",
        "L320"
    );
}

#[test]
fn battle_initiative_l912_l916_l920() {
    // L912: die halved rounding up, plus the Capitano Generale's Initiative.
    let r = run(
        "battle_initiative",
        &[
            ("cg_initiative", "2"),
            ("defender_earthworks", "level_2"),
            ("defender_behind_secondary_river", "true"),
        ],
        &["5"],
    );
    assert_eq!(r.outcome.value, Some(3 + 2), "L912: ⌈5/2⌉ + 2");
    assert_eq!(
        derived_int(&r, "free_earthworks_chits"),
        4,
        "L916: Level 2 → 4"
    );
    assert_eq!(derived_int(&r, "free_river_chits"), 2, "L920");
    assert_eq!(
        run("battle_initiative", &[("cg_initiative", "1")], &["1"])
            .outcome
            .value,
        Some(2),
        "L912: ⌈1/2⌉ + 1"
    );
}

#[test]
fn muster_ten_or_more_l1112() {
    let inputs = [
        ("corps_initiative", "2"),
        ("cg_initiative", "3"),
        ("corps_state", "free"),
    ];
    assert_eq!(
        run("muster", &inputs, &["4"]).outcome.code,
        "good_order",
        "L1112: 4+2+3+1 = 10"
    );
    assert_eq!(
        run("muster", &inputs, &["3"]).outcome.code,
        "pursued",
        "L1112: 9 < 10"
    );
    let inputs = [
        ("corps_initiative", "2"),
        ("cg_initiative", "3"),
        ("corps_state", "demoralised"),
    ];
    assert_eq!(
        run("muster", &inputs, &["5"]).outcome.code,
        "pursued",
        "L1112: 5+2+3-1 = 9"
    );
}

#[test]
fn militia_l1384() {
    assert_eq!(
        run("militia", &[("fortress", "fortified_city")], &["5"])
            .outcome
            .value,
        Some(5),
        "L1384: City, the die"
    );
    assert_eq!(
        run("militia", &[("fortress", "fortified_town")], &["5"])
            .outcome
            .value,
        Some(3),
        "L1384: not a City, halved rounding up"
    );
    assert_eq!(
        run("militia", &[("fortress", "fortified_town")], &["1"])
            .outcome
            .value,
        Some(1),
        "L1384: ⌈1/2⌉"
    );
}

#[test]
fn field_engineers_l1388_l1390() {
    assert_eq!(
        run("field_engineers_attack", &[], &["5"]).outcome.code,
        "plus_two_sp",
        "L1390: 5 or 6"
    );
    assert_eq!(
        run("field_engineers_attack", &[], &["1"]).outcome.code,
        "engineers_eliminated",
        "L1390: 1"
    );
    assert_eq!(
        run("field_engineers_attack", &[], &["3"]).outcome.code,
        "no_effect",
        "L1390"
    );
    assert_eq!(
        run("field_engineers_defence", &[("siege_status", "2")], &["6"])
            .outcome
            .value,
        Some(1),
        "L1388: lower by 1"
    );
    assert_eq!(
        run("field_engineers_defence", &[("siege_status", "0")], &["6"])
            .outcome
            .value,
        Some(0),
        "L1388: minimum 0"
    );
    assert_eq!(
        run("field_engineers_defence", &[("siege_status", "2")], &["1"])
            .outcome
            .code,
        "engineers_eliminated",
        "L1388"
    );
}

#[test]
fn treachery_l1616_l1618() {
    assert_eq!(
        run("treachery_capitano", &[("capitano_rank", "2")], &["6"])
            .outcome
            .code,
        "success",
        "L1616: 6-2 = 4"
    );
    assert_eq!(
        run("treachery_capitano", &[("capitano_rank", "2")], &["5"])
            .outcome
            .code,
        "failure",
        "L1616: 5-2 = 3"
    );
    assert_eq!(
        run("treachery_population", &[], &["5"]).outcome.code,
        "success",
        "L1618: 5 or 6"
    );
    assert_eq!(
        run("treachery_population", &[], &["4"]).outcome.code,
        "failure",
        "L1618"
    );
}

#[test]
fn pillage_l1624() {
    assert_eq!(
        run("pillage", &[("hex", "fortified_city")], &["5"])
            .outcome
            .value,
        Some(5),
        "L1624: one die of APs"
    );
    assert_eq!(
        run("pillage", &[("hex", "fortified_town")], &["5"])
            .outcome
            .value,
        Some(2),
        "L1624: Fortified Town, halved rounding down"
    );
    assert_eq!(
        run("pillage", &[("hex", "clear_devastation")], &["5"])
            .outcome
            .code,
        "devastated",
        "L1634: no APs"
    );
}

#[test]
fn italian_mercenary_recruits_table_l1593() {
    let expect = [
        ("1", "no_recruit_pay_1"),
        ("2", "no_recruit"),
        ("3", "pay_1_select_one"),
        ("4", "select_one_pay_if_kept"),
        ("5", "pay_1_select_two_keep_one"),
        ("6", "as_3_replace_existing"),
    ];
    for (die, code) in expect {
        let r = run("recruit_mercenaries", &[], &[die]);
        assert_eq!(r.outcome.code, code, "L1595–1600: die {die}");
    }
    assert!(
        odds_of("recruit_mercenaries", &[]).complete,
        "L1593: printed in full"
    );
}

#[test]
fn fate_of_the_capitano_l1640() {
    let expect = [
        ("1", "killed_arquebus"),
        ("2", "killed_pike"),
        ("3", "died_of_wounds"),
        ("4", "captured_riding_away"),
        ("5", "captured_after_fighting"),
        ("6", "captured_by_primo_capitano"),
    ];
    for (die, code) in expect {
        assert_eq!(
            run("capitano_fate", &[], &[die]).outcome.code,
            code,
            "L1642–1647: die {die}"
        );
    }
    // Rows 1 and 6 lost their numbers in the text: ruling fate_row_labels.
    let rs = with_ruling("fate_row_labels", "printed_chart");
    missing_cell(
        try_run_in(&rs, "capitano_fate", &[], &["1"], None),
        "capitano_fate",
    );
    assert_eq!(
        run_in(&rs, "capitano_fate", &[], &["2"]).outcome.code,
        "killed_pike",
        "L1643"
    );
}

/// Scenario 5, special rule 4 (L2725): a Force in the Milano hex while there is Pestilence rolls
/// for Attrition with +2, only +1 in Quarters — a modifier of the roll, not a note; no
/// Pestilence, no modifier.
#[test]
fn pestilence_in_milano_modifies_attrition_l2725() {
    let held = |r: &Resolution| -> Vec<(String, Option<i64>)> {
        r.modifiers
            .iter()
            .filter(|m| m.active && m.name.starts_with("Pestilence"))
            .map(|m| (m.name.clone(), m.value))
            .collect()
    };
    let base = [
        ("trigger", "attrition_segment"),
        ("force_sp", "8"),
        ("weather", "fair"),
    ];
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut inputs = base.to_vec();
        inputs.extend_from_slice(extra);
        run_chart("attrition", &inputs, &["3"], "1")
    };
    let r = with(&[("pestilence", "true")]);
    assert_eq!(
        held(&r),
        vec![("Pestilence in Milano".to_string(), Some(2))]
    );
    assert_eq!(r.modified, Some(3 + 2), "L2725: +2");
    let r = with(&[("pestilence", "true"), ("quarters", "fortified_city")]);
    assert_eq!(
        held(&r),
        vec![(
            "Pestilence in Milano (the Force in Quarters)".to_string(),
            Some(1)
        )]
    );
    assert_eq!(
        r.modified,
        Some(3 + 1 - 2),
        "L2725: only +1 in Quarters; L1546: -2"
    );
    let r = with(&[]);
    assert!(held(&r).is_empty(), "no Pestilence, no modifier");
    assert_eq!(r.modified, Some(3));
}

#[test]
fn attrition_modifiers_l740_l743_l1462() {
    // L742: +1 per full MP in a second activation, at most +4; L1462: +1 not Fair; L741: -1 Bonus.
    let r = run_chart(
        "attrition",
        &[
            ("trigger", "second_activation"),
            ("force_sp", "12"),
            ("mp_spent", "6"),
            ("weather", "rain"),
            ("bonus_star", "true"),
        ],
        &["2"],
        "1",
    );
    assert_eq!(r.modified, Some(2 + 4 + 1 - 1), "L741–742, L1462");
    assert_eq!(derived_int(&r, "force_size"), 12, "L734: Force size column");
    assert_eq!(effect_amounts(&r, "sp_loss"), vec![1], "L734: SPs lost");
    // L743: +2 besieged without LOC; the Attrition Table is not in the text.
    missing_cell(
        try_run(
            "attrition",
            &[
                ("weather", "fair"),
                ("trigger", "besieged"),
                ("force_sp", "5"),
                ("besieged_no_loc", "true"),
            ],
            &["2"],
            None,
        ),
        "attrition",
    );
    // Ruling weather_attrition: only march attrition.
    let rs = with_ruling("weather_attrition", "march_only");
    let r = try_run_in(
        &rs,
        "attrition",
        &[
            ("trigger", "attrition_segment"),
            ("force_sp", "5"),
            ("weather", "snow"),
        ],
        &["2"],
        Some("0"),
    )
    .expect("chart");
    assert_eq!(
        r.modified,
        Some(2),
        "ruling march_only: no weather +1 in the Attrition Segment"
    );
}

#[test]
fn discipline_and_recovery_modifiers_l757_l759_l786_l790() {
    let r = run_chart(
        "discipline_check",
        &[
            ("reason", "forced_order"),
            ("troop_quality", "2"),
            ("reliability", "S"),
            ("bonus_star", "true"),
        ],
        &["3"],
        "F",
    );
    assert_eq!(r.modified, Some(3), "L757–759: -1 Bonus, +1 Forced");
    assert_eq!(
        derived(&r, "discipline_column"),
        Value::Text("S".into()),
        "L753: Command Phase reads the Reliability Class"
    );
    let r = run_chart(
        "discipline_check",
        &[
            ("reason", "combat"),
            ("troop_quality", "2"),
            ("reliability", "N"),
        ],
        &["3"],
        "P",
    );
    assert_eq!(
        derived(&r, "discipline_column"),
        Value::Text("2".into()),
        "L753: Combat Phase reads the Troop Quality"
    );
    let r = run_chart(
        "recovery_check",
        &[
            ("reliability", "N"),
            ("bonus_star", "true"),
            ("extra_wages", "true"),
            ("mp_expended", "true"),
        ],
        &["4"],
        "R",
    );
    assert_eq!(r.modified, Some(3), "L786–790: -1, -1, +1");
    missing_cell(
        try_run(
            "discipline_check",
            &[
                ("reason", "combat"),
                ("troop_quality", "1"),
                ("reliability", "R"),
            ],
            &["3"],
            None,
        ),
        "discipline",
    );
}

#[test]
fn artillery_fire_column_and_modifiers_l368_l1226_l1390() {
    let r = run_chart(
        "artillery_fire",
        &[
            ("firing_side", "attacker"),
            ("context", "siege"),
            ("artillery_sp", "3"),
            ("field_engineers_success", "true"),
            ("siege_status", "2"),
            ("siege_ability", "true"),
            ("weather", "rain"),
        ],
        &["4"],
        "b",
    );
    assert_eq!(
        derived_int(&r, "artillery_column_sp"),
        5,
        "L1390: +2 Artillery SPs"
    );
    let shift = r
        .modifiers
        .iter()
        .find(|m| m.name.starts_with("Siege Status"))
        .expect("L1226: Siege Status column shift");
    assert_eq!(
        shift.value,
        Some(2),
        "L1226: one column right per level (ruling siege_status_shift)"
    );
    assert_eq!(r.modified, Some(4 + 1 - 2), "L368: S +1; L1472: Rain -2");
    // The defender's fire is not shifted (L1226: "the attacking player").
    let r = run_chart(
        "artillery_fire",
        &[
            ("weather", "fair"),
            ("context", "siege"),
            ("firing_side", "defender"),
            ("artillery_sp", "3"),
            ("siege_status", "2"),
        ],
        &["4"],
        "1",
    );
    assert!(
        r.modifiers
            .iter()
            .all(|m| !m.name.starts_with("Siege Status")),
        "L1226: attacker only"
    );
    // Unprinted DRMs stop the resolution until the chart is read.
    missing_cell(
        try_run(
            "artillery_fire",
            &[
                ("firing_side", "attacker"),
                ("weather", "fair"),
                ("context", "major_battle"),
                ("artillery_sp", "2"),
                ("target_earthworks_river", "true"),
            ],
            &["4"],
            None,
        ),
        "unprinted_drms",
    );
}

#[test]
fn reduced_battle_percentages_l1691() {
    // L1691–1693: percentage of SPs lost rounded down; twice the percentage of units demoralised.
    let r = run(
        "reduced_battle_losses",
        &[
            ("loser_sp_lost", "0"),
            ("percentage", "15"),
            ("force_sp_excluding_artillery", "22"),
            ("combat_units", "7"),
        ],
        &[],
    );
    assert_eq!(r.outcome.value, Some(3), "L1691: 15% of 22 = 3.3 → 3");
    explains(
        &r,
        "Combat Units demoralised: twice the percentage, rounded down (rounding assumed as for SPs) = 2",
    ); // 30% of 7 = 2.1
    // The winner never loses more than the loser.
    let r = run(
        "reduced_battle_losses",
        &[
            ("percentage", "20"),
            ("force_sp_excluding_artillery", "30"),
            ("combat_units", "7"),
            ("winner", "true"),
            ("loser_sp_lost", "4"),
        ],
        &[],
    );
    assert_eq!(
        r.outcome.value,
        Some(4),
        "L1691: winner capped at the loser's loss"
    );
}

#[test]
fn weather_table_is_not_in_the_text_but_its_results_are() {
    missing_cell(try_run("weather", &[], &["3"], None), "weather");
    let r = run_chart("weather", &[], &["3"], "mud");
    assert_eq!(r.outcome.label, "Mud", "L1458: the six weathers");
    assert!(
        try_run("weather", &[], &["3"], Some("drizzle")).is_err(),
        "L1458: only the six weathers"
    );
}

// ── EX-11 (L625), EX-12 (L637): terrain and rivers ──────────────────────────────────────────

#[test]
fn ex11_fortified_city_by_road_l625() {
    // L625: a Force passing through a Fortified City by means of a road pays 1 MP.
    let r = run(
        "terrain_effects",
        &[("terrain", "fortified_city"), ("effect", "mp_cost")],
        &[],
    );
    assert_eq!(r.outcome.value, Some(1), "L625: 1 MP");
    let r = run(
        "terrain_effects",
        &[("terrain", "clear"), ("effect", "mp_cost")],
        &[],
    );
    assert_eq!(r.outcome.value, Some(1), "L623: Clear costs 1 MP");
    let r = run(
        "terrain_effects",
        &[("terrain", "woods"), ("effect", "assault_line")],
        &[],
    );
    assert_eq!(r.outcome.code, "affecting", "L1290: Woods are Affecting");
    missing_cell(
        try_run(
            "terrain_effects",
            &[("terrain", "woods"), ("effect", "mp_cost")],
            &[],
            None,
        ),
        "terrain_effects",
    );
}

#[test]
fn ex12_secondary_river_in_rain_l637() {
    // L637: a Major Force crossing a secondary river at a bridge during Rain pays +2 MP and becomes Disrupted.
    let r = run(
        "river_crossing",
        &[
            ("crossing", "bridge"),
            ("weather", "rain"),
            ("major_force", "true"),
        ],
        &[],
    );
    assert_eq!(effect_amounts(&r, "value"), vec![2], "L637: +2 MP");
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.status.as_deref() == Some("disrupted")),
        "L637: becomes Disrupted"
    );
    // A Minor Force is not Disrupted (L635); off a bridge in Rain +3 (L1466).
    let r = run(
        "river_crossing",
        &[("crossing", "not_bridge"), ("weather", "rain")],
        &[],
    );
    assert_eq!(
        effect_amounts(&r, "value"),
        vec![3],
        "L1466: +3 MP not on a bridge"
    );
    assert!(
        r.outcome.effects.iter().all(|e| e.status.is_none()),
        "L635: only a Major Force is Disrupted"
    );
    missing_cell(
        try_run(
            "river_crossing",
            &[("crossing", "bridge"), ("weather", "fair")],
            &[],
            None,
        ),
        "secondary_river_crossing",
    );
}

// ── Movement Point costs and the Engagement limit the text gives (L522, L607–613, L647, L712,
// L796, L1148) ──────────────────────────────────────────────────────────────────────────────

/// The names of the inputs a resolution refused for, in the procedure's order.
#[track_caller]
fn missing_inputs(result: Result<Resolution, Box<ResolveError>>) -> Vec<String> {
    match result.map_err(|e| *e) {
        Err(ResolveError::MissingInputs { missing, .. }) => {
            missing.into_iter().map(|m| m.name).collect()
        }
        Err(e) => panic!("expected missing inputs, got error {e}"),
        Ok(r) => panic!("expected missing inputs, got {}", r.outcome.code),
    }
}

/// Whether some effect of the outcome is a note containing `needle`.
fn notes(r: &Resolution, needle: &str) -> bool {
    r.outcome.effects.iter().any(|e| {
        e.kind == umpire_core::rules::EffectKind::Note
            && e.text.as_deref().is_some_and(|t| t.contains(needle))
    })
}

#[test]
fn earthworks_cost_2_or_4_mp_with_2_infantry_sps_l607_l613() {
    // L609: a Level 1 marker costs 2 MP.
    let r = run(
        "earthworks_cost",
        &[
            ("level", "level_1"),
            ("order", "manoeuvre"),
            ("infantry_sp", "2"),
        ],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("level_1", Some(2)),
        "L609: Level 1 at the cost of 2 MP"
    );
    assert_eq!(effect_amounts(&r, "value"), vec![2], "L609: 2 MP expended");
    assert!(
        r.outcome.label.starts_with("Costs 2 MP"),
        "{}",
        r.outcome.label
    );
    // L611: a Level 2 marker costs 4 MP…
    let r = run(
        "earthworks_cost",
        &[
            ("level", "level_2"),
            ("order", "garrison"),
            ("infantry_sp", "5"),
        ],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("level_2", Some(4)),
        "L611: Level 2 expending 4 MP"
    );
    assert_eq!(effect_amounts(&r, "value"), vec![4], "L611: 4 MP expended");
    // …or 2 MP if the hex already contains a Level 1 marker (L611–613).
    let r = run(
        "earthworks_cost",
        &[
            ("level", "level_2"),
            ("level_1_in_hex", "true"),
            ("order", "attack"),
            ("infantry_sp", "5"),
        ],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("level_2_over_level_1", Some(2)),
        "L611: 2 MP over a Level 1 marker"
    );
    assert_eq!(effect_amounts(&r, "value"), vec![2]);
    // Every Order but Retreat may build (L607).
    for order in ["garrison", "stand", "manoeuvre", "attack"] {
        let r = run(
            "earthworks_cost",
            &[("level", "level_1"), ("order", order), ("infantry_sp", "2")],
            &[],
        );
        assert_eq!(r.outcome.code, "level_1", "L607: {order} may build");
    }
}

#[test]
fn earthworks_are_refused_without_2_infantry_sps_or_with_a_retreat_order_l607_l617() {
    // L607: "composed at least of 2 Infantry SPs"; L617: only Cavalry and/or Artillery may not build.
    for sp in ["0", "1"] {
        let r = run(
            "earthworks_cost",
            &[
                ("level", "level_1"),
                ("order", "manoeuvre"),
                ("infantry_sp", sp),
            ],
            &[],
        );
        assert_eq!(r.outcome.code, "not_allowed", "L607: {sp} Infantry SP");
        assert!(
            r.outcome.label.starts_with("Not allowed"),
            "{}",
            r.outcome.label
        );
        assert!(
            effect_amounts(&r, "value").is_empty(),
            "no MP cost when not allowed"
        );
        assert!(notes(&r, "fewer than 2 Infantry SPs"), "L607, L617");
        assert!(!notes(&r, "Retreat Order"), "only the condition that fails");
    }
    // L607: "any Order except Retreat".
    let r = run(
        "earthworks_cost",
        &[
            ("level", "level_2"),
            ("order", "retreat"),
            ("infantry_sp", "10"),
        ],
        &[],
    );
    assert_eq!(
        r.outcome.code, "not_allowed",
        "L607: not with a Retreat Order"
    );
    assert!(notes(&r, "Retreat Order"));
    // The Order and the Infantry SPs are not assumed: the engine asks for them.
    assert_eq!(
        missing_inputs(try_run(
            "earthworks_cost",
            &[("level", "level_1")],
            &[],
            None
        )),
        vec!["order".to_string(), "infantry_sp".to_string()]
    );
}

#[test]
fn movement_point_costs_l522_l647_l796() {
    fn mp(inputs: &[(&str, &str)]) -> (String, Option<i64>, Vec<i64>) {
        let r = run("movement_point_costs", inputs, &[]);
        let amounts = effect_amounts(&r, "value");
        (r.outcome.code.clone(), r.outcome.value, amounts)
    }
    // L522: Reinforcements never pay the MP cost for the first hex entered on the map.
    assert_eq!(
        mp(&[("activity", "reinforcement_entry")]),
        ("first_hex_free".to_string(), Some(0), vec![0]),
        "L522: the first hex is free"
    );
    // L522: the second Force entering at the same hex has paid one MP on a Primary road…
    assert_eq!(
        mp(&[
            ("activity", "reinforcement_entry"),
            ("second_reinforcement_force", "true"),
            ("primary_road", "true"),
        ]),
        (
            "second_reinforcement_primary_road".to_string(),
            Some(1),
            vec![1]
        ),
        "L522: one full MP on a Primary road"
    );
    // …or two full MPs otherwise.
    assert_eq!(
        mp(&[
            ("activity", "reinforcement_entry"),
            ("second_reinforcement_force", "true"),
        ]),
        (
            "second_reinforcement_elsewhere".to_string(),
            Some(2),
            vec![2]
        ),
        "L522: two full MPs"
    );
    // L647: 1 additional MP to exit a Fortified City hex the move started in.
    assert_eq!(
        mp(&[("activity", "exit_fortified_city")]),
        ("exit_fortified_city".to_string(), Some(1), vec![1]),
        "L647: 1 additional MP"
    );
    // L796: two additional MPs remove the Disrupted marker.
    let r = run(
        "movement_point_costs",
        &[("activity", "remove_disruption")],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("remove_disruption", Some(2)),
        "L796: 2 MP"
    );
    assert_eq!(effect_amounts(&r, "value"), vec![2]);
    assert!(notes(&r, "D.4"), "L796: removed anyway in Segment D.4");
    // What the Force does is not assumed.
    assert_eq!(
        missing_inputs(try_run("movement_point_costs", &[], &[], None)),
        vec!["activity".to_string()]
    );
}

#[test]
fn attack_from_march_costs_one_more_mp_l704_l712() {
    // L712: a successful Attack from March vacating the hex costs 1 MP besides the cost to enter it.
    let r = run(
        "attack_from_march_cost",
        &[("order", "attack"), ("mp_left", "3"), ("enter_cost", "2")],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("one_more_mp", Some(1)),
        "L712: 1 additional MP"
    );
    assert_eq!(
        effect_amounts(&r, "value"),
        vec![1, 3],
        "L712: 1 MP, so 2 + 1 = 3 to enter the vacated hex"
    );
    assert_eq!(derived_int(&r, "mp_needed"), 3, "L712: enemy hex + 1");
    // L712: not if the attacked Force Retreated before Combat.
    let r = run(
        "attack_from_march_cost",
        &[
            ("order", "attack"),
            ("mp_left", "3"),
            ("enter_cost", "2"),
            ("retreated_before_combat", "true"),
        ],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("no_extra_mp", Some(0)),
        "L712: only if the attacked Force does not Retreat before Combat"
    );
}

#[test]
fn attack_from_march_is_refused_where_the_text_forbids_it_l704_l712() {
    // L712 Note: not without enough MPs to enter the enemy hex + 1.
    let r = run(
        "attack_from_march_cost",
        &[("order", "attack"), ("mp_left", "2"), ("enter_cost", "2")],
        &[],
    );
    assert_eq!(r.outcome.code, "not_allowed", "L712: 2 MPs < 2 + 1");
    assert!(notes(&r, "enter the enemy hex + 1"));
    // L704: only with an Attack Order.
    let r = run(
        "attack_from_march_cost",
        &[
            ("order", "manoeuvre"),
            ("mp_left", "5"),
            ("enter_cost", "1"),
        ],
        &[],
    );
    assert_eq!(r.outcome.code, "not_allowed", "L704: an Attack Order");
    assert!(notes(&r, "Attack Order"));
    // L704: never against a Force in a Fortified City or across a ferried Primary River hexside.
    for flag in ["defender_in_fortified_city", "across_ferried_primary_river"] {
        let r = run(
            "attack_from_march_cost",
            &[
                ("order", "attack"),
                ("mp_left", "5"),
                ("enter_cost", "1"),
                (flag, "true"),
            ],
            &[],
        );
        assert_eq!(r.outcome.code, "not_allowed", "L704: {flag}");
        assert!(effect_amounts(&r, "value").is_empty());
    }
    assert_eq!(
        missing_inputs(try_run(
            "attack_from_march_cost",
            &[("order", "attack")],
            &[],
            None
        )),
        vec!["mp_left".to_string(), "enter_cost".to_string()]
    );
}

#[test]
fn engaged_sps_at_most_twice_the_engaging_sps_l1148() {
    // L1148: the Engaged Corps' undemoralised SPs must not be greater than twice the Engaging Corps'.
    let r = run(
        "engagement_limit",
        &[("engaging_sp", "5"), ("engaged_sp", "10")],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("allowed", Some(10)),
        "L1148: 10 is not greater than 2 × 5"
    );
    assert_eq!(derived_int(&r, "max_engaged_sp"), 10);
    assert_eq!(effect_amounts(&r, "value"), vec![10]);
    let r = run(
        "engagement_limit",
        &[("engaging_sp", "5"), ("engaged_sp", "11")],
        &[],
    );
    assert_eq!(r.outcome.code, "not_allowed", "L1148: 11 > 2 × 5");
    assert!(notes(&r, "more than twice"));
    // L1148: an Engaged Corps may not Engage other Corps.
    let r = run(
        "engagement_limit",
        &[
            ("engaging_sp", "5"),
            ("engaged_sp", "3"),
            ("engaging_corps_is_engaged", "true"),
        ],
        &[],
    );
    assert_eq!(r.outcome.code, "not_allowed", "L1148: already Engaged");
    assert!(notes(&r, "An Engaged Corps may not Engage"));
    assert!(!notes(&r, "more than twice"));
    assert_eq!(
        missing_inputs(try_run("engagement_limit", &[], &[], None)),
        vec!["engaging_sp".to_string(), "engaged_sp".to_string()]
    );
}

/// The new look-ups are offered where the text puts them: MP costs in the activated Force's
/// actions (C.2.b), the Engagement limit at each fight's Engagement declarations (Steps 6-a, 7-a).
#[test]
fn movement_costs_and_the_engagement_limit_are_in_the_sequence_of_play() {
    let steps = umpire_core::game::sequence::leaf_steps(ailsh());
    let procedures_of = |id: &str| {
        steps
            .iter()
            .find(|s| s.id == id)
            .unwrap_or_else(|| panic!("leaf step {id}"))
            .procedures
            .clone()
    };
    let act = procedures_of("c2b_activate");
    for p in [
        "movement_point_costs",
        "earthworks_cost",
        "attack_from_march_cost",
    ] {
        assert!(act.contains(&p.to_string()), "{p} in C.2.b: {act:?}");
    }
    for step in ["step_6a", "step_7a"] {
        assert!(
            procedures_of(step).contains(&"engagement_limit".to_string()),
            "engagement_limit in {step}"
        );
    }
}

#[test]
fn administrative_march_and_activation_phase_discipline_l653_l753() {
    // L653, L655: the MA after the activation penalty, 1 MP to begin, the rest doubled.
    let r = run(
        "activation_single",
        &[("order", "manoeuvre"), ("initiative", "3"), ("ma", "5")],
        &["4"],
    );
    explains(
        &r,
        "Administrative March declared at the start (1 MP to begin, the rest doubled, roads only) = 6",
    );
    // L753: an Attack from March is fought in the Activation Phase: the Reliability Class, as written.
    let r = run_chart(
        "discipline_check",
        &[
            ("reason", "attack_from_march"),
            ("troop_quality", "3"),
            ("reliability", "V"),
        ],
        &["3"],
        "F",
    );
    assert_eq!(
        derived(&r, "discipline_column"),
        Value::Text("V".into()),
        "L753: Activation Phase → Reliability Class"
    );
    let rs = with_ruling("activation_phase_combat_discipline", "troop_quality");
    let r = try_run_in(
        &rs,
        "discipline_check",
        &[
            ("reason", "attack_from_march"),
            ("troop_quality", "3"),
            ("reliability", "V"),
        ],
        &["3"],
        Some("F"),
    )
    .expect("chart");
    assert_eq!(
        derived(&r, "discipline_column"),
        Value::Text("3".into()),
        "ruling: Troop Quality"
    );
}

#[test]
fn ex15_force_quality_calculator_l1260() {
    // L1260: 4 SPs Q3, 2 SPs Q2, 5 SPs Q1: the 4 Q3 SPs are downgraded, 6 SPs at Q2 → the Force has Q=2.
    let r = run(
        "force_quality",
        &[("q3_sp", "4"), ("q2_sp", "2"), ("q1_sp", "5")],
        &[],
    );
    assert_eq!(r.outcome.value, Some(2), "L1260: the Force has Q=2");
    explains(&r, "SPs downgraded to form that group = 4");
    explains(
        &r,
        "SPs in the group that sets the Quality (downgraded included) = 6",
    );
    // L1262: reductions may take the Quality below 0.
    let r = run(
        "force_quality",
        &[("q1_sp", "3"), ("quality_reductions", "2")],
        &[],
    );
    assert_eq!(r.outcome.value, Some(-1), "L1262: may drop below 0");
}

#[test]
fn capitano_elimination_consequences_l324_l334() {
    // L334: a Primo Capitano eliminated: Stand (or Garrison) and Attack Finished.
    let r = run(
        "capitano_elimination",
        &[("primo_capitano", "true")],
        &["2"],
    );
    let statuses: Vec<&str> = r
        .outcome
        .effects
        .iter()
        .filter_map(|e| e.status.as_deref())
        .collect();
    assert_eq!(
        statuses,
        vec!["stand_or_garrison", "attack_finished"],
        "L334"
    );
    // A subordinate in a Major Battle: his units go only to Unemployed or new Minor Capitani (L328).
    let r = run("capitano_elimination", &[("major_battle", "true")], &["1"]);
    assert!(
        r.outcome.effects.iter().all(|e| e.status.is_none()),
        "L334 applies to the Primo Capitano only"
    );
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.rule.as_deref() == Some("3.6.1.1")),
        "3.6.1.1: Major Battle constraints"
    );
    assert_eq!(
        run(
            "capitano_elimination",
            &[("primo_capitano", "true")],
            &["3"]
        )
        .outcome
        .effects
        .len(),
        0,
        "L324: survives on 3+"
    );
}

// ── Scenario special rules with dice, placed in the Sequence of Play ─────────────────────────

/// A game of a shipped ailsh scenario (its file under scenarios/ailsh/).
fn scenario_game(file: &str, name: &str) -> umpire_core::game::Game {
    let root = crate::root();
    let path = root.join("scenarios/ailsh").join(file);
    let source = umpire_core::rules::SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario file"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-ailsh-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    static LIB: std::sync::OnceLock<umpire_core::rules::Library> = std::sync::OnceLock::new();
    let lib = LIB.get_or_init(umpire_core::rules::Library::shipped);
    umpire_core::game::Game::create(&dir.join("game.umpire"), &source, lib, Some(5))
        .expect("create")
}

/// The pending items of `game` with its cursor at turn `turn` (a calendar label) and leaf step
/// `step`.
fn pending_at(
    game: &umpire_core::game::Game,
    turn: &str,
    step: &str,
) -> Vec<umpire_core::game::sequence::Pending> {
    let mut state = game.state().clone();
    state.cursor.turn = game
        .scenario()
        .turn_of(turn)
        .unwrap_or_else(|| panic!("no turn {turn}"));
    state.cursor.step = game
        .steps()
        .iter()
        .position(|s| s.id == step)
        .unwrap_or_else(|| panic!("no leaf step {step}"));
    umpire_core::game::sequence::pending(game.ruleset(), game.scenario(), &state)
}

/// The schedule `schedule` puts an item naming `procedure` at `step` on `due` turns (mandatory
/// as the schedule says),
/// and nothing at `step` on `not_due` turns nor at `elsewhere` on a due turn.
#[track_caller]
fn scheduled_at(
    game: &umpire_core::game::Game,
    schedule: &str,
    procedure: &str,
    step: &str,
    due: &[&str],
    not_due: &[&str],
    elsewhere: &str,
) {
    let key = |turn: &str| {
        format!(
            "schedule:{schedule}:{}",
            game.scenario().turn_of(turn).unwrap()
        )
    };
    for turn in due {
        let items = pending_at(game, turn, step);
        let item = items
            .iter()
            .find(|p| p.key == key(turn))
            .unwrap_or_else(|| panic!("{schedule} not pending at {step} on {turn}: {items:?}"));
        assert_eq!(item.procedure.as_deref(), Some(procedure));
        let declared = game
            .scenario()
            .schedules
            .iter()
            .find(|s| s.id == schedule)
            .expect("the schedule")
            .mandatory;
        assert_eq!(item.mandatory, declared, "{item:?}");
        assert!(!item.done, "{item:?}");
        assert!(
            !pending_at(game, turn, elsewhere)
                .iter()
                .any(|p| p.key == key(turn)),
            "{schedule} also at {elsewhere} on {turn}"
        );
    }
    for turn in not_due {
        assert!(
            !pending_at(game, turn, step)
                .iter()
                .any(|p| p.key.starts_with(&format!("schedule:{schedule}:"))),
            "{schedule} pending on {turn}"
        );
    }
}

/// A (name, value) pair: an input, or an outcome code and its odds.
type Pair<'a> = (&'a str, &'a str);

fn fractions(o: &Odds) -> Vec<(String, String)> {
    o.outcomes
        .iter()
        .map(|x| (x.code.clone(), x.fraction.to_string()))
        .collect()
}

#[test]
fn s3_swiss_reinforcements_l2241() {
    // August, 5: +0, so only a natural 5 brings them; a natural 6 is always ignored.
    let r = run(
        "swiss_reinforcements",
        &[("turns_after_august_5", "0")],
        &["5"],
    );
    assert_eq!(r.outcome.code, "reinforcements", "L2241: 5 or more");
    assert_eq!(
        run(
            "swiss_reinforcements",
            &[("turns_after_august_5", "0")],
            &["4"]
        )
        .outcome
        .code,
        "nothing",
        "L2241: less than 5"
    );
    assert_eq!(
        run(
            "swiss_reinforcements",
            &[("turns_after_august_5", "3")],
            &["6"]
        )
        .outcome
        .code,
        "ignored",
        "L2241: a natural 6 is always ignored"
    );
    // September, 1 is three turns after August, 5: a natural 2 + 3 = 5.
    let r = run(
        "swiss_reinforcements",
        &[("turns_after_august_5", "3")],
        &["2"],
    );
    assert_eq!(r.outcome.code, "reinforcements");
    explains(&r, "Modified roll: 2 + 3 = 5");
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.text.as_deref().is_some_and(|t| t.contains("Roist"))),
        "{:?}",
        r.outcome.effects
    );
    // Odds by hand: natural 6 → ignored (1/6); of 1–5, reinforcements when n ≥ 5 − m.
    let expect: [(&str, &[(&str, &str)]); 5] = [
        (
            "0",
            &[
                ("nothing", "2/3"),
                ("reinforcements", "1/6"),
                ("ignored", "1/6"),
            ],
        ),
        (
            "1",
            &[
                ("nothing", "1/2"),
                ("reinforcements", "1/3"),
                ("ignored", "1/6"),
            ],
        ),
        (
            "2",
            &[
                ("nothing", "1/3"),
                ("reinforcements", "1/2"),
                ("ignored", "1/6"),
            ],
        ),
        (
            "3",
            &[
                ("nothing", "1/6"),
                ("reinforcements", "2/3"),
                ("ignored", "1/6"),
            ],
        ),
        ("4", &[("reinforcements", "5/6"), ("ignored", "1/6")]),
    ];
    for (m, want) in expect {
        let o = odds_of("swiss_reinforcements", &[("turns_after_august_5", m)]);
        assert!(o.complete);
        let mut got = fractions(&o);
        got.sort();
        let mut want: Vec<(String, String)> = want
            .iter()
            .map(|(c, f)| (c.to_string(), f.to_string()))
            .collect();
        want.sort();
        assert_eq!(got, want, "{m} turns after August, 5");
    }
    // After the Anti-French Command Phase (the last step of the Command Phase), from August, 5.
    let game = scenario_game("s3_francois_first_time_1515.yaml", "s3-reinforcements");
    scheduled_at(
        &game,
        "swiss_reinforcements_roll",
        "swiss_reinforcements",
        "b2d_issue_orders",
        &["August, 5", "September, 1", "October, 3"],
        &["August, 4"],
        "c1_reinforcements",
    );
}

#[test]
fn s3_swiss_alignment_l2257_l2272() {
    let none = [("french_aps_spent", "0"), ("anti_french_aps_spent", "0")];
    for (die, status) in [
        ("1", "anti_french"),
        ("2", "anti_french"),
        ("3", "neutral"),
        ("4", "neutral"),
        ("5", "pro_french"),
        ("6", "pro_french"),
    ] {
        assert_eq!(
            run("swiss_alignment", &none, &[die]).outcome.code,
            status,
            "L2270–2272: die {die}"
        );
    }
    // 5 French APs (+2) on a 3: 5, Pro-French; the Anti-French 5 APs (−2) and Schiner (−1) on a
    // 5: 2, Anti-French.
    let r = run(
        "swiss_alignment",
        &[("french_aps_spent", "5"), ("anti_french_aps_spent", "0")],
        &["3"],
    );
    assert_eq!(r.outcome.code, "pro_french", "L2260");
    let r = run(
        "swiss_alignment",
        &[
            ("french_aps_spent", "0"),
            ("anti_french_aps_spent", "5"),
            ("schiner_with_40_swiss_infantry", "true"),
        ],
        &["5"],
    );
    assert_eq!(r.outcome.code, "anti_french", "L2262–2263");
    explains(&r, "Modified roll: 5 − 3 = 2");
    // Both spend 2: +1 −1 = 0.
    assert_eq!(
        run(
            "swiss_alignment",
            &[("french_aps_spent", "2"), ("anti_french_aps_spent", "2")],
            &["2"],
        )
        .outcome
        .code,
        "anti_french"
    );
    // The APs are declared every time: no value is assumed.
    assert!(try_run("swiss_alignment", &[], &["3"], None).is_err());
    // Odds by hand (d6 + m: ≤2 Anti-French, 3–4 Neutral, 5+ Pro-French).
    let cases: [(&[Pair], &[Pair]); 5] = [
        (
            &none,
            &[
                ("anti_french", "1/3"),
                ("neutral", "1/3"),
                ("pro_french", "1/3"),
            ],
        ),
        (
            &[("french_aps_spent", "2"), ("anti_french_aps_spent", "0")],
            &[
                ("anti_french", "1/6"),
                ("neutral", "1/3"),
                ("pro_french", "1/2"),
            ],
        ),
        (
            &[("french_aps_spent", "5"), ("anti_french_aps_spent", "0")],
            &[("neutral", "1/3"), ("pro_french", "2/3")],
        ),
        (
            &[("french_aps_spent", "0"), ("anti_french_aps_spent", "2")],
            &[
                ("anti_french", "1/2"),
                ("neutral", "1/3"),
                ("pro_french", "1/6"),
            ],
        ),
        (
            &[
                ("french_aps_spent", "0"),
                ("anti_french_aps_spent", "5"),
                ("schiner_with_40_swiss_infantry", "true"),
            ],
            &[("anti_french", "5/6"), ("neutral", "1/6")],
        ),
    ];
    for (inputs, want) in cases {
        let o = odds_of("swiss_alignment", inputs);
        assert!(o.complete, "L2269–2272: printed in full");
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(c, f)| (c.to_string(), f.to_string()))
            .collect();
        assert_eq!(fractions(&o), want, "{inputs:?}");
    }
    // At the end of the Weather Phase of each turn.
    let game = scenario_game("s3_francois_first_time_1515.yaml", "s3-alignment");
    scheduled_at(
        &game,
        "swiss_alignment_roll",
        "swiss_alignment",
        "phase_a_weather",
        &["August, 4", "September, 3", "October, 3"],
        &[],
        "b1a_receive_aps_remove_orders",
    );
}

#[test]
fn s4_venetian_automatic_retreat_l2500_l2502() {
    for (die, code) in [
        ("1", "retreat_order"),
        ("3", "retreat_order"),
        ("4", "normal_orders"),
        ("6", "normal_orders"),
    ] {
        assert_eq!(
            run("venetian_automatic_retreat", &[], &[die]).outcome.code,
            code,
            "L2500–2502: die {die}"
        );
    }
    // Odds by hand: 1–3 of 6 force the Retreat Order.
    let o = odds_of("venetian_automatic_retreat", &[]);
    assert!(o.complete);
    let mut got = fractions(&o);
    got.sort();
    assert_eq!(
        got,
        vec![
            ("normal_orders".to_string(), "1/2".to_string()),
            ("retreat_order".to_string(), "1/2".to_string())
        ]
    );
    // When Orders are issued: the Issue Orders step of the Command Phase, every turn.
    let game = scenario_game("s4_french_lose_the_duchy_1522.yaml", "s4-venetian");
    scheduled_at(
        &game,
        "venetian_automatic_retreat_roll",
        "venetian_automatic_retreat",
        "b2d_issue_orders",
        &["March, 1", "April, 2", "May, 4"],
        &[],
        "phase_a_weather",
    );
}

fn sorted(o: &Odds) -> Vec<(String, String)> {
    let mut got = fractions(o);
    got.sort();
    got
}

fn pairs(want: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = want
        .iter()
        .map(|(c, f)| (c.to_string(), f.to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn s5_imperial_expedition_to_genova_l2694_l2703() {
    assert_eq!(
        run("genova_expedition", &[], &["4"]).outcome.code,
        "nothing",
        "L2694: 1, 2, 3 or 4"
    );
    let r = run("genova_expedition", &[], &["5"]);
    assert_eq!(r.outcome.code, "disembarkation", "L2694: 5 or 6");
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.kind == umpire_core::rules::EffectKind::FollowUp
                && e.procedure.as_deref() == Some("genova_expedition_force")),
        "two dice follow in the Activation Phase: {:?}",
        r.outcome.effects
    );
    assert_eq!(
        sorted(&odds_of("genova_expedition", &[])),
        pairs(&[("nothing", "2/3"), ("disembarkation", "1/3")])
    );
    for (dice, code) in [
        (["4", "5"], "no_reinforcements"),
        (["6", "3"], "no_reinforcements"),
        (["4", "6"], "three_turns_after"),
        (["5", "6"], "two_turns_after"),
        (["6", "6"], "two_turns_after"),
    ] {
        assert_eq!(
            run("genova_expedition_force", &[], &dice).outcome.code,
            code,
            "L2697–2703: {dice:?}"
        );
    }
    // 2–9: 30 of 36; 10: 3 of 36; 11–12: 2 + 1 of 36.
    let o = odds_of("genova_expedition_force", &[]);
    assert!(o.complete, "L2696–2703: printed in full");
    assert_eq!(
        sorted(&o),
        pairs(&[
            ("no_reinforcements", "5/6"),
            ("three_turns_after", "1/12"),
            ("two_turns_after", "1/12")
        ])
    );
    // At the end of the Weather Phase of AP turns, February, 3 excluded.
    let game = scenario_game("s5_struggle_for_the_duchy_1524.yaml", "s5-genova");
    scheduled_at(
        &game,
        "genova_expedition_roll",
        "genova_expedition",
        "phase_a_weather",
        &["November, 1", "December, 3", "January, 5"],
        &["October, 6", "November, 2", "February, 3"],
        "b1a_receive_aps_remove_orders",
    );
}

#[test]
fn s5_special_imperial_reinforcements_aps_l2709() {
    let r = run("tirolo_aps", &[("command_path", "true")], &["4"]);
    assert_eq!(r.outcome.code, "aps_received");
    assert_eq!(
        effect_amounts(&r, "value"),
        vec![4],
        "L2709: APs equal to a die roll"
    );
    let r = run("tirolo_aps", &[], &["4"]);
    assert_eq!(
        r.outcome.code, "no_aps",
        "L2709: only with a valid Command Path"
    );
    assert!(effect_amounts(&r, "value").is_empty());
    let o = odds_of("tirolo_aps", &[("command_path", "true")]);
    assert_eq!(o.outcomes.len(), 6, "{:?}", o.outcomes);
    for (k, x) in o.outcomes.iter().enumerate() {
        assert_eq!(
            (x.value, x.fraction.to_string()),
            (Some(k as i64 + 1), "1/6".into())
        );
    }
    assert_eq!(
        sorted(&odds_of("tirolo_aps", &[])),
        pairs(&[("no_aps", "1/1")])
    );
    // On re-entering the map: two turns after an exit on December, 6 at the earliest.
    let game = scenario_game("s5_struggle_for_the_duchy_1524.yaml", "s5-tirolo");
    scheduled_at(
        &game,
        "tirolo_aps_roll",
        "tirolo_aps",
        "c1_reinforcements",
        &["January, 2", "February, 6"],
        &["December, 6", "January, 1"],
        "phase_a_weather",
    );
}

#[test]
fn s5_pestilence_in_milano_l2725() {
    assert_eq!(
        run("pestilence_in_milano", &[], &["4"]).outcome.code,
        "pestilence",
        "L2725: 1, 2, 3 or 4"
    );
    assert_eq!(
        run("pestilence_in_milano", &[], &["5"]).outcome.code,
        "no_pestilence"
    );
    assert_eq!(
        sorted(&odds_of("pestilence_in_milano", &[])),
        pairs(&[("pestilence", "2/3"), ("no_pestilence", "1/3")])
    );
    // A Force starting in Milano: at the start; the first Force entering: when Forces move.
    let game = scenario_game("s5_struggle_for_the_duchy_1524.yaml", "s5-pestilence");
    scheduled_at(
        &game,
        "pestilence_at_start",
        "pestilence_in_milano",
        "phase_a_weather",
        &["October, 6"],
        &["November, 1"],
        "c2b_activate",
    );
    scheduled_at(
        &game,
        "pestilence_first_entry",
        "pestilence_in_milano",
        "c2b_activate",
        &["October, 6", "January, 1 (1525)", "February, 6"],
        &[],
        "phase_a_weather",
    );
}

/// A roll due only when something happens (the Venetian Force given an Order, a Capitano back
/// from Tirolo, a first entry into Milano) is offered but does not hold up Next.
#[test]
fn conditional_scenario_rolls_are_offered_not_mandatory() {
    for (file, schedule) in [
        (
            "s4_french_lose_the_duchy_1522.yaml",
            "venetian_automatic_retreat_roll",
        ),
        ("s5_struggle_for_the_duchy_1524.yaml", "tirolo_aps_roll"),
        (
            "s5_struggle_for_the_duchy_1524.yaml",
            "pestilence_first_entry",
        ),
    ] {
        let game = scenario_game(file, &format!("optional-{schedule}"));
        let s = game
            .scenario()
            .schedules
            .iter()
            .find(|s| s.id == schedule)
            .expect("schedule");
        assert!(!s.mandatory, "{schedule}");
    }
    let game = scenario_game("s5_struggle_for_the_duchy_1524.yaml", "mandatory-genova");
    assert!(
        game.scenario()
            .schedules
            .iter()
            .find(|s| s.id == "genova_expedition_roll")
            .expect("schedule")
            .mandatory,
        "the Genova roll is made every AP turn"
    );
}

/// The Skirmish's whole-Force SPs (11.5) are asked for in a Skirmish only: a Storm resolves
/// without them, a Skirmish is refused until both are given, and a ruleset's `needed_when` may
/// read only the inputs above it.
#[test]
fn skirmish_force_sps_are_needed_in_a_skirmish_only() {
    let ailsh = shipped("ailsh");
    let assault = ailsh.procedure("assault").expect("assault");
    let given = |battle: &str| {
        vec![
            ("battle".to_string(), battle.to_string()),
            ("weather".to_string(), "fair".to_string()),
            ("odds_drm".to_string(), "0".to_string()),
        ]
    };
    let typed = |pairs: Vec<(String, String)>| {
        umpire_core::resolve::parse_inputs(assault, &pairs).expect("inputs parse")
    };
    let storm = umpire_core::resolve::prepare(ailsh, assault, &typed(given("storm")));
    assert!(storm.is_ok(), "{:?}", storm.err());
    let storm = storm.unwrap();
    assert!(storm.scope().get("attacker_force_sp").is_none());
    assert!(
        !storm
            .explanation()
            .iter()
            .any(|l| l.contains("Larger Force")),
        "{:?}",
        storm.explanation()
    );
    match umpire_core::resolve::prepare(ailsh, assault, &typed(given("skirmish"))) {
        Err(umpire_core::resolve::ResolveError::MissingInputs { missing, .. }) => {
            let names: Vec<&str> = missing.iter().map(|m| m.name.as_str()).collect();
            assert_eq!(names, ["attacker_force_sp", "defender_force_sp"]);
        }
        other => panic!("a Skirmish needs the Force SPs: {:?}", other.err()),
    }
    let mut skirmish = given("skirmish");
    skirmish.push(("attacker_force_sp".into(), "12".into()));
    skirmish.push(("defender_force_sp".into(), "9".into()));
    let prepared = umpire_core::resolve::prepare(ailsh, assault, &typed(skirmish))
        .expect("a Skirmish with SPs");
    assert!(
        prepared
            .explanation()
            .iter()
            .any(|l| l.contains("Larger Force (ties: the attacker) = Attacker")),
        "{:?}",
        prepared.explanation()
    );
}

/// Scenario 5, special rule 3 (L2724): with the Expedition committed and a French victory or a
/// draw at the end, one die: 5 or 6 raises the level (a draw to a French Standard Victory, a
/// Standard to a Strategic Victory), 1 to 4 leaves it; the note says the new level.
#[test]
fn albany_victory_die_raises_the_level_on_5_or_6_l2724() {
    let r = run("albany_victory_die", &[("level", "draw")], &["5"]);
    assert_eq!(r.outcome.code, "raised");
    assert!(
        notes(&r, "The draw becomes a French Standard Victory"),
        "{:?}",
        r.outcome.effects
    );
    assert!(!notes(&r, "Strategic"), "only the level that was");
    let r = run(
        "albany_victory_die",
        &[("level", "french_standard_victory")],
        &["6"],
    );
    assert!(notes(
        &r,
        "The French Standard Victory becomes a French Strategic Victory"
    ));
    for face in ["1", "4"] {
        let r = run("albany_victory_die", &[("level", "draw")], &[face]);
        assert_eq!(r.outcome.code, "unchanged", "{face}");
        assert!(r.outcome.effects.is_empty());
    }
}
