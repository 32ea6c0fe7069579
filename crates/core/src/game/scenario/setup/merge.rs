//! The sheets' changes written into the scenario's text: each state's ledger (the values given
//! are no longer unknown), the characters' attributes and players, and the new pieces as loose
//! groups at their places.

use yaml_serde::{Mapping, Value as Yaml};

use super::ImportProblem;
use super::edits::{CharacterEdit, NewCounter, StateEdit};

fn key(k: &str) -> Yaml {
    Yaml::String(k.to_string())
}

fn text(s: &str) -> Yaml {
    Yaml::String(s.to_string())
}

/// The sequence under `name` in `map`, made if missing.
fn seq<'m>(map: &'m mut Mapping, name: &str) -> &'m mut Vec<Yaml> {
    if !matches!(map.get(key(name)), Some(Yaml::Sequence(_))) {
        map.insert(key(name), Yaml::Sequence(Vec::new()));
    }
    match map.get_mut(key(name)) {
        Some(Yaml::Sequence(s)) => s,
        _ => unreachable!("inserted above"),
    }
}

/// The mapping under `name` in `map`, made if missing.
fn mapping<'m>(map: &'m mut Mapping, name: &str) -> &'m mut Mapping {
    if !matches!(map.get(key(name)), Some(Yaml::Mapping(_))) {
        map.insert(key(name), Yaml::Mapping(Mapping::new()));
    }
    match map.get_mut(key(name)) {
        Some(Yaml::Mapping(m)) => m,
        _ => unreachable!("inserted above"),
    }
}

fn id_of(entry: &Yaml) -> Option<&str> {
    entry.get("id").and_then(Yaml::as_str)
}

/// Drops from an entry's `unknown` list the attributes now given (the list goes when empty).
fn known_now(entry: &mut Mapping, given: &Mapping) {
    let Some(Yaml::Sequence(unknown)) = entry.get_mut(key("unknown")) else {
        return;
    };
    unknown.retain(|u| !given.contains_key(u));
    if unknown.is_empty() {
        entry.remove(key("unknown"));
    }
}

fn apply_states(root: &mut Mapping, edits: &[(String, StateEdit)]) {
    if edits.is_empty() {
        return;
    }
    let states = seq(mapping(root, "megagame"), "states");
    for (id, edit) in edits {
        let i = match states.iter().position(|s| id_of(s) == Some(id)) {
            Some(i) => i,
            None => {
                let mut m = Mapping::new();
                m.insert(key("id"), text(id));
                states.push(Yaml::Mapping(m));
                states.len() - 1
            }
        };
        let Yaml::Mapping(entry) = &mut states[i] else {
            continue;
        };
        if let Some(n) = &edit.name {
            entry.insert(key("name"), text(n));
        }
        if let Some(t) = &edit.teams {
            entry.insert(
                key("teams"),
                Yaml::Sequence(t.iter().map(|t| text(t)).collect()),
            );
        }
        if let Some(t) = &edit.table {
            entry.insert(key("table"), text(t));
        }
        if let Some(p) = edit.played {
            entry.insert(key("played"), Yaml::Bool(p));
        } else if edit.new && edit.teams.as_ref().is_none_or(Vec::is_empty) {
            entry.insert(key("played"), Yaml::Bool(false));
        }
        if let Some(n) = &edit.note {
            entry.insert(key("note"), text(n));
        }
        if !edit.ledger.is_empty() {
            mapping(entry, "ledger").extend(edit.ledger.clone());
            known_now(entry, &edit.ledger);
        }
    }
}

fn apply_characters(root: &mut Mapping, edits: &[CharacterEdit]) -> Vec<ImportProblem> {
    let mut problems = Vec::new();
    for edit in edits {
        let mut found = false;
        for force in seq(root, "forces").iter_mut() {
            let Some(Yaml::Sequence(leaders)) = force.get_mut("leaders") else {
                continue;
            };
            for leader in leaders.iter_mut() {
                let Yaml::Mapping(entry) = leader else {
                    continue;
                };
                if entry.get(key("id")).and_then(Yaml::as_str) != Some(edit.id.as_str()) {
                    continue;
                }
                found = true;
                if let Some(n) = &edit.name {
                    entry.insert(key("name"), text(n));
                }
                if !edit.attributes.is_empty() {
                    mapping(entry, "attributes").extend(edit.attributes.clone());
                    known_now(entry, &edit.attributes);
                }
            }
        }
        if !found {
            problems.push(ImportProblem::at(
                &edit.at.0,
                Some(edit.at.1),
                Some("id"),
                format!("'{}' is not written with its id in the scenario file: set this character at the desk", edit.id),
            ));
        }
        if let Some(person) = &edit.player {
            let Some(Yaml::Mapping(mega)) = root.get_mut(key("megagame")) else {
                continue;
            };
            let players = seq(mega, "players");
            let seat = players.iter_mut().find(|p| {
                p.get("characters")
                    .and_then(Yaml::as_sequence)
                    .is_some_and(|c| c.iter().any(|c| c.as_str() == Some(edit.id.as_str())))
            });
            match seat {
                Some(Yaml::Mapping(p)) => {
                    p.insert(key("name"), text(person));
                }
                _ => {
                    let mut p = Mapping::new();
                    p.insert(key("id"), text(&format!("player-{}", edit.id)));
                    p.insert(key("name"), text(person));
                    p.insert(key("characters"), Yaml::Sequence(vec![text(&edit.id)]));
                    players.push(Yaml::Mapping(p));
                }
            }
        }
    }
    problems
}

/// The new pieces as loose groups, one a side and place (`setup-1`, `setup-2`…).
fn apply_counters(root: &mut Mapping, counters: &[NewCounter]) {
    let forces = seq(root, "forces");
    let taken: Vec<String> = forces
        .iter()
        .filter_map(id_of)
        .map(str::to_string)
        .collect();
    let mut n = 0;
    let mut groups: Vec<(String, Yaml, Mapping)> = Vec::new();
    for c in counters {
        let mut entry = Mapping::new();
        entry.insert(key("id"), text(&c.id));
        entry.insert(key("name"), text(&c.name));
        if let Some(note) = &c.note {
            entry.insert(key("note"), text(note));
        }
        if !c.attributes.is_empty() {
            entry.insert(key("attributes"), Yaml::Mapping(c.attributes.clone()));
        }
        let i = match groups
            .iter()
            .position(|(s, p, _)| *s == c.side && *p == c.position)
        {
            Some(i) => i,
            None => {
                let id = loop {
                    n += 1;
                    let id = format!("setup-{n}");
                    if !taken.contains(&id) && !counters.iter().any(|c| c.id == id) {
                        break id;
                    }
                };
                let mut g = Mapping::new();
                g.insert(key("id"), text(&id));
                g.insert(key("side"), text(&c.side));
                g.insert(key("loose"), Yaml::Bool(true));
                g.insert(key("position"), c.position.clone());
                groups.push((c.side.clone(), c.position.clone(), g));
                groups.len() - 1
            }
        };
        seq(&mut groups[i].2, c.list).push(Yaml::Mapping(entry));
    }
    forces.extend(groups.into_iter().map(|(_, _, g)| Yaml::Mapping(g)));
}

/// Writes the changes into the scenario's root mapping.
pub(super) fn apply(
    root: &mut Mapping,
    states: &[(String, StateEdit)],
    characters: &[CharacterEdit],
    counters: &[NewCounter],
) -> Result<(), Vec<ImportProblem>> {
    apply_states(root, states);
    let problems = apply_characters(root, characters);
    if !problems.is_empty() {
        return Err(problems);
    }
    apply_counters(root, counters);
    // The set-up is now given: what the organiser had to add is added (as `game
    // save-scenario` does).
    if !counters.is_empty() || states.iter().any(|(_, e)| !e.ledger.is_empty()) {
        root.remove(key("organiser_setup"));
    }
    Ok(())
}

/// `counter_values.csv`'s entries, before the scenario's own: the organiser's sheet is the
/// newer word on what the counters print.
pub(super) fn apply_values(root: &mut Mapping, entries: Vec<Yaml>) {
    if entries.is_empty() {
        return;
    }
    let list = seq(root, "counter_values");
    let old = std::mem::take(list);
    list.extend(entries);
    list.extend(old);
}
