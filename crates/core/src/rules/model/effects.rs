//! What an outcome does: the kinds of effect, and an effect as the ruleset gives it.

use super::*;

/// The kinds of effect an outcome can have. Written in the YAML and kept in the journal as
/// its snake_case id (`sp_loss`), so the journal's JSON is the same as when the kind was a
/// string; in the code a kind is a variant, and every `match` on it names them all, so a new
/// kind that some code forgets is a compile error rather than a silently ignored case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectKind {
    /// A whole-number attribute changed by `amount` (a ledger's treasury, an army's Arrears).
    Adjust,
    /// An attribute set to `value`, or to `amount`.
    Set,
    /// Strength Points lost by a side (`amount`).
    SpLoss,
    /// A status marker put on (`status`).
    Status,
    /// A retreat (`amount` hexes or areas, when given).
    Retreat,
    /// An advance.
    Advance,
    /// Another procedure to resolve (`procedure`).
    FollowUp,
    /// A counter eliminated.
    Eliminate,
    /// Words for the umpire (`text`).
    Note,
    /// A number the result carries (`amount`), said with `text`.
    Value,
    /// A counter placed or moved as the text says.
    Move,
    /// Victory Points (`amount`) gained by `side` (a scenario side id).
    VictoryPoints,
    /// A place (`value`, its name) now held by `side`; Conquered when `status` is `conquered`
    /// (ailsh 14.1–14.3).
    Control,
    /// A conditional reinforcement (`value`, its id in the scenario) brought by the result:
    /// it is due at the deployment step.
    Arrival,
}

impl EffectKind {
    /// Every kind, in the order the YAML reference lists them.
    pub const ALL: [EffectKind; 14] = [
        EffectKind::Adjust,
        EffectKind::Set,
        EffectKind::SpLoss,
        EffectKind::Status,
        EffectKind::Retreat,
        EffectKind::Advance,
        EffectKind::FollowUp,
        EffectKind::Eliminate,
        EffectKind::Note,
        EffectKind::Value,
        EffectKind::Move,
        EffectKind::VictoryPoints,
        EffectKind::Control,
        EffectKind::Arrival,
    ];

    /// The id the YAML and the journal write (`sp_loss`).
    pub fn id(self) -> &'static str {
        match self {
            EffectKind::Adjust => "adjust",
            EffectKind::Set => "set",
            EffectKind::SpLoss => "sp_loss",
            EffectKind::Status => "status",
            EffectKind::Retreat => "retreat",
            EffectKind::Advance => "advance",
            EffectKind::FollowUp => "follow_up",
            EffectKind::Eliminate => "eliminate",
            EffectKind::Note => "note",
            EffectKind::Value => "value",
            EffectKind::Move => "move",
            EffectKind::VictoryPoints => "victory_points",
            EffectKind::Control => "control",
            EffectKind::Arrival => "arrival",
        }
    }

    /// The kind of that id.
    pub fn from_id(id: &str) -> Option<EffectKind> {
        EffectKind::ALL.into_iter().find(|k| k.id() == id)
    }
}

impl std::fmt::Display for EffectKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// What an outcome does.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EffectSpec {
    /// The kind.
    pub kind: EffectKind,
    /// Only when this holds (e.g. a survival roll only if the side took a hit).
    #[serde(skip)]
    pub when: Option<Expr>,
    /// Which side it falls on (attacker, defender, …).
    pub side: Option<String>,
    /// An amount, as an expression.
    #[serde(skip)]
    pub amount: Option<Expr>,
    /// The amount expression as written.
    pub amount_source: Option<String>,
    /// A status to set.
    pub status: Option<String>,
    /// A procedure to queue.
    pub procedure: Option<String>,
    /// The counter attribute an `adjust` or `set` effect changes (a ledger's `treasury`, an
    /// army's `arrears`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute: Option<String>,
    /// The value a `set` effect gives the attribute, when it is not a number computed by
    /// `amount` (a flag or a name: `in_revolt: true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Free text.
    pub text: Option<String>,
    /// Rule reference.
    pub rule: Option<String>,
    /// Where the text extraction has it (line numbers of the seed): provenance for the source
    /// details and the JSON, never the reference shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
}
