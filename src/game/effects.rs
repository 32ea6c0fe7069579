//! Between the engine and the table: inputs prefilled from the counters involved, and the effects
//! of a result proposed as counter changes for the umpire to confirm.
//!
//! Prefill convention: an input named after a unit attribute takes that attribute of the single
//! counter involved; an input `<role>_<attribute>` takes the sum (numbers) or the shared value
//! (names, flags) over the counters given for that role, e.g. `attacker_strength_points`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::event::CounterChange;
use super::state::{CounterState, GameState};
use crate::resolve::Effect;
use crate::rules::{InputKind, Procedure, Ruleset, Value};

/// An input value taken from the counters, with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prefilled {
    /// Input name.
    pub input: String,
    /// Its value.
    pub value: Value,
    /// The counters it came from.
    pub from: Vec<String>,
}

fn aggregate(values: &[&Value]) -> Option<Value> {
    let first = *values.first()?;
    match first {
        Value::Int(_) => Some(Value::Int(
            values
                .iter()
                .map(|v| if let Value::Int(i) = v { *i } else { 0 })
                .sum(),
        )),
        _ => values.iter().all(|v| *v == first).then(|| first.clone()),
    }
}

fn fits(procedure: &Procedure, input: &str, value: &Value) -> bool {
    let Some(spec) = procedure.input(input) else {
        return false;
    };
    match (&spec.kind, value) {
        (InputKind::Int { min, max }, Value::Int(v)) => v >= min && v <= max,
        (InputKind::Choice { choices }, Value::Text(t)) => {
            choices.iter().any(|c| c.eq_ignore_ascii_case(t))
        }
        (InputKind::Flag, Value::Bool(_)) => true,
        _ => false,
    }
}

/// Inputs of `procedure` that the counters involved (by role) supply.
pub fn prefill(
    procedure: &Procedure,
    state: &GameState,
    roles: &BTreeMap<String, Vec<String>>,
) -> Vec<Prefilled> {
    let counters = |ids: &[String]| -> Vec<&CounterState> {
        ids.iter().filter_map(|id| state.counters.get(id)).collect()
    };
    let all: Vec<String> = roles.values().flatten().cloned().collect();
    let mut out = Vec::new();
    for input in &procedure.inputs {
        let mut found = None;
        for (role, ids) in roles {
            if let Some(attr) = input.name.strip_prefix(&format!("{role}_")) {
                let cs = counters(ids);
                let values: Vec<&Value> =
                    cs.iter().filter_map(|c| c.attributes.get(attr)).collect();
                if values.len() == cs.len()
                    && let Some(v) = aggregate(&values)
                {
                    found = Some((v, ids.clone()));
                }
            }
        }
        if found.is_none()
            && all.len() == 1
            && let Some(v) = counters(&all)
                .first()
                .and_then(|c| c.attributes.get(&input.name))
        {
            found = Some((v.clone(), all.clone()));
        }
        if let Some((value, from)) = found.filter(|(v, _)| fits(procedure, &input.name, v)) {
            out.push(Prefilled {
                input: input.name.clone(),
                value,
                from,
            });
        }
    }
    out
}

/// One effect of a result, with the counters it may fall on and the change proposed when the
/// choice is not the umpire's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    /// The effect.
    pub effect: Effect,
    /// Counters it may apply to.
    pub candidates: Vec<String>,
    /// The change, when there is exactly one candidate (otherwise the umpire chooses).
    pub change: Option<CounterChange>,
    /// What the umpire must decide, if anything.
    pub choice: Option<String>,
}

fn candidates(
    effect: &Effect,
    state: &GameState,
    roles: &BTreeMap<String, Vec<String>>,
) -> Vec<String> {
    let live = |id: &String| state.counters.get(id).is_some_and(|c| c.removed.is_none());
    match &effect.side {
        Some(side) => match roles.get(side) {
            Some(ids) => ids.iter().filter(|id| live(id)).cloned().collect(),
            None => roles
                .values()
                .flatten()
                .filter(|id| live(id) && state.counters.get(*id).is_some_and(|c| c.side == *side))
                .cloned()
                .collect(),
        },
        None => roles
            .values()
            .flatten()
            .filter(|id| live(id))
            .cloned()
            .collect(),
    }
}

/// Proposes counter changes for the effects of a result.
pub fn propose(
    ruleset: &Ruleset,
    state: &GameState,
    effects: &[Effect],
    roles: &BTreeMap<String, Vec<String>>,
) -> Vec<Proposal> {
    let mut out = Vec::new();
    for effect in effects {
        let cands = candidates(effect, state, roles);
        let single = (cands.len() == 1).then(|| cands[0].clone());
        let (change, choice) = match effect.kind.as_str() {
            "sp_loss" => {
                let amount = effect.amount.unwrap_or(0);
                match (&ruleset.strength_attribute, single) {
                    (Some(_), Some(id)) => (strength_loss(ruleset, state, &id, amount), None),
                    (Some(_), None) => (
                        None,
                        Some(format!(
                            "distribute {amount} strength loss among {}",
                            cands.join(", ")
                        )),
                    ),
                    (None, _) => (
                        None,
                        Some(format!(
                            "{amount} strength loss: this ruleset names no strength attribute; record it with `game set`"
                        )),
                    ),
                }
            }
            "status" => match (single, &effect.status) {
                (Some(id), Some(status)) => (
                    Some(CounterChange::Status {
                        counter: id,
                        status: status.clone(),
                        on: true,
                    }),
                    None,
                ),
                (_, Some(status)) => (
                    None,
                    Some(format!(
                        "choose which of {} becomes {status}",
                        cands.join(", ")
                    )),
                ),
                _ => (None, None),
            },
            "eliminate" => match single {
                Some(id) => (
                    Some(CounterChange::Remove {
                        counter: id,
                        reason: effect.text.clone().unwrap_or_else(|| "eliminated".into()),
                    }),
                    None,
                ),
                None => (
                    None,
                    Some(format!(
                        "choose what is eliminated among {}",
                        cands.join(", ")
                    )),
                ),
            },
            "retreat" | "advance" | "move" => (
                None,
                Some("move the counters on the table, then record it with `game move`".into()),
            ),
            _ => (None, None),
        };
        out.push(Proposal {
            effect: effect.clone(),
            candidates: cands,
            change,
            choice,
        });
    }
    out
}

/// The change for a strength loss of `amount` on one counter (never below 0), when the ruleset
/// names its strength attribute.
pub fn strength_loss(
    ruleset: &Ruleset,
    state: &GameState,
    counter: &str,
    amount: i64,
) -> Option<CounterChange> {
    let attribute = ruleset.strength_attribute.clone()?;
    let from = state
        .counters
        .get(counter)
        .and_then(|c| c.attributes.get(&attribute))
        .cloned();
    let now = if let Some(Value::Int(v)) = from { v } else { 0 };
    Some(CounterChange::Attribute {
        counter: counter.to_string(),
        attribute,
        from,
        to: Value::Int((now - amount).max(0)),
    })
}
