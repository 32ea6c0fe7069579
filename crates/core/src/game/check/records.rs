//! Control's records ([`crate::game::records`]): a chart, register or vote the ruleset
//! declares, teams of the scenario, and the text's own limits (a bank grants one non-Italian
//! team a turn; a vote is carried by the text's threshold where it gives one).

use std::collections::BTreeSet;

use super::{Checked, View};
use crate::game::records::{RecordFact, carried};
use crate::game::{EventKind, Refusal};

fn refuse(text: String) -> Checked {
    Err(Refusal::Record(text))
}

/// Each a team of the scenario, none twice.
fn teams(view: &View, list: &[String], what: &str) -> Result<(), Refusal> {
    let mut seen = BTreeSet::new();
    for t in list {
        if !view.scenario.sides.iter().any(|s| s.id == *t) {
            let names: Vec<&str> = view
                .scenario
                .sides
                .iter()
                .map(|s| s.name.as_str())
                .collect();
            return Err(Refusal::Record(format!(
                "{what}: '{t}' is not a team of this game — teams: {}",
                names.join(", ")
            )));
        }
        if !seen.insert(t) {
            return Err(Refusal::Record(format!("{what}: '{t}' is named twice")));
        }
    }
    Ok(())
}

/// Checks a record and gives its event (a vote's outcome by the text's threshold, a ruling's
/// register from its entry).
pub(super) fn check_record(view: &View, fact: &RecordFact) -> Checked {
    let declared = &view.ruleset.records;
    let ok = |fact: RecordFact| Ok(vec![EventKind::Record { fact }]);
    match fact {
        RecordFact::Chart {
            chart,
            ranking,
            reason,
        } => {
            let Some(spec) = declared.chart(chart) else {
                return refuse(format!("{} keeps no chart '{chart}'", view.ruleset.name));
            };
            if ranking.is_empty() || reason.trim().is_empty() {
                return refuse(format!(
                    "{}: give the teams in order, highest first, and what moved them ({})",
                    spec.name, spec.rule
                ));
            }
            teams(view, ranking, &spec.name)?;
            ok(RecordFact::Chart {
                chart: spec.id.clone(),
                ranking: ranking.clone(),
                reason: reason.trim().to_string(),
            })
        }
        RecordFact::Register {
            register,
            parties,
            terms,
            until,
        } => {
            let Some(spec) = declared.register(register) else {
                return refuse(format!(
                    "{} keeps no register '{register}'",
                    view.ruleset.name
                ));
            };
            if parties.len() < spec.min_parties || terms.trim().is_empty() {
                return refuse(format!(
                    "{}: give at least {} part{} and the terms ({})",
                    spec.name,
                    spec.min_parties,
                    if spec.min_parties == 1 { "y" } else { "ies" },
                    spec.rule
                ));
            }
            teams(view, parties, &spec.name)?;
            if until.is_some_and(|u| u < view.state.cursor.turn) {
                return refuse(format!(
                    "{}: its time limit, turn {}, has passed (this is turn {})",
                    spec.name,
                    until.unwrap_or_default(),
                    view.state.cursor.turn
                ));
            }
            ok(RecordFact::Register {
                register: spec.id.clone(),
                parties: parties.clone(),
                terms: terms.trim().to_string(),
                until: *until,
            })
        }
        RecordFact::Ruling { entry, ruling, .. } => {
            let Some(found) = view
                .state
                .records
                .registers
                .iter()
                .find(|r| r.entry == *entry)
            else {
                return refuse(format!("entry {entry} made no register entry"));
            };
            if ruling.trim().is_empty() {
                return refuse("a ruling needs its words".into());
            }
            ok(RecordFact::Ruling {
                register: found.register.clone(),
                entry: *entry,
                ruling: ruling.trim().to_string(),
            })
        }
        RecordFact::Vote {
            vote,
            question,
            tally,
            outcome,
        } => {
            let Some(spec) = declared.vote(vote) else {
                return refuse(format!("{} records no vote '{vote}'", view.ruleset.name));
            };
            if tally.is_empty() || question.trim().is_empty() {
                return refuse(format!(
                    "{}: give the question and each vote ({}; {})",
                    spec.name, spec.voters, spec.rule
                ));
            }
            let outcome = carried(spec.threshold, tally).or_else(|| {
                outcome
                    .as_deref()
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
            });
            ok(RecordFact::Vote {
                vote: spec.id.clone(),
                question: question.trim().to_string(),
                tally: tally.clone(),
                outcome,
            })
        }
        RecordFact::BankAccess { bank, team } => check_bank(view, bank, team),
    }
}

/// A bank's access: a bank state, a non-Italian team, at most `per_turn` grants a turn.
fn check_bank(view: &View, bank: &str, team: &str) -> Checked {
    let Some(banks) = &view.ruleset.records.banks else {
        return refuse(format!("{} has no banks", view.ruleset.name));
    };
    let states = view
        .scenario
        .megagame
        .as_ref()
        .map(|m| m.states.as_slice())
        .unwrap_or_default();
    let Some(state) = states
        .iter()
        .find(|s| (s.id == bank || s.name == bank) && banks.states.contains(&s.id))
    else {
        return refuse(format!(
            "{bank} has no bank: the {} are {} ({})",
            banks.name,
            banks.states.join(", "),
            banks.rule
        ));
    };
    teams(view, &[team.to_string()], &banks.name)?;
    let italian = states
        .iter()
        .filter(|s| banks.states.contains(&s.id))
        .any(|s| s.teams.iter().any(|t| t == team));
    if italian {
        return refuse(format!(
            "{}'s bank grants access to a non-Italian team only ({})",
            state.name, banks.rule
        ));
    }
    let turn = view.state.cursor.turn;
    let granted: Vec<&str> = view
        .state
        .records
        .bank_access
        .iter()
        .filter(|(t, b, _, _)| *t == turn && *b == state.id)
        .map(|(_, _, to, _)| to.as_str())
        .collect();
    if granted.len() >= banks.per_turn as usize {
        return refuse(format!(
            "{}'s bank has granted access this turn already (to {}): one other team per turn ({})",
            state.name,
            granted.join(", "),
            banks.rule
        ));
    }
    Ok(vec![EventKind::Record {
        fact: RecordFact::BankAccess {
            bank: state.id.clone(),
            team: team.to_string(),
        },
    }])
}
