//! What can be wrong with dice: a notation that does not read, exact odds past the budget, a
//! typed face the die does not have, the wrong number of dice typed. Every layer of the dice
//! (the notation, the exact odds, the roller) reports through it, so it depends on none.

use thiserror::Error;

/// Problems with dice notation or typed-in dice.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiceError {
    /// The notation could not be read.
    #[error("dice notation '{expr}': {problem}")]
    Notation {
        /// The expression as written.
        expr: String,
        /// What is wrong.
        problem: String,
    },
    /// Exact odds past the budget (time or memory), refused before any work.
    #[error("{expr}: {problem}")]
    TooCostly {
        /// The expression as written.
        expr: String,
        /// What it would take, and what would fit.
        problem: String,
    },
    /// A Monte Carlo estimate past the same budget as exact odds: refused before any throw (or
    /// stopped, should it run long after all), with what would fit.
    #[error(
        "{expr} is too many dice to estimate in the time allowed: {problem} — estimate fewer dice, or allow more time with --budget SECONDS"
    )]
    TooManyToEstimate {
        /// The expression as written.
        expr: String,
        /// What it would take, and what would fit.
        problem: String,
    },
    /// A typed face does not exist on that die.
    #[error(
        "{typed} is not a face of a {die} (faces: {faces}); die {position} of {count} in {expr}"
    )]
    ImpossibleFace {
        /// What was typed.
        typed: String,
        /// The die's name.
        die: String,
        /// Its faces, described.
        faces: String,
        /// 1-based position of the die in the expression.
        position: usize,
        /// Number of dice in the expression.
        count: usize,
        /// The expression.
        expr: String,
    },
    /// The wrong number of faces was typed.
    #[error("{expr} needs {expected} dice, {given} given — type one face per die, e.g. {example}")]
    WrongCount {
        /// The expression.
        expr: String,
        /// Dice expected.
        expected: usize,
        /// Faces given.
        given: usize,
        /// An example of a valid entry.
        example: String,
    },
}
