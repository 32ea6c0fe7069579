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
//! any other path under `/s/` is refused with 403. The tokens are kept beside the game's
//! journal (in the game file; for a shared game, in a file of this machine's), so a restart of
//! the server keeps every link and every open page working; new links are made only when the
//! umpire asks ([`forget_links`]). Open event streams are capped (default 64),
//! and no one link may hold more than half of them (so the public's link, the one pinned on the
//! wall, always leaves the sides room): past it a phone is told to try again (503) instead of
//! stalling the others.
//!
//! No phone can stall the others (issue 28): the server runs its own accept loop with a header
//! timeout and caps on connections in all and per address (`guard`); the heavy downloads (the
//! PDF, the verification, the journal) are made on a thread of their own, kept per journal
//! head, and rate-limited per link (`heavy`); wrong links and short codes are rate-limited per
//! address and overall; and every answer carries a Content-Security-Policy and the other
//! security headers ([`secure`]).

mod guard;
mod heavy;
mod live;
pub mod orders;
mod page;

pub use guard::{Limits, Rate};

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
use futures_util::{Stream, StreamExt as _};
use rand::RngExt;
use tokio::sync::{Semaphore, broadcast};
use tower_http::compression::Predicate as _;

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
    /// The short code: the first 8 characters of the token, grouped for reading aloud
    /// ("k7mq-x2pa"); the landing page's form opens the link it begins.
    ///
    /// Why 8 and rate-limited (issue 28): 6 characters were 30 bits, and unthrottled a machine on
    /// the LAN tried 10,825 a second — one of 3 links found in about 9 hours. Now each character
    /// is one of 32 (5 bits), so a code is 40 bits: 2^40 ≈ 1.1 × 10^12 codes. A code is looked up
    /// only while the failed-lookup buckets have room ([`guard::LOOKUPS_OVERALL`]: 30 at once,
    /// then one a second from every address together; [`guard::LOOKUPS_PER_ADDRESS`]: ten a
    /// minute from one), else 429. Guessing one of L links takes about 2^40 / (L + 1) guesses:
    /// for a megagame's 18 links, 5.8 × 10^10 s at one a second — about 1,800 years; for a
    /// two-sided game's 3 links about 8,700 years. Longer than a season of games by far, and
    /// still 8 characters to read out across a table. The full token (20 characters, about 100
    /// bits) is in the link and the QR code.
    pub fn short_code(&self) -> String {
        let head = |r: std::ops::Range<usize>| self.token.get(r).unwrap_or_default();
        format!("{}-{}", head(0..SHORT / 2), head(SHORT / 2..SHORT))
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

/// The characters of the token a short code is: 8 (40 bits; see [`Link::short_code`]).
const SHORT: usize = 8;

/// The characters of a token: lower-case letters and digits, without the ones read alike.
const TOKEN_ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// The characters in a token.
const TOKEN_LEN: usize = 20;

/// A token: 20 characters of lower-case letters and digits (about 103 bits).
fn token() -> String {
    let mut rng = rand::rng();
    (0..TOKEN_LEN)
        .map(|_| TOKEN_ALPHABET[rng.random_range(0..TOKEN_ALPHABET.len())] as char)
        .collect()
}

/// The pages rendered so far, by token and the journal's filter, with the version each
/// includes: a flood of asks for one page, filtered or not, is rendered once a change.
#[derive(Default)]
struct Pages {
    whole: BTreeMap<PageKey, (u64, String)>,
    main: BTreeMap<PageKey, (u64, String)>,
}

/// A kept page's key: its token and its journal's filter.
type PageKey = (String, page::Filter);

/// The most pages kept of each kind: past it, those of older versions go, then all (a filter
/// is any text, so the keys are not bounded by the links).
const PAGES_KEPT: usize = 256;

impl Pages {
    /// The page kept for the key at the version, if any.
    fn get(&self, whole: bool, key: &PageKey, version: u64) -> Option<String> {
        let pages = if whole { &self.whole } else { &self.main };
        pages
            .get(key)
            .filter(|(v, _)| *v == version)
            .map(|(_, html)| html.clone())
    }

    /// Keeps a page, within [`PAGES_KEPT`].
    fn keep(&mut self, whole: bool, key: PageKey, version: u64, html: String) {
        let pages = if whole {
            &mut self.whole
        } else {
            &mut self.main
        };
        if pages.len() >= PAGES_KEPT {
            pages.retain(|_, (v, _)| *v == version);
        }
        if pages.len() >= PAGES_KEPT {
            pages.clear();
        }
        pages.insert(key, (version, html));
    }
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
    /// Token → its link's share of the event streams (at most half of them each).
    shares: BTreeMap<String, Arc<Semaphore>>,
    /// Questions for the watcher, which holds the game: an audience's page.
    asks: std::sync::Mutex<std::sync::mpsc::Sender<Ask>>,
    /// Token → audience.
    audiences: BTreeMap<String, Audience>,
    /// The heavy downloads, made off the update path.
    heavy: Arc<heavy::Heavy>,
    /// Failed link and short-code lookups, per address and overall.
    lookups: guard::Lookups,
    /// The hand-in of sealed orders: the one thing the players' view writes.
    orders: orders::Desk,
    limits: Limits,
}

/// What a page asks of the game, answered by the watcher between its looks at the journal: the
/// audience's whole page (or its `main` part only), as the game stands.
struct Ask {
    token: String,
    whole: bool,
    /// What of the journal it shows (each filter's page kept apart).
    filter: page::Filter,
    reply: tokio::sync::oneshot::Sender<String>,
}

/// A running players' view. Dropping it (or [`Server::stop`]) shuts it down.
pub struct Server {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// One link per side, and one for the public.
    pub links: Vec<Link>,
    /// Whether the links' tokens are kept beside the game's journal, so that the next start
    /// keeps them (false for a game file opened for reading only: its links are new each time).
    pub links_kept: bool,
    stop: Arc<AtomicBool>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    threads: Vec<JoinHandle<()>>,
}

/// A link's share of the event streams: half of them (at least one), so that no one link — the
/// public's, pinned on the wall, or a side's passed round — leaves the others none.
fn share_of(max_connections: usize) -> usize {
    (max_connections / 2).max(1)
}

impl Server {
    /// Opens the game at `location` (a game file or a shared game's URL) and serves it, within
    /// the default [`Limits`].
    pub fn start(
        location: &str,
        library: Library,
        options: &ServeOptions,
    ) -> Result<Server, String> {
        Server::start_with(location, library, options, &Limits::default())
    }

    /// [`Server::start`] within the given limits.
    pub fn start_with(
        location: &str,
        library: Library,
        options: &ServeOptions,
        limits: &Limits,
    ) -> Result<Server, String> {
        let mut game = umpire_server::open_at(location, &library).map_err(|e| e.to_string())?;
        // Bind now, so a port in use is said at once.
        let listener = std::net::TcpListener::bind(options.bind)
            .map_err(|e| format!("cannot listen on {}: {e}", options.bind))?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let (links, kept) = links_of(&mut game, addr);
        let (asks_tx, asks) = std::sync::mpsc::channel::<Ask>();
        let stop = Arc::new(AtomicBool::new(false));
        let (heavy, maker) = heavy::Heavy::start(
            location.to_string(),
            library.clone(),
            limits.heavy,
            stop.clone(),
        )?;
        let (orders_desk, orders_thread) = orders::Desk::start(location, &library, stop.clone())?;
        let share = share_of(options.max_connections);
        let base = live::first_version();
        let shared = Arc::new(Shared {
            pages: RwLock::new(Pages::default()),
            version: AtomicU64::new(base),
            log: Mutex::new(Log {
                kept: VecDeque::new(),
                version: base,
                tx: Some(broadcast::channel(KEPT * 4).0),
            }),
            streams: Arc::new(Semaphore::new(options.max_connections.max(1))),
            shares: links
                .iter()
                .map(|l| (l.token.clone(), Arc::new(Semaphore::new(share))))
                .collect(),
            asks: std::sync::Mutex::new(asks_tx),
            audiences: links
                .iter()
                .map(|l| (l.token.clone(), l.audience.clone()))
                .collect(),
            heavy,
            lookups: guard::Lookups::default(),
            orders: orders_desk,
            limits: limits.clone(),
        });
        let live = live::Live::new(
            &game,
            &links
                .iter()
                .map(|l| (l.token.clone(), l.audience.clone()))
                .collect::<Vec<_>>(),
            base,
        );
        let watcher = watch(game, live, asks, shared.clone(), stop.clone())?;
        let (shutdown, on_shutdown) = tokio::sync::oneshot::channel::<()>();
        let http = {
            let limits = limits.clone();
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
                        guard::serve(listener, router(shared), limits, on_shutdown).await;
                    });
                    // Connections may still be open: do not wait for them.
                    runtime.shutdown_timeout(Duration::from_millis(200));
                })
                .map_err(|e| e.to_string())?
        };
        Ok(Server {
            addr,
            links,
            links_kept: kept,
            stop,
            shutdown: Some(shutdown),
            threads: vec![watcher, http, maker, orders_thread],
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

/// Where the links' tokens are kept beside the journal ([`Game::kept`]).
const LINKS_KEPT: &str = "players_view_links";

/// The key an audience's token is kept under.
fn audience_key(audience: &Audience) -> String {
    match audience {
        Audience::Side(id) => format!("side:{id}"),
        Audience::Public => "public".into(),
    }
}

/// Whether a kept token is one this server makes ([`token`]).
fn is_token(t: &str) -> bool {
    t.len() == TOKEN_LEN && t.bytes().all(|b| TOKEN_ALPHABET.contains(&b))
}

/// Forgets the links kept for the game at `location`: the next start makes new ones, and every
/// old link is refused from then on (the desk's "New links" and `umpire serve --new-links`).
pub fn forget_links(location: &str, library: &Library) -> Result<(), String> {
    let mut game = umpire_server::open_at(location, library).map_err(|e| e.to_string())?;
    match game.keep(LINKS_KEPT, "{}") {
        Ok(true) => Ok(()),
        Ok(false) => Err(format!(
            "{location} keeps no links (it is opened for reading only): its links are new at every start anyway"
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// One link for each side and one for the public on `addr`, each with the token kept for it
/// beside the game's journal (a new one the first time, kept then), so a restart of the server
/// keeps every link working; and whether the tokens could be kept.
fn links_of(game: &mut Game, addr: SocketAddr) -> (Vec<Link>, bool) {
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
    let mut tokens: BTreeMap<String, String> = game
        .kept(LINKS_KEPT)
        .ok()
        .flatten()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let links: Vec<Link> = audiences
        .into_iter()
        .map(|audience| {
            let key = audience_key(&audience);
            let token = match tokens.get(&key) {
                Some(t) if is_token(t) => t.clone(),
                _ => token(),
            };
            tokens.insert(key, token.clone());
            Link {
                name: page::audience_name(game, &audience),
                url: format!("http://{host}:{}/s/{token}", addr.port()),
                audience,
                token,
            }
        })
        .collect();
    let text = serde_json::to_string(&tokens).unwrap_or_default();
    let kept = game.keep(LINKS_KEPT, &text).unwrap_or(false);
    (links, kept)
}

/// The watcher, on a thread of its own: new entries in, each audience's changes out, and the
/// pages asked for rendered between its looks at the journal. Every [`POLL`] it looks, however
/// many pages are asked for meanwhile (a flood of asks never holds the updates back), and
/// nothing heavy is made here (`heavy` has its own thread).
fn watch(
    mut game: Game,
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
                if !wait.is_zero() {
                    if let Ok(ask) = asks.recv_timeout(wait) {
                        let html = render(
                            &game,
                            &live,
                            &shared,
                            &mut odds,
                            (&ask.token, ask.whole, &ask.filter),
                        );
                        let _ = ask.reply.send(html);
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

/// An audience's whole page (or its `main` part), as the game stands: the one kept if no
/// change came since, else rendered now (the whole journal: a page load's work, not an entry's)
/// and kept.
fn render(
    game: &Game,
    live: &live::Live,
    shared: &Shared,
    odds: &mut page::OddsCache,
    (token, whole, filter): (&str, bool, &page::Filter),
) -> String {
    let version = live.version();
    let key: PageKey = (token.to_string(), filter.clone());
    let kept = shared
        .pages
        .read()
        .ok()
        .and_then(|p| p.get(whole, &key, version));
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
        filter,
    };
    let html = if whole {
        page::page(game, &of, odds)
    } else {
        page::main_part(game, &of, odds)
    };
    if let Ok(mut p) = shared.pages.write() {
        p.keep(whole, key, version, html.clone());
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
        .route("/live.js", get(script))
        .route("/code", get(by_code))
        .route("/s/{token}", get(whole))
        .route("/s/{token}/main", get(main_part))
        .route("/s/{token}/events", get(events))
        .route("/s/{token}/report.pdf", get(report))
        .route("/s/{token}/journal.jsonl", get(journal))
        .route("/s/{token}/verify", get(verify))
        .route("/orders.js", get(orders_script))
        .route("/orders.css", get(orders_style))
        .route(
            "/s/{token}/orders",
            get(orders_page)
                .post(orders_post)
                .layer(axum::extract::DefaultBodyLimit::max(orders::BODY_LIMIT)),
        )
        .fallback(|| async { (StatusCode::NOT_FOUND, Html(page::landing())) })
        .layer(axum::middleware::from_fn_with_state(shared.clone(), secure))
        // Outside `secure`, so the security headers and `no-store` stay on the compressed
        // answer. gzip when the browser asks (Accept-Encoding): the pages, their `main` part, the
        // stylesheet, the script, the journal. Not the PDF (compressed already), nor the event
        // stream here: `events` compresses it itself, flushed at each event.
        .layer(
            tower_http::compression::CompressionLayer::new()
                .gzip(true)
                .compress_when(
                    tower_http::compression::predicate::DefaultPredicate::new().and(
                        tower_http::compression::predicate::NotForContentType::const_new(
                            "application/pdf",
                        ),
                    ),
                ),
        )
        .with_state(shared)
}

/// Around every request: a link whose token is not one of this game's refused (403, or 429
/// once its address or everyone has failed too often: see [`guard::Lookups`]) before any
/// handler runs; the answer cut at [`Limits::request_timeout`] (503); and the security headers
/// on every answer.
///
/// The Content-Security-Policy allows scripts, styles and connections from this server only
/// (`'self'`): the pages have no inline script or style — the live script is `/live.js`, the
/// stylesheet `/style.css` — so no `'unsafe-inline'`, no hash and no nonce is needed, and a
/// script that got into a page some other way would not run. Frames are refused
/// (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), types are not sniffed, no referrer is
/// sent (a side's link is in its pages' address), and nothing under `/s/` (a side's pages, its
/// journal and report) nor a short code's redirect is stored by the browser or a proxy.
async fn secure(
    State(shared): State<Arc<Shared>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let ip = peer_of(&request);
    let path = request.uri().path();
    let private = path.starts_with("/s/") || path == "/code";
    let mut response = match path.strip_prefix("/s/").map(|r| r.split('/').next()) {
        Some(Some(token)) if !shared.audiences.contains_key(token) => wrong_link(&shared, ip),
        _ => match tokio::time::timeout(shared.limits.request_timeout, next.run(request)).await {
            Ok(response) => response,
            Err(_) => (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "5")],
                "That took too long; try again in a moment.",
            )
                .into_response(),
        },
    };
    let headers = response.headers_mut();
    for (name, value) in guard::SECURITY_HEADERS {
        headers.insert(name, axum::http::HeaderValue::from_static(value));
    }
    if private {
        headers.insert(
            header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-store"),
        );
    }
    response
}

/// The client's address, as the accept loop put it on the request.
fn peer_of<B>(request: &axum::http::Request<B>) -> std::net::IpAddr {
    request
        .extensions()
        .get::<guard::Peer>()
        .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |p| p.0)
}

/// A link that is not one of this game's: 403, counted against its address; 429 once it (or
/// everyone) has failed too often.
fn wrong_link(shared: &Shared, ip: std::net::IpAddr) -> Response {
    if !shared.lookups.may_try(ip) {
        return too_many_tries();
    }
    shared.lookups.failed(ip);
    forbidden()
}

fn too_many_tries() -> Response {
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, "60")],
        Html(page::message(
            "Too many tries",
            "Too many wrong links or codes were tried; wait a minute, or scan your side's QR code.",
        )),
    )
        .into_response()
}

async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        page::STYLE,
    )
        .into_response()
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        page::LIVE,
    )
        .into_response()
}

async fn orders_script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        orders::SCRIPT,
    )
        .into_response()
}

async fn orders_style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        orders::STYLE,
    )
        .into_response()
}

/// A refusal of a hand-in, in a sentence on a page of its own.
fn orders_refused(status: StatusCode, text: &str) -> Response {
    (status, Html(page::message("Orders not sealed", text))).into_response()
}

/// The orders page of a side's link: the orders due at this step, with their forms.
async fn orders_page(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    match shared.audiences.get(&token) {
        Some(Audience::Side(side)) => match shared.orders.page(side, &token, None).await {
            Some(html) => Html(html).into_response(),
            None => busy(),
        },
        Some(Audience::Public) => orders_refused(
            StatusCode::FORBIDDEN,
            "The public link hands in no orders: each side hands in its own from its own link.",
        ),
        None => forbidden(),
    }
}

/// Whether a POST comes from a page of this server: refused when the browser says it is
/// cross-site (`Sec-Fetch-Site`) or its `Origin` names another site (with no referrer sent, a
/// browser gives our own form's POST the origin `null`).
fn same_site(headers: &axum::http::HeaderMap) -> bool {
    let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    if fetch_site.is_some_and(|v| v != "same-origin") {
        return false;
    }
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    match (origin, host) {
        (None | Some("null"), _) => true,
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_some_and(|(_, rest)| rest.trim_end_matches('/') == host),
        (Some(_), None) => false,
    }
}

/// A side's orders handed in: from this server's own page (its one-time form token, not
/// cross-site), within the body limit and the link's rate, for that side only.
async fn orders_post(
    State(shared): State<Arc<Shared>>,
    Path(token): Path<String>,
    headers: axum::http::HeaderMap,
    axum::Form(fields): axum::Form<Vec<(String, String)>>,
) -> Response {
    let side = match shared.audiences.get(&token) {
        Some(Audience::Side(side)) => side.clone(),
        Some(Audience::Public) => {
            return orders_refused(
                StatusCode::FORBIDDEN,
                "The public link hands in no orders: each side hands in its own from its own link.",
            );
        }
        None => return forbidden(),
    };
    if !same_site(&headers) {
        return orders_refused(
            StatusCode::FORBIDDEN,
            "Orders are handed in from this game's own orders page only; this request came from another site.",
        );
    }
    let field = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    if !shared.orders.redeem(&token, &field("csrf")) {
        return orders_refused(
            StatusCode::FORBIDDEN,
            "This form is out of date or was sent already: open the orders page again and seal from there.",
        );
    }
    if !shared.orders.may_seal(&token) {
        return orders_refused(
            StatusCode::TOO_MANY_REQUESTS,
            &format!(
                "This link has sealed {} times in the last minute: wait a moment and seal again.",
                orders::SEALS_PER_MINUTE
            ),
        );
    }
    let result = shared.orders.seal(&side, &field("order"), fields).await;
    let ok = result.is_ok();
    let notice = match result {
        Ok(text) => (true, text),
        Err(text) => (false, format!("Not sealed: {text}")),
    };
    match shared.orders.page(&side, &token, Some(notice)).await {
        Some(html) if ok => Html(html).into_response(),
        Some(html) => (StatusCode::UNPROCESSABLE_ENTITY, Html(html)).into_response(),
        None => busy(),
    }
}

fn forbidden() -> Response {
    (StatusCode::FORBIDDEN, Html(page::forbidden())).into_response()
}

/// The query of a page: its journal's filter (`?force=`, `?turn=this`).
type PageQuery = axum::extract::Query<BTreeMap<String, String>>;

async fn whole(
    State(shared): State<Arc<Shared>>,
    Path(token): Path<String>,
    axum::extract::Query(query): PageQuery,
) -> Response {
    page_of(&shared, token, true, page::Filter::from_query(&query)).await
}

async fn main_part(
    State(shared): State<Arc<Shared>>,
    Path(token): Path<String>,
    axum::extract::Query(query): PageQuery,
) -> Response {
    page_of(&shared, token, false, page::Filter::from_query(&query)).await
}

/// A page as the game stands: the one kept, or rendered by the watcher.
async fn page_of(shared: &Shared, token: String, whole: bool, filter: page::Filter) -> Response {
    if !shared.audiences.contains_key(&token) {
        return forbidden();
    }
    let version = shared.version.load(Ordering::Acquire);
    let key: PageKey = (token, filter);
    let kept = shared
        .pages
        .read()
        .ok()
        .and_then(|p| p.get(whole, &key, version));
    if let Some(html) = kept {
        return Html(html).into_response();
    }
    let (token, filter) = key;
    match ask(shared, |reply| Ask {
        token,
        whole,
        filter,
        reply,
    })
    .await
    {
        Some(html) => Html(html).into_response(),
        None => busy(),
    }
}

/// A short code typed on the landing page: to its side's link (a GET and a redirect: still
/// nothing written). An unknown code is refused like a wrong link, and counted against the
/// address it came from; while that address, or everyone together, has failed too often, no
/// code is looked up at all (429): see [`Link::short_code`] for what that makes of guessing.
async fn by_code(
    State(shared): State<Arc<Shared>>,
    axum::extract::Extension(peer): axum::extract::Extension<guard::Peer>,
    axum::extract::Query(query): axum::extract::Query<BTreeMap<String, String>>,
) -> Response {
    if !shared.lookups.may_try(peer.0) {
        return too_many_tries();
    }
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
        .filter(|t| typed.len() == SHORT && t.starts_with(&typed))
        .collect();
    match found.as_slice() {
        [token] => axum::response::Redirect::to(&format!("/s/{token}")).into_response(),
        _ => {
            shared.lookups.failed(peer.0);
            forbidden()
        }
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

/// A heavy download (see `heavy`): kept for the journal head, or made off the update path;
/// 429 when the link asks too often, 503 when too many wait. `X-Cache` says whether it was
/// kept (`hit`) or made for this ask (`miss`).
async fn heavy_download(shared: &Shared, kind: heavy::Kind, token: &str) -> Response {
    let Some(audience) = shared.audiences.get(token) else {
        return forbidden();
    };
    let version = shared.version.load(Ordering::Acquire);
    let wait = shared
        .limits
        .request_timeout
        .saturating_sub(Duration::from_secs(1));
    match shared
        .heavy
        .get(kind, token, audience, version, wait)
        .await
    {
        heavy::Outcome::Made(made, kept) => {
            let mut response = (made.status, made.body.clone()).into_response();
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static(made.content_type),
            );
            if let Some(d) = made.disposition {
                headers.insert(
                    header::CONTENT_DISPOSITION,
                    axum::http::HeaderValue::from_static(d),
                );
            }
            headers.insert(
                "x-cache",
                axum::http::HeaderValue::from_static(if kept { "hit" } else { "miss" }),
            );
            response
        }
        heavy::Outcome::TooOften => (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, "5")],
            Html(page::message(
                "Asked too often",
                "This link asked for its report, journal or verification too often; try again in a few seconds.",
            )),
        )
            .into_response(),
        heavy::Outcome::Busy => busy(),
    }
}

async fn report(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    heavy_download(&shared, heavy::Kind::Report, &token).await
}

async fn journal(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    heavy_download(&shared, heavy::Kind::Journal, &token).await
}

async fn verify(State(shared): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    heavy_download(&shared, heavy::Kind::Verify, &token).await
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
    // The link's share first: a link that holds its half is refused without taking a place
    // from the others.
    let share = shared
        .shares
        .get(&token)
        .and_then(|s| s.clone().try_acquire_owned().ok());
    let Some(share) = share else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "5")],
            "Too many phones are following on this link; trying again shortly.",
        )
            .into_response();
    };
    let Ok(permit) = shared.streams.clone().try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "5")],
            "Too many phones are following this game; trying again shortly.",
        )
            .into_response();
    };
    let permit = (permit, share);
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
    let stream = Sse::new(follow_stream(follow))
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response();
    if accepts_gzip(&headers) {
        gzip_flushed(stream)
    } else {
        stream
    }
}

/// Whether a request's `Accept-Encoding` takes gzip (not refused with `q=0`).
fn accepts_gzip(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            name.eq_ignore_ascii_case("gzip") && !refused
        })
}

/// The event stream gzip-compressed, each event flushed as it is written: a sync flush after
/// every frame (an event, or a keep-alive comment) ends the compressed data on a byte boundary,
/// so the browser decodes the event the moment it arrives, at the cost of a few bytes an event.
/// (tower-http's compression layer keeps a stream's bytes until its buffer fills — an event
/// could wait for the next one — so the stream is compressed here, not there.) The repeated
/// parts of the events (the markup of an entry, its classes, the JSON's keys) compress well
/// across events: the compressor keeps its window for the stream's whole life.
fn gzip_flushed(response: Response) -> Response {
    use std::io::Write as _;
    let (mut parts, body) = response.into_parts();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let compressed = body.into_data_stream().map(move |frame| {
        let frame = frame.map_err(std::io::Error::other)?;
        gz.write_all(&frame)?;
        gz.flush()?;
        Ok::<Vec<u8>, std::io::Error>(std::mem::take(gz.get_mut()))
    });
    let headers = &mut parts.headers;
    headers.remove(header::CONTENT_LENGTH);
    headers.insert(
        header::CONTENT_ENCODING,
        axum::http::HeaderValue::from_static("gzip"),
    );
    headers.insert(
        header::VARY,
        axum::http::HeaderValue::from_static("accept-encoding"),
    );
    Response::from_parts(parts, axum::body::Body::from_stream(compressed))
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
    /// Held while the stream lives (the cap on open streams, and the link's share of them).
    _permit: (
        tokio::sync::OwnedSemaphorePermit,
        tokio::sync::OwnedSemaphorePermit,
    ),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_code_is_eight_characters_of_the_token_in_two_groups() {
        let link = Link {
            audience: Audience::Public,
            name: "Everyone".into(),
            token: "abcdefghijkmnpqrstuv".into(),
            url: String::new(),
        };
        assert_eq!(link.short_code(), "abcd-efgh");
        // A token too short (never made here) gives what there is, not a panic.
        let short = Link {
            token: "abc".into(),
            ..link
        };
        assert_eq!(short.short_code(), "-");
    }

    #[test]
    fn pages_are_kept_by_filter_and_within_bounds() {
        let mut pages = Pages::default();
        let key = |force: &str| {
            (
                "token".to_string(),
                page::Filter {
                    force: Some(force.to_string()),
                    this_turn: false,
                },
            )
        };
        pages.keep(true, key("a"), 1, "a page".into());
        assert_eq!(pages.get(true, &key("a"), 1).as_deref(), Some("a page"));
        assert_eq!(pages.get(true, &key("b"), 1), None, "another filter's");
        assert_eq!(pages.get(true, &key("a"), 2), None, "an older version");
        assert_eq!(pages.get(false, &key("a"), 1), None, "not the main part");
        for k in 0..1000 {
            pages.keep(true, key(&format!("junk {k}")), 2, String::new());
            assert!(pages.whole.len() <= PAGES_KEPT);
        }
    }

    #[test]
    fn each_link_holds_at_most_half_the_streams() {
        assert_eq!(share_of(64), 32);
        assert_eq!(share_of(3), 1);
        assert_eq!(share_of(1), 1);
    }
}
