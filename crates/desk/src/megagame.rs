//! The desk's megagame view: the phase clock bar (countdown, phase, turn and game years, Hold,
//! Resume, Advance), the table / role filter, and the ledgers panel (each state's treasury,
//! debt, unrest, cards, armies, fleets and characters, with the counters narrowed to one map
//! table or Control role). [`MegagameView`] keeps the filter, the ledgers' toggle and the time
//! typed; the clock's actions are functions over the [`LiveGame`].
//!
//! The clock is folded from the journal on every frame ([`umpire_core::megagame::clock`]), so the bar
//! shows what any desk on the same game would show; while it runs the desk repaints once a
//! second and ticks the Sequence of Play forward when a phase's time runs out.

use chrono::Utc;
use eframe::egui::{self, Color32, RichText, Ui};

use super::commands::{Command, UiCommand};
use super::live::LiveGame;
use umpire_core::game::Game;
use umpire_core::game::event::ClockAction;
use umpire_core::megagame::clock::{ClockStatus, act_clock, clock_status, default_start, tick};
use umpire_core::megagame::ledger::{DEBT, LedgerFilter, StateLedger, TREASURY, ledgers_filtered};
use umpire_core::megagame::{ControlRole, LedgerItem, People, Remit};
use umpire_core::rules::Value;

/// Label of the clock's countdown (its value is "mm:ss").
pub const CLOCK_COUNTDOWN_LABEL: &str = "Phase clock";
/// Label of the table / role filter.
pub const MEGAGAME_FILTER_LABEL: &str = "Table or role";
/// Label of the button that shows or hides the ledgers panel.
pub const LEDGERS_LABEL: &str = "Ledgers";
/// Prefix of each state's heading in the ledgers panel.
pub const LEDGER_PREFIX: &str = "Ledger: ";

/// What the megagame view narrows the counters and ledgers to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum MegagameFilter {
    /// Everything.
    #[default]
    All,
    /// One map table (its id).
    Table(String),
    /// One Control role.
    Role(ControlRole),
}

/// The megagame view's own state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MegagameView {
    /// The table / role filter.
    pub filter: MegagameFilter,
    /// Whether the ledgers panel is shown.
    pub show_ledgers: bool,
    /// The time typed for "Set", mm:ss.
    pub set_to: String,
    /// The form that records for Control (a chart, a treaty, a vote…, an army raised).
    pub record_form: crate::records_panel::RecordForm,
}

impl MegagameView {
    /// The view for a game, when it is a megagame (its ruleset has a phase clock, or its
    /// scenario a `megagame:` section).
    pub fn for_game(game: &Game) -> Option<MegagameView> {
        (game.ruleset().clock().is_some() || game.scenario().megagame.is_some())
            .then(MegagameView::default)
    }

    /// The counters the megagame filter (table / role) lets through, or None for all (not a
    /// megagame, or "Everything"). For the desk's counter lists: compute once a frame.
    pub fn counters_shown(&self, live: &LiveGame) -> Option<std::collections::BTreeSet<String>> {
        if self.filter == MegagameFilter::All {
            return None;
        }
        let people = People::of(live.game());
        Some(
            live.game()
                .state()
                .counters
                .keys()
                .filter(|id| counter_passes(&people, &self.filter, id))
                .cloned()
                .collect(),
        )
    }

    /// The clock bar (a top panel) and the ledgers docked beside it, for a megagame; nothing otherwise.
    /// Call before the game's panels so the bar spans the window.
    pub fn ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        let status = clock_now(live);
        if let Some(s) = &status
            && s.started
            && !s.held
            && !s.finished
        {
            // Time runs out on the wall clock: step the Sequence of Play with it.
            if umpire_core::megagame::clock::tick_target(
                live.game().ruleset(),
                s,
                &live.game().state().cursor,
            )
            .is_some()
            {
                queue.push(UiCommand::ClockTick.into());
            }
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs(1));
        }
        let status = clock_now(live);
        // The ledgers dock on the right, beside the clock bar (added first, they take the
        // window's full height): nothing floats over the clock.
        if self.show_ledgers {
            egui::Panel::right("megagame_ledgers")
                .resizable(true)
                .default_size(460.0)
                .size_range(280.0..=720.0)
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.heading(LEDGERS_LABEL);
                        if ui.small_button("Close").clicked() {
                            queue.push(UiCommand::Ledgers.into());
                        }
                    });
                    // Wide ledgers scroll inside the panel instead of spilling out of it.
                    egui::ScrollArea::both()
                        .id_salt("ledgers_scroll")
                        .auto_shrink([false, false])
                        .show(ui, |ui| self.ledgers_ui(ui, live, queue));
                });
        }
        egui::Panel::top("megagame_clock").show(ui, |ui| {
            self.clock_bar_ui(ui, live, status.as_ref(), queue);
        });
    }

    fn clock_bar_ui(
        &mut self,
        ui: &mut Ui,
        live: &LiveGame,
        status: Option<&ClockStatus>,
        queue: &mut Vec<Command>,
    ) {
        ui.horizontal(|ui| {
            // The filter and the Ledgers toggle keep their place on the right; the clock takes
            // the rest, its phase name cut short on a narrow window.
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let on = self.show_ledgers;
                if ui
                    .selectable_label(on, LEDGERS_LABEL)
                    .on_hover_text("Show or hide the megagame's ledgers")
                    .clicked()
                {
                    queue.push(UiCommand::Ledgers.into());
                }
                self.filter_ui(ui, live);
                ui.separator();
                ui.with_layout(
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| match status {
                        Some(s) => {
                            // The clock is worked by the roles the ruleset's remits name
                            // (Game Control); the others see it run.
                            let works = live
                                .signed_in()
                                .is_none_or(|w| People::of(live.game()).works_the_clock(w.role));
                            self.clock_ui(ui, s, works, queue)
                        }
                        None => {
                            ui.label(RichText::new("No phase clock in this ruleset").weak());
                        }
                    },
                );
            });
        });
    }

    fn clock_ui(&mut self, ui: &mut Ui, s: &ClockStatus, works: bool, queue: &mut Vec<Command>) {
        let colour = if s.held {
            ui.visuals().weak_text_color()
        } else if s.warning {
            Color32::from_rgb(214, 40, 40)
        } else {
            ui.visuals().strong_text_color()
        };
        let label = ui.label(RichText::new(CLOCK_COUNTDOWN_LABEL).weak());
        ui.label(
            RichText::new(s.countdown())
                .monospace()
                .size(34.0)
                .strong()
                .color(colour),
        )
        .labelled_by(label.id);
        if !works {
            ui.label(RichText::new("Game Control works the clock").weak());
        } else if !s.started || s.finished {
            if ui
                .button(UiCommand::ClockStart.label())
                .on_hover_text(UiCommand::ClockStart.hint())
                .clicked()
            {
                queue.push(UiCommand::ClockStart.into());
            }
        } else if s.held {
            if ui
                .button(UiCommand::ClockResume.label())
                .on_hover_text(UiCommand::ClockResume.hint())
                .clicked()
            {
                queue.push(UiCommand::ClockResume.into());
            }
        } else if ui
            .button(UiCommand::ClockHold.label())
            .on_hover_text(UiCommand::ClockHold.hint())
            .clicked()
        {
            queue.push(UiCommand::ClockHold.into());
        }
        if works && s.started && !s.finished {
            if ui
                .button(UiCommand::ClockAdvance.label())
                .on_hover_text(UiCommand::ClockAdvance.hint())
                .clicked()
            {
                queue.push(UiCommand::ClockAdvance.into());
            }
            let label = ui.label("Time left");
            ui.add(
                egui::TextEdit::singleline(&mut self.set_to)
                    .desired_width(48.0)
                    .hint_text("mm:ss"),
            )
            .labelled_by(label.id)
            .on_hover_text("The time left in this phase, in minutes (e.g. 12 or 12:30)");
            if ui
                .button("Set")
                .on_hover_text(UiCommand::ClockSet.hint())
                .clicked()
            {
                queue.push(UiCommand::ClockSet.into());
            }
        }
        ui.separator();
        let state = if !s.started {
            "not started"
        } else if s.finished {
            "the last phase has run out"
        } else if s.held {
            "HELD"
        } else if s.warning {
            "ending soon"
        } else {
            "running"
        };
        ui.vertical(|ui| {
            ui.add(
                egui::Label::new(RichText::new(format!("{} — {state}", s.headline())).strong())
                    .truncate(),
            );
            ui.add(egui::Label::new(s.phase_name.as_str()).truncate());
        });
    }

    fn filter_ui(&mut self, ui: &mut Ui, live: &LiveGame) {
        let people = People::of(live.game());
        let options = filter_options(&people);
        let m = self;
        let current = options
            .iter()
            .find(|(f, _)| *f == m.filter)
            .map_or_else(|| "Everything".to_string(), |(_, l)| l.clone());
        // Drawn right to left (the bar keeps it on the right): the box, then its label.
        let combo = egui::ComboBox::from_id_salt("megagame_filter")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for (f, l) in &options {
                    ui.selectable_value(&mut m.filter, f.clone(), l)
                        .on_hover_text("Show these ledgers");
                }
            })
            .response
            .on_hover_text("Show only the ledgers of one team or kind");
        let label = ui.label(MEGAGAME_FILTER_LABEL);
        combo.labelled_by(label.id);
    }

    /// The ledgers panel: each state (narrowed by the filter) with its treasury, debt, unrest,
    /// cards, armies, fleets and characters; clicking a counter selects it on the desk.
    pub fn ledgers_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        crate::records_panel::records_ui(ui, live.game(), live.seen_by());
        if live.seen_by().is_none() {
            crate::records_panel::record_form_ui(ui, live.game(), &mut self.record_form, queue);
        }
        let filter = self.filter.clone();
        let mut ledgers = filtered_ledgers(live.game(), &filter);
        // In a side's view, only its own team's ledgers (game::visibility).
        ledgers.retain(|l| live.shows_as_own(&l.counter));
        if ledgers.is_empty() {
            ui.label(RichText::new("No state ledgers for this table or role.").weak());
            return;
        }
        let strength = live
            .game()
            .ruleset()
            .strength_attribute
            .clone()
            .unwrap_or_else(|| "strength".into());
        let mut clicked: Option<String> = None;
        // Spouses and heirs are named by counter id: show their names.
        let names: std::collections::BTreeMap<String, String> = live
            .game()
            .state()
            .counters
            .values()
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect();
        for l in &ledgers {
            ledger_ui(ui, l, &names, &strength, &mut clicked);
        }
        if let Some(id) = clicked {
            queue.push(UiCommand::Select(Some(id)).into());
        }
    }
}

/// The options of the filter: (filter, label).
pub fn filter_options(people: &People) -> Vec<(MegagameFilter, String)> {
    let mut out = vec![(MegagameFilter::All, "Everything".to_string())];
    for t in &people.tables {
        out.push((MegagameFilter::Table(t.id.clone()), t.name.clone()));
    }
    for r in ControlRole::ALL {
        // Map Control works per table: the tables above.
        if r != ControlRole::Map || people.tables.is_empty() {
            out.push((MegagameFilter::Role(r), r.label().to_string()));
        }
    }
    out
}

/// Whether a counter passes the filter.
pub fn counter_passes(people: &People, filter: &MegagameFilter, counter: &str) -> bool {
    match filter {
        MegagameFilter::All => true,
        MegagameFilter::Table(t) => people.table_of(counter) == Some(t.as_str()),
        MegagameFilter::Role(r) => people.in_remit(*r, None, counter) != Remit::Outside,
    }
}

/// The ledgers that pass the filter, their items narrowed to it.
pub fn filtered_ledgers(game: &Game, filter: &MegagameFilter) -> Vec<StateLedger> {
    let people = People::of(game);
    let base = match filter {
        MegagameFilter::Table(t) => LedgerFilter {
            table: Some(t.clone()),
            ..LedgerFilter::default()
        },
        _ => LedgerFilter::default(),
    };
    let mut out = ledgers_filtered(game, &base);
    if matches!(filter, MegagameFilter::All) {
        return out;
    }
    for l in &mut out {
        let state_table = l.table.clone();
        for list in [
            &mut l.armies,
            &mut l.fleets,
            &mut l.cities,
            &mut l.areas,
            &mut l.characters,
        ] {
            list.retain(|i| match filter {
                // Characters (and anything else off the map) sit with their state's table.
                MegagameFilter::Table(t) if i.table.is_none() => {
                    state_table.as_deref() == Some(t.as_str())
                }
                _ => counter_passes(&people, filter, &i.id),
            });
        }
    }
    if let MegagameFilter::Role(_) = filter {
        out.retain(|l| {
            counter_passes(&people, filter, &l.counter)
                || !(l.armies.is_empty()
                    && l.fleets.is_empty()
                    && l.cities.is_empty()
                    && l.areas.is_empty()
                    && l.characters.is_empty())
        });
    }
    out
}

fn number(l: &StateLedger, key: &str) -> String {
    if l.unknown.iter().any(|u| u == key) {
        return "?".into();
    }
    l.values
        .get(key)
        .map_or_else(|| "—".to_string(), ToString::to_string)
}

fn item_attr(i: &LedgerItem, key: &str) -> String {
    if i.unknown.iter().any(|u| u == key) {
        return "?".into();
    }
    match i.attributes.get(key) {
        Some(Value::Text(t)) if t.is_empty() => "—".into(),
        Some(v) => v.to_string(),
        None => "—".into(),
    }
}

/// The clock as it stands now, if the game has one.
pub fn clock_now(live: &LiveGame) -> Option<ClockStatus> {
    clock_status(live.game().ruleset(), live.game().events(), Utc::now())
}

/// Starts the clock where the Sequence of Play is.
pub fn clock_start(live: &mut LiveGame) -> bool {
    let Some(start) = default_start(live.game()) else {
        return live.refuse("this game has no phase clock");
    };
    live.act_on_game(|g, actor| act_clock(g, actor, start))
}

/// Holds the clock.
pub fn clock_hold(live: &mut LiveGame) -> bool {
    live.act_on_game(|g, actor| act_clock(g, actor, ClockAction::Hold))
}

/// Resumes the clock.
pub fn clock_resume(live: &mut LiveGame) -> bool {
    live.act_on_game(|g, actor| act_clock(g, actor, ClockAction::Resume))
}

/// Ends the phase now; the Sequence of Play follows.
pub fn clock_advance(live: &mut LiveGame) -> bool {
    live.act_on_game(|g, actor| act_clock(g, actor, ClockAction::Advance))
}

/// Steps the Sequence of Play if the clock's phase has run out (nothing otherwise).
pub fn clock_tick(live: &mut LiveGame) -> bool {
    live.act_on_game(|g, actor| tick(g, actor, Utc::now()))
}

/// Sets the time left in the phase from `typed` (mm:ss, or whole minutes).
pub fn clock_set(live: &mut LiveGame, typed: &str) -> bool {
    let typed = typed.trim().to_string();
    let seconds = match typed.split_once(':') {
        Some((m, s)) => m
            .trim()
            .parse::<u32>()
            .ok()
            .zip(s.trim().parse::<u32>().ok().filter(|s| *s < 60))
            .map(|(m, s)| m * 60 + s),
        None => typed.parse::<u32>().ok().map(|m| m * 60),
    };
    let Some(seconds) = seconds else {
        return live.refuse(&format!("'{typed}' is not mm:ss"));
    };
    live.act_on_game(|g, actor| act_clock(g, actor, ClockAction::SetRemaining { seconds }))
}

/// One state's ledger: treasury (below 0 in red), debt and the rest, its armies, fleets and
/// characters (`names`: counter names by id; a click on one sets `clicked`).
fn ledger_ui(
    ui: &mut Ui,
    l: &StateLedger,
    names: &std::collections::BTreeMap<String, String>,
    strength: &str,
    clicked: &mut Option<String>,
) {
    ui.add_space(4.0);
    // A treasury below zero (taken there at the umpire's word) stands out in red.
    let below = matches!(l.values.get(TREASURY), Some(umpire_core::rules::Value::Int(v)) if *v < 0);
    let mut head = RichText::new(format!(
        "{LEDGER_PREFIX}{} — treasury {}{}",
        l.name,
        number(l, TREASURY),
        if below { " (below 0)" } else { "" }
    ))
    .strong()
    .size(15.0);
    if below {
        head = head.color(ui.visuals().error_fg_color);
    }
    ui.label(head);
    let mut facts = vec![format!("debt {}", number(l, DEBT))];
    for (k, v) in &l.values {
        if k.contains("unrest") || k.contains("card") {
            facts.push(format!("{} {v}", k.replace('_', " ")));
        }
    }
    ui.label(facts.join(" · "));
    let section = |ui: &mut Ui,
                   title: &str,
                   items: &[LedgerItem],
                   cols: &[(&str, &str)],
                   clicked: &mut Option<String>| {
        if items.is_empty() {
            return;
        }
        ui.label(RichText::new(title).strong());
        egui::Grid::new(format!("{}-{title}", l.state))
            .striped(true)
            .show(ui, |ui| {
                ui.label("");
                for (head, _) in cols {
                    ui.label(RichText::new(*head).weak());
                }
                ui.end_row();
                for i in items {
                    if ui
                        .selectable_label(false, &i.name)
                        .on_hover_text(&i.id)
                        .clicked()
                    {
                        *clicked = Some(i.id.clone());
                    }
                    for (_, key) in cols {
                        let text = if *key == "position" {
                            i.removed
                                .as_ref()
                                .map_or_else(|| i.position.clone(), |r| format!("removed: {r}"))
                        } else {
                            let v = item_attr(i, key);
                            names.get(&v).cloned().unwrap_or(v)
                        };
                        ui.label(text);
                    }
                    ui.end_row();
                }
            });
    };
    section(
        ui,
        "Armies",
        &l.armies,
        &[
            ("where", "position"),
            ("strength", strength),
            ("arrears", "arrears"),
            ("fatigue", "fatigue"),
        ],
        clicked,
    );
    section(
        ui,
        "Fleets",
        &l.fleets,
        &[("where", "position"), ("strength", strength)],
        clicked,
    );
    section(
        ui,
        "Characters",
        &l.characters,
        &[("age", "age"), ("spouse", "spouse"), ("heir", "heir")],
        clicked,
    );
    ui.separator();
}
