//! Game sessions: actions → journal → state, undo as an event, verification, export/import,
//! migrations, and crash safety under SIGKILL.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use umpire::game::CounterId;

use umpire::game::Actor;
use umpire::game::scenario::Position;
use umpire::game::state::replay;
use umpire::game::{Action, EventKind, Game, GameError, GameFile, GameMeta, StoreError};
use umpire::rules::{Library, SourceFile};

fn fixture() -> SourceFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios/skirmish.yaml");
    SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("fixture"),
    }
}

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_game("game", name)
}

fn lib() -> Library {
    Library::shipped()
}

fn note(text: &str) -> Action {
    Action::Note { text: text.into() }
}

fn resolve_discipline(discipline: &str, physical: Option<&str>) -> Action {
    Action::Resolve {
        procedure: "discipline_test".into(),
        inputs: vec![("discipline".into(), discipline.into())],
        physical: physical.map(|f| vec![f.to_string()]),
        chart_result: None,
        chart_confirmed: false,
        counters: [("unit".to_string(), vec![CounterId::from("red-musketeers")])].into(),
        item: None,
    }
}

#[test]
fn a_session_survives_reopening_with_the_same_state() {
    let path = scratch("reopen");
    let lib = lib();
    let mut game = Game::create(&path, &fixture(), &lib, Some(42)).expect("create");
    game.act(&Actor::umpire(), resolve_discipline("B", None))
        .expect("app roll");
    game.act(&Actor::umpire(), resolve_discipline("C", Some("2")))
        .expect("physical roll");
    game.act(
        &Actor::umpire(),
        Action::Move {
            counter: "red-horse".into(),
            to: Position::Free { x: 12.0, y: 7.5 },
        },
    )
    .expect("move");
    game.act(
        &Actor::umpire(),
        Action::SetStatus {
            counter: "blue-pikes".into(),
            status: "disordered".into(),
            on: true,
        },
    )
    .expect("status");
    game.act(
        &Actor::umpire(),
        Action::SetAttribute {
            counter: "blue-pikes".into(),
            attribute: "vbu".into(),
            value: "4".into(),
            seen: umpire::game::Seen::Unchecked,
        },
    )
    .expect("strength");
    let before = game.state().clone();
    drop(game);
    let mut again = Game::open(&path, &lib).expect("reopen");
    assert_eq!(again.state(), &before);
    let pikes = &again.state().counters["blue-pikes"];
    assert!(pikes.statuses.contains("disordered"));
    assert_eq!(pikes.attributes["vbu"], umpire::rules::Value::Int(4));
    assert_eq!(
        again.state().counters["red-horse"].position,
        Position::Free { x: 12.0, y: 7.5 }
    );
    assert_eq!(again.events().len(), 6);
    let verified = again.verify(None).expect("verify");
    assert!(verified.is_sound(), "{:?}", verified.problems);
    assert_eq!(again.integrity_check().expect("check"), "ok");
}

#[test]
fn bad_actions_are_refused_and_write_nothing() {
    let path = scratch("refuse");
    let lib = lib();
    let mut game = Game::create(&path, &fixture(), &lib, Some(1)).expect("create");
    let cases: Vec<(Action, &str)> = vec![
        (
            Action::Move {
                counter: "nobody".into(),
                to: Position::Free { x: 1.0, y: 1.0 },
            },
            "no counter 'nobody'",
        ),
        (
            Action::Move {
                counter: "red-horse".into(),
                to: Position::Hex("0114".into()),
            },
            "no hex map",
        ),
        (
            Action::SetAttribute {
                counter: "red-horse".into(),
                attribute: "vbu".into(),
                value: "99".into(),
                seen: umpire::game::Seen::Unchecked,
            },
            "must be from 0 to 20",
        ),
        (
            Action::SetAttribute {
                counter: "red-horse".into(),
                attribute: "colour".into(),
                value: "red".into(),
                seen: umpire::game::Seen::Unchecked,
            },
            "has no attribute 'colour'",
        ),
        (
            resolve_discipline("B", Some("7")),
            "7 is not a face of a d6",
        ),
        (resolve_discipline("Z", None), "must be one of: A, B, C"),
        (
            Action::Skip {
                item: "nothing-here".into(),
                reason: "because".into(),
            },
            "is not pending at this step",
        ),
        (
            Action::Override {
                of: 1,
                outcome: "pass".into(),
                reason: "x".into(),
            },
            "not a resolution",
        ),
        (Action::Back, "first step"),
        (Action::Redo, "nothing to redo"),
    ];
    for (action, expected) in cases {
        let err = game
            .act(&Actor::umpire(), action.clone())
            .expect_err("refused");
        assert!(
            err.to_string().contains(expected),
            "{action:?}: expected {expected:?} in {err}"
        );
    }
    assert_eq!(game.events().len(), 1, "nothing was written");
    assert_eq!(Game::open(&path, &lib).expect("open").events().len(), 1);
}

#[test]
fn undo_is_an_event_and_never_rerolls() {
    let path = scratch("undo");
    let lib = lib();
    let mut game = Game::create(&path, &fixture(), &lib, Some(7)).expect("create");
    game.act(&Actor::umpire(), resolve_discipline("B", None))
        .expect("roll");
    let first_draw = game.state().next_draw;
    game.act(&Actor::umpire(), Action::Undo).expect("undo");
    // The undone roll stays in the journal, marked undone; the next roll uses a new draw.
    assert!(matches!(game.events()[1].kind, EventKind::Resolved { .. }));
    assert!(!game.state().effective.contains(&2));
    assert!(game.state().resolved.is_empty());
    game.act(&Actor::umpire(), resolve_discipline("B", None))
        .expect("roll again");
    assert_eq!(game.state().next_draw, first_draw + 1);
    let EventKind::Resolved { resolution, .. } = &game.events()[3].kind else {
        panic!("resolved")
    };
    let umpire::dice::Provenance::App { first_draw: d, .. } = resolution.rolls[0].provenance else {
        panic!("app dice")
    };
    assert_eq!(d, first_draw, "the undone draw is not reused");
    // Undo then redo brings a move back.
    game.act(
        &Actor::umpire(),
        Action::Move {
            counter: "red-horse".into(),
            to: Position::Free { x: 3.0, y: 3.0 },
        },
    )
    .expect("move");
    game.act(&Actor::umpire(), Action::Undo).expect("undo move");
    assert_eq!(
        game.state().counters["red-horse"].position,
        Position::Free { x: 10.0, y: 5.0 }
    );
    game.act(&Actor::umpire(), Action::Redo).expect("redo move");
    assert_eq!(
        game.state().counters["red-horse"].position,
        Position::Free { x: 3.0, y: 3.0 }
    );
    assert!(game.verify(None).expect("verify").is_sound());
}

#[test]
fn the_sequence_of_play_refuses_to_skip_mandatory_items_silently() {
    let path = scratch("sop");
    let lib = lib();
    let mut game = Game::create(&path, &fixture(), &lib, Some(3)).expect("create");
    let steps = game.steps().len();
    assert!(steps >= 2);
    while game.state().cursor.step + 1 < steps {
        game.act(&Actor::umpire(), Action::Next)
            .expect("free steps");
    }
    let open: Vec<String> = game
        .pending()
        .into_iter()
        .filter(|p| p.mandatory && !p.done)
        .map(|p| p.key)
        .collect();
    assert!(
        !open.is_empty(),
        "the end-of-turn break points are mandatory"
    );
    let err = game
        .act(&Actor::umpire(), Action::Next)
        .expect_err("refused");
    assert!(
        err.to_string()
            .contains("mandatory items are still pending"),
        "{err}"
    );
    for key in &open {
        let err = game
            .act(
                &Actor::umpire(),
                Action::Skip {
                    item: key.clone(),
                    reason: " ".into(),
                },
            )
            .expect_err("needs a reason");
        assert!(err.to_string().contains("needs a reason"));
        game.act(
            &Actor::umpire(),
            Action::Skip {
                item: key.clone(),
                reason: "no losses this turn".into(),
            },
        )
        .expect("skip");
    }
    game.act(&Actor::umpire(), Action::Next).expect("next turn");
    let status = game.status();
    assert_eq!((status.turn, status.step_index), (2, 0));
    assert_eq!(status.date.as_deref(), Some("Noon"));
    // Turn 2 brings the blue reserve: a mandatory item until it is placed.
    let reinforcement = game
        .pending()
        .into_iter()
        .find(|p| p.key == "reinforcements:2")
        .expect("reinforcements pending");
    assert!(!reinforcement.done);
    game.act(
        &Actor::umpire(),
        Action::Move {
            counter: "blue-reserve".into(),
            to: Position::Free { x: 0.0, y: 20.0 },
        },
    )
    .expect("place");
    assert!(
        game.pending()
            .into_iter()
            .find(|p| p.key == "reinforcements:2")
            .expect("item")
            .done
    );
    // Skips are in the journal with their reasons.
    assert!(game.events().iter().any(
        |e| matches!(&e.kind, EventKind::Skipped { reason, .. } if reason == "no losses this turn")
    ));
}

#[test]
fn verify_catches_a_tampered_roll() {
    let path = scratch("tamper");
    let lib = lib();
    let mut game = Game::create(&path, &fixture(), &lib, Some(99)).expect("create");
    game.act(&Actor::umpire(), resolve_discipline("B", None))
        .expect("roll");
    let EventKind::Resolved { resolution, .. } = &game.events()[1].kind else {
        panic!()
    };
    let face = resolution.rolls[0].dice[0].face;
    drop(game);
    let forged = if face == 6 { 1 } else { face + 1 };
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    let body: String = conn
        .query_row("SELECT body FROM events WHERE seq = 2", [], |r| r.get(0))
        .expect("row");
    let mut json: serde_json::Value = serde_json::from_str(&body).expect("json");
    json["resolution"]["rolls"][0]["dice"][0]["face"] = serde_json::json!(forged);
    conn.execute(
        "UPDATE events SET body = ?1 WHERE seq = 2",
        [json.to_string()],
    )
    .expect("forge");
    drop(conn);
    let mut game = Game::open(&path, &lib).expect("open");
    let problems: Vec<String> = game
        .verify(None)
        .expect("verify")
        .problems
        .iter()
        .map(|p| p.to_string())
        .collect();
    // The first mismatch names the entry; the forged face is caught by the dice too.
    assert!(
        problems[0].starts_with("entry 2: it does not match its hash"),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("draw 0 is a") && p.contains(&format!("the journal says {forged}"))),
        "{problems:?}"
    );
}

#[test]
fn older_files_migrate_newer_and_foreign_files_are_refused() {
    let lib = lib();
    let meta = GameMeta {
        ruleset: "qrs".into(),
        scenario: "test_skirmish".into(),
        scenario_file: fixture().name,
        scenario_text: fixture().text,
        seed: Some(5),
        salt: None,
        seed_commitment: String::new(),
        seed_public: true,
        created_by: "umpire 0.0.1".into(),
    };
    // A version-1 file (before events recorded who made them) opens and is migrated.
    let v1 = scratch("v1");
    GameFile::create_v1_for_tests(&v1, &meta).expect("v1");
    let conn = rusqlite::Connection::open(&v1).expect("sqlite");
    let start = serde_json::json!({"seq": 1, "at": "2026-11-01T10:00:00Z", "cursor": {"turn": 1, "step": 0}, "type": "game_started", "ruleset": "qrs", "scenario": "test_skirmish", "seed": 5});
    conn.execute("INSERT INTO events (seq, at, kind, body) VALUES (1, '2026-11-01T10:00:00Z', 'game_started', ?1)", [start.to_string()]).expect("v1 event");
    drop(conn);
    // Never migrated silently on open: refused, naming the command that migrates it.
    let Err(GameError::Store(StoreError::Older { found: 1, .. })) = Game::open(&v1, &lib) else {
        panic!("an older file is not migrated on open")
    };
    umpire::game::journal::file::GameFile::migrate(&v1).expect("migrated when asked");
    let mut game = Game::open(&v1, &lib).expect("a migrated v1 file opens");
    game.act(&Actor::named("Control"), note("after migration"))
        .expect("writes");
    // The migration chained the entries as they stood: the journal verifies.
    let verified = game.verify(None).expect("verify");
    assert!(verified.is_sound(), "{:?}", verified.problems);
    let version: i64 = rusqlite::Connection::open(&v1)
        .expect("sqlite")
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .expect("version");
    assert_eq!(version, umpire::game::journal::file::SCHEMA_VERSION);
    // A newer file is refused with a clear message.
    let newer = scratch("newer");
    drop(Game::create(&newer, &fixture(), &lib, Some(1)).expect("create"));
    rusqlite::Connection::open(&newer)
        .expect("sqlite")
        .pragma_update(None, "user_version", 99)
        .expect("bump");
    let Err(GameError::Store(StoreError::Newer { found: 99, .. })) = Game::open(&newer, &lib)
    else {
        panic!("newer refused")
    };
    // Not a game file.
    let foreign = scratch("foreign");
    rusqlite::Connection::open(&foreign)
        .expect("sqlite")
        .execute_batch("CREATE TABLE t (x);")
        .expect("table");
    let err = Game::open(&foreign, &lib).err().expect("refused");
    assert!(
        err.to_string().contains("is not an Umpire game file"),
        "{err}"
    );
    // Never overwritten.
    let err = Game::create(&newer, &fixture(), &lib, Some(1))
        .err()
        .expect("refused");
    assert!(err.to_string().contains("already exists"), "{err}");
}

#[test]
fn export_and_import_round_trip() {
    let path = scratch("export");
    let lib = lib();
    let mut game = Game::create(&path, &fixture(), &lib, Some(11)).expect("create");
    game.act(&Actor::umpire(), resolve_discipline("A", None))
        .expect("roll");
    game.act(
        &Actor::umpire(),
        note("é accents survive: Cateau-Cambrésis"),
    )
    .expect("note");
    game.act(&Actor::umpire(), Action::Undo).expect("undo");
    let dir = path.parent().expect("dir");
    let jsonl = dir.join("journal.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args([
            "game",
            "export",
            path.to_str().unwrap(),
            "--jsonl",
            "-o",
            jsonl.to_str().unwrap(),
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&jsonl).expect("export");
    assert_eq!(text.lines().count(), 1 + game.events().len());
    assert!(text.contains("Cateau-Cambrésis"));
    let copy = dir.join("copy.umpire");
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args([
            "game",
            "import",
            jsonl.to_str().unwrap(),
            "-o",
            copy.to_str().unwrap(),
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let imported = Game::open(&copy, &lib).expect("open copy");
    assert_eq!(imported.events(), game.events());
    assert_eq!(imported.state(), game.state());
}

#[test]
fn replay_equals_state_for_random_sessions() {
    use proptest::prelude::*;
    let lib = lib();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let actions = proptest::collection::vec(0u8..8, 1..30);
    let counter = std::sync::atomic::AtomicU32::new(0);
    runner
        .run(&actions, |script| {
            let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let path = scratch(&format!("prop{n}"));
            let mut game =
                Game::create(&path, &fixture(), &lib, Some(u64::from(n))).expect("create");
            for (i, a) in script.iter().enumerate() {
                let action = match a {
                    0 => resolve_discipline("B", None),
                    1 => resolve_discipline("C", Some(&((i % 6) + 1).to_string())),
                    2 => Action::Move {
                        counter: "red-horse".into(),
                        to: Position::Free {
                            x: i as f64,
                            y: 1.0,
                        },
                    },
                    3 => Action::SetStatus {
                        counter: "blue-pikes".into(),
                        status: "disordered".into(),
                        on: i % 2 == 0,
                    },
                    4 => Action::Undo,
                    5 => Action::Redo,
                    6 => Action::Next,
                    _ => note("n"),
                };
                let _ = game.act(&Actor::umpire(), action);
            }
            let folded = replay(game.scenario(), game.events()).expect("replay");
            prop_assert_eq!(&folded, game.state());
            let reopened = Game::open(&path, &lib).expect("reopen");
            prop_assert_eq!(reopened.state(), game.state());
            prop_assert!(game.verify(None).expect("verify").is_sound());
            Ok(())
        })
        .expect("replay equals state");
}

/// Kills a writing process with SIGKILL at random moments, at least 50 times; after each kill
/// every acknowledged action is in the file and SQLite's integrity check passes.
#[test]
fn sigkill_loses_nothing_acknowledged() {
    let path = scratch("sigkill");
    let lib = lib();
    drop(Game::create(&path, &fixture(), &lib, Some(2024)).expect("create"));
    let mut acknowledged = 1u64;
    let mut kills = 0;
    let mut rng_state = 0x9E37_79B9_7F4A_7C15u64;
    while kills < 50 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_umpire-soak"))
            .args([path.to_str().unwrap(), "--actions", "100000"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        // Let it write for a random number of acknowledged actions (1–40), then kill it mid-flight.
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        let wait_for = 1 + rng_state % 40;
        let mut seen = 0;
        for line in lines.by_ref() {
            let line = line.expect("line");
            if let Some(n) = line
                .strip_prefix("ack ")
                .and_then(|n| n.parse::<u64>().ok())
            {
                acknowledged = acknowledged.max(n);
                seen += 1;
                if seen >= wait_for {
                    break;
                }
            }
        }
        std::thread::sleep(Duration::from_micros(rng_state % 3000));
        child.kill().expect("SIGKILL");
        // Acks written before the kill landed count too.
        for line in lines.map_while(Result::ok) {
            if let Some(n) = line
                .strip_prefix("ack ")
                .and_then(|n| n.parse::<u64>().ok())
            {
                acknowledged = acknowledged.max(n);
            }
        }
        let _ = child.wait();
        kills += 1;
        let mut game =
            Game::open(&path, &lib).unwrap_or_else(|e| panic!("after kill {kills}: {e}"));
        assert!(
            game.events().len() as u64 >= acknowledged,
            "after kill {kills}: {} entries, {acknowledged} acknowledged",
            game.events().len()
        );
        assert_eq!(
            game.integrity_check().expect("check"),
            "ok",
            "after kill {kills}"
        );
        let verified = game.verify(None).expect("verify");
        assert!(
            verified.is_sound(),
            "after kill {kills}: {:?}",
            verified.problems
        );
    }
    assert!(kills >= 50);
}

#[test]
fn inputs_come_from_the_counters_and_effects_are_applied_on_confirmation() {
    let path = scratch("effects");
    let lib = lib();
    let mut game = Game::create(&path, &fixture(), &lib, Some(8)).expect("create");
    // VBU comes from the counter; DAMAGE is typed. A natural 6 fails: losses 6 − (5 − 2) = 3.
    let seqs = game
        .act(
            &Actor::umpire(),
            Action::Resolve {
                procedure: "cohesion_test".into(),
                inputs: vec![
                    ("damage".into(), "2".into()),
                    ("test_from".into(), "shooting".into()),
                    ("shot_range".into(), "point_blank".into()),
                ],
                physical: Some(vec!["6".into()]),
                chart_result: None,
                chart_confirmed: false,
                counters: [("unit".to_string(), vec![CounterId::from("blue-pikes")])].into(),
                item: None,
            },
        )
        .expect("resolve");
    let EventKind::Resolved { resolution, .. } = &game.events()[seqs[0] as usize - 1].kind else {
        panic!()
    };
    assert_eq!(
        resolution.inputs["vbu"],
        umpire::rules::Value::Int(5),
        "prefilled from blue-pikes"
    );
    assert_eq!(
        (resolution.outcome.code.as_str(), resolution.outcome.value),
        ("fail", Some(3))
    );
    let proposals = game.proposals(seqs[0]).expect("proposals");
    assert_eq!(proposals.len(), 1);
    let change = proposals[0]
        .changes
        .first()
        .cloned()
        .expect("one unit: no choice to make");
    assert_eq!(
        game.state().counters["blue-pikes"].attributes["vbu"],
        umpire::rules::Value::Int(5),
        "nothing applied before confirmation"
    );
    game.act(
        &Actor::umpire(),
        Action::ApplyEffects {
            of: seqs[0],
            changes: vec![change.clone()],
        },
    )
    .expect("apply");
    assert_eq!(
        game.state().counters["blue-pikes"].attributes["vbu"],
        umpire::rules::Value::Int(2)
    );
    let err = game
        .act(
            &Actor::umpire(),
            Action::ApplyEffects {
                of: seqs[0],
                changes: vec![change],
            },
        )
        .expect_err("once only");
    assert!(err.to_string().contains("already applied"), "{err}");
    // Two units: the umpire chooses.
    let seqs = game
        .act(
            &Actor::umpire(),
            Action::Resolve {
                procedure: "cohesion_test".into(),
                inputs: vec![
                    ("vbu".into(), "4".into()),
                    ("damage".into(), "1".into()),
                    ("test_from".into(), "shooting".into()),
                    ("shot_range".into(), "point_blank".into()),
                ],
                physical: Some(vec!["6".into()]),
                chart_result: None,
                chart_confirmed: false,
                counters: [(
                    "unit".to_string(),
                    vec![
                        CounterId::from("red-musketeers"),
                        CounterId::from("red-horse"),
                    ],
                )]
                .into(),
                item: None,
            },
        )
        .expect("resolve");
    let proposals = game.proposals(seqs[0]).expect("proposals");
    // Two units and no loss rule in the ruleset: proposed evenly, said to be the umpire's.
    assert!(!proposals[0].changes.is_empty(), "{proposals:?}");
    assert!(
        proposals[0]
            .said
            .as_deref()
            .is_some_and(|c| c.contains("the choice is the umpire's")),
        "{proposals:?}"
    );
}

#[test]
fn the_game_commands_work_end_to_end() {
    let path = scratch("cli");
    let file = path.to_str().unwrap();
    let scenario = fixture().name;
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
            .args(args)
            .output()
            .expect("runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, out, err) = run(&["game", "new", &scenario, "-o", file, "--seed", "77"]);
    assert!(ok, "{err}");
    assert!(out.contains("seed 77"), "{out}");
    let (ok, out, err) = run(&[
        "game",
        "resolve",
        file,
        "discipline_test",
        "-i",
        "discipline=B",
        "--roll",
        "3",
        "--json",
    ]);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(json["outcome"]["code"], "fail");
    let (ok, _, err) = run(&["game", "move", file, "red-horse", "4,5"]);
    assert!(ok, "{err}");
    let (ok, _, err) = run(&["game", "move", file, "red-horse", "0114"]);
    assert!(!ok && err.contains("no hex map"), "{err}");
    let (ok, _, err) = run(&["game", "undo", file]);
    assert!(ok, "{err}");
    let (ok, out, err) = run(&["game", "status", file, "--json"]);
    assert!(ok, "{err}");
    let status: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(status["turn"], 1);
    assert_eq!(status["date"], "Morning");
    assert_eq!(status["events"], 4);
    let horse = status["counters"]
        .as_array()
        .expect("counters")
        .iter()
        .find(|c| c["id"] == "red-horse")
        .expect("horse")
        .clone();
    assert_eq!(
        horse["position"],
        serde_json::json!({"free": {"x": 10.0, "y": 5.0}}),
        "the move was undone"
    );
    let (ok, out, err) = run(&["game", "verify", file]);
    assert!(ok, "{err}");
    assert!(out.contains("store integrity ok"), "{out}");
    let (ok, _, err) = run(&["game", "status", "/nonexistent/game.umpire"]);
    assert!(!ok && err.contains("no game file at"), "{err}");
}

/// A new game of "Venice at bay" (seed 3) in a fresh temp folder, named for the test.
fn venice_game(tag: &str) -> (std::path::PathBuf, umpire::game::Game) {
    let dir = std::env::temp_dir().join(format!("umpire-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let game = umpire::game::Game::create(
        &dir.join("venice.umpire"),
        &crate::kit::scenario("s1_venice"),
        &umpire::rules::Library::shipped(),
        Some(3),
    )
    .expect("game");
    (dir, game)
}

/// An input that mirrors the game comes from the game: an Assault's Weather is this turn's
/// Weather result (read off the chart as Rain), not a default; before the Weather is rolled it
/// is left for the umpire.
#[test]
fn the_weather_input_is_this_turns_weather_result() {
    use umpire::game::effects::prefill;
    let (dir, mut game) = venice_game("weather");
    let assault = game
        .ruleset()
        .procedure("assault")
        .expect("assault")
        .clone();
    let none = std::collections::BTreeMap::new();
    let before = prefill(
        &assault,
        game.state(),
        game.events(),
        umpire::game::effects::FromGame {
            ruleset: Some(game.ruleset()),
            scheduled: None,
        },
        &none,
    );
    assert!(!before.iter().any(|f| f.input == "weather"), "{before:?}");
    game.act(
        &umpire::game::Actor::umpire(),
        umpire::game::Action::Resolve {
            procedure: "weather".into(),
            inputs: Vec::new(),
            physical: Some(vec!["4".into()]),
            chart_result: Some("rain".into()),
            chart_confirmed: false,
            counters: none.clone(),
            item: None,
        },
    )
    .expect("the weather, read off the chart");
    let after = prefill(
        &assault,
        game.state(),
        game.events(),
        umpire::game::effects::FromGame {
            ruleset: Some(game.ruleset()),
            scheduled: None,
        },
        &none,
    );
    let weather = after
        .iter()
        .find(|f| f.input == "weather")
        .expect("the weather comes from the game");
    assert_eq!(weather.value, umpire::rules::Value::Text("rain".into()));
    assert!(
        weather
            .game
            .as_deref()
            .is_some_and(|s| s.contains("turn 1's Weather")),
        "{weather:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Weather rolled a step early (at the Interphase offer of an AP turn, optional rule 18.4)
/// counts for the Weather Phase, the step it belongs to: that step then shows it done, Next
/// passes it, and the turn holds one Weather, not two.
#[test]
fn a_result_made_a_step_early_counts_for_the_step_it_belongs_to() {
    use umpire::game::{Action, Actor};
    let dir = std::env::temp_dir().join(format!("umpire-early-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut game = umpire::game::Game::create_playing(
        &dir.join("venice.umpire"),
        &crate::kit::scenario("s1_venice"),
        &umpire::rules::Library::shipped(),
        Some(3),
        &["18.4".to_string()],
    )
    .expect("game");
    let me = Actor::umpire();
    // To turn 4, an AP turn: the Interphase offer (18.4) is then the turn's first step.
    while game.state().cursor.turn < 4 {
        for item in game.pending() {
            if item.mandatory && !item.done {
                let action = if item.credit.is_some() {
                    Action::Credit { item: item.key }
                } else {
                    Action::Skip {
                        item: item.key,
                        reason: "not this test's".into(),
                    }
                };
                game.act(&me, action).expect("credit or skip");
            }
        }
        game.act(&me, Action::Next).expect("next");
    }
    assert_eq!(game.status().step.id, "interphase_offer");
    game.act(
        &me,
        Action::Resolve {
            procedure: "weather".into(),
            inputs: Vec::new(),
            physical: Some(vec!["4".into()]),
            chart_result: Some("rain".into()),
            chart_confirmed: false,
            counters: std::collections::BTreeMap::new(),
            item: None,
        },
    )
    .expect("the weather, a step early");
    let weather_step = game
        .steps()
        .iter()
        .position(|s| s.id == "phase_a_weather")
        .expect("the Weather Phase");
    let at_weather = umpire::game::Cursor {
        turn: 4,
        step: weather_step,
    };
    let weather = umpire::game::sequence::pending_at(
        game.ruleset(),
        game.scenario(),
        game.state(),
        &at_weather,
    )
    .into_iter()
    .find(|p| p.procedure.as_deref() == Some("weather"))
    .expect("the Weather Phase's item");
    assert!(weather.done, "the early roll counts there: {weather:?}");
    game.act(&me, Action::Next).expect("on");
    assert!(
        game.state().cursor.step > weather_step,
        "Next passes the Weather Phase: {}",
        game.status().step.path
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Force's Order comes from the game too: with Chaumont's Force in the procedure's "force"
/// role, the Order input reads his Order (on the Capitano, not on the units).
#[test]
fn a_forces_order_comes_from_its_capitano() {
    use umpire::game::effects::prefill;
    let (dir, game) = venice_game("order");
    let force: Vec<CounterId> = game
        .state()
        .counters
        .values()
        .filter(|c| c.position == umpire::game::scenario::Position::Hex("2832".into()))
        .map(|c| CounterId::from(c.id.as_str()))
        .collect();
    assert!(force.len() > 1);
    let p = game
        .ruleset()
        .procedure("activation_single")
        .expect("activation")
        .clone();
    let roles = std::collections::BTreeMap::from([("force".to_string(), force)]);
    let filled = prefill(
        &p,
        game.state(),
        game.events(),
        umpire::game::effects::FromGame {
            ruleset: Some(game.ruleset()),
            scheduled: None,
        },
        &roles,
    );
    let order = filled
        .iter()
        .find(|f| f.input == "order")
        .expect("the Order comes from the Force");
    assert_eq!(order.value, umpire::rules::Value::Text("attack".into()));
    let _ = std::fs::remove_dir_all(&dir);
}
