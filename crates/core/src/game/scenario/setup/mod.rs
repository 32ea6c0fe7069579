//! Starting data entered once (issue 27, item 3): the organiser's briefing pack, kept in a
//! spreadsheet and saved as CSV files — one sheet a kind (states, ledger cards, characters,
//! areas, cities, armies, fleets; `counters.csv` for other games; `counter_values.csv`, the
//! values printed on counters that the text leaves to them) — merged into a scenario and
//! written as a scenario file that loads. A template of the sheets is written for a scenario,
//! with the rows the text gives (its states and characters) and every number it does not give
//! left empty.
//!
//! Every problem is collected and reported together, each naming the file, the line and the
//! column header; with any problem nothing is produced.

mod build;
mod counter_values;
mod edits;
mod kinds;
mod merge;
mod sheet;
mod template;
mod values;

pub use build::{Imported, import_setup};
pub use counter_values::{ValueGroup, value_groups};
pub use kinds::{SheetKind, kinds_for};
pub use sheet::{Row, Sheet, parse_sheet, read_sheet};
pub use template::{template_files, template_readme};

/// A problem with the sheets: where (file, line, column header) and what.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImportProblem {
    /// The file (`armies.csv`).
    pub file: String,
    /// The line of the file (1 is the first), when the problem is on one.
    pub line: Option<u64>,
    /// The column header, when the problem is in one.
    pub column: Option<String>,
    /// What is wrong, and what to write instead.
    pub problem: String,
}

impl ImportProblem {
    /// A problem at a place of a file.
    pub fn at(file: &str, line: Option<u64>, column: Option<&str>, problem: String) -> Self {
        ImportProblem {
            file: file.to_string(),
            line,
            column: column.map(str::to_string),
            problem,
        }
    }
}

impl std::fmt::Display for ImportProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        if let Some(column) = &self.column {
            write!(f, ", column \"{column}\"")?;
        }
        write!(f, ": {}", self.problem)
    }
}

/// Every problem, one a line.
pub fn problems_text(problems: &[ImportProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads the sheets of a folder: every `.csv` file in it (any case), sorted by name.
pub fn read_folder(dir: &std::path::Path) -> Result<Vec<Sheet>, Vec<ImportProblem>> {
    let shown = dir.display().to_string();
    let entries = std::fs::read_dir(dir).map_err(|e| {
        vec![ImportProblem::at(
            &shown,
            None,
            None,
            format!("cannot be read as a folder of CSV files: {e}"),
        )]
    })?;
    let mut paths: Vec<std::path::PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|x| x.to_string_lossy().eq_ignore_ascii_case("csv"))
        })
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(vec![ImportProblem::at(
            &shown,
            None,
            None,
            "holds no .csv file — save each sheet of the spreadsheet as CSV into this folder \
             (`umpire scenario setup-template` writes the sheets to fill in)"
                .into(),
        )]);
    }
    let mut sheets = Vec::new();
    let mut problems = Vec::new();
    for p in paths {
        match read_sheet(&p) {
            Ok(s) => sheets.push(s),
            Err(e) => problems.push(e),
        }
    }
    if problems.is_empty() {
        Ok(sheets)
    } else {
        Err(problems)
    }
}

/// A short id made from a name: lower-case letters and digits, words joined by `-`.
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}
