//! The desk (eframe/egui). Thin: views over the engine.
//!
//! Two desks share the window: the [`ProcedureDesk`] (one procedure at a time, no game; its
//! `*_ui` methods in `procedure_view`) and the [`GameDesk`] (a [`LiveGame`] and its panels:
//! `sequence`, `counter_panel`, `map` and `board_view`, `resolve`, `decks`, `journal`,
//! `megagame`, `shared`). Panels queue [`Command`]s — the desk's own [`UiCommand`]s, or an
//! engine action in [`Command::Act`] — which the [`Shell`] (menus, dialogs, the command
//! palette, the queue) applies once a frame. No drawing decides a rule: the engine in
//! [`umpire_core`] does all the adjudication. [`DeskApp`] is the eframe glue; [`run`] opens
//! the window.

mod board_view;
mod charts;
mod commands;
mod counter_panel;
mod counter_values;
mod decks;
mod files;
mod game_desk;
mod help;
mod import_setup;
mod jobs;
mod journal;
mod live;
mod map;
mod megagame;
mod orders_panel;
mod players;
mod print;
mod procedure_desk;
mod procedure_view;
mod records_panel;
mod resolve;
mod save_scenario;
mod sequence;
mod sequence_victory;
mod shared;
mod shell;
mod table;
mod underlay;
mod underlay_window;
mod widgets;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use anyhow::anyhow;
use eframe::egui;

pub use charts::{
    CHART_RULESET_LABEL, CHART_SAVE_LABEL, CHART_TABLE_LABEL, ChartEditor, ChartSource, RulesSetup,
    SavedTable, cell_label, write_atomically,
};
pub use commands::{Command, UiCommand, action_label, move_action};
pub use counter_panel::{
    ADD_COUNTER_LABEL, ADD_LABEL, CHANGE_BY_HAND_LABEL, CountersPanel, EDIT_NOTE_LABEL,
    FIND_COUNTER_LABEL, MOVE_LABEL, MOVE_TO_LABEL, NEW_AT_LABEL, NEW_FORCE_LABEL, NEW_NAME_LABEL,
    NEW_TYPE_LABEL, NewCounter, SET_LABEL, TAKE_OFF_LABEL,
};
pub use counter_values::{COUNTER_VALUES_GIVE_LABEL, CounterValuesWindow, open_groups};
pub use decks::{ANY_ROLL_LABEL, DecksPanel};
pub use files::{
    config_dir, default_scenario, games_dir, new_game_path, read_recent, recent_file, remember,
};
pub use game_desk::GameDesk;
pub use help::{
    FIRST_GAME, GETTING_STARTED_LABEL, Help, KEY_SEPARATOR, KEYS_LABEL, OTHER_KEYS, OtherKey, Step,
    WELCOME_CLOSE_LABEL, WELCOME_TITLE, Welcome, ZoomKey, key_for, key_rows, steps,
};
pub use import_setup::{
    IMPORT_SETUP_FOLDER_LABEL, IMPORT_SETUP_LABEL, IMPORT_SETUP_PATH_LABEL, ImportSetupDialog,
};
pub use jobs::{Browse, FileDialog, Job, JobDone, NO_DIALOG_MESSAGE, OpenedGame};
pub use journal::{
    ADD_NOTE_LABEL, CLOSE_ENTRY_LABEL, EVENT_KINDS, JOURNAL_FILTER_LABEL, JOURNAL_FORCE_LABEL,
    JOURNAL_PROCEDURE_LABEL, JOURNAL_SIDE_LABEL, JournalFilter, JournalPanel, JournalRow,
    NOTE_LABEL,
};
pub use live::{LiveGame, SideCache, describe_event};
pub use map::{
    CANCEL_MOVE_LABEL, MENU_HAND_LABEL, MENU_INSPECT_LABEL, MENU_MOVE_LABEL, MENU_RESOLVE_LABEL,
    MENU_SPLIT_LABEL, MOVE_HERE_LABEL, MapPanel, ResolveOffer,
};
pub use megagame::{
    CLOCK_COUNTDOWN_LABEL, LEDGER_PREFIX, LEDGERS_LABEL, MEGAGAME_FILTER_LABEL, MegagameFilter,
    MegagameView, counter_passes, filter_options, filtered_ledgers,
};
pub use orders_panel::{
    OrdersPanel, PAPER_SIDE_LABEL, REVEAL_ANYWAY_LABEL, SEAL_LABEL, SEALED_ORDERS_HEADING,
};
pub use players::{
    PLAYERS_BIND_LABEL, PLAYERS_ROTATE_LABEL, PLAYERS_START_LABEL, PLAYERS_STOP_LABEL, PlayersView,
};
pub use print::{
    PRINT_KEEP_LABEL, PRINT_LABEL, PRINT_PATH_LABEL, PRINT_REPLACE_LABEL, PrintDialog, PrintWhat,
};
pub use procedure_desk::{
    DerivedRow, LogEntry, ModifierRow, PendingChart, Preview, ProcedureDesk, clock, describe_rolls,
    outcome_text, split_faces,
};
pub use procedure_view::{
    CHART_RESULT_LABEL, PHYSICAL_DICE_LABEL, RESULT_PREFIX, ROLL_LABEL, USE_CHART_LABEL,
    USE_PHYSICAL_LABEL,
};
pub use resolve::{
    APPLY_LABEL, CONFIRM_CHART_LABEL, GAME_RESULT_PREFIX, LOSES_LABEL, OVERRIDE_OUTCOME_LABEL,
    OVERRIDE_REASON_LABEL, PROCEDURE_LABEL, PROCEDURE_SEARCH_LABEL, ROLE_STATUS_LABEL,
    ResolvePanel, ResolvedEntry, THIS_STEP_LABEL,
};
pub use save_scenario::{
    ORGANISER_SETUP_LABEL, SAVE_SCENARIO_LABEL, SAVE_SCENARIO_PATH_LABEL, SaveScenarioDialog,
    organiser_setup_ui,
};
pub use sequence::{
    BACK_LABEL, CREDIT_LABEL, FLOOR_REASON_LABEL, GO_BELOW_LABEL, NEXT_LABEL, PLACE_LABEL,
    REVEAL_LABEL, SEEN_BY_PREFIX, SKIP_MENU_LABEL, SKIP_REASON_LABEL, SKIP_REASONS, SequencePanel,
};
pub use sequence_victory::{
    DECLARE_LABEL, DRAW_LABEL, END_MENU_LABEL, END_NOW_LABEL, END_REASON_LABEL, FAILS_LABEL,
    HOLDS_LABEL, WON_BY_LABEL,
};
pub use shared::{
    HELD_TITLE, LINK_LOST_TEXT, LIVE_TEXT, SIGN_IN_BUTTON, SIGN_IN_NAME_LABEL, SIGN_IN_TITLE,
    queue_file_name,
};
pub use shell::{
    ABOUT_LABEL, EXPORT_LABEL, EXPORT_PATH_LABEL, GAME_FILE_LABEL, OPEN_LABEL,
    PALETTE_SEARCH_LABEL, START_GAME_LABEL, Screen, Shell, WORKING_PREFIX,
};
pub use table::{
    LARGER_TEXT_LABEL, NORMAL_TEXT_LABEL, SMALLER_TEXT_LABEL, TABLE_SIZE_LABEL, TableSize, applies,
    load_table_size, save_table_size,
};
pub use underlay::{
    DecodedImage, Similarity, UNDERLAY_ALIGN_LABEL, UNDERLAY_CLEAR_LABEL, UNDERLAY_HEX_LABELS,
    UNDERLAY_LOAD_LABEL, UNDERLAY_OPACITY_LABEL, UNDERLAY_PATH_LABEL, UNDERLAY_POINT_LABELS,
    Underlay, UnderlayDialog, UnderlaySettings, sidecar_path,
};
pub use widgets::{BROWSE_LABEL, REDO_LABEL, UNDO_LABEL};

use umpire_core::rules::Library;

/// Title of the desk window.
pub const WINDOW_TITLE: &str = "Umpire";

/// The environment variable that forces a renderer: `glow` or `wgpu`.
pub const RENDERER_ENV: &str = "UMPIRE_RENDERER";

/// The eframe application: the game desk (when a game is open) or the procedure desk, with
/// the File menu and the command palette, drawn into the root viewport.
#[derive(Debug)]
pub struct DeskApp {
    /// The procedure desk (one procedure at a time, no game); it owns the rulesets.
    pub desk: ProcedureDesk,
    /// The open game, if any.
    pub game: Option<GameDesk>,
    /// Menus, dialogs, palette and the command queue.
    pub shell: Shell,
    /// The rulesets and the opening game, while a worker thread loads them.
    starting: Option<std::sync::mpsc::Receiver<Startup>>,
    /// Every ruleset, still loading after the opening game showed.
    rest: Option<std::sync::mpsc::Receiver<Library>>,
}

/// What the start-up worker hands the window: the rulesets and the opening game.
pub struct Startup {
    /// The rulesets, with the transcription layer.
    pub library: Library,
    /// The game the desk opens on, if any.
    pub game: Option<OpenedGame>,
    /// Every ruleset, when `library` holds only the opening game's so far.
    pub rest: Option<std::sync::mpsc::Receiver<Library>>,
}

impl DeskApp {
    /// Wraps a desk for eframe (sets up the look of the window on `cc`).
    pub fn new(cc: &eframe::CreationContext<'_>, desk: ProcedureDesk) -> DeskApp {
        set_up_look(&cc.egui_ctx);
        DeskApp {
            desk,
            game: None,
            shell: Shell::new(None),
            starting: None,
            rest: None,
        }
    }

    /// The desk before its rulesets and game are loaded: the window shows at once, with a
    /// spinner, while `loading` delivers them from a worker thread.
    pub fn loading(
        cc: &eframe::CreationContext<'_>,
        loading: std::sync::mpsc::Receiver<Startup>,
    ) -> DeskApp {
        let mut app = DeskApp::new(cc, ProcedureDesk::new(Library::default()));
        app.starting = Some(loading);
        app
    }

    /// Keeps each game's map underlay in `dir` (None: not kept).
    pub fn with_config_dir(mut self, dir: Option<PathBuf>) -> DeskApp {
        self.shell.table_size = table::load_table_size(dir.as_deref());
        self.shell.config_dir = dir;
        self
    }

    /// Where the rulesets come from (for the chart editor and reloading).
    pub fn with_rules(mut self, rules: RulesSetup) -> DeskApp {
        self.shell.rules = rules;
        self
    }

    /// Whether the rulesets and the opening game are still loading.
    pub fn is_loading(&self) -> bool {
        self.starting.is_some()
    }

    fn poll_startup(&mut self, ui: &mut egui::Ui) {
        if let Some(rx) = &self.rest {
            match rx.try_recv() {
                Ok(library) => {
                    self.rest = None;
                    self.desk.set_library(library);
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => ui
                    .ctx()
                    .request_repaint_after(std::time::Duration::from_millis(100)),
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.rest = None,
            }
        }
        let Some(rx) = &self.starting else {
            return;
        };
        match rx.try_recv() {
            Ok(startup) => {
                self.starting = None;
                self.rest = startup.rest;
                self.desk.set_library(startup.library);
                match startup.game {
                    Some(opened) => self.shell.show_game(opened, &mut self.game),
                    None => self.shell.screen = Screen::Procedures,
                }
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {
                egui::CentralPanel::default().show(ui, |ui| {
                    ui.centered_and_justified(|ui| {
                        ui.horizontal_centered(|ui| {
                            ui.spinner();
                            ui.label("Loading the rulesets and your game…");
                        });
                    });
                });
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(30));
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                self.starting = None;
                self.shell.message = Some("the rulesets could not be loaded".into());
            }
        }
    }

    /// The desk open on a game (remembering no recent games: see [`DeskApp::remembering`]).
    pub fn with_game(
        cc: &eframe::CreationContext<'_>,
        desk: ProcedureDesk,
        game: GameDesk,
    ) -> DeskApp {
        let mut app = DeskApp::new(cc, desk);
        app.shell.screen = Screen::Game;
        app.game = Some(game);
        app
    }

    /// Keeps the list of recent games in `file` (and puts the open game first in it).
    pub fn remembering(mut self, file: Option<PathBuf>) -> DeskApp {
        let screen = self.shell.screen;
        self.shell = Shell::new(file);
        self.shell.screen = screen;
        if let Some(g) = &self.game {
            self.shell.opened(g.path());
        }
        self
    }
}

/// With this variable set, the desk closes as soon as its first frame is on screen: the
/// start-up measurement in `docs/first-frame.sh` times the whole process.
pub const EXIT_AFTER_FIRST_FRAME: &str = "UMPIRE_EXIT_AFTER_FIRST_FRAME";

static FRAMES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

impl eframe::App for DeskApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.poll_startup(ui);
        if self.starting.is_none() {
            self.shell.frame_ui(ui, &mut self.desk, &mut self.game);
        }
        // `ready`: count from the frame that shows the game (the rulesets and game loaded).
        let wait_for_game = std::env::var_os(EXIT_AFTER_FIRST_FRAME).is_some_and(|v| v == "ready");
        if wait_for_game && self.starting.is_some() {
            return;
        }
        if std::env::var_os(EXIT_AFTER_FIRST_FRAME).is_some() {
            // Frame 0 is presented when it ends; close on frame 1.
            match FRAMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed) {
                0 => ui.ctx().request_repaint(),
                _ => ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close),
            }
        }
    }
}

/// The desk's opening: the most recent game that still opens, else a new game on the default
/// scenario ([`default_scenario`]) in [`games_dir`], else None (the procedure desk).
pub fn opening_game(library: &Library) -> Option<GameDesk> {
    opening_game_file(library, None).map(|o| GameDesk::from_game(o.game, &o.path))
}

/// [`opening_game`] without the desk around it (for a worker thread), with the game's map
/// underlay from `config_dir`.
pub fn opening_game_file(
    library: &Library,
    config_dir: Option<&std::path::Path>,
) -> Option<OpenedGame> {
    let recent = recent_file();
    opening_game_in(library, config_dir, recent.as_deref(), &games_dir()).or_else(|| {
        opening_game_in(
            library,
            config_dir,
            None,
            &std::env::temp_dir().join("umpire-games"),
        )
    })
}

/// The desk's opening with its folders given: the most recent game listed in `recent` that
/// still opens, else a new game on the default scenario in `games` (marked
/// [`OpenedGame::first_start`], so that the desk says what it made), else None.
pub fn opening_game_in(
    library: &Library,
    config_dir: Option<&std::path::Path>,
    recent: Option<&std::path::Path>,
    games: &std::path::Path,
) -> Option<OpenedGame> {
    let opened = |game: umpire_core::game::Game, path: PathBuf, first_start: bool| OpenedGame {
        underlay: config_dir.and_then(|d| underlay::restore(d, &path)),
        game,
        path,
        first_start,
    };
    if let Some(list) = recent.map(read_recent) {
        for path in list {
            if let Ok(g) = umpire_server::open_at(&path.to_string_lossy(), library) {
                return Some(opened(g, path, false));
            }
        }
    }
    let (file, id) = default_scenario(library)?;
    let path = new_game_path(games, &id);
    std::fs::create_dir_all(games).ok()?;
    umpire_core::game::Game::create(&path, &file, library, None)
        .ok()
        .map(|g| opened(g, path, true))
}

/// The desk's look: its fonts, and text a little larger than egui's defaults (the desk is read
/// across a gaming table).
pub fn set_up_look(ctx: &egui::Context) {
    install_fonts(ctx);
    ctx.all_styles_mut(|style| {
        use egui::{FontFamily, FontId, TextStyle};
        // A little larger than egui's defaults: the desk is read across a gaming table.
        for (text_style, size, family) in [
            (TextStyle::Small, 11.0, FontFamily::Proportional),
            (TextStyle::Body, 14.0, FontFamily::Proportional),
            (TextStyle::Button, 14.0, FontFamily::Proportional),
            (TextStyle::Monospace, 13.0, FontFamily::Monospace),
            (TextStyle::Heading, 21.0, FontFamily::Proportional),
        ] {
            style
                .text_styles
                .insert(text_style, FontId::new(size, family));
        }
        style.spacing.item_spacing = egui::vec2(8.0, 5.0);
        style.spacing.button_padding = egui::vec2(8.0, 3.0);
    });
}

/// Installs the desk's fonts: egui's built-in ones, with the built-in Hack font as a fallback
/// for proportional text. The engine writes `→ − × ≤ ≥ ⌊ ⌋` and the like, which the default
/// proportional font (Ubuntu Light) lacks; Hack has them, so no glyph is ever drawn as a box.
pub fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    if fonts.font_data.contains_key(FALLBACK_FONT)
        && let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional)
        && !family.iter().any(|f| f == FALLBACK_FONT)
    {
        let at = family
            .iter()
            .position(|f| f == "Ubuntu-Light")
            .map_or(0, |i| i + 1);
        family.insert(at, FALLBACK_FONT.to_string());
    }
    ctx.set_fonts(fonts);
}

/// The built-in font that covers the engine's symbols.
const FALLBACK_FONT: &str = "Hack";

/// Which renderer `UMPIRE_RENDERER` asks for (None: try wgpu, then glow).
fn forced_renderer() -> anyhow::Result<Option<eframe::Renderer>> {
    match std::env::var(RENDERER_ENV) {
        Err(_) => Ok(None),
        Ok(v) => match v.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(None),
            "wgpu" => Ok(Some(eframe::Renderer::Wgpu)),
            "glow" | "gl" | "opengl" => Ok(Some(eframe::Renderer::Glow)),
            other => Err(anyhow!("{RENDERER_ENV}={other}: use glow or wgpu")),
        },
    }
}

/// Opens the desk window on the rulesets under `rules` (or the shipped ones) and returns
/// when it is closed.
///
/// The window is drawn with wgpu; when wgpu cannot create it (no usable adapter, no surface),
/// it is opened again with glow (OpenGL). `UMPIRE_RENDERER=glow|wgpu` forces one renderer.
///
/// The rulesets are loaded and the opening game replayed on a worker thread while the window
/// opens, so the first frame does not wait for them.
pub fn run(rules: RulesSetup, first: Option<PathBuf>) -> anyhow::Result<()> {
    let forced = forced_renderer()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let worker_rules = rules.clone();
    std::thread::spawn(move || {
        // The opening game loads only its own ruleset, and shows at once; the procedure desk's
        // list of every ruleset follows, so another ruleset's broken or large file does not
        // hold the game up.
        let mut library = worker_rules.on_demand();
        // A game asked for (`umpire FILE`, a double-click) goes first in the recent games, so
        // the desk opens it; one that will not open leaves the recent games as they were.
        if let Some(path) = &first {
            match umpire_server::open_at(&path.to_string_lossy(), &library) {
                Ok(_) => {
                    if let Some(file) = recent_file() {
                        let _ = remember(&file, path);
                    }
                }
                Err(e) => eprintln!("umpire: {}: {e}", path.display()),
            }
        }
        let game = opening_game_file(&library, config_dir().as_deref());
        if game.is_some() {
            let (rest_tx, rest_rx) = std::sync::mpsc::channel();
            let _ = tx.send(Startup {
                library: library.clone(),
                game,
                rest: Some(rest_rx),
            });
            library.load_all();
            let _ = rest_tx.send(library);
        } else {
            library.load_all();
            let _ = tx.send(Startup {
                library,
                game,
                rest: None,
            });
        }
    });
    // The desk waits here until eframe asks for it, so that it survives a renderer that fails
    // before the app is created and can be handed to the next one.
    let waiting = Rc::new(RefCell::new(Some((rules, rx))));
    let order = match forced {
        Some(r) => vec![r],
        None => vec![eframe::Renderer::Wgpu, eframe::Renderer::Glow],
    };
    let mut failures = Vec::new();
    for renderer in order {
        match open_window(renderer, &waiting) {
            Ok(()) => return Ok(()),
            Err(e) => {
                let started = waiting.borrow().is_none();
                let message = format!("{} renderer: {e}", renderer_name(renderer));
                if started {
                    // The desk ran and then failed: do not reopen a fresh one behind the umpire.
                    return Err(anyhow!(message));
                }
                eprintln!("umpire: could not open the desk with the {message}");
                failures.push(message);
            }
        }
    }
    Err(anyhow!(
        "could not open the desk window ({}); is a display available?",
        failures.join("; ")
    ))
}

fn renderer_name(renderer: eframe::Renderer) -> &'static str {
    match renderer {
        eframe::Renderer::Glow => "glow",
        eframe::Renderer::Wgpu => "wgpu",
    }
}

/// The start-up waiting for eframe to create the app.
type Waiting = Rc<RefCell<Option<(RulesSetup, std::sync::mpsc::Receiver<Startup>)>>>;

/// Runs eframe once with one renderer, taking the desk from `waiting` when the app is created.
fn open_window(renderer: eframe::Renderer, waiting: &Waiting) -> Result<(), eframe::Error> {
    let mut wgpu_options = eframe::WgpuConfiguration::default();
    if let eframe::egui_wgpu::WgpuSetup::CreateNew(create) = &mut wgpu_options.wgpu_setup {
        // Vulkan, Metal or DX12 only (WGPU_BACKEND still chooses): where none starts, the desk
        // opens again with glow itself, so wgpu's own OpenGL backend would only load a second
        // OpenGL driver beside the Vulkan one (about 7 MiB resident on Mesa).
        create.instance_descriptor.backends =
            eframe::wgpu::Backends::from_env().unwrap_or(eframe::wgpu::Backends::PRIMARY);
    }
    let options = eframe::NativeOptions {
        wgpu_options,
        viewport: egui::ViewportBuilder::default()
            .with_title(WINDOW_TITLE)
            .with_app_id("umpire")
            .with_inner_size([1400.0, 900.0])
            .with_min_inner_size([900.0, 560.0]),
        renderer,
        // Returning (rather than exiting the process) lets a failed renderer be retried.
        run_and_return: true,
        ..Default::default()
    };
    let waiting = Rc::clone(waiting);
    eframe::run_native(
        WINDOW_TITLE,
        options,
        Box::new(move |cc| {
            let (rules, loading) = waiting
                .borrow_mut()
                .take()
                .ok_or("the desk was already opened")?;
            Ok(Box::new(
                DeskApp::loading(cc, loading)
                    .remembering(recent_file())
                    .with_rules(rules)
                    .with_config_dir(config_dir()),
            ))
        }),
    )
}
