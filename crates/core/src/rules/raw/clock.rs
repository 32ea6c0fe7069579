//! The `clock:` section as written: a real-time phase clock laid over a timetable.

use super::*;

/// A real-time phase clock laid over a timetable (megagames): which Sequence-of-Play steps are
/// the clock's phases, and how long each lasts in each turn.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Clock")]
pub struct RawClock {
    /// The ids of the Sequence-of-Play steps that are the clock's phases, in order, each once.
    #[schemars(with = "Vec<Identifier>")]
    pub phases: Vec<String>,
    /// How many minutes before a phase ends the desk warns (default 2).
    #[serde(default)]
    pub warning_minutes: Option<u32>,
    /// The table's column that holds each turn's game years (`game_years`), read from the
    /// turn's `row`.
    #[serde(default)]
    pub years_column: Option<String>,
    /// Each turn's schedule, numbered from 1.
    pub turns: Vec<RawClockTurn>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// Notes on the clock.
    #[serde(default)]
    pub notes: Option<String>,
}

/// One turn of the clock: when its phases end (clock times) or how long each lasts (minutes).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "ClockTurn")]
#[schemars(extend("oneOf" = [{"required": ["phase_ends"]}, {"required": ["phase_minutes"]}]))]
pub struct RawClockTurn {
    /// The game turn, from 1, each once.
    #[schemars(range(min = 1))]
    pub turn: u32,
    /// The key of the table's row for this turn (its years are read from `years_column`).
    #[serde(default)]
    pub row: Option<String>,
    /// The scheduled start, `"HH:MM"` on the 24-hour clock (needed with `phase_ends`).
    #[serde(default)]
    pub starts: Option<String>,
    /// When each phase ends, `"HH:MM"`, one per phase, each later than the last.
    #[serde(default)]
    pub phase_ends: Option<Vec<String>>,
    /// How long each phase lasts, in whole minutes (at least 1), one per phase.
    #[serde(default)]
    pub phase_minutes: Option<Vec<u32>>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}
