//! The command line: one file per subcommand, each thin over the engine.

mod complete;
mod describe;
mod game;
mod help;
mod megagame;
mod new_ruleset;
mod odds;
mod output;
mod password;
mod records;
mod referee;
mod report;
mod resolve;
mod roll;
mod rules;
mod scenario;
mod serve;

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::{Args, Parser, Subcommand};

use umpire::rules::layer::default_user_dir;
use umpire::rules::limits::read_text;
use umpire::rules::{
    Library, Procedure, Ruleset, RulesetSource, SourceFile, rules_root_sources,
    shipped_ruleset_sources,
};

/// Umpire: adjudication assistant for human-umpired wargames and megagames.
/// With no command, opens the desk.
#[derive(Debug, Parser)]
#[command(name = "umpire", version = umpire::VERSION, about)]
pub struct Cli {
    /// A game file to open in the desk (what a double-click on a `.umpire` file runs).
    #[arg(value_name = "GAME")]
    pub game: Option<PathBuf>,
    /// Read rulesets from this folder (one sub-folder per ruleset) instead of the shipped ones.
    #[arg(long, global = true, env = "UMPIRE_RULES", value_name = "DIR")]
    pub rules: Option<PathBuf>,
    /// Your transcriptions of missing tables (default: the platform config folder, e.g.
    /// ~/.config/umpire/rules), laid over the shipped tables.
    #[arg(long, global = true, env = "UMPIRE_USER_RULES", value_name = "DIR")]
    pub user_rules: Option<PathBuf>,
    /// Ignore the transcription layer: shipped tables only.
    #[arg(long, global = true)]
    pub no_user_rules: bool,
    /// Sign in as NAME:ROLE[:TABLE] (e.g. Anna:map:east): events record who made them and
    /// actions are held to the Control role's remit. Roles: map (with its table), political,
    /// religious, character, non_played_states, game.
    #[arg(
        long = "as",
        global = true,
        env = "UMPIRE_AS",
        value_name = "NAME:ROLE[:TABLE]"
    )]
    pub sign_in: Option<String>,
    /// The reason for an action that rests on Control's discretion (recorded with it).
    #[arg(long, global = true, value_name = "REASON")]
    pub discretion: Option<String>,
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Roll dice (`d6`, `2d6`, `d10` read 0–9, `d6+2`, `ceil(d6/2)`, `4d6`), or show their odds.
    Roll(roll::RollArgs),
    /// List or check rulesets.
    #[command(subcommand)]
    Rules(rules::RulesCommand),
    /// Describe a ruleset's procedures: inputs, outcomes, rule references.
    Describe(describe::DescribeArgs),
    /// Resolve a procedure with app dice (seeded) or physical dice (--roll).
    Resolve(resolve::ResolveArgs),
    /// Exact odds of each outcome of a procedure, before rolling.
    Odds(odds::OddsArgs),
    /// Game sessions: a scenario on the table, the Sequence of Play and the journal.
    #[command(subcommand)]
    Game(game::GameCommand),
    /// Scenarios: check one, and enter the organiser's starting data once (a spreadsheet's
    /// sheets saved as CSV, from a template of them).
    #[command(subcommand)]
    Scenario(scenario::ScenarioCommand),
    /// Print a ruleset's tables as PDF chart sheets, missing cells as empty boxes.
    Charts(report::ChartsArgs),
    /// Print a scenario's organiser sheet as PDF: sides, set-up, reinforcements, turn track.
    Sheet(report::SheetArgs),
    /// A turn report (or the whole game's) as PDF, for the umpire or one side.
    Report(report::ReportArgs),
    /// Megagame mode: the real-time phase clock, team statements, announcements, Control log.
    #[command(subcommand)]
    Megagame(megagame::MegagameCommand),
    /// The players' view: each side follows the game live on its phones over the LAN
    /// (its side only, a link with a random token per side; a phone writes only its side's sealed orders).
    Serve(serve::ServeArgs),
    /// The Control server's referee: holds every append a desk proposes to the rules of play
    /// before the server stores it (`scripts/control-server.sh start` runs it).
    Referee(referee::RefereeArgs),
    /// Print the script that turns on completion in bash, zsh, fish, elvish or PowerShell
    /// (ids of scenarios, rulesets and procedures too).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Write the manual pages (umpire.1 and one per subcommand) into a folder.
    Manpages {
        /// The folder.
        dir: PathBuf,
    },
}

/// Inputs shared by `resolve` and `odds`.
#[derive(Debug, Args)]
pub struct ProcedureArgs {
    /// Ruleset id (see `umpire rules list`).
    pub ruleset: String,
    /// Procedure id (see `umpire describe RULESET`).
    pub procedure: String,
    /// An input, NAME=VALUE; repeat for each input.
    #[arg(long = "input", short = 'i', value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,
    /// Switch a ruling (a reading of an ambiguous rule), ID=OPTION; see `umpire describe`.
    #[arg(long = "ruling", value_name = "ID=OPTION")]
    pub rulings: Vec<String>,
    /// Print JSON (keys documented in docs/command-line.md, "The JSON contract").
    #[arg(long)]
    pub json: bool,
}

impl ProcedureArgs {
    /// The ruleset with the requested rulings switched.
    pub fn ruleset(&self, lib: &Library) -> Result<Ruleset> {
        let base = find_ruleset(lib, &self.ruleset)?;
        let choices = self
            .rulings
            .iter()
            .map(|s| {
                s.split_once('=')
                    .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                    .ok_or_else(|| anyhow!("--ruling '{s}' is not ID=OPTION"))
            })
            .collect::<Result<Vec<_>>>()?;
        base.with_rulings(&choices).map_err(|e| anyhow!(e))
    }

    /// NAME=VALUE pairs.
    pub fn pairs(&self) -> Result<Vec<(String, String)>> {
        self.inputs
            .iter()
            .map(|s| {
                s.split_once('=')
                    .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
                    .ok_or_else(|| anyhow!("--input '{s}' is not NAME=VALUE"))
            })
            .collect()
    }
}

/// Where the rulesets are: the folders under `--rules DIR` (unread), or the shipped ones.
pub fn sources(cli: &Cli) -> Result<Vec<RulesetSource>> {
    match &cli.rules {
        Some(dir) => rules_root_sources(dir).map_err(|e| anyhow!("{e}")),
        None => Ok(shipped_ruleset_sources()),
    }
}

/// The transcription layer's folder, unless switched off.
pub fn user_dir(cli: &Cli) -> Option<PathBuf> {
    if cli.no_user_rules {
        return None;
    }
    cli.user_rules.clone().or_else(default_user_dir)
}

/// The rulesets the command may use, with the transcription layer, each read and validated only
/// when the command first asks for it: a broken or huge file in another ruleset's folder (shipped,
/// `--rules` or transcription) costs nothing to a command about one ruleset or one game.
pub fn library(cli: &Cli) -> Result<Library> {
    Ok(Library::on_demand(sources(cli)?, user_dir(cli).as_deref()))
}

/// Every ruleset, loaded now (for the commands that list or check them all).
pub fn full_library(cli: &Cli) -> Result<Library> {
    let mut lib = library(cli)?;
    lib.load_all();
    Ok(lib)
}

/// An error about a game or scenario, with the load errors of the rulesets it needed (the
/// engine says only that a ruleset is not loaded).
pub fn with_ruleset_errors(lib: &Library, error: impl Into<anyhow::Error>) -> anyhow::Error {
    let error = error.into();
    let failed = lib.all_failed();
    if failed.is_empty() {
        return error;
    }
    let mut message = format!("{error:#}");
    for (id, errors) in failed {
        message.push_str(&format!("\nruleset '{id}' does not load:\n{errors}"));
    }
    anyhow!(message)
}

/// A scenario to start from: a YAML file, or a shipped scenario by id
/// (`ailsh_1_venice_at_bay_1509`) or by file name (`s1_venice_at_bay_1509`). Shipped scenarios
/// are matched by the id their files declare, so no ruleset is loaded to find one.
pub fn scenario_source(arg: &str) -> Result<SourceFile> {
    let path = std::path::Path::new(arg);
    if path.is_file() {
        return Ok(SourceFile {
            name: path.display().to_string(),
            text: read_text(path).map_err(|e| anyhow!("{e}"))?,
        });
    }
    let shipped = umpire::game::scenario::shipped_scenarios();
    let mut ids = Vec::new();
    for file in &shipped {
        let id = file.text.lines().find_map(|l| {
            let value = l.strip_prefix("id:")?;
            Some(
                value
                    .trim()
                    .trim_matches(|c| c == '"' || c == '\'')
                    .to_string(),
            )
        });
        if path_stem(&file.name) == arg || id.as_deref() == Some(arg) {
            return Ok(file.clone());
        }
        ids.extend(id);
    }
    Err(anyhow!(
        "no scenario '{arg}' — scenarios: {} (or give a YAML file)",
        ids.join(", ")
    ))
}

fn path_stem(name: &str) -> String {
    std::path::Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// Finds a ruleset, listing the valid ids (and load errors) when it is unknown.
pub fn find_ruleset<'a>(lib: &'a Library, id: &str) -> Result<&'a Ruleset> {
    if let Some(r) = lib.get(id) {
        return Ok(r);
    }
    if let Some(errors) = lib.errors(id) {
        return Err(anyhow!("ruleset '{id}' does not load:\n{errors}"));
    }
    Err(anyhow!(
        "unknown ruleset '{id}' — rulesets: {}",
        lib.ids().join(", ")
    ))
}

/// Finds a procedure, listing the valid ids when it is unknown.
pub fn find_procedure<'a>(ruleset: &'a Ruleset, id: &str) -> Result<&'a Procedure> {
    ruleset.procedure(id).ok_or_else(|| {
        anyhow!(
            "unknown procedure '{id}' in {} — procedures: {}",
            ruleset.id,
            ruleset
                .procedures
                .iter()
                .map(|p| p.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// The game a command works on: the game file argument every such command takes.
#[derive(Debug, clap::Args)]
pub struct GameFile {
    /// Game file, or a shared game's server URL (postgres://…?game=NAME).
    pub file: PathBuf,
}

/// The megagame team a person means (a team is a side: its id, name or short name, in any
/// case), refused with the teams listed.
pub fn team_of(game: &umpire::game::Game, named: &str) -> Result<String> {
    let teams = umpire::report::megagame::known_teams(game);
    let list = || {
        teams
            .iter()
            .map(|(id, name)| format!("{name} ({id})"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match umpire::game::side_in(game.scenario(), named) {
        Ok(side) if teams.iter().any(|(id, _)| id == side.as_str()) => Ok(side.into()),
        _ => Err(anyhow::anyhow!(
            "no team '{named}' in {} — teams: {}",
            game.scenario().title,
            list()
        )),
    }
}

/// Prints a value as pretty JSON.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Said on standard error, once per process, when a game file's write has to wait for another
/// process writing it (the wait is bounded: `umpire::game::BUSY_WAIT`).
fn busy_notice(path: &std::path::Path) {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        eprintln!(
            "{}: the game is being written by another process — retrying (for up to {} s)",
            path.display(),
            umpire::game::BUSY_WAIT.as_secs()
        );
    });
}

/// The note that a game the command opened is read-only (said once, when it ends).
pub fn game_read_only_note() -> Option<String> {
    game::read_only_note()
}

/// Runs a subcommand.
pub fn run(cli: &Cli, command: &Command) -> Result<()> {
    umpire::game::on_busy_wait(busy_notice);
    match command {
        Command::Roll(a) => roll::run(cli, a),
        Command::Rules(c) => rules::run(cli, c),
        Command::Describe(a) => describe::run(cli, a),
        Command::Resolve(a) => resolve::run(cli, a),
        Command::Odds(a) => odds::run(cli, a),
        Command::Serve(a) => serve::run(cli, a),
        Command::Referee(a) => referee::run(cli, a),
        Command::Completions { shell } => {
            // Written whole at the end, so a closed pipe is an error of writing, not a panic.
            let mut script = Vec::new();
            complete::registration(&shell.to_string(), &mut script)?;
            std::io::Write::write_all(&mut std::io::stdout(), &script)?;
            Ok(())
        }
        Command::Manpages { dir } => manpages(dir),
        Command::Game(c) => game::run(cli, c),
        Command::Scenario(c) => scenario::run(cli, c),
        Command::Charts(a) => report::charts(cli, a),
        Command::Sheet(a) => report::sheet(cli, a),
        Command::Report(a) => report::report(cli, a),
        Command::Megagame(c) => megagame::run(cli, c),
    }
}

/// Writes `umpire.1` and `umpire-SUBCOMMAND.1` (nested ones too: `umpire-game-deck.1`).
fn manpages(dir: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| anyhow!("{}: {e}", dir.display()))?;
    let mut command = <Cli as clap::CommandFactory>::command();
    // Built first, so each subcommand carries the global options (--rules, --json, --budget…)
    // and its own page lists them too.
    command.build();
    let written = write_pages(dir, command, "umpire")?;
    println!("wrote {written} manual pages to {}", dir.display());
    Ok(())
}

/// Parses the command line, with each command's examples in its help, or answers the shell's
/// completion request (`COMPLETE=bash umpire …`) and exits.
pub fn parse() -> Cli {
    clap_complete::CompleteEnv::with_factory(|| complete::with_completers(help::command()))
        .complete();
    let matches = help::command().get_matches();
    <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Writes `command`'s page as `NAME.1` and its subcommands' pages; a hidden command (one kept
/// for tests or machines) has none.
fn write_pages(dir: &std::path::Path, command: clap::Command, name: &str) -> Result<usize> {
    // The page is named with dashes (umpire-game-deck.1); its synopsis is what is typed.
    let command = command
        .name(name.to_string())
        .bin_name(name.replace('-', " "));
    let out = help::man_page(&command, name)?;
    let path = dir.join(format!("{name}.1"));
    std::fs::write(&path, out).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut written = 1;
    for sub in command.get_subcommands() {
        if sub.get_name() == "help" || sub.is_hide_set() {
            continue;
        }
        written += write_pages(dir, sub.clone(), &format!("{name}-{}", sub.get_name()))?;
    }
    Ok(written)
}

/// `umpire FILE`: the game file to open the desk on, checked before the window opens (a file that
/// is not a game is refused here, naming it).
pub fn first_game(cli: &Cli) -> Result<Option<PathBuf>> {
    let Some(path) = &cli.game else {
        return Ok(None);
    };
    if !path.is_file() {
        return Err(anyhow!("{}: no such file", path.display()));
    }
    if !umpire::game::is_game_file(path) {
        return Err(anyhow!(
            "{}: not an Umpire game file (a game starts with `umpire game new`)",
            path.display()
        ));
    }
    Ok(Some(
        std::path::absolute(path).unwrap_or_else(|_| path.clone()),
    ))
}

#[cfg(test)]
mod pages_tests {
    /// A hidden command gets no manual page and is not offered by completion.
    #[test]
    fn a_hidden_command_has_no_page_and_no_completion() {
        let dir = std::env::temp_dir().join(format!("umpire-hidden-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let command = clap::Command::new("umpire")
            .subcommand(clap::Command::new("shown").about("Shown"))
            .subcommand(clap::Command::new("soak").about("A test's").hide(true));
        let written = super::write_pages(&dir, command.clone(), "umpire").expect("pages");
        assert_eq!(written, 2);
        assert!(dir.join("umpire-shown.1").is_file());
        assert!(!dir.join("umpire-soak.1").exists());
        let mut command = command;
        let offered: Vec<String> = clap_complete::engine::complete(
            &mut command,
            vec!["umpire".into(), String::new().into()],
            1,
            None,
        )
        .expect("completes")
        .into_iter()
        .map(|c| c.get_value().to_string_lossy().to_string())
        .collect();
        assert!(offered.contains(&"shown".to_string()), "{offered:?}");
        assert!(!offered.contains(&"soak".to_string()), "{offered:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
