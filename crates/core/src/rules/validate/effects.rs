//! An outcome's effects: kinds and the fields each needs.

use super::*;

pub(super) fn validate_effects(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawEffect],
    known: &BTreeSet<String>,
) -> Vec<EffectSpec> {
    let mut out = Vec::new();
    for (k, e) in raw.iter().enumerate() {
        let p = path.index(k);
        let Some(kind) = EffectKind::from_id(&e.kind) else {
            ctx.err(
                &p.key("kind"),
                format!("unknown effect kind '{}'", e.kind),
                format!(
                    "use one of: {}",
                    EffectKind::ALL.map(EffectKind::id).join(", ")
                ),
            );
            continue;
        };
        if e.kind == "follow_up" && e.procedure.is_none() {
            ctx.err(
                &p,
                "a follow_up effect needs a procedure",
                "add procedure: <id of the procedure to queue>",
            );
        }
        if e.kind == "status" && e.status.is_none() {
            ctx.err(
                &p,
                "a status effect needs a status",
                "add status: e.g. demoralised, disordered",
            );
        }
        check_attribute_effect(ctx, &p, e);
        let names_its_value = matches!(e.kind.as_str(), "control" | "arrival");
        if e.value.is_some() && e.kind != "set" && !names_its_value {
            ctx.err(
                &p.key("value"),
                format!(
                    "value: is for set, control and arrival effects, not {}",
                    e.kind
                ),
                "use amount: for a number, or kind: set",
            );
        }
        if names_its_value && !matches!(e.value, Some(RawScalar::Text(_))) {
            ctx.err(
                &p.key("value"),
                format!(
                    "a {} effect names its {} in value:",
                    e.kind,
                    if e.kind == "control" {
                        "place"
                    } else {
                        "conditional reinforcement"
                    }
                ),
                if e.kind == "control" {
                    "add value: the place as the map names it (e.g. Novara), and side: who holds it"
                } else {
                    "add value: the id of a conditional reinforcement of the scenario"
                },
            );
        }
        if e.kind == "control" && e.side.is_none() {
            ctx.err(
                &p,
                "a control effect needs the side that holds the place",
                "add side: <a side of the scenario, or attacker/defender>",
            );
        }
        let amount = match &e.amount {
            Some(a) => ctx.expr(&p.key("amount"), a, known),
            None => None,
        };
        let when = match &e.when {
            Some(w) => ctx.expr(&p.key("when"), w, known),
            None => None,
        };
        out.push(EffectSpec {
            kind,
            when,
            side: e.side.clone(),
            amount_source: e.amount.as_ref().map(RawScalar::text),
            amount,
            status: e.status.clone(),
            procedure: e.procedure.clone(),
            attribute: e.attribute.clone(),
            value: e.value.as_ref().map(|v| match v {
                RawScalar::Int(i) => Value::Int(*i),
                RawScalar::Bool(b) => Value::Bool(*b),
                RawScalar::Text(t) => Value::Text(t.clone()),
            }),
            text: e.text.clone(),
            rule: e.rule.clone(),
            source_lines: e.source.clone(),
        });
    }
    out
}

/// `adjust` and `set` effects: an attribute the ruleset declares, of the right type, and an
/// amount (adjust: the delta) or a value (set).
pub(super) fn check_attribute_effect(ctx: &mut FileCtx, p: &YamlPath, e: &RawEffect) {
    let wants = matches!(e.kind.as_str(), "adjust" | "set");
    let Some(attribute) = &e.attribute else {
        if wants {
            ctx.err(
                p,
                format!("a {} effect needs an attribute", e.kind),
                "add attribute: e.g. treasury, arrears, in_revolt",
            );
        }
        return;
    };
    if !wants {
        ctx.err(
            &p.key("attribute"),
            format!("attribute: is for adjust and set effects, not {}", e.kind),
            "use kind: adjust (a delta) or kind: set (a value), or remove attribute:",
        );
        return;
    }
    let kind = ctx.attributes.as_ref().map(|attrs| {
        attrs
            .iter()
            .find(|a| a.name == *attribute)
            .map(|a| a.kind.clone())
    });
    let kind = match kind {
        None => None,
        Some(Some(k)) => Some(k),
        Some(None) => {
            let names: Vec<String> = ctx
                .attributes
                .iter()
                .flatten()
                .map(|a| a.name.clone())
                .collect();
            ctx.err(
                &p.key("attribute"),
                format!("unknown attribute '{attribute}'"),
                format!(
                    "name a unit or leader attribute of the ruleset: {}",
                    if names.is_empty() {
                        "none declared".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            );
            return;
        }
    };
    let is_int = kind
        .as_ref()
        .is_none_or(|k| matches!(k, AttributeKind::Int { .. }));
    match e.kind.as_str() {
        "adjust" => {
            if e.amount.is_none() {
                ctx.err(
                    p,
                    "an adjust effect needs an amount (the delta)",
                    "add amount: e.g. -florins_paid, 1",
                );
            }
            if !is_int {
                ctx.err(
                    &p.key("attribute"),
                    format!("'{attribute}' is not a whole number: it cannot be adjusted"),
                    "use kind: set with value: for flags and names",
                );
            }
        }
        _ => match (&e.amount, &e.value) {
            (Some(_), Some(_)) | (None, None) => ctx.err(
                p,
                "a set effect needs exactly one of amount (a number expression) and value",
                "write amount: arrears_after, or value: true",
            ),
            (Some(_), None) if !is_int => ctx.err(
                &p.key("amount"),
                format!("'{attribute}' is not a whole number"),
                "use value: with a flag or a name",
            ),
            (None, Some(v)) => {
                let ok = match (&kind, v) {
                    (None, _) => true,
                    (Some(AttributeKind::Int { .. }), RawScalar::Int(_)) => true,
                    (Some(AttributeKind::Flag), RawScalar::Bool(_)) => true,
                    (Some(AttributeKind::Text), RawScalar::Text(_)) => true,
                    (Some(AttributeKind::Choice { choices }), RawScalar::Text(t)) => {
                        choices.contains(t)
                    }
                    (Some(AttributeKind::Choices { choices }), RawScalar::Text(t)) => {
                        t.split(',').all(|p| choices.iter().any(|c| c == p.trim()))
                    }
                    _ => false,
                };
                if !ok {
                    ctx.err(
                        &p.key("value"),
                        format!("'{}' does not fit attribute '{attribute}'", v.text()),
                        "give a value of the attribute's type (a number, true/false, or one of its choices)",
                    );
                }
            }
            _ => {}
        },
    }
}
