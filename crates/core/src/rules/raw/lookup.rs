//! How a procedure's outcome is found, as written: a table lookup, a threshold, a dice pool,
//! arithmetic cases or an opposed roll.

use super::*;

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
