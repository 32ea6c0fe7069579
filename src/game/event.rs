//! Journal events: facts, in order. The game state is a fold over them; undo is itself an event.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::scenario::Position;
use crate::resolve::{Effect, Resolution};
use crate::rules::Value;

/// Where the game stands in its Sequence of Play.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Cursor {
    /// Game turn, from 1.
    pub turn: u32,
    /// Index of the step among the Sequence of Play's leaf steps.
    pub step: usize,
}

/// A change to one counter, as applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum CounterChange {
    /// An attribute set to a new value (strength, status…).
    Attribute {
        /// Counter id.
        counter: String,
        /// Attribute name.
        attribute: String,
        /// The value before.
        from: Option<Value>,
        /// The value after.
        to: Value,
    },
    /// A status marker set or cleared (disordered, demoralised, disrupted, hidden…).
    Status {
        /// Counter id.
        counter: String,
        /// The status.
        status: String,
        /// Set (true) or cleared (false).
        on: bool,
    },
    /// Moved.
    Move {
        /// Counter id.
        counter: String,
        /// Where it was.
        from: Option<Position>,
        /// Where it is now.
        to: Position,
    },
    /// Taken off the table (eliminated, captured, withdrawn).
    Remove {
        /// Counter id.
        counter: String,
        /// Why.
        reason: String,
    },
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// The game began (always event 1).
    GameStarted {
        /// Ruleset id.
        ruleset: String,
        /// Scenario id.
        scenario: String,
        /// Seed of the app dice.
        seed: u64,
    },
    /// One or more counter changes made by the umpire directly.
    Changed {
        /// The changes, in order.
        changes: Vec<CounterChange>,
        /// Why, if said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A procedure resolved (dice with their provenance inside).
    Resolved {
        /// The resolution, complete with explanation.
        resolution: Box<Resolution>,
        /// Counters involved, by role (attacker, defender…).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        counters: BTreeMap<String, Vec<String>>,
    },
    /// The umpire confirmed the effects of a resolution, choosing where the rules leave a choice.
    EffectsApplied {
        /// The Resolved event.
        of: u64,
        /// The changes made.
        changes: Vec<CounterChange>,
    },
    /// The umpire replaced a result, with a reason.
    Overridden {
        /// The Resolved event.
        of: u64,
        /// The outcome code that stands now.
        outcome: String,
        /// Its effects.
        #[serde(default)]
        effects: Vec<Effect>,
        /// Why.
        reason: String,
    },
    /// The Sequence of Play moved (Next or Back).
    Stepped {
        /// From.
        from: Cursor,
        /// To.
        to: Cursor,
    },
    /// A pending item was skipped on purpose.
    Skipped {
        /// The item's key.
        item: String,
        /// Why.
        reason: String,
    },
    /// A note.
    Note {
        /// Text.
        text: String,
    },
    /// An earlier event undone: it stays in the journal, marked undone.
    Undone {
        /// The event.
        event: u64,
    },
    /// An undone event brought back.
    Redone {
        /// The event.
        event: u64,
    },
}

impl EventKind {
    /// A short name, as stored in the journal's `kind` column.
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::GameStarted { .. } => "game_started",
            EventKind::Changed { .. } => "changed",
            EventKind::Resolved { .. } => "resolved",
            EventKind::EffectsApplied { .. } => "effects_applied",
            EventKind::Overridden { .. } => "overridden",
            EventKind::Stepped { .. } => "stepped",
            EventKind::Skipped { .. } => "skipped",
            EventKind::Note { .. } => "note",
            EventKind::Undone { .. } => "undone",
            EventKind::Redone { .. } => "redone",
        }
    }

    /// Whether undo may take this event back (start, undo and redo themselves are not actions).
    pub fn is_undoable(&self) -> bool {
        !matches!(
            self,
            EventKind::GameStarted { .. } | EventKind::Undone { .. } | EventKind::Redone { .. }
        )
    }
}

/// One journal entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Place in the journal, from 1.
    pub seq: u64,
    /// When it was recorded.
    pub at: DateTime<Utc>,
    /// Who made it, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// Where the game stood.
    pub cursor: Cursor,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}
