//! `counter_values.csv`: the values printed on the counters that the scenario's text does not
//! give (a Troop Quality, a Capitano's Initiative), a row for each name the counters print —
//! what a scenario's `counter_values:` section says, kept in the organiser's spreadsheet.
//!
//! The template has a row for each printed name whose counters have a value the text leaves
//! open, and a column for each such value; a cell left empty stays unknown (the game asks for
//! it when a resolution needs it).

use yaml_serde::{Mapping, Value as Yaml};

use super::ImportProblem;
use super::sheet::{Sheet, header_key};
use super::values::{cell_value, key_of};
use crate::game::scenario::{CounterKind, CounterSpec, Scenario};
use crate::rules::{AttributeSpec, Ruleset, Value};

/// Counters that print one name and still miss values: one row of the sheet, one line of the
/// desk's Counter values window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueGroup {
    /// The name the counters print ("French Gendarmes").
    pub name: String,
    /// Leaders or units (and markers).
    pub leaders: bool,
    /// How many counters print it.
    pub counters: usize,
    /// The attributes some of them do not have yet, in the ruleset's order of first sight.
    pub missing: Vec<String>,
}

/// The groups of counters that miss values, by printed name and kind, in the order first seen.
/// `items` gives each counter's printed name, kind and the attributes it misses.
pub fn value_groups<'a>(
    items: impl IntoIterator<Item = (&'a str, CounterKind, &'a [String])>,
) -> Vec<ValueGroup> {
    let mut out: Vec<ValueGroup> = Vec::new();
    for (name, kind, missing) in items {
        // Markers and ledgers print no ratings.
        if missing.is_empty() || matches!(kind, CounterKind::State | CounterKind::Marker) {
            continue;
        }
        let leaders = kind == CounterKind::Leader;
        let i = match out
            .iter()
            .position(|g| g.leaders == leaders && g.name.eq_ignore_ascii_case(name))
        {
            Some(i) => i,
            None => {
                out.push(ValueGroup {
                    name: name.to_string(),
                    leaders,
                    counters: 0,
                    missing: Vec::new(),
                });
                out.len() - 1
            }
        };
        let g = &mut out[i];
        g.counters += 1;
        for m in missing {
            if !g.missing.contains(m) {
                g.missing.push(m.clone());
            }
        }
    }
    out
}

/// The scenario's groups (at start, arriving, and brought by a result).
fn scenario_groups(scenario: &Scenario) -> Vec<ValueGroup> {
    value_groups(
        scenario
            .all_counters()
            .map(|c| (c.printed.as_str(), c.kind, c.unknown.as_slice())),
    )
}

/// Whether the scenario leaves any counter's value to the counters (the sheet is offered).
pub(super) fn wanted(scenario: &Scenario) -> bool {
    !scenario_groups(scenario).is_empty()
}

/// The value columns: every attribute some counter misses, units' first.
pub(super) fn columns(scenario: &Scenario) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let groups = scenario_groups(scenario);
    for leaders in [false, true] {
        for g in groups.iter().filter(|g| g.leaders == leaders) {
            for m in &g.missing {
                if !out.contains(m) {
                    out.push(m.clone());
                }
            }
        }
    }
    out
}

/// The template's rows: a printed name each, every value empty.
pub(super) fn rows(scenario: &Scenario, header: &[String]) -> Vec<Vec<String>> {
    scenario_groups(scenario)
        .into_iter()
        .map(|g| {
            header
                .iter()
                .map(|h| match h.as_str() {
                    "name" => g.name.clone(),
                    "kind" => if g.leaders { "leader" } else { "unit" }.into(),
                    _ => String::new(),
                })
                .collect()
        })
        .collect()
}

/// The spec of an attribute for leaders or units.
fn spec<'r>(ruleset: &'r Ruleset, leaders: bool, name: &str) -> Option<&'r AttributeSpec> {
    let specs = if leaders {
        &ruleset.leaders
    } else {
        &ruleset.units
    };
    specs.iter().find(|s| s.name == name)
}

/// A value as a counter holds it, to compare a `with` cell against.
fn held(v: &Yaml) -> Option<Value> {
    match v {
        Yaml::Bool(b) => Some(Value::Bool(*b)),
        Yaml::Number(n) => n.as_i64().map(Value::Int),
        Yaml::String(s) => Some(Value::Text(s.clone())),
        _ => None,
    }
}

fn has(c: &CounterSpec, attribute: &str, want: &Yaml) -> bool {
    held(want)
        .zip(c.attributes.get(attribute))
        .is_some_and(|(w, have)| have.holds(&w))
}

/// One row read: its `with` cell as attribute values, or the problems.
fn with_of(
    ruleset: &Ruleset,
    leaders: bool,
    text: &str,
    problem: &dyn Fn(String) -> ImportProblem,
) -> Result<Mapping, Vec<ImportProblem>> {
    let mut out = Mapping::new();
    let mut problems = Vec::new();
    for part in text
        .split([',', ';'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let Some((name, value)) = part.split_once('=') else {
            problems.push(problem(format!(
                "'{part}' is not ATTRIBUTE=VALUE (write e.g. nationality=french)"
            )));
            continue;
        };
        let name = key_of(name);
        let Some(s) = spec(ruleset, leaders, &name) else {
            problems.push(problem(format!(
                "'{name}' is not an attribute of {} in ruleset '{}'",
                if leaders { "leaders" } else { "units" },
                ruleset.id
            )));
            continue;
        };
        match cell_value(s, value) {
            Ok(v) => {
                out.insert(Yaml::String(name), v);
            }
            Err(e) => problems.push(problem(e)),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Reads `counter_values.csv`: each row with a value becomes an entry of the scenario's
/// `counter_values:` (`{name, with, attributes}`); a row with no value is left out (those values
/// stay unknown). A name no counter prints, a `with` no counter of that name has, an attribute
/// its counters do not have or a value of the wrong kind is a problem at its cell.
pub(super) fn read(
    scenario: &Scenario,
    ruleset: &Ruleset,
    sheet: &Sheet,
) -> (Vec<Yaml>, Vec<ImportProblem>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    let fixed = ["name", "kind", "with"];
    for row in &sheet.rows {
        let at = |column: &str, what: String| {
            ImportProblem::at(&sheet.file, Some(row.line), Some(column), what)
        };
        let values: Vec<(usize, &String)> = sheet
            .headers
            .iter()
            .enumerate()
            .filter(|(_, h)| !fixed.contains(&header_key(h).as_str()))
            .filter(|(i, _)| row.cells.get(*i).is_some_and(|c| !c.is_empty()))
            .collect();
        if values.is_empty() {
            continue;
        }
        let Some(name) = sheet.cell(row, "name") else {
            problems.push(at(
                "name",
                "is empty: say which counters the values are printed on".into(),
            ));
            continue;
        };
        let leaders = match sheet.cell(row, "kind").map(key_of).as_deref() {
            None | Some("unit") | Some("marker") => false,
            Some("leader") => true,
            Some(other) => {
                problems.push(at("kind", format!("'{other}' is not unit or leader")));
                continue;
            }
        };
        let named: Vec<&CounterSpec> = scenario
            .all_counters()
            .filter(|c| (c.kind == CounterKind::Leader) == leaders)
            .filter(|c| c.printed.eq_ignore_ascii_case(name) || c.name.eq_ignore_ascii_case(name))
            .collect();
        if named.is_empty() {
            let what = if leaders { "leader" } else { "unit" };
            problems.push(at(
                "name",
                format!("no {what} of {} is named '{name}'", scenario.title),
            ));
            continue;
        }
        let with = match sheet.cell(row, "with") {
            None => Mapping::new(),
            Some(text) => match with_of(ruleset, leaders, text, &|w| at("with", w)) {
                Ok(w) => w,
                Err(p) => {
                    problems.extend(p);
                    continue;
                }
            },
        };
        let matched = named.iter().any(|c| {
            with.iter()
                .all(|(k, v)| k.as_str().is_some_and(|k| has(c, k, v)))
        });
        if !matched {
            problems.push(at(
                "with",
                format!(
                    "no counter named '{name}' has {}",
                    row_cell(sheet, row, "with")
                ),
            ));
            continue;
        }
        let mut attributes = Mapping::new();
        for (i, header) in values {
            let column = header.trim();
            let attribute = header_key(header);
            let Some(s) = spec(ruleset, leaders, &attribute) else {
                problems.push(at(
                    column,
                    format!(
                        "'{attribute}' is not an attribute of {} in ruleset '{}': leave it empty on this row",
                        if leaders { "a leader" } else { "a unit" },
                        ruleset.id
                    ),
                ));
                continue;
            };
            match cell_value(s, &row.cells[i]) {
                Ok(v) => {
                    attributes.insert(Yaml::String(attribute), v);
                }
                Err(e) => problems.push(at(column, e)),
            }
        }
        let mut entry = Mapping::new();
        entry.insert(Yaml::String("name".into()), Yaml::String(name.to_string()));
        if !with.is_empty() {
            entry.insert(Yaml::String("with".into()), Yaml::Mapping(with));
        }
        entry.insert(Yaml::String("attributes".into()), Yaml::Mapping(attributes));
        entries.push(Yaml::Mapping(entry));
    }
    (entries, problems)
}

fn row_cell(sheet: &Sheet, row: &super::Row, column: &str) -> String {
    sheet.cell(row, column).unwrap_or_default().to_string()
}
