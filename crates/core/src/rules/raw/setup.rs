//! The ruleset's set-up sections as written: the geometry and its places, counter attributes,
//! the Sequence of Play's steps, rulings, status markers, decks and cups, and custom dice.

use super::*;

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
    /// How far the map runs, where the text or the map gives it: on a hex map the first and
    /// last hex of its numbering (`{first: "0101", last: "2218"}`: columns 01–22, rows 01–18);
    /// on a free-form table its size in base units (`{x: [0, 72], y: [0, 48]}`). A move or a
    /// scenario position outside it is refused. Left out, any position of the map's form is
    /// accepted: Umpire never guesses a map's size.
    #[serde(default)]
    pub extent: Option<RawExtent>,
}

/// The `extent:` of a map: `first` and `last` on a hex map, `x` and `y` on a free-form table.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawExtent {
    /// A hex map: the hex of the lowest column and row, quoted (`"0101"`).
    #[serde(default)]
    pub first: Option<String>,
    /// A hex map: the hex of the highest column and row, quoted (`"2218"`).
    #[serde(default)]
    pub last: Option<String>,
    /// A free-form table: the lowest and highest x, in base units (`[0, 72]`).
    #[serde(default)]
    pub x: Option<[f64; 2]>,
    /// A free-form table: the lowest and highest y, in base units (`[0, 48]`).
    #[serde(default)]
    pub y: Option<[f64; 2]>,
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

impl RawPlaceKind {
    /// The validated kind.
    pub fn kind(self) -> crate::rules::PlaceKind {
        use crate::rules::PlaceKind as K;
        match self {
            RawPlaceKind::City => K::City,
            RawPlaceKind::FortifiedCity => K::FortifiedCity,
            RawPlaceKind::Fortress => K::Fortress,
            RawPlaceKind::FortifiedTown => K::FortifiedTown,
            RawPlaceKind::Town => K::Town,
            RawPlaceKind::Castle => K::Castle,
            RawPlaceKind::Village => K::Village,
            RawPlaceKind::Bridge => K::Bridge,
            RawPlaceKind::Port => K::Port,
            RawPlaceKind::Pass => K::Pass,
            RawPlaceKind::Difficult => K::Difficult,
            RawPlaceKind::Other => K::Other,
        }
    }
}

/// A place of the gazetteer, named once (a name the text gives two hexes is listed once per
/// hex).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPlace {
    /// Its name as printed ("Treviglio").
    pub name: String,
    /// Other names the texts print for the same place ("Trezzo d'Adda" for Trezzo, 3032):
    /// every command, condition and control entry that names it by one of them means it.
    #[serde(default)]
    pub also: Vec<String>,
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
    /// When the step happens, if not every turn: in words only ("from turn 3 on"), or as
    /// clauses the game state can tell (`{schedule: administrative_points}`, `{contact:
    /// true}`, `{optional: "18.4"}`…) with the words in `text`.
    #[serde(default)]
    pub when: Option<RawWhen>,
    /// Procedures the step offers, resolved when they happen; not items that hold the game.
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub offers: Vec<String>,
    /// Items the step holds for each Force on the map, each when its condition holds for it.
    #[serde(default)]
    pub per_force: Vec<RawPerForce>,
    /// An alternative entered only by choice, from a step that lists it in `enter`.
    #[serde(default)]
    pub branch: bool,
    /// The ids of steps the umpire may go to from here (branches, or an earlier step to repeat).
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub enter: Vec<String>,
    /// Its sub-steps repeat while this deck or cup (its id) still holds something.
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub repeat_until_empty: Option<String>,
    /// The game stops here even when nothing is to be resolved (table work to see).
    #[serde(default)]
    pub stop: bool,
    /// The scenario's victory conditions are judged at this step (a Victory Phase, an end of
    /// game check).
    #[serde(default)]
    pub victory: bool,
    /// Only after the last turn (the end of the scenario), never between turns.
    #[serde(default)]
    pub scenario_end: bool,
    /// A branch that fights a battle: its kind, which a battle won records and the scenarios'
    /// `battle_won` conditions read, and where its winner shows.
    #[serde(default)]
    pub battle: Option<RawBattleBranch>,
    /// The battle's result is known at this step (a step of a `battle` branch): who won, or
    /// that it was a draw, is recorded before the game moves on.
    #[serde(default)]
    pub battle_result: bool,
    /// Status markers that come off every counter when the game arrives at this step (ailsh
    /// C.3: "Activation markers removed").
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub clears: Vec<String>,
    /// Counter attributes set back when the game arrives at this step, in order (ailsh 5.3.4 on
    /// AP turns: every Order removed, an Attack turned to its Previous Attack side).
    #[serde(default)]
    pub resets: Vec<RawReset>,
    /// Its segments or steps, in order; a step without sub-steps is a leaf, where the game
    /// stops.
    #[serde(default)]
    pub steps: Vec<RawStep>,
}

/// The battle a branch fights.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "BattleBranch")]
pub struct RawBattleBranch {
    /// The kind of battle (`major_battle`), as scenarios' conditions name it.
    #[schemars(with = "Identifier")]
    pub kind: String,
    /// The battle's name in words ("Major Battle").
    pub name: String,
    /// Where its winner shows: the side of the counters in this role of this procedure
    /// resolved in the branch (the winner rolls on the Pursuit Table).
    #[serde(default)]
    pub winner: Option<RawBattleWinner>,
}

/// The role of a procedure whose counters are the battle's winner.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "BattleWinner")]
pub struct RawBattleWinner {
    /// The procedure's id (`pursuit`).
    #[schemars(with = "Identifier")]
    pub procedure: String,
    /// The role whose counters are the winner's (`pursuer`).
    #[schemars(with = "Identifier")]
    pub role: String,
}

/// When a step applies: words only, or clauses the game state can tell.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawWhen {
    /// Words only: the step applies every turn; the words say when it matters.
    Text(String),
    /// Clauses, every one of which must hold.
    Clauses(RawStepCondition),
}

/// Clauses of a condition on the game state; every clause given must hold.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStepCondition {
    /// When it applies, in the text's words (shown to the umpire).
    #[serde(default)]
    pub text: Option<String>,
    /// Only on the turns a scenario schedule of this procedure names (AP turns).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub schedule: Option<String>,
    /// Opposing Forces in contact (same or adjacent hex, same area), or none.
    #[serde(default)]
    pub contact: Option<bool>,
    /// An optional rule in play in this game (its number, one of `optional_rules`).
    #[serde(default)]
    pub optional: Option<String>,
    /// A status marker some counter on the map has (for a Force: one of its own).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub status: Option<String>,
    /// Procedures resolved at least `times` times this turn (for a Force: with it involved).
    #[serde(default)]
    pub resolved: Option<RawResolvedTimes>,
    /// The Force's Order is one of these (for a Force's item).
    #[serde(default)]
    pub orders: Vec<String>,
    /// Rulings set to an option in this game (`{game: advanced}`: only with the Advanced Rules).
    #[serde(default)]
    pub ruling: BTreeMap<String, String>,
}

/// An attribute set back on arriving at a step: on every counter that has it, to `to`; where
/// it held `keep.value`, the flag `keep.flag` is set first (an Attack Order turned to its
/// Previous Attack side).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReset {
    /// The attribute (`order`).
    #[schemars(with = "Identifier")]
    pub attribute: String,
    /// Its value after (`none`, `false`).
    pub to: RawScalar,
    /// A value kept as a flag: `{value: attack, flag: previous_attack}`.
    #[serde(default)]
    pub keep: Option<RawResetKeep>,
}

/// A value kept as a flag when its attribute is set back.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawResetKeep {
    /// The value (`attack`).
    pub value: String,
    /// The flag attribute set where the attribute held it (`previous_attack`).
    #[schemars(with = "Identifier")]
    pub flag: String,
}

/// Procedures resolved a number of times this turn.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawResolvedTimes {
    /// The procedures that count.
    #[schemars(with = "Vec<Identifier>")]
    pub procedures: Vec<String>,
    /// How many times at least.
    pub times: u32,
    /// Only resolutions whose applied result put this status on the Force (`activated`: the
    /// contests it won and activated in, not those it lost).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub marked: Option<String>,
}

/// An item a step holds for each Force.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPerForce {
    /// The procedure resolved for the Force.
    #[schemars(with = "Identifier")]
    pub procedure: String,
    /// Done only for the Force the procedure's applied result put this status on (`activated`:
    /// an activation contest counts for the Capitano that activated, not for the other).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub marked: Option<String>,
    /// Done when the Force fought a battle this turn (a resolution in a `battle` branch with one
    /// of its counters involved), or skipped with the reason it renounced; entering a battle
    /// branch is not held up by it (ailsh 7.8, 11.2: a Force in an enemy ZOC attacks or
    /// renounces).
    #[serde(default)]
    pub battle: bool,
    /// The item's label, if not the procedure's name.
    #[serde(default)]
    pub label: Option<String>,
    /// Whether the game waits for it.
    #[serde(default)]
    pub mandatory: bool,
    /// When it applies to a Force.
    #[serde(default)]
    pub when: Option<RawStepCondition>,
    /// The rule reference.
    #[serde(default)]
    pub rule: Option<String>,
    /// Inputs of the procedure this item implies, by input name, each a value of its type
    /// (`{trigger: second_activation}`: the Attrition after a second activation): opening the
    /// item at the desk fills them in, the Force in the procedure's Force role.
    #[serde(default)]
    pub inputs: BTreeMap<String, RawScalar>,
}

/// An optional rule a game may put in play.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOptionalRule {
    /// Its number as printed ("18.4").
    pub id: String,
    /// Its name as printed.
    pub name: String,
    /// The lines of the text extraction it comes from.
    #[serde(default)]
    pub source: Option<String>,
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
    /// `unit`: a result puts it on one unit of the Force, the owner's choice (a Combat Unit
    /// Demoralised); without it, a status given to a Force goes on every unit of it.
    #[serde(default)]
    pub falls_on: Option<RawFallsOn>,
}

/// What a status given to a Force falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "StatusFallsOn")]
pub enum RawFallsOn {
    /// Every unit of the Force.
    Force,
    /// One unit, the owner's choice.
    Unit,
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
