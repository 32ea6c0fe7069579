//! The journal's timeline: a scenario and its journal folded once, each entry with the state
//! just before and just after it. Every reader of the game's history reads it — the side views
//! ([`super::visibility::SideView::sights`]), the turn report, a megagame team's statement, the
//! players' view — instead of folding the journal again for itself.
//!
//! The fold ([`Timeline::new`]) appends each entry to the state ([`append_event`]). An undo or a
//! redo changes which earlier entries count, so the state after it is the journal up to it
//! folded again — from the last state kept before the entry it undoes or restores (and before
//! any other entry an undo or redo since then changed), not from the start: an undo of the last
//! few entries costs a few entries, not the whole journal.
//!
//! A long game is not kept as one whole state per entry (the states grow with the journal: the
//! entries that count, the resolutions, the notes): the timeline keeps the state at the start,
//! after every [`STRIDE`]th entry, and at the end. The state around any other entry is the
//! nearest kept one with the entries in between folded in ([`Timeline::state_at`]); a walk
//! through the whole journal ([`Timeline::steps`]) folds each entry in as it goes and never
//! folds the journal from the start again.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::event::{Event, EventKind};
use super::scenario::Scenario;
use super::state::{GameState, append_event, effective_events, initial_state, refold, replay};

/// How many entries apart the timeline keeps a whole state (besides the start and the end).
pub const STRIDE: usize = 32;

/// Whether an entry changes which earlier entries count (an undo or a redo), so that the state
/// after it is the journal up to it folded again rather than one entry appended.
fn refolds(e: &Event) -> bool {
    matches!(e.kind, EventKind::Undone { .. } | EventKind::Redone { .. })
}

/// The whole states kept: the start, and n → the state after the first n entries.
struct Kept<'k> {
    start: &'k GameState,
    kept: &'k BTreeMap<usize, GameState>,
}

impl<'k> Kept<'k> {
    /// The nearest state kept after at most `n` entries: (its number of entries, the state).
    fn at_or_before(&self, n: usize) -> (usize, &'k GameState) {
        self.kept
            .range(..=n)
            .next_back()
            .map_or((0, self.start), |(&k, s)| (k, s))
    }

    /// The state after entry `index` of `events`, an undo or a redo: the journal up to it folded
    /// again with the entries that count then, from the last state kept before every entry
    /// whose standing an undo or redo changed since that state (at worst, the start).
    fn refolded(&self, events: &[Event], index: usize) -> Result<GameState, String> {
        let mut bound = index;
        loop {
            let (from, state) = self.at_or_before(bound);
            // The earliest entry an undo or redo since `from` names.
            let earliest = events[from..=index]
                .iter()
                .filter_map(|e| match e.kind {
                    EventKind::Undone { event } | EventKind::Redone { event } => Some(event),
                    _ => None,
                })
                .min();
            // Entry `seq` is the `seq`th: when among the first `from`, fold from before it.
            let earliest = earliest.map(|seq| usize::try_from(seq).unwrap_or(0));
            match earliest {
                Some(seq) if from > 0 && seq <= from => {
                    bound = seq.saturating_sub(1).min(from - 1);
                }
                _ => {
                    let mut state = state.clone();
                    let effective = effective_events(&events[..=index]);
                    refold(&mut state, &events[from..=index], effective)?;
                    return Ok(state);
                }
            }
        }
    }

    /// Brings `state`, the state just before entry `index`, to the state just after it.
    fn advance(&self, events: &[Event], state: &mut GameState, index: usize) -> Result<(), String> {
        let e = &events[index];
        if refolds(e) {
            *state = self.refolded(events, index)?;
            Ok(())
        } else {
            append_event(state, e)
        }
    }
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
        for i in 0..events.len() {
            let n = i + 1;
            Kept {
                start: &start,
                kept: &kept,
            }
            .advance(events, &mut state, i)?;
            if n < events.len() && n % STRIDE == 0 {
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
    /// measuring its memory): 2 + the entries / [`STRIDE`].
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

    fn states(&self) -> Kept<'_> {
        Kept {
            start: &self.start,
            kept: &self.kept,
        }
    }

    /// The state after the first `n` entries (all of them when `n` is past the end): kept, or
    /// the nearest kept one before it with the entries in between folded in.
    pub fn state_at(&self, n: usize) -> Result<Cow<'_, GameState>, String> {
        if n >= self.events.len() {
            return Ok(Cow::Borrowed(&self.end));
        }
        let kept = self.states();
        let (from, state) = kept.at_or_before(n);
        if from == n {
            return Ok(Cow::Borrowed(state));
        }
        let mut state = state.clone();
        for index in from..n {
            kept.advance(self.events, &mut state, index)?;
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
}

/// A walk through a [`Timeline`] ([`Timeline::steps`]): call [`Steps::next`] until it gives
/// None. It holds the state before and after the entry it stands at, and folds each entry into
/// both as it moves on.
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
        let kept = timeline.states();
        if index > 0 {
            kept.advance(timeline.events, &mut self.before, index - 1)?;
        }
        kept.advance(timeline.events, &mut self.after, index)?;
        self.next += 1;
        Ok(Some(Step {
            index,
            event: &timeline.events[index],
            before: &self.before,
            after: &self.after,
        }))
    }
}

/// A journal folded one entry at a time, for a reader that looks at the state just before each
/// entry as it goes (the audit, [`super::audit`]): the same fold as [`Timeline::new`], keeping a
/// whole state every [`STRIDE`] entries so an undo or redo folds again from near it, not from the
/// start. The whole walk is one fold of the journal.
pub struct Folding<'a> {
    events: &'a [Event],
    start: GameState,
    kept: BTreeMap<usize, GameState>,
    state: GameState,
    next: usize,
}

impl<'a> Folding<'a> {
    /// Nothing folded yet: the state is the scenario's start.
    pub fn new(scenario: &Scenario, events: &'a [Event]) -> Folding<'a> {
        let start = initial_state(scenario);
        Folding {
            events,
            state: start.clone(),
            start,
            kept: BTreeMap::new(),
            next: 0,
        }
    }

    /// The state after the entries folded so far (just before the next one).
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// How many entries are folded.
    pub fn folded(&self) -> usize {
        self.next
    }

    /// Folds the next entry in. Fails on an entry that contradicts the scenario (as [`replay`]).
    pub fn advance(&mut self) -> Result<(), String> {
        let index = self.next;
        if index >= self.events.len() {
            return Ok(());
        }
        Kept {
            start: &self.start,
            kept: &self.kept,
        }
        .advance(self.events, &mut self.state, index)?;
        self.next += 1;
        if self.next.is_multiple_of(STRIDE) {
            self.kept.insert(self.next, self.state.clone());
        }
        Ok(())
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
