//! Checks of changes to counters: moves (one counter, a stack), hand edits, counters added and taken off, attributes set (refused when another desk changed them since) and statuses.

use super::*;

pub(super) fn changed(changes: Vec<CounterChange>, reason: Option<String>) -> Vec<EventKind> {
    vec![EventKind::Changed {
        changes,
        reason,
        item: None,
    }]
}

pub(super) fn check_move(view: &View, id: &str, to: &Position) -> Checked {
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

pub(super) fn check_move_stack(view: &View, ids: &[CounterId], to: &Position) -> Checked {
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
pub(super) fn check_edit(
    view: &View,
    id: &str,
    edit: &crate::game::action::Edit,
    note: Option<&str>,
) -> Checked {
    use crate::game::action::Edit;
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
/// the ruleset declares for its kind, a Force (one of the game's, or a new one named); its id
/// made from its name.
pub(super) fn check_add_counter(view: &View, action: &crate::game::Action) -> Checked {
    let crate::game::Action::AddCounter {
        name,
        side,
        kind,
        at,
        attributes: typed,
        force,
        note,
    } = action
    else {
        return Err(Refusal::NoChanges);
    };
    let (kind, note) = (*kind, note.as_deref());
    let name = name.trim();
    // A name is free again once its counter has left the table (an army disbanded and raised
    // again in the next turn under its old name; the journal keeps the old one's history).
    let taken = view
        .state
        .counter_id(name)
        .and_then(|id| view.state.counters.get(id))
        .is_some_and(|c| c.removed.is_none());
    if name.is_empty() || taken {
        return Err(Refusal::NameTaken {
            name: name.to_string(),
        });
    }
    known_side(view, side)?;
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
    let force = force
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| force_id(view, f));
    let army = new_counter_army(view, side, force.as_deref());
    let mut counter = CounterState {
        id: id.clone(),
        name: name.to_string(),
        side: side.to_string(),
        army: army.clone(),
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
            army,
            force,
        }],
        note.map(str::to_string),
    ))
}

/// A new counter with other changes, in one entry: the counter as [`check_add_counter`] checks
/// it, the other changes as a change of several counters does.
pub(super) fn check_add_with(
    view: &View,
    add: &crate::game::Action,
    changes: &[CounterChange],
) -> Checked {
    let mut kinds = check_add_counter(view, add)?;
    super::resolve::check_changes(view, changes)?;
    if let Some(crate::game::EventKind::Changed { changes: all, .. }) = kinds.first_mut() {
        all.extend(changes.iter().cloned());
    }
    Ok(kinds)
}

/// The Force named for a new counter: a Force of the game by its id or its words ("Chaumont's
/// Force"), else a new one whose id is made from the name.
fn force_id(view: &View, named: &str) -> String {
    let existing = view
        .scenario
        .forces
        .iter()
        .map(|f| f.id.clone())
        .chain(view.state.counters.values().filter_map(|c| c.force.clone()))
        .find(|f| {
            f == named
                || crate::game::words::force_words(view.scenario, f).eq_ignore_ascii_case(named)
        });
    existing.unwrap_or_else(|| {
        named
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("_")
    })
}

/// A new counter's army: that of its Force's other counters, else its side's only army.
fn new_counter_army(view: &View, side: &str, force: Option<&str>) -> Option<String> {
    force
        .and_then(|f| {
            view.state
                .counters
                .values()
                .find(|c| c.force.as_deref() == Some(f))
                .and_then(|c| c.army.clone())
        })
        .or_else(|| {
            let mut armies = view.scenario.armies.iter().filter(|a| a.side == side);
            match (armies.next(), armies.next()) {
                (Some(only), None) => Some(only.id.clone()),
                _ => None,
            }
        })
}

pub(super) fn check_remove(view: &View, id: &str, reason: &str) -> Checked {
    counter(view, id)?;
    Ok(changed(
        vec![CounterChange::Remove {
            counter: id.to_string(),
            reason: reason.to_string(),
        }],
        Some(reason.to_string()),
    ))
}

pub(crate) fn specs<'a>(ruleset: &'a Ruleset, c: &CounterState) -> &'a [AttributeSpec] {
    match c.kind {
        CounterKind::Leader => &ruleset.leaders,
        _ => &ruleset.units,
    }
}

/// An attribute's new value as typed, checked against its declaration.
pub(crate) fn attribute_value(
    ruleset: &Ruleset,
    c: &CounterState,
    attribute: &str,
    text: &str,
) -> Result<Value, Refusal> {
    let specs = specs(ruleset, c);
    let Some(spec) = specs.iter().find(|a| a.name == attribute) else {
        return Err(Refusal::NoAttribute {
            // The counter as the umpire names it (a counter being added has no id yet to show).
            counter: c.name.clone(),
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

pub(super) fn check_set_attribute(
    view: &View,
    id: &str,
    attribute: &str,
    value: &str,
    seen: &crate::game::action::Seen,
) -> Checked {
    let c = counter(view, id)?;
    let to = attribute_value(view.ruleset, c, attribute, value)?;
    let now = c.attributes.get(attribute);
    // A Force the scenario forbids to change it yet (S2: "may not change its Order for the
    // first two turns").
    if let Some(k) = c.force.as_deref().and_then(|f| {
        view.scenario
            .keeps(f, attribute, view.state.cursor.turn)
            .filter(|_| now != Some(&to))
    }) {
        return Err(Refusal::Orders(format!(
            "{} keeps its {} through turn {} — \"{}\" ({})",
            crate::game::words::force_words(view.scenario, c.force.as_deref().unwrap_or_default()),
            crate::game::words::attribute_words(view.ruleset, attribute),
            k.through_turn,
            k.text,
            k.rule
        )));
    }
    // What the umpire saw against what is there: names in any case ("--was Catholic").
    let same = |a: Option<&Value>, b: Option<&Value>| match (a, b) {
        (Some(Value::Text(x)), Some(Value::Text(y))) => x.eq_ignore_ascii_case(y),
        (a, b) => a == b,
    };
    if let crate::game::action::Seen::Value(saw) = seen
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

/// The counter's name as the text prints it, shared by like counters ("French Gendarmes" for
/// "French Gendarmes (Chaumont) 2"); a counter the game added is its own name.
fn printed_name<'a>(view: &View<'a>, c: &'a CounterState) -> &'a str {
    view.scenario
        .all_counters()
        .find(|s| s.id == c.id)
        .map_or(c.name.as_str(), |s| s.printed.as_str())
}

pub(super) fn check_set_all(
    view: &View,
    name: Option<&str>,
    with: &[(String, String)],
    values: &[(String, String)],
) -> Checked {
    if values.is_empty() {
        return Err(Refusal::NoChanges);
    }
    if name.is_none() && with.is_empty() {
        return Err(Refusal::NoCountersNamed);
    }
    let mut changes = Vec::new();
    let mut matched = 0;
    for c in view.state.counters.values() {
        let named = name.is_none_or(|n| {
            let n = n.trim();
            printed_name(view, c).eq_ignore_ascii_case(n) || c.name.eq_ignore_ascii_case(n)
        });
        if !named {
            continue;
        }
        let mut holds = true;
        for (attribute, text) in with {
            let want = attribute_value(view.ruleset, c, attribute, text);
            holds &= want
                .ok()
                .zip(c.attributes.get(attribute))
                .is_some_and(|(w, have)| have.holds(&w));
        }
        if !holds {
            continue;
        }
        matched += 1;
        for (attribute, text) in values {
            let to = attribute_value(view.ruleset, c, attribute, text)?;
            // A value the text or the umpire gave already stays.
            if c.attributes.contains_key(attribute) && !c.unknown.contains(attribute) {
                continue;
            }
            changes.push(CounterChange::Attribute {
                counter: c.id.clone(),
                attribute: attribute.clone(),
                from: c.attributes.get(attribute).cloned(),
                to,
            });
        }
    }
    if matched == 0 {
        return Err(Refusal::NoCountersMatch {
            which: [
                name.map(|n| format!("named {n}")),
                (!with.is_empty()).then(|| {
                    format!(
                        "with {}",
                        with.iter()
                            .map(|(a, v)| format!("{a} {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" "),
        });
    }
    if changes.is_empty() {
        return Err(Refusal::AlreadyKnown);
    }
    Ok(changed(
        changes,
        Some("the values printed on the counters".to_string()),
    ))
}

/// The refusal of a set whose value another desk changed after the umpire saw it: who changed
/// it, when, and to what (the last entry that stands touching it).
pub(super) fn changed_since(
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

pub(super) fn check_set_status(view: &View, id: &str, status: &str, on: bool) -> Checked {
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
