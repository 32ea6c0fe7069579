//! No single login can break a shared game (issue 28): the server stores only entries the
//! engine would write and holds actions over the whole game to the roles the remits give them;
//! a transaction left open does not freeze the other desks; an append whose answer is lost is
//! recorded once. Every case against the real PostgreSQL the tests start.

use std::time::{Duration, Instant};

use crate::common::pg::{Link, PgServer};
use crate::shared::{APPEND, examples, forged, login_actor, moved};
use umpire::game::event::Audience;
use umpire::game::{Action, EventKind, Game};
use umpire::rules::Library;

/// A forged entry from an event's JSON, edited: its exact text and its hash after `previous`
/// (chained correctly, so only the server's checks of what it says can refuse it).
fn edited(
    previous: &str,
    seq: u64,
    by: &str,
    kind: EventKind,
    edit: impl FnOnce(&mut serde_json::Value),
) -> (String, String) {
    let (text, _) = forged(previous, seq, by, kind);
    let mut value: serde_json::Value = serde_json::from_str(&text).expect("json");
    edit(&mut value);
    let text = serde_json::to_string(&value).expect("json");
    let hash = umpire::game::journal::link(previous, &text);
    (text, hash)
}

/// Sends one entry through psql as `login`, after the game's head.
fn send(
    pg: &PgServer,
    login: &str,
    game: &Game,
    name: &str,
    entry: &(String, String),
) -> (bool, String) {
    let seq = (game.head().entries + 1).to_string();
    pg.psql(
        Some(login),
        APPEND,
        &[
            ("g", name),
            ("seq", &seq),
            ("body", &entry.0),
            ("hash", &entry.1),
        ],
    )
}

/// Waits (up to 20 s) until `ready`, failing with `what` if it never is.
fn until(what: &str, mut ready: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !ready() {
        assert!(t0.elapsed() < Duration::from_secs(20), "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Anna's sessions on the server that meet `condition` (SQL over pg_stat_activity).
fn sessions(pg: &PgServer, condition: &str) -> usize {
    let (_, out) = pg.psql(
        None,
        &format!("SELECT count(*) FROM pg_stat_activity WHERE usename = 'anna' AND {condition};"),
        &[],
    );
    out.trim().parse().unwrap_or(0)
}

fn note(text: &str) -> EventKind {
    EventKind::Note { text: text.into() }
}

/// A game of the rr3 examples with Game Control's Mutiny roll (physical dice) at its head.
fn game_with_a_mutiny_roll(pg: &PgServer, name: &str) -> (Game, u64) {
    let lib = Library::shipped();
    let mut control =
        umpire::server::create_at(&pg.url("greta", name), &examples(), &lib, None).expect("create");
    let greta = login_actor(&control);
    let seqs = control
        .act(
            &greta,
            Action::Resolve {
                procedure: "mutiny".into(),
                inputs: vec![("arrears".into(), "2".into())],
                physical: Some(vec!["1".into()]),
                chart_result: None,
                chart_confirmed: false,
                counters: Default::default(),
                item: None,
            },
        )
        .expect("Game Control rolls for mutiny");
    (control, seqs[0])
}

#[test]
fn the_server_refuses_every_entry_the_engine_would_not_write_and_every_desk_keeps_working() {
    let pg = PgServer::start("guard-forged");
    let lib = Library::shipped();
    let name = "forged";
    let (mut control, mutiny) = game_with_a_mutiny_roll(&pg, name);
    let anna_by = "Anna (Map Control, the_east)";
    let greta_by = "Greta (Game Control)";
    let mut anna = umpire::server::open_at(&pg.url("anna", name), &lib).expect("anna's desk");
    let head = anna.head();
    let (prev, seq) = (head.hash.clone(), head.entries + 1);
    let set = |field: &'static str, value: serde_json::Value| {
        move |v: &mut serde_json::Value| {
            v[field] = value;
        }
    };
    let resolution = match &control.events()[mutiny as usize - 1].kind {
        EventKind::Resolved { resolution, .. } => resolution.clone(),
        other => panic!("{other:?}"),
    };
    let seven = {
        let mut r = resolution.clone();
        r.rolls[0].dice[0].face = 7;
        r.rolls[0].total = 7;
        EventKind::Resolved {
            resolution: r,
            counters: Default::default(),
            item: None,
        }
    };
    let later = (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339();
    // (who, the entry, what the refusal says)
    let cases: Vec<(&str, (String, String), &str)> = vec![
        (
            "anna",
            edited(
                &prev,
                seq,
                anna_by,
                note("x"),
                set("at", "yesterday".into()),
            ),
            "is not a date and time",
        ),
        (
            "anna",
            edited(&prev, seq, anna_by, note("x"), set("at", "epoch".into())),
            "is not a date and time",
        ),
        (
            "anna",
            edited(
                &prev,
                seq,
                anna_by,
                note("x"),
                set("at", "2026-11-26 23:10".into()),
            ),
            "is not a date and time",
        ),
        (
            "anna",
            edited(
                &prev,
                seq,
                anna_by,
                note("x"),
                set("at", "2001-01-01T00:00:00Z".into()),
            ),
            "before the game began",
        ),
        (
            "anna",
            edited(&prev, seq, anna_by, note("x"), set("at", later.into())),
            "ahead of the server's clock",
        ),
        (
            "anna",
            edited(&prev, seq, anna_by, note("x"), set("type", "foo".into())),
            "'foo' is not a kind of journal entry",
        ),
        (
            "anna",
            edited(
                &prev,
                seq,
                anna_by,
                note("x"),
                set("cursor", serde_json::json!({"turn": -1, "step": 0})),
            ),
            "place in the Sequence of Play",
        ),
        (
            "anna",
            edited(&prev, seq, anna_by, note("x"), set("text", 5.into())),
            "a note's text is not text",
        ),
        ("anna", forged(&prev, seq, anna_by, seven), "a d6 shows 7"),
        (
            "anna",
            forged(
                &prev,
                seq,
                anna_by,
                EventKind::Overridden {
                    of: mutiny,
                    outcome: "total_nonsense".into(),
                    effects: vec![],
                    reason: "why not".into(),
                },
            ),
            "'total_nonsense' is not a result of mutiny",
        ),
        (
            "anna",
            forged(
                &prev,
                seq,
                anna_by,
                EventKind::Overridden {
                    of: mutiny,
                    outcome: "mutiny".into(),
                    effects: vec![],
                    reason: "I say so".into(),
                },
            ),
            "may not override entry",
        ),
        (
            "greta",
            forged(
                &prev,
                seq,
                greta_by,
                EventKind::SeedRevealed {
                    seed: 12345,
                    salt: "00".into(),
                },
            ),
            "not the ones the game committed to",
        ),
        (
            "anna",
            forged(
                &prev,
                seq,
                anna_by,
                EventKind::Announced {
                    audience: Audience::Public,
                    team: None,
                    text: "France surrenders".into(),
                },
            ),
            "may not announce to everyone",
        ),
        (
            "anna",
            forged(
                &prev,
                seq,
                anna_by,
                EventKind::Stepped {
                    from: anna.state().cursor.clone(),
                    to: umpire::game::Cursor {
                        turn: anna.state().cursor.turn,
                        step: anna.state().cursor.step + 1,
                    },
                },
            ),
            "may not step the Sequence of Play",
        ),
        (
            "greta",
            forged(
                &prev,
                seq,
                greta_by,
                EventKind::Stepped {
                    from: anna.state().cursor.clone(),
                    to: umpire::game::Cursor { turn: 6, step: 5 },
                },
            ),
            "Sequence of Play",
        ),
        (
            "greta",
            forged(&prev, seq, greta_by, EventKind::Redone { event: mutiny }),
            "there is nothing to redo",
        ),
        (
            "greta",
            forged(&prev, seq, greta_by, EventKind::Undone { event: 1 }),
            "cannot be undone",
        ),
        (
            "greta",
            forged(&prev, seq, greta_by, EventKind::Undone { event: seq + 5 }),
            "not an earlier entry",
        ),
        (
            "greta",
            edited(&prev, seq, greta_by, note("x"), |v| {
                *v = serde_json::json!({
                    "seq": seq, "at": chrono::Utc::now().to_rfc3339(), "by": greta_by,
                    "cursor": v["cursor"].clone(), "type": "deck", "deck": "no_such_deck",
                    "change": {"op": "fill"}, "before": {}, "after": {}
                });
            }),
            "'no_such_deck' is not a deck or cup",
        ),
        (
            "greta",
            edited(&prev, seq, greta_by, moved("bohemia", "Prague"), |v| {
                v["changes"][0]["change"] = "teleport".into();
            }),
            "is not one Umpire makes",
        ),
    ];
    for (login, entry, says) in &cases {
        let (ok, out) = send(&pg, login, &anna, name, entry);
        assert!(!ok, "accepted: {} — {out}", entry.0);
        assert!(
            out.contains(says),
            "expected '{says}' for {}: {out}",
            entry.0
        );
    }

    // Nothing was stored; every desk reads the game and writes on.
    anna.refresh().expect("anna's desk reads the game");
    assert_eq!(anna.head(), head, "nothing was stored");
    let greta = login_actor(&control);
    control
        .act(
            &greta,
            Action::Note {
                text: "still playing".into(),
            },
        )
        .expect("Game Control writes on");
    anna.refresh().expect("anna catches up");
    assert_eq!(anna.head(), control.head());
    let (ok, out) = crate::shared::cli_on(&pg, &["game", "verify", &pg.bare_url("greta", name)]);
    assert!(ok, "{out}");

    // A second, real undo of the same entry and a double reveal: the first goes in, the second not.
    let me = login_actor(&control);
    let seqs = control
        .act(&me, Action::Undo)
        .expect("Game Control undoes its note");
    let h = control.head();
    let again = forged(
        &h.hash,
        h.entries + 1,
        greta_by,
        EventKind::Undone { event: seqs[0] - 1 },
    );
    let (ok, out) = send(&pg, "greta", &control, name, &again);
    assert!(!ok && out.contains("is undone already"), "{out}");
}

#[test]
fn actions_over_the_whole_game_are_held_to_the_role_at_the_desk_and_on_the_server() {
    let pg = PgServer::start("guard-actions");
    let lib = Library::shipped();
    let name = "actions";
    let (mut control, mutiny) = game_with_a_mutiny_roll(&pg, name);
    let mut anna = umpire::server::open_at(&pg.url("anna", name), &lib).expect("anna's desk");
    let anna_actor = login_actor(&anna);
    // At Anna's desk, before anything is sent.
    for (action, says) in [
        (Action::Next, "may not step the Sequence of Play"),
        (Action::Back, "may not step the Sequence of Play"),
        (Action::RevealSeed, "may not reveal the app dice's seed"),
        (
            Action::Announce {
                audience: Audience::Public,
                team: None,
                text: "Peace!".into(),
            },
            "may not announce to everyone",
        ),
        (
            Action::Override {
                of: mutiny,
                outcome: "obeys".into(),
                reason: "kind".into(),
            },
            "may not override entry",
        ),
    ] {
        let err = anna
            .act(&anna_actor, action.clone())
            .expect_err("another role's");
        assert!(err.to_string().contains(says), "{action:?}: {err}");
        assert!(err.to_string().contains("ask Game Control"), "{err}");
    }
    // A team announcement is anyone's; an override by Game Control itself must name a result.
    anna.act(
        &anna_actor,
        Action::Announce {
            audience: Audience::Team,
            team: Some("france".into()),
            text: "Pay day".into(),
        },
    )
    .expect("a team announcement");
    let greta = login_actor(&control);
    control.refresh().expect("refresh");
    let err = control
        .act(
            &greta,
            Action::Override {
                of: mutiny,
                outcome: "total_nonsense".into(),
                reason: "x".into(),
            },
        )
        .expect_err("not a code");
    assert!(
        err.to_string().contains("is not a result of Mutiny"),
        "{err}"
    );
    assert!(err.to_string().contains("obeys"), "{err}");
    control
        .act(
            &greta,
            Action::Override {
                of: mutiny,
                outcome: "obeys".into(),
                reason: "the example".into(),
            },
        )
        .expect("Game Control overrides");

    // A change at Control's discretion: undo takes the change back, and the note stays.
    anna.refresh().expect("refresh");
    let pay = Action::Adjust {
        counter: "state-france".into(),
        attribute: "treasury".into(),
        by: -1,
        reason: "army pay".into(),
    };
    let with_reason = anna_actor
        .clone()
        .with_reason(Some("paid at the West table".into()));
    let seqs = anna
        .act(&with_reason, pay)
        .expect("at discretion, with a reason");
    assert_eq!(seqs.len(), 2, "the change and its note");
    let undone = anna.act(&anna_actor, Action::Undo).expect("undo");
    match &anna.events()[undone[0] as usize - 1].kind {
        EventKind::Undone { event } => {
            assert_eq!(*event, seqs[0], "the change is undone, not its note")
        }
        other => panic!("{other:?}"),
    }
    // Through psql, undoing the note itself is refused.
    let h = anna.head();
    let entry = forged(
        &h.hash,
        h.entries + 1,
        "Anna (Map Control, the_east)",
        EventKind::Undone { event: seqs[1] },
    );
    let (ok, out) = send(&pg, "anna", &anna, name, &entry);
    assert!(!ok, "{out}");
    assert!(
        out.contains("is the reason given for a change at Control's discretion"),
        "{out}"
    );

    // The desks' remits and the server's agree for every role and action.
    let remits = control
        .scenario()
        .remits
        .clone()
        .expect("rr3 declares remits");
    for role in umpire::game::scenario::ControlRole::ALL {
        for action in umpire::rules::ACTION_REMITS {
            let desk = remits.may(action, role.id()).is_ok();
            let (ok, out) = pg.psql(
                None,
                "SELECT umpire_may(remits, :'a', :'r') IS NULL FROM umpire_games WHERE name = :'g';",
                &[("a", action), ("r", role.id()), ("g", name)],
            );
            assert!(ok, "{out}");
            assert_eq!(out.trim() == "t", desk, "{action} for {}: {out}", role.id());
        }
    }
}

#[test]
fn a_transaction_left_open_does_not_stop_the_other_desks_for_more_than_a_few_seconds() {
    use std::io::Write as _;
    use std::process::Stdio;
    let pg = PgServer::start("guard-lock");
    let lib = Library::shipped();
    let name = "held";
    let mut control = umpire::server::create_at(&pg.url("greta", name), &examples(), &lib, Some(3))
        .expect("create");
    let greta = login_actor(&control);
    let anna = umpire::server::open_at(&pg.url("anna", name), &lib).expect("anna's desk");
    let h = anna.head();
    let (text, hash) = forged(
        &h.hash,
        h.entries + 1,
        "Anna (Map Control, the_east)",
        moved("bohemia", "Prague"),
    );
    // Anna's login opens a transaction, appends, and sits on it with every limit turned off.
    let mut psql = crate::common::tool::command("psql")
        .arg(format!("postgres://anna@127.0.0.1:{}/umpire", pg.port))
        .args(["-X", "-w", "-q"])
        .env("PGPASSFILE", pg.pgpass())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("psql");
    let mut stdin = psql.stdin.take().expect("stdin");
    writeln!(
        stdin,
        "SELECT umpire_propose('{name}', {seq}, ARRAY[$t${text}$t$], ARRAY['{hash}']);\n\
         SET idle_in_transaction_session_timeout = 0; SET statement_timeout = 0; BEGIN; \
         SELECT umpire_append('{name}', {seq}, ARRAY[$t${text}$t$], ARRAY['{hash}']);",
        seq = h.entries + 1
    )
    .expect("write");
    stdin.flush().expect("flush");
    // Wait until the lock is held.
    until("Anna's transaction is open", || {
        sessions(&pg, "state = 'idle in transaction'") == 1
    });
    // Game Control's desk writes within 5 s.
    let t1 = Instant::now();
    control
        .act(
            &greta,
            Action::Note {
                text: "the game goes on".into(),
            },
        )
        .expect("Game Control's note goes in");
    let waited = t1.elapsed();
    assert!(waited < Duration::from_secs(5), "waited {waited:?}");
    drop(stdin);
    let _ = psql.wait();
    let mut fresh = umpire::server::open_at(&pg.url("greta", name), &lib).expect("open");
    fresh.refresh().expect("refresh");
    assert_eq!(fresh.head(), control.head());
    assert!(
        !fresh
            .events()
            .iter()
            .any(|e| matches!(&e.kind, EventKind::Changed { .. })),
        "the held append was rolled back"
    );

    // A writer that is busy (not idle) is named to the desk that waits for it.
    let h = control.head();
    let (t2, h2) = forged(
        &h.hash,
        h.entries + 1,
        "Anna (Map Control, the_east)",
        moved("bohemia", "Prague"),
    );
    let busy = std::thread::spawn({
        let (url, pgpass, t2, h2, seq) = (
            format!("postgres://anna@127.0.0.1:{}/umpire", pg.port),
            pg.pgpass().to_path_buf(),
            t2,
            h2,
            h.entries + 1,
        );
        move || {
            crate::common::tool::command("psql")
                .arg(url)
                .args(["-X", "-w", "-q", "-c"])
                .arg(format!(
                    "SELECT umpire_propose('{name}', {seq}, ARRAY[$t${t2}$t$], ARRAY['{h2}'])"
                ))
                .arg("-c")
                .arg(format!(
                    "BEGIN; SELECT umpire_append('{name}', {seq}, ARRAY[$t${t2}$t$], ARRAY['{h2}']); SELECT pg_sleep(6); ROLLBACK;"
                ))
                .env("PGPASSFILE", pgpass)
                .output()
        }
    });
    // Wait until Anna's session holds the game and sleeps.
    until("Anna's writer holds the game", || {
        sessions(&pg, "query LIKE '%pg_sleep%' AND state = 'active'") == 1
    });
    let t3 = Instant::now();
    let err = control
        .act(
            &greta,
            Action::Note {
                text: "while Anna writes".into(),
            },
        )
        .expect_err("the game is being written");
    assert!(t3.elapsed() < Duration::from_secs(5), "{:?}", t3.elapsed());
    assert!(
        err.to_string()
            .contains("being written by Anna (Map Control, the_east)"),
        "{err}"
    );
    let _ = busy.join();
    control
        .act(
            &greta,
            Action::Note {
                text: "after Anna".into(),
            },
        )
        .expect("then it goes in");
}

#[test]
fn an_append_whose_answer_is_lost_is_recorded_once_and_acknowledged() {
    let pg = PgServer::start("guard-lost");
    let lib = Library::shipped();
    let name = "lost";
    drop(
        umpire::server::create_at(&pg.url("greta", name), &examples(), &lib, Some(3))
            .expect("create"),
    );
    let link = Link::new(pg.port);
    let mut desk = umpire::server::open_at(&link.url(&pg, "greta", name), &lib)
        .expect("open through the link");
    let greta = login_actor(&desk);
    let before = desk.head().entries;
    let len = |pg: &PgServer| -> u64 {
        let (_, out) = pg.psql(
            None,
            "SELECT len FROM umpire_games WHERE name = 'lost';",
            &[],
        );
        out.trim().parse().unwrap_or(0)
    };
    // The request that carries the entry (its text is long) goes through; its answer is lost.
    link.hold_answers_from_a_request_over(1500);
    let long = format!("once only: {}", "the long note. ".repeat(120));
    let text = long.clone();
    let writer = std::thread::spawn(move || {
        let r = desk.act(&greta, Action::Note { text });
        (desk, r)
    });
    // The append commits on the server; its answer never reaches the desk.
    until("the append committed", || len(&pg) > before);
    assert!(link.holding(), "the answer to the append was held");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !writer.is_finished(),
        "the desk is still waiting for its answer"
    );
    // The server goes down between the commit and the answer, and comes back.
    link.cut();
    pg.restart();
    link.hold_answers(false);
    link.restore();
    let (mut desk, done) = writer.join().expect("desk thread");
    let seqs = done.expect("acknowledged after all");
    assert_eq!(seqs, vec![before + 1]);
    assert_eq!(len(&pg), before + 1, "recorded once");
    desk.refresh().expect("refresh");
    let notes = desk
        .events()
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Note { text } if text.trim() == long.trim()))
        .count();
    assert_eq!(notes, 1);

    // Again, but the server stays away past the desk's patience: the desk says the entry may
    // have landed, and the same action done again once the link is back is not recorded twice.
    let greta = login_actor(&desk);
    let before = len(&pg);
    link.hold_answers_from_a_request_over(1500);
    let again = Action::Note {
        text: format!("twice? {}", "the long note. ".repeat(120)),
    };
    let action = again.clone();
    let writer = std::thread::spawn(move || {
        let r = desk.act(&greta, action);
        (desk, greta, r)
    });
    until("the append committed", || len(&pg) > before);
    link.cut();
    let (mut desk, greta, done) = writer.join().expect("desk thread");
    let err = done.expect_err("the link is down");
    assert!(
        err.to_string()
            .contains("may or may not have been recorded"),
        "{err}"
    );
    link.hold_answers(false);
    link.restore();
    let seqs = desk
        .act(&greta, again)
        .expect("the same action, once the link is back");
    assert_eq!(
        seqs,
        vec![before + 1],
        "it had landed: acknowledged, not doubled"
    );
    assert_eq!(len(&pg), before + 1);
    let (ok, out) = crate::shared::cli_on(&pg, &["game", "verify", &pg.bare_url("greta", name)]);
    assert!(ok, "{out}");
}

/// A move to a hex, as a forger writes it.
fn hex_move(counter: &str, hex: &str) -> EventKind {
    EventKind::Changed {
        changes: vec![umpire::game::CounterChange::Move {
            counter: counter.into(),
            from: None,
            to: umpire::game::scenario::Position::Hex(hex.into()),
        }],
        reason: None,
        item: None,
    }
}

/// A deck entry as a forger writes it: `items` drawn by hand, from `before` to `after`.
fn drawn(items: &[&str], before: &[(&str, u32)], after: &[(&str, u32)]) -> EventKind {
    let state = |m: &[(&str, u32)]| umpire::game::deck::DeckState {
        inside: m.iter().map(|(n, c)| (n.to_string(), *c)).collect(),
        ..Default::default()
    };
    EventKind::Deck {
        deck: "seizure_counters".into(),
        owner: Some("spanish".into()),
        change: umpire::game::deck::DeckChange::Drawn {
            items: items.iter().map(|s| s.to_string()).collect(),
            provenance: umpire::dice::Provenance::Physical { entered_by: None },
            side: None,
            reshuffled: false,
        },
        before: state(before),
        after: state(after),
        reason: None,
    }
}

#[test]
fn the_server_holds_decks_counters_and_clocks_to_what_the_game_has() {
    let pg = PgServer::start("guard-decks");
    let lib = Library::shipped();
    let name = "cerignola";
    let scenario = crate::common::pg::source("scenarios/arquebus/cerignola_1503.yaml");
    let game = umpire::server::create_at(&pg.url("greta", name), &scenario, &lib, Some(4))
        .expect("create");
    let by = "Greta (Game Control)";
    let h = game.head();
    // The cup of seven, as the ruleset gives it.
    let full = [
        ("Battle Cry", 1),
        ("Into the Breach", 1),
        ("Seizure Negation", 1),
        ("Seizure Opportunity", 4),
        ("Unsteady Troops", 1),
    ];
    let thousand = vec!["Seizure Opportunity"; 1000];
    let try_entry = |kind: EventKind| {
        send(
            &pg,
            "greta",
            &game,
            name,
            &forged(&h.hash, h.entries + 1, by, kind),
        )
    };
    for (kind, says) in [
        (
            drawn(&["Seizure Negation", "Seizure Negation"], &full, &full),
            "draws 2 × Seizure Negation from seizure_counters, which holds 1",
        ),
        (
            drawn(&thousand, &full, &full),
            "draws 1000 × Seizure Opportunity from seizure_counters, which holds 4",
        ),
        (
            drawn(&["Imperial Eagle"], &full, &full),
            "draws 1 × Imperial Eagle from seizure_counters, which holds 0",
        ),
        (
            drawn(
                &["Battle Cry"],
                &[("Battle Cry", 1000)],
                &[("Battle Cry", 999)],
            ),
            "held {\"Battle Cry\": 1000} before, but it holds",
        ),
        (
            drawn(&["Battle Cry"], &full, &full),
            "should hold 0 of them",
        ),
        (
            hex_move("no-such-unit", "0101"),
            "there is no counter 'no-such-unit'",
        ),
        (
            moved("spanish-command", "Cerignola"),
            "is not a place on this game's map (its places are hexes of 4 digits)",
        ),
        (
            hex_move("spanish-command", "99999"),
            "is not a place on this game's map",
        ),
        (
            EventKind::Clock {
                action: umpire::game::event::ClockAction::Hold,
            },
            "this game has no phase clock",
        ),
    ] {
        let (ok, out) = try_entry(kind);
        assert!(!ok, "{out}");
        assert!(out.contains(says), "expected '{says}': {out}");
    }
    // The draw the engine would write goes in (it keeps no empty line: a count of 0 is no
    // line at all, and the referee holds the entry to the engine's own).
    let after = [
        ("Into the Breach", 1),
        ("Seizure Negation", 1),
        ("Seizure Opportunity", 4),
        ("Unsteady Troops", 1),
    ];
    let mut good = drawn(&["Battle Cry"], &full, &after);
    if let EventKind::Deck { after: a, .. } = &mut good {
        a.out.insert("Battle Cry".into(), 1);
    }
    let (ok, out) = try_entry(good);
    assert!(ok, "{out}");
}

/// What the SQL cannot reasonably re-check is held to the rules of play by the server's
/// referee, the same audit `game import` runs: a value its declaration does not allow, a
/// resolution whose result its dice do not give, a resolution with an input out of its range,
/// a treasury taken below its floor without the umpire's word. Each is sent through psql as a
/// desk's append with every SQL check passed, refused naming its entry, and the game goes on.
#[test]
fn the_referee_refuses_desk_appends_that_play_would_refuse_and_the_game_goes_on() {
    use umpire::game::CounterChange;
    let pg = PgServer::start("guard-referee");
    let lib = Library::shipped();
    let name = "refereed";
    let (mut control, mutiny) = game_with_a_mutiny_roll(&pg, name);
    let greta_by = "Greta (Game Control)";
    let h = control.head();
    let (prev, seq) = (h.hash.clone(), h.entries + 1);
    let (resolution, counters) = match &control.events()[mutiny as usize - 1].kind {
        EventKind::Resolved {
            resolution,
            counters,
            ..
        } => (resolution.clone(), counters.clone()),
        other => panic!("{other:?}"),
    };
    let codes = umpire::rules::ResultCodes::of(
        control.ruleset(),
        control
            .ruleset()
            .procedure("mutiny")
            .expect("the Mutiny procedure"),
    );
    let other_code = codes
        .codes
        .iter()
        .find(|c| **c != resolution.outcome.code)
        .expect("another result of Mutiny");
    let mut wrong_result = resolution.clone();
    wrong_result.outcome.code = other_code.clone();
    let mut out_of_range = resolution.clone();
    out_of_range
        .inputs
        .insert("arrears".into(), umpire::rules::Value::Int(99));
    let changed = |change: CounterChange| EventKind::Changed {
        changes: vec![change],
        reason: None,
        item: None,
    };
    let cases: Vec<(&str, EventKind)> = vec![
        (
            "a fatigue its declaration does not allow",
            changed(CounterChange::Attribute {
                counter: "monluc-army".into(),
                attribute: "fatigue".into(),
                from: Some(umpire::rules::Value::Int(0)),
                to: umpire::rules::Value::Int(9),
            }),
        ),
        (
            "a result its dice do not give",
            EventKind::Resolved {
                resolution: wrong_result,
                counters: counters.clone(),
                item: None,
            },
        ),
        (
            "an input out of its range",
            EventKind::Resolved {
                resolution: out_of_range,
                counters,
                item: None,
            },
        ),
        (
            "a treasury below its floor without the umpire's word",
            changed(CounterChange::Adjust {
                counter: "state-france".into(),
                attribute: "treasury".into(),
                by: -50,
            }),
        ),
    ];
    for (what, kind) in cases {
        let (ok, out) = send(
            &pg,
            "greta",
            &control,
            name,
            &forged(&prev, seq, greta_by, kind),
        );
        assert!(!ok, "{what}: stored:\n{out}");
        assert!(
            out.contains(&format!("entry {seq} is refused by the rules of play")),
            "{what}: the referee's refusal naming entry {seq}:\n{out}"
        );
    }
    // Nothing of them was stored, and every desk goes on.
    control
        .refresh()
        .expect("Game Control's desk reads the game");
    assert_eq!(control.head().entries, h.entries, "nothing stored");
    let greta = login_actor(&control);
    control
        .act(
            &greta,
            Action::Note {
                text: "play goes on".into(),
            },
        )
        .expect("Game Control's note goes in");
    let mut anna = umpire::server::open_at(&pg.url("anna", name), &lib).expect("Anna's desk");
    let anna_actor = login_actor(&anna);
    anna.act(
        &anna_actor,
        Action::Note {
            text: "and at the east table".into(),
        },
    )
    .expect("Anna's note goes in");
    let (ok, out) = pg.psql(
        None,
        &format!(
            "SELECT count(*) FROM umpire_proposals WHERE game = '{name}' AND verdict = 'refused'"
        ),
        &[],
    );
    assert!(ok && out.trim() == "4", "four refusals recorded: {out}");
}
