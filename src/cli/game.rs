//! `umpire game …`: game sessions on a game file.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;

use super::{Cli, library, print_json};
use umpire::dice::AppDice;
use umpire::game::scenario::Position;
use umpire::game::{Action, Event, Game, GameFile, GameMeta};
use umpire::resolve::describe_effect;
use umpire::rules::{Library, SourceFile};

/// `game` subcommands.
#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Start a new game file from a scenario (an id such as `venice_at_bay`, or a YAML file).
    New {
        /// Scenario id or file.
        scenario: String,
        /// The game file to create.
        #[arg(short, long)]
        output: PathBuf,
        /// Seed for the app dice (a fresh one when omitted).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Turn, date, step, pending items and counters.
    Status {
        /// Game file.
        file: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Resolve a procedure and record it.
    Resolve {
        /// Game file.
        file: PathBuf,
        /// Procedure id.
        procedure: String,
        /// An input, NAME=VALUE.
        #[arg(long = "input", short = 'i', value_name = "NAME=VALUE")]
        inputs: Vec<String>,
        /// Physical dice, one face per die.
        #[arg(long = "roll", num_args = 1.., value_name = "FACE")]
        roll: Vec<String>,
        /// The result read off the physical chart, for a cell the text does not give.
        #[arg(long, value_name = "CODE")]
        chart_result: Option<String>,
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
        /// Game file.
        file: PathBuf,
        /// Counter id.
        counter: String,
        /// Where to.
        to: String,
    },
    /// Set a counter's attribute (strength, a rating…).
    Set {
        /// Game file.
        file: PathBuf,
        /// Counter id.
        counter: String,
        /// Attribute.
        attribute: String,
        /// Value.
        value: String,
    },
    /// Set (or clear) a status marker on a counter.
    Mark {
        /// Game file.
        file: PathBuf,
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
        /// Game file.
        file: PathBuf,
        /// Counter id.
        counter: String,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// Show the changes proposed for the effects of a resolution.
    Effects {
        /// Game file.
        file: PathBuf,
        /// The journal entry of the resolution.
        entry: u64,
    },
    /// Apply the effects of a resolution: the proposed changes, and your choices where the rules
    /// leave one (which units absorb losses…).
    Apply {
        /// Game file.
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
        /// Game file.
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
        /// Game file.
        file: PathBuf,
    },
    /// Step the Sequence of Play back.
    Back {
        /// Game file.
        file: PathBuf,
    },
    /// Skip a pending item (its key from `status`), with a reason.
    Skip {
        /// Game file.
        file: PathBuf,
        /// Item key.
        item: String,
        /// Why.
        #[arg(long)]
        reason: String,
    },
    /// Add a note to the journal.
    Note {
        /// Game file.
        file: PathBuf,
        /// Text.
        text: String,
    },
    /// Undo the last action (it stays in the journal, marked undone).
    Undo {
        /// Game file.
        file: PathBuf,
    },
    /// Redo the last undone action.
    Redo {
        /// Game file.
        file: PathBuf,
    },
    /// Re-derive every app roll from the seed and draw index, and every result from its inputs.
    Verify {
        /// Game file.
        file: PathBuf,
    },
    /// Write the journal as JSON lines (the first line describes the game).
    Export {
        /// Game file.
        file: PathBuf,
        /// One JSON event per line.
        #[arg(long)]
        jsonl: bool,
        /// Output file (standard output when omitted).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Testing aid: performs N actions (notes, app-dice resolutions, moves, undos), printing
    /// `ack N` after each commit (used by the crash tests).
    #[command(hide = true)]
    Soak {
        /// Game file.
        file: PathBuf,
        /// How many actions.
        #[arg(long, default_value_t = 1000)]
        actions: u64,
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

fn parse_position(text: &str) -> Position {
    let t = text.trim();
    if let Some((x, y)) = t.split_once(',')
        && let (Ok(x), Ok(y)) = (x.trim().parse::<f64>(), y.trim().parse::<f64>())
    {
        return Position::Free { x, y };
    }
    if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) {
        return Position::Hex(t.to_string());
    }
    Position::Area(t.to_string())
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

fn open(cli: &Cli, file: &Path) -> Result<(Game, Library)> {
    let lib = library(cli)?;
    let game = Game::open(file, &lib)?;
    Ok((game, lib))
}

fn act(cli: &Cli, file: &Path, action: Action) -> Result<()> {
    let (mut game, _) = open(cli, file)?;
    act_on(&mut game, action)
}

/// Records an action on an open game and says what was recorded.
fn act_on(game: &mut Game, action: Action) -> Result<()> {
    let seqs = game.act(action)?;
    print_status_line(game);
    for s in seqs {
        if let Some(e) = game.events().get(s as usize - 1) {
            println!(
                "recorded entry {}: {}",
                e.seq,
                e.kind.name().replace('_', " ")
            );
        }
    }
    Ok(())
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

/// Runs `game`.
pub fn run(cli: &Cli, command: &GameCommand) -> Result<()> {
    match command {
        GameCommand::New {
            scenario,
            output,
            seed,
        } => {
            let lib = library(cli)?;
            let source = super::scenario_source(&lib, scenario)?;
            let seed = seed.unwrap_or_else(AppDice::fresh_seed);
            let game = Game::create(output, &source, &lib, seed)?;
            println!(
                "created {} — {} ({}), seed {seed}",
                output.display(),
                game.scenario().title,
                game.ruleset().name
            );
            print_status_line(&game);
            Ok(())
        }
        GameCommand::Status { file, json } => {
            let (game, _) = open(cli, file)?;
            let status = game.status();
            if *json {
                return print_json(&status);
            }
            println!("{} — {}", status.scenario, status.ruleset);
            print_status_line(&game);
            if let Some(w) = &status.step.when {
                println!("  (when: {w})");
            }
            for p in &status.pending {
                let mark = if p.done {
                    "✓"
                } else if p.mandatory {
                    "!"
                } else {
                    "·"
                };
                println!("  {mark} {}   [{}]", p.label, p.key);
            }
            println!("Counters:");
            for c in &status.counters {
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
                let strength = game
                    .ruleset()
                    .strength_attribute
                    .as_ref()
                    .and_then(|a| c.attributes.get(a).map(|v| format!(" {a}={v}")))
                    .unwrap_or_default();
                println!(
                    "  {:<28} {:<10} {}{strength}{statuses}{gone}",
                    c.id, c.side, c.position
                );
            }
            println!("{} journal entries", status.events);
            Ok(())
        }
        GameCommand::Resolve {
            file,
            procedure,
            inputs,
            roll,
            chart_result,
            counters,
            by,
            json,
        } => {
            let (mut game, _) = open(cli, file)?;
            game.by = by.clone();
            let mut roles: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for (role, id) in pairs(counters, "--counter")? {
                roles.entry(role).or_default().push(id);
            }
            let action = Action::Resolve {
                procedure: procedure.clone(),
                inputs: pairs(inputs, "--input")?,
                physical: (!roll.is_empty()).then(|| roll.clone()),
                chart_result: chart_result.clone(),
                counters: roles,
            };
            let seqs = game.act(action)?;
            let Some(Event {
                kind: umpire::game::EventKind::Resolved { resolution, .. },
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
            for line in &resolution.explanation {
                println!("{line}");
            }
            println!("recorded entry {seq}");
            for e in &resolution.outcome.effects {
                println!("  effect: {}", describe_effect(e));
            }
            Ok(())
        }
        GameCommand::Move { file, counter, to } => act(
            cli,
            file,
            Action::Move {
                counter: counter.clone(),
                to: parse_position(to),
            },
        ),
        GameCommand::Set {
            file,
            counter,
            attribute,
            value,
        } => act(
            cli,
            file,
            Action::SetAttribute {
                counter: counter.clone(),
                attribute: attribute.clone(),
                value: value.clone(),
            },
        ),
        GameCommand::Mark {
            file,
            counter,
            status,
            clear,
        } => act(
            cli,
            file,
            Action::SetStatus {
                counter: counter.clone(),
                status: status.clone(),
                on: !clear,
            },
        ),
        GameCommand::Remove {
            file,
            counter,
            reason,
        } => act(
            cli,
            file,
            Action::Remove {
                counter: counter.clone(),
                reason: reason.clone(),
            },
        ),
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
        GameCommand::Skip { file, item, reason } => act(
            cli,
            file,
            Action::Skip {
                item: item.clone(),
                reason: reason.clone(),
            },
        ),
        GameCommand::Note { file, text } => act(cli, file, Action::Note { text: text.clone() }),
        GameCommand::Undo { file } => act(cli, file, Action::Undo),
        GameCommand::Redo { file } => act(cli, file, Action::Redo),
        GameCommand::Verify { file } => {
            let (game, _) = open(cli, file)?;
            let integrity = game.file().integrity_check()?;
            let problems = game.verify();
            let rolls = game
                .events()
                .iter()
                .filter(|e| matches!(e.kind, umpire::game::EventKind::Resolved { .. }))
                .count();
            println!(
                "{}: SQLite integrity {integrity}; {} journal entries, {rolls} resolutions re-derived",
                file.display(),
                game.events().len()
            );
            if problems.is_empty() && integrity == "ok" {
                println!(
                    "verified: every app roll matches its seed and draw index, and every result its inputs and dice"
                );
                return Ok(());
            }
            for p in &problems {
                eprintln!("MISMATCH {p}");
            }
            bail!(
                "{} problems found",
                problems.len() + usize::from(integrity != "ok")
            )
        }
        GameCommand::Export {
            file,
            jsonl,
            output,
        } => {
            if !jsonl {
                bail!("give --jsonl (the only export format so far)");
            }
            let (game, _) = open(cli, file)?;
            let mut out: Box<dyn Write> = match output {
                Some(p) => Box::new(std::fs::File::create(p)?),
                None => Box::new(std::io::stdout().lock()),
            };
            writeln!(
                out,
                "{}",
                serde_json::json!({"type": "umpire_game", "meta": game.meta()})
            )?;
            for e in game.events() {
                writeln!(out, "{}", serde_json::to_string(e)?)?;
            }
            Ok(())
        }
        GameCommand::Soak { file, actions } => soak(cli, file, *actions),
        GameCommand::Effects { file, entry } => {
            let (game, _) = open(cli, file)?;
            for p in game.proposals(*entry)? {
                let what = describe_effect(&p.effect);
                match (&p.change, &p.choice) {
                    (Some(c), _) => println!("  {what}: proposed {}", serde_json::to_string(c)?),
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
            for (id, n) in pairs(losses, "--loss")? {
                let n: i64 = n
                    .parse()
                    .map_err(|_| anyhow!("--loss {id}={n}: the loss is a whole number"))?;
                let change =
                    umpire::game::effects::strength_loss(game.ruleset(), game.state(), &id, n)
                        .ok_or_else(|| {
                            anyhow!("this ruleset names no strength attribute: use `game set`")
                        })?;
                changes.push(change);
            }
            for (id, status) in pairs(statuses, "--status")? {
                changes.push(umpire::game::CounterChange::Status {
                    counter: id,
                    status,
                    on: true,
                });
            }
            for id in eliminated {
                changes.push(umpire::game::CounterChange::Remove {
                    counter: id.clone(),
                    reason: format!("eliminated (entry {entry})"),
                });
            }
            if changes.is_empty() {
                bail!(
                    "nothing to apply: give --proposed and/or --loss, --status, --eliminate (see `umpire game effects`)"
                );
            }
            act_on(
                &mut game,
                Action::ApplyEffects {
                    of: *entry,
                    changes,
                },
            )
        }
        GameCommand::Import { jsonl, output } => {
            let reader = std::io::BufReader::new(std::fs::File::open(jsonl)?);
            let mut lines = reader.lines();
            let first = lines
                .next()
                .ok_or_else(|| anyhow!("{}: empty file", jsonl.display()))??;
            let header: serde_json::Value =
                serde_json::from_str(&first).map_err(|e| anyhow!("{}:1: {e}", jsonl.display()))?;
            let meta: GameMeta = serde_json::from_value(header["meta"].clone())
                .map_err(|e| anyhow!("{}:1: not an Umpire export: {e}", jsonl.display()))?;
            let mut events = Vec::new();
            for (i, line) in lines.enumerate() {
                let line = line?;
                if line.trim().is_empty() {
                    continue;
                }
                let e: Event = serde_json::from_str(&line)
                    .map_err(|err| anyhow!("{}:{}: {err}", jsonl.display(), i + 2))?;
                events.push(e);
            }
            let lib = library(cli)?;
            // Check everything before writing anything.
            let scenario = umpire::game::scenario::load_scenario(
                &SourceFile {
                    name: meta.scenario_file.clone(),
                    text: meta.scenario_text.clone(),
                },
                &lib,
            )
            .map_err(|e| anyhow!("{e}"))?;
            umpire::game::state::replay(&scenario, &events)
                .map_err(|e| anyhow!("{}: {e}", jsonl.display()))?;
            let file = GameFile::create(output, meta)?;
            for e in &events {
                file.append(e)?;
            }
            drop(file);
            let game = Game::open(output, &lib)?;
            println!(
                "imported {} entries into {}",
                game.events().len(),
                output.display()
            );
            print_status_line(&game);
            Ok(())
        }
    }
}

/// Performs `actions` actions, acknowledging each commit on standard output.
fn soak(cli: &Cli, file: &Path, actions: u64) -> Result<()> {
    let (mut game, _) = open(cli, file)?;
    // A procedure that resolves on its defaults, and a counter on the table.
    let procedure =
        game.ruleset()
            .procedures
            .iter()
            .find(|p| {
                p.inputs.iter().all(|i| {
                    i.default.is_some() || matches!(i.kind, umpire::rules::InputKind::Flag)
                }) && p.roll.is_some()
            })
            .map(|p| p.id.clone());
    let counter = game.state().counters.keys().next().cloned();
    let mut out = std::io::stdout().lock();
    for i in 0..actions {
        let action = match (i % 5, &procedure, &counter) {
            (1, Some(p), _) => Action::Resolve {
                procedure: p.clone(),
                inputs: Vec::new(),
                physical: None,
                chart_result: None,
                counters: BTreeMap::new(),
            },
            (2, _, Some(c)) => Action::Move {
                counter: c.clone(),
                to: match game.ruleset().geometry.as_ref().map(|g| g.kind) {
                    Some(umpire::rules::GeometryKind::Hex) => {
                        Position::Hex(format!("{:04}", 101 + i % 50))
                    }
                    Some(umpire::rules::GeometryKind::Area) => {
                        Position::Area(format!("area {}", i % 7))
                    }
                    _ => Position::Free {
                        x: (i % 40) as f64,
                        y: (i % 13) as f64,
                    },
                },
            },
            (4, _, _) if i % 3 == 0 => Action::Undo,
            _ => Action::Note {
                text: format!("soak {i}"),
            },
        };
        match game.act(action) {
            Ok(seqs) => {
                for s in seqs {
                    writeln!(out, "ack {s}")?;
                }
                out.flush()?;
            }
            Err(umpire::game::GameError::Refused(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}
