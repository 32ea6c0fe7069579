//! The `counter_values:` section: values printed on the counters that the text does not give
//! (a Troop Quality, a Capitano's Initiative), given once by the organiser for every counter
//! that matches, at start, arriving or brought by a result.

use super::*;

/// Fills in the values of `counter_values:` on every counter that matches. A value the text
/// gives stays as the text gives it; a rule that matches no counter, an attribute the ruleset
/// does not declare for a matching counter, or a value of the wrong kind is refused where it
/// is written.
pub(super) fn counter_values(
    ctx: &mut Ctx,
    ruleset: &Ruleset,
    raw: &[RawCounterValues],
    mut counters: Vec<&mut CounterSpec>,
) {
    let root = YamlPath::root().key("counter_values");
    for (i, rule) in raw.iter().enumerate() {
        let at = root.index(i);
        if rule.name.is_none() && rule.with.is_empty() {
            ctx.err(
                &at,
                "counter values for no counters",
                "say which counters: name: French Gendarmes, or with: {unit_type: heavy_cavalry}",
            );
            continue;
        }
        if rule.attributes.is_empty() {
            ctx.err(
                &at.key("attributes"),
                "no values given",
                "give the values printed on the counters, e.g. {troop_quality: 3}",
            );
            continue;
        }
        let mut matched = 0;
        let mut reported = false;
        for c in counters.iter_mut() {
            if !matches(ruleset, rule, c) {
                continue;
            }
            matched += 1;
            let specs = match c.kind {
                CounterKind::Leader => &ruleset.leaders,
                _ => &ruleset.units,
            };
            for (name, value) in &rule.attributes {
                let p = at.key("attributes").key(name);
                let Some(spec) = specs.iter().find(|s| s.name == *name) else {
                    if !reported {
                        ctx.err(
                            &p,
                            format!(
                                "'{name}' is not an attribute of {} in ruleset '{}'",
                                c.name, ruleset.id
                            ),
                            declared_hint(specs),
                        );
                    }
                    reported = true;
                    continue;
                };
                match attribute_value(spec, value) {
                    // The text's own value stands.
                    Ok(v) => {
                        if !c.attributes.contains_key(name) {
                            c.attributes.insert(name.clone(), v);
                        }
                        c.unknown.retain(|u| u != name);
                    }
                    Err(e) => {
                        if !reported {
                            ctx.err(
                                &p,
                                format!("{name}: {e}"),
                                spec.help.clone().unwrap_or_default(),
                            );
                        }
                        reported = true;
                    }
                }
            }
        }
        if matched == 0 {
            ctx.err(
                &at,
                format!("no counter of the scenario is {}", words(rule)),
                "name counters as the text prints them (\"French Gendarmes\"), or by their attributes",
            );
        }
    }
}

/// Whether a counter is one the rule names: its printed name or its own name (any case), and
/// every attribute of `with` as it holds it.
fn matches(ruleset: &Ruleset, rule: &RawCounterValues, c: &CounterSpec) -> bool {
    let named = rule.name.as_deref().is_none_or(|n| {
        let n = n.trim();
        c.printed.eq_ignore_ascii_case(n) || c.name.eq_ignore_ascii_case(n)
    });
    let specs = match c.kind {
        CounterKind::Leader => &ruleset.leaders,
        _ => &ruleset.units,
    };
    named
        && rule.with.iter().all(|(name, want)| {
            let Some(spec) = specs.iter().find(|s| s.name == *name) else {
                return false;
            };
            attribute_value(spec, want)
                .ok()
                .zip(c.attributes.get(name))
                .is_some_and(|(w, have)| have.holds(&w))
        })
}

/// The counters a rule names, in words: "named French Gendarmes with unit_type heavy_cavalry".
fn words(rule: &RawCounterValues) -> String {
    let mut parts = Vec::new();
    if let Some(n) = &rule.name {
        parts.push(format!("named {n}"));
    }
    if !rule.with.is_empty() {
        parts.push(format!(
            "with {}",
            rule.with
                .iter()
                .map(|(k, v)| format!("{k} {}", raw_words(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    parts.join(" ")
}

fn raw_words(v: &RawValue) -> String {
    match v {
        RawValue::Bool(b) => b.to_string(),
        RawValue::Int(i) => i.to_string(),
        RawValue::Text(t) => t.clone(),
        RawValue::List(l) => l.join(", "),
    }
}
