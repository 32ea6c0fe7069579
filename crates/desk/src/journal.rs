//! The journal panel, newest first: filtered by text, kind, side, Force and procedure (in a
//! side's view, as that side sees it), an entry opened to its full explanation, a note added;
//! overrides and their reasons highlighted, undone entries struck through.

use std::rc::Rc;

use eframe::egui::{self, RichText, Ui};

use umpire_core::game::visibility::Sight;
use umpire_core::game::{Action, Event, EventKind};

use super::commands::Command;
use super::live::{LiveGame, describe_event};
use super::widgets::undo_redo_ui;

/// Label of the journal's side filter.
pub const JOURNAL_SIDE_LABEL: &str = "Side";
/// Label of the journal's Force filter.
pub const JOURNAL_FORCE_LABEL: &str = "Force";
/// Label of the journal's procedure filter.
pub const JOURNAL_PROCEDURE_LABEL: &str = "Procedure of the entry";
/// Label of the button that closes an opened journal entry.
pub const CLOSE_ENTRY_LABEL: &str = "Close";
/// Label of the journal's text filter.
pub const JOURNAL_FILTER_LABEL: &str = "Filter journal";
/// Label of the journal's note field.
pub const NOTE_LABEL: &str = "Note";
/// Label of the button that adds the note typed (Enter in the field does too).
pub const ADD_NOTE_LABEL: &str = "Add note";

/// What the journal rows were built for: journal length, text filter, kind filter, the side
/// whose view is shown.
type JournalKey = (
    usize,
    String,
    Option<&'static str>,
    Option<String>,
    JournalFilter,
);

/// The journal filters' choices: sides, Forces, procedures, each (id, words).
pub type JournalChoices = (
    Vec<(String, String)>,
    Vec<(String, String)>,
    Vec<(String, String)>,
);

/// The journal's filters beyond its text and kind: one side's, one Force's or one
/// procedure's entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JournalFilter {
    /// A side (id): entries that name a counter of it.
    pub side: Option<String>,
    /// A Force (id): entries that name a counter of it.
    pub force: Option<String>,
    /// A procedure (id): its resolutions, their effects and overrides.
    pub procedure: Option<String>,
}

/// One line of the journal panel.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalRow {
    /// Entry number.
    pub seq: u64,
    /// Kind of entry.
    pub kind: &'static str,
    /// The entry in words.
    pub text: String,
    /// Whether it was undone (and not redone).
    pub undone: bool,
    /// Whether it is an override (with its reason in the text).
    pub overridden: bool,
}

/// Every kind of journal entry, as the journal filter offers them: (kind, words).
pub const EVENT_KINDS: [(&str, &str); 12] = [
    ("game_started", "Game started"),
    ("changed", "Counters changed"),
    ("resolved", "Resolutions"),
    ("effects_applied", "Effects applied"),
    ("overridden", "Results overridden"),
    ("stepped", "Sequence of Play"),
    ("skipped", "Skipped items"),
    ("note", "Notes"),
    ("undone", "Undos"),
    ("redone", "Redos"),
    ("clock", "Clock"),
    ("announced", "Announcements"),
];

/// The journal panel's filters, the entry opened, the note typed, and the rows last shown.
#[derive(Debug, Default)]
pub struct JournalPanel {
    /// The text filter.
    pub filter: String,
    /// The side, Force and procedure filters.
    pub by: JournalFilter,
    /// The filters' lists (sides, Forces, procedures), worked out once.
    pub(crate) choices: Option<Rc<JournalChoices>>,
    /// The entry opened to its full explanation.
    pub open: Option<u64>,
    /// The kind filter (None: every kind).
    pub kind: Option<&'static str>,
    /// The note field, as typed.
    pub note: String,
    /// The rows the filters let through, and what they were built for.
    cache: Option<(JournalKey, Rc<Vec<JournalRow>>)>,
}

impl JournalPanel {
    /// The journal: its heading, the filters and the note, the entry opened, the rows.
    pub fn ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        ui.horizontal(|ui| {
            ui.heading("Journal");
            ui.add(
                egui::Label::new(
                    RichText::new(format!(
                        "{} entries · {}",
                        live.game().events().len(),
                        live.path().display()
                    ))
                    .weak(),
                )
                .truncate(),
            );
        });
        self.toolbar_ui(ui, queue);
        self.filters_ui(ui, live);
        ui.separator();
        self.entry_ui(ui, live);
        self.rows_ui(ui, live);
    }

    /// Undo and Redo, the text and kind filters, and the note.
    fn toolbar_ui(&mut self, ui: &mut Ui, queue: &mut Vec<Command>) {
        ui.horizontal_wrapped(|ui| {
            undo_redo_ui(ui, queue);
            ui.separator();
            let label = ui.label(JOURNAL_FILTER_LABEL);
            ui.add(
                egui::TextEdit::singleline(&mut self.filter)
                    .desired_width(180.0)
                    .hint_text("text"),
            )
            .labelled_by(label.id)
            .on_hover_text("Show only the entries whose words contain this");
            let kind_label = ui.label("Kind");
            egui::ComboBox::from_id_salt("journal_kind")
                .selected_text(
                    EVENT_KINDS
                        .iter()
                        .find(|(k, _)| Some(*k) == self.kind)
                        .map_or("every kind", |(_, w)| w),
                )
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(self.kind.is_none(), "every kind")
                        .on_hover_text("Show entries of every kind")
                        .clicked()
                    {
                        self.kind = None;
                    }
                    for (k, words) in EVENT_KINDS {
                        if ui
                            .selectable_label(self.kind == Some(k), words)
                            .on_hover_text("Show only entries of this kind")
                            .clicked()
                        {
                            self.kind = Some(k);
                        }
                    }
                })
                .response
                .labelled_by(kind_label.id)
                .on_hover_text("Show only entries of one kind");
        });
        // The note on a row of its own (beside the filters it was cut off at 1400 points);
        // Enter in the field adds it, as the button does.
        ui.horizontal(|ui| {
            let label = ui.label(NOTE_LABEL);
            let button_width = 90.0;
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut self.note)
                        .desired_width((ui.available_width() - button_width).clamp(120.0, 520.0))
                        .hint_text("press Enter to add it"),
                )
                .labelled_by(label.id)
                .on_hover_text("A note for the journal; Enter adds it");
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui
                .button(ADD_NOTE_LABEL)
                .on_hover_text("Add the note typed to the journal")
                .clicked()
                || entered
            {
                queue.push(Command::Act(Action::Note {
                    text: self.note.trim().to_string(),
                }));
            }
        });
    }

    /// The entry opened: its full explanation (a resolution's inputs, modifiers, dice,
    /// arithmetic, table and result), as the turn reports print it.
    fn entry_ui(&mut self, ui: &mut Ui, live: &LiveGame) {
        if let Some(seq) = self.open
            && let Some(e) = live
                .game()
                .events()
                .get(seq.saturating_sub(1) as usize)
                .cloned()
            && self.rows(live).iter().any(|r| r.seq == seq)
        {
            let words = umpire_core::game::describe::Words::of(live.game());
            let title = words.title(&e);
            let lines = words.detail(&e);
            let mut close = false;
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(format!("#{seq} {title}")).strong());
                    if ui.small_button(CLOSE_ENTRY_LABEL).clicked() {
                        close = true;
                    }
                });
                egui::ScrollArea::vertical()
                    .id_salt("journal_entry")
                    .max_height(140.0)
                    .show(ui, |ui| {
                        for line in &lines {
                            for l in line.lines() {
                                ui.add(egui::Label::new(l).wrap());
                            }
                        }
                    });
            });
            if close {
                self.open = None;
            }
        }
    }

    /// The rows, newest first; a click opens (or closes) an entry.
    fn rows_ui(&mut self, ui: &mut Ui, live: &LiveGame) {
        let rows = self.rows(live);
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 5.0;
        let mut open = None;
        egui::ScrollArea::vertical()
            .id_salt("journal_rows")
            .auto_shrink([false, false])
            .show_rows(ui, row_height, rows.len(), |ui, range| {
                for row in &rows[range] {
                    let mut t = RichText::new(format!("#{} {}", row.seq, row.text));
                    if row.undone {
                        t = t.strikethrough().weak();
                    }
                    if row.overridden {
                        t = t
                            .background_color(ui.visuals().warn_fg_color.gamma_multiply(0.25))
                            .strong();
                    }
                    let on = self.open == Some(row.seq);
                    if ui
                        .add(egui::Button::selectable(on, t).truncate())
                        .on_hover_text("open the entry")
                        .clicked()
                    {
                        open = Some(if on { None } else { Some(row.seq) });
                    }
                }
            });
        if let Some(o) = open {
            self.open = o;
        }
    }

    /// The journal rows the filters let through, newest first (rebuilt only when the journal
    /// or a filter changes).
    pub fn rows(&mut self, live: &LiveGame) -> Rc<Vec<JournalRow>> {
        let key: JournalKey = (
            live.game().events().len(),
            self.filter.trim().to_lowercase(),
            self.kind,
            live.seen_by.clone(),
            self.by.clone(),
        );
        // In a side's view: entries it sees whole in full, the others as their summary.
        let sights = live
            .side_cache
            .as_ref()
            .filter(|_| live.seen_by.is_some())
            .map(|c| Rc::clone(&c.sights));
        if let Some((k, rows)) = &self.cache
            && *k == key
        {
            return Rc::clone(rows);
        }
        let rows: Vec<JournalRow> = live
            .game()
            .events()
            .iter()
            .rev()
            .filter(|e| key.2.is_none_or(|k| e.kind.name() == k))
            .filter(|e| self.passes(live, e, &key.4))
            .filter_map(|e| {
                let text = match sights
                    .as_ref()
                    .map(|s| s.iter().find(|x| x.seq == e.seq).map(|x| &x.sight))
                {
                    None | Some(Some(Sight::Open)) => describe_event(live, e),
                    Some(Some(Sight::Summary(lines))) => lines.join("; "),
                    Some(Some(Sight::Hidden) | None) => return None,
                };
                Some(JournalRow {
                    seq: e.seq,
                    kind: e.kind.name(),
                    text,
                    undone: e.kind.is_undoable() && !live.stands(e.seq),
                    overridden: matches!(e.kind, EventKind::Overridden { .. }),
                })
            })
            .filter(|r| {
                key.1.is_empty()
                    || r.text.to_lowercase().contains(&key.1)
                    || r.kind.contains(&key.1)
            })
            .collect();
        let rows = Rc::new(rows);
        self.cache = Some((key, Rc::clone(&rows)));
        rows
    }

    /// Whether an entry passes the journal's side, Force and procedure filters.
    fn passes(&self, live: &LiveGame, e: &Event, f: &JournalFilter) -> bool {
        let events = live.game().events();
        let resolved_of =
            |seq: u64| match events.get(seq.saturating_sub(1) as usize).map(|x| &x.kind) {
                Some(EventKind::Resolved {
                    resolution,
                    counters,
                    ..
                }) => Some((
                    resolution.procedure.clone(),
                    counters.values().flatten().cloned().collect::<Vec<_>>(),
                )),
                _ => None,
            };
        // An override or applied effects stand for the resolution they are of.
        let (procedure, mut counters): (Option<String>, Vec<String>) = match &e.kind {
            EventKind::Resolved { resolution, .. } => (
                Some(resolution.procedure.clone()),
                e.kind.counters().into_iter().map(str::to_string).collect(),
            ),
            EventKind::Overridden { of, .. } | EventKind::EffectsApplied { of, .. } => {
                let (p, cs) = resolved_of(*of).unwrap_or_default();
                (Some(p), cs)
            }
            _ => (None, Vec::new()),
        };
        counters.extend(e.kind.counters().into_iter().map(str::to_string));
        let state = live.game().state();
        if let Some(p) = &f.procedure
            && procedure.as_ref() != Some(p)
        {
            return false;
        }
        if let Some(side) = &f.side
            && !counters
                .iter()
                .any(|c| state.counters.get(c).is_some_and(|c| c.side == *side))
        {
            return false;
        }
        if let Some(force) = &f.force
            && !counters.iter().any(|c| {
                state
                    .counters
                    .get(c)
                    .is_some_and(|c| c.force.as_deref() == Some(force.as_str()))
            })
        {
            return false;
        }
        true
    }

    /// The journal's side, Force and procedure filters.
    fn filters_ui(&mut self, ui: &mut Ui, live: &LiveGame) {
        // The lists are the game's own names, worked out once per game (not per frame).
        if self.choices.is_none() {
            let scenario = live.game().scenario();
            let sides: Vec<(String, String)> = scenario
                .sides
                .iter()
                .map(|s| {
                    (
                        s.id.clone(),
                        umpire_core::game::words::side_words(scenario, &s.id),
                    )
                })
                .collect();
            let forces: Vec<(String, String)> = scenario
                .forces
                .iter()
                .filter(|f| !matches!(f.position, umpire_core::game::scenario::Position::OffMap(_)))
                .map(|f| {
                    (
                        f.id.clone(),
                        umpire_core::game::words::force_words(scenario, &f.id),
                    )
                })
                .collect();
            let mut procedures: Vec<(String, String)> = live
                .game()
                .ruleset()
                .procedures
                .iter()
                .map(|p| (p.id.clone(), p.name.clone()))
                .collect();
            procedures.sort_by(|a, b| a.1.cmp(&b.1));
            self.choices = Some(Rc::new((sides, forces, procedures)));
        }
        let choices = self.choices.clone().unwrap_or_default();
        let (sides, forces, procedures) = (&choices.0, &choices.1, &choices.2);
        let combo = |ui: &mut Ui,
                     label: &str,
                     salt: &str,
                     all: &str,
                     options: &[(String, String)],
                     current: &mut Option<String>| {
            let l = ui.label(label);
            let shown = current
                .as_ref()
                .and_then(|c| options.iter().find(|(id, _)| id == c))
                .map_or(all.to_string(), |(_, w)| w.clone());
            egui::ComboBox::from_id_salt(salt)
                .selected_text(shown)
                .width(150.0)
                .truncate()
                .show_ui(ui, |ui| {
                    if ui
                        .selectable_label(current.is_none(), all)
                        .on_hover_text("Show the entries about any of them")
                        .clicked()
                    {
                        *current = None;
                    }
                    for (id, words) in options {
                        if ui
                            .selectable_label(current.as_deref() == Some(id.as_str()), words)
                            .on_hover_text("Show only the entries about this one")
                            .clicked()
                        {
                            *current = Some(id.clone());
                        }
                    }
                })
                .response
                .labelled_by(l.id)
                .on_hover_text("Show only the entries about one of these");
        };
        ui.horizontal_wrapped(|ui| {
            let mut f = self.by.clone();
            combo(
                ui,
                JOURNAL_SIDE_LABEL,
                "journal_side",
                "every side",
                sides,
                &mut f.side,
            );
            if !forces.is_empty() {
                combo(
                    ui,
                    JOURNAL_FORCE_LABEL,
                    "journal_force",
                    "every Force",
                    forces,
                    &mut f.force,
                );
            }
            combo(
                ui,
                JOURNAL_PROCEDURE_LABEL,
                "journal_procedure",
                "every procedure",
                procedures,
                &mut f.procedure,
            );
            self.by = f;
        });
    }
}
