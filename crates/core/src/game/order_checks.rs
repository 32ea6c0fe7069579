//! What the rules do not allow on a written order, read off the table for each Force when its
//! side fills the form in: a restricted choice the game can tell is not allowed (a Garrison
//! outside a Town, City or Fortress, an Attack with half the Force Demoralised, a move by an
//! army raised this phase), and a field every Force must hold ("a Force may never remain
//! without an Order"). The phone, the desk and the command line all hand orders in through
//! [`super::Game::seal_orders`], which holds them to this one check.

use std::collections::BTreeSet;

use super::event::{CounterChange, Event, EventKind};
use super::orders::{FormInput, OrderForm};
use super::scenario::{CounterKind, Position, Scenario};
use super::sealed::payload::{OrderValue, Orders};
use super::state::{CounterState, GameState};
use super::steps::LeafStep;
use crate::rules::{OrderEach, OrderKind, PlaceKind, RestrictionTest, Ruleset, Value};

/// The counters put on the table in the phase the game is in, this turn.
pub fn raised_this_phase(
    events: &[Event],
    steps: &[LeafStep],
    state: &GameState,
) -> BTreeSet<String> {
    // The phase a step is in: the container right above it (rr3's "Phase 2" under the turn's
    // hour; ailsh's segment).
    let phase = |step: usize| {
        steps
            .get(step)
            .and_then(|s| s.within.len().checked_sub(2).map(|i| s.within[i].clone()))
    };
    let now = phase(state.cursor.step);
    let mut out = BTreeSet::new();
    for e in events.iter().rev() {
        if e.cursor.turn != state.cursor.turn || phase(e.cursor.step) != now {
            break;
        }
        let changes = match &e.kind {
            EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
                changes.as_slice()
            }
            _ => &[],
        };
        out.extend(changes.iter().filter_map(|c| match c {
            CounterChange::Add { counter, .. } => Some(counter.clone()),
            _ => None,
        }));
    }
    out
}

/// Marks on `form` what the table says of each entry: the choices refused (with the rule's
/// words) and the fields it must hold.
pub fn mark(
    form: &mut OrderForm,
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    kind: &OrderKind,
    raised: &BTreeSet<String>,
) {
    for entry in &mut form.entries {
        let counters: Vec<&CounterState> = state
            .counters
            .values()
            .filter(|c| c.removed.is_none())
            .filter(|c| match kind.each {
                OrderEach::Force => c.force.as_deref() == Some(entry.id.as_str()),
                OrderEach::Counter(_) => c.id == entry.id,
            })
            .collect();
        let holder = entry.holder.as_ref().and_then(|h| state.counters.get(h));
        for field in &mut entry.fields {
            let Some(spec) = kind.fields.iter().find(|f| f.id == field.field) else {
                continue;
            };
            // "A Force may never remain without an Order": required while the counter the
            // choice goes on holds none.
            // (Only a Force on the map: a pool or a reinforcement off it takes none.)
            field.required = spec.required
                && holder.is_some_and(|h| {
                    !matches!(h.position, Position::OffMap(_))
                        && spec
                            .sets
                            .as_ref()
                            .is_none_or(|attr| match h.attributes.get(attr) {
                                None => true,
                                Some(Value::Text(t)) => t.is_empty() || t == "none",
                                Some(_) => false,
                            })
                });
            let FormInput::Choose { choices, .. } = &mut field.input else {
                continue;
            };
            let kept = spec
                .sets
                .as_ref()
                .and_then(|a| scenario.keeps(&entry.id, a, state.cursor.turn));
            if let Some(k) = kept {
                let now = kept_value(scenario, &entry.id, holder, &counters, &k.attribute);
                for choice in choices.iter_mut() {
                    let same = now.as_deref().is_some_and(|n| {
                        n.eq_ignore_ascii_case(&choice.id) || n.eq_ignore_ascii_case(&choice.label)
                    });
                    if !same {
                        choice.refused = Some(format!(
                            "kept through turn {}: {} ({})",
                            k.through_turn, k.text, k.rule
                        ));
                    }
                }
                continue;
            }
            for choice in choices.iter_mut() {
                choice.refused = spec
                    .restrictions
                    .iter()
                    .filter(|r| r.choice == choice.id)
                    .find_map(|r| {
                        let why = why_refused(
                            r.refused_if.as_ref()?,
                            ruleset,
                            scenario,
                            state,
                            &counters,
                            raised,
                        )?;
                        Some(format!("{why}: {} ({})", r.text, r.rule))
                    });
            }
        }
    }
}

/// The value a Force keeps: its holder's (or another leader's) attribute, else the one the
/// scenario prints for it ("Garrison"; the first of "Manoeuvre, Administrative March").
fn kept_value(
    scenario: &Scenario,
    force: &str,
    holder: Option<&CounterState>,
    counters: &[&CounterState],
    attribute: &str,
) -> Option<String> {
    let text = |c: &CounterState| match c.attributes.get(attribute) {
        Some(Value::Text(t)) => Some(t.clone()),
        _ => None,
    };
    holder
        .and_then(text)
        .or_else(|| counters.iter().find_map(|c| text(c)))
        .or_else(|| {
            scenario
                .forces
                .iter()
                .find(|f| f.id == force)
                .and_then(|f| f.order.as_deref())
                .and_then(|o| o.split(',').next())
                .map(|o| o.trim().to_string())
        })
}

/// Why the test refuses the choice for a Force of `counters`, in words (None: allowed, or
/// nothing the game can tell).
fn why_refused(
    test: &RestrictionTest,
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    counters: &[&CounterState],
    raised: &BTreeSet<String>,
) -> Option<String> {
    if test.raised_this_phase {
        return counters
            .iter()
            .any(|c| raised.contains(&c.id))
            .then(|| "raised this phase".to_string());
    }
    if let Some(status) = &test.half_with_status {
        let units: Vec<&&CounterState> = counters
            .iter()
            .filter(|c| {
                c.kind == CounterKind::Unit
                    && c.attributes.get("auxiliary") != Some(&Value::Bool(true))
            })
            .collect();
        let with = units.iter().filter(|c| c.statuses.contains(status)).count();
        let label = ruleset
            .statuses
            .iter()
            .find(|s| s.id == *status)
            .map_or_else(|| status.replace('_', " "), |s| s.label.clone());
        return (!units.is_empty() && 2 * with >= units.len())
            .then(|| format!("{with} of its {} Combat Units are {label}", units.len()));
    }
    if !test.not_in.is_empty() {
        return not_in_place(&test.not_in, ruleset, scenario, state, counters);
    }
    None
}

/// Refused when the Force stands in no place of the kinds: no place the map's gazetteer (or
/// the scenario) knows there, or one of another kind. A place whose kind the text leaves open
/// is not refused (the umpire's to say).
fn not_in_place(
    kinds: &[PlaceKind],
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    counters: &[&CounterState],
) -> Option<String> {
    let at = counters
        .iter()
        .find(|c| !matches!(c.position, Position::OffMap(_)))?;
    let places: Vec<&crate::rules::Place> = ruleset
        .geometry
        .iter()
        .flat_map(|g| g.places.iter())
        .chain(scenario.places.iter())
        .filter(|p| match &at.position {
            Position::Hex(h) => p.hex.as_deref() == Some(h.as_str()),
            Position::Area(a) => p.name.eq_ignore_ascii_case(a),
            _ => false,
        })
        .collect();
    let wanted = kinds
        .iter()
        .map(|k| crate::game::victory::place_kind_words(*k))
        .collect::<Vec<_>>()
        .join(", ");
    let Some(place) = places.first() else {
        // What the umpire recorded is at that hex (`game place-kind GAME 2728 town`).
        if let Position::Hex(h) = &at.position
            && let Some((kind, _)) = state.place_kinds.get(h)
        {
            return (!kinds.contains(kind)).then(|| {
                format!(
                    "hex {h} holds a {} (as recorded), not a {wanted}",
                    crate::game::victory::place_kind_words(*kind)
                )
            });
        }
        return Some(format!(
            "it stands at {}, where the map's gazetteer knows no {wanted} (if the map prints one there, record what it is: `umpire game place-kind GAME HEX town`, or the organiser adds it to the scenario's places)",
            at.position
        ));
    };
    let kind = state
        .place_kinds
        .get(&place.name)
        .map(|(k, _)| *k)
        .or_else(|| places.iter().find_map(|p| p.kind))?;
    (!kinds.contains(&kind)).then(|| {
        format!(
            "{} is a {}, not a {wanted}",
            place.name,
            crate::game::victory::place_kind_words(kind)
        )
    })
}

/// Holds a carried-out order to the areas its option moves: "Move 1 area" naming two is
/// refused, "Remain stationary" naming any.
pub fn check_moves(kind: &OrderKind, form: &OrderForm, orders: &Orders) -> Result<(), String> {
    let Some((option, along)) = kind
        .carry_out
        .as_ref()
        .and_then(|c| Some((c.option.as_ref()?, c.along.as_ref()?)))
    else {
        return Ok(());
    };
    let options = kind.fields.iter().find_map(|f| match &f.kind {
        crate::rules::OrderFieldKind::Choice { options } if f.id == *option => Some(options),
        _ => None,
    });
    let label = |id: &str| {
        kind.fields
            .iter()
            .find(|f| f.id == id)
            .map_or(id.to_string(), |f| f.label.clone())
    };
    for entry in &form.entries {
        let Some(given) = orders.get(&entry.id) else {
            continue;
        };
        let Some(OrderValue::Choice(chosen)) = given.get(option) else {
            continue;
        };
        let areas = match given.get(along) {
            Some(OrderValue::Areas(a)) => a.as_slice(),
            _ => &[],
        };
        let Some(o) = options.and_then(|os| os.iter().find(|o| o.id == *chosen)) else {
            continue;
        };
        if o.moves.is_some_and(|n| n > 0) && areas.is_empty() {
            return Err(format!(
                "{}: {} names no area in {} — write the area(s) to be moved through ({})",
                entry.name,
                o.label,
                label(along),
                kind.carry_out.as_ref().map_or("", |c| c.rule.as_str()),
            ));
        }
        if let Some(most) = o.moves
            && areas.len() > most as usize
        {
            return Err(format!(
                "{}: {} moves {}, and the card names {} in {} ({}) — {}",
                entry.name,
                o.label,
                match most {
                    0 => "no area".to_string(),
                    1 => "1 area".to_string(),
                    n => format!("{n} areas"),
                },
                areas.len(),
                label(along),
                kind.carry_out.as_ref().map_or("", |c| c.rule.as_str()),
                areas.join(", ")
            ));
        }
    }
    Ok(())
}

/// Holds `orders` to what the table allows (after [`super::sealed::check_against`] has held
/// them to the form): no refused choice, every required field given. In words, naming the
/// Force.
pub fn check_allowed(form: &OrderForm, orders: &Orders) -> Result<(), String> {
    if form.entries.is_empty() {
        return Err(format!(
            "the {} has nothing to be given for: the side has none of what it is written for",
            form.name
        ));
    }
    let mut missing = Vec::new();
    for entry in &form.entries {
        let given = orders.get(&entry.id);
        for field in &entry.fields {
            let value = given.and_then(|g| g.get(&field.field));
            if field.required && value.is_none() {
                missing.push(format!("{} ({})", entry.name, field.label));
            }
            let (FormInput::Choose { choices, .. }, Some(OrderValue::Choice(c))) =
                (&field.input, value)
            else {
                continue;
            };
            if let Some(why) = choices
                .iter()
                .find(|x| &x.id == c)
                .and_then(|x| x.refused.as_ref())
            {
                return Err(format!(
                    "{}: {} is not allowed — {why}",
                    entry.name,
                    choices
                        .iter()
                        .find(|x| &x.id == c)
                        .map_or(c.as_str(), |x| x.label.as_str())
                ));
            }
        }
    }
    if !missing.is_empty() {
        return Err(format!(
            "nothing given for {}, which hold none now: the rules require one for each ({})",
            missing.join(", "),
            form.name
        ));
    }
    Ok(())
}
