//! Working through a dropped link (shared games): a desk that cannot reach the server keeps
//! recording what its Control role owns (its map table's armies and areas), holds those actions
//! in a local queue — written to disk before the umpire is told they are recorded — and sends
//! them when the link returns.
//!
//! On return, each queued action is judged against what the other desks did meanwhile:
//! - adjustments (deltas: treasuries, Arrears…) combine in any order and always go through;
//! - a change to something another desk also changed (a move, an attribute, a status of the same
//!   counter) is a conflict: the action is held for the umpire to settle (send it anyway, or
//!   drop it, which the journal records) — never silently overwritten.
//!
//! What may be queued: counter changes, resolutions with typed physical dice (app dice need the
//! server's draw order), notes, and undo/redo of queued actions. All of it must be in the actor's
//! own remit (the game's gate says, through the `may_queue` of [`Journal::record`]).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Entry, Fold, Journal, MayQueue, StoreError};
use crate::dice::Provenance;
use crate::game::event::{CounterChange, Event, EventKind};
use crate::game::refusal::{GameError, Refusal};

/// An action recorded offline that clashed with another desk's change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Held {
    /// The action's events (numbered as they were offline).
    pub events: Vec<Event>,
    /// What both desks changed (counter and what of it).
    pub clashes: Vec<String>,
}

/// What happened when the queue was sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SyncReport {
    /// Queued actions now in the shared journal.
    pub sent: usize,
    /// Actions held for the umpire to settle.
    pub held: usize,
    /// Other desks' events taken in.
    pub taken_in: usize,
}

/// The queue as written to disk.
#[derive(Debug, Default, Serialize, Deserialize)]
struct QueueFile {
    location: String,
    /// The journal's length when the desk went offline.
    base: usize,
    actions: Vec<Vec<Event>>,
    held: Vec<Held>,
}

/// What a change does to a counter, for clash detection; `None` for adjustments (they commute).
fn change_key(c: &CounterChange) -> Option<String> {
    match c {
        CounterChange::Attribute {
            counter, attribute, ..
        } => Some(format!("{counter}: {attribute}")),
        CounterChange::Status {
            counter, status, ..
        } => Some(format!("{counter}: {status}")),
        CounterChange::Move { counter, .. }
        | CounterChange::Remove { counter, .. }
        | CounterChange::Add { counter, .. } => Some(format!("{counter}: position")),
        CounterChange::Adjust { .. } => None,
    }
}

fn keys(events: &[Event]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in events {
        if let EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } =
            &e.kind
        {
            out.extend(changes.iter().filter_map(change_key));
        }
    }
    out
}

fn remap(kind: &mut EventKind, map: &BTreeMap<u64, u64>) {
    let target = match kind {
        EventKind::EffectsApplied { of, .. } | EventKind::Overridden { of, .. } => of,
        EventKind::Undone { event } | EventKind::Redone { event } => event,
        _ => return,
    };
    if let Some(n) = map.get(target) {
        *target = *n;
    }
}

/// Writes `text` to `path` whole or not at all (a file beside it, then renamed over it); with
/// `owner_only`, readable by its owner alone (a shared game's kept link tokens).
pub fn write_atomically(path: &Path, text: &str, owner_only: bool) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("tmp");
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        if owner_only {
            use std::os::unix::fs::OpenOptionsExt as _;
            options.mode(0o600);
        }
        #[cfg(not(unix))]
        let _ = owner_only;
        let mut f = options.open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Where sending the queue stands: the journal's length when the desk went offline, how the
/// queued entries were renumbered, and the entries already sent.
struct Sending {
    since: usize,
    map: BTreeMap<u64, u64>,
    sent: BTreeSet<u64>,
}

/// The offline side of a journal.
#[derive(Default)]
pub(super) struct Offline {
    /// The number of events of each queued action, in order (the tail of the events).
    pub(super) queued: Vec<usize>,
    /// The journal's length when this desk went offline: other desks' events after it may
    /// clash with the queue.
    base: usize,
    /// The desk's listener says the link is down: record offline without trying the server.
    pub(super) link_down: bool,
    /// Offline actions that clashed with another desk's change, for the umpire to settle.
    held: Vec<Held>,
    /// Where the queue is kept (none: no offline work).
    file: Option<PathBuf>,
}

/// Why these events may not wait in the offline queue, by their kinds alone.
fn kind_refusal(events: &[Event], queued: &BTreeSet<u64>) -> Option<String> {
    for e in events {
        match &e.kind {
            EventKind::Changed { .. }
            | EventKind::EffectsApplied { .. }
            | EventKind::Note { .. } => {}
            EventKind::Resolved { resolution, .. } => {
                if resolution
                    .rolls
                    .iter()
                    .any(|r| matches!(r.provenance, Provenance::App { .. }))
                {
                    return Some(
                        "app dice need the server's draw order: type the physical dice".into(),
                    );
                }
            }
            EventKind::Undone { event } | EventKind::Redone { event } => {
                if !queued.contains(event) {
                    return Some(format!(
                        "entry {event} is in the shared journal: undo it when the link is back"
                    ));
                }
            }
            other => {
                return Some(format!(
                    "{} changes the shared game (the Sequence of Play, the clock…)",
                    other.name().replace('_', " ")
                ));
            }
        }
    }
    None
}

impl Journal {
    /// Keeps this desk's offline queue in `path` (loading what a previous run left there, which
    /// is sent at the next [`Journal::sync`]).
    pub fn use_offline_queue<W: Fold>(
        &mut self,
        world: &mut W,
        path: PathBuf,
    ) -> Result<(), GameError> {
        let unreadable = |problem: String| StoreError::Contradiction {
            location: path.display().to_string(),
            problem,
        };
        let saved: Option<QueueFile> = match std::fs::read_to_string(&path) {
            Ok(text) => Some(serde_json::from_str(&text).map_err(|e| {
                unreadable(format!(
                    "the offline queue is unreadable ({e}) — move it aside to open the game"
                ))
            })?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(unreadable(e.to_string()).into()),
        };
        self.offline.file = Some(path);
        if let Some(saved) = saved.filter(|q| q.location == self.location()) {
            self.offline.held = saved.held;
            self.offline.base = saved.base.min(self.confirmed);
            for action in saved.actions {
                self.requeue(action);
            }
            self.fold(world, 0)?;
        }
        Ok(())
    }

    /// Actions recorded offline, not yet in the shared journal.
    pub fn queued(&self) -> usize {
        self.offline.queued.len()
    }

    /// Actions held after a clash, for the umpire to settle.
    pub fn held(&self) -> &[Held] {
        &self.offline.held
    }

    /// Whether this desk is working offline (the link is down, or actions are queued).
    pub fn is_offline(&self) -> bool {
        self.offline.link_down || !self.offline.queued.is_empty()
    }

    /// What the desk's listener says of the link: while it is down, actions go straight to the
    /// offline queue (no waiting on a server that is not there). When it comes back, call
    /// [`Journal::sync`].
    pub fn set_link_up(&mut self, up: bool) {
        self.offline.link_down = !up;
    }

    fn persist_queue(&self) -> Result<(), StoreError> {
        let Some(path) = &self.offline.file else {
            return Ok(());
        };
        let mut actions = Vec::new();
        let mut at = self.confirmed;
        for n in &self.offline.queued {
            actions.push(self.events[at..at + n].to_vec());
            at += n;
        }
        let file = QueueFile {
            location: self.location(),
            base: self.offline.base,
            actions,
            held: self.offline.held.clone(),
        };
        let failed = |problem: String| StoreError::Contradiction {
            location: path.display().to_string(),
            problem,
        };
        let text = serde_json::to_string_pretty(&file).map_err(|e| failed(e.to_string()))?;
        write_atomically(path, &text, false).map_err(|e| {
            failed(format!(
                "the offline queue could not be written ({e}); the action was not recorded"
            ))
        })
    }

    /// Puts an action's events at the end of the queue, numbered after the events held.
    fn requeue(&mut self, mut events: Vec<Event>) -> BTreeMap<u64, u64> {
        let mut map = BTreeMap::new();
        let first = self.events.len() as u64 + 1;
        for (e, seq) in events.iter_mut().zip(first..) {
            map.insert(e.seq, seq);
            e.seq = seq;
        }
        for e in &mut events {
            remap(&mut e.kind, &map);
        }
        self.offline.queued.push(events.len());
        self.events.extend(events);
        map
    }

    /// Records an action's events in the offline queue (after the server could not be
    /// reached), when they may wait there.
    /// Whether this journal keeps an offline queue (a desk does; the command line does not).
    pub(super) fn keeps_offline(&self) -> bool {
        self.offline.file.is_some()
    }

    pub(super) fn queue_offline<W: Fold>(
        &mut self,
        world: &mut W,
        events: Vec<Event>,
        cause: StoreError,
        may_queue: MayQueue<W>,
    ) -> Result<Vec<u64>, GameError> {
        if self.offline.file.is_none() {
            return Err(cause.into());
        }
        let queued: BTreeSet<u64> = self.events[self.confirmed..]
            .iter()
            .map(|e| e.seq)
            .collect();
        let kinds: Vec<EventKind> = events.iter().map(|e| e.kind.clone()).collect();
        let why = kind_refusal(&events, &queued).map_or_else(|| may_queue(world, &kinds), Err);
        if let Err(why) = why {
            return Err(Refusal::NotOffline {
                cause: Box::new(cause),
                why,
            }
            .into());
        }
        let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
        let n = events.len();
        if self.offline.queued.is_empty() {
            self.offline.base = self.confirmed;
        }
        let from = self.events.len();
        self.events.extend(events);
        self.offline.queued.push(n);
        self.fold(world, from)?;
        if let Err(e) = self.persist_queue() {
            // Not on disk, so not recorded: take it back out.
            self.events.truncate(self.events.len() - n);
            self.offline.queued.pop();
            self.fold(world, 0)?;
            return Err(e.into());
        }
        Ok(seqs)
    }

    /// Sends the offline queue, taking in the other desks' events first; actions that clash with
    /// another desk's change are held for the umpire ([`Journal::settle`]). Fails (keeping the
    /// queue) while the server is still unreachable.
    pub fn sync<W: Fold>(&mut self, world: &mut W) -> Result<SyncReport, GameError> {
        let mut report = SyncReport::default();
        if self.offline.queued.is_empty() {
            report.taken_in = self.refresh(world)?;
            return Ok(report);
        }
        let others = self.store.entries_after(self.confirmed as u64)?;
        let provisional = self.events.split_off(self.confirmed);
        let mut actions: Vec<Vec<Event>> = Vec::new();
        let mut at = 0;
        for n in std::mem::take(&mut self.offline.queued) {
            actions.push(provisional[at..at + n].to_vec());
            at += n;
        }
        report.taken_in = others.len();
        self.push_confirmed(others);
        let mut sending = Sending {
            since: self.offline.base.min(self.confirmed),
            map: BTreeMap::new(),
            sent: BTreeSet::new(),
        };
        let mut pending = actions.into_iter();
        let mut failed = None;
        for mut action in pending.by_ref() {
            for e in &mut action {
                remap(&mut e.kind, &sending.map);
            }
            if let Err(e) = self.send_one(world, action.clone(), &mut sending, &mut report) {
                self.requeue(action);
                failed = Some(e);
                break;
            }
        }
        for mut rest in pending {
            for e in &mut rest {
                remap(&mut e.kind, &sending.map);
            }
            self.requeue(rest);
        }
        self.fold(world, 0)?;
        self.persist_queue()?;
        match failed {
            Some(e) => Err(e.into()),
            None => Ok(report),
        }
    }

    /// Sends one queued action: skipped when it landed already (an answer lost when the link
    /// dropped), held when it clashes with another desk's change, else appended (after taking
    /// in whatever other desks wrote meanwhile).
    fn send_one<W: Fold>(
        &mut self,
        world: &W,
        action: Vec<Event>,
        sending: &mut Sending,
        report: &mut SyncReport,
    ) -> Result<(), StoreError> {
        if let Some(first) = action.first()
            && let Some(at) = self.events[sending.since..].iter().position(|o| {
                !sending.sent.contains(&o.seq)
                    && o.at == first.at
                    && o.by == first.by
                    && o.kind.name() == first.kind.name()
            })
        {
            let base = sending.since + at;
            for (j, e) in action.iter().enumerate() {
                if let Some(landed) = self.events.get(base + j) {
                    sending.map.insert(e.seq, landed.seq);
                    sending.sent.insert(landed.seq);
                }
            }
            report.sent += 1;
            return Ok(());
        }
        loop {
            let others: Vec<Event> = self.events[sending.since..]
                .iter()
                .filter(|e| !sending.sent.contains(&e.seq))
                .cloned()
                .collect();
            // Each clash with who made the other change, and when.
            let mut clashes: Vec<String> = keys(&action)
                .intersection(&keys(&others))
                .map(|key| {
                    let last = others
                        .iter()
                        .rev()
                        .find(|o| keys(std::slice::from_ref(o)).contains(key));
                    match last {
                        Some(o) => format!(
                            "{key} — {} at {}, entry {}",
                            o.by.as_deref().unwrap_or("another desk"),
                            o.at.with_timezone(&chrono::Local).format("%H:%M"),
                            o.seq
                        ),
                        None => key.clone(),
                    }
                })
                .collect();
            // Deltas commute, floors do not: a payment that the other desks' changes leave no
            // room for waits for the umpire (a treasury below 0).
            clashes.extend(world.breaches(&self.events, &action));
            if !clashes.is_empty() {
                self.offline.held.push(Held {
                    events: action,
                    clashes,
                });
                report.held += 1;
                return Ok(());
            }
            let first = self.events.len() as u64 + 1;
            let mut numbered = action.clone();
            let mut step = BTreeMap::new();
            for (e, seq) in numbered.iter_mut().zip(first..) {
                step.insert(e.seq, seq);
                e.seq = seq;
            }
            for e in &mut numbered {
                remap(&mut e.kind, &step);
            }
            let entries = self.seal(&numbered)?;
            match self.store.append(&entries) {
                Ok(()) => {}
                Err(StoreError::Moved { .. }) => {
                    let more = self.store.entries_after(self.confirmed as u64)?;
                    report.taken_in += more.len();
                    self.push_confirmed(more);
                    continue;
                }
                Err(e) => return Err(e),
            }
            sending.map.extend(step);
            sending.sent.extend(numbered.iter().map(|e| e.seq));
            self.push_confirmed(entries);
            report.sent += 1;
            return Ok(());
        }
    }

    /// Adds confirmed entries without folding (the caller folds once at the end).
    fn push_confirmed(&mut self, entries: Vec<Entry>) {
        for e in entries {
            self.events.push(e.event);
            self.hashes.push(e.hash);
        }
        self.confirmed = self.events.len();
    }

    /// Settles a held action: `send` records it after all (it stands over the other desk's
    /// change, which stays in the journal before it); otherwise it is dropped, and the journal
    /// notes what was dropped and by whom.
    pub fn settle<W: Fold>(
        &mut self,
        world: &mut W,
        index: usize,
        send: bool,
        by: Option<&str>,
    ) -> Result<Vec<u64>, GameError> {
        if index >= self.offline.held.len() {
            return Err(Refusal::NoHeldAction {
                index,
                held: self.offline.held.len(),
            }
            .into());
        }
        if !self.offline.queued.is_empty() {
            self.sync(world)?;
        }
        let held = self.offline.held[index].clone();
        let kinds: Vec<EventKind> = if send {
            // Sent anyway: the umpire's word, which a change past a floor needs, goes with it.
            let word = format!(
                "{}sent after a clash ({}) by {}",
                crate::game::event::UMPIRES_WORD,
                held.clashes.join("; "),
                by.unwrap_or("the umpire")
            );
            held.events
                .iter()
                .map(|e| match &e.kind {
                    EventKind::Changed {
                        changes,
                        reason,
                        item,
                    } => EventKind::Changed {
                        changes: changes.clone(),
                        reason: Some(match reason {
                            Some(r) if !r.trim().is_empty() => format!("{r}; {word}"),
                            _ => word.clone(),
                        }),
                        item: item.clone(),
                    },
                    other => other.clone(),
                })
                .collect()
        } else {
            vec![EventKind::Note {
                text: format!(
                    "Offline action dropped after a clash ({}) by {}: {}",
                    held.clashes.join("; "),
                    by.unwrap_or("the umpire"),
                    held.events
                        .iter()
                        .map(|e| e.kind.name().replace('_', " "))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }]
        };
        let seqs = self.record_fixed(world, kinds, by)?;
        self.offline.held.remove(index);
        self.persist_queue()?;
        Ok(seqs)
    }
}
