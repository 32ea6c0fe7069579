//! `umpire`: the command line; with no subcommand it opens the desk.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let result = match &cli.command {
        Some(command) => cli::run(&cli, command),
        None => cli::library(&cli).and_then(umpire::app::run),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
