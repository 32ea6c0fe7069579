//! Around the desks: the menu bar (File: New game, Open, Open recent; View; Commands), the
//! dialogs, the command palette, and the command queue applied once per frame.

use std::path::{Path, PathBuf};

use eframe::egui::{self, RichText, Ui};

use super::charts::{ChartEditor, RulesSetup};
use super::commands::{Command, UiCommand, action_label};
use super::files::{games_dir, new_game_path, read_recent, remember};
use super::game_desk::GameDesk;
use super::jobs::{self, Browse, FileDialog, Job, JobDone, NO_DIALOG_MESSAGE, OpenedGame};
use super::procedure_desk::ProcedureDesk;
use super::table::{TableSize, applies, save_table_size, view_size_ui};
use super::underlay::{Underlay, UnderlayDialog};
use super::underlay_window;
use super::widgets::BROWSE_LABEL;
use umpire_core::game::output::{Existing, OutputError, check_output};
use umpire_core::game::scenario::{load_scenario, shipped_scenarios};
use umpire_core::rules::{Library, SourceFile};

/// Which desk is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The game: Sequence of Play, table, resolve panel, journal.
    Game,
    /// The procedure desk: one procedure at a time, no game.
    Procedures,
}

/// Label of the New game dialog's start button.
pub const START_GAME_LABEL: &str = "Start game";
/// Label of the Open dialog's path field.
pub const GAME_FILE_LABEL: &str = "Game file";
/// Label of the palette's search field.
pub const PALETTE_SEARCH_LABEL: &str = "Search commands";
/// Label of the Open dialog's Open button.
pub const OPEN_LABEL: &str = "Open";
/// Label of the export path field.
pub const EXPORT_PATH_LABEL: &str = "Export the journal as";
/// Label of the Export button.
pub const EXPORT_LABEL: &str = "Export";
/// Prefix of the line that says which long work is running.
pub const WORKING_PREFIX: &str = "Working: ";

/// Menus, dialogs, the palette and the command queue.
#[derive(Debug)]
pub struct Shell {
    /// The desk shown.
    pub screen: Screen,
    /// Commands queued this frame (buttons, menus, palette, keyboard).
    pub queue: Vec<Command>,
    /// Whether the palette is open.
    pub palette: bool,
    /// The palette's search text.
    pub palette_query: String,
    /// Whether the New game dialog is open.
    pub new_game: bool,
    /// The scenario picked in the New game dialog (index into the shipped scenarios that load).
    pub scenario: usize,
    /// A scenario file typed in the New game dialog (used instead of the pick when not empty).
    pub scenario_path: String,
    /// The seed field of the New game dialog (empty: a fresh seed).
    pub seed: String,
    /// Whether the Open dialog is open.
    pub open: bool,
    /// The path typed in the Open dialog.
    pub open_path: String,
    /// Recent game files, newest first.
    pub recent: Vec<PathBuf>,
    recent_file: Option<PathBuf>,
    scenarios: Option<Vec<(SourceFile, String)>>,
    /// The last problem of a menu action.
    pub message: Option<String>,
    /// File → Print….
    pub print: super::print::PrintDialog,
    /// File → Players' view….
    pub players: super::players::PlayersView,
    /// Help → About Umpire.
    pub about: bool,
    /// Help › Getting started and Keys, and the note on the first start.
    pub help: super::help::Help,
    /// Where the rulesets come from (for the chart editor and reloading).
    pub rules: RulesSetup,
    /// The config folder that keeps each game's map underlay (None: underlays are not kept).
    pub config_dir: Option<PathBuf>,
    /// The long work running (opening, creating, verifying, exporting a game).
    pub job: Option<Job>,
    /// The last finished job's report (verify, export), or its problem.
    pub notice: Option<Result<String, String>>,
    /// The chart editor.
    pub charts: ChartEditor,
    /// The Map underlay window.
    pub underlay: UnderlayDialog,
    /// A native file dialog that is open.
    pub browse: Option<FileDialog>,
    /// Where new games are written.
    pub games_dir: PathBuf,
    /// Whether the Export dialog is open.
    pub export: bool,
    /// Where to export the journal, as typed.
    pub export_path: String,
    /// A file already at the export path: the dialog asks before replacing it.
    pub export_confirm: Option<PathBuf>,
    /// A game on a server waiting for its login's password (the desk asks in a window).
    pub password: Option<super::shared::PasswordPrompt>,
    /// File › Save as scenario.
    pub save_scenario: super::save_scenario::SaveScenarioDialog,
    /// File › Import set-up.
    pub import_setup: super::import_setup::ImportSetupDialog,
    /// View › Table size: how large the counters and their numbers are drawn.
    pub table_size: TableSize,
}

impl Shell {
    /// A shell that remembers recent games in `recent_file` (None: remembers nothing).
    pub fn new(recent_file: Option<PathBuf>) -> Shell {
        let recent = recent_file.as_deref().map(read_recent).unwrap_or_default();
        Shell {
            screen: Screen::Procedures,
            queue: Vec::new(),
            palette: false,
            palette_query: String::new(),
            new_game: false,
            scenario: 0,
            scenario_path: String::new(),
            seed: String::new(),
            open: false,
            open_path: String::new(),
            recent,
            recent_file,
            scenarios: None,
            message: None,
            print: super::print::PrintDialog::default(),
            players: super::players::PlayersView::default(),
            about: false,
            help: super::help::Help::default(),
            rules: RulesSetup::default(),
            config_dir: None,
            job: None,
            notice: None,
            charts: ChartEditor::default(),
            underlay: UnderlayDialog::default(),
            browse: None,
            games_dir: games_dir(),
            export: false,
            password: None,
            export_path: String::new(),
            export_confirm: None,
            save_scenario: Default::default(),
            import_setup: Default::default(),
            table_size: TableSize::default(),
        }
    }

    /// Whether long work is running (a spinner is shown; another job must wait).
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    fn start_job(&mut self, job: Job) {
        if let Some(running) = &self.job {
            self.message = Some(format!("wait: {} is still running", running.what));
            return;
        }
        self.message = None;
        self.notice = None;
        self.job = Some(job);
    }

    /// Collects a finished job and a closed file dialog.
    pub fn poll_work(&mut self, desk: &mut ProcedureDesk, game: &mut Option<GameDesk>) {
        if let Some(done) = self.job.as_ref().and_then(Job::poll) {
            self.job = None;
            match done {
                Ok(JobDone::Game(opened)) => self.show_game(*opened, game),
                Ok(JobDone::Message(m)) => self.notice = Some(Ok(m)),
                Err(e) => {
                    self.notice = Some(Err(e.clone()));
                    self.message = Some(e);
                }
            }
        }
        if let Some(picked) = self.browse.as_ref().and_then(FileDialog::poll) {
            let purpose = self.browse.take().map(|b| b.purpose);
            match (purpose, picked) {
                (_, None) => self.message = Some(NO_DIALOG_MESSAGE.to_string()),
                (Some(Browse::OpenGame), Some(p)) => {
                    self.open_path = p.display().to_string();
                    self.open_game(&p, desk.library());
                }
                (Some(Browse::Scenario), Some(p)) => self.scenario_path = p.display().to_string(),
                (Some(Browse::Underlay), Some(p)) => {
                    self.underlay.path = p.display().to_string();
                    if let Some(g) = game.as_mut() {
                        self.load_underlay(g);
                    }
                }
                (Some(Browse::Export), Some(p)) => self.export_path = p.display().to_string(),
                (None, Some(_)) => {}
            }
        }
    }

    /// Shows a game opened or created by a job.
    pub fn show_game(&mut self, opened: OpenedGame, game: &mut Option<GameDesk>) {
        let OpenedGame {
            game: g,
            path,
            underlay: restored,
            first_start,
        } = opened;
        if first_start {
            self.help.welcome = Some(super::help::Welcome {
                title: g.scenario().title.clone(),
                path: path.clone(),
            });
        }
        let mut desk = GameDesk::from_game(g, &path);
        self.underlay = UnderlayDialog::default();
        if let Some((settings, image)) = restored {
            self.underlay.path = settings.image.display().to_string();
            match image {
                Ok(decoded) => desk.map.underlay = Some(Underlay::new(settings, decoded)),
                Err(e) => self.message = Some(format!("map underlay: {e}")),
            }
        }
        self.opened(&path);
        *game = Some(desk);
        self.screen = Screen::Game;
        self.open = false;
        self.new_game = false;
    }

    fn browse(&mut self, purpose: Browse, start: Option<PathBuf>) {
        if self.browse.is_none() {
            self.browse = Some(FileDialog::spawn(purpose, start));
        }
    }

    /// Loads the image typed in the Map underlay window under the game's map.
    pub fn load_underlay(&mut self, g: &mut GameDesk) {
        underlay_window::load(&mut self.underlay, g, self.config_dir.as_deref());
    }

    /// The Map underlay window.
    fn underlay_ui(&mut self, ctx: &egui::Context, g: &mut GameDesk) {
        if underlay_window::window_ui(ctx, &mut self.underlay, g, self.config_dir.as_deref()) {
            self.browse(Browse::Underlay, None);
        }
    }

    /// Notes a game file as opened (first in the recent list).
    pub fn opened(&mut self, path: &Path) {
        if let Some(f) = &self.recent_file {
            self.recent = remember(f, path);
        }
    }

    /// One frame: keyboard, menu bar, the desk shown, dialogs, then the queued commands.
    pub fn frame_ui(&mut self, ui: &mut Ui, desk: &mut ProcedureDesk, game: &mut Option<GameDesk>) {
        self.poll_work(desk, game);
        // Escape closes the palette first (it would otherwise clear the selection).
        if self.palette
            && ui
                .ctx()
                .input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape))
        {
            self.palette = false;
        }
        if let Some(g) = game.as_mut() {
            g.map.table_scale = self.table_size.factor();
            g.watch_file(ui.ctx());
        }
        self.queue
            .extend(UiCommand::pressed(ui.ctx()).into_iter().map(Command::Key));
        egui::Panel::top("menu_bar").show(ui, |ui| self.menu_bar_ui(ui, desk.library(), game));
        if let Some(job) = &self.job {
            let what = job.what.clone();
            let secs = job.started.elapsed().as_secs_f32();
            egui::Panel::bottom("working").show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("{WORKING_PREFIX}{what}… {secs:.1} s"));
                });
            });
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(50));
        }
        if self.browse.is_some() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        match (self.screen, game.as_mut()) {
            (Screen::Game, Some(g)) => g.ui(ui, &mut self.queue),
            _ => desk.desk_ui(ui),
        }
        self.dialogs_ui(ui, desk.library(), desk.ruleset(), game);
        if self.charts.window_ui(ui.ctx(), &self.rules, desk.library()) {
            // A transcription was saved: the open game of its ruleset records it (it is part
            // of the game's record), then the rulesets reload, and the game on them.
            if let (Some(saved), Some(g)) = (self.charts.saved.take(), game.as_mut())
                && g.game().ruleset().id == saved.ruleset
            {
                g.perform(umpire_core::game::Action::Transcribe {
                    table: saved.table,
                    content: saved.text,
                });
            }
            desk.set_library(self.rules.load());
            if let Some(g) = game.as_ref() {
                let path = g.path().to_path_buf();
                self.open_game(&path, desk.library());
            }
        }
        if let Some(g) = game.as_mut() {
            self.underlay_ui(ui.ctx(), g);
        }
        let queued = std::mem::take(&mut self.queue);
        for c in queued {
            self.apply(c, desk, game);
        }
    }

    /// Applies one command: the shell's own (dialogs, screens), the procedure desk's (off the
    /// game), or the game desk's.
    pub fn apply(
        &mut self,
        command: Command,
        desk: &mut ProcedureDesk,
        game: &mut Option<GameDesk>,
    ) {
        match command {
            Command::Ui(c) => self.apply_ui(c, desk, game),
            // A key that resolves acts only on a procedure opened at this step.
            Command::Key(c) if c.resolves() && self.screen == Screen::Game && game.is_some() => {
                if let Some(g) = game.as_mut() {
                    g.run_key(c);
                }
            }
            Command::Key(c) => self.apply_ui(c, desk, game),
            Command::Act(action) => match game.as_mut() {
                None => {
                    self.message = Some(format!(
                        "{}: open or start a game first",
                        action_label(&action)
                    ));
                }
                Some(_) if self.screen != Screen::Game => {}
                Some(g) => {
                    g.perform(action);
                }
            },
        }
    }

    fn apply_ui(
        &mut self,
        command: UiCommand,
        desk: &mut ProcedureDesk,
        game: &mut Option<GameDesk>,
    ) {
        let on_game = self.screen == Screen::Game;
        let label = command.label();
        match (command, game.as_mut()) {
            (UiCommand::Palette, _) => {
                self.palette = !self.palette;
                self.palette_query.clear();
            }
            (UiCommand::NewGame, _) => self.new_game = true,
            (UiCommand::Print, g) => self.print.show(
                g.as_ref().map(|g| g.path()),
                g.as_ref().map_or(1, |g| g.game().state().cursor.turn),
            ),
            (UiCommand::OpenGame, _) => self.open = true,
            (UiCommand::PlayersView, _) => self.players.open = true,
            (UiCommand::ChartEditor, _) => {
                self.charts.open = true;
                if self.charts.ruleset.is_empty() {
                    let id = game
                        .as_ref()
                        .map(|g| g.game().ruleset().id.clone())
                        .or_else(|| desk.ruleset().map(|r| r.id.clone()))
                        .unwrap_or_default();
                    self.charts.ruleset = id;
                }
            }
            (UiCommand::VerifyGame, Some(g)) => {
                let job = jobs::verify_game(g.path().to_path_buf(), desk.library().clone());
                self.start_job(job);
            }
            (UiCommand::SaveScenario, Some(g)) => self.save_scenario.open_for(g.path()),
            (UiCommand::ImportSetup, Some(g)) => self.import_setup.open_for(g.path()),
            (UiCommand::ExportGame, Some(g)) => {
                self.export = true;
                if self.export_path.is_empty() {
                    self.export_path = g.path().with_extension("jsonl").display().to_string();
                }
            }
            (UiCommand::MapUnderlay, Some(g)) => {
                self.underlay.open = true;
                if let Some(u) = &g.map.underlay {
                    self.underlay.path = u.settings.image.display().to_string();
                }
            }
            (UiCommand::ShowProcedures, _) => self.screen = Screen::Procedures,
            (UiCommand::ShowGame, Some(_)) => self.screen = Screen::Game,
            (UiCommand::Roll, _) if !on_game => desk.roll(),
            (UiCommand::UsePhysical, _) if !on_game => desk.use_physical(),
            (UiCommand::UseChartResult, _) if !on_game => desk.use_chart_result(),
            (_, None) => self.message = Some(format!("{label}: open or start a game first")),
            (_, Some(_)) if !on_game => {}
            (c, Some(g)) => {
                // A refusal is already the desk's message.
                g.run(c);
            }
        }
    }

    /// The File menu: the game file's work, and the recent games.
    fn file_menu_ui(&mut self, ui: &mut Ui, ctx: &egui::Context, library: &Library) {
        ui.menu_button("File", |ui| {
            command_buttons(
                ui,
                ctx,
                &[
                    UiCommand::NewGame,
                    UiCommand::OpenGame,
                    UiCommand::Print,
                    UiCommand::PlayersView,
                    UiCommand::VerifyGame,
                    UiCommand::ExportGame,
                    UiCommand::ImportSetup,
                    UiCommand::CounterValues,
                    UiCommand::SaveScenario,
                    UiCommand::ChartEditor,
                ],
                &mut self.queue,
            );
            ui.menu_button("Open recent", |ui| {
                if self.recent.is_empty() {
                    ui.label(RichText::new("No recent games").weak());
                }
                let mut pick = None;
                for p in &self.recent {
                    if ui
                        .button(p.display().to_string())
                        .on_hover_text("Open this recent game")
                        .clicked()
                    {
                        pick = Some(p.clone());
                    }
                }
                if let Some(p) = pick {
                    self.open_game(&p, library);
                }
            })
            .response
            .on_hover_text("The games you opened last");
        })
        .response
        .on_hover_text("New game, Open game, Print, Players' view and the game file's other work");
    }

    fn menu_bar_ui(&mut self, ui: &mut Ui, library: &Library, game: &mut Option<GameDesk>) {
        let ctx = ui.ctx().clone();
        egui::MenuBar::new().ui(ui, |ui| {
            self.file_menu_ui(ui, &ctx, library);
            ui.menu_button("View", |ui| self.view_menu_ui(ui, &ctx, game.as_ref()))
                .response
                .on_hover_text(
                    "The screens, the map's zoom, table size, and as whom the game is seen",
                );
            ui.menu_button("Commands", |ui| {
                let applying: Vec<UiCommand> = UiCommand::ALL
                    .into_iter()
                    .filter(|c| applies(c, game.as_ref()))
                    .collect();
                command_buttons(ui, &ctx, &applying, &mut self.queue);
            })
            .response
            .on_hover_text("Every command that applies to this game, with its key");
            ui.menu_button("Help", |ui| {
                self.help.menu_ui(ui);
                ui.separator();
                if ui
                    .button(ABOUT_LABEL)
                    .on_hover_text("The version, the licences, and where your games are kept")
                    .clicked()
                {
                    self.about = true;
                    ui.close();
                }
            })
            .response
            .on_hover_text("Getting started, the keys, and About Umpire");
            ui.separator();
            let tabs = [
                (Screen::Game, "Game"),
                (Screen::Procedures, "Procedure desk"),
            ];
            for (screen, name) in tabs {
                let enabled = screen == Screen::Procedures || game.is_some();
                if ui
                    .add_enabled(
                        enabled,
                        egui::Button::selectable(self.screen == screen, name),
                    )
                    .on_hover_text(if screen == Screen::Game {
                        UiCommand::ShowGame.hint()
                    } else {
                        UiCommand::ShowProcedures.hint()
                    })
                    .clicked()
                {
                    let show = if screen == Screen::Game {
                        UiCommand::ShowGame
                    } else {
                        UiCommand::ShowProcedures
                    };
                    self.queue.push(show.into());
                }
            }
            ui.separator();
            if ui
                .button(format!(
                    "Commands… ({})",
                    UiCommand::Palette.shortcut_text(&ctx)
                ))
                .on_hover_text(UiCommand::Palette.hint())
                .clicked()
            {
                self.queue.push(UiCommand::Palette.into());
            }
            if let Some(g) = game.as_ref() {
                ui.label(
                    RichText::new(format!(
                        "{} — {}",
                        g.game().scenario().title,
                        g.path().display()
                    ))
                    .weak(),
                );
            }
            if let Some(m) = &self.message {
                ui.label(RichText::new(m).color(ui.visuals().error_fg_color));
            } else if let Some(Ok(m)) = &self.notice {
                ui.label(RichText::new(m).color(egui::Color32::from_rgb(90, 170, 90)));
            }
        });
    }

    /// Draws the counters at `size` from now on, and keeps it in the desk's settings.
    pub fn set_table_size(&mut self, size: TableSize) {
        self.table_size = size;
        if let Err(e) = save_table_size(self.config_dir.as_deref(), size) {
            self.message = Some(e);
        }
    }

    /// Opens a game file on a worker thread (the journal is replayed there).
    pub fn open_game(&mut self, path: &Path, library: &Library) {
        if path.as_os_str().is_empty() {
            self.message = Some("type the path of a game file".into());
            return;
        }
        if let Some(prompt) = super::shared::PasswordPrompt::needed(path) {
            self.password = Some(prompt);
            return;
        }
        let job = jobs::open_game(path.to_path_buf(), library.clone(), self.config_dir.clone());
        self.start_job(job);
    }

    fn dialogs_ui(
        &mut self,
        ui: &mut Ui,
        library: &Library,
        ruleset: Option<&umpire_core::rules::Ruleset>,
        game: &mut Option<GameDesk>,
    ) {
        let ctx = ui.ctx().clone();
        let printing = game.as_ref().map(|g| (g.game(), g.path()));
        // On the procedure desk, the chart sheets are those of the ruleset open there.
        let charts = if self.screen == Screen::Procedures {
            ruleset
        } else {
            None
        };
        self.print.dialog_ui(ui, printing, charts, library);
        self.players
            .dialog_ui(ui, game.as_ref().map(|g| g.path()), library);
        if self.about {
            let mut open = true;
            egui::Window::new(ABOUT_LABEL)
                .open(&mut open)
                .collapsible(false)
                .show(&ctx, about_ui);
            self.about = open;
        }
        self.help.windows_ui(&ctx);
        if let Some(mut prompt) = self.password.take() {
            let mut open = true;
            match prompt.ui(&ctx, &mut open) {
                Some(path) => self.open_game(&path, library),
                None if open => self.password = Some(prompt),
                None => {}
            }
        }
        if self.palette {
            self.palette_ui(&ctx, game.as_ref());
        }
        if self.new_game {
            self.new_game_ui(&ctx, library);
        }
        if self.open {
            self.open_dialog_ui(&ctx, library, game.as_ref());
        }
        if self.export {
            self.export_ui(&ctx, library, game.as_ref());
        }
        self.save_scenario
            .ui(&ctx, game.as_ref().map(|g| g.game()), library);
        self.import_setup
            .ui(&ctx, game.as_ref().map(|g| g.game()), library);
    }

    fn export_ui(&mut self, ctx: &egui::Context, library: &Library, game: Option<&GameDesk>) {
        let mut open = true;
        let mut go = false;
        let mut browse = false;
        let mut replace = false;
        let mut keep = false;
        egui::Window::new("Export the journal")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label("Every journal entry as JSON lines, for players and scripts (umpire game import reads it back).");
                ui.horizontal(|ui| {
                    let label = ui.label(EXPORT_PATH_LABEL);
                    ui.add(egui::TextEdit::singleline(&mut self.export_path).desired_width(380.0))
                        .labelled_by(label.id).on_hover_text("The file to write the journal to (JSON lines)");
                    browse = ui.button(BROWSE_LABEL).on_hover_text("Pick the file with your system's file dialog").clicked();
                });
                go = ui
                    .add_enabled(
                        self.job.is_none() && !self.export_path.trim().is_empty(),
                        egui::Button::new(EXPORT_LABEL),
                    )
                    .on_hover_text("Write the journal to the file typed").clicked();
                // Asked only while the path is the one that was found taken.
                if self
                    .export_confirm
                    .as_ref()
                    .is_some_and(|p| *p != Path::new(self.export_path.trim()))
                {
                    self.export_confirm = None;
                }
                if let Some(taken) = &self.export_confirm {
                    ui.label(
                        RichText::new(format!("{} already exists. Replace it?", taken.display()))
                            .color(ui.visuals().warn_fg_color),
                    );
                    ui.horizontal(|ui| {
                        replace = ui.button(super::print::PRINT_REPLACE_LABEL).on_hover_text("Write over the file that is there").clicked();
                        if ui.button(super::print::PRINT_KEEP_LABEL).on_hover_text("Leave the file that is there, and type another path").clicked() {
                            keep = true;
                        }
                    });
                }
                match &self.notice {
                    Some(Ok(m)) => {
                        ui.label(RichText::new(m).color(egui::Color32::from_rgb(90, 170, 90)));
                    }
                    Some(Err(e)) => {
                        ui.label(RichText::new(e).color(ui.visuals().error_fg_color));
                    }
                    None => {}
                }
            });
        if browse {
            self.browse(Browse::Export, None);
        }
        if keep {
            self.export_confirm = None;
        }
        let out = PathBuf::from(self.export_path.trim());
        // A game file is refused; any other existing file is replaced only once confirmed.
        let existing = if replace {
            Some(Existing::Replace)
        } else if go {
            match check_output(&out, Existing::Refuse) {
                Ok(()) => Some(Existing::Refuse),
                Err(OutputError::Exists { path }) => {
                    self.export_confirm = Some(path);
                    None
                }
                Err(e) => {
                    self.notice = Some(Err(e.to_string()));
                    None
                }
            }
        } else {
            None
        };
        if let Some(existing) = existing {
            self.export_confirm = None;
            match game {
                Some(g) => {
                    let job =
                        jobs::export_game(g.path().to_path_buf(), library.clone(), out, existing);
                    self.start_job(job);
                }
                None => self.message = Some("open or start a game first".into()),
            }
        }
        if !open {
            self.export = false;
        }
    }

    /// View: the screens, the map's zoom, the counters and underlay, and as whom the game is
    /// seen.
    fn view_menu_ui(&mut self, ui: &mut Ui, ctx: &egui::Context, game: Option<&GameDesk>) {
        let applying: Vec<UiCommand> = [
            UiCommand::ShowGame,
            UiCommand::ShowProcedures,
            UiCommand::ZoomIn,
            UiCommand::ZoomOut,
            UiCommand::ResetView,
            UiCommand::ToggleCounters,
            UiCommand::MapUnderlay,
        ]
        .into_iter()
        .filter(|c| game.is_none() || applies(c, game))
        .collect();
        command_buttons(ui, ctx, &applying, &mut self.queue);
        ui.separator();
        if let Some(size) = view_size_ui(ui, self.table_size) {
            self.set_table_size(size);
        }
        if let Some(g) = game {
            // What each side may see (game::visibility); the umpire's view by default.
            ui.separator();
            let seen_by = g.live.seen_by().map(str::to_string);
            if ui
                .add(egui::Button::selectable(
                    seen_by.is_none(),
                    UiCommand::SeeAsUmpire.label(),
                ))
                .on_hover_text(UiCommand::SeeAsUmpire.hint())
                .clicked()
            {
                self.queue.push(UiCommand::SeeAsUmpire.into());
            }
            for (i, side) in g.game().scenario().sides.iter().enumerate() {
                let Ok(index) = u8::try_from(i) else { break };
                if ui
                    .add(egui::Button::selectable(
                        seen_by.as_deref() == Some(side.id.as_str()),
                        format!("As seen by: {}", side.name),
                    ))
                    .on_hover_text(UiCommand::SeeAsSide(0).hint())
                    .clicked()
                {
                    self.queue.push(UiCommand::SeeAsSide(index).into());
                }
            }
            command_buttons(ui, ctx, &[UiCommand::SeeAsNextSide], &mut self.queue);
        }
    }

    /// The command palette: the commands that apply to the game open, narrowed by the search;
    /// Enter runs the first, Escape closes it.
    fn palette_ui(&mut self, ctx: &egui::Context, game: Option<&GameDesk>) {
        let mut open = true;
        let mut run = None;
        egui::Window::new("Command palette")
            .open(&mut open)
            .collapsible(false)
            .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
            .show(ctx, |ui| {
                let label = ui.label(PALETTE_SEARCH_LABEL);
                let field = ui
                    .add(egui::TextEdit::singleline(&mut self.palette_query).desired_width(360.0))
                    .labelled_by(label.id)
                    .on_hover_text("Type part of a command's name; Enter runs the first");
                field.request_focus();
                let q = self.palette_query.to_lowercase();
                let matches: Vec<UiCommand> = UiCommand::ALL
                    .into_iter()
                    .filter(|c| applies(c, game) && c.label().to_lowercase().contains(&q))
                    .collect();
                for c in &matches {
                    if ui
                        .add(
                            egui::Button::new(c.label())
                                .shortcut_text(c.shortcut_text(ctx))
                                .min_size(egui::vec2(360.0, 0.0)),
                        )
                        .on_hover_text(c.hint())
                        .clicked()
                    {
                        run = Some(c.clone());
                    }
                }
                if ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    run = matches.first().cloned();
                }
            });
        if let Some(c) = run {
            self.queue.push(c.into());
            open = false;
        }
        if !open || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.palette = false;
        }
    }

    /// The New game dialog: a shipped scenario or a scenario file, and the seed.
    fn new_game_ui(&mut self, ctx: &egui::Context, library: &Library) {
        let scenarios = self.scenarios.get_or_insert_with(|| {
            shipped_scenarios()
                .into_iter()
                .filter_map(|f| {
                    load_scenario(&f, library).ok().map(|s| {
                        // The game by its printed name, not its ruleset's id.
                        let game = library.get(&s.ruleset).map_or_else(
                            || s.ruleset.clone(),
                            |r| r.name.split(" — ").next().unwrap_or(&r.name).to_string(),
                        );
                        (f, format!("{} ({game})", s.title))
                    })
                })
                .collect()
        });
        let mut open = true;
        let mut start = false;
        let mut browse = None;
        egui::Window::new("New game")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                let current = scenarios
                    .get(self.scenario)
                    .map_or("—".to_string(), |s| s.1.clone());
                // The label on its own line above the list: beside a wide list it was
                // squeezed to a letter a line.
                let label = ui.label("Scenario");
                egui::ComboBox::from_id_salt("new_game_scenario")
                    .selected_text(current)
                    .width(380.0)
                    .show_ui(ui, |ui| {
                        for (i, (_, title)) in scenarios.iter().enumerate() {
                            ui.selectable_value(&mut self.scenario, i, title)
                                .on_hover_text("Start a game of this scenario");
                        }
                    })
                    .response
                    .labelled_by(label.id)
                    .on_hover_text(
                        "The scenario to start: the shipped ones, with the game each is for",
                    );
                ui.horizontal(|ui| {
                    let label = ui.label("or a scenario file");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.scenario_path)
                            .desired_width(300.0)
                            .hint_text("path/to/scenario.yaml"),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(
                        "A scenario file of your own, used instead of the list when filled in",
                    );
                    if ui
                        .button(BROWSE_LABEL)
                        .on_hover_text("Pick a scenario file with your system's file dialog")
                        .clicked()
                    {
                        browse = Some(Browse::Scenario);
                    }
                });
                ui.horizontal(|ui| {
                    let label = ui.label("Seed");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.seed)
                            .desired_width(160.0)
                            .hint_text("fresh"),
                    )
                    .labelled_by(label.id)
                    .on_hover_text("A whole number to replay the same dice; empty for fresh dice");
                });
                ui.label(
                    RichText::new(format!(
                        "The game is written to {} as you play: there is nothing to save.",
                        self.games_dir.display()
                    ))
                    .weak(),
                );
                start = ui
                    .button(START_GAME_LABEL)
                    .on_hover_text("Start the game: its file is written in your games folder")
                    .clicked();
            });
        if let Some(b) = browse {
            self.browse(b, None);
        }
        if start {
            self.start_game(library);
        } else if !open {
            self.new_game = false;
        }
    }

    /// The Open game dialog: a path (or Browse…), and the recent games.
    fn open_dialog_ui(&mut self, ctx: &egui::Context, library: &Library, game: Option<&GameDesk>) {
        let mut open = true;
        let mut go = false;
        let mut browse = false;
        egui::Window::new("Open game")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label(GAME_FILE_LABEL);
                    let r = ui
                        .add(
                            egui::TextEdit::singleline(&mut self.open_path)
                                .desired_width(420.0)
                                .hint_text("path/to/game.umpire"),
                        )
                        .labelled_by(label.id)
                        .on_hover_text(
                            "The game file (.umpire) or a shared game's postgres:// address",
                        );
                    go = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if ui
                        .button(BROWSE_LABEL)
                        .on_hover_text("Pick a game file with your system's file dialog")
                        .clicked()
                    {
                        browse = true;
                    }
                });
                go |= ui
                    .add_enabled(self.job.is_none(), egui::Button::new(OPEN_LABEL))
                    .on_hover_text("Open the game file typed")
                    .clicked();
                if !self.recent.is_empty() {
                    ui.label(RichText::new("Recent").strong());
                    for p in &self.recent {
                        if ui
                            .link(p.display().to_string())
                            .on_hover_text("Open this recent game")
                            .clicked()
                        {
                            self.open_path = p.display().to_string();
                            go = true;
                        }
                    }
                }
            });
        if browse {
            let start = game.and_then(|g| g.path().parent().map(Path::to_path_buf));
            self.browse(Browse::OpenGame, start);
        }
        if go {
            let path = PathBuf::from(self.open_path.trim());
            self.open_game(&path, library);
        } else if !open {
            self.open = false;
        }
    }

    fn start_game(&mut self, library: &Library) {
        // A seed typed by the umpire is not secret (for replays); none typed, a fresh secret one.
        let seed = match self.seed.trim() {
            "" => None,
            s => match s.parse() {
                Ok(v) => Some(v),
                Err(_) => {
                    self.message = Some(format!("the seed is a whole number, not '{s}'"));
                    return;
                }
            },
        };
        let typed = self.scenario_path.trim();
        let file = if typed.is_empty() {
            self.scenarios
                .as_ref()
                .and_then(|s| s.get(self.scenario))
                .map(|s| s.0.clone())
        } else {
            match std::fs::read_to_string(typed) {
                Ok(text) => Some(SourceFile {
                    name: typed.to_string(),
                    text,
                }),
                Err(e) => {
                    self.message = Some(format!("{typed}: {e}"));
                    return;
                }
            }
        };
        let Some(file) = file else {
            self.message = Some("pick a scenario".into());
            return;
        };
        let id = load_scenario(&file, library)
            .map(|s| s.id)
            .unwrap_or_else(|_| "game".into());
        let path = new_game_path(&self.games_dir, &id);
        let job = jobs::create_game(path, file, library.clone(), seed);
        self.start_job(job);
    }
}

/// A menu's buttons for `commands`, each with its shortcut; a click queues the command.
fn command_buttons(
    ui: &mut Ui,
    ctx: &egui::Context,
    commands: &[UiCommand],
    queue: &mut Vec<Command>,
) {
    for c in commands {
        if ui
            .add(egui::Button::new(c.label()).shortcut_text(c.shortcut_text(ctx)))
            .on_hover_text(c.hint())
            .clicked()
        {
            queue.push(c.clone().into());
        }
    }
}

/// The label of Help → About.
pub const ABOUT_LABEL: &str = "About Umpire";

/// Help → About: the version and commit, the licences, and where the user's data is.
fn about_ui(ui: &mut Ui) {
    ui.heading("Umpire");
    ui.label(format!("Version {}", umpire_core::VERSION));
    ui.label("An adjudication assistant for human-umpired tabletop wargames and megagames.");
    ui.add_space(6.0);
    ui.label(RichText::new("Licences").strong());
    ui.label("Umpire: MIT or Apache-2.0, at your choice.");
    ui.label(
        "The DejaVu fonts embedded for the printed PDFs: the Bitstream Vera licence, with \
         DejaVu's changes in the public domain (templates/fonts/LICENSE-DejaVu.txt).",
    );
    ui.add_space(6.0);
    ui.label(RichText::new("Your data").strong());
    let show = |p: Option<std::path::PathBuf>| {
        p.map_or_else(
            || "(no home folder)".to_string(),
            |p| p.display().to_string(),
        )
    };
    egui::Grid::new("about_paths")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("New games");
            ui.label(RichText::new(super::files::games_dir().display().to_string()).monospace());
            ui.end_row();
            ui.label("Recent games, map underlays");
            ui.label(RichText::new(show(super::files::config_dir())).monospace());
            ui.end_row();
            ui.label("Your transcriptions of missing tables");
            ui.label(
                RichText::new(show(umpire_core::rules::layer::default_user_dir())).monospace(),
            );
            ui.end_row();
        });
}
