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
        /// A counter involved, ROLE=COUNTER (e.g. attacker=fr-1), or a whole Force,
        /// ROLE=FORCE (attacker="Chaumont's Force"): every counter of it on the table.
        #[arg(long = "counter", value_name = "ROLE=ID")]
        counters: Vec<String>,
        /// The item of the Sequence of Play it answers, as `game status` lists it (its
        /// number, or its words): whose scheduled roll, which Force's activation. Needed when
        /// several sides' items ask for it and the counters do not say whose; `none` for a
        /// roll made for another reason.
        #[arg(long = "for", value_name = "ITEM")]
        for_item: Option<String>,
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
        /// A strength loss, WHO=N: a counter, or a role of the resolution or a Force
        /// (attacker=1: the loss spread over the Force's units by the rule the ruleset gives,
        /// as when the chart's result says "attacker loses 1 SP").
        #[arg(long = "loss", value_name = "WHO=N")]
        losses: Vec<String>,
        /// A status, WHO=STATUS: a counter, or a role or a Force (every unit of it, or the one
        /// the text says).
        #[arg(long = "status", value_name = "WHO=STATUS")]
        statuses: Vec<String>,
        /// A counter eliminated.
        #[arg(long = "eliminate", value_name = "COUNTER")]
        eliminated: Vec<String>,
        /// Where the Force retreats or advances, for the result's retreat and advance
        /// effects: every counter of the role moves there.
        #[arg(long = "to", value_name = "PLACE")]
        to: Option<String>,
        /// A whole role or Force moved, WHO=PLACE (a retreat or an advance the chart gives).
        #[arg(long = "move", value_name = "WHO=PLACE")]
        moves: Vec<String>,
    },
    /// Replace a recorded result, with a reason.
    Override {
        #[command(flatten)]
        game: GameFile,
        /// The journal entry of the resolution.
        entry: u64,
        /// The outcome that stands (a negative number too: `-1`).
        #[arg(allow_hyphen_values = true)]
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
            for_item,
            by,
            json,
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, by.as_ref())?;
            let names = Names::of(&game);
            let mut roles: BTreeMap<String, Vec<CounterId>> = BTreeMap::new();
            for (role, named) in pairs(counters, "--counter")? {
                let ids = counter_or_force(&names, &named)
                    .map_err(|e| anyhow!("--counter {role}={named}: {e}"))?;
                roles.entry(role).or_default().extend(ids);
            }
            let action = Action::Resolve {
                procedure: names.procedure(procedure)?.into(),
                inputs: pairs(inputs, "--input")?,
                physical: (!roll.is_empty()).then(|| roll.clone()),
                chart_result: chart_result.clone().or_else(|| chart_prints.clone()),
                chart_confirmed: chart_prints.is_some(),
                counters: roles,
                item: for_item.clone(),
            };
            let seqs = game.act(&actor, action)?;
            print_resolved(&game, &seqs, *json)
        }
        ResolveCommand::Effects {
            game: GameFile { file },
            entry,
        } => effects(cli, file, *entry),
        ResolveCommand::Apply {
            game: GameFile { file },
            entry,
            proposed,
            losses,
            statuses,
            eliminated,
            to,
            moves,
        } => {
            let (mut game, _) = open(cli, file)?;
            let mut changes = Vec::new();
            if *proposed {
                changes.extend(game.proposals(*entry)?.into_iter().flat_map(|p| p.changes));
            }
            if let Some(place) = to {
                changes.extend(retreat_moves(&game, *entry, place)?);
            }
            let typed = Typed {
                losses,
                statuses,
                eliminated,
                moves,
            };
            changes.extend(typed_changes(&game, *entry, &typed)?);
            if changes.is_empty() {
                bail!(
                    "nothing to apply: give --proposed and/or --loss, --status, --eliminate, --move (see `umpire game effects`)"
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
                ..
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

/// What was typed after `game apply`.
struct Typed<'a> {
    losses: &'a [String],
    statuses: &'a [String],
    eliminated: &'a [String],
    moves: &'a [String],
}

/// The procedure and the counters by role of the resolution at `entry`.
/// A resolution's procedure, its counters by role, and its inputs and derived values.
type Resolved = (
    String,
    BTreeMap<String, Vec<String>>,
    BTreeMap<String, umpire::rules::Value>,
);

fn resolved(game: &Game, entry: u64) -> Result<Resolved> {
    match game
        .events()
        .get(entry.saturating_sub(1) as usize)
        .map(|e| &e.kind)
    {
        Some(umpire::game::EventKind::Resolved {
            resolution,
            counters,
            ..
        }) => Ok((
            resolution.procedure.clone(),
            counters.clone(),
            umpire::game::effects::resolution_values(resolution),
        )),
        // Not a resolution: no roles; the engine refuses the entry in words.
        _ => Ok((String::new(), BTreeMap::new(), BTreeMap::new())),
    }
}

/// The counter named (a megagame state's id or name for its ledger), or every counter of the
/// Force named ("Chaumont's Force").
fn counter_or_force(names: &Names, named: &str) -> Result<Vec<CounterId>> {
    match names.ledger_or_counter(named) {
        Ok(id) => Ok(vec![id]),
        Err(e) => {
            let Some(force) = names.force(named) else {
                return Err(e.into());
            };
            let ids = names.force_counters(&force);
            if ids.is_empty() {
                bail!("no counter of {named} is on the table");
            }
            Ok(ids)
        }
    }
}

/// Who a typed change falls on: a role of the resolution (its counters), a counter, or a
/// Force; and whether it is one counter named alone.
fn who(
    game: &Game,
    roles: &BTreeMap<String, Vec<String>>,
    named: &str,
) -> Result<(Vec<String>, bool)> {
    if let Some(ids) = roles.get(named.trim()) {
        return Ok((ids.clone(), false));
    }
    let names = Names::of(game);
    let ids = counter_or_force(&names, named)?;
    let alone = ids.len() == 1 && names.force(named).is_none();
    Ok((ids.into_iter().map(String::from).collect(), alone))
}

/// The status a person names: its id or its label, in any case; else as typed.
fn status_id(game: &Game, typed: &str) -> String {
    let typed = typed.trim();
    game.ruleset()
        .statuses
        .iter()
        .find(|s| s.id.eq_ignore_ascii_case(typed) || s.label.eq_ignore_ascii_case(typed))
        .map_or_else(|| typed.to_string(), |s| s.id.clone())
}

/// The changes typed after `game apply`: strength losses (on a counter, or spread over a role's
/// or a Force's units), statuses, counters eliminated, whole roles or Forces moved.
fn typed_changes(game: &Game, entry: u64, typed: &Typed) -> Result<Vec<CounterChange>> {
    let mut changes = Vec::new();
    let (procedure, roles, values) = resolved(game, entry)?;
    let state = game.state();
    for (named, n) in pairs(typed.losses, "--loss")? {
        let n: i64 = n
            .parse()
            .map_err(|_| anyhow!("--loss {named}={n}: the loss is a whole number"))?;
        let (ids, alone) =
            who(game, &roles, &named).map_err(|e| anyhow!("--loss {named}={n}: {e}"))?;
        let Some(attribute) = &game.ruleset().strength_attribute else {
            bail!("this ruleset names no strength attribute: use `game set`");
        };
        let unit_alone = alone
            && state
                .counters
                .get(&ids[0])
                .is_some_and(|c| c.kind != umpire::game::scenario::CounterKind::Leader);
        if unit_alone {
            let id = CounterId::new(ids[0].clone());
            let change = umpire::game::effects::strength_loss(game.ruleset(), state, &id, n)
                .ok_or_else(|| {
                    anyhow!(
                        "--loss {named}={n}: {} has no {} to lose (use `game set`)",
                        state.counter_name(id.as_str()),
                        umpire::game::describe::Words::of(game).attribute(attribute)
                    )
                })?;
            changes.push(change);
            continue;
        }
        let from = umpire::game::effects::LossFrom {
            procedure: Some(&procedure),
            role: roles.contains_key(named.trim()).then_some(named.trim()),
            values: Some(&values),
        };
        let spread = umpire::game::effects::spread_loss(game.ruleset(), state, from, &ids, n);
        if spread.changes.is_empty() {
            bail!(
                "--loss {named}={n}: {}",
                spread
                    .choice
                    .unwrap_or_else(|| "no unit there has Strength Points to lose".into())
            );
        }
        changes.extend(spread.changes);
    }
    for (named, status) in pairs(typed.statuses, "--status")? {
        let status = status_id(game, &status);
        let (ids, alone) =
            who(game, &roles, &named).map_err(|e| anyhow!("--status {named}={status}: {e}"))?;
        if alone {
            changes.push(CounterChange::Status {
                counter: ids[0].clone(),
                status,
                on: true,
            });
            continue;
        }
        let on = umpire::game::effects::force_status(game.ruleset(), state, &ids, &status);
        if let Some(choice) = on.choice {
            bail!("--status {named}={status}: {choice}; name the unit, --status \"UNIT={status}\"");
        }
        changes.extend(on.changes);
    }
    for named in typed.eliminated {
        let id = Names::of(game)
            .counter(named)
            .map_err(|e| anyhow!("--eliminate {named}: {e}"))?;
        changes.push(CounterChange::Remove {
            counter: id.into(),
            reason: format!("eliminated (entry {entry})"),
        });
    }
    for (named, place) in pairs(typed.moves, "--move")? {
        let (ids, _) =
            who(game, &roles, &named).map_err(|e| anyhow!("--move {named}={place}: {e}"))?;
        let to = read_place(game, &place).map_err(|e| anyhow!("--move {named}={place}: {e}"))?;
        changes.extend(umpire::game::effects::force_move(state, &ids, &to));
    }
    Ok(changes)
}

/// A typed place, read in the game's geometry.
fn read_place(game: &Game, text: &str) -> Result<umpire::game::scenario::Position> {
    let geometry = game.ruleset().geometry.as_ref().map(|g| g.kind);
    Ok(umpire::game::hex::read_position(text, geometry)?)
}

/// The moves of `--to PLACE`: every counter of the role each retreat or advance effect of the
/// result names (every counter given, when it names none) moved there.
fn retreat_moves(game: &Game, entry: u64, place: &str) -> Result<Vec<CounterChange>> {
    use umpire::rules::EffectKind;
    let to = read_place(game, place).map_err(|e| anyhow!("--to {place}: {e}"))?;
    let (_, roles, _) = resolved(game, entry)?;
    let mut changes: Vec<CounterChange> = Vec::new();
    for p in game.proposals(entry)? {
        if !matches!(p.effect.kind, EffectKind::Retreat | EffectKind::Advance) {
            continue;
        }
        let ids: Vec<String> = match p.effect.side.as_ref().and_then(|s| roles.get(s)) {
            Some(ids) => ids.clone(),
            None => p.candidates.clone(),
        };
        for c in umpire::game::effects::force_move(game.state(), &ids, &to) {
            if !changes.iter().any(|m| m.counter() == c.counter()) {
                changes.push(c);
            }
        }
    }
    if changes.is_empty() {
        bail!(
            "--to {place}: this result has no retreat or advance to move (give --move WHO=PLACE)"
        );
    }
    Ok(changes)
}

/// NAME=VALUE pairs as typed, or which one is not.
pub(super) fn pairs(list: &[String], what: &str) -> Result<Vec<(String, String)>> {
    list.iter()
        .map(|s| {
            s.split_once('=')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .ok_or_else(|| anyhow!("{what} '{s}' is not NAME=VALUE"))
        })
        .collect()
}

/// `game effects`: a resolution's effects, proposed as counter changes, and the choices left.
fn effects(cli: &Cli, file: &std::path::Path, entry: u64) -> Result<()> {
    let (game, _) = open(cli, file)?;
    let words = umpire::game::describe::Words::of(&game);
    let proposals = game.proposals(entry)?;
    if proposals.is_empty() {
        // Said, not left blank: an empty answer reads as a command that did nothing.
        println!(
            "entry {entry}: the ruleset gives its result no effect on the counters; \
                     change them as the rules say with `umpire game apply {} {entry}` and \
                     --loss, --status, --eliminate or --move",
            file.display()
        );
    }
    for p in proposals {
        let what = describe_effect(&p.effect);
        if p.changes.is_empty() {
            match &p.choice {
                Some(choice) => println!("  {what}: {choice}"),
                None => println!("  {what}"),
            }
            continue;
        }
        let how = p.said.as_ref().map_or(String::new(), |s| format!(" — {s}"));
        if let [one] = p.changes.as_slice() {
            println!("  {what}: proposed {}{how}", words.change(one));
        } else {
            println!("  {what}: proposed{how}");
            for c in &p.changes {
                println!("    {}", words.change(c));
            }
        }
        if let Some(choice) = &p.choice {
            println!("    {choice}");
        }
    }
    Ok(())
}
