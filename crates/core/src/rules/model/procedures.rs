//! Procedures: inputs and where they come from, derived values, modifiers, the lookup of each shape (table, threshold, pool, compute, opposed), outcomes.

use super::*;

/// An input's type.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum InputKind {
    /// A whole number in a range.
    Int {
        /// Lowest allowed.
        min: i64,
        /// Highest allowed.
        max: i64,
    },
    /// One of several names.
    Choice {
        /// The names.
        choices: Vec<String>,
    },
    /// Yes or no.
    Flag,
}

/// A typed input of a procedure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputSpec {
    /// Name (snake_case, used in expressions and on the command line).
    pub name: String,
    /// Label for people.
    pub label: String,
    /// Type.
    #[serde(flatten)]
    pub kind: InputKind,
    /// Default value, if any.
    pub default: Option<Value>,
    /// When the input is needed at all (over the inputs above it); None: always.
    #[serde(skip)]
    pub needed_when: Option<Expr>,
    /// `needed_when` as written (for the JSON and the source details).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needed_when_source: Option<String>,
    /// The choices in the game's words (a choice written as an id → its words), from the
    /// input's `choice_labels:` or the heading of the table row or column keyed by it.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub choice_labels: BTreeMap<String, String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Help text.
    pub help: Option<String>,
    /// Where a game prefills it from: an attribute of the counters given for a role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<InputSource>,
}

/// The counters' attribute an input is prefilled from (`from: {role: army, attribute:
/// strength_thousands}` or `from: army.strength_thousands`). Numbers are summed over the role's
/// counters; names and flags must agree; a flag also reads a status marker of that name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InputSource {
    /// The role whose counters supply it (`army`, `state`, `area`…).
    pub role: String,
    /// The attribute.
    pub attribute: String,
    /// Only the counters that match (a Quality group).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only: Option<CounterFilter>,
    /// Leaving out the counters that match any of these (Demoralised, Artillery).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unless: Vec<CounterFilter>,
}

/// A choice as people read it: its words, not its id (`opportunity_charge` → "opportunity
/// charge"). One function for the desk, the CLI and the reports.
pub fn choice_words(choice: &str) -> String {
    choice.replace('_', " ")
}

impl InputSpec {
    /// A value of this input in words (a choice by its words; numbers and flags as they are).
    pub fn value_words(&self, value: &Value) -> String {
        match (&self.kind, value) {
            (InputKind::Choice { .. }, Value::Text(t)) => self.choice_label(t),
            (_, v) => v.to_string(),
        }
    }

    /// A choice in the game's words.
    pub fn choice_label(&self, choice: &str) -> String {
        self.choice_labels
            .get(choice)
            .cloned()
            .unwrap_or_else(|| key_words(&Key::Name(choice.to_string())))
    }

    /// Parses a typed value for this input.
    pub fn parse_value(&self, text: &str) -> Result<Value, String> {
        let t = text.trim();
        match &self.kind {
            InputKind::Int { min, max } => {
                let v: i64 = t.parse().map_err(|_| {
                    format!(
                        "input '{}' needs a whole number from {min} to {max}, got '{t}'",
                        self.name
                    )
                })?;
                if v < *min || v > *max {
                    return Err(format!(
                        "input '{}' must be from {min} to {max}, got {v}",
                        self.name
                    ));
                }
                Ok(Value::Int(v))
            }
            InputKind::Choice { choices } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(t))
                .map(|c| Value::Text(c.clone()))
                .ok_or_else(|| {
                    format!(
                        "input '{}' must be one of: {} (got '{t}')",
                        self.name,
                        choices.join(", ")
                    )
                }),
            InputKind::Flag => match t.to_ascii_lowercase().as_str() {
                "true" | "yes" | "y" | "1" | "on" => Ok(Value::Bool(true)),
                "false" | "no" | "n" | "0" | "off" => Ok(Value::Bool(false)),
                _ => Err(format!(
                    "input '{}' is a flag: use true or false, got '{t}'",
                    self.name
                )),
            },
        }
    }

    /// Checks a value already typed (from the desk or a journal).
    pub fn check(&self, value: &Value) -> Result<(), String> {
        match (&self.kind, value) {
            (InputKind::Int { min, max }, Value::Int(v)) if v >= min && v <= max => Ok(()),
            (InputKind::Choice { choices }, Value::Text(t)) if choices.iter().any(|c| c == t) => {
                Ok(())
            }
            (InputKind::Flag, Value::Bool(_)) => Ok(()),
            // Wrong type or out of range: let the parser phrase the problem.
            (_, other) => self.parse_value(&other.to_string()).map(|_| ()),
        }
    }

    /// The value used when none is given: the default, else the lowest/first/false.
    pub fn fallback(&self) -> Value {
        if let Some(d) = &self.default {
            return d.clone();
        }
        match &self.kind {
            InputKind::Int { min, .. } => Value::Int(*min),
            InputKind::Choice { choices } => {
                Value::Text(choices.first().cloned().unwrap_or_default())
            }
            InputKind::Flag => Value::Bool(false),
        }
    }
}

/// A named computed value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Derived {
    /// Name.
    pub name: String,
    /// Label.
    pub label: Option<String>,
    /// Expression.
    #[serde(skip)]
    pub expr: Expr,
    /// Expression as written.
    pub source: String,
    /// Computed and shown only when this holds (None: always). A value that belongs to one
    /// case of the procedure says so here, and what it reads is asked for only in that case.
    #[serde(skip)]
    pub when: Option<Expr>,
    /// `when` as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when_source: Option<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// A ruling on an ambiguity.
    pub ruling: Option<String>,
}

/// What a modifier changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppliesTo {
    /// The die roll (a DRM).
    Roll,
    /// The target number (threshold tests) or the `target_modifier` (compute).
    Target,
    /// Shifts the chart column right (+) or left (−).
    Column,
    /// The number of dice of a pool.
    Dice,
    /// Every die of a pool.
    EachDie,
}

impl AppliesTo {
    /// What a modifier changes, in words ("to the roll", "column shift").
    pub fn words(self) -> &'static str {
        match self {
            AppliesTo::Roll => "to the roll",
            AppliesTo::Target => "to the target",
            AppliesTo::Column => "column shift",
            AppliesTo::Dice => "to the number of dice",
            AppliesTo::EachDie => "to each die",
        }
    }
}

/// A table lookup (for an outcome or a modifier's value).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRef {
    /// The table's id.
    pub table: String,
    /// Row key expression (default: the modified roll).
    #[serde(skip)]
    pub row: Option<Expr>,
    /// Column key expression.
    #[serde(skip)]
    pub column: Option<Expr>,
    /// Ratio operands (attacker, defender).
    #[serde(skip)]
    pub ratio: Option<(Expr, Expr)>,
    /// Header line expression.
    #[serde(skip)]
    pub line: Option<Expr>,
}

/// Where a modifier's value comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum ModifierValue {
    /// An expression.
    Expr(Expr),
    /// A table cell.
    Table(TableRef),
}

impl TableRef {
    /// Its expressions: row, column, header line, and the two sides of a ratio.
    pub fn exprs(&self) -> Vec<&Expr> {
        let mut exprs: Vec<&Expr> = self
            .row
            .iter()
            .chain(&self.column)
            .chain(&self.line)
            .collect();
        if let Some((a, b)) = &self.ratio {
            exprs.push(a);
            exprs.push(b);
        }
        exprs
    }
}

/// A modifier with its condition and rule reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    /// Name as printed.
    pub name: String,
    /// Its value.
    pub value: ModifierValue,
    /// When it applies (always when None).
    pub when: Option<Expr>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    pub source_lines: Option<String>,
    /// What it changes.
    pub applies_to: AppliesTo,
    /// For opposed rolls: the side whose dice it changes.
    pub side: Option<String>,
    /// A ruling.
    pub ruling: Option<String>,
}

/// Threshold direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Success {
    /// Succeed when the modified roll is at least the target.
    AtLeast,
    /// Succeed when the modified roll is at most the target.
    AtMost,
}

/// A hit rule of a pool.
#[derive(Debug, Clone, PartialEq)]
pub struct HitRule {
    /// Exact faces that count.
    pub faces: Option<Vec<i64>>,
    /// Faces at least this count.
    pub at_least: Option<Expr>,
    /// Faces at most this count.
    pub at_most: Option<Expr>,
    /// How many matching dice make one scoring group (2 for "double 5").
    pub per: u32,
    /// Hits per group.
    pub hits: u32,
    /// At most this many hits from this rule, however many groups (a ruling's reading).
    pub max_hits: Option<u32>,
    /// Counts only when this holds (e.g. the ruling that selects the reading).
    pub when: Option<Expr>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    pub source_lines: Option<String>,
}

/// A group of dice of one side.
#[derive(Debug, Clone, PartialEq)]
pub struct DiceGroup {
    /// How many.
    pub count: Expr,
    /// Which die.
    pub die: String,
    /// Added to each die of the group.
    pub modifier: Option<Expr>,
    /// Lowest a modified die may score.
    pub floor: Option<i64>,
    /// Label.
    pub label: Option<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    pub source_lines: Option<String>,
}

/// One side of an opposed roll.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// Its name (`attacker`); cases read `<name>_score`.
    pub name: String,
    /// Its dice.
    pub groups: Vec<DiceGroup>,
}

/// One case of a compute lookup.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Condition (None: always).
    pub when: Option<Expr>,
    /// Outcome code.
    pub outcome: String,
    /// Outcome value.
    pub value: Option<Expr>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    pub source_lines: Option<String>,
}

/// How a procedure finds its outcome.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup {
    /// A table cell.
    Table(TableRef),
    /// A threshold test.
    Threshold {
        /// Target expression.
        target: Expr,
        /// Direction.
        success: Success,
        /// Natural rolls that always fail.
        natural_fail: Vec<i64>,
        /// Natural rolls that always pass.
        natural_pass: Vec<i64>,
        /// Outcome code on a pass.
        pass: String,
        /// Outcome code on a fail.
        fail: String,
    },
    /// A dice pool.
    Pool {
        /// Number of dice.
        count: Expr,
        /// The die.
        die: String,
        /// Scoring: hits or the sum.
        sum: bool,
        /// Hit rules.
        hits: Vec<HitRule>,
        /// Lowest a modified die may score.
        face_floor: Option<i64>,
        /// Outcome code (its value is the score).
        outcome: String,
    },
    /// Each side throws its dice; scores are compared by ordered cases.
    Opposed {
        /// The sides, in order.
        sides: Vec<Side>,
        /// Scoring: sum of the (modified) dice, or hits.
        sum: bool,
        /// Hit rules when scoring hits.
        hits: Vec<HitRule>,
        /// Values computed before the cases (may read `<side>_score`).
        lets: Vec<Derived>,
        /// The cases.
        cases: Vec<Case>,
    },
    /// Ordered cases after named arithmetic.
    Compute {
        /// Values computed after the modifiers, before the cases.
        lets: Vec<Derived>,
        /// The cases; the first that holds gives the outcome.
        cases: Vec<Case>,
    },
}

impl Lookup {
    /// The values a computed lookup works out before its cases (`let:`); none for the others.
    pub fn lets(&self) -> &[Derived] {
        match self {
            Lookup::Compute { lets, .. } => lets,
            _ => &[],
        }
    }

    /// Every expression of the lookup, in order: a table's row, column, header line and ratio;
    /// a threshold's target; a pool's or each opposed group's count and modifier, the hit
    /// rules, the `let`s and the cases.
    pub fn exprs(&self) -> Vec<&Expr> {
        let mut exprs: Vec<&Expr> = Vec::new();
        match self {
            Lookup::Table(r) => exprs.extend(r.exprs()),
            Lookup::Threshold { target, .. } => exprs.push(target),
            Lookup::Pool { count, hits, .. } => {
                exprs.push(count);
                for h in hits {
                    exprs.extend(h.at_least.iter());
                    exprs.extend(h.at_most.iter());
                }
            }
            Lookup::Opposed {
                sides,
                hits,
                lets,
                cases,
                ..
            } => {
                for s in sides {
                    for g in &s.groups {
                        exprs.push(&g.count);
                        exprs.extend(g.modifier.iter());
                    }
                }
                for h in hits {
                    exprs.extend(h.at_least.iter());
                    exprs.extend(h.at_most.iter());
                }
                exprs.extend(lets.iter().map(|l| &l.expr));
                for c in cases {
                    exprs.extend(c.when.iter());
                    exprs.extend(c.value.iter());
                }
            }
            Lookup::Compute { lets, cases } => {
                exprs.extend(lets.iter().map(|l| &l.expr));
                for c in cases {
                    exprs.extend(c.when.iter());
                    exprs.extend(c.value.iter());
                }
            }
        }
        exprs
    }

    /// Every name the lookup's expressions read.
    pub fn reads(&self) -> Vec<&str> {
        self.exprs()
            .into_iter()
            .flat_map(|e| e.reads().iter().map(String::as_str))
            .collect()
    }

    /// A short description: `table assault`, `threshold`, `pool of d6`, `opposed`, `compute`.
    pub fn describe(&self) -> String {
        match self {
            Lookup::Table(t) => format!("table {}", t.table),
            Lookup::Threshold { .. } => "threshold".into(),
            Lookup::Pool { die, .. } => format!("pool of {die}"),
            Lookup::Opposed { sides, .. } => format!(
                "opposed ({})",
                sides
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" vs ")
            ),
            Lookup::Compute { .. } => "compute".into(),
        }
    }

    /// Whether the lookup reads individual dice (`die_1`, `die_2`, …), not only the total.
    pub fn reads_faces(&self) -> bool {
        self.reads().iter().any(|n| n.starts_with("die_"))
    }
}

/// An outcome declared by a procedure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutcomeSpec {
    /// Code.
    pub code: String,
    /// Label.
    pub label: String,
    /// Effects in order.
    pub effects: Vec<EffectSpec>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// A procedure: inputs → modifiers → dice → lookup → outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Procedure {
    /// Id.
    pub id: String,
    /// At most one resolution a turn for the counter in a role: (role, the text's words, rule).
    pub once_per_turn: Option<(String, String, String)>,
    /// Name.
    pub name: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    pub source_lines: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// A ruling on an ambiguity.
    pub ruling: Option<String>,
    /// Inputs.
    pub inputs: Vec<InputSpec>,
    /// Derived values.
    pub derived: Vec<Derived>,
    /// Dice (absent for pools, whose dice come from the pool).
    pub roll: Option<DiceExpr>,
    /// Modifiers.
    pub modifiers: Vec<Modifier>,
    /// Lookup.
    pub lookup: Lookup,
    /// Declared outcomes.
    pub outcomes: Vec<OutcomeSpec>,
}

impl Procedure {
    /// An input by name.
    pub fn input(&self, name: &str) -> Option<&InputSpec> {
        self.inputs.iter().find(|i| i.name == name)
    }

    /// A declared outcome by code.
    pub fn outcome(&self, code: &str) -> Option<&OutcomeSpec> {
        self.outcomes.iter().find(|o| o.code == code)
    }
}
