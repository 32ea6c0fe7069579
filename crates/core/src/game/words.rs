//! Names and values in the game's words, from the scenario and the ruleset alone (no running
//! game): a side by its printed name, a Force by its Capitano, an attribute by its label, a
//! value by its words. The Sequence-of-Play walker and the describer ([`super::describe`]) both
//! use them.

use super::scenario::Scenario;
use crate::rules::model::{choice_words, is_id_like};
use crate::rules::{Ruleset, Value};

/// A procedure's role (the counters a resolution reads: "attacker", rr3's "fleet_a") as the
/// desk labels it: its words, without the underscores of its id ("fleet a"). The rulesets
/// declare no label for a role; this is the one place a role is worded.
pub fn role_words(role: &str) -> String {
    role.replace('_', " ")
}

/// A side (or army) by the short form of its printed name ("French" for "French: the Kingdom
/// of France").
pub fn side_words(scenario: &Scenario, id: &str) -> String {
    let full = scenario
        .sides
        .iter()
        .find(|s| s.id == id)
        .map(|s| s.name.as_str())
        .or_else(|| {
            scenario
                .armies
                .iter()
                .find(|a| a.id == id)
                .map(|a| a.name.as_str())
        });
    match full {
        Some(name) => side_word(name),
        None => capitalised(&choice_words(id)),
    }
}

/// A value of an attribute in words: a choice by its words ("Heavy cavalry", "Primo capitano"),
/// a flag as yes or no, a number as it is.
pub fn attribute_value_words(value: &Value) -> String {
    match value {
        Value::Text(t) => t
            .split(", ")
            .map(|part| {
                if is_id_like(part) {
                    capitalised(&choice_words(part))
                } else {
                    part.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(", "),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        other => other.to_string(),
    }
}

/// A Force by the words of the text: its first Capitano's name, else its place, else its first
/// unit ("Force with Spanish Infantry", a reinforcement the text gives no Capitano); its id in
/// words only when the scenario has none of them.
pub fn force_words(scenario: &Scenario, force: &str) -> String {
    let counters = || {
        scenario
            .counters
            .iter()
            .chain(scenario.reinforcements.iter().flat_map(|r| &r.counters))
            .chain(
                scenario
                    .conditional_reinforcements
                    .iter()
                    .flat_map(|r| &r.counters),
            )
            .filter(|c| c.force.as_deref() == Some(force))
    };
    let leader = counters()
        .find(|c| c.kind == super::scenario::CounterKind::Leader)
        .map(|c| format!("{}'s Force", c.name));
    leader
        .or_else(|| {
            scenario
                .forces
                .iter()
                .find(|f| f.id == force)
                .and_then(|f| f.place.clone())
        })
        .or_else(|| counters().next().map(|c| format!("Force with {}", c.name)))
        .unwrap_or_else(|| capitalised(&choice_words(force)))
}

/// An attribute by its label in the ruleset ("Strength Points").
pub fn attribute_words(ruleset: &Ruleset, name: &str) -> String {
    ruleset
        .units
        .iter()
        .chain(&ruleset.leaders)
        .find(|a| a.name == name)
        .map_or_else(|| choice_words(name), |a| a.label.clone())
}

/// A status marker by its printed name ("Disrupted"), from the ruleset's list of markers.
pub fn status_words(ruleset: &Ruleset, id: &str) -> String {
    ruleset
        .statuses
        .iter()
        .find(|s| s.id == id)
        .map_or_else(|| choice_words(id), |s| s.label.to_lowercase())
}

/// "A", "A and B", "A, B and C".
pub fn and_list(mut items: Vec<String>) -> String {
    match items.len() {
        0 => String::new(),
        1 => items.remove(0),
        _ => {
            let last = items.pop().unwrap_or_default();
            format!("{} and {last}", items.join(", "))
        }
    }
}

/// The first letter in upper case.
pub fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// The name of the place at a position, if the text names one: the map's gazetteer first,
/// then the scenario's (a Force's place at the start, a town held at the start): "Cassano" for
/// hex 2832.
pub fn place_name<'s>(
    scenario: &'s Scenario,
    position: &super::scenario::Position,
) -> Option<&'s str> {
    let gazetteer = match position {
        super::scenario::Position::Hex(hex) => scenario
            .places
            .iter()
            .find(|p| p.hex.as_deref() == Some(hex.as_str()))
            .map(|p| p.name.as_str()),
        _ => None,
    };
    gazetteer.or_else(|| {
        scenario
            .forces
            .iter()
            .find(|f| f.position == *position)
            .and_then(|f| f.place.as_deref())
            .or_else(|| {
                scenario
                    .holdings
                    .iter()
                    .find(|h| h.position == *position)
                    .map(|h| h.place.as_str())
            })
    })
}

/// The short form of a side's printed name: "French" for "French: the Kingdom of France",
/// "Venetian" for "Venetian (with the Dutch allies)".
pub fn side_word(name: &str) -> String {
    let short = name.split(':').next().unwrap_or(name);
    let short = short.split(" (").next().unwrap_or(short);
    short.trim().to_string()
}

/// One counter change in words, the counter already named as the reader may know it:
/// "French Gendarmes (Chaumont): Strength Points (current) 6 → 5", "Chaumont moved from hex
/// 2832 (Cassano) to hex 2833". The describer and a side's summaries both say it so.
pub fn change_words(
    ruleset: &Ruleset,
    scenario: &Scenario,
    name: &str,
    c: &super::event::CounterChange,
) -> String {
    use super::event::CounterChange;
    let position = |p| position_words(scenario, p);
    match c {
        CounterChange::Attribute {
            attribute,
            from,
            to,
            ..
        } => match from {
            Some(f) if f != to => format!(
                "{name}: {} {} → {}",
                attribute_words(ruleset, attribute),
                attribute_value_words(f),
                attribute_value_words(to)
            ),
            _ => format!(
                "{name}: {} {}",
                attribute_words(ruleset, attribute),
                attribute_value_words(to)
            ),
        },
        CounterChange::Status { status, on, .. } => format!(
            "{name} {} {}",
            if *on { "is now" } else { "is no longer" },
            status_words(ruleset, status)
        ),
        CounterChange::Move { from, to, .. } => match from {
            Some(f) => format!("{name} moved from {} to {}", position(f), position(to)),
            None => format!("{name} moved to {}", position(to)),
        },
        CounterChange::Remove { reason, .. } => format!("{name} taken off the table ({reason})"),
        CounterChange::Add {
            at,
            side,
            name: added,
            ..
        } => format!(
            "{added} ({}) put on the table at {}",
            side_words(scenario, side),
            position(at)
        ),
        CounterChange::Adjust { attribute, by, .. } => {
            format!("{name}: {} {by:+}", attribute_words(ruleset, attribute))
        }
    }
}

/// A position with the name of its place where the scenario gives one: "hex 2832 (Cassano)".
pub fn position_words(scenario: &Scenario, p: &super::scenario::Position) -> String {
    match place_name(scenario, p) {
        Some(place) => format!("{p} ({place})"),
        None => p.to_string(),
    }
}
