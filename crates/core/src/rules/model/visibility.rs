//! What each side may see: sight levels, owners, conditions, the sources of sight, reveals, open results and how hidden entries are shown.

use super::*;

/// How much of another side's counter a side sees, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SightLevel {
    /// Not at all.
    Hidden,
    /// That something is there, and where ("a face-down Capitano" at hex 2733).
    Presence,
    /// Its name and place (and the markers on it).
    Identity,
    /// Everything but the attributes kept hidden.
    Full,
}

impl SightLevel {
    /// The level in words ("presence only").
    pub fn words(self) -> &'static str {
        match self {
            SightLevel::Hidden => "not seen",
            SightLevel::Presence => "presence only",
            SightLevel::Identity => "name and place",
            SightLevel::Full => "in full",
        }
    }
}

/// Whose counters a side sees as its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    /// The counters of its side.
    #[default]
    Side,
    /// A megagame team's: its side's counters, its states' ledgers and forces, its characters.
    Team,
}

/// A kind of piece, as conditions name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceKind {
    /// A combat or auxiliary unit.
    Unit,
    /// A leader.
    Leader,
    /// A marker.
    Marker,
    /// A state's ledger (megagames).
    State,
}

/// A condition on one counter as it stands (declarative: no expressions).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Every condition holds (an empty list always holds).
    All(Vec<Condition>),
    /// At least one holds.
    Any(Vec<Condition>),
    /// It does not hold.
    Not(Box<Condition>),
    /// The counter is this kind of piece.
    Kind(PieceKind),
    /// The counter carries this status marker.
    Status(String),
    /// An attribute has this value (a `choices` attribute: includes it).
    Attribute {
        /// Attribute name.
        name: String,
        /// The value.
        value: Value,
    },
    /// The counter is on the map (not off it, not removed) — or not.
    OnMap(bool),
    /// An enemy unit is in a hex next to the counter's (hex maps) — or not.
    AdjacentToEnemy(bool),
    /// A ruling's option in force.
    Ruling {
        /// Ruling id.
        id: String,
        /// The option.
        option: String,
    },
}

/// Where a visibility rule comes from: the rulebook's number, the text's lines, a ruling note.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct SightSource {
    /// The rule as the rulebook numbers it ("1.4", "D.1", "5.2", "Terrain › Visibility").
    pub rule: String,
    /// The text's lines (provenance, shown only as a source detail).
    pub source: Option<String>,
    /// What the rule says, in short.
    pub text: Option<String>,
    /// How an ambiguity was read.
    pub ruling: Option<String>,
}

/// What a side sees of the other sides' counters that match a condition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterSightRule {
    /// Id.
    pub id: String,
    /// When it applies (None: always).
    pub when: Option<Condition>,
    /// How much is seen.
    pub see: SightLevel,
    /// The words for a counter seen by its presence only ("a face-down Capitano").
    pub shown_as: Option<String>,
    /// Where it comes from.
    pub from: SightSource,
}

/// Attributes kept from the other sides unless a condition shows them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttributeSightRule {
    /// Id.
    pub id: String,
    /// The attributes.
    pub attributes: Vec<String>,
    /// When they show after all (None: never).
    pub shown_when: Option<Condition>,
    /// Where it comes from.
    pub from: SightSource,
}

/// Procedures whose results every side sees: dice, outcome, effects and the counters affected.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OpenResults {
    /// Id.
    pub id: String,
    /// Procedure ids.
    pub procedures: Vec<String>,
    /// Where it comes from.
    pub from: SightSource,
}

/// Statuses set and cleared on the counters that match a condition, at a step of the Sequence
/// of Play (ailsh D.1: Forces in contact reveal their composition).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reveal {
    /// Id.
    pub id: String,
    /// The Sequence-of-Play step (a leaf step id).
    pub step: String,
    /// Which counters.
    pub when: Condition,
    /// Statuses set.
    pub set: Vec<String>,
    /// Statuses cleared.
    pub clear: Vec<String>,
    /// Where it comes from.
    pub from: SightSource,
}

/// What each side may see of the others: the `visibility:` section of a ruleset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Visibility {
    /// Whose counters are a side's own (seen whole).
    pub own: Owner,
    /// What a side sees of another side's counter that no rule matches.
    pub enemy: SightLevel,
    /// The rule the section rests on, if one.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Counter rules; the first that matches decides.
    pub counters: Vec<CounterSightRule>,
    /// Attributes kept hidden.
    pub attributes: Vec<AttributeSightRule>,
    /// Results open to every side.
    pub open_results: Vec<OpenResults>,
    /// Results seen by whoever sees every counter involved in full (an open table), if so.
    pub results_with_counters: Option<SightSource>,
    /// Reveals offered at steps of the Sequence of Play.
    pub reveals: Vec<Reveal>,
    /// How a side's copy numbers the journal around what it may not see.
    pub hidden_entries: HiddenEntries,
    /// Notes.
    pub notes: Option<String>,
    /// Whether the ruleset declares its visibility (false: the default below).
    pub declared: bool,
}

/// How a side's copy numbers the journal around the entries it may not see. Either way the
/// side sees its own numbering, 1, 2, 3… with no gap that would count what it may not see (the
/// three units that moved with Chaumont on his card); the journal's own numbers stay in the
/// side's export, whose hash chain needs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HiddenEntries {
    /// Nothing marks where hidden entries were.
    #[default]
    Renumber,
    /// "Entries you may not see" where some were (once for a run, with no count): for rules
    /// that let a side know something happened.
    Placeholder,
}

impl Default for Visibility {
    /// A ruleset that declares nothing: each side sees its own counters whole and the others'
    /// by name and place; no result of the other sides is open.
    fn default() -> Visibility {
        Visibility {
            own: Owner::Side,
            enemy: SightLevel::Identity,
            rule: None,
            source_lines: None,
            counters: Vec::new(),
            attributes: Vec::new(),
            open_results: Vec::new(),
            results_with_counters: None,
            reveals: Vec::new(),
            hidden_entries: HiddenEntries::Renumber,
            notes: None,
            declared: false,
        }
    }
}

impl Visibility {
    /// The open-results rule that covers a procedure, if any.
    pub fn open_result(&self, procedure: &str) -> Option<&OpenResults> {
        self.open_results
            .iter()
            .find(|o| o.procedures.iter().any(|p| p == procedure))
    }
}
