//! What the sheets change, as the reading of them (`build`) hands it to the writing into the
//! scenario (`merge`): a state's row, a character's row, a new piece.

use yaml_serde::{Mapping, Value as Yaml};

/// What a state's row changes.
#[derive(Default)]
pub(super) struct StateEdit {
    pub(super) name: Option<String>,
    pub(super) teams: Option<Vec<String>>,
    pub(super) table: Option<String>,
    pub(super) played: Option<bool>,
    pub(super) note: Option<String>,
    pub(super) ledger: Mapping,
    pub(super) new: bool,
}

/// What a character's row changes.
pub(super) struct CharacterEdit {
    pub(super) id: String,
    pub(super) name: Option<String>,
    pub(super) player: Option<String>,
    pub(super) attributes: Mapping,
    pub(super) at: (String, u64),
}

/// A piece the sheets put on the table.
pub(super) struct NewCounter {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) side: String,
    pub(super) list: &'static str,
    pub(super) position: Yaml,
    pub(super) attributes: Mapping,
    pub(super) note: Option<String>,
}
