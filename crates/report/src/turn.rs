//! Turn reports (`umpire report`): the turn's events in Sequence-of-Play order — each resolution
//! with its inputs, modifiers, dice (with provenance) and outcome; overrides and skips with their
//! reasons — and the state at the end of the turn. A side's report shows only what that side may
//! know, as the ruleset declares it ([`umpire_core::game::visibility`]): entries it sees whole, the
//! summary of those it sees in part, and the counters at the end as it sees them.

use chrono::{DateTime, Local};

use umpire_core::game::describe::Words;
use umpire_core::game::event::Event;
use umpire_core::game::state::replay;
use umpire_core::game::visibility::SideView;
use umpire_core::game::{Game, GameState};

use super::error::ReportError;
use super::font::Weight;
use super::pdf::{GridCell, TextStyle, Writer, mm};
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
    // A report that spills a few lines onto a last page is set a little smaller instead.
    super::pdf::without_a_stray_page(&template, 0.9, |t| set_report(game, options, t))
}

fn set_report(
    game: &Game,
    options: &ReportOptions,
    template: Template,
) -> Result<Writer, ReportError> {
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
        |s| {
            format!(
                "report for {}",
                umpire_core::game::describe::side_words(scenario, s)
            )
        },
    );
    let title = format!("{} — {span} — {view}", scenario.title);
    // The journal's head on every page: what a reader checks the journal against.
    let head = game.head();
    let footer = format!(
        "Umpire · {title} · journal {} entries, head {}",
        head.entries,
        &head.hash[..head.hash.len().min(16)]
    );
    let mut writer = Writer::new(&title, &footer, template)?;
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
    // Whose view this is, said before anything in it.
    if let Some(v) = &side_view {
        writer.paragraph(None, &sight_note(v), small, 0.0);
    }
    // The span's entries as an after-action report, grouped by phase.
    let styles = super::after_action::Styles {
        body: TextStyle {
            size: t.fonts.body,
            weight: Weight::Regular,
            colour: ink,
        },
        lead: TextStyle {
            size: t.fonts.body,
            weight: Weight::Bold,
            colour: ink,
        },
        small: TextStyle {
            size: t.fonts.table,
            weight: Weight::Regular,
            colour: ink,
        },
        heading_size: t.fonts.title,
        accent,
        keep: t.fonts.table * 6.0,
    };
    super::after_action::write_entries(
        &mut writer,
        game,
        options.turn,
        sights.as_deref(),
        &styles,
    )?;

    // The state at the end of the span.
    let last = options.turn.map_or(game.events().len(), |turn| {
        game.events()
            .iter()
            .rposition(|e| e.cursor.turn <= turn)
            .map_or(0, |i| i + 1)
    });
    let at_end = replay(scenario, &game.events()[..last]).map_err(ReportError::Layout)?;
    let words = Words::at(game, &at_end);
    // Where the span began, for each side's losses.
    let first = options.turn.map_or(0, |turn| {
        game.events()
            .iter()
            .position(|e| e.cursor.turn >= turn)
            .unwrap_or(game.events().len())
    });
    let at_start = replay(scenario, &game.events()[..first]).map_err(ReportError::Layout)?;
    writer.heading(
        &format!("Forces at the end of {span}"),
        t.fonts.title,
        accent,
        t.fonts.table * 6.0,
    );
    // Every counter the reader may see, as (side, place, "name strength [statuses]").
    let strength = game.ruleset().strength_attribute.clone();
    let sp = |attributes: &std::collections::BTreeMap<String, umpire_core::rules::Value>| {
        strength
            .as_ref()
            .and_then(|a| attributes.get(a))
            .and_then(|v| match v {
                umpire_core::rules::Value::Int(n) => Some(*n),
                _ => None,
            })
    };
    let entry = |name: &str,
                 attributes: &std::collections::BTreeMap<String, umpire_core::rules::Value>,
                 marker: bool,
                 statuses: &[String]| {
        let mut s = name.to_string();
        if let Some(n) = sp(attributes) {
            s.push_str(&format!(": {n}"));
        } else if marker {
            let values: Vec<String> = attributes
                .iter()
                .map(|(k, v)| format!("{} {}", words.attribute(k), words.value(v)))
                .collect();
            if !values.is_empty() {
                s.push_str(&format!(": {}", values.join(", ")));
            }
        }
        if !statuses.is_empty() {
            s.push_str(&format!(" [{}]", statuses.join(", ")));
        }
        s
    };
    let place = |removed: &Option<String>, position: &umpire_core::game::scenario::Position| {
        match removed {
            Some(r) => format!("removed ({r})"),
            None => position.to_string(),
        }
    };
    let mut seen: Vec<(String, bool, String, String)> = Vec::new();
    match &side_view {
        None => {
            for c in at_end.counters.values() {
                let statuses: Vec<String> = c.statuses.iter().cloned().collect();
                let marker = c.kind == umpire_core::game::scenario::CounterKind::Marker;
                seen.push((
                    c.side.clone(),
                    true,
                    place(&c.removed, &c.position),
                    entry(&c.name, &c.attributes, marker, &statuses),
                ));
            }
        }
        Some(v) => {
            for c in v.at(&at_end).counters() {
                let marker = c.kind == Some(umpire_core::game::scenario::CounterKind::Marker);
                seen.push((
                    c.side.clone(),
                    c.own,
                    place(&c.removed, &c.position),
                    entry(&c.label, &c.attributes, marker, &c.statuses),
                ));
            }
        }
    }
    // Each side: its losses over the span (its own only, in a side's report), then its
    // counters place by place.
    let mut sides: Vec<String> = scenario.sides.iter().map(|s| s.id.clone()).collect();
    for (side, ..) in &seen {
        if !sides.contains(side) {
            sides.push(side.clone());
        }
    }
    let total = |state: &umpire_core::game::GameState, side: &str| -> i64 {
        state
            .counters
            .values()
            .filter(|c| c.side == side && c.removed.is_none())
            .filter_map(|c| sp(&c.attributes))
            .sum()
    };
    let lead = TextStyle {
        size: t.fonts.body,
        weight: Weight::Bold,
        colour: ink,
    };
    let body = TextStyle {
        size: t.fonts.table,
        weight: Weight::Regular,
        colour: ink,
    };
    for side_id in &sides {
        let rows: Vec<&(String, bool, String, String)> =
            seen.iter().filter(|(s, ..)| s == side_id).collect();
        if rows.is_empty() {
            continue;
        }
        let own = rows.iter().all(|(_, own, ..)| *own);
        writer.ensure(t.fonts.body * 4.0);
        let mut head = words.side(side_id);
        if let Some(a) = strength.as_ref().filter(|_| own) {
            let (before, after) = (total(&at_start, side_id), total(&at_end, side_id));
            let label = words.attribute(a);
            head.push_str(&match before - after {
                0 => format!(" — {label} {after}, no losses"),
                l if l > 0 => format!(" — {label} {after} (lost {l} of {before})"),
                l => format!(" — {label} {after} (gained {} since {before})", -l),
            });
        }
        writer.paragraph(None, &head, lead, 0.0);
        let mut places: Vec<(&String, Vec<&String>)> = Vec::new();
        for (_, _, at, what) in rows {
            match places.iter_mut().find(|(p, _)| *p == at) {
                Some((_, list)) => list.push(what),
                None => places.push((at, vec![what])),
            }
        }
        for (at, list) in places {
            let list: Vec<String> = list.into_iter().cloned().collect();
            writer.paragraph(Some(&format!("{at}:")), &list.join("; "), body, mm(3.0));
        }
        writer.space(mm(1.0));
    }
    Ok(writer)
}

/// The opening note of a side's report: what it shows, and the rules that decide it.
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
