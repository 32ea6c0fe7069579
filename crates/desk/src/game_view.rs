//! The game desk's views: the Sequence of Play, the table (hex map, areas or free-form list),
//! the selected counter, the resolve panel and the journal. Buttons that are [`Command`]s are
//! queued; the rest act at once through [`GameDesk`].

use eframe::egui::{self, Color32, RichText, Ui};

use super::commands::{Command, UiCommand, move_action};
use super::game::{EVENT_KINDS, GameDesk};
use super::view::{
    CHART_RESULT_LABEL, PHYSICAL_DICE_LABEL, ROLL_LABEL, USE_CHART_LABEL, USE_PHYSICAL_LABEL,
};
use umpire_core::game::Action;
use umpire_core::resolve::describe_effect;
use umpire_core::rules::GeometryKind;

/// Label of the Next button.
pub const NEXT_LABEL: &str = "Next →";
/// Label of the Back button.
pub const BACK_LABEL: &str = "← Back";
/// Label of the Undo button.
pub const UNDO_LABEL: &str = "Undo";
/// Label of the Redo button.
pub const REDO_LABEL: &str = "Redo";
/// Start of the label of a pending item's Credit button ("Credit 5 to …").
pub const CREDIT_LABEL: &str = "Credit";
/// Start of the label of the button that places a turn's reinforcements ("Place 4 at …").
pub const PLACE_LABEL: &str = "Place";
/// Label of the journal's side filter.
pub const JOURNAL_SIDE_LABEL: &str = "Side";
/// Label of the journal's Force filter.
pub const JOURNAL_FORCE_LABEL: &str = "Force";
/// Label of the journal's procedure filter.
pub const JOURNAL_PROCEDURE_LABEL: &str = "Procedure of the entry";
/// Label of the button that closes an opened journal entry.
pub const CLOSE_ENTRY_LABEL: &str = "Close";
/// Label of a pending item's skip menu.
pub const SKIP_MENU_LABEL: &str = "Skip…";
/// The reasons offered to skip an item with one click.
pub const SKIP_REASONS: [&str; 3] = [
    "Nothing to resolve this turn",
    "Not played in this game (optional rule)",
    "Done at the table",
];
/// Label of the skip-reason field.
pub const SKIP_REASON_LABEL: &str = "Reason to skip";
/// Label of the move-to field.
pub const MOVE_TO_LABEL: &str = "Move to";
/// Label of the Move button.
pub const MOVE_LABEL: &str = "Move";
/// Label of the counter filter.
pub const FIND_COUNTER_LABEL: &str = "Find counter";
/// Label of the procedure picker of the resolve panel.
pub const PROCEDURE_LABEL: &str = "Procedure";
/// Start of the label of the button that confirms a chart code the text does not name.
pub const CONFIRM_CHART_LABEL: &str = "My chart prints";
/// The reason field for taking a ledger below its floor.
pub const FLOOR_REASON_LABEL: &str = "Reason to go below";
/// The button that takes a ledger below its floor with the reason given.
pub const GO_BELOW_LABEL: &str = "Go below anyway";
/// Label of the procedure picker's search field.
pub const PROCEDURE_SEARCH_LABEL: &str = "Find a procedure";
/// Label of the Apply button.
pub const APPLY_LABEL: &str = "Apply effects";
/// Label of the journal's text filter.
pub const JOURNAL_FILTER_LABEL: &str = "Filter journal";
/// Label of the override's outcome field.
pub const OVERRIDE_OUTCOME_LABEL: &str = "Outcome that stands";
/// Label of the override's reason field.
pub const OVERRIDE_REASON_LABEL: &str = "Reason for the override";
/// Prefix of the game result line.
pub const GAME_RESULT_PREFIX: &str = "Result: ";
/// Prefix of the banner shown above the game in a side's view.
pub const SEEN_BY_PREFIX: &str = "As seen by: ";
/// Label of the button that records the reveals a step calls for.
pub const REVEAL_LABEL: &str = "Reveal the counters in contact";

/// Side colours, in the scenario's order of sides.
const SIDE_COLOURS: [Color32; 6] = [
    Color32::from_rgb(52, 101, 164),
    Color32::from_rgb(204, 0, 0),
    Color32::from_rgb(78, 154, 6),
    Color32::from_rgb(196, 160, 0),
    Color32::from_rgb(117, 80, 123),
    Color32::from_rgb(206, 92, 0),
];

impl GameDesk {
    /// The whole game desk: Sequence of Play and selection on the left, resolve panel on the
    /// right, journal at the bottom, the table in the middle.
    pub fn game_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        // The side panels share the window with the table and never squeeze it below a third
        // of the width: wide content scrolls inside its panel instead of widening it.
        let width = ui.available_width();
        let left_max = (width * 0.26).clamp(220.0, 420.0);
        let right_max = (width * 0.34).clamp(300.0, 560.0);
        egui::Panel::left("sequence_of_play")
            .resizable(true)
            .default_size(left_max.min(300.0))
            .size_range(220.0..=left_max)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("sop_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        self.sequence_ui(ui, queue);
                        ui.add_space(10.0);
                        self.selection_ui(ui, queue);
                    });
            });
        egui::Panel::right("resolve")
            .resizable(true)
            .default_size(right_max.min(420.0))
            .size_range(300.0..=right_max)
            .show(ui, |ui| {
                egui::ScrollArea::both()
                    .id_salt("resolve_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        ui.set_max_width(ui.available_width().max(280.0));
                        self.resolve_ui(ui, queue)
                    });
            });
        egui::Panel::bottom("journal")
            .resizable(true)
            .default_size(210.0)
            .size_range(120.0..=600.0)
            .show(ui, |ui| self.journal_ui(ui, queue));
        egui::CentralPanel::default().show(ui, |ui| self.table_ui(ui, queue));
    }

    /// Turn, date and step; the steps of the turn with the current one highlighted; the pending
    /// items as a checklist; Next, Back and Skip.
    pub fn sequence_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        let status = self.status().clone();
        let pending = self.pending_shown();
        ui.add_space(6.0);
        if self.seen_by().is_some() {
            // A side's view: say so, loud, so it is never taken for the umpire's.
            egui::Frame::new()
                .fill(Color32::from_rgb(255, 236, 179))
                .inner_margin(4.0)
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.label(
                        RichText::new(format!("{SEEN_BY_PREFIX}{}", self.seen_by_name()))
                            .strong()
                            .color(Color32::from_rgb(90, 60, 0)),
                    );
                    if ui.small_button(UiCommand::SeeAsUmpire.label()).clicked() {
                        queue.push(UiCommand::SeeAsUmpire.into());
                    }
                });
        }
        ui.heading(RichText::new(&status.scenario).strong());
        ui.label(
            RichText::new(format!(
                "Turn {} of {}{}",
                status.turn,
                status.turns,
                status
                    .date
                    .as_ref()
                    .map_or_else(String::new, |d| format!(" — {d}"))
            ))
            .size(17.0)
            .strong(),
        );
        ui.horizontal(|ui| {
            if ui
                .button(BACK_LABEL)
                .on_hover_text("Step back (B)")
                .clicked()
            {
                queue.push(UiCommand::Back.into());
            }
            if ui
                .button(RichText::new(NEXT_LABEL).strong())
                .on_hover_text("Advance the Sequence of Play (N)")
                .clicked()
            {
                queue.push(UiCommand::Next.into());
            }
        });
        if let Some(m) = self.message() {
            ui.label(RichText::new(m).color(ui.visuals().error_fg_color));
        }
        if self.below_floor().is_some() {
            // The umpire's word for going below the floor: the reason, kept in the journal.
            let label = ui.label(FLOOR_REASON_LABEL);
            ui.add(
                egui::TextEdit::singleline(&mut self.floor_reason)
                    .hint_text("why, for the journal")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label.id);
            if ui.button(GO_BELOW_LABEL).clicked() {
                self.go_below_floor();
            }
        }
        ui.add_space(6.0);
        section_ui(ui, "Pending");
        if pending.is_empty() {
            ui.label(RichText::new("Nothing pending at this step.").weak());
        }
        let mut skip: Option<(String, String)> = None;
        let mut credit = None;
        let mut open = None;
        // What to do now: the first open item, framed, with its action.
        let first_open = pending.iter().position(|p| !p.done);
        let accent = ui.visuals().selection.bg_fill;
        for (i, p) in pending.iter().enumerate() {
            let framed = Some(i) == first_open;
            let frame = if framed {
                egui::Frame::group(ui.style()).stroke((2.0, accent))
            } else {
                egui::Frame::new().inner_margin(2.0)
            };
            frame.show(ui, |ui| {
                ui.set_width(ui.available_width());
                let mut done = p.done;
                let mut text = RichText::new(&p.label);
                if p.mandatory {
                    text = text.strong();
                }
                ui.add_enabled(false, egui::Checkbox::new(&mut done, text));
                if p.done {
                    return;
                }
                ui.horizontal_wrapped(|ui| {
                    if framed {
                        ui.label(RichText::new("Next:").small().color(accent));
                    }
                    if p.key.starts_with("reveal:") && ui.button(REVEAL_LABEL).clicked() {
                        queue.push(UiCommand::RevealContacts.into());
                    }
                    if p.key.starts_with("reinforcements:") {
                        for (counters, at) in umpire_core::game::sequence::reinforcements_to_place(
                            self.game().scenario(),
                            self.game().state(),
                        ) {
                            let place = umpire_core::game::words::position_words(
                                self.game().scenario(),
                                &at,
                            );
                            if ui
                                .button(format!("{PLACE_LABEL} {} at {place}", counters.len()))
                                .on_hover_text(
                                    "Move them from their box onto the map, as one entry",
                                )
                                .clicked()
                            {
                                queue.push(Command::Act(move_action(&counters, at)));
                            }
                        }
                    }
                    if let Some(what) = &p.credit {
                        if ui
                            .button(format!("{CREDIT_LABEL} {what}"))
                            .on_hover_text("Record it in the journal: the item is then done")
                            .clicked()
                        {
                            credit = Some(p.key.clone());
                        }
                    } else if let Some(proc_id) = &p.procedure
                        && ui
                            .button(format!("Resolve {}", p.label))
                            .on_hover_text("Open it in the resolve panel")
                            .clicked()
                    {
                        open = Some(proc_id.clone());
                    }
                    if p.mandatory {
                        ui.label(
                            RichText::new("mandatory")
                                .small()
                                .color(ui.visuals().warn_fg_color),
                        );
                    }
                    // Stays open while a reason is typed; a choice closes it.
                    egui::containers::menu::MenuButton::new(SKIP_MENU_LABEL)
                        .config(
                            egui::containers::menu::MenuConfig::new()
                                .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside),
                        )
                        .ui(ui, |ui| {
                            for reason in SKIP_REASONS {
                                if ui.button(reason).clicked() {
                                    skip = Some((p.key.clone(), reason.to_string()));
                                    ui.close();
                                }
                            }
                            ui.separator();
                            let label = ui.label(SKIP_REASON_LABEL);
                            ui.add(
                                egui::TextEdit::singleline(&mut self.skip_reason)
                                    .hint_text("another reason")
                                    .desired_width(200.0),
                            )
                            .labelled_by(label.id);
                            if ui
                                .add_enabled(
                                    !self.skip_reason.trim().is_empty(),
                                    egui::Button::new(format!("Skip {}", p.label)),
                                )
                                .clicked()
                            {
                                skip = Some((p.key.clone(), self.skip_reason.trim().to_string()));
                                ui.close();
                            }
                        });
                });
            });
        }
        if let Some(p) = open {
            queue.push(UiCommand::OpenProcedure(p).into());
        }
        if let Some((item, reason)) = skip {
            queue.push(Command::Act(Action::Skip { item, reason }));
        }
        if let Some(item) = credit {
            queue.push(Command::Act(Action::Credit { item }));
        }
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            undo_redo_ui(ui, queue);
        });
        ui.add_space(4.0);
        egui::CollapsingHeader::new(format!(
            "Sequence of Play — step {} of {}",
            status.step_index + 1,
            status.steps
        ))
        .id_salt("sop_steps")
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("sop_steps_scroll")
                .max_height(170.0)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    let accent = ui.visuals().selection.bg_fill;
                    let steps = self.game().steps().to_vec();
                    for (i, step) in steps.iter().enumerate() {
                        let here = i == status.step_index;
                        let text = RichText::new(format!(
                            "{}{}",
                            step.path,
                            if step.mandatory { " !" } else { "" }
                        ));
                        if here {
                            let r = egui::Frame::new()
                                .fill(accent)
                                .inner_margin(3.0)
                                .corner_radius(3.0)
                                .show(ui, |ui| {
                                    ui.set_width(ui.available_width());
                                    ui.label(text.strong().color(ui.visuals().strong_text_color()));
                                    if let Some(w) = &step.when {
                                        ui.label(RichText::new(format!("when: {w}")).small());
                                    }
                                });
                            if self.scroll_to_step != Some((status.turn, i)) {
                                r.response.scroll_to_me(Some(egui::Align::Center));
                                self.scroll_to_step = Some((status.turn, i));
                            }
                        } else {
                            ui.label(text.weak());
                        }
                    }
                });
        });
    }

    /// Another side's counter as the side shown sees it: what it may know, nothing more.
    pub(crate) fn seen_counter_ui(&mut self, ui: &mut Ui, id: &str) {
        let Some(c) = self.side_counter(id).cloned() else {
            return;
        };
        ui.add_space(6.0);
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(&c.label).strong().size(16.0));
            let scenario = self.game().scenario();
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
                    umpire_core::game::words::attribute_words(self.game().ruleset(), k),
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

    /// The table: a hex map, areas with their counters, or a free-form list of units.
    pub fn table_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        match self.geometry() {
            GeometryKind::Hex => self.hex_map_ui(ui, queue),
            GeometryKind::Area => self.areas_ui(ui, queue),
            _ => self.free_table_ui(ui),
        }
    }

    /// Free-form table: every unit with its position (x, y in base units).
    pub fn free_table_ui(&mut self, ui: &mut Ui) {
        ui.heading("The table");
        ui.label(
            RichText::new(
                "Free-form table: positions in base units. Select a unit, type x, y in Move to.",
            )
            .weak(),
        );
        let shown = self.counters_shown();
        let rows: Vec<(String, String, String, String)> = self
            .game()
            .state()
            .counters
            .values()
            .filter(|c| shown.as_ref().is_none_or(|s| s.contains(&c.id)))
            .filter(|c| self.shows(&c.id))
            .map(|c| {
                (
                    c.id.clone(),
                    self.display_name(&c.id),
                    c.side.clone(),
                    c.removed
                        .as_ref()
                        .map_or_else(|| c.position.to_string(), |r| format!("removed: {r}")),
                )
            })
            .collect();
        let mut clicked = None;
        egui::ScrollArea::vertical()
            .id_salt("free_table")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("free_grid")
                    .striped(true)
                    .num_columns(3)
                    .show(ui, |ui| {
                        for (id, name, side, pos) in &rows {
                            let on = self.selected.as_deref() == Some(id.as_str());
                            if ui
                                .selectable_label(
                                    on,
                                    RichText::new(name).color(self.side_colour(side)),
                                )
                                .clicked()
                            {
                                clicked = Some(id.clone());
                            }
                            ui.label(side);
                            ui.label(pos);
                            ui.end_row();
                        }
                    });
            });
        if let Some(id) = clicked {
            self.select(Some(&id));
        }
    }

    pub(crate) fn side_colour(&self, side: &str) -> Color32 {
        let i = self
            .game()
            .scenario()
            .sides
            .iter()
            .position(|s| s.id == side)
            .unwrap_or(SIDE_COLOURS.len() - 1);
        SIDE_COLOURS[i % SIDE_COLOURS.len()]
    }

    /// The resolve panel: procedure, counters by role, inputs (prefilled ones shown), modifiers,
    /// odds, dice, chart entry, the result and its proposed effects.
    pub fn resolve_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        ui.add_space(6.0);
        ui.heading("Resolve");
        if self.seen_by().is_some() {
            // The resolve panel shows every counter and input: it is the umpire's.
            ui.label(
                RichText::new(format!(
                    "Showing the game as {} sees it. Resolving is the umpire's: View → {}.",
                    self.seen_by_name(),
                    UiCommand::SeeAsUmpire.label()
                ))
                .weak(),
            );
            return;
        }
        // Decks and cups first: open at a step that draws from one (Gradisca's "Draw a
        // Command marker"), folded away elsewhere; each step keeps its own fold.
        if !self.game().ruleset().decks.is_empty() {
            let cursor = self.game().state().cursor.clone();
            let here: Vec<String> = self
                .game()
                .steps()
                .get(cursor.step)
                .map(|s| s.decks.clone())
                .unwrap_or_default();
            // On arriving at a step that draws, its deck is the one shown.
            let at = (cursor.turn, cursor.step);
            if self.deck_panel.step_seen != Some(at) {
                self.deck_panel.step_seen = Some(at);
                if let Some(first) = here.first()
                    && self
                        .deck_panel
                        .deck
                        .as_ref()
                        .is_none_or(|d| !here.contains(d))
                {
                    self.deck_panel.deck = Some(first.clone());
                }
            }
            egui::CollapsingHeader::new(RichText::new("Decks and cups").strong())
                .id_salt(("decks", cursor.turn, cursor.step))
                .default_open(!here.is_empty())
                .show(ui, |ui| self.decks_ui(ui, queue));
            ui.add_space(4.0);
        }
        let current = self
            .resolver
            .procedure()
            .map_or_else(|| "—".to_string(), |p| p.name.clone());
        let mut pick = None;
        ui.horizontal(|ui| {
            let label = ui.label(PROCEDURE_LABEL);
            egui::ComboBox::from_id_salt("game_procedure")
                .selected_text(&current)
                .width(280.0)
                .height(520.0)
                .show_ui(ui, |ui| {
                    // Worked out only while the list is open, not every frame.
                    let groups = self.procedure_groups();
                    let find = ui.label(PROCEDURE_SEARCH_LABEL);
                    ui.add(
                        egui::TextEdit::singleline(&mut self.procedure_search)
                            .hint_text("a word of its name")
                            .desired_width(240.0),
                    )
                    .labelled_by(find.id)
                    .request_focus();
                    let needle = self.procedure_search.trim().to_lowercase();
                    for (heading, list) in &groups {
                        let shown: Vec<&(String, String)> = list
                            .iter()
                            .filter(|(_, n)| {
                                needle.is_empty() || n.to_lowercase().contains(&needle)
                            })
                            .collect();
                        if shown.is_empty() {
                            continue;
                        }
                        ui.add_space(4.0);
                        ui.label(RichText::new(heading).small().strong());
                        for (id, name) in shown {
                            if ui.selectable_label(*name == current, name).clicked() {
                                pick = Some(id.clone());
                            }
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        if let Some(id) = pick {
            self.select_procedure(&id);
        }
        if let Some(p) = self.resolver.procedure()
            && let Some(d) = &p.description
        {
            let d = self.game().ruleset().in_words(d.trim(), None);
            ui.label(RichText::new(d).weak());
        }
        section_ui(ui, "Counters involved");
        let mut remove = None;
        for role in self.role_names() {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("{role}:")).strong());
                for id in self.roles().get(&role).cloned().unwrap_or_default() {
                    if ui
                        .small_button(format!("{} ×", self.counter_name(id.as_str())))
                        .on_hover_text("take it out")
                        .clicked()
                    {
                        remove = Some((role.clone(), id.to_string()));
                    }
                }
                if self.roles().get(&role).is_none_or(Vec::is_empty) {
                    ui.label(RichText::new("select a counter, then Add to ").weak());
                }
            });
        }
        if let Some((role, id)) = remove {
            queue.push(UiCommand::RemoveFromRole { role, counter: id }.into());
        }
        // Inputs the game supplies: from the counters involved, or from the game itself
        // (this turn's weather, the turn), each said with where it came from.
        if let Some(p) = self.resolver.procedure() {
            for f in self.prefilled() {
                let Some(spec) = p.input(&f.input) else {
                    continue;
                };
                let from = match &f.game {
                    Some(said) => format!("from the game: {said}"),
                    None => format!(
                        "from {}",
                        umpire_core::game::words::and_list(
                            f.from.iter().map(|i| self.display_name(i)).collect()
                        )
                    ),
                };
                ui.label(
                    RichText::new(format!(
                        "{} = {} ({from})",
                        spec.label,
                        spec.value_words(&f.value)
                    ))
                    .italics(),
                );
            }
        }
        ui.add_space(4.0);
        self.resolver.inputs_ui(ui);
        self.resolver.refresh();
        ui.add_space(8.0);
        self.resolver.odds_ui(ui);
        ui.add_space(8.0);
        egui::CollapsingHeader::new("Modifiers")
            .id_salt("game_modifiers")
            .default_open(false)
            .show(ui, |ui| self.resolver.modifiers_ui(ui));
        section_ui(ui, "Dice");
        let draw = self.game().state().next_draw;
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new(ROLL_LABEL).strong().size(16.0))
                .on_hover_text("Throw the game's app dice (R)")
                .clicked()
            {
                queue.push(UiCommand::Roll.into());
            }
            // Never the seed itself: players may be looking at the screen.
            ui.label(RichText::new(format!("next draw {draw}")).weak())
                .on_hover_text(self.game().seed_statement());
        });
        // The hint says how many faces this throw takes ("1 face of d6"), not a fixed "4 6".
        let hint = self.resolver.preview().map_or_else(String::new, |p| {
            super::view::physical_hint(p.dice_count, p.dice.as_deref().unwrap_or(""))
        });
        ui.horizontal(|ui| {
            let label = ui.label(PHYSICAL_DICE_LABEL);
            ui.add(
                egui::TextEdit::singleline(&mut self.physical)
                    .desired_width(110.0)
                    .hint_text(hint),
            )
            .labelled_by(label.id);
            if ui.button(USE_PHYSICAL_LABEL).clicked() {
                queue.push(UiCommand::UsePhysical.into());
            }
        });
        if let Some(problem) = self.pending_chart().map(str::to_string) {
            egui::Frame::group(ui.style())
                .stroke((1.5, ui.visuals().warn_fg_color))
                .show(ui, |ui| {
                    ui.label(RichText::new(problem).color(ui.visuals().warn_fg_color));
                    // The codes the text gives for this table, each with its words: a click
                    // fills it in.
                    let codes = self.chart_codes();
                    if codes.is_empty() {
                        ui.label(
                            RichText::new(
                                "The text names no result codes for this chart: type the result                                  exactly as your chart prints it.",
                            )
                            .weak(),
                        );
                    } else {
                        ui.label(RichText::new("Codes the text gives:").weak());
                        ui.horizontal_wrapped(|ui| {
                            for (code, words) in &codes {
                                let b = ui.selectable_label(self.chart_entry == *code, code.as_str());
                                let b = if words.is_empty() { b } else { b.on_hover_text(words) };
                                if b.clicked() {
                                    self.chart_entry = code.clone();
                                }
                            }
                        });
                    }
                    ui.horizontal(|ui| {
                        let label = ui.label(CHART_RESULT_LABEL);
                        ui.add(
                            egui::TextEdit::singleline(&mut self.chart_entry).desired_width(80.0),
                        )
                        .labelled_by(label.id);
                        if ui.button(USE_CHART_LABEL).clicked() {
                            queue.push(UiCommand::UseChartResult.into());
                        }
                    });
                    if let Some(code) = self.chart_unconfirmed().map(str::to_string) {
                        let named = if codes.is_empty() {
                            "the text names no codes for this chart".to_string()
                        } else {
                            format!(
                                "the text names {}",
                                umpire_core::game::words::and_list(
                                    codes.iter().map(|(c, _)| c.clone()).collect()
                                )
                            )
                        };
                        ui.label(
                            RichText::new(format!(
                                "\"{code}\" is not a code the text gives ({named}). Check your chart; if it prints \"{code}\", confirm it."
                            ))
                            .color(ui.visuals().warn_fg_color),
                        );
                        if ui
                            .button(format!("{CONFIRM_CHART_LABEL} \"{code}\""))
                            .clicked()
                        {
                            queue.push(UiCommand::ConfirmChartResult.into());
                        }
                    }
                });
        }
        if let Some(m) = self.message() {
            ui.label(RichText::new(m).color(ui.visuals().error_fg_color));
        }
        self.game_result_ui(ui, queue);
        self.any_roll_ui(ui);
    }

    /// Decks of cards and cups of markers: what is in the chosen one, the exact odds of the
    /// next draw and of at least one of each kind in the next k, and its draws.
    fn decks_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        let specs = self.game().ruleset().decks.clone();
        if specs.is_empty() {
            return;
        }
        let sides: Vec<(String, String)> = self
            .game()
            .scenario()
            .sides
            .iter()
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect();
        let chosen = self
            .deck_panel
            .deck
            .clone()
            .filter(|d| specs.iter().any(|s| &s.id == d))
            .unwrap_or_else(|| specs[0].id.clone());
        let spec = specs
            .iter()
            .find(|s| s.id == chosen)
            .cloned()
            .unwrap_or_else(|| specs[0].clone());
        ui.horizontal(|ui| {
            let label = ui.label("Deck or cup");
            egui::ComboBox::from_id_salt("deck_choice")
                .selected_text(&spec.name)
                .show_ui(ui, |ui| {
                    for s in &specs {
                        if ui.selectable_label(s.id == spec.id, &s.name).clicked() {
                            self.deck_panel.deck = Some(s.id.clone());
                            self.deck_panel.typed = None;
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        let owner = if spec.per_side {
            let owner = self
                .deck_panel
                .owner
                .clone()
                .filter(|o| sides.iter().any(|(id, _)| id == o))
                .or_else(|| sides.first().map(|(id, _)| id.clone()));
            ui.horizontal(|ui| {
                let label = ui.label("Whose");
                let shown = sides
                    .iter()
                    .find(|(id, _)| Some(id) == owner.as_ref())
                    .map_or("—", |(_, n)| n.as_str());
                egui::ComboBox::from_id_salt("deck_owner")
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for (id, name) in &sides {
                            if ui
                                .selectable_label(Some(id) == owner.as_ref(), name)
                                .clicked()
                            {
                                self.deck_panel.owner = Some(id.clone());
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            owner
        } else {
            None
        };
        let state = self.game().state().deck(&spec, owner.as_deref());
        if let Some(help) = &spec.help {
            ui.label(RichText::new(help.trim()).weak().small());
        }
        let never_filled = state.left() == 0 && state.drawn() == 0 && state.removed.is_empty();
        let op = |op| {
            Command::Act(Action::Deck {
                deck: spec.id.clone(),
                owner: owner.clone(),
                op,
                reason: None,
            })
        };
        if never_filled {
            if let Some(missing) = &spec.missing {
                ui.label(
                    RichText::new(format!(
                        "The text does not give what is in it. {}",
                        missing.trim()
                    ))
                    .color(ui.visuals().warn_fg_color),
                );
            }
        } else {
            let words = state.words(&spec);
            ui.label(format!("{}{}", words[..1].to_uppercase(), &words[1..]));
        }
        if state.left() > 0 {
            ui.label(RichText::new(format!("Next {}:", spec.item_noun())).strong());
            egui::Grid::new("deck_next").num_columns(3).show(ui, |ui| {
                for (name, p) in state.next_odds() {
                    ui.label(&name);
                    ui.add(
                        egui::ProgressBar::new(p.to_f64() as f32)
                            .desired_width(90.0)
                            .text(format!("{:.1}%", p.to_f64() * 100.0)),
                    );
                    ui.label(RichText::new(p.words()).monospace());
                    ui.end_row();
                }
            });
            ui.horizontal(|ui| {
                let label = ui.label("At least one in the next");
                ui.add(
                    egui::DragValue::new(&mut self.deck_panel.ahead).range(1..=state.left().max(1)),
                )
                .labelled_by(label.id);
                ui.label("draws:");
            });
            let k = self.deck_panel.ahead.clamp(1, state.left().max(1));
            egui::Grid::new("deck_ahead").num_columns(3).show(ui, |ui| {
                for name in state.inside.keys() {
                    if let Some(p) = state.at_least_one(name, k) {
                        ui.label(name);
                        ui.add(
                            egui::ProgressBar::new(p.to_f64() as f32)
                                .desired_width(90.0)
                                .text(format!("{:.1}%", p.to_f64() * 100.0)),
                        );
                        ui.label(RichText::new(p.words()).monospace());
                        ui.end_row();
                    }
                }
            });
            ui.horizontal(|ui| {
                if ui
                    .button(RichText::new(format!("Draw a {}", spec.item_noun())).strong())
                    .on_hover_text("An app draw from the game's seed, verifiable like app dice")
                    .clicked()
                {
                    queue.push(op(umpire_core::game::DeckOp::Draw {
                        count: 1,
                        typed: Vec::new(),
                        side: owner.clone(),
                    }));
                }
            });
            ui.horizontal(|ui| {
                let label = ui.label("Drawn at the table");
                let shown = self.deck_panel.typed.clone().unwrap_or_else(|| "—".into());
                egui::ComboBox::from_id_salt("deck_typed")
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for name in state.inside.keys() {
                            if ui
                                .selectable_label(
                                    self.deck_panel.typed.as_ref() == Some(name),
                                    name,
                                )
                                .clicked()
                            {
                                self.deck_panel.typed = Some(name.clone());
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id);
                if let Some(name) = self
                    .deck_panel
                    .typed
                    .clone()
                    .filter(|n| state.inside.contains_key(n))
                    && ui.button("Record it").clicked()
                {
                    queue.push(op(umpire_core::game::DeckOp::Draw {
                        count: 0,
                        typed: vec![name],
                        side: owner.clone(),
                    }));
                    self.deck_panel.typed = None;
                }
            });
        }
        if state.drawn() > 0
            && ui
                .button(format!("Put the drawn {}s back", spec.item_noun()))
                .on_hover_text("When the rules say: everything drawn goes back in and is shuffled")
                .clicked()
        {
            queue.push(op(umpire_core::game::DeckOp::Refill));
        }
        egui::CollapsingHeader::new(format!("Fill the {}", spec.noun()))
            .id_salt("deck_fill")
            .default_open(never_filled)
            .show(ui, |ui| {
                let label = ui.label(
                    RichText::new("One kind a line: its name, =, how many (Venetian Corps = 2).")
                        .weak(),
                );
                ui.add(
                    egui::TextEdit::multiline(&mut self.deck_panel.fill)
                        .desired_rows(3)
                        .desired_width(260.0),
                )
                .labelled_by(label.id);
                if ui.button("Fill").clicked() {
                    match parse_fill_lines(&self.deck_panel.fill) {
                        Ok(items) => queue.push(op(umpire_core::game::DeckOp::Fill { items })),
                        Err(problem) => {
                            self.refuse(&problem);
                        }
                    }
                }
            });
    }

    /// The exact odds of any notation (d66, d%, 4d6kh3, 2d6 > 2d6), for a roll no procedure
    /// covers. Odds only: a roll that counts is made through a procedure, in the journal.
    fn any_roll_ui(&mut self, ui: &mut Ui) {
        egui::CollapsingHeader::new("Odds of any roll")
            .id_salt("any_roll")
            .default_open(false)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label(ANY_ROLL_LABEL);
                    ui.add(
                        egui::TextEdit::singleline(&mut self.deck_panel.notation)
                            .hint_text("d66, 4d6kh3, 8d6>=5")
                            .desired_width(160.0),
                    )
                    .labelled_by(label.id);
                });
                let notation = self.deck_panel.notation.trim().to_string();
                if notation.is_empty() {
                    return;
                }
                let rows = self.any_roll_odds(&notation);
                match rows {
                    Ok(rows) => {
                        egui::Grid::new("any_roll_odds").num_columns(3).show(ui, |ui| {
                            for (value, p, words) in rows.iter().take(60) {
                                ui.label(value);
                                ui.add(
                                    egui::ProgressBar::new(*p as f32)
                                        .desired_width(90.0)
                                        .text(format!("{:.2}%", p * 100.0)),
                                );
                                ui.label(RichText::new(words).monospace());
                                ui.end_row();
                            }
                        });
                        if rows.len() > 60 {
                            ui.label(
                                RichText::new(format!(
                                    "{} values in all: the command line lists them (umpire roll … --odds).",
                                    rows.len()
                                ))
                                .weak(),
                            );
                        }
                    }
                    Err(problem) => {
                        ui.label(RichText::new(problem).color(ui.visuals().warn_fg_color));
                    }
                }
            });
    }

    /// The last resolution: outcome, dice, explanation, and the proposed effects with Apply.
    pub fn game_result_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        let Some(entry) = self.resolved().cloned() else {
            return;
        };
        let Some(result) = self.resolution(entry.seq).cloned() else {
            return;
        };
        section_ui(ui, "Result");
        let accent = ui.visuals().selection.bg_fill;
        egui::Frame::group(ui.style())
            .stroke((1.5, accent))
            .inner_margin(8.0)
            .show(ui, |ui| {
                ui.set_max_width(ui.available_width() - 20.0);
                ui.label(
                    RichText::new(format!(
                        "{GAME_RESULT_PREFIX}{}",
                        // The result that stands: an override's, with what the roll gave.
                        umpire_core::game::describe::Words::of(self.game())
                            .standing_outcome(Some(entry.seq), &result)
                    ))
                    .size(20.0)
                    .strong(),
                );
                ui.label(
                    RichText::new(format!(
                        "entry #{} · {}",
                        entry.seq,
                        super::desk::describe_rolls(&result.rolls)
                    ))
                    .weak(),
                );
                if result.outcome.from_physical_chart {
                    ui.label(RichText::new("Read off the physical chart.").italics());
                }
                if !entry.proposals.is_empty() {
                    ui.add_space(4.0);
                    ui.label(RichText::new("Effects").strong());
                }
                let mut choices = Vec::new();
                for (i, p) in entry.proposals.iter().enumerate() {
                    ui.label(format!("• {}", describe_effect(&p.effect)));
                    if let Some(c) = &p.change {
                        ui.label(RichText::new(format!("   → {}", change_text(self, c))).italics());
                    } else if let Some(choice) = &p.choice {
                        ui.label(
                            RichText::new(format!("   {choice}")).color(ui.visuals().warn_fg_color),
                        );
                        if p.candidates.len() > 1 {
                            ui.horizontal_wrapped(|ui| {
                                for (k, cand) in p.candidates.iter().enumerate() {
                                    let on = entry.chosen.get(i).copied().flatten() == Some(k);
                                    if ui.selectable_label(on, self.counter_name(cand)).clicked() {
                                        choices.push((i, if on { None } else { Some(k) }));
                                    }
                                }
                            });
                        }
                    }
                }
                for (i, k) in choices {
                    self.choose(i, k);
                }
                let changes = self.changes_to_apply();
                ui.horizontal(|ui| {
                    if ui
                        .button(RichText::new(APPLY_LABEL).strong())
                        .on_hover_text(format!("{} change(s) (A)", changes.len()))
                        .clicked()
                    {
                        queue.push(UiCommand::ApplyEffects.into());
                    }
                    ui.label(RichText::new(format!("{} change(s)", changes.len())).weak());
                });
                egui::CollapsingHeader::new("Override")
                    .id_salt(("override", entry.seq))
                    .default_open(false)
                    .show(ui, |ui| {
                        ui.horizontal(|ui| {
                            let label = ui.label(OVERRIDE_OUTCOME_LABEL);
                            ui.add(
                                egui::TextEdit::singleline(&mut self.override_outcome)
                                    .desired_width(90.0),
                            )
                            .labelled_by(label.id);
                        });
                        ui.horizontal(|ui| {
                            let label = ui.label(OVERRIDE_REASON_LABEL);
                            ui.add(
                                egui::TextEdit::singleline(&mut self.override_reason)
                                    .desired_width(240.0),
                            )
                            .labelled_by(label.id);
                        });
                        if ui.button("Override the result").clicked() {
                            queue.push(Command::Act(Action::Override {
                                of: entry.seq,
                                outcome: self.override_outcome.trim().to_string(),
                                reason: self.override_reason.trim().to_string(),
                            }));
                        }
                    });
                egui::CollapsingHeader::new("Explanation")
                    .id_salt(("explanation", entry.seq))
                    .default_open(true)
                    .show(ui, |ui| {
                        let counters = match self
                            .game()
                            .events()
                            .get(entry.seq as usize - 1)
                            .map(|e| &e.kind)
                        {
                            Some(umpire_core::game::EventKind::Resolved { counters, .. }) => {
                                counters.clone()
                            }
                            _ => Default::default(),
                        };
                        let words = umpire_core::game::describe::Words::of(self.game());
                        for line in words.resolution(&result, &counters) {
                            ui.label(line);
                        }
                    });
            });
    }

    /// The journal, newest first: filter by kind and text, undo and redo; overrides and their
    /// reasons highlighted, undone entries struck through.
    pub fn journal_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.heading("Journal");
            ui.add(
                egui::Label::new(
                    RichText::new(format!(
                        "{} entries · {}",
                        self.game().events().len(),
                        self.path().display()
                    ))
                    .weak(),
                )
                .truncate(),
            );
        });
        ui.horizontal(|ui| {
            undo_redo_ui(ui, queue);
            ui.separator();
            let label = ui.label(JOURNAL_FILTER_LABEL);
            ui.add(
                egui::TextEdit::singleline(&mut self.journal_filter)
                    .desired_width(180.0)
                    .hint_text("text"),
            )
            .labelled_by(label.id);
            let kind_label = ui.label("Kind");
            egui::ComboBox::from_id_salt("journal_kind")
                .selected_text(
                    EVENT_KINDS
                        .iter()
                        .find(|(k, _)| Some(*k) == self.journal_kind)
                        .map_or("every kind", |(_, w)| w),
                )
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(self.journal_kind.is_none(), "every kind")
                        .clicked()
                    {
                        self.journal_kind = None;
                    }
                    for (k, words) in EVENT_KINDS {
                        if ui
                            .selectable_label(self.journal_kind == Some(k), words)
                            .clicked()
                        {
                            self.journal_kind = Some(k);
                        }
                    }
                })
                .response
                .labelled_by(kind_label.id);
            ui.separator();
            let label = ui.label("Note");
            ui.add(egui::TextEdit::singleline(&mut self.note).desired_width(200.0))
                .labelled_by(label.id);
            if ui.button("Add note").clicked() {
                queue.push(Command::Act(Action::Note {
                    text: self.note.trim().to_string(),
                }));
            }
        });
        self.journal_filters_ui(ui);
        ui.separator();
        // The entry opened: its full explanation (a resolution's inputs, modifiers, dice,
        // arithmetic, table and result), as the turn reports print it.
        if let Some(seq) = self.journal_open
            && let Some(e) = self
                .game()
                .events()
                .get(seq.saturating_sub(1) as usize)
                .cloned()
            && self.journal_rows().iter().any(|r| r.seq == seq)
        {
            let words = umpire_core::game::describe::Words::of(self.game());
            let title = words.title(&e);
            let lines = words.detail(&e);
            let mut close = false;
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(format!("#{seq} {title}")).strong());
                    if ui.small_button(CLOSE_ENTRY_LABEL).clicked() {
                        close = true;
                    }
                });
                egui::ScrollArea::vertical()
                    .id_salt("journal_entry")
                    .max_height(140.0)
                    .show(ui, |ui| {
                        for line in &lines {
                            for l in line.lines() {
                                ui.add(egui::Label::new(l).wrap());
                            }
                        }
                    });
            });
            if close {
                self.journal_open = None;
            }
        }
        let rows = self.journal_rows();
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 5.0;
        let mut open = None;
        egui::ScrollArea::vertical()
            .id_salt("journal_rows")
            .auto_shrink([false, false])
            .show_rows(ui, row_height, rows.len(), |ui, range| {
                for row in &rows[range] {
                    let mut t = RichText::new(format!("#{} {}", row.seq, row.text));
                    if row.undone {
                        t = t.strikethrough().weak();
                    }
                    if row.overridden {
                        t = t
                            .background_color(ui.visuals().warn_fg_color.gamma_multiply(0.25))
                            .strong();
                    }
                    let on = self.journal_open == Some(row.seq);
                    if ui
                        .add(egui::Button::selectable(on, t).truncate())
                        .on_hover_text("open the entry")
                        .clicked()
                    {
                        open = Some(if on { None } else { Some(row.seq) });
                    }
                }
            });
        if let Some(o) = open {
            self.journal_open = o;
        }
    }

    /// The journal's side, Force and procedure filters.
    fn journal_filters_ui(&mut self, ui: &mut Ui) {
        // The lists are the game's own names, worked out once per game (not per frame).
        if self.journal_choices.is_none() {
            let scenario = self.game().scenario();
            let sides: Vec<(String, String)> = scenario
                .sides
                .iter()
                .map(|s| {
                    (
                        s.id.clone(),
                        umpire_core::game::words::side_words(scenario, &s.id),
                    )
                })
                .collect();
            let forces: Vec<(String, String)> = scenario
                .forces
                .iter()
                .filter(|f| !matches!(f.position, umpire_core::game::scenario::Position::OffMap(_)))
                .map(|f| {
                    (
                        f.id.clone(),
                        umpire_core::game::words::force_words(scenario, &f.id),
                    )
                })
                .collect();
            let mut procedures: Vec<(String, String)> = self
                .game()
                .ruleset()
                .procedures
                .iter()
                .map(|p| (p.id.clone(), p.name.clone()))
                .collect();
            procedures.sort_by(|a, b| a.1.cmp(&b.1));
            self.journal_choices = Some(std::rc::Rc::new((sides, forces, procedures)));
        }
        let choices = self.journal_choices.clone().unwrap_or_default();
        let (sides, forces, procedures) = (&choices.0, &choices.1, &choices.2);
        let combo = |ui: &mut Ui,
                     label: &str,
                     salt: &str,
                     all: &str,
                     options: &[(String, String)],
                     current: &mut Option<String>| {
            let l = ui.label(label);
            let shown = current
                .as_ref()
                .and_then(|c| options.iter().find(|(id, _)| id == c))
                .map_or(all.to_string(), |(_, w)| w.clone());
            egui::ComboBox::from_id_salt(salt)
                .selected_text(shown)
                .width(150.0)
                .truncate()
                .show_ui(ui, |ui| {
                    if ui.selectable_label(current.is_none(), all).clicked() {
                        *current = None;
                    }
                    for (id, words) in options {
                        if ui
                            .selectable_label(current.as_deref() == Some(id.as_str()), words)
                            .clicked()
                        {
                            *current = Some(id.clone());
                        }
                    }
                })
                .response
                .labelled_by(l.id);
        };
        ui.horizontal_wrapped(|ui| {
            let mut f = self.journal_by.clone();
            combo(
                ui,
                JOURNAL_SIDE_LABEL,
                "journal_side",
                "every side",
                sides,
                &mut f.side,
            );
            if !forces.is_empty() {
                combo(
                    ui,
                    JOURNAL_FORCE_LABEL,
                    "journal_force",
                    "every Force",
                    forces,
                    &mut f.force,
                );
            }
            combo(
                ui,
                JOURNAL_PROCEDURE_LABEL,
                "journal_procedure",
                "every procedure",
                procedures,
                &mut f.procedure,
            );
            self.journal_by = f;
        });
    }
}

fn change_text(desk: &GameDesk, c: &umpire_core::game::CounterChange) -> String {
    umpire_core::game::describe::Words::of(desk.game()).change(c)
}

/// The label of the notation field of "Odds of any roll".
pub const ANY_ROLL_LABEL: &str = "Any dice";

/// NAME=COUNT lines (or NAME alone, one of it) into a deck's contents.
fn parse_fill_lines(text: &str) -> Result<Vec<(String, u32)>, String> {
    let mut items = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (name, count) = match line.rsplit_once('=') {
            Some((n, c)) => (
                n.trim(),
                c.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("'{line}': the count is not a whole number"))?,
            ),
            None => (line, 1),
        };
        items.push((name.to_string(), count));
    }
    if items.is_empty() {
        return Err("type what is in it first, one kind a line".into());
    }
    Ok(items)
}

fn section_ui(ui: &mut Ui, title: &str) {
    ui.add_space(4.0);
    ui.label(RichText::new(title).strong().size(15.0));
    ui.separator();
}

/// The Undo and Redo buttons (the journal and the Sequence-of-Play panel both have them).
fn undo_redo_ui(ui: &mut Ui, queue: &mut Vec<Command>) {
    if ui.button(UNDO_LABEL).on_hover_text("Ctrl+Z").clicked() {
        queue.push(UiCommand::Undo.into());
    }
    if ui
        .button(REDO_LABEL)
        .on_hover_text("Ctrl+Shift+Z")
        .clicked()
    {
        queue.push(UiCommand::Redo.into());
    }
}
