//! The journal's timeline: a scenario and its journal folded once, each entry with the state
//! just before and just after it. Every reader of the game's history reads it — the side views
//! ([`super::visibility::SideView::sights`]), the turn report, a megagame team's statement, the
//! players' view — instead of folding the journal again for itself.
//!
//! The fold ([`Timeline::new`]) appends each entry to the state ([`append_event`]); an undo or a
//! redo changes which earlier entries count, so there the journal up to it is folded again
//! ([`replay`]), once, here and nowhere else.
//!
//! A long game is not kept as one whole state per entry (the states grow with the journal: the
//! entries that count, the resolutions, the notes): the timeline keeps the state at the start,
//! after every [`STRIDE`]th entry, after each undo or redo, and at the end. The state around any
//! other entry is the nearest kept one with fewer than [`STRIDE`] entries appended
//! ([`Timeline::state_at`]); a walk through the whole journal ([`Timeline::steps`]) appends each
//! entry as it goes and never folds the journal again.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::event::{Event, EventKind};
use super::scenario::Scenario;
use super::state::{GameState, append_event, initial_state, replay};

/// How many entries apart the timeline keeps a whole state (besides the start, the end, and
/// the state after each undo or redo).
pub const STRIDE: usize = 32;

/// Whether an entry changes which earlier entries count (an undo or a redo), so that the state
/// after it is the journal up to it folded again rather than one entry appended.
fn refolds(e: &Event) -> bool {
    matches!(e.kind, EventKind::Undone { .. } | EventKind::Redone { .. })
}

/// A scenario and its journal, folded once.
#[derive(Debug, Clone)]
pub struct Timeline<'a> {
    scenario: &'a Scenario,
    events: &'a [Event],
    /// The state before any entry.
    start: GameState,
    /// Whole states kept along the way: n → the state after the first n entries.
    kept: BTreeMap<usize, GameState>,
    /// The state after the whole journal.
    end: GameState,
}

impl<'a> Timeline<'a> {
    /// Folds `events` over `scenario`'s start. Fails only on a journal that contradicts its
    /// scenario (as [`replay`] does).
    pub fn new(scenario: &'a Scenario, events: &'a [Event]) -> Result<Timeline<'a>, String> {
        let start = initial_state(scenario);
        let mut kept = BTreeMap::new();
        let mut state = start.clone();
        for (i, e) in events.iter().enumerate() {
            let n = i + 1;
            if refolds(e) {
                state = replay(scenario, &events[..n])?;
            } else {
                append_event(&mut state, e)?;
            }
            if n < events.len() && (refolds(e) || n % STRIDE == 0) {
                kept.insert(n, state.clone());
            }
        }
        Ok(Timeline {
            scenario,
            events,
            start,
            kept,
            end: state,
        })
    }

    /// The scenario.
    pub fn scenario(&self) -> &'a Scenario {
        self.scenario
    }

    /// The journal.
    pub fn events(&self) -> &'a [Event] {
        self.events
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether the journal has no entry.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// How many whole states the timeline keeps, the start and the end included (for
    /// measuring its memory).
    pub fn kept(&self) -> usize {
        self.kept.len() + 2
    }

    /// The state at the start, before any entry.
    pub fn start(&self) -> &GameState {
        &self.start
    }

    /// The state after the whole journal.
    pub fn end(&self) -> &GameState {
        &self.end
    }

    /// The nearest whole state kept at or before the state after `n` entries: (its number of
    /// entries, the state).
    fn kept_at_or_before(&self, n: usize) -> (usize, &GameState) {
        if n >= self.events.len() {
            return (self.events.len(), &self.end);
        }
        self.kept
            .range(..=n)
            .next_back()
            .map_or((0, &self.start), |(&k, s)| (k, s))
    }

    /// The state after the first `n` entries (all of them when `n` is past the end): kept, or
    /// the nearest kept one before it with the entries in between appended.
    pub fn state_at(&self, n: usize) -> Result<Cow<'_, GameState>, String> {
        let n = n.min(self.events.len());
        let (from, state) = self.kept_at_or_before(n);
        if from == n {
            return Ok(Cow::Borrowed(state));
        }
        let mut state = state.clone();
        // No undo or redo in between: the state after each is kept.
        for e in &self.events[from..n] {
            append_event(&mut state, e)?;
        }
        Ok(Cow::Owned(state))
    }

    /// The state just before entry `index` (counted from 0).
    pub fn before(&self, index: usize) -> Result<Cow<'_, GameState>, String> {
        self.state_at(index)
    }

    /// The state just after entry `index` (counted from 0).
    pub fn after(&self, index: usize) -> Result<Cow<'_, GameState>, String> {
        self.state_at(index + 1)
    }

    /// How many entries the game had at the end of `turn`: up to its last entry at that turn or
    /// an earlier one (0 when none).
    pub fn end_of_turn(&self, turn: u32) -> usize {
        self.events
            .iter()
            .rposition(|e| e.cursor.turn <= turn)
            .map_or(0, |i| i + 1)
    }

    /// How many entries the game had when `turn` began: those before its first entry at that
    /// turn or a later one (all of them when none).
    pub fn start_of_turn(&self, turn: u32) -> usize {
        self.events
            .iter()
            .position(|e| e.cursor.turn >= turn)
            .unwrap_or(self.events.len())
    }

    /// A walk through the journal, entry by entry, with the state before and after each.
    pub fn steps(&self) -> Steps<'_, 'a> {
        let start = self.start();
        Steps {
            timeline: self,
            next: 0,
            before: start.clone(),
            after: start.clone(),
        }
    }

    /// Brings `state`, the state just before entry `index`, to the state just after it.
    fn advance(&self, state: &mut GameState, index: usize) -> Result<(), String> {
        let e = &self.events[index];
        if refolds(e) {
            // The state after an undo or redo is kept (the end, after the last entry).
            match self.kept_at_or_before(index + 1) {
                (n, kept) if n == index + 1 => {
                    state.clone_from(kept);
                    Ok(())
                }
                _ => Err(format!("the timeline keeps no state after entry {}", e.seq)),
            }
        } else {
            append_event(state, e)
        }
    }
}

/// A walk through a [`Timeline`] ([`Timeline::steps`]): call [`Steps::next`] until it gives
/// None. It holds the state before and after the entry it stands at, and appends each entry to
/// both as it moves on (the state after an undo or redo is the timeline's, kept).
#[derive(Debug)]
pub struct Steps<'t, 'a> {
    timeline: &'t Timeline<'a>,
    next: usize,
    before: GameState,
    after: GameState,
}

/// One entry of the journal, with the state just before and just after it.
#[derive(Debug, Clone, Copy)]
pub struct Step<'s> {
    /// Its place in the journal, from 0.
    pub index: usize,
    /// The entry.
    pub event: &'s Event,
    /// The state just before it.
    pub before: &'s GameState,
    /// The state just after it.
    pub after: &'s GameState,
}

impl Steps<'_, '_> {
    /// The next entry, or None past the last. Fails only where the timeline's own fold did
    /// not (an entry that folded once folds the same way again).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Step<'_>>, String> {
        let index = self.next;
        let timeline = self.timeline;
        if index >= timeline.events.len() {
            return Ok(None);
        }
        if index > 0 {
            timeline.advance(&mut self.before, index - 1)?;
        }
        timeline.advance(&mut self.after, index)?;
        self.next += 1;
        Ok(Some(Step {
            index,
            event: &timeline.events[index],
            before: &self.before,
            after: &self.after,
        }))
    }
}

/// Brings a live game's state up to the whole journal: `state` is the state after
/// `events[..from]` (from 0: nothing yet folded). New entries are appended; an undo or redo
/// among them (or a state folded from nothing) folds the whole journal once. The session's
/// world ([`super::session::Game`]) keeps its state with it as each action commits.
pub fn advance(
    state: &mut GameState,
    scenario: &Scenario,
    events: &[Event],
    from: usize,
) -> Result<(), String> {
    let new = &events[from.min(events.len())..];
    if from == 0 || new.iter().any(refolds) {
        *state = replay(scenario, events)?;
    } else {
        for e in new {
            append_event(state, e)?;
        }
    }
    Ok(())
}
