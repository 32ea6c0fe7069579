//! The players' view under load, two ways.
//!
//! 1. At a megagame's size (issue 27): 100 simulated phones follow two games served side by side
//!    — an rr3 megagame ("handbook_1524": its 17 teams and the public, 80 phones) and "Venice at
//!    bay, 1509" (its two sides and the public, 20 phones) — each phone holding an event stream
//!    open, while a desk commits 20 entries a second to each game, from 1,000 entries to 2,000
//!    (a state's treasury adjusted in four entries of five on rr3, moves on Venice, a public
//!    announcement in one of five on both). Measured: the server's CPU time per new entry — the
//!    user and system time of its own threads (the watcher and the HTTP runtime of both servers,
//!    read from /proc/self/task; not the phones' threads nor the desk's commits, which run in the
//!    same process) — in the first and second half of the growth, and from each treasury
//!    commit to the moment each phone of a team of that state has it (every such phone, every
//!    commit). Target: ≤ 10 ms CPU per entry, p99 ≤ 1 s.
//! 2. Beside the desk (issue 17): 64 phones follow a game of "Venice at bay, 1509" while the
//!    desk commits 10 actions a second for 20 seconds: from each commit to the moment each phone
//!    has the entry (every phone, every entry), and the desk's frame time (its game view built
//!    and tessellated, 1920×1200) with and without the server running beside it. Target: every
//!    phone sees every entry within 1 s; the frame time unchanged within noise.
//!
//! 3. Under a flood (issue 28): 64 phones (the French, the Venetians and the public, each phone
//!    from its own loopback address) follow a game of "Venice at bay, 1509" while 1,000 idle
//!    sockets are held open (sending nothing or half a request head; each one the server drops
//!    opened again at once) and the French link floods its report PDF and verification from four
//!    devices; the umpire announces 30 entries, one every 300 ms. Measured: from each commit to
//!    the moment each phone has it (every phone, every entry), and what the flood and the idle
//!    sockets were answered. Target: every phone sees every entry within 1 s.
//!
//! `cargo bench --bench players_view` prints the figures (BENCHMARKS.md has them);
//! `cargo bench --bench players_view -- flood` runs the third alone, `-- megagame` the first.
//!
//! Every phone connects from an address of its own (127.0.x.y: Linux's loopback answers the
//! whole of 127.0.0.0/8), as phones on a LAN do: the server holds one address to 16
//! connections.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
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

/// Connections from addresses of their own on the loopback.
struct Dialer {
    runtime: tokio::runtime::Runtime,
}

impl Dialer {
    fn new() -> Dialer {
        Dialer {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .build()
                .expect("runtime"),
        }
    }

    /// A connection to `to` from `from`.
    fn connect(&self, from: Ipv4Addr, to: SocketAddr) -> std::io::Result<TcpStream> {
        let stream = self.runtime.block_on(async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(from.into(), 0))?;
            socket.connect(to).await?.into_std()
        })?;
        stream.set_nonblocking(false)?;
        Ok(stream)
    }
}

/// The `k`th phone's address: 127.0.10.1 on.
fn phone_address(k: usize) -> Ipv4Addr {
    Ipv4Addr::new(
        127,
        0,
        10 + u8::try_from(k / 250).unwrap_or(0),
        u8::try_from(k % 250 + 1).unwrap_or(1),
    )
}
const ACTIONS_PER_SECOND: u64 = 10;
const SECONDS: u64 = 20;

/// The entries in a `changes` event: the fragments' `id="eN"`s (quoted in its JSON).
fn entries_on(data: &str) -> Vec<u64> {
    data.split("id=\\\"e")
        .skip(1)
        .filter_map(|rest| rest.split('\\').next()?.parse().ok())
        .collect()
}

/// One phone: follows the stream until `stop`, noting when each `changes` event came and
/// what it said (its data, read by `note`).
fn follow<T: std::hash::Hash + Eq>(
    (from, addr): (Ipv4Addr, SocketAddr),
    token: &str,
    stop: &AtomicBool,
    note: impl Fn(&str) -> Vec<T>,
) -> HashMap<T, Instant> {
    let mut seen = HashMap::new();
    let Ok(mut s) = Dialer::new().connect(from, addr) else {
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
            Ok(_) if line.starts_with("data: ") => {
                let now = Instant::now();
                for n in note(&line) {
                    seen.entry(n).or_insert(now);
                }
            }
            _ => {}
        }
    }
    seen
}

/// One phone of the desk's game: when each entry first showed.
fn phone(
    to: (Ipv4Addr, SocketAddr),
    token: String,
    stop: Arc<AtomicBool>,
) -> HashMap<u64, Instant> {
    follow(to, &token, &stop, entries_on)
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
        .map(|k| {
            let (addr, token, stop, results) =
                (server.addr, token.clone(), stop.clone(), results.clone());
            std::thread::spawn(move || {
                let seen = phone((phone_address(k), addr), token, stop);
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
    if std::env::args().any(|a| a == "flood") {
        under_a_flood();
        return;
    }
    if std::env::args().any(|a| a == "megagame") {
        megagame_size();
        return;
    }
    megagame_size();
    beside_the_desk();
    under_a_flood();
}

fn beside_the_desk() {
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
            // Every phone on the French link, which holds at most half the streams.
            max_connections: 2 * PHONES,
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

// ---- 1. At a megagame's size ----

const MEGA_PHONES: usize = 100;
const RR3_PHONES: usize = 80;
const FROM_ENTRIES: usize = 1000;
const TO_ENTRIES: usize = 2000;
const ENTRIES_PER_SECOND: u64 = 20;

/// The CPU time (user + system, seconds) of this process's threads whose name starts with
/// `prefix`, from /proc/self/task/*/stat (in clock ticks of 1/100 s, Linux's USER_HZ).
fn threads_cpu(prefix: &str) -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return f64::NAN;
    };
    let mut ticks = 0u64;
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        if !stat[open + 1..close].starts_with(prefix) {
            continue;
        }
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        // Fields 14 and 15 of the line (utime, stime): 11 and 12 after the name.
        let (u, s) = (fields.get(11), fields.get(12));
        ticks += u.and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
            + s.and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    }
    ticks as f64 / 100.0
}

/// The whole process's CPU time (user + system, seconds).
fn process_cpu() -> f64 {
    nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_SELF).map_or(f64::NAN, |r| {
        let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
        t(r.user_time()) + t(r.system_time())
    })
}

/// The "tick N" reasons in a `changes` event.
fn ticks_on(data: &str) -> Vec<u64> {
    data.split("tick ")
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

/// A game for the megagame bench, grown to `FROM_ENTRIES` before it is served.
struct Grown {
    game: umpire::game::Game,
    path: std::path::PathBuf,
    /// rr3: the states' ledger counters with their teams.
    states: Vec<(String, Vec<String>)>,
    k: u64,
}

impl Grown {
    fn new(dir: &std::path::Path, name: &str, library: &Library) -> Grown {
        let scenario = shipped_scenarios()
            .into_iter()
            .find(|f| f.name.contains(name))
            .expect("the scenario ships");
        let path = dir.join(format!("{name}.umpire"));
        let game = umpire::game::Game::create(&path, &scenario, library, Some(7)).expect("game");
        let states = umpire::megagame::ledger::ledgers(&game)
            .into_iter()
            .filter(|l| !l.teams.is_empty())
            .map(|l| (l.counter, l.teams))
            .collect();
        let mut g = Grown {
            game,
            path,
            states,
            k: 0,
        };
        // Treasuries known, so the statements have balances.
        for (counter, _) in g.states.clone() {
            g.act(Action::SetAttribute {
                counter: counter.as_str().into(),
                attribute: "treasury".into(),
                value: "100".into(),
                seen: umpire::game::Seen::Unchecked,
            });
        }
        while g.game.events().len() < FROM_ENTRIES {
            g.next(&mut Vec::new());
        }
        g
    }

    fn act(&mut self, action: Action) {
        self.game
            .act(&umpire::game::Actor::umpire(), action)
            .expect("recorded");
    }

    /// The next entry: on rr3 a state's treasury adjusted ("tick N", noted in `commits` with
    /// the state's teams), on Venice a move; a public announcement one time in five.
    fn next(&mut self, commits: &mut Vec<(u64, Vec<String>, Instant)>) {
        self.k += 1;
        let k = self.k;
        if k.is_multiple_of(5) {
            self.act(Action::Announce {
                audience: umpire::game::event::Audience::Public,
                team: None,
                text: format!("Bulletin {k}"),
            });
        } else if self.states.is_empty() {
            let to = if k.is_multiple_of(2) { "2833" } else { "2832" };
            self.act(Action::Move {
                counter: "chaumont".into(),
                to: Position::Hex(to.into()),
            });
        } else {
            let (counter, teams) = self.states[(k as usize) % self.states.len()].clone();
            self.act(Action::Adjust {
                counter: counter.as_str().into(),
                attribute: "treasury".into(),
                by: 1,
                reason: format!("tick {k}"),
            });
            commits.push((k, teams, Instant::now()));
        }
    }
}

fn serve(path: &std::path::Path, library: &Library) -> Server {
    Server::start(
        &path.to_string_lossy(),
        library.clone(),
        &ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections: MEGA_PHONES,
        },
    )
    .expect("serves")
}

/// What a megagame phone saw: its audience, and when each "tick N" first came.
type Followed = Arc<Mutex<Vec<(Audience, HashMap<u64, Instant>)>>>;

/// `count` phones on `server`'s links, round the links.
fn mega_phones(
    server: &Server,
    (first, count): (usize, usize),
    stop: &Arc<AtomicBool>,
    results: &Followed,
) -> Vec<std::thread::JoinHandle<()>> {
    (0..count)
        .map(|i| {
            let link = server.links[i % server.links.len()].clone();
            let (addr, stop, results) = (server.addr, stop.clone(), results.clone());
            std::thread::spawn(move || {
                let to = (phone_address(first + i), addr);
                let seen = follow(to, &link.token, &stop, ticks_on);
                results.lock().expect("results").push((link.audience, seen));
            })
        })
        .collect()
}

fn megagame_size() {
    let library = Library::shipped();
    let dir = std::env::temp_dir().join(format!("umpire-bench-mega-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut rr3 = Grown::new(&dir, "handbook_1524", &library);
    let mut venice = Grown::new(&dir, "s1_venice", &library);
    let (rr3_server, venice_server) = (serve(&rr3.path, &library), serve(&venice.path, &library));
    let stop = Arc::new(AtomicBool::new(false));
    let results: Followed = Arc::new(Mutex::new(Vec::new()));
    let mut phones = mega_phones(&rr3_server, (0, RR3_PHONES), &stop, &results);
    phones.extend(mega_phones(
        &venice_server,
        (RR3_PHONES, MEGA_PHONES - RR3_PHONES),
        &stop,
        &results,
    ));
    std::thread::sleep(Duration::from_millis(1500));
    let mut commits = Vec::new();
    let mut halves = Vec::new();
    let (cpu0, process0) = (threads_cpu("players-view"), process_cpu());
    let start = Instant::now();
    let mut next = start;
    let mut grown = 0usize;
    while rr3.game.events().len() < TO_ENTRIES || venice.game.events().len() < TO_ENTRIES {
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        next += Duration::from_millis(1000 / ENTRIES_PER_SECOND);
        if rr3.game.events().len() < TO_ENTRIES {
            rr3.next(&mut commits);
            grown += 1;
        }
        if venice.game.events().len() < TO_ENTRIES {
            venice.next(&mut Vec::new());
            grown += 1;
        }
        if halves.is_empty() && rr3.game.events().len() >= (FROM_ENTRIES + TO_ENTRIES) / 2 {
            std::thread::sleep(Duration::from_millis(300));
            halves.push((threads_cpu("players-view"), grown));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    // The last entries still on their way.
    std::thread::sleep(Duration::from_millis(1500));
    let (cpu1, process1) = (threads_cpu("players-view"), process_cpu());
    stop.store(true, Ordering::Relaxed);
    for p in phones {
        let _ = p.join();
    }
    rr3_server.stop();
    venice_server.stop();
    let results = results.lock().expect("results");
    let mut latencies = Vec::new();
    let mut missed = 0usize;
    for (audience, seen) in results.iter() {
        let Audience::Side(team) = audience else {
            continue;
        };
        for (k, _, at) in commits.iter().filter(|(_, teams, _)| teams.contains(team)) {
            match seen.get(k) {
                Some(t) => latencies.push(t.saturating_duration_since(*at).as_secs_f64() * 1000.0),
                None => missed += 1,
            }
        }
    }
    latencies.sort_by(f64::total_cmp);
    let (half_cpu, half_entries) = halves.first().copied().unwrap_or((cpu1, grown));
    println!(
        "megagame size: {} phones ({RR3_PHONES} on rr3 handbook_1524, {} on Venice), {grown} entries committed in {seconds:.0} s, journals {FROM_ENTRIES} → {TO_ENTRIES} entries each",
        results.len(),
        MEGA_PHONES - RR3_PHONES
    );
    println!(
        "server CPU per entry (its threads): {:.2} ms overall; {:.2} ms at {FROM_ENTRIES}–{} entries, {:.2} ms at {}–{TO_ENTRIES}",
        (cpu1 - cpu0) * 1000.0 / grown as f64,
        (half_cpu - cpu0) * 1000.0 / half_entries.max(1) as f64,
        (FROM_ENTRIES + TO_ENTRIES) / 2,
        (cpu1 - half_cpu) * 1000.0 / grown.saturating_sub(half_entries).max(1) as f64,
        (FROM_ENTRIES + TO_ENTRIES) / 2,
    );
    println!(
        "whole process CPU per entry (server, 100 phones' threads and the desk's commits): {:.2} ms",
        (process1 - process0) * 1000.0 / grown as f64
    );
    println!(
        "treasury commit → on its team's phones: {} sightings, {missed} missed; median {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- 3. Under a flood ----

const FLOOD_IDLE: usize = 1000;
const FLOOD_ENTRIES: u64 = 30;

/// Raises this process's soft descriptor limit to its hard limit; the soft limit then.
fn raise_descriptor_limit() -> u64 {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return 0;
    };
    if soft < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
        return hard;
    }
    soft
}

/// A GET from `from`, read to the end: its status (0 when closed without an answer).
fn get_status(dialer: &Dialer, from: Ipv4Addr, to: SocketAddr, path: &str) -> u16 {
    use std::io::Read;
    let Ok(mut s) = dialer.connect(from, to) else {
        return 0;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(20)));
    if write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .is_err()
    {
        return 0;
    }
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw[..raw.len().min(20)])
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// Holds `count` sockets open to `to` (nothing sent, or half a request head), from 127.0.100.1
/// on, ten an address (under the per-address cap, so together they reach the cap on all
/// connections); each one the server closes is opened again at once; until `stop`. How many
/// were opened in all.
fn hold_idle(to: SocketAddr, count: usize, stop: &AtomicBool) -> usize {
    use std::io::Read;
    let dialer = Dialer::new();
    let from = |k: usize| {
        let a = k / 10;
        Ipv4Addr::new(
            127,
            0,
            100 + u8::try_from(a / 250).unwrap_or(0),
            u8::try_from(a % 250 + 1).unwrap_or(1),
        )
    };
    let open = |k: usize| -> Option<TcpStream> {
        let mut s = dialer.connect(from(k), to).ok()?;
        if k % 2 == 1 {
            let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n");
        }
        s.set_nonblocking(true).ok()?;
        Some(s)
    };
    let mut held: Vec<Option<TcpStream>> = (0..count).map(|_| None).collect();
    let mut opened = 0usize;
    let mut buf = [0u8; 512];
    while !stop.load(Ordering::Relaxed) {
        for (k, slot) in held.iter_mut().enumerate() {
            let gone = match slot {
                None => true,
                Some(s) => match s.read(&mut buf) {
                    Ok(_) => true,
                    Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
                },
            };
            if gone && !stop.load(Ordering::Relaxed) {
                *slot = open(k);
                opened += usize::from(slot.is_some());
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    opened
}

/// The "flood N" announcements in a `changes` event.
fn floods_on(data: &str) -> Vec<u64> {
    data.split("flood ")
        .skip(1)
        .filter_map(|r| r.split(' ').next().and_then(|d| d.parse().ok()))
        .collect()
}

/// The French, Venetian and public links' tokens.
fn flood_tokens(server: &Server) -> Vec<String> {
    [
        Audience::Side("french".into()),
        Audience::Side("venetian".into()),
        Audience::Public,
    ]
    .iter()
    .map(|a| {
        server
            .links
            .iter()
            .find(|l| &l.audience == a)
            .expect("a link")
            .token
            .clone()
    })
    .collect()
}

fn under_a_flood() {
    let limit = raise_descriptor_limit();
    let idle = FLOOD_IDLE.min(usize::try_from(limit).unwrap_or(0).saturating_sub(700));
    let library = Library::shipped();
    let scenario = shipped_scenarios()
        .into_iter()
        .find(|f| f.name.contains("s1_venice"))
        .expect("scenario 1 ships");
    let dir = std::env::temp_dir().join(format!("umpire-bench-flood-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("venice.umpire");
    let mut game = umpire::game::Game::create(&path, &scenario, &library, Some(7)).expect("game");
    let server = Server::start(
        &path.to_string_lossy(),
        library,
        &ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections: 2 * PHONES,
        },
    )
    .expect("serves");
    let addr = server.addr;
    let tokens = flood_tokens(&server);
    let stop = Arc::new(AtomicBool::new(false));
    let seen: Arc<Mutex<Vec<HashMap<u64, Instant>>>> = Arc::new(Mutex::new(Vec::new()));
    let mut threads = Vec::new();
    for k in 0..PHONES {
        let (token, stop, seen) = (tokens[k % 3].clone(), stop.clone(), seen.clone());
        threads.push(std::thread::spawn(move || {
            let mine = follow((phone_address(k), addr), &token, &stop, floods_on);
            seen.lock().expect("seen").push(mine);
        }));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let idle_thread = {
        let stop = stop.clone();
        std::thread::spawn(move || hold_idle(addr, idle, &stop))
    };
    let flood = Arc::new(Mutex::new(HashMap::<u16, usize>::new()));
    for k in 0..4u8 {
        let (token, stop, flood) = (tokens[0].clone(), stop.clone(), flood.clone());
        threads.push(std::thread::spawn(move || {
            let dialer = Dialer::new();
            let mut n = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let what = if n.is_multiple_of(2) {
                    "report.pdf"
                } else {
                    "verify"
                };
                n += 1;
                let from = Ipv4Addr::new(127, 0, 20, k + 1);
                let status = get_status(&dialer, from, addr, &format!("/s/{token}/{what}"));
                *flood.lock().expect("flood").entry(status).or_insert(0) += 1;
            }
        }));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let mut commits = Vec::new();
    for k in 1..=FLOOD_ENTRIES {
        game.act(
            &umpire::game::Actor::umpire(),
            Action::Announce {
                audience: umpire::game::event::Audience::Public,
                team: None,
                text: format!("flood {k} ends"),
            },
        )
        .expect("announced");
        commits.push((k, Instant::now()));
        std::thread::sleep(Duration::from_millis(300));
    }
    std::thread::sleep(Duration::from_millis(1500));
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    let idle_opened = idle_thread.join().unwrap_or(0);
    server.stop();
    let seen = seen.lock().expect("seen");
    let mut latencies = Vec::new();
    let mut missed = 0usize;
    for phone in seen.iter() {
        for (k, at) in &commits {
            match phone.get(k) {
                Some(t) => latencies.push(t.saturating_duration_since(*at).as_secs_f64() * 1000.0),
                None => missed += 1,
            }
        }
    }
    latencies.sort_by(f64::total_cmp);
    let mut flood: Vec<(u16, usize)> = flood.lock().expect("flood").clone().into_iter().collect();
    flood.sort_unstable();
    println!(
        "under a flood: {} phones, {idle} idle sockets held ({idle_opened} opened in all; descriptor limit {limit}), the French link flooding report.pdf and /verify from 4 devices",
        seen.len()
    );
    println!("the flood answered (status: count, 0 = closed unanswered): {flood:?}");
    println!(
        "{FLOOD_ENTRIES} entries, one every 300 ms → on the phones' pages: {} sightings, {missed} missed; median {:.0} ms, p99 {:.0} ms, worst {:.0} ms",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(f64::NAN)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
