//! The journal behind one type, [`Journal`]: where it is kept (a [`Store`]: the SQLite game
//! file, or a game on a PostgreSQL server), its hash chain, the append whose answer was lost
//! (in doubt), the offline queue, and the retry when another desk wrote first — written once,
//! here, with a pause between tries.
//!
//! The game's state is folded from the journal by the game ([`Fold`]); the journal keeps it in
//! step whenever the events change (its own appends, other desks' events, the offline queue
//! sent or taken back).

mod chain;
pub mod error;
pub mod file;
pub mod location;
mod meta;
mod offline;

use std::time::{Duration, Instant};

use chrono::Utc;

pub use chain::{Head, commitment, fresh_salt, genesis, link, sha256_hex};
pub use error::StoreError;
pub use file::{BUSY_WAIT, GameFile, is_game_file, on_busy_wait};
pub use location::{Location, ServerAddress};
pub use meta::{GameMeta, PublicMeta};
pub use offline::{Held, SyncReport, write_atomically};

use super::action::Action;
use super::event::{Cursor, Event, EventKind};
use super::refusal::{GameError, Refusal};

/// One journal entry as kept: the event, its exact stored text (what the hash covers), and its
/// hash in the chain (empty when the store holds none).
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The event.
    pub event: Event,
    /// Its JSON text, exactly as stored.
    pub body: String,
    /// Its hash: [`chain::link`] of the previous entry's hash and `body`.
    pub hash: String,
}

impl Entry {
    /// Seals an event after the entry whose hash is `previous`.
    pub fn seal(event: Event, previous: &str) -> Result<Entry, StoreError> {
        let body = serde_json::to_string(&event).map_err(|e| StoreError::Contradiction {
            location: String::new(),
            problem: format!("entry {} cannot be written: {e}", event.seq),
        })?;
        let hash = chain::link(previous, &body);
        Ok(Entry { event, body, hash })
    }
}

/// The umpire a server login belongs to, as the server records it (`add-umpire`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Login {
    /// The login role.
    pub user: String,
    /// The umpire's name.
    pub name: String,
    /// The Control role's id (`map`, `game`…).
    pub role: String,
    /// The map table, for Map Control.
    pub table: Option<String>,
}

/// Where a game's journal is kept. Two stores: the SQLite game file ([`GameFile`], the default,
/// no server) and a game on a PostgreSQL server (`umpire_server::ServerGame`, shared by several
/// desks).
pub trait Store: Send {
    /// What the game started from.
    fn meta(&self) -> &GameMeta;
    /// Where it is, for people (a path, or a server URL without password and the game name).
    fn location(&self) -> String;
    /// The entries after entry `after`, in order (all of them after 0).
    fn entries_after(&mut self, after: u64) -> Result<Vec<Entry>, StoreError>;
    /// Appends entries atomically, all or none. Their `seq` must continue the journal; when
    /// another desk wrote first the append is refused with [`StoreError::Moved`] and nothing is
    /// written. Durable when this returns.
    fn append(&mut self, entries: &[Entry]) -> Result<(), StoreError>;
    /// The store's own integrity check ("ok" when sound).
    fn integrity_check(&mut self) -> Result<String, StoreError>;
    /// Where the store says the journal stands (written with every append), if it keeps that:
    /// a journal cut short at the end no longer matches it.
    fn recorded_head(&mut self) -> Result<Option<Head>, StoreError> {
        Ok(None)
    }
    /// Why it is open for reading only (a read-only game file), as a sentence; None when it
    /// may be written.
    fn read_only(&self) -> Option<String> {
        None
    }
    /// Whether a store that records its head with every append has lost it (deleted): see
    /// [`GameFile::head_row_missing`].
    fn head_row_missing(&mut self) -> Result<bool, StoreError> {
        Ok(false)
    }
    /// Whether several desks share it (a server).
    fn is_shared(&self) -> bool {
        false
    }
    /// A value kept beside the journal, outside its chain (the players' view's links keep
    /// their tokens here, so a restart keeps every link working); None when there is none.
    fn kept(&mut self, _key: &str) -> Result<Option<String>, StoreError> {
        Ok(None)
    }
    /// Keeps a value beside the journal: false when this store cannot (a file opened for
    /// reading only).
    fn keep(&mut self, _key: &str, _value: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    /// Who this desk is logged in as, on a server that knows its umpires.
    fn login(&self) -> Option<&Login> {
        None
    }
}

/// The game state the journal keeps in step with itself.
pub trait Fold {
    /// Where the game stands (recorded with each new event).
    fn cursor(&self) -> Cursor;
    /// Folds `events[from..]`, just added, into the state; everything again when `from` is 0.
    fn fold(&mut self, events: &[Event], from: usize) -> Result<(), String>;
    /// What an action queued offline would break once appended after `events` (another desk's
    /// changes taken in meanwhile): a ledger taken below its floor, in words. Deltas commute;
    /// a floor does not, so such an action is held for the umpire rather than sent.
    fn breaches(&self, _events: &[Event], _action: &[Event]) -> Vec<String> {
        Vec::new()
    }
}

/// Says whether an action's events may wait in the offline queue (the reason when not).
pub type MayQueue<'a, W> = &'a dyn Fn(&W, &[EventKind]) -> Result<(), String>;

/// How long an action keeps trying while other desks win the race for the journal.
const RACE_LIMIT: Duration = Duration::from_secs(20);

/// The journal of one game.
pub struct Journal {
    store: Box<dyn Store>,
    /// Every event this desk holds: the journal's, then any queued offline.
    events: Vec<Event>,
    /// The hashes of the journal's entries (the first `confirmed` events).
    hashes: Vec<String>,
    /// The chain's starting hash.
    genesis: String,
    /// How many of `events` the journal holds; the rest are queued offline.
    confirmed: usize,
    offline: offline::Offline,
    /// Events of the last commit whose append may or may not have landed.
    doubtful: Option<Vec<Event>>,
    /// The action and events of an append left in doubt, settled at the next action.
    in_doubt: Option<(Action, Vec<Event>)>,
}

impl Journal {
    /// Reads a journal (the state is folded from [`Journal::events`] by the caller).
    pub fn open(mut store: Box<dyn Store>) -> Result<Journal, StoreError> {
        let entries = store.entries_after(0)?;
        let genesis = store.meta().genesis();
        let mut events = Vec::with_capacity(entries.len());
        let mut hashes = Vec::with_capacity(entries.len());
        for e in entries {
            events.push(e.event);
            hashes.push(e.hash);
        }
        Ok(Journal {
            confirmed: events.len(),
            store,
            events,
            hashes,
            genesis,
            offline: offline::Offline::default(),
            doubtful: None,
            in_doubt: None,
        })
    }

    /// Every event this desk holds, in journal order (offline ones last).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// What the game started from.
    pub fn meta(&self) -> &GameMeta {
        self.store.meta()
    }

    /// Where it is kept, for people.
    pub fn location(&self) -> String {
        self.store.location()
    }

    /// Why it is open for reading only, as a sentence (see [`Store::read_only`]).
    pub fn read_only(&self) -> Option<String> {
        self.store.read_only()
    }

    /// Whether several desks share it.
    pub fn is_shared(&self) -> bool {
        self.store.is_shared()
    }

    /// Who this desk is logged in as, on a server.
    pub fn login(&self) -> Option<&Login> {
        self.store.login()
    }

    /// The chain's starting hash.
    pub fn genesis(&self) -> &str {
        &self.genesis
    }

    /// Where the journal stands: its entries and the last one's hash.
    pub fn head(&self) -> Head {
        Head {
            entries: self.confirmed as u64,
            hash: self
                .hashes
                .get(self.confirmed.wrapping_sub(1))
                .cloned()
                .unwrap_or_else(|| self.genesis.clone()),
        }
    }

    /// Every entry as stored, with its text and hash (for verification and export).
    pub fn read_entries(&mut self) -> Result<Vec<Entry>, StoreError> {
        self.store.entries_after(0)
    }

    /// Where the store says the journal stands.
    pub fn recorded_head(&mut self) -> Result<Option<Head>, StoreError> {
        self.store.recorded_head()
    }

    /// Whether the store's recorded head was deleted.
    pub fn head_row_missing(&mut self) -> Result<bool, StoreError> {
        self.store.head_row_missing()
    }

    /// The store's own integrity check.
    pub fn integrity_check(&mut self) -> Result<String, StoreError> {
        self.store.integrity_check()
    }

    /// The store, to copy the journal elsewhere.
    pub fn store_mut(&mut self) -> &mut dyn Store {
        self.store.as_mut()
    }

    fn fold<W: Fold>(&self, world: &mut W, from: usize) -> Result<(), StoreError> {
        world
            .fold(&self.events, from)
            .map_err(|problem| StoreError::Contradiction {
                location: self.store.location(),
                problem,
            })
    }

    /// Records the events `plan` makes for `action`, judged against the state as it stands:
    /// when another desk wrote first, their events are taken in and the action is judged
    /// again, pausing a little longer between tries, for up to 20 s. `may_queue` says whether
    /// the events may wait in the offline queue while the server cannot be reached.
    pub fn record<W: Fold>(
        &mut self,
        world: &mut W,
        action: &Action,
        by: Option<&str>,
        mut plan: impl FnMut(&W, &[Event]) -> Result<Vec<EventKind>, GameError>,
        may_queue: MayQueue<W>,
    ) -> Result<Vec<u64>, GameError> {
        if self.in_doubt.is_some() && self.offline.queued.is_empty() {
            // The last append's answer was lost: if it landed, a retry of the same action is
            // already done.
            if let Some((last, seqs, true)) = self.settle_doubt(world)?
                && last == *action
            {
                return Ok(seqs);
            }
        }
        if !self.offline.queued.is_empty() && !self.offline.link_down {
            // Working offline: try to send the queue first; if the server is still away, the
            // action joins the queue.
            let _ = self.sync(world);
        }
        let done = self.retrying(world, |world, events| plan(world, events), by, may_queue);
        if let Some(events) = self.doubtful.take()
            && done.is_err()
        {
            self.in_doubt = Some((action.clone(), events));
        }
        done
    }

    /// Commits fixed events (not judged again), retrying after other desks' appends.
    pub fn record_fixed<W: Fold>(
        &mut self,
        world: &mut W,
        kinds: Vec<EventKind>,
        by: Option<&str>,
    ) -> Result<Vec<u64>, GameError> {
        self.retrying(world, |_, _| Ok(kinds.clone()), by, &|_, _| Ok(()))
    }

    /// The retry, written once: plan, commit; on a lost race take in the others' events,
    /// pause (1 ms, doubling up to 50 ms) and plan again.
    fn retrying<W: Fold>(
        &mut self,
        world: &mut W,
        mut plan: impl FnMut(&W, &[Event]) -> Result<Vec<EventKind>, GameError>,
        by: Option<&str>,
        may_queue: MayQueue<W>,
    ) -> Result<Vec<u64>, GameError> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            let kinds = plan(world, &self.events)?;
            match self.commit(world, kinds, by, may_queue) {
                Err(GameError::Store(StoreError::Moved { .. }))
                    if started.elapsed() < RACE_LIMIT =>
                {
                    self.refresh(world)?;
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(GameError::Store(StoreError::Moved { .. })) => {
                    return Err(Refusal::Busy {
                        location: self.store.location(),
                    }
                    .into());
                }
                done => return done,
            }
        }
    }

    /// Numbers and stamps an action's events after the journal.
    fn stamp<W: Fold>(&self, world: &W, kinds: Vec<EventKind>, by: Option<&str>) -> Vec<Event> {
        let now = Utc::now();
        let first = self.events.len() as u64 + 1;
        kinds
            .into_iter()
            .zip(first..)
            .map(|(kind, seq)| Event {
                seq,
                at: now,
                by: by.map(str::to_string),
                cursor: world.cursor(),
                kind,
            })
            .collect()
    }

    /// Seals events after the journal's last entry (their hashes in the chain).
    fn seal(&self, events: &[Event]) -> Result<Vec<Entry>, StoreError> {
        let mut previous = self.head().hash;
        let mut out = Vec::with_capacity(events.len());
        for e in events {
            let entry = Entry::seal(e.clone(), &previous)?;
            previous = entry.hash.clone();
            out.push(entry);
        }
        Ok(out)
    }

    /// Commits the events of one action together (all or none), then folds them in. Refused
    /// with [`StoreError::Moved`] when another desk wrote first.
    fn commit<W: Fold>(
        &mut self,
        world: &mut W,
        kinds: Vec<EventKind>,
        by: Option<&str>,
        may_queue: MayQueue<W>,
    ) -> Result<Vec<u64>, GameError> {
        if kinds.is_empty() {
            return Ok(Vec::new());
        }
        let events = self.stamp(world, kinds, by);
        if !self.offline.queued.is_empty() || self.offline.link_down {
            // Still offline (the queue could not be sent, or the link is known to be down):
            // this action joins the queue.
            let cause = StoreError::Server {
                location: self.store.location(),
                message: "the link to the server is down".into(),
            };
            return self.queue_offline(world, events, cause, may_queue);
        }
        let entries = self.seal(&events)?;
        if let Err(e) = self.store.append(&entries) {
            // A link that dropped during the append leaves it unknown whether it landed: look
            // (reconnecting) before saying it did not, so a retry never records it twice.
            if !matches!(e, StoreError::Server { .. }) {
                return Err(e.into());
            }
            match self.landed(&entries) {
                Some(true) => {}
                Some(false) => return self.queue_offline(world, events, e, may_queue),
                None => {
                    // Cannot tell: remember, so a retry of this action does not record it twice.
                    self.doubtful = Some(events.clone());
                    if !self.keeps_offline() {
                        // Nothing is queued here (the command line): say plainly that it may
                        // have landed, so the umpire looks before doing it again.
                        return Err(StoreError::InDoubt {
                            location: self.store.location(),
                            first: events.first().map_or(0, |e| e.seq),
                            last: events.last().map_or(0, |e| e.seq),
                            cause: e.to_string(),
                        }
                        .into());
                    }
                    return self.queue_offline(world, events, e, may_queue);
                }
            }
        }
        let seqs = events.iter().map(|e| e.seq).collect();
        self.take_confirmed(world, entries)?;
        Ok(seqs)
    }

    /// Adds entries the journal now holds (ours or other desks') and folds them in.
    fn take_confirmed<W: Fold>(
        &mut self,
        world: &mut W,
        entries: Vec<Entry>,
    ) -> Result<(), StoreError> {
        if entries.is_empty() {
            return Ok(());
        }
        let from = self.events.len();
        for e in entries {
            self.events.push(e.event);
            self.hashes.push(e.hash);
        }
        self.confirmed = self.events.len();
        self.fold(world, from)
    }

    /// Whether `entries` are in the journal after all (an append whose answer was lost): None
    /// when the journal cannot be read to tell.
    fn landed(&mut self, entries: &[Entry]) -> Option<bool> {
        let there = self.store.entries_after(self.confirmed as u64).ok()?;
        Some(same_entries(&there, entries))
    }

    /// Settles an append left in doubt by a dropped link: takes in what the journal has now,
    /// and says whether the doubtful events are among it. Fails while the journal still cannot
    /// be read (the doubt stays).
    fn settle_doubt<W: Fold>(
        &mut self,
        world: &mut W,
    ) -> Result<Option<(Action, Vec<u64>, bool)>, GameError> {
        let Some((action, events)) = self.in_doubt.take() else {
            return Ok(None);
        };
        let there = match self.store.entries_after(self.confirmed as u64) {
            Ok(t) => t,
            Err(e) => {
                self.in_doubt = Some((action, events));
                return Err(e.into());
            }
        };
        let landed = there.len() >= events.len()
            && there
                .iter()
                .zip(&events)
                .all(|(a, b)| same_event(&a.event, b));
        self.take_confirmed(world, there)?;
        let seqs = events.iter().map(|e| e.seq).collect();
        Ok(Some((action, seqs, landed)))
    }

    /// Takes in the events other desks added since this desk last looked; returns how many.
    pub fn refresh<W: Fold>(&mut self, world: &mut W) -> Result<usize, GameError> {
        if !self.offline.queued.is_empty() {
            // Offline work waits at the end of the journal: send it (it follows the others').
            return Ok(self.sync(world)?.taken_in);
        }
        let new = self.store.entries_after(self.events.len() as u64)?;
        let n = new.len();
        self.take_confirmed(world, new)?;
        Ok(n)
    }
}

/// Whether two events are the same entry (the same place, time, desk and kind).
fn same_event(a: &Event, b: &Event) -> bool {
    a.seq == b.seq && a.at == b.at && a.by == b.by && a.kind.name() == b.kind.name()
}

/// Whether `there` begins with `entries` (the same hashes: the same entries exactly).
fn same_entries(there: &[Entry], entries: &[Entry]) -> bool {
    there.len() >= entries.len() && there.iter().zip(entries).all(|(a, b)| a.hash == b.hash)
}
