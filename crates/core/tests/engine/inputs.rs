//! An input is asked for only when the result can depend on it (issue 24, deliverable 5):
//! worked out from the procedure (`resolve::needed`), not from hand-written conditions. A melee
//! Cohesion Test was refused without "Shot from"; every Field Combat without Artillery demanded
//! both Artillery fire values.

use std::collections::BTreeMap;

use umpire_core::rules::{InputKind, Library, Value};

use crate::common::{shipped, try_run};

#[test]
fn a_melee_cohesion_test_does_not_ask_where_it_was_shot_from() {
    let qrs = shipped("qrs");
    let r = try_run(
        qrs,
        "cohesion_test",
        &[("vbu", "6"), ("damage", "2"), ("test_from", "melee")],
        &["3"],
        None,
    )
    .unwrap_or_else(|e| panic!("a melee test needs no Shot from: {e}"));
    assert!(!r.inputs.contains_key("shot_range"), "{:?}", r.inputs);
    // Shooting still asks it: its modifiers read it.
    let e = try_run(
        qrs,
        "cohesion_test",
        &[("vbu", "6"), ("damage", "2"), ("test_from", "shooting")],
        &["3"],
        None,
    )
    .expect_err("a shot needs its range");
    assert!(e.to_string().contains("Shot from"), "{e}");
}

#[test]
fn a_field_combat_without_artillery_does_not_ask_artillery_fire_values() {
    let gradisca = shipped("gradisca");
    let r = try_run(
        gradisca,
        "field_combat",
        &[
            ("attacker_fv3", "1"),
            ("defender_fv3", "1"),
            ("attacker_two_hit_units", "1"),
            ("attacker_one_hit_units", "0"),
            ("defender_two_hit_units", "1"),
            ("defender_one_hit_units", "0"),
        ],
        &["2", "5"],
        None,
    )
    .unwrap_or_else(|e| panic!("no Artillery, no Artillery fire value: {e}"));
    assert_eq!(r.outcome.code, "defender_defeated");
    // With a gun on one side, that side's fire value is asked, the other's still not.
    let e = try_run(
        gradisca,
        "field_combat",
        &[
            ("attacker_fv3", "1"),
            ("defender_fv3", "1"),
            ("attacker_artillery", "1"),
            ("attacker_two_hit_units", "1"),
            ("attacker_one_hit_units", "0"),
            ("defender_two_hit_units", "1"),
            ("defender_one_hit_units", "0"),
        ],
        &["2", "5", "4"],
        None,
    )
    .expect_err("a gun needs its fire value");
    let said = e.to_string();
    assert!(
        said.contains("Attacker Artillery printed fire value"),
        "{said}"
    );
    assert!(!said.contains("Defender Artillery"), "{said}");
}

/// Every procedure of the five rulesets, with nothing given and with each choice given each of
/// its values: every input the engine then asks for is read by some expression of the
/// procedure (a modifier, a derived value, the lookup, an effect) — never one that cannot
/// change any outcome (the Cavalry Charge asked "Heavy or Light" of a table the text does not
/// give, read by nothing). And what it asks is a subset of what it asks with less given.
#[test]
fn no_procedure_asks_for_an_input_that_cannot_change_the_result() {
    use umpire_core::resolve::{ResolveError, prepare};
    let lib = Library::shipped();
    let mut idle = Vec::new();
    let mut cases = 0;
    for rs in &lib.rulesets {
        for p in &rs.procedures {
            // Every name any expression of the procedure reads, statically.
            let mut read: Vec<&str> = p.lookup.reads();
            for d in &p.derived {
                read.extend(d.expr.reads().iter().map(String::as_str));
            }
            for m in &p.modifiers {
                read.extend(m.when.iter().flat_map(|w| w.reads()).map(String::as_str));
                if let umpire_core::rules::ModifierValue::Expr(e) = &m.value {
                    read.extend(e.reads().iter().map(String::as_str));
                }
                if let umpire_core::rules::ModifierValue::Table(t) = &m.value {
                    for e in t.row.iter().chain(&t.column).chain(&t.line) {
                        read.extend(e.reads().iter().map(String::as_str));
                    }
                }
            }
            for o in &p.outcomes {
                for e in &o.effects {
                    read.extend(
                        e.when
                            .iter()
                            .chain(&e.amount)
                            .flat_map(|x| x.reads())
                            .map(String::as_str),
                    );
                }
            }
            let mut givens: Vec<BTreeMap<String, Value>> = vec![BTreeMap::new()];
            for i in &p.inputs {
                if let InputKind::Choice { choices } = &i.kind {
                    for c in choices {
                        givens.push(BTreeMap::from([(i.name.clone(), Value::Text(c.clone()))]));
                    }
                }
            }
            let asked = |given: &BTreeMap<String, Value>| -> Vec<String> {
                match prepare(rs, p, given) {
                    Err(ResolveError::MissingInputs { missing, .. }) => {
                        missing.into_iter().map(|m| m.name).collect()
                    }
                    _ => Vec::new(),
                }
            };
            let with_nothing = asked(&BTreeMap::new());
            for given in &givens {
                cases += 1;
                for name in asked(given) {
                    if !read.contains(&name.as_str()) {
                        idle.push(format!("{} › {} › {name} (given {given:?})", rs.id, p.id));
                    }
                    assert!(
                        with_nothing.contains(&name),
                        "{} › {}: {name} asked with {given:?} but not with nothing given",
                        rs.id,
                        p.id
                    );
                }
            }
        }
    }
    assert!(cases > 300, "every procedure and choice: {cases}");
    assert!(
        idle.is_empty(),
        "asked, yet nothing reads them:\n{}",
        idle.join("\n")
    );
}

/// What an expression still needs once what is known is evaluated: `false && x` and
/// `if(true, 1, x)` need no `x` (evalexpr alone evaluates every operand).
#[test]
fn partial_evaluation_needs_only_what_can_still_matter() {
    use std::collections::BTreeSet;
    use umpire_core::rules::{Expr, Partial, Scope};
    let e = Expr::compile("within_range && !leader_is_oc && oc != 0").expect("compiles");
    let mut s = Scope::new();
    s.set("within_range", Value::Bool(false));
    assert_eq!(e.partial(&s), Partial::Known(Value::Bool(false)));
    s.set("within_range", Value::Bool(true));
    assert_eq!(
        e.partial(&s),
        Partial::Open(BTreeSet::from([
            "leader_is_oc".to_string(),
            "oc".to_string()
        ]))
    );
    s.set("leader_is_oc", Value::Bool(true));
    assert_eq!(e.partial(&s), Partial::Known(Value::Bool(false)));
    let f = Expr::compile(r#"if(rule == "bombardment" && !engineers, 1, fire_value)"#)
        .expect("compiles");
    let mut s = Scope::new();
    s.set("rule", Value::Text("bombardment".into()));
    s.set("engineers", Value::Bool(false));
    assert_eq!(f.partial(&s), Partial::Known(Value::Int(1)));
    s.set("engineers", Value::Bool(true));
    assert_eq!(
        f.partial(&s),
        Partial::Open(BTreeSet::from(["fire_value".to_string()]))
    );
    let none = Scope::new();
    assert_eq!(
        f.partial(&none),
        Partial::Open(BTreeSet::from([
            "engineers".to_string(),
            "fire_value".to_string(),
            "rule".to_string()
        ]))
    );
}

/// The Continuation battle's Overall Commander effectiveness is asked only when it can count:
/// within range of an OC who is not the leader (arquebus 6.2).
#[test]
fn an_input_behind_a_false_guard_is_not_asked() {
    use umpire_core::resolve::needed::needed_inputs;
    let arquebus = shipped("arquebus");
    let p = arquebus
        .procedure("continuation_battle")
        .expect("the procedure");
    let mut known: BTreeMap<String, Value> = BTreeMap::new();
    for i in &p.inputs {
        if matches!(i.kind, InputKind::Flag) {
            known.insert(i.name.clone(), Value::Bool(false));
        }
    }
    assert!(!needed_inputs(arquebus, p, &known).contains("oc_effectiveness"));
    known.insert("within_oc_range".into(), Value::Bool(true));
    assert!(needed_inputs(arquebus, p, &known).contains("oc_effectiveness"));
}

/// The Skirmish's Larger Force (11.5) belongs to a Skirmish (`when:` on the derived value): a
/// Major Battle does not ask for the whole Forces' SPs nor shows a Larger Force; a Skirmish
/// asks for both and names the larger. No shipped ruleset keeps a hand-written `needed_when`.
#[test]
fn a_major_battle_does_not_ask_the_skirmish_force_sps() {
    let ailsh = shipped("ailsh");
    let common = [
        ("weather", "fair"),
        ("attacker_q2_sp", "6"),
        ("defender_q2_sp", "3"),
        ("odds_drm", "0"),
    ];
    let with = |battle: &'static str, more: &[(&'static str, &'static str)]| {
        let mut v: Vec<(&str, &str)> = vec![("battle", battle)];
        v.extend(common);
        v.extend_from_slice(more);
        v
    };
    let r = try_run(
        ailsh,
        "assault",
        &with("major_battle", &[]),
        &["4"],
        Some("X"),
    )
    .unwrap_or_else(|e| panic!("a Major Battle needs no Skirmish Force SPs: {e}"));
    assert!(
        !r.inputs.contains_key("attacker_force_sp"),
        "{:?}",
        r.inputs
    );
    assert!(r.derived.iter().all(|d| d.name != "larger_force"));
    assert!(!r.explanation.iter().any(|l| l.contains("Larger Force")));
    let e = try_run(ailsh, "assault", &with("skirmish", &[]), &["4"], Some("X"))
        .expect_err("a Skirmish needs the Force SPs");
    assert!(e.to_string().contains("whole attacking Force"), "{e}");
    let r = try_run(
        ailsh,
        "assault",
        &with(
            "skirmish",
            &[("attacker_force_sp", "4"), ("defender_force_sp", "9")],
        ),
        &["4"],
        Some("X"),
    )
    .expect("a Skirmish with its Force SPs");
    assert!(
        r.explanation
            .iter()
            .any(|l| l.contains("Larger Force") && l.ends_with("= Defender [11.5]")),
        "{:?}",
        r.explanation
    );
    for id in ["ailsh", "qrs", "arquebus", "gradisca", "rr3"] {
        for p in &shipped(id).procedures {
            assert!(
                p.inputs.iter().all(|i| i.needed_when.is_none()),
                "{id} {}: a hand-written needed_when",
                p.id
            );
        }
    }
}
