//! Victory decided by the rules: each scenario's victory items with a `check:` are evaluated on
//! the game as it stands — sudden death after each entry that can trigger it, the full
//! conditions at the Victory Phase and at the scenario's end — and the result is recorded as a
//! journal entry with its reasoning. [`standing`] says who would win if the game ended now.

mod eval;
mod recorded;

use serde::Serialize;

pub use eval::Totals;
pub use eval::Truth;
pub use recorded::*;

use super::event::{VictoryFact, VictoryResult};
use super::scenario::{Condition, Scenario, TextItem, VictoryCheck, VictoryWhen};
use super::state::GameState;
use super::steps::{LeafStep, Pending};
use super::words::side_words;
use crate::rules::Ruleset;
use eval::Eval;

/// When the conditions are evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Moment {
    /// After an entry: only the conditions that end the game at once.
    Now,
    /// At the end of a turn (the Victory Phase): those and the end-of-any-turn ones.
    EndOfTurn,
    /// At the scenario's end: every condition.
    EndOfScenario,
}

/// One victory item evaluated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// The item's id.
    pub item: String,
    /// Its title ("French Standard Victory").
    pub title: String,
    /// Its rule.
    pub rule: Option<String>,
    /// The side it was evaluated for.
    pub side: Option<String>,
    /// That side in words ("Swiss").
    pub side_name: Option<String>,
    /// Whether it holds.
    pub truth: Truth,
    /// Why, one phrase each.
    pub reasons: Vec<String>,
    /// When it counts.
    pub when: VictoryWhen,
    /// The side may declare it (the game does not end by itself).
    pub optional: bool,
}

/// Where victory stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// The game's recorded result, once it has ended.
    pub ended: Option<VictoryResult>,
    /// The result if the game ended now (its end-of-scenario conditions read now); None when
    /// the scenario declares no structured conditions.
    pub if_ended_now: Option<VictoryResult>,
    /// Each item evaluated.
    pub lines: Vec<Line>,
    /// Results a side may declare now (at the Victory Phase).
    pub declarable: Vec<VictoryResult>,
}

impl Standing {
    /// "The game is over: …" or "If the game ended now: …", one line (None without conditions).
    pub fn headline(&self) -> Option<String> {
        if let Some(r) = &self.ended {
            return Some(format!("The game is over: {}", r.sentence));
        }
        self.if_ended_now
            .as_ref()
            .map(|r| format!("If the game ended now: {}", r.sentence))
    }
}

/// Whether a scenario has any structured victory condition.
pub fn has_conditions(scenario: &Scenario) -> bool {
    scenario.victory.iter().any(|v| v.check.is_some())
}

/// Who would win if the game ended now, with every condition's reasoning.
pub fn standing(scenario: &Scenario, state: &GameState) -> Standing {
    let ended = state.ended.as_ref().map(|(_, r)| r.clone());
    if !has_conditions(scenario) {
        return Standing {
            ended,
            if_ended_now: None,
            lines: Vec::new(),
            declarable: Vec::new(),
        };
    }
    let (now, lines) = evaluate(scenario, state, Moment::EndOfScenario, false);
    Standing {
        ended,
        if_ended_now: Some(now.unwrap_or_else(|| undecided(scenario, &lines))),
        lines,
        declarable: declarable(scenario, state),
    }
}

/// The results a side may declare at the end of this turn (an optional item that holds).
pub fn declarable(scenario: &Scenario, state: &GameState) -> Vec<VictoryResult> {
    let (_, lines) = evaluate(scenario, state, Moment::EndOfTurn, true);
    lines
        .iter()
        .filter(|l| l.optional && l.truth == Truth::Yes)
        .filter_map(|l| {
            let item = scenario.victory.iter().find(|i| i.id == l.item)?;
            Some(result_of(scenario, item, l))
        })
        .collect()
}

/// Evaluates the conditions that count at `moment`: the result (None when nothing decides it,
/// or the umpire must judge) and every item's line.
pub fn evaluate(
    scenario: &Scenario,
    state: &GameState,
    moment: Moment,
    with_optional: bool,
) -> (Option<VictoryResult>, Vec<Line>) {
    let items = &scenario.victory;
    let counts = |c: &VictoryCheck| {
        let when_ok = match c.when {
            VictoryWhen::Immediately => true,
            VictoryWhen::EndOfAnyTurn => moment >= Moment::EndOfTurn,
            VictoryWhen::EndOfScenario => moment == Moment::EndOfScenario,
        };
        when_ok && !c.draw && c.raise.is_none() && (with_optional || !c.optional)
    };
    let mut ev = Eval {
        scenario,
        state,
        other_wins: Truth::Unknown,
        scenario_end: moment == Moment::EndOfScenario,
        item: None,
    };
    let mut lines = Vec::new();
    // First the items that do not ask whether another side won, then those that do.
    for second in [false, true] {
        if second {
            ev.other_wins = others(&lines);
        }
        for item in items {
            let Some(check) = item.check.as_ref().filter(|c| counts(c)) else {
                continue;
            };
            if check.condition.as_ref().is_some_and(asks_no_winner) != second {
                continue;
            }
            let sides: Vec<Option<&str>> = match &check.winner {
                Some(w) => vec![Some(w.as_str())],
                None => scenario.sides.iter().map(|s| Some(s.id.as_str())).collect(),
            };
            ev.item = Some(item.id.as_str());
            for side in sides {
                let (truth, reasons) = match &check.condition {
                    Some(c) => ev.truth(c, side, items, 0),
                    None => (Truth::Yes, Vec::new()),
                };
                lines.push(Line {
                    item: item.id.clone(),
                    title: item.title.clone(),
                    rule: item.rule.clone(),
                    side: side.map(str::to_string),
                    side_name: side.map(|s| side_words(scenario, s)),
                    truth,
                    reasons,
                    when: check.when,
                    optional: check.optional,
                });
            }
        }
    }
    let result = decide(scenario, state, &lines, moment);
    (result, lines)
}

/// Whether another side wins, as far as the first pass can tell.
fn others(lines: &[Line]) -> Truth {
    if lines.iter().any(|l| l.truth == Truth::Yes && !l.optional) {
        Truth::Yes
    } else if lines.iter().any(|l| l.truth == Truth::Unknown) {
        Truth::Unknown
    } else {
        Truth::No
    }
}

/// Whether a condition holds a part the umpire judges (`umpire:`).
pub fn asks_the_umpire(c: &Condition) -> bool {
    match c {
        Condition::Umpire { .. } => true,
        Condition::All(all) | Condition::Any(all) => all.iter().any(asks_the_umpire),
        Condition::Not(c) => asks_the_umpire(c),
        _ => false,
    }
}

fn asks_no_winner(c: &Condition) -> bool {
    match c {
        Condition::NoWinner => true,
        Condition::All(all) | Condition::Any(all) => all.iter().any(asks_no_winner),
        Condition::Not(c) => asks_no_winner(c),
        _ => false,
    }
}

/// The items a holding item's `won:` names: it supersedes them (a Strategic Victory over the
/// Standard one it needs).
fn superseded(c: &Condition, out: &mut Vec<String>) {
    match c {
        Condition::Won { item } => out.push(item.clone()),
        Condition::All(all) | Condition::Any(all) => all.iter().for_each(|c| superseded(c, out)),
        Condition::Not(_) => {}
        _ => {}
    }
}

fn decide(
    scenario: &Scenario,
    state: &GameState,
    lines: &[Line],
    moment: Moment,
) -> Option<VictoryResult> {
    let holding: Vec<&Line> = lines
        .iter()
        .filter(|l| l.truth == Truth::Yes && !l.optional)
        .collect();
    let mut gone = Vec::new();
    for l in &holding {
        let check = scenario
            .victory
            .iter()
            .find(|i| i.id == l.item)
            .and_then(|i| i.check.as_ref());
        if let Some(check) = check {
            gone.extend(check.supersedes.iter().cloned());
            if let Some(c) = &check.condition {
                superseded(c, &mut gone);
            }
        }
    }
    let winner = holding.iter().find(|l| !gone.contains(&l.item));
    let mut result = match winner {
        Some(l) => {
            let item = scenario.victory.iter().find(|i| i.id == l.item)?;
            Some(result_of(scenario, item, l))
        }
        None if moment == Moment::EndOfScenario
            && !lines.iter().any(|l| l.truth == Truth::Unknown) =>
        {
            draw(scenario)
        }
        None => None,
    };
    // A die rolled to raise the result (recorded before this end) raises it at whatever end
    // the game reaches: the end of the Scenario, or a win at the end of a turn.
    result = result.map(|r| raised(scenario, state, r));
    result
}

/// Whether the special rule a raising die needs holds, by the umpire's judgement: Some(true)
/// judged to hold, Some(false) judged not to, None not judged (or nothing needed: Some(true)).
pub fn raise_requirement(state: &GameState, raise: &super::scenario::Raise) -> Option<bool> {
    match &raise.requires {
        None => Some(true),
        Some(rule) => state
            .judged
            .get(&(rule.clone(), None))
            .map(|(holds, _, _)| *holds),
    }
}

/// The scenario's draw, when it has one.
fn draw(scenario: &Scenario) -> Option<VictoryResult> {
    let item = scenario
        .victory
        .iter()
        .find(|i| i.check.as_ref().is_some_and(|c| c.draw))?;
    Some(VictoryResult {
        winner: None,
        item: Some(item.id.clone()),
        level: None,
        sentence: format!(
            "the game is a draw: no side's victory condition holds{}",
            rule_words(item)
        ),
        reasons: vec![item.text.clone()],
    })
}

/// A result raised by an end-of-game die (ailsh Scenario 5, the Duke of Albany), when it was
/// rolled and its outcome raises.
fn raised(scenario: &Scenario, state: &GameState, r: VictoryResult) -> VictoryResult {
    for item in &scenario.victory {
        let Some(raise) = item.check.as_ref().and_then(|c| c.raise.as_ref()) else {
            continue;
        };
        let last = state
            .resolved
            .iter()
            .rev()
            .find(|(_, p, seq)| *p == raise.procedure && state.effective.contains(seq));
        let Some((_, _, seq)) = last else { continue };
        if state.outcomes.get(seq) != Some(&raise.outcome)
            || raise_requirement(state, raise) != Some(true)
        {
            continue;
        }
        let from = r.item.clone().unwrap_or_default();
        let Some((_, to)) = raise.steps.iter().find(|(f, _)| *f == from) else {
            continue;
        };
        let Some(target) = scenario.victory.iter().find(|i| i.id == *to) else {
            continue;
        };
        let mut reasons = r.reasons.clone();
        reasons.push(format!(
            "{}: the die raised the result from {}",
            item.title,
            scenario
                .victory
                .iter()
                .find(|i| i.id == from)
                .map_or(from.clone(), |i| i.title.clone())
        ));
        let check = target.check.as_ref();
        let winner = check.and_then(|c| c.winner.clone()).or(target.side.clone());
        let level = check.and_then(|c| c.level.clone());
        return VictoryResult {
            sentence: sentence(
                scenario,
                winner.as_deref(),
                level.as_deref(),
                &reasons,
                item,
            ),
            winner,
            item: Some(target.id.clone()),
            level,
            reasons,
        };
    }
    r
}

/// The result an item gives, from its line.
fn result_of(scenario: &Scenario, item: &TextItem, line: &Line) -> VictoryResult {
    let level = item.check.as_ref().and_then(|c| c.level.clone());
    VictoryResult {
        winner: line.side.clone(),
        item: Some(item.id.clone()),
        sentence: sentence(
            scenario,
            line.side.as_deref(),
            level.as_deref(),
            &line.reasons,
            item,
        ),
        level,
        reasons: line.reasons.clone(),
    }
}

/// When nothing is decided: what the umpire must judge.
fn undecided(scenario: &Scenario, lines: &[Line]) -> VictoryResult {
    let open: Vec<String> = lines
        .iter()
        .filter(|l| l.truth == Truth::Unknown)
        .map(|l| match &l.side {
            Some(s) => format!("{} for the {}", l.title, side_words(scenario, s)),
            None => l.title.clone(),
        })
        .collect();
    VictoryResult {
        winner: None,
        item: None,
        level: None,
        sentence: if open.is_empty() {
            "no result: no victory condition holds".to_string()
        } else {
            format!("not decided: the umpire judges {}", open.join("; "))
        },
        reasons: lines
            .iter()
            .filter(|l| l.truth == Truth::Unknown)
            .flat_map(|l| l.reasons.clone())
            .collect(),
    }
}

fn rule_words(item: &TextItem) -> String {
    item.rule
        .as_deref()
        .map_or_else(String::new, |r| format!(" ({r})"))
}

/// "The Swiss side wins: a Major Battle won by the Swiss (Scenario 2: … › Victory Conditions)".
fn sentence(
    scenario: &Scenario,
    winner: Option<&str>,
    level: Option<&str>,
    reasons: &[String],
    item: &TextItem,
) -> String {
    let why = reasons.join("; ");
    let who = match winner {
        Some(w) => format!("the {} side", side_words(scenario, w)),
        None => "no side".to_string(),
    };
    let what = match level {
        Some(l) => format!("{who} wins a {l}"),
        None => format!("{who} wins"),
    };
    let mut s = super::words::capitalised(&what);
    if !why.is_empty() {
        s.push_str(": ");
        s.push_str(&why);
    }
    s.push_str(&rule_words(item));
    s
}

/// Whether the step is one the ruleset marks `victory: true`: a Victory Phase (ailsh E, the
/// Interphase's C) or the end-of-game check (Gradisca e).
pub fn is_victory_step(step: &LeafStep) -> bool {
    step.victory
}

/// The result that ends the game after an entry (sudden death), if any.
pub fn ending_now(scenario: &Scenario, state: &GameState) -> Option<VictoryResult> {
    if state.ended.is_some() || !has_conditions(scenario) {
        return None;
    }
    evaluate(scenario, state, Moment::Now, false).0
}

/// The result that ends the game when `next` leaves the step at the cursor: at a Victory
/// Phase, the end-of-any-turn conditions (all of them on the last turn); past the last step of
/// the last turn, the full conditions (a draw, or what the umpire must judge).
pub fn ending_at_next(
    scenario: &Scenario,
    state: &GameState,
    steps: &[LeafStep],
    past_the_end: bool,
) -> Option<VictoryResult> {
    if state.ended.is_some() || !has_conditions(scenario) {
        return None;
    }
    let last_turn = state.cursor.turn >= scenario.turns.max(1);
    if past_the_end {
        let (r, lines) = evaluate(scenario, state, Moment::EndOfScenario, false);
        return Some(r.unwrap_or_else(|| undecided(scenario, &lines)));
    }
    let step = steps.get(state.cursor.step)?;
    if !is_victory_step(step) {
        return None;
    }
    let moment = if last_turn {
        Moment::EndOfScenario
    } else {
        Moment::EndOfTurn
    };
    // A win ends the game here; a draw waits for the scenario's end (its last steps may still
    // change it).
    evaluate(scenario, state, moment, false)
        .0
        .filter(|r| r.winner.is_some())
}

/// The journal entry that ends the game with a result.
pub fn ended(result: VictoryResult) -> super::event::EventKind {
    super::event::EventKind::Victory {
        fact: VictoryFact::Ended { result },
    }
}

/// What the Sequence of Play shows about victory at the step: the standing at a Victory Phase,
/// results a side may declare, and the result once the game is over.
pub fn pending_items(ruleset: &Ruleset, scenario: &Scenario, state: &GameState) -> Vec<Pending> {
    let steps = super::steps::leaf_steps(ruleset);
    let item = |key: &str, label: String| Pending {
        key: key.to_string(),
        label,
        procedure: None,
        mandatory: false,
        done: false,
        credit: None,
        enter: None,
        whose: None,
    };
    if let Some((_, r)) = &state.ended {
        return vec![Pending {
            done: true,
            ..item(
                "victory:ended",
                format!(
                    "The game is over: {} — reveal the dice's seed so the players can check every roll",
                    r.sentence
                ),
            )
        }];
    }
    let at_victory = steps.get(state.cursor.step).is_some_and(is_victory_step);
    let mut out = needed_before_the_end(ruleset, scenario, state, &steps);
    if !at_victory || !has_conditions(scenario) {
        return out;
    }
    let standing = standing(scenario, state);
    if let Some(line) = standing.headline() {
        out.push(item("victory:standing", line));
    }
    for d in standing.declarable {
        out.push(item(
            &format!("victory:declare:{}", d.item.clone().unwrap_or_default()),
            format!("May be declared to end the game: {}", d.sentence),
        ));
    }
    out
}

/// What the umpire must give before the game ends undecided: at the last stop of the last
/// turn (Next from it ends the scenario), each condition the end would leave for the umpire to
/// judge (a part the counters cannot show, a place's kind the text leaves open, a City's die
/// not rolled) is a mandatory item: given, or skipped with the reason — never an end that
/// silently reads "not decided".
fn needed_before_the_end(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    steps: &[super::steps::LeafStep],
) -> Vec<Pending> {
    let last = scenario.turns.max(1);
    if state.cursor.turn < last || !has_conditions(scenario) {
        return Vec::new();
    }
    let walk = super::sequence::Walk {
        ruleset,
        scenario,
        state,
        steps,
    };
    if walk.next_stop().0.turn <= last {
        return Vec::new();
    }
    let (result, lines) = evaluate(scenario, state, Moment::EndOfScenario, false);
    if result.is_some() {
        return Vec::new();
    }
    lines
        .iter()
        .filter(|l| l.truth == Truth::Unknown)
        .map(|l| {
            let key = format!(
                "victory:needed:{}{}",
                l.item,
                l.side
                    .as_deref()
                    .map_or_else(String::new, |s| format!(":{s}"))
            );
            let whose = l
                .side_name
                .as_deref()
                .map_or_else(String::new, |s| format!(" ({s})"));
            Pending {
                done: state.skipped.iter().any(|(_, k, _)| *k == key),
                label: format!(
                    "Before the game ends: {}{whose} — {}",
                    l.title,
                    l.reasons.join("; ")
                ),
                key,
                procedure: None,
                mandatory: true,
                credit: None,
                enter: None,
                whose: None,
            }
        })
        .collect()
}

/// The places a victory condition scores by their kind (a Town's VP, a City's die) whose kind
/// neither the text, the scenario nor an entry gives: the umpire reads them off the map.
pub fn places_needing_kind(scenario: &Scenario, state: &GameState) -> Vec<String> {
    fn walk<'c>(c: &'c Condition, out: &mut Vec<&'c super::scenario::PlaceRef>) {
        match c {
            Condition::All(all) | Condition::Any(all) => all.iter().for_each(|c| walk(c, out)),
            Condition::Not(c) => walk(c, out),
            Condition::MostVictoryPoints { places, .. } => out.extend(places.iter()),
            _ => {}
        }
    }
    let mut places = Vec::new();
    for v in &scenario.victory {
        if let Some(c) = v.check.as_ref().and_then(|c| c.condition.as_ref()) {
            walk(c, &mut places);
        }
    }
    let mut out: Vec<String> = Vec::new();
    for p in places {
        let known = state.place_kinds.contains_key(&p.name)
            || scenario
                .places
                .iter()
                .any(|x| x.name == p.name && x.kind.is_some())
            || p.kind.is_some();
        if !known && !out.contains(&p.name) {
            out.push(p.name.clone());
        }
    }
    out
}

/// The places the game tracks who holds: those the scenario's holdings and victory conditions
/// name, by name, with where they are.
pub fn tracked_places(scenario: &Scenario) -> Vec<super::scenario::PlaceRef> {
    let mut out: Vec<super::scenario::PlaceRef> = Vec::new();
    let mut add = |p: &super::scenario::PlaceRef| {
        if !out.iter().any(|o| o.name == p.name) {
            out.push(p.clone());
        }
    };
    for h in &scenario.holdings {
        let kind = scenario
            .places
            .iter()
            .find(|p| p.name == h.place)
            .and_then(|p| p.kind);
        add(&super::scenario::PlaceRef {
            name: h.place.clone(),
            position: h.position.clone(),
            kind,
        });
    }
    fn walk(c: &Condition, add: &mut dyn FnMut(&super::scenario::PlaceRef)) {
        match c {
            Condition::All(all) | Condition::Any(all) => all.iter().for_each(|c| walk(c, add)),
            Condition::Not(c) => walk(c, add),
            Condition::Occupied { places, .. }
            | Condition::Owned { places, .. }
            | Condition::MostVictoryPoints { places, .. } => places.iter().for_each(add),
            _ => {}
        }
    }
    for item in &scenario.victory {
        if let Some(c) = item.check.as_ref().and_then(|c| c.condition.as_ref()) {
            walk(c, &mut add);
        }
    }
    out
}

/// A place a person names (any case), as the map prints it: a tracked place, or one of the
/// map's places by its name or another name the texts print for it ("Trezzo d'Adda" is
/// Trezzo).
pub fn place_named(scenario: &Scenario, typed: &str) -> Option<String> {
    let typed = typed.trim();
    scenario
        .places
        .iter()
        .find(|p| p.answers_to(typed))
        .map(|p| p.name.clone())
        .or_else(|| {
            tracked_places(scenario)
                .into_iter()
                .map(|p| p.name)
                .find(|n| n.eq_ignore_ascii_case(typed))
        })
}

/// The control changes a move makes (14.2–14.3): a side's Force (a unit) stopping in a tracked
/// place that holds no enemy unit Conquers it. Ruling: the engine sees where a Force stops, not
/// the hexes it passes through; a Town passed through is recorded with `game control`.
pub fn conquests(
    scenario: &Scenario,
    state: &GameState,
    moves: &[(String, super::scenario::Position)],
) -> Vec<VictoryFact> {
    let mut out = Vec::new();
    for place in tracked_places(scenario) {
        let movers: Vec<&super::state::CounterState> = moves
            .iter()
            .filter(|(_, to)| eval::same_place(to, &place.position))
            .filter_map(|(id, _)| state.counters.get(id))
            .filter(|c| c.kind == super::scenario::CounterKind::Unit)
            .collect();
        let Some(mover) = movers.first() else {
            continue;
        };
        let side = mover.side.clone();
        let enemy_there = state.counters.values().any(|c| {
            c.removed.is_none()
                && c.side != side
                && c.kind == super::scenario::CounterKind::Unit
                && eval::same_place(&c.position, &place.position)
        });
        let held = state.control.get(&place.name);
        if enemy_there || held.is_some_and(|h| h.side.as_deref() == Some(side.as_str())) {
            continue;
        }
        out.push(VictoryFact::Control {
            place: place.name.clone(),
            side: Some(side.clone()),
            conquered: true,
            reason: Some(format!(
                "a {} Force entered {} (14.2–14.3)",
                side_words(scenario, &side),
                eval::place_words(&place)
            )),
        });
    }
    out
}
