//! The hex map: the scan of the user's own map under a hex grid, the places the text names
//! (the ruleset's gazetteer), and the counters as faces, one per stack. A stack (a Force) is
//! dragged as one move; Shift drags only the selected counter. A click selects and never moves:
//! a click on a hex while a stack is selected offers "Move here", which the umpire confirms.
//! [`MapPanel`] owns the map's view (zoom, pan, a drag, a move picked by a click, the underlay)
//! and draws the table: the hex map here, an area board or a free-form list ([`super::board_view`]).

use eframe::egui::{self, Color32, Sense, Stroke, Ui, Vec2, pos2};

use std::collections::BTreeSet;

use super::board_view::{areas_ui, free_table_ui};
use super::commands::{Command, UiCommand, move_action};
use super::live::LiveGame;
use super::underlay::{Similarity, Underlay};
use umpire_core::game::face::{StackFace, Symbol};
use umpire_core::game::hex::HexId;
use umpire_core::game::scenario::Position;
use umpire_core::rules::GeometryKind;

/// Start of the label of the button that confirms a move picked by a click.
pub const MOVE_HERE_LABEL: &str = "Move here";
/// Label of the button that drops a move picked by a click.
pub const CANCEL_MOVE_LABEL: &str = "Cancel the move";
/// The counter menu (right-click a counter): select it and show it in the counters panel.
pub const MENU_INSPECT_LABEL: &str = "Inspect";
/// The counter menu: select its stack; a click on a hex then offers to move it there.
pub const MENU_MOVE_LABEL: &str = "Move…";
/// The counter menu: split the counter off its stack (a move then moves it alone).
pub const MENU_SPLIT_LABEL: &str = "Split off…";
/// The counter menu: the counter's hand changes (strength, markers, taken off).
pub const MENU_HAND_LABEL: &str = "Change by hand…";
/// The counter menu: the procedures that take it.
pub const MENU_RESOLVE_LABEL: &str = "Resolve with it";

/// The least hex radius at which the counters read across the table: it grows with the
/// map's size on screen (a hex radius a 26th of the map's shorter side: about 31 points on a
/// 1920×1080 screen, 22 at 1280×720) and with View › Table size.
fn readable_zoom(size: Vec2, scale: f32) -> f32 {
    (size.min_elem() / 26.0).max(22.0) * scale
}

/// The map's paper, the grid, and the ink of the places.
const PAPER: Color32 = Color32::from_rgb(236, 230, 212);
const GRID: Color32 = Color32::from_rgb(170, 160, 140);
const PLACE_INK: Color32 = Color32::from_rgb(92, 52, 24);
const SELECTED: Color32 = Color32::from_rgb(255, 200, 0);

/// A font size for the map, in whole points: sizes that follow the zoom would each rasterise
/// the glyphs into the font atlas again (memory that stays).
fn points(size: f32, lo: f32, hi: f32) -> f32 {
    size.clamp(lo, hi).round()
}

/// Where a hex's centre is on screen, for a map drawn from `origin` with hex radius `r`.
pub(crate) fn screen_centre(origin: egui::Pos2, r: f32, hex: HexId) -> egui::Pos2 {
    let [x, y] = hex.centre();
    origin + Vec2::new(x as f32, y as f32) * r
}

/// The zoom (hex radius in points) that fits the hexes `[c0, r0, c1, r1]` in a `size` view.
fn fit_zoom(size: Vec2, span: [u32; 4]) -> f32 {
    let [c0, r0, c1, r1] = span;
    let cols = (c1 - c0 + 1) as f32;
    let rows = (r1 - r0 + 1) as f32;
    // A hex column is 1.5 r wide, a row √3 r high (plus half a row for the offset columns).
    let zoom_w = size.x / (cols * 1.5 + 0.5);
    let zoom_h = size.y / ((rows + 0.5) * 3f32.sqrt());
    zoom_w.min(zoom_h).clamp(4.0, 40.0)
}

/// The pan that puts the middle of the hexes `span` in the middle of a `size` view at zoom
/// `r`, `first` being the first column and row drawn.
fn centring_pan(size: Vec2, span: [u32; 4], first: (u32, u32), r: f32) -> Vec2 {
    let [c0, r0, c1, r1] = span;
    let h = 3f32.sqrt() * r;
    let mid = Vec2::new(
        (c0 + c1) as f32 / 2.0 - first.0 as f32,
        (r0 + r1) as f32 / 2.0 - first.1 as f32,
    );
    size / 2.0 - Vec2::new(r, h) - Vec2::new(mid.x * 1.5 * r, mid.y * h)
}

/// The map panel's state: its view of the table, a drag or a picked move under way, and the
/// map underlay.
pub struct MapPanel {
    /// Zoom (pixels per hex radius).
    pub zoom: f32,
    /// Pan offset, in points.
    pub pan: Vec2,
    /// Whether the map view has been fitted (false: fit on the next frame).
    pub fitted: bool,
    /// Whether the next fit takes in every place and counter (Fit the map), rather than the
    /// scenario's action (its counters, on opening).
    pub fit_all: bool,
    /// A hex picked by a click for the selected stack, waiting for "Move here".
    pub move_target: Option<String>,
    /// Whether the map hides its counters (to read the underlay).
    pub hide_counters: bool,
    /// The counters being dragged on the hex map (a stack, or one counter), and where the
    /// pointer is.
    pub(crate) dragging: Option<(Vec<String>, egui::Pos2)>,
    /// The hex map as last drawn: origin (screen), hex radius and height, id digits, and the
    /// map's rectangle on screen.
    pub(crate) map_geometry: Option<(egui::Pos2, f32, f32, usize, egui::Rect)>,
    /// The photo or scan of the physical map under the hex grid.
    pub underlay: Option<Underlay>,
    /// Which underlay point the next click on the map picks (0 or 1; None: clicks act).
    pub underlay_pick: Option<usize>,
    /// A point just picked on the underlay: which one, and where on the image (pixels).
    pub underlay_picked: Option<(usize, [f64; 2])>,
    /// View › Table size: how much larger than Normal the counters and their numbers are.
    pub table_scale: f32,
    /// The stack a right-click opened the counter menu on: its hex and counters.
    pub(crate) menu_stack: Option<(String, Vec<String>)>,
    /// What the counter menu offers to resolve with: the roles of the procedure open in the
    /// resolve panel (with its name), and this step's procedures (id, name).
    pub resolve_offer: ResolveOffer,
    /// Whether "Move…" was chosen: the map says to click the hex to move to.
    pub(crate) picking_move: bool,
    /// The map's size on screen in the last frame: when the window grows, so does the zoom.
    map_size: Option<Vec2>,
}

/// What a counter's right-click menu offers under "Resolve with it".
#[derive(Debug, Clone, Default)]
pub struct ResolveOffer {
    /// The procedure open in the resolve panel (its name), and its roles.
    pub open: Option<(String, Vec<String>)>,
    /// The procedures of this step of the Sequence of Play: (id, name).
    pub this_step: Vec<(String, String)>,
}

impl std::fmt::Debug for MapPanel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MapPanel")
            .field("zoom", &self.zoom)
            .field("pan", &self.pan)
            .field("move_target", &self.move_target)
            .field("hide_counters", &self.hide_counters)
            .finish_non_exhaustive()
    }
}

impl Default for MapPanel {
    fn default() -> MapPanel {
        MapPanel {
            zoom: 24.0,
            pan: Vec2::ZERO,
            fitted: false,
            fit_all: false,
            move_target: None,
            hide_counters: false,
            dragging: None,
            map_geometry: None,
            underlay: None,
            underlay_pick: None,
            underlay_picked: None,
            table_scale: 1.0,
            menu_stack: None,
            resolve_offer: ResolveOffer::default(),
            picking_move: false,
            map_size: None,
        }
    }
}

/// The hex map as drawn this frame: its rectangle, origin, hex radius and height, id digits,
/// the hexes it spans (padded) and those in view.
#[derive(Debug, Clone, Copy)]
struct View {
    rect: egui::Rect,
    origin: egui::Pos2,
    r: f32,
    h: f32,
    digits: usize,
    /// `[first col, first row, last col, last row]`.
    span: [u32; 4],
    /// The columns and rows in view: `(col_lo, col_hi, row_lo, row_hi)`.
    visible: (u32, u32, u32, u32),
}

impl View {
    fn new(rect: egui::Rect, origin: egui::Pos2, r: f32, digits: usize, span: [u32; 4]) -> View {
        let h = 3f32.sqrt() * r;
        let [c0, r0, c1, r1] = span;
        // Visible columns and rows only.
        let col_lo =
            (((rect.min.x - origin.x) / (1.5 * r)).floor() as i64 - 1).max(c0 as i64) as u32;
        let col_hi = (((rect.max.x - origin.x) / (1.5 * r)).ceil() as i64 + 1)
            .min(c1 as i64)
            .max(0) as u32;
        let row_lo = (((rect.min.y - origin.y) / h).floor() as i64 - 1).max(r0 as i64) as u32;
        let row_hi = (((rect.max.y - origin.y) / h).ceil() as i64 + 1)
            .min(r1 as i64)
            .max(0) as u32;
        View {
            rect,
            origin,
            r,
            h,
            digits,
            span,
            visible: (col_lo, col_hi, row_lo, row_hi),
        }
    }

    /// A hex's centre on screen.
    fn centre(&self, col: u32, row: u32) -> egui::Pos2 {
        screen_centre(self.origin, self.r, HexId::new(col, row, self.digits))
    }

    /// Whether a hex is in view.
    fn in_view(&self, col: u32, row: u32) -> bool {
        let (col_lo, col_hi, row_lo, row_hi) = self.visible;
        (col_lo..=col_hi).contains(&col) && (row_lo..=row_hi).contains(&row)
    }

    /// The hex (on the map) at a point on screen.
    fn hex_at(&self, p: egui::Pos2) -> Option<String> {
        let [c0, r0, c1, r1] = self.span;
        let at = (p - self.origin) / self.r;
        HexId::at([f64::from(at.x), f64::from(at.y)], self.digits)
            .filter(|h| (c0..=c1).contains(&h.col()) && (r0..=r1).contains(&h.row()))
            .map(|h| h.id())
    }
}

impl MapPanel {
    /// The table: a hex map, areas with their counters, or a free-form list of units (`shown`:
    /// a megagame table's or role's counters, None for all).
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveGame,
        shown: Option<&BTreeSet<String>>,
        queue: &mut Vec<Command>,
    ) {
        match live.geometry() {
            GeometryKind::Hex => self.hex_map_ui(ui, live, queue),
            GeometryKind::Area => areas_ui(ui, live, shown, queue),
            _ => free_table_ui(ui, live, shown, queue),
        }
    }

    /// The hex map. Drag a stack onto a hex to move it (Shift: the selected counter alone),
    /// drag the map to pan, scroll to zoom; a click selects, and offers "Move here".
    pub fn hex_map_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        let digits = live
            .game()
            .ruleset()
            .geometry
            .as_ref()
            .and_then(|g| g.hex_id_digits)
            .unwrap_or(4) as usize;
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 0.0, PAPER);
        let Some(span) = live.hex_bounds() else {
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "No counter is on the map, and the rules name no place.",
                egui::FontId::proportional(16.0),
                Color32::DARK_GRAY,
            );
            return;
        };
        let [c0, r0, c1, r1] = span;
        let (c0, r0, c1, r1) = (c0.saturating_sub(2), r0.saturating_sub(2), c1 + 2, r1 + 2);
        // Zoom around the pointer, pan by dragging.
        if response.hovered() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = zoom * (scroll / 400.0).exp();
            if (factor - 1.0).abs() > 1e-4 {
                let new_zoom = (self.zoom * factor).clamp(4.0, 80.0);
                if let Some(p) = response.hover_pos() {
                    let anchor = p - rect.min - self.pan;
                    self.pan -= anchor * (new_zoom / self.zoom - 1.0);
                }
                self.zoom = new_zoom;
            }
        }
        self.keyboard_pan_ui(ui);
        self.follow_size(rect.size());
        if !self.fitted {
            // On opening: the scenario's action (its counters on the map) in the middle, at a
            // zoom where the counters read across the table (growing with the window, and with
            // View › Table size); Fit the map: every place and counter in view.
            let target = if self.fit_all {
                span
            } else {
                live.action_bounds().unwrap_or(span)
            };
            let zoom = fit_zoom(rect.size(), target);
            self.zoom = if self.fit_all {
                zoom
            } else {
                zoom.max(readable_zoom(rect.size(), self.table_scale))
            };
            self.pan = centring_pan(rect.size(), target, (c0, r0), self.zoom);
            self.fitted = true;
            self.fit_all = false;
        }
        let r = self.zoom;
        let h = 3f32.sqrt() * r;
        let origin =
            rect.min + self.pan + Vec2::new(r, h) - Vec2::new(c0 as f32 * 1.5 * r, r0 as f32 * h);
        self.map_geometry = Some((origin, r, h, digits, rect));
        self.underlay_ui(ui, &painter, origin, r);
        let v = View::new(rect, origin, r, digits, [c0, r0, c1, r1]);
        grid_ui(&painter, live, &v);
        places_ui(&painter, live, &v);
        self.counters_ui(&painter, live, &v);
        hover_ui(&response, live, &v);
        self.drag_ui(ui, &response, &painter, live, &v, queue);
        self.click_ui(&response, &painter, live, &v, queue);
        self.counter_menu_ui(&response, live, &v, queue);
        self.move_here_ui(ui, &painter, live, &v, queue);
        let hint = if self.picking_move && live.selected.is_some() {
            "click the hex to move to · Escape: no move"
        } else if rect.width() >= 900.0 {
            "drag the map to pan (middle button, arrow keys too) · click a counter, then drag it to move · right-click a counter for more · scroll to zoom"
        } else {
            "drag: pan · click a counter, then drag: move · right-click: more · scroll: zoom"
        };
        // On a strip of paper: the hex ids under it do not blur it.
        let galley = painter.layout_no_wrap(
            hint.to_string(),
            egui::FontId::proportional(12.0),
            Color32::from_gray(60),
        );
        let at = rect.right_bottom() - Vec2::new(6.0, 6.0) - galley.size();
        painter.rect_filled(
            egui::Rect::from_min_size(at, galley.size()).expand(3.0),
            2.0,
            PAPER,
        );
        painter.galley(at, galley, Color32::from_gray(60));
    }

    /// Counters: one face a stack (the selected counter on top of its own), a mark for a
    /// status, the selected stack outlined.
    fn counters_ui(&self, painter: &egui::Painter, live: &LiveGame, v: &View) {
        let View { origin, r, .. } = *v;
        let in_view = |col: u32, row: u32| v.in_view(col, row);
        // Counters: one face a stack.
        let selected_hex = live.selected_hex();
        let size = r * 1.15;
        let name_font = egui::FontId::proportional(points(r * 0.24, 9.0, 16.0));
        let small_font = egui::FontId::proportional(points(r * 0.24, 6.0, 11.0));
        let scale = self.table_scale;
        let stacks = if self.hide_counters {
            None
        } else {
            Some(live.stacks())
        };
        for (hex, ids) in stacks.into_iter().flatten() {
            let Some(hid) = HexId::parse_any(hex) else {
                continue;
            };
            if !in_view(hid.col(), hid.row()) {
                continue;
            }
            let c = screen_centre(origin, r, hid) + Vec2::new(0.0, -r * 0.1);
            // The selected counter is on top of its stack; every other stack's face is the
            // one worked out with the stacks.
            let selected_here = live
                .selected
                .as_ref()
                .and_then(|s| ids.iter().position(|x| x == s));
            let face = match selected_here {
                Some(i) => {
                    let mut ordered = ids.clone();
                    let s = ordered.remove(i);
                    ordered.insert(0, s);
                    live.stack_face_of(&ordered)
                }
                None => live.cached_face(hex).cloned(),
            };
            let Some(face) = face else {
                continue;
            };
            // The counters under the top one, as one edge.
            let under = (ids.len() - 1).min(1);
            for k in (1..=under).rev() {
                let off = Vec2::splat(k as f32 * r * 0.08);
                painter.add(egui::epaint::RectShape::new(
                    egui::Rect::from_center_size(c + off, Vec2::splat(size)),
                    0.0,
                    live.side_colour(&face.side).gamma_multiply(0.8),
                    Stroke::new(1.0, Color32::BLACK),
                    egui::StrokeKind::Inside,
                ));
            }
            let counter_rect = egui::Rect::from_center_size(c, Vec2::splat(size));
            draw_face(
                live,
                painter,
                counter_rect,
                &face,
                &name_font,
                &small_font,
                (r, scale),
            );
            let marked = ids.iter().any(|id| match live.side_counter(id) {
                Some(seen) => !seen.statuses.is_empty(),
                None => live
                    .game()
                    .state()
                    .counters
                    .get(id)
                    .is_some_and(|c| !c.statuses.is_empty()),
            });
            if marked {
                painter.circle_filled(
                    counter_rect.left_top() + Vec2::new(r * 0.12, r * 0.12),
                    (r * 0.1).max(2.0),
                    Color32::YELLOW,
                );
            }
            if selected_hex.as_deref() == Some(hex.as_str()) {
                painter.rect_stroke(
                    counter_rect.expand(2.0),
                    3.0,
                    Stroke::new(2.5, SELECTED),
                    egui::StrokeKind::Outside,
                );
            }
        }
    }

    /// Drag the selected stack (Shift: the selected counter alone) onto a hex to move it: a
    /// drag moves only what was selected before it began, so a drag meant to pan that starts
    /// on a counter pans. Drag anywhere else to pan; the middle button always pans.
    fn drag_ui(
        &mut self,
        ui: &Ui,
        response: &egui::Response,
        painter: &egui::Painter,
        live: &LiveGame,
        v: &View,
        queue: &mut Vec<Command>,
    ) {
        let View { origin, r, .. } = *v;
        let hex_at = |p: egui::Pos2| v.hex_at(p);
        let size = r * 1.15;
        let small_font = egui::FontId::proportional(points(r * 0.24, 6.0, 11.0));
        if response.drag_started_by(egui::PointerButton::Primary)
            && self.underlay_pick.is_none()
            && !self.hide_counters
            && let Some(p) = ui.input(|i| i.pointer.press_origin())
            && let Some(hex) = hex_at(p)
            && let Some(stack) = live.stacks().get(&hex).cloned()
            && let Some(top) = live.selected.clone().filter(|s| stack.contains(s))
        {
            let alone = ui.input(|i| i.modifiers.shift);
            let moving = if alone {
                vec![top.clone()]
            } else {
                live.moving_group(&hex, &stack)
            };
            queue.push(UiCommand::Select(Some(top)).into());
            self.dragging = Some((moving, p));
        }
        if response.dragged() {
            match &mut self.dragging {
                Some((_, at)) if response.dragged_by(egui::PointerButton::Primary) => {
                    if let Some(p) = response.interact_pointer_pos() {
                        *at = p;
                    }
                }
                _ => self.pan += response.drag_delta(),
            }
        }
        if let Some((ids, at)) = self.dragging.clone() {
            let target = hex_at(at);
            if let Some(t) = target.as_deref().and_then(HexId::parse_any) {
                painter.circle_stroke(
                    screen_centre(origin, r, t),
                    r * 0.9,
                    Stroke::new(2.5, SELECTED),
                );
            }
            if let Some(face) = live.stack_face_of(&ids) {
                let ghost = egui::Rect::from_center_size(at, Vec2::splat(size));
                painter.rect_filled(ghost, 0.0, live.side_colour(&face.side).gamma_multiply(0.7));
                if ids.len() > 1 {
                    painter.text(
                        ghost.right_bottom() + Vec2::new(4.0, 0.0),
                        egui::Align2::LEFT_BOTTOM,
                        format!("{} counters", ids.len()),
                        small_font.clone(),
                        Color32::BLACK,
                    );
                }
            }
            if response.drag_stopped() {
                self.dragging = None;
                if let Some(t) = target
                    && !ids.is_empty()
                {
                    queue.push(Command::Act(move_action(&ids, Position::Hex(t))));
                }
            }
        }
    }

    /// The map grows with the window: when its size on screen changes (the window resized,
    /// maximised), the zoom follows its shorter side and the middle of the view stays.
    fn follow_size(&mut self, size: Vec2) {
        if let Some(old) = self.map_size
            && self.fitted
            && old.min_elem() > 50.0
            && (old - size).length() > 0.5
        {
            let zoom = (self.zoom * size.min_elem() / old.min_elem()).clamp(4.0, 80.0);
            let k = zoom / self.zoom;
            self.pan = size / 2.0 - (old / 2.0 - self.pan) * k;
            self.zoom = zoom;
        }
        self.map_size = Some(size);
    }

    /// The arrow keys pan the map (while no text field has the keyboard).
    fn keyboard_pan_ui(&mut self, ui: &Ui) {
        if ui.ctx().egui_wants_keyboard_input() {
            return;
        }
        const STEP: f32 = 80.0;
        let d = ui.input(|i| {
            let mut d = Vec2::ZERO;
            for (key, by) in [
                (egui::Key::ArrowLeft, Vec2::new(STEP, 0.0)),
                (egui::Key::ArrowRight, Vec2::new(-STEP, 0.0)),
                (egui::Key::ArrowUp, Vec2::new(0.0, STEP)),
                (egui::Key::ArrowDown, Vec2::new(0.0, -STEP)),
            ] {
                if i.key_pressed(key) {
                    d += by;
                }
            }
            d
        });
        self.pan += d;
    }

    /// The right-click menu of a counter (the top one of the stack clicked, selected by the
    /// click): Inspect, Move…, Split off…, Change by hand…, and Resolve with it (the roles of
    /// the procedure open, this step's procedures).
    fn counter_menu_ui(
        &mut self,
        response: &egui::Response,
        live: &LiveGame,
        v: &View,
        queue: &mut Vec<Command>,
    ) {
        if response.secondary_clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            self.menu_stack = v
                .hex_at(p)
                .filter(|_| !self.hide_counters)
                .and_then(|hex| live.stacks().get(&hex).cloned().map(|ids| (hex, ids)));
        }
        let Some((_, stack)) = self.menu_stack.clone() else {
            return;
        };
        let top = live
            .selected
            .clone()
            .filter(|s| stack.contains(s))
            .unwrap_or_else(|| stack[0].clone());
        let select = || Command::from(UiCommand::Select(Some(top.clone())));
        response.context_menu(|ui| {
            let mut heading = live.display_name(&top);
            if stack.len() > 1 {
                heading = format!("{heading} (a stack of {})", stack.len());
            }
            ui.label(egui::RichText::new(heading).strong());
            if ui
                .button(MENU_INSPECT_LABEL)
                .on_hover_text("Show this stack's counters in the Counters panel")
                .clicked()
            {
                queue.push(select());
            }
            if ui
                .button(MENU_MOVE_LABEL)
                .on_hover_text("Move the counter: click the hex to move it to")
                .clicked()
            {
                queue.push(select());
                self.picking_move = true;
            }
            if stack.len() > 1
                && ui
                    .button(MENU_SPLIT_LABEL)
                    .on_hover_text("Split counters off the stack, to move them on their own")
                    .clicked()
            {
                queue.push(select());
                queue.push(
                    UiCommand::Split {
                        counter: top.clone(),
                        on: true,
                    }
                    .into(),
                );
            }
            if ui
                .button(MENU_HAND_LABEL)
                .on_hover_text("Change the counter by hand: strength, markers, order, taken off")
                .clicked()
            {
                queue.push(select());
                queue.push(UiCommand::HandChanges.into());
            }
            self.resolve_menu_ui(ui, &top, queue);
        });
    }

    /// The counter menu's "Resolve with it": a role of the procedure open, or one of this
    /// step's procedures opened with the counter selected.
    fn resolve_menu_ui(&self, ui: &mut Ui, top: &str, queue: &mut Vec<Command>) {
        let offer = &self.resolve_offer;
        if offer.open.is_none() && offer.this_step.is_empty() {
            return;
        }
        ui.menu_button(MENU_RESOLVE_LABEL, |ui| {
            if let Some((name, roles)) = &offer.open {
                for role in roles {
                    let words = umpire_core::game::words::role_words(role);
                    if ui
                        .button(format!("As {words} in {name}"))
                        .on_hover_text("Put the counter in this role of the procedure open")
                        .clicked()
                    {
                        queue.push(UiCommand::Select(Some(top.to_string())).into());
                        queue.push(
                            UiCommand::AddToRole {
                                role: role.clone(),
                                counter: top.to_string(),
                            }
                            .into(),
                        );
                    }
                }
            }
            for (id, name) in &offer.this_step {
                if offer.open.as_ref().is_some_and(|(open, _)| open == name) {
                    continue;
                }
                if ui
                    .button(format!("Open {name}"))
                    .on_hover_text("Open this procedure with the counter in its role")
                    .clicked()
                {
                    queue.push(UiCommand::OpenProcedure(id.clone()).into());
                    queue.push(UiCommand::Select(Some(top.to_string())).into());
                }
            }
        })
        .response
        .on_hover_text("Put the counter in a role of a procedure");
    }

    /// A click: picks an underlay point while aligning it, else selects on the hex (or offers
    /// a move there).
    fn click_ui(
        &mut self,
        response: &egui::Response,
        painter: &egui::Painter,
        live: &LiveGame,
        v: &View,
        queue: &mut Vec<Command>,
    ) {
        let View {
            rect, origin, r, ..
        } = *v;
        let hex_at = |p: egui::Pos2| v.hex_at(p);
        if let Some(i) = self.underlay_pick {
            // Aligning the underlay: the click picks a point on the image.
            if response.clicked()
                && let Some(p) = response.interact_pointer_pos()
                && let Some(inverse) = self
                    .underlay
                    .as_ref()
                    .and_then(|u| u.settings.transform.inverse())
            {
                let map = [
                    f64::from((p.x - origin.x) / r),
                    f64::from((p.y - origin.y) / r),
                ];
                self.underlay_picked = Some((i, inverse.apply(map)));
                self.underlay_pick = None;
            }
            painter.text(
                rect.center_top() + Vec2::new(0.0, 14.0),
                egui::Align2::CENTER_TOP,
                format!("click point {} on the map image", i + 1),
                egui::FontId::proportional(15.0),
                Color32::from_rgb(160, 40, 0),
            );
        } else if response.clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            match hex_at(p) {
                Some(hex) => self.click_hex(live, &hex, queue),
                None => self.move_target = None,
            }
        }
    }

    /// A move picked by a click waits for the umpire's word: "Move here" or cancel.
    fn move_here_ui(
        &mut self,
        ui: &Ui,
        painter: &egui::Painter,
        live: &LiveGame,
        v: &View,
        queue: &mut Vec<Command>,
    ) {
        let View { origin, r, .. } = *v;
        // A move picked by a click waits for the umpire's word.
        if let Some(target) = self.move_target.clone()
            && let Some(t) = HexId::parse_any(&target)
        {
            let at = screen_centre(origin, r, t);
            painter.circle_stroke(at, r * 0.9, Stroke::new(2.5, SELECTED));
            let moving = live.selected_group();
            let what = live.group_words(&moving);
            let place = live.hex_words(&target);
            let area = egui::Area::new(egui::Id::unique("move_here"))
                .fixed_pos(at + Vec2::new(r, -r))
                .order(egui::Order::Foreground);
            area.show(ui.ctx(), |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    if ui
                        .button(format!("{MOVE_HERE_LABEL}: {what} to {place}"))
                        .on_hover_text("Move the counters here (one journal entry)")
                        .clicked()
                    {
                        queue.push(Command::Act(move_action(
                            &moving,
                            Position::Hex(target.clone()),
                        )));
                        self.move_target = None;
                    }
                    if ui
                        .button(CANCEL_MOVE_LABEL)
                        .on_hover_text("Leave the counters where they are")
                        .clicked()
                    {
                        self.move_target = None;
                    }
                });
            });
        }
    }

    /// The photo or scan of the physical map, under the grid, placed by its alignment.
    fn underlay_ui(&mut self, ui: &Ui, painter: &egui::Painter, origin: egui::Pos2, r: f32) {
        let Some(u) = self.underlay.as_mut() else {
            return;
        };
        let corners = u.corners();
        let tint = Color32::WHITE.gamma_multiply(u.settings.opacity.clamp(0.0, 1.0));
        if let Some(texture) = u.texture(ui.ctx()) {
            let mut mesh = egui::Mesh::with_texture(texture.id());
            let uvs = [
                pos2(0.0, 0.0),
                pos2(1.0, 0.0),
                pos2(1.0, 1.0),
                pos2(0.0, 1.0),
            ];
            for (m, uv) in corners.iter().zip(uvs) {
                mesh.vertices.push(egui::epaint::Vertex {
                    pos: origin + Vec2::new(m[0] as f32 * r, m[1] as f32 * r),
                    uv,
                    color: tint,
                });
            }
            mesh.add_triangle(0, 1, 2);
            mesh.add_triangle(0, 2, 3);
            painter.add(egui::Shape::mesh(mesh));
        }
    }

    /// A click on a hex: selects the (next) counter of its stack; on another hex, with a
    /// stack selected, offers to move it there (never moves by itself).
    pub fn click_hex(&mut self, live: &LiveGame, hex: &str, queue: &mut Vec<Command>) {
        let stack = live.stacks().get(hex).cloned().unwrap_or_default();
        let selected_here = live
            .selected
            .as_ref()
            .and_then(|s| stack.iter().position(|c| c == s));
        self.move_target = None;
        // After the counter menu's Move…, a click on any other hex offers the move there.
        let picking = std::mem::take(&mut self.picking_move);
        if picking && live.selected.is_some() && selected_here.is_none() {
            self.move_target = Some(hex.to_string());
            return;
        }
        match (&live.selected, selected_here) {
            (_, Some(i)) => {
                let next = stack[(i + 1) % stack.len()].clone();
                queue.push(UiCommand::Select(Some(next)).into());
            }
            (Some(_), None) if stack.is_empty() => {
                self.move_target = Some(hex.to_string());
            }
            (_, None) => {
                if let Some(first) = stack.first().cloned() {
                    queue.push(UiCommand::Select(Some(first)).into());
                }
            }
        }
    }

    /// Where a hex's centre was on screen in the last frame of the hex map (for tests and
    /// tools that point at the map).
    pub fn hex_screen_pos(&self, hex: &str) -> Option<egui::Pos2> {
        let (origin, r, _, _, _) = self.map_geometry?;
        Some(screen_centre(origin, r, HexId::parse_any(hex)?))
    }

    /// The hex map's rectangle on screen in the last frame.
    pub fn map_rect(&self) -> Option<egui::Rect> {
        self.map_geometry.map(|g| g.4)
    }

    /// An underlay transform that spreads an image of `size` pixels over the map's extent.
    pub fn fit_underlay(live: &LiveGame, size: [u32; 2]) -> Similarity {
        let [c0, r0, c1, _] = live.hex_bounds().unwrap_or([1, 1, 20, 20]);
        let (c0, r0, c1) = (c0.saturating_sub(2), r0.saturating_sub(2), c1 + 2);
        let centre = |col, row| HexId::new(col, row, 4).centre();
        let left = centre(c0, r0)[0] - 1.0;
        let right = centre(c1, r0)[0] + 1.0;
        let top = centre(c0 | 1, r0)[1] - 3f64.sqrt() / 2.0;
        let scale = (right - left) / f64::from(size[0].max(1));
        Similarity::scale_then_move(scale, [left, top])
    }
}

/// The hex grid: each hex's upper edges (all six on the edge of the block drawn), and its
/// id where it can be read and no counter covers it.
fn grid_ui(painter: &egui::Painter, live: &LiveGame, v: &View) {
    let grid = Stroke::new(1.0, GRID);
    let View { r, h, digits, .. } = *v;
    let (col_lo, col_hi, row_lo, row_hi) = v.visible;
    let centre = |col: u32, row: u32| v.centre(col, row);
    let id_font = egui::FontId::monospace(points(r * 0.3, 7.0, 11.0));
    // Hex ids where they can be read (7 points and up); below that the places and faces
    // carry the map, and a thousand tiny ids would cost a frame its budget.
    let show_ids = r >= 18.0;
    // Corners 0–5 clockwise from the right (y down). Each hex draws its upper edges; its
    // lower edges are the upper edges of the hexes below it, so only the hexes on the edge
    // of the drawn block draw all six.
    let corners: [Vec2; 6] = std::array::from_fn(|k| {
        let a = std::f32::consts::PI / 3.0 * k as f32;
        Vec2::new(r * a.cos(), r * a.sin())
    });
    let occupied: std::collections::HashSet<(u32, u32)> = live
        .stacks()
        .keys()
        .filter_map(|h| HexId::parse_any(h).map(|h| (h.col(), h.row())))
        .collect();
    for col in col_lo..=col_hi {
        for row in row_lo..=row_hi {
            let c = centre(col, row);
            if row == row_hi || col == col_lo || col == col_hi {
                let pts: Vec<egui::Pos2> = corners.iter().map(|v| c + *v).collect();
                painter.add(egui::Shape::closed_line(pts, grid));
            } else {
                let pts: Vec<egui::Pos2> = [3, 4, 5, 0].iter().map(|&k| c + corners[k]).collect();
                painter.add(egui::Shape::line(pts, grid));
            }
            if show_ids && !occupied.contains(&(col, row)) {
                painter.text(
                    pos2(c.x, c.y - h * 0.38),
                    egui::Align2::CENTER_CENTER,
                    HexId::new(col, row, digits).id(),
                    id_font.clone(),
                    Color32::from_rgb(120, 110, 95),
                );
            }
        }
    }
}

/// The places the text names: a mark in the hex, the name at its foot.
fn places_ui(painter: &egui::Painter, live: &LiveGame, v: &View) {
    let View { origin, r, .. } = *v;
    let in_view = |col: u32, row: u32| v.in_view(col, row);
    // The places the text names: a mark in the hex, the name at its foot.
    let place_font = egui::FontId::proportional(points(r * 0.34, 9.0, 15.0));
    let mut named = std::collections::BTreeSet::new();
    for place in &live.game().scenario().places {
        let Some(hex) = place.hex.as_deref().and_then(HexId::parse_any) else {
            continue;
        };
        // One name a hex (the text names hex 3032 both Trezzo and Trezzo d'Adda; the
        // tooltip gives both).
        if !in_view(hex.col(), hex.row()) || !named.insert(hex.id()) {
            continue;
        }
        let c = screen_centre(origin, r, hex);
        let mark = c + Vec2::new(0.0, r * 0.68);
        let fortified = place.kind.is_some_and(|k| k.fortified());
        let size = (r * 0.13).max(2.5);
        if fortified {
            painter.rect_filled(
                egui::Rect::from_center_size(mark, Vec2::splat(size * 2.0)),
                0.0,
                PLACE_INK,
            );
        } else {
            painter.circle_filled(mark, size, PLACE_INK);
        }
        if r >= 7.0 {
            let galley = painter.layout_no_wrap(place.name.clone(), place_font.clone(), PLACE_INK);
            let at = pos2(mark.x - galley.size().x / 2.0, mark.y + size + 1.0);
            let back = egui::Rect::from_min_size(at, galley.size()).expand(1.5);
            painter.rect_filled(back, 2.0, PAPER.gamma_multiply(0.85));
            painter.galley(at, galley, PLACE_INK);
        }
    }
}

/// The hex under the pointer in words: its id, the places the text names there, and the
/// counters in it.
fn hover_ui(response: &egui::Response, live: &LiveGame, v: &View) {
    if let Some(p) = response.hover_pos()
        && let Some(hex) = v.hex_at(p)
    {
        let mut lines = vec![format!("hex {hex}")];
        for place in live
            .game()
            .scenario()
            .places
            .iter()
            .filter(|p| p.hex.as_deref() == Some(hex.as_str()))
        {
            let kind = place
                .kind
                .map_or(String::new(), |k| format!(", {}", k.words()));
            let rule = place
                .rule
                .as_deref()
                .and_then(|r| r.split(';').next())
                .map_or(String::new(), |r| format!(" [{}]", r.trim()));
            lines.push(format!("{}{kind}{rule}", place.name));
        }
        if let Some(ids) = live.stacks().get(&hex) {
            lines.extend(ids.iter().map(|i| live.display_name(i)));
        }
        if lines.len() > 1 {
            response.clone().on_hover_text_at_pointer(lines.join("\n"));
        }
    }
}

/// Draws one stack's face: the side's colour, the type's symbol, the strength in the
/// lower right, the leader's (or unit's) name along the foot, the count in a badge.
fn draw_face(
    live: &LiveGame,
    painter: &egui::Painter,
    rect: egui::Rect,
    face: &StackFace,
    name_font: &egui::FontId,
    small_font: &egui::FontId,
    (r, scale): (f32, f32),
) {
    let fill = live.side_colour(&face.side);
    // Square corners, fill and outline in one shape: a rounded rectangle costs dozens of
    // vertices, and a thousand of them dominated the frame.
    painter.add(egui::epaint::RectShape::new(
        rect,
        0.0,
        fill,
        Stroke::new(
            1.0,
            if face.contested {
                Color32::RED
            } else {
                Color32::BLACK
            },
        ),
        egui::StrokeKind::Inside,
    ));
    let ink = Color32::WHITE;
    let thin = Stroke::new((r * 0.05).clamp(1.0, 2.0), ink);
    let (w, h) = (rect.width(), rect.height());
    // The type box (NATO style) at the top, the strength at the foot, the leader's (or
    // unit's) name between them when there is room to read it.
    // With room for a name (a counter of 46 points and more), the symbol is shallower.
    let named = r >= 40.0;
    if r >= 9.0 {
        let sym = if named {
            egui::Rect::from_min_size(
                rect.min + Vec2::new(w * 0.26, h * 0.07),
                Vec2::new(w * 0.48, h * 0.26),
            )
        } else {
            egui::Rect::from_min_size(
                rect.min + Vec2::new(w * 0.24, h * 0.08),
                Vec2::new(w * 0.52, h * 0.3),
            )
        };
        draw_symbol(painter, sym, face.symbol, thin);
    }
    if named {
        let name: String = face
            .label
            .chars()
            .take(((r / 3.4) as usize).max(5))
            .collect();
        painter.text(
            pos2(rect.center().x, rect.top() + h * 0.47),
            egui::Align2::CENTER_CENTER,
            name,
            name_font.clone(),
            ink,
        );
    }
    if let Some(sp) = face.strength
        && r >= 12.0
    {
        // The strength is the number read across the table: 12 points at least at the
        // opening zoom (more with View › Table size), never taller than half the counter.
        let size = (r * 0.45).max(12.0 * scale).min(h * 0.55);
        painter.text(
            pos2(rect.center().x, rect.bottom() - 1.0),
            egui::Align2::CENTER_BOTTOM,
            sp.to_string(),
            egui::FontId::proportional(points(size, 7.0, 30.0)),
            ink,
        );
    }
    let _ = small_font;
    if face.count > 1 {
        // The badge: how many counters the stack holds.
        let at = rect.right_bottom() + Vec2::new(0.0, 0.0);
        let radius = (r * 0.22).clamp(6.0, 13.0);
        painter.circle_filled(at, radius, Color32::from_rgb(30, 30, 30));
        painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            face.count.to_string(),
            egui::FontId::proportional(points(radius * 1.35, 8.0, 16.0)),
            Color32::WHITE,
        );
    }
}

/// A type's symbol in a box, as on a printed counter: a cross for foot, a diagonal for horse,
/// a dot for guns, a bridge arc for engineers, a hull for ships; a leader's a star-like mark.
fn draw_symbol(painter: &egui::Painter, b: egui::Rect, symbol: Symbol, stroke: Stroke) {
    let boxed = !matches!(symbol, Symbol::Leader | Symbol::Marker);
    if boxed {
        painter.rect_stroke(b, 0.0, stroke, egui::StrokeKind::Inside);
    }
    match symbol {
        Symbol::Infantry => {
            painter.line_segment([b.left_top(), b.right_bottom()], stroke);
            painter.line_segment([b.left_bottom(), b.right_top()], stroke);
        }
        Symbol::Cavalry => {
            painter.line_segment([b.left_bottom(), b.right_top()], stroke);
        }
        Symbol::Artillery => {
            painter.circle_filled(b.center(), b.height() * 0.2, stroke.color);
        }
        Symbol::Engineers => {
            let y = b.center().y;
            painter.line_segment(
                [pos2(b.left() + 2.0, y + 2.0), pos2(b.left() + 2.0, y - 2.0)],
                stroke,
            );
            painter.line_segment(
                [
                    pos2(b.left() + 2.0, y - 2.0),
                    pos2(b.right() - 2.0, y - 2.0),
                ],
                stroke,
            );
            painter.line_segment(
                [
                    pos2(b.right() - 2.0, y - 2.0),
                    pos2(b.right() - 2.0, y + 2.0),
                ],
                stroke,
            );
        }
        Symbol::Fleet => {
            let y = b.center().y;
            painter.line_segment([pos2(b.left() + 2.0, y), pos2(b.right() - 2.0, y)], stroke);
            painter.line_segment(
                [
                    pos2(b.left() + 4.0, y + 3.0),
                    pos2(b.right() - 4.0, y + 3.0),
                ],
                stroke,
            );
        }
        Symbol::Army => {
            painter.line_segment([b.left_top(), b.right_bottom()], stroke);
            painter.line_segment([b.left_bottom(), b.right_top()], stroke);
            painter.line_segment([b.center_top(), b.center_bottom()], stroke);
        }
        Symbol::Leader => {
            // A pennant on a staff.
            let staff_x = b.left() + b.width() * 0.3;
            painter.line_segment([pos2(staff_x, b.bottom()), pos2(staff_x, b.top())], stroke);
            painter.add(egui::Shape::convex_polygon(
                vec![
                    pos2(staff_x, b.top()),
                    pos2(b.right(), b.top() + b.height() * 0.25),
                    pos2(staff_x, b.top() + b.height() * 0.5),
                ],
                stroke.color,
                Stroke::NONE,
            ));
        }
        Symbol::Marker => {
            painter.circle_stroke(b.center(), b.height() * 0.35, stroke);
        }
        Symbol::Unit => {}
    }
}
