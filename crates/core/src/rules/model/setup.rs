//! What a ruleset sets up besides its procedures: the megagame clock, the map's geometry, status markers, decks and cups, places, counter attributes, the Sequence of Play's steps, rulings.

use super::*;

/// A megagame's real-time phase clock, from a timetable table's `clock:` section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Clock {
    /// The Sequence-of-Play step ids that are the clock's phases, in order.
    pub phases: Vec<String>,
    /// How long before a phase ends the desk warns, in seconds.
    pub warning_seconds: u32,
    /// Each turn's phases.
    pub turns: Vec<ClockTurn>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Notes.
    pub notes: Option<String>,
}

/// One turn of a phase clock.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClockTurn {
    /// Game turn, from 1.
    pub turn: u32,
    /// The turn's game years (from the timetable row), e.g. "1524 - 1528".
    pub years: Option<String>,
    /// Scheduled start, "HH:MM", when the timetable gives one.
    pub starts: Option<String>,
    /// Each phase's length, in seconds, in the order of [`Clock::phases`].
    pub phase_seconds: Vec<u32>,
    /// Scheduled phase ends, "HH:MM", when given.
    pub phase_ends: Vec<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

impl Clock {
    /// The schedule of one turn.
    pub fn turn(&self, turn: u32) -> Option<&ClockTurn> {
        self.turns.iter().find(|t| t.turn == turn)
    }

    /// The last turn the clock runs.
    pub fn last_turn(&self) -> u32 {
        self.turns.iter().map(|t| t.turn).max().unwrap_or(0)
    }
}

/// How positions are given on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GeometryKind {
    /// A hex map with numbered hexes ("0114").
    Hex,
    /// Named areas with adjacency.
    Area,
    /// A free-form table; distances measured in base units.
    Free,
}

/// The game's geometry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Geometry {
    /// Kind.
    pub kind: GeometryKind,
    /// Digits of a hex id (4 for "0114").
    pub hex_id_digits: Option<u32>,
    /// Unit of distance for free-form tables (BU).
    pub distance_unit: Option<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Notes.
    pub notes: Option<String>,
    /// The gazetteer: the places the text names, with their hex on a hex map or their group
    /// on an area map, drawn on the desk's map and named wherever a position is said.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<Place>,
    /// How far the map runs, where the ruleset gives it; None (every shipped ruleset: their
    /// texts do not give the map's size) accepts any position of the map's form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extent: Option<Extent>,
}

/// How far a map runs: a position outside it is refused.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Extent {
    /// A hex map's numbering: columns and rows from the first hex's to the last's.
    Hexes {
        /// The first hex ("0101").
        first: String,
        /// The last hex ("2218").
        last: String,
        /// Columns, lowest and highest.
        cols: (u32, u32),
        /// Rows, lowest and highest.
        rows: (u32, u32),
    },
    /// A free-form table's size, in base units.
    Table {
        /// Lowest and highest x.
        x: (f64, f64),
        /// Lowest and highest y.
        y: (f64, f64),
    },
}

impl Extent {
    /// The column and row of a hex id of `digits` digits (half each), if it is one.
    pub fn col_row(hex: &str, digits: usize) -> Option<(u32, u32)> {
        let hex = hex.trim();
        if digits < 2 || hex.len() != digits || !hex.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let (col, row) = hex.split_at(digits / 2);
        Some((col.parse().ok()?, row.parse().ok()?))
    }

    /// Whether a hex (column, row) is on the map; true on a table.
    pub fn holds_hex(&self, (col, row): (u32, u32)) -> bool {
        match self {
            Extent::Hexes { cols, rows, .. } => {
                (cols.0..=cols.1).contains(&col) && (rows.0..=rows.1).contains(&row)
            }
            Extent::Table { .. } => true,
        }
    }

    /// Whether a point is on the table; true on a hex map.
    pub fn holds_point(&self, px: f64, py: f64) -> bool {
        match self {
            Extent::Table { x, y } => px >= x.0 && px <= x.1 && py >= y.0 && py <= y.1,
            Extent::Hexes { .. } => true,
        }
    }

    /// In words, for a refusal: "its hexes run from 0101 to 2218 (columns 1–22, rows 1–18)".
    pub fn words(&self, unit: Option<&str>) -> String {
        match self {
            Extent::Hexes {
                first,
                last,
                cols,
                rows,
            } => format!(
                "its hexes run from {first} to {last} (columns {}–{}, rows {}–{})",
                cols.0, cols.1, rows.0, rows.1
            ),
            Extent::Table { x, y } => format!(
                "the table runs from x {} to {} and y {} to {}{}",
                x.0,
                x.1,
                y.0,
                y.1,
                unit.map(|u| format!(" ({u})")).unwrap_or_default()
            ),
        }
    }
}

/// A status marker the text names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatusMarker {
    /// Id, as effects and the journal name it (`disrupted`).
    pub id: String,
    /// As printed ("Disrupted").
    pub label: String,
    /// Rule reference, as the rulebook numbers it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The lines of the text extraction (source details only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// What it means, in the text's terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// A result puts it on one unit of a Force, the owner's choice (not on every unit).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub one_unit: bool,
}

/// A deck of cards or a cup of markers, drawn without replacement: what the text says is in
/// it, and what it does not say.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeckSpec {
    /// Id, as the journal names it (`command_markers`).
    pub id: String,
    /// As printed ("Command markers").
    pub name: String,
    /// Cards or markers.
    pub kind: DeckKind,
    /// What is in it at the start, as the text gives it (empty when the text does not).
    pub items: Vec<DeckItem>,
    /// How many it holds, when the text says (Gradisca: "a deck of 36 cards").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u32>,
    /// What the text does not give, with the rule: the umpire fills the deck in the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// When what was drawn goes back in.
    pub refill: Refill,
    /// Draws are secret (a hand of cards): only Control and the drawing side see them.
    pub hidden: bool,
    /// Each side has its own (arquebus: "each player places his 8 possible Seizure Counters
    /// in a cup").
    pub per_side: bool,
    /// Rule reference, as the rulebook numbers it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The lines of the text extraction (source details only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// How it is used, in the text's terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl DeckSpec {
    /// "deck" or "cup", for sentences.
    pub fn noun(&self) -> &'static str {
        match self.kind {
            DeckKind::Deck => "deck",
            DeckKind::Cup => "cup",
        }
    }

    /// "card" or "marker", for sentences.
    pub fn item_noun(&self) -> &'static str {
        match self.kind {
            DeckKind::Deck => "card",
            DeckKind::Cup => "marker",
        }
    }
}

/// Cards (a deck, shuffled) or markers (a cup, drawn blind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeckKind {
    /// A deck of cards.
    Deck,
    /// A cup (or any opaque container) of markers.
    Cup,
}

/// When drawn cards or markers go back in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refill {
    /// Never by itself (the umpire returns or refills by hand when the rules say).
    Never,
    /// When a draw finds it empty, the drawn ones are shuffled back in first (Gradisca's
    /// deck: the discards "mix them and reform the deck").
    WhenEmpty,
    /// At a moment the rules name (Gradisca's cup, each turn): the umpire refills it.
    ByHand,
}

/// One kind of card or marker and how many of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckItem {
    /// Its name, as printed.
    pub name: String,
    /// How many.
    pub count: u32,
}

/// What a place is, where the text says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    /// A city.
    City,
    /// A fortified city.
    FortifiedCity,
    /// A fortress.
    Fortress,
    /// A fortified town (a castle).
    FortifiedTown,
    /// A town.
    Town,
    /// A castle.
    Castle,
    /// A village.
    Village,
    /// A bridge.
    Bridge,
    /// A port.
    Port,
    /// A mountain pass.
    Pass,
    /// Difficult terrain (an area map's).
    Difficult,
    /// Something else the text names.
    Other,
}

impl PlaceKind {
    /// The kind in words ("fortified city").
    pub fn words(self) -> &'static str {
        match self {
            PlaceKind::City => "city",
            PlaceKind::FortifiedCity => "fortified city",
            PlaceKind::Fortress => "fortress",
            PlaceKind::FortifiedTown => "fortified town",
            PlaceKind::Town => "town",
            PlaceKind::Castle => "castle",
            PlaceKind::Village => "village",
            PlaceKind::Bridge => "bridge",
            PlaceKind::Port => "port",
            PlaceKind::Pass => "pass",
            PlaceKind::Difficult => "difficult terrain",
            PlaceKind::Other => "place",
        }
    }

    /// Whether the place is walled (drawn with a bastion mark).
    pub fn fortified(self) -> bool {
        matches!(
            self,
            PlaceKind::FortifiedCity
                | PlaceKind::Fortress
                | PlaceKind::FortifiedTown
                | PlaceKind::Castle
        )
    }
}

/// A place the rule text names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Place {
    /// Its name as printed ("Treviglio").
    pub name: String,
    /// Other names the texts print for it ("Trezzo d'Adda").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// Its hex on a hex map ("2834").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// The group the text puts an area in ("Istria").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// What it is, where the text says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<PlaceKind>,
    /// Where the text names it, as the rulebook numbers it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The lines of the text extraction (source details only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// A note (a name the text gives two hexes, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl std::str::FromStr for PlaceKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let k = s.trim().to_lowercase().replace([' ', '-'], "_");
        Ok(match k.as_str() {
            "city" => PlaceKind::City,
            "fortified_city" => PlaceKind::FortifiedCity,
            "fortress" => PlaceKind::Fortress,
            "fortified_town" => PlaceKind::FortifiedTown,
            "town" => PlaceKind::Town,
            "castle" => PlaceKind::Castle,
            "village" => PlaceKind::Village,
            "bridge" => PlaceKind::Bridge,
            "port" => PlaceKind::Port,
            "pass" => PlaceKind::Pass,
            _ => {
                return Err(format!(
                    "'{s}' is not a kind of place — town, city, fortified_town, fortified_city, fortress, castle, village, bridge, port or pass"
                ));
            }
        })
    }
}

impl Place {
    /// Whether a person naming `typed` means this place: its name or another the texts print
    /// for it, in any case.
    pub fn answers_to(&self, typed: &str) -> bool {
        let typed = typed.trim();
        self.name.eq_ignore_ascii_case(typed)
            || self.also.iter().any(|a| a.eq_ignore_ascii_case(typed))
    }
}

/// Type of a unit or leader attribute.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AttributeKind {
    /// A whole number in a range.
    Int {
        /// Lowest.
        min: Option<i64>,
        /// Highest.
        max: Option<i64>,
    },
    /// One of several names.
    Choice {
        /// The names.
        choices: Vec<String>,
    },
    /// Any number of several names (e.g. special features I/S/A/C/W).
    Choices {
        /// The names.
        choices: Vec<String>,
    },
    /// Yes or no.
    Flag,
    /// Free text (a name).
    Text,
}

/// An attribute of a unit or leader.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttributeSpec {
    /// Name.
    pub name: String,
    /// Label.
    pub label: String,
    /// Type.
    #[serde(flatten)]
    pub kind: AttributeKind,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Help.
    pub help: Option<String>,
}

/// A phase, segment or step of the Sequence of Play.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Procedures that belong to this step.
    pub procedures: Vec<String>,
    /// Decks or cups drawn from at this step (their ids).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decks: Vec<String>,
    /// Whether its procedures must be resolved before moving on.
    pub mandatory: bool,
    /// When the step happens, if not every turn (text).
    pub when: Option<String>,
    /// When the step applies, as the game state can tell it; None: every turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<StepCondition>,
    /// Procedures the step offers (resolved when they happen, never items that hold the game:
    /// an activated Force's movement, assault, pursuit…).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub offers: Vec<String>,
    /// Items the step holds for each Force on the map (its activation; its Attrition after a
    /// second activation), each when its own condition holds for that Force.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_force: Vec<PerForce>,
    /// An alternative entered only by choice (a Major Battle, a Skirmish, a Siege), from a step
    /// that offers it in `enter`; `next` never walks into it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub branch: bool,
    /// Steps the umpire may go to from here: branches ("Fight a Major Battle") or an earlier
    /// step to repeat ("Then a new round from Step 6-a").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub enter: Vec<String>,
    /// Its sub-steps repeat while this cup or deck still holds something (Gradisca's Command
    /// markers): `next` from its last sub-step goes back to its first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat_until_empty: Option<String>,
    /// The game stops here even with nothing to resolve (table work the umpire must see).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stop: bool,
    /// The victory conditions are judged here (ailsh E, the Interphase's C; Gradisca's end of
    /// game check).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub victory: bool,
    /// Only at the end of the scenario (after its last turn), never between turns.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub scenario_end: bool,
    /// Sub-steps.
    pub steps: Vec<Step>,
    /// The battle a branch fights.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub battle: Option<BattleBranch>,
    /// The battle's result is known at this step.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub battle_result: bool,
    /// Status markers that come off every counter when the game arrives here.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clears: Vec<String>,
    /// Attributes set back when the game arrives here, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resets: Vec<Reset>,
}

/// An attribute set back on arriving at a step (on every counter that has it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reset {
    /// The attribute.
    pub attribute: String,
    /// Its value after.
    pub to: Value,
    /// A value kept as a flag: (value, flag attribute).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep: Option<(String, String)>,
}

/// The battle a branch of the Sequence of Play fights.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BattleBranch {
    /// Its kind (`major_battle`), as a battle won records it.
    pub kind: String,
    /// Its name in words ("Major Battle").
    pub name: String,
    /// Where its winner shows: (procedure, role) — the side of the counters in that role of
    /// that procedure resolved in the branch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<(String, String)>,
}

/// When a step, or an item it holds for a Force, applies: every clause given must hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct StepCondition {
    /// Turns a scenario schedule of this procedure names (the Administrative Points turns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,
    /// Opposing Forces in contact (true) or none (false): same hex or adjacent hexes on a hex
    /// map, the same area on an area map. For a Force's item: that Force.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact: Option<bool>,
    /// An optional rule that must be in play in this game (its number as printed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optional: Option<String>,
    /// A status some counter on the map has (for a Force's item: one of its counters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// A procedure resolved at least `times` times this turn (for a Force's item: with the
    /// Force among the counters involved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved: Option<ResolvedTimes>,
    /// The Force's Order is one of these (a Force's item only; its Capitano's `order`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<String>,
    /// Rulings set to these options in this game (Gradisca's `game: advanced`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub ruling: BTreeMap<String, String>,
}

/// A procedure resolved a number of times this turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResolvedTimes {
    /// The procedures that count (any of them).
    pub procedures: Vec<String>,
    /// How many times, at least.
    pub times: u32,
    /// Only resolutions whose applied result put this status on the Force.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marked: Option<String>,
}

/// An item a step holds for each Force.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PerForce {
    /// The procedure to resolve for the Force.
    pub procedure: String,
    /// Done only for the Force the procedure's applied result put this status on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marked: Option<String>,
    /// Done when the Force fought a battle this turn (or skipped: it renounced).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub battle: bool,
    /// Its label before the Force's name, if not the procedure's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Whether `next` waits for it (resolved for the Force, or skipped with a reason).
    pub mandatory: bool,
    /// When it applies to a Force; None: to every Force.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<StepCondition>,
    /// Rule reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Inputs of the procedure the item implies (why the Force checks: after a second
    /// activation), each checked against the procedure's input: what opening the item fills in.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, Value>,
}

/// An optional rule the umpire may put in play for a game (its steps apply only then).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OptionalRule {
    /// Its number as printed ("18.4").
    pub id: String,
    /// Its name as printed ("Interphase Turn").
    pub name: String,
    /// Where the text extraction has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// A reading of an ambiguous rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RulingOption {
    /// Id.
    pub id: String,
    /// What it means.
    pub text: String,
}

/// A ruling the umpire can switch; expressions read it as `ruling_<id>`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ruling {
    /// Id.
    pub id: String,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// The ambiguity.
    pub text: String,
    /// The readings.
    pub options: Vec<RulingOption>,
    /// The reading in force.
    pub selected: String,
}
