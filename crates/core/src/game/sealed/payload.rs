//! What the journal's sealed-order entries carry: an order's values and to whom a reveal shows
//! them. The ground floor of sealed orders: the journal's entries ([`super::super::event`]) hold
//! these, and nothing here reads the game.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One field's value in an order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OrderValue {
    /// A box ticked or not.
    Flag(bool),
    /// A choice (a row key, an option id).
    Choice(String),
    /// Areas by name, in order.
    Areas(Vec<String>),
}

/// A side's orders: for each entry of the form (a Force, an army), its fields' values. An entry
/// left out has no order (an army not ready misses the step, where the rules say so).
pub type Orders = BTreeMap<String, BTreeMap<String, OrderValue>>;

/// To whom a reveal shows the orders, decided from the kind's `reveal:` rules at the step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Shown {
    /// Every side.
    Everyone,
    /// The umpires (these Control roles) and the side itself: the others see that it was
    /// revealed, not what.
    Control {
        /// The Control roles named (empty: the umpires).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        roles: Vec<String>,
    },
    /// The other sides see what these visibility entries show of each order (an Order marker
    /// on the map), the rest stays concealed.
    Visibility {
        /// The visibility entries (attribute groups) by id.
        entries: Vec<String>,
    },
}
