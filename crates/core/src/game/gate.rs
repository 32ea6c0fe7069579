//! The gate every action passes after its check and before it is committed: an actor's remit.
//! `game` only knows the trait; megagame Control roles implement it
//! (`megagame::remit::SignedIn`), so `game` imports nothing from `megagame`.

use super::action::Action;
use super::event::{Event, EventKind};
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

    /// Whether the actor may take this action over the whole game at all (step the Sequence of
    /// Play, reveal the seed, announce to everyone, override another umpire's result), judged
    /// before its check; `events` is the journal as it stands.
    fn permits(
        &self,
        _scenario: &Scenario,
        _action: &Action,
        _events: &[Event],
    ) -> Result<(), Refusal> {
        Ok(())
    }

    /// Whether everything these events touch is the actor's own (what may wait in the offline
    /// queue while the link to the server is down); the reason when not.
    fn owns_all(
        &self,
        scenario: &Scenario,
        state: &GameState,
        kinds: &[EventKind],
    ) -> Result<(), String>;
}

/// How a note of Control's discretion begins (`At Control's discretion, by Anna (Map Control,
/// the_east): …`): the note that justifies the change recorded with it. It is not undone on its
/// own — undo takes the change, and the note stays as the record of why it was made.
pub const DISCRETION_NOTE: &str = "At Control's discretion, by ";

/// Whether an event is a note of Control's discretion ([`DISCRETION_NOTE`]).
pub fn is_discretion_note(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Note { text } if text.starts_with(DISCRETION_NOTE))
}
