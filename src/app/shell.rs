//! Around the desks: the menu bar (File: New game, Open, Open recent; View; Commands), the
//! dialogs, the command palette, and the command queue applied once per frame.

use std::path::{Path, PathBuf};

use eframe::egui::{self, RichText, Ui};

use super::commands::Command;
use super::desk::Desk;
use super::files::{games_dir, new_game_path, read_recent, remember};
use super::game::GameDesk;
use crate::dice::AppDice;
use crate::game::scenario::{load_scenario, shipped_scenarios};
use crate::rules::{Library, SourceFile};

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
        }
    }

    /// Notes a game file as opened (first in the recent list).
    pub fn opened(&mut self, path: &Path) {
        if let Some(f) = &self.recent_file {
            self.recent = remember(f, path);
        }
    }

    /// One frame: keyboard, menu bar, the desk shown, dialogs, then the queued commands.
    pub fn frame_ui(&mut self, ui: &mut Ui, desk: &mut Desk, game: &mut Option<GameDesk>) {
        self.queue.extend(Command::pressed(ui.ctx()));
        egui::Panel::top("menu_bar").show(ui, |ui| self.menu_bar_ui(ui, desk.library(), game));
        match (self.screen, game.as_mut()) {
            (Screen::Game, Some(g)) => g.game_ui(ui, &mut self.queue),
            _ => desk.desk_ui(ui),
        }
        self.dialogs_ui(ui, desk.library(), desk.ruleset(), game);
        let queued = std::mem::take(&mut self.queue);
        for c in queued {
            self.apply(c, desk, game);
        }
    }

    /// Applies one command.
    pub fn apply(&mut self, command: Command, desk: &mut Desk, game: &mut Option<GameDesk>) {
        let on_game = self.screen == Screen::Game;
        match (command, game.as_mut()) {
            (Command::Palette, _) => {
                self.palette = !self.palette;
                self.palette_query.clear();
            }
            (Command::NewGame, _) => self.new_game = true,
            (Command::Print, g) => self.print.show(
                g.as_ref().map(|g| g.path()),
                g.as_ref().map_or(1, |g| g.game().state().cursor.turn),
            ),
            (Command::OpenGame, _) => self.open = true,
            (Command::ShowProcedures, _) => self.screen = Screen::Procedures,
            (Command::ShowGame, Some(_)) => self.screen = Screen::Game,
            (Command::Roll, _) if !on_game => desk.roll(),
            (Command::UsePhysical, _) if !on_game => desk.use_physical(),
            (Command::UseChartResult, _) if !on_game => desk.use_chart_result(),
            (_, None) => {
                self.message = Some(format!("{}: open or start a game first", command.label()))
            }
            (_, Some(_)) if !on_game => {}
            (c, Some(g)) => {
                match c {
                    Command::Undo => g.undo(),
                    Command::Redo => g.redo(),
                    Command::Next => g.next_step(),
                    Command::Back => g.back_step(),
                    Command::Roll => g.roll(),
                    Command::UsePhysical => g.use_physical(),
                    Command::UseChartResult => g.use_chart_result(),
                    Command::ApplyEffects => g.apply_effects(),
                    Command::MoveSelected => g.move_selected_to_typed(),
                    Command::Deselect => {
                        g.select(None);
                        true
                    }
                    Command::ZoomIn => {
                        g.zoom = (g.zoom * 1.25).min(80.0);
                        true
                    }
                    Command::ZoomOut => {
                        g.zoom = (g.zoom / 1.25).max(4.0);
                        true
                    }
                    Command::ResetView => {
                        g.zoom = 24.0;
                        g.fitted = false;
                        true
                    }
                    Command::Palette
                    | Command::NewGame
                    | Command::OpenGame
                    | Command::ShowGame
                    | Command::ShowProcedures
                    | Command::Print => true,
                };
            }
        }
    }

    fn menu_bar_ui(&mut self, ui: &mut Ui, library: &Library, game: &mut Option<GameDesk>) {
        let ctx = ui.ctx().clone();
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                for c in [Command::NewGame, Command::OpenGame, Command::Print] {
                    if ui
                        .add(egui::Button::new(c.label()).shortcut_text(c.shortcut_text(&ctx)))
                        .clicked()
                    {
                        self.queue.push(c);
                    }
                }
                ui.menu_button("Open recent", |ui| {
                    if self.recent.is_empty() {
                        ui.label(RichText::new("No recent games").weak());
                    }
                    let mut pick = None;
                    for p in &self.recent {
                        if ui.button(p.display().to_string()).clicked() {
                            pick = Some(p.clone());
                        }
                    }
                    if let Some(p) = pick {
                        self.open_game(&p, library, game);
                    }
                });
            });
            ui.menu_button("View", |ui| {
                for c in [
                    Command::ShowGame,
                    Command::ShowProcedures,
                    Command::ZoomIn,
                    Command::ZoomOut,
                    Command::ResetView,
                ] {
                    if ui
                        .add(egui::Button::new(c.label()).shortcut_text(c.shortcut_text(&ctx)))
                        .clicked()
                    {
                        self.queue.push(c);
                    }
                }
            });
            ui.menu_button("Commands", |ui| {
                for c in Command::ALL {
                    if ui
                        .add(egui::Button::new(c.label()).shortcut_text(c.shortcut_text(&ctx)))
                        .clicked()
                    {
                        self.queue.push(c);
                    }
                }
            });
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
                    .clicked()
                {
                    self.queue.push(if screen == Screen::Game {
                        Command::ShowGame
                    } else {
                        Command::ShowProcedures
                    });
                }
            }
            ui.separator();
            if ui
                .button(format!(
                    "Commands… ({})",
                    Command::Palette.shortcut_text(&ctx)
                ))
                .clicked()
            {
                self.queue.push(Command::Palette);
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
            }
        });
    }

    fn open_game(&mut self, path: &Path, library: &Library, game: &mut Option<GameDesk>) {
        match GameDesk::open(path, library) {
            Ok(g) => {
                self.opened(path);
                *game = Some(g);
                self.screen = Screen::Game;
                self.open = false;
                self.message = None;
            }
            Err(e) => self.message = Some(format!("{}: {e}", path.display())),
        }
    }

    fn dialogs_ui(
        &mut self,
        ui: &mut Ui,
        library: &Library,
        ruleset: Option<&crate::rules::Ruleset>,
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
        if self.palette {
            let mut open = true;
            let mut run = None;
            egui::Window::new("Command palette")
                .open(&mut open)
                .collapsible(false)
                .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
                .show(&ctx, |ui| {
                    let label = ui.label(PALETTE_SEARCH_LABEL);
                    let field = ui
                        .add(
                            egui::TextEdit::singleline(&mut self.palette_query)
                                .desired_width(360.0),
                        )
                        .labelled_by(label.id);
                    field.request_focus();
                    let q = self.palette_query.to_lowercase();
                    let matches: Vec<Command> = Command::ALL
                        .into_iter()
                        .filter(|c| c.label().to_lowercase().contains(&q))
                        .collect();
                    for c in &matches {
                        if ui
                            .add(
                                egui::Button::new(c.label())
                                    .shortcut_text(c.shortcut_text(&ctx))
                                    .min_size(egui::vec2(360.0, 0.0)),
                            )
                            .clicked()
                        {
                            run = Some(*c);
                        }
                    }
                    if ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        run = matches.first().copied();
                    }
                });
            if let Some(c) = run {
                self.queue.push(c);
                open = false;
            }
            if !open || ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
                self.palette = false;
            }
        }
        if self.new_game {
            let scenarios = self.scenarios.get_or_insert_with(|| {
                shipped_scenarios()
                    .into_iter()
                    .filter_map(|f| {
                        load_scenario(&f, library)
                            .ok()
                            .map(|s| (f, format!("{} ({})", s.title, s.ruleset)))
                    })
                    .collect()
            });
            let mut open = true;
            let mut start = false;
            egui::Window::new("New game")
                .open(&mut open)
                .collapsible(false)
                .show(&ctx, |ui| {
                    let current = scenarios
                        .get(self.scenario)
                        .map_or("—".to_string(), |s| s.1.clone());
                    egui::ComboBox::from_label("Scenario")
                        .selected_text(current)
                        .width(380.0)
                        .show_ui(ui, |ui| {
                            for (i, (_, title)) in scenarios.iter().enumerate() {
                                ui.selectable_value(&mut self.scenario, i, title);
                            }
                        });
                    ui.horizontal(|ui| {
                        let label = ui.label("or a scenario file");
                        ui.add(
                            egui::TextEdit::singleline(&mut self.scenario_path)
                                .desired_width(300.0)
                                .hint_text("path/to/scenario.yaml"),
                        )
                        .labelled_by(label.id);
                    });
                    ui.horizontal(|ui| {
                        let label = ui.label("Seed");
                        ui.add(
                            egui::TextEdit::singleline(&mut self.seed)
                                .desired_width(160.0)
                                .hint_text("fresh"),
                        )
                        .labelled_by(label.id);
                    });
                    ui.label(
                        RichText::new(format!(
                            "The game is written to {} as you play: there is nothing to save.",
                            games_dir().display()
                        ))
                        .weak(),
                    );
                    start = ui.button(START_GAME_LABEL).clicked();
                });
            if start {
                self.start_game(library, game);
            } else if !open {
                self.new_game = false;
            }
        }
        if self.open {
            let mut open = true;
            let mut go = false;
            egui::Window::new("Open game")
                .open(&mut open)
                .collapsible(false)
                .show(&ctx, |ui| {
                    ui.horizontal(|ui| {
                        let label = ui.label(GAME_FILE_LABEL);
                        let r = ui
                            .add(
                                egui::TextEdit::singleline(&mut self.open_path)
                                    .desired_width(420.0)
                                    .hint_text("path/to/game.umpire"),
                            )
                            .labelled_by(label.id);
                        go = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    });
                    go |= ui.button("Open").clicked();
                    if !self.recent.is_empty() {
                        ui.label(RichText::new("Recent").strong());
                        for p in &self.recent {
                            if ui.link(p.display().to_string()).clicked() {
                                self.open_path = p.display().to_string();
                                go = true;
                            }
                        }
                    }
                });
            if go {
                let path = PathBuf::from(self.open_path.trim());
                self.open_game(&path, library, game);
            } else if !open {
                self.open = false;
            }
        }
    }

    fn start_game(&mut self, library: &Library, game: &mut Option<GameDesk>) {
        let seed = match self.seed.trim() {
            "" => AppDice::fresh_seed(),
            s => match s.parse() {
                Ok(v) => v,
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
        let path = new_game_path(&games_dir(), &id);
        match GameDesk::create(&path, &file, library, seed) {
            Ok(g) => {
                self.opened(&path);
                *game = Some(g);
                self.screen = Screen::Game;
                self.new_game = false;
                self.message = None;
            }
            Err(e) => self.message = Some(e.to_string()),
        }
    }
}
