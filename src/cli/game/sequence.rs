//! `umpire game next`, `back`, `skip` and `credit`: the Sequence of Play.

use anyhow::{Result, bail};
use clap::Subcommand;

use super::{GameFile, Reason, act, act_on, actor, open};
use crate::cli::Cli;
use std::path::Path;
use umpire::game::{Action, Game};

/// `game` subcommands: the Sequence of Play.
#[derive(Debug, Subcommand)]
pub enum SequenceCommand {
    /// Go to the next step that needs the umpire (refused while mandatory items are
    /// pending); the steps passed on the way, with nothing to resolve, are listed.
    Next {
        #[command(flatten)]
        game: GameFile,
        /// Go instead to a step this one offers: a branch ("Major Battle", "Skirmish") or an
        /// earlier step to repeat, by its name as `game status` lists it.
        #[arg(long, value_name = "STEP")]
        to: Option<String>,
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
            to,
        } => next(cli, file, to.as_deref()),
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

/// `game next`: to the next step that needs the umpire, saying the steps passed on the way
/// (table work with nothing to resolve); or, with `--to`, into a branch the step offers.
fn next(cli: &Cli, file: &Path, to: Option<&str>) -> Result<()> {
    let (mut game, _) = open(cli, file)?;
    let actor = actor(cli, &game, None)?;
    if let Some(step) = to {
        return act_on(
            &mut game,
            &actor,
            Action::Enter {
                step: step.to_string(),
            },
        );
    }
    let passed = {
        let walk = game.walk();
        let (_, passed) = walk.next_stop();
        umpire::game::sequence::passed_between(&walk, &passed)
    };
    match act_on(&mut game, &actor, Action::Next) {
        Err(e) if e.to_string().contains("skip each with a reason") => Err(anyhow::anyhow!(
            "{e} (`umpire game skip FILE NUMBER --reason …`, NUMBER as `game status` lists it)"
        )),
        Err(e) => Err(e),
        Ok(()) => {
            if !passed.is_empty() {
                println!("passed (nothing to resolve): {}", passed.join("; "));
            }
            Ok(())
        }
    }
}
