//! An effect of an outcome or of a table's result code, as written.

use super::*;

/// An effect of an outcome or of a table's result code, in order. `side` names the role whose
/// counter it falls on.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Effect")]
#[schemars(extend("allOf" = [
    {
        "description": "A `follow_up` effect needs `procedure`.",
        "if": {"properties": {"kind": {"const": "follow_up"}}, "required": ["kind"]},
        "then": {"required": ["procedure"]}
    },
    {
        "description": "A `status` effect needs `status`.",
        "if": {"properties": {"kind": {"const": "status"}}, "required": ["kind"]},
        "then": {"required": ["status"]}
    },
    {
        "description": "An `adjust` effect needs `attribute` and `amount` (the delta).",
        "if": {"properties": {"kind": {"const": "adjust"}}, "required": ["kind"]},
        "then": {"required": ["attribute", "amount"]}
    },
    {
        "description": "A `set` effect needs `attribute` and exactly one of `amount` (a number) and `value`.",
        "if": {"properties": {"kind": {"const": "set"}}, "required": ["kind"]},
        "then": {
            "required": ["attribute"],
            "oneOf": [{"required": ["amount"]}, {"required": ["value"]}]
        }
    },
    {
        "description": "`value` is for `set` effects only.",
        "if": {"required": ["value"]},
        "then": {"properties": {"kind": {"const": "set"}}}
    },
    {
        "description": "`attribute` is for `adjust` and `set` effects only.",
        "if": {"required": ["attribute"]},
        "then": {"properties": {"kind": {"enum": ["adjust", "set"]}}}
    }
]))]
pub struct RawEffect {
    /// What it does: `sp_loss`, `status`, `retreat`, `advance`, `follow_up`, `eliminate`,
    /// `note`, `value`, `move`, `adjust`, `set`.
    #[schemars(with = "crate::schema::fields::EffectKindName")]
    pub kind: String,
    /// It happens only when this holds (e.g. a survival roll only if the side took a hit).
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub when: Option<RawScalar>,
    /// The role whose counter it falls on (`attacker`, `defender`, `army`, `state`…).
    #[serde(default)]
    pub side: Option<String>,
    /// A number, as an expression: the SPs lost, the hexes retreated, an `adjust`'s delta
    /// (`-florins_paid`), a `value`'s number; a table's numbered code reads its number as `n`
    /// (`A{n}`), an outcome its value as `value`.
    #[serde(default)]
    #[schemars(with = "Option<Expression>")]
    pub amount: Option<RawScalar>,
    /// The status marker a `status` effect puts on (`disordered`).
    #[serde(default)]
    pub status: Option<String>,
    /// The procedure a `follow_up` effect queues (its id).
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub procedure: Option<String>,
    /// The counter attribute an `adjust` or `set` effect changes (`treasury`, `in_revolt`): a
    /// unit or leader attribute of the ruleset; `adjust` needs a whole-number one.
    #[serde(default)]
    #[schemars(with = "Option<Identifier>")]
    pub attribute: Option<String>,
    /// The value a `set` effect gives a flag or a name (`true`, `anti_french`); a number is
    /// given by `amount`.
    #[serde(default)]
    pub value: Option<RawScalar>,
    /// Words for the umpire (a `note`; what a `value` is).
    #[serde(default)]
    pub text: Option<String>,
    /// The rule reference, as the printed rules number it.
    #[serde(default)]
    pub rule: Option<String>,
    /// The lines of the text extraction it comes from (provenance).
    #[serde(default)]
    pub source: Option<String>,
}
