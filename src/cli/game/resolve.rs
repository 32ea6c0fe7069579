//! `umpire game resolve`, `effects`, `apply` and `override`: procedures resolved and their
//! results carried to the counters.

use std::collections::BTreeMap;

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::{GameFile, Reason, act, act_on, actor, open};
use crate::cli::{Cli, print_json};
use umpire::game::{Action, CounterChange, CounterId, Event, Game, Names};
use umpire::resolve::describe_effect;

/// `game` subcommands: procedures and their results.
#[derive(Debug, Subcommand)]
pub enum ResolveCommand {
    /// Resolve a procedure and record it.
    Resolve {
        #[command(flatten)]
        game: GameFile,
        /// Procedure id.
        procedure: String,
        /// An input, NAME=VALUE.
        #[arg(long = "input", short = 'i', value_name = "NAME=VALUE")]
        inputs: Vec<String>,
        /// Physical dice, one face per die.
        #[arg(long = "roll", num_args = 1.., value_name = "FACE", allow_negative_numbers = true)]
        roll: Vec<String>,
        /// The result read off the physical chart, for a cell the text does not give (a
        /// negative one too: `--chart-result -2`).
        #[arg(long, value_name = "CODE", allow_hyphen_values = true)]
        chart_result: Option<String>,
        /// The result read off the physical chart when the text does not name it among the
        /// chart's codes: you confirm your chart prints CODE (recorded with the result).
        #[arg(
            long,
            value_name = "CODE",
            allow_hyphen_values = true,
            conflicts_with = "chart_result"
        )]
        chart_prints: Option<String>,
        /// A counter involved, ROLE=COUNTER (e.g. attacker=fr-1).
        #[arg(long = "counter", value_name = "ROLE=ID")]
        counters: Vec<String>,
        /// Who is at the desk.
        #[arg(long)]
        by: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show the changes proposed for the effects of a resolution.
    Effects {
        #[command(flatten)]
        game: GameFile,
        /// The journal entry of the resolution.
        entry: u64,
    },
    /// Apply the effects of a resolution: the proposed changes, and your choices where the rules
    /// leave one (which units absorb losses…).
    Apply {
        #[command(flatten)]
        game: GameFile,
        /// The journal entry of the resolution.
        entry: u64,
        /// Apply every change that needs no choice.
        #[arg(long)]
        proposed: bool,
        /// A strength loss, COUNTER=N.
        #[arg(long = "loss", value_name = "COUNTER=N")]
        losses: Vec<String>,
        /// A status, COUNTER=STATUS.
        #[arg(long = "status", value_name = "COUNTER=STATUS")]
        statuses: Vec<String>,
        /// A counter eliminated.
        #[arg(long = "eliminate", value_name = "COUNTER")]
        eliminated: Vec<String>,
    },
    /// Replace a recorded result, with a reason.
    Override {
        #[command(flatten)]
        game: GameFile,
        /// The journal entry of the resolution.
        entry: u64,
        /// The outcome that stands.
        outcome: String,
        #[command(flatten)]
        reason: Reason,
    },
}

/// Runs one of them.
pub fn run(cli: &Cli, command: &ResolveCommand) -> Result<()> {
    match command {
        ResolveCommand::Resolve {
            game: GameFile { file },
            procedure,
            inputs,
            roll,
            chart_result,
            chart_prints,
            counters,
            by,
            json,
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, by.as_ref())?;
            let names = Names::of(&game);
            let mut roles: BTreeMap<String, Vec<CounterId>> = BTreeMap::new();
            for (role, named) in pairs(counters, "--counter")? {
                let id = names
                    .counter(&named)
                    .map_err(|e| anyhow!("--counter {role}={named}: {e}"))?;
                roles.entry(role).or_default().push(id);
            }
            let action = Action::Resolve {
                procedure: names.procedure(procedure)?.into(),
                inputs: pairs(inputs, "--input")?,
                physical: (!roll.is_empty()).then(|| roll.clone()),
                chart_result: chart_result.clone().or_else(|| chart_prints.clone()),
                chart_confirmed: chart_prints.is_some(),
                counters: roles,
            };
            let seqs = game.act(&actor, action)?;
            print_resolved(&game, &seqs, *json)
        }
        ResolveCommand::Effects {
            game: GameFile { file },
            entry,
        } => {
            let (game, _) = open(cli, file)?;
            let words = umpire::game::describe::Words::of(&game);
            for p in game.proposals(*entry)? {
                let what = describe_effect(&p.effect);
                match (&p.change, &p.choice) {
                    (Some(c), _) => println!("  {what}: proposed {}", words.change(c)),
                    (None, Some(choice)) => println!("  {what}: {choice}"),
                    (None, None) => println!("  {what}"),
                }
            }
            Ok(())
        }
        ResolveCommand::Apply {
            game: GameFile { file },
            entry,
            proposed,
            losses,
            statuses,
            eliminated,
        } => {
            let (mut game, _) = open(cli, file)?;
            let mut changes = Vec::new();
            if *proposed {
                changes.extend(game.proposals(*entry)?.into_iter().filter_map(|p| p.change));
            }
            changes.extend(typed_changes(&game, *entry, losses, statuses, eliminated)?);
            if changes.is_empty() {
                bail!(
                    "nothing to apply: give --proposed and/or --loss, --status, --eliminate (see `umpire game effects`)"
                );
            }
            let actor = actor(cli, &game, None)?;
            act_on(
                &mut game,
                &actor,
                Action::ApplyEffects {
                    of: *entry,
                    changes,
                },
            )
        }
        ResolveCommand::Override {
            game: GameFile { file },
            entry,
            outcome,
            reason: Reason { reason },
        } => act(
            cli,
            file,
            Action::Override {
                of: *entry,
                outcome: outcome.clone(),
                reason: reason.clone(),
            },
        ),
    }
}

/// What a recorded resolution says (or its JSON), and its entry.
fn print_resolved(game: &Game, seqs: &[u64], json: bool) -> Result<()> {
    let Some(Event {
        kind:
            umpire::game::EventKind::Resolved {
                resolution,
                counters,
            },
        seq,
        ..
    }) = seqs
        .first()
        .and_then(|s| game.events().get(*s as usize - 1))
    else {
        bail!("the resolution was not recorded");
    };
    if json {
        return print_json(resolution);
    }
    for line in umpire::game::describe::Words::of(game).resolution(resolution, counters) {
        println!("{line}");
    }
    println!("recorded entry {seq}");
    Ok(())
}

/// The changes typed after `game apply`: strength losses, statuses set, counters eliminated
/// (each named by name or id).
fn typed_changes(
    game: &Game,
    entry: u64,
    losses: &[String],
    statuses: &[String],
    eliminated: &[String],
) -> Result<Vec<CounterChange>> {
    let mut changes = Vec::new();
    let names = Names::of(game);
    for (named, n) in pairs(losses, "--loss")? {
        let n: i64 = n
            .parse()
            .map_err(|_| anyhow!("--loss {named}={n}: the loss is a whole number"))?;
        let id = names
            .counter(&named)
            .map_err(|e| anyhow!("--loss {named}={n}: {e}"))?;
        let Some(attribute) = &game.ruleset().strength_attribute else {
            bail!("this ruleset names no strength attribute: use `game set`");
        };
        let change = umpire::game::effects::strength_loss(game.ruleset(), game.state(), &id, n)
            .ok_or_else(|| {
                anyhow!(
                    "--loss {named}={n}: {} has no {} to lose (use `game set`)",
                    game.state().counter_name(id.as_str()),
                    umpire::game::describe::Words::of(game).attribute(attribute)
                )
            })?;
        changes.push(change);
    }
    for (named, status) in pairs(statuses, "--status")? {
        let id = names
            .counter(&named)
            .map_err(|e| anyhow!("--status {named}={status}: {e}"))?;
        changes.push(CounterChange::Status {
            counter: id.into(),
            status,
            on: true,
        });
    }
    for named in eliminated {
        let id = names
            .counter(named)
            .map_err(|e| anyhow!("--eliminate {named}: {e}"))?;
        changes.push(CounterChange::Remove {
            counter: id.into(),
            reason: format!("eliminated (entry {entry})"),
        });
    }
    Ok(changes)
}

fn pairs(list: &[String], what: &str) -> Result<Vec<(String, String)>> {
    list.iter()
        .map(|s| {
            s.split_once('=')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .ok_or_else(|| anyhow!("{what} '{s}' is not NAME=VALUE"))
        })
        .collect()
}
