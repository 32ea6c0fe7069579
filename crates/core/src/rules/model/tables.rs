//! Tables: keys (numbers, ranges, ratios, names), rows, header lines, cells and the result codes a chart prints.

use super::*;

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
