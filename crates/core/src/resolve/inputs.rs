//! Inputs as typed (`NAME=VALUE`) read into values of the procedure's input kinds.

use super::*;

/// Parses `NAME=VALUE` pairs against a procedure's inputs.
pub fn parse_inputs(
    procedure: &Procedure,
    pairs: &[(String, String)],
) -> Result<BTreeMap<String, Value>, ResolveError> {
    let mut out = BTreeMap::new();
    for (name, text) in pairs {
        let Some(spec) = procedure.input(name) else {
            return Err(ResolveError::UnknownInput {
                procedure: procedure.id.clone(),
                name: name.clone(),
                valid: procedure
                    .inputs
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        out.insert(
            name.clone(),
            spec.parse_value(text).map_err(ResolveError::BadInput)?,
        );
    }
    Ok(out)
}

pub(super) fn describe_kind(spec: &crate::rules::InputSpec) -> String {
    match &spec.kind {
        crate::rules::InputKind::Int { min, max } => format!("a number from {min} to {max}"),
        crate::rules::InputKind::Choice { choices } => format!("one of {}", choices.join(", ")),
        crate::rules::InputKind::Flag => "true or false".to_string(),
    }
}
