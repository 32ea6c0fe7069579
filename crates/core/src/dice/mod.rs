//! Dice: notation, custom dice, the seeded roller, physical entry and exact distributions.
//!
//! The notation parser is our own: no crate on crates.io covers d10 read 0–9, halved dice,
//! custom weighted or symbolic faces and exact fractional distributions together, and the
//! grammar is small (see [`DiceExpr::parse`]).

mod die;
mod distribution;
mod error;
mod estimate;
mod exact;
mod expr;
mod poly;
mod print;
mod roller;

pub use die::{Die, DieFace, DieSet};
pub use distribution::{Distribution, Fraction, Reduced, Reducer, choose, choose_big, ratio_f64};
pub use error::DiceError;
pub use estimate::Estimate;
pub use exact::{Budget, Cost, ESTIMATE_MARGIN, Output, WORK_PER_SECOND};
pub(crate) use expr::seconds_words;
pub use expr::{
    DiceExpr, DiceTerm, MAX_DICE, MAX_NOTATION_CHARS, MAX_NOTATION_DEPTH, MAX_POOL, Rounding,
};
pub use print::write_odds;
pub use roller::{AppDice, DieRoll, Provenance, Roll, SAMPLER_ALGORITHM};
