//! Turn reports (`umpire report`): the turn's events in Sequence-of-Play order — each resolution
//! with its inputs, modifiers, dice (with provenance) and outcome; overrides and skips with their
//! reasons — and the state at the end of the turn. A side's report shows only what that side may
//! know, as the ruleset declares it ([`crate::game::visibility`]): entries it sees whole, the
//! summary of those it sees in part, and the counters at the end as it sees them.

use chrono::{DateTime, Local};

use crate::game::describe::Words;
use crate::game::event::{Event, EventKind};
use crate::game::state::replay;
use crate::game::visibility::{SideView, Sight};
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

fn cell(s: impl Into<String>) -> GridCell {
    GridCell::Text(s.into())
}

/// One journal entry as report cells (entry, step, event, details), whole, as the umpire sees
/// it (the megagame Control log lays these out with times and who made each).
pub(crate) fn event_row(game: &Game, state: &GameState, e: &Event) -> Vec<GridCell> {
    let words = Words::at(game, state);
    cells(game, state, e, words.title(e), words.detail(e).join("\n"))
}

/// The row of an entry a side sees in part: its summary lines.
fn summary_row(game: &Game, state: &GameState, e: &Event, lines: &[String]) -> Vec<GridCell> {
    cells(
        game,
        state,
        e,
        Words::at(game, state).title(e),
        lines.join("\n"),
    )
}

fn cells(game: &Game, state: &GameState, e: &Event, what: String, detail: String) -> Vec<GridCell> {
    let step = game
        .steps()
        .get(e.cursor.step)
        .map_or_else(|| format!("step {}", e.cursor.step + 1), |s| s.path.clone());
    let undone = if state.effective.contains(&e.seq) || !e.kind.is_undoable() {
        ""
    } else {
        " (undone)"
    };
    vec![
        cell(e.seq.to_string()),
        cell(step),
        cell(format!("{what}{undone}")),
        cell(detail),
    ]
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

    // What the side may see, judged entry by entry over the whole journal.
    let side_view = match side {
        Some(s) => Some(SideView::new(game.ruleset(), scenario, s).map_err(ReportError::Layout)?),
        None => None,
    };
    let sights = match &side_view {
        Some(v) => Some(v.journal(game.events()).map_err(ReportError::Layout)?),
        None => None,
    };
    // Events of the span, in journal order (the Sequence of Play's order).
    let state = game.state();
    let rows: Vec<Vec<GridCell>> = game
        .events()
        .iter()
        .enumerate()
        .filter(|(_, e)| options.turn.is_none_or(|t| e.cursor.turn == t))
        .filter_map(|(i, e)| match sights.as_ref().map(|s| &s[i].sight) {
            None => Some(event_row(game, state, e)),
            // A side's report leaves the clock out: it is the umpire's to run.
            Some(_) if matches!(e.kind, EventKind::Clock { .. }) => None,
            Some(Sight::Open) => Some(event_row(game, state, e)),
            Some(Sight::Summary(lines)) => Some(summary_row(game, state, e, lines)),
            Some(Sight::Hidden) => None,
        })
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
    let words = Words::at(game, &at_end);
    let strength = game.ruleset().strength_attribute.clone();
    writer.heading(
        &format!("Forces at the end of {span}"),
        t.fonts.title,
        accent,
        t.fonts.table * 6.0,
    );
    let value =
        |attributes: &std::collections::BTreeMap<String, crate::rules::Value>| match &strength {
            Some(a) => attributes
                .get(a)
                .map_or_else(|| "—".to_string(), ToString::to_string),
            None => String::new(),
        };
    let place = |removed: &Option<String>, position: &crate::game::scenario::Position| match removed
    {
        Some(r) => format!("removed: {r}"),
        None => position.to_string(),
    };
    let rows: Vec<Vec<GridCell>> = match &side_view {
        None => at_end
            .counters
            .values()
            .map(|c| {
                vec![
                    cell(c.name.clone()),
                    cell(words.side(&c.side)),
                    cell(place(&c.removed, &c.position)),
                    cell(value(&c.attributes)),
                    cell(c.statuses.iter().cloned().collect::<Vec<_>>().join(", ")),
                ]
            })
            .collect(),
        Some(v) => {
            // The side's own first, then what it sees of the others.
            let mut seen = v.at(&at_end).counters();
            seen.sort_by_key(|c| !c.own);
            seen.into_iter()
                .map(|c| {
                    vec![
                        cell(c.label.clone()),
                        cell(words.side(&c.side)),
                        cell(place(&c.removed, &c.position)),
                        cell(value(&c.attributes)),
                        cell(c.statuses.join(", ")),
                    ]
                })
                .collect()
        }
    };
    let strength_head = strength
        .as_ref()
        .map_or_else(|| "Strength".to_string(), |a| words.attribute(a));
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
    if let Some(v) = &side_view {
        writer.space(mm(2.0));
        writer.paragraph(None, &sight_note(v), small, 0.0);
    }
    Ok(writer.finish())
}

/// The closing note of a side's report: what it shows, and the rules that decide it.
fn sight_note(view: &SideView) -> String {
    let vis = view.rules();
    let mut rules: Vec<&str> = Vec::new();
    let all = vis
        .counters
        .iter()
        .map(|c| c.from.rule.as_str())
        .chain(vis.attributes.iter().map(|a| a.from.rule.as_str()))
        .chain(vis.open_results.iter().map(|o| o.from.rule.as_str()))
        .chain(vis.reveals.iter().map(|r| r.from.rule.as_str()));
    for r in all {
        if !rules.contains(&r) {
            rules.push(r);
        }
    }
    let by = if rules.is_empty() {
        "the ruleset declares no hidden information: other sides' counters show by name and place"
            .to_string()
    } else {
        format!("as the rules say ({})", rules.join(", "))
    };
    format!(
        "As seen by {}: its own counters in full; the others' and their results {by}. Entries it sees only in part are summarised.",
        view.side_name()
    )
}
