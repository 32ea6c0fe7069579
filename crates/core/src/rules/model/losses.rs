//! How a loss falls on a Force's counters: the ruleset's loss rules, and the counter filter an
//! input's `from:` and a loss rule share.

use super::*;

/// Which counters count, by their attributes: for each attribute named, the values that match.
/// A flag listed as `true` also reads a status marker of the same name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CounterFilter(pub BTreeMap<String, Vec<Value>>);

impl CounterFilter {
    /// Whether a counter with these attributes and statuses matches: Some(true) or
    /// Some(false), or None when an attribute it reads is not known yet (printed on the
    /// counter, not in the text).
    pub fn matches(
        &self,
        attributes: &BTreeMap<String, Value>,
        statuses: &std::collections::BTreeSet<String>,
        unknown: &[String],
    ) -> Option<bool> {
        for (attribute, values) in &self.0 {
            let hit = match attributes.get(attribute) {
                Some(v) => values.contains(v),
                None if unknown.contains(attribute) => return None,
                // A flag not carried: on when the status of its name is.
                None => {
                    let on = statuses.contains(attribute);
                    values.contains(&Value::Bool(on))
                }
            };
            if !hit {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Whether it names no attribute (matches every counter).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// How a loss is spread over the counters that absorb it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Distribute {
    /// As evenly as possible (the text says so).
    Evenly,
    /// The text does not say: proposed evenly, the choice the umpire's.
    Umpire,
}

/// One rule for spreading a Strength Point loss over a Force's units.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LossRule {
    /// The procedures it governs (empty: every procedure no other rule names).
    pub procedures: Vec<String>,
    /// How the loss is spread.
    pub distribute: Distribute,
    /// Units that never absorb it (any filter matching).
    pub never: Vec<CounterFilter>,
    /// Units that absorb only when no other can.
    pub last: Vec<CounterFilter>,
    /// Groups that absorb in turn, each until it has nothing left (empty: one group).
    pub order: Vec<CounterFilter>,
    /// A share of the loss that must fall on one group of the Force (12.1.7).
    pub group: Option<LossGroup>,
    /// A unit brought to 0 leaves the table.
    pub remove_at_zero: bool,
    /// What the umpire must still see to, in the text's words.
    pub note: Option<String>,
    /// Rule reference.
    pub rule: String,
    /// The lines of the text extraction (source details only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// The units a share of a loss must fall on: those whose `attribute` is at least the value
/// the resolution worked out for the role under `at_least`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LossGroup {
    /// The unit attribute (`troop_quality`).
    pub attribute: String,
    /// Role → the input or derived value of the resolution the attribute must reach.
    pub at_least: BTreeMap<String, String>,
    /// The rule reference.
    pub rule: String,
}

impl Ruleset {
    /// The rule that spreads a loss of procedure `procedure`: the first naming it, else the
    /// first naming none.
    pub fn loss_rule(&self, procedure: Option<&str>) -> Option<&LossRule> {
        procedure
            .and_then(|p| {
                self.losses
                    .iter()
                    .find(|r| r.procedures.iter().any(|q| q == p))
            })
            .or_else(|| self.losses.iter().find(|r| r.procedures.is_empty()))
    }

    /// The status marker `id`, if the ruleset declares it.
    pub fn status(&self, id: &str) -> Option<&StatusMarker> {
        self.statuses.iter().find(|s| s.id == id)
    }
}
