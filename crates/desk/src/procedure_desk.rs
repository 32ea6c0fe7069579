//! The procedure desk ([`ProcedureDesk`]: one procedure at a time, no game; the resolve panel
//! also uses one over the game's ruleset for its inputs, modifiers and odds). Its state and
//! actions, without any drawing: which ruleset and procedure are open,
//! the inputs as typed, the session's dice, the cached preview (modifiers and odds), the last
//! result and the session log. Every rule is applied by [`umpire_core::resolve`]; this file only
//! keeps track of what the umpire chose and what the engine answered.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use umpire_core::dice::AppDice;
use umpire_core::resolve::{self, DiceSource, Odds, Resolution, ResolveError};
use umpire_core::rules::{AppliesTo, InputKind, Library, ModifierValue, Procedure, Ruleset, Value};

/// A modifier as the desk shows it: the engine's state for the current inputs, plus the
/// declared value (as written in the ruleset) for modifiers that do not apply.
#[derive(Debug, Clone, PartialEq)]
pub struct ModifierRow {
    /// Name as printed.
    pub name: String,
    /// The value for these inputs (None when inactive, or when its chart cell is missing).
    pub value: Option<i64>,
    /// The value as declared in the ruleset (`-1`, `-earlier_evasions`, `from firing`).
    pub declared: String,
    /// Rule reference ("" when none).
    pub rule: String,
    /// What it changes.
    pub applies_to: AppliesTo,
    /// Whether its condition holds for these inputs.
    pub active: bool,
    /// How its value was found (a table lookup), if not a plain number.
    pub note: String,
}

/// A derived value as the desk shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct DerivedRow {
    /// Label (or name).
    pub label: String,
    /// Value.
    pub value: Value,
    /// Rule reference ("" when none).
    pub rule: String,
}

/// Everything shown before the roll, for one set of inputs: worked out by the engine once per
/// change of inputs and kept until they change again.
#[derive(Debug, Clone)]
pub struct Preview {
    key: PreviewKey,
    /// Modifiers and derived values, or why the engine could not prepare these inputs.
    pub prepared: Result<(Vec<ModifierRow>, Vec<DerivedRow>), String>,
    /// The dice to throw (`d6`, `4d6` for a pool), if any.
    pub dice: Option<String>,
    /// The number of physical dice to type.
    pub dice_count: usize,
    /// Exact odds of each outcome, or why they cannot be given.
    pub odds: Result<Odds, String>,
}

/// What the preview was computed for.
#[derive(Debug, Clone, PartialEq)]
struct PreviewKey {
    ruleset: usize,
    procedure: usize,
    inputs: BTreeMap<String, Value>,
}

/// The dice of a throw that landed on a chart cell missing from the rule text, kept so that
/// entering the result read off the physical chart replays exactly the same throw.
#[derive(Debug, Clone)]
enum PendingDice {
    /// App dice as they stood before the throw.
    App(AppDice),
    /// Physical faces as typed.
    Physical(Vec<String>),
}

/// A throw waiting for the umpire to read the result off the physical chart.
#[derive(Debug, Clone)]
pub struct PendingChart {
    key: PreviewKey,
    dice: PendingDice,
    /// The engine's message: which table, row and column to read.
    pub problem: String,
}

/// One line of the session log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// 1 for the first result of the session.
    pub number: u64,
    /// Time since the desk opened.
    pub elapsed: Duration,
    /// Ruleset id.
    pub ruleset: String,
    /// Procedure name.
    pub procedure: String,
    /// The dice thrown, e.g. `d6 [5] physical` or `d6 [3] app #12`.
    pub dice: String,
    /// Outcome label (with its number, if any).
    pub outcome: String,
    /// Whether the result was read off the physical chart.
    pub from_chart: bool,
}

/// The desk: the state behind the window. Drawn by the `*_ui` methods in `view.rs`; driven by
/// the methods below (which the window's buttons call, and tests may call directly).
#[derive(Debug)]
pub struct ProcedureDesk {
    library: Library,
    ruleset: usize,
    procedure: usize,
    inputs: BTreeMap<String, Value>,
    dice: AppDice,
    /// The physical dice field, as typed.
    pub physical: String,
    /// The chart result field, as typed.
    pub chart_entry: String,
    preview: Option<Preview>,
    result: Option<Resolution>,
    error: Option<String>,
    pending: Option<PendingChart>,
    log: Vec<LogEntry>,
    started: Instant,
}

/// The ruleset the desk opens on when it is available.
pub const DEFAULT_RULESET: &str = "qrs";

impl ProcedureDesk {
    /// A desk over `library`, with app dice on a fresh seed, open on [`DEFAULT_RULESET`] (or the
    /// first ruleset) and its first procedure.
    pub fn new(library: Library) -> ProcedureDesk {
        ProcedureDesk::with_seed(library, AppDice::fresh_seed())
    }

    /// A desk whose app dice use `seed` (for reproducible sessions and tests).
    pub fn with_seed(library: Library, seed: u64) -> ProcedureDesk {
        let mut desk = ProcedureDesk {
            library,
            ruleset: 0,
            procedure: 0,
            inputs: BTreeMap::new(),
            dice: AppDice::new(seed),
            physical: String::new(),
            chart_entry: String::new(),
            preview: None,
            result: None,
            error: None,
            pending: None,
            log: Vec::new(),
            started: Instant::now(),
        };
        // Open on the ruleset whose tables are all in its text, so a first roll shows a result.
        if let Some(i) = desk
            .library
            .rulesets
            .iter()
            .position(|r| r.id == DEFAULT_RULESET)
        {
            desk.ruleset = i;
        }
        desk.reset_inputs();
        desk.refresh();
        desk
    }

    /// Replaces the rulesets (after a transcription was saved, or once they are loaded),
    /// staying on the open ruleset and procedure when they are still there.
    pub fn set_library(&mut self, library: Library) {
        let ruleset = self.ruleset().map(|r| r.id.clone());
        let procedure = self.procedure().map(|p| p.id.clone());
        let mut fresh = ProcedureDesk::with_seed(library, self.dice.seed());
        if let Some(i) =
            ruleset.and_then(|id| fresh.library.rulesets.iter().position(|r| r.id == id))
        {
            fresh.select_ruleset(i);
            if let Some(j) = procedure.and_then(|id| {
                fresh
                    .ruleset()
                    .and_then(|r| r.procedures.iter().position(|p| p.id == id))
            }) {
                fresh.select_procedure(j);
            }
        }
        fresh.dice = AppDice::resume(self.dice.seed(), self.dice.next_draw());
        fresh.log = std::mem::take(&mut self.log);
        fresh.started = self.started;
        *self = fresh;
    }

    /// The rulesets (loaded and failed).
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// Index of the open ruleset in [`Library::rulesets`].
    pub fn ruleset_index(&self) -> usize {
        self.ruleset
    }

    /// Index of the open procedure in the ruleset's procedures.
    pub fn procedure_index(&self) -> usize {
        self.procedure
    }

    /// The open ruleset, if any loaded.
    pub fn ruleset(&self) -> Option<&Ruleset> {
        self.library.rulesets.get(self.ruleset)
    }

    /// The open procedure, if any.
    pub fn procedure(&self) -> Option<&Procedure> {
        self.ruleset()
            .and_then(|r| r.procedures.get(self.procedure))
    }

    /// Opens a ruleset (by index) on its first procedure.
    pub fn select_ruleset(&mut self, index: usize) {
        if index == self.ruleset || index >= self.library.rulesets.len() {
            return;
        }
        self.ruleset = index;
        self.procedure = usize::MAX;
        self.select_procedure(0);
    }

    /// Switches a ruling of the open ruleset (a reading of an ambiguous rule) and recomputes.
    pub fn set_ruling(&mut self, ruling: &str, option: &str) {
        let Some(current) = self.library.rulesets.get(self.ruleset) else {
            return;
        };
        match current.with_rulings(&[(ruling.to_string(), option.to_string())]) {
            Ok(switched) => {
                self.library.rulesets[self.ruleset] = switched;
                self.preview = None;
                self.refresh();
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Opens a procedure (by index) of the open ruleset, with its inputs at their defaults.
    pub fn select_procedure(&mut self, index: usize) {
        let count = self.ruleset().map_or(0, |r| r.procedures.len());
        if index == self.procedure || (index >= count && count > 0) {
            return;
        }
        self.procedure = index;
        self.reset_inputs();
        self.physical.clear();
        self.chart_entry.clear();
        self.error = None;
        self.pending = None;
        self.refresh();
    }

    /// Puts every input back to the default the rules give, flags off; an input the rules give
    /// no value for stays empty until the umpire fills it (the odds say what is still needed).
    pub fn reset_inputs(&mut self) {
        self.inputs = self
            .procedure()
            .map(|p| {
                p.inputs
                    .iter()
                    .filter_map(|i| match (&i.default, &i.kind) {
                        (Some(d), _) => Some((i.name.clone(), d.clone())),
                        (None, InputKind::Flag) => Some((i.name.clone(), Value::Bool(false))),
                        (None, _) => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
    }

    /// The inputs the rules give no value for that are still empty, by label.
    pub fn missing_inputs(&self) -> Vec<String> {
        self.procedure()
            .map(|p| {
                p.inputs
                    .iter()
                    .filter(|i| !self.inputs.contains_key(&i.name))
                    .filter(|i| i.default.is_none() && !matches!(i.kind, InputKind::Flag))
                    .map(|i| i.label.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The inputs as they stand.
    pub fn inputs(&self) -> &BTreeMap<String, Value> {
        &self.inputs
    }

    /// The value of one input.
    pub fn input(&self, name: &str) -> Option<&Value> {
        self.inputs.get(name)
    }

    /// Sets one input (checked by the engine when the preview is refreshed).
    pub fn set_input(&mut self, name: &str, value: Value) {
        self.inputs.insert(name.to_string(), value);
    }

    /// Empties one input: "needed" until the umpire gives it (its default not taken).
    pub fn clear_input(&mut self, name: &str) {
        self.inputs.remove(name);
    }

    /// Puts one input back to the default the rules give (a flag off; none: empty).
    pub fn reset_input(&mut self, name: &str) {
        let Some(spec) = self.procedure().and_then(|p| p.input(name)) else {
            return;
        };
        match (&spec.default, &spec.kind) {
            (Some(d), _) => {
                let d = d.clone();
                self.inputs.insert(name.to_string(), d);
            }
            (None, InputKind::Flag) => {
                self.inputs.insert(name.to_string(), Value::Bool(false));
            }
            (None, _) => {
                self.inputs.remove(name);
            }
        }
    }

    /// The session's app dice (seed and next draw).
    pub fn app_dice(&self) -> &AppDice {
        &self.dice
    }

    /// Starts the app dice again on another seed, at draw 0.
    pub fn set_seed(&mut self, seed: u64) {
        self.dice = AppDice::new(seed);
    }

    /// Recomputes the preview (modifiers, derived values, odds) if the inputs changed since
    /// it was last computed; returns the preview.
    pub fn refresh(&mut self) -> Option<&Preview> {
        let key = PreviewKey {
            ruleset: self.ruleset,
            procedure: self.procedure,
            inputs: self.inputs.clone(),
        };
        if self.preview.as_ref().is_none_or(|p| p.key != key) {
            self.preview = match (self.library.rulesets.get(self.ruleset), self.procedure()) {
                (Some(ruleset), Some(procedure)) => Some(compute_preview(ruleset, procedure, key)),
                _ => None,
            };
        }
        self.preview.as_ref()
    }

    /// The preview as last computed.
    pub fn preview(&self) -> Option<&Preview> {
        self.preview.as_ref()
    }

    /// The last result.
    pub fn last_result(&self) -> Option<&Resolution> {
        self.result.as_ref()
    }

    /// The last problem (bad dice, bad chart result…), phrased for the umpire.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// A throw waiting for the result read off the physical chart.
    pub fn pending_chart(&self) -> Option<&PendingChart> {
        self.pending.as_ref()
    }

    /// The session log, oldest first.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Throws the app dice (continuing the session's stream) and resolves.
    pub fn roll(&mut self) {
        let before = self.dice.clone();
        // Field by field, so the rules stay borrowed while the dice move on.
        let ruleset = self.library.rulesets.get(self.ruleset);
        let outcome = match (
            ruleset,
            ruleset.and_then(|r| r.procedures.get(self.procedure)),
        ) {
            (Some(ruleset), Some(procedure)) => resolve::resolve(
                ruleset,
                procedure,
                &self.inputs,
                DiceSource::App(&mut self.dice),
                None,
            ),
            _ => return,
        };
        self.settle(outcome, PendingDice::App(before));
    }

    /// Resolves with the physical dice typed in [`ProcedureDesk::physical`] (faces separated by spaces
    /// or commas).
    pub fn use_physical(&mut self) {
        let faces = split_faces(&self.physical);
        let outcome = match (self.ruleset(), self.procedure()) {
            (Some(ruleset), Some(procedure)) => resolve::resolve(
                ruleset,
                procedure,
                &self.inputs,
                DiceSource::Physical {
                    faces: faces.clone(),
                    entered_by: None,
                },
                None,
            ),
            _ => return,
        };
        self.settle(outcome, PendingDice::Physical(faces));
    }

    /// Finishes the pending throw with the result typed in [`ProcedureDesk::chart_entry`].
    pub fn use_chart_result(&mut self) {
        let Some(pending) = self.pending.clone() else {
            return;
        };
        let (Some(ruleset), Some(procedure)) = (
            self.library.rulesets.get(pending.key.ruleset),
            self.library
                .rulesets
                .get(pending.key.ruleset)
                .and_then(|r| r.procedures.get(pending.key.procedure)),
        ) else {
            self.pending = None;
            return;
        };
        let chart = self.chart_entry.trim().to_string();
        let outcome = match &pending.dice {
            PendingDice::App(before) => {
                // Replays the same draws: the session's dice have already moved past them.
                let mut replay = before.clone();
                resolve::resolve(
                    ruleset,
                    procedure,
                    &pending.key.inputs,
                    DiceSource::App(&mut replay),
                    Some(&chart),
                )
            }
            PendingDice::Physical(faces) => resolve::resolve(
                ruleset,
                procedure,
                &pending.key.inputs,
                DiceSource::Physical {
                    faces: faces.clone(),
                    entered_by: None,
                },
                Some(&chart),
            ),
        };
        match outcome {
            Ok(resolution) => {
                self.pending = None;
                self.chart_entry.clear();
                self.record(resolution);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Records the engine's answer: a result (logged), a missing chart cell (kept pending), or
    /// a problem to show.
    fn settle(&mut self, outcome: Result<Resolution, ResolveError>, dice: PendingDice) {
        match outcome {
            Ok(resolution) => {
                self.pending = None;
                self.record(resolution);
            }
            Err(e @ ResolveError::MissingCell { .. }) => {
                self.error = None;
                self.chart_entry.clear();
                self.pending = Some(PendingChart {
                    key: PreviewKey {
                        ruleset: self.ruleset,
                        procedure: self.procedure,
                        inputs: self.inputs.clone(),
                    },
                    dice,
                    problem: e.for_a_form(),
                });
            }
            Err(e) => {
                self.pending = None;
                self.error = Some(e.to_string());
            }
        }
    }

    fn record(&mut self, resolution: Resolution) {
        self.error = None;
        let procedure = self
            .library
            .get(&resolution.ruleset)
            .and_then(|r| r.procedure(&resolution.procedure))
            .map_or_else(|| resolution.procedure.clone(), |p| p.name.clone());
        self.log.push(LogEntry {
            number: self.log.len() as u64 + 1,
            elapsed: self.started.elapsed(),
            ruleset: resolution.ruleset.clone(),
            procedure,
            dice: describe_rolls(&resolution.rolls),
            outcome: outcome_text(&resolution),
            from_chart: resolution.outcome.from_physical_chart,
        });
        self.result = Some(resolution);
    }
}

/// Works out the preview for one set of inputs.
fn compute_preview(ruleset: &Ruleset, procedure: &Procedure, key: PreviewKey) -> Preview {
    let (prepared, dice, dice_count) = match resolve::prepare(ruleset, procedure, &key.inputs) {
        Ok(p) => {
            let modifiers = p
                .modifiers
                .iter()
                .enumerate()
                .map(|(i, m)| ModifierRow {
                    name: m.name.clone(),
                    value: m.value,
                    declared: procedure
                        .modifiers
                        .get(i)
                        .filter(|d| d.name == m.name)
                        .map_or_else(String::new, |d| declared_value(ruleset, &d.value)),
                    rule: m.source.clone(),
                    applies_to: m.applies_to,
                    active: m.active,
                    note: m.note.clone(),
                })
                .collect();
            // Values the ruleset labels for people (a target number); unlabelled helpers such
            // as `is_cannon` stay in the explanation only.
            let derived = p
                .derived
                .iter()
                .filter_map(|d| {
                    let label = procedure
                        .derived
                        .iter()
                        .find(|x| x.name == d.name)
                        .and_then(|x| x.label.clone())?;
                    Some(DerivedRow {
                        label,
                        value: d.value.clone(),
                        rule: d.rule.clone().unwrap_or_default(),
                    })
                })
                .collect();
            let dice = p.dice.as_ref().map(|d| d.source().to_string());
            let count = p.dice.as_ref().map_or(0, |d| d.dice().len());
            (Ok((modifiers, derived)), dice, count)
        }
        Err(e) => (
            Err(e.for_a_form()),
            procedure.roll.as_ref().map(|d| d.source().to_string()),
            0,
        ),
    };
    let odds = resolve::odds(ruleset, procedure, &key.inputs).map_err(|e| e.for_a_form());
    Preview {
        key,
        prepared,
        dice,
        dice_count,
        odds,
    }
}

/// A modifier's value as declared: the number or expression, or the table it is read from.
fn declared_value(ruleset: &Ruleset, value: &ModifierValue) -> String {
    match value {
        ModifierValue::Expr(e) => e.source().to_string(),
        ModifierValue::Table(t) => {
            format!(
                "from {}",
                ruleset
                    .table(&t.table)
                    .map_or(t.table.as_str(), |t| t.title.as_str())
            )
        }
    }
}

/// Splits typed faces at spaces and commas.
pub fn split_faces(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// The dice of a resolution in one line (the engine's describer).
pub use umpire_core::game::describe::dice as describe_rolls;
/// The outcome in words (the engine's describer).
pub use umpire_core::game::describe::outcome as outcome_text;

/// `00:04:12`.
pub fn clock(elapsed: Duration) -> String {
    let s = elapsed.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_split_at_spaces_and_commas() {
        assert_eq!(split_faces(" 3, 4  5,,6 "), vec!["3", "4", "5", "6"]);
        assert!(split_faces("  ").is_empty());
    }

    #[test]
    fn clock_formats_hours_minutes_seconds() {
        assert_eq!(
            clock(Duration::from_secs(3 * 3600 + 4 * 60 + 5)),
            "03:04:05"
        );
    }
}
