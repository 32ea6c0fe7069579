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

pub mod force;

pub use force::{
    ForceChanges, LossFrom, force_move, force_status, force_units, resolution_values, spread_loss,
};

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
    /// Where in the game it came from when no counter gave it ("turn 1's Weather (entry
    /// #5)"; "the turn").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// The role of an input that mirrors a procedure's result this turn (`from: result.weather`).
pub const RESULT_ROLE: &str = "result";
/// The role of an input that mirrors the game itself (`from: game.turn`).
pub const GAME_ROLE: &str = "game";

/// The amount the scenario schedules for the item a resolution answers (a side's nominal
/// APs this turn), with where it comes from in words: what `from: game.scheduled_amount` reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Scheduled {
    /// The amount.
    pub amount: i64,
    /// Where it comes from ("the scenario's schedule: French Administrative Points (nominal),
    /// May, 1").
    pub said: String,
}

/// What the game itself gives an input: the turn, this turn's results, the amount scheduled
/// for the item resolved.
#[derive(Debug, Clone, Copy, Default)]
pub struct FromGame<'a> {
    /// The ruleset (procedures' names in words; which counters carry which attributes).
    pub ruleset: Option<&'a Ruleset>,
    /// The amount scheduled for the item the resolution answers.
    pub scheduled: Option<&'a Scheduled>,
}

/// The value an input mirroring the game has: this turn's standing result of a procedure, the
/// turn, or the amount scheduled for the item resolved; with where it came from, in words.
fn from_game(
    procedure: &Procedure,
    input: &crate::rules::InputSpec,
    state: &GameState,
    events: &[super::event::Event],
    game: FromGame,
) -> Option<(Value, String)> {
    let ruleset = game.ruleset;
    let source = input.from.as_ref()?;
    match source.role.as_str() {
        GAME_ROLE if source.attribute == "turn" => {
            Some((Value::Int(i64::from(state.cursor.turn)), "the turn".into()))
        }
        GAME_ROLE if source.attribute == "scheduled_amount" => {
            let s = game.scheduled?;
            let value = Value::Int(s.amount);
            fits(procedure, &input.name, &value).then(|| (value, s.said.clone()))
        }
        RESULT_ROLE => {
            let (at, _, seq) = state
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
            // Which turn's, in so many words: a form or an explanation read later (a new turn
            // begun) must not pass an earlier turn's result off as "this turn's".
            Some((value, format!("turn {}'s {name} (entry #{seq})", at.turn)))
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

/// An input the counters in its role would give, but one of them does not hold the attribute
/// it reads yet (a Troop Quality printed on the counter, not in the rule text): the input is
/// asked for, never counted as 0.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Needed {
    /// Input name.
    pub input: String,
    /// The attribute not known.
    pub attribute: String,
    /// The counters (ids) that do not hold it yet.
    pub counters: Vec<String>,
}

/// What the counters and the game give a procedure's inputs: the values, and the inputs they
/// would give but cannot yet.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Prefill {
    /// Inputs filled in.
    pub values: Vec<Prefilled>,
    /// Inputs the counters in their role cannot give yet.
    pub needed: Vec<Needed>,
}

/// Inputs of `procedure` that the counters involved (by role) supply.
pub fn prefill(
    procedure: &Procedure,
    state: &GameState,
    events: &[super::event::Event],
    game: FromGame,
    roles: &BTreeMap<String, Vec<super::names::CounterId>>,
) -> Vec<Prefilled> {
    prefill_all(procedure, state, events, game, roles).values
}

/// Inputs of `procedure` that the counters involved (by role) supply, and those they would
/// supply but cannot yet (an attribute printed on a counter, not known).
pub fn prefill_all(
    procedure: &Procedure,
    state: &GameState,
    events: &[super::event::Event],
    game: FromGame,
    roles: &BTreeMap<String, Vec<super::names::CounterId>>,
) -> Prefill {
    let ruleset = game.ruleset;
    let roles = &super::names::role_ids_text(roles);
    let counters = |ids: &[String]| -> Vec<&CounterState> {
        ids.iter().filter_map(|id| state.counters.get(id)).collect()
    };
    let all: Vec<String> = roles.values().flatten().cloned().collect();
    let mut out = Prefill::default();
    for input in &procedure.inputs {
        let mut found: Result<Option<(Value, Vec<String>)>, Unknown> = Ok(None);
        // An input that mirrors the game (this turn's weather, the turn) comes from the game.
        if let Some((value, said)) = from_game(procedure, input, state, events, game) {
            out.values.push(Prefilled {
                input: input.name.clone(),
                value,
                from: Vec::new(),
                game: Some(said),
            });
            continue;
        }
        // An explicit source wins; when its role is not given, the conventions below apply.
        if let Some(source) = input.from.as_ref().filter(|s| roles.contains_key(&s.role)) {
            if let Some(ids) = roles.get(&source.role)
                && (source.only.is_some() || !source.unless.is_empty())
            {
                found = filtered_sum(state, ids, source);
            } else if let Some(ids) = roles.get(&source.role) {
                // Only the counters that may carry it: a Force's units carry Strength
                // Points, its Capitano an Order.
                let cs: Vec<&CounterState> = counters(ids)
                    .into_iter()
                    .filter(|c| declares(ruleset, c, &source.attribute))
                    .collect();
                found = role_value(&cs, &source.attribute, &input.kind);
            }
            out.take(procedure, &input.name, found);
            continue;
        }
        for (role, ids) in roles {
            if let Some(attr) = input.name.strip_prefix(&format!("{role}_"))
                && !matches!(found, Ok(Some(_)))
            {
                let cs = counters(ids);
                let unknown: Vec<String> = cs
                    .iter()
                    .filter(|c| {
                        !c.attributes.contains_key(attr) && c.unknown.iter().any(|u| u == attr)
                    })
                    .map(|c| c.id.clone())
                    .collect();
                let values: Vec<&Value> =
                    cs.iter().filter_map(|c| c.attributes.get(attr)).collect();
                // By this convention a number is a sum, which an unknown value would make
                // wrong; a name or a flag is read only when every counter agrees (not
                // guessed either way).
                if !unknown.is_empty() && matches!(input.kind, InputKind::Int { .. }) {
                    found = Err(Unknown {
                        attribute: attr.to_string(),
                        counters: unknown,
                    });
                } else if values.len() == cs.len()
                    && let Some(v) = aggregate(&values)
                {
                    found = Ok(Some((v, ids.clone())));
                }
            }
        }
        if matches!(found, Ok(None))
            && all.len() == 1
            && let Some(c) = counters(&all).first()
        {
            match c.attributes.get(&input.name) {
                Some(v) => found = Ok(Some((v.clone(), all.clone()))),
                None if c.unknown.contains(&input.name) => {
                    found = Err(Unknown {
                        attribute: input.name.clone(),
                        counters: all.clone(),
                    });
                }
                None => {}
            }
        }
        out.take(procedure, &input.name, found);
    }
    out
}

/// An attribute some counters do not hold yet (printed on them, not in the rule text).
#[derive(Debug)]
struct Unknown {
    attribute: String,
    counters: Vec<String>,
}

impl Prefill {
    /// Takes what one input's counters gave: a value that fits it, or the counters that do
    /// not hold the attribute yet.
    fn take(
        &mut self,
        procedure: &Procedure,
        input: &str,
        found: Result<Option<(Value, Vec<String>)>, Unknown>,
    ) {
        match found {
            Ok(Some((value, from))) if fits(procedure, input, &value) => {
                self.values.push(Prefilled {
                    input: input.to_string(),
                    value,
                    from,
                    game: None,
                });
            }
            Ok(_) => {}
            Err(u) => self.needed.push(Needed {
                input: input.to_string(),
                attribute: u.attribute,
                counters: u.counters,
            }),
        }
    }
}

/// The value the counters of a role give an attribute: a number summed over every one of them
/// (each must hold it), a name read from those that carry it (a Force's Order, on its
/// Capitano) when they agree; the counters that do not hold it yet, when one is printed on
/// them and not known.
fn role_value(
    cs: &[&CounterState],
    attribute: &str,
    kind: &InputKind,
) -> Result<Option<(Value, Vec<String>)>, Unknown> {
    let flag = matches!(kind, InputKind::Flag);
    let values: Vec<Value> = cs
        .iter()
        .filter_map(|c| match c.attributes.get(attribute) {
            Some(v) => Some(v.clone()),
            // A flag not known yet (printed on the counter) is not read as off.
            None if flag && !c.unknown.iter().any(|u| u == attribute) => {
                Some(Value::Bool(c.statuses.contains(attribute)))
            }
            None => None,
        })
        .collect();
    let refs: Vec<&Value> = values.iter().collect();
    let numeric =
        values.iter().any(|v| matches!(v, Value::Int(_))) || matches!(kind, InputKind::Int { .. });
    let unknown: Vec<String> = cs
        .iter()
        .filter(|c| {
            !c.attributes.contains_key(attribute) && c.unknown.iter().any(|u| u == attribute)
        })
        .map(|c| c.id.clone())
        .collect();
    // A number needs every counter's; a name or a flag, those that carry it.
    if !unknown.is_empty() && (numeric || values.is_empty()) {
        return Err(Unknown {
            attribute: attribute.to_string(),
            counters: unknown,
        });
    }
    if !cs.is_empty()
        && (values.len() == cs.len() || (!numeric && !values.is_empty()))
        && let Some(v) = aggregate(&refs)
    {
        return Ok(Some((v, cs.iter().map(|c| c.id.clone()).collect())));
    }
    Ok(None)
}

/// Whether a counter of its kind may carry `attribute` (a leader the leaders' attributes, any
/// other the units'); every counter may when there is no ruleset to ask.
fn declares(ruleset: Option<&Ruleset>, c: &CounterState, attribute: &str) -> bool {
    let Some(r) = ruleset else {
        return true;
    };
    let specs = match c.kind {
        super::scenario::CounterKind::Leader => &r.leaders,
        _ => &r.units,
    };
    specs.iter().any(|a| a.name == attribute) || c.attributes.contains_key(attribute)
}

/// The sum of `source.attribute` over the units of a role (a Force, or its Capitano's) that
/// pass its filters (`only:` a Quality group, `unless:` Demoralised or Artillery), with the
/// units summed. The units whose value or filtered attribute is not known yet (printed on the
/// counter, not in the text) when there are any: the umpire gives it.
fn filtered_sum(
    state: &GameState,
    ids: &[String],
    source: &crate::rules::InputSource,
) -> Result<Option<(Value, Vec<String>)>, Unknown> {
    let units = force::force_units(state, ids);
    if units.is_empty() {
        return Ok(None);
    }
    let mut sum = 0;
    let mut from = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    let mut unknown_attribute: Option<String> = None;
    let mut missing = |c: &CounterState, attribute: Option<String>| {
        unknown.push(c.id.clone());
        let first = attribute.or_else(|| c.unknown.first().cloned());
        if unknown_attribute.is_none() {
            unknown_attribute = first;
        }
    };
    'units: for c in units {
        let test =
            |f: &crate::rules::CounterFilter| f.matches(&c.attributes, &c.statuses, &c.unknown);
        // The attribute a filter reads that the counter does not hold yet.
        let unread = |f: &crate::rules::CounterFilter| {
            f.0.keys()
                .find(|a| !c.attributes.contains_key(*a) && c.unknown.contains(a))
                .cloned()
        };
        let mut left_out = false;
        for f in &source.unless {
            match test(f) {
                Some(true) => left_out = true,
                Some(false) => {}
                None => {
                    missing(c, unread(f));
                    continue 'units;
                }
            }
        }
        if left_out {
            continue;
        }
        if let Some(only) = &source.only {
            match test(only) {
                Some(true) => {}
                Some(false) => continue,
                None => {
                    missing(c, unread(only));
                    continue;
                }
            }
        }
        let Some(Value::Int(v)) = c.attributes.get(&source.attribute) else {
            if c.unknown.contains(&source.attribute) {
                missing(c, Some(source.attribute.clone()));
                continue;
            }
            return Ok(None);
        };
        sum += v;
        from.push(c.id.clone());
    }
    if !unknown.is_empty() {
        return Err(Unknown {
            attribute: unknown_attribute.unwrap_or_else(|| source.attribute.clone()),
            counters: unknown,
        });
    }
    Ok(Some((Value::Int(sum), from)))
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
    /// The changes proposed: one for a single counter, one or more per unit for a Force (a
    /// loss spread by the ruleset's rule, a status on every unit). Empty when the umpire
    /// chooses.
    pub changes: Vec<CounterChange>,
    /// How the changes were made, with the rule ("spread as evenly as possible over 3 units
    /// (8)").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub said: Option<String>,
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

/// Proposes counter changes for the effects of a result (losses spread by the ruleset's
/// default loss rule; [`propose_for`] names the procedure).
pub fn propose(
    ruleset: &Ruleset,
    state: &GameState,
    effects: &[Effect],
    roles: &BTreeMap<String, Vec<String>>,
) -> Vec<Proposal> {
    propose_for(ruleset, state, LossFrom::default(), effects, roles)
}

/// Proposes counter changes for the effects of a result of a procedure (`from`: the procedure
/// and the resolution's values): on a Force (a role holding several counters, or a Capitano
/// alone for a loss), a loss is spread over its units by the rule the ruleset declares for the
/// procedure and a status goes on every unit (or on the one the text says); on one counter,
/// the change for it.
pub fn propose_for(
    ruleset: &Ruleset,
    state: &GameState,
    from: LossFrom,
    effects: &[Effect],
    roles: &BTreeMap<String, Vec<String>>,
) -> Vec<Proposal> {
    let mut out = Vec::new();
    for effect in effects {
        let cands = candidates(effect, state, roles);
        if let Some(on_force) = force_effect(ruleset, state, from, effect, &cands) {
            out.push(Proposal {
                effect: effect.clone(),
                candidates: cands,
                changes: on_force.changes,
                said: on_force.said,
                choice: on_force.choice,
            });
            continue;
        }
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
            // A place held and reinforcements brought are facts the game folds from the
            // result itself (its control of places, its arrivals): no counter changes.
            EffectKind::FollowUp
            | EffectKind::Note
            | EffectKind::Value
            | EffectKind::VictoryPoints
            | EffectKind::Control
            | EffectKind::Arrival => (None, None),
        };
        out.push(Proposal {
            effect: effect.clone(),
            candidates: cands,
            changes: change.into_iter().collect(),
            said: None,
            choice,
        });
    }
    out
}

/// A loss or a status that falls on a Force: a role holding several counters, or (a loss) a
/// Capitano alone, whose units absorb it. None for an effect on one counter.
fn force_effect(
    ruleset: &Ruleset,
    state: &GameState,
    from: LossFrom,
    effect: &Effect,
    cands: &[String],
) -> Option<force::ForceChanges> {
    let leader_alone = cands.len() == 1
        && state
            .counters
            .get(&cands[0])
            .is_some_and(|c| c.kind == super::scenario::CounterKind::Leader);
    match effect.kind {
        EffectKind::SpLoss
            if ruleset.strength_attribute.is_some() && (cands.len() > 1 || leader_alone) =>
        {
            let amount = effect.amount.unwrap_or(0);
            let from = LossFrom {
                role: effect.side.as_deref(),
                ..from
            };
            Some(force::spread_loss(ruleset, state, from, cands, amount))
        }
        EffectKind::Status if cands.len() > 1 => {
            let status = effect.status.as_deref()?;
            Some(force::force_status(ruleset, state, cands, status))
        }
        _ => None,
    }
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
