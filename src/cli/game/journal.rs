//! `umpire game undo`, `redo`, `verify`, `reveal`, `verify-side`, `export` and `import`: the
//! journal kept, checked and carried.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::{GameFile, act, actor, open, print_status_line};
use crate::cli::{Cli, library, print_json};
use umpire::game::export::{ExportOptions, SeedSecret, export_text, import, read_export};
use umpire::game::{Action, Event, Game, Head, Names};
use umpire::rules::limits::human_size;

/// `game` subcommands: the journal.
#[derive(Debug, Subcommand)]
pub enum JournalCommand {
    /// Undo the last action (it stays in the journal, marked undone).
    Undo {
        #[command(flatten)]
        game: GameFile,
    },
    /// Redo the last undone action.
    Redo {
        #[command(flatten)]
        game: GameFile,
    },
    /// Check the journal: its hash chain from the game's description to the last entry, the
    /// seed against its commitment, every app roll against its draw index, every result
    /// against its inputs and dice — and, with --head, against a head noted from a report.
    Verify {
        #[command(flatten)]
        game: GameFile,
        /// A journal head noted earlier (ENTRIES:HASH, as a report prints it): the journal must
        /// still have that entry with that hash.
        #[arg(long, value_name = "ENTRIES:HASH")]
        head: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Reveal the app dice's seed (usually at the end of the game): players can then check
    /// every app roll against the commitment shown from the start. App dice are refused after.
    Reveal {
        #[command(flatten)]
        game: GameFile,
    },
    /// Verify an exported journal as a player: the hash chain (sealed entries by their hash),
    /// the seed against its commitment, and every roll and result the export shows.
    VerifySide {
        /// The exported journal (JSON lines).
        journal: PathBuf,
        /// The revealed seed, SEED:SALT as `game reveal` prints it (not needed when the export
        /// was made after the reveal).
        #[arg(long, value_name = "SEED:SALT")]
        seed: Option<String>,
        /// A journal head noted earlier (ENTRIES:HASH).
        #[arg(long, value_name = "ENTRIES:HASH")]
        head: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write the journal as JSON lines (the first line describes the game; each entry with its
    /// hash). Without the seed unless --with-seed (an umpire's backup).
    Export {
        #[command(flatten)]
        game: GameFile,
        /// One JSON entry per line.
        #[arg(long)]
        jsonl: bool,
        /// One side's export: the entries that side may not see are sealed (hash only).
        #[arg(long)]
        side: Option<String>,
        /// Include the seed: a backup for the umpire, never for players.
        #[arg(long, conflicts_with = "side")]
        with_seed: bool,
        /// Output file (standard output when omitted).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        force: crate::cli::output::Force,
    },
    /// Bring a game file written by an older Umpire up to date. Its entries are hashed as they
    /// stand: the hash chain vouches for them from the migration on, not before. A file that
    /// shows it was up to date once (its hashes dropped) is refused.
    Migrate {
        #[command(flatten)]
        game: GameFile,
    },
    /// Read an exported journal back into a new game file.
    Import {
        /// The JSON-lines file.
        jsonl: PathBuf,
        /// The game file to create.
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// Runs one of them.
pub fn run(cli: &Cli, command: &JournalCommand) -> Result<()> {
    match command {
        JournalCommand::Undo {
            game: GameFile { file },
        } => act(cli, file, Action::Undo),
        JournalCommand::Redo {
            game: GameFile { file },
        } => act(cli, file, Action::Redo),
        JournalCommand::Verify {
            game: GameFile { file },
            head,
            json,
        } => verify(cli, file, head.as_deref(), *json),
        JournalCommand::Reveal {
            game: GameFile { file },
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, None)?;
            let seqs = game.act(&actor, Action::RevealSeed)?;
            let revealed = seqs
                .first()
                .and_then(|s| game.events().get(*s as usize - 1));
            if let Some(Event {
                kind: umpire::game::EventKind::SeedRevealed { seed, salt },
                seq,
                ..
            }) = revealed
            {
                println!("recorded entry {seq}: the app dice's seed is revealed");
                println!("seed {seed}:{salt}");
                println!(
                    "players check their side's rolls with: umpire game verify-side JOURNAL --seed {seed}:{salt}"
                );
            }
            Ok(())
        }
        JournalCommand::VerifySide {
            journal,
            seed,
            head,
            json,
        } => verify_side(cli, journal, (seed.as_deref(), head.as_deref()), *json),
        JournalCommand::Export {
            game: GameFile { file },
            jsonl,
            side,
            with_seed,
            output,
            force,
        } => {
            if !jsonl {
                bail!("give --jsonl (the only export format so far)");
            }
            if let Some(p) = output {
                force.check(p)?;
            }
            let (mut game, _) = open(cli, file)?;
            let side = side
                .as_deref()
                .map(|s| Names::of(&game).side(s))
                .transpose()?;
            let options = ExportOptions {
                side: side.map(String::from),
                with_seed: *with_seed,
            };
            let text = export_text(&mut game, &options)?;
            match output {
                Some(p) => force.write(p, text.as_bytes()),
                None => Ok(std::io::stdout().lock().write_all(text.as_bytes())?),
            }
        }
        JournalCommand::Import { jsonl, output } => import_jsonl(cli, jsonl, output),
        JournalCommand::Migrate {
            game: GameFile { file },
        } => migrate(file),
    }
}

/// `game migrate`: an older game file brought up to date, saying what that means.
fn migrate(file: &Path) -> Result<()> {
    use umpire::game::journal::file::{GameFile as Store, SCHEMA_VERSION};
    let (from, migrated) = Store::migrate(file)?;
    drop(migrated);
    if from >= SCHEMA_VERSION {
        println!(
            "{} is up to date (game file version {from}): nothing to do",
            file.display()
        );
    } else {
        println!(
            "{}: migrated from game file version {from} to {SCHEMA_VERSION}; its entries were hashed as they stood, so the hash chain vouches for them from this migration on, not before",
            file.display()
        );
    }
    Ok(())
}

/// `game verify`: the store's integrity and the journal's chain and results (against `head`,
/// if given).
fn verify(cli: &Cli, file: &Path, head: Option<&str>, json: bool) -> Result<()> {
    let (mut game, _) = open(cli, file)?;
    let expected = head
        .map(Head::parse)
        .transpose()
        .map_err(|e| anyhow!("--head: {e}"))?;
    let integrity = game.integrity_check()?;
    let verification = game.verify(expected.as_ref())?;
    if json {
        print_json(&serde_json::json!({
            "integrity": integrity,
            "verification": verification,
        }))?;
    } else {
        print_verification(&game.location(), Some(&integrity), &verification);
    }
    if verification.is_sound() && integrity == "ok" {
        return Ok(());
    }
    bail!(
        "{} problem(s) found",
        verification.problems.len() + usize::from(integrity != "ok")
    )
}

/// `game verify-side`: a side's (or the whole) exported journal, its app rolls re-derived when
/// the seed is given.
fn verify_side(
    cli: &Cli,
    journal: &Path,
    (seed, head): (Option<&str>, Option<&str>),
    json: bool,
) -> Result<()> {
    let name = journal.display().to_string();
    let text = std::fs::read_to_string(journal).map_err(|e| anyhow!("{name}: {e}"))?;
    let export = read_export(&name, &text)?;
    let seed = seed.map(parse_seed).transpose()?;
    let expected = head
        .map(Head::parse)
        .transpose()
        .map_err(|e| anyhow!("--head: {e}"))?;
    let lib = library(cli)?;
    let verification = umpire::game::export::verify_export(&export, &lib, seed, expected.as_ref())?;
    if json {
        print_json(&verification)?;
    } else {
        let side = export.header.side.as_deref().unwrap_or("the whole journal");
        print_verification(&format!("{name} ({side})"), None, &verification);
    }
    if verification.is_sound() {
        return Ok(());
    }
    bail!("{} problem(s) found", verification.problems.len())
}

/// `game import`: a journal export (no larger than [`MAX_IMPORT_BYTES`]) into a new game file.
fn import_jsonl(cli: &Cli, jsonl: &Path, output: &Path) -> Result<()> {
    let name = jsonl.display().to_string();
    let file = std::fs::File::open(jsonl).map_err(|e| anyhow!("{name}: {e}"))?;
    let size = file.metadata()?.len();
    if size > MAX_IMPORT_BYTES {
        bail!(
            "{name}: the file is {}; the limit is {}, far more than any game's export",
            human_size(size),
            human_size(MAX_IMPORT_BYTES)
        );
    }
    // The read stops at the limit too, should the file grow meanwhile.
    let mut text = String::new();
    file.take(MAX_IMPORT_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| anyhow!("{name}: {e}"))?;
    let export = read_export(&name, &text)?;
    let lib = library(cli)?;
    import(&name, &export, &lib, output).map_err(|e| crate::cli::with_ruleset_errors(&lib, e))?;
    let game = Game::open(output, &lib)?;
    println!(
        "imported {} entries into {}{}",
        game.events().len(),
        output.display(),
        if game.meta().seed.is_none() {
            " (without the seed: app dice are refused in it)"
        } else {
            ""
        }
    );
    print_status_line(&game);
    Ok(())
}

/// The largest journal export `game import` reads: 64 MB. A resolution takes about 1.8 KB of
/// JSON and most other entries about 0.1 KB, so the 10,000-entry game of BENCHMARKS.md (a third
/// of it resolutions) exports to about 7 MB.
const MAX_IMPORT_BYTES: u64 = 64 * 1024 * 1024;

/// Reads `SEED:SALT` as `game reveal` prints it.
fn parse_seed(text: &str) -> Result<SeedSecret> {
    let (seed, salt) = text
        .trim()
        .split_once(':')
        .ok_or_else(|| anyhow!("--seed: give SEED:SALT as `umpire game reveal` prints it"))?;
    let seed: u64 = seed
        .parse()
        .map_err(|_| anyhow!("--seed: '{seed}' is not a whole number"))?;
    Ok(SeedSecret {
        seed,
        salt: salt.to_string(),
    })
}

/// Prints what verification found, in words.
fn print_verification(location: &str, integrity: Option<&str>, v: &umpire::game::Verification) {
    match integrity {
        Some(integrity) => println!("{location}: store integrity {integrity}; {}", v.head),
        None => println!("{location}: {}", v.head),
    }
    let integrity = integrity.unwrap_or("ok");
    if v.sealed > 0 {
        println!(
            "  {} entries shown, {} sealed (their hashes keep the chain checkable)",
            v.entries - v.sealed,
            v.sealed
        );
    }
    let seed = match v.seed {
        umpire::game::SeedCheck::Checked => {
            format!("{} app dice re-derived from the seed", v.app_dice)
        }
        umpire::game::SeedCheck::Secret => {
            "the seed is still secret: app rolls can be checked once it is revealed".into()
        }
        umpire::game::SeedCheck::Mismatch => "the seed does not match its commitment".into(),
    };
    println!("  {} resolutions re-resolved; {seed}", v.resolutions);
    if v.orders > 0 {
        println!(
            "  {} of sealed orders revealed and held to the commitment made when they were sealed",
            match v.orders {
                1 => "1 set".to_string(),
                n => format!("{n} sets"),
            }
        );
    }
    if v.transcriptions > 0 {
        println!(
            "  {} transcribed during the game: each entry held to the tables in force when it was made",
            match v.transcriptions {
                1 => "1 table".to_string(),
                n => format!("{n} tables"),
            }
        );
    }
    for note in &v.notes {
        println!("  note: {note}");
    }
    if v.is_sound() && integrity == "ok" {
        println!(
            "verified: the hash chain is whole from the game's description to entry {}, every entry is one the rules of play make, and every result matches its inputs and dice",
            v.entries
        );
        return;
    }
    if let Some(first) = v.first() {
        eprintln!("FIRST MISMATCH {first}");
    }
    for p in v.problems.iter().skip(1) {
        eprintln!("MISMATCH {p}");
    }
}
