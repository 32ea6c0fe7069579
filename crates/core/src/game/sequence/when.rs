//! Whether a step, or an item it holds for a Force, applies to the game as it stands: the
//! clauses of its `when` (an AP turn, opposing Forces in contact, an optional rule in play, a
//! status on the map, a procedure resolved so many times this turn, a Force's Order).

use std::collections::{BTreeMap, BTreeSet};

use super::super::scenario::{CounterKind, Position, Scenario};
use super::super::state::{CounterState, GameState};
use crate::rules::{StepCondition, Value};

/// A counter standing on the map (not removed, not off it) as a piece: a unit or a leader.
fn piece_on_map(c: &CounterState) -> bool {
    c.removed.is_none()
        && !matches!(c.position, Position::OffMap(_))
        && matches!(c.kind, CounterKind::Unit | CounterKind::Leader)
}

/// Where each side's pieces stand, for contact: hex or area → sides there.
pub(super) struct Contact {
    at: BTreeMap<String, BTreeSet<String>>,
}

impl Contact {
    pub(super) fn of(state: &GameState) -> Contact {
        let mut at: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for c in state.counters.values().filter(|c| piece_on_map(c)) {
            if let Some(place) = place_key(&c.position) {
                at.entry(place).or_default().insert(c.side.clone());
            }
        }
        Contact { at }
    }

    /// Whether a piece of `side` at `position` is in contact with another side's: in the same
    /// hex or area, or in a hex next to it.
    fn touches(&self, side: &str, position: &Position) -> bool {
        let enemy_at = |key: &str| {
            self.at
                .get(key)
                .is_some_and(|sides| sides.iter().any(|s| s != side))
        };
        let Some(key) = place_key(position) else {
            return false;
        };
        if enemy_at(&key) {
            return true;
        }
        match position {
            Position::Hex(h) => super::super::visibility::hex_neighbours(h)
                .is_some_and(|n| n.iter().any(|x| enemy_at(&format!("hex:{x}")))),
            _ => false,
        }
    }

    /// Whether any of the counters is in contact with an enemy.
    pub(super) fn any(&self, state: &GameState, ids: &[&str]) -> bool {
        ids.iter().any(|id| {
            state
                .counters
                .get(*id)
                .is_some_and(|c| piece_on_map(c) && self.touches(&c.side, &c.position))
        })
    }

    /// Whether any two sides' pieces are in contact anywhere.
    pub(super) fn anywhere(&self, state: &GameState) -> bool {
        state
            .counters
            .values()
            .any(|c| piece_on_map(c) && self.touches(&c.side, &c.position))
    }
}

/// A place as a key for contact: hexes by id (leading zeros kept), areas by name.
fn place_key(p: &Position) -> Option<String> {
    match p {
        Position::Hex(h) => Some(format!(
            "hex:{}",
            super::super::hex::HexId::parse_any(h).map_or_else(|| h.clone(), |x| x.id())
        )),
        Position::Area(a) => Some(format!("area:{}", a.trim().to_lowercase())),
        Position::Free { .. } | Position::OffMap(_) => None,
    }
}

/// A Force on the map: its id, its side, its counters on the map (ids).
#[derive(Debug, Clone)]
pub(super) struct ForceHere {
    pub id: String,
    pub side: String,
    pub counters: Vec<String>,
}

/// The Forces with a piece on the map, in the scenario's order of sides, then by id.
pub(super) fn forces_on_map(scenario: &Scenario, state: &GameState) -> Vec<ForceHere> {
    let mut by_id: BTreeMap<String, ForceHere> = BTreeMap::new();
    for c in state.counters.values().filter(|c| piece_on_map(c)) {
        let Some(f) = &c.force else { continue };
        by_id
            .entry(f.clone())
            .or_insert_with(|| ForceHere {
                id: f.clone(),
                side: c.side.clone(),
                counters: Vec::new(),
            })
            .counters
            .push(c.id.clone());
    }
    let side_index = |s: &str| {
        scenario
            .sides
            .iter()
            .position(|x| x.id == s)
            .unwrap_or(usize::MAX)
    };
    let mut out: Vec<ForceHere> = by_id.into_values().collect();
    out.sort_by(|a, b| {
        side_index(&a.side)
            .cmp(&side_index(&b.side))
            .then(a.id.cmp(&b.id))
    });
    out
}

/// A Force's Order: its leader's `order` attribute (the Primo Capitano's when it has several).
pub(super) fn force_order(state: &GameState, force: &ForceHere) -> Option<String> {
    let leaders = force
        .counters
        .iter()
        .filter_map(|id| state.counters.get(id))
        .filter(|c| c.kind == CounterKind::Leader);
    let mut first = None;
    for c in leaders {
        let Some(Value::Text(order)) = c.attributes.get("order") else {
            continue;
        };
        let primo =
            matches!(c.attributes.get("role"), Some(Value::Text(r)) if r == "primo_capitano");
        if primo {
            return Some(order.clone());
        }
        first.get_or_insert_with(|| order.clone());
    }
    first
}

/// What a condition is judged on: the game at a turn, and for a Force's item, the Force.
pub(super) struct Judge<'a> {
    pub ruleset: &'a crate::rules::Ruleset,
    pub scenario: &'a Scenario,
    pub state: &'a GameState,
    pub turn: u32,
    pub contact: &'a Contact,
}

impl Judge<'_> {
    /// Whether every clause holds (for the game, or for `force`).
    pub(super) fn holds(&self, c: &StepCondition, force: Option<&ForceHere>) -> bool {
        let schedule = c.schedule.as_ref().is_none_or(|p| {
            self.scenario
                .schedules
                .iter()
                .any(|s| s.procedure.as_deref() == Some(p.as_str()) && s.turns.contains(&self.turn))
        });
        let optional = c
            .optional
            .as_ref()
            .is_none_or(|o| self.state.optional_rules.contains(o));
        let contact = c.contact.is_none_or(|want| {
            let have = match force {
                Some(f) => {
                    let ids: Vec<&str> = f.counters.iter().map(String::as_str).collect();
                    self.contact.any(self.state, &ids)
                }
                None => self.contact.anywhere(self.state),
            };
            have == want
        });
        let status = c.status.as_ref().is_none_or(|st| {
            let mut pieces: Box<dyn Iterator<Item = &CounterState>> = match force {
                Some(f) => Box::new(
                    f.counters
                        .iter()
                        .filter_map(|id| self.state.counters.get(id)),
                ),
                None => Box::new(self.state.counters.values().filter(|c| piece_on_map(c))),
            };
            pieces.any(|p| p.statuses.contains(st))
        });
        let resolved = c.resolved.as_ref().is_none_or(|r| {
            self.times_resolved(&r.procedures, force, r.marked.as_deref()) >= r.times
        });
        let orders = c.orders.is_empty()
            || force
                .and_then(|f| force_order(self.state, f))
                .is_some_and(|o| c.orders.iter().any(|x| x.eq_ignore_ascii_case(&o)));
        let ruling = c
            .ruling
            .iter()
            .all(|(id, option)| self.ruleset.ruling(id) == Some(option.as_str()));
        schedule && optional && contact && status && resolved && orders && ruling
    }

    /// How many resolutions of these procedures stand this turn (with the Force involved; with
    /// `marked`, only those whose applied result put that status on the Force).
    pub(super) fn times_resolved(
        &self,
        procedures: &[String],
        force: Option<&ForceHere>,
        marked: Option<&str>,
    ) -> u32 {
        let n = self
            .state
            .resolved
            .iter()
            .filter(|(at, p, seq)| {
                at.turn == self.turn
                    && procedures.contains(p)
                    && force.is_none_or(|f| match marked {
                        Some(st) => self.marks(*seq, f, st),
                        None => self.involves(*seq, f),
                    })
            })
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// Whether applying the resolution `seq` put status `status` on a counter of the Force.
    pub(super) fn marks(&self, seq: u64, force: &ForceHere, status: &str) -> bool {
        self.state.marked.get(&seq).is_some_and(|m| {
            m.iter()
                .any(|(id, st)| st == status && force.counters.contains(id))
        })
    }

    /// Whether the resolution `seq` involved a counter of the Force.
    pub(super) fn involves(&self, seq: u64, force: &ForceHere) -> bool {
        self.state.involved.get(&seq).is_some_and(|roles| {
            roles
                .values()
                .flatten()
                .any(|id| force.counters.contains(id))
        })
    }
}
