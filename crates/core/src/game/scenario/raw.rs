//! Scenario files as written: serde structs that refuse unknown fields.
//!
//! These types are also the scenario files' schema: every type and field carries a doc comment
//! written for someone writing the YAML, and `JsonSchema` turns them into
//! `docs/schema/scenario.schema.json` and the Markdown reference ([`crate::schema`]).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::schema::fields::{HexId, MonthName, TurnRef};

// The `megagame:` section, in a file of its own.
mod megagame;
pub(crate) use megagame::*;

/// A scenario file: `scenarios/<ruleset>/<scenario>.yaml`, checked against its ruleset: sides
/// and armies, the counters' attributes (names, types, ranges and choices the ruleset
/// declares), positions, turns and procedures. A file with any error loads nothing.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Scenario")]
pub(crate) struct RawScenario {
    /// The scenario's id, unique among the scenarios (`ailsh_1_venice_at_bay_1509`): the
    /// command line and game files name it.
    pub id: String,
    /// The id of the ruleset it is played with (`ailsh`).
    pub ruleset: String,
    /// Its title as printed ("Venice at bay, 1509").
    pub title: String,
    /// Where it is transcribed from, in words (the rule book and its scenario).
    #[serde(default)]
    pub source: Option<String>,
    /// The historical or start date as printed ("April, 4 (1509)").
    #[serde(default)]
    pub date: Option<String>,
    /// How many turns it lasts, at least 1.
    #[schemars(range(min = 1))]
    pub turns: u32,
    /// The turns' labels: generated from a start date or listed.
    pub calendar: RawCalendar,
    /// The part of the map in use, if not all of it, in the text's words.
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
    /// Values printed on the counters that the text does not give (a Troop Quality, a
    /// Capitano's Initiative), given once for every counter that matches: the organiser's
    /// reading of the counter sheet.
    #[serde(default)]
    pub counter_values: Vec<RawCounterValues>,
    /// What places are where the rule text does not say (a Town or a City), as the organiser
    /// reads them off the map: the victory conditions read them (Scenario 4's Victory Points).
    #[serde(default)]
    pub place_kinds: Vec<RawPlaceKindOf>,
    /// The opposing sides (players or coalitions), each id once.
    pub sides: Vec<RawSide>,
    /// The armies (nations) of the sides, with their Capitani Generali.
    #[serde(default)]
    pub armies: Vec<RawArmy>,
    /// The side (or army) that plays first, if the text names one.
    #[serde(default)]
    pub first_player: Option<String>,
    /// The Forces (stacks) and loose groups of counters at the start.
    #[serde(default)]
    pub forces: Vec<RawForce>,
    /// Forces that arrive on a given turn.
    #[serde(default)]
    pub reinforcements: Vec<RawReinforcement>,
    /// Forces that arrive when a special rule of the scenario says so (no fixed turn).
    #[serde(default)]
    pub conditional_reinforcements: Vec<RawConditional>,
    /// What happens on listed turns (Administrative Points received, a roll due), with its
    /// amounts and where they are credited.
    #[serde(default)]
    pub schedules: Vec<RawSchedule>,
    /// The supply sources of each army.
    #[serde(default)]
    pub supply_sources: Vec<RawSupply>,
    /// The alignment of each region at the start.
    #[serde(default)]
    pub regions: Vec<RawRegion>,
    /// Places owned or Conquered at the start.
    #[serde(default)]
    pub holdings: Vec<RawHolding>,
    /// The Capitano cards in use, by army.
    #[serde(default)]
    pub capitano_cards: Vec<RawCard>,
    /// The victory conditions.
    #[serde(default)]
    pub victory: Vec<RawText>,
    /// Special rules and events (troops' reliability included); conditional reinforcements
    /// name them.
    #[serde(default)]
    pub special_rules: Vec<RawText>,
    /// Rulings made while transcribing: how an ambiguity of the scenario was read.
    #[serde(default)]
    pub rulings: Vec<RawText>,
    /// Notes (historical note, design note…).
    #[serde(default)]
    pub notes: Option<String>,
    /// People and roles of a megagame.
    #[serde(default)]
    pub megagame: Option<RawMegagame>,
    /// What the organiser must add where the text gives no set-up (a deployment card, a
    /// briefing pack), and how: printed on the scenario sheet and shown at the desk.
    #[serde(default)]
    pub organiser_setup: Option<RawOrganiserSetup>,
}

/// The `organiser_setup:` section: the set-up the text leaves to the organiser.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrganiserSetup")]
pub(crate) struct RawOrganiserSetup {
    /// What the organiser must add, in words.
    pub text: String,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// How: the commands (or desk steps) that add it, one a line.
    #[serde(default)]
    pub steps: Vec<String>,
}

/// A calendar: generated from a start date (5-day turns, 6 to a month) or listed.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Calendar")]
#[schemars(extend("oneOf" = [{"required": ["start"]}, {"required": ["labels"]}]))]
pub(crate) struct RawCalendar {
    /// The first turn's date: `{month: April, turn: 4, year: 1509}`; the labels are generated
    /// ("April, 4 (1509)", the year shown on turn 1 and on "January, 1").
    #[serde(default)]
    pub start: Option<RawTurnDate>,
    /// Turns to a month for a generated calendar (default 6: 5-day turns).
    #[serde(default)]
    pub turns_per_month: Option<u32>,
    /// The turns' labels, one per turn, instead of `start` (`["Battle"]`, `["1524 - 1528",
    /// …]`).
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

/// The date of a calendar's first turn.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "TurnDate")]
pub(crate) struct RawTurnDate {
    /// The month's name in English (`April`).
    #[schemars(with = "MonthName")]
    pub month: String,
    /// The turn of the month, from 1 to `turns_per_month`.
    #[schemars(range(min = 1))]
    pub turn: u32,
    /// The year (`1509`).
    pub year: i32,
}

/// Which unit attributes hold a counter's strength.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Strength")]
pub(crate) struct RawStrength {
    /// The whole-number unit attribute holding the current strength (`strength_points`).
    pub points: String,
    /// The whole-number unit attribute holding the maximum strength (`maximum_strength`).
    pub maximum: String,
}

/// Attributes the text never gives, for every counter of a kind.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "UnknownDefaults")]
pub(crate) struct RawUnknownDefaults {
    /// Unit attributes (of the ruleset's `units`) unknown on every unit and marker unless
    /// given.
    #[serde(default)]
    pub units: Vec<String>,
    /// Leader attributes (of the ruleset's `leaders`) unknown on every leader unless given.
    #[serde(default)]
    pub leaders: Vec<String>,
}

/// One side of the game (a player or a coalition).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Side")]
pub(crate) struct RawSide {
    /// The side's id, unique (`french`): forces, schedules and texts name it; in a megagame it
    /// is a team.
    pub id: String,
    /// Its name as printed ("French: the Kingdom of France").
    pub name: String,
    /// The ids of its armies (each declared under `armies` with this side).
    #[serde(default)]
    pub armies: Vec<String>,
}

/// One army (nation) of a side: its own AP track, Capitani Generali and supply sources.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Army")]
pub(crate) struct RawArmy {
    /// The army's id, unique (`venetian`); it may equal its side's id.
    pub id: String,
    /// Its name as printed ("Venetian Army").
    pub name: String,
    /// The id of the side it belongs to.
    pub side: String,
    /// The names of its Capitani Generali, as printed.
    #[serde(default)]
    pub capitani_generali: Vec<String>,
    /// The Minor Capitani available and their status, as printed ("1 French, not deployed").
    #[serde(default)]
    pub minor_capitani: Option<String>,
    /// Notes (LOC length bonus, constraints…).
    #[serde(default)]
    pub note: Option<String>,
}

/// A hex id or other name: text, but a bare number is read too so that it can be refused
/// with a hint. (Its schema is given where it is used: [`HexId`], [`TurnRef`].)
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum RawName {
    Text(String),
    Int(i64),
    Float(f64),
}

/// A position: exactly one of `hex`, `area`, `x`+`y`, `off_map`. The ruleset's geometry
/// decides which are allowed; `off_map` always is.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Position")]
#[schemars(extend("oneOf" = [
    {"required": ["hex"]}, {"required": ["area"]}, {"required": ["x", "y"]},
    {"required": ["off_map"]}
]))]
pub(crate) struct RawPosition {
    /// A hex of a hex map, in quotes (`"0114"`).
    #[serde(default)]
    #[schemars(with = "Option<HexId>")]
    pub hex: Option<RawName>,
    /// A named area of an area map (`Milano`).
    #[serde(default)]
    pub area: Option<String>,
    /// Across, in base units, on a free-form table (with `y`).
    #[serde(default)]
    pub x: Option<f64>,
    /// Along, in base units, on a free-form table (with `x`).
    #[serde(default)]
    pub y: Option<f64>,
    /// Off the map, saying where ("reinforcement pool", "Breakdown Units available",
    /// "Administrative Points Track").
    #[serde(default)]
    pub off_map: Option<String>,
}

/// A Force (stack), or with `loose: true` a group of counters that is not one.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Force")]
pub(crate) struct RawForce {
    /// The Force's id, unique among the scenario's counters and Forces (`fr-louis`); its
    /// counters' ids are made from it unless they give their own.
    pub id: String,
    /// The id of its side (or army).
    pub side: String,
    /// The id of its army (one of the side's).
    #[serde(default)]
    pub army: Option<String>,
    /// Required at start; a reinforcement's forces default to its entry.
    #[serde(default)]
    pub position: Option<RawPosition>,
    /// The place as printed ("Cassano", "within one hex from Brescia (2849)").
    #[serde(default)]
    pub place: Option<String>,
    /// The words that tell its counters from others of the same name ("Breakdown"); without
    /// it, the name of its first leader, else its place.
    #[serde(default)]
    pub label: Option<String>,
    /// Its Order as printed ("Stand", "Manoeuvre, Administrative March").
    #[serde(default)]
    pub order: Option<String>,
    /// Notes.
    #[serde(default)]
    pub note: Option<String>,
    /// Counters listed without a Force (pools, breakdown units): no force id.
    #[serde(default)]
    pub loose: bool,
    /// The text gives no hex: its owner sets it up where the text allows (S5: "anywhere in the
    /// Duchy of Milano east of the Tesino river"). It waits in its off-map box and the game's
    /// first step asks for it to be placed.
    #[serde(default)]
    pub unplaced: bool,
    /// A leader attribute the Force may not change for the game's first turns (S2: "may not
    /// change its Order for the first two turns").
    #[serde(default)]
    pub keeps: Option<RawKeeps>,
    /// Its leaders (checked against the ruleset's `leaders` attributes).
    #[serde(default)]
    pub leaders: Vec<RawCounter>,
    /// Its units (checked against the ruleset's `units` attributes).
    #[serde(default)]
    pub units: Vec<RawCounter>,
    /// Its markers (checked against the ruleset's `units` attributes).
    #[serde(default)]
    pub markers: Vec<RawCounter>,
}

/// `count` counters of maximum strength `max`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CounterGroup")]
pub(crate) struct RawCounters {
    /// How many physical counters, at least 1.
    #[schemars(range(min = 1))]
    pub count: u32,
    /// The maximum strength of each, at least 1.
    #[schemars(range(min = 1))]
    pub max: u32,
}

/// An attribute value as written: of the attribute's type in the ruleset (a whole number,
/// `true`/`false`, a name, or a list of names for a `choices` attribute).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "AttributeValue")]
pub(crate) enum RawValue {
    /// A flag.
    Bool(bool),
    /// A whole number (an `int` attribute; a `text` one takes it as text).
    Int(i64),
    /// A name (`choice`, `text`, or one of a `choices` attribute).
    Text(String),
    /// Names of a `choices` attribute (`[I, S]`).
    List(Vec<String>),
}

/// What one place is, read off the map.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "PlaceKindOf")]
pub(crate) struct RawPlaceKindOf {
    /// The place, as the map prints it (or another name the texts give it).
    pub place: String,
    /// What it is.
    pub kind: crate::rules::raw::RawPlaceKind,
}

/// Values printed on counters, for every counter (at start, arriving, or brought by a result)
/// that matches: by the name the text prints (`French Gendarmes`), by its attributes, or both.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CounterValues")]
pub(crate) struct RawCounterValues {
    /// The name the text prints for them ("French Gendarmes", "Chaumont"), any case.
    #[serde(default)]
    pub name: Option<String>,
    /// Attributes they have (`{unit_type: heavy_cavalry, nationality: french}`).
    #[serde(default)]
    pub with: BTreeMap<String, RawValue>,
    /// The values printed on them (`{troop_quality: 3, reliability_class: N}`).
    pub attributes: BTreeMap<String, RawValue>,
}

/// One counter, or (with `sp` and `counters`) an entry split into several counters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Counter")]
pub(crate) struct RawCounter {
    /// The counter's id, unique in the scenario; made from the Force's id and the name when
    /// not given (a leader's from its name). A split entry's counters get `-1`, `-2`…
    #[serde(default)]
    pub id: Option<String>,
    /// Its name as printed ("French Gendarmes", "Louis XII"); where several counters share
    /// it, the group's words tell them apart.
    pub name: String,
    /// The Strength Points of the whole entry, spread over its `counters` as evenly as
    /// possible (needs `counters` and the scenario's `strength`).
    #[serde(default)]
    pub sp: Option<u32>,
    /// The physical counters the entry is split into: `[{count: 2, max: 8}]`.
    #[serde(default)]
    pub counters: Vec<RawCounters>,
    /// Attribute values, by the names the ruleset declares for units or leaders, of their
    /// types.
    #[serde(default)]
    pub attributes: BTreeMap<String, RawValue>,
    /// Declared attributes the text does not give (for the umpire to fill in).
    #[serde(default)]
    pub unknown: Vec<String>,
    /// A note on the counter ("initially subordinate to G. Trivulzio").
    #[serde(default)]
    pub note: Option<String>,
}

/// Forces that arrive on a given turn.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Reinforcement")]
pub(crate) struct RawReinforcement {
    /// A calendar label ("June, 1") or a turn number.
    #[schemars(with = "TurnRef")]
    pub turn: RawName,
    /// Where they enter; their forces are placed there unless they give a position.
    pub entry: RawPosition,
    /// Notes (the entry as printed, orders…).
    #[serde(default)]
    pub note: Option<String>,
    /// The forces that arrive.
    pub forces: Vec<RawForce>,
}

/// Forces that arrive when a special rule of the scenario triggers them.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "ConditionalReinforcement")]
pub(crate) struct RawConditional {
    /// Its id.
    pub id: String,
    /// The id of the special rule (in `special_rules`) that brings them.
    pub rule: String,
    /// Where they enter.
    pub entry: RawPosition,
    /// Notes.
    #[serde(default)]
    pub note: Option<String>,
    /// The forces that arrive.
    pub forces: Vec<RawForce>,
    /// The procedure result that brings them (a roll's outcome); without it, the umpire
    /// brings them when the rule says (`game arrive`).
    #[serde(default)]
    pub brought_by: Option<RawBroughtBy>,
}

/// The procedure outcomes that bring a conditional reinforcement.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "BroughtBy")]
pub(crate) struct RawBroughtBy {
    /// The ruleset procedure's id.
    pub procedure: String,
    /// The outcome codes (or table result codes) that bring them.
    pub outcomes: Vec<String>,
    /// How many turns after the result they arrive, as the text gives it (0: the turn of the
    /// result, at the deployment step or at once when that step is past).
    #[serde(default)]
    pub after_turns: u32,
}

/// A scheduled amount on one turn.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "ScheduledAmount")]
pub(crate) struct RawAmount {
    /// A calendar label, a turn number, or `at_start`.
    #[schemars(with = "TurnRef")]
    pub turn: RawName,
    /// The amount on that turn (nominal APs…).
    pub amount: i64,
}

/// Something that happens on listed turns (Administrative Points, a roll due).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Schedule")]
pub(crate) struct RawSchedule {
    /// Its id.
    pub id: String,
    /// Its name for people ("French APs at start (actual)").
    pub name: String,
    /// The id of the ruleset procedure run on those turns (`administrative_points`).
    #[serde(default)]
    pub procedure: Option<String>,
    /// The id of the Sequence-of-Play step (one without sub-steps) it is due at; without it,
    /// the step of its procedure, else the turn's first step.
    #[serde(default)]
    pub step: Option<String>,
    /// Whether Next waits for it (the default, `true`); `false` for a roll due only when
    /// something happens, which the umpire resolves when it does.
    #[serde(default)]
    pub mandatory: Option<bool>,
    /// The side or army it belongs to.
    #[serde(default)]
    pub side: Option<String>,
    /// The turns it is due on.
    #[serde(default)]
    #[schemars(with = "Vec<TurnRef>")]
    pub turns: Vec<RawName>,
    /// Amounts by turn (each turn once); their turns are due too.
    #[serde(default)]
    pub amounts: Vec<RawAmount>,
    /// Where the amount is credited: a counter's whole-number attribute (an AP marker's
    /// Administrative Points).
    #[serde(default)]
    pub credit: Option<RawCredit>,
    /// What the schedule puts on a Force when it is due, recorded from the pending list (S2:
    /// "at the beginning of the third turn it receives an Attack Order").
    #[serde(default)]
    pub sets: Option<RawScheduledSet>,
    /// Outcomes of its procedure after which it is due no more: a one-time roll ("once the
    /// Swiss reinforcements are received the die is not rolled again": `[reinforcements]`).
    #[serde(default)]
    pub until: Vec<String>,
    /// Notes.
    #[serde(default)]
    pub note: Option<String>,
}

/// A scheduled amount's destination.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Credit")]
pub(crate) struct RawCredit {
    /// The id of a counter of the scenario (the army's AP marker).
    pub counter: String,
    /// The whole-number unit attribute the amount is added to (`administrative_points`).
    pub attribute: String,
}

/// A leader attribute a Force may not change through a turn.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "ForceKeeps")]
pub(crate) struct RawKeeps {
    /// The leader attribute (`order`).
    pub attribute: String,
    /// The last turn it may not change (2: "for the first two turns").
    pub through_turn: u32,
    /// The rule, as the rulebook numbers or names it.
    pub rule: String,
    /// The lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What the text says, as printed.
    pub text: String,
}

/// A leader attribute a schedule sets on a Force's Primo Capitano (its Order).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "ScheduledSet")]
pub(crate) struct RawScheduledSet {
    /// The id of a Force of the scenario.
    pub force: String,
    /// The leader attribute (`order`), set on the Force's Primo Capitano.
    pub attribute: String,
    /// Its value.
    pub value: RawValue,
}

/// A supply source of an army.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SupplySource")]
pub(crate) struct RawSupply {
    /// The id of the army (or side) it supplies.
    pub army: String,
    /// Where it is.
    pub position: RawPosition,
    /// The place as printed.
    #[serde(default)]
    pub label: Option<String>,
    /// Its conditions.
    #[serde(default)]
    pub note: Option<String>,
}

/// The alignment of a region at the start.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "RegionAlignment")]
pub(crate) struct RawRegion {
    /// The region's code as printed (`M`, `PP`).
    pub region: String,
    /// Its alignment at the start as printed ("French", "Not-aligned").
    pub alignment: String,
    /// The alignment it may change to, as printed ("Anti-French").
    #[serde(default)]
    pub alternative: Option<String>,
    /// When it changes.
    #[serde(default)]
    pub note: Option<String>,
}

/// A place owned or Conquered at the start.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Holding")]
pub(crate) struct RawHolding {
    /// The place's name.
    pub place: String,
    /// Where it is.
    pub position: RawPosition,
    /// The side (or army) that holds it.
    pub side: String,
    /// Its status as printed (`conquered`).
    pub status: String,
}

/// A Capitano card in use.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CapitanoCard")]
pub(crate) struct RawCard {
    /// The army (or side) whose card it is.
    pub army: String,
    /// The Capitano as printed.
    pub name: String,
    /// The number on top of the card (not unique: the cards are back-printed).
    pub card: u32,
}

/// A victory condition, special rule or ruling: text, with optional links.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "TextItem")]
pub(crate) struct RawText {
    /// Its id, unique in its list (conditional reinforcements name special rules by it).
    pub id: String,
    /// Its title.
    pub title: String,
    /// The text as printed (or the ruling).
    pub text: String,
    /// The side (or army) it concerns.
    #[serde(default)]
    pub side: Option<String>,
    /// The id of a ruleset procedure that implements it.
    #[serde(default)]
    pub procedure: Option<String>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// A victory condition's structured part: what the engine evaluates (victory items only).
    #[serde(default)]
    pub check: Option<super::victory::RawVictoryCheck>,
}
