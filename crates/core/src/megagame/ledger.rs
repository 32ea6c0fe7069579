//! Per-state ledgers of a megagame, read from a game: each state's ledger counter (treasury,
//! national debt, unrest, cards, religion), the armies, fleets, cities, areas and characters that
//! belong to it, and the full history of its treasury and debt from the journal — every
//! adjustment, transfer and applied effect, with its event, turn, step and reason.
//!
//! Ledgers live in the journal as counter attributes (the ledger counter is an off-map counter
//! of kind `state`), so undo, redo, verify and export work on them like on any counter.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::people::{CounterClass, People};
use crate::game::event::{CounterChange, EventKind};
use crate::game::state::{CounterState, GameState};
use crate::game::{Event, Game};
use crate::rules::Value;

/// The treasury attribute (florins, L505, L545).
pub const TREASURY: &str = "treasury";
/// The national debt attribute (the sum of loans, L516).
pub const DEBT: &str = "national_debt";
/// The attributes whose history a ledger shows.
pub const HISTORY_ATTRIBUTES: [&str; 2] = [TREASURY, DEBT];

/// One line of a ledger's history.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LedgerEntry {
    /// The journal event.
    pub seq: u64,
    /// Game turn.
    pub turn: u32,
    /// Sequence-of-Play step index.
    pub step: usize,
    /// The step, in words ("Turn › Phase 1 › Play revenue cards").
    pub phase: String,
    /// The attribute (treasury, national_debt).
    pub attribute: String,
    /// The change (for a value set outright: the new value less the old).
    pub delta: i64,
    /// The value after, when known (None while the starting value is unknown).
    pub balance: Option<i64>,
    /// Set outright rather than adjusted.
    pub set: bool,
    /// Why: the reason given, or the procedure and outcome whose effects were applied.
    pub reason: String,
    /// The procedure, when the change is a result's effect.
    pub procedure: Option<String>,
    /// Who made it.
    pub by: Option<String>,
}

/// A counter belonging to a state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LedgerItem {
    /// Counter id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Army, fleet, city, area, character…
    pub class: CounterClass,
    /// Map table it works at.
    pub table: Option<String>,
    /// Where it is.
    pub position: String,
    /// Attributes.
    pub attributes: BTreeMap<String, Value>,
    /// Attributes not known yet.
    pub unknown: Vec<String>,
    /// Status markers.
    pub statuses: BTreeSet<String>,
    /// Why it left the table, if it did.
    pub removed: Option<String>,
}

/// One state's ledger.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateLedger {
    /// State id.
    pub state: String,
    /// Name.
    pub name: String,
    /// The ledger counter.
    pub counter: String,
    /// Teams it belongs to.
    pub teams: Vec<String>,
    /// Map table of its revenue (L522–525).
    pub table: Option<String>,
    /// Played or not.
    pub played: bool,
    /// The ledger's values (treasury, national_debt, unrest_index…).
    pub values: BTreeMap<String, Value>,
    /// Ledger values the text does not give and Control has not set.
    pub unknown: Vec<String>,
    /// Status markers on the ledger.
    pub statuses: BTreeSet<String>,
    /// Armies.
    pub armies: Vec<LedgerItem>,
    /// Fleets.
    pub fleets: Vec<LedgerItem>,
    /// Cities.
    pub cities: Vec<LedgerItem>,
    /// Areas.
    pub areas: Vec<LedgerItem>,
    /// Characters.
    pub characters: Vec<LedgerItem>,
    /// The history of treasury and debt, oldest first.
    pub history: Vec<LedgerEntry>,
}

impl StateLedger {
    /// A ledger value as a number.
    pub fn int(&self, attribute: &str) -> Option<i64> {
        match self.values.get(attribute) {
            Some(Value::Int(v)) => Some(*v),
            _ => None,
        }
    }

    /// The treasury (florins), when known.
    pub fn treasury(&self) -> Option<i64> {
        self.int(TREASURY)
    }

    /// The history of one attribute.
    pub fn history_of<'a>(&'a self, attribute: &'a str) -> impl Iterator<Item = &'a LedgerEntry> {
        self.history
            .iter()
            .filter(move |e| e.attribute == attribute)
    }
}

/// Which ledgers to show.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LedgerFilter {
    /// Only states whose revenue is played at this table, or with a counter at it.
    pub table: Option<String>,
    /// Only the states of this team.
    pub team: Option<String>,
    /// Only this state (id or ledger counter id).
    pub state: Option<String>,
}

/// Fills a ledger's armies, fleets, cities, areas and characters from `state`: the counters that
/// belong to its state there (a character through its state links).
pub fn fill_items(l: &mut StateLedger, state: &GameState, people: &People) {
    for list in [
        &mut l.armies,
        &mut l.fleets,
        &mut l.cities,
        &mut l.areas,
        &mut l.characters,
    ] {
        list.clear();
    }
    for c in state.counters.values() {
        if c.id == l.counter {
            continue;
        }
        let class = people.class_of(&c.id).unwrap_or(CounterClass::Other);
        let belongs = if class == CounterClass::Character {
            people.states_of_character(&c.id).contains(&l.state)
        } else {
            people.state_of(&c.id) == Some(l.state.as_str())
        };
        if !belongs {
            continue;
        }
        let list = match class {
            CounterClass::Army => &mut l.armies,
            CounterClass::Fleet => &mut l.fleets,
            CounterClass::City => &mut l.cities,
            CounterClass::Area => &mut l.areas,
            CounterClass::Character => &mut l.characters,
            CounterClass::Ledger | CounterClass::Other => continue,
        };
        list.push(item(c, people));
    }
}

/// A counter as a ledger line.
pub fn item(c: &CounterState, people: &People) -> LedgerItem {
    LedgerItem {
        id: c.id.clone(),
        name: c.name.clone(),
        class: people.class_of(&c.id).unwrap_or(CounterClass::Other),
        table: people.table_of(&c.id).map(str::to_string),
        position: c.position.to_string(),
        attributes: c.attributes.clone(),
        unknown: c.unknown.clone(),
        statuses: c.statuses.clone(),
        removed: c.removed.clone(),
    }
}

/// Every state's ledger, in the scenario's order.
pub fn ledgers(game: &Game) -> Vec<StateLedger> {
    ledgers_filtered(game, &LedgerFilter::default())
}

/// One state's ledger (by state id or ledger counter id).
pub fn ledger(game: &Game, state: &str) -> Option<StateLedger> {
    ledgers_filtered(
        game,
        &LedgerFilter {
            state: Some(state.to_string()),
            ..LedgerFilter::default()
        },
    )
    .into_iter()
    .next()
}

/// The ledgers that pass a filter.
pub fn ledgers_filtered(game: &Game, filter: &LedgerFilter) -> Vec<StateLedger> {
    let people = People::of(game);
    let state = game.state();
    let mut out = Vec::new();
    for spec in &people.states {
        if filter
            .state
            .as_ref()
            .is_some_and(|s| *s != spec.id && *s != spec.counter)
        {
            continue;
        }
        if filter
            .team
            .as_ref()
            .is_some_and(|t| !spec.teams.contains(t))
        {
            continue;
        }
        let Some(ledger) = state.counters.get(&spec.counter) else {
            continue;
        };
        let mut l = StateLedger {
            state: spec.id.clone(),
            name: spec.name.clone(),
            counter: spec.counter.clone(),
            teams: spec.teams.clone(),
            table: spec.table.clone(),
            played: spec.played,
            values: ledger.attributes.clone(),
            unknown: ledger.unknown.clone(),
            statuses: ledger.statuses.clone(),
            armies: Vec::new(),
            fleets: Vec::new(),
            cities: Vec::new(),
            areas: Vec::new(),
            characters: Vec::new(),
            history: history(game, &spec.counter, &HISTORY_ATTRIBUTES),
        };
        fill_items(&mut l, state, &people);
        if let Some(t) = &filter.table {
            let here = l.table.as_deref() == Some(t.as_str())
                || [&l.armies, &l.fleets, &l.cities, &l.areas]
                    .iter()
                    .any(|v| v.iter().any(|i| i.table.as_deref() == Some(t.as_str())));
            if !here {
                continue;
            }
        }
        out.push(l);
    }
    out
}

/// Why an event changed a counter: its reason, or the resolution whose effects it applied.
fn reason_of(game: &Game, e: &Event) -> (String, Option<String>) {
    match &e.kind {
        EventKind::Changed { reason, .. } => (
            reason
                .clone()
                .unwrap_or_else(|| "set by the umpire".to_string()),
            None,
        ),
        EventKind::EffectsApplied { of, .. } => {
            let resolved = game
                .events()
                .get(of.saturating_sub(1) as usize)
                .and_then(|r| match &r.kind {
                    EventKind::Resolved { resolution, .. } => Some(resolution),
                    _ => None,
                });
            match resolved {
                Some(r) => {
                    let name = game
                        .ruleset()
                        .procedure(&r.procedure)
                        .map_or(r.procedure.clone(), |p| p.name.clone());
                    let outcome = game
                        .state()
                        .overrides
                        .get(of)
                        .cloned()
                        .unwrap_or_else(|| r.outcome.label.clone());
                    (
                        format!("{name}: {outcome} (entry {of})"),
                        Some(r.procedure.clone()),
                    )
                }
                None => (format!("effects of entry {of}"), None),
            }
        }
        _ => (String::new(), None),
    }
}

/// The history of some attributes of one counter, from the journal's effective events: each
/// adjustment and each value set outright, with the running balance.
pub fn history(game: &Game, counter: &str, attributes: &[&str]) -> Vec<LedgerEntry> {
    let state = game.state();
    let mut run = HistoryRun::start(game, counter, attributes);
    let mut out = Vec::new();
    for e in game.events() {
        if state.effective.contains(&e.seq) {
            out.extend(run.take(game, e));
        }
    }
    out
}

/// A counter's history read entry by entry, its running balances kept: [`history`] walks the
/// journal with one, and the players' view takes each new entry in with one as it comes (an
/// entry that counts: an undo or a redo changes which earlier ones do, and starts a new run).
#[derive(Debug, Clone)]
pub struct HistoryRun {
    counter: String,
    balance: BTreeMap<String, Option<i64>>,
}

impl HistoryRun {
    /// The balances at the start: the scenario's values (0 where the text gives the attribute
    /// none and does not call it unknown).
    pub fn start(game: &Game, counter: &str, attributes: &[&str]) -> HistoryRun {
        let start = game.scenario().all_counters().find(|c| c.id == counter);
        let balance = attributes
            .iter()
            .map(|a| {
                let known = start.is_some_and(|c| !c.unknown.iter().any(|u| u == a));
                let v = match start.and_then(|c| c.attributes.get(*a)) {
                    Some(Value::Int(v)) => Some(*v),
                    None if known => Some(0),
                    _ => None,
                };
                (a.to_string(), v)
            })
            .collect();
        HistoryRun {
            counter: counter.to_string(),
            balance,
        }
    }

    /// The counter.
    pub fn counter(&self) -> &str {
        &self.counter
    }

    /// The lines one entry (one that counts) adds to the history.
    pub fn take(&mut self, game: &Game, e: &Event) -> Vec<LedgerEntry> {
        let changes = match &e.kind {
            EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
                changes
            }
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        for ch in changes {
            if ch.counter() != self.counter {
                continue;
            }
            let (attribute, delta, set) = match ch {
                CounterChange::Adjust { attribute, by, .. } => (attribute, *by, None),
                CounterChange::Attribute {
                    attribute,
                    from,
                    to: Value::Int(to),
                    ..
                } => {
                    let before = match from {
                        Some(Value::Int(f)) => *f,
                        _ => 0,
                    };
                    (attribute, to - before, Some(*to))
                }
                _ => continue,
            };
            let Some(slot) = self.balance.get_mut(attribute.as_str()) else {
                continue;
            };
            *slot = match set {
                Some(to) => Some(to),
                None => slot.map(|b| b + delta),
            };
            let (reason, procedure) = reason_of(game, e);
            out.push(LedgerEntry {
                seq: e.seq,
                turn: e.cursor.turn,
                step: e.cursor.step,
                phase: game
                    .steps()
                    .get(e.cursor.step)
                    .map(|s| s.path.clone())
                    .unwrap_or_default(),
                attribute: attribute.clone(),
                delta,
                balance: *slot,
                set: set.is_some(),
                reason,
                procedure,
                by: e.by.clone(),
            });
        }
        out
    }
}
