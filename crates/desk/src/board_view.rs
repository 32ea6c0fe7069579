//! An area map on the desk: the board of named boxes [`umpire_core::game::board`] lays out, grouped
//! as the text groups them. Drag a counter onto a box to move it; drag a box's "all" handle to
//! move everything in it as one entry (the counters split off in the inspector, when any). And
//! the free-form table: every unit with its position.

use eframe::egui::{self, Color32, RichText, Ui};

use std::collections::BTreeSet;

use super::commands::{Command, UiCommand, move_action};
use super::live::LiveGame;
use umpire_core::game::board::board;

/// The width of a box on the board.
const BOX_WIDTH: f32 = 180.0;

/// What a drag on the board carries: the counters that move.
#[derive(Debug, Clone)]
struct Moving(Vec<String>);

/// The board of an area map.
pub fn areas_ui(
    ui: &mut Ui,
    live: &LiveGame,
    shown: Option<&BTreeSet<String>>,
    queue: &mut Vec<Command>,
) {
    // A megagame's table / role filter shows that table's (or role's) part of the board.
    let groups = board(live.game().scenario(), live.game().state(), |c| {
        shown.is_none_or(|s| s.contains(&c.id)) && live.shows(&c.id)
    });
    let mut select = None;
    let mut moves: Vec<(Vec<String>, umpire_core::game::scenario::Position)> = Vec::new();
    egui::ScrollArea::vertical()
        .id_salt("areas")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if groups.is_empty() {
                ui.label(
                    RichText::new(
                        "No area is named yet: type an area in Move to, and it joins the board.",
                    )
                    .weak(),
                );
            }
            for group in &groups {
                ui.add_space(6.0);
                ui.label(RichText::new(&group.title).strong().size(16.0));
                // As many boxes a row as the width holds.
                let per_row = ((ui.available_width() + 8.0) / (BOX_WIDTH + 22.0))
                    .floor()
                    .max(1.0) as usize;
                for row in group.boxes.chunks(per_row) {
                    ui.horizontal(|ui| {
                        for b in row {
                            let frame = egui::Frame::group(ui.style())
                                .fill(Color32::from_rgb(236, 230, 212))
                                .inner_margin(6.0);
                            let (_, dropped) = ui.dnd_drop_zone::<Moving, ()>(frame, |ui| {
                                ui.vertical(|ui| {
                                    ui.set_width(BOX_WIDTH);
                                    ui.set_max_width(BOX_WIDTH);
                                    ui.set_min_height(54.0);
                                    let mut title = RichText::new(&b.title)
                                        .strong()
                                        .color(Color32::from_rgb(92, 52, 24));
                                    if b.counters.is_empty() {
                                        title = title.weak();
                                    }
                                    let mut hover =
                                        b.kind.map_or(String::new(), |k| k.words().to_string());
                                    if let Some(r) = &b.rule {
                                        hover = format!(
                                            "{hover} [{}]",
                                            r.split(';').next().unwrap_or(r).trim()
                                        );
                                    }
                                    let l = ui.add(egui::Label::new(title).wrap());
                                    if !hover.trim().is_empty() {
                                        l.on_hover_text(hover.trim());
                                    }
                                    if b.counters.len() > 1 {
                                        let all = live.moving_group("", &b.counters);
                                        ui.dnd_drag_source(
                                            egui::Id::unique(("board_all", &b.title)),
                                            Moving(all.clone()),
                                            |ui| {
                                                ui.label(
                                                    RichText::new(format!(
                                                        "drag to move all {}",
                                                        all.len()
                                                    ))
                                                    .small(),
                                                )
                                                .on_hover_text(
                                                    "drag onto another box to move them as one",
                                                );
                                            },
                                        );
                                    }
                                    for id in &b.counters {
                                        let name = live.display_name(id);
                                        let colour = live
                                            .counter_face(id)
                                            .map_or(Color32::GRAY, |f| live.side_colour(&f.side));
                                        let on = live.selected.as_deref() == Some(id.as_str());
                                        ui.dnd_drag_source(
                                            egui::Id::unique(("board_counter", id)),
                                            Moving(vec![id.clone()]),
                                            |ui| {
                                                if ui
                                                    .add(
                                                        egui::Button::selectable(
                                                            on,
                                                            RichText::new(&name).color(colour),
                                                        )
                                                        .wrap(),
                                                    )
                                                    .on_hover_text("Select this counter")
                                                    .clicked()
                                                {
                                                    select = Some(id.clone());
                                                }
                                            },
                                        );
                                    }
                                });
                            });
                            if let Some(m) = dropped {
                                moves.push((m.0.clone(), b.position.clone()));
                            }
                        }
                    });
                }
            }
        });
    if let Some(id) = select {
        queue.push(UiCommand::Select(Some(id)).into());
    }
    for (counters, to) in moves {
        queue.push(Command::Act(move_action(&counters, to)));
    }
}

/// Free-form table: every unit with its position (x, y in base units).
pub fn free_table_ui(
    ui: &mut Ui,
    live: &LiveGame,
    shown: Option<&BTreeSet<String>>,
    queue: &mut Vec<Command>,
) {
    ui.heading("The table");
    ui.label(
        RichText::new(
            "Free-form table: positions in base units. Select a unit, type x, y in Move to.",
        )
        .weak(),
    );
    let rows: Vec<(String, String, String, String)> = live
        .game()
        .state()
        .counters
        .values()
        .filter(|c| shown.is_none_or(|s| s.contains(&c.id)))
        .filter(|c| live.shows(&c.id))
        .map(|c| {
            (
                c.id.clone(),
                live.display_name(&c.id),
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
                        let on = live.selected.as_deref() == Some(id.as_str());
                        if ui
                            .selectable_label(on, RichText::new(name).color(live.side_colour(side)))
                            .on_hover_text("Select this counter")
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
        queue.push(UiCommand::Select(Some(id)).into());
    }
}
