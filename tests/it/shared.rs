//! Shared games on a real PostgreSQL server (issue 8): several desks, one journal.

use crate::common;

use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::pg::PgServer;
use umpire::dice::Provenance;
use umpire::game::Actor;
use umpire::game::journal::server::{Signal, listen};
use umpire::game::{Action, EventKind, Game, GameError, Location, StoreError};
use umpire::rules::{Library, SourceFile};

fn umpire() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_umpire"));
    // The shipped rulesets only, whatever the caller's environment says.
    c.env_remove("UMPIRE_RULES").arg("--no-user-rules");
    c
}

fn fixture() -> SourceFile {
    common::pg::source("tests/fixtures/scenarios/skirmish.yaml")
}

fn server_of(url: &str) -> umpire::game::journal::ServerAddress {
    match Location::parse(url).expect("url") {
        Location::Server(s) => s,
        Location::File(_) => panic!("not a server URL"),
    }
}

fn cli(args: &[&str]) -> (bool, String) {
    let out = umpire().args(args).output().expect("run umpire");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn a_game_lives_on_the_server_and_every_game_command_takes_its_url() {
    let pg = PgServer::start("cli");
    let url = pg.url("club-night");
    let fixture_path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scenarios/skirmish.yaml"
    );
    let (ok, out) = cli(&["game", "new", fixture_path, "--server", &url, "--seed", "5"]);
    assert!(ok, "{out}");
    assert!(out.contains("game=club-night"), "{out}");

    let (ok, out) = cli(&["game", "note", &url, "the French arrive late"]);
    assert!(ok, "{out}");
    let (ok, out) = cli(&["game", "status", &url, "--json"]);
    assert!(ok, "{out}");
    let status: serde_json::Value = serde_json::from_str(&out).expect("json status");
    assert_eq!(status["events"], 2);
    let (ok, out) = cli(&["game", "verify", &url]);
    assert!(ok, "{out}");
    assert!(
        out.contains("store integrity ok") && out.contains("verified:"),
        "{out}"
    );

    // The same name twice is refused; nothing is overwritten.
    let (ok, out) = cli(&["game", "new", fixture_path, "--server", &url]);
    assert!(!ok);
    assert!(out.contains("already on this server"), "{out}");

    // An unknown game names the ones there.
    let (ok, out) = cli(&["game", "status", &pg.url("no-such-game")]);
    assert!(!ok);
    assert!(out.contains("club-night"), "{out}");

    // A file published to the server keeps its whole journal.
    let dir = std::env::temp_dir().join(format!("umpire-publish-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("local.umpire");
    let _ = std::fs::remove_file(&file);
    let lib = Library::shipped();
    let mut local = Game::create(&file, &fixture(), &lib, Some(9)).expect("file game");
    local
        .act(
            &Actor::umpire(),
            Action::Note {
                text: "before publishing".into(),
            },
        )
        .expect("note");
    let (ok, out) = cli(&[
        "game",
        "publish",
        &file.to_string_lossy(),
        "--server",
        &pg.url("published"),
    ]);
    assert!(ok, "{out}");
    let shared = Game::open_at(&pg.url("published"), &lib).expect("open published");
    assert_eq!(shared.events(), local.events());
    assert_eq!(shared.state(), local.state());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_server_that_is_not_there_is_named_with_what_to_do() {
    let lib = Library::shipped();
    // Nothing listens on port 1.
    let url = "postgres://umpire@127.0.0.1:1/umpire?game=x&connect_timeout=2";
    let Err(GameError::Store(StoreError::Server { location, message })) = Game::open_at(url, &lib)
    else {
        panic!("expected a server error");
    };
    assert!(location.contains("127.0.0.1:1"), "{location}");
    assert!(message.contains("control-server.sh"), "{message}");
}

#[test]
fn four_desks_at_once_end_with_the_same_state_and_no_draw_used_twice() {
    let pg = PgServer::start("desks");
    let url = pg.url("turn-one");
    let lib = Library::shipped();
    drop(Game::create_at(&url, &fixture(), &lib, Some(42)).expect("create on server"));

    let desks = 4;
    let actions = 25;
    let total = 1 + desks * actions;
    let children: Vec<_> = (0..desks)
        .map(|d| {
            umpire()
                .args([
                    "game",
                    "soak",
                    &url,
                    "--actions",
                    &actions.to_string(),
                    "--gentle",
                    "--by",
                    &format!("desk-{d}"),
                    "--wait-for",
                    &total.to_string(),
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn desk")
        })
        .collect();
    let mut states = BTreeSet::new();
    let mut acks = 0;
    for child in children {
        let out = child.wait_with_output().expect("desk output");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        acks += text.lines().filter(|l| l.starts_with("ack ")).count();
        let state = text
            .lines()
            .find(|l| l.starts_with("state "))
            .expect("the desk printed its state")
            .to_string();
        states.insert(state);
    }
    assert_eq!(acks, desks * actions, "every action acknowledged once");
    assert_eq!(states.len(), 1, "desks disagree: {states:?}");

    let mut game = Game::open_at(&url, &lib).expect("open");
    assert_eq!(game.events().len(), total);
    assert_eq!(game.integrity_check().expect("check"), "ok");
    let verified = game.verify(None).expect("verify");
    assert!(verified.is_sound(), "{:?}", verified.problems);
    let by: BTreeSet<_> = game.events()[1..]
        .iter()
        .map(|e| e.by.clone().expect("every event says who made it"))
        .collect();
    assert_eq!(by.len(), desks);
    let mut draws = BTreeSet::new();
    for e in game.events() {
        if let EventKind::Resolved { resolution, .. } = &e.kind {
            for roll in &resolution.rolls {
                if let Provenance::App {
                    first_draw,
                    draws: n,
                    ..
                } = roll.provenance
                {
                    for d in first_draw..first_draw + n {
                        assert!(draws.insert(d), "draw {d} used twice");
                    }
                }
            }
        }
    }
    assert!(!draws.is_empty());
}

#[test]
fn another_desk_sees_an_event_within_a_second() {
    let pg = PgServer::start("notify");
    let url = pg.url("live");
    let lib = Library::shipped();
    let mut a = Game::create_at(&url, &fixture(), &lib, Some(1)).expect("desk a");
    let mut b = Game::open_at(&url, &lib).expect("desk b");
    let listener = listen(&server_of(&url));
    assert_eq!(
        listener.recv_timeout(Duration::from_secs(10)),
        Some(Signal::Up)
    );
    for i in 0..5 {
        let t0 = Instant::now();
        let seqs = a
            .act(
                &Actor::umpire(),
                Action::Note {
                    text: format!("from a {i}"),
                },
            )
            .expect("note");
        let target = seqs[0];
        loop {
            match listener.recv_timeout(Duration::from_secs(1)) {
                Some(Signal::Moved(len)) if len >= target => break,
                Some(_) => {}
                None => panic!("no notification within 1 s"),
            }
        }
        assert_eq!(b.refresh().expect("refresh"), 1);
        assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
        assert_eq!(b.state(), a.state());
    }
    // Desk b writes too: desk a, behind by one, is refused by the server, takes in b's event
    // and records its own after it.
    b.act(
        &Actor::umpire(),
        Action::Note {
            text: "from b".into(),
        },
    )
    .expect("b");
    let seqs = a
        .act(
            &Actor::umpire(),
            Action::Note {
                text: "a again".into(),
            },
        )
        .expect("a");
    assert_eq!(seqs, vec![8]);
    assert_eq!(a.events().len(), 8);
    b.refresh().expect("refresh");
    assert_eq!(a.state(), b.state());
}

#[test]
fn a_server_restarted_mid_phase_loses_nothing_and_doubles_nothing() {
    let pg = PgServer::start("restart");
    let url = pg.url("restart");
    let lib = Library::shipped();
    drop(Game::create_at(&url, &fixture(), &lib, Some(3)).expect("create"));
    let listener = listen(&server_of(&url));
    assert_eq!(
        listener.recv_timeout(Duration::from_secs(10)),
        Some(Signal::Up)
    );
    let child = umpire()
        .args([
            "game",
            "soak",
            &url,
            "--actions",
            "400",
            "--gentle",
            "--by",
            "map-east",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("desk");
    // Let it get going, then restart the server under it.
    let t0 = Instant::now();
    loop {
        if let Some(Signal::Moved(n)) = listener.recv_timeout(Duration::from_secs(10))
            && n > 20
        {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the desk never got going"
        );
    }
    pg.restart();
    let mut saw_down = false;
    let mut saw_up = false;
    let t1 = Instant::now();
    while t1.elapsed() < Duration::from_secs(10) && !(saw_down && saw_up) {
        match listener.recv_timeout(Duration::from_millis(500)) {
            Some(Signal::Down(_)) => saw_down = true,
            Some(Signal::Up) if saw_down => saw_up = true,
            _ => {}
        }
    }
    assert!(
        saw_down && saw_up,
        "the listener noticed the restart and came back"
    );
    let out = child.wait_with_output().expect("desk output");
    let text = String::from_utf8_lossy(&out.stdout);
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}{errors}");
    assert!(
        errors.contains("retrying"),
        "the restart happened while the desk was working: {errors}"
    );
    let acks: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("ack ").and_then(|n| n.parse().ok()))
        .collect();
    assert_eq!(acks.len(), 400);
    let mut game = Game::open_at(&url, &lib).expect("open");
    assert_eq!(game.events().len(), 401, "no event lost, none doubled");
    assert_eq!(
        acks,
        (2..=401).collect::<Vec<u64>>(),
        "each acknowledged entry is there, in order"
    );
    let notes: Vec<&str> = game
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let distinct: BTreeSet<_> = notes.iter().collect();
    assert_eq!(distinct.len(), notes.len(), "a note recorded twice");
    assert_eq!(game.integrity_check().expect("check"), "ok");
}

fn examples() -> SourceFile {
    common::pg::source("tests/fixtures/scenarios/rr3_examples.yaml")
}

#[test]
fn an_umpire_is_held_to_the_remit_of_their_role() {
    use umpire::game::scenario::Position;
    use umpire::megagame::remit::SignedIn;

    let dir = std::env::temp_dir().join(format!("umpire-remit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("remit.umpire");
    let _ = std::fs::remove_file(&path);
    let lib = Library::shipped();
    let mut game = Game::create(&path, &examples(), &lib, Some(4)).expect("create");
    let anna = SignedIn::parse("Anna:map:the_east")
        .expect("sign in")
        .actor();

    // Her own table's area: allowed, and the event says who made it.
    let to = Position::Area("Upper Austria".into());
    let seqs = game
        .act(
            &anna,
            Action::SetAttribute {
                counter: "upper-austria".into(),
                attribute: "in_revolt".into(),
                value: "yes".into(),
            },
        )
        .expect("her own table");
    let e = &game.events()[seqs[0] as usize - 1];
    assert_eq!(e.by.as_deref(), Some("Anna (Map Control, the_east)"));

    // Another table's army: refused, naming the table and the rule; nothing written.
    let before = game.events().len();
    let err = game
        .act(
            &anna,
            Action::Move {
                counter: "monluc-army".into(),
                to: to.clone(),
            },
        )
        .expect_err("another table");
    let text = err.to_string();
    assert!(
        text.contains("the_mediterranean") && text.contains("L230"),
        "{text}"
    );
    assert_eq!(game.events().len(), before);

    // A treasury: Political Control's, but Map Control takes army pay (L584) — only with a
    // reason, which the journal keeps.
    let err = game
        .act(
            &anna,
            Action::Adjust {
                counter: "state-austria".into(),
                attribute: "treasury".into(),
                by: -1,
                reason: "pay".into(),
            },
        )
        .expect_err("no discretion reason");
    assert!(err.to_string().contains("discretion"), "{err}");
    assert_eq!(game.events().len(), before);
    let with_reason = anna
        .clone()
        .with_reason(Some("army pay taken at the East table".into()));
    let seqs = game
        .act(
            &with_reason,
            Action::Adjust {
                counter: "state-austria".into(),
                attribute: "treasury".into(),
                by: -1,
                reason: "pay".into(),
            },
        )
        .expect("with a reason");
    assert_eq!(seqs.len(), 2, "the change and the note of the reason");
    let EventKind::Note { text } = &game.events()[seqs[1] as usize - 1].kind else {
        panic!("expected the reason's note");
    };
    assert!(
        text.contains("army pay taken at the East table") && text.contains("L584"),
        "{text}"
    );

    // Game Control may do anything.
    let greta = SignedIn::parse("Greta:game").expect("game control").actor();
    game.act(
        &greta,
        Action::Move {
            counter: "monluc-army".into(),
            to,
        },
    )
    .expect("Game Control");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cli_refuses_an_out_of_remit_action_on_a_shared_game() {
    let pg = PgServer::start("remit");
    let url = pg.url("remit");
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scenarios/rr3_examples.yaml"
    );
    let (ok, out) = cli(&["game", "new", fixture, "--server", &url]);
    assert!(ok, "{out}");
    let (ok, out) = cli(&[
        "--as",
        "Bruno:map:the_mediterranean",
        "game",
        "set",
        &url,
        "upper-austria",
        "in_revolt",
        "yes",
    ]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("Bruno (Map Control, the_mediterranean) may not touch upper-austria"),
        "{out}"
    );
    let (ok, out) = cli(&[
        "--as",
        "Anna:map:the_east",
        "game",
        "set",
        &url,
        "upper-austria",
        "in_revolt",
        "yes",
    ]);
    assert!(ok, "{out}");
    let lib = Library::shipped();
    let game = Game::open_at(&url, &lib).expect("open");
    assert_eq!(game.events().len(), 2);
    assert_eq!(
        game.events()[1].by.as_deref(),
        Some("Anna (Map Control, the_east)")
    );
}

#[test]
fn a_desk_cut_off_mid_phase_keeps_its_own_work_and_sends_it_when_the_link_returns() {
    use umpire::game::scenario::Position;
    use umpire::megagame::remit::SignedIn;

    let pg = PgServer::start("offline");
    let link = common::pg::Link::new(pg.port);
    let lib = Library::shipped();
    let direct = pg.url("offline");
    let mut control = Game::create_at(&direct, &examples(), &lib, Some(6)).expect("create");
    let greta = SignedIn::parse("Greta:game").expect("game control").actor();

    let dir = std::env::temp_dir().join(format!("umpire-offline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let queue = dir.join("east.queue.json");
    let _ = std::fs::remove_file(&queue);
    let anna = SignedIn::parse("Anna:map:the_east").expect("anna").actor();
    let mut east = Game::open_at(&link.url("offline"), &lib).expect("east desk");
    east.use_offline_queue(queue.clone()).expect("queue");
    east.act(
        &anna,
        Action::Note {
            text: "phase 2 begins at the East table".into(),
        },
    )
    .expect("online");

    link.cut();
    // Her own table's counters: recorded locally, at once.
    east.act(
        &anna,
        Action::SetAttribute {
            counter: "upper-austria".into(),
            attribute: "in_revolt".into(),
            value: "yes".into(),
        },
    )
    .expect("own area, offline");
    east.act(
        &anna,
        Action::Move {
            counter: "bohemia".into(),
            to: Position::Area("Bohemia".into()),
        },
    )
    .expect("own area, offline");
    east.act(
        &anna,
        Action::Note {
            text: "written while the link was down".into(),
        },
    )
    .expect("note, offline");
    // Two changes to the same thing, one after the other: her own, no clash with herself.
    for n in ["1", "2"] {
        east.act(
            &anna,
            Action::SetAttribute {
                counter: "upper-austria".into(),
                attribute: "purge_attempts".into(),
                value: n.into(),
            },
        )
        .expect("own area again, offline");
    }
    assert!(east.is_offline());
    assert_eq!(east.queued(), 5);
    // Not hers, or needing the server: refused, saying why.
    let err = east
        .act(
            &anna,
            Action::Move {
                counter: "monluc-army".into(),
                to: Position::Area("Milan".into()),
            },
        )
        .expect_err("another table's army");
    assert!(err.to_string().contains("may not touch"), "{err}");
    let err = east
        .act(&anna, Action::Next)
        .expect_err("the Sequence of Play is shared");
    assert!(err.to_string().contains("Working offline"), "{err}");

    // Meanwhile Game Control, still connected, moves Bohemia too and pays Austria.
    control
        .act(
            &greta,
            Action::Move {
                counter: "bohemia".into(),
                to: Position::Area("Prague".into()),
            },
        )
        .expect("control move");
    control
        .act(
            &greta,
            Action::Adjust {
                counter: "state-austria".into(),
                attribute: "treasury".into(),
                by: 5,
                reason: "subsidy".into(),
            },
        )
        .expect("control adjust");

    // The East desk crashes while offline; its queue is on disk. It comes back with the link.
    drop(east);
    link.restore();
    let mut east = Game::open_at(&link.url("offline"), &lib).expect("reopen");
    east.use_offline_queue(queue.clone()).expect("queue back");
    assert_eq!(east.queued(), 5, "the queue survived the crash");

    let report = east.sync().expect("sync");
    assert_eq!(report.sent, 4, "{report:?}");
    assert_eq!(report.held, 1, "the clashing move is held: {report:?}");
    assert_eq!(
        east.held()[0].clashes,
        vec!["bohemia: position".to_string()]
    );
    assert!(!east.is_offline());

    // Nothing lost, nothing doubled: each offline action is in the journal once.
    let count =
        |g: &Game, f: &dyn Fn(&EventKind) -> bool| g.events().iter().filter(|e| f(&e.kind)).count();
    let is_note =
        |t: &'static str| move |k: &EventKind| matches!(k, EventKind::Note { text } if text == t);
    control.refresh().expect("refresh");
    assert_eq!(
        count(&control, &is_note("written while the link was down")),
        1
    );
    assert_eq!(
        control.state().counters["upper-austria"].attributes["in_revolt"].to_string(),
        "yes"
    );
    assert_eq!(
        control.state().counters["upper-austria"].attributes["purge_attempts"].to_string(),
        "2"
    );
    assert_eq!(
        control.state().counters["state-austria"].attributes["treasury"].to_string(),
        "15"
    );

    // The umpire settles the clash: her move stands after Control's.
    east.settle(&anna, 0, true).expect("settle");
    control.refresh().expect("refresh");
    assert_eq!(
        control.state().counters["bohemia"].position,
        Position::Area("Bohemia".into())
    );
    assert_eq!(control.state(), east.state());
    assert_eq!(control.integrity_check().expect("check"), "ok");
    let saved = std::fs::read_to_string(&queue).expect("queue file");
    assert!(
        saved.contains("\"actions\": []") && saved.contains("\"held\": []"),
        "{saved}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_control_team_plays_a_scripted_turn_at_once_and_every_desk_ends_the_same() {
    let pg = PgServer::start("turn");
    let url = pg.url("scripted-turn");
    let lib = Library::shipped();
    let start = Game::create_at(&url, &examples(), &lib, Some(8)).expect("create");
    let initial = start.state().clone();
    drop(start);
    // Three Map Control desks, Political Control and Game Control, each at its own work.
    let desks = [
        "Anna:map:the_east",
        "Bruno:map:the_mediterranean",
        "Carla:map:the_west",
        "Chiara:political",
        "Greta:game",
    ];
    let actions = 20;
    let total = 1 + desks.len() * actions;
    let children: Vec<_> = desks
        .iter()
        .map(|who| {
            umpire()
                .args(["--as", who, "game", "soak", &url])
                .args([
                    "--actions",
                    &actions.to_string(),
                    "--wait-for",
                    &total.to_string(),
                ])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn desk")
        })
        .collect();
    let mut states = BTreeSet::new();
    for (who, child) in desks.iter().zip(children) {
        let out = child.wait_with_output().expect("desk output");
        let text = String::from_utf8_lossy(&out.stdout);
        let errors = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{who}: {text}{errors}");
        assert!(
            !errors.contains("refused"),
            "{who} stepped outside its remit: {errors}"
        );
        assert_eq!(
            text.lines().filter(|l| l.starts_with("ack ")).count(),
            actions,
            "{who}"
        );
        states.insert(
            text.lines()
                .find(|l| l.starts_with("state "))
                .expect("state line")
                .to_string(),
        );
    }
    assert_eq!(states.len(), 1, "desks disagree: {states:?}");

    // The adjustments combined in whatever order the server took them: each ledger moved by
    // the sum of its deltas.
    let game = Game::open_at(&url, &lib).expect("open");
    assert_eq!(game.events().len(), total);
    let mut sums: std::collections::BTreeMap<(String, String), i64> = Default::default();
    for e in game.events() {
        if let EventKind::Changed { changes, .. } = &e.kind {
            for c in changes {
                if let umpire::game::CounterChange::Adjust {
                    counter,
                    attribute,
                    by,
                } = c
                {
                    *sums
                        .entry((counter.clone(), attribute.clone()))
                        .or_default() += by;
                }
            }
        }
    }
    assert!(sums.len() > 3, "{sums:?}");
    for ((counter, attribute), sum) in &sums {
        let value =
            |s: &umpire::game::GameState| match s.counters[counter].attributes.get(attribute) {
                Some(umpire::rules::Value::Int(v)) => *v,
                _ => 0,
            };
        assert_eq!(
            value(game.state()) - value(&initial),
            *sum,
            "{counter}.{attribute}"
        );
    }
    let by: BTreeSet<_> = game.events()[1..]
        .iter()
        .filter_map(|e| e.by.clone())
        .collect();
    assert_eq!(by.len(), desks.len(), "{by:?}");
}
