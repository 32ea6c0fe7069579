//! Checks of ledgers: adjustments (deltas that commute) and transfers, a floor the rules set and an umpire's reason to go below it.

use super::*;

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

pub(super) fn needs_reason(reason: &str, what: &'static str) -> Result<(), Refusal> {
    if reason.trim().is_empty() {
        Err(Refusal::ReasonNeeded { what })
    } else {
        Ok(())
    }
}

pub(super) fn check_adjust(
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
pub(super) fn with_word(reason: &str, word: Option<String>) -> String {
    match word {
        Some(w) => format!("{reason} — {w}"),
        None => reason.to_string(),
    }
}

pub(super) fn check_transfer(
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
