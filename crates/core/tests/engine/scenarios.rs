//! Scenarios: the shipped files load, the "All is lost save Honour" scenarios carry the Strength
//! Points the rule book gives (seed 000, L… references), calendars and schedules land on the
//! right turns, and malformed files fail with located errors and a fix-it hint.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use umpire_core::game::scenario::{
    CounterKind, CounterSpec, Position, Scenario, ScenarioLibrary, distribute_sp,
    five_day_calendar, load_scenario, shipped_scenarios,
};
use umpire_core::rules::{Library, LoadError, SourceFile, Value};

fn rulesets() -> &'static Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(Library::shipped)
}

fn scenarios() -> &'static ScenarioLibrary {
    static LIB: OnceLock<ScenarioLibrary> = OnceLock::new();
    LIB.get_or_init(|| ScenarioLibrary::shipped(rulesets()))
}

fn scenario(id: &str) -> &'static Scenario {
    let lib = scenarios();
    lib.get(id).unwrap_or_else(|| {
        panic!(
            "scenario {id} does not load: {}",
            lib.failed
                .iter()
                .map(|(f, e)| format!("{f}: {e}"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    })
}

/// Strength Points of combat units by side.
fn sp_by_side<'a>(counters: impl Iterator<Item = &'a CounterSpec>) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for c in counters {
        if let Some(Value::Int(sp)) = c.attributes.get("strength_points") {
            *out.entry(c.side.clone()).or_insert(0) += sp;
        }
    }
    out
}

fn totals(pairs: &[(&str, i64)]) -> BTreeMap<String, i64> {
    pairs.iter().map(|(s, n)| (s.to_string(), *n)).collect()
}

fn reinforcement_sp(s: &Scenario, turn_label: &str) -> BTreeMap<String, i64> {
    let turn = s
        .turn_of(turn_label)
        .unwrap_or_else(|| panic!("{turn_label} not in {:?}", s.calendar));
    sp_by_side(
        s.reinforcements
            .iter()
            .filter(|r| r.turn == turn)
            .flat_map(|r| &r.counters),
    )
}

#[test]
fn every_shipped_scenario_loads() {
    let lib = scenarios();
    let failed: Vec<String> = lib
        .failed
        .iter()
        .map(|(f, e)| format!("{f}:\n{e}"))
        .collect();
    assert!(
        failed.is_empty(),
        "failed scenarios:\n{}",
        failed.join("\n")
    );
    assert_eq!(lib.scenarios.len(), shipped_scenarios().len());
    for ruleset in ["ailsh", "rr3", "qrs", "arquebus", "gradisca"] {
        assert!(
            lib.for_ruleset(ruleset).next().is_some(),
            "no scenario for {ruleset}"
        );
    }
    assert_eq!(lib.for_ruleset("ailsh").count(), 5);
}

// Expected SP totals, summed by hand from the rule book's set-up lists.

#[test]
fn s1_venice_at_bay_sp_totals() {
    let s = scenario("ailsh_1_venice_at_bay_1509");
    // French: L1790–1795 (19+2+14+16+5 = 56), L1802–1803 (6+12 = 18), L1807–1808 (2+6 = 8).
    // Venetian: L1825–1828 (20+12+12+2 = 46), L1833–1836 (3+3+8+8 = 22), L1840–1841 (2+1),
    // L1845 (1).
    assert_eq!(
        sp_by_side(s.counters.iter()),
        totals(&[("french", 82), ("venetian", 72)])
    );
    assert!(s.reinforcements.is_empty(), "No reinforcements (L1857)");
}

#[test]
fn s2_last_triumph_of_the_swiss_sp_totals() {
    let s = scenario("ailsh_2_last_triumph_of_the_swiss_1513");
    // French: L1948–1962 (9+12+2+8+1 = 32). Swiss: L1982–1984 (8+2 = 10).
    assert_eq!(
        sp_by_side(s.counters.iter()),
        totals(&[("french", 32), ("swiss", 10)])
    );
    // June, 1: L2004, L2008 (5+5); June, 2: L2020 (6).
    assert_eq!(reinforcement_sp(s, "June, 1"), totals(&[("swiss", 10)]));
    assert_eq!(reinforcement_sp(s, "June, 2"), totals(&[("swiss", 6)]));
}

#[test]
fn s3_francois_first_time_sp_totals() {
    let s = scenario("ailsh_3_francois_first_time_1515");
    // French Coalition: L2102–2110 (26+16+11+3+7 = 63), L2120–2122 (4+8+8 = 20), L2129 (2).
    // Anti-French: L2148–2149 (16+8 = 24), L2156 (2), L2164–2166 (4+1+12 = 17), L2171 (2).
    assert_eq!(
        sp_by_side(s.counters.iter()),
        totals(&[("french_coalition", 85), ("anti_french", 45)])
    );
    // August, 5: Venetians L2196–2198 (18+3+6 = 27), Papal L2207–2209 (4+2+8 = 14).
    assert_eq!(
        reinforcement_sp(s, "August, 5"),
        totals(&[("french_coalition", 27), ("anti_french", 14)])
    );
    // September, 1: L2219 (32).
    assert_eq!(
        reinforcement_sp(s, "September, 1"),
        totals(&[("french_coalition", 32)])
    );
    // Special Rule 5, Roist: L2247 (40).
    let roist = s
        .conditional_reinforcements
        .iter()
        .find(|r| r.rule == "swiss_reinforcements")
        .expect("Roist's Swiss");
    assert_eq!(
        sp_by_side(roist.counters.iter()),
        totals(&[("anti_french", 40)])
    );
}

#[test]
fn s4_french_lose_the_duchy_sp_totals() {
    let s = scenario("ailsh_4_french_lose_the_duchy_1522");
    // French Coalition: L2403–2410 (2+14+4+9+9 = 38), L2418–2420 (8+2+2 = 12).
    // Imperial: L2432–2437 (3+2+5+2+12+8 = 32), L2445 (3), L2449–2450 (4+3), L2454 (4).
    assert_eq!(
        sp_by_side(s.counters.iter()),
        totals(&[("french_coalition", 50), ("imperial", 46)])
    );
    // March, 3: L2470–2471 (1+4); March, 5: L2479–2480 (12+2).
    assert_eq!(
        reinforcement_sp(s, "March, 3"),
        totals(&[("french_coalition", 5)])
    );
    assert_eq!(reinforcement_sp(s, "March, 5"), totals(&[("imperial", 14)]));
}

#[test]
fn s5_struggle_for_the_duchy_sp_totals() {
    let s = scenario("ailsh_5_struggle_for_the_duchy_1524");
    // French: L2598–2601 (10+8+6+22 = 46), L2609–2611 (2+6+2 = 10), L2615–2617 (5+2+10 = 17).
    // Imperial: L2637–2638 (12+1 = 13), L2644–2647 (4+2+4+10 = 20).
    assert_eq!(
        sp_by_side(s.counters.iter()),
        totals(&[("french", 73), ("imperial", 33)])
    );
    // December, 1: L2666 (12); December, 2: L2676–2677 (4+4); January, 2: L2685–2686 (4+4).
    assert_eq!(
        reinforcement_sp(s, "December, 1"),
        totals(&[("imperial", 12)])
    );
    assert_eq!(reinforcement_sp(s, "December, 2"), totals(&[("french", 8)]));
    assert_eq!(
        reinforcement_sp(s, "January, 2"),
        totals(&[("imperial", 8)])
    );
    // Special Rules 1 and 2: Genova 10 (L2699–2700: 4+2), 11–12 (L2702–2703: 8+4), Tirolo
    // (L2715, L2719: 12+2).
    let conditional: BTreeMap<&str, i64> = s
        .conditional_reinforcements
        .iter()
        .map(|r| (r.id.as_str(), sp_by_side(r.counters.iter())["imperial"]))
        .collect();
    assert_eq!(
        conditional,
        BTreeMap::from([("genova_10", 6), ("genova_11_12", 12), ("tirolo", 14)])
    );
}

#[test]
fn sp_are_split_evenly_within_the_printed_counters() {
    // "19 SP (2 x 10)" (L1790): 10 + 9.
    let s = scenario("ailsh_1_venice_at_bay_1509");
    let sp = |id: &str| s.counter(id).expect(id).attributes["strength_points"].clone();
    assert_eq!(sp("fr-louis-french-gendarmes-1"), Value::Int(10));
    assert_eq!(sp("fr-louis-french-gendarmes-2"), Value::Int(9));
    // "5 SP (3 x 2)" (L1795): 2 + 2 + 1.
    assert_eq!(sp("fr-louis-french-artillery-3"), Value::Int(1));
    assert_eq!(distribute_sp(11, &[8, 4]), Some(vec![7, 4])); // L2107: the 4 fills up
    assert_eq!(distribute_sp(12, &[8, 4]), Some(vec![8, 4])); // L2166
    assert_eq!(distribute_sp(18, &[8, 8, 4]), Some(vec![7, 7, 4])); // L2196
    assert_eq!(distribute_sp(1, &[4, 4]), None);
    assert_eq!(distribute_sp(13, &[8, 4]), None);
    // Every counter of every scenario holds between 1 and its maximum strength.
    for sc in &scenarios().scenarios {
        for c in sc.all_counters() {
            if let (Some(Value::Int(sp)), Some(Value::Int(max))) = (
                c.attributes.get("strength_points"),
                c.attributes.get("maximum_strength"),
            ) {
                assert!((1..=*max).contains(sp), "{}: {} of {max}", c.id, sp);
            }
        }
    }
}

#[test]
fn calendars_follow_the_turn_record_track() {
    let s1 = scenario("ailsh_1_venice_at_bay_1509");
    assert_eq!(s1.calendar.len(), 9);
    assert_eq!(s1.calendar[0], "April, 4 (1509)"); // L1751
    assert_eq!(s1.calendar[3], "May, 1");
    assert_eq!(s1.calendar[8], "May, 6");
    let s5 = scenario("ailsh_5_struggle_for_the_duchy_1524");
    assert_eq!(s5.calendar[0], "October, 6 (1524)"); // L2550
    assert_eq!(s5.turn_of("January, 1 (1525)"), Some(14)); // L2577
    assert_eq!(s5.turn_label(25), Some("February, 6"));
    assert_eq!(
        five_day_calendar(7, 4, 1515, 6, 12)
            .last()
            .map(String::as_str),
        Some("October, 3") // S3's last AP turn is its last turn (L2075)
    );
    // S1 AP turns May, 1 and May, 5 (L1768–1769), nominal, through the AP procedure.
    let french = s1
        .schedules
        .iter()
        .find(|x| x.id == "french_ap")
        .expect("french_ap");
    assert_eq!(french.turns, vec![4, 8]);
    assert_eq!(french.amounts, vec![(4, 4), (8, 4)]);
    assert_eq!(french.procedure.as_deref(), Some("administrative_points"));
    // S4: At Start and March, 1 both fall on turn 1 (L2365–2366), as two schedules.
    let s4 = scenario("ailsh_4_french_lose_the_duchy_1522");
    let at_start = s4
        .schedules
        .iter()
        .find(|x| x.id == "imperial_ap_at_start")
        .expect("at start");
    let nominal = s4
        .schedules
        .iter()
        .find(|x| x.id == "imperial_ap")
        .expect("nominal");
    assert_eq!(at_start.amounts, vec![(1, 7)]);
    assert_eq!(nominal.amounts, vec![(1, 2), (5, 4), (9, 4), (13, 2)]);
    // S2 uses no APs (L1926): its one schedule is Special Rule 2's Attack Order, no amount.
    let s2 = scenario("ailsh_2_last_triumph_of_the_swiss_1513");
    assert!(
        s2.schedules
            .iter()
            .all(|x| x.amounts.is_empty() && x.credit.is_none()),
        "{:?}",
        s2.schedules
    );
}

#[test]
fn hex_ids_keep_their_leading_zeros() {
    let s3 = scenario("ailsh_3_francois_first_time_1515");
    let novi = s3
        .forces
        .iter()
        .find(|f| f.id == "fr-de-prie")
        .expect("De Prie");
    assert_eq!(novi.position, Position::Hex("0213".into())); // L2118
    let genova = s3
        .supply_sources
        .iter()
        .find(|x| x.label.as_deref() == Some("the road to Genova"))
        .expect("Genova road");
    assert_eq!(genova.position, Position::Hex("0114".into())); // L2081
    let json = serde_json::to_string(&novi.position).expect("serialises");
    assert_eq!(json, r#"{"hex":"0213"}"#);
    let de_prie = s3.counter("de-prie").expect("De Prie counter");
    assert_eq!(de_prie.position, Position::Hex("0213".into()));
    assert_eq!(de_prie.force.as_deref(), Some("fr-de-prie"));
}

#[test]
fn unknown_ratings_are_marked_not_invented() {
    let s1 = scenario("ailsh_1_venice_at_bay_1509");
    let pitigliano = s1.counter("pitigliano").expect("Pitigliano");
    assert_eq!(pitigliano.kind, CounterKind::Leader);
    for rating in ["initiative", "rank", "bonus_star", "special_features"] {
        assert!(pitigliano.unknown.iter().any(|u| u == rating), "{rating}");
        assert!(!pitigliano.attributes.contains_key(rating), "{rating}");
    }
    assert_eq!(
        pitigliano.attributes["capitano_generale"],
        Value::Bool(true)
    );
    // Minor Capitani are rated 1 - 2 (Initiative - Rank) in the rules (L313).
    let minor = s1.counter("fr-minor-1").expect("minor");
    assert_eq!(minor.attributes["initiative"], Value::Int(1));
    assert_eq!(minor.attributes["rank"], Value::Int(2));
    assert!(!minor.unknown.iter().any(|u| u == "initiative"));
    // "[Q = 2][R = Sensitive]" is given (L1792); the other units' Quality is not.
    let picardie = s1
        .counter("fr-louis-french-infantry-picardie-1")
        .expect("Picardie");
    assert_eq!(picardie.attributes["troop_quality"], Value::Int(2));
    assert_eq!(
        picardie.attributes["reliability_class"],
        Value::Text("S".into())
    );
    let gendarmes = s1
        .counter("fr-louis-french-gendarmes-1")
        .expect("gendarmes");
    assert!(gendarmes.unknown.iter().any(|u| u == "troop_quality"));
    // Swiss reliability comes from Troops Reliability (L1861).
    let swiss = s1.counter("fr-louis-swiss-infantry-1").expect("swiss");
    assert_eq!(
        swiss.attributes["reliability_class"],
        Value::Text("V".into())
    );
}

// ---- Malformed files: one problem each, located.

const GOOD: &str = r#"id: test_scenario
ruleset: ailsh
title: Test
turns: 2
calendar: {start: {month: April, turn: 4, year: 1509}}
strength: {points: strength_points, maximum: maximum_strength}
sides:
  - {id: french, name: French, armies: [french]}
armies:
  - {id: french, name: French Army, side: french}
forces:
  - id: fr-a
    side: french
    army: french
    position: {hex: "0114"}
    units:
      - {name: French Gendarmes, sp: 9, counters: [{count: 1, max: 10}], attributes: {unit_type: heavy_cavalry}}
"#;

fn load(text: &str) -> Result<Scenario, Vec<LoadError>> {
    let file = SourceFile {
        name: "test.yaml".into(),
        text: text.into(),
    };
    load_scenario(&file, rulesets()).map_err(|e| e.0)
}

/// Loading `text` fails with one error at `line`:`column` whose problem contains `phrase` and
/// whose hint contains `hint`.
fn fails(text: &str, line: usize, column: usize, phrase: &str, hint: &str) {
    let errors = match load(text) {
        Ok(_) => panic!("loaded, expected an error containing {phrase:?}"),
        Err(e) => e,
    };
    let found = errors.iter().any(|e| {
        e.line == line && e.column == column && e.problem.contains(phrase) && e.hint.contains(hint)
    });
    assert!(
        found && errors.len() == 1,
        "expected one error at {line}:{column} with {phrase:?} / hint {hint:?}, got:\n{}",
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_good_fixture_loads() {
    let s = load(GOOD).expect("loads");
    assert_eq!(s.counters.len(), 1);
    assert_eq!(s.counters[0].position, Position::Hex("0114".into()));
    assert_eq!(s.calendar, vec!["April, 4 (1509)", "April, 5"]);
}

#[test]
fn unknown_field_is_located() {
    let text = GOOD.replace("title: Test\n", "title: Test\ncolour: red\n");
    fails(&text, 4, 1, "unknown field `colour`", "remove the field");
}

#[test]
fn hex_id_written_as_a_number_is_refused() {
    // 0114 unquoted: a string with leading zero to YAML 1.2, but we insist on quotes.
    let text = GOOD.replace(r#"{hex: "0114"}"#, "{hex: 0114}");
    fails(&text, 15, 21, "written as a number", "\"0114\"");
    let text = GOOD.replace(r#"{hex: "0114"}"#, "{hex: 2728}");
    fails(
        &text,
        15,
        21,
        "hex id 2728 is written as a number",
        "\"2728\"",
    );
}

#[test]
fn unknown_counter_attribute_is_located() {
    let text = GOOD.replace(
        "unit_type: heavy_cavalry",
        "unit_type: heavy_cavalry, morale: 3",
    );
    fails(
        &text,
        17,
        121,
        "unknown units attribute 'morale'",
        "troop_quality",
    );
    let text = GOOD.replace("unit_type: heavy_cavalry", "unit_type: dragoons");
    fails(&text, 17, 98, "'dragoons' is not one of", "");
}

#[test]
fn unknown_ruleset_is_located() {
    let text = GOOD.replace("ruleset: ailsh", "ruleset: napoleon");
    fails(&text, 2, 10, "unknown ruleset 'napoleon'", "ailsh");
}

#[test]
fn bad_positions_are_located() {
    let text = GOOD.replace(r#"{hex: "0114"}"#, r#"{hex: "114"}"#);
    fails(&text, 15, 21, "'114' is not a hex id", "4 digits");
    let text = GOOD.replace(r#"{hex: "0114"}"#, r#"{hex: "0114", area: Milano}"#);
    fails(&text, 15, 15, "exactly one of", "off_map");
    let text = GOOD.replace(r#"{hex: "0114"}"#, "{area: Milano}");
    fails(
        &text,
        15,
        15,
        "an area position, but ruleset 'ailsh' has hex geometry",
        "",
    );
}

#[test]
fn sp_outside_the_counters_is_refused() {
    let text = GOOD.replace("sp: 9,", "sp: 12,");
    fails(
        &text,
        17,
        38,
        "12 SP cannot be held by 1 counter",
        "1 ≤ sp ≤ 10",
    );
}

#[test]
fn turn_outside_the_calendar_is_refused() {
    let text = format!(
        "{GOOD}reinforcements:\n  - turn: \"May, 1\"\n    entry: {{hex: \"0114\"}}\n    forces: []\n"
    );
    fails(&text, 19, 11, "'May, 1' is not a turn", "April, 4 (1509)");
}

#[test]
fn free_and_area_positions_follow_the_ruleset_geometry() {
    // QRS: a free-form table in base units (geometry kind free).
    let qrs = r#"id: qrs_test
ruleset: qrs
title: Test
turns: 1
calendar: {labels: [Battle]}
sides: [{id: a, name: A}]
forces:
  - id: a-1
    side: a
    position: {x: 12.5, y: 3}
    units:
      - {name: Pike block, attributes: {troop_type: PK, discipline: B, vbu: 4}}
"#;
    let s = load(qrs).expect("qrs loads");
    assert_eq!(s.counters[0].position, Position::Free { x: 12.5, y: 3.0 });
    let json = serde_json::to_string(&s.counters[0].position).expect("serialises");
    assert_eq!(json, r#"{"free":{"x":12.5,"y":3.0}}"#);
    fails(
        &qrs.replace("{x: 12.5, y: 3}", r#"{hex: "0114"}"#),
        10,
        15,
        "a hex position, but ruleset 'qrs' has free-form geometry",
        "",
    );
    fails(
        &qrs.replace("{x: 12.5, y: 3}", "{x: 12.5}"),
        10,
        15,
        "needs both x and y",
        "",
    );
    // RR3: named areas.
    let rr3 = qrs
        .replace("ruleset: qrs", "ruleset: rr3")
        .replace("{x: 12.5, y: 3}", "{area: Lombardy}")
        .replace(
            "{troop_type: PK, discipline: B, vbu: 4}",
            "{unit_kind: army, strength_thousands: 20}",
        );
    let s = load(&rr3).expect("rr3 loads");
    assert_eq!(s.counters[0].position, Position::Area("Lombardy".into()));
    // An attribute out of its declared range.
    fails(
        &rr3.replace("strength_thousands: 20", "strength_thousands: 80"),
        12,
        78,
        "80 is out of range 0–70",
        "",
    );
}

#[test]
fn pools_and_breakdown_units_are_off_map_and_not_forces() {
    let s1 = scenario("ailsh_1_venice_at_bay_1509");
    // Four French and four Venetian Forces at start (L1788–1843).
    assert_eq!(s1.forces.len(), 7);
    // "French Gendarmes: (4 x 5)" (L1815): four breakdown counters, no SP of their own.
    let breakdown: Vec<&CounterSpec> = s1
        .counters
        .iter()
        .filter(|c| c.id.starts_with("fr-breakdown-french-gendarmes-"))
        .collect();
    assert_eq!(breakdown.len(), 4);
    for c in breakdown {
        assert_eq!(
            c.position,
            Position::OffMap("Breakdown Units available".into())
        );
        assert_eq!(c.force, None);
        assert_eq!(c.attributes["maximum_strength"], Value::Int(5));
        assert_eq!(c.attributes["breakdown_unit"], Value::Bool(true));
        assert!(!c.attributes.contains_key("strength_points"));
    }
    // Counters of a Force share its id and position.
    let chaumont: Vec<&CounterSpec> = s1
        .counters
        .iter()
        .filter(|c| c.force.as_deref() == Some("fr-chaumont"))
        .collect();
    assert_eq!(chaumont.len(), 4); // Chaumont, 1 Gendarmes, 2 Italian Infantry (L1800–1803)
    assert!(
        chaumont
            .iter()
            .all(|c| c.position == Position::Hex("2832".into()))
    );
}
