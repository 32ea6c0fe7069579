//! The live game at a desk: the [`Game`] (its journal is the save), its file, the last refusal
//! or problem, who acts (the umpire signed in with a Control role), the side whose view is
//! shown, the counter selected, and what is worked out of the game once per journal change
//! (stacks and their faces, the map's extent, the status). Every panel reads it; only the game
//! desk's commands write to it. No drawing and no rules: every action goes through
//! [`Game::act`], every value through the engine.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use eframe::egui::Color32;
use umpire_core::game::face::{Face, StackFace, face, stack_face};
use umpire_core::game::scenario::Position;
use umpire_core::game::sequence::Pending;
use umpire_core::game::side::{pending_seen, reveals_action};
use umpire_core::game::visibility::{CounterSight, EntrySight, SideView, SightLevel};
use umpire_core::game::{Action, Actor, Event, EventKind, Game, GameError, Status};
use umpire_core::megagame::remit::{ActorError, SignedIn, who_acts};
use umpire_core::resolve::Resolution;

/// Side colours, in the scenario's order of sides.
const SIDE_COLOURS: [Color32; 6] = [
    Color32::from_rgb(52, 101, 164),
    Color32::from_rgb(204, 0, 0),
    Color32::from_rgb(78, 154, 6),
    Color32::from_rgb(196, 160, 0),
    Color32::from_rgb(117, 80, 123),
    Color32::from_rgb(206, 92, 0),
];

/// A side's view as last worked out (rebuilt when the journal grows or the side changes).
#[derive(Debug, Clone)]
pub struct SideCache {
    /// The side.
    pub side: String,
    /// The journal length it was built for.
    pub revision: usize,
    /// Each entry's sight.
    pub sights: Rc<Vec<EntrySight>>,
    /// The counters the side sees at all, by id.
    pub counters: BTreeMap<String, CounterSight>,
}

/// The game at a desk and what every panel shares of it.
pub struct LiveGame {
    game: Game,
    path: PathBuf,
    /// The last refusal or problem, phrased for the umpire.
    pub(crate) message: Option<String>,
    /// The journal length the stacks were built for.
    pub(crate) revision: usize,
    stacks: HashMap<String, Vec<String>>,
    /// Each stack's face, by hex (rebuilt with the stacks).
    faces: HashMap<String, StackFace>,
    bounds: Option<[u32; 4]>,
    /// The map's extent from its counters alone (the scenario's action).
    action_bounds: Option<[u32; 4]>,
    status: Status,
    /// An action refused because it takes a ledger below its floor (a treasury below 0): the
    /// umpire may give the reason and go ahead.
    below_floor: Option<Action>,
    /// The umpire signed in with a Control role, held to its remit (None: the umpire at a
    /// desk of their own).
    pub(crate) signed_in: Option<SignedIn>,
    /// The reason given for actions at Control's discretion.
    pub(crate) reason: Option<String>,
    /// The side whose view the desk shows (None: the umpire's, everything).
    pub(crate) seen_by: Option<String>,
    /// That side's view as last worked out.
    pub(crate) side_cache: Option<SideCache>,
    /// The selected counter (the map, the board, the lists and the resolve panel all show it).
    pub selected: Option<String>,
    /// The counters split off in the stack inspector: what a drag or "Move here" moves
    /// instead of the whole stack (empty: the whole stack).
    pub split: BTreeSet<String>,
    /// The steps the last Next passed with nothing to resolve, as "Phase › Step": the table
    /// work on the way, said under the step.
    pub(crate) passed: Vec<String>,
}

impl std::fmt::Debug for LiveGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiveGame")
            .field("path", &self.path)
            .field("events", &self.game.events().len())
            .finish_non_exhaustive()
    }
}

impl LiveGame {
    /// The game opened from (or created at) `path`, its stacks worked out.
    pub fn new(game: Game, path: &Path) -> LiveGame {
        let status = light_status(&game);
        let mut live = LiveGame {
            game,
            path: path.to_path_buf(),
            message: None,
            revision: usize::MAX,
            stacks: HashMap::new(),
            faces: HashMap::new(),
            bounds: None,
            action_bounds: None,
            status,
            below_floor: None,
            signed_in: None,
            reason: None,
            seen_by: None,
            side_cache: None,
            selected: None,
            split: BTreeSet::new(),
            passed: Vec::new(),
        };
        live.restack();
        live
    }

    /// The game, to work on outside an action (a shared game's link).
    pub(crate) fn game_mut(&mut self) -> &mut Game {
        &mut self.game
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
    pub fn cached_face(&self, hex: &str) -> Option<&StackFace> {
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
        let faces: HashMap<String, StackFace> = self
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
    /// [`LiveGame::act`]: a refusal becomes the desk's message. Returns whether it succeeded.
    pub(crate) fn act_on_game(
        &mut self,
        f: impl FnOnce(&mut Game, &Actor) -> Result<Vec<u64>, GameError>,
    ) -> bool {
        let Some(actor) = self.actor_or_message() else {
            return false;
        };
        let result = f(&mut self.game, &actor);
        self.after(result).is_some()
    }

    /// The umpire signed in at this desk, if any.
    pub fn signed_in(&self) -> Option<&SignedIn> {
        self.signed_in.as_ref()
    }

    /// Who acts at this desk, by the one rule the command line also follows
    /// ([`who_acts`]): on a server that knows its umpires, the login's umpire; else the umpire
    /// signed in (held to the role's remit), or the umpire of a desk of their own; with the
    /// reason given for what rests on discretion. Fails when the server's login names no
    /// umpire the game knows.
    pub fn actor(&self) -> Result<Actor, ActorError> {
        who_acts(
            self.game.login(),
            &self.game.location(),
            self.signed_in.clone(),
            None,
            self.reason.clone(),
        )
    }

    /// Who acts, or the desk's message saying why nobody may: None then.
    pub(crate) fn actor_or_message(&mut self) -> Option<Actor> {
        match self.actor() {
            Ok(actor) => Some(actor),
            Err(e) => {
                self.message = Some(e.to_string());
                None
            }
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
        let Some(actor) = self.actor_or_message() else {
            return false;
        };
        let kept = action.clone();
        let result = self.game.act(&actor, action);
        let below = matches!(&result, Err(GameError::Refused(r)) if r.below_floor());
        let done = self.after(result).is_some();
        self.below_floor = below.then_some(kept);
        done
    }

    /// Seals the orders a side handed in on paper (the form's fields as typed): only the
    /// commitment is journaled, the orders kept apart until the reveal.
    pub fn seal_orders(&mut self, order: &str, side: &str, fields: &[(String, String)]) -> bool {
        let orders = match self.game.order_form(order, side) {
            Ok(form) => umpire_core::game::sealed::orders_from_fields(&form, fields),
            Err(e) => {
                self.message = Some(e.to_string());
                return false;
            }
        };
        let Some(actor) = self.actor_or_message() else {
            return false;
        };
        let result = self
            .game
            .seal_orders(
                &actor,
                order,
                side,
                orders,
                Some("handed in on paper, entered at the desk".to_string()),
            )
            .map(|seq| vec![seq]);
        self.after(result).is_some()
    }

    /// Reveals the orders sealed at this step, as the rules say.
    pub fn reveal_orders(&mut self) -> bool {
        let Some(actor) = self.actor_or_message() else {
            return false;
        };
        let result = self.game.reveal_orders(&actor);
        self.after(result).is_some()
    }

    /// The action waiting for the umpire's word to go below a floor, if any.
    pub fn below_floor(&self) -> Option<&Action> {
        self.below_floor.as_ref()
    }

    /// Records the action refused for going below a floor, with the reason given (the
    /// Sequence of Play panel's field), which the journal keeps.
    pub fn go_below_floor(&mut self, reason: &str) -> bool {
        let Some(action) = self.below_floor.clone() else {
            return false;
        };
        let reason = reason.trim().to_string();
        if reason.is_empty() {
            self.message = Some("give the reason for going below, for the journal".into());
            return false;
        }
        let Some(actor) = self.actor_or_message() else {
            return false;
        };
        let result = self.game.act(&actor.with_reason(Some(reason)), action);
        let done = self.after(result).is_some();
        if done {
            self.below_floor = None;
        }
        done
    }

    pub(crate) fn after(&mut self, result: Result<Vec<u64>, GameError>) -> Option<Vec<u64>> {
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
        out
    }

    /// Advances the Sequence of Play to the next step that needs the umpire (a refusal is
    /// shown inline); the steps it passes are kept to be said.
    pub fn next_step(&mut self) -> bool {
        let passed = {
            let walk = self.game.walk();
            let (_, passed) = walk.next_stop();
            umpire_core::game::sequence::passed_between(&walk, &passed)
        };
        let done = self.act(Action::Next);
        if done {
            self.passed = passed;
        }
        done
    }

    /// Steps back.
    pub fn back_step(&mut self) -> bool {
        let done = self.act(Action::Back);
        if done {
            self.passed.clear();
        }
        done
    }

    /// Goes into a step the current one offers (a branch, or a step to repeat).
    pub fn enter_step(&mut self, step: &str) -> bool {
        let done = self.act(Action::Enter {
            step: step.to_string(),
        });
        if done {
            self.passed.clear();
        }
        done
    }

    /// The steps the last Next passed with nothing to resolve.
    pub fn passed(&self) -> &[String] {
        &self.passed
    }

    /// Undoes the last action.
    pub fn undo(&mut self) -> bool {
        self.act(Action::Undo)
    }

    /// Redoes the last undone action.
    pub fn redo(&mut self) -> bool {
        self.act(Action::Redo)
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

    /// Whether an event stands (is not undone).
    pub fn stands(&self, seq: u64) -> bool {
        self.game.state().effective.contains(&seq)
    }

    /// Turn, date, step, pending items (as of the last action; without the counters, which
    /// are in [`Game::state`]).
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The name of a counter (its id when unknown).
    pub fn counter_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.game.state().counter_name(id)
    }

    /// A counter's face as the view may see it: all of it in the umpire's view or for the
    /// side's own counters, only what is seen of another side's.
    pub fn counter_face(&self, id: &str) -> Option<Face> {
        let ruleset = self.game().ruleset();
        if let Some(seen) = self.side_counter(id) {
            return Some(face(
                ruleset,
                &seen.side,
                seen.kind,
                &seen.label,
                &seen.attributes,
            ));
        }
        let c = self.game().state().counters.get(id)?;
        Some(face(ruleset, &c.side, Some(c.kind), &c.name, &c.attributes))
    }

    /// A stack's face, its top counter first (the selected one when it is in the stack).
    pub fn stack_face_of(&self, ids: &[String]) -> Option<StackFace> {
        let faces: Vec<Face> = ids.iter().filter_map(|i| self.counter_face(i)).collect();
        stack_face(&faces)
    }

    /// A hex in words: "hex 2834 (Treviglio)".
    pub fn hex_words(&self, hex: &str) -> String {
        umpire_core::game::words::position_words(
            self.game().scenario(),
            &Position::Hex(hex.to_string()),
        )
    }

    /// The hex of the selected counter, if it is on the hex map.
    pub fn selected_hex(&self) -> Option<String> {
        self.selected
            .as_ref()
            .and_then(|id| self.game().state().counters.get(id))
            .and_then(|c| match &c.position {
                Position::Hex(h) => Some(h.clone()),
                _ => None,
            })
    }

    pub(crate) fn side_colour(&self, side: &str) -> Color32 {
        let i = self
            .game()
            .scenario()
            .sides
            .iter()
            .position(|s| s.id == side)
            .unwrap_or(SIDE_COLOURS.len() - 1);
        SIDE_COLOURS[i % SIDE_COLOURS.len()]
    }

    /// The side whose view is shown (None: the umpire's).
    pub fn seen_by(&self) -> Option<&str> {
        self.seen_by.as_deref()
    }

    /// Who the view is for, in words ("the umpire", "Venetian: the Republic of Venice").
    pub fn seen_by_name(&self) -> String {
        match &self.seen_by {
            None => "the umpire".to_string(),
            Some(id) => self
                .game()
                .scenario()
                .sides
                .iter()
                .find(|s| s.id == *id)
                .map_or_else(|| id.clone(), |s| s.name.clone()),
        }
    }

    /// Shows the game as a side sees it (None: as the umpire does). Refused for a side the
    /// scenario does not have.
    pub fn see_as(&mut self, side: Option<&str>) -> bool {
        if let Some(s) = side
            && !self.game().scenario().sides.iter().any(|x| x.id == s)
        {
            return self.refuse(&format!("no side '{s}' in this scenario"));
        }
        self.seen_by = side.map(str::to_string);
        self.side_cache = None;
        self.refresh_side();
        // The map's stacks and the journal follow.
        self.revision = usize::MAX;
        self.restack();
        true
    }

    /// Shows the game as the scenario's `index`-th side sees it.
    pub fn see_side_at(&mut self, index: usize) -> bool {
        let Some(id) = self
            .game()
            .scenario()
            .sides
            .get(index)
            .map(|s| s.id.clone())
        else {
            return self.refuse("no such side");
        };
        self.see_as(Some(&id))
    }

    /// The umpire's view, then each side's in turn.
    pub fn see_next_side(&mut self) -> bool {
        let sides: Vec<String> = self
            .game()
            .scenario()
            .sides
            .iter()
            .map(|s| s.id.clone())
            .collect();
        let next = match &self.seen_by {
            None => sides.first().cloned(),
            Some(now) => sides
                .iter()
                .position(|s| s == now)
                .and_then(|i| sides.get(i + 1).cloned()),
        };
        self.see_as(next.as_deref())
    }

    /// Works the side's view out again if the journal has grown since.
    pub(crate) fn refresh_side(&mut self) {
        let Some(side) = self.seen_by.clone() else {
            self.side_cache = None;
            return;
        };
        let revision = self.game().events().len();
        if self
            .side_cache
            .as_ref()
            .is_some_and(|c| c.side == side && c.revision == revision)
        {
            return;
        }
        let built = {
            let game = self.game();
            SideView::new(game.ruleset(), game.scenario(), &side).and_then(|view| {
                let sights = view.journal(game.events())?;
                let counters = view
                    .at(game.state())
                    .counters()
                    .into_iter()
                    .map(|c| (c.id.clone(), c))
                    .collect();
                Ok((sights, counters))
            })
        };
        match built {
            Ok((sights, counters)) => {
                self.side_cache = Some(SideCache {
                    side,
                    revision,
                    sights: Rc::new(sights),
                    counters,
                });
            }
            Err(e) => {
                // Show nothing rather than too much.
                self.side_cache = Some(SideCache {
                    side,
                    revision,
                    sights: Rc::new(Vec::new()),
                    counters: BTreeMap::new(),
                });
                self.refuse(&e);
            }
        }
    }

    /// How the side shown sees a counter (None in the umpire's view, or when it sees nothing).
    pub fn side_counter(&self, id: &str) -> Option<&CounterSight> {
        self.seen_by.as_ref()?;
        self.side_cache.as_ref()?.counters.get(id)
    }

    /// Whether the view shows a counter at all (the umpire's shows every one).
    pub fn shows(&self, id: &str) -> bool {
        self.seen_by.is_none()
            || self
                .side_counter(id)
                .is_some_and(|c| c.level > SightLevel::Hidden)
    }

    /// Whether the view shows a counter in full as its own side's.
    pub fn shows_as_own(&self, id: &str) -> bool {
        self.seen_by.is_none() || self.side_counter(id).is_some_and(|c| c.own)
    }

    /// A counter as the view names it: its name, or what the side sees of it ("a face-down
    /// Capitano (French)").
    pub fn display_name(&self, id: &str) -> String {
        match self.side_counter(id) {
            Some(c) => c.label.clone(),
            None => self.counter_name(id).to_string(),
        }
    }

    /// The pending items the view shows.
    pub fn pending_shown(&self) -> Vec<Pending> {
        let pending = &self.status().pending;
        match (&self.seen_by, &self.side_cache) {
            (Some(side), Some(cache)) => pending_seen(pending, &cache.sights, side),
            _ => pending.clone(),
        }
    }

    /// Records the reveals the ruleset calls for at this step (ailsh D.1) as one entry.
    /// Returns whether anything was recorded.
    pub fn reveal_contacts(&mut self) -> bool {
        match reveals_action(self.game()) {
            Some(action) => self.act(action),
            None => self.refuse("nothing to reveal at this step"),
        }
    }
}

/// The game's status without its list of counters (cheap to keep and to clone per frame).
fn light_status(game: &Game) -> Status {
    let mut status = game.status();
    status.counters = Vec::new();
    status
}

/// One line of the journal, in words (the engine's describer).
pub fn describe_event(live: &LiveGame, e: &Event) -> String {
    umpire_core::game::describe::Words::of(live.game()).line(e)
}
