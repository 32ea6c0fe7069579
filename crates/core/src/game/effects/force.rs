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

/// What a loss on a Force comes from: the procedure (whose loss rule spreads it), the role it
/// falls on, and the values the resolution worked out (its inputs and derived values: the
/// Quality that set the Force's Quality group, 12.1.7).
#[derive(Debug, Clone, Copy, Default)]
pub struct LossFrom<'a> {
    /// The procedure, by id.
    pub procedure: Option<&'a str>,
    /// The role the loss falls on (`attacker`).
    pub role: Option<&'a str>,
    /// The resolution's inputs and derived values, by name.
    pub values: Option<&'a std::collections::BTreeMap<String, Value>>,
}

impl<'a> LossFrom<'a> {
    /// A loss of `procedure`, with nothing else known.
    pub fn procedure(procedure: Option<&'a str>) -> LossFrom<'a> {
        LossFrom {
            procedure,
            ..LossFrom::default()
        }
    }
}

/// The inputs and derived values of a resolution, by name: what a loss rule's group reads.
pub fn resolution_values(
    r: &crate::resolve::Resolution,
) -> std::collections::BTreeMap<String, Value> {
    let mut out = r.inputs.clone();
    for d in &r.derived {
        out.insert(d.name.clone(), d.value.clone());
    }
    out
}

/// A Strength Point loss of `amount` on the counters `ids` of a role (a Force, or its
/// Capitano), spread over its units by the rule the ruleset declares for the procedure: the
/// groups it orders in turn, the share a Quality group must take (12.1.7), evenly inside.
pub fn spread_loss(
    ruleset: &Ruleset,
    state: &GameState,
    from: LossFrom,
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
    let rule = ruleset.loss_rule(from.procedure);
    let strength = |c: &CounterState| match c.attributes.get(&attribute) {
        Some(Value::Int(s)) => Some(*s),
        _ => None,
    };
    let units: Vec<&CounterState> = force_units(state, ids)
        .into_iter()
        .filter(|c| strength(c).is_some_and(|s| s > 0))
        .filter(|c| rule.is_none_or(|r| !any_matches(&r.never, c)))
        .collect();
    let mut said = Vec::new();
    let mut choice = None;
    // The units in the order they absorb: the rule's groups in turn (units of no group after
    // them), the `last` ones after all.
    let ordered = absorbing_order(rule, &units);
    let group = quality_group(rule, &from, &units, &mut said, &mut choice);
    let pairs: Vec<Vec<(String, i64)>> = ordered
        .iter()
        .map(|g| {
            g.iter()
                .map(|c| (c.id.clone(), strength(c).unwrap_or(0)))
                .collect()
        })
        .collect();
    let (lost, left) = spread_in_turn(&pairs, amount.max(0), group.as_ref());
    let mut changes = Vec::new();
    let mut took: Vec<String> = Vec::new();
    for ((id, now), l) in pairs.iter().flatten().zip(lost) {
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
    if took.len() > 1 || units.len() > 1 {
        said.insert(0, how(rule, units.len()));
        if amount > 0
            && !units.is_empty()
            && amount % units.len() as i64 != 0
            && choice.is_none()
            && rule.is_none_or(|r| r.order.is_empty())
        {
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

/// The units in the turns they absorb a loss: each of the rule's `order` groups (a unit in the
/// first it matches), the units of no group, then the `last` ones.
fn absorbing_order<'s>(
    rule: Option<&LossRule>,
    units: &[&'s CounterState],
) -> Vec<Vec<&'s CounterState>> {
    let is_last = |c: &CounterState| rule.is_some_and(|r| any_matches(&r.last, c));
    let order: &[CounterFilter] = rule.map_or(&[], |r| r.order.as_slice());
    let mut turns: Vec<Vec<&CounterState>> = vec![Vec::new(); order.len() + 2];
    for c in units {
        let at = if is_last(c) {
            order.len() + 1
        } else {
            order
                .iter()
                .position(|f| f.matches(&c.attributes, &c.statuses, &c.unknown) == Some(true))
                .unwrap_or(order.len())
        };
        turns[at].push(c);
    }
    turns.retain(|t| !t.is_empty());
    turns
}

/// The units (ids) a share of the loss must fall on (12.1.7: at least half, rounded up, from
/// the Quality group that set the Force's Quality, downgraded units included): those whose
/// attribute reaches the value the resolution worked out for the role. None when the rule has
/// no group, or it cannot be told (said, and the choice left to the umpire).
fn quality_group(
    rule: Option<&LossRule>,
    from: &LossFrom,
    units: &[&CounterState],
    said: &mut Vec<String>,
    choice: &mut Option<String>,
) -> Option<Vec<String>> {
    let g = rule?.group.as_ref()?;
    let words = || {
        format!(
            "at least half of the loss falls on the group that set the Force's {} ({})",
            g.attribute.replace('_', " "),
            g.rule
        )
    };
    let at_least = from
        .role
        .and_then(|role| g.at_least.get(role))
        .and_then(|name| from.values?.get(name));
    let Some(Value::Int(floor)) = at_least else {
        *choice = Some(format!(
            "{}: which units those are is the umpire's to say",
            words()
        ));
        return None;
    };
    let mut ids = Vec::new();
    for c in units {
        match c.attributes.get(&g.attribute) {
            Some(Value::Int(v)) if v >= floor => ids.push(c.id.clone()),
            Some(_) => {}
            None => {
                *choice = Some(format!(
                    "{}: the {} of {} is not known yet — which units those are is the umpire's to say",
                    words(),
                    g.attribute.replace('_', " "),
                    c.name
                ));
                return None;
            }
        }
    }
    said.push(format!("{} (at least {floor})", words()));
    Some(ids)
}

/// Takes `amount` from groups of units (id, strength) in turn, each as evenly as possible; with
/// a Quality group, at least half the amount (rounded up) falls on its units. Returns each
/// unit's loss (in the groups' order) and what could not be taken.
fn spread_in_turn(
    groups: &[Vec<(String, i64)>],
    amount: i64,
    quality: Option<&Vec<String>>,
) -> (Vec<i64>, i64) {
    let flat: Vec<&(String, i64)> = groups.iter().flatten().collect();
    let turn_of: Vec<usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(t, g)| std::iter::repeat_n(t, g.len()))
        .collect();
    let in_group = |i: usize| quality.is_some_and(|q| q.contains(&flat[i].0));
    let need = quality.map_or(0, |_| (amount + 1) / 2);
    let mut lost = vec![0i64; flat.len()];
    let mut from_group = 0;
    let mut left = amount;
    while left > 0 {
        let can = |i: usize| flat[i].1 - lost[i] > 0;
        // The group's share first when what is left must all go to it.
        let must_group =
            need - from_group >= left && (0..flat.len()).any(|i| can(i) && in_group(i));
        let turn = (0..flat.len())
            .filter(|&i| can(i) && (!must_group || in_group(i)))
            .map(|i| turn_of[i])
            .min();
        let Some(turn) = turn else { break };
        let next = (0..flat.len())
            .filter(|&i| can(i) && turn_of[i] == turn && (!must_group || in_group(i)))
            .min_by_key(|&i| (lost[i], -(flat[i].1 - lost[i]), i));
        let Some(i) = next else { break };
        lost[i] += 1;
        left -= 1;
        if in_group(i) {
            from_group += 1;
        }
    }
    (lost, left)
}

fn how(rule: Option<&LossRule>, units: usize) -> String {
    match rule {
        Some(r) if !r.order.is_empty() => format!(
            "taken in the order the rules give over {units} units, each group as evenly as possible ({})",
            r.rule
        ),
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
