//! The schemas written by hand, for values the serde types read more loosely than the loader
//! accepts them in the end, or that deserve their own words: an expression, an effect's kind, an
//! id, a hex id, a month, a turn. The raw types name them in `#[schemars(with = …)]`; they import
//! nothing of the files' types, so the raw types and the generator ([`super`]) depend on them
//! and not on each other.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::Value;

use crate::rules::EffectKind;

/// An expression: a whole number, `true`/`false`, or a formula written as text.
pub(crate) struct Expression;

impl JsonSchema for Expression {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Expression".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An expression: a whole number (`-1`), `true`/`false`, or a formula as text over the names in scope (the procedure's inputs, derived values, `ruling_<id>` for each ruling, and in a lookup `natural`, `roll`, `die_1`…), read by the evalexpr crate: `+ - * / %`, `== != < <= > >=`, `&& || !`, `if(c, a, b)`, `min`, `max`, `floor`, `ceil`; text in double quotes (`battle == \"skirmish\"`). A float (`1.5`) or a list is refused.",
            "anyOf": [
                {"type": "integer"},
                {"type": "boolean"},
                {"type": "string"}
            ]
        })
    }
}

/// An effect's kind: the ids of [`EffectKind`], each with what it does.
pub(crate) struct EffectKindName;

impl JsonSchema for EffectKindName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "EffectKind".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let kinds: Vec<Value> = EffectKind::ALL
            .iter()
            .map(|k| {
                let meaning = match k {
                    EffectKind::Adjust => {
                        "A whole-number attribute changed by `amount` (a ledger's treasury, an army's Arrears): a delta that commutes with other umpires'."
                    }
                    EffectKind::Set => {
                        "An attribute set to `value` (a flag or a name), or to `amount` (a number)."
                    }
                    EffectKind::SpLoss => {
                        "Strength Points lost by `side` (`amount`), taken from the ruleset's `strength_attribute`."
                    }
                    EffectKind::Status => "A status marker put on (`status`).",
                    EffectKind::Retreat => "A retreat (`amount` hexes or areas, when given).",
                    EffectKind::Advance => "An advance.",
                    EffectKind::FollowUp => "Another procedure to resolve, queued (`procedure`).",
                    EffectKind::Eliminate => "A counter eliminated.",
                    EffectKind::Note => "Words for the umpire (`text`).",
                    EffectKind::Value => "A number the result carries (`amount`), said with `text`.",
                    EffectKind::Move => "A counter placed or moved as the text says.",
                    EffectKind::VictoryPoints => {
                        "Victory Points (`amount`) gained by `side`, a side of the scenario; the victory conditions count them."
                    }
                    EffectKind::Control => {
                        "A place (`value`, its name as the map names it) now held by `side`; Conquered when `status` is `conquered` (the victory conditions read it)."
                    }
                    EffectKind::Arrival => {
                        "A conditional reinforcement (`value`, its id in the scenario) brought by this result: it becomes due at the deployment step."
                    }
                };
                json_schema!({"const": k.id(), "description": meaning}).to_value()
            })
            .collect();
        json_schema!({
            "description": "What an effect does.",
            "type": "string",
            "oneOf": kinds
        })
    }
}

/// An id the validator holds to lower case letters, digits and `_`, starting with a letter.
pub(crate) struct Identifier;

impl JsonSchema for Identifier {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Identifier".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An id: lower case letters, digits and `_`, starting with a letter (`discipline_test`). Expressions, the command line and the journal name things by it.",
            "type": "string",
            "pattern": "^[a-z][a-z0-9_]*$"
        })
    }
}

/// A hex id in a scenario's position: always quoted text.
pub(crate) struct HexId;

impl JsonSchema for HexId {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HexId".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A hex id as the map prints it, always in quotes so that it keeps its leading zeros: `\"0114\"` (a bare `0114` or `114` is refused); as many digits as the ruleset's `geometry.hex_id_digits`.",
            "type": "string",
            "minLength": 1
        })
    }
}

/// A month of a generated calendar: its name in English.
pub(crate) struct MonthName;

impl JsonSchema for MonthName {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Month".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A month's name in English, capitalised (`April`).",
            "type": "string",
            "enum": [
                "January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"
            ]
        })
    }
}

/// A turn of a scenario: a number, a calendar label, or `at_start`.
pub(crate) struct TurnRef;

impl JsonSchema for TurnRef {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Turn".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A turn of the scenario: its number from 1 (`3`), a label of the calendar (`\"May, 1\"`; the year may be left out: `\"January, 1\"` finds `\"January, 1 (1525)\"`), or `at_start` (turn 1).",
            "anyOf": [
                {"type": "integer", "minimum": 1},
                {"type": "string", "minLength": 1}
            ]
        })
    }
}
