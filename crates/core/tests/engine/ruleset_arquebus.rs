//! Men of Iron Vol. IV "Arquebus" (seed 003): the manual's worked examples (digest A7) and the
//! derived test vectors, resolved with physical dice on the shipped ruleset. "L…" are lines of
//! seeds/003_d1258e844ae2dec0.txt (printed page N is line 10 + 2·(N − 1)).

use umpire_core::resolve::{Resolution, ResolveError, odds};
use umpire_core::rules::Ruleset;

use crate::common;
use common::{explains, inputs_for, run_in, shipped, try_run};

fn arquebus() -> &'static Ruleset {
    shipped("arquebus")
}

fn run(procedure: &str, inputs: &[(&str, &str)], faces: &[&str]) -> Resolution {
    run_in(arquebus(), procedure, inputs, faces)
}

fn with_ruling(id: &str, option: &str) -> Ruleset {
    arquebus()
        .with_rulings(&[(id.to_string(), option.to_string())])
        .expect("ruling exists")
}

#[track_caller]
fn expect_missing_cell(r: Result<Resolution, Box<ResolveError>>, table: &str) {
    match r {
        Err(e) => match *e {
            ResolveError::MissingCell { table: ref t, .. } => assert_eq!(t, table),
            other => panic!("expected a missing cell in {table}, got {other}"),
        },
        Ok(r) => panic!("expected a missing cell in {table}, got {}", r.outcome.code),
    }
}

// ── Loading and structure ───────────────────────────────────────────────────────────────

#[test]
fn ruleset_loads_with_its_procedures_and_tables() {
    let rs = arquebus();
    for p in [
        "loss_check",
        "loss_check_both",
        "flight_points",
        "continuation_battle",
        "continuation_army",
        "seizure",
        "leader_casualty_fire",
        "leader_casualty_shock",
        "artillery_disorder_check",
        "counter_charge_vs_charge",
        "counter_charge_vs_shock",
        "counter_charge_vs_fire",
        "missile_fire",
        "shock_resolution",
        "charge_resolution",
    ] {
        assert!(rs.procedure(p).is_some(), "no procedure {p}");
    }
    // Complete in the text vs. only referred to (PAC / Battle Book).
    assert!(rs.table("flight_points").expect("table").is_complete());
    for t in [
        "fire_range",
        "fire_results",
        "shock_crt",
        "charge_crt",
        "weapons_system_matrix",
        "terrain_chart",
        "seizure_counters",
    ] {
        assert!(
            !rs.table(t)
                .unwrap_or_else(|| panic!("no table {t}"))
                .is_complete(),
            "{t} should have '?' cells"
        );
    }
    // The only Fire/Range cell in the text: Crossbow at 1 hex, +2 (11.3 example, L32).
    assert_eq!(
        rs.table("fire_range").unwrap().missing_cells().len(),
        10 * 9 - 1
    );
}

#[test]
fn sequence_of_play_follows_4_0() {
    let ids: Vec<&str> = arquebus()
        .sequence_of_play
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "activation_phase",
            "move_fire_phase",
            "shock_phase",
            "rally_phase",
            "continuation_phase"
        ]
    );
    let e = &arquebus().sequence_of_play[4];
    let steps: Vec<&str> = e.steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        steps,
        [
            "loss_checks",
            "choose_continuation",
            "seizure_attempt",
            "continuation_roll"
        ]
    );
    assert!(e.steps[0].mandatory);
}

#[test]
fn d10_reads_zero_to_nine() {
    // 2.3 (L14): "A 0 is a zero, not a ten."
    let r = run(
        "loss_check",
        &[("flight_points", "20"), ("flight_level", "20")],
        &["0"],
    );
    assert_eq!((r.natural, r.modified), (Some(0), Some(20)));
    assert_eq!(r.outcome.code, "play_continues");
    assert!(
        try_run(
            arquebus(),
            "loss_check",
            &[("flight_level", "20")],
            &["10"],
            None
        )
        .is_err()
    );
}

// ── 3.0 Victory: worked examples E1, E2 (L18) and derived vectors ─────────────────────────

#[test]
fn e1_retired_light_cavalry_eliminated_l18() {
    // Schedule reading (default): Light Cavalry 1 FP, Retired 1 FP → 0 more.
    let r = run(
        "flight_points",
        &[
            ("lost", "light_cavalry"),
            ("event", "retired_then_eliminated"),
        ],
        &[],
    );
    assert_eq!((r.outcome.code.as_str(), r.outcome.value), ("0", Some(0)));
    // The example's reading: "1 more FP is added to the track (2 − 1)".
    let rs = with_ruling("fp_retired_light_cavalry", "example");
    let r = run_in(
        &rs,
        "flight_points",
        &[
            ("lost", "light_cavalry"),
            ("event", "retired_then_eliminated"),
        ],
        &[],
    );
    assert_eq!((r.outcome.code.as_str(), r.outcome.value), ("1", Some(1)));
    assert_eq!(r.outcome.effects[0].amount, Some(1));
}

#[test]
fn e2_retired_longbow_eliminated_l18() {
    // "A Retired Longbow unit is Eliminated, 0 FP are added to the track (1 − 1)."
    let r = run(
        "flight_points",
        &[("lost", "longbow"), ("event", "retired_then_eliminated")],
        &[],
    );
    assert_eq!(r.outcome.value, Some(0));
}

#[test]
fn flight_point_schedule_l18() {
    for (lost, fp) in [
        ("overall_commander", 5),
        ("overall_commander_king", 10),
        ("pike", 5),
        ("men_at_arms", 3),
        ("crossbow", 2),
        ("named_battle_leader", 2),
        ("artillery", 1),
        ("skirmisher", 0),
    ] {
        let r = run(
            "flight_points",
            &[("event", "eliminated"), ("lost", lost)],
            &[],
        );
        assert_eq!(r.outcome.value, Some(fp), "{lost}");
    }
    let r = run(
        "flight_points",
        &[("lost", "sapper"), ("event", "retired")],
        &[],
    );
    assert_eq!(
        r.outcome.value,
        Some(1),
        "1 FP for each Retired unit regardless of type"
    );
}

#[test]
fn loss_check_derived_l18() {
    // Derived: FP 20, Flight Level 25. DR 5 → 25, not above: play continues. DR 6 → 26: loses.
    let inputs = [("flight_points", "20"), ("flight_level", "25")];
    assert_eq!(
        run("loss_check", &inputs, &["5"]).outcome.code,
        "play_continues"
    );
    let r = run("loss_check", &inputs, &["6"]);
    assert_eq!(r.outcome.code, "loses");
    explains(
        &r,
        "Test: 26 against 25 or less → DR + FP above the Flight Level — this player loses (a draw if the other player also exceeds)",
    );
    // Both exceeding on the same check is a draw.
    let both = [
        ("player_1_flight_points", "20"),
        ("player_1_flight_level", "25"),
        ("player_2_flight_points", "10"),
        ("player_2_flight_level", "12"),
    ];
    assert_eq!(
        run("loss_check_both", &both, &["6", "3"]).outcome.code,
        "draw"
    );
    assert_eq!(
        run("loss_check_both", &both, &["6", "2"]).outcome.code,
        "player_1_loses"
    );
    assert_eq!(
        run("loss_check_both", &both, &["5", "3"]).outcome.code,
        "player_2_loses"
    );
    assert_eq!(
        run("loss_check_both", &both, &["5", "2"]).outcome.code,
        "play_continues"
    );
}

// ── 6.2 Continuity: worked example E4 (Fornovo, L24) and derived vectors ──────────────────

#[test]
fn e4_fornovo_army_then_battle_continuations_l24() {
    // Ricardo succeeds on an Army Activation Continuation with Gonzaga's Effectiveness −2†
    // (derived: DR 4 − 2 = 2 succeeds, DR 5 − 2 = 3 fails).
    let army = [("oc_effectiveness", "-2")];
    let r = run("continuation_army", &army, &["4"]);
    assert_eq!(
        (r.modified, r.outcome.code.as_str()),
        (Some(2), "army_activated")
    );
    assert_eq!(
        run("continuation_army", &army, &["5"]).outcome.code,
        "continuation_fails"
    );

    // (a) Next, Gonzaga's own Battle: +1 for successive Continuations; Gonzaga's Effectiveness is
    // not added because the chosen leader is the OC.
    let a = [
        ("activation_rating", "3"),
        ("within_oc_range", "true"),
        ("leader_is_oc", "true"),
        ("oc_effectiveness", "-2"),
        ("consecutive_successes", "1"),
    ];
    let r = run("continuation_battle", &a, &["3"]);
    assert_eq!(r.modified, Some(4));
    assert_eq!(r.modifiers.len(), 1);
    assert_eq!(
        (r.modifiers[0].name.as_str(), r.modifiers[0].value),
        ("Successive Continuations", Some(1))
    );
    assert_eq!(r.outcome.code, "continuation_fails");

    // (b) Caiozzo, within Gonzaga's Command Range: net −1 (−2 + 1).
    let b = [
        ("activation_rating", "2"),
        ("within_oc_range", "true"),
        ("oc_effectiveness", "-2"),
        ("consecutive_successes", "1"),
    ];
    let r = run("continuation_battle", &b, &["3"]);
    assert_eq!(r.modified, Some(2));
    assert_eq!(r.outcome.code, "battle_activated");
    explains(&r, "Modifier: OC Effectiveness −2 to the roll");

    // (c) If that also succeeds, the next Continuation DR gets +2.
    let c = [
        ("activation_rating", "2"),
        ("oc_effectiveness", "-2"),
        ("consecutive_successes", "2"),
    ];
    let r = run("continuation_battle", &c, &["0"]);
    assert_eq!(r.modified, Some(2));
    explains(&r, "Modifier: Successive Continuations +2 to the roll");
}

#[test]
fn battle_continuation_derived_l24() {
    // AR 3, no DRM: DR 3 succeeds ("the same as or less than"); with +1, DR 3 → 4 fails.
    assert_eq!(
        run(
            "continuation_battle",
            &[("oc_effectiveness", "0"), ("activation_rating", "3")],
            &["3"]
        )
        .outcome
        .code,
        "battle_activated"
    );
    assert_eq!(
        run(
            "continuation_battle",
            &[
                ("oc_effectiveness", "0"),
                ("activation_rating", "3"),
                ("consecutive_successes", "1")
            ],
            &["3"]
        )
        .outcome
        .code,
        "continuation_fails"
    );
    // Exact odds: AR 3 with no DRM succeeds on 0–3, 4 chances in 10.
    let p = arquebus().procedure("continuation_battle").unwrap();
    let o = odds(
        arquebus(),
        p,
        &inputs_for(
            arquebus(),
            "continuation_battle",
            &[("oc_effectiveness", "0"), ("activation_rating", "3")],
        ),
    )
    .expect("odds");
    let pass = o
        .outcomes
        .iter()
        .find(|x| x.code == "battle_activated")
        .expect("pass");
    assert_eq!(pass.fraction.to_string(), "2/5");
}

#[test]
fn one_battle_penalty_ruling_l24() {
    let inputs = [
        ("activation_rating", "3"),
        ("oc_effectiveness", "0"),
        ("only_one_battle", "true"),
        ("one_battle_attempts", "1"),
    ];
    assert_eq!(
        run("continuation_battle", &inputs, &["3"]).modified,
        Some(4)
    );
    let rs = with_ruling("one_battle_penalty", "after_first_attempt");
    assert_eq!(
        run_in(&rs, "continuation_battle", &inputs, &["3"]).modified,
        Some(3)
    );
}

// ── 6.3 Seizure: worked example E6 (Pavia, L24); E5 data (Cerignola) ─────────────────────

#[test]
fn e6_pavia_seizure_l24() {
    // Counter range 0–5; the Imperialist rolls 6: no Seizure, the French get a Free Activation.
    let r = run("seizure", &[("range_high", "5")], &["6"]);
    assert_eq!(r.outcome.code, "not_seized");
    assert!(r.modifiers.is_empty(), "There are no DRMs for this roll");
    // "If the Imperialist player had rolled a 5, he would have Seized Continuity."
    assert_eq!(
        run("seizure", &[("range_high", "5")], &["5"]).outcome.code,
        "seized"
    );
}

#[test]
fn e5_seizure_counter_mix_l24() {
    // E5 (Cerignola: Gonsalvo draws 2, Nemours 1) is scenario data; the counter mix it draws from
    // is the seizure_counters table: 4 Opportunity, Negation, Battle Cry, Unsteady Troops, Into the Breach.
    let t = arquebus().table("seizure_counters").unwrap();
    assert_eq!(t.rows.len(), 8);
    assert_eq!(
        t.missing_cells().len(),
        3,
        "three Opportunity ranges are not in the text"
    );
}

// ── 5.4 Leader casualties (L22): derived vectors ─────────────────────────────────────────

#[test]
fn leader_casualties_derived_l22() {
    assert_eq!(
        run("leader_casualty_fire", &[], &["7"]).outcome.code,
        "no_effect"
    );
    assert_eq!(
        run("leader_casualty_fire", &[], &["8"]).outcome.code,
        "killed"
    );
    assert_eq!(
        run("leader_casualty_fire", &[], &["9"]).outcome.code,
        "killed"
    );
    assert_eq!(
        run("leader_casualty_shock", &[], &["6"]).outcome.code,
        "survives"
    );
    assert_eq!(
        run("leader_casualty_shock", &[], &["7"]).outcome.code,
        "killed"
    );
}

// ── 14.2 Artillery Disorder from fire (L42): derived vectors ─────────────────────────────

#[test]
fn artillery_disorder_check_derived_l42() {
    let r = run("artillery_disorder_check", &[], &["4"]);
    assert_eq!(r.outcome.code, "eliminated");
    assert_eq!(r.outcome.effects[0].kind.id(), "eliminate");
    assert_eq!(
        run("artillery_disorder_check", &[], &["5"]).outcome.code,
        "no_effect"
    );
}

// ── 13.6–13.9 Counter-Charge: worked example E12 (L40) and derived vectors ───────────────

#[test]
fn e12_counter_charge_against_fire_rolls_8_l40() {
    let r = run("counter_charge_vs_fire", &[("defense_drm", "0")], &["8"]);
    assert_eq!(r.outcome.code, "fails");
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.status.as_deref() == Some("counter_charge_used")),
        "marked Counter-Charge Used"
    );
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.procedure.as_deref() == Some("missile_fire")),
        "the fire is then resolved"
    );
    assert_eq!(
        run("counter_charge_vs_fire", &[("defense_drm", "0")], &["5"])
            .outcome
            .code,
        "counter_charged"
    );
}

#[test]
fn counter_charge_thresholds_derived_l40() {
    // vs Charge, Defense DRM 0, facing change needed: DR 3 + 1 = 4 succeeds; 4 + 1 = 5 fails.
    let facing = [("defense_drm", "0"), ("must_change_facing", "true")];
    assert_eq!(
        run("counter_charge_vs_charge", &facing, &["3"])
            .outcome
            .code,
        "counter_charged"
    );
    assert_eq!(
        run("counter_charge_vs_charge", &facing, &["4"])
            .outcome
            .code,
        "fails"
    );
    // vs Shock: 5 or less; the Defense DRM is added.
    assert_eq!(
        run("counter_charge_vs_shock", &[("defense_drm", "1")], &["4"])
            .outcome
            .code,
        "counter_charged"
    );
    assert_eq!(
        run("counter_charge_vs_shock", &[("defense_drm", "1")], &["5"])
            .outcome
            .code,
        "fails"
    );
}

// ── 11.3 Missile Fire: worked examples E7 (L30), E8 (L32) ────────────────────────────────

#[test]
fn e8_crossbow_at_men_at_arms_l32() {
    // Crossbow at 1 hex: Fire/Range DRM +2; counter Missile Fire DRM 0; target Men-at-Arms −1†:
    // accumulated DRM +1 (the total is lost in the extraction).
    let inputs = [
        ("missile_type", "CB"),
        ("range", "1"),
        ("range_drm", "0"),
        ("missile_fire_drm", "0"),
        ("target_men_at_arms", "true"),
        ("target_class", "mounted"),
    ];
    let r = try_run(arquebus(), "missile_fire", &inputs, &["4"], None);
    expect_missing_cell(r, "fire_results");
    let r = try_run(
        arquebus(),
        "missile_fire",
        &inputs,
        &["4"],
        Some("disordered"),
    )
    .expect("chart result");
    assert_eq!(r.modified, Some(5));
    explains(
        &r,
        "Modifier: Fire/Range DRM +2 to the roll (Fire/Range DRM Chart: CB × 1 = 2)",
    );
    explains(&r, "Target is Men-at-Arms (−1†) −1 to the roll");
    assert!(r.outcome.from_physical_chart);
    assert_eq!(r.outcome.code, "disordered");
    assert_eq!(r.outcome.effects[0].status.as_deref(), Some("disordered"));
    // The other sign reading.
    let rs = with_ruling("men_at_arms_fire_drm", "plus_one");
    let r =
        try_run(&rs, "missile_fire", &inputs, &["4"], Some("disordered")).expect("chart result");
    assert_eq!(r.modified, Some(7));
}

#[test]
fn e7_swiss_pike_crossbows_missile_fire_drm_l30() {
    // A Swiss Pike with Missile Fire DRM "2" (−2†) and Missile Type CB fires its crossbows.
    let inputs = [
        ("missile_type", "CB"),
        ("range", "1"),
        ("range_drm", "0"),
        ("missile_fire_drm", "-2"),
        ("target_class", "foot"),
    ];
    let r = try_run(
        arquebus(),
        "missile_fire",
        &inputs,
        &["6"],
        Some("no_effect"),
    )
    .expect("chart result");
    assert_eq!(r.modified, Some(6)); // +2 range, −2 counter
    explains(&r, "Modifier: Missile Fire DRM −2 to the roll");
}

#[test]
fn fire_range_cells_not_in_the_text_l32() {
    // An Arquebus at 3 hexes: the Fire/Range DRM is on the PAC only.
    let r = try_run(
        arquebus(),
        "missile_fire",
        &[
            ("range_drm", "0"),
            ("missile_fire_drm", "0"),
            ("target_class", "foot"),
            ("missile_type", "AQ"),
            ("range", "3"),
        ],
        &["5"],
        None,
    );
    expect_missing_cell(r, "fire_range");
    // Entered off the PAC, the roll goes on to the (missing) Fire Results cell.
    let inputs = [
        ("missile_type", "AQ"),
        ("range", "3"),
        ("range_drm_entered", "true"),
        ("range_drm", "1"),
        ("missile_fire_drm", "0"),
        ("target_class", "foot"),
        ("target_disordered", "true"),
    ];
    let r = try_run(arquebus(), "missile_fire", &inputs, &["5"], None);
    expect_missing_cell(r, "fire_results");
    let r = try_run(arquebus(), "missile_fire", &inputs, &["5"], Some("retired"))
        .expect("chart result");
    assert_eq!(r.modified, Some(6));
    assert_eq!(
        r.lookup.as_ref().and_then(|l| l.column.clone()).as_deref(),
        Some("foot_disordered")
    );
    assert_eq!(r.outcome.effects[0].status.as_deref(), Some("retired"));
}

// ── 12.3 Shock / 13.4 Charge: worked examples E3 (L20), E10 (L34) and a derived sum ──────

#[test]
fn e3_gonzaga_charisma_l20() {
    // "Gonzaga will give any unit he is stacked with a +4 DRM when attacking in Shock/Charge combat."
    let inputs = [
        ("attacker_units", "1"),
        ("defender_units", "1"),
        ("angle", "front"),
        ("defender_shock_defense_drm", "0"),
        ("attacker_type", "mm"),
        ("defender_type", "pk"),
        ("charisma", "4"),
        ("wsm_entered", "true"),
        ("wsm_drm", "0"),
    ];
    let r = try_run(arquebus(), "shock_resolution", &inputs, &["3"], None);
    expect_missing_cell(r, "shock_crt");
    let r = try_run(
        arquebus(),
        "shock_resolution",
        &inputs,
        &["3"],
        Some("defender_retreat"),
    )
    .expect("chart result");
    assert_eq!(r.modified, Some(7));
    explains(&r, "Modifier: Leader Presence (Charisma) +4 to the roll");
    assert_eq!(r.outcome.effects[0].kind.id(), "retreat");
    let r = try_run(
        arquebus(),
        "charge_resolution",
        &inputs,
        &["3"],
        Some("continued_attack"),
    )
    .expect("chart result");
    assert_eq!(r.modified, Some(7));
}

#[test]
fn e10_one_stradiotti_against_two_pike_l34() {
    // A "1 Strength (Dis-)Advantage DRM" (−1†) against each Pike; one roll per defending hex.
    let inputs = [
        ("attacker_units", "1"),
        ("defender_units", "2"),
        ("angle", "front"),
        ("defender_shock_defense_drm", "0"),
        ("attacker_type", "str"),
        ("defender_type", "pk"),
        ("wsm_entered", "true"),
        ("wsm_drm", "0"),
    ];
    for face in ["2", "8"] {
        let r = try_run(
            arquebus(),
            "shock_resolution",
            &inputs,
            &[face],
            Some("attacker_disordered"),
        )
        .expect("chart result");
        assert_eq!(r.modified, Some(face.parse::<i64>().unwrap() - 1));
        explains(&r, "Modifier: Strength Advantage −1 to the roll");
    }
}

#[test]
fn shock_drm_sum_derived_l34_l36() {
    // Flank and rear (+4), defender Shock Defense DRM +1, one Disordered attacker (−2), no leader,
    // WSM 0, 2 units against 1 (+1): net +4.
    let inputs = [
        ("angle", "two_or_more_sides"),
        ("defender_shock_defense_drm", "1"),
        ("attacker_disordered", "true"),
        ("attacker_units", "2"),
        ("defender_units", "1"),
        ("attacker_type", "mm"),
        ("defender_type", "pk"),
        ("wsm_entered", "true"),
        ("wsm_drm", "0"),
    ];
    let r = try_run(
        arquebus(),
        "shock_resolution",
        &inputs,
        &["5"],
        Some("defender_eliminated"),
    )
    .expect("chart result");
    assert_eq!(r.modified, Some(9));
    assert_eq!(r.lookup.as_ref().map(|l| l.row.as_str()), Some("9+"));
    // The matrix itself is not in the text: without an entered WSM DRM the roll stops there.
    let r = try_run(
        arquebus(),
        "shock_resolution",
        &[
            ("attacker_units", "1"),
            ("defender_units", "1"),
            ("angle", "front"),
            ("defender_shock_defense_drm", "0"),
            ("wsm_drm", "0"),
            ("attacker_type", "mm"),
            ("defender_type", "pk"),
        ],
        &["5"],
        None,
    );
    expect_missing_cell(r, "weapons_system_matrix");
}

#[test]
fn charge_specific_drms_l36_l38_l40() {
    // Move before Charge −1†, Continued Attack −1† per previous Shock Phase, successful
    // Counter-Charge against Shock −2†, defender Retired +2 and the Disordered column.
    let inputs = [
        ("attacker_units", "1"),
        ("defender_units", "1"),
        ("angle", "front"),
        ("defender_shock_defense_drm", "0"),
        ("attacker_type", "mm"),
        ("defender_type", "pk"),
        ("wsm_entered", "true"),
        ("wsm_drm", "0"),
        ("moved_before_charge", "true"),
        ("continued_attack", "2"),
        ("counter_charged", "true"),
        ("defender_retired", "true"),
    ];
    let r = try_run(
        arquebus(),
        "charge_resolution",
        &inputs,
        &["6"],
        Some("defender_eliminated"),
    )
    .expect("chart result");
    assert_eq!(r.modified, Some(6 - 1 - 2 - 2 + 2));
    assert_eq!(
        r.lookup.as_ref().and_then(|l| l.column.clone()).as_deref(),
        Some("disordered")
    );
}
