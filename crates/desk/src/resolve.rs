//! The resolve panel: the procedure open (picked from the Sequence of Play's), the counters
//! in its roles, its inputs (those the counters and the game supply prefilled), modifiers and
//! odds (through a [`ProcedureDesk`] over the game's ruleset), the dice — app or physical —,
//! a missing chart cell's result, and the last result with its proposed effects, Apply and
//! Override. Resolving goes through [`umpire_core::game::Game::act`]; the buttons queue
//! [`Command`]s.

use std::collections::BTreeMap;

use eframe::egui::{self, RichText, Ui};

use umpire_core::game::effects::{
    FromGame, LossFrom, Needed, Prefill, Prefilled, Proposal, prefill_all, propose_for,
};
use umpire_core::game::names::CounterId;
use umpire_core::game::sequence::scheduled_for;
use umpire_core::game::{Action, CounterChange, EventKind, GameError, Refusal};
use umpire_core::resolve::{ResolveError, describe_effect};
use umpire_core::rules::Value;

use super::commands::{Command, UiCommand};
use super::live::LiveGame;
use super::procedure_desk::{ProcedureDesk, split_faces};
use super::procedure_view::{
    CHART_RESULT_LABEL, PHYSICAL_DICE_LABEL, ROLL_LABEL, USE_CHART_LABEL, USE_PHYSICAL_LABEL,
    physical_hint,
};
use super::widgets::section_ui;

#[path = "resolve_helpers.rs"]
mod helpers;
use helpers::helper_changes;

#[path = "resolve_follow.rs"]
mod follow;
use follow::{StepMark, step_mark};

/// Label of the procedure picker of the resolve panel.
pub const PROCEDURE_LABEL: &str = "Procedure";
/// Start of the label of the button that confirms a chart code the text does not name.
pub const CONFIRM_CHART_LABEL: &str = "My chart prints";
/// Label of the procedure picker's search field.
pub const PROCEDURE_SEARCH_LABEL: &str = "Find a procedure";
/// Label of the Apply button.
pub const APPLY_LABEL: &str = "Apply effects";
/// Label of the override's outcome field.
pub const OVERRIDE_OUTCOME_LABEL: &str = "Outcome that stands";
/// Label of the override's reason field.
pub const OVERRIDE_REASON_LABEL: &str = "Reason for the override";
/// Prefix of the game result line.
pub const GAME_RESULT_PREFIX: &str = "Result: ";
/// Heading of the current step's procedures in the procedure picker.
pub const THIS_STEP_LABEL: &str = "This step";

/// Label of a role's loss field after a result read off the chart ("attacker loses (SP)").
pub const LOSES_LABEL: &str = "loses (SP)";
/// Label of a role's status picker after a result read off the chart.
pub const ROLE_STATUS_LABEL: &str = "status";

/// Roles that take a whole Force: "Add to attacker" adds every counter of the Force.
const FORCE_ROLES: [&str; 7] = [
    "attacker", "defender", "force", "pursuer", "besieger", "army", "pursued",
];

/// Prefixes of input names that name a role (`attacker_strength_points`).
const ROLE_WORDS: [&str; 10] = [
    "attacker", "defender", "firer", "target", "charger", "unit", "leader", "force", "pursuer",
    "besieger",
];

/// Where a resolution stands in the resolve panel.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedEntry {
    /// The journal entry of the resolution.
    pub seq: u64,
    /// The proposed effects.
    pub proposals: Vec<Proposal>,
    /// For each proposal that leaves a choice: the counter chosen (index into its candidates).
    pub chosen: Vec<Option<usize>>,
    /// A result read off the umpire's chart: the loss typed per role ("attacker loses 1 SP"),
    /// spread over the role's Force by the ruleset's rule.
    pub losses: BTreeMap<String, String>,
    /// A result read off the umpire's chart: the status given per role.
    pub statuses: BTreeMap<String, String>,
}

/// A missing chart cell waiting for its result: the problem in words, the physical dice
/// thrown (None: app dice, replayed from the same draws), and the table.
type PendingCell = (String, Option<Vec<String>>, Option<String>);

/// The resolve panel's state: the procedure open, its roles and inputs, what is typed, and the
/// last result.
#[derive(Debug)]
pub struct ResolvePanel {
    /// The procedure desk used for the inputs, modifiers and odds of the resolve panel (over
    /// the game's ruleset only; the game's own seed throws the dice, through the game).
    pub resolver: ProcedureDesk,
    roles: BTreeMap<String, Vec<CounterId>>,
    prefilled: Vec<Prefilled>,
    /// Inputs the counters in their role cannot give yet (an attribute printed on them, not
    /// known): left empty, "needed", and said why.
    needed: Vec<Needed>,
    /// The physical dice field, as typed.
    pub physical: String,
    /// The chart result field, as typed.
    pub chart_entry: String,
    pending_chart: Option<PendingCell>,
    resolved: Option<ResolvedEntry>,
    /// A chart code the text does not name, typed and waiting for the umpire's confirmation.
    chart_unconfirmed: Option<String>,
    /// The chart code the umpire confirmed as printed on the chart.
    chart_confirmed: Option<String>,
    /// The procedure picker's search, as typed.
    pub procedure_search: String,
    /// The override's outcome field, as typed.
    pub override_outcome: String,
    /// The override's reason field, as typed.
    pub override_reason: String,
    /// The item of the Sequence of Play the next resolution answers (its key), when the
    /// procedure was opened from it: whose scheduled roll, which Force's activation.
    item: Option<String>,
    /// Where the game stood (its step, its journal's length) when the form was last brought
    /// up to it: a new entry refreshes the form, a new step clears it.
    seen: Option<(StepMark, usize)>,
    /// The step at which the procedure open was chosen: R and Enter resolve it only there.
    chosen_at: Option<StepMark>,
}

impl ResolvePanel {
    /// The panel over a game's ruleset, no procedure open yet.
    pub fn new(live: &LiveGame) -> ResolvePanel {
        let library = umpire_core::rules::Library::of(vec![live.game().ruleset().clone()]);
        ResolvePanel {
            resolver: ProcedureDesk::with_seed(library, 0),
            roles: BTreeMap::new(),
            prefilled: Vec::new(),
            needed: Vec::new(),
            physical: String::new(),
            chart_entry: String::new(),
            pending_chart: None,
            resolved: None,
            chart_unconfirmed: None,
            chart_confirmed: None,
            procedure_search: String::new(),
            override_outcome: String::new(),
            override_reason: String::new(),
            item: None,
            seen: Some((step_mark(live), live.game().events().len())),
            // The procedure the panel starts on is the desk's choice for this step.
            chosen_at: Some(step_mark(live)),
        }
    }

    /// Clears the override's fields and shows the result that now stands (after an override
    /// was recorded).
    pub fn overridden(&mut self, live: &mut LiveGame, of: u64) {
        self.override_outcome.clear();
        self.override_reason.clear();
        self.load_proposals(live, of);
    }

    /// Counters involved in the next resolution, by role.
    pub fn roles(&self) -> &BTreeMap<String, Vec<CounterId>> {
        &self.roles
    }

    /// Inputs taken from the counters involved (and where from).
    pub fn prefilled(&self) -> &[Prefilled] {
        &self.prefilled
    }

    /// The missing chart cell waiting for a result, if any.
    pub fn pending_chart(&self) -> Option<&str> {
        self.pending_chart.as_ref().map(|(p, _, _)| p.as_str())
    }

    /// Drops the last resolution once it no longer takes proposals (undone, or its effects
    /// applied).
    fn forget_stale(&mut self, live: &LiveGame) {
        if let Some(r) = &self.resolved
            && (!live.game().state().effective.contains(&r.seq)
                || live.game().state().applied.contains(&r.seq))
        {
            self.resolved = None;
        }
    }

    /// The last resolution made here and its proposed effects.
    pub fn resolved(&self) -> Option<&ResolvedEntry> {
        self.resolved.as_ref()
    }

    /// Opens an item's procedure in the resolve panel: the next resolution answers that item
    /// (a side's scheduled roll reads its scheduled amount). Another item than the one open
    /// starts its form afresh; a Force's item puts the Force in the procedure's Force role and
    /// fills in the inputs its step implies (why an Attrition is checked).
    pub fn select_item(&mut self, live: &mut LiveGame, procedure: &str, item: &str) {
        let another = self.item.as_deref() != Some(item);
        self.select_procedure(live, procedure);
        if self.procedure_id().as_deref() != Some(procedure) {
            return;
        }
        if another {
            self.resolver.reset_inputs();
            self.prefilled.clear();
            self.needed.clear();
        }
        self.item = Some(item.to_string());
        self.fill_from_item(live, item);
        self.reprefill(live);
    }

    /// The item of the Sequence of Play the next resolution answers, when opened from one.
    pub fn item(&self) -> Option<&str> {
        self.item.as_deref()
    }

    /// Opens a procedure (by id) in the resolve panel, chosen at this step (R and Enter may
    /// resolve it here); another procedure than the one open opens with no counters in its
    /// roles.
    pub fn select_procedure(&mut self, live: &mut LiveGame, id: &str) {
        // The form first comes up to the game as it stands (a new step clears it).
        self.follow_game(live);
        self.item = None;
        let Some(index) = live
            .game()
            .ruleset()
            .procedures
            .iter()
            .position(|p| p.id == id)
        else {
            live.message = Some(format!(
                "no procedure '{id}' in {}",
                live.game().ruleset().id
            ));
            return;
        };
        // The counters picked for one procedure are not the next one's: another procedure
        // opens with no counters in its roles.
        if self
            .resolver
            .procedure()
            .is_some_and(|before| before.id != id)
        {
            self.roles.clear();
        }
        self.resolver.select_procedure(index);
        self.chosen_now(live);
        self.pending_chart = None;
        self.chart_entry.clear();
        // A new procedure starts clean: the last result belongs to the one before.
        if self
            .resolved
            .as_ref()
            .and_then(|r| live.resolution(r.seq))
            .is_some_and(|r| r.procedure != id)
        {
            self.resolved = None;
        }
        live.message = None;
        self.reprefill(live);
    }

    /// The procedures for the picker, grouped by the Sequence of Play: the current step's
    /// first, then each step's in order (sorted by name), then those of no step; each once.
    pub fn procedure_groups(&self, live: &LiveGame) -> Vec<(String, Vec<(String, String)>)> {
        let ruleset = live.game().ruleset();
        let steps = umpire_core::game::sequence::leaf_steps(ruleset);
        let name = |id: &str| {
            ruleset
                .procedure(id)
                .map(|p| (id.to_string(), p.name.clone()))
        };
        let mut seen = std::collections::BTreeSet::new();
        let mut groups = Vec::new();
        let mut group =
            |heading: String, ids: &[String], seen: &mut std::collections::BTreeSet<String>| {
                let mut list: Vec<(String, String)> = ids
                    .iter()
                    .filter(|id| seen.insert((*id).clone()))
                    .filter_map(|id| name(id))
                    .collect();
                list.sort_by(|a, b| a.1.cmp(&b.1));
                if !list.is_empty() {
                    groups.push((heading, list));
                }
            };
        if let Some(now) = steps.get(live.game().state().cursor.step) {
            group(
                format!("{THIS_STEP_LABEL} — {}", now.path),
                &now.procedures,
                &mut seen,
            );
        }
        for step in &steps {
            group(step.path.clone(), &step.procedures, &mut seen);
        }
        let rest: Vec<String> = ruleset.procedures.iter().map(|p| p.id.clone()).collect();
        group("Other procedures".into(), &rest, &mut seen);
        groups
    }

    /// The procedure open in the resolve panel.
    pub fn procedure_id(&self) -> Option<String> {
        self.resolver.procedure().map(|p| p.id.clone())
    }

    /// The roles the open procedure names: those its inputs are prefilled from (`from:
    /// army.strength`) and its effects fall on (a megagame's `army`, `state`, `area`), those its
    /// inputs' names start with (`attacker_…`, `defender_…`), else `unit`.
    pub fn role_names(&self, live: &LiveGame) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if let Some(p) = self.resolver.procedure() {
            let ruleset = live.game().ruleset();
            for r in umpire_core::game::effects::roles_of(ruleset, p) {
                // Effects on a side of the game (`french`) are not roles to fill.
                if !live.game().scenario().sides.iter().any(|s| s.id == r) && !out.contains(&r) {
                    out.push(r);
                }
            }
            for input in &p.inputs {
                if let Some((prefix, _)) = input.name.split_once('_')
                    && ROLE_WORDS.contains(&prefix)
                    && !out.iter().any(|r| r == prefix)
                {
                    out.push(prefix.to_string());
                }
            }
        }
        for r in self.roles.keys() {
            if !out.contains(r) {
                out.push(r.clone());
            }
        }
        if out.is_empty() {
            out.push("unit".into());
        }
        out
    }

    /// Adds a counter to a role of the next resolution and prefills the inputs again. A role
    /// that takes a Force (attacker, defender, force…) takes every counter of the counter's
    /// Force on the table.
    pub fn add_to_role(&mut self, live: &mut LiveGame, role: &str, counter: &str) {
        let names = umpire_core::game::Names::of(live.game());
        let counter_id = CounterId::new(counter);
        let force = names
            .counter_force(&counter_id)
            .map(|f| names.force_counters(&f))
            .filter(|ids| FORCE_ROLES.contains(&role) && ids.iter().any(|c| c == &counter_id));
        let adding = force.unwrap_or_else(|| vec![counter_id]);
        let ids = self.roles.entry(role.to_string()).or_default();
        for id in adding {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        self.reprefill(live);
    }

    /// Takes a counter out of a role.
    pub fn remove_from_role(&mut self, live: &mut LiveGame, role: &str, counter: &str) {
        if let Some(ids) = self.roles.get_mut(role) {
            ids.retain(|c| c.as_str() != counter);
            if ids.is_empty() {
                self.roles.remove(role);
            }
        }
        self.reprefill(live);
    }

    /// Clears the counters involved.
    pub fn clear_roles(&mut self, live: &mut LiveGame) {
        self.roles.clear();
        self.reprefill(live);
    }

    /// The inputs the counters in their role cannot give yet (an attribute not known).
    pub fn needed(&self) -> &[Needed] {
        &self.needed
    }

    /// Sets the inputs the counters involved supply (the engine's prefill); an input they
    /// would supply but cannot yet (a Troop Quality printed on the counter, not known) is left
    /// empty — "needed" — never at its default.
    fn reprefill(&mut self, live: &LiveGame) {
        let filled = match self.resolver.procedure() {
            Some(p) => {
                let game = live.game();
                let scheduled = self
                    .item
                    .as_deref()
                    .and_then(|key| scheduled_for(game.scenario(), key));
                prefill_all(
                    p,
                    game.state(),
                    game.events(),
                    FromGame {
                        ruleset: Some(game.ruleset()),
                        scheduled: scheduled.as_ref(),
                    },
                    &self.roles,
                )
            }
            None => Prefill::default(),
        };
        // What was needed before and is given now, and what the counters or the game gave
        // before and give no more (a result of an earlier turn, a counter taken out), go back
        // to the rules' default first: never a value the game no longer holds.
        let before: Vec<String> = self
            .needed
            .iter()
            .map(|n| n.input.clone())
            .chain(self.prefilled.iter().map(|f| f.input.clone()))
            .collect();
        self.prefilled = filled.values;
        self.needed = filled.needed;
        for name in before {
            if !self.needed.iter().any(|n| n.input == name)
                && !self.prefilled.iter().any(|f| f.input == name)
            {
                self.resolver.reset_input(&name);
            }
        }
        for n in &self.needed {
            self.resolver.clear_input(&n.input);
        }
        for f in self.prefilled.clone() {
            self.resolver.set_input(&f.input, f.value);
        }
        self.resolver.refresh();
    }

    fn inputs_as_typed(&self) -> Vec<(String, String)> {
        self.resolver
            .inputs()
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    match v {
                        Value::Bool(b) => b.to_string(),
                        v => v.to_string(),
                    },
                )
            })
            .collect()
    }

    /// Throws the app dice (the game's seeded stream) and resolves the open procedure.
    pub fn roll(&mut self, live: &mut LiveGame) -> bool {
        self.resolve(live, None, None)
    }

    /// Resolves with the physical dice typed in [`ResolvePanel::physical`].
    pub fn use_physical(&mut self, live: &mut LiveGame) -> bool {
        let faces = split_faces(&self.physical);
        if faces.is_empty() {
            live.message = Some("type the faces of the physical dice first".into());
            return false;
        }
        self.resolve(live, Some(faces), None)
    }

    /// Finishes the throw that landed on a missing chart cell with the result typed in
    /// [`ResolvePanel::chart_entry`] (the same dice: app draws are not used until committed).
    pub fn use_chart_result(&mut self, live: &mut LiveGame) -> bool {
        let Some((_, physical, _)) = self.pending_chart.clone() else {
            return false;
        };
        let chart = self.chart_entry.trim().to_string();
        if chart.is_empty() {
            live.message = Some("type the result read off your chart".into());
            return false;
        }
        // A code the text does not name for this table is taken only when the umpire confirms
        // it is what the chart prints: never silently.
        if !self.chart_code_known(live, &chart)
            && self.chart_confirmed.as_deref() != Some(chart.as_str())
        {
            self.chart_unconfirmed = Some(chart);
            return false;
        }
        let confirmed = self.chart_confirmed.as_deref() == Some(chart.as_str());
        self.chart_unconfirmed = None;
        self.chart_confirmed = None;
        self.resolve(live, physical, Some((chart, confirmed)))
    }

    /// Confirms a chart code the text does not name ("as printed on my chart") and uses it.
    pub fn confirm_chart_result(&mut self, live: &mut LiveGame) -> bool {
        let Some(code) = self.chart_unconfirmed.clone() else {
            return false;
        };
        self.chart_entry = code.clone();
        self.chart_confirmed = Some(code);
        self.use_chart_result(live)
    }

    /// A chart code typed but not confirmed, when the text does not name it.
    pub fn chart_unconfirmed(&self) -> Option<&str> {
        self.chart_unconfirmed.as_deref()
    }

    /// The table of the chart cell waiting for its result.
    fn pending_table<'a>(&self, live: &'a LiveGame) -> Option<&'a umpire_core::rules::Table> {
        let (_, _, table) = self.pending_chart.as_ref()?;
        live.game().ruleset().table(table.as_deref()?)
    }

    /// The result codes the text gives for the pending chart cell's table, with their words:
    /// its result key, the codes it names, or the procedure's outcomes.
    pub fn chart_codes(&self, live: &LiveGame) -> Vec<(String, String)> {
        match (self.pending_table(live), self.resolver.procedure()) {
            (Some(t), _) => t.given_codes(),
            // A procedure read off a chart of its own: its outcomes.
            (None, Some(p)) => p
                .outcomes
                .iter()
                .map(|o| (o.code.clone(), o.label.clone()))
                .collect(),
            (None, None) => Vec::new(),
        }
    }

    /// Whether a typed chart result is one of the codes the text gives (each of its words, for
    /// a combined result such as "A1 D3").
    fn chart_code_known(&self, live: &LiveGame, typed: &str) -> bool {
        if let Some(t) = self.pending_table(live)
            && !t.results.is_empty()
        {
            // The engine holds a typed code to the table's result key.
            return true;
        }
        let codes = self.chart_codes(live);
        typed
            .split_whitespace()
            .all(|w| codes.iter().any(|(c, _)| c.eq_ignore_ascii_case(w)))
    }

    fn resolve(
        &mut self,
        live: &mut LiveGame,
        physical: Option<Vec<String>>,
        chart: Option<(String, bool)>,
    ) -> bool {
        let Some(procedure) = self.procedure_id() else {
            live.message = Some("pick a procedure first".into());
            return false;
        };
        let action = Action::Resolve {
            procedure,
            inputs: self.inputs_as_typed(),
            physical: physical.clone(),
            chart_result: chart.as_ref().map(|(c, _)| c.clone()),
            chart_confirmed: chart.as_ref().is_some_and(|(_, confirmed)| *confirmed),
            counters: self.roles.clone(),
            item: self.item.clone(),
        };
        let Some(actor) = live.actor_or_message() else {
            return false;
        };
        match live.game_mut().act(&actor, action) {
            Err(GameError::Refused(Refusal::Resolve(e @ ResolveError::MissingCell { .. }))) => {
                live.message = None;
                self.chart_entry.clear();
                let table = match &e {
                    ResolveError::MissingCell { table, .. } => Some(table.clone()),
                    _ => None,
                };
                self.chart_unconfirmed = None;
                self.chart_confirmed = None;
                self.pending_chart = Some((e.for_a_form(), physical, table));
                false
            }
            other => {
                let Some(seqs) = live.after(other) else {
                    return false;
                };
                self.pending_chart = None;
                self.chart_entry.clear();
                self.physical.clear();
                if let Some(&seq) = seqs.last() {
                    self.load_proposals(live, seq);
                }
                self.note_step_it_counts_for(live);
                true
            }
        }
    }

    /// After a resolution made in a step that does not list its procedure: says which step it
    /// counts for (the one it belongs to), so that it is not made again there.
    fn note_step_it_counts_for(&mut self, live: &mut LiveGame) {
        let Some(p) = self.resolver.procedure().cloned() else {
            return;
        };
        let steps = umpire_core::game::sequence::leaf_steps(live.game().ruleset());
        let at = live.game().state().cursor.clone();
        let counts = umpire_core::game::sequence::step_it_counts_for(&steps, &at, &p.id);
        if counts != at.step
            && let Some(step) = steps.get(counts)
        {
            live.message = Some(format!(
                "{} is not a procedure of this step: this result counts for {}, the step it \
                 belongs to.",
                p.name, step.path
            ));
        }
    }

    pub(crate) fn load_proposals(&mut self, live: &mut LiveGame, seq: u64) {
        match live.game().proposals(seq) {
            Ok(proposals) => {
                let chosen = proposals
                    .iter()
                    .map(|p| (p.changes.is_empty() && p.candidates.len() == 1).then_some(0))
                    .collect();
                self.resolved = Some(ResolvedEntry {
                    seq,
                    proposals,
                    chosen,
                    losses: BTreeMap::new(),
                    statuses: BTreeMap::new(),
                });
            }
            Err(e) => live.message = Some(e.to_string()),
        }
    }

    /// Chooses which candidate an effect falls on (for effects that leave the choice).
    pub fn choose(&mut self, proposal: usize, candidate: Option<usize>) {
        if let Some(r) = &mut self.resolved
            && let Some(slot) = r.chosen.get_mut(proposal)
        {
            *slot = candidate;
        }
    }

    /// The changes the Apply button would make: the proposed ones, and for each choice made,
    /// the engine's proposal for the chosen counter alone.
    pub fn changes_to_apply(&self, live: &LiveGame) -> Vec<CounterChange> {
        let Some(r) = &self.resolved else {
            return Vec::new();
        };
        let roles = match live
            .game()
            .events()
            .get(r.seq.saturating_sub(1) as usize)
            .map(|e| &e.kind)
        {
            Some(EventKind::Resolved { counters, .. }) => counters.clone(),
            _ => BTreeMap::new(),
        };
        let mut out = Vec::new();
        for (p, chosen) in r.proposals.iter().zip(&r.chosen) {
            if !p.changes.is_empty() {
                out.extend(p.changes.iter().cloned());
                continue;
            }
            let Some(id) = chosen.and_then(|i| p.candidates.get(i)) else {
                continue;
            };
            let only: BTreeMap<String, Vec<String>> = roles
                .iter()
                .map(|(role, ids)| {
                    (
                        role.clone(),
                        ids.iter().filter(|c| *c == id).cloned().collect::<Vec<_>>(),
                    )
                })
                .filter(|(_, ids)| !ids.is_empty())
                .collect();
            // The chosen counter alone, by the procedure's own loss rule (as the CLI).
            let resolution = live.resolution(r.seq);
            let values = resolution.map(umpire_core::game::effects::resolution_values);
            let again = propose_for(
                live.game().ruleset(),
                live.game().state(),
                LossFrom {
                    procedure: resolution.map(|x| x.procedure.as_str()),
                    role: None,
                    values: values.as_ref(),
                },
                std::slice::from_ref(&p.effect),
                &only,
            );
            out.extend(again.into_iter().flat_map(|q| q.changes));
        }
        out.extend(helper_changes(live, r, &roles));
        out
    }

    /// Applies the proposed (and chosen) effects of the last resolution.
    pub fn apply_effects(&mut self, live: &mut LiveGame) -> bool {
        let Some(of) = self.resolved.as_ref().map(|r| r.seq) else {
            live.message = Some("nothing to apply: resolve a procedure first".into());
            return false;
        };
        let changes = self.changes_to_apply(live);
        live.act(Action::ApplyEffects { of, changes })
    }

    /// The resolve panel below its heading: procedure, counters by role, inputs (prefilled
    /// ones shown), modifiers, odds, dice, chart entry, the result and its proposed effects.
    pub fn ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        self.picker_ui(ui, live, queue);
        self.roles_ui(ui, live, queue);
        ui.add_space(4.0);
        self.resolver.inputs_ui(ui);
        self.resolver.refresh();
        ui.add_space(8.0);
        self.resolver.odds_ui(ui);
        ui.add_space(8.0);
        egui::CollapsingHeader::new("Modifiers")
            .id_salt("game_modifiers")
            .default_open(false)
            .show(ui, |ui| self.resolver.modifiers_ui(ui));
        self.dice_ui(ui, live, queue);
        if let Some(problem) = self.pending_chart().map(str::to_string) {
            self.chart_cell_ui(ui, live, &problem, queue);
        }
        if let Some(m) = live.message() {
            ui.label(RichText::new(m).color(ui.visuals().error_fg_color));
        }
        self.result_ui(ui, live, queue);
    }

    /// The procedure picker (the current step's first), and the procedure's description.
    fn picker_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        let current = self
            .resolver
            .procedure()
            .map_or_else(|| "—".to_string(), |p| p.name.clone());
        let mut pick = None;
        ui.horizontal(|ui| {
            let label = ui.label(PROCEDURE_LABEL);
            egui::ComboBox::from_id_salt("game_procedure")
                .selected_text(&current)
                .width((ui.available_width() - 30.0).clamp(140.0, 280.0))
                .truncate()
                .height(520.0)
                .show_ui(ui, |ui| {
                    // Worked out only while the list is open, not every frame.
                    let groups = self.procedure_groups(live);
                    let find = ui.label(PROCEDURE_SEARCH_LABEL);
                    ui.add(
                        egui::TextEdit::singleline(&mut self.procedure_search)
                            .hint_text("a word of its name")
                            .desired_width(240.0),
                    )
                    .labelled_by(find.id)
                    .on_hover_text("Type a word of a procedure's name to narrow the list")
                    .request_focus();
                    let needle = self.procedure_search.trim().to_lowercase();
                    for (heading, list) in &groups {
                        let shown: Vec<&(String, String)> = list
                            .iter()
                            .filter(|(_, n)| {
                                needle.is_empty() || n.to_lowercase().contains(&needle)
                            })
                            .collect();
                        if shown.is_empty() {
                            continue;
                        }
                        ui.add_space(4.0);
                        ui.label(RichText::new(heading).small().strong());
                        for (id, name) in shown {
                            if ui
                                .selectable_label(*name == current, name)
                                .on_hover_text("Open this procedure")
                                .clicked()
                            {
                                pick = Some(id.clone());
                            }
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text("The procedure to resolve: this step's first, then every other");
        });
        if let Some(id) = pick {
            queue.push(UiCommand::OpenProcedure(id).into());
        }
        if let Some(note) = self.earlier_step_note(live) {
            ui.label(RichText::new(note).color(ui.visuals().warn_fg_color));
        }
        if let Some(p) = self.resolver.procedure()
            && let Some(d) = &p.description
        {
            let d = live.game().ruleset().in_words(d.trim(), None);
            // A long description (the Assault's is a page) folds away: the form below it stays
            // in view on a 1280×720 screen.
            if d.chars().count() > 240 {
                egui::CollapsingHeader::new(RichText::new("About this procedure").weak())
                    .id_salt(("procedure_about", p.id.as_str()))
                    .default_open(false)
                    .show(ui, |ui| ui.label(RichText::new(d).weak()));
            } else {
                ui.label(RichText::new(d).weak());
            }
        }
    }

    /// The counters in each role, each with a button that takes it out; and the inputs the
    /// game supplies, each said with where it came from.
    fn roles_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        section_ui(ui, "Counters involved");
        let mut remove = None;
        for role in self.role_names(live) {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    RichText::new(format!("{}:", umpire_core::game::words::role_words(&role)))
                        .strong(),
                );
                for id in self.roles().get(&role).cloned().unwrap_or_default() {
                    if ui
                        .small_button(format!("{} ×", live.counter_name(id.as_str())))
                        .on_hover_text("take it out")
                        .clicked()
                    {
                        remove = Some((role.clone(), id.to_string()));
                    }
                }
                if self.roles().get(&role).is_none_or(Vec::is_empty) {
                    ui.label(RichText::new("select a counter, then Add to ").weak());
                }
            });
        }
        if let Some((role, id)) = remove {
            queue.push(UiCommand::RemoveFromRole { role, counter: id }.into());
        }
        // Inputs the game supplies: from the counters involved, or from the game itself
        // (this turn's weather, the turn), each said with where it came from.
        if let Some(p) = self.resolver.procedure() {
            for f in self.prefilled() {
                let Some(spec) = p.input(&f.input) else {
                    continue;
                };
                let from = match &f.game {
                    Some(said) => format!("from the game: {said}"),
                    None => format!(
                        "from {}",
                        umpire_core::game::words::and_list(
                            f.from.iter().map(|i| live.display_name(i)).collect()
                        )
                    ),
                };
                ui.label(
                    RichText::new(format!(
                        "{} = {} ({from})",
                        spec.label,
                        spec.value_words(&f.value)
                    ))
                    .italics(),
                );
            }
            let ruleset = live.game().ruleset();
            for n in self.needed() {
                let label = p
                    .input(&n.input)
                    .map_or(n.input.as_str(), |i| i.label.as_str());
                ui.label(
                    RichText::new(format!(
                        "{label}: needed — the {} of {} is not known yet (printed on the counters, not in the rule text): give it with File › Counter values…, or type it here",
                        umpire_core::game::words::attribute_words(ruleset, &n.attribute),
                        umpire_core::game::words::and_list(
                            n.counters.iter().map(|i| live.display_name(i)).collect()
                        )
                    ))
                    .color(ui.visuals().warn_fg_color),
                );
            }
            if !self.needed().is_empty()
                && ui
                    .button(UiCommand::CounterValues.label())
                    .on_hover_text(UiCommand::CounterValues.hint())
                    .clicked()
            {
                queue.push(UiCommand::CounterValues.into());
            }
        }
    }

    /// Roll the app dice, or type the physical dice.
    fn dice_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        section_ui(ui, "Dice");
        let draw = live.game().state().next_draw;
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new(ROLL_LABEL).strong().size(16.0))
                .on_hover_text("Throw the game's app dice (R)")
                .clicked()
            {
                queue.push(UiCommand::Roll.into());
            }
            // Never the seed itself: players may be looking at the screen.
            ui.label(RichText::new(format!("next draw {draw}")).weak())
                .on_hover_text(live.game().seed_statement());
        });
        // The hint says how many faces this throw takes ("1 face of d6"), not a fixed "4 6".
        let hint = self.resolver.preview().map_or_else(String::new, |p| {
            physical_hint(p.dice_count, p.dice.as_deref().unwrap_or(""))
        });
        ui.horizontal(|ui| {
            let label = ui.label(PHYSICAL_DICE_LABEL);
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut self.physical)
                        .desired_width(110.0)
                        .hint_text(hint),
                )
                .labelled_by(label.id)
                .on_hover_text("The faces of your dice, as thrown at the table; Enter uses them");
            // Enter is a key: it resolves only a procedure opened at this step.
            if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                queue.push(Command::Key(UiCommand::UsePhysical));
            }
            if ui
                .button(USE_PHYSICAL_LABEL)
                .on_hover_text("Resolve with the faces typed (Enter does the same)")
                .clicked()
            {
                queue.push(UiCommand::UsePhysical.into());
            }
        });
    }

    /// A throw that landed on a missing chart cell: the codes the text gives, the result read
    /// off the chart, and the confirmation of a code the text does not name.
    fn chart_cell_ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveGame,
        problem: &str,
        queue: &mut Vec<Command>,
    ) {
        egui::Frame::group(ui.style())
            .stroke((1.5, ui.visuals().warn_fg_color))
            .show(ui, |ui| {
                ui.label(RichText::new(problem).color(ui.visuals().warn_fg_color));
                // The codes the text gives for this table, each with its words: a click
                // fills it in.
                let codes = self.chart_codes(live);
                if codes.is_empty() {
                    ui.label(
                        RichText::new(
                            "The text names no result codes for this chart: type the result                                  exactly as your chart prints it.",
                        )
                        .weak(),
                    );
                } else {
                    ui.label(RichText::new("Codes the text gives:").weak());
                    ui.horizontal_wrapped(|ui| {
                        for (code, words) in &codes {
                            let b = ui.selectable_label(self.chart_entry == *code, code.as_str());
                            let b = if words.is_empty() { b } else { b.on_hover_text(words) };
                            if b.clicked() {
                                self.chart_entry = code.clone();
                            }
                        }
                    });
                }
                ui.horizontal(|ui| {
                    let label = ui.label(CHART_RESULT_LABEL);
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut self.chart_entry).desired_width(80.0),
                    )
                    .labelled_by(label.id).on_hover_text("The result you read off your chart; Enter uses it");
                    if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        queue.push(Command::Key(UiCommand::UseChartResult));
                    }
                    if ui.button(USE_CHART_LABEL).on_hover_text("Finish the throw with the result typed").clicked() {
                        queue.push(UiCommand::UseChartResult.into());
                    }
                });
                if let Some(code) = self.chart_unconfirmed().map(str::to_string) {
                    let named = if codes.is_empty() {
                        "the text names no codes for this chart".to_string()
                    } else {
                        format!(
                            "the text names {}",
                            umpire_core::game::words::and_list(
                                codes.iter().map(|(c, _)| c.clone()).collect()
                            )
                        )
                    };
                    ui.label(
                        RichText::new(format!(
                            "\"{code}\" is not a code the text gives ({named}). Check your chart; if it prints \"{code}\", confirm it."
                        ))
                        .color(ui.visuals().warn_fg_color),
                    );
                    if ui
                        .button(format!("{CONFIRM_CHART_LABEL} \"{code}\""))
                        .on_hover_text("The rule text does not name this code: use it as your printed chart gives it").clicked()
                    {
                        queue.push(UiCommand::ConfirmChartResult.into());
                    }
                }
            });
    }

    /// The last resolution: outcome, dice, explanation, and the proposed effects with Apply.
    pub fn result_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        let Some(entry) = self.resolved().cloned() else {
            return;
        };
        let Some(result) = live.resolution(entry.seq).cloned() else {
            return;
        };
        section_ui(ui, "Result");
        if let Some(note) = self.result_step_note(live, entry.seq) {
            ui.label(RichText::new(note).color(ui.visuals().warn_fg_color));
        }
        let accent = ui.visuals().selection.bg_fill;
        egui::Frame::group(ui.style())
            .stroke((1.5, accent))
            .inner_margin(8.0)
            .show(ui, |ui| {
                ui.set_max_width(ui.available_width() - 20.0);
                ui.label(
                    RichText::new(format!(
                        "{GAME_RESULT_PREFIX}{}",
                        // The result that stands: an override's, with what the roll gave.
                        umpire_core::game::describe::Words::of(live.game())
                            .standing_outcome(Some(entry.seq), &result)
                    ))
                    .size(20.0)
                    .strong(),
                );
                ui.label(
                    RichText::new(format!(
                        "entry #{} · {}",
                        entry.seq,
                        super::procedure_desk::describe_rolls(&result.rolls)
                    ))
                    .weak(),
                );
                if result.outcome.from_physical_chart {
                    ui.label(RichText::new("Read off the physical chart.").italics());
                }
                if !entry.proposals.is_empty() {
                    ui.add_space(4.0);
                    ui.label(RichText::new("Effects").strong());
                }
                let mut choices = Vec::new();
                for (i, p) in entry.proposals.iter().enumerate() {
                    ui.label(format!("• {}", describe_effect(&p.effect)));
                    if let Some(said) = &p.said {
                        ui.label(RichText::new(format!("   {said}")).weak());
                    }
                    for c in &p.changes {
                        ui.label(RichText::new(format!("   → {}", change_text(live, c))).italics());
                    }
                    if !p.changes.is_empty() {
                        if let Some(choice) = &p.choice {
                            ui.label(RichText::new(format!("   {choice}")).weak());
                        }
                    } else if let Some(choice) = &p.choice {
                        ui.label(
                            RichText::new(format!("   {choice}")).color(ui.visuals().warn_fg_color),
                        );
                        if p.candidates.len() > 1 {
                            ui.horizontal_wrapped(|ui| {
                                for (k, cand) in p.candidates.iter().enumerate() {
                                    let on = entry.chosen.get(i).copied().flatten() == Some(k);
                                    if ui
                                        .selectable_label(on, live.counter_name(cand))
                                        .on_hover_text("Choose this counter")
                                        .clicked()
                                    {
                                        choices.push((i, if on { None } else { Some(k) }));
                                    }
                                }
                            });
                        }
                    }
                }
                for (i, k) in choices {
                    self.choose(i, k);
                }
                if result.outcome.from_physical_chart {
                    self.chart_helpers_ui(ui, live, &entry);
                }
                let changes = self.changes_to_apply(live);
                if !changes.is_empty() {
                    ui.label(RichText::new("Changes on Apply").strong());
                    for c in &changes {
                        ui.label(RichText::new(format!("   → {}", change_text(live, c))).italics());
                    }
                }
                ui.horizontal(|ui| {
                    if ui
                        .button(RichText::new(APPLY_LABEL).strong())
                        .on_hover_text(format!("{} change(s) (A)", changes.len()))
                        .clicked()
                    {
                        queue.push(UiCommand::ApplyEffects.into());
                    }
                    ui.label(RichText::new(format!("{} change(s)", changes.len())).weak());
                });
                self.override_ui(ui, entry.seq, queue);
                egui::CollapsingHeader::new("Explanation")
                    .id_salt(("explanation", entry.seq))
                    .default_open(true)
                    .show(ui, |ui| {
                        let counters = match live
                            .game()
                            .events()
                            .get(entry.seq as usize - 1)
                            .map(|e| &e.kind)
                        {
                            Some(umpire_core::game::EventKind::Resolved { counters, .. }) => {
                                counters.clone()
                            }
                            _ => Default::default(),
                        };
                        let words = umpire_core::game::describe::Words::of(live.game());
                        for line in words.resolution(&result, &counters) {
                            ui.label(line);
                        }
                    });
            });
    }

    /// Override: the outcome that stands and the reason, for the resolution at entry `seq`.
    fn override_ui(&mut self, ui: &mut Ui, seq: u64, queue: &mut Vec<Command>) {
        egui::CollapsingHeader::new("Override")
            .id_salt(("override", seq))
            .default_open(false)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label(OVERRIDE_OUTCOME_LABEL);
                    ui.add(
                        egui::TextEdit::singleline(&mut self.override_outcome).desired_width(90.0),
                    )
                    .labelled_by(label.id)
                    .on_hover_text("The outcome that stands instead of the one resolved");
                });
                ui.horizontal(|ui| {
                    let label = ui.label(OVERRIDE_REASON_LABEL);
                    ui.add(
                        egui::TextEdit::singleline(&mut self.override_reason).desired_width(240.0),
                    )
                    .labelled_by(label.id)
                    .on_hover_text("Why the result is overridden, for the journal");
                });
                if ui
                    .button("Override the result")
                    .on_hover_text("Record the outcome typed instead, with its reason")
                    .clicked()
                {
                    queue.push(Command::Act(Action::Override {
                        of: seq,
                        outcome: self.override_outcome.trim().to_string(),
                        reason: self.override_reason.trim().to_string(),
                    }));
                }
            });
    }
}

fn change_text(live: &LiveGame, c: &CounterChange) -> String {
    umpire_core::game::describe::Words::of(live.game()).change(c)
}
