//! The desk (eframe/egui). Thin: views over the engine.
//!
//! [`Desk`] holds the state and the actions (no drawing, no rules: the engine in
//! [`crate::resolve`] does all the adjudication); its `*_ui` methods draw it into any
//! [`egui::Ui`]; [`DeskApp`] is the eframe glue; [`run`] opens the window.

mod commands;
mod desk;
mod files;
mod game;
mod game_view;
mod print;
mod shell;
mod view;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use anyhow::anyhow;
use eframe::egui;

pub use commands::Command;
pub use desk::{
    DerivedRow, Desk, LogEntry, ModifierRow, PendingChart, Preview, clock, describe_rolls,
    outcome_text, split_faces,
};
pub use files::{default_scenario, games_dir, new_game_path, read_recent, recent_file, remember};
pub use game::{GameDesk, ResolvedEntry, describe_event, hex_col_row, hex_id};
pub use game_view::{
    APPLY_LABEL, BACK_LABEL, FIND_COUNTER_LABEL, GAME_RESULT_PREFIX, JOURNAL_FILTER_LABEL,
    MOVE_LABEL, MOVE_TO_LABEL, NEXT_LABEL, PROCEDURE_LABEL, REDO_LABEL, SKIP_REASON_LABEL,
    UNDO_LABEL,
};
pub use print::{PRINT_LABEL, PRINT_PATH_LABEL, PrintDialog, PrintWhat};
pub use shell::{GAME_FILE_LABEL, PALETTE_SEARCH_LABEL, START_GAME_LABEL, Screen, Shell};
pub use view::{
    CHART_RESULT_LABEL, PHYSICAL_DICE_LABEL, RESULT_PREFIX, ROLL_LABEL, USE_CHART_LABEL,
    USE_PHYSICAL_LABEL,
};

use crate::rules::Library;

/// Title of the desk window.
pub const WINDOW_TITLE: &str = "Umpire";

/// The environment variable that forces a renderer: `glow` or `wgpu`.
pub const RENDERER_ENV: &str = "UMPIRE_RENDERER";

/// The eframe application: the game desk (when a game is open) or the procedure desk, with
/// the File menu and the command palette, drawn into the root viewport.
#[derive(Debug)]
pub struct DeskApp {
    /// The procedure desk (one procedure at a time, no game); it owns the rulesets.
    pub desk: Desk,
    /// The open game, if any.
    pub game: Option<GameDesk>,
    /// Menus, dialogs, palette and the command queue.
    pub shell: Shell,
}

impl DeskApp {
    /// Wraps a desk for eframe (sets up the look of the window on `cc`).
    pub fn new(cc: &eframe::CreationContext<'_>, desk: Desk) -> DeskApp {
        install_fonts(&cc.egui_ctx);
        cc.egui_ctx.all_styles_mut(|style| {
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
        DeskApp {
            desk,
            game: None,
            shell: Shell::new(None),
        }
    }

    /// The desk open on a game (remembering no recent games: see [`DeskApp::remembering`]).
    pub fn with_game(cc: &eframe::CreationContext<'_>, desk: Desk, game: GameDesk) -> DeskApp {
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
        self.shell.frame_ui(ui, &mut self.desk, &mut self.game);
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
    if let Some(list) = recent_file().map(|f| read_recent(&f)) {
        for path in list {
            if let Ok(g) = GameDesk::open(&path, library) {
                return Some(g);
            }
        }
    }
    let (file, id) = default_scenario(library)?;
    let seed = crate::dice::AppDice::fresh_seed();
    let dir = games_dir();
    match GameDesk::create(&new_game_path(&dir, &id), &file, library, seed) {
        Ok(g) => Some(g),
        Err(_) => {
            let tmp = std::env::temp_dir().join("umpire-games");
            GameDesk::create(&new_game_path(&tmp, &id), &file, library, seed).ok()
        }
    }
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
pub fn run(library: Library) -> anyhow::Result<()> {
    let forced = forced_renderer()?;
    // The desk waits here until eframe asks for it, so that it survives a renderer that fails
    // before the app is created and can be handed to the next one.
    let game = opening_game(&library);
    let waiting = Rc::new(RefCell::new(Some((Desk::new(library), game))));
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

/// The desks waiting for eframe to create the app.
type Waiting = Rc<RefCell<Option<(Desk, Option<GameDesk>)>>>;

/// Runs eframe once with one renderer, taking the desk from `waiting` when the app is created.
fn open_window(renderer: eframe::Renderer, waiting: &Waiting) -> Result<(), eframe::Error> {
    let options = eframe::NativeOptions {
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
            let (desk, game) = waiting
                .borrow_mut()
                .take()
                .ok_or("the desk was already opened")?;
            Ok(Box::new(match game {
                Some(game) => DeskApp::with_game(cc, desk, game).remembering(recent_file()),
                None => DeskApp::new(cc, desk),
            }))
        }),
    )
}
