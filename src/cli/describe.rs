//! `umpire describe RULESET [PROCEDURE] [--json]`.

use anyhow::Result;
use clap::Args;
use serde_json::{Value as Json, json};

use super::{Cli, find_procedure, find_ruleset, library, print_json};
use umpire::rules::{AppliesTo, InputKind, ModifierValue, Procedure, Ruleset};

/// Arguments of `describe`.
#[derive(Debug, Args)]
pub struct DescribeArgs {
    /// Ruleset id.
    pub ruleset: String,
    /// One procedure only.
    pub procedure: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Beside each rule reference, where the text extraction has it (its line numbers).
    #[arg(long)]
    pub sources: bool,
}

/// A rule reference in brackets, with the text's lines after it when `sources` is asked for.
fn cite(rule: Option<&String>, source: Option<&String>, sources: bool) -> String {
    match (rule, source.filter(|_| sources)) {
        (Some(r), Some(s)) => format!("  [{r}; text {s}]"),
        (Some(r), None) => format!("  [{r}]"),
        (None, Some(s)) => format!("  [text {s}]"),
        (None, None) => String::new(),
    }
}

fn lookup_kind(p: &Procedure) -> String {
    p.lookup.describe()
}

fn describe(ruleset: &Ruleset, p: &Procedure) -> Json {
    let inputs: Vec<Json> = p
        .inputs
        .iter()
        .map(|i| {
            let mut v = serde_json::to_value(i).unwrap_or(Json::Null);
            if let Json::Object(m) = &mut v {
                m.retain(|_, x| !x.is_null());
            }
            v
        })
        .collect();
    let modifiers: Vec<Json> = p
        .modifiers
        .iter()
        .map(|m| {
            json!({
                "name": m.name,
                "value": match &m.value { ModifierValue::Expr(e) => e.source().to_string(), ModifierValue::Table(t) => format!("table {}", t.table) },
                "when": m.when.as_ref().map(|w| w.source().to_string()),
                "applies_to": m.applies_to,
                "rule": m.rule,
                "source": m.source_lines,
            })
        })
        .collect();
    json!({
        "id": p.id,
        "name": p.name,
        "rule": p.rule,
        "source": p.source_lines,
        "description": p.description,
        "ruling": p.ruling,
        "roll": p.roll.as_ref().map(|r| r.source().to_string()),
        "lookup": lookup_kind(p),
        "deciding": deciding(ruleset, p),
        "inputs": inputs,
        "modifiers": modifiers,
        "outcomes": p.outcomes,
    })
}

/// Runs `describe`.
pub fn run(cli: &Cli, args: &DescribeArgs) -> Result<()> {
    let lib = library(cli)?;
    let ruleset = find_ruleset(&lib, &args.ruleset)?;
    let procedures: Vec<&Procedure> = match &args.procedure {
        Some(id) => vec![find_procedure(ruleset, id)?],
        None => ruleset.procedures.iter().collect(),
    };
    if args.json {
        let list: Vec<Json> = procedures.iter().map(|p| describe(ruleset, p)).collect();
        return print_json(
            &json!({"ruleset": ruleset.id, "name": ruleset.name, "rulings": ruleset.rulings, "procedures": list}),
        );
    }
    println!("{} — {}", ruleset.id, ruleset.name);
    print_rulings(ruleset, args.sources);
    for p in procedures {
        print_procedure(ruleset, p, args.sources);
    }
    Ok(())
}

/// The ruleset's rulings, the one in force in brackets.
fn print_rulings(ruleset: &Ruleset, sources: bool) {
    for r in &ruleset.rulings {
        let options: Vec<String> = r
            .options
            .iter()
            .map(|o| {
                if o.id == r.selected {
                    format!("[{}]", o.id)
                } else {
                    o.id.clone()
                }
            })
            .collect();
        println!(
            "  ruling {}{}: {}  options: {} (switch with --ruling {}=OPTION)",
            r.id,
            cite(r.rule.as_ref(), r.source_lines.as_ref(), sources),
            r.text.trim(),
            options.join(" "),
            r.id
        );
    }
}

/// What decides a procedure, in the words its chart card prints: the target and natural
/// results, how a pool counts hits, how opposed scores compare, the cases (none for a table
/// read with dice: its table decides).
fn deciding(ruleset: &Ruleset, p: &Procedure) -> Vec<String> {
    umpire::rules::spoken::Speaker::new(ruleset, p).deciding()
}

/// One procedure: its dice and lookup, what decides it, inputs, modifiers and outcomes.
fn print_procedure(ruleset: &Ruleset, p: &Procedure, sources: bool) {
    println!();
    println!(
        "{} — {}{}",
        p.id,
        p.name,
        cite(p.rule.as_ref(), p.source_lines.as_ref(), sources)
    );
    if let Some(d) = &p.description {
        println!("  {}", ruleset.in_words(d, None));
    }
    println!(
        "  dice: {}   lookup: {}",
        p.roll.as_ref().map_or_else(
            || if matches!(
                p.lookup,
                umpire::rules::Lookup::Pool { .. } | umpire::rules::Lookup::Opposed { .. }
            ) {
                "from the lookup".to_string()
            } else {
                "none".to_string()
            },
            |r| r.source().to_string()
        ),
        match &p.lookup {
            umpire::rules::Lookup::Table(t) => ruleset
                .table(&t.table)
                .map_or_else(|| lookup_kind(p), |t| format!("the {}", t.title)),
            _ => lookup_kind(p),
        }
    );
    for line in deciding(ruleset, p) {
        println!("  {line}");
    }
    for i in &p.inputs {
        let kind = match &i.kind {
            InputKind::Int { min, max } => format!("int {min}..{max}"),
            InputKind::Choice { choices } => format!("one of {}", choices.join("|")),
            InputKind::Flag => "flag".into(),
        };
        let default = i
            .default
            .as_ref()
            .map_or_else(String::new, |d| format!(" (default {d})"));
        let from = i.from.as_ref().map_or_else(String::new, |f| {
            format!("  [prefilled from {}.{}]", f.role, f.attribute)
        });
        println!(
            "  --input {}=…   {kind}{default}  {}{from}{}",
            i.name,
            i.label,
            cite(i.rule.as_ref(), i.source_lines.as_ref(), sources)
        );
    }
    for m in &p.modifiers {
        // A number as it is; an input's value by its label; anything computed in words
        // (its expression with --sources and in the JSON).
        let v = match &m.value {
            ModifierValue::Expr(e) => {
                let src = e.source().trim();
                if src.parse::<i64>().is_ok() {
                    format!("{:+}", src.parse::<i64>().unwrap_or_default())
                } else if let Some(i) = p.input(src.trim_start_matches('-')) {
                    let sign = if src.starts_with('-') { "minus " } else { "" };
                    format!("{sign}the input \u{201c}{}\u{201d}", i.label)
                } else if sources {
                    format!("computed: {src}")
                } else {
                    "computed".to_string()
                }
            }
            ModifierValue::Table(t) => ruleset.table(&t.table).map_or_else(
                || "from a table".to_string(),
                |t| format!("from the {}", t.title),
            ),
        };
        let target = if m.applies_to == AppliesTo::Roll {
            String::new()
        } else {
            format!(" ({})", m.applies_to.words())
        };
        println!(
            "  modifier {v:>4}{target}  {}{}",
            m.name,
            cite(m.rule.as_ref(), m.source_lines.as_ref(), sources)
        );
    }
    for o in &p.outcomes {
        println!("  outcome {} — {}", o.code, o.label);
    }
}
