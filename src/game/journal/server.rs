//! A game on a PostgreSQL server, shared by several desks: the same journal as the game file, in
//! two tables. The server decides the order: an append names the place it expects its first
//! event to take and is refused whole ([`StoreError::Moved`]) when another desk got there first;
//! the game row is locked for the length of the append, so two desks never interleave. Every
//! committed append sends a notification (`NOTIFY umpire_journal`), which a [`Listener`] turns
//! into a signal for the desks to take in the new events.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, Config, NoTls};

use super::location::ServerAddress;
use super::{Entry, GameMeta, Store, StoreError};
use crate::game::event::Event;

/// The schema this build writes on a server.
pub const SERVER_SCHEMA_VERSION: i32 = 2;

/// The notification channel.
pub const CHANNEL: &str = "umpire_journal";

const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS umpire_schema (version INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS umpire_games (
        name       TEXT PRIMARY KEY,
        meta       JSONB NOT NULL,
        len        BIGINT NOT NULL DEFAULT 0,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE TABLE IF NOT EXISTS umpire_events (
        game TEXT NOT NULL REFERENCES umpire_games (name) ON DELETE CASCADE,
        seq  BIGINT NOT NULL,
        at   TIMESTAMPTZ NOT NULL,
        by   TEXT,
        kind TEXT NOT NULL,
        body JSONB NOT NULL,
        text TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (game, seq)
    );
";

/// A game on a server.
pub struct ServerGame {
    client: Client,
    address: ServerAddress,
    meta: GameMeta,
}

fn server_error(address: &ServerAddress, e: &postgres::Error) -> StoreError {
    let detail = match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => {
            let mut text = e.to_string();
            let mut source = std::error::Error::source(e);
            while let Some(s) = source {
                text = format!("{text}: {s}");
                source = s.source();
            }
            text
        }
    };
    let hint = if e.is_closed() || e.as_db_error().is_none() {
        " — is the server running and reachable? (`scripts/control-server.sh status`)"
    } else {
        ""
    };
    StoreError::Server {
        location: address.display(),
        message: format!("{detail}{hint}"),
    }
}

/// Connects to the server of `address` (5 s timeout unless the URL sets one).
pub fn connect(address: &ServerAddress) -> Result<Client, StoreError> {
    let mut config: Config =
        address
            .url
            .parse()
            .map_err(|e: postgres::Error| StoreError::Server {
                location: address.display(),
                message: format!("not a usable server URL: {e}"),
            })?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(5));
    }
    if config.get_application_name().is_none() {
        config.application_name("umpire");
    }
    config.connect(NoTls).map_err(|e| server_error(address, &e))
}

fn ensure_schema(client: &mut Client, address: &ServerAddress) -> Result<(), StoreError> {
    let err = |e: postgres::Error| server_error(address, &e);
    let mut tx = client.transaction().map_err(err)?;
    // One creator at a time (two desks starting on an empty database).
    tx.execute("SELECT pg_advisory_xact_lock(7355608)", &[])
        .map_err(err)?;
    tx.batch_execute(SCHEMA).map_err(err)?;
    let version: Option<i32> = tx
        .query_opt("SELECT version FROM umpire_schema", &[])
        .map_err(err)?
        .map(|r| r.get(0));
    match version {
        None => {
            tx.execute(
                "INSERT INTO umpire_schema (version) VALUES ($1)",
                &[&SERVER_SCHEMA_VERSION],
            )
            .map_err(err)?;
        }
        Some(v) if v < SERVER_SCHEMA_VERSION => {
            return Err(StoreError::Server {
                location: address.display(),
                message: format!(
                    "the server's games were written by an older Umpire (schema {v}, without the journal's hash chain) — start a new server database (`scripts/control-server.sh init --dir …`) and publish the games again from their files"
                ),
            });
        }
        Some(v) if v > SERVER_SCHEMA_VERSION => {
            return Err(StoreError::Server {
                location: address.display(),
                message: format!(
                    "the server's games were written by a newer Umpire (schema {v}; this build reads up to {SERVER_SCHEMA_VERSION}) — update Umpire"
                ),
            });
        }
        Some(_) => {}
    }
    tx.commit().map_err(err)
}

impl ServerGame {
    /// Puts a new game on the server; refuses a name already in use.
    pub fn create(address: &ServerAddress, meta: GameMeta) -> Result<ServerGame, StoreError> {
        let mut client = connect(address)?;
        ensure_schema(&mut client, address)?;
        let body = serde_json::to_value(&meta).map_err(|e| StoreError::Server {
            location: address.display(),
            message: e.to_string(),
        })?;
        let added = client
            .execute(
                "INSERT INTO umpire_games (name, meta) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                &[&address.game, &body],
            )
            .map_err(|e| server_error(address, &e))?;
        if added == 0 {
            return Err(StoreError::Server {
                location: address.display(),
                message: format!(
                    "a game called '{}' is already on this server — choose another name (a game is never overwritten)",
                    address.game
                ),
            });
        }
        Ok(ServerGame {
            client,
            address: address.clone(),
            meta,
        })
    }

    /// Opens a game on the server.
    pub fn open(address: &ServerAddress) -> Result<ServerGame, StoreError> {
        let mut client = connect(address)?;
        ensure_schema(&mut client, address)?;
        let row = client
            .query_opt(
                "SELECT meta FROM umpire_games WHERE name = $1",
                &[&address.game],
            )
            .map_err(|e| server_error(address, &e))?;
        let Some(row) = row else {
            let names: Vec<String> = client
                .query("SELECT name FROM umpire_games ORDER BY name LIMIT 20", &[])
                .map_err(|e| server_error(address, &e))?
                .iter()
                .map(|r| r.get(0))
                .collect();
            return Err(StoreError::Server {
                location: address.display(),
                message: format!(
                    "no game called '{}' on this server — games there: {}",
                    address.game,
                    if names.is_empty() {
                        "none (create one with `umpire game new … --server URL`)".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            });
        };
        let meta: serde_json::Value = row.get(0);
        let meta: GameMeta = serde_json::from_value(meta).map_err(|e| StoreError::Server {
            location: address.display(),
            message: format!("the game's description (meta) is unreadable: {e}"),
        })?;
        Ok(ServerGame {
            client,
            address: address.clone(),
            meta,
        })
    }

    /// Reconnects when the link dropped since the last call.
    fn client(&mut self) -> Result<&mut Client, StoreError> {
        if self.client.is_closed() {
            self.client = connect(&self.address)?;
        }
        Ok(&mut self.client)
    }
}

impl Store for ServerGame {
    fn meta(&self) -> &GameMeta {
        &self.meta
    }

    fn location(&self) -> String {
        self.address.display()
    }

    fn entries_after(&mut self, after: u64) -> Result<Vec<Entry>, StoreError> {
        let address = self.address.clone();
        let rows = self
            .client()?
            .query(
                "SELECT seq, text, hash FROM umpire_events WHERE game = $1 AND seq > $2 ORDER BY seq",
                &[&address.game, &(after as i64)],
            )
            .map_err(|e| server_error(&address, &e))?;
        let mut out = Vec::with_capacity(rows.len());
        for (expected, row) in (after + 1..).zip(rows.iter()) {
            let seq = row.get::<_, i64>(0) as u64;
            let damaged = |problem: String| StoreError::Server {
                location: address.display(),
                message: format!("journal entry {seq} is damaged ({problem})"),
            };
            if seq != expected {
                return Err(damaged(format!("entry {expected} is missing")));
            }
            let body: String = row.get(1);
            let event: Event = serde_json::from_str(&body).map_err(|e| damaged(e.to_string()))?;
            if event.seq != seq {
                return Err(damaged(format!("it says it is entry {}", event.seq)));
            }
            out.push(Entry {
                event,
                body,
                hash: row.get(2),
            });
        }
        Ok(out)
    }

    fn append(&mut self, entries: &[Entry]) -> Result<(), StoreError> {
        let Some(first) = entries.first().map(|e| &e.event) else {
            return Ok(());
        };
        let address = self.address.clone();
        let err = |e: postgres::Error| server_error(&address, &e);
        let client = self.client()?;
        let mut tx = client.transaction().map_err(err)?;
        let len: i64 = tx
            .query_one(
                "SELECT len FROM umpire_games WHERE name = $1 FOR UPDATE",
                &[&address.game],
            )
            .map_err(err)?
            .get(0);
        if first.seq != len as u64 + 1 {
            return Err(StoreError::Moved {
                location: address.display(),
                len: len as u64,
            });
        }
        let insert = tx
            .prepare(
                "INSERT INTO umpire_events (game, seq, at, by, kind, body, text, hash) VALUES ($1, $2, $3, $4, $5, $6::TEXT::JSONB, $6, $7)",
            )
            .map_err(err)?;
        for entry in entries {
            let event = &entry.event;
            tx.execute(
                &insert,
                &[
                    &address.game,
                    &(event.seq as i64),
                    &event.at,
                    &event.by,
                    &event.kind.name(),
                    &entry.body,
                    &entry.hash,
                ],
            )
            .map_err(err)?;
        }
        let last = entries.last().map_or(len, |e| e.event.seq as i64);
        tx.execute(
            "UPDATE umpire_games SET len = $2 WHERE name = $1",
            &[&address.game, &last],
        )
        .map_err(err)?;
        tx.execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &format!("{} {last}", address.game)],
        )
        .map_err(err)?;
        tx.commit().map_err(err)
    }

    fn is_shared(&self) -> bool {
        true
    }

    fn integrity_check(&mut self) -> Result<String, StoreError> {
        let address = self.address.clone();
        let row = self
            .client()?
            .query_one(
                "SELECT g.len, COUNT(e.seq), COALESCE(MAX(e.seq), 0) FROM umpire_games g
                 LEFT JOIN umpire_events e ON e.game = g.name WHERE g.name = $1 GROUP BY g.len",
                &[&address.game],
            )
            .map_err(|e| server_error(&address, &e))?;
        let (len, count, max): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        Ok(if len == count && count == max {
            "ok".to_string()
        } else {
            format!("journal length {len}, {count} entries, last entry {max}: they should agree")
        })
    }
}

/// What the listener tells a desk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signal {
    /// The journal now has this many entries (another desk, or this one, appended).
    Moved(u64),
    /// The link to the server is down (why); the listener keeps trying.
    Down(String),
    /// The link is back (take in whatever happened meanwhile).
    Up,
}

/// A listener for one game: a thread of its own with its own connection, sending [`Signal`]s.
/// It reconnects by itself after a dropped link, and stops when dropped.
pub struct Listener {
    signals: Receiver<Signal>,
    stop: Arc<AtomicBool>,
}

impl Listener {
    /// Signals received since the last call, without waiting.
    pub fn try_iter(&self) -> impl Iterator<Item = Signal> + '_ {
        self.signals.try_iter()
    }

    /// The next signal, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Signal> {
        self.signals.recv_timeout(timeout).ok()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Starts listening for appends to one game. The first signal is [`Signal::Up`] once the
/// listener is connected (or [`Signal::Down`] if it can't connect).
pub fn listen(address: &ServerAddress) -> Listener {
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let address = address.clone();
    thread::Builder::new()
        .name(format!("umpire-listen-{}", address.game))
        .spawn(move || listen_loop(&address, &tx, &flag))
        .ok();
    Listener { signals: rx, stop }
}

fn listen_loop(address: &ServerAddress, tx: &Sender<Signal>, stop: &AtomicBool) {
    let prefix = format!("{} ", address.game);
    let mut reported_down = false;
    while !stop.load(Ordering::Relaxed) {
        let connected = connect(address).and_then(|mut c| {
            c.batch_execute(&format!("LISTEN {CHANNEL}"))
                .map_err(|e| server_error(address, &e))?;
            Ok(c)
        });
        let mut client = match connected {
            Ok(c) => c,
            Err(e) => {
                if !reported_down {
                    reported_down = true;
                    let _ = tx.send(Signal::Down(e.to_string()));
                }
                thread::sleep(Duration::from_millis(300));
                continue;
            }
        };
        if tx.send(Signal::Up).is_err() {
            return;
        }
        let mut quiet = 0u32;
        while !stop.load(Ordering::Relaxed) {
            let next = client
                .notifications()
                .timeout_iter(Duration::from_millis(100))
                .next();
            match next {
                Ok(Some(n)) => {
                    quiet = 0;
                    if let Some(len) = n
                        .payload()
                        .strip_prefix(&prefix)
                        .and_then(|l| l.parse::<u64>().ok())
                        && tx.send(Signal::Moved(len)).is_err()
                    {
                        return;
                    }
                }
                Ok(None) => {
                    // Every half second of quiet, make sure the link is still there.
                    quiet += 1;
                    if quiet >= 5 {
                        quiet = 0;
                        if client.is_valid(Duration::from_secs(1)).is_err() {
                            break;
                        }
                    }
                }
                Err(_) => break,
            }
        }
        if stop.load(Ordering::Relaxed) {
            return;
        }
        reported_down = true;
        if tx
            .send(Signal::Down("the link to the server dropped".into()))
            .is_err()
        {
            return;
        }
    }
}
