//! `umpire megagame …`: the real-time phase clock and the paper of a megagame (per-team
//! confidential statements, the public announcements sheet, the Control log).

use crate::cli::GameFile;
use std::path::Path;

use anyhow::{Result, anyhow, bail};
use chrono::Utc;
use clap::{Subcommand, ValueEnum};

use super::{Cli, print_json};
use umpire::game::Game;
use umpire::game::event::ClockAction;
use umpire::megagame::clock::{ClockStatus, act_clock, clock_status, default_start, tick};
use umpire::report::Template;
use umpire::report::megagame::{PaperOptions, announcements_pdf, control_log_pdf, statement_pdf};

/// `megagame` subcommands.
#[derive(Debug, Subcommand)]
pub enum MegagameCommand {
    /// The phase clock: its status, or start, hold, resume, advance, set, tick.
    Clock {
        #[command(flatten)]
        game: GameFile,
        /// What to do (the status when omitted). `tick` moves the Sequence of Play to the
        /// clock's phase when time has run out (safe to run from several desks at once).
        action: Option<ClockVerb>,
        /// `start`: the turn (default: the Sequence of Play's).
        #[arg(long)]
        turn: Option<u32>,
        /// `start`: the phase, a Sequence-of-Play step id such as phase_2 (default: the
        /// Sequence of Play's).
        #[arg(long)]
        phase: Option<String>,
        /// `set`: the time left in the phase, as mm:ss or seconds.
        #[arg(long, value_name = "MM:SS")]
        remaining: Option<String>,
        /// Who is at the desk (recorded on the event).
        #[arg(long)]
        by: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// One team's confidential statement for a turn, as PDF: its states' treasuries line by
    /// line, debt, cards, unrest, armies, fleets and characters — nothing of other teams'.
    Statement {
        #[command(flatten)]
        game: GameFile,
        /// The team (a side of the scenario).
        #[arg(long)]
        team: String,
        #[command(flatten)]
        paper: PaperArgs,
    },
    /// The public announcements sheet for a turn, as PDF: announcements made public, and the
    /// public results (battles, deaths, marriages, births, revolts, conversions).
    Announcements {
        #[command(flatten)]
        game: GameFile,
        #[command(flatten)]
        paper: PaperArgs,
    },
    /// Control's records: a chart's order (Prestige, the Heavenly Status Chart), a treaty or
    /// grievance and Control's ruling, a vote of the Diet, a bank's access; `record show`.
    #[command(subcommand)]
    Record(super::records::RecordCommand),
    /// The Control log for the debrief, as PDF: every event with its time, who made it, the
    /// procedure, dice with provenance, result, overrides with reasons.
    Log {
        #[command(flatten)]
        game: GameFile,
        #[command(flatten)]
        paper: PaperArgs,
    },
}

/// What to do to the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClockVerb {
    /// Start (or restart) at a turn and phase, with the phase's full time.
    Start,
    /// Stop the countdown.
    Hold,
    /// Let it run again.
    Resume,
    /// End the phase now; the next one starts with its full time.
    Advance,
    /// Set the time left in the phase (--remaining).
    Set,
    /// Step the Sequence of Play to the clock's phase if time has run out.
    Tick,
}

/// Options shared by the paper commands.
#[derive(Debug, clap::Args)]
pub struct PaperArgs {
    /// One turn (the current one when omitted; the Control log: the whole game).
    #[arg(long)]
    pub turn: Option<u32>,
    #[command(flatten)]
    pub pdf: super::output::PdfOut,
    /// Print JSON ({"output", "bytes", "pages"}).
    #[arg(long)]
    pub json: bool,
}

/// Opens a game (a file, or a postgres:// URL) with the umpire signed in by `--as`, as the
/// `game` commands do.
fn open(cli: &Cli, file: &Path) -> Result<Game> {
    Ok(super::game::open(cli, file)?.0)
}

/// "mm:ss" or seconds.
fn parse_remaining(text: &str) -> Result<u32> {
    let t = text.trim();
    let parsed = match t.split_once(':') {
        Some((m, s)) => m
            .parse::<u32>()
            .ok()
            .zip(s.parse::<u32>().ok().filter(|s| *s < 60))
            .map(|(m, s)| m * 60 + s),
        None => t.parse::<u32>().ok(),
    };
    parsed.ok_or_else(|| anyhow!("--remaining '{t}' is not mm:ss or a number of seconds"))
}

fn print_clock(s: &ClockStatus) {
    if !s.started {
        println!(
            "Clock not started — Turn {}, {} ({} for the phase); start it with `umpire megagame clock FILE start`",
            s.turn,
            s.phase_name,
            s.countdown()
        );
        return;
    }
    if s.finished {
        println!(
            "Clock finished: the last phase of turn {} has run out",
            s.turn
        );
        return;
    }
    let state = if s.held {
        "HELD"
    } else if s.warning {
        "running — ending soon"
    } else {
        "running"
    };
    println!("{}  {}  {state}", s.countdown(), s.headline());
    println!(
        "  {}{}",
        s.phase_name,
        s.scheduled_end
            .as_ref()
            .map_or_else(String::new, |e| format!(" (timetable: ends {e})"))
    );
}

/// Runs `megagame`.
pub fn run(cli: &Cli, command: &MegagameCommand) -> Result<()> {
    match command {
        MegagameCommand::Record(c) => super::records::run(cli, c),
        MegagameCommand::Clock {
            game: GameFile { file },
            action,
            turn,
            phase,
            remaining,
            by,
            json,
        } => {
            let mut game = open(cli, file)?;
            let actor = super::game::actor(cli, &game, by.as_ref())?;
            if game.ruleset().clock().is_none() {
                bail!(
                    "{} has no phase clock: its ruleset ({}) has no timetable with a clock: section",
                    file.display(),
                    game.ruleset().id
                );
            }
            let written = match action {
                None => Vec::new(),
                Some(ClockVerb::Tick) => tick(&mut game, &actor, Utc::now())?,
                Some(verb) => {
                    let clock_action = match verb {
                        ClockVerb::Start => {
                            let Some(ClockAction::Start { turn: t, phase: p }) =
                                default_start(&game)
                            else {
                                bail!("the clock has no turns");
                            };
                            ClockAction::Start {
                                turn: turn.unwrap_or(t),
                                phase: phase.clone().unwrap_or(p),
                            }
                        }
                        ClockVerb::Hold => ClockAction::Hold,
                        ClockVerb::Resume => ClockAction::Resume,
                        ClockVerb::Advance => ClockAction::Advance,
                        ClockVerb::Set => {
                            let Some(r) = remaining else {
                                bail!("`set` needs --remaining MM:SS");
                            };
                            ClockAction::SetRemaining {
                                seconds: parse_remaining(r)?,
                            }
                        }
                        ClockVerb::Tick => unreachable!("handled above"),
                    };
                    act_clock(&mut game, &actor, clock_action)?
                }
            };
            let Some(status) = clock_status(game.ruleset(), game.events(), Utc::now()) else {
                bail!("this game has no phase clock");
            };
            if *json {
                let mut value = serde_json::to_value(&status)?;
                value["countdown"] = status.countdown().into();
                value["recorded"] = serde_json::to_value(&written)?;
                value["cursor"] = serde_json::to_value(&game.state().cursor)?;
                return print_json(&value);
            }
            print_clock(&status);
            for seq in written {
                if let Some(e) = game.events().get(seq as usize - 1) {
                    println!(
                        "recorded entry {}: {}",
                        e.seq,
                        umpire::game::describe::Words::of(&game).line(e)
                    );
                }
            }
            let s = game.status();
            println!("Sequence of Play: turn {}, {}", s.turn, s.step.path);
            Ok(())
        }
        MegagameCommand::Statement {
            game: GameFile { file },
            team,
            paper,
        } => {
            paper.pdf.force.check(&paper.pdf.output)?;
            let game = open(cli, file)?;
            let team = super::team_of(&game, team)?;
            let (options, template) = options(&game, paper)?;
            let bytes = statement_pdf(&game, &team, &options, template)?;
            write(paper, &bytes)
        }
        MegagameCommand::Announcements {
            game: GameFile { file },
            paper,
        } => {
            paper.pdf.force.check(&paper.pdf.output)?;
            let game = open(cli, file)?;
            let (options, template) = options(&game, paper)?;
            let bytes = announcements_pdf(&game, &options, template)?;
            write(paper, &bytes)
        }
        MegagameCommand::Log {
            game: GameFile { file },
            paper,
        } => {
            paper.pdf.force.check(&paper.pdf.output)?;
            let game = open(cli, file)?;
            let (options, template) = options(&game, paper)?;
            let bytes = control_log_pdf(&game, &options, template)?;
            write(paper, &bytes)
        }
    }
}

fn options(game: &Game, args: &PaperArgs) -> Result<(PaperOptions, Template)> {
    if let Some(turn) = args.turn
        && (turn == 0 || turn > game.scenario().turns)
    {
        bail!(
            "turn {turn} is not in the scenario (1 to {})",
            game.scenario().turns
        );
    }
    let mut template = match &args.pdf.template {
        Some(path) => Template::read(path)?,
        None => Template::sheet_default()?,
    };
    if let Some(paper) = args.pdf.paper {
        template.paper = paper;
    }
    Ok((
        PaperOptions {
            turn: args.turn,
            printed_at: chrono::Local::now(),
        },
        template,
    ))
}

fn write(args: &PaperArgs, bytes: &[u8]) -> Result<()> {
    let output = &args.pdf.output;
    args.pdf.force.write(output, bytes)?;
    if args.json {
        return print_json(&serde_json::json!({
            "output": output.display().to_string(),
            "bytes": bytes.len(),
        }));
    }
    println!("wrote {} ({} bytes)", output.display(), bytes.len());
    Ok(())
}
