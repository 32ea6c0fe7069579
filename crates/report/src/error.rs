//! Errors of printed output.

/// What can go wrong making a PDF.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// A template does not parse or holds an impossible value.
    #[error("template: {0}")]
    Template(String),
    /// The embedded font does not parse (a build defect).
    #[error("font: {0}")]
    Font(String),
    /// The game's journal cannot be laid out (it contradicts its scenario).
    #[error("report: {0}")]
    Layout(String),
}
