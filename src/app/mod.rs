//! The desk (eframe/egui). Thin: views over the engine.
//!
//! [`Desk`] holds the state and the actions (no drawing, no rules: the engine in
//! [`crate::resolve`] does all the adjudication); its `*_ui` methods draw it into any
//! [`egui::Ui`]; [`DeskApp`] is the eframe glue; [`run`] opens the window.

mod desk;
mod view;

use std::cell::RefCell;
use std::rc::Rc;

use anyhow::anyhow;
use eframe::egui;

pub use desk::{
    DerivedRow, Desk, LogEntry, ModifierRow, PendingChart, Preview, clock, describe_rolls,
    outcome_text, split_faces,
};
pub use view::{
    CHART_RESULT_LABEL, PHYSICAL_DICE_LABEL, RESULT_PREFIX, ROLL_LABEL, USE_CHART_LABEL,
    USE_PHYSICAL_LABEL,
};

use crate::rules::Library;

/// Title of the desk window.
pub const WINDOW_TITLE: &str = "Umpire";

/// The environment variable that forces a renderer: `glow` or `wgpu`.
pub const RENDERER_ENV: &str = "UMPIRE_RENDERER";

/// The eframe application: a [`Desk`] drawn into the root viewport.
#[derive(Debug)]
pub struct DeskApp {
    /// The desk's state.
    pub desk: Desk,
}

impl DeskApp {
    /// Wraps a desk for eframe (sets up the look of the window on `cc`).
    pub fn new(cc: &eframe::CreationContext<'_>, desk: Desk) -> DeskApp {
        install_fonts(&cc.egui_ctx);
        cc.egui_ctx.all_styles_mut(|style| {
            use egui::{FontFamily, FontId, TextStyle};
            // A little larger than egui's defaults: the desk is read across a gaming table.
            for (text_style, size, family) in [
                (TextStyle::Small, 11.0, FontFamily::Proportional),
                (TextStyle::Body, 14.0, FontFamily::Proportional),
                (TextStyle::Button, 14.0, FontFamily::Proportional),
                (TextStyle::Monospace, 13.0, FontFamily::Monospace),
                (TextStyle::Heading, 21.0, FontFamily::Proportional),
            ] {
                style
                    .text_styles
                    .insert(text_style, FontId::new(size, family));
            }
            style.spacing.item_spacing = egui::vec2(8.0, 5.0);
            style.spacing.button_padding = egui::vec2(8.0, 3.0);
        });
        DeskApp { desk }
    }
}

impl eframe::App for DeskApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.desk.desk_ui(ui);
    }
}

/// Installs the desk's fonts: egui's built-in ones, with the built-in Hack font as a fallback
/// for proportional text. The engine writes `→ − × ≤ ≥ ⌊ ⌋` and the like, which the default
/// proportional font (Ubuntu Light) lacks; Hack has them, so no glyph is ever drawn as a box.
pub fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    if fonts.font_data.contains_key(FALLBACK_FONT)
        && let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional)
        && !family.iter().any(|f| f == FALLBACK_FONT)
    {
        let at = family
            .iter()
            .position(|f| f == "Ubuntu-Light")
            .map_or(0, |i| i + 1);
        family.insert(at, FALLBACK_FONT.to_string());
    }
    ctx.set_fonts(fonts);
}

/// The built-in font that covers the engine's symbols.
const FALLBACK_FONT: &str = "Hack";

/// Which renderer `UMPIRE_RENDERER` asks for (None: try wgpu, then glow).
fn forced_renderer() -> anyhow::Result<Option<eframe::Renderer>> {
    match std::env::var(RENDERER_ENV) {
        Err(_) => Ok(None),
        Ok(v) => match v.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(None),
            "wgpu" => Ok(Some(eframe::Renderer::Wgpu)),
            "glow" | "gl" | "opengl" => Ok(Some(eframe::Renderer::Glow)),
            other => Err(anyhow!("{RENDERER_ENV}={other}: use glow or wgpu")),
        },
    }
}

/// Opens the desk window on the rulesets under `rules` (or the shipped ones) and returns
/// when it is closed.
///
/// The window is drawn with wgpu; when wgpu cannot create it (no usable adapter, no surface),
/// it is opened again with glow (OpenGL). `UMPIRE_RENDERER=glow|wgpu` forces one renderer.
pub fn run(library: Library) -> anyhow::Result<()> {
    let forced = forced_renderer()?;
    // The desk waits here until eframe asks for it, so that it survives a renderer that fails
    // before the app is created and can be handed to the next one.
    let waiting = Rc::new(RefCell::new(Some(Desk::new(library))));
    let order = match forced {
        Some(r) => vec![r],
        None => vec![eframe::Renderer::Wgpu, eframe::Renderer::Glow],
    };
    let mut failures = Vec::new();
    for renderer in order {
        match open_window(renderer, &waiting) {
            Ok(()) => return Ok(()),
            Err(e) => {
                let started = waiting.borrow().is_none();
                let message = format!("{} renderer: {e}", renderer_name(renderer));
                if started {
                    // The desk ran and then failed: do not reopen a fresh one behind the umpire.
                    return Err(anyhow!(message));
                }
                eprintln!("umpire: could not open the desk with the {message}");
                failures.push(message);
            }
        }
    }
    Err(anyhow!(
        "could not open the desk window ({}); is a display available?",
        failures.join("; ")
    ))
}

fn renderer_name(renderer: eframe::Renderer) -> &'static str {
    match renderer {
        eframe::Renderer::Glow => "glow",
        eframe::Renderer::Wgpu => "wgpu",
    }
}

/// Runs eframe once with one renderer, taking the desk from `waiting` when the app is created.
fn open_window(
    renderer: eframe::Renderer,
    waiting: &Rc<RefCell<Option<Desk>>>,
) -> Result<(), eframe::Error> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(WINDOW_TITLE)
            .with_app_id("umpire")
            .with_inner_size([1400.0, 900.0])
            .with_min_inner_size([900.0, 560.0]),
        renderer,
        // Returning (rather than exiting the process) lets a failed renderer be retried.
        run_and_return: true,
        ..Default::default()
    };
    let waiting = Rc::clone(waiting);
    eframe::run_native(
        WINDOW_TITLE,
        options,
        Box::new(move |cc| {
            let desk = waiting
                .borrow_mut()
                .take()
                .ok_or("the desk was already opened")?;
            Ok(Box::new(DeskApp::new(cc, desk)))
        }),
    )
}
