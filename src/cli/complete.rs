//! Completion of ids in the shell: scenario, ruleset and procedure ids, through clap_complete's
//! dynamic completion (the shell asks `umpire` itself, with `COMPLETE=SHELL` set).
//!
//! Counter ids are not completed: the completer of one argument is not told the other words
//! already typed (the game file), so it cannot know whose counters to offer.

use clap::Command;
use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};

use umpire::rules::{Library, shipped_ruleset_sources};

/// The shipped scenarios' ids, each with its title as help.
fn scenario_ids() -> Vec<CompletionCandidate> {
    umpire::game::scenario::shipped_scenarios()
        .iter()
        .filter_map(|file| {
            let field = |key: &str| {
                file.text.lines().find_map(|l| {
                    let value = l.strip_prefix(key)?;
                    Some(
                        value
                            .trim()
                            .trim_matches(|c| c == '"' || c == '\'')
                            .to_string(),
                    )
                })
            };
            let id = field("id:")?;
            let candidate = CompletionCandidate::new(id);
            Some(match field("title:") {
                Some(title) => candidate.help(Some(title.into())),
                None => candidate,
            })
        })
        .collect()
}

/// The shipped rulesets, loaded (for their ids and procedures).
fn shipped() -> Library {
    let mut lib = Library::on_demand(shipped_ruleset_sources(), None);
    lib.load_all();
    lib
}

/// The shipped rulesets' ids.
fn ruleset_ids() -> Vec<CompletionCandidate> {
    shipped()
        .ids()
        .into_iter()
        .map(CompletionCandidate::new)
        .collect()
}

/// Every shipped ruleset's procedure ids (the completer is not told which ruleset was typed).
fn procedure_ids() -> Vec<CompletionCandidate> {
    let lib = shipped();
    let mut ids: Vec<String> = lib
        .ids()
        .into_iter()
        .filter_map(|id| lib.get(id))
        .flat_map(|r| r.procedures.iter().map(|p| p.id.clone()))
        .collect();
    ids.sort();
    ids.dedup();
    ids.into_iter().map(CompletionCandidate::new).collect()
}

/// The command line with completers on the arguments that take ids, found by their names
/// (`scenario`, `ruleset`, `procedure`) in every subcommand.
pub fn with_completers(command: Command) -> Command {
    let mut command = command.mut_args(|arg| match arg.get_id().as_str() {
        "scenario" => arg.add(ArgValueCandidates::new(scenario_ids)),
        "ruleset" => arg.add(ArgValueCandidates::new(ruleset_ids)),
        "procedure" => arg.add(ArgValueCandidates::new(procedure_ids)),
        _ => arg,
    });
    let names: Vec<String> = command
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        command = command.mut_subcommand(&name, with_completers);
    }
    command
}

/// `umpire completions SHELL`: the script that registers the dynamic completion (what
/// `COMPLETE=SHELL umpire` prints).
pub fn registration(shell: &str, out: &mut Vec<u8>) -> anyhow::Result<()> {
    let shells = clap_complete::env::Shells::builtins();
    let completer = shells
        .completer(shell)
        .ok_or_else(|| anyhow::anyhow!("no completion for the shell '{shell}'"))?;
    completer.write_registration("COMPLETE", "umpire", "umpire", "umpire", out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    /// What the completion engine offers for the last word of `line`.
    fn offered(line: &str) -> Vec<String> {
        let mut command = super::with_completers(crate::cli::help::command());
        let args: Vec<OsString> = line.split(' ').map(OsString::from).collect();
        let index = args.len() - 1;
        clap_complete::engine::complete(&mut command, args, index, None)
            .expect("completes")
            .into_iter()
            .map(|c| c.get_value().to_string_lossy().to_string())
            .collect()
    }

    #[test]
    fn completes_a_scenario_id() {
        let got = offered("umpire game new ailsh_1_");
        assert!(
            got.contains(&"ailsh_1_venice_at_bay_1509".to_string()),
            "{got:?}"
        );
        assert!(got.iter().all(|id| id.starts_with("ailsh_1_")), "{got:?}");
    }

    #[test]
    fn completes_a_ruleset_id() {
        let got = offered("umpire describe ail");
        assert!(got.contains(&"ailsh".to_string()), "{got:?}");
    }

    #[test]
    fn completes_a_procedure_id() {
        let got = offered("umpire resolve ailsh ass");
        assert!(got.contains(&"assault".to_string()), "{got:?}");
    }
}
