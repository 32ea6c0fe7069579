//! Who may touch what, as written: a megagame ruleset's `remits:` — each Control role's remit
//! over the counters of the game, as ordered clauses (the first that matches answers). The
//! desks' gate (`megagame::remit`, above this layer) and the Control server's SQL (`umpire_remit` in
//! `scripts/control-server.sql`, told the same clauses when a game is created) both judge by
//! them: one declaration.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::schema::fields::Identifier;

/// What a clause answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "RemitAnswer")]
pub enum RawRemitAnswer {
    /// The role's routine business: no note needed.
    Own,
    /// Not its own, but the handbook has it help or co-ordinate: allowed with a reason, which
    /// the journal keeps.
    Discretion,
    /// Another role's business: refused with the rule.
    Outside,
}

/// Which map table a clause is about: the counter's (its `map_table`, else its state's) against
/// the signed-in Map Control's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "RemitTable")]
pub enum RawRemitTable {
    /// The counter is at this umpire's table.
    Own,
    /// The counter is at another table.
    Other,
    /// The counter's table is not known.
    Unknown,
    /// The umpire signed in without a table.
    NoneGiven,
}

/// One clause: what it matches (every condition given must hold) and its answer.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "RemitClause")]
pub struct RawRemitClause {
    /// The kinds of counter: `ledger`, `army`, `fleet`, `city`, `area`, `character`, `other`;
    /// none: any.
    #[serde(default)]
    pub class: Vec<String>,
    /// What of the counter is touched: attribute names, group names (`groups:`), and `whole`
    /// for the counter as a whole (a move, a removal, a part in a resolution); none: anything.
    #[serde(default)]
    pub touching: Vec<String>,
    /// The counter's map table against the umpire's.
    #[serde(default)]
    pub table: Option<RawRemitTable>,
    /// Whether the counter belongs to a non-played state (or is a non-played character).
    #[serde(default)]
    pub non_played: Option<bool>,
    /// Only a counter's part in a resolution of one of these procedures (the role resolves
    /// them: its routine work).
    #[serde(default)]
    #[schemars(with = "Vec<Identifier>")]
    pub resolving: Vec<String>,
    /// The answer.
    pub remit: RawRemitAnswer,
    /// The rule it rests on, as the handbook names it.
    pub rule: String,
    /// Why, in words; `{counter}` and `{table}` are filled in.
    pub why: String,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// A megagame's remits: attribute groups, who works the clock, each role's clauses over the
/// counters on the table and over a counter put on it (raising an army).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Remits")]
pub struct RawRemits {
    /// The rule the remits come from.
    pub rule: String,
    /// The lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
    /// Named lists of attributes, for `touching:` (`religion: [religion, …]`).
    #[serde(default)]
    pub groups: BTreeMap<String, Vec<String>>,
    /// The roles that work the phase clock (start, hold, resume, advance, set).
    #[serde(default)]
    pub clock: Vec<String>,
    /// Each role's clauses over a counter on the table, in order; the last must match
    /// anything.
    pub roles: BTreeMap<String, Vec<RawRemitClause>>,
    /// Each role's clauses over a counter it puts on the table (raising an army), in order;
    /// the last must match anything.
    pub adding: BTreeMap<String, Vec<RawRemitClause>>,
    /// Who may do what that touches no counter but the whole game: `step` (the Sequence of
    /// Play, Next, Back and Enter), `reveal` (the app dice's seed), `announce_public` (an
    /// announcement to everyone) and `override_others` (replace the result of a resolution
    /// another umpire made). Every one is declared, naming the roles (Game Control where the
    /// handbook names nobody).
    #[serde(default)]
    pub actions: BTreeMap<String, RawActionRemit>,
}

/// The roles that may take one kind of action, with the rule.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "ActionRemit")]
pub struct RawActionRemit {
    /// The Control roles that may.
    pub roles: Vec<String>,
    /// The rule it rests on, as the handbook names it.
    pub rule: String,
    /// Why the others may not, in words ("Game Control keeps the game moving on").
    pub why: String,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}
