//! File → Players' view…: serve the open game to the players' phones (the umpire-serve crate) — off until
//! the umpire starts it, on the LAN address the umpire chooses; a QR code, a link and a short
//! code per side; new links (the old ones refused from then on) at a click.

use std::path::{Path, PathBuf};

use eframe::egui::{self, Color32, RichText, Ui};

use umpire_core::rules::Library;
use umpire_serve::{Link, ServeOptions, Server};

/// The label of the address field.
pub const PLAYERS_BIND_LABEL: &str = "Listen on";
/// The button that starts serving.
pub const PLAYERS_START_LABEL: &str = "Start the players' view";
/// The button that stops it.
pub const PLAYERS_STOP_LABEL: &str = "Stop";
/// The button that replaces every link.
pub const PLAYERS_ROTATE_LABEL: &str = "New links";

/// The dialog and the server it runs.
pub struct PlayersView {
    /// Whether the dialog is open.
    pub open: bool,
    /// The address and port, as typed.
    pub bind: String,
    /// The most phones following at once.
    pub max_connections: usize,
    server: Option<(Server, PathBuf)>,
    message: Option<String>,
}

impl Default for PlayersView {
    fn default() -> PlayersView {
        PlayersView {
            open: false,
            // This machine's LAN address, or the loopback address without a network.
            bind: format!(
                "{}:8080",
                umpire_serve::lan_address()
                    .map_or_else(|| "127.0.0.1".to_string(), |ip| ip.to_string())
            ),
            max_connections: 64,
            server: None,
            message: None,
        }
    }
}

impl std::fmt::Debug for PlayersView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayersView")
            .field("open", &self.open)
            .field("bind", &self.bind)
            .field(
                "serving",
                &self.server.as_ref().map(|(s, p)| (s.addr, p.clone())),
            )
            .finish()
    }
}

impl PlayersView {
    /// The links being served (empty when off).
    pub fn links(&self) -> &[Link] {
        self.server.as_ref().map_or(&[], |(s, _)| &s.links)
    }

    /// Starts serving the game at `path` (stopping what was served).
    pub fn start(&mut self, path: &Path, library: &Library) {
        self.stop();
        let bind = match self.bind.trim().parse() {
            Ok(b) => b,
            Err(_) => {
                self.message = Some(format!(
                    "'{}' is not an address and port (192.168.1.20:8080)",
                    self.bind.trim()
                ));
                return;
            }
        };
        match Server::start(
            &path.to_string_lossy(),
            library.clone(),
            &ServeOptions {
                bind,
                max_connections: self.max_connections,
            },
        ) {
            Ok(server) => {
                // A port of 0 was given: show the one chosen.
                self.bind = server.addr.to_string();
                self.message = (!server.links_kept).then(|| {
                    "This game is open for reading only: its links cannot be kept, and serving it again gives new ones.".to_string()
                });
                self.server = Some((server, path.to_path_buf()));
            }
            Err(e) => self.message = Some(e),
        }
    }

    /// Stops serving.
    pub fn stop(&mut self) {
        if let Some((server, _)) = self.server.take() {
            server.stop();
        }
    }

    /// The dialog.
    pub fn dialog_ui(&mut self, ui: &Ui, game: Option<&Path>, library: &Library) {
        if !self.open {
            return;
        }
        let ctx = ui.ctx().clone();
        let mut open = self.open;
        egui::Window::new("Players' view")
            .open(&mut open)
            .default_width(460.0)
            .vscroll(true)
            .show(&ctx, |ui| {
                ui.label(
                    "Each side follows the game on its own phones over this room's network: \
                     its side only, read-only, live. Off until you start it.",
                );
                ui.horizontal(|ui| {
                    let label = ui.label(PLAYERS_BIND_LABEL);
                    ui.add_enabled(
                        self.server.is_none(),
                        egui::TextEdit::singleline(&mut self.bind).desired_width(170.0),
                    )
                    .labelled_by(label.id)
                    .on_hover_text("The address and port the players' phones connect to");
                });
                match (&self.server, game) {
                    (None, Some(path)) => {
                        if ui
                            .button(RichText::new(PLAYERS_START_LABEL).strong())
                            .on_hover_text("Start serving the game to the players' phones")
                            .clicked()
                        {
                            let path = path.to_path_buf();
                            self.start(&path, library);
                        }
                    }
                    (None, None) => {
                        ui.label(RichText::new("Open a game first.").weak());
                    }
                    (Some((server, served)), _) => {
                        ui.label(format!(
                            "Serving {} on http://{}",
                            served.file_name().map_or_else(
                                || served.display().to_string(),
                                |f| f.to_string_lossy().into_owned()
                            ),
                            server.addr
                        ));
                        let mut rotate = false;
                        let mut stop = false;
                        ui.horizontal(|ui| {
                            rotate = ui
                                .button(PLAYERS_ROTATE_LABEL)
                                .on_hover_text("Every old link is refused from now on")
                                .clicked();
                            stop = ui
                                .button(PLAYERS_STOP_LABEL)
                                .on_hover_text("Stop serving the game to the players")
                                .clicked();
                        });
                        for link in &server.links {
                            ui.separator();
                            ui.label(RichText::new(&link.name).strong().size(16.0));
                            ui.horizontal(|ui| {
                                qr_ui(ui, &link.url);
                                ui.vertical(|ui| {
                                    ui.label(RichText::new(&link.url).monospace());
                                    ui.label(format!("Code {}", link.short_code()));
                                    if ui.small_button("Copy the link").clicked() {
                                        ui.ctx().copy_text(link.url.clone());
                                    }
                                });
                            });
                        }
                        let served = served.clone();
                        if rotate {
                            // A restart on the same port, with new tokens (the kept ones
                            // forgotten first).
                            match umpire_serve::forget_links(&served.to_string_lossy(), library) {
                                Ok(()) => self.start(&served, library),
                                Err(e) => self.message = Some(e),
                            }
                        } else if stop {
                            self.stop();
                        }
                    }
                }
                if let Some(m) = &self.message {
                    ui.label(RichText::new(m).color(ui.visuals().error_fg_color));
                }
            });
        self.open = open;
    }
}

/// A QR code of `text`, painted module by module (dark on white, with its quiet zone).
fn qr_ui(ui: &mut Ui, text: &str) {
    let Ok(code) = qrcode::QrCode::new(text.as_bytes()) else {
        return;
    };
    let width = code.width();
    let colors = code.to_colors();
    let quiet = 2;
    let modules = width + 2 * quiet;
    let scale = (150.0 / modules as f32).floor().max(2.0);
    let size = egui::vec2(modules as f32 * scale, modules as f32 * scale);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    for (i, c) in colors.iter().enumerate() {
        if *c == qrcode::Color::Dark {
            let (x, y) = ((i % width + quiet) as f32, (i / width + quiet) as f32);
            painter.rect_filled(
                egui::Rect::from_min_size(
                    rect.min + egui::vec2(x * scale, y * scale),
                    egui::vec2(scale, scale),
                ),
                0.0,
                Color32::BLACK,
            );
        }
    }
    response.on_hover_text(text);
}
