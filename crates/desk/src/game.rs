//! The game desk's state: a [`Game`] (the journal is the save), the selection on the table, the
//! resolve panel (procedure, counters by role, inputs prefilled from them, dice, chart entry,
//! proposed effects) and the journal filter. No drawing and no rules: every action goes through
//! [`Game::act`], every value through the engine.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use umpire_core::game::effects::{Prefilled, Proposal, prefill, propose};
use umpire_core::game::names::CounterId;
use umpire_core::game::scenario::Position;
use umpire_core::game::visibility::Sight;
use umpire_core::game::{
    Action, Actor, CounterChange, Event, EventKind, Game, GameError, Refusal, Status, StoreError,
};
use umpire_core::resolve::{Resolution, ResolveError};
use umpire_core::rules::{Library, SourceFile, Value};

use eframe::egui;

use super::commands::{UiCommand, move_action};
use super::desk::{Desk, split_faces};

/// Where a resolution stands in the resolve panel.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedEntry {
    /// The journal entry of the resolution.
    pub seq: u64,
    /// The proposed effects.
    pub proposals: Vec<Proposal>,
    /// For each proposal that leaves a choice: the counter chosen (index into its candidates).
    pub chosen: Vec<Option<usize>>,
}

/// The state of the game desk.
pub struct GameDesk {
    game: Game,
    path: PathBuf,
    /// The procedure desk used for the inputs, modifiers and odds of the resolve panel (over
    /// the game's ruleset only).
    pub resolver: Desk,
    roles: BTreeMap<String, Vec<CounterId>>,
    prefilled: Vec<Prefilled>,
    /// The physical dice field, as typed.
    pub physical: String,
    /// The chart result field, as typed.
    pub chart_entry: String,
    /// A missing chart cell waiting for the result read off the physical chart: the problem
    /// and the physical dice of the throw (None: app dice, replayed from the same draws).
    /// A missing chart cell waiting for its result: the problem in words, the physical dice
    /// thrown, and the table.
    pending_chart: Option<(String, Option<Vec<String>>, Option<String>)>,
    resolved: Option<ResolvedEntry>,
    /// The selected counter.
    pub selected: Option<String>,
    /// The move-to field (hex id, area name, or x,y), as typed.
    pub move_to: String,
    /// The skip-reason field, as typed.
    pub skip_reason: String,
    /// The note field, as typed.
    pub note: String,
    /// The Decks and cups panel: what is chosen and typed there.
    pub deck_panel: DeckPanel,
    /// The override's outcome field, as typed.
    pub override_outcome: String,
    /// The override's reason field, as typed.
    pub override_reason: String,
    /// The journal's text filter.
    pub journal_filter: String,
    /// The journal's side, Force and procedure filters.
    pub journal_by: JournalFilter,
    /// The journal filters' lists (sides, Forces, procedures), worked out once.
    pub(crate) journal_choices: Option<std::rc::Rc<JournalChoices>>,
    /// The journal entry opened to its full explanation.
    pub journal_open: Option<u64>,
    /// The journal's kind filter (None: every kind).
    pub journal_kind: Option<&'static str>,
    /// The counter list's filter.
    pub counter_filter: String,
    /// The last refusal or problem, phrased for the umpire.
    message: Option<String>,
    /// Map view: zoom (pixels per hex radius) and pan offset.
    pub zoom: f32,
    /// Map view: pan offset, in points.
    pub pan: egui::Vec2,
    pub(crate) revision: usize,
    stacks: HashMap<String, Vec<String>>,
    /// Each stack's face, by hex (rebuilt with the stacks).
    faces: HashMap<String, umpire_core::game::face::StackFace>,
    bounds: Option<[u32; 4]>,
    /// The step the Sequence of Play list last scrolled to (turn, step).
    pub(crate) scroll_to_step: Option<(u32, usize)>,
    status: Status,
    /// Whether the map view has been fitted (false: fit on the next frame).
    pub fitted: bool,
    /// Whether the next fit takes in every place and counter (Fit the map), rather than the
    /// scenario's action (its counters, on opening).
    pub fit_all: bool,
    /// A hex picked by a click for the selected stack, waiting for "Move here".
    pub move_target: Option<String>,
    /// A chart code the text does not name, typed and waiting for the umpire's confirmation.
    chart_unconfirmed: Option<String>,
    /// The chart code the umpire confirmed as printed on the chart.
    chart_confirmed: Option<String>,
    /// Whether the map hides its counters (to read the underlay).
    pub hide_counters: bool,
    /// Whether the counters panel opens the hand changes on the next frame.
    pub open_hand_changes: bool,
    /// The procedure picker's search, as typed.
    pub procedure_search: String,
    /// The new counter being typed in the counters panel.
    pub adding: NewCounter,
    /// The note of a hand change, as typed.
    pub edit_note: String,
    /// The values typed for hand changes, by attribute.
    pub edit_values: std::collections::BTreeMap<String, String>,
    /// The counter `edit_values` were typed for: the form is rebuilt from the counter shown
    /// whenever it is another, so no value typed for one counter is ever set on the next.
    pub edit_values_for: Option<String>,
    /// The value each field showed when the umpire began typing it: a Set is refused when
    /// another desk changed the value since (then pressing Set again sets it anyway).
    pub edit_seen: std::collections::BTreeMap<String, Option<umpire_core::rules::Value>>,
    /// An action refused because it takes a ledger below its floor (a treasury below 0): the
    /// umpire may give the reason and go ahead.
    below_floor: Option<Action>,
    /// The reason typed for going below the floor.
    pub floor_reason: String,
    /// The counters split off in the stack inspector: what a drag or "Move here" moves
    /// instead of the whole stack (empty: the whole stack).
    pub split: std::collections::BTreeSet<String>,
    /// The map's extent from its counters alone (the scenario's action).
    action_bounds: Option<[u32; 4]>,
    journal_rows: Option<(JournalKey, std::rc::Rc<Vec<JournalRow>>)>,
    /// The photo or scan of the physical map under the hex grid.
    pub underlay: Option<super::underlay::Underlay>,
    /// Which underlay point the next click on the map picks (0 or 1; None: clicks act).
    pub underlay_pick: Option<usize>,
    /// A point just picked on the underlay: which one, and where on the image (pixels).
    pub underlay_picked: Option<(usize, [f64; 2])>,
    /// The counters being dragged on the hex map (a stack, or one counter), and where the
    /// pointer is.
    pub(crate) dragging: Option<(Vec<String>, eframe::egui::Pos2)>,
    /// The hex map as last drawn: origin (screen), hex radius and height, id digits, and the
    /// map's rectangle on screen.
    pub(crate) map_geometry: Option<(eframe::egui::Pos2, f32, f32, usize, eframe::egui::Rect)>,
    /// The megagame view (clock bar, table / role filter, ledgers), for a megagame.
    pub megagame: Option<super::megagame::MegagameView>,
    /// The link of a shared game (a game on a server), for a shared game.
    pub(crate) shared: Option<super::shared::SharedView>,
    /// The umpire signed in with a Control role, held to its remit (None: the umpire at a
    /// desk of their own).
    pub(crate) signed_in: Option<umpire_core::megagame::remit::SignedIn>,
    /// The reason given for actions at Control's discretion.
    pub(crate) reason: Option<String>,
    /// The side whose view the desk shows (None: the umpire's, everything).
    pub(crate) seen_by: Option<String>,
    /// That side's view as last worked out.
    pub(crate) side_cache: Option<super::side_view::SideCache>,
}

/// What the journal rows were built for: journal length, text filter, kind filter, the side
/// whose view is shown.
type JournalKey = (
    usize,
    String,
    Option<&'static str>,
    Option<String>,
    JournalFilter,
);

/// Heading of the current step's procedures in the procedure picker.
pub const THIS_STEP_LABEL: &str = "This step";

/// A counter the umpire is adding, as typed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewCounter {
    /// Its name.
    pub name: String,
    /// Its side (id).
    pub side: String,
    /// Whether it is a leader (else a unit).
    pub leader: bool,
    /// Where, as typed (a hex, an area, x, y).
    pub at: String,
    /// Its strength, as typed (the ruleset's strength attribute), if any.
    pub strength: String,
}

/// The journal filters' choices: sides, Forces, procedures, each (id, words).
pub type JournalChoices = (
    Vec<(String, String)>,
    Vec<(String, String)>,
    Vec<(String, String)>,
);

/// The Decks and cups panel's choices and fields.
#[derive(Debug, Clone)]
pub struct DeckPanel {
    /// The deck or cup shown (its id).
    pub deck: Option<String>,
    /// Whose, for decks each side keeps.
    pub owner: Option<String>,
    /// How many draws ahead the "at least one" odds look.
    pub ahead: u64,
    /// The item drawn at the table, chosen from what is inside.
    pub typed: Option<String>,
    /// NAME=COUNT lines to fill it with.
    pub fill: String,
    /// A notation whose exact odds to show (any roll: d66, 4d6kh3…).
    pub notation: String,
    /// The odds last worked out for `notation` (worked out again only when it changes).
    pub odds: Option<(String, AnyRollOdds)>,
    /// The step (turn, index) the panel last saw: arriving at a step that draws shows its deck.
    pub step_seen: Option<(u32, usize)>,
}

/// Each value of a notation with its probability and its fraction in words, or why not.
pub type AnyRollOdds = Result<Vec<(String, f64, String)>, String>;

impl Default for DeckPanel {
    fn default() -> DeckPanel {
        DeckPanel {
            deck: None,
            owner: None,
            ahead: 2,
            typed: None,
            fill: String::new(),
            notation: String::new(),
            odds: None,
            step_seen: None,
        }
    }
}

/// The journal's filters beyond its text and kind: one side's, one Force's or one
/// procedure's entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JournalFilter {
    /// A side (id): entries that name a counter of it.
    pub side: Option<String>,
    /// A Force (id): entries that name a counter of it.
    pub force: Option<String>,
    /// A procedure (id): its resolutions, their effects and overrides.
    pub procedure: Option<String>,
}

/// One line of the journal panel.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalRow {
    /// Entry number.
    pub seq: u64,
    /// Kind of entry.
    pub kind: &'static str,
    /// The entry in words.
    pub text: String,
    /// Whether it was undone (and not redone).
    pub undone: bool,
    /// Whether it is an override (with its reason in the text).
    pub overridden: bool,
}

impl std::fmt::Debug for GameDesk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameDesk")
            .field("path", &self.path)
            .field("events", &self.game.events().len())
            .finish_non_exhaustive()
    }
}

/// Every kind of journal entry, as the journal filter offers them: (kind, words).
pub const EVENT_KINDS: [(&str, &str); 12] = [
    ("game_started", "Game started"),
    ("changed", "Counters changed"),
    ("resolved", "Resolutions"),
    ("effects_applied", "Effects applied"),
    ("overridden", "Results overridden"),
    ("stepped", "Sequence of Play"),
    ("skipped", "Skipped items"),
    ("note", "Notes"),
    ("undone", "Undos"),
    ("redone", "Redos"),
    ("clock", "Clock"),
    ("announced", "Announcements"),
];

impl GameDesk {
    /// Starts a new game file at `path` on a scenario.
    pub fn create(
        path: &Path,
        scenario: &SourceFile,
        library: &Library,
        seed: Option<u64>,
    ) -> Result<GameDesk, GameError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::Contradiction {
                location: dir.display().to_string(),
                problem: format!("cannot create the folder: {e}"),
            })?;
        }
        let game = Game::create(path, scenario, library, seed)?;
        Ok(GameDesk::wrap(game, path))
    }

    /// Opens a game file.
    pub fn open(path: &Path, library: &Library) -> Result<GameDesk, GameError> {
        let game = umpire_server::open_at(&path.to_string_lossy(), library)?;
        Ok(GameDesk::wrap(game, path))
    }

    /// The desk over a game already opened (on a worker thread, say).
    pub fn from_game(game: Game, path: &Path) -> GameDesk {
        GameDesk::wrap(game, path)
    }

    /// An underlay transform that spreads an image of `size` pixels over the map's extent.
    pub fn fit_underlay(&self, size: [u32; 2]) -> super::underlay::Similarity {
        let [c0, r0, c1, _] = self.hex_bounds().unwrap_or([1, 1, 20, 20]);
        let (c0, r0, c1) = (c0.saturating_sub(2), r0.saturating_sub(2), c1 + 2);
        let centre = |col, row| umpire_core::game::hex::HexId::new(col, row, 4).centre();
        let left = centre(c0, r0)[0] - 1.0;
        let right = centre(c1, r0)[0] + 1.0;
        let top = centre(c0 | 1, r0)[1] - 3f64.sqrt() / 2.0;
        let scale = (right - left) / f64::from(size[0].max(1));
        super::underlay::Similarity::scale_then_move(scale, [left, top])
    }

    fn wrap(game: Game, path: &Path) -> GameDesk {
        let library = Library::of(vec![game.ruleset().clone()]);
        // The procedure desk here only shows inputs, modifiers and odds; the game's own (secret)
        // seed throws the dice, through the game.
        let resolver = Desk::with_seed(library, 0);
        let status = light_status(&game);
        let megagame = super::megagame::MegagameView::for_game(&game);
        let mut game = game;
        let shared = super::shared::SharedView::for_game(&mut game);
        let mut desk = GameDesk {
            megagame,
            shared,
            dragging: None,
            map_geometry: None,
            game,
            path: path.to_path_buf(),
            resolver,
            roles: BTreeMap::new(),
            prefilled: Vec::new(),
            physical: String::new(),
            chart_entry: String::new(),
            pending_chart: None,
            resolved: None,
            selected: None,
            move_to: String::new(),
            skip_reason: String::new(),
            note: String::new(),
            deck_panel: DeckPanel::default(),
            override_outcome: String::new(),
            override_reason: String::new(),
            journal_filter: String::new(),
            journal_kind: None,
            journal_by: JournalFilter::default(),
            journal_open: None,
            journal_choices: None,
            counter_filter: String::new(),
            message: None,
            zoom: 24.0,
            pan: egui::Vec2::ZERO,
            revision: usize::MAX,
            stacks: HashMap::new(),
            faces: HashMap::new(),
            bounds: None,
            scroll_to_step: None,
            status,
            fitted: false,
            fit_all: false,
            move_target: None,
            split: std::collections::BTreeSet::new(),
            chart_unconfirmed: None,
            chart_confirmed: None,
            hide_counters: false,
            open_hand_changes: false,
            procedure_search: String::new(),
            adding: NewCounter::default(),
            edit_note: String::new(),
            edit_values: std::collections::BTreeMap::new(),
            edit_values_for: None,
            edit_seen: std::collections::BTreeMap::new(),
            below_floor: None,
            floor_reason: String::new(),
            action_bounds: None,
            journal_rows: None,
            underlay: None,
            underlay_pick: None,
            underlay_picked: None,
            signed_in: None,
            reason: None,
            seen_by: None,
            side_cache: None,
        };
        // Open the resolve panel on the first pending procedure, if any.
        if let Some(p) = desk
            .game
            .pending()
            .into_iter()
            .find(|p| !p.done)
            .and_then(|p| p.procedure)
        {
            desk.select_procedure(&p);
        }
        desk.restack();
        desk
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The last refusal or problem.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
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

    /// The last resolution made here and its proposed effects.
    pub fn resolved(&self) -> Option<&ResolvedEntry> {
        self.resolved.as_ref()
    }

    /// The resolution recorded at journal entry `seq`.
    pub fn resolution(&self, seq: u64) -> Option<&Resolution> {
        match self
            .game
            .events()
            .get(seq.saturating_sub(1) as usize)
            .map(|e| &e.kind)
        {
            Some(EventKind::Resolved { resolution, .. }) => Some(resolution),
            _ => None,
        }
    }

    /// Counters by hex id (cached per journal length).
    pub fn stacks(&self) -> &HashMap<String, Vec<String>> {
        &self.stacks
    }

    /// A stack's face as last worked out (with the stacks), by hex.
    pub fn cached_face(&self, hex: &str) -> Option<&umpire_core::game::face::StackFace> {
        self.faces.get(hex)
    }

    pub(crate) fn restack(&mut self) {
        if self.revision == self.game.events().len() {
            return;
        }
        self.revision = self.game.events().len();
        self.stacks.clear();
        for c in self.game.state().counters.values() {
            // In a side's view, only what it sees on the map (presence or more).
            if c.removed.is_none()
                && self.shows(&c.id)
                && let Position::Hex(h) = &c.position
            {
                self.stacks.entry(h.clone()).or_default().push(c.id.clone());
            }
        }
        // The map's extent: every hex that holds a counter (and held one since the desk
        // opened), and every place the text names.
        let grow = |bounds: Option<[u32; 4]>, hex: &str| -> Option<[u32; 4]> {
            let Some((col, row)) =
                umpire_core::game::hex::HexId::parse_any(hex).map(|h| (h.col(), h.row()))
            else {
                return bounds;
            };
            Some(match bounds {
                None => [col, row, col, row],
                Some([a, b, c, d]) => [a.min(col), b.min(row), c.max(col), d.max(row)],
            })
        };
        let mut action = self.action_bounds;
        for h in self.stacks.keys() {
            action = grow(action, h);
        }
        self.action_bounds = action;
        // Each stack's face, worked out once per journal change (not per frame).
        let faces: HashMap<String, umpire_core::game::face::StackFace> = self
            .stacks
            .iter()
            .filter_map(|(hex, ids)| self.stack_face_of(ids).map(|f| (hex.clone(), f)))
            .collect();
        self.faces = faces;
        let mut bounds = action;
        for p in &self.game.scenario().places {
            if let Some(h) = &p.hex {
                bounds = grow(bounds, h);
            }
        }
        self.bounds = bounds;
    }

    /// The columns and rows the scenario's counters span (its action).
    pub fn action_bounds(&self) -> Option<[u32; 4]> {
        self.action_bounds
    }

    /// The columns and rows the map spans: `[min col, min row, max col, max row]`.
    pub fn hex_bounds(&self) -> Option<[u32; 4]> {
        self.bounds
    }

    /// Runs something that writes to the game (the megagame clock's actions), like
    /// [`GameDesk::act`]: a refusal becomes the desk's message. Returns whether it succeeded.
    pub(crate) fn act_on_game(
        &mut self,
        f: impl FnOnce(&mut Game, &Actor) -> Result<Vec<u64>, GameError>,
    ) -> bool {
        let actor = self.actor();
        let result = f(&mut self.game, &actor);
        self.after(result).is_some()
    }

    /// The umpire signed in at this desk, if any.
    pub fn signed_in(&self) -> Option<&umpire_core::megagame::remit::SignedIn> {
        self.signed_in.as_ref()
    }

    /// Who acts at this desk: the umpire signed in (held to the role's remit, with the reason
    /// given for what rests on discretion), or the umpire of a desk of their own.
    pub fn actor(&self) -> Actor {
        match &self.signed_in {
            Some(who) => who.clone().actor().with_reason(self.reason.clone()),
            None => Actor::umpire(),
        }
    }

    /// Works on the game outside an action (taking in other desks' events, signing in): the
    /// state shown follows; a message, or an error, becomes the desk's message.
    pub(crate) fn take_in(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<Option<String>, GameError>,
    ) {
        let before = self.game.events().len();
        let result = f(&mut self.game);
        if self.game.events().len() != before {
            let kept = self.message.take();
            self.after(Ok(Vec::new()));
            self.message = kept;
        }
        match result {
            Ok(Some(m)) => self.message = Some(m),
            Ok(None) => {}
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Shows a refusal as the desk's message; returns false.
    pub(crate) fn refuse(&mut self, message: &str) -> bool {
        self.message = Some(message.to_string());
        false
    }

    /// Runs an action; a refusal becomes the desk's message. Returns whether it was committed.
    pub fn act(&mut self, action: Action) -> bool {
        let kept = action.clone();
        let result = self.game.act(&self.actor(), action);
        let below = matches!(&result, Err(GameError::Refused(r)) if r.below_floor());
        let done = self.after(result).is_some();
        self.below_floor = below.then_some(kept);
        done
    }

    /// The action waiting for the umpire's word to go below a floor, if any.
    pub fn below_floor(&self) -> Option<&Action> {
        self.below_floor.as_ref()
    }

    /// Records the action refused for going below a floor, with the reason typed
    /// ([`GameDesk::floor_reason`]), which the journal keeps.
    pub fn go_below_floor(&mut self) -> bool {
        let Some(action) = self.below_floor.clone() else {
            return false;
        };
        let reason = self.floor_reason.trim().to_string();
        if reason.is_empty() {
            self.message = Some("give the reason for going below, for the journal".into());
            return false;
        }
        let result = self
            .game
            .act(&self.actor().with_reason(Some(reason)), action);
        let done = self.after(result).is_some();
        if done {
            self.below_floor = None;
            self.floor_reason.clear();
        }
        done
    }

    fn after(&mut self, result: Result<Vec<u64>, GameError>) -> Option<Vec<u64>> {
        let out = match result {
            Ok(seqs) => {
                self.message = None;
                Some(seqs)
            }
            Err(e) => {
                self.message = Some(e.to_string());
                None
            }
        };
        self.refresh_side();
        self.restack();
        self.status = light_status(&self.game);
        // A resolution undone (or its effects applied) no longer takes proposals.
        if let Some(r) = &self.resolved
            && (!self.game.state().effective.contains(&r.seq)
                || self.game.state().applied.contains(&r.seq))
        {
            self.resolved = None;
        }
        out
    }

    /// Advances the Sequence of Play (a refusal is shown inline).
    pub fn next_step(&mut self) -> bool {
        self.act(Action::Next)
    }

    /// Steps back.
    pub fn back_step(&mut self) -> bool {
        self.act(Action::Back)
    }

    /// Undoes the last action.
    pub fn undo(&mut self) -> bool {
        self.act(Action::Undo)
    }

    /// Redoes the last undone action.
    pub fn redo(&mut self) -> bool {
        self.act(Action::Redo)
    }

    /// The exact odds of a notation typed in the desk, worked out once per notation and within a
    /// quarter of a second (a notation past it is refused at once, saying what fits).
    pub fn any_roll_odds(&mut self, notation: &str) -> AnyRollOdds {
        if let Some((n, odds)) = &self.deck_panel.odds
            && n == notation
        {
            return odds.clone();
        }
        let dice = self.game().ruleset().dice.clone();
        let odds = umpire_core::dice::DiceExpr::parse(notation, &dice)
            .and_then(|expr| {
                let budget = umpire_core::dice::Budget {
                    seconds: 0.25,
                    ..Default::default()
                };
                let dist = expr.distribution_within(&budget)?;
                Ok(dist
                    .counts()
                    .map(|(v, _)| {
                        let p = dist.probability(v);
                        let value = if expr.is_opposed() {
                            match v {
                                1 => "first higher".to_string(),
                                0 => "a tie".to_string(),
                                _ => "second higher".to_string(),
                            }
                        } else {
                            v.to_string()
                        };
                        (value, p.to_f64(), p.words())
                    })
                    .collect())
            })
            .map_err(|e| e.to_string());
        self.deck_panel.odds = Some((notation.to_string(), odds.clone()));
        odds
    }

    /// Runs one of the desk's own commands on the game (the shell runs those about dialogs
    /// and screens); a refusal becomes the desk's message.
    pub fn run(&mut self, command: UiCommand) {
        let _done = match command {
            UiCommand::Undo => self.undo(),
            UiCommand::Redo => self.redo(),
            UiCommand::Next => self.next_step(),
            UiCommand::Back => self.back_step(),
            UiCommand::Roll => self.roll(),
            UiCommand::UsePhysical => self.use_physical(),
            UiCommand::UseChartResult => self.use_chart_result(),
            UiCommand::ApplyEffects => self.apply_effects(),
            UiCommand::MoveSelected => self.move_selected_to_typed(),
            UiCommand::Deselect => {
                self.select(None);
                true
            }
            UiCommand::ZoomIn => {
                self.zoom = (self.zoom * 1.25).min(80.0);
                true
            }
            UiCommand::ZoomOut => {
                self.zoom = (self.zoom / 1.25).max(4.0);
                true
            }
            UiCommand::ResetView => {
                self.fitted = false;
                self.fit_all = true;
                true
            }
            UiCommand::ClockStart => self.clock_start(),
            UiCommand::ClockHold => self.clock_hold(),
            UiCommand::ClockResume => self.clock_resume(),
            UiCommand::ClockAdvance => self.clock_advance(),
            UiCommand::Ledgers => self.toggle_ledgers(),
            UiCommand::SeeAsUmpire => self.see_as(None),
            UiCommand::SeeAsNextSide => self.see_next_side(),
            UiCommand::SeeAsSide(i) => self.see_side_at(usize::from(i)),
            UiCommand::RevealContacts => self.reveal_contacts(),
            UiCommand::ToggleCounters => {
                self.hide_counters = !self.hide_counters;
                true
            }
            UiCommand::HandChanges => {
                self.open_hand_changes = self.selected.is_some();
                if self.selected.is_none() {
                    self.refuse("select a counter first");
                }
                true
            }
            UiCommand::AddToRole { role, counter } => {
                self.add_to_role(&role, &counter);
                true
            }
            UiCommand::RemoveFromRole { role, counter } => {
                self.remove_from_role(&role, &counter);
                true
            }
            UiCommand::OpenProcedure(id) => {
                self.select_procedure(&id);
                true
            }
            UiCommand::ConfirmChartResult => self.confirm_chart_result(),
            UiCommand::Palette
            | UiCommand::NewGame
            | UiCommand::OpenGame
            | UiCommand::ShowGame
            | UiCommand::ShowProcedures
            | UiCommand::Print
            | UiCommand::PlayersView
            | UiCommand::ChartEditor
            | UiCommand::MapUnderlay
            | UiCommand::VerifyGame
            | UiCommand::ExportGame => true,
        };
    }

    /// Records an action a panel built ([`crate::Command::Act`]), with what the desk does around
    /// it: a note with no text is refused, a move to where the counters already are is not
    /// made; the fields the action was typed in are cleared once it is recorded (a note, a
    /// skip's reason, a deck's fill, a hand change's form, a new counter, an override) and a
    /// move drops the split. Returns whether it was recorded.
    pub fn perform(&mut self, action: Action) -> bool {
        let Some(action) = self.prepare(action) else {
            return false;
        };
        let done = self.act(action.clone());
        self.settle(&action, done);
        done
    }

    /// An action as the desk records it (text trimmed), or None when it is not made: a note
    /// with no text (said), counters already where they would move (nothing to do).
    fn prepare(&mut self, action: Action) -> Option<Action> {
        let all_there = |desk: &GameDesk, ids: &[&str], to: &Position| {
            ids.iter().all(|id| {
                desk.game
                    .state()
                    .counters
                    .get(*id)
                    .is_some_and(|c| c.position == *to)
            })
        };
        match action {
            Action::Note { text } => {
                let text = text.trim().to_string();
                if text.is_empty() {
                    self.message = Some("type the note first".into());
                    return None;
                }
                Some(Action::Note { text })
            }
            Action::Skip { item, reason } => Some(Action::Skip {
                item,
                reason: reason.trim().to_string(),
            }),
            Action::Override {
                of,
                outcome,
                reason,
            } => Some(Action::Override {
                of,
                outcome: outcome.trim().to_string(),
                reason: reason.trim().to_string(),
            }),
            Action::Move { counter, to } => {
                if all_there(self, &[counter.as_str()], &to) {
                    return None;
                }
                self.move_target = None;
                Some(Action::Move { counter, to })
            }
            Action::MoveStack { counters, to } => {
                let ids: Vec<&str> = counters.iter().map(CounterId::as_str).collect();
                if ids.is_empty() || all_there(self, &ids, &to) {
                    return None;
                }
                self.move_target = None;
                Some(Action::MoveStack { counters, to })
            }
            other => Some(other),
        }
    }

    /// What the desk does once an action was recorded (`done`) or refused.
    fn settle(&mut self, action: &Action, done: bool) {
        match action {
            Action::Skip { .. } if done => self.skip_reason.clear(),
            Action::Note { .. } if done => self.note.clear(),
            Action::Deck {
                op: umpire_core::game::DeckOp::Fill { .. },
                ..
            } if done => self.deck_panel.fill.clear(),
            Action::Move { .. } | Action::MoveStack { .. } if done => self.split.clear(),
            Action::AddCounter { .. } if done => self.adding = NewCounter::default(),
            Action::Override { of, .. } if done => {
                self.override_outcome.clear();
                self.override_reason.clear();
                self.load_proposals(*of);
            }
            Action::Edit { .. } if done => {
                self.edit_note.clear();
                self.edit_values.clear();
                self.edit_seen.clear();
            }
            Action::Edit {
                counter,
                edit: umpire_core::game::Edit::Set { attribute, .. },
                ..
            } => {
                // Refused (another desk changed it, say): the umpire has now seen the value as
                // it is, so pressing Set again sets theirs anyway.
                let now = self
                    .game
                    .state()
                    .counters
                    .get(counter.as_str())
                    .and_then(|c| c.attributes.get(attribute))
                    .cloned();
                self.edit_seen.insert(attribute.clone(), now);
            }
            _ => {}
        }
    }

    /// Selects a counter (None: clears the selection).
    pub fn select(&mut self, counter: Option<&str>) {
        let before = self.selected_hex();
        if self.selected.as_deref() != counter {
            self.edit_values.clear();
            self.edit_seen.clear();
        }
        self.selected = counter.map(str::to_string);
        if self.selected_hex() != before || counter.is_none() {
            // The split and a picked move belong to the stack they were made on.
            self.split.clear();
            self.move_target = None;
        }
        if let Some(c) = counter.and_then(|id| self.game.state().counters.get(id)) {
            self.move_to = match &c.position {
                Position::Hex(h) => h.clone(),
                Position::Area(a) => a.clone(),
                Position::Free { x, y } => format!("{x}, {y}"),
                Position::OffMap(_) => String::new(),
            };
        }
    }

    /// What a drag from a stack moves: the counters split off in the inspector when they
    /// are in it, else the whole stack (in a side's view, its own counters of it).
    pub fn moving_group(&self, hex: &str, stack: &[String]) -> Vec<String> {
        let _ = hex;
        let split: Vec<String> = stack
            .iter()
            .filter(|id| self.split.contains(*id))
            .cloned()
            .collect();
        if !split.is_empty() {
            return split;
        }
        stack
            .iter()
            .filter(|id| self.shows_as_own(id))
            .cloned()
            .collect()
    }

    /// What "Move here" moves: the selected counter's stack (or its split-off part), or the
    /// selected counter when it is not on the map.
    pub fn selected_group(&self) -> Vec<String> {
        let Some(id) = self.selected.clone() else {
            return Vec::new();
        };
        match self
            .selected_hex()
            .and_then(|h| self.stacks().get(&h).cloned().map(|s| (h, s)))
        {
            Some((hex, stack)) => self.moving_group(&hex, &stack),
            None => vec![id],
        }
    }

    /// A group of counters in words: one counter's name; a Force by its leader ("Chaumont's
    /// Force, 3 counters"); else "3 counters".
    pub fn group_words(&self, ids: &[String]) -> String {
        match ids {
            [] => "nothing".into(),
            [one] => self.display_name(one),
            _ => {
                let leader = ids.iter().find(|id| {
                    self.counter_face(id)
                        .is_some_and(|f| f.symbol == umpire_core::game::face::Symbol::Leader)
                });
                match leader {
                    Some(l) => format!("{}'s Force, {} counters", self.display_name(l), ids.len()),
                    None => format!("{} counters", ids.len()),
                }
            }
        }
    }

    /// Moves the selected counter's stack (or the part split off it) to `to`.
    pub fn move_selected(&mut self, to: Position) -> bool {
        if self.selected.is_none() {
            self.message = Some("select a counter first".into());
            return false;
        }
        let group = self.selected_group();
        self.perform(move_action(&group, to))
    }

    /// Moves the selected counter to the place typed in [`GameDesk::move_to`]: a hex id on a
    /// hex map, "x, y" on a free-form table, an area name otherwise.
    pub fn move_selected_to_typed(&mut self) -> bool {
        match self.typed_position() {
            Ok(p) => self.move_selected(p),
            Err(e) => {
                self.message = Some(e);
                false
            }
        }
    }

    /// The place typed in the move-to field, read in the game's geometry (the command line
    /// reads it the same way: [`umpire_core::game::hex::read_position`]).
    pub fn typed_position(&self) -> Result<Position, String> {
        let kind = self.game.ruleset().geometry.as_ref().map(|g| g.kind);
        umpire_core::game::hex::read_position(&self.move_to, kind).map_err(|e| e.to_string())
    }

    /// The geometry of the table: hex, area or free.
    pub fn geometry(&self) -> umpire_core::rules::GeometryKind {
        if let Some(g) = &self.game.ruleset().geometry {
            return g.kind;
        }
        let counters = &self.game.state().counters;
        if counters
            .values()
            .any(|c| matches!(c.position, Position::Hex(_)))
        {
            umpire_core::rules::GeometryKind::Hex
        } else if counters
            .values()
            .any(|c| matches!(c.position, Position::Area(_)))
        {
            umpire_core::rules::GeometryKind::Area
        } else {
            umpire_core::rules::GeometryKind::Free
        }
    }

    /// Opens a procedure (by id) in the resolve panel; another procedure than the one open
    /// opens with no counters in its roles.
    pub fn select_procedure(&mut self, id: &str) {
        let Some(index) = self
            .game
            .ruleset()
            .procedures
            .iter()
            .position(|p| p.id == id)
        else {
            self.message = Some(format!("no procedure '{id}' in {}", self.game.ruleset().id));
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
        self.pending_chart = None;
        self.chart_entry.clear();
        // A new procedure starts clean: the last result belongs to the one before.
        if self
            .resolved
            .as_ref()
            .and_then(|r| self.resolution(r.seq))
            .is_some_and(|r| r.procedure != id)
        {
            self.resolved = None;
        }
        self.message = None;
        self.reprefill();
    }

    /// The procedures for the picker, grouped by the Sequence of Play: the current step's
    /// first, then each step's in order (sorted by name), then those of no step; each once.
    pub fn procedure_groups(&self) -> Vec<(String, Vec<(String, String)>)> {
        let ruleset = self.game.ruleset();
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
        if let Some(now) = steps.get(self.game.state().cursor.step) {
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
    pub fn role_names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if let Some(p) = self.resolver.procedure() {
            let ruleset = self.game.ruleset();
            for r in umpire_core::game::effects::roles_of(ruleset, p) {
                // Effects on a side of the game (`french`) are not roles to fill.
                if !self.game.scenario().sides.iter().any(|s| s.id == r) && !out.contains(&r) {
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

    /// Adds a counter to a role of the next resolution and prefills the inputs again.
    pub fn add_to_role(&mut self, role: &str, counter: &str) {
        let ids = self.roles.entry(role.to_string()).or_default();
        if !ids.iter().any(|c| c.as_str() == counter) {
            ids.push(CounterId::new(counter));
        }
        self.reprefill();
    }

    /// Takes a counter out of a role.
    pub fn remove_from_role(&mut self, role: &str, counter: &str) {
        if let Some(ids) = self.roles.get_mut(role) {
            ids.retain(|c| c.as_str() != counter);
            if ids.is_empty() {
                self.roles.remove(role);
            }
        }
        self.reprefill();
    }

    /// Clears the counters involved.
    pub fn clear_roles(&mut self) {
        self.roles.clear();
        self.reprefill();
    }

    /// Sets the inputs the counters involved supply (the engine's prefill).
    fn reprefill(&mut self) {
        self.prefilled = match self.resolver.procedure() {
            Some(p) => prefill(
                p,
                self.game.state(),
                self.game.events(),
                Some(self.game.ruleset()),
                &self.roles,
            ),
            None => Vec::new(),
        };
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
    pub fn roll(&mut self) -> bool {
        self.resolve(None, None)
    }

    /// Resolves with the physical dice typed in [`GameDesk::physical`].
    pub fn use_physical(&mut self) -> bool {
        let faces = split_faces(&self.physical);
        if faces.is_empty() {
            self.message = Some("type the faces of the physical dice first".into());
            return false;
        }
        self.resolve(Some(faces), None)
    }

    /// Finishes the throw that landed on a missing chart cell with the result typed in
    /// [`GameDesk::chart_entry`] (the same dice: app draws are not used until committed).
    pub fn use_chart_result(&mut self) -> bool {
        let Some((_, physical, _)) = self.pending_chart.clone() else {
            return false;
        };
        let chart = self.chart_entry.trim().to_string();
        if chart.is_empty() {
            self.message = Some("type the result read off your chart".into());
            return false;
        }
        // A code the text does not name for this table is taken only when the umpire confirms
        // it is what the chart prints: never silently.
        if !self.chart_code_known(&chart) && self.chart_confirmed.as_deref() != Some(chart.as_str())
        {
            self.chart_unconfirmed = Some(chart);
            return false;
        }
        let confirmed = self.chart_confirmed.as_deref() == Some(chart.as_str());
        self.chart_unconfirmed = None;
        self.chart_confirmed = None;
        self.resolve(physical, Some((chart, confirmed)))
    }

    /// Confirms a chart code the text does not name ("as printed on my chart") and uses it.
    pub fn confirm_chart_result(&mut self) -> bool {
        let Some(code) = self.chart_unconfirmed.clone() else {
            return false;
        };
        self.chart_entry = code.clone();
        self.chart_confirmed = Some(code);
        self.use_chart_result()
    }

    /// A chart code typed but not confirmed, when the text does not name it.
    pub fn chart_unconfirmed(&self) -> Option<&str> {
        self.chart_unconfirmed.as_deref()
    }

    /// The table of the chart cell waiting for its result.
    fn pending_table(&self) -> Option<&umpire_core::rules::Table> {
        let (_, _, table) = self.pending_chart.as_ref()?;
        self.game.ruleset().table(table.as_deref()?)
    }

    /// The result codes the text gives for the pending chart cell's table, with their words:
    /// its result key, the codes it names, or the procedure's outcomes.
    pub fn chart_codes(&self) -> Vec<(String, String)> {
        match (self.pending_table(), self.resolver.procedure()) {
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
    fn chart_code_known(&self, typed: &str) -> bool {
        if let Some(t) = self.pending_table()
            && !t.results.is_empty()
        {
            // The engine holds a typed code to the table's result key.
            return true;
        }
        let codes = self.chart_codes();
        typed
            .split_whitespace()
            .all(|w| codes.iter().any(|(c, _)| c.eq_ignore_ascii_case(w)))
    }

    fn resolve(&mut self, physical: Option<Vec<String>>, chart: Option<(String, bool)>) -> bool {
        let Some(procedure) = self.procedure_id() else {
            self.message = Some("pick a procedure first".into());
            return false;
        };
        let action = Action::Resolve {
            procedure,
            inputs: self.inputs_as_typed(),
            physical: physical.clone(),
            chart_result: chart.as_ref().map(|(c, _)| c.clone()),
            chart_confirmed: chart.as_ref().is_some_and(|(_, confirmed)| *confirmed),
            counters: self.roles.clone(),
        };
        match self.game.act(&self.actor(), action) {
            Err(GameError::Refused(Refusal::Resolve(e @ ResolveError::MissingCell { .. }))) => {
                self.message = None;
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
                let Some(seqs) = self.after(other) else {
                    return false;
                };
                self.pending_chart = None;
                self.chart_entry.clear();
                self.physical.clear();
                if let Some(&seq) = seqs.last() {
                    self.load_proposals(seq);
                }
                self.note_step_it_counts_for();
                true
            }
        }
    }

    /// After a resolution made in a step that does not list its procedure: says which step it
    /// counts for (the one it belongs to), so that it is not made again there.
    fn note_step_it_counts_for(&mut self) {
        let Some(p) = self.resolver.procedure().cloned() else {
            return;
        };
        let steps = umpire_core::game::sequence::leaf_steps(self.game.ruleset());
        let at = self.game.state().cursor.clone();
        let counts = umpire_core::game::sequence::step_it_counts_for(&steps, &at, &p.id);
        if counts != at.step
            && let Some(step) = steps.get(counts)
        {
            self.message = Some(format!(
                "{} is not a procedure of this step: this result counts for {}, the step it \
                 belongs to.",
                p.name, step.path
            ));
        }
    }

    fn load_proposals(&mut self, seq: u64) {
        match self.game.proposals(seq) {
            Ok(proposals) => {
                let chosen = proposals
                    .iter()
                    .map(|p| (p.change.is_none() && p.candidates.len() == 1).then_some(0))
                    .collect();
                self.resolved = Some(ResolvedEntry {
                    seq,
                    proposals,
                    chosen,
                });
            }
            Err(e) => self.message = Some(e.to_string()),
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
    pub fn changes_to_apply(&self) -> Vec<CounterChange> {
        let Some(r) = &self.resolved else {
            return Vec::new();
        };
        let roles = match self
            .game
            .events()
            .get(r.seq.saturating_sub(1) as usize)
            .map(|e| &e.kind)
        {
            Some(EventKind::Resolved { counters, .. }) => counters.clone(),
            _ => BTreeMap::new(),
        };
        let mut out = Vec::new();
        for (p, chosen) in r.proposals.iter().zip(&r.chosen) {
            if let Some(c) = &p.change {
                out.push(c.clone());
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
            let again = propose(
                self.game.ruleset(),
                self.game.state(),
                std::slice::from_ref(&p.effect),
                &only,
            );
            out.extend(again.into_iter().filter_map(|q| q.change));
        }
        out
    }

    /// Applies the proposed (and chosen) effects of the last resolution.
    pub fn apply_effects(&mut self) -> bool {
        let Some(of) = self.resolved.as_ref().map(|r| r.seq) else {
            self.message = Some("nothing to apply: resolve a procedure first".into());
            return false;
        };
        let changes = self.changes_to_apply();
        self.act(Action::ApplyEffects { of, changes })
    }

    /// Whether an event stands (is not undone).
    pub fn stands(&self, seq: u64) -> bool {
        self.game.state().effective.contains(&seq)
    }

    /// Turn, date, step, pending items (as of the last action; without the counters, which
    /// are in [`Game::state`]).
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The journal rows the filters let through, newest first (rebuilt only when the journal
    /// or a filter changes).
    pub fn journal_rows(&mut self) -> std::rc::Rc<Vec<JournalRow>> {
        let key: JournalKey = (
            self.game.events().len(),
            self.journal_filter.trim().to_lowercase(),
            self.journal_kind,
            self.seen_by.clone(),
            self.journal_by.clone(),
        );
        // In a side's view: entries it sees whole in full, the others as their summary.
        let sights = self
            .side_cache
            .as_ref()
            .filter(|_| self.seen_by.is_some())
            .map(|c| std::rc::Rc::clone(&c.sights));
        if let Some((k, rows)) = &self.journal_rows
            && *k == key
        {
            return std::rc::Rc::clone(rows);
        }
        let rows: Vec<JournalRow> = self
            .game
            .events()
            .iter()
            .rev()
            .filter(|e| key.2.is_none_or(|k| e.kind.name() == k))
            .filter(|e| self.journal_passes(e, &key.4))
            .filter_map(|e| {
                let text = match sights
                    .as_ref()
                    .map(|s| s.iter().find(|x| x.seq == e.seq).map(|x| &x.sight))
                {
                    None | Some(Some(Sight::Open)) => describe_event(self, e),
                    Some(Some(Sight::Summary(lines))) => lines.join("; "),
                    Some(Some(Sight::Hidden) | None) => return None,
                };
                Some(JournalRow {
                    seq: e.seq,
                    kind: e.kind.name(),
                    text,
                    undone: e.kind.is_undoable() && !self.stands(e.seq),
                    overridden: matches!(e.kind, EventKind::Overridden { .. }),
                })
            })
            .filter(|r| {
                key.1.is_empty()
                    || r.text.to_lowercase().contains(&key.1)
                    || r.kind.contains(&key.1)
            })
            .collect();
        let rows = std::rc::Rc::new(rows);
        self.journal_rows = Some((key, std::rc::Rc::clone(&rows)));
        rows
    }

    /// Whether an entry passes the journal's side, Force and procedure filters.
    fn journal_passes(&self, e: &Event, f: &JournalFilter) -> bool {
        let events = self.game.events();
        let resolved_of =
            |seq: u64| match events.get(seq.saturating_sub(1) as usize).map(|x| &x.kind) {
                Some(EventKind::Resolved {
                    resolution,
                    counters,
                }) => Some((
                    resolution.procedure.clone(),
                    counters.values().flatten().cloned().collect::<Vec<_>>(),
                )),
                _ => None,
            };
        // An override or applied effects stand for the resolution they are of.
        let (procedure, mut counters): (Option<String>, Vec<String>) = match &e.kind {
            EventKind::Resolved { resolution, .. } => (
                Some(resolution.procedure.clone()),
                e.kind.counters().into_iter().map(str::to_string).collect(),
            ),
            EventKind::Overridden { of, .. } | EventKind::EffectsApplied { of, .. } => {
                let (p, cs) = resolved_of(*of).unwrap_or_default();
                (Some(p), cs)
            }
            _ => (None, Vec::new()),
        };
        counters.extend(e.kind.counters().into_iter().map(str::to_string));
        let state = self.game.state();
        if let Some(p) = &f.procedure
            && procedure.as_ref() != Some(p)
        {
            return false;
        }
        if let Some(side) = &f.side
            && !counters
                .iter()
                .any(|c| state.counters.get(c).is_some_and(|c| c.side == *side))
        {
            return false;
        }
        if let Some(force) = &f.force
            && !counters.iter().any(|c| {
                state
                    .counters
                    .get(c)
                    .is_some_and(|c| c.force.as_deref() == Some(force.as_str()))
            })
        {
            return false;
        }
        true
    }

    /// The name of a counter (its id when unknown).
    pub fn counter_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.game.state().counter_name(id)
    }
}

/// The game's status without its list of counters (cheap to keep and to clone per frame).
fn light_status(game: &Game) -> Status {
    let mut status = game.status();
    status.counters = Vec::new();
    status
}

/// Prefixes of input names that name a role (`attacker_strength_points`).
const ROLE_WORDS: [&str; 10] = [
    "attacker", "defender", "firer", "target", "charger", "unit", "leader", "force", "pursuer",
    "besieger",
];

/// One line of the journal, in words (the engine's describer).
pub fn describe_event(desk: &GameDesk, e: &Event) -> String {
    umpire_core::game::describe::Words::of(desk.game()).line(e)
}
