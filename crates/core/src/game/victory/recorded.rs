//! The facts of victory the umpire records, held to the journal: a battle won or drawn (only
//! in the branch that fights it, its winner read off the resolution the branch names), a
//! place's kind, and a City's VP die (once, for a City its side owns).

use crate::game::scenario::{Condition, Scenario};
use crate::game::state::GameState;
use crate::game::steps::{LeafStep, Pending};
use crate::game::words::side_words;
use crate::rules::Ruleset;

use super::eval::{self, Eval, Truth};

/// A kind of battle in words: the branch's name that fights it ("Major Battle"), else its
/// words.
pub fn battle_name(ruleset: &Ruleset, kind: &str) -> String {
    crate::game::steps::leaf_steps(ruleset)
        .iter()
        .find_map(|s| s.battle.as_ref().filter(|b| b.kind == kind))
        .map_or_else(
            || {
                crate::rules::model::choice_words(kind)
                    .split(' ')
                    .map(crate::game::words::capitalised)
                    .collect::<Vec<_>>()
                    .join(" ")
            },
            |b| b.name.clone(),
        )
}

/// A place's kind in words ("Town", "Fortified City").
pub fn place_kind_words(kind: crate::rules::PlaceKind) -> &'static str {
    use crate::rules::PlaceKind as K;
    match kind {
        K::City => "City",
        K::FortifiedCity => "Fortified City",
        K::Fortress => "Fortress",
        K::FortifiedTown => "Fortified Town",
        K::Town => "Town",
        K::Castle => "Castle",
        K::Village => "Village",
        K::Bridge => "Bridge",
        K::Port => "Port",
        K::Pass => "Pass",
        K::Difficult => "Difficult terrain",
        K::Other => "place",
    }
}

/// The battle being fought at the cursor: its branch's battle, the entry that entered the
/// branch, the result recorded since (if any) and the winner its resolutions show.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleHere {
    /// The battle (kind, name, where its winner shows).
    pub battle: crate::rules::BattleBranch,
    /// The entry that entered its branch.
    pub entered: u64,
    /// The result recorded since: (entry, winner — None for a draw).
    pub result: Option<(u64, Option<String>)>,
    /// The winner its resolutions show: (side, the resolution's entry).
    pub winner: Option<(String, u64)>,
}

/// The battle being fought at the cursor (the step is in a branch that fights one), else None.
pub fn battle_here(steps: &[LeafStep], state: &GameState) -> Option<BattleHere> {
    battle_at(steps, state, &state.cursor)
}

/// The battle being fought at `at`, a step of the branch the game is in this turn.
fn battle_at(
    steps: &[LeafStep],
    state: &GameState,
    at: &crate::game::event::Cursor,
) -> Option<BattleHere> {
    let here = steps.get(at.step)?;
    if at.turn != state.cursor.turn
        || steps.get(state.cursor.step).map(|s| &s.branch) != Some(&here.branch)
    {
        return None;
    }
    let battle = here.battle.clone()?;
    let branch = here.branch.as_ref()?;
    let in_branch = |c: &crate::game::event::Cursor| {
        steps
            .get(c.step)
            .is_some_and(|s| s.branch.as_ref() == Some(branch))
    };
    // The last move into the branch from outside it (this turn).
    let entered = state
        .stepped
        .iter()
        .rev()
        .find(|(_, from, to)| {
            to.turn == state.cursor.turn
                && in_branch(to)
                && (!in_branch(from) || from.turn != to.turn)
        })
        .map(|(seq, _, _)| *seq)?;
    let result = state
        .battles
        .iter()
        .rev()
        .find(|(seq, _, _)| *seq > entered)
        .map(|(seq, side, _)| (*seq, side.clone()));
    let winner = battle.winner.as_ref().and_then(|(procedure, role)| {
        state
            .resolved
            .iter()
            .rev()
            .filter(|(_, p, seq)| p == procedure && *seq > entered)
            .find_map(|(_, _, seq)| {
                let ids = state.involved.get(seq)?.get(role)?;
                let side = ids
                    .iter()
                    .find_map(|id| state.counters.get(id))
                    .map(|c| c.side.clone())?;
                Some((side, *seq))
            })
    });
    Some(BattleHere {
        battle,
        entered,
        result,
        winner,
    })
}

/// The item a battle's result step (`at`) holds until its result is recorded: who won, or a
/// draw.
pub fn battle_item(
    scenario: &Scenario,
    steps: &[LeafStep],
    state: &GameState,
    at: &crate::game::event::Cursor,
) -> Option<Pending> {
    let step = steps.get(at.step)?;
    if !step.battle_result {
        return None;
    }
    let b = battle_at(steps, state, at)?;
    let label = match (&b.result, &b.winner) {
        (Some((seq, Some(side))), _) => format!(
            "The {}'s result: won by the {} (entry {seq})",
            b.battle.name,
            side_words(scenario, side)
        ),
        (Some((seq, None)), _) => format!("The {}'s result: a draw (entry {seq})", b.battle.name),
        (None, Some((side, seq))) => format!(
            "Record the {}'s result: won by the {} (their {} in entry {seq})",
            b.battle.name,
            side_words(scenario, side),
            b.battle
                .winner
                .as_ref()
                .map_or("roll", |(p, _)| p.as_str())
                .replace('_', " ")
        ),
        (None, None) => format!("Record the {}'s result: who won, or a draw", b.battle.name),
    };
    let key = format!("battle:{}", b.entered);
    let skipped = state.skipped.iter().any(|(_, k, _)| *k == key);
    Some(Pending {
        done: b.result.is_some() || skipped,
        key,
        label,
        procedure: None,
        // Required where the scenario's victory reads battles of this kind; offered elsewhere.
        mandatory: reads_battle(scenario, &b.battle.kind),
        credit: None,
        enter: None,
        whose: None,
    })
}

/// Whether the scenario's victory conditions read battles of this kind won.
pub fn reads_battle(scenario: &Scenario, kind: &str) -> bool {
    fn reads(c: &Condition, kind: &str) -> bool {
        match c {
            Condition::BattleWon { battle, .. } => battle == kind,
            Condition::All(all) | Condition::Any(all) => all.iter().any(|c| reads(c, kind)),
            Condition::Not(c) => reads(c, kind),
            _ => false,
        }
    }
    scenario.victory.iter().any(|v| {
        v.check
            .as_ref()
            .and_then(|c| c.condition.as_ref())
            .is_some_and(|c| reads(c, kind))
    })
}

/// Why a roll of a City's Victory Points (Scenario 4: "for each owned and not besieged City,
/// a die is rolled") may not be made: the City not owned by the side it is rolled for, besieged,
/// not a City, or rolled already. None when it may, or the procedure is no such roll.
pub fn city_roll_refusal(
    scenario: &Scenario,
    state: &GameState,
    procedure: &str,
    inputs: &std::collections::BTreeMap<String, crate::rules::Value>,
    rolled: &[(u64, String)],
) -> Option<String> {
    fn find<'c>(
        c: &'c Condition,
        procedure: &str,
    ) -> Option<&'c [crate::game::scenario::PlaceRef]> {
        match c {
            Condition::MostVictoryPoints {
                places,
                city_procedure: Some(p),
                ..
            } if p == procedure => Some(places),
            Condition::All(all) | Condition::Any(all) => {
                all.iter().find_map(|c| find(c, procedure))
            }
            Condition::Not(c) => find(c, procedure),
            _ => None,
        }
    }
    let places = scenario
        .victory
        .iter()
        .filter_map(|v| v.check.as_ref()?.condition.as_ref())
        .find_map(|c| find(c, procedure))?;
    let text = |name: &str| match inputs.get(name) {
        Some(crate::rules::Value::Text(t)) => Some(t.clone()),
        _ => None,
    };
    let (city, side) = (text("city")?, text("side")?);
    let key = |n: &str| n.to_lowercase().replace([' ', '\''], "_");
    let place = places
        .iter()
        .find(|p| key(&p.name) == key(&city) || p.name.eq_ignore_ascii_case(&city))?;
    let ev = Eval {
        scenario,
        state,
        other_wins: Truth::Unknown,
        scenario_end: true,
        item: None,
    };
    let words = eval::place_words(place);
    let who = side_words(scenario, &side);
    let owner = state
        .control
        .get(&place.name)
        .and_then(|c| c.side.as_deref())
        .map(|s| ev.side_of(s).to_string());
    match owner {
        Some(o) if o == ev.side_of(&side) => {}
        Some(o) => {
            return Some(format!(
                "{words} is owned by the {}, not the {who}: its die is the owner's",
                side_words(scenario, &o)
            ));
        }
        None => {
            return Some(format!(
                "who owns {words} is not recorded (14.1): record it with `game control` first"
            ));
        }
    }
    if ev.besieged(place) {
        return Some(format!("{words} is Besieged: it gives no Victory Points"));
    }
    match eval::is_city(ev.kind_of(place)) {
        Some(true) => {}
        Some(false) => return Some(format!("{words} is a Town: 1 VP, no die")),
        None => {
            return Some(format!(
                "the text does not say whether {words} is a Town or a City: record what it is with `game place-kind` first"
            ));
        }
    }
    if let Some((seq, _)) = rolled
        .iter()
        .find(|(_, c)| key(c) == key(&place.name) || key(c) == key(&city))
    {
        return Some(format!(
            "{words}'s die was rolled in entry {seq}: one die per City"
        ));
    }
    None
}
