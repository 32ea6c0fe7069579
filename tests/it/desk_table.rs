//! The desk from a step back (issue 30): a form that keeps its fields in place, the counters'
//! right-click menu, a panning drag that moves nothing, the palette (Escape, only the commands
//! that apply), Enter in the journal's note, and a change another program makes to the game
//! file seen within a second. Driven headless (egui_kittest) on "Venice at bay, 1509".

use crate::kit;
use kit::{labels_containing, scenario, type_into};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use umpire::app::{
    DeskApp, GameDesk, MENU_HAND_LABEL, MENU_INSPECT_LABEL, MENU_MOVE_LABEL, MENU_RESOLVE_LABEL,
    NOTE_LABEL, PALETTE_SEARCH_LABEL, ProcedureDesk, TableSize, UiCommand,
};
use umpire::game::hex::HexId;
use umpire::game::scenario::Position;
use umpire::game::{Action, Actor, EventKind, Game};
use umpire::rules::Library;

/// A fresh folder for one test's game file.
fn temp_game(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-desk-table-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("game.umpire")
}

/// The desk on a new Venice game at `path`, in a window of `size`.
fn venice_desk(path: &Path, size: egui::Vec2) -> Harness<'static, DeskApp> {
    let library = Library::shipped();
    let game = GameDesk::create(path, &scenario("s1_venice"), &library, Some(1509)).expect("game");
    let mut harness = Harness::builder().with_size(size).build_eframe(|cc| {
        DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), game)
    });
    harness.run();
    harness
}

fn game_desk<'a>(harness: &'a Harness<'static, DeskApp>) -> &'a GameDesk {
    harness.state().game.as_ref().expect("a game is open")
}

/// Every counter's position in the game as the desk holds it.
fn positions(harness: &Harness<'static, DeskApp>) -> Vec<(String, Position)> {
    game_desk(harness)
        .game()
        .state()
        .counters
        .values()
        .map(|c| (c.id.clone(), c.position.clone()))
        .collect()
}

/// A stack well inside the map as shown, with an empty hex two rows below it (on screen):
/// its hex, its counters, where it is on screen and where the empty hex is.
fn stack_on_screen(
    harness: &Harness<'static, DeskApp>,
) -> (String, Vec<String>, egui::Pos2, egui::Pos2) {
    let g = game_desk(harness);
    let rect = g.map.map_rect().expect("the hex map is shown").shrink(40.0);
    let stacks = g.live.stacks().clone();
    let mut hexes: Vec<&String> = stacks.keys().collect();
    hexes.sort();
    for hex in hexes {
        let id = HexId::parse_any(hex).expect("hex id");
        let below = HexId::new(id.col(), id.row() + 2, hex.len()).id();
        if let (Some(a), Some(b)) = (g.map.hex_screen_pos(hex), g.map.hex_screen_pos(&below))
            && rect.contains(a)
            && rect.contains(b)
            && !stacks.contains_key(&below)
        {
            return (hex.to_string(), stacks[hex].clone(), a, b);
        }
    }
    panic!("no stack on screen with an empty hex below it");
}

/// A press and release of `button` at `at`, the pointer moving there first.
fn click_with(
    harness: &mut Harness<'static, DeskApp>,
    at: egui::Pos2,
    button: egui::PointerButton,
) {
    harness.hover_at(at);
    harness.run();
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        harness.run();
    }
}

/// A drag with `button` from `from` by `by`, in small steps.
fn drag_with(
    harness: &mut Harness<'static, DeskApp>,
    from: egui::Pos2,
    by: egui::Vec2,
    button: egui::PointerButton,
) {
    harness.hover_at(from);
    harness.run();
    harness.event(egui::Event::PointerButton {
        pos: from,
        button,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
    for k in 1..=6 {
        harness.hover_at(from + by * (k as f32 / 6.0));
        harness.run();
    }
    harness.event(egui::Event::PointerButton {
        pos: from + by,
        button,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
}

/// The journal as stored in the game file (opened afresh, as another program would).
fn stored_events(path: &Path) -> usize {
    Game::open(path, &Library::shipped())
        .expect("reopen")
        .events()
        .len()
}

#[test]
fn the_assault_form_keeps_its_fields_in_place_as_choices_are_made() {
    let path = temp_game("form");
    let mut harness = venice_desk(&path, egui::vec2(1400.0, 1000.0));
    harness
        .state_mut()
        .game
        .as_mut()
        .expect("game")
        .select_procedure("assault");
    harness.run();
    let fields = [
        "DRM for the SP ratio (printed below the AST; not in the text)",
        "Weather",
        "Skirmish: whole attacking Force, unmodified SPs (all, Demoralised and Artillery included)",
    ];
    let rects = |harness: &Harness<'static, DeskApp>| -> Vec<egui::Rect> {
        fields
            .iter()
            .map(|f| {
                harness
                    .get_all_by_label(f)
                    .last()
                    .unwrap_or_else(|| panic!("{f} is on the form"))
                    .rect()
            })
            .collect()
    };
    let before = rects(&harness);
    // Choose the kind of attack: a Skirmish needs the Forces' SPs, a Storm does not.
    for kind in ["Skirmish", "Storm", "Skirmish"] {
        harness.get_by_label("Kind of attack").click();
        harness.run();
        harness
            .get_all_by_role_and_label(Role::Button, kind)
            .next()
            .unwrap_or_else(|| panic!("{kind} is a kind of attack"))
            .click();
        harness.run();
        // The Forces' SPs are asked in a Skirmish only: greyed out otherwise, not taken away.
        let force = harness
            .get_all_by_label(fields[2])
            .last()
            .expect("the Skirmish field")
            .accesskit_node()
            .is_disabled();
        assert_eq!(force, kind != "Skirmish", "{kind}");
        let after = rects(&harness);
        for ((f, a), b) in fields.iter().zip(&after).zip(&before) {
            assert!(
                (a.min - b.min).length() < 0.5,
                "{f} moved from {b:?} to {a:?} when {kind} was chosen"
            );
        }
    }
}

#[test]
fn right_clicking_a_counter_opens_its_menu_and_inspect_selects_it() {
    let path = temp_game("menu");
    let mut harness = venice_desk(&path, egui::vec2(1400.0, 1000.0));
    let (_, stack, at, _) = stack_on_screen(&harness);
    assert_eq!(game_desk(&harness).live.selected, None);
    click_with(&mut harness, at, egui::PointerButton::Secondary);
    for entry in [
        MENU_INSPECT_LABEL,
        MENU_MOVE_LABEL,
        MENU_HAND_LABEL,
        MENU_RESOLVE_LABEL,
    ] {
        assert!(
            harness.query_by_label(entry).is_some(),
            "the counter menu has {entry}"
        );
    }
    // The menu is headed by the counter's name, in words.
    let name = game_desk(&harness).live.display_name(&stack[0]);
    assert!(
        !labels_containing(&harness, &name).is_empty(),
        "the menu names {name}"
    );
    harness.get_by_label(MENU_INSPECT_LABEL).click();
    harness.run();
    assert_eq!(
        game_desk(&harness).live.selected.as_deref(),
        Some(stack[0].as_str())
    );
    assert!(
        harness.query_by_label(MENU_INSPECT_LABEL).is_none(),
        "the menu closed"
    );
    // Nothing was recorded: a menu opened and a counter selected.
    assert_eq!(stored_events(&path), 1);
}

#[test]
fn a_panning_drag_moves_no_counter_whether_it_starts_on_the_map_or_on_a_counter() {
    let path = temp_game("pan");
    let mut harness = venice_desk(&path, egui::vec2(1400.0, 1000.0));
    let start = positions(&harness);
    let (hex, _, on_counter, empty) = stack_on_screen(&harness);
    let pan = |h: &Harness<'static, DeskApp>| game_desk(h).map.pan;

    // From empty map: the map pans.
    let p0 = pan(&harness);
    drag_with(
        &mut harness,
        empty,
        egui::vec2(60.0, 30.0),
        egui::PointerButton::Primary,
    );
    let p1 = pan(&harness);
    assert!((p1 - p0).length() > 40.0, "the map panned: {p0:?} → {p1:?}");

    // From a counter nobody selected: the map pans, the Force stays.
    let at = game_desk(&harness)
        .map
        .hex_screen_pos(&hex)
        .expect("still on screen");
    assert!(at.distance(on_counter + (p1 - p0)) < 1.0);
    drag_with(
        &mut harness,
        at,
        egui::vec2(-50.0, 40.0),
        egui::PointerButton::Primary,
    );
    let p2 = pan(&harness);
    assert!((p2 - p1).length() > 40.0, "the map panned: {p1:?} → {p2:?}");

    // The middle button pans even from the selected counter.
    let at = game_desk(&harness)
        .map
        .hex_screen_pos(&hex)
        .expect("still on screen");
    click_with(&mut harness, at, egui::PointerButton::Primary);
    assert!(
        game_desk(&harness).live.selected.is_some(),
        "a click selects"
    );
    drag_with(
        &mut harness,
        at,
        egui::vec2(40.0, 60.0),
        egui::PointerButton::Middle,
    );
    let p3 = pan(&harness);
    assert!((p3 - p2).length() > 40.0, "the map panned: {p2:?} → {p3:?}");

    // The arrow keys pan.
    harness.key_press(egui::Key::ArrowLeft);
    harness.run();
    let p4 = pan(&harness);
    assert!((p4 - p3).x > 40.0, "the arrow key panned: {p3:?} → {p4:?}");

    // No counter's position changed in the game, and nothing was recorded.
    assert_eq!(positions(&harness), start);
    assert_eq!(stored_events(&path), 1);
}

#[test]
fn escape_closes_the_command_palette() {
    let path = temp_game("escape");
    let mut harness = venice_desk(&path, egui::vec2(1400.0, 1000.0));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::K);
    harness.run();
    assert!(harness.state().shell.palette);
    assert!(harness.query_by_label(PALETTE_SEARCH_LABEL).is_some());
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(!harness.state().shell.palette, "Escape closed the palette");
    assert!(harness.query_by_label(PALETTE_SEARCH_LABEL).is_none());

    // Also once the search field has lost the keyboard (a click on the palette's frame).
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::K);
    harness.run();
    assert!(harness.state().shell.palette);
    harness.key_press(egui::Key::Tab);
    harness.run();
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(!harness.state().shell.palette, "Escape closed the palette");
}

#[test]
fn the_palette_of_a_two_player_hex_game_offers_no_megagame_clock() {
    let path = temp_game("palette");
    let mut harness = venice_desk(&path, egui::vec2(1400.0, 1000.0));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::K);
    harness.run();
    for megagame in [
        UiCommand::ClockStart,
        UiCommand::ClockHold,
        UiCommand::ClockResume,
        UiCommand::ClockAdvance,
        UiCommand::Ledgers,
    ] {
        assert!(
            harness
                .query_all_by_label_contains(megagame.label())
                .next()
                .is_none(),
            "the palette offers {}",
            megagame.label()
        );
    }
    // What applies is there: the map's zoom, Next step, Undo.
    for applies in [UiCommand::ZoomIn, UiCommand::Next, UiCommand::Undo] {
        assert!(
            harness
                .query_all_by_label_contains(applies.label())
                .next()
                .is_some(),
            "the palette lacks {}",
            applies.label()
        );
    }
}

#[test]
fn enter_in_the_note_field_adds_the_note() {
    let path = temp_game("note");
    let mut harness = venice_desk(&path, egui::vec2(1400.0, 900.0));
    type_into(
        &mut harness,
        NOTE_LABEL,
        "Scouts report French horse at Treviglio",
    );
    harness.key_press(egui::Key::Enter);
    harness.run();
    let game = Game::open(&path, &Library::shipped()).expect("reopen");
    assert!(
        game.events().iter().any(|e| matches!(
            &e.kind,
            EventKind::Note { text } if text == "Scouts report French horse at Treviglio"
        )),
        "{:?}",
        game.events().last().map(|e| &e.kind)
    );
    // The field is emptied for the next note.
    assert_eq!(game_desk(&harness).journal.note, "");
}

#[test]
fn a_change_another_program_makes_to_the_game_file_shows_within_a_second() {
    let path = temp_game("watch");
    let mut harness = venice_desk(&path, egui::vec2(1400.0, 1000.0));
    let before = game_desk(&harness).game().events().len();
    // Another program (the command line, say) writes to the same game file.
    {
        let mut other = Game::open(&path, &Library::shipped()).expect("opens");
        other
            .act(
                &Actor::umpire(),
                Action::Note {
                    text: "Written from the command line".into(),
                },
            )
            .expect("a note");
    }
    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(1100) {
        std::thread::sleep(Duration::from_millis(100));
        harness.step();
    }
    harness.run();
    assert_eq!(game_desk(&harness).game().events().len(), before + 1);
    assert!(
        !labels_containing(&harness, "Written from the command line").is_empty(),
        "the journal shows the note"
    );
}

#[test]
fn the_table_size_is_kept_in_the_desks_settings() {
    let dir = temp_game("settings")
        .parent()
        .expect("folder")
        .join("config");
    assert_eq!(umpire::app::load_table_size(Some(&dir)), TableSize::Normal);
    umpire::app::save_table_size(Some(&dir), TableSize::VeryLarge).expect("kept");
    assert_eq!(
        umpire::app::load_table_size(Some(&dir)),
        TableSize::VeryLarge
    );
    umpire::app::save_table_size(Some(&dir), TableSize::Large).expect("kept");
    assert_eq!(umpire::app::load_table_size(Some(&dir)), TableSize::Large);
    assert!(TableSize::Large.factor() > TableSize::Normal.factor());
}
