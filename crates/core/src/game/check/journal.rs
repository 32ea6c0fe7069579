//! Checks of the journal's own actions: undo and redo (what each would undo or redo), the seed revealed, announcements.

use super::*;

/// The last effective undoable event: on a shared game, this desk's own last action, not
/// another desk's. A note of Control's discretion is passed over: it stays as the reason for
/// the change it came with, which is what undo takes back.
pub fn undo_target(view: &View, actor: &Actor) -> Option<u64> {
    let own_only = view.shared && actor.by.is_some();
    view.events
        .iter()
        .rev()
        .filter(|e| !own_only || e.by == actor.by)
        .find(|e| {
            e.kind.is_undoable()
                && !crate::game::gate::is_discretion_note(&e.kind)
                && view.state.effective.contains(&e.seq)
        })
        .map(|e| e.seq)
}

/// The most recent undone event that can be redone (no new action came after its undo).
pub fn redo_target(view: &View) -> Option<u64> {
    for e in view.events.iter().rev() {
        match &e.kind {
            EventKind::Undone { event } if !view.state.effective.contains(event) => {
                return Some(*event);
            }
            // The clock runs on regardless: it does not end a redo.
            EventKind::Undone { .. } | EventKind::Redone { .. } | EventKind::Clock { .. } => {}
            _ => return None,
        }
    }
    None
}

pub(super) fn check_undo(view: &View, actor: &Actor) -> Checked {
    let event = undo_target(view, actor).ok_or(Refusal::NothingToUndo)?;
    Ok(vec![EventKind::Undone { event }])
}

pub(super) fn check_redo(view: &View) -> Checked {
    let event = redo_target(view).ok_or(Refusal::NothingToRedo)?;
    Ok(vec![EventKind::Redone { event }])
}

pub(super) fn check_reveal(view: &View) -> Checked {
    if let Some(entry) = view.state.seed_revealed {
        return Err(Refusal::AlreadyRevealed { entry });
    }
    let (Some(seed), Some(salt)) = (view.meta.seed, view.meta.salt.clone()) else {
        return Err(Refusal::NoAppDice(NoAppDice::Withheld));
    };
    Ok(vec![EventKind::SeedRevealed { seed, salt }])
}

pub(super) fn check_announce(audience: Audience, team: Option<&str>, text: &str) -> Checked {
    if text.trim().is_empty() {
        return Err(Refusal::EmptyAnnouncement);
    }
    if audience == Audience::Team && team.is_none_or(|t| t.trim().is_empty()) {
        return Err(Refusal::TeamNeeded);
    }
    Ok(vec![EventKind::Announced {
        audience,
        team: team.map(str::to_string),
        text: text.to_string(),
    }])
}
