//! The Sealed orders panel (at the top of the resolve column, when the step takes written
//! orders or sealed ones wait for their reveal): what each side has sealed and when, orders
//! handed in on paper entered and sealed as a phone seals them (`game::sealed`), and the reveal
//! the step calls for. The umpire never sees a side's sealed orders here: only that they were
//! sealed, until the reveal.

use std::collections::BTreeMap;

use eframe::egui::{self, RichText, Ui};

use umpire_core::game::orders::{FormInput, OrderForm};
use umpire_core::game::sealed::{self, field_name};
use umpire_core::game::words::side_words;

use super::commands::{Command, UiCommand};
use super::live::LiveGame;
use super::widgets::section_ui;

/// The heading of the panel.
pub const SEALED_ORDERS_HEADING: &str = "Sealed orders";
/// The reveal button's label while a side has handed in nothing (the warning above it says
/// which side, and the rules' consequence).
pub const REVEAL_ANYWAY_LABEL: &str = "Reveal anyway";
/// The label of the side chooser of paper orders.
pub const PAPER_SIDE_LABEL: &str = "Orders on paper from";
/// Start of the label of the button that seals the orders typed ("Seal the French Orders").
pub const SEAL_LABEL: &str = "Seal the";

/// The panel's choices and what is typed, per kind of order, side, Force and field.
#[derive(Debug, Clone, Default)]
pub struct OrdersPanel {
    /// The side whose paper orders are being entered.
    pub side: Option<String>,
    /// `ORDER|SIDE|f:ENTRY:FIELD` → the value (a choice's id, areas by name, "yes" for a box).
    pub typed: BTreeMap<String, String>,
}

fn key(order: &str, side: &str, entry: &str, field: &str) -> String {
    format!("{order}|{side}|{}", field_name(entry, field))
}

impl OrdersPanel {
    /// What was typed for `order` and `side`, as a form's fields.
    pub fn fields(&self, order: &str, side: &str) -> Vec<(String, String)> {
        let prefix = format!("{order}|{side}|");
        self.typed
            .iter()
            .filter_map(|(k, v)| k.strip_prefix(&prefix).map(|f| (f.to_string(), v.clone())))
            .collect()
    }

    /// Forgets what was typed for `order` and `side` (once sealed).
    pub fn clear(&mut self, order: &str, side: &str) {
        let prefix = format!("{order}|{side}|");
        self.typed.retain(|k, _| !k.starts_with(&prefix));
    }

    /// The panel, when orders are due at this step or sealed ones wait for their reveal.
    pub fn ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        let game = live.game();
        let due: Vec<String> = game.orders_due_now().iter().map(|k| k.id.clone()).collect();
        let waiting = sealed::awaiting_reveal(game.state()).len();
        if due.is_empty() && waiting == 0 {
            return;
        }
        section_ui(ui, SEALED_ORDERS_HEADING);
        let cursor = game.state().cursor.clone();
        let sealed_here = sealed::last_at(game.state(), &cursor);
        let sides: Vec<(String, String)> = game
            .scenario()
            .sides
            .iter()
            .map(|s| (s.id.clone(), side_words(game.scenario(), &s.id)))
            .collect();
        for order in &due {
            let Some(kind) = game.ruleset().order_kind(order) else {
                continue;
            };
            ui.label(RichText::new(format!("{} ({})", kind.name, kind.rule)).strong());
            for (side, name) in &sides {
                let line = match sealed_here
                    .iter()
                    .find(|(_, s)| &s.order == order && &s.side == side)
                {
                    Some((seq, s)) => format!(
                        "{name}: sealed at {} (entry {seq}){} — commitment {}…",
                        s.at.with_timezone(&chrono::Local).format("%H:%M"),
                        s.revealed
                            .map(|r| format!(", revealed in entry {r}"))
                            .unwrap_or_default(),
                        s.commitment.chars().take(12).collect::<String>()
                    ),
                    None => format!("{name}: not handed in"),
                };
                ui.label(line);
            }
            if !sealed::called(game.state(), order, &cursor) {
                self.paper_ui(ui, live, order, &kind.name, &sides, queue);
            }
        }
        if waiting > 0 {
            ui.add_space(4.0);
            // A side that handed in nothing is held to the rules' consequence by the reveal:
            // said first, and the button says "anyway".
            let missing = game.orders_not_handed_in();
            for line in &missing {
                ui.label(
                    RichText::new(format!("{}.", umpire_core::game::words::capitalised(line)))
                        .color(ui.visuals().warn_fg_color),
                );
            }
            let label = if missing.is_empty() {
                UiCommand::RevealOrders.label()
            } else {
                REVEAL_ANYWAY_LABEL
            };
            if ui
                .button(label)
                .on_hover_text("The orders and their salt enter the journal, held to the commitments made when they were sealed; each side sees them as the rules say")
                .clicked()
            {
                queue.push(UiCommand::RevealOrders.into());
            }
        }
    }

    /// The orders a side handed in on paper, typed in and sealed.
    fn paper_ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveGame,
        order: &str,
        kind_name: &str,
        sides: &[(String, String)],
        queue: &mut Vec<Command>,
    ) {
        let side = self
            .side
            .clone()
            .filter(|s| sides.iter().any(|(id, _)| id == s))
            .or_else(|| sides.first().map(|(id, _)| id.clone()))
            .unwrap_or_default();
        egui::CollapsingHeader::new(format!("Enter {kind_name} handed in on paper"))
            .id_salt(("paper-orders", order))
            .show(ui, |ui| {
                let mut chosen = side.clone();
                let label = ui.label(PAPER_SIDE_LABEL);
                egui::ComboBox::from_id_salt(("paper-side", order))
                    .selected_text(
                        sides
                            .iter()
                            .find(|(id, _)| *id == chosen)
                            .map_or(chosen.clone(), |(_, n)| n.clone()),
                    )
                    .show_ui(ui, |ui| {
                        for (id, name) in sides {
                            ui.selectable_value(&mut chosen, id.clone(), name)
                                .on_hover_text("This side's orders");
                        }
                    })
                    .response
                    .labelled_by(label.id)
                    .on_hover_text("The side whose paper orders you type in");
                self.side = Some(chosen.clone());
                match live.game().order_form(order, &chosen) {
                    Ok(form) => self.form_ui(ui, order, &chosen, &form, sides, queue),
                    Err(e) => {
                        ui.label(RichText::new(e.to_string()).weak());
                    }
                }
            });
    }

    fn form_ui(
        &mut self,
        ui: &mut Ui,
        order: &str,
        side: &str,
        form: &OrderForm,
        sides: &[(String, String)],
        queue: &mut Vec<Command>,
    ) {
        if form.entries.is_empty() {
            ui.label(RichText::new("This side has nothing to give orders to.").weak());
            return;
        }
        if let Some(note) = form.areas_unchecked() {
            ui.label(RichText::new(note).weak());
        }
        for entry in &form.entries {
            let strength = entry
                .strength
                .map(|s| format!(", strength {s}"))
                .unwrap_or_default();
            ui.label(format!("{} — {}{strength}", entry.name, entry.place));
            ui.indent(("paper-entry", order, &entry.id), |ui| {
                for field in &entry.fields {
                    let k = key(order, side, &entry.id, &field.field);
                    let value = self.typed.entry(k).or_default();
                    match &field.input {
                        FormInput::Choose { choices, .. } => {
                            let shown = choices
                                .iter()
                                .find(|c| c.id == *value)
                                .map_or("— no order —".to_string(), |c| c.label.clone());
                            let label = ui.label(if field.required {
                                format!("{} (must be given)", field.label)
                            } else {
                                field.label.clone()
                            });
                            egui::ComboBox::from_id_salt((
                                "paper-field",
                                order,
                                side,
                                &entry.id,
                                &field.field,
                            ))
                            .selected_text(shown)
                            .show_ui(ui, |ui| {
                                ui.selectable_value(value, String::new(), "— no order —")
                                    .on_hover_text("No order");
                                for c in choices {
                                    let words = match &c.cost {
                                        Some(cost) => format!("{} — {}", c.label, cost.words()),
                                        None => c.label.clone(),
                                    };
                                    if let Some(why) = &c.refused {
                                        // Not allowed for this Force now: shown, not offered.
                                        ui.add_enabled(
                                            false,
                                            egui::Button::selectable(false, words),
                                        )
                                        .on_disabled_hover_text(format!("Not allowed: {why}"));
                                        continue;
                                    }
                                    ui.selectable_value(value, c.id.clone(), words)
                                        .on_hover_text("This order");
                                }
                            })
                            .response
                            .labelled_by(label.id)
                            .on_hover_text(field.label.clone());
                        }
                        FormInput::Areas { max } => {
                            ui.horizontal(|ui| {
                                ui.label(&field.label);
                                ui.add(
                                    egui::TextEdit::singleline(value)
                                        .hint_text(format!("up to {max}, separated by commas")),
                                )
                                .on_hover_text(field.label.clone());
                            });
                        }
                        FormInput::Flag => {
                            let mut on = value == "yes";
                            if ui
                                .checkbox(&mut on, &field.label)
                                .on_hover_text(field.label.clone())
                                .changed()
                            {
                                *value = if on { "yes".into() } else { String::new() };
                            }
                        }
                    }
                }
            });
        }
        let name = sides
            .iter()
            .find(|(id, _)| id == side)
            .map_or(side.to_string(), |(_, n)| n.clone());
        if ui
            .button(format!("{SEAL_LABEL} {name} {}", form.name))
            .on_hover_text("Only the commitment enters the journal; the orders are kept apart until the step reveals them")
            .clicked()
        {
            queue.push(
                UiCommand::SealOrders {
                    order: order.to_string(),
                    side: side.to_string(),
                }
                .into(),
            );
        }
    }
}
