//! The `megagame:` section of a scenario file as written: map tables, Control, states with
//! their ledgers, players and their characters.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use super::*;

/// The `megagame:` section: map tables, Control, states with ledgers, players. Teams are the
/// scenario's sides.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Megagame")]
pub(crate) struct RawMegagame {
    /// The map tables, each with its own Map Control; units' `map_table` attribute names them.
    #[serde(default)]
    pub tables: Vec<RawMapTable>,
    /// The Control team: each umpire's role, and the table of a Map Control.
    #[serde(default)]
    pub umpires: Vec<RawUmpire>,
    /// The states, each with its ledger (an off-map counter `state-<id>`).
    #[serde(default)]
    pub states: Vec<RawState>,
    /// The players and the characters each plays at the start.
    #[serde(default)]
    pub players: Vec<RawPlayer>,
    /// Extra links of characters to teams and states (a cardinal in a national team is also
    /// linked to the Papacy).
    #[serde(default)]
    pub characters: Vec<RawCharacterLinks>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// One map table of a megagame, with its own Map Control.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "MapTable")]
pub(crate) struct RawMapTable {
    /// The table's id, unique (`the_east`), as units' `map_table` attribute, umpires and
    /// states name it.
    pub id: String,
    /// Its name as printed ("The East").
    pub name: String,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// Who plays at it, as printed.
    #[serde(default)]
    pub note: Option<String>,
}

/// One umpire of the Control team.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Umpire")]
pub(crate) struct RawUmpire {
    /// A person's name, or the role when the text names nobody.
    pub name: String,
    /// The Control role: `map`, `political`, `religious`, `character`, `non_played_states` or
    /// `game` (the printed names, "Map Control"…, are read too).
    pub role: String,
    /// The map table (one of `tables`): required for Map Control; others may sit at one.
    #[serde(default)]
    pub table: Option<String>,
    /// Notes.
    #[serde(default)]
    pub note: Option<String>,
}

/// A state of a megagame and its ledger.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "State")]
pub(crate) struct RawState {
    /// The state's id, unique (`france`), as armies' `country` and areas' `owner` attributes
    /// name it.
    pub id: String,
    /// Its name as printed.
    pub name: String,
    /// The ledger counter's id; `state-<id>` when not given.
    #[serde(default)]
    pub counter: Option<String>,
    /// The teams (the scenario's side ids) it belongs to.
    #[serde(default)]
    pub teams: Vec<String>,
    /// The map table (one of `tables`) where its revenue is played.
    #[serde(default)]
    pub table: Option<String>,
    /// Played by a team (`false`: a non-played state).
    #[serde(default = "yes")]
    pub played: bool,
    /// Ledger values (treasury, national_debt, unrest_index…): unit attributes of the ruleset.
    #[serde(default)]
    pub ledger: BTreeMap<String, RawValue>,
    /// Ledger attributes the text does not give.
    #[serde(default)]
    pub unknown: Vec<String>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// Notes.
    #[serde(default)]
    pub note: Option<String>,
}

fn yes() -> bool {
    true
}

/// A player (a person) and the characters they play.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Player")]
pub(crate) struct RawPlayer {
    /// The player's id, unique; made from the name when not given.
    #[serde(default)]
    pub id: Option<String>,
    /// A person's name, or the role when not yet cast ("Player of Monluc").
    pub name: String,
    /// The ids of the characters (leader counters) they play at the start, each played by one
    /// player.
    #[serde(default)]
    pub characters: Vec<String>,
}

/// Extra links of one character to teams and states.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CharacterLinks")]
pub(crate) struct RawCharacterLinks {
    /// The character's id (a leader counter of the scenario).
    pub character: String,
    /// Teams (side ids) it belongs to beyond its side and its `team` attribute.
    #[serde(default)]
    pub teams: Vec<String>,
    /// States (ids of `states`) it belongs to: it rules or serves them.
    #[serde(default)]
    pub states: Vec<String>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}
