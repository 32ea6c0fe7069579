//! Revealed orders carried out on the table (rr3's Intention Card, a fleet's written move):
//! at the step they are revealed, one item a counter — "Ferdinand's army — its Intention Card:
//! Move 1 area, through Upper Austria" — whose recording moves the counter to the last area
//! named, counts the areas, and changes what its option changes (the Fatigue off the
//! movement table). Map Control carries each out, or skips it with the reason (an army stopped
//! by contact) and moves it by hand.

use super::Here;
use crate::game::event::CounterChange;
use crate::game::scenario::Position;
use crate::game::sealed::{OrderValue, Orders};
use crate::game::state::{CounterState, GameState};
use crate::game::steps::{Pending, Whose};
use crate::game::words::attribute_words;
use crate::rules::{AttributeKind, CarryOut, OrderFieldKind, OrderKind, Ruleset, Value};

/// What carrying out one counter's card records, in words and as changes; None where the
/// game cannot work it out (an attribute it changes not known yet: `missing` says which).
struct Plan {
    /// The card in words: its option, and the areas it names.
    card: String,
    /// What recording it does ("Ferdinand's army to Upper Austria; Fatigue 0 → 1"), or why
    /// it cannot be worked out.
    done: Result<(String, Vec<CounterChange>), String>,
}

/// The key of the item that carries out `counter`'s part of the orders sealed in entry `seq`.
fn key(seq: u64, counter: &str) -> String {
    format!("card:{seq}:{counter}")
}

/// A whole-number change printed in a cell ("+1", "0", "-1").
fn cell_change(ruleset: &Ruleset, table: &str, row: &str, column: &str) -> Option<i64> {
    crate::game::orders::cell_amount(ruleset.tables.get(table)?, row, column)
}

fn plan(
    ruleset: &Ruleset,
    kind: &OrderKind,
    carry: &CarryOut,
    c: &CounterState,
    given: &std::collections::BTreeMap<String, OrderValue>,
) -> Plan {
    let option = carry.option.as_ref().and_then(|f| {
        let OrderValue::Choice(id) = given.get(f)? else {
            return None;
        };
        kind.fields.iter().find_map(|field| match &field.kind {
            OrderFieldKind::Choice { options } if field.id == *f => {
                options.iter().find(|o| o.id == *id)
            }
            _ => None,
        })
    });
    let areas: Vec<String> = carry
        .along
        .as_ref()
        .and_then(|f| match given.get(f)? {
            OrderValue::Areas(a) => Some(a.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let mut card = option.map(|o| o.label.clone()).unwrap_or_default();
    if !areas.is_empty() {
        if !card.is_empty() {
            card.push_str(", ");
        }
        card.push_str(&format!("through {}", areas.join(", ")));
    }
    let mut said = Vec::new();
    let mut changes = Vec::new();
    let stays = option.is_some_and(|o| o.moves == Some(0));
    if let Some(last) = areas.last().filter(|_| !stays) {
        let to = Position::Area(last.clone());
        if c.position != to {
            changes.push(CounterChange::Move {
                counter: c.id.clone(),
                from: Some(c.position.clone()),
                to,
            });
        }
        said.push(format!("{} to {last}", c.name));
    } else {
        said.push(format!("{} stays at {}", c.name, c.position));
    }
    if let Some(attr) = &carry.counts_in {
        let n = if stays { 0 } else { areas.len() as i64 };
        let to = Value::Int(n);
        if c.attributes.get(attr) != Some(&to) {
            changes.push(CounterChange::Attribute {
                counter: c.id.clone(),
                attribute: attr.clone(),
                from: c.attributes.get(attr).cloned(),
                to,
            });
        }
        said.push(format!("{} {n}", attribute_words(ruleset, attr)));
    }
    if let (Some((table, column, attr)), Some(row)) =
        (&carry.table, option.and_then(|o| o.row.as_ref()))
    {
        let words = attribute_words(ruleset, attr);
        let Some(by) = cell_change(ruleset, table, row, column) else {
            return Plan {
                card,
                done: Err(format!(
                    "its {words} change is not in the text: read it off the chart and change it by hand"
                )),
            };
        };
        let Some(Value::Int(now)) = c.attributes.get(attr) else {
            return Plan {
                card,
                done: Err(format!(
                    "{}'s {words} is not known yet: give it (Change by hand) first",
                    c.name
                )),
            };
        };
        // "Remove 1 Fatigue marker" takes away one there is: never below the least value.
        let least = ruleset
            .units
            .iter()
            .find(|s| s.name == *attr)
            .and_then(|s| match s.kind {
                AttributeKind::Int { min, .. } => min,
                _ => None,
            })
            .unwrap_or(i64::MIN);
        let to = (now + by).max(least.min(*now));
        if to != *now {
            changes.push(CounterChange::Attribute {
                counter: c.id.clone(),
                attribute: attr.clone(),
                from: Some(Value::Int(*now)),
                to: Value::Int(to),
            });
        }
        said.push(format!("{words} {now} → {to}"));
    }
    Plan {
        card,
        done: Ok((said.join("; "), changes)),
    }
}

/// The counters' parts of the orders revealed at `state`'s step that their kind carries out:
/// (sealed entry, side, kind, counter, what it holds).
fn revealed_here<'s>(
    ruleset: &'s Ruleset,
    state: &'s GameState,
) -> Vec<(
    u64,
    &'s str,
    &'s OrderKind,
    &'s CounterState,
    &'s Orders,
    String,
)> {
    let mut out = Vec::new();
    for (seq, s) in &state.sealed {
        if s.cursor.turn != state.cursor.turn || s.cursor.step != state.cursor.step {
            continue;
        }
        let (Some(_), Some(orders)) = (s.revealed, &s.orders) else {
            continue;
        };
        let Some(kind) = ruleset
            .order_kind(&s.order)
            .filter(|k| k.carry_out.is_some())
        else {
            continue;
        };
        for entry in orders.keys() {
            if let Some(c) = state.counters.get(entry).filter(|c| c.removed.is_none()) {
                out.push((*seq, s.side.as_str(), kind, c, orders, entry.clone()));
            }
        }
    }
    out
}

impl Here<'_> {
    /// One item a counter whose revealed order its kind carries out at this step.
    pub(super) fn card_items(&self) -> Vec<Pending> {
        if self.cursor != &self.state.cursor {
            return Vec::new();
        }
        revealed_here(self.ruleset, self.state)
            .into_iter()
            .filter_map(|(seq, side, kind, c, orders, entry)| {
                let carry = kind.carry_out.as_ref()?;
                let p = plan(self.ruleset, kind, carry, c, orders.get(&entry)?);
                let key = key(seq, &c.id);
                let done = self.carried_out(&key) || self.skipped(&key);
                let mut label = format!(
                    "{} — its {}: {} ({})",
                    c.name, kind.name, p.card, carry.rule
                );
                let credit = match p.done {
                    Ok((words, _)) => Some(format!("carry out: {words}")),
                    Err(why) => {
                        label.push_str(&format!(" — {why}, then skip this item with the reason"));
                        None
                    }
                };
                Some(Pending {
                    label,
                    procedure: None,
                    mandatory: true,
                    credit: credit.filter(|_| !done),
                    enter: None,
                    done,
                    key,
                    whose: Some(Whose::Side(side.to_string())),
                })
            })
            .collect()
    }
}

/// What recording the card item `key` changes, with the reason for the journal.
pub(crate) fn card_change(
    ruleset: &Ruleset,
    state: &GameState,
    key: &str,
) -> Option<(Vec<CounterChange>, String)> {
    let (seq, counter) = key.strip_prefix("card:")?.split_once(':')?;
    let seq: u64 = seq.parse().ok()?;
    let (_, _, kind, c, orders, entry) = revealed_here(ruleset, state)
        .into_iter()
        .find(|(s, _, _, c, _, _)| *s == seq && c.id == counter)?;
    let carry = kind.carry_out.as_ref()?;
    let p = plan(ruleset, kind, carry, c, orders.get(&entry)?);
    let (_, changes) = p.done.ok()?;
    Some((
        changes,
        format!(
            "{}'s {} carried out: {} (entry {seq}; {})",
            c.name, kind.name, p.card, carry.rule
        ),
    ))
}
