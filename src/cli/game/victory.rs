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
    /// Record the result of the battle being fought — in its branch of the Sequence of Play,
    /// entered at Step 2 (Battle Resolution) by its kind: the side that won (the ailsh Major
    /// Battle: its loser is the side with no Corps in the Main Body or that Musters, Step 8-a),
    /// or a draw. A win that wins the scenario ends the game.
    BattleWon {
        #[command(flatten)]
        game: GameFile,
        /// The winning side (its name or id); without it, the winner the battle's own rolls
        /// show (the side that rolled on the Pursuit Table at Step 10-a).
        #[arg(long)]
        side: Option<String>,
        /// No side won (a Major Battle's draw, Step 11-a).
        #[arg(long, conflicts_with = "side")]
        draw: bool,
        /// The kind of battle, checked against the one fought here (the branch entered says
        /// it).
        #[arg(long)]
        kind: Option<String>,
        /// Why, if said.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Record what a place is where the rule text does not say (a Town or a City, read off the
    /// map): the victory conditions read it from then on (Scenario 4's Victory Points), and a
    /// Garrison Order (5.3) where the texts name no place, by its hex.
    PlaceKind {
        #[command(flatten)]
        game: GameFile,
        /// The place, as the map names it ("Novara"), or a hex the texts name no place at
        /// ("2728").
        place: String,
        /// What it is: town, city, fortified_town, fortified_city, fortress…
        kind: String,
        #[command(flatten)]
        reason: Reason,
    },
    /// Record the umpire's judgement of a victory condition the counters cannot show ("no French
    /// Force occupies a Fortress east of the Adda"): it holds (`--holds`) or not (`--fails`).
    Judge {
        #[command(flatten)]
        game: GameFile,
        /// The victory condition, by its title ("Venetian Standard Victory").
        item: String,
        /// It holds.
        #[arg(long, required_unless_present = "fails", conflicts_with = "fails")]
        holds: bool,
        /// It does not hold.
        #[arg(long)]
        fails: bool,
        /// The side it is judged for, when the condition is judged for each side.
        #[arg(long)]
        side: Option<String>,
        #[command(flatten)]
        reason: Reason,
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
            draw,
            kind,
            reason,
        } => (
            file,
            Action::Victory(if *draw {
                VictoryFact::BattleDrawn {
                    battle: kind.clone().unwrap_or_default(),
                    reason: reason.clone(),
                }
            } else {
                VictoryFact::BattleWon {
                    side: side.clone().unwrap_or_default(),
                    battle: kind.clone().unwrap_or_default(),
                    reason: reason.clone(),
                }
            }),
        ),
        VictoryCommand::PlaceKind {
            game: GameFile { file },
            place,
            kind,
            reason: Reason { reason },
        } => (
            file,
            Action::Victory(VictoryFact::PlaceKind {
                place: place.clone(),
                kind: kind.parse().map_err(anyhow::Error::msg)?,
                reason: reason.clone(),
            }),
        ),
        VictoryCommand::Judge {
            game: GameFile { file },
            item,
            holds,
            fails: _,
            side,
            reason: Reason { reason },
        } => (
            file,
            Action::Victory(VictoryFact::Judged {
                item: item.clone(),
                side: side.clone(),
                holds: *holds,
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
