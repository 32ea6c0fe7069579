//! The desk on a shared game (a game on a PostgreSQL server): other desks' events taken in as
//! they are announced, the state of the link shown at all times (and the desk working offline on
//! what its role owns while the link is down), who the desk is signed in as (the server login's
//! umpire: the server holds every entry to it), and the offline actions that clashed with
//! another desk's change, for the umpire to settle. [`SharedView`] keeps the link's state and
//! its windows; it works on the [`LiveGame`] it is the link of.

use std::time::{Duration, Instant};

use eframe::egui::{self, Color32, RichText, Ui};

use super::commands::{Command, UiCommand};
use super::live::LiveGame;
use umpire_core::game::scenario::ControlRole;
use umpire_core::game::{Game, Location};
use umpire_core::megagame::People;
use umpire_core::megagame::remit::SignedIn;
use umpire_server::{Listener, Signal, listen};

/// Hover text of the link's status dot.
pub const LINK_LABEL: &str = "Link to the server";
/// Text of the status line while the link is live ("Shared game … — live").
pub const LIVE_TEXT: &str = "— live";
/// Start of the status line while the link is down.
pub const LINK_LOST_TEXT: &str = "Link to the server lost";
/// Title of the sign-in window.
pub const SIGN_IN_TITLE: &str = "Sign in";
/// Label of the name field of the sign-in window.
pub const SIGN_IN_NAME_LABEL: &str = "Your name";
/// Start of the sign-in button's text ("Sign in as Anna (Map Control, the_east)").
pub const SIGN_IN_BUTTON: &str = "Sign in";
/// Said after the umpire's name and role in the sign-in window when the server login gives them.
pub const FROM_LOGIN_TEXT: &str = "(from the server login)";
/// Title of the held-actions window.
pub const HELD_TITLE: &str = "Offline actions to settle";

/// The link of a desk on a shared game.
pub struct SharedView {
    listener: Listener,
    /// Whether the listener is connected.
    pub up: bool,
    /// When the link dropped, if it is down.
    pub down_since: Option<Instant>,
    /// Why, as the listener said.
    pub down_why: Option<String>,
    /// Whether the sign-in window is open.
    pub show_sign_in: bool,
    /// Whether the held-actions window is open.
    pub show_held: bool,
    name: String,
    role: ControlRole,
    table: String,
    reason: String,
}

impl SharedView {
    /// The view for a game on a server, or None for a game file. Starts the listener and the
    /// offline queue (kept in the user data folder, one file a game).
    pub fn for_game(game: &mut Game) -> Option<SharedView> {
        let Location::Server(address) = Location::parse(&game.location()).ok()? else {
            return None;
        };
        let queue = super::files::games_dir()
            .join("offline")
            .join(queue_file_name(&address.display()));
        // A queue that cannot be read leaves the game usable online; the error is shown.
        let queue_error = game.use_offline_queue(queue).err();
        let listener = listen(&address);
        Some(SharedView {
            listener,
            up: true,
            down_since: None,
            down_why: queue_error.map(|e| e.to_string()),
            show_sign_in: true,
            show_held: false,
            name: String::new(),
            role: ControlRole::Map,
            table: String::new(),
            reason: String::new(),
        })
    }
}

/// The offline queue's file name for a game on a server: its URL (password left out), with
/// anything but letters and digits made `_`, so two servers' games of one name stay apart.
pub fn queue_file_name(shown_url: &str) -> String {
    let rest = shown_url
        .trim_start_matches("postgresql://")
        .trim_start_matches("postgres://");
    // The login's name only: the same game has one queue whether its URL carries the password
    // (hidden as •••) or the password comes from ~/.pgpass.
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let rest = match rest[..authority_end].rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{user}@{host}{}", &rest[authority_end..])
        }
        None => rest.to_string(),
    };
    let safe: String = rest
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("{safe}.json")
}

/// Signs an umpire in (what the sign-in window does). On a server that knows its umpires the
/// desk is who it logged in as: another name or role is refused, saying who the login is.
pub fn sign_in(live: &mut LiveGame, who: SignedIn) -> Result<(), String> {
    if let Some(login) = live.game().login() {
        let by_login = SignedIn::from_login(login)?;
        if by_login != who {
            return Err(format!(
                "on a shared game you are who you log in as — {} is {}",
                login.user,
                by_login.by()
            ));
        }
    }
    live.signed_in = Some(who);
    Ok(())
}

/// The umpire the server login belongs to, signed in at once (no name or role to pick).
fn sign_in_from_login(live: &mut LiveGame) {
    if live.signed_in.is_none()
        && let Some(who) = live
            .game()
            .login()
            .and_then(|l| SignedIn::from_login(l).ok())
    {
        live.signed_in = Some(who);
    }
}

impl SharedView {
    /// Takes in what the server announced since the last frame; shows the link's state, the
    /// sign-in and the held actions. Call once a frame, before the game's panels.
    pub fn ui(&mut self, ui: &mut Ui, live: &mut LiveGame, queue: &mut Vec<Command>) {
        let view = self;
        sign_in_from_login(live);
        let mut moved = false;
        let mut came_back = false;
        for signal in view.listener.try_iter() {
            match signal {
                Signal::Moved(n) => moved |= n as usize > live.game().events().len(),
                Signal::Down(why) => {
                    view.up = false;
                    view.down_since.get_or_insert_with(Instant::now);
                    view.down_why = Some(why);
                }
                Signal::Up => {
                    came_back |= !view.up;
                    view.up = true;
                    view.down_since = None;
                    view.down_why = None;
                }
            }
        }
        if came_back || moved || (view.up && live.game().queued() > 0) {
            let up = view.up;
            live.take_in(|g| {
                g.set_link_up(up);
                if !up {
                    return Ok(None);
                }
                let report = g.sync()?;
                Ok((report.sent > 0 || report.held > 0).then(|| {
                    format!(
                        "link back: {} offline action(s) sent{}",
                        report.sent,
                        if report.held > 0 {
                            format!(", {} clash(es) to settle", report.held)
                        } else {
                            String::new()
                        }
                    )
                }))
            });
            if !live.game().held().is_empty() {
                view.show_held = true;
            }
        } else if !view.up {
            live.take_in(|g| {
                g.set_link_up(false);
                Ok(None)
            });
        }
        egui::Panel::top("shared_link").show(ui, |ui| link_bar(ui, live, view));
        if view.show_sign_in {
            sign_in_window(ui.ctx(), live, view, queue);
        }
        if view.show_held {
            held_window(ui.ctx(), live, view, queue);
        }
        // Live: look for signals several times a second, even with no input.
        ui.ctx().request_repaint_after(Duration::from_millis(200));
    }
}

fn link_bar(ui: &mut Ui, desk: &mut LiveGame, view: &mut SharedView) {
    ui.horizontal(|ui| {
        let game = desk.game();
        let queued = game.queued();
        let (dot, text) = match view.down_since {
            None if queued == 0 => (
                Color32::from_rgb(40, 140, 60),
                format!("Shared game {} {LIVE_TEXT}", game.location()),
            ),
            None => (
                Color32::from_rgb(200, 130, 0),
                format!("Link back — sending {queued} offline action(s)…"),
            ),
            Some(since) => (
                Color32::from_rgb(190, 30, 30),
                format!(
                    "{LINK_LOST_TEXT} {} s ago — working offline on what your role owns: {queued} action(s) queued{}",
                    since.elapsed().as_secs(),
                    view.down_why
                        .as_deref()
                        .map_or_else(String::new, |w| format!(" ({w})"))
                ),
            ),
        };
        ui.label(RichText::new("●").color(dot))
            .on_hover_text(LINK_LABEL);
        ui.label(RichText::new(text).color(dot).strong());
        ui.separator();
        let who = desk
            .signed_in
            .as_ref()
            .map_or_else(|| "not signed in".to_string(), SignedIn::by);
        let hover = if game.login().is_some() {
            "Who the server login is, and the reason for actions at Control's discretion"
        } else {
            "Sign in with a name and a Control role"
        };
        if ui.button(format!("{who}…")).on_hover_text(hover).clicked() {
            view.show_sign_in = true;
        }
        let held = game.held().len();
        if held > 0
            && ui
                .button(RichText::new(format!("{held} to settle")).color(Color32::from_rgb(190, 30, 30)))
                .on_hover_text("Actions the server held back as clashes: send or drop each").clicked()
        {
            view.show_held = true;
        }
    });
}

fn sign_in_window(
    ctx: &egui::Context,
    desk: &mut LiveGame,
    view: &mut SharedView,
    queue: &mut Vec<Command>,
) {
    if desk.game().login().is_some() {
        login_window(ctx, desk, view);
        return;
    }
    let people = People::of(desk.game());
    let tables: Vec<String> = people.tables.iter().map(|t| t.id.clone()).collect();
    let mut open = true;
    let mut signed = None;
    egui::Window::new(SIGN_IN_TITLE)
        .open(&mut open)
        .collapsible(false)
        .show(ctx, |ui| {
            ui.label("Every event records who made it; actions are held to the role's remit.");
            ui.horizontal(|ui| {
                let label = ui.label(SIGN_IN_NAME_LABEL);
                ui.text_edit_singleline(&mut view.name)
                    .labelled_by(label.id);
            });
            egui::ComboBox::from_label("Control role")
                .selected_text(view.role.label())
                .show_ui(ui, |ui| {
                    for r in ControlRole::ALL {
                        ui.selectable_value(&mut view.role, r, r.label())
                            .on_hover_text("Sign in with this role");
                    }
                })
                .response
                .on_hover_text("The Control role you sign in with");
            if view.role == ControlRole::Map {
                if view.table.is_empty()
                    && let Some(t) = tables.first()
                {
                    view.table = t.clone();
                }
                egui::ComboBox::from_label("Map table")
                    .selected_text(view.table.clone())
                    .show_ui(ui, |ui| {
                        for t in &tables {
                            ui.selectable_value(&mut view.table, t.clone(), t)
                                .on_hover_text("This map table");
                        }
                    })
                    .response
                    .on_hover_text("The map table you run");
            }
            ui.horizontal(|ui| {
                let label = ui.label("Reason for an action at Control's discretion");
                ui.text_edit_singleline(&mut view.reason)
                    .labelled_by(label.id);
            });
            let text = match view.role {
                ControlRole::Map => format!("{}:map:{}", view.name.trim(), view.table),
                r => format!("{}:{}", view.name.trim(), r.id()),
            };
            match SignedIn::parse(&text) {
                Ok(who) => {
                    if ui
                        .button(format!("{SIGN_IN_BUTTON} as {}", who.by()))
                        .on_hover_text("Sign in with this Control role")
                        .clicked()
                    {
                        signed = Some(who);
                    }
                }
                Err(e) => {
                    ui.label(RichText::new(e).color(Color32::from_rgb(190, 30, 30)));
                }
            }
        });
    let reason = view.reason.trim().to_string();
    desk.reason = (!reason.is_empty()).then_some(reason);
    if let Some(who) = signed.clone() {
        queue.push(Command::Ui(UiCommand::SignIn(who)));
    }
    view.show_sign_in = open && signed.is_none();
}

/// The sign-in window on a server that knows its umpires: who the login is, and the reason for
/// actions at Control's discretion.
fn login_window(ctx: &egui::Context, desk: &mut LiveGame, view: &mut SharedView) {
    let mut open = true;
    let who = desk
        .signed_in
        .as_ref()
        .map_or_else(|| "nobody".to_string(), SignedIn::by);
    let user = desk
        .game()
        .login()
        .map(|l| l.user.clone())
        .unwrap_or_default();
    egui::Window::new(SIGN_IN_TITLE)
        .open(&mut open)
        .collapsible(false)
        .show(ctx, |ui| {
            ui.label(format!("Signed in as {who} {FROM_LOGIN_TEXT} '{user}'."));
            ui.label(
                "Every event records who made it; the server holds each action to the role's remit.",
            );
            ui.horizontal(|ui| {
                let label = ui.label("Reason for an action at Control's discretion");
                ui.text_edit_singleline(&mut view.reason)
                    .labelled_by(label.id);
            });
        });
    let reason = view.reason.trim().to_string();
    desk.reason = (!reason.is_empty()).then_some(reason);
    view.show_sign_in = open;
}

fn held_window(
    ctx: &egui::Context,
    desk: &mut LiveGame,
    view: &mut SharedView,
    queue: &mut Vec<Command>,
) {
    let mut open = true;
    let mut choice = None;
    egui::Window::new(HELD_TITLE)
        .open(&mut open)
        .show(ctx, |ui| {
            let held = desk.game().held();
            if held.is_empty() {
                ui.label("Nothing to settle.");
            }
            for (i, h) in held.iter().enumerate() {
                ui.group(|ui| {
                    ui.label(format!(
                        "Recorded offline: {}",
                        h.events
                            .iter()
                            .map(|e| super::live::describe_event(desk, e))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ));
                    ui.label(
                        RichText::new(format!(
                            "Another desk changed meanwhile: {}",
                            h.clashes
                                .iter()
                                .map(|c| umpire_core::game::describe::Words::of(desk.game())
                                    .clash(c))
                                .collect::<Vec<_>>()
                                .join("; ")
                        ))
                        .color(Color32::from_rgb(190, 30, 30)),
                    );
                    ui.horizontal(|ui| {
                        if ui
                            .button("Send mine anyway")
                            .on_hover_text("Send your held action to the server anyway")
                            .clicked()
                        {
                            choice = Some((i, true));
                        }
                        if ui
                            .button("Drop mine")
                            .on_hover_text("Drop your held action (the journal notes it)")
                            .clicked()
                        {
                            choice = Some((i, false));
                        }
                    });
                });
            }
        });
    if let Some((index, send)) = choice {
        queue.push(Command::Ui(UiCommand::SettleHeld { index, send }));
    }
    view.show_held = open && !desk.game().held().is_empty();
}

/// Settles the offline action held back as a clash at `index`: sends it anyway, or drops it
/// (the journal notes the drop). Returns whether it was settled; a refusal is the desk's message.
pub(crate) fn settle_held(live: &mut LiveGame, index: usize, send: bool) -> bool {
    let Some(actor) = live.actor_or_message() else {
        return false;
    };
    let mut settled = false;
    live.take_in(|g| {
        g.settle(&actor, index, send)?;
        settled = true;
        Ok(Some(if send {
            "offline action sent".to_string()
        } else {
            "offline action dropped (noted in the journal)".to_string()
        }))
    });
    settled
}

/// Title of the window that asks for a server login's password.
pub const PASSWORD_TITLE: &str = "Server password";
/// Label of its password field.
pub const PASSWORD_LABEL: &str = "Password";

/// A server game to open once its login's password is typed: the URL had none, and neither the
/// password file (`~/.pgpass`) nor this desk knew it.
pub struct PasswordPrompt {
    /// The game's location, as typed in Open.
    pub path: std::path::PathBuf,
    target: umpire_server::pgpass::Target,
    password: String,
    /// Why the password file was passed over, if it was.
    note: Option<String>,
}

/// Never shows the password typed so far.
impl std::fmt::Debug for PasswordPrompt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PasswordPrompt")
            .field("path", &self.path)
            .field("target", &self.target)
            .field("password", &"***")
            .finish()
    }
}

impl PasswordPrompt {
    /// The prompt a game at `path` needs before it can be opened, if any (a file needs none).
    pub fn needed(path: &std::path::Path) -> Option<PasswordPrompt> {
        use umpire_server as server;
        let Ok(Location::Server(address)) = Location::parse(&path.to_string_lossy()) else {
            return None;
        };
        let note = match server::known_password(&address) {
            Ok(Some(_)) => return None,
            Ok(None) => None,
            Err(why) => Some(why),
        };
        let target = server::target(&address).ok()?;
        Some(PasswordPrompt {
            path: path.to_path_buf(),
            target,
            password: String::new(),
            note,
        })
    }

    /// Asks for the password; returns the game's location once it is given (kept by this
    /// desk only, never written), None while the window is up. `open` goes false on Cancel.
    pub fn ui(&mut self, ctx: &egui::Context, open: &mut bool) -> Option<std::path::PathBuf> {
        let mut done = false;
        egui::Window::new(PASSWORD_TITLE)
            .open(open)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label(format!("The server asks {} for a password.", self.target));
                if let Some(note) = &self.note {
                    ui.label(RichText::new(note).color(Color32::from_rgb(190, 30, 30)));
                }
                ui.horizontal(|ui| {
                    let label = ui.label(PASSWORD_LABEL);
                    let field = ui
                        .add(egui::TextEdit::singleline(&mut self.password).password(true))
                        .labelled_by(label.id)
                        .on_hover_text("The password of the game's login");
                    done |= field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                });
                ui.label("Kept by this desk until it closes; put it in ~/.pgpass not to be asked.");
                done |= ui
                    .button("Sign in")
                    .on_hover_text("Sign in to the shared game")
                    .clicked();
            });
        if !done || self.password.is_empty() {
            return None;
        }
        umpire_server::pgpass::remember(&self.target, &self.password);
        self.password.clear();
        Some(self.path.clone())
    }
}
