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

/// Checks a delta against the attribute's range. Below its floor (a treasury at 0: a state
/// pays only what it has) it goes only at the umpire's word, with the reason: then the words
/// to record with it. A result past the whole numbers Umpire keeps (±9.2 × 10¹⁸) is refused,
/// never saturated: a ledger that silently stopped at the largest number would be wrong.
/// `by` is wide enough for several deltas added up ([`delta_totals`]).
pub(crate) fn adjust_range(
    view: &View,
    id: &str,
    attribute: &str,
    by: i128,
    confirmed: Option<&str>,
) -> Result<Option<String>, Refusal> {
    let c = counter(view, id)?;
    let label = || {
        specs(view.ruleset, c)
            .iter()
            .find(|a| a.name == attribute)
            .map_or_else(|| attribute.to_string(), |a| a.label.clone())
    };
    // An unknown value is the sum of the deltas since the start (from 0).
    let (now, known) = match c.attributes.get(attribute) {
        Some(Value::Int(v)) => (*v, true),
        _ => (0, false),
    };
    let overflow = || Refusal::AdjustOverflow {
        counter: c.name.clone(),
        attribute: label(),
        now,
        by: by.to_string(),
    };
    let after = i64::try_from(i128::from(now) + by).map_err(|_| overflow())?;
    let by = i64::try_from(by).map_err(|_| overflow())?;
    // An unknown value stays unknown under deltas: nothing to hold to a range yet.
    if !known {
        return Ok(None);
    }
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
                "{}'s {} taken to {after}, below {}, {UMPIRES_WORD}{why}",
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
    let word = adjust_range(view, id, attribute, by.into(), actor.reason.as_deref())?;
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
/// from a treasury of 5 are held to its floor together. Added in 128 bits, so no sum of a
/// journal's deltas wraps: [`adjust_range`] refuses one past 64 bits.
pub(crate) fn delta_totals<'c>(
    changes: impl IntoIterator<Item = &'c CounterChange>,
) -> BTreeMap<(&'c str, &'c str), i128> {
    let mut totals: BTreeMap<(&str, &str), i128> = BTreeMap::new();
    for c in changes {
        if let CounterChange::Adjust {
            counter,
            attribute,
            by,
        } = c
        {
            *totals
                .entry((counter.as_str(), attribute.as_str()))
                .or_default() += i128::from(*by);
        }
    }
    totals
}

pub(crate) use crate::game::event::UMPIRES_WORD;

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
    let word = adjust_range(
        view,
        from,
        attribute,
        -i128::from(amount),
        actor.reason.as_deref(),
    )?;
    adjust_range(view, to, attribute, amount.into(), None)?;
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
