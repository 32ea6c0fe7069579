//! Why a procedure could not be resolved.

use thiserror::Error;

use crate::dice::DiceError;

/// A resolution problem, phrased for the umpire.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResolveError {
    /// An input name the procedure does not have.
    #[error("procedure '{procedure}' has no input '{name}' — its inputs are: {valid}")]
    UnknownInput {
        /// Procedure id.
        procedure: String,
        /// The name given.
        name: String,
        /// Valid names.
        valid: String,
    },
    /// Inputs the rules give no value for were not given.
    #[error(
        "{procedure} needs what the rules give no value for: {}",
        missing.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    MissingInputs {
        /// The procedure's name.
        procedure: String,
        /// Each input missing, in the procedure's order.
        missing: Vec<MissingInput>,
    },
    /// An input value is of the wrong type or out of range.
    #[error("{0}")]
    BadInput(String),
    /// Dice notation or typed dice are wrong.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// An expression failed for these values.
    #[error("{what}: {problem}")]
    Expression {
        /// What was being computed.
        what: String,
        /// The problem.
        problem: String,
    },
    /// The cell needed is not in the rule text.
    #[error(
        "{title}{rule}: {at} is not in the rule text — read the result off your chart sheet and give it with --chart-result (the procedure's result codes are listed by `umpire describe`), or transcribe the table (umpire rules template)"
    )]
    MissingCell {
        /// Where, in the chart's words: "row 4, column 3" ("row 4" in a one-column table).
        at: String,
        /// Table id.
        table: String,
        /// Table title.
        title: String,
        /// Rule reference, formatted as " [§x]".
        rule: String,
        /// Row heading.
        row: String,
        /// Column heading.
        column: String,
    },
    /// A row or column heading that the table does not have.
    #[error("{title} ({table}) has no {what} '{key}' — it has: {available}")]
    NoSuchKey {
        /// Table id.
        table: String,
        /// Table title.
        title: String,
        /// "row", "column" or "header line".
        what: String,
        /// The key looked for.
        key: String,
        /// The keys it has.
        available: String,
    },
    /// A table cell used as a number is not one.
    #[error(
        "{title} ({table}): cell '{cell}' at row {row}, column {column} is not a number{reason}"
    )]
    NotANumber {
        /// Table id.
        table: String,
        /// Table title.
        title: String,
        /// Cell text.
        cell: String,
        /// Row heading.
        row: String,
        /// Column heading.
        column: String,
        /// Extra explanation.
        reason: String,
    },
    /// A chart result typed by the umpire is not a code of the table.
    #[error("'{given}' is not a result of {title} — its codes are: {codes}")]
    BadChartResult {
        /// What was typed.
        given: String,
        /// Table title.
        title: String,
        /// Valid codes.
        codes: String,
    },
    /// Too many dice to enumerate exactly.
    #[error("{0}")]
    TooLarge(String),
}

/// An input the umpire must give: the rules give it no value.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MissingInput {
    /// Input name (for `--input NAME=VALUE`).
    pub name: String,
    /// Its label, in the game's words.
    pub label: String,
    /// What it expects ("a whole number 0–30", "one of …").
    pub expected: String,
}

impl std::fmt::Display for MissingInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (--input {}=…: {})",
            self.label, self.name, self.expected
        )
    }
}

impl ResolveError {
    /// The error for a form (the desk): what is still needed by the fields' labels ("needs:
    /// Discipline, Weapon"), not the command line's `--input`; any other error as it reads.
    pub fn for_a_form(&self) -> String {
        match self {
            ResolveError::MissingInputs { missing, .. } => format!(
                "needs: {}",
                missing
                    .iter()
                    .map(|m| m.label.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ResolveError::MissingCell {
                title, rule, at, ..
            } => format!(
                "{title}{rule}: {at} is not in the rule text — read the result off your chart sheet and enter it below, or transcribe the table in the chart editor (Commands → Chart editor…)"
            ),
            other => other.to_string(),
        }
    }
}
