//! `umpire game next`, `back`, `skip` and `credit`: the Sequence of Play.

use anyhow::{Result, bail};
use clap::Subcommand;

use super::{GameFile, Reason, act, act_on, actor, open};
use crate::cli::Cli;
use umpire::game::{Action, Game};

/// `game` subcommands: the Sequence of Play.
#[derive(Debug, Subcommand)]
pub enum SequenceCommand {
    /// Advance the Sequence of Play (refused while mandatory items are pending).
    Next {
        #[command(flatten)]
        game: GameFile,
    },
    /// Step the Sequence of Play back.
    Back {
        #[command(flatten)]
        game: GameFile,
    },
    /// Skip a pending item (its key from `status`), with a reason.
    Skip {
        #[command(flatten)]
        game: GameFile,
        /// The item: its number in `game status` (1, 2…), or its key (from `status --json`).
        item: String,
        #[command(flatten)]
        reason: Reason,
    },
    /// Record a pending item that credits an amount (scheduled APs added to the army's AP
    /// marker): `game status` shows "— add 5 to …" on such an item.
    Credit {
        #[command(flatten)]
        game: GameFile,
        /// The item: its number in `game status` (1, 2…), its label, or its key.
        item: String,
    },
}

/// Runs one of them.
pub fn run(cli: &Cli, command: &SequenceCommand) -> Result<()> {
    match command {
        SequenceCommand::Next {
            game: GameFile { file },
        } => act(cli, file, Action::Next),
        SequenceCommand::Back {
            game: GameFile { file },
        } => act(cli, file, Action::Back),
        SequenceCommand::Skip {
            game: GameFile { file },
            item,
            reason: Reason { reason },
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, None)?;
            let item = pending_key(&game, item)?;
            act_on(
                &mut game,
                &actor,
                Action::Skip {
                    item,
                    reason: reason.clone(),
                },
            )
        }
        SequenceCommand::Credit {
            game: GameFile { file },
            item,
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, None)?;
            let item = pending_key(&game, item)?;
            act_on(&mut game, &actor, Action::Credit { item })
        }
    }
}

/// A pending item of the current step: by its number in `game status` (1-based), its key, or
/// its label; an unknown one is refused with the items there are.
fn pending_key(game: &Game, item: &str) -> Result<String> {
    let pending = game.status().pending;
    match umpire::game::sequence::find_pending(&pending, item) {
        Some(p) => Ok(p.key.clone()),
        None => bail!(
            "no pending item '{item}' at this step — the items are: {}",
            if pending.is_empty() {
                "none".to_string()
            } else {
                pending
                    .iter()
                    .enumerate()
                    .map(|(n, p)| format!("{}. {}", n + 1, p.label))
                    .collect::<Vec<_>>()
                    .join("; ")
            }
        ),
    }
}
