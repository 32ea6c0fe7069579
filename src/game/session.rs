//! A game session: ruleset + scenario + seed + journal. Actions are checked against the state and
//! rules, turned into events, committed to the game file, then folded into the state.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::Utc;
use serde::Serialize;
use thiserror::Error;

use super::event::{CounterChange, Event, EventKind};
use super::scenario::{Position, Scenario};
use super::sequence::{LeafStep, Pending, leaf_steps, next_cursor, pending, previous_cursor};
use super::state::{GameState, replay};
use super::store::{GameFile, GameMeta, StoreError};
use crate::dice::{AppDice, Provenance};
use crate::resolve::{DiceSource, ResolveError, parse_inputs, resolve};
use crate::rules::{GeometryKind, Library, Ruleset, SourceFile, Value};

/// Why an action was refused (nothing is written when it is).
#[derive(Debug, Error)]
pub enum GameError {
    /// The game file.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The resolver.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    /// The action does not fit the game.
    #[error("{0}")]
    Refused(String),
}

fn refused<T>(message: impl Into<String>) -> Result<T, GameError> {
    Err(GameError::Refused(message.into()))
}

/// What the umpire asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Move a counter (or place a reinforcement).
    Move {
        /// Counter id.
        counter: String,
        /// Where to.
        to: Position,
    },
    /// Take a counter off the table.
    Remove {
        /// Counter id.
        counter: String,
        /// Why.
        reason: String,
    },
    /// Set an attribute (strength, a rating the text does not print…).
    SetAttribute {
        /// Counter id.
        counter: String,
        /// Attribute.
        attribute: String,
        /// New value, as typed.
        value: String,
    },
    /// Set or clear a status marker.
    SetStatus {
        /// Counter id.
        counter: String,
        /// Status.
        status: String,
        /// Set or clear.
        on: bool,
    },
    /// Resolve a procedure.
    Resolve {
        /// Procedure id.
        procedure: String,
        /// Inputs, NAME → VALUE as typed.
        inputs: Vec<(String, String)>,
        /// Physical dice (faces as typed); app dice when None.
        physical: Option<Vec<String>>,
        /// The result read off the physical chart, for a cell the text does not give.
        chart_result: Option<String>,
        /// Counters involved, by role.
        counters: BTreeMap<String, Vec<String>>,
    },
    /// Apply (confirmed) changes for the effects of a resolution.
    ApplyEffects {
        /// The Resolved event.
        of: u64,
        /// The changes the umpire confirmed or chose.
        changes: Vec<CounterChange>,
    },
    /// Replace a result, with a reason.
    Override {
        /// The Resolved event.
        of: u64,
        /// The outcome that stands.
        outcome: String,
        /// Why.
        reason: String,
    },
    /// Advance the Sequence of Play (refused while mandatory items are pending).
    Next,
    /// Step back.
    Back,
    /// Skip a pending item, with a reason.
    Skip {
        /// The item's key (see `status`).
        item: String,
        /// Why.
        reason: String,
    },
    /// A note.
    Note {
        /// Text.
        text: String,
    },
    /// Undo the last effective action.
    Undo,
    /// Redo the last undone action.
    Redo,
}

/// A game.
pub struct Game {
    file: GameFile,
    ruleset: Ruleset,
    scenario: Scenario,
    steps: Vec<LeafStep>,
    events: Vec<Event>,
    state: GameState,
    /// Who is at the desk (recorded on each event).
    pub by: Option<String>,
}

/// What `status` shows.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    /// Scenario title.
    pub scenario: String,
    /// Ruleset id.
    pub ruleset: String,
    /// Turn.
    pub turn: u32,
    /// Turns in the scenario.
    pub turns: u32,
    /// The turn's calendar date.
    pub date: Option<String>,
    /// The current step.
    pub step: LeafStep,
    /// Its index and the number of steps.
    pub step_index: usize,
    /// Number of steps in a turn.
    pub steps: usize,
    /// Pending and done items.
    pub pending: Vec<Pending>,
    /// Journal length.
    pub events: usize,
    /// Counters.
    pub counters: Vec<super::state::CounterState>,
}

fn scenario_from(meta: &GameMeta, rulesets: &Library) -> Result<Scenario, GameError> {
    let file = SourceFile {
        name: meta.scenario_file.clone(),
        text: meta.scenario_text.clone(),
    };
    super::scenario::load_scenario(&file, rulesets).map_err(|e| {
        GameError::Refused(format!(
            "the scenario stored in the game no longer loads:\n{e}"
        ))
    })
}

impl Game {
    /// Starts a new game file from a scenario.
    pub fn create(
        path: &Path,
        scenario_file: &SourceFile,
        rulesets: &Library,
        seed: u64,
    ) -> Result<Game, GameError> {
        let scenario = super::scenario::load_scenario(scenario_file, rulesets)
            .map_err(|e| GameError::Refused(e.to_string()))?;
        let Some(ruleset) = rulesets.get(&scenario.ruleset).cloned() else {
            return refused(format!(
                "scenario {} needs ruleset {}, which is not loaded",
                scenario.id, scenario.ruleset
            ));
        };
        let meta = GameMeta {
            ruleset: ruleset.id.clone(),
            scenario: scenario.id.clone(),
            scenario_file: scenario_file.name.clone(),
            scenario_text: scenario_file.text.clone(),
            seed,
            created_by: format!("umpire {}", env!("CARGO_PKG_VERSION")),
        };
        let file = GameFile::create(path, meta)?;
        let steps = leaf_steps(&ruleset);
        let state = replay(&scenario, &[]).map_err(GameError::Refused)?;
        let mut game = Game {
            file,
            ruleset,
            scenario,
            steps,
            events: Vec::new(),
            state,
            by: None,
        };
        let start = EventKind::GameStarted {
            ruleset: game.ruleset.id.clone(),
            scenario: game.scenario.id.clone(),
            seed,
        };
        game.commit(vec![start])?;
        Ok(game)
    }

    /// Opens a game file and rebuilds its state from the journal.
    pub fn open(path: &Path, rulesets: &Library) -> Result<Game, GameError> {
        let file = GameFile::open(path)?;
        let meta = file.meta().clone();
        let Some(ruleset) = rulesets.get(&meta.ruleset).cloned() else {
            return refused(format!(
                "{} needs ruleset {}, which is not loaded",
                path.display(),
                meta.ruleset
            ));
        };
        let scenario = scenario_from(&meta, rulesets)?;
        let events = file.events()?;
        if !GameFile::starts_properly(&events) {
            return refused(format!(
                "{}: the journal does not begin with the game's start",
                path.display()
            ));
        }
        let state = replay(&scenario, &events).map_err(GameError::Refused)?;
        let steps = leaf_steps(&ruleset);
        Ok(Game {
            file,
            ruleset,
            scenario,
            steps,
            events,
            state,
            by: None,
        })
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The state.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The journal.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The game file's metadata.
    pub fn meta(&self) -> &GameMeta {
        self.file.meta()
    }

    /// The game file.
    pub fn file(&self) -> &GameFile {
        &self.file
    }

    /// The leaf steps of the Sequence of Play.
    pub fn steps(&self) -> &[LeafStep] {
        &self.steps
    }

    /// Items pending or done at the current step.
    pub fn pending(&self) -> Vec<Pending> {
        pending(&self.ruleset, &self.scenario, &self.state)
    }

    /// Turn, date, step, pending items and counters.
    pub fn status(&self) -> Status {
        let c = &self.state.cursor;
        Status {
            scenario: self.scenario.title.clone(),
            ruleset: self.ruleset.id.clone(),
            turn: c.turn,
            turns: self.scenario.turns,
            date: self
                .scenario
                .calendar
                .get((c.turn as usize).saturating_sub(1))
                .cloned(),
            step: self
                .steps
                .get(c.step)
                .cloned()
                .unwrap_or_else(|| self.steps[0].clone()),
            step_index: c.step,
            steps: self.steps.len(),
            pending: self.pending(),
            events: self.events.len(),
            counters: self.state.counters.values().cloned().collect(),
        }
    }

    /// Commits events one by one (each in its own transaction), then folds them in.
    fn commit(&mut self, kinds: Vec<EventKind>) -> Result<Vec<u64>, GameError> {
        let mut seqs = Vec::new();
        for kind in kinds {
            let event = Event {
                seq: self.events.len() as u64 + 1,
                at: Utc::now(),
                by: self.by.clone(),
                cursor: self.state.cursor.clone(),
                kind,
            };
            self.file.append(&event)?;
            seqs.push(event.seq);
            // Undo and redo change which earlier events count: fold again from the start.
            // Anything else folds in on top of the state.
            if matches!(
                event.kind,
                EventKind::Undone { .. } | EventKind::Redone { .. }
            ) {
                self.events.push(event);
                self.state = replay(&self.scenario, &self.events).map_err(GameError::Refused)?;
            } else {
                super::state::append_event(&mut self.state, &event).map_err(GameError::Refused)?;
                self.events.push(event);
            }
        }
        Ok(seqs)
    }

    fn counter(&self, id: &str) -> Result<&super::state::CounterState, GameError> {
        self.state.counters.get(id).ok_or_else(|| {
            let close: Vec<&str> = self
                .state
                .counters
                .keys()
                .filter(|k| k.contains(id) || id.contains(k.as_str()))
                .map(String::as_str)
                .take(8)
                .collect();
            let hint = if close.is_empty() {
                "see `umpire game status` for the counters".to_string()
            } else {
                format!("did you mean: {}", close.join(", "))
            };
            GameError::Refused(format!("no counter '{id}' in this game — {hint}"))
        })
    }

    /// Checks a position against the game's geometry.
    pub fn check_position(&self, p: &Position) -> Result<(), GameError> {
        let kind = self.ruleset.geometry.as_ref().map(|g| g.kind);
        match (p, kind) {
            (Position::Hex(h), _) => {
                let digits = self
                    .ruleset
                    .geometry
                    .as_ref()
                    .and_then(|g| g.hex_id_digits)
                    .unwrap_or(4) as usize;
                if h.len() != digits || !h.chars().all(|c| c.is_ascii_digit()) {
                    return refused(format!(
                        "'{h}' is not a hex id of this map — hex ids have {digits} digits, e.g. \"0114\""
                    ));
                }
                if kind.is_some_and(|k| k != GeometryKind::Hex) {
                    return refused(
                        format!(
                            "this game has no hex map ({:?} geometry)",
                            kind.unwrap_or(GeometryKind::Free)
                        )
                        .to_lowercase(),
                    );
                }
            }
            (Position::Area(a), _) if a.trim().is_empty() => {
                return refused("an area needs a name");
            }
            (Position::Free { x, y }, _) if !x.is_finite() || !y.is_finite() => {
                return refused("a free-form position needs two numbers");
            }
            _ => {}
        }
        Ok(())
    }

    fn attribute_value(
        &self,
        counter: &super::state::CounterState,
        attribute: &str,
        text: &str,
    ) -> Result<Value, GameError> {
        use crate::rules::AttributeKind;
        let specs = match counter.kind {
            super::scenario::CounterKind::Leader => &self.ruleset.leaders,
            _ => &self.ruleset.units,
        };
        let Some(spec) = specs.iter().find(|a| a.name == attribute) else {
            let names: Vec<&str> = specs.iter().map(|a| a.name.as_str()).collect();
            return refused(format!(
                "{} has no attribute '{attribute}' — attributes: {}",
                counter.id,
                names.join(", ")
            ));
        };
        let t = text.trim();
        let value = match &spec.kind {
            AttributeKind::Int { min, max } => {
                let v: i64 = t.parse().map_err(|_| {
                    GameError::Refused(format!("{attribute} is a whole number, not '{t}'"))
                })?;
                if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) {
                    return refused(format!(
                        "{attribute} must be from {} to {}, not {v}",
                        min.map_or("…".into(), |m| m.to_string()),
                        max.map_or("…".into(), |m| m.to_string())
                    ));
                }
                Value::Int(v)
            }
            AttributeKind::Choice { choices } => {
                match choices.iter().find(|c| c.eq_ignore_ascii_case(t)) {
                    Some(c) => Value::Text(c.clone()),
                    None => {
                        return refused(format!(
                            "{attribute} must be one of {}, not '{t}'",
                            choices.join(", ")
                        ));
                    }
                }
            }
            AttributeKind::Choices { choices } => {
                let parts: Vec<String> = t
                    .split(',')
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty())
                    .collect();
                if let Some(bad) = parts.iter().find(|p| !choices.contains(p)) {
                    return refused(format!(
                        "{attribute} takes {}, not '{bad}'",
                        choices.join(", ")
                    ));
                }
                Value::Text(parts.join(","))
            }
            AttributeKind::Flag => Value::Bool(matches!(
                t.to_ascii_lowercase().as_str(),
                "true" | "yes" | "1"
            )),
            AttributeKind::Text => Value::Text(t.to_string()),
        };
        Ok(value)
    }

    /// An event that stands (not undone).
    fn resolved_event(&self, seq: u64) -> Option<&Event> {
        self.events
            .get(seq.saturating_sub(1) as usize)
            .filter(|e| self.state.effective.contains(&e.seq))
    }

    /// The changes proposed for the effects of a resolution (after any override).
    pub fn proposals(&self, of: u64) -> Result<Vec<super::effects::Proposal>, GameError> {
        let Some(Event {
            kind:
                EventKind::Resolved {
                    resolution,
                    counters,
                },
            ..
        }) = self.resolved_event(of)
        else {
            return refused(format!("entry {of} is not a resolution that stands"));
        };
        let effects = match self.events.iter().rev().find(|e| {
            self.state.effective.contains(&e.seq)
                && matches!(&e.kind, EventKind::Overridden { of: o, .. } if *o == of)
        }) {
            Some(Event {
                kind: EventKind::Overridden { effects, .. },
                ..
            }) => effects.clone(),
            _ => resolution.outcome.effects.clone(),
        };
        Ok(super::effects::propose(
            &self.ruleset,
            &self.state,
            &effects,
            counters,
        ))
    }

    /// The last effective undoable event, and the last undone one that can be redone.
    fn undo_target(&self) -> Option<u64> {
        self.events
            .iter()
            .rev()
            .find(|e| e.kind.is_undoable() && self.state.effective.contains(&e.seq))
            .map(|e| e.seq)
    }

    fn redo_target(&self) -> Option<u64> {
        // The most recent Undone whose target is still undone, provided no new action came after it.
        for e in self.events.iter().rev() {
            match &e.kind {
                EventKind::Undone { event } if !self.state.effective.contains(event) => {
                    return Some(*event);
                }
                EventKind::Undone { .. } | EventKind::Redone { .. } => {}
                _ => return None,
            }
        }
        None
    }

    /// Checks an action, commits its events and folds them in. Nothing is written when refused.
    pub fn act(&mut self, action: Action) -> Result<Vec<u64>, GameError> {
        let kinds = match action {
            Action::Move { counter, to } => {
                self.check_position(&to)?;
                let c = self.counter(&counter)?;
                vec![EventKind::Changed {
                    changes: vec![CounterChange::Move {
                        counter,
                        from: Some(c.position.clone()),
                        to,
                    }],
                    reason: None,
                }]
            }
            Action::Remove { counter, reason } => {
                self.counter(&counter)?;
                vec![EventKind::Changed {
                    changes: vec![CounterChange::Remove {
                        counter,
                        reason: reason.clone(),
                    }],
                    reason: Some(reason),
                }]
            }
            Action::SetAttribute {
                counter,
                attribute,
                value,
            } => {
                let c = self.counter(&counter)?;
                let to = self.attribute_value(c, &attribute, &value)?;
                let from = c.attributes.get(&attribute).cloned();
                vec![EventKind::Changed {
                    changes: vec![CounterChange::Attribute {
                        counter,
                        attribute,
                        from,
                        to,
                    }],
                    reason: None,
                }]
            }
            Action::SetStatus {
                counter,
                status,
                on,
            } => {
                self.counter(&counter)?;
                if status.trim().is_empty() {
                    return refused("a status needs a name, e.g. disordered");
                }
                vec![EventKind::Changed {
                    changes: vec![CounterChange::Status {
                        counter,
                        status,
                        on,
                    }],
                    reason: None,
                }]
            }
            Action::Resolve {
                procedure,
                inputs,
                physical,
                chart_result,
                counters,
            } => {
                let Some(p) = self.ruleset.procedure(&procedure) else {
                    let ids: Vec<&str> = self
                        .ruleset
                        .procedures
                        .iter()
                        .map(|p| p.id.as_str())
                        .collect();
                    return refused(format!(
                        "no procedure '{procedure}' in {} — procedures: {}",
                        self.ruleset.id,
                        ids.join(", ")
                    ));
                };
                for ids in counters.values() {
                    for id in ids {
                        self.counter(id)?;
                    }
                }
                // Inputs typed by the umpire win over those taken from the counters.
                let mut pairs: Vec<(String, String)> =
                    super::effects::prefill(p, &self.state, &counters)
                        .into_iter()
                        .filter(|f| !inputs.iter().any(|(n, _)| *n == f.input))
                        .map(|f| {
                            (
                                f.input,
                                match f.value {
                                    Value::Bool(b) => b.to_string(),
                                    v => v.to_string(),
                                },
                            )
                        })
                        .collect();
                pairs.extend(inputs);
                let given = parse_inputs(p, &pairs)?;
                let mut app = AppDice::resume(self.meta().seed, self.state.next_draw);
                let dice = match physical {
                    Some(faces) => DiceSource::Physical {
                        faces,
                        entered_by: self.by.clone(),
                    },
                    None => DiceSource::App(&mut app),
                };
                let resolution = resolve(&self.ruleset, p, &given, dice, chart_result.as_deref())?;
                vec![EventKind::Resolved {
                    resolution: Box::new(resolution),
                    counters,
                }]
            }
            Action::ApplyEffects { of, changes } => {
                if !matches!(
                    self.resolved_event(of).map(|e| &e.kind),
                    Some(EventKind::Resolved { .. })
                ) {
                    return refused(format!("entry {of} is not a resolution that stands"));
                }
                if self.state.applied.contains(&of) {
                    return refused(format!(
                        "the effects of entry {of} are already applied (undo that first to change them)"
                    ));
                }
                for c in &changes {
                    let (CounterChange::Attribute { counter, .. }
                    | CounterChange::Status { counter, .. }
                    | CounterChange::Move { counter, .. }
                    | CounterChange::Remove { counter, .. }) = c;
                    self.counter(counter)?;
                    if let CounterChange::Move { to, .. } = c {
                        self.check_position(to)?;
                    }
                }
                vec![EventKind::EffectsApplied { of, changes }]
            }
            Action::Override {
                of,
                outcome,
                reason,
            } => {
                if !matches!(
                    self.resolved_event(of).map(|e| &e.kind),
                    Some(EventKind::Resolved { .. })
                ) {
                    return refused(format!("entry {of} is not a resolution that stands"));
                }
                if reason.trim().is_empty() {
                    return refused("an override needs a reason");
                }
                vec![EventKind::Overridden {
                    of,
                    outcome,
                    effects: Vec::new(),
                    reason,
                }]
            }
            Action::Next => {
                let open: Vec<String> = self
                    .pending()
                    .into_iter()
                    .filter(|p| p.mandatory && !p.done)
                    .map(|p| format!("{} [{}]", p.label, p.key))
                    .collect();
                if !open.is_empty() {
                    return refused(format!(
                        "mandatory items are still pending: {} — resolve them, or skip each with a reason (`umpire game skip FILE KEY --reason …`)",
                        open.join("; ")
                    ));
                }
                let to = next_cursor(&self.state.cursor, self.steps.len());
                if to.turn > self.scenario.turns.max(1) {
                    return refused(format!(
                        "the scenario ends after turn {}",
                        self.scenario.turns
                    ));
                }
                vec![EventKind::Stepped {
                    from: self.state.cursor.clone(),
                    to,
                }]
            }
            Action::Back => match previous_cursor(&self.state.cursor, self.steps.len()) {
                Some(to) => vec![EventKind::Stepped {
                    from: self.state.cursor.clone(),
                    to,
                }],
                None => return refused("this is the first step of the game"),
            },
            Action::Skip { item, reason } => {
                if reason.trim().is_empty() {
                    return refused("skipping needs a reason, for the journal");
                }
                let open: Vec<Pending> = self.pending().into_iter().filter(|p| !p.done).collect();
                if !open.iter().any(|p| p.key == item) {
                    let keys: Vec<&str> = open.iter().map(|p| p.key.as_str()).collect();
                    return refused(format!(
                        "nothing pending is called '{item}' — pending: {}",
                        if keys.is_empty() {
                            "nothing".into()
                        } else {
                            keys.join(", ")
                        }
                    ));
                }
                vec![EventKind::Skipped { item, reason }]
            }
            Action::Note { text } => vec![EventKind::Note { text }],
            Action::Undo => match self.undo_target() {
                Some(event) => vec![EventKind::Undone { event }],
                None => return refused("nothing to undo"),
            },
            Action::Redo => match self.redo_target() {
                Some(event) => vec![EventKind::Redone { event }],
                None => return refused("nothing to redo"),
            },
        };
        self.commit(kinds)
    }

    /// Re-derives every app roll from the seed and draw index, and every resolution from its
    /// recorded inputs and dice; returns the mismatches (empty when the journal is sound).
    pub fn verify(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let mut used: BTreeMap<u64, u64> = BTreeMap::new();
        for e in &self.events {
            let EventKind::Resolved { resolution, .. } = &e.kind else {
                continue;
            };
            for roll in &resolution.rolls {
                if let Provenance::App {
                    seed,
                    first_draw,
                    draws,
                    ..
                } = &roll.provenance
                {
                    if *seed != self.meta().seed {
                        problems.push(format!(
                            "entry {}: rolled with seed {seed}, the game's seed is {}",
                            e.seq,
                            self.meta().seed
                        ));
                    }
                    for (k, die) in roll.dice.iter().enumerate() {
                        let index = first_draw + k as u64;
                        if let Some(other) = used.insert(index, e.seq) {
                            problems.push(format!(
                                "entry {}: draw {index} was already used by entry {other}",
                                e.seq
                            ));
                        }
                        let Some(d) = self.ruleset.dice.get(&die.die) else {
                            problems.push(format!("entry {}: unknown die {}", e.seq, die.die));
                            continue;
                        };
                        let again = AppDice::face_at(*seed, index, &d);
                        if again.face != die.face {
                            problems.push(format!("entry {}: draw {index} of seed {seed} is a {} on a {}, the journal says {}", e.seq, again.face, die.die, die.face));
                        }
                    }
                    if roll.dice.len() as u64 != *draws {
                        problems.push(format!(
                            "entry {}: {} dice recorded for {draws} draws",
                            e.seq,
                            roll.dice.len()
                        ));
                    }
                }
            }
            // The same inputs and dice must give the same outcome.
            let Some(p) = self.ruleset.procedure(&resolution.procedure) else {
                problems.push(format!(
                    "entry {}: procedure {} is not in the ruleset",
                    e.seq, resolution.procedure
                ));
                continue;
            };
            let faces: Vec<String> = resolution
                .rolls
                .iter()
                .flat_map(|r| r.dice.iter().map(|d| d.face.to_string()))
                .collect();
            let chart = resolution
                .outcome
                .from_physical_chart
                .then_some(resolution.outcome.code.as_str());
            match resolve(
                &self.ruleset,
                p,
                &resolution.inputs,
                DiceSource::Physical {
                    faces,
                    entered_by: None,
                },
                chart,
            ) {
                Ok(again)
                    if again.outcome.code == resolution.outcome.code
                        && again.outcome.value == resolution.outcome.value => {}
                Ok(again) => problems.push(format!(
                    "entry {}: {} gives {} with these inputs and dice, the journal says {}",
                    e.seq, p.name, again.outcome.code, resolution.outcome.code
                )),
                Err(err) => problems.push(format!("entry {}: cannot be re-resolved: {err}", e.seq)),
            }
        }
        problems
    }
}
