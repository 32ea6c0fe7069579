//! Character Control's death-roll list (rr3 "Death, Marriage, Birth and Family › Death",
//! L435–439): "Character Control has a list of characters and the death roll for each turn.
//! Certain players will need to dice during the First phase of a turn." The list itself is not
//! in the handbook: Control keeps it on each character (`death_roll`, the roll that character
//! makes this turn, as Character Control's list gives it). This is the list for a turn — who
//! must roll, what the list says, whether the roll was made and what came of it — for the desk,
//! the command line and the Control log; the gazette prints a death only when someone dies.

use serde::Serialize;

use crate::game::scenario::CounterKind;
use crate::game::{EventKind, Game};
use crate::rules::Value;

/// The procedure of a death roll.
pub const DEATH_ROLL: &str = "death_roll";
/// The character attribute holding Character Control's entry for this turn.
pub const LIST_ATTRIBUTE: &str = "death_roll";

/// One character on the list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeathRoll {
    /// The character's id.
    pub character: String,
    /// Its name.
    pub name: String,
    /// What Character Control's list says for it this turn, if it has been entered.
    pub list: Option<String>,
    /// The roll made this turn: (entry, the result's words), if made.
    pub rolled: Option<(u64, String)>,
    /// Whether the character lives.
    pub alive: bool,
}

/// The list for `turn`: every character with an entry on Character Control's list or a death
/// roll made that turn, in name order.
pub fn death_rolls(game: &Game, turn: u32) -> Vec<DeathRoll> {
    let state = game.state();
    let mut out: Vec<DeathRoll> = state
        .counters
        .values()
        .filter(|c| c.kind == CounterKind::Leader && c.removed.is_none())
        .map(|c| DeathRoll {
            character: c.id.clone(),
            name: c.name.clone(),
            list: match c.attributes.get(LIST_ATTRIBUTE) {
                Some(Value::Text(t)) if !t.trim().is_empty() => Some(t.trim().to_string()),
                _ => None,
            },
            rolled: None,
            alive: c.attributes.get("alive") != Some(&Value::Bool(false)),
        })
        .collect();
    for (cursor, procedure, seq) in &state.resolved {
        if cursor.turn != turn || procedure != DEATH_ROLL {
            continue;
        }
        let Some(EventKind::Resolved {
            resolution,
            counters,
            ..
        }) = game.events().get(*seq as usize - 1).map(|e| &e.kind)
        else {
            continue;
        };
        for id in counters.values().flatten() {
            if let Some(line) = out.iter_mut().find(|l| l.character == *id) {
                line.rolled = Some((*seq, resolution.outcome.label.clone()));
            }
        }
    }
    out.retain(|l| l.list.is_some() || l.rolled.is_some());
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}
