//! The validated scenario: what is on the table at start, the calendar and the schedules.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::rules::Value;

/// A validated scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    /// Id, unique among scenarios (`ailsh_1_venice_at_bay_1509`).
    pub id: String,
    /// The ruleset it is played with (a loaded ruleset's id).
    pub ruleset: String,
    /// Title as printed.
    pub title: String,
    /// Where it is transcribed from (rule book and lines).
    pub source: Option<String>,
    /// Historical date or start date as printed ("April, 4 (1509)").
    pub date: Option<String>,
    /// Maximum number of turns.
    pub turns: u32,
    /// Label of turn 1..=turns (`calendar[0]` is turn 1), e.g. "April, 4 (1509)".
    pub calendar: Vec<String>,
    /// The opposing sides.
    pub sides: Vec<SideSpec>,
    /// The armies (nations) of the sides, with their Capitani Generali and supply sources.
    pub armies: Vec<ArmySpec>,
    /// The side that plays first, if the text names one (a [`SideSpec`] id).
    pub first_player: Option<String>,
    /// The part of the map in use, if not all of it.
    pub map: Option<String>,
    /// Forces (stacks) at start; their counters carry the force id. Loose groups (pools,
    /// breakdown units) are not Forces: their counters have no force id.
    pub forces: Vec<ForceSpec>,
    /// Counters at start: on the map, or off it (pools, breakdown units, Capitano cards).
    pub counters: Vec<CounterSpec>,
    /// Notes attached to single counters ("initially subordinate to G. Trivulzio").
    pub counter_notes: Vec<CounterNote>,
    /// Reinforcements on fixed turns.
    pub reinforcements: Vec<Reinforcement>,
    /// Reinforcements that arrive when a special rule says so (no fixed turn).
    pub conditional_reinforcements: Vec<ConditionalReinforcement>,
    /// Schedules (Administrative Points…).
    pub schedules: Vec<Schedule>,
    /// Supply sources by army.
    pub supply_sources: Vec<SupplySource>,
    /// Regional alignment at start.
    pub regions: Vec<RegionAlignment>,
    /// Places owned or Conquered at start (the "Important note" blocks).
    pub holdings: Vec<Holding>,
    /// Capitano cards in use, by army.
    pub capitano_cards: Vec<CapitanoCard>,
    /// Victory conditions.
    pub victory: Vec<TextItem>,
    /// Special rules and events (troops reliability included).
    pub special_rules: Vec<TextItem>,
    /// Rulings made while transcribing (how an ambiguity was read).
    pub rulings: Vec<TextItem>,
    /// Notes (historical note, design note…).
    pub notes: Option<String>,
    /// People and roles of a megagame (map tables, Control, states with their ledgers,
    /// players), from the optional `megagame:` section.
    pub megagame: Option<MegagameSpec>,
    /// The Control roles' remits, from the ruleset's `remits:` (a megagame's): kept with the
    /// scenario so that the people of a game ([`crate::game::people::People`]) answer by them.
    #[serde(skip)]
    pub remits: Option<std::sync::Arc<crate::rules::Remits>>,
    /// Control's records the ruleset declares (`records:`), for the gate: who keeps each.
    #[serde(skip)]
    pub records: std::sync::Arc<crate::rules::Records>,
    /// The places of the map the text names (the ruleset's gazetteer, `geometry.places`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<crate::rules::Place>,
    /// What the organiser must add where the text gives no set-up, and how.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub organiser_setup: Option<OrganiserSetup>,
}

/// The set-up the text leaves to the organiser (a deployment card not in the text).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrganiserSetup {
    /// What to add, in words.
    pub text: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// How: commands or desk steps, one each.
    pub steps: Vec<String>,
}

impl Scenario {
    /// A counter at start by id.
    pub fn counter(&self, id: &str) -> Option<&CounterSpec> {
        self.counters.iter().find(|c| c.id == id)
    }

    /// The label of a turn (1-based), if the turn is in the scenario.
    pub fn turn_label(&self, turn: u32) -> Option<&str> {
        let index = usize::try_from(turn.checked_sub(1)?).ok()?;
        self.calendar.get(index).map(String::as_str)
    }

    /// The turn number of a calendar label.
    pub fn turn_of(&self, label: &str) -> Option<u32> {
        turn_of_label(&self.calendar, label)
    }

    /// What keeps `force`'s leader attribute `attribute` from changing at `turn`, if anything
    /// does.
    pub fn keeps(&self, force: &str, attribute: &str, turn: u32) -> Option<&ForceKeeps> {
        self.forces
            .iter()
            .find(|f| f.id == force)
            .and_then(|f| f.keeps.as_ref())
            .filter(|k| k.attribute == attribute && turn <= k.through_turn)
    }

    /// Every counter the scenario names: at start, on fixed turns and conditionally.
    pub fn all_counters(&self) -> impl Iterator<Item = &CounterSpec> {
        self.counters
            .iter()
            .chain(self.reinforcements.iter().flat_map(|r| &r.counters))
            .chain(
                self.conditional_reinforcements
                    .iter()
                    .flat_map(|r| &r.counters),
            )
    }
}

/// The turn number of a label in a calendar: the exact label, or the label without its year
/// ("January, 1" finds "January, 1 (1525)").
pub(crate) fn turn_of_label(calendar: &[String], label: &str) -> Option<u32> {
    let label = label.trim();
    let bare = |l: &str| l.split(" (").next().unwrap_or(l).trim().to_string();
    let i = calendar
        .iter()
        .position(|l| l == label)
        .or_else(|| calendar.iter().position(|l| bare(l) == bare(label)))?;
    u32::try_from(i + 1).ok()
}

/// One side of the game (a player or a coalition).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideSpec {
    /// Id (`french`).
    pub id: String,
    /// Name as printed.
    pub name: String,
    /// Ids of its armies ([`ArmySpec`]).
    pub armies: Vec<String>,
}

/// One army (nation) of a side: its own AP track, Capitani Generali and supply sources.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArmySpec {
    /// Id (`venetian`).
    pub id: String,
    /// Name as printed ("the Republic of Venice").
    pub name: String,
    /// The side it belongs to.
    pub side: String,
    /// Names of its Capitani Generali, as printed.
    pub capitani_generali: Vec<String>,
    /// Minor Capitani available and their status, as printed ("1 French, not deployed").
    pub minor_capitani: Option<String>,
    /// Notes (LOC length bonus, constraints…).
    pub note: Option<String>,
}

/// What kind of piece a counter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CounterKind {
    /// A combat or auxiliary unit (validated against the ruleset's `units` attributes).
    Unit,
    /// A leader (Capitano, commander; validated against the ruleset's `leaders` attributes).
    Leader,
    /// A marker (validated against the ruleset's `units` attributes).
    Marker,
    /// A state's ledger (megagames): an off-map counter holding the state's treasury, debt,
    /// unrest and cards (validated against the ruleset's `units` attributes). Not a piece on
    /// the map.
    State,
}

pub use super::position::Position;

/// One physical counter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterSpec {
    /// Unique within the scenario and stable (`fr-louis-french-gendarmes-1`).
    pub id: String,
    /// Its name, unique within the scenario ("French Gendarmes (Chaumont)", "Pitigliano").
    pub name: String,
    /// The name as the text prints it, shared by like counters ("French Gendarmes"): for a
    /// Force's line, where the Force says the rest.
    pub printed: String,
    /// The side ([`SideSpec`] id).
    pub side: String,
    /// The army ([`ArmySpec`] id), if the ruleset has armies.
    pub army: Option<String>,
    /// Unit, leader or marker.
    pub kind: CounterKind,
    /// Attribute values, by the names the ruleset declares for units or leaders. A `choices`
    /// attribute holds its names joined by ", ".
    pub attributes: BTreeMap<String, Value>,
    /// Declared attributes the text does not give (for the umpire to fill in).
    pub unknown: Vec<String>,
    /// Where it is.
    pub position: Position,
    /// The Force (stack) it belongs to: counters of one Force share it.
    pub force: Option<String>,
}

/// A Force (stack) at start or arriving.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForceSpec {
    /// Id.
    pub id: String,
    /// Side.
    pub side: String,
    /// Army.
    pub army: Option<String>,
    /// Where it is.
    pub position: Position,
    /// The place as printed ("Cassano", "within one hex from Brescia (2849)").
    pub place: Option<String>,
    /// Its Order as printed ("Stand", "Manoeuvre, Administrative March", "Any").
    pub order: Option<String>,
    /// Notes.
    pub note: Option<String>,
    /// Set up by its owner where the text allows: placed at the game's first step.
    pub unplaced: bool,
    /// A leader attribute it may not change for the game's first turns.
    pub keeps: Option<ForceKeeps>,
}

/// A leader attribute a Force may not change through a turn (S2 Special Rule 2: "The Swiss
/// Force in Novara (2611) may not change its Order for the first two turns").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForceKeeps {
    /// The leader attribute (`order`).
    pub attribute: String,
    /// The last turn it may not change.
    pub through_turn: u32,
    /// The rule, as the rulebook numbers or names it.
    pub rule: String,
    /// The lines of the text extraction (provenance, for `--json`).
    pub source: Option<String>,
    /// What the text says.
    pub text: String,
}

/// A note on one counter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterNote {
    /// Counter id.
    pub counter: String,
    /// The note.
    pub text: String,
}

/// Counters that arrive on a given turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reinforcement {
    /// The turn (1-based).
    pub turn: u32,
    /// Where they enter.
    pub entry: Position,
    /// The counters.
    pub counters: Vec<CounterSpec>,
    /// Notes (the entry as printed, orders…).
    pub note: Option<String>,
}

/// Counters that arrive when a special rule triggers them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConditionalReinforcement {
    /// Id.
    pub id: String,
    /// The special rule ([`TextItem`] id in `special_rules`) that brings them.
    pub rule: String,
    /// Where they enter.
    pub entry: Position,
    /// The counters.
    pub counters: Vec<CounterSpec>,
    /// Notes.
    pub note: Option<String>,
    /// The procedure result that brings them, if a roll does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brought_by: Option<BroughtBy>,
}

/// The procedure outcomes that bring a conditional reinforcement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BroughtBy {
    /// Procedure id.
    pub procedure: String,
    /// Outcome codes that bring them.
    pub outcomes: Vec<String>,
    /// Turns after the result (0: the same turn).
    pub after_turns: u32,
}

/// Something that happens on listed turns (Administrative Points…).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Schedule {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The turns (1-based, ascending).
    pub turns: Vec<u32>,
    /// The ruleset procedure run on those turns, if any (e.g. `administrative_points`).
    pub procedure: Option<String>,
    /// The Sequence-of-Play step (a leaf step's id) it is due at; without it, the step of its
    /// procedure, or the turn's first step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// Whether Next waits for it (the default); false for a roll due only when something
    /// happens, which the umpire resolves when it does.
    pub mandatory: bool,
    /// The side or army it belongs to.
    pub side: Option<String>,
    /// Amounts by turn (e.g. nominal APs).
    pub amounts: Vec<(u32, i64)>,
    /// Where the amount is credited (the result of its procedure, when it has one; else the
    /// amount of the turn), as an event the umpire records from the pending list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit: Option<Credit>,
    /// What it puts on a Force when due: (Force id, leader attribute, value), on the Force's
    /// Primo Capitano.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sets: Option<(String, String, crate::rules::Value)>,
    /// Outcomes of its procedure after which it is due no more (a one-time roll).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub until: Vec<String>,
    /// Notes.
    pub note: Option<String>,
}

/// A counter's whole-number attribute a scheduled amount is added to (an AP marker on the
/// Administrative Points Track).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Credit {
    /// The counter (an off-map marker).
    pub counter: String,
    /// The attribute.
    pub attribute: String,
}

/// A supply source of an army.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SupplySource {
    /// Army (or side) id.
    pub army: String,
    /// Where.
    pub position: Position,
    /// The place as printed.
    pub label: Option<String>,
    /// Conditions.
    pub note: Option<String>,
}

/// The alignment of a region at start.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RegionAlignment {
    /// Region code (`M`, `PP`…).
    pub region: String,
    /// Alignment at start as printed ("French", "Not-aligned", "Not Applic.").
    pub alignment: String,
    /// The alignment it may change to, as printed ("Anti-French").
    pub alternative: Option<String>,
    /// When it changes.
    pub note: Option<String>,
}

/// A place owned or Conquered at start.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Holding {
    /// Place name.
    pub place: String,
    /// Where.
    pub position: Position,
    /// The side (or army) that holds it.
    pub side: String,
    /// Status as printed (`conquered`).
    pub status: String,
}

/// A Capitano card in use.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CapitanoCard {
    /// Army.
    pub army: String,
    /// Capitano as printed.
    pub name: String,
    /// The number on top of the card (not unique: the cards are back-printed).
    pub card: u32,
}

/// A victory condition, special rule or ruling: text, with optional links.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextItem {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Text as printed (or the ruling).
    pub text: String,
    /// The side it concerns.
    pub side: Option<String>,
    /// A ruleset procedure that implements it.
    pub procedure: Option<String>,
    /// Rule or line reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance, not the reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// A victory condition's structured part, which the engine evaluates (victory items only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<super::victory::VictoryCheck>,
}

/// A megagame's people and roles: the scenario's optional `megagame:` section. Teams are the
/// scenario's sides; a character's teams are its side, its `team` attribute (a `choices` list,
/// live in the journal) and any extra links given here (many-to-many, rr3 L51–53).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MegagameSpec {
    /// The map tables (rr3: The East, The West, The Mediterranean, L230, L522–525).
    pub tables: Vec<MapTableSpec>,
    /// The Control team: each umpire's role, and table for Map Control (L177–206).
    pub umpires: Vec<UmpireSpec>,
    /// The states, each with its ledger counter.
    pub states: Vec<StateSpec>,
    /// The players and the characters each plays (which can change on a death, L439).
    pub players: Vec<PlayerSpec>,
    /// Extra links of characters to teams and states (a cardinal in a national team is also
    /// linked to the Papacy, L51–53).
    pub characters: Vec<CharacterLinks>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance, not the reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// One map table, with its own Map Control.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MapTableSpec {
    /// Id (`the_east`), as the units' `map_table` attribute names it.
    pub id: String,
    /// Name as printed ("The East").
    pub name: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance, not the reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Who plays at it, as printed.
    pub note: Option<String>,
}

/// The roles of the Control team (rr3 L177–206).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ControlRole {
    /// Map Control, one per map table: "resolving all the actions and campaigning on the main
    /// maps" (L182–184).
    Map,
    /// Political Control: "all off-map actions … Monitors prestige" (L186–188).
    Political,
    /// Religious Control: "the religious side of the game" (L190–192).
    Religious,
    /// Character Control: "births, deaths and marriages" (L194–196).
    Character,
    /// Non-played States: "all actions affecting the non-played states and characters with
    /// the exception of marriages" (L198–200).
    NonPlayedStates,
    /// Game Control: keeps the game moving, polices it, announces major events (L202–204).
    Game,
}

impl ControlRole {
    /// Every role, in the handbook's order.
    pub const ALL: [ControlRole; 6] = [
        ControlRole::Map,
        ControlRole::Political,
        ControlRole::Religious,
        ControlRole::Character,
        ControlRole::NonPlayedStates,
        ControlRole::Game,
    ];

    /// The id as written in YAML (`map`, `non_played_states`…).
    pub fn id(self) -> &'static str {
        match self {
            ControlRole::Map => "map",
            ControlRole::Political => "political",
            ControlRole::Religious => "religious",
            ControlRole::Character => "character",
            ControlRole::NonPlayedStates => "non_played_states",
            ControlRole::Game => "game",
        }
    }

    /// The name as printed ("Map Control").
    pub fn label(self) -> &'static str {
        match self {
            ControlRole::Map => "Map Control",
            ControlRole::Political => "Political Control",
            ControlRole::Religious => "Religious Control",
            ControlRole::Character => "Character Control",
            ControlRole::NonPlayedStates => "Non-played States",
            ControlRole::Game => "Game Control",
        }
    }

    /// The rule lines that give its remit.
    pub fn rule(self) -> &'static str {
        match self {
            ControlRole::Map => "The Control Team › Map Control",
            ControlRole::Political => "The Control Team › Political Control",
            ControlRole::Religious => "The Control Team › Religious Control",
            ControlRole::Character => "The Control Team › Character Control",
            ControlRole::NonPlayedStates => "The Control Team › Non-played States",
            ControlRole::Game => "The Control Team › Game Control",
        }
    }
}

impl std::str::FromStr for ControlRole {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        ControlRole::ALL
            .into_iter()
            .find(|r| r.id() == t || r.label().to_ascii_lowercase().replace(['-', ' '], "_") == t)
            .ok_or_else(|| {
                format!(
                    "'{s}' is not a Control role — {}",
                    ControlRole::ALL.map(|r| r.id()).join(", ")
                )
            })
    }
}

/// One umpire of the Control team.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UmpireSpec {
    /// Name (a person, or the role when the text names nobody).
    pub name: String,
    /// Role.
    pub role: ControlRole,
    /// The map table (Map Control; others may sit at one to help with incomes, L206).
    pub table: Option<String>,
    /// Notes.
    pub note: Option<String>,
}

/// A state and its ledger.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateSpec {
    /// Id (`france`), as armies' `country` and areas' `owner` attributes name it.
    pub id: String,
    /// Name as printed.
    pub name: String,
    /// The ledger counter's id (`state-france`): an off-map counter of kind `state`.
    pub counter: String,
    /// The teams (sides) it belongs to.
    pub teams: Vec<String>,
    /// The map table where its revenue is played in Phase 1 (L522–525).
    pub table: Option<String>,
    /// Played by a team (false: a non-played state, L483–495).
    pub played: bool,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance, not the reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Notes.
    pub note: Option<String>,
}

/// A player (a person) and the characters they play.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerSpec {
    /// Id.
    pub id: String,
    /// Name (a person, or the role when not yet cast).
    pub name: String,
    /// Character (leader counter) ids at start.
    pub characters: Vec<String>,
}

/// Extra links of one character.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CharacterLinks {
    /// Character (leader counter) id.
    pub character: String,
    /// Teams beyond its side and `team` attribute.
    pub teams: Vec<String>,
    /// States it belongs to (rules, serves).
    pub states: Vec<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance, not the reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}
