//! The desk seen from a step back: View › Table size (counters and their numbers sized for
//! reading across the table, kept in the desk's settings), the whole window's text size
//! (egui's Ctrl+plus / Ctrl+minus, shown in the View menu), and which commands apply to the
//! game open (the palette and the Commands menu offer no megagame clock in a two-player hex
//! game).

use std::path::{Path, PathBuf};

use eframe::egui::{self, Ui};

use super::commands::UiCommand;
use super::game_desk::GameDesk;
use umpire_core::rules::GeometryKind;

/// Label of the View menu's Table size submenu.
pub const TABLE_SIZE_LABEL: &str = "Table size";
/// Label of the View menu's button that makes all the desk's text larger (Ctrl+plus).
pub const LARGER_TEXT_LABEL: &str = "Larger text and buttons";
/// Label of the View menu's button that makes all the desk's text smaller (Ctrl+minus).
pub const SMALLER_TEXT_LABEL: &str = "Smaller text and buttons";
/// Label of the View menu's button that puts the text back to its size (Ctrl+0).
pub const NORMAL_TEXT_LABEL: &str = "Text and buttons at their usual size";

/// How large the counters, their numbers and the map's words are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableSize {
    /// As designed for a screen at arm's length.
    #[default]
    Normal,
    /// A third larger.
    Large,
    /// Two thirds larger: read from across the table.
    VeryLarge,
}

impl TableSize {
    /// Every size, smallest first.
    pub const ALL: [TableSize; 3] = [TableSize::Normal, TableSize::Large, TableSize::VeryLarge];

    /// The size in words, for the menu.
    pub fn label(self) -> &'static str {
        match self {
            TableSize::Normal => "Normal",
            TableSize::Large => "Large",
            TableSize::VeryLarge => "Very large",
        }
    }

    /// How much larger than Normal the counters are drawn.
    pub fn factor(self) -> f32 {
        match self {
            TableSize::Normal => 1.0,
            TableSize::Large => 1.35,
            TableSize::VeryLarge => 1.7,
        }
    }

    fn key(self) -> &'static str {
        match self {
            TableSize::Normal => "normal",
            TableSize::Large => "large",
            TableSize::VeryLarge => "very large",
        }
    }

    fn from_key(key: &str) -> Option<TableSize> {
        TableSize::ALL.into_iter().find(|s| s.key() == key.trim())
    }
}

/// The desk's settings file in the config folder.
fn settings_file(config_dir: &Path) -> PathBuf {
    config_dir.join("desk-settings.txt")
}

/// The table size kept in the desk's settings (Normal when none is kept or it cannot be read).
pub fn load_table_size(config_dir: Option<&Path>) -> TableSize {
    config_dir
        .and_then(|d| std::fs::read_to_string(settings_file(d)).ok())
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("table size:"))
                .and_then(TableSize::from_key)
        })
        .unwrap_or_default()
}

/// Keeps the table size in the desk's settings; a problem is returned in words.
pub fn save_table_size(config_dir: Option<&Path>, size: TableSize) -> Result<(), String> {
    let Some(dir) = config_dir else {
        return Ok(());
    };
    let file = settings_file(dir);
    let kept = std::fs::read_to_string(&file).unwrap_or_default();
    let mut lines: Vec<String> = kept
        .lines()
        .filter(|l| !l.starts_with("table size:"))
        .map(str::to_string)
        .collect();
    lines.push(format!("table size: {}", size.key()));
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&file, lines.join("\n") + "\n"))
        .map_err(|e| format!("the desk's settings could not be kept: {e}"))
}

/// The View menu's Table size choices and the window's text size (egui's own Ctrl+plus,
/// Ctrl+minus and Ctrl+0, named here so that they are found). Returns a size picked.
pub fn view_size_ui(ui: &mut Ui, current: TableSize) -> Option<TableSize> {
    let mut picked = None;
    ui.menu_button(TABLE_SIZE_LABEL, |ui| {
        for s in TableSize::ALL {
            if ui
                .add(egui::Button::selectable(s == current, s.label()))
                .on_hover_text(s.label())
                .clicked()
            {
                picked = Some(s);
                ui.close();
            }
        }
    })
    .response
    .on_hover_text("How large the counters and their numbers are drawn on the map");
    let ctx = ui.ctx().clone();
    let shortcut = |s: &egui::KeyboardShortcut| ctx.format_shortcut(s);
    use egui::gui_zoom::kb_shortcuts::{ZOOM_IN, ZOOM_OUT, ZOOM_RESET};
    if ui
        .add(egui::Button::new(LARGER_TEXT_LABEL).shortcut_text(shortcut(&ZOOM_IN)))
        .on_hover_text("The whole window larger: text, buttons and panels")
        .clicked()
    {
        egui::gui_zoom::zoom_in(&ctx);
    }
    if ui
        .add(egui::Button::new(SMALLER_TEXT_LABEL).shortcut_text(shortcut(&ZOOM_OUT)))
        .on_hover_text("The whole window smaller")
        .clicked()
    {
        egui::gui_zoom::zoom_out(&ctx);
    }
    if ui
        .add(egui::Button::new(NORMAL_TEXT_LABEL).shortcut_text(shortcut(&ZOOM_RESET)))
        .on_hover_text("The whole window back to its usual size")
        .clicked()
    {
        ctx.set_zoom_factor(1.0);
    }
    picked
}

/// Whether a command applies to the game open (`None`: no game): the megagame clock and
/// ledgers only in a megagame (the clock only where the ruleset has one), the map's zoom,
/// underlay and counters only on a hex map, the sealed orders and the reveals only where the
/// ruleset has them, and nothing of a game's when no game is open.
pub fn applies(command: &UiCommand, game: Option<&GameDesk>) -> bool {
    let Some(g) = game else {
        return !command.needs_game();
    };
    let ruleset = g.game().ruleset();
    match command {
        UiCommand::ClockStart
        | UiCommand::ClockHold
        | UiCommand::ClockResume
        | UiCommand::ClockAdvance => g.megagame.is_some() && ruleset.clock().is_some(),
        UiCommand::Ledgers => g.megagame.is_some(),
        UiCommand::ZoomIn
        | UiCommand::ZoomOut
        | UiCommand::ResetView
        | UiCommand::ToggleCounters
        | UiCommand::MapUnderlay => g.live.geometry() == GeometryKind::Hex,
        UiCommand::RevealOrders => !ruleset.orders.is_empty(),
        UiCommand::RevealContacts => !ruleset.visibility.reveals.is_empty(),
        UiCommand::SeeAsNextSide => !g.game().scenario().sides.is_empty(),
        _ => true,
    }
}
