//! The desk's megagame view, driven headless through its AccessKit labels (egui_kittest) as an
//! umpire would: the clock bar's Start, Hold, Resume and Advance land in the journal, the table /
//! role filter narrows the ledgers panel, and the panel shows each state's treasury, forces and
//! characters.

use crate::kit;
use kit::labels_containing;

use std::path::{Path, PathBuf};

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use umpire::app::{
    DeskApp, GameDesk, LEDGER_PREFIX, LEDGERS_LABEL, MEGAGAME_FILTER_LABEL, MegagameFilter,
    ProcedureDesk, UiCommand,
};
use umpire::game::event::{ClockAction, EventKind};
use umpire::game::{Event, Game};
use umpire::megagame::ControlRole;
use umpire::rules::{Library, SourceFile};

fn temp_game(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "umpire-desk-megagame-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("game.umpire")
}

fn fixture() -> SourceFile {
    let name = "tests/fixtures/scenarios/megagame_two_teams.yaml";
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).expect("fixture");
    SourceFile {
        name: name.into(),
        text,
    }
}

fn desk_on(path: &Path) -> Harness<'static, DeskApp> {
    let game = GameDesk::create(path, &fixture(), &Library::shipped(), Some(7)).expect("game");
    Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), game)
        })
}

fn journal(path: &Path) -> Vec<Event> {
    Game::open(path, &Library::shipped())
        .expect("reopen")
        .events()
        .to_vec()
}

fn clock_actions(path: &Path) -> Vec<ClockAction> {
    journal(path)
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::Clock { action } => Some(action),
            _ => None,
        })
        .collect()
}

/// The desk repaints once a second while the clock runs: step frames rather than run to rest.
fn frames(harness: &mut Harness<'static, DeskApp>) {
    for _ in 0..4 {
        harness.step();
    }
}

/// Clicks the widget labelled `label`: a button when there is one (a menu's entry, not the
/// board's heading of the same name).
fn click(harness: &mut Harness<'static, DeskApp>, label: &str) {
    match harness
        .query_all_by_role_and_label(Role::Button, label)
        .next()
    {
        Some(button) => button.click(),
        None => harness.get_by_label(label).click(),
    }
    frames(harness);
}

/// How many labels read exactly `text`.
fn exactly(harness: &Harness<'static, DeskApp>, text: &str) -> usize {
    labels_containing(harness, text)
        .iter()
        .filter(|t| *t == text)
        .count()
}

#[test]
fn the_clock_bar_starts_holds_resumes_and_advances_through_the_journal() {
    let path = temp_game("clock");
    let mut harness = desk_on(&path);
    frames(&mut harness);
    assert!(
        !labels_containing(&harness, "Turn 1 (1524 - 1528) · Phase 1/6").is_empty(),
        "the clock bar shows the turn, its game years and the phase"
    );
    assert!(
        !labels_containing(&harness, "10:00").is_empty(),
        "the countdown"
    );
    assert!(!labels_containing(&harness, "not started").is_empty());

    click(&mut harness, UiCommand::ClockStart.label());
    assert_eq!(
        clock_actions(&path),
        vec![ClockAction::Start {
            turn: 1,
            phase: "phase_1".into()
        }]
    );
    // The Sequence of Play followed the clock into Phase 1.
    let stepped = journal(&path)
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::Stepped { .. }))
        .count();
    assert_eq!(stepped, 1);
    assert!(!labels_containing(&harness, "running").is_empty());

    click(&mut harness, UiCommand::ClockHold.label());
    assert_eq!(clock_actions(&path).last(), Some(&ClockAction::Hold));
    assert!(!labels_containing(&harness, "HELD").is_empty());

    click(&mut harness, UiCommand::ClockResume.label());
    assert_eq!(clock_actions(&path).last(), Some(&ClockAction::Resume));

    click(&mut harness, UiCommand::ClockAdvance.label());
    assert_eq!(clock_actions(&path).last(), Some(&ClockAction::Advance));
    assert!(!labels_containing(&harness, "Phase 2/6").is_empty());
    assert!(
        !labels_containing(&harness, "15:00").is_empty()
            || !labels_containing(&harness, "14:5").is_empty()
    );
    let game = Game::open(&path, &Library::shipped()).unwrap();
    let step = &game.steps()[game.state().cursor.step];
    assert_eq!(step.id, "phase_2_pay");

    // The keyboard: F6 holds, as the command palette lists it.
    harness.key_press(egui::Key::F6);
    frames(&mut harness);
    assert_eq!(clock_actions(&path).last(), Some(&ClockAction::Hold));
    assert_eq!(clock_actions(&path).len(), 5);
}

#[test]
fn the_ledgers_panel_shows_each_state_and_its_forces() {
    let path = temp_game("ledgers");
    let mut harness = desk_on(&path);
    frames(&mut harness);
    assert!(
        labels_containing(&harness, LEDGER_PREFIX).is_empty(),
        "hidden at first"
    );
    click(&mut harness, LEDGERS_LABEL);
    let heads = labels_containing(&harness, LEDGER_PREFIX);
    assert!(
        heads.contains(&"Ledger: Kingdom of France — treasury 40".to_string())
            && heads.contains(&"Ledger: Kingdom of England — treasury 77".to_string()),
        "{heads:?}"
    );
    for expected in [
        "debt 5 ",
        "unrest index 2",
        "Army of Picardy",
        "Army of Kent",
        "Channel fleet",
        "Henry VIII",
        "Francis I",
    ] {
        assert!(
            !labels_containing(&harness, expected).is_empty(),
            "{expected} is not shown"
        );
    }
    // Clicking a counter in the panel selects it on the desk.
    // (The desk's own counter list has one too; the ledgers, docked beside the clock bar, are
    // drawn first.)
    harness
        .get_all_by_role_and_label(Role::Button, "Army of Kent")
        .next()
        .expect("the army is a button")
        .click();
    frames(&mut harness);
    // The desk's counter panel shows it, in words (its side, its place), not by its id.
    assert!(!labels_containing(&harness, "England · ").is_empty());
    assert!(labels_containing(&harness, "en-army-1").is_empty());
}

#[test]
fn the_table_or_role_filter_narrows_the_ledgers() {
    let path = temp_game("filter");
    let mut harness = desk_on(&path);
    frames(&mut harness);
    click(&mut harness, LEDGERS_LABEL);
    assert_eq!(labels_containing(&harness, LEDGER_PREFIX).len(), 2);

    // Both states play at The West: choosing The East leaves nothing.
    click(&mut harness, MEGAGAME_FILTER_LABEL);
    click(&mut harness, "The East");
    assert!(labels_containing(&harness, LEDGER_PREFIX).is_empty());
    assert!(!labels_containing(&harness, "No state ledgers").is_empty());

    click(&mut harness, MEGAGAME_FILTER_LABEL);
    click(&mut harness, "The West");
    assert_eq!(labels_containing(&harness, LEDGER_PREFIX).len(), 2);
    assert!(!labels_containing(&harness, "Army of Kent").is_empty());

    assert_eq!(exactly(&harness, "Armies"), 2);
    assert_eq!(exactly(&harness, "Characters"), 2);
    // Character Control: the characters, not the armies (two ledgers, characters only).
    click(&mut harness, MEGAGAME_FILTER_LABEL);
    click(&mut harness, "Character Control");
    assert_eq!(labels_containing(&harness, LEDGER_PREFIX).len(), 2);
    assert_eq!(exactly(&harness, "Armies"), 0);
    assert_eq!(exactly(&harness, "Fleets"), 0);
    assert_eq!(exactly(&harness, "Characters"), 2);
}

#[test]
fn the_filter_gives_the_counters_a_table_or_role_looks_after() {
    let path = temp_game("shown");
    let mut g = GameDesk::create(&path, &fixture(), &Library::shipped(), Some(7)).expect("game");
    assert_eq!(g.counters_shown(), None, "everything, unfiltered");
    g.megagame.as_mut().expect("a megagame").filter = MegagameFilter::Table("the_west".into());
    let west = g.counters_shown().expect("filtered");
    assert!(
        west.contains("fr-army-1") && west.contains("en-fleet-1"),
        "{west:?}"
    );
    assert!(
        !west.contains("henry-viii"),
        "characters sit at no map table"
    );
    g.megagame.as_mut().unwrap().filter = MegagameFilter::Table("the_east".into());
    assert!(g.counters_shown().unwrap().is_empty());
    g.megagame.as_mut().unwrap().filter = MegagameFilter::Role(ControlRole::Character);
    let characters = g.counters_shown().unwrap();
    assert!(characters.contains("henry-viii") && characters.contains("francis-i"));
    assert!(!characters.contains("fr-army-1"), "{characters:?}");
}

#[test]
fn the_filter_narrows_the_counter_list_too() {
    let path = temp_game("list");
    let mut harness = desk_on(&path);
    frames(&mut harness);
    assert!(!labels_containing(&harness, "Army of Kent").is_empty());
    // Character Control looks after characters, not armies.
    click(&mut harness, MEGAGAME_FILTER_LABEL);
    click(&mut harness, "Character Control");
    frames(&mut harness);
    let left = labels_containing(&harness, "Army of Kent");
    assert!(left.is_empty(), "{left:?}");
    click(&mut harness, MEGAGAME_FILTER_LABEL);
    click(&mut harness, "The West");
    frames(&mut harness);
    assert!(!labels_containing(&harness, "Army of Kent").is_empty());
}

#[test]
fn the_resolve_panel_offers_a_megagames_roles_and_prefills_from_the_ledgers() {
    let path = temp_game("pay");
    let examples = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scenarios/rr3_examples.yaml"
    );
    let file = SourceFile {
        name: examples.into(),
        text: std::fs::read_to_string(examples).expect("fixture"),
    };
    let mut g = GameDesk::create(&path, &file, &Library::shipped(), Some(7)).expect("game");
    g.select_procedure("pay");
    let roles = g.role_names();
    assert!(roles.contains(&"army".to_string()), "{roles:?}");
    assert!(roles.contains(&"state".to_string()), "{roles:?}");
    g.add_to_role("army", "monluc-army");
    g.add_to_role("state", "state-france");
    let strength = g
        .resolve
        .prefilled()
        .iter()
        .find(|p| p.input == "strength_thousands")
        .expect("strength prefilled from the army");
    assert_eq!(strength.value.to_string(), "18");
    assert_eq!(strength.from, vec!["monluc-army".to_string()]);
}

/// A state's treasury set by hand from the counters panel (the handbook's ledgers start
/// unknown; Control sets them at the table): one journal entry with Control's note, and the
/// ledger shows the new value.
#[test]
fn a_treasury_is_set_by_hand_from_the_desk() {
    let path = temp_game("treasury");
    let mut harness = desk_on(&path);
    frames(&mut harness);
    kit::type_into(
        &mut harness,
        umpire::app::FIND_COUNTER_LABEL,
        "Kingdom of France",
    );
    harness
        .get_all_by_role_and_label(Role::Button, "Kingdom of France")
        .next()
        .expect("the ledger in the counter list")
        .click();
    frames(&mut harness);
    kit::click(&mut harness, umpire::app::CHANGE_BY_HAND_LABEL);
    kit::type_into(
        &mut harness,
        umpire::app::EDIT_NOTE_LABEL,
        "briefing: treasury after the Italian loans",
    );
    kit::type_into(&mut harness, "Treasury (florins)", "55");
    harness
        .get_all_by_label(umpire::app::SET_LABEL)
        .find(|b| !b.accesskit_node().is_disabled())
        .expect("an enabled Set button")
        .click();
    frames(&mut harness);
    let events = journal(&path);
    let last = events.last().expect("entries");
    let EventKind::Changed {
        changes, reason, ..
    } = &last.kind
    else {
        panic!("{:?}", last.kind)
    };
    assert_eq!(
        reason.as_deref(),
        Some("briefing: treasury after the Italian loans")
    );
    assert!(matches!(
        &changes[..],
        [umpire::game::CounterChange::Attribute { attribute, to: umpire::rules::Value::Int(55), .. }]
            if attribute == "treasury"
    ));
    assert!(!labels_containing(&harness, "Treasury (florins): 55").is_empty());
}

/// An area map is a board of named boxes grouped as the text groups them (a megagame: its map
/// tables, each state a box); a counter dragged onto a box moves there, one entry.
#[test]
fn an_area_board_groups_the_boxes_and_takes_a_dragged_counter() {
    let path = temp_game("board");
    let mut harness = desk_on(&path);
    frames(&mut harness);
    for heading in ["The West", "Off the map"] {
        assert!(
            !labels_containing(&harness, heading).is_empty(),
            "{heading} is a group of the board"
        );
    }
    let rect_of = |harness: &Harness<'static, DeskApp>, label: &str| {
        harness
            .get_all_by_label(label)
            .map(|n| n.rect())
            .find(|r| r.min.x > 300.0)
            .unwrap_or_else(|| panic!("{label} on the board"))
    };
    let from = rect_of(&harness, "Army of Kent").center();
    let to = rect_of(&harness, "Picardy").center() + egui::vec2(0.0, 20.0);
    harness.hover_at(from);
    harness.run();
    harness.drag_at(from);
    harness.run();
    for k in 1..=10 {
        harness.hover_at(from + (to - from) * (k as f32 / 10.0));
        harness.run();
    }
    harness.drop_at(to);
    frames(&mut harness);
    let events = journal(&path);
    assert_eq!(events.len(), 2, "{:?}", events.last().map(|e| &e.kind));
    let EventKind::Changed { changes, .. } = &events[1].kind else {
        panic!("{:?}", events[1].kind)
    };
    assert!(matches!(
        &changes[..],
        [umpire::game::CounterChange::Move { to: umpire::game::scenario::Position::Area(a), .. }] if a == "Picardy"
    ));
}

/// A payment that would take a treasury below 0 is refused at the desk with the rule; the
/// umpire types the reason and goes ahead, and the journal keeps the reason (issue 24).
#[test]
fn the_desk_goes_below_a_floor_only_with_the_umpires_reason() {
    use umpire::app::{FLOOR_REASON_LABEL, GO_BELOW_LABEL};
    use umpire::game::Action;
    let path = temp_game("floor");
    let mut harness = desk_on(&path);
    harness.run();
    let before = journal(&path).len();
    {
        let g = harness.state_mut().game.as_mut().expect("game");
        let refused = !g.act(Action::Adjust {
            counter: "state-france".into(),
            attribute: "treasury".into(),
            by: -50,
            reason: "army pay".into(),
        });
        assert!(refused, "40 − 50 goes below 0");
        assert!(g.live.below_floor().is_some());
    }
    harness.run();
    assert!(
        !labels_containing(&harness, "0 or more").is_empty(),
        "the refusal says the floor"
    );
    assert_eq!(journal(&path).len(), before, "nothing recorded yet");
    kit::type_into(
        &mut harness,
        FLOOR_REASON_LABEL,
        "a loan agreed at the table",
    );
    kit::click(&mut harness, GO_BELOW_LABEL);
    harness.run();

    let events = journal(&path);
    assert_eq!(
        events.len(),
        before + 1,
        "one entry: {:?} {:?}",
        harness.state().game.as_ref().and_then(|g| g.message()),
        harness
            .state()
            .game
            .as_ref()
            .map(|g| g.sequence.floor_reason.clone())
    );
    let EventKind::Changed { reason, .. } = &events[before].kind else {
        panic!("{:?}", events[before].kind)
    };
    assert!(
        reason
            .as_deref()
            .is_some_and(|r| r.contains("at the umpire's word: a loan agreed at the table")),
        "{reason:?}"
    );
    let g = harness.state().game.as_ref().expect("game");
    assert!(g.live.below_floor().is_none());
}

/// Control's records at the desk: the Ledgers panel opens on the charts as they stand and the
/// registers, in the teams' names (rr3 Prestige, Politics … › Treaties).
#[test]
fn the_ledgers_panel_shows_the_charts_and_the_register() {
    use umpire::game::Action;
    use umpire::game::records::RecordFact;
    let path = temp_game("records");
    let mut game = GameDesk::create(&path, &fixture(), &Library::shipped(), Some(7)).expect("game");
    assert!(game.act(Action::Record(RecordFact::Chart {
        chart: "prestige".into(),
        ranking: vec!["england".into(), "france".into()],
        reason: "a good marriage".into(),
    })));
    assert!(game.act(Action::Record(RecordFact::Register {
        register: "treaty".into(),
        parties: vec!["england".into(), "france".into()],
        terms: "the Field of the Cloth of Gold".into(),
        until: None,
    })));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), game)
        });
    frames(&mut harness);
    click(&mut harness, LEDGERS_LABEL);
    for expected in [
        "Prestige (turn 1)",
        "1. England   2. France",
        "moved by: a good marriage",
        "Treaty: England and France: the Field of the Cloth of Gold",
        "The Heavenly Status Chart: not yet set",
    ] {
        assert!(
            !labels_containing(&harness, expected).is_empty(),
            "{expected} is not shown"
        );
    }
}

/// The clock is Game Control's to work (rr3 The Control Team › Game Control): a Map Control's
/// desk sees it run, without its buttons.
#[test]
fn only_game_controls_desk_has_the_clock_buttons() {
    let path = temp_game("clock-buttons");
    let mut game = GameDesk::create(&path, &fixture(), &Library::shipped(), Some(7)).expect("game");
    game.sign_in(umpire::megagame::remit::SignedIn::parse("Anna:map:the_east").expect("anna"))
        .expect("signed in");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), game)
        });
    frames(&mut harness);
    assert!(!labels_containing(&harness, "Game Control works the clock").is_empty());
    assert!(
        harness
            .query_by_role_and_label(Role::Button, "Start the clock")
            .is_none()
    );
}

/// Raising an army from the desk's record form: one entry, the new army with its men and the
/// cost from its state's treasury (rr3 The Campaign System › Raising an army).
#[test]
fn an_army_is_raised_from_the_desks_record_form() {
    let path = temp_game("raise");
    let mut harness = desk_on(&path);
    frames(&mut harness);
    click(&mut harness, LEDGERS_LABEL);
    click(&mut harness, "Record for Control");
    kit::type_into(&mut harness, "Army's name", "Army of Normandy");
    kit::type_into(&mut harness, "Where (an area)", "Normandy");
    kit::type_into(&mut harness, "Men, in 5,000s", "2");
    harness
        .get_all_by_role_and_label(Role::Button, "Record")
        .last()
        .expect("the Record button")
        .click();
    frames(&mut harness);
    let events = journal(&path);
    let EventKind::Changed {
        changes, reason, ..
    } = &events.last().expect("an entry").kind
    else {
        panic!("the raising is one change entry: {:?}", events.last());
    };
    assert_eq!(changes.len(), 2, "the army and the treasury");
    assert!(
        reason
            .as_deref()
            .is_some_and(|r| r.contains("raised 10,000 men for 2 florins")),
        "{reason:?}"
    );
}
