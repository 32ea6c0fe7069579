//! A table transcribed mid-game from the umpire's own chart sheet is part of the record: an
//! [`EventKind::Transcribed`] entry carries the table file's text, and from that entry on the
//! game reads the table as transcribed. Every entry is held to the tables in force when it was
//! made: a result typed in off the physical chart for a missing cell stays what it was, and a
//! transcription made later never changes what an earlier entry's check expects.
//!
//! Floors, bottom up: the cells a transcription fills or changes (facts); the journal's
//! transcriptions laid over a ruleset (the fold); the rulesets in force entry by entry (what
//! verify and the audit read); the check of a transcription.

use std::borrow::Cow;
use std::collections::BTreeSet;

use super::check::View;
use super::event::{Event, EventKind};
use super::refusal::Refusal;
use super::verify::Problem;
use crate::rules::layer::{table_text, transcribe, transcription_name};
use crate::rules::{Cell, Ruleset, Table};

/// The cells of `after` the table `before` left missing (filled), and those it gave otherwise
/// (changed), row by row (rows matched by their key, cells by their place).
pub fn cell_counts(before: &Table, after: &Table) -> (usize, usize) {
    let (mut filled, mut changed) = (0, 0);
    for row in &after.rows {
        let old = before.rows.iter().find(|r| r.key == row.key);
        for (c, cell) in row.cells.iter().enumerate() {
            match old.and_then(|r| r.cells.get(c)) {
                Some(Cell::Missing) if *cell != Cell::Missing => filled += 1,
                Some(was) if was == cell => {}
                _ => changed += 1,
            }
        }
    }
    (filled, changed)
}

/// Whether the ruleset already reads `table` as `text`, under the name a journal's
/// transcription goes by (so its content hash is the one the entry recorded).
fn reads(ruleset: &Ruleset, table: &str, text: &str) -> bool {
    let name = transcription_name(table);
    ruleset
        .files
        .tables
        .iter()
        .any(|f| f.text == text && std::path::Path::new(&f.name).file_name() == Some(name.as_ref()))
}

/// What one entry transcribes, borrowed from it.
struct Transcription<'e> {
    seq: u64,
    ruleset: &'e str,
    table: &'e str,
    content: &'e str,
    before: &'e str,
    counts: (usize, usize),
    hash: &'e str,
}

fn transcriptions<'e>(events: impl IntoIterator<Item = &'e Event>) -> Vec<Transcription<'e>> {
    events
        .into_iter()
        .filter_map(|e| match &e.kind {
            EventKind::Transcribed {
                ruleset,
                table,
                content,
                before,
                filled,
                changed,
                hash,
            } => Some(Transcription {
                seq: e.seq,
                ruleset,
                table,
                content,
                before,
                counts: (*filled, *changed),
                hash,
            }),
            _ => None,
        })
        .collect()
}

/// `ruleset` with `text` laid over `table`, named in any error as entry `seq`'s.
fn lay(ruleset: &Ruleset, seq: u64, table: &str, text: &str) -> Result<Ruleset, String> {
    let name = format!("entry {seq}: {}", transcription_name(table));
    transcribe(ruleset, table, &name, text).map_err(|e| e.to_string())
}

/// The ruleset with the transcriptions among `events` laid over it, in order (None when it
/// already reads every table as they say: a game opened again, or nothing transcribed). What
/// the game plays with from then on; a damaged entry is named, nothing laid.
pub fn lay_journal(ruleset: &Ruleset, events: &[Event]) -> Result<Option<Ruleset>, String> {
    let mut out: Option<Ruleset> = None;
    for t in transcriptions(events) {
        let current = out.as_ref().unwrap_or(ruleset);
        if t.ruleset != current.id {
            return Err(format!(
                "entry {} transcribes a table of ruleset {}; this game plays {}",
                t.seq, t.ruleset, current.id
            ));
        }
        if reads(current, t.table, t.content) {
            continue;
        }
        let next = lay(current, t.seq, t.table, t.content).map_err(|e| {
            format!(
                "entry {} records a transcription of table '{}' that does not load: {e}",
                t.seq, t.table
            )
        })?;
        out = Some(next);
    }
    Ok(out)
}

/// The rulesets in force over a game's journal: the one it began with, then the one after each
/// transcription.
pub struct InForce<'r> {
    start: Cow<'r, Ruleset>,
    after: Vec<(u64, Ruleset)>,
}

impl<'r> InForce<'r> {
    /// The rulesets in force over `events`, from the ruleset given (as loaded with the
    /// umpire's transcription folder, or without it): the one the game began with is the given
    /// one with each table a transcription names as it was before the first (the text that
    /// entry says it replaced); each transcription then lays its table over the ruleset before
    /// it, and must replace the text in force then and give the ruleset it records. The first
    /// entry that does not hold is named.
    pub fn of<'e>(
        given: &'r Ruleset,
        events: impl IntoIterator<Item = &'e Event>,
    ) -> Result<InForce<'r>, Problem> {
        let list = transcriptions(events);
        let mut start = Cow::Borrowed(given);
        let mut seen = BTreeSet::new();
        for t in &list {
            if t.ruleset != given.id {
                return Err(Problem {
                    entry: t.seq,
                    text: format!(
                        "it transcribes a table of ruleset {}; this game plays {}",
                        t.ruleset, given.id
                    ),
                });
            }
            if seen.insert(t.table) && !reads(&start, t.table, t.before) {
                let before = lay(&start, t.seq, t.table, t.before).map_err(|e| Problem {
                    entry: t.seq,
                    text: format!("the table it says it replaced does not load: {e}"),
                })?;
                start = Cow::Owned(before);
            }
        }
        let mut after: Vec<(u64, Ruleset)> = Vec::new();
        for t in &list {
            let current = after.last().map_or(start.as_ref(), |(_, r)| r);
            let next = step(current, t).map_err(|text| Problem { entry: t.seq, text })?;
            after.push((t.seq, next));
        }
        Ok(InForce { start, after })
    }

    /// The ruleset given, with nothing transcribed over it.
    pub fn given(ruleset: &'r Ruleset) -> InForce<'r> {
        InForce {
            start: Cow::Borrowed(ruleset),
            after: Vec::new(),
        }
    }

    /// The ruleset the game began with.
    pub fn start(&self) -> &Ruleset {
        &self.start
    }

    /// The ruleset in force when entry `seq` was made (a transcription's own entry was made
    /// with the ruleset before it).
    pub fn at(&self, seq: u64) -> &Ruleset {
        self.after
            .iter()
            .rev()
            .find(|(at, _)| *at < seq)
            .map_or(self.start.as_ref(), |(_, r)| r)
    }

    /// Whether the journal transcribes anything.
    pub fn is_empty(&self) -> bool {
        self.after.is_empty()
    }

    /// How many transcriptions the journal records.
    pub fn len(&self) -> usize {
        self.after.len()
    }
}

/// One transcription laid over the ruleset in force before it, held to what it records.
fn step(current: &Ruleset, t: &Transcription) -> Result<Ruleset, String> {
    let title = table_title(current, t.table);
    if table_text(current, t.table) != Some(t.before) {
        return Err(format!(
            "it says it replaced a {title} other than the one in force then: the text it replaced was changed"
        ));
    }
    let next = lay(current, t.seq, t.table, t.content)
        .map_err(|e| format!("the {title} it transcribes does not load: {e}"))?;
    if next.content() != t.hash {
        return Err(format!(
            "the ruleset with the {title} as transcribed is not the one it records: it was changed after it was recorded"
        ));
    }
    if let (Some(before), Some(after)) = (current.table(t.table), next.table(t.table))
        && cell_counts(before, after) != t.counts
    {
        return Err(format!(
            "it counts the cells of the {title} it fills and changes otherwise than the tables do"
        ));
    }
    Ok(next)
}

/// A table's title ("Weather Table"), or its id when the ruleset has no such table.
pub fn table_title(ruleset: &Ruleset, table: &str) -> String {
    ruleset
        .table(table)
        .map_or_else(|| format!("table '{table}'"), |t| t.title.clone())
}

/// Recording a table transcribed from the umpire's chart sheet: it must be a table of the
/// ruleset, load as the layer loader loads a transcription (the whole ruleset validated with
/// it), and change the table in force.
pub(crate) fn check_transcribe(
    view: &View,
    table: &str,
    content: &str,
) -> Result<Vec<EventKind>, Refusal> {
    let ruleset = view.ruleset;
    let refuse = |problem: String| Refusal::Transcription {
        table: table_title(ruleset, table),
        problem,
    };
    let Some(before) = table_text(ruleset, table) else {
        let ids: Vec<&str> = ruleset.tables.keys().map(String::as_str).collect();
        return Err(refuse(format!(
            "ruleset {} has no such table — its tables: {}",
            ruleset.id,
            ids.join(", ")
        )));
    };
    if before == content {
        return Err(refuse(
            "it is the table in force already: there is nothing to record".into(),
        ));
    }
    let after = transcribe(ruleset, table, &transcription_name(table), content)
        .map_err(|e| refuse(e.to_string()))?;
    let (filled, changed) = match (ruleset.table(table), after.table(table)) {
        (Some(b), Some(a)) => cell_counts(b, a),
        _ => (0, 0),
    };
    Ok(vec![EventKind::Transcribed {
        ruleset: ruleset.id.clone(),
        table: table.to_string(),
        content: content.to_string(),
        before: before.to_string(),
        filled,
        changed,
        hash: after.content(),
    }])
}

/// The ruleset a game is to read, from the ones a library can give: the one whose tables, with
/// the journal's transcriptions taken back, are those the game began with (its first entry's
/// commitment). Tried in turn: the library's ruleset as loaded; the ruleset without the
/// umpire's transcription folder (a table transcribed there since the game began but not
/// recorded in it is then not read by the game); without one of the folder's tables at a
/// time. None when the library's ruleset serves, or when none is the one the game began with
/// (verify names that).
pub fn committed(library: &crate::rules::Library, id: &str, events: &[Event]) -> Option<Ruleset> {
    let Some(EventKind::GameStarted {
        ruleset_hash: Some(began),
        ..
    }) = events.first().map(|e| &e.kind)
    else {
        return None;
    };
    let began_with =
        |given: &Ruleset| InForce::of(given, events).is_ok_and(|f| f.start().content() == *began);
    let layered = library.get(id)?;
    if began_with(layered) {
        return None;
    }
    let bare = library.unlayered(id)?;
    if began_with(&bare) {
        return Some(bare);
    }
    library.user_tables_of(id).into_iter().find_map(|u| {
        let shipped = table_text(&bare, &u.table)?;
        let name = transcription_name(&u.table);
        let without = transcribe(layered, &u.table, &name, shipped).ok()?;
        began_with(&without).then_some(without)
    })
}

/// The tables of the umpire's transcription folder the game does not read as the folder has
/// them (transcribed there but not recorded in the game), by title.
pub fn unrecorded(library: &crate::rules::Library, game: &Ruleset) -> Vec<(String, String)> {
    let Some(layered) = library.get(&game.id) else {
        return Vec::new();
    };
    library
        .user_tables_of(&game.id)
        .into_iter()
        .filter(|u| table_text(layered, &u.table) != table_text(game, &u.table))
        .map(|u| (u.table.clone(), table_title(game, &u.table)))
        .collect()
}
