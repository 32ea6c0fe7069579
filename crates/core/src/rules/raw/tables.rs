//! A table file as written: how its rows and columns are keyed, its header lines, rows and
//! result codes.

use super::*;

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
