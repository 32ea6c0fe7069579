//! Raising an army as one action (rr3 "The Campaign System › Armies" and "› Raising an army",
//! L562–574): a new army counter of the state, with the men raised as its strength, at the
//! place it is raised, and the cost ("Each 5,000 men raised costs 1 florin", L572) taken from
//! the state's treasury — one journal entry, judged by the remits as a counter put on the
//! table (a Map Control raises at its own table as routine work). Raised in a military phase
//! rather than Phase 1, it may not move that phase (L570). "No troops may be recruited in the
//! home areas of other played countries without their permission" (L574): such a place is
//! refused unless the umpire says the permission was given. Disbanding takes the counter off
//! the table (`game remove`); the journal keeps its history.

use crate::game::scenario::{CounterKind, Position};
use crate::game::{Action, CounterChange, Game};

use super::people::{CounterClass, People};

/// An army to raise, as the umpire gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Levy {
    /// The state (its id or name).
    pub state: String,
    /// The army's name (unique in the game).
    pub name: String,
    /// Where it is raised.
    pub at: Position,
    /// Men raised, in 5,000s.
    pub blocks: u32,
    /// The place is another played country's home area, and it gave permission (L574).
    pub permission: bool,
}

/// The rule the raising follows, as the handbook names it.
pub const RAISING: &str = "The Campaign System › Raising an army";

/// The action that raises `levy`'s army, or why it may not be raised.
pub fn raise_action(game: &Game, levy: &Levy) -> Result<Action, String> {
    let people = People::of(game);
    let state = people
        .states
        .iter()
        .find(|s| s.id == levy.state || s.name == levy.state)
        .ok_or_else(|| {
            let names: Vec<&str> = people.states.iter().map(|s| s.name.as_str()).collect();
            format!("no state '{}' — states: {}", levy.state, names.join(", "))
        })?;
    let side = state.teams.first().ok_or_else(|| {
        format!(
            "{} belongs to no team: give it one in the scenario",
            state.name
        )
    })?;
    if levy.blocks == 0 {
        return Err("raise at least 5,000 men (--blocks 1)".into());
    }
    let strength = game.ruleset().strength_attribute.clone().ok_or_else(|| {
        format!(
            "{} names no strength attribute for an army",
            game.ruleset().name
        )
    })?;
    if let Position::Area(place) = &levy.at
        && !levy.permission
    {
        for c in game.state().counters.values() {
            let home = c.attributes.get("home_area") == Some(&crate::rules::Value::Bool(true));
            if c.name != *place || !home || people.class_of(&c.id) != Some(CounterClass::Area) {
                continue;
            }
            let Some(owner) = people.state_of(&c.id).and_then(|o| people.state(o)) else {
                continue;
            };
            if owner.id != state.id && owner.played {
                return Err(format!(
                    "{place} is a home area of {}: no troops may be recruited in the home areas of other played countries without their permission ({RAISING}) — say it was given (--permission)",
                    owner.name
                ));
            }
        }
    }
    let phase_one = super::clock::phase_of_step(game.ruleset(), game.state().cursor.step)
        .is_none_or(|p| p == 0);
    let men = levy.blocks * 5;
    let mut attributes = vec![
        ("unit_kind".to_string(), "army".to_string()),
        ("country".to_string(), state.id.clone()),
        (strength, men.to_string()),
    ];
    if !phase_one {
        attributes.push(("raised_this_phase".into(), "true".into()));
    }
    // Raised at an area the game knows: the army is at that area's map table (its Map Control
    // adds it), not only at its state's.
    if let Position::Area(place) = &levy.at
        && let Some(table) = game
            .state()
            .counters
            .values()
            .filter(|c| c.name == *place && c.removed.is_none())
            .find_map(|c| people.table_of(&c.id))
    {
        attributes.push(("map_table".into(), table.to_string()));
    }
    let florins = levy.blocks;
    Ok(Action::AddWith {
        add: Box::new(Action::AddCounter {
            name: levy.name.trim().to_string(),
            side: side.clone(),
            kind: CounterKind::Unit,
            at: levy.at.clone(),
            attributes,
            force: None,
            note: Some(format!(
                "{} raised {men},000 men for {florins} florin{} ({RAISING}){}",
                state.name,
                if florins == 1 { "" } else { "s" },
                if phase_one {
                    ""
                } else {
                    "; raised in a military phase, it may not move this phase"
                }
            )),
        }),
        changes: vec![CounterChange::Adjust {
            counter: state.counter.clone(),
            attribute: "treasury".into(),
            by: -i64::from(florins),
        }],
    })
}
