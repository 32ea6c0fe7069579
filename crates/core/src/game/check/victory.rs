//! Checks of victory: the facts the conditions read (a place's control, a battle won, Victory
//! Points), the end of the game, and what goes on once it has ended.

use super::*;
use crate::game::event::{VictoryFact, VictoryResult};
use crate::game::victory;
use crate::game::words::side_words;

/// What may still be done once the game has ended: undo (of the ending, to reopen it), redo,
/// notes, announcements, the clock and the seed's reveal.
pub(super) fn goes_on_after_the_end(action: &Action) -> bool {
    matches!(
        action,
        Action::Undo
            | Action::Redo
            | Action::Note { .. }
            | Action::Announce { .. }
            | Action::Clock(_)
            | Action::RevealSeed
    )
}

/// Whether an action's entries can end the game at once (sudden death): facts, moves,
/// results and changes; not the Sequence of Play (its Victory Phase ends it in `next`) nor the
/// journal's own work.
pub(super) fn may_end_the_game(action: &Action) -> bool {
    !matches!(
        action,
        Action::Next
            | Action::Back
            | Action::Undo
            | Action::Redo
            | Action::Note { .. }
            | Action::Announce { .. }
            | Action::Clock(_)
            | Action::ClockStep { .. }
            | Action::RevealSeed
            | Action::EndGame { .. }
            | Action::Deck { .. }
            | Action::SealOrders { .. }
            | Action::RevealOrders { .. }
            | Action::Transcribe { .. }
    )
}

/// "The Swiss side wins: …" as the end of a sentence after a dash.
pub(super) fn sentence_end(sentence: &str) -> String {
    let mut s = sentence.trim_end_matches('.').to_string();
    s.push('.');
    s
}

/// Where counters go in these entries: (counter, position).
fn moves(kinds: &[EventKind]) -> Vec<(String, Position)> {
    kinds
        .iter()
        .flat_map(|k| match k {
            EventKind::Changed { changes, .. } | EventKind::EffectsApplied { changes, .. } => {
                changes.as_slice()
            }
            _ => &[],
        })
        .filter_map(|c| match c {
            CounterChange::Move { counter, to, .. } => Some((counter.clone(), to.clone())),
            _ => None,
        })
        .collect()
}

/// The game as it would stand after these entries.
fn after(view: &View, kinds: &[EventKind]) -> Option<GameState> {
    let mut state = view.state.clone();
    let first = view.events.len() as u64 + 1;
    for (seq, kind) in (first..).zip(kinds) {
        let e = Event {
            seq,
            at: chrono::Utc::now(),
            by: None,
            cursor: state.cursor.clone(),
            kind: kind.clone(),
        };
        crate::game::state::append_event(&mut state, &e).ok()?;
    }
    Some(state)
}

/// Control changes the moves in these entries make, then the result that ends the game at
/// once, if one does — appended to `kinds`.
pub(super) fn sudden_death(view: &View, kinds: &mut Vec<EventKind>) -> Option<VictoryResult> {
    if !victory::has_conditions(view.scenario) && view.scenario.holdings.is_empty() {
        return None;
    }
    let moved = moves(kinds);
    if !moved.is_empty() {
        for fact in victory::conquests(view.scenario, view.state, &moved) {
            kinds.push(EventKind::Victory { fact });
        }
    }
    let state = after(view, kinds)?;
    victory::ending_now(view.scenario, &state)
}

pub(super) fn check_victory_fact(view: &View, fact: &VictoryFact) -> Checked {
    let side = |s: &str| -> Result<String, Refusal> {
        Ok(crate::game::names::side_in(view.scenario, s)?
            .as_str()
            .to_string())
    };
    let fact = match fact {
        VictoryFact::Control {
            place,
            side: s,
            conquered,
            reason,
        } => {
            let Some(name) = victory::place_named(view.scenario, place) else {
                return Err(Refusal::NoSuchPlace {
                    place: place.clone(),
                    close: victory::tracked_places(view.scenario)
                        .into_iter()
                        .map(|p| p.name)
                        .collect(),
                });
            };
            VictoryFact::Control {
                place: name,
                side: s.as_deref().map(side).transpose()?,
                conquered: *conquered,
                reason: reason.clone(),
            }
        }
        VictoryFact::BattleWon {
            side: s,
            battle,
            reason,
        } => battle_won(view, s, battle, reason)?,
        VictoryFact::BattleDrawn { battle, reason } => battle_drawn(view, battle, reason)?,
        VictoryFact::PlaceKind {
            place,
            kind,
            reason,
        } => place_kind(view, place, *kind, reason)?,
        VictoryFact::Judged {
            item,
            side: s,
            holds,
            reason,
        } => judged(view, item, s.as_deref(), *holds, reason)?,
        VictoryFact::Points {
            side: s,
            points,
            reason,
        } => {
            needs_reason(reason, "Victory Points")?;
            VictoryFact::Points {
                side: side(s)?,
                points: *points,
                reason: reason.clone(),
            }
        }
        VictoryFact::Ended { .. } => {
            return Err(Refusal::NoVictory {
                reason: "the end of the game is recorded with `game end`".into(),
            });
        }
    };
    Ok(vec![EventKind::Victory { fact }])
}

/// A side of the scenario by its name or id.
fn side_of(view: &View, s: &str) -> Result<String, Refusal> {
    Ok(crate::game::names::side_in(view.scenario, s)?
        .as_str()
        .to_string())
}

/// A battle won: in the battle fought at this step, by the side named or the winner its
/// resolutions show (never another).
fn battle_won(
    view: &View,
    s: &str,
    battle: &str,
    reason: &Option<String>,
) -> Result<VictoryFact, Refusal> {
    let b = battle_fought(view, battle)?;
    // The winner its resolutions show (the pursuer), or the side named.
    let winner = match (s.trim(), &b.winner) {
        ("", Some((w, _))) => w.clone(),
        ("", None) => {
            return Err(Refusal::NoVictory {
                reason: format!(
                    "say who won the {}: nothing recorded in it shows the winner yet",
                    b.battle.name
                ),
            });
        }
        (typed, _) => side_of(view, typed)?,
    };
    if let Some((w, seq)) = &b.winner
        && *w != winner
    {
        return Err(Refusal::NoVictory {
            reason: format!(
                "entry {seq} shows the {} as the {}'s winner, not the {}: undo it first if it is wrong",
                side_words(view.scenario, w),
                b.battle.name,
                side_words(view.scenario, &winner)
            ),
        });
    }
    Ok(VictoryFact::BattleWon {
        side: winner,
        battle: b.battle.kind,
        reason: reason.clone(),
    })
}

/// A battle drawn: in the battle fought at this step, when nothing shows a winner.
fn battle_drawn(
    view: &View,
    battle: &str,
    reason: &Option<String>,
) -> Result<VictoryFact, Refusal> {
    let b = battle_fought(view, battle)?;
    if let Some((w, seq)) = &b.winner {
        return Err(Refusal::NoVictory {
            reason: format!(
                "entry {seq} shows the {} as the {}'s winner: it was not a draw",
                side_words(view.scenario, w),
                b.battle.name
            ),
        });
    }
    Ok(VictoryFact::BattleDrawn {
        battle: b.battle.kind,
        reason: reason.clone(),
    })
}

/// Whether the ruleset's gazetteer or the scenario names a place at hex `h`.
fn gazetteer_has_hex(view: &View, h: &str) -> bool {
    view.ruleset
        .geometry
        .iter()
        .flat_map(|g| g.places.iter())
        .chain(view.scenario.places.iter())
        .any(|p| p.hex.as_deref() == Some(h))
}

/// What a place is, where the rules and the scenario do not say.
fn place_kind(
    view: &View,
    place: &str,
    kind: crate::rules::PlaceKind,
    reason: &str,
) -> Result<VictoryFact, Refusal> {
    needs_reason(reason, "what a place is")?;
    // A hex of the map the gazetteer names no place at (a Town the map prints that the texts
    // never name): what is there, by its hex id — what a Garrison Order asks (5.3).
    let hex = crate::game::scenario::Position::Hex(place.trim().to_string());
    let on_map = view
        .ruleset
        .geometry
        .as_ref()
        .is_some_and(|g| g.kind == crate::rules::GeometryKind::Hex)
        && super::position(view.ruleset, &hex).is_ok()
        && place.trim().chars().all(|c| c.is_ascii_digit());
    let named = victory::place_named(view.scenario, place).or_else(|| {
        on_map
            .then(|| place.trim().to_string())
            .filter(|h| !gazetteer_has_hex(view, h))
    });
    let Some(name) = named else {
        return Err(Refusal::NoSuchPlace {
            place: place.to_string(),
            close: victory::tracked_places(view.scenario)
                .into_iter()
                .map(|p| p.name)
                .collect(),
        });
    };
    if let Some(given) = view
        .scenario
        .places
        .iter()
        .find(|p| p.name == name)
        .and_then(|p| p.kind)
        .filter(|k| *k != kind)
    {
        return Err(Refusal::NoVictory {
            reason: format!(
                "{name} is a {} where the rules or the scenario say so: it stays one",
                victory::place_kind_words(given)
            ),
        });
    }
    Ok(VictoryFact::PlaceKind {
        place: name,
        kind,
        reason: reason.to_string(),
    })
}

/// The umpire's judgement of a victory condition with a part the counters cannot show, or of
/// the special rule a raising die needs.
fn judged(
    view: &View,
    item: &str,
    side: Option<&str>,
    holds: bool,
    reason: &str,
) -> Result<VictoryFact, Refusal> {
    needs_reason(reason, "a victory condition judged")?;
    let wanted = item.trim().to_lowercase();
    // The victory conditions with a part the umpire judges, and the special rules a raising
    // die needs (the Expedition of the Duke of Albany sent).
    let required: Vec<&str> = view
        .scenario
        .victory
        .iter()
        .filter_map(|v| v.check.as_ref()?.raise.as_ref()?.requires.as_deref())
        .collect();
    let judged: Vec<&crate::game::scenario::TextItem> = view
        .scenario
        .victory
        .iter()
        .filter(|v| {
            v.check
                .as_ref()
                .and_then(|c| c.condition.as_ref())
                .is_some_and(victory::asks_the_umpire)
        })
        .chain(
            view.scenario
                .special_rules
                .iter()
                .filter(|r| required.contains(&r.id.as_str())),
        )
        .collect();
    let Some(v) = judged
        .iter()
        .find(|v| v.id.to_lowercase() == wanted || v.title.to_lowercase() == wanted)
    else {
        return Err(Refusal::NoVictory {
            reason: format!(
                "'{item}' is not a victory condition the umpire judges — those that are: {}",
                if judged.is_empty() {
                    "none (every condition of this scenario is read off the game)".to_string()
                } else {
                    judged
                        .iter()
                        .map(|v| v.title.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
        });
    };
    let for_each =
        v.check.as_ref().is_some_and(|c| c.winner.is_none()) && !required.contains(&v.id.as_str());
    let side = match (side, for_each) {
        (Some(x), true) => Some(side_of(view, x)?),
        (None, true) => {
            return Err(Refusal::NoVictory {
                reason: format!("{} is judged for each side: say which", v.title),
            });
        }
        (_, false) => None,
    };
    Ok(VictoryFact::Judged {
        item: v.id.clone(),
        side,
        holds,
        reason: reason.to_string(),
    })
}

/// The battle being fought at this step, for its result: refused outside a battle's branch,
/// for a kind other than the branch's, or once its result is recorded.
fn battle_fought(view: &View, typed: &str) -> Result<victory::BattleHere, Refusal> {
    let Some(b) = victory::battle_here(view.steps, view.state) else {
        return Err(Refusal::NoVictory {
            reason: "no battle is being fought at this step: a battle's result is recorded in its branch, entered from Step 2 (Battle Resolution) by the kind of battle fought".into(),
        });
    };
    let typed = typed.trim().to_lowercase().replace([' ', '-'], "_");
    if !typed.is_empty() && typed != b.battle.kind {
        return Err(Refusal::NoVictory {
            reason: format!(
                "the battle fought here is a {}, not a {}",
                b.battle.name,
                victory::battle_name(view.ruleset, &typed)
            ),
        });
    }
    // Its result is recorded where the branch knows it (the Major Battle's Step 10-a, or the
    // draw's 11-a), after the steps that fight it: never on entering it.
    let here = view.steps.get(view.state.cursor.step);
    if !here.is_some_and(|s| s.battle_result) {
        let branch = here.and_then(|s| s.branch.clone());
        let at: Vec<&str> = view
            .steps
            .iter()
            .filter(|s| s.battle_result && s.branch.is_some() && s.branch == branch)
            .map(|s| s.path.rsplit(" › ").next().unwrap_or(&s.path))
            .collect();
        return Err(Refusal::NoVictory {
            reason: format!(
                "the {}'s result is recorded at {}, once it has been fought; the game is at {}",
                b.battle.name,
                if at.is_empty() {
                    "its result step".to_string()
                } else {
                    at.join(" or ")
                },
                here.map_or("another step", |s| s
                    .path
                    .rsplit(" › ")
                    .next()
                    .unwrap_or(&s.path))
            ),
        });
    }
    if let Some((seq, _)) = b.result {
        return Err(Refusal::NoVictory {
            reason: format!(
                "the {}'s result was recorded in entry {seq}: undo it to record another",
                b.battle.name
            ),
        });
    }
    Ok(b)
}

pub(super) fn check_end_game(view: &View, declare: Option<&str>, reason: &str) -> Checked {
    needs_reason(reason, "ending the game")?;
    let mut result = match declare {
        Some(typed) => {
            // "May declare … at the end of any turn": at the Victory Phase, not at any step.
            if !view
                .steps
                .get(view.state.cursor.step)
                .is_some_and(victory::is_victory_step)
            {
                return Err(Refusal::NoVictory {
                    reason: format!(
                        "a victory is declared at the Victory Phase, at the end of a turn; the game is at {}",
                        view.steps
                            .get(view.state.cursor.step)
                            .map_or("another step", |s| s.path.as_str())
                    ),
                });
            }
            declared(view, typed)?
        }
        None => {
            let standing = victory::standing(view.scenario, view.state);
            standing.if_ended_now.unwrap_or_else(|| VictoryResult {
                winner: None,
                item: None,
                level: None,
                sentence: "the game ended; the scenario declares no victory conditions the engine reads — the umpire's result is in the reason".into(),
                reasons: Vec::new(),
            })
        }
    };
    result
        .reasons
        .push(format!("Ended by the umpire: {}", reason.trim()));
    Ok(vec![victory::ended(result)])
}

/// The result a side may declare, named by its item's id or title.
fn declared(view: &View, typed: &str) -> Result<VictoryResult, Refusal> {
    let wanted = typed.trim().to_lowercase();
    let all = victory::declarable(view.scenario, view.state);
    let titles = |r: &VictoryResult| {
        view.scenario
            .victory
            .iter()
            .find(|i| Some(&i.id) == r.item.as_ref())
            .map(|i| (i.id.to_lowercase(), i.title.to_lowercase()))
    };
    if let Some(r) = all.iter().find(|r| {
        titles(r).is_some_and(|(id, title)| id == wanted || title == wanted) || wanted.is_empty()
    }) {
        return Ok(r.clone());
    }
    let can: Vec<String> = all.iter().map(|r| r.sentence.clone()).collect();
    Err(Refusal::NoVictory {
        reason: if can.is_empty() {
            format!(
                "no side may declare '{typed}' now: no victory that may be declared holds at this step"
            )
        } else {
            format!(
                "'{typed}' may not be declared now — may be declared: {}",
                can.join("; ")
            )
        },
    })
}
