//! A game's set-up saved as a scenario file (issue 26, item 5): the organiser builds a set-up
//! the text does not give (a deployment card, a briefing pack) with `game add` or the desk,
//! and saves it as a scenario of the same schema as the shipped ones.
//!
//! The scenario the game began from is kept whole (calendar, sides, schedules, victory, special
//! rules…); what the game has changed is written over it: the counters on the table as Forces
//! (and loose groups) at their places with their attributes now, reinforcements still waiting
//! as they are, and each megagame state's ledger as it stands. The result must load before it
//! is handed back.

use std::collections::BTreeMap;

use yaml_serde::{Mapping, Value as Yaml};

use super::{
    ConditionalReinforcement, CounterKind, CounterSpec, Position, Reinforcement, Scenario,
};
use crate::game::state::{CounterState, GameState, conditional_box, reinforcement_box};
use crate::rules::{AttributeKind, Library, Ruleset, SourceFile, Value};

fn key(k: &str) -> Yaml {
    Yaml::String(k.to_string())
}

/// A position as a scenario file writes it (hex ids stay strings).
fn position_yaml(p: &Position) -> Yaml {
    let mut m = Mapping::new();
    match p {
        Position::Hex(h) => {
            m.insert(key("hex"), Yaml::String(h.clone()));
        }
        Position::Area(a) => {
            m.insert(key("area"), Yaml::String(a.clone()));
        }
        Position::Free { x, y } => {
            m.insert(key("x"), Yaml::Number((*x).into()));
            m.insert(key("y"), Yaml::Number((*y).into()));
        }
        Position::OffMap(o) => {
            m.insert(key("off_map"), Yaml::String(o.clone()));
        }
    }
    Yaml::Mapping(m)
}

/// An attribute's value as a scenario file writes it: a `choices` attribute as a list.
fn value_yaml(ruleset: &Ruleset, kind: CounterKind, name: &str, v: &Value) -> Yaml {
    let specs = match kind {
        CounterKind::Leader => &ruleset.leaders,
        _ => &ruleset.units,
    };
    let choices = specs
        .iter()
        .any(|s| s.name == name && matches!(s.kind, AttributeKind::Choices { .. }));
    match v {
        Value::Int(i) => Yaml::Number((*i).into()),
        Value::Bool(b) => Yaml::Bool(*b),
        Value::Text(t) if choices => Yaml::Sequence(
            t.split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| Yaml::String(p.to_string()))
                .collect(),
        ),
        Value::Text(t) => Yaml::String(t.clone()),
    }
}

/// One counter entry (`id`, `name`, `attributes`, `unknown`, its note), as it stands.
fn counter_yaml(ruleset: &Ruleset, scenario: &Scenario, c: &CounterState) -> Yaml {
    let mut m = Mapping::new();
    m.insert(key("id"), Yaml::String(c.id.clone()));
    m.insert(key("name"), Yaml::String(c.name.clone()));
    let notes: Vec<&str> = scenario
        .counter_notes
        .iter()
        .filter(|n| n.counter == c.id)
        .map(|n| n.text.as_str())
        .collect();
    if !notes.is_empty() {
        m.insert(key("note"), Yaml::String(notes.join("; ")));
    }
    if !c.attributes.is_empty() {
        let attributes: Mapping = c
            .attributes
            .iter()
            .map(|(n, v)| (key(n), value_yaml(ruleset, c.kind, n, v)))
            .collect();
        m.insert(key("attributes"), Yaml::Mapping(attributes));
    }
    if !c.unknown.is_empty() {
        m.insert(
            key("unknown"),
            Yaml::Sequence(c.unknown.iter().map(|u| key(u)).collect()),
        );
    }
    Yaml::Mapping(m)
}

/// A Force (or loose group) of counters at one place.
struct Group<'s> {
    id: String,
    force: Option<&'s str>,
    /// The Force a loose group is the rest of (its counters away from the Force's place).
    part_of: Option<&'s str>,
    side: &'s str,
    army: Option<&'s str>,
    position: Option<&'s Position>,
    counters: Vec<&'s CounterState>,
}

fn group_yaml(ruleset: &Ruleset, scenario: &Scenario, g: &Group<'_>) -> Yaml {
    let mut m = Mapping::new();
    m.insert(key("id"), Yaml::String(g.id.clone()));
    m.insert(key("side"), Yaml::String(g.side.to_string()));
    if let Some(a) = g.army {
        m.insert(key("army"), Yaml::String(a.to_string()));
    }
    if let Some(p) = g.position {
        m.insert(key("position"), position_yaml(p));
    }
    let spec = g
        .force
        .and_then(|f| scenario.forces.iter().find(|s| s.id == f));
    if let Some(spec) = spec {
        // The place as printed only where the Force still is.
        if let Some(place) = spec
            .place
            .as_ref()
            .filter(|_| Some(&spec.position) == g.position)
        {
            m.insert(key("place"), Yaml::String(place.clone()));
        }
        if let Some(order) = &spec.order {
            m.insert(key("order"), Yaml::String(order.clone()));
        }
        if let Some(note) = &spec.note {
            m.insert(key("note"), Yaml::String(note.clone()));
        }
        // Still waiting to be set up: the saved scenario asks for it too.
        if spec.unplaced && Some(&spec.position) == g.position {
            m.insert(key("unplaced"), Yaml::Bool(true));
        }
    }
    if g.force.is_none() {
        m.insert(key("loose"), Yaml::Bool(true));
    }
    for (list, kind) in [
        ("leaders", CounterKind::Leader),
        ("units", CounterKind::Unit),
        ("markers", CounterKind::Marker),
    ] {
        let items: Vec<Yaml> = g
            .counters
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| counter_yaml(ruleset, scenario, c))
            .collect();
        if !items.is_empty() {
            m.insert(key(list), Yaml::Sequence(items));
        }
    }
    Yaml::Mapping(m)
}

/// Groups counters into Forces (one per Force id, at its first counter's place; the rest of
/// it elsewhere becomes a loose group there) and loose groups by side, army and place.
fn groups<'s>(counters: &[&'s CounterState], with_position: bool) -> Vec<Group<'s>> {
    let mut out: Vec<Group<'s>> = Vec::new();
    for c in counters {
        let position = with_position.then_some(&c.position);
        let force = c.force.as_deref();
        let alike = |g: &Group<'_>| {
            g.position == position && g.side == c.side && g.army == c.army.as_deref()
        };
        let found = match force {
            Some(f) => out
                .iter()
                .position(|g| alike(g) && (g.force == Some(f) || g.part_of == Some(f))),
            None => out
                .iter()
                .position(|g| alike(g) && g.force.is_none() && g.part_of.is_none()),
        };
        if let Some(i) = found {
            out[i].counters.push(c);
            continue;
        }
        let taken = force.is_some_and(|f| out.iter().any(|g| g.force == Some(f)));
        let (force, part_of) = if taken { (None, force) } else { (force, None) };
        let n = out.len() + 1;
        out.push(Group {
            id: force.map_or_else(
                || format!("{}-{n}", part_of.unwrap_or("loose")),
                str::to_string,
            ),
            force,
            part_of,
            side: &c.side,
            army: c.army.as_deref(),
            position,
            counters: vec![c],
        });
    }
    out
}

/// Whether any counter of `specs` still waits in `box_label`.
fn waiting(state: &GameState, specs: &[CounterSpec], box_label: &str) -> bool {
    specs.iter().any(|s| {
        state.counters.get(&s.id).is_some_and(|c| {
            c.removed.is_none() && c.position == Position::OffMap(box_label.to_string())
        })
    })
}

/// The counters of an arrival still waiting, as Forces without positions (the entry places
/// them) — a counter with its own off-map place (a breakdown pool) keeps it.
fn arrival_forces(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    specs: &[CounterSpec],
    entry: &Position,
) -> Yaml {
    let counters: Vec<&CounterState> = specs
        .iter()
        .filter_map(|s| state.counters.get(&s.id))
        .filter(|c| c.removed.is_none())
        .collect();
    let mut out = Vec::new();
    let own_place: BTreeMap<&str, &Position> = specs
        .iter()
        .filter(|s| s.position != *entry)
        .map(|s| (s.id.as_str(), &s.position))
        .collect();
    let (elsewhere, at_entry): (Vec<_>, Vec<_>) = counters
        .into_iter()
        .partition(|c| own_place.contains_key(c.id.as_str()));
    for g in groups(&at_entry, false) {
        out.push(group_yaml(ruleset, scenario, &g));
    }
    for c in elsewhere {
        let g = Group {
            id: format!("{}-pool", c.id),
            force: None,
            part_of: None,
            side: &c.side,
            army: c.army.as_deref(),
            position: own_place.get(c.id.as_str()).copied(),
            counters: vec![c],
        };
        out.push(group_yaml(ruleset, scenario, &g));
    }
    Yaml::Sequence(out)
}

fn reinforcement_yaml(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    r: &Reinforcement,
) -> Yaml {
    let mut m = Mapping::new();
    m.insert(key("turn"), Yaml::Number(r.turn.into()));
    m.insert(key("entry"), position_yaml(&r.entry));
    if let Some(n) = &r.note {
        m.insert(key("note"), Yaml::String(n.clone()));
    }
    m.insert(
        key("forces"),
        arrival_forces(ruleset, scenario, state, &r.counters, &r.entry),
    );
    Yaml::Mapping(m)
}

fn conditional_yaml(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    r: &ConditionalReinforcement,
) -> Yaml {
    let mut m = Mapping::new();
    m.insert(key("id"), Yaml::String(r.id.clone()));
    m.insert(key("rule"), Yaml::String(r.rule.clone()));
    m.insert(key("entry"), position_yaml(&r.entry));
    if let Some(n) = &r.note {
        m.insert(key("note"), Yaml::String(n.clone()));
    }
    m.insert(
        key("forces"),
        arrival_forces(ruleset, scenario, state, &r.counters, &r.entry),
    );
    if let Some(b) = &r.brought_by {
        let mut by = Mapping::new();
        by.insert(key("procedure"), Yaml::String(b.procedure.clone()));
        by.insert(
            key("outcomes"),
            Yaml::Sequence(b.outcomes.iter().map(|o| key(o)).collect()),
        );
        if b.after_turns > 0 {
            by.insert(key("after_turns"), Yaml::Number(b.after_turns.into()));
        }
        m.insert(key("brought_by"), Yaml::Mapping(by));
    }
    Yaml::Mapping(m)
}

/// Each megagame state's ledger as it stands (its counter's attributes and unknowns).
fn ledgers(root: &mut Mapping, scenario: &Scenario, state: &GameState, ruleset: &Ruleset) {
    let Some(mega) = &scenario.megagame else {
        return;
    };
    let Some(Yaml::Mapping(section)) = root.get_mut(key("megagame")) else {
        return;
    };
    let Some(Yaml::Sequence(states)) = section.get_mut(key("states")) else {
        return;
    };
    for raw in states.iter_mut() {
        let Yaml::Mapping(raw) = raw else { continue };
        let Some(id) = raw
            .get(key("id"))
            .and_then(Yaml::as_str)
            .map(str::to_string)
        else {
            continue;
        };
        let Some(ledger) = mega
            .states
            .iter()
            .find(|s| s.id == id)
            .and_then(|s| state.counters.get(&s.counter))
        else {
            continue;
        };
        let values: Mapping = ledger
            .attributes
            .iter()
            .map(|(n, v)| (key(n), value_yaml(ruleset, CounterKind::State, n, v)))
            .collect();
        raw.insert(key("ledger"), Yaml::Mapping(values));
        raw.remove(key("unknown"));
        if !ledger.unknown.is_empty() {
            raw.insert(
                key("unknown"),
                Yaml::Sequence(ledger.unknown.iter().map(|u| key(u)).collect()),
            );
        }
    }
}

/// The game's set-up as a scenario file: `original` (the scenario text the game began from)
/// with its counters, reinforcements and ledgers as they stand in `state`. Checked by loading
/// it; refused, with the loader's words, when it would not load.
pub fn save_scenario(
    original: &str,
    scenario: &Scenario,
    state: &GameState,
    ruleset: &Ruleset,
    library: &Library,
) -> Result<String, String> {
    let mut root: Mapping = yaml_serde::from_str(original)
        .map_err(|e| format!("the game's scenario text does not read as YAML: {e}"))?;
    let ledger_counters: Vec<&str> = scenario
        .megagame
        .iter()
        .flat_map(|m| m.states.iter().map(|s| s.counter.as_str()))
        .collect();
    let waiting_reinforcements: Vec<&Reinforcement> = scenario
        .reinforcements
        .iter()
        .filter(|r| waiting(state, &r.counters, &reinforcement_box(r.turn)))
        .collect();
    let waiting_conditional: Vec<&ConditionalReinforcement> = scenario
        .conditional_reinforcements
        .iter()
        .filter(|r| waiting(state, &r.counters, &conditional_box(scenario, r)))
        .collect();
    let still_waiting = |c: &CounterState| {
        waiting_reinforcements
            .iter()
            .any(|r| r.counters.iter().any(|s| s.id == c.id))
            || waiting_conditional
                .iter()
                .any(|r| r.counters.iter().any(|s| s.id == c.id))
    };
    let on_table: Vec<&CounterState> = state
        .counters
        .values()
        .filter(|c| c.removed.is_none())
        .filter(|c| c.kind != CounterKind::State)
        .filter(|c| !ledger_counters.contains(&c.id.as_str()))
        .filter(|c| !still_waiting(c))
        .collect();
    let forces: Vec<Yaml> = groups(&on_table, true)
        .iter()
        .map(|g| group_yaml(ruleset, scenario, g))
        .collect();
    root.insert(key("forces"), Yaml::Sequence(forces));
    let reinforcements: Vec<Yaml> = waiting_reinforcements
        .iter()
        .map(|r| reinforcement_yaml(ruleset, scenario, state, r))
        .collect();
    root.insert(key("reinforcements"), Yaml::Sequence(reinforcements));
    let conditional: Vec<Yaml> = waiting_conditional
        .iter()
        .map(|r| conditional_yaml(ruleset, scenario, state, r))
        .collect();
    root.insert(
        key("conditional_reinforcements"),
        Yaml::Sequence(conditional),
    );
    // The set-up is now given: what the organiser had to add is added.
    root.remove(key("organiser_setup"));
    ledgers(&mut root, scenario, state, ruleset);
    let text = format!(
        "# Saved from a game by `umpire game save-scenario`: {}, as the organiser set it up.\n{}",
        scenario.title,
        yaml_serde::to_string(&Yaml::Mapping(root))
            .map_err(|e| format!("the scenario could not be written: {e}"))?
    );
    let file = SourceFile {
        name: format!("{}.yaml", scenario.id),
        text,
    };
    super::load_scenario(&file, library)
        .map_err(|e| format!("the saved scenario would not load:\n{e}"))?;
    Ok(file.text)
}

/// Writes a saved scenario to `path` whole or not at all (a temporary file beside it, then
/// renamed); an existing file is kept unless `overwrite`.
pub fn write_scenario_file(
    path: &std::path::Path,
    text: &str,
    overwrite: bool,
) -> Result<(), String> {
    if path.exists() && !overwrite {
        return Err(format!(
            "{} already exists — choose another name, or replace it with --force",
            path.display()
        ));
    }
    // A temporary name the next run in the folder recognises, should this one be killed.
    crate::game::output::clear_stale_temps(path);
    let written = crate::game::output::temp_beside(path, "tmp").and_then(|temp| {
        let done = std::fs::write(&temp, text).and_then(|()| std::fs::rename(&temp, path));
        if done.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        done
    });
    if let Err(e) = written {
        return Err(format!("could not write {}: {e}", path.display()));
    }
    Ok(())
}
