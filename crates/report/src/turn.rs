//! Turn reports (`umpire report`): the turn's events in Sequence-of-Play order — each resolution
//! with its inputs, modifiers, dice (with provenance) and outcome; overrides and skips with their
//! reasons — and the state at the end of the turn. A side's report shows only what that side may
//! know, as the ruleset declares it ([`umpire_core::game::visibility`]): entries it sees whole, the
//! summary of those it sees in part, and the counters at the end as it sees them.

use chrono::{DateTime, Local};

use std::collections::BTreeMap;

use umpire_core::game::describe::Words;
use umpire_core::game::scenario::{CounterKind, Position};
use umpire_core::game::visibility::{EntrySight, SideView};
use umpire_core::game::{Game, GameState, Timeline};
use umpire_core::rules::Value;

use super::error::ReportError;
use super::font::Weight;
use super::pdf::{PageStyle, Writer, mm};
use super::template::Template;

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

/// The turn report (or the whole game's) as a PDF.
pub fn turn_report_pdf(
    game: &Game,
    options: &ReportOptions,
    template: Template,
) -> Result<Vec<u8>, ReportError> {
    // The journal folded once, for every section (and for a second setting, smaller).
    let timeline = game.timeline().map_err(ReportError::Layout)?;
    // What the side may see, judged entry by entry over the whole journal.
    let side_view = match options.side.as_deref() {
        Some(s) => {
            Some(SideView::new(game.ruleset(), game.scenario(), s).map_err(ReportError::Layout)?)
        }
        None => None,
    };
    let sights = match &side_view {
        Some(v) => Some(v.sights(&timeline).map_err(ReportError::Layout)?),
        None => None,
    };
    let report = Report {
        game,
        options,
        timeline: &timeline,
        side_view: side_view.as_ref(),
        sights: sights.as_deref(),
        span: span_words(game, options.turn),
        view: view_words(game, options.side.as_deref()),
    };
    // A report that spills a few lines onto a last page is set a little smaller instead.
    super::pdf::without_a_stray_page(&template, 0.9, |t| set_report(&report, t))
}

/// What every section of a turn report reads.
struct Report<'a> {
    game: &'a Game,
    options: &'a ReportOptions,
    /// The journal, folded once.
    timeline: &'a Timeline<'a>,
    /// The side whose report it is (None: the umpire's).
    side_view: Option<&'a SideView<'a>>,
    /// What that side sees of each entry.
    sights: Option<&'a [EntrySight]>,
    /// "turn 3 (May 1809)" or "whole game".
    span: String,
    /// "umpire's report" or "report for …".
    view: String,
}

/// The span in words: one turn with its date, or the whole game.
fn span_words(game: &Game, turn: Option<u32>) -> String {
    turn.map_or_else(
        || "whole game".to_string(),
        |t| {
            let date = game
                .scenario()
                .calendar
                .get((t as usize).saturating_sub(1))
                .map_or_else(String::new, |d| format!(" ({d})"));
            format!("turn {t}{date}")
        },
    )
}

/// Whose report it is, in words.
fn view_words(game: &Game, side: Option<&str>) -> String {
    side.map_or_else(
        || "umpire's report".to_string(),
        |s| {
            format!(
                "report for {}",
                umpire_core::game::describe::side_words(game.scenario(), s)
            )
        },
    )
}

fn set_report(report: &Report, template: Template) -> Result<Writer, ReportError> {
    let title = format!(
        "{} — {} — {}",
        report.game.scenario().title,
        report.span,
        report.view
    );
    // The journal's head on every page: what a reader checks the journal against.
    let head = report.game.head();
    // Whose report and the head first: a long footer is cut at its end (the title).
    let mut view = report.view.clone();
    if let Some(first) = view.get(..1) {
        view = format!("{}{}", first.to_uppercase(), &view[1..]);
    }
    let footer = format!(
        "{view} · journal {} entries, head {} · Umpire · {} — {}",
        head.entries,
        &head.hash[..head.hash.len().min(16)],
        report.game.scenario().title,
        report.span,
    );
    let mut writer = Writer::new(&title, &footer, template)?;
    let t = writer.template().clone();
    let palette = PageStyle::of(&t);
    write_title(&mut writer, report, &t, &palette);
    // Whose view this is, said before anything in it.
    if let Some(v) = report.side_view {
        writer.paragraph(None, &sight_note(v), palette.small, 0.0);
    }
    // The result first, once the game has ended (else where it stands): how it was reached,
    // each side's losses and what it held.
    write_result(&mut writer, report, &t, &palette)?;
    // The span's entries as an after-action report, grouped by phase.
    let styles = super::after_action::Styles {
        body: palette.style(t.fonts.body, Weight::Regular),
        lead: palette.style(t.fonts.body, Weight::Bold),
        small: palette.style(t.fonts.table, Weight::Regular),
        heading_size: t.fonts.title,
        accent: palette.accent,
        keep: t.fonts.table * 6.0,
    };
    super::after_action::write_entries(
        &mut writer,
        report.game,
        report.timeline,
        report.options.turn,
        report.sights,
        &styles,
    )?;
    write_forces(&mut writer, report, &t, &palette)?;
    Ok(writer)
}

/// The title, the facts under it, and the journal's head to check it against.
fn write_title(writer: &mut Writer, report: &Report, t: &Template, palette: &PageStyle) {
    let game = report.game;
    writer.paragraph(
        None,
        &game.scenario().title,
        palette.style(t.fonts.title * 1.4, Weight::Bold),
        0.0,
    );
    let facts = [
        format!("Ruleset {}", game.ruleset().name),
        report.span.clone(),
        report.view.clone(),
        format!(
            "printed {}",
            report.options.printed_at.format("%Y-%m-%d %H:%M")
        ),
    ];
    writer.paragraph(None, &facts.join(" · "), palette.small, 0.0);
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
        palette.small,
        0.0,
    );
    // After the reveal, anyone could write app rolls: the ones before it are held by a head
    // noted after it — this one.
    if let Some(words) = game.app_dice_before_reveal() {
        writer.paragraph(
            None,
            &format!("{words} — this report's head ({}) is one", head.token()),
            palette.small,
            0.0,
        );
    }
}

/// A counter as the Forces section lists it: (side, whether the reader's own, place, "name
/// strength [statuses]").
type Listed = (String, bool, String, String);

/// A counter's strength, where the ruleset names a strength attribute and it is a number.
fn strength_of(game: &Game, attributes: &BTreeMap<String, Value>) -> Option<i64> {
    game.ruleset()
        .strength_attribute
        .as_ref()
        .and_then(|a| attributes.get(a))
        .and_then(|v| match v {
            Value::Int(n) => Some(*n),
            _ => None,
        })
}

/// "name: strength [statuses]" (a marker's values in words where it has no strength).
fn counter_entry(
    game: &Game,
    words: &Words,
    name: &str,
    attributes: &BTreeMap<String, Value>,
    marker: bool,
    statuses: &[String],
) -> String {
    let mut s = name.to_string();
    if let Some(n) = strength_of(game, attributes) {
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
        let said: Vec<String> = statuses.iter().map(|x| words.status(x)).collect();
        s.push_str(&format!(" [{}]", said.join(", ")));
    }
    s
}

fn place(removed: &Option<String>, position: &Position) -> String {
    match removed {
        Some(r) => format!("removed ({r})"),
        None => position.to_string(),
    }
}

/// Every counter the reader may see at the end of the span.
fn forces_seen(report: &Report, at_end: &GameState, words: &Words) -> Vec<Listed> {
    let game = report.game;
    let mut seen: Vec<Listed> = Vec::new();
    match report.side_view {
        None => {
            for c in at_end.counters.values() {
                let statuses: Vec<String> = c.statuses.iter().cloned().collect();
                let marker = c.kind == CounterKind::Marker;
                seen.push((
                    c.side.clone(),
                    true,
                    place(&c.removed, &c.position),
                    counter_entry(game, words, &c.name, &c.attributes, marker, &statuses),
                ));
            }
        }
        Some(v) => {
            for c in v.at(at_end).counters() {
                let marker = c.kind == Some(CounterKind::Marker);
                seen.push((
                    c.side.clone(),
                    c.own,
                    place(&c.removed, &c.position),
                    counter_entry(game, words, &c.label, &c.attributes, marker, &c.statuses),
                ));
            }
        }
    }
    seen
}

/// The Forces at the end of the span: each side, its losses over the span (its own only, in a
/// side's report), then its counters place by place.
fn write_forces(
    writer: &mut Writer,
    report: &Report,
    t: &Template,
    palette: &PageStyle,
) -> Result<(), ReportError> {
    let (game, timeline) = (report.game, report.timeline);
    // The state at the end of the span, and where the span began (for each side's losses).
    let last = report
        .options
        .turn
        .map_or(timeline.len(), |turn| timeline.end_of_turn(turn));
    let at_end = timeline.state_at(last).map_err(ReportError::Layout)?;
    let first = report
        .options
        .turn
        .map_or(0, |turn| timeline.start_of_turn(turn));
    let at_start = timeline.state_at(first).map_err(ReportError::Layout)?;
    let words = Words::at(game, &at_end);
    writer.heading(
        &if report.options.turn.is_some() {
            format!("Forces at the end of {}", report.span)
        } else if at_end.ended.is_some() {
            "Forces at the end of the game".to_string()
        } else {
            "Forces at the end of the game so far".to_string()
        },
        t.fonts.title,
        palette.accent,
        t.fonts.table * 6.0,
    );
    let seen = forces_seen(report, &at_end, &words);
    let mut sides: Vec<String> = game.scenario().sides.iter().map(|s| s.id.clone()).collect();
    for (side, ..) in &seen {
        if !sides.contains(side) {
            sides.push(side.clone());
        }
    }
    let total = |state: &GameState, side: &str| -> i64 {
        state
            .counters
            .values()
            .filter(|c| c.side == side && c.removed.is_none())
            .filter_map(|c| strength_of(game, &c.attributes))
            .sum()
    };
    let lead = palette.style(t.fonts.body, Weight::Bold);
    let body = palette.style(t.fonts.table, Weight::Regular);
    for side_id in &sides {
        let rows: Vec<&Listed> = seen.iter().filter(|(s, ..)| s == side_id).collect();
        if rows.is_empty() {
            continue;
        }
        let own = rows.iter().all(|(_, own, ..)| *own);
        writer.ensure(t.fonts.body * 4.0);
        let mut head = words.side(side_id);
        if let Some(a) = game.ruleset().strength_attribute.as_ref().filter(|_| own) {
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
    Ok(())
}

/// The game's result, once it has ended — the sentence, how it was reached, each side's losses
/// (its own only, in a side's report) and the places each held — or, while it goes on, who
/// would win if it ended now.
fn write_result(
    writer: &mut Writer,
    report: &Report,
    t: &Template,
    palette: &PageStyle,
) -> Result<(), ReportError> {
    let (game, timeline) = (report.game, report.timeline);
    let at_end = timeline
        .state_at(timeline.len())
        .map_err(ReportError::Layout)?;
    let standing = umpire_core::game::victory::standing(game.scenario(), &at_end);
    let body = palette.style(t.fonts.body, Weight::Regular);
    let small = palette.style(t.fonts.table, Weight::Regular);
    let Some(result) = &standing.ended else {
        if let Some(line) = standing.headline() {
            writer.paragraph(None, &line, small, 0.0);
        }
        return Ok(());
    };
    writer.heading("Result", t.fonts.title, palette.accent, t.fonts.table * 6.0);
    writer.paragraph(
        None,
        &umpire_core::game::describe::capitalised(&result.sentence),
        palette.style(t.fonts.body, Weight::Bold),
        0.0,
    );
    for line in result
        .reasons
        .iter()
        .filter(|l| !result.sentence.contains(l.as_str()))
    {
        writer.paragraph(Some("·"), line, small, mm(3.0));
    }
    let at_start = timeline.state_at(0).map_err(ReportError::Layout)?;
    let words = Words::at(game, &at_end);
    let total = |state: &GameState, side: &str| -> i64 {
        state
            .counters
            .values()
            .filter(|c| c.side == side && c.removed.is_none())
            .filter_map(|c| strength_of(game, &c.attributes))
            .sum()
    };
    for side in &game.scenario().sides {
        let mut parts = Vec::new();
        let own = report.side_view.is_none_or(|v| v.side() == side.id);
        if let Some(a) = game.ruleset().strength_attribute.as_ref().filter(|_| own) {
            let (before, after) = (total(&at_start, &side.id), total(&at_end, &side.id));
            parts.push(format!(
                "lost {} {} of {before}",
                (before - after).max(0),
                words.attribute(a)
            ));
        }
        let held: Vec<String> = at_end
            .control
            .iter()
            .filter(|(_, c)| {
                c.side.as_deref().is_some_and(|s| {
                    s == side.id
                        || game
                            .scenario()
                            .armies
                            .iter()
                            .any(|a| a.id == s && a.side == side.id)
                })
            })
            .map(|(p, c)| {
                if c.conquered {
                    format!("{p} (Conquered)")
                } else {
                    p.clone()
                }
            })
            .collect();
        parts.push(if held.is_empty() {
            "held none of the places the victory conditions track".to_string()
        } else {
            format!("held {}", held.join(", "))
        });
        writer.paragraph(
            Some(&format!("{}:", words.side(&side.id))),
            &parts.join("; "),
            body,
            mm(3.0),
        );
    }
    writer.space(mm(2.0));
    Ok(())
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
