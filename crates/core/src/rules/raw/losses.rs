//! How a loss falls on a Force's counters, as written: the `losses:` rules of a ruleset, and
//! the counter filter an input's `from:` and a loss rule share.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use super::RawScalar;
use crate::schema::fields::Identifier;

/// Which counters count, by their attributes: `{troop_quality: [3]}`. A counter matches when,
/// for each attribute named, its value is one of those listed; a flag listed as `true` also
/// reads a status marker of the same name (`demoralised: [true]`).
pub type RawCounterFilter = BTreeMap<String, Vec<RawScalar>>;

/// How a Strength Point loss on a role holding several counters (a Force) is spread over
/// them, as the text says (`distribute: evenly`, 8: "as evenly as possible among the Combat
/// Units").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "LossDistribution")]
pub enum RawDistribute {
    /// As evenly as possible among the counters that absorb (the text says so).
    Evenly,
    /// The text says nothing of how: proposed evenly, and said to be the umpire's choice.
    Umpire,
}

/// One rule for spreading a Strength Point loss over the counters of a Force: which
/// procedures it governs, how the loss is spread, which units never absorb it, and whether a
/// unit brought to 0 leaves the game.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "LossRule")]
pub struct RawLossRule {
    /// The procedures whose `sp_loss` effects it governs; none: every procedure no other rule
    /// names.
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub procedures: Vec<String>,
    /// How the loss is spread.
    pub distribute: RawDistribute,
    /// Units that never absorb the loss (`{unit_type: [siege_artillery]}`), each filter on
    /// its own: a unit matching any of them is left out. Leaders never absorb a loss.
    #[serde(default)]
    pub never: Vec<RawCounterFilter>,
    /// Units that absorb only when no other unit of the Force can
    /// (`{unit_type: [artillery]}`).
    #[serde(default)]
    pub last: Vec<RawCounterFilter>,
    /// Groups that absorb in turn: the whole loss falls on the units of the first group
    /// until they have no Strength Points left, then on the next (11.4: "Artillery units
    /// before any other unit; Infantry units; and finally, Cavalry Units … Demoralised units
    /// are selected first"). A unit belongs to the first group it matches; units of no group
    /// absorb after them all. Spread as `distribute` says inside a group.
    #[serde(default)]
    pub order: Vec<RawCounterFilter>,
    /// A share of the loss that must fall on one group of the Force (12.1.7: "at least half
    /// of the SPs losses must be absorbed by Combat Units belonging to the Quality group used
    /// to determine the Quality of the Force").
    #[serde(default)]
    pub group: Option<RawLossGroup>,
    /// A unit brought to 0 is taken off the table, as the text says (1.3.2: "removed from the
    /// game").
    #[serde(default)]
    pub remove_at_zero: bool,
    /// What the umpire must still see to, in the text's words ("at least half of the losses
    /// from the Quality group that set the Force's Quality").
    #[serde(default)]
    pub note: Option<String>,
    /// The rule reference, as the printed rules number it.
    pub rule: String,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// The units a share of a loss must fall on: those whose attribute is at least the value the
/// resolution worked out for the role (the Quality that set the Force's Quality: its group,
/// the units downgraded into it included).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "LossGroup")]
pub struct RawLossGroup {
    /// The unit attribute (`troop_quality`).
    #[schemars(with = "Identifier")]
    pub attribute: String,
    /// For each role, the input or derived value of the resolution the attribute must reach
    /// (`{attacker: attacker_base_quality, defender: defender_base_quality}`).
    pub at_least: BTreeMap<String, String>,
    /// The share of the loss that must fall on the group, at least: `half` (rounded up).
    pub share: RawLossShare,
    /// The rule reference, as the printed rules number it.
    pub rule: String,
}

/// The share of a loss a group must take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "LossShare")]
pub enum RawLossShare {
    /// At least half, rounded up.
    Half,
}
