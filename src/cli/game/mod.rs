//! `umpire game …`: game sessions on a game file.

mod deck;
mod edit;
mod journal;
mod orders;
mod resolve;
mod sequence;
mod share;
mod status;
mod transcribe;
mod victory;

use std::path::Path;

use anyhow::{Result, anyhow};
use clap::Subcommand;

use super::GameFile;
use super::{Cli, library};
use umpire::game::{Action, Actor, Game, Names};
use umpire::megagame::remit::{ActorError, SignedIn, who_acts};
use umpire::rules::Library;

/// The reason an action that must give one records.
#[derive(Debug, clap::Args)]
pub struct Reason {
    /// Why, for the journal (and a ledger's history).
    #[arg(long)]
    pub reason: String,
}

/// `game` subcommands, by group (each group's file holds its commands and runs them).
#[derive(Debug, Subcommand)]
pub enum GameCommand {
    #[command(flatten)]
    Share(share::ShareCommand),
    #[command(flatten)]
    Status(status::StatusCommand),
    #[command(flatten)]
    Resolve(resolve::ResolveCommand),
    #[command(flatten)]
    Edit(edit::EditCommand),
    /// Decks of cards and cups of markers: what is in them, the odds of the next draws, and
    /// draws (app or typed in), refills, returns, removals and additions.
    #[command(subcommand)]
    Deck(deck::DeckCommand),
    /// Sealed written orders: what is due at this step and each side's form, orders handed in
    /// on paper sealed at the desk, and the reveal the step calls for.
    #[command(subcommand)]
    Orders(orders::OrdersCommand),
    #[command(flatten)]
    Sequence(sequence::SequenceCommand),
    #[command(flatten)]
    Journal(journal::JournalCommand),
    #[command(flatten)]
    Victory(victory::VictoryCommand),
    #[command(flatten)]
    Transcribe(transcribe::TranscribeCommand),
}

/// Runs a `game` subcommand.
pub fn run(cli: &Cli, command: &GameCommand) -> Result<()> {
    match command {
        GameCommand::Share(c) => share::run(cli, c),
        GameCommand::Status(c) => status::run(cli, c),
        GameCommand::Resolve(c) => resolve::run(cli, c),
        GameCommand::Edit(c) => edit::run(cli, c),
        GameCommand::Deck(c) => deck::run(cli, c),
        GameCommand::Orders(c) => orders::run(cli, c),
        GameCommand::Sequence(c) => sequence::run(cli, c),
        GameCommand::Journal(c) => journal::run(cli, c),
        GameCommand::Victory(c) => victory::run(cli, c),
        GameCommand::Transcribe(c) => transcribe::run(cli, c),
    }
}

/// Opens a game: a game file, or a game on a server when `file` is a postgres:// URL.
pub(super) fn open(cli: &Cli, file: &Path) -> Result<(Game, Library)> {
    let lib = library(cli)?;
    super::password::ready(&file.to_string_lossy())?;
    let game = umpire::server::open_at(&file.to_string_lossy(), &lib)
        .map_err(|e| super::with_ruleset_errors(&lib, e))?;
    // Said on stderr, once, when the command ends (`read_only_note`): a reading command's
    // output (its JSON too) stays as it is, and a write refused says it in its error alone.
    if let Some(note) = game.read_only()
        && let Ok(mut kept) = READ_ONLY.lock()
    {
        *kept = Some(note);
    }
    Ok((game, lib))
}

/// The note that the game was opened for reading only, said once when the command ends.
static READ_ONLY: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// The read-only note of the game the command opened, if any (taken: said once).
pub fn read_only_note() -> Option<String> {
    READ_ONLY.lock().ok().and_then(|mut n| n.take())
}

/// Who acts: on a server that knows its umpires, the login's umpire (`--as` must agree); else
/// the umpire signed in with `--as NAME:ROLE[:TABLE]`, or named with `--by`, or the umpire of a
/// game of their own. `--discretion` is the reason for what rests on Control's discretion.
pub(super) fn actor(cli: &Cli, game: &Game, by: Option<&String>) -> Result<Actor> {
    let claimed = cli
        .sign_in
        .as_deref()
        .map(|who| SignedIn::parse(who).map_err(|e| anyhow!("--as: {e}")))
        .transpose()?;
    let (login, location) = (game.login(), game.location());
    let by = by.map(String::as_str);
    who_acts(login, &location, claimed, by, cli.discretion.clone()).map_err(|e| match e {
        ActorError::NotTheLogin { .. } => anyhow!("--as {e}"),
        ActorError::Login { .. } => anyhow!("{e}"),
    })
}

fn act(cli: &Cli, file: &Path, action: Action) -> Result<()> {
    act_with(cli, file, |_| Ok(action))
}

/// Records an action on an open game and says what was recorded.
pub(super) fn act_on(game: &mut Game, actor: &Actor, action: Action) -> Result<()> {
    let seqs = game.act(actor, action)?;
    print_status_line(game);
    for s in seqs {
        if let Some(e) = game.events().get(s as usize - 1) {
            println!(
                "recorded entry {}: {}",
                e.seq,
                umpire::game::describe::Words::of(game).line(e)
            );
        }
    }
    Ok(())
}

pub(super) fn print_status_line(game: &Game) {
    let s = game.status();
    println!(
        "Turn {}/{}{} — {}",
        s.turn,
        s.turns,
        s.date.map_or_else(String::new, |d| format!(" ({d})")),
        s.step.path
    );
}

/// Opens the game, builds the action against it (names settled into ids by [`Names`]) and
/// records it.
pub(super) fn act_with(
    cli: &Cli,
    file: &Path,
    build: impl FnOnce(&Names) -> Result<Action>,
) -> Result<()> {
    let (mut game, _) = open(cli, file)?;
    let actor = actor(cli, &game, None)?;
    let action = build(&Names::of(&game))?;
    act_on(&mut game, &actor, action)
}
