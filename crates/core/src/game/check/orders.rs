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
    Ok(vec![EventKind::OrdersRevealed {
        sealed: seq,
        order: s.order.clone(),
        side: s.side.clone(),
        salt: salt.to_string(),
        orders: orders.clone(),
        shown: sealed::shown_at(kind, &step),
    }])
}
