//! The YAML as written: deserialised with unknown fields refused, then validated into
//! [`super::model`] types.
//!
//! These types are also the files' schema: every type and field carries a doc comment written
//! for someone writing the YAML, and `JsonSchema` turns them into the JSON Schemas and the
//! Markdown reference in `docs/schema/` ([`crate::schema`], `umpire rules schema`). A field
//! added here needs its comment (a test lists the fields without one) and the schema files
//! regenerated.
//!
//! This file holds the ruleset file itself ([`RawRuleset`]) and the scalar its values are
//! written in ([`RawScalar`]); each section has its file: [`setup`] (geometry, attributes,
//! steps, rulings, statuses, decks, dice), [`procedures`], [`lookup`], [`effects`], [`tables`],
//! [`clock`] and [`visibility`]. Every type is re-exported here, so `raw::X` names it.

mod clock;
mod effects;
mod lookup;
mod losses;
mod orders;
mod procedures;
mod records;
mod remits;
mod setup;
mod tables;
mod visibility;

pub use clock::*;
pub use effects::*;
pub use lookup::*;
pub use losses::*;
pub use orders::*;
pub use procedures::*;
pub use records::*;
pub use remits::*;
pub use setup::*;
pub use tables::*;
pub use visibility::*;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::schema::fields::{Expression, Identifier};

/// A value written as a whole number, `true`/`false` or text: a table's row key or cell, a
/// choice, a default. A float (`1.5`) or a list is refused.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "Scalar")]
pub enum RawScalar {
    /// A whole number (`-2`, `7`).
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// Text (`"2-3"`, `"≤0"`, `A1D3`, `"?"`).
    Text(String),
}

impl RawScalar {
    /// The scalar as text.
    pub fn text(&self) -> String {
        match self {
            RawScalar::Int(i) => i.to_string(),
            RawScalar::Bool(b) => b.to_string(),
            RawScalar::Text(t) => t.clone(),
        }
    }
}

/// `tables/<ruleset>/ruleset.yaml`: the ruleset, its dice, its procedures, what its counters
/// carry, its Sequence of Play, rulings, markers, decks and what each side sees. Every other
/// `.yaml` file of the folder is one table. A ruleset with any error loads nothing.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRuleset {
    /// The ruleset's id: scenarios name it (`ruleset: ailsh`), and so do the command line and
    /// game files. Conventionally the folder's name.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name as people read it ("Renaissance miniatures QRS (BU / VBU / VD)").
    pub name: String,
    /// The rule text it is transcribed from, in words (a title; not line numbers).
    #[serde(default)]
    pub source: Option<String>,
    /// What the game is and what the text does and does not give, shown with the ruleset.
    #[serde(default)]
    pub description: Option<String>,
    /// Custom dice the procedures may name besides `dN` (`dcmd`, a die with symbols or
    /// weighted faces).
    #[serde(default)]
    pub dice: Vec<RawDie>,
    /// The procedures the umpire resolves: inputs → modifiers → dice → lookup → outcome.
    #[serde(default)]
    pub procedures: Vec<RawProcedure>,
    /// How positions are given on the table (hexes, areas or free measurement), and the
    /// gazetteer of places the text names.
    #[serde(default)]
    pub geometry: Option<RawGeometry>,
    /// The unit attribute (a whole-number one of `units`) that holds a counter's strength:
    /// `sp_loss` effects reduce it (`strength_points`).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub strength_attribute: Option<String>,
    /// How a Strength Point loss on a Force is spread over its units, per procedure (the
    /// first rule naming the procedure, else the one naming none).
    #[serde(default)]
    pub losses: Vec<RawLossRule>,
    /// A megagame's Control team: each role's remit over the counters, and who works the
    /// phase clock (`remits:`).
    #[serde(default)]
    pub remits: Option<RawRemits>,
    /// A megagame's records kept by Control: ranked charts, registers, votes, banks
    /// (`records:`).
    #[serde(default)]
    pub records: Option<RawRecords>,
    /// The unit attribute (one of `units`) that names a counter's type, drawn as its symbol on
    /// the desk's counter face (`unit_type`).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub type_attribute: Option<String>,
    /// The attributes a unit (or marker, or a megagame state's ledger) carries; a scenario's
    /// counters give their values.
    #[serde(default)]
    pub units: Vec<RawAttribute>,
    /// The attributes a leader carries.
    #[serde(default)]
    pub leaders: Vec<RawAttribute>,
    /// The Sequence of Play: phases with their segments and steps, and the procedures that
    /// belong to each.
    #[serde(default)]
    pub sequence_of_play: Vec<RawStep>,
    /// Optional rules a game may put in play (`game new --optional 18.4`): steps whose `when`
    /// names one apply only in games that play it.
    #[serde(default)]
    pub optional_rules: Vec<RawOptionalRule>,
    /// The step (a `sequence_of_play` leaf step's id) at which reinforcements are deployed
    /// (ailsh C.1 "Deployment of Reinforcements"): scheduled and conditional arrivals are due
    /// there. Without it, the turn's first step.
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub reinforcements_step: Option<String>,
    /// Where the text is ambiguous or contradicts itself: the readings and the default, which
    /// the umpire may switch (`--ruling ID=OPTION`).
    #[serde(default)]
    pub rulings: Vec<RawRuling>,
    /// The status markers the text names (Disrupted, Besieged…): what effects put on counters
    /// and the desk offers to put on by hand.
    #[serde(default)]
    pub statuses: Vec<RawStatus>,
    /// Decks of cards and cups of markers drawn without replacement.
    #[serde(default)]
    pub decks: Vec<RawDeck>,
    /// What each side may see of the others' counters and results; without it each side sees
    /// its own counters whole and the others' by name and place.
    #[serde(default)]
    pub visibility: Option<RawVisibility>,
    /// The written orders the rules call for (`orders:`): at which steps, from whom, what each
    /// holds, what a late one does, and when each is revealed and to whom. Optional: a ruleset
    /// whose text has no written orders declares none.
    #[serde(default)]
    pub orders: Vec<RawOrderKind>,
    /// What the text leaves out, and anything else the reader of the ruleset should know.
    #[serde(default)]
    pub notes: Option<String>,
}
