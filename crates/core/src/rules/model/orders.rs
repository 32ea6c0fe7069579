//! Sealed orders, validated ([`crate::rules::raw::RawOrderKind`]): which steps take written
//! orders, from whom, what each holds, what a late one does, and when each is revealed and to
//! whom. What the scenario supplies to a form (its Forces, areas) is `game::orders`.

use super::*;

/// Who hands an order in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderFrom {
    /// A side.
    Side,
    /// A megagame team (a scenario side).
    Team,
    /// The player who commands an army.
    ArmyCommander,
}

impl OrderFrom {
    /// In words.
    pub fn words(self) -> &'static str {
        match self {
            OrderFrom::Side => "each side",
            OrderFrom::Team => "each team",
            OrderFrom::ArmyCommander => "each army's commander",
        }
    }
}

/// A condition on one counter's attribute.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterTest {
    /// The attribute.
    pub attribute: String,
    /// The value it must have.
    pub is: Value,
}

/// What an order has one entry for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderEach {
    /// Each Force of the side.
    Force,
    /// Each counter of the side that matches.
    Counter(CounterTest),
}

/// What makes a Force pay from one cost column (all must hold; empty: always).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ForceTest {
    /// A leader of the Force has this value.
    pub leader: Option<CounterTest>,
    /// Every unit of the Force has this value.
    pub all_units: Option<CounterTest>,
    /// The Force's strength is this.
    pub strength: Option<i64>,
    /// Rulings whose option in force must be the one given (id, option).
    pub rulings: Vec<(String, String)>,
}

/// One cost column and when a Force pays from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CostColumn {
    /// The column's key.
    pub column: String,
    /// When.
    pub when: ForceTest,
}

/// What each choice of a table row costs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderCost {
    /// What it is paid in ("AP").
    pub unit: String,
    /// The columns, first match first.
    pub columns: Vec<CostColumn>,
}

/// A restriction on one choice, in words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderRestriction {
    /// The choice (row key or option id).
    pub choice: String,
    /// What the rules say.
    pub text: String,
    /// The rule.
    pub rule: String,
    /// Where the text extraction has it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// One option of a choice field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderOption {
    /// Id.
    pub id: String,
    /// As printed.
    pub label: String,
}

/// What a field holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum OrderFieldKind {
    /// A row of a table, with its cost.
    TableRow {
        /// The table id.
        table: String,
        /// The cost, if the table gives one.
        cost: Option<OrderCost>,
    },
    /// One of the options.
    Choice {
        /// The options.
        options: Vec<OrderOption>,
    },
    /// Areas moved through, at most `max`.
    Areas {
        /// The most.
        max: u32,
        /// The counters that are areas, besides the gazetteer.
        area_counters: Option<CounterTest>,
    },
    /// A box ticked or not.
    Flag,
}

/// One thing an order holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderField {
    /// Id.
    pub id: String,
    /// In the game's words.
    pub label: String,
    /// What it holds.
    pub kind: OrderFieldKind,
    /// Restrictions on single choices.
    pub restrictions: Vec<OrderRestriction>,
    /// The rule.
    pub rule: String,
    /// Where the text extraction has it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// Help.
    pub help: Option<String>,
}

/// What the rules do with a late order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LateOrderKind {
    /// Whoever is not ready misses the step.
    MissesStep,
    /// The text says nothing.
    NotStated,
}

/// A late order: the rules' consequence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LateOrder {
    /// Which.
    pub kind: LateOrderKind,
    /// What the text says.
    pub text: String,
    /// The rule.
    pub rule: String,
    /// Where the text extraction has it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// To whom an order is revealed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderRevealTo {
    /// These Control roles.
    Control(Vec<String>),
    /// The other sides or teams.
    Others,
}

/// When an order is revealed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderRevealAt {
    /// When the step it is due at begins.
    StepStart,
    /// As it is carried out.
    AsCarriedOut,
    /// At these steps.
    Steps(Vec<String>),
    /// When these visibility entries show it.
    Visibility(Vec<String>),
}

/// When an order is revealed, and to whom.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderReveal {
    /// To whom.
    pub to: OrderRevealTo,
    /// When.
    pub at: OrderRevealAt,
    /// Where it comes from.
    pub from: SightSource,
}

/// One kind of written order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderKind {
    /// Id.
    pub id: String,
    /// In the game's words.
    pub name: String,
    /// The rule.
    pub rule: String,
    /// Where the text extraction has it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// What the rules say.
    pub text: String,
    /// The steps it is due at.
    pub steps: Vec<String>,
    /// Who hands it in.
    pub from: OrderFrom,
    /// What it has one entry for.
    pub each: OrderEach,
    /// What each entry holds.
    pub fields: Vec<OrderField>,
    /// What a late one does.
    pub late: LateOrder,
    /// When it is revealed, and to whom.
    pub reveals: Vec<OrderReveal>,
    /// Notes.
    pub notes: Option<String>,
}

impl OrderKind {
    /// A field by id.
    pub fn field(&self, id: &str) -> Option<&OrderField> {
        self.fields.iter().find(|f| f.id == id)
    }
}

impl Ruleset {
    /// The written orders due at a step of the Sequence of Play.
    pub fn orders_due(&self, step: &str) -> Vec<&OrderKind> {
        self.orders
            .iter()
            .filter(|o| o.steps.iter().any(|s| s == step))
            .collect()
    }

    /// A kind of order by id.
    pub fn order_kind(&self, id: &str) -> Option<&OrderKind> {
        self.orders.iter().find(|o| o.id == id)
    }
}
