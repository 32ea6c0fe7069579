//! An area map as a board of named boxes, grouped as the text groups them: the areas of the
//! ruleset's gazetteer under their groups (Istria; each side's objectives), the areas counters
//! stand in under their state's map table (a megagame's East, West, Mediterranean) or as other
//! areas, and the places off the map. What the desk draws for an area map comes from here.

use std::collections::BTreeMap;

use super::scenario::{Position, Scenario};
use super::state::{CounterState, GameState};
use crate::rules::PlaceKind;

/// One box: a place and the counters in it.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardBox {
    /// Its name as printed.
    pub title: String,
    /// Where a counter dropped in it goes.
    pub position: Position,
    /// What it is, where the text says.
    pub kind: Option<PlaceKind>,
    /// Where the text names it.
    pub rule: Option<String>,
    /// The counters in it (ids), in the state's order.
    pub counters: Vec<String>,
}

/// A group of boxes under a heading.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardGroup {
    /// The heading.
    pub title: String,
    /// Its boxes.
    pub boxes: Vec<BoardBox>,
}

/// The heading of the areas no group of the text holds.
pub const OTHER_AREAS: &str = "Other areas";
/// The heading of the places off the map.
pub const OFF_THE_MAP: &str = "Off the map";

fn push_box(groups: &mut Vec<BoardGroup>, group: &str, b: BoardBox) {
    match groups.iter_mut().find(|g| g.title == group) {
        Some(g) => g.boxes.push(b),
        None => groups.push(BoardGroup {
            title: group.to_string(),
            boxes: vec![b],
        }),
    }
}

/// Counters by position, keyed by the position in words (a position with a point in it has
/// no order of its own).
type ByPosition<'s> = BTreeMap<String, (Position, Vec<&'s CounterState>)>;

/// The counters at `position` (ids), taken out of `at` so that each shows in one box.
fn take(at: &mut ByPosition<'_>, position: &Position) -> Vec<String> {
    at.remove(&position.to_string())
        .map(|(_, cs)| cs.iter().map(|c| c.id.clone()).collect())
        .unwrap_or_default()
}

/// The map table a counter's state sits at, in a megagame: its `country` (an army's state) or
/// the state whose ledger it is.
fn table_of(scenario: &Scenario, c: &CounterState) -> Option<String> {
    let m = scenario.megagame.as_ref()?;
    let country = match c.attributes.get("country") {
        Some(crate::rules::Value::Text(t)) => Some(t.as_str()),
        _ => None,
    };
    let state = m
        .states
        .iter()
        .find(|s| Some(s.id.as_str()) == country || s.counter == c.id)?;
    let table = state.table.as_deref()?;
    m.tables
        .iter()
        .find(|t| t.id == table)
        .map(|t| t.name.clone())
}

/// The board: every named area (with or without counters), every area or off-map place that
/// holds a counter `shown` lets through, in groups.
pub fn board(
    scenario: &Scenario,
    state: &GameState,
    shown: impl Fn(&CounterState) -> bool,
) -> Vec<BoardGroup> {
    let mut at: ByPosition<'_> = BTreeMap::new();
    for c in state.counters.values() {
        if c.removed.is_none() && shown(c) {
            at.entry(c.position.to_string())
                .or_insert_with(|| (c.position.clone(), Vec::new()))
                .1
                .push(c);
        }
    }
    let mut groups: Vec<BoardGroup> = Vec::new();
    for p in scenario.places.iter().filter(|p| p.hex.is_none()) {
        let position = Position::Area(p.name.clone());
        let counters = take(&mut at, &position);
        push_box(
            &mut groups,
            p.group.as_deref().unwrap_or(OTHER_AREAS),
            BoardBox {
                title: p.name.clone(),
                position,
                kind: p.kind,
                rule: p.rule.clone(),
                counters,
            },
        );
    }
    // A megagame's states, each its home area, at the map table the text seats it at.
    if let Some(m) = &scenario.megagame {
        for st in &m.states {
            let Some(table) = st
                .table
                .as_deref()
                .and_then(|t| m.tables.iter().find(|x| x.id == t))
            else {
                continue;
            };
            let position = Position::Area(st.name.clone());
            if groups
                .iter()
                .any(|g| g.boxes.iter().any(|b| b.position == position))
            {
                continue;
            }
            let counters = take(&mut at, &position);
            push_box(
                &mut groups,
                &table.name,
                BoardBox {
                    title: st.name.clone(),
                    position,
                    kind: None,
                    rule: table.rule.clone(),
                    counters,
                },
            );
        }
    }
    let mut off_map = Vec::new();
    for (position, counters) in at.into_values() {
        let ids: Vec<String> = counters.iter().map(|c| c.id.clone()).collect();
        match &position {
            Position::Area(name) => {
                let group = counters
                    .iter()
                    .find_map(|c| table_of(scenario, c))
                    .unwrap_or_else(|| OTHER_AREAS.to_string());
                push_box(
                    &mut groups,
                    &group,
                    BoardBox {
                        title: name.clone(),
                        position: position.clone(),
                        kind: None,
                        rule: None,
                        counters: ids,
                    },
                );
            }
            Position::OffMap(name) => off_map.push(BoardBox {
                title: name.clone(),
                position: position.clone(),
                kind: None,
                rule: None,
                counters: ids,
            }),
            // A hex or a point on a board of areas: shown with the places off the map.
            other => off_map.push(BoardBox {
                title: other.to_string(),
                position: other.clone(),
                kind: None,
                rule: None,
                counters: ids,
            }),
        }
    }
    if !off_map.is_empty() {
        groups.push(BoardGroup {
            title: OFF_THE_MAP.to_string(),
            boxes: off_map,
        });
    }
    groups
}
