//! Control's records, as written: a megagame ruleset's `records:` — the ranked charts Control
//! keeps (Prestige, the Heavenly Status Chart), the registers (treaties, grievances), the votes
//! (the Diet's Imperial Penny, the Imperial election, the Ban) and the banks whose access is
//! granted a turn at a time.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::schema::fields::Identifier;

/// A ranked chart of the teams, updated by Control (rr3 "Prestige", "The Heavenly Status
/// Chart").
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "RecordChart")]
pub struct RawRecordChart {
    /// Id.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name as the handbook prints it.
    pub name: String,
    /// The Control roles that update it (Game Control always may).
    pub roles: Vec<String>,
    /// Whether it is shown to everyone (the gazette), not only to the teams on it.
    #[serde(default)]
    pub public: bool,
    /// What moves a team up or down, in the text's words.
    #[serde(default)]
    pub moves: Option<String>,
    /// Its rewards, in the text's words, and whether the text gives a number for them.
    #[serde(default)]
    pub rewards: Option<String>,
    /// Rule reference.
    pub rule: String,
    /// Lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// A register Control keeps (treaties, grievances): each entry's parties, terms, turn and
/// Control's ruling.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "RecordRegister")]
pub struct RawRecordRegister {
    /// Id.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name.
    pub name: String,
    /// The Control roles that keep it.
    pub roles: Vec<String>,
    /// The fewest parties an entry has.
    #[serde(default = "one")]
    pub min_parties: usize,
    /// What the text says of it.
    #[serde(default)]
    pub text: Option<String>,
    /// Rule reference.
    pub rule: String,
    /// Lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

fn one() -> usize {
    1
}

/// How a vote is carried, as the text gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "VoteThreshold")]
pub enum RawVoteThreshold {
    /// More for than against among those present ("a majority of those present").
    MajorityPresent,
    /// The text gives none: the tally is kept and Control records the outcome.
    NotGiven,
}

/// A vote Control records (the Diet's Imperial Penny, the election of an emperor, the Ban).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "RecordVote")]
pub struct RawRecordVote {
    /// Id.
    #[schemars(with = "Identifier")]
    pub id: String,
    /// Its name.
    pub name: String,
    /// The Control roles that record it.
    pub roles: Vec<String>,
    /// Who votes, in the text's words.
    pub voters: String,
    /// The procedure, in the text's words.
    pub procedure: String,
    /// How it is carried.
    pub threshold: RawVoteThreshold,
    /// Rule reference.
    pub rule: String,
    /// Lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// Banks whose access a state grants to one other team a turn (rr3 "Italian banks").
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "RecordBanks")]
pub struct RawRecordBanks {
    /// Their name ("Italian banks").
    pub name: String,
    /// The states that have a bank (megagame state ids).
    #[schemars(with = "Vec<Identifier>")]
    pub states: Vec<String>,
    /// How many other teams each bank may grant access to in a turn.
    pub per_turn: u32,
    /// The Control roles that record a grant.
    pub roles: Vec<String>,
    /// What the text says.
    #[serde(default)]
    pub text: Option<String>,
    /// Rule reference.
    pub rule: String,
    /// Lines of the text extraction (provenance).
    #[serde(default)]
    pub source: Option<String>,
}

/// Control's records.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Records")]
pub struct RawRecords {
    /// Ranked charts.
    #[serde(default)]
    pub charts: Vec<RawRecordChart>,
    /// Registers.
    #[serde(default)]
    pub registers: Vec<RawRecordRegister>,
    /// Votes.
    #[serde(default)]
    pub votes: Vec<RawRecordVote>,
    /// Banks.
    #[serde(default)]
    pub banks: Option<RawRecordBanks>,
}
