//! Written orders declared by the rulesets (issue 29, item 1): what the shipped "All is lost
//! save Honour" and "Renaissance and Reformation III" declarations say, that the other rulesets
//! declare none, and the form a scenario gives one side (its Forces, the Orders with their AP
//! cost from the Orders Table; an army's moves and areas by name).

use std::collections::BTreeMap;

use umpire_core::game::orders::{FormInput, OrderForm, order_form};
use umpire_core::game::scenario::{CounterKind, CounterSpec, Position, Scenario, ScenarioLibrary};
use umpire_core::rules::{
    LateOrderKind, Library, OrderEach, OrderFieldKind, OrderFrom, OrderRevealAt, OrderRevealTo,
    Value,
};

use crate::common::shipped;

fn scenario(id: &str) -> Scenario {
    let lib = ScenarioLibrary::shipped(&Library::shipped());
    lib.get(id)
        .unwrap_or_else(|| panic!("scenario {id} does not load"))
        .clone()
}

/// The choices of the field `field` of the entry named `name`: choice id → (cost, restrictions).
fn choices(
    form: &OrderForm,
    name: &str,
    field: &str,
) -> (BTreeMap<String, Option<i64>>, Option<String>, Vec<String>) {
    let entry = form
        .entries
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no entry {name}: {:?}", form.entries));
    let f = entry
        .fields
        .iter()
        .find(|f| f.field == field)
        .expect("field");
    let FormInput::Choose {
        choices,
        cost_column,
    } = &f.input
    else {
        panic!("{field} is not a choice");
    };
    let costs = choices
        .iter()
        .map(|c| (c.id.clone(), c.cost.as_ref().and_then(|c| c.amount)))
        .collect();
    let restricted = choices
        .iter()
        .filter(|c| !c.restrictions.is_empty())
        .map(|c| c.id.clone())
        .collect();
    (costs, cost_column.clone(), restricted)
}

#[test]
fn ailsh_declares_the_command_phase_orders_from_the_orders_table() {
    let rs = shipped("ailsh");
    let due = rs.orders_due("b2d_issue_orders");
    assert_eq!(due.len(), 1);
    let o = due[0];
    assert_eq!((o.name.as_str(), o.rule.as_str()), ("Orders", "5.2, 5.3"));
    assert_eq!(o.from, OrderFrom::Side);
    assert_eq!(o.each, OrderEach::Force);
    let OrderFieldKind::TableRow { table, cost } = &o.field("order").expect("order").kind else {
        panic!("the Order is a row of a table");
    };
    assert_eq!(table, "orders", "the choices are the Orders Table's rows");
    let cost = cost.as_ref().expect("a cost");
    assert_eq!(cost.unit, "AP");
    assert_eq!(
        cost.columns.last().map(|c| c.column.as_str()),
        Some("minor_force")
    );
    // The text sets no deadline: the declaration says so rather than inventing one.
    assert_eq!(o.late.kind, LateOrderKind::NotStated);
    assert!(
        o.late
            .text
            .contains("say nothing of an Order not given in time")
    );
    assert!(o.reveals.iter().all(|r| r.to == OrderRevealTo::Others));
    assert!(
        o.reveals
            .iter()
            .any(|r| r.at == OrderRevealAt::Visibility(vec!["order_marker".into()]))
    );
    assert!(
        o.reveals
            .iter()
            .any(|r| r.at == OrderRevealAt::Steps(vec!["step_3a".into()]) && r.from.rule == "11.4")
    );
    assert!(rs.orders_due("c2b_activate").is_empty());
}

#[test]
fn rr3_declares_intention_cards_at_every_movement_step() {
    let rs = shipped("rr3");
    let steps = [
        "phase_2_step_1",
        "phase_2_step_2",
        "phase_3_step_1",
        "phase_3_step_2",
        "phase_5_step_1",
        "phase_5_step_2",
    ];
    for step in steps {
        let names: Vec<&str> = rs
            .orders_due(step)
            .iter()
            .map(|o| o.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "Intention Card",
                "Fleet movement (written down as for armies)"
            ],
            "{step}"
        );
    }
    assert!(rs.orders_due("phase_2_pay").is_empty());
    let o = rs.order_kind("intention_card").expect("declared");
    assert_eq!(o.from, OrderFrom::ArmyCommander);
    assert_eq!(o.late.kind, LateOrderKind::MissesStep);
    assert!(o.late.text.contains("they will miss that step"));
    assert_eq!(o.rule, "The Campaign System › Movement");
    let fields: Vec<&str> = o.fields.iter().map(|f| f.label.as_str()).collect();
    assert_eq!(
        fields,
        ["Move", "Area(s) to be moved through", "Intention to engage"]
    );
    assert!(matches!(
        o.field("areas").expect("areas").kind,
        OrderFieldKind::Areas { max: 2, .. }
    ));
    assert_eq!(o.reveals[0].to, OrderRevealTo::Control(vec!["map".into()]));
    assert_eq!(o.reveals[0].at, OrderRevealAt::StepStart);
    assert_eq!(
        (&o.reveals[1].to, &o.reveals[1].at),
        (&OrderRevealTo::Others, &OrderRevealAt::AsCarriedOut)
    );
}

#[test]
fn the_other_rulesets_declare_no_orders() {
    for id in ["arquebus", "gradisca", "qrs"] {
        assert!(shipped(id).orders.is_empty(), "{id}");
    }
}

#[test]
fn an_ailsh_side_is_offered_its_forces_and_the_orders_with_their_ap_cost() {
    let rs = shipped("ailsh");
    let s = scenario("ailsh_1_venice_at_bay_1509");
    let kind = rs.order_kind("orders").expect("declared");
    let french = order_form(rs, &s, kind, "french").expect("a form");
    let names: Vec<&str> = french.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["Louis XII", "Chaumont", "Roquebertin"]);
    assert!(french.areas.is_empty(), "Orders name no areas");
    // Chaumont's is a Minor Force: 1 AP for Manoeuvre and Attack (6.1, L494); the other costs are
    // on the chart sheet, not in the text.
    let (costs, column, restricted) = choices(&french, "Chaumont", "order");
    assert_eq!(column.as_deref(), Some("Minor Force"));
    assert_eq!(costs["manoeuvre"], Some(1));
    assert_eq!(costs["attack"], Some(1));
    assert_eq!(costs["garrison"], None);
    assert_eq!(restricted, ["garrison", "attack"]);
    // Louis XII is a Capitano Generale: a Major Force, whose costs the text does not give…
    let (costs, column, _) = choices(&french, "Louis XII", "order");
    assert_eq!(column.as_deref(), Some("Major Force"));
    assert!(costs.values().all(Option::is_none), "{costs:?}");
    // …unless the ruling reads the Changing Orders example (5.3.2, L475).
    let reading = rs
        .with_rulings(&[("major_order_costs".into(), "l475_example".into())])
        .expect("a ruling");
    let kind = reading.order_kind("orders").expect("declared");
    let french = order_form(&reading, &s, kind, "french").expect("a form");
    let (costs, _, _) = choices(&french, "Louis XII", "order");
    assert_eq!((costs["manoeuvre"], costs["attack"]), (Some(2), Some(4)));
    // Naldi's Force is of 1 SP: it always pays 0 AP (6.1, L496).
    let venetian = order_form(rs, &s, kind, "venetian").expect("a form");
    let (costs, column, _) = choices(&venetian, "Naldi", "order");
    assert!(column.is_some_and(|c| c.contains("Light Cavalry or of 1 SP")));
    assert!(costs.values().all(|c| *c == Some(0)), "{costs:?}");
    assert!(order_form(rs, &s, kind, "swiss").is_err());
}

fn counter(id: &str, name: &str, side: &str, kind: &str, at: &str) -> CounterSpec {
    CounterSpec {
        id: id.into(),
        name: name.into(),
        printed: name.into(),
        side: side.into(),
        army: None,
        kind: CounterKind::Unit,
        attributes: BTreeMap::from([("unit_kind".to_string(), Value::Text(kind.into()))]),
        unknown: Vec::new(),
        position: Position::Area(at.into()),
        force: None,
    }
}

#[test]
fn an_rr3_team_is_offered_its_armies_the_moves_and_the_areas_by_name() {
    let rs = shipped("rr3");
    // The handbook gives no map: the organiser's set-up adds the areas and armies.
    let mut s = scenario("rr3_handbook_1524");
    s.counters.extend([
        counter("piedmont", "Piedmont", "france", "area", "Piedmont"),
        counter("lombardy", "Lombardy", "milan", "area", "Lombardy"),
        counter(
            "army-of-italy",
            "French army of Italy",
            "france",
            "army",
            "Piedmont",
        ),
        counter(
            "army-of-milan",
            "Milanese army",
            "milan",
            "army",
            "Lombardy",
        ),
    ]);
    let kind = rs.order_kind("intention_card").expect("declared");
    let form = order_form(rs, &s, kind, "france").expect("a form");
    let names: Vec<&str> = form.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["French army of Italy"]);
    assert_eq!(form.areas, ["Lombardy", "Piedmont"]);
    let fields = &form.entries[0].fields;
    let FormInput::Choose { choices, .. } = &fields[0].input else {
        panic!("the move is a choice");
    };
    assert_eq!(choices.len(), 5);
    assert_eq!(choices[0].label, "Move 1 area");
    assert!(choices.iter().all(|c| c.cost.is_none()));
    assert_eq!(fields[1].input, FormInput::Areas { max: 2 });
    assert_eq!(fields[2].input, FormInput::Flag);
    assert_eq!(fields[2].label, "Intention to engage");
}

#[test]
fn a_declared_order_reads_in_the_games_words() {
    let rs = shipped("ailsh");
    let words = rs.order_words(rs.order_kind("orders").expect("declared"));
    let text = words.join("\n");
    assert_eq!(words[0], "Orders (5.2, 5.3)");
    assert!(
        text.contains(
            "Due at: B) Command Phase › 2. Organization Segment › d. Issue or re-issue Orders"
        ),
        "{text}"
    );
    assert!(text.contains("Holds: Order — one of the Orders Table — AP cost (Garrison, Stand, Manoeuvre, Attack, Retreat), its cost in AP"), "{text}");
    assert!(
        text.contains("A late order: not stated by the rules"),
        "{text}"
    );
    assert!(
        text.contains("at Combat and Attrition Phase") || text.contains("Step 3-a: Reorganization"),
        "{text}"
    );
    let rr3 = shipped("rr3");
    let text = rr3
        .order_words(rr3.order_kind("intention_card").expect("declared"))
        .join("\n");
    assert!(
        text.contains(
            "From: each army's commander, one entry for each of its counters with Kind: army"
        ),
        "{text}"
    );
    assert!(
        text.contains("A late order: misses the step — If players are not ready"),
        "{text}"
    );
    assert!(
        text.contains("Revealed: to Map Control, when the step it is due at begins"),
        "{text}"
    );
    // No ids in what users read.
    for id in [
        "intention_card",
        "phase_2_step_1",
        "army_commander",
        "misses_step",
        "fleet_movement",
        "unit_kind",
    ] {
        assert!(!text.contains(id), "{id} in {text}");
    }
}
