//! The Sequence-of-Play walker: the ruleset's phases, segments and steps flattened into leaf
//! steps, and what is pending or done at the cursor.

use serde::Serialize;

use super::event::Cursor;
use super::scenario::{Position, Scenario};
use super::state::{GameState, reinforcement_box};
use crate::rules::{Ruleset, Step};

/// A leaf step with the path of phases above it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LeafStep {
    /// Step id.
    pub id: String,
    /// "Phase › Segment › Step".
    pub path: String,
    /// Procedures that belong to it.
    pub procedures: Vec<String>,
    /// Whether its procedures must be resolved (or skipped with a reason) before moving on.
    pub mandatory: bool,
    /// When it happens, if not every turn.
    pub when: Option<String>,
    /// Rule reference.
    pub rule: Option<String>,
}

/// The leaf steps of a ruleset's Sequence of Play, in order (one "Turn" step if it has none).
pub fn leaf_steps(ruleset: &Ruleset) -> Vec<LeafStep> {
    fn walk(steps: &[Step], prefix: &str, out: &mut Vec<LeafStep>) {
        for s in steps {
            let path = if prefix.is_empty() {
                s.name.clone()
            } else {
                format!("{prefix} › {}", s.name)
            };
            if s.steps.is_empty() {
                out.push(LeafStep {
                    id: s.id.clone(),
                    path,
                    procedures: s.procedures.clone(),
                    mandatory: s.mandatory,
                    when: s.when.clone(),
                    rule: s.rule.clone(),
                });
            } else {
                walk(&s.steps, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&ruleset.sequence_of_play, "", &mut out);
    if out.is_empty() {
        out.push(LeafStep {
            id: "turn".into(),
            path: "Turn".into(),
            procedures: ruleset.procedures.iter().map(|p| p.id.clone()).collect(),
            mandatory: false,
            when: None,
            rule: None,
        });
    }
    out
}

/// Something to do at the current step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pending {
    /// Stable key (used to skip it).
    pub key: String,
    /// What to do.
    pub label: String,
    /// The procedure to resolve, if any.
    pub procedure: Option<String>,
    /// Whether Next refuses to pass it (unless skipped with a reason).
    pub mandatory: bool,
    /// Whether it is done.
    pub done: bool,
}

/// The cursor after `c` (the next step, or the first step of the next turn).
pub fn next_cursor(c: &Cursor, steps: usize) -> Cursor {
    if c.step + 1 < steps {
        Cursor {
            turn: c.turn,
            step: c.step + 1,
        }
    } else {
        Cursor {
            turn: c.turn + 1,
            step: 0,
        }
    }
}

/// The cursor before `c`, if any.
pub fn previous_cursor(c: &Cursor, steps: usize) -> Option<Cursor> {
    if c.step > 0 {
        Some(Cursor {
            turn: c.turn,
            step: c.step - 1,
        })
    } else if c.turn > 1 {
        Some(Cursor {
            turn: c.turn - 1,
            step: steps.saturating_sub(1),
        })
    } else {
        None
    }
}

/// Items for the current step: its procedures, scheduled items, arriving reinforcements and
/// follow-up checks queued by earlier results.
pub fn pending(ruleset: &Ruleset, scenario: &Scenario, state: &GameState) -> Vec<Pending> {
    let steps = leaf_steps(ruleset);
    let cursor = &state.cursor;
    let Some(step) = steps.get(cursor.step) else {
        return Vec::new();
    };
    let skipped = |key: &str| state.skipped.iter().any(|(_, k, _)| k == key);
    let resolved_here = |p: &str| {
        state
            .resolved
            .iter()
            .any(|(c, proc_id, _)| c == cursor && proc_id == p)
    };
    let mut out = Vec::new();
    let name = |id: &str| {
        ruleset
            .procedure(id)
            .map_or_else(|| id.to_string(), |p| p.name.clone())
    };
    for p in &step.procedures {
        let key = format!("step:{}:{}:{p}", cursor.turn, cursor.step);
        out.push(Pending {
            label: name(p),
            procedure: Some(p.clone()),
            mandatory: step.mandatory,
            done: resolved_here(p) || skipped(&key),
            key,
        });
    }
    // Reveals the ruleset offers at this step (ailsh D.1), in words that name no counter.
    for (reveal, changes) in super::visibility::reveals_due(ruleset, scenario, state, &step.id) {
        let (key, label) = super::visibility::reveal_item(reveal, cursor.turn, &changes);
        out.push(Pending {
            label,
            procedure: None,
            mandatory: step.mandatory,
            done: changes.is_empty() || skipped(&key),
            key,
        });
    }
    for s in &scenario.schedules {
        if !s.turns.contains(&cursor.turn) {
            continue;
        }
        let belongs = match &s.procedure {
            Some(p) => step.procedures.contains(p),
            None => cursor.step == 0,
        };
        if !belongs {
            continue;
        }
        let key = format!("schedule:{}:{}", s.id, cursor.turn);
        let amount = s
            .amounts
            .iter()
            .find(|(t, _)| *t == cursor.turn)
            .map_or_else(String::new, |(_, a)| format!(" ({a})"));
        let side = s
            .side
            .as_ref()
            .map_or_else(String::new, |x| format!(" — {x}"));
        let done = s.procedure.as_ref().is_some_and(|p| resolved_here(p)) || skipped(&key);
        out.push(Pending {
            label: format!("{}{side}{amount}", s.name),
            procedure: s.procedure.clone(),
            mandatory: true,
            done,
            key,
        });
    }
    if cursor.step == 0 {
        let waiting = reinforcement_box(cursor.turn);
        let count = scenario
            .reinforcements
            .iter()
            .filter(|r| r.turn == cursor.turn)
            .map(|r| r.counters.len())
            .sum::<usize>();
        if count > 0 {
            let still = state
                .counters
                .values()
                .filter(|c| c.removed.is_none() && c.position == Position::OffMap(waiting.clone()))
                .count();
            let key = format!("reinforcements:{}", cursor.turn);
            out.push(Pending {
                label: format!("Reinforcements arrive: {count} counters ({still} still to place)"),
                procedure: None,
                mandatory: true,
                done: still == 0 || skipped(&key),
                key,
            });
        }
    }
    for f in &state.follow_ups {
        out.push(Pending {
            key: format!("follow_up:{}", f.from),
            label: format!(
                "{} (queued by entry {}){}",
                name(&f.procedure),
                f.from,
                f.text
                    .as_ref()
                    .map_or_else(String::new, |t| format!(": {t}"))
            ),
            procedure: Some(f.procedure.clone()),
            mandatory: true,
            done: false,
        });
    }
    out
}
