//! Sealed orders, as written: a ruleset's `orders:` — which steps of the Sequence of Play take
//! written orders, from whom, what each holds, what the rules do with a late one, and when each
//! is revealed and to whom. Only what the rule text gives: a ruleset whose text has no written
//! orders declares none.

use schemars::JsonSchema;
use serde::Deserialize;

use super::RawScalar;
use crate::schema::fields::Identifier;

/// Who hands an order in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "OrderFrom")]
pub enum RawOrderFrom {
    /// A side (a player of a two-player game).
    Side,
    /// A megagame team (the scenario's sides are its teams).
    Team,
    /// The player who commands an army (rr3: "Those players who command armies").
    ArmyCommander,
}

/// What an order has one entry for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "OrderEach")]
pub enum RawOrderEach {
    /// Each Force of the side (the scenario's Forces).
    Force,
    /// Each counter of the side matching `each_counter` (an army).
    Counter,
}

/// A condition on a counter's attribute: `{attribute: unit_kind, is: army}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderCounterTest")]
pub struct RawOrderCounterTest {
    /// A unit attribute of the ruleset.
    #[schemars(with = "Identifier")]
    pub attribute: String,
    /// The value it must have.
    pub is: RawScalar,
}

/// What makes a Force pay from one column of the cost table (every key given must hold; none:
/// always).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderForceTest")]
pub struct RawOrderForceTest {
    /// A leader of the Force has this attribute value (`{attribute: capitano_generale, is:
    /// true}`: a Major Force).
    #[serde(default)]
    pub leader: Option<RawOrderCounterTest>,
    /// Every unit of the Force has this attribute value (only Light Cavalry).
    #[serde(default)]
    pub all_units: Option<RawOrderCounterTest>,
    /// The Force's strength (the ruleset's `strength_attribute`, summed over its units) is
    /// this.
    #[serde(default)]
    pub strength: Option<i64>,
    /// Rulings whose reading in force must be the one given (`{major_order_costs:
    /// l475_example}`).
    #[serde(default)]
    pub ruling: Option<std::collections::BTreeMap<String, String>>,
}

/// One column of the cost table and when a Force pays from it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderCostColumn")]
pub struct RawOrderCostColumn {
    /// The column's key in the table.
    pub column: String,
    /// When a Force pays from it; without it, always (the last entry).
    #[serde(default)]
    pub when: Option<RawOrderForceTest>,
}

/// What each choice costs: a column of the choices' table, the first whose `when` holds for
/// the Force.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderCost")]
pub struct RawOrderCost {
    /// What the cost is paid in, as the text says it ("AP").
    pub unit: String,
    /// The whole-number unit attribute of the side's marker the reveal pays the costs from
    /// (`administrative_points`: the Army's AP marker); without it they are paid by hand.
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub paid_from: Option<String>,
    /// The columns, first match first.
    pub columns: Vec<RawOrderCostColumn>,
}

/// A restriction the rules put on one choice, in words (the umpire judges it).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderRestriction")]
pub struct RawOrderRestriction {
    /// The choice (a row key of the table, or an option id).
    pub choice: String,
    /// What the rules say, in short.
    pub text: String,
    /// The rule, as the rulebook numbers or names it.
    pub rule: String,
    /// The lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// When the game can tell the choice is not allowed: the hand-in (phone, desk, command
    /// line) refuses it for that Force with the rule's words. Without it the restriction is
    /// shown on the form and left to the umpire.
    #[serde(default)]
    pub refused_if: Option<RawRestrictionTest>,
}

/// What the game reads on the table to refuse a restricted choice (every condition given must
/// hold for the refusal).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "RestrictionTest")]
pub struct RawRestrictionTest {
    /// The Force does not stand in a place of one of these kinds (ailsh 5.3: a Garrison only
    /// in a Town, City or Fortress hex).
    #[serde(default)]
    pub not_in: Vec<super::setup::RawPlaceKind>,
    /// Half or more of the Force's combat units carry this status (ailsh 5.3: no Attack with
    /// half or more Demoralised).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub half_with_status: Option<String>,
    /// The counter was put on the table in this phase of this turn (rr3: an army raised this
    /// phase may not move).
    #[serde(default)]
    pub raised_this_phase: bool,
}

/// One option of a `choice` field.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderOption")]
pub struct RawOrderOption {
    /// Id, unique in the field.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// The words the rules print.
    pub label: String,
    /// The most areas the option moves (`0`: it stays), when the text says: a card naming
    /// more is refused.
    #[serde(default)]
    pub moves: Option<u32>,
    /// The row of the order's `carry_out.table` this option reads (rr3 `move_2` of
    /// `movement_options`).
    #[serde(default)]
    pub row: Option<String>,
}

/// How a revealed order is carried out on the table: one item a counter at the step it is
/// revealed, recorded as one entry — the counter goes to the last area its `along` field
/// names, the number named goes into `counts_in`, and the option chosen changes an attribute
/// by a cell of a table.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderCarryOut")]
pub struct RawOrderCarryOut {
    /// The `choice` field whose option is carried out (rr3's Move).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub option: Option<String>,
    /// The `areas` field the counter moves along (to the last area named).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub along: Option<String>,
    /// The whole-number unit attribute that takes the number of areas named
    /// (`areas_moved_this_step`).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub counts_in: Option<String>,
    /// The table whose row (the option's `row`) and column give the change of an attribute
    /// (`{table: movement_options, column: fatigue_change, attribute: fatigue}`).
    #[serde(default)]
    pub table: Option<RawOrderCarryTable>,
    /// The rule, as the rulebook numbers or names it.
    pub rule: String,
    /// The lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// A change read off a table's cell: `+1`, `0` or `-1` added to a whole-number attribute,
/// never below its minimum ("remove 1 Fatigue marker" when there is one).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderCarryTable")]
pub struct RawOrderCarryTable {
    /// The table.
    #[schemars(with = "Identifier")]
    pub table: String,
    /// The column that holds the change.
    pub column: String,
    /// The whole-number unit attribute it changes.
    #[schemars(with = "Identifier")]
    pub attribute: String,
}

/// What kind of value a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "OrderFieldKind")]
pub enum RawOrderFieldKind {
    /// One row of a table (`table:`), with its cost (`cost:`).
    TableRow,
    /// One of `options:`.
    Choice,
    /// Areas moved through, by name, at most `max`.
    Areas,
    /// A box ticked or not.
    Flag,
}

/// One thing an order holds.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderField")]
pub struct RawOrderField {
    /// Id, unique in the order.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name in the game's words ("Order", "Intention to engage").
    pub label: String,
    /// `table_row`, `choice`, `areas` or `flag`.
    pub kind: RawOrderFieldKind,
    /// `table_row`: the table whose rows are the choices (`orders`).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub table: Option<String>,
    /// `table_row`: what each choice costs, from the table's columns.
    #[serde(default)]
    pub cost: Option<RawOrderCost>,
    /// `choice`: the options, as printed.
    #[serde(default)]
    pub options: Vec<RawOrderOption>,
    /// `areas`: the most areas one order names.
    #[serde(default)]
    pub max: Option<u32>,
    /// `areas`: the counters that are areas (`{attribute: unit_kind, is: area}`), besides the
    /// ruleset's gazetteer.
    #[serde(default)]
    pub area_counters: Option<RawOrderCounterTest>,
    /// Restrictions on single choices, in words.
    #[serde(default)]
    pub restrictions: Vec<RawOrderRestriction>,
    /// Every entry must hold it when its counter has none (`sets` unset or `none`): ailsh 5.2
    /// "a Force may never remain without [an Order]".
    #[serde(default)]
    pub required: bool,
    /// The leader attribute the revealed choice is put on (`order`: the Order marker on the
    /// Force's Primo Capitano); without it the choice stays on the card.
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub sets: Option<String>,
    /// The rule, as the rulebook numbers or names it.
    pub rule: String,
    /// The lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// Help shown with the field.
    #[serde(default)]
    pub help: Option<String>,
}

/// What the rules do with an order not ready in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "LateOrderKind")]
pub enum RawLateOrderKind {
    /// Whoever is not ready misses the step (rr3).
    MissesStep,
    /// The text sets no deadline and says nothing of a late order.
    NotStated,
}

/// A late order: the rules' own consequence.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "LateOrder")]
pub struct RawLateOrder {
    /// `misses_step` or `not_stated`.
    pub kind: RawLateOrderKind,
    /// What the text says (or that it says nothing), in short.
    pub text: String,
    /// The rule, as the rulebook numbers or names it.
    pub rule: String,
    /// The lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// To whom an order is revealed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "OrderRevealTo")]
pub enum RawOrderRevealTo {
    /// Control (the roles in `roles:`).
    Control,
    /// The other sides or teams.
    Others,
}

/// When an order is revealed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "OrderRevealAt")]
pub enum RawOrderRevealAt {
    /// When the step it is due at begins.
    StepStart,
    /// As it is carried out (the moves on the map).
    AsCarriedOut,
    /// At the steps in `steps:`.
    Steps,
    /// When the visibility entries in `visibility:` show it.
    Visibility,
}

/// When an order is revealed, and to whom.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderReveal")]
pub struct RawOrderReveal {
    /// `control` or `others`.
    pub to: RawOrderRevealTo,
    /// `to: control`: the Control roles (`map`).
    #[serde(default)]
    pub roles: Vec<String>,
    /// `step_start`, `as_carried_out`, `steps` or `visibility`.
    pub at: RawOrderRevealAt,
    /// `at: steps`: the Sequence-of-Play steps.
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub steps: Vec<String>,
    /// `at: visibility`: the ids of entries of the `visibility:` section.
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub visibility: Vec<String>,
    /// What the rules say, in short.
    pub text: String,
    /// The rule, as the rulebook numbers or names it.
    pub rule: String,
    /// The lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// How an ambiguity was read.
    #[serde(default)]
    pub ruling: Option<String>,
}

/// One kind of written order the rules call for.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "OrderKind")]
pub struct RawOrderKind {
    /// Id, unique among the orders.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name in the game's words ("Orders", "Intention Card").
    pub name: String,
    /// The rule, as the rulebook numbers or names it (not a line of the text).
    pub rule: String,
    /// The lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// What the rules say, in short.
    pub text: String,
    /// The Sequence-of-Play steps at which the orders are due.
    #[schemars(with = "Vec<Identifier>")]
    pub steps: Vec<String>,
    /// Who hands them in: `side`, `team` or `army_commander`.
    pub from: RawOrderFrom,
    /// What an order has one entry for: `force` or `counter`.
    pub each: RawOrderEach,
    /// `each: counter`: which counters (`{attribute: unit_kind, is: army}`).
    #[serde(default)]
    pub each_counter: Option<RawOrderCounterTest>,
    /// What each entry holds.
    pub fields: Vec<RawOrderField>,
    /// What the rules do with a late order.
    pub late: RawLateOrder,
    /// When it is revealed, and to whom.
    pub reveal: Vec<RawOrderReveal>,
    /// How the revealed order is carried out on the table (rr3's Intention Card: the army
    /// moves along its areas, its Fatigue changes by its option).
    #[serde(default)]
    pub carry_out: Option<RawOrderCarryOut>,
    /// What the text leaves out.
    #[serde(default)]
    pub notes: Option<String>,
}
