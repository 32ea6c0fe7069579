//! The desk on a shared game (a real PostgreSQL server started by the test): signed in as its
//! server login, another desk's event shown live, the link's loss shown at once and the desk's
//! own work kept and sent.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use common::pg::{Link, PgServer};
use umpire::app::{
    DeskApp, GameDesk, LINK_LOST_TEXT, LIVE_TEXT, ProcedureDesk, SIGN_IN_NAME_LABEL,
};
use umpire::game::scenario::Position;
use umpire::game::{Action, EventKind};
use umpire::megagame::remit::SignedIn;
use umpire::rules::{Library, SourceFile};

fn examples() -> SourceFile {
    common::pg::source("tests/fixtures/scenarios/rr3_examples.yaml")
}

fn desk_at(url: &str) -> Harness<'static, DeskApp> {
    let game = GameDesk::open(Path::new(url), &Library::shipped()).expect("open shared game");
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), game)
        })
}

/// Runs frames until `until` holds (the listener works on its own thread), at most `limit`.
fn run_until(
    harness: &mut Harness<'static, DeskApp>,
    limit: Duration,
    until: impl Fn(&Harness<'static, DeskApp>) -> bool,
) -> Duration {
    let t0 = Instant::now();
    while t0.elapsed() < limit {
        harness.run();
        if until(harness) {
            return t0.elapsed();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("not within {limit:?}");
}

fn shows(harness: &Harness<'static, DeskApp>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

/// Where the desk keeps the offline queue of the game at `url`.
fn queue_of(url: &str) -> std::path::PathBuf {
    let shown = match umpire::game::Location::parse(url).expect("url") {
        umpire::game::Location::Server(s) => s.display(),
        umpire::game::Location::File(_) => unreachable!("a server URL"),
    };
    umpire::app::games_dir()
        .join("offline")
        .join(umpire::app::queue_file_name(&shown))
}

fn game_name(tag: &str) -> String {
    format!("desk-{tag}-{}", std::process::id())
}

#[test]
fn the_desk_is_signed_in_as_its_login_and_shows_another_desks_event_live() {
    let pg = PgServer::start("desk-live");
    let name = game_name("live");
    let lib = Library::shipped();
    let mut other = umpire::server::create_at(&pg.url("greta", &name), &examples(), &lib, Some(2))
        .expect("create");
    let greta = SignedIn::parse("Greta:game").expect("greta").actor();
    let url = pg.url("anna", &name);
    let mut harness = desk_at(&url);
    harness.run();
    assert!(shows(&harness, LIVE_TEXT), "the link's state is shown");

    // The server says who the login is: nobody picks a name or a role.
    assert!(
        shows(
            &harness,
            "Signed in as Anna (Map Control, the_east) (from the server login)"
        ),
        "the sign-in window shows the login's umpire"
    );
    assert!(
        harness
            .query_all_by_label_contains(SIGN_IN_NAME_LABEL)
            .next()
            .is_none(),
        "no name to type on a server that knows its umpires"
    );
    // Signing in as someone else is refused.
    let err = harness
        .state_mut()
        .game
        .as_mut()
        .expect("game")
        .sign_in(SignedIn::parse("Greta:game").expect("greta"))
        .expect_err("not who the login is");
    assert!(
        err.contains("anna is Anna (Map Control, the_east)"),
        "{err}"
    );
    let who = harness
        .state()
        .game
        .as_ref()
        .and_then(|g| g.live.signed_in().cloned())
        .expect("signed in");
    assert_eq!(who.name, "Anna");
    assert_eq!(who.table.as_deref(), Some("the_east"));

    // Another desk writes: this desk shows it within a second, with no input.
    other
        .act(
            &greta,
            Action::Note {
                text: "Bohemia rises".into(),
            },
        )
        .expect("other desk");
    let took = run_until(&mut harness, Duration::from_secs(3), |h| {
        h.state()
            .game
            .as_ref()
            .is_some_and(|g| g.game().events().len() == 2)
    });
    assert!(took < Duration::from_secs(1), "took {took:?}");

    // Her own action is recorded on the server with her name.
    assert!(
        harness
            .state_mut()
            .game
            .as_mut()
            .expect("game")
            .act(Action::SetAttribute {
                counter: "upper-austria".into(),
                attribute: "in_revolt".into(),
                value: "yes".into(),
                seen: umpire::game::Seen::Unchecked,
            })
    );
    other.refresh().expect("refresh");
    assert_eq!(
        other.events().last().and_then(|e| e.by.clone()).as_deref(),
        Some("Anna (Map Control, the_east)")
    );
    let _ = std::fs::remove_file(queue_of(&url));
}

#[test]
fn the_desk_says_at_once_when_the_link_drops_and_sends_its_work_when_it_returns() {
    let pg = PgServer::start("desk-link");
    let link = Link::new(pg.port);
    let name = game_name("link");
    let lib = Library::shipped();
    let mut control =
        umpire::server::create_at(&pg.url("greta", &name), &examples(), &lib, Some(3))
            .expect("create");
    let mut harness = desk_at(&link.url(&pg, "anna", &name));
    harness.run();
    harness
        .state_mut()
        .game
        .as_mut()
        .expect("game")
        .sign_in(SignedIn::parse("Anna:map:the_east").expect("anna"))
        .expect("who the login is");

    link.cut();
    let took = run_until(&mut harness, Duration::from_secs(5), |h| {
        shows(h, LINK_LOST_TEXT)
    });
    assert!(took < Duration::from_secs(3), "took {took:?}");

    // Her own table's area, while the link is down: recorded at once, queued.
    let t0 = Instant::now();
    assert!(
        harness
            .state_mut()
            .game
            .as_mut()
            .expect("game")
            .act(Action::Move {
                counter: "bohemia".into(),
                to: Position::Area("Prague".into()),
            })
    );
    assert!(
        t0.elapsed() < Duration::from_millis(500),
        "no wait on the dead link"
    );
    harness.run();
    assert!(shows(&harness, "1 action(s) queued"));

    link.restore();
    run_until(&mut harness, Duration::from_secs(10), |h| {
        shows(h, LIVE_TEXT)
    });
    control.refresh().expect("refresh");
    let moved = control
        .events()
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Changed { .. }))
        .count();
    assert_eq!(moved, 1, "the offline move reached the server once");
    assert_eq!(
        control.state().counters["bohemia"].position,
        Position::Area("Prague".into())
    );
    let queue = queue_of(&link.url(&pg, "anna", &name));
    assert!(
        queue.is_file(),
        "the desk kept its queue at {}",
        queue.display()
    );
    let _ = std::fs::remove_file(queue);
}
