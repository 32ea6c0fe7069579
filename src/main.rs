//! `umpire`: the command line; with no subcommand it opens the desk.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let result = match &cli.command {
        Some(command) => cli::run(&cli, command),
        // The desk loads the rulesets itself, off the UI thread, while its window opens.
        None => cli::sources(&cli).and_then(|sources| {
            umpire::app::run(umpire::app::RulesSetup {
                sources,
                user_dir: cli::user_dir(&cli),
            })
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
