//! `umpire game status`, `reveal-contacts` and `ledger`: where the game stands, all of it or
//! as one side may see it, the reveals due, and a megagame's ledgers.

use anyhow::{Result, anyhow};
use clap::Subcommand;

use super::{GameFile, act_on, actor, open, print_status_line};
use crate::cli::{Cli, print_json};
use umpire::game::{Game, Names, visibility};

/// `game` subcommands: where the game stands.
#[derive(Debug, Subcommand)]
pub enum StatusCommand {
    /// Turn, date, step, pending items and counters (all, or as one side may see them).
    Status {
        #[command(flatten)]
        game: GameFile,
        /// Show the game as this side may see it (its name or id, e.g. Venetian; a megagame team).
        #[arg(long, value_name = "ID")]
        side: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Record the reveals the ruleset calls for at the current step (e.g. "All is lost save
    /// Honour" D.1 Intelligence: the Forces in contact reveal their composition).
    RevealContacts {
        #[command(flatten)]
        game: GameFile,
    },
    /// The states' ledgers (megagames): treasury, debt, unrest, cards, armies, fleets, cities,
    /// characters, and the history of treasury and debt.
    Ledger {
        #[command(flatten)]
        game: GameFile,
        /// Only this state.
        #[arg(long)]
        state: Option<String>,
        /// Only states at this map table.
        #[arg(long)]
        table: Option<String>,
        /// Only the states of this team.
        #[arg(long)]
        team: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs one of them.
pub fn run(cli: &Cli, command: &StatusCommand) -> Result<()> {
    match command {
        StatusCommand::Status {
            game: GameFile { file },
            side: Some(side),
            json,
        } => {
            let (game, _) = open(cli, file)?;
            let side = Names::of(&game).side(side)?;
            side_status(&game, side.as_str(), *json)
        }
        StatusCommand::Status {
            game: GameFile { file },
            side: None,
            json,
        } => {
            let (game, _) = open(cli, file)?;
            game_status(&game, *json)
        }
        StatusCommand::RevealContacts {
            game: GameFile { file },
        } => {
            let (mut game, _) = open(cli, file)?;
            let Some(action) = umpire::game::side::reveals_action(&game) else {
                let step = game
                    .steps()
                    .get(game.state().cursor.step)
                    .map_or_else(String::new, |s| s.path.clone());
                println!("nothing to reveal at this step ({step})");
                return Ok(());
            };
            let actor = actor(cli, &game, None)?;
            act_on(&mut game, &actor, action)
        }
        StatusCommand::Ledger {
            game: GameFile { file },
            state,
            table,
            team,
            json,
        } => {
            let (game, _) = open(cli, file)?;
            let team = team
                .as_deref()
                .map(|t| crate::cli::team_of(&game, t))
                .transpose()?;
            let filter = umpire::megagame::LedgerFilter {
                table: table.clone(),
                team,
                state: state.clone(),
            };
            let ledgers = umpire::megagame::ledgers_filtered(&game, &filter);
            if *json {
                return print_json(&ledgers);
            }
            if ledgers.is_empty() {
                println!("no ledgers (the scenario's megagame: section declares the states)");
            }
            for l in &ledgers {
                print_ledger(&game, l);
            }
            Ok(())
        }
    }
}

/// The result once the game has ended (and that `game reveal` is offered), else who would win
/// if it ended now and why.
fn print_standing(standing: &umpire::game::victory::Standing) {
    let Some(headline) = standing.headline() else {
        return;
    };
    println!("{headline}");
    if let Some(r) = &standing.ended {
        for line in r
            .reasons
            .iter()
            .filter(|l| !r.sentence.contains(l.as_str()))
        {
            println!("  · {line}");
        }
        println!(
            "  The game is over: `umpire game reveal FILE` reveals the dice's seed for the players to check every roll."
        );
        return;
    }
    for l in &standing.lines {
        let truth = match l.truth {
            umpire::game::victory::Truth::Yes => "holds",
            umpire::game::victory::Truth::No => "does not hold",
            umpire::game::victory::Truth::Unknown => "for the umpire to judge",
        };
        let who = l
            .side_name
            .as_deref()
            .map_or_else(String::new, |s| format!(" ({s})"));
        println!("  · {}{who}: {truth} — {}", l.title, l.reasons.join("; "));
    }
}

/// `game status` for the whole game: the step and what is pending, the clock, every counter,
/// the journal's head and the seed.
fn game_status(game: &Game, json: bool) -> Result<()> {
    let status = game.status();
    if json {
        return print_json(&status);
    }
    println!("{} — {}", status.scenario, status.ruleset);
    print_status_line(game);
    print_standing(&status.victory);
    // A megagame's phase clock, once started (`umpire megagame clock` for more).
    if let Some(c) =
        umpire::megagame::clock::clock_status(game.ruleset(), game.events(), chrono::Utc::now())
        && c.started
    {
        let state = if c.finished {
            " — finished"
        } else if c.held {
            " — held"
        } else {
            ""
        };
        println!("Clock {} {}{state}", c.countdown(), c.headline());
    }
    let playing: Vec<String> = game
        .ruleset()
        .optional_rules
        .iter()
        .filter(|o| game.state().optional_rules.contains(&o.id))
        .map(|o| format!("{} {}", o.id, o.name))
        .collect();
    if !playing.is_empty() {
        println!("Optional rules played: {}", playing.join("; "));
    }
    if let Some(w) = &status.step.when {
        println!("  (when: {w})");
    }
    if !game.walk().applies(&game.state().cursor) {
        println!("  (this step does not apply in this game now: Next passes it)");
    }
    for (n, p) in status.pending.iter().enumerate() {
        let mark = pending_mark(p);
        println!("  {mark} {}. {}", n + 1, p.label);
    }
    print_counters(game, &status);
    println!("Journal: {}", status.head);
    println!("{}", game.seed_statement());
    Ok(())
}

/// The counters by side and name: position, strength (a marker's values), statuses, removal.
fn print_counters(game: &Game, status: &umpire::game::Status) {
    println!("Counters:");
    let words = umpire::game::describe::Words::of(game);
    let mut counters: Vec<_> = status.counters.iter().collect();
    counters.sort_by_key(|c| (words.side(&c.side), c.name.clone()));
    for c in counters {
        let statuses = if c.statuses.is_empty() {
            String::new()
        } else {
            format!(
                " [{}]",
                c.statuses.iter().cloned().collect::<Vec<_>>().join(", ")
            )
        };
        let gone = c
            .removed
            .as_ref()
            .map_or_else(String::new, |r| format!(" — removed: {r}"));
        // Its strength; a marker's values (an AP marker's Administrative Points).
        let shown: Vec<String> = if c.kind == umpire::game::scenario::CounterKind::Marker {
            c.attributes
                .iter()
                .map(|(a, v)| format!("{} {}", words.attribute(a), words.value(v)))
                .collect()
        } else {
            game.ruleset()
                .strength_attribute
                .as_ref()
                .and_then(|a| {
                    c.attributes
                        .get(a)
                        .map(|v| format!("{} {}", words.attribute(a), words.value(v)))
                })
                .into_iter()
                .collect()
        };
        let shown = if shown.is_empty() {
            String::new()
        } else {
            format!(" · {}", shown.join(", "))
        };
        println!(
            "  {:<44} {:<10} {}{shown}{statuses}{gone}",
            c.name,
            words.side(&c.side),
            words.position(&c.position)
        );
    }
}

fn print_ledger(game: &Game, l: &umpire::megagame::StateLedger) {
    let words = umpire::game::describe::Words::of(game);
    let people = umpire::megagame::People::of(game);
    let table = |t: &String| {
        people
            .tables
            .iter()
            .find(|x| x.id == *t)
            .map_or_else(|| t.replace('_', " "), |x| x.name.clone())
    };
    println!(
        "{}{}{}",
        l.name,
        l.table
            .as_ref()
            .map_or_else(String::new, |t| format!(" — {}", table(t))),
        if l.played { "" } else { " — non-played" }
    );
    let values: Vec<String> = l
        .values
        .iter()
        .map(|(k, v)| {
            let below = matches!(v, umpire::rules::Value::Int(n) if *n < 0);
            format!(
                "{} {}{}",
                words.attribute(k),
                words.value(v),
                if below { " (below 0)" } else { "" }
            )
        })
        .chain(
            l.unknown
                .iter()
                .map(|u| format!("{} ?", words.attribute(u))),
        )
        .collect();
    println!("  {}", values.join(" · "));
    for (what, items) in [
        ("army", &l.armies),
        ("fleet", &l.fleets),
        ("city", &l.cities),
        ("area", &l.areas),
        ("character", &l.characters),
    ] {
        for i in items {
            let attrs: Vec<String> = i
                .attributes
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "unit_kind" | "country" | "owner" | "role" | "team"
                    )
                })
                .map(|(k, v)| format!("{} {}", words.attribute(k), words.value(v)))
                .collect();
            let gone = i
                .removed
                .as_ref()
                .map_or_else(String::new, |r| format!(" — off the table: {r}"));
            println!(
                "  {what} {} ({}) {}{gone}",
                i.name,
                i.position,
                attrs.join(", ")
            );
        }
    }
    for e in &l.history {
        println!(
            "  #{:<4} turn {} {:<14} {:+5}{}  {}",
            e.seq,
            e.turn,
            words.attribute(&e.attribute),
            e.delta,
            e.balance.map_or_else(
                || " = ?".to_string(),
                |b| format!(" = {b}{}", if b < 0 { " (below 0)" } else { "" })
            ),
            e.reason
        );
    }
}

/// `game status --side`: the pending items and counters as one side may see them, by name
/// (an id only in `--json`, and only for a counter the side may know).
fn side_status(game: &Game, side: &str, json: bool) -> Result<()> {
    let status = umpire::game::side::SideStatus::of(game, side).map_err(|e| anyhow!(e))?;
    let words = umpire::game::describe::Words::of(game);
    if json {
        return print_json(&status);
    }
    println!(
        "{} — {} — as seen by {}",
        status.scenario, status.ruleset, status.side_name
    );
    print_status_line(game);
    for p in &status.pending {
        let mark = pending_mark(p);
        println!("  {mark} {}", p.label);
    }
    // The attributes worth a column: strength, and those the ruleset keeps or shows.
    let mut shown: Vec<String> = game.ruleset().strength_attribute.iter().cloned().collect();
    for a in &game.ruleset().visibility.attributes {
        shown.extend(a.attributes.iter().cloned());
    }
    println!("Counters:");
    // The side's own first, then what it sees of the others.
    let mut counters: Vec<&visibility::CounterSight> = status.counters.iter().collect();
    counters.sort_by_key(|c| !c.own);
    for c in counters {
        let values: Vec<String> = shown
            .iter()
            .filter_map(|a| {
                c.attributes
                    .get(a)
                    .map(|v| format!(" · {} {}", words.attribute(a), words.value(v)))
            })
            .collect();
        let statuses = if c.statuses.is_empty() {
            String::new()
        } else {
            format!(" [{}]", c.statuses.join(", "))
        };
        let gone = c
            .removed
            .as_ref()
            .map_or_else(String::new, |r| format!(" — removed: {r}"));
        let seen = if c.own {
            String::new()
        } else {
            format!(" ({})", c.level.words())
        };
        println!(
            "  {:<34} {:<10} {}{}{statuses}{gone}{seen}",
            c.label,
            words.side(&c.side),
            c.position,
            values.concat()
        );
    }
    println!(
        "{} journal entries, {} seen by this side",
        status.events, status.seen_events
    );
    Ok(())
}

/// A pending item's mark in `game status`: ✓ done, ! mandatory (Next refuses to pass it), ·
/// optional.
fn pending_mark(p: &umpire::game::sequence::Pending) -> &'static str {
    if p.done {
        "✓"
    } else if p.mandatory {
        "!"
    } else {
        "·"
    }
}
