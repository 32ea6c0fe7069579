//! Checking an action: one function per action, on a read-only [`View`] of the game (ruleset,
//! scenario, state, journal), returning the events the action makes or a typed [`Refusal`].
//! Nothing here writes; `Game::act` commits what a check returns. This file dispatches
//! ([`check`]) and holds what every check reads; the checks are grouped by what they act on:
//! [`counters`], [`resolve`], [`sequence`], [`ledger`], [`journal`], [`deck`].

mod counters;
mod deck;
mod journal;
mod ledger;
mod orders;
mod records;
mod resolve;
mod sequence;
mod victory;

use counters::*;
use deck::*;
use journal::*;
use ledger::*;
use resolve::*;
use sequence::*;
use victory::*;

pub(crate) use counters::{attribute_value, specs};
pub use journal::{redo_target, undo_target};
pub use ledger::adjustable;
pub(crate) use ledger::{UMPIRES_WORD, adjust_range, delta_totals};
pub(crate) use orders::kind as order_kind;

use std::collections::BTreeMap;

use super::action::Action;
use super::event::{Audience, ClockAction, CounterChange, Cursor, Event, EventKind};
use super::gate::Actor;
use super::journal::GameMeta;
use super::names::CounterId;
use super::refusal::{NoAppDice, Refusal};
use super::scenario::{CounterKind, Position, Scenario};
use super::sequence::{LeafStep, Pending, Walk, pending};
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

/// The events an action makes, judged against the game as it stands. Once the game has ended
/// only undo, redo, notes, announcements and the seed's reveal go on; an action whose facts end
/// the game (sudden death) records the end with them.
pub fn check(view: &View, actor: &Actor, action: &Action) -> Checked {
    if let Some((_, result)) = &view.state.ended
        && !goes_on_after_the_end(action)
    {
        return Err(Refusal::GameOver {
            sentence: sentence_end(&result.sentence),
        });
    }
    let mut kinds = check_action(view, actor, action)?;
    if may_end_the_game(action)
        && let Some(result) = sudden_death(view, &mut kinds)
    {
        kinds.push(crate::game::victory::ended(result));
    }
    Ok(kinds)
}

fn check_action(view: &View, actor: &Actor, action: &Action) -> Checked {
    match action {
        Action::Move { counter, to } => check_move(view, counter.as_str(), to),
        Action::MoveStack { counters, to } => check_move_stack(view, counters, to),
        Action::AddCounter { .. } => check_add_counter(view, action),
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
        Action::SetAll { name, with, values } => check_set_all(view, name.as_deref(), with, values),
        Action::Resolve {
            procedure,
            inputs,
            physical,
            chart_result,
            chart_confirmed,
            counters,
            item,
        } => check_resolve(
            view,
            actor,
            procedure,
            inputs,
            physical.as_deref(),
            chart_result.as_deref().map(|c| (c, *chart_confirmed)),
            counters,
            item.as_deref(),
        ),
        Action::ApplyEffects { of, changes } => check_apply_effects(view, actor, *of, changes),
        Action::Change { changes, reason } => check_change(view, changes, reason),
        Action::AddWith { add, changes } => check_add_with(view, add, changes),
        Action::Override {
            of,
            outcome,
            reason,
        } => check_override(view, *of, outcome, reason),
        Action::Next => check_next(view),
        Action::Back => check_back(view),
        Action::Enter { step } => check_enter(view, step),
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
        Action::Victory(fact) => check_victory_fact(view, fact),
        Action::Record(fact) => records::check_record(view, fact),
        Action::SealOrders {
            order,
            side,
            commitment,
            via,
        } => orders::check_seal(view, order, side, commitment, via.as_deref()),
        Action::RevealOrders {
            sealed,
            salt,
            orders,
        } => orders::check_reveal_orders(view, *sealed, salt, orders),
        Action::EndGame { declare, reason } => check_end_game(view, declare.as_deref(), reason),
        Action::Transcribe { table, content } => {
            super::transcribed::check_transcribe(view, table, content)
        }
    }
}

/// A side of the scenario by its id, or a refusal naming the sides.
pub(crate) fn known_side(view: &View, side: &str) -> Result<(), Refusal> {
    if view.scenario.sides.iter().any(|s| s.id == side) {
        return Ok(());
    }
    Err(Refusal::NoSide {
        side: side.to_string(),
        sides: view
            .scenario
            .sides
            .iter()
            .map(|s| s.name.clone())
            .collect::<Vec<_>>()
            .join(", "),
    })
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

/// Checks a position against the game's geometry: of the map's form (a hex id on a hex map,
/// x and y on a free-form table, an area's name on an area map; off-map boxes anywhere), and
/// within the map's extent where the ruleset gives one. A ruleset without `geometry.extent`
/// (every shipped one: none of their texts gives the map's size) accepts any hex id of the
/// map's digits and any finite x, y: Umpire refuses only what the data says is off the map.
pub fn position(ruleset: &Ruleset, p: &Position) -> Result<(), Refusal> {
    let geometry = ruleset.geometry.as_ref();
    let kind = geometry.map(|g| g.kind);
    let extent = geometry.and_then(|g| g.extent.as_ref());
    let form = |position: String| {
        let hint = match kind {
            Some(GeometryKind::Hex) => "its places are hexes: give a hex id, e.g. 0114".into(),
            Some(GeometryKind::Area) => "its places are areas: give an area's name".into(),
            _ => "its places are x, y in base units, e.g. 12.5, 3".to_string(),
        };
        Err(Refusal::NotThisMapsForm { position, hint })
    };
    match p {
        Position::Hex(h) => {
            let digits = geometry.and_then(|g| g.hex_id_digits).unwrap_or(4) as usize;
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
            if let Some(e) = extent
                && let Some(cr) = crate::rules::Extent::col_row(h, digits)
                && !e.holds_hex(cr)
            {
                return Err(Refusal::OffTheMap {
                    position: format!("hex {h}"),
                    extent: e.words(None),
                });
            }
        }
        Position::Area(a) if a.trim().is_empty() => return Err(Refusal::EmptyArea),
        Position::Area(a) if matches!(kind, Some(GeometryKind::Hex | GeometryKind::Free)) => {
            return form(format!("'{a}'"));
        }
        Position::Free { x, y } if !x.is_finite() || !y.is_finite() => {
            return Err(Refusal::BadFreePosition);
        }
        Position::Free { x, y } if matches!(kind, Some(GeometryKind::Hex | GeometryKind::Area)) => {
            return form(format!("x {x}, y {y}"));
        }
        Position::Free { x, y } => {
            if let Some(e) = extent
                && !e.holds_point(*x, *y)
            {
                return Err(Refusal::OffTheMap {
                    position: format!("x {x}, y {y}"),
                    extent: e.words(geometry.and_then(|g| g.distance_unit.as_deref())),
                });
            }
        }
        _ => {}
    }
    Ok(())
}

/// An event that stands (not undone).
pub fn standing<'a>(view: &View<'a>, seq: u64) -> Option<&'a Event> {
    view.events
        .get(seq.saturating_sub(1) as usize)
        .filter(|e| view.state.effective.contains(&e.seq))
}

/// Items pending or done at the current step.
pub fn pending_items(view: &View) -> Vec<Pending> {
    pending(view.ruleset, view.scenario, view.state)
}
