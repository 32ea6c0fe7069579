//! Between the engine and the table: inputs prefilled from the counters involved, and the effects
//! of a result proposed as counter changes for the umpire to confirm.
//!
//! Prefill: an input with `from: {role, attribute}` (or `from: role.attribute`) takes that
//! attribute of the role's counters — the sum of numbers, or the value they share (names,
//! flags; a flag also reads a status marker of the same name). Without `from:`, by convention: an
//! input named after a unit attribute takes that attribute of the single counter involved; an
//! input `<role>_<attribute>` takes the sum (numbers) or the shared value (names, flags) over the
//! counters given for that role, e.g. `attacker_strength_points`.
//!
//! Proposals: `adjust` effects become [`CounterChange::Adjust`] (a delta, which commutes with
//! other umpires' adjustments), `set` effects [`CounterChange::Attribute`], on the counter of
//! the role the effect names (`side: state` → the state's ledger counter).

use std::collections::BTreeMap;

use serde::Serialize;

use super::event::CounterChange;
use super::state::{CounterState, GameState};
use crate::resolve::Effect;
use crate::rules::{EffectKind, InputKind, Procedure, Ruleset, Value};

/// An input value taken from the counters, with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prefilled {
    /// Input name.
    pub input: String,
    /// Its value.
    pub value: Value,
    /// The counters it came from.
    pub from: Vec<String>,
    /// Where in the game it came from when no counter gave it ("this turn's Weather Table,
    /// entry #5"; "the turn").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// The role of an input that mirrors a procedure's result this turn (`from: result.weather`).
pub const RESULT_ROLE: &str = "result";
/// The role of an input that mirrors the game itself (`from: game.turn`).
pub const GAME_ROLE: &str = "game";

/// The value an input mirroring the game has: this turn's standing result of a procedure, or
/// the turn; with where it came from, in words.
fn from_game(
    procedure: &Procedure,
    input: &crate::rules::InputSpec,
    state: &GameState,
    events: &[super::event::Event],
    ruleset: Option<&Ruleset>,
) -> Option<(Value, String)> {
    let source = input.from.as_ref()?;
    match source.role.as_str() {
        GAME_ROLE if source.attribute == "turn" => {
            Some((Value::Int(i64::from(state.cursor.turn)), "the turn".into()))
        }
        RESULT_ROLE => {
            let (_, _, seq) = state
                .resolved
                .iter()
                .rev()
                .find(|(at, p, _)| at.turn == state.cursor.turn && *p == source.attribute)?;
            let code = match state.overrides.get(seq) {
                Some(o) => o.clone(),
                None => match &events.get(seq.saturating_sub(1) as usize)?.kind {
                    super::event::EventKind::Resolved { resolution, .. } => {
                        resolution.outcome.code.clone()
                    }
                    _ => return None,
                },
            };
            let value = Value::Text(code);
            if !fits(procedure, &input.name, &value) {
                return None;
            }
            let name = ruleset
                .and_then(|r| r.procedure(&source.attribute))
                .map_or_else(|| source.attribute.replace('_', " "), |p| p.name.clone());
            Some((value, format!("this turn's {name} (entry #{seq})")))
        }
        _ => None,
    }
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
    events: &[super::event::Event],
    ruleset: Option<&Ruleset>,
    roles: &BTreeMap<String, Vec<super::names::CounterId>>,
) -> Vec<Prefilled> {
    let roles = &super::names::role_ids_text(roles);
    let counters = |ids: &[String]| -> Vec<&CounterState> {
        ids.iter().filter_map(|id| state.counters.get(id)).collect()
    };
    let all: Vec<String> = roles.values().flatten().cloned().collect();
    let mut out = Vec::new();
    for input in &procedure.inputs {
        let mut found = None;
        // An input that mirrors the game (this turn's weather, the turn) comes from the game.
        if let Some((value, said)) = from_game(procedure, input, state, events, ruleset) {
            out.push(Prefilled {
                input: input.name.clone(),
                value,
                from: Vec::new(),
                game: Some(said),
            });
            continue;
        }
        // An explicit source wins; when its role is not given, the conventions below apply.
        if let Some(source) = input.from.as_ref().filter(|s| roles.contains_key(&s.role)) {
            if let Some(ids) = roles.get(&source.role) {
                let cs = counters(ids);
                let flag = matches!(input.kind, InputKind::Flag);
                let values: Vec<Value> = cs
                    .iter()
                    .filter_map(|c| match c.attributes.get(&source.attribute) {
                        Some(v) => Some(v.clone()),
                        None if flag => Some(Value::Bool(c.statuses.contains(&source.attribute))),
                        None => None,
                    })
                    .collect();
                let refs: Vec<&Value> = values.iter().collect();
                // A number is summed over every counter of the role (each must have it); a
                // name is read from those that carry it (a Force's Order, on its Capitano)
                // when they agree.
                let numeric = values.iter().any(|v| matches!(v, Value::Int(_)));
                if !cs.is_empty()
                    && (values.len() == cs.len() || (!numeric && !values.is_empty()))
                    && let Some(v) = aggregate(&refs)
                {
                    found = Some((v, ids.clone()));
                }
            }
            if let Some((value, from)) = found.filter(|(v, _)| fits(procedure, &input.name, v)) {
                out.push(Prefilled {
                    input: input.name.clone(),
                    value,
                    from,
                    game: None,
                });
            }
            continue;
        }
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
                game: None,
            });
        }
    }
    out
}

/// The roles a procedure names: its inputs' `from:` roles and its effects' sides, in order of
/// first appearance (what a desk asks counters for: `army`, `state`, `area`…).
pub fn roles_of(ruleset: &Ruleset, procedure: &Procedure) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |r: &str| {
        if !out.iter().any(|o| o == r) {
            out.push(r.to_string());
        }
    };
    for i in &procedure.inputs {
        if let Some(f) = &i.from
            && f.role != RESULT_ROLE
            && f.role != GAME_ROLE
        {
            add(&f.role);
        }
    }
    let tables = procedure_tables(ruleset, procedure);
    let specs = procedure.outcomes.iter().flat_map(|o| &o.effects).chain(
        tables
            .iter()
            .flat_map(|t| t.results.iter().flat_map(|r| &r.effects)),
    );
    for e in specs {
        if let Some(side) = &e.side {
            add(side);
        }
    }
    out
}

fn procedure_tables<'r>(
    ruleset: &'r Ruleset,
    procedure: &Procedure,
) -> Vec<&'r crate::rules::Table> {
    match &procedure.lookup {
        crate::rules::Lookup::Table(t) => ruleset.table(&t.table).into_iter().collect(),
        _ => Vec::new(),
    }
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
        let (change, choice) = match effect.kind {
            EffectKind::SpLoss => {
                let amount = effect.amount.unwrap_or(0);
                match (&ruleset.strength_attribute, single) {
                    (Some(_), Some(id)) => (
                        super::names::CounterId::of(state, &id)
                            .and_then(|id| strength_loss(ruleset, state, &id, amount)),
                        None,
                    ),
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
                            "{amount} strength loss: this ruleset names no strength attribute; set the strength on the counter by hand"
                        )),
                    ),
                }
            }
            EffectKind::Status => match (single, &effect.status) {
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
            EffectKind::Eliminate => match single {
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
            EffectKind::Adjust | EffectKind::Set => attribute_change(effect, state, &cands, single),
            EffectKind::Retreat | EffectKind::Advance | EffectKind::Move => (
                None,
                Some("move the counters on the table, then record the move".into()),
            ),
            // Words and numbers for the umpire, and a procedure queued by the Sequence of Play:
            // no counter changes.
            EffectKind::FollowUp
            | EffectKind::Note
            | EffectKind::Value
            | EffectKind::VictoryPoints => (None, None),
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
/// names its strength attribute. The counter is an id settled at the edge ([`super::Names`]),
/// never a name typed: a name looked up as an id found nothing and took the unit to 0.
pub fn strength_loss(
    ruleset: &Ruleset,
    state: &GameState,
    counter: &super::names::CounterId,
    amount: i64,
) -> Option<CounterChange> {
    let attribute = ruleset.strength_attribute.clone()?;
    let from = state
        .counters
        .get(counter.as_str())
        .and_then(|c| c.attributes.get(&attribute))
        .cloned();
    // A counter without a strength has nothing to lose: no change, rather than a 0 invented.
    let Some(Value::Int(now)) = from else {
        return None;
    };
    Some(CounterChange::Attribute {
        counter: counter.to_string(),
        attribute,
        from,
        to: Value::Int((now - amount).max(0)),
    })
}

/// The change for an `adjust` or `set` effect on its single candidate, or what to choose.
fn attribute_change(
    effect: &Effect,
    state: &GameState,
    candidates: &[String],
    single: Option<String>,
) -> (Option<CounterChange>, Option<String>) {
    let Some(attribute) = effect.attribute.clone() else {
        return (None, None);
    };
    let what = match (effect.kind, effect.amount, &effect.value) {
        (EffectKind::Adjust, Some(by), _) => format!("{attribute} {by:+}"),
        (_, Some(a), _) => format!("{attribute} = {a}"),
        (_, None, Some(v)) => format!("{attribute} = {v}"),
        _ => attribute.clone(),
    };
    let Some(id) = single else {
        let role = effect
            .side
            .as_deref()
            .map_or(String::new(), |s| format!(" ({s})"));
        return (
            None,
            Some(if candidates.is_empty() {
                format!(
                    "{what}: give the counter{role} it falls on with --counter ROLE=ID, or adjust it with `game adjust`"
                )
            } else {
                format!("choose which of {} gets {what}", candidates.join(", "))
            }),
        );
    };
    let change = match (effect.kind, effect.amount, &effect.value) {
        (EffectKind::Adjust, Some(0), _) => return (None, None),
        (EffectKind::Adjust, Some(by), _) => CounterChange::Adjust {
            counter: id,
            attribute,
            by,
        },
        (EffectKind::Set, amount, value) => {
            let Some(to) = amount.map(Value::Int).or_else(|| value.clone()) else {
                return (None, None);
            };
            let from = state
                .counters
                .get(&id)
                .and_then(|c| c.attributes.get(&attribute))
                .cloned();
            if from.as_ref() == Some(&to) {
                return (None, None);
            }
            CounterChange::Attribute {
                counter: id,
                attribute,
                from,
                to,
            }
        }
        // An adjust with no amount; the other kinds do not come here.
        _ => return (None, None),
    };
    (Some(change), None)
}
