//! What keeps one phone, or one machine on the LAN, from stalling the players' view for
//! everyone (issue 28): its own accept loop instead of `axum::serve`, which has no header timeout
//! and no cap on connections (about 1,020 idle sockets took a desktop's 1,024 descriptors and the
//! server with them), the limits it enforces, and the rate limits the handlers use.
//!
//! - **A cap on connections** ([`Limits::connections`], default 256: well below a desktop's
//!   1,024 descriptors) and **a cap per client address** ([`Limits::per_address`], default 16:
//!   a phone's browser opens about six at once). Past either, the connection is answered at once
//!   with a short sentence (503 when the server is full, 429 for one address with too many) and
//!   closed: a refusal, never a stall. Refusing holds a descriptor for at most two seconds, and
//!   at most 64 refusals are under way at once (past that a socket is closed without a word).
//! - **A header timeout** ([`Limits::header_timeout`], default 5 s): a connection that has not
//!   sent a whole request head by then — a slow-loris socket, or a kept-alive one gone quiet —
//!   is dropped.
//! - **A request timeout** ([`Limits::request_timeout`], default 30 s): a page or a download
//!   that takes longer to start is answered 503 instead (an event stream starts at once).
//! - **A stall timeout** ([`Limits::stall_timeout`], default 60 s): a connection that moves no
//!   byte either way for that long — a client that stopped reading a download or its stream —
//!   is dropped. An event stream sends a keep-alive every 15 s, so a phone that still reads is
//!   never stalled.
//! - **Rate limits** ([`Bucket`]): heavy downloads per link (`crate::heavy`) and failed link and
//!   short-code lookups per address and overall ([`Lookups`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The limits that keep the players' view answering under load; [`Limits::default`] for a club
/// night.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The most connections open at once, of every kind (pages, event streams, sockets still
    /// sending their headers). Below a desktop's 1,024 descriptors, with room for the game's
    /// own files.
    pub connections: usize,
    /// The most connections open at once from one client address.
    pub per_address: usize,
    /// How long a connection may take to send a whole request head (and how long a kept-alive
    /// connection may stay quiet) before it is dropped.
    pub header_timeout: Duration,
    /// How long a request may take before its answer starts: past it, 503.
    pub request_timeout: Duration,
    /// How long a connection may move no byte either way before it is dropped (more than the
    /// event streams' 15 s keep-alive, or following phones are dropped too).
    pub stall_timeout: Duration,
    /// Heavy downloads (the report PDF, the verification, the journal) one link may ask for.
    pub heavy: Rate,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections: 256,
            per_address: 16,
            header_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
            stall_timeout: Duration::from_secs(60),
            // Eight at once (a table's players each asking), then one every four seconds.
            heavy: Rate {
                burst: 8,
                every: Duration::from_secs(4),
            },
        }
    }
}

/// A rate: `burst` at once, then one more each `every`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// How many may come at once.
    pub burst: u32,
    /// How often one more may come once those are spent.
    pub every: Duration,
}

/// A token bucket: full at `burst`, one token back each `every`.
#[derive(Debug, Clone, Copy)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn full(rate: Rate) -> Bucket {
        Bucket {
            tokens: f64::from(rate.burst),
            at: Instant::now(),
        }
    }

    fn refill(&mut self, rate: Rate) {
        let now = Instant::now();
        let every = rate.every.as_secs_f64().max(1e-6);
        let back = now.saturating_duration_since(self.at).as_secs_f64() / every;
        self.tokens = (self.tokens + back).min(f64::from(rate.burst));
        self.at = now;
    }

    /// Whether a token is left (none taken).
    pub fn has(&mut self, rate: Rate) -> bool {
        self.refill(rate);
        self.tokens >= 1.0
    }

    /// Takes a token: false when none is left.
    pub fn take(&mut self, rate: Rate) -> bool {
        self.refill(rate);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether it is full again (nothing to remember of it).
    fn is_full(&mut self, rate: Rate) -> bool {
        self.refill(rate);
        self.tokens >= f64::from(rate.burst)
    }
}

/// Failed lookups (a wrong link, a wrong short code) one address may make: ten, then one every
/// six seconds (ten a minute).
pub const LOOKUPS_PER_ADDRESS: Rate = Rate {
    burst: 10,
    every: Duration::from_secs(6),
};

/// Failed lookups every address together may make: thirty, then one a second. This is what
/// bounds guessing a short code from however many machines (see `Link::short_code`).
pub const LOOKUPS_OVERALL: Rate = Rate {
    burst: 30,
    every: Duration::from_secs(1),
};

/// How many addresses' buckets are remembered before the full ones are forgotten.
const REMEMBERED: usize = 4096;

/// The limit on failed lookups: per address and overall. A right link is never refused (its
/// token has about 100 bits: guessing it is hopeless at any rate); a short code is only looked
/// up while both buckets have a token, so guessing one is slow from any number of addresses.
pub struct Lookups {
    inner: Mutex<LookupsInner>,
}

struct LookupsInner {
    overall: Bucket,
    by_address: HashMap<IpAddr, Bucket>,
}

impl Default for Lookups {
    fn default() -> Lookups {
        Lookups {
            inner: Mutex::new(LookupsInner {
                overall: Bucket::full(LOOKUPS_OVERALL),
                by_address: HashMap::new(),
            }),
        }
    }
}

impl Lookups {
    /// Whether `ip` may try a lookup now (its bucket and the overall one each have a token).
    pub fn may_try(&self, ip: IpAddr) -> bool {
        let Ok(mut inner) = self.inner.lock() else {
            return false;
        };
        let mine = inner
            .by_address
            .get_mut(&ip)
            .is_none_or(|b| b.has(LOOKUPS_PER_ADDRESS));
        mine && inner.overall.has(LOOKUPS_OVERALL)
    }

    /// A failed lookup from `ip`: a token spent from its bucket and the overall one.
    pub fn failed(&self, ip: IpAddr) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        if inner.by_address.len() >= REMEMBERED {
            inner
                .by_address
                .retain(|_, b| !b.is_full(LOOKUPS_PER_ADDRESS));
        }
        inner
            .by_address
            .entry(ip)
            .or_insert_with(|| Bucket::full(LOOKUPS_PER_ADDRESS))
            .take(LOOKUPS_PER_ADDRESS);
        inner.overall.take(LOOKUPS_OVERALL);
    }
}

/// The client's address, put on every request by the accept loop.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub IpAddr);

/// The open connections, counted in all and by address.
struct Doors {
    total: Arc<Semaphore>,
    by_address: Mutex<HashMap<IpAddr, usize>>,
    per_address: usize,
}

/// Why a connection is refused at the door.
#[derive(Debug, Clone, Copy)]
enum Refusal {
    Full,
    TooManyFromHere,
}

/// One admitted connection: its place given back when it closes.
struct Admitted {
    _permit: OwnedSemaphorePermit,
    ip: IpAddr,
    doors: Arc<Doors>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Ok(mut by) = self.doors.by_address.lock()
            && let Some(n) = by.get_mut(&self.ip)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                by.remove(&self.ip);
            }
        }
    }
}

impl Doors {
    fn admit(self: &Arc<Doors>, ip: IpAddr) -> Result<Admitted, Refusal> {
        let Ok(permit) = self.total.clone().try_acquire_owned() else {
            return Err(Refusal::Full);
        };
        let Ok(mut by) = self.by_address.lock() else {
            return Err(Refusal::Full);
        };
        let n = by.entry(ip).or_insert(0);
        if *n >= self.per_address {
            return Err(Refusal::TooManyFromHere);
        }
        *n += 1;
        Ok(Admitted {
            _permit: permit,
            ip,
            doors: self.clone(),
        })
    }
}

/// The headers every answer carries, the refusals at the door too (see `crate::secure`).
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    (
        "content-security-policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
         connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    ),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
];

/// The whole answer to a refused connection.
fn refusal_bytes(refusal: Refusal) -> Vec<u8> {
    let (status, retry, text) = match refusal {
        Refusal::Full => (
            "503 Service Unavailable",
            10,
            "The players' view is full just now; try again in a minute.\n",
        ),
        Refusal::TooManyFromHere => (
            "429 Too Many Requests",
            5,
            "Too many connections from this device; close some pages and try again.\n",
        ),
    };
    let mut head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\n\
         retry-after: {retry}\r\ncache-control: no-store\r\nconnection: close\r\n",
        text.len()
    );
    for (name, value) in SECURITY_HEADERS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(text);
    head.into_bytes()
}

/// How many refusals may be under way at once (each holds its socket up to two seconds).
const REFUSING: usize = 64;

/// Answers a refused connection and closes it: the sentence written, the client's request read
/// and dropped (closing over unread bytes would reset the connection before the client reads
/// the answer), two seconds at most.
fn refuse(stream: TcpStream, refusal: Refusal, refusing: &Arc<Semaphore>) {
    let Ok(permit) = refusing.clone().try_acquire_owned() else {
        // Too many refusals under way: closed without a word.
        return;
    };
    tokio::spawn(async move {
        let _permit = permit;
        let mut stream = stream;
        let answer = refusal_bytes(refusal);
        let _ = tokio::time::timeout(Duration::from_secs(2), async move {
            stream.write_all(&answer).await?;
            stream.shutdown().await?;
            let mut sink = [0u8; 1024];
            while stream.read(&mut sink).await? > 0 {}
            Ok::<(), std::io::Error>(())
        })
        .await;
    });
}

/// Serves `app` on `listener` within `limits` until `stop` fires.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) {
    let doors = Arc::new(Doors {
        total: Arc::new(Semaphore::new(limits.connections.max(1))),
        by_address: Mutex::new(HashMap::new()),
        per_address: limits.per_address.max(1),
    });
    let refusing = Arc::new(Semaphore::new(REFUSING));
    loop {
        let accepted = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            // Out of descriptors, or a connection reset before it was taken: wait a moment for
            // connections to close rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        match doors.admit(peer.ip()) {
            Ok(admitted) => {
                tokio::spawn(connection(stream, app.clone(), admitted, limits.clone()));
            }
            Err(refusal) => refuse(stream, refusal, &refusing),
        }
    }
}

/// A connection's socket, noting when a byte last moved either way.
struct Watched {
    inner: TcpStream,
    since: Instant,
    /// Milliseconds from `since` to the last byte moved.
    moved: Arc<std::sync::atomic::AtomicU64>,
}

impl Watched {
    fn mark(&self) {
        let ms = u64::try_from(self.since.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.moved.store(ms, std::sync::atomic::Ordering::Relaxed);
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let me = self.get_mut();
        let before = buf.filled().len();
        let poll = std::pin::Pin::new(&mut me.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            me.mark();
        }
        poll
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let me = self.get_mut();
        let poll = std::pin::Pin::new(&mut me.inner).poll_write(cx, buf);
        if matches!(poll, std::task::Poll::Ready(Ok(n)) if n > 0) {
            me.mark();
        }
        poll
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// One connection, HTTP/1.1, its client's address on every request; dropped once it has moved
/// no byte for the stall timeout; its place given back when it closes.
async fn connection(stream: TcpStream, app: Router, admitted: Admitted, limits: Limits) {
    let ip = admitted.ip;
    let tower = TowerToHyperService::new(app);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(Peer(ip));
        hyper::service::Service::call(&tower, request)
    });
    let moved = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let since = Instant::now();
    let watched = Watched {
        inner: stream,
        since,
        moved: moved.clone(),
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let served = builder.serve_connection(TokioIo::new(watched), service);
    tokio::pin!(served);
    let stall = limits.stall_timeout.max(Duration::from_millis(100));
    loop {
        tokio::select! {
            _ = &mut served => break,
            () = tokio::time::sleep(stall / 4) => {
                let last = Duration::from_millis(moved.load(std::sync::atomic::Ordering::Relaxed));
                if since.elapsed().saturating_sub(last) >= stall {
                    // Dropped with its socket.
                    break;
                }
            }
        }
    }
    drop(admitted);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_one_an_interval() {
        let rate = Rate {
            burst: 3,
            every: Duration::from_millis(200),
        };
        let mut b = Bucket::full(rate);
        assert!(b.take(rate) && b.take(rate) && b.take(rate));
        assert!(!b.take(rate), "the burst spent");
        std::thread::sleep(Duration::from_millis(250));
        assert!(b.take(rate), "one back after an interval");
        assert!(!b.take(rate));
    }

    #[test]
    fn failed_lookups_are_limited_per_address_and_overall() {
        let lookups = Lookups::default();
        let guesser = IpAddr::from([10, 0, 0, 1]);
        for _ in 0..LOOKUPS_PER_ADDRESS.burst {
            assert!(lookups.may_try(guesser));
            lookups.failed(guesser);
        }
        assert!(!lookups.may_try(guesser), "its ten spent");
        assert!(
            lookups.may_try(IpAddr::from([10, 0, 0, 2])),
            "another address may"
        );
        // From many addresses, the overall bucket stops them all.
        for k in 0..LOOKUPS_OVERALL.burst {
            let ip = IpAddr::from([10, 0, 1, u8::try_from(k).unwrap_or(0)]);
            if lookups.may_try(ip) {
                lookups.failed(ip);
            }
        }
        assert!(
            !lookups.may_try(IpAddr::from([10, 0, 2, 1])),
            "everyone's spent"
        );
    }

    #[test]
    fn a_refusal_is_a_whole_answer_with_a_sentence() {
        for (refusal, status) in [(Refusal::Full, "503"), (Refusal::TooManyFromHere, "429")] {
            let text = String::from_utf8(refusal_bytes(refusal)).unwrap_or_default();
            let (head, body) = text.split_once("\r\n\r\n").unwrap_or_default();
            assert!(head.starts_with(&format!("HTTP/1.1 {status}")), "{head}");
            assert!(
                head.contains(&format!("content-length: {}", body.len())),
                "{head}"
            );
            assert!(head.contains("x-content-type-options: nosniff"), "{head}");
            assert!(body.ends_with(".\n"), "a sentence: {body}");
        }
    }
}
