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
use super::store::{GameFile, GameMeta, Journal, StoreError};
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
    /// Change a whole-number attribute by a delta, with a reason (an umpire's direct
    /// adjustment of a ledger: a treasury, an Unrest Index, Arrears). Deltas commute.
    Adjust {
        /// Counter id.
        counter: String,
        /// Attribute (a whole number).
        attribute: String,
        /// The delta.
        by: i64,
        /// Why, for the journal.
        reason: String,
    },
    /// Move an amount of a whole-number attribute (florins) from one counter to another, as
    /// one event: two adjustments that stand or fall together.
    Transfer {
        /// Paying counter (a state's ledger).
        from: String,
        /// Receiving counter.
        to: String,
        /// Attribute (e.g. treasury).
        attribute: String,
        /// How much (positive).
        amount: i64,
        /// Why, for the journal.
        reason: String,
    },
    /// Undo the last effective action.
    Undo,
    /// Redo the last undone action.
    Redo,
    /// Work the real-time phase clock (megagames; see `megagame::clock`).
    Clock(super::event::ClockAction),
    /// Move the Sequence of Play forward to a phase's first step because the phase clock says
    /// so. Nothing is written when the Sequence of Play is already there or beyond, so two desks
    /// ticking at once step once.
    ClockStep {
        /// Where the clock's phase begins.
        to: super::event::Cursor,
    },
    /// Make an announcement to an audience.
    Announce {
        /// Who hears it.
        audience: super::event::Audience,
        /// The team, for a team announcement.
        team: Option<String>,
        /// What is announced.
        text: String,
    },
}

/// A game.
pub struct Game {
    pub(super) file: Box<dyn Journal>,
    ruleset: Ruleset,
    pub(super) scenario: Scenario,
    steps: Vec<LeafStep>,
    pub(super) events: Vec<Event>,
    pub(super) state: GameState,
    /// How many of `events` the journal holds; the rest are queued offline (see `offline`).
    pub(super) confirmed: usize,
    /// Offline: the number of events of each queued action, in order (the tail of `events`).
    pub(super) queued: Vec<usize>,
    /// The journal's length when this desk went offline: other desks' events after it may
    /// clash with the queue.
    pub(super) offline_base: usize,
    /// The desk's listener says the link is down: record offline without trying the server.
    pub(super) link_down: bool,
    /// Events of the last commit whose append may or may not have landed (the link dropped
    /// before the answer, and the journal could not be read to tell).
    pub(super) doubtful: Option<Vec<Event>>,
    /// The action and events of an append left in doubt, settled at the next action.
    pub(super) in_doubt: Option<(Action, Vec<Event>)>,
    /// Offline actions that clashed with another desk's change, for the umpire to settle.
    pub(super) held: Vec<super::offline::Held>,
    /// Where the offline queue is kept (none: no offline work).
    pub(super) queue_file: Option<std::path::PathBuf>,
    /// Who is at the desk (recorded on each event).
    pub by: Option<String>,
    /// The umpire signed in with a Control role, held to its remit ([`Game::sign_in`]).
    signed_in: Option<crate::megagame::remit::SignedIn>,
    /// The reason for the next action, where it rests on Control's discretion.
    pub reason: Option<String>,
}

/// Whether `there` begins with `events` (the same places, times, desks and kinds).
pub(super) fn same_events(there: &[Event], events: &[Event]) -> bool {
    there.len() >= events.len()
        && there.iter().zip(events).all(|(a, b)| {
            a.seq == b.seq && a.at == b.at && a.by == b.by && a.kind.name() == b.kind.name()
        })
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
        let (ruleset, scenario, meta) = Game::prepare(scenario_file, rulesets, seed)?;
        let file = Box::new(GameFile::create(path, meta)?);
        Game::start(file, ruleset, scenario, seed)
    }

    /// Starts a new game on a location: a game file path, or a server URL
    /// (`postgres://user@host/db?game=NAME`, see [`super::location`]).
    pub fn create_at(
        location: &str,
        scenario_file: &SourceFile,
        rulesets: &Library,
        seed: u64,
    ) -> Result<Game, GameError> {
        match super::location::Location::parse(location)? {
            super::location::Location::File(path) => {
                Game::create(&path, scenario_file, rulesets, seed)
            }
            super::location::Location::Server(server) => {
                let (ruleset, scenario, meta) = Game::prepare(scenario_file, rulesets, seed)?;
                let journal = Box::new(super::pg::ServerGame::create(&server, meta)?);
                Game::start(journal, ruleset, scenario, seed)
            }
        }
    }

    /// Puts an existing game (a file) on a server under a new name, journal and all.
    pub fn publish(&self, server: &str) -> Result<String, GameError> {
        let super::location::Location::Server(server) = super::location::Location::parse(server)?
        else {
            return refused(format!(
                "{server} is not a server URL — give postgres://user@host/database?game=NAME"
            ));
        };
        let mut journal = super::pg::ServerGame::create(&server, self.meta().clone())?;
        journal.append(&self.events)?;
        Ok(journal.location())
    }

    fn prepare(
        scenario_file: &SourceFile,
        rulesets: &Library,
        seed: u64,
    ) -> Result<(Ruleset, Scenario, GameMeta), GameError> {
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
        Ok((ruleset, scenario, meta))
    }

    /// Opens a game at a location: a game file path, or a server URL.
    pub fn open_at(location: &str, rulesets: &Library) -> Result<Game, GameError> {
        match super::location::Location::parse(location)? {
            super::location::Location::File(path) => Game::open(&path, rulesets),
            super::location::Location::Server(server) => {
                Game::from_journal(Box::new(super::pg::ServerGame::open(&server)?), rulesets)
            }
        }
    }

    fn start(
        file: Box<dyn Journal>,
        ruleset: Ruleset,
        scenario: Scenario,
        seed: u64,
    ) -> Result<Game, GameError> {
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
            signed_in: None,
            reason: None,
            confirmed: 0,
            queued: Vec::new(),
            offline_base: 0,
            link_down: false,
            doubtful: None,
            in_doubt: None,
            held: Vec::new(),
            queue_file: None,
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
        Game::from_journal(Box::new(GameFile::open(path)?), rulesets)
    }

    /// Rebuilds a game from any journal backend.
    pub fn from_journal(mut file: Box<dyn Journal>, rulesets: &Library) -> Result<Game, GameError> {
        let meta = file.meta().clone();
        let Some(ruleset) = rulesets.get(&meta.ruleset).cloned() else {
            return refused(format!(
                "{} needs ruleset {}, which is not loaded",
                file.location(),
                meta.ruleset
            ));
        };
        let scenario = scenario_from(&meta, rulesets)?;
        let events = file.events()?;
        if !GameFile::starts_properly(&events) {
            return refused(format!(
                "{}: the journal does not begin with the game's start",
                file.location()
            ));
        }
        let state = replay(&scenario, &events).map_err(GameError::Refused)?;
        let steps = leaf_steps(&ruleset);
        let events_len = events.len();
        Ok(Game {
            file,
            ruleset,
            scenario,
            steps,
            events,
            state,
            by: None,
            signed_in: None,
            reason: None,
            confirmed: events_len,
            queued: Vec::new(),
            offline_base: 0,
            link_down: false,
            doubtful: None,
            in_doubt: None,
            held: Vec::new(),
            queue_file: None,
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

    /// Signs an umpire in with a Control role: events record who made them, and actions are
    /// held to the role's remit from now on.
    pub fn sign_in(&mut self, who: crate::megagame::remit::SignedIn) {
        self.by = Some(who.by());
        self.signed_in = Some(who);
    }

    /// The umpire signed in, if any.
    pub fn signed_in(&self) -> Option<&crate::megagame::remit::SignedIn> {
        self.signed_in.as_ref()
    }

    /// Where the game is kept, for people (a path, or a server and game name).
    pub fn location(&self) -> String {
        self.file.location()
    }

    /// The journal backend's own integrity check ("ok" when sound).
    pub fn integrity_check(&mut self) -> Result<String, GameError> {
        Ok(self.file.integrity_check()?)
    }

    /// Takes in the events other desks added since this desk last looked; returns how many.
    pub fn refresh(&mut self) -> Result<usize, GameError> {
        if !self.queued.is_empty() {
            // Offline work waits at the end of the journal: send it (it follows the others').
            return Ok(self.sync()?.taken_in);
        }
        let after = self.events.len() as u64;
        let new = self.file.events_after(after)?;
        if new.is_empty() {
            return Ok(0);
        }
        let n = new.len();
        self.fold_in(new)?;
        self.confirmed = self.events.len();
        Ok(n)
    }

    /// Adds events at the end of the journal and folds them into the state: on top of it, or
    /// from the start when an undo or redo changes which earlier events count.
    pub(super) fn fold_in(&mut self, events: Vec<Event>) -> Result<(), GameError> {
        let again = events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Undone { .. } | EventKind::Redone { .. }));
        if again {
            self.events.extend(events);
            self.state = replay(&self.scenario, &self.events).map_err(GameError::Refused)?;
            return Ok(());
        }
        for event in events {
            super::state::append_event(&mut self.state, &event).map_err(GameError::Refused)?;
            self.events.push(event);
        }
        Ok(())
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

    /// Commits the events of one action together (all or none, one transaction), then folds
    /// them in. Refused with [`StoreError::Moved`] when another desk wrote first.
    fn commit(&mut self, kinds: Vec<EventKind>) -> Result<Vec<u64>, GameError> {
        let now = Utc::now();
        let first = self.events.len() as u64 + 1;
        let events: Vec<Event> = kinds
            .into_iter()
            .zip(first..)
            .map(|(kind, seq)| Event {
                seq,
                at: now,
                by: self.by.clone(),
                cursor: self.state.cursor.clone(),
                kind,
            })
            .collect();
        if !self.queued.is_empty() || self.link_down {
            // Still offline (the queue could not be sent, or the link is known to be down):
            // this action joins the queue.
            let cause = StoreError::Server {
                location: self.file.location(),
                message: "the link to the server is down".into(),
            };
            return self.queue_offline(events, cause);
        }
        if let Err(e) = self.file.append(&events) {
            // A link that dropped during the append leaves it unknown whether it landed: look
            // (reconnecting) before saying it did not, so a retry never records it twice.
            if !matches!(e, StoreError::Server { .. }) {
                return Err(e.into());
            }
            match self.landed(&events) {
                Some(true) => {}
                Some(false) => return self.queue_offline(events, e),
                None => {
                    // Cannot tell: remember, so a retry of this action does not record it twice.
                    self.doubtful = Some(events.clone());
                    return self.queue_offline(events, e);
                }
            }
        }
        self.confirmed += events.len();
        let seqs = events.iter().map(|e| e.seq).collect();
        self.fold_in(events)?;
        Ok(seqs)
    }

    /// Whether `events` are in the journal after all (an append whose answer was lost): None
    /// when the journal cannot be read to tell.
    fn landed(&mut self, events: &[Event]) -> Option<bool> {
        let after = self.events.len() as u64;
        let there = self.file.events_after(after).ok()?;
        Some(same_events(&there, events))
    }

    /// Settles an append left in doubt by a dropped link: takes in what the journal has now,
    /// and says whether the doubtful events are among it. Fails while the journal still cannot
    /// be read (the doubt stays).
    fn settle_doubt(&mut self) -> Result<Option<(Action, Vec<u64>, bool)>, GameError> {
        let Some((action, events)) = self.in_doubt.take() else {
            return Ok(None);
        };
        let there = match self.file.events_after(self.confirmed as u64) {
            Ok(t) => t,
            Err(e) => {
                self.in_doubt = Some((action, events));
                return Err(e.into());
            }
        };
        let landed = same_events(&there, &events);
        if !there.is_empty() {
            self.fold_in(there)?;
            self.confirmed = self.events.len();
        }
        let seqs = events.iter().map(|e| e.seq).collect();
        Ok(Some((action, seqs, landed)))
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

    /// Refuses an adjustment of an attribute that is not a whole number: one the ruleset does
    /// not declare as `int` for this kind of counter, or whose value is not a number.
    pub fn check_adjustable(&self, counter: &str, attribute: &str) -> Result<(), GameError> {
        use crate::rules::AttributeKind;
        let c = self.counter(counter)?;
        let specs = match c.kind {
            super::scenario::CounterKind::Leader => &self.ruleset.leaders,
            _ => &self.ruleset.units,
        };
        match specs.iter().find(|a| a.name == attribute) {
            Some(spec) if matches!(spec.kind, AttributeKind::Int { .. }) => {}
            Some(_) => {
                return refused(format!(
                    "{counter}'s {attribute} is not a number: it cannot be adjusted by a delta — set it with `game set`"
                ));
            }
            None => {
                let names: Vec<&str> = specs
                    .iter()
                    .filter(|a| matches!(a.kind, AttributeKind::Int { .. }))
                    .map(|a| a.name.as_str())
                    .collect();
                return refused(format!(
                    "{counter} has no attribute '{attribute}' — whole-number attributes: {}",
                    names.join(", ")
                ));
            }
        }
        match c.attributes.get(attribute) {
            None | Some(Value::Int(_)) => Ok(()),
            Some(other) => refused(format!(
                "{counter}'s {attribute} is '{other}', not a number: it cannot be adjusted by a delta"
            )),
        }
    }

    /// Refuses a delta that takes an attribute out of its declared range.
    fn check_adjust_range(&self, counter: &str, attribute: &str, by: i64) -> Result<(), GameError> {
        use crate::rules::AttributeKind;
        let c = self.counter(counter)?;
        let specs = match c.kind {
            super::scenario::CounterKind::Leader => &self.ruleset.leaders,
            _ => &self.ruleset.units,
        };
        let now = match c.attributes.get(attribute) {
            Some(Value::Int(v)) => *v,
            _ => 0,
        };
        let after = now.saturating_add(by);
        if let Some(AttributeKind::Int { min, max }) =
            specs.iter().find(|a| a.name == attribute).map(|a| &a.kind)
            && (min.is_some_and(|m| after < m) || max.is_some_and(|m| after > m))
        {
            return refused(format!(
                "{counter}'s {attribute} would be {after} ({now} {by:+}), outside {}–{}",
                min.map_or("…".into(), |m| m.to_string()),
                max.map_or("…".into(), |m| m.to_string())
            ));
        }
        Ok(())
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
        // On a shared game, undo takes back this desk's own last action, not another desk's.
        let shared = self.file.as_file().is_none() && self.by.is_some();
        self.events
            .iter()
            .rev()
            .filter(|e| !shared || e.by == self.by)
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
                // The clock runs on regardless: it does not end a redo.
                EventKind::Undone { .. } | EventKind::Redone { .. } | EventKind::Clock { .. } => {}
                _ => return None,
            }
        }
        None
    }

    /// Checks an action, commits its events and folds them in. Nothing is written when refused.
    pub fn act(&mut self, action: Action) -> Result<Vec<u64>, GameError> {
        // On a shared game another desk may write between our look at the state and our commit:
        // the append is then refused as a whole, we take in the other desk's events and judge
        // the action again against the new state.
        if self.in_doubt.is_some() && self.queued.is_empty() {
            // The last append's answer was lost: if it landed, a retry of the same action is
            // already done.
            if let Some((last, seqs, true)) = self.settle_doubt()?
                && last == action
            {
                return Ok(seqs);
            }
        }
        if !self.queued.is_empty() && !self.link_down {
            // Working offline: try to send the queue first; if the server is still away, the
            // action joins the queue (when the role owns what it touches).
            let _ = self.sync();
        }
        // Other desks may win the race many times in a row on a busy server: keep trying for a
        // while (each attempt takes in their events first), then say so.
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_secs(20) {
            let mut kinds = self.plan(action.clone())?;
            if let Some(who) = &self.signed_in {
                let note = crate::megagame::remit::judge(
                    who,
                    &self.scenario,
                    &self.state,
                    &kinds,
                    self.reason.as_deref(),
                )
                .map_err(GameError::Refused)?;
                kinds.extend(note);
            }
            match self.commit(kinds) {
                Err(GameError::Store(StoreError::Moved { .. })) => {
                    self.refresh()?;
                }
                done => {
                    if let Some(events) = self.doubtful.take()
                        && done.is_err()
                    {
                        self.in_doubt = Some((action.clone(), events));
                    }
                    return done;
                }
            }
        }
        refused(format!(
            "{}: other desks kept writing; the action was not recorded — try again",
            self.file.location()
        ))
    }

    /// Commits fixed events (not judged again), retrying after other desks' appends.
    pub(super) fn commit_all(&mut self, kinds: Vec<EventKind>) -> Result<Vec<u64>, GameError> {
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_secs(20) {
            match self.commit(kinds.clone()) {
                Err(GameError::Store(StoreError::Moved { .. })) => {
                    self.refresh()?;
                }
                done => return done,
            }
        }
        refused(format!(
            "{}: other desks kept writing; nothing was recorded — try again",
            self.file.location()
        ))
    }

    /// The events an action makes, judged against the current state (nothing is written).
    fn plan(&mut self, action: Action) -> Result<Vec<EventKind>, GameError> {
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
                    self.counter(c.counter())?;
                    if let CounterChange::Adjust {
                        counter, attribute, ..
                    } = c
                    {
                        self.check_adjustable(counter, attribute)?;
                    }
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
            Action::Adjust {
                counter,
                attribute,
                by,
                reason,
            } => {
                self.counter(&counter)?;
                self.check_adjustable(&counter, &attribute)?;
                self.check_adjust_range(&counter, &attribute, by)?;
                if reason.trim().is_empty() {
                    return refused("an adjustment needs a reason, for the journal");
                }
                vec![EventKind::Changed {
                    changes: vec![CounterChange::Adjust {
                        counter,
                        attribute,
                        by,
                    }],
                    reason: Some(reason),
                }]
            }
            Action::Transfer {
                from,
                to,
                attribute,
                amount,
                reason,
            } => {
                if amount <= 0 {
                    return refused(format!(
                        "a transfer moves a positive amount, not {amount} — swap the two counters to move it the other way"
                    ));
                }
                if from == to {
                    return refused("a transfer needs two different counters");
                }
                for id in [&from, &to] {
                    self.counter(id)?;
                    self.check_adjustable(id, &attribute)?;
                }
                self.check_adjust_range(&from, &attribute, -amount)?;
                self.check_adjust_range(&to, &attribute, amount)?;
                if reason.trim().is_empty() {
                    return refused("a transfer needs a reason, for the journal");
                }
                vec![EventKind::Changed {
                    changes: vec![
                        CounterChange::Adjust {
                            counter: from,
                            attribute: attribute.clone(),
                            by: -amount,
                        },
                        CounterChange::Adjust {
                            counter: to,
                            attribute,
                            by: amount,
                        },
                    ],
                    reason: Some(reason),
                }]
            }
            Action::Undo => match self.undo_target() {
                Some(event) => vec![EventKind::Undone { event }],
                None => return refused("nothing to undo"),
            },
            Action::Redo => match self.redo_target() {
                Some(event) => vec![EventKind::Redone { event }],
                None => return refused("nothing to redo"),
            },
            Action::Clock(action) => {
                let Some(clock) = self.ruleset.clock() else {
                    return refused(format!(
                        "{} has no phase clock (a megagame timetable's clock: section)",
                        self.ruleset.name
                    ));
                };
                if let super::event::ClockAction::Start { turn, phase } = &action {
                    if clock.turn(*turn).is_none() {
                        let turns: Vec<String> =
                            clock.turns.iter().map(|t| t.turn.to_string()).collect();
                        return refused(format!(
                            "the clock has no turn {turn} — turns: {}",
                            turns.join(", ")
                        ));
                    }
                    if !clock.phases.contains(phase) {
                        return refused(format!(
                            "'{phase}' is not a phase of the clock — phases: {}",
                            clock.phases.join(", ")
                        ));
                    }
                }
                vec![EventKind::Clock { action }]
            }
            Action::ClockStep { to } => {
                if to <= self.state.cursor {
                    Vec::new()
                } else if to.step >= self.steps.len() {
                    return refused(format!("there is no step {} in a turn", to.step + 1));
                } else {
                    vec![EventKind::Stepped {
                        from: self.state.cursor.clone(),
                        to,
                    }]
                }
            }
            Action::Announce {
                audience,
                team,
                text,
            } => {
                if text.trim().is_empty() {
                    return refused("an announcement needs a text");
                }
                match (audience, &team) {
                    (super::event::Audience::Team, None) => {
                        return refused("a team announcement needs the team (--team ID)");
                    }
                    (super::event::Audience::Team, Some(t)) if t.trim().is_empty() => {
                        return refused("a team announcement needs the team (--team ID)");
                    }
                    _ => {}
                }
                vec![EventKind::Announced {
                    audience,
                    team,
                    text,
                }]
            }
        };
        Ok(kinds)
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
