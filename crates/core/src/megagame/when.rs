//! When an entry was made, as the people at a megagame say it: "Turn 2 · Phase 3 (Military
//! phase), 10:42" — the turn, the clock phase the entry's step belongs to, and the wall-clock
//! time it was recorded at. The Control log, the announcements sheet (the gazette) and the
//! teams' statements all say it this way.
//!
//! The phase is the clock's phase (the timetable's `clock: phases:`, Sequence-of-Play step ids)
//! that holds the entry's leaf step ([`super::clock::phase_of_step`]): its number counts the
//! clock's phases from 1, and its short name is the one the step's name gives after the number
//! ("Phase 3 — military phase; Lutheran conversion (ends on the hour; …)" → "Phase 3 (Military
//! phase)"), so the number is never said twice. A game without a phase clock (not a megagame),
//! or a step outside every clock phase, says the step's own name instead.

use chrono::{DateTime, Local, Utc};

use crate::game::event::{Cursor, Event};
use crate::game::session::Game;
use crate::game::steps::LeafStep;
use crate::game::words::capitalised;
use crate::rules::{Ruleset, Step};

use super::clock::phase_of_step;

/// When an entry was made, in parts (see [`When::label`] for the whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct When {
    /// Game turn.
    pub turn: u32,
    /// "Phase 3 (Military phase)", or the step's own name in a game without a phase clock.
    pub phase: String,
    /// The wall-clock time it was recorded at, "10:42", in this machine's local time zone.
    pub time: String,
}

impl When {
    /// "Turn 2 · Phase 3 (Military phase)": the turn and phase, without the time (a heading).
    pub fn place(&self) -> String {
        format!("Turn {} · {}", self.turn, self.phase)
    }

    /// "Turn 2 · Phase 3 (Military phase), 10:42".
    pub fn label(&self) -> String {
        format!("{}, {}", self.place(), self.time)
    }
}

/// When an entry at `cursor` recorded at `at` was made. The time is the wall-clock time in this
/// machine's local time zone (chrono's `Local`), as "HH:MM": the desk's clock on the wall, not
/// UTC.
pub fn when(ruleset: &Ruleset, steps: &[LeafStep], cursor: &Cursor, at: DateTime<Utc>) -> When {
    When {
        turn: cursor.turn,
        phase: phase_label(ruleset, steps, cursor.step),
        time: at.with_timezone(&Local).format("%H:%M").to_string(),
    }
}

/// [`when`] of a journal entry of `game`.
pub fn when_of(game: &Game, e: &Event) -> When {
    when(game.ruleset(), game.steps(), &e.cursor, e.at)
}

/// "Phase 3 (Military phase)" for a leaf step in the clock's third phase; the step's own name
/// (the last level of its path) when the ruleset has no clock or the step is in no clock phase.
pub fn phase_label(ruleset: &Ruleset, steps: &[LeafStep], step: usize) -> String {
    let clock_phase = phase_of_step(ruleset, step).and_then(|n| {
        let id = ruleset.clock()?.phases.get(n)?;
        Some((n + 1, step_name(&ruleset.sequence_of_play, id)?))
    });
    match clock_phase {
        Some((number, name)) => match short_name(number, name) {
            Some(short) => format!("Phase {number} ({short})"),
            None => format!("Phase {number}"),
        },
        None => steps.get(step).map_or_else(
            || format!("step {}", step + 1),
            |s| s.path.rsplit(" › ").next().unwrap_or(&s.path).to_string(),
        ),
    }
}

/// The name of a Sequence-of-Play step, by id.
fn step_name<'a>(steps: &'a [Step], id: &str) -> Option<&'a str> {
    steps.iter().find_map(|s| {
        if s.id == id {
            Some(s.name.as_str())
        } else {
            step_name(&s.steps, id)
        }
    })
}

/// A phase's short name from its step's name: what follows "Phase N" (and its dash or colon),
/// up to the first ';' or '(' — "military phase", "Winter" — capitalised. None when nothing is
/// left but the phase's timing ("ends 40 minutes past the hour").
fn short_name(number: usize, name: &str) -> Option<String> {
    let rest = name.trim();
    let prefix = format!("phase {number}");
    let rest = match rest.get(..prefix.len()) {
        Some(head) if head.eq_ignore_ascii_case(&prefix) => &rest[prefix.len()..],
        _ => rest,
    };
    // A longer number ("Phase 12" for phase 1) is not this phase's prefix.
    if rest.starts_with(|c: char| c.is_ascii_digit()) {
        return short_name_whole(name);
    }
    let rest = rest.trim_start_matches([' ', '—', '–', '-', ':', '.', ',']);
    short_name_whole(rest)
}

fn short_name_whole(text: &str) -> Option<String> {
    let cut = text.find(['(', ';']).map_or(text, |i| &text[..i]).trim();
    let cut = cut.trim_end_matches([' ', '—', '–', '-', ':', ',']);
    if cut.is_empty() || cut.to_lowercase().starts_with("ends ") {
        None
    } else {
        Some(capitalised(cut))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_name_says_the_number_once() {
        let s = |n, name| short_name(n, name);
        assert_eq!(
            s(
                3,
                "Phase 3 — military phase; Lutheran conversion (ends on the hour; Turn 1: 10:55)"
            ),
            Some("Military phase".into())
        );
        assert_eq!(
            s(6, "Phase 6 — Winter (ends 30 past; Turn 1: 11.30)"),
            Some("Winter".into())
        );
        assert_eq!(
            s(1, "Phase 1 — ends 40 minutes past the hour (Turn 1: 10:25)"),
            None
        );
        assert_eq!(s(3, "Phase 3: Movement"), Some("Movement".into()));
        assert_eq!(s(2, "Diplomacy"), Some("Diplomacy".into()));
        assert_eq!(s(1, "Phase 12 — Late"), Some("Phase 12 — Late".into()));
    }
}
