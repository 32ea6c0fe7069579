//! `umpire megagame record …`: Control's records (the ruleset's `records:`) — a chart's new
//! order, a register's entry and Control's ruling on it, a vote's tally, a bank's access for the
//! turn — and `record show`, everything recorded so far.

use std::collections::BTreeMap;

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::{Cli, GameFile, print_json, team_of};
use umpire::game::records::{RecordFact, words};
use umpire::game::{Action, Game};

/// What to record.
#[derive(Debug, Subcommand)]
pub enum RecordCommand {
    /// A ranked chart's new order (Prestige, the Heavenly Status Chart): the teams, highest
    /// first, and what moved them.
    Chart {
        #[command(flatten)]
        game: GameFile,
        /// The chart (its name or id).
        chart: String,
        /// The teams, highest first.
        #[arg(required = true)]
        teams: Vec<String>,
        /// What moved them (a victory, a marriage, a religious act…).
        #[arg(long)]
        reason: String,
    },
    /// An entry in a register (a treaty, a grievance): its parties and terms.
    Register {
        #[command(flatten)]
        game: GameFile,
        /// The register (treaty, grievance).
        register: String,
        /// A party (a team); repeat for each.
        #[arg(long = "party", required = true)]
        parties: Vec<String>,
        /// The terms, in the players' words.
        #[arg(long)]
        terms: String,
        /// The last turn it runs to, if the parties set a limit.
        #[arg(long)]
        until: Option<u32>,
    },
    /// Control's ruling on a register's entry (a grievance valid or not), by the entry that
    /// registered it.
    Rule {
        #[command(flatten)]
        game: GameFile,
        /// The journal entry that registered it.
        entry: u64,
        /// The ruling.
        ruling: String,
    },
    /// A vote: the question and each vote (VOTER=CHOICE: "for", "against", a candidate).
    /// Carried by the text's threshold where it gives one; else give the outcome Control
    /// records.
    Vote {
        #[command(flatten)]
        game: GameFile,
        /// The vote (imperial_penny, imperial_election, king_of_the_romans, imperial_ban).
        vote: String,
        /// What is put to the vote.
        #[arg(long)]
        question: String,
        /// One vote, VOTER=CHOICE; repeat for each.
        #[arg(long = "cast", value_name = "VOTER=CHOICE", required = true)]
        votes: Vec<String>,
        /// The outcome, where the text gives no threshold.
        #[arg(long)]
        outcome: Option<String>,
    },
    /// A bank's access granted to a team for this turn (one non-Italian team a turn).
    Bank {
        #[command(flatten)]
        game: GameFile,
        /// The bank's state (its name or id).
        bank: String,
        /// The team granted access.
        team: String,
    },
    /// Character Control's death-roll list for a turn: who must roll, what the list says,
    /// whether the roll was made and what came of it.
    Deaths {
        #[command(flatten)]
        game: GameFile,
        /// The turn (the current one when omitted).
        #[arg(long)]
        turn: Option<u32>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Everything recorded: the charts as they stand, the registers, the votes, the banks'
    /// grants.
    Show {
        #[command(flatten)]
        game: GameFile,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// A record built against the game (its teams by name).
type Build<'a> = Box<dyn Fn(&Game) -> Result<RecordFact> + 'a>;

/// Runs `megagame record`.
pub fn run(cli: &Cli, command: &RecordCommand) -> Result<()> {
    let (file, build): (_, Build<'_>) = match command {
        RecordCommand::Show {
            game: GameFile { file },
            json,
        } => {
            let (game, _) = super::game::open(cli, file)?;
            return show(&game, *json);
        }
        RecordCommand::Deaths {
            game: GameFile { file },
            turn,
            json,
        } => {
            let (game, _) = super::game::open(cli, file)?;
            return deaths(&game, *turn, *json);
        }
        RecordCommand::Chart {
            game: GameFile { file },
            chart,
            teams,
            reason,
        } => (
            file,
            Box::new(move |g| {
                Ok(RecordFact::Chart {
                    chart: chart.clone(),
                    ranking: teams_of(g, teams)?,
                    reason: reason.clone(),
                })
            }),
        ),
        RecordCommand::Register {
            game: GameFile { file },
            register,
            parties,
            terms,
            until,
        } => (
            file,
            Box::new(move |g| {
                Ok(RecordFact::Register {
                    register: register.clone(),
                    parties: teams_of(g, parties)?,
                    terms: terms.clone(),
                    until: *until,
                })
            }),
        ),
        RecordCommand::Rule {
            game: GameFile { file },
            entry,
            ruling,
        } => (
            file,
            Box::new(move |_| {
                Ok(RecordFact::Ruling {
                    register: String::new(),
                    entry: *entry,
                    ruling: ruling.clone(),
                })
            }),
        ),
        RecordCommand::Vote {
            game: GameFile { file },
            vote,
            question,
            votes,
            outcome,
        } => (
            file,
            Box::new(move |_| {
                let mut tally = BTreeMap::new();
                for v in votes {
                    let Some((who, choice)) = v.split_once('=') else {
                        bail!("--cast {v}: give VOTER=CHOICE, e.g. --cast \"Frederick III=for\"");
                    };
                    tally.insert(who.trim().to_string(), choice.trim().to_string());
                }
                Ok(RecordFact::Vote {
                    vote: vote.clone(),
                    question: question.clone(),
                    tally,
                    outcome: outcome.clone(),
                })
            }),
        ),
        RecordCommand::Bank {
            game: GameFile { file },
            bank,
            team,
        } => (
            file,
            Box::new(move |g| {
                Ok(RecordFact::BankAccess {
                    bank: bank.clone(),
                    team: team_of(g, team)?,
                })
            }),
        ),
    };
    let (mut game, _) = super::game::open(cli, file)?;
    let actor = super::game::actor(cli, &game, None)?;
    let fact = build(&game)?;
    super::game::act_on(&mut game, &actor, Action::Record(fact))
}

fn teams_of(game: &Game, named: &[String]) -> Result<Vec<String>> {
    named.iter().map(|t| team_of(game, t)).collect()
}

/// `record show`: the charts as they stand, then each register entry, vote and grant.
fn show(game: &Game, json: bool) -> Result<()> {
    let records = &game.state().records;
    if json {
        return print_json(records);
    }
    let ruleset = game.ruleset();
    let team = |t: &str| umpire::game::records::team_name(game.scenario(), t);
    let declared = &ruleset.records;
    if declared.charts.is_empty() && declared.registers.is_empty() && declared.votes.is_empty() {
        return Err(anyhow!("{} keeps no records", ruleset.name));
    }
    for c in &declared.charts {
        match records.charts.get(&c.id) {
            Some(s) => {
                println!("{} (turn {}, {}):", c.name, s.turn, c.rule);
                for (i, t) in s.ranking.iter().enumerate() {
                    println!("  {}. {}", i + 1, team(t));
                }
                println!("  moved by: {}", s.reason);
            }
            None => println!("{}: not yet set ({})", c.name, c.rule),
        }
        if let Some(r) = &c.rewards {
            println!("  rewards: {r}");
        }
    }
    for e in game.events() {
        if let umpire::game::EventKind::Record { fact } = &e.kind
            && !matches!(fact, RecordFact::Chart { .. })
        {
            println!(
                "entry {} (turn {}): {}: {}",
                e.seq,
                e.cursor.turn,
                umpire::game::records::title(ruleset, fact),
                words(ruleset, game.scenario(), fact, &team)
            );
        }
    }
    Ok(())
}

/// `record deaths`: Character Control's list for a turn.
fn deaths(game: &Game, turn: Option<u32>, json: bool) -> Result<()> {
    let turn = turn.unwrap_or(game.state().cursor.turn);
    let list = umpire::megagame::deaths::death_rolls(game, turn);
    if json {
        return print_json(&list);
    }
    if list.is_empty() {
        println!(
            "Turn {turn}: no death rolls — Character Control's list is not in the handbook: enter each character's roll with `umpire game set GAME CHARACTER death_roll \"…\"` (Death, Marriage, Birth and Family › Death)"
        );
        return Ok(());
    }
    println!("Death rolls, turn {turn} (Death, Marriage, Birth and Family › Death):");
    for l in list {
        let what = l.list.as_deref().unwrap_or("not on the list");
        let done = match &l.rolled {
            Some((entry, result)) => format!("{result} (entry {entry})"),
            None if l.alive => "not yet rolled".to_string(),
            None => "dead".to_string(),
        };
        println!("  {}: {what} — {done}", l.name);
    }
    Ok(())
}
