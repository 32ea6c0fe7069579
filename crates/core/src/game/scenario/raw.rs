//! Scenario files as written: serde structs that refuse unknown fields.

use std::collections::BTreeMap;

use serde::Deserialize;

/// A scenario file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawScenario {
    pub id: String,
    pub ruleset: String,
    pub title: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub date: Option<String>,
    pub turns: u32,
    pub calendar: RawCalendar,
    #[serde(default)]
    pub map: Option<String>,
    /// Which unit attributes hold the current and maximum strength of a counter, so that
    /// `sp` + `counters` entries can be split into physical counters.
    #[serde(default)]
    pub strength: Option<RawStrength>,
    /// Attributes the text never gives, listed as unknown on every counter of that kind unless
    /// the entry gives them.
    #[serde(default)]
    pub unknown_defaults: Option<RawUnknownDefaults>,
    pub sides: Vec<RawSide>,
    #[serde(default)]
    pub armies: Vec<RawArmy>,
    #[serde(default)]
    pub first_player: Option<String>,
    #[serde(default)]
    pub forces: Vec<RawForce>,
    #[serde(default)]
    pub reinforcements: Vec<RawReinforcement>,
    #[serde(default)]
    pub conditional_reinforcements: Vec<RawConditional>,
    #[serde(default)]
    pub schedules: Vec<RawSchedule>,
    #[serde(default)]
    pub supply_sources: Vec<RawSupply>,
    #[serde(default)]
    pub regions: Vec<RawRegion>,
    #[serde(default)]
    pub holdings: Vec<RawHolding>,
    #[serde(default)]
    pub capitano_cards: Vec<RawCard>,
    #[serde(default)]
    pub victory: Vec<RawText>,
    #[serde(default)]
    pub special_rules: Vec<RawText>,
    #[serde(default)]
    pub rulings: Vec<RawText>,
    #[serde(default)]
    pub notes: Option<String>,
    /// People and roles of a megagame.
    #[serde(default)]
    pub megagame: Option<RawMegagame>,
}

/// The `megagame:` section: map tables, Control, states with ledgers, players.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMegagame {
    #[serde(default)]
    pub tables: Vec<RawMapTable>,
    #[serde(default)]
    pub umpires: Vec<RawUmpire>,
    #[serde(default)]
    pub states: Vec<RawState>,
    #[serde(default)]
    pub players: Vec<RawPlayer>,
    #[serde(default)]
    pub characters: Vec<RawCharacterLinks>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMapTable {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawUmpire {
    pub name: String,
    pub role: String,
    #[serde(default)]
    pub table: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawState {
    pub id: String,
    pub name: String,
    /// The ledger counter's id; `state-<id>` when not given.
    #[serde(default)]
    pub counter: Option<String>,
    #[serde(default)]
    pub teams: Vec<String>,
    #[serde(default)]
    pub table: Option<String>,
    #[serde(default = "yes")]
    pub played: bool,
    /// Ledger values (treasury, national_debt, unrest_index…): unit attributes of the ruleset.
    #[serde(default)]
    pub ledger: BTreeMap<String, RawValue>,
    /// Ledger attributes the text does not give.
    #[serde(default)]
    pub unknown: Vec<String>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPlayer {
    #[serde(default)]
    pub id: Option<String>,
    pub name: String,
    #[serde(default)]
    pub characters: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCharacterLinks {
    pub character: String,
    #[serde(default)]
    pub teams: Vec<String>,
    #[serde(default)]
    pub states: Vec<String>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// A calendar: generated from a start date (5-day turns, 6 to a month) or listed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCalendar {
    #[serde(default)]
    pub start: Option<RawTurnDate>,
    #[serde(default)]
    pub turns_per_month: Option<u32>,
    #[serde(default)]
    pub labels: Option<Vec<String>>,
    /// The rule reference, for the reader of the file only.
    #[serde(default)]
    #[allow(dead_code)]
    pub rule: Option<String>,
    /// Where the text extraction has it, for the reader of the file only.
    #[serde(default)]
    #[allow(dead_code)]
    pub source: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTurnDate {
    pub month: String,
    pub turn: u32,
    pub year: i32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStrength {
    pub points: String,
    pub maximum: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawUnknownDefaults {
    #[serde(default)]
    pub units: Vec<String>,
    #[serde(default)]
    pub leaders: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSide {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub armies: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawArmy {
    pub id: String,
    pub name: String,
    pub side: String,
    #[serde(default)]
    pub capitani_generali: Vec<String>,
    #[serde(default)]
    pub minor_capitani: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

/// A hex id or other name: text, but a bare number is read too so that it can be refused
/// with a hint.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum RawName {
    Text(String),
    Int(i64),
    Float(f64),
}

/// A position: exactly one of `hex`, `area`, `x`+`y`, `off_map`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPosition {
    #[serde(default)]
    pub hex: Option<RawName>,
    #[serde(default)]
    pub area: Option<String>,
    #[serde(default)]
    pub x: Option<f64>,
    #[serde(default)]
    pub y: Option<f64>,
    #[serde(default)]
    pub off_map: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawForce {
    pub id: String,
    pub side: String,
    #[serde(default)]
    pub army: Option<String>,
    /// Required at start; a reinforcement's forces default to its entry.
    #[serde(default)]
    pub position: Option<RawPosition>,
    #[serde(default)]
    pub place: Option<String>,
    /// The words that tell its counters from others of the same name ("Breakdown"); without
    /// it, the name of its first leader, else its place.
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub order: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
    /// Counters listed without a Force (pools, breakdown units): no force id.
    #[serde(default)]
    pub loose: bool,
    #[serde(default)]
    pub leaders: Vec<RawCounter>,
    #[serde(default)]
    pub units: Vec<RawCounter>,
    #[serde(default)]
    pub markers: Vec<RawCounter>,
}

/// `count` counters of maximum strength `max`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCounters {
    pub count: u32,
    pub max: u32,
}

/// An attribute value as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum RawValue {
    Bool(bool),
    Int(i64),
    Text(String),
    List(Vec<String>),
}

/// One counter, or (with `sp` and `counters`) an entry split into several counters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCounter {
    #[serde(default)]
    pub id: Option<String>,
    pub name: String,
    #[serde(default)]
    pub sp: Option<u32>,
    #[serde(default)]
    pub counters: Vec<RawCounters>,
    #[serde(default)]
    pub attributes: BTreeMap<String, RawValue>,
    #[serde(default)]
    pub unknown: Vec<String>,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawReinforcement {
    /// A calendar label ("June, 1") or a turn number.
    pub turn: RawName,
    pub entry: RawPosition,
    #[serde(default)]
    pub note: Option<String>,
    pub forces: Vec<RawForce>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawConditional {
    pub id: String,
    pub rule: String,
    pub entry: RawPosition,
    #[serde(default)]
    pub note: Option<String>,
    pub forces: Vec<RawForce>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAmount {
    /// A calendar label, a turn number, or `at_start`.
    pub turn: RawName,
    pub amount: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSchedule {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub procedure: Option<String>,
    #[serde(default)]
    pub step: Option<String>,
    #[serde(default)]
    pub mandatory: Option<bool>,
    #[serde(default)]
    pub side: Option<String>,
    #[serde(default)]
    pub turns: Vec<RawName>,
    #[serde(default)]
    pub amounts: Vec<RawAmount>,
    /// Where the amount is credited: a counter's whole-number attribute (an AP marker's
    /// Administrative Points).
    #[serde(default)]
    pub credit: Option<RawCredit>,
    #[serde(default)]
    pub note: Option<String>,
}

/// A scheduled amount's destination.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCredit {
    pub counter: String,
    pub attribute: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSupply {
    pub army: String,
    pub position: RawPosition,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRegion {
    pub region: String,
    pub alignment: String,
    #[serde(default)]
    pub alternative: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHolding {
    pub place: String,
    pub position: RawPosition,
    pub side: String,
    pub status: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCard {
    pub army: String,
    pub name: String,
    pub card: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawText {
    pub id: String,
    pub title: String,
    pub text: String,
    #[serde(default)]
    pub side: Option<String>,
    #[serde(default)]
    pub procedure: Option<String>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}
