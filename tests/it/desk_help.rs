//! The desk teaches itself (issue 31): Help › Getting started shows the first game's steps (the
//! README's, kept in step with docs/first-game.md), Help › Keys names only keys the desk
//! handles, the first start on an empty data folder says what it opened, and every control of
//! the desk carries a tooltip. Driven headless (egui_kittest).

use crate::kit;
use kit::{labels_containing, scenario, type_into};

use std::path::{Path, PathBuf};

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use umpire::app::{
    DeskApp, FIRST_GAME, GETTING_STARTED_LABEL, GameDesk, KEY_SEPARATOR, KEYS_LABEL, NOTE_LABEL,
    OTHER_KEYS, Startup, UiCommand, WELCOME_CLOSE_LABEL, WELCOME_TITLE, key_for, key_rows,
    opening_game_in, remember, steps,
};
use umpire::game::{EventKind, Game};
use umpire::rules::Library;

/// A fresh folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-desk-help-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The desk on a new Venice game at `path`.
fn venice_desk(path: &Path) -> Harness<'static, DeskApp> {
    let library = Library::shipped();
    let game = GameDesk::create(path, &scenario("s1_venice"), &library, Some(1509)).expect("game");
    crate::kit::desk_on(game)
}

/// Opens Help › `entry` by clicking, as the umpire would.
fn help(harness: &mut Harness<'static, DeskApp>, entry: &str) {
    harness.get_by_label("Help").click();
    harness.run();
    harness.get_by_label(entry).click();
    harness.run();
    harness.run();
}

/// The README's "Your first game" section.
fn readme_first_game() -> String {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let start = readme
        .find("## Your first game")
        .expect("the README has a \"Your first game\" section");
    let rest = &readme[start + 3..];
    let end = rest.find("\n## ").map_or(rest.len(), |e| e + 1);
    rest[..end].to_string()
}

/// The keys a text names in parentheses: "(N)", "(Ctrl+Z)".
fn keys_in_parentheses(text: &str) -> Vec<String> {
    text.split('(')
        .skip(1)
        .filter_map(|s| s.split_once(')').map(|(k, _)| k.trim().to_string()))
        .filter(|k| {
            let key = k.strip_prefix("Ctrl+").unwrap_or(k);
            key.len() == 1 && key.chars().all(|c| c.is_ascii_uppercase())
        })
        .collect()
}

#[test]
fn the_desks_steps_are_the_readmes() {
    let ctx = egui::Context::default();
    let desk = steps(FIRST_GAME);
    let readme = steps(&readme_first_game());
    assert_eq!(desk.len(), 6, "six steps in docs/first-game.md: {desk:?}");
    let titles = |s: &[umpire::app::Step]| s.iter().map(|s| s.title.clone()).collect::<Vec<_>>();
    assert_eq!(
        titles(&desk),
        titles(&readme),
        "the desk's steps and the README's have the same titles, in the same order"
    );
    for (d, r) in desk.iter().zip(&readme) {
        // Every key the desk names for a step is one it has.
        let shown: Vec<String> = d
            .keys
            .iter()
            .map(|words| {
                key_for(&ctx, words)
                    .unwrap_or_else(|| panic!("step {}: no key for '{words}'", d.number))
            })
            .collect();
        // Every key the README names for the step is among them.
        for key in keys_in_parentheses(&r.text) {
            assert!(
                shown.contains(&key),
                "step {} \"{}\": the README names {key}, the desk shows {shown:?}",
                d.number,
                d.title
            );
        }
    }
    // The README's steps name keys at all (so that the comparison above compares something).
    let named: usize = readme
        .iter()
        .map(|s| keys_in_parentheses(&s.text).len())
        .sum();
    assert!(named >= 5, "the README's steps name their keys: {readme:?}");
}

#[test]
fn help_getting_started_shows_the_steps_with_their_keys() {
    let dir = temp_dir("steps");
    let mut harness = venice_desk(&dir.join("game.umpire"));
    assert!(labels_containing(&harness, "Do the Next thing.").is_empty());
    help(&mut harness, GETTING_STARTED_LABEL);
    for step in steps(FIRST_GAME) {
        let heading = format!("{}. {}", step.number, step.title);
        assert!(
            !labels_containing(&harness, &heading).is_empty(),
            "no step '{heading}' in Help › Getting started"
        );
    }
    let ctx = harness.ctx.clone();
    let next = format!(
        "{}{KEY_SEPARATOR}{}",
        UiCommand::Next.shortcut_text(&ctx),
        UiCommand::Next.label()
    );
    assert!(
        !labels_containing(&harness, &next).is_empty(),
        "the Next key '{next}' among {:?}",
        labels_containing(&harness, KEY_SEPARATOR)
    );
    assert!(!labels_containing(&harness, "Physical dice").is_empty());
}

/// The shortcut pressed on its own frame: the commands the desk takes from it.
fn pressed_by(shortcut: egui::KeyboardShortcut) -> Vec<UiCommand> {
    let ctx = egui::Context::default();
    let mut modifiers = shortcut.modifiers;
    if modifiers.command {
        modifiers.ctrl = true;
    }
    let input = egui::RawInput {
        events: vec![egui::Event::Key {
            key: shortcut.logical_key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers,
        }],
        ..Default::default()
    };
    let mut got = Vec::new();
    let mut output = ctx.run_ui(input, |ui| got = UiCommand::pressed(ui.ctx()));
    output.textures_delta.clear();
    got
}

#[test]
fn every_key_in_the_keys_window_is_one_the_desk_handles() {
    let dir = temp_dir("keys");
    let path = dir.join("game.umpire");
    let mut harness = venice_desk(&path);
    let before = labels_containing(&harness, KEY_SEPARATOR);
    help(&mut harness, KEYS_LABEL);
    let rows: Vec<(String, String)> = labels_containing(&harness, KEY_SEPARATOR)
        .into_iter()
        .filter(|l| !before.contains(l))
        .filter_map(|l| {
            l.split_once(KEY_SEPARATOR)
                .map(|(k, w)| (k.to_string(), w.to_string()))
        })
        .collect();
    assert_eq!(rows.len(), key_rows(&harness.ctx).len(), "{rows:?}");
    let mut others = Vec::new();
    for (key, words) in &rows {
        match UiCommand::ALL.iter().find(|c| c.label() == words) {
            Some(c) => {
                let shortcut = c.shortcut().expect("a command listed has a key");
                assert_eq!(&c.shortcut_text(&harness.ctx), key, "{words}");
                assert!(
                    pressed_by(shortcut).contains(c),
                    "{key} does not run '{words}'"
                );
            }
            None => {
                assert!(
                    OTHER_KEYS.iter().any(|(w, _)| w == words),
                    "'{key}{KEY_SEPARATOR}{words}' is neither a command nor a key the desk handles"
                );
                others.push(words.clone());
            }
        }
    }
    assert_eq!(others.len(), OTHER_KEYS.len(), "{others:?}");
    harness.state_mut().shell.help.keys = false;
    harness.run();

    // The other keys, each doing what the Keys window says.
    let pan = |h: &Harness<'static, DeskApp>| h.state().game.as_ref().expect("game").map.pan;
    let p = pan(&harness);
    harness.key_press(egui::Key::ArrowLeft);
    harness.run();
    assert!((pan(&harness) - p).x > 40.0, "the arrow keys pan the map");

    let zoom = harness.ctx.zoom_factor();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Plus);
    harness.run();
    let larger = harness.ctx.zoom_factor();
    assert!(larger > zoom, "the window larger: {zoom} → {larger}");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Minus);
    harness.run();
    assert!(harness.ctx.zoom_factor() < larger, "the window smaller");
    harness.ctx.set_zoom_factor(1.0);
    harness.run();

    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::K);
    harness.run();
    assert!(harness.state().shell.palette);
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(!harness.state().shell.palette, "Escape closes the palette");

    type_into(&mut harness, NOTE_LABEL, "Help keys note");
    harness.key_press(egui::Key::Enter);
    harness.run();
    let game = Game::open(&path, &Library::shipped()).expect("reopen");
    assert!(
        game.events()
            .iter()
            .any(|e| matches!(&e.kind, EventKind::Note { text } if text == "Help keys note")),
        "Enter adds the note typed"
    );
}

/// The desk as `umpire` starts it, with the start-up worker's result handed over at once.
fn starting_desk(opened: umpire::app::OpenedGame) -> Harness<'static, DeskApp> {
    let (tx, rx) = std::sync::mpsc::channel();
    tx.send(Startup {
        library: Library::shipped(),
        game: Some(opened),
        rest: None,
    })
    .expect("send");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(move |cc| DeskApp::loading(cc, rx));
    harness.run();
    harness.run();
    harness
}

#[test]
fn the_first_start_on_an_empty_folder_says_what_it_opened() {
    let dir = temp_dir("first");
    let games = dir.join("games");
    let recent = dir.join("config").join("recent-games.txt");
    let library = Library::shipped();
    let opened = opening_game_in(&library, None, Some(&recent), &games).expect("a new game");
    assert!(
        opened.first_start,
        "no recent game: a new game, marked first start"
    );
    assert!(opened.path.starts_with(&games), "{}", opened.path.display());
    assert!(opened.path.exists());
    let title = opened.game.scenario().title.clone();
    let path = opened.path.clone();

    let mut harness = starting_desk(opened);
    assert!(
        harness.query_by_label(WELCOME_TITLE).is_some(),
        "the note shows"
    );
    assert!(
        !labels_containing(&harness, &format!("“{title}”")).is_empty(),
        "the note names the scenario {title}"
    );
    assert!(!labels_containing(&harness, &path.display().to_string()).is_empty());
    assert!(!labels_containing(&harness, "File › New game…").is_empty());
    assert!(!labels_containing(&harness, &format!("Help › {GETTING_STARTED_LABEL}")).is_empty());
    harness.get_by_label(WELCOME_CLOSE_LABEL).click();
    harness.run();
    assert!(
        harness.query_by_label(WELCOME_TITLE).is_none(),
        "the note closed"
    );

    // Reopened from the recent games: the same game, no note.
    remember(&recent, &path);
    let again = opening_game_in(&library, None, Some(&recent), &games).expect("the game");
    assert!(!again.first_start);
    assert_eq!(
        again.path.canonicalize().expect("path"),
        path.canonicalize().expect("path")
    );
    let harness = starting_desk(again);
    assert!(harness.state().game.is_some());
    assert!(
        harness.query_by_label(WELCOME_TITLE).is_none(),
        "no note when reopening a recent game"
    );
}

#[test]
fn the_first_start_note_leads_to_getting_started() {
    let dir = temp_dir("first-steps");
    let library = Library::shipped();
    let opened = opening_game_in(&library, None, None, &dir.join("games")).expect("a new game");
    let mut harness = starting_desk(opened);
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, GETTING_STARTED_LABEL)
        .click();
    harness.run();
    harness.run();
    assert!(harness.query_by_label(WELCOME_TITLE).is_none());
    assert!(!labels_containing(&harness, "1. Open.").is_empty());
}

/// The desk's controls, as its source makes them: the constructors of buttons, check boxes,
/// combo boxes, text fields, menus, links, sliders and the like.
const CONTROLS: [&str; 20] = [
    "ui.button(",
    ".button(",
    "Button::new(",
    "Button::selectable(",
    "Button::image",
    "checkbox(",
    "Checkbox::new(",
    "ComboBox::",
    "TextEdit::singleline(",
    "TextEdit::multiline(",
    "menu_button(",
    "MenuButton::new(",
    "selectable_label(",
    "selectable_value(",
    ".link(",
    "radio_value(",
    ".radio(",
    "Slider::new(",
    "DragValue::new(",
    "toggle_value(",
];

/// What gives a control its tooltip.
const HOVER: [&str; 3] = ["on_hover_text", "on_hover_ui", "on_disabled_hover_text"];

/// The expression a control is made in, from `at` to the end of its statement, without the
/// bodies of closures it takes (a menu's entries have their own tooltips) and past a trailing
/// comma that closes the call around it (`ui.add(TextEdit::…(…),)`).
fn statement(src: &str, at: usize) -> String {
    let b = src.as_bytes();
    let (mut depth, mut braces, mut j) = (0i32, 0i32, at);
    let mut out = String::new();
    while j < b.len() {
        let c = b[j] as char;
        if c == '"' {
            let mut k = j + 1;
            while k < b.len() && b[k] != b'"' {
                k += if b[k] == b'\\' { 2 } else { 1 };
            }
            if braces == 0 {
                out.push_str(&src[j..(k + 1).min(src.len())]);
            }
            j = k + 1;
            continue;
        }
        if src[j..].starts_with("//") {
            j = src[j..].find('\n').map_or(b.len(), |e| j + e);
            continue;
        }
        if braces > 0 {
            match c {
                '{' => braces += 1,
                '}' => braces -= 1,
                _ => {}
            }
            j += 1;
            continue;
        }
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' if depth > 0 => {
                braces += 1;
                j += 1;
                continue;
            }
            '{' | '}' | ';' if depth <= 0 => break,
            ',' if depth == 0 => {
                let next = src[j + 1..].trim_start();
                if !next.starts_with(')') {
                    break;
                }
            }
            _ => {}
        }
        out.push(c);
        j += 1;
    }
    out
}

/// Whether the control made at `at` gets a tooltip: in its own statement, or (made into a
/// variable: `let field = TextEdit::…`) in a statement that uses the variable soon after.
fn has_tooltip(src: &str, at: usize) -> bool {
    if HOVER.iter().any(|h| statement(src, at).contains(h)) {
        return true;
    }
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &src[line_start.saturating_sub(200)..at];
    let Some(let_at) = before.rfind("let ") else {
        return false;
    };
    let binding = before[let_at + 4..]
        .trim_start_matches("mut ")
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default();
    if binding.is_empty() || before[let_at..].contains(';') {
        return false;
    }
    let after = &src[at..(at + 2500).min(src.len())];
    // `after` starts at the control, past the binding: its first use is the first match.
    after.match_indices(binding).any(|(i, _)| {
        let word_start = !after[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        word_start && HOVER.iter().any(|h| statement(after, i).contains(h))
    })
}

/// Every control the desk's source makes carries a tooltip saying what it does.
///
/// A source check, not a walk of the AccessKit tree: egui 0.37 does put a tooltip into the
/// widget's AccessKit description, but a headless run sees only the controls of the screens it
/// opens (dozens of dialogs, megagame and shared-game panels, menus), while every control is
/// made in `crates/desk/src`.
#[test]
fn every_control_of_the_desk_has_a_tooltip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/desk/src");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("crates/desk/src")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    let mut missing = Vec::new();
    let mut controls = 0;
    for file in &files {
        let src = std::fs::read_to_string(file).expect("source");
        let mut seen = std::collections::BTreeSet::new();
        for pattern in CONTROLS {
            for (at, _) in src.match_indices(pattern) {
                let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
                let line = src[line_start..].lines().next().unwrap_or_default().trim();
                if line.starts_with("//") || line.starts_with("fn ") || line.starts_with("pub fn ")
                {
                    continue;
                }
                // One control matched by two patterns ("ui.button(" and ".button(") once.
                let call = src[at..].find('(').map_or(at, |p| at + p);
                if !seen.insert(call) {
                    continue;
                }
                controls += 1;
                if !has_tooltip(&src, at) {
                    let number = src[..at].lines().count();
                    let name = file.file_name().unwrap_or_default().to_string_lossy();
                    missing.push(format!("{name}:{number}: {line}"));
                }
            }
        }
    }
    assert!(controls > 150, "the check found the controls ({controls})");
    assert!(
        missing.is_empty(),
        "controls without a tooltip (add .on_hover_text saying what it does):\n{}",
        missing.join("\n")
    );
}
