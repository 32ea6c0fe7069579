//! The game state: a fold over the journal's effective events (undone ones skipped).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::event::{CounterChange, Cursor, Event, EventKind};
use super::scenario::{CounterKind, Position, Scenario};
use crate::dice::Provenance;
use crate::rules::Value;

/// One counter as it stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterState {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: String,
    /// Army, if any.
    pub army: Option<String>,
    /// Unit, leader or marker.
    pub kind: CounterKind,
    /// Attributes (strength, quality…).
    pub attributes: BTreeMap<String, Value>,
    /// Attributes the rule text does not give and the umpire has not filled in.
    pub unknown: Vec<String>,
    /// Status markers (disordered, demoralised…).
    pub statuses: BTreeSet<String>,
    /// Where it is.
    pub position: Position,
    /// Force or stack.
    pub force: Option<String>,
    /// Why it left the table, if it did.
    pub removed: Option<String>,
}

/// A check queued by an earlier result (e.g. a Discipline Check after an Assault).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FollowUp {
    /// The Resolved event that queued it.
    pub from: u64,
    /// The procedure to resolve.
    pub procedure: String,
    /// Why.
    pub text: Option<String>,
}

/// The state of a game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameState {
    /// Where the game stands in the Sequence of Play.
    pub cursor: Cursor,
    /// Every counter, by id.
    pub counters: BTreeMap<String, CounterState>,
    /// Follow-up checks not yet resolved or skipped.
    pub follow_ups: Vec<FollowUp>,
    /// Resolutions that count: (cursor, procedure, event).
    pub resolved: Vec<(Cursor, String, u64)>,
    /// Items skipped on purpose: (cursor, item key, reason).
    pub skipped: Vec<(Cursor, String, String)>,
    /// Items carried out by a change (a scheduled amount credited): (cursor, item key, event).
    pub carried_out: Vec<(Cursor, String, u64)>,
    /// The number each resolution came to (its outcome's value), by Resolved event.
    pub values: BTreeMap<u64, i64>,
    /// The outcome code that stands for each resolution (an override's, once overridden), by
    /// Resolved event: what brings a conditional reinforcement.
    pub outcomes: BTreeMap<u64, String>,
    /// Resolutions whose effects have been applied.
    pub applied: BTreeSet<u64>,
    /// The status markers applying a resolution's effects put on counters, by Resolved event:
    /// (counter, status) — the Activation marker on the Capitano that activated.
    pub marked: BTreeMap<u64, Vec<(String, String)>>,
    /// Overrides: Resolved event → outcome code that stands.
    pub overrides: BTreeMap<u64, String>,
    /// Notes: (event, text).
    pub notes: Vec<(u64, String)>,
    /// Effective events (not undone), by seq.
    pub effective: BTreeSet<u64>,
    /// The next app-dice draw index: after every draw ever used, undone ones included, so an
    /// undo never re-rolls.
    pub next_draw: u64,
    /// The entry that revealed the app dice's seed, once revealed.
    pub seed_revealed: Option<u64>,
    /// Decks and cups that have changed, by [`super::deck::key`]; the others hold what the
    /// ruleset says they start with ([`GameState::deck`]).
    pub decks: BTreeMap<String, super::deck::DeckState>,
    /// The counters each resolution involved, by Resolved event and role: whose activation,
    /// whose Attrition, who pursued.
    pub involved: BTreeMap<u64, BTreeMap<String, Vec<String>>>,
    /// The Sequence of Play's item each resolution answers, by Resolved event (a side's
    /// scheduled roll, a Force's activation).
    pub answered: BTreeMap<u64, String>,
    /// The optional rules this game plays (their numbers), as it began.
    pub optional_rules: BTreeSet<String>,
    /// The entry that brought the Sequence of Play to the step it is at (0 at the start): what
    /// was done "since the game came here" in a repeated cycle.
    pub arrived: u64,
    /// Draws from decks and cups that stand: (entry, deck id).
    pub draws: Vec<(u64, String)>,
    /// Who holds each place the game tracks (ailsh 14.1–14.3), by place name: the scenario's
    /// `holdings:` at the start, then the journal's control entries.
    pub control: BTreeMap<String, Control>,
    /// Battles fought to a result: (entry, the winning side — None for a draw, kind).
    pub battles: Vec<(u64, Option<String>, String)>,
    /// What places are where the text does not say, by the umpire's entry: place → (kind,
    /// entry).
    pub place_kinds: BTreeMap<String, (crate::rules::PlaceKind, u64)>,
    /// The umpire's judgements of victory conditions: (item, side) → (holds, entry, why).
    pub judged: BTreeMap<(String, Option<String>), (bool, u64, String)>,
    /// The Sequence of Play's moves that stand: (entry, from, to) — which branch was entered
    /// when.
    pub stepped: Vec<(u64, Cursor, Cursor)>,
    /// Victory Points gained: (entry, side, points, why).
    pub victory_points: Vec<(u64, String, i64, String)>,
    /// Conditional reinforcements brought by a result's `arrival` effect: id → where the
    /// result was made.
    pub brought: BTreeMap<String, Cursor>,
    /// The entry that ended the game, with its result.
    pub ended: Option<(u64, super::event::VictoryResult)>,
    /// Control's records: charts, registers, votes, banks' grants (`game::records`).
    pub records: super::records::Records,
    /// Orders handed in sealed, by the entry that sealed each (`game::sealed`).
    pub sealed: super::sealed::fold::Sealed,
}

/// Who holds a place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Control {
    /// The side (None: no one).
    pub side: Option<String>,
    /// By a Conquered marker (14.2–14.3).
    pub conquered: bool,
    /// The entry that set it (None: the scenario's start).
    pub since: Option<u64>,
}

impl CounterState {
    /// The counter an `add` change puts on the table, as it stands then (None for any other
    /// change).
    pub fn added(change: &CounterChange) -> Option<CounterState> {
        let CounterChange::Add {
            counter,
            name,
            side,
            kind,
            attributes,
            at,
            army,
            force,
        } = change
        else {
            return None;
        };
        Some(CounterState {
            id: counter.clone(),
            name: name.clone(),
            side: side.clone(),
            army: army.clone(),
            kind: *kind,
            attributes: attributes.clone(),
            unknown: Vec::new(),
            statuses: Default::default(),
            position: at.clone(),
            force: force.clone(),
            removed: None,
        })
    }
}

impl GameState {
    /// What a deck or cup holds now: as the journal last left it, or as the ruleset's text
    /// gives it at the start.
    pub fn deck(
        &self,
        spec: &crate::rules::DeckSpec,
        owner: Option<&str>,
    ) -> super::deck::DeckState {
        self.decks
            .get(&super::deck::key(&spec.id, owner))
            .cloned()
            .unwrap_or_else(|| super::deck::DeckState::initial(spec))
    }

    /// A counter's name (the id itself when the game has no such counter).
    pub fn counter_name<'s>(&'s self, id: &'s str) -> &'s str {
        self.counters.get(id).map_or(id, |c| c.name.as_str())
    }
}

/// Which events count: undo and redo are applied in journal order.
pub fn effective_events(events: &[Event]) -> BTreeSet<u64> {
    let mut active: BTreeSet<u64> = BTreeSet::new();
    for e in events {
        match &e.kind {
            EventKind::Undone { event } => {
                active.remove(event);
            }
            EventKind::Redone { event } => {
                active.insert(*event);
            }
            _ => {
                active.insert(e.seq);
            }
        }
    }
    active
}

fn apply_change(
    counters: &mut BTreeMap<String, CounterState>,
    change: &CounterChange,
) -> Result<(), String> {
    let id = change.counter();
    if let Some(added) = CounterState::added(change) {
        if counters.contains_key(id) {
            return Err(format!(
                "the journal adds counter '{id}', which the game already has"
            ));
        }
        counters.insert(id.to_string(), added);
        return Ok(());
    }
    let Some(c) = counters.get_mut(id) else {
        return Err(format!(
            "the journal names counter '{id}', which the scenario does not have"
        ));
    };
    match change {
        CounterChange::Attribute { attribute, to, .. } => {
            c.unknown.retain(|u| u != attribute);
            c.attributes.insert(attribute.clone(), to.clone());
        }
        CounterChange::Status { status, on, .. } => {
            if *on {
                c.statuses.insert(status.clone());
            } else {
                c.statuses.remove(status);
            }
        }
        CounterChange::Move { to, .. } => {
            c.position = to.clone();
            c.removed = None;
        }
        CounterChange::Remove { reason, .. } => c.removed = Some(reason.clone()),
        CounterChange::Add { .. } => {}
        CounterChange::Adjust { attribute, by, .. } => {
            // An attribute still unknown stays marked unknown: its value is then the sum of the
            // deltas since the start, until the umpire sets it.
            let now = match c.attributes.get(attribute) {
                None => 0,
                Some(Value::Int(v)) => *v,
                Some(other) => {
                    return Err(format!(
                        "the journal adjusts {id}'s {attribute} by {by}, but it is not a number ({other})"
                    ));
                }
            };
            // The checks refuse a delta past 64 bits; a journal that holds one anyway is
            // reported, not saturated.
            let after = now.checked_add(*by).ok_or_else(|| {
                format!(
                    "the journal adjusts {id}'s {attribute} from {now} by {by}, past the largest whole number Umpire keeps"
                )
            })?;
            c.attributes.insert(attribute.clone(), Value::Int(after));
        }
    }
    Ok(())
}

/// Label of the off-map box where a turn's reinforcements wait.
pub fn reinforcement_box(turn: u32) -> String {
    format!("reinforcements, turn {turn}")
}

/// Label of the off-map box where a conditional reinforcement waits until its rule brings it:
/// the special rule's title, as the scenario prints it.
pub fn conditional_box(
    scenario: &Scenario,
    r: &super::scenario::ConditionalReinforcement,
) -> String {
    let rule = scenario
        .special_rules
        .iter()
        .find(|s| s.id == r.rule)
        .map_or(r.rule.as_str(), |s| s.title.as_str());
    format!("reinforcements awaiting {rule}")
}

/// The state at the start of a scenario.
pub fn initial_state(scenario: &Scenario) -> GameState {
    let mut counters = BTreeMap::new();
    let mut add = |spec: &super::scenario::CounterSpec, position: Position| {
        counters.insert(
            spec.id.clone(),
            CounterState {
                id: spec.id.clone(),
                name: spec.name.clone(),
                side: spec.side.clone(),
                army: spec.army.clone(),
                kind: spec.kind,
                attributes: spec.attributes.clone(),
                unknown: spec.unknown.clone(),
                statuses: BTreeSet::new(),
                position,
                force: spec.force.clone(),
                removed: None,
            },
        );
    };
    for spec in &scenario.counters {
        add(spec, spec.position.clone());
    }
    for r in &scenario.reinforcements {
        for spec in &r.counters {
            add(spec, Position::OffMap(reinforcement_box(r.turn)));
        }
    }
    for r in &scenario.conditional_reinforcements {
        for spec in &r.counters {
            add(spec, Position::OffMap(conditional_box(scenario, r)));
        }
    }
    GameState {
        cursor: Cursor { turn: 1, step: 0 },
        counters,
        follow_ups: Vec::new(),
        resolved: Vec::new(),
        skipped: Vec::new(),
        carried_out: Vec::new(),
        values: BTreeMap::new(),
        outcomes: BTreeMap::new(),
        applied: BTreeSet::new(),
        marked: BTreeMap::new(),
        overrides: BTreeMap::new(),
        notes: Vec::new(),
        effective: BTreeSet::new(),
        next_draw: 0,
        seed_revealed: None,
        decks: BTreeMap::new(),
        involved: BTreeMap::new(),
        answered: BTreeMap::new(),
        optional_rules: BTreeSet::new(),
        arrived: 0,
        draws: Vec::new(),
        sealed: BTreeMap::new(),
        control: scenario
            .holdings
            .iter()
            .map(|h| {
                (
                    h.place.clone(),
                    Control {
                        side: Some(h.side.clone()),
                        conquered: h.status == "conquered",
                        since: None,
                    },
                )
            })
            .collect(),
        battles: Vec::new(),
        place_kinds: BTreeMap::new(),
        judged: BTreeMap::new(),
        stepped: Vec::new(),
        victory_points: Vec::new(),
        brought: BTreeMap::new(),
        ended: None,
        records: Default::default(),
    }
}

/// Folds the journal into a state. Fails only on a journal that contradicts its scenario.
pub fn replay(scenario: &Scenario, events: &[Event]) -> Result<GameState, String> {
    let mut state = initial_state(scenario);
    state.effective = effective_events(events);
    for e in events {
        apply_event(&mut state, e)?;
    }
    Ok(state)
}

/// Folds one more event into a state (one that is not an undo or redo, which change which
/// earlier events count and so need a full [`replay`]).
pub fn append_event(state: &mut GameState, e: &Event) -> Result<(), String> {
    // As `effective_events` does in a full replay: everything but undo and redo counts.
    if e.kind.is_undoable()
        || matches!(
            e.kind,
            EventKind::GameStarted { .. }
                | EventKind::Clock { .. }
                | EventKind::SeedRevealed { .. }
                | EventKind::OrdersSealed { .. }
                | EventKind::OrdersRevealed { .. }
        )
    {
        state.effective.insert(e.seq);
    }
    apply_event(state, e)
}

/// Folds `events` into `state` as a full [`replay`] with `effective` counting would: `state` is
/// the fold of the entries before them, and no entry before them counts differently under
/// `effective` (the journal's timeline folds an undo or redo again from a state it keeps).
pub(crate) fn refold(
    state: &mut GameState,
    events: &[Event],
    effective: BTreeSet<u64>,
) -> Result<(), String> {
    state.effective = effective;
    for e in events {
        apply_event(state, e)?;
    }
    Ok(())
}

fn apply_event(state: &mut GameState, e: &Event) -> Result<(), String> {
    // Draws are never reused, even those of undone rolls.
    if let EventKind::Resolved { resolution, .. } = &e.kind {
        for roll in &resolution.rolls {
            if let Provenance::App {
                first_draw, draws, ..
            } = roll.provenance
            {
                state.next_draw = state.next_draw.max(first_draw.saturating_add(draws));
            }
        }
    }
    if let EventKind::Deck {
        change:
            super::deck::DeckChange::Drawn {
                provenance:
                    Provenance::App {
                        first_draw, draws, ..
                    },
                ..
            },
        ..
    } = &e.kind
    {
        state.next_draw = state.next_draw.max(first_draw.saturating_add(*draws));
    }
    if !state.effective.contains(&e.seq) {
        return Ok(());
    }
    match &e.kind {
        EventKind::GameStarted { optional_rules, .. } => {
            state.optional_rules = optional_rules.iter().cloned().collect();
            // The game begins where its start was recorded: the first step of turn 1 that
            // applies to it (an optional rule's offer it does not play is not where it begins).
            state.cursor = e.cursor.clone();
        }
        EventKind::Undone { .. } | EventKind::Redone { .. } => {}
        // The phase clock is folded on its own (megagame::clock); announcements are read off
        // the journal by the megagame paper.
        EventKind::Clock { .. } | EventKind::Announced { .. } => {}
        // A transcription changes the ruleset the game reads, not the counters
        // (`game::transcribed`, laid over by the game's fold).
        EventKind::Transcribed { .. } => {}
        EventKind::Deck {
            deck,
            owner,
            after,
            change,
            ..
        } => {
            if matches!(change, super::deck::DeckChange::Drawn { .. }) {
                state.draws.push((e.seq, deck.clone()));
            }
            state
                .decks
                .insert(super::deck::key(deck, owner.as_deref()), after.clone());
        }
        EventKind::SeedRevealed { .. } => state.seed_revealed = Some(e.seq),
        EventKind::Changed { changes, item, .. } => {
            for c in changes {
                apply_change(&mut state.counters, c)
                    .map_err(|m| format!("entry {}: {m}", e.seq))?;
            }
            if let Some(item) = item {
                state
                    .carried_out
                    .push((e.cursor.clone(), item.clone(), e.seq));
            }
        }
        EventKind::EffectsApplied { of, changes } => {
            for c in changes {
                apply_change(&mut state.counters, c)
                    .map_err(|m| format!("entry {}: {m}", e.seq))?;
                if let CounterChange::Status {
                    counter,
                    status,
                    on: true,
                } = c
                {
                    state
                        .marked
                        .entry(*of)
                        .or_default()
                        .push((counter.clone(), status.clone()));
                }
            }
            state.applied.insert(*of);
        }
        EventKind::Resolved {
            resolution,
            counters,
            item,
        } => {
            if let Some(item) = item {
                state.answered.insert(e.seq, item.clone());
            }
            fold_resolved(state, e.seq, &e.cursor, resolution, counters);
        }
        EventKind::Overridden {
            of,
            outcome,
            effects,
            ..
        } => fold_override(state, *of, outcome, effects),
        EventKind::Stepped { from, to } => {
            state.cursor = to.clone();
            state.arrived = e.seq;
            state.stepped.push((e.seq, from.clone(), to.clone()));
        }
        EventKind::Skipped { item, reason } => {
            if let Some(from) = item
                .strip_prefix("follow_up:")
                .and_then(|s| s.parse::<u64>().ok())
            {
                state.follow_ups.retain(|f| f.from != from);
            }
            state
                .skipped
                .push((e.cursor.clone(), item.clone(), reason.clone()));
        }
        EventKind::Note { text } => state.notes.push((e.seq, text.clone())),
        EventKind::Victory { fact } => apply_victory(state, e.seq, fact),
        EventKind::Record { fact } => state.records.apply(e.seq, e.cursor.turn, fact),
        EventKind::OrdersSealed { .. } | EventKind::OrdersRevealed { .. } => {
            super::sealed::fold::apply(&mut state.sealed, e);
        }
    }
    Ok(())
}

/// An override folded in: the outcome that stands, the Victory Points and the number it
/// gives.
fn fold_override(
    state: &mut GameState,
    of: u64,
    outcome: &str,
    effects: &[crate::resolve::Effect],
) {
    state.overrides.insert(of, outcome.to_string());
    state.outcomes.insert(of, outcome.to_string());
    state.victory_points.retain(|v| v.0 != of);
    state
        .victory_points
        .extend(effect_points(of, effects, "override"));
    // The number that stands is the override's (a credit of "4 AP" overridden to 2 credits 2;
    // an AP Table result overridden to −1 credits the APs its effects receive); a result in
    // words carries none rather than the roll's.
    let code = outcome.trim().trim_start_matches('+').parse::<i64>().ok();
    match came_to(effects, code) {
        Some(v) => {
            state.values.insert(of, v);
        }
        None => {
            state.values.remove(&of);
        }
    }
}

/// A resolution folded in: the counters it involved, the checks it queues (and the one it
/// answers), the number it came to.
fn fold_resolved(
    state: &mut GameState,
    seq: u64,
    cursor: &Cursor,
    resolution: &crate::resolve::Resolution,
    counters: &BTreeMap<String, Vec<String>>,
) {
    if !counters.is_empty() {
        state.involved.insert(seq, counters.clone());
    }
    if let Some(i) = state
        .follow_ups
        .iter()
        .position(|f| f.procedure == resolution.procedure)
    {
        state.follow_ups.remove(i);
    }
    for effect in &resolution.outcome.effects {
        if effect.kind == crate::rules::EffectKind::FollowUp
            && let Some(p) = &effect.procedure
        {
            state.follow_ups.push(FollowUp {
                from: seq,
                procedure: p.clone(),
                text: effect.text.clone(),
            });
        }
    }
    if let Some(v) = came_to(&resolution.outcome.effects, resolution.outcome.value) {
        state.values.insert(seq, v);
    }
    fold_outcome(state, seq, resolution);
    for effect in &resolution.outcome.effects {
        match (effect.kind, &effect.value) {
            (crate::rules::EffectKind::Control, Some(Value::Text(place))) => {
                // A role (the attacker) holds it for its counters' side.
                let side = effect.side.as_ref().map(|s| {
                    counters
                        .get(s)
                        .and_then(|ids| ids.iter().find_map(|id| state.counters.get(id)))
                        .map_or_else(|| s.clone(), |c| c.side.clone())
                });
                state.control.insert(
                    place.clone(),
                    Control {
                        side,
                        conquered: effect.status.as_deref() == Some("conquered"),
                        since: Some(seq),
                    },
                );
            }
            (crate::rules::EffectKind::Arrival, Some(Value::Text(id))) => {
                state.brought.insert(id.clone(), cursor.clone());
            }
            _ => {}
        }
    }
    state
        .resolved
        .push((cursor.clone(), resolution.procedure.clone(), seq));
}

/// The number a result came to: its first `value` effect (the procedure's own word comes
/// first: "APs received", not the chart's modifier), else the outcome's number.
pub fn came_to(effects: &[crate::resolve::Effect], value: Option<i64>) -> Option<i64> {
    effects
        .iter()
        .find(|e| e.kind == crate::rules::EffectKind::Value && e.amount.is_some())
        .and_then(|e| e.amount)
        .or(value)
}

fn apply_victory(state: &mut GameState, seq: u64, fact: &super::event::VictoryFact) {
    use super::event::VictoryFact;
    match fact {
        VictoryFact::Control {
            place,
            side,
            conquered,
            ..
        } => {
            state.control.insert(
                place.clone(),
                Control {
                    side: side.clone(),
                    conquered: *conquered,
                    since: Some(seq),
                },
            );
        }
        VictoryFact::BattleWon { side, battle, .. } => {
            state
                .battles
                .push((seq, Some(side.clone()), battle.clone()));
        }
        VictoryFact::BattleDrawn { battle, .. } => {
            state.battles.push((seq, None, battle.clone()));
        }
        VictoryFact::PlaceKind { place, kind, .. } => {
            state.place_kinds.insert(place.clone(), (*kind, seq));
        }
        VictoryFact::Judged {
            item,
            side,
            holds,
            reason,
        } => {
            state
                .judged
                .insert((item.clone(), side.clone()), (*holds, seq, reason.clone()));
        }
        VictoryFact::Points {
            side,
            points,
            reason,
        } => state
            .victory_points
            .push((seq, side.clone(), *points, reason.clone())),
        VictoryFact::Ended { result } => state.ended = Some((seq, result.clone())),
    }
}

/// What victory reads of a result: its outcome code and the Victory Points it gives.
fn fold_outcome(state: &mut GameState, seq: u64, resolution: &crate::resolve::Resolution) {
    state.outcomes.insert(seq, resolution.outcome.code.clone());
    state.victory_points.extend(effect_points(
        seq,
        &resolution.outcome.effects,
        &resolution.procedure,
    ));
}

/// The Victory Points a result's effects give (`victory_points` effects with a side).
fn effect_points(
    seq: u64,
    effects: &[crate::resolve::Effect],
    why: &str,
) -> Vec<(u64, String, i64, String)> {
    effects
        .iter()
        .filter(|e| e.kind == crate::rules::EffectKind::VictoryPoints)
        .filter_map(|e| {
            Some((
                seq,
                e.side.clone()?,
                e.amount?,
                e.text.clone().unwrap_or_else(|| why.to_string()),
            ))
        })
        .collect()
}
