//! The game desk, driven headless through its AccessKit labels (egui_kittest, no GPU), as an
//! umpire would: every action must land in the game file's journal.

use crate::kit;
use kit::{click, labels_containing, scenario, type_into};

use std::path::{Path, PathBuf};

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use umpire::app::{
    CHART_RESULT_LABEL, Command, DeskApp, FIND_COUNTER_LABEL, GAME_RESULT_PREFIX, GameDesk,
    MOVE_LABEL, MOVE_TO_LABEL, NEXT_LABEL, PHYSICAL_DICE_LABEL, PROCEDURE_LABEL, ProcedureDesk,
    SKIP_REASON_LABEL, UNDO_LABEL, USE_CHART_LABEL, USE_PHYSICAL_LABEL, UiCommand, move_action,
};
use umpire::game::hex::HexId;
use umpire::game::names::CounterId;
use umpire::game::scenario::Position;
use umpire::game::{Action, CounterChange, Event, EventKind, Game};
use umpire::rules::{Library, SourceFile};

/// A fresh folder for one test's game file.
fn temp_game(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-desk-game-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("game.umpire")
}

fn fixture() -> SourceFile {
    let name = "tests/fixtures/scenarios/skirmish.yaml";
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).expect("fixture");
    SourceFile {
        name: name.into(),
        text,
    }
}

fn desk_on(path: &Path, file: &SourceFile) -> Harness<'static, DeskApp> {
    let library = Library::shipped();
    let game = GameDesk::create(path, file, &library, Some(7)).expect("game");
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), game)
        })
}

/// The journal as stored in the game file (opened afresh, as another program would).
fn journal(path: &Path) -> Vec<Event> {
    Game::open(path, &Library::shipped())
        .expect("reopen")
        .events()
        .to_vec()
}

fn select_counter(harness: &mut Harness<'static, DeskApp>, find: &str, name: &str) {
    type_into(harness, FIND_COUNTER_LABEL, find);
    let button = harness
        .get_all_by_role_and_label(Role::Button, name)
        .next()
        .expect("counter button");
    button.scroll_to_me();
    harness.run();
    harness
        .get_all_by_role_and_label(Role::Button, name)
        .next()
        .expect("counter button")
        .click();
    harness.run();
}

#[test]
fn a_game_opens_on_its_sequence_of_play_and_table() {
    let path = temp_game("opens");
    let harness = desk_on(&path, &scenario("s1_venice"));
    assert!(
        !labels_containing(&harness, "Venice at bay, 1509").is_empty(),
        "the scenario title is shown"
    );
    assert!(
        !labels_containing(&harness, "Turn 1 of 9").is_empty(),
        "turn and date are shown"
    );
    assert!(harness.query_by_label(NEXT_LABEL).is_some());
    assert_eq!(journal(&path).len(), 1, "the game file holds its start");
    // Everything the desk shows is in the game's words: no id, line number or expression.
    let shown = labels_containing(&harness, "").join("\n");
    let found = crate::words::leaks(&shown);
    assert!(found.is_empty(), "the desk shows {found:?}:\n{shown}");
}

/// Picks a choice in the combo box labelled `label`.
fn choose(harness: &mut Harness<'static, DeskApp>, label: &str, choice: &str) {
    harness
        .get_by_role_and_label(Role::ComboBox, label)
        .scroll_to_me();
    harness.run();
    harness.get_by_role_and_label(Role::ComboBox, label).click();
    harness.run();
    harness.get_by_role_and_label(Role::Button, choice).click();
    harness.run();
}

#[test]
fn move_resolve_assault_with_chart_result_undo_and_advance() {
    let path = temp_game("assault");
    let mut harness = desk_on(&path, &scenario("s1_venice"));

    // Move Alviano from hex 1552 to 1553.
    select_counter(&mut harness, "Alviano", "Alviano");
    assert_eq!(
        harness
            .state()
            .game
            .as_ref()
            .and_then(|g| g.live.selected.clone())
            .as_deref(),
        Some("alviano")
    );
    type_into(&mut harness, MOVE_TO_LABEL, "1553");
    click(&mut harness, MOVE_LABEL);
    let events = journal(&path);
    let g = harness.state().game.as_ref().expect("game");
    assert_eq!(
        events.len(),
        2,
        "{:?} {:?}",
        g.message(),
        g.counters.move_to
    );
    assert!(
        matches!(&events[1].kind, EventKind::Changed { changes, .. } if matches!(&changes[0], CounterChange::Move { counter, to: Position::Hex(h), .. } if counter == "alviano" && h == "1553")),
        "{:?}",
        events[1].kind
    );

    // Resolve an assault with typed dice; the cell is not in the text, so enter the chart result.
    harness.get_by_label(PROCEDURE_LABEL).click();
    harness.run();
    let item = harness.get_by_role_and_label(Role::Button, "Attack on the Assault Table (AST)");
    item.scroll_to_me();
    harness.run();
    harness
        .get_by_role_and_label(Role::Button, "Attack on the Assault Table (AST)")
        .click();
    harness.run();
    assert_eq!(
        harness
            .state()
            .game
            .as_ref()
            .and_then(GameDesk::procedure_id)
            .as_deref(),
        Some("assault")
    );
    click(&mut harness, "Add to attacker");
    // The kind of attack, the weather and the SP-ratio DRM (printed below the AST, not in the
    // text): nothing is assumed, the odds name what is missing.
    let needs = labels_containing(&harness, "needs: ");
    assert!(
        needs
            .iter()
            .any(|l| l.contains("Kind of attack") && l.contains("DRM for the SP ratio")),
        "the odds name the missing inputs: {needs:?}"
    );
    // A Skirmish's Force SPs are asked for only in a Skirmish (`needed_when`).
    assert!(!labels_containing(&harness, "Skirmish: whole attacking Force").is_empty());
    choose(&mut harness, "Kind of attack", "Major battle");
    // Not asked for (issue 26): the field is greyed out, and keeps its place (issue 30).
    let field =
        "Skirmish: whole attacking Force, unmodified SPs (all, Demoralised and Artillery included)";
    let widgets: Vec<bool> = harness
        .get_all_by_label(field)
        .filter(|n| n.accesskit_node().role() != Role::Label)
        .map(|n| n.accesskit_node().is_disabled())
        .collect();
    assert!(
        !widgets.is_empty() && widgets.iter().all(|d| *d),
        "the field is there and greyed out: {widgets:?}"
    );
    choose(&mut harness, "Weather", "Fair");
    type_into(
        &mut harness,
        "DRM for the SP ratio (printed below the AST; not in the text)",
        "0",
    );
    type_into(&mut harness, PHYSICAL_DICE_LABEL, "4");
    click(&mut harness, USE_PHYSICAL_LABEL);
    assert_eq!(
        journal(&path).len(),
        2,
        "a missing chart cell writes nothing yet"
    );
    assert!(
        harness.query_by_label(CHART_RESULT_LABEL).is_some(),
        "the desk asks for the chart result"
    );
    type_into(&mut harness, CHART_RESULT_LABEL, "X");
    click(&mut harness, USE_CHART_LABEL);
    // The text names no code for the AST: "X" is not taken silently, the umpire confirms it is
    // what the chart prints.
    assert_eq!(
        journal(&path).len(),
        2,
        "an unnamed code waits for the umpire"
    );
    let confirm = format!("{} \"X\"", umpire::app::CONFIRM_CHART_LABEL);
    assert!(!labels_containing(&harness, "is not a code the text gives").is_empty());
    click(&mut harness, &confirm);
    let events = journal(&path);
    assert_eq!(events.len(), 3);
    let EventKind::Resolved {
        resolution,
        counters,
        ..
    } = &events[2].kind
    else {
        panic!("{:?}", events[2].kind)
    };
    assert_eq!(resolution.procedure, "assault");
    assert_eq!(resolution.outcome.code, "X");
    assert!(resolution.outcome.from_physical_chart);
    assert_eq!(resolution.rolls[0].dice[0].face, 4);
    // "Add to attacker" takes the selected Capitano's whole Force (issue 26).
    let attacker = counters.get("attacker").expect("attacker");
    assert!(attacker.contains(&"alviano".to_string()), "{attacker:?}");
    assert_eq!(
        attacker.len(),
        5,
        "Alviano and his four units: {attacker:?}"
    );
    assert!(
        !labels_containing(&harness, GAME_RESULT_PREFIX).is_empty(),
        "the result is shown"
    );

    // Undo it: the journal records the undo and the resolution no longer stands.
    harness
        .get_all_by_label(UNDO_LABEL)
        .next()
        .expect("undo button")
        .scroll_to_me();
    harness.run();
    harness
        .get_all_by_label(UNDO_LABEL)
        .next()
        .expect("undo button")
        .click();
    harness.run();
    let events = journal(&path);
    assert_eq!(events.len(), 4);
    assert_eq!(events[3].kind, EventKind::Undone { event: 3 });

    // Advance: the mandatory items are skipped with a reason first, then Next.
    click(&mut harness, NEXT_LABEL);
    let refused = labels_containing(&harness, "mandatory items are still pending");
    assert!(!refused.is_empty(), "a refused Next is shown inline");
    assert_eq!(journal(&path).len(), 4, "a refused Next writes nothing");
    // Each open item's Skip menu: a reason typed for the first, a reason offered for the rest.
    let mut first = true;
    loop {
        let Some(menu) = harness
            .query_all_by_label(umpire::app::SKIP_MENU_LABEL)
            .next()
        else {
            break;
        };
        menu.scroll_to_me();
        harness.run();
        harness
            .get_all_by_label(umpire::app::SKIP_MENU_LABEL)
            .next()
            .expect("the menu")
            .click();
        harness.run();
        if first {
            type_into(&mut harness, SKIP_REASON_LABEL, "not played today");
            harness
                .query_all_by_label_contains("Skip ")
                .find(|n| n.accesskit_node().role() == Role::Button)
                .expect("the skip button")
                .click();
            first = false;
        } else {
            harness
                .get_by_role_and_label(Role::Button, umpire::app::SKIP_REASONS[0])
                .click();
        }
        harness.run();
    }
    click(&mut harness, NEXT_LABEL);
    let events = journal(&path);
    let last = events.last().expect("events");
    assert!(
        matches!(&last.kind, EventKind::Stepped { from, to } if to > from),
        "{:?}",
        last.kind
    );
    assert!(events.iter().any(
        |e| matches!(&e.kind, EventKind::Skipped { reason, .. } if reason == "not played today")
    ));
}

#[test]
fn ctrl_z_undoes_and_ctrl_shift_z_redoes_a_move_on_a_free_form_table() {
    let path = temp_game("skirmish");
    let mut harness = desk_on(&path, &fixture());
    select_counter(&mut harness, "pikes", "Blue pikes");
    type_into(&mut harness, MOVE_TO_LABEL, "12, 18");
    click(&mut harness, MOVE_LABEL);
    assert!(
        !labels_containing(&harness, "(12, 18)").is_empty(),
        "the table shows the new position"
    );
    // Leave the text field, then use the shortcuts.
    harness.key_press(egui::Key::Escape);
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::Z,
    );
    harness.run();
    let kinds: Vec<&str> = journal(&path).iter().map(|e| e.kind.name()).collect();
    assert_eq!(kinds, ["game_started", "changed", "undone", "redone"]);
}

#[test]
fn ctrl_k_opens_the_command_palette_listing_every_command() {
    let path = temp_game("palette");
    let mut harness = desk_on(&path, &fixture());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::K);
    harness.run();
    assert!(
        harness
            .query_by_label(umpire::app::PALETTE_SEARCH_LABEL)
            .is_some(),
        "the palette is open"
    );
    // Every command that applies to this game (a free-form table: no map zoom, no megagame
    // clock), and no other.
    let mut listed = 0;
    for c in UiCommand::ALL {
        let applies = umpire::app::applies(&c, harness.state().game.as_ref());
        assert_eq!(
            harness
                .query_all_by_label_contains(c.label())
                .next()
                .is_some(),
            applies,
            "{} is listed: {applies}",
            c.label()
        );
        listed += usize::from(applies);
    }
    assert!(listed >= 20, "{listed} commands listed");
    assert!(!umpire::app::applies(
        &UiCommand::ClockStart,
        harness.state().game.as_ref()
    ));
    // Narrow it down and run the command: a note-free, always-possible one (Undo refuses: the
    // refusal is shown, nothing is written).
    type_into(&mut harness, umpire::app::PALETTE_SEARCH_LABEL, "undo");
    harness
        .query_all_by_label_contains("Undo")
        .rfind(|n| n.accesskit_node().role() == Role::Button)
        .expect("palette entry")
        .click();
    harness.run();
    assert!(!labels_containing(&harness, "nothing to undo").is_empty());
    assert_eq!(journal(&path).len(), 1);
}

/// File → Print… writes the PDF on a worker thread while the window keeps drawing.
#[test]
fn ctrl_p_prints_a_turn_report_off_the_ui_thread() {
    let path = temp_game("print");
    let mut harness = desk_on(&path, &fixture());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::P);
    harness.run();
    let out = path.with_file_name("turn1.pdf");
    type_into(
        &mut harness,
        umpire::app::PRINT_PATH_LABEL,
        out.to_str().unwrap(),
    );
    harness.get_by_label(umpire::app::PRINT_LABEL).click();
    // The job runs on its own thread while a spinner keeps the window drawing: step frames
    // until it reports.
    let mut done = false;
    for _ in 0..200 {
        harness.step();
        if !labels_containing(&harness, "wrote ").is_empty() {
            done = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    assert!(done, "the print job reported back");
    let bytes = std::fs::read(&out).expect("the PDF is written");
    assert!(bytes.starts_with(b"%PDF"), "a PDF");
    assert!(bytes.len() > 10_000, "with its embedded font and content");
}

/// File → Print… never writes over the game file, and asks before replacing another file:
/// "Keep it" keeps it, "Replace it" replaces it whole.
#[test]
fn print_refuses_the_game_file_and_asks_before_replacing_a_file() {
    let path = temp_game("print-safe");
    let mut harness = desk_on(&path, &fixture());
    let game_bytes = std::fs::read(&path).expect("game bytes");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::P);
    harness.run();
    type_into(
        &mut harness,
        umpire::app::PRINT_PATH_LABEL,
        path.to_str().unwrap(),
    );
    click(&mut harness, umpire::app::PRINT_LABEL);
    assert!(
        !labels_containing(&harness, "is an Umpire game file; choose another name").is_empty(),
        "the game file is refused"
    );
    assert!(labels_containing(&harness, "Replace it?").is_empty());
    assert_eq!(std::fs::read(&path).expect("game bytes"), game_bytes);

    let taken = path.with_file_name("taken.pdf");
    std::fs::write(&taken, b"keep me").expect("seed");
    type_into(
        &mut harness,
        umpire::app::PRINT_PATH_LABEL,
        taken.to_str().unwrap(),
    );
    click(&mut harness, umpire::app::PRINT_LABEL);
    assert!(
        !labels_containing(&harness, "already exists. Replace it?").is_empty(),
        "asked before replacing"
    );
    click(&mut harness, umpire::app::PRINT_KEEP_LABEL);
    assert!(labels_containing(&harness, "Replace it?").is_empty());
    assert_eq!(std::fs::read(&taken).expect("kept"), b"keep me");

    click(&mut harness, umpire::app::PRINT_LABEL);
    // The job's spinner keeps the window drawing: step frames (not `run`) until it reports.
    harness
        .get_by_label(umpire::app::PRINT_REPLACE_LABEL)
        .click();
    let mut done = false;
    for _ in 0..200 {
        harness.step();
        if !labels_containing(&harness, "wrote ").is_empty() {
            done = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    assert!(done, "the print job reported back");
    let bytes = std::fs::read(&taken).expect("written");
    assert!(bytes.starts_with(b"%PDF"), "replaced by the PDF");
    assert_eq!(std::fs::read(&path).expect("game bytes"), game_bytes);
}

#[test]
fn a_stack_dragged_onto_a_hex_moves_there_as_one_entry() {
    let path = temp_game("drag");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    harness.run();
    // Zoom out a little (the wheel, over the map's centre), so every counter is on screen.
    let centre = harness
        .state()
        .game
        .as_ref()
        .and_then(|g| g.map.map_rect())
        .expect("the hex map is shown")
        .center();
    harness.hover_at(centre);
    harness.run();
    harness.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -250.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
    for _ in 0..20 {
        harness.run();
    }
    // A counter well inside the map as shown, and the empty hex below it.
    let (id, from_hex, to_hex, from, to) = {
        let g = harness.state().game.as_ref().expect("game");
        let rect = g.map.map_rect().expect("the hex map is shown").shrink(15.0);
        let stacks = g.live.stacks().clone();
        let mut found = None;
        for (hex, ids) in &stacks {
            let id = HexId::parse_any(hex).expect("hex id");
            let (col, row) = (id.col(), id.row());
            let below = HexId::new(col, row + 1, hex.len()).id();
            if let (Some(a), Some(b)) = (g.map.hex_screen_pos(hex), g.map.hex_screen_pos(&below))
                && rect.contains(a)
                && rect.contains(b)
                && !stacks.contains_key(&below)
                && !stacks.contains_key(&HexId::new(col, row + 2, hex.len()).id())
                && g.map
                    .hex_screen_pos(&HexId::new(col, row + 2, hex.len()).id())
                    .is_some_and(|p| rect.contains(p))
            {
                found = Some((ids.clone(), hex.clone(), below, a, b));
                break;
            }
        }
        found.unwrap_or_else(|| {
            let some: Vec<_> = stacks
                .keys()
                .take(5)
                .map(|h| (h.clone(), g.map.hex_screen_pos(h)))
                .collect();
            panic!(
                "no counter with an empty hex below it on screen: {rect:?} {} stacks {some:?}",
                stacks.len()
            )
        })
    };
    let stack = id;
    for id in &stack {
        assert_eq!(
            harness
                .state()
                .game
                .as_ref()
                .expect("game")
                .game()
                .state()
                .counters[id]
                .position,
            Position::Hex(from_hex.clone())
        );
    }
    // Select the stack with a click (a drag from a counter not selected pans the map), then
    // press on it, drag it down one hex in small steps, release there.
    click_map(&mut harness, from);
    assert!(
        harness
            .state()
            .game
            .as_ref()
            .and_then(|g| g.live.selected.as_ref())
            .is_some_and(|s| stack.contains(s)),
        "the click selected the stack"
    );
    harness.hover_at(from);
    harness.run();
    harness.drag_at(from);
    harness.run();
    for k in 1..=8 {
        harness.hover_at(from + (to - from) * (k as f32 / 8.0));
        harness.run();
    }
    harness.drop_at(to);
    harness.run();
    harness.run();
    let events = journal(&path);
    assert_eq!(
        events.len(),
        2,
        "{:?}",
        harness.state().game.as_ref().and_then(|g| g.message())
    );
    // The whole stack (the Force) moved as one entry: every counter of it, to the hex.
    let EventKind::Changed { changes, .. } = &events[1].kind else {
        panic!("{:?}", events[1].kind);
    };
    assert_eq!(changes.len(), stack.len(), "{changes:?}");
    for id in &stack {
        assert!(
            changes.iter().any(|c| matches!(c, CounterChange::Move { counter, to: Position::Hex(h), .. } if counter == id && *h == to_hex)),
            "{id} did not move with its stack: {changes:?}"
        );
    }
    let state = Game::open(&path, &Library::shipped()).expect("opens");
    for id in &stack {
        assert_eq!(
            state.state().counters[id].position,
            Position::Hex(to_hex.clone())
        );
    }

    // Dragging the empty map pans it: nothing is recorded.
    let (empty, start) = {
        let g = harness.state().game.as_ref().expect("game");
        let id = HexId::parse_any(&to_hex).expect("hex id");
        let (col, row) = (id.col(), id.row());
        let empty = HexId::new(col, row + 2, to_hex.len()).id();
        assert!(!g.live.stacks().contains_key(&empty), "{empty} is empty");
        let at = g.map.hex_screen_pos(&empty).expect("on screen");
        (empty, at)
    };
    harness.hover_at(start);
    harness.run();
    harness.drag_at(start);
    harness.run();
    for k in 1..=4 {
        harness.hover_at(start + egui::vec2(15.0, 10.0) * k as f32);
        harness.run();
    }
    harness.drop_at(start + egui::vec2(60.0, 40.0));
    harness.run();
    let events = journal(&path);
    assert_eq!(events.len(), 2, "{:?}", events.last().map(|e| &e.kind));
    let moved = harness
        .state()
        .game
        .as_ref()
        .and_then(|g| g.map.hex_screen_pos(&empty))
        .expect("still known");
    assert!(
        (moved - start).length() > 30.0,
        "the map panned: {start:?} → {moved:?}"
    );
}

/// A click (press and release in one place) on the map at `at`.
fn click_map(harness: &mut Harness<'static, DeskApp>, at: egui::Pos2) {
    harness.hover_at(at);
    harness.run();
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
    harness.event(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
}

/// Clicks the first Set button of the hand changes (the strength's: it comes first).
fn click_first_set(harness: &mut Harness<'static, DeskApp>) {
    harness
        .get_all_by_label(umpire::app::SET_LABEL)
        .next()
        .expect("a Set button")
        .click();
    harness.run();
}

/// Opens the "Change by hand" section of the counters panel.
fn open_hand_changes(harness: &mut Harness<'static, DeskApp>) {
    let header = harness.get_by_label(umpire::app::CHANGE_BY_HAND_LABEL);
    header.scroll_to_me();
    harness.run();
    harness
        .get_by_label(umpire::app::CHANGE_BY_HAND_LABEL)
        .click();
    harness.run();
}

/// The umpire marks a unit Disrupted and sets its strength by hand, each one journal entry
/// with the note given, from the ruleset's own list of markers (with their printed names).
#[test]
fn a_status_marker_and_a_strength_are_set_by_hand_with_a_note() {
    let path = temp_game("hand");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    let unit = "Italian Infantry (Venetian service, Vitelli)";
    select_counter(&mut harness, "Vitelli", unit);
    open_hand_changes(&mut harness);
    for _ in 0..3 {
        eprintln!(
            "DEBUG {}",
            harness
                .query_all_by_label(umpire::app::EDIT_NOTE_LABEL)
                .count()
        );
        harness.run();
    }
    type_into(
        &mut harness,
        umpire::app::EDIT_NOTE_LABEL,
        "lost its order crossing the Adda",
    );
    let marker = harness.get_by_label("Disrupted");
    marker.scroll_to_me();
    harness.run();
    harness.get_by_label("Disrupted").click();
    harness.run();
    let events = journal(&path);
    assert_eq!(events.len(), 2, "one entry for the marker");
    let EventKind::Changed {
        changes, reason, ..
    } = &events[1].kind
    else {
        panic!("{:?}", events[1].kind)
    };
    assert_eq!(reason.as_deref(), Some("lost its order crossing the Adda"));
    assert!(
        matches!(&changes[..], [CounterChange::Status { status, on: true, .. }] if status == "disrupted")
    );
    // The journal says it in words.
    assert!(!labels_containing(&harness, "is now disrupted").is_empty());

    // The strength, typed and set: validated against the attribute (a letter is refused).
    type_into(&mut harness, "Strength Points (current)", "x");
    click_first_set(&mut harness);
    assert_eq!(journal(&path).len(), 2, "a letter is not a strength");
    type_into(&mut harness, "Strength Points (current)", "1");
    click_first_set(&mut harness);
    let events = journal(&path);
    assert_eq!(events.len(), 3);
    let game = Game::open(&path, &Library::shipped()).expect("opens");
    let id = game.state().counter_id(unit).expect("the unit").to_string();
    let c = &game.state().counters[&id];
    assert_eq!(
        c.attributes.get("strength_points"),
        Some(&umpire::rules::Value::Int(1))
    );
    assert!(c.statuses.contains("disrupted"));
}

/// A click on the map never moves anything: a click on an empty hex with a stack selected
/// offers "Move here", and only the umpire's word moves the stack, as one entry.
#[test]
fn a_click_only_offers_a_move_and_the_umpire_confirms_it() {
    let path = temp_game("click");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    harness.run();
    let (stack, from, to_hex, to) = {
        let g = harness.state().game.as_ref().expect("game");
        let rect = g.map.map_rect().expect("the hex map").shrink(20.0);
        let stacks = g.live.stacks().clone();
        let mut found = None;
        for (hex, ids) in &stacks {
            let h = HexId::parse_any(hex).expect("hex");
            let target = HexId::new(h.col() + 2, h.row(), hex.len()).id();
            if let (Some(a), Some(b)) = (g.map.hex_screen_pos(hex), g.map.hex_screen_pos(&target))
                && rect.contains(a)
                && rect.contains(b)
                && !stacks.contains_key(&target)
                && ids.len() > 1
            {
                found = Some((ids.clone(), a, target, b));
                break;
            }
        }
        found.expect("a stack with an empty hex beside it on screen")
    };
    click_map(&mut harness, from);
    click_map(&mut harness, to);
    harness.run();
    assert_eq!(journal(&path).len(), 1, "a click moves nothing");
    let offer = labels_containing(&harness, umpire::app::MOVE_HERE_LABEL);
    assert_eq!(offer.len(), 1, "{offer:?}");
    assert!(offer[0].contains(&format!("hex {to_hex}")), "{offer:?}");
    assert!(
        offer[0].contains(&format!("{} counters", stack.len())),
        "{offer:?}"
    );
    harness
        .get_by_role_and_label(Role::Button, &offer[0])
        .click();
    harness.run();
    let events = journal(&path);
    assert_eq!(events.len(), 2);
    let EventKind::Changed { changes, .. } = &events[1].kind else {
        panic!("{:?}", events[1].kind)
    };
    assert_eq!(changes.len(), stack.len());
    assert!(labels_containing(&harness, umpire::app::MOVE_HERE_LABEL).is_empty());
}

/// A Discipline Check read off the physical chart: the desk offers the codes the text names
/// (F, P, D, D*), takes one of them at once, and holds any other code until the umpire confirms
/// the chart prints it.
#[test]
fn a_chart_result_is_one_of_the_codes_the_text_gives_or_confirmed() {
    use umpire::rules::Value;
    let path = temp_game("codes");
    let mut g = GameDesk::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(7))
        .expect("game");
    g.select_procedure("discipline_check");
    for (name, value) in [
        ("reason", Value::Text("combat".into())),
        ("troop_quality", Value::Int(2)),
        ("reliability", Value::Text("N".into())),
        ("bonus_star", Value::Bool(false)),
        ("treachery_extra_ap", Value::Bool(false)),
    ] {
        g.resolve.resolver.set_input(name, value);
    }
    g.resolve.physical = "3".into();
    assert!(!g.use_physical(), "the cell is not in the text");
    assert!(g.resolve.pending_chart().is_some(), "{:?}", g.message());
    let codes: Vec<String> = g.chart_codes().into_iter().map(|(c, _)| c).collect();
    assert_eq!(codes, ["F", "P", "D", "D*"]);
    g.resolve.chart_entry = "X".into();
    assert!(!g.use_chart_result(), "X is held");
    assert_eq!(g.resolve.chart_unconfirmed(), Some("X"));
    assert_eq!(journal(&path).len(), 1);
    g.resolve.chart_entry = "D".into();
    assert!(g.use_chart_result(), "{:?}", g.message());
    let events = journal(&path);
    assert_eq!(events.len(), 2);
    assert!(
        matches!(&events[1].kind, EventKind::Resolved { resolution, .. } if resolution.outcome.code == "D")
    );
}

/// An input the text gives no value for starts empty, and Roll does not throw until it is
/// given: nothing is written, and the desk names what is missing.
#[test]
fn a_required_input_blocks_the_roll() {
    let path = temp_game("required");
    let mut g = GameDesk::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(7))
        .expect("game");
    g.select_procedure("assault");
    assert!(
        g.resolve.resolver.input("kind_of_attack").is_none(),
        "no kind of attack is assumed"
    );
    assert!(!g.roll(), "Roll waits for the inputs");
    assert_eq!(journal(&path).len(), 1, "nothing written");
    let message = g.message().unwrap_or_default().to_string();
    assert!(message.contains("Kind of attack"), "{message}");
}

/// The journal of the example turn: filtered to one procedure it keeps that procedure's
/// entries; an entry opens to its full explanation (the arithmetic a player checks); an undo
/// says what it took back.
#[test]
fn journal_entries_open_filter_by_procedure_and_undo_says_what() {
    let path = temp_game("journal");
    drop(crate::kit::venice_turn_one(&path));
    let g = GameDesk::open(&path, &Library::shipped()).expect("opens");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), g)
        });
    harness.run();
    {
        let g = harness.state_mut().game.as_mut().expect("game");
        g.journal.by.procedure = Some("assault".into());
        let rows = g.journal_rows();
        assert!(!rows.is_empty());
        assert!(
            rows.iter().all(|r| r.text.contains("Assault")),
            "{:?}",
            rows.iter().map(|r| &r.text).collect::<Vec<_>>()
        );
        g.journal.open = Some(rows[rows.len() - 1].seq);
    }
    harness.run();
    assert!(
        !labels_containing(&harness, "Modified roll: 5 + 2 = 7").is_empty(),
        "the opened entry shows its arithmetic"
    );
    // An undo says what it took back.
    {
        let g = harness.state_mut().game.as_mut().expect("game");
        g.journal.by = Default::default();
        g.journal.open = None;
        assert!(g.act(umpire::game::Action::Undo));
    }
    harness.run();
    let undid = labels_containing(&harness, "Undid entry");
    assert!(
        undid
            .iter()
            .any(|l| l.contains(": ") && l.len() > "#103 Undid entry 102: ".len()),
        "{undid:?}"
    );
}

/// Every game action of the desk is a command that carries what it acts on: queued as the
/// panels queue them, a Force's move, a hand change with its note and a skip with its reason
/// each write one entry.
#[test]
fn game_actions_are_commands_with_their_parameters() {
    let path = temp_game("commands");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    harness.run();
    let (force, to) = {
        let g = harness.state().game.as_ref().expect("game");
        let state = g.game().state();
        let chaumont = state.counter_id("Chaumont").expect("Chaumont").to_string();
        let hex = state.counters[&chaumont].position.clone();
        let force: Vec<String> = state
            .counters
            .values()
            .filter(|c| c.position == hex)
            .map(|c| c.id.clone())
            .collect();
        (force, Position::Hex("2833".into()))
    };
    let item = {
        let g = harness.state().game.as_ref().expect("game");
        g.game()
            .pending()
            .into_iter()
            .find(|p| !p.done)
            .expect("a pending item")
            .key
    };
    let unit = force
        .iter()
        .find(|id| id.contains("gendarmes"))
        .expect("the Gendarmes")
        .clone();
    for command in [
        Command::Act(move_action(&force, to.clone())),
        Command::Act(Action::Edit {
            counter: CounterId::new(unit.clone()),
            edit: umpire::game::Edit::Status {
                status: "disrupted".into(),
                on: true,
            },
            note: Some("crossed the Adda in the dark".into()),
        }),
        Command::Act(Action::Skip {
            item,
            reason: "not played today".into(),
        }),
    ] {
        harness.state_mut().shell.queue.push(command);
        harness.run();
    }
    let events = journal(&path);
    assert_eq!(
        events.len(),
        4,
        "{:?}",
        events.iter().map(|e| &e.kind).collect::<Vec<_>>()
    );
    assert!(
        matches!(&events[1].kind, EventKind::Changed { changes, .. } if changes.len() == force.len())
    );
    assert!(
        matches!(&events[2].kind, EventKind::Changed { reason: Some(r), .. } if r == "crossed the Adda in the dark")
    );
    assert!(
        matches!(&events[3].kind, EventKind::Skipped { reason, .. } if reason == "not played today")
    );
}

/// A counter the scenario did not have is put on the table by hand (an army raised, a marker):
/// one entry, replayed when the game is opened again, in words in the journal; and it can be
/// taken off again.
#[test]
fn a_counter_is_added_by_hand_and_taken_off_again() {
    let path = temp_game("add");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    harness.run();
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Act(Action::AddCounter {
            name: "Venetian Militia (raised at Brescia)".into(),
            side: "venetian".into(),
            kind: umpire::game::scenario::CounterKind::Unit,
            at: Position::Hex("2849".into()),
            attributes: vec![("strength_points".into(), "3".into())],
            force: None,
            note: Some("raised by the Serenissima".into()),
        }));
    harness.run();
    // The same name again is refused: names stay unique.
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Act(Action::AddCounter {
            name: "Venetian Militia (raised at Brescia)".into(),
            side: "venetian".into(),
            kind: umpire::game::scenario::CounterKind::Unit,
            at: Position::Hex("2849".into()),
            attributes: Vec::new(),
            force: None,
            note: None,
        }));
    harness.run();
    assert_eq!(
        journal(&path).len(),
        2,
        "one entry, the second name refused"
    );
    let game = Game::open(&path, &Library::shipped()).expect("replays");
    let id = game
        .state()
        .counter_id("Venetian Militia (raised at Brescia)")
        .expect("on the table")
        .to_string();
    let c = &game.state().counters[&id];
    assert_eq!(c.position, Position::Hex("2849".into()));
    assert_eq!(
        c.attributes.get("strength_points"),
        Some(&umpire::rules::Value::Int(3))
    );
    assert!(
        !labels_containing(&harness, "put on the table at hex 2849 (Brescia)").is_empty(),
        "the journal says it in words"
    );
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Act(Action::Edit {
            counter: CounterId::new(id.clone()),
            edit: umpire::game::Edit::Remove,
            note: Some("disbanded".into()),
        }));
    harness.run();
    let game = Game::open(&path, &Library::shipped()).expect("replays");
    assert!(game.state().counters[&id].removed.is_some());
}

/// Turn 1 of "Venice at bay" played through the desk's own commands and panels, as its
/// buttons drive it: the Weather read off the chart from the codes offered, the APs credited,
/// Chaumont's Force moved as one, the Intelligence reveals, a Skirmish with the counters in
/// their roles and its inputs from them and from the game, the results read off the charts,
/// the loss and the Disrupted marker set by hand, every other item skipped with a reason
/// offered, and the turn report printed. Nothing typed is an id, a key or a reason the rules do
/// not ask for (the counters are picked, the reasons chosen).
#[test]
fn an_umpire_plays_turn_one_of_venice_from_the_desk() {
    use umpire::rules::Value;
    let path = temp_game("turn-one");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    harness.run();
    let run = |harness: &mut Harness<'static, DeskApp>, c: Command| {
        harness.state_mut().shell.queue.push(c);
        harness.run();
    };
    let id_of = |harness: &Harness<'static, DeskApp>, name: &str| -> String {
        let g = harness.state().game.as_ref().expect("game");
        g.game().state().counter_id(name).expect(name).to_string()
    };
    let stack_at = |harness: &Harness<'static, DeskApp>, hex: &str| -> Vec<String> {
        let g = harness.state().game.as_ref().expect("game");
        g.live.stacks().get(hex).cloned().unwrap_or_default()
    };
    let mut guard = 0;
    let mut presses = 0;
    loop {
        guard += 1;
        assert!(guard < 80, "the turn ends");
        let (turn, step) = {
            let g = harness.state().game.as_ref().expect("game");
            (g.game().status().turn, g.game().status().step.id)
        };
        if turn > 1 {
            break;
        }
        match step.as_str() {
            "phase_a_weather" => {
                let g = harness.state_mut().game.as_mut().expect("game");
                g.select_procedure("weather");
                g.resolve.physical = "4".into();
                assert!(!g.use_physical(), "the Weather Table is not in the text");
                let fair = g
                    .chart_codes()
                    .into_iter()
                    .find(|(c, _)| c == "fair")
                    .expect("the desk offers the table's codes");
                g.resolve.chart_entry = fair.0;
                assert!(g.use_chart_result(), "{:?}", g.message());
            }
            "c2b_activate" => {
                // Chaumont's Force, moved as one from Cassano to 2833.
                let force = stack_at(&harness, "2832");
                assert!(force.len() >= 3, "{force:?}");
                run(
                    &mut harness,
                    Command::Act(move_action(&force, Position::Hex("2833".into()))),
                );
            }
            "d1_intelligence" => run(&mut harness, Command::Ui(UiCommand::RevealContacts)),
            // Step 2 offers the kinds of battle: Chaumont against Vitelli is a Skirmish.
            "battle_step_2" => run(
                &mut harness,
                Command::Ui(UiCommand::EnterStep("skirmish".into())),
            ),
            "step_4b" => {
                let attackers: Vec<String> = stack_at(&harness, "2833")
                    .into_iter()
                    .filter(|id| !id.eq(&id_of(&harness, "Chaumont")))
                    .collect();
                let vitelli_infantry =
                    id_of(&harness, "Italian Infantry (Venetian service, Vitelli)");
                let defenders: Vec<String> = stack_at(&harness, "2834")
                    .into_iter()
                    .filter(|id| !id.eq(&id_of(&harness, "Vitelli")))
                    .collect();
                run(
                    &mut harness,
                    Command::Ui(UiCommand::OpenProcedure("assault".into())),
                );
                for counter in attackers {
                    run(
                        &mut harness,
                        Command::Ui(UiCommand::AddToRole {
                            role: "attacker".into(),
                            counter,
                        }),
                    );
                }
                for counter in defenders {
                    run(
                        &mut harness,
                        Command::Ui(UiCommand::AddToRole {
                            role: "defender".into(),
                            counter,
                        }),
                    );
                }
                {
                    let g = harness.state_mut().game.as_mut().expect("game");
                    // From the game: this turn's Weather.
                    assert!(
                        g.resolve
                            .prefilled()
                            .iter()
                            .any(|f| f.input == "weather" && f.game.is_some()),
                        "{:?}",
                        g.resolve.prefilled()
                    );
                    // What the umpire chooses or reads off the counters' printed faces.
                    for (name, value) in [
                        ("battle", Value::Text("skirmish".into())),
                        ("attacker_q3_sp", Value::Int(6)),
                        ("attacker_q2_sp", Value::Int(12)),
                        ("defender_q2_sp", Value::Int(2)),
                        ("defender_q1_sp", Value::Int(1)),
                        ("odds_drm", Value::Int(2)),
                        ("attacker_force_sp", Value::Int(18)),
                        ("defender_force_sp", Value::Int(3)),
                    ] {
                        g.resolve.resolver.set_input(name, value);
                    }
                    g.resolve.physical = "5".into();
                    assert!(!g.use_physical(), "the AST is not in the text");
                    g.resolve.chart_entry = "D1".into();
                    // The text names no AST codes: the umpire confirms the chart prints D1.
                    assert!(!g.use_chart_result());
                    assert!(g.confirm_chart_result(), "{:?}", g.message());
                }
                run(
                    &mut harness,
                    Command::Ui(UiCommand::OpenProcedure("discipline_check".into())),
                );
                run(
                    &mut harness,
                    Command::Ui(UiCommand::AddToRole {
                        role: "unit".into(),
                        counter: vitelli_infantry.clone(),
                    }),
                );
                {
                    let g = harness.state_mut().game.as_mut().expect("game");
                    for (name, value) in [
                        ("reason", Value::Text("combat".into())),
                        ("troop_quality", Value::Int(2)),
                        ("reliability", Value::Text("S".into())),
                    ] {
                        g.resolve.resolver.set_input(name, value);
                    }
                    g.resolve.physical = "3".into();
                    assert!(!g.use_physical());
                    g.resolve.chart_entry = "D".into();
                    assert!(g.use_chart_result(), "D is a code the text names");
                }
                // The loss and the marker, by hand, with the results as the note.
                run(
                    &mut harness,
                    Command::Act(Action::Edit {
                        counter: CounterId::new(vitelli_infantry.clone()),
                        edit: umpire::game::Edit::Set {
                            attribute: "strength_points".into(),
                            value: "1".into(),
                            seen: umpire::game::Seen::Unchecked,
                        },
                        note: Some("Assault D1".into()),
                    }),
                );
                run(
                    &mut harness,
                    Command::Act(Action::Edit {
                        counter: CounterId::new(vitelli_infantry.clone()),
                        edit: umpire::game::Edit::Status {
                            status: "disrupted".into(),
                            on: true,
                        },
                        note: Some("Discipline D".into()),
                    }),
                );
            }
            _ => {}
        }
        // Whatever is still pending: credit what the scenario schedules, skip the rest with a
        // reason the desk offers.
        let pending = harness
            .state()
            .game
            .as_ref()
            .expect("game")
            .game()
            .status()
            .pending;
        for p in pending.into_iter().filter(|p| !p.done) {
            if p.credit.is_some() {
                run(&mut harness, Command::Act(Action::Credit { item: p.key }));
            } else if p.mandatory {
                run(
                    &mut harness,
                    Command::Act(Action::Skip {
                        item: p.key,
                        reason: umpire::app::SKIP_REASONS[0].into(),
                    }),
                );
                presses += 1;
            }
        }
        run(&mut harness, Command::Ui(UiCommand::Next));
        presses += 1;
    }
    // Issue 26: the turn took 51 Next presses and 39 skips (90) when every step stopped; now
    // Next goes to the steps that need the umpire.
    eprintln!("Venice turn 1 at the desk: {presses} Next presses and skips");
    assert!(presses <= 15, "{presses} Next presses and skips");
    let game = Game::open(&path, &Library::shipped()).expect("the journal replays");
    let unit = game
        .state()
        .counter_id("Italian Infantry (Venetian service, Vitelli)")
        .expect("the unit")
        .to_string();
    let c = &game.state().counters[&unit];
    assert_eq!(c.attributes.get("strength_points"), Some(&Value::Int(1)));
    assert!(c.statuses.contains("disrupted"));
    let chaumont = game
        .state()
        .counter_id("Chaumont")
        .expect("Chaumont")
        .to_string();
    assert_eq!(
        game.state().counters[&chaumont].position,
        Position::Hex("2833".into())
    );
    // The turn report, as File → Print makes it.
    let bytes = umpire::report::turn_report_pdf(
        &game,
        &umpire::report::ReportOptions {
            turn: Some(1),
            side: None,
            printed_at: chrono::Local::now(),
        },
        umpire::report::Template::sheet_default().expect("template"),
    )
    .expect("the report");
    assert!(bytes.starts_with(b"%PDF"));
}

/// A turn's reinforcements are placed from the Sequence of Play with one action (what its item's
/// Place button queues): every counter at its entry place, as one entry; the item is then done.
#[test]
fn reinforcements_are_placed_from_their_pending_item() {
    let path = temp_game("reinforcements");
    let mut harness = desk_on(&path, &scenario("s2_last_triumph"));
    harness.run();
    let mut placed = false;
    for _ in 0..400 {
        let pending = {
            let g = harness.state().game.as_ref().expect("game");
            g.game().status().pending
        };
        if let Some(item) = pending
            .iter()
            .find(|p| p.key.starts_with("reinforcements:") && !p.done)
        {
            // What the item's Place button queues: every counter of the arrival in one change.
            let action = {
                let g = harness.state().game.as_ref().expect("game");
                let game = g.game();
                let arrival = umpire::game::arrivals::find_arrival(
                    game.ruleset(),
                    game.scenario(),
                    game.state(),
                    Some(&item.key),
                )
                .expect("the arrival");
                let (changes, reason) =
                    umpire::game::arrivals::arrival_changes(&arrival, game.state(), None);
                Action::Change { changes, reason }
            };
            let before = journal(&path).len();
            harness.state_mut().shell.queue.push(Command::Act(action));
            harness.run();
            assert_eq!(journal(&path).len(), before + 1, "one entry for them all");
            let g = harness.state().game.as_ref().expect("game");
            let now = g.game().status().pending;
            assert!(
                now.iter().any(|p| p.key == item.key && p.done),
                "the item is done: {now:?}"
            );
            placed = true;
            break;
        }
        for p in pending.into_iter().filter(|p| !p.done) {
            let c = if p.credit.is_some() {
                Command::Act(Action::Credit { item: p.key })
            } else if p.mandatory {
                Command::Act(Action::Skip {
                    item: p.key,
                    reason: umpire::app::SKIP_REASONS[0].into(),
                })
            } else {
                continue;
            };
            harness.state_mut().shell.queue.push(c);
            harness.run();
        }
        harness
            .state_mut()
            .shell
            .queue
            .push(Command::Ui(UiCommand::Next));
        harness.run();
    }
    assert!(placed, "the scenario's reinforcements came up");
}

/// From the keyboard or the palette: E opens the selected counter's hand changes, H hides the
/// counters (to read the map underlay) and shows them again.
#[test]
fn hand_changes_and_hiding_the_counters_are_commands() {
    let path = temp_game("palette");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    select_counter(&mut harness, "Alviano", "Alviano");
    assert!(
        harness
            .query_by_label(umpire::app::EDIT_NOTE_LABEL)
            .is_none()
    );
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Ui(UiCommand::HandChanges));
    harness.run();
    // Applied after the frame that queued it; the next frame shows it.
    harness.run();
    assert!(
        harness
            .query_by_label(umpire::app::EDIT_NOTE_LABEL)
            .is_some(),
        "the hand changes are open"
    );
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Ui(UiCommand::ToggleCounters));
    harness.run();
    assert!(
        harness
            .state()
            .game
            .as_ref()
            .expect("game")
            .map
            .hide_counters
    );
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Ui(UiCommand::ToggleCounters));
    harness.run();
    assert!(
        !harness
            .state()
            .game
            .as_ref()
            .expect("game")
            .map
            .hide_counters
    );
    assert!(
        UiCommand::ALL.contains(&UiCommand::HandChanges)
            && UiCommand::ALL.contains(&UiCommand::ToggleCounters)
    );
}

/// Decks and cups at the desk (issue 16): at Gradisca's set-up the panel is open on the cup of
/// Command markers and says the text does not give what is in it; filled, its odds show; a
/// click on Draw records an app draw in the journal; "Odds of any roll" reads d66 as two d6.
#[test]
fn the_cup_is_filled_drawn_and_its_odds_shown_at_the_desk() {
    let path = temp_game("decks");
    let mut harness = desk_on(&path, &scenario("gradisca"));
    harness.run();
    assert!(
        !labels_containing(&harness, "The text does not give what is in it").is_empty(),
        "the panel says what the text does not give"
    );
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Act(Action::Deck {
            deck: "command_markers".into(),
            owner: None,
            op: umpire::game::DeckOp::Fill {
                items: vec![("Venetian A".into(), 2), ("Austrian A".into(), 1)],
            },
            reason: None,
        }));
    harness.run();
    harness.run();
    assert!(
        !labels_containing(&harness, "3 left: 1 Austrian A, 2 Venetian A").is_empty(),
        "{:?}",
        labels_containing(&harness, "left")
    );
    assert!(
        !labels_containing(&harness, "2/3").is_empty(),
        "the odds of a Venetian A"
    );
    click(&mut harness, "Draw a marker");
    harness.run();
    let events = journal(&path);
    let drawn = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Deck {
                change: umpire::game::deck::DeckChange::Drawn { items, .. },
                after,
                ..
            } => Some((items.clone(), after.left())),
            _ => None,
        })
        .expect("a draw in the journal");
    assert_eq!(drawn.0.len(), 1);
    assert_eq!(drawn.1, 2);
    assert!(!labels_containing(&harness, "2 left").is_empty());
    // Any roll's exact odds, d66 as tens and units.
    click(&mut harness, "Odds of any roll");
    type_into(&mut harness, "Any dice", "d66");
    harness.run();
    assert!(
        !labels_containing(&harness, "1/36").is_empty(),
        "d66: 36 outcomes"
    );
    assert!(!labels_containing(&harness, "66").is_empty());
}

/// File → Players' view… (issue 17): off until started; started on the address typed, it shows
/// a QR code, a link and a code per side; New links refuses the old ones; Stop stops it.
#[test]
fn the_players_view_starts_rotates_its_links_and_stops_from_the_desk() {
    use std::io::{Read, Write};
    use umpire::app::{
        PLAYERS_BIND_LABEL, PLAYERS_ROTATE_LABEL, PLAYERS_START_LABEL, PLAYERS_STOP_LABEL,
    };
    let status = |addr: &str, path: &str| -> Option<u16> {
        let mut s = std::net::TcpStream::connect(addr).ok()?;
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .ok()?;
        let mut text = String::new();
        s.read_to_string(&mut text).ok()?;
        text.split_whitespace().nth(1)?.parse().ok()
    };
    let path = temp_game("players");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    harness.run();
    assert!(
        harness.state().shell.players.links().is_empty(),
        "off by default"
    );
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Ui(UiCommand::PlayersView));
    harness.run();
    harness.run();
    type_into(&mut harness, PLAYERS_BIND_LABEL, "127.0.0.1:0");
    click(&mut harness, PLAYERS_START_LABEL);
    harness.run();
    let links = harness.state().shell.players.links().to_vec();
    assert_eq!(links.len(), 3, "French, Venetian and everyone");
    let addr = harness.state().shell.players.bind.clone();
    let french = links
        .iter()
        .find(|l| l.name.starts_with("French"))
        .expect("French")
        .clone();
    assert!(
        !labels_containing(&harness, &french.url).is_empty(),
        "the link is shown"
    );
    assert!(!labels_containing(&harness, &format!("Code {}", french.short_code())).is_empty());
    assert_eq!(status(&addr, &format!("/s/{}", french.token)), Some(200));
    click(&mut harness, PLAYERS_ROTATE_LABEL);
    harness.run();
    let renewed = harness.state().shell.players.links().to_vec();
    let new_french = renewed
        .iter()
        .find(|l| l.name.starts_with("French"))
        .expect("French");
    assert_ne!(new_french.token, french.token);
    assert_eq!(harness.state().shell.players.bind, addr, "the same address");
    assert_eq!(
        status(&addr, &format!("/s/{}", french.token)),
        Some(403),
        "the old link"
    );
    assert_eq!(
        status(&addr, &format!("/s/{}", new_french.token)),
        Some(200)
    );
    click(&mut harness, PLAYERS_STOP_LABEL);
    harness.run();
    assert!(harness.state().shell.players.links().is_empty());
    assert_eq!(status(&addr, "/"), None, "nothing listens any more");
}

/// Help → About: the version with its commit, the licences, and where the user's data is.
#[test]
fn about_says_the_version_the_licences_and_where_the_data_is() {
    let path = temp_game("about");
    let mut harness = desk_on(&path, &fixture());
    harness.run();
    harness.state_mut().shell.about = true;
    harness.run();
    harness.run();
    assert!(!labels_containing(&harness, &format!("Version {}", umpire::VERSION)).is_empty());
    assert!(!labels_containing(&harness, "MIT or Apache-2.0").is_empty());
    assert!(!labels_containing(&harness, "DejaVu").is_empty());
    assert!(!labels_containing(&harness, "Your transcriptions of missing tables").is_empty());
}

/// A value typed for one counter is never set on the next (issue 24): with a strength typed
/// for Vitelli's infantry and not set, a click on the Stradiots in the stack inspector shows
/// the Stradiots' own values, every Set button off, and a press records nothing.
#[test]
fn a_value_typed_for_one_counter_is_not_set_on_the_next() {
    let path = temp_game("form-follows");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    select_counter(
        &mut harness,
        "Vitelli",
        "Italian Infantry (Venetian service, Vitelli)",
    );
    open_hand_changes(&mut harness);
    type_into(&mut harness, "Strength Points (current)", "3");
    let before = journal(&path).len();
    let stradiots = harness
        .get_all_by_role_and_label(Role::Button, "Stradiots Light Cavalry (Vitelli) 1")
        .next()
        .expect("the Stradiots in the stack inspector");
    stradiots.click();
    harness.run();
    harness.run();
    {
        let g = harness.state().game.as_ref().expect("game");
        let picked = g.live.selected.clone().expect("a counter selected");
        assert_eq!(
            g.game().state().counter_name(&picked),
            "Stradiots Light Cavalry (Vitelli)"
        );
    }
    let set = harness.get_all_by_label(umpire::app::SET_LABEL).next();
    if let Some(set) = set {
        set.click();
    }
    harness.run();
    assert_eq!(
        journal(&path).len(),
        before,
        "nothing recorded: no value was typed for the Stradiots"
    );
    let g = harness.state().game.as_ref().expect("game");
    let id = g
        .game()
        .state()
        .counter_id("Stradiots Light Cavalry (Vitelli)")
        .expect("the Stradiots")
        .to_string();
    assert_eq!(
        g.game().state().counters[&id]
            .attributes
            .get("strength_points"),
        Some(&umpire::rules::Value::Int(1)),
        "the Stradiots keep their strength"
    );
}

/// The counters picked for one procedure do not follow the umpire into the next (issue 24):
/// the Assault's attackers are not the Discipline Check's unit.
#[test]
fn another_procedure_opens_with_no_counters() {
    let path = temp_game("roles-cleared");
    let mut harness = desk_on(&path, &scenario("s1_venice"));
    harness.run();
    let run = |harness: &mut Harness<'static, DeskApp>, c: Command| {
        harness.state_mut().shell.queue.push(c);
        harness.run();
    };
    let gendarmes = {
        let g = harness.state().game.as_ref().expect("game");
        g.game()
            .state()
            .counter_id("French Gendarmes (Chaumont)")
            .expect("the Gendarmes")
            .to_string()
    };
    run(
        &mut harness,
        Command::Ui(UiCommand::OpenProcedure("assault".into())),
    );
    run(
        &mut harness,
        Command::Ui(UiCommand::AddToRole {
            role: "attacker".into(),
            counter: gendarmes.clone(),
        }),
    );
    // A role that takes a Force takes the Gendarmes' whole Force (issue 26).
    let attacker = harness.state().game.as_ref().expect("game").resolve.roles()["attacker"].clone();
    assert!(attacker.contains(&umpire::game::CounterId::from(gendarmes)));
    assert_eq!(
        attacker.len(),
        4,
        "Chaumont and his three units: {attacker:?}"
    );
    run(
        &mut harness,
        Command::Ui(UiCommand::OpenProcedure("discipline_check".into())),
    );
    let g = harness.state().game.as_ref().expect("game");
    assert!(
        g.resolve.roles().is_empty(),
        "the Discipline Check starts with no counters: {:?}",
        g.resolve.roles()
    );
}

/// The sign-in window and the held-actions window queue their commands like every panel: a
/// sign-in makes that umpire the one who acts; settling a held action when nothing is held is
/// refused in words, and nothing is written.
#[test]
fn signing_in_and_settling_held_actions_are_queued_commands() {
    let path = temp_game("sign-in-settle");
    let mut g = GameDesk::create(&path, &scenario("s1_venice"), &Library::shipped(), Some(7))
        .expect("game");
    let who = umpire::megagame::remit::SignedIn::parse("Greta:game").expect("greta");
    assert!(g.run(UiCommand::SignIn(who.clone())));
    assert_eq!(g.live.signed_in(), Some(&who));
    let actor = g.live.actor().expect("who acts");
    assert_eq!(actor.by, who.clone().actor().by);
    assert!(actor.gate.is_some(), "held to Game Control's remit");
    let entries = journal(&path).len();
    assert!(!g.run(UiCommand::SettleHeld {
        index: 0,
        send: true
    }));
    let message = g.message().expect("a refusal").to_string();
    assert!(message.contains("no held action"), "{message}");
    assert_eq!(journal(&path).len(), entries, "nothing written");
}
