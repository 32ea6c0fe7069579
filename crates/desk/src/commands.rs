//! Every user action of the desk, with its label and keyboard shortcut. Buttons, menus, the
//! command palette and the keyboard all queue [`Command`]s; the desk applies them once per
//! frame, after drawing.

use eframe::egui::{Key, KeyboardShortcut, Modifiers};

use umpire_core::game::Edit;
use umpire_core::game::scenario::Position;

/// A user action. The actions on a game that need more than a key press carry what they act
/// on (counters and a place, an item and a reason, …): the map, the board, the panels and the
/// tests all queue the same command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Move counters as one entry (a stack, a Force, a split-off group, one counter).
    Move {
        /// The counters (ids).
        counters: Vec<String>,
        /// Where to.
        to: Position,
    },
    /// Skip a pending item, with the reason.
    Skip {
        /// The item's key.
        item: String,
        /// Why.
        reason: String,
    },
    /// Record a pending item that credits an amount (scheduled APs).
    Credit {
        /// The item's key.
        item: String,
    },
    /// Replace the result of a resolution, with the reason.
    Override {
        /// The resolution's entry.
        of: u64,
        /// The outcome that stands.
        outcome: String,
        /// Why.
        reason: String,
    },
    /// A note in the journal.
    Note(String),
    /// Work a deck of cards or a cup of markers (draw, fill, refill…).
    Deck {
        /// The deck's id.
        deck: String,
        /// Whose, for decks each side keeps.
        owner: Option<String>,
        /// What to do.
        op: umpire_core::game::DeckOp,
    },
    /// Put a counter in a role of the open procedure (attacker, defender…).
    AddToRole {
        /// The role.
        role: String,
        /// The counter (id).
        counter: String,
    },
    /// Take a counter out of a role.
    RemoveFromRole {
        /// The role.
        role: String,
        /// The counter (id).
        counter: String,
    },
    /// A hand change of a counter (strength, status marker, taken off…), with a note.
    Edit {
        /// The counter (id).
        counter: String,
        /// What changes.
        edit: Edit,
        /// Why (optional).
        note: Option<String>,
    },
    /// Put a new counter on the table.
    AddCounter {
        /// Its name.
        name: String,
        /// Its side (id).
        side: String,
        /// Unit, leader or marker.
        kind: umpire_core::game::scenario::CounterKind,
        /// Where.
        at: Position,
        /// Attributes, NAME → VALUE as typed.
        attributes: Vec<(String, String)>,
        /// Why (optional).
        note: Option<String>,
    },
    /// Open a procedure in the resolve panel.
    OpenProcedure(String),
    /// Use a chart code the text does not name, confirmed as printed on the umpire's chart.
    ConfirmChartResult,
    /// Undo the last action in the game.
    Undo,
    /// Redo the last undone action.
    Redo,
    /// Advance the Sequence of Play.
    Next,
    /// Step back in the Sequence of Play.
    Back,
    /// Throw the app dice for the open procedure.
    Roll,
    /// Resolve with the physical dice typed.
    UsePhysical,
    /// Finish a throw with the result read off the chart.
    UseChartResult,
    /// Apply the proposed effects of the last resolution.
    ApplyEffects,
    /// Move the selected counter to the place typed.
    MoveSelected,
    /// Clear the selection.
    Deselect,
    /// Show the command palette.
    Palette,
    /// Start a new game.
    NewGame,
    /// Open a game file.
    OpenGame,
    /// Show the game.
    ShowGame,
    /// Show the procedure desk (one procedure at a time, no game).
    ShowProcedures,
    /// Zoom the map in.
    ZoomIn,
    /// Zoom the map out.
    ZoomOut,
    /// Fit the map to the window.
    ResetView,
    /// Print a turn report, the scenario sheet or the chart sheets as PDF.
    Print,
    /// File → Players' view…: serve the game to the players' phones.
    PlayersView,
    /// Verify the game file (every app roll and result re-derived).
    VerifyGame,
    /// Export the journal as JSON lines.
    ExportGame,
    /// Edit a table's cells into the transcription layer.
    ChartEditor,
    /// Show a photo or scan of the physical map under the hex grid.
    MapUnderlay,
    /// Start the megagame phase clock where the Sequence of Play is.
    ClockStart,
    /// Hold the phase clock.
    ClockHold,
    /// Let the held phase clock run again.
    ClockResume,
    /// End the clock's phase now: the next phase starts, the Sequence of Play follows.
    ClockAdvance,
    /// Show or hide the megagame ledgers.
    Ledgers,
    /// Show everything, as the umpire sees it (the default view).
    SeeAsUmpire,
    /// Show the game as the next side sees it (after the last side, the umpire's view again).
    SeeAsNextSide,
    /// Show the game as the scenario's side at this index sees it (the View menu's choices).
    SeeAsSide(u8),
    /// Record the reveals the ruleset calls for at this step (e.g. D.1 Intelligence).
    RevealContacts,
    /// Show or hide the counters on the map (to read the map underlay beneath them).
    ToggleCounters,
    /// Open the selected counter's hand changes (strength, markers, order, taken off).
    HandChanges,
}

impl Command {
    /// Every command, in menu order.
    pub const ALL: [Command; 34] = [
        Command::Undo,
        Command::Redo,
        Command::Next,
        Command::Back,
        Command::Roll,
        Command::UsePhysical,
        Command::UseChartResult,
        Command::ApplyEffects,
        Command::MoveSelected,
        Command::Deselect,
        Command::Palette,
        Command::NewGame,
        Command::OpenGame,
        Command::ShowGame,
        Command::ShowProcedures,
        Command::ZoomIn,
        Command::ZoomOut,
        Command::ResetView,
        Command::Print,
        Command::PlayersView,
        Command::VerifyGame,
        Command::ExportGame,
        Command::ChartEditor,
        Command::MapUnderlay,
        Command::ClockStart,
        Command::ClockHold,
        Command::ClockResume,
        Command::ClockAdvance,
        Command::Ledgers,
        Command::SeeAsUmpire,
        Command::SeeAsNextSide,
        Command::RevealContacts,
        Command::ToggleCounters,
        Command::HandChanges,
    ];

    /// What the command does, for menus and the palette.
    pub fn label(&self) -> &'static str {
        match self {
            Command::Undo => "Undo",
            Command::Redo => "Redo",
            Command::Next => "Next step",
            Command::Back => "Previous step",
            Command::Roll => "Roll the app dice",
            Command::UsePhysical => "Use the physical dice",
            Command::UseChartResult => "Use the chart result",
            Command::ApplyEffects => "Apply the effects",
            Command::MoveSelected => "Move the selected counter",
            Command::Deselect => "Clear the selection",
            Command::Palette => "Command palette",
            Command::NewGame => "New game…",
            Command::OpenGame => "Open game…",
            Command::ShowGame => "Show the game",
            Command::ShowProcedures => "Show the procedure desk",
            Command::ZoomIn => "Zoom in",
            Command::ZoomOut => "Zoom out",
            Command::ResetView => "Fit the map",
            Command::Print => "Print…",
            Command::PlayersView => "Players' view…",
            Command::VerifyGame => "Verify the game",
            Command::ExportGame => "Export the journal…",
            Command::ChartEditor => "Chart editor…",
            Command::MapUnderlay => "Map underlay…",
            Command::ClockStart => "Start the clock",
            Command::ClockHold => "Hold the clock",
            Command::ClockResume => "Resume the clock",
            Command::ClockAdvance => "Advance to the next phase",
            Command::Ledgers => "Ledgers",
            Command::SeeAsUmpire => "As seen by: the umpire",
            Command::SeeAsNextSide => "As seen by: the next side",
            Command::SeeAsSide(_) => "As seen by a side",
            Command::RevealContacts => "Reveal the counters in contact",
            Command::ToggleCounters => "Show or hide the counters",
            Command::HandChanges => "Change the selected counter by hand",
            Command::Move { .. } => "Move counters",
            Command::Skip { .. } => "Skip an item",
            Command::Credit { .. } => "Credit a scheduled amount",
            Command::Override { .. } => "Override a result",
            Command::Note(_) => "Add a note",
            Command::Deck { .. } => "Work a deck or cup",
            Command::AddToRole { .. } => "Add a counter to a role",
            Command::RemoveFromRole { .. } => "Take a counter out of a role",
            Command::Edit { .. } => "Change a counter by hand",
            Command::OpenProcedure(_) => "Open a procedure",
            Command::AddCounter { .. } => "Add a counter",
            Command::ConfirmChartResult => "Use the chart code as printed",
        }
    }

    /// Its keyboard shortcut, if any.
    pub fn shortcut(&self) -> Option<KeyboardShortcut> {
        let k = |modifiers, key| Some(KeyboardShortcut::new(modifiers, key));
        let cmd_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        match self {
            Command::Undo => k(Modifiers::COMMAND, Key::Z),
            Command::Redo => k(cmd_shift, Key::Z),
            Command::Next => k(Modifiers::NONE, Key::N),
            Command::Back => k(Modifiers::NONE, Key::B),
            Command::Roll => k(Modifiers::NONE, Key::R),
            Command::ApplyEffects => k(Modifiers::NONE, Key::A),
            Command::Deselect => k(Modifiers::NONE, Key::Escape),
            Command::Palette => k(Modifiers::COMMAND, Key::K),
            Command::NewGame => k(Modifiers::COMMAND, Key::N),
            Command::OpenGame => k(Modifiers::COMMAND, Key::O),
            Command::ShowGame => k(Modifiers::NONE, Key::F1),
            Command::ShowProcedures => k(Modifiers::NONE, Key::F2),
            Command::ZoomIn => k(Modifiers::NONE, Key::Plus),
            Command::ZoomOut => k(Modifiers::NONE, Key::Minus),
            Command::ResetView => k(Modifiers::NONE, Key::Num0),
            Command::Print => k(Modifiers::COMMAND, Key::P),
            Command::PlayersView => None,
            Command::VerifyGame => k(cmd_shift, Key::V),
            Command::ExportGame => k(cmd_shift, Key::E),
            Command::ChartEditor => k(Modifiers::COMMAND, Key::E),
            Command::MapUnderlay => k(Modifiers::COMMAND, Key::U),
            Command::ClockStart => k(Modifiers::NONE, Key::F5),
            Command::ClockHold => k(Modifiers::NONE, Key::F6),
            Command::ClockResume => k(Modifiers::NONE, Key::F7),
            Command::ClockAdvance => k(Modifiers::NONE, Key::F8),
            Command::Ledgers => k(Modifiers::COMMAND | Modifiers::SHIFT, Key::L),
            Command::SeeAsNextSide => k(Modifiers::NONE, Key::F9),
            Command::ToggleCounters => k(Modifiers::NONE, Key::H),
            Command::HandChanges => k(Modifiers::NONE, Key::E),
            Command::UsePhysical
            | Command::UseChartResult
            | Command::MoveSelected
            | Command::SeeAsUmpire
            | Command::SeeAsSide(_)
            | Command::RevealContacts
            | Command::Move { .. }
            | Command::Skip { .. }
            | Command::Credit { .. }
            | Command::Override { .. }
            | Command::Note(_)
            | Command::Deck { .. }
            | Command::AddToRole { .. }
            | Command::RemoveFromRole { .. }
            | Command::Edit { .. }
            | Command::OpenProcedure(_)
            | Command::AddCounter { .. }
            | Command::ConfirmChartResult => None,
        }
    }

    /// Whether the shortcut may fire while a text field has the keyboard (plain keys may not).
    pub fn works_while_typing(&self) -> bool {
        matches!(
            self,
            Command::Palette
                | Command::NewGame
                | Command::OpenGame
                | Command::Print
                | Command::PlayersView
                | Command::VerifyGame
                | Command::ExportGame
                | Command::ChartEditor
                | Command::MapUnderlay
                | Command::ClockStart
                | Command::ClockHold
                | Command::ClockResume
                | Command::ClockAdvance
                | Command::Ledgers
        )
    }

    /// Whether the command needs an open game.
    pub fn needs_game(&self) -> bool {
        !matches!(
            self,
            Command::Palette
                | Command::NewGame
                | Command::OpenGame
                | Command::ShowProcedures
                | Command::ShowGame
                | Command::Print
                | Command::ChartEditor
        )
    }

    /// The commands whose shortcuts were pressed this frame (consumed from the input), the
    /// more specific shortcuts first so that Ctrl+Shift+Z is not taken for Ctrl+Z.
    pub fn pressed(ctx: &eframe::egui::Context) -> Vec<Command> {
        let typing = ctx.egui_wants_keyboard_input();
        let mut all: Vec<(Command, KeyboardShortcut)> = Command::ALL
            .iter()
            .filter_map(|c| c.shortcut().map(|s| (c.clone(), s)))
            .collect();
        all.sort_by_key(|(_, s)| {
            std::cmp::Reverse(
                u8::from(s.modifiers.shift)
                    + u8::from(s.modifiers.command)
                    + u8::from(s.modifiers.ctrl)
                    + u8::from(s.modifiers.alt),
            )
        });
        let mut out = Vec::new();
        ctx.input_mut(|i| {
            for (c, s) in &all {
                if typing && !c.works_while_typing() {
                    continue;
                }
                if i.consume_shortcut(s) {
                    out.push(c.clone());
                }
            }
        });
        out
    }

    /// The shortcut in words for this platform ("Ctrl+Z").
    pub fn shortcut_text(&self, ctx: &eframe::egui::Context) -> String {
        self.shortcut()
            .map_or_else(String::new, |s| ctx.format_shortcut(&s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortcuts_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for c in Command::ALL {
            if let Some(s) = c.shortcut() {
                assert!(
                    seen.insert((s.modifiers.command, s.modifiers.shift, s.logical_key)),
                    "{c:?}"
                );
            }
        }
    }
}
