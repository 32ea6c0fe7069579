//! Checks of victory: the facts the conditions read (a place's control, a battle won, Victory
//! Points), the end of the game, and what goes on once it has ended.

use super::*;
use crate::game::event::{VictoryFact, VictoryResult};
use crate::game::victory;

/// What may still be done once the game has ended: undo (of the ending, to reopen it), redo,
/// notes, announcements, the clock and the seed's reveal.
pub(super) fn goes_on_after_the_end(action: &Action) -> bool {
    matches!(
        action,
        Action::Undo
            | Action::Redo
            | Action::Note { .. }
            | Action::Announce { .. }
            | Action::Clock(_)
            | Action::RevealSeed
    )
}

/// Whether an action's entries can end the game at once (sudden death): facts, moves,
/// results and changes; not the Sequence of Play (its Victory Phase ends it in `next`) nor the
/// journal's own work.
pub(super) fn may_end_the_game(action: &Action) -> bool {
    !matches!(
        action,
        Action::Next
            | Action::Back
            | Action::Undo
            | Action::Redo
            | Action::Note { .. }
            | Action::Announce { .. }
            | Action::Clock(_)
            | Action::ClockStep { .. }
            | Action::RevealSeed
            | Action::EndGame { .. }
            | Action::Deck { .. }
            | Action::SealOrders { .. }
            | Action::RevealOrders { .. }
    )
}

/// "The Swiss side wins: …" as the end of a sentence after a dash.
pub(super) fn sentence_end(sentence: &str) -> String {
    let mut s = sentence.trim_end_matches('.').to_string();
    s.push('.');
    s
}

/// Where counters go in these entries: (counter, position).
fn moves(kinds: &[EventKind]) -> Vec<(String, Position)> {
    kinds
        .iter()
        .flat_map(|k| match k {
            EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
                changes.as_slice()
            }
            _ => &[],
        })
        .filter_map(|c| match c {
            CounterChange::Move { counter, to, .. } => Some((counter.clone(), to.clone())),
            _ => None,
        })
        .collect()
}

/// The game as it would stand after these entries.
fn after(view: &View, kinds: &[EventKind]) -> Option<GameState> {
    let mut state = view.state.clone();
    let first = view.events.len() as u64 + 1;
    for (seq, kind) in (first..).zip(kinds) {
        let e = Event {
            seq,
            at: chrono::Utc::now(),
            by: None,
            cursor: state.cursor.clone(),
            kind: kind.clone(),
        };
        crate::game::state::append_event(&mut state, &e).ok()?;
    }
    Some(state)
}

/// Control changes the moves in these entries make, then the result that ends the game at
/// once, if one does — appended to `kinds`.
pub(super) fn sudden_death(view: &View, kinds: &mut Vec<EventKind>) -> Option<VictoryResult> {
    if !victory::has_conditions(view.scenario) && view.scenario.holdings.is_empty() {
        return None;
    }
    let moved = moves(kinds);
    if !moved.is_empty() {
        for fact in victory::conquests(view.scenario, view.state, &moved) {
            kinds.push(EventKind::Victory { fact });
        }
    }
    let state = after(view, kinds)?;
    victory::ending_now(view.scenario, &state)
}

pub(super) fn check_victory_fact(view: &View, fact: &VictoryFact) -> Checked {
    let side = |s: &str| -> Result<String, Refusal> {
        Ok(crate::game::names::side_in(view.scenario, s)?
            .as_str()
            .to_string())
    };
    let fact = match fact {
        VictoryFact::Control {
            place,
            side: s,
            conquered,
            reason,
        } => {
            let Some(name) = victory::place_named(view.scenario, place) else {
                return Err(Refusal::NoSuchPlace {
                    place: place.clone(),
                    close: victory::tracked_places(view.scenario)
                        .into_iter()
                        .map(|p| p.name)
                        .collect(),
                });
            };
            VictoryFact::Control {
                place: name,
                side: s.as_deref().map(side).transpose()?,
                conquered: *conquered,
                reason: reason.clone(),
            }
        }
        VictoryFact::BattleWon {
            side: s,
            battle,
            reason,
        } => VictoryFact::BattleWon {
            side: side(s)?,
            battle: battle.trim().to_lowercase().replace([' ', '-'], "_"),
            reason: reason.clone(),
        },
        VictoryFact::Points {
            side: s,
            points,
            reason,
        } => {
            needs_reason(reason, "Victory Points")?;
            VictoryFact::Points {
                side: side(s)?,
                points: *points,
                reason: reason.clone(),
            }
        }
        VictoryFact::Ended { .. } => {
            return Err(Refusal::NoVictory {
                reason: "the end of the game is recorded with `game end`".into(),
            });
        }
    };
    Ok(vec![EventKind::Victory { fact }])
}

pub(super) fn check_end_game(view: &View, declare: Option<&str>, reason: &str) -> Checked {
    needs_reason(reason, "ending the game")?;
    let mut result = match declare {
        Some(typed) => declared(view, typed)?,
        None => {
            let standing = victory::standing(view.scenario, view.state);
            standing.if_ended_now.unwrap_or_else(|| VictoryResult {
                winner: None,
                item: None,
                level: None,
                sentence: "the game ended; the scenario declares no victory conditions the engine reads — the umpire's result is in the reason".into(),
                reasons: Vec::new(),
            })
        }
    };
    result
        .reasons
        .push(format!("Ended by the umpire: {}", reason.trim()));
    Ok(vec![victory::ended(result)])
}

/// The result a side may declare, named by its item's id or title.
fn declared(view: &View, typed: &str) -> Result<VictoryResult, Refusal> {
    let wanted = typed.trim().to_lowercase();
    let all = victory::declarable(view.scenario, view.state);
    let titles = |r: &VictoryResult| {
        view.scenario
            .victory
            .iter()
            .find(|i| Some(&i.id) == r.item.as_ref())
            .map(|i| (i.id.to_lowercase(), i.title.to_lowercase()))
    };
    if let Some(r) = all.iter().find(|r| {
        titles(r).is_some_and(|(id, title)| id == wanted || title == wanted) || wanted.is_empty()
    }) {
        return Ok(r.clone());
    }
    let can: Vec<String> = all.iter().map(|r| r.sentence.clone()).collect();
    Err(Refusal::NoVictory {
        reason: if can.is_empty() {
            format!(
                "no side may declare '{typed}' now: no victory that may be declared holds at this step"
            )
        } else {
            format!(
                "'{typed}' may not be declared now — may be declared: {}",
                can.join("; ")
            )
        },
    })
}
