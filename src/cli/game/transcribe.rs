//! `umpire game transcribe`: a table transcribed from the umpire's chart sheet, recorded in the
//! game's journal (it is part of the record: entries before it keep the tables they were made
//! with, and the game carries the table to any verifier).

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::{GameFile, act_on, actor, open};
use crate::cli::{Cli, user_dir};
use umpire::game::transcribed::{table_title, unrecorded};
use umpire::game::{Action, Game};
use umpire::rules::layer::transcribe;
use umpire::rules::limits::read_text;

/// `game` subcommands: transcriptions.
#[derive(Debug, Subcommand)]
pub enum TranscribeCommand {
    /// Record a table transcribed from your own chart sheet: the game reads it as transcribed
    /// from this entry on, and entries before it keep the tables they were made with. The file
    /// is checked as the transcription folder's files are (a bad one is refused with its line
    /// and column, and nothing is recorded). Without a file or --from-layer, lists the tables
    /// of your transcription folder the game does not read yet.
    Transcribe {
        #[command(flatten)]
        game: GameFile,
        /// The table file as transcribed (`<table>.yaml`, as `umpire rules template` writes
        /// it): its name says which table.
        #[arg(conflicts_with = "from_layer")]
        table_file: Option<PathBuf>,
        /// The table (its id or title) as your transcription folder has it (--user-rules, or
        /// UMPIRE_USER_RULES).
        #[arg(long, value_name = "TABLE")]
        from_layer: Option<String>,
    },
}

/// Runs it.
pub fn run(cli: &Cli, command: &TranscribeCommand) -> Result<()> {
    let TranscribeCommand::Transcribe {
        game: GameFile { file },
        table_file,
        from_layer,
    } = command;
    let (mut game, lib) = open(cli, file)?;
    let path = match (table_file, from_layer) {
        (Some(path), _) => path.clone(),
        (None, Some(table)) => layer_file(cli, &game, table)?,
        (None, None) => {
            let tables = unrecorded(&lib, game.ruleset());
            if tables.is_empty() {
                println!("the game reads every table of your transcription folder as it has them");
            }
            for (id, title) in tables {
                println!(
                    "{title} ({id}): transcribed in your folder, not recorded in this game — record it with `umpire game transcribe {} --from-layer {id}`",
                    file.display()
                );
            }
            return Ok(());
        }
    };
    let table = table_id(&path)?;
    let name = path.display().to_string();
    let text = read_text(&path).map_err(|e| anyhow!("{e}"))?;
    // Checked here first, so a fault is named in the file as the umpire knows it.
    if let Err(errors) = transcribe(game.ruleset(), &table, &name, &text) {
        bail!(
            "{name}: the {} is not recorded — the file does not load:\n{errors}",
            table_title(game.ruleset(), &table)
        );
    }
    let actor = actor(cli, &game, None)?;
    act_on(
        &mut game,
        &actor,
        Action::Transcribe {
            table,
            content: text,
        },
    )
}

/// The table a file transcribes: its name without `.yaml`, as in the transcription folder.
fn table_id(path: &Path) -> Result<String> {
    let yaml = path.extension().is_some_and(|x| x == "yaml" || x == "yml");
    match path.file_stem() {
        Some(stem) if yaml => Ok(stem.to_string_lossy().to_string()),
        _ => bail!(
            "{}: name the file after the table it transcribes, TABLE.yaml (as `umpire rules template` writes it)",
            path.display()
        ),
    }
}

/// The file of the umpire's transcription folder for a table given by id or title.
fn layer_file(cli: &Cli, game: &Game, table: &str) -> Result<PathBuf> {
    let Some(dir) = user_dir(cli) else {
        bail!("no transcription folder: give --user-rules DIR, or the table file itself");
    };
    let ruleset = game.ruleset();
    let wanted = table.trim().to_lowercase();
    let id = ruleset
        .tables
        .values()
        .find(|t| t.id == table || t.title.to_lowercase() == wanted)
        .map(|t| t.id.clone())
        .ok_or_else(|| {
            let ids: Vec<&str> = ruleset.tables.keys().map(String::as_str).collect();
            anyhow!(
                "ruleset {} has no table '{table}' — its tables: {}",
                ruleset.id,
                ids.join(", ")
            )
        })?;
    let folder = dir.join(&ruleset.id);
    ["yaml", "yml"]
        .iter()
        .map(|x| folder.join(format!("{id}.{x}")))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            anyhow!(
                "{}: your transcription folder has no {id}.yaml — write one with `umpire rules template {} {id}`",
                folder.display(),
                ruleset.id
            )
        })
}
