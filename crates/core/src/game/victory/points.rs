//! Victory Points totals: what the journal gave each side (cards, booty, end-of-game dice),
//! the places owned at the end (ailsh Scenario 4: a Town 1 VP, a City a die) and the places
//! occupied at the end (Gradisca Rule 13's occupation table).

use std::collections::BTreeMap;

use super::eval::{Eval, Truth, is_city, place_words};
use crate::game::scenario::Condition;

/// Each side's total, with how it was reached and what is still missing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    /// Side id → VP.
    pub points: BTreeMap<String, i64>,
    /// How, one line each.
    pub lines: Vec<String>,
    /// What the totals do not count yet (a City's die not rolled, a place's kind not given).
    pub missing: Vec<String>,
}

/// The VP totals of every side under a `most_victory_points` condition.
pub(super) fn totals(ev: &Eval, cond: &Condition) -> Totals {
    let mut t = Totals::default();
    for s in &ev.scenario.sides {
        t.points.insert(s.id.clone(), 0);
    }
    for (_, side, vp, why) in &ev.state.victory_points {
        *t.points.entry(ev.side_of(side).to_string()).or_default() += vp;
        t.lines.push(format!(
            "{} {vp:+} VP: {}",
            crate::game::words::side_words(ev.scenario, side),
            why
        ));
    }
    let Condition::MostVictoryPoints {
        places,
        city_procedure,
        occupation,
    } = cond
    else {
        return t;
    };
    let mut cities_owned = 0usize;
    for p in places {
        let Some(owner) = ev
            .state
            .control
            .get(&p.name)
            .and_then(|c| c.side.as_deref())
            .map(|s| ev.side_of(s).to_string())
        else {
            t.missing.push(format!(
                "who owns {} is not recorded (14.1)",
                place_words(p)
            ));
            continue;
        };
        if ev.besieged(p) {
            t.lines
                .push(format!("{} is Besieged: no VP", place_words(p)));
            continue;
        }
        match is_city(p) {
            Some(false) => {
                *t.points.entry(owner.clone()).or_default() += 1;
                t.lines.push(format!(
                    "{} owns the Town of {}: 1 VP",
                    crate::game::words::side_words(ev.scenario, &owner),
                    place_words(p)
                ));
            }
            Some(true) => cities_owned += 1,
            None => t.missing.push(format!(
                "the text does not say whether {} is a Town (1 VP) or a City (a die)",
                place_words(p)
            )),
        }
    }
    if let Some(proc_id) = city_procedure {
        let rolled = ev
            .state
            .resolved
            .iter()
            .filter(|(_, p, seq)| p == proc_id && ev.state.effective.contains(seq))
            .count();
        if rolled < cities_owned {
            t.missing.push(format!(
                "{} of {cities_owned} owned Cities' VP dice not rolled yet",
                cities_owned - rolled
            ));
        }
    }
    for (p, side, vp) in occupation {
        if ev.occupied_by(p, side) {
            *t.points.entry(ev.side_of(side).to_string()).or_default() += vp;
            t.lines.push(format!(
                "{} occupy {}: {vp} VP",
                crate::game::words::side_words(ev.scenario, side),
                place_words(p)
            ));
        }
    }
    t
}

/// Whether `side` has more VP than every other side.
pub(super) fn most(ev: &Eval, cond: &Condition, side: &str) -> (Truth, Vec<String>) {
    let t = totals(ev, cond);
    let mine = t.points.get(side).copied().unwrap_or(0);
    let best_other = t
        .points
        .iter()
        .filter(|(s, _)| s.as_str() != side)
        .map(|(_, v)| *v)
        .max()
        .unwrap_or(0);
    let summary = t
        .points
        .iter()
        .map(|(s, v)| format!("{} {v} VP", crate::game::words::side_words(ev.scenario, s)))
        .collect::<Vec<_>>()
        .join(", ");
    let mut reasons = vec![format!("Victory Points: {summary}")];
    reasons.extend(t.missing.iter().cloned());
    let truth = if !t.missing.is_empty() {
        Truth::Unknown
    } else if mine > best_other {
        Truth::Yes
    } else {
        Truth::No
    };
    (truth, reasons)
}
