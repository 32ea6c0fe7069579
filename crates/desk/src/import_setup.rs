//! File › Import set-up…: the organiser's briefing pack, saved from a spreadsheet as a folder of
//! CSV sheets, merged into the open game's scenario and written as a scenario file (issue 27,
//! item 3) — the same import as `umpire scenario import-setup`. Every problem is listed with
//! its file, line and column; with any, nothing is written.

use std::path::PathBuf;

use eframe::egui::{self, RichText};

use umpire_core::game::Game;
use umpire_core::game::scenario::save::write_scenario_file;
use umpire_core::game::scenario::setup::{import_setup, read_folder};
use umpire_core::rules::Library;

/// The label of the folder field.
pub const IMPORT_SETUP_FOLDER_LABEL: &str = "Folder of CSV sheets";
/// The label of the output field.
pub const IMPORT_SETUP_PATH_LABEL: &str = "Write the scenario as";
/// The label of the button that imports.
pub const IMPORT_SETUP_LABEL: &str = "Import";

/// The Import set-up window.
#[derive(Debug, Default)]
pub struct ImportSetupDialog {
    /// Whether it is open.
    pub open: bool,
    /// The folder of sheets, as typed.
    pub folder: String,
    /// Where to write the scenario, as typed.
    pub path: String,
    /// A file already there: asked before replacing it.
    pub confirm: Option<PathBuf>,
    /// What the last import said: the file written, or every problem.
    pub notice: Option<Result<String, Vec<String>>>,
}

impl ImportSetupDialog {
    /// Opens it, proposing a scenario file beside the game's.
    pub fn open_for(&mut self, game: &std::path::Path) {
        self.open = true;
        if self.path.is_empty() {
            self.path = game.with_extension("setup.yaml").display().to_string();
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
        egui::Window::new("Import set-up")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label(format!(
                    "The sheets of a spreadsheet saved as CSV into one folder, merged into {} (`umpire scenario setup-template` writes the sheets to fill in).",
                    game.scenario().title
                ));
                for (label, text) in [
                    (IMPORT_SETUP_FOLDER_LABEL, &mut self.folder),
                    (IMPORT_SETUP_PATH_LABEL, &mut self.path),
                ] {
                    ui.horizontal(|ui| {
                        let l = ui.label(label);
                        ui.add(egui::TextEdit::singleline(text).desired_width(380.0))
                            .labelled_by(l.id).on_hover_text("The organiser's sheets (CSV): a file or a folder");
                    });
                }
                let ready = !self.folder.trim().is_empty() && !self.path.trim().is_empty();
                go = ui
                    .add_enabled(ready, egui::Button::new(IMPORT_SETUP_LABEL))
                    .on_hover_text("Merge the sheets into the scenario").clicked();
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
                    Some(Err(problems)) => {
                        egui::ScrollArea::vertical().max_height(240.0).show(ui, |ui| {
                            for p in problems {
                                ui.label(RichText::new(p).color(ui.visuals().error_fg_color));
                            }
                        });
                    }
                    None => {}
                }
            });
        self.open = open;
        if go || replace {
            self.import(game, library, replace);
        }
    }

    /// Imports and writes the scenario (replacing a file only when confirmed).
    fn import(&mut self, game: &Game, library: &Library, replace: bool) {
        let path = PathBuf::from(self.path.trim());
        if path.exists() && !replace {
            self.confirm = Some(path);
            return;
        }
        self.confirm = None;
        let name = path.display().to_string();
        let imported = read_folder(std::path::Path::new(self.folder.trim())).and_then(|sheets| {
            import_setup(
                &game.meta().scenario_text,
                game.scenario(),
                game.ruleset(),
                library,
                &sheets,
                &name,
            )
        });
        self.notice = Some(match imported {
            Ok(i) => match write_scenario_file(&path, &i.text, replace) {
                Ok(()) => Ok(format!(
                    "Wrote {name} — start a game from it with New game › a scenario file; set the rest up there and save it with File › Save as scenario"
                )),
                Err(e) => Err(vec![e]),
            },
            Err(problems) => {
                let mut lines = vec![format!(
                    "Nothing written — {} problem{} in the sheets:",
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                )];
                lines.extend(problems.iter().map(ToString::to_string));
                Err(lines)
            }
        });
    }
}
