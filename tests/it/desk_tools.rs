//! The desk's tools, driven headless through their AccessKit labels (egui_kittest): the chart
//! editor, the map underlay, and the long work (open, new, verify, export) that runs off the UI
//! thread while the window keeps drawing.

use crate::kit;
use kit::{click, labels_containing, scenario, type_into};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use umpire::app::{
    CHART_RULESET_LABEL, CHART_SAVE_LABEL, CHART_TABLE_LABEL, DeskApp, EXPORT_LABEL,
    EXPORT_PATH_LABEL, GAME_FILE_LABEL, GameDesk, OPEN_LABEL, ProcedureDesk, RulesSetup,
    START_GAME_LABEL, UNDERLAY_ALIGN_LABEL, UNDERLAY_CLEAR_LABEL, UNDERLAY_HEX_LABELS,
    UNDERLAY_LOAD_LABEL, UNDERLAY_OPACITY_LABEL, UNDERLAY_PATH_LABEL, UNDERLAY_POINT_LABELS,
    WORKING_PREFIX, cell_label, sidecar_path,
};
use umpire::game::hex::HexId;
use umpire::rules::{Cell, Library};

/// A fresh folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-desk-tools-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The desk open on a new game of "Venice at bay, 1509" in `dir`, keeping underlays in
/// `dir/config` and transcriptions in `dir/rules`.
fn desk_in(dir: &Path) -> Harness<'static, DeskApp> {
    let rules = RulesSetup::shipped(Some(dir.join("rules")));
    let library = rules.load();
    let game = GameDesk::create(
        &dir.join("game.umpire"),
        &scenario("s1_venice"),
        &library,
        Some(7),
    )
    .expect("game");
    let config = dir.join("config");
    let games = dir.join("games");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(move |cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(library.clone(), 1), game)
                .with_rules(rules.clone())
                .with_config_dir(Some(config.clone()))
        });
    harness.state_mut().shell.games_dir = games;
    harness.run();
    harness
}

/// Steps frames (without waiting for the window to settle) until `done`, for at most 20 s.
fn wait_for(
    harness: &mut Harness<'static, DeskApp>,
    what: &str,
    done: impl Fn(&Harness<'static, DeskApp>) -> bool,
) {
    let start = Instant::now();
    while !done(harness) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let the spinner's last repaints settle.
    harness.run_steps(10);
}

/// Picks an entry of a combo box by (part of) its text.
fn pick(harness: &mut Harness<'static, DeskApp>, combo: &str, entry: &str) {
    click(harness, combo);
    harness
        .query_all_by_label_contains(entry)
        .next()
        .unwrap_or_else(|| panic!("no entry '{entry}' in {combo}"))
        .click();
    harness.run();
}

fn cell_value(harness: &Harness<'static, DeskApp>, row: &str, column: &str) -> Option<String> {
    harness
        .query_by_label(&cell_label(row, column))
        .and_then(|n| n.accesskit_node().value())
}

#[test]
fn chart_editor_validates_each_edit_and_saves_a_transcription_the_desk_uses() {
    let dir = temp_dir("charts");
    let mut harness = desk_in(&dir);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    harness.run();
    assert!(
        harness.query_by_label(CHART_RULESET_LABEL).is_some(),
        "Ctrl+E opens the editor"
    );
    // The game's ruleset is picked already; choose the Administrative Points Table.
    pick(&mut harness, CHART_TABLE_LABEL, "administrative_points —");
    assert_eq!(
        cell_value(&harness, "7", "38").as_deref(),
        Some("-2"),
        "the cell the text gives"
    );
    assert_eq!(
        cell_value(&harness, "2", "≤37").as_deref(),
        Some("?"),
        "a missing cell"
    );
    let save_enabled = |h: &Harness<'static, DeskApp>| {
        !h.get_by_label(CHART_SAVE_LABEL)
            .accesskit_node()
            .is_disabled()
    };
    assert!(!save_enabled(&harness), "nothing to save yet");

    // A code the table does not know: the loader's own error, named by its cell.
    type_into(&mut harness, &cell_label("2", "≤37"), "X");
    let problems = labels_containing(&harness, "row 2, column ≤37");
    assert!(
        problems
            .iter()
            .any(|p| p.contains("'X' is not one of the table's result codes")),
        "{problems:?}"
    );
    assert!(
        !save_enabled(&harness),
        "Save is disabled while the table is invalid"
    );
    // An empty cell is named too.
    type_into(&mut harness, &cell_label("2", "≤37"), "");
    assert!(
        labels_containing(&harness, "row 2, column ≤37: empty").len() == 1,
        "the empty cell is named"
    );
    // A value from the umpire's chart: valid, saved, used.
    type_into(&mut harness, &cell_label("2", "≤37"), "3");
    assert!(
        labels_containing(&harness, "row 2, column").is_empty(),
        "no problem left"
    );
    assert!(!labels_containing(&harness, "Valid: the loader accepts it. 31 cells").is_empty());
    assert!(save_enabled(&harness));
    // Saving reloads the rulesets and reopens the game on the worker (a spinner meanwhile).
    harness.get_by_label(CHART_SAVE_LABEL).click();
    harness.step();
    assert!(
        harness.state().shell.job.is_some(),
        "the game is reopened on the new rulesets"
    );
    wait_for(&mut harness, "the game to reopen", |h| {
        h.state().shell.job.is_none()
    });
    let file = dir.join("rules/ailsh/administrative_points.yaml");
    let text = std::fs::read_to_string(&file).expect("the transcription is written");
    assert!(
        text.contains("- {key: 2, cells: [3, \"?\", \"?\"]}"),
        "{text}"
    );
    assert!(
        !labels_containing(&harness, "saved ").is_empty(),
        "the save is reported"
    );
    let no_temp = std::fs::read_dir(file.parent().expect("folder"))
        .expect("folder")
        .all(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "yaml")));
    assert!(no_temp, "no temp file is left behind");
    // The layer loads it, exactly as the loader would for `umpire rules check`.
    let layered =
        Library::load_layered(&umpire::rules::shipped_sources(), Some(&dir.join("rules")));
    assert!(layered.failed.is_empty(), "{:?}", layered.failed);
    let table = layered
        .get("ailsh")
        .and_then(|r| r.table("administrative_points"))
        .expect("table");
    assert_eq!(table.rows[0].cells[0], Cell::Value("3".into()));
    // The desk reloaded its rulesets, and reopens the game on them.
    let desk_cell = harness
        .state()
        .desk
        .library()
        .get("ailsh")
        .and_then(|r| r.table("administrative_points"))
        .map(|t| t.rows[0].cells[0].clone());
    assert_eq!(desk_cell, Some(Cell::Value("3".into())));
    let game_cell = harness.state().game.as_ref().and_then(|g| {
        g.game()
            .ruleset()
            .table("administrative_points")
            .map(|t| t.rows[0].cells[0].clone())
    });
    assert_eq!(
        game_cell,
        Some(Cell::Value("3".into())),
        "the game resolves with the new cell"
    );
    // The open game recorded it: an entry of its journal, verified on the shipped rulesets
    // alone (the game carries the table).
    let (recorded, path) = harness
        .state()
        .game
        .as_ref()
        .map(|g| {
            let words = umpire::game::describe::Words::of(g.game());
            let last = g.game().events().last().map(|e| words.line(e));
            (last, g.path().to_path_buf())
        })
        .expect("a game");
    assert_eq!(
        recorded.as_deref(),
        Some(
            "Transcribed the Administrative Points Table from the umpire's chart sheet: it fills 1 cell"
        )
    );
    let mut copy = umpire::game::Game::open(&path, &Library::shipped()).expect("opens");
    let verified = copy.verify(None).expect("verify");
    assert!(verified.is_sound(), "{:?}", verified.problems);
    assert_eq!(verified.transcriptions, 1);
    // Reopened from the file, the editor shows the transcription.
    assert_eq!(cell_value(&harness, "2", "≤37").as_deref(), Some("3"));
    assert!(!labels_containing(&harness, "Your transcription:").is_empty());
}

/// A tiny PNG: 8 × 6 pixels.
fn tiny_png(path: &Path) {
    let img = image::RgbaImage::from_fn(8, 6, |x, y| {
        image::Rgba([x as u8 * 30, y as u8 * 40, 120, 255])
    });
    img.save(path).expect("png written");
}

#[test]
fn map_underlay_loads_aligns_is_kept_per_game_and_clears() {
    let dir = temp_dir("underlay");
    let mut harness = desk_in(&dir);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::U);
    harness.run();
    // A file that is not an image: refused by name, no panic.
    let bad = dir.join("notes.png");
    std::fs::write(&bad, "not an image").expect("write");
    type_into(
        &mut harness,
        UNDERLAY_PATH_LABEL,
        bad.to_str().expect("utf-8"),
    );
    click(&mut harness, UNDERLAY_LOAD_LABEL);
    assert!(
        labels_containing(&harness, "notes.png: not a PNG or JPEG").len() == 1,
        "the bad file is named"
    );
    assert!(
        harness
            .state()
            .game
            .as_ref()
            .is_some_and(|g| g.map.underlay.is_none())
    );
    // The photo of the map.
    let png = dir.join("map.png");
    tiny_png(&png);
    type_into(
        &mut harness,
        UNDERLAY_PATH_LABEL,
        png.to_str().expect("utf-8"),
    );
    click(&mut harness, UNDERLAY_LOAD_LABEL);
    assert!(!labels_containing(&harness, "map.png: 8 × 6 px").is_empty());
    assert!(
        harness
            .query_all_by_label(UNDERLAY_OPACITY_LABEL)
            .any(|n| n.accesskit_node().role() == Role::Slider),
        "an opacity slider"
    );
    // Align: the image's top corners on the centres of hexes 1010 and 1210.
    type_into(&mut harness, UNDERLAY_POINT_LABELS[0], "0, 0");
    type_into(&mut harness, UNDERLAY_HEX_LABELS[0], "1010");
    type_into(&mut harness, UNDERLAY_POINT_LABELS[1], "8, 0");
    type_into(&mut harness, UNDERLAY_HEX_LABELS[1], "1210");
    click(&mut harness, UNDERLAY_ALIGN_LABEL);
    assert!(!labels_containing(&harness, "aligned: point 1 on hex 1010").is_empty());
    let settings = harness
        .state()
        .game
        .as_ref()
        .and_then(|g| g.map.underlay.as_ref())
        .map(|u| u.settings.clone())
        .expect("underlay");
    assert!(settings.aligned);
    let near = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9;
    assert!(near(
        settings.transform.apply([0.0, 0.0]),
        HexId::new(10, 10, 4).centre()
    ));
    assert!(near(
        settings.transform.apply([8.0, 0.0]),
        HexId::new(12, 10, 4).centre()
    ));
    // Kept beside the game, and restored when the game is opened again (on the worker).
    let game_file = dir.join("game.umpire");
    let sidecar = sidecar_path(&dir.join("config"), &game_file);
    assert!(sidecar.is_file(), "the underlay is kept");
    harness
        .state_mut()
        .game
        .as_mut()
        .expect("game")
        .map
        .underlay = None;
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    harness.run();
    type_into(
        &mut harness,
        GAME_FILE_LABEL,
        game_file.to_str().expect("utf-8"),
    );
    harness.get_by_label(OPEN_LABEL).click();
    wait_for(&mut harness, "the game to reopen", |h| {
        h.state().shell.job.is_none()
            && h.state()
                .game
                .as_ref()
                .is_some_and(|g| g.map.underlay.is_some())
    });
    let restored = harness
        .state()
        .game
        .as_ref()
        .and_then(|g| g.map.underlay.as_ref())
        .map(|u| (u.settings.clone(), u.size))
        .expect("restored");
    assert_eq!(restored, (settings, [8, 6]));
    // Cleared: gone from the map and forgotten.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::U);
    harness.run();
    click(&mut harness, UNDERLAY_CLEAR_LABEL);
    assert!(
        harness
            .state()
            .game
            .as_ref()
            .is_some_and(|g| g.map.underlay.is_none())
    );
    assert!(!sidecar.exists(), "the kept underlay is removed");
}

#[test]
fn verify_and_export_run_off_the_ui_thread_and_report() {
    let dir = temp_dir("verify");
    let mut harness = desk_in(&dir);
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::V,
    );
    harness.step();
    assert!(harness.state().shell.job.is_some(), "verify runs as a job");
    wait_for(&mut harness, "verify", |h| {
        !labels_containing(h, "verified ").is_empty()
    });
    assert!(harness.state().shell.job.is_none());

    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::E,
    );
    harness.run();
    let out = dir.join("journal.jsonl");
    type_into(
        &mut harness,
        EXPORT_PATH_LABEL,
        out.to_str().expect("utf-8"),
    );
    harness.get_by_label(EXPORT_LABEL).click();
    wait_for(&mut harness, "export", |h| {
        !labels_containing(h, "exported 1 journal entries").is_empty()
    });
    let text = std::fs::read_to_string(&out).expect("exported");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "the header and the game's start");
    assert!(lines[0].contains("\"umpire_journal\""));
    // Players may be given it: no seed in it.
    assert!(!lines[0].contains("\"salt\""));
    assert!(lines[1].contains("game_started"));

    // The game file itself is refused; the export that is there now is asked about first.
    let game = dir.join("game.umpire");
    let game_bytes = std::fs::read(&game).expect("game bytes");
    type_into(
        &mut harness,
        EXPORT_PATH_LABEL,
        game.to_str().expect("utf-8"),
    );
    click(&mut harness, EXPORT_LABEL);
    assert!(
        !labels_containing(&harness, "is an Umpire game file; choose another name").is_empty(),
        "the game file is refused"
    );
    assert_eq!(std::fs::read(&game).expect("game bytes"), game_bytes);
    std::fs::write(&out, b"keep me").expect("seed");
    type_into(
        &mut harness,
        EXPORT_PATH_LABEL,
        out.to_str().expect("utf-8"),
    );
    click(&mut harness, EXPORT_LABEL);
    assert!(!labels_containing(&harness, "already exists. Replace it?").is_empty());
    assert_eq!(std::fs::read(&out).expect("kept"), b"keep me");
    harness
        .get_by_label(umpire::app::PRINT_REPLACE_LABEL)
        .click();
    wait_for(&mut harness, "the second export", |h| {
        h.state().shell.job.is_none() && std::fs::read(&out).is_ok_and(|b| b.starts_with(b"{"))
    });
    assert!(
        std::fs::read_to_string(&out)
            .expect("replaced")
            .contains("game_started")
    );
}

#[test]
fn new_and_open_run_on_a_worker_with_a_spinner_and_errors_are_shown() {
    let dir = temp_dir("open");
    let mut harness = desk_in(&dir);
    // A path that is not a game: the problem names it.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    harness.run();
    let missing = dir.join("nowhere.umpire");
    type_into(
        &mut harness,
        GAME_FILE_LABEL,
        missing.to_str().expect("utf-8"),
    );
    harness.get_by_label(OPEN_LABEL).click();
    wait_for(&mut harness, "the open to fail", |h| {
        h.state().shell.job.is_none() && h.state().shell.message.is_some()
    });
    assert!(
        !labels_containing(&harness, "nowhere.umpire").is_empty(),
        "the error names the file"
    );
    // A new game on the skirmish fixture, written under the games folder.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    harness.run();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios/skirmish.yaml");
    type_into(
        &mut harness,
        "or a scenario file",
        fixture.to_str().expect("utf-8"),
    );
    harness.get_by_label(START_GAME_LABEL).click();
    harness.step();
    harness.step();
    let spinner_seen = harness.state().shell.job.is_none()
        || !labels_containing(&harness, WORKING_PREFIX).is_empty();
    assert!(spinner_seen, "a running job shows what it does");
    wait_for(&mut harness, "the new game", |h| {
        h.state().shell.job.is_none()
            && h.state()
                .game
                .as_ref()
                .is_some_and(|g| g.path().starts_with(dir.join("games")))
    });
    let game = harness.state().game.as_ref().expect("game");
    assert_eq!(game.game().events().len(), 1, "a fresh game");
    assert!(game.path().is_file());
}
