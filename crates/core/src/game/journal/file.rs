//! The game file: an SQLite database (rusqlite, bundled SQLite) holding what the game started from
//! (the scenario's text, the secret seed and its commitment) and the journal as an append-only
//! table of entries, each with its exact text and its hash in the chain. Every action's entries
//! are committed in one transaction, in WAL mode with synchronous writes, before they count as
//! done, so a crash loses at most the action in flight.

use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::time::{Duration, Instant};

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};

use super::error::StoreError;
use super::meta::GameMeta;
use super::{Entry, Head, Store, chain};
use crate::game::event::Event;

/// Marks a SQLite file as an Umpire game ("UMPR").
pub const APPLICATION_ID: i64 = 0x554D_5052;

/// The schema this build writes. Older files are migrated only when asked (`umpire game
/// migrate`); newer ones are refused.
pub const SCHEMA_VERSION: i64 = 3;

/// An open game file.
pub struct GameFile {
    conn: Connection,
    path: PathBuf,
    meta: GameMeta,
    /// Checkpoints the file when writing pauses (none for a file being built, or read-only).
    idle: Option<IdleCheckpoint>,
    /// Why it was opened for reading only (the file or its folder may not be written), if so.
    read_only: Option<String>,
}

fn sql(path: &Path) -> impl FnOnce(rusqlite::Error) -> StoreError + '_ {
    move |source| sqlite_error(path, source)
}

/// What SQLite said, typed: a lock held past [`BUSY_WAIT`] is [`StoreError::Busy`].
fn sqlite_error(path: &Path, source: rusqlite::Error) -> StoreError {
    if source.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) {
        return StoreError::Busy {
            path: path.to_path_buf(),
            waited: BUSY_WAIT,
        };
    }
    StoreError::Sqlite {
        path: path.to_path_buf(),
        source,
    }
}

/// How long a write waits for another process writing the same game file (another desk, an
/// `umpire game …` command) before giving up with [`StoreError::Busy`].
pub const BUSY_WAIT: Duration = Duration::from_secs(10);

/// What to do when a write starts waiting for another process (see [`on_busy_wait`]).
static BUSY_NOTICE: RwLock<Option<fn(&Path)>> = RwLock::new(None);

/// Installs `notice`, called on the waiting thread each time a game file's write has to wait
/// for another process, before the wait (of up to [`BUSY_WAIT`]). The library says nothing
/// itself: the command line installs a line on standard error, the desk nothing.
pub fn on_busy_wait(notice: fn(&Path)) {
    if let Ok(mut slot) = BUSY_NOTICE.write() {
        *slot = Some(notice);
    }
}

fn busy_notice(path: &Path) {
    let notice = BUSY_NOTICE.read().ok().and_then(|slot| *slot);
    if let Some(notice) = notice {
        notice(path);
    }
}

/// Whether `path` is an Umpire game file, from its first 72 bytes: SQLite's header ("SQLite
/// format 3\0" at 0) with [`APPLICATION_ID`] at byte 68 (big-endian). A file whose header is
/// SQLite's with no application id yet, next to a `-wal` file (a game written by an older Umpire
/// and never checkpointed), is asked through SQLite; if that fails, it counts as a game: this
/// probe guards against overwriting one.
pub fn is_game_file(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 72];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut header));
    if read.is_err() || !header.starts_with(b"SQLite format 3\0") {
        return false;
    }
    let id = u32::from_be_bytes([header[68], header[69], header[70], header[71]]);
    if i64::from(id) == APPLICATION_ID {
        return true;
    }
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    if id != 0 || !Path::new(&wal).exists() {
        return false;
    }
    Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .and_then(|c| c.pragma_query_value(None, "application_id", |r| r.get::<_, i64>(0)))
        .map_or(true, |app| app == APPLICATION_ID)
}

fn configure(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    // Another process writing: wait for it (up to BUSY_WAIT), saying so once per wait. Replaces
    // SQLite's own busy timeout, which waits silently.
    let waiting_for = path.to_path_buf();
    let mut since = Instant::now();
    conn.busy_handler(Some(move |count: i32| {
        if count == 0 {
            since = Instant::now();
            busy_notice(&waiting_for);
        }
        if since.elapsed() >= BUSY_WAIT {
            return false;
        }
        let pause = [1, 2, 5, 10, 20, 25][usize::try_from(count).unwrap_or(0).min(5)];
        std::thread::sleep(Duration::from_millis(pause));
        true
    }))
    .map_err(sql(path))?;
    // A transaction takes the write lock when it begins: only then does SQLite wait for another
    // writer (a read transaction that later writes gets SQLITE_BUSY at once).
    conn.set_transaction_behavior(rusqlite::TransactionBehavior::Immediate);
    // WAL with synchronous=FULL: each commit is durable when it returns.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(sql(path))?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(sql(path))?;
    Ok(())
}

/// Schema changes in SQL, in order: entry `i` takes a file from version `i + 1` to `i + 2`.
/// (2 → 3 also fills in the hash chain and the seed commitment: see [`GameFile::open`].)
const MIGRATIONS: [&str; 2] = [
    // 1 → 2: who made each event (shared games need it).
    "ALTER TABLE events ADD COLUMN by TEXT;",
    // 2 → 3: each entry's hash in the chain.
    "ALTER TABLE events ADD COLUMN hash TEXT;",
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

fn write_meta(conn: &Connection, path: &Path, meta: &GameMeta) -> Result<(), StoreError> {
    let body = serde_json::to_string(meta).map_err(|e| StoreError::Damaged {
        path: path.to_path_buf(),
        seq: 0,
        problem: e.to_string(),
    })?;
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('game', ?1)",
        params![body],
    )
    .map_err(sql(path))?;
    Ok(())
}

/// Records where the journal stands, in the same transaction as the append: a journal cut
/// short (an old copy put back, entries deleted at the end) no longer matches it.
fn write_head(conn: &Connection, path: &Path, entries: u64, hash: &str) -> Result<(), StoreError> {
    let head = Head {
        entries,
        hash: hash.to_string(),
    };
    let text = serde_json::to_string(&head).unwrap_or_default();
    // An UPDATE in place touches one page; INSERT OR REPLACE would delete and re-insert the row
    // (a new rowid, the key's index page too): a commit's write-ahead log grew by two pages.
    let updated = conn
        .prepare_cached("UPDATE meta SET value = ?1 WHERE key = 'head'")
        .and_then(|mut st| st.execute(params![text]))
        .map_err(sql(path))?;
    if updated == 0 {
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('head', ?1)",
            params![text],
        )
        .map_err(sql(path))?;
    }
    Ok(())
}

impl GameFile {
    /// Creates a new game file (no journal entries yet); refuses to overwrite. See
    /// [`GameFile::create_with`].
    pub fn create(path: &Path, meta: GameMeta) -> Result<GameFile, StoreError> {
        GameFile::create_with(path, meta, &[])
    }

    /// Creates a new game file holding `meta` and the journal's first entries (the game's
    /// start), whole or not at all: it is built under a temporary name in the same folder
    /// (`.NAME.new-PID-N`), checkpointed and closed, then renamed into place by a rename that
    /// never replaces. A process killed at any moment leaves either the complete file or nothing
    /// at `path` (a temporary file at most, which the next create for `path` clears); a file
    /// that appeared at `path` meanwhile is kept, and this is refused with
    /// [`StoreError::Exists`].
    pub fn create_with(
        path: &Path,
        meta: GameMeta,
        first_entries: &[Entry],
    ) -> Result<GameFile, StoreError> {
        use crate::game::output::{clear_stale_temps, rename_no_replace, sync_folder, temp_beside};
        let exists = || StoreError::Exists {
            path: path.to_path_buf(),
        };
        let io = |source| StoreError::Io {
            path: path.to_path_buf(),
            source,
        };
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(exists());
        }
        clear_stale_temps(path);
        let tmp = temp_beside(path, "new").map_err(io)?;
        if let Err(e) = GameFile::build(&tmp, path, &meta, first_entries) {
            remove_with_sidecars(&tmp);
            return Err(e);
        }
        if let Err(e) = rename_no_replace(&tmp, path) {
            remove_with_sidecars(&tmp);
            return Err(if e.kind() == std::io::ErrorKind::AlreadyExists {
                exists()
            } else {
                io(e)
            });
        }
        remove_with_sidecars(&tmp);
        sync_folder(path);
        GameFile::open(path)
    }

    /// Writes a whole game file at `tmp` (errors name `path`, the file being created): schema
    /// and meta in one transaction, then the first entries through [`GameFile::append_all`]
    /// (one code path for every journal entry). Nobody else can see `tmp`, so two transactions
    /// are as good as one; the rename makes the whole visible at once. Ends checkpointed, so the
    /// main file alone holds everything and the rename leaves no `-wal` behind to lose.
    fn build(
        tmp: &Path,
        path: &Path,
        meta: &GameMeta,
        first_entries: &[Entry],
    ) -> Result<(), StoreError> {
        let mut conn = Connection::open_with_flags(
            tmp,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE,
        )
        .map_err(sql(path))?;
        configure(&mut conn, path)?;
        let tx = conn.transaction().map_err(sql(path))?;
        tx.execute_batch(&format!(
            "{SCHEMA_V1} {} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};",
            MIGRATIONS.join(" ")
        ))
        .map_err(sql(path))?;
        write_meta(&tx, path, meta)?;
        tx.commit().map_err(sql(path))?;
        let file = GameFile {
            conn,
            path: path.to_path_buf(),
            meta: meta.clone(),
            idle: None,
            read_only: None,
        };
        file.append_all(first_entries)?;
        file.checkpoint()
        // Dropped: closed; SQLite removes the emptied `-wal` with the last connection.
    }

    /// Copies the write-ahead log into the game file itself and empties it (`PRAGMA
    /// wal_checkpoint(TRUNCATE)`), so that the file alone — copied to a USB stick without its
    /// `-wal` — holds every committed action. Done when the file is closed; waits for another
    /// process's write like any write.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        if self.read_only.is_some() {
            return Ok(());
        }
        let (busy, _log, _done): (i64, i64, i64) = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .map_err(sql(&self.path))?;
        if busy != 0 {
            return Err(StoreError::Busy {
                path: self.path.clone(),
                waited: BUSY_WAIT,
            });
        }
        Ok(())
    }

    /// Creates a game file with only the version-1 schema (for migration tests).
    #[doc(hidden)]
    pub fn create_v1_for_tests(path: &Path, meta: &GameMeta) -> Result<(), StoreError> {
        let conn = Connection::open(path).map_err(sql(path))?;
        conn.execute_batch(&format!(
            "{SCHEMA_V1} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = 1;"
        ))
        .map_err(sql(path))?;
        // Version 1 wrote the seed as a plain number, with no commitment.
        let mut legacy = serde_json::to_value(meta).map_err(|e| StoreError::Damaged {
            path: path.to_path_buf(),
            seq: 0,
            problem: e.to_string(),
        })?;
        if let Some(o) = legacy.as_object_mut() {
            o.remove("salt");
            o.remove("seed_commitment");
            o.remove("seed_public");
        }
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ('game', ?1)",
            params![legacy.to_string()],
        )
        .map_err(sql(path))?;
        Ok(())
    }

    /// Opens a game file; refuses one from a newer Umpire, and one from an older Umpire (never
    /// migrated silently: [`GameFile::migrate`] does it when asked, and says so). A file this
    /// process may not write (`chmod 444`, a read-only folder or medium) is opened for reading:
    /// reading works, and every write is refused with [`StoreError::ReadOnly`], which says
    /// why — never "not an Umpire game file".
    pub fn open(path: &Path) -> Result<GameFile, StoreError> {
        GameFile::open_at(path, false).map(|(_, file)| file)
    }

    /// Brings a game file written by an older Umpire up to this build's schema (the version it
    /// had is returned): its entries are hashed as they stand, and the chain vouches for them
    /// from then on. Refused for a file that shows it was at this schema once ([`StoreError::
    /// Downgraded`]): migrating it would vouch for whatever was edited into it.
    pub fn migrate(path: &Path) -> Result<(i64, GameFile), StoreError> {
        GameFile::open_at(path, true)
    }

    /// What shows an older-looking file was written at the current schema: a recorded head, a
    /// hash column, a seed commitment — all of which only the current schema writes.
    fn newer_evidence(conn: &Connection, body: Option<&str>) -> Option<String> {
        let head: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'head'", [], |r| {
                r.get(0)
            })
            .optional()
            .ok()
            .flatten();
        if head.is_some() {
            return Some("it records a journal head".into());
        }
        if conn.prepare("SELECT hash FROM events LIMIT 1").is_ok() {
            return Some("its entries have a hash column".into());
        }
        let committed = body
            .and_then(|b| serde_json::from_str::<serde_json::Value>(b).ok())
            .and_then(|v| {
                v.get("seed_commitment")
                    .and_then(|c| c.as_str())
                    .map(|c| !c.is_empty())
            })
            .unwrap_or(false);
        committed.then(|| "its description commits to a seed".into())
    }

    fn open_at(path: &Path, migrate: bool) -> Result<(i64, GameFile), StoreError> {
        if !path.is_file() {
            return Err(StoreError::NotFound {
                path: path.to_path_buf(),
            });
        }
        if let Some(why) = file_read_only(path) {
            return GameFile::open_read_only(path, why, migrate);
        }
        match GameFile::open_writable(path, migrate) {
            Ok(file) => Ok(file),
            // SQLite keeps files beside a game it writes (`-wal`, `-shm`): a folder that may not
            // be written keeps it from opening the file for writing.
            Err(e) if !folder_writable(path) => {
                GameFile::open_read_only(path, "its folder is read-only".into(), migrate)
                    .map_err(|_| e)
            }
            Err(e) => Err(e),
        }
    }

    /// Opens a game file this process may not write, for reading. SQLite reads a game in WAL
    /// mode through a shared-memory file beside it; where that cannot be made (a read-only
    /// folder) and no write-ahead log is there (so the file alone holds every entry), it is
    /// read as immutable.
    fn open_read_only(
        path: &Path,
        why: String,
        migrate: bool,
    ) -> Result<(i64, GameFile), StoreError> {
        let readable = |conn: &Connection| {
            conn.pragma_query_value(None, "application_id", |r| r.get::<_, i64>(0))
                .is_ok()
        };
        let mut conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(sql(path))?;
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        if !readable(&conn) && !Path::new(&wal).exists() {
            conn = Connection::open_with_flags(
                format!("file:{}?immutable=1", uri_path(path)),
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
            )
            .map_err(sql(path))?;
        }
        GameFile::opened(path, conn, Some(why), migrate)
    }

    fn open_writable(path: &Path, migrate: bool) -> Result<(i64, GameFile), StoreError> {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)
            .map_err(sql(path))?;
        GameFile::opened(path, conn, None, migrate)
    }

    /// Checks an open connection is a game of a version this build reads and reads its meta;
    /// an older one is refused, or migrated when `migrate` asks (which writes: refused on a
    /// read-only file). Returns the version it had.
    fn opened(
        path: &Path,
        mut conn: Connection,
        read_only: Option<String>,
        migrate: bool,
    ) -> Result<(i64, GameFile), StoreError> {
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
        if read_only.is_none() {
            configure(&mut conn, path)?;
        }
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
        if let Some(why) = &read_only
            && version < SCHEMA_VERSION
            && migrate
        {
            return Err(StoreError::ReadOnly {
                path: path.to_path_buf(),
                why: format!(
                    "{why}, and it was written by an older Umpire: bringing it up to date writes to it"
                ),
            });
        }
        let body: Option<String> = conn
            .query_row("SELECT value FROM meta WHERE key = 'game'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql(path))?;
        if version < SCHEMA_VERSION {
            if let Some(evidence) = GameFile::newer_evidence(&conn, body.as_deref()) {
                return Err(StoreError::Downgraded {
                    path: path.to_path_buf(),
                    found: version,
                    supported: SCHEMA_VERSION,
                    evidence,
                });
            }
            if !migrate {
                return Err(StoreError::Older {
                    path: path.to_path_buf(),
                    found: version,
                    supported: SCHEMA_VERSION,
                });
            }
        }
        let mut meta: GameMeta = body
            .and_then(|b| serde_json::from_str(&b).ok())
            .ok_or_else(|| StoreError::Damaged {
                path: path.to_path_buf(),
                seq: 0,
                problem: "the game's description (meta) is missing or unreadable".into(),
            })?;
        let mut file = GameFile {
            conn,
            path: path.to_path_buf(),
            meta: meta.clone(),
            idle: match read_only {
                None => IdleCheckpoint::start(path),
                Some(_) => None,
            },
            read_only,
        };
        for (i, step) in MIGRATIONS.iter().enumerate().skip((version - 1) as usize) {
            let to = i as i64 + 2;
            let tx = file.conn.unchecked_transaction().map_err(sql(&file.path))?;
            tx.execute_batch(step).map_err(sql(&file.path))?;
            if to == 3 {
                // The chain begins here: the entries so far are hashed as they stand, and the
                // seed (printed by earlier versions) gets a commitment and is marked public.
                meta.upgrade_legacy();
                write_meta(&tx, &file.path, &meta)?;
                file.meta = meta.clone();
                file.hash_all(&tx)?;
            }
            tx.execute_batch(&format!("PRAGMA user_version = {to};"))
                .map_err(sql(&file.path))?;
            tx.commit().map_err(sql(&file.path))?;
        }
        Ok((version, file))
    }

    /// Whether the recorded head is missing from a file that has entries: every append at this
    /// schema records it in the same transaction (and the migration to it records it), so a
    /// missing one was deleted — with it, entries cut off the end would go unnoticed.
    pub fn head_row_missing(&self) -> Result<bool, StoreError> {
        let entries: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
            .map_err(sql(&self.path))?;
        Ok(entries > 0 && self.recorded_head()?.is_none())
    }

    /// Fills in the hash of every entry, from the genesis (the 2 → 3 migration).
    fn hash_all(&self, conn: &Connection) -> Result<(), StoreError> {
        let mut previous = self.meta.genesis();
        let rows: Vec<(i64, String)> = {
            let mut stmt = conn
                .prepare("SELECT seq, body FROM events ORDER BY seq")
                .map_err(sql(&self.path))?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(sql(&self.path))?
                .collect::<Result<_, _>>()
                .map_err(sql(&self.path))?
        };
        for (seq, body) in rows {
            let hash = chain::link(&previous, &body);
            conn.execute(
                "UPDATE events SET hash = ?1 WHERE seq = ?2",
                params![hash, seq],
            )
            .map_err(sql(&self.path))?;
            write_head(conn, &self.path, seq as u64, &hash)?;
            previous = hash;
        }
        Ok(())
    }

    /// What the game started from.
    pub fn meta(&self) -> &GameMeta {
        &self.meta
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends entries in one transaction (all or none); durable when this returns. Refuses
    /// with [`StoreError::Moved`] when the first one does not continue the journal.
    pub fn append_all(&self, entries: &[Entry]) -> Result<(), StoreError> {
        let Some(first) = entries.first() else {
            return Ok(());
        };
        if let Some(why) = &self.read_only {
            return Err(StoreError::ReadOnly {
                path: self.path.clone(),
                why: why.clone(),
            });
        }
        let tx = self.conn.unchecked_transaction().map_err(sql(&self.path))?;
        let len: i64 = tx
            .prepare_cached("SELECT COALESCE(MAX(seq), 0) FROM events")
            .and_then(|mut st| st.query_row([], |r| r.get(0)))
            .map_err(sql(&self.path))?;
        if first.event.seq != len as u64 + 1 {
            return Err(StoreError::Moved {
                location: self.path.display().to_string(),
                len: len as u64,
            });
        }
        for entry in entries {
            let event = &entry.event;
            tx.prepare_cached(
                "INSERT INTO events (seq, at, by, kind, body, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )
            .and_then(|mut st| {
                st.execute(params![
                    event.seq as i64,
                    event.at.to_rfc3339(),
                    event.by,
                    event.kind.name(),
                    entry.body,
                    entry.hash
                ])
            })
            .map_err(sql(&self.path))?;
        }
        if let Some(last) = entries.last() {
            write_head(&tx, &self.path, last.event.seq, &last.hash)?;
        }
        tx.commit().map_err(sql(&self.path))?;
        Ok(())
    }

    /// The head the file says its journal has (written with every append; see
    /// [`Store::recorded_head`]).
    pub fn recorded_head(&self) -> Result<Option<Head>, StoreError> {
        let text: Option<String> = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'head'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(sql(&self.path))?;
        Ok(text.and_then(|t| serde_json::from_str(&t).ok()))
    }

    /// The entries after entry `after`, in journal order.
    pub fn entries_from(&self, after: u64) -> Result<Vec<Entry>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT seq, body, hash FROM events WHERE seq > ?1 ORDER BY seq")
            .map_err(sql(&self.path))?;
        let rows = stmt
            .query_map([after as i64], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            })
            .map_err(sql(&self.path))?;
        let mut out = Vec::new();
        for (expected, row) in (after + 1..).zip(rows) {
            let (seq, body, hash) = row.map_err(sql(&self.path))?;
            let damaged = |problem: String| StoreError::Damaged {
                path: self.path.clone(),
                seq: expected,
                problem,
            };
            let seq = seq as u64;
            if seq != expected {
                return Err(damaged(format!(
                    "entry {expected} is missing (next is {seq})"
                )));
            }
            let event: Event = serde_json::from_str(&body).map_err(|e| damaged(e.to_string()))?;
            if event.seq != seq {
                return Err(damaged(format!("it says it is entry {}", event.seq)));
            }
            out.push(Entry {
                event,
                body,
                hash: hash.unwrap_or_default(),
            });
        }
        Ok(out)
    }

    /// SQLite's own integrity check ("ok" when sound).
    pub fn integrity_check(&self) -> Result<String, StoreError> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(sql(&self.path))
    }
}

impl Drop for GameFile {
    /// Checkpoints on close, so the game file alone holds every committed action even while
    /// another desk keeps it open (SQLite checkpoints by itself only when the last connection
    /// closes). Never waits: with another process writing, it copies what it can.
    fn drop(&mut self) {
        drop(self.idle.take());
        if self.read_only.is_some() {
            return;
        }
        let _ = self.conn.busy_handler(None::<fn(i32) -> bool>);
        let _ = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
    }
}

/// How long writing must pause before the write-ahead log is copied into the game file.
const IDLE_CHECKPOINT: Duration = Duration::from_millis(500);

/// Copies the write-ahead log into the game file once writing has paused ([`IDLE_CHECKPOINT`]),
/// on its own thread and connection: a desk that keeps a game open for hours leaves a file that,
/// copied alone (without its `-wal`), holds every action but the last half second's, at no cost
/// to the commit itself (a checkpoint after each commit would double its `fsync`s; see
/// BENCHMARKS.md). A passive checkpoint: it never blocks a writer.
struct IdleCheckpoint {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl IdleCheckpoint {
    fn start(path: &Path) -> Option<IdleCheckpoint> {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let path = path.to_path_buf();
        let thread = std::thread::Builder::new()
            .name("umpire-checkpoint".into())
            .spawn(move || {
                let mut wal = path.as_os_str().to_owned();
                wal.push("-wal");
                let wal = PathBuf::from(wal);
                // The log's size and time: changed since the last look = still being written.
                let look = || {
                    std::fs::metadata(&wal)
                        .ok()
                        .map(|m| (m.len(), m.modified().ok()))
                };
                let mut seen = look();
                // Unknown at first: this thread may start after the first commit.
                let mut copied = None;
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(IDLE_CHECKPOINT)
                {
                    let now = look();
                    if now != seen {
                        seen = now;
                        continue;
                    }
                    if copied == Some(now) || now.is_none_or(|(len, _)| len == 0) {
                        continue;
                    }
                    if checkpoint_passive(&path) {
                        copied = Some(now);
                    }
                }
            })
            .ok()?;
        Some(IdleCheckpoint {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for IdleCheckpoint {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A passive checkpoint on a connection of its own (opened without creating: a file removed
/// meanwhile is left alone); true when the whole log is in the file.
fn checkpoint_passive(path: &Path) -> bool {
    let Ok(conn) = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE) else {
        return false;
    };
    let _ = conn.busy_timeout(Duration::ZERO);
    // (busy, frames in the log, frames copied); -1 frames: the log was not opened.
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        let (busy, log, copied): (i64, i64, i64) = (r.get(0)?, r.get(1)?, r.get(2)?);
        Ok(busy == 0 && log >= 0 && log == copied)
    })
    .unwrap_or(false)
}

/// Why a game file may not be written by this process, if so: opening it for writing is
/// refused (its permissions, or a read-only medium). Opening for writing changes nothing.
fn file_read_only(path: &Path) -> Option<String> {
    match std::fs::OpenOptions::new().write(true).open(path) {
        Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
            Some("it is on a read-only medium".into())
        }
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            Some("the file is read-only".into())
        }
        _ => None,
    }
}

/// Whether this process may make a file in `path`'s folder (tried with a temporary file of the
/// kind the next run clears, removed at once).
fn folder_writable(path: &Path) -> bool {
    let Ok(probe) = crate::game::output::temp_beside(path, "tmp") else {
        return false;
    };
    let made = std::fs::File::create_new(&probe).is_ok();
    let _ = std::fs::remove_file(&probe);
    made
}

/// A path as a SQLite URI's path: percent-encoded but for letters, digits and `/-._~`.
fn uri_path(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Removes a file and SQLite's files beside it (`-wal`, `-shm`, `-journal`), ignoring what is
/// not there.
fn remove_with_sidecars(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(name));
    }
}

impl Store for GameFile {
    fn meta(&self) -> &GameMeta {
        &self.meta
    }

    fn location(&self) -> String {
        self.path.display().to_string()
    }

    fn read_only(&self) -> Option<String> {
        self.read_only.as_ref().map(|why| {
            format!(
                "{} is read-only ({why}): opened for reading; writing needs write permission on the file and its folder",
                self.path.display()
            )
        })
    }

    fn entries_after(&mut self, after: u64) -> Result<Vec<Entry>, StoreError> {
        self.entries_from(after)
    }

    fn append(&mut self, entries: &[Entry]) -> Result<(), StoreError> {
        self.append_all(entries)
    }

    fn integrity_check(&mut self) -> Result<String, StoreError> {
        GameFile::integrity_check(self)
    }

    fn recorded_head(&mut self) -> Result<Option<Head>, StoreError> {
        GameFile::recorded_head(self)
    }

    fn head_row_missing(&mut self) -> Result<bool, StoreError> {
        GameFile::head_row_missing(self)
    }

    /// In the file's `meta` table under `kept:KEY`, beside the game's description and head:
    /// outside the journal's chain, and not part of an export.
    fn kept(&mut self, key: &str) -> Result<Option<String>, StoreError> {
        use rusqlite::OptionalExtension as _;
        self.conn
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                params![format!("kept:{key}")],
                |r| r.get(0),
            )
            .optional()
            .map_err(sql(&self.path))
    }

    fn keep(&mut self, key: &str, value: &str) -> Result<bool, StoreError> {
        if self.read_only.is_some() {
            return Ok(false);
        }
        self.conn
            .execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                params![format!("kept:{key}"), value],
            )
            .map_err(sql(&self.path))?;
        Ok(true)
    }
}
