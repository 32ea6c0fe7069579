//! File → Print…: turn reports (the umpire's or one side's), the scenario sheet and the chart
//! sheets, written as PDF on a worker thread so the window never freezes.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

use eframe::egui::{self, RichText, Ui};

use umpire_core::game::Game;
use umpire_core::game::output::{Existing, OutputError, check_output, write_output};
use umpire_core::game::scenario::Scenario;
use umpire_core::rules::{Library, Ruleset};
use umpire_report::{Paper, ReportOptions, Template, charts_pdf, scenario_pdf, turn_report_pdf};

/// Label of the Print dialog's button.
pub const PRINT_LABEL: &str = "Write the PDF";
/// Label of the output path field.
pub const PRINT_PATH_LABEL: &str = "Save the PDF as";
/// Label of the button that confirms replacing an existing file (never a game file).
pub const PRINT_REPLACE_LABEL: &str = "Replace it";
/// Label of the button that keeps an existing file.
pub const PRINT_KEEP_LABEL: &str = "Keep it";

/// What to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrintWhat {
    /// The turn report (or the whole game's).
    TurnReport,
    /// The organiser's scenario sheet.
    ScenarioSheet,
    /// Every table of the ruleset.
    ChartSheets,
}

impl PrintWhat {
    fn label(self) -> &'static str {
        match self {
            PrintWhat::TurnReport => "Turn report",
            PrintWhat::ScenarioSheet => "Scenario sheet",
            PrintWhat::ChartSheets => "Chart sheets",
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            PrintWhat::TurnReport => "report",
            PrintWhat::ScenarioSheet => "scenario",
            PrintWhat::ChartSheets => "charts",
        }
    }
}

/// A print job's inputs, owned so that it can run on another thread.
enum Job {
    Turn {
        game_file: PathBuf,
        library: Box<Library>,
        options: ReportOptions,
    },
    Sheet {
        scenario: Box<Scenario>,
        ruleset: Box<Ruleset>,
    },
    Charts {
        ruleset: Box<Ruleset>,
    },
}

fn run_job(job: Job, paper: Paper, out: &Path, existing: Existing) -> Result<String, String> {
    let template = |t: Result<Template, umpire_report::ReportError>| {
        t.map(|mut t| {
            t.paper = paper;
            t
        })
        .map_err(|e| e.to_string())
    };
    let bytes = match job {
        Job::Turn {
            game_file,
            library,
            options,
        } => {
            // A second connection to the game file: SQLite in WAL mode lets it read alongside.
            let game = Game::open(&game_file, &library).map_err(|e| e.to_string())?;
            turn_report_pdf(&game, &options, template(Template::sheet_default())?)
                .map_err(|e| e.to_string())?
        }
        Job::Sheet { scenario, ruleset } => scenario_pdf(
            &scenario,
            &ruleset,
            None,
            template(Template::sheet_default())?,
        )
        .map_err(|e| e.to_string())?,
        Job::Charts { ruleset } => charts_pdf(&ruleset, &[], template(Template::charts_default())?)
            .map_err(|e| e.to_string())?,
    };
    write_output(out, &bytes, existing).map_err(|e| match e {
        // Appeared while the PDF was being made.
        OutputError::Exists { path } => format!(
            "{} appeared meanwhile — write again to be asked about replacing it",
            path.display()
        ),
        e => e.to_string(),
    })?;
    Ok(format!(
        "wrote {} ({} KB)",
        out.display(),
        bytes.len().div_ceil(1024)
    ))
}

/// The Print dialog and its running job.
#[derive(Debug)]
pub struct PrintDialog {
    /// Whether the dialog is shown.
    pub open: bool,
    /// What to print.
    pub what: PrintWhat,
    /// The turn (0: the whole game).
    pub turn: u32,
    /// One side's view ("" for the umpire's).
    pub side: String,
    /// Paper size.
    pub paper: Paper,
    /// Where to write the PDF.
    pub path: String,
    job: Option<Receiver<Result<String, String>>>,
    /// A file already at this path: the dialog asks before replacing it.
    pub confirm_replace: Option<PathBuf>,
    /// The last job's result.
    pub message: Option<Result<String, String>>,
}

impl Default for PrintDialog {
    fn default() -> Self {
        PrintDialog {
            open: false,
            what: PrintWhat::TurnReport,
            turn: 1,
            side: String::new(),
            paper: Paper::A4,
            path: String::new(),
            job: None,
            confirm_replace: None,
            message: None,
        }
    }
}

impl PrintDialog {
    /// Opens the dialog, proposing a file next to the game file.
    pub fn show(&mut self, game_file: Option<&Path>, turn: u32) {
        self.open = true;
        self.turn = turn;
        self.message = None;
        self.propose_path(game_file);
    }

    fn propose_path(&mut self, game_file: Option<&Path>) {
        let base = game_file.map_or_else(
            || std::env::temp_dir().join("umpire"),
            |p| p.with_extension(""),
        );
        let turn = if self.what == PrintWhat::TurnReport && self.turn > 0 {
            format!("-turn{}", self.turn)
        } else {
            String::new()
        };
        let side = if self.what == PrintWhat::TurnReport && !self.side.is_empty() {
            format!("-{}", self.side)
        } else {
            String::new()
        };
        self.path = format!("{}-{}{turn}{side}.pdf", base.display(), self.what.suffix());
    }

    /// Whether a job is running.
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Collects a finished job's result.
    pub fn poll(&mut self) {
        if let Some(rx) = &self.job
            && let Ok(result) = rx.try_recv()
        {
            self.message = Some(result);
            self.job = None;
        }
    }

    /// "Write the PDF": refuses a game file, asks before replacing any other existing file
    /// ([`PrintDialog::confirm_replace`]), else starts printing.
    pub fn write(
        &mut self,
        game: Option<(&Game, &Path)>,
        ruleset: Option<&Ruleset>,
        library: &Library,
    ) {
        let out = PathBuf::from(self.path.trim());
        match check_output(&out, Existing::Refuse) {
            Ok(()) => self.start(game, ruleset, library, Existing::Refuse),
            Err(OutputError::Exists { path }) => {
                self.confirm_replace = Some(path);
                self.message = None;
            }
            Err(e) => self.message = Some(Err(e.to_string())),
        }
    }

    /// Starts printing on a worker thread; `existing` says whether a file already at the path
    /// may be replaced (a game file never is).
    pub fn start(
        &mut self,
        game: Option<(&Game, &Path)>,
        ruleset: Option<&Ruleset>,
        library: &Library,
        existing: Existing,
    ) {
        self.confirm_replace = None;
        let job = match (self.what, game) {
            (PrintWhat::TurnReport, Some((g, path))) => Job::Turn {
                game_file: path.to_path_buf(),
                library: Box::new(library.clone()),
                options: ReportOptions {
                    turn: (self.turn > 0).then_some(self.turn),
                    side: (!self.side.is_empty()).then(|| self.side.clone()),
                    printed_at: chrono::Local::now(),
                },
            }
            .check(g),
            (PrintWhat::ScenarioSheet, Some((g, _))) => Ok(Job::Sheet {
                scenario: Box::new(g.scenario().clone()),
                ruleset: Box::new(g.ruleset().clone()),
            }),
            (PrintWhat::ChartSheets, _) => match ruleset.or_else(|| game.map(|(g, _)| g.ruleset()))
            {
                Some(r) => Ok(Job::Charts {
                    ruleset: Box::new(r.clone()),
                }),
                None => Err("choose a ruleset first".to_string()),
            },
            (_, None) => Err("open or start a game first".to_string()),
        };
        let job = match job {
            Ok(j) => j,
            Err(e) => {
                self.message = Some(Err(e));
                return;
            }
        };
        let (tx, rx) = channel();
        let paper = self.paper;
        let out = PathBuf::from(self.path.trim());
        std::thread::spawn(move || {
            let _ = tx.send(run_job(job, paper, &out, existing));
        });
        self.job = Some(rx);
        self.message = None;
    }

    /// The turn report's turn and whose view it prints.
    fn report_options_ui(&mut self, ui: &mut Ui, g: &Game) {
        ui.horizontal(|ui| {
            let label = ui.label("Turn (0: whole game)");
            ui.add(egui::DragValue::new(&mut self.turn).range(0..=g.scenario().turns.max(1)))
                .labelled_by(label.id)
                .on_hover_text("The turn the report covers");
        });
        egui::ComboBox::from_label("View")
            .selected_text(if self.side.is_empty() {
                "Umpire (everything)".to_string()
            } else {
                format!("Side: {}", self.side)
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut self.side, String::new(), "Umpire (everything)")
                    .on_hover_text("Print as this sees the game");
                for s in &g.scenario().sides {
                    ui.selectable_value(&mut self.side, s.id.clone(), format!("Side: {}", s.name))
                        .on_hover_text("Print as this sees the game");
                }
            })
            .response
            .on_hover_text("Whose view to print: the umpire's, or one side's own");
    }

    /// The dialog.
    pub fn dialog_ui(
        &mut self,
        ui: &Ui,
        game: Option<(&Game, &Path)>,
        ruleset: Option<&Ruleset>,
        library: &Library,
    ) {
        self.poll();
        if !self.open {
            return;
        }
        let ctx = ui.ctx().clone();
        let mut open = self.open;
        egui::Window::new("Print")
            .open(&mut open)
            .collapsible(false)
            .show(&ctx, |ui| {
                let before = (self.what, self.turn, self.side.clone());
                ui.horizontal(|ui| {
                    for w in [
                        PrintWhat::TurnReport,
                        PrintWhat::ScenarioSheet,
                        PrintWhat::ChartSheets,
                    ] {
                        ui.radio_value(&mut self.what, w, w.label())
                            .on_hover_text("Print this");
                    }
                });
                if self.what == PrintWhat::TurnReport
                    && let Some((g, _)) = game
                {
                    self.report_options_ui(ui, g);
                }
                ui.horizontal(|ui| {
                    ui.label("Paper");
                    ui.radio_value(&mut self.paper, Paper::A4, "A4")
                        .on_hover_text("Print on A4 paper");
                    ui.radio_value(&mut self.paper, Paper::Letter, "US Letter")
                        .on_hover_text("Print on US Letter paper");
                });
                if before != (self.what, self.turn, self.side.clone()) {
                    self.propose_path(game.map(|(_, p)| p));
                }
                let label = ui.label(PRINT_PATH_LABEL);
                ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(420.0))
                    .labelled_by(label.id)
                    .on_hover_text("The PDF file to write");
                ui.horizontal(|ui| {
                    let button = ui
                        .add_enabled(
                            !self.busy() && !self.path.trim().is_empty(),
                            egui::Button::new(PRINT_LABEL),
                        )
                        .on_hover_text("Write the PDF");
                    if button.clicked() {
                        self.write(game, ruleset, library);
                    }
                    if self.busy() {
                        ui.spinner();
                        ui.label("Printing…");
                        ctx.request_repaint();
                    }
                });
                // Asked only while the path is the one that was found taken.
                if self
                    .confirm_replace
                    .as_ref()
                    .is_some_and(|p| *p != Path::new(self.path.trim()))
                {
                    self.confirm_replace = None;
                }
                if let Some(taken) = self.confirm_replace.clone() {
                    ui.label(
                        RichText::new(format!("{} already exists. Replace it?", taken.display()))
                            .color(ui.visuals().warn_fg_color),
                    );
                    ui.horizontal(|ui| {
                        if ui
                            .button(PRINT_REPLACE_LABEL)
                            .on_hover_text("Write over the file that is there")
                            .clicked()
                        {
                            self.start(game, ruleset, library, Existing::Replace);
                        }
                        if ui
                            .button(PRINT_KEEP_LABEL)
                            .on_hover_text("Leave the file that is there, and type another path")
                            .clicked()
                        {
                            self.confirm_replace = None;
                        }
                    });
                }
                match &self.message {
                    Some(Ok(m)) => {
                        ui.label(RichText::new(m).color(egui::Color32::from_rgb(90, 170, 90)));
                    }
                    Some(Err(e)) => {
                        ui.label(RichText::new(e).color(egui::Color32::from_rgb(220, 80, 80)));
                    }
                    None => {}
                }
            });
        self.open = open;
    }
}

impl Job {
    /// A turn report needs a side the scenario has.
    fn check(self, game: &Game) -> Result<Job, String> {
        if let Job::Turn { options, .. } = &self
            && let Some(side) = &options.side
            && !game.scenario().sides.iter().any(|s| s.id == *side)
        {
            return Err(format!("no side '{side}' in this scenario"));
        }
        Ok(self)
    }
}
