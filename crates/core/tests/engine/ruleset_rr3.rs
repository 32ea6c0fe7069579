//! Renaissance and Reformation III, megagame handbook (seed 001): every worked example in the
//! text (digest §5, E1–E6) and the derived checks D1–D10, resolved with physical dice on the
//! shipped ruleset. "L…" are lines of seeds/001_a316a7ada873c985.txt.

use umpire_core::resolve::{Effect, Resolution, ResolveError, odds};
use umpire_core::rules::{Ruleset, Value};

use crate::common;
use common::{explains, inputs_for, run_in, shipped, try_run};

fn rr3() -> &'static Ruleset {
    shipped("rr3")
}

fn run(procedure: &str, inputs: &[(&str, &str)], faces: &[&str]) -> Resolution {
    run_in(rr3(), procedure, inputs, faces)
}

fn with_ruling(id: &str, option: &str) -> Ruleset {
    rr3()
        .with_rulings(&[(id.to_string(), option.to_string())])
        .expect("ruling exists")
}

fn derived(r: &Resolution, name: &str) -> Value {
    r.derived
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no derived value {name}"))
        .value
        .clone()
}

fn int(r: &Resolution, name: &str) -> i64 {
    match derived(r, name) {
        Value::Int(i) => i,
        other => panic!("{name} is {other:?}, not a number"),
    }
}

/// The effects as (kind, side, amount) triples.
fn effects(r: &Resolution) -> Vec<(String, Option<String>, Option<i64>)> {
    r.outcome
        .effects
        .iter()
        .map(|e: &Effect| (e.kind.id().to_string(), e.side.clone(), e.amount))
        .collect()
}

fn effect<'a>(r: &'a Resolution, kind: &str, side: Option<&str>) -> &'a Effect {
    r.outcome
        .effects
        .iter()
        .find(|e| e.kind.id() == kind && e.side.as_deref() == side)
        .unwrap_or_else(|| panic!("no {kind} effect for {side:?} in {:?}", effects(r)))
}

/// The ledger change of an `adjust` or `set` effect on a role's counter (tests/megagame.rs
/// applies them to a game).
fn ledger(r: &Resolution, side: &str, attribute: &str) -> Option<i64> {
    r.outcome
        .effects
        .iter()
        .find(|e| {
            matches!(e.kind.id(), "adjust" | "set")
                && e.side.as_deref() == Some(side)
                && e.attribute.as_deref() == Some(attribute)
        })
        .and_then(|e| e.amount)
}

/// The exact probability of an outcome code (all its values together), as "n/d".
fn chance(rs: &Ruleset, procedure: &str, inputs: &[(&str, &str)], code: &str) -> String {
    let p = rs.procedure(procedure).expect("procedure");
    let o = odds(rs, p, &inputs_for(rs, procedure, inputs)).expect("odds");
    let hits: Vec<_> = o.outcomes.iter().filter(|x| x.code == code).collect();
    assert_eq!(
        hits.len(),
        1,
        "{code} appears {} times in the odds",
        hits.len()
    );
    hits[0].fraction.to_string()
}

// ── Loading and structure ───────────────────────────────────────────────────────────────

#[test]
fn ruleset_loads_with_every_procedure() {
    let rs = rr3();
    for p in [
        "subsidy",
        "exaction",
        "loan",
        "imperial_penny",
        "raise_army",
        "pay",
        "mutiny",
        "desertion",
        "movement",
        "retreat_before_combat",
        "extortion",
        "loot",
        "npc_passage_army",
        "battle",
        "leader_death",
        "suppress_revolt",
        "blockade",
        "bombardment",
        "assault",
        "naval_battle",
        "fleet_repair",
        "piracy",
        "debate_issue",
        "religious_debate",
        "lutheran_conversion",
        "religious_revolt",
        "purge",
        "death_roll",
        "births",
        "contested_marriage",
        "reduce_unrest",
        "remove_markers",
        "revolt_upkeep",
        "disband",
    ] {
        assert!(rs.procedure(p).is_some(), "no procedure {p}");
    }
    assert_eq!(rs.procedures.len(), 34);
    assert_eq!(
        rs.geometry.as_ref().map(|g| format!("{:?}", g.kind)),
        Some("Area".to_string())
    );
    for a in [
        "strength_thousands",
        "arrears",
        "fatigue",
        "fortification",
        "unrest_index",
        "treasury",
        "fleet_quality",
        "damaged",
    ] {
        assert!(
            rs.units.iter().any(|u| u.name == a),
            "no unit attribute {a}"
        );
    }
    for a in ["age", "team", "death_roll", "married_this_turn"] {
        assert!(
            rs.leaders.iter().any(|u| u.name == a),
            "no leader attribute {a}"
        );
    }
}

#[test]
fn tables_complete_in_the_text_and_referred_to() {
    let rs = rr3();
    for t in [
        "timetable",
        "turn_sequence",
        "map_tables",
        "movement_options",
        "battle_die_modifiers",
        "battle_results",
        "leader_death",
        "assault_modifiers",
        "assault_results",
        "naval_quality",
        "debate_outcome",
        "lutheran_conversion",
        "computed_outcome",
    ] {
        assert!(
            rs.table(t)
                .unwrap_or_else(|| panic!("no table {t}"))
                .is_complete(),
            "{t} should be complete"
        );
    }
    // Referred to only (briefings, Character Control's list…): structure with '?' cells.
    for (t, missing) in [
        ("death_rolls", 6),
        ("conversion_counters", 6),
        ("debating_cards", 8),
        ("marriage_prestige_bonus", 1),
        ("revenue_cards", 2),
        ("state_briefings", 48),
    ] {
        assert_eq!(
            rs.table(t)
                .unwrap_or_else(|| panic!("no table {t}"))
                .missing_cells()
                .len(),
            missing,
            "{t}"
        );
    }
}

#[test]
fn sequence_of_play_follows_l214_and_l553() {
    let top: Vec<&str> = rr3()
        .sequence_of_play
        .iter()
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(top, ["registration", "plenary_briefing", "turn", "debrief"]);
    let turn = &rr3().sequence_of_play[2];
    let phases: Vec<&str> = turn.steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        phases,
        [
            "phase_1", "phase_2", "phase_3", "phase_4", "phase_5", "phase_6"
        ]
    );
    // Each military phase: pay and mutiny, two movement steps, desertion (L555–558).
    for (k, p) in [(1, "phase_2"), (2, "phase_3"), (4, "phase_5")] {
        let ids: Vec<&str> = turn.steps[k]
            .steps
            .iter()
            .map(|s| s.id.as_str())
            .take(4)
            .collect();
        assert_eq!(
            ids,
            [
                format!("{p}_pay"),
                format!("{p}_step_1"),
                format!("{p}_step_2"),
                format!("{p}_desertion")
            ]
        );
        assert_eq!(turn.steps[k].steps[0].procedures, ["pay", "mutiny"]);
        assert!(turn.steps[k].steps[0].mandatory && turn.steps[k].steps[3].mandatory);
    }
    assert!(
        turn.steps[1]
            .steps
            .iter()
            .any(|s| s.procedures.contains(&"religious_debate".to_string()))
    );
    assert!(
        turn.steps[2]
            .steps
            .iter()
            .any(|s| s.procedures.contains(&"lutheran_conversion".to_string()))
    );
    assert!(
        turn.steps[3]
            .steps
            .iter()
            .any(|s| s.procedures.contains(&"births".to_string()))
    );
    assert!(
        turn.steps[4]
            .steps
            .iter()
            .any(|s| s.procedures.contains(&"religious_revolt".to_string()))
    );
}

#[test]
fn rulings_and_their_defaults() {
    let rs = rr3();
    let got: Vec<(&str, &str)> = rs
        .rulings
        .iter()
        .map(|r| (r.id.as_str(), r.selected.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("mutiny_comparator", "at_most_example"),
            ("battle_short_die", "remainder_die"),
            ("loan_phase4_rounding", "round_down"),
            ("assault_loss_rounding", "round_down"),
            ("npc_passage_end", "step"),
            ("fleet_repair_timing", "phase_1_and_military"),
            ("extortion_move_limit", "per_phase"),
        ]
    );
}

// ── Worked examples in the text ─────────────────────────────────────────────────────────

#[test]
fn e1_religious_minority_revolt_l409() {
    // Upper Austria: +1 for the revolt in Bohemia, +1 for the previous attempt; roll 3 → 5: revolt.
    let r = run(
        "religious_revolt",
        &[("adjacent_revolts", "1"), ("purge_attempts", "1")],
        &["3"],
    );
    assert_eq!((r.natural, r.modified), (Some(3), Some(5)));
    assert_eq!(r.outcome.code, "revolt");
    assert_eq!(effect(&r, "note", None).amount, Some(2)); // 2 florins a turn (L407)
    // Without the previous attempt the same roll is 4: no revolt.
    assert_eq!(
        run("religious_revolt", &[("adjacent_revolts", "1")], &["3"])
            .outcome
            .code,
        "no_revolt"
    );
}

#[test]
fn e2_purge_attempt_l427() {
    // No troops, 3 florins; roll 1 + 3 = 4: unsuccessful, +1 next time.
    let r = run("purge", &[("florins_spent", "3")], &["1"]);
    assert_eq!((r.natural, r.modified), (Some(1), Some(4)));
    assert_eq!(r.outcome.code, "unsuccessful");
    assert_eq!(ledger(&r, "state", "treasury"), Some(-3));
    assert_eq!(ledger(&r, "area", "purge_attempts"), Some(1));
    assert_eq!(effect(&r, "note", None).amount, Some(1));
    // The next military phase: +1 for the previous attempt (and the same 3 florins) — roll 1 → 5.
    let next = run(
        "purge",
        &[("florins_spent", "3"), ("previous_attempts", "1")],
        &["1"],
    );
    assert_eq!(
        (next.modified, next.outcome.code.as_str()),
        (Some(5), "success")
    );
    // 5,000 troops present give +1 (L417); 4,000 do not.
    assert_eq!(
        run("purge", &[("troops_thousands", "5")], &["4"])
            .outcome
            .code,
        "success"
    );
    assert_eq!(
        run("purge", &[("troops_thousands", "4")], &["4"])
            .outcome
            .code,
        "unsuccessful"
    );
}

#[test]
fn e3_pay_l580() {
    // 18,000 men: 1 per 5,000 or part of → 4.
    let r = run(
        "pay",
        &[("strength_thousands", "18"), ("florins_paid", "4")],
        &[],
    );
    assert_eq!(int(&r, "pay_due"), 4);
    assert_eq!(r.outcome.code, "paid_in_full");
    assert_eq!(
        int(
            &run(
                "pay",
                &[("strength_thousands", "20"), ("florins_paid", "4")],
                &[]
            ),
            "pay_due"
        ),
        4
    );
    assert_eq!(
        int(
            &run(
                "pay",
                &[("strength_thousands", "21"), ("florins_paid", "5")],
                &[]
            ),
            "pay_due"
        ),
        5
    );
}

#[test]
fn e4_partial_pay_marks_one_arrears_box_l584() {
    // Pay 4 due, Monluc has only 3: one Arrears box; roll for mutiny.
    let r = run(
        "pay",
        &[("strength_thousands", "18"), ("florins_paid", "3")],
        &[],
    );
    assert_eq!(r.outcome.code, "arrears");
    assert_eq!(int(&r, "arrears_after"), 1);
    assert_eq!(ledger(&r, "state", "treasury"), Some(-3));
    assert_eq!(ledger(&r, "army", "arrears"), Some(1));
    assert_eq!(
        effect(&r, "follow_up", None).procedure.as_deref(),
        Some("mutiny")
    );
    // Paying nothing still marks only one box (L582).
    assert_eq!(
        int(
            &run(
                "pay",
                &[("strength_thousands", "18"), ("arrears_before", "1")],
                &[]
            ),
            "arrears_after"
        ),
        2
    );
}

#[test]
fn e5_mutiny_example_reading_l592() {
    // Default ruling (example L592): 3 Arrears, "needs to be more than 3 to avoid a mutiny".
    assert_eq!(
        run("mutiny", &[("arrears", "3")], &["3"]).outcome.code,
        "mutiny"
    );
    assert_eq!(
        run("mutiny", &[("arrears", "3")], &["4"]).outcome.code,
        "obeys"
    );
    assert_eq!(
        run("mutiny", &[("arrears", "1")], &["1"]).outcome.code,
        "mutiny"
    );
    assert_eq!(
        chance(rr3(), "mutiny", &[("arrears", "3")], "mutiny"),
        "1/2"
    );
    assert_eq!(
        run("mutiny", &[("arrears", "0")], &["1"]).outcome.code,
        "no_roll"
    );
}

#[test]
fn e5_mutiny_rule_reading_l590() {
    // The rule's words: "If the score is less than the total markers" — a 3 does not mutiny.
    let rs = with_ruling("mutiny_comparator", "less_than_rule");
    assert_eq!(
        run_in(&rs, "mutiny", &[("arrears", "3")], &["3"])
            .outcome
            .code,
        "obeys"
    );
    assert_eq!(
        run_in(&rs, "mutiny", &[("arrears", "3")], &["2"])
            .outcome
            .code,
        "mutiny"
    );
    assert_eq!(
        run_in(&rs, "mutiny", &[("arrears", "1")], &["1"])
            .outcome
            .code,
        "obeys"
    );
    assert_eq!(chance(&rs, "mutiny", &[("arrears", "3")], "mutiny"), "1/3");
}

#[test]
fn e6_battle_at_oldberg_l647_661() {
    // Bosrovia 23,000: 4d6 + d6−2, rolls 3,5,2,6,3 → 17. Ruritannia 17,000: 3d6 + d6−3, rolls 1,4,3,5 → 10.
    let r = run(
        "battle",
        &[
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
            ("attacker_thousands", "23"),
            ("defender_thousands", "17"),
        ],
        &["3", "5", "2", "6", "3", "1", "4", "3", "5"],
    );
    explains(&r, "attacker: [3, 5, 2, 6, 1] → score 17");
    explains(&r, "defender: [1, 4, 3, 2] → score 10");
    assert_eq!(r.outcome.code, "attacker_wins");
    assert_eq!(r.outcome.value, Some(8));
    // Winner inflicts 17/2 = 8,000 (Ruritannia left 9,000); loser 10/4 = 2,000 (Bosrovia 21,000).
    assert_eq!(effect(&r, "sp_loss", Some("defender")).amount, Some(8));
    assert_eq!(effect(&r, "sp_loss", Some("attacker")).amount, Some(2));
    assert_eq!(effect(&r, "note", Some("defender")).amount, Some(9));
    assert_eq!(effect(&r, "note", Some("attacker")).amount, Some(21));
    assert_eq!(effect(&r, "retreat", Some("defender")).amount, Some(1));
    assert_eq!(
        effect(&r, "follow_up", None).procedure.as_deref(),
        Some("leader_death")
    );
    // The same battle with the sides swapped: the defender wins and the numbers are mirrored.
    let m = run(
        "battle",
        &[
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
            ("attacker_thousands", "17"),
            ("defender_thousands", "23"),
        ],
        &["1", "4", "3", "5", "3", "5", "2", "6", "3"],
    );
    assert_eq!(
        (m.outcome.code.as_str(), m.outcome.value),
        ("defender_wins", Some(8))
    );
    assert_eq!(effect(&m, "sp_loss", Some("defender")).amount, Some(2));
}

#[test]
fn e6_battle_under_the_literal_short_die_reading_l634() {
    // "if less than 5,000": a 23,000 army ignores its remainder — 4d6 against 3d6.
    let rs = with_ruling("battle_short_die", "under_5000_only");
    let r = run_in(
        &rs,
        "battle",
        &[
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
            ("attacker_thousands", "23"),
            ("defender_thousands", "17"),
        ],
        &["3", "5", "2", "6", "1", "4", "3"],
    );
    explains(&r, "attacker: [3, 5, 2, 6] → score 16");
    explains(&r, "defender: [1, 4, 3] → score 8");
    assert_eq!(
        (
            r.outcome.value,
            effect(&r, "sp_loss", Some("attacker")).amount
        ),
        (Some(8), Some(2))
    );
    // An army under 5,000 rolls its short die under both readings.
    let small = run_in(
        &rs,
        "battle",
        &[
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
            ("attacker_thousands", "3"),
            ("defender_thousands", "5"),
        ],
        &["4", "1"],
    );
    explains(&small, "attacker: [2] → score 2");
}

// ── Derived checks (digest §5 D1–D10) and the other procedures ──────────────────────────

#[test]
fn d1_minimum_score_on_a_die_is_zero_l640() {
    // 3,000 men: one die at −2; a 1 scores 0, not −1.
    let r = run(
        "battle",
        &[
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
            ("attacker_thousands", "3"),
            ("defender_thousands", "5"),
        ],
        &["1", "4"],
    );
    explains(&r, "attacker: [0] → score 0");
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("defender_wins", Some(2))
    );
    assert_eq!(effect(&r, "sp_loss", Some("defender")).amount, Some(0)); // a quarter of 0
}

#[test]
fn d2_swiss_and_spanish_dice_l635() {
    // French 30,000: one third Swiss, rounded down to 5,000s → 2 dice at +1.
    let r = run(
        "battle",
        &[
            ("defender_nationality", "other"),
            ("attacker_thousands", "30"),
            ("attacker_nationality", "french"),
            ("defender_thousands", "5"),
        ],
        &["1", "1", "1", "1", "1", "1", "6"],
    );
    assert_eq!(
        (
            int(&r, "attacker_swiss_dice"),
            int(&r, "attacker_full_dice")
        ),
        (2, 6)
    );
    explains(&r, "attacker: [2, 2, 1, 1, 1, 1] → score 8");
    assert_eq!(
        int(
            &run(
                "battle",
                &[
                    ("defender_nationality", "other"),
                    ("attacker_thousands", "14"),
                    ("attacker_nationality", "french"),
                    ("defender_thousands", "5")
                ],
                &["1", "1", "1", "1"]
            ),
            "attacker_swiss_dice"
        ),
        0
    );
    // Spanish: +1 on every die, the short die included (7,000: d6+1 and d6−3+1).
    let s = run(
        "battle",
        &[
            ("defender_nationality", "other"),
            ("attacker_thousands", "7"),
            ("attacker_nationality", "spanish"),
            ("defender_thousands", "5"),
        ],
        &["3", "4", "6"],
    );
    explains(&s, "attacker: [4, 2] → score 6");
    assert_eq!(s.outcome.code, "tie");
}

#[test]
fn battle_fatigue_river_and_looting_per_die_l636_638() {
    // Defender 10,000 behind a river with 2 Fatigue: each die +1 −2; attacker looting: −2 a die.
    let r = run(
        "battle",
        &[
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
            ("attacker_thousands", "10"),
            ("attacker_looting", "true"),
            ("defender_thousands", "10"),
            ("defender_fatigue", "2"),
            ("defender_river", "true"),
        ],
        &["6", "1", "1", "5"],
    );
    explains(&r, "attacker: [4, 0] → score 4");
    explains(&r, "defender: [0, 4] → score 4");
    assert_eq!(r.outcome.code, "tie");
}

#[test]
fn leader_death_2d6_l669_672() {
    assert_eq!(
        run("leader_death", &[("battle_result", "won")], &["1", "1"])
            .outcome
            .code,
        "dies"
    );
    assert_eq!(
        run("leader_death", &[("battle_result", "won")], &["1", "2"])
            .outcome
            .code,
        "survives"
    );
    assert_eq!(
        run("leader_death", &[("battle_result", "lost")], &["1", "2"])
            .outcome
            .code,
        "dies"
    );
    assert_eq!(
        run("leader_death", &[("battle_result", "lost")], &["2", "2"])
            .outcome
            .code,
        "survives"
    );
    assert_eq!(
        chance(rr3(), "leader_death", &[("battle_result", "won")], "dies"),
        "1/36"
    );
    assert_eq!(
        chance(rr3(), "leader_death", &[("battle_result", "lost")], "dies"),
        "1/12"
    );
}

#[test]
fn d3_subsidy_revolt_l529() {
    // Unrest 1 + 2 = 3; revolt die 2 < 3: revolt, subsidy 5 + 4 = 9 halved to 4, index to 0.
    let r = run("subsidy", &[("unrest_index", "1")], &["5", "2"]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("revolt", Some(4))
    );
    assert_eq!(int(&r, "index_after"), 3);
    assert_eq!(ledger(&r, "state", "unrest_index"), Some(0), "set to zero");
    assert_eq!(ledger(&r, "state", "treasury"), Some(4));
    // A 3 is not less than 3: the full 9 florins, index 3.
    let ok = run("subsidy", &[("unrest_index", "1")], &["5", "3"]);
    assert_eq!(
        (
            ok.outcome.code.as_str(),
            ok.outcome.value,
            ledger(&ok, "state", "unrest_index")
        ),
        ("collected", Some(9), Some(2)) // +2 to the index: 1 → 3
    );
    // A Persuasion card (L533) or a tax to raise an army (L514) adds nothing: index stays 1, and 1 < 1 is false.
    let p = run(
        "subsidy",
        &[("unrest_index", "1"), ("persuasion_card", "true")],
        &["5", "1"],
    );
    assert_eq!(
        (p.outcome.code.as_str(), int(&p, "index_after")),
        ("collected", 1)
    );
    assert_eq!(
        int(
            &run("subsidy", &[("to_raise_army", "true")], &["1", "1"]),
            "unrest_added"
        ),
        0
    );
}

#[test]
fn exaction_loan_and_imperial_penny_l515_l516_l299() {
    assert_eq!(
        run("exaction", &[("to_raise_army", "true")], &["4"])
            .outcome
            .value,
        Some(4)
    );
    assert_eq!(
        run("exaction", &[("to_raise_army", "false")], &["4"])
            .outcome
            .code,
        "not_allowed"
    );
    assert_eq!(run("loan", &[], &["3"]).outcome.value, Some(9));
    let penny = run(
        "imperial_penny",
        &[
            ("emperor_at_war", "true"),
            ("present", "5"),
            ("votes_for", "3"),
        ],
        &["4"],
    );
    assert_eq!(
        (penny.outcome.code.as_str(), penny.outcome.value),
        ("granted", Some(10))
    );
    assert_eq!(
        run(
            "imperial_penny",
            &[
                ("emperor_at_war", "true"),
                ("present", "4"),
                ("votes_for", "2")
            ],
            &["4"]
        )
        .outcome
        .code,
        "refused"
    );
    assert_eq!(
        run(
            "imperial_penny",
            &[
                ("emperor_at_war", "false"),
                ("present", "5"),
                ("votes_for", "3")
            ],
            &["4"]
        )
        .outcome
        .code,
        "not_allowed"
    );
}

#[test]
fn d9_phase_4_loan_halved_both_roundings_l541() {
    // d6 = 3 → 9, halved: 4 (default, round down) or 5 (round up).
    let r = run("loan", &[("phase", "phase_4")], &["3"]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("loan_phase_4", Some(4))
    );
    let up = with_ruling("loan_phase4_rounding", "round_up");
    assert_eq!(
        run_in(&up, "loan", &[("phase", "phase_4")], &["3"])
            .outcome
            .value,
        Some(5)
    );
    assert_eq!(
        run_in(&up, "loan", &[("phase", "phase_4")], &["4"])
            .outcome
            .value,
        Some(5)
    );
}

#[test]
fn d4_births_l449() {
    assert_eq!(
        run("births", &[("newly_married", "true")], &["2"])
            .outcome
            .code,
        "no_children"
    );
    let r = run("births", &[("newly_married", "true")], &["6"]);
    assert_eq!(
        (r.outcome.code.as_str(), r.outcome.value),
        ("children", Some(4))
    );
    assert_eq!(
        chance(rr3(), "births", &[("newly_married", "true")], "no_children"),
        "1/3"
    );
}

#[test]
fn d5_desertion_l618() {
    let r = run("desertion", &[("arrears", "2"), ("fatigue", "1")], &[]);
    assert_eq!(r.outcome.code, "desertion");
    assert_eq!(effect(&r, "sp_loss", Some("army")).amount, Some(3));
    assert_eq!(run("desertion", &[], &[]).outcome.code, "no_desertion");
}

#[test]
fn raising_and_clearing_arrears_l572_l590() {
    let r = run(
        "raise_army",
        &[("permitted_area", "true"), ("blocks_of_5000", "3")],
        &[],
    );
    assert_eq!(
        (r.outcome.code.as_str(), ledger(&r, "state", "treasury")),
        ("raised", Some(-3))
    );
    assert_eq!(ledger(&r, "army", "strength_thousands"), Some(15));
    assert_eq!(
        (r.outcome.code.as_str(), ledger(&r, "state", "treasury")),
        ("raised", Some(-3))
    );
    assert_eq!(
        run(
            "raise_army",
            &[
                ("blocks_of_5000", "1"),
                ("permitted_area", "true"),
                ("phase", "military_phase")
            ],
            &[]
        )
        .outcome
        .code,
        "raised_no_move"
    );
    assert_eq!(
        run(
            "raise_army",
            &[("blocks_of_5000", "1"), ("permitted_area", "false")],
            &[]
        )
        .outcome
        .code,
        "not_allowed"
    );
    // Each Arrears box to be cleared costs the full pay: 18,000 men with 2 boxes, 4 + 2 × 4 = 12.
    let cleared = run(
        "pay",
        &[
            ("strength_thousands", "18"),
            ("arrears_before", "2"),
            ("florins_paid", "12"),
        ],
        &[],
    );
    assert_eq!(
        (
            cleared.outcome.code.as_str(),
            int(&cleared, "arrears_after")
        ),
        ("paid_in_full", 0)
    );
    let one = run(
        "pay",
        &[
            ("strength_thousands", "18"),
            ("arrears_before", "2"),
            ("florins_paid", "8"),
        ],
        &[],
    );
    assert_eq!(
        (
            one.outcome.code.as_str(),
            int(&one, "arrears_after"),
            int(&one, "clear_cost")
        ),
        ("paid_arrears_remain", 1, 4)
    );
}

#[test]
fn movement_and_retreat_l600_608() {
    assert_eq!(
        run("movement", &[("option", "move_2")], &[]).outcome.code,
        "+1"
    );
    assert_eq!(
        run("movement", &[("option", "move_2_river")], &[])
            .outcome
            .code,
        "0"
    );
    assert_eq!(
        run("movement", &[("option", "mountain")], &[]).outcome.code,
        "+1"
    );
    assert_eq!(
        run("movement", &[("option", "stationary")], &[])
            .outcome
            .value,
        Some(-1)
    );
    assert_eq!(
        run("retreat_before_combat", &[("areas_moved", "0")], &[])
            .outcome
            .code,
        "may_retreat"
    );
    assert_eq!(
        run("retreat_before_combat", &[("areas_moved", "1")], &[])
            .outcome
            .code,
        "may_retreat_with_fatigue"
    );
    assert_eq!(
        run("retreat_before_combat", &[("areas_moved", "2")], &[])
            .outcome
            .code,
        "cannot_retreat"
    );
}

#[test]
fn extortion_loot_and_non_played_states_l626_l630_l614() {
    let e = run(
        "extortion",
        &[
            ("areas_moved_this_phase", "1"),
            ("areas_moved_this_step", "1"),
        ],
        &[],
    );
    assert_eq!(
        (e.outcome.code.as_str(), ledger(&e, "state", "treasury")),
        ("extorted", Some(1))
    );
    assert_eq!(
        run(
            "extortion",
            &[
                ("areas_moved_this_phase", "1"),
                ("areas_moved_this_step", "1"),
                ("extortion_marker", "true")
            ],
            &[]
        )
        .outcome
        .code,
        "not_allowed"
    );
    // Two areas this phase but one this step: the default counts the phase (L626).
    let moved = [
        ("areas_moved_this_phase", "2"),
        ("areas_moved_this_step", "1"),
    ];
    assert_eq!(run("extortion", &moved, &[]).outcome.code, "not_allowed");
    assert_eq!(
        run_in(
            &with_ruling("extortion_move_limit", "per_step"),
            "extortion",
            &moved,
            &[]
        )
        .outcome
        .code,
        "extorted"
    );
    let npc = run(
        "extortion",
        &[
            ("areas_moved_this_phase", "1"),
            ("areas_moved_this_step", "1"),
            ("non_played_state", "true"),
        ],
        &[],
    );
    assert_eq!(
        effect(&npc, "follow_up", None).procedure.as_deref(),
        Some("npc_passage_army")
    );

    let annul = run(
        "loot",
        &[("stationary_whole_phase", "true"), ("arrears", "2")],
        &["5"],
    );
    assert_eq!(
        (
            annul.outcome.code.as_str(),
            ledger(&annul, "army", "arrears")
        ),
        ("arrears_annulled", Some(-1))
    );
    let gold = run("loot", &[("stationary_whole_phase", "true")], &["5"]);
    assert_eq!(
        (gold.outcome.code.as_str(), gold.outcome.value),
        ("florins", Some(5))
    );
    assert_eq!(
        run(
            "loot",
            &[
                ("stationary_whole_phase", "true"),
                ("looted_marker", "true")
            ],
            &["5"]
        )
        .outcome
        .code,
        "not_allowed"
    );
    assert_eq!(
        run(
            "loot",
            &[
                ("stationary_whole_phase", "true"),
                ("non_played_state", "true")
            ],
            &["5"]
        )
        .outcome
        .code,
        "florins_npc"
    );

    // 1d6+2 troops raised; movement ends for the step (default, L614) or the phase (L495).
    let army = run("npc_passage_army", &[], &["3"]);
    assert_eq!(
        (army.outcome.code.as_str(), army.outcome.value),
        ("raised_step", Some(5))
    );
    assert_eq!(
        run_in(
            &with_ruling("npc_passage_end", "phase"),
            "npc_passage_army",
            &[],
            &["3"]
        )
        .outcome
        .code,
        "raised_phase"
    );
}

#[test]
fn suppressing_revolts_l680() {
    // d6 + Unrest must be less than the troops in thousands.
    assert_eq!(
        run(
            "suppress_revolt",
            &[("troops_thousands", "8"), ("unrest_index", "3")],
            &["4"]
        )
        .outcome
        .code,
        "suppressed"
    );
    assert_eq!(
        run(
            "suppress_revolt",
            &[("troops_thousands", "8"), ("unrest_index", "3")],
            &["5"]
        )
        .outcome
        .code,
        "not_suppressed"
    );
}

#[test]
fn d6_assault_l699_711() {
    // 12,000 committed against a garrison of 3,000 (4:1, +3) at fortification 3.
    let base = [
        ("committed_thousands", "12"),
        ("garrison_thousands", "3"),
        ("fortification", "3"),
    ];
    let r = run("assault", &base, &["4", "2"]);
    explains(&r, "besiegers: [7] → score 7");
    explains(&r, "garrison: [5] → score 5");
    assert_eq!(r.outcome.code, "beaten_off_with_loss");
    // 20% of 12,000 = 2,400 → 2 (round down); 10% = 1,200 → 1.
    assert_eq!(effect(&r, "sp_loss", Some("besiegers")).amount, Some(2));
    assert_eq!(effect(&r, "sp_loss", Some("garrison")).amount, Some(1));
    assert_eq!(
        run("assault", &base, &["6", "3"]).outcome.code,
        "town_taken"
    );
    let repulsed = run("assault", &base, &["1", "6"]);
    assert_eq!(
        (
            repulsed.outcome.code.as_str(),
            effect(&repulsed, "sp_loss", Some("besiegers")).amount
        ),
        ("bloodily_repulsed", Some(3))
    );
    // The other roundings.
    let up = with_ruling("assault_loss_rounding", "round_up");
    let r_up = run_in(&up, "assault", &base, &["4", "2"]);
    assert_eq!(
        (
            effect(&r_up, "sp_loss", Some("besiegers")).amount,
            effect(&r_up, "sp_loss", Some("garrison")).amount
        ),
        (Some(3), Some(2))
    );
    assert_eq!(
        effect(
            &run_in(&up, "assault", &base, &["1", "6"]),
            "sp_loss",
            Some("besiegers")
        )
        .amount,
        Some(4)
    );
    let near = with_ruling("assault_loss_rounding", "nearest");
    assert_eq!(
        effect(
            &run_in(&near, "assault", &base, &["1", "6"]),
            "sp_loss",
            Some("besiegers")
        )
        .amount,
        Some(4)
    );
    // Minimum 1,000 (L711): 2,000 committed, 30% = 600 → 1,000.
    let small = run(
        "assault",
        &[
            ("committed_thousands", "2"),
            ("garrison_thousands", "1"),
            ("fortification", "1"),
        ],
        &["1", "6"],
    );
    assert_eq!(effect(&small, "sp_loss", Some("besiegers")).amount, Some(1));
    // A garrison loss greater than the garrison takes the town (L711): 10% of 30,000 > 2,000.
    let taken = run(
        "assault",
        &[
            ("committed_thousands", "30"),
            ("garrison_thousands", "2"),
            ("fortification", "1"),
        ],
        &["1", "2"],
    );
    assert_eq!(taken.outcome.code, "town_taken_by_losses");
    // Below 2:1, no modifier.
    explains(
        &run(
            "assault",
            &[
                ("committed_thousands", "5"),
                ("garrison_thousands", "3"),
                ("fortification", "3"),
            ],
            &["4", "1"],
        ),
        "besiegers: [4] → score 4",
    );
}

#[test]
fn d7_bombardment_and_d8_blockade_l688_693() {
    // 45,000 troops: 2 dice; one 5 → one breach, fortification 3 → 2.
    let r = run(
        "bombardment",
        &[("besiegers_thousands", "45"), ("fortification", "3")],
        &["5", "2"],
    );
    assert_eq!(r.outcome.value, Some(1));
    assert_eq!(effect(&r, "note", None).amount, Some(2));
    let last = run(
        "bombardment",
        &[("besiegers_thousands", "40"), ("fortification", "1")],
        &["6", "6"],
    );
    assert_eq!(effect(&last, "note", None).amount, Some(0));
    assert_eq!(
        run(
            "bombardment",
            &[("besiegers_thousands", "19"), ("fortification", "3")],
            &[]
        )
        .outcome
        .value,
        Some(0)
    );
    // Blockade of a fortification-4 city needs 20,000 men; surrender after 3 steps.
    let few = run(
        "blockade",
        &[("besiegers_thousands", "19"), ("fortification", "4")],
        &[],
    );
    assert_eq!(
        (few.outcome.code.as_str(), int(&few, "men_needed")),
        ("cannot_blockade", 20)
    );
    assert_eq!(
        run(
            "blockade",
            &[
                ("besiegers_thousands", "20"),
                ("fortification", "4"),
                ("steps_completed", "1")
            ],
            &[]
        )
        .outcome
        .code,
        "blockade_continues"
    );
    assert_eq!(
        run(
            "blockade",
            &[
                ("besiegers_thousands", "20"),
                ("fortification", "4"),
                ("steps_completed", "3")
            ],
            &[]
        )
        .outcome
        .code,
        "city_surrenders"
    );
}

#[test]
fn naval_battle_repair_and_piracy_l733_759() {
    // Turkish +1 against Spanish 0.
    let r = run(
        "naval_battle",
        &[
            ("fleet_a", "turkish"),
            ("fleet_b", "spanish"),
            ("fleet_b_troops", "12"),
        ],
        &["3", "3"],
    );
    assert_eq!(r.outcome.code, "a_wins_b_damaged");
    assert_eq!(effect(&r, "sp_loss", Some("fleet_b")).amount, Some(12));
    // An already damaged fleet (−2) is sunk.
    let sunk = run(
        "naval_battle",
        &[
            ("fleet_a", "english"),
            ("fleet_b", "venetian"),
            ("fleet_b_damaged", "true"),
        ],
        &["3", "4"],
    );
    explains(&sunk, "fleet_b: [3] → score 3");
    assert_eq!(sunk.outcome.code, "tie"); // English 3 against damaged Venetian 4 + 1 − 2
    assert_eq!(
        run(
            "naval_battle",
            &[
                ("fleet_a", "english"),
                ("fleet_b", "venetian"),
                ("fleet_b_damaged", "true")
            ],
            &["4", "4"]
        )
        .outcome
        .code,
        "a_wins_b_sunk"
    );

    let fixed = run("fleet_repair", &[("in_friendly_port", "true")], &["4"]);
    assert_eq!(
        (
            fixed.outcome.code.as_str(),
            ledger(&fixed, "state", "treasury")
        ),
        ("repaired", Some(-2))
    );
    assert_eq!(
        run("fleet_repair", &[("in_friendly_port", "true")], &["3"])
            .outcome
            .code,
        "not_repaired"
    );
    assert_eq!(
        run("fleet_repair", &[("in_friendly_port", "false")], &["6"])
            .outcome
            .code,
        "not_allowed"
    );
    assert_eq!(
        run(
            "fleet_repair",
            &[("in_friendly_port", "true"), ("phase", "phase_1")],
            &["6"]
        )
        .outcome
        .code,
        "repaired"
    );
    assert_eq!(
        run_in(
            &with_ruling("fleet_repair_timing", "military_only"),
            "fleet_repair",
            &[("in_friendly_port", "true"), ("phase", "phase_1")],
            &["6"]
        )
        .outcome
        .code,
        "not_allowed"
    );
    assert_eq!(
        run_in(
            &with_ruling("fleet_repair_timing", "phase_1_only"),
            "fleet_repair",
            &[("in_friendly_port", "true")],
            &["6"]
        )
        .outcome
        .code,
        "not_allowed"
    );

    assert_eq!(
        ledger(
            &run("piracy", &[("raid_successful", "true")], &[]),
            "state",
            "treasury"
        ),
        Some(-2)
    );
    assert_eq!(
        run(
            "piracy",
            &[("raid_successful", "true"), ("raids_this_turn", "1")],
            &[]
        )
        .outcome
        .code,
        "no_cost"
    );
}

#[test]
fn religious_debate_l356_364() {
    assert_eq!(
        run(
            "debate_issue",
            &[("catholic_card", "5"), ("lutheran_card", "3")],
            &[]
        )
        .outcome
        .code,
        "catholic_wins_issue"
    );
    assert_eq!(
        run(
            "debate_issue",
            &[("catholic_card", "3"), ("lutheran_card", "3")],
            &[]
        )
        .outcome
        .code,
        "further_round"
    );
    for (won, value) in [("0", -3), ("1", -2), ("2", 2), ("3", 3)] {
        assert_eq!(
            run("religious_debate", &[("lutheran_issues_won", won)], &[])
                .outcome
                .value,
            Some(value),
            "{won} issues"
        );
    }
}

#[test]
fn d10_lutheran_conversion_l372_381() {
    let fr = [("counters", "2"), ("region", "france_england")];
    assert_eq!(
        run("lutheran_conversion", &fr, &["5"]).outcome.code,
        "established"
    );
    assert_eq!(
        run("lutheran_conversion", &fr, &["4"]).outcome.code,
        "not_converted"
    );
    assert_eq!(
        run(
            "lutheran_conversion",
            &[("counters", "2"), ("region", "spain_italy")],
            &["6"]
        )
        .outcome
        .code,
        "no_chance"
    );
    assert_eq!(
        run(
            "lutheran_conversion",
            &[("counters", "3"), ("region", "spain_italy")],
            &["6"]
        )
        .outcome
        .code,
        "established"
    );
    assert_eq!(
        run(
            "lutheran_conversion",
            &[("region", "germany_hungary_netherlands"), ("counters", "3")],
            &["1"]
        )
        .outcome
        .code,
        "established"
    ); // Automatic
    assert_eq!(
        run(
            "lutheran_conversion",
            &[("region", "germany_hungary_netherlands"), ("counters", "1")],
            &["4"]
        )
        .outcome
        .code,
        "not_converted"
    );
    assert_eq!(
        run(
            "lutheran_conversion",
            &[
                ("region", "germany_hungary_netherlands"),
                ("counters", "1"),
                ("one_area_state", "true")
            ],
            &["5"]
        )
        .outcome
        .code,
        "state_converted"
    );
    assert_eq!(
        run(
            "lutheran_conversion",
            &[
                ("counters", "1"),
                ("region", "germany_hungary_netherlands"),
                ("one_area_state", "true"),
                ("player_controlled", "true")
            ],
            &["6"]
        )
        .outcome
        .code,
        "not_allowed"
    );
    assert_eq!(
        chance(
            rr3(),
            "lutheran_conversion",
            &[("region", "germany_hungary_netherlands"), ("counters", "2")],
            "established"
        ),
        "1/2"
    );
    assert_eq!(
        chance(
            rr3(),
            "lutheran_conversion",
            &[("counters", "3"), ("region", "france_england")],
            "established"
        ),
        "1/2"
    );
}

#[test]
fn missing_cells_death_rolls_and_prestige_bonus_l439_l445() {
    // Character Control's list is not in the handbook: the result is read off it.
    match try_run(rr3(), "death_roll", &[("turn", "2")], &[], None) {
        Err(e) => assert!(
            matches!(*e, ResolveError::MissingCell { ref table, .. } if table == "death_rolls"),
            "{e}"
        ),
        Ok(r) => panic!("expected a missing cell, got {}", r.outcome.code),
    }
    let dead =
        try_run(rr3(), "death_roll", &[("turn", "2")], &[], Some("dies")).expect("chart result");
    assert!(dead.outcome.from_physical_chart);
    assert_eq!(dead.outcome.code, "dies");
    // Contested marriage: without a high-prestige suitor the roll resolves; with one, the bonus is unknown.
    assert_eq!(
        run("contested_marriage", &[], &["5", "2"]).outcome.code,
        "suitor_a"
    );
    assert!(
        try_run(
            rr3(),
            "contested_marriage",
            &[("suitor_b_high_prestige", "true")],
            &["5", "2"],
            None
        )
        .is_err()
    );
}

#[test]
fn phase_1_unrest_markers_revolt_upkeep_and_disbanding_l215_l407_l622() {
    // L215: reduce the Unrest Index by 1 (not below 0).
    let r = run("reduce_unrest", &[("unrest_index", "2")], &[]);
    assert_eq!(
        (r.outcome.code.as_str(), ledger(&r, "state", "unrest_index")),
        ("unrest_reduced", Some(-1))
    );
    assert_eq!(
        run("reduce_unrest", &[], &[]).outcome.code,
        "unrest_at_zero"
    );
    // L215: the markers come off.
    let m = run("remove_markers", &[("looted_marker", "true")], &[]);
    assert_eq!(m.outcome.code, "markers_removed");
    assert_eq!(m.outcome.effects.len(), 1, "only the marker present");
    // L407: 2 florins a turn for each area in revolt.
    let u = run("revolt_upkeep", &[("areas_in_revolt", "3")], &[]);
    assert_eq!(ledger(&u, "state", "treasury"), Some(-6));
    // L622: paid to date may disband at any time; in Winter all disband.
    assert_eq!(
        run("disband", &[("arrears", "1")], &[]).outcome.code,
        "not_allowed"
    );
    assert_eq!(
        run("disband", &[("arrears", "1"), ("winter", "true")], &[])
            .outcome
            .code,
        "disbanded"
    );
}
