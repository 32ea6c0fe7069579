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
    /// The unit attribute of the side's marker the reveal pays from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paid_from: Option<String>,
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
    /// When the game refuses it at the hand-in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused_if: Option<RestrictionTest>,
}

/// What the game reads on the table to refuse a restricted choice (all that are given hold).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct RestrictionTest {
    /// The Force stands in no place of these kinds.
    pub not_in: Vec<PlaceKind>,
    /// Half or more of the Force's combat units carry this status.
    pub half_with_status: Option<String>,
    /// The counter was put on the table in this phase of this turn.
    pub raised_this_phase: bool,
}

/// One option of a choice field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderOption {
    /// Id.
    pub id: String,
    /// As printed.
    pub label: String,
    /// The most areas it moves, when the text says (0: it stays).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
    /// The row of the order's carry-out table it reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<String>,
}

/// How a revealed order is carried out on the table, one item a counter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CarryOut {
    /// The choice field whose option is carried out.
    pub option: Option<String>,
    /// The areas field the counter moves along.
    pub along: Option<String>,
    /// The attribute that takes the number of areas named.
    pub counts_in: Option<String>,
    /// The table cell that changes an attribute: (table, column, attribute).
    pub table: Option<(String, String, String)>,
    /// The rule.
    pub rule: String,
    /// Where the text extraction has it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
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
    /// Every entry holds it when its counter has none.
    pub required: bool,
    /// The leader attribute the revealed choice is put on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sets: Option<String>,
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
    /// How it is carried out on the table once revealed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carry_out: Option<CarryOut>,
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

/// The names of the steps from the top of the Sequence of Play down to `id`.
fn step_path<'a>(steps: &'a [Step], id: &str, out: &mut Vec<&'a str>) -> bool {
    for s in steps {
        out.push(&s.name);
        if s.id == id || step_path(&s.steps, id, out) {
            return true;
        }
        out.pop();
    }
    false
}

impl Ruleset {
    /// A step of the Sequence of Play in words: its name under its phase's and segment's
    /// ("B) Command Phase › 2. Organization Segment › d. Issue or re-issue Orders").
    pub fn step_words(&self, id: &str) -> String {
        let mut path = Vec::new();
        if step_path(&self.sequence_of_play, id, &mut path) {
            path.join(" › ")
        } else {
            id.to_string()
        }
    }

    /// A declared order in the game's words, a line each: what it is, when it is due, from
    /// whom, what it holds, what a late one does and when it is revealed (rule numbers as the
    /// rulebook prints them; no ids).
    pub fn order_words(&self, kind: &OrderKind) -> Vec<String> {
        let mut out = vec![format!("{} ({})", kind.name, kind.rule), kind.text.clone()];
        for s in &kind.steps {
            out.push(format!("Due at: {}", self.step_words(s)));
        }
        let each = match &kind.each {
            OrderEach::Force => "one entry for each of its Forces".to_string(),
            OrderEach::Counter(t) => {
                let label = self
                    .units
                    .iter()
                    .find(|a| a.name == t.attribute)
                    .map_or(t.attribute.as_str(), |a| a.label.as_str());
                format!("one entry for each of its counters with {label}: {}", t.is)
            }
        };
        out.push(format!("From: {}, {each}", kind.from.words()));
        for f in &kind.fields {
            out.push(format!(
                "Holds: {} — {} ({})",
                f.label,
                self.field_words(f),
                f.rule
            ));
            for r in &f.restrictions {
                out.push(format!("  {} ({})", r.text, r.rule));
            }
        }
        let late = match kind.late.kind {
            LateOrderKind::MissesStep => "misses the step",
            LateOrderKind::NotStated => "not stated by the rules",
        };
        out.push(format!(
            "A late order: {late} — {} ({})",
            kind.late.text, kind.late.rule
        ));
        for r in &kind.reveals {
            out.push(format!("Revealed: {}", self.reveal_words(r)));
        }
        if let Some(n) = &kind.notes {
            out.push(n.trim().to_string());
        }
        out
    }

    fn field_words(&self, f: &OrderField) -> String {
        match &f.kind {
            OrderFieldKind::TableRow { table, cost } => {
                let t = self.table(table);
                let title = t.map_or_else(|| table.clone(), |t| t.title.clone());
                let rows = t.map_or_else(String::new, |t| {
                    t.rows
                        .iter()
                        .map(|r| t.row_words(r))
                        .collect::<Vec<_>>()
                        .join(", ")
                });
                match cost {
                    Some(c) => format!(
                        "one of the {title} ({rows}), its cost in {} from the column of its kind of Force",
                        c.unit
                    ),
                    None => format!("one of the {title} ({rows})"),
                }
            }
            OrderFieldKind::Choice { options } => format!(
                "one of: {}",
                options
                    .iter()
                    .map(|o| o.label.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            OrderFieldKind::Areas { max, .. } => format!("up to {max} areas, by name"),
            OrderFieldKind::Flag => "a box, ticked or not".to_string(),
        }
    }

    fn reveal_words(&self, r: &OrderReveal) -> String {
        let to = match &r.to {
            OrderRevealTo::Control(roles) if roles.is_empty() => "Control".to_string(),
            OrderRevealTo::Control(roles) => roles
                .iter()
                .map(|r| control_role_words(r))
                .collect::<Vec<_>>()
                .join(", "),
            OrderRevealTo::Others => "the others".to_string(),
        };
        let at = match &r.at {
            OrderRevealAt::StepStart => "when the step it is due at begins".to_string(),
            OrderRevealAt::AsCarriedOut => "as it is carried out".to_string(),
            OrderRevealAt::Steps(steps) => format!(
                "at {}",
                steps
                    .iter()
                    .map(|s| self.step_words(s))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            OrderRevealAt::Visibility(_) => "as the visibility rules show it".to_string(),
        };
        let mut s = format!(
            "to {to}, {at} — {} ({})",
            r.from.text.as_deref().unwrap_or(""),
            r.from.rule
        );
        if let Some(ruling) = &r.from.ruling {
            s.push_str(&format!(" Reading: {ruling}"));
        }
        s
    }
}

/// A Control role's name as the handbook prints it ([`REMIT_ROLES`] ids).
pub fn control_role_words(id: &str) -> &str {
    match id {
        "map" => "Map Control",
        "political" => "Political Control",
        "religious" => "Religious Control",
        "character" => "Character Control",
        "non_played_states" => "Non-played States",
        "game" => "Game Control",
        other => other,
    }
}
