//! Completion of ids in the shell: scenario, ruleset, procedure and counter ids, through
//! clap_complete's dynamic completion (the shell asks `umpire` itself, with `COMPLETE=SHELL` set,
//! and the words typed so far after `--`).
//!
//! clap_complete tells an argument's completer only the word being completed, not the others, so
//! the words already typed are read from the request itself (`umpire -- umpire game move FILE …`):
//! the procedures offered are the ruleset's typed before them, and the counters the game file's.

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

/// The words of the command line being completed: what follows `--` in this request.
fn typed_words() -> Vec<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--")
        .map(|at| args[at + 1..].to_vec())
        .unwrap_or_default()
}

fn procedure_ids() -> Vec<CompletionCandidate> {
    procedure_ids_for(&typed_words())
}

/// The procedure ids of the ruleset typed among `words` (each with its name as help), or of every
/// shipped ruleset when none is.
fn procedure_ids_for(words: &[String]) -> Vec<CompletionCandidate> {
    let lib = shipped();
    let typed: Vec<&str> = lib
        .ids()
        .into_iter()
        .filter(|id| words.iter().any(|w| w == id))
        .collect();
    let rulesets = if typed.is_empty() { lib.ids() } else { typed };
    let mut ids: Vec<(String, String)> = rulesets
        .into_iter()
        .filter_map(|id| lib.get(id))
        .flat_map(|r| r.procedures.iter().map(|p| (p.id.clone(), p.name.clone())))
        .collect();
    ids.sort();
    ids.dedup_by(|a, b| a.0 == b.0);
    ids.into_iter()
        .map(|(id, name)| CompletionCandidate::new(id).help(Some(name.into())))
        .collect()
}

fn counter_ids() -> Vec<CompletionCandidate> {
    counter_ids_for(&typed_words())
}

/// The counters of the game file typed among `words` (the first word that names one), by id with
/// the counter's name as help; none when no game file is typed yet.
fn counter_ids_for(words: &[String]) -> Vec<CompletionCandidate> {
    let Some(file) = words
        .iter()
        .map(std::path::Path::new)
        .find(|p| p.is_file() && umpire::game::is_game_file(p))
    else {
        return Vec::new();
    };
    let lib = Library::on_demand(shipped_ruleset_sources(), None);
    let Ok(game) = umpire::game::Game::open(file, &lib) else {
        return Vec::new();
    };
    let mut counters: Vec<(String, String)> = game
        .state()
        .counters
        .values()
        .filter(|c| c.removed.is_none())
        .map(|c| (c.id.clone(), c.name.clone()))
        .collect();
    counters.sort();
    counters
        .into_iter()
        .map(|(id, name)| CompletionCandidate::new(id).help(Some(name.into())))
        .collect()
}

/// The command line with completers on the arguments that take ids, found by their names
/// (`scenario`, `ruleset`, `procedure`) in every subcommand.
pub fn with_completers(command: Command) -> Command {
    let mut command = command.mut_args(|arg| match arg.get_id().as_str() {
        "scenario" => arg.add(ArgValueCandidates::new(scenario_ids)),
        "ruleset" => arg.add(ArgValueCandidates::new(ruleset_ids)),
        "procedure" => arg.add(ArgValueCandidates::new(procedure_ids)),
        "counter" | "army" => arg.add(ArgValueCandidates::new(counter_ids)),
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
    fn offers_the_procedures_of_the_ruleset_typed() {
        let words = |line: &str| line.split(' ').map(str::to_string).collect::<Vec<_>>();
        let ids = |got: Vec<clap_complete::engine::CompletionCandidate>| {
            got.into_iter()
                .map(|c| c.get_value().to_string_lossy().to_string())
                .collect::<Vec<_>>()
        };
        let qrs = ids(super::procedure_ids_for(&words("umpire resolve qrs ")));
        assert!(qrs.contains(&"discipline_test".to_string()), "{qrs:?}");
        assert!(!qrs.contains(&"assault".to_string()), "only qrs's: {qrs:?}");
        let all = ids(super::procedure_ids_for(&words("umpire resolve ")));
        assert!(
            all.contains(&"assault".to_string()) && all.contains(&"discipline_test".to_string())
        );
        // No game file typed: no counters to offer.
        assert!(super::counter_ids_for(&words("umpire game move nothing.umpire ")).is_empty());
    }

    #[test]
    fn completes_a_procedure_id() {
        let got = offered("umpire resolve ailsh ass");
        assert!(got.contains(&"assault".to_string()), "{got:?}");
    }
}
