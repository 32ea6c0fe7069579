//! What a game started from: the ruleset, the scenario's text, and the app dice's seed — kept
//! secret behind its commitment until the umpire reveals it ([`GameMeta`]), and the part anyone
//! may see ([`PublicMeta`]), from which the journal's hash chain starts.

use serde::{Deserialize, Serialize};

use super::chain;

/// What a game started from, as the umpire's game file keeps it (the seed included).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameMeta {
    /// Ruleset id.
    pub ruleset: String,
    /// Scenario id.
    pub scenario: String,
    /// Where the scenario came from (`embedded:…` or a path).
    pub scenario_file: String,
    /// The scenario's YAML, as it was when the game began.
    pub scenario_text: String,
    /// Seed of the app dice: secret until revealed, unless chosen by the umpire. None in a copy
    /// imported without it (app dice are refused there).
    pub seed: Option<u64>,
    /// The salt of the seed's commitment (hex), kept with the seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// The commitment to the seed ([`chain::commitment`]), shown from the start.
    #[serde(default)]
    pub seed_commitment: String,
    /// The seed is not secret: chosen by the umpire (`--seed`, for tests and replays), or the
    /// game began under an Umpire that printed it.
    #[serde(default)]
    pub seed_public: bool,
    /// Umpire version that created the file.
    pub created_by: String,
}

/// What anyone may know of how a game started: everything but the secret seed and its salt.
/// The journal's hash chain starts from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublicMeta {
    /// Ruleset id.
    pub ruleset: String,
    /// Scenario id.
    pub scenario: String,
    /// Where the scenario came from.
    pub scenario_file: String,
    /// The scenario's YAML.
    pub scenario_text: String,
    /// The commitment to the app dice's seed.
    pub seed_commitment: String,
    /// The seed itself, when it is not secret (chosen by the umpire).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Umpire version that created the game.
    pub created_by: String,
}

impl GameMeta {
    /// A new game's description, with a fresh salt and the seed's commitment. `seed_public`
    /// when the umpire chose the seed.
    pub fn new(
        ruleset: String,
        scenario: String,
        scenario_file: String,
        scenario_text: String,
        seed: u64,
        seed_public: bool,
    ) -> GameMeta {
        let salt = chain::fresh_salt();
        GameMeta {
            ruleset,
            scenario,
            scenario_file,
            scenario_text,
            seed: Some(seed),
            seed_commitment: chain::commitment(seed, &salt),
            salt: Some(salt),
            seed_public,
            created_by: format!("umpire {}", env!("CARGO_PKG_VERSION")),
        }
    }

    /// Fills in the commitment of a description written before commitments existed: the seed
    /// was printed then, so it is marked public.
    pub fn upgrade_legacy(&mut self) {
        if self.seed_commitment.is_empty()
            && let Some(seed) = self.seed
        {
            let salt = chain::fresh_salt();
            self.seed_commitment = chain::commitment(seed, &salt);
            self.salt = Some(salt);
            self.seed_public = true;
        }
    }

    /// The part anyone may see.
    pub fn public(&self) -> PublicMeta {
        PublicMeta {
            ruleset: self.ruleset.clone(),
            scenario: self.scenario.clone(),
            scenario_file: self.scenario_file.clone(),
            scenario_text: self.scenario_text.clone(),
            seed_commitment: self.seed_commitment.clone(),
            seed: self.seed.filter(|_| self.seed_public),
            created_by: self.created_by.clone(),
        }
    }

    /// The hash the journal's chain starts from.
    pub fn genesis(&self) -> String {
        self.public().genesis()
    }

    /// Whether the seed and salt held here match the commitment (None when this copy has no
    /// seed).
    pub fn seed_matches_commitment(&self) -> Option<bool> {
        let seed = self.seed?;
        let salt = self.salt.as_deref().unwrap_or_default();
        Some(chain::commitment(seed, salt) == self.seed_commitment)
    }
}

impl PublicMeta {
    /// The hash the journal's chain starts from.
    pub fn genesis(&self) -> String {
        chain::genesis(&serde_json::to_string(self).unwrap_or_default())
    }
}
