//! The audit: a journal held to the rules of play, entry by entry. A hash chain says a journal
//! was not changed after it was written; it cannot say the journal was written by play — a
//! journal forged with a sound chain (markers drawn that were not in the cup, a redo of
//! nothing, a result whose explanation says Pass under a Fail) would pass it. So each entry is
//! taken for the action that would make it (a resolution for a resolve with its recorded inputs
//! and dice typed in, a step for `next`, `back`, a branch entered or the clock's step, an undo
//! for `undo`…), that action is checked ([`super::check::check`]) on the game as it stood just
//! before the entry, with the entry's author, and the entries the check makes must be the
//! entries recorded. One action may make several entries (a result and the game's end; effects
//! and the umpire's word for going below a floor): the check says how many, and they are taken
//! together, as `Game::act` appended them.
//!
//! What cannot be made again is compared without it: an app roll's dice are re-resolved as
//! typed faces (the faces must be faces of their dice, as many as the notation throws; whether
//! the seed gave them is the verifier's, [`super::verify`]), and an app draw from a deck is
//! drawn again by name (the names must be in the deck; the seed's draw is the verifier's too).
//!
//! The state is folded once, entry by entry ([`super::timeline::Folding`]): the audit of a
//! journal costs one fold and one check per action.

use std::collections::BTreeMap;

use super::action::{Action, DeckOp};
use super::check::{self, View};
use super::deck::DeckChange;
use super::event::{CounterChange, Event, EventKind, VictoryFact};
use super::gate::Actor;
use super::journal::{GameMeta, commitment};
use super::refusal::{NoAppDice, Refusal};
use super::scenario::Scenario;
use super::sequence::LeafStep;
use super::state::GameState;
use super::steps::NO_ITEM;
use super::timeline::Folding;
use super::verify::Problem;
use crate::dice::Provenance;
use crate::rules::{Ruleset, Value};

/// What a journal is audited against.
pub struct Rules<'a> {
    /// The ruleset.
    pub ruleset: &'a Ruleset,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The Sequence of Play's leaf steps.
    pub steps: &'a [LeafStep],
    /// What the game started from (the seed, when this copy holds it).
    pub meta: &'a GameMeta,
    /// Whether several desks shared the journal (an undo then takes back the desk's own last
    /// action, and actions queued offline keep the place they were made at).
    pub shared: bool,
}

/// Audits a whole journal (every entry open): the first entry that play would not have made,
/// as a problem naming it and the rule of play in words; None when every entry is one play
/// makes.
///
/// A game begun before its first entry committed to the ruleset's content (no ruleset hash)
/// was played by an earlier Umpire, whose resolutions may word their explanations otherwise:
/// its resolutions are held to their outcome (code and value), not to every word.
pub fn audit(rules: &Rules, events: &[Event]) -> Option<Problem> {
    audit_from(rules, events, 0)
}

/// [`audit`] of the entries from place `from` (0-based) on, the ones before taken as play made
/// them (folded, not judged): what a referee asks of an append to a journal it already holds.
/// `from` must be where an action's entries begin.
pub fn audit_from(rules: &Rules, events: &[Event], from: usize) -> Option<Problem> {
    let strict = matches!(
        events.first().map(|e| &e.kind),
        Some(EventKind::GameStarted {
            ruleset_hash: Some(_),
            ..
        })
    );
    // Each entry is judged with the tables in force when it was made.
    let in_force = match super::transcribed::InForce::of(rules.ruleset, events) {
        Ok(in_force) => in_force,
        Err(problem) => return Some(problem),
    };
    let mut folding = Folding::new(rules.scenario, events);
    let mut i = 0;
    while i < events.len() {
        let e = &events[i];
        let place = i as u64 + 1;
        if e.seq != place {
            return Some(Problem {
                entry: place,
                text: format!(
                    "the entry in place {place} says it is entry {}: entries are out of order, doubled or missing",
                    e.seq
                ),
            });
        }
        let made = if i < from {
            1
        } else {
            let rules = Rules {
                ruleset: in_force.at(e.seq),
                ..*rules
            };
            match judge(&rules, events, i, folding.state(), strict) {
                Ok(n) => n.max(1),
                Err(text) => return Some(Problem { entry: e.seq, text }),
            }
        };
        for _ in 0..made {
            let seq = folding.folded() as u64 + 1;
            if let Err(problem) = folding.advance() {
                return Some(Problem {
                    entry: seq,
                    text: format!("it contradicts the game as it stood: {problem}"),
                });
            }
        }
        i += made;
    }
    None
}

/// How many entries the action that made entry `i` wrote (it and the ones it made with it), or
/// why play would not have made it.
fn judge(
    rules: &Rules,
    events: &[Event],
    i: usize,
    state: &GameState,
    strict: bool,
) -> Result<usize, String> {
    let e = &events[i];
    if let EventKind::GameStarted { .. } = &e.kind {
        return if i == 0 {
            Ok(1)
        } else {
            Err("a second start of the game: play starts a game once".into())
        };
    }
    if i == 0 {
        return Err("the journal does not begin with the game's start".into());
    }
    let view = View {
        ruleset: rules.ruleset,
        scenario: rules.scenario,
        steps: rules.steps,
        state,
        events: &events[..i],
        meta: rules.meta,
        shared: rules.shared,
    };
    if !rules.shared && e.cursor != state.cursor {
        return Err(format!(
            "it was recorded at turn {}, step {}, but the game stood at turn {}, step {}: it is out of its place",
            e.cursor.turn,
            e.cursor.step + 1,
            state.cursor.turn,
            state.cursor.step + 1
        ));
    }
    if let EventKind::SeedRevealed { seed, salt } = &e.kind {
        return reveal(&view, *seed, salt);
    }
    let rest = &events[i..];
    if let Some(refusal) = app_dice_after_reveal(state, &e.kind) {
        return Err(format!("play refuses it: {refusal}"));
    }
    // A shared game's desks send what they recorded offline as they recorded it (deltas
    // commute; a clash the umpire settles goes as it was): there, a change's "from" may be
    // older than the journal. Its values and ranges hold everywhere.
    if let EventKind::Changed {
        changes, reason, ..
    } = &e.kind
    {
        within_ranges(&view, changes, reason.as_deref())?;
        as_it_stood(&view, changes, !rules.shared)?;
    }
    let actor = Actor {
        by: e.by.clone(),
        ..Actor::default()
    }
    .with_reason(umpires_word(rest.get(1)));
    let mut first: Option<String> = None;
    for (action, shared) in candidates(&view, e) {
        let view = View { shared, ..view };
        match check::check(&view, &actor, &action) {
            Ok(kinds) if !kinds.is_empty() && made_these(&kinds, rest, strict) => {
                return Ok(kinds.len());
            }
            Ok(kinds) => {
                first.get_or_insert_with(|| differs(&kinds, rest, strict));
            }
            Err(refusal) => {
                first.get_or_insert_with(|| format!("play refuses it: {refusal}"));
            }
        }
    }
    Err(first.unwrap_or_else(|| "play has no action that makes it".into()))
}

/// The reason an umpire gave to go below a floor, as the note recorded after the entry keeps it
/// ("… at the umpire's word: WHY").
fn umpires_word(next: Option<&Event>) -> Option<String> {
    let EventKind::Note { text } = &next?.kind else {
        return None;
    };
    text.split_once(check::UMPIRES_WORD)
        .map(|(_, why)| why.to_string())
}

/// A revealed seed: once, and the one committed to at the start.
fn reveal(view: &View, seed: u64, salt: &str) -> Result<usize, String> {
    if let Some(entry) = view.state.seed_revealed {
        return Err(format!(
            "play refuses it: {}",
            Refusal::AlreadyRevealed { entry }
        ));
    }
    if commitment(seed, salt) != view.meta.seed_commitment {
        return Err(
            "the seed revealed is not the one committed to at the start: the game was re-seeded"
                .into(),
        );
    }
    Ok(1)
}

/// The actions that could have made an entry, each with whether to judge it as on a shared
/// journal (an undo: the desk's own last action there, anyone's at a desk of one's own).
fn candidates(view: &View, e: &Event) -> Vec<(Action, bool)> {
    let shared = view.shared;
    let one = |a: Action| vec![(a, shared)];
    match &e.kind {
        EventKind::Changed {
            changes,
            reason,
            item,
        } => changed(changes, reason.as_deref(), item.as_deref())
            .into_iter()
            .map(|a| (a, shared))
            .collect(),
        EventKind::Resolved {
            resolution,
            counters,
            item,
        } => one(resolve_action(
            resolution,
            counters,
            // Recorded as answering no item: resolved as such (an entry made before items
            // were recorded answers none either).
            Some(item.clone().unwrap_or_else(|| NO_ITEM.to_string())),
        )),
        EventKind::EffectsApplied { of, changes } => one(Action::ApplyEffects {
            of: *of,
            changes: changes.clone(),
        }),
        EventKind::Overridden {
            of,
            outcome,
            reason,
            ..
        } => one(Action::Override {
            of: *of,
            outcome: outcome.clone(),
            reason: reason.clone(),
        }),
        EventKind::Stepped { to, .. } => {
            stepped(view, to).into_iter().map(|a| (a, shared)).collect()
        }
        EventKind::Skipped { item, reason } => one(Action::Skip {
            item: item.clone(),
            reason: reason.clone(),
        }),
        EventKind::Note { text } => one(Action::Note { text: text.clone() }),
        EventKind::Undone { .. } => vec![(Action::Undo, false), (Action::Undo, true)],
        EventKind::Redone { .. } => one(Action::Redo),
        EventKind::Clock { action } => one(Action::Clock(action.clone())),
        EventKind::Deck {
            deck,
            owner,
            change,
            after,
            reason,
            ..
        } => one(Action::Deck {
            deck: deck.clone(),
            owner: owner.clone(),
            op: deck_op(change, after),
            reason: reason.clone(),
        }),
        EventKind::Announced {
            audience,
            team,
            text,
        } => one(Action::Announce {
            audience: *audience,
            team: team.clone(),
            text: text.clone(),
        }),
        EventKind::Victory {
            fact: VictoryFact::Ended { result },
        } => ended(result),
        EventKind::Victory { fact } => one(Action::Victory(fact.clone())),
        EventKind::Record { fact } => one(Action::Record(fact.clone())),
        EventKind::OrdersSealed {
            order,
            side,
            commitment,
            via,
        } => one(Action::SealOrders {
            order: order.clone(),
            side: side.clone(),
            commitment: commitment.clone(),
            via: via.clone(),
        }),
        EventKind::OrdersRevealed {
            sealed,
            salt,
            orders,
            ..
        } => one(Action::RevealOrders {
            sealed: *sealed,
            salt: salt.clone(),
            orders: orders.clone(),
        }),
        EventKind::Transcribed { table, content, .. } => one(Action::Transcribe {
            table: table.clone(),
            content: content.clone(),
        }),
        EventKind::GameStarted { .. } | EventKind::SeedRevealed { .. } => Vec::new(),
    }
}

/// A value as the umpire would type it.
fn typed(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        other => other.to_string(),
    }
}

/// The resolve that makes a recorded resolution: its inputs and its dice typed in, its chart's
/// result when it was read off the umpire's chart.
fn resolve_action(
    resolution: &crate::resolve::Resolution,
    counters: &BTreeMap<String, Vec<String>>,
    item: Option<String>,
) -> Action {
    let faces: Vec<String> = resolution
        .rolls
        .iter()
        .flat_map(|r| r.dice.iter().map(|d| d.face.to_string()))
        .collect();
    Action::Resolve {
        procedure: resolution.procedure.clone(),
        inputs: resolution
            .inputs
            .iter()
            .map(|(k, v)| (k.clone(), typed(v)))
            .collect(),
        physical: Some(faces),
        chart_result: resolution
            .outcome
            .from_physical_chart
            .then(|| resolution.outcome.code.clone()),
        chart_confirmed: resolution.outcome.chart_confirmed,
        counters: counters
            .iter()
            .map(|(role, ids)| {
                (
                    role.clone(),
                    ids.iter().map(|id| id.as_str().into()).collect(),
                )
            })
            .collect(),
        item,
    }
}

/// The actions that make a change of counters: a pending item credited; a counter added (with
/// other changes); else a change of several counters, checked as `change` checks them (each
/// counter the game's, each place on its map, each delta on a whole number and within its
/// range).
fn changed(changes: &[CounterChange], reason: Option<&str>, item: Option<&str>) -> Vec<Action> {
    // A credit is checked as the credit it was; failing that (a game recorded by an Umpire
    // whose schedule said otherwise), as the change of counters it is.
    let mut out: Vec<Action> = item
        .map(|item| Action::Credit {
            item: item.to_string(),
        })
        .into_iter()
        .collect();
    let reason_text = reason.unwrap_or("").to_string();
    let adds: Vec<&CounterChange> = changes
        .iter()
        .filter(|c| matches!(c, CounterChange::Add { .. }))
        .collect();
    if let [
        CounterChange::Add {
            name,
            side,
            kind,
            attributes,
            at,
            force,
            ..
        },
    ] = adds.as_slice()
    {
        let add = Action::AddCounter {
            name: name.clone(),
            side: side.clone(),
            kind: *kind,
            at: at.clone(),
            attributes: attributes
                .iter()
                .map(|(k, v)| (k.clone(), typed(v)))
                .collect(),
            force: force.clone(),
            note: reason.map(str::to_string),
        };
        let others: Vec<CounterChange> = changes
            .iter()
            .filter(|c| !matches!(c, CounterChange::Add { .. }))
            .cloned()
            .collect();
        out.push(if others.is_empty() {
            add
        } else {
            Action::AddWith {
                add: Box::new(add),
                changes: others,
            }
        });
        return out;
    }
    out.push(Action::Change {
        changes: changes.to_vec(),
        // A change made by a move or an edit carries no reason; the rules of play it is held
        // to are the same.
        reason: if reason_text.trim().is_empty() {
            "(none recorded)".into()
        } else {
            reason_text
        },
    });
    out
}

/// The actions that move the Sequence of Play: next, back, a branch or a repeat the step
/// offers, and the phase clock's step (a game with a clock).
fn stepped(view: &View, to: &super::event::Cursor) -> Vec<Action> {
    let mut out = vec![Action::Next, Action::Back];
    for p in check::pending_items(view) {
        if let Some(step) = p.enter {
            out.push(Action::Enter { step });
        }
    }
    if view.ruleset.clock().is_some() && to.turn <= view.scenario.turns.max(1) {
        out.push(Action::ClockStep { to: to.clone() });
    }
    out
}

/// The ends of the game an umpire records: by `next` at the Victory Phase, or by `game end`
/// (declaring a victory, or not) with the reason recorded last.
fn ended(result: &super::event::VictoryResult) -> Vec<(Action, bool)> {
    let mut out = vec![(Action::Next, false)];
    if let Some(reason) = result
        .reasons
        .last()
        .and_then(|r| r.strip_prefix("Ended by the umpire: "))
    {
        for declare in [None, result.item.clone()] {
            out.push((
                Action::EndGame {
                    declare,
                    reason: reason.to_string(),
                },
                false,
            ));
        }
    }
    out
}

/// The deck operation that makes a recorded change. An app draw is drawn again by name: the
/// names must be in the deck as it stood (the seed's choice among them is the verifier's).
fn deck_op(change: &DeckChange, after: &super::deck::DeckState) -> DeckOp {
    match change {
        DeckChange::Filled => DeckOp::Fill {
            items: after
                .inside
                .iter()
                .map(|(name, count)| (name.clone(), *count))
                .collect(),
        },
        DeckChange::Drawn { items, side, .. } => DeckOp::Draw {
            count: 0,
            typed: items.clone(),
            side: side.clone(),
        },
        DeckChange::Refilled => DeckOp::Refill,
        DeckChange::Returned { items } => DeckOp::Return {
            items: items.clone(),
        },
        DeckChange::Removed { items } => DeckOp::Remove {
            items: items.clone(),
        },
        DeckChange::Added { items } => DeckOp::Add {
            items: items.clone(),
        },
    }
}

/// Whether the entries an action makes are the ones recorded (what cannot be made again set
/// aside: see [`same`]).
fn made_these(kinds: &[EventKind], recorded: &[Event], strict: bool) -> bool {
    kinds.len() <= recorded.len()
        && kinds
            .iter()
            .zip(recorded)
            .all(|(made, e)| same(made, &e.kind, strict))
}

/// Whether an entry made again is the recorded one. App dice and app draws are made again from
/// their faces and names; their provenance (and the words for it in the explanation) is taken
/// from the record. A change made without a reason (a move, an edit) is checked as a change
/// with one: its changes must be the same.
fn same(made: &EventKind, recorded: &EventKind, strict: bool) -> bool {
    match (made, recorded) {
        (
            EventKind::Resolved {
                resolution: again,
                counters: c1,
                item: i1,
            },
            EventKind::Resolved {
                resolution,
                counters: c2,
                item: i2,
            },
        ) => {
            c1 == c2
                && i1 == i2
                && if strict {
                    with_provenance(again, resolution) == **resolution
                } else {
                    again.procedure == resolution.procedure
                        && again.outcome.code == resolution.outcome.code
                        && again.outcome.value == resolution.outcome.value
                }
        }
        (
            EventKind::Changed {
                changes: a,
                item: i1,
                ..
            },
            EventKind::Changed {
                changes: b,
                item: i2,
                ..
            },
        ) => a == b && (i1 == i2 || i1.is_none()),
        (
            EventKind::Deck {
                deck: d1,
                owner: o1,
                change: c1,
                before: b1,
                after: a1,
                ..
            },
            EventKind::Deck {
                deck: d2,
                owner: o2,
                change: c2,
                before: b2,
                after: a2,
                ..
            },
        ) => d1 == d2 && o1 == o2 && b1 == b2 && a1 == a2 && same_change(c1, c2),
        // An override recorded before overrides kept their effects has none.
        (
            EventKind::Overridden {
                of: o1,
                outcome: c1,
                reason: r1,
                ..
            },
            EventKind::Overridden {
                of: o2,
                outcome: c2,
                effects,
                reason: r2,
            },
        ) if effects.is_empty() => o1 == o2 && c1.trim() == c2.trim() && r1 == r2,
        _ => made == recorded,
    }
}

/// A deck change made again against the recorded one: a draw by the app made again by name.
fn same_change(made: &DeckChange, recorded: &DeckChange) -> bool {
    match (made, recorded) {
        (
            DeckChange::Drawn {
                items: i1,
                side: s1,
                reshuffled: r1,
                ..
            },
            DeckChange::Drawn {
                items: i2,
                side: s2,
                reshuffled: r2,
                provenance,
            },
        ) => {
            i1 == i2
                && s1 == s2
                && r1 == r2
                && match provenance {
                    Provenance::App { draws, .. } => *draws == i2.len() as u64,
                    Provenance::Physical { .. } => made == recorded,
                }
        }
        _ => made == recorded,
    }
}

/// A resolution made again from typed faces, with the recorded rolls' provenance put back (and
/// the words for it in the explanation's roll lines).
fn with_provenance(
    again: &crate::resolve::Resolution,
    recorded: &crate::resolve::Resolution,
) -> crate::resolve::Resolution {
    let mut out = again.clone();
    if out.rolls.len() != recorded.rolls.len() {
        return out;
    }
    for (roll, was) in out.rolls.iter_mut().zip(&recorded.rolls) {
        let from = format!("({})", crate::resolve::source_words(&roll.provenance));
        let to = format!("({})", crate::resolve::source_words(&was.provenance));
        let head = format!("Roll {}: ", roll.expr);
        if let Some(line) = out
            .explanation
            .iter_mut()
            .find(|l| l.starts_with(&head) && l.ends_with(&from))
        {
            line.truncate(line.len() - from.len());
            line.push_str(&to);
        }
        roll.provenance = was.provenance.clone();
    }
    out
}

/// How what play makes differs from what was recorded, in words.
fn differs(kinds: &[EventKind], recorded: &[Event], strict: bool) -> String {
    let Some(made) = kinds.first() else {
        return "play makes no entry of it".into();
    };
    let e = &recorded[0];
    match (made, &e.kind) {
        (
            EventKind::Resolved {
                resolution: again, ..
            },
            EventKind::Resolved { resolution, .. },
        ) => resolution_differs(&with_provenance(again, resolution), resolution),
        (EventKind::Stepped { to: a, .. }, EventKind::Stepped { from, to }) => format!(
            "the Sequence of Play does not go from turn {}, step {} to turn {}, step {} (next goes to turn {}, step {})",
            from.turn,
            from.step + 1,
            to.turn,
            to.step + 1,
            a.turn,
            a.step + 1
        ),
        (
            EventKind::Deck {
                before: b1,
                after: a1,
                ..
            },
            EventKind::Deck { before, after, .. },
        ) if b1 != before || a1 != after => format!(
            "the deck before and after it are not what the game held and what the change makes of it (before: {} in it, after: {} in it; the journal says {} and {})",
            b1.left(),
            a1.left(),
            before.left(),
            after.left()
        ),
        (EventKind::Undone { event: a }, EventKind::Undone { event: b }) => {
            format!("undo takes back entry {a} here, not entry {b}")
        }
        (EventKind::Redone { event: a }, EventKind::Redone { event: b }) => {
            format!("redo brings back entry {a} here, not entry {b}")
        }
        _ if kinds.len() > recorded.len() || !made_these(kinds, recorded, strict) => {
            let names: Vec<String> = kinds.iter().map(|k| k.name().replace('_', " ")).collect();
            format!(
                "play makes {} here ({}); the journal's entries differ",
                if kinds.len() == 1 {
                    "one entry"
                } else {
                    "several entries"
                },
                names.join(", ")
            )
        }
        _ => "play makes a different entry of it".into(),
    }
}

/// How a recorded resolution differs from the one made again from its inputs and dice (its
/// rolls' provenance put back), in words; None when they are the same.
pub(crate) fn resolution_mismatch(
    again: &crate::resolve::Resolution,
    recorded: &crate::resolve::Resolution,
) -> Option<String> {
    let again = with_provenance(again, recorded);
    (again != *recorded).then(|| resolution_differs(&again, recorded))
}

/// How a recorded resolution differs from the one its inputs and dice give.
fn resolution_differs(
    again: &crate::resolve::Resolution,
    recorded: &crate::resolve::Resolution,
) -> String {
    if again.outcome.code != recorded.outcome.code || again.outcome.value != recorded.outcome.value
    {
        return format!(
            "its inputs and dice give {}, the journal says {}",
            again.outcome.code, recorded.outcome.code
        );
    }
    if again.outcome != recorded.outcome {
        return format!(
            "its outcome is recorded as \"{}\", but its inputs and dice give \"{}\" ({})",
            recorded.outcome.label, again.outcome.label, again.outcome.code
        );
    }
    if again.modifiers != recorded.modifiers {
        return "its modifiers are not the ones its inputs give".into();
    }
    if let Some((a, b)) = again
        .explanation
        .iter()
        .zip(&recorded.explanation)
        .find(|(a, b)| a != b)
    {
        return format!("its explanation says \"{b}\", but its inputs and dice give \"{a}\"");
    }
    if again.explanation.len() != recorded.explanation.len() {
        return "its explanation is not the one its inputs and dice give".into();
    }
    "it is not what its inputs and dice give".into()
}

/// App dice rolled, or an app draw made, after the seed was revealed: play refuses them (the
/// next rolls are known to everyone).
fn app_dice_after_reveal(state: &GameState, kind: &EventKind) -> Option<Refusal> {
    let entry = state.seed_revealed?;
    let app = |p: &Provenance| matches!(p, Provenance::App { .. });
    let uses = match kind {
        EventKind::Resolved { resolution, .. } => {
            resolution.rolls.iter().any(|r| app(&r.provenance))
        }
        EventKind::Deck {
            change: DeckChange::Drawn { provenance, .. },
            ..
        } => app(provenance),
        _ => false,
    };
    uses.then_some(Refusal::NoAppDice(NoAppDice::Revealed { entry }))
}

/// Each change against the game as it stood (and the changes before it in the same entry): a
/// move from where the counter was, an attribute set from the value it had (with `from_too`),
/// to a value its declaration allows. A forged "from" would make the reports tell another
/// story than play.
fn as_it_stood(view: &View, changes: &[CounterChange], from_too: bool) -> Result<(), String> {
    let mut places: BTreeMap<&str, &super::scenario::Position> = BTreeMap::new();
    let mut values: BTreeMap<(&str, &str), Option<&Value>> = BTreeMap::new();
    for change in changes {
        let Some(c) = view.state.counters.get(change.counter()) else {
            continue;
        };
        match change {
            CounterChange::Move { counter, from, to } => {
                let was = places.get(counter.as_str()).copied().unwrap_or(&c.position);
                if from_too && from.as_ref().is_some_and(|f| f != was) {
                    return Err(format!(
                        "it moves {} from where it was not (the game had it at {was})",
                        c.name
                    ));
                }
                places.insert(counter, to);
            }
            CounterChange::Attribute {
                counter,
                attribute,
                from,
                to,
            } => {
                let key = (counter.as_str(), attribute.as_str());
                let was = values
                    .get(&key)
                    .copied()
                    .unwrap_or_else(|| c.attributes.get(attribute));
                if from_too && from.as_ref() != was {
                    return Err(format!(
                        "it sets {}'s {attribute} from {} but the game had {}",
                        c.name,
                        from.as_ref()
                            .map_or_else(|| "nothing".into(), Value::to_string),
                        was.map_or_else(|| "nothing".into(), Value::to_string)
                    ));
                }
                let declared = check::specs(view.ruleset, c)
                    .iter()
                    .any(|a| a.name == *attribute);
                if declared {
                    let again = check::attribute_value(view.ruleset, c, attribute, &typed(to))
                        .map_err(|refusal| format!("play refuses it: {refusal}"))?;
                    if again != *to {
                        return Err(format!(
                            "it sets {}'s {attribute} to {to}, which its declaration reads as {again}",
                            c.name
                        ));
                    }
                }
                values.insert(key, Some(to));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The deltas of a change held to their attributes' ranges, together (as effects are): below a
/// floor only at the umpire's word, which the reason then records.
fn within_ranges(
    view: &View,
    changes: &[CounterChange],
    reason: Option<&str>,
) -> Result<(), String> {
    let word = reason
        .filter(|r| r.contains(check::UMPIRES_WORD))
        .map(|_| "recorded");
    for ((counter, attribute), by) in check::delta_totals(changes) {
        if view.state.counters.contains_key(counter) {
            check::adjust_range(view, counter, attribute, by, word)
                .map_err(|refusal| format!("play refuses it: {refusal}"))?;
        }
    }
    Ok(())
}

/// A shared game's referee: what the server's referee process holds each append to before the
/// server stores it (the SQL checks every entry's shape, place, dice and remits; the rules of
/// play are the engine's, so the engine judges them). Built once per game from the game's
/// description, as the desks build the game.
pub struct Referee {
    ruleset: Ruleset,
    /// The ruleset's content hash, worked out once ([`Ruleset::content`]).
    content: String,
    scenario: Scenario,
    steps: Vec<LeafStep>,
    meta: GameMeta,
}

impl Referee {
    /// The referee of a game: its ruleset (from the rulesets the referee was started with) and
    /// the scenario its description holds.
    pub fn new(
        meta: GameMeta,
        rulesets: &crate::rules::Library,
    ) -> Result<Referee, super::GameError> {
        let ruleset = super::session::ruleset_for(rulesets, &meta.ruleset, "the server's referee")?;
        let scenario = super::session::scenario_from(&meta, rulesets)?;
        Ok(Referee {
            steps: super::sequence::leaf_steps(&ruleset),
            content: ruleset.content(),
            ruleset,
            scenario,
            meta,
        })
    }

    /// Judges the entries from place `from` (0-based) on, the ones before being the journal the
    /// server holds: the first that play would not have made, in words. `shared`: whether they
    /// come from a desk of the shared game (an undo then takes back that desk's own last
    /// action), not a journal published from a game file.
    pub fn judge(&self, events: &[Event], from: usize, shared: bool) -> Option<Problem> {
        if let Some(EventKind::GameStarted {
            ruleset_hash: Some(began),
            ..
        }) = events.first().map(|e| &e.kind)
        {
            // With tables transcribed during the game, the ruleset it began with.
            let rebuilt = events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Transcribed { .. }))
                .then(|| super::transcribed::InForce::of(&self.ruleset, events))
                .and_then(Result::ok)
                .map(|f| f.start().content());
            let holds = rebuilt.as_ref().unwrap_or(&self.content);
            if began != holds {
                return Some(Problem {
                    entry: 1,
                    text: format!(
                        "the game began with other content in {} than the server's referee holds (the game's {}…, the referee's {}…): start the referee with the game's rules (control-server.sh start --rules DIR)",
                        self.ruleset.name,
                        &began[..began.len().min(12)],
                        &holds[..holds.len().min(12)]
                    ),
                });
            }
        }
        let rules = Rules {
            ruleset: &self.ruleset,
            scenario: &self.scenario,
            steps: &self.steps,
            meta: &self.meta,
            shared,
        };
        audit_from(&rules, events, from)
    }
}
