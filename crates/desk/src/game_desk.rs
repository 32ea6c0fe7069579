//! The game desk: the [`LiveGame`] and the panels around it — the Sequence of Play, the
//! counters, the table (hex map, area board or free-form list), the resolve column (decks and
//! cups, the resolve panel, any roll's odds), the journal, a megagame's clock bar and ledgers,
//! a shared game's link. Each panel keeps its own state and draws itself from the live game;
//! what it asks for is queued as a [`Command`] and applied here once a frame: the desk's own
//! commands by [`GameDesk::run`], engine actions by [`GameDesk::perform`], which also does
//! what the panels do around an action (clearing the fields it was typed in once recorded).

use std::path::Path;

use eframe::egui::{self, RichText, Ui};

use umpire_core::game::names::CounterId;
use umpire_core::game::scenario::Position;
use umpire_core::game::{Action, Game, GameError, StoreError};
use umpire_core::rules::{Library, SourceFile};

use super::commands::{Command, UiCommand, move_action};
use super::counter_panel::{CountersPanel, NewCounter};
use super::decks::DecksPanel;
use super::journal::JournalPanel;
use super::live::LiveGame;
use super::map::MapPanel;
use super::megagame::{
    MegagameView, clock_advance, clock_hold, clock_resume, clock_set, clock_start, clock_tick,
};
use super::orders_panel::OrdersPanel;
use super::resolve::ResolvePanel;
use super::sequence::SequencePanel;
use super::shared::{SharedView, settle_held, sign_in};

/// The game desk: the live game and its panels.
pub struct GameDesk {
    /// The game, and what every panel shares of it.
    pub live: LiveGame,
    /// The Sequence of Play panel.
    pub sequence: SequencePanel,
    /// The counters panel (list, selected counter, stack, hand changes, a new counter).
    pub counters: CountersPanel,
    /// The table: the hex map (with its underlay), an area board, or a free-form list.
    pub map: MapPanel,
    /// The resolve panel.
    pub resolve: ResolvePanel,
    /// The Decks and cups panel (and any roll's odds).
    pub decks: DecksPanel,
    /// The Sealed orders panel: paper orders sealed, the reveal.
    pub orders: OrdersPanel,
    /// The journal panel.
    pub journal: JournalPanel,
    /// File › Counter values: the values printed on the counters, given once a name.
    pub values: super::counter_values::CounterValuesWindow,
    /// The megagame view (clock bar, table / role filter, ledgers), for a megagame.
    pub megagame: Option<MegagameView>,
    /// The link of a shared game (a game on a server), for a shared game.
    pub(crate) shared: Option<SharedView>,
    /// The game file as last looked at (its files' sizes and times), and when: another
    /// program (the command line, a second desk) writing to it is noticed within a second.
    watched: Option<(FileStamp, std::time::Instant)>,
}

/// A game file's sizes and modification times, with SQLite's write-ahead log beside it.
type FileStamp = Vec<Option<(u64, std::time::SystemTime)>>;

/// How often the desk looks at its game file for changes made by other programs.
pub const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(300);

/// The game file's stamp: its size and time, and those of the files SQLite keeps beside it.
fn file_stamp(path: &Path) -> FileStamp {
    let with = |suffix: &str| {
        let mut name = path.as_os_str().to_os_string();
        name.push(suffix);
        std::fs::metadata(std::path::PathBuf::from(name))
            .ok()
            .and_then(|m| Some((m.len(), m.modified().ok()?)))
    };
    vec![with(""), with("-wal")]
}

impl std::fmt::Debug for GameDesk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameDesk")
            .field("live", &self.live)
            .finish_non_exhaustive()
    }
}

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
        Ok(GameDesk::from_game(game, path))
    }

    /// Opens a game file.
    pub fn open(path: &Path, library: &Library) -> Result<GameDesk, GameError> {
        let game = umpire_server::open_at(&path.to_string_lossy(), library)?;
        Ok(GameDesk::from_game(game, path))
    }

    /// The desk over a game already opened (on a worker thread, say): the resolve panel open
    /// on the first pending procedure, if any.
    pub fn from_game(game: Game, path: &Path) -> GameDesk {
        let megagame = MegagameView::for_game(&game);
        let mut game = game;
        let shared = SharedView::for_game(&mut game);
        let live = LiveGame::new(game, path);
        let resolve = ResolvePanel::new(&live);
        let mut desk = GameDesk {
            live,
            sequence: SequencePanel::default(),
            counters: CountersPanel::default(),
            map: MapPanel::default(),
            resolve,
            decks: DecksPanel::default(),
            orders: OrdersPanel::default(),
            journal: JournalPanel::default(),
            values: Default::default(),
            megagame,
            shared,
            watched: None,
        };
        if let Some(p) = desk
            .live
            .game()
            .pending()
            .into_iter()
            .find(|p| !p.done)
            .and_then(|p| p.procedure)
        {
            desk.resolve.select_procedure(&mut desk.live, &p);
        }
        desk
    }

    /// Looks at the game file every [`WATCH_EVERY`] (a shared game's link does its own
    /// looking): when another program wrote to it, the entries it added are taken in and the
    /// journal, the map and the panels show them. Keeps the desk waking to look.
    pub fn watch_file(&mut self, ctx: &egui::Context) {
        if self.shared.is_some() {
            return;
        }
        ctx.request_repaint_after(WATCH_EVERY);
        let now = std::time::Instant::now();
        if self
            .watched
            .as_ref()
            .is_some_and(|(_, at)| now.duration_since(*at) < WATCH_EVERY)
        {
            return;
        }
        let stamp = file_stamp(self.live.path());
        let changed = self.watched.as_ref().is_some_and(|(s, _)| *s != stamp);
        self.watched = Some((stamp, now));
        if changed {
            self.live.take_in(|g| g.refresh().map(|_| None));
            self.resolve.follow_game(&self.live);
        }
    }

    /// An underlay transform that spreads an image of `size` pixels over the map's extent.
    pub fn fit_underlay(&self, size: [u32; 2]) -> super::underlay::Similarity {
        MapPanel::fit_underlay(&self.live, size)
    }

    /// One frame of the game desk: a shared game's link (taking in what the server announced),
    /// a megagame's clock bar and ledgers, then the panels. What they ask for is queued.
    pub fn ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        if let Some(view) = &mut self.shared {
            view.ui(ui, &mut self.live, queue);
        }
        // Another desk's actions taken in may have undone the last resolution.
        self.resolve.follow_game(&self.live);
        if let Some(m) = &mut self.megagame {
            m.ui(ui, &self.live, queue);
        }
        if let Some(why) = self.live.game().read_only() {
            // A game file this user may not write: everything reads, every action is refused —
            // said once at the top, before the umpire tries.
            egui::Panel::top("read_only").show(ui, |ui| {
                ui.label(
                    egui::RichText::new(format!("Read only — {why}"))
                        .color(ui.visuals().warn_fg_color),
                );
            });
        }
        self.panels_ui(ui, queue);
        self.values.ui(ui.ctx(), &self.live, queue);
    }

    /// The resolve column: its heading, the decks and cups, the resolve panel, any roll's odds
    /// (in a side's view, only a word: resolving is the umpire's).
    fn resolve_column_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        ui.add_space(6.0);
        ui.heading("Resolve");
        if self.live.seen_by().is_some() {
            // The resolve panel shows every counter and input: it is the umpire's.
            ui.label(
                RichText::new(format!(
                    "Showing the game as {} sees it. Resolving is the umpire's: View → {}.",
                    self.live.seen_by_name(),
                    UiCommand::SeeAsUmpire.label()
                ))
                .weak(),
            );
            return;
        }
        self.orders.ui(ui, &self.live, queue);
        self.decks.ui(ui, &self.live, queue);
        self.resolve.ui(ui, &self.live, queue);
        self.decks.any_roll_ui(ui, &self.live);
    }

    /// Seals the paper orders typed in the Sealed orders panel; what was typed is forgotten
    /// once they are sealed.
    fn seal_paper_orders(&mut self, order: &str, side: &str) -> bool {
        let fields = self.orders.fields(order, side);
        let done = self.live.seal_orders(order, side, &fields);
        if done {
            self.orders.clear(order, side);
        }
        done
    }

    /// Runs one of the desk's own commands on the game (the shell runs those about dialogs
    /// and screens); a refusal becomes the desk's message. Returns whether it took effect.
    pub fn run(&mut self, command: UiCommand) -> bool {
        let command = match self.run_view(command) {
            Ok(done) => return done,
            Err(command) => command,
        };
        let done = match command {
            UiCommand::Undo => self.live.undo(),
            UiCommand::Redo => self.live.redo(),
            UiCommand::Next => self.live.next_step(),
            UiCommand::EnterStep(step) => self.live.enter_step(&step),
            UiCommand::Back => self.live.back_step(),
            UiCommand::Roll => self.resolve.roll(&mut self.live),
            UiCommand::UsePhysical => self.resolve.use_physical(&mut self.live),
            UiCommand::UseChartResult => self.resolve.use_chart_result(&mut self.live),
            UiCommand::ApplyEffects => self.resolve.apply_effects(&mut self.live),
            UiCommand::MoveSelected => self.move_selected_to_typed(),
            UiCommand::ClockStart => clock_start(&mut self.live),
            UiCommand::ClockHold => clock_hold(&mut self.live),
            UiCommand::ClockResume => clock_resume(&mut self.live),
            UiCommand::ClockAdvance => clock_advance(&mut self.live),
            UiCommand::Ledgers => match &mut self.megagame {
                Some(m) => {
                    m.show_ledgers = !m.show_ledgers;
                    true
                }
                None => self.live.refuse("this game is not a megagame"),
            },
            UiCommand::ClockSet => {
                let typed = self
                    .megagame
                    .as_ref()
                    .map(|m| m.set_to.clone())
                    .unwrap_or_default();
                clock_set(&mut self.live, &typed)
            }
            UiCommand::ClockTick => clock_tick(&mut self.live),
            UiCommand::GoBelowFloor => {
                let done = self.live.go_below_floor(&self.sequence.floor_reason);
                if done {
                    self.sequence.floor_reason.clear();
                }
                done
            }
            UiCommand::Problem(problem) => self.live.refuse(&problem),
            UiCommand::SignIn(who) => match sign_in(&mut self.live, who) {
                Ok(()) => true,
                Err(problem) => self.live.refuse(&problem),
            },
            UiCommand::SettleHeld { index, send } => settle_held(&mut self.live, index, send),
            UiCommand::SeeAsUmpire => self.live.see_as(None),
            UiCommand::SealOrders { order, side } => self.seal_paper_orders(&order, &side),
            UiCommand::RevealOrders => self.live.reveal_orders(),
            UiCommand::SeeAsNextSide => self.live.see_next_side(),
            UiCommand::SeeAsSide(i) => self.live.see_side_at(usize::from(i)),
            UiCommand::RevealContacts => self.live.reveal_contacts(),
            UiCommand::HandChanges => {
                self.counters.open_hand_changes = self.live.selected.is_some();
                if self.live.selected.is_none() {
                    self.live.refuse("select a counter first");
                }
                true
            }
            UiCommand::AddToRole { role, counter } => {
                self.resolve.add_to_role(&mut self.live, &role, &counter);
                true
            }
            UiCommand::RemoveFromRole { role, counter } => {
                self.resolve
                    .remove_from_role(&mut self.live, &role, &counter);
                true
            }
            UiCommand::OpenProcedure(id) => {
                self.resolve.select_procedure(&mut self.live, &id);
                true
            }
            UiCommand::OpenItem { procedure, item } => {
                self.resolve.select_item(&mut self.live, &procedure, &item);
                true
            }
            UiCommand::ConfirmChartResult => self.resolve.confirm_chart_result(&mut self.live),
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
            | UiCommand::ExportGame
            | UiCommand::SaveScenario
            | UiCommand::ImportSetup => true,
            UiCommand::CounterValues => {
                self.values.open = true;
                true
            }
            // The view's, run above.
            UiCommand::Deselect
            | UiCommand::ZoomIn
            | UiCommand::ZoomOut
            | UiCommand::ResetView
            | UiCommand::Select(_)
            | UiCommand::Split { .. }
            | UiCommand::ToggleCounters => true,
        };
        self.resolve.follow_game(&self.live);
        done
    }

    /// Runs a command asked for by a key (R, Enter in a field of the resolve panel): one that
    /// resolves is refused, with what to do instead, when the procedure open was left from an
    /// earlier step; otherwise as [`GameDesk::run`].
    pub fn run_key(&mut self, command: UiCommand) -> bool {
        let key = if command == UiCommand::Roll {
            "R"
        } else {
            "Enter"
        };
        if command.resolves()
            && let Some(why) = self.resolve.key_refusal(&self.live, key)
        {
            return self.live.refuse(&why);
        }
        self.run(command)
    }

    /// Runs a command of the map's view or the selection (zoom, fit, select, split, show the
    /// counters): nothing in the game changes. Any other command comes back.
    fn run_view(&mut self, command: UiCommand) -> Result<bool, UiCommand> {
        match command {
            UiCommand::Deselect => self.select(None),
            UiCommand::ZoomIn => self.map.zoom = (self.map.zoom * 1.25).min(80.0),
            UiCommand::ZoomOut => self.map.zoom = (self.map.zoom / 1.25).max(4.0),
            UiCommand::ResetView => {
                self.map.fitted = false;
                self.map.fit_all = true;
            }
            UiCommand::Select(id) => self.select(id.as_deref()),
            UiCommand::Split { counter, on } => {
                if on {
                    self.live.split.insert(counter);
                } else {
                    self.live.split.remove(&counter);
                }
            }
            UiCommand::ToggleCounters => self.map.hide_counters = !self.map.hide_counters,
            other => return Err(other),
        }
        Ok(true)
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
        let done = self.live.act(action.clone());
        self.resolve.follow_game(&self.live);
        self.settle(&action, done);
        done
    }

    /// An action as the desk records it (text trimmed), or None when it is not made: a note
    /// with no text (said), counters already where they would move (nothing to do).
    fn prepare(&mut self, action: Action) -> Option<Action> {
        let all_there = |live: &LiveGame, ids: &[&str], to: &Position| {
            ids.iter().all(|id| {
                live.game()
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
                    self.live.refuse("type the note first");
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
                if all_there(&self.live, &[counter.as_str()], &to) {
                    return None;
                }
                self.map.move_target = None;
                Some(Action::Move { counter, to })
            }
            Action::MoveStack { counters, to } => {
                let ids: Vec<&str> = counters.iter().map(CounterId::as_str).collect();
                if ids.is_empty() || all_there(&self.live, &ids, &to) {
                    return None;
                }
                self.map.move_target = None;
                Some(Action::MoveStack { counters, to })
            }
            other => Some(other),
        }
    }

    /// What the desk does once an action was recorded (`done`) or refused.
    fn settle(&mut self, action: &Action, done: bool) {
        match action {
            Action::Skip { .. } if done => self.sequence.skip_reason.clear(),
            Action::Note { .. } if done => self.journal.note.clear(),
            Action::Deck {
                op: umpire_core::game::DeckOp::Fill { .. },
                ..
            } if done => self.decks.fill.clear(),
            Action::Move { .. } | Action::MoveStack { .. } if done => self.live.split.clear(),
            Action::AddCounter { .. } if done => self.counters.adding = NewCounter::default(),
            Action::Override { of, .. } if done => {
                self.resolve.overridden(&mut self.live, *of);
            }
            Action::Edit { .. } if done => {
                self.counters.edit_note.clear();
                self.counters.edit_values.clear();
                self.counters.edit_seen.clear();
            }
            Action::Edit {
                counter,
                edit: umpire_core::game::Edit::Set { attribute, .. },
                ..
            } => {
                // Refused (another desk changed it, say): the umpire has now seen the value as
                // it is, so pressing Set again sets theirs anyway.
                let now = self
                    .live
                    .game()
                    .state()
                    .counters
                    .get(counter.as_str())
                    .and_then(|c| c.attributes.get(attribute))
                    .cloned();
                self.counters.edit_seen.insert(attribute.clone(), now);
            }
            _ => {}
        }
    }

    /// The whole game desk: Sequence of Play and selection on the left, resolve panel on the
    /// right, journal at the bottom, the table in the middle.
    fn panels_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        // The side panels share the window with the table and never squeeze it below a third
        // of the width: wide content scrolls inside its panel instead of widening it.
        // A megagame's table / role filter narrows the lists and the board (worked out once a
        // frame).
        let shown = self
            .megagame
            .as_ref()
            .and_then(|m| m.counters_shown(&self.live));
        let width = ui.available_width();
        let left_max = (width * 0.26).clamp(220.0, 420.0);
        let right_max = (width * 0.34).clamp(300.0, 560.0);
        egui::Panel::left("sequence_of_play")
            .resizable(true)
            .default_size(left_max.min(300.0))
            .size_range(220.0..=left_max)
            .show(ui, |ui| {
                // The panel's own width bounds what wraps in it (nothing runs past its edge or
                // under the scroll bar).
                let width = ui.available_width() - 14.0;
                egui::ScrollArea::vertical()
                    .id_salt("sop_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        ui.set_max_width(width);
                        self.sequence.ui(ui, &self.live, queue);
                        ui.add_space(10.0);
                        let roles = if self.live.selected.is_some() && self.live.seen_by().is_none()
                        {
                            self.resolve.role_names(&self.live)
                        } else {
                            Vec::new()
                        };
                        self.counters
                            .ui(ui, &self.live, shown.as_ref(), &roles, queue);
                    });
            });
        egui::Panel::right("resolve")
            .resizable(true)
            .default_size(right_max.min(420.0))
            .size_range(300.0..=right_max)
            .show(ui, |ui| {
                // What wraps wraps at the panel's width (a narrow window: the derived values'
                // rules, the odds, the checkboxes); only what cannot wrap scrolls sideways.
                let width = ui.available_width().max(280.0);
                egui::ScrollArea::both()
                    .id_salt("resolve_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        ui.set_max_width(width);
                        self.resolve_column_ui(ui, queue);
                    });
            });
        egui::Panel::bottom("journal")
            .resizable(true)
            .default_size(210.0)
            .size_range(120.0..=600.0)
            .show(ui, |ui| self.journal.ui(ui, &self.live, queue));
        if self.map.menu_stack.is_some() {
            self.map.resolve_offer = self.resolve_offer();
        }
        egui::CentralPanel::default().show(ui, |ui| {
            // Once the game has ended, its result stands over the table.
            super::sequence_victory::result_banner_ui(ui, &self.live);
            self.map.ui(ui, &self.live, shown.as_ref(), queue);
        });
    }

    /// What a counter's right-click menu offers to resolve with: the procedure open in the
    /// resolve panel and its roles, and this step's procedures.
    fn resolve_offer(&self) -> super::map::ResolveOffer {
        let ruleset = self.live.game().ruleset();
        let open = self.resolve.procedure_id().and_then(|id| {
            ruleset
                .procedure(&id)
                .map(|p| (p.name.clone(), self.resolve.role_names(&self.live)))
        });
        let steps = umpire_core::game::sequence::leaf_steps(ruleset);
        let this_step = steps
            .get(self.live.game().state().cursor.step)
            .map(|step| {
                step.procedures
                    .iter()
                    .filter_map(|id| ruleset.procedure(id).map(|p| (id.clone(), p.name.clone())))
                    .collect()
            })
            .unwrap_or_default();
        super::map::ResolveOffer { open, this_step }
    }

    /// Selects a counter (None: clears the selection); the forms typed for the counter shown
    /// before are dropped, and the split and a picked move when the stack changes.
    pub fn select(&mut self, counter: Option<&str>) {
        let before = self.live.selected_hex();
        if self.live.selected.as_deref() != counter {
            self.counters.edit_values.clear();
            self.counters.edit_seen.clear();
        }
        self.live.selected = counter.map(str::to_string);
        if self.live.selected_hex() != before || counter.is_none() {
            // The split and a picked move belong to the stack they were made on.
            self.live.split.clear();
            self.map.move_target = None;
            self.map.picking_move = false;
        }
        if let Some(c) = counter.and_then(|id| self.live.game().state().counters.get(id)) {
            self.counters.move_to = match &c.position {
                Position::Hex(h) => h.clone(),
                Position::Area(a) => a.clone(),
                Position::Free { x, y } => format!("{x}, {y}"),
                Position::OffMap(_) => String::new(),
            };
        }
    }

    /// Moves the selected counter's stack (or the part split off it) to `to`.
    pub fn move_selected(&mut self, to: Position) -> bool {
        if self.live.selected.is_none() {
            return self.live.refuse("select a counter first");
        }
        let group = self.live.selected_group();
        self.perform(move_action(&group, to))
    }

    /// Moves the selected counter to the place typed in the counters panel's Move to: a hex
    /// id on a hex map, "x, y" on a free-form table, an area name otherwise.
    pub fn move_selected_to_typed(&mut self) -> bool {
        match self.counters.typed_position(&self.live) {
            Ok(p) => self.move_selected(p),
            Err(e) => self.live.refuse(&e),
        }
    }

    /// Runs an action as it is (no follow-up of a panel); a refusal becomes the desk's message.
    /// Returns whether it was recorded.
    pub fn act(&mut self, action: Action) -> bool {
        let done = self.live.act(action);
        self.resolve.follow_game(&self.live);
        done
    }

    /// Signs an umpire in (what the sign-in window does); see [`super::shared::sign_in`].
    pub fn sign_in(&mut self, who: umpire_core::megagame::remit::SignedIn) -> Result<(), String> {
        super::shared::sign_in(&mut self.live, who)?;
        if let Some(v) = &mut self.shared {
            v.show_sign_in = false;
        }
        Ok(())
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.live.game()
    }

    /// The game file.
    pub fn path(&self) -> &Path {
        self.live.path()
    }

    /// The last refusal or problem.
    pub fn message(&self) -> Option<&str> {
        self.live.message()
    }

    /// The counters the megagame filter (table / role) lets through, or None for all.
    pub fn counters_shown(&self) -> Option<std::collections::BTreeSet<String>> {
        self.megagame
            .as_ref()
            .and_then(|m| m.counters_shown(&self.live))
    }

    /// Opens a procedure (by id) in the resolve panel.
    pub fn select_procedure(&mut self, id: &str) {
        self.resolve.select_procedure(&mut self.live, id);
    }

    /// Adds a counter to a role of the next resolution.
    pub fn add_to_role(&mut self, role: &str, counter: &str) {
        self.resolve.add_to_role(&mut self.live, role, counter);
    }

    /// The roles the open procedure names.
    pub fn role_names(&self) -> Vec<String> {
        self.resolve.role_names(&self.live)
    }

    /// The procedure open in the resolve panel.
    pub fn procedure_id(&self) -> Option<String> {
        self.resolve.procedure_id()
    }

    /// Throws the app dice and resolves the open procedure.
    pub fn roll(&mut self) -> bool {
        let done = self.resolve.roll(&mut self.live);
        self.resolve.follow_game(&self.live);
        done
    }

    /// Resolves with the physical dice typed in the resolve panel.
    pub fn use_physical(&mut self) -> bool {
        self.resolve.use_physical(&mut self.live)
    }

    /// Finishes a throw that landed on a missing chart cell with the result typed.
    pub fn use_chart_result(&mut self) -> bool {
        self.resolve.use_chart_result(&mut self.live)
    }

    /// Confirms a chart code the text does not name and uses it.
    pub fn confirm_chart_result(&mut self) -> bool {
        self.resolve.confirm_chart_result(&mut self.live)
    }

    /// The result codes the text gives for the pending chart cell.
    pub fn chart_codes(&self) -> Vec<(String, String)> {
        self.resolve.chart_codes(&self.live)
    }

    /// The journal rows the filters let through, newest first.
    pub fn journal_rows(&mut self) -> std::rc::Rc<Vec<super::journal::JournalRow>> {
        self.journal.rows(&self.live)
    }
}
