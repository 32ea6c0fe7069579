//! Sealed orders (`game::sealed`): handing them in at the step the ruleset declares, before the
//! step reveals them; revealing the last one each side sealed, held to its commitment.

use super::*;
use crate::game::orders::order_form_live;
use crate::game::sealed::{self, Orders};
use crate::rules::OrderKind;

fn refuse<T>(text: String) -> Result<T, Refusal> {
    Err(Refusal::Orders(text))
}

/// The kind of order, or a refusal naming those the ruleset declares.
pub(crate) fn kind<'a>(view: &View<'a>, order: &str) -> Result<&'a OrderKind, Refusal> {
    view.ruleset.order_kind(order).ok_or_else(|| {
        let known: Vec<&str> = view
            .ruleset
            .orders
            .iter()
            .map(|o| o.name.as_str())
            .collect();
        Refusal::Orders(if known.is_empty() {
            format!(
                "{} declares no written orders: they are not handed in through Umpire",
                view.ruleset.name
            )
        } else {
            format!(
                "{} declares no order '{order}' — its orders: {}",
                view.ruleset.name,
                known.join(", ")
            )
        })
    })
}

/// The steps of `kind` in words ("d. Issue or re-issue Orders").
fn due_words(view: &View, kind: &OrderKind) -> String {
    let names: Vec<&str> = view
        .steps
        .iter()
        .filter(|s| kind.steps.contains(&s.id))
        .map(|s| s.path.rsplit(" › ").next().unwrap_or(s.path.as_str()))
        .collect();
    names.join(", ")
}

use crate::game::sealed::late_words_of as late_words;

pub(super) fn check_seal(
    view: &View,
    order: &str,
    side: &str,
    commitment: &str,
    via: Option<&str>,
) -> Checked {
    let kind = kind(view, order)?;
    known_side(view, side)?;
    let cursor = &view.state.cursor;
    let here = sealed::step_id(view.steps, cursor).unwrap_or_default();
    if !kind.steps.contains(&here) {
        let passed = view
            .steps
            .iter()
            .enumerate()
            .any(|(i, s)| i < cursor.step && kind.steps.contains(&s.id));
        return refuse(if passed {
            format!(
                "Too late: the {} of turn {} were due at {}, and the game has moved on. {}",
                kind.name,
                cursor.turn,
                due_words(view, kind),
                late_words(kind)
            )
        } else {
            format!(
                "The {} are handed in at {}; the game is not there yet",
                kind.name,
                due_words(view, kind)
            )
        });
    }
    if sealed::called(view.state, order, cursor) {
        return refuse(format!(
            "Too late: the {} of this step have been revealed. {}",
            kind.name,
            late_words(kind)
        ));
    }
    if commitment.len() != 64 || !commitment.bytes().all(|b| b.is_ascii_hexdigit()) {
        return refuse(format!(
            "a commitment is 64 hexadecimal digits, not '{}'",
            commitment.chars().take(80).collect::<String>()
        ));
    }
    Ok(vec![EventKind::OrdersSealed {
        order: order.to_string(),
        side: side.to_string(),
        commitment: commitment.to_ascii_lowercase(),
        via: via.map(str::to_string),
    }])
}

pub(super) fn check_reveal_orders(view: &View, seq: u64, salt: &str, orders: &Orders) -> Checked {
    let Some(s) = view.state.sealed.get(&seq) else {
        return refuse(format!("entry {seq} did not seal orders"));
    };
    let kind = kind(view, &s.order)?;
    let whose = sealed::whose_orders(view.scenario, &s.side, &kind.name);
    if let Some(r) = s.revealed {
        return refuse(format!("{whose} of entry {seq} were revealed in entry {r}"));
    }
    if let Some((last, _)) = sealed::latest(view.state, &s.order, &s.side, &s.cursor)
        && last != seq
    {
        return refuse(format!(
            "{whose} of entry {seq} were replaced by those sealed in entry {last}: only the last ones sealed are revealed"
        ));
    }
    let cursor = &view.state.cursor;
    if cursor.turn != s.cursor.turn || cursor.step != s.cursor.step {
        return refuse(format!(
            "{whose} of entry {seq} are revealed at the step they were sealed at (turn {})",
            s.cursor.turn
        ));
    }
    if sealed::commitment(salt, orders) != s.commitment {
        return refuse(format!(
            "these are not {whose} sealed in entry {seq}: they do not match its commitment"
        ));
    }
    let form = order_form_live(view.ruleset, view.scenario, view.state, kind, &s.side)
        .map_err(Refusal::Orders)?;
    sealed::check_against(&form, orders).map_err(Refusal::Orders)?;
    let step = sealed::step_id(view.steps, cursor).unwrap_or_default();
    let mut kinds = vec![EventKind::OrdersRevealed {
        sealed: seq,
        order: s.order.clone(),
        side: s.side.clone(),
        salt: salt.to_string(),
        orders: orders.clone(),
        shown: sealed::shown_at(kind, &step),
    }];
    kinds.extend(to_the_table(view, kind, &form, orders));
    Ok(kinds)
}

/// What the revealed orders do on the table, as one change of counters: each choice a field
/// `sets` put on its holder (the Order marker on the Primo Capitano), its cost paid from the
/// side's marker (`paid_from`, for an Order that changes), and in the reason, the Forces given
/// none and the costs the text does not give (to be paid by hand, never taken as 0).
fn to_the_table(
    view: &View,
    kind: &OrderKind,
    form: &crate::game::orders::OrderForm,
    orders: &Orders,
) -> Option<EventKind> {
    use crate::game::orders::FormInput;
    use crate::game::sealed::OrderValue;
    let mut changes = Vec::new();
    // (marker counter, attribute) → the amount paid from it.
    let mut paid: BTreeMap<(String, String), i64> = BTreeMap::new();
    let mut said = Vec::new();
    for field in &kind.fields {
        let Some(attribute) = &field.sets else {
            continue;
        };
        let mut none = Vec::new();
        for entry in &form.entries {
            let Some(holder) = entry
                .holder
                .as_ref()
                .and_then(|h| view.state.counters.get(h))
            else {
                continue;
            };
            let now = holder.attributes.get(attribute);
            let Some(OrderValue::Choice(choice)) =
                orders.get(&entry.id).and_then(|f| f.get(&field.id))
            else {
                if now.is_none_or(|v| *v == Value::Text("none".into())) {
                    none.push(entry.name.clone());
                }
                continue;
            };
            let to = Value::Text(choice.clone());
            if now == Some(&to) {
                continue;
            }
            changes.push(CounterChange::Attribute {
                counter: holder.id.clone(),
                attribute: attribute.clone(),
                from: now.cloned(),
                to,
            });
            let cost = entry
                .fields
                .iter()
                .find(|f| f.field == field.id)
                .and_then(|f| match &f.input {
                    FormInput::Choose { choices, .. } => choices.iter().find(|c| c.id == *choice),
                    _ => None,
                })
                .and_then(|c| c.cost.clone());
            let Some(cost) = cost else { continue };
            let from = match &field.kind {
                crate::rules::OrderFieldKind::TableRow { cost: Some(c), .. } => c.paid_from.clone(),
                _ => None,
            };
            match (cost.amount, from.and_then(|a| side_marker(view, holder, &a).map(|m| (m, a)))) {
                (Some(0), _) => {}
                (Some(a), Some((marker, attr))) => *paid.entry((marker, attr)).or_insert(0) += a,
                (Some(a), None) => said.push(format!(
                    "{a} {} for the {} of {} to pay by hand",
                    cost.unit, field.label, entry.name
                )),
                (None, _) => said.push(format!(
                    "the cost of {}'s {} is not in the text: read it off the chart and pay it by hand",
                    entry.name, field.label
                )),
            }
        }
        if !none.is_empty() {
            said.push(format!(
                "given no {}: {} (the rules on an order not given: {})",
                field.label,
                crate::game::words::and_list(none),
                kind.late.rule
            ));
        }
    }
    for ((marker, attribute), amount) in paid {
        // The marker holds a whole number (`side_marker` took only such a one).
        let c = view.state.counters.get(&marker)?;
        let Some(Value::Int(before)) = c.attributes.get(&attribute).cloned() else {
            continue;
        };
        said.insert(
            0,
            format!(
                "{amount} paid from {} ({before} → {})",
                c.name,
                before - amount
            ),
        );
        changes.push(CounterChange::Attribute {
            counter: marker,
            attribute,
            from: Some(Value::Int(before)),
            to: Value::Int(before - amount),
        });
    }
    if changes.is_empty() && said.is_empty() {
        return None;
    }
    let mut reason = format!("{} revealed, put on the counters", kind.name);
    if !said.is_empty() {
        reason.push_str(": ");
        reason.push_str(&said.join("; "));
    }
    Some(EventKind::Changed {
        changes,
        reason: Some(reason),
        item: None,
    })
}

/// The marker the side of `holder` pays from: its own army's counter holding the attribute
/// (an off-map marker), else the side's only one.
fn side_marker(
    view: &View,
    holder: &crate::game::state::CounterState,
    attribute: &str,
) -> Option<String> {
    let markers: Vec<&crate::game::state::CounterState> = view
        .state
        .counters
        .values()
        .filter(|c| {
            c.side == holder.side
                && c.removed.is_none()
                && matches!(c.position, crate::game::scenario::Position::OffMap(_))
                && matches!(c.attributes.get(attribute), Some(Value::Int(_)))
        })
        .collect();
    match markers.as_slice() {
        [one] => Some(one.id.clone()),
        _ => markers
            .iter()
            .find(|c| c.army.is_some() && c.army == holder.army)
            .map(|c| c.id.clone()),
    }
}
