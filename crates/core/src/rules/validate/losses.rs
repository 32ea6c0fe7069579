//! The `losses:` rules and the counter filters of inputs and loss rules: attributes the
//! ruleset declares, procedures it has.

use super::*;

/// A counter filter: each attribute a unit or leader attribute (or a status marker, for a
/// flag), each value written as the attribute takes it.
pub(super) fn counter_filter(
    ctx: &mut FileCtx,
    at: &YamlPath,
    raw: &RawCounterFilter,
    statuses: &[String],
) -> CounterFilter {
    let mut out = BTreeMap::new();
    for (attribute, values) in raw {
        let declared = ctx
            .attributes
            .as_ref()
            .is_none_or(|a| a.iter().any(|s| s.name == *attribute));
        if !declared && !statuses.contains(attribute) {
            ctx.err(
                &at.key(attribute),
                format!("unknown attribute '{attribute}'"),
                "name a unit or leader attribute (or a status marker) of the ruleset",
            );
            continue;
        }
        let values: Vec<Value> = values
            .iter()
            .map(|v| match v {
                RawScalar::Int(i) => Value::Int(*i),
                RawScalar::Bool(b) => Value::Bool(*b),
                RawScalar::Text(t) => Value::Text(t.clone()),
            })
            .collect();
        if values.is_empty() {
            ctx.err(
                &at.key(attribute),
                format!("'{attribute}' lists no value"),
                "list the values that match, e.g. [3] or [true]",
            );
            continue;
        }
        out.insert(attribute.clone(), values);
    }
    CounterFilter(out)
}

/// The `losses:` rules: procedures that exist, filters on declared attributes, a rule
/// reference each, and one procedure governed by one rule.
pub(super) fn validate_losses(
    ctx: &mut FileCtx,
    raw: &[RawLossRule],
    procedure_ids: &BTreeSet<String>,
    statuses: &[String],
) -> Vec<LossRule> {
    let at = YamlPath::root().key("losses");
    let mut governed = BTreeSet::new();
    let mut default_seen = false;
    let mut out = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let here = at.index(i);
        if r.procedures.is_empty() {
            if default_seen {
                ctx.err(
                    &here,
                    "a second rule naming no procedure",
                    "only one rule may govern every procedure no other rule names",
                );
            }
            default_seen = true;
        }
        for (j, p) in r.procedures.iter().enumerate() {
            if !procedure_ids.contains(p) {
                ctx.err(
                    &here.key("procedures").index(j),
                    format!("unknown procedure '{p}'"),
                    "name a procedure of this ruleset",
                );
            } else if !governed.insert(p.clone()) {
                ctx.err(
                    &here.key("procedures").index(j),
                    format!("procedure '{p}' is governed by an earlier rule too"),
                    "name each procedure in one rule",
                );
            }
        }
        if r.rule.trim().is_empty() {
            ctx.err(
                &here.key("rule"),
                "a loss rule without a rule reference",
                "give the rule that says how losses are spread, e.g. \"8\"",
            );
        }
        let filters = |ctx: &mut FileCtx, key: &str, list: &[RawCounterFilter]| {
            list.iter()
                .enumerate()
                .map(|(k, f)| counter_filter(ctx, &here.key(key).index(k), f, statuses))
                .collect::<Vec<_>>()
        };
        let never = filters(ctx, "never", &r.never);
        let last = filters(ctx, "last", &r.last);
        let order = filters(ctx, "order", &r.order);
        let group = r.group.as_ref().map(|g| {
            let declared = ctx
                .attributes
                .as_ref()
                .is_none_or(|a| a.iter().any(|s| s.name == g.attribute));
            if !declared {
                ctx.err(
                    &here.key("group").key("attribute"),
                    format!("unknown attribute '{}'", g.attribute),
                    "name a unit attribute of the ruleset, e.g. troop_quality",
                );
            }
            if g.at_least.is_empty() {
                ctx.err(
                    &here.key("group").key("at_least"),
                    "a group with no role",
                    "give each role the resolution's value its units must reach, e.g. {attacker: attacker_base_quality}",
                );
            }
            let RawLossShare::Half = g.share;
            LossGroup {
                attribute: g.attribute.clone(),
                at_least: g.at_least.clone(),
                rule: g.rule.trim().to_string(),
            }
        });
        out.push(LossRule {
            procedures: r.procedures.clone(),
            distribute: match r.distribute {
                RawDistribute::Evenly => Distribute::Evenly,
                RawDistribute::Umpire => Distribute::Umpire,
            },
            never,
            last,
            order,
            group,
            remove_at_zero: r.remove_at_zero,
            note: r.note.clone(),
            rule: r.rule.trim().to_string(),
            source_lines: r.source.clone(),
        });
    }
    out
}
