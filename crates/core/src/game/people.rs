//! People and roles of a megagame: map tables, the Control team, players, characters, teams and
//! states — many-to-many (rr3 L51–53) — and each Control role's remit (L177–206).
//!
//! The static structure comes from the scenario's `megagame:` section
//! ([`crate::game::scenario::MegagameSpec`]); what changes in play is read from the game state,
//! so a [`People`] is a snapshot: build it again after an action ([`People::of`]). Live links:
//!
//! - a character's teams are its side, its `team` attribute (a `choices` list, e.g.
//!   `team: [england, papacy]`, stored as "england, papacy") and the section's extra links;
//! - a character's player is its `player` attribute when it has one (a player who dies takes
//!   over the heir, L439: `umpire game set FILE heir player NAME`), else the section's list;
//! - a counter's state is its `country` (armies, fleets) or `owner` (cities, areas) attribute,
//!   or its army field, when that names a state; the character links give characters' states;
//! - a counter's table is its `map_table` attribute, else its state's table.
//!
//! It lives in `game`, not `megagame`, because what a side may see (`game::visibility`: an rr3
//! team sees its own states' ledgers and characters) needs a team's counters, and `game` imports
//! nothing from `megagame`; `megagame::people` is this module.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::game::Game;
use crate::game::scenario::{
    CounterKind, MapTableSpec, MegagameSpec, Scenario, StateSpec, UmpireSpec,
};
use crate::game::state::{CounterState, GameState};
use crate::rules::{RemitAnswer, RemitQuestion, Remits, Value};

pub use crate::game::scenario::ControlRole;

/// Whether a Control role may touch a counter or ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Remit {
    /// Its own business.
    Own,
    /// Not its own, but the handbook has it help or co-ordinate (incomes in Phase 1, L206; map
    /// and political umpires co-ordinating, L188; deaths of players, L674): allowed, at Control's
    /// discretion.
    ControlDiscretion,
    /// Another role's business (or another table's).
    Outside,
}

/// A remit answer with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RemitCheck {
    /// The answer.
    pub remit: Remit,
    /// The rule lines it rests on.
    pub rule: String,
    /// Why, in words.
    pub why: String,
}

/// What kind of thing a counter is, for remits and ledgers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CounterClass {
    /// A state's ledger (treasury, debt, unrest, cards).
    Ledger,
    /// An army.
    Army,
    /// A fleet.
    Fleet,
    /// A city (fortification, garrison, siege state).
    City,
    /// A map area (religion, minority, revolt, ownership).
    Area,
    /// A character (a leader counter).
    Character,
    /// Anything else (a marker).
    Other,
}

impl CounterClass {
    /// The kind's name in a ruleset's `remits:` (`ledger`, `army`…).
    pub fn id(self) -> &'static str {
        match self {
            CounterClass::Ledger => "ledger",
            CounterClass::Army => "army",
            CounterClass::Fleet => "fleet",
            CounterClass::City => "city",
            CounterClass::Area => "area",
            CounterClass::Character => "character",
            CounterClass::Other => "other",
        }
    }
}

/// The class of a counter: its kind, then its `unit_kind` attribute (army, fleet, city, area,
/// state).
pub fn counter_class(c: &CounterState) -> CounterClass {
    match c.kind {
        CounterKind::State => CounterClass::Ledger,
        CounterKind::Leader => CounterClass::Character,
        CounterKind::Unit | CounterKind::Marker => match text(c, "unit_kind") {
            Some("army") => CounterClass::Army,
            Some("fleet") => CounterClass::Fleet,
            Some("city") => CounterClass::City,
            Some("area") => CounterClass::Area,
            Some("state") => CounterClass::Ledger,
            _ if c.kind == CounterKind::Unit => CounterClass::Army,
            _ => CounterClass::Other,
        },
    }
}

fn text<'c>(c: &'c CounterState, attribute: &str) -> Option<&'c str> {
    match c.attributes.get(attribute) {
        Some(Value::Text(t)) if !t.trim().is_empty() => Some(t.as_str()),
        _ => None,
    }
}

/// One umpire.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Umpire {
    /// Name.
    pub name: String,
    /// Role.
    pub role: ControlRole,
    /// Table, for Map Control (or where the umpire sits).
    pub table: Option<String>,
}

/// One player and the characters they play now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Player {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Characters played now.
    pub characters: Vec<String>,
}

/// A team (a scenario side) with its states and members.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Team {
    /// Id (the side's id).
    pub id: String,
    /// Name.
    pub name: String,
    /// States it plays.
    pub states: Vec<String>,
    /// Characters belonging to it (by side, `team` attribute or link).
    pub characters: Vec<String>,
}

/// The people and roles of a game, as they stand.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct People {
    /// The map tables.
    pub tables: Vec<MapTableSpec>,
    /// The Control team.
    pub umpires: Vec<Umpire>,
    /// The players.
    pub players: Vec<Player>,
    /// The teams.
    pub teams: Vec<Team>,
    /// The states.
    pub states: Vec<StateSpec>,
    /// Character → teams.
    character_teams: BTreeMap<String, BTreeSet<String>>,
    /// Character → states.
    character_states: BTreeMap<String, BTreeSet<String>>,
    /// Counter → state.
    counter_state: BTreeMap<String, String>,
    /// Counter → table.
    counter_table: BTreeMap<String, String>,
    /// Counter → class.
    classes: BTreeMap<String, CounterClass>,
    /// Non-played characters (`played: false`).
    non_played_characters: BTreeSet<String>,
    /// The ruleset's remits (`remits:`), if it declares them.
    #[serde(skip)]
    remits: Option<std::sync::Arc<Remits>>,
}

impl People {
    /// The people of a game as it stands now.
    pub fn of(game: &Game) -> People {
        People::new(game.scenario(), game.state())
    }

    /// The people of a scenario, with the live links read from `state`. A scenario without a
    /// `megagame:` section has its sides as teams and no tables, umpires, players or states.
    pub fn new(scenario: &Scenario, state: &GameState) -> People {
        let mega = scenario.megagame.clone().unwrap_or_default();
        let state_ids: BTreeSet<&str> = mega.states.iter().map(|s| s.id.as_str()).collect();
        let ledger_of: BTreeMap<&str, &str> = mega
            .states
            .iter()
            .map(|s| (s.counter.as_str(), s.id.as_str()))
            .collect();
        let mut character_teams: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut character_states: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut counter_state = BTreeMap::new();
        let mut counter_table = BTreeMap::new();
        let mut classes = BTreeMap::new();
        let mut non_played_characters = BTreeSet::new();
        let links: BTreeMap<&str, &crate::game::scenario::CharacterLinks> = mega
            .characters
            .iter()
            .map(|l| (l.character.as_str(), l))
            .collect();
        for c in state.counters.values() {
            let class = counter_class(c);
            classes.insert(c.id.clone(), class);
            if class == CounterClass::Character {
                let mut teams = BTreeSet::new();
                if !c.side.is_empty() {
                    teams.insert(c.side.clone());
                }
                if let Some(list) = text(c, "team") {
                    teams.extend(
                        list.split(',')
                            .map(str::trim)
                            .filter(|t| !t.is_empty())
                            .map(str::to_string),
                    );
                }
                let mut states = BTreeSet::new();
                if let Some(l) = links.get(c.id.as_str()) {
                    teams.extend(l.teams.iter().cloned());
                    states.extend(l.states.iter().cloned());
                }
                if c.attributes.get("played") == Some(&Value::Bool(false)) {
                    non_played_characters.insert(c.id.clone());
                }
                character_teams.insert(c.id.clone(), teams);
                character_states.insert(c.id.clone(), states);
                continue;
            }
            let owner = ledger_of
                .get(c.id.as_str())
                .map(|s| s.to_string())
                .or_else(|| {
                    [text(c, "country"), text(c, "owner"), c.army.as_deref()]
                        .into_iter()
                        .flatten()
                        .find(|s| state_ids.contains(s))
                        .map(str::to_string)
                });
            let table = text(c, "map_table").map(str::to_string).or_else(|| {
                owner.as_ref().and_then(|o| {
                    mega.states
                        .iter()
                        .find(|s| s.id == *o)
                        .and_then(|s| s.table.clone())
                })
            });
            if let Some(o) = owner {
                counter_state.insert(c.id.clone(), o);
            }
            if let Some(t) = table {
                counter_table.insert(c.id.clone(), t);
            }
        }
        let players = players(&mega, state);
        let teams = scenario
            .sides
            .iter()
            .map(|side| Team {
                id: side.id.clone(),
                name: side.name.clone(),
                states: mega
                    .states
                    .iter()
                    .filter(|s| s.teams.contains(&side.id))
                    .map(|s| s.id.clone())
                    .collect(),
                characters: character_teams
                    .iter()
                    .filter(|(_, t)| t.contains(&side.id))
                    .map(|(c, _)| c.clone())
                    .collect(),
            })
            .collect();
        People {
            tables: mega.tables,
            umpires: mega
                .umpires
                .iter()
                .map(|u: &UmpireSpec| Umpire {
                    name: u.name.clone(),
                    role: u.role,
                    table: u.table.clone(),
                })
                .collect(),
            players,
            teams,
            states: mega.states,
            character_teams,
            character_states,
            counter_state,
            counter_table,
            classes,
            non_played_characters,
            remits: scenario.remits.clone(),
        }
    }

    /// The teams a character belongs to (its side, `team` attribute and links), sorted.
    pub fn teams_of(&self, character: &str) -> Vec<String> {
        self.character_teams
            .get(character)
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The characters a player plays now (a player's `id` or `name`).
    pub fn characters_of(&self, player: &str) -> Vec<String> {
        self.players
            .iter()
            .find(|p| p.id == player || p.name == player)
            .map(|p| p.characters.clone())
            .unwrap_or_default()
    }

    /// The player of a character, if any.
    pub fn player_of(&self, character: &str) -> Option<&Player> {
        self.players
            .iter()
            .find(|p| p.characters.iter().any(|c| c == character))
    }

    /// The states a team plays.
    pub fn states_of(&self, team: &str) -> Vec<String> {
        self.teams
            .iter()
            .find(|t| t.id == team)
            .map(|t| t.states.clone())
            .unwrap_or_default()
    }

    /// The teams a state belongs to.
    pub fn teams_of_state(&self, state: &str) -> Vec<String> {
        self.state(state)
            .map(|s| s.teams.clone())
            .unwrap_or_default()
    }

    /// The characters of a team.
    pub fn members_of(&self, team: &str) -> Vec<String> {
        self.teams
            .iter()
            .find(|t| t.id == team)
            .map(|t| t.characters.clone())
            .unwrap_or_default()
    }

    /// The states a character belongs to: its links, else the states of its teams.
    pub fn states_of_character(&self, character: &str) -> Vec<String> {
        match self.character_states.get(character) {
            Some(s) if !s.is_empty() => s.iter().cloned().collect(),
            _ => {
                let mut out: BTreeSet<String> = BTreeSet::new();
                for t in self.teams_of(character) {
                    out.extend(self.states_of(&t));
                }
                out.into_iter().collect()
            }
        }
    }

    /// The umpires at a map table.
    pub fn umpires_at(&self, table: &str) -> Vec<&Umpire> {
        self.umpires
            .iter()
            .filter(|u| u.table.as_deref() == Some(table))
            .collect()
    }

    /// The umpires in a role.
    pub fn umpires_in(&self, role: ControlRole) -> Vec<&Umpire> {
        self.umpires.iter().filter(|u| u.role == role).collect()
    }

    /// A state by id.
    pub fn state(&self, state: &str) -> Option<&StateSpec> {
        self.states.iter().find(|s| s.id == state)
    }

    /// The ledger counter of a state (`state-france`), by the state's id or the counter's own.
    pub fn ledger_counter(&self, state: &str) -> Option<&str> {
        self.states
            .iter()
            .find(|s| s.id == state || s.counter == state)
            .map(|s| s.counter.as_str())
    }

    /// The state a counter belongs to (ledger, army, fleet, city, area), if any. Characters:
    /// see [`People::states_of_character`].
    pub fn state_of(&self, counter: &str) -> Option<&str> {
        self.counter_state.get(counter).map(String::as_str)
    }

    /// The map table a counter works at: its `map_table` attribute, else its state's table.
    pub fn table_of(&self, counter: &str) -> Option<&str> {
        self.counter_table.get(counter).map(String::as_str)
    }

    /// The class of a counter, if the game has it.
    pub fn class_of(&self, counter: &str) -> Option<CounterClass> {
        self.classes.get(counter).copied()
    }

    /// Counters of a class, sorted by id.
    pub fn counters_of_class(&self, class: CounterClass) -> Vec<&str> {
        self.classes
            .iter()
            .filter(|(_, c)| **c == class)
            .map(|(id, _)| id.as_str())
            .collect()
    }

    /// Whether a counter belongs to a non-played state or is a non-played character.
    pub fn is_non_played(&self, counter: &str) -> bool {
        self.non_played_characters.contains(counter)
            || self
                .state_of(counter)
                .and_then(|s| self.state(s))
                .is_some_and(|s| !s.played)
    }

    /// Whether a Control role (at `table`, for Map Control) may touch a counter.
    pub fn in_remit(&self, role: ControlRole, table: Option<&str>, counter: &str) -> Remit {
        self.remit_check(role, table, counter, None).remit
    }

    /// Whether a Control role (at `table`, for Map Control) may touch a counter, or one of its
    /// attributes, with the rule and the reason: the ruleset's `remits:` answer.
    pub fn remit_check(
        &self,
        role: ControlRole,
        table: Option<&str>,
        counter: &str,
        attribute: Option<&str>,
    ) -> RemitCheck {
        self.remit_check_for(role, table, counter, attribute, None)
    }

    /// [`People::remit_check`], for a counter's part in a resolution of `resolving` (a
    /// procedure id) when it is one.
    pub fn remit_check_for(
        &self,
        role: ControlRole,
        table: Option<&str>,
        counter: &str,
        attribute: Option<&str>,
        resolving: Option<&str>,
    ) -> RemitCheck {
        self.by_remits(role, table, counter, attribute, resolving, false)
    }

    /// Whether a Control role (at `table`, for Map Control) may put the new counter `counter`
    /// on the table (raise an army) — asked of the People of the game with the counter added:
    /// the ruleset's `remits: adding:` answer.
    pub fn add_remit_check(
        &self,
        role: ControlRole,
        table: Option<&str>,
        counter: &str,
    ) -> RemitCheck {
        self.by_remits(role, table, counter, None, None, true)
    }

    /// The roles that work the phase clock: the ruleset's `remits: clock:`, else Game Control.
    pub fn works_the_clock(&self, role: ControlRole) -> bool {
        match &self.remits {
            Some(r) => r.clock.iter().any(|c| c == role.id()),
            None => role == ControlRole::Game,
        }
    }

    /// The first clause of the role's remits that matches; Game Control alone when the
    /// ruleset declares none.
    fn by_remits(
        &self,
        role: ControlRole,
        table: Option<&str>,
        counter: &str,
        attribute: Option<&str>,
        resolving: Option<&str>,
        adding: bool,
    ) -> RemitCheck {
        let Some(class) = self.class_of(counter) else {
            return answer(
                Remit::Outside,
                "",
                format!("no counter '{counter}' in this game"),
            );
        };
        let Some(remits) = &self.remits else {
            return if role == ControlRole::Game {
                answer(
                    Remit::Own,
                    "The Control Team › Game Control",
                    "Game Control deals with any problem which arises".into(),
                )
            } else {
                answer(
                    Remit::Outside,
                    "The Control Team",
                    "this game's ruleset declares no remits: only Game Control may change it"
                        .into(),
                )
            };
        };
        let its = self.table_of(counter);
        let question = RemitQuestion {
            class: class.id(),
            attribute,
            mine: table,
            its,
            non_played: self.is_non_played(counter),
            resolving,
        };
        match remits.answer(role.id(), adding, &question) {
            Some(c) => answer(
                match c.remit {
                    RemitAnswer::Own => Remit::Own,
                    RemitAnswer::Discretion => Remit::ControlDiscretion,
                    RemitAnswer::Outside => Remit::Outside,
                },
                &c.rule,
                c.why_for(counter, its),
            ),
            None => answer(
                Remit::Outside,
                "The Control Team",
                format!("{} has no remit over {counter}", role.label()),
            ),
        }
    }
}

/// A remit answer.
fn answer(remit: Remit, rule: &str, why: String) -> RemitCheck {
    RemitCheck {
        remit,
        rule: rule.to_string(),
        why,
    }
}

/// The players: the `megagame:` section's list, then each character's live `player` attribute
/// (a player the section does not list is added by that name).
fn players(mega: &MegagameSpec, state: &GameState) -> Vec<Player> {
    let mut players: Vec<Player> = mega
        .players
        .iter()
        .map(|p| Player {
            id: p.id.clone(),
            name: p.name.clone(),
            characters: p.characters.clone(),
        })
        .collect();
    for c in state.counters.values() {
        let Some(who) = text(c, "player") else {
            continue;
        };
        for p in &mut players {
            p.characters.retain(|x| *x != c.id);
        }
        match players.iter_mut().find(|p| p.id == who || p.name == who) {
            Some(p) => p.characters.push(c.id.clone()),
            None => players.push(Player {
                id: who.to_string(),
                name: who.to_string(),
                characters: vec![c.id.clone()],
            }),
        }
    }
    players
}
