//! The sheets to fill in for a scenario: header rows, the rows the text gives (its states and
//! characters, with any value the scenario already has) and every other cell empty; and the
//! columns documented from the ruleset's own declarations (label, help, range, rule).

use super::counter_values;
use super::kinds::{SheetKind, kinds_for};
use super::values::kind_words;
use crate::game::scenario::{CounterKind, CounterSpec, Scenario};
use crate::rules::{Ruleset, Value};

fn cell(v: Option<&Value>) -> String {
    match v {
        Some(Value::Int(i)) => i.to_string(),
        Some(Value::Bool(b)) => if *b { "yes" } else { "no" }.into(),
        Some(Value::Text(t)) => t.clone(),
        None => String::new(),
    }
}

fn csv_text(rows: &[Vec<String>]) -> String {
    let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
    for r in rows {
        // Writing to memory does not fail.
        let _ = w.write_record(r);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

fn header(kind: SheetKind, scenario: &Scenario, ruleset: &Ruleset) -> Vec<String> {
    let mut h: Vec<String> = kind.fixed().iter().map(|f| f.name.to_string()).collect();
    h.extend(value_columns(kind, scenario, ruleset));
    h
}

/// The attribute columns of a sheet: `counter_values.csv`'s are the values the scenario
/// leaves to the counters.
fn value_columns(kind: SheetKind, scenario: &Scenario, ruleset: &Ruleset) -> Vec<String> {
    if kind == SheetKind::CounterValues {
        counter_values::columns(scenario)
    } else {
        kind.attribute_columns(ruleset)
    }
}

/// The rows the text gives for a sheet: the states (and their cards) and the characters.
fn rows(kind: SheetKind, scenario: &Scenario, columns: &[String]) -> Vec<Vec<String>> {
    if kind == SheetKind::CounterValues {
        return counter_values::rows(scenario, columns);
    }
    let Some(mega) = &scenario.megagame else {
        return Vec::new();
    };
    let ledger = |counter: &str| scenario.counters.iter().find(|c| c.id == counter);
    let attr = |c: Option<&CounterSpec>, name: &str| cell(c.and_then(|c| c.attributes.get(name)));
    match kind {
        SheetKind::States | SheetKind::Cards => mega
            .states
            .iter()
            .map(|s| {
                let l = ledger(&s.counter);
                columns
                    .iter()
                    .map(|c| match c.as_str() {
                        "id" | "state" => s.id.clone(),
                        "name" => s.name.clone(),
                        "teams" => s.teams.join(", "),
                        "table" => s.table.clone().unwrap_or_default(),
                        "played" => if s.played { "yes" } else { "no" }.into(),
                        "note" => String::new(),
                        other => attr(l, other),
                    })
                    .collect()
            })
            .collect(),
        SheetKind::Characters => scenario
            .counters
            .iter()
            .filter(|c| c.kind == CounterKind::Leader)
            .map(|ch| {
                let seat = mega
                    .players
                    .iter()
                    .find(|p| p.characters.contains(&ch.id))
                    .map(|p| p.name.clone())
                    .filter(|n| !n.starts_with("Player of "));
                columns
                    .iter()
                    .map(|c| match c.as_str() {
                        "id" => ch.id.clone(),
                        "name" => ch.name.clone(),
                        "player" => seat.clone().unwrap_or_default(),
                        other => attr(Some(ch), other),
                    })
                    .collect()
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The template's files for a scenario: each sheet's file name and CSV text.
pub fn template_files(scenario: &Scenario, ruleset: &Ruleset) -> Vec<(String, String)> {
    kinds_for(scenario, ruleset)
        .into_iter()
        .map(|kind| {
            let columns = header(kind, scenario, ruleset);
            let mut all = vec![columns.clone()];
            all.extend(rows(kind, scenario, &columns));
            (kind.file().to_string(), csv_text(&all))
        })
        .collect()
}

fn md(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The sheets' columns documented (Markdown): what each holds, its unit or values, and the
/// rule it comes from, from the ruleset's declarations.
pub fn template_readme(scenario: &Scenario, ruleset: &Ruleset) -> String {
    let mut out = format!(
        "## {} — the sheets\n\nRuleset: {} ({}). Line references (L…) are lines of the \
         ruleset's source text.\n",
        scenario.title, ruleset.name, ruleset.id
    );
    for kind in kinds_for(scenario, ruleset) {
        out.push_str(&format!(
            "\n### {}\n\n| Column | What it holds | Unit or values | Rule |\n|---|---|---|---|\n",
            kind.file()
        ));
        for f in kind.fixed() {
            let req = if f.required { " Required." } else { "" };
            out.push_str(&format!(
                "| `{}` | {}{req} | — | — |\n",
                f.name,
                md(f.meaning)
            ));
        }
        for name in value_columns(kind, scenario, ruleset) {
            let real = match name.as_str() {
                "type" if kind == SheetKind::Counters => {
                    ruleset.type_attribute.clone().unwrap_or_default()
                }
                "strength" if kind == SheetKind::Counters => {
                    ruleset.strength_attribute.clone().unwrap_or_default()
                }
                _ => name.clone(),
            };
            let specs: Vec<&crate::rules::AttributeSpec> = if kind == SheetKind::CounterValues {
                ruleset.units.iter().chain(&ruleset.leaders).collect()
            } else {
                kind.specs(ruleset).iter().collect()
            };
            let Some(spec) = specs.into_iter().find(|s| s.name == real) else {
                continue;
            };
            let help = spec
                .help
                .as_deref()
                .map_or_else(String::new, |h| format!(" {h}"));
            let rule = match (&spec.rule, &spec.source_lines) {
                (Some(r), Some(l)) => format!("{r} ({l})"),
                (Some(r), None) => r.clone(),
                (None, Some(l)) => l.clone(),
                (None, None) => "—".into(),
            };
            out.push_str(&format!(
                "| `{name}` | {}.{} | {} | {} |\n",
                md(&spec.label),
                md(&help),
                md(&kind_words(spec)),
                md(&rule)
            ));
        }
    }
    out
}
