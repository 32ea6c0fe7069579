//! The players' view under load: 64 simulated phones follow a game of "Venice at bay, 1509" —
//! each holding an event stream open and, at every update, fetching the page part again as the
//! page's script does — while the desk commits 10 actions a second for 20 seconds. Measured:
//! from each commit to the moment each phone has the entry on its page (every phone, every
//! entry), and the desk's frame time (its game view built and tessellated, 1920×1200) with and
//! without the server running beside it. Target: every phone sees every entry within 1 s; the
//! frame time unchanged within noise.
//!
//! `cargo bench --bench players_view` prints the figures (BENCHMARKS.md has them).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use eframe::egui;
use umpire::app::{GameDesk, ProcedureDesk, Screen, Shell, set_up_look};
use umpire::game::Action;
use umpire::game::scenario::{Position, shipped_scenarios};
use umpire::rules::Library;
use umpire::serve::{Audience, ServeOptions, Server};

const PHONES: usize = 64;
const ACTIONS_PER_SECOND: u64 = 10;
const SECONDS: u64 = 20;

/// The highest entry on a page part: its `id="eN"`s.
fn entries_on(page: &str) -> Vec<u64> {
    page.split("id=\"e")
        .skip(1)
        .filter_map(|rest| rest.split('"').next()?.parse().ok())
        .collect()
}

fn fetch_main(addr: SocketAddr, token: &str) -> Option<String> {
    let mut s = TcpStream::connect(addr).ok()?;
    write!(
        s,
        "GET /s/{token}/main HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    Some(text)
}

/// One phone: follows the stream until `stop`, noting when each entry first shows.
fn phone(addr: SocketAddr, token: String, stop: Arc<AtomicBool>) -> HashMap<u64, Instant> {
    let mut seen = HashMap::new();
    let Ok(mut s) = TcpStream::connect(addr) else {
        return seen;
    };
    let _ = s.set_read_timeout(Some(Duration::from_millis(500)));
    let _ = write!(s, "GET /s/{token}/events HTTP/1.1\r\nHost: x\r\n\r\n");
    let mut reader = BufReader::new(s);
    let mut line = String::new();
    while !stop.load(Ordering::Relaxed) {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) if line.starts_with("event: update") => {
                if let Some(page) = fetch_main(addr, &token) {
                    let now = Instant::now();
                    for seq in entries_on(&page) {
                        seen.entry(seq).or_insert(now);
                    }
                }
            }
            _ => {}
        }
    }
    seen
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The desk at work: its game view built and tessellated frame after frame, an action every
/// 100 ms.
struct DeskAtWork {
    desk: ProcedureDesk,
    shell: Shell,
    ctx: egui::Context,
}

impl DeskAtWork {
    fn new(library: &Library) -> DeskAtWork {
        let desk = ProcedureDesk::with_seed(library.clone(), 1);
        let mut shell = Shell::new(None);
        shell.screen = Screen::Game;
        let ctx = egui::Context::default();
        set_up_look(&ctx);
        DeskAtWork { desk, shell, ctx }
    }

    /// Frames back to back for `seconds`, an action every 100 ms: the commits (entry, when)
    /// and the frame times (ms).
    fn work(
        &mut self,
        game: &mut Option<GameDesk>,
        seconds: u64,
    ) -> (Vec<(u64, Instant)>, Vec<f64>) {
        let input = || egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1920.0, 1200.0),
            )),
            ..Default::default()
        };
        let mut commits = Vec::new();
        let mut frames = Vec::new();
        let start = Instant::now();
        let mut next = start;
        let mut k = 0u64;
        while start.elapsed() < Duration::from_secs(seconds) {
            if Instant::now() >= next {
                let g = game.as_mut().expect("game");
                let to = if k.is_multiple_of(2) { "2833" } else { "2832" };
                assert!(g.act(Action::Move {
                    counter: "chaumont".into(),
                    to: Position::Hex(to.into()),
                }));
                let seq = g.game().events().len() as u64;
                commits.push((seq, Instant::now()));
                k += 1;
                next += Duration::from_millis(1000 / ACTIONS_PER_SECOND);
            }
            let t = Instant::now();
            let (shell, desk) = (&mut self.shell, &mut self.desk);
            let output = self
                .ctx
                .run_ui(input(), |ui| shell.frame_ui(ui, desk, game));
            std::hint::black_box(self.ctx.tessellate(output.shapes, output.pixels_per_point));
            frames.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        (commits, frames)
    }
}

/// What the phones saw: for each phone, when each entry first showed on its page.
type Sightings = Arc<Mutex<Vec<HashMap<u64, Instant>>>>;

/// The phones, each on its own thread following the French side's page until `stop`.
fn start_phones(
    server: &Server,
    stop: &Arc<AtomicBool>,
) -> (Vec<std::thread::JoinHandle<()>>, Sightings) {
    let token = server
        .links
        .iter()
        .find(|l| l.audience == Audience::Side("french".into()))
        .expect("the French link")
        .token
        .clone();
    let results: Sightings = Arc::new(Mutex::new(Vec::new()));
    let phones = (0..PHONES)
        .map(|_| {
            let (addr, token, stop, results) =
                (server.addr, token.clone(), stop.clone(), results.clone());
            std::thread::spawn(move || {
                let seen = phone(addr, token, stop);
                results.lock().expect("results").push(seen);
            })
        })
        .collect();
    (phones, results)
}

/// Prints the figures: latency from commit to each phone's page, and the desk's frame times
/// without and with the server.
fn print_figures(
    results: &[HashMap<u64, Instant>],
    commits: &[(u64, Instant)],
    mut alone: Vec<f64>,
    mut served: Vec<f64>,
) {
    let mut latencies = Vec::new();
    let mut missed = 0usize;
    for seen in results {
        for (seq, at) in commits {
            match seen.get(seq) {
                Some(t) => latencies.push(t.saturating_duration_since(*at).as_secs_f64() * 1000.0),
                None => missed += 1,
            }
        }
    }
    latencies.sort_by(f64::total_cmp);
    alone.sort_by(f64::total_cmp);
    served.sort_by(f64::total_cmp);
    println!(
        "{} phones, {} entries committed at {ACTIONS_PER_SECOND}/s over {SECONDS} s: {} sightings, {missed} missed",
        results.len(),
        commits.len(),
        latencies.len()
    );
    println!(
        "commit → on the phone's page: median {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "desk frame (game view, 1920×1200), without the server: median {:.2} ms, p95 {:.2} ms ({} frames)",
        percentile(&alone, 0.5),
        percentile(&alone, 0.95),
        alone.len()
    );
    println!(
        "desk frame, serving {PHONES} phones:                 median {:.2} ms, p95 {:.2} ms ({} frames)",
        percentile(&served, 0.5),
        percentile(&served, 0.95),
        served.len()
    );
}

fn main() {
    let library = Library::shipped();
    let scenario = shipped_scenarios()
        .into_iter()
        .find(|f| f.name.contains("s1_venice"))
        .expect("scenario 1 ships");
    let dir = std::env::temp_dir().join(format!("umpire-bench-players-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("venice.umpire");
    let mut game = Some(GameDesk::create(&path, &scenario, &library, Some(7)).expect("game"));
    let mut desk = DeskAtWork::new(&library);
    for _ in 0..5 {
        desk.work(&mut game, 0);
    }
    let (_, alone) = desk.work(&mut game, SECONDS / 2);

    let server = Server::start(
        &path.to_string_lossy(),
        library,
        &ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections: PHONES,
        },
    )
    .expect("serves");
    let stop = Arc::new(AtomicBool::new(false));
    let (phones, results) = start_phones(&server, &stop);
    std::thread::sleep(Duration::from_millis(500));
    let (commits, served) = desk.work(&mut game, SECONDS);
    // The last entries' updates still on their way.
    std::thread::sleep(Duration::from_millis(1500));
    stop.store(true, Ordering::Relaxed);
    for p in phones {
        let _ = p.join();
    }
    server.stop();
    let results = results.lock().expect("results");
    print_figures(&results, &commits, alone, served);
    let _ = std::fs::remove_dir_all(&dir);
}
