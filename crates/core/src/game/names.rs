//! Names and ids, settled once at the edge. People type a counter's name ("Venetian Infantry
//! (Alviano)"), a side's name, a state's name or a procedure's; the journal keeps ids. The CLI
//! and the desk turn every such reference into a typed id here, before any engine function sees
//! it, so a name and its id give the same journal by construction: an [`super::Action`] carries
//! [`CounterId`]s and an engine function that needs a counter takes one. The engine looks no
//! name up: a name put where an id belongs is refused as an unknown counter, never guessed at.
//! An unknown name is refused with the close names; a name two counters share is refused with
//! both.

use std::collections::BTreeMap;
use std::fmt;

use super::refusal::Refusal;
use super::scenario::Scenario;
use super::state::GameState;
use crate::rules::Ruleset;

/// The id of a counter this game has (or had: a counter taken off keeps its id).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CounterId(String);

/// The id of one of the scenario's sides.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SideId(String);

/// The id of one of the ruleset's procedures.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProcedureId(String);

macro_rules! id_text {
    ($t:ty) => {
        impl $t {
            /// The id as the journal keeps it.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
        impl From<$t> for String {
            fn from(id: $t) -> String {
                id.0
            }
        }
        impl AsRef<str> for $t {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }
    };
}
id_text!(CounterId);
id_text!(SideId);
id_text!(ProcedureId);

impl CounterId {
    /// An id as the journal keeps it, taken as given. The engine looks no name up: a name
    /// given here (rather than through [`Names`]) is refused by the check as an unknown
    /// counter, never guessed at. For ids read from the game itself (the desk's selection, a
    /// script's fixed ids, an effect proposed for a counter the state holds).
    pub fn new(id: impl Into<String>) -> CounterId {
        CounterId(id.into())
    }

    /// The id of a counter the state holds, as the state keys it (None when it has none).
    pub fn of(state: &GameState, id: &str) -> Option<CounterId> {
        state
            .counters
            .get_key_value(id)
            .map(|(k, _)| CounterId(k.clone()))
    }
}

/// The counters of each role as the journal keeps them (ids as text).
pub fn role_ids_text(roles: &BTreeMap<String, Vec<CounterId>>) -> BTreeMap<String, Vec<String>> {
    roles
        .iter()
        .map(|(role, ids)| (role.clone(), ids.iter().map(ToString::to_string).collect()))
        .collect()
}

/// An id taken as given, as [`CounterId::new`]: a script's or a test's fixed ids.
impl From<&str> for CounterId {
    fn from(id: &str) -> CounterId {
        CounterId::new(id)
    }
}

/// An id taken as given, as [`CounterId::new`].
impl From<String> for CounterId {
    fn from(id: String) -> CounterId {
        CounterId(id)
    }
}

/// Turns what a person typed into ids, against one game.
pub struct Names<'g> {
    state: &'g GameState,
    scenario: &'g Scenario,
    ruleset: &'g Ruleset,
}

impl<'g> Names<'g> {
    /// Names of an open game.
    pub fn of(game: &'g super::Game) -> Names<'g> {
        Names::new(game.state(), game.scenario(), game.ruleset())
    }

    /// Names over a state, its scenario and ruleset.
    pub fn new(state: &'g GameState, scenario: &'g Scenario, ruleset: &'g Ruleset) -> Names<'g> {
        Names {
            state,
            scenario,
            ruleset,
        }
    }

    /// The counter named: its id, or its name in any case and spacing. Refused when nothing
    /// matches (with the close names) or when two counters share the name (with both ids).
    pub fn counter(&self, named: &str) -> Result<CounterId, Refusal> {
        counter_in(self.state, named)
    }

    /// A state's ledger counter by the state's id or name (megagames), else the counter named.
    pub fn ledger_or_counter(&self, named: &str) -> Result<CounterId, Refusal> {
        let wanted = squeeze(named);
        if let Some(m) = &self.scenario.megagame
            && let Some(s) = m
                .states
                .iter()
                .find(|s| s.id == named.trim() || squeeze(&s.name) == wanted)
            && let Some(id) = CounterId::of(self.state, &s.counter)
        {
            return Ok(id);
        }
        self.counter(named)
    }

    /// The Force named — by its id, or as the text names it ("Chaumont's Force", or its
    /// place when it has no Capitano): its id. None when no Force is so named.
    pub fn force(&self, named: &str) -> Option<String> {
        let wanted = squeeze(named);
        self.scenario
            .forces
            .iter()
            .map(|f| f.id.as_str())
            .chain(
                self.state
                    .counters
                    .values()
                    .filter_map(|c| c.force.as_deref()),
            )
            .find(|f| {
                *f == named.trim()
                    || squeeze(&super::words::force_words(self.scenario, f)) == wanted
            })
            .map(str::to_string)
    }

    /// The Force a counter belongs to, if any.
    pub fn counter_force(&self, counter: &CounterId) -> Option<String> {
        self.state
            .counters
            .get(counter.as_str())
            .and_then(|c| c.force.clone())
    }

    /// The counters of Force `force` on the table (not those waiting or gone off the map), in
    /// the order of their ids.
    pub fn force_counters(&self, force: &str) -> Vec<CounterId> {
        self.state
            .counters
            .values()
            .filter(|c| {
                c.force.as_deref() == Some(force)
                    && c.removed.is_none()
                    && !matches!(c.position, super::scenario::Position::OffMap(_))
            })
            .map(|c| CounterId(c.id.clone()))
            .collect()
    }

    /// The side named: its id or its name, in any case (see [`side_in`]).
    pub fn side(&self, named: &str) -> Result<SideId, Refusal> {
        side_in(self.scenario, named)
    }

    /// The procedure named: its id, or its name in any case.
    pub fn procedure(&self, named: &str) -> Result<ProcedureId, Refusal> {
        let wanted = squeeze(named);
        let procedures = &self.ruleset.procedures;
        procedures
            .iter()
            .find(|p| p.id == named.trim())
            .or_else(|| procedures.iter().find(|p| squeeze(&p.name) == wanted))
            // The name without its bracketed gloss: "Discipline Check" for "Discipline Check
            // (one Combat Unit's column)", when only one procedure reads so.
            .or_else(|| {
                let mut short = procedures.iter().filter(|p| {
                    p.name
                        .split_once(" (")
                        .is_some_and(|(head, _)| squeeze(head) == wanted)
                });
                match (short.next(), short.next()) {
                    (Some(p), None) => Some(p),
                    _ => None,
                }
            })
            .map(|p| ProcedureId(p.id.clone()))
            .ok_or_else(|| Refusal::NoProcedure {
                procedure: named.to_string(),
                ruleset: self.ruleset.id.clone(),
                procedures: procedures.iter().map(|p| p.id.clone()).collect(),
            })
    }
}

impl GameState {
    /// The id of the counter a person names: its id, or its name in any case (names are unique
    /// within a scenario). None when nothing matches. Kept here, beside [`counter_in`], so the
    /// state knows nothing of names.
    pub fn counter_id<'s>(&'s self, named: &'s str) -> Option<&'s str> {
        let id = counter_in(self, named).ok()?;
        self.counters
            .get_key_value(id.as_str())
            .map(|(k, _)| k.as_str())
    }
}

/// The counter named in a state: its id, or its name in any case and spacing; refused when
/// nothing matches (with the close names) or when two counters share the name. The one
/// definition of "the counter a person means": [`Names::counter`] at the edge and
/// [`GameState::counter_id`] in [`super::Game::act`] both use it.
pub fn counter_in(state: &GameState, named: &str) -> Result<CounterId, Refusal> {
    let named = named.trim();
    if let Some(id) = CounterId::of(state, named) {
        return Ok(id);
    }
    let wanted = squeeze(named);
    let matches: Vec<&super::state::CounterState> = state
        .counters
        .values()
        .filter(|c| squeeze(&c.name) == wanted)
        .collect();
    // An army raised again under the name of one disbanded before: the one on the table.
    let on_table: Vec<&&super::state::CounterState> =
        matches.iter().filter(|c| c.removed.is_none()).collect();
    if matches.len() > 1
        && let [one] = on_table.as_slice()
    {
        return Ok(CounterId(one.id.clone()));
    }
    match matches.as_slice() {
        [one] => Ok(CounterId(one.id.clone())),
        [] => Err(Refusal::NoCounter {
            counter: named.to_string(),
            close: close_counters(state, named),
        }),
        many => Err(Refusal::AmbiguousCounter {
            counter: named.to_string(),
            matches: many
                .iter()
                .map(|c| format!("\"{}\" ({})", c.name, c.id))
                .collect(),
        }),
    }
}

/// Lower case, runs of white space as one space, trimmed: how two spellings of a name compare.
/// The side of `scenario` a person means: its id, its name ("French: the Kingdom of France"),
/// or the name's short form before the colon ("French"), in any case and spacing. Refused,
/// with the sides listed, when none matches. For commands that have a scenario and no game
/// (a scenario sheet) as well as those that have a game ([`Names::side`]).
pub fn side_in(scenario: &Scenario, named: &str) -> Result<SideId, Refusal> {
    let wanted = squeeze(named);
    let short = |name: &str| squeeze(name.split(':').next().unwrap_or(name));
    let sides = &scenario.sides;
    sides
        .iter()
        .find(|s| s.id == named.trim())
        .or_else(|| sides.iter().find(|s| squeeze(&s.id) == wanted))
        .or_else(|| sides.iter().find(|s| squeeze(&s.name) == wanted))
        .or_else(|| sides.iter().find(|s| short(&s.name) == wanted))
        .map(|s| SideId(s.id.clone()))
        .ok_or_else(|| Refusal::NoSide {
            side: named.to_string(),
            sides: sides
                .iter()
                .map(|s| format!("{} ({})", s.name, s.id))
                .collect::<Vec<_>>()
                .join(", "),
        })
}

fn squeeze(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Up to eight counters whose name or id is close to what was typed, quoted by name.
pub fn close_counters(state: &GameState, typed: &str) -> Vec<String> {
    let wanted = squeeze(typed);
    let mut close = state
        .counters
        .values()
        .filter_map(|c| {
            let name = squeeze(&c.name);
            let contained = name.contains(&wanted)
                || wanted.contains(&name)
                || c.id.contains(typed)
                || typed.contains(c.id.as_str());
            // A typing slip ("Chamont" for "Chaumont"): most of the letters in order.
            let likeness =
                strsim::jaro_winkler(&name, &wanted).max(strsim::jaro_winkler(&c.id, typed.trim()));
            (contained || likeness >= 0.9).then_some((likeness, &c.name))
        })
        .collect::<Vec<_>>();
    close.sort_by(|a, b| b.0.total_cmp(&a.0));
    close
        .into_iter()
        .take(8)
        .map(|(_, name)| format!("\"{name}\""))
        .collect()
}
