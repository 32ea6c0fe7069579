//! The `orders:` section's validation, tried on a small ruleset: what loads, and each
//! mistake named where it is written.

use super::*;

const RULESET: &str = r#"id: o
name: Orders test
units:
  - {name: unit_type, type: choice, choices: [foot, horse, area], label: Type}
  - {name: sp, type: int, min: 0, label: SP}
leaders:
  - {name: general, type: flag, label: General}
rulings:
  - {id: r, text: T, options: [{id: a, text: A}, {id: b, text: B}], default: a}
sequence_of_play:
  - {id: command, name: Command}
  - {id: move, name: Move}
visibility:
  enemy: hidden
  attributes:
    - {id: order_marker, attributes: [unit_type], rule: "5.2"}
orders:
  - id: orders
    name: Orders
    rule: "5.2"
    text: Orders are written.
    steps: [command]
    from: side
    each: force
    fields:
      - id: order
        label: Order
        kind: table_row
        table: costs
        rule: "5.3"
        cost: {unit: AP, columns: [{column: major, when: {leader: {attribute: general, is: true}, ruling: {r: b}}}, {column: minor}]}
        restrictions: [{choice: attack, text: "Not when demoralised.", rule: "5.3"}]
      - {id: engage, label: Intention to engage, kind: flag, rule: "5.3"}
    late: {kind: not_stated, text: The text says nothing., rule: "5.2"}
    reveal:
      - {to: others, at: visibility, visibility: [order_marker], text: Shown., rule: "5.2"}
      - {to: control, roles: [map], at: step_start, text: To Control., rule: "5.2"}
  - id: intentions
    name: Intention Card
    rule: "Movement"
    text: Written each step.
    steps: [move]
    from: army_commander
    each: counter
    each_counter: {attribute: unit_type, is: foot}
    fields:
      - {id: areas, label: Areas, kind: areas, max: 2, area_counters: {attribute: unit_type, is: area}, rule: "Movement"}
      - {id: step, label: Move, kind: choice, options: [{id: one, label: Move 1 area}, {id: stay, label: Remain}], rule: "Movement"}
    late: {kind: misses_step, text: They miss the step., rule: "Movement"}
    reveal:
      - {to: others, at: as_carried_out, text: As they move., rule: "Movement"}
"#;

const TABLE: &str = "id: costs\ntitle: Costs\nrow_key: name\ncolumn_key: name\ncolumns: [minor, major]\nrows:\n  - {key: stand, cells: [0, \"?\"]}\n  - {key: attack, cells: [1, 4]}\n";

fn load(text: &str) -> Result<Ruleset, Vec<String>> {
    let files = RulesetFiles {
        ruleset: SourceFile {
            name: "ruleset.yaml".into(),
            text: text.into(),
        },
        tables: vec![SourceFile {
            name: "costs.yaml".into(),
            text: TABLE.into(),
        }],
    };
    load_ruleset(&files).map_err(|LoadErrors(errors)| {
        errors
            .iter()
            .map(|e| format!("{}:{}:{}: {}", e.file, e.line, e.column, e.problem))
            .collect()
    })
}

/// The problems of the test ruleset with `from` replaced by `to` (once).
#[track_caller]
fn refused(from: &str, to: &str) -> Vec<String> {
    assert_eq!(
        RULESET.matches(from).count(),
        1,
        "{from} once in the ruleset"
    );
    match load(&RULESET.replacen(from, to, 1)) {
        Ok(_) => panic!("{from} → {to} loads"),
        Err(e) => e,
    }
}

#[track_caller]
fn says(problems: &[String], needle: &str) {
    assert!(
        problems.iter().any(|p| p.contains(needle)),
        "no problem says {needle:?}: {problems:#?}"
    );
}

#[test]
fn a_declaration_loads_with_what_it_says() {
    let r = load(RULESET).unwrap_or_else(|e| panic!("{e:#?}"));
    let due: Vec<&str> = r
        .orders_due("command")
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(due, ["Orders"]);
    assert!(r.orders_due("nowhere").is_empty());
    let o = r.order_kind("intentions").expect("declared");
    assert_eq!(o.late.kind, LateOrderKind::MissesStep);
    assert_eq!(o.from, OrderFrom::ArmyCommander);
    assert_eq!(
        o.each,
        OrderEach::Counter(CounterTest {
            attribute: "unit_type".into(),
            is: Value::Text("foot".into())
        })
    );
    let OrderFieldKind::TableRow { table, cost } = &r.orders[0].fields[0].kind else {
        panic!("a table row");
    };
    assert_eq!(table, "costs");
    let cost = cost.as_ref().expect("a cost");
    assert_eq!(cost.columns[0].when.rulings, [("r".into(), "b".into())]);
    assert_eq!(
        r.orders[0].reveals[1].to,
        OrderRevealTo::Control(vec!["map".into()])
    );
}

#[test]
fn unknown_names_are_refused_where_they_are_written() {
    let p = refused("steps: [command]", "steps: [commnd]");
    says(
        &p,
        "ruleset.yaml:22:13: orders[0].steps[0]: 'commnd' is not a step",
    );
    says(
        &refused("table: costs", "table: cost"),
        "orders[0].fields[0].table: unknown table 'cost'",
    );
    says(
        &refused("{column: minor}", "{column: minr}"),
        "table 'costs' has no column 'minr'",
    );
    says(
        &refused("roles: [map]", "roles: [mapp]"),
        "orders[0].reveal[1].roles[0]: 'mapp' is not a Control role",
    );
    says(
        &refused("visibility: [order_marker]", "visibility: [orders_marker]"),
        "'orders_marker' is not an entry of the visibility: section",
    );
    says(
        &refused("attribute: general", "attribute: generl"),
        "unknown attribute 'generl'",
    );
    says(
        &refused("ruling: {r: b}", "ruling: {r: c}"),
        "ruling 'r' has no option 'c'",
    );
    says(
        &refused("choice: attack", "choice: charge"),
        "'charge' is not a choice of this field",
    );
    says(
        &refused("from: army_commander", "from: general"),
        "unknown variant `general`",
    );
    says(
        &refused("{to: others, at: as_carried_out", "{to: others, at: steps"),
        "`at: steps` names no step",
    );
}

#[test]
fn empty_fields_and_twice_used_ids_are_refused() {
    says(
        &refused("name: Intention Card", "name: \" \""),
        "orders[1].name: empty name",
    );
    says(
        &refused(
            "late: {kind: misses_step, text: They miss the step.",
            "late: {kind: misses_step, text: \"\"",
        ),
        "orders[1].late.text: empty text",
    );
    says(
        &refused("rule: \"Movement\"\n    text", "rule: \"L596\"\n    text"),
        "rule 'L596' is not a rule as the rulebook numbers it",
    );
    says(
        &refused("id: intentions", "id: orders"),
        "order id 'orders' is used twice",
    );
    says(
        &refused("{id: engage,", "{id: order,"),
        "field id 'order' is used twice",
    );
    says(
        &refused("{id: stay, label: Remain}", "{id: one, label: Remain}"),
        "option id 'one' is used twice",
    );
    says(
        &refused("kind: areas, max: 2,", "kind: areas,"),
        "an areas field needs the most areas",
    );
    says(
        &refused("    each_counter: {attribute: unit_type, is: foot}\n", ""),
        "`each: counter` needs each_counter",
    );
    says(
        &refused("steps: [move]", "steps: []"),
        "an order due at no step",
    );
}
