//! What one side is shown of a game: its status (`umpire game status --side`) and the reveals due
//! at the current step, built on [`super::visibility`] (which judges what a side may see from the
//! ruleset alone, and so needs nothing of a running game).

use serde::Serialize;

use super::action::Action;
use super::event::CounterChange;
use super::sequence::Pending;
use super::session::Game;
use super::visibility::{CounterSight, EntrySight, SideView, reveals_due};

/// The reveals due at the game's current step, as the status changes to record (each one an
/// ordinary [`Action::SetStatus`]); empty when the step has none or all are done.
pub fn reveals_now(game: &Game) -> Vec<CounterChange> {
    let state = game.state();
    let Some(step) = game.steps().get(state.cursor.step) else {
        return Vec::new();
    };
    reveals_due(game.ruleset(), game.scenario(), state, &step.id)
        .into_iter()
        .flat_map(|(_, changes)| changes)
        .collect()
}

/// The reveals due at the game's current step as one action (one journal entry, its reason
/// citing the rule), or None when nothing is due.
pub fn reveals_action(game: &Game) -> Option<Action> {
    let state = game.state();
    let step = game.steps().get(state.cursor.step)?;
    let due = reveals_due(game.ruleset(), game.scenario(), state, &step.id);
    let rules: Vec<String> = due
        .iter()
        .filter(|(_, changes)| !changes.is_empty())
        .map(|(r, _)| r.from.rule.clone())
        .collect();
    let changes: Vec<CounterChange> = due.into_iter().flat_map(|(_, c)| c).collect();
    if changes.is_empty() {
        return None;
    }
    Some(Action::Change {
        changes,
        reason: format!(
            "{}: counters in contact revealed ({})",
            step.path,
            rules.join(", ")
        ),
    })
}

/// `umpire game status --side`: the game as one side may see it.
#[derive(Debug, Clone, Serialize)]
pub struct SideStatus {
    /// Scenario title.
    pub scenario: String,
    /// Ruleset id.
    pub ruleset: String,
    /// The side's id.
    pub side: String,
    /// The side's name.
    pub side_name: String,
    /// Turn.
    pub turn: u32,
    /// Turns in the scenario.
    pub turns: u32,
    /// The turn's calendar date.
    pub date: Option<String>,
    /// The current step ("Phase › Segment › Step").
    pub step: String,
    /// The pending items the side may see.
    pub pending: Vec<Pending>,
    /// Journal length.
    pub events: usize,
    /// Entries the side sees whole or in part.
    pub seen_events: usize,
    /// The counters it sees at all, as it sees them.
    pub counters: Vec<CounterSight>,
}

impl SideStatus {
    /// The status of `game` as `side` may see it.
    pub fn of(game: &Game, side: &str) -> Result<SideStatus, String> {
        let view = SideView::new(game.ruleset(), game.scenario(), side)?;
        let sights = view.journal(game.events())?;
        let status = game.status();
        Ok(SideStatus {
            scenario: status.scenario,
            ruleset: status.ruleset,
            side: side.to_string(),
            side_name: view.side_name().to_string(),
            turn: status.turn,
            turns: status.turns,
            date: status.date,
            step: status.step.path,
            pending: pending_seen(&status.pending, &sights, side),
            events: status.events,
            seen_events: sights.iter().filter(|s| s.sight.seen()).count(),
            counters: view.at(game.state()).counters(),
        })
    }
}

/// The pending items the side may see (a follow-up of an entry it does not see is left out;
/// another side's revealed card only once carried out, as the table shows it); `sights` from
/// [`SideView::journal`].
pub fn pending_seen(pending: &[Pending], sights: &[EntrySight], side: &str) -> Vec<Pending> {
    pending
        .iter()
        .filter(|p| {
            if p.key.starts_with("card:") {
                return p.done
                    || matches!(&p.whose, Some(crate::game::steps::Whose::Side(s)) if s == side);
            }
            let Some(from) = p
                .key
                .strip_prefix("follow_up:")
                .and_then(|s| s.parse::<u64>().ok())
            else {
                return true;
            };
            sights
                .iter()
                .find(|s| s.seq == from)
                .is_some_and(|s| s.sight.seen())
        })
        .cloned()
        .collect()
}
