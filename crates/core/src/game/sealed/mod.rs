//! Sealed orders: a side hands in the written orders the ruleset declares
//! ([`crate::rules::OrderKind`]) and the journal records only a salted commitment to them — who,
//! which orders, when, and a hash — while the orders themselves are kept apart, beside the
//! journal ([`super::Game::keep`]), visible to that side. When the step reveals them, the orders
//! and the salt enter the journal, and anyone can check them against the commitment made before
//! (`game verify`, the players' view's verify, `verify-side`).
//!
//! The commitment is SHA-256 over a tag, the salt and the orders as canonical JSON (every map
//! sorted by key, no spaces): [`commitment`]. A side may seal again until the deadline — the step
//! is called, or the Sequence of Play moves on — each time a new commitment; the last one sealed
//! is the one revealed, and the check of a reveal refuses any other.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub(crate) mod fold;
pub mod payload;

pub use fold::{Sealed, SealedState, apply};
pub use payload::{OrderValue, Orders, Shown};

use super::action::Action;
use super::event::{Cursor, Event, EventKind};
use super::gate::Actor;
use super::journal::sha256_hex;
use super::orders::{FormInput, OrderForm};
use super::refusal::{GameError, Refusal};
use super::scenario::Scenario;
use super::state::GameState;
use crate::rules::{OrderKind, OrderReveal, OrderRevealAt, OrderRevealTo, Ruleset};

/// What goes before the salt in a commitment (a version, so the scheme can change).
const TAG: &str = "umpire-orders-v1\n";

/// The commitment to `orders` under `salt`: what the journal shows while they are sealed.
pub fn commitment(salt: &str, orders: &Orders) -> String {
    // A BTreeMap serialises in key order: the JSON is canonical.
    let json = serde_json::to_string(orders).unwrap_or_default();
    sha256_hex(format!("{TAG}{salt}\n{json}").as_bytes())
}

/// What is kept beside the journal for one sealed order: the salt and the orders.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    /// The salt of the commitment.
    pub salt: String,
    /// The orders.
    pub orders: Orders,
}

/// The key a sealed order's content is kept under ([`super::Game::keep`]).
pub fn kept_key(commitment: &str) -> String {
    format!("sealed:{commitment}")
}

/// The last order `side` sealed of `order` at `cursor`'s turn and step, by entry.
pub fn latest<'s>(
    state: &'s GameState,
    order: &str,
    side: &str,
    cursor: &Cursor,
) -> Option<(u64, &'s SealedState)> {
    state
        .sealed
        .iter()
        .rev()
        .find(|(_, s)| {
            s.order == order
                && s.side == side
                && s.cursor.turn == cursor.turn
                && s.cursor.step == cursor.step
        })
        .map(|(seq, s)| (*seq, s))
}

/// Whether the orders of `order` at `cursor`'s step were called (any side's revealed): from then
/// on an order handed in is late.
pub fn called(state: &GameState, order: &str, cursor: &Cursor) -> bool {
    state.sealed.values().any(|s| {
        s.order == order
            && s.cursor.turn == cursor.turn
            && s.cursor.step == cursor.step
            && s.revealed.is_some()
    })
}

/// The last order each side sealed of each kind at `cursor`'s turn and step, by entry.
pub fn last_at<'s>(state: &'s GameState, cursor: &Cursor) -> Vec<(u64, &'s SealedState)> {
    let mut last: BTreeMap<(&str, &str), (u64, &SealedState)> = BTreeMap::new();
    for (seq, s) in &state.sealed {
        if s.cursor.turn == cursor.turn && s.cursor.step == cursor.step {
            last.insert((s.order.as_str(), s.side.as_str()), (*seq, s));
        }
    }
    last.into_values().collect()
}

/// The sealed orders at the game's step waiting for their reveal: the last one each side
/// sealed of each kind, not yet revealed.
pub fn awaiting_reveal(state: &GameState) -> Vec<(u64, &SealedState)> {
    last_at(state, &state.cursor)
        .into_iter()
        .filter(|(_, s)| s.revealed.is_none())
        .collect()
}

/// To whom a reveal at `step` shows the orders of `kind`: the other sides when a rule reveals
/// them to the others at this step; as the visibility entries show them when a rule says so;
/// else the umpires (the Control roles named).
pub fn shown_at(kind: &OrderKind, step: &str) -> Shown {
    let at_step = |r: &OrderReveal| match &r.at {
        OrderRevealAt::StepStart => kind.steps.iter().any(|s| s == step),
        OrderRevealAt::Steps(steps) => steps.iter().any(|s| s == step),
        OrderRevealAt::AsCarriedOut | OrderRevealAt::Visibility(_) => false,
    };
    let others = |r: &&OrderReveal| matches!(r.to, OrderRevealTo::Others);
    if kind.reveals.iter().filter(others).any(at_step) {
        return Shown::Everyone;
    }
    if let Some(entries) = kind
        .reveals
        .iter()
        .filter(others)
        .find_map(|r| match &r.at {
            OrderRevealAt::Visibility(v) => Some(v.clone()),
            _ => None,
        })
    {
        return Shown::Visibility { entries };
    }
    let roles = kind
        .reveals
        .iter()
        .filter_map(|r| match &r.to {
            OrderRevealTo::Control(roles) => Some(roles.clone()),
            OrderRevealTo::Others => None,
        })
        .flatten()
        .collect();
    Shown::Control { roles }
}

/// Holds `orders` to the form: every entry one of the form's, every field one of its kind's,
/// every choice one the form offers, areas by name and no more than the field allows. In words,
/// naming the entry and the field.
pub fn check_against(form: &OrderForm, orders: &Orders) -> Result<(), String> {
    for (entry_id, fields) in orders {
        let Some(entry) = form.entries.iter().find(|e| &e.id == entry_id) else {
            return Err(not_an_entry(form, entry_id));
        };
        for (field_id, value) in fields {
            let Some(field) = entry.fields.iter().find(|f| &f.field == field_id) else {
                return Err(format!(
                    "{}: the {} has no '{}' — it holds {}",
                    entry.name,
                    form.name,
                    field_id,
                    entry
                        .fields
                        .iter()
                        .map(|f| f.label.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            };
            match (&field.input, value) {
                (FormInput::Choose { choices, .. }, OrderValue::Choice(c)) => {
                    if !choices.iter().any(|x| &x.id == c) {
                        return Err(format!(
                            "{}: '{}' is not a {} the rules allow — {}",
                            entry.name,
                            c,
                            field.label,
                            choices
                                .iter()
                                .map(|x| x.label.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                    }
                }
                (FormInput::Areas { max }, OrderValue::Areas(areas)) => {
                    if areas.len() > *max as usize {
                        return Err(format!(
                            "{}: {} names {} areas, at most {} — {}",
                            entry.name,
                            field.label,
                            areas.len(),
                            max,
                            areas.join(", ")
                        ));
                    }
                    // A game that knows no areas by name (a scenario without its gazetteer)
                    // takes them as written, as on the paper card.
                    if let Some(bad) = areas.iter().find(|a| {
                        a.trim().is_empty() || !form.areas.is_empty() && !form.areas.contains(a)
                    }) {
                        let close = form
                            .areas
                            .iter()
                            .map(|a| {
                                (
                                    strsim::jaro_winkler(&a.to_lowercase(), &bad.to_lowercase()),
                                    a,
                                )
                            })
                            .filter(|(score, _)| *score > 0.85)
                            .max_by(|a, b| a.0.total_cmp(&b.0))
                            .map(|(_, a)| format!(" — did you mean {a}?"))
                            .unwrap_or_default();
                        return Err(format!(
                            "{}: '{}' is not an area of the map ({}){close}",
                            entry.name, bad, field.label
                        ));
                    }
                }
                (FormInput::Flag, OrderValue::Flag(_)) => {}
                (input, _) => {
                    return Err(format!(
                        "{}: {} takes {}",
                        entry.name,
                        field.label,
                        match input {
                            FormInput::Choose { .. } => "one of its choices",
                            FormInput::Areas { .. } => "a list of areas",
                            FormInput::Flag => "yes or no",
                        }
                    ));
                }
            }
        }
    }
    Ok(())
}

/// "'Trivulzio' is not one of those the Orders is for — Chaumont, Louis XII, Roquebertin".
fn not_an_entry(form: &OrderForm, named: &str) -> String {
    format!(
        "'{named}' is not one of those the {} is for — {}",
        form.name,
        form.entries
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The orders in words, one line per entry: "Trivulzio's Force (2849): Order — Attack (2 AP)".
pub fn words(form: &OrderForm, orders: &Orders) -> Vec<String> {
    orders
        .iter()
        .map(|(entry_id, fields)| {
            let entry = form.entries.iter().find(|e| &e.id == entry_id);
            let name = entry.map_or(entry_id.as_str(), |e| e.name.as_str());
            // In the form's order (Move, then the areas, then the box), not by id.
            let mut fields: Vec<(&String, &OrderValue)> = fields.iter().collect();
            if let Some(e) = entry {
                fields.sort_by_key(|(id, _)| e.fields.iter().position(|f| &f.field == *id));
            }
            let parts: Vec<String> = fields
                .into_iter()
                .map(|(field_id, value)| {
                    let field = entry.and_then(|e| e.fields.iter().find(|f| &f.field == field_id));
                    let label = field.map_or(field_id.as_str(), |f| f.label.as_str());
                    let said = match (field.map(|f| &f.input), value) {
                        (Some(FormInput::Choose { choices, .. }), OrderValue::Choice(c)) => {
                            choices.iter().find(|x| &x.id == c).map_or_else(
                                || c.clone(),
                                |x| match x.cost.as_ref().and_then(|c| c.amount.map(|a| (a, c))) {
                                    Some((a, cost)) => format!("{} ({a} {})", x.label, cost.unit),
                                    None => x.label.clone(),
                                },
                            )
                        }
                        (_, OrderValue::Choice(c)) => c.clone(),
                        (_, OrderValue::Areas(a)) if a.is_empty() => "none".to_string(),
                        (_, OrderValue::Areas(a)) => a.join(", "),
                        (_, OrderValue::Flag(true)) => "yes".to_string(),
                        (_, OrderValue::Flag(false)) => "no".to_string(),
                    };
                    format!("{label} — {said}")
                })
                .collect();
            if parts.is_empty() {
                format!("{name}: no order")
            } else {
                format!("{name}: {}", parts.join("; "))
            }
        })
        .collect()
}

/// The step id at a cursor, if the Sequence of Play has it.
pub fn step_id(steps: &[super::steps::LeafStep], cursor: &Cursor) -> Option<String> {
    steps.get(cursor.step).map(|s| s.id.clone())
}

/// Whom a reveal shows the orders to, in words: "to every side", "to Map Control".
pub fn shown_words(shown: &Shown) -> String {
    match shown {
        Shown::Everyone => "to every side".to_string(),
        Shown::Control { roles } if roles.is_empty() => "to the umpires".to_string(),
        Shown::Control { roles } => format!(
            "to {}",
            roles
                .iter()
                .map(|r| crate::rules::control_role_words(r))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Shown::Visibility { .. } => {
            "to the umpire, and to the other side as far as the rules show them".to_string()
        }
    }
}

/// The title of a sealing or a reveal ("Orders sealed", "Intention Card revealed").
pub fn title(ruleset: &Ruleset, e: &Event) -> Option<String> {
    let name = |order: &str| {
        ruleset
            .order_kind(order)
            .map_or_else(|| order.to_string(), |k| k.name.clone())
    };
    match &e.kind {
        EventKind::OrdersSealed { order, .. } => Some(format!("{} sealed", name(order))),
        EventKind::OrdersRevealed { .. } => Some("Orders revealed".to_string()),
        _ => None,
    }
}

/// A sealing in words: "The Venetian Orders for turn 3, sealed at 10:42 — commitment
/// 7c1e9a2b40d1… (from the Venetian phone)".
pub fn sealed_words(ruleset: &Ruleset, scenario: &Scenario, e: &Event) -> Vec<String> {
    let EventKind::OrdersSealed {
        order,
        side,
        commitment,
        via,
    } = &e.kind
    else {
        return Vec::new();
    };
    let name = ruleset
        .order_kind(order)
        .map_or_else(|| order.to_string(), |k| k.name.clone());
    let short: String = commitment.chars().take(12).collect();
    vec![format!(
        "{} for turn {}, sealed at {} — commitment {short}…{}",
        whose_orders_capital(scenario, side, &name),
        e.cursor.turn,
        e.at.with_timezone(&chrono::Local).format("%H:%M"),
        via.as_ref().map(|v| format!(" ({v})")).unwrap_or_default()
    )]
}

/// A reveal in words: who sealed them and when, to whom they are shown, then one line per
/// Force (or army) with its order, as the form words it.
pub fn revealed_words(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    e: &Event,
) -> Vec<String> {
    let EventKind::OrdersRevealed {
        sealed,
        order,
        side,
        orders,
        shown,
        ..
    } = &e.kind
    else {
        return Vec::new();
    };
    let Some(kind) = ruleset.order_kind(order) else {
        return vec![format!("The orders sealed in entry {sealed}, revealed")];
    };
    let mut out = vec![format!(
        "{} sealed in entry {sealed}, as sealed ({})",
        whose_orders_capital(scenario, side, &kind.name),
        kind.rule
    )];
    match super::orders::order_form_live(ruleset, scenario, state, kind, side) {
        Ok(form) => {
            out.extend(words(&form, orders));
            // What the rules do with those given no order (rr3: an army not ready misses
            // the step).
            let missing: Vec<&str> = form
                .entries
                .iter()
                .filter(|e| !orders.contains_key(&e.id))
                .map(|e| e.name.as_str())
                .collect();
            if !missing.is_empty() {
                out.push(match kind.late.kind {
                    crate::rules::LateOrderKind::NotStated => format!(
                        "No order for {}: the rules set no consequence for an order not given ({})",
                        missing.join(", "),
                        kind.late.rule
                    ),
                    crate::rules::LateOrderKind::MissesStep => {
                        format!(
                            "No order for {}: {}",
                            missing.join(", "),
                            late_words_of(kind)
                        )
                    }
                });
            }
        }
        Err(_) => out.push(format!("{} entries", orders.len())),
    }
    out.push(format!(
        "Revealed {}; the salt and these orders match the commitment of entry {sealed}",
        shown_words(shown)
    ));
    out
}

/// What the rules do when no order is given in time, with the rule.
pub fn late_words_of(kind: &OrderKind) -> String {
    format!("{} ({})", kind.late.text.trim(), kind.late.rule)
}

impl super::Game {
    /// The form of `order` for `side` as the game stands (its Forces now, where they are now).
    pub fn order_form(&self, order: &str, side: &str) -> Result<OrderForm, GameError> {
        let kind = self.order_kind(order)?;
        let mut form = super::orders::order_form_live(
            self.ruleset(),
            self.scenario(),
            self.state(),
            kind,
            side,
        )
        .map_err(Refusal::Orders)?;
        let raised =
            super::order_checks::raised_this_phase(self.events(), self.steps(), self.state());
        super::order_checks::mark(
            &mut form,
            self.ruleset(),
            self.scenario(),
            self.state(),
            kind,
            &raised,
        );
        Ok(form)
    }

    fn order_kind(&self, order: &str) -> Result<&OrderKind, GameError> {
        Ok(super::check::order_kind(&self.view(), order)?)
    }

    /// The kinds of order due at the game's step, with the sides that hand them in.
    pub fn orders_due_now(&self) -> Vec<&OrderKind> {
        let step = step_id(self.steps(), &self.state().cursor).unwrap_or_default();
        self.ruleset().orders_due(&step)
    }

    /// The orders due at this step that a side has not handed in, in words ("the Venetian
    /// Orders"), each with the rules' consequence of an order not given in time: what a reveal
    /// now holds that side to. Empty when every side has sealed its orders.
    pub fn orders_not_handed_in(&self) -> Vec<String> {
        let cursor = &self.state().cursor;
        let sealed_here = last_at(self.state(), cursor);
        let mut out = Vec::new();
        for kind in self.orders_due_now() {
            for side in &self.scenario().sides {
                let has_form = self
                    .order_form(&kind.id, &side.id)
                    .is_ok_and(|f| !f.entries.is_empty());
                let handed_in = sealed_here
                    .iter()
                    .any(|(_, s)| s.order == kind.id && s.side == side.id);
                if has_form && !handed_in {
                    out.push(format!(
                        "{} were not handed in — {}",
                        whose_orders(self.scenario(), &side.id, &kind.name),
                        late_words_of(kind)
                    ));
                }
            }
        }
        out
    }

    /// Hands in `side`'s orders sealed: held to the form, then kept apart under a fresh salt,
    /// and only the commitment journaled. Returns the sealing entry. A side may seal again
    /// until the step reveals them; the last one sealed is the one revealed.
    pub fn seal_orders(
        &mut self,
        actor: &Actor,
        order: &str,
        side: &str,
        orders: Orders,
        via: Option<String>,
    ) -> Result<u64, GameError> {
        let form = self.order_form(order, side)?;
        check_against(&form, &orders).map_err(Refusal::Orders)?;
        // Checked before anything is kept: too early, too late, not this side's.
        super::check::check(
            &self.view(),
            actor,
            &Action::SealOrders {
                order: order.to_string(),
                side: side.to_string(),
                commitment: "0".repeat(64),
                via: via.clone(),
            },
        )?;
        if orders.is_empty() {
            return Err(Refusal::Orders(format!(
                "nothing to seal: choose an order for at least one of {}",
                form.entries
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .into());
        }
        // What the table does not allow: the same check whether the orders come from a
        // phone, the desk or the command line.
        super::order_checks::check_allowed(&form, &orders).map_err(Refusal::Orders)?;
        if let Some(kind) = self.ruleset().order_kind(order) {
            super::order_checks::check_moves(kind, &form, &orders).map_err(Refusal::Orders)?;
        }
        let salt = super::journal::fresh_salt();
        let commitment = commitment(&salt, &orders);
        let kept = serde_json::to_string(&Kept { salt, orders })
            .map_err(|e| Refusal::Orders(format!("the orders cannot be kept: {e}")))?;
        // Kept first: a commitment journaled with nothing kept could never be revealed.
        if !self.keep(&kept_key(&commitment), &kept)? {
            return Err(Refusal::Orders(format!(
                "{} cannot keep sealed orders beside its journal (a read-only copy)",
                self.location()
            ))
            .into());
        }
        let seqs = self.act(
            actor,
            Action::SealOrders {
                order: order.to_string(),
                side: side.to_string(),
                commitment,
                via,
            },
        )?;
        Ok(seqs.first().copied().unwrap_or_default())
    }

    /// The orders sealed in entry `seq`, as kept beside the journal (None: not kept here — they
    /// were handed in through another machine).
    pub fn sealed_content(&mut self, seq: u64) -> Result<Option<Kept>, GameError> {
        let Some(s) = self.state().sealed.get(&seq) else {
            return Ok(None);
        };
        let key = kept_key(&s.commitment);
        Ok(self
            .kept(&key)?
            .and_then(|text| serde_json::from_str::<Kept>(&text).ok()))
    }

    /// Reveals every order sealed at the game's step that waits for it (the last each side
    /// sealed of each kind), as the step says: returns the entries written.
    pub fn reveal_orders(&mut self, actor: &Actor) -> Result<Vec<u64>, GameError> {
        // Orders sealed from the phones were written by the players' view: read them first.
        self.refresh()?;
        let waiting: Vec<(u64, String, String)> = awaiting_reveal(self.state())
            .into_iter()
            .map(|(seq, s)| (seq, s.order.clone(), s.side.clone()))
            .collect();
        if waiting.is_empty() {
            return Err(Refusal::Orders(
                "no sealed orders wait to be revealed at this step".to_string(),
            )
            .into());
        }
        let mut out = Vec::new();
        for (seq, order, side) in waiting {
            let Some(kept) = self.sealed_content(seq)? else {
                let name = self.order_kind(&order).map(|k| k.name.clone())?;
                return Err(Refusal::Orders(format!(
                    "{} sealed in entry {seq} {} handed in through another machine's players' view, and kept there: reveal them there (`umpire game orders reveal`){}",
                    whose_orders(self.scenario(), &side, &name),
                    were(&name),
                    if out.is_empty() { String::new() } else { format!(" — revealed so far: entries {}", out.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")) }
                ))
                .into());
            };
            out.extend(self.act(
                actor,
                Action::RevealOrders {
                    sealed: seq,
                    salt: kept.salt,
                    orders: kept.orders,
                },
            )?);
        }
        Ok(out)
    }
}

/// Reads orders typed as `ENTRY.FIELD=VALUE` (one per field): the entry by its id or its name
/// ("Trivulzio" for Trivulzio's Force), the field by id or label, a choice by id or its words,
/// areas separated by commas (none: empty), a box as yes or no. The same words the form shows.
pub fn parse_assignments(form: &OrderForm, typed: &[String]) -> Result<Orders, String> {
    let mut out = Orders::new();
    for t in typed {
        let Some((lhs, value)) = t.split_once('=') else {
            return Err(format!(
                "'{t}': type ENTRY.FIELD=VALUE (e.g. \"{}\")",
                example(form)
            ));
        };
        let (entry_part, field_part) = match lhs.rsplit_once('.') {
            Some((e, f)) => (e.trim(), Some(f.trim())),
            None => (lhs.trim(), None),
        };
        let entry = form
            .entries
            .iter()
            .find(|e| same(&e.id, entry_part) || same(&e.name, entry_part))
            .ok_or_else(|| not_an_entry(form, entry_part))?;
        let field = match field_part {
            Some(f) => entry
                .fields
                .iter()
                .find(|x| same(&x.field, f) || same(&x.label, f)),
            None if entry.fields.len() == 1 => entry.fields.first(),
            None => None,
        }
        .ok_or_else(|| {
            format!(
                "{}: name the field — {}",
                entry.name,
                entry
                    .fields
                    .iter()
                    .map(|x| x.label.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        let value = value.trim();
        let v = match &field.input {
            FormInput::Choose { choices, .. } => OrderValue::Choice(
                choices
                    .iter()
                    .find(|c| same(&c.id, value) || same(&c.label, value))
                    .map_or_else(|| value.to_string(), |c| c.id.clone()),
            ),
            FormInput::Areas { .. } => OrderValue::Areas(
                value
                    .split(',')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(|a| {
                        form.areas
                            .iter()
                            .find(|x| same(x, a))
                            .cloned()
                            .unwrap_or_else(|| a.to_string())
                    })
                    .collect(),
            ),
            FormInput::Flag => match value.to_ascii_lowercase().as_str() {
                "yes" | "true" | "y" | "1" | "on" => OrderValue::Flag(true),
                "no" | "false" | "n" | "0" | "off" | "" => OrderValue::Flag(false),
                _ => {
                    return Err(format!(
                        "{}: {} is yes or no, not '{value}'",
                        entry.name, field.label
                    ));
                }
            },
        };
        out.entry(entry.id.clone())
            .or_default()
            .insert(field.field.clone(), v);
    }
    check_against(form, &out)?;
    Ok(out)
}

fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

fn example(form: &OrderForm) -> String {
    let Some(e) = form.entries.first() else {
        return "ENTRY.FIELD=VALUE".to_string();
    };
    let Some(f) = e.fields.first() else {
        return format!("{}.FIELD=VALUE", e.name);
    };
    let v = match &f.input {
        FormInput::Choose { choices, .. } => choices
            .first()
            .map_or_else(|| "VALUE".to_string(), |c| c.label.clone()),
        FormInput::Areas { .. } => form
            .areas
            .first()
            .cloned()
            .unwrap_or_else(|| "AREA".to_string()),
        FormInput::Flag => "yes".to_string(),
    };
    format!("{}.{}={v}", e.name, f.label)
}

/// A choice of an order's field in the game's words: the table row as printed ("Retreat"), the
/// option's label; the value itself when the ruleset has neither.
pub fn choice_label(ruleset: &Ruleset, kind: &OrderKind, field: &str, value: &str) -> String {
    use crate::rules::OrderFieldKind;
    match kind.field(field).map(|f| &f.kind) {
        Some(OrderFieldKind::TableRow { table, .. }) => ruleset
            .table(table)
            .and_then(|t| {
                t.rows
                    .iter()
                    .find(|r| r.key.to_string() == value)
                    .map(|r| t.row_words(r))
            })
            .unwrap_or_else(|| crate::rules::choice_words(value)),
        Some(OrderFieldKind::Choice { options }) => options
            .iter()
            .find(|o| o.id == value)
            .map_or_else(|| crate::rules::choice_words(value), |o| o.label.clone()),
        _ => crate::rules::choice_words(value),
    }
}

/// The name of a form's field for one entry: `f:ENTRY:FIELD`.
pub fn field_name(entry: &str, field: &str) -> String {
    format!("f:{entry}:{field}")
}

/// Reads a form's fields (`f:ENTRY:FIELD` = value, as the players' view and the desk name them)
/// into orders: an entry with nothing chosen
/// has no order; a box is ticked when sent.
pub fn orders_from_fields(form: &OrderForm, fields: &[(String, String)]) -> Orders {
    let mut out = Orders::new();
    for entry in &form.entries {
        let mut given = BTreeMap::new();
        let mut ticked = BTreeMap::new();
        for field in &entry.fields {
            let name = field_name(&entry.id, &field.field);
            let values: Vec<&str> = fields
                .iter()
                .filter(|(k, _)| *k == name)
                .map(|(_, v)| v.as_str())
                .collect();
            match &field.input {
                FormInput::Choose { .. } => {
                    if let Some(v) = values.iter().find(|v| !v.trim().is_empty()) {
                        given.insert(
                            field.field.clone(),
                            OrderValue::Choice(v.trim().to_string()),
                        );
                    }
                }
                FormInput::Areas { .. } => {
                    let areas: Vec<String> = values
                        .iter()
                        .flat_map(|v| v.split(','))
                        .map(str::trim)
                        .filter(|a| !a.is_empty())
                        .map(|a| {
                            form.areas
                                .iter()
                                .find(|x| x.eq_ignore_ascii_case(a))
                                .cloned()
                                .unwrap_or_else(|| a.to_string())
                        })
                        .collect();
                    if !areas.is_empty() {
                        given.insert(field.field.clone(), OrderValue::Areas(areas));
                    }
                }
                FormInput::Flag => {
                    let on = values
                        .iter()
                        .any(|v| !v.trim().is_empty() && !v.trim().eq_ignore_ascii_case("no"));
                    ticked.insert(field.field.clone(), OrderValue::Flag(on));
                }
            }
        }
        // A box alone is no order; with an order, every box is said (ticked or not).
        if !given.is_empty() || ticked.values().any(|v| *v == OrderValue::Flag(true)) {
            given.extend(ticked);
            out.insert(entry.id.clone(), given);
        }
    }
    out
}

/// "the French Orders", "the Habsburgs' Intention Card" — a side's orders in a sentence, lower
/// case (a side named "The Habsburgs" is not "the The Habsburgs").
pub fn whose_orders(scenario: &Scenario, side: &str, kind_name: &str) -> String {
    let name = super::words::side_words(scenario, side);
    let name = name
        .strip_prefix("The ")
        .or_else(|| name.strip_prefix("the "))
        .unwrap_or(&name);
    format!("the {name} {kind_name}")
}

/// [`whose_orders`] at the start of a sentence.
pub fn whose_orders_capital(scenario: &Scenario, side: &str, kind_name: &str) -> String {
    let w = whose_orders(scenario, side, kind_name);
    format!("T{}", &w[1..])
}

/// "were" for Orders, "was" for an Intention Card.
pub fn were(kind_name: &str) -> &'static str {
    if kind_name.ends_with('s') {
        "were"
    } else {
        "was"
    }
}
