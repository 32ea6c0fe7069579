//! The YAML as written: deserialised with unknown fields refused, then validated into
//! [`super::model`] types.

use std::collections::BTreeMap;

use serde::Deserialize;

/// A scalar that may be written as a number, a flag or text.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum RawScalar {
    /// A number.
    Int(i64),
    /// A flag.
    Bool(bool),
    /// Text.
    Text(String),
}

impl RawScalar {
    /// The scalar as text.
    pub fn text(&self) -> String {
        match self {
            RawScalar::Int(i) => i.to_string(),
            RawScalar::Bool(b) => b.to_string(),
            RawScalar::Text(t) => t.clone(),
        }
    }
}

/// `ruleset.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRuleset {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub dice: Vec<RawDie>,
    #[serde(default)]
    pub procedures: Vec<RawProcedure>,
    #[serde(default)]
    pub geometry: Option<RawGeometry>,
    #[serde(default)]
    pub strength_attribute: Option<String>,
    #[serde(default)]
    pub type_attribute: Option<String>,
    #[serde(default)]
    pub units: Vec<RawAttribute>,
    #[serde(default)]
    pub leaders: Vec<RawAttribute>,
    #[serde(default)]
    pub sequence_of_play: Vec<RawStep>,
    #[serde(default)]
    pub rulings: Vec<RawRuling>,
    #[serde(default)]
    pub statuses: Vec<RawStatus>,
    #[serde(default)]
    pub decks: Vec<RawDeck>,
    #[serde(default)]
    pub visibility: Option<RawVisibility>,
    #[serde(default)]
    pub notes: Option<String>,
}

/// How positions are given on this game's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawGeometryKind {
    Hex,
    Area,
    Free,
}

/// The game's geometry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGeometry {
    pub kind: RawGeometryKind,
    #[serde(default)]
    pub hex_id_digits: Option<u32>,
    #[serde(default)]
    pub distance_unit: Option<String>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
    #[serde(default)]
    pub places: Vec<RawPlace>,
}

/// What a place is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawPlaceKind {
    City,
    FortifiedCity,
    Fortress,
    FortifiedTown,
    Town,
    Castle,
    Village,
    Bridge,
    Port,
    Pass,
    Difficult,
    Other,
}

/// A place of the gazetteer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlace {
    pub name: String,
    #[serde(default)]
    pub hex: Option<String>,
    #[serde(default)]
    pub group: Option<String>,
    #[serde(default)]
    pub kind: Option<RawPlaceKind>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub note: Option<String>,
}

/// Attribute types for units and leaders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawAttributeKind {
    Int,
    Choice,
    Flag,
    Text,
    Choices,
}

/// An attribute a unit or leader carries.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttribute {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: RawAttributeKind,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    #[serde(default)]
    pub choices: Option<Vec<RawScalar>>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub help: Option<String>,
}

/// A phase, segment or step of the Sequence of Play.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub procedures: Vec<String>,
    #[serde(default)]
    pub decks: Vec<String>,
    #[serde(default)]
    pub mandatory: bool,
    #[serde(default)]
    pub when: Option<String>,
    /// Only after the last turn (the end of the scenario), never between turns.
    #[serde(default)]
    pub scenario_end: bool,
    #[serde(default)]
    pub steps: Vec<RawStep>,
}

/// One reading of an ambiguous rule.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRulingOption {
    pub id: String,
    pub text: String,
}

/// A status marker a counter can carry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStatus {
    pub id: String,
    pub label: String,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub help: Option<String>,
}

/// A deck of cards or a cup of markers drawn without replacement.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDeck {
    pub id: String,
    pub name: String,
    pub kind: RawDeckKind,
    #[serde(default)]
    pub items: Vec<RawDeckItem>,
    #[serde(default)]
    pub size: Option<u32>,
    #[serde(default)]
    pub missing: Option<String>,
    #[serde(default)]
    pub refill: RawRefill,
    #[serde(default)]
    pub hidden: bool,
    #[serde(default)]
    pub per_side: bool,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub help: Option<String>,
}

/// Cards or markers.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawDeckKind {
    Deck,
    Cup,
}

/// When what was drawn goes back in.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawRefill {
    #[default]
    Never,
    WhenEmpty,
    ByHand,
}

/// One kind of card or marker and how many there are.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDeckItem {
    pub name: String,
    pub count: u32,
}

/// A ruling the umpire can switch.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRuling {
    pub id: String,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    pub text: String,
    pub options: Vec<RawRulingOption>,
    pub default: String,
}

/// A custom die.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDie {
    pub name: String,
    pub faces: Vec<RawFace>,
    /// Documentation for people reading the YAML; the engine does not use it.
    #[serde(default)]
    #[allow(dead_code)]
    pub rule: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    pub source: Option<String>,
}

/// A face of a custom die.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFace {
    pub value: i64,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub weight: Option<u32>,
}

/// Input types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawInputKind {
    Int,
    Choice,
    Flag,
}

/// A procedure input.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInput {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: RawInputKind,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    #[serde(default)]
    pub choices: Option<Vec<RawScalar>>,
    /// The choices in the game's words, where a choice is written as an id.
    #[serde(default)]
    pub choice_labels: Option<BTreeMap<String, String>>,
    /// When the input is needed at all (an expression over the inputs above it): left out
    /// while it is false, it is not asked for and nothing reads it.
    #[serde(default)]
    pub needed_when: Option<RawScalar>,
    #[serde(default)]
    pub default: Option<RawScalar>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub help: Option<String>,
    #[serde(default)]
    pub from: Option<RawInputSource>,
}

/// Where an input is prefilled from: `army.strength_thousands` or `{role: army, attribute:
/// strength_thousands}`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum RawInputSource {
    Dotted(String),
    Full(RawInputSourceFull),
}

/// The long form of [`RawInputSource`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInputSourceFull {
    pub role: String,
    pub attribute: String,
}

/// A named value computed by an expression.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDerived {
    pub name: String,
    pub expr: RawScalar,
    /// Shown (and computed) only when this holds: a value that belongs to one case of the
    /// procedure (a Skirmish's Larger Force), so what it reads is not asked for otherwise.
    #[serde(default)]
    pub when: Option<RawScalar>,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// What a modifier changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawAppliesTo {
    #[default]
    Roll,
    Target,
    Column,
    Dice,
    EachDie,
}

/// A modifier.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawModifier {
    pub name: String,
    #[serde(default)]
    pub value: Option<RawScalar>,
    #[serde(default)]
    pub from_table: Option<RawTableRef>,
    #[serde(default)]
    pub when: Option<RawScalar>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub applies_to: RawAppliesTo,
    #[serde(default)]
    pub side: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A lookup in a table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTableRef {
    pub table: String,
    #[serde(default)]
    pub row: Option<RawScalar>,
    #[serde(default)]
    pub column: Option<RawScalar>,
    #[serde(default)]
    pub ratio: Option<Vec<RawScalar>>,
    #[serde(default)]
    pub line: Option<RawScalar>,
}

/// Direction of a threshold test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawSuccess {
    #[default]
    AtLeast,
    AtMost,
}

/// A threshold test.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawThreshold {
    pub target: RawScalar,
    #[serde(default)]
    pub success: RawSuccess,
    #[serde(default)]
    pub natural_fail: Vec<i64>,
    #[serde(default)]
    pub natural_pass: Vec<i64>,
    pub pass: String,
    pub fail: String,
}

/// What a pool scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawPoolScore {
    #[default]
    Hits,
    Sum,
}

/// A dice pool.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPool {
    pub count: RawScalar,
    pub die: String,
    #[serde(default)]
    pub score: RawPoolScore,
    #[serde(default)]
    pub hits: Vec<RawHitRule>,
    #[serde(default)]
    pub face_floor: Option<i64>,
    pub outcome: String,
}

/// Which faces of a pool score hits, and how many.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHitRule {
    #[serde(default)]
    pub faces: Option<Vec<i64>>,
    #[serde(default)]
    pub at_least: Option<RawScalar>,
    #[serde(default)]
    pub at_most: Option<RawScalar>,
    #[serde(default)]
    pub per: Option<u32>,
    #[serde(default)]
    pub hits: Option<u32>,
    #[serde(default)]
    pub max_hits: Option<u32>,
    #[serde(default)]
    pub when: Option<RawScalar>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// Arithmetic after the roll: ordered cases.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCompute {
    #[serde(default, rename = "let")]
    pub lets: Vec<RawDerived>,
    pub cases: Vec<RawCase>,
}

/// One case of a compute lookup.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCase {
    #[serde(default)]
    pub when: Option<RawScalar>,
    pub outcome: String,
    #[serde(default)]
    pub value: Option<RawScalar>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// How the outcome is found: exactly one of the four kinds. (A struct of options rather than
/// an enum: yaml_serde reads enums from YAML tags, and `lookup: {table: …}` reads better.)
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLookupSpec {
    #[serde(default)]
    pub table: Option<RawTableRef>,
    #[serde(default)]
    pub threshold: Option<RawThreshold>,
    #[serde(default)]
    pub pool: Option<RawPool>,
    #[serde(default)]
    pub compute: Option<RawCompute>,
    #[serde(default)]
    pub opposed: Option<RawOpposed>,
}

/// A group of dice thrown by one side of an opposed roll.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDiceGroup {
    pub count: RawScalar,
    pub die: String,
    #[serde(default)]
    pub modifier: Option<RawScalar>,
    #[serde(default)]
    pub floor: Option<i64>,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// One side of an opposed roll.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub side: String,
    pub dice: Vec<RawDiceGroup>,
}

/// Both sides roll; their scores (sums or hits) are compared by ordered cases.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOpposed {
    pub sides: Vec<RawSide>,
    #[serde(default)]
    pub score: RawPoolScore,
    #[serde(default)]
    pub hits: Vec<RawHitRule>,
    #[serde(default, rename = "let")]
    pub lets: Vec<RawDerived>,
    pub cases: Vec<RawCase>,
}

/// The one lookup kind given.
#[derive(Debug)]
pub enum RawLookup<'a> {
    Table(&'a RawTableRef),
    Threshold(&'a RawThreshold),
    Pool(&'a RawPool),
    Compute(&'a RawCompute),
    Opposed(&'a RawOpposed),
}

impl RawLookupSpec {
    /// The kind given, or None when zero or several are.
    pub fn kind(&self) -> Option<RawLookup<'_>> {
        let given = [
            self.table.is_some(),
            self.threshold.is_some(),
            self.pool.is_some(),
            self.compute.is_some(),
            self.opposed.is_some(),
        ];
        if given.iter().filter(|g| **g).count() != 1 {
            return None;
        }
        if let Some(t) = &self.table {
            return Some(RawLookup::Table(t));
        }
        if let Some(t) = &self.threshold {
            return Some(RawLookup::Threshold(t));
        }
        if let Some(p) = &self.pool {
            return Some(RawLookup::Pool(p));
        }
        if let Some(o) = &self.opposed {
            return Some(RawLookup::Opposed(o));
        }
        self.compute.as_ref().map(RawLookup::Compute)
    }
}

/// An effect of an outcome.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEffect {
    pub kind: String,
    #[serde(default)]
    pub when: Option<RawScalar>,
    #[serde(default)]
    pub side: Option<String>,
    #[serde(default)]
    pub amount: Option<RawScalar>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub procedure: Option<String>,
    #[serde(default)]
    pub attribute: Option<String>,
    #[serde(default)]
    pub value: Option<RawScalar>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// An outcome of a procedure.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOutcome {
    pub code: String,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub effects: Vec<RawEffect>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// A procedure.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawProcedure {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
    #[serde(default)]
    pub inputs: Vec<RawInput>,
    #[serde(default)]
    pub derived: Vec<RawDerived>,
    #[serde(default)]
    pub roll: Option<String>,
    #[serde(default)]
    pub modifiers: Vec<RawModifier>,
    pub lookup: RawLookupSpec,
    #[serde(default)]
    pub outcomes: Vec<RawOutcome>,
}

/// How a table's rows or columns are keyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawKeyKind {
    #[default]
    Roll,
    Name,
    Number,
    Bracket,
    Ratio,
}

/// One header line of a table (tables with alternative header lines have several).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHeaderLine {
    pub id: String,
    #[serde(default)]
    pub label: Option<String>,
    pub columns: Vec<RawScalar>,
    /// The headings as the chart prints them, one per column (when the keys are ids).
    #[serde(default)]
    pub column_labels: Option<Vec<String>>,
}

/// One row of a table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRow {
    pub key: RawScalar,
    /// The row's heading as the chart prints it (when the key is an id).
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub cells: Option<Vec<RawScalar>>,
    #[serde(default)]
    pub cell: Option<RawScalar>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// What a result code in a table's cells means.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawResult {
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub effects: Vec<RawEffect>,
}

/// A table file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
    #[serde(default)]
    pub roll: Option<String>,
    #[serde(default)]
    pub row_key: RawKeyKind,
    #[serde(default)]
    pub column_key: Option<RawKeyKind>,
    #[serde(default)]
    pub columns: Option<Vec<RawScalar>>,
    /// The headings of `columns` as the chart prints them (when the keys are ids).
    #[serde(default)]
    pub column_labels: Option<Vec<String>>,
    #[serde(default)]
    pub header_lines: Option<Vec<RawHeaderLine>>,
    pub rows: Vec<RawRow>,
    #[serde(default)]
    pub results: BTreeMap<String, RawResult>,
    #[serde(default)]
    pub named_codes: Vec<String>,
    #[serde(default)]
    pub clock: Option<RawClock>,
}

/// A real-time phase clock laid over a timetable (megagames): which Sequence-of-Play steps are
/// the clock's phases, and how long each lasts in each turn.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClock {
    pub phases: Vec<String>,
    #[serde(default)]
    pub warning_minutes: Option<u32>,
    #[serde(default)]
    pub years_column: Option<String>,
    pub turns: Vec<RawClockTurn>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
}

/// One turn of the clock: when its phases end (clock times) or how long each lasts (minutes).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawClockTurn {
    pub turn: u32,
    #[serde(default)]
    pub row: Option<String>,
    #[serde(default)]
    pub starts: Option<String>,
    #[serde(default)]
    pub phase_ends: Option<Vec<String>>,
    #[serde(default)]
    pub phase_minutes: Option<Vec<u32>>,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// How much of another side's counter a side sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawSightLevel {
    Hidden,
    Presence,
    Identity,
    Full,
}

/// Whose counters a side sees as its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawOwner {
    #[default]
    Side,
    Team,
}

/// What kind of piece a condition asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RawPieceKind {
    Unit,
    Leader,
    Marker,
    State,
}

/// A condition on one counter: every key given must hold.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCondition {
    #[serde(default)]
    pub kind: Option<RawPieceKind>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub attribute: Option<String>,
    #[serde(default)]
    pub is: Option<RawScalar>,
    #[serde(default)]
    pub on_map: Option<bool>,
    #[serde(default)]
    pub adjacent_to_enemy: Option<bool>,
    #[serde(default)]
    pub ruling: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub any: Option<Vec<RawCondition>>,
    #[serde(default)]
    pub not: Option<Box<RawCondition>>,
}

/// What a side sees of the other sides' counters that match a condition.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCounterSight {
    pub id: String,
    #[serde(default)]
    pub when: Option<RawCondition>,
    pub see: RawSightLevel,
    #[serde(default, rename = "as")]
    pub shown_as: Option<String>,
    pub rule: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Attributes kept from the other sides, unless a condition shows them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttributeSight {
    pub id: String,
    pub attributes: Vec<String>,
    #[serde(default)]
    pub shown_when: Option<RawCondition>,
    pub rule: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Procedures whose results (dice, outcome, effects and the counters affected) every side sees.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOpenResults {
    pub id: String,
    pub procedures: Vec<String>,
    pub rule: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Results seen by whoever sees all the counters involved (an open table).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawResultsWithCounters {
    pub rule: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
}

/// Statuses set and cleared on the counters matching a condition, at a step of the Sequence
/// of Play.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReveal {
    pub id: String,
    pub step: String,
    pub when: RawCondition,
    #[serde(default)]
    pub set: Vec<String>,
    #[serde(default)]
    pub clear: Vec<String>,
    pub rule: String,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub ruling: Option<String>,
}

/// The `visibility:` section: what each side may see of the others.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVisibility {
    #[serde(default)]
    pub own: RawOwner,
    pub enemy: RawSightLevel,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub counters: Vec<RawCounterSight>,
    #[serde(default)]
    pub attributes: Vec<RawAttributeSight>,
    #[serde(default)]
    pub open_results: Vec<RawOpenResults>,
    #[serde(default)]
    pub results_with_counters: Option<RawResultsWithCounters>,
    #[serde(default)]
    pub reveals: Vec<RawReveal>,
    #[serde(default)]
    pub hidden_entries: RawHiddenEntries,
    #[serde(default)]
    pub notes: Option<String>,
}

/// How a side's copy numbers the journal around the entries it may not see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawHiddenEntries {
    #[default]
    Renumber,
    Placeholder,
}
