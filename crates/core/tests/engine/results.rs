//! Results that reach the counters (issue 26): a loss on a Force spread over its units by the
//! rule the ruleset declares, a status on a Force, and inputs prefilled from the Forces picked.
//! ailsh: seeds/000_73d28750ad550589.txt.

use std::collections::BTreeMap;

use umpire_core::game::effects::{FromGame, LossFrom, prefill, spread_loss};
use umpire_core::game::scenario::CounterKind;
use umpire_core::game::{Action, Actor, CounterChange, CounterId, Game};
use umpire_core::rules::Value;

/// A new game of ailsh Scenario 1 (Venice at bay, 1509).
fn venice(name: &str) -> Game {
    let path = crate::root().join("scenarios/ailsh/s1_venice_at_bay_1509.yaml");
    let source = umpire_core::rules::SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario file"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-results-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    static LIB: std::sync::OnceLock<umpire_core::rules::Library> = std::sync::OnceLock::new();
    let lib = LIB.get_or_init(umpire_core::rules::Library::shipped);
    Game::create(&dir.join("game.umpire"), &source, lib, Some(5)).expect("create")
}

/// The counters of Force `force`: (leaders, units), ids.
fn force(game: &Game, force: &str) -> (Vec<String>, Vec<String>) {
    let of = |kind: CounterKind| {
        game.state()
            .counters
            .values()
            .filter(|c| c.force.as_deref() == Some(force) && c.kind == kind)
            .map(|c| c.id.clone())
            .collect::<Vec<_>>()
    };
    (of(CounterKind::Leader), of(CounterKind::Unit))
}

fn strength(game: &Game, id: &str) -> i64 {
    match game.state().counters[id].attributes.get("strength_points") {
        Some(Value::Int(sp)) => *sp,
        other => panic!("{id} has no strength: {other:?}"),
    }
}

/// 8 (L734): "Attrition losses must be distributed as evenly as possible among the Combat Units
/// of a Force." An Attrition result given with the Capitano alone falls on his units, one SP
/// each for a loss of 3 over 3 units, never on him; confirming applies it in one entry.
#[test]
fn an_attrition_loss_is_spread_evenly_over_the_units_not_the_capitano() {
    let mut game = venice("attrition");
    let (leaders, units) = force(&game, "fr-chaumont");
    assert_eq!((leaders.len(), units.len()), (1, 3), "L1800–1803");
    let before: BTreeMap<String, i64> = units
        .iter()
        .map(|u| (u.clone(), strength(&game, u)))
        .collect();
    let me = Actor::umpire();
    let seqs = game
        .act(
            &me,
            Action::Resolve {
                procedure: "attrition".into(),
                inputs: vec![
                    ("trigger".into(), "attrition_segment".into()),
                    ("weather".into(), "fair".into()),
                    // Chaumont's Bonus star is printed on his counter, not in the text.
                    ("bonus_star".into(), "false".into()),
                ],
                physical: Some(vec!["3".into()]),
                chart_result: Some("3".into()),
                chart_confirmed: false,
                counters: BTreeMap::from([(
                    "force".to_string(),
                    vec![CounterId::new(leaders[0].clone())],
                )]),
                item: None,
            },
        )
        .expect("resolves");
    let seq = seqs[0];
    let proposals = game.proposals(seq).expect("proposals");
    let loss = proposals
        .iter()
        .find(|p| p.effect.kind == umpire_core::rules::EffectKind::SpLoss)
        .expect("a loss");
    assert!(
        loss.changes.iter().all(|c| c.counter() != leaders[0]),
        "the Capitano loses nothing: {:?}",
        loss.changes
    );
    assert_eq!(loss.changes.len(), 3, "{:?}", loss.changes);
    for c in &loss.changes {
        let CounterChange::Attribute { counter, to, .. } = c else {
            panic!("a strength change: {c:?}");
        };
        assert_eq!(*to, Value::Int(before[counter] - 1), "one SP each");
    }
    let said = loss.said.as_deref().unwrap_or_default();
    assert!(
        said.contains("as evenly as possible over 3 units (8, 15.1, 1.3.2)"),
        "{said}"
    );
    assert!(loss.choice.is_none(), "3 over 3 leaves no odd SP");
    let events = game.events().len();
    game.act(
        &me,
        Action::ApplyEffects {
            of: seq,
            changes: loss.changes.clone(),
        },
    )
    .expect("applies");
    assert_eq!(game.events().len(), events + 1, "one entry");
    for u in &units {
        assert_eq!(strength(&game, u), before[u] - 1);
    }
}

/// "As evenly as possible": the odd SP goes to the strongest unit and is said to be the owner's
/// choice; a Combat Unit brought to 0 is removed (1.3.2, L118); Siege Artillery, Field
/// Engineers and Pontoons never absorb (15.1, L1378); with no rule declared for a procedure the
/// proposal is even and said to be the umpire's choice.
#[test]
fn a_loss_spread_by_the_rule_removes_units_at_zero_and_leaves_auxiliaries() {
    let game = venice("spread");
    let rs = game.ruleset();
    let (_, vitelli) = force(&game, "ve-vitelli");
    let total: i64 = vitelli.iter().map(|u| strength(&game, u)).sum();
    assert_eq!(total, 3, "Vitelli: 2 + 1 SP (L1838–1841)");
    let spread = spread_loss(
        rs,
        game.state(),
        LossFrom::procedure(Some("assault")),
        &vitelli,
        2,
    );
    let removed: Vec<&CounterChange> = spread
        .changes
        .iter()
        .filter(|c| matches!(c, CounterChange::Remove { .. }))
        .collect();
    assert_eq!(
        removed.len(),
        1,
        "the 1-SP unit is removed: {:?}",
        spread.changes
    );
    assert!(
        spread
            .said
            .as_deref()
            .unwrap_or_default()
            .contains("12.1.7"),
        "{:?}",
        spread.said
    );
    // Louis XII's Force: its Field Engineers never absorb Attrition.
    let (_, louis) = force(&game, "fr-louis");
    let engineers: Vec<&String> = louis
        .iter()
        .filter(|u| {
            game.state().counters[*u].attributes.get("unit_type")
                == Some(&Value::Text("field_engineers".into()))
        })
        .collect();
    assert_eq!(engineers.len(), 1);
    let big = spread_loss(
        rs,
        game.state(),
        LossFrom::procedure(Some("attrition")),
        &louis,
        11,
    );
    assert!(big.changes.iter().all(|c| c.counter() != engineers[0]));
    assert!(
        big.choice
            .as_deref()
            .unwrap_or_default()
            .contains("owner's choice"),
        "11 SP over {} units leaves an odd SP: {:?}",
        louis.len() - 1,
        big.choice
    );
    // Pursuit Losses fall in the order 11.4 gives (Artillery, Infantry, Cavalry; Demoralised
    // first in each): Vitelli's Italian Infantry (2 SP) before his Stradiots (1 SP).
    let pursuit = spread_loss(
        rs,
        game.state(),
        LossFrom::procedure(Some("pursuit_losses")),
        &vitelli,
        2,
    );
    let infantry = vitelli
        .iter()
        .find(|u| {
            game.state().counters[*u]
                .name
                .starts_with("Italian Infantry")
        })
        .expect("infantry");
    assert!(
        pursuit.changes.iter().all(|c| c.counter() == infantry),
        "{:?}",
        pursuit.changes
    );
    assert!(
        pursuit
            .said
            .as_deref()
            .unwrap_or_default()
            .contains("taken in the order the rules give"),
        "{:?}",
        pursuit.said
    );
    // A procedure no loss rule governs (the Cavalry Charge): proposed evenly over Vitelli's
    // two units, said to be the umpire's choice.
    let none = spread_loss(
        rs,
        game.state(),
        LossFrom::procedure(Some("cavalry_charge")),
        &vitelli,
        1,
    );
    assert!(
        none.said
            .as_deref()
            .unwrap_or_default()
            .contains("the choice is the umpire's"),
        "{:?}",
        none.said
    );
}

/// A status on a Force: Disrupted on every unit; Demoralised falls on one Combat Unit (9.1,
/// 12.1.7), the owner's choice, never put on all of them.
#[test]
fn a_status_on_a_force_goes_on_every_unit_or_on_the_one_the_text_says() {
    let game = venice("status");
    let (leaders, units) = force(&game, "fr-chaumont");
    let all: Vec<String> = leaders.iter().chain(&units).cloned().collect();
    let rs = game.ruleset();
    let disrupted = umpire_core::game::effects::force_status(rs, game.state(), &all, "disrupted");
    assert_eq!(disrupted.changes.len(), units.len());
    let demoralised =
        umpire_core::game::effects::force_status(rs, game.state(), &all, "demoralised");
    assert!(demoralised.changes.is_empty());
    let choice = demoralised.choice.unwrap_or_default();
    assert!(
        choice.starts_with("Demoralised falls on one unit (9.1, 9.1.1)"),
        "{choice}"
    );
    assert!(choice.contains("French Gendarmes (Chaumont)"), "{choice}");
}

/// The Assault's inputs from the Forces picked: undemoralised SPs by Troop Quality (12.1,
/// L1258; Artillery and Demoralised units left out), the whole Force's SPs (11.5), each with
/// the units it came from; a Quality not known yet (printed on the counter) is not guessed.
#[test]
fn assault_inputs_are_prefilled_from_the_forces_picked() {
    let game = venice("prefill");
    let rs = game.ruleset();
    let assault = rs.procedure("assault").expect("assault");
    let (cl, cu) = force(&game, "fr-chaumont");
    let (vl, vu) = force(&game, "ve-vitelli");
    let ids = |l: &[String], u: &[String]| -> Vec<CounterId> {
        l.iter()
            .chain(u)
            .map(|i| CounterId::new(i.clone()))
            .collect()
    };
    let roles = BTreeMap::from([
        ("attacker".to_string(), ids(&cl, &cu)),
        ("defender".to_string(), ids(&vl, &vu)),
    ]);
    let find = |p: &[umpire_core::game::effects::Prefilled], name: &str| {
        p.iter().find(|f| f.input == name).cloned()
    };
    // The Gendarmes' Quality is printed on the counter, not in the text: no Quality sums.
    let unknown = prefill(
        assault,
        game.state(),
        game.events(),
        FromGame {
            ruleset: Some(rs),
            scheduled: None,
        },
        &roles,
    );
    assert!(find(&unknown, "attacker_q2_sp").is_none(), "{unknown:?}");
    let whole = find(&unknown, "attacker_force_sp").expect("whole Force SPs");
    let sum: i64 = cu.iter().map(|u| strength(&game, u)).sum();
    assert_eq!(whole.value, Value::Int(sum));
    assert_eq!(whole.from.len(), cu.len(), "the units, not the Capitano");
    // With the Qualities read off the counters (3 for the Gendarmes, one Infantry Demoralised).
    let mut state = game.state().clone();
    let gendarmes = cu
        .iter()
        .find(|u| state.counters[*u].name.starts_with("French Gendarmes"))
        .expect("Gendarmes")
        .clone();
    let infantry: Vec<String> = cu.iter().filter(|u| **u != gendarmes).cloned().collect();
    let c = state.counters.get_mut(&gendarmes).expect("Gendarmes");
    c.attributes.insert("troop_quality".into(), Value::Int(3));
    c.unknown.retain(|a| a != "troop_quality");
    state
        .counters
        .get_mut(&infantry[0])
        .expect("infantry")
        .statuses
        .insert("demoralised".into());
    let known = prefill(
        assault,
        &state,
        game.events(),
        FromGame {
            ruleset: Some(rs),
            scheduled: None,
        },
        &roles,
    );
    let q3 = find(&known, "attacker_q3_sp").expect("Quality 3 SPs");
    assert_eq!(q3.value, Value::Int(strength(&game, &gendarmes)));
    assert_eq!(q3.from, vec![gendarmes.clone()]);
    let q2 = find(&known, "attacker_q2_sp").expect("Quality 2 SPs");
    assert_eq!(
        q2.value,
        Value::Int(strength(&game, &infantry[1])),
        "the Demoralised Infantry does not count (12.1)"
    );
    assert_eq!(
        find(&known, "attacker_q1_sp").map(|f| f.value),
        Some(Value::Int(0))
    );
}
