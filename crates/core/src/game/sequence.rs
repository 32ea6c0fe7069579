//! The Sequence-of-Play walker: the ruleset's phases, segments and steps flattened into leaf
//! steps, and what is pending or done at the cursor.

use serde::Serialize;

use super::event::{CounterChange, Cursor};
use super::scenario::{Position, Scenario};
use super::state::{GameState, reinforcement_box};
use super::words::{attribute_words, side_words};
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
    /// Decks or cups drawn from at it.
    pub decks: Vec<String>,
    /// Whether its procedures must be resolved (or skipped with a reason) before moving on.
    pub mandatory: bool,
    /// When it happens, if not every turn.
    pub when: Option<String>,
    /// Only at the end of the scenario: `next` passes it by on every turn but the last.
    pub scenario_end: bool,
    /// Rule reference.
    pub rule: Option<String>,
}

/// The leaf steps of a ruleset's Sequence of Play, in order (one "Turn" step if it has none).
pub fn leaf_steps(ruleset: &Ruleset) -> Vec<LeafStep> {
    fn walk(steps: &[Step], prefix: &str, end: bool, out: &mut Vec<LeafStep>) {
        for s in steps {
            let end = end || s.scenario_end;
            let path = if prefix.is_empty() {
                s.name.clone()
            } else {
                format!("{prefix} › {}", s.name)
            };
            // A step with procedures of its own and sub-steps (ailsh C.2.b: the activated Force
            // acts, then its Field Engineers and Attrition) is a step itself, before them.
            if s.steps.is_empty() || !s.procedures.is_empty() {
                out.push(LeafStep {
                    id: s.id.clone(),
                    path: path.clone(),
                    procedures: s.procedures.clone(),
                    decks: s.decks.clone(),
                    mandatory: s.mandatory,
                    when: s.when.clone(),
                    scenario_end: end,
                    rule: s.rule.clone(),
                });
            }
            walk(&s.steps, &path, end, out);
        }
    }
    let mut out = Vec::new();
    walk(&ruleset.sequence_of_play, "", false, &mut out);
    if out.is_empty() {
        out.push(LeafStep {
            id: "turn".into(),
            path: "Turn".into(),
            procedures: ruleset.procedures.iter().map(|p| p.id.clone()).collect(),
            decks: Vec::new(),
            mandatory: false,
            when: None,
            scenario_end: false,
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
    /// What recording it adds, when it credits an amount that is known now ("5 to French AP
    /// marker's Administrative Points"); `game credit` or the desk's Credit button records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit: Option<String>,
}

/// A pending item named the way a person names it: its number in the list (1-based, as
/// `game status` shows it), its key, or its label (any case).
pub fn find_pending<'p>(pending: &'p [Pending], item: &str) -> Option<&'p Pending> {
    let item = item.trim();
    item.parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| pending.get(i))
        .or_else(|| pending.iter().find(|p| p.key == item))
        .or_else(|| pending.iter().find(|p| p.label.eq_ignore_ascii_case(item)))
}

/// The change that credits the scheduled item `key` now — the amount added to its counter's
/// attribute — with the reason for the journal; None when the item is not pending here, is
/// done, credits nothing or its amount is not known yet (its procedure not resolved).
pub fn credit_change(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    key: &str,
) -> Option<(CounterChange, String)> {
    pending(ruleset, scenario, state)
        .into_iter()
        .find(|p| p.key == key && !p.done && p.credit.is_some())?;
    let id = key.strip_prefix("schedule:")?.rsplit_once(':')?.0;
    let schedule = scenario.schedules.iter().find(|s| s.id == id)?;
    let credit = schedule.credit.as_ref()?;
    let steps = leaf_steps(ruleset);
    let step = steps.get(state.cursor.step)?;
    let here = Here {
        ruleset,
        state,
        step,
        steps: &steps,
    };
    let by = here.scheduled_amount(schedule)?;
    Some((
        CounterChange::Adjust {
            counter: credit.counter.clone(),
            attribute: credit.attribute.clone(),
            by,
        },
        format!("{} (scenario schedule)", schedule.name),
    ))
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

/// The step `next` goes to from `c`: the next one, passing by the end-of-scenario steps on
/// every turn but the last.
pub fn next_step(c: &Cursor, steps: &[LeafStep], last_turn: u32) -> Cursor {
    let mut to = next_cursor(c, steps.len());
    for _ in 0..steps.len() {
        match steps.get(to.step) {
            Some(s) if s.scenario_end && to.turn < last_turn => {
                to = next_cursor(&to, steps.len());
            }
            _ => break,
        }
    }
    to
}

/// The step `back` goes to from `c`, passing by the end-of-scenario steps of earlier turns.
pub fn previous_step(c: &Cursor, steps: &[LeafStep], last_turn: u32) -> Option<Cursor> {
    let mut to = previous_cursor(c, steps.len())?;
    for _ in 0..steps.len() {
        match steps.get(to.step) {
            Some(s) if s.scenario_end && to.turn < last_turn => {
                to = previous_cursor(&to, steps.len())?;
            }
            _ => break,
        }
    }
    Some(to)
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
    let Some(step) = steps.get(state.cursor.step) else {
        return Vec::new();
    };
    let here = Here {
        ruleset,
        state,
        step,
        steps: &steps,
    };
    let mut out = here.step_items();
    out.extend(here.reveal_items(scenario));
    out.extend(here.scheduled_items(scenario));
    out.extend(here.reinforcement_item(scenario));
    out.extend(here.follow_up_items());
    out.extend(super::victory::pending_items(ruleset, scenario, state));
    out
}

/// The step at the cursor, and what the state says has been done there.
struct Here<'a> {
    ruleset: &'a Ruleset,
    state: &'a GameState,
    step: &'a LeafStep,
    steps: &'a [LeafStep],
}

/// The step a resolution of `procedure` made at `at` counts for: that step when the procedure
/// is one of its own, else the step of the same turn it belongs to (the next one that lists
/// it, else the last before): a Weather rolled a step early counts for the Weather Phase, not
/// as a second Weather of the turn.
pub fn step_it_counts_for(steps: &[LeafStep], at: &Cursor, procedure: &str) -> usize {
    let lists = |i: usize| {
        steps
            .get(i)
            .is_some_and(|s| s.procedures.iter().any(|p| p == procedure))
    };
    if lists(at.step) {
        return at.step;
    }
    (at.step..steps.len())
        .find(|&i| lists(i))
        .or_else(|| (0..at.step).rev().find(|&i| lists(i)))
        .unwrap_or(at.step)
}

impl Here<'_> {
    /// Whether the item `key` was skipped with a reason.
    fn skipped(&self, key: &str) -> bool {
        self.state.skipped.iter().any(|(_, k, _)| k == key)
    }

    /// Whether a resolution of `p` made at `at` counts for this step (this turn; made here, or
    /// in a step of the turn that does not list `p`, for the step that does).
    fn counts_here(&self, at: &Cursor, p: &str) -> bool {
        at.turn == self.state.cursor.turn
            && step_it_counts_for(self.steps, at, p) == self.state.cursor.step
    }

    /// Whether procedure `p` was resolved for this step (this turn).
    fn resolved_here(&self, p: &str) -> bool {
        self.state
            .resolved
            .iter()
            .any(|(c, proc_id, _)| proc_id == p && self.counts_here(c, p))
    }

    /// A procedure's name from the ruleset (its id if the ruleset lacks it).
    fn name(&self, id: &str) -> String {
        self.ruleset
            .procedure(id)
            .map_or_else(|| id.to_string(), |p| p.name.clone())
    }

    /// The step's own procedures.
    fn step_items(&self) -> Vec<Pending> {
        let cursor = &self.state.cursor;
        self.step
            .procedures
            .iter()
            .map(|p| {
                let key = format!("step:{}:{}:{p}", cursor.turn, cursor.step);
                Pending {
                    label: self.name(p),
                    procedure: Some(p.clone()),
                    mandatory: self.step.mandatory,
                    done: self.resolved_here(p) || self.skipped(&key),
                    key,
                    credit: None,
                }
            })
            .collect()
    }

    /// Reveals the ruleset offers at this step (ailsh D.1), in words that name no counter.
    fn reveal_items(&self, scenario: &Scenario) -> Vec<Pending> {
        let turn = self.state.cursor.turn;
        super::visibility::reveals_due(self.ruleset, scenario, self.state, &self.step.id)
            .into_iter()
            .map(|(reveal, changes)| {
                let (key, label) = super::visibility::reveal_item(reveal, turn, &changes);
                Pending {
                    label,
                    procedure: None,
                    mandatory: self.step.mandatory,
                    done: changes.is_empty() || self.skipped(&key),
                    key,
                    credit: None,
                }
            })
            .collect()
    }

    /// The scenario's schedules for this turn: at their step, the step of their procedure, or
    /// the turn's first step. One that credits an amount names what to add and where; it is
    /// done when credited (or skipped with a reason).
    fn scheduled_items(&self, scenario: &Scenario) -> Vec<Pending> {
        let cursor = &self.state.cursor;
        let mut out = Vec::new();
        for s in &scenario.schedules {
            if !s.turns.contains(&cursor.turn) {
                continue;
            }
            let belongs = match (&s.step, &s.procedure) {
                (Some(step), _) => self.step.id == *step,
                (None, Some(p)) => self.step.procedures.contains(p),
                (None, None) => cursor.step == 0,
            };
            if !belongs {
                continue;
            }
            let key = format!("schedule:{}:{}", s.id, cursor.turn);
            let nominal = s
                .amounts
                .iter()
                .find(|(t, _)| *t == cursor.turn)
                .map(|(_, a)| *a);
            // The side, unless the item's name says it already ("French APs at start").
            let side = s
                .side
                .as_ref()
                .map(|x| side_words(scenario, x))
                .filter(|w| {
                    let first = w.split_whitespace().next().unwrap_or_default();
                    !s.name.contains(first)
                })
                .map_or_else(String::new, |w| format!(" ({w})"));
            let mut label = match nominal {
                Some(a) => format!("{}: {a}{side}", s.name),
                None => format!("{}{side}", s.name),
            };
            let Some(credit) = &s.credit else {
                let done = s.procedure.as_ref().is_some_and(|p| self.resolved_here(p))
                    || self.skipped(&key);
                out.push(Pending {
                    label,
                    procedure: s.procedure.clone(),
                    mandatory: s.mandatory,
                    done,
                    key,
                    credit: None,
                });
                continue;
            };
            let target = format!(
                "{}'s {}",
                self.state.counter_name(&credit.counter),
                attribute_words(self.ruleset, &credit.attribute)
            );
            let amount = self.scheduled_amount(s);
            let done = self.carried_out(&key) || self.skipped(&key);
            match (&s.procedure, amount) {
                (Some(p), None) => label.push_str(&format!(
                    " — resolve {}, then add the result to {target}",
                    self.name(p)
                )),
                (_, Some(a)) => label.push_str(&format!(" — add {a} to {target}")),
                (None, None) => {}
            }
            out.push(Pending {
                label,
                procedure: s.procedure.clone(),
                mandatory: s.mandatory,
                credit: amount.filter(|_| !done).map(|a| format!("{a} to {target}")),
                done,
                key,
            });
        }
        out
    }

    /// The amount a schedule credits now: the number its procedure came to at this step (the
    /// latest resolution that stands), else the scenario's amount for the turn.
    fn scheduled_amount(&self, s: &super::scenario::Schedule) -> Option<i64> {
        match &s.procedure {
            Some(p) => self
                .state
                .resolved
                .iter()
                .rev()
                .filter(|(c, proc_id, _)| proc_id == p && self.counts_here(c, p))
                .find_map(|(_, _, seq)| self.state.values.get(seq).copied()),
            None => s
                .amounts
                .iter()
                .find(|(t, _)| *t == self.state.cursor.turn)
                .map(|(_, a)| *a),
        }
    }

    /// Whether the item `key` was carried out by a change (a credit recorded).
    fn carried_out(&self, key: &str) -> bool {
        self.state.carried_out.iter().any(|(_, k, _)| k == key)
    }

    /// At a turn's first step, the reinforcements arriving this turn; done when none is left
    /// in the turn's reinforcement box.
    fn reinforcement_item(&self, scenario: &Scenario) -> Option<Pending> {
        let cursor = &self.state.cursor;
        if cursor.step != 0 {
            return None;
        }
        let waiting = reinforcement_box(cursor.turn);
        let count = scenario
            .reinforcements
            .iter()
            .filter(|r| r.turn == cursor.turn)
            .map(|r| r.counters.len())
            .sum::<usize>();
        if count == 0 {
            return None;
        }
        let still = self
            .state
            .counters
            .values()
            .filter(|c| c.removed.is_none() && c.position == Position::OffMap(waiting.clone()))
            .count();
        let key = format!("reinforcements:{}", cursor.turn);
        Some(Pending {
            label: format!("Reinforcements arrive: {count} counters ({still} still to place)"),
            procedure: None,
            mandatory: true,
            done: still == 0 || self.skipped(&key),
            key,
            credit: None,
        })
    }

    /// Follow-up checks queued by earlier results, whatever the step.
    fn follow_up_items(&self) -> Vec<Pending> {
        self.state
            .follow_ups
            .iter()
            .map(|f| Pending {
                key: format!("follow_up:{}", f.from),
                label: format!(
                    "{} (queued by entry {}){}",
                    self.name(&f.procedure),
                    f.from,
                    f.text
                        .as_ref()
                        .map_or_else(String::new, |t| format!(": {t}"))
                ),
                procedure: Some(f.procedure.clone()),
                mandatory: true,
                done: false,
                credit: None,
            })
            .collect()
    }
}

/// This turn's reinforcements still waiting in their box, grouped by where they enter: what
/// the desk's "Place them" moves, one entry per place of entry.
pub fn reinforcements_to_place(
    scenario: &Scenario,
    state: &GameState,
) -> Vec<(Vec<String>, Position)> {
    let waiting = Position::OffMap(reinforcement_box(state.cursor.turn));
    let mut out: Vec<(Vec<String>, Position)> = Vec::new();
    for r in scenario
        .reinforcements
        .iter()
        .filter(|r| r.turn == state.cursor.turn)
    {
        let ids: Vec<String> = r
            .counters
            .iter()
            .filter(|c| {
                state
                    .counters
                    .get(&c.id)
                    .is_some_and(|s| s.removed.is_none() && s.position == waiting)
            })
            .map(|c| c.id.clone())
            .collect();
        if ids.is_empty() {
            continue;
        }
        match out.iter_mut().find(|(_, at)| *at == r.entry) {
            Some((list, _)) => list.extend(ids),
            None => out.push((ids, r.entry.clone())),
        }
    }
    out
}
