//! Checking an action: one function per action, on a read-only [`View`] of the game (ruleset,
//! scenario, state, journal), returning the events the action makes or a typed [`Refusal`].
//! Nothing here writes; `Game::act` commits what a check returns.

use std::collections::BTreeMap;

use super::action::{Action, Actor};
use super::event::{Audience, ClockAction, CounterChange, Cursor, Event, EventKind};
use super::journal::GameMeta;
use super::names::CounterId;
use super::refusal::{NoAppDice, Refusal};
use super::scenario::{CounterKind, Position, Scenario};
use super::sequence::{LeafStep, Pending, next_step, pending, previous_step};
use super::state::{CounterState, GameState};
use crate::dice::AppDice;
use crate::resolve::{DiceSource, parse_inputs, resolve};
use crate::rules::{AttributeKind, AttributeSpec, GeometryKind, Ruleset, Value};

/// What a check may look at: the game as it stands, read-only.
#[derive(Clone, Copy)]
pub struct View<'a> {
    /// The ruleset.
    pub ruleset: &'a Ruleset,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The Sequence of Play's leaf steps.
    pub steps: &'a [LeafStep],
    /// The state.
    pub state: &'a GameState,
    /// The journal (offline events last).
    pub events: &'a [Event],
    /// What the game started from (the app dice's seed among it).
    pub meta: &'a GameMeta,
    /// Whether several desks share the journal.
    pub shared: bool,
}

type Checked = Result<Vec<EventKind>, Refusal>;

/// The events an action makes, judged against the game as it stands.
pub fn check(view: &View, actor: &Actor, action: &Action) -> Checked {
    match action {
        Action::Move { counter, to } => check_move(view, counter.as_str(), to),
        Action::MoveStack { counters, to } => check_move_stack(view, counters, to),
        Action::AddCounter {
            name,
            side,
            kind,
            at,
            attributes,
            note,
        } => check_add_counter(view, name, side, *kind, at, attributes, note.as_deref()),
        Action::Edit {
            counter,
            edit,
            note,
        } => check_edit(view, counter.as_str(), edit, note.as_deref()),
        Action::Remove { counter, reason } => check_remove(view, counter.as_str(), reason),
        Action::SetAttribute {
            counter,
            attribute,
            value,
            seen,
        } => check_set_attribute(view, counter.as_str(), attribute, value, seen),
        Action::SetStatus {
            counter,
            status,
            on,
        } => check_set_status(view, counter.as_str(), status, *on),
        Action::Resolve {
            procedure,
            inputs,
            physical,
            chart_result,
            chart_confirmed,
            counters,
        } => check_resolve(
            view,
            actor,
            procedure,
            inputs,
            physical.as_deref(),
            chart_result.as_deref().map(|c| (c, *chart_confirmed)),
            counters,
        ),
        Action::ApplyEffects { of, changes } => check_apply_effects(view, actor, *of, changes),
        Action::Change { changes, reason } => check_change(view, changes, reason),
        Action::Override {
            of,
            outcome,
            reason,
        } => check_override(view, *of, outcome, reason),
        Action::Next => check_next(view),
        Action::Back => check_back(view),
        Action::Skip { item, reason } => check_skip(view, item, reason),
        Action::Credit { item } => check_credit(view, item),
        Action::Note { text } => Ok(vec![EventKind::Note { text: text.clone() }]),
        Action::Adjust {
            counter,
            attribute,
            by,
            reason,
        } => check_adjust(view, actor, counter.as_str(), attribute, *by, reason),
        Action::Transfer {
            from,
            to,
            attribute,
            amount,
            reason,
        } => check_transfer(
            view,
            actor,
            from.as_str(),
            to.as_str(),
            attribute,
            *amount,
            reason,
        ),
        Action::Undo => check_undo(view, actor),
        Action::Redo => check_redo(view),
        Action::Clock(action) => check_clock(view, action),
        Action::ClockStep { to } => check_clock_step(view, to),
        Action::RevealSeed => check_reveal(view),
        Action::Announce {
            audience,
            team,
            text,
        } => check_announce(*audience, team.as_deref(), text),
        Action::Deck {
            deck,
            owner,
            op,
            reason,
        } => check_deck(view, deck, owner.as_deref(), op, reason.as_deref()),
    }
}

/// A deck or cup action: the deck named, its owner when each side keeps one, and the change it
/// makes, with the deck before and after.
fn check_deck(
    view: &View,
    deck: &str,
    owner: Option<&str>,
    op: &super::action::DeckOp,
    reason: Option<&str>,
) -> Checked {
    use super::action::DeckOp;
    use super::deck::{DeckChange, DeckState};
    let refuse = |s: String| Err(Refusal::Deck(s));
    let Some(spec) = super::deck::find(view.ruleset, deck) else {
        let known: Vec<String> = view
            .ruleset
            .decks
            .iter()
            .map(|d| format!("{} ({})", d.name, d.id))
            .collect();
        return refuse(if known.is_empty() {
            format!("{} has no decks or cups", view.ruleset.name)
        } else {
            format!("no deck or cup '{deck}' — there are: {}", known.join("; "))
        });
    };
    let side_known = |s: &str| view.scenario.sides.iter().any(|x| x.id == s);
    let owner = match (spec.per_side, owner) {
        (true, Some(o)) if side_known(o) => Some(o.to_string()),
        (true, Some(o)) => return refuse(format!("'{o}' is not a side of this scenario")),
        (true, None) => {
            return refuse(format!(
                "each side has its own {}: say whose (a side id)",
                spec.name
            ));
        }
        (false, Some(_)) => {
            return refuse(format!(
                "{} is one for the whole game: no side to name",
                spec.name
            ));
        }
        (false, None) => None,
    };
    let before = view.state.deck(spec, owner.as_deref());
    let (noun, item) = (spec.noun(), spec.item_noun());
    let reshuffle = spec.refill == crate::rules::Refill::WhenEmpty;
    let mut after = before.clone();
    let names = |items: &[String], among: &std::collections::BTreeMap<String, u32>, what: &str| {
        let mut taken = among.clone();
        let mut out = Vec::new();
        for typed in items {
            let Some(name) = before.name_of(typed, &taken).map(str::to_string) else {
                return Err(Refusal::Deck(format!(
                    "no '{typed}' {what} — {}",
                    before.words(spec)
                )));
            };
            let c = taken.get_mut(&name).expect("found");
            *c -= 1;
            if *c == 0 {
                taken.remove(&name);
            }
            out.push(name);
        }
        Ok(out)
    };
    let change = match op {
        DeckOp::Fill { items } => {
            if items.is_empty() || items.iter().all(|(_, c)| *c == 0) {
                return refuse(format!(
                    "say what is in the {noun}: NAME=COUNT for each kind"
                ));
            }
            let mut inside = std::collections::BTreeMap::new();
            for (name, count) in items {
                let name = name.trim();
                if name.is_empty() {
                    return refuse(format!("a {item} without a name"));
                }
                if *count > 0 {
                    *inside.entry(name.to_string()).or_insert(0) += count;
                }
            }
            after = DeckState {
                inside,
                ..DeckState::default()
            };
            DeckChange::Filled
        }
        DeckOp::Draw { count, typed, side } => {
            if let Some(s) = side
                && !side_known(s)
            {
                return refuse(format!("'{s}' is not a side of this scenario"));
            }
            if typed.is_empty() {
                if *count == 0 {
                    return refuse(format!("draw at least one {item}"));
                }
                let dice = app_dice(view)?;
                let first = dice.next_draw();
                let (items, reshuffled, state) = before
                    .draw_app(dice.seed(), first, *count, reshuffle)
                    .map_err(|had| {
                        Refusal::Deck(format!(
                            "{count} {item}s asked for, {had} to draw — {}",
                            before.words(spec)
                        ))
                    })?;
                after = state;
                DeckChange::Drawn {
                    provenance: crate::dice::Provenance::App {
                        algorithm: crate::dice::SAMPLER_ALGORITHM.to_string(),
                        seed: None,
                        first_draw: first,
                        draws: items.len() as u64,
                    },
                    items,
                    side: side.clone(),
                    reshuffled,
                }
            } else {
                let (items, reshuffled, state) =
                    before.draw_typed(typed, reshuffle).map_err(|missing| {
                        Refusal::Deck(format!(
                            "no '{missing}' to draw from the {noun} — {}",
                            before.words(spec)
                        ))
                    })?;
                after = state;
                DeckChange::Drawn {
                    items,
                    provenance: crate::dice::Provenance::Physical { entered_by: None },
                    side: side.clone(),
                    reshuffled,
                }
            }
        }
        DeckOp::Refill => {
            if before.drawn() == 0 {
                return refuse(format!(
                    "nothing drawn to put back — {}",
                    before.words(spec)
                ));
            }
            after.refill();
            DeckChange::Refilled
        }
        DeckOp::Return { items } => {
            let items = names(items, &before.out, "drawn")?;
            for name in &items {
                if let Some(c) = after.out.get_mut(name) {
                    *c -= 1;
                    if *c == 0 {
                        after.out.remove(name);
                    }
                }
                *after.inside.entry(name.clone()).or_insert(0) += 1;
            }
            DeckChange::Returned { items }
        }
        DeckOp::Remove { items } => {
            // From those drawn first (a card played, "remove if used"), else from inside.
            let mut both = before.out.clone();
            for (n, c) in &before.inside {
                *both.entry(n.clone()).or_insert(0) += c;
            }
            let items = names(items, &both, "drawn or inside")?;
            for name in &items {
                let from = if after.out.get(name).is_some_and(|c| *c > 0) {
                    &mut after.out
                } else {
                    &mut after.inside
                };
                if let Some(c) = from.get_mut(name) {
                    *c -= 1;
                    if *c == 0 {
                        from.remove(name);
                    }
                }
                *after.removed.entry(name.clone()).or_insert(0) += 1;
            }
            DeckChange::Removed { items }
        }
        DeckOp::Add { items } => {
            let items: Vec<String> = items
                .iter()
                .map(|i| i.trim().to_string())
                .filter(|i| !i.is_empty())
                .collect();
            if items.is_empty() {
                return refuse(format!("name the {item}s to put in"));
            }
            for name in &items {
                // The same spelling as one already known.
                let known = after
                    .name_of(name, &after.inside)
                    .or_else(|| after.name_of(name, &after.out))
                    .or_else(|| after.name_of(name, &after.removed))
                    .map_or_else(|| name.clone(), str::to_string);
                *after.inside.entry(known).or_insert(0) += 1;
            }
            DeckChange::Added { items }
        }
    };
    Ok(vec![EventKind::Deck {
        deck: spec.id.clone(),
        owner,
        change,
        before,
        after,
        reason: reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string),
    }])
}

/// The counter of that id, or a refusal naming the counters with a similar one.
pub fn counter<'a>(view: &View<'a>, id: &str) -> Result<&'a CounterState, Refusal> {
    view.state
        .counters
        .get(id)
        .ok_or_else(|| Refusal::NoCounter {
            counter: id.to_string(),
            close: super::names::close_counters(view.state, id),
        })
}

/// Checks a position against the game's geometry.
pub fn position(ruleset: &Ruleset, p: &Position) -> Result<(), Refusal> {
    let kind = ruleset.geometry.as_ref().map(|g| g.kind);
    match p {
        Position::Hex(h) => {
            let digits = ruleset
                .geometry
                .as_ref()
                .and_then(|g| g.hex_id_digits)
                .unwrap_or(4) as usize;
            if super::hex::HexId::parse(h, digits).is_none() {
                return Err(Refusal::NotAHex {
                    hex: h.clone(),
                    digits,
                });
            }
            if let Some(k) = kind.filter(|k| *k != GeometryKind::Hex) {
                return Err(Refusal::NoHexMap {
                    geometry: format!("{k:?}").to_lowercase(),
                });
            }
        }
        Position::Area(a) if a.trim().is_empty() => return Err(Refusal::EmptyArea),
        Position::Free { x, y } if !x.is_finite() || !y.is_finite() => {
            return Err(Refusal::BadFreePosition);
        }
        _ => {}
    }
    Ok(())
}

fn specs<'a>(ruleset: &'a Ruleset, c: &CounterState) -> &'a [AttributeSpec] {
    match c.kind {
        CounterKind::Leader => &ruleset.leaders,
        _ => &ruleset.units,
    }
}

/// An attribute's new value as typed, checked against its declaration.
fn attribute_value(
    ruleset: &Ruleset,
    c: &CounterState,
    attribute: &str,
    text: &str,
) -> Result<Value, Refusal> {
    let specs = specs(ruleset, c);
    let Some(spec) = specs.iter().find(|a| a.name == attribute) else {
        return Err(Refusal::NoAttribute {
            counter: c.id.clone(),
            attribute: attribute.to_string(),
            names: specs.iter().map(|a| a.name.clone()).collect(),
        });
    };
    let t = text.trim();
    Ok(match &spec.kind {
        AttributeKind::Int { min, max } => {
            let v: i64 = t.parse().map_err(|_| Refusal::NotAWholeNumber {
                attribute: attribute.to_string(),
                text: t.to_string(),
            })?;
            if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) {
                return Err(Refusal::OutOfRange {
                    attribute: attribute.to_string(),
                    value: v,
                    min: *min,
                    max: *max,
                });
            }
            Value::Int(v)
        }
        AttributeKind::Choice { choices } => {
            match choices.iter().find(|c| c.eq_ignore_ascii_case(t)) {
                Some(c) => Value::Text(c.clone()),
                None => {
                    return Err(Refusal::NotAChoice {
                        attribute: attribute.to_string(),
                        text: t.to_string(),
                        choices: choices.clone(),
                    });
                }
            }
        }
        AttributeKind::Choices { choices } => {
            let parts: Vec<String> = t
                .split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
            if let Some(bad) = parts.iter().find(|p| !choices.contains(p)) {
                return Err(Refusal::NotAChoice {
                    attribute: attribute.to_string(),
                    text: bad.clone(),
                    choices: choices.clone(),
                });
            }
            Value::Text(parts.join(","))
        }
        AttributeKind::Flag => Value::Bool(matches!(
            t.to_ascii_lowercase().as_str(),
            "true" | "yes" | "1"
        )),
        AttributeKind::Text => Value::Text(t.to_string()),
    })
}

/// Refuses an adjustment of an attribute that is not a whole number: one the ruleset does not
/// declare as `int` for this kind of counter, or whose value is not a number.
pub fn adjustable(view: &View, id: &str, attribute: &str) -> Result<(), Refusal> {
    let c = counter(view, id)?;
    let specs = specs(view.ruleset, c);
    match specs.iter().find(|a| a.name == attribute) {
        Some(spec) if matches!(spec.kind, AttributeKind::Int { .. }) => {}
        Some(_) => {
            return Err(Refusal::NotAdjustable {
                counter: id.to_string(),
                attribute: attribute.to_string(),
            });
        }
        None => {
            return Err(Refusal::NoWholeNumberAttribute {
                counter: id.to_string(),
                attribute: attribute.to_string(),
                names: specs
                    .iter()
                    .filter(|a| matches!(a.kind, AttributeKind::Int { .. }))
                    .map(|a| a.name.clone())
                    .collect(),
            });
        }
    }
    match c.attributes.get(attribute) {
        None | Some(Value::Int(_)) => Ok(()),
        Some(other) => Err(Refusal::ValueNotANumber {
            counter: id.to_string(),
            attribute: attribute.to_string(),
            value: other.to_string(),
        }),
    }
}

/// Refuses a delta that takes an attribute out of its declared range.
/// Checks a delta against the attribute's range. Below its floor (a treasury at 0: a state
/// pays only what it has) it goes only at the umpire's word, with the reason: then the words
/// to record with it.
pub(crate) fn adjust_range(
    view: &View,
    id: &str,
    attribute: &str,
    by: i64,
    confirmed: Option<&str>,
) -> Result<Option<String>, Refusal> {
    let c = counter(view, id)?;
    // An unknown value stays unknown under deltas: nothing to hold to a range yet.
    let now = match c.attributes.get(attribute) {
        Some(Value::Int(v)) => *v,
        _ => return Ok(None),
    };
    let after = now.saturating_add(by);
    let spec = specs(view.ruleset, c)
        .iter()
        .find(|a| a.name == attribute)
        .cloned();
    if let Some(spec) = spec
        && let AttributeKind::Int { min, max } = &spec.kind
    {
        let below = min.is_some_and(|m| after < m);
        if below && let Some(why) = confirmed.map(str::trim).filter(|w| !w.is_empty()) {
            return Ok(Some(format!(
                "{}'s {} taken to {after}, below {}, at the umpire's word: {why}",
                c.name,
                spec.label,
                min.unwrap_or_default()
            )));
        }
        if below || max.is_some_and(|m| after > m) {
            return Err(Refusal::AdjustOutOfRange {
                counter: c.name.clone(),
                attribute: spec.label.clone(),
                now,
                by,
                after,
                min: *min,
                max: *max,
                rule: spec.rule.clone(),
            });
        }
    }
    Ok(None)
}

fn needs_reason(reason: &str, what: &'static str) -> Result<(), Refusal> {
    if reason.trim().is_empty() {
        Err(Refusal::ReasonNeeded { what })
    } else {
        Ok(())
    }
}

/// An event that stands (not undone).
pub fn standing<'a>(view: &View<'a>, seq: u64) -> Option<&'a Event> {
    view.events
        .get(seq.saturating_sub(1) as usize)
        .filter(|e| view.state.effective.contains(&e.seq))
}

fn standing_resolution(view: &View, of: u64) -> Result<(), Refusal> {
    match standing(view, of).map(|e| &e.kind) {
        Some(EventKind::Resolved { .. }) => Ok(()),
        _ => Err(Refusal::NotAStandingResolution { entry: of }),
    }
}

fn changed(changes: Vec<CounterChange>, reason: Option<String>) -> Vec<EventKind> {
    vec![EventKind::Changed {
        changes,
        reason,
        item: None,
    }]
}

fn check_move(view: &View, id: &str, to: &Position) -> Checked {
    position(view.ruleset, to)?;
    let c = counter(view, id)?;
    Ok(changed(
        vec![CounterChange::Move {
            counter: id.to_string(),
            from: Some(c.position.clone()),
            to: to.clone(),
        }],
        None,
    ))
}

fn check_move_stack(view: &View, ids: &[CounterId], to: &Position) -> Checked {
    position(view.ruleset, to)?;
    let mut changes = Vec::new();
    for id in ids.iter().map(CounterId::as_str) {
        let c = counter(view, id)?;
        if c.position != *to
            && !changes
                .iter()
                .any(|m| matches!(m, CounterChange::Move { counter, .. } if counter == id))
        {
            changes.push(CounterChange::Move {
                counter: id.to_string(),
                from: Some(c.position.clone()),
                to: to.clone(),
            });
        }
    }
    if changes.is_empty() {
        return Err(Refusal::AlreadyThere);
    }
    Ok(changed(changes, None))
}

/// A hand change: checked as the plain action is, recorded with the umpire's note.
fn check_edit(view: &View, id: &str, edit: &super::action::Edit, note: Option<&str>) -> Checked {
    use super::action::Edit;
    let note = note.map(str::trim).filter(|n| !n.is_empty());
    let mut kinds = match edit {
        Edit::Set {
            attribute,
            value,
            seen,
        } => check_set_attribute(view, id, attribute, value, seen)?,
        Edit::Status { status, on } => check_set_status(view, id, status, *on)?,
        Edit::Remove => check_remove(view, id, note.unwrap_or("taken off by the umpire"))?,
    };
    if let Some(n) = note {
        for k in &mut kinds {
            if let EventKind::Changed { reason, .. } = k {
                *reason = Some(n.to_string());
            }
        }
    }
    Ok(kinds)
}

/// A new counter: a name no other has, a side of the scenario, a place on its map, attributes
/// the ruleset declares for its kind; its id made from its name.
fn check_add_counter(
    view: &View,
    name: &str,
    side: &str,
    kind: super::scenario::CounterKind,
    at: &Position,
    typed: &[(String, String)],
    note: Option<&str>,
) -> Checked {
    let name = name.trim();
    if name.is_empty() || view.state.counter_id(name).is_some() {
        return Err(Refusal::NameTaken {
            name: name.to_string(),
        });
    }
    if !view.scenario.sides.iter().any(|s| s.id == side) {
        return Err(Refusal::NoSide {
            side: side.to_string(),
            sides: view
                .scenario
                .sides
                .iter()
                .map(|s| s.name.clone())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    position(view.ruleset, at)?;
    let slug: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let base = format!("added-{}", if slug.is_empty() { "counter" } else { &slug });
    let mut id = base.clone();
    let mut n = 2;
    while view.state.counters.contains_key(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    let mut counter = CounterState {
        id: id.clone(),
        name: name.to_string(),
        side: side.to_string(),
        army: None,
        kind,
        attributes: Default::default(),
        unknown: Vec::new(),
        statuses: Default::default(),
        position: at.clone(),
        force: None,
        removed: None,
    };
    for (attribute, value) in typed {
        if value.trim().is_empty() {
            continue;
        }
        let v = attribute_value(view.ruleset, &counter, attribute, value)?;
        counter.attributes.insert(attribute.clone(), v);
    }
    let note = note.map(str::trim).filter(|n| !n.is_empty());
    Ok(changed(
        vec![CounterChange::Add {
            counter: id,
            name: counter.name,
            side: counter.side,
            kind,
            attributes: counter.attributes,
            at: at.clone(),
        }],
        note.map(str::to_string),
    ))
}

fn check_remove(view: &View, id: &str, reason: &str) -> Checked {
    counter(view, id)?;
    Ok(changed(
        vec![CounterChange::Remove {
            counter: id.to_string(),
            reason: reason.to_string(),
        }],
        Some(reason.to_string()),
    ))
}

fn check_set_attribute(
    view: &View,
    id: &str,
    attribute: &str,
    value: &str,
    seen: &super::action::Seen,
) -> Checked {
    let c = counter(view, id)?;
    let to = attribute_value(view.ruleset, c, attribute, value)?;
    let now = c.attributes.get(attribute);
    // What the umpire saw against what is there: names in any case ("--was Catholic").
    let same = |a: Option<&Value>, b: Option<&Value>| match (a, b) {
        (Some(Value::Text(x)), Some(Value::Text(y))) => x.eq_ignore_ascii_case(y),
        (a, b) => a == b,
    };
    if let super::action::Seen::Value(saw) = seen
        && !same(saw.as_ref(), now)
    {
        return Err(changed_since(view, c, attribute, saw.as_ref(), &to));
    }
    Ok(changed(
        vec![CounterChange::Attribute {
            counter: id.to_string(),
            attribute: attribute.to_string(),
            from: c.attributes.get(attribute).cloned(),
            to,
        }],
        None,
    ))
}

/// The refusal of a set whose value another desk changed after the umpire saw it: who changed
/// it, when, and to what (the last entry that stands touching it).
fn changed_since(
    view: &View,
    c: &CounterState,
    attribute: &str,
    saw: Option<&Value>,
    to: &Value,
) -> Refusal {
    let touches = |changes: &[CounterChange]| {
        changes.iter().any(|ch| match ch {
            CounterChange::Attribute {
                counter,
                attribute: a,
                ..
            }
            | CounterChange::Adjust {
                counter,
                attribute: a,
                ..
            } => *counter == c.id && a == attribute,
            _ => false,
        })
    };
    let last = view.events.iter().rev().find(|e| {
        view.state.effective.contains(&e.seq)
            && match &e.kind {
                EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
                    touches(changes)
                }
                _ => false,
            }
    });
    let show = |v: Option<&Value>| v.map_or_else(|| "unknown".to_string(), Value::to_string);
    Refusal::ChangedSince {
        counter: c.name.clone(),
        attribute: specs(view.ruleset, c)
            .iter()
            .find(|a| a.name == attribute)
            .map_or_else(|| attribute.replace('_', " "), |a| a.label.clone()),
        saw: show(saw),
        now: show(c.attributes.get(attribute)),
        to: to.to_string(),
        by: last.and_then(|e| e.by.clone()),
        entry: last.map(|e| e.seq),
        at: last.map(|e| {
            e.at.with_timezone(&chrono::Local)
                .format("%H:%M")
                .to_string()
        }),
    }
}

fn check_set_status(view: &View, id: &str, status: &str, on: bool) -> Checked {
    counter(view, id)?;
    if status.trim().is_empty() {
        return Err(Refusal::EmptyStatus);
    }
    Ok(changed(
        vec![CounterChange::Status {
            counter: id.to_string(),
            status: status.to_string(),
            on,
        }],
        None,
    ))
}

/// The app dice, when this copy of the game may roll them.
fn app_dice(view: &View) -> Result<AppDice, Refusal> {
    if let Some(entry) = view.state.seed_revealed {
        return Err(Refusal::NoAppDice(NoAppDice::Revealed { entry }));
    }
    let seed = view
        .meta
        .seed
        .ok_or(Refusal::NoAppDice(NoAppDice::Withheld))?;
    Ok(if view.meta.seed_public {
        AppDice::resume(seed, view.state.next_draw)
    } else {
        AppDice::secret(seed, view.state.next_draw)
    })
}

fn check_resolve(
    view: &View,
    actor: &Actor,
    procedure: &str,
    typed: &[(String, String)],
    physical: Option<&[String]>,
    chart: Option<(&str, bool)>,
    counters: &BTreeMap<String, Vec<CounterId>>,
) -> Checked {
    let Some(p) = view.ruleset.procedure(procedure) else {
        return Err(Refusal::NoProcedure {
            procedure: procedure.to_string(),
            ruleset: view.ruleset.id.clone(),
            procedures: view
                .ruleset
                .procedures
                .iter()
                .map(|p| p.id.clone())
                .collect(),
        });
    };
    for id in counters.values().flatten() {
        counter(view, id.as_str())?;
    }
    // Inputs typed by the umpire win over those taken from the counters.
    let mut pairs: Vec<(String, String)> =
        super::effects::prefill(p, view.state, view.events, Some(view.ruleset), counters)
            .into_iter()
            .filter(|f| !typed.iter().any(|(n, _)| *n == f.input))
            .map(|f| {
                let value = match f.value {
                    Value::Bool(b) => b.to_string(),
                    v => v.to_string(),
                };
                (f.input, value)
            })
            .collect();
    pairs.extend(typed.iter().cloned());
    let given = parse_inputs(p, &pairs)?;
    let mut app;
    let dice = match physical {
        Some(faces) => DiceSource::Physical {
            faces: faces.to_vec(),
            entered_by: actor.by.clone(),
        },
        None => match app_dice(view) {
            Ok(dice) => {
                app = dice;
                DiceSource::App(&mut app)
            }
            // No app dice here: fine for a procedure that throws none.
            Err(refusal)
                if crate::resolve::prepare(view.ruleset, p, &given)?
                    .dice
                    .is_some() =>
            {
                return Err(refusal);
            }
            Err(_) => DiceSource::Physical {
                faces: Vec::new(),
                entered_by: actor.by.clone(),
            },
        },
    };
    let mut resolution = resolve(view.ruleset, p, &given, dice, chart.map(|(c, _)| c))?;
    if let Some((code, confirmed)) = chart
        && resolution.outcome.from_physical_chart
    {
        chart_code(view.ruleset, p, &mut resolution, code, confirmed)?;
    }
    Ok(vec![EventKind::Resolved {
        resolution: Box::new(resolution),
        counters: counters
            .iter()
            .map(|(role, ids)| (role.clone(), ids.iter().map(ToString::to_string).collect()))
            .collect(),
    }])
}

/// A result read off the umpire's chart: taken when it is one of the codes the text gives for
/// that chart (each word of a combined result such as "A1 D3"), else only when the umpire
/// confirms it is what the chart prints — recorded with the result.
fn chart_code(
    ruleset: &crate::rules::Ruleset,
    p: &crate::rules::Procedure,
    resolution: &mut crate::resolve::Resolution,
    code: &str,
    confirmed: bool,
) -> Result<(), Refusal> {
    let table = resolution
        .lookup
        .as_ref()
        .and_then(|l| ruleset.table(&l.table));
    // A table with a result key holds the code to it already (the resolver refuses others).
    if table.is_some_and(|t| !t.results.is_empty()) {
        return Ok(());
    }
    // The codes the text gives: the chart's own, and the procedure's outcomes.
    let mut codes: Vec<String> = table
        .map(|t| t.given_codes().into_iter().map(|(c, _)| c).collect())
        .unwrap_or_default();
    for o in &p.outcomes {
        if !codes.contains(&o.code) {
            codes.push(o.code.clone());
        }
    }
    let title = table.map_or_else(|| p.name.clone(), |t| t.title.clone());
    let known = code
        .split_whitespace()
        .all(|w| codes.iter().any(|c| c.eq_ignore_ascii_case(w)));
    if known {
        return Ok(());
    }
    if !confirmed {
        return Err(Refusal::UndeclaredChartCode {
            code: code.trim().to_string(),
            chart: title,
            codes,
        });
    }
    resolution.outcome.chart_confirmed = true;
    resolution.explanation.push(format!(
        "{} is not among the codes the text gives for {title}; the umpire confirmed the chart prints it",
        code.trim()
    ));
    Ok(())
}

fn check_apply_effects(view: &View, actor: &Actor, of: u64, changes: &[CounterChange]) -> Checked {
    standing_resolution(view, of)?;
    if view.state.applied.contains(&of) {
        return Err(Refusal::EffectsAlreadyApplied { entry: of });
    }
    check_changes(view, changes)?;
    // A delta past a floor (a treasury below 0) only at the umpire's word, recorded beside.
    let mut words = Vec::new();
    for ((counter, attribute), by) in delta_totals(changes) {
        if let Some(w) = adjust_range(view, counter, attribute, by, actor.reason.as_deref())? {
            words.push(w);
        }
    }
    let mut kinds = vec![EventKind::EffectsApplied {
        of,
        changes: changes.to_vec(),
    }];
    kinds.extend(words.into_iter().map(|text| EventKind::Note { text }));
    Ok(kinds)
}

fn check_change(view: &View, changes: &[CounterChange], reason: &str) -> Checked {
    if changes.is_empty() {
        return Err(Refusal::NoChanges);
    }
    needs_reason(reason, "a change of several counters")?;
    check_changes(view, changes)?;
    Ok(changed(changes.to_vec(), Some(reason.to_string())))
}

/// Each change names a counter of the game, a place on its map, and a delta only on a
/// whole-number attribute.
fn check_changes(view: &View, changes: &[CounterChange]) -> Result<(), Refusal> {
    for c in changes {
        counter(view, c.counter())?;
        if let CounterChange::Adjust {
            counter, attribute, ..
        } = c
        {
            adjustable(view, counter, attribute)?;
        }
        if let CounterChange::Move { to, .. } = c {
            position(view.ruleset, to)?;
        }
    }
    Ok(())
}

fn check_override(view: &View, of: u64, outcome: &str, reason: &str) -> Checked {
    standing_resolution(view, of)?;
    needs_reason(reason, "an override")?;
    Ok(vec![EventKind::Overridden {
        of,
        outcome: outcome.to_string(),
        effects: Vec::new(),
        reason: reason.to_string(),
    }])
}

/// Items pending or done at the current step.
pub fn pending_items(view: &View) -> Vec<Pending> {
    pending(view.ruleset, view.scenario, view.state)
}

fn check_next(view: &View) -> Checked {
    let open = numbered(&pending_items(view), |p| p.mandatory && !p.done);
    if !open.is_empty() {
        return Err(Refusal::MandatoryPending { items: open });
    }
    let to = next_step(&view.state.cursor, view.steps, view.scenario.turns.max(1));
    if to.turn > view.scenario.turns.max(1) {
        return Err(Refusal::ScenarioEnds {
            turns: view.scenario.turns,
        });
    }
    Ok(vec![EventKind::Stepped {
        from: view.state.cursor.clone(),
        to,
    }])
}

fn check_back(view: &View) -> Checked {
    let to = previous_step(&view.state.cursor, view.steps, view.scenario.turns.max(1))
        .ok_or(Refusal::FirstStep)?;
    Ok(vec![EventKind::Stepped {
        from: view.state.cursor.clone(),
        to,
    }])
}

/// A pending item named by its label (its key when it is not one of this step's).
fn item_words(all: &[Pending], key: &str) -> String {
    all.iter()
        .find(|p| p.key == key)
        .map_or_else(|| key.to_string(), |p| p.label.clone())
}

/// The items that pass `keep`, "number. label" as `game status` numbers them.
fn numbered(all: &[Pending], keep: impl Fn(&Pending) -> bool) -> Vec<String> {
    all.iter()
        .enumerate()
        .filter(|(_, p)| keep(p))
        .map(|(n, p)| format!("{}. {}", n + 1, p.label))
        .collect()
}

fn check_skip(view: &View, item: &str, reason: &str) -> Checked {
    needs_reason(reason, "skipping")?;
    let all = pending_items(view);
    if !all.iter().any(|p| p.key == item && !p.done) {
        return Err(Refusal::NothingPending {
            item: item_words(&all, item),
            pending: numbered(&all, |p| !p.done),
        });
    }
    Ok(vec![EventKind::Skipped {
        item: item.to_string(),
        reason: reason.to_string(),
    }])
}

fn check_credit(view: &View, item: &str) -> Checked {
    let Some((change, reason)) =
        super::sequence::credit_change(view.ruleset, view.scenario, view.state, item)
    else {
        let all = pending_items(view);
        return Err(Refusal::NothingToCredit {
            item: item_words(&all, item),
            creditable: numbered(&all, |p| p.credit.is_some()),
        });
    };
    counter(view, change.counter())?;
    Ok(vec![EventKind::Changed {
        changes: vec![change],
        reason: Some(reason),
        item: Some(item.to_string()),
    }])
}

fn check_adjust(
    view: &View,
    actor: &Actor,
    id: &str,
    attribute: &str,
    by: i64,
    reason: &str,
) -> Checked {
    counter(view, id)?;
    adjustable(view, id, attribute)?;
    let word = adjust_range(view, id, attribute, by, actor.reason.as_deref())?;
    needs_reason(reason, "an adjustment")?;
    let reason = with_word(reason, word);
    Ok(changed(
        vec![CounterChange::Adjust {
            counter: id.to_string(),
            attribute: attribute.to_string(),
            by,
        }],
        Some(reason.to_string()),
    ))
}

/// The deltas of a list of changes added up by counter and attribute: two payments of 3 and 4
/// from a treasury of 5 are held to its floor together.
pub(crate) fn delta_totals<'c>(
    changes: impl IntoIterator<Item = &'c CounterChange>,
) -> BTreeMap<(&'c str, &'c str), i64> {
    let mut totals: BTreeMap<(&str, &str), i64> = BTreeMap::new();
    for c in changes {
        if let CounterChange::Adjust {
            counter,
            attribute,
            by,
        } = c
        {
            *totals
                .entry((counter.as_str(), attribute.as_str()))
                .or_default() += by;
        }
    }
    totals
}

/// A reason with the umpire's word for going past a floor, when there is one.
fn with_word(reason: &str, word: Option<String>) -> String {
    match word {
        Some(w) => format!("{reason} — {w}"),
        None => reason.to_string(),
    }
}

fn check_transfer(
    view: &View,
    actor: &Actor,
    from: &str,
    to: &str,
    attribute: &str,
    amount: i64,
    reason: &str,
) -> Checked {
    if amount <= 0 {
        return Err(Refusal::TransferNotPositive { amount });
    }
    if from == to {
        return Err(Refusal::TransferToItself);
    }
    for id in [from, to] {
        counter(view, id)?;
        adjustable(view, id, attribute)?;
    }
    let word = adjust_range(view, from, attribute, -amount, actor.reason.as_deref())?;
    adjust_range(view, to, attribute, amount, None)?;
    needs_reason(reason, "a transfer")?;
    let reason = with_word(reason, word);
    let adjust = |counter: &str, by: i64| CounterChange::Adjust {
        counter: counter.to_string(),
        attribute: attribute.to_string(),
        by,
    };
    Ok(changed(
        vec![adjust(from, -amount), adjust(to, amount)],
        Some(reason.to_string()),
    ))
}

/// The last effective undoable event: on a shared game, this desk's own last action, not
/// another desk's.
pub fn undo_target(view: &View, actor: &Actor) -> Option<u64> {
    let own_only = view.shared && actor.by.is_some();
    view.events
        .iter()
        .rev()
        .filter(|e| !own_only || e.by == actor.by)
        .find(|e| e.kind.is_undoable() && view.state.effective.contains(&e.seq))
        .map(|e| e.seq)
}

/// The most recent undone event that can be redone (no new action came after its undo).
pub fn redo_target(view: &View) -> Option<u64> {
    for e in view.events.iter().rev() {
        match &e.kind {
            EventKind::Undone { event } if !view.state.effective.contains(event) => {
                return Some(*event);
            }
            // The clock runs on regardless: it does not end a redo.
            EventKind::Undone { .. } | EventKind::Redone { .. } | EventKind::Clock { .. } => {}
            _ => return None,
        }
    }
    None
}

fn check_undo(view: &View, actor: &Actor) -> Checked {
    let event = undo_target(view, actor).ok_or(Refusal::NothingToUndo)?;
    Ok(vec![EventKind::Undone { event }])
}

fn check_redo(view: &View) -> Checked {
    let event = redo_target(view).ok_or(Refusal::NothingToRedo)?;
    Ok(vec![EventKind::Redone { event }])
}

fn check_clock(view: &View, action: &ClockAction) -> Checked {
    let Some(clock) = view.ruleset.clock() else {
        return Err(Refusal::NoClock {
            ruleset: view.ruleset.name.clone(),
        });
    };
    if let ClockAction::Start { turn, phase } = action {
        if clock.turn(*turn).is_none() {
            return Err(Refusal::NoClockTurn {
                turn: *turn,
                turns: clock.turns.iter().map(|t| t.turn.to_string()).collect(),
            });
        }
        if !clock.phases.contains(phase) {
            return Err(Refusal::NoClockPhase {
                phase: phase.clone(),
                phases: clock.phases.clone(),
            });
        }
    }
    Ok(vec![EventKind::Clock {
        action: action.clone(),
    }])
}

fn check_clock_step(view: &View, to: &Cursor) -> Checked {
    if *to <= view.state.cursor {
        Ok(Vec::new())
    } else if to.step >= view.steps.len() {
        Err(Refusal::NoStep { step: to.step + 1 })
    } else {
        Ok(vec![EventKind::Stepped {
            from: view.state.cursor.clone(),
            to: to.clone(),
        }])
    }
}

fn check_reveal(view: &View) -> Checked {
    if let Some(entry) = view.state.seed_revealed {
        return Err(Refusal::AlreadyRevealed { entry });
    }
    let (Some(seed), Some(salt)) = (view.meta.seed, view.meta.salt.clone()) else {
        return Err(Refusal::NoAppDice(NoAppDice::Withheld));
    };
    Ok(vec![EventKind::SeedRevealed { seed, salt }])
}

fn check_announce(audience: Audience, team: Option<&str>, text: &str) -> Checked {
    if text.trim().is_empty() {
        return Err(Refusal::EmptyAnnouncement);
    }
    if audience == Audience::Team && team.is_none_or(|t| t.trim().is_empty()) {
        return Err(Refusal::TeamNeeded);
    }
    Ok(vec![EventKind::Announced {
        audience,
        team: team.map(str::to_string),
        text: text.to_string(),
    }])
}
