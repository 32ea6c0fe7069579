//! Drawing the procedure desk: one `*_ui` function per part of its window (the resolve panel
//! draws its inputs, odds and modifiers with the same ones). Views only: every value shown
//! comes from the [`ProcedureDesk`] (and through it from the engine).

use std::collections::BTreeMap;

use eframe::egui::{self, RichText, Sense, Ui, Vec2};

use super::procedure_desk::{DerivedRow, ModifierRow, ProcedureDesk, clock, outcome_text};
use umpire_core::resolve::describe_effect;
use umpire_core::rules::{AppliesTo, InputKind, InputSpec, Procedure, Value};

/// Code the engine gives throws that land on a missing chart cell (`resolve::odds::MISSING_CODE`,
/// which the engine does not re-export).
const MISSING_CODE: &str = "?";

/// Width of the input combo boxes.
const COMBO_WIDTH: f32 = 170.0;

/// Width of an odds bar at full probability, at most.
const BAR_WIDTH: f32 = 200.0;

/// Label of the physical dice field (tests find it by this name).
pub const PHYSICAL_DICE_LABEL: &str = "Physical dice";
/// Label of the button that resolves with the physical dice.
pub const USE_PHYSICAL_LABEL: &str = "Use physical dice";
/// Label of the app dice button.
pub const ROLL_LABEL: &str = "Roll";
/// Label of the field for a result read off the physical chart.
pub const CHART_RESULT_LABEL: &str = "Result read off your chart";
/// Label of the button that uses the chart result.
pub const USE_CHART_LABEL: &str = "Use chart result";
/// Prefix of the result headline (`Result: Fail`).
pub const RESULT_PREFIX: &str = "Result: ";

impl ProcedureDesk {
    /// The whole desk: rulesets and procedures on the left, the session log on the right,
    /// the open procedure in the middle.
    pub fn desk_ui(&mut self, ui: &mut Ui) {
        self.refresh();
        egui::Panel::left("rulesets")
            .resizable(true)
            .default_size(270.0)
            .size_range(180.0..=420.0)
            .show(ui, |ui| {
                self.side_panel_ui(ui);
            });
        egui::Panel::right("session_log")
            .resizable(true)
            .default_size(300.0)
            .size_range(200.0..=600.0)
            .show(ui, |ui| {
                self.log_ui(ui);
            });
        egui::CentralPanel::default().show(ui, |ui| self.central_ui(ui));
    }

    /// Ruleset choice, procedure list, rulesets that failed to load.
    pub fn side_panel_ui(&mut self, ui: &mut Ui) {
        ui.add_space(6.0);
        ui.heading("Umpire");
        ui.add_space(4.0);
        let names: Vec<String> = self
            .library()
            .rulesets
            .iter()
            .map(|r| r.name.clone())
            .collect();
        let mut chosen = self.ruleset_index();
        let label = ui.label("Ruleset");
        let current = names
            .get(chosen)
            .cloned()
            .unwrap_or_else(|| "(none)".into());
        egui::ComboBox::from_id_salt("ruleset")
            .selected_text(current.clone())
            .width(ui.available_width())
            .truncate()
            .show_ui(ui, |ui| {
                for (i, name) in names.iter().enumerate() {
                    ui.selectable_value(&mut chosen, i, name)
                        .on_hover_text("Open this ruleset's procedures");
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(current);
        self.select_ruleset(chosen);

        if !self.library().failed.is_empty() {
            ui.add_space(4.0);
            let red = ui.visuals().error_fg_color;
            let ids: Vec<&str> = self
                .library()
                .failed
                .iter()
                .map(|(id, _)| id.as_str())
                .collect();
            let errors: Vec<String> = self
                .library()
                .failed
                .iter()
                .map(|(id, e)| format!("{id}:\n{e}"))
                .collect();
            ui.label(RichText::new(format!("Did not load: {}", ids.join(", "))).color(red))
                .on_hover_text(errors.join("\n\n"));
        }
        if let Some(ruleset) = self.ruleset() {
            let about = [ruleset.description.as_deref(), ruleset.source.as_deref()];
            if about.iter().any(Option::is_some) {
                egui::CollapsingHeader::new("About this ruleset")
                    .id_salt(("about", ruleset.id.as_str()))
                    .default_open(false)
                    .show(ui, |ui| {
                        if let Some(d) = about[0] {
                            ui.label(RichText::new(d.trim()).weak());
                        }
                        if let Some(s) = about[1] {
                            ui.add_space(2.0);
                            ui.label(RichText::new(format!("Source: {s}")).small().weak());
                        }
                    });
            }
        }
        self.rulings_ui(ui);
        ui.separator();
        ui.label(RichText::new("Procedures").strong());
        let entries: Vec<(String, String)> = self
            .ruleset()
            .map(|r| {
                r.procedures
                    .iter()
                    .map(|p| (p.name.clone(), procedure_tooltip(r, p)))
                    .collect()
            })
            .unwrap_or_default();
        let mut picked = self.procedure_index();
        egui::ScrollArea::vertical()
            .id_salt("procedures")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (i, (name, tip)) in entries.iter().enumerate() {
                    let button = egui::Button::selectable(i == picked, name)
                        .min_size(Vec2::new(ui.available_width(), 0.0));
                    let response = ui.add(button).on_hover_text(if tip.is_empty() {
                        "Open this procedure"
                    } else {
                        tip.as_str()
                    });
                    if response.clicked() {
                        picked = i;
                    }
                }
                if entries.is_empty() {
                    ui.label(RichText::new("No procedures.").weak());
                }
            });
        self.select_procedure(picked);
    }

    /// The open procedure: title, then inputs and modifiers beside odds, dice and result.
    pub fn central_ui(&mut self, ui: &mut Ui) {
        let Some(procedure) = self.procedure() else {
            ui.heading("No ruleset loaded");
            ui.label("Start Umpire with --rules DIR pointing at a folder of rulesets, or without it for the shipped ones.");
            return;
        };
        ui.horizontal(|ui| {
            ui.heading(RichText::new(&procedure.name).strong());
            if let Some(rule) = &procedure.rule {
                ui.label(RichText::new(format!("[{rule}]")).weak());
            }
        });
        let ruleset = self.ruleset();
        if let Some(d) = &procedure.description {
            let d = ruleset.map_or_else(|| d.trim().to_string(), |r| r.in_words(d.trim(), None));
            ui.label(RichText::new(d).weak());
        }
        if let Some(r) = &procedure.ruling {
            let r = ruleset.map_or_else(|| r.trim().to_string(), |x| x.in_words(r.trim(), None));
            ui.label(RichText::new(format!("Ruling: {r}")).italics().weak());
        }
        ui.separator();
        // Two columns, each clipped to its own half so that a long line never runs under the
        // other: inputs and modifiers on the left, odds, dice and result on the right.
        let area = ui.available_rect_before_wrap();
        let gap = 20.0;
        let left_width = ((area.width() - gap) * 0.54).floor();
        let left_rect = egui::Rect::from_min_size(area.min, Vec2::new(left_width, area.height()));
        let right_rect =
            egui::Rect::from_min_max(egui::pos2(left_rect.max.x + gap, area.min.y), area.max);
        let divider = left_rect.max.x + gap / 2.0;
        ui.painter().vline(
            divider,
            area.y_range(),
            ui.visuals().widgets.noninteractive.bg_stroke,
        );
        let column = |ui: &mut Ui, rect: egui::Rect, salt: &str| {
            let mut child = ui.new_child(
                egui::UiBuilder::new()
                    .id_salt(salt)
                    .max_rect(rect)
                    .layout(egui::Layout::top_down(egui::Align::Min)),
            );
            child.shrink_clip_rect(rect);
            child
        };
        let mut left = column(ui, left_rect, "setup_column");
        egui::ScrollArea::vertical()
            .id_salt("setup")
            .auto_shrink([false, false])
            .show(&mut left, |ui| {
                self.inputs_ui(ui);
                self.refresh();
                ui.add_space(12.0);
                self.modifiers_ui(ui);
            });
        let mut right = column(ui, right_rect, "outcome_column");
        egui::ScrollArea::vertical()
            .id_salt("outcome")
            .auto_shrink([false, false])
            .show(&mut right, |ui| {
                self.odds_ui(ui);
                ui.add_space(12.0);
                self.dice_ui(ui);
                ui.add_space(12.0);
                self.result_ui(ui);
            });
        ui.advance_cursor_after_rect(area);
    }

    /// One widget per input: numbers and choices in a grid, flags as checkboxes.
    pub fn inputs_ui(&mut self, ui: &mut Ui) {
        section_ui(ui, "Inputs");
        let Some(ruleset) = self.library().rulesets.get(self.ruleset_index()) else {
            return;
        };
        let Some(procedure) = ruleset.procedures.get(self.procedure_index()) else {
            return;
        };
        let mut values = self.inputs().clone();
        inputs_grid_ui(ui, ruleset, procedure, &mut values);
        let key = ("derived", procedure.id.clone());
        super::widgets::steady_ui(ui, key, |ui| {
            if let Some(Ok((_, derived))) = self.preview().map(|p| &p.prepared)
                && !derived.is_empty()
            {
                ui.add_space(6.0);
                derived_ui(ui, derived);
            }
        });
        if &values != self.inputs() {
            for (name, value) in values {
                self.set_input(&name, value);
            }
        }
    }

    /// Every modifier of the procedure: the active ones highlighted with their signed value,
    /// the others greyed with their declared value.
    pub fn modifiers_ui(&mut self, ui: &mut Ui) {
        section_ui(ui, "Modifiers");
        let Some(preview) = self.preview() else {
            return;
        };
        let rows = match &preview.prepared {
            Ok((rows, _)) => rows,
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
                return;
            }
        };
        if rows.is_empty() {
            ui.label(RichText::new("This procedure has no modifiers.").weak());
            return;
        }
        let active: Vec<bool> = rows.iter().map(|r| r.active).collect();
        let highlight = ui.visuals().selection.bg_fill.gamma_multiply(0.35);
        let totals = modifier_totals(rows);
        // When every modifier changes the same thing, say it once instead of on every row.
        let shared = rows
            .first()
            .map(|r| r.applies_to)
            .filter(|t| rows.iter().all(|r| r.applies_to == *t));
        if let Some(t) = shared {
            ui.label(RichText::new(format!("All {}.", t.words())).weak());
        }
        egui::Grid::new("modifiers")
            .num_columns(if shared.is_some() { 2 } else { 3 })
            .spacing([10.0, 3.0])
            .with_row_color(move |row, _style| {
                active
                    .get(row)
                    .copied()
                    .unwrap_or(false)
                    .then_some(highlight)
            })
            .show(ui, |ui| {
                for row in rows {
                    modifier_row_ui(ui, row, shared.is_none());
                    ui.end_row();
                }
            });
        if !totals.is_empty() {
            ui.add_space(4.0);
            ui.label(RichText::new(format!("Total: {}", totals.join(", "))).strong());
        }
    }

    /// One bar per outcome, with its percentage and exact fraction.
    /// The odds keep the room they took for this procedure: what follows them (the dice)
    /// stays in place as the inputs change them.
    pub fn odds_ui(&mut self, ui: &mut Ui) {
        let key = ("odds", self.procedure().map(|p| p.id.clone()));
        super::widgets::steady_ui(ui, key, |ui| self.odds_body_ui(ui));
    }

    fn odds_body_ui(&mut self, ui: &mut Ui) {
        section_ui(ui, "Odds");
        let Some(preview) = self.preview() else {
            return;
        };
        let odds = match &preview.odds {
            Ok(o) => o,
            Err(e) => {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("No odds for these inputs: {e}"),
                );
                return;
            }
        };
        let bar_fill = ui.visuals().selection.bg_fill;
        let bar_back = ui.visuals().extreme_bg_color;
        let warn = ui.visuals().warn_fg_color;
        // Room for the label, percentage and fraction columns beside the bar (estimated from
        // their longest texts: about 8 points a character at the desk's text sizes).
        let longest = |f: &dyn Fn(&umpire_core::resolve::OutcomeOdds) -> usize| {
            odds.outcomes.iter().map(f).max().unwrap_or(0) as f32
        };
        let label_chars =
            longest(&|o| o.label.chars().count() + o.value.map_or(0, |v| v.to_string().len() + 3));
        let fraction_chars = longest(&|o| o.fraction.words().len());
        let beside = 8.0 * (label_chars + fraction_chars) + 50.0 + 3.0 * 10.0;
        // Long outcome labels go on their own line above the bar (the estimate runs short for
        // long labels: past 36 characters they are stacked whatever the width).
        let stacked = ui.available_width() - beside < 100.0 || label_chars > 36.0;
        let bar_width = if stacked {
            (ui.available_width() - 8.0 * fraction_chars - 110.0).clamp(60.0, BAR_WIDTH)
        } else {
            (ui.available_width() - beside).clamp(60.0, BAR_WIDTH)
        };
        let bar_ui = |ui: &mut Ui, probability: f64, color: egui::Color32| {
            let (rect, _) = ui.allocate_exact_size(Vec2::new(bar_width, 14.0), Sense::hover());
            ui.painter().rect_filled(rect, 3.0, bar_back);
            let mut filled = rect;
            filled.set_width((bar_width * probability as f32).clamp(0.0, bar_width));
            ui.painter().rect_filled(filled, 3.0, color);
        };
        if stacked {
            for o in &odds.outcomes {
                let missing = o.code == MISSING_CODE;
                let text = RichText::new(o.words());
                ui.add(
                    egui::Label::new(if missing {
                        text.color(warn)
                    } else {
                        text.strong()
                    })
                    .wrap(),
                );
                ui.horizontal(|ui| {
                    bar_ui(ui, o.probability, if missing { warn } else { bar_fill });
                    ui.label(format!("{:.1}%", o.probability * 100.0));
                    ui.label(RichText::new(o.fraction.words()).monospace());
                });
                ui.add_space(2.0);
            }
        } else {
            egui::Grid::new("odds")
                .num_columns(4)
                .spacing([10.0, 4.0])
                .show(ui, |ui| {
                    for o in &odds.outcomes {
                        let missing = o.code == MISSING_CODE;
                        if missing {
                            ui.colored_label(warn, o.words());
                        } else {
                            ui.label(RichText::new(o.words()).strong());
                        }
                        bar_ui(ui, o.probability, if missing { warn } else { bar_fill });
                        ui.label(format!("{:.1}%", o.probability * 100.0));
                        ui.label(RichText::new(o.fraction.words()).monospace());
                        ui.end_row();
                    }
                });
        }
        let throws = preview
            .dice
            .as_deref()
            .map_or_else(String::new, |d| format!(" of {d}"));
        ui.label(
            RichText::new({
                let cases = odds.cases.to_string();
                if cases.len() <= 15 {
                    format!("Exact, over {cases} equally likely throws{throws}.")
                } else {
                    format!(
                        "Exact, over a {}-digit number of equally likely throws{throws}.",
                        cases.len()
                    )
                }
            })
            .weak(),
        );
        if !odds.complete {
            ui.colored_label(warn, "Some throws land on chart cells that are not in the rule text: read those off your chart.");
        }
    }

    /// The app dice (Roll), or the physical dice typed in.
    pub fn dice_ui(&mut self, ui: &mut Ui) {
        section_ui(ui, "Dice");
        let (dice, count) = self
            .preview()
            .map_or((None, 0), |p| (p.dice.clone(), p.dice_count));
        let seed = self.app_dice().seed();
        let next = self.app_dice().next_draw();
        ui.horizontal(|ui| {
            let roll = egui::Button::new(
                RichText::new(if dice.is_some() {
                    ROLL_LABEL
                } else {
                    "Resolve"
                })
                .strong()
                .size(16.0),
            )
            .min_size(Vec2::new(90.0, 28.0));
            if ui
                .add(roll)
                .on_hover_text("Throw the app dice (seeded, reproducible)")
                .clicked()
            {
                self.roll();
            }
            ui.label(dice.as_deref().map_or_else(
                || "no dice to throw".to_string(),
                |d| format!("app dice, {d}"),
            ));
        });
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("seed {seed} · next draw {next}")).weak());
            if ui
                .small_button("New seed")
                .on_hover_text("Start the app dice on a fresh seed")
                .clicked()
            {
                self.set_seed(umpire_core::dice::AppDice::fresh_seed());
            }
        });
        if let Some(dice) = &dice {
            ui.add_space(4.0);
            let mut submit = false;
            ui.horizontal(|ui| {
                let label = ui.label(PHYSICAL_DICE_LABEL);
                let hint = physical_hint(count, dice);
                // Leave room for the button on the same line.
                let width = (ui.available_width() - 150.0).clamp(60.0, 170.0);
                let field = egui::TextEdit::singleline(&mut self.physical)
                    .hint_text(hint)
                    .desired_width(width);
                let response = ui.add(field).labelled_by(label.id).on_hover_text(
                    "The faces of your dice, as thrown at the table; Enter uses them",
                );
                if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    submit = true;
                }
                if ui
                    .button(USE_PHYSICAL_LABEL)
                    .on_hover_text("Resolve with the faces typed (Enter does the same)")
                    .clicked()
                {
                    submit = true;
                }
            });
            if submit {
                self.use_physical();
            }
        }
        if let Some(e) = self.error() {
            ui.add_space(4.0);
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        self.chart_entry_ui(ui);
    }

    /// The field for a result read off the physical chart, when a throw landed on a cell that
    /// is not in the rule text.
    pub fn chart_entry_ui(&mut self, ui: &mut Ui) {
        let Some(pending) = self.pending_chart() else {
            return;
        };
        let problem = pending.problem.clone();
        ui.add_space(6.0);
        egui::Frame::group(ui.style())
            .stroke((1.0, ui.visuals().warn_fg_color))
            .show(ui, |ui| {
                ui.colored_label(ui.visuals().warn_fg_color, problem);
                let mut submit = false;
                ui.horizontal(|ui| {
                    let label = ui.label(CHART_RESULT_LABEL);
                    let width = (ui.available_width() - 140.0).clamp(60.0, 120.0);
                    let response = ui
                        .add(egui::TextEdit::singleline(&mut self.chart_entry).desired_width(width))
                        .labelled_by(label.id)
                        .on_hover_text("The result you read off your chart");
                    if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        submit = true;
                    }
                    if ui
                        .button(USE_CHART_LABEL)
                        .on_hover_text("Finish the throw with the result typed")
                        .clicked()
                    {
                        submit = true;
                    }
                });
                if submit {
                    self.use_chart_result();
                }
            });
    }

    /// The last result: outcome, effects, and the explanation of every step.
    pub fn result_ui(&mut self, ui: &mut Ui) {
        section_ui(ui, "Result");
        let Some(result) = self.last_result() else {
            ui.label(RichText::new("Press Roll, or type the physical dice.").weak());
            return;
        };
        let accent = ui.visuals().selection.bg_fill;
        egui::Frame::group(ui.style())
            .fill(ui.visuals().faint_bg_color)
            .stroke((1.5, accent))
            .inner_margin(10.0)
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(
                    RichText::new(format!("{RESULT_PREFIX}{}", outcome_text(result)))
                        .size(22.0)
                        .strong(),
                );
                let procedure = self
                    .library()
                    .get(&result.ruleset)
                    .and_then(|r| r.procedure(&result.procedure))
                    .map_or(result.procedure.as_str(), |p| p.name.as_str());
                ui.label(
                    RichText::new(format!(
                        "{procedure} · {}",
                        super::procedure_desk::describe_rolls(&result.rolls)
                    ))
                    .weak(),
                );
                if result.outcome.from_physical_chart {
                    ui.label(RichText::new("Read off the physical chart.").italics());
                }
                if !result.outcome.effects.is_empty() {
                    ui.add_space(4.0);
                    for effect in &result.outcome.effects {
                        let rule = effect
                            .rule
                            .as_ref()
                            .map_or_else(String::new, |r| format!(" [{r}]"));
                        ui.label(
                            RichText::new(format!("• {}{rule}", describe_effect(effect))).strong(),
                        );
                    }
                }
                ui.add_space(6.0);
                ui.label(RichText::new("Explanation").strong());
                for line in &result.explanation {
                    ui.label(line);
                }
            });
    }

    /// The session's results, newest first.
    pub fn log_ui(&mut self, ui: &mut Ui) {
        ui.add_space(6.0);
        ui.heading("Session log");
        let log = self.log();
        ui.label(
            RichText::new(match log.len() {
                0 => "No results yet.".to_string(),
                1 => "1 result".to_string(),
                n => format!("{n} results"),
            })
            .weak(),
        );
        ui.separator();
        egui::ScrollArea::vertical()
            .id_salt("log")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for entry in log.iter().rev() {
                    ui.label(
                        RichText::new(format!(
                            "#{} · {} · {}",
                            entry.number,
                            clock(entry.elapsed),
                            entry.procedure
                        ))
                        .strong(),
                    )
                    .on_hover_text(format!("ruleset {}", entry.ruleset));
                    let chart = if entry.from_chart { " (chart)" } else { "" };
                    ui.label(format!("{} → {}{chart}", entry.dice, entry.outcome));
                    ui.add_space(6.0);
                }
            });
    }
}

/// A section heading.
fn section_ui(ui: &mut Ui, title: &str) {
    ui.label(RichText::new(title).size(16.0).strong());
    ui.add_space(2.0);
}

/// One number's or choice's field: a value the rules give, or an empty field marked "needed"
/// until typed (a number) or chosen.
fn input_field_ui(
    ui: &mut Ui,
    spec: &InputSpec,
    label: &egui::Response,
    values: &mut BTreeMap<String, Value>,
) {
    match &spec.kind {
        InputKind::Int { min, max } => match values.get(&spec.name) {
            Some(Value::Int(v)) => {
                let mut v = *v;
                let response = ui
                    .add(egui::DragValue::new(&mut v).range(*min..=*max).speed(0.1))
                    .labelled_by(label.id)
                    .on_hover_text(format!("{}: as the rules give it", spec.label));
                if response.changed() {
                    values.insert(spec.name.clone(), Value::Int(v.clamp(*min, *max)));
                }
            }
            // The rules give no value: an empty field, marked, until typed.
            _ => {
                let id = ui.make_persistent_id(("needed", spec.name.as_str()));
                let mut typed: String = ui.data(|d| d.get_temp(id)).unwrap_or_default();
                let response = ui
                    .add(
                        egui::TextEdit::singleline(&mut typed)
                            .hint_text(
                                RichText::new(format!("needed ({min}–{max})"))
                                    .color(ui.visuals().warn_fg_color),
                            )
                            .desired_width(COMBO_WIDTH),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(format!(
                        "{}: the rules give no value here, type it ({min} to {max})",
                        spec.label
                    ));
                if response.changed() {
                    match typed.trim().replace('−', "-").parse::<i64>() {
                        Ok(v) if (*min..=*max).contains(&v) => {
                            values.insert(spec.name.clone(), Value::Int(v));
                            typed.clear();
                        }
                        _ => {}
                    }
                    ui.data_mut(|d| d.insert_temp(id, typed));
                }
            }
        },
        InputKind::Choice { choices } => {
            let mut current = match values.get(&spec.name) {
                Some(Value::Text(t)) => t.clone(),
                _ => String::new(),
            };
            let before = current.clone();
            // The rules give no value: nothing chosen, marked, until chosen.
            let shown = if current.is_empty() {
                RichText::new("— choose —").color(ui.visuals().warn_fg_color)
            } else {
                RichText::new(spec.choice_label(&current))
            };
            egui::ComboBox::from_id_salt(("input", spec.name.as_str()))
                .selected_text(shown)
                .width(COMBO_WIDTH)
                .truncate()
                .show_ui(ui, |ui| {
                    for c in choices {
                        let words = spec.choice_label(c);
                        ui.selectable_value(&mut current, c.clone(), words)
                            .on_hover_text("Use this value");
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text(format!("{}: as the rules give it", spec.label));
            if current != before {
                values.insert(spec.name.clone(), Value::Text(current));
            }
        }
        InputKind::Flag => {}
    }
}

/// Numbers and choices in a label/widget grid, then the flags as wrapped checkboxes.
fn inputs_grid_ui(
    ui: &mut Ui,
    ruleset: &umpire_core::rules::Ruleset,
    procedure: &Procedure,
    values: &mut BTreeMap<String, Value>,
) {
    // An input the result cannot depend on under the values given (a melee test's "Shot
    // from", the Artillery fire value with no Artillery, a Skirmish's Force SPs in a Storm) is
    // greyed out, not taken away: the engine works it out from the procedure
    // (resolve::needed), and the rows keep their place as choices are made (a row inserted
    // above the pointer moved the next field under it).
    let mut scope = umpire_core::rules::Scope::new();
    for (k, v) in values.iter() {
        scope.set(k, v.clone());
    }
    let mut known = values.clone();
    for i in &procedure.inputs {
        if matches!(i.kind, InputKind::Flag) {
            known.entry(i.name.clone()).or_insert(Value::Bool(false));
        }
    }
    let needed = umpire_core::resolve::needed::needed_inputs(ruleset, procedure, &known);
    let fields: Vec<_> = procedure
        .inputs
        .iter()
        .filter(|i| !matches!(i.kind, InputKind::Flag))
        .map(|i| {
            let wanted = i
                .needed_when
                .as_ref()
                .is_none_or(|w| w.eval_bool(&scope).unwrap_or(true))
                && needed.contains(&i.name);
            (i, wanted)
        })
        .collect();
    if !fields.is_empty() {
        // Long labels wrap, so that the widgets stay inside the column.
        let label_width = (ui.available_width() - COMBO_WIDTH - 20.0).max(120.0);
        egui::Grid::new("inputs")
            .num_columns(2)
            .spacing([12.0, 6.0])
            .max_col_width(label_width)
            .show(ui, |ui| {
                for (spec, wanted) in fields {
                    let text = if wanted {
                        RichText::new(&spec.label)
                    } else {
                        RichText::new(&spec.label).weak()
                    };
                    let label = ui.add(egui::Label::new(text).wrap());
                    let label = if wanted {
                        label
                    } else {
                        label.on_hover_text("not needed for these choices")
                    };
                    if let Some(rule) = &spec.rule {
                        label.clone().on_hover_text(format!(
                            "[{rule}]{}",
                            spec.help
                                .as_ref()
                                .map_or_else(String::new, |h| format!(" {h}"))
                        ));
                    }
                    ui.add_enabled_ui(wanted, |ui| input_field_ui(ui, spec, &label, values));
                    ui.end_row();
                }
            });
    }
    let flags: Vec<_> = procedure
        .inputs
        .iter()
        .filter(|i| matches!(i.kind, InputKind::Flag))
        .collect();
    if !flags.is_empty() {
        ui.add_space(6.0);
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 14.0;
            for spec in flags {
                let mut on = matches!(values.get(&spec.name), Some(Value::Bool(true)));
                let mut response = ui.checkbox(&mut on, &spec.label);
                if let Some(rule) = &spec.rule {
                    response = response.on_hover_text(format!("[{rule}]"));
                }
                if response.changed() {
                    values.insert(spec.name.clone(), Value::Bool(on));
                }
            }
        });
    }
}

/// Derived values (e.g. the target number) in one line each.
fn derived_ui(ui: &mut Ui, derived: &[DerivedRow]) {
    for d in derived {
        let rule = if d.rule.is_empty() {
            String::new()
        } else {
            format!("  [{}]", d.rule)
        };
        // Wrapped: a long rule reference goes on to the next line instead of past the
        // panel's edge.
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("{} = {}", d.label, d.value)).strong());
            if !rule.is_empty() {
                ui.label(RichText::new(rule).weak());
            }
        });
    }
}

/// One modifier: value, then name and rule reference, then what it changes (unless
/// `with_target` is false).
fn modifier_row_ui(ui: &mut Ui, row: &ModifierRow, with_target: bool) {
    let target = row.applies_to.words();
    let rule = if row.rule.is_empty() {
        String::new()
    } else {
        format!("[{}]", row.rule)
    };
    if row.active {
        let (value, color) = match row.value {
            Some(v) => (signed(v), ui.visuals().strong_text_color()),
            None => ("?".to_string(), ui.visuals().warn_fg_color),
        };
        ui.label(RichText::new(value).strong().monospace().color(color));
        ui.horizontal(|ui| {
            let name = ui.label(RichText::new(&row.name).strong());
            if !row.note.is_empty() {
                name.on_hover_text(&row.note);
            }
            ui.label(RichText::new(rule).weak());
        });
        if with_target {
            ui.label(target);
        }
    } else {
        let weak = ui.visuals().weak_text_color();
        // A number fits the value column; an expression (`-earlier_evasions`) is in the tooltip.
        match row.declared.trim().parse::<i64>() {
            Ok(v) => ui.label(RichText::new(signed(v)).monospace().color(weak)),
            Err(_) => ui
                .label(RichText::new("…").monospace().color(weak))
                .on_hover_text(format!("value: {}", row.declared)),
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new(&row.name).color(weak));
            ui.label(RichText::new(rule).color(weak));
        });
        if with_target {
            ui.label(RichText::new(target).color(weak));
        }
    }
}

/// Totals of the active modifiers per target, e.g. `−1 to the roll`.
fn modifier_totals(rows: &[ModifierRow]) -> Vec<String> {
    [
        AppliesTo::Roll,
        AppliesTo::Target,
        AppliesTo::Column,
        AppliesTo::Dice,
        AppliesTo::EachDie,
    ]
    .into_iter()
    .filter_map(|t| {
        let active: Vec<i64> = rows
            .iter()
            .filter(|r| r.active && r.applies_to == t)
            .filter_map(|r| r.value)
            .collect();
        (!active.is_empty()).then(|| format!("{} {}", signed(active.iter().sum()), t.words()))
    })
    .collect()
}

/// `+1`, `−2` (with a real minus sign), `0`.
fn signed(v: i64) -> String {
    match v {
        0 => "0".to_string(),
        v if v > 0 => format!("+{v}"),
        v => format!("−{}", -v),
    }
}

/// Rule reference and description of a procedure, for its tooltip.
fn procedure_tooltip(ruleset: &umpire_core::rules::Ruleset, p: &Procedure) -> String {
    let mut parts = Vec::new();
    if let Some(r) = &p.rule {
        parts.push(format!("[{r}]"));
    }
    if let Some(d) = &p.description {
        parts.push(ruleset.in_words(d.trim(), None));
    }
    parts.join(" ")
}

impl ProcedureDesk {
    /// The open ruleset's rulings: each ambiguous rule with the reading in force, switchable.
    fn rulings_ui(&mut self, ui: &mut Ui) {
        let Some(ruleset) = self.ruleset() else {
            return;
        };
        if ruleset.rulings.is_empty() {
            return;
        }
        let rulings = ruleset.rulings.clone();
        let id = ruleset.id.clone();
        let mut switch = None;
        egui::CollapsingHeader::new(format!("Rulings ({})", rulings.len()))
            .id_salt(("rulings", id.as_str()))
            .default_open(false)
            .show(ui, |ui| {
                for r in &rulings {
                    ui.label(
                        RichText::new(format!(
                            "{}{}",
                            r.text.trim(),
                            r.rule
                                .as_ref()
                                .map_or_else(String::new, |x| format!("  [{x}]"))
                        ))
                        .small(),
                    );
                    let selected = r
                        .options
                        .iter()
                        .find(|o| o.id == r.selected)
                        .map_or(r.selected.clone(), |o| o.text.clone());
                    egui::ComboBox::from_id_salt(("ruling", id.as_str(), r.id.as_str()))
                        .width(ui.available_width())
                        .selected_text(RichText::new(selected).small())
                        .show_ui(ui, |ui| {
                            for o in &r.options {
                                if ui
                                    .selectable_label(o.id == r.selected, &o.text)
                                    .on_hover_text("Rule this way")
                                    .clicked()
                                    && o.id != r.selected
                                {
                                    switch = Some((r.id.clone(), o.id.clone()));
                                }
                            }
                        })
                        .response
                        .on_hover_text("The ruling the umpire makes where the rules leave it open");
                    ui.add_space(4.0);
                }
            });
        if let Some((ruling, option)) = switch {
            self.set_ruling(&ruling, &option);
        }
    }
}

/// The physical dice field's hint: as many faces as the throw has ("1 face of d6", "2 faces,
/// e.g. 3 5").
pub fn physical_hint(count: usize, dice: &str) -> String {
    // The ten-sided dice are read 0–9 (a 0 counts as zero), as "Arquebus" reads them; say so,
    // since a table may also own dice printed 1–10.
    let d10 = if dice.contains("d10") && !dice.contains("d100") {
        ", a 0 as 0"
    } else {
        ""
    };
    match count {
        0 => "no dice: leave empty".to_string(),
        1 => format!("1 face of {dice}{d10}"),
        n => format!("{n} faces, e.g. 3 5 …{d10}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_uses_a_real_minus() {
        assert_eq!(signed(-2), "−2");
        assert_eq!(signed(3), "+3");
        assert_eq!(signed(0), "0");
    }
}
