//! The gate every action passes after its check and before it is committed: an actor's remit.
//! `game` only knows the trait; megagame Control roles implement it
//! (`megagame::remit::SignedIn`), so `game` imports nothing from `megagame`.

use super::event::EventKind;
use super::refusal::Refusal;
use super::scenario::Scenario;
use super::state::GameState;

/// A remit an actor is held to.
pub trait Gate: Send + Sync {
    /// Who, as the journal records it ("Anna (Map Control, the_east)").
    fn by(&self) -> String;

    /// Judges the events of one action against the remit: allowed as they are (`Ok(None)`),
    /// allowed at someone's discretion with the given reason (`Ok(Some(note))`, recorded with
    /// the action), or refused.
    fn judge(
        &self,
        scenario: &Scenario,
        state: &GameState,
        kinds: &[EventKind],
        reason: Option<&str>,
    ) -> Result<Option<EventKind>, Refusal>;

    /// Whether everything these events touch is the actor's own (what may wait in the offline
    /// queue while the link to the server is down); the reason when not.
    fn owns_all(
        &self,
        scenario: &Scenario,
        state: &GameState,
        kinds: &[EventKind],
    ) -> Result<(), String>;
}
