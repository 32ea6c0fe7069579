//! The players' view: a read-only web server each side follows the game with, on its own phones
//! over the club's LAN — its side only (the same visibility rules as side reports and exports),
//! live by Server-Sent Events.
//!
//! Two threads of its own, so it never blocks a desk: a watcher that keeps the game open and
//! takes in new journal entries (from this desk, another process or a shared game's server),
//! and the HTTP server, on its own tokio runtime. Each new entry is judged and rendered once per
//! audience, in work that grows with the entry and not with the journal (`live`), and the
//! fragments are pushed to the pages of the audiences that may see it; a whole page is rendered
//! only when a phone asks for one (and kept until the next change). The event stream keeps the
//! latest changes, so a phone back from a short drop is sent what it missed; one that missed
//! more fetches its page once. There are no write endpoints at all. A side's link carries a random token:
//! any other path under `/s/` is refused with 403. Open event streams are capped (default 64):
//! past it a phone is told to try again (503) instead of stalling the others.

mod live;
mod page;

use std::collections::{BTreeMap, VecDeque};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use futures_util::Stream;
use rand::RngExt;
use tokio::sync::{Semaphore, broadcast};

pub use page::Audience;

use umpire_core::game::Game;
use umpire_core::rules::Library;

/// How often the watcher looks for new journal entries.
const POLL: Duration = Duration::from_millis(150);

/// How many of the latest changes the event stream keeps for phones that reconnect.
const KEPT: usize = 256;

/// How the server is run.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Where to listen (the LAN address the umpire chooses; `127.0.0.1:0` for tests).
    pub bind: SocketAddr,
    /// The most open live connections (event streams) at once.
    pub max_connections: usize,
}

/// One audience's link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Who it is for.
    pub audience: Audience,
    /// Their name in words ("Venetians", "Everyone").
    pub name: String,
    /// The random token in the link.
    pub token: String,
    /// The whole link.
    pub url: String,
}

impl Link {
    /// The short code: the first 6 characters of the token, grouped for reading aloud.
    pub fn short_code(&self) -> String {
        format!("{}-{}", &self.token[..3], &self.token[3..6])
    }

    /// The link as a QR code, in SVG.
    pub fn qr_svg(&self) -> String {
        match qrcode::QrCode::new(self.url.as_bytes()) {
            Ok(code) => code
                .render::<qrcode::render::svg::Color>()
                .min_dimensions(180, 180)
                .build(),
            Err(_) => String::new(),
        }
    }

    /// The link as a QR code for a terminal (two rows of modules a line).
    pub fn qr_text(&self) -> String {
        match qrcode::QrCode::new(self.url.as_bytes()) {
            Ok(code) => code
                .render::<qrcode::render::unicode::Dense1x2>()
                .quiet_zone(true)
                .build(),
            Err(_) => String::new(),
        }
    }
}

/// A token: 20 characters of lower-case letters and digits (about 103 bits).
fn token() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..20)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// The pages rendered so far, by token, with the version each includes.
#[derive(Default)]
struct Pages {
    whole: BTreeMap<String, (u64, String)>,
    main: BTreeMap<String, (u64, String)>,
}

/// The latest changes, for phones that come back, and the stream of the next ones.
struct Log {
    kept: VecDeque<Arc<live::Batch>>,
    version: u64,
    /// None once the server stops: the open streams end with it.
    tx: Option<broadcast::Sender<Arc<live::Batch>>>,
}

struct Shared {
    pages: RwLock<Pages>,
    /// The latest changes' version.
    version: AtomicU64,
    log: Mutex<Log>,
    streams: Arc<Semaphore>,
    /// Questions for the watcher, which holds the game: a side's PDF, its verification.
    asks: std::sync::Mutex<std::sync::mpsc::Sender<Ask>>,
    /// Token → audience.
    audiences: BTreeMap<String, Audience>,
}

/// What a page asks of the game, answered by the watcher between its looks at the journal.
enum Ask {
    /// The audience's whole page (or its `main` part only), as the game stands.
    Page {
        token: String,
        whole: bool,
        reply: tokio::sync::oneshot::Sender<String>,
    },
    /// The whole game's report as this audience may see it, as PDF.
    Report(
        Audience,
        tokio::sync::oneshot::Sender<Result<Vec<u8>, String>>,
    ),
    /// The audience's export verified: the HTML of the answer (the token links back).
    Verify(Audience, String, tokio::sync::oneshot::Sender<String>),
    /// The audience's export itself (JSON lines), for `umpire game verify-side`.
    Journal(
        Audience,
        tokio::sync::oneshot::Sender<Result<String, String>>,
    ),
}

/// A running players' view. Dropping it (or [`Server::stop`]) shuts it down.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// One link per side, and one for the public.
    pub links: Vec<Link>,
    stop: Arc<AtomicBool>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    threads: Vec<JoinHandle<()>>,
}

impl Server {
    /// Opens the game at `location` (a game file or a shared game's URL) and serves it.
    pub fn start(
        location: &str,
        library: Library,
        options: &ServeOptions,
    ) -> Result<Server, String> {
        let game = umpire_server::open_at(location, &library).map_err(|e| e.to_string())?;
        // Bind now, so a port in use is said at once.
        let listener = std::net::TcpListener::bind(options.bind)
            .map_err(|e| format!("cannot listen on {}: {e}", options.bind))?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let host = if addr.ip().is_unspecified() {
            // Listening everywhere: a phone needs one of the machine's addresses.
            lan_address().map_or_else(|| "127.0.0.1".to_string(), |ip| ip.to_string())
        } else {
            addr.ip().to_string()
        };
        let mut audiences: Vec<Audience> = game
            .scenario()
            .sides
            .iter()
            .map(|s| Audience::Side(s.id.clone()))
            .collect();
        audiences.push(Audience::Public);
        let links: Vec<Link> = audiences
            .into_iter()
            .map(|audience| {
                let token = token();
                Link {
                    name: page::audience_name(&game, &audience),
                    url: format!("http://{host}:{}/s/{token}", addr.port()),
                    audience,
                    token,
                }
            })
            .collect();
        let (asks_tx, asks) = std::sync::mpsc::channel::<Ask>();
        let shared = Arc::new(Shared {
            pages: RwLock::new(Pages::default()),
            version: AtomicU64::new(0),
            log: Mutex::new(Log {
                kept: VecDeque::new(),
                version: 0,
                tx: Some(broadcast::channel(KEPT * 4).0),
            }),
            streams: Arc::new(Semaphore::new(options.max_connections.max(1))),
            asks: std::sync::Mutex::new(asks_tx),
            audiences: links
                .iter()
                .map(|l| (l.token.clone(), l.audience.clone()))
                .collect(),
        });
        let live = live::Live::new(
            &game,
            &links
                .iter()
                .map(|l| (l.token.clone(), l.audience.clone()))
                .collect::<Vec<_>>(),
        );
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = watch(game, library, live, asks, shared.clone(), stop.clone())?;
        let (shutdown, on_shutdown) = tokio::sync::oneshot::channel::<()>();
        let http = {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("players-view-http".into())
                .spawn(move || {
                    let Ok(runtime) = tokio::runtime::Builder::new_multi_thread()
                        .worker_threads(2)
                        // Named, so a measure of the server's own work can find its threads.
                        .thread_name("players-view-rt")
                        .enable_all()
                        .build()
                    else {
                        return;
                    };
                    runtime.block_on(async move {
                        let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                            return;
                        };
                        let app = router(shared);
                        let _ = axum::serve(listener, app)
                            .with_graceful_shutdown(async move {
                                let _ = on_shutdown.await;
                            })
                            .await;
                    });
                    // Event streams may still be open: do not wait for them.
                    runtime.shutdown_timeout(Duration::from_millis(200));
                })
                .map_err(|e| e.to_string())?
        };
        Ok(Server {
            addr,
            links,
            stop,
            shutdown: Some(shutdown),
            threads: vec![watcher, http],
        })
    }

    /// Stops serving and waits for its threads.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(s) = self.shutdown.take() {
            let _ = s.send(());
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.halt();
    }
}

/// The watcher, on a thread of its own: new entries in, each audience's changes out, and the
/// questions pages ask of the game answered between its looks at the journal.
fn watch(
    mut game: Game,
    library: Library,
    mut live: live::Live,
    asks: std::sync::mpsc::Receiver<Ask>,
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
) -> Result<JoinHandle<()>, String> {
    let mut odds = page::OddsCache::new();
    std::thread::Builder::new()
        .name("players-view-watcher".into())
        .spawn(move || {
            let mut last_look = std::time::Instant::now();
            while !stop.load(Ordering::Relaxed) {
                // Answer what pages ask while waiting for the next look.
                let wait = POLL.saturating_sub(last_look.elapsed());
                if let Ok(ask) = asks.recv_timeout(wait) {
                    match ask {
                        Ask::Page {
                            token,
                            whole,
                            reply,
                        } => {
                            let html = render(&game, &live, &shared, &mut odds, &token, whole);
                            let _ = reply.send(html);
                        }
                        ask => answer(&mut game, &library, ask),
                    }
                    continue;
                }
                last_look = std::time::Instant::now();
                if matches!(game.refresh(), Ok(n) if n > 0)
                    && let Some(batch) = live.take_in(&game, &mut odds)
                {
                    publish(&shared, batch);
                }
            }
            // Stopping: the event streams end, so the HTTP server's graceful shutdown does not
            // wait on them.
            if let Ok(mut log) = shared.log.lock() {
                log.tx = None;
            }
        })
        .map_err(|e| e.to_string())
}

/// This machine's address on the LAN, found by asking the system which interface would reach a
/// private address (no packet is sent: a UDP socket only connects). None without a network.
pub fn lan_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.168.0.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

/// The side an audience's exports and reports are made for (None: everyone's, the public's).
fn side_of(audience: &Audience) -> Option<String> {
    match audience {
        Audience::Side(id) => Some(id.clone()),
        Audience::Public => None,
    }
}

fn answer(game: &mut Game, library: &Library, ask: Ask) {
    match ask {
        // Answered by the watcher itself, which holds the pages' state.
        Ask::Page { .. } => {}
        Ask::Report(audience, reply) => {
            let pdf = match &audience {
                Audience::Side(id) => umpire_report::Template::sheet_default()
                    .map_err(|e| e.to_string())
                    .and_then(|template| {
                        umpire_report::turn_report_pdf(
                            game,
                            &umpire_report::ReportOptions {
                                turn: None,
                                side: Some(id.clone()),
                                printed_at: chrono::Local::now(),
                            },
                            template,
                        )
                        .map_err(|e| e.to_string())
                    }),
                Audience::Public => Err("the public has no report of its own".into()),
            };
            let _ = reply.send(pdf);
        }
        Ask::Journal(audience, reply) => {
            let text = side_export(game, &audience);
            let _ = reply.send(text);
        }
        Ask::Verify(audience, token, reply) => {
            let html = match side_export(game, &audience).and_then(|text| {
                let export = umpire_core::game::export::read_export("the journal", &text)
                    .map_err(|e| e.to_string())?;
                umpire_core::game::export::verify_export(&export, library, None, None)
                    .map_err(|e| e.to_string())
            }) {
                Ok(v) => page::verification(game, &audience, &token, &v),
                Err(e) => page::verification_failed(&e),
            };
            let _ = reply.send(html);
        }
    }
}

/// The journal as the audience may see it (sealed where it may not), as `game export --side`.
fn side_export(game: &mut Game, audience: &Audience) -> Result<String, String> {
    match side_of(audience) {
        Some(side) => umpire_core::game::export::export_text(
            game,
            &umpire_core::game::export::ExportOptions {
                side: Some(side),
                with_seed: false,
            },
        )
        .map_err(|e| e.to_string()),
        None => Err("the public has no journal of its own: ask for a side's link".into()),
    }
}

/// An audience's whole page (or its `main` part), as the game stands: the one kept if no
/// change came since, else rendered now (the whole journal: a page load's work, not an entry's)
/// and kept.
fn render(
    game: &Game,
    live: &live::Live,
    shared: &Shared,
    odds: &mut page::OddsCache,
    token: &str,
    whole: bool,
) -> String {
    let version = live.version();
    let kept = shared.pages.read().ok().and_then(|p| {
        let pages = if whole { &p.whole } else { &p.main };
        pages
            .get(token)
            .filter(|(v, _)| *v == version)
            .map(|(_, html)| html.clone())
    });
    if let Some(html) = kept {
        return html;
    }
    let Some(audience) = shared.audiences.get(token) else {
        return page::forbidden();
    };
    let of = page::PageOf {
        audience,
        token,
        version,
        statements: live.statements(token),
    };
    let html = if whole {
        page::page(game, &of, odds)
    } else {
        page::main_part(game, &of, odds)
    };
    if let Ok(mut p) = shared.pages.write() {
        let pages = if whole { &mut p.whole } else { &mut p.main };
        pages.insert(token.to_string(), (version, html.clone()));
    }
    html
}

/// Sends a take-in's changes to the open streams, and keeps them for phones that come back.
fn publish(shared: &Shared, batch: live::Batch) {
    let batch = Arc::new(batch);
    if let Ok(mut log) = shared.log.lock() {
        log.version = batch.version;
        log.kept.push_back(batch.clone());
        while log.kept.len() > KEPT {
            log.kept.pop_front();
        }
        shared.version.store(batch.version, Ordering::Release);
        // No stream open: nobody to tell.
        if let Some(tx) = &log.tx {
            let _ = tx.send(batch);
        }
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(page::landing()) }))
        .route("/style.css", get(style))
        .route("/code", get(by_code))
        .route("/s/{token}", get(whole))
        .route("/s/{token}/main", get(main_part))
        .route("/s/{token}/events", get(events))
        .route("/s/{token}/report.pdf", get(report))
        .route("/s/{token}/journal.jsonl", get(journal))
        .route("/s/{token}/verify", get(verify))
        .fallback(|| async { (StatusCode::NOT_FOUND, Html(page::landing())) })
        .with_state(shared)
}

async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        page::STYLE,
    )
        .into_response()
}

fn forbidden() -> Response {
    (StatusCode::FORBIDDEN, Html(page::forbidden())).into_response()
}

fn no_store(html: String) -> Response {
    ([(header::CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

async fn whole(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    page_of(&shared, token, true).await
}

async fn main_part(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    page_of(&shared, token, false).await
}

/// A page as the game stands: the one kept, or rendered by the watcher.
async fn page_of(shared: &Shared, token: String, whole: bool) -> Response {
    if !shared.audiences.contains_key(&token) {
        return forbidden();
    }
    let version = shared.version.load(Ordering::Acquire);
    let kept = shared.pages.read().ok().and_then(|p| {
        let pages = if whole { &p.whole } else { &p.main };
        pages
            .get(&token)
            .filter(|(v, _)| *v == version)
            .map(|(_, html)| html.clone())
    });
    if let Some(html) = kept {
        return no_store(html);
    }
    match ask(shared, |reply| Ask::Page {
        token,
        whole,
        reply,
    })
    .await
    {
        Some(html) => no_store(html),
        None => busy(),
    }
}

/// A short code typed on the landing page: to its side's link (a GET and a redirect: still
/// nothing written). An unknown code is refused like a wrong link.
async fn by_code(
    State(shared): State<Arc<Shared>>,
    axum::extract::Query(query): axum::extract::Query<BTreeMap<String, String>>,
) -> Response {
    let typed: String = query
        .get("c")
        .map(|c| {
            c.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    let found: Vec<&String> = shared
        .audiences
        .keys()
        .filter(|t| typed.len() == 6 && t.starts_with(&typed))
        .collect();
    match found.as_slice() {
        [token] => axum::response::Redirect::to(&format!("/s/{token}")).into_response(),
        _ => forbidden(),
    }
}

/// Sends a question to the watcher and waits for its answer (a few seconds at most).
async fn ask<T>(
    shared: &Shared,
    make: impl FnOnce(tokio::sync::oneshot::Sender<T>) -> Ask,
) -> Option<T> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    shared.asks.lock().ok()?.send(make(tx)).ok()?;
    tokio::time::timeout(Duration::from_secs(20), rx)
        .await
        .ok()?
        .ok()
}

fn busy() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "5")],
        "The game is busy; try again in a moment.",
    )
        .into_response()
}

async fn report(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    let Some(audience) = shared.audiences.get(&token).cloned() else {
        return forbidden();
    };
    match ask(&shared, |tx| Ask::Report(audience, tx)).await {
        Some(Ok(pdf)) => (
            [
                (header::CONTENT_TYPE, "application/pdf"),
                (
                    header::CONTENT_DISPOSITION,
                    "inline; filename=\"report.pdf\"",
                ),
            ],
            pdf,
        )
            .into_response(),
        Some(Err(e)) => {
            (StatusCode::NOT_FOUND, Html(page::message("No report", &e))).into_response()
        }
        None => busy(),
    }
}

async fn journal(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    let Some(audience) = shared.audiences.get(&token).cloned() else {
        return forbidden();
    };
    match ask(&shared, |tx| Ask::Journal(audience, tx)).await {
        Some(Ok(text)) => (
            [
                (header::CONTENT_TYPE, "application/jsonl; charset=utf-8"),
                (
                    header::CONTENT_DISPOSITION,
                    "attachment; filename=\"journal.jsonl\"",
                ),
            ],
            text,
        )
            .into_response(),
        Some(Err(e)) => {
            (StatusCode::NOT_FOUND, Html(page::message("No journal", &e))).into_response()
        }
        None => busy(),
    }
}

async fn verify(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    let Some(audience) = shared.audiences.get(&token).cloned() else {
        return forbidden();
    };
    match ask(&shared, |tx| Ask::Verify(audience, token, tx)).await {
        Some(html) => no_store(html),
        None => busy(),
    }
}

/// The page's event stream: from the version the page includes (`?from=`, or the last event a
/// reconnecting page had, `Last-Event-ID`), each take-in's changes its audience may see. A page
/// further behind than the changes kept, or a stream that fell behind, is told to `refresh`.
async fn events(
    State(shared): State<Arc<Shared>>,
    Path(token): Path<String>,
    axum::extract::Query(query): axum::extract::Query<BTreeMap<String, String>>,
    headers: axum::http::HeaderMap,
) -> Response {
    if !shared.audiences.contains_key(&token) {
        return forbidden();
    }
    let Ok(permit) = shared.streams.clone().try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "5")],
            "Too many phones are following this game; trying again shortly.",
        )
            .into_response();
    };
    let from = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .or(query.get("from").map(String::as_str))
        .and_then(|v| v.trim().parse::<u64>().ok());
    let Ok(log) = shared.log.lock() else {
        return busy();
    };
    // Subscribed while the log is held: no change falls between what is kept and what comes.
    let Some(rx) = log.tx.as_ref().map(broadcast::Sender::subscribe) else {
        return busy();
    };
    let follow = match from {
        Some(from) if from < log.version => {
            let missed = log.kept.front().is_none_or(|b| b.version > from + 1);
            Follow {
                token,
                rx,
                replay: log
                    .kept
                    .iter()
                    .filter(|b| b.version > from)
                    .cloned()
                    .collect(),
                missed,
                last: from,
                _permit: permit,
            }
        }
        _ => Follow {
            token,
            rx,
            replay: VecDeque::new(),
            missed: false,
            last: log.version,
            _permit: permit,
        },
    };
    drop(log);
    Sse::new(follow_stream(follow))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// One page's stream: what is still to send it.
struct Follow {
    token: String,
    rx: broadcast::Receiver<Arc<live::Batch>>,
    /// Kept changes it has not had yet.
    replay: VecDeque<Arc<live::Batch>>,
    /// It missed changes no longer kept: it fetches the page again.
    missed: bool,
    /// The last version it has.
    last: u64,
    /// Held while the stream lives (the cap on open streams).
    _permit: tokio::sync::OwnedSemaphorePermit,
}

/// `changes` events with only what the page's audience may see (none when a take-in holds
/// nothing for it), `refresh` when it must fetch itself again; each with its version as the id.
fn follow_stream(follow: Follow) -> impl Stream<Item = Result<SseEvent, Infallible>> {
    futures_util::stream::unfold(follow, |mut f| async move {
        loop {
            if std::mem::take(&mut f.missed) {
                let event = SseEvent::default()
                    .event("refresh")
                    .id(f.last.to_string())
                    .data(f.last.to_string());
                return Some((Ok(event), f));
            }
            let batch = match f.replay.pop_front() {
                Some(b) => b,
                None => match f.rx.recv().await {
                    Ok(b) => b,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        f.missed = true;
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
            };
            if batch.version <= f.last {
                continue;
            }
            f.last = batch.version;
            let id = batch.version.to_string();
            if batch.refresh {
                let event = SseEvent::default().event("refresh").id(id.clone()).data(id);
                return Some((Ok(event), f));
            }
            if let Some(changes) = batch.changes.get(&f.token) {
                let event = SseEvent::default()
                    .event("changes")
                    .id(id)
                    .data(changes.as_ref());
                return Some((Ok(event), f));
            }
        }
    })
}
