//! Load errors that name the file, line and column, what is wrong and how to fix it.

use std::fmt;

use thiserror::Error;

/// One problem in one rules file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct LoadError {
    /// The file, as the user knows it (path or `embedded:<ruleset>/<file>`).
    pub file: String,
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub column: usize,
    /// What is wrong.
    pub problem: String,
    /// How to fix it.
    pub hint: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.problem
        )?;
        if !self.hint.is_empty() {
            write!(f, " — {}", self.hint)?;
        }
        Ok(())
    }
}

/// Every problem found while loading a ruleset; nothing is loaded when there is one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}
