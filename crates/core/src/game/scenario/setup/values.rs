//! A cell read as a value of the attribute its column names, as a scenario file writes it.

use yaml_serde::Value as Yaml;

use crate::rules::{AttributeKind, AttributeSpec};

/// A name as the sheets may write it: any case, spaces and dashes as `_`.
pub(crate) fn key_of(s: &str) -> String {
    s.trim().to_lowercase().replace([' ', '-'], "_")
}

/// A yes/no cell.
pub(crate) fn flag(text: &str) -> Result<bool, String> {
    match text.trim().to_lowercase().as_str() {
        "yes" | "y" | "true" | "1" | "x" => Ok(true),
        "no" | "n" | "false" | "0" | "-" => Ok(false),
        _ => Err(format!("'{text}' is not yes or no")),
    }
}

/// The choice a cell names (its id, or its id written with spaces), from `choices`.
fn choice<'c>(choices: &'c [String], text: &str) -> Option<&'c String> {
    choices.iter().find(|c| key_of(c) == key_of(text))
}

/// A cell as the value of `spec`, or what is wrong with it.
pub(crate) fn cell_value(spec: &AttributeSpec, text: &str) -> Result<Yaml, String> {
    match &spec.kind {
        AttributeKind::Int { min, max } => {
            let n: i64 = text.trim().parse().map_err(|_| {
                format!(
                    "'{text}' is not a whole number ({} is counted in whole numbers)",
                    spec.label
                )
            })?;
            if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
                return Err(format!(
                    "{n} is out of range for {}: {}",
                    spec.label,
                    range_words(*min, *max)
                ));
            }
            Ok(Yaml::Number(n.into()))
        }
        AttributeKind::Flag => flag(text).map(Yaml::Bool),
        AttributeKind::Choice { choices } => choice(choices, text)
            .map(|c| Yaml::String(c.clone()))
            .ok_or_else(|| format!("'{text}' is not one of {}", choices.join(", "))),
        AttributeKind::Choices { choices } => {
            let mut out = Vec::new();
            for part in text
                .split([',', '|'])
                .map(str::trim)
                .filter(|p| !p.is_empty())
            {
                let c = choice(choices, part)
                    .ok_or_else(|| format!("'{part}' is not one of {}", choices.join(", ")))?;
                out.push(Yaml::String(c.clone()));
            }
            Ok(Yaml::Sequence(out))
        }
        AttributeKind::Text => Ok(Yaml::String(text.trim().to_string())),
    }
}

fn range_words(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("{a} to {b}"),
        (Some(a), None) => format!("at least {a}"),
        (None, Some(b)) => format!("at most {b}"),
        (None, None) => "any".into(),
    }
}

/// How a column of an attribute is filled, for the README: its type in words.
pub(crate) fn kind_words(spec: &AttributeSpec) -> String {
    match &spec.kind {
        AttributeKind::Int { min, max } => format!("whole number, {}", range_words(*min, *max)),
        AttributeKind::Flag => "yes or no".into(),
        AttributeKind::Choice { choices } => format!("one of: {}", choices.join(", ")),
        AttributeKind::Choices { choices } => {
            format!("any of, separated by commas: {}", choices.join(", "))
        }
        AttributeKind::Text => "text".into(),
    }
}
