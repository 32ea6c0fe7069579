//! `umpire game new` and `publish`: where a game is kept (a game file, or a shared game's
//! server).

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Subcommand;

use super::{GameFile, open, print_status_line};
use crate::cli::{Cli, library};
use umpire::game::Game;

/// `game` subcommands: the game's home: a new game, and a game file put on a server.
#[derive(Debug, Subcommand)]
pub enum ShareCommand {
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
        /// Play an optional rule, by its number as the ruleset lists it (`--optional 18.4`);
        /// repeat for each. Its steps then apply in this game.
        #[arg(long = "optional", value_name = "RULE")]
        optional: Vec<String>,
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
