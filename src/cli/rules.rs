//! `umpire rules list|check|show|orders|template|schema|new`.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;
use serde_json::{Value as Json, json};

use super::{Cli, find_ruleset, full_library, library, print_json, sources, user_dir};
use umpire::rules::chart::render_table;
use umpire::rules::layer::template;
use umpire::rules::{Library, LoadErrors, Ruleset, RulesetSource};
use umpire::schema::{FileKind, schema_text};

/// `rules` subcommands.
#[derive(Debug, Subcommand)]
pub enum RulesCommand {
    /// List the rulesets.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Validate rulesets: complete and incomplete tables, missing cells with and without your
    /// transcriptions, load errors.
    Check {
        /// A ruleset id, or a path to a ruleset folder; all rulesets when omitted.
        ruleset: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print tables the way chart sheets print them, to compare with your own charts.
    Show {
        /// Ruleset id.
        ruleset: String,
        /// One table only.
        table: Option<String>,
        /// Print JSON: each table as transcribed (rows, columns, cells, rules, what is missing),
        /// and the file of your own transcription when one is laid over it.
        #[arg(long)]
        json: bool,
    },
    /// Print the written orders a ruleset declares — at which steps they are due, from whom,
    /// what each holds, what the rules do with a late one, when each is revealed and to whom —
    /// in the game's words.
    Orders {
        /// Ruleset id.
        ruleset: String,
        /// Print JSON (with the ids).
        #[arg(long)]
        json: bool,
    },
    /// Write a commented YAML template for transcribing a table from your own chart sheet.
    Template {
        /// Ruleset id.
        ruleset: String,
        /// Table id (see `umpire rules check RULESET`).
        table: String,
        /// Where to write it (`-` for standard output); default: your transcription folder.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        force: super::output::Force,
    },
    /// Write the YAML files' JSON Schemas (ruleset, table, scenario) and their Markdown
    /// reference, generated from the types the loader reads the files into.
    Schema {
        /// The folder to write ruleset.schema.json, table.schema.json, scenario.schema.json and
        /// schema.md into (created if need be; the four files are replaced).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Start a ruleset of your own: write DIR/NAME/ruleset.yaml, a table (melee_table.yaml) and
    /// a scenario with two Forces (scenarios/first_clash.yaml, given to `game new` as a file),
    /// every field commented, and the three schemas their first lines name beside the folder
    /// (DIR/ruleset.schema.json, table.schema.json, scenario.schema.json) for editor
    /// completion. It is a made-up example game ("My club's game") with one procedure of each
    /// common shape: a threshold test, a table whose column is worked out, a dice pool and an
    /// opposed roll. It loads as written: `umpire --rules DIR rules check NAME`. Refuses an
    /// existing DIR/NAME (nothing is overwritten). See docs/writing-a-ruleset.md.
    New {
        /// The new ruleset's id: lower case letters, digits and _, starting with a letter.
        name: String,
        /// The folder of rulesets to write it into (what `--rules` then names); default: the
        /// `--rules` folder if given, else the current folder.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// Runs `rules`.
pub fn run(cli: &Cli, command: &RulesCommand) -> Result<()> {
    match command {
        RulesCommand::List { json } => list(&full_library(cli)?, *json),
        RulesCommand::Check { ruleset, json } => check(cli, ruleset.as_deref(), *json),
        RulesCommand::Show {
            ruleset,
            table,
            json,
        } => show(cli, ruleset, table.as_deref(), *json),
        RulesCommand::Orders { ruleset, json } => orders(cli, ruleset, *json),
        RulesCommand::Template {
            ruleset,
            table,
            output,
            force,
        } => write_template(cli, ruleset, table, output.as_deref(), *force),
        RulesCommand::Schema { out } => write_schema(out),
        RulesCommand::New { name, dir } => super::new_ruleset::write(
            name,
            &super::new_ruleset::folder(dir.as_deref(), cli.rules.as_deref()),
        ),
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
        println!(
            "{:<10} {}  ({} procedures, {}/{} tables complete)",
            r.id,
            r.name,
            r.procedures.len(),
            complete,
            r.tables.len()
        );
    }
    for (id, errors) in &lib.failed {
        println!(
            "{id:<10} DOES NOT LOAD ({} errors; run `umpire rules check {id}`)",
            errors.0.len()
        );
    }
    Ok(())
}

fn errors_json(errors: &LoadErrors) -> Vec<Json> {
    errors
        .0
        .iter()
        .map(|e| json!({"file": e.file, "line": e.line, "column": e.column, "problem": e.problem, "hint": e.hint, "message": e.to_string()}))
        .collect()
}

fn check(cli: &Cli, which: Option<&str>, as_json: bool) -> Result<()> {
    let as_dir = which.filter(|p| Path::new(p).join("ruleset.yaml").is_file());
    // Shipped (or --rules) alone, and with the transcription layer.
    let srcs = match as_dir {
        Some(p) => vec![RulesetSource::Dir(PathBuf::from(p))],
        None => sources(cli)?,
    };
    let mut bare = Library::on_demand(srcs.clone(), None);
    bare.load_all();
    let mut layered = match (as_dir, user_dir(cli)) {
        (None, Some(dir)) => Library::on_demand(srcs, Some(&dir)),
        _ => Library::on_demand(srcs, None),
    };
    layered.load_all();
    let known: Vec<&str> = bare
        .ids()
        .into_iter()
        .chain(bare.failed.iter().map(|(id, _)| id.as_str()))
        .collect();
    if let Some(id) = which
        && as_dir.is_none()
        && !known.contains(&id)
    {
        bail!("unknown ruleset '{id}' — rulesets: {}", known.join(", "));
    }
    let wanted = |id: &str| as_dir.is_some() || which.is_none_or(|w| w == id);
    let mut report = Vec::new();
    let mut failed = false;
    for r in bare.rulesets.iter().filter(|r| wanted(&r.id)) {
        let with_user = layered.get(&r.id);
        let tables: Vec<_> = r
            .tables
            .values()
            .map(|t| {
                let effective = with_user.and_then(|u| u.table(&t.id)).unwrap_or(t);
                let user = layered.user_table(&r.id, &t.id);
                json!({
                    "id": t.id,
                    "title": t.title,
                    "complete": effective.is_complete(),
                    "missing_cells": effective.missing_cells().len(),
                    "missing_cells_shipped": t.missing_cells().len(),
                    "transcription": user.map(|u| u.path.display().to_string()),
                })
            })
            .collect();
        let errors = layered
            .failed
            .iter()
            .find(|(id, _)| *id == r.id)
            .map(|(_, e)| errors_json(e))
            .unwrap_or_default();
        failed |= !errors.is_empty();
        report.push(json!({"ruleset": r.id, "tables": tables, "errors": errors}));
    }
    for (id, errors) in bare.failed.iter().filter(|(id, _)| wanted(id)) {
        failed = true;
        report.push(json!({"ruleset": id, "tables": [], "errors": errors_json(errors)}));
    }
    if as_json {
        print_json(&report)?;
    } else {
        for entry in &report {
            println!("{}", entry["ruleset"].as_str().unwrap_or_default());
            for t in entry["tables"].as_array().into_iter().flatten() {
                let shipped = t["missing_cells_shipped"].as_u64().unwrap_or(0);
                let now = t["missing_cells"].as_u64().unwrap_or(0);
                let state = match (shipped, now) {
                    (0, _) => "complete".to_string(),
                    (s, 0) => format!("complete with your transcription ({s} cells filled)"),
                    (s, n) if s == n => format!("{n} cells missing"),
                    (s, n) => format!("{n} cells missing ({} filled by your transcription)", s - n),
                };
                println!("  {:<30} {state}", t["id"].as_str().unwrap_or_default());
            }
        }
        let layer_only = layered
            .failed
            .iter()
            .filter(|(id, _)| !bare.failed.iter().any(|(b, _)| b == id));
        for (id, errors) in bare
            .failed
            .iter()
            .chain(layer_only)
            .filter(|(id, _)| wanted(id))
        {
            eprintln!("{id}: does not load:\n{errors}");
        }
    }
    if failed {
        bail!("some rulesets do not load");
    }
    Ok(())
}

fn show(cli: &Cli, ruleset: &str, table: Option<&str>, as_json: bool) -> Result<()> {
    let lib = library(cli)?;
    let r: &Ruleset = find_ruleset(&lib, ruleset)?;
    let tables: Vec<_> = match table {
        Some(id) => vec![r.table(id).ok_or_else(|| {
            anyhow!(
                "unknown table '{id}' in {ruleset} — tables: {}",
                r.tables.keys().cloned().collect::<Vec<_>>().join(", ")
            )
        })?],
        None => r.tables.values().collect(),
    };
    if as_json {
        let rows: Vec<Json> = tables
            .iter()
            .map(|t| {
                json!({
                    "ruleset": r.id,
                    "table": t,
                    "transcription": lib
                        .user_table(ruleset, &t.id)
                        .map(|u| u.path.display().to_string()),
                })
            })
            .collect();
        return print_json(&rows);
    }
    for (i, t) in tables.iter().enumerate() {
        if i > 0 {
            println!();
        }
        if let Some(u) = lib.user_table(ruleset, &t.id) {
            println!("(your transcription: {})", u.path.display());
        }
        print!("{}", render_table(r, t));
    }
    Ok(())
}

fn orders(cli: &Cli, ruleset: &str, as_json: bool) -> Result<()> {
    let lib = library(cli)?;
    let r: &Ruleset = find_ruleset(&lib, ruleset)?;
    if as_json {
        return print_json(&json!({"ruleset": r.id, "orders": r.orders}));
    }
    if r.orders.is_empty() {
        println!("{}: the rules call for no written orders.", r.name);
        return Ok(());
    }
    for (i, o) in r.orders.iter().enumerate() {
        if i > 0 {
            println!();
        }
        for line in r.order_words(o) {
            println!("{line}");
        }
    }
    Ok(())
}

fn write_template(
    cli: &Cli,
    ruleset: &str,
    table: &str,
    output: Option<&Path>,
    force: super::output::Force,
) -> Result<()> {
    let srcs = sources(cli)?;
    let lib = Library::on_demand(srcs.clone(), None);
    let r = find_ruleset(&lib, ruleset)?;
    let t = r.table(table).ok_or_else(|| {
        anyhow!(
            "unknown table '{table}' in {ruleset} — tables: {}",
            r.tables.keys().cloned().collect::<Vec<_>>().join(", ")
        )
    })?;
    let files = srcs
        .iter()
        .find(|f| f.declared_id() == ruleset)
        .ok_or_else(|| anyhow!("no files for ruleset {ruleset}"))?
        .read()
        .map_err(|e| anyhow!("{e}"))?;
    let text = template(&files, ruleset, t).ok_or_else(|| anyhow!("no file for table {table}"))?;
    // In the transcription folder, the table schema the template's first line names
    // (`../table.schema.json`) is written beside the ruleset folders.
    let mut schema_at = None;
    let path = match output {
        Some(p) if p == Path::new("-") => {
            print!("{text}");
            return Ok(());
        }
        Some(p) => p.to_path_buf(),
        None => {
            let dir = user_dir(cli).ok_or_else(|| {
                anyhow!("no transcription folder: give -o FILE or --user-rules DIR")
            })?;
            schema_at = Some(dir.join(FileKind::Table.schema_file()));
            dir.join(ruleset).join(format!("{table}.yaml"))
        }
    };
    if !force.force && !umpire::game::is_game_file(&path) && path.exists() {
        bail!(
            "{} exists — edit it, or pass --force to start again",
            path.display()
        );
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    force.write(&path, text.as_bytes())?;
    println!(
        "wrote {} ({} cells to fill); check it with `umpire rules check {ruleset}`",
        path.display(),
        t.missing_cells().len()
    );
    if let Some(schema) = schema_at {
        std::fs::write(&schema, schema_text(FileKind::Table))
            .map_err(|e| anyhow!("cannot write {}: {e}", schema.display()))?;
        println!("wrote {} (the table schema, for editors)", schema.display());
    }
    Ok(())
}

fn write_schema(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| anyhow!("cannot create {}: {e}", dir.display()))?;
    for (name, text) in umpire::schema::files() {
        let path = dir.join(&name);
        std::fs::write(&path, text).map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
