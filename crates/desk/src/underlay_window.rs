//! The Map underlay window (View → Map underlay…): a photo or scan of the physical map loaded
//! under the hex grid, its opacity, its alignment by two points picked on the map, and
//! clearing it; the settings kept per game in the config folder.

use std::path::{Path, PathBuf};

use eframe::egui::{self, RichText, Ui};

use super::game_desk::GameDesk;
use super::underlay::{self, Underlay, UnderlayDialog, UnderlaySettings};
use super::widgets::BROWSE_LABEL;

/// Loads the image typed in the Map underlay window under the game's map.
pub fn load(dialog: &mut UnderlayDialog, g: &mut GameDesk, config_dir: Option<&Path>) {
    let path = PathBuf::from(dialog.path.trim());
    if path.as_os_str().is_empty() {
        dialog.message = Some(Err("type the path of a PNG or JPEG image".into()));
        return;
    }
    match underlay::decode(&path) {
        Ok(decoded) => {
            let transform = match &g.map.underlay {
                Some(u) if u.settings.aligned && u.size == decoded.size => u.settings.transform,
                _ => g.fit_underlay(decoded.size),
            };
            let opacity = g.map.underlay.as_ref().map_or(0.6, |u| u.settings.opacity);
            let settings = UnderlaySettings {
                game: g.path().to_path_buf(),
                image: path.clone(),
                opacity,
                transform,
                aligned: false,
            };
            dialog.message = Some(Ok(format!(
                "{}: {} × {} px",
                path.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().to_string()),
                decoded.size[0],
                decoded.size[1]
            )));
            g.map.underlay = Some(Underlay::new(settings, decoded));
            keep(dialog, g, config_dir);
        }
        Err(e) => dialog.message = Some(Err(e)),
    }
}

/// Keeps the underlay's settings for the next time the game is opened (or forgets them).
fn keep(dialog: &mut UnderlayDialog, g: &GameDesk, config_dir: Option<&Path>) {
    let Some(dir) = config_dir else {
        return;
    };
    match &g.map.underlay {
        Some(u) => {
            if let Err(e) = underlay::write_settings(dir, &u.settings) {
                dialog.message = Some(Err(format!("not kept for next time: {e}")));
            }
        }
        None => underlay::remove_settings(dir, g.path()),
    }
}

/// The Map underlay window: the image, its opacity, alignment by two points, clear.
/// The Map underlay window: the image, its opacity, alignment by two points, clear. Returns
/// whether Browse… was pressed (the shell opens the file dialog).
pub fn window_ui(
    ctx: &egui::Context,
    dialog: &mut UnderlayDialog,
    g: &mut GameDesk,
    config_dir: Option<&Path>,
) -> bool {
    if let Some((i, point)) = g.map.underlay_picked.take()
        && let Some(slot) = dialog.points.get_mut(i)
    {
        *slot = format!("{:.0}, {:.0}", point[0], point[1]);
    }
    if !dialog.open {
        g.map.underlay_pick = None;
        return false;
    }
    let mut open = true;
    let mut load_clicked = false;
    let mut browse = false;
    let mut align = false;
    let mut clear = false;
    let mut changed = false;
    egui::Window::new("Map underlay")
        .open(&mut open)
        .collapsible(false)
        .default_width(430.0)
        .show(ctx, |ui| {
            ui.label(
                RichText::new(
                    "A photo or scan of the physical map (PNG or JPEG), drawn under the hex grid.",
                )
                .weak(),
            );
            ui.horizontal(|ui| {
                let label = ui.label(underlay::UNDERLAY_PATH_LABEL);
                ui.add(
                    egui::TextEdit::singleline(&mut dialog.path)
                        .desired_width(260.0)
                        .hint_text("path/to/map.jpg"),
                )
                .labelled_by(label.id)
                .on_hover_text("The photo or scan of your map (PNG or JPEG)");
                browse = ui
                    .button(BROWSE_LABEL)
                    .on_hover_text("Pick the image with your system's file dialog")
                    .clicked();
            });
            load_clicked = ui
                .button(underlay::UNDERLAY_LOAD_LABEL)
                .on_hover_text("Load the image under the map")
                .clicked();
            if let Some(u) = g.map.underlay.as_mut() {
                let (c, a, x) = settings_ui(ui, dialog, u, &mut g.map.underlay_pick);
                changed |= c;
                align = a;
                clear = x;
            }
            match &dialog.message {
                Some(Ok(m)) => {
                    ui.label(RichText::new(m).color(egui::Color32::from_rgb(90, 170, 90)));
                }
                Some(Err(e)) => {
                    ui.label(RichText::new(e).color(ui.visuals().error_fg_color));
                }
                None => {}
            }
        });
    if load_clicked {
        load(dialog, g, config_dir);
    }
    if align && let Some(u) = g.map.underlay.as_mut() {
        match underlay::align(&dialog.points, &dialog.hexes) {
            Ok(t) => {
                u.settings.transform = t;
                u.settings.aligned = true;
                g.map.underlay_pick = None;
                dialog.message = Some(Ok(format!(
                    "aligned: point 1 on hex {}, point 2 on hex {}",
                    dialog.hexes[0].trim(),
                    dialog.hexes[1].trim()
                )));
                changed = true;
            }
            Err(e) => dialog.message = Some(Err(e)),
        }
    }
    if clear {
        g.map.underlay = None;
        g.map.underlay_pick = None;
        dialog.message = Some(Ok("underlay cleared".into()));
        changed = true;
    }
    if changed {
        keep(dialog, g, config_dir);
    }
    if !open {
        dialog.open = false;
        g.map.underlay_pick = None;
    }
    browse
}

/// The Map underlay window's settings of an underlay loaded: opacity, the two alignment points
/// (typed, or picked on the map), Align, and Clear. Returns (changed, align, clear).
fn settings_ui(
    ui: &mut Ui,
    dialog: &mut UnderlayDialog,
    u: &mut Underlay,
    pick: &mut Option<usize>,
) -> (bool, bool, bool) {
    let mut changed = false;
    ui.horizontal(|ui| {
        let label = ui.label(underlay::UNDERLAY_OPACITY_LABEL);
        changed |= ui
            .add(egui::Slider::new(&mut u.settings.opacity, 0.0..=1.0))
            .labelled_by(label.id)
            .on_hover_text("How strongly the image shows through the map")
            .changed();
    });
    ui.separator();
    ui.label(RichText::new("Alignment").strong());
    ui.label(
            RichText::new(
                "Pick two points far apart on the image (click \"Pick\", then the map, or type x, y in image pixels) and say which hex each is in.",
            )
            .weak(),
        );
    for i in 0..2 {
        ui.horizontal(|ui| {
            let label = ui.label(underlay::UNDERLAY_POINT_LABELS[i]);
            ui.add(
                egui::TextEdit::singleline(&mut dialog.points[i])
                    .desired_width(90.0)
                    .hint_text("x, y"),
            )
            .labelled_by(label.id)
            .on_hover_text("Where this point is on the image (x, y in pixels)");
            let picking = *pick == Some(i);
            if ui
                .selectable_label(picking, format!("Pick point {} on the map", i + 1))
                .on_hover_text("Click the map where this point is")
                .clicked()
            {
                *pick = if picking { None } else { Some(i) };
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label(underlay::UNDERLAY_HEX_LABELS[i]);
            ui.add(
                egui::TextEdit::singleline(&mut dialog.hexes[i])
                    .desired_width(70.0)
                    .hint_text("0114"),
            )
            .labelled_by(label.id)
            .on_hover_text("The hex this point is in");
        });
    }
    let align = ui
        .button(underlay::UNDERLAY_ALIGN_LABEL)
        .on_hover_text("Line the image up with the hex grid by the points given")
        .clicked();
    let t = u.settings.transform;
    ui.label(
        RichText::new(format!(
            "{}: scale {:.4} hex radii per pixel, rotation {:.1}°",
            if u.settings.aligned {
                "Aligned"
            } else {
                "Not aligned yet (fitted to the map)"
            },
            t.scale(),
            t.rotation_degrees()
        ))
        .weak(),
    );
    ui.separator();
    let clear = ui
        .button(underlay::UNDERLAY_CLEAR_LABEL)
        .on_hover_text("Take the image away")
        .clicked();
    (changed, align, clear)
}
