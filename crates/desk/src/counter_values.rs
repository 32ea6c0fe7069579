//! File › Counter values…: the values printed on the counters that the rule text does not give
//! (a Troop Quality, a Capitano's Initiative), read off the counters at set-up and given once
//! for every counter of a name — what the scenario's `counter_values:` and the set-up sheet's
//! `counter_values.csv` do, given at the desk as one journal entry a name (`game set-all`).

use std::collections::BTreeMap;

use eframe::egui::{self, RichText, Ui};

use umpire_core::game::Action;
use umpire_core::game::scenario::setup::{ValueGroup, value_groups};
use umpire_core::rules::{AttributeKind, AttributeSpec};

use super::commands::Command;
use super::live::LiveGame;

/// The label of a group's button that records its values, before the name the counters print.
pub const COUNTER_VALUES_GIVE_LABEL: &str = "Give the values of";

/// The Counter values window.
#[derive(Debug, Default)]
pub struct CounterValuesWindow {
    /// Whether it is open.
    pub open: bool,
    /// What is typed, by (printed name, leaders, attribute).
    typed: BTreeMap<(String, bool, String), String>,
}

/// The counters on the table that miss values, by the name they print.
pub fn open_groups(live: &LiveGame) -> Vec<ValueGroup> {
    let game = live.game();
    let printed: BTreeMap<&str, &str> = game
        .scenario()
        .all_counters()
        .map(|c| (c.id.as_str(), c.printed.as_str()))
        .collect();
    let mut groups = value_groups(
        game.state()
            .counters
            .values()
            .filter(|c| c.removed.is_none())
            .map(|c| {
                (
                    printed
                        .get(c.id.as_str())
                        .copied()
                        .unwrap_or(c.name.as_str()),
                    c.kind,
                    c.unknown.as_slice(),
                )
            }),
    );
    // The units' values first (a Quality decides a combat), then the leaders', by name.
    groups.sort_by(|a, b| (a.leaders, &a.name).cmp(&(b.leaders, &b.name)));
    groups
}

impl CounterValuesWindow {
    /// Types a value into a group's field, as the umpire would (for tests and scripts).
    pub fn type_value(&mut self, name: &str, leaders: bool, attribute: &str, value: &str) {
        self.typed.insert(
            (name.to_string(), leaders, attribute.to_string()),
            value.to_string(),
        );
    }

    /// The action that gives a group's typed values, if any is typed.
    pub fn action_for(&self, group: &ValueGroup) -> Option<Action> {
        let values: Vec<(String, String)> = group
            .missing
            .iter()
            .filter_map(|a| {
                let v = self
                    .typed
                    .get(&(group.name.clone(), group.leaders, a.clone()))?;
                (!v.trim().is_empty()).then(|| (a.clone(), v.trim().to_string()))
            })
            .collect();
        (!values.is_empty()).then(|| Action::SetAll {
            name: Some(group.name.clone()),
            with: Vec::new(),
            values,
        })
    }

    /// The window, while open: a row for each printed name, a field for each value it misses.
    pub fn ui(&mut self, ctx: &egui::Context, live: &LiveGame, queue: &mut Vec<Command>) {
        if !self.open {
            return;
        }
        let groups = open_groups(live);
        let ruleset = live.game().ruleset();
        let mut open = true;
        egui::Window::new("Counter values")
            .open(&mut open)
            .default_size([640.0, 680.0])
            .show(ctx, |ui| {
                if groups.is_empty() {
                    ui.label("Every counter on the table has all its values.");
                    return;
                }
                ui.label(
                    "The rule text does not give these values: they are printed on the counters. \
                     Read them off one counter of each name; a value given goes on every counter \
                     of that name (one journal entry), and a value the text gives stays. \
                     A field left empty stays unknown, and a resolution that needs it asks.",
                );
                ui.add_space(4.0);
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        for g in &groups {
                            self.group_ui(ui, g, ruleset, queue);
                        }
                    });
            });
        self.open &= open;
    }

    fn group_ui(
        &mut self,
        ui: &mut Ui,
        g: &ValueGroup,
        ruleset: &umpire_core::rules::Ruleset,
        queue: &mut Vec<Command>,
    ) {
        let specs = if g.leaders {
            &ruleset.leaders
        } else {
            &ruleset.units
        };
        ui.separator();
        let counters = if g.counters == 1 {
            "1 counter".to_string()
        } else {
            format!("{} counters", g.counters)
        };
        ui.label(RichText::new(format!("{} ({counters})", g.name)).strong());
        egui::Grid::new(("counter_values", &g.name, g.leaders))
            .num_columns(2)
            .show(ui, |ui| {
                for a in &g.missing {
                    let Some(spec) = specs.iter().find(|s| s.name == *a) else {
                        continue;
                    };
                    let label = ui.label(&spec.label);
                    let key = (g.name.clone(), g.leaders, a.clone());
                    let text = self.typed.entry(key).or_default();
                    field_ui(ui, spec, text, (&g.name, g.leaders)).labelled_by(label.id);
                    ui.end_row();
                }
            });
        let action = self.action_for(g);
        let give = ui
            .add_enabled(
                action.is_some(),
                egui::Button::new(format!("{COUNTER_VALUES_GIVE_LABEL} {}", g.name)),
            )
            .on_hover_text(format!(
                "Give these values to every counter named {} (one journal entry)",
                g.name
            ));
        if give.clicked()
            && let Some(action) = action
        {
            queue.push(Command::Act(action));
        }
    }
}

/// One value's field: a choice as a list, yes/no as a list, a number or text typed.
fn field_ui(
    ui: &mut Ui,
    spec: &AttributeSpec,
    text: &mut String,
    group: (&str, bool),
) -> egui::Response {
    let choose = |ui: &mut Ui, text: &mut String, choices: &[String]| {
        let shown = if text.is_empty() {
            "— choose —".to_string()
        } else {
            text.clone()
        };
        egui::ComboBox::from_id_salt(("counter_value", group.0, group.1, &spec.name))
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(text, String::new(), "— not known —")
                    .on_hover_text("Leave it unknown: a resolution that needs it asks");
                for c in choices {
                    ui.selectable_value(text, c.clone(), c)
                        .on_hover_text("The value printed on the counters");
                }
            })
            .response
            .on_hover_text(format!("The {} printed on the counters", spec.label))
    };
    match &spec.kind {
        AttributeKind::Choice { choices } => choose(ui, text, choices),
        AttributeKind::Flag => choose(ui, text, &["yes".to_string(), "no".to_string()]),
        AttributeKind::Int { min, max } => {
            let range = match (min, max) {
                (Some(a), Some(b)) => format!("needed, {a}–{b}"),
                (Some(a), None) => format!("needed, {a} or more"),
                (None, Some(b)) => format!("needed, {b} or less"),
                (None, None) => "needed".to_string(),
            };
            ui.add(
                egui::TextEdit::singleline(text)
                    .hint_text(range)
                    .desired_width(150.0),
            )
            .on_hover_text(spec.help.clone().unwrap_or_default())
        }
        AttributeKind::Choices { choices } => ui
            .add(
                egui::TextEdit::singleline(text)
                    .hint_text(format!("any of {}", choices.join(", ")))
                    .desired_width(200.0),
            )
            .on_hover_text("Separate them with commas"),
        AttributeKind::Text => ui
            .add(
                egui::TextEdit::singleline(text)
                    .hint_text("needed")
                    .desired_width(200.0),
            )
            .on_hover_text(format!("The {} printed on the counters", spec.label)),
    }
}
