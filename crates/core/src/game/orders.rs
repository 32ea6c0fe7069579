//! What a scenario supplies to the form of a written order the ruleset declares
//! ([`crate::rules::OrderKind`]): for one side, an entry for each of its Forces (or each of its
//! counters the order is for, an army), with the choices of each field — the rows of the table
//! with the cost the Force pays (the column its kind of Force reads) and the restrictions in the
//! rules' words, the options as printed, the areas by name.
//!
//! Read from the scenario's set-up (its Forces and counters at start); the live game's Forces
//! are for the hand-in itself.

use std::collections::BTreeMap;

use serde::Serialize;

use super::scenario::{CounterKind, CounterSpec, Scenario};
use super::state::GameState;
use crate::rules::{
    Cell, CounterTest, ForceTest, OrderCost, OrderEach, OrderField, OrderFieldKind, OrderKind,
    Ruleset, Table, Value,
};

/// The form of one kind of order for one side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderForm {
    /// The order kind's id.
    pub order: String,
    /// Its name in the game's words.
    pub name: String,
    /// The side (or team) whose form it is.
    pub side: String,
    /// One entry per Force (or counter) the order is for.
    pub entries: Vec<FormEntry>,
    /// The areas an `areas` field may name, by name, sorted.
    pub areas: Vec<String>,
}

/// Said of an `areas` field while the game knows no area of the map by name.
pub const AREAS_UNCHECKED: &str = "The game knows no area of the map by name yet (the organiser's \
     Gazetteer adds them: File › Import set-up…, or game add with --type area): the areas are \
     taken as written, and Map Control checks them at the table.";

impl OrderForm {
    /// [`AREAS_UNCHECKED`], when the form has an `areas` field and the game knows no area.
    pub fn areas_unchecked(&self) -> Option<&'static str> {
        let has_field = self
            .entries
            .iter()
            .flat_map(|e| &e.fields)
            .any(|f| matches!(f.input, FormInput::Areas { .. }));
        (has_field && self.areas.is_empty()).then_some(AREAS_UNCHECKED)
    }
}

/// One Force's (or counter's) part of the form.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormEntry {
    /// The Force's id (or the counter's).
    pub id: String,
    /// Its name as the table knows it: its Primo Capitano's (or first leader's) name, or the
    /// counter's.
    pub name: String,
    /// Where it is, in words.
    pub place: String,
    /// Its strength (the ruleset's strength attribute over its units), where known.
    pub strength: Option<i64>,
    /// The fields, with their choices for this entry.
    pub fields: Vec<FormField>,
    /// The counter a revealed choice is put on (a field's `sets`): the Force's Primo Capitano
    /// (or first leader), or the counter itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holder: Option<String>,
}

/// One field of an entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormField {
    /// The field's id.
    pub field: String,
    /// Its label.
    pub label: String,
    /// What is entered.
    pub input: FormInput,
    /// This entry must be given one (it holds none now and the rules require one).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
}

/// What is entered in a field.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FormInput {
    /// One of these.
    Choose {
        /// The choices.
        choices: Vec<FormChoice>,
        /// The heading of the cost column this entry reads, when a cost is declared.
        cost_column: Option<String>,
    },
    /// Up to `max` areas, of the form's `areas`.
    Areas {
        /// The most.
        max: u32,
    },
    /// A box.
    Flag,
}

/// One choice.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormChoice {
    /// Its id (a row key, an option id).
    pub id: String,
    /// Its words.
    pub label: String,
    /// Its cost, when a cost is declared.
    pub cost: Option<FormCost>,
    /// The rules' restrictions on it, in words with their rule.
    pub restrictions: Vec<String>,
    /// Why the table does not allow it for this Force now, when the game can tell
    /// ([`super::order_checks`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// A cost read off the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormCost {
    /// The amount, when the text gives it (None: "?", read it off the chart).
    pub amount: Option<i64>,
    /// The unit ("AP").
    pub unit: String,
}

impl FormCost {
    /// "1 AP", or "? AP" when the text does not give it.
    pub fn words(&self) -> String {
        match self.amount {
            Some(a) => format!("{a} {}", self.unit),
            None => format!("? {} (not in the text: read it off the chart)", self.unit),
        }
    }
}

/// The form of `kind` for `side` in `scenario`: its Forces (or counters) with their choices.
pub fn order_form(
    ruleset: &Ruleset,
    scenario: &Scenario,
    kind: &OrderKind,
    side: &str,
) -> Result<OrderForm, String> {
    if !scenario.sides.iter().any(|s| s.id == side) {
        return Err(format!(
            "the scenario has no side '{side}' — sides: {}",
            scenario
                .sides
                .iter()
                .map(|s| s.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let groups: Vec<(String, Vec<&CounterSpec>)> = match &kind.each {
        OrderEach::Force => scenario
            .forces
            .iter()
            .filter(|f| f.side == side)
            .map(|f| {
                let counters = scenario
                    .counters
                    .iter()
                    .filter(|c| c.force.as_deref() == Some(f.id.as_str()))
                    .collect();
                (f.id.clone(), counters)
            })
            .collect(),
        OrderEach::Counter(test) => scenario
            .counters
            .iter()
            .filter(|c| c.side == side && holds(c, test))
            .map(|c| (c.id.clone(), vec![c]))
            .collect(),
    };
    Ok(form_of(ruleset, scenario, None, kind, side, groups))
}

/// The form of `kind` for `side` in the game as it stands: its Forces (or counters) on the
/// table now, where they are now, with their strength now — what a side hands in at the step.
pub fn order_form_live(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    kind: &OrderKind,
    side: &str,
) -> Result<OrderForm, String> {
    if !scenario.sides.iter().any(|s| s.id == side) {
        return Err(format!("the scenario has no side '{side}'"));
    }
    let specs: Vec<CounterSpec> = state
        .counters
        .values()
        .filter(|c| c.side == side && c.removed.is_none())
        .map(|c| CounterSpec {
            id: c.id.clone(),
            name: c.name.clone(),
            printed: c.name.clone(),
            side: c.side.clone(),
            army: c.army.clone(),
            kind: c.kind,
            attributes: c.attributes.clone(),
            unknown: c.unknown.clone(),
            position: c.position.clone(),
            force: c.force.clone(),
        })
        .collect();
    let groups: Vec<(String, Vec<&CounterSpec>)> = match &kind.each {
        OrderEach::Force => {
            let mut forces: Vec<&str> = specs.iter().filter_map(|c| c.force.as_deref()).collect();
            forces.sort_unstable();
            forces.dedup();
            forces
                .into_iter()
                .map(|f| {
                    let counters = specs
                        .iter()
                        .filter(|c| c.force.as_deref() == Some(f))
                        .collect();
                    (f.to_string(), counters)
                })
                .collect()
        }
        OrderEach::Counter(test) => specs
            .iter()
            .filter(|c| holds(c, test))
            .map(|c| (c.id.clone(), vec![c]))
            .collect(),
    };
    Ok(form_of(ruleset, scenario, Some(state), kind, side, groups))
}

fn form_of(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: Option<&GameState>,
    kind: &OrderKind,
    side: &str,
    groups: Vec<(String, Vec<&CounterSpec>)>,
) -> OrderForm {
    let entries = groups
        .into_iter()
        .map(|(id, counters)| entry(ruleset, kind, id, &counters))
        .collect();
    OrderForm {
        order: kind.id.clone(),
        name: kind.name.clone(),
        side: side.to_string(),
        entries,
        areas: areas(ruleset, scenario, state, kind),
    }
}

fn entry(ruleset: &Ruleset, kind: &OrderKind, id: String, counters: &[&CounterSpec]) -> FormEntry {
    let leaders: Vec<&&CounterSpec> = counters
        .iter()
        .filter(|c| c.kind == CounterKind::Leader)
        .collect();
    let primo = leaders
        .iter()
        .find(|c| c.attributes.get("role") == Some(&Value::Text("primo_capitano".into())))
        .or(leaders.first());
    let name = primo
        .map(|c| c.name.clone())
        .or_else(|| counters.first().map(|c| c.name.clone()))
        .unwrap_or_else(|| id.clone());
    let place = counters
        .first()
        .map(|c| c.position.to_string())
        .unwrap_or_default();
    let strength = ruleset.strength_attribute.as_ref().map(|a| {
        counters
            .iter()
            .filter(|c| c.kind == CounterKind::Unit)
            .filter_map(|c| match c.attributes.get(a) {
                Some(Value::Int(i)) => Some(*i),
                _ => None,
            })
            .sum()
    });
    let fields = kind
        .fields
        .iter()
        .map(|f| form_field(ruleset, f, counters, strength))
        .collect();
    let holder = primo
        .map(|c| c.id.clone())
        .or_else(|| (counters.len() == 1).then(|| counters[0].id.clone()));
    FormEntry {
        id,
        name,
        place,
        strength,
        fields,
        holder,
    }
}

fn form_field(
    ruleset: &Ruleset,
    field: &OrderField,
    counters: &[&CounterSpec],
    strength: Option<i64>,
) -> FormField {
    let restrictions = |choice: &str| -> Vec<String> {
        field
            .restrictions
            .iter()
            .filter(|r| r.choice == choice)
            .map(|r| format!("{} ({})", r.text, r.rule))
            .collect()
    };
    let input = match &field.kind {
        OrderFieldKind::TableRow { table, cost } => {
            let Some(table) = ruleset.table(table) else {
                return FormField {
                    field: field.id.clone(),
                    label: field.label.clone(),
                    input: FormInput::Choose {
                        choices: Vec::new(),
                        cost_column: None,
                    },
                    required: false,
                };
            };
            let column = cost
                .as_ref()
                .and_then(|c| cost_column(ruleset, c, counters, strength));
            let choices = table
                .rows
                .iter()
                .map(|row| {
                    let key = row.key.to_string();
                    FormChoice {
                        label: table.row_words(row),
                        cost: cost.as_ref().map(|c| FormCost {
                            amount: column.and_then(|col| cell_amount(table, &key, col)),
                            unit: c.unit.clone(),
                        }),
                        restrictions: restrictions(&key),
                        refused: None,
                        id: key,
                    }
                })
                .collect();
            FormInput::Choose {
                choices,
                cost_column: column.map(|c| table.column_words_for(c)),
            }
        }
        OrderFieldKind::Choice { options } => FormInput::Choose {
            choices: options
                .iter()
                .map(|o| FormChoice {
                    id: o.id.clone(),
                    label: o.label.clone(),
                    cost: None,
                    restrictions: restrictions(&o.id),
                    refused: None,
                })
                .collect(),
            cost_column: None,
        },
        OrderFieldKind::Areas { max, .. } => FormInput::Areas { max: *max },
        OrderFieldKind::Flag => FormInput::Flag,
    };
    FormField {
        field: field.id.clone(),
        label: field.label.clone(),
        input,
        required: false,
    }
}

/// The key of the first cost column whose condition holds for the Force.
fn cost_column<'a>(
    ruleset: &Ruleset,
    cost: &'a OrderCost,
    counters: &[&CounterSpec],
    strength: Option<i64>,
) -> Option<&'a str> {
    cost.columns
        .iter()
        .find(|c| force_holds(ruleset, &c.when, counters, strength))
        .map(|c| c.column.as_str())
}

/// Whether every condition of `test` holds for a Force of `counters`.
pub fn force_holds(
    ruleset: &Ruleset,
    test: &ForceTest,
    counters: &[&CounterSpec],
    strength: Option<i64>,
) -> bool {
    let units: Vec<&&CounterSpec> = counters
        .iter()
        .filter(|c| c.kind == CounterKind::Unit)
        .collect();
    test.leader.as_ref().is_none_or(|t| {
        counters
            .iter()
            .any(|c| c.kind == CounterKind::Leader && holds(c, t))
    }) && test
        .all_units
        .as_ref()
        .is_none_or(|t| !units.is_empty() && units.iter().all(|c| holds(c, t)))
        && test.strength.is_none_or(|s| strength == Some(s))
        && test
            .rulings
            .iter()
            .all(|(id, option)| ruleset.ruling(id) == Some(option.as_str()))
}

/// Whether a counter's attribute has the value (a `choices` attribute: includes it).
fn holds(counter: &CounterSpec, test: &CounterTest) -> bool {
    holds_value(&counter.attributes, test)
}

fn holds_value(attributes: &BTreeMap<String, Value>, test: &CounterTest) -> bool {
    attributes
        .get(&test.attribute)
        .is_some_and(|have| have.holds(&test.is))
}

/// A cell of `table` as a whole number (None: missing, or not a number).
pub(crate) fn cell_amount(table: &Table, row: &str, column: &str) -> Option<i64> {
    let c = table
        .lines
        .iter()
        .find_map(|l| l.keys.iter().position(|k| k.to_string() == column))?;
    let row = table.rows.iter().find(|r| r.key.to_string() == row)?;
    match row.cells.get(c)? {
        Cell::Missing => None,
        Cell::Value(v) => v.trim().parse().ok(),
    }
}

/// The areas an `areas` field may name: the gazetteer's places, the scenario's counters that
/// are areas, and in a game those put on the table since (the organiser's Gazetteer added
/// with `game add`), by name. The place a piece stands is not taken for the map's list: a
/// game that knows no area counter takes the names as written.
fn areas(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: Option<&GameState>,
    kind: &OrderKind,
) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    for f in &kind.fields {
        let OrderFieldKind::Areas { area_counters, .. } = &f.kind else {
            continue;
        };
        if let Some(g) = &ruleset.geometry {
            out.extend(g.places.iter().map(|p| p.name.clone()));
        }
        if let Some(test) = area_counters {
            out.extend(
                scenario
                    .all_counters()
                    .filter(|c| holds(c, test))
                    .map(|c| c.name.clone()),
            );
            if let Some(state) = state {
                for c in state.counters.values().filter(|c| c.removed.is_none()) {
                    if holds_value(&c.attributes, test) {
                        out.insert(c.name.clone());
                    }
                }
            }
        }
    }
    out.into_iter().collect()
}
