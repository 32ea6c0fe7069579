//! The body of a turn report as an after-action report: the turn's entries grouped by the
//! Sequence of Play's phases (a phase heading once), each resolution as a block a reader can
//! recompute (who and where with their strengths, the inputs, each modifier with its rule, the
//! dice with their provenance, the modified roll, the row and column, the result in words, what
//! was applied), moves summarised per Force, the changes, notes and announcements as lines, the
//! skipped items and the steps passed without entries folded into one line each. Every word
//! comes from the engine's describer ([`crate::game::describe::Words`]).

use std::collections::BTreeMap;

use crate::game::describe::{Words, and_list, force_words};
use crate::game::event::{CounterChange, Event, EventKind};
use crate::game::state::{GameState, append_event, initial_state, replay};
use crate::game::visibility::Sight;
use crate::game::{Game, scenario::Position};
use crate::rules::Value;

use super::error::ReportError;
use super::pdf::{TextStyle, Writer, mm};

/// The styles the report body uses.
pub(crate) struct Styles {
    /// Running text.
    pub body: TextStyle,
    /// The lead of a block (a resolution's head).
    pub lead: TextStyle,
    /// Details and folded lines.
    pub small: TextStyle,
    /// A phase heading's size and colour.
    pub heading_size: f32,
    /// Heading colour.
    pub accent: (f32, f32, f32),
    /// How much room a heading keeps with what follows.
    pub keep: f32,
}

/// One entry as the report shows it: whole, or the summary lines a side is given.
enum Shown<'e> {
    Whole(&'e Event),
    Summary(&'e Event, Vec<String>),
}

impl Shown<'_> {
    fn event(&self) -> &Event {
        match self {
            Shown::Whole(e) | Shown::Summary(e, _) => e,
        }
    }
}

/// What one phase of one turn holds, in the order the report prints it.
#[derive(Default)]
struct Phase {
    name: String,
    /// Resolution blocks and single lines, in journal order.
    items: Vec<Item>,
    /// Moves by Force (or counter): (who, first from, last to, entries).
    moves: Vec<(String, Option<String>, String, Vec<u64>)>,
    /// Skipped items, grouped by their reason.
    /// Skipped items by reason: (the step they were pending at, the item in words).
    skips: BTreeMap<String, Vec<(usize, String)>>,
    /// Steps entered, and whether anything was recorded at them.
    steps: Vec<(usize, bool)>,
    /// Entries undone or restored.
    corrections: Vec<String>,
}

enum Item {
    /// A resolution: its lead line and detail lines.
    Block(String, Vec<String>),
    /// One line.
    Line(String),
}

/// Writes the entries of `turns` (all turns when None), grouped by turn and phase.
pub(crate) fn write_entries(
    writer: &mut Writer,
    game: &Game,
    turn: Option<u32>,
    sights: Option<&[crate::game::visibility::EntrySight]>,
    st: &Styles,
) -> Result<usize, ReportError> {
    let events = game.events();
    let final_state = game.state();
    // The state just before each entry: who was where, with what strength, when it happened.
    let mut running = initial_state(game.scenario());
    let mut before: BTreeMap<u64, (Vec<String>, Vec<String>)> = BTreeMap::new();
    let mut shown: Vec<Shown> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let in_span = turn.is_none_or(|t| e.cursor.turn == t);
        if in_span && let EventKind::Resolved { counters, .. } = &e.kind {
            before.insert(e.seq, who_and_where(game, &running, counters));
        }
        if in_span {
            match sights.map(|s| &s[i].sight) {
                None => shown.push(Shown::Whole(e)),
                // A side's report leaves the clock out: it is the umpire's to run.
                Some(_) if matches!(e.kind, EventKind::Clock { .. }) => {}
                Some(Sight::Open) => shown.push(Shown::Whole(e)),
                Some(Sight::Summary(lines)) => shown.push(Shown::Summary(e, lines.clone())),
                Some(Sight::Hidden) => {}
            }
        }
        match &e.kind {
            // An undo or redo changes what counts: fold the journal again up to here.
            EventKind::Undone { .. } | EventKind::Redone { .. } => {
                running = replay(game.scenario(), &events[..=i]).map_err(ReportError::Layout)?;
            }
            _ => append_event(&mut running, e).map_err(ReportError::Layout)?,
        }
    }
    let words = Words::at(game, final_state);
    // Effects applied and overrides belong under the resolution they follow.
    let mut attached: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for s in &shown {
        let e = s.event();
        let line = match &e.kind {
            EventKind::EffectsApplied { of, changes } => Some((
                *of,
                format!(
                    "Applied (entry {}): {}",
                    e.seq,
                    words.changes(changes, None)
                ),
            )),
            EventKind::Overridden { of, .. } => Some((
                *of,
                format!(
                    "Overridden (entry {}): {}",
                    e.seq,
                    words.detail(e).join(" ")
                ),
            )),
            _ => None,
        };
        if let Some((of, line)) = line
            && matches!(s, Shown::Whole(_))
            && shown.iter().any(|x| x.event().seq == of)
        {
            attached.entry(of).or_default().push(line);
        }
    }
    let mut turns: Vec<(u32, Vec<Phase>)> = Vec::new();
    for s in &shown {
        let e = s.event();
        if turns.last().is_none_or(|(t, _)| *t != e.cursor.turn) {
            turns.push((e.cursor.turn, Vec::new()));
        }
        let phases = &mut turns.last_mut().expect("a turn").1;
        let path = words.step(e.cursor.step);
        let name = path.split(" › ").next().unwrap_or(&path).to_string();
        if phases.last().is_none_or(|p| p.name != name) {
            phases.push(Phase {
                name,
                ..Phase::default()
            });
        }
        let phase = phases.last_mut().expect("a phase");
        let recorded = add(phase, s, &words, final_state, &before, &attached);
        match phase.steps.iter_mut().find(|(i, _)| *i == e.cursor.step) {
            Some(step) => step.1 |= recorded,
            None => phase.steps.push((e.cursor.step, recorded)),
        }
    }
    let count = shown.len();
    for (t, phases) in &turns {
        if turn.is_none() || turns.len() > 1 {
            let date = game
                .scenario()
                .turn_label(*t)
                .map_or_else(String::new, |d| format!(" — {d}"));
            writer.heading(
                &format!("Turn {t}{date}"),
                st.heading_size * 1.15,
                st.accent,
                st.keep,
            );
        }
        for phase in phases {
            write_phase(writer, phase, &words, st);
        }
    }
    if count == 0 {
        writer.paragraph(None, "Nothing recorded.", st.small, 0.0);
    }
    Ok(count)
}

/// Files one entry under its phase; whether it is something recorded at its step (a step
/// entered is not).
fn add(
    phase: &mut Phase,
    s: &Shown,
    words: &Words,
    state: &GameState,
    before: &BTreeMap<u64, (Vec<String>, Vec<String>)>,
    attached: &BTreeMap<u64, Vec<String>>,
) -> bool {
    let e = s.event();
    let undone = e.kind.is_undoable() && !state.effective.contains(&e.seq);
    if let Shown::Summary(_, lines) = s {
        if !matches!(e.kind, EventKind::Stepped { .. }) {
            phase
                .items
                .push(Item::Line(format!("#{} {}", e.seq, lines.join(" "))));
        }
        return !matches!(e.kind, EventKind::Stepped { .. });
    }
    if undone {
        phase.corrections.push(format!(
            "entry {} ({}) was undone",
            e.seq,
            words.title(e).to_lowercase()
        ));
        return true;
    }
    match &e.kind {
        EventKind::Stepped { .. } => return false,
        EventKind::Undone { event } => {
            phase.corrections.push(format!("entry {event} undone"));
        }
        EventKind::Redone { event } => {
            phase.corrections.push(format!("entry {event} restored"));
        }
        EventKind::Skipped { item, reason } => {
            phase
                .skips
                .entry(reason.trim().to_string())
                .or_default()
                .push((e.cursor.step, words.item(item)));
        }
        EventKind::Resolved {
            resolution,
            counters,
        } => {
            let mut lines = Vec::new();
            if let Some((who, place)) = before.get(&e.seq) {
                if !who.is_empty() {
                    lines.push(format!("Who: {}", who.join("; ")));
                }
                if !place.is_empty() {
                    lines.push(format!("Where: {}", place.join("; ")));
                }
            }
            // The explanation after its head: the inputs, modifiers, dice, arithmetic, the
            // row and column, the result.
            lines.extend(words.resolution(resolution, counters).into_iter().skip(1));
            lines.extend(attached.get(&e.seq).cloned().unwrap_or_default());
            let chart = if resolution.outcome.from_physical_chart {
                ", read off the physical chart"
            } else {
                ""
            };
            phase.items.push(Item::Block(
                format!(
                    "#{} {} → {}{chart}",
                    e.seq,
                    words.resolution_head(resolution, counters),
                    crate::game::describe::outcome(resolution)
                ),
                lines,
            ));
        }
        EventKind::EffectsApplied { of, .. } | EventKind::Overridden { of, .. }
            if attached.contains_key(of) => {}
        EventKind::Changed {
            changes, reason, ..
        } => {
            let moves: Vec<&CounterChange> = changes
                .iter()
                .filter(|c| matches!(c, CounterChange::Move { .. }))
                .collect();
            for m in &moves {
                if let CounterChange::Move { counter, from, to } = m {
                    add_move(phase, words, state, e.seq, counter, from.as_ref(), to);
                }
            }
            let others: Vec<CounterChange> = changes
                .iter()
                .filter(|c| !matches!(c, CounterChange::Move { .. }))
                .cloned()
                .collect();
            if !others.is_empty() {
                phase.items.push(Item::Line(format!(
                    "#{} {}",
                    e.seq,
                    words.changes(&others, reason.as_deref())
                )));
            }
        }
        _ => phase
            .items
            .push(Item::Line(format!("#{} {}", e.seq, words.line(e)))),
    }
    true
}

/// Adds a move to its Force's line (a counter without a Force has a line of its own).
fn add_move(
    phase: &mut Phase,
    words: &Words,
    state: &GameState,
    seq: u64,
    counter: &str,
    from: Option<&Position>,
    to: &Position,
) {
    let who = state
        .counters
        .get(counter)
        .and_then(|c| c.force.as_deref())
        .map_or_else(
            || words.counter(counter),
            |f| force_words(words.scenario(), f),
        );
    let to = words.position(to);
    match phase.moves.iter_mut().find(|m| m.0 == who) {
        Some(m) => {
            m.2 = to;
            if !m.3.contains(&seq) {
                m.3.push(seq);
            }
        }
        None => phase
            .moves
            .push((who, from.map(|f| words.position(f)), to, vec![seq])),
    }
}

/// The counters of a resolution by role, with their strength and where they stood just before.
fn who_and_where(
    game: &Game,
    state: &GameState,
    counters: &BTreeMap<String, Vec<String>>,
) -> (Vec<String>, Vec<String>) {
    let words = Words::at(game, state);
    let strength = game.ruleset().strength_attribute.as_deref();
    let mut who = Vec::new();
    let mut place = Vec::new();
    for (role, ids) in counters {
        let mut names = Vec::new();
        let mut at: Vec<String> = Vec::new();
        for id in ids {
            let Some(c) = state.counters.get(id) else {
                continue;
            };
            let sp = strength
                .and_then(|a| c.attributes.get(a))
                .and_then(|v| match v {
                    Value::Int(n) => Some(format!(" ({n} SP)")),
                    _ => None,
                })
                .unwrap_or_default();
            names.push(format!("{}{sp}", c.name));
            let p = words.position(&c.position);
            if !at.contains(&p) {
                at.push(p);
            }
        }
        if names.is_empty() {
            continue;
        }
        let role = crate::game::words::capitalised(&role.replace('_', " "));
        who.push(format!("{role}: {}", and_list(names)));
        place.push(format!("{role} at {}", and_list(at)));
    }
    (who, place)
}

/// Prints one phase: its heading, its blocks and lines, then the folded lines.
fn write_phase(writer: &mut Writer, phase: &Phase, words: &Words, st: &Styles) {
    writer.heading(&phase.name, st.heading_size, st.accent, st.keep);
    for item in &phase.items {
        match item {
            Item::Block(lead, lines) => {
                writer.ensure(st.lead.size * 3.0);
                writer.paragraph(None, lead, st.lead, 0.0);
                for l in lines {
                    writer.paragraph(None, l, st.small, mm(4.0));
                }
                writer.space(mm(1.0));
            }
            Item::Line(text) => writer.paragraph(None, text, st.body, 0.0),
        }
    }
    for (who, from, to, seqs) in &phase.moves {
        let entries: Vec<String> = seqs.iter().map(|s| format!("#{s}")).collect();
        let route = match from {
            Some(f) if f != to => format!("{f} → {to}"),
            _ => format!("to {to}"),
        };
        writer.paragraph(
            None,
            &format!("{} {who}: {route}", entries.join(", ")),
            st.body,
            0.0,
        );
    }
    for (reason, items) in &phase.skips {
        // A step whose every procedure was skipped for one reason is said as the step, not as
        // a list of its procedures.
        let mut said: Vec<String> = Vec::new();
        let mut steps: Vec<usize> = items.iter().map(|(s, _)| *s).collect();
        steps.dedup();
        for step in steps {
            let here: Vec<&String> = items
                .iter()
                .filter(|(s, _)| *s == step)
                .map(|(_, i)| i)
                .collect();
            let procedures = words.step_procedures(step);
            if procedures > 3 && here.len() >= procedures {
                let path = words.step(step);
                let name = path.rsplit(" › ").next().unwrap_or(&path).to_string();
                said.push(format!("all {} procedures of {name}", here.len()));
                said.extend(here.into_iter().skip(procedures).cloned());
            } else {
                said.extend(here.into_iter().cloned());
            }
        }
        writer.paragraph(
            Some("Skipped"),
            &format!("{} — {reason}", and_list(said)),
            st.small,
            0.0,
        );
    }
    let quiet: Vec<String> = phase
        .steps
        .iter()
        .filter(|(_, recorded)| !recorded)
        .map(|(i, _)| {
            // The step's own name (its phase is the heading above).
            let path = words.step(*i);
            let parts: Vec<&str> = path.split(" › ").collect();
            if parts.len() > 1 {
                parts[parts.len() - 1].to_string()
            } else {
                String::new()
            }
        })
        .filter(|s| !s.is_empty())
        .collect();
    if !quiet.is_empty() {
        writer.paragraph(
            Some("Nothing recorded at"),
            &quiet.join("; "),
            st.small,
            0.0,
        );
    }
    if !phase.corrections.is_empty() {
        writer.paragraph(
            Some("Corrections"),
            &phase.corrections.join("; "),
            st.small,
            0.0,
        );
    }
}
