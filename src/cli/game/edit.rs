//! `umpire game move` (a counter or a whole Force), `add`, `set`, `mark`, `remove`, `adjust`, `transfer`, `note` and `announce`:
//! the changes made at the table, in the journal.

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::{GameFile, Reason, act, act_on, act_with, actor, open};
use crate::cli::Cli;
use umpire::game::scenario::{CounterKind, Position};
use umpire::game::{Action, Game, Names};

/// `game` subcommands: changes made at the table.
#[derive(Debug, Subcommand)]
pub enum EditCommand {
    /// Move a counter, or a whole Force in one entry: TO is a hex id ("0114"), an area name, or
    /// x,y in base units.
    Move {
        #[command(flatten)]
        game: GameFile,
        /// The counter (its name or id), or a Force as the text names it ("Chaumont's Force",
        /// or its id).
        counter: String,
        /// Where to.
        to: String,
        /// Move the counter's whole Force with it (every counter of the Force on the table),
        /// as one journal entry.
        #[arg(long)]
        force: bool,
    },
    /// Put a new counter on the table — an army raised, a Fort built, a counter the scenario
    /// does not place — with its side, where, and its attributes.
    Add(AddArgs),
    /// Raise an army (a megagame's): a new army of STATE where it is raised, its men as its
    /// strength, the cost (1 florin per 5,000 men) taken from the state's treasury — one entry.
    /// Raised in a military phase, it may not move that phase.
    Raise {
        #[command(flatten)]
        game: GameFile,
        /// The state (its name or id).
        state: String,
        /// The army's name (unique in the game).
        name: String,
        /// Where it is raised: an area name.
        #[arg(long)]
        at: String,
        /// Men raised, in 5,000s.
        #[arg(long, default_value_t = 1)]
        blocks: u32,
        /// The place is another played country's home area and it gave its permission.
        #[arg(long)]
        permission: bool,
    },
    /// Disband an army: it leaves the table; the journal keeps its history.
    Disband {
        #[command(flatten)]
        game: GameFile,
        /// The army (its name or id).
        army: String,
    },
    /// Set a counter's attribute (strength, a rating…).
    Set {
        #[command(flatten)]
        game: GameFile,
        /// Counter id.
        counter: String,
        /// Attribute.
        attribute: String,
        /// Value.
        value: String,
        /// The value you saw ("?" for none): refused, naming who changed it and when, if
        /// another desk has changed it since (a shared game's guard against two sets at once).
        #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
        was: Option<String>,
    },
    /// Give the values printed on the counters that the rule text does not give (a Troop
    /// Quality, a Capitano's Initiative) to every counter that matches, in one entry: those
    /// NAMED as the text prints them ("French Gendarmes"), and/or WITH an attribute. A value the
    /// text already gives stays.
    SetAll {
        #[command(flatten)]
        game: GameFile,
        /// The values, NAME=VALUE (troop_quality=3).
        #[arg(required = true, value_name = "NAME=VALUE")]
        values: Vec<String>,
        /// The counters' name as the text prints it ("French Gendarmes"), any case.
        #[arg(long)]
        named: Option<String>,
        /// An attribute the counters have, NAME=VALUE (unit_type=heavy_cavalry).
        #[arg(long = "with", value_name = "NAME=VALUE")]
        with: Vec<String>,
    },
    /// Set (or clear) a status marker on a counter.
    Mark {
        #[command(flatten)]
        game: GameFile,
        /// Counter id.
        counter: String,
        /// Status (disordered, demoralised…).
        status: String,
        /// Clear it instead.
        #[arg(long)]
        clear: bool,
    },
    /// Take a counter off the table.
    Remove {
        #[command(flatten)]
        game: GameFile,
        /// Counter id.
        counter: String,
        #[command(flatten)]
        reason: Reason,
    },
    /// Change a whole-number attribute by a delta, with a reason (a ledger's treasury, an
    /// army's Arrears…). COUNTER may be a state id for its ledger. Deltas from several umpires
    /// add up in any order.
    Adjust {
        #[command(flatten)]
        game: GameFile,
        /// Counter id (or a state id, for its ledger counter).
        counter: String,
        /// Attribute (treasury, national_debt, unrest_index, arrears…).
        attribute: String,
        /// The delta, e.g. +3 or -2.
        #[arg(allow_hyphen_values = true, value_name = "±N")]
        delta: i64,
        #[command(flatten)]
        reason: Reason,
        /// Who is at the desk.
        #[arg(long)]
        by: Option<String>,
    },
    /// Move florins (or another whole-number attribute) from one state to another as one event.
    Transfer {
        #[command(flatten)]
        game: GameFile,
        /// Paying state (or counter).
        from: String,
        /// Receiving state (or counter).
        to: String,
        /// How much.
        amount: i64,
        /// The attribute moved.
        #[arg(long, default_value = "treasury")]
        attribute: String,
        #[command(flatten)]
        reason: Reason,
    },
    /// Add a note to the journal.
    Note {
        #[command(flatten)]
        game: GameFile,
        /// Text.
        text: String,
    },
    /// Make an announcement (megagames): to everyone (printed on the announcements sheet), to
    /// one team (its statement), or to Control only (the Control log).
    Announce {
        #[command(flatten)]
        game: GameFile,
        /// What is announced.
        text: String,
        /// Who hears it: public, team or control.
        #[arg(long, default_value = "public")]
        audience: umpire::game::event::Audience,
        /// The team, for --audience team.
        #[arg(long)]
        team: Option<String>,
        /// Who announces it (recorded on the event).
        #[arg(long)]
        by: Option<String>,
    },
}

/// `game add`: the new counter as typed.
#[derive(Debug, clap::Args)]
pub struct AddArgs {
    #[command(flatten)]
    game: GameFile,
    /// Its name (unique in the game).
    name: String,
    /// Its side (name or id).
    #[arg(long)]
    side: String,
    /// Where: a hex id ("0114"), an area name, or x,y in base units.
    #[arg(long)]
    at: String,
    /// A leader (a Capitano, a commander) rather than a unit.
    #[arg(long, conflicts_with = "marker")]
    leader: bool,
    /// A marker rather than a unit.
    #[arg(long)]
    marker: bool,
    /// An attribute, NAME=VALUE (repeat for more): `--set strength_points=6`.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    attributes: Vec<String>,
    /// Its unit type, one of the ruleset's (the ruleset's type attribute, e.g. `unit_type`):
    /// `--type heavy_cavalry`.
    #[arg(long = "type", value_name = "TYPE")]
    unit_type: Option<String>,
    /// The Force it joins: one of the game's (its name, "Chaumont's Force", or id), or a new
    /// Force named here, which later counters join by the same name.
    #[arg(long, value_name = "FORCE")]
    force: Option<String>,
    /// Why (kept in the journal).
    #[arg(long)]
    note: Option<String>,
}

/// Runs one of them.
pub fn run(cli: &Cli, command: &EditCommand) -> Result<()> {
    match command {
        EditCommand::Move {
            game: GameFile { file },
            counter,
            to,
            force,
        } => act_by(cli, file, None, |game, names| {
            move_action(names, counter, *force, parse_position(game, to)?)
        }),
        EditCommand::Add(args) => act_by(cli, &args.game.file, None, |game, names| {
            add_action(game, names, args)
        }),
        EditCommand::Raise { .. } | EditCommand::Disband { .. } => army(cli, command),
        EditCommand::Set {
            game: GameFile { file },
            counter,
            attribute,
            value,
            was,
        } => act_with(cli, file, |names| {
            Ok(Action::SetAttribute {
                counter: names.ledger_or_counter(counter)?,
                attribute: attribute.clone(),
                value: value.clone(),
                seen: match was {
                    Some(w) => umpire::game::Seen::Value(seen_value(w)),
                    None => umpire::game::Seen::Unchecked,
                },
            })
        }),
        EditCommand::SetAll {
            game: GameFile { file },
            values,
            named,
            with,
        } => act(
            cli,
            file,
            Action::SetAll {
                name: named.clone(),
                with: super::resolve::pairs(with, "--with")?,
                values: super::resolve::pairs(values, "the value")?,
            },
        ),
        EditCommand::Mark {
            game: GameFile { file },
            counter,
            status,
            clear,
        } => act_with(cli, file, |names| {
            Ok(Action::SetStatus {
                counter: names.counter(counter)?,
                status: status.clone(),
                on: !clear,
            })
        }),
        EditCommand::Remove {
            game: GameFile { file },
            counter,
            reason: Reason { reason },
        } => act_with(cli, file, |names| {
            Ok(Action::Remove {
                counter: names.counter(counter)?,
                reason: reason.clone(),
            })
        }),
        EditCommand::Adjust {
            game: GameFile { file },
            counter,
            attribute,
            delta,
            reason: Reason { reason },
            by,
        } => act_by(cli, file, by.as_ref(), |_, names| {
            Ok(Action::Adjust {
                counter: names.ledger_or_counter(counter)?,
                attribute: attribute.clone(),
                by: *delta,
                reason: reason.clone(),
            })
        }),
        EditCommand::Transfer {
            game: GameFile { file },
            from,
            to,
            amount,
            attribute,
            reason: Reason { reason },
        } => act_with(cli, file, |names| {
            Ok(Action::Transfer {
                from: names.ledger_or_counter(from)?,
                to: names.ledger_or_counter(to)?,
                attribute: attribute.clone(),
                amount: *amount,
                reason: reason.clone(),
            })
        }),
        EditCommand::Note {
            game: GameFile { file },
            text,
        } => act(cli, file, Action::Note { text: text.clone() }),
        EditCommand::Announce {
            game: GameFile { file },
            text,
            audience,
            team,
            by,
        } => act_by(cli, file, by.as_ref(), |game, _| {
            Ok(Action::Announce {
                audience: *audience,
                team: team
                    .as_deref()
                    .map(|t| crate::cli::team_of(game, t))
                    .transpose()?,
                text: text.clone(),
            })
        }),
    }
}

/// `game raise` and `game disband`.
fn army(cli: &Cli, command: &EditCommand) -> Result<()> {
    match command {
        EditCommand::Raise {
            game: GameFile { file },
            state,
            name,
            at,
            blocks,
            permission,
        } => act_by(cli, file, None, |game, _| {
            let levy = umpire::megagame::raise::Levy {
                state: state.clone(),
                name: name.clone(),
                at: parse_position(game, at)?,
                blocks: *blocks,
                permission: *permission,
            };
            umpire::megagame::raise::raise_action(game, &levy).map_err(|e| anyhow!(e))
        }),
        EditCommand::Disband {
            game: GameFile { file },
            army,
        } => act_with(cli, file, |names| {
            Ok(Action::Remove {
                counter: names.counter(army)?,
                reason: "disbanded (The Campaign System › Disbanding armies)".into(),
            })
        }),
        _ => Ok(()),
    }
}

/// Opens the game, works out who acts (named with `by`, where the command takes `--by`), builds
/// the action against the game and records it.
fn act_by(
    cli: &Cli,
    file: &Path,
    by: Option<&String>,
    build: impl FnOnce(&Game, &Names) -> Result<Action>,
) -> Result<()> {
    let (mut game, _) = open(cli, file)?;
    let actor = actor(cli, &game, by)?;
    let action = build(&game, &Names::of(&game))?;
    act_on(&mut game, &actor, action)
}

/// The move asked for: the counter named alone, or its whole Force (`--force`); a name that is
/// no counter's but a Force's moves that Force. A Force moves as one entry (one undo).
fn move_action(names: &Names, named: &str, force: bool, to: Position) -> Result<Action> {
    let counter = names.counter(named);
    let force_id = match &counter {
        Ok(id) if force => Some(names.counter_force(id).ok_or_else(|| {
            anyhow!("{named} belongs to no Force: move it alone (without --force)")
        })?),
        Ok(_) => None,
        Err(_) => names.force(named),
    };
    let Some(force_id) = force_id else {
        return Ok(Action::Move {
            counter: counter?,
            to,
        });
    };
    let counters = names.force_counters(&force_id);
    if counters.is_empty() {
        bail!("{named}: no counter of that Force is on the table");
    }
    Ok(Action::MoveStack { counters, to })
}

/// The new counter asked for by `game add`, its side and place read by the game's names.
fn add_action(game: &Game, names: &Names, args: &AddArgs) -> Result<Action> {
    let kind = match (args.leader, args.marker) {
        (true, _) => CounterKind::Leader,
        (_, true) => CounterKind::Marker,
        _ => CounterKind::Unit,
    };
    let mut attributes: Vec<(String, String)> = args
        .attributes
        .iter()
        .map(|a| name_value(a))
        .collect::<Result<_>>()?;
    if let Some(t) = &args.unit_type {
        let Some(attribute) = game.ruleset().type_attribute.clone() else {
            bail!(
                "--type {t}: {} declares no unit type; give the attribute with --set NAME=VALUE",
                game.ruleset().name
            );
        };
        attributes.push((attribute, t.trim().to_string()));
    }
    Ok(Action::AddCounter {
        name: args.name.trim().to_string(),
        side: names.side(&args.side)?.to_string(),
        kind,
        at: parse_position(game, &args.at)?,
        attributes,
        force: args.force.clone(),
        note: args.note.clone(),
    })
}

/// NAME=VALUE as typed after `--set`.
fn name_value(typed: &str) -> Result<(String, String)> {
    let (name, value) = typed
        .split_once('=')
        .ok_or_else(|| anyhow!("--set {typed}: give NAME=VALUE, e.g. --set strength_points=6"))?;
    Ok((name.trim().to_string(), value.trim().to_string()))
}

/// A typed place, read in the game's geometry (the desk reads it the same way).
pub(super) fn parse_position(game: &Game, text: &str) -> Result<Position> {
    let geometry = game.ruleset().geometry.as_ref().map(|g| g.kind);
    Ok(umpire::game::hex::read_position(text, geometry)?)
}

/// A value as typed after `--was`: a whole number, yes/no, "?" for none, else text.
fn seen_value(typed: &str) -> Option<umpire::rules::Value> {
    use umpire::rules::Value;
    let t = typed.trim();
    match t {
        "?" | "" => None,
        "true" | "yes" => Some(Value::Bool(true)),
        "false" | "no" => Some(Value::Bool(false)),
        _ => Some(
            t.parse::<i64>()
                .map_or_else(|_| Value::Text(t.to_string()), Value::Int),
        ),
    }
}
