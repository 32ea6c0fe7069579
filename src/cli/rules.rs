//! `umpire rules list|check`.

use std::path::Path;

use anyhow::{Result, bail};
use clap::Subcommand;
use serde_json::json;

use super::{Cli, library, print_json};
use umpire::rules::{Library, read_ruleset_dir};

/// `rules` subcommands.
#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// List the rulesets.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Validate rulesets: tables complete or not, missing cells, load errors.
    Check {
        /// A ruleset id, or a path to a ruleset folder; all rulesets when omitted.
        ruleset: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs `rules`.
pub fn run(cli: &Cli, command: &RulesCommand) -> Result<()> {
    match command {
        RulesCommand::List { json } => list(&library(&cli.rules)?, *json),
        RulesCommand::Check { ruleset, json } => check(cli, ruleset.as_deref(), *json),
    }
}

fn list(lib: &Library, as_json: bool) -> Result<()> {
    let rows: Vec<_> = lib
        .rulesets
        .iter()
        .map(|r| {
            json!({"id": r.id, "name": r.name, "procedures": r.procedures.len(), "tables": r.tables.len(),
                   "complete_tables": r.tables.values().filter(|t| t.is_complete()).count()})
        })
        .collect();
    if as_json {
        return print_json(&rows);
    }
    for r in &lib.rulesets {
        let complete = r.tables.values().filter(|t| t.is_complete()).count();
        println!("{:<10} {}  ({} procedures, {}/{} tables complete)", r.id, r.name, r.procedures.len(), complete, r.tables.len());
    }
    for (id, errors) in &lib.failed {
        println!("{id:<10} DOES NOT LOAD ({} errors; run `umpire rules check {id}`)", errors.0.len());
    }
    Ok(())
}

fn check(cli: &Cli, which: Option<&str>, as_json: bool) -> Result<()> {
    let lib = match which {
        Some(p) if Path::new(p).join("ruleset.yaml").is_file() => match read_ruleset_dir(Path::new(p)) {
            Ok(files) => Library::load(&[files]),
            Err(e) => Library { rulesets: Vec::new(), failed: vec![(p.to_string(), e)] },
        },
        _ => library(&cli.rules)?,
    };
    let known: Vec<&str> = lib.ids().into_iter().chain(lib.failed.iter().map(|(id, _)| id.as_str())).collect();
    if let Some(id) = which
        && !Path::new(id).join("ruleset.yaml").is_file()
        && !known.contains(&id)
    {
        bail!("unknown ruleset '{id}' — rulesets: {}", known.join(", "));
    }
    let wanted = |id: &str| which.is_none_or(|w| w == id || Path::new(w).join("ruleset.yaml").is_file());
    let mut report = Vec::new();
    for r in lib.rulesets.iter().filter(|r| wanted(&r.id)) {
        let tables: Vec<_> = r
            .tables
            .values()
            .map(|t| json!({"id": t.id, "title": t.title, "complete": t.is_complete(), "missing_cells": t.missing_cells().len()}))
            .collect();
        report.push(json!({"ruleset": r.id, "tables": tables, "errors": []}));
    }
    let mut failed = false;
    for (id, errors) in lib.failed.iter().filter(|(id, _)| wanted(id)) {
        failed = true;
        let errs: Vec<_> = errors
            .0
            .iter()
            .map(|e| json!({"file": e.file, "line": e.line, "column": e.column, "problem": e.problem, "hint": e.hint, "message": e.to_string()}))
            .collect();
        report.push(json!({"ruleset": id, "tables": [], "errors": errs}));
    }
    if as_json {
        print_json(&report)?;
    } else {
        for r in lib.rulesets.iter().filter(|r| wanted(&r.id)) {
            println!("{} — {}", r.id, r.name);
            for t in r.tables.values() {
                let missing = t.missing_cells().len();
                let state = if missing == 0 { "complete".to_string() } else { format!("{missing} cells missing") };
                println!("  {:<28} {state}", t.id);
            }
        }
        for (_, errors) in lib.failed.iter().filter(|(id, _)| wanted(id)) {
            eprintln!("{errors}");
        }
    }
    if failed {
        bail!("some rulesets do not load");
    }
    Ok(())
}
