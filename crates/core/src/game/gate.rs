//! Who acts, and the gate every action passes after its check and before it is committed: an
//! actor's remit.
//! `game` only knows the trait; megagame Control roles implement it
//! (`megagame::remit::SignedIn`), so `game` imports nothing from `megagame`.

use std::sync::Arc;

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

/// Who acts: the name the journal records, the remit they are held to (a megagame Control
/// role), and the reason for an action that rests on discretion.
#[derive(Clone, Default)]
pub struct Actor {
    /// Who, as the journal records it (None: the umpire at a desk of their own).
    pub by: Option<String>,
    /// The remit the actor is held to, if any.
    pub gate: Option<Arc<dyn Gate>>,
    /// Why, for an action that rests on discretion (recorded with it).
    pub reason: Option<String>,
}

impl Actor {
    /// The umpire at a desk of their own: no name, no remit.
    pub fn umpire() -> Actor {
        Actor::default()
    }

    /// Someone named, held to no remit.
    pub fn named(by: impl Into<String>) -> Actor {
        Actor {
            by: Some(by.into()),
            ..Actor::default()
        }
    }

    /// Someone held to a remit; the journal records the gate's name for them.
    pub fn gated(gate: Arc<dyn Gate>) -> Actor {
        Actor {
            by: Some(gate.by()),
            gate: Some(gate),
            reason: None,
        }
    }

    /// The same actor, giving a reason for what rests on discretion.
    pub fn with_reason(mut self, reason: Option<String>) -> Actor {
        self.reason = reason
            .map(|r| r.trim().to_string())
            .filter(|r| !r.is_empty());
        self
    }

    /// The same actor, recorded under another name (the clock: "clock (Anna …)").
    pub fn as_by(&self, by: String) -> Actor {
        Actor {
            by: Some(by),
            ..self.clone()
        }
    }
}

impl std::fmt::Debug for Actor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Actor")
            .field("by", &self.by)
            .field("gated", &self.gate.is_some())
            .field("reason", &self.reason)
            .finish()
    }
}
