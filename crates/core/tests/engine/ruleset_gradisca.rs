//! The War of Gradisca 1615-1617 (seed 004). The rule text has no worked examples (checked for
//! "example", "e.g.", "for instance"), so these tests are vectors derived from the rule text, each
//! citing its line in seeds/004_9b3b8f080dc13fa8.txt ("AT-nn" are the acceptance
//! vectors of the digest, rules-digests/gradisca.md §6). Ambiguous rules are tested
//! under each ruling option.
use umpire_core::resolve::{DiceSource, Resolution, odds, parse_inputs, resolve};
use umpire_core::rules::{Cell, Library, Ruleset, Value};

fn ruleset() -> Ruleset {
    let lib = Library::shipped();
    for (id, e) in &lib.failed {
        if id == "gradisca" {
            panic!("gradisca does not load:\n{e}");
        }
    }
    lib.get("gradisca").expect("gradisca is shipped").clone()
}

fn with(rs: &Ruleset, ruling: &str, option: &str) -> Ruleset {
    rs.with_rulings(&[(ruling.into(), option.into())])
        .expect("ruling exists")
}

fn run(rs: &Ruleset, procedure: &str, inputs: &[(&str, &str)], faces: &[&str]) -> Resolution {
    let p = rs
        .procedure(procedure)
        .unwrap_or_else(|| panic!("no procedure {procedure}"));
    let pairs: Vec<(String, String)> = inputs
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    let given = parse_inputs(p, &pairs).expect("inputs parse");
    resolve(
        rs,
        p,
        &given,
        DiceSource::Physical {
            faces: faces.iter().map(|f| (*f).to_string()).collect(),
            entered_by: None,
        },
        None,
    )
    .unwrap_or_else(|e| panic!("{procedure} does not resolve: {e}"))
}

fn code(r: &Resolution) -> &str {
    &r.outcome.code
}

fn derived(r: &Resolution, name: &str) -> Value {
    r.derived
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no derived {name}"))
        .value
        .clone()
}

fn says(r: &Resolution, text: &str) -> bool {
    r.explanation.iter().any(|l| l.contains(text))
}

fn effect_amount(r: &Resolution, kind: &str, side: &str) -> Option<i64> {
    r.outcome
        .effects
        .iter()
        .find(|e| e.kind.id() == kind && e.side.as_deref() == Some(side))
        .and_then(|e| e.amount)
}

#[test]
fn gradisca_loads_with_sequence_of_play() {
    let rs = ruleset();
    assert_eq!(rs.id, "gradisca");
    // §4.1 (L74–87): a) draw, b) activate / play cards, b.a) opponent cards, c) repeat, d) stacking
    // and turn advance, e) end check.
    let turn = rs
        .sequence_of_play
        .iter()
        .find(|s| s.id == "game_turn")
        .expect("game turn");
    let ids: Vec<&str> = turn.steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "turn_start_advanced",
            "command_cycle",
            "stacking_check",
            "advance_turn",
            "morale_advanced",
            "end_check"
        ]
    );
    let cycle: Vec<&str> = turn.steps[1].steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        cycle,
        [
            "draw_command",
            "activation_choice",
            "opponent_cards",
            "activate_areas",
            "played_commands"
        ]
    );
    // The activation offers each operation's procedure; the cycle repeats while Command
    // markers are left (Rule 4.1).
    assert!(
        turn.steps[1].steps[3]
            .offers
            .iter()
            .any(|p| p == "field_combat")
    );
    assert_eq!(
        turn.steps[1].repeat_until_empty.as_deref(),
        Some("command_markers")
    );
    assert_eq!(turn.steps[2].procedures, ["stacking_check"]);
    for r in [
        "game",
        "commander_check_hits",
        "artillery_field_fire",
        "artillery_six",
        "breach_fire",
        "fort_vs_bombardment",
        "difficult_terrain_commanders",
        "rebuild_breach",
        "raid_modifier",
        "raid_camp_bonus",
    ] {
        assert!(rs.rulings.iter().any(|x| x.id == r), "ruling {r}");
    }
    assert_eq!(
        rs.rulings.iter().find(|r| r.id == "game").unwrap().selected,
        "basic"
    );
}

// ── Tables transcribed from the text ─────────────────────────────────────────

fn cell(rs: &Ruleset, table: &str, row: usize, col: usize) -> Cell {
    rs.table(table)
        .unwrap_or_else(|| panic!("no table {table}"))
        .rows[row]
        .cells[col]
        .clone()
}

#[test]
fn occupation_vp_l284_290() {
    let rs = ruleset();
    let t = rs.table("occupation_vp").unwrap();
    let vp: Vec<String> = t
        .rows
        .iter()
        .map(|r| format!("{}={}", r.key, r.cells[1].text()))
        .collect();
    assert_eq!(
        vp,
        [
            "palma=20",
            "udine=10",
            "gradisca=10",
            "goritia=10",
            "trieste=10"
        ]
    );
}

#[test]
fn movement_allowance_l118_122_l434() {
    let rs = ruleset();
    let t = rs.table("movement_allowance").unwrap();
    let ma: Vec<String> = t
        .rows
        .iter()
        .map(|r| format!("{}={}/{}", r.key, r.cells[0].text(), r.cells[1].text()))
        .collect();
    assert_eq!(
        ma,
        [
            "infantry=3/3",
            "guastatori=3/3",
            "artillery=2/2",
            "cavalry=5/3",
            "commander=5/5",
            "camp=1/1"
        ]
    );
}

#[test]
fn referenced_tables_keep_missing_cells() {
    let rs = ruleset();
    // Morale bands are on the map track (L394–398): every value 1–9 is missing.
    assert!(
        rs.table("morale_track")
            .unwrap()
            .rows
            .iter()
            .all(|r| r.cells[0] == Cell::Missing)
    );
    assert_eq!(rs.table("morale_track").unwrap().rows.len(), 9);
    // The 36 cards (L36) are not in the text.
    let cards = rs.table("cards").unwrap();
    assert_eq!(cards.rows.len(), 36);
    assert!(
        cards
            .rows
            .iter()
            .all(|r| r.cells.iter().all(|c| *c == Cell::Missing))
    );
    // The Time Line: first and last boxes stated (L64, L87), markers missing.
    assert_eq!(
        cell(&rs, "timeline", 0, 0),
        Cell::Value("Sept.-Oct.".into())
    );
    assert_eq!(
        cell(&rs, "timeline", 15, 0),
        Cell::Value("Mar.-Apr.".into())
    );
    assert_eq!(cell(&rs, "timeline", 15, 1), Cell::Value("1618".into()));
    assert_eq!(cell(&rs, "timeline", 3, 2), Cell::Missing);
    // Scenario card: 4 cards dealt each (L68), initial morale missing (L388).
    let s = rs.table("scenario_setup").unwrap();
    let morale = s
        .rows
        .iter()
        .find(|r| r.key.to_string() == "initial_army_morale")
        .unwrap();
    assert_eq!(morale.cells, [Cell::Missing, Cell::Missing]);
}

#[test]
fn morale_band_needs_the_map_track() {
    let rs = ruleset();
    let p = rs.procedure("morale_band").unwrap();
    let given = parse_inputs(p, &[("morale".into(), "5".into())]).unwrap();
    let err = resolve(
        &rs,
        p,
        &given,
        DiceSource::Physical {
            faces: vec![],
            entered_by: None,
        },
        None,
    )
    .unwrap_err();
    assert!(err.to_string().contains("not in the rule text"), "{err}");
    // With the band read off the map the umpire enters it.
    let r = resolve(
        &rs,
        p,
        &given,
        DiceSource::Physical {
            faces: vec![],
            entered_by: None,
        },
        Some("medium"),
    )
    .unwrap();
    assert_eq!(r.outcome.code, "medium");
}

// ── Hit test (L150–152, L222; advanced L330) ────────────────────────────────

#[test]
fn at01_hit_on_fire_value_or_less_l150_152() {
    let rs = ruleset();
    assert_eq!(
        code(&run(&rs, "unit_fire", &[("fire_value", "3")], &["3"])),
        "hit"
    );
    assert_eq!(
        code(&run(&rs, "unit_fire", &[("fire_value", "3")], &["4"])),
        "miss"
    );
}

#[test]
fn at02_split_attack_defence_values_l222() {
    let rs = ruleset();
    let attack = [
        ("fire_value", "4"),
        ("defence_value", "3"),
        ("attacking", "true"),
    ];
    assert_eq!(code(&run(&rs, "unit_fire", &attack, &["4"])), "hit");
    let defend = [
        ("fire_value", "4"),
        ("defence_value", "3"),
        ("attacking", "false"),
    ];
    let r = run(&rs, "unit_fire", &defend, &["4"]);
    assert_eq!(derived(&r, "value_used"), Value::Int(3));
    assert_eq!(code(&r), "miss");
}

#[test]
fn at51_difficult_terrain_advanced_only_l330() {
    let rs = ruleset();
    let fv3 = [
        ("fire_value", "3"),
        ("attacking", "true"),
        ("attack_into_difficult", "true"),
    ];
    // Basic game: no terrain effect on fire.
    assert_eq!(code(&run(&rs, "unit_fire", &fv3, &["3"])), "hit");
    // Advanced: FV 3 attacking into difficult terrain fires at 2.
    let adv = with(&rs, "game", "advanced");
    assert_eq!(code(&run(&adv, "unit_fire", &fv3, &["3"])), "miss");
    assert_eq!(code(&run(&adv, "unit_fire", &fv3, &["2"])), "hit");
    // FV 2 is unchanged.
    let fv2 = [
        ("fire_value", "2"),
        ("attacking", "true"),
        ("attack_into_difficult", "true"),
    ];
    assert_eq!(code(&run(&adv, "unit_fire", &fv2, &["2"])), "hit");
}

// ── Commander survival (L158, L164) ─────────────────────────────────────────

#[test]
fn at03_commander_survival_l158() {
    let rs = ruleset();
    for (face, expected) in [
        ("1", "casualty"),
        ("2", "casualty"),
        ("3", "survives"),
        ("6", "survives"),
    ] {
        assert_eq!(
            code(&run(&rs, "commander_survival", &[], &[face])),
            expected,
            "d6 = {face}"
        );
    }
}

// ── Field Combat (L144–178) ─────────────────────────────────────────────────

const ONE_EACH: [(&str, &str); 8] = [
    ("attacker_fv3", "1"),
    ("defender_fv3", "1"),
    ("attacker_artillery_fv", "1"),
    ("defender_artillery_fv", "1"),
    ("attacker_two_hit_units", "1"),
    ("attacker_one_hit_units", "0"),
    ("defender_two_hit_units", "1"),
    ("defender_one_hit_units", "0"),
];

fn fc(rs: &Ruleset, extra: &[(&str, &str)], faces: &[&str]) -> Resolution {
    let mut inputs: Vec<(&str, &str)> = ONE_EACH.to_vec();
    for (k, v) in extra {
        inputs.retain(|(n, _)| n != k);
        inputs.push((k, v));
    }
    run(rs, "field_combat", &inputs, faces)
}

#[test]
fn field_combat_defender_defeated_l160_l174() {
    let rs = ruleset();
    // Attacker d6 2 ≤ 3 hits; defender d6 5 > 3 misses: the defender absorbed more hits.
    let r = fc(&rs, &[], &["2", "5"]);
    assert_eq!(code(&r), "defender_defeated");
    assert_eq!(effect_amount(&r, "sp_loss", "defender"), Some(1));
    assert_eq!(effect_amount(&r, "sp_loss", "attacker"), Some(0));
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.kind == umpire_core::rules::EffectKind::Retreat
                && e.side.as_deref() == Some("defender"))
    );
}

#[test]
fn at09_equal_hits_attacker_retreats_l160_l174() {
    let rs = ruleset();
    // Two units each side, two hits each (AT-09): equal absorbed hits → the attacker retreats.
    let r = fc(
        &rs,
        &[
            ("attacker_fv3", "2"),
            ("defender_fv3", "2"),
            ("attacker_two_hit_units", "2"),
            ("defender_two_hit_units", "2"),
        ],
        &["1", "2", "3", "1"],
    );
    assert_eq!(code(&r), "attacker_defeated");
    assert!(says(&r, "Hits absorbed by the defender = 2"));
    assert!(says(&r, "Hits absorbed by the attacker = 2"));
    // No hits at all is also equal: the attacker retreats.
    assert_eq!(code(&fc(&rs, &[], &["6", "6"])), "attacker_defeated");
}

#[test]
fn at08_excess_hits_lost_and_annihilation_l154_l160() {
    let rs = ruleset();
    // Defender: one good-order unit (2 hits) and one Disorganized unit (1 hit). The attacker
    // rolls 6 hits, one cancelled by a Fort: 5 hits, 3 absorbed, 2 lost; the attacker may remain.
    let r = fc(
        &rs,
        &[
            ("attacker_fv3", "6"),
            ("attacker_two_hit_units", "6"),
            ("defender_fv3", "0"),
            ("defender_one_hit_units", "1"),
            ("forts", "1"),
        ],
        &["1", "1", "1", "1", "1", "1"],
    );
    assert!(says(
        &r,
        "Attacker's hits after Forts and Fortified Town = 5"
    ));
    assert_eq!(code(&r), "defender_annihilated");
    assert_eq!(effect_amount(&r, "sp_loss", "defender"), Some(3));
}

#[test]
fn at10_fort_and_fortified_town_cumulative_l152_l236_l244() {
    let rs = ruleset();
    // Three hits against an intact Fortified Town with one Fort: 1 hit applied.
    let r = fc(
        &rs,
        &[
            ("attacker_fv3", "3"),
            ("attacker_two_hit_units", "3"),
            ("defender_two_hit_units", "3"),
            ("forts", "1"),
            ("fortified_town", "true"),
        ],
        &["1", "2", "3", "6"],
    );
    assert_eq!(derived(&r, "fort_reduction"), Value::Int(2));
    assert!(says(
        &r,
        "Attacker's hits after Forts and Fortified Town = 1"
    ));
    // 1 against 0: the defender is defeated.
    assert_eq!(code(&r), "defender_defeated");
}

#[test]
fn at11_forts_per_area_basic_one_advanced_three_l236_l334() {
    let rs = ruleset();
    let inputs = [
        ("attacker_fv3", "3"),
        ("attacker_two_hit_units", "3"),
        ("defender_two_hit_units", "3"),
        ("forts", "3"),
        ("fortified_town", "true"),
    ];
    // Basic: only one Fort counts (L236): 3 − 2 = 1.
    let r = fc(&rs, &inputs, &["1", "2", "3", "6"]);
    assert_eq!(derived(&r, "fort_reduction"), Value::Int(2));
    assert!(says(
        &r,
        "Attacker's hits after Forts and Fortified Town = 1"
    ));
    // Advanced: three Forts and the Town cancel 4; no fewer than 0 hits.
    let adv = with(&rs, "game", "advanced");
    let r = fc(&adv, &inputs, &["1", "2", "3", "6"]);
    assert_eq!(derived(&r, "fort_reduction"), Value::Int(4));
    assert!(says(
        &r,
        "Attacker's hits after Forts and Fortified Town = 0"
    ));
    assert_eq!(code(&r), "attacker_defeated");
}

#[test]
fn at12_fort_turns_a_win_into_a_retreat_l174() {
    let rs = ruleset();
    // Attacker 2 hits, reduced to 1 by a Fort; defender 1 hit: 1 against 1, the attacker retreats.
    let r = fc(
        &rs,
        &[
            ("attacker_fv3", "2"),
            ("attacker_two_hit_units", "2"),
            ("forts", "1"),
        ],
        &["1", "2", "3"],
    );
    assert_eq!(code(&r), "attacker_defeated");
}

#[test]
fn at14_card_entered_attackers_eliminated_l270() {
    let rs = ruleset();
    let r = fc(&rs, &[("attacker_entered_by_card", "true")], &["5", "1"]);
    assert_eq!(code(&r), "card_attackers_eliminated");
}

#[test]
fn at15_defender_in_fortress_may_take_extra_hit_l178() {
    let rs = ruleset();
    let r = fc(
        &rs,
        &[("defender_in_fortress_through_breach", "true")],
        &["1", "6"],
    );
    assert_eq!(code(&r), "defender_defeated_in_fortress");
}

#[test]
fn commanders_fire_and_engineers_do_not_l148_l150() {
    let rs = ruleset();
    // An LV 2 Commander alongside: the attacker rolls 2 dice; die 2 ≤ LV 2 hits.
    let r = fc(&rs, &[("attacker_cmd_lv2", "1")], &["6", "2", "6"]);
    assert!(says(&r, "attacker: [3, 0] → hits 1"), "{:?}", r.explanation);
    assert_eq!(code(&r), "defender_defeated");
}

#[test]
fn commander_check_ruling_l158_l174() {
    let rs = ruleset();
    // The attacker's only hit is cancelled by a Fort.
    let r = fc(&rs, &[("forts", "1")], &["1", "6"]);
    assert!(says(&r, "Defender Commanders roll for survival = no"));
    let before = with(&rs, "commander_check_hits", "before_reduction");
    let r = fc(&before, &[("forts", "1")], &["1", "6"]);
    assert!(says(&r, "Defender Commanders roll for survival = yes"));
}

#[test]
fn artillery_in_field_combat_ruling_l182_l186() {
    let rs = ruleset();
    let inputs = [
        ("attacker_fv3", "0"),
        ("attacker_artillery", "1"),
        ("attacker_artillery_fv", "4"),
    ];
    // As any other unit (L182): 3 ≤ 4 hits.
    let r = fc(&rs, &inputs, &["3", "6"]);
    assert_eq!(code(&r), "defender_defeated");
    // L186 read into Field Combat: no Engineer → fire value 1, 3 misses.
    let alt = with(&rs, "artillery_field_fire", "bombardment_rules");
    let r = fc(&alt, &inputs, &["3", "6"]);
    assert_eq!(derived(&r, "attacker_artillery_fire"), Value::Int(1));
    assert_eq!(code(&r), "attacker_defeated");
    let mut with_eng = inputs.to_vec();
    with_eng.push(("attacker_engineers", "true"));
    assert_eq!(code(&fc(&alt, &with_eng, &["3", "6"])), "defender_defeated");
}

#[test]
fn difficult_terrain_in_field_combat_l330() {
    let rs = ruleset();
    let inputs = [
        ("attack_into_difficult", "true"),
        ("attacker_fv3", "0"),
        ("attacker_fv4", "1"),
    ];
    // Basic: FV 4 hits on 4.
    assert_eq!(code(&fc(&rs, &inputs, &["4", "6"])), "defender_defeated");
    // Advanced: FV 4 attacking into difficult terrain fires at 3.
    let adv = with(&rs, "game", "advanced");
    assert_eq!(code(&fc(&adv, &inputs, &["4", "6"])), "attacker_defeated");
    // Commanders of LV 3: not reduced by default (ruling difficult_terrain_commanders).
    let cmd = [
        ("attack_into_difficult", "true"),
        ("attacker_fv3", "0"),
        ("attacker_cmd_lv3", "1"),
    ];
    assert_eq!(code(&fc(&adv, &cmd, &["3", "6"])), "defender_defeated");
    let reduced = with(&adv, "difficult_terrain_commanders", "reduced");
    assert_eq!(code(&fc(&reduced, &cmd, &["3", "6"])), "attacker_defeated");
}

#[test]
fn light_cavalry_incursion_defender_cannot_fire_l438() {
    let adv = with(&ruleset(), "game", "advanced");
    // Only the attacker's die is thrown.
    let r = fc(&adv, &[("light_cavalry_incursion", "true")], &["2"]);
    assert!(says(&r, "defender: no dice"));
    assert_eq!(code(&r), "defender_defeated");
}

#[test]
fn field_combat_odds_one_against_one() {
    let rs = ruleset();
    let p = rs.procedure("field_combat").unwrap();
    let pairs: Vec<(String, String)> = ONE_EACH
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    let o = odds(&rs, p, &parse_inputs(p, &pairs).unwrap()).unwrap();
    assert!(o.complete);
    // FV 3 each: the defender loses only if the attacker hits (1/2) and the defender misses (1/2).
    let def = o
        .outcomes
        .iter()
        .find(|x| x.code == "defender_defeated")
        .unwrap();
    assert_eq!(&def.count * 4u32, o.cases);
    let att = o
        .outcomes
        .iter()
        .find(|x| x.code == "attacker_defeated")
        .unwrap();
    assert_eq!(&att.count * 4u32, &o.cases * 3u32);
}

// ── Bombardment (L186–196) ─────────────────────────────────────────────────

#[test]
fn at16_fortress_bombardment_without_engineer_l186_l190() {
    let rs = ruleset();
    let inputs = [("printed_fire_value", "4"), ("wall_level", "3")];
    let r = run(&rs, "fortress_bombardment", &inputs, &["1"]);
    assert_eq!(derived(&r, "fire_value"), Value::Int(1));
    assert_eq!(code(&r), "level_reduced");
    assert_eq!(r.outcome.value, Some(2));
    assert_eq!(
        code(&run(&rs, "fortress_bombardment", &inputs, &["2"])),
        "no_effect"
    );
    assert_eq!(
        code(&run(&rs, "fortress_bombardment", &inputs, &["6"])),
        "artillery_eliminated"
    );
}

#[test]
fn at17_fortress_bombardment_with_engineer_and_breach_l186_l192() {
    let rs = ruleset();
    let eng = [
        ("printed_fire_value", "3"),
        ("engineers_present", "true"),
        ("wall_level", "2"),
    ];
    assert_eq!(
        code(&run(&rs, "fortress_bombardment", &eng, &["3"])),
        "level_reduced"
    );
    assert_eq!(
        code(&run(&rs, "fortress_bombardment", &eng, &["4"])),
        "no_effect"
    );
    let last = [
        ("printed_fire_value", "3"),
        ("engineers_present", "true"),
        ("wall_level", "1"),
    ];
    assert_eq!(
        code(&run(&rs, "fortress_bombardment", &last, &["2"])),
        "breach"
    );
    // Never below 0 (L192).
    let open = [
        ("printed_fire_value", "3"),
        ("engineers_present", "true"),
        ("wall_level", "0"),
    ];
    assert_eq!(
        code(&run(&rs, "fortress_bombardment", &open, &["1"])),
        "already_breached"
    );
}

#[test]
fn artillery_six_ruling_l186() {
    let rs = ruleset();
    let six = [
        ("printed_fire_value", "6"),
        ("engineers_present", "true"),
        ("wall_level", "2"),
    ];
    assert_eq!(
        code(&run(&rs, "fortress_bombardment", &six, &["6"])),
        "artillery_eliminated"
    );
    let alt = with(&rs, "artillery_six", "scores_then_eliminated");
    let r = run(&alt, "fortress_bombardment", &six, &["6"]);
    assert_eq!(code(&r), "level_reduced_gun_lost");
    assert_eq!(r.outcome.value, Some(1));
}

#[test]
fn at18_bombard_through_breach_ruling_l196() {
    let rs = ruleset();
    // With an Engineer: printed 3 − 1 = 2.
    let eng = [
        ("printed_fire_value", "3"),
        ("engineers_present", "true"),
        ("through_breach", "true"),
    ];
    let r = run(&rs, "bombard_units", &eng, &["2"]);
    assert_eq!(derived(&r, "fire_value"), Value::Int(2));
    assert_eq!(code(&r), "hit");
    assert_eq!(code(&run(&rs, "bombard_units", &eng, &["3"])), "miss");
    // Without an Engineer, literal reading: 1 − 1 = 0, a 1 misses.
    let bare = [("printed_fire_value", "3"), ("through_breach", "true")];
    let r = run(&rs, "bombard_units", &bare, &["1"]);
    assert_eq!(derived(&r, "fire_value"), Value::Int(0));
    assert_eq!(code(&r), "miss");
    // Other reading: never below 1.
    let alt = with(&rs, "breach_fire", "minimum_one");
    assert_eq!(code(&run(&alt, "bombard_units", &bare, &["1"])), "hit");
    // Besieged artillery firing out (no Breach): fire value 1 without an Engineer.
    assert_eq!(
        code(&run(
            &rs,
            "bombard_units",
            &[("printed_fire_value", "3")],
            &["1"]
        )),
        "hit"
    );
}

#[test]
fn at19_bombardment_hit_and_forts_ruling_l196_l236() {
    let rs = ruleset();
    let r = run(
        &rs,
        "bombard_units",
        &[("printed_fire_value", "3"), ("engineers_present", "true")],
        &["2"],
    );
    assert_eq!(code(&r), "hit");
    assert!(
        r.outcome
            .effects
            .iter()
            .any(|e| e.kind == umpire_core::rules::EffectKind::FollowUp
                && e.procedure.as_deref() == Some("commander_survival"))
    );
    let fort = [
        ("printed_fire_value", "3"),
        ("engineers_present", "true"),
        ("target_forts", "1"),
    ];
    assert_eq!(
        code(&run(&rs, "bombard_units", &fort, &["2"])),
        "hit_cancelled"
    );
    let alt = with(&rs, "fort_vs_bombardment", "field_combat_only");
    assert_eq!(code(&run(&alt, "bombard_units", &fort, &["2"])), "hit");
    assert_eq!(
        code(&run(&rs, "bombard_units", &fort, &["6"])),
        "artillery_eliminated"
    );
}

// ── Mines, counter-mines, reconstruction (L200–212) ──────────────────────────

#[test]
fn at20_mine_placement_l200() {
    let rs = ruleset();
    assert_eq!(
        code(&run(
            &rs,
            "mine_placement",
            &[("guastatori_fire_value", "2")],
            &["2"]
        )),
        "mine_placed"
    );
    assert_eq!(
        code(&run(
            &rs,
            "mine_placement",
            &[("guastatori_fire_value", "2")],
            &["3"]
        )),
        "no_mine"
    );
}

#[test]
fn at22_mine_explosion_l202() {
    let rs = ruleset();
    for (face, expected) in [
        ("1", "breach"),
        ("2", "breach"),
        ("3", "breach"),
        ("4", "no_effect"),
        ("5", "no_effect"),
        ("6", "mine_lost"),
    ] {
        assert_eq!(
            code(&run(&rs, "mine_explosion", &[], &[face])),
            expected,
            "d6 = {face}"
        );
    }
}

#[test]
fn at24_counter_mine_and_rebuild_l208_l212() {
    let rs = ruleset();
    assert_eq!(
        code(&run(
            &rs,
            "counter_mine",
            &[("guastatori_fire_value", "2")],
            &["1"]
        )),
        "mine_removed"
    );
    assert_eq!(
        code(&run(
            &rs,
            "counter_mine",
            &[("guastatori_fire_value", "2")],
            &["4"]
        )),
        "no_effect"
    );
    let r = run(
        &rs,
        "wall_reconstruction",
        &[
            ("guastatori_fire_value", "2"),
            ("wall_level", "1"),
            ("printed_level", "3"),
        ],
        &["2"],
    );
    assert_eq!(code(&r), "level_restored");
    assert_eq!(r.outcome.value, Some(2));
    // Capped at the printed level.
    assert_eq!(
        code(&run(
            &rs,
            "wall_reconstruction",
            &[
                ("guastatori_fire_value", "2"),
                ("wall_level", "3"),
                ("printed_level", "3")
            ],
            &["1"]
        )),
        "at_maximum"
    );
}

#[test]
fn rebuild_breach_ruling_l192_l212() {
    let rs = ruleset();
    let breach = [
        ("guastatori_fire_value", "2"),
        ("wall_level", "0"),
        ("printed_level", "3"),
    ];
    assert_eq!(
        code(&run(&rs, "wall_reconstruction", &breach, &["1"])),
        "level_restored"
    );
    let alt = with(&rs, "rebuild_breach", "not_allowed");
    assert_eq!(
        code(&run(&alt, "wall_reconstruction", &breach, &["1"])),
        "breach_cannot_be_rebuilt"
    );
}

// ── Stacking (L230) ──────────────────────────────────────────────────────────

#[test]
fn at25_at26_stacking_l230() {
    let rs = ruleset();
    // 8 infantry/cavalry, 5 in good order: 2 become Disorganized.
    let r = run(
        &rs,
        "stacking_check",
        &[("infantry_cavalry", "8"), ("good_order", "5")],
        &[],
    );
    assert_eq!(r.outcome.value, Some(2));
    // 8 with only 1 in good order: 1, nothing more.
    let r = run(
        &rs,
        "stacking_check",
        &[("infantry_cavalry", "8"), ("good_order", "1")],
        &[],
    );
    assert_eq!(r.outcome.value, Some(1));
    // 6 or fewer: nothing.
    let r = run(
        &rs,
        "stacking_check",
        &[("infantry_cavalry", "6"), ("good_order", "6")],
        &[],
    );
    assert_eq!(r.outcome.value, Some(0));
}

// ── Booty (L282) ─────────────────────────────────────────────────────────────

#[test]
fn at37_booty_l282() {
    let rs = ruleset();
    let r = run(
        &rs,
        "booty",
        &[("printed_vp", "0"), ("marker", "question_mark")],
        &["4"],
    );
    assert_eq!(r.outcome.value, Some(4));
    let r = run(
        &rs,
        "booty",
        &[("marker", "number"), ("printed_vp", "3")],
        &["6"],
    );
    assert_eq!(r.outcome.value, Some(3));
}

// ── Raids (advanced, L406–416) ───────────────────────────────────────────────

#[test]
fn at40_at41_raid_natural_results_l410_l411() {
    let rs = ruleset();
    let r = run(
        &rs,
        "raid",
        &[("raiders", "1"), ("enemy_units_and_forts", "3")],
        &["1"],
    );
    assert_eq!(code(&r), "success");
    let r = run(&rs, "raid", &[("raiders", "5")], &["6"]);
    assert_eq!(code(&r), "failure_disorganized");
}

#[test]
fn at42_raid_modifier_ruling_l412() {
    let rs = ruleset();
    let inputs = [("raiders", "3"), ("enemy_units_and_forts", "1")];
    let r = run(&rs, "raid", &inputs, &["2"]);
    assert_eq!(r.modified, Some(3));
    assert_eq!(code(&r), "success");
    assert_eq!(code(&run(&rs, "raid", &inputs, &["3"])), "failure");
    let alt = with(&rs, "raid_modifier", "ignored");
    assert_eq!(code(&run(&alt, "raid", &inputs, &["3"])), "success");
    assert_eq!(code(&run(&alt, "raid", &inputs, &["4"])), "failure");
}

#[test]
fn at43_raid_morale_gain_and_camp_ruling_l414_l416() {
    let rs = ruleset();
    assert_eq!(
        run(&rs, "raid", &[("raiders", "2")], &["1"]).outcome.value,
        Some(1)
    );
    assert_eq!(
        run(
            &rs,
            "raid",
            &[("raiders", "2"), ("enemy_camp", "true")],
            &["1"]
        )
        .outcome
        .value,
        Some(2)
    );
    let alt = with(&rs, "raid_camp_bonus", "three_in_all");
    assert_eq!(
        run(
            &alt,
            "raid",
            &[("raiders", "2"), ("enemy_camp", "true")],
            &["1"]
        )
        .outcome
        .value,
        Some(3)
    );
}

// ── Reinforcement groups (advanced, L446) ────────────────────────────────────

#[test]
fn at46_reinforcement_arrival_l446() {
    let rs = ruleset();
    assert_eq!(
        code(&run(
            &rs,
            "reinforcement_arrival",
            &[("turns_since_positioning", "1")],
            &["1"]
        )),
        "arrives"
    );
    assert_eq!(
        code(&run(
            &rs,
            "reinforcement_arrival",
            &[("turns_since_positioning", "1")],
            &["2"]
        )),
        "waits"
    );
    assert_eq!(
        code(&run(
            &rs,
            "reinforcement_arrival",
            &[("turns_since_positioning", "2")],
            &["2"]
        )),
        "arrives"
    );
}

#[test]
fn annihilation_outcomes_l154_l160() {
    let rs = ruleset();
    // One Disorganized defender (1 hit) hit once: annihilated, the attacker may remain.
    let r = fc(
        &rs,
        &[
            ("defender_two_hit_units", "0"),
            ("defender_one_hit_units", "1"),
        ],
        &["1", "6"],
    );
    assert_eq!(code(&r), "defender_annihilated");
    // One Disorganized attacker hit once: annihilated.
    let r = fc(
        &rs,
        &[
            ("attacker_two_hit_units", "0"),
            ("attacker_one_hit_units", "1"),
        ],
        &["6", "1"],
    );
    assert_eq!(code(&r), "attacker_annihilated");
    // Both (the text is silent on what follows, L160).
    let r = fc(
        &rs,
        &[
            ("attacker_two_hit_units", "0"),
            ("attacker_one_hit_units", "1"),
            ("defender_two_hit_units", "0"),
            ("defender_one_hit_units", "1"),
        ],
        &["1", "1"],
    );
    assert_eq!(code(&r), "both_annihilated");
}

#[test]
fn tables_quoted_from_the_text() {
    let rs = ruleset();
    // Activation options (L93–95): cards, areas, draws.
    let t = rs.table("activation_options").unwrap();
    let rows: Vec<String> = t
        .rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|c| c.text().to_string())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    assert_eq!(rows, ["2/1/0", "0/0/1", "1/leadership_value/0"]);
    // Morale bands (L394–400).
    let m = rs.table("morale_effects").unwrap();
    assert_eq!(
        m.rows[2]
            .cells
            .iter()
            .map(|c| c.text().to_string())
            .collect::<Vec<_>>(),
        ["1", "1", "no", "no"]
    );
    // Constants (L310, L378, L318, L230, L94, L402).
    let d = rs.table("supply_distances").unwrap();
    let vals: Vec<String> = d
        .rows
        .iter()
        .map(|r| r.cells[0].text().to_string())
        .collect();
    assert_eq!(vals, ["2", "3", "6", "6", "4", "1", "9"]);
}
