//! Shared games on PostgreSQL (issue 8): desk-to-desk propagation (median, p99) on loopback,
//! sustained events per second with 6 desks, and opening a 10,000-event shared game.
//! Starts a private server with scripts/control-server.sh (Debian's postgresql package).
//!
//! `cargo bench --bench shared` (figures in BENCHMARKS.md). Not criterion: the propagation
//! figure is a latency distribution (median and p99 over many events), which criterion's
//! per-iteration statistics do not report.

// The tests' list of system tools, which pg.rs asks for psql (as `super::tool`).
#[path = "../tests/it/common/pg.rs"]
#[allow(
    dead_code,
    reason = "the tests' server helpers: the benchmark uses some"
)]
mod pg;
#[path = "../tests/it/common/tool.rs"]
mod tool;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use umpire::game::{Action, Actor, Game, Location};
use umpire::megagame::remit::SignedIn;
use umpire::rules::{Library, SourceFile};
use umpire::server::{Signal, listen};

fn fixture() -> SourceFile {
    pg::source("tests/fixtures/scenarios/skirmish.yaml")
}

/// The actor a desk signed in with a server login is.
fn login_actor(game: &Game) -> Actor {
    SignedIn::from_login(game.login().expect("login"))
        .expect("a Control role")
        .actor()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    // `cargo test --benches` runs benches with --bench absent: keep that quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let server = pg::PgServer::start("bench");
    let lib = Library::shipped();

    // 1. Propagation: desk A records a note; desk B's listener hears of it and B takes it in.
    let url = server.url("greta", "propagation");
    let mut a = umpire::server::create_at(&url, &fixture(), &lib, Some(1)).expect("desk a");
    let mut b = umpire::server::open_at(&server.url("anna", "propagation"), &lib).expect("desk b");
    let greta = login_actor(&a);
    let Location::Server(address) = Location::parse(&url).expect("url") else {
        unreachable!()
    };
    let listener = listen(&address);
    assert_eq!(
        listener.recv_timeout(Duration::from_secs(10)),
        Some(Signal::Up)
    );
    let samples = if quick { 20 } else { 500 };
    let mut lat = Vec::with_capacity(samples);
    for i in 0..samples {
        let t0 = Instant::now();
        let seq = a
            .act(
                &greta,
                Action::Note {
                    text: format!("n{i}"),
                },
            )
            .expect("note")[0];
        loop {
            match listener.recv_timeout(Duration::from_secs(5)) {
                Some(Signal::Moved(n)) if n >= seq => break,
                Some(_) => {}
                None => panic!("no notification"),
            }
        }
        b.refresh().expect("refresh");
        lat.push(t0.elapsed());
    }
    lat.sort();
    println!(
        "propagation desk to desk ({samples} events, commit + NOTIFY + fetch): median {:.2} ms, p99 {:.2} ms",
        percentile(&lat, 0.5).as_secs_f64() * 1e3,
        percentile(&lat, 0.99).as_secs_f64() * 1e3
    );

    // 2. Sustained: 6 desks recording as fast as they can for a while.
    let url = server.url("greta", "sustained");
    drop(umpire::server::create_at(&url, &fixture(), &lib, Some(2)).expect("create"));
    let run_for = if quick {
        Duration::from_secs(1)
    } else {
        Duration::from_secs(10)
    };
    let stop = Arc::new(AtomicBool::new(false));
    let desks: Vec<_> = (0..6)
        .map(|d| {
            let url = url.clone();
            let lib = lib.clone();
            let stop = Arc::clone(&stop);
            thread::spawn(move || {
                let mut game = umpire::server::open_at(&url, &lib).expect("desk");
                let desk = login_actor(&game);
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    game.act(
                        &desk,
                        Action::Note {
                            text: format!("{d}:{n}"),
                        },
                    )
                    .expect("note");
                    n += 1;
                }
                n
            })
        })
        .collect();
    let t0 = Instant::now();
    thread::sleep(run_for);
    stop.store(true, Ordering::Relaxed);
    let total: u64 = desks.into_iter().map(|h| h.join().expect("desk")).sum();
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "sustained, 6 desks: {total} events in {secs:.1} s = {:.0} events/s",
        total as f64 / secs
    );

    // 3. Opening a 10,000-event shared game.
    let url = server.url("greta", "big");
    let n = if quick { 500 } else { 10_000 };
    {
        let dir = std::env::temp_dir().join(format!("umpire-bench-shared-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("big.umpire");
        let _ = std::fs::remove_file(&file);
        let mut g = Game::create(&file, &fixture(), &lib, Some(3)).expect("file");
        for i in 1..n {
            g.act(
                &Actor::umpire(),
                Action::Note {
                    text: format!("entry {i}"),
                },
            )
            .expect("note");
        }
        umpire::server::publish(&mut g, &url).expect("publish");
        let _ = std::fs::remove_dir_all(&dir);
    }
    let runs = if quick { 2 } else { 10 };
    let mut times = Vec::new();
    for _ in 0..runs {
        let t0 = Instant::now();
        let g = umpire::server::open_at(&url, &lib).expect("open");
        times.push(t0.elapsed());
        assert_eq!(g.events().len() as u64, n);
    }
    times.sort();
    println!(
        "open a {n}-event shared game (connect, fetch, replay): median {:.1} ms over {runs} runs",
        percentile(&times, 0.5).as_secs_f64() * 1e3
    );
}
