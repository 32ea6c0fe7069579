//! An order field's restrictions: each on a choice of the field, in words with its rule, and
//! what the game reads to refuse it at the hand-in (a place's kind, a status on half the
//! Force's units, an army raised this phase).

use super::*;

/// The restrictions of one field whose choices are `choices`; `statuses` are the ruleset's.
pub(super) fn restrictions(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &[RawOrderRestriction],
    choices: &[String],
    statuses: &[String],
) -> Vec<OrderRestriction> {
    let mut out = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let at = p.key("restrictions").index(i);
        if !choices.contains(&r.choice) {
            ctx.err(
                &at.key("choice"),
                format!("'{}' is not a choice of this field", r.choice),
                format!("choices: {}", choices.join(", ")),
            );
        }
        given(ctx, &at, "text", &r.text);
        rule_ref(ctx, &at, &r.rule);
        let refused_if = r.refused_if.as_ref().map(|t| {
            let test = RestrictionTest {
                not_in: t.not_in.iter().map(|k| k.kind()).collect(),
                half_with_status: t.half_with_status.clone(),
                raised_this_phase: t.raised_this_phase,
            };
            if let Some(s) = &test.half_with_status
                && !statuses.contains(s)
            {
                ctx.err(
                    &at.key("refused_if").key("half_with_status"),
                    format!("'{s}' is not a status of the ruleset"),
                    format!("statuses: {}", statuses.join(", ")),
                );
            }
            if test.not_in.is_empty() && test.half_with_status.is_none() && !test.raised_this_phase
            {
                ctx.err(
                    &at.key("refused_if"),
                    "refused_if names nothing the game can read",
                    "give not_in, half_with_status or raised_this_phase, or leave refused_if out",
                );
            }
            test
        });
        out.push(OrderRestriction {
            choice: r.choice.clone(),
            text: r.text.trim().to_string(),
            rule: r.rule.trim().to_string(),
            source_lines: r.source.clone(),
            refused_if,
        });
    }
    out
}
