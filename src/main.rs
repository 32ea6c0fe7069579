//! `umpire`: the command line; with no subcommand it opens the desk.

mod cli;

use std::process::ExitCode;

/// A reader that stops reading (`umpire game status … | head`) closes the pipe: Rust ignores
/// SIGPIPE, so the next `println!` panics. End quietly instead, as a Unix filter does; every other
/// panic keeps the default report. (Restoring SIGPIPE's default would need `unsafe` libc calls,
/// which this crate forbids.)
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = cli::parse();
    let result = match &cli.command {
        Some(command) => cli::run(&cli, command),
        // The desk loads the rulesets itself, off the UI thread, while its window opens.
        None => cli::first_game(&cli).and_then(|first| {
            cli::sources(&cli).and_then(|sources| {
                umpire::app::run(
                    umpire::app::RulesSetup::read(&sources, cli::user_dir(&cli)),
                    first,
                )
            })
        }),
    };
    // A game opened for reading only is said once: after a reading command's output, or in the
    // error of a write (which says it already).
    let note = cli::game_read_only_note();
    match result {
        Ok(()) => {
            if let Some(note) = note {
                eprintln!("note: {note}");
            }
            ExitCode::SUCCESS
        }
        // The reader went away (`| head`): not an error of ours.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            let error = format!("{e:#}");
            if let Some(note) = note.filter(|n| !error.contains(n.as_str())) {
                eprintln!("note: {note}");
            }
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
