//! Turn reports (`umpire report`): the turn's events in Sequence-of-Play order — each resolution
//! with its inputs, modifiers, dice (with provenance) and outcome; overrides and skips with their
//! reasons — and the state at the end of the turn. A side's report shows only what that side may
//! know: its own forces in full, enemy counters by name and place only, and nothing of enemy
//! counters marked `hidden` (e.g. hidden Capitani in "All is lost save Honour").

use std::collections::BTreeSet;

use chrono::{DateTime, Local};

use crate::dice::Provenance;
use crate::game::event::{CounterChange, Event, EventKind};
use crate::game::state::{CounterState, replay};
use crate::game::{Game, GameState};

use super::error::ReportError;
use super::font::Weight;
use super::pdf::{Grid, GridCell, TextStyle, Writer, mm};
use super::template::{Template, parse_colour};

/// What to print.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportOptions {
    /// One turn, or the whole game.
    pub turn: Option<u32>,
    /// One side's view, or the umpire's.
    pub side: Option<String>,
    /// When it is printed (shown in the header).
    pub printed_at: DateTime<Local>,
}

/// The status that hides a counter from the other sides.
pub const HIDDEN: &str = "hidden";

fn cell(s: impl Into<String>) -> GridCell {
    GridCell::Text(s.into())
}

/// Whether a side may see this counter at all.
fn visible(c: &CounterState, side: Option<&str>) -> bool {
    side.is_none_or(|s| c.side == s || !c.statuses.contains(HIDDEN))
}

fn change_counter(c: &CounterChange) -> &str {
    c.counter()
}

fn describe_change(c: &CounterChange, own: bool) -> String {
    match c {
        CounterChange::Attribute {
            counter,
            attribute,
            to,
            ..
        } if own => format!("{counter}: {} = {to}", attribute.replace('_', " ")),
        CounterChange::Attribute { counter, .. } => format!("{counter}: changed"),
        CounterChange::Status {
            counter,
            status,
            on,
        } => format!(
            "{counter}: {} {status}",
            if *on { "now" } else { "no longer" }
        ),
        CounterChange::Move { counter, to, .. } => format!("{counter} → {to}"),
        CounterChange::Remove { counter, reason } => format!("{counter} removed ({reason})"),
        CounterChange::Adjust {
            counter,
            attribute,
            by,
        } if own => format!("{counter}: {} {by:+}", attribute.replace('_', " ")),
        CounterChange::Adjust { counter, .. } => format!("{counter}: changed"),
    }
}

/// One journal entry as report cells (entry, step, event, details), or None when the side may
/// not see it (the megagame Control log lays these out with times and who made each).
pub(crate) fn event_row(
    game: &Game,
    state: &GameState,
    e: &Event,
    side: Option<&str>,
) -> Option<Vec<GridCell>> {
    row(game, state, e, side)
}

/// One journal entry as a report row, or None when the side may not see it.
fn row(game: &Game, state: &GameState, e: &Event, side: Option<&str>) -> Option<Vec<GridCell>> {
    let seen = |id: &str| state.counters.get(id).is_none_or(|c| visible(c, side));
    let own = |id: &str| side.is_none_or(|s| state.counters.get(id).is_some_and(|c| c.side == s));
    let step = game
        .steps()
        .get(e.cursor.step)
        .map_or_else(|| format!("step {}", e.cursor.step + 1), |s| s.path.clone());
    let undone = if state.effective.contains(&e.seq) || !e.kind.is_undoable() {
        ""
    } else {
        " (undone)"
    };
    let (what, detail) = match &e.kind {
        EventKind::GameStarted { scenario, .. } => (
            "Game started".to_string(),
            format!("scenario {scenario}; {}", game.seed_statement()),
        ),
        EventKind::SeedRevealed { seed, .. } => (
            "App dice seed revealed".to_string(),
            format!("seed {seed}: every app roll can now be checked against the commitment"),
        ),
        EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
            let reason = if let EventKind::Changed { reason, .. } = &e.kind {
                reason.clone()
            } else {
                None
            };
            let shown: Vec<String> = changes
                .iter()
                .filter(|c| seen(change_counter(c)))
                .map(|c| describe_change(c, own(change_counter(c))))
                .collect();
            if shown.is_empty() {
                return None;
            }
            let title = if matches!(e.kind, EventKind::EffectsApplied { .. }) {
                "Effects applied"
            } else {
                "Counters"
            };
            let why = reason
                .as_ref()
                .map_or_else(String::new, |r| format!(" — {r}"));
            (title.to_string(), format!("{}{why}", shown.join("; ")))
        }
        EventKind::Resolved {
            resolution,
            counters,
        } => {
            let involved: Vec<&String> = counters.values().flatten().collect();
            if !involved.is_empty() && !involved.iter().any(|id| seen(id)) {
                return None;
            }
            let name = game
                .ruleset()
                .procedure(&resolution.procedure)
                .map_or(resolution.procedure.clone(), |p| p.name.clone());
            // Flags only when set, as in the explanation.
            let inputs: Vec<String> = resolution
                .inputs
                .iter()
                .filter(|(_, v)| **v != crate::rules::Value::Bool(false))
                .map(|(k, v)| {
                    if *v == crate::rules::Value::Bool(true) {
                        k.replace('_', " ")
                    } else {
                        format!("{} {v}", k.replace('_', " "))
                    }
                })
                .collect();
            let modifiers: Vec<String> = resolution
                .modifiers
                .iter()
                .map(|m| {
                    format!(
                        "{} {}{}",
                        m.name,
                        m.value.map_or("?".into(), |v| format!("{v:+}")),
                        if m.source.is_empty() {
                            String::new()
                        } else {
                            format!(" [{}]", m.source)
                        }
                    )
                })
                .collect();
            let dice: Vec<String> = resolution
                .rolls
                .iter()
                .map(|r| {
                    let faces: Vec<String> = r.dice.iter().map(|d| d.face.to_string()).collect();
                    let from = match &r.provenance {
                        Provenance::App { first_draw, .. } => {
                            format!("app dice, draw {first_draw}")
                        }
                        Provenance::Physical { entered_by } => format!(
                            "physical dice{}",
                            entered_by
                                .as_ref()
                                .map_or_else(String::new, |b| format!(" rolled by {b}"))
                        ),
                    };
                    format!("{} [{}] = {} ({from})", r.expr, faces.join(", "), r.total)
                })
                .collect();
            let mut parts = Vec::new();
            if !involved.is_empty() {
                parts.push(format!(
                    "Counters: {}",
                    involved
                        .iter()
                        .filter(|id| seen(id))
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if !inputs.is_empty() {
                parts.push(format!("Inputs: {}", inputs.join(", ")));
            }
            if !modifiers.is_empty() {
                parts.push(format!("Modifiers: {}", modifiers.join("; ")));
            }
            if !dice.is_empty() {
                parts.push(format!("Dice: {}", dice.join("; ")));
            }
            let chart = if resolution.outcome.from_physical_chart {
                " (read off the physical chart)"
            } else {
                ""
            };
            let effects: Vec<String> = resolution
                .outcome
                .effects
                .iter()
                .map(crate::resolve::describe_effect)
                .collect();
            parts.push(format!(
                "Outcome: {}{chart}{}",
                resolution.outcome.label,
                if effects.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", effects.join("; "))
                }
            ));
            (name, parts.join("\n"))
        }
        EventKind::Overridden {
            of,
            outcome,
            reason,
            ..
        } => (
            "OVERRIDE".to_string(),
            format!("entry {of} now reads {outcome}. Reason: {reason}"),
        ),
        EventKind::Stepped { to, .. } => {
            let to_step = game
                .steps()
                .get(to.step)
                .map_or_else(String::new, |s| s.path.clone());
            (
                "Sequence of Play".to_string(),
                format!("to turn {}, {to_step}", to.turn),
            )
        }
        EventKind::Skipped { item, reason } => {
            ("Skipped".to_string(), format!("{item}. Reason: {reason}"))
        }
        EventKind::Note { text } => ("Note".to_string(), text.clone()),
        EventKind::Undone { event } => (
            "Undo".to_string(),
            format!("entry {event} undone (it stays in the journal)"),
        ),
        EventKind::Redone { event } => ("Redo".to_string(), format!("entry {event} restored")),
        // A side's report leaves the clock out, and announcements not made to everyone.
        EventKind::Clock { action } => {
            if side.is_some() {
                return None;
            }
            ("Clock".to_string(), action.describe())
        }
        EventKind::Announced {
            audience,
            team,
            text,
        } => {
            use crate::game::event::Audience;
            let heard = match audience {
                Audience::Public => true,
                Audience::Team => side.is_none() || team.as_deref() == side,
                Audience::Control => side.is_none(),
            };
            if !heard {
                return None;
            }
            (
                format!("Announcement ({audience})"),
                match team {
                    Some(t) => format!("{t}: {text}"),
                    None => text.clone(),
                },
            )
        }
    };
    Some(vec![
        cell(e.seq.to_string()),
        cell(step),
        cell(format!("{what}{undone}")),
        cell(detail),
    ])
}

/// The turn report (or the whole game's) as a PDF.
pub fn turn_report_pdf(
    game: &Game,
    options: &ReportOptions,
    template: Template,
) -> Result<Vec<u8>, ReportError> {
    let scenario = game.scenario();
    let side = options.side.as_deref();
    let span = options.turn.map_or_else(
        || "whole game".to_string(),
        |t| {
            let date = scenario
                .calendar
                .get((t as usize).saturating_sub(1))
                .map_or_else(String::new, |d| format!(" ({d})"));
            format!("turn {t}{date}")
        },
    );
    let view = side.map_or_else(
        || "umpire's report".to_string(),
        |s| format!("report for {s}"),
    );
    let title = format!("{} — {span} — {view}", scenario.title);
    let mut writer = Writer::new(&title, &format!("Umpire · {title}"), template)?;
    let t = writer.template().clone();
    let ink = parse_colour(&t.colours.text).unwrap_or((0.0, 0.0, 0.0));
    let muted = parse_colour(&t.colours.muted).unwrap_or((0.3, 0.3, 0.3));
    let accent = parse_colour(&t.colours.title_fill).unwrap_or(ink);
    let small = TextStyle {
        size: t.fonts.subtitle,
        weight: Weight::Regular,
        colour: muted,
    };
    writer.paragraph(
        None,
        &scenario.title,
        TextStyle {
            size: t.fonts.title * 1.4,
            weight: Weight::Bold,
            colour: ink,
        },
        0.0,
    );
    let facts = [
        format!("Ruleset {}", game.ruleset().name),
        format!("scenario {}", scenario.id),
        span.clone(),
        view.clone(),
        format!("printed {}", options.printed_at.format("%Y-%m-%d %H:%M")),
    ];
    writer.paragraph(None, &facts.join(" · "), small, 0.0);
    // What a player keeps to check later that this journal was not rewritten.
    let head = game.head();
    writer.paragraph(
        None,
        &format!(
            "Journal: {} entries, head {} · {} · check with `umpire game verify FILE --head {}`",
            head.entries,
            head.hash,
            game.seed_statement(),
            head.token()
        ),
        small,
        0.0,
    );

    // Events of the span, in journal order (the Sequence of Play's order).
    let events: Vec<&Event> = game
        .events()
        .iter()
        .filter(|e| options.turn.is_none_or(|t| e.cursor.turn == t))
        .collect();
    let state = game.state();
    let rows: Vec<Vec<GridCell>> = events
        .iter()
        .filter_map(|e| row(game, state, e, side))
        .collect();
    writer.heading("Events", t.fonts.title, accent, t.fonts.table * 6.0);
    if rows.is_empty() {
        writer.paragraph(None, "Nothing recorded.", small, 0.0);
    } else {
        writer.table(&Grid {
            header: vec![vec![
                cell("Entry"),
                cell("Step"),
                cell("Event"),
                cell("Details"),
            ]],
            rows,
            continued: "Events".into(),
        });
    }

    // The state at the end of the span.
    let last = options.turn.map_or(game.events().len(), |turn| {
        game.events()
            .iter()
            .rposition(|e| e.cursor.turn <= turn)
            .map_or(0, |i| i + 1)
    });
    let at_end = replay(scenario, &game.events()[..last]).map_err(ReportError::Layout)?;
    let strength = game.ruleset().strength_attribute.clone();
    writer.heading(
        &format!("Forces at the end of {span}"),
        t.fonts.title,
        accent,
        t.fonts.table * 6.0,
    );
    let mut sides: BTreeSet<&str> = at_end.counters.values().map(|c| c.side.as_str()).collect();
    if let Some(s) = side {
        sides.retain(|x| *x == s);
        sides.insert(s);
    }
    let mut rows = Vec::new();
    for c in at_end.counters.values() {
        if !visible(c, side) {
            continue;
        }
        let own = side.is_none_or(|s| c.side == s);
        let strength_text = match (&strength, own) {
            (Some(a), true) => c
                .attributes
                .get(a)
                .map_or_else(String::new, ToString::to_string),
            (Some(_), false) => "—".to_string(),
            (None, _) => String::new(),
        };
        let statuses = if own || !c.statuses.is_empty() {
            c.statuses.iter().cloned().collect::<Vec<_>>().join(", ")
        } else {
            String::new()
        };
        let place = match &c.removed {
            Some(r) => format!("removed: {r}"),
            None => c.position.to_string(),
        };
        rows.push(vec![
            cell(c.name.clone()),
            cell(c.side.clone()),
            cell(place),
            cell(strength_text),
            cell(statuses),
        ]);
    }
    let strength_head = strength
        .as_ref()
        .map_or_else(|| "Strength".to_string(), |a| a.replace('_', " "));
    writer.table(&Grid {
        header: vec![vec![
            cell("Counter"),
            cell("Side"),
            cell("Position"),
            cell(strength_head),
            cell("Status"),
        ]],
        rows,
        continued: "Forces".into(),
    });
    if side.is_some() {
        writer.space(mm(2.0));
        writer.paragraph(None, "Enemy counters show name and place only; hidden enemy counters are left out until revealed.", small, 0.0);
    }
    Ok(writer.finish())
}
