//! A procedure: inputs → derived values → modifiers → dice → lookup → outcome, with an
//! explanation of every step; and the exact odds of each outcome from the same definitions.

mod error;
mod lookup;
pub mod needed;
mod odds;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use error::{MissingInput, ResolveError};
pub use lookup::{Located, locate_ratio};
pub use odds::{Odds, OutcomeOdds, odds};

use crate::dice::{AppDice, DiceExpr, Provenance, Roll};
use crate::rules::{
    AppliesTo, Cell, EffectKind, EffectSpec, HitRule, Key, KeyKind, Lookup, ModifierValue,
    Procedure, Ruleset, Scope, Success, Table, TableRef, Value,
};

/// Where the dice come from.
pub enum DiceSource<'a> {
    /// The app rolls, continuing this seeded stream.
    App(&'a mut AppDice),
    /// Physical dice typed in (values or face labels, one per die).
    Physical {
        /// The faces as typed.
        faces: Vec<String>,
        /// Who rolled them.
        entered_by: Option<String>,
    },
}

/// A named value shown in an explanation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NamedValue {
    /// Name.
    pub name: String,
    /// Value.
    pub value: Value,
    /// Rule reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// A modifier as it stands for these inputs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModifierState {
    /// Name as printed.
    pub name: String,
    /// Its value (None when its chart cell is missing).
    pub value: Option<i64>,
    /// Rule reference ("" when none).
    pub source: String,
    /// What it changes.
    pub applies_to: AppliesTo,
    /// For opposed rolls: the side whose dice it changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Whether its condition holds (a recorded resolution lists only those that held).
    #[serde(skip_serializing, default = "held")]
    pub active: bool,
    /// How the value was found (a table lookup), if not a plain number.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

fn held() -> bool {
    true
}

/// An effect of an outcome, with its amount computed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// Kind (written `sp_loss`, `status`, `follow_up`… as before it was typed).
    pub kind: crate::rules::EffectKind,
    /// Side it falls on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<i64>,
    /// Status to set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Procedure to queue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub procedure: Option<String>,
    /// Attribute changed (`adjust`: by `amount`; `set`: to `value`, or to `amount`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<String>,
    /// Value set (`set` effects with a flag or a name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Rule reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The outcome of a resolution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// Result code (a table cell, or a declared outcome).
    pub code: String,
    /// Label for people.
    pub label: String,
    /// A number carried by the outcome (hits, losses, a table value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// Effects in order.
    pub effects: Vec<Effect>,
    /// Whether the umpire entered it from the physical chart.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_physical_chart: bool,
    /// Whether the umpire confirmed a code the text does not name as what their chart prints.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chart_confirmed: bool,
}

/// Where a table lookup landed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LookupTrace {
    /// Table id.
    pub table: String,
    /// Header line used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    /// Row heading.
    pub row: String,
    /// Column heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    /// The cell as printed.
    pub cell: String,
}

/// A resolved procedure: the JSON contract of `umpire resolve`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resolution {
    /// Ruleset id.
    pub ruleset: String,
    /// Procedure id.
    pub procedure: String,
    /// Inputs used (given or defaulted).
    pub inputs: BTreeMap<String, Value>,
    /// Derived values.
    pub derived: Vec<NamedValue>,
    /// The dice thrown.
    pub rolls: Vec<Roll>,
    /// Modifiers that applied.
    pub modifiers: Vec<ModifierState>,
    /// The unmodified total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub natural: Option<i64>,
    /// The modified total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<i64>,
    /// Table lookup, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lookup: Option<LookupTrace>,
    /// The outcome.
    pub outcome: Outcome,
    /// Every step, in words.
    pub explanation: Vec<String>,
    /// Each side's score, in an opposed roll (never summed into one number).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scores: Vec<NamedValue>,
}

/// Parses `NAME=VALUE` pairs against a procedure's inputs.
pub fn parse_inputs(
    procedure: &Procedure,
    pairs: &[(String, String)],
) -> Result<BTreeMap<String, Value>, ResolveError> {
    let mut out = BTreeMap::new();
    for (name, text) in pairs {
        let Some(spec) = procedure.input(name) else {
            return Err(ResolveError::UnknownInput {
                procedure: procedure.id.clone(),
                name: name.clone(),
                valid: procedure
                    .inputs
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        out.insert(
            name.clone(),
            spec.parse_value(text).map_err(ResolveError::BadInput)?,
        );
    }
    Ok(out)
}

fn describe_kind(spec: &crate::rules::InputSpec) -> String {
    match &spec.kind {
        crate::rules::InputKind::Int { min, max } => format!("a number from {min} to {max}"),
        crate::rules::InputKind::Choice { choices } => format!("one of {}", choices.join(", ")),
        crate::rules::InputKind::Flag => "true or false".to_string(),
    }
}

fn signed(v: i64) -> String {
    if v >= 0 {
        format!("+{v}")
    } else {
        format!("−{}", -v)
    }
}

/// `+ 2` / `− 2`, for sums written out.
fn plus_minus(v: i64) -> String {
    if v >= 0 {
        format!("+ {v}")
    } else {
        format!("− {}", -v)
    }
}

fn rule_suffix(rule: &Option<String>) -> String {
    rule.as_ref()
        .map_or_else(String::new, |r| format!(" [{r}]"))
}

fn expr_err(what: impl Into<String>) -> impl FnOnce(String) -> ResolveError {
    let what = what.into();
    move |problem| ResolveError::Expression { what, problem }
}

/// Everything that does not depend on the dice, worked out for one set of inputs.
#[derive(Debug, Clone)]
pub struct Prepared<'r> {
    /// The ruleset.
    pub ruleset: &'r Ruleset,
    /// The procedure.
    pub procedure: &'r Procedure,
    /// Inputs used.
    pub inputs: BTreeMap<String, Value>,
    /// Derived values.
    pub derived: Vec<NamedValue>,
    /// Every modifier with its state.
    pub modifiers: Vec<ModifierState>,
    /// The dice to throw.
    pub dice: Option<DiceExpr>,
    /// A modifier whose chart cell is missing, if any.
    pub unknown_modifier: Option<ResolveError>,
    /// Opposed rolls: each group of dice with its side, size and per-die modifier, in throw order.
    pub groups: Vec<PreparedGroup>,
    scope: Scope,
    explanation: Vec<String>,
}

/// A group of dice of one side of an opposed roll, worked out for these inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedGroup {
    /// Index of the side.
    pub side: usize,
    /// How many dice.
    pub count: u32,
    /// The die.
    pub die: crate::dice::Die,
    /// Added to each die.
    pub modifier: i64,
    /// Lowest a die may score.
    pub floor: Option<i64>,
}

impl PreparedGroup {
    /// What one die of the group scores.
    pub fn score(&self, face: i64) -> i64 {
        let v = face + self.modifier;
        self.floor.map_or(v, |f| v.max(f))
    }
}

/// The lookup's result for one throw.
#[derive(Debug, Clone)]
pub struct Finished {
    /// Unmodified total.
    pub natural: Option<i64>,
    /// Modified total.
    pub modified: Option<i64>,
    /// Table lookup.
    pub lookup: Option<LookupTrace>,
    /// Outcome.
    pub outcome: Outcome,
    /// Explanation of the lookup.
    pub explanation: Vec<String>,
    /// Each side's score, in an opposed roll.
    pub scores: Vec<NamedValue>,
}

impl<'r> Prepared<'r> {
    /// Sum of the active modifiers to one target.
    pub fn total(&self, target: AppliesTo) -> i64 {
        self.modifiers
            .iter()
            .filter(|m| m.active && m.applies_to == target)
            .filter_map(|m| m.value)
            .sum()
    }

    /// The values expressions see (inputs, derived values, rulings, modifier totals).
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The explanation so far (inputs, derived values, modifiers).
    pub fn explanation(&self) -> &[String] {
        &self.explanation
    }
}

/// Works out inputs, derived values and modifiers.
pub fn prepare<'r>(
    ruleset: &'r Ruleset,
    procedure: &'r Procedure,
    given: &BTreeMap<String, Value>,
) -> Result<Prepared<'r>, ResolveError> {
    let mut scope = Scope::new();
    let mut inputs = BTreeMap::new();
    let mut explanation = vec![format!(
        "{}{}",
        procedure.name,
        rule_suffix(&procedure.rule)
    )];
    for r in &ruleset.rulings {
        scope.set(&format!("ruling_{}", r.id), Value::Text(r.selected.clone()));
    }
    for name in given.keys() {
        if procedure.input(name).is_none() {
            return Err(ResolveError::UnknownInput {
                procedure: procedure.id.clone(),
                name: name.clone(),
                valid: procedure
                    .inputs
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    // What the result can depend on under the values known: an input nothing live reads is
    // not asked for (needed.rs).
    // Worked out only when some input has no value (given, default, or a flag's off): a
    // resolution with every input given pays nothing for it.
    let valued = |spec: &crate::rules::InputSpec| {
        given
            .get(&spec.name)
            .cloned()
            .or_else(|| spec.default.clone())
            .or_else(|| {
                matches!(spec.kind, crate::rules::InputKind::Flag).then_some(Value::Bool(false))
            })
    };
    let needed: std::collections::BTreeSet<String> = if procedure.inputs.iter().all(|spec| {
        given.contains_key(&spec.name)
            || spec.default.is_some()
            || matches!(spec.kind, crate::rules::InputKind::Flag)
    }) {
        std::collections::BTreeSet::new()
    } else {
        let known: BTreeMap<String, Value> = procedure
            .inputs
            .iter()
            .filter_map(|spec| valued(spec).map(|v| (spec.name.clone(), v)))
            .collect();
        needed::needed_inputs(ruleset, procedure, &known)
    };
    let mut missing = Vec::new();
    // Inputs the case in hand does not need (their `needed_when` is false): not asked for, and
    // whatever reads them is left out rather than fed a made-up value.
    let mut not_needed: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for spec in &procedure.inputs {
        let value = match given.get(&spec.name) {
            Some(v) => {
                spec.check(v).map_err(ResolveError::BadInput)?;
                v.clone()
            }
            None => match &spec.default {
                Some(d) => d.clone(),
                None if matches!(spec.kind, crate::rules::InputKind::Flag) => Value::Bool(false),
                None if spec.needed_when.as_ref().is_some_and(|w| {
                    // An error here (an input above it missing too) counts as needed: the
                    // missing list then names both.
                    w.eval_bool(&scope).is_ok_and(|needed| !needed)
                }) =>
                {
                    not_needed.insert(spec.name.clone());
                    continue;
                }
                None if !needed.contains(&spec.name) => {
                    not_needed.insert(spec.name.clone());
                    continue;
                }
                None => {
                    // Every input the rules give no value for is named at once.
                    missing.push(MissingInput {
                        name: spec.name.clone(),
                        label: spec.label.clone(),
                        expected: describe_kind(spec),
                    });
                    continue;
                }
            },
        };
        scope.set(&spec.name, value.clone());
        inputs.insert(spec.name.clone(), value);
    }
    if !missing.is_empty() {
        return Err(ResolveError::MissingInputs {
            procedure: procedure.name.clone(),
            missing,
        });
    }
    if !inputs.is_empty() {
        // Flags are listed only when set, to keep the line readable.
        let list: Vec<String> = procedure
            .inputs
            .iter()
            .filter_map(|i| inputs.get(&i.name).map(|v| (i, v)))
            .filter(|(_, v)| **v != Value::Bool(false))
            .map(|(i, v)| {
                if *v == Value::Bool(true) {
                    i.label.clone()
                } else {
                    format!("{} = {}", i.label, i.value_words(v))
                }
            })
            .collect();
        if !list.is_empty() {
            explanation.push(format!("Inputs: {}", list.join(", ")));
        }
    }
    let mut derived = Vec::new();
    for d in &procedure.derived {
        // A value for one case of the procedure only (`when:`): not worked out, nor shown,
        // in another, and whatever reads it is left out with it.
        if let Some(w) = &d.when {
            let holds = match w.partial(&scope) {
                crate::rules::Partial::Known(v) => v == Value::Bool(true),
                crate::rules::Partial::Open(_) => w
                    .eval_bool(&scope)
                    .map_err(expr_err(format!("derived value '{}' (when)", d.name)))?,
            };
            if !holds {
                not_needed.insert(d.name.clone());
                continue;
            }
        }
        let value = if d.expr.reads().iter().any(|n| not_needed.contains(n)) {
            // Reads an input this case does not need: its value when the rest decides it
            // (`if(no_engineers, 1, fire_value)`), else not computed, nor what reads it.
            match d.expr.partial(&scope) {
                crate::rules::Partial::Known(v) => v,
                crate::rules::Partial::Open(_) => {
                    not_needed.insert(d.name.clone());
                    continue;
                }
            }
        } else {
            d.expr
                .eval(&scope)
                .map_err(expr_err(format!("derived value '{}'", d.name)))?
        };
        // A value the ruleset labels for people is said in words; an unlabelled helper (and
        // every expression) stays in the JSON's derived values and the procedure's description.
        if let Some(label) = &d.label {
            // A name the ruleset writes as an id ("not_affecting") in words.
            let shown = match &value {
                Value::Text(t) if crate::rules::model::is_id_like(t) => {
                    crate::rules::model::key_words(&crate::rules::model::Key::Name(t.clone()))
                }
                Value::Bool(true) => "yes".to_string(),
                Value::Bool(false) => "no".to_string(),
                v => v.to_string(),
            };
            explanation.push(format!("{label} = {shown}{}", rule_suffix(&d.rule)));
        }
        scope.set(&d.name, value.clone());
        derived.push(NamedValue {
            name: d.name.clone(),
            value,
            rule: d.rule.clone(),
        });
    }
    let mut modifiers = Vec::new();
    let mut unknown_modifier = None;
    for m in &procedure.modifiers {
        let reads_unneeded = m
            .when
            .iter()
            .flat_map(|w| w.reads())
            .chain(match &m.value {
                ModifierValue::Expr(e) => e.reads(),
                ModifierValue::Table(_) => &[],
            })
            .any(|n| not_needed.contains(n));
        let active = match &m.when {
            // Reads an input this case does not need: on only when the rest decides it is.
            Some(w) if reads_unneeded => {
                w.partial(&scope) == crate::rules::Partial::Known(Value::Bool(true))
                    && match &m.value {
                        ModifierValue::Expr(e) => !e.reads().iter().any(|n| not_needed.contains(n)),
                        ModifierValue::Table(_) => true,
                    }
            }
            _ if reads_unneeded => false,
            Some(w) => w
                .eval_bool(&scope)
                .map_err(expr_err(format!("condition of modifier '{}'", m.name)))?,
            None => true,
        };
        let (value, note) = if !active {
            (None, String::new())
        } else {
            match &m.value {
                ModifierValue::Expr(e) => (
                    Some(
                        e.eval_int(&scope)
                            .map_err(expr_err(format!("value of modifier '{}'", m.name)))?,
                    ),
                    String::new(),
                ),
                ModifierValue::Table(r) => match table_value(ruleset, r, &scope, None) {
                    Ok((v, trace)) => (Some(v), trace),
                    Err(e @ ResolveError::MissingCell { .. }) => {
                        unknown_modifier.get_or_insert(e);
                        (None, "chart cell missing".to_string())
                    }
                    Err(e) => return Err(e),
                },
            }
        };
        if active {
            let shown = value.map_or_else(|| "?".to_string(), signed);
            let target = match m.applies_to {
                AppliesTo::Roll => "to the roll",
                AppliesTo::Target => "to the target",
                AppliesTo::Column => "column shift",
                AppliesTo::Dice => "dice",
                AppliesTo::EachDie => "to each die",
            };
            let how = if note.is_empty() {
                String::new()
            } else {
                format!(" ({note})")
            };
            explanation.push(format!(
                "Modifier: {} {shown} {target}{how}{}",
                m.name,
                rule_suffix(&m.rule)
            ));
        }
        modifiers.push(ModifierState {
            name: m.name.clone(),
            value,
            source: m.rule.clone().unwrap_or_default(),
            applies_to: m.applies_to,
            side: m.side.clone(),
            active,
            note,
        });
    }
    let mut prepared = Prepared {
        ruleset,
        procedure,
        inputs,
        derived,
        modifiers,
        dice: procedure.roll.clone(),
        unknown_modifier,
        groups: Vec::new(),
        scope,
        explanation,
    };
    for name in crate::rules::LOOKUP_NAMES {
        prepared.scope.set(name, Value::Int(0));
    }
    let (roll_mod, target_mod, dice_mod) = (
        prepared.total(AppliesTo::Roll),
        prepared.total(AppliesTo::Target),
        prepared.total(AppliesTo::Dice),
    );
    prepared.scope.set("roll_modifier", Value::Int(roll_mod));
    prepared
        .scope
        .set("target_modifier", Value::Int(target_mod));
    prepared.scope.set("dice_modifier", Value::Int(dice_mod));
    if let Lookup::Pool { count, die, .. } = &procedure.lookup {
        let base = count
            .eval_int(&prepared.scope)
            .map_err(expr_err("number of dice"))?;
        let n = (base + dice_mod).max(0);
        let extra = if dice_mod == 0 {
            String::new()
        } else {
            format!(" {} = {n}", plus_minus(dice_mod))
        };
        prepared.explanation.push(format!(
            "Dice: {base}{extra}{}",
            if base + dice_mod < 0 {
                " (no fewer than 0)"
            } else {
                ""
            }
        ));
        if n > i64::from(crate::dice::MAX_POOL) {
            return Err(ResolveError::TooLarge(format!(
                "a pool of {n} dice is more than {} dice",
                crate::dice::MAX_POOL
            )));
        }
        let Some(die) = ruleset.dice.get(die) else {
            return Err(ResolveError::Expression {
                what: "pool".into(),
                problem: format!("unknown die {die}"),
            });
        };
        prepared.dice = Some(DiceExpr::pool(n as u32, &die));
    }
    if let Lookup::Opposed { sides, .. } = &procedure.lookup {
        prepare_opposed(&mut prepared, sides)?;
    }
    Ok(prepared)
}

/// Works out each side's dice: group sizes (plus that side's dice modifiers, on its first group)
/// and per-die modifiers (the group's own plus that side's each-die modifiers).
fn prepare_opposed(
    prepared: &mut Prepared,
    sides: &[crate::rules::Side],
) -> Result<(), ResolveError> {
    let side_total = |p: &Prepared, side: &str, target: AppliesTo| -> i64 {
        p.modifiers
            .iter()
            .filter(|m| m.active && m.applies_to == target && m.side.as_deref() == Some(side))
            .filter_map(|m| m.value)
            .sum()
    };
    let mut total_dice = 0i64;
    for (i, side) in sides.iter().enumerate() {
        let extra_dice = side_total(prepared, &side.name, AppliesTo::Dice);
        let each = side_total(prepared, &side.name, AppliesTo::EachDie);
        let mut parts = Vec::new();
        for (g, group) in side.groups.iter().enumerate() {
            let base = group
                .count
                .eval_int(&prepared.scope)
                .map_err(expr_err(format!("{} dice", side.name)))?;
            let n = (base + if g == 0 { extra_dice } else { 0 }).max(0);
            // A group that throws no dice has no modifier to work out (what it reads may not
            // have been asked: needed.rs).
            let own = match &group.modifier {
                Some(e) if n > 0 => e
                    .eval_int(&prepared.scope)
                    .map_err(expr_err(format!("{} die modifier", side.name)))?,
                _ => 0,
            };
            let Some(die) = prepared.ruleset.dice.get(&group.die) else {
                return Err(ResolveError::Expression {
                    what: "opposed roll".into(),
                    problem: format!("unknown die {}", group.die),
                });
            };
            total_dice += n;
            let modifier = own + each;
            let label = group.label.clone().unwrap_or_default();
            let m = if modifier == 0 {
                String::new()
            } else {
                format!(" {} each", signed(modifier))
            };
            let floor = group
                .floor
                .map_or_else(String::new, |f| format!(", no lower than {f}"));
            if n > 0 {
                parts.push(format!(
                    "{n}{}{m}{floor}{}",
                    die.name,
                    if label.is_empty() {
                        String::new()
                    } else {
                        format!(" ({label})")
                    }
                ));
            }
            prepared.groups.push(PreparedGroup {
                side: i,
                count: n as u32,
                die,
                modifier,
                floor: group.floor,
            });
        }
        prepared.explanation.push(format!(
            "{}: {}",
            side.name,
            if parts.is_empty() {
                "no dice".to_string()
            } else {
                parts.join(" + ")
            }
        ));
    }
    if total_dice > i64::from(crate::dice::MAX_DICE) {
        return Err(ResolveError::TooLarge(format!(
            "{total_dice} dice are more than {}",
            crate::dice::MAX_DICE
        )));
    }
    let groups: Vec<(u32, &crate::dice::Die)> =
        prepared.groups.iter().map(|g| (g.count, &g.die)).collect();
    prepared.dice = Some(DiceExpr::groups(&groups));
    Ok(())
}

/// Reads a numeric cell (a modifier's value) from a table.
fn table_value(
    ruleset: &Ruleset,
    r: &TableRef,
    scope: &Scope,
    roll: Option<i64>,
) -> Result<(i64, String), ResolveError> {
    let (table, trace, notes) = find_cell(ruleset, r, scope, roll, 0)?;
    let cell = trace.cell.clone();
    let v = cell
        .trim()
        .trim_start_matches('+')
        .replace('−', "-")
        .parse::<i64>()
        .map_err(|_| ResolveError::NotANumber {
            table: table.id.clone(),
            title: table.title.clone(),
            cell: cell.clone(),
            row: trace.row.clone(),
            column: trace.column.clone().unwrap_or_default(),
            reason: if cell.eq_ignore_ascii_case("no") {
                " (the chart says this is not allowed)".into()
            } else {
                String::new()
            },
        })?;
    let at = trace
        .column
        .as_ref()
        .map_or_else(|| trace.row.clone(), |c| format!("{} × {c}", trace.row));
    let how = if notes.is_empty() {
        String::new()
    } else {
        format!("; {}", notes.join("; "))
    };
    Ok((v, format!("{}: {at} = {cell}{how}", table.title)))
}

/// Finds a cell: the row, the column (with shifts), and the header line.
fn find_cell<'r>(
    ruleset: &'r Ruleset,
    r: &TableRef,
    scope: &Scope,
    roll: Option<i64>,
    shift: i64,
) -> Result<(&'r Table, LookupTrace, Vec<String>), ResolveError> {
    let Some(table) = ruleset.table(&r.table) else {
        return Err(ResolveError::Expression {
            what: "table lookup".into(),
            problem: format!("unknown table {}", r.table),
        });
    };
    let mut notes = Vec::new();
    // Header line.
    let line = if table.lines.len() > 1 {
        let id = r
            .line
            .as_ref()
            .map(|e| e.eval_text(scope))
            .transpose()
            .map_err(expr_err("header line"))?
            .unwrap_or_default();
        let Some(l) = table.lines.iter().find(|l| l.id == id) else {
            return Err(ResolveError::NoSuchKey {
                table: table.id.clone(),
                title: table.title.clone(),
                what: "header line".into(),
                key: id,
                available: table
                    .lines
                    .iter()
                    .map(|l| l.id.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        notes.push(format!(
            "Header line: {}",
            l.label.as_deref().unwrap_or(&l.id)
        ));
        Some(l)
    } else {
        table.lines.first()
    };
    // Column.
    let column = match (line, table.column_key) {
        (Some(l), Some(kind)) => {
            let keys: Vec<&Key> = l.keys.iter().collect();
            let mut located = if kind == KeyKind::Ratio {
                let (a, d) = r.ratio.as_ref().ok_or_else(|| ResolveError::Expression {
                    what: "table lookup".into(),
                    problem: "no ratio given".into(),
                })?;
                let a = a
                    .eval_int(scope)
                    .map_err(expr_err("attacker's side of the ratio"))?;
                let d = d
                    .eval_int(scope)
                    .map_err(expr_err("defender's side of the ratio"))?;
                lookup::locate_ratio(&keys, a, d).ok_or_else(|| ResolveError::NoSuchKey {
                    table: table.id.clone(),
                    title: table.title.clone(),
                    what: "column".into(),
                    key: format!("{a}:{d}"),
                    available: keys
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                })?
            } else {
                let key = r
                    .column
                    .as_ref()
                    .map(|e| e.eval_text(scope))
                    .transpose()
                    .map_err(expr_err("column"))?
                    .unwrap_or_default();
                lookup::locate(table, &keys, kind, &key, "column")?
            };
            if !located.note.is_empty() {
                notes.push(located.note.clone());
            }
            if shift != 0 {
                let last = keys.len() as i64 - 1;
                let target = located.index as i64 + shift;
                let clamped = target.clamp(0, last.max(0));
                let new_index = clamped as usize;
                notes.push(format!(
                    "Column shift {}: {} → {}{}",
                    signed(shift),
                    located.heading,
                    keys[new_index],
                    if clamped == target {
                        ""
                    } else {
                        " (the chart's edge)"
                    }
                ));
                located = Located {
                    index: new_index,
                    heading: keys[new_index].to_string(),
                    note: String::new(),
                };
            }
            Some(located)
        }
        _ => None,
    };
    // Row.
    let rkeys = lookup::row_keys(table);
    let row = match (&r.row, roll) {
        (Some(e), _) => {
            let key = e.eval_text(scope).map_err(expr_err("row"))?;
            lookup::locate(table, &rkeys, table.row_key, &key, "row")?
        }
        (None, Some(v)) if table.row_key == KeyKind::Roll => lookup::locate(
            table,
            &rkeys,
            KeyKind::Roll,
            &v.to_string(),
            "modified roll",
        )?,
        _ if table.rows.len() == 1 => Located {
            index: 0,
            heading: table.rows[0].key.to_string(),
            note: String::new(),
        },
        _ => {
            return Err(ResolveError::Expression {
                what: format!("{} lookup", table.title),
                problem: "no roll or row given".into(),
            });
        }
    };
    if !row.note.is_empty() {
        notes.push(row.note.clone());
    }
    let col_index = column.as_ref().map_or(0, |c| c.index);
    let cell = lookup::cell(table, row.index, col_index)
        .cloned()
        .unwrap_or(Cell::Missing);
    let trace = LookupTrace {
        table: table.id.clone(),
        line: line.filter(|_| table.lines.len() > 1).map(|l| l.id.clone()),
        row: row.heading.clone(),
        column: column.as_ref().map(|c| c.heading.clone()),
        cell: cell.text().to_string(),
    };
    if cell == Cell::Missing {
        let row_words = table.row_words_for(&row.heading);
        let at = match &column {
            Some(c) if table.lines.first().is_some_and(|l| l.keys.len() > 1) => format!(
                "row {row_words}, column {}",
                table.column_words_for(&c.heading)
            ),
            _ => format!("row {row_words}"),
        };
        return Err(ResolveError::MissingCell {
            at,
            table: table.id.clone(),
            title: table.title.clone(),
            rule: table
                .rule
                .as_ref()
                .map_or_else(String::new, |r| format!(" [{r}]")),
            row: row.heading,
            column: column.map_or_else(|| "result".into(), |c| c.heading),
        });
    }
    Ok((table, trace, notes))
}

fn effects_from(specs: &[EffectSpec], scope: &Scope) -> Result<Vec<Effect>, ResolveError> {
    let mut applicable = Vec::new();
    for s in specs {
        let holds = match &s.when {
            Some(w) => w
                .eval_bool(scope)
                .map_err(expr_err(format!("condition of a {} effect", s.kind)))?,
            None => true,
        };
        if holds {
            applicable.push(s);
        }
    }
    applicable
        .into_iter()
        .map(|s| {
            let amount = s
                .amount
                .as_ref()
                .map(|e| e.eval_int(scope))
                .transpose()
                .map_err(expr_err(format!("amount of a {} effect", s.kind)))?;
            Ok(Effect {
                kind: s.kind,
                side: s.side.clone(),
                amount,
                status: s.status.clone(),
                procedure: s.procedure.clone(),
                attribute: s.attribute.clone(),
                value: s.value.clone(),
                text: s.text.clone(),
                rule: s.rule.clone(),
            })
        })
        .collect()
}

fn hit_rule_matches(rule: &HitRule, face: i64, scope: &Scope) -> Result<bool, ResolveError> {
    if let Some(faces) = &rule.faces {
        return Ok(faces.contains(&face));
    }
    if let Some(e) = &rule.at_least {
        return Ok(face >= e.eval_int(scope).map_err(expr_err("hit rule"))?);
    }
    if let Some(e) = &rule.at_most {
        return Ok(face <= e.eval_int(scope).map_err(expr_err("hit rule"))?);
    }
    Ok(false)
}

impl<'r> Prepared<'r> {
    /// Builds the outcome for a code: the declared outcome's effects, then the table codes'.
    fn outcome(
        &self,
        code: &str,
        value: Option<i64>,
        table: Option<&Table>,
        scope: &mut Scope,
    ) -> Result<Outcome, ResolveError> {
        if let Some(v) = value {
            scope.set("value", Value::Int(v));
        }
        let mut effects = Vec::new();
        let mut labels = Vec::new();
        if let Some(spec) = self.procedure.outcome(code) {
            effects.extend(effects_from(&spec.effects, scope)?);
            labels.push(spec.label.clone());
        }
        if let Some(t) = table
            && !t.results.is_empty()
        {
            for token in code.split_whitespace() {
                if let Some((p, n)) = t
                    .results
                    .iter()
                    .find_map(|p| p.matches(token).map(|n| (p, n)))
                {
                    // Each token gets its own `n`: "D1 DC" must not carry D1's number into DC.
                    let mut token_scope = scope.clone();
                    if let Some(n) = n {
                        token_scope.set("n", Value::Int(n));
                        token_scope.set("value", Value::Int(n));
                    }
                    effects.extend(effects_from(&p.effects, &token_scope)?);
                    if let Some(l) = &p.label {
                        labels
                            .push(l.replace("{n}", &n.map_or_else(String::new, |n| n.to_string())));
                    }
                }
            }
        }
        let label = if labels.is_empty() {
            code.to_string()
        } else {
            labels.join("; ")
        };
        Ok(Outcome {
            code: code.to_string(),
            label,
            value,
            effects,
            from_physical_chart: false,
            chart_confirmed: false,
        })
    }

    /// Applies the lookup to one throw (faces in dice order). `chart_result` is the result the
    /// umpire read off the physical chart, used when a needed cell is missing.
    pub fn finish(
        &self,
        faces: &[i64],
        chart_result: Option<&str>,
    ) -> Result<Finished, ResolveError> {
        let natural = self.dice.as_ref().map(|d| d.total(faces));
        self.finish_with(natural, faces, chart_result)
    }

    /// As [`Prepared::finish`], given the natural total (pools also need the faces).
    pub fn finish_with(
        &self,
        natural: Option<i64>,
        faces: &[i64],
        chart_result: Option<&str>,
    ) -> Result<Finished, ResolveError> {
        let mut scope = self.scope.clone();
        let mut explanation = Vec::new();
        let roll_mod = self.total(AppliesTo::Roll);
        let modified = natural.map(|n| n + roll_mod);
        for (k, face) in faces.iter().enumerate() {
            scope.set(&format!("die_{}", k + 1), Value::Int(*face));
        }
        if let (Some(n), Some(m)) = (natural, modified) {
            scope.set("natural", Value::Int(n));
            scope.set("roll", Value::Int(m));
            if roll_mod != 0 {
                explanation.push(format!("Modified roll: {n} {} = {m}", plus_minus(roll_mod)));
            }
        }
        if let Some(missing) = &self.unknown_modifier {
            let Some(result) = chart_result else {
                return Err(missing.clone());
            };
            let table = if let Lookup::Table(r) = &self.procedure.lookup {
                Some(r)
            } else {
                None
            };
            return self.with_chart_result(result, table, natural, modified, explanation, missing);
        }
        match &self.procedure.lookup {
            Lookup::Table(r) => {
                let shift = self.total(AppliesTo::Column);
                match find_cell(self.ruleset, r, &scope, modified, shift) {
                    Ok((table, trace, notes)) => {
                        explanation.extend(notes);
                        let value = trace
                            .cell
                            .trim()
                            .trim_start_matches('+')
                            .parse::<i64>()
                            .ok();
                        let row = table.row_words_for(&trace.row);
                        let at = trace.column.as_ref().map_or_else(
                            || format!("row {row}"),
                            |c| format!("row {row}, column {}", table.column_words_for(c)),
                        );
                        let cell = crate::rules::Cell::Value(trace.cell.clone());
                        explanation.push(format!(
                            "{}: {at} → {}",
                            table.title,
                            table.cell_words(&cell)
                        ));
                        let outcome = self.outcome(&trace.cell, value, Some(table), &mut scope)?;
                        Ok(Finished {
                            natural,
                            modified,
                            lookup: Some(trace),
                            outcome,
                            explanation,
                            scores: Vec::new(),
                        })
                    }
                    Err(e @ ResolveError::MissingCell { .. }) => match chart_result {
                        Some(result) => self.with_chart_result(
                            result,
                            Some(r),
                            natural,
                            modified,
                            explanation,
                            &e,
                        ),
                        None => Err(e),
                    },
                    Err(e) => Err(e),
                }
            }
            Lookup::Threshold {
                target,
                success,
                natural_fail,
                natural_pass,
                pass,
                fail,
            } => {
                let base = target.eval_int(&scope).map_err(expr_err("target"))?;
                let target_mod = self.total(AppliesTo::Target);
                let t = base + target_mod;
                let (n, m) = (natural.unwrap_or(0), modified.unwrap_or(0));
                let shown_target = if target_mod == 0 {
                    format!("{t}")
                } else {
                    format!("{base} {} = {t}", plus_minus(target_mod))
                };
                let (passed, why) = if natural_fail.contains(&n) {
                    (false, format!("an unmodified {n} always fails"))
                } else if natural_pass.contains(&n) {
                    (true, format!("an unmodified {n} always passes"))
                } else {
                    match success {
                        Success::AtLeast => (m >= t, format!("{m} against {shown_target} or more")),
                        Success::AtMost => (m <= t, format!("{m} against {shown_target} or less")),
                    }
                };
                let code = if passed { pass } else { fail };
                let outcome = self.outcome(code, None, None, &mut scope)?;
                // Headed by what happened ("→ Capitano eliminated"), not by whether the number
                // was reached: a "pass" of the Capitano Elimination Test is his death.
                explanation.push(format!("Test: {why} → {}", outcome.label));
                Ok(Finished {
                    natural,
                    modified,
                    lookup: None,
                    outcome,
                    explanation,
                    scores: Vec::new(),
                })
            }
            Lookup::Pool {
                sum,
                hits,
                face_floor,
                outcome,
                ..
            } => {
                let each = self.total(AppliesTo::EachDie);
                let scored: Vec<i64> = faces
                    .iter()
                    .map(|f| face_floor.map_or(f + each, |fl| (f + each).max(fl)))
                    .collect();
                if each != 0 || face_floor.is_some() {
                    explanation.push(format!(
                        "Each die {}{}: {:?}",
                        signed(each),
                        face_floor.map_or_else(String::new, |f| format!(", no lower than {f}")),
                        scored
                    ));
                }
                let score = if *sum {
                    let s: i64 = scored.iter().sum();
                    explanation.push(format!("Score: {s}"));
                    s
                } else {
                    let (total, parts) = count_hits(hits, &scored, &scope)?;
                    explanation.push(format!(
                        "Hits: {total}{}",
                        if parts.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", parts.join("; "))
                        }
                    ));
                    total
                };
                scope.set("hits", Value::Int(score));
                let outcome = self.outcome(outcome, Some(score), None, &mut scope)?;
                Ok(Finished {
                    natural: None,
                    modified: None,
                    lookup: None,
                    outcome,
                    explanation,
                    scores: Vec::new(),
                })
            }
            Lookup::Compute { lets, cases } => {
                self.run_cases(lets, cases, scope, natural, modified, explanation)
            }
            Lookup::Opposed {
                sides, sum, hits, ..
            } => {
                let mut scores = vec![0i64; sides.len()];
                let mut offset = 0usize;
                let mut shown: Vec<Vec<i64>> = vec![Vec::new(); sides.len()];
                for g in &self.groups {
                    let end = (offset + g.count as usize).min(faces.len());
                    for f in &faces[offset..end] {
                        shown[g.side].push(g.score(*f));
                    }
                    offset = end;
                }
                for (i, side) in sides.iter().enumerate() {
                    scores[i] = if *sum {
                        shown[i].iter().sum()
                    } else {
                        count_hits(hits, &shown[i], &scope)?.0
                    };
                    explanation.push(format!(
                        "{}: {:?} → {} {}",
                        side.name,
                        shown[i],
                        if *sum { "score" } else { "hits" },
                        scores[i]
                    ));
                }
                self.finish_scores_with(&scores, scope, explanation)
            }
        }
    }

    /// A pool's scoring, for odds that count classes of dice instead of throws: `None` when
    /// the procedure is not a pool.
    pub(crate) fn pool_scoring(&self) -> Option<PoolScoring<'_>> {
        let Lookup::Pool {
            sum,
            hits,
            face_floor,
            ..
        } = &self.procedure.lookup
        else {
            return None;
        };
        Some(PoolScoring {
            sum: *sum,
            hits,
            each: self.total(AppliesTo::EachDie),
            floor: *face_floor,
        })
    }

    /// Whether a hit rule counts in this resolution (its `when`), and whether it matches a
    /// scored die.
    pub(crate) fn hit_rule_counts(&self, rule: &HitRule) -> Result<bool, ResolveError> {
        hit_rule_applies(rule, &self.scope)
    }

    /// Whether a scored die matches a hit rule.
    pub(crate) fn hit_rule_matches(
        &self,
        rule: &HitRule,
        scored: i64,
    ) -> Result<bool, ResolveError> {
        hit_rule_matches(rule, scored, &self.scope)
    }

    /// A pool's outcome for a score (hits or sum), as [`Prepared::finish_with`] reaches it.
    pub(crate) fn finish_pool_score(&self, score: i64) -> Result<Finished, ResolveError> {
        let Lookup::Pool { outcome, .. } = &self.procedure.lookup else {
            return Err(ResolveError::Expression {
                what: "pool".into(),
                problem: "not a pool".into(),
            });
        };
        let mut scope = self.scope.clone();
        scope.set("hits", Value::Int(score));
        let outcome = self.outcome(outcome, Some(score), None, &mut scope)?;
        Ok(Finished {
            natural: None,
            modified: None,
            lookup: None,
            outcome,
            explanation: Vec::new(),
            scores: Vec::new(),
        })
    }

    /// Opposed rolls: the outcome for given side scores (used by the odds, which enumerate scores).
    pub fn finish_scores(&self, scores: &[i64]) -> Result<Finished, ResolveError> {
        self.finish_scores_with(scores, self.scope.clone(), Vec::new())
    }

    fn finish_scores_with(
        &self,
        scores: &[i64],
        mut scope: Scope,
        explanation: Vec<String>,
    ) -> Result<Finished, ResolveError> {
        let Lookup::Opposed {
            sides, lets, cases, ..
        } = &self.procedure.lookup
        else {
            return Err(ResolveError::Expression {
                what: "opposed roll".into(),
                problem: "not an opposed procedure".into(),
            });
        };
        let mut named = Vec::new();
        for (side, score) in sides.iter().zip(scores) {
            scope.set(&format!("{}_score", side.name), Value::Int(*score));
            named.push(NamedValue {
                name: side.name.clone(),
                value: Value::Int(*score),
                rule: None,
            });
        }
        let mut explanation = explanation;
        explanation.push(format!(
            "Scores: {}",
            named
                .iter()
                .map(|n| format!("{} {}", n.name.replace('_', " "), n.value))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let mut finished = self.run_cases(lets, cases, scope, None, None, explanation)?;
        finished.scores = named;
        Ok(finished)
    }

    fn run_cases(
        &self,
        lets: &[crate::rules::Derived],
        cases: &[crate::rules::Case],
        mut scope: Scope,
        natural: Option<i64>,
        modified: Option<i64>,
        mut explanation: Vec<String>,
    ) -> Result<Finished, ResolveError> {
        for l in lets {
            let v = l
                .expr
                .eval(&scope)
                .map_err(expr_err(format!("'{}'", l.name)))?;
            if let Some(label) = &l.label {
                explanation.push(format!("{label} = {v}{}", rule_suffix(&l.rule)));
            }
            scope.set(&l.name, v);
        }
        for case in cases {
            let holds = match &case.when {
                Some(w) => w
                    .eval_bool(&scope)
                    .map_err(expr_err(format!("case '{}'", case.outcome)))?,
                None => true,
            };
            if holds {
                let value = case
                    .value
                    .as_ref()
                    .map(|e| e.eval_int(&scope))
                    .transpose()
                    .map_err(expr_err(format!("value of '{}'", case.outcome)))?;
                // The case that holds, in words: its outcome and rule (its condition, an
                // expression, is in the procedure's description and the JSON).
                if case.rule.is_some() {
                    let label = self
                        .procedure
                        .outcome(&case.outcome)
                        .map_or(case.outcome.as_str(), |o| o.label.as_str());
                    explanation.push(format!(
                        "So: {label}{}{}",
                        value.map_or_else(String::new, |v| format!(" ({v})")),
                        rule_suffix(&case.rule)
                    ));
                }
                let outcome = self.outcome(&case.outcome, value, None, &mut scope)?;
                return Ok(Finished {
                    natural,
                    modified,
                    lookup: None,
                    outcome,
                    explanation,
                    scores: Vec::new(),
                });
            }
        }
        Err(ResolveError::Expression {
            what: "cases".into(),
            problem: "no case holds".into(),
        })
    }

    fn with_chart_result(
        &self,
        result: &str,
        r: Option<&TableRef>,
        natural: Option<i64>,
        modified: Option<i64>,
        mut explanation: Vec<String>,
        missing: &ResolveError,
    ) -> Result<Finished, ResolveError> {
        let result = result.trim();
        let table = r.and_then(|r| self.ruleset.table(&r.table));
        if let Some(t) = table
            && !t.results.is_empty()
            && !result
                .split_whitespace()
                .all(|tok| t.results.iter().any(|p| p.matches(tok).is_some()))
        {
            return Err(ResolveError::BadChartResult {
                given: result.to_string(),
                title: t.title.clone(),
                codes: t
                    .results
                    .iter()
                    .map(|p| p.pattern.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        if result.is_empty() {
            return Err(ResolveError::BadInput("the chart result is empty".into()));
        }
        if table.is_none_or(|t| t.results.is_empty())
            && !self.procedure.outcomes.is_empty()
            && self.procedure.outcome(result).is_none()
            && table.is_none()
        {
            return Err(ResolveError::BadChartResult {
                given: result.to_string(),
                title: self.procedure.name.clone(),
                codes: self
                    .procedure
                    .outcomes
                    .iter()
                    .map(|o| o.code.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        if let ResolveError::MissingCell { title, at, .. } = missing {
            explanation.push(format!(
                "{title}: {at} is not in the rule text; result read off the physical chart: {result}"
            ));
        }
        let value = result.trim_start_matches('+').parse::<i64>().ok();
        let mut outcome = self.outcome(result, value, table, &mut self.scope.clone())?;
        outcome.from_physical_chart = true;
        let lookup = match missing {
            ResolveError::MissingCell {
                table, row, column, ..
            } => Some(LookupTrace {
                table: table.clone(),
                line: None,
                row: row.clone(),
                column: Some(column.clone()),
                cell: result.to_string(),
            }),
            _ => None,
        };
        Ok(Finished {
            natural,
            modified,
            lookup,
            outcome,
            explanation,
            scores: Vec::new(),
        })
    }
}

/// Hits scored by some dice: each rule counts matching dice, one hit per `per` of them.
fn count_hits(
    hits: &[HitRule],
    scored: &[i64],
    scope: &Scope,
) -> Result<(i64, Vec<String>), ResolveError> {
    let mut total = 0i64;
    let mut parts = Vec::new();
    for rule in hits {
        if !hit_rule_applies(rule, scope)? {
            continue;
        }
        let mut count = 0u32;
        for f in scored {
            if hit_rule_matches(rule, *f, scope)? {
                count += 1;
            }
        }
        let mut h = i64::from(count / rule.per) * i64::from(rule.hits);
        if let Some(max) = rule.max_hits {
            h = h.min(i64::from(max));
        }
        if count > 0 {
            parts.push(format!("{count} × {} → {h}", describe_hit_rule(rule)));
        }
        total += h;
    }
    Ok((total, parts))
}

/// How each die of a pool scores: its face plus the each-die modifiers, no lower than the floor;
/// then summed, or matched against the hit rules.
pub(crate) struct PoolScoring<'a> {
    /// The score is the sum of the dice (not hits).
    pub sum: bool,
    /// The hit rules (those whose `when` fails count nothing).
    pub hits: &'a [HitRule],
    each: i64,
    floor: Option<i64>,
}

impl PoolScoring<'_> {
    /// What one face scores before the hit rules.
    pub fn scored(&self, face: i64) -> i64 {
        self.floor
            .map_or(face + self.each, |fl| (face + self.each).max(fl))
    }
}

/// What one die scores in hits, for rules that count single dice (per = 1); None if a rule counts pairs.
pub fn single_die_hits(
    hits: &[HitRule],
    face: i64,
    scope: &Scope,
) -> Result<Option<i64>, ResolveError> {
    let mut total = 0;
    for rule in hits {
        if !hit_rule_applies(rule, scope)? {
            continue;
        }
        if rule.per != 1 || rule.max_hits.is_some() {
            return Ok(None);
        }
        if hit_rule_matches(rule, face, scope)? {
            total += i64::from(rule.hits);
        }
    }
    Ok(Some(total))
}

fn describe_hit_rule(rule: &HitRule) -> String {
    let faces = if let Some(f) = &rule.faces {
        f.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("/")
    } else if let Some(e) = &rule.at_least {
        format!("≥{}", e.source())
    } else if let Some(e) = &rule.at_most {
        format!("≤{}", e.source())
    } else {
        String::new()
    };
    let grouped = if rule.per > 1 {
        format!("{faces} (per {})", rule.per)
    } else {
        faces
    };
    match rule.max_hits {
        Some(max) => format!("{grouped}, at most {max}"),
        None => grouped,
    }
}

/// Whether a hit rule counts here (its `when:`, e.g. the ruling that selects its reading).
fn hit_rule_applies(rule: &HitRule, scope: &Scope) -> Result<bool, ResolveError> {
    match &rule.when {
        Some(e) => e.eval_bool(scope).map_err(expr_err("hit rule")),
        None => Ok(true),
    }
}

/// The faces of a throw, as the procedure reads them: each side's dice as that side's in an
/// opposed roll ("Attacker [3, 5, 2]; Defender [4, 1]"), each die on its own where the
/// procedure reads the dice one by one (the activation contest's "A [2]; B [5]"), else the
/// faces and their sum. A sum of both sides' dice is never printed as if it meant something.
fn roll_words(prepared: &Prepared, faces: &[String], total: i64) -> String {
    let words = |name: &str| {
        let w = name.replace('_', " ");
        let mut c = w.chars();
        c.next().map_or_else(String::new, |f| {
            f.to_uppercase().collect::<String>() + c.as_str()
        })
    };
    match &prepared.procedure.lookup {
        Lookup::Opposed { sides, .. } if !prepared.groups.is_empty() => {
            let mut by_side: Vec<Vec<&str>> = vec![Vec::new(); sides.len()];
            let mut offset = 0usize;
            for g in &prepared.groups {
                let end = (offset + g.count as usize).min(faces.len());
                if let Some(side) = by_side.get_mut(g.side) {
                    side.extend(faces[offset..end].iter().map(String::as_str));
                }
                offset = end;
            }
            sides
                .iter()
                .zip(&by_side)
                .map(|(side, f)| format!("{} [{}]", words(&side.name), f.join(", ")))
                .collect::<Vec<_>>()
                .join("; ")
        }
        Lookup::Compute { lets, cases } if faces.len() > 1 => {
            let reads = |name: &str| {
                lets.iter()
                    .any(|l| l.expr.reads().iter().any(|r| r == name))
                    || cases.iter().any(|c| {
                        c.when
                            .iter()
                            .chain(c.value.iter())
                            .any(|e| e.reads().iter().any(|r| r == name))
                    })
            };
            if reads("roll") || reads("natural") {
                return format!("[{}] = {total}", faces.join(", "));
            }
            // Each die by whose it is: the label of the value that reads it ("A: modified
            // Initiative − die" reads die 1: A's die).
            faces
                .iter()
                .enumerate()
                .map(|(k, f)| {
                    let die = format!("die_{}", k + 1);
                    let whose = lets
                        .iter()
                        .find(|l| l.expr.reads().contains(&die))
                        .and_then(|l| l.label.as_deref())
                        .and_then(|l| l.split_once(": ").map(|(who, _)| who.to_string()))
                        .unwrap_or_else(|| format!("die {}", k + 1));
                    format!("{whose} [{f}]")
                })
                .collect::<Vec<_>>()
                .join("; ")
        }
        _ => format!("[{}] = {total}", faces.join(", ")),
    }
}

/// A resolution's dice in words, each side's as that side's: the explanation's roll lines
/// ("9d6: Attacker [3, 5, 2, 6, 3]; Defender [1, 4, 3, 5] (physical dice)"), or for a journal
/// recorded before they said so, each roll as thrown.
pub fn dice_words(r: &Resolution) -> Vec<String> {
    let lines: Vec<String> = r
        .explanation
        .iter()
        .filter_map(|l| l.strip_prefix("Roll "))
        .map(str::to_string)
        .collect();
    if lines.is_empty() {
        r.rolls.iter().map(crate::dice::Roll::words).collect()
    } else {
        lines
    }
}

/// Resolves a procedure: prepares, throws (app or physical dice) and looks up the outcome.
pub fn resolve(
    ruleset: &Ruleset,
    procedure: &Procedure,
    inputs: &BTreeMap<String, Value>,
    dice: DiceSource<'_>,
    chart_result: Option<&str>,
) -> Result<Resolution, ResolveError> {
    let prepared = prepare(ruleset, procedure, inputs)?;
    let mut rolls = Vec::new();
    let mut explanation = Vec::new();
    let faces = match &prepared.dice {
        Some(expr) => {
            let roll = match dice {
                DiceSource::App(app) => app.roll(expr),
                DiceSource::Physical { faces, entered_by } => {
                    Roll::physical(expr, &faces, entered_by)?
                }
            };
            let source = match &roll.provenance {
                Provenance::App {
                    seed: Some(seed),
                    first_draw,
                    ..
                } => format!("app dice, seed {seed}, draw {first_draw}"),
                // A game's seed is secret: its commitment stands for it.
                Provenance::App {
                    seed: None,
                    first_draw,
                    ..
                } => format!("app dice, draw {first_draw}"),
                Provenance::Physical { entered_by } => format!(
                    "physical dice{}",
                    entered_by
                        .as_ref()
                        .map_or_else(String::new, |w| format!(" rolled by {w}"))
                ),
            };
            let faces_text: Vec<String> = roll
                .dice
                .iter()
                .map(|d| {
                    d.label
                        .clone()
                        .map_or_else(|| d.face.to_string(), |l| format!("{l}({})", d.face))
                })
                .collect();
            explanation.push(format!(
                "Roll {}: {} ({source})",
                roll.expr,
                roll_words(&prepared, &faces_text, roll.total)
            ));
            let faces = roll.faces();
            rolls.push(roll);
            faces
        }
        None => Vec::new(),
    };
    let finished = prepared.finish(&faces, chart_result)?;
    let Prepared {
        inputs,
        derived,
        modifiers,
        explanation: prepared_lines,
        ..
    } = prepared;
    explanation.splice(0..0, prepared_lines);
    explanation.extend(finished.explanation);
    let effects: Vec<String> = finished
        .outcome
        .effects
        .iter()
        .map(describe_effect)
        .collect();
    explanation.push(format!(
        "Outcome: {}{}{}",
        finished.outcome.label,
        finished
            .outcome
            .value
            .filter(|_| finished.outcome.label != finished.outcome.code
                || finished.outcome.code.parse::<i64>().is_err())
            .map_or_else(String::new, |v| format!(" ({v})")),
        if effects.is_empty() {
            String::new()
        } else {
            format!(" — {}", effects.join("; "))
        }
    ));
    Ok(Resolution {
        ruleset: ruleset.id.clone(),
        procedure: procedure.id.clone(),
        inputs,
        derived,
        rolls,
        modifiers: modifiers.into_iter().filter(|m| m.active).collect(),
        natural: finished.natural,
        modified: finished.modified,
        lookup: finished.lookup,
        outcome: finished.outcome,
        explanation,
        scores: finished.scores,
    })
}

/// One line for an effect, in words: "defender loses 1 SP", "defender: disordered", "then cohesion
/// check (defender tests cohesion)", a note by its text. The kind and the ids stay in the JSON.
pub fn describe_effect(e: &Effect) -> String {
    let words = |t: &str| t.replace('_', " ");
    // A note with a number says the number ("attacker: 9 thousand men left"), never the words
    // alone.
    if e.kind == EffectKind::Note
        && let Some(a) = e.amount
    {
        let side = e
            .side
            .as_deref()
            .map_or_else(String::new, |s| format!("{}: ", words(s)));
        let text = e.text.as_deref().unwrap_or_default();
        return format!("{side}{a} {text}").trim_end().to_string();
    }
    let attribute = || words(e.attribute.as_deref().unwrap_or("value"));
    // The kind's own word with the amount, where the kind has no sentence of its own.
    let plain = || match e.amount {
        Some(a) => format!("{} {a}", words(e.kind.id())),
        None => words(e.kind.id()),
    };
    let what = match e.kind {
        EffectKind::SpLoss => e
            .amount
            .map_or_else(|| "loses SP".to_string(), |a| format!("loses {a} SP")),
        EffectKind::Retreat => e.amount.map_or_else(plain, |a| format!("retreats {a}")),
        EffectKind::Advance => e.amount.map_or_else(plain, |a| format!("advances {a}")),
        EffectKind::Eliminate => "eliminated".to_string(),
        EffectKind::Adjust => e
            .amount
            .map_or_else(plain, |a| format!("{} {a:+}", attribute())),
        // "army becomes mutinous", "character is no longer alive", "treasury set to 12".
        EffectKind::Set => match (e.amount, &e.value) {
            (Some(a), _) => format!("{} set to {a}", attribute()),
            (None, Some(Value::Bool(true))) => format!("becomes {}", attribute()),
            (None, Some(Value::Bool(false))) => format!("is no longer {}", attribute()),
            (None, Some(v)) => format!("{} set to {v}", attribute()),
            (None, None) => plain(),
        },
        EffectKind::Status => e.status.as_deref().map(words).unwrap_or_default(),
        EffectKind::FollowUp => format!(
            "then {}",
            e.procedure.as_deref().map(words).unwrap_or_default()
        ),
        EffectKind::Note => String::new(),
        EffectKind::Value | EffectKind::Move => plain(),
    };
    let mut s = match (&e.side, what.is_empty()) {
        (Some(side), false)
            if what.starts_with(|c: char| c.is_lowercase()) && e.kind != EffectKind::Status =>
        {
            format!("{} {what}", words(side))
        }
        (Some(side), false) => format!("{}: {what}", words(side)),
        (_, _) => what,
    };
    if let Some(t) = &e.text {
        if s.is_empty() {
            s = t.clone();
        } else {
            s.push_str(&format!(" ({t})"));
        }
    }
    if s.is_empty() {
        s = words(e.kind.id());
    }
    s
}
