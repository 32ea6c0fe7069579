//! `umpire game new`, `save-scenario` and `publish`: where a game is kept (a game file, or a
//! shared game's server), and a game's set-up saved as a scenario.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Subcommand;

use super::{GameFile, open, print_status_line};
use crate::cli::{Cli, library};
use umpire::game::Game;

/// `game` subcommands: the game's home: a new game, and a game file put on a server.
#[derive(Debug, Subcommand)]
pub enum ShareCommand {
    /// Start a new game file from a scenario (an id such as `ailsh_1_venice_at_bay_1509`, or a YAML file).
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
        /// Play an optional rule, by its number as the ruleset lists it (`--optional 18.4`);
        /// repeat for each. Its steps then apply in this game.
        #[arg(long = "optional", value_name = "RULE")]
        optional: Vec<String>,
    },
    /// Save the game's set-up as a scenario file (the organiser's deployment where the text
    /// gives none): the counters as they stand, with the scenario's calendar, sides, schedules
    /// and victory. It loads like a shipped scenario: `umpire game new FILE -o game.umpire`.
    SaveScenario {
        #[command(flatten)]
        game: GameFile,
        /// The scenario file to write (YAML).
        #[arg(short, long)]
        output: PathBuf,
        /// Replace the file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Put a game file on a PostgreSQL server (journal and all) for several desks to share.
    Publish {
        #[command(flatten)]
        game: GameFile,
        /// postgres://user@host/database?game=NAME — the name must not be in use there.
        #[arg(long, value_name = "URL")]
        server: String,
    },
}

/// Runs one of them.
pub fn run(cli: &Cli, command: &ShareCommand) -> Result<()> {
    match command {
        ShareCommand::New {
            scenario,
            output,
            server,
            seed,
            optional,
        } => {
            let lib = library(cli)?;
            let source = crate::cli::scenario_source(scenario)?;
            let game = match (output, server) {
                (_, Some(url)) => {
                    crate::cli::password::ready(url)?;
                    umpire::server::create_at_playing(url, &source, &lib, *seed, optional)
                }
                (Some(path), None) => Game::create_playing(path, &source, &lib, *seed, optional),
                (None, None) => bail!("give the game file to create (-o FILE) or --server URL"),
            }
            .map_err(|e| crate::cli::with_ruleset_errors(&lib, e))?;
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
        ShareCommand::SaveScenario {
            game: GameFile { file },
            output,
            force,
        } => {
            let (game, lib) = open(cli, file)?;
            let text = umpire::game::scenario::save::save_scenario(
                &game.meta().scenario_text,
                game.scenario(),
                game.state(),
                game.ruleset(),
                &lib,
            )
            .map_err(anyhow::Error::msg)?;
            umpire::game::scenario::save::write_scenario_file(output, &text, *force)
                .map_err(anyhow::Error::msg)?;
            println!(
                "saved {} — {} as it stands, {} counters; start a game from it with `umpire game new {} -o GAME`",
                output.display(),
                game.scenario().title,
                game.state()
                    .counters
                    .values()
                    .filter(|c| c.removed.is_none())
                    .count(),
                output.display()
            );
            Ok(())
        }
        ShareCommand::Publish {
            game: GameFile { file },
            server,
        } => {
            let (mut game, _) = open(cli, file)?;
            crate::cli::password::ready(server)?;
            let at = umpire::server::publish(&mut game, server)?;
            println!(
                "published {} ({} journal entries) to {at}",
                file.display(),
                game.events().len()
            );
            Ok(())
        }
    }
}
