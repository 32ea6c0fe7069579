//! Validated ruleset types: what the resolver works with. The [`Ruleset`] is here; its parts
//! have a file each: [`tables`], [`effects`], [`procedures`], [`setup`], [`visibility`].

mod codes;
mod effects;
mod losses;
mod orders;
mod procedures;
mod records;
mod remits;
mod setup;
mod tables;
mod visibility;

pub use codes::ResultCodes;
pub use effects::*;
pub use losses::*;
pub use orders::*;
pub use procedures::*;
pub use records::*;
pub use remits::*;
pub use setup::*;
pub use tables::*;
pub use visibility::*;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::expr::{Expr, Value};
use crate::dice::{DiceExpr, DieSet};

/// A validated ruleset.
#[derive(Debug, Clone, PartialEq)]
pub struct Ruleset {
    /// SHA-256 of its files as read (`validate::content_hash`): see [`Ruleset::content`].
    pub content_hash: String,
    /// Id (`ailsh`, `qrs`, …).
    pub id: String,
    /// Name.
    pub name: String,
    /// Source text.
    pub source: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Dice it may name.
    pub dice: DieSet,
    /// Procedures in file order.
    pub procedures: Vec<Procedure>,
    /// Tables by id.
    pub tables: BTreeMap<String, Table>,
    /// Geometry.
    pub geometry: Option<Geometry>,
    /// The unit attribute that holds a counter's strength (losses reduce it).
    pub strength_attribute: Option<String>,
    /// How a Strength Point loss on a Force is spread over its units (`losses:`).
    pub losses: Vec<LossRule>,
    /// A megagame's remits (`remits:`): what each Control role may touch, and who works the
    /// clock.
    pub remits: Option<Remits>,
    /// Control's records (`records:`): charts, registers, votes, banks.
    pub records: Records,
    /// The unit attribute that names a counter's type (its symbol on the desk's counter face).
    pub type_attribute: Option<String>,
    /// Unit attributes.
    pub units: Vec<AttributeSpec>,
    /// Leader attributes.
    pub leaders: Vec<AttributeSpec>,
    /// Sequence of Play.
    pub sequence_of_play: Vec<Step>,
    /// Optional rules a game may put in play (their steps apply only then).
    pub optional_rules: Vec<OptionalRule>,
    /// The leaf step at which reinforcements are deployed (None: the turn's first step).
    pub reinforcements_step: Option<String>,
    /// Rulings the umpire can switch.
    pub rulings: Vec<Ruling>,
    /// The status markers the text names (Disrupted, Besieged…): what the desk offers to put
    /// on a counter by hand, with their rules.
    pub statuses: Vec<StatusMarker>,
    /// Decks of cards and cups of markers drawn without replacement (the `decks:` section).
    pub decks: Vec<DeckSpec>,
    /// What each side may see of the others (the `visibility:` section).
    pub visibility: Visibility,
    /// The written orders the rules call for (the `orders:` section; none for most rulesets).
    pub orders: Vec<OrderKind>,
    /// Notes.
    pub notes: Option<String>,
    /// The files it was loaded from (a transcription lays a table file over them:
    /// [`crate::rules::layer::transcribe`]).
    pub files: std::sync::Arc<crate::rules::RulesetFiles>,
}

impl Ruleset {
    /// What a game commits to about its ruleset: SHA-256 of its files' hash and the option
    /// each ruling is set to (an umpire's choice changes the rules of play as a file would).
    pub fn content(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut hasher = Sha256::new();
        hasher.update(self.content_hash.as_bytes());
        for r in &self.rulings {
            hasher.update(format!("\n{}={}", r.id, r.selected).as_bytes());
        }
        hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Prose written with ids in it (a table's notes: "see ruling terrain_1bu", "the column
    /// rows_in_order") in the game's words: each id of a ruling, table, procedure, or of a row
    /// or column of `table`, by its name or heading in quotes.
    pub fn in_words(&self, text: &str, table: Option<&Table>) -> String {
        let name_of = |id: &str| -> Option<String> {
            if let Some(t) = table {
                for (i, l) in t.lines.iter().enumerate() {
                    if let Some(c) = l.keys.iter().position(|k| k.to_string() == id) {
                        return Some(t.column_words(i, c));
                    }
                }
                if let Some(r) = t.rows.iter().find(|r| r.key.to_string() == id) {
                    return Some(t.row_words(r));
                }
            }
            if let Some(r) = self.rulings.iter().find(|r| r.id == id) {
                let question = r.text.trim();
                let short = question.split(['?', '.', ':']).next().unwrap_or(question);
                return Some(short.trim().to_string());
            }
            if let Some(t) = self.tables.get(id) {
                return Some(t.title.clone());
            }
            if let Some(p) = self.procedure(id) {
                return Some(p.name.clone());
            }
            self.procedures
                .iter()
                .flat_map(|p| &p.inputs)
                .find(|i| i.name == id)
                .map(|i| i.label.clone())
        };
        let mut out = String::with_capacity(text.len());
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            if is_id_like(word) && word.contains('_') {
                match name_of(word) {
                    Some(name) => out.push_str(&format!("\u{201c}{name}\u{201d}")),
                    None => out.push_str(word),
                }
            } else {
                out.push_str(word);
            }
            word.clear();
        };
        for ch in text.chars() {
            if ch.is_ascii_alphanumeric() || ch == '_' {
                word.push(ch);
            } else {
                flush(&mut word, &mut out);
                out.push(ch);
            }
        }
        flush(&mut word, &mut out);
        out
    }

    /// The option in force of a ruling, if the ruleset has it.
    pub fn ruling(&self, id: &str) -> Option<&str> {
        self.rulings
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.selected.as_str())
    }

    /// A procedure by id.
    pub fn procedure(&self, id: &str) -> Option<&Procedure> {
        self.procedures.iter().find(|p| p.id == id)
    }

    /// A table by id.
    pub fn table(&self, id: &str) -> Option<&Table> {
        self.tables.get(id)
    }

    /// The real-time phase clock, when a table carries one (megagames).
    pub fn clock(&self) -> Option<&Clock> {
        self.tables.values().find_map(|t| t.clock.as_ref())
    }

    /// The same ruleset with some rulings switched (`id` → option id).
    pub fn with_rulings(&self, choices: &[(String, String)]) -> Result<Ruleset, String> {
        let mut out = self.clone();
        for (id, option) in choices {
            let Some(r) = out.rulings.iter_mut().find(|r| r.id == *id) else {
                return Err(format!(
                    "ruleset {} has no ruling '{id}' — rulings: {}",
                    self.id,
                    self.rulings
                        .iter()
                        .map(|r| r.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            };
            if !r.options.iter().any(|o| o.id == *option) {
                return Err(format!(
                    "ruling '{id}' has no option '{option}' — options: {}",
                    r.options
                        .iter()
                        .map(|o| o.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            r.selected = option.clone();
        }
        Ok(out)
    }
}
