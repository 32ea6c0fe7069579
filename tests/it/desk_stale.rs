//! The Resolve panel never records a stale form (the issue: at the start of turn 2 the panel
//! still held turn 1's Attrition, its Weather "this turn's", its Force size from before Apply,
//! and R recorded it in turn 2's Weather Phase). Driven headless through the desk's labels and
//! keys, on "Venice at bay, 1509" played to the step each case needs.

use crate::kit;
use kit::{click, desk_at, labels_containing, type_into};

use std::path::PathBuf;

use eframe::egui;
use egui_kittest::Harness;

use umpire::app::{
    APPLY_LABEL, CHART_RESULT_LABEL, Command, DeskApp, GameDesk, PHYSICAL_DICE_LABEL,
    USE_CHART_LABEL, UiCommand,
};
use umpire::game::names::CounterId;
use umpire::game::steps::Whose;
use umpire::game::{Action, Actor, EventKind, Game, Names};
use umpire::rules::{Library, Value};

/// A fresh folder for one test's game file.
fn temp_game(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-desk-stale-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("game.umpire")
}

fn desk<'h>(harness: &'h Harness<'static, DeskApp>) -> &'h GameDesk {
    harness.state().game.as_ref().expect("a game is open")
}

/// The Force (id) a counter belongs to.
fn force_of(game: &Game, counter: &str) -> String {
    game.state().counters[counter]
        .force
        .clone()
        .expect("the counter is in a Force")
}

/// The Force's counters on the table, and their Strength Points in all.
fn force_now(game: &Game, force: &str) -> (Vec<CounterId>, i64) {
    let ids = Names::of(game).force_counters(force);
    let sp = ids
        .iter()
        .filter_map(|id| {
            match game.state().counters[id.as_str()]
                .attributes
                .get("strength_points")
            {
                Some(Value::Int(sp)) => Some(*sp),
                _ => None,
            }
        })
        .sum();
    (ids, sp)
}

/// The label of the button that opens the Force's open item of `procedure` under Pending.
fn item_button(harness: &Harness<'static, DeskApp>, force: &str, procedure: &str) -> String {
    let item = desk(harness)
        .game()
        .pending()
        .into_iter()
        .find(|p| {
            !p.done
                && p.procedure.as_deref() == Some(procedure)
                && p.whose == Some(Whose::Force(force.to_string()))
        })
        .unwrap_or_else(|| panic!("no open {procedure} item for {force}"));
    format!("Resolve {}", item.label)
}

/// An input as the Resolve panel's form holds it.
fn input(harness: &Harness<'static, DeskApp>, name: &str) -> Option<Value> {
    desk(harness).resolve.resolver.input(name).cloned()
}

/// An input the game filled in: its value and where it came from in words.
fn prefilled(harness: &Harness<'static, DeskApp>, name: &str) -> Option<(Value, Option<String>)> {
    desk(harness)
        .resolve
        .prefilled()
        .iter()
        .find(|f| f.input == name)
        .map(|f| (f.value.clone(), f.game.clone()))
}

fn run(harness: &mut Harness<'static, DeskApp>, command: Command) {
    harness.state_mut().shell.queue.push(command);
    harness.run();
}

/// Skips what stands in the way and goes on to the start of the next turn, through the desk's
/// own commands (Skip, Next).
fn on_to_next_turn(harness: &mut Harness<'static, DeskApp>) {
    let turn = desk(harness).game().status().turn;
    for _ in 0..40 {
        if desk(harness).game().status().turn > turn {
            return;
        }
        let open: Vec<String> = desk(harness)
            .game()
            .pending()
            .into_iter()
            .filter(|p| !p.done && p.mandatory)
            .map(|p| p.key)
            .collect();
        for item in open {
            run(
                harness,
                Command::Act(Action::Skip {
                    item,
                    reason: "nothing to resolve this turn".into(),
                }),
            );
        }
        run(harness, Command::Ui(UiCommand::Next));
        // The frame that ran the commands drew the panels before them: one more shows them.
        harness.run();
    }
    panic!("the turn does not end: {:?}", desk(harness).message());
}

/// The case: an Attrition resolved and applied in turn 1 leaves the Resolve panel
/// refreshed (its Force size re-read after Apply); at the start of turn 2 the form no longer
/// holds turn 1's Weather or reason, and R (or Enter) records nothing in turn 2's Weather
/// Phase, saying which procedure is open, that it belongs to an earlier step, and what to do.
#[test]
fn a_new_turn_clears_the_resolve_form_and_r_records_nothing_stale() {
    let path = temp_game("turn-two");
    let game = kit::venice_turn_one_until(&path, "d5_attrition");
    let force = force_of(&game, "chaumont");
    let (_, before) = force_now(&game, &force);
    drop(game);
    let mut harness = desk_at(&path);

    // Turn 1, the Attrition Segment: Chaumont's Force is in an enemy ZOC.
    let button = item_button(&harness, &force, "attrition");
    click(&mut harness, &button);
    assert_eq!(
        prefilled(&harness, "force_sp").map(|(v, _)| v),
        Some(Value::Int(before)),
        "the Force size comes from the Force's counters"
    );
    assert!(
        prefilled(&harness, "weather").is_some(),
        "this turn's Weather comes from the game: {:?}",
        desk(&harness).resolve.prefilled()
    );
    // R resolves it here (it was opened at this step); the chart's cells are not in the text.
    harness.key_press(egui::Key::R);
    harness.run();
    assert!(
        desk(&harness).resolve.pending_chart().is_some(),
        "R throws the dice: {:?}",
        desk(&harness).message()
    );
    type_into(&mut harness, CHART_RESULT_LABEL, "2");
    click(&mut harness, USE_CHART_LABEL);
    assert!(
        desk(&harness).resolve.resolved().is_some(),
        "{:?}",
        desk(&harness).message()
    );
    click(&mut harness, APPLY_LABEL);
    let (_, after) = force_now(desk(&harness).game(), &force);
    assert_eq!(after, before - 2, "Apply took the 2 SPs off the Force");
    // The applied result refreshes the form: the Force size is read again, the result gone.
    assert_eq!(
        prefilled(&harness, "force_sp").map(|(v, _)| v),
        Some(Value::Int(after)),
        "the Force size after Apply"
    );
    assert_eq!(input(&harness, "force_sp"), Some(Value::Int(after)));
    assert!(desk(&harness).resolve.resolved().is_none());

    on_to_next_turn(&mut harness);
    let status = desk(&harness).game().status();
    assert_eq!(
        (status.turn, status.step.id.as_str()),
        (2, "phase_a_weather")
    );
    // The Attrition is still open, but its form is turn 2's: no turn-1 Weather, no reason
    // typed for turn 1, the Force size as the Force stands.
    assert_eq!(desk(&harness).procedure_id().as_deref(), Some("attrition"));
    assert_eq!(
        prefilled(&harness, "weather"),
        None,
        "no Weather this turn yet"
    );
    assert_eq!(input(&harness, "weather"), None, "turn 1's Weather is gone");
    assert_eq!(input(&harness, "trigger"), None, "turn 1's reason is gone");
    assert_eq!(input(&harness, "force_sp"), Some(Value::Int(after)));
    assert!(
        labels_containing(&harness, "turn 1's Weather").is_empty(),
        "{:?}",
        labels_containing(&harness, "turn 1's Weather")
    );
    assert!(labels_containing(&harness, "this turn's Weather").is_empty());
    assert!(
        !labels_containing(&harness, "was opened at an earlier step").is_empty(),
        "the panel says the procedure is left from an earlier step"
    );

    // R records nothing, and says why and what to do.
    let entries = desk(&harness).game().events().len();
    harness.key_press(egui::Key::R);
    harness.run();
    assert_eq!(
        desk(&harness).game().events().len(),
        entries,
        "R recorded nothing"
    );
    let message = desk(&harness).message().unwrap_or_default().to_string();
    for words in [
        "Attrition is still open from an earlier step",
        "from an earlier step: turn 1, D) Combat and Attrition Phase › 5. Attrition Segment.",
        "R resolves only a procedure opened at this step",
        "open it again",
        "pick this step's procedure, Weather",
    ] {
        assert!(message.contains(words), "{words:?} not in {message:?}");
    }
    // Nor does Enter in the physical dice field.
    type_into(&mut harness, PHYSICAL_DICE_LABEL, "4");
    harness.key_press(egui::Key::Enter);
    harness.run();
    assert_eq!(
        desk(&harness).game().events().len(),
        entries,
        "Enter recorded nothing"
    );
    assert!(
        desk(&harness)
            .message()
            .is_some_and(|m| m.contains("Enter resolves only a procedure opened at this step")),
        "{:?}",
        desk(&harness).message()
    );
    let game = Game::open(&path, &Library::shipped()).expect("reopen");
    assert!(
        !game.events().iter().any(|e| e.cursor.turn == 2
            && matches!(&e.kind, EventKind::Resolved { resolution, .. } if resolution.procedure == "attrition")),
        "no Attrition in turn 2"
    );

    // Opened again on purpose, R goes to the engine: it asks for this turn's Weather.
    run(
        &mut harness,
        Command::Ui(UiCommand::OpenProcedure("attrition".into())),
    );
    harness.key_press(egui::Key::R);
    harness.run();
    let message = desk(&harness).message().unwrap_or_default().to_string();
    assert!(!message.contains("earlier step"), "{message}");
    assert_eq!(
        desk(&harness).game().events().len(),
        entries,
        "the Weather and the reason are not given: {message}"
    );
}

/// A value the game gives from an entry says which turn's it is, in the game's words:
/// "turn 1's Weather (entry #N)", never "this turn's".
#[test]
fn a_value_from_the_game_says_which_turns_it_is() {
    let path = temp_game("wording");
    let game = kit::venice_turn_one_until(&path, "d5_attrition");
    let force = force_of(&game, "chaumont");
    let weather = game
        .events()
        .iter()
        .find(|e| matches!(&e.kind, EventKind::Resolved { resolution, .. } if resolution.procedure == "weather"))
        .map(|e| e.seq)
        .expect("turn 1's Weather");
    drop(game);
    let mut harness = desk_at(&path);
    let button = item_button(&harness, &force, "attrition");
    click(&mut harness, &button);
    let said = format!("turn 1's Weather (entry #{weather})");
    assert_eq!(
        prefilled(&harness, "weather"),
        Some((Value::Text("fair".into()), Some(said.clone())))
    );
    assert!(
        !labels_containing(&harness, &format!("from the game: {said}")).is_empty(),
        "the panel shows where the Weather came from: {:?}",
        labels_containing(&harness, "from the game")
    );
    assert!(labels_containing(&harness, "this turn's").is_empty());
}

/// A Force's item opens its procedure with that Force's counters on the table in the
/// procedure's Force role, and the reason its step implies chosen: the Activation puts the
/// Force in A; the Attrition after a second activation (C.2.b) is checked for that reason, the
/// Attrition Segment's (D.5) for its own.
#[test]
fn a_forces_item_opens_with_the_force_in_its_role_and_its_reason_chosen() {
    let path = temp_game("item");
    let mut game = kit::venice_turn_one_until(&path, "c2b_activate");
    let force = force_of(&game, "chaumont");
    let (counters, _) = force_now(&game, &force);
    // Chaumont's Force activates twice (7.2), the Activation marker on Chaumont each time: its
    // Attrition is then due before any other.
    for die in ["2", "5"] {
        game.act(
            &Actor::umpire(),
            Action::Resolve {
                procedure: "activation_single".into(),
                inputs: vec![("initiative".into(), "2".into()), ("ma".into(), "6".into())],
                physical: Some(vec![die.into()]),
                chart_result: None,
                chart_confirmed: false,
                counters: [("force".to_string(), counters.clone())].into(),
                item: None,
            },
        )
        .expect("an activation");
        let of = game.events().len() as u64;
        game.act(
            &Actor::umpire(),
            Action::ApplyEffects {
                of,
                changes: vec![umpire::game::CounterChange::Status {
                    counter: "chaumont".into(),
                    status: "activated".into(),
                    on: true,
                }],
            },
        )
        .expect("the Activation marker placed");
    }
    drop(game);
    let mut harness = desk_at(&path);

    let button = item_button(&harness, &force, "activation");
    click(&mut harness, &button);
    let roles = desk(&harness).resolve.roles().clone();
    assert_eq!(desk(&harness).procedure_id().as_deref(), Some("activation"));
    assert_eq!(roles.get("a"), Some(&counters), "{roles:?}");
    assert_eq!(roles.len(), 1, "{roles:?}");
    assert!(
        prefilled(&harness, "order_a").is_some(),
        "A's Order comes from the Force: {:?}",
        desk(&harness).resolve.prefilled()
    );

    let button = item_button(&harness, &force, "attrition");
    assert!(
        button.contains("Attrition after a second activation"),
        "{button}"
    );
    click(&mut harness, &button);
    let roles = desk(&harness).resolve.roles().clone();
    assert_eq!(desk(&harness).procedure_id().as_deref(), Some("attrition"));
    assert_eq!(roles.get("force"), Some(&counters), "{roles:?}");
    assert_eq!(roles.len(), 1, "the Force in no other role: {roles:?}");
    assert_eq!(
        input(&harness, "trigger"),
        Some(Value::Text("second_activation".into()))
    );
    assert!(
        desk(&harness)
            .resolve
            .item()
            .is_some_and(|key| key.contains(&force)),
        "the resolution answers the Force's item"
    );
    // The Force size is read off the Force: its Strength Points in all.
    assert_eq!(
        prefilled(&harness, "force_sp").map(|(v, _)| v),
        Some(Value::Int(force_now(desk(&harness).game(), &force).1))
    );

    // The Attrition Segment's item is checked for the Segment.
    let path = temp_game("item-segment");
    let game = kit::venice_turn_one_until(&path, "d5_attrition");
    let vitelli = force_of(&game, "vitelli");
    let (counters, _) = force_now(&game, &vitelli);
    drop(game);
    let mut harness = desk_at(&path);
    let button = item_button(&harness, &vitelli, "attrition");
    click(&mut harness, &button);
    assert_eq!(desk(&harness).resolve.roles().get("force"), Some(&counters));
    assert_eq!(
        input(&harness, "trigger"),
        Some(Value::Text("attrition_segment".into()))
    );
}
