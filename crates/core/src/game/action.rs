//! What the umpire asks for ([`Action`]). Who asks ([`super::gate::Actor`]: who acts, on what
//! remit, and why) travels with every action — nothing about the actor is kept in the game
//! between actions.

use std::collections::BTreeMap;

use super::event::{Audience, ClockAction, CounterChange, Cursor};
use super::names::CounterId;
use super::scenario::Position;

/// What the umpire asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Move a counter (or place a reinforcement).
    Move {
        /// Counter id.
        counter: CounterId,
        /// Where to.
        to: Position,
    },
    /// Move a stack or a Force as one: every counter named goes to the same place, in one
    /// journal entry (one undo).
    MoveStack {
        /// Counter ids.
        counters: Vec<CounterId>,
        /// Where to.
        to: Position,
    },
    /// A change the umpire makes by hand at the table (a strength, a status marker, an
    /// order, a ledger value, a counter taken off), with a note for the journal.
    Edit {
        /// Counter id.
        counter: CounterId,
        /// What changes.
        edit: Edit,
        /// Why, in the umpire's words (optional).
        note: Option<String>,
    },
    /// Put a new counter on the table (an army raised, a Fort built, a marker), with a note.
    AddCounter {
        /// Its name (unique in the game).
        name: String,
        /// Its side (id).
        side: String,
        /// Unit, leader or marker.
        kind: super::scenario::CounterKind,
        /// Where.
        at: Position,
        /// Attributes, NAME → VALUE as typed.
        attributes: Vec<(String, String)>,
        /// The Force it joins: an existing Force's id, or a new Force's name (the organiser
        /// naming Forces at set-up).
        force: Option<String>,
        /// Why (optional).
        note: Option<String>,
    },
    /// Put a new counter on the table together with other changes, as one entry (an army
    /// raised and paid for from its state's treasury: `megagame::raise`).
    AddWith {
        /// The new counter: an [`Action::AddCounter`].
        add: Box<Action>,
        /// The other changes made with it (existing counters only).
        changes: Vec<CounterChange>,
    },
    /// Take a counter off the table.
    Remove {
        /// Counter id.
        counter: CounterId,
        /// Why.
        reason: String,
    },
    /// Set an attribute (strength, a rating the text does not print…).
    SetAttribute {
        /// Counter id.
        counter: CounterId,
        /// Attribute.
        attribute: String,
        /// New value, as typed.
        value: String,
        /// The value the umpire saw: the set is refused when another desk has changed it since.
        seen: Seen,
    },
    /// Give the values printed on the counters that the text does not give (a Troop Quality,
    /// a Capitano's Initiative) to every counter that matches, as one entry: what the
    /// organiser's `counter_values:` does at set-up, given later. A value already known stays.
    SetAll {
        /// The name the counters print ("French Gendarmes"), any case.
        name: Option<String>,
        /// Attributes they have, NAME → VALUE as typed (`unit_type=heavy_cavalry`).
        with: Vec<(String, String)>,
        /// The values, NAME → VALUE as typed (`troop_quality=3`).
        values: Vec<(String, String)>,
    },
    /// Set or clear a status marker.
    SetStatus {
        /// Counter id.
        counter: CounterId,
        /// Status.
        status: String,
        /// Set or clear.
        on: bool,
    },
    /// Resolve a procedure.
    Resolve {
        /// Procedure id.
        procedure: String,
        /// Inputs, NAME → VALUE as typed.
        inputs: Vec<(String, String)>,
        /// Physical dice (faces as typed); app dice when None.
        physical: Option<Vec<String>>,
        /// The result read off the physical chart, for a cell the text does not give.
        chart_result: Option<String>,
        /// The umpire confirms `chart_result` is what their chart prints, though the text does
        /// not name it among the chart's codes (recorded with the result).
        chart_confirmed: bool,
        /// Counters involved, by role.
        counters: BTreeMap<String, Vec<CounterId>>,
        /// The Sequence of Play's item it answers (its key, number or label as `status` shows
        /// it): whose scheduled roll, which Force's activation. None: the one item of the step
        /// it can answer, if there is one.
        item: Option<String>,
    },
    /// Several counter changes as one entry, with the reason (the reveals of an Intelligence
    /// step, a Force regrouped).
    Change {
        /// The changes, in order.
        changes: Vec<CounterChange>,
        /// Why, for the journal (the rule it follows).
        reason: String,
    },
    /// Apply (confirmed) changes for the effects of a resolution.
    ApplyEffects {
        /// The Resolved event.
        of: u64,
        /// The changes the umpire confirmed or chose.
        changes: Vec<CounterChange>,
    },
    /// Replace a result, with a reason.
    Override {
        /// The Resolved event.
        of: u64,
        /// The outcome that stands.
        outcome: String,
        /// Why.
        reason: String,
    },
    /// Advance the Sequence of Play (refused while mandatory items are pending).
    Next,
    /// Step back.
    Back,
    /// Go to a step the current one offers: a branch (a Major Battle, a Skirmish), or an
    /// earlier step to repeat ("Then a new round from Step 6-a"). By its id or its name.
    Enter {
        /// The step, by id or name as printed.
        step: String,
    },
    /// Skip a pending item, with a reason.
    Skip {
        /// The item's key (see `status`).
        item: String,
        /// Why.
        reason: String,
    },
    /// Record a pending item that credits an amount (a scenario's scheduled APs added to the
    /// army's AP marker), as one entry that marks the item done.
    Credit {
        /// The item's key (see `status`).
        item: String,
    },
    /// A note.
    Note {
        /// Text.
        text: String,
    },
    /// Change a whole-number attribute by a delta, with a reason (an umpire's direct
    /// adjustment of a ledger: a treasury, an Unrest Index, Arrears). Deltas commute.
    Adjust {
        /// Counter id.
        counter: CounterId,
        /// Attribute (a whole number).
        attribute: String,
        /// The delta.
        by: i64,
        /// Why, for the journal.
        reason: String,
    },
    /// Move an amount of a whole-number attribute (florins) from one counter to another, as
    /// one event: two adjustments that stand or fall together.
    Transfer {
        /// Paying counter (a state's ledger).
        from: CounterId,
        /// Receiving counter.
        to: CounterId,
        /// Attribute (e.g. treasury).
        attribute: String,
        /// How much (positive).
        amount: i64,
        /// Why, for the journal.
        reason: String,
    },
    /// Undo the last effective action.
    Undo,
    /// Redo the last undone action.
    Redo,
    /// Work the real-time phase clock (megagames; see `megagame::clock`).
    Clock(ClockAction),
    /// Move the Sequence of Play forward to a phase's first step because the phase clock says
    /// so. Nothing is written when the Sequence of Play is already there or beyond, so two desks
    /// ticking at once step once.
    ClockStep {
        /// Where the clock's phase begins.
        to: Cursor,
    },
    /// Reveal the app dice's seed (usually at the end of the game): players can then check
    /// every app roll against the commitment shown from the start. App dice are refused after.
    RevealSeed,
    /// Work a deck of cards or a cup of markers.
    Deck {
        /// The deck's id (or name).
        deck: String,
        /// The side whose own deck it is, for decks each side keeps.
        owner: Option<String>,
        /// What to do.
        op: DeckOp,
        /// Why, if said.
        reason: Option<String>,
    },
    /// Record a fact the victory conditions read: who holds a place (14.1–14.3), a battle won,
    /// Victory Points. A fact that ends the game (sudden death) records the end with it.
    Victory(super::event::VictoryFact),
    /// A record Control keeps: a chart's order, a register's entry or Control's ruling on
    /// it, a vote's tally, a bank's access for the turn.
    Record(super::records::RecordFact),
    /// End the game now with the result the conditions give (the End of Game marker passed, a
    /// side declares a victory it may declare), with the umpire's reason.
    EndGame {
        /// The victory item a side declares (its id or title), when it is one it may declare.
        declare: Option<String>,
        /// Why the game ends now.
        reason: String,
    },
    /// Hand in a side's written orders sealed: only the commitment enters the journal
    /// (`game::sealed`; [`super::Game::seal_orders`] makes it and keeps the orders apart).
    SealOrders {
        /// The kind of order (the ruleset's `orders:` id).
        order: String,
        /// The side (or team).
        side: String,
        /// The commitment to the orders.
        commitment: String,
        /// How they came in, for the journal.
        via: Option<String>,
    },
    /// Reveal sealed orders, as the step says ([`super::Game::reveal_orders`] reads what was
    /// kept): refused unless they match the commitment of the entry that sealed them.
    RevealOrders {
        /// The entry that sealed them.
        sealed: u64,
        /// The salt.
        salt: String,
        /// The orders.
        orders: super::sealed::payload::Orders,
    },
    /// Make an announcement to an audience.
    Announce {
        /// Who hears it.
        audience: Audience,
        /// The team, for a team announcement.
        team: Option<String>,
        /// What is announced.
        text: String,
    },
    /// Record a table transcribed from the umpire's chart sheet: it is in force from this
    /// entry on (`game::transcribed`).
    Transcribe {
        /// The table's id.
        table: String,
        /// The table file's text.
        content: String,
    },
}

/// What is done to a deck or cup.
#[derive(Debug, Clone, PartialEq)]
pub enum DeckOp {
    /// Say what is in it (names and counts), replacing what it held.
    Fill {
        /// (name, count) pairs.
        items: Vec<(String, u32)>,
    },
    /// Draw: by the app (`typed` empty: `count` draws from the seed) or the physical ones
    /// typed in.
    Draw {
        /// How many, for app draws.
        count: u32,
        /// The names drawn by hand.
        typed: Vec<String>,
        /// The side that drew (into a hand), if said.
        side: Option<String>,
    },
    /// Put everything drawn back in.
    Refill,
    /// Put some drawn ones back in.
    Return {
        /// Their names.
        items: Vec<String>,
    },
    /// Take out of play for good.
    Remove {
        /// Their names.
        items: Vec<String>,
    },
    /// Put new ones in.
    Add {
        /// Their names.
        items: Vec<String>,
    },
}

/// What the umpire saw of a value before setting it. Two desks setting one value at once:
/// the second is refused, naming who changed it and when, rather than the last one winning
/// silently (an `adjust` needs no such guard: deltas commute).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Seen {
    /// Set whatever it is now (a script, or the umpire confirming after a refusal).
    #[default]
    Unchecked,
    /// The value shown when the umpire chose the new one (None: it had none).
    Value(Option<crate::rules::Value>),
}

/// A hand change of one counter.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Set an attribute (strength, order, treasury…) to a value, as typed.
    Set {
        /// Attribute.
        attribute: String,
        /// The value, as typed.
        value: String,
        /// The value the umpire saw.
        seen: Seen,
    },
    /// Put a status marker on, or take it off.
    Status {
        /// Status.
        status: String,
        /// On or off.
        on: bool,
    },
    /// Take the counter off the table.
    Remove,
}
