//! A procedure: inputs → derived values → modifiers → dice → lookup → outcome, with an
//! explanation of every step; and the exact odds of each outcome from the same definitions.

mod error;
mod explain;
mod finish;
mod inputs;
mod lookup;
pub mod needed;
mod odds;
mod pool;
mod prepare;
mod ranged;
mod table;

use explain::*;
use inputs::*;
use pool::*;
use table::*;

pub use explain::{describe_effect, dice_words};
pub use inputs::parse_inputs;
pub use pool::single_die_hits;
pub use prepare::prepare;

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

/// Where a roll's dice came from, as a resolution's explanation says it ("app dice, draw 12",
/// "physical dice rolled by Anna"): the audit puts it back when it re-resolves a recorded roll
/// from its faces.
pub fn source_words(provenance: &Provenance) -> String {
    match provenance {
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
    }
}

/// The outcome `code` stands for with these inputs, as a roll that landed on it would give
/// it — the procedure's effects for it, then its chart's: the result an override puts in
/// place of the one rolled.
pub fn outcome_of(
    ruleset: &Ruleset,
    procedure: &Procedure,
    inputs: &BTreeMap<String, Value>,
    code: &str,
) -> Result<Outcome, ResolveError> {
    let prepared = prepare(ruleset, procedure, inputs)?;
    let table = match &procedure.lookup {
        Lookup::Table(r) => ruleset.table(&r.table),
        _ => None,
    };
    let code = code.trim();
    let value = code.trim_start_matches('+').parse::<i64>().ok();
    prepared.outcome(code, value, table, &mut prepared.scope.clone())
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
            let source = source_words(&roll.provenance);
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
