//! File › Save as scenario: the organiser's set-up (where the text gives none) written as a
//! scenario file that loads like the shipped ones (issue 26, item 5); the window also says what
//! the scenario leaves to the organiser and how to add it.

use std::path::PathBuf;

use eframe::egui::{self, RichText};

use umpire_core::game::Game;
use umpire_core::game::scenario::save::{save_scenario, write_scenario_file};
use umpire_core::rules::Library;

/// The label of the path field.
pub const SAVE_SCENARIO_PATH_LABEL: &str = "Save the scenario as";
/// The label of the button that writes it.
pub const SAVE_SCENARIO_LABEL: &str = "Save scenario";
/// The heading of what the organiser must add.
pub const ORGANISER_SETUP_LABEL: &str = "Set-up by the organiser";

/// The Save as scenario window.
#[derive(Debug, Default)]
pub struct SaveScenarioDialog {
    /// Whether it is open.
    pub open: bool,
    /// Where to write, as typed.
    pub path: String,
    /// A file already there: asked before replacing it.
    pub confirm: Option<PathBuf>,
    /// What the last save said.
    pub notice: Option<Result<String, String>>,
}

impl SaveScenarioDialog {
    /// Opens it for `game`, proposing a file beside the game's.
    pub fn open_for(&mut self, path: &std::path::Path) {
        self.open = true;
        if self.path.is_empty() {
            self.path = path.with_extension("scenario.yaml").display().to_string();
        }
    }

    /// The window, while open.
    pub fn ui(&mut self, ctx: &egui::Context, game: Option<&Game>, library: &Library) {
        let Some(game) = game.filter(|_| self.open) else {
            return;
        };
        let mut open = true;
        let mut go = false;
        let mut replace = false;
        egui::Window::new("Save as scenario")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                organiser_setup_ui(ui, game);
                ui.label("The counters as they stand, with the scenario's calendar, sides, schedules and victory: a scenario file that New game opens like a shipped one.");
                ui.horizontal(|ui| {
                    let label = ui.label(SAVE_SCENARIO_PATH_LABEL);
                    ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(380.0))
                        .labelled_by(label.id).on_hover_text("The scenario file to write");
                });
                go = ui
                    .add_enabled(
                        !self.path.trim().is_empty(),
                        egui::Button::new(SAVE_SCENARIO_LABEL),
                    )
                    .on_hover_text("Write the organiser's set-up as a scenario file").clicked();
                if let Some(taken) = &self.confirm {
                    ui.label(
                        RichText::new(format!("{} already exists. Replace it?", taken.display()))
                            .color(ui.visuals().warn_fg_color),
                    );
                    replace = ui.button(super::print::PRINT_REPLACE_LABEL).on_hover_text("Write over the file that is there").clicked();
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
        self.open = open;
        if go || replace {
            self.save(game, library, replace);
        }
    }

    /// Writes the scenario (replacing a file only when confirmed).
    fn save(&mut self, game: &Game, library: &Library, replace: bool) {
        let path = PathBuf::from(self.path.trim());
        if path.exists() && !replace {
            self.confirm = Some(path);
            return;
        }
        self.confirm = None;
        let saved = save_scenario(
            &game.meta().scenario_text,
            game.scenario(),
            game.state(),
            game.ruleset(),
            library,
        )
        .and_then(|text| write_scenario_file(&path, &text, replace));
        self.notice = Some(saved.map(|()| {
            format!(
                "Saved {} — start a game from it with New game › a scenario file",
                path.display()
            )
        }));
    }
}

/// What the scenario leaves to the organiser and how to add it (nothing when the text gives
/// the whole set-up).
pub fn organiser_setup_ui(ui: &mut egui::Ui, game: &Game) {
    let Some(o) = &game.scenario().organiser_setup else {
        return;
    };
    egui::CollapsingHeader::new(RichText::new(ORGANISER_SETUP_LABEL).strong())
        .id_salt("organiser_setup")
        .default_open(true)
        .show(ui, |ui| {
            if let Some(rule) = &o.rule {
                ui.label(RichText::new(rule).small().weak());
            }
            ui.label(&o.text);
            for (n, step) in o.steps.iter().enumerate() {
                ui.label(RichText::new(format!("{}. {step}", n + 1)).small());
            }
        });
}
