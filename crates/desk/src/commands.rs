//! Every user action of the desk. Buttons, menus, the command palette and the keyboard all
//! queue [`Command`]s; the desk applies them once per frame, after drawing. A command is either
//! one of the desk's own ([`UiCommand`]: undo and redo, zoom, dialogs, the selection, the
//! resolve panel's buttons…, each with its label and keyboard shortcut) or an engine
//! [`Action`] a panel built ([`Command::Act`]), which the game desk records through
//! [`umpire_core::game::Game::act`] and whose outcome the panels that built it react to.

use eframe::egui::{Key, KeyboardShortcut, Modifiers};

use umpire_core::game::Action;
use umpire_core::game::names::CounterId;
use umpire_core::game::scenario::Position;

/// What a button, a menu, the palette, a key or a test asks of the desk.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// One of the desk's own commands.
    Ui(UiCommand),
    /// One of the desk's own commands asked for by a key (its shortcut, Enter in a field): a
    /// key may be pressed with the eyes elsewhere, so R and Enter resolve only a procedure
    /// opened at this step, where a click on Roll resolves the form shown.
    Key(UiCommand),
    /// An action on the game, as the engine takes it (counters by [`umpire_core::game::names::CounterId`]):
    /// a move, a skip, a credit, an override, a note, a deck, a hand change, a new counter….
    Act(Action),
}

impl From<UiCommand> for Command {
    fn from(c: UiCommand) -> Command {
        Command::Ui(c)
    }
}

impl From<Action> for Command {
    fn from(a: Action) -> Command {
        Command::Act(a)
    }
}

impl Command {
    /// What the command does, in words (an action's kind for [`Command::Act`]).
    pub fn label(&self) -> &'static str {
        match self {
            Command::Ui(c) | Command::Key(c) => c.label(),
            Command::Act(a) => action_label(a),
        }
    }
}

/// Counters moved as one entry, as the engine takes it: one counter's [`Action::Move`], else
/// one [`Action::MoveStack`] (a stack, a Force, a split-off group).
pub fn move_action(ids: &[String], to: Position) -> Action {
    match ids {
        [one] => Action::Move {
            counter: CounterId::new(one.as_str()),
            to,
        },
        _ => Action::MoveStack {
            counters: ids.iter().map(|id| CounterId::new(id.as_str())).collect(),
            to,
        },
    }
}

/// An engine action in words, as the desk's commands name them.
pub fn action_label(action: &Action) -> &'static str {
    match action {
        Action::Move { .. } | Action::MoveStack { .. } => "Move counters",
        Action::Skip { .. } => "Skip an item",
        Action::Credit { .. } => "Credit a scheduled amount",
        Action::Override { .. } => "Override a result",
        Action::Note { .. } => "Add a note",
        Action::Deck { .. } => "Work a deck or cup",
        Action::Edit { .. } => "Change a counter by hand",
        Action::AddCounter { .. } => "Add a counter",
        Action::AddWith { .. } => "Raise an army",
        Action::Record(_) => "Record for Control",
        Action::Undo => UiCommand::Undo.label(),
        Action::Redo => UiCommand::Redo.label(),
        Action::Next => UiCommand::Next.label(),
        Action::Back => UiCommand::Back.label(),
        Action::Enter { .. } => "Go to a step",
        Action::ApplyEffects { .. } => UiCommand::ApplyEffects.label(),
        Action::Transcribe { .. } => "Record a transcription",
        _ => "Act on the game",
    }
}

/// The desk's own commands: those with a label and, most, a keyboard shortcut (the palette
/// lists [`UiCommand::ALL`]), and those the panels queue with what they act on (a role and a
/// counter, a procedure, a counter to select…).
#[derive(Debug, Clone, PartialEq)]
pub enum UiCommand {
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
    /// Open a procedure in the resolve panel.
    OpenProcedure(String),
    /// Open an item's procedure in the resolve panel, answering that item (a side's scheduled
    /// roll, a Force's activation).
    OpenItem {
        /// The procedure (id).
        procedure: String,
        /// The item (its key).
        item: String,
    },
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
    /// Go into a step the current one offers (a branch, or a step to repeat), by its id.
    EnterStep(String),
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
    /// File › Save as scenario: the organiser's set-up as a scenario file.
    SaveScenario,
    /// File › Import set-up: the organiser's sheets (CSV) merged into the scenario.
    ImportSetup,
    /// File › Counter values: the values printed on the counters that the text does not give,
    /// given once for every counter of a name.
    CounterValues,
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
    /// Select a counter (None: clear the selection), from the map, the board or a list.
    Select(Option<String>),
    /// Split a counter off its stack in the stack inspector (or put it back).
    Split {
        /// The counter (id).
        counter: String,
        /// Whether it is split off.
        on: bool,
    },
    /// Show a problem a panel found in what was typed, as the desk's message.
    Problem(String),
    /// Sign an umpire in with a Control role (a shared game's sign-in window).
    SignIn(umpire_core::megagame::remit::SignedIn),
    /// Settle an offline action the server held back as a clash: send it anyway, or drop it
    /// (the journal notes the drop).
    SettleHeld {
        /// Which held action (its place in the list).
        index: usize,
        /// Send it (else drop it).
        send: bool,
    },
    /// Record the action refused for going below a floor, with the reason typed.
    GoBelowFloor,
    /// Set the time left in the clock's phase to what is typed.
    ClockSet,
    /// Step the Sequence of Play when the clock's phase has run out.
    ClockTick,
    /// Seal the orders a side handed in on paper, as typed in the Sealed orders panel.
    SealOrders {
        /// The kind of order (its id).
        order: String,
        /// The side (its id).
        side: String,
    },
    /// Reveal the orders sealed at this step, as the rules say.
    RevealOrders,
}

impl UiCommand {
    /// Every command, in menu order.
    pub const ALL: [UiCommand; 38] = [
        UiCommand::Undo,
        UiCommand::Redo,
        UiCommand::Next,
        UiCommand::Back,
        UiCommand::Roll,
        UiCommand::UsePhysical,
        UiCommand::UseChartResult,
        UiCommand::ApplyEffects,
        UiCommand::MoveSelected,
        UiCommand::Deselect,
        UiCommand::Palette,
        UiCommand::NewGame,
        UiCommand::OpenGame,
        UiCommand::ShowGame,
        UiCommand::ShowProcedures,
        UiCommand::ZoomIn,
        UiCommand::ZoomOut,
        UiCommand::ResetView,
        UiCommand::Print,
        UiCommand::PlayersView,
        UiCommand::VerifyGame,
        UiCommand::ExportGame,
        UiCommand::SaveScenario,
        UiCommand::ImportSetup,
        UiCommand::CounterValues,
        UiCommand::ChartEditor,
        UiCommand::MapUnderlay,
        UiCommand::ClockStart,
        UiCommand::ClockHold,
        UiCommand::ClockResume,
        UiCommand::ClockAdvance,
        UiCommand::Ledgers,
        UiCommand::SeeAsUmpire,
        UiCommand::SeeAsNextSide,
        UiCommand::RevealContacts,
        UiCommand::RevealOrders,
        UiCommand::ToggleCounters,
        UiCommand::HandChanges,
    ];

    /// What the command does, for menus and the palette.
    pub fn label(&self) -> &'static str {
        match self {
            UiCommand::Undo => "Undo",
            UiCommand::Redo => "Redo",
            UiCommand::Next => "Next step",
            UiCommand::Back => "Previous step",
            UiCommand::Roll => "Roll the app dice",
            UiCommand::UsePhysical => "Use the physical dice",
            UiCommand::UseChartResult => "Use the chart result",
            UiCommand::ApplyEffects => "Apply the effects",
            UiCommand::MoveSelected => "Move the selected counter",
            UiCommand::Deselect => "Clear the selection",
            UiCommand::Palette => "Command palette",
            UiCommand::NewGame => "New game…",
            UiCommand::OpenGame => "Open game…",
            UiCommand::ShowGame => "Show the game",
            UiCommand::ShowProcedures => "Show the procedure desk",
            UiCommand::ZoomIn => "Zoom the map in",
            UiCommand::ZoomOut => "Zoom the map out",
            UiCommand::ResetView => "Fit the map",
            UiCommand::Print => "Print…",
            UiCommand::PlayersView => "Players' view…",
            UiCommand::VerifyGame => "Verify the game",
            UiCommand::ExportGame => "Export the journal…",
            UiCommand::SaveScenario => "Save as scenario…",
            UiCommand::ImportSetup => "Import set-up…",
            UiCommand::CounterValues => "Counter values…",
            UiCommand::ChartEditor => "Chart editor…",
            UiCommand::MapUnderlay => "Map underlay…",
            UiCommand::ClockStart => "Start the clock",
            UiCommand::ClockHold => "Hold the clock",
            UiCommand::ClockResume => "Resume the clock",
            UiCommand::ClockAdvance => "Advance to the next phase",
            UiCommand::Ledgers => "Ledgers",
            UiCommand::SeeAsUmpire => "As seen by: the umpire",
            UiCommand::SeeAsNextSide => "As seen by: the next side",
            UiCommand::SeeAsSide(_) => "As seen by a side",
            UiCommand::RevealContacts => "Reveal the counters in contact",
            UiCommand::ToggleCounters => "Show or hide the counters",
            UiCommand::HandChanges => "Change the selected counter by hand",
            UiCommand::AddToRole { .. } => "Add a counter to a role",
            UiCommand::RemoveFromRole { .. } => "Take a counter out of a role",
            UiCommand::OpenProcedure(_) => "Open a procedure",
            UiCommand::OpenItem { .. } => "Resolve an item of the step",
            UiCommand::EnterStep(_) => "Go to a step",
            UiCommand::ConfirmChartResult => "Use the chart code as printed",
            UiCommand::Select(_) => "Select a counter",
            UiCommand::Split { .. } => "Split a counter off its stack",
            UiCommand::Problem(_) => "Show a problem",
            UiCommand::SignIn(_) => "Sign in",
            UiCommand::SettleHeld { .. } => "Settle a held action",
            UiCommand::GoBelowFloor => "Go below anyway",
            UiCommand::ClockSet => "Set the time left",
            UiCommand::ClockTick => "Follow the clock",
            UiCommand::SealOrders { .. } => "Seal orders handed in on paper",
            UiCommand::RevealOrders => "Reveal the sealed orders",
        }
    }

    /// What the command does, a sentence for its tooltip in menus and the palette.
    pub fn hint(&self) -> &'static str {
        match self {
            UiCommand::Undo => "Take back the last action in the game (the journal keeps both)",
            UiCommand::Redo => "Do again the action last taken back",
            UiCommand::Next => {
                "Go on to the next step of the Sequence of Play that needs you (refused while a \
                 mandatory item is open)"
            }
            UiCommand::Back => "Go back one step in the Sequence of Play",
            UiCommand::Roll => "Throw the app's own dice for the procedure open",
            UiCommand::UsePhysical => "Resolve with the faces of your own dice, as typed",
            UiCommand::UseChartResult => "Finish the throw with the result you read off your chart",
            UiCommand::ApplyEffects => "Put the last result's effects on the counters",
            UiCommand::MoveSelected => "Move the selected counter to the hex or box typed",
            UiCommand::Deselect => "Select no counter",
            UiCommand::Palette => "Find any command by typing part of its name",
            UiCommand::NewGame => "Start a new game of a scenario",
            UiCommand::OpenGame => "Open a game file (.umpire) or a shared game",
            UiCommand::ShowGame => "Show the game: Sequence of Play, map, Resolve panel, journal",
            UiCommand::ShowProcedures => {
                "Show the procedure desk: one procedure at a time, outside any game"
            }
            UiCommand::ZoomIn => "Zoom the map in",
            UiCommand::ZoomOut => "Zoom the map out",
            UiCommand::ResetView => "Fit the whole map in the window",
            UiCommand::Print => {
                "Print the turn report, one side's report, the scenario sheet or the chart cards \
                 as PDF"
            }
            UiCommand::PlayersView => {
                "Show the game on the players' phones, each side its own view"
            }
            UiCommand::VerifyGame => "Check every roll and result in the game file again",
            UiCommand::ExportGame => "Write every journal entry to a file, as JSON lines",
            UiCommand::SaveScenario => "Save the organiser's set-up as a scenario file",
            UiCommand::ImportSetup => "Merge the organiser's sheets (CSV) into the scenario",
            UiCommand::CounterValues => {
                "Give the values printed on the counters that the rule text does not give (a Troop Quality, an Initiative)"
            }
            UiCommand::ChartEditor => "Type in a table's cells that the rule text does not print",
            UiCommand::MapUnderlay => "Show a photo or scan of your map under the hex grid",
            UiCommand::ClockStart => "Start the phase clock where the Sequence of Play is",
            UiCommand::ClockHold => "Hold the phase clock",
            UiCommand::ClockResume => "Let the held phase clock run again",
            UiCommand::ClockAdvance => "End this phase now: the next one starts",
            UiCommand::Ledgers => "Show or hide the megagame's ledgers",
            UiCommand::SeeAsUmpire => "Show everything, as the umpire sees it",
            UiCommand::SeeAsNextSide => "Show the game as the next side sees it",
            UiCommand::SeeAsSide(_) => "Show the game as this side sees it",
            UiCommand::RevealContacts => "Record the reveals the rules call for at this step",
            UiCommand::ToggleCounters => "Show or hide the counters, to read the map beneath",
            UiCommand::HandChanges => {
                "Change the selected counter by hand (strength, markers, order)"
            }
            UiCommand::AddToRole { .. } => "Put this counter in this role of the procedure",
            UiCommand::RemoveFromRole { .. } => "Take this counter out of the role",
            UiCommand::OpenProcedure(_) => "Open this procedure in the Resolve panel",
            UiCommand::OpenItem { .. } => "Open this item's procedure in the Resolve panel",
            UiCommand::EnterStep(_) => "Go into this step",
            UiCommand::ConfirmChartResult => "Use the code as your printed chart gives it",
            UiCommand::Select(_) => "Select this counter",
            UiCommand::Split { .. } => "Split this counter off its stack, or put it back",
            UiCommand::Problem(_) => "Show the problem",
            UiCommand::SignIn(_) => "Sign in with this Control role",
            UiCommand::SettleHeld { .. } => "Send the held action anyway, or drop it",
            UiCommand::GoBelowFloor => "Record the action below its floor, with the reason typed",
            UiCommand::ClockSet => "Set the time left in this phase to what is typed",
            UiCommand::ClockTick => "Step the Sequence of Play when the phase has run out",
            UiCommand::SealOrders { .. } => "Seal the orders this side handed in on paper",
            UiCommand::RevealOrders => "Reveal the orders sealed at this step, as the rules say",
        }
    }

    /// Its keyboard shortcut, if any.
    pub fn shortcut(&self) -> Option<KeyboardShortcut> {
        let k = |modifiers, key| Some(KeyboardShortcut::new(modifiers, key));
        let cmd_shift = Modifiers::COMMAND | Modifiers::SHIFT;
        match self {
            UiCommand::Undo => k(Modifiers::COMMAND, Key::Z),
            UiCommand::Redo => k(cmd_shift, Key::Z),
            UiCommand::Next => k(Modifiers::NONE, Key::N),
            UiCommand::Back => k(Modifiers::NONE, Key::B),
            UiCommand::Roll => k(Modifiers::NONE, Key::R),
            UiCommand::ApplyEffects => k(Modifiers::NONE, Key::A),
            UiCommand::Deselect => k(Modifiers::NONE, Key::Escape),
            UiCommand::Palette => k(Modifiers::COMMAND, Key::K),
            UiCommand::NewGame => k(Modifiers::COMMAND, Key::N),
            UiCommand::OpenGame => k(Modifiers::COMMAND, Key::O),
            UiCommand::ShowGame => k(Modifiers::NONE, Key::F1),
            UiCommand::ShowProcedures => k(Modifiers::NONE, Key::F2),
            UiCommand::ZoomIn => k(Modifiers::NONE, Key::Plus),
            UiCommand::ZoomOut => k(Modifiers::NONE, Key::Minus),
            UiCommand::ResetView => k(Modifiers::NONE, Key::Num0),
            UiCommand::Print => k(Modifiers::COMMAND, Key::P),
            UiCommand::PlayersView
            | UiCommand::SaveScenario
            | UiCommand::ImportSetup
            | UiCommand::CounterValues => None,
            UiCommand::VerifyGame => k(cmd_shift, Key::V),
            UiCommand::ExportGame => k(cmd_shift, Key::E),
            UiCommand::ChartEditor => k(Modifiers::COMMAND, Key::E),
            UiCommand::MapUnderlay => k(Modifiers::COMMAND, Key::U),
            UiCommand::ClockStart => k(Modifiers::NONE, Key::F5),
            UiCommand::ClockHold => k(Modifiers::NONE, Key::F6),
            UiCommand::ClockResume => k(Modifiers::NONE, Key::F7),
            UiCommand::ClockAdvance => k(Modifiers::NONE, Key::F8),
            UiCommand::Ledgers => k(Modifiers::COMMAND | Modifiers::SHIFT, Key::L),
            UiCommand::SeeAsNextSide => k(Modifiers::NONE, Key::F9),
            UiCommand::ToggleCounters => k(Modifiers::NONE, Key::H),
            UiCommand::HandChanges => k(Modifiers::NONE, Key::E),
            UiCommand::UsePhysical
            | UiCommand::UseChartResult
            | UiCommand::MoveSelected
            | UiCommand::SeeAsUmpire
            | UiCommand::SeeAsSide(_)
            | UiCommand::RevealContacts
            | UiCommand::SealOrders { .. }
            | UiCommand::RevealOrders
            | UiCommand::AddToRole { .. }
            | UiCommand::RemoveFromRole { .. }
            | UiCommand::OpenProcedure(_)
            | UiCommand::OpenItem { .. }
            | UiCommand::EnterStep(_)
            | UiCommand::ConfirmChartResult
            | UiCommand::Select(_)
            | UiCommand::Split { .. }
            | UiCommand::Problem(_)
            | UiCommand::SignIn(_)
            | UiCommand::SettleHeld { .. }
            | UiCommand::GoBelowFloor
            | UiCommand::ClockSet
            | UiCommand::ClockTick => None,
        }
    }

    /// Whether the shortcut may fire while a text field has the keyboard (plain keys may not).
    pub fn works_while_typing(&self) -> bool {
        matches!(
            self,
            UiCommand::Palette
                | UiCommand::NewGame
                | UiCommand::OpenGame
                | UiCommand::Print
                | UiCommand::PlayersView
                | UiCommand::VerifyGame
                | UiCommand::ExportGame
                | UiCommand::ChartEditor
                | UiCommand::MapUnderlay
                | UiCommand::ClockStart
                | UiCommand::ClockHold
                | UiCommand::ClockResume
                | UiCommand::ClockAdvance
                | UiCommand::Ledgers
        )
    }

    /// Whether the command resolves the procedure open in the resolve panel (throws or
    /// finishes its dice).
    pub fn resolves(&self) -> bool {
        matches!(
            self,
            UiCommand::Roll | UiCommand::UsePhysical | UiCommand::UseChartResult
        )
    }

    /// Whether the command needs an open game.
    pub fn needs_game(&self) -> bool {
        !matches!(
            self,
            UiCommand::Palette
                | UiCommand::NewGame
                | UiCommand::OpenGame
                | UiCommand::ShowProcedures
                | UiCommand::ShowGame
                | UiCommand::Print
                | UiCommand::ChartEditor
        )
    }

    /// The commands whose shortcuts were pressed this frame (consumed from the input), the
    /// more specific shortcuts first so that Ctrl+Shift+Z is not taken for Ctrl+Z.
    pub fn pressed(ctx: &eframe::egui::Context) -> Vec<UiCommand> {
        let typing = ctx.egui_wants_keyboard_input();
        let mut all: Vec<(UiCommand, KeyboardShortcut)> = UiCommand::ALL
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
        for c in UiCommand::ALL {
            if let Some(s) = c.shortcut() {
                assert!(
                    seen.insert((s.modifiers.command, s.modifiers.shift, s.logical_key)),
                    "{c:?}"
                );
            }
        }
    }
}
