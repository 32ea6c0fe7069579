//! The `visibility:` section as written: what each side may see of the others' counters and
//! results, and how its copy numbers the journal.

use super::*;

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
