//! Paper at the pace of a megagame (issue 27): two turns of rr3 at a megagame's pace — some
//! 700 journal entries, about 100 of them resolutions — make a Control log of at most 15 pages (8 pt),
//! grouped by turn and phase, one line per routine entry and the whole explanation for each
//! resolution; the gazette (the announcements sheet) prints deaths only when someone dies and
//! every number in its sentences; statements, the gazette and the log say when as "Turn 1 ·
//! Phase 1, 10:42". The journal is scripted through the engine, as the desk would write it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use lopdf::Document;
use umpire::game::event::ClockAction;
use umpire::game::scenario::Position;
use umpire::game::{Action, Actor, CounterChange, CounterId, EventKind, Game};
use umpire::rules::{InputKind, Library, SourceFile};

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("megalog", name)
}

/// The handbook's worked-examples scenario (rr3), played over two turns.
fn two_turn_fixture() -> SourceFile {
    let name = "tests/fixtures/scenarios/rr3_examples.yaml";
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).expect("fixture");
    let text = text.replace("turns: 1\n", "turns: 2\n").replace(
        "labels: [\"Turn 1: 1524 - 1528\"]",
        "labels: [\"1524 - 1528\", \"1529 - 1532\"]",
    );
    assert!(text.contains("turns: 2\n") && text.contains("1529 - 1532"));
    SourceFile {
        name: name.into(),
        text,
    }
}

fn umpire_ok(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--no-user-rules")
        .args(args)
        .output()
        .expect("umpire runs");
    assert!(
        out.status.success(),
        "umpire {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn text_of(path: &Path) -> String {
    let doc = Document::load(path).expect("the PDF parses");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text = doc.extract_text(&pages).expect("text extracts");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Who plays a role in a resolution, in this scenario.
fn counter_for(role: &str) -> &'static str {
    match role {
        "state" | "lutherans" => "state-austria",
        "area" | "city" | "garrison" => "upper-austria",
        "character" | "ruler" | "suitor_a" => "ferdinand",
        "suitor_b" => "monluc",
        "defender" | "fleet_b" => "ruritannian-army",
        "attacker" | "fleet_a" => "bosrovian-army",
        _ => "monluc-army",
    }
}

/// Resolves `procedure` with app dice as Control would (what the rules give no value for typed,
/// a cell the text does not give read off Control's own chart) and applies what it proposes.
/// Returns the entries written (none when the engine refuses it here).
fn resolve_and_apply(game: &mut Game, by: &Actor, procedure: &str) -> usize {
    let Some(p) = game.ruleset().procedure(procedure).cloned() else {
        return 0;
    };
    let roles = umpire::game::effects::roles_of(game.ruleset(), &p);
    let counters: BTreeMap<String, Vec<CounterId>> = roles
        .iter()
        .map(|r| (r.clone(), vec![CounterId::from(counter_for(r))]))
        .collect();
    let typed: Vec<(String, String)> = p
        .inputs
        .iter()
        .filter(|i| i.default.is_none())
        .filter_map(|i| match (i.name.as_str(), &i.kind) {
            ("present", _) => Some(("present".to_string(), "5".to_string())),
            ("votes_for", _) => Some(("votes_for".to_string(), "3".to_string())),
            (name, InputKind::Int { min, .. }) => {
                Some((name.to_string(), (*min).max(1).to_string()))
            }
            (name, InputKind::Choice { choices }) => Some((name.to_string(), choices[0].clone())),
            _ => None,
        })
        .collect();
    let action = |chart: Option<String>| Action::Resolve {
        procedure: procedure.into(),
        inputs: typed.clone(),
        physical: None,
        chart_result: chart,
        chart_confirmed: false,
        counters: counters.clone(),
        item: None,
    };
    let seq = match game.act(by, action(None)) {
        Ok(s) => s[0],
        Err(_) => match game.act(by, action(Some(p.outcomes[0].code.clone()))) {
            Ok(s) => s[0],
            Err(_) => return 0,
        },
    };
    let changes: Vec<CounterChange> = game
        .proposals(seq)
        .map(|ps| ps.into_iter().flat_map(|p| p.changes).collect())
        .unwrap_or_default();
    if changes.is_empty() {
        return 1;
    }
    match game.act(by, Action::ApplyEffects { of: seq, changes }) {
        Ok(_) => 2,
        Err(_) => 1,
    }
}

/// The routine entries of a step: money, moves, marks on the ledgers, notes and announcements,
/// by the Control team's people.
fn routine(game: &mut Game, k: usize) {
    let chiara = Actor::named("Chiara (Political Control)");
    let anna = Actor::named("Anna (Map Control, The East)");
    let bruno = Actor::named("Bruno (Map Control, The Mediterranean)");
    let greta = Actor::named("Greta (Game Control)");
    let action = match k % 6 {
        0 => Action::Adjust {
            counter: "state-austria".into(),
            attribute: "treasury".into(),
            by: 2,
            reason: format!("Revenue card played at The East ({k})"),
        },
        1 => Action::Move {
            counter: "monluc-army".into(),
            to: Position::Area(if k % 4 == 1 { "Milan" } else { "Italy" }.into()),
        },
        2 => Action::SetAttribute {
            counter: "monluc-army".into(),
            attribute: "fatigue".into(),
            value: (k % 3).to_string(),
            seen: umpire::game::Seen::Unchecked,
        },
        3 => Action::Note {
            text: format!("Treaty of friendship registered with Political Control ({k})"),
        },
        4 => Action::Adjust {
            counter: "state-france".into(),
            attribute: "treasury".into(),
            by: 1,
            reason: format!("Exaction card, Languedoc ({k})"),
        },
        _ => Action::Announce {
            audience: umpire::game::event::Audience::Public,
            team: None,
            text: format!("The Diet meets at Speyer (session {k})"),
        },
    };
    let by = match k % 6 {
        0 | 4 | 5 => &chiara,
        1 | 2 => &bruno,
        _ => &greta,
    };
    let by = if k % 6 == 3 && k.is_multiple_of(2) {
        &anna
    } else {
        by
    };
    game.act(by, action)
        .unwrap_or_else(|e| panic!("routine entry {k}: {e}"));
}

/// Two turns of rr3 at a megagame's pace: each step's procedures resolved (up to two each), a
/// handful of routine entries at every step, the clock worked, mandatory items skipped with
/// a reason, and Next. Returns the game file.
fn two_turns(dir: &Path) -> PathBuf {
    let path = dir.join("rr3.umpire");
    let mut game =
        Game::create(&path, &two_turn_fixture(), &Library::shipped(), Some(1524)).expect("create");
    let control = Actor::named("Elsa (Character Control)");
    let greta = Actor::named("Greta (Game Control)");
    let mut k = 0;
    let mut last_turn = 0;
    while game.state().cursor.turn <= 2 {
        let cursor = game.state().cursor.clone();
        if cursor.turn != last_turn {
            last_turn = cursor.turn;
            game.act(
                &greta,
                Action::Clock(ClockAction::Start {
                    turn: cursor.turn,
                    phase: "phase_1".into(),
                }),
            )
            .expect("clock start");
            game.act(&greta, Action::Clock(ClockAction::Hold))
                .expect("hold");
            game.act(&greta, Action::Clock(ClockAction::Resume))
                .expect("resume");
        }
        let step = game.steps()[cursor.step].clone();
        for procedure in step.procedures.iter().take(3) {
            resolve_and_apply(&mut game, &control, procedure);
        }
        for _ in 0..9 {
            routine(&mut game, k);
            k += 1;
        }
        for (i, item) in game.pending().into_iter().enumerate() {
            // Now and then an optional item is passed over, with Control's reason.
            if !item.done && (item.mandatory || (k + i) % 7 == 0) {
                game.act(
                    &greta,
                    Action::Skip {
                        item: item.key,
                        reason: "done at the table".into(),
                    },
                )
                .expect("skip");
            }
        }
        if game.act(&greta, Action::Next).is_err() {
            break;
        }
        if game.state().cursor == cursor {
            break;
        }
    }
    path
}

#[test]
fn two_turns_of_control_log_fit_ten_pages_and_keep_each_resolution_explained() {
    let dir = scratch("two-turns");
    let file = two_turns(&dir);
    let game = Game::open(&file, &Library::shipped()).expect("open");
    let entries = game.events().len();
    let resolutions: Vec<u64> = game
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Resolved { .. }))
        .map(|e| e.seq)
        .collect();
    eprintln!(
        "{entries} entries, {} resolutions, ended at {:?} of {} steps",
        resolutions.len(),
        game.state().cursor,
        game.steps().len()
    );
    assert_eq!(game.state().cursor.turn, 2, "two turns played");
    assert!(
        (600..=800).contains(&entries),
        "a megagame's two turns: {entries} entries"
    );
    assert!(
        resolutions.len() >= 90,
        "about 100 resolutions: {}",
        resolutions.len()
    );
    drop(game);

    let log = dir.join("log.pdf");
    let f = file.to_str().unwrap();
    umpire_ok(&["megagame", "log", f, "-o", log.to_str().unwrap()]);
    let doc = Document::load(&log).expect("the log parses");
    let pages = doc.get_pages().len();
    eprintln!("Control log: {pages} pages");
    // At 8 pt, the least type of the printed reports (14 pages; 10 at 6.4 pt before).
    assert!(
        pages <= 15,
        "the Control log of two turns runs to {pages} pages"
    );
    let text = text_of(&log);
    // Grouped by turn and phase.
    for heading in [
        "Turn 1 (1524 - 1528)",
        "Turn 2 (1529 - 1532)",
        "Turn 1 · Phase 1",
        "Turn 2 · Phase 3 (Military phase)",
        "Turn 2 · Phase 6 (Winter)",
    ] {
        assert!(text.contains(heading), "no heading {heading:?}");
    }
    // A routine entry is one line: its number, who and what, in the game's words.
    assert!(
        text.contains("Chiara (Political Control) · Counters:")
            || text.contains("Chiara (Political Control) · Austria"),
        "{}",
        &text[..3000.min(text.len())]
    );
    assert!(text.contains("Revenue card played at The East"));
    // The steps are collapsed into a line a phase.
    assert!(text.contains("Steps:") && text.contains("Skipped:"));
    // A resolution keeps its explanation: inputs, dice with their provenance, the outcome.
    for part in [
        "Inputs:",
        "(app dice, seed 1524, draw",
        "Result's rule:",
        "Effects:",
        "Applied (entry ",
    ] {
        assert!(text.contains(part), "no {part:?} in the explanations");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The gazette prints a death only when someone dies and every number in its sentence; the
/// gazette and the statements say when in the megagame's words.
#[test]
fn the_gazette_prints_deaths_that_happened_with_their_numbers_and_says_when() {
    let dir = scratch("gazette");
    let file = crate::megagame_paper::played_game(&dir);
    let f = file.to_str().unwrap();
    // Into Phase 1 with the clock, as the desk does.
    umpire_ok(&[
        "megagame",
        "clock",
        f,
        "start",
        "--by",
        "Cleo (Game Control)",
    ]);
    let mut game = Game::open(&file, &Library::shipped()).expect("open");
    let dora = Actor::named("Dora (Character Control)");
    let character = |id: &str| {
        let mut roles = BTreeMap::new();
        roles.insert("character".to_string(), vec![CounterId::from(id)]);
        roles
    };
    // Francis I survives his death roll: not news.
    game.act(
        &dora,
        Action::Resolve {
            procedure: "death_roll".into(),
            inputs: vec![("turn".into(), "1".into())],
            physical: None,
            chart_result: Some("survives".into()),
            chart_confirmed: false,
            counters: character("francis-i"),
            item: None,
        },
    )
    .expect("death roll");
    // Newly married, he has children: d6 4 − 2 = 2.
    game.act(
        &dora,
        Action::SetAttribute {
            counter: "francis-i".into(),
            attribute: "married_this_turn".into(),
            value: "true".into(),
            seen: umpire::game::Seen::Unchecked,
        },
    )
    .expect("married");
    game.act(
        &dora,
        Action::Resolve {
            procedure: "births".into(),
            inputs: Vec::new(),
            physical: Some(vec!["4".into()]),
            chart_result: None,
            chart_confirmed: false,
            counters: character("francis-i"),
            item: None,
        },
    )
    .expect("births");
    drop(game);

    let gazette = dir.join("gazette.pdf");
    umpire_ok(&[
        "megagame",
        "announcements",
        f,
        "-o",
        gazette.to_str().unwrap(),
    ]);
    let text = text_of(&gazette);
    assert!(text.contains("Deaths"), "{text}");
    assert!(text.contains("Henry VIII. The character dies"), "{text}");
    assert!(
        !text.contains("survives"),
        "a survived death roll is not news:\n{text}"
    );
    assert!(text.contains("Births"), "{text}");
    assert!(
        text.contains("Francis I. Children (2)."),
        "the number of children in its sentence:\n{text}"
    );
    assert!(!text.contains("Children."), "{text}");
    // When, as the megagame says it.
    assert!(text.contains("Turn 1 · Phase 1, "), "{text}");

    let statement = dir.join("france.pdf");
    umpire_ok(&[
        "megagame",
        "statement",
        f,
        "--team",
        "france",
        "-o",
        statement.to_str().unwrap(),
    ]);
    let text = text_of(&statement);
    assert!(text.contains("Births"), "{text}");
    assert!(text.contains("Turn 1 · Phase 1, "), "{text}");

    let log = dir.join("log.pdf");
    umpire_ok(&["megagame", "log", f, "-o", log.to_str().unwrap()]);
    let text = text_of(&log);
    assert!(text.contains("Turn 1 · Phase 1"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
