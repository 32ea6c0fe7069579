//! The players' view followed entry by entry: what each audience may see of a new journal entry,
//! worked out and rendered once per audience (not per phone), in work that grows with the entry,
//! not with the journal.
//!
//! [`Live`] keeps, for every audience, what the whole page was made from: the sight of every
//! entry so far (an undo, a redo or an override follows the sight of the entry it names), the
//! side's numbering, and the parts last sent (header, statements, counters). A new entry is
//! judged against the state just before and just after it — two copies of the game's state,
//! each brought on by the entry alone, never folded from the start — and becomes, for each
//! audience that sees it, one rendered fragment; the parts are rendered again and sent only where
//! they changed. A megagame team's statements are read from a running history of each state's
//! treasury and debt, so a ledger change costs its own lines, not the journal's.
//!
//! What is not followed entry by entry: an undo or a redo changes which earlier entries count
//! (a statement's lines, the gazette, the counters), and a journal that became shorter was
//! rewritten. Both are rare, so [`Live::take_in`] then starts again from the game as it stands
//! and tells every page to fetch itself once (a `refresh`), rather than work out what changed.
//! An entry's sight never changes once judged otherwise: it is judged against the states around
//! it, which later entries do not alter, and a later reveal is an entry of its own.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::Arc;

use serde::Serialize;

use umpire_core::game::describe::Words;
use umpire_core::game::state::append_event;
use umpire_core::game::visibility::{SideView, Sight};
use umpire_core::game::{Event, EventKind, Game, GameState};
use umpire_core::megagame::ledger::{HISTORY_ATTRIBUTES, HistoryRun, LedgerEntry};

use crate::page::{self, Audience, Mark, Now, OddsCache, STATEMENT_LINES, Statement};

/// What one take-in of new entries changed, for every audience: one event on the stream.
#[derive(Debug)]
pub struct Batch {
    /// Its number: the pages' versions count them.
    pub version: u64,
    /// Every page must fetch itself again (after an undo or a redo, or a journal rewritten).
    pub refresh: bool,
    /// Token → the changes its pages are sent (JSON); no row when nothing it sees changed.
    pub changes: BTreeMap<String, Arc<str>>,
}

/// What one audience's pages are sent for a take-in.
#[derive(Debug, Default, Serialize)]
struct Changes {
    /// The new entries it sees, oldest first (the page puts each on top).
    entries: Vec<String>,
    /// New lines of the gazette, oldest first.
    gazette: Vec<String>,
    /// Parts of the page that changed, by element id, whole.
    parts: BTreeMap<&'static str, String>,
    /// The game's turn after them (a new turn: the page makes its fold).
    turn: u32,
}

impl Changes {
    fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.gazette.is_empty() && self.parts.is_empty()
    }
}

/// One audience followed.
struct Follower {
    token: String,
    audience: Audience,
    /// Each entry's sight so far.
    earlier: BTreeMap<u64, Sight>,
    /// The numbered entries it sees so far (its last number).
    numbered: u64,
    /// The steps of the Sequence of Play it sees so far.
    steps: usize,
    /// Its states' ledgers (a megagame team's), as indices into [`Live::ledgers`].
    states: Vec<usize>,
    /// This turn's entries that touched its own counters, newest first (the "This turn"
    /// section), and the turn they are of.
    this_turn: Vec<(Mark, String)>,
    turn: u32,
    /// The parts last sent.
    header: String,
    statements: String,
    counters: String,
    this_turn_part: String,
}

/// A state's ledger followed: its history's running balances and latest lines.
struct Ledger {
    name: String,
    counter: String,
    run: HistoryRun,
    lines: VecDeque<LedgerEntry>,
}

/// Every audience's view, kept up to date entry by entry.
pub struct Live {
    version: u64,
    /// The entries taken in.
    taken: usize,
    /// The state before the entry being taken in, and after it (both the game's state between
    /// take-ins).
    before: GameState,
    after: GameState,
    /// The entries the phase clock reads: the first, and every clock entry.
    clock_events: Vec<Event>,
    ledgers: Vec<Ledger>,
    followers: Vec<Follower>,
}

/// Whether an entry may move or change counters (the counters part is rendered again).
fn may_change_counters(kind: &EventKind) -> bool {
    !matches!(
        kind,
        EventKind::Note { .. }
            | EventKind::Announced { .. }
            | EventKind::Clock { .. }
            | EventKind::SeedRevealed { .. }
            | EventKind::Deck { .. }
    )
}

/// The version a start of the players' view counts from: the milliseconds since 1970 when it
/// started. A page still open from an earlier run (its version from that run's count, which a
/// take-in at most every [`crate::POLL`] keeps behind the clock) asks for what it missed from a
/// version older than any of this run's, and is told to load itself again — so restarting the
/// players' view never leaves an open page ignoring the new run's changes.
pub fn first_version() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX / 2))
}

impl Live {
    /// The audiences of `links` followed from the game as it stands; the versions count on
    /// from `base` (see [`first_version`]).
    pub fn new(game: &Game, audiences: &[(String, Audience)], base: u64) -> Live {
        let mut live = Live {
            version: base,
            taken: 0,
            before: game.state().clone(),
            after: game.state().clone(),
            clock_events: Vec::new(),
            ledgers: Vec::new(),
            followers: audiences
                .iter()
                .map(|(token, audience)| Follower {
                    token: token.clone(),
                    audience: audience.clone(),
                    earlier: BTreeMap::new(),
                    numbered: 0,
                    steps: 0,
                    states: Vec::new(),
                    this_turn: Vec::new(),
                    turn: 0,
                    header: String::new(),
                    statements: String::new(),
                    counters: String::new(),
                    this_turn_part: String::new(),
                })
                .collect(),
        };
        live.rebuild(game);
        live
    }

    /// The number of the last take-in.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// An audience's statements part, as last rendered (empty for an unknown token).
    pub fn statements(&self, token: &str) -> &str {
        self.followers
            .iter()
            .find(|f| f.token == token)
            .map_or("", |f| f.statements.as_str())
    }

    /// Everything again from the game as it stands: the whole journal judged along its timeline
    /// for every audience (once), the ledgers' histories read through, the parts rendered.
    fn rebuild(&mut self, game: &Game) {
        let events = game.events();
        self.taken = events.len();
        self.before = game.state().clone();
        self.after = game.state().clone();
        self.clock_events = events
            .iter()
            .take(1)
            .chain(
                events
                    .iter()
                    .skip(1)
                    .filter(|e| matches!(e.kind, EventKind::Clock { .. })),
            )
            .cloned()
            .collect();
        self.ledgers = ledgers(game);
        let timeline = game.timeline().ok();
        let now = Now::of(game, &self.clock_events);
        for f in &mut self.followers {
            let view = page::view_of(game, &f.audience);
            let sights = match (&view, &timeline) {
                (Some(view), Some(timeline)) => view.sights(timeline).unwrap_or_default(),
                _ => Vec::new(),
            };
            f.numbered = 0;
            f.steps = 0;
            for s in sights.iter().filter(|s| s.sight.seen()) {
                let step = events
                    .get((s.seq as usize).saturating_sub(1))
                    .is_some_and(|e| matches!(e.kind, EventKind::Stepped { .. }));
                if step {
                    f.steps += 1;
                } else {
                    f.numbered += 1;
                }
            }
            f.earlier = sights.iter().map(|s| (s.seq, s.sight.clone())).collect();
            f.states = match &f.audience {
                Audience::Side(team) => game
                    .scenario()
                    .megagame
                    .iter()
                    .flat_map(|m| m.states.iter())
                    .filter(|s| s.teams.iter().any(|t| t == team))
                    .filter_map(|s| self.ledgers.iter().position(|l| l.counter == s.counter))
                    .collect(),
                Audience::Public => Vec::new(),
            };
            f.statements = statements_of(game, &self.ledgers, &f.states);
            f.turn = game.state().cursor.turn;
            f.this_turn = match &view {
                Some(view) => page::this_turn_of(game, &f.audience, view, &sights),
                None => Vec::new(),
            };
            f.this_turn_part = page::this_turn_part(&f.audience, &f.this_turn).into_string();
            if let Some(view) = &view {
                f.header = page::header_part(game, &f.audience, &f.token, view, &now).into_string();
                f.counters = page::counters_part(game, &f.audience, view).into_string();
            }
        }
    }

    /// Takes in the entries the game has that were not taken in yet: the changes for every
    /// audience, or None when there are none.
    pub fn take_in(&mut self, game: &Game, odds: &mut OddsCache) -> Option<Batch> {
        let events = game.events();
        if events.len() == self.taken {
            return None;
        }
        self.version += 1;
        let fresh = events.get(self.taken..).unwrap_or_default();
        let refolds = fresh
            .iter()
            .any(|e| matches!(e.kind, EventKind::Undone { .. } | EventKind::Redone { .. }));
        // An undo or a redo (or a journal rewritten): every page fetches itself again.
        let judged = if events.len() < self.taken || refolds {
            None
        } else {
            self.judge(game, fresh, odds)
        };
        let Some((mut changes, touched)) = judged else {
            self.rebuild(game);
            return Some(Batch {
                version: self.version,
                refresh: true,
                changes: BTreeMap::new(),
            });
        };
        self.taken = events.len();
        let counters = fresh.iter().any(|e| may_change_counters(&e.kind));
        self.parts(game, &mut changes, &touched, counters);
        let changes = self
            .followers
            .iter()
            .zip(changes)
            .filter(|(_, c)| !c.is_empty())
            .filter_map(|(f, c)| {
                Some((f.token.clone(), Arc::from(serde_json::to_string(&c).ok()?)))
            })
            .collect();
        Some(Batch {
            version: self.version,
            refresh: false,
            changes,
        })
    }

    /// Judges the new entries for every audience: each one's fragments, and the ledgers they
    /// changed (None when an entry does not fold into the state: the caller starts again from
    /// the game).
    fn judge(
        &mut self,
        game: &Game,
        fresh: &[Event],
        odds: &mut OddsCache,
    ) -> Option<(Vec<Changes>, BTreeSet<usize>)> {
        let views: Vec<Option<SideView>> = self
            .followers
            .iter()
            .map(|f| page::view_of(game, &f.audience))
            .collect();
        let words = Words::of(game);
        let phases = page::phases(game);
        let mut changes: Vec<Changes> = self.followers.iter().map(|_| Changes::default()).collect();
        let mut touched = BTreeSet::new();
        for e in fresh {
            append_event(&mut self.after, e).ok()?;
            let turn = self.after.cursor.turn;
            for ((f, view), out) in self.followers.iter_mut().zip(&views).zip(&mut changes) {
                let Some(view) = view else { continue };
                out.turn = turn;
                if f.turn != turn {
                    f.turn = turn;
                    f.this_turn.clear();
                }
                let sight = view.next_sight(&self.before, &self.after, e, &f.earlier);
                if sight.seen() {
                    let mark = if matches!(e.kind, EventKind::Stepped { .. }) {
                        f.steps += 1;
                        Mark {
                            number: None,
                            step: Some(f.steps),
                        }
                    } else {
                        f.numbered += 1;
                        Mark {
                            number: Some(f.numbered),
                            step: None,
                        }
                    };
                    // The side's own counters, read only for an entry that names counters.
                    let own = if e.kind.counters().is_empty() {
                        page::OwnCounters::new()
                    } else {
                        page::own_counters(&self.after, &f.audience, view)
                    };
                    let tags = page::Tags::of(e, &own);
                    if tags.mine
                        && e.cursor.turn == turn
                        && let Some(line) = page::entry_line(&words, e, &sight)
                    {
                        f.this_turn.insert(0, (mark, line));
                    }
                    let of = page::EntryOf {
                        sight: &sight,
                        mark,
                        tags: &tags,
                        open: sight == Sight::Open,
                        phase: page::phase_of(&phases, e),
                    };
                    out.entries
                        .push(page::entry_part(game, &words, e, &of, odds).into_string());
                    if let EventKind::Announced {
                        audience: umpire_core::game::event::Audience::Public,
                        text,
                        ..
                    } = &e.kind
                    {
                        out.gazette
                            .push(page::gazette_line(mark, e.cursor.turn, text).into_string());
                    }
                }
                f.earlier.insert(e.seq, sight);
            }
            append_event(&mut self.before, e).ok()?;
            if matches!(e.kind, EventKind::Clock { .. }) {
                self.clock_events.push(e.clone());
            }
            for (i, l) in self.ledgers.iter_mut().enumerate() {
                let lines = l.run.take(game, e);
                if !lines.is_empty() {
                    touched.insert(i);
                    keep_lines(&mut l.lines, lines);
                }
            }
        }
        Some((changes, touched))
    }

    /// The parts rendered again: every header (turn, step, clock, victory), the statements of
    /// the teams whose states' ledgers changed, the counters when an entry may have moved them;
    /// each sent only where it changed.
    fn parts(
        &mut self,
        game: &Game,
        changes: &mut [Changes],
        touched: &BTreeSet<usize>,
        counters: bool,
    ) {
        let now = Now::of(game, &self.clock_events);
        for (f, out) in self.followers.iter_mut().zip(changes) {
            let Some(view) = page::view_of(game, &f.audience) else {
                continue;
            };
            let header = page::header_part(game, &f.audience, &f.token, &view, &now).into_string();
            if header != f.header {
                out.parts.insert("top", header.clone());
                f.header = header;
            }
            if f.states.iter().any(|i| touched.contains(i)) {
                let statements = statements_of(game, &self.ledgers, &f.states);
                if statements != f.statements {
                    out.parts.insert("statements", statements.clone());
                    f.statements = statements;
                }
            }
            let this_turn = page::this_turn_part(&f.audience, &f.this_turn).into_string();
            if this_turn != f.this_turn_part {
                out.parts.insert("this-turn", this_turn.clone());
                f.this_turn_part = this_turn;
            }
            if counters {
                let part = page::counters_part(game, &f.audience, &view).into_string();
                if part != f.counters {
                    out.parts.insert("counters-part", part.clone());
                    f.counters = part;
                }
            }
        }
    }
}

/// The ledgers of the game's states (a megagame's), their histories read through.
fn ledgers(game: &Game) -> Vec<Ledger> {
    let state = game.state();
    let mut out: Vec<Ledger> = game
        .scenario()
        .megagame
        .iter()
        .flat_map(|m| m.states.iter())
        .filter(|s| state.counters.contains_key(&s.counter))
        .map(|s| Ledger {
            name: s.name.clone(),
            counter: s.counter.clone(),
            run: HistoryRun::start(game, &s.counter, &HISTORY_ATTRIBUTES),
            lines: VecDeque::new(),
        })
        .collect();
    for e in game.events() {
        if !state.effective.contains(&e.seq) {
            continue;
        }
        for l in &mut out {
            let lines = l.run.take(game, e);
            keep_lines(&mut l.lines, lines);
        }
    }
    out
}

/// Adds lines to a statement's, keeping the last [`STATEMENT_LINES`].
fn keep_lines(kept: &mut VecDeque<LedgerEntry>, lines: Vec<LedgerEntry>) {
    kept.extend(lines);
    while kept.len() > STATEMENT_LINES {
        kept.pop_front();
    }
}

/// A team's statements part, from its states' ledgers.
fn statements_of(game: &Game, ledgers: &[Ledger], states: &[usize]) -> String {
    if states.is_empty() {
        return page::statements_part(game, &[]).into_string();
    }
    let lines: Vec<Vec<LedgerEntry>> = states
        .iter()
        .filter_map(|&i| ledgers.get(i))
        .map(|l| l.lines.iter().cloned().collect())
        .collect();
    let statements: Vec<Statement> = states
        .iter()
        .filter_map(|&i| ledgers.get(i))
        .zip(&lines)
        .map(|(l, lines)| Statement {
            name: &l.name,
            values: game.state().counters.get(&l.counter).map(|c| &c.attributes),
            lines,
        })
        .collect();
    page::statements_part(game, &statements).into_string()
}
