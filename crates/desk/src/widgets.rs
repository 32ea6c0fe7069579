//! Small drawing pieces the panels and dialogs share: a section heading, the Undo and Redo
//! buttons, the Browse button's label.

use eframe::egui::{RichText, Ui};

use super::commands::{Command, UiCommand};

/// Label of the Browse buttons (the native file dialog).
pub const BROWSE_LABEL: &str = "Browse…";
/// Label of the Undo button.
pub const UNDO_LABEL: &str = "Undo";
/// Label of the Redo button.
pub const REDO_LABEL: &str = "Redo";

/// A section's heading, with a rule under it.
pub fn section_ui(ui: &mut Ui, title: &str) {
    ui.add_space(4.0);
    ui.label(RichText::new(title).strong().size(15.0));
    ui.separator();
}

/// The Undo and Redo buttons (the journal and the Sequence-of-Play panel both have them).
pub fn undo_redo_ui(ui: &mut Ui, queue: &mut Vec<Command>) {
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

/// Draws `add` in an area that never shrinks while it shows the same thing (`key`: the
/// procedure open, say): a form's rows below it keep their place as results, odds or derived
/// values come and go above them, instead of moving under the pointer.
pub fn steady_ui<R>(
    ui: &mut Ui,
    key: impl std::hash::Hash + std::fmt::Debug,
    add: impl FnOnce(&mut Ui) -> R,
) -> R {
    let id = ui.make_persistent_id(("steady", key));
    let kept: f32 = ui.data(|d| d.get_temp(id)).unwrap_or(0.0);
    let inner = ui.vertical(|ui| {
        ui.set_min_height(kept);
        add(ui)
    });
    let height = inner.response.rect.height();
    if height > kept {
        ui.data_mut(|d| d.insert_temp(id, height));
    }
    inner.inner
}
