//! A result on a Force: a Strength Point loss spread over its units by the rule the ruleset
//! declares (`losses:`), a status on every unit of it (or on one, the owner's choice), and a
//! move of every counter of it. A role given a Capitano alone stands for his Force here: his
//! units absorb the loss, never he (a leader has no Strength Points to lose).

use crate::game::event::CounterChange;
use crate::game::scenario::{CounterKind, Position};
use crate::game::state::{CounterState, GameState};
use crate::rules::{CounterFilter, Distribute, LossRule, Ruleset, Value};

/// What a result does to a Force: the changes proposed, what the umpire is told of how they
/// were made (the rule cited), and what is left to the umpire's choice.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForceChanges {
    /// The changes, one or more per counter.
    pub changes: Vec<CounterChange>,
    /// How they were made, with the rule ("spread as evenly as possible over 3 units (8)").
    pub said: Option<String>,
    /// What the umpire still has to decide, if anything.
    pub choice: Option<String>,
}

fn live<'s>(state: &'s GameState, ids: &[String]) -> Vec<&'s CounterState> {
    ids.iter()
        .filter_map(|id| state.counters.get(id))
        .filter(|c| c.removed.is_none())
        .collect()
}

/// The units a result on `ids` falls on: the units among them, else (a Capitano given alone)
/// the units of his Force on the table.
pub fn force_units<'s>(state: &'s GameState, ids: &[String]) -> Vec<&'s CounterState> {
    let given = live(state, ids);
    let units: Vec<&CounterState> = given
        .iter()
        .copied()
        .filter(|c| c.kind == CounterKind::Unit)
        .collect();
    if !units.is_empty() {
        return units;
    }
    let forces: Vec<&str> = given.iter().filter_map(|c| c.force.as_deref()).collect();
    state
        .counters
        .values()
        .filter(|c| {
            c.kind == CounterKind::Unit
                && c.removed.is_none()
                && !matches!(c.position, Position::OffMap(_))
                && c.force.as_deref().is_some_and(|f| forces.contains(&f))
        })
        .collect()
}

fn any_matches(filters: &[CounterFilter], c: &CounterState) -> bool {
    filters
        .iter()
        .any(|f| f.matches(&c.attributes, &c.statuses, &c.unknown) == Some(true))
}

fn names(state: &GameState, ids: &[&str]) -> String {
    ids.iter()
        .map(|id| state.counter_name(id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Takes `amount` from `units` (id, strength), one Strength Point at a time to the unit that
/// has lost least so far, the stronger first on a tie: as evenly as possible. Returns the
/// losses per unit and what could not be taken.
fn spread(units: &[(String, i64)], amount: i64) -> (Vec<i64>, i64) {
    let mut lost = vec![0i64; units.len()];
    let mut left = amount.max(0);
    while left > 0 {
        let next = (0..units.len())
            .filter(|&i| units[i].1 - lost[i] > 0)
            .min_by_key(|&i| (lost[i], -(units[i].1 - lost[i]), i));
        let Some(i) = next else { break };
        lost[i] += 1;
        left -= 1;
    }
    (lost, left)
}

/// A Strength Point loss of `amount` on the counters `ids` of a role (a Force, or its
/// Capitano), spread over its units by the rule the ruleset declares for `procedure`.
pub fn spread_loss(
    ruleset: &Ruleset,
    state: &GameState,
    procedure: Option<&str>,
    ids: &[String],
    amount: i64,
) -> ForceChanges {
    let Some(attribute) = ruleset.strength_attribute.clone() else {
        return ForceChanges {
            choice: Some(format!(
                "{amount} strength loss: this ruleset names no strength attribute; set the strength on the counter by hand"
            )),
            ..ForceChanges::default()
        };
    };
    let rule = ruleset.loss_rule(procedure);
    let strength = |c: &CounterState| match c.attributes.get(&attribute) {
        Some(Value::Int(s)) => Some(*s),
        _ => None,
    };
    let units: Vec<&CounterState> = force_units(state, ids)
        .into_iter()
        .filter(|c| strength(c).is_some_and(|s| s > 0))
        .filter(|c| rule.is_none_or(|r| !any_matches(&r.never, c)))
        .collect();
    let (first, last): (Vec<&CounterState>, Vec<&CounterState>) = units
        .iter()
        .partition(|c| rule.is_none_or(|r| !any_matches(&r.last, c)));
    let mut changes = Vec::new();
    let mut left = amount.max(0);
    let mut took: Vec<String> = Vec::new();
    for group in [first, last] {
        let pairs: Vec<(String, i64)> = group
            .iter()
            .map(|c| (c.id.clone(), strength(c).unwrap_or(0)))
            .collect();
        let (lost, rest) = spread(&pairs, left);
        left = rest;
        for ((id, now), l) in pairs.iter().zip(lost) {
            if l == 0 {
                continue;
            }
            took.push(id.clone());
            changes.push(CounterChange::Attribute {
                counter: id.clone(),
                attribute: attribute.clone(),
                from: Some(Value::Int(*now)),
                to: Value::Int(now - l),
            });
            if now - l == 0
                && let Some(r) = rule.filter(|r| r.remove_at_zero)
            {
                changes.push(CounterChange::Remove {
                    counter: id.clone(),
                    reason: format!("reduced to 0 Strength Points ({})", r.rule),
                });
            }
        }
    }
    let mut said = Vec::new();
    let mut choice = None;
    if took.len() > 1 || units.len() > 1 {
        said.push(how(rule, units.len()));
        if amount > 0 && !units.is_empty() && amount % units.len() as i64 != 0 {
            choice = Some(format!(
                "which units take the odd Strength Point is the owner's choice (proposed: {})",
                names(state, &took.iter().map(String::as_str).collect::<Vec<_>>())
            ));
        }
    }
    if let Some(note) = rule.and_then(|r| r.note.clone()) {
        said.push(note);
    }
    if left > 0 {
        said.push(format!(
            "{left} Strength Point(s) more than the units can absorb"
        ));
    }
    if units.is_empty() {
        choice = Some(format!(
            "{amount} strength loss: no unit here has Strength Points to lose; give the Force or its units"
        ));
    }
    ForceChanges {
        changes,
        said: (!said.is_empty()).then(|| said.join("; ")),
        choice,
    }
}

fn how(rule: Option<&LossRule>, units: usize) -> String {
    match rule {
        Some(r) if r.distribute == Distribute::Evenly => {
            format!(
                "spread as evenly as possible over {units} units ({})",
                r.rule
            )
        }
        Some(r) => format!(
            "the text does not say how this loss is spread ({}): proposed evenly over {units} units; the choice is the umpire's",
            r.rule
        ),
        None => format!(
            "the ruleset gives no rule for spreading this loss: proposed evenly over {units} units; the choice is the umpire's"
        ),
    }
}

/// A status given to the counters `ids` of a role: on every unit of the Force (a Force's
/// marker), or, for a status that falls on one unit (a Combat Unit Demoralised), on the one
/// unit there is or left to the owner's choice.
pub fn force_status(
    ruleset: &Ruleset,
    state: &GameState,
    ids: &[String],
    status: &str,
) -> ForceChanges {
    let marker = ruleset.status(status);
    let label = marker.map_or_else(|| status.replace('_', " "), |m| m.label.clone());
    let units = force_units(state, ids);
    let on: Vec<&CounterState> = if units.is_empty() {
        live(state, ids)
    } else {
        units
    };
    if marker.is_some_and(|m| m.one_unit) && on.len() > 1 {
        let rule = marker
            .and_then(|m| m.rule.clone())
            .map_or(String::new(), |r| format!(" ({r})"));
        return ForceChanges {
            choice: Some(format!(
                "{label} falls on one unit{rule}: choose which of {}",
                names(state, &on.iter().map(|c| c.id.as_str()).collect::<Vec<_>>())
            )),
            ..ForceChanges::default()
        };
    }
    ForceChanges {
        changes: on
            .iter()
            .filter(|c| !c.statuses.contains(status))
            .map(|c| CounterChange::Status {
                counter: c.id.clone(),
                status: status.to_string(),
                on: true,
            })
            .collect(),
        said: (on.len() > 1).then(|| format!("{label} on every unit of the Force")),
        choice: None,
    }
}

/// Every counter of `ids` (a whole Force) moved to `to`.
pub fn force_move(state: &GameState, ids: &[String], to: &Position) -> Vec<CounterChange> {
    live(state, ids)
        .into_iter()
        .filter(|c| c.position != *to)
        .map(|c| CounterChange::Move {
            counter: c.id.clone(),
            from: Some(c.position.clone()),
            to: to.clone(),
        })
        .collect()
}
