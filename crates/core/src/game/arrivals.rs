//! Reinforcements arriving: a scenario's scheduled ones at the ruleset's deployment step
//! (`reinforcements_step`, ailsh C.1), its conditional ones once the procedure result that
//! brings them stands (`brought_by`); each arrival enters in one action, one journal entry.

use super::event::{CounterChange, Cursor};
use super::scenario::{ConditionalReinforcement, CounterKind, CounterSpec, Position, Scenario};
use super::state::{GameState, conditional_box, reinforcement_box};
use super::steps::{LeafStep, Pending, leaf_steps};
use super::words::position_words;
use crate::rules::{Ruleset, Value};

/// The index of the leaf step where reinforcements are deployed: the ruleset's
/// `reinforcements_step`, else the turn's first step.
pub fn deployment_step(ruleset: &Ruleset, steps: &[LeafStep]) -> usize {
    ruleset
        .reinforcements_step
        .as_ref()
        .and_then(|id| steps.iter().position(|s| s.id == *id))
        .unwrap_or(0)
}

/// One arrival that can be entered now or later: its pending item's key and words, and where
/// each of its waiting counters goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrival {
    /// The pending item's key (`reinforcements:TURN` or `arrival:ID`).
    pub key: String,
    /// In words ("Roist arrives at hex 4029: 7 counters").
    pub label: String,
    /// Its waiting counters and where each goes (the entry, or its own off-map place such as
    /// "Breakdown Units available").
    pub moves: Vec<(String, Position)>,
    /// Where they enter.
    pub entry: Position,
    /// Whether it is due now (at its step, or later in the game).
    pub due: bool,
    /// Whether the cursor is at the step it is due at (Next waits for it there).
    pub at_its_step: bool,
    /// Why, for the journal: the rule that brings them.
    pub reason: String,
}

/// Whether a counter of the game is still waiting off the map in `box_label`.
fn waiting(state: &GameState, spec: &CounterSpec, box_label: &str) -> bool {
    state.counters.get(&spec.id).is_some_and(|c| {
        c.removed.is_none() && c.position == Position::OffMap(box_label.to_string())
    })
}

/// The scheduled reinforcements of the cursor's turn, due at the deployment step (None when
/// the turn has none).
fn scheduled(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    cursor: &Cursor,
) -> Option<Arrival> {
    let steps = leaf_steps(ruleset);
    let turn = cursor.turn;
    let box_label = reinforcement_box(turn);
    let due_here: Vec<_> = scenario
        .reinforcements
        .iter()
        .filter(|r| r.turn == turn)
        .collect();
    let count: usize = due_here.iter().map(|r| r.counters.len()).sum();
    if count == 0 {
        return None;
    }
    let moves: Vec<(String, Position)> = due_here
        .iter()
        .flat_map(|r| &r.counters)
        .filter(|c| waiting(state, c, &box_label))
        .map(|c| (c.id.clone(), c.position.clone()))
        .collect();
    let deploy = deployment_step(ruleset, &steps);
    let entry = due_here.first().map(|r| r.entry.clone())?;
    Some(Arrival {
        key: format!("reinforcements:{turn}"),
        label: format!(
            "Reinforcements arrive: {count} counters ({} still to place)",
            moves.len()
        ),
        moves,
        entry,
        due: cursor.step >= deploy,
        at_its_step: cursor.step == deploy,
        reason: "Reinforcements arrive (scenario reinforcements)".into(),
    })
}

/// The standing result that brought a conditional reinforcement: where it was made.
fn brought_at(state: &GameState, r: &ConditionalReinforcement) -> Option<Cursor> {
    // A result whose `arrival` effect names it.
    if let Some(at) = state.brought.get(&r.id) {
        return Some(at.clone());
    }
    let by = r.brought_by.as_ref()?;
    state
        .resolved
        .iter()
        .rev()
        .find(|(_, p, seq)| {
            *p == by.procedure
                && state
                    .outcomes
                    .get(seq)
                    .is_some_and(|o| by.outcomes.contains(o))
        })
        .map(|(c, _, _)| c.clone())
}

/// Who leads a conditional reinforcement, for its words: its Capitano Generale, else its first
/// leader.
fn leader_name(r: &ConditionalReinforcement) -> Option<&str> {
    let leaders = || r.counters.iter().filter(|c| c.kind == CounterKind::Leader);
    leaders()
        .find(|c| c.attributes.get("capitano_generale") == Some(&Value::Bool(true)))
        .or_else(|| leaders().next())
        .map(|c| c.name.as_str())
}

/// A conditional reinforcement as an arrival: due from the deployment step of the turn its
/// result brings it (`after_turns` later), or at once when the result came after that step.
/// Without a `brought_by`, never due by itself (the umpire brings it when the rule says).
fn conditional(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    cursor: &Cursor,
    r: &ConditionalReinforcement,
) -> Arrival {
    let box_label = conditional_box(scenario, r);
    let moves: Vec<(String, Position)> = r
        .counters
        .iter()
        .filter(|c| waiting(state, c, &box_label))
        .map(|c| (c.id.clone(), c.position.clone()))
        .collect();
    let steps = leaf_steps(ruleset);
    let deploy = deployment_step(ruleset, &steps);
    let due_at = brought_at(state, r).map(|at| {
        let turn = at.turn + r.brought_by.as_ref().map_or(0, |b| b.after_turns);
        let step = if turn == at.turn {
            deploy.max(at.step)
        } else {
            deploy
        };
        (turn, step)
    });
    let now = (cursor.turn, cursor.step);
    let rule = scenario.special_rules.iter().find(|s| s.id == r.rule);
    let rule_words = rule.map_or(r.rule.as_str(), |s| s.title.as_str());
    let place = position_words(scenario, &r.entry);
    let label = match leader_name(r) {
        Some(who) => format!("{who} arrives at {place}: {} counters", moves.len()),
        None => format!(
            "Reinforcements of {rule_words} arrive at {place}: {} counters",
            moves.len()
        ),
    };
    Arrival {
        key: format!("arrival:{}", r.id),
        label,
        moves,
        entry: r.entry.clone(),
        due: due_at.is_some_and(|d| now >= d),
        at_its_step: due_at == Some(now),
        reason: format!(
            "Reinforcements arrive ({})",
            rule.and_then(|s| s.rule.as_deref()).unwrap_or(rule_words)
        ),
    }
}

/// Every arrival of the scenario as it stands now: this turn's scheduled reinforcements, then
/// each conditional one.
pub fn arrivals(ruleset: &Ruleset, scenario: &Scenario, state: &GameState) -> Vec<Arrival> {
    arrivals_at(ruleset, scenario, state, &state.cursor)
}

/// [`arrivals`] as they would stand with the Sequence of Play at `cursor` (what `next` looks
/// ahead at).
pub fn arrivals_at(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    cursor: &Cursor,
) -> Vec<Arrival> {
    scheduled(ruleset, scenario, state, cursor)
        .into_iter()
        .chain(
            scenario
                .conditional_reinforcements
                .iter()
                .map(|r| conditional(ruleset, scenario, state, cursor, r)),
        )
        .collect()
}

/// The pending items of arrivals at the cursor: scheduled reinforcements at the deployment
/// step (done when none is left waiting, or skipped); a conditional one from the step it is
/// due at until its counters are placed (Next waits for it only at that step).
pub(crate) fn pending_items(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    cursor: &Cursor,
    skipped: impl Fn(&str) -> bool,
) -> Vec<Pending> {
    arrivals_at(ruleset, scenario, state, cursor)
        .into_iter()
        .filter(|a| {
            a.at_its_step || (a.due && !a.moves.is_empty() && a.key.starts_with("arrival:"))
        })
        .filter(|a| a.at_its_step || !skipped(&a.key))
        .map(|a| Pending {
            done: a.moves.is_empty() || skipped(&a.key),
            mandatory: a.at_its_step,
            label: a.label,
            procedure: None,
            key: a.key,
            credit: None,
            enter: None,
            whose: None,
        })
        .collect()
}

/// The one change that enters an arrival: every waiting counter moved to where it goes (the
/// entry, or `at` instead of the entry when the text lets the umpire choose, e.g. "any road
/// hex on the eastern edge"), with the reason for the journal.
pub fn arrival_changes(
    arrival: &Arrival,
    state: &GameState,
    at: Option<&Position>,
) -> (Vec<CounterChange>, String) {
    let changes = arrival
        .moves
        .iter()
        .map(|(id, to)| {
            let to = match at {
                Some(place) if *to == arrival.entry => place.clone(),
                _ => to.clone(),
            };
            CounterChange::Move {
                counter: id.clone(),
                from: state.counters.get(id).map(|c| c.position.clone()),
                to,
            }
        })
        .collect();
    (changes, arrival.reason.clone())
}

/// The arrival the umpire names: an item's key, its number or words, a conditional
/// reinforcement's id, or its special rule's id or title; without a name, the first arrival
/// due now that has counters waiting.
pub fn find_arrival(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    named: Option<&str>,
) -> Result<Arrival, String> {
    let all = arrivals(ruleset, scenario, state);
    let Some(named) = named.map(str::trim).filter(|n| !n.is_empty()) else {
        return all
            .into_iter()
            .find(|a| a.due && !a.moves.is_empty())
            .ok_or_else(|| "no reinforcements are due here: name the ones to bring".to_string());
    };
    let lower = named.to_lowercase();
    let conditional_of = |a: &Arrival| {
        a.key.strip_prefix("arrival:").and_then(|id| {
            scenario
                .conditional_reinforcements
                .iter()
                .find(|r| r.id == id)
        })
    };
    let matches = |a: &Arrival| {
        a.key == named
            || a.label.to_lowercase() == lower
            || conditional_of(a).is_some_and(|r| {
                r.id == named
                    || r.rule == named
                    || scenario
                        .special_rules
                        .iter()
                        .any(|s| s.id == r.rule && s.title.to_lowercase().contains(&lower))
            })
    };
    let Some(arrival) = all.iter().find(|a| matches(a)).cloned() else {
        let names: Vec<String> = scenario
            .conditional_reinforcements
            .iter()
            .map(|r| r.id.clone())
            .collect();
        return Err(format!(
            "'{named}' names no reinforcements of this scenario — the turn's scheduled ones are brought without a name{}",
            if names.is_empty() {
                String::new()
            } else {
                format!("; conditional ones: {}", names.join(", "))
            }
        ));
    };
    let brought_by = conditional_of(&arrival).and_then(|r| r.brought_by.as_ref());
    if arrival.moves.is_empty() {
        return Err(format!("{}: none is left to place", arrival.label));
    }
    if let (Some(by), false) = (brought_by, arrival.due) {
        let name = ruleset
            .procedure(&by.procedure)
            .map_or(by.procedure.as_str(), |p| p.name.as_str());
        return Err(format!(
            "not yet — {name} has not brought them ({}){}",
            arrival.label,
            if by.after_turns > 0 {
                format!(" (they arrive {} turns after its result)", by.after_turns)
            } else {
                String::new()
            }
        ));
    }
    Ok(arrival)
}
