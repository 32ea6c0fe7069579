//! The sheets an organiser fills in, and their columns: a few of the import's own (an id, a
//! name, the state a piece belongs to, where it is), then the ruleset's declared attributes
//! by their names — any attribute the ruleset declares may be a column.

use crate::game::scenario::Scenario;
use crate::rules::{AttributeKind, AttributeSpec, Ruleset};

/// What a sheet's rows are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetKind {
    /// A megagame's states and their ledgers (`states.csv`).
    States,
    /// A megagame's ledger cards, a row a state (`cards.csv`).
    Cards,
    /// The scenario's characters (leaders): age, religion, the person playing (`characters.csv`).
    Characters,
    /// Map areas (`areas.csv`), counters of kind `area`.
    Areas,
    /// Cities (`cities.csv`), counters of kind `city`.
    Cities,
    /// Armies (`armies.csv`), counters of kind `army`.
    Armies,
    /// Fleets (`fleets.csv`), counters of kind `fleet`.
    Fleets,
    /// Any game: counters with side, type, position and strength (`counters.csv`).
    Counters,
    /// The values printed on the counters that the text does not give, a row for each name
    /// the counters print (`counter_values.csv`).
    CounterValues,
}

/// A column of the import's own (not a ruleset attribute).
#[derive(Debug, Clone, Copy)]
pub struct Fixed {
    /// The header.
    pub name: &'static str,
    /// Whether every row must fill it.
    pub required: bool,
    /// What it holds, for the README.
    pub meaning: &'static str,
}

const fn col(name: &'static str, required: bool, meaning: &'static str) -> Fixed {
    Fixed {
        name,
        required,
        meaning,
    }
}

const ID: Fixed = col(
    "id",
    false,
    "A short id, unique in the set-up (letters, digits, `-`, `_`); made from the name when empty.",
);
const SIDE: Fixed = col(
    "side",
    false,
    "The team (a side of the scenario, by id or name); empty: the first team of its state.",
);
const NOTE: Fixed = col("note", false, "A note for Control, kept with the piece.");

impl SheetKind {
    /// Every kind, in the order the import reads them (states before the pieces that name them).
    pub const ALL: [SheetKind; 9] = [
        SheetKind::States,
        SheetKind::Cards,
        SheetKind::Characters,
        SheetKind::Areas,
        SheetKind::Cities,
        SheetKind::Armies,
        SheetKind::Fleets,
        SheetKind::Counters,
        SheetKind::CounterValues,
    ];

    /// The file name.
    pub fn file(self) -> &'static str {
        match self {
            SheetKind::States => "states.csv",
            SheetKind::Cards => "cards.csv",
            SheetKind::Characters => "characters.csv",
            SheetKind::Areas => "areas.csv",
            SheetKind::Cities => "cities.csv",
            SheetKind::Armies => "armies.csv",
            SheetKind::Fleets => "fleets.csv",
            SheetKind::Counters => "counters.csv",
            SheetKind::CounterValues => "counter_values.csv",
        }
    }

    /// The `unit_kind` value of its counters (army, fleet, city, area), if its rows are pieces.
    pub fn unit_kind(self) -> Option<&'static str> {
        match self {
            SheetKind::Areas => Some("area"),
            SheetKind::Cities => Some("city"),
            SheetKind::Armies => Some("army"),
            SheetKind::Fleets => Some("fleet"),
            _ => None,
        }
    }

    /// The columns of the import's own.
    pub fn fixed(self) -> Vec<Fixed> {
        match self {
            SheetKind::States => vec![
                col(
                    "id",
                    true,
                    "The state's id (`france`): armies' `country` and areas' `owner` name it. A new id adds a state.",
                ),
                col(
                    "name",
                    false,
                    "The state's name as printed; required for a new state.",
                ),
                col(
                    "teams",
                    false,
                    "The teams (sides) it belongs to, by id or name, separated by commas; empty for a non-played state.",
                ),
                col(
                    "table",
                    false,
                    "The map table where its revenue is played (id or name).",
                ),
                col(
                    "played",
                    false,
                    "yes or no: played by a team (no: a non-played state).",
                ),
                NOTE,
            ],
            SheetKind::Cards => vec![col(
                "state",
                true,
                "The state (id or name) whose ledger holds the cards.",
            )],
            SheetKind::Characters => vec![
                col(
                    "id",
                    true,
                    "The character's id in the scenario (`henry-viii`).",
                ),
                col(
                    "name",
                    false,
                    "The character's name as printed (changes it when different).",
                ),
                col(
                    "player",
                    false,
                    "The person playing the character (the cast sheet prints it).",
                ),
            ],
            SheetKind::Counters => vec![
                ID,
                col("name", true, "The counter's name as printed."),
                col("side", true, "Its side (id or name)."),
                col("kind", false, "unit (the default), leader or marker."),
                col(
                    "position",
                    true,
                    "Where it is: a hex id (`0114`), an area's name, or `off map: …` with the place.",
                ),
                NOTE,
            ],
            SheetKind::CounterValues => vec![
                col(
                    "name",
                    true,
                    "The name the counters print (`French Gendarmes`, a Capitano's name), any case: the row's values go on every counter of that name.",
                ),
                col(
                    "kind",
                    false,
                    "unit (the default) or leader: which counters of that name.",
                ),
                col(
                    "with",
                    false,
                    "Only those of the name that have these values: `nationality=french, unit_type=heavy_cavalry`.",
                ),
            ],
            _ => self.fixed_pieces(),
        }
    }

    /// The columns of the import's own for areas, cities, armies and fleets.
    fn fixed_pieces(self) -> Vec<Fixed> {
        let state = |meaning| col("country", true, meaning);
        match self {
            SheetKind::Areas => vec![
                ID,
                col(
                    "name",
                    true,
                    "The area's name as on the map: armies, fleets and cities name it in their `area` column.",
                ),
                col(
                    "owner",
                    false,
                    "The state (id or name) that owns it; empty for a sea area (then give `side`).",
                ),
                SIDE,
                NOTE,
            ],
            SheetKind::Cities => vec![
                ID,
                col("name", true, "The city's name as on the map."),
                col(
                    "area",
                    true,
                    "The area it is in (a row of areas.csv, by id or name).",
                ),
                col(
                    "owner",
                    false,
                    "The state (id or name) that holds it; empty: the owner of its area.",
                ),
                SIDE,
                NOTE,
            ],
            SheetKind::Armies => vec![
                ID,
                col(
                    "name",
                    true,
                    "The army's name (its commander's, or its counter's).",
                ),
                state("The state (id or name) whose army it is."),
                col(
                    "area",
                    true,
                    "The area it stands in (a row of areas.csv, by id or name).",
                ),
                SIDE,
                NOTE,
            ],
            SheetKind::Fleets => vec![
                ID,
                col("name", true, "The fleet's name."),
                state("The state (id or name) whose fleet it is."),
                col(
                    "area",
                    true,
                    "The sea area or port it is in (a row of areas.csv, by id or name).",
                ),
                SIDE,
                NOTE,
            ],
            _ => Vec::new(),
        }
    }

    /// The ruleset attributes its template offers as columns (those the ruleset declares).
    pub fn suggested(self) -> &'static [&'static str] {
        match self {
            SheetKind::States => &["treasury", "national_debt", "unrest_index", "religion"],
            SheetKind::Cards => &[
                "subsidy_cards",
                "exaction_cards",
                "loan_cards",
                "persuasion_cards",
                "revenue_cards",
            ],
            SheetKind::Characters => &[
                "age",
                "born",
                "sex",
                "religion",
                "may_change_religion",
                "spouse",
                "heir",
            ],
            SheetKind::Areas => &[
                "map_table",
                "home_area",
                "religion",
                "religious_minority",
                "lutheranism_established",
                "conversion_region",
                "in_revolt",
            ],
            SheetKind::Cities => &[
                "map_table",
                "fortification",
                "imperial_free_city",
                "port",
                "strength_thousands",
            ],
            SheetKind::Armies => &[
                "map_table",
                "strength_thousands",
                "nationality",
                "commander",
                "arrears",
                "fatigue",
            ],
            SheetKind::Fleets => &[
                "map_table",
                "strength_thousands",
                "fleet_quality",
                "in_port",
                "damaged",
            ],
            SheetKind::Counters | SheetKind::CounterValues => &[],
        }
    }

    /// The attributes its rows set: leaders' for characters, units' for the rest.
    pub fn specs(self, ruleset: &Ruleset) -> &[AttributeSpec] {
        if self == SheetKind::Characters {
            &ruleset.leaders
        } else {
            &ruleset.units
        }
    }

    /// The attribute columns of its template, for a ruleset: the suggested ones it declares;
    /// for `counters.csv`, `type` and `strength` when the ruleset names those attributes.
    pub fn attribute_columns(self, ruleset: &Ruleset) -> Vec<String> {
        if self == SheetKind::Counters {
            let mut out = Vec::new();
            if ruleset.type_attribute.is_some() {
                out.push("type".to_string());
            }
            if ruleset.strength_attribute.is_some() {
                out.push("strength".to_string());
            }
            return out;
        }
        self.suggested()
            .iter()
            .filter(|n| self.specs(ruleset).iter().any(|s| s.name == **n))
            .map(|n| (*n).to_string())
            .collect()
    }
}

/// The sheets a scenario takes: a megagame whose ruleset types its pieces by `unit_kind`
/// (army, fleet, city, area) takes the briefing pack's sheets; any other, `counters.csv`, and
/// `counter_values.csv` when its counters leave values to what they print.
pub fn kinds_for(scenario: &Scenario, ruleset: &Ruleset) -> Vec<SheetKind> {
    let typed = ruleset.type_attribute.as_deref().and_then(|t| {
        ruleset
            .units
            .iter()
            .find(|s| s.name == t)
            .map(|s| match &s.kind {
                AttributeKind::Choice { choices } => ["army", "fleet", "city", "area"]
                    .iter()
                    .all(|k| choices.iter().any(|c| c == k)),
                _ => false,
            })
    });
    if scenario.megagame.is_some() && typed == Some(true) {
        // The briefing pack's sheets give its pieces' and characters' values.
        SheetKind::ALL[..7].to_vec()
    } else if super::counter_values::wanted(scenario) {
        vec![SheetKind::Counters, SheetKind::CounterValues]
    } else {
        vec![SheetKind::Counters]
    }
}
