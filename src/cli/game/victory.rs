//! `umpire game control`, `battle-won`, `vp` and `end`: the facts the scenario's victory
//! conditions read, and the end of the game.

use anyhow::Result;
use clap::Subcommand;

use super::{GameFile, Reason, act};
use crate::cli::Cli;
use umpire::game::{Action, VictoryFact};

/// `game` subcommands: victory.
#[derive(Debug, Subcommand)]
pub enum VictoryCommand {
    /// Record who holds a place (ailsh 14.1–14.3): owned by a side, or Conquered by it
    /// (`--conquered`, a Conquered marker), or by no side (no `--side`). A Force that stops in
    /// a place the victory conditions name records it itself.
    Control {
        #[command(flatten)]
        game: GameFile,
        /// The place, as the map names it ("Novara").
        place: String,
        /// The side that holds it now (its name or id); none: no side holds it.
        #[arg(long)]
        side: Option<String>,
        /// Held by a Conquered marker (14.2–14.3).
        #[arg(long)]
        conquered: bool,
        /// Why (the move, the rule).
        #[arg(long)]
        reason: Option<String>,
    },
    /// Record a battle won by a side (the ailsh Major Battle: its loser is the side that
    /// Musters or is Demoralised, Step 10-a). A win that wins the scenario ends the game.
    BattleWon {
        #[command(flatten)]
        game: GameFile,
        /// The winning side (its name or id).
        #[arg(long)]
        side: String,
        /// The kind of battle.
        #[arg(long, default_value = "major_battle")]
        kind: String,
        /// Why, if said.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Record Victory Points gained (or lost, negative) by a side, with the reason (a card,
    /// booty).
    Vp {
        #[command(flatten)]
        game: GameFile,
        /// The side (its name or id).
        #[arg(long)]
        side: String,
        /// How many (negative to take away).
        #[arg(allow_negative_numbers = true)]
        points: i64,
        #[command(flatten)]
        reason: Reason,
    },
    /// End the game now with the result the victory conditions give (the End of Game marker
    /// passed), or with a victory a side may declare (`--declare`, its title).
    End {
        #[command(flatten)]
        game: GameFile,
        /// The victory a side declares, by its title ("French Standard Victory").
        #[arg(long)]
        declare: Option<String>,
        #[command(flatten)]
        reason: Reason,
    },
}

/// Runs one of them.
pub fn run(cli: &Cli, command: &VictoryCommand) -> Result<()> {
    let (file, action) = match command {
        VictoryCommand::Control {
            game: GameFile { file },
            place,
            side,
            conquered,
            reason,
        } => (
            file,
            Action::Victory(VictoryFact::Control {
                place: place.clone(),
                side: side.clone(),
                conquered: *conquered,
                reason: reason.clone(),
            }),
        ),
        VictoryCommand::BattleWon {
            game: GameFile { file },
            side,
            kind,
            reason,
        } => (
            file,
            Action::Victory(VictoryFact::BattleWon {
                side: side.clone(),
                battle: kind.clone(),
                reason: reason.clone(),
            }),
        ),
        VictoryCommand::Vp {
            game: GameFile { file },
            side,
            points,
            reason: Reason { reason },
        } => (
            file,
            Action::Victory(VictoryFact::Points {
                side: side.clone(),
                points: *points,
                reason: reason.clone(),
            }),
        ),
        VictoryCommand::End {
            game: GameFile { file },
            declare,
            reason: Reason { reason },
        } => (
            file,
            Action::EndGame {
                declare: declare.clone(),
                reason: reason.clone(),
            },
        ),
    };
    act(cli, file, action)
}
