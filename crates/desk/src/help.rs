//! Help: **Getting started** (the first game's steps, from `docs/first-game.md`, each with the
//! keys it takes), **Keys** (every keyboard shortcut, from the commands themselves), and the
//! note shown when the desk starts on an empty data folder and makes a new game.

use std::path::PathBuf;

use eframe::egui::{self, RichText, Ui, text::LayoutJob};

use super::commands::UiCommand;

/// The first game's steps as the desk shows them (Help › Getting started): markdown, one
/// numbered step each, a `Keys:` line naming the commands (by their label) or other keys (by
/// what they do, see [`OTHER_KEYS`]) the step takes.
pub const FIRST_GAME: &str = include_str!("../../../docs/first-game.md");

/// Label of Help › Getting started, and its window's title.
pub const GETTING_STARTED_LABEL: &str = "Getting started";
/// Label of Help › Keys, and its window's title.
pub const KEYS_LABEL: &str = "Keys";
/// Title of the note shown on the first start.
pub const WELCOME_TITLE: &str = "Welcome to Umpire";
/// The first-start note's button that closes it.
pub const WELCOME_CLOSE_LABEL: &str = "Close this note";
/// Between a key and what it does in the Keys window and the steps ("N — Next step").
pub const KEY_SEPARATOR: &str = " — ";

/// The keys the desk handles outside its commands: what they do, and the key.
pub const OTHER_KEYS: [(&str, OtherKey); 6] = [
    ("Pan the map", OtherKey::Text("Arrow keys")),
    ("Larger text and buttons", OtherKey::Zoom(ZoomKey::In)),
    ("Smaller text and buttons", OtherKey::Zoom(ZoomKey::Out)),
    ("Use the dice typed", OtherKey::Text("Enter")),
    ("Add the note typed", OtherKey::Text("Enter")),
    ("Close the command palette", OtherKey::Text("Escape")),
];

/// A key the desk handles outside its commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OtherKey {
    /// Named as is.
    Text(&'static str),
    /// One of egui's window zoom shortcuts (named as this platform writes it).
    Zoom(ZoomKey),
}

/// egui's own window zoom shortcuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoomKey {
    /// The whole window larger.
    In,
    /// The whole window smaller.
    Out,
}

impl OtherKey {
    /// The key in words for this platform.
    pub fn text(self, ctx: &egui::Context) -> String {
        use egui::gui_zoom::kb_shortcuts::{ZOOM_IN, ZOOM_OUT};
        match self {
            OtherKey::Text(t) => t.to_string(),
            OtherKey::Zoom(ZoomKey::In) => ctx.format_shortcut(&ZOOM_IN),
            OtherKey::Zoom(ZoomKey::Out) => ctx.format_shortcut(&ZOOM_OUT),
        }
    }
}

/// The key for a command named by its label, or for another key named by what it does.
pub fn key_for(ctx: &egui::Context, words: &str) -> Option<String> {
    let command = UiCommand::ALL
        .iter()
        .find(|c| c.label() == words)
        .and_then(|c| c.shortcut().map(|s| ctx.format_shortcut(&s)));
    command.or_else(|| {
        OTHER_KEYS
            .iter()
            .find(|(w, _)| *w == words)
            .map(|(_, k)| k.text(ctx))
    })
}

/// Every key the desk handles, as (key, what it does): the commands' shortcuts in menu order,
/// then [`OTHER_KEYS`].
pub fn key_rows(ctx: &egui::Context) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = UiCommand::ALL
        .iter()
        .filter_map(|c| {
            c.shortcut()
                .map(|s| (ctx.format_shortcut(&s), c.label().to_string()))
        })
        .collect();
    rows.extend(
        OTHER_KEYS
            .iter()
            .map(|(words, key)| (key.text(ctx), (*words).to_string())),
    );
    rows
}

/// One step of the first game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Its number as printed.
    pub number: u32,
    /// Its title, e.g. "Do the Next thing." (the bold start of the step).
    pub title: String,
    /// The rest of its text (markdown: `**bold**`, `` `code` ``).
    pub text: String,
    /// What its `Keys:` line names (commands' labels, other keys' words).
    pub keys: Vec<String>,
}

/// The numbered steps of a markdown text such as [`FIRST_GAME`] (or the README's section).
pub fn steps(markdown: &str) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    // Whether the last step is still open to continuation lines.
    let mut open = false;
    for line in markdown.lines() {
        let trimmed = line.trim();
        let indented = line.starts_with(' ');
        if trimmed.is_empty() {
            continue;
        }
        if let Some(keys) = trimmed.strip_prefix("Keys:")
            && open
            && let Some(step) = out.last_mut()
        {
            step.keys = keys
                .split(';')
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(str::to_string)
                .collect();
            continue;
        }
        let numbered = trimmed
            .split_once(". ")
            .and_then(|(n, rest)| n.parse::<u32>().ok().map(|n| (n, rest)))
            .filter(|_| !indented);
        if let Some((number, rest)) = numbered {
            let (title, text) = match rest.strip_prefix("**").and_then(|r| r.split_once("**")) {
                Some((title, text)) => (title.to_string(), text.trim().to_string()),
                None => (String::new(), rest.to_string()),
            };
            out.push(Step {
                number,
                title,
                text,
                keys: Vec::new(),
            });
            open = true;
        } else if indented && open {
            if let Some(step) = out.last_mut() {
                step.text.push(' ');
                step.text.push_str(trimmed);
            }
        } else {
            // Any other line ends the list.
            open = false;
        }
    }
    out
}

/// Markdown's `**bold**` and `` `code` `` as a layout: bold in the strong text colour, code
/// in monospace.
fn rich(ui: &Ui, markdown: &str) -> LayoutJob {
    let body = egui::TextStyle::Body.resolve(ui.style());
    let mono = egui::TextStyle::Monospace.resolve(ui.style());
    let normal = ui.visuals().text_color();
    let strong = ui.visuals().strong_text_color();
    let mut job = LayoutJob::default();
    job.wrap.max_width = ui.available_width();
    let (mut bold, mut code) = (false, false);
    let mut rest = markdown;
    while !rest.is_empty() {
        let next = [rest.find("**"), rest.find('`')]
            .into_iter()
            .flatten()
            .min();
        let (piece, marker) = match next {
            Some(at) => (&rest[..at], Some(&rest[at..])),
            None => (rest, None),
        };
        let format = egui::TextFormat {
            font_id: if code { mono.clone() } else { body.clone() },
            color: if bold { strong } else { normal },
            ..Default::default()
        };
        job.append(piece, 0.0, format);
        rest = match marker {
            Some(m) if m.starts_with("**") => {
                bold = !bold;
                &m[2..]
            }
            Some(m) => {
                code = !code;
                &m[1..]
            }
            None => "",
        };
    }
    job
}

/// A key and what it does, as one line ("N — Next step"), the key in the strong colour.
fn key_line(ui: &Ui, key: &str, words: &str) -> LayoutJob {
    let body = egui::TextStyle::Body.resolve(ui.style());
    let mut job = LayoutJob::default();
    let format = |color| egui::TextFormat {
        font_id: body.clone(),
        color,
        ..Default::default()
    };
    job.append(key, 0.0, format(ui.visuals().strong_text_color()));
    job.append(
        &format!("{KEY_SEPARATOR}{words}"),
        0.0,
        format(ui.visuals().text_color()),
    );
    job
}

/// The Getting started window's contents: each step, its text and its keys.
fn getting_started_ui(ui: &mut Ui) {
    ui.label("Your first game, step by step. Every action goes into the game file at once.");
    ui.add_space(4.0);
    egui::ScrollArea::vertical()
        .max_height(560.0)
        .show(ui, |ui| {
            let ctx = ui.ctx().clone();
            for step in steps(FIRST_GAME) {
                ui.label(RichText::new(format!("{}. {}", step.number, step.title)).strong());
                ui.label(rich(ui, &step.text));
                for words in &step.keys {
                    if let Some(key) = key_for(&ctx, words) {
                        ui.label(key_line(ui, &key, words));
                    }
                }
                ui.add_space(6.0);
            }
        });
}

/// The Keys window's contents: every key the desk handles, then the mouse.
fn keys_ui(ui: &mut Ui) {
    ui.label("Plain keys do nothing while a text field has the keyboard.");
    egui::ScrollArea::vertical()
        .max_height(560.0)
        .show(ui, |ui| {
            for (key, words) in key_rows(ui.ctx()) {
                ui.label(key_line(ui, &key, &words));
            }
            ui.add_space(6.0);
            ui.label(RichText::new("The mouse").strong());
            for line in MOUSE {
                ui.label(line);
            }
        });
}

/// What the mouse does on the map and the journal.
const MOUSE: [&str; 6] = [
    "Click a stack: select it (the Counters panel shows it).",
    "Drag the selected stack onto a hex: the whole Force moves as one entry; with Shift held, the selected counter alone.",
    "Right-click a counter: its menu (Inspect, Move…, Split off…, Change by hand…, Resolve with it).",
    "Any other drag, or the middle button: pan the map.",
    "The wheel: zoom the map.",
    "Click a journal entry: its whole explanation.",
];

/// Which help windows are open, and the first-start note.
#[derive(Debug, Default)]
pub struct Help {
    /// Help › Getting started is open.
    pub getting_started: bool,
    /// Help › Keys is open.
    pub keys: bool,
    /// The first-start note, while it is shown.
    pub welcome: Option<Welcome>,
}

/// What the first-start note says: the game the desk made and where it is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Welcome {
    /// The scenario's title.
    pub title: String,
    /// The game file.
    pub path: PathBuf,
}

impl Help {
    /// The Help menu's entries (About is the shell's).
    pub fn menu_ui(&mut self, ui: &mut Ui) {
        if ui
            .button(GETTING_STARTED_LABEL)
            .on_hover_text("The first game's steps, with the keys each takes")
            .clicked()
        {
            self.getting_started = true;
            ui.close();
        }
        if ui
            .button(KEYS_LABEL)
            .on_hover_text("Every key the desk answers to, and what the mouse does")
            .clicked()
        {
            self.keys = true;
            ui.close();
        }
    }

    /// The help windows and the first-start note, those open.
    pub fn windows_ui(&mut self, ctx: &egui::Context) {
        if self.getting_started {
            egui::Window::new(GETTING_STARTED_LABEL)
                .open(&mut self.getting_started)
                .default_width(560.0)
                .show(ctx, getting_started_ui);
        }
        if self.keys {
            egui::Window::new(KEYS_LABEL)
                .open(&mut self.keys)
                .default_width(420.0)
                .show(ctx, keys_ui);
        }
        let mut open_steps = false;
        if let Some(welcome) = &self.welcome {
            let mut open = true;
            let mut close = false;
            egui::Window::new(WELCOME_TITLE)
                .open(&mut open)
                .collapsible(false)
                .default_width(520.0)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                .show(ctx, |ui| {
                    (open_steps, close) = welcome_ui(ui, welcome);
                });
            if !open || close || open_steps {
                self.welcome = None;
            }
        }
        if open_steps {
            self.getting_started = true;
        }
    }
}

/// The first-start note: what the desk opened, where it is kept, how to start another game.
/// Returns (Getting started pressed, Close pressed).
fn welcome_ui(ui: &mut Ui, welcome: &Welcome) -> (bool, bool) {
    let new_game = UiCommand::NewGame;
    let ctx = ui.ctx().clone();
    let key = |c: &UiCommand| {
        let k = c.shortcut_text(&ctx);
        if k.is_empty() { k } else { format!(" ({k})") }
    };
    ui.label(format!(
        "This is the desk's first start: there was no game yet, so it made a new game of \
         “{}” for you.",
        welcome.title
    ));
    ui.label("The game is kept in:");
    ui.label(RichText::new(welcome.path.display().to_string()).monospace());
    ui.label(
        "Every action is written to that file as you make it: there is nothing to save, and \
         the desk opens on it next time.",
    );
    ui.label(format!(
        "To start another game: File › {}{}. To open a game file: File › {}{}.",
        new_game.label(),
        key(&new_game),
        UiCommand::OpenGame.label(),
        key(&UiCommand::OpenGame),
    ));
    ui.label(format!(
        "Help › {GETTING_STARTED_LABEL} walks through a first game; Help › {KEYS_LABEL} lists \
         every key."
    ));
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        let steps = ui
            .button(GETTING_STARTED_LABEL)
            .on_hover_text("Close this note and show the first game's steps")
            .clicked();
        let close = ui
            .button(WELCOME_CLOSE_LABEL)
            .on_hover_text("Close this note and play; Help keeps the steps")
            .clicked();
        (steps, close)
    })
    .inner
}
