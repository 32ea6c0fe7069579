//! The counters panel: find a counter, see it in the game's words, its stack (the stack
//! inspector: list, put on top (select), split off, move as one), and every change an umpire makes by
//! hand at the table — strength or any attribute (an order, a rr3 treasury), a status marker
//! from the ruleset's list, a counter taken off — each one journal entry with an optional note.

use eframe::egui::{self, RichText, Ui};

use super::commands::{Command, UiCommand};
use super::game::GameDesk;
use super::game_view::{FIND_COUNTER_LABEL, MOVE_LABEL, MOVE_TO_LABEL};
use umpire_core::game::names::CounterId;
use umpire_core::game::scenario::{CounterKind, Position};
use umpire_core::game::words::{attribute_value_words, attribute_words, side_words};
use umpire_core::game::{Action, Edit};
use umpire_core::rules::{AttributeKind, AttributeSpec};

/// Label of the note field of a hand change.
pub const EDIT_NOTE_LABEL: &str = "Note for the journal";
/// Label of the button that sets an attribute by hand.
pub const SET_LABEL: &str = "Set";
/// Label of the button that takes a counter off the table.
pub const TAKE_OFF_LABEL: &str = "Take off the table";
/// Heading of the hand changes.
pub const CHANGE_BY_HAND_LABEL: &str = "Change by hand";
/// Width of an attribute's label and of its field in the hand changes.
const LABEL_WIDTH: f32 = 110.0;
const FIELD_WIDTH: f32 = 90.0;

/// Heading of the section that adds a counter.
pub const ADD_COUNTER_LABEL: &str = "Add a counter";
/// Label of the new counter's name field.
pub const NEW_NAME_LABEL: &str = "Name";
/// Label of the new counter's place field.
pub const NEW_AT_LABEL: &str = "At";
/// Label of the button that adds the counter.
pub const ADD_LABEL: &str = "Add it to the table";

impl GameDesk {
    /// The counters panel: the list, the selected counter in words, its stack, and the hand
    /// changes.
    pub fn selection_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        ui.add_space(4.0);
        ui.separator();
        ui.heading("Counters");
        let label = ui.label(FIND_COUNTER_LABEL);
        ui.add(
            egui::TextEdit::singleline(&mut self.counter_filter)
                .hint_text("a name")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
        let needle = self.counter_filter.trim().to_lowercase();
        // A megagame's table / role filter narrows the list to that table's or role's counters.
        let shown = self.counters_shown();
        let rows: Vec<(String, String)> = self
            .game()
            .state()
            .counters
            .values()
            .filter(|c| c.removed.is_none())
            .filter(|c| shown.as_ref().is_none_or(|s| s.contains(&c.id)))
            .filter(|c| self.shows(&c.id))
            .map(|c| (c.id.clone(), self.display_name(&c.id)))
            .filter(|(_, name)| needle.is_empty() || name.to_lowercase().contains(&needle))
            .collect();
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        let mut clicked = None;
        egui::ScrollArea::vertical()
            .id_salt("counter_list")
            .max_height(160.0)
            .auto_shrink([false, true])
            .show_rows(ui, row_height, rows.len(), |ui, range| {
                for (id, name) in &rows[range] {
                    let on = self.selected.as_deref() == Some(id.as_str());
                    // Where it is, in words, worked out only when hovered.
                    let response = ui.selectable_label(on, name.as_str());
                    let response = if response.hovered() {
                        let place = self
                            .game()
                            .state()
                            .counters
                            .get(id)
                            .map(|c| {
                                umpire_core::game::words::position_words(
                                    self.game().scenario(),
                                    &c.position,
                                )
                            })
                            .unwrap_or_default();
                        response.on_hover_text(place)
                    } else {
                        response
                    };
                    if response.clicked() {
                        clicked = Some(id.clone());
                    }
                }
            });
        if let Some(id) = clicked {
            self.select(Some(&id));
        }
        self.add_counter_ui(ui, queue);
        let Some(id) = self.selected.clone() else {
            ui.label(
                RichText::new(
                    "Click a counter on the map or in the list to select it; drag a stack onto \
                     a hex to move it.",
                )
                .weak(),
            );
            return;
        };
        if !self.shows_as_own(&id) {
            self.seen_counter_ui(ui, &id);
            return;
        }
        let Some(c) = self.game().state().counters.get(&id).cloned() else {
            return;
        };
        // Borrowed, not copied: this runs every frame.
        let ruleset = self.game().ruleset();
        ui.add_space(6.0);
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(&c.name).strong().size(16.0));
            let kind = self
                .counter_face(&id)
                .map(|f| f.symbol.words().to_string())
                .unwrap_or_default();
            ui.label(
                RichText::new(format!(
                    "{} · {} · {kind}",
                    side_words(self.game().scenario(), &c.side),
                    umpire_core::game::words::position_words(self.game().scenario(), &c.position)
                ))
                .weak(),
            );
            for (k, v) in &c.attributes {
                ui.label(format!(
                    "{}: {}",
                    attribute_words(ruleset, k),
                    attribute_value_words(v)
                ));
            }
            if !c.unknown.is_empty() {
                let unknown: Vec<String> = c
                    .unknown
                    .iter()
                    .map(|u| attribute_words(ruleset, u))
                    .collect();
                ui.label(RichText::new(format!("Not in the text: {}", unknown.join(", "))).weak());
            }
            if !c.statuses.is_empty() {
                let st: Vec<String> = c
                    .statuses
                    .iter()
                    .map(|s| {
                        umpire_core::game::words::capitalised(
                            &umpire_core::game::words::status_words(ruleset, s),
                        )
                    })
                    .collect();
                ui.label(
                    RichText::new(format!("Status: {}", st.join(", ")))
                        .color(ui.visuals().warn_fg_color),
                );
            }
            ui.horizontal_wrapped(|ui| {
                let roles = if self.seen_by().is_some() {
                    Vec::new()
                } else {
                    self.role_names()
                };
                for role in roles {
                    if ui.small_button(format!("Add to {role}")).clicked() {
                        queue.push(
                            UiCommand::AddToRole {
                                role: role.clone(),
                                counter: id.clone(),
                            }
                            .into(),
                        );
                    }
                }
            });
        });
        if let Position::Hex(hex) = &c.position {
            self.stack_ui(ui, hex);
        }
        let hint = match self.geometry() {
            umpire_core::rules::GeometryKind::Hex => "a hex, e.g. 2833",
            umpire_core::rules::GeometryKind::Area => "an area",
            _ => "x, y",
        };
        ui.horizontal(|ui| {
            let label = ui.label(MOVE_TO_LABEL);
            ui.add(
                egui::TextEdit::singleline(&mut self.move_to)
                    .desired_width(110.0)
                    .hint_text(hint),
            )
            .labelled_by(label.id);
            if ui.button(MOVE_LABEL).clicked() {
                queue.push(UiCommand::MoveSelected.into());
            }
        });
        self.hand_changes_ui(ui, queue, &id, c.kind);
    }

    /// The stack inspector: the counters in the selected counter's hex, with a box to split
    /// each off and a button to put it on top.
    fn stack_ui(&mut self, ui: &mut Ui, hex: &str) {
        let Some(stack) = self.stacks().get(hex).cloned() else {
            return;
        };
        if stack.len() < 2 {
            return;
        }
        let title = format!("Stack of {}", stack.len());
        egui::CollapsingHeader::new(RichText::new(title).strong())
            .id_salt("stack_inspector")
            .default_open(true)
            .show(ui, |ui| {
                ui.label(
                    RichText::new(format!(
                        "{}: {}",
                        self.hex_words(hex),
                        self.group_words(&stack)
                    ))
                    .weak(),
                );
                let mut select = None;
                for cid in &stack {
                    let Some(face) = self.counter_face(cid) else {
                        continue;
                    };
                    // One line a counter: its split box, then its name and strength (a click
                    // selects it, and the selected counter is the one on top on the map).
                    ui.horizontal(|ui| {
                        let own = self.shows_as_own(cid);
                        let mut split = self.split.contains(cid);
                        if own
                            && ui
                                .checkbox(&mut split, "split")
                                .on_hover_text("split off: moves without the rest of the stack")
                                .changed()
                        {
                            if split {
                                self.split.insert(cid.clone());
                            } else {
                                self.split.remove(cid);
                            }
                        }
                        let strength = face.strength.map_or(String::new(), |s| format!(" {s}"));
                        let on = self.selected.as_deref() == Some(cid.as_str());
                        if ui
                            .add(
                                egui::Button::selectable(
                                    on,
                                    format!("{}{strength}", self.display_name(cid)),
                                )
                                .truncate(),
                            )
                            .on_hover_text(format!(
                                "{}{strength} ({}): click to put it on top",
                                self.display_name(cid),
                                face.symbol.words()
                            ))
                            .clicked()
                        {
                            select = Some(cid.clone());
                        }
                    });
                }
                if let Some(s) = select {
                    // The selected counter is the one on top of its stack on the map.
                    self.select(Some(&s));
                }
                let hint = if self.split.is_empty() {
                    "A drag or Move takes the whole stack. Tick counters to split them off; \
                     Shift-drag moves the top counter alone; drop a stack on another to merge."
                        .to_string()
                } else {
                    format!(
                        "A drag or Move takes the {} ticked.",
                        self.group_words(&self.split.iter().cloned().collect::<Vec<_>>())
                    )
                };
                ui.label(RichText::new(hint).weak());
            });
    }

    /// Every change an umpire makes by hand: attributes (strength, order, ledger values),
    /// status markers, taking the counter off; one entry each, with the note.
    fn hand_changes_ui(
        &mut self,
        ui: &mut Ui,
        queue: &mut Vec<Command>,
        id: &str,
        kind: CounterKind,
    ) {
        // Only what the section needs of the ruleset (this runs every frame).
        let ruleset = self.game().ruleset();
        let specs: Vec<AttributeSpec> = match kind {
            CounterKind::Leader => ruleset.leaders.clone(),
            _ => ruleset.units.clone(),
        };
        let statuses = ruleset.statuses.clone();
        let strength_attribute = ruleset.strength_attribute.clone();
        let counter = self.game().state().counters.get(id).cloned();
        let Some(counter) = counter else {
            return;
        };
        // The form belongs to the counter shown: values typed for another are dropped.
        if self.edit_values_for.as_deref() != Some(id) {
            self.edit_values.clear();
            self.edit_seen.clear();
            self.edit_values_for = Some(id.to_string());
        }
        let open = std::mem::take(&mut self.open_hand_changes).then_some(true);
        egui::CollapsingHeader::new(RichText::new(CHANGE_BY_HAND_LABEL).strong())
            .id_salt("hand_changes")
            .default_open(false)
            .open(open)
            .show(ui, |ui| {
                let label = ui.label(EDIT_NOTE_LABEL);
                ui.add(
                    egui::TextEdit::singleline(&mut self.edit_note)
                        .hint_text("optional: why")
                        .desired_width(f32::INFINITY),
                )
                .labelled_by(label.id);
                let mut edit: Option<Edit> = None;
                // The strength first, then the attributes the counter has, then the others.
                let mut order: Vec<&AttributeSpec> = specs.iter().collect();
                order.sort_by_key(|a| {
                    (
                        Some(&a.name) != strength_attribute.as_ref(),
                        !counter.attributes.contains_key(&a.name)
                            && !counter.unknown.contains(&a.name),
                    )
                });
                for a in order.iter().filter(|a| {
                    counter.attributes.contains_key(&a.name) || counter.unknown.contains(&a.name)
                }) {
                    let current = counter.attributes.get(&a.name).cloned();
                    // A field not typed in follows the counter (an undo, a result applied,
                    // another desk): it never offers a Set of a value nobody typed.
                    let untouched =
                        match (self.edit_values.get(&a.name), self.edit_seen.get(&a.name)) {
                            (Some(v), Some(seen)) => {
                                *v == seen.as_ref().map(ToString::to_string).unwrap_or_default()
                            }
                            _ => false,
                        };
                    if untouched && self.edit_seen.get(&a.name) != Some(&current) {
                        self.edit_values.remove(&a.name);
                        self.edit_seen.remove(&a.name);
                    }
                    ui.horizontal(|ui| {
                        // The label flush left in a column of its own width, so that the
                        // fields line up and the row stays inside the panel.
                        let label = ui
                            .allocate_ui_with_layout(
                                egui::vec2(LABEL_WIDTH, 18.0),
                                egui::Layout::left_to_right(egui::Align::Center),
                                |ui| {
                                    ui.set_width(LABEL_WIDTH);
                                    ui.add(egui::Label::new(&a.label).truncate())
                                },
                            )
                            .inner
                            .on_hover_text(match &a.rule {
                                Some(r) => format!("{} [{r}]", a.label),
                                None => a.label.clone(),
                            });
                        let seen = self
                            .edit_seen
                            .entry(a.name.clone())
                            .or_insert_with(|| current.clone())
                            .clone();
                        let value = self.edit_values.entry(a.name.clone()).or_insert_with(|| {
                            current.as_ref().map(|v| v.to_string()).unwrap_or_default()
                        });
                        match &a.kind {
                            AttributeKind::Choice { choices, .. } => {
                                let shown = if value.is_empty() {
                                    "—".to_string()
                                } else {
                                    attribute_value_words(&umpire_core::rules::Value::Text(
                                        value.clone(),
                                    ))
                                };
                                egui::ComboBox::from_id_salt(("hand_choice", &a.name))
                                    .width(FIELD_WIDTH)
                                    .truncate()
                                    .selected_text(shown)
                                    .show_ui(ui, |ui| {
                                        for c in choices {
                                            let words = attribute_value_words(
                                                &umpire_core::rules::Value::Text(c.clone()),
                                            );
                                            ui.selectable_value(value, c.clone(), words);
                                        }
                                    })
                                    .response
                                    .labelled_by(label.id);
                            }
                            AttributeKind::Flag => {
                                let mut on = value == "true";
                                if ui.checkbox(&mut on, "").labelled_by(label.id).changed() {
                                    *value = on.to_string();
                                }
                            }
                            _ => {
                                ui.add(
                                    egui::TextEdit::singleline(value)
                                        .desired_width(FIELD_WIDTH)
                                        .hint_text("?"),
                                )
                                .labelled_by(label.id);
                            }
                        }
                        let changed = current.as_ref().map(|v| v.to_string())
                            != Some(value.clone())
                            && !value.trim().is_empty();
                        if ui
                            .add_enabled(changed, egui::Button::new(SET_LABEL))
                            .on_hover_text(format!("Set {} by hand", a.label))
                            .clicked()
                        {
                            edit = Some(Edit::Set {
                                attribute: a.name.clone(),
                                value: value.clone(),
                                seen: umpire_core::game::Seen::Value(seen),
                            });
                        }
                    });
                }
                if !statuses.is_empty() {
                    ui.label(RichText::new("Status markers").strong());
                    ui.horizontal_wrapped(|ui| {
                        for s in &statuses {
                            let mut on = counter.statuses.contains(&s.id);
                            let hover = match (&s.rule, &s.help) {
                                (Some(r), Some(h)) => format!("{h} [{r}]"),
                                (Some(r), None) => format!("[{r}]"),
                                (None, Some(h)) => h.clone(),
                                (None, None) => String::new(),
                            };
                            if ui
                                .checkbox(&mut on, &s.label)
                                .on_hover_text(hover)
                                .changed()
                            {
                                edit = Some(Edit::Status {
                                    status: s.id.clone(),
                                    on,
                                });
                            }
                        }
                    });
                }
                ui.add_space(4.0);
                if ui.button(TAKE_OFF_LABEL).clicked() {
                    edit = Some(Edit::Remove);
                }
                if let Some(edit) = edit {
                    let note = Some(self.edit_note.trim().to_string()).filter(|n| !n.is_empty());
                    queue.push(Command::Act(Action::Edit {
                        counter: CounterId::new(id),
                        edit,
                        note,
                    }));
                }
            });
    }

    /// Puts a new counter on the table: its name, side, unit or leader, place and strength;
    /// one journal entry with the note.
    fn add_counter_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        let sides: Vec<(String, String)> = self
            .game()
            .scenario()
            .sides
            .iter()
            .map(|s| (s.id.clone(), side_words(self.game().scenario(), &s.id)))
            .collect();
        let strength = self.game().ruleset().strength_attribute.clone();
        let strength_label = strength
            .as_ref()
            .map(|a| attribute_words(self.game().ruleset(), a));
        if self.adding.at.is_empty()
            && let Some(c) = self
                .selected
                .as_ref()
                .and_then(|id| self.game().state().counters.get(id))
        {
            self.adding.at = match &c.position {
                Position::Hex(h) => h.clone(),
                Position::Area(a) => a.clone(),
                Position::Free { x, y } => format!("{x}, {y}"),
                Position::OffMap(_) => String::new(),
            };
        }
        egui::CollapsingHeader::new(RichText::new(ADD_COUNTER_LABEL).strong())
            .id_salt("add_counter")
            .default_open(false)
            .show(ui, |ui| {
                let a = &mut self.adding;
                ui.horizontal(|ui| {
                    let l = ui.label(NEW_NAME_LABEL);
                    ui.add(egui::TextEdit::singleline(&mut a.name).desired_width(170.0))
                        .labelled_by(l.id);
                });
                ui.horizontal(|ui| {
                    let l = ui.label("Side");
                    let shown = sides
                        .iter()
                        .find(|(id, _)| *id == a.side)
                        .map_or("— choose —".to_string(), |(_, w)| w.clone());
                    egui::ComboBox::from_id_salt("add_counter_side")
                        .selected_text(shown)
                        .show_ui(ui, |ui| {
                            for (id, words) in &sides {
                                ui.selectable_value(&mut a.side, id.clone(), words);
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    ui.checkbox(&mut a.leader, "a leader");
                });
                ui.horizontal(|ui| {
                    let l = ui.label(NEW_AT_LABEL);
                    ui.add(egui::TextEdit::singleline(&mut a.at).desired_width(110.0))
                        .labelled_by(l.id);
                    if let Some(label) = &strength_label
                        && !a.leader
                    {
                        let l = ui.label(label);
                        ui.add(
                            egui::TextEdit::singleline(&mut a.strength)
                                .desired_width(40.0)
                                .hint_text("?"),
                        )
                        .labelled_by(l.id);
                    }
                });
                let ready =
                    !a.name.trim().is_empty() && !a.side.is_empty() && !a.at.trim().is_empty();
                if ui
                    .add_enabled(ready, egui::Button::new(ADD_LABEL))
                    .clicked()
                {
                    let kind = self.game().ruleset().geometry.as_ref().map(|g| g.kind);
                    match umpire_core::game::hex::read_position(&self.adding.at, kind) {
                        Ok(at) => {
                            let a = &self.adding;
                            let mut attributes = Vec::new();
                            if let Some(s) = &strength
                                && !a.leader
                                && !a.strength.trim().is_empty()
                            {
                                attributes.push((s.clone(), a.strength.trim().to_string()));
                            }
                            queue.push(Command::Act(Action::AddCounter {
                                name: a.name.trim().to_string(),
                                side: a.side.clone(),
                                kind: if a.leader {
                                    CounterKind::Leader
                                } else {
                                    CounterKind::Unit
                                },
                                at,
                                attributes,
                                note: Some(self.edit_note.trim().to_string())
                                    .filter(|n| !n.is_empty()),
                            }));
                        }
                        Err(e) => {
                            self.refuse(&e.to_string());
                        }
                    }
                }
            });
    }
}
