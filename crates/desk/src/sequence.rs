//! The Sequence of Play panel: turn, date and step, Back and Next, the desk's message, the
//! pending items as a checklist (each with its action: credit, resolve, place, reveal, skip),
//! and the steps of the turn with the current one highlighted. Its buttons queue commands.

use eframe::egui::{self, Color32, RichText, Ui};

use umpire_core::game::Action;
use umpire_core::game::sequence::Pending;

use super::commands::{Command, UiCommand};
use super::live::LiveGame;
use super::widgets::{section_ui, undo_redo_ui};

/// Label of the Next button.
pub const NEXT_LABEL: &str = "Next →";
/// Label of the Back button.
pub const BACK_LABEL: &str = "← Back";
/// Start of the label of a pending item's Credit button ("Credit 5 to …").
pub const CREDIT_LABEL: &str = "Credit";
/// Start of the label of the button that places a turn's reinforcements ("Place 4 at …").
pub const PLACE_LABEL: &str = "Place";
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
/// The reason field for taking a ledger below its floor.
pub const FLOOR_REASON_LABEL: &str = "Reason to go below";
/// The button that takes a ledger below its floor with the reason given.
pub const GO_BELOW_LABEL: &str = "Go below anyway";
/// Prefix of the banner shown above the game in a side's view.
pub const SEEN_BY_PREFIX: &str = "As seen by: ";
/// The button that reveals the app dice's seed once the game is over.
pub const REVEAL_SEED_LABEL: &str = "Reveal the dice's seed";
/// The heading over the steps the current one offers (branches, a round to repeat).
pub const GO_TO_HEADING: &str = "Or go to:";
/// What the desk says of the steps the last Next passed with nothing to resolve.
pub const PASSED_PREFIX: &str = "Passed, nothing to resolve: ";
/// Label of the button that records the reveals a step calls for.
pub const REVEAL_LABEL: &str = "Reveal the counters in contact";

/// What the Sequence of Play panel keeps: the fields typed in it, and the step its list last
/// scrolled to.
#[derive(Debug, Default)]
pub struct SequencePanel {
    /// The skip-reason field, as typed.
    pub skip_reason: String,
    /// The reason typed for going below a floor.
    pub floor_reason: String,
    /// The reason typed for ending the game now.
    pub end_reason: String,
    /// The step the Sequence of Play list last scrolled to (turn, step).
    pub(crate) scroll_to_step: Option<(u32, usize)>,
}

/// What a pending item's buttons asked for this frame.
#[derive(Default)]
struct Picked {
    /// An item skipped, with the reason.
    skip: Option<(String, String)>,
    /// An item credited.
    credit: Option<String>,
    /// An item's procedure to open: (procedure, item key).
    open: Option<(String, String)>,
}

impl SequencePanel {
    /// Turn, date and step; the pending items as a checklist; Next, Back and Skip; the steps
    /// of the turn with the current one highlighted.
    pub fn ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        self.header_ui(ui, live, queue);
        self.pending_ui(ui, live, queue);
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            undo_redo_ui(ui, queue);
            super::sequence_victory::end_menu_ui(ui, live, &mut self.end_reason, queue);
        });
        ui.add_space(4.0);
        self.steps_ui(ui, live);
    }

    /// The banner of a side's view, the scenario, the turn, Back and Next, the desk's message,
    /// and the reason for going below a floor when an action asks for it.
    fn header_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        let status = live.status();
        ui.add_space(6.0);
        if live.seen_by().is_some() {
            // A side's view: say so, loud, so it is never taken for the umpire's.
            egui::Frame::new()
                .fill(Color32::from_rgb(255, 236, 179))
                .inner_margin(4.0)
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.label(
                        RichText::new(format!("{SEEN_BY_PREFIX}{}", live.seen_by_name()))
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
        // The game's result once it has ended; while it goes on, who would win if it ended
        // now (the umpire's view only: it reads where every counter is).
        let standing = &status.victory;
        if standing.ended.is_some() || live.seen_by().is_none() {
            if let Some(line) = standing.headline() {
                let text = RichText::new(line).strong();
                ui.label(if standing.ended.is_some() {
                    text.size(16.0).color(ui.visuals().warn_fg_color)
                } else {
                    text
                });
            }
            if standing.ended.is_some() {
                ui.label(
                    RichText::new(
                        "Undo reopens the game. Revealing the dice's seed lets the players check every app roll.",
                    )
                    .small()
                    .weak(),
                );
                if live.game().state().seed_revealed.is_none()
                    && ui
                        .button(REVEAL_SEED_LABEL)
                        .on_hover_text("Publish the seed behind its commitment (app dice end)")
                        .clicked()
                {
                    queue.push(Command::Act(Action::RevealSeed));
                }
            }
        }
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
        if let Some(m) = live.message() {
            ui.label(RichText::new(m).color(ui.visuals().error_fg_color));
        } else if !live.passed().is_empty() {
            ui.label(
                RichText::new(format!("{PASSED_PREFIX}{}", live.passed().join("; ")))
                    .small()
                    .weak(),
            );
        }
        if live.below_floor().is_some() {
            // The umpire's word for going below the floor: the reason, kept in the journal.
            let label = ui.label(FLOOR_REASON_LABEL);
            ui.add(
                egui::TextEdit::singleline(&mut self.floor_reason)
                    .hint_text("why, for the journal")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label.id)
            .on_hover_text("Why the action goes below its floor, for the journal");
            if ui
                .button(GO_BELOW_LABEL)
                .on_hover_text(UiCommand::GoBelowFloor.hint())
                .clicked()
            {
                queue.push(UiCommand::GoBelowFloor.into());
            }
        }
    }

    /// The pending items, the first open one framed with its action.
    fn pending_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        // The steps this one offers (the kinds of battle, a round to repeat) are choices, not
        // items to tick: they are buttons below the checklist.
        let (doors, pending): (Vec<Pending>, Vec<Pending>) = live
            .pending_shown()
            .into_iter()
            .partition(|p| p.enter.is_some());
        ui.add_space(6.0);
        section_ui(ui, "Pending");
        if pending.is_empty() {
            ui.label(RichText::new("Nothing pending at this step.").weak());
        }
        let mut picked = Picked::default();
        // What to do now, framed with its action: the first open item Next waits for, else the
        // first open item.
        let first_open = pending
            .iter()
            .position(|p| !p.done && p.mandatory)
            .or_else(|| pending.iter().position(|p| !p.done));
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
                ui.add_enabled(false, egui::Checkbox::new(&mut done, text))
                    .on_disabled_hover_text(
                        "Ticked once this item is resolved, credited or skipped",
                    );
                if p.done {
                    return;
                }
                ui.horizontal_wrapped(|ui| {
                    self.item_actions_ui(ui, live, p, framed, &mut picked, queue);
                });
            });
        }
        if !doors.is_empty() {
            ui.add_space(4.0);
            ui.label(RichText::new(GO_TO_HEADING).small().strong());
            for door in &doors {
                if let Some(step) = &door.enter
                    && ui
                        .button(&door.label)
                        .on_hover_text("Go to that step: its items come next")
                        .clicked()
                {
                    queue.push(UiCommand::EnterStep(step.clone()).into());
                }
            }
        }
        if let Some((procedure, item)) = picked.open {
            queue.push(UiCommand::OpenItem { procedure, item }.into());
        }
        if let Some((item, reason)) = picked.skip {
            queue.push(Command::Act(Action::Skip { item, reason }));
        }
        if let Some(item) = picked.credit {
            queue.push(Command::Act(Action::Credit { item }));
        }
    }

    /// An open item's actions: reveal, place, credit or resolve, and the skip menu.
    fn item_actions_ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveGame,
        p: &Pending,
        framed: bool,
        picked: &mut Picked,
        queue: &mut Vec<Command>,
    ) {
        let accent = ui.visuals().selection.bg_fill;
        if framed {
            ui.label(RichText::new("Next:").small().color(accent));
        }
        if p.key.starts_with("reveal:")
            && ui
                .button(REVEAL_LABEL)
                .on_hover_text(UiCommand::RevealContacts.hint())
                .clicked()
        {
            queue.push(UiCommand::RevealContacts.into());
        }
        if (p.key.starts_with("reinforcements:") || p.key.starts_with("arrival:")) && !p.done {
            let game = live.game();
            if let Ok(arrival) = umpire_core::game::arrivals::find_arrival(
                game.ruleset(),
                game.scenario(),
                game.state(),
                Some(&p.key),
            ) {
                let place =
                    umpire_core::game::words::position_words(game.scenario(), &arrival.entry);
                if ui
                    .button(format!("{PLACE_LABEL} {} at {place}", arrival.moves.len()))
                    .on_hover_text(
                        "Move them all from their box to their entry place (breakdown units to their pool), as one entry",
                    )
                    .clicked()
                {
                    let (changes, reason) = umpire_core::game::arrivals::arrival_changes(
                        &arrival,
                        game.state(),
                        None,
                    );
                    queue.push(Command::Act(Action::Change { changes, reason }));
                }
            }
        }
        if p.key.starts_with("battle:") {
            super::sequence_victory::battle_result_ui(ui, live, queue);
        }
        super::sequence_victory::declare_ui(ui, live, p, queue);
        super::sequence_victory::judge_ui(ui, live, p, queue);
        if let Some(label) = p.credit_words() {
            // A scheduled amount is credited, a scheduled attribute set ("Set Mutt's Order to
            // Attack"), a revealed card carried out.
            if ui
                .button(label)
                .on_hover_text("Record it in the journal: the item is then done")
                .clicked()
            {
                picked.credit = Some(p.key.clone());
            }
        } else if let Some(proc_id) = &p.procedure
            && ui
                .button(format!("Resolve {}", p.label))
                .on_hover_text("Open it in the resolve panel")
                .clicked()
        {
            picked.open = Some((proc_id.clone(), p.key.clone()));
        }
        if p.mandatory {
            ui.label(
                RichText::new("mandatory")
                    .small()
                    .color(ui.visuals().warn_fg_color),
            );
        }
        if p.key.starts_with("victory:") && !p.key.starts_with("victory:needed:") {
            // What the conditions say (the standing, a victory a side may declare): nothing
            // to skip.
            return;
        }
        // Stays open while a reason is typed; a choice closes it.
        egui::containers::menu::MenuButton::new(SKIP_MENU_LABEL)
            .config(
                egui::containers::menu::MenuConfig::new()
                    .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside),
            )
            .ui(ui, |ui| {
                for reason in SKIP_REASONS {
                    if ui
                        .button(reason)
                        .on_hover_text("Skip it for this reason")
                        .clicked()
                    {
                        picked.skip = Some((p.key.clone(), reason.to_string()));
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
                .labelled_by(label.id)
                .on_hover_text("Another reason to skip it, for the journal");
                if ui
                    .add_enabled(
                        !self.skip_reason.trim().is_empty(),
                        egui::Button::new(format!("Skip {}", p.label)),
                    )
                    .on_hover_text("Skip it with the reason typed")
                    .clicked()
                {
                    picked.skip = Some((p.key.clone(), self.skip_reason.trim().to_string()));
                    ui.close();
                }
            })
            .0
            .on_hover_text("Skip this item, with a reason for the journal");
    }

    /// The steps of the turn, the current one highlighted (and scrolled to once).
    fn steps_ui(&mut self, ui: &mut Ui, live: &LiveGame) {
        let status = live.status();
        // A header never wraps: it stays short enough for the narrowest column (a wider one
        // would widen everything under it past the panel's edge), the step count under it.
        egui::CollapsingHeader::new("Sequence of Play")
            .id_salt("sop_steps")
            .default_open(true)
            .show(ui, |ui| {
                ui.label(
                    RichText::new(format!(
                        "Step {} of {}",
                        status.step_index + 1,
                        status.steps
                    ))
                    .weak(),
                );
                egui::ScrollArea::vertical()
                    .id_salt("sop_steps_scroll")
                    .max_height(170.0)
                    .auto_shrink([false, true])
                    .show(ui, |ui| {
                        let accent = ui.visuals().selection.bg_fill;
                        let steps = live.game().steps().to_vec();
                        let walk = live.game().walk();
                        for (i, step) in steps.iter().enumerate() {
                            let here = i == status.step_index;
                            let applies = walk.applies(&umpire_core::game::Cursor {
                                turn: status.turn,
                                step: i,
                            });
                            let other_branch = step.branch.is_some()
                                && step.branch != steps[status.step_index].branch;
                            if (!applies || other_branch) && !here {
                                // An optional rule not played, not this turn's, a branch not
                                // entered.
                                continue;
                            }
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
                                        ui.label(
                                            text.strong().color(ui.visuals().strong_text_color()),
                                        );
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
}
