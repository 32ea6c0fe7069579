//! A megagame's remits, validated ([`crate::rules::raw::RawRemits`]): what the desks' gate
//! and the Control server both judge by.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

/// The Control roles a remit names, by id (`game::scenario::ControlRole::id`).
pub const REMIT_ROLES: [&str; 6] = [
    "map",
    "political",
    "religious",
    "character",
    "non_played_states",
    "game",
];

/// The kinds of counter a clause names (`megagame::people::CounterClass`).
pub const REMIT_CLASSES: [&str; 7] = [
    "ledger",
    "army",
    "fleet",
    "city",
    "area",
    "character",
    "other",
];

/// What a clause answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RemitAnswer {
    /// Routine: no note.
    Own,
    /// With a reason, recorded.
    Discretion,
    /// Refused.
    Outside,
}

/// The counter's table against the umpire's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RemitTable {
    /// Both known and the same.
    Own,
    /// Both known and different.
    Other,
    /// The counter's is not known.
    Unknown,
    /// The umpire gave none.
    NoneGiven,
}

impl RemitTable {
    /// Whether a counter at `its` matches, for an umpire at `mine`.
    pub fn matches(self, mine: Option<&str>, its: Option<&str>) -> bool {
        match self {
            RemitTable::Own => matches!((mine, its), (Some(m), Some(i)) if m == i),
            RemitTable::Other => matches!((mine, its), (Some(m), Some(i)) if m != i),
            RemitTable::Unknown => its.is_none(),
            RemitTable::NoneGiven => mine.is_none(),
        }
    }
}

/// What of a counter a clause is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Touching {
    /// The counter as a whole.
    pub whole: bool,
    /// These attributes (groups expanded).
    pub attributes: BTreeSet<String>,
}

/// One clause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RemitClause {
    /// Counter kinds; empty: any.
    pub classes: Vec<String>,
    /// What is touched; None: anything.
    pub touching: Option<Touching>,
    /// The table condition.
    pub table: Option<RemitTable>,
    /// The non-played condition.
    pub non_played: Option<bool>,
    /// Only a part in a resolution of these procedures; empty: any touch.
    pub resolving: Vec<String>,
    /// The answer.
    pub remit: RemitAnswer,
    /// The rule.
    pub rule: String,
    /// Why (with `{counter}` and `{table}`).
    pub why: String,
    /// Where the text extraction has it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// What a clause is asked about.
#[derive(Debug, Clone, Copy)]
pub struct RemitQuestion<'a> {
    /// The counter's kind.
    pub class: &'a str,
    /// The attribute touched (None: the counter as a whole).
    pub attribute: Option<&'a str>,
    /// The umpire's table.
    pub mine: Option<&'a str>,
    /// The counter's table.
    pub its: Option<&'a str>,
    /// Whether it is non-played.
    pub non_played: bool,
    /// The procedure whose resolution it takes part in, for a part in a resolution.
    pub resolving: Option<&'a str>,
}

impl RemitClause {
    /// Whether every condition holds.
    pub fn matches(&self, q: &RemitQuestion) -> bool {
        (self.classes.is_empty() || self.classes.iter().any(|c| c == q.class))
            && self.touching.as_ref().is_none_or(|t| match q.attribute {
                None => t.whole,
                Some(a) => t.attributes.contains(a),
            })
            && self.table.is_none_or(|t| t.matches(q.mine, q.its))
            && self.non_played.is_none_or(|n| n == q.non_played)
            && (self.resolving.is_empty()
                || q.resolving
                    .is_some_and(|p| self.resolving.iter().any(|r| r == p)))
    }

    /// The reason, for `counter` at `its`.
    pub fn why_for(&self, counter: &str, its: Option<&str>) -> String {
        self.why
            .replace("{counter}", counter)
            .replace("{table}", its.unwrap_or("no known table"))
    }
}

/// A megagame's remits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Remits {
    /// The rule they come from.
    pub rule: String,
    /// Where the text extraction has it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// The roles that work the phase clock.
    pub clock: Vec<String>,
    /// Each role's clauses over a counter on the table.
    pub roles: BTreeMap<String, Vec<RemitClause>>,
    /// Each role's clauses over a counter it puts on the table.
    pub adding: BTreeMap<String, Vec<RemitClause>>,
    /// Who may take each action over the whole game ([`ACTION_REMITS`]).
    pub actions: BTreeMap<String, ActionRemit>,
}

/// The actions over the whole game a megagame's remits must say the roles of: stepping the
/// Sequence of Play, revealing the app dice's seed, a public announcement, and overriding a
/// result another umpire made.
pub const ACTION_REMITS: [&str; 4] = ["step", "reveal", "announce_public", "override_others"];

/// The roles that may take one kind of action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActionRemit {
    /// The Control roles that may.
    pub roles: Vec<String>,
    /// The rule.
    pub rule: String,
    /// Why the others may not.
    pub why: String,
    /// Where the text extraction has it (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

impl Remits {
    /// Whether `role` may take `action` ([`ACTION_REMITS`]): Ok, or the remit that says who
    /// may. An action the remits do not declare is Game Control's alone.
    pub fn may(&self, action: &str, role: &str) -> Result<(), Option<&ActionRemit>> {
        match self.actions.get(action) {
            Some(a) if a.roles.iter().any(|r| r == role) => Ok(()),
            Some(a) => Err(Some(a)),
            None if role == "game" => Ok(()),
            None => Err(None),
        }
    }

    /// The first clause of `role`'s that matches (`adding`: over a counter put on the table).
    pub fn answer(&self, role: &str, adding: bool, q: &RemitQuestion) -> Option<&RemitClause> {
        let clauses = if adding { &self.adding } else { &self.roles };
        clauses.get(role)?.iter().find(|c| c.matches(q))
    }
}
