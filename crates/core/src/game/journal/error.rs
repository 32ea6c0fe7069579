//! What can go wrong where a journal is kept.

use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

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
    /// A game file this process may not write: opened for reading, so a write is refused.
    #[error(
        "{path} is read-only ({why}): opened for reading; writing needs write permission on the file and its folder (e.g. chmod u+w, or copy it somewhere writable) — nothing was written"
    )]
    ReadOnly {
        /// The file.
        path: PathBuf,
        /// Why: the file, its folder, the medium.
        why: String,
    },
    /// The link dropped after an append was sent and before the server answered, and the
    /// journal could not be read again to tell whether it landed.
    #[error(
        "{location}: the link to the server dropped before it answered ({cause}) — entries {first}–{last} may or may not have been recorded; look at the journal (a desk's Journal panel, or `umpire game export` of the game) before doing it again, so it is not recorded twice"
    )]
    InDoubt {
        /// The game.
        location: String,
        /// The first entry sent.
        first: u64,
        /// The last entry sent.
        last: u64,
        /// What the link said.
        cause: String,
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
    /// Written by an older Umpire: migrated only by `umpire game migrate`, which says what it
    /// does (the hash chain begins at the migration).
    #[error(
        "{path} was written by an older Umpire (game file version {found}; this build writes {supported}) — `umpire game migrate {path}` brings it up to date, hashing its entries as they stand (the chain vouches for them from then on)"
    )]
    Older {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// Ours.
        supported: i64,
    },
    /// A file put back to an older schema: it recorded a head (or a seed's commitment), which
    /// only files at the current schema do — someone dropped its hashes.
    #[error(
        "{path} says it is game file version {found}, but {evidence}: it was written at version {supported} and its hashes were dropped — it is not migrated (that would hash whatever it says now); restore a copy"
    )]
    Downgraded {
        /// The file.
        path: PathBuf,
        /// What it says.
        found: i64,
        /// Ours.
        supported: i64,
        /// What shows it was newer, in words.
        evidence: String,
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
    /// Another process kept the game file locked (writing) for longer than
    /// [`super::BUSY_WAIT`].
    #[error(
        "{path}: the game is being written by another process, which did not finish within {} s — nothing was written; try again when it is done",
        waited.as_secs()
    )]
    Busy {
        /// The file.
        path: PathBuf,
        /// How long this process waited.
        waited: Duration,
    },
    /// The file system refused (creating a game file: the folder is missing, read-only, full…).
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
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
    /// A server URL that cannot be used.
    #[error("{shown}: {problem}")]
    Address {
        /// The URL as shown (password left out).
        shown: String,
        /// What is wrong, and how to write it.
        problem: String,
    },
    /// The journal names something its game does not have, or its events do not fold.
    #[error("{location}: {problem}")]
    Contradiction {
        /// The game.
        location: String,
        /// What does not fit.
        problem: String,
    },
}
