//! `umpire game …`: game sessions on a game file.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::{Cli, library, print_json};
use umpire::game::export::{ExportOptions, SeedSecret, export_text, import, read_export};
use umpire::game::scenario::Position;
use umpire::game::{Action, Actor, CounterId, Event, Game, Head, Names, visibility};
use umpire::megagame::remit::SignedIn;
use umpire::resolve::describe_effect;
use umpire::rules::Library;
use umpire::rules::limits::human_size;

/// The largest journal export `game import` reads: 64 MB. A resolution takes about 1.8 KB of
/// JSON and most other entries about 0.1 KB, so the 10,000-entry game of BENCHMARKS.md (a third
/// of it resolutions) exports to about 7 MB.
const MAX_IMPORT_BYTES: u64 = 64 * 1024 * 1024;

/// `game` subcommands.
#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Start a new game file from a scenario (an id such as `venice_at_bay`, or a YAML file).
    New {
        /// Scenario id or file.
        scenario: String,
        /// The game file to create.
        #[arg(
            short,
            long,
            required_unless_present = "server",
            conflicts_with = "server"
        )]
        output: Option<PathBuf>,
        /// Put the game on a PostgreSQL server instead of in a file:
        /// postgres://user@host/database?game=NAME (see docs/shared-games.md).
        #[arg(long, value_name = "URL")]
        server: Option<String>,
        /// Seed for the app dice, for tests and replays: it is then not secret. Without it, a
        /// fresh seed is kept secret behind its commitment until `game reveal`.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Put a game file on a PostgreSQL server (journal and all) for several desks to share.
    Publish {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// postgres://user@host/database?game=NAME — the name must not be in use there.
        #[arg(long, value_name = "URL")]
        server: String,
    },
    /// Turn, date, step, pending items and counters (all, or as one side may see them).
    Status {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// Show the game as this side may see it (a side id, e.g. venetian; a megagame team).
        #[arg(long, value_name = "ID")]
        side: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Record the reveals the ruleset calls for at the current step (e.g. "All is lost save
    /// Honour" D.1 Intelligence: the Forces in contact reveal their composition).
    RevealContacts {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
    },
    /// Resolve a procedure and record it.
    Resolve {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
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
    /// Move a counter: TO is a hex id ("0114"), an area name, or x,y in base units.
    Move {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// Counter id.
        counter: String,
        /// Where to.
        to: String,
    },
    /// Set a counter's attribute (strength, a rating…).
    Set {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
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
    /// Set (or clear) a status marker on a counter.
    Mark {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// Counter id.
        counter: String,
        /// Status (disordered, demoralised…).
        status: String,
        /// Clear it instead.
        #[arg(long)]
        clear: bool,
    },
    /// Decks of cards and cups of markers: what is in them, the odds of the next draws, and
    /// draws (app or typed in), refills, returns, removals and additions.
    #[command(subcommand)]
    Deck(super::deck::DeckCommand),
    /// Take a counter off the table.
    Remove {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// Counter id.
        counter: String,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// Show the changes proposed for the effects of a resolution.
    Effects {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// The journal entry of the resolution.
        entry: u64,
    },
    /// Apply the effects of a resolution: the proposed changes, and your choices where the rules
    /// leave one (which units absorb losses…).
    Apply {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
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
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// The journal entry of the resolution.
        entry: u64,
        /// The outcome that stands.
        outcome: String,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// Advance the Sequence of Play (refused while mandatory items are pending).
    Next {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
    },
    /// Step the Sequence of Play back.
    Back {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
    },
    /// Skip a pending item (its key from `status`), with a reason.
    Skip {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// The item: its number in `game status` (1, 2…), or its key (from `status --json`).
        item: String,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// Record a pending item that credits an amount (scheduled APs added to the army's AP
    /// marker): `game status` shows "— add 5 to …" on such an item.
    Credit {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// The item: its number in `game status` (1, 2…), its label, or its key.
        item: String,
    },
    /// Add a note to the journal.
    Note {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// Text.
        text: String,
    },
    /// Change a whole-number attribute by a delta, with a reason (a ledger's treasury, an
    /// army's Arrears…). COUNTER may be a state id for its ledger. Deltas from several umpires
    /// add up in any order.
    Adjust {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// Counter id (or a state id, for its ledger counter).
        counter: String,
        /// Attribute (treasury, national_debt, unrest_index, arrears…).
        attribute: String,
        /// The delta, e.g. +3 or -2.
        #[arg(allow_hyphen_values = true, value_name = "±N")]
        delta: i64,
        /// Why (for the journal and the ledger's history).
        #[arg(long)]
        reason: String,
        /// Who is at the desk.
        #[arg(long)]
        by: Option<String>,
    },
    /// Move florins (or another whole-number attribute) from one state to another as one event.
    Transfer {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// Paying state (or counter).
        from: String,
        /// Receiving state (or counter).
        to: String,
        /// How much.
        amount: i64,
        /// The attribute moved.
        #[arg(long, default_value = "treasury")]
        attribute: String,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// The states' ledgers (megagames): treasury, debt, unrest, cards, armies, fleets, cities,
    /// characters, and the history of treasury and debt.
    Ledger {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
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
    /// Make an announcement (megagames): to everyone (printed on the announcements sheet), to
    /// one team (its statement), or to Control only (the Control log).
    Announce {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
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
    /// Undo the last action (it stays in the journal, marked undone).
    Undo {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
    },
    /// Redo the last undone action.
    Redo {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
    },
    /// Check the journal: its hash chain from the game's description to the last entry, the
    /// seed against its commitment, every app roll against its draw index, every result
    /// against its inputs and dice — and, with --head, against a head noted from a report.
    Verify {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// A journal head noted earlier (ENTRIES:HASH, as a report prints it): the journal must
        /// still have that entry with that hash.
        #[arg(long, value_name = "ENTRIES:HASH")]
        head: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Reveal the app dice's seed (usually at the end of the game): players can then check
    /// every app roll against the commitment shown from the start. App dice are refused after.
    Reveal {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
    },
    /// Verify an exported journal as a player: the hash chain (sealed entries by their hash),
    /// the seed against its commitment, and every roll and result the export shows.
    VerifySide {
        /// The exported journal (JSON lines).
        journal: PathBuf,
        /// The revealed seed, SEED:SALT as `game reveal` prints it (not needed when the export
        /// was made after the reveal).
        #[arg(long, value_name = "SEED:SALT")]
        seed: Option<String>,
        /// A journal head noted earlier (ENTRIES:HASH).
        #[arg(long, value_name = "ENTRIES:HASH")]
        head: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write the journal as JSON lines (the first line describes the game; each entry with its
    /// hash). Without the seed unless --with-seed (an umpire's backup).
    Export {
        /// Game file, or a shared game's server URL (postgres://…?game=NAME).
        file: PathBuf,
        /// One JSON entry per line.
        #[arg(long)]
        jsonl: bool,
        /// One side's export: the entries that side may not see are sealed (hash only).
        #[arg(long)]
        side: Option<String>,
        /// Include the seed: a backup for the umpire, never for players.
        #[arg(long, conflicts_with = "side")]
        with_seed: bool,
        /// Output file (standard output when omitted).
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[command(flatten)]
        force: super::output::Force,
    },
    /// Read an exported journal back into a new game file.
    Import {
        /// The JSON-lines file.
        jsonl: PathBuf,
        /// The game file to create.
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// A typed place, read in the game's geometry (the desk reads it the same way).
fn parse_position(game: &Game, text: &str) -> Result<Position> {
    let geometry = game.ruleset().geometry.as_ref().map(|g| g.kind);
    Ok(umpire::game::hex::read_position(text, geometry)?)
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

/// Opens a game: a game file, or a game on a server when `file` is a postgres:// URL.
pub(super) fn open(cli: &Cli, file: &Path) -> Result<(Game, Library)> {
    let lib = library(cli)?;
    super::password::ready(&file.to_string_lossy())?;
    let game = umpire::server::open_at(&file.to_string_lossy(), &lib)
        .map_err(|e| super::with_ruleset_errors(&lib, e))?;
    Ok((game, lib))
}

/// Who acts: on a server that knows its umpires, the login's umpire (`--as` must agree); else
/// the umpire signed in with `--as NAME:ROLE[:TABLE]`, or named with `--by`, or the umpire of a
/// game of their own. `--discretion` is the reason for what rests on Control's discretion.
pub(super) fn actor(cli: &Cli, game: &Game, by: Option<&String>) -> Result<Actor> {
    let claimed = cli
        .sign_in
        .as_deref()
        .map(|who| SignedIn::parse(who).map_err(|e| anyhow!("--as: {e}")))
        .transpose()?;
    let actor = match (game.login(), claimed) {
        (Some(login), claimed) => {
            let who =
                SignedIn::from_login(login).map_err(|e| anyhow!("{}: {e}", game.location()))?;
            if let Some(c) = claimed
                && c != who
            {
                bail!(
                    "--as {}: on a shared game you are who you log in as — {} is {}",
                    c.by(),
                    login.user,
                    who.by()
                );
            }
            who.actor()
        }
        (None, Some(who)) => who.actor(),
        (None, None) => match by {
            Some(b) => Actor::named(b.clone()),
            None => Actor::umpire(),
        },
    };
    Ok(actor.with_reason(cli.discretion.clone()))
}

fn act(cli: &Cli, file: &Path, action: Action) -> Result<()> {
    act_with(cli, file, |_| Ok(action))
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

/// Opens the game, builds the action against it (names settled into ids by [`Names`]) and
/// records it.
fn act_with(cli: &Cli, file: &Path, build: impl FnOnce(&Names) -> Result<Action>) -> Result<()> {
    let (mut game, _) = open(cli, file)?;
    let actor = actor(cli, &game, None)?;
    let action = build(&Names::of(&game))?;
    act_on(&mut game, &actor, action)
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

/// Records an action on an open game and says what was recorded.
pub(super) fn act_on(game: &mut Game, actor: &Actor, action: Action) -> Result<()> {
    let seqs = game.act(actor, action)?;
    print_status_line(game);
    for s in seqs {
        if let Some(e) = game.events().get(s as usize - 1) {
            println!(
                "recorded entry {}: {}",
                e.seq,
                umpire::game::describe::Words::of(game).line(e)
            );
        }
    }
    Ok(())
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
            println!("  {what} {} ({}) {}", i.name, i.position, attrs.join(", "));
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

fn print_status_line(game: &Game) {
    let s = game.status();
    println!(
        "Turn {}/{}{} — {}",
        s.turn,
        s.turns,
        s.date.map_or_else(String::new, |d| format!(" ({d})")),
        s.step.path
    );
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
        let mark = if p.done {
            "✓"
        } else if p.mandatory {
            "!"
        } else {
            "·"
        };
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

/// Runs `game`.
pub fn run(cli: &Cli, command: &GameCommand) -> Result<()> {
    match command {
        GameCommand::New {
            scenario,
            output,
            server,
            seed,
        } => {
            let lib = library(cli)?;
            let source = super::scenario_source(scenario)?;
            let game = match (output, server) {
                (_, Some(url)) => {
                    super::password::ready(url)?;
                    umpire::server::create_at(url, &source, &lib, *seed)
                }
                (Some(path), None) => Game::create(path, &source, &lib, *seed),
                (None, None) => bail!("give the game file to create (-o FILE) or --server URL"),
            }
            .map_err(|e| super::with_ruleset_errors(&lib, e))?;
            println!(
                "created {} — {} ({}); {}",
                game.location(),
                game.scenario().title,
                game.ruleset().name,
                game.seed_statement()
            );
            print_status_line(&game);
            Ok(())
        }
        GameCommand::Publish { file, server } => {
            let (mut game, _) = open(cli, file)?;
            super::password::ready(server)?;
            let at = umpire::server::publish(&mut game, server)?;
            println!(
                "published {} ({} journal entries) to {at}",
                file.display(),
                game.events().len()
            );
            Ok(())
        }
        GameCommand::Status {
            file,
            side: Some(side),
            json,
        } => {
            let (game, _) = open(cli, file)?;
            let side = Names::of(&game).side(side)?;
            side_status(&game, side.as_str(), *json)
        }
        GameCommand::RevealContacts { file } => {
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
        GameCommand::Status {
            file,
            side: None,
            json,
        } => {
            let (game, _) = open(cli, file)?;
            let status = game.status();
            if *json {
                return print_json(&status);
            }
            println!("{} — {}", status.scenario, status.ruleset);
            print_status_line(&game);
            // A megagame's phase clock, once started (`umpire megagame clock` for more).
            if let Some(c) = umpire::megagame::clock::clock_status(
                game.ruleset(),
                game.events(),
                chrono::Utc::now(),
            ) && c.started
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
            if let Some(w) = &status.step.when {
                println!("  (when: {w})");
            }
            for (n, p) in status.pending.iter().enumerate() {
                let mark = if p.done {
                    "✓"
                } else if p.mandatory {
                    "!"
                } else {
                    "·"
                };
                println!("  {mark} {}. {}", n + 1, p.label);
            }
            println!("Counters:");
            let words = umpire::game::describe::Words::of(&game);
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
            println!("Journal: {}", status.head);
            println!("{}", game.seed_statement());
            Ok(())
        }
        GameCommand::Resolve {
            file,
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
            if *json {
                return print_json(resolution);
            }
            for line in umpire::game::describe::Words::of(&game).resolution(resolution, counters) {
                println!("{line}");
            }
            println!("recorded entry {seq}");
            Ok(())
        }
        GameCommand::Move { file, counter, to } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, None)?;
            let to = parse_position(&game, to)?;
            let counter = Names::of(&game).counter(counter)?;
            act_on(&mut game, &actor, Action::Move { counter, to })
        }
        GameCommand::Set {
            file,
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
        GameCommand::Mark {
            file,
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
        GameCommand::Deck(command) => super::deck::run(cli, command),
        GameCommand::Remove {
            file,
            counter,
            reason,
        } => act_with(cli, file, |names| {
            Ok(Action::Remove {
                counter: names.counter(counter)?,
                reason: reason.clone(),
            })
        }),
        GameCommand::Override {
            file,
            entry,
            outcome,
            reason,
        } => act(
            cli,
            file,
            Action::Override {
                of: *entry,
                outcome: outcome.clone(),
                reason: reason.clone(),
            },
        ),
        GameCommand::Next { file } => act(cli, file, Action::Next),
        GameCommand::Back { file } => act(cli, file, Action::Back),
        GameCommand::Skip { file, item, reason } => {
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
        GameCommand::Credit { file, item } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, None)?;
            let item = pending_key(&game, item)?;
            act_on(&mut game, &actor, Action::Credit { item })
        }
        GameCommand::Note { file, text } => act(cli, file, Action::Note { text: text.clone() }),
        GameCommand::Adjust {
            file,
            counter,
            attribute,
            delta,
            reason,
            by,
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, by.as_ref())?;
            let counter = Names::of(&game).ledger_or_counter(counter)?;
            act_on(
                &mut game,
                &actor,
                Action::Adjust {
                    counter,
                    attribute: attribute.clone(),
                    by: *delta,
                    reason: reason.clone(),
                },
            )
        }
        GameCommand::Transfer {
            file,
            from,
            to,
            amount,
            attribute,
            reason,
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, None)?;
            let names = Names::of(&game);
            let from = names.ledger_or_counter(from)?;
            let to = names.ledger_or_counter(to)?;
            act_on(
                &mut game,
                &actor,
                Action::Transfer {
                    from,
                    to,
                    attribute: attribute.clone(),
                    amount: *amount,
                    reason: reason.clone(),
                },
            )
        }
        GameCommand::Ledger {
            file,
            state,
            table,
            team,
            json,
        } => {
            let (game, _) = open(cli, file)?;
            let team = team
                .as_deref()
                .map(|t| super::team_of(&game, t))
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
        GameCommand::Announce {
            file,
            text,
            audience,
            team,
            by,
        } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, by.as_ref())?;
            let team = team
                .as_deref()
                .map(|t| super::team_of(&game, t))
                .transpose()?;
            act_on(
                &mut game,
                &actor,
                Action::Announce {
                    audience: *audience,
                    team,
                    text: text.clone(),
                },
            )
        }
        GameCommand::Undo { file } => act(cli, file, Action::Undo),
        GameCommand::Redo { file } => act(cli, file, Action::Redo),
        GameCommand::Verify { file, head, json } => {
            let (mut game, _) = open(cli, file)?;
            let expected = head
                .as_deref()
                .map(Head::parse)
                .transpose()
                .map_err(|e| anyhow!("--head: {e}"))?;
            let integrity = game.integrity_check()?;
            let verification = game.verify(expected.as_ref())?;
            if *json {
                print_json(&serde_json::json!({
                    "integrity": integrity,
                    "verification": verification,
                }))?;
            } else {
                print_verification(&game.location(), Some(&integrity), &verification);
            }
            if verification.is_sound() && integrity == "ok" {
                return Ok(());
            }
            bail!(
                "{} problem(s) found",
                verification.problems.len() + usize::from(integrity != "ok")
            )
        }
        GameCommand::Reveal { file } => {
            let (mut game, _) = open(cli, file)?;
            let actor = actor(cli, &game, None)?;
            let seqs = game.act(&actor, Action::RevealSeed)?;
            let revealed = seqs
                .first()
                .and_then(|s| game.events().get(*s as usize - 1));
            if let Some(Event {
                kind: umpire::game::EventKind::SeedRevealed { seed, salt },
                seq,
                ..
            }) = revealed
            {
                println!("recorded entry {seq}: the app dice's seed is revealed");
                println!("seed {seed}:{salt}");
                println!(
                    "players check their side's rolls with: umpire game verify-side JOURNAL --seed {seed}:{salt}"
                );
            }
            Ok(())
        }
        GameCommand::VerifySide {
            journal,
            seed,
            head,
            json,
        } => {
            let name = journal.display().to_string();
            let text = std::fs::read_to_string(journal).map_err(|e| anyhow!("{name}: {e}"))?;
            let export = read_export(&name, &text)?;
            let seed = seed.as_deref().map(parse_seed).transpose()?;
            let expected = head
                .as_deref()
                .map(Head::parse)
                .transpose()
                .map_err(|e| anyhow!("--head: {e}"))?;
            let lib = library(cli)?;
            let verification =
                umpire::game::export::verify_export(&export, &lib, seed, expected.as_ref())?;
            if *json {
                print_json(&verification)?;
            } else {
                let side = export.header.side.as_deref().unwrap_or("the whole journal");
                print_verification(&format!("{name} ({side})"), None, &verification);
            }
            if verification.is_sound() {
                return Ok(());
            }
            bail!("{} problem(s) found", verification.problems.len())
        }
        GameCommand::Export {
            file,
            jsonl,
            side,
            with_seed,
            output,
            force,
        } => {
            if !jsonl {
                bail!("give --jsonl (the only export format so far)");
            }
            if let Some(p) = output {
                force.check(p)?;
            }
            let (mut game, _) = open(cli, file)?;
            let side = side
                .as_deref()
                .map(|s| Names::of(&game).side(s))
                .transpose()?;
            let options = ExportOptions {
                side: side.map(String::from),
                with_seed: *with_seed,
            };
            let text = export_text(&mut game, &options)?;
            match output {
                Some(p) => force.write(p, text.as_bytes()),
                None => Ok(std::io::stdout().lock().write_all(text.as_bytes())?),
            }
        }
        GameCommand::Effects { file, entry } => {
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
        GameCommand::Apply {
            file,
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
            let names = Names::of(&game);
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
                let change =
                    umpire::game::effects::strength_loss(game.ruleset(), game.state(), &id, n)
                        .ok_or_else(|| {
                            anyhow!(
                                "--loss {named}={n}: {} has no {} to lose (use `game set`)",
                                game.state().counter_name(id.as_str()),
                                umpire::game::describe::Words::of(&game).attribute(attribute)
                            )
                        })?;
                changes.push(change);
            }
            for (named, status) in pairs(statuses, "--status")? {
                let id = names
                    .counter(&named)
                    .map_err(|e| anyhow!("--status {named}={status}: {e}"))?;
                changes.push(umpire::game::CounterChange::Status {
                    counter: id.into(),
                    status,
                    on: true,
                });
            }
            for named in eliminated {
                let id = names
                    .counter(named)
                    .map_err(|e| anyhow!("--eliminate {named}: {e}"))?;
                changes.push(umpire::game::CounterChange::Remove {
                    counter: id.into(),
                    reason: format!("eliminated (entry {entry})"),
                });
            }
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
        GameCommand::Import { jsonl, output } => {
            let name = jsonl.display().to_string();
            let file = std::fs::File::open(jsonl).map_err(|e| anyhow!("{name}: {e}"))?;
            let size = file.metadata()?.len();
            if size > MAX_IMPORT_BYTES {
                bail!(
                    "{name}: the file is {}; the limit is {}, far more than any game's export",
                    human_size(size),
                    human_size(MAX_IMPORT_BYTES)
                );
            }
            // The read stops at the limit too, should the file grow meanwhile.
            let mut text = String::new();
            file.take(MAX_IMPORT_BYTES)
                .read_to_string(&mut text)
                .map_err(|e| anyhow!("{name}: {e}"))?;
            let export = read_export(&name, &text)?;
            let lib = library(cli)?;
            import(&name, &export, &lib, output)
                .map_err(|e| super::with_ruleset_errors(&lib, e))?;
            let game = Game::open(output, &lib)?;
            println!(
                "imported {} entries into {}{}",
                game.events().len(),
                output.display(),
                if game.meta().seed.is_none() {
                    " (without the seed: app dice are refused in it)"
                } else {
                    ""
                }
            );
            print_status_line(&game);
            Ok(())
        }
    }
}

/// Reads `SEED:SALT` as `game reveal` prints it.
fn parse_seed(text: &str) -> Result<SeedSecret> {
    let (seed, salt) = text
        .trim()
        .split_once(':')
        .ok_or_else(|| anyhow!("--seed: give SEED:SALT as `umpire game reveal` prints it"))?;
    let seed: u64 = seed
        .parse()
        .map_err(|_| anyhow!("--seed: '{seed}' is not a whole number"))?;
    Ok(SeedSecret {
        seed,
        salt: salt.to_string(),
    })
}

/// Prints what verification found, in words.
fn print_verification(location: &str, integrity: Option<&str>, v: &umpire::game::Verification) {
    match integrity {
        Some(integrity) => println!("{location}: store integrity {integrity}; {}", v.head),
        None => println!("{location}: {}", v.head),
    }
    let integrity = integrity.unwrap_or("ok");
    if v.sealed > 0 {
        println!(
            "  {} entries shown, {} sealed (their hashes keep the chain checkable)",
            v.entries - v.sealed,
            v.sealed
        );
    }
    let seed = match v.seed {
        umpire::game::SeedCheck::Checked => {
            format!("{} app dice re-derived from the seed", v.app_dice)
        }
        umpire::game::SeedCheck::Secret => {
            "the seed is still secret: app rolls can be checked once it is revealed".into()
        }
        umpire::game::SeedCheck::Mismatch => "the seed does not match its commitment".into(),
    };
    println!("  {} resolutions re-resolved; {seed}", v.resolutions);
    if v.is_sound() && integrity == "ok" {
        println!(
            "verified: the hash chain is whole from the game's description to entry {}, and every result matches its inputs and dice",
            v.entries
        );
        return;
    }
    if let Some(first) = v.first() {
        eprintln!("FIRST MISMATCH {first}");
    }
    for p in v.problems.iter().skip(1) {
        eprintln!("MISMATCH {p}");
    }
}
