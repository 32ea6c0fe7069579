//! The tamper suite: a game played with app and physical dice, moves, an override, an undo and a
//! skip, then edited behind Umpire's back in thirty ways — entries changed, deleted, inserted,
//! reordered, renumbered, relabelled, moved to a better draw, cut off the end; the game
//! re-seeded; its description changed; whole rewrites with every hash recomputed — and each time
//! `umpire game verify` (with the head a player noted from a report, where only that can tell)
//! fails and names the entry. The honest game verifies.

use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::game::CounterId;

use rusqlite::{Connection, params};
use serde_json::{Value, json};
use umpire::game::scenario::Position;
use umpire::game::{Action, Actor, Game, GameMeta, Head};
use umpire::rules::{Library, SourceFile};

fn fixture() -> SourceFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios/skirmish.yaml");
    SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("fixture"),
    }
}

fn scratch(tag: &str) -> PathBuf {
    crate::common::scratch_dir("tamper", tag)
}

fn discipline(physical: Option<&str>) -> Action {
    Action::Resolve {
        procedure: "discipline_test".into(),
        inputs: vec![("discipline".into(), "B".into())],
        physical: physical.map(|f| vec![f.to_string()]),
        chart_result: None,
        chart_confirmed: false,
        counters: [("unit".to_string(), vec![CounterId::from("red-musketeers")])].into(),
        item: None,
    }
}

/// What the honest game looks like: where it is, the head a player noted, and which entry is
/// which.
struct Played {
    path: PathBuf,
    head: Head,
    app_roll: u64,
    second_app_roll: u64,
    physical_roll: u64,
    moved: u64,
    set: u64,
    overridden: u64,
    skipped: u64,
    undone: u64,
    note: u64,
    applied: u64,
}

fn play(dir: &Path) -> Played {
    let lib = Library::shipped();
    let path = dir.join("honest.umpire");
    // A fresh secret seed, as at a real table.
    let mut game = Game::create(&path, &fixture(), &lib, None).expect("create");
    let umpire = Actor::named("Umpire");
    let act = |game: &mut Game, action: Action| -> u64 {
        *game
            .act(&umpire, action)
            .expect("honest action")
            .last()
            .expect("an entry")
    };
    let app_roll = act(&mut game, discipline(None));
    let second_app_roll = act(&mut game, discipline(None));
    let moved = act(
        &mut game,
        Action::Move {
            counter: "red-horse".into(),
            to: Position::Free { x: 4.0, y: 5.0 },
        },
    );
    let set = act(
        &mut game,
        Action::SetAttribute {
            counter: "blue-pikes".into(),
            attribute: "vbu".into(),
            value: "4".into(),
            seen: umpire::game::Seen::Unchecked,
        },
    );
    let physical_roll = act(&mut game, discipline(Some("5")));
    let overridden = act(
        &mut game,
        Action::Override {
            of: physical_roll,
            outcome: "fail".into(),
            reason: "the unit was shaken by the rout beside it".into(),
        },
    );
    let note = act(
        &mut game,
        Action::Note {
            text: "the left wing wavers".into(),
        },
    );
    let undone = act(&mut game, Action::Undo);
    let applied = act(
        &mut game,
        Action::ApplyEffects {
            of: app_roll,
            changes: vec![umpire::game::CounterChange::Status {
                counter: "red-musketeers".into(),
                status: "disordered".into(),
                on: true,
            }],
        },
    );
    // Walk the Sequence of Play to a step with something to skip.
    let item = loop {
        if let Some(p) = game.pending().into_iter().find(|p| !p.done) {
            break p.key;
        }
        act(&mut game, Action::Next);
    };
    let skipped = act(
        &mut game,
        Action::Skip {
            item,
            reason: "no general on the table".into(),
        },
    );
    act(&mut game, discipline(None));
    let head = game.head();
    Played {
        path,
        head,
        app_roll,
        second_app_roll,
        physical_roll,
        moved,
        set,
        overridden,
        skipped,
        undone,
        note,
        applied,
    }
}

fn umpire(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .output()
        .expect("run umpire");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn body(conn: &Connection, seq: u64) -> Value {
    let text: String = conn
        .query_row(
            "SELECT body FROM events WHERE seq = ?1",
            [seq as i64],
            |r| r.get(0),
        )
        .expect("entry");
    serde_json::from_str(&text).expect("json")
}

fn set_body(conn: &Connection, seq: u64, value: &Value) {
    conn.execute(
        "UPDATE events SET body = ?1 WHERE seq = ?2",
        params![value.to_string(), seq as i64],
    )
    .expect("edit");
}

fn edit(conn: &Connection, seq: u64, change: impl FnOnce(&mut Value)) {
    let mut v = body(conn, seq);
    change(&mut v);
    set_body(conn, seq, &v);
}

fn meta(conn: &Connection) -> Value {
    let text: String = conn
        .query_row("SELECT value FROM meta WHERE key = 'game'", [], |r| {
            r.get(0)
        })
        .expect("meta");
    serde_json::from_str(&text).expect("json")
}

fn set_meta(conn: &Connection, value: &Value) {
    conn.execute(
        "UPDATE meta SET value = ?1 WHERE key = 'game'",
        [value.to_string()],
    )
    .expect("meta");
}

/// A careful forger: every hash recomputed from the genesis, and the recorded head with them.
fn rehash(conn: &Connection) {
    let meta: GameMeta = serde_json::from_value(meta(conn)).expect("meta");
    let mut previous = meta.genesis();
    let rows: Vec<(i64, String)> = conn
        .prepare("SELECT seq, body FROM events ORDER BY seq")
        .expect("select")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("rows");
    for (seq, text) in rows {
        let hash = umpire::game::journal::link(&previous, &text);
        conn.execute(
            "UPDATE events SET hash = ?1 WHERE seq = ?2",
            params![hash, seq],
        )
        .expect("hash");
        let head = json!({"entries": seq, "hash": hash});
        conn.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'head'",
            [head.to_string()],
        )
        .expect("head");
        previous = hash;
    }
}

/// Deletes an entry and renumbers the ones after it (in the table and in their text).
fn delete_and_renumber(conn: &Connection, seq: u64) {
    let last: i64 = conn
        .query_row("SELECT MAX(seq) FROM events", [], |r| r.get(0))
        .expect("max");
    conn.execute("DELETE FROM events WHERE seq = ?1", [seq as i64])
        .expect("delete");
    for s in (seq as i64 + 1)..=last {
        let mut v = body(conn, s as u64);
        v["seq"] = json!(s - 1);
        conn.execute(
            "UPDATE events SET seq = ?1, body = ?2 WHERE seq = ?3",
            params![s - 1, v.to_string(), s],
        )
        .expect("renumber");
    }
}

/// The roll of a resolution entry, as JSON.
fn roll(v: &mut Value) -> &mut Value {
    &mut v["resolution"]["rolls"][0]
}

/// An edit made behind Umpire's back.
type Tamper = Box<dyn Fn(&Connection, &Played)>;

struct Case {
    name: &'static str,
    /// The entry verification must name first (0: the description or the journal as a whole;
    /// None: any).
    names: Option<u64>,
    /// Give verify the head a player noted from a report.
    with_head: bool,
    tamper: Tamper,
}

fn case(
    name: &'static str,
    names: Option<u64>,
    with_head: bool,
    tamper: impl Fn(&Connection, &Played) + 'static,
) -> Case {
    Case {
        name,
        names,
        with_head,
        tamper: Box::new(tamper),
    }
}

fn cases(p: &Played) -> Vec<Case> {
    let last = p.head.entries;
    vec![
        case("a die face changed", Some(p.app_roll), false, |c, p| {
            edit(c, p.app_roll, |v| {
                let face = roll(v)["dice"][0]["face"].as_i64().expect("face");
                roll(v)["dice"][0]["face"] = json!(if face == 6 { 1 } else { face + 1 });
            })
        }),
        case(
            "a die face changed, every hash recomputed",
            Some(p.app_roll),
            false,
            |c, p| {
                edit(c, p.app_roll, |v| {
                    let face = roll(v)["dice"][0]["face"].as_i64().expect("face");
                    roll(v)["dice"][0]["face"] = json!(if face == 6 { 1 } else { face + 1 });
                });
                rehash(c);
            },
        ),
        case("an outcome changed", Some(p.app_roll), false, |c, p| {
            edit(c, p.app_roll, |v| {
                let code = v["resolution"]["outcome"]["code"].as_str().unwrap_or("");
                let other = if code == "pass" { "fail" } else { "pass" };
                v["resolution"]["outcome"]["code"] = json!(other);
            })
        }),
        case("an input changed", Some(p.physical_roll), false, |c, p| {
            edit(c, p.physical_roll, |v| {
                v["resolution"]["inputs"]["discipline"] = json!("A")
            })
        }),
        case(
            "an input changed, every hash recomputed",
            None,
            true,
            |c, p| {
                edit(c, p.physical_roll, |v| {
                    v["resolution"]["inputs"]["discipline"] = json!("A")
                });
                rehash(c);
            },
        ),
        case(
            "a move's destination changed",
            Some(p.moved),
            false,
            |c, p| {
                edit(c, p.moved, |v| {
                    v["changes"][0]["to"] = json!({"free": {"x": 40.0, "y": 5.0}})
                })
            },
        ),
        // A whole rewrite: only the head a player holds can tell, and it names that entry.
        case(
            "a move changed, every hash recomputed",
            Some(last),
            true,
            |c, p| {
                edit(c, p.moved, |v| {
                    v["changes"][0]["to"] = json!({"free": {"x": 40.0, "y": 5.0}})
                });
                rehash(c);
            },
        ),
        case(
            "an attribute's value changed",
            Some(p.set),
            false,
            |c, p| edit(c, p.set, |v| v["changes"][0]["to"] = json!(5)),
        ),
        case("who made an entry changed", Some(p.moved), false, |c, p| {
            edit(c, p.moved, |v| v["by"] = json!("Someone else"))
        }),
        case(
            "when an entry was made changed",
            Some(p.moved),
            false,
            |c, p| edit(c, p.moved, |v| v["at"] = json!("2020-01-01T00:00:00Z")),
        ),
        case("an entry's turn changed", Some(p.moved), false, |c, p| {
            edit(c, p.moved, |v| v["cursor"]["step"] = json!(1))
        }),
        case("a skip's reason changed", Some(p.skipped), false, |c, p| {
            edit(c, p.skipped, |v| v["reason"] = json!("because"))
        }),
        case(
            "an override's reason changed",
            Some(p.overridden),
            false,
            |c, p| edit(c, p.overridden, |v| v["reason"] = json!("because")),
        ),
        case(
            "an undone note's text changed",
            Some(p.note),
            false,
            |c, p| edit(c, p.note, |v| v["text"] = json!("the right wing wavers")),
        ),
        case("an undo's target changed", Some(p.undone), false, |c, p| {
            edit(c, p.undone, |v| v["event"] = json!(p.moved))
        }),
        case("applied effects changed", Some(p.applied), false, |c, p| {
            edit(c, p.applied, |v| {
                v["changes"][0]["status"] = json!("routed")
            })
        }),
        case(
            "an entry deleted, the rest renumbered",
            Some(p.note),
            false,
            |c, p| delete_and_renumber(c, p.note),
        ),
        case(
            "an entry deleted, the rest renumbered, every hash recomputed",
            None,
            true,
            |c, p| {
                delete_and_renumber(c, p.physical_roll);
                rehash(c);
            },
        ),
        case("two entries swapped", Some(p.moved), false, |c, p| {
            let (a, b) = (body(c, p.moved), body(c, p.set));
            let (mut a2, mut b2) = (b.clone(), a.clone());
            a2["seq"] = a["seq"].clone();
            b2["seq"] = b["seq"].clone();
            set_body(c, p.moved, &a2);
            set_body(c, p.set, &b2);
        }),
        case(
            "a forged entry inserted, the rest renumbered",
            Some(p.set),
            false,
            |c, p| {
                let last: i64 = c
                    .query_row("SELECT MAX(seq) FROM events", [], |r| r.get(0))
                    .expect("max");
                for s in (p.set as i64..=last).rev() {
                    let mut v = body(c, s as u64);
                    v["seq"] = json!(s + 1);
                    c.execute(
                        "UPDATE events SET seq = ?1, body = ?2 WHERE seq = ?3",
                        params![s + 1, v.to_string(), s],
                    )
                    .expect("shift");
                }
                let mut forged = body(c, p.note + 1);
                forged["seq"] = json!(p.set);
                forged["text"] = json!("Venice surrenders");
                c.execute(
                    "INSERT INTO events (seq, at, by, kind, body, hash) VALUES (?1, ?2, NULL, 'note', ?3, ?4)",
                    params![p.set as i64, "2026-11-01T10:00:00Z", forged.to_string(), "0".repeat(64)],
                )
                .expect("insert");
            },
        ),
        case(
            "a forged entry appended with a made-up hash",
            Some(last + 1),
            false,
            move |c, p| {
                let mut forged = body(c, p.note);
                forged["seq"] = json!(last + 1);
                c.execute(
                    "INSERT INTO events (seq, at, by, kind, body, hash) VALUES (?1, ?2, NULL, 'note', ?3, ?4)",
                    params![(last + 1) as i64, "2026-11-01T10:00:00Z", forged.to_string(), "f".repeat(64)],
                )
                .expect("insert");
            },
        ),
        case(
            "the last two entries cut off",
            Some(last - 1),
            false,
            move |c, _| {
                c.execute("DELETE FROM events WHERE seq > ?1", [(last - 2) as i64])
                    .expect("truncate");
            },
        ),
        case(
            "the last two entries cut off, the recorded head rewritten",
            Some(last - 1),
            true,
            move |c, _| {
                c.execute("DELETE FROM events WHERE seq > ?1", [(last - 2) as i64])
                    .expect("truncate");
                rehash(c);
            },
        ),
        case(
            "an app roll relabelled as physical dice",
            Some(p.second_app_roll),
            false,
            |c, p| {
                edit(c, p.second_app_roll, |v| {
                    roll(v)["provenance"] = json!({"source": "physical", "entered_by": "Umpire"})
                })
            },
        ),
        case(
            "physical dice relabelled as an app roll",
            Some(p.physical_roll),
            false,
            |c, p| {
                edit(
                    c,
                    p.physical_roll,
                    |v| roll(v)["provenance"] = json!({"source": "app", "algorithm": "chacha20-stream-per-draw/v1", "first_draw": 2, "draws": 1}),
                )
            },
        ),
        case(
            "an app roll moved to a draw with a better face, every hash recomputed",
            Some(p.second_app_roll),
            false,
            |c, p| {
                edit(c, p.second_app_roll, |v| {
                    roll(v)["provenance"]["first_draw"] = json!(7)
                });
                rehash(c);
            },
        ),
        case(
            "an app roll relabelled as physical, every hash recomputed",
            None,
            true,
            |c, p| {
                edit(c, p.second_app_roll, |v| {
                    roll(v)["provenance"] = json!({"source": "physical"})
                });
                rehash(c);
            },
        ),
        case("the game re-seeded", Some(0), false, |c, _| {
            let mut m = meta(c);
            let seed = m["seed"].as_u64().expect("seed");
            m["seed"] = json!(seed.wrapping_add(1));
            set_meta(c, &m);
        }),
        case(
            "the game re-seeded with a new commitment, every hash recomputed",
            None,
            true,
            |c, _| {
                let mut m = meta(c);
                let salt = m["salt"].as_str().expect("salt").to_string();
                let commitment = umpire::game::journal::commitment(99, &salt);
                m["seed"] = json!(99);
                m["seed_commitment"] = json!(commitment.clone());
                set_meta(c, &m);
                edit(c, 1, |v| v["seed_commitment"] = json!(commitment));
                rehash(c);
            },
        ),
        case("the seed's salt changed", Some(0), false, |c, _| {
            let mut m = meta(c);
            m["salt"] = json!("00");
            set_meta(c, &m);
        }),
        case("the scenario's text changed", Some(1), false, |c, _| {
            let mut m = meta(c);
            let text = m["scenario_text"]
                .as_str()
                .expect("text")
                .replace("Red horse", "Red hussars");
            m["scenario_text"] = json!(text);
            set_meta(c, &m);
        }),
        case(
            "the scenario's file name changed",
            Some(1),
            false,
            |c, _| {
                let mut m = meta(c);
                m["scenario_file"] = json!("elsewhere.yaml");
                set_meta(c, &m);
            },
        ),
        case("a stored hash changed", Some(p.set), false, |c, p| {
            c.execute(
                "UPDATE events SET hash = ?1 WHERE seq = ?2",
                params!["a".repeat(64), p.set as i64],
            )
            .expect("hash");
        }),
    ]
}

#[test]
fn every_kind_of_tampering_is_detected_and_an_honest_game_verifies() {
    let dir = scratch("kinds");
    let played = play(&dir);
    let path = played.path.to_string_lossy().to_string();
    let head = played.head.token();
    let (ok, out) = umpire(&["game", "verify", &path, "--head", &head]);
    assert!(ok, "the honest game: {out}");
    assert!(out.contains("verified:"), "{out}");

    let cases = cases(&played);
    assert!(cases.len() >= 27, "{} kinds", cases.len());
    for (i, case) in cases.iter().enumerate() {
        let copy = dir.join(format!("tampered-{i}.umpire"));
        std::fs::copy(&played.path, &copy).expect("copy");
        let conn = Connection::open(&copy).expect("sqlite");
        (case.tamper)(&conn, &played);
        drop(conn);
        let copy = copy.to_string_lossy().to_string();
        let mut args = vec!["game", "verify", copy.as_str()];
        if case.with_head {
            args.extend(["--head", head.as_str()]);
        }
        let (ok, out) = umpire(&args);
        assert!(!ok, "{}: not detected:\n{out}", case.name);
        assert!(
            !out.contains("panicked"),
            "{}: a crash, not a message:\n{out}",
            case.name
        );
        if let Some(entry) = case.names {
            let named = if entry == 0 {
                out.contains("FIRST MISMATCH") && !out.contains("FIRST MISMATCH entry")
            } else {
                out.contains(&format!("FIRST MISMATCH entry {entry}:"))
                    || out.contains(&format!("journal entry {entry} is damaged"))
            };
            assert!(
                named,
                "{}: the first mismatch is not entry {entry}:\n{out}",
                case.name
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_seed_stays_secret_until_revealed_then_every_roll_checks() {
    let dir = scratch("secret");
    let played = play(&dir);
    let lib = Library::shipped();
    let mut game = Game::open(&played.path, &lib).expect("open");
    let seed = game.meta().seed.expect("the umpire's file holds the seed");
    let salt = game.meta().salt.clone().expect("salt");
    let secret = [seed.to_string(), salt.clone()];
    let leaks = |text: &str| secret.iter().any(|s| text.contains(s.as_str()));

    // Status, the umpire's report and a side's report show the commitment, never the seed.
    let path = played.path.to_string_lossy().to_string();
    let (ok, status) = umpire(&["game", "status", &path, "--json"]);
    assert!(ok, "{status}");
    assert!(!leaks(&status), "status leaks the seed: {status}");
    assert!(status.contains(&game.meta().seed_commitment), "{status}");
    for side in [None, Some("blue")] {
        let options = umpire::report::ReportOptions {
            turn: None,
            side: side.map(str::to_string),
            printed_at: chrono::Local::now(),
        };
        let pdf = umpire::report::turn_report_pdf(
            &game,
            &options,
            umpire::report::Template::sheet_default().expect("template"),
        )
        .expect("report");
        let text = pdf_text(&dir, &pdf);
        assert!(!leaks(&text), "the {side:?} report leaks the seed");
        assert!(
            text.contains(&game.head().hash[..24]),
            "the {side:?} report prints the journal head"
        );
    }
    // A side's export carries no seed either; the whole journal for players neither.
    for args in [vec!["--side", "blue"], vec![]] {
        let mut all = vec!["game", "export", &path, "--jsonl"];
        all.extend(args.iter());
        let (ok, text) = umpire(&all);
        assert!(ok, "{text}");
        assert!(!leaks(&text), "an export leaks the seed ({args:?})");
    }
    // A side's export seals what the side may not see (the umpire's notes among it); its chain
    // still checks.
    let (ok, side_export) = umpire(&["game", "export", &path, "--jsonl", "--side", "blue"]);
    assert!(ok, "{side_export}");
    assert!(side_export.contains("\"sealed\":true"), "{side_export}");
    assert!(
        !side_export.contains("the left wing wavers"),
        "a sealed note shows"
    );
    let side_file = dir.join("blue.jsonl");
    std::fs::write(&side_file, &side_export).expect("write");
    let (ok, out) = umpire(&["game", "verify-side", &side_file.to_string_lossy()]);
    assert!(ok, "{out}");
    assert!(out.contains("sealed"), "{out}");
    // Before the reveal a player can check the chain, not the rolls.
    let export = dir.join("before.jsonl");
    let export_s = export.to_string_lossy().to_string();
    let (ok, out) = umpire(&["game", "export", &path, "--jsonl", "-o", &export_s]);
    assert!(ok, "{out}");
    let (ok, out) = umpire(&["game", "verify-side", &export_s]);
    assert!(ok, "{out}");
    assert!(out.contains("the seed is still secret"), "{out}");

    // The reveal: app dice are refused after it, and the player checks every app roll.
    game.act(&Actor::umpire(), Action::RevealSeed)
        .expect("reveal");
    let err = game
        .act(&Actor::umpire(), discipline(None))
        .expect_err("app dice after the reveal");
    assert!(err.to_string().contains("revealed"), "{err}");
    let token = format!("{seed}:{salt}");
    let (ok, out) = umpire(&["game", "verify-side", &export_s, "--seed", &token]);
    assert!(ok, "{out}");
    assert!(out.contains("3 app dice re-derived from the seed"), "{out}");
    // A wrong seed does not match the commitment.
    let wrong = format!("{}:{salt}", seed.wrapping_add(1));
    let (ok, out) = umpire(&["game", "verify-side", &export_s, "--seed", &wrong]);
    assert!(!ok && out.contains("re-seeded"), "{out}");
    // An export made after the reveal carries the seed in its reveal entry.
    let after = dir.join("after.jsonl");
    let after_s = after.to_string_lossy().to_string();
    let (ok, out) = umpire(&["game", "export", &path, "--jsonl", "-o", &after_s]);
    assert!(ok, "{out}");
    let (ok, out) = umpire(&["game", "verify-side", &after_s]);
    assert!(ok && out.contains("3 app dice re-derived"), "{out}");
    // Its rolls as the player holds them, tampered: caught.
    let text = std::fs::read_to_string(&after).expect("export");
    let forged = text.replacen("\"face\":", "\"face\":9,\"was\":", 1);
    std::fs::write(&after, forged).expect("write");
    let (ok, out) = umpire(&["game", "verify-side", &after_s]);
    assert!(!ok, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn pdf_text(dir: &Path, pdf: &[u8]) -> String {
    let file = dir.join("report.pdf");
    std::fs::write(&file, pdf).expect("pdf");
    let out = crate::common::tool::command("pdftotext")
        .args(["-layout"])
        .arg(&file)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils; .ci/run installs it)");
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn an_import_checks_the_whole_journal_before_writing_anything() {
    let dir = scratch("import");
    let played = play(&dir);
    let path = played.path.to_string_lossy().to_string();
    let export = dir.join("journal.jsonl");
    let export_s = export.to_string_lossy().to_string();
    let (ok, out) = umpire(&["game", "export", &path, "--jsonl", "-o", &export_s]);
    assert!(ok, "{out}");
    let good = std::fs::read_to_string(&export).expect("export");
    // The honest export imports and verifies.
    let copy = dir.join("copy.umpire");
    let copy_s = copy.to_string_lossy().to_string();
    let (ok, out) = umpire(&["game", "import", &export_s, "-o", &copy_s]);
    assert!(ok, "{out}");
    let (ok, out) = umpire(&["game", "verify", &copy_s, "--head", &played.head.token()]);
    assert!(ok, "{out}");

    let lines: Vec<&str> = good.lines().collect();
    let broken: Vec<(&str, String)> = vec![
        (
            "a 7 on a d6",
            lines
                .join("\n")
                .replacen("\"face\":", "\"face\":7,\"x\":", 1),
        ),
        ("an entry missing", {
            let mut l = lines.clone();
            l.remove(4);
            l.join("\n")
        }),
        ("a line that is not JSON", {
            let mut l = lines.clone();
            l[3] = "{\"seq\": 3, \"hash\":";
            l.join("\n")
        }),
        (
            "an unknown kind of entry",
            lines
                .join("\n")
                .replacen("\"type\":\"note\"", "\"type\":\"surrender\"", 1),
        ),
        (
            "turn 4,000,000,000",
            lines
                .join("\n")
                .replacen("\"turn\":1", "\"turn\":4000000000", 2),
        ),
        (
            "an undo of an entry that does not exist",
            lines.join("\n").replacen(
                &format!("\"type\":\"undone\",\"event\":{}", played.note),
                "\"type\":\"undone\",\"event\":400",
                1,
            ),
        ),
        (
            "a header that is not an export",
            format!("{{\"type\":\"pizza\"}}\n{}", lines[1..].join("\n")),
        ),
        ("an empty file", String::new()),
    ];
    for (i, (what, text)) in broken.iter().enumerate() {
        let file = dir.join(format!("broken-{i}.jsonl"));
        std::fs::write(&file, text).expect("write");
        let target = dir.join(format!("broken-{i}.umpire"));
        let (ok, out) = umpire(&[
            "game",
            "import",
            &file.to_string_lossy(),
            "-o",
            &target.to_string_lossy(),
        ]);
        assert!(!ok, "{what}: imported:\n{out}");
        assert!(
            out.contains(&format!("broken-{i}.jsonl")),
            "{what}: the message names the file:\n{out}"
        );
        assert!(!out.contains("panicked"), "{what}: {out}");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.contains(&format!("broken-{i}.umpire")))
            .collect();
        assert!(left.is_empty(), "{what}: left behind {left:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Decks and cups: an app draw is re-derived from the seed and the cup as it was, so a drawn
/// marker swapped for a better one (every hash recomputed) fails `verify`, naming the entry and
/// both markers; the honest game verifies.
#[test]
fn a_swapped_app_draw_from_a_cup_is_detected() {
    let dir = scratch("deck");
    let path = dir.join("gradisca.umpire");
    let file = path.to_str().expect("utf-8");
    let (ok, said) = umpire(&[
        "game",
        "new",
        "war_of_gradisca_1615",
        "-o",
        file,
        "--seed",
        "11",
    ]);
    assert!(ok, "{said}");
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "fill",
        file,
        "command_markers",
        "Venetian A=1",
        "Venetian B=1",
        "Austrian A=1",
        "Austrian B=1",
        "Dutch=1",
    ]);
    assert!(ok, "{said}");
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "draw",
        file,
        "Command markers",
        "--count",
        "2",
    ]);
    assert!(ok, "{said}");
    let (ok, said) = umpire(&["game", "verify", file]);
    assert!(ok, "the honest game verifies: {said}");
    let conn = Connection::open(&path).expect("open");
    let drawn = body(&conn, 3);
    let items: Vec<String> = drawn["change"]["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|v| v.as_str().expect("name").to_string())
        .collect();
    assert_eq!(items.len(), 2);
    // A marker still in the cup after the draw, put in place of the first one drawn.
    let better = [
        "Venetian A",
        "Venetian B",
        "Austrian A",
        "Austrian B",
        "Dutch",
    ]
    .into_iter()
    .find(|m| !items.iter().any(|i| i == m))
    .expect("three were left");
    edit(&conn, 3, |v| v["change"]["items"][0] = json!(better));
    rehash(&conn);
    drop(conn);
    let (ok, said) = umpire(&["game", "verify", file]);
    assert!(!ok, "a swapped draw verifies: {said}");
    assert!(said.contains("entry 3"), "{said}");
    assert!(
        said.contains(&format!("the journal says {better}")),
        "{said}"
    );
}
