//! The Sequence of Play: the ruleset's phases, segments and steps flattened into leaf steps,
//! what applies at each on the game as it stands ([`when`]), and what is pending or done at
//! the cursor ([`items`]). `next` goes to the next step that needs the umpire: a step whose
//! `when` holds and that has something to resolve, draw, credit or place; the steps between
//! are passed, and said ([`passed_between`]). Branches (a Major Battle, a Skirmish) are
//! entered by choice; a cycle repeats while its cup holds markers.

mod items;
mod when;

pub use super::steps::{LeafStep, NO_ITEM, Pending, Whose, find_pending, leaf_steps};
pub use items::*;

use super::event::Cursor;
use super::scenario::Scenario;
use super::state::GameState;
use crate::rules::Ruleset;

/// The cursor after `c` (the next step, or the first step of the next turn).
pub fn next_cursor(c: &Cursor, steps: usize) -> Cursor {
    if c.step + 1 < steps {
        Cursor {
            turn: c.turn,
            step: c.step + 1,
        }
    } else {
        Cursor {
            turn: c.turn + 1,
            step: 0,
        }
    }
}

/// The cursor before `c`, if any.
pub fn previous_cursor(c: &Cursor, steps: usize) -> Option<Cursor> {
    if c.step > 0 {
        Some(Cursor {
            turn: c.turn,
            step: c.step - 1,
        })
    } else if c.turn > 1 {
        Some(Cursor {
            turn: c.turn - 1,
            step: steps.saturating_sub(1),
        })
    } else {
        None
    }
}

/// The step after `c` in the printed order, passing by the end-of-scenario steps on every
/// turn but the last (what the megagame clock steps through; `next` uses [`next_stop`]).
pub fn next_step(c: &Cursor, steps: &[LeafStep], last_turn: u32) -> Cursor {
    let mut to = next_cursor(c, steps.len());
    for _ in 0..steps.len() {
        match steps.get(to.step) {
            Some(s) if s.scenario_end && to.turn < last_turn => {
                to = next_cursor(&to, steps.len());
            }
            _ => break,
        }
    }
    to
}

/// The step before `c` in the printed order, passing by the end-of-scenario steps of earlier
/// turns.
pub fn previous_step(c: &Cursor, steps: &[LeafStep], last_turn: u32) -> Option<Cursor> {
    let mut to = previous_cursor(c, steps.len())?;
    for _ in 0..steps.len() {
        match steps.get(to.step) {
            Some(s) if s.scenario_end && to.turn < last_turn => {
                to = previous_cursor(&to, steps.len())?;
            }
            _ => break,
        }
    }
    Some(to)
}

/// The game's walk: its ruleset, scenario and state, and the leaf steps.
pub struct Walk<'a> {
    /// The ruleset.
    pub ruleset: &'a Ruleset,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The state.
    pub state: &'a GameState,
    /// The leaf steps.
    pub steps: &'a [LeafStep],
}

/// Why the walk passes a step on its way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Passing {
    /// It is the game's to stop at.
    Stop,
    /// It applies, with nothing for the umpire (table work: said as passed).
    Passed,
    /// It does not apply now (another branch, another turn's, its `when` does not hold).
    Silent,
}

impl Walk<'_> {
    fn last_turn(&self) -> u32 {
        self.scenario.turns.max(1)
    }

    /// Whether the step at `c` applies to the game now: its `when` and its phases' hold, and
    /// an end-of-scenario step only on the last turn.
    pub fn applies(&self, c: &Cursor) -> bool {
        let Some(s) = self.steps.get(c.step) else {
            return false;
        };
        if s.scenario_end && c.turn < self.last_turn() {
            return false;
        }
        let contact = when::Contact::of(self.state);
        let judge = when::Judge {
            ruleset: self.ruleset,
            scenario: self.scenario,
            state: self.state,
            turn: c.turn,
            contact: &contact,
        };
        s.conditions.iter().all(|x| judge.holds(x, None))
    }

    fn judge(&self, c: &Cursor, branch: Option<&String>) -> Passing {
        let Some(s) = self.steps.get(c.step) else {
            return Passing::Silent;
        };
        if s.branch.is_some() && s.branch.as_ref() != branch {
            return Passing::Silent;
        }
        // A step that does not apply still holds what the scenario schedules there (a roll
        // the text places in that step) and arrivals due there.
        let applies = self.applies(c);
        let open = pending_at(self.ruleset, self.scenario, self.state, c)
            .iter()
            .any(|p| !p.done);
        // A Victory Phase where a side may declare a victory stops: the declaration is offered.
        let declarable = applies
            && s.victory
            && !super::victory::declarable(self.scenario, self.state).is_empty();
        match (open || (applies && (s.stop || declarable)), applies) {
            (true, _) => Passing::Stop,
            (false, true) => Passing::Passed,
            (false, false) => Passing::Silent,
        }
    }

    /// The first leaf of the cycle `id` and whether `at` is its last.
    fn cycle_bounds(&self, id: &str) -> Option<(usize, usize)> {
        let first = self
            .steps
            .iter()
            .position(|s| s.within.iter().any(|w| w == id))?;
        let last = self
            .steps
            .iter()
            .rposition(|s| s.within.iter().any(|w| w == id))?;
        Some((first, last))
    }

    /// Whether the deck or cup still holds something.
    fn holds_some(&self, deck: &str) -> bool {
        self.ruleset
            .decks
            .iter()
            .find(|d| d.id == deck)
            .is_some_and(|spec| self.state.deck(spec, None).inside.values().any(|n| *n > 0))
    }

    /// The step after `c` on the walk: back to the first step of a cycle when `c` is its
    /// last and its cup still holds markers, else the next in the printed order.
    fn after(&self, c: &Cursor) -> Cursor {
        if let Some((id, deck)) = self.steps.get(c.step).and_then(|s| s.cycle.as_ref())
            && let Some((first, last)) = self.cycle_bounds(id)
            && c.step == last
            && self.holds_some(deck)
        {
            return Cursor {
                turn: c.turn,
                step: first,
            };
        }
        next_cursor(c, self.steps.len())
    }

    /// Where `next` goes from the cursor: the next step that needs the umpire (a cycle goes
    /// round again while its cup holds markers), with the steps it passes (those that apply
    /// with nothing to resolve). Past the last turn when nothing is left.
    pub fn next_stop(&self) -> (Cursor, Vec<usize>) {
        let from = &self.state.cursor;
        let mut branch = self.steps.get(from.step).and_then(|s| s.branch.clone());
        let mut passed = Vec::new();
        let mut c = from.clone();
        let bound = self.steps.len() * (self.last_turn() as usize + 2);
        for _ in 0..bound {
            c = self.after(&c);
            if c.turn > self.last_turn() {
                return (c, passed);
            }
            if self.steps.get(c.step).and_then(|s| s.branch.as_ref()) != branch.as_ref() {
                // Out of the branch the cursor was in: its sibling branches are not walked.
                branch = None;
            }
            match self.judge(&c, branch.as_ref()) {
                Passing::Stop => return (c, passed),
                Passing::Passed => passed.push(c.step),
                Passing::Silent => {}
            }
        }
        (c, passed)
    }

    /// The first step of `turn` that applies (outside branches): where a turn's scheduled
    /// items with no step of their own are due.
    pub fn first_step_of_turn(&self, turn: u32) -> usize {
        (0..self.steps.len())
            .find(|&step| self.steps[step].branch.is_none() && self.applies(&Cursor { turn, step }))
            .unwrap_or(0)
    }

    /// Where `back` goes: the previous step that applies and holds something (done or not),
    /// in the branch the cursor is in or outside any; None before the first.
    pub fn previous_stop(&self) -> Option<Cursor> {
        let from = &self.state.cursor;
        let branch = self.steps.get(from.step).and_then(|s| s.branch.clone());
        let mut c = from.clone();
        for _ in 0..self.steps.len() * (self.last_turn() as usize + 1) {
            c = previous_cursor(&c, self.steps.len())?;
            let Some(s) = self.steps.get(c.step) else {
                continue;
            };
            if (s.branch.is_some() && s.branch != branch) || !self.applies(&c) {
                continue;
            }
            let holds = !pending_at(self.ruleset, self.scenario, self.state, &c).is_empty();
            if holds || s.stop {
                return Some(c);
            }
        }
        None
    }

    /// The first leaf of the step `target` (a branch, or a step to repeat) when the step at
    /// the cursor offers it and it applies: where the umpire's choice goes.
    pub fn entry(&self, target: &str) -> Option<Cursor> {
        let here = self.steps.get(self.state.cursor.step)?;
        if !here.enter.iter().any(|e| e == target) {
            return None;
        }
        let step = self
            .steps
            .iter()
            .position(|s| s.within.iter().any(|w| w == target))?;
        let to = Cursor {
            turn: self.state.cursor.turn,
            step,
        };
        self.applies(&to).then_some(to)
    }
}

/// The steps `next` from the cursor passes with nothing for the umpire, as "Phase › Step" —
/// what a person should still do at the table on the way.
pub fn passed_between(walk: &Walk, passed: &[usize]) -> Vec<String> {
    passed
        .iter()
        .filter_map(|i| walk.steps.get(*i))
        .map(|s| s.path.clone())
        .collect()
}
