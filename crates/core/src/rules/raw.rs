//! The YAML as written: deserialised with unknown fields refused, then validated into
//! [`super::model`] types.
//!
//! These types are also the files' schema: every type and field carries a doc comment written
//! for someone writing the YAML, and `JsonSchema` turns them into the JSON Schemas and the
//! Markdown reference in `docs/schema/` ([`crate::schema`], `umpire rules schema`). A field
//! added here needs its comment (a test lists the fields without one) and the schema files
//! regenerated.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::schema::{Expression, Identifier};

/// A value written as a whole number, `true`/`false` or text: a table's row key or cell, a
/// choice, a default. A float (`1.5`) or a list is refused.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "Scalar")]
pub enum RawScalar {
    /// A whole number (`-2`, `7`).
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// Text (`"2-3"`, `"≤0"`, `A1D3`, `"?"`).
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

/// `tables/<ruleset>/ruleset.yaml`: the ruleset, its dice, its procedures, what its counters
/// carry, its Sequence of Play, rulings, markers, decks and what each side sees. Every other
/// `.yaml` file of the folder is one table. A ruleset with any error loads nothing.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRuleset {
    /// The ruleset's id: scenarios name it (`ruleset: ailsh`), and so do the command line and
    /// game files. Conventionally the folder's name.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name as people read it ("Renaissance miniatures QRS (BU / VBU / VD)").
    pub name: String,
    /// The rule text it is transcribed from, in words (a title; not line numbers).
    #[serde(default)]
    pub source: Option<String>,
    /// What the game is and what the text does and does not give, shown with the ruleset.
    #[serde(default)]
    pub description: Option<String>,
    /// Custom dice the procedures may name besides `dN` (`dcmd`, a die with symbols or
    /// weighted faces).
    #[serde(default)]
    pub dice: Vec<RawDie>,
    /// The procedures the umpire resolves: inputs → modifiers → dice → lookup → outcome.
    #[serde(default)]
    pub procedures: Vec<RawProcedure>,
    /// How positions are given on the table (hexes, areas or free measurement), and the
    /// gazetteer of places the text names.
    #[serde(default)]
    pub geometry: Option<RawGeometry>,
    /// The unit attribute (a whole-number one of `units`) that holds a counter's strength:
    /// `sp_loss` effects reduce it (`strength_points`).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub strength_attribute: Option<String>,
    /// The unit attribute (one of `units`) that names a counter's type, drawn as its symbol on
    /// the desk's counter face (`unit_type`).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub type_attribute: Option<String>,
    /// The attributes a unit (or marker, or a megagame state's ledger) carries; a scenario's
    /// counters give their values.
    #[serde(default)]
    pub units: Vec<RawAttribute>,
    /// The attributes a leader carries.
    #[serde(default)]
    pub leaders: Vec<RawAttribute>,
    /// The Sequence of Play: phases with their segments and steps, and the procedures that
    /// belong to each.
    #[serde(default)]
    pub sequence_of_play: Vec<RawStep>,
    /// Where the text is ambiguous or contradicts itself: the readings and the default, which
    /// the umpire may switch (`--ruling ID=OPTION`).
    #[serde(default)]
    pub rulings: Vec<RawRuling>,
    /// The status markers the text names (Disrupted, Besieged…): what effects put on counters
    /// and the desk offers to put on by hand.
    #[serde(default)]
    pub statuses: Vec<RawStatus>,
    /// Decks of cards and cups of markers drawn without replacement.
    #[serde(default)]
    pub decks: Vec<RawDeck>,
    /// What each side may see of the others' counters and results; without it each side sees
    /// its own counters whole and the others' by name and place.
    #[serde(default)]
    pub visibility: Option<RawVisibility>,
    /// What the text leaves out, and anything else the reader of the ruleset should know.
    #[serde(default)]
    pub notes: Option<String>,
}

/// How positions are given on this game's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawGeometryKind {
    /// A hex map with numbered hexes (`"0114"`): scenarios place counters with `hex:`.
    Hex,
    /// Named areas: scenarios place counters with `area:`.
    Area,
    /// A free-form table, measured (in base units): scenarios place counters with `x:`, `y:`.
    Free,
}

/// The `geometry:` section: how positions are given on the table, and the places the text
/// names.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGeometry {
    /// `hex`, `area` or `free`: which positions a scenario may give (`off_map` always).
    pub kind: RawGeometryKind,
    /// How many digits a hex id has (4 for `"0114"`); scenario positions and the gazetteer's
    /// hexes are checked against it.
    #[serde(default)]
    pub hex_id_digits: Option<u32>,
    /// The unit distances are measured in, as the text names it (`BU`, `hex (3.2 km, 2
    /// miles)`).
    #[serde(default)]
    pub distance_unit: Option<String>,
    /// The rule reference, as the printed rules number it ("1.2, 1.3.1").
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from ("L88, L114"): provenance, shown only in
    /// the source details and the JSON.
    #[serde(default)]
    pub source: Option<String>,
    /// Notes on the map: distances the rules use, what the umpire judges by eye.
    #[serde(default)]
    pub notes: Option<String>,
    /// The gazetteer: the places the text names, drawn on the desk's map and named wherever a
    /// position is said.
    #[serde(default)]
    pub places: Vec<RawPlace>,
}

/// What a place is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawPlaceKind {
    /// A city.
    City,
    /// A fortified city (drawn walled).
    FortifiedCity,
    /// A fortress (drawn walled).
    Fortress,
    /// A fortified town, a castle (drawn walled).
    FortifiedTown,
    /// A town.
    Town,
    /// A castle (drawn walled).
    Castle,
    /// A village.
    Village,
    /// A bridge.
    Bridge,
    /// A port.
    Port,
    /// A mountain pass.
    Pass,
    /// Difficult terrain (an area map's).
    Difficult,
    /// Something else the text names.
    Other,
}

/// A place of the gazetteer, named once (a name the text gives two hexes is listed once per
/// hex).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPlace {
    /// Its name as printed ("Treviglio").
    pub name: String,
    /// Its hex on a hex map, as the map prints it, in quotes (`"2834"`); required on a hex
    /// map, refused on any other.
    #[serde(default)]
    pub hex: Option<String>,
    /// The group the text puts an area in ("Istria"), on an area map.
    #[serde(default)]
    pub group: Option<String>,
    /// What it is, only where the text says.
    #[serde(default)]
    pub kind: Option<RawPlaceKind>,
    /// Where the text names it, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction that name it (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// A note (a name the text gives two hexes…).
    #[serde(default)]
    pub note: Option<String>,
}

/// Attribute types for units and leaders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawAttributeKind {
    /// A whole number, optionally within `min`/`max`.
    Int,
    /// One of the names listed in `choices`.
    Choice,
    /// `true` or `false`.
    Flag,
    /// Free text (a name).
    Text,
    /// Any number of the names listed in `choices` (special features I/S/A/C/W): a list in a
    /// scenario.
    Choices,
}

/// An attribute a unit or leader carries: its name, its type, and what a scenario may give.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [
    {
        "description": "A `choice` or `choices` attribute needs `choices`.",
        "if": {"properties": {"type": {"enum": ["choice", "choices"]}}, "required": ["type"]},
        "then": {"required": ["choices"]}
    }
]))]
pub struct RawAttribute {
    /// The attribute's name, unique among the units' (or the leaders') attributes: scenarios,
    /// conditions and effects name it (`strength_points`).
    #[schemars(with = "Identifier")]
    pub name: String,
    /// Its type: `int`, `choice`, `choices`, `flag` or `text`.
    #[serde(rename = "type")]
    pub kind: RawAttributeKind,
    /// Its name for people ("Strength Points (current)"); without it, the name with spaces
    /// for `_`.
    #[serde(default)]
    pub label: Option<String>,
    /// The lowest value an `int` attribute may take.
    #[serde(default)]
    pub min: Option<i64>,
    /// The highest value an `int` attribute may take.
    #[serde(default)]
    pub max: Option<i64>,
    /// The names a `choice` or `choices` attribute may take (`[infantry, heavy_cavalry]`).
    #[serde(default)]
    pub choices: Option<Vec<RawScalar>>,
    /// The rule reference, as the printed rules number it ("1.3.3").
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// A short help for whoever fills it in ("1 minimum … 3 Elite").
    #[serde(default)]
    pub help: Option<String>,
}

/// A phase, segment or step of the Sequence of Play.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    /// The step's id, unique in the whole Sequence of Play: schedules, reveals and a clock's
    /// phases name it (`d1_intelligence`).
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name as printed ("Step O6: Retreat").
    pub name: String,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What happens in it, in the text's words.
    #[serde(default)]
    pub description: Option<String>,
    /// The ids of the procedures resolved in this step.
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub procedures: Vec<String>,
    /// The ids of the decks or cups drawn from in this step (see `decks`).
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub decks: Vec<String>,
    /// Whether its procedures must be resolved before the game moves on.
    #[serde(default)]
    pub mandatory: bool,
    /// When the step happens, if not every turn, in words ("from turn 3 on").
    #[serde(default)]
    pub when: Option<String>,
    /// Only after the last turn (the end of the scenario), never between turns.
    #[serde(default)]
    pub scenario_end: bool,
    /// Its segments or steps, in order; a step without sub-steps is a leaf, where the game
    /// stops.
    #[serde(default)]
    pub steps: Vec<RawStep>,
}

/// One reading of an ambiguous rule.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRulingOption {
    /// The reading's id, as `--ruling ID=OPTION`, conditions and expressions
    /// (`ruling_<id> == "OPTION"`) name it.
    pub id: String,
    /// What this reading means.
    pub text: String,
}

/// A status marker a counter can carry.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStatus {
    /// The marker's id, as effects (`{kind: status, status: disrupted}`), conditions and the
    /// journal name it.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name as printed ("Disrupted").
    pub label: String,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What it means, in the text's terms.
    #[serde(default)]
    pub help: Option<String>,
}

/// A deck of cards or a cup of markers drawn without replacement: what the text says is in
/// it, and what it does not say (never an invented composition).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDeck {
    /// The deck's id, as steps (`decks:`), the command line and the journal name it
    /// (`command_markers`).
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name as printed ("Command markers").
    pub name: String,
    /// `deck` (cards, shuffled) or `cup` (markers, drawn blind).
    pub kind: RawDeckKind,
    /// What is in it at the start, as the text gives it; empty when the text does not say
    /// (then `missing` says why).
    #[serde(default)]
    pub items: Vec<RawDeckItem>,
    /// How many it holds, when the text says ("a deck of 36 cards"); the items must add up to
    /// it.
    #[serde(default)]
    pub size: Option<u32>,
    /// What the text does not give and where it is (a card, the components): required when
    /// `items` is empty; the umpire fills the deck in the game.
    #[serde(default)]
    pub missing: Option<String>,
    /// When what was drawn goes back in: `never` (the default), `when_empty`, `by_hand`.
    #[serde(default)]
    pub refill: RawRefill,
    /// Draws are secret (a hand of cards): only Control and the drawing side see them.
    #[serde(default)]
    pub hidden: bool,
    /// Each side has its own (each player's cup of Seizure Counters).
    #[serde(default)]
    pub per_side: bool,
    /// The rule reference, as the printed rules number it ("Rule 4, Rule 4.1").
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// How it is used, in the text's terms.
    #[serde(default)]
    pub help: Option<String>,
}

/// Cards or markers.
#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawDeckKind {
    /// A deck of cards.
    Deck,
    /// A cup (or any opaque container) of markers.
    Cup,
}

/// When what was drawn goes back in.
#[derive(Debug, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawRefill {
    /// Never by itself (the umpire returns or refills by hand when the rules say).
    #[default]
    Never,
    /// When a draw finds it empty, the drawn ones are shuffled back in first.
    WhenEmpty,
    /// At a moment the rules name (each turn…): the umpire refills it.
    ByHand,
}

/// One kind of card or marker and how many there are.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDeckItem {
    /// Its name as printed, once per deck ("Seizure Opportunity").
    pub name: String,
    /// How many there are, at least 1.
    pub count: u32,
}

/// A ruling the umpire can switch: the question, its readings and the one in force. Expressions
/// read the reading in force as `ruling_<id>` (text).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRuling {
    /// The ruling's id, unique in the ruleset (`--ruling ID=OPTION`; `ruling_<id>` in
    /// expressions).
    #[schemars(with = "Identifier")]
    pub id: String,
    /// The rule reference of the ambiguous rule, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// The question: what is ambiguous and why the default was chosen.
    pub text: String,
    /// The readings the umpire may choose between, at least two.
    pub options: Vec<RawRulingOption>,
    /// The id of the reading in force unless the umpire switches it (one of `options`).
    pub default: String,
}

/// A custom die: its faces, each with a value, an optional label and weight.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDie {
    /// Its name in dice notation: `d` then letters, digits or `_` (`dcmd`, so `2dcmd` throws
    /// two).
    #[schemars(regex(pattern = r"^d[A-Za-z0-9_]+$"))]
    pub name: String,
    /// Its faces, at least one.
    pub faces: Vec<RawFace>,
    /// The rule reference, as the printed rules number it. Documentation for people reading
    /// the YAML; the engine does not use it.
    #[serde(default)]
    #[allow(dead_code)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance; the engine does not use
    /// it).
    #[serde(default)]
    #[allow(dead_code)]
    pub source: Option<String>,
}

/// A face of a custom die.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFace {
    /// The number the face counts as.
    pub value: i64,
    /// What is printed on it, when not the number (a symbol: "Flag").
    #[serde(default)]
    pub label: Option<String>,
    /// How many times as likely as a face of weight 1 it comes up (default 1; 0 is refused).
    #[serde(default)]
    pub weight: Option<u32>,
}

/// Input types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawInputKind {
    /// A whole number from `min` to `max`.
    Int,
    /// One of the names listed in `choices`.
    Choice,
    /// `true` or `false`.
    Flag,
}

/// A procedure input: what the umpire enters (or a game prefills) before the roll.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [
    {
        "description": "An `int` input needs `min` and `max`.",
        "if": {"properties": {"type": {"const": "int"}}, "required": ["type"]},
        "then": {"required": ["min", "max"]}
    },
    {
        "description": "A `choice` input needs `choices`.",
        "if": {"properties": {"type": {"const": "choice"}}, "required": ["type"]},
        "then": {"required": ["choices"]}
    }
]))]
pub struct RawInput {
    /// The input's name, unique in the procedure: expressions read it and the command line
    /// sets it (`--input disordered=true`). Not a name the engine sets itself (`natural`,
    /// `roll`, `roll_modifier`, `target_modifier`, `dice_modifier`, `value`, `n`).
    #[schemars(with = "Identifier")]
    pub name: String,
    /// Its type: `int` (with `min`/`max`), `choice` (with `choices`) or `flag`.
    #[serde(rename = "type")]
    pub kind: RawInputKind,
    /// Its name for people ("Shot from"); without it, the name with spaces for `_`.
    #[serde(default)]
    pub label: Option<String>,
    /// The lowest value an `int` input takes (int inputs only).
    #[serde(default)]
    pub min: Option<i64>,
    /// The highest value an `int` input takes (int inputs only).
    #[serde(default)]
    pub max: Option<i64>,
    /// The names a `choice` input takes, each once (choice inputs only).
    #[serde(default)]
    pub choices: Option<Vec<RawScalar>>,
    /// The choices in the game's words, where a choice is written as an id: `{s_dr: "S,
    /// DR"}`. A choice without one takes the heading of the table row or column it keys.
    #[serde(default)]
    pub choice_labels: Option<BTreeMap<String, String>>,
    /// When the input is needed at all (an expression over the inputs above it): left out
    /// while it is false, it is not asked for and nothing reads it.
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub needed_when: Option<RawScalar>,
    /// The value taken when none is given, of the input's type and range: only where the text
    /// gives one (cite it in `source:`) or for the neutral "none of this happened" value.
    /// Without one, the input is required wherever the result can depend on it.
    #[serde(default)]
    pub default: Option<RawScalar>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// A short help shown beside the field.
    #[serde(default)]
    pub help: Option<String>,
    /// Where a game prefills it from: an attribute of the counters given for a role
    /// (`army.strength_thousands`), `result.<procedure>` (this turn's result of a procedure,
    /// for a choice input) or `game.turn` (for an int input).
    #[serde(default)]
    pub from: Option<RawInputSource>,
}

/// Where an input is prefilled from: `army.strength_thousands` or `{role: army, attribute:
/// strength_thousands}`. Numbers are summed over the role's counters, names and flags must
/// agree; a flag also reads a status marker of that name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "InputSource")]
pub enum RawInputSource {
    /// `ROLE.ATTRIBUTE`, e.g. `army.strength_thousands`.
    Dotted(String),
    /// `{role: ROLE, attribute: ATTRIBUTE}`.
    Full(RawInputSourceFull),
}

/// The long form of an input's `from:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "InputSourceFull")]
pub struct RawInputSourceFull {
    /// The role whose counters supply the value (`army`, `state`, `area`…), or `result` /
    /// `game`.
    #[schemars(with = "Identifier")]
    pub role: String,
    /// The attribute read (a unit or leader attribute of a type that fits the input), or the
    /// procedure id after `result`, or `turn` after `game`.
    #[schemars(with = "Identifier")]
    pub attribute: String,
}

/// A named value computed by an expression (a procedure's `derived:`, a lookup's `let:`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Derived")]
pub struct RawDerived {
    /// The value's name, new in the procedure: later expressions read it.
    #[schemars(with = "Identifier")]
    pub name: String,
    /// The expression that computes it (`"attacker_sp / defender_sp"`).
    #[schemars(with = "Expression")]
    pub expr: RawScalar,
    /// Shown (and computed) only when this holds: a value that belongs to one case of the
    /// procedure (a Skirmish's Larger Force), so what it reads is not asked for otherwise.
    /// Not on a lookup's `let:` values, which are always worked out.
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub when: Option<RawScalar>,
    /// Its name for people.
    #[serde(default)]
    pub label: Option<String>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// How an ambiguity in it was read, shown with it (a ruling's id in it is shown as the
    /// ruling's question).
    #[serde(default)]
    pub ruling: Option<String>,
}

/// What a modifier changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawAppliesTo {
    /// The die roll: a DRM (table, threshold and compute lookups). The default.
    #[default]
    Roll,
    /// The target number (threshold), the `target_modifier` (compute, opposed).
    Target,
    /// Shifts the chart column right (+) or left (−) (table lookups).
    Column,
    /// The number of dice of a pool (pool, opposed).
    Dice,
    /// Every die of a pool (pool, opposed).
    EachDie,
}

/// A modifier: a DRM, a column shift, a change to the target or the dice, with its condition.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("oneOf" = [{"required": ["value"]}, {"required": ["from_table"]}]))]
pub struct RawModifier {
    /// Its name as printed ("Outside Command Range").
    pub name: String,
    /// Its value: a whole number or an expression giving one (`-1`, `"-defender_quality"`).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub value: Option<RawScalar>,
    /// Its value read from a table instead (a terrain chart's DRM).
    #[serde(default)]
    pub from_table: Option<RawTableRef>,
    /// When it applies (a condition over the inputs and derived values); always without it.
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub when: Option<RawScalar>,
    /// The rule reference, as the printed rules number it ("The Discipline Test").
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from ("L39"; provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What it changes: `roll` (the default), `target`, `column`, `dice` or `each_die`.
    #[serde(default)]
    pub applies_to: RawAppliesTo,
    /// For opposed rolls: the side whose dice it changes (required for `dice`/`each_die`).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub side: Option<String>,
    /// How an ambiguity in it was read, shown with it.
    #[serde(default)]
    pub ruling: Option<String>,
}

/// A lookup in a table: the table, and how its row, column and header line are found.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "TableRef")]
pub struct RawTableRef {
    /// The table's id (a table file of this ruleset).
    #[schemars(with = "Identifier")]
    pub table: String,
    /// An expression giving the row key; without it, the modified roll (clamped at the
    /// chart's edges). Required when the rows are not keyed by the roll.
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub row: Option<RawScalar>,
    /// An expression giving the column heading (tables with columns other than odds ratios).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub column: Option<RawScalar>,
    /// For odds-ratio columns: `[attacker, defender]`, two expressions; the larger side over
    /// the smaller, rounded down to a listed ratio.
    #[serde(default)]
    #[schemars(with = "Option<Vec<Expression>>", length(equal = 2))]
    pub ratio: Option<Vec<RawScalar>>,
    /// An expression giving the id of the header line to read, for tables with several
    /// `header_lines` (required there).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub line: Option<RawScalar>,
}

/// Direction of a threshold test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawSuccess {
    /// Pass when the modified roll is at least the target (the default).
    #[default]
    AtLeast,
    /// Pass when the modified roll is at most the target.
    AtMost,
}

/// A threshold test: the modified roll against a target.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Threshold")]
pub struct RawThreshold {
    /// The target: a whole number or an expression giving one.
    #[schemars(with = "Expression")]
    pub target: RawScalar,
    /// `at_least` (the default) or `at_most`.
    #[serde(default)]
    pub success: RawSuccess,
    /// Natural rolls that always fail, whatever the modifiers (`[1]`).
    #[serde(default)]
    pub natural_fail: Vec<i64>,
    /// Natural rolls that always pass (`[6]`).
    #[serde(default)]
    pub natural_pass: Vec<i64>,
    /// The outcome code on a pass (declared under the procedure's `outcomes`).
    pub pass: String,
    /// The outcome code on a fail (declared under the procedure's `outcomes`).
    pub fail: String,
}

/// What a pool scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawPoolScore {
    /// The hits its `hits` rules count (the default).
    #[default]
    Hits,
    /// The sum of the (modified) dice.
    Sum,
}

/// A dice pool: some dice thrown, scored by hits or by their sum.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Pool")]
pub struct RawPool {
    /// How many dice: a whole number or an expression (`fire_dice`).
    #[schemars(with = "Expression")]
    pub count: RawScalar,
    /// The die thrown: `d6`, `d10`… or a die declared under `dice`.
    pub die: String,
    /// `hits` (the default; needs `hits` rules) or `sum`.
    #[serde(default)]
    pub score: RawPoolScore,
    /// The rules that count hits (`{faces: [6]}`, `{faces: [5], per: 2}` for a double 5).
    #[serde(default)]
    pub hits: Vec<RawHitRule>,
    /// The lowest a modified die may score.
    #[serde(default)]
    pub face_floor: Option<i64>,
    /// The outcome code (declared under `outcomes`); its value is the score.
    pub outcome: String,
}

/// Which faces of a pool score hits, and how many.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "HitRule")]
#[schemars(extend("oneOf" = [
    {"required": ["faces"]}, {"required": ["at_least"]}, {"required": ["at_most"]}
]))]
pub struct RawHitRule {
    /// The faces that count (`[6]`).
    #[serde(default)]
    pub faces: Option<Vec<i64>>,
    /// Faces at least this count (an expression).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub at_least: Option<RawScalar>,
    /// Faces at most this count (an expression: `fire_value`).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub at_most: Option<RawScalar>,
    /// How many matching dice make one scoring group (default 1; 2 for a double 5).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub per: Option<u32>,
    /// Hits scored per group (default 1).
    #[serde(default)]
    pub hits: Option<u32>,
    /// At most this many hits from this rule, however many groups.
    #[serde(default)]
    pub max_hits: Option<u32>,
    /// The rule counts only when this holds (e.g. the ruling that selects the reading).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub when: Option<RawScalar>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// Arithmetic after the roll: named values, then ordered cases.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Compute")]
pub struct RawCompute {
    /// Values worked out after the modifiers, before the cases; they may read `natural`,
    /// `roll`, each die as `die_1`, `die_2`…
    #[serde(default, rename = "let")]
    pub lets: Vec<RawDerived>,
    /// The cases in order: the first whose `when` holds gives the outcome; the last has no
    /// `when` (the otherwise case).
    pub cases: Vec<RawCase>,
}

/// One case of a compute or opposed lookup.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Case")]
pub struct RawCase {
    /// The condition; only the last case may leave it out.
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub when: Option<RawScalar>,
    /// The outcome code it gives (declared under the procedure's `outcomes`).
    pub outcome: String,
    /// The number the outcome carries (an expression), read by its effects as `value`.
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub value: Option<RawScalar>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// How the outcome is found: exactly one of the five kinds. (A struct of options rather than
/// an enum: yaml_serde reads enums from YAML tags, and `lookup: {table: …}` reads better.)
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Lookup")]
#[schemars(extend("oneOf" = [
    {"required": ["table"]}, {"required": ["threshold"]}, {"required": ["pool"]},
    {"required": ["compute"]}, {"required": ["opposed"]}
]))]
pub struct RawLookupSpec {
    /// A cell of a table: the row is the modified roll or `row:`, the column `column:` or
    /// `ratio:`.
    #[serde(default)]
    pub table: Option<RawTableRef>,
    /// The modified roll against a target (needs the procedure's `roll`).
    #[serde(default)]
    pub threshold: Option<RawThreshold>,
    /// A pool of dice scoring hits or a sum (the procedure has no `roll`).
    #[serde(default)]
    pub pool: Option<RawPool>,
    /// Named arithmetic then ordered cases (with or without a roll).
    #[serde(default)]
    pub compute: Option<RawCompute>,
    /// Each side throws its dice; the scores are compared by ordered cases (no `roll`).
    #[serde(default)]
    pub opposed: Option<RawOpposed>,
}

/// A group of dice thrown by one side of an opposed roll.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "DiceGroup")]
pub struct RawDiceGroup {
    /// How many dice: a whole number or an expression.
    #[schemars(with = "Expression")]
    pub count: RawScalar,
    /// The die thrown: `d6`, `d10`… or a die declared under `dice`.
    pub die: String,
    /// Added to each die of the group (an expression).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub modifier: Option<RawScalar>,
    /// The lowest a modified die may score.
    #[serde(default)]
    pub floor: Option<i64>,
    /// Its name for people ("Artillery").
    #[serde(default)]
    pub label: Option<String>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// One side of an opposed roll.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OpposedSide")]
pub struct RawSide {
    /// The side's name, unique in the roll (`attacker`): the cases read `<side>_score`, and
    /// modifiers name it in `side:`.
    #[schemars(with = "Identifier")]
    pub side: String,
    /// Its groups of dice, at least one.
    pub dice: Vec<RawDiceGroup>,
}

/// Both sides roll; their scores (sums or hits) are compared by ordered cases.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Opposed")]
pub struct RawOpposed {
    /// The sides, at least two, each with its dice.
    pub sides: Vec<RawSide>,
    /// `hits` (the default; needs `hits` rules) or `sum`.
    #[serde(default)]
    pub score: RawPoolScore,
    /// The rules that count hits, when scoring hits.
    #[serde(default)]
    pub hits: Vec<RawHitRule>,
    /// Values worked out before the cases; they may read `<side>_score`.
    #[serde(default, rename = "let")]
    pub lets: Vec<RawDerived>,
    /// The cases in order; the first that holds gives the outcome, the last has no `when`.
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

/// An effect of an outcome or of a table's result code, in order. `side` names the role whose
/// counter it falls on.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Effect")]
#[schemars(extend("allOf" = [
    {
        "description": "A `follow_up` effect needs `procedure`.",
        "if": {"properties": {"kind": {"const": "follow_up"}}, "required": ["kind"]},
        "then": {"required": ["procedure"]}
    },
    {
        "description": "A `status` effect needs `status`.",
        "if": {"properties": {"kind": {"const": "status"}}, "required": ["kind"]},
        "then": {"required": ["status"]}
    },
    {
        "description": "An `adjust` effect needs `attribute` and `amount` (the delta).",
        "if": {"properties": {"kind": {"const": "adjust"}}, "required": ["kind"]},
        "then": {"required": ["attribute", "amount"]}
    },
    {
        "description": "A `set` effect needs `attribute` and exactly one of `amount` (a number) and `value`.",
        "if": {"properties": {"kind": {"const": "set"}}, "required": ["kind"]},
        "then": {
            "required": ["attribute"],
            "oneOf": [{"required": ["amount"]}, {"required": ["value"]}]
        }
    },
    {
        "description": "`value` is for `set` effects only.",
        "if": {"required": ["value"]},
        "then": {"properties": {"kind": {"const": "set"}}}
    },
    {
        "description": "`attribute` is for `adjust` and `set` effects only.",
        "if": {"required": ["attribute"]},
        "then": {"properties": {"kind": {"enum": ["adjust", "set"]}}}
    }
]))]
pub struct RawEffect {
    /// What it does: `sp_loss`, `status`, `retreat`, `advance`, `follow_up`, `eliminate`,
    /// `note`, `value`, `move`, `adjust`, `set`.
    #[schemars(with = "crate::schema::EffectKindName")]
    pub kind: String,
    /// It happens only when this holds (e.g. a survival roll only if the side took a hit).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub when: Option<RawScalar>,
    /// The role whose counter it falls on (`attacker`, `defender`, `army`, `state`…).
    #[serde(default)]
    pub side: Option<String>,
    /// A number, as an expression: the SPs lost, the hexes retreated, an `adjust`'s delta
    /// (`-florins_paid`), a `value`'s number; a table's numbered code reads its number as `n`
    /// (`A{n}`), an outcome its value as `value`.
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub amount: Option<RawScalar>,
    /// The status marker a `status` effect puts on (`disordered`).
    #[serde(default)]
    pub status: Option<String>,
    /// The procedure a `follow_up` effect queues (its id).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub procedure: Option<String>,
    /// The counter attribute an `adjust` or `set` effect changes (`treasury`, `in_revolt`): a
    /// unit or leader attribute of the ruleset; `adjust` needs a whole-number one.
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub attribute: Option<String>,
    /// The value a `set` effect gives a flag or a name (`true`, `anti_french`); a number is
    /// given by `amount`.
    #[serde(default)]
    pub value: Option<RawScalar>,
    /// Words for the umpire (a `note`; what a `value` is).
    #[serde(default)]
    pub text: Option<String>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// An outcome of a procedure: its code, its words and its effects.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Outcome")]
pub struct RawOutcome {
    /// The code the lookup gives (a table's cell, a threshold's `pass`/`fail`, a case's
    /// `outcome`), declared once.
    pub code: String,
    /// Its words ("Passed"); without it, the code with spaces for `_`.
    #[serde(default)]
    pub label: Option<String>,
    /// What it does, in order.
    #[serde(default)]
    pub effects: Vec<RawEffect>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// A procedure: inputs → derived values → modifiers → dice → lookup → outcome.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Procedure")]
pub struct RawProcedure {
    /// The procedure's id, unique in the ruleset: the command line (`umpire resolve qrs
    /// discipline_test`), steps and follow-ups name it.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name as printed ("The Discipline Test").
    pub name: String,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What it decides, in the text's words.
    #[serde(default)]
    pub description: Option<String>,
    /// How an ambiguity in it was read, shown with it as "Ruling: …" (a ruling's id in it is
    /// shown as the ruling's question).
    #[serde(default)]
    pub ruling: Option<String>,
    /// What the umpire enters, typed, in order.
    #[serde(default)]
    pub inputs: Vec<RawInput>,
    /// Values computed from the inputs (and the rulings), in order.
    #[serde(default)]
    pub derived: Vec<RawDerived>,
    /// The dice thrown, in dice notation (`d6`, `2d6`, `d10`, `d6+1`, `ceil(d6/2)`): required
    /// by a threshold; a table read by the roll needs it; pools and opposed rolls take their
    /// dice from the lookup instead.
    #[serde(default)]
    pub roll: Option<String>,
    /// The modifiers, each with its condition.
    #[serde(default)]
    pub modifiers: Vec<RawModifier>,
    /// How the outcome is found: exactly one of `table`, `threshold`, `pool`, `compute`,
    /// `opposed`.
    pub lookup: RawLookupSpec,
    /// The outcomes the lookup may give, each with its effects; every code the lookup names
    /// must be declared here.
    #[serde(default)]
    pub outcomes: Vec<RawOutcome>,
}

/// How a table's rows or columns are keyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawKeyKind {
    /// The (modified) die roll, in ranges (`"2-3"`, `"≤0"`, `"7+"`): clamped at the chart's
    /// edges (rows only; the rows' default).
    #[default]
    Roll,
    /// A name, matched exactly.
    Name,
    /// A whole number (a differential: `-2`, `+1`), matched exactly, clamped at the edges.
    Number,
    /// A number in ranges (brackets: Strength Points, distances).
    Bracket,
    /// An odds ratio (`"2:1"`, `"1:2"`), rounded down to the listed ratios.
    Ratio,
}

/// One header line of a table (tables with alternative header lines have several).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "HeaderLine")]
pub struct RawHeaderLine {
    /// The line's id, unique in the table: a lookup's `line:` expression gives it.
    pub id: String,
    /// Its name as the chart prints it ("Affecting Terrain line").
    #[serde(default)]
    pub label: Option<String>,
    /// The column headings, as many as every other line has, keyed as the table's
    /// `column_key` says.
    pub columns: Vec<RawScalar>,
    /// The headings as the chart prints them, one per column (when the keys are ids).
    #[serde(default)]
    pub column_labels: Option<Vec<String>>,
}

/// One row of a table.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Row")]
#[schemars(extend("oneOf" = [{"required": ["cells"]}, {"required": ["cell"]}]))]
pub struct RawRow {
    /// The row's heading, keyed as the table's `row_key` says: a roll or bracket range
    /// (`"2-3"`, `"≤0"`, `"7+"`, `5`), a name, a number or a ratio. Ranges are in ascending
    /// order without gaps; only the first may be open below and the last open above.
    pub key: RawScalar,
    /// The row's heading as the chart prints it (when the key is an id).
    #[serde(default)]
    pub label: Option<String>,
    /// One cell per column: a number, a word or result code as printed, or `"?"` for a cell
    /// the rule text does not give.
    #[serde(default)]
    pub cells: Option<Vec<RawScalar>>,
    /// The one cell of a table without columns.
    #[serde(default)]
    pub cell: Option<RawScalar>,
    /// The rule reference of this row, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// What a result code in a table's cells means.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Result")]
pub struct RawResult {
    /// Its words; `{n}` stands for the code's number ("Attacker loses {n} SP").
    #[serde(default)]
    pub label: Option<String>,
    /// What it does, in order (`amount: n` reads the code's number).
    #[serde(default)]
    pub effects: Vec<RawEffect>,
}

/// A table file: `tables/<ruleset>/<table>.yaml` (or a transcription of it in the user's
/// folder). Unknown cells are written `"?"`: never invented.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("not" = {"required": ["columns", "header_lines"]}))]
pub struct RawTable {
    /// The table's id, unique in the ruleset: lookups name it (`table: assault`), and a
    /// transcription's file is named after it.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its title as the chart prints it.
    pub title: String,
    /// The rule reference, as the printed rules number it ("Firing Table").
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from ("L136–148"; provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// Notes printed with the table (ids in them are shown as their names).
    #[serde(default)]
    pub notes: Option<String>,
    /// How an ambiguity in it was read, printed with it as "Ruling: …".
    #[serde(default)]
    pub ruling: Option<String>,
    /// The dice rolled on it, if it is read with a roll (`d6`, `2d6`).
    #[serde(default)]
    pub roll: Option<String>,
    /// How rows are found: `roll` (the default), `name`, `number`, `bracket` or `ratio`.
    #[serde(default)]
    pub row_key: RawKeyKind,
    /// How columns are found: `name` (the default when there are columns), `number`,
    /// `bracket` or `ratio` (not `roll`). Without columns the table has one.
    #[serde(default)]
    pub column_key: Option<RawKeyKind>,
    /// The column headings of a table with one header line (not with `header_lines`).
    #[serde(default)]
    pub columns: Option<Vec<RawScalar>>,
    /// The headings of `columns` as the chart prints them (when the keys are ids).
    #[serde(default)]
    pub column_labels: Option<Vec<String>>,
    /// Alternative header lines, each labelling every column (not with `columns`); a lookup
    /// picks one with `line:`.
    #[serde(default)]
    pub header_lines: Option<Vec<RawHeaderLine>>,
    /// The rows, at least one, each with one cell per column.
    pub rows: Vec<RawRow>,
    /// The result key: what each code written in the cells means, by code (`D`, `A{n}` for
    /// `A1`, `A2`…). When given, every cell must be made of these codes.
    #[serde(default)]
    pub results: BTreeMap<String, RawResult>,
    /// Result codes the text names for a table whose result key it does not give (`[F, P,
    /// D, "D*"]`): offered when a result is read off the physical chart.
    #[serde(default)]
    pub named_codes: Vec<String>,
    /// A real-time phase clock laid over this table (a megagame's timetable).
    #[serde(default)]
    pub clock: Option<RawClock>,
}

/// A real-time phase clock laid over a timetable (megagames): which Sequence-of-Play steps are
/// the clock's phases, and how long each lasts in each turn.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Clock")]
pub struct RawClock {
    /// The ids of the Sequence-of-Play steps that are the clock's phases, in order, each once.
    #[schemars(with = "Vec<Identifier>")]
    pub phases: Vec<String>,
    /// How many minutes before a phase ends the desk warns (default 2).
    #[serde(default)]
    pub warning_minutes: Option<u32>,
    /// The table's column that holds each turn's game years (`game_years`), read from the
    /// turn's `row`.
    #[serde(default)]
    pub years_column: Option<String>,
    /// Each turn's schedule, numbered from 1.
    pub turns: Vec<RawClockTurn>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// Notes on the clock.
    #[serde(default)]
    pub notes: Option<String>,
}

/// One turn of the clock: when its phases end (clock times) or how long each lasts (minutes).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "ClockTurn")]
#[schemars(extend("oneOf" = [{"required": ["phase_ends"]}, {"required": ["phase_minutes"]}]))]
pub struct RawClockTurn {
    /// The game turn, from 1, each once.
    #[schemars(range(min = 1))]
    pub turn: u32,
    /// The key of the table's row for this turn (its years are read from `years_column`).
    #[serde(default)]
    pub row: Option<String>,
    /// The scheduled start, `"HH:MM"` on the 24-hour clock (needed with `phase_ends`).
    #[serde(default)]
    pub starts: Option<String>,
    /// When each phase ends, `"HH:MM"`, one per phase, each later than the last.
    #[serde(default)]
    pub phase_ends: Option<Vec<String>>,
    /// How long each phase lasts, in whole minutes (at least 1), one per phase.
    #[serde(default)]
    pub phase_minutes: Option<Vec<u32>>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// How much of another side's counter a side sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawSightLevel {
    /// Not at all.
    Hidden,
    /// That something is there, and where (`as:` gives the words: "a face-down Capitano").
    Presence,
    /// Its name and place (and the markers on it).
    Identity,
    /// Everything but the attributes kept hidden.
    Full,
}

/// Whose counters a side sees as its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawOwner {
    /// The counters of its side (the default).
    #[default]
    Side,
    /// A megagame team's: its side's counters, its states' ledgers and forces, its characters.
    Team,
}

/// What kind of piece a condition asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawPieceKind {
    /// A combat or auxiliary unit.
    Unit,
    /// A leader.
    Leader,
    /// A marker.
    Marker,
    /// A state's ledger (megagames).
    State,
}

/// A condition on one counter as it stands: every key given must hold (at least one given).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Condition")]
#[schemars(extend("minProperties" = 1))]
pub struct RawCondition {
    /// The counter is this kind of piece: `unit`, `leader`, `marker` or `state`.
    #[serde(default)]
    pub kind: Option<RawPieceKind>,
    /// The counter carries this status marker (`hidden`).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub status: Option<String>,
    /// A unit or leader attribute that must have the value `is` (both or neither).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub attribute: Option<String>,
    /// The value `attribute` must have, of its type (a `choices` attribute: includes it).
    #[serde(default)]
    pub is: Option<RawScalar>,
    /// The counter is on the map (`true`) or off it (`false`: pools, cards, reinforcements).
    #[serde(default)]
    pub on_map: Option<bool>,
    /// The counter is in a hex next to an enemy's (hex maps only).
    #[serde(default)]
    pub adjacent_to_enemy: Option<bool>,
    /// Rulings whose reading in force must be the one given: `{revealed_composition:
    /// stays_known}`.
    #[serde(default)]
    pub ruling: Option<BTreeMap<String, String>>,
    /// At least one of these conditions holds (not empty).
    #[serde(default)]
    pub any: Option<Vec<RawCondition>>,
    /// This condition does not hold.
    #[serde(default)]
    pub not: Option<Box<RawCondition>>,
}

/// What a side sees of the other sides' counters that match a condition; the first entry that
/// matches decides.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CounterSight")]
#[schemars(extend("allOf" = [
    {
        "description": "`see: presence` needs `as:`, and only it takes one.",
        "if": {"properties": {"see": {"const": "presence"}}, "required": ["see"]},
        "then": {"required": ["as"]},
        "else": {"not": {"required": ["as"]}}
    }
]))]
pub struct RawCounterSight {
    /// The entry's id, unique in the `visibility:` section.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Which counters it covers; all of them without it.
    #[serde(default)]
    pub when: Option<RawCondition>,
    /// How much is seen: `hidden`, `presence`, `identity` or `full`.
    pub see: RawSightLevel,
    /// The words for a counter seen by its presence only ("a face-down Capitano"): required
    /// with `see: presence`, refused otherwise.
    #[serde(default, rename = "as")]
    pub shown_as: Option<String>,
    /// The rule it rests on, as the printed rules number it ("1.4", "D.1"); not a line of the
    /// text ("L194" is refused: that goes in `source:`).
    pub rule: String,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What the rule says, in short.
    #[serde(default)]
    pub text: Option<String>,
    /// How an ambiguity was read.
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Attributes kept from the other sides, unless a condition shows them.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "AttributeSight")]
pub struct RawAttributeSight {
    /// The entry's id, unique in the `visibility:` section.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// The unit or leader attributes kept hidden (at least one: `[order]`).
    #[schemars(with = "Vec<Identifier>")]
    pub attributes: Vec<String>,
    /// When they show after all; never without it.
    #[serde(default)]
    pub shown_when: Option<RawCondition>,
    /// The rule it rests on, as the printed rules number it (not a line of the text).
    pub rule: String,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What the rule says, in short.
    #[serde(default)]
    pub text: Option<String>,
    /// How an ambiguity was read.
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Procedures whose results (dice, outcome, effects and the counters affected) every side sees.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OpenResults")]
pub struct RawOpenResults {
    /// The entry's id, unique in the `visibility:` section.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// The ids of the procedures whose results are open.
    #[schemars(with = "Vec<Identifier>")]
    pub procedures: Vec<String>,
    /// The rule it rests on, as the printed rules number it (not a line of the text).
    pub rule: String,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What the rule says, in short.
    #[serde(default)]
    pub text: Option<String>,
    /// How an ambiguity was read.
    #[serde(default)]
    pub ruling: Option<String>,
}

/// Results seen by whoever sees all the counters involved (an open table).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "ResultsWithCounters")]
pub struct RawResultsWithCounters {
    /// The rule it rests on, as the printed rules number it (not a line of the text).
    pub rule: String,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What the rule says, in short.
    #[serde(default)]
    pub text: Option<String>,
}

/// Statuses set and cleared on the counters matching a condition, at a step of the Sequence
/// of Play (Forces in contact reveal their composition).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Reveal")]
#[schemars(extend("anyOf" = [{"required": ["set"]}, {"required": ["clear"]}]))]
pub struct RawReveal {
    /// The entry's id, unique in the `visibility:` section.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// The id of the Sequence-of-Play step (one without sub-steps) it is offered at.
    #[schemars(with = "Identifier")]
    pub step: String,
    /// Which counters.
    pub when: RawCondition,
    /// The statuses it sets (`[revealed]`).
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub set: Vec<String>,
    /// The statuses it clears (`[hidden]`).
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub clear: Vec<String>,
    /// The rule it rests on, as the printed rules number it (not a line of the text).
    pub rule: String,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What the rule says, in short.
    #[serde(default)]
    pub text: Option<String>,
    /// How an ambiguity was read.
    #[serde(default)]
    pub ruling: Option<String>,
}

/// The `visibility:` section: what each side may see of the others.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Visibility")]
pub struct RawVisibility {
    /// Whose counters a side sees whole as its own: `side` (the default) or `team`.
    #[serde(default)]
    pub own: RawOwner,
    /// What a side sees of another side's counter that no entry of `counters` matches.
    pub enemy: RawSightLevel,
    /// The rule the section rests on, as the printed rules number it (not a line of the text).
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What a side sees of the counters matching each condition; the first entry that matches
    /// decides.
    #[serde(default)]
    pub counters: Vec<RawCounterSight>,
    /// Attributes kept from the other sides.
    #[serde(default)]
    pub attributes: Vec<RawAttributeSight>,
    /// Procedures whose results every side sees.
    #[serde(default)]
    pub open_results: Vec<RawOpenResults>,
    /// Results seen by whoever sees every counter involved in full (an open table).
    #[serde(default)]
    pub results_with_counters: Option<RawResultsWithCounters>,
    /// Statuses set and cleared at steps of the Sequence of Play.
    #[serde(default)]
    pub reveals: Vec<RawReveal>,
    /// How a side's copy numbers the journal around the entries it may not see: `renumber`
    /// (the default) or `placeholder`.
    #[serde(default)]
    pub hidden_entries: RawHiddenEntries,
    /// Notes on the section.
    #[serde(default)]
    pub notes: Option<String>,
}

/// How a side's copy numbers the journal around the entries it may not see. Either way the
/// side sees its own numbering, 1, 2, 3… with no gap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawHiddenEntries {
    /// Nothing marks where hidden entries were (the default).
    #[default]
    Renumber,
    /// "Entries you may not see" where some were (once for a run, with no count): for rules
    /// that let a side know something happened.
    Placeholder,
}
