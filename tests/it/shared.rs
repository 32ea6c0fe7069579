//! Shared games on a real PostgreSQL server (issues 8 and 12): several desks, one journal, and a
//! server that holds each umpire's login to what it may write.

use crate::common;

use std::collections::BTreeSet;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::pg::PgServer;
use umpire::dice::Provenance;
use umpire::game::Actor;
use umpire::game::{Action, EventKind, Game, GameError, Location, StoreError};
use umpire::rules::{Library, SourceFile};
use umpire::server::{Signal, listen};

fn umpire() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_umpire"));
    // The shipped rulesets only, whatever the caller's environment says.
    c.env_remove("UMPIRE_RULES")
        .env_remove("UMPIRE_AS")
        .arg("--no-user-rules");
    c
}

/// The CLI on `pg`'s server: passwords from the test's password file.
fn umpire_on(pg: &PgServer) -> Command {
    let mut c = umpire();
    c.env("PGPASSFILE", pg.pgpass());
    c
}

/// The testing aid that performs N actions on a game (`benches/soak.rs`), with the server's
/// passwords.
fn soak_on(pg: &PgServer) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_umpire-soak"));
    c.env("PGPASSFILE", pg.pgpass());
    c
}

/// The actor a desk signed in as `login` is (the server records who each login is).
pub(crate) fn login_actor(game: &Game) -> Actor {
    let login = game.login().expect("a server game knows its login");
    umpire::megagame::remit::SignedIn::from_login(login)
        .expect("a Control role")
        .actor()
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

pub(crate) fn cli_on(pg: &PgServer, args: &[&str]) -> (bool, String) {
    run_cli(umpire_on(pg).args(args))
}

fn run_cli(command: &mut Command) -> (bool, String) {
    let out = command.output().expect("run umpire");
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
    // The password comes from the password file (PGPASSFILE): the URL has none.
    let url = pg.bare_url("greta", "club-night");
    let fixture_path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scenarios/skirmish.yaml"
    );
    let (ok, out) = cli_on(
        &pg,
        &["game", "new", fixture_path, "--server", &url, "--seed", "5"],
    );
    assert!(ok, "{out}");
    assert!(out.contains("game=club-night"), "{out}");

    let (ok, out) = cli_on(&pg, &["game", "note", &url, "the French arrive late"]);
    assert!(ok, "{out}");
    let (ok, out) = cli_on(&pg, &["game", "status", &url, "--json"]);
    assert!(ok, "{out}");
    let status: serde_json::Value = serde_json::from_str(&out).expect("json status");
    assert_eq!(status["events"], 2);
    let (ok, out) = cli_on(&pg, &["game", "verify", &url]);
    assert!(ok, "{out}");
    assert!(
        out.contains("store integrity ok") && out.contains("verified:"),
        "{out}"
    );

    // The same name twice is refused; nothing is overwritten.
    let (ok, out) = cli_on(&pg, &["game", "new", fixture_path, "--server", &url]);
    assert!(!ok);
    assert!(out.contains("already on this server"), "{out}");

    // Only Game Control creates games.
    let (ok, out) = cli_on(
        &pg,
        &[
            "game",
            "new",
            fixture_path,
            "--server",
            &pg.bare_url("anna", "hers"),
        ],
    );
    assert!(!ok);
    assert!(out.contains("Game Control's"), "{out}");

    // An unknown game names the ones there.
    let (ok, out) = cli_on(
        &pg,
        &["game", "status", &pg.bare_url("greta", "no-such-game")],
    );
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
    let (ok, out) = cli_on(
        &pg,
        &[
            "game",
            "publish",
            &file.to_string_lossy(),
            "--server",
            &pg.bare_url("greta", "published"),
        ],
    );
    assert!(ok, "{out}");
    let shared =
        umpire::server::open_at(&pg.url("greta", "published"), &lib).expect("open published");
    assert_eq!(shared.events(), local.events());
    assert_eq!(shared.state(), local.state());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_server_that_is_not_there_is_named_with_what_to_do() {
    let lib = Library::shipped();
    // Nothing listens on port 1.
    let url = "postgres://umpire@127.0.0.1:1/umpire?game=x&connect_timeout=2";
    let Err(GameError::Store(StoreError::Server { location, message })) =
        umpire::server::open_at(url, &lib)
    else {
        panic!("expected a server error");
    };
    assert!(location.contains("127.0.0.1:1"), "{location}");
    assert!(message.contains("control-server.sh"), "{message}");
}

#[test]
fn four_desks_at_once_end_with_the_same_state_and_no_draw_used_twice() {
    let pg = PgServer::start("desks");
    let lib = Library::shipped();
    drop(
        umpire::server::create_at(&pg.url("greta", "turn-one"), &fixture(), &lib, Some(42))
            .expect("create on server"),
    );

    // Four Game Control desks, each with a login of its own.
    let desks = 4;
    for d in 0..desks {
        pg.add_umpire(&format!("Desk {d}"), "game", None);
    }
    let actions = 25;
    let total = 1 + desks * actions;
    let children: Vec<_> = (0..desks)
        .map(|d| {
            soak_on(&pg)
                .args([
                    &pg.bare_url(&format!("desk_{d}"), "turn-one"),
                    "--actions",
                    &actions.to_string(),
                    "--gentle",
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

    let mut game = umpire::server::open_at(&pg.url("greta", "turn-one"), &lib).expect("open");
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
    let url = pg.url("greta", "live");
    let lib = Library::shipped();
    let mut a = umpire::server::create_at(&url, &fixture(), &lib, Some(1)).expect("desk a");
    let mut b = umpire::server::open_at(&pg.url("anna", "live"), &lib).expect("desk b");
    let (greta, anna) = (login_actor(&a), login_actor(&b));
    let listener = listen(&server_of(&url));
    assert_eq!(
        listener.recv_timeout(Duration::from_secs(10)),
        Some(Signal::Up)
    );
    for i in 0..5 {
        let t0 = Instant::now();
        let seqs = a
            .act(
                &greta,
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
        &anna,
        Action::Note {
            text: "from b".into(),
        },
    )
    .expect("b");
    let seqs = a
        .act(
            &greta,
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
    let url = pg.url("greta", "restart");
    let lib = Library::shipped();
    drop(umpire::server::create_at(&url, &fixture(), &lib, Some(3)).expect("create"));
    let listener = listen(&server_of(&url));
    assert_eq!(
        listener.recv_timeout(Duration::from_secs(10)),
        Some(Signal::Up)
    );
    let child = soak_on(&pg)
        .args([
            &pg.bare_url("greta", "restart"),
            "--actions",
            "400",
            "--gentle",
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
    // The desk rides over the restart: an append whose answer the restart took is sent again
    // and recognised by the server (or retried by the soak after the link came back).
    assert!(out.status.success(), "{text}{errors}");
    let acks: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("ack ").and_then(|n| n.parse().ok()))
        .collect();
    assert_eq!(acks.len(), 400);
    let mut game = umpire::server::open_at(&url, &lib).expect("open");
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

pub(crate) fn examples() -> SourceFile {
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
                seen: umpire::game::Seen::Unchecked,
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
        text.contains("the_mediterranean") && text.contains("The Map"),
        "{text}"
    );
    assert_eq!(game.events().len(), before);

    // Army pay from a state at her own table is her routine work (The Campaign System › Pay,
    // L584): one entry, no note.
    let seqs = game
        .act(
            &anna,
            Action::Adjust {
                counter: "state-austria".into(),
                attribute: "treasury".into(),
                by: -1,
                reason: "pay".into(),
            },
        )
        .expect("pay at her own table");
    assert_eq!(seqs.len(), 1, "no discretion note for routine work");
    let before = game.events().len();

    // Another table's treasury: Political Control's, and that table's Map Control's pay — only
    // with a reason, which the journal keeps.
    let err = game
        .act(
            &anna,
            Action::Adjust {
                counter: "state-france".into(),
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
                counter: "state-france".into(),
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
        text.contains("army pay taken at the East table")
            && text.contains("The Campaign System › Pay"),
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
    pg.add_umpire("Bruno", "map", Some("the_mediterranean"));
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scenarios/rr3_examples.yaml"
    );
    let (ok, out) = cli_on(
        &pg,
        &[
            "game",
            "new",
            fixture,
            "--server",
            &pg.bare_url("greta", "remit"),
        ],
    );
    assert!(ok, "{out}");
    // Bruno is who his login says: no --as needed, and none could make him someone else.
    let bruno = pg.bare_url("bruno", "remit");
    let (ok, out) = cli_on(
        &pg,
        &["game", "set", &bruno, "upper-austria", "in_revolt", "yes"],
    );
    assert!(!ok, "{out}");
    assert!(
        out.contains("Bruno (Map Control, the_mediterranean) may not touch upper-austria"),
        "{out}"
    );
    let (ok, out) = cli_on(
        &pg,
        &[
            "--as",
            "Greta:game",
            "game",
            "set",
            &bruno,
            "upper-austria",
            "in_revolt",
            "yes",
        ],
    );
    assert!(!ok, "{out}");
    assert!(
        out.contains("you are who you log in as") && out.contains("bruno is Bruno"),
        "{out}"
    );
    // --as that agrees with the login is accepted.
    let (ok, out) = cli_on(
        &pg,
        &[
            "--as",
            "Anna:map:the_east",
            "game",
            "set",
            &pg.bare_url("anna", "remit"),
            "upper-austria",
            "in_revolt",
            "yes",
        ],
    );
    assert!(ok, "{out}");
    let lib = Library::shipped();
    let game = umpire::server::open_at(&pg.url("greta", "remit"), &lib).expect("open");
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
    let direct = pg.url("greta", "offline");
    let mut control =
        umpire::server::create_at(&direct, &examples(), &lib, Some(6)).expect("create");
    let greta = SignedIn::parse("Greta:game").expect("game control").actor();

    let dir = std::env::temp_dir().join(format!("umpire-offline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let queue = dir.join("east.queue.json");
    let _ = std::fs::remove_file(&queue);
    let anna = SignedIn::parse("Anna:map:the_east").expect("anna").actor();
    let mut east =
        umpire::server::open_at(&link.url(&pg, "anna", "offline"), &lib).expect("east desk");
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
            seen: umpire::game::Seen::Unchecked,
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
                seen: umpire::game::Seen::Unchecked,
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
        .expect_err("the Sequence of Play is Game Control's");
    assert!(
        err.to_string()
            .contains("may not step the Sequence of Play"),
        "{err}"
    );

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
    let mut east =
        umpire::server::open_at(&link.url(&pg, "anna", "offline"), &lib).expect("reopen");
    east.use_offline_queue(queue.clone()).expect("queue back");
    assert_eq!(east.queued(), 5, "the queue survived the crash");

    let report = east.sync().expect("sync");
    assert_eq!(report.sent, 4, "{report:?}");
    assert_eq!(report.held, 1, "the clashing move is held: {report:?}");
    let clashes = &east.held()[0].clashes;
    assert_eq!(clashes.len(), 1, "{clashes:?}");
    assert!(
        clashes[0].starts_with("bohemia: position — Greta") && clashes[0].contains(", entry "),
        "the clash says who changed it and when: {clashes:?}"
    );
    let said = umpire::game::describe::Words::of(&east).clash(&clashes[0]);
    assert!(
        said.starts_with("Bohemia: where it is — Greta"),
        "the desk says it in the game's words: {said}"
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
    pg.add_umpire("Bruno", "map", Some("the_mediterranean"));
    pg.add_umpire("Carla", "map", Some("the_west"));
    pg.add_umpire("Chiara", "political", None);
    let url = pg.url("greta", "scripted-turn");
    let lib = Library::shipped();
    let start = umpire::server::create_at(&url, &examples(), &lib, Some(8)).expect("create");
    let initial = start.state().clone();
    drop(start);
    // Three Map Control desks, Political Control and Game Control, each at its own work, each
    // with its own login (--as agrees with it: the soak's scripted work follows the role).
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
            let login = who.split(':').next().unwrap_or_default().to_lowercase();
            soak_on(&pg)
                .args([&pg.bare_url(&login, "scripted-turn"), "--as", who])
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
    let game = umpire::server::open_at(&url, &lib).expect("open");
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

/// One journal entry as a forger would write it: the event's exact JSON text and its hash after
/// `previous`, chained correctly.
pub(crate) fn forged(previous: &str, seq: u64, by: &str, kind: EventKind) -> (String, String) {
    let event = umpire::game::Event {
        seq,
        at: chrono::Utc::now(),
        by: Some(by.to_string()),
        cursor: umpire::game::Cursor { turn: 1, step: 0 },
        kind,
    };
    let text = serde_json::to_string(&event).expect("json");
    let hash = umpire::game::journal::link(previous, &text);
    (text, hash)
}

pub(crate) fn moved(counter: &str, to: &str) -> EventKind {
    EventKind::Changed {
        changes: vec![umpire::game::CounterChange::Move {
            counter: counter.into(),
            from: None,
            to: umpire::game::scenario::Position::Area(to.into()),
        }],
        reason: None,
        item: None,
    }
}

/// An append through psql as a desk sends it: put to the server's referee, then written.
pub(crate) const APPEND: &str = "SELECT umpire_propose(:'g', :'seq'::bigint, ARRAY[:'body'], ARRAY[:'hash']) AS proposal \\gset\n\
     SELECT umpire_append(:'g', :'seq'::bigint, ARRAY[:'body'], ARRAY[:'hash']);\n";

#[test]
fn the_server_holds_each_login_to_its_remit_through_the_cli_or_psql() {
    let pg = PgServer::start("enforce");
    let lib = Library::shipped();
    let name = "enforced";
    let mut control = umpire::server::create_at(&pg.url("greta", name), &examples(), &lib, Some(5))
        .expect("create");
    let greta = login_actor(&control);
    control
        .act(
            &greta,
            Action::Note {
                text: "Greta's note".into(),
            },
        )
        .expect("Game Control's note");

    // Through the CLI: Anna's login is Map Control at the East table.
    let anna_url = pg.bare_url("anna", name);
    let (ok, out) = cli_on(&pg, &["game", "move", &anna_url, "monluc-army", "Milan"]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("Anna (Map Control, the_east) may not touch monluc-army")
            && out.contains("the_mediterranean"),
        "{out}"
    );
    let (ok, out) = cli_on(&pg, &["game", "move", &anna_url, "bohemia", "Prague"]);
    assert!(ok, "{out}");

    // Through psql, as the login anna, with entries chained correctly: the server judges them.
    let anna_by = "Anna (Map Control, the_east)";
    let mut anna = umpire::server::open_at(&pg.url("anna", name), &lib).expect("anna's desk");
    let head = anna.head();
    assert_eq!(head.entries, 3);
    let seq = (head.entries + 1).to_string();
    let try_append = |text: &str, hash: &str| {
        pg.psql(
            Some("anna"),
            APPEND,
            &[("g", name), ("seq", &seq), ("body", text), ("hash", hash)],
        )
    };
    let (text, hash) = forged(&head.hash, 4, anna_by, moved("monluc-army", "Milan"));
    let (ok, out) = try_append(&text, &hash);
    assert!(!ok, "another table's army, written with psql: {out}");
    assert!(
        out.contains("may not touch monluc-army") && out.contains("The Map"),
        "{out}"
    );
    // Claiming to be Game Control does not help: the server knows who the login is.
    let (text, hash) = forged(
        &head.hash,
        4,
        "Greta (Game Control)",
        moved("monluc-army", "Milan"),
    );
    let (ok, out) = try_append(&text, &hash);
    assert!(!ok, "{out}");
    assert!(
        out.contains("says it was made by Greta (Game Control)"),
        "{out}"
    );
    // Her own table's area, but a hash that does not chain.
    let (text, _) = forged(&head.hash, 4, anna_by, moved("bohemia", "Olomouc"));
    let (ok, out) = try_append(&text, &"0".repeat(64));
    assert!(!ok, "{out}");
    assert!(out.contains("does not chain"), "{out}");
    // Undoing Game Control's entry is Game Control's.
    let (text, hash) = forged(&head.hash, 4, anna_by, EventKind::Undone { event: 2 });
    let (ok, out) = try_append(&text, &hash);
    assert!(!ok, "{out}");
    assert!(out.contains("may not undo entry 2"), "{out}");
    // A second start.
    let (text, hash) = forged(
        &head.hash,
        4,
        anna_by,
        EventKind::GameStarted {
            ruleset: "rr3".into(),
            scenario: "rr3_examples".into(),
            seed_commitment: String::new(),
            seed: None,
            optional_rules: Vec::new(),
            ruleset_hash: None,
            scenario_hash: None,
        },
    );
    let (ok, out) = try_append(&text, &hash);
    assert!(!ok, "{out}");
    assert!(out.contains("starts the game again"), "{out}");
    // Another table's treasury is at Control's discretion for Map Control: only with the
    // reason's note.
    let pay = EventKind::Changed {
        changes: vec![umpire::game::CounterChange::Adjust {
            counter: "state-france".into(),
            attribute: "treasury".into(),
            by: -1,
        }],
        reason: Some("pay".into()),
        item: None,
    };
    let (text, hash) = forged(&head.hash, 4, anna_by, pay.clone());
    let (ok, out) = try_append(&text, &hash);
    assert!(!ok, "{out}");
    assert!(out.contains("only at Control's discretion"), "{out}");
    let (note, note_hash) = forged(
        &hash,
        5,
        anna_by,
        EventKind::Note {
            text: format!(
                "At Control's discretion, by {anna_by}: army pay [state-france (treasury)]"
            ),
        },
    );
    let (ok, out) = pg.psql(
        Some("anna"),
        "SELECT umpire_propose(:'g', :'seq'::bigint, ARRAY[:'b1', :'b2'], ARRAY[:'h1', :'h2']) AS proposal \\gset\n\
         SELECT umpire_append(:'g', :'seq'::bigint, ARRAY[:'b1', :'b2'], ARRAY[:'h1', :'h2']);\n",
        &[
            ("g", name),
            ("seq", &seq),
            ("b1", &text),
            ("b2", &note),
            ("h1", &hash),
            ("h2", &note_hash),
        ],
    );
    assert!(ok, "with the reason's note, in the same append: {out}");

    // Rows written around the functions: refused, whatever the table.
    for sql in [
        "INSERT INTO umpire_events (game, seq, at, by, kind, body, text, hash, signed_by) VALUES ('enforced', 6, now(), 'x', 'note', '{}', '{}', 'x', 'anna');",
        "UPDATE umpire_events SET text = 'x' WHERE game = 'enforced' AND seq = 2;",
        "DELETE FROM umpire_events WHERE game = 'enforced' AND seq = 2;",
        "TRUNCATE umpire_events;",
        "UPDATE umpire_games SET len = 0;",
        "INSERT INTO umpire_fact_changes VALUES ('enforced', 9, 1, 'monluc-army', 'map_table', '\"the_east\"');",
        "UPDATE umpire_umpires SET role = 'game' WHERE login = 'anna';",
        "SELECT umpire_store('enforced', 6, '{}', 'x', 'x');",
    ] {
        let (ok, out) = pg.psql(Some("anna"), sql, &[]);
        assert!(!ok, "{sql}: {out}");
        assert!(out.contains("permission denied"), "{sql}: {out}");
    }

    // What the server let through is a sound journal.
    anna.refresh().expect("refresh");
    assert_eq!(anna.events().len(), 5);
    let (ok, out) = cli_on(&pg, &["game", "verify", &pg.bare_url("greta", name)]);
    assert!(ok, "{out}");

    // Even the tables' owner, rewriting an entry behind the functions, is caught by verify.
    let (ok, out) = pg.psql(
        None,
        "SET ROLE umpire_owner;\n\
         UPDATE umpire_events SET text = replace(text, 'Greta''s note', 'Greta''s forged note') \
         WHERE game = 'enforced' AND seq = 2;\n",
        &[],
    );
    assert!(ok, "{out}");
    let (ok, out) = cli_on(&pg, &["game", "verify", &pg.bare_url("greta", name)]);
    assert!(!ok, "a rewritten entry passed verify: {out}");
    assert!(out.contains("does not match its hash"), "{out}");
}

#[test]
fn only_a_login_with_its_password_gets_in_and_it_is_no_superuser() {
    let pg = PgServer::start("logins");
    let lib = Library::shipped();
    drop(
        umpire::server::create_at(&pg.url("greta", "g"), &fixture(), &lib, Some(1))
            .expect("create"),
    );

    // No password anywhere: refused, saying where a password goes (and never asking off a
    // terminal).
    let missing = pg.dir().join("no-such-pgpass");
    let (ok, out) = run_cli(
        umpire()
            .env("PGPASSFILE", &missing)
            .stdin(Stdio::null())
            .args(["game", "status", &pg.bare_url("anna", "g")]),
    );
    assert!(!ok, "{out}");
    assert!(
        out.contains("pgpass") || out.contains("PGPASSFILE"),
        "{out}"
    );
    // A wrong password: refused, and not shown.
    let wrong = format!(
        "postgres://anna:not-her-secret@127.0.0.1:{}/umpire?game=g",
        pg.port
    );
    let Err(e) = umpire::server::open_at(&wrong, &lib) else {
        panic!("a wrong password got in");
    };
    let text = e.to_string();
    assert!(text.contains("password authentication failed"), "{text}");
    assert!(!text.contains("not-her-secret"), "password shown: {text}");
    // A password file others may read is not used, as libpq does.
    let loose = pg.dir().join("loose-pgpass");
    std::fs::copy(pg.pgpass(), &loose).expect("copy");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&loose, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    }
    let (ok, out) = run_cli(
        umpire()
            .env("PGPASSFILE", &loose)
            .stdin(Stdio::null())
            .args(["game", "status", &pg.bare_url("anna", "g")]),
    );
    assert!(!ok, "{out}");
    assert!(out.contains("chmod 600"), "{out}");
    // psql with no password, over loopback TCP and over the socket: refused.
    for target in [
        format!("postgres://anna@127.0.0.1:{}/umpire", pg.port),
        format!(
            "postgresql:///umpire?host={}&port={}&user=anna",
            pg.dir().display(),
            pg.port
        ),
    ] {
        let out = crate::common::tool::command("psql")
            .args(["-X", "-w", &target, "-c", "SELECT 1"])
            .env("PGPASSFILE", &missing)
            .env_remove("PGPASSWORD")
            .output()
            .expect("psql");
        assert!(!out.status.success(), "{target}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("no password supplied"),
            "{target}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // A login is no superuser, makes no roles or databases, runs no programs.
    let (ok, out) = pg.psql(
        Some("anna"),
        "SELECT rolsuper, rolcreaterole, rolcreatedb, \
         pg_has_role(current_user, 'pg_execute_server_program', 'MEMBER') \
         FROM pg_roles WHERE rolname = current_user;",
        &[],
    );
    assert!(ok, "{out}");
    assert_eq!(out.trim(), "f|f|f|f");
    for (sql, refusal) in [
        (
            "COPY (SELECT 1) TO PROGRAM 'true';",
            "pg_execute_server_program",
        ),
        ("CREATE ROLE intruder LOGIN SUPERUSER;", "must be superuser"),
        ("CREATE TABLE public.mine (x int);", "permission denied"),
    ] {
        let (ok, out) = pg.psql(Some("anna"), sql, &[]);
        assert!(!ok, "{sql}: {out}");
        assert!(out.contains(refusal), "{sql}: {out}");
    }

    // TLS, and the pinned certificate.
    let fingerprint = pg.script(&["fingerprint"]).trim().to_string();
    assert!(fingerprint.starts_with("sha256:"), "{fingerprint}");
    let url = |extra: &str| format!("{}&{extra}", pg.url("anna", "g"));
    let pinned = umpire::server::open_at(
        &url(&format!("sslmode=require&fingerprint={fingerprint}")),
        &lib,
    )
    .expect("the pinned certificate");
    let (ok, out) = pg.psql(
        None,
        "SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) \
         WHERE usename = 'anna' AND application_name = 'umpire' AND ssl;",
        &[],
    );
    assert!(ok, "{out}");
    assert_ne!(out.trim(), "0", "the desk's link is TLS");
    drop(pinned);
    let other = format!("sha256:{}", vec!["00"; 32].join(":"));
    let Err(e) =
        umpire::server::open_at(&url(&format!("sslmode=require&fingerprint={other}")), &lib)
    else {
        panic!("a certificate that is not the pinned one was taken");
    };
    let text = e.to_string();
    assert!(
        text.contains("not the one pinned") && text.contains(&fingerprint),
        "{text}"
    );
    let Err(e) = umpire::server::open_at(
        &url(&format!("sslmode=disable&fingerprint={fingerprint}")),
        &lib,
    ) else {
        panic!("a pin without TLS");
    };
    assert!(e.to_string().contains("needs TLS"), "{e}");
    // The LAN URL the script prints pins the certificate.
    let lan = pg.script(&[
        "url",
        "--host",
        "192.0.2.1",
        "--user",
        "anna",
        "--game",
        "g",
    ]);
    assert!(
        lan.contains("sslmode=require") && lan.contains(&format!("fingerprint={fingerprint}")),
        "{lan}"
    );
}

/// The server's remit (`umpire_remit` in scripts/control-server.sql) is a port of the desk's
/// (`People::remit_check`): both must give the same answer, rule and reason for every role (Map
/// Control at each table and at none), every counter and every attribute, before and after the
/// facts they read (a counter's table, a ledger's state) change.
#[test]
fn the_servers_remit_agrees_with_the_desks_on_every_role_counter_and_attribute() {
    use umpire::game::scenario::ControlRole;
    use umpire::megagame::people::{People, Remit};
    let pg = PgServer::start("remit-agree");
    let lib = Library::shipped();
    let name = "agree";
    let mut game = umpire::server::create_at(&pg.url("greta", name), &examples(), &lib, Some(7))
        .expect("create");
    let compare = |game: &Game| -> usize {
        let people = People::of(game);
        let tables: Vec<Option<String>> = std::iter::once(None)
            .chain(
                game.scenario()
                    .megagame
                    .as_ref()
                    .expect("a megagame")
                    .tables
                    .iter()
                    .map(|t| Some(t.id.clone())),
            )
            .collect();
        let counters: Vec<String> = game
            .state()
            .counters
            .keys()
            .cloned()
            .chain(["no-such-counter".to_string()])
            .collect();
        let mut attributes: BTreeSet<Option<String>> = game
            .state()
            .counters
            .values()
            .flat_map(|c| c.attributes.keys().cloned())
            .map(Some)
            .collect();
        attributes.insert(None);
        // Every attribute the ruleset declares, so every group of its `remits:` is asked.
        let ruleset = game.ruleset();
        for a in ruleset.units.iter().chain(&ruleset.leaders) {
            attributes.insert(Some(a.name.clone()));
        }
        // A counter's part in a resolution: of a procedure a role resolves, and of another.
        let procedures = [None, Some("religious_debate"), Some("battle")];
        let mut cases = Vec::new();
        for role in ControlRole::ALL {
            for table in &tables {
                if table.is_some() && role != ControlRole::Map {
                    continue;
                }
                for c in &counters {
                    for a in &attributes {
                        for p in procedures {
                            if p.is_some() && a.is_some() {
                                continue;
                            }
                            cases.push((role, table.clone(), c.clone(), a.clone(), p));
                        }
                    }
                }
            }
        }
        let literal = |v: Option<&str>| match v {
            Some(t) => format!("'{}'", t.replace('\'', "''")),
            None => "NULL::text".into(),
        };
        let values: Vec<String> = cases
            .iter()
            .enumerate()
            .map(|(i, (r, t, c, a, p))| {
                format!(
                    "({i}, '{}', {}, {}, {}, {})",
                    r.id(),
                    literal(t.as_deref()),
                    literal(Some(c)),
                    literal(a.as_deref()),
                    literal(*p)
                )
            })
            .collect();
        let sql = format!(
            "SELECT v.i, x.remit, x.rule, x.why FROM (VALUES {}) AS v(i, r, tbl, c, a, p), \
             LATERAL umpire_remit('{name}', v.r, v.tbl, v.c, v.a, v.p) AS x ORDER BY v.i;\n",
            values.join(", ")
        );
        let (ok, out) = pg.psql(None, &sql, &[]);
        assert!(ok, "{}", out.lines().take(5).collect::<Vec<_>>().join("\n"));
        let rows: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(rows.len(), cases.len(), "one answer a case");
        for (row, (role, table, counter, attribute, procedure)) in rows.iter().zip(&cases) {
            let mut cols = row.splitn(4, '|');
            let (_, remit, rule, why) = (
                cols.next(),
                cols.next().expect("remit"),
                cols.next().expect("rule"),
                cols.next().expect("why"),
            );
            let desk = people.remit_check_for(
                *role,
                table.as_deref(),
                counter,
                attribute.as_deref(),
                *procedure,
            );
            let desk_remit = match desk.remit {
                Remit::Own => "own",
                Remit::ControlDiscretion => "discretion",
                Remit::Outside => "outside",
            };
            assert_eq!(
                (remit, rule, why),
                (desk_remit, desk.rule.as_str(), desk.why.as_str()),
                "{} at {table:?} on {counter}.{attribute:?} resolving {procedure:?}",
                role.label()
            );
        }
        cases.len()
    };
    let before = compare(&game);
    assert!(before > 1000, "{before} cases");
    // The facts the remit reads change: an army moves to another table, a state's ledger moves.
    let greta = login_actor(&game);
    let army = game
        .state()
        .counters
        .iter()
        .find(|(_, c)| c.attributes.contains_key("map_table"))
        .map(|(id, _)| id.clone())
        .expect("an army at a table");
    game.act(
        &greta,
        Action::SetAttribute {
            counter: army.into(),
            attribute: "map_table".into(),
            value: "the_mediterranean".into(),
            seen: umpire::game::Seen::Unchecked,
        },
    )
    .expect("Game Control moves an army to another table");
    assert_eq!(compare(&game), before);
    // Adding a counter: the server and the desk agree for every role and table on each kind of
    // new counter (an army at a table by its map_table, by its state's table, at no known
    // table; an area; a character; a state's ledger; a marker).
    let adds = [
        (
            "new-east-army",
            "unit",
            r#"{"unit_kind":"army","map_table":"the_east"}"#,
            None,
        ),
        (
            "new-austrian-army",
            "unit",
            r#"{"unit_kind":"army","country":"austria"}"#,
            None,
        ),
        (
            "new-french-army",
            "unit",
            r#"{"unit_kind":"army"}"#,
            Some("france"),
        ),
        ("new-army", "unit", r#"{"unit_kind":"army"}"#, None),
        (
            "new-area",
            "unit",
            r#"{"unit_kind":"area","owner":"bosrovia"}"#,
            None,
        ),
        (
            "new-character",
            "leader",
            r#"{"map_table":"the_east"}"#,
            None,
        ),
        ("new-ledger", "state", "{}", None),
        ("new-marker", "marker", r#"{"map_table":"the_west"}"#, None),
    ];
    let mut add_cases = 0;
    for (id, kind, attributes, army) in adds {
        let change: serde_json::Value = serde_json::json!({
            "change": "add", "counter": id, "name": id, "side": "habsburgs", "kind": kind,
            "attributes": serde_json::from_str::<serde_json::Value>(attributes).expect("json"),
            "at": {"off_map": "new"}, "army": army,
        });
        let typed: umpire::game::CounterChange =
            serde_json::from_value(change.clone()).expect("an add change");
        let kinds = [EventKind::Changed {
            changes: vec![typed],
            reason: None,
            item: None,
        }];
        let after = umpire::megagame::remit::with_added(game.state(), &kinds).expect("added");
        let people = People::new(game.scenario(), &after);
        for role in ControlRole::ALL {
            for table in [
                None,
                Some("the_east"),
                Some("the_west"),
                Some("the_mediterranean"),
            ] {
                if table.is_some() && role != ControlRole::Map {
                    continue;
                }
                let sql = format!(
                    "SELECT x.remit, x.rule, x.why FROM umpire_add_remit('{name}', '{}', {}, '{}'::jsonb) AS x;\n",
                    role.id(),
                    table.map_or("NULL::text".to_string(), |t| format!("'{t}'")),
                    change.to_string().replace('\'', "''"),
                );
                let (ok, out) = pg.psql(None, &sql, &[]);
                assert!(ok, "{out}");
                let row = out.lines().find(|l| !l.is_empty()).expect("a row");
                let desk = people.add_remit_check(role, table, id);
                let desk_remit = match desk.remit {
                    Remit::Own => "own",
                    Remit::ControlDiscretion => "discretion",
                    Remit::Outside => "outside",
                };
                assert_eq!(
                    row,
                    format!("{desk_remit}|{}|{}", desk.rule, desk.why),
                    "{} at {table:?} adding {id}",
                    role.label()
                );
                add_cases += 1;
            }
        }
    }
    assert!(add_cases >= 8 * 9, "{add_cases} add cases");
    // Game Control adds one through the server; the server keeps its facts, and both remits
    // still agree on every counter, the new one included.
    game.act(
        &greta,
        Action::AddCounter {
            name: "A new Austrian army".into(),
            side: "habsburgs".into(),
            kind: umpire::game::scenario::CounterKind::Unit,
            at: umpire::game::scenario::Position::Area("Upper Austria".into()),
            attributes: vec![
                ("unit_kind".into(), "army".into()),
                ("map_table".into(), "the_east".into()),
            ],
            force: None,
            note: Some("raised by the organiser".into()),
        },
    )
    .expect("Game Control adds a counter anywhere");
    assert!(compare(&game) > before, "the new counter is compared too");
    // A Map Control adds a counter at its own table, not at another's.
    let mut anna = umpire::server::open_at(&pg.url("anna", name), &lib).expect("anna's desk");
    let anna_actor = login_actor(&anna);
    let add = |name: &str, table: &str| Action::AddCounter {
        name: name.into(),
        side: "habsburgs".into(),
        kind: umpire::game::scenario::CounterKind::Unit,
        at: umpire::game::scenario::Position::Area("Upper Austria".into()),
        attributes: vec![
            ("unit_kind".into(), "army".into()),
            ("map_table".into(), table.into()),
        ],
        force: None,
        note: None,
    };
    anna.act(&anna_actor, add("Anna's levy", "the_east"))
        .expect("her own table");
    let err = anna
        .act(&anna_actor, add("Anna's far levy", "the_mediterranean"))
        .expect_err("another table");
    assert!(err.to_string().contains("the_mediterranean"), "{err}");
    game.refresh().expect("refresh");
    assert!(compare(&game) > before);
}

/// The players' view beside a shared game (issue 17): served from one login while another desk
/// writes, each entry reaches the open pages within a second.
#[test]
fn the_players_view_follows_a_shared_game_written_by_another_desk() {
    use std::io::{BufRead, BufReader, Read, Write};
    let pg = PgServer::start("serve");
    let url = pg.url("greta", "served");
    let lib = Library::shipped();
    let mut desk = umpire::server::create_at(&url, &fixture(), &lib, Some(1)).expect("desk");
    let greta = login_actor(&desk);
    let server = umpire::serve::Server::start(
        &pg.url("anna", "served"),
        lib,
        &umpire::serve::ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections: 8,
        },
    )
    .expect("serves the shared game");
    let red = server
        .links
        .iter()
        .find(|l| l.audience == umpire::serve::Audience::Side("red".into()))
        .expect("red's link")
        .token
        .clone();
    let mut stream = std::net::TcpStream::connect(server.addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .expect("timeout");
    write!(stream, "GET /s/{red}/events HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
    let mut events = BufReader::new(stream);
    let mut line = String::new();
    events.read_line(&mut line).expect("status");
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    for to in ["3,3", "4,4"] {
        let t0 = Instant::now();
        let (x, y) = to.split_once(',').expect("x,y");
        let seq = desk
            .act(
                &greta,
                Action::Move {
                    counter: "red-horse".into(),
                    to: umpire::game::scenario::Position::Free {
                        x: x.parse().expect("x"),
                        y: y.parse().expect("y"),
                    },
                },
            )
            .expect("moved")[0];
        let mut seen = false;
        while t0.elapsed() < Duration::from_secs(2) {
            line.clear();
            if events.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            if line.starts_with("event: changes") {
                seen = true;
                break;
            }
        }
        assert!(seen, "no changes for entry {seq}");
        assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
        let mut page = std::net::TcpStream::connect(server.addr).expect("connect");
        write!(
            page,
            "GET /s/{red}/main HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .expect("send");
        let mut text = String::new();
        page.read_to_string(&mut text).expect("read");
        assert!(
            text.contains(&format!("id=\"e{seq}\"")),
            "red sees its own move"
        );
    }
    server.stop();
}

/// `add-umpire --pgpass` with a password file it cannot write creates nothing and says so: the
/// login made and the password lost was the old way (issue 24).
#[test]
fn add_umpire_with_an_unwritable_password_file_creates_nothing() {
    let pg = PgServer::start("pgpass");
    let nowhere = pg.dir().join("no-such-folder").join("pgpass");
    let (ok, said) = pg.try_script(&["add-umpire", "Walter", "game", "--pgpass"], &nowhere);
    assert!(!ok, "refused: {said}");
    assert!(
        said.contains("cannot write the password") && said.contains("nothing created"),
        "{said}"
    );
    let listed = pg.script(&["list-umpires"]);
    assert!(!listed.contains("walter"), "no login made:\n{listed}");
    let (exists, out) = pg.psql(
        None,
        "SELECT count(*) FROM pg_roles WHERE rolname = 'walter'",
        &[],
    );
    assert!(exists && out.contains('0'), "no role either: {out}");
    // A file that takes the test but not the line (a full disk: /dev/full): the login made
    // is removed again, and said so.
    let (ok, said) = pg.try_script(
        &["add-umpire", "Walter", "game", "--pgpass"],
        std::path::Path::new("/dev/full"),
    );
    assert!(!ok, "refused: {said}");
    assert!(said.contains("was removed again"), "{said}");
    let (_, out) = pg.psql(
        None,
        "SELECT count(*) FROM pg_roles WHERE rolname = 'walter'",
        &[],
    );
    assert!(out.contains('0'), "the role went again: {out}");
    assert!(!pg.script(&["list-umpires"]).contains("walter"));
    // The same with a file it can write works.
    pg.add_umpire("Walter", "game", None);
    assert!(pg.script(&["list-umpires"]).contains("walter"));
}

/// Deltas commute, a floor does not: a payment made offline that another desk's spending has
/// left no room for is held for the umpire when the link returns, saying why, rather than
/// taking the treasury below 0 (issue 24).
#[test]
fn an_offline_payment_past_the_floor_is_held_not_sent() {
    use umpire::megagame::remit::SignedIn;
    let pg = PgServer::start("floor");
    let link = common::pg::Link::new(pg.port);
    let lib = Library::shipped();
    let direct = pg.url("greta", "floor");
    let mut control =
        umpire::server::create_at(&direct, &examples(), &lib, Some(6)).expect("create");
    let greta = SignedIn::parse("Greta:game").expect("game control").actor();
    control
        .act(
            &greta,
            Action::SetAttribute {
                counter: "state-austria".into(),
                attribute: "treasury".into(),
                value: "10".into(),
                seen: umpire::game::Seen::Unchecked,
            },
        )
        .expect("treasury 10");
    let dir = std::env::temp_dir().join(format!("umpire-offline-floor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let queue = dir.join("desk.queue.json");
    let _ = std::fs::remove_file(&queue);
    let mut desk =
        umpire::server::open_at(&link.url(&pg, "greta", "floor"), &lib).expect("second desk");
    desk.use_offline_queue(queue.clone()).expect("queue");
    let pay = |by: i64| Action::Adjust {
        counter: "state-austria".into(),
        attribute: "treasury".into(),
        by,
        reason: "army pay".into(),
    };
    link.cut();
    desk.act(&greta, pay(-8)).expect("8 of 10, offline");
    assert_eq!(desk.queued(), 1);
    // Meanwhile the connected desk pays 8 too: 2 left.
    control.act(&greta, pay(-8)).expect("8 of 10, online");
    link.restore();
    let report = desk.sync().expect("sync");
    assert_eq!((report.sent, report.held), (0, 1), "{report:?}");
    let held = desk.held();
    assert!(
        held[0].clashes.iter().any(|c| c.contains("0 or more")),
        "{:?}",
        held[0].clashes
    );
    control.refresh().expect("refresh");
    assert_eq!(
        control.state().counters["state-austria"]
            .attributes
            .get("treasury"),
        Some(&umpire::rules::Value::Int(2)),
        "the treasury stays at 2"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn handbook() -> SourceFile {
    common::pg::source("scenarios/rr3/handbook_1524.yaml")
}

#[test]
fn the_clock_steps_the_game_on_the_server_once_and_only_game_control_works_it() {
    use umpire::game::event::ClockAction;
    use umpire::megagame::clock::{act_clock, phase_cursor, tick};
    let pg = PgServer::start("clock");
    let lib = Library::shipped();
    let name = "day";
    let mut control = umpire::server::create_at(&pg.url("greta", name), &handbook(), &lib, Some(3))
        .expect("create");
    let greta = login_actor(&control);
    let mut anna = umpire::server::open_at(&pg.url("anna", name), &lib).expect("anna's desk");
    let anna_actor = login_actor(&anna);

    // Only Game Control works the clock: the desk's gate says so, and so does the server.
    let start = ClockAction::Start {
        turn: 1,
        phase: "phase_1".into(),
    };
    let e = act_clock(&mut anna, &anna_actor, start.clone()).unwrap_err();
    assert!(
        e.to_string().contains(
            "Anna (Map Control, the_east) may not work the phase clock: only Game Control"
        ),
        "{e}"
    );
    let head = anna.head();
    let (text, hash) = forged(
        &head.hash,
        head.entries + 1,
        "Anna (Map Control, the_east)",
        EventKind::Clock {
            action: start.clone(),
        },
    );
    let seq = (head.entries + 1).to_string();
    let (ok, out) = pg.psql(
        Some("anna"),
        APPEND,
        &[("g", name), ("seq", &seq), ("body", &text), ("hash", &hash)],
    );
    assert!(!ok && out.contains("may not work the phase clock"), "{out}");

    // Control's records are kept by the roles the ruleset names: Prestige is Political
    // Control's, so the server refuses it from a Map Control's login too.
    let (text, hash) = forged(
        &head.hash,
        head.entries + 1,
        "Anna (Map Control, the_east)",
        EventKind::Record {
            fact: umpire::game::records::RecordFact::Chart {
                chart: "prestige".into(),
                ranking: vec!["france".into()],
                reason: "a forged order".into(),
            },
        },
    );
    let (ok, out) = pg.psql(
        Some("anna"),
        APPEND,
        &[("g", name), ("seq", &seq), ("body", &text), ("hash", &hash)],
    );
    assert!(
        !ok && out.contains("may not touch the chart record: it is kept by Political Control"),
        "{out}"
    );

    // Game Control starts it: the Sequence of Play goes to Phase 1 at once, a step the server
    // accepts as the clock's.
    act_clock(&mut control, &greta, start).expect("Game Control starts the clock");
    let phase_1 = phase_cursor(control.ruleset(), 1, 0).expect("phase 1");
    assert_eq!(control.state().cursor, phase_1);
    let stepped = control.events().last().expect("an entry");
    assert_eq!(stepped.by.as_deref(), Some("clock (Greta (Game Control))"));

    // The phase runs out; both desks tick: the game steps once.
    act_clock(
        &mut control,
        &greta,
        ClockAction::SetRemaining { seconds: 1 },
    )
    .expect("set");
    std::thread::sleep(Duration::from_millis(1300));
    anna.refresh().expect("anna catches up");
    let before = anna.head().entries;
    let written = tick(&mut anna, &anna_actor, chrono::Utc::now()).expect("anna's desk ticks");
    assert_eq!(written.len(), 1, "one clock step");
    let phase_2 = phase_cursor(control.ruleset(), 1, 1).expect("phase 2");
    assert_eq!(anna.state().cursor, phase_2);
    assert_eq!(
        anna.events().last().and_then(|e| e.by.clone()).as_deref(),
        Some("clock (Anna (Map Control, the_east))")
    );
    let again = tick(&mut control, &greta, chrono::Utc::now()).expect("greta's desk ticks");
    assert!(again.is_empty(), "the clock steps once: {again:?}");
    control.refresh().expect("greta catches up");
    assert_eq!(control.head(), anna.head());
    assert_eq!(anna.head().entries, before + 1);

    // A step "by clock" that the clock has not made is refused: Turn 3 while it is Turn 1.
    let head = anna.head();
    let (text, hash) = forged(
        &head.hash,
        head.entries + 1,
        "clock (Anna (Map Control, the_east))",
        EventKind::Stepped {
            from: phase_2.clone(),
            to: phase_cursor(control.ruleset(), 3, 0).expect("turn 3"),
        },
    );
    let seq = (head.entries + 1).to_string();
    let (ok, out) = pg.psql(
        Some("anna"),
        APPEND,
        &[("g", name), ("seq", &seq), ("body", &text), ("hash", &hash)],
    );
    assert!(!ok, "{out}");
    assert!(
        out.contains("is not the clock's step") && out.contains("has not reached Turn 3, Phase 1"),
        "{out}"
    );

    // Game Control advances: the next phase, on every desk.
    act_clock(&mut control, &greta, ClockAction::Advance).expect("advance");
    anna.refresh().expect("anna catches up");
    assert_eq!(
        anna.state().cursor,
        phase_cursor(control.ruleset(), 1, 2).expect("phase 3")
    );
    assert_eq!(anna.integrity_check().expect("check"), "ok");
}
