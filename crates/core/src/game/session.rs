//! A game: a journal ([`Journal`]: where it is kept, its hash chain, the offline queue) and the
//! world folded from it ([`World`]: ruleset, scenario, state). An action is checked on a
//! read-only view ([`super::check`]), passed through the actor's gate (a remit), committed to
//! the journal and folded in — `Game::act`.

use std::path::Path;

use chrono::Utc;
use serde::Serialize;

use super::action::Action;
use super::check::{self, View};
use super::event::{Event, EventKind};
use super::gate::Actor;
use super::journal::{
    Entry, Fold, GameFile, GameMeta, Head, Journal, Login, PublicMeta, Store, StoreError,
    SyncReport,
};
use super::refusal::{GameError, Refusal, SetupError};
use super::scenario::{Position, Scenario};
use super::sequence::{LeafStep, Pending, leaf_steps};
use super::state::{GameState, initial_state};
use crate::dice::AppDice;
use crate::rules::{Library, Ruleset, SourceFile};

/// The game as folded from its journal: what a check looks at.
pub struct World {
    ruleset: Ruleset,
    scenario: Scenario,
    steps: Vec<LeafStep>,
    state: GameState,
    meta: GameMeta,
}

impl World {
    /// A read-only view for checking an action against `events`.
    pub fn view<'a>(&'a self, events: &'a [Event], shared: bool) -> View<'a> {
        View {
            ruleset: &self.ruleset,
            scenario: &self.scenario,
            steps: &self.steps,
            state: &self.state,
            events,
            meta: &self.meta,
            shared,
        }
    }
}

impl Fold for World {
    fn cursor(&self) -> super::event::Cursor {
        self.state.cursor.clone()
    }

    fn breaches(&self, events: &[Event], action: &[Event]) -> Vec<String> {
        let deltas = check::delta_totals(action.iter().flat_map(|e| match &e.kind {
            EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
                changes.as_slice()
            }
            _ => &[],
        }));
        if deltas.is_empty() {
            return Vec::new();
        }
        // The game as the other desks left it.
        let Ok(state) = super::state::replay(&self.scenario, events) else {
            return Vec::new();
        };
        let view = View {
            state: &state,
            ..self.view(events, true)
        };
        deltas
            .into_iter()
            .filter_map(|((counter, attribute), by)| {
                check::adjust_range(&view, counter, attribute, by, None)
                    .err()
                    .map(|refusal| refusal.to_string())
            })
            .collect()
    }

    fn fold(&mut self, events: &[Event], from: usize) -> Result<(), String> {
        // A table transcribed during the game is read as transcribed from its entry on.
        let added = events.get(from..).unwrap_or_default();
        if let Some(ruleset) = super::transcribed::lay_journal(&self.ruleset, added)? {
            self.ruleset = ruleset;
        }
        super::timeline::advance(&mut self.state, &self.scenario, events, from)
    }
}

/// A game.
pub struct Game {
    journal: Journal,
    world: World,
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
    /// Where the journal stands: entries and the last one's hash.
    pub head: Head,
    /// The commitment to the app dice's seed.
    pub seed_commitment: String,
    /// The seed, only where it is not secret: chosen by the umpire, or revealed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Counters.
    pub counters: Vec<super::state::CounterState>,
    /// Where victory stands: the result once the game has ended, else who would win if it
    /// ended now, with every condition's reasoning.
    pub victory: super::victory::Standing,
}

pub(super) fn scenario_from(meta: &GameMeta, rulesets: &Library) -> Result<Scenario, GameError> {
    let file = SourceFile {
        name: meta.scenario_file.clone(),
        text: meta.scenario_text.clone(),
    };
    super::scenario::load_scenario(&file, rulesets).map_err(|e| {
        SetupError::Scenario(format!(
            "the scenario stored in the game no longer loads:\n{e}"
        ))
        .into()
    })
}

pub(super) fn ruleset_for(rulesets: &Library, id: &str, what: &str) -> Result<Ruleset, GameError> {
    rulesets.get(id).cloned().ok_or_else(|| {
        SetupError::RulesetMissing {
            what: what.to_string(),
            ruleset: id.to_string(),
        }
        .into()
    })
}

impl Game {
    /// Starts a new game file from a scenario. `seed`: one the umpire chooses (for tests and
    /// replays; marked as not secret), or None for a fresh secret one.
    pub fn create(
        path: &Path,
        scenario_file: &SourceFile,
        rulesets: &Library,
        seed: Option<u64>,
    ) -> Result<Game, GameError> {
        Game::create_playing(path, scenario_file, rulesets, seed, &[])
    }

    /// [`Game::create`], playing the optional rules named (their numbers as the ruleset's
    /// `optional_rules` give them): the steps they bring apply in this game.
    pub fn create_playing(
        path: &Path,
        scenario_file: &SourceFile,
        rulesets: &Library,
        seed: Option<u64>,
        optional_rules: &[String],
    ) -> Result<Game, GameError> {
        let (mut world, meta) = Game::prepare(scenario_file, rulesets, seed)?;
        let started = Game::started_playing(&mut world, &meta, optional_rules)?;
        let start = Event {
            seq: 1,
            at: Utc::now(),
            by: None,
            cursor: world.cursor(),
            kind: started,
        };
        let entry = Entry::seal(start, &meta.genesis())?;
        let file = GameFile::create_with(path, meta, &[entry])?;
        Game::from_store(Box::new(file), rulesets)
    }

    /// Starts a new game in a store made for it from its description (a shared game's server:
    /// `umpire_server::create_at`); [`Game::create`] makes a game file.
    pub fn create_in(
        scenario_file: &SourceFile,
        rulesets: &Library,
        seed: Option<u64>,
        store: impl FnOnce(GameMeta) -> Result<Box<dyn Store>, StoreError>,
    ) -> Result<Game, GameError> {
        Game::create_in_playing(scenario_file, rulesets, seed, &[], store)
    }

    /// [`Game::create_in`], playing the optional rules named.
    pub fn create_in_playing(
        scenario_file: &SourceFile,
        rulesets: &Library,
        seed: Option<u64>,
        optional_rules: &[String],
        store: impl FnOnce(GameMeta) -> Result<Box<dyn Store>, StoreError>,
    ) -> Result<Game, GameError> {
        let (mut world, meta) = Game::prepare(scenario_file, rulesets, seed)?;
        let started = Game::started_playing(&mut world, &meta, optional_rules)?;
        Game::start(store(meta)?, world, started)
    }

    /// The journal's first entry, playing the optional rules named (each one the ruleset's).
    /// The game begins at the first step of turn 1 that applies to it: the start is recorded
    /// there, and the fold puts the game there.
    fn started_playing(
        world: &mut World,
        meta: &GameMeta,
        optional_rules: &[String],
    ) -> Result<EventKind, GameError> {
        let known = &world.ruleset.optional_rules;
        if let Some(id) = optional_rules
            .iter()
            .find(|id| !known.iter().any(|o| o.id == **id))
        {
            let list = if known.is_empty() {
                String::new()
            } else {
                let names: Vec<String> = known
                    .iter()
                    .map(|o| format!("{} {}", o.id, o.name))
                    .collect();
                format!(" — its optional rules: {}", names.join("; "))
            };
            return Err(SetupError::Scenario(format!(
                "{} has no optional rule {id}{list}",
                world.ruleset.name
            ))
            .into());
        }
        world.state.optional_rules = optional_rules.iter().cloned().collect();
        world.state.cursor.step = super::sequence::Walk {
            ruleset: &world.ruleset,
            scenario: &world.scenario,
            state: &world.state,
            steps: &world.steps,
        }
        .first_step_of_turn(1);
        let mut started = Game::started(meta);
        if let EventKind::GameStarted {
            optional_rules: o,
            ruleset_hash,
            ..
        } = &mut started
        {
            *o = optional_rules.to_vec();
            *ruleset_hash = Some(super::verify::ruleset_hash(&world.ruleset));
        }
        Ok(started)
    }

    /// Every entry of the journal, sealed, as its store keeps them (to put the game elsewhere:
    /// `umpire_server::publish`).
    pub fn entries(&mut self) -> Result<Vec<Entry>, GameError> {
        Ok(self.journal.read_entries()?)
    }

    fn prepare(
        scenario_file: &SourceFile,
        rulesets: &Library,
        seed: Option<u64>,
    ) -> Result<(World, GameMeta), GameError> {
        let scenario = super::scenario::load_scenario(scenario_file, rulesets)
            .map_err(|e| SetupError::Scenario(e.to_string()))?;
        let ruleset = ruleset_for(
            rulesets,
            &scenario.ruleset,
            &format!("scenario {}", scenario.id),
        )?;
        let meta = GameMeta::new(
            ruleset.id.clone(),
            scenario.id.clone(),
            scenario_file.name.clone(),
            scenario_file.text.clone(),
            seed.unwrap_or_else(AppDice::fresh_seed),
            seed.is_some(),
        );
        let world = World {
            steps: leaf_steps(&ruleset),
            state: initial_state(&scenario),
            ruleset,
            scenario,
            meta: meta.clone(),
        };
        Ok((world, meta))
    }

    fn start(store: Box<dyn Store>, world: World, started: EventKind) -> Result<Game, GameError> {
        let mut game = Game {
            journal: Journal::open(store)?,
            world,
        };
        game.journal
            .record_fixed(&mut game.world, vec![started], None)?;
        Ok(game)
    }

    /// The journal's first entry: what the game started from, the seed's commitment (the seed
    /// itself only when the umpire chose it in the open).
    fn started(meta: &GameMeta) -> EventKind {
        EventKind::GameStarted {
            ruleset: meta.ruleset.clone(),
            scenario: meta.scenario.clone(),
            seed_commitment: meta.seed_commitment.clone(),
            seed: meta.seed.filter(|_| meta.seed_public),
            optional_rules: Vec::new(),
            ruleset_hash: None,
            scenario_hash: Some(super::verify::scenario_hash(&meta.scenario_text)),
        }
    }

    /// Opens a game file and rebuilds its state from the journal.
    pub fn open(path: &Path, rulesets: &Library) -> Result<Game, GameError> {
        Game::from_store(Box::new(GameFile::open(path)?), rulesets)
    }

    /// Rebuilds a game from any store.
    pub fn from_store(store: Box<dyn Store>, rulesets: &Library) -> Result<Game, GameError> {
        let meta = store.meta().clone();
        let ruleset = ruleset_for(rulesets, &meta.ruleset, &store.location())?;
        let scenario = scenario_from(&meta, rulesets)?;
        let journal = Journal::open(store)?;
        // The tables the game began with and recorded, not a transcription made since in the
        // umpire's folder and not recorded in the game.
        let ruleset = super::transcribed::committed(rulesets, &meta.ruleset, journal.events())
            .unwrap_or(ruleset);
        if !journal
            .events()
            .first()
            .is_some_and(|e| matches!(e.kind, EventKind::GameStarted { .. }))
        {
            return Err(SetupError::NoStart {
                location: journal.location(),
            }
            .into());
        }
        let mut world = World {
            steps: leaf_steps(&ruleset),
            state: initial_state(&scenario),
            ruleset,
            scenario,
            meta,
        };
        world.fold(journal.events(), 0).map_err(|problem| {
            super::journal::StoreError::Contradiction {
                location: journal.location(),
                problem,
            }
        })?;
        Ok(Game { journal, world })
    }

    /// Checks an action, passes it through the actor's gate, commits its events and folds
    /// them in. Nothing is written when it is refused.
    pub fn act(&mut self, actor: &Actor, action: Action) -> Result<Vec<u64>, GameError> {
        let shared = self.journal.is_shared();
        let judge = |world: &World, events: &[Event]| -> Result<Vec<EventKind>, GameError> {
            if let Some(gate) = &actor.gate {
                gate.permits(&world.scenario, &action, events)?;
            }
            let mut kinds = check::check(&world.view(events, shared), actor, &action)?;
            if let Some(gate) = &actor.gate {
                let reason = actor.reason.as_deref();
                kinds.extend(gate.judge(&world.scenario, &world.state, &kinds, reason)?);
            }
            Ok(kinds)
        };
        let may_queue = |world: &World, kinds: &[EventKind]| match &actor.gate {
            Some(gate) => gate.owns_all(&world.scenario, &world.state, kinds),
            None => Err(
                "sign in with a Control role to keep working offline on what the role owns"
                    .to_string(),
            ),
        };
        let by = actor.by.as_deref();
        self.journal
            .record(&mut self.world, &action, by, judge, &may_queue)
    }

    /// A read-only view of the game as it stands (what a check sees).
    pub fn view(&self) -> View<'_> {
        self.world
            .view(self.journal.events(), self.journal.is_shared())
    }

    /// A value kept beside the journal, outside its chain ([`Store::kept`]).
    pub fn kept(&mut self, key: &str) -> Result<Option<String>, GameError> {
        Ok(self.journal.store_mut().kept(key)?)
    }

    /// Keeps a value beside the journal ([`Store::keep`]): false when the game cannot.
    pub fn keep(&mut self, key: &str, value: &str) -> Result<bool, GameError> {
        Ok(self.journal.store_mut().keep(key, value)?)
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Ruleset {
        &self.world.ruleset
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.world.scenario
    }

    /// The state.
    pub fn state(&self) -> &GameState {
        &self.world.state
    }

    /// The journal's events.
    pub fn events(&self) -> &[Event] {
        self.journal.events()
    }

    /// The journal's timeline: each entry with the state before and after it, folded once for
    /// the readers of the game's history (reports, side views, the players' view).
    pub fn timeline(&self) -> Result<super::timeline::Timeline<'_>, String> {
        super::timeline::Timeline::new(&self.world.scenario, self.journal.events())
    }

    /// What the game started from, secret seed included (the umpire's).
    pub fn meta(&self) -> &GameMeta {
        self.journal.meta()
    }

    /// What anyone may know of how the game started.
    pub fn public_meta(&self) -> PublicMeta {
        self.journal.meta().public()
    }

    /// Where the journal stands: entries and the last one's hash.
    pub fn head(&self) -> Head {
        self.journal.head()
    }

    /// The seed, where it is not secret: chosen by the umpire, or revealed in the journal.
    pub fn public_seed(&self) -> Option<u64> {
        let meta = self.meta();
        if meta.seed_public {
            return meta.seed;
        }
        let entry = self.state().seed_revealed?;
        match &self.events().get(entry as usize - 1)?.kind {
            EventKind::SeedRevealed { seed, .. } => Some(*seed),
            _ => None,
        }
    }

    /// The app dice's seed in words, as anyone may read it: its commitment while it is secret,
    /// the seed once revealed or when the umpire chose it.
    pub fn seed_statement(&self) -> String {
        let meta = self.meta();
        let short = &meta.seed_commitment[..meta.seed_commitment.len().min(16)];
        if let Some(entry) = self.state().seed_revealed
            && let Some(seed) = self.public_seed()
        {
            return format!(
                "app dice seed {seed}, revealed at entry {entry} (commitment {short}…)"
            );
        }
        match self.public_seed() {
            Some(seed) => format!("app dice seed {seed}, chosen by the umpire: not secret"),
            None => format!("app dice seed secret until revealed; commitment {short}…"),
        }
    }

    /// Who this desk is logged in as, on a server that knows its umpires.
    pub fn login(&self) -> Option<&Login> {
        self.journal.login()
    }

    /// Where the game is kept, for people (a path, or a server and game name).
    pub fn location(&self) -> String {
        self.journal.location()
    }

    /// Why the game is open for reading only (a read-only game file), as a sentence: reading
    /// works, every action is refused. None when it may be written.
    pub fn read_only(&self) -> Option<String> {
        self.journal.read_only()
    }

    /// Whether several desks share the journal (a server).
    pub fn is_shared(&self) -> bool {
        self.journal.is_shared()
    }

    /// The journal store's own integrity check ("ok" when sound).
    pub fn integrity_check(&mut self) -> Result<String, GameError> {
        Ok(self.journal.integrity_check()?)
    }

    /// Every entry as stored (text and hash), for verification and export.
    pub fn read_entries(&mut self) -> Result<Vec<super::journal::Entry>, GameError> {
        Ok(self.journal.read_entries()?)
    }

    /// The journal, for what works on it directly (verification).
    pub(super) fn journal_mut(&mut self) -> &mut Journal {
        &mut self.journal
    }

    /// Takes in the events other desks added since this desk last looked; returns how many.
    pub fn refresh(&mut self) -> Result<usize, GameError> {
        self.journal.refresh(&mut self.world)
    }

    /// Keeps this desk's offline queue in `path` (see [`Journal::use_offline_queue`]).
    pub fn use_offline_queue(&mut self, path: std::path::PathBuf) -> Result<(), GameError> {
        self.journal.use_offline_queue(&mut self.world, path)
    }

    /// Actions recorded offline, not yet in the shared journal.
    pub fn queued(&self) -> usize {
        self.journal.queued()
    }

    /// Offline actions held after a clash, for the umpire to settle.
    pub fn held(&self) -> &[super::journal::Held] {
        self.journal.held()
    }

    /// Whether this desk is working offline.
    pub fn is_offline(&self) -> bool {
        self.journal.is_offline()
    }

    /// What the desk's listener says of the link to the server.
    pub fn set_link_up(&mut self, up: bool) {
        self.journal.set_link_up(up);
    }

    /// Sends the offline queue (see [`Journal::sync`]).
    pub fn sync(&mut self) -> Result<SyncReport, GameError> {
        self.journal.sync(&mut self.world)
    }

    /// Settles a held offline action: sends it after all, or drops it (noted in the journal).
    pub fn settle(
        &mut self,
        actor: &Actor,
        index: usize,
        send: bool,
    ) -> Result<Vec<u64>, GameError> {
        self.journal
            .settle(&mut self.world, index, send, actor.by.as_deref())
    }

    /// The leaf steps of the Sequence of Play.
    pub fn steps(&self) -> &[LeafStep] {
        &self.world.steps
    }

    /// The Sequence of Play's walk over the game as it stands: where `next` goes and what it
    /// passes, whether a step applies, the branches offered.
    pub fn walk(&self) -> super::sequence::Walk<'_> {
        super::sequence::Walk {
            ruleset: self.ruleset(),
            scenario: self.scenario(),
            state: self.state(),
            steps: self.steps(),
        }
    }

    /// Items pending or done at the current step.
    pub fn pending(&self) -> Vec<Pending> {
        check::pending_items(&self.view())
    }

    /// Turn, date, step, pending items, the journal's head and counters.
    pub fn status(&self) -> Status {
        let c = &self.state().cursor;
        let steps = self.steps();
        Status {
            scenario: self.scenario().title.clone(),
            ruleset: self.ruleset().id.clone(),
            turn: c.turn,
            turns: self.scenario().turns,
            date: self
                .scenario()
                .calendar
                .get((c.turn as usize).saturating_sub(1))
                .cloned(),
            step: steps
                .get(c.step)
                .or(steps.first())
                .cloned()
                .unwrap_or_default(),
            step_index: c.step,
            steps: steps.len(),
            pending: self.pending(),
            events: self.events().len(),
            head: self.head(),
            seed_commitment: self.meta().seed_commitment.clone(),
            seed: self.public_seed(),
            counters: self.state().counters.values().cloned().collect(),
            victory: self.standing(),
        }
    }

    /// Where victory stands (the scenario's conditions read on the game as it is).
    pub fn standing(&self) -> super::victory::Standing {
        super::victory::standing(self.scenario(), self.state())
    }

    /// Checks a position against the game's geometry.
    pub fn check_position(&self, p: &Position) -> Result<(), Refusal> {
        check::position(self.ruleset(), p)
    }

    /// Refuses an adjustment of an attribute that is not a whole number.
    pub fn check_adjustable(&self, counter: &str, attribute: &str) -> Result<(), Refusal> {
        check::adjustable(&self.view(), counter, attribute)
    }

    /// The changes proposed for the effects of a resolution (after any override).
    pub fn proposals(&self, of: u64) -> Result<Vec<super::effects::Proposal>, Refusal> {
        let view = self.view();
        let Some(Event {
            kind:
                EventKind::Resolved {
                    resolution,
                    counters,
                    ..
                },
            ..
        }) = check::standing(&view, of)
        else {
            return Err(Refusal::NotAStandingResolution { entry: of });
        };
        let overridden = self.events().iter().rev().find_map(|e| match &e.kind {
            EventKind::Overridden { of: o, effects, .. }
                if *o == of && self.state().effective.contains(&e.seq) =>
            {
                Some(effects.clone())
            }
            _ => None,
        });
        let effects = overridden.unwrap_or_else(|| resolution.outcome.effects.clone());
        let values = super::effects::resolution_values(resolution);
        Ok(super::effects::propose_for(
            self.ruleset(),
            self.state(),
            super::effects::LossFrom {
                procedure: Some(&resolution.procedure),
                role: None,
                values: Some(&values),
            },
            &effects,
            counters,
        ))
    }
}
