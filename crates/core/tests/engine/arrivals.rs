//! Reinforcements arriving (issue 26, item 3): scheduled ones at the ruleset's deployment step
//! (ailsh C.1, 2.2 and 7.1), conditional ones once the roll that brings them stands, each in
//! one action.

use umpire_core::game::arrivals::{arrival_changes, find_arrival};
use umpire_core::game::scenario::Position;
use umpire_core::game::sequence::{Pending, pending};
use umpire_core::game::{Action, Actor, Game};

fn game_of(file: &str, tag: &str) -> Game {
    let path = crate::root().join("scenarios/ailsh").join(file);
    let source = umpire_core::rules::SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario file"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-arrivals-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    Game::create(&dir.join("game.umpire"), &source, lib(), Some(5)).expect("create")
}

fn lib() -> &'static umpire_core::rules::Library {
    static LIB: std::sync::OnceLock<umpire_core::rules::Library> = std::sync::OnceLock::new();
    LIB.get_or_init(umpire_core::rules::Library::shipped)
}

fn step_index(game: &Game, step: &str) -> usize {
    game.steps()
        .iter()
        .position(|s| s.id == step)
        .unwrap_or_else(|| panic!("no step {step}"))
}

/// The pending items were the cursor at `turn` (a calendar label), `step`.
fn pending_at(game: &Game, turn: &str, step: &str) -> Vec<Pending> {
    let mut state = game.state().clone();
    state.cursor.turn = game.scenario().turn_of(turn).expect("turn");
    state.cursor.step = step_index(game, step);
    pending(game.ruleset(), game.scenario(), &state)
}

/// Walks the game to `turn`, `step`, or the first step after it that needs the umpire (Next
/// passes a step with nothing in it): every open mandatory item skipped with a reason, then
/// Next.
fn walk_to(game: &mut Game, turn: &str, step: &str) {
    let to = (
        game.scenario().turn_of(turn).expect("turn"),
        step_index(game, step),
    );
    let umpire = Actor::umpire();
    for _ in 0..500 {
        let c = &game.state().cursor;
        if (c.turn, c.step) >= to {
            assert_eq!(c.turn, to.0, "walked past the turn");
            return;
        }
        for p in pending(game.ruleset(), game.scenario(), game.state()) {
            if p.mandatory && !p.done {
                game.act(
                    &umpire,
                    Action::Skip {
                        item: p.key.clone(),
                        reason: "not played in this test".into(),
                    },
                )
                .expect("skip");
            }
        }
        game.act(&umpire, Action::Next).expect("next");
    }
    panic!("never reached {turn} {step}");
}

#[test]
fn scheduled_reinforcements_are_due_at_c1_not_at_the_turns_first_step() {
    let game = game_of("s3_francois_first_time_1515.yaml", "scheduled");
    // August, 5: Venetians and Papal arrive (Scenario 3 › Reinforcements; 2.2 C.1, 7.1).
    let key = format!(
        "reinforcements:{}",
        game.scenario().turn_of("August, 5").expect("turn")
    );
    let first = game.steps()[0].id.clone();
    for step in [first.as_str(), "phase_a_weather", "b2d_issue_orders"] {
        assert!(
            !pending_at(&game, "August, 5", step)
                .iter()
                .any(|p| p.key == key),
            "reinforcements offered at {step}"
        );
    }
    let at_c1 = pending_at(&game, "August, 5", "c1_reinforcements");
    let item = at_c1
        .iter()
        .find(|p| p.key == key)
        .unwrap_or_else(|| panic!("not at C.1: {at_c1:?}"));
    assert!(item.mandatory && !item.done, "{item:?}");
    assert!(item.label.starts_with("Reinforcements arrive"), "{item:?}");
}

#[test]
fn roist_arrives_at_4029_after_the_roll_that_brings_him_and_not_before() {
    let mut game = game_of("s3_francois_first_time_1515.yaml", "roist");
    let umpire = Actor::umpire();
    // Before any roll: Roist is nowhere among the items, and cannot be brought.
    assert!(
        !pending_at(&game, "August, 5", "c1_reinforcements")
            .iter()
            .any(|p| p.key == "arrival:swiss_roist")
    );
    let refused = find_arrival(
        game.ruleset(),
        game.scenario(),
        game.state(),
        Some("swiss_roist"),
    )
    .expect_err("not brought yet");
    assert!(refused.contains("has not brought them"), "{refused}");
    walk_to(&mut game, "August, 5", "b2d_issue_orders");
    // Special Rule 5 (L2241): a modified 5 or more, not a natural 6, brings them.
    game.act(
        &umpire,
        Action::Resolve {
            procedure: "swiss_reinforcements".into(),
            inputs: vec![("turns_after_august_5".into(), "0".into())],
            physical: Some(vec!["5".into()]),
            chart_result: None,
            chart_confirmed: false,
            counters: Default::default(),
            item: None,
        },
    )
    .expect("roll");
    walk_to(&mut game, "August, 5", "c1_reinforcements");
    let items = pending(game.ruleset(), game.scenario(), game.state());
    let item = items
        .iter()
        .find(|p| p.key == "arrival:swiss_roist")
        .unwrap_or_else(|| panic!("Roist not offered at C.1: {items:?}"));
    assert!(
        item.label.starts_with("Roist arrives at hex 4029"),
        "{item:?}"
    );
    assert!(item.mandatory && !item.done);
    // One action, one journal entry, every counter where the text puts it.
    let arrival = find_arrival(game.ruleset(), game.scenario(), game.state(), None)
        .expect("the scheduled August, 5 reinforcements come first");
    assert!(arrival.key.starts_with("reinforcements:"), "{arrival:?}");
    let roist = find_arrival(
        game.ruleset(),
        game.scenario(),
        game.state(),
        Some("swiss_roist"),
    )
    .expect("Roist is due");
    let (changes, reason) = arrival_changes(&roist, game.state(), None);
    assert_eq!(
        changes.len(),
        8,
        "Roist, Anglard, 4 Swiss Infantry, 2 breakdown units"
    );
    let before = game.events().len();
    let seqs = game
        .act(&umpire, Action::Change { changes, reason })
        .expect("they arrive");
    assert_eq!((seqs.len(), game.events().len()), (1, before + 1));
    let state = game.state();
    let at = |id: &str| state.counters[id].position.clone();
    assert_eq!(at("roist"), Position::Hex("4029".into()));
    let swiss_sp: i64 = state
        .counters
        .values()
        .filter(|c| {
            c.position == Position::Hex("4029".into())
                && c.kind == umpire_core::game::scenario::CounterKind::Unit
        })
        .filter_map(|c| match c.attributes.get("strength_points") {
            Some(umpire_core::rules::Value::Int(v)) => Some(*v),
            _ => None,
        })
        .sum();
    assert_eq!(swiss_sp, 40, "Swiss Infantry: 40 SP (4 x 10), L2247");
    assert!(
        state
            .counters
            .values()
            .filter(|c| c.position == Position::OffMap("Breakdown Units available".into()))
            .any(|c| c.id.starts_with("sw-roist-breakdown")),
        "the breakdown units go to their pool, not onto the map"
    );
    let items = pending(game.ruleset(), game.scenario(), game.state());
    assert!(
        items
            .iter()
            .find(|p| p.key == "arrival:swiss_roist")
            .is_some_and(|p| p.done),
        "{items:?}"
    );
    // Saved as a scenario: Roist on the map at his hex (a quoted hex id), the August, 5
    // reinforcements still to come, and it loads.
    let text = umpire_core::game::scenario::save::save_scenario(
        &game.meta().scenario_text,
        game.scenario(),
        game.state(),
        game.ruleset(),
        lib(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        text.contains("hex: '4029'") || text.contains("hex: \"4029\""),
        "hex ids stay strings"
    );
    let saved = umpire_core::game::scenario::load_scenario(
        &umpire_core::rules::SourceFile {
            name: "saved.yaml".into(),
            text,
        },
        lib(),
    )
    .expect("loads");
    assert_eq!(
        saved.counter("roist").map(|c| c.position.clone()),
        Some(Position::Hex("4029".into()))
    );
    assert!(
        saved.conditional_reinforcements.is_empty(),
        "Roist has arrived"
    );
    assert_eq!(
        saved.reinforcements.len(),
        game.scenario().reinforcements.len()
    );
    assert_eq!(
        saved.all_counters().count(),
        game.scenario().all_counters().count()
    );
}

#[test]
fn genova_arrives_the_turns_after_its_roll_the_table_gives() {
    let mut game = game_of("s5_struggle_for_the_duchy_1524.yaml", "genova");
    let umpire = Actor::umpire();
    let c1 = "c1_reinforcements";
    walk_to(&mut game, "November, 2", c1);
    // Two dice = 11: "2 turns after disembarkation" (L2701–2703).
    game.act(
        &umpire,
        Action::Resolve {
            procedure: "genova_expedition_force".into(),
            inputs: Vec::new(),
            physical: Some(vec!["5".into(), "6".into()]),
            chart_result: None,
            chart_confirmed: false,
            counters: Default::default(),
            item: None,
        },
    )
    .expect("roll");
    let offered = |game: &Game| {
        pending(game.ruleset(), game.scenario(), game.state())
            .iter()
            .any(|p| p.key == "arrival:genova_11_12")
    };
    assert!(!offered(&game), "not the turn of the roll");
    walk_to(&mut game, "November, 3", c1);
    assert!(!offered(&game), "not one turn after");
    walk_to(&mut game, "November, 4", c1);
    assert!(offered(&game), "two turns after, at C.1");
    assert!(
        !pending(game.ruleset(), game.scenario(), game.state())
            .iter()
            .any(|p| p.key == "arrival:genova_10"),
        "the other result's Force stays away"
    );
}
