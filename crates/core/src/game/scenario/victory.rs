//! A victory condition's structured part (the `check:` of a `victory:` item): when it is
//! evaluated, who wins, at what level, and the condition the engine reads off the game. The text
//! and the rule stay on the item; this is what `game::victory` evaluates.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// When a victory condition is evaluated.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum VictoryWhen {
    /// As soon as it holds (after any entry: a Major Battle won).
    Immediately,
    /// At the end of any turn (the Victory Phase), the last included.
    EndOfAnyTurn,
    /// At the end of the scenario only.
    EndOfScenario,
}

/// A victory condition's structured part, validated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VictoryCheck {
    /// When it is evaluated.
    pub when: VictoryWhen,
    /// Who wins when it holds: a side id, or None for each side in turn (the side the
    /// condition holds for; `winner` in the condition names it).
    pub winner: Option<String>,
    /// The level as printed ("Standard Victory"), if the text gives one.
    pub level: Option<String>,
    /// The result is a draw (no winner).
    pub draw: bool,
    /// The side may declare it but the game does not end by itself ("may declare").
    pub optional: bool,
    /// What must hold; None: nothing (a draw when nothing else holds).
    pub condition: Option<Condition>,
    /// An end-of-game procedure whose result raises the level.
    pub raise: Option<Raise>,
    /// Items this one replaces when both hold (a Strategic Victory over the Standard one).
    pub supersedes: Vec<String>,
}

/// An end-of-game die that raises the result a level (ailsh Scenario 5, the Duke of Albany).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Raise {
    /// The procedure rolled at the end.
    pub procedure: String,
    /// Its outcome that raises the level.
    pub outcome: String,
    /// Result item id → the item it becomes.
    pub steps: Vec<(String, String)>,
    /// The special rule whose condition the die needs (the Expedition of the Duke of Albany
    /// sent): the umpire judges it (`game judge`); without that judgement the die raises
    /// nothing and is not rolled.
    pub requires: Option<String>,
}

/// A place a condition names: its name as printed and where it is on the map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlaceRef {
    /// Name as printed ("Novara").
    pub name: String,
    /// Where.
    pub position: super::position::Position,
    /// Town or City, where the text says.
    pub kind: Option<crate::rules::PlaceKind>,
}

/// What a victory condition reads off the game. `by` is a side id, an army id, or `winner`
/// (the side being tested).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Condition {
    /// Every one holds.
    All(Vec<Condition>),
    /// At least one holds.
    Any(Vec<Condition>),
    /// It does not hold.
    Not(Box<Condition>),
    /// Places occupied by a Force of `by` (at least `at_least` of them, all by default);
    /// `unbesieged`: only a Force not Besieged counts.
    Occupied {
        /// Side or army.
        by: String,
        /// The places.
        places: Vec<PlaceRef>,
        /// How many must be (all when None).
        at_least: Option<usize>,
        /// Only an un-besieged Force counts.
        unbesieged: bool,
    },
    /// Places owned (14.1) by `by`, or Conquered by it (`conquered`), and not Besieged when
    /// `not_besieged`.
    Owned {
        /// Side.
        by: String,
        /// The places.
        places: Vec<PlaceRef>,
        /// How many must be (all when None).
        at_least: Option<usize>,
        /// Only Conquered places count (14.2–14.3).
        conquered: bool,
        /// A Besieged place does not count.
        not_besieged: bool,
    },
    /// A battle of a kind won by `by`.
    BattleWon {
        /// Side.
        by: String,
        /// Kind (`major_battle`).
        battle: String,
    },
    /// A Capitano killed or captured (his counter off the table).
    CapitanoLost {
        /// The Capitano's name as printed.
        capitano: String,
        /// His counters' ids.
        counters: Vec<String>,
    },
    /// Another victory item holds (a Strategic Victory needs the Standard one).
    Won {
        /// The item's id.
        item: String,
    },
    /// No other side wins.
    NoWinner,
    /// The scenario's end is being evaluated (not the end of any other turn).
    ScenarioEnd,
    /// The side with the most Victory Points (ties: no one).
    MostVictoryPoints {
        /// Places worth VP when owned and not Besieged (ailsh Scenario 4): a Town 1 VP, a City
        /// an end-of-game die (`city_procedure`).
        places: Vec<PlaceRef>,
        /// The procedure that gives a City's VP.
        city_procedure: Option<String>,
        /// A table of places occupied at the end: (place, side, VP) (Gradisca Rule 13).
        occupation: Vec<(PlaceRef, String, i64)>,
    },
    /// Something the engine cannot read off the counters: the umpire judges it.
    Umpire {
        /// What to judge, in words.
        text: String,
    },
}

/// The raw `check:` of a victory item.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "VictoryCheck")]
pub(crate) struct RawVictoryCheck {
    /// When it is evaluated.
    pub when: VictoryWhen,
    /// Who wins: a side id, or `each_side` (the side the condition holds for). Defaults to the
    /// item's `side`.
    #[serde(default)]
    pub winner: Option<String>,
    /// The level as printed ("Standard Victory").
    #[serde(default)]
    pub level: Option<String>,
    /// The result is a draw.
    #[serde(default)]
    pub draw: bool,
    /// The side may declare it; the game does not end by itself.
    #[serde(default)]
    pub optional: bool,
    /// What must hold (omit for a draw when nothing else holds).
    #[serde(default, rename = "if")]
    pub condition: Option<RawConditionOrWord>,
    /// An end-of-game procedure whose outcome raises the level.
    #[serde(default)]
    pub raise: Option<RawRaise>,
    /// Victory item ids this one replaces when both hold (a Strategic Victory over the
    /// Standard one); an item whose `if` has `won: X` replaces X already.
    #[serde(default)]
    pub supersedes: Vec<String>,
}

/// The raw level raise.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "VictoryRaise")]
pub(crate) struct RawRaise {
    /// The procedure's id.
    pub procedure: String,
    /// The outcome code that raises.
    pub outcome: String,
    /// Victory item id → the victory item id it becomes.
    pub steps: std::collections::BTreeMap<String, String>,
    /// The id of the special rule whose condition the die needs (the Expeditionary Force
    /// sent), which the umpire judges with `game judge`.
    #[serde(default)]
    pub requires: Option<String>,
}

/// Places held or occupied.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPlaces {
    /// Side, army, or `winner`.
    pub by: String,
    /// Place names as the map names them.
    pub places: Vec<String>,
    /// How many must be (all when omitted).
    #[serde(default)]
    pub at_least: Option<usize>,
    /// Only an un-besieged Force counts (occupied).
    #[serde(default)]
    pub unbesieged: bool,
    /// Only Conquered places count (owned).
    #[serde(default)]
    pub conquered: bool,
    /// A Besieged place does not count (owned).
    #[serde(default)]
    pub not_besieged: bool,
}

/// A battle won.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBattle {
    /// Side or `winner`.
    pub by: String,
    /// Kind of battle (`major_battle`).
    pub battle: String,
}

/// Victory Points.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawPoints {
    /// Places worth VP when owned and not Besieged: a Town 1 VP, a City the end-of-game die of
    /// `city_procedure`.
    #[serde(default)]
    pub places: Vec<String>,
    /// The procedure that gives a City's VP.
    #[serde(default)]
    pub city_procedure: Option<String>,
    /// A ruleset table of places occupied at the end (columns: side, vp).
    #[serde(default)]
    #[schemars(with = "Option<crate::schema::fields::Identifier>")]
    pub occupation_table: Option<String>,
}

/// The raw condition: exactly one of its fields.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "VictoryCondition", extend("minProperties" = 1, "maxProperties" = 1))]
pub(crate) struct RawCondition {
    /// Every one holds.
    #[serde(default)]
    pub all: Option<Vec<RawConditionOrWord>>,
    /// At least one holds.
    #[serde(default)]
    pub any: Option<Vec<RawConditionOrWord>>,
    /// It does not hold.
    #[serde(default)]
    pub not: Option<Box<RawConditionOrWord>>,
    /// Places occupied by a Force.
    #[serde(default)]
    pub occupied: Option<RawPlaces>,
    /// Places owned (14.1) or Conquered.
    #[serde(default)]
    pub owned: Option<RawPlaces>,
    /// A battle won.
    #[serde(default)]
    pub battle_won: Option<RawBattle>,
    /// A Capitano killed or captured (by name).
    #[serde(default)]
    pub capitano_lost: Option<String>,
    /// Another victory item holds (by id).
    #[serde(default)]
    pub won: Option<String>,
    /// The most Victory Points.
    #[serde(default)]
    pub most_victory_points: Option<RawPoints>,
    /// The umpire judges (words).
    #[serde(default)]
    pub umpire: Option<String>,
}

/// A condition, or one of the words `no_winner` (no other side wins) and `scenario_end` (the
/// scenario's end is being evaluated).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum RawConditionOrWord {
    /// A word.
    Word(String),
    /// A condition.
    Condition(RawCondition),
}
