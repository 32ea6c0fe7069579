//! The state's sealed orders, folded from the journal: each sealing, and its reveal. The state
//! ([`super::super::state`]) holds them; the queries and checks above read them.

use std::collections::BTreeMap;

use serde::Serialize;

use super::payload::Orders;
use crate::game::event::{Cursor, Event, EventKind};

/// A sealed order as the state knows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SealedState {
    /// The order kind.
    pub order: String,
    /// The side.
    pub side: String,
    /// Where the game stood when it was sealed (the step it is due at).
    pub cursor: Cursor,
    /// The commitment.
    pub commitment: String,
    /// When.
    pub at: chrono::DateTime<chrono::Utc>,
    /// Who entered it ("the French phone", "Greta at the desk, from paper").
    pub via: Option<String>,
    /// The entry that revealed it, once revealed.
    pub revealed: Option<u64>,
    /// What it holds, once revealed (what the table carries out).
    #[serde(skip)]
    pub orders: Option<Orders>,
}

/// The sealed orders of the state, by the entry that sealed each.
pub type Sealed = BTreeMap<u64, SealedState>;

/// Folds a sealing or a reveal into the state's sealed orders.
pub fn apply(sealed: &mut Sealed, e: &Event) {
    match &e.kind {
        EventKind::OrdersSealed {
            order,
            side,
            commitment,
            via,
        } => {
            sealed.insert(
                e.seq,
                SealedState {
                    order: order.clone(),
                    side: side.clone(),
                    cursor: e.cursor.clone(),
                    commitment: commitment.clone(),
                    at: e.at,
                    via: via.clone(),
                    revealed: None,
                    orders: None,
                },
            );
        }
        EventKind::OrdersRevealed {
            sealed: of, orders, ..
        } => {
            if let Some(s) = sealed.get_mut(of) {
                s.revealed = Some(e.seq);
                s.orders = Some(orders.clone());
            }
        }
        _ => {}
    }
}
