//! Printed output as PDF: a small layout layer ([`pdf`]: text runs, wrapped paragraphs, ruled
//! tables with repeated headers, page breaks), the embedded subset font ([`font`]), layouts read
//! from `templates/` ([`template`]) and the builders ([`charts`], [`scenario`], [`turn`]).
//!
//! Depends on `rules` and `game`; nothing below it imports printpdf.

mod after_action;
pub mod charts;
pub mod error;
pub mod font;
pub mod megagame;
pub mod pdf;
pub mod scenario;
pub mod subset;
pub mod template;
pub mod turn;

pub use charts::charts_pdf;
pub use error::ReportError;
pub use scenario::scenario_pdf;
pub use template::{Paper, Template};
pub use turn::{ReportOptions, turn_report_pdf};
