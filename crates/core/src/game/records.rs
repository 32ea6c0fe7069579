//! Control's records of a megagame (the ruleset's `records:`): ranked charts of the teams
//! (rr3 "Prestige", "The Heavenly Status Chart"), registers (treaties, grievances, with
//! Control's ruling), the votes of the Diet (the Imperial Penny, the election of an emperor,
//! the Ban: the tally kept, the outcome by the text's threshold where it gives one) and the
//! banks' grants of access, one team a turn. Each is a journal fact ([`RecordFact`]) the state
//! folds ([`Records`]) and the papers print.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::VoteThreshold;

/// One record Control makes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordFact {
    /// A chart's new order: team ids, the highest first.
    Chart {
        /// The chart's id.
        chart: String,
        /// The teams, highest first.
        ranking: Vec<String>,
        /// Why it moved (the events that moved it).
        reason: String,
    },
    /// An entry in a register.
    Register {
        /// The register's id.
        register: String,
        /// The parties (team ids).
        parties: Vec<String>,
        /// The terms, in the players' words.
        terms: String,
        /// The last turn it runs to, if the parties set a limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        until: Option<u32>,
    },
    /// Control's ruling on a register's entry (a grievance valid or not).
    Ruling {
        /// The register's id.
        register: String,
        /// The entry that made the register's entry.
        entry: u64,
        /// The ruling.
        ruling: String,
    },
    /// A vote and its tally.
    Vote {
        /// The vote's id.
        vote: String,
        /// What was put to the vote.
        question: String,
        /// Each voter's vote ("for", "against", a candidate's name…).
        tally: BTreeMap<String, String>,
        /// The outcome: by the text's threshold where it gives one, else as Control records
        /// it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<String>,
    },
    /// A bank's access granted to a team for this turn.
    BankAccess {
        /// The bank's state id.
        bank: String,
        /// The team granted access.
        team: String,
    },
}

impl RecordFact {
    /// The kind's name (`chart`, `register`, `vote`, `bank`; a ruling is the register's).
    pub fn kind(&self) -> &'static str {
        match self {
            RecordFact::Chart { .. } => "chart",
            RecordFact::Register { .. } | RecordFact::Ruling { .. } => "register",
            RecordFact::Vote { .. } => "vote",
            RecordFact::BankAccess { .. } => "bank",
        }
    }

    /// The declared record it writes to (a chart, register or vote id; the banks' name for a
    /// bank).
    pub fn name(&self) -> &str {
        match self {
            RecordFact::Chart { chart, .. } => chart,
            RecordFact::Register { register, .. } | RecordFact::Ruling { register, .. } => register,
            RecordFact::Vote { vote, .. } => vote,
            RecordFact::BankAccess { bank, .. } => bank,
        }
    }
}

/// A chart as it stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartState {
    /// The teams, highest first.
    pub ranking: Vec<String>,
    /// The entry that set it, the turn, and why.
    pub entry: u64,
    /// Turn.
    pub turn: u32,
    /// Why.
    pub reason: String,
}

/// A register's entry as it stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RegisterEntry {
    /// The entry that made it.
    pub entry: u64,
    /// Register id.
    pub register: String,
    /// Parties.
    pub parties: Vec<String>,
    /// Terms.
    pub terms: String,
    /// The turn it was registered.
    pub turn: u32,
    /// Its time limit, if any.
    pub until: Option<u32>,
    /// Control's ruling, if any.
    pub ruling: Option<String>,
}

/// A vote as recorded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VoteRecord {
    /// The entry.
    pub entry: u64,
    /// Vote id.
    pub vote: String,
    /// The question.
    pub question: String,
    /// The tally.
    pub tally: BTreeMap<String, String>,
    /// The outcome.
    pub outcome: Option<String>,
    /// Turn.
    pub turn: u32,
}

/// Control's records as they stand.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Records {
    /// Each chart's latest order, by chart id.
    pub charts: BTreeMap<String, ChartState>,
    /// Register entries, in order.
    pub registers: Vec<RegisterEntry>,
    /// Votes, in order.
    pub votes: Vec<VoteRecord>,
    /// Banks' grants: (turn, bank, team, entry).
    pub bank_access: Vec<(u32, String, String, u64)>,
}

impl Records {
    /// Folds one record in.
    pub fn apply(&mut self, entry: u64, turn: u32, fact: &RecordFact) {
        match fact {
            RecordFact::Chart {
                chart,
                ranking,
                reason,
            } => {
                self.charts.insert(
                    chart.clone(),
                    ChartState {
                        ranking: ranking.clone(),
                        entry,
                        turn,
                        reason: reason.clone(),
                    },
                );
            }
            RecordFact::Register {
                register,
                parties,
                terms,
                until,
            } => self.registers.push(RegisterEntry {
                entry,
                register: register.clone(),
                parties: parties.clone(),
                terms: terms.clone(),
                turn,
                until: *until,
                ruling: None,
            }),
            RecordFact::Ruling {
                entry: of, ruling, ..
            } => {
                if let Some(r) = self.registers.iter_mut().find(|r| r.entry == *of) {
                    r.ruling = Some(ruling.clone());
                }
            }
            RecordFact::Vote {
                vote,
                question,
                tally,
                outcome,
            } => self.votes.push(VoteRecord {
                entry,
                vote: vote.clone(),
                question: question.clone(),
                tally: tally.clone(),
                outcome: outcome.clone(),
                turn,
            }),
            RecordFact::BankAccess { bank, team } => {
                self.bank_access
                    .push((turn, bank.clone(), team.clone(), entry))
            }
        }
    }

    /// The register entries a team is a party to.
    pub fn entries_of(&self, team: &str) -> Vec<&RegisterEntry> {
        self.registers
            .iter()
            .filter(|r| r.parties.iter().any(|p| p == team))
            .collect()
    }
}

/// The outcome of a tally by a threshold the text gives: "carried" when more voted for than
/// against among those present ("a majority of those present"), else "not carried"; None when
/// the text gives no threshold.
pub fn carried(threshold: VoteThreshold, tally: &BTreeMap<String, String>) -> Option<String> {
    match threshold {
        VoteThreshold::NotGiven => None,
        VoteThreshold::MajorityPresent => {
            let count = |w: &str| tally.values().filter(|v| v.trim() == w).count();
            let (yes, present) = (count("for"), tally.len());
            Some(if yes * 2 > present {
                format!("carried, {yes} of {present} present for")
            } else {
                format!("not carried, {yes} of {present} present for")
            })
        }
    }
}

/// A record's heading in the journal: the chart's, register's or vote's name.
pub fn title(ruleset: &crate::rules::Ruleset, fact: &RecordFact) -> String {
    let r = &ruleset.records;
    match fact {
        RecordFact::Chart { chart, .. } => r.chart(chart).map_or(chart.clone(), |c| c.name.clone()),
        RecordFact::Register { register, .. } => r
            .register(register)
            .map_or(register.clone(), |c| c.name.clone()),
        RecordFact::Ruling { register, .. } => format!(
            "Ruling ({})",
            r.register(register)
                .map_or(register.as_str(), |c| c.name.as_str())
        ),
        RecordFact::Vote { vote, .. } => r.vote(vote).map_or(vote.clone(), |c| c.name.clone()),
        RecordFact::BankAccess { .. } => r
            .banks
            .as_ref()
            .map_or("Bank access".to_string(), |b| b.name.clone()),
    }
}

/// A record in words, the teams by their names (`team`): "1. France, 2. England (the victory
/// at Pavia)"; "France and England: …, until turn 4"; a tally with its outcome, or "the text
/// gives no threshold".
pub fn words(
    ruleset: &crate::rules::Ruleset,
    scenario: &crate::game::scenario::Scenario,
    fact: &RecordFact,
    team: &dyn Fn(&str) -> String,
) -> String {
    let list = |ids: &[String]| {
        let names: Vec<String> = ids.iter().map(|t| team(t)).collect();
        match names.len() {
            0 => String::new(),
            1 => names[0].clone(),
            n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
        }
    };
    match fact {
        RecordFact::Chart {
            ranking, reason, ..
        } => {
            let order: Vec<String> = ranking
                .iter()
                .enumerate()
                .map(|(i, t)| format!("{}. {}", i + 1, team(t)))
                .collect();
            format!("{} ({reason})", order.join(", "))
        }
        RecordFact::Register {
            parties,
            terms,
            until,
            ..
        } => format!(
            "{}: {terms}{}",
            list(parties),
            until.map_or(String::new(), |u| format!(", until turn {u}"))
        ),
        RecordFact::Ruling { entry, ruling, .. } => format!("on entry {entry}: {ruling}"),
        RecordFact::Vote {
            vote,
            question,
            tally,
            outcome,
        } => {
            let mut by: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for (voter, choice) in tally {
                by.entry(choice.as_str()).or_default().push(voter.as_str());
            }
            let votes: Vec<String> = by
                .iter()
                .map(|(choice, who)| format!("{choice}: {} ({})", who.join(", "), who.len()))
                .collect();
            let threshold = ruleset.records.vote(vote).map(|v| v.threshold);
            let end = match (outcome, threshold) {
                (Some(o), Some(VoteThreshold::NotGiven)) => {
                    format!("{o} (the text gives no threshold: Control's record)")
                }
                (Some(o), _) => o.clone(),
                (None, _) => "the text gives no threshold: no outcome recorded".into(),
            };
            format!("{question} — {} — {end}", votes.join("; "))
        }
        RecordFact::BankAccess { bank, team: to } => {
            let state = scenario
                .megagame
                .iter()
                .flat_map(|m| &m.states)
                .find(|s| s.id == *bank)
                .map_or(bank.as_str(), |s| s.name.as_str());
            format!("{state}'s bank grants {} access this turn", team(to))
        }
    }
}

/// A team's name as the scenario prints it (its id when the scenario has no such side).
pub fn team_name(scenario: &crate::game::scenario::Scenario, id: &str) -> String {
    scenario
        .sides
        .iter()
        .find(|s| s.id == id)
        .map_or_else(|| id.to_string(), |s| s.name.clone())
}
