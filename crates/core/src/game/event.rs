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
    /// A counter put on the table that the scenario did not have (an army raised, a Fort
    /// built, a marker the umpire needs), with its name, side, kind, attributes and place.
    Add {
        /// The new counter's id (unique in the game).
        counter: String,
        /// Its name (unique in the game).
        name: String,
        /// Its side.
        side: String,
        /// Unit, leader or marker.
        kind: super::scenario::CounterKind,
        /// Its attributes.
        #[serde(default)]
        attributes: std::collections::BTreeMap<String, Value>,
        /// Where it is put.
        at: Position,
        /// Its army, if the scenario has armies.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        army: Option<String>,
        /// The Force (stack) it joins, new or existing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        force: Option<String>,
    },
    /// A whole-number attribute changed by a delta (a treasury paid into, an Arrears box
    /// marked). Deltas commute: several umpires' adjustments to one ledger give the same total
    /// in any order. A missing attribute counts as 0.
    Adjust {
        /// Counter id.
        counter: String,
        /// Attribute name (a whole-number attribute).
        attribute: String,
        /// The delta (negative to take away).
        by: i64,
    },
}

impl CounterChange {
    /// The counter changed.
    pub fn counter(&self) -> &str {
        match self {
            CounterChange::Attribute { counter, .. }
            | CounterChange::Status { counter, .. }
            | CounterChange::Move { counter, .. }
            | CounterChange::Remove { counter, .. }
            | CounterChange::Add { counter, .. }
            | CounterChange::Adjust { counter, .. } => counter,
        }
    }
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
        /// The commitment to the app dice's secret seed (empty in games begun before
        /// commitments existed).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        seed_commitment: String,
        /// The seed itself, only when it is not secret (chosen by the umpire, or a game begun
        /// by an Umpire that printed it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
        /// The optional rules the game plays (their numbers as printed, "18.4").
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        optional_rules: Vec<String>,
        /// The hash of the ruleset's content ([`super::verify::ruleset_hash`]): a verifier holds
        /// the ruleset it is given to the one the game began with. None in games begun before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ruleset_hash: Option<String>,
        /// The hash of the scenario's text ([`super::verify::scenario_hash`]). None in games
        /// begun before.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scenario_hash: Option<String>,
    },
    /// The umpire revealed the app dice's seed and the salt of its commitment: every app roll
    /// can now be checked by anyone; app dice are refused after it.
    SeedRevealed {
        /// The seed.
        seed: u64,
        /// The salt of the commitment.
        salt: String,
    },
    /// One or more counter changes made by the umpire directly.
    Changed {
        /// The changes, in order.
        changes: Vec<CounterChange>,
        /// Why, if said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// The pending item these changes carry out (a scheduled amount credited), by key.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
    },
    /// A procedure resolved (dice with their provenance inside).
    Resolved {
        /// The resolution, complete with explanation.
        resolution: Box<Resolution>,
        /// Counters involved, by role (attacker, defender…).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        counters: BTreeMap<String, Vec<String>>,
        /// The Sequence of Play's item it answers, by key (a side's scheduled roll, a Force's
        /// activation): named by the umpire, or the only one it can answer. None in entries
        /// made before items were recorded, and for a procedure no item asks for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
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
    /// The umpire worked the real-time phase clock (megagames); the event's `at` is when.
    Clock {
        /// What was done.
        action: ClockAction,
    },
    /// A deck of cards or a cup of markers changed: filled, drawn from, refilled, cards
    /// returned, removed or added. It carries the deck before and after, so the state is the
    /// last entry's `after` and every app draw can be re-derived from the seed and `before`.
    Deck {
        /// The deck's id in the ruleset.
        deck: String,
        /// The side whose own deck it is (decks each side keeps).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        owner: Option<String>,
        /// What was done.
        change: super::deck::DeckChange,
        /// The deck before.
        before: super::deck::DeckState,
        /// The deck after.
        after: super::deck::DeckState,
        /// Why, if said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// An announcement made to an audience (megagames: Game Control's major events, Phase 4
    /// marriages and births, Phase 6 summaries; L204, L218, L220).
    Announced {
        /// Who hears it.
        audience: Audience,
        /// The team, when the audience is one team.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        team: Option<String>,
        /// What was announced.
        text: String,
    },
    /// A fact the scenario's victory conditions read (a place's control, a battle won, Victory
    /// Points), or the end of the game with its result.
    Victory {
        /// What.
        fact: VictoryFact,
    },
    /// A record Control keeps (a chart's order, a register's entry or ruling, a vote, a
    /// bank's access): `game::records`.
    Record {
        /// What.
        fact: super::records::RecordFact,
    },
    /// A side handed in its written orders, sealed: only the commitment is recorded, the orders
    /// are kept apart until the step reveals them (`game::sealed`). Every side sees that they
    /// were sealed, and when.
    OrdersSealed {
        /// The kind of order (the ruleset's `orders:` id).
        order: String,
        /// The side (or team) whose orders they are.
        side: String,
        /// SHA-256 over the salt and the orders (the sealed orders' `commitment`).
        commitment: String,
        /// How they came in ("from the French phone", "entered from paper").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        via: Option<String>,
    },
    /// Sealed orders revealed as the step says: the orders and the salt, which anyone can hold
    /// to the commitment of the entry that sealed them.
    OrdersRevealed {
        /// The entry that sealed them.
        sealed: u64,
        /// The kind of order (as the sealing entry says).
        order: String,
        /// The side (as the sealing entry says).
        side: String,
        /// The salt of the commitment.
        salt: String,
        /// The orders.
        orders: super::sealed::payload::Orders,
        /// To whom the reveal shows them (from the ruleset's `reveal:` rules at the step).
        shown: super::sealed::payload::Shown,
    },
    /// A table transcribed from the umpire's own chart sheet, in force from this entry on
    /// (`game::transcribed`). The journal keeps the table file's text, so the game carries it:
    /// a verifier without the umpire's transcription folder reads the game with it. It keeps the
    /// text it replaced too, so the ruleset the game began with can be rebuilt and held to the
    /// commitment of its start.
    Transcribed {
        /// The ruleset's id.
        ruleset: String,
        /// The table's id.
        table: String,
        /// The table file as transcribed.
        content: String,
        /// The table file it replaced (the shipped one, or an earlier transcription).
        before: String,
        /// Cells it fills that the table left missing.
        filled: usize,
        /// Cells it changes that the table gave.
        changed: usize,
        /// The ruleset's content after it ([`crate::rules::Ruleset::content`]).
        hash: String,
    },
}

/// A fact of victory (`game::victory` reads them; the state folds them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum VictoryFact {
    /// Who holds a place (ailsh 14.1–14.3): owned, or Conquered (a Conquered marker).
    Control {
        /// The place's name as the map prints it.
        place: String,
        /// The side that holds it now (None: no one, the marker removed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<String>,
        /// Held by a Conquered marker (14.2–14.3) rather than by alignment.
        #[serde(default)]
        conquered: bool,
        /// Why (the rule, the move).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A battle won by a side.
    BattleWon {
        /// The winning side.
        side: String,
        /// Its kind (`major_battle`).
        battle: String,
        /// Why, if said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A battle fought to no winner (a Major Battle's draw: "both are losers", Step 11-a).
    BattleDrawn {
        /// Its kind (`major_battle`).
        battle: String,
        /// Why, if said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// What a place is where the text does not say (a Town or a City, read off the map): the
    /// umpire's entry, which the victory conditions read from then on.
    PlaceKind {
        /// The place's name as the map prints it.
        place: String,
        /// What it is.
        kind: crate::rules::PlaceKind,
        /// Why (the map, the organiser's sheet).
        reason: String,
    },
    /// The umpire's judgement of a victory condition the counters cannot show ("no French
    /// Force occupies a Fortress east of the Adda"), with the reason.
    Judged {
        /// The victory item (its id).
        item: String,
        /// The side it was judged for, when the item is judged for each side.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<String>,
        /// Whether it holds.
        holds: bool,
        /// Why.
        reason: String,
    },
    /// Victory Points gained (or lost) by a side.
    Points {
        /// The side.
        side: String,
        /// How many (negative to take away).
        points: i64,
        /// Why.
        reason: String,
    },
    /// The game ended, with its result.
    Ended {
        /// The result and how it was reached.
        result: VictoryResult,
    },
}

/// A game's result: who won, at what level, by which condition, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VictoryResult {
    /// The winning side's id (None: a draw or no result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// The victory item that decided it (its id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// The level as printed ("Standard Victory"), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The result in one sentence, with its rule ("The Swiss win: a Major Battle won by the
    /// Swiss (Scenario 2 … › Victory Conditions)").
    pub sentence: String,
    /// How it was reached, one line each.
    #[serde(default)]
    pub reasons: Vec<String>,
}

/// What the umpire does to the phase clock. Each is journaled with its wall-clock time, so the
/// clock can be folded again after a crash or on another desk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClockAction {
    /// Start (or restart) the clock at a turn and phase (a Sequence-of-Play step id), with the
    /// phase's full time.
    Start {
        /// Game turn.
        turn: u32,
        /// The phase's step id.
        phase: String,
    },
    /// Stop the countdown.
    Hold,
    /// Let it run again.
    Resume,
    /// End the current phase now and start the next.
    Advance,
    /// Set the time left in the current phase.
    SetRemaining {
        /// Seconds left.
        seconds: u32,
    },
}

impl ClockAction {
    /// A short name ("start", "hold"…).
    pub fn name(&self) -> &'static str {
        match self {
            ClockAction::Start { .. } => "start",
            ClockAction::Hold => "hold",
            ClockAction::Resume => "resume",
            ClockAction::Advance => "advance",
            ClockAction::SetRemaining { .. } => "set_remaining",
        }
    }

    /// In words: "start at turn 1, phase_1", "hold", "set to 01:30 left"….
    pub fn describe(&self) -> String {
        match self {
            ClockAction::Start { turn, phase } => format!("start at turn {turn}, {phase}"),
            ClockAction::SetRemaining { seconds } => {
                format!("set to {:02}:{:02} left", seconds / 60, seconds % 60)
            }
            ClockAction::Advance => "advance to the next phase".to_string(),
            other => other.name().to_string(),
        }
    }
}

/// Who hears an announcement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    /// Everyone: read out and printed on the public sheet.
    Public,
    /// One team only.
    Team,
    /// Control only.
    Control,
}

impl std::str::FromStr for Audience {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "public" => Ok(Audience::Public),
            "team" => Ok(Audience::Team),
            "control" => Ok(Audience::Control),
            other => Err(format!(
                "'{other}' is not an audience — public, team or control"
            )),
        }
    }
}

impl std::fmt::Display for Audience {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Audience::Public => "public",
            Audience::Team => "team",
            Audience::Control => "control",
        })
    }
}

impl EventKind {
    /// The counters an entry names: those it changes, those a resolution involved.
    pub fn counters(&self) -> Vec<&str> {
        match self {
            EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
                changes.iter().map(CounterChange::counter).collect()
            }
            EventKind::Resolved { counters, .. } => {
                counters.values().flatten().map(String::as_str).collect()
            }
            _ => Vec::new(),
        }
    }

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
            EventKind::Clock { .. } => "clock",
            EventKind::Announced { .. } => "announced",
            EventKind::OrdersSealed { .. } => "orders_sealed",
            EventKind::OrdersRevealed { .. } => "orders_revealed",
            EventKind::Transcribed { .. } => "transcribed",
            EventKind::Deck { .. } => "deck",
            EventKind::SeedRevealed { .. } => "seed_revealed",
            EventKind::Victory { .. } => "victory",
            EventKind::Record { .. } => "record",
        }
    }

    /// Whether undo may take this event back (start, undo and redo themselves are not actions).
    pub fn is_undoable(&self) -> bool {
        !matches!(
            self,
            EventKind::GameStarted { .. }
                | EventKind::Undone { .. }
                | EventKind::Redone { .. }
                | EventKind::Clock { .. }
                | EventKind::SeedRevealed { .. }
                | EventKind::OrdersSealed { .. }
                | EventKind::OrdersRevealed { .. }
                | EventKind::Transcribed { .. }
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

/// The words that carry, in a change's reason and the note after it, the umpire's word for
/// taking a ledger past its floor ("… below 0, at the umpire's word: WHY"). Journals hold
/// them as written: they are part of the journal's format (the audit reads the reason back).
pub(crate) const UMPIRES_WORD: &str = "at the umpire's word: ";
