//! The game file: an SQLite database (rusqlite, bundled SQLite) holding the scenario and seed the
//! game started from and the journal as an append-only table of events. Every event is committed
//! in its own transaction, in WAL mode with synchronous writes, before it counts as done, so a
//! crash loses at most the action in flight.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::event::{Event, EventKind};

/// Marks a SQLite file as an Umpire game ("UMPR").
pub const APPLICATION_ID: i64 = 0x554D_5052;

/// The schema this build writes. Older files are migrated on open; newer ones are refused.
pub const SCHEMA_VERSION: i64 = 2;

/// Problems with a game file.
#[derive(Debug, Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("{path}: {source}")]
    Sqlite {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// The file is not an Umpire game.
    #[error("{path} is not an Umpire game file — open a file made by `umpire game new`")]
    NotAGame {
        /// The file.
        path: PathBuf,
    },
    /// Written by a newer Umpire.
    #[error(
        "{path} was written by a newer Umpire (game file version {found}; this build reads up to {supported}) — update Umpire to open it"
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// Ours.
        supported: i64,
    },
    /// No file there.
    #[error("no game file at {path} — create one with `umpire game new SCENARIO -o FILE`")]
    NotFound {
        /// The path.
        path: PathBuf,
    },
    /// A damaged entry.
    #[error(
        "{path}: journal entry {seq} is damaged ({problem}) — the entries before it are intact; `umpire game export` can recover them"
    )]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The entry.
        seq: u64,
        /// What is wrong.
        problem: String,
    },
    /// Refused to overwrite.
    #[error("{path} already exists — choose another file name (a game file is never overwritten)")]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// Another desk wrote to the journal first: the events offered were not appended.
    #[error(
        "{location}: another desk added to the journal first (it now has {len} entries) — refresh and try again"
    )]
    Moved {
        /// The game.
        location: String,
        /// Entries the journal has now.
        len: u64,
    },
    /// The PostgreSQL server refused or could not be reached.
    #[error("{location}: {message}")]
    Server {
        /// The game (server URL without password, and game name).
        location: String,
        /// What went wrong, and what to do.
        message: String,
    },
}

/// Where a game's journal is kept: the one interface the game logic talks to. Two backends: the
/// SQLite game file ([`GameFile`], the default, no server) and a game on a PostgreSQL server
/// ([`super::pg::ServerGame`], shared by several desks).
pub trait Journal: Send {
    /// What the game started from.
    fn meta(&self) -> &GameMeta;
    /// Where it is, for people (a path, or a server URL without password and the game name).
    fn location(&self) -> String;
    /// Every event, in journal order.
    fn events(&mut self) -> Result<Vec<Event>, StoreError>;
    /// The events after entry `after`, in order (the ones other desks added since).
    fn events_after(&mut self, after: u64) -> Result<Vec<Event>, StoreError>;
    /// Appends events atomically, all or none. Their `seq` must continue the journal; when
    /// another desk wrote first the append is refused with [`StoreError::Moved`] and nothing is
    /// written. Durable when this returns.
    fn append(&mut self, events: &[Event]) -> Result<(), StoreError>;
    /// The backend's own integrity check ("ok" when sound).
    fn integrity_check(&mut self) -> Result<String, StoreError>;
    /// The game file, when the journal is one.
    fn as_file(&self) -> Option<&GameFile> {
        None
    }
}

/// What a game started from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameMeta {
    /// Ruleset id.
    pub ruleset: String,
    /// Scenario id.
    pub scenario: String,
    /// Where the scenario came from (`embedded:…` or a path).
    pub scenario_file: String,
    /// The scenario's YAML, as it was when the game began.
    pub scenario_text: String,
    /// Seed of the app dice.
    pub seed: u64,
    /// Umpire version that created the file.
    pub created_by: String,
}

/// An open game file.
pub struct GameFile {
    conn: Connection,
    path: PathBuf,
    meta: GameMeta,
}

fn sql(path: &Path) -> impl FnOnce(rusqlite::Error) -> StoreError + '_ {
    move |source| StoreError::Sqlite {
        path: path.to_path_buf(),
        source,
    }
}

fn configure(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    // WAL with synchronous=FULL: each commit is durable when it returns.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(sql(path))?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(sql(path))?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(sql(path))?;
    Ok(())
}

/// Schema changes, in order: entry `i` takes a file from version `i + 1` to `i + 2`.
const MIGRATIONS: [&str; 1] = [
    // 1 → 2: who made each event (shared games need it).
    "ALTER TABLE events ADD COLUMN by TEXT;",
];

const SCHEMA_V1: &str = "
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE events (
        seq  INTEGER PRIMARY KEY,
        at   TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL
    );
";

impl GameFile {
    /// Creates a new game file; refuses to overwrite.
    pub fn create(path: &Path, meta: GameMeta) -> Result<GameFile, StoreError> {
        if path.exists() {
            return Err(StoreError::Exists {
                path: path.to_path_buf(),
            });
        }
        let conn = Connection::open(path).map_err(sql(path))?;
        configure(&conn, path)?;
        let tx_sql = format!(
            "BEGIN; {SCHEMA_V1} {} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;",
            MIGRATIONS.join(" ")
        );
        conn.execute_batch(&tx_sql).map_err(sql(path))?;
        let body = serde_json::to_string(&meta).unwrap_or_default();
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('game', ?1)",
            params![body],
        )
        .map_err(sql(path))?;
        Ok(GameFile {
            conn,
            path: path.to_path_buf(),
            meta,
        })
    }

    /// Creates a game file with only the version-1 schema (for migration tests).
    #[doc(hidden)]
    pub fn create_v1_for_tests(path: &Path, meta: &GameMeta) -> Result<(), StoreError> {
        let conn = Connection::open(path).map_err(sql(path))?;
        conn.execute_batch(&format!(
            "{SCHEMA_V1} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = 1;"
        ))
        .map_err(sql(path))?;
        let body = serde_json::to_string(meta).unwrap_or_default();
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('game', ?1)",
            params![body],
        )
        .map_err(sql(path))?;
        Ok(())
    }

    /// Opens a game file, migrating an older one; refuses one from a newer Umpire.
    pub fn open(path: &Path) -> Result<GameFile, StoreError> {
        if !path.is_file() {
            return Err(StoreError::NotFound {
                path: path.to_path_buf(),
            });
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)
            .map_err(sql(path))?;
        let app: i64 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(|_| StoreError::NotAGame {
                path: path.to_path_buf(),
            })?;
        if app != APPLICATION_ID {
            return Err(StoreError::NotAGame {
                path: path.to_path_buf(),
            });
        }
        configure(&conn, path)?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(sql(path))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::Newer {
                path: path.to_path_buf(),
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        if version < 1 {
            return Err(StoreError::NotAGame {
                path: path.to_path_buf(),
            });
        }
        for (i, step) in MIGRATIONS.iter().enumerate().skip((version - 1) as usize) {
            let to = i as i64 + 2;
            conn.execute_batch(&format!(
                "BEGIN; {step} PRAGMA user_version = {to}; COMMIT;"
            ))
            .map_err(sql(path))?;
        }
        let body: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'game'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql(path))?;
        let meta: GameMeta = body
            .and_then(|b| serde_json::from_str(&b).ok())
            .ok_or_else(|| StoreError::Damaged {
                path: path.to_path_buf(),
                seq: 0,
                problem: "the game's description (meta) is missing or unreadable".into(),
            })?;
        Ok(GameFile {
            conn,
            path: path.to_path_buf(),
            meta,
        })
    }

    /// What the game started from.
    pub fn meta(&self) -> &GameMeta {
        &self.meta
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one event in its own transaction; it is durable when this returns.
    pub fn append(&self, event: &Event) -> Result<(), StoreError> {
        self.append_all(std::slice::from_ref(event))
    }

    /// Appends events in one transaction (all or none); durable when this returns. Refuses
    /// with [`StoreError::Moved`] when the first one does not continue the journal.
    pub fn append_all(&self, events: &[Event]) -> Result<(), StoreError> {
        let Some(first) = events.first() else {
            return Ok(());
        };
        let tx = self.conn.unchecked_transaction().map_err(sql(&self.path))?;
        let len: i64 = tx
            .query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))
            .map_err(sql(&self.path))?;
        if first.seq != len as u64 + 1 {
            return Err(StoreError::Moved {
                location: self.path.display().to_string(),
                len: len as u64,
            });
        }
        for event in events {
            let body = serde_json::to_string(event).map_err(|e| StoreError::Damaged {
                path: self.path.clone(),
                seq: event.seq,
                problem: e.to_string(),
            })?;
            tx.execute(
                "INSERT INTO events (seq, at, by, kind, body) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    event.seq as i64,
                    event.at.to_rfc3339(),
                    event.by,
                    event.kind.name(),
                    body
                ],
            )
            .map_err(sql(&self.path))?;
        }
        tx.commit().map_err(sql(&self.path))?;
        Ok(())
    }

    /// Every event, in journal order.
    pub fn events(&self) -> Result<Vec<Event>, StoreError> {
        self.events_from(0)
    }

    /// The events after entry `after`, in journal order.
    pub fn events_from(&self, after: u64) -> Result<Vec<Event>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT seq, body FROM events WHERE seq > ?1 ORDER BY seq")
            .map_err(sql(&self.path))?;
        let rows = stmt
            .query_map([after as i64], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(sql(&self.path))?;
        let mut out = Vec::new();
        for (expected, row) in (after + 1..).zip(rows) {
            let (seq, body) = row.map_err(sql(&self.path))?;
            let seq = seq as u64;
            if seq != expected {
                return Err(StoreError::Damaged {
                    path: self.path.clone(),
                    seq: expected,
                    problem: format!("entry {expected} is missing (next is {seq})"),
                });
            }
            let event: Event = serde_json::from_str(&body).map_err(|e| StoreError::Damaged {
                path: self.path.clone(),
                seq,
                problem: e.to_string(),
            })?;
            if event.seq != seq {
                return Err(StoreError::Damaged {
                    path: self.path.clone(),
                    seq,
                    problem: format!("it says it is entry {}", event.seq),
                });
            }
            out.push(event);
        }
        Ok(out)
    }

    /// SQLite's own integrity check ("ok" when sound).
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(sql(&self.path))
    }

    /// Whether the first event is the game's start (a sanity check on open).
    pub fn starts_properly(events: &[Event]) -> bool {
        events
            .first()
            .is_some_and(|e| matches!(e.kind, EventKind::GameStarted { .. }))
    }
}

impl Journal for GameFile {
    fn meta(&self) -> &GameMeta {
        &self.meta
    }

    fn location(&self) -> String {
        self.path.display().to_string()
    }

    fn events(&mut self) -> Result<Vec<Event>, StoreError> {
        GameFile::events(self)
    }

    fn events_after(&mut self, after: u64) -> Result<Vec<Event>, StoreError> {
        self.events_from(after)
    }

    fn append(&mut self, events: &[Event]) -> Result<(), StoreError> {
        self.append_all(events)
    }

    fn integrity_check(&mut self) -> Result<String, StoreError> {
        GameFile::integrity_check(self)
    }

    fn as_file(&self) -> Option<&GameFile> {
        Some(self)
    }
}
