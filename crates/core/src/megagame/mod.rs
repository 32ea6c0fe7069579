//! Megagame mode ("Renaissance and Reformation III"): the real-time phase clock, people and
//! roles, per-state ledgers.

pub mod clock;
pub mod deaths;
pub mod ledger;
pub mod raise;
/// People and roles: in `game` (its visibility needs a team's counters), used here.
pub use crate::game::people;
pub mod remit;
pub mod when;

pub use ledger::{
    LedgerEntry, LedgerFilter, LedgerItem, StateLedger, ledger, ledgers, ledgers_filtered,
};
pub use people::{ControlRole, CounterClass, People, Remit, RemitCheck};
