//! The journal as JSON lines, for players, scripts and backups — and read back: imported as a
//! new game file (checked whole before anything is written) or verified by a player who holds
//! only a side's export and the revealed seed.
//!
//! Line 1 describes the game ([`Header`]: how it started, as anyone may know it, the chain's
//! genesis and head, the side, and the seed only in an umpire's backup). Each further line is one
//! entry: `{"seq": n, "hash": "…", "entry": {…}}` with the entry's exact stored text, or
//! `{"seq": n, "hash": "…", "sealed": true}` for an entry a side may not see — its hash keeps
//! the chain checkable.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::event::Event;
use super::journal::{Entry, GameFile, GameMeta, Head, PublicMeta, StoreError};
use super::refusal::GameError;
use super::scenario::{Scenario, load_scenario};
use super::sequence::leaf_steps;
use super::session::Game;
use super::state::replay;
use super::verify::{Context, Line, Verification, verify_lines};
use super::visibility::{SideView, Sight};
use crate::rules::{Library, Ruleset, SourceFile};

/// The first line's `type`.
pub const EXPORT_TYPE: &str = "umpire_journal";

/// The first line's `type` in exports of Umpire before the hash chain (read as legacy).
pub const LEGACY_TYPE: &str = "umpire_game";

/// The seed and salt, in an umpire's backup only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedSecret {
    /// The seed.
    pub seed: u64,
    /// The salt of its commitment.
    pub salt: String,
}

/// The first line of an export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always [`EXPORT_TYPE`].
    #[serde(rename = "type")]
    pub kind: String,
    /// Format version.
    pub format: u32,
    /// How the game started, as anyone may know it.
    pub game: PublicMeta,
    /// The chain's starting hash (of `game`).
    pub genesis: String,
    /// Where the journal stood when exported.
    pub head: Head,
    /// The side this export is for (entries it may not see are sealed), or none: the whole
    /// journal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The seed, in an umpire's backup (`--with-seed`) only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<SeedSecret>,
}

/// One entry line as written.
#[derive(Serialize)]
struct OutLine<'a> {
    seq: u64,
    hash: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    entry: Option<&'a RawValue>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    sealed: bool,
    /// What the side may know of a sealed entry, in words (not covered by the hash).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    summary: &'a [String],
}

/// One entry line as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InLine<'a> {
    seq: u64,
    hash: String,
    #[serde(default, borrow)]
    entry: Option<&'a RawValue>,
    #[serde(default)]
    sealed: bool,
    /// Words for a sealed entry: read past (not covered by the hash, so not checked).
    #[serde(default, rename = "summary")]
    _summary: Vec<String>,
}

/// What to export.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// One side's export: what it may not see is sealed.
    pub side: Option<String>,
    /// Include the seed (an umpire's backup; never with a side).
    pub with_seed: bool,
}

fn bad(location: String, problem: String) -> GameError {
    StoreError::Contradiction { location, problem }.into()
}

/// The journal as export text. A side's export goes through the ruleset's visibility
/// ([`super::visibility`]): what the side may see whole is there in full; the rest is sealed,
/// with what the side may know of it in words.
pub fn export_text(game: &mut Game, options: &ExportOptions) -> Result<String, GameError> {
    if options.with_seed && options.side.is_some() {
        return Err(bad(
            game.location(),
            "a side's export never carries the seed".into(),
        ));
    }
    let entries = game.read_entries()?;
    let meta = game.meta().clone();
    let seed = if options.with_seed {
        meta.seed
            .zip(meta.salt.clone())
            .map(|(seed, salt)| SeedSecret { seed, salt })
    } else {
        None
    };
    let head = Head {
        entries: entries.len() as u64,
        hash: entries
            .last()
            .map_or_else(|| meta.genesis(), |e| e.hash.clone()),
    };
    let header = Header {
        kind: EXPORT_TYPE.into(),
        format: 1,
        game: meta.public(),
        genesis: meta.genesis(),
        head,
        side: options.side.clone(),
        seed,
    };
    let to_json = |e: serde_json::Error| bad(game.location(), e.to_string());
    let mut out = serde_json::to_string(&header).map_err(to_json)?;
    out.push('\n');
    let sights: Option<Vec<Sight>> = match &options.side {
        Some(side) => {
            let view = SideView::new(game.ruleset(), game.scenario(), side)
                .map_err(|e| bad(game.location(), e))?;
            let events: Vec<Event> = entries.iter().map(|e| e.event.clone()).collect();
            let judged = view.journal(&events).map_err(|e| bad(game.location(), e))?;
            Some(judged.into_iter().map(|s| s.sight).collect())
        }
        None => None,
    };
    for (i, entry) in entries.iter().enumerate() {
        let sight = sights.as_ref().and_then(|s| s.get(i));
        let open = sight.is_none_or(|s| matches!(s, Sight::Open));
        let summary: &[String] = match sight {
            Some(Sight::Summary(words)) => words,
            _ => &[],
        };
        let raw = if open {
            Some(RawValue::from_string(entry.body.clone()).map_err(to_json)?)
        } else {
            None
        };
        let line = OutLine {
            seq: entry.event.seq,
            hash: &entry.hash,
            entry: raw.as_deref(),
            sealed: !open,
            summary,
        };
        out.push_str(&serde_json::to_string(&line).map_err(to_json)?);
        out.push('\n');
    }
    Ok(out)
}

/// An export read back.
#[derive(Debug, Clone)]
pub struct Export {
    /// Its first line.
    pub header: Header,
    /// Its entries, in order.
    pub lines: Vec<Line>,
}

/// Reads an export; a line that cannot be read gives `file:line: problem`.
pub fn read_export(name: &str, text: &str) -> Result<Export, GameError> {
    let at = |n: usize, problem: String| bad(format!("{name}:{n}"), problem);
    let mut rows = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, first)) = rows.next() else {
        return Err(bad(name.to_string(), "the file is empty".into()));
    };
    let value: serde_json::Value = serde_json::from_str(first)
        .map_err(|e| at(1, format!("not an Umpire journal export: {e}")))?;
    if value.get("type").and_then(|t| t.as_str()) == Some(LEGACY_TYPE) {
        return read_legacy(name, &value, rows);
    }
    let header: Header = serde_json::from_value(value)
        .map_err(|e| at(1, format!("not an Umpire journal export: {e}")))?;
    if header.kind != EXPORT_TYPE || header.format != 1 {
        return Err(at(
            1,
            format!(
                "a '{}' export, format {}: this build reads {EXPORT_TYPE} format 1",
                header.kind, header.format
            ),
        ));
    }
    let mut lines = Vec::new();
    for (i, row) in rows {
        let n = i + 1;
        let line: InLine = serde_json::from_str(row).map_err(|e| at(n, e.to_string()))?;
        lines.push(match (line.entry, line.sealed) {
            (Some(raw), false) => {
                let body = raw.get().to_string();
                let event: Event = serde_json::from_str(&body).map_err(|e| at(n, e.to_string()))?;
                if event.seq != line.seq {
                    return Err(at(
                        n,
                        format!(
                            "the line is for entry {}, the entry says {}",
                            line.seq, event.seq
                        ),
                    ));
                }
                Line::Open(Entry {
                    event,
                    body,
                    hash: line.hash,
                })
            }
            (None, true) => Line::Sealed {
                seq: line.seq,
                hash: line.hash,
            },
            _ => {
                return Err(at(
                    n,
                    "a line holds either an entry or \"sealed\": true".into(),
                ));
            }
        });
    }
    Ok(Export { header, lines })
}

/// An export written before the hash chain: the description with its seed, then one event per
/// line. Its entries are chained as they stand (as a game file's are when migrated).
fn read_legacy<'a>(
    name: &str,
    first: &serde_json::Value,
    rows: impl Iterator<Item = (usize, &'a str)>,
) -> Result<Export, GameError> {
    let at = |n: usize, problem: String| bad(format!("{name}:{n}"), problem);
    let mut meta: GameMeta = serde_json::from_value(first["meta"].clone())
        .map_err(|e| at(1, format!("not an Umpire export: {e}")))?;
    meta.upgrade_legacy();
    let mut previous = meta.genesis();
    let mut lines = Vec::new();
    for (i, row) in rows {
        let event: Event = serde_json::from_str(row).map_err(|e| at(i + 1, e.to_string()))?;
        let hash = super::journal::link(&previous, row);
        previous = hash.clone();
        lines.push(Line::Open(Entry {
            event,
            body: row.to_string(),
            hash,
        }));
    }
    Ok(Export {
        header: Header {
            kind: EXPORT_TYPE.into(),
            format: 1,
            game: meta.public(),
            genesis: meta.genesis(),
            head: Head {
                entries: lines.len() as u64,
                hash: previous,
            },
            side: None,
            seed: meta
                .seed
                .zip(meta.salt.clone())
                .map(|(seed, salt)| SeedSecret { seed, salt }),
        },
        lines,
    })
}

/// The ruleset and scenario an export was made on.
fn setting(export: &Export, library: &Library) -> Result<(Ruleset, Scenario), GameError> {
    let game = &export.header.game;
    let ruleset = library.get(&game.ruleset).cloned().ok_or_else(|| {
        GameError::from(super::refusal::SetupError::RulesetMissing {
            what: format!("the journal of {}", game.scenario),
            ruleset: game.ruleset.clone(),
        })
    })?;
    let scenario = load_scenario(
        &SourceFile {
            name: game.scenario_file.clone(),
            text: game.scenario_text.clone(),
        },
        library,
    )
    .map_err(|e| GameError::from(super::refusal::SetupError::Scenario(e.to_string())))?;
    Ok((ruleset, scenario))
}

/// Verifies an export: the chain over every line (sealed ones by their hash), the header's
/// genesis and head, the seed (given, in the export, or revealed in it) against the commitment,
/// the app rolls and results of every entry it shows. `seed`: a seed and salt the verifier was
/// given when the umpire revealed it.
pub fn verify_export(
    export: &Export,
    library: &Library,
    seed: Option<SeedSecret>,
    expected: Option<&Head>,
) -> Result<Verification, GameError> {
    let (ruleset, scenario) = setting(export, library)?;
    let held = seed
        .or_else(|| export.header.seed.clone())
        .map(|s| (s.seed, s.salt));
    let cx = Context {
        ruleset: &ruleset,
        scenario: &scenario,
        steps: &leaf_steps(&ruleset),
        public: &export.header.game,
        held_seed: held,
        expected,
        recorded: Some(export.header.head.clone()),
        shared: false,
    };
    let mut v = verify_lines(&cx, &export.lines);
    if export.header.genesis != export.header.game.genesis() {
        v.problems.insert(
            0,
            super::verify::Problem {
                entry: 0,
                text: "the export's genesis is not the hash of the game it describes".into(),
            },
        );
    }
    Ok(v)
}

/// Imports an export as a new game file at `output`: everything is checked first — the chain,
/// the sequence, every entry's kind, dice faces against their dice, turns and steps against the
/// scenario, references to other entries, every entry held to the rules of play (the audit:
/// [`super::audit`]), and that the journal folds — and the file is written
/// under a temporary name, then moved into place, so a failure leaves nothing behind. A problem
/// names the export's line.
pub fn import(
    name: &str,
    export: &Export,
    library: &Library,
    output: &Path,
) -> Result<PathBuf, GameError> {
    if output.exists() {
        return Err(StoreError::Exists {
            path: output.to_path_buf(),
        }
        .into());
    }
    if export.header.side.is_some() {
        return Err(bad(
            name.to_string(),
            "a side's export has sealed entries: it can be verified (`umpire game verify-side`), not imported".into(),
        ));
    }
    // A sealed entry cannot go into a game file (what it was is hidden): refused before any
    // file is made, whatever the header says.
    if let Some(sealed) = export
        .lines
        .iter()
        .find(|l| matches!(l, Line::Sealed { .. }))
    {
        let seq = sealed.seq();
        return Err(bad(
            format!("{name}:{}", seq + 1),
            format!(
                "entry {seq} is sealed (a side's export hides it): a journal with sealed entries can be verified (`umpire game verify-side`), not imported"
            ),
        ));
    }
    let verification = verify_export(export, library, None, None)?;
    if let Some(p) = verification.first() {
        // Entry n is on line n + 1 (line 1 describes the game).
        let line = if p.entry == 0 { 1 } else { p.entry + 1 };
        return Err(bad(format!("{name}:{line}"), p.to_string()));
    }
    let (_, scenario) = setting(export, library)?;
    let entries: Vec<Entry> = export
        .lines
        .iter()
        .filter_map(|l| match l {
            Line::Open(e) => Some(e.clone()),
            Line::Sealed { .. } => None,
        })
        .collect();
    let events: Vec<Event> = entries.iter().map(|e| e.event.clone()).collect();
    replay(&scenario, &events).map_err(|problem| bad(name.to_string(), problem))?;
    let game = &export.header.game;
    let seed = export.header.seed.clone();
    let meta = GameMeta {
        ruleset: game.ruleset.clone(),
        scenario: game.scenario.clone(),
        scenario_file: game.scenario_file.clone(),
        scenario_text: game.scenario_text.clone(),
        seed: game.seed.or(seed.as_ref().map(|s| s.seed)),
        salt: seed.map(|s| s.salt),
        seed_commitment: game.seed_commitment.clone(),
        seed_public: game.seed.is_some(),
        created_by: game.created_by.clone(),
    };
    write_new(output, meta, &entries)
}

/// Writes a game file under a temporary name beside `output`, then moves it into place without
/// replacing anything there: the way `game new` does ([`GameFile::create_with`]), so a killed
/// import leaves a temporary file the next run in the folder clears.
fn write_new(output: &Path, meta: GameMeta, entries: &[Entry]) -> Result<PathBuf, GameError> {
    GameFile::create_with(output, meta, entries)?;
    Ok(output.to_path_buf())
}
