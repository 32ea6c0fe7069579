//! `umpire game next`, `back`, `skip`, `credit` and `arrive`: the Sequence of Play.

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
    /// Bring reinforcements onto the map in one entry: every counter of the arrival at its
    /// entry place (breakdown units to their pool). Without ARRIVAL, the ones due at this step:
    /// the turn's scheduled reinforcements, or a conditional Force its roll has brought.
    Arrive {
        #[command(flatten)]
        game: GameFile,
        /// Which: its number in `game status`, its key, or a conditional reinforcement (its id,
        /// or its special rule's title, e.g. "Swiss Reinforcements").
        arrival: Option<String>,
        /// Where they enter, when the text lets the umpire choose ("any road hex on the eastern
        /// edge of the map"): a hex id, an area name, or x,y.
        #[arg(long, value_name = "PLACE")]
        at: Option<String>,
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
        SequenceCommand::Arrive {
            game: GameFile { file },
            arrival,
            at,
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, None)?;
            let action = arrive_action(&game, arrival.as_deref(), at.as_deref())?;
            act_on(&mut game, &actor, action)
        }
    }
}

/// The one change that brings the arrival named (a pending item's number names its key).
fn arrive_action(game: &Game, named: Option<&str>, at: Option<&str>) -> Result<Action> {
    let pending = game.status().pending;
    let named = named.map(|n| {
        umpire::game::sequence::find_pending(&pending, n)
            .filter(|p| p.key.starts_with("reinforcements:") || p.key.starts_with("arrival:"))
            .map_or_else(|| n.to_string(), |p| p.key.clone())
    });
    let arrival = umpire::game::arrivals::find_arrival(
        game.ruleset(),
        game.scenario(),
        game.state(),
        named.as_deref(),
    )
    .map_err(anyhow::Error::msg)?;
    let at = at
        .map(|text| super::edit::parse_position(game, text))
        .transpose()?;
    let (changes, reason) =
        umpire::game::arrivals::arrival_changes(&arrival, game.state(), at.as_ref());
    Ok(Action::Change { changes, reason })
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
