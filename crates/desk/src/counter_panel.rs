//! The counters panel: find a counter, see it in the game's words, its stack (the stack
//! inspector: list, put on top (select), split off, move as one), and every change an umpire makes by
//! hand at the table — strength or any attribute (an order, a rr3 treasury), a status marker
//! from the ruleset's list, a counter taken off — each one journal entry with an optional note.
//! [`CountersPanel`] keeps what is typed there; selecting and splitting are queued commands,
//! the selection itself is the live game's (every panel shows it).

use eframe::egui::{self, RichText, Ui};

use std::collections::{BTreeMap, BTreeSet};

use super::commands::{Command, UiCommand};
use super::live::LiveGame;
use umpire_core::game::names::CounterId;
use umpire_core::game::scenario::{CounterKind, Position};
use umpire_core::game::words::{attribute_value_words, attribute_words, role_words, side_words};
use umpire_core::game::{Action, Edit};
use umpire_core::rules::{AttributeKind, AttributeSpec};

/// Label of the move-to field.
pub const MOVE_TO_LABEL: &str = "Move to";
/// Label of the Move button.
pub const MOVE_LABEL: &str = "Move";
/// Label of the counter filter.
pub const FIND_COUNTER_LABEL: &str = "Find counter";
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
/// The label of a new counter's Force field (an organiser naming Forces at set-up).
pub const NEW_FORCE_LABEL: &str = "In Force";
/// The label of a new unit's type (the ruleset's unit types).
pub const NEW_TYPE_LABEL: &str = "Unit type";
/// Label of the button that adds the counter.
pub const ADD_LABEL: &str = "Add it to the table";

/// The counters panel's state: the list's filter and what is typed in its forms (the move-to
/// field, the hand changes, a new counter).
#[derive(Debug, Default)]
pub struct CountersPanel {
    /// The counter list's filter.
    pub filter: String,
    /// The move-to field (hex id, area name, or x,y), as typed.
    pub move_to: String,
    /// The new counter being typed.
    pub adding: NewCounter,
    /// The note of a hand change, as typed.
    pub edit_note: String,
    /// The values typed for hand changes, by attribute.
    pub edit_values: BTreeMap<String, String>,
    /// The counter `edit_values` were typed for: the form is rebuilt from the counter shown
    /// whenever it is another, so no value typed for one counter is ever set on the next.
    pub edit_values_for: Option<String>,
    /// The value each field showed when the umpire began typing it: a Set is refused when
    /// another desk changed the value since (then pressing Set again sets it anyway).
    pub edit_seen: BTreeMap<String, Option<umpire_core::rules::Value>>,
    /// Whether the hand changes open on the next frame.
    pub open_hand_changes: bool,
}

/// A counter the umpire is adding, as typed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewCounter {
    /// Its name.
    pub name: String,
    /// Its side (id).
    pub side: String,
    /// Whether it is a leader (else a unit).
    pub leader: bool,
    /// Where, as typed (a hex, an area, x, y).
    pub at: String,
    /// Its strength, as typed (the ruleset's strength attribute), if any.
    pub strength: String,
    /// Its unit type, one of the ruleset's (its type attribute's choices), if chosen.
    pub unit_type: String,
    /// The Force it joins, as typed: one of the game's, or a new one's name.
    pub force: String,
}

/// The ruleset's type attribute and its choices (none when it is not a choice).
fn unit_types(ruleset: &umpire_core::rules::Ruleset) -> (Option<String>, Vec<String>) {
    let attribute = ruleset.type_attribute.clone();
    let types = attribute
        .as_ref()
        .and_then(|t| ruleset.units.iter().find(|a| a.name == *t))
        .map(|a| match &a.kind {
            AttributeKind::Choice { choices } => choices.clone(),
            _ => Vec::new(),
        })
        .unwrap_or_default();
    (attribute, types)
}

/// The unit type (the ruleset's type attribute, when it is a choice) and the Force a new
/// counter joins.
fn type_and_force_ui(ui: &mut Ui, a: &mut NewCounter, types: &[String]) {
    ui.horizontal(|ui| {
        if !a.leader && !types.is_empty() {
            let l = ui.label(NEW_TYPE_LABEL);
            let words = umpire_core::rules::choice_words;
            egui::ComboBox::from_id_salt("add_counter_type")
                .selected_text(if a.unit_type.is_empty() {
                    "— none —".to_string()
                } else {
                    words(&a.unit_type)
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut a.unit_type, String::new(), "— none —")
                        .on_hover_text("No unit type");
                    for t in types {
                        ui.selectable_value(&mut a.unit_type, t.clone(), words(t))
                            .on_hover_text("A counter of this unit type");
                    }
                })
                .response
                .labelled_by(l.id)
                .on_hover_text("The new counter's unit type, from the ruleset");
        }
        let l = ui.label(NEW_FORCE_LABEL);
        ui.add(
            egui::TextEdit::singleline(&mut a.force)
                .desired_width(130.0)
                .hint_text("none, or a Force's name"),
        )
        .labelled_by(l.id)
        .on_hover_text("The Force the new counter joins (none: it stands alone)");
    });
}

impl CountersPanel {
    /// The counters panel: the list (narrowed to `shown`, a megagame table's or role's
    /// counters), a new counter, the selected counter in words with the `roles` of the open
    /// procedure it may be added to, its stack, Move to, and the hand changes.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveGame,
        shown: Option<&BTreeSet<String>>,
        roles: &[String],
        queue: &mut Vec<Command>,
    ) {
        super::save_scenario::organiser_setup_ui(ui, live.game());
        self.list_ui(ui, live, shown, queue);
        self.add_counter_ui(ui, live, queue);
        let Some(id) = live.selected.clone() else {
            ui.label(
                RichText::new(
                    "Click a counter on the map or in the list to select it; then drag it onto \
                     a hex to move its stack, or right-click it for more.",
                )
                .weak(),
            );
            return;
        };
        if !live.shows_as_own(&id) {
            seen_counter_ui(ui, live, &id);
            return;
        }
        let Some(c) = live.game().state().counters.get(&id).cloned() else {
            return;
        };
        card_ui(ui, live, &c, roles, queue);
        if let Position::Hex(hex) = &c.position {
            stack_ui(ui, live, hex, queue);
        }
        let hint = match live.geometry() {
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
            .labelled_by(label.id)
            .on_hover_text("The hex or box to move the selected counter to");
            if ui
                .button(MOVE_LABEL)
                .on_hover_text("Move the selected counter to the place typed (one journal entry)")
                .clicked()
            {
                queue.push(UiCommand::MoveSelected.into());
            }
        });
        self.hand_changes_ui(ui, live, queue, &id, c.kind);
    }

    /// The filter and the list of counters (a click selects one).
    fn list_ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveGame,
        shown: Option<&BTreeSet<String>>,
        queue: &mut Vec<Command>,
    ) {
        ui.add_space(4.0);
        ui.separator();
        ui.heading("Counters");
        let label = ui.label(FIND_COUNTER_LABEL);
        ui.add(
            egui::TextEdit::singleline(&mut self.filter)
                .hint_text("a name")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id)
        .on_hover_text("Type part of a counter's name to narrow the list");
        let needle = self.filter.trim().to_lowercase();
        // A megagame's table / role filter narrows the list to that table's or role's counters.
        let rows: Vec<(String, String)> = live
            .game()
            .state()
            .counters
            .values()
            .filter(|c| c.removed.is_none())
            .filter(|c| shown.is_none_or(|s| s.contains(&c.id)))
            .filter(|c| live.shows(&c.id))
            .map(|c| (c.id.clone(), live.display_name(&c.id)))
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
                    let on = live.selected.as_deref() == Some(id.as_str());
                    // Where it is, in words, worked out only when hovered.
                    let response = ui.selectable_label(on, name.as_str());
                    let response = if response.hovered() {
                        let place = live
                            .game()
                            .state()
                            .counters
                            .get(id)
                            .map(|c| {
                                umpire_core::game::words::position_words(
                                    live.game().scenario(),
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
            queue.push(UiCommand::Select(Some(id)).into());
        }
    }

    /// The place typed in the move-to field, read in the game's geometry (the command line
    /// reads it the same way: [`umpire_core::game::hex::read_position`]).
    pub fn typed_position(&self, live: &LiveGame) -> Result<Position, String> {
        let kind = live.game().ruleset().geometry.as_ref().map(|g| g.kind);
        umpire_core::game::hex::read_position(&self.move_to, kind).map_err(|e| e.to_string())
    }

    /// Every change an umpire makes by hand: attributes (strength, order, ledger values),
    /// status markers, taking the counter off; one entry each, with the note.
    fn hand_changes_ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveGame,
        queue: &mut Vec<Command>,
        id: &str,
        kind: CounterKind,
    ) {
        // Only what the section needs of the ruleset (this runs every frame).
        let ruleset = live.game().ruleset();
        let specs: Vec<AttributeSpec> = match kind {
            CounterKind::Leader => ruleset.leaders.clone(),
            _ => ruleset.units.clone(),
        };
        let statuses = ruleset.statuses.clone();
        let strength_attribute = ruleset.strength_attribute.clone();
        let counter = live.game().state().counters.get(id).cloned();
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
                .labelled_by(label.id)
                .on_hover_text("Why you change the counter by hand, for the journal");
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
                    if let Some(e) = self.attribute_row_ui(ui, a, current.as_ref()) {
                        edit = Some(e);
                    }
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
                if ui
                    .button(TAKE_OFF_LABEL)
                    .on_hover_text("Take the counter off the map (the journal keeps it)")
                    .clicked()
                {
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
    /// One attribute's row of the hand changes: its label, its field (a list of choices, a
    /// box, or text), and Set once the value typed differs from the counter's. Returns the
    /// change asked for.
    fn attribute_row_ui(
        &mut self,
        ui: &mut Ui,
        a: &AttributeSpec,
        current: Option<&umpire_core::rules::Value>,
    ) -> Option<Edit> {
        let current = current.cloned();
        let mut set = None;
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
            let value = self
                .edit_values
                .entry(a.name.clone())
                .or_insert_with(|| current.as_ref().map(|v| v.to_string()).unwrap_or_default());
            match &a.kind {
                AttributeKind::Choice { choices, .. } => {
                    let shown = if value.is_empty() {
                        "—".to_string()
                    } else {
                        attribute_value_words(&umpire_core::rules::Value::Text(value.clone()))
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
                                ui.selectable_value(value, c.clone(), words)
                                    .on_hover_text("Set it to this");
                            }
                        })
                        .response
                        .labelled_by(label.id)
                        .on_hover_text(format!("The counter's {} as changed by hand", a.name));
                }
                AttributeKind::Flag => {
                    let mut on = value == "true";
                    if ui
                        .checkbox(&mut on, "")
                        .labelled_by(label.id)
                        .on_hover_text(format!("The counter's {} (on or off)", a.name))
                        .changed()
                    {
                        *value = on.to_string();
                    }
                }
                _ => {
                    ui.add(
                        egui::TextEdit::singleline(value)
                            .desired_width(FIELD_WIDTH)
                            .hint_text("?"),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(format!("The counter's {} as changed by hand", a.name));
                }
            }
            let changed = current.as_ref().map(|v| v.to_string()) != Some(value.clone())
                && !value.trim().is_empty();
            if ui
                .add_enabled(changed, egui::Button::new(SET_LABEL))
                .on_hover_text(format!("Set {} by hand", a.label))
                .clicked()
            {
                set = Some(Edit::Set {
                    attribute: a.name.clone(),
                    value: value.clone(),
                    seen: umpire_core::game::Seen::Value(seen),
                });
            }
        });
        set
    }

    /// Puts a new counter on the table: its name, side, unit or leader, place and strength;
    /// one journal entry with the note.
    fn add_counter_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        let sides: Vec<(String, String)> = live
            .game()
            .scenario()
            .sides
            .iter()
            .map(|s| (s.id.clone(), side_words(live.game().scenario(), &s.id)))
            .collect();
        let strength = live.game().ruleset().strength_attribute.clone();
        let (type_attribute, types) = unit_types(live.game().ruleset());
        let strength_label = strength
            .as_ref()
            .map(|a| attribute_words(live.game().ruleset(), a));
        if self.adding.at.is_empty()
            && let Some(c) = live
                .selected
                .as_ref()
                .and_then(|id| live.game().state().counters.get(id))
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
                        .labelled_by(l.id)
                        .on_hover_text("The new counter's name as printed on it");
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
                                ui.selectable_value(&mut a.side, id.clone(), words)
                                    .on_hover_text("The new counter belongs to this side");
                            }
                        })
                        .response
                        .labelled_by(l.id)
                        .on_hover_text("The side the new counter belongs to");
                    ui.checkbox(&mut a.leader, "a leader")
                        .on_hover_text("The new counter is a leader");
                });
                ui.horizontal(|ui| {
                    let l = ui.label(NEW_AT_LABEL);
                    ui.add(egui::TextEdit::singleline(&mut a.at).desired_width(110.0))
                        .labelled_by(l.id)
                        .on_hover_text("The hex or box the new counter is placed in");
                    if let Some(label) = &strength_label
                        && !a.leader
                    {
                        let l = ui.label(label);
                        ui.add(
                            egui::TextEdit::singleline(&mut a.strength)
                                .desired_width(40.0)
                                .hint_text("?"),
                        )
                        .labelled_by(l.id)
                        .on_hover_text("The new counter's strength");
                    }
                });
                type_and_force_ui(ui, a, &types);
                let ready =
                    !a.name.trim().is_empty() && !a.side.is_empty() && !a.at.trim().is_empty();
                if ui
                    .add_enabled(ready, egui::Button::new(ADD_LABEL))
                    .on_hover_text("Put the new counter on the map (one journal entry)")
                    .clicked()
                {
                    let kind = live.game().ruleset().geometry.as_ref().map(|g| g.kind);
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
                            if let Some(t) = &type_attribute
                                && !a.leader
                                && !a.unit_type.is_empty()
                            {
                                attributes.push((t.clone(), a.unit_type.clone()));
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
                                force: Some(a.force.trim().to_string()).filter(|f| !f.is_empty()),
                                note: Some(self.edit_note.trim().to_string())
                                    .filter(|n| !n.is_empty()),
                            }));
                        }
                        Err(e) => queue.push(UiCommand::Problem(e.to_string()).into()),
                    }
                }
            });
    }
}

/// The selected counter in words: name, side, place and type, attributes, statuses, and the
/// roles it may be added to.
fn card_ui(
    ui: &mut Ui,
    live: &LiveGame,
    c: &umpire_core::game::state::CounterState,
    roles: &[String],
    queue: &mut Vec<Command>,
) {
    let id = c.id.clone();
    // Borrowed, not copied: this runs every frame.
    let ruleset = live.game().ruleset();
    ui.add_space(6.0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(RichText::new(&c.name).strong().size(16.0));
        let kind = live
            .counter_face(&id)
            .map(|f| f.symbol.words().to_string())
            .unwrap_or_default();
        ui.label(
            RichText::new(format!(
                "{} · {} · {kind}",
                side_words(live.game().scenario(), &c.side),
                umpire_core::game::words::position_words(live.game().scenario(), &c.position)
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
                    umpire_core::game::words::capitalised(&umpire_core::game::words::status_words(
                        ruleset, s,
                    ))
                })
                .collect();
            ui.label(
                RichText::new(format!("Status: {}", st.join(", ")))
                    .color(ui.visuals().warn_fg_color),
            );
        }
        ui.horizontal_wrapped(|ui| {
            for role in roles {
                if ui
                    .small_button(format!("Add to {}", role_words(role)))
                    .clicked()
                {
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
}

/// The stack inspector: the counters in the selected counter's hex, with a box to split
/// each off and a button to put it on top.
fn stack_ui(ui: &mut Ui, live: &LiveGame, hex: &str, queue: &mut Vec<Command>) {
    let Some(stack) = live.stacks().get(hex).cloned() else {
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
                    live.hex_words(hex),
                    live.group_words(&stack)
                ))
                .weak(),
            );
            let mut select = None;
            for cid in &stack {
                let Some(face) = live.counter_face(cid) else {
                    continue;
                };
                // One line a counter: its split box, then its name and strength (a click
                // selects it, and the selected counter is the one on top on the map).
                ui.horizontal(|ui| {
                    let own = live.shows_as_own(cid);
                    let mut split = live.split.contains(cid);
                    if own
                        && ui
                            .checkbox(&mut split, "split")
                            .on_hover_text("split off: moves without the rest of the stack")
                            .changed()
                    {
                        queue.push(
                            UiCommand::Split {
                                counter: cid.clone(),
                                on: split,
                            }
                            .into(),
                        );
                    }
                    let strength = face.strength.map_or(String::new(), |s| format!(" {s}"));
                    let on = live.selected.as_deref() == Some(cid.as_str());
                    if ui
                        .add(
                            egui::Button::selectable(
                                on,
                                format!("{}{strength}", live.display_name(cid)),
                            )
                            .truncate(),
                        )
                        .on_hover_text(format!(
                            "{}{strength} ({}): click to put it on top",
                            live.display_name(cid),
                            face.symbol.words()
                        ))
                        .on_hover_text("Select this counter")
                        .clicked()
                    {
                        select = Some(cid.clone());
                    }
                });
            }
            if let Some(s) = select {
                // The selected counter is the one on top of its stack on the map.
                queue.push(UiCommand::Select(Some(s)).into());
            }
            let hint = if live.split.is_empty() {
                "A drag or Move takes the whole stack. Tick counters to split them off; \
                 Shift-drag moves the top counter alone; drop a stack on another to merge."
                    .to_string()
            } else {
                format!(
                    "A drag or Move takes the {} ticked.",
                    live.group_words(&live.split.iter().cloned().collect::<Vec<_>>())
                )
            };
            ui.label(RichText::new(hint).weak());
        });
}

/// Another side's counter as the side shown sees it: what it may know, nothing more.
fn seen_counter_ui(ui: &mut Ui, live: &LiveGame, id: &str) {
    let Some(c) = live.side_counter(id).cloned() else {
        return;
    };
    ui.add_space(6.0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.label(RichText::new(&c.label).strong().size(16.0));
        let scenario = live.game().scenario();
        ui.label(
            RichText::new(format!(
                "{} · {}",
                umpire_core::game::words::side_words(scenario, &c.side),
                umpire_core::game::words::position_words(scenario, &c.position)
            ))
            .weak(),
        );
        for (k, v) in &c.attributes {
            ui.label(format!(
                "{}: {}",
                umpire_core::game::words::attribute_words(live.game().ruleset(), k),
                umpire_core::game::words::attribute_value_words(v)
            ));
        }
        if !c.statuses.is_empty() {
            ui.label(
                RichText::new(format!("status: {}", c.statuses.join(", ")))
                    .color(ui.visuals().warn_fg_color),
            );
        }
        let rule = c
            .rule
            .as_ref()
            .map_or_else(String::new, |r| format!(" ({r})"));
        ui.label(RichText::new(format!("seen {}{rule}", c.level.words())).weak());
    });
}
