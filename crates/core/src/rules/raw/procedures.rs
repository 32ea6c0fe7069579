//! A procedure as written: its inputs and where they are prefilled from, derived values,
//! modifiers, outcomes, and the procedure itself.

use super::*;

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
    /// Only the counters that match (`{troop_quality: [3]}`): the Strength Points of one
    /// Quality group.
    #[serde(default)]
    pub only: Option<super::RawCounterFilter>,
    /// Leaving out the counters that match any of these (`{demoralised: [true]}`,
    /// `{unit_type: [artillery]}`).
    #[serde(default)]
    pub unless: Vec<super::RawCounterFilter>,
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

/// A limit of one resolution a turn for one counter (`once_per_turn:`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OncePerTurn")]
pub struct RawOncePerTurn {
    /// The role whose counter it counts for (`state`).
    #[schemars(with = "Identifier")]
    pub role: String,
    /// The limit in the text's words.
    pub text: String,
    /// Rule reference.
    pub rule: String,
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
    /// At most one resolution a turn for the counter in this role (rr3: "A maximum of one
    /// card of each type can be played per turn", The Financial System).
    #[serde(default)]
    pub once_per_turn: Option<RawOncePerTurn>,
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
