//! Control's records, validated ([`crate::rules::raw::RawRecords`]).

use serde::Serialize;

/// A ranked chart of the teams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordChart {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Roles that update it.
    pub roles: Vec<String>,
    /// Shown to everyone.
    pub public: bool,
    /// What moves a team.
    pub moves: Option<String>,
    /// Its rewards, in the text's words.
    pub rewards: Option<String>,
    /// Rule.
    pub rule: String,
    /// Lines of the text extraction (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// A register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordRegister {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Roles that keep it.
    pub roles: Vec<String>,
    /// The fewest parties.
    pub min_parties: usize,
    /// What the text says.
    pub text: Option<String>,
    /// Rule.
    pub rule: String,
    /// Lines of the text extraction (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// How a vote is carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VoteThreshold {
    /// More for than against among those present.
    MajorityPresent,
    /// The text gives none.
    NotGiven,
}

/// A vote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordVote {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Roles that record it.
    pub roles: Vec<String>,
    /// Who votes.
    pub voters: String,
    /// The procedure.
    pub procedure: String,
    /// How it is carried.
    pub threshold: VoteThreshold,
    /// Rule.
    pub rule: String,
    /// Lines of the text extraction (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// Banks granted a turn at a time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordBanks {
    /// Name.
    pub name: String,
    /// States with a bank.
    pub states: Vec<String>,
    /// Grants a bank makes a turn.
    pub per_turn: u32,
    /// Roles that record a grant.
    pub roles: Vec<String>,
    /// What the text says.
    pub text: Option<String>,
    /// Rule.
    pub rule: String,
    /// Lines of the text extraction (provenance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}

/// Control's records.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Records {
    /// Charts.
    pub charts: Vec<RecordChart>,
    /// Registers.
    pub registers: Vec<RecordRegister>,
    /// Votes.
    pub votes: Vec<RecordVote>,
    /// Banks.
    pub banks: Option<RecordBanks>,
}

impl Records {
    /// A chart by id.
    pub fn chart(&self, id: &str) -> Option<&RecordChart> {
        self.charts.iter().find(|c| c.id == id || c.name == id)
    }

    /// A register by id.
    pub fn register(&self, id: &str) -> Option<&RecordRegister> {
        self.registers.iter().find(|r| r.id == id || r.name == id)
    }

    /// A vote by id.
    pub fn vote(&self, id: &str) -> Option<&RecordVote> {
        self.votes.iter().find(|v| v.id == id || v.name == id)
    }

    /// The roles (besides Game Control) that may write a record of `kind` (`chart`,
    /// `register`, `vote`, `bank`) named `name`: what the desks' gate and the server check.
    pub fn roles(&self, kind: &str, name: &str) -> Vec<String> {
        match kind {
            "chart" => self.chart(name).map(|c| c.roles.clone()),
            "register" => self.register(name).map(|r| r.roles.clone()),
            "vote" => self.vote(name).map(|v| v.roles.clone()),
            "bank" => self.banks.as_ref().map(|b| b.roles.clone()),
            _ => None,
        }
        .unwrap_or_default()
    }
}
