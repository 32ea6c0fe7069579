//! Validated ruleset types: what the resolver works with.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::expr::{Expr, Value};
use crate::dice::{DiceExpr, DieSet};

/// A number range for die rolls and brackets; `None` is open-ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Range {
    /// Lowest value included (None: no lower bound).
    pub low: Option<i64>,
    /// Highest value included (None: no upper bound).
    pub high: Option<i64>,
}

impl Range {
    /// Whether `v` is in the range.
    pub fn contains(&self, v: i64) -> bool {
        self.low.is_none_or(|l| v >= l) && self.high.is_none_or(|h| v <= h)
    }

    /// Parses `3`, `2-3`, `2–3`, `≤0`, `<=0`, `0-`, `7+`, `≥7`, `>=7`.
    pub fn parse(text: &str) -> Option<Range> {
        let t = text.trim().replace(['–', '—'], "-").replace(' ', "");
        let num = |s: &str| s.replace('−', "-").parse::<i64>().ok();
        if let Some(rest) = t.strip_prefix("<=").or_else(|| t.strip_prefix('≤')) {
            return Some(Range {
                low: None,
                high: Some(num(rest)?),
            });
        }
        if let Some(rest) = t.strip_prefix(">=").or_else(|| t.strip_prefix('≥')) {
            return Some(Range {
                low: Some(num(rest)?),
                high: None,
            });
        }
        if let Some(rest) = t.strip_suffix('+') {
            return Some(Range {
                low: Some(num(rest)?),
                high: None,
            });
        }
        if let Some(v) = num(&t) {
            return Some(Range {
                low: Some(v),
                high: Some(v),
            });
        }
        if let Some(rest) = t.strip_suffix('-')
            && let Some(v) = num(rest)
        {
            return Some(Range {
                low: None,
                high: Some(v),
            });
        }
        // a-b, where a may be negative: split at a '-' that is not the first character.
        let split = t.char_indices().skip(1).find(|&(_, c)| c == '-')?.0;
        let (a, b) = (num(&t[..split])?, num(&t[split + 1..])?);
        (a <= b).then_some(Range {
            low: Some(a),
            high: Some(b),
        })
    }
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.low, self.high) {
            (Some(l), Some(h)) if l == h => write!(f, "{l}"),
            (Some(l), Some(h)) => write!(f, "{l}-{h}"),
            (None, Some(h)) => write!(f, "≤{h}"),
            (Some(l), None) => write!(f, "{l}+"),
            (None, None) => write!(f, "any"),
        }
    }
}

/// An odds ratio `a:b` as printed on a chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ratio {
    /// Attacker's side.
    pub attacker: u32,
    /// Defender's side.
    pub defender: u32,
}

impl Ratio {
    /// Parses `2:1`, `1:2`, `3-2`.
    pub fn parse(text: &str) -> Option<Ratio> {
        let t = text.trim();
        let (a, b) = t.split_once(':').or_else(|| t.split_once('-'))?;
        let (attacker, defender) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        (attacker > 0 && defender > 0).then_some(Ratio { attacker, defender })
    }

    /// Strength of the ratio as a signed comparable number: `a/b` for ratios in the attacker's
    /// favour, `-(b/a)` against; 1:1 is 1. Compared as exact fractions via cross-multiplication.
    pub fn favours_attacker(&self) -> bool {
        self.attacker >= self.defender
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.attacker, self.defender)
    }
}

/// How a row or column is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyKind {
    /// The (modified) die roll, in ranges; clamped at the chart's edges.
    Roll,
    /// A name, matched exactly.
    Name,
    /// A number (e.g. a Quality differential), matched exactly, clamped at the edges.
    Number,
    /// A number in ranges (brackets), e.g. Strength Points or LOC distance.
    Bracket,
    /// An odds ratio, rounded down to the listed ratios.
    Ratio,
}

/// A row or column heading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Key {
    /// A range of numbers (Roll, Bracket).
    Range(Range),
    /// A name.
    Name(String),
    /// A number.
    Number(i64),
    /// A ratio.
    Ratio(Ratio),
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Range(r) => write!(f, "{r}"),
            Key::Name(n) => f.write_str(n),
            Key::Number(n) if *n > 0 => write!(f, "+{n}"),
            Key::Number(n) => write!(f, "{n}"),
            Key::Ratio(r) => write!(f, "{r}"),
        }
    }
}

/// A table cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Cell {
    /// The value is not in the text (printed on a chart sheet we do not have).
    Missing,
    /// A value or result code as printed.
    Value(String),
}

impl Cell {
    /// The cell as printed, `?` when missing.
    pub fn text(&self) -> &str {
        match self {
            Cell::Missing => "?",
            Cell::Value(v) => v,
        }
    }
}

/// A table row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Its key.
    pub key: Key,
    /// Its heading as the chart prints it, when the key is an id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// One cell per column.
    pub cells: Vec<Cell>,
    /// Rule reference for this row.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// A header line: the keys of every column (a table may have alternative lines).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeaderLine {
    /// The line's id (`default` for a single line).
    pub id: String,
    /// Its label.
    pub label: Option<String>,
    /// One key per column.
    pub keys: Vec<Key>,
    /// The headings as the chart prints them, one per column (empty: the keys are the words).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub column_labels: Vec<String>,
}

/// The kinds of effect an outcome can have. Written in the YAML and kept in the journal as
/// its snake_case id (`sp_loss`), so the journal's JSON is the same as when the kind was a
/// string; in the code a kind is a variant, and every `match` on it names them all, so a new
/// kind that some code forgets is a compile error rather than a silently ignored case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    /// A whole-number attribute changed by `amount` (a ledger's treasury, an army's Arrears).
    Adjust,
    /// An attribute set to `value`, or to `amount`.
    Set,
    /// Strength Points lost by a side (`amount`).
    SpLoss,
    /// A status marker put on (`status`).
    Status,
    /// A retreat (`amount` hexes or areas, when given).
    Retreat,
    /// An advance.
    Advance,
    /// Another procedure to resolve (`procedure`).
    FollowUp,
    /// A counter eliminated.
    Eliminate,
    /// Words for the umpire (`text`).
    Note,
    /// A number the result carries (`amount`), said with `text`.
    Value,
    /// A counter placed or moved as the text says.
    Move,
}

impl EffectKind {
    /// Every kind, in the order the YAML reference lists them.
    pub const ALL: [EffectKind; 11] = [
        EffectKind::Adjust,
        EffectKind::Set,
        EffectKind::SpLoss,
        EffectKind::Status,
        EffectKind::Retreat,
        EffectKind::Advance,
        EffectKind::FollowUp,
        EffectKind::Eliminate,
        EffectKind::Note,
        EffectKind::Value,
        EffectKind::Move,
    ];

    /// The id the YAML and the journal write (`sp_loss`).
    pub fn id(self) -> &'static str {
        match self {
            EffectKind::Adjust => "adjust",
            EffectKind::Set => "set",
            EffectKind::SpLoss => "sp_loss",
            EffectKind::Status => "status",
            EffectKind::Retreat => "retreat",
            EffectKind::Advance => "advance",
            EffectKind::FollowUp => "follow_up",
            EffectKind::Eliminate => "eliminate",
            EffectKind::Note => "note",
            EffectKind::Value => "value",
            EffectKind::Move => "move",
        }
    }

    /// The kind of that id.
    pub fn from_id(id: &str) -> Option<EffectKind> {
        EffectKind::ALL.into_iter().find(|k| k.id() == id)
    }
}

impl std::fmt::Display for EffectKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// What an outcome does.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EffectSpec {
    /// The kind.
    pub kind: EffectKind,
    /// Only when this holds (e.g. a survival roll only if the side took a hit).
    #[serde(skip)]
    pub when: Option<Expr>,
    /// Which side it falls on (attacker, defender, …).
    pub side: Option<String>,
    /// An amount, as an expression.
    #[serde(skip)]
    pub amount: Option<Expr>,
    /// The amount expression as written.
    pub amount_source: Option<String>,
    /// A status to set.
    pub status: Option<String>,
    /// A procedure to queue.
    pub procedure: Option<String>,
    /// The counter attribute an `adjust` or `set` effect changes (a ledger's `treasury`, an
    /// army's `arrears`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute: Option<String>,
    /// The value a `set` effect gives the attribute, when it is not a number computed by
    /// `amount` (a flag or a name: `in_revolt: true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Free text.
    pub text: Option<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// The meaning of a result code in a table, possibly with a number: `A{n}` matches `A2`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultPattern {
    /// The pattern as written.
    pub pattern: String,
    /// Text before `{n}` (or the whole code).
    pub prefix: String,
    /// Text after `{n}`.
    pub suffix: String,
    /// Whether the pattern captures a number.
    pub numbered: bool,
    /// A label, with `{n}` replaced on use.
    pub label: Option<String>,
    /// Effects in order.
    pub effects: Vec<EffectSpec>,
}

impl ResultPattern {
    /// The captured number if `token` matches this pattern (`Some(None)` for an exact match).
    pub fn matches(&self, token: &str) -> Option<Option<i64>> {
        if !self.numbered {
            return (token == self.prefix).then_some(None);
        }
        let middle = token
            .strip_prefix(&self.prefix)?
            .strip_suffix(&self.suffix)?;
        middle.parse::<i64>().ok().map(Some)
    }
}

/// A table, as transcribed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Its id.
    pub id: String,
    /// The title printed on the chart.
    pub title: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Notes printed with the table.
    pub notes: Option<String>,
    /// A ruling on an ambiguity.
    pub ruling: Option<String>,
    /// The dice rolled on it, if it is read with a roll.
    pub roll: Option<String>,
    /// How rows are found.
    pub row_key: KeyKind,
    /// How columns are found (None: one column).
    pub column_key: Option<KeyKind>,
    /// The header lines (one, or alternatives).
    pub lines: Vec<HeaderLine>,
    /// The rows.
    pub rows: Vec<Row>,
    /// Result codes.
    pub results: Vec<ResultPattern>,
    /// Result codes the text names for a table whose code list it does not give (the
    /// Discipline Table's F, P, D, D*): offered when a result is read off the physical chart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub named_codes: Vec<String>,
    /// The file it came from.
    pub file: String,
    /// A real-time phase clock laid over this table (a megagame's timetable).
    pub clock: Option<Clock>,
}

/// A megagame's real-time phase clock, from a timetable table's `clock:` section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Clock {
    /// The Sequence-of-Play step ids that are the clock's phases, in order.
    pub phases: Vec<String>,
    /// How long before a phase ends the desk warns, in seconds.
    pub warning_seconds: u32,
    /// Each turn's phases.
    pub turns: Vec<ClockTurn>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Notes.
    pub notes: Option<String>,
}

/// One turn of a phase clock.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClockTurn {
    /// Game turn, from 1.
    pub turn: u32,
    /// The turn's game years (from the timetable row), e.g. "1524 - 1528".
    pub years: Option<String>,
    /// Scheduled start, "HH:MM", when the timetable gives one.
    pub starts: Option<String>,
    /// Each phase's length, in seconds, in the order of [`Clock::phases`].
    pub phase_seconds: Vec<u32>,
    /// Scheduled phase ends, "HH:MM", when given.
    pub phase_ends: Vec<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

impl Clock {
    /// The schedule of one turn.
    pub fn turn(&self, turn: u32) -> Option<&ClockTurn> {
        self.turns.iter().find(|t| t.turn == turn)
    }

    /// The last turn the clock runs.
    pub fn last_turn(&self) -> u32 {
        self.turns.iter().map(|t| t.turn).max().unwrap_or(0)
    }
}

/// A key as people read it: a name written as an id (`other_troops`) in words ("Other
/// troops"); anything else as printed.
pub fn key_words(key: &Key) -> String {
    match key {
        Key::Name(n) if is_id_like(n) => {
            let words = n.replace('_', " ");
            let mut chars = words.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_uppercase().collect::<String>() + chars.as_str()
            })
        }
        other => other.to_string(),
    }
}

/// Whether a word is written as an id (lower case, digits and underscores, with an underscore
/// or longer than a printed code): `leader_lost`, `garrison`; not `A1D3`, `D`, `NO EFFECT`.
pub fn is_id_like(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && (s.contains('_') || s.len() > 3)
}

impl Table {
    /// The result codes the text gives for this table, each with its words: its result key
    /// (a numbered code as its pattern, "D{n}"), then the codes the text names without a key
    /// (`named_codes`). What a desk offers when a result is read off the physical chart.
    pub fn given_codes(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .results
            .iter()
            .map(|r| {
                (
                    r.pattern.clone(),
                    r.label.clone().unwrap_or_default().replace("{n}", "n"),
                )
            })
            .collect();
        for c in &self.named_codes {
            if !out.iter().any(|(x, _)| x == c) {
                out.push((c.clone(), String::new()));
            }
        }
        out
    }

    /// A row's heading as the chart prints it.
    pub fn row_words(&self, row: &Row) -> String {
        row.label.clone().unwrap_or_else(|| key_words(&row.key))
    }

    /// The heading of column `c` of header line `line`, as the chart prints it.
    pub fn column_words(&self, line: usize, c: usize) -> String {
        let Some(l) = self.lines.get(line) else {
            return String::new();
        };
        l.column_labels
            .get(c)
            .cloned()
            .or_else(|| l.keys.get(c).map(key_words))
            .unwrap_or_default()
    }

    /// The heading of the column keyed `key` (in any header line), as the chart prints it.
    pub fn column_words_for(&self, key: &str) -> String {
        for (i, l) in self.lines.iter().enumerate() {
            if let Some(c) = l.keys.iter().position(|k| k.to_string() == key) {
                return self.column_words(i, c);
            }
        }
        key_words(&Key::Name(key.to_string()))
    }

    /// The heading of the row keyed `key`, as the chart prints it.
    pub fn row_words_for(&self, key: &str) -> String {
        self.rows
            .iter()
            .find(|r| r.key.to_string() == key)
            .map_or_else(
                || key_words(&Key::Name(key.to_string())),
                |r| self.row_words(r),
            )
    }

    /// A cell as the chart prints it: a result code written as an id (`leader_lost`) by its
    /// label from the result key; a printed code (`A1D3`, `D`) as it is.
    pub fn cell_words(&self, cell: &Cell) -> String {
        match cell {
            Cell::Missing => "?".to_string(),
            Cell::Value(v) if is_id_like(v) => self
                .results
                .iter()
                .find(|r| !r.numbered && r.prefix == *v)
                .and_then(|r| r.label.clone())
                .unwrap_or_else(|| key_words(&Key::Name(v.clone()))),
            Cell::Value(v) => v.clone(),
        }
    }

    /// Number of columns.
    pub fn column_count(&self) -> usize {
        self.rows.first().map_or(0, |r| r.cells.len())
    }

    /// The cells that are missing, as (row key, column key of the first line).
    pub fn missing_cells(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for row in &self.rows {
            for (c, cell) in row.cells.iter().enumerate() {
                if *cell == Cell::Missing {
                    let col = self
                        .lines
                        .first()
                        .and_then(|l| l.keys.get(c))
                        .map_or_else(|| "result".to_string(), |k| k.to_string());
                    out.push((row.key.to_string(), col));
                }
            }
        }
        out
    }

    /// Whether every cell is known.
    pub fn is_complete(&self) -> bool {
        self.rows
            .iter()
            .all(|r| r.cells.iter().all(|c| *c != Cell::Missing))
    }
}

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

/// How positions are given on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GeometryKind {
    /// A hex map with numbered hexes ("0114").
    Hex,
    /// Named areas with adjacency.
    Area,
    /// A free-form table; distances measured in base units.
    Free,
}

/// The game's geometry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Geometry {
    /// Kind.
    pub kind: GeometryKind,
    /// Digits of a hex id (4 for "0114").
    pub hex_id_digits: Option<u32>,
    /// Unit of distance for free-form tables (BU).
    pub distance_unit: Option<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// The gazetteer: the places the text names, with their hex on a hex map or their group
    /// on an area map, drawn on the desk's map and named wherever a position is said.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<Place>,
}

/// A status marker the text names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatusMarker {
    /// Id, as effects and the journal name it (`disrupted`).
    pub id: String,
    /// As printed ("Disrupted").
    pub label: String,
    /// Rule reference, as the rulebook numbers it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The lines of the text extraction (source details only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// What it means, in the text's terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

/// A deck of cards or a cup of markers, drawn without replacement: what the text says is in
/// it, and what it does not say.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeckSpec {
    /// Id, as the journal names it (`command_markers`).
    pub id: String,
    /// As printed ("Command markers").
    pub name: String,
    /// Cards or markers.
    pub kind: DeckKind,
    /// What is in it at the start, as the text gives it (empty when the text does not).
    pub items: Vec<DeckItem>,
    /// How many it holds, when the text says (Gradisca: "a deck of 36 cards").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// What the text does not give, with the rule: the umpire fills the deck in the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// When what was drawn goes back in.
    pub refill: Refill,
    /// Draws are secret (a hand of cards): only Control and the drawing side see them.
    pub hidden: bool,
    /// Each side has its own (arquebus: "each player places his 8 possible Seizure Counters
    /// in a cup").
    pub per_side: bool,
    /// Rule reference, as the rulebook numbers it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The lines of the text extraction (source details only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// How it is used, in the text's terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl DeckSpec {
    /// "deck" or "cup", for sentences.
    pub fn noun(&self) -> &'static str {
        match self.kind {
            DeckKind::Deck => "deck",
            DeckKind::Cup => "cup",
        }
    }

    /// "card" or "marker", for sentences.
    pub fn item_noun(&self) -> &'static str {
        match self.kind {
            DeckKind::Deck => "card",
            DeckKind::Cup => "marker",
        }
    }
}

/// Cards (a deck, shuffled) or markers (a cup, drawn blind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckKind {
    /// A deck of cards.
    Deck,
    /// A cup (or any opaque container) of markers.
    Cup,
}

/// When drawn cards or markers go back in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refill {
    /// Never by itself (the umpire returns or refills by hand when the rules say).
    Never,
    /// When a draw finds it empty, the drawn ones are shuffled back in first (Gradisca's
    /// deck: the discards "mix them and reform the deck").
    WhenEmpty,
    /// At a moment the rules name (Gradisca's cup, each turn): the umpire refills it.
    ByHand,
}

/// One kind of card or marker and how many of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckItem {
    /// Its name, as printed.
    pub name: String,
    /// How many.
    pub count: u32,
}

/// What a place is, where the text says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    /// A city.
    City,
    /// A fortified city.
    FortifiedCity,
    /// A fortress.
    Fortress,
    /// A fortified town (a castle).
    FortifiedTown,
    /// A town.
    Town,
    /// A castle.
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

impl PlaceKind {
    /// The kind in words ("fortified city").
    pub fn words(self) -> &'static str {
        match self {
            PlaceKind::City => "city",
            PlaceKind::FortifiedCity => "fortified city",
            PlaceKind::Fortress => "fortress",
            PlaceKind::FortifiedTown => "fortified town",
            PlaceKind::Town => "town",
            PlaceKind::Castle => "castle",
            PlaceKind::Village => "village",
            PlaceKind::Bridge => "bridge",
            PlaceKind::Port => "port",
            PlaceKind::Pass => "pass",
            PlaceKind::Difficult => "difficult terrain",
            PlaceKind::Other => "place",
        }
    }

    /// Whether the place is walled (drawn with a bastion mark).
    pub fn fortified(self) -> bool {
        matches!(
            self,
            PlaceKind::FortifiedCity
                | PlaceKind::Fortress
                | PlaceKind::FortifiedTown
                | PlaceKind::Castle
        )
    }
}

/// A place the rule text names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Place {
    /// Its name as printed ("Treviglio").
    pub name: String,
    /// Its hex on a hex map ("2834").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// The group the text puts an area in ("Istria").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// What it is, where the text says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<PlaceKind>,
    /// Where the text names it, as the rulebook numbers it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The lines of the text extraction (source details only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// A note (a name the text gives two hexes, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Type of a unit or leader attribute.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AttributeKind {
    /// A whole number in a range.
    Int {
        /// Lowest.
        min: Option<i64>,
        /// Highest.
        max: Option<i64>,
    },
    /// One of several names.
    Choice {
        /// The names.
        choices: Vec<String>,
    },
    /// Any number of several names (e.g. special features I/S/A/C/W).
    Choices {
        /// The names.
        choices: Vec<String>,
    },
    /// Yes or no.
    Flag,
    /// Free text (a name).
    Text,
}

/// An attribute of a unit or leader.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttributeSpec {
    /// Name.
    pub name: String,
    /// Label.
    pub label: String,
    /// Type.
    #[serde(flatten)]
    pub kind: AttributeKind,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Help.
    pub help: Option<String>,
}

/// A phase, segment or step of the Sequence of Play.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Procedures that belong to this step.
    pub procedures: Vec<String>,
    /// Decks or cups drawn from at this step (their ids).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decks: Vec<String>,
    /// Whether its procedures must be resolved before moving on.
    pub mandatory: bool,
    /// When the step happens, if not every turn (text).
    pub when: Option<String>,
    /// Only at the end of the scenario (after its last turn), never between turns.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub scenario_end: bool,
    /// Sub-steps.
    pub steps: Vec<Step>,
}

/// A reading of an ambiguous rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RulingOption {
    /// Id.
    pub id: String,
    /// What it means.
    pub text: String,
}

/// A ruling the umpire can switch; expressions read it as `ruling_<id>`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ruling {
    /// Id.
    pub id: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// The ambiguity.
    pub text: String,
    /// The readings.
    pub options: Vec<RulingOption>,
    /// The reading in force.
    pub selected: String,
}

/// A validated ruleset.
#[derive(Debug, Clone, PartialEq)]
pub struct Ruleset {
    /// Id (`ailsh`, `qrs`, …).
    pub id: String,
    /// Name.
    pub name: String,
    /// Source text.
    pub source: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Dice it may name.
    pub dice: DieSet,
    /// Procedures in file order.
    pub procedures: Vec<Procedure>,
    /// Tables by id.
    pub tables: BTreeMap<String, Table>,
    /// Geometry.
    pub geometry: Option<Geometry>,
    /// The unit attribute that holds a counter's strength (losses reduce it).
    pub strength_attribute: Option<String>,
    /// The unit attribute that names a counter's type (its symbol on the desk's counter face).
    pub type_attribute: Option<String>,
    /// Unit attributes.
    pub units: Vec<AttributeSpec>,
    /// Leader attributes.
    pub leaders: Vec<AttributeSpec>,
    /// Sequence of Play.
    pub sequence_of_play: Vec<Step>,
    /// Rulings the umpire can switch.
    pub rulings: Vec<Ruling>,
    /// The status markers the text names (Disrupted, Besieged…): what the desk offers to put
    /// on a counter by hand, with their rules.
    pub statuses: Vec<StatusMarker>,
    /// Decks of cards and cups of markers drawn without replacement (the `decks:` section).
    pub decks: Vec<DeckSpec>,
    /// What each side may see of the others (the `visibility:` section).
    pub visibility: Visibility,
    /// Notes.
    pub notes: Option<String>,
}

impl Ruleset {
    /// Prose written with ids in it (a table's notes: "see ruling terrain_1bu", "the column
    /// rows_in_order") in the game's words: each id of a ruling, table, procedure, or of a row
    /// or column of `table`, by its name or heading in quotes.
    pub fn in_words(&self, text: &str, table: Option<&Table>) -> String {
        let name_of = |id: &str| -> Option<String> {
            if let Some(t) = table {
                for (i, l) in t.lines.iter().enumerate() {
                    if let Some(c) = l.keys.iter().position(|k| k.to_string() == id) {
                        return Some(t.column_words(i, c));
                    }
                }
                if let Some(r) = t.rows.iter().find(|r| r.key.to_string() == id) {
                    return Some(t.row_words(r));
                }
            }
            if let Some(r) = self.rulings.iter().find(|r| r.id == id) {
                let question = r.text.trim();
                let short = question.split(['?', '.', ':']).next().unwrap_or(question);
                return Some(short.trim().to_string());
            }
            if let Some(t) = self.tables.get(id) {
                return Some(t.title.clone());
            }
            if let Some(p) = self.procedure(id) {
                return Some(p.name.clone());
            }
            self.procedures
                .iter()
                .flat_map(|p| &p.inputs)
                .find(|i| i.name == id)
                .map(|i| i.label.clone())
        };
        let mut out = String::with_capacity(text.len());
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            if is_id_like(word) && word.contains('_') {
                match name_of(word) {
                    Some(name) => out.push_str(&format!("\u{201c}{name}\u{201d}")),
                    None => out.push_str(word),
                }
            } else {
                out.push_str(word);
            }
            word.clear();
        };
        for ch in text.chars() {
            if ch.is_ascii_alphanumeric() || ch == '_' {
                word.push(ch);
            } else {
                flush(&mut word, &mut out);
                out.push(ch);
            }
        }
        flush(&mut word, &mut out);
        out
    }

    /// The option in force of a ruling, if the ruleset has it.
    pub fn ruling(&self, id: &str) -> Option<&str> {
        self.rulings
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.selected.as_str())
    }

    /// A procedure by id.
    pub fn procedure(&self, id: &str) -> Option<&Procedure> {
        self.procedures.iter().find(|p| p.id == id)
    }

    /// A table by id.
    pub fn table(&self, id: &str) -> Option<&Table> {
        self.tables.get(id)
    }

    /// The real-time phase clock, when a table carries one (megagames).
    pub fn clock(&self) -> Option<&Clock> {
        self.tables.values().find_map(|t| t.clock.as_ref())
    }

    /// The same ruleset with some rulings switched (`id` → option id).
    pub fn with_rulings(&self, choices: &[(String, String)]) -> Result<Ruleset, String> {
        let mut out = self.clone();
        for (id, option) in choices {
            let Some(r) = out.rulings.iter_mut().find(|r| r.id == *id) else {
                return Err(format!(
                    "ruleset {} has no ruling '{id}' — rulings: {}",
                    self.id,
                    self.rulings
                        .iter()
                        .map(|r| r.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            };
            if !r.options.iter().any(|o| o.id == *option) {
                return Err(format!(
                    "ruling '{id}' has no option '{option}' — options: {}",
                    r.options
                        .iter()
                        .map(|o| o.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            r.selected = option.clone();
        }
        Ok(out)
    }
}

/// How much of another side's counter a side sees, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SightLevel {
    /// Not at all.
    Hidden,
    /// That something is there, and where ("a face-down Capitano" at hex 2733).
    Presence,
    /// Its name and place (and the markers on it).
    Identity,
    /// Everything but the attributes kept hidden.
    Full,
}

impl SightLevel {
    /// The level in words ("presence only").
    pub fn words(self) -> &'static str {
        match self {
            SightLevel::Hidden => "not seen",
            SightLevel::Presence => "presence only",
            SightLevel::Identity => "name and place",
            SightLevel::Full => "in full",
        }
    }
}

/// Whose counters a side sees as its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    /// The counters of its side.
    #[default]
    Side,
    /// A megagame team's: its side's counters, its states' ledgers and forces, its characters.
    Team,
}

/// A kind of piece, as conditions name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    /// A combat or auxiliary unit.
    Unit,
    /// A leader.
    Leader,
    /// A marker.
    Marker,
    /// A state's ledger (megagames).
    State,
}

/// A condition on one counter as it stands (declarative: no expressions).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Every condition holds (an empty list always holds).
    All(Vec<Condition>),
    /// At least one holds.
    Any(Vec<Condition>),
    /// It does not hold.
    Not(Box<Condition>),
    /// The counter is this kind of piece.
    Kind(PieceKind),
    /// The counter carries this status marker.
    Status(String),
    /// An attribute has this value (a `choices` attribute: includes it).
    Attribute {
        /// Attribute name.
        name: String,
        /// The value.
        value: Value,
    },
    /// The counter is on the map (not off it, not removed) — or not.
    OnMap(bool),
    /// An enemy unit is in a hex next to the counter's (hex maps) — or not.
    AdjacentToEnemy(bool),
    /// A ruling's option in force.
    Ruling {
        /// Ruling id.
        id: String,
        /// The option.
        option: String,
    },
}

/// Where a visibility rule comes from: the rulebook's number, the text's lines, a ruling note.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct SightSource {
    /// The rule as the rulebook numbers it ("1.4", "D.1", "5.2", "Terrain › Visibility").
    pub rule: String,
    /// The text's lines (provenance, shown only as a source detail).
    pub source: Option<String>,
    /// What the rule says, in short.
    pub text: Option<String>,
    /// How an ambiguity was read.
    pub ruling: Option<String>,
}

/// What a side sees of the other sides' counters that match a condition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterSightRule {
    /// Id.
    pub id: String,
    /// When it applies (None: always).
    pub when: Option<Condition>,
    /// How much is seen.
    pub see: SightLevel,
    /// The words for a counter seen by its presence only ("a face-down Capitano").
    pub shown_as: Option<String>,
    /// Where it comes from.
    pub from: SightSource,
}

/// Attributes kept from the other sides unless a condition shows them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttributeSightRule {
    /// Id.
    pub id: String,
    /// The attributes.
    pub attributes: Vec<String>,
    /// When they show after all (None: never).
    pub shown_when: Option<Condition>,
    /// Where it comes from.
    pub from: SightSource,
}

/// Procedures whose results every side sees: dice, outcome, effects and the counters affected.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpenResults {
    /// Id.
    pub id: String,
    /// Procedure ids.
    pub procedures: Vec<String>,
    /// Where it comes from.
    pub from: SightSource,
}

/// Statuses set and cleared on the counters that match a condition, at a step of the Sequence
/// of Play (ailsh D.1: Forces in contact reveal their composition).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reveal {
    /// Id.
    pub id: String,
    /// The Sequence-of-Play step (a leaf step id).
    pub step: String,
    /// Which counters.
    pub when: Condition,
    /// Statuses set.
    pub set: Vec<String>,
    /// Statuses cleared.
    pub clear: Vec<String>,
    /// Where it comes from.
    pub from: SightSource,
}

/// What each side may see of the others: the `visibility:` section of a ruleset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Visibility {
    /// Whose counters are a side's own (seen whole).
    pub own: Owner,
    /// What a side sees of another side's counter that no rule matches.
    pub enemy: SightLevel,
    /// The rule the section rests on, if one.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Counter rules; the first that matches decides.
    pub counters: Vec<CounterSightRule>,
    /// Attributes kept hidden.
    pub attributes: Vec<AttributeSightRule>,
    /// Results open to every side.
    pub open_results: Vec<OpenResults>,
    /// Results seen by whoever sees every counter involved in full (an open table), if so.
    pub results_with_counters: Option<SightSource>,
    /// Reveals offered at steps of the Sequence of Play.
    pub reveals: Vec<Reveal>,
    /// How a side's copy numbers the journal around what it may not see.
    pub hidden_entries: HiddenEntries,
    /// Notes.
    pub notes: Option<String>,
    /// Whether the ruleset declares its visibility (false: the default below).
    pub declared: bool,
}

/// How a side's copy numbers the journal around the entries it may not see. Either way the
/// side sees its own numbering, 1, 2, 3… with no gap that would count what it may not see (the
/// three units that moved with Chaumont on his card); the journal's own numbers stay in the
/// side's export, whose hash chain needs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HiddenEntries {
    /// Nothing marks where hidden entries were.
    #[default]
    Renumber,
    /// "Entries you may not see" where some were (once for a run, with no count): for rules
    /// that let a side know something happened.
    Placeholder,
}

impl Default for Visibility {
    /// A ruleset that declares nothing: each side sees its own counters whole and the others'
    /// by name and place; no result of the other sides is open.
    fn default() -> Visibility {
        Visibility {
            own: Owner::Side,
            enemy: SightLevel::Identity,
            rule: None,
            source_lines: None,
            counters: Vec::new(),
            attributes: Vec::new(),
            open_results: Vec::new(),
            results_with_counters: None,
            reveals: Vec::new(),
            hidden_entries: HiddenEntries::Renumber,
            notes: None,
            declared: false,
        }
    }
}

impl Visibility {
    /// The open-results rule that covers a procedure, if any.
    pub fn open_result(&self, procedure: &str) -> Option<&OpenResults> {
        self.open_results
            .iter()
            .find(|o| o.procedures.iter().any(|p| p == procedure))
    }
}
