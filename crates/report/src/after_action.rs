//! The body of a turn report as an after-action report: the turn's entries grouped by the
//! Sequence of Play's phases (a phase heading once), each resolution as a block a reader can
//! recompute (who and where with their strengths, the inputs, each modifier with its rule, the
//! dice with their provenance, the modified roll, the row and column, the result in words, what
//! was applied), moves summarised per Force, the changes, notes and announcements as lines, the
//! skipped items and the steps passed without entries folded into one line each. Every word
//! comes from the engine's describer ([`umpire_core::game::describe::Words`]).

use std::collections::{BTreeMap, BTreeSet};

use umpire_core::game::describe::{Words, and_list, force_words};
use umpire_core::game::event::{CounterChange, Event, EventKind};
use umpire_core::game::state::GameState;
use umpire_core::game::visibility::{EntrySight, Sight};
use umpire_core::game::{Game, Timeline, scenario::Position};
use umpire_core::resolve::Resolution;
use umpire_core::rules::Value;

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
    /// Where entries the side may not see were, when the ruleset lets it know (its first).
    Gap(&'e Event),
}

impl Shown<'_> {
    fn event(&self) -> &Event {
        match self {
            Shown::Whole(e) | Shown::Summary(e, _) | Shown::Gap(e) => e,
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
    timeline: &Timeline,
    turn: Option<u32>,
    sights: Option<&[EntrySight]>,
    st: &Styles,
) -> Result<usize, ReportError> {
    let events = timeline.events();
    let final_state = timeline.end();
    let gathered = gather(game, timeline, turn, sights)?;
    let words = Words::at(game, final_state);
    // A side's own numbers (no gap counts what it may not see).
    let numbers = sights.map(|s| umpire_core::game::visibility::side_numbers(s, events));
    let attached = attached_lines(&gathered.shown, &words, final_state, numbers.as_ref());
    let shown_seqs: BTreeSet<u64> = gathered.shown.iter().map(|s| s.event().seq).collect();
    let cx = Context {
        words: &words,
        state: final_state,
        before: &gathered.before,
        attached: &attached,
        shown: &shown_seqs,
        movers: &gathered.movers,
        numbers: numbers.as_ref(),
    };
    let turns = file_entries(&gathered.shown, &cx);
    let count = gathered.shown.len();
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

/// What a walk along the journal gathers for the report.
struct Gathered<'e> {
    /// The entries the report shows, as it shows them.
    shown: Vec<Shown<'e>>,
    /// Who and where, just before each resolution.
    before: BTreeMap<u64, (Vec<String>, Vec<String>)>,
    /// Who each move moved, by entry and counter.
    movers: BTreeMap<(u64, String), String>,
}

/// Walks the journal's timeline: the entries of the span as the reader sees them, and the
/// state just before each (who was where, with what strength, when it happened).
fn gather<'e>(
    game: &Game,
    timeline: &Timeline<'e>,
    turn: Option<u32>,
    sights: Option<&[EntrySight]>,
) -> Result<Gathered<'e>, ReportError> {
    let events = timeline.events();
    let early = Words::at(game, timeline.end());
    // Whether a side is told where hidden entries were.
    let placeholder =
        game.ruleset().visibility.hidden_entries == umpire_core::rules::HiddenEntries::Placeholder;
    let mut gathered = Gathered {
        shown: Vec::new(),
        before: BTreeMap::new(),
        movers: BTreeMap::new(),
    };
    let mut moving = Moving::default();
    let mut steps = timeline.steps();
    while let Some(step) = steps.next().map_err(ReportError::Layout)? {
        let (i, running) = (step.index, step.before);
        let e = &events[i];
        let in_span = turn.is_none_or(|t| e.cursor.turn == t);
        // A new phase settles the last one's moves (its name worked out only when the step
        // changes).
        if moving.at != Some((e.cursor.turn, e.cursor.step)) {
            moving.at = Some((e.cursor.turn, e.cursor.step));
            let path = early.step(e.cursor.step);
            let phase = (
                e.cursor.turn,
                path.split(" › ").next().unwrap_or("").to_string(),
            );
            if moving.phase.as_ref() != Some(&phase) {
                gathered.movers.extend(moving.settle(game, running));
                moving.phase = Some(phase);
            }
        }
        if !in_span {
            continue;
        }
        if let EventKind::Resolved { counters, .. } = &e.kind {
            gathered
                .before
                .insert(e.seq, who_and_where(game, running, counters));
        }
        if let EventKind::Changed { changes, .. } = &e.kind {
            for c in changes {
                if let CounterChange::Move { counter, to, .. } = c {
                    moving.moves.push((e.seq, counter.clone(), to.clone()));
                }
            }
        }
        show(
            &mut gathered.shown,
            e,
            sights.map(|s| &s[i].sight),
            placeholder,
        );
    }
    gathered.movers.extend(moving.settle(game, timeline.end()));
    Ok(gathered)
}

/// Adds an entry of the span as the reader sees it (whole when the report is the umpire's).
fn show<'e>(shown: &mut Vec<Shown<'e>>, e: &'e Event, sight: Option<&Sight>, placeholder: bool) {
    match sight {
        None => shown.push(Shown::Whole(e)),
        // A side's report leaves the clock out: it is the umpire's to run.
        Some(_) if matches!(e.kind, EventKind::Clock { .. }) => {}
        Some(Sight::Open) => shown.push(Shown::Whole(e)),
        Some(Sight::Summary(lines)) => shown.push(Shown::Summary(e, lines.clone())),
        Some(Sight::Hidden)
            if placeholder
                && !matches!(e.kind, EventKind::Stepped { .. })
                && !matches!(shown.last(), Some(Shown::Gap(_))) =>
        {
            shown.push(Shown::Gap(e));
        }
        Some(Sight::Hidden) => {}
    }
}

/// The number an entry goes by in this report: the side's own, or the journal's.
fn number(numbers: Option<&BTreeMap<u64, u64>>, seq: u64) -> u64 {
    numbers.and_then(|m| m.get(&seq).copied()).unwrap_or(seq)
}

/// Effects applied and overrides belong under the resolution they follow; one undone says so
/// where it stands, once. The lines to file under each resolution shown whole.
fn attached_lines(
    shown: &[Shown],
    words: &Words,
    final_state: &GameState,
    numbers: Option<&BTreeMap<u64, u64>>,
) -> BTreeMap<u64, Vec<String>> {
    let num = |seq: u64| number(numbers, seq);
    let mut attached: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for s in shown {
        let e = s.event();
        let undone = e.kind.is_undoable() && !final_state.effective.contains(&e.seq);
        let line = match &e.kind {
            EventKind::EffectsApplied { of, changes } if undone => Some((
                *of,
                format!(
                    "Undone (entry {}): applied, then taken back — {}",
                    num(e.seq),
                    words.changes(changes, None)
                ),
            )),
            EventKind::EffectsApplied { of, changes } => Some((
                *of,
                format!(
                    "Applied (entry {}): {}",
                    num(e.seq),
                    words.changes(changes, None)
                ),
            )),
            EventKind::Overridden { of, .. } if undone => Some((
                *of,
                format!(
                    "Undone (entry {}): overridden, then taken back — {}",
                    num(e.seq),
                    words.detail(e).join(" ")
                ),
            )),
            EventKind::Overridden { of, .. } => Some((
                *of,
                format!(
                    "Overridden (entry {}): {}",
                    num(e.seq),
                    words.detail(e).join(" ")
                ),
            )),
            _ => None,
        };
        if let Some((of, line)) = line
            && matches!(s, Shown::Whole(_))
            // Under a resolution shown whole; one summarised has no block to hold it, so the
            // application stands on its own line.
            && shown
                .iter()
                .any(|x| matches!(x, Shown::Whole(_)) && x.event().seq == of)
        {
            attached.entry(of).or_default().push(line);
        }
    }
    attached
}

/// Files the entries shown by turn and phase, in journal order.
fn file_entries(shown: &[Shown], cx: &Context) -> Vec<(u32, Vec<Phase>)> {
    let mut turns: Vec<(u32, Vec<Phase>)> = Vec::new();
    for s in shown {
        let e = s.event();
        if turns.last().is_none_or(|(t, _)| *t != e.cursor.turn) {
            turns.push((e.cursor.turn, Vec::new()));
        }
        let Some((_, phases)) = turns.last_mut() else {
            continue;
        };
        let path = cx.words.step(e.cursor.step);
        let name = path.split(" › ").next().unwrap_or(&path).to_string();
        if phases.last().is_none_or(|p| p.name != name) {
            phases.push(Phase {
                name,
                ..Phase::default()
            });
        }
        let Some(phase) = phases.last_mut() else {
            continue;
        };
        let recorded = add(phase, s, cx);
        match phase.steps.iter_mut().find(|(i, _)| *i == e.cursor.step) {
            Some(step) => step.1 |= recorded,
            None => phase.steps.push((e.cursor.step, recorded)),
        }
    }
    turns
}

/// What filing an entry needs to know of the rest of the report.
struct Context<'a> {
    words: &'a Words<'a>,
    /// The state after the whole journal (what stands).
    state: &'a GameState,
    /// Who and where, just before each resolution.
    before: &'a BTreeMap<u64, (Vec<String>, Vec<String>)>,
    /// Lines filed under a resolution (effects applied, overrides).
    attached: &'a BTreeMap<u64, Vec<String>>,
    /// The entries this report shows.
    shown: &'a BTreeSet<u64>,
    /// Who each move moved, by entry and counter: the Force when the whole Force went,
    /// else the counter.
    movers: &'a BTreeMap<(u64, String), String>,
    /// A side's own numbers for the entries it sees (None: the journal's).
    numbers: Option<&'a BTreeMap<u64, u64>>,
}

impl Context<'_> {
    /// The number an entry goes by in this report.
    fn num(&self, seq: u64) -> u64 {
        number(self.numbers, seq)
    }
}

/// Files one entry under its phase; whether it is something recorded at its step (a step
/// entered is not).
fn add(phase: &mut Phase, s: &Shown, cx: &Context) -> bool {
    let e = s.event();
    if let Shown::Gap(_) = s {
        phase
            .items
            .push(Item::Line("Entries you may not see.".to_string()));
        return false;
    }
    let undone = e.kind.is_undoable() && !cx.state.effective.contains(&e.seq);
    if let Shown::Summary(_, lines) = s {
        return add_summary(phase, e, lines, undone, cx);
    }
    if undone {
        add_undone(phase, e, cx);
        return true;
    }
    match &e.kind {
        EventKind::Stepped { .. } => return false,
        // The entry undone says it where it stands, when this report shows it.
        EventKind::Undone { event } if cx.shown.contains(event) => {}
        EventKind::Undone { event } => {
            phase.corrections.push(format!("entry {event} undone"));
        }
        // Restored: the entry stands where it is, as if never undone.
        EventKind::Redone { event } if cx.shown.contains(event) => {}
        EventKind::Redone { event } => {
            phase.corrections.push(format!("entry {event} restored"));
        }
        EventKind::Skipped { item, reason } => {
            phase
                .skips
                .entry(reason.trim().to_string())
                .or_default()
                .push((e.cursor.step, cx.words.item(item)));
        }
        EventKind::Resolved {
            resolution,
            counters,
            ..
        } => add_resolution(phase, e.seq, resolution, counters, cx),
        EventKind::EffectsApplied { of, .. } | EventKind::Overridden { of, .. }
            if cx.attached.contains_key(of) => {}
        EventKind::Changed {
            changes, reason, ..
        } => add_changes(phase, e.seq, changes, reason.as_deref(), cx),
        EventKind::EffectsApplied { of, changes } => phase.items.push(Item::Line(format!(
            "#{} {}",
            cx.num(e.seq),
            cx.words.applied(cx.num(*of), changes)
        ))),
        _ => phase.items.push(Item::Line(format!(
            "#{} {}",
            cx.num(e.seq),
            cx.words.line(e)
        ))),
    }
    true
}

/// Files an entry the side sees only in part: its summary lines, as one line.
fn add_summary(phase: &mut Phase, e: &Event, lines: &[String], undone: bool, cx: &Context) -> bool {
    match &e.kind {
        EventKind::Stepped { .. } => return false,
        // The entry undone says it where it stands, when this report shows it.
        EventKind::Undone { event } if cx.shown.contains(event) => {}
        _ if undone => phase.items.push(Item::Line(format!(
            "Undone (entry {}): {}",
            cx.num(e.seq),
            lines.join(" ")
        ))),
        _ => phase.items.push(Item::Line(format!(
            "#{} {}",
            cx.num(e.seq),
            lines.join(" ")
        ))),
    }
    true
}

/// Files an entry since undone where it stands, once: not as if it held, nor again under
/// Corrections.
fn add_undone(phase: &mut Phase, e: &Event, cx: &Context) {
    let words = cx.words;
    let what = match &e.kind {
        EventKind::EffectsApplied { of, .. } | EventKind::Overridden { of, .. }
            if cx.attached.contains_key(of) =>
        {
            return;
        }
        // An undone resolution keeps what is filed under it (an application of another
        // desk's that still stands, on a shared game).
        EventKind::Resolved {
            resolution,
            counters,
            ..
        } => {
            phase.items.push(Item::Block(
                format!(
                    "Undone (entry {}): {} → {}",
                    cx.num(e.seq),
                    words.resolution_head(resolution, counters),
                    umpire_core::game::describe::outcome(resolution)
                ),
                cx.attached.get(&e.seq).cloned().unwrap_or_default(),
            ));
            return;
        }
        EventKind::EffectsApplied { of, changes } => words.applied(cx.num(*of), changes),
        _ => words.line(e),
    };
    phase.items.push(Item::Line(format!(
        "Undone (entry {}): {what}",
        cx.num(e.seq)
    )));
}

/// Files a resolution as a block: who and where, its explanation after its head (the inputs,
/// modifiers, dice, arithmetic, the row and column, the result), and what is filed under it.
fn add_resolution(
    phase: &mut Phase,
    seq: u64,
    resolution: &Resolution,
    counters: &BTreeMap<String, Vec<String>>,
    cx: &Context,
) {
    let words = cx.words;
    let mut lines = Vec::new();
    if let Some((who, place)) = cx.before.get(&seq) {
        if !who.is_empty() {
            lines.push(format!("Who: {}", who.join("; ")));
        }
        if !place.is_empty() {
            lines.push(format!("Where: {}", place.join("; ")));
        }
    }
    lines.extend(words.resolution(resolution, counters).into_iter().skip(1));
    lines.extend(cx.attached.get(&seq).cloned().unwrap_or_default());
    let overridden = cx.state.overrides.contains_key(&seq);
    let chart = if resolution.outcome.from_physical_chart && !overridden {
        ", read off the physical chart"
    } else {
        ""
    };
    phase.items.push(Item::Block(
        format!(
            "#{} {} → {}{chart}",
            cx.num(seq),
            words.resolution_head(resolution, counters),
            words.players(&words.standing_outcome(Some(seq), resolution), counters)
        ),
        lines,
    ));
}

/// Files counter changes: the moves onto their mover's line, the others as one line.
fn add_changes(
    phase: &mut Phase,
    seq: u64,
    changes: &[CounterChange],
    reason: Option<&str>,
    cx: &Context,
) {
    let words = cx.words;
    for m in changes {
        if let CounterChange::Move { counter, from, to } = m {
            let who = cx
                .movers
                .get(&(seq, counter.clone()))
                .cloned()
                .unwrap_or_else(|| words.counter(counter));
            add_move(phase, words, cx.num(seq), who, from.as_ref(), to);
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
            cx.num(seq),
            words.changes(&others, reason)
        )));
    }
}

/// The moves of one phase, named once the phase is over: by the Force when every counter of
/// the Force that is still on the table ended the phase where the move went (the Force moved),
/// else by the counter (the Gendarmes sent on alone are not Chaumont's Force).
#[derive(Default)]
struct Moving {
    /// The step last seen: (turn, step).
    at: Option<(u32, usize)>,
    /// The phase: (turn, phase name).
    phase: Option<(u32, String)>,
    /// (entry, counter, where to).
    moves: Vec<(u64, String, Position)>,
}

impl Moving {
    /// Names the phase's moves against the state at its end, and starts afresh.
    fn settle(&mut self, game: &Game, end: &GameState) -> Vec<((u64, String), String)> {
        let words = Words::at(game, end);
        let moves = std::mem::take(&mut self.moves);
        // Who moved this phase, by entries that stand: a counter that joins its Force where
        // the rest already stood is not the Force moving.
        let moved: BTreeSet<String> = moves
            .iter()
            .filter(|(seq, ..)| end.effective.contains(seq))
            .map(|(_, id, _)| id.clone())
            .collect();
        moves
            .into_iter()
            .map(|(seq, id, to)| {
                let force = end.counters.get(&id).and_then(|c| c.force.clone());
                let whole = force.filter(|f| {
                    end.counters
                        .values()
                        .filter(|o| o.force.as_deref() == Some(f) && o.removed.is_none())
                        .all(|o| o.position == to && moved.contains(&o.id))
                });
                let who =
                    whole.map_or_else(|| words.counter(&id), |f| force_words(game.scenario(), &f));
                ((seq, id), who)
            })
            .collect()
    }
}

/// Adds a move to its mover's line: a Force that moved whole, or a counter.
fn add_move(
    phase: &mut Phase,
    words: &Words,
    seq: u64,
    who: String,
    from: Option<&Position>,
    to: &Position,
) {
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
        let role = umpire_core::game::words::capitalised(&role.replace('_', " "));
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
