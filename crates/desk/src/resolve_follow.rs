//! The resolve panel follows the game: after any new entry (an action here, another desk's, an
//! undo) the form is brought up to the game as it stands — the counters that left the table
//! out of their roles, the inputs the counters and the game fill re-read — and at a new step
//! (Next, Back, a branch entered, a new turn) the form filled at the step before is cleared.
//! A procedure left open from an earlier step is not resolved by a key (R, Enter) until the
//! umpire opens it again; an item of the Sequence of Play opens its procedure with its Force in
//! the procedure's Force role and the inputs its step implies.

use umpire_core::game::Cursor;
use umpire_core::game::effects::{GAME_ROLE, RESULT_ROLE, roles_of};
use umpire_core::game::steps::Whose;

use super::{FORCE_ROLES, ResolvePanel};
use crate::live::LiveGame;

/// Where the Sequence of Play stands: its place, and the entry that brought it there (a step
/// repeated in a cycle is another visit).
pub(super) type StepMark = (Cursor, u64);

/// Where the game's Sequence of Play stands now.
pub(super) fn step_mark(live: &LiveGame) -> StepMark {
    let state = live.game().state();
    (state.cursor.clone(), state.arrived)
}

/// A step in words: "turn 1, D) Combat Phase › 5. Attrition Segment".
fn step_words(live: &LiveGame, at: &Cursor) -> String {
    let path = live
        .game()
        .steps()
        .get(at.step)
        .map_or_else(|| format!("step {}", at.step + 1), |s| s.path.clone());
    format!("turn {}, {path}", at.turn)
}

impl ResolvePanel {
    /// Brings the panel up to the game after any change to the journal: the last result
    /// dropped once it takes no proposals (undone, or applied); the counters that left the
    /// table taken out of their roles; the inputs the counters and the game fill read again
    /// (the engine's prefill). At a new step the form filled at the one before goes: its item,
    /// its typed inputs (back to the rules' defaults), the dice and a chart cell waiting.
    pub fn follow_game(&mut self, live: &LiveGame) {
        let now = (step_mark(live), live.game().events().len());
        if self.seen.as_ref() == Some(&now) {
            return;
        }
        let new_step = self.seen.as_ref().is_some_and(|(mark, _)| *mark != now.0);
        self.seen = Some(now);
        self.forget_stale(live);
        let state = live.game().state();
        for ids in self.roles.values_mut() {
            ids.retain(|id| {
                state
                    .counters
                    .get(id.as_str())
                    .is_some_and(|c| c.removed.is_none())
            });
        }
        self.roles.retain(|_, ids| !ids.is_empty());
        if new_step {
            self.item = None;
            self.pending_chart = None;
            self.chart_entry.clear();
            self.physical.clear();
            self.chart_unconfirmed = None;
            self.chart_confirmed = None;
            self.resolver.reset_inputs();
            self.prefilled.clear();
            self.needed.clear();
        }
        self.reprefill(live);
    }

    /// Marks the procedure open as chosen at this step (picked, opened from an item, or
    /// opened by the desk for it): R and Enter may resolve it here.
    pub(super) fn chosen_now(&mut self, live: &LiveGame) {
        self.chosen_at = Some(step_mark(live));
    }

    /// Why a key (R, Enter; `key` names it) may not resolve the procedure open: it was left
    /// open from an earlier step and not opened again since. None: it may.
    pub fn key_refusal(&self, live: &LiveGame, key: &str) -> Option<String> {
        let p = self.resolver.procedure()?;
        let chosen = self.chosen_at.as_ref()?;
        if *chosen == step_mark(live) {
            return None;
        }
        let ruleset = live.game().ruleset();
        let now = &live.game().state().cursor;
        let here: Vec<String> = live
            .game()
            .steps()
            .get(now.step)
            .map(|s| {
                s.procedures
                    .iter()
                    .filter_map(|id| ruleset.procedure(id).map(|q| q.name.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let instead = match here.as_slice() {
            [] => "go on: this step has no procedure of its own".to_string(),
            [one] => format!("pick this step's procedure, {one}"),
            _ => format!(
                "pick one of this step's procedures: {}",
                umpire_core::game::words::and_list(here)
            ),
        };
        Some(format!(
            "{} is still open from an earlier step: {}. {key} resolves only a procedure opened at \
             this step, so nothing was recorded. To resolve it now, open it again (in the \
             Procedure list, or its item under Pending); or {instead}.",
            p.name,
            step_words(live, &chosen.0)
        ))
    }

    /// A note when the procedure open was left from an earlier step (R and Enter wait).
    pub(super) fn earlier_step_note(&self, live: &LiveGame) -> Option<String> {
        let p = self.resolver.procedure()?;
        let chosen = self.chosen_at.as_ref()?;
        (*chosen != step_mark(live)).then(|| {
            format!(
                "{} was opened at an earlier step: {}. R and Enter wait until you open it again \
                 here.",
                p.name,
                step_words(live, &chosen.0)
            )
        })
    }

    /// A note when the result shown was recorded at another step than this one: it is not
    /// this step's result (its effects may still be applied).
    pub(super) fn result_step_note(&self, live: &LiveGame, seq: u64) -> Option<String> {
        let at = &live
            .game()
            .events()
            .get(seq.checked_sub(1)? as usize)?
            .cursor;
        (*at != live.game().state().cursor).then(|| {
            format!(
                "Recorded at an earlier step: {}. It is not this step's result; its effects may \
                 still be applied.",
                step_words(live, at)
            )
        })
    }

    /// What an item of the Sequence of Play brings to the procedure it opens: a Force's item
    /// puts that Force's counters on the table in the procedure's Force role (in no other
    /// role), and the inputs the item's step implies (the ruleset's `per_force: … inputs:`,
    /// the Attrition's reason) are filled in.
    pub(super) fn fill_from_item(&mut self, live: &LiveGame, item: &str) {
        let game = live.game();
        let Some(pending) = game.pending().into_iter().find(|p| p.key == item) else {
            return;
        };
        let Some(Whose::Force(force)) = &pending.whose else {
            return;
        };
        let procedure = pending.procedure.as_deref().unwrap_or_default();
        if let Some(per_force) = game
            .steps()
            .get(game.state().cursor.step)
            .and_then(|s| s.per_force.iter().find(|f| f.procedure == procedure))
        {
            for (name, value) in &per_force.inputs {
                self.resolver.set_input(name, value.clone());
            }
        }
        let Some(role) = self.force_role(live) else {
            return;
        };
        let counters = umpire_core::game::Names::of(game).force_counters(force);
        for ids in self.roles.values_mut() {
            ids.retain(|c| !counters.contains(c));
        }
        self.roles.retain(|_, ids| !ids.is_empty());
        if !counters.is_empty() {
            self.roles.insert(role, counters);
        }
    }

    /// The role a Force takes in the open procedure: the first of its roles that takes a whole
    /// Force (attacker, force…), else the first its inputs read from (an Activation's A).
    fn force_role(&self, live: &LiveGame) -> Option<String> {
        let p = self.resolver.procedure()?;
        let roles = roles_of(live.game().ruleset(), p);
        roles
            .iter()
            .find(|r| FORCE_ROLES.contains(&r.as_str()))
            .cloned()
            .or_else(|| {
                p.inputs.iter().find_map(|i| {
                    i.from
                        .as_ref()
                        .map(|f| f.role.clone())
                        .filter(|r| r != RESULT_ROLE && r != GAME_ROLE)
                })
            })
    }
}
