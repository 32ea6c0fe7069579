//! The `visibility:` section: what each side may see, conditions, reveals.

use super::*;

/// What the `visibility:` section may name.
pub(super) struct VisibilityNames<'a> {
    pub(super) units: &'a [AttributeSpec],
    pub(super) leaders: &'a [AttributeSpec],
    pub(super) procedures: &'a BTreeSet<String>,
    pub(super) steps: &'a [Step],
    pub(super) rulings: &'a [Ruling],
    pub(super) hex: bool,
}

/// Whether a rule reference is a line of the text ("L194") rather than the rulebook's number.
pub(super) fn is_line_reference(rule: &str) -> bool {
    let mut chars = rule.trim().chars();
    chars.next() == Some('L') && chars.next().is_some_and(|c| c.is_ascii_digit())
}

pub(super) fn sight_source(
    ctx: &mut FileCtx,
    p: &YamlPath,
    rule: &str,
    source: &Option<String>,
    text: &Option<String>,
    ruling: &Option<String>,
) -> SightSource {
    if rule.trim().is_empty() || is_line_reference(rule) {
        ctx.err(
            &p.key("rule"),
            format!("rule '{rule}' is not a rule as the rulebook numbers it"),
            "give the rulebook's number (\"1.4\", \"D.1\") or heading path, and the text's lines in source:",
        );
    }
    SightSource {
        rule: rule.to_string(),
        source: source.clone(),
        text: text.clone(),
        ruling: ruling.clone(),
    }
}

pub(super) fn validate_condition(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawCondition,
    names: &VisibilityNames,
) -> Option<Condition> {
    let mut all = Vec::new();
    let mut ok = true;
    if let Some(k) = raw.kind {
        all.push(Condition::Kind(match k {
            RawPieceKind::Unit => PieceKind::Unit,
            RawPieceKind::Leader => PieceKind::Leader,
            RawPieceKind::Marker => PieceKind::Marker,
            RawPieceKind::State => PieceKind::State,
        }));
    }
    if let Some(s) = &raw.status {
        if is_identifier(s) {
            all.push(Condition::Status(s.clone()));
        } else {
            ctx.err(
                &p.key("status"),
                format!("'{s}' is not a status name"),
                "write a status in snake_case, e.g. hidden or revealed",
            );
            ok = false;
        }
    }
    ok &= attribute_condition(ctx, p, raw, names, &mut all);
    if let Some(on) = raw.on_map {
        all.push(Condition::OnMap(on));
    }
    if let Some(adjacent) = raw.adjacent_to_enemy {
        if names.hex {
            all.push(Condition::AdjacentToEnemy(adjacent));
        } else {
            ctx.err(
                &p.key("adjacent_to_enemy"),
                "adjacency is only known on a hex map",
                "declare geometry: {kind: hex} or leave adjacent_to_enemy out",
            );
            ok = false;
        }
    }
    if let Some(rulings) = &raw.ruling {
        ok &= ruling_conditions(ctx, p, rulings, names, &mut all);
    }
    if let Some(any) = &raw.any {
        let mut alternatives = Vec::new();
        for (i, c) in any.iter().enumerate() {
            match validate_condition(ctx, &p.key("any").index(i), c, names) {
                Some(c) => alternatives.push(c),
                None => ok = false,
            }
        }
        if any.is_empty() {
            ctx.err(
                &p.key("any"),
                "`any:` lists no condition",
                "list the alternatives, e.g. any: [{status: hidden}, {attribute: face_down, is: true}]",
            );
            ok = false;
        }
        all.push(Condition::Any(alternatives));
    }
    if let Some(not) = &raw.not {
        match validate_condition(ctx, &p.key("not"), not, names) {
            Some(c) => all.push(Condition::Not(Box::new(c))),
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    if all.is_empty() {
        ctx.err(
            p,
            "an empty condition",
            "give at least one of kind, status, attribute with is, on_map, adjacent_to_enemy, ruling, any, not — or leave when: out",
        );
        return None;
    }
    Some(if all.len() == 1 {
        all.remove(0)
    } else {
        Condition::All(all)
    })
}

/// An attribute condition (`attribute:` with `is:`) onto `all`: the attribute must be a unit or
/// leader attribute, the value of its type. Says whether it was right.
fn attribute_condition(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawCondition,
    names: &VisibilityNames,
    all: &mut Vec<Condition>,
) -> bool {
    let mut ok = true;
    match (&raw.attribute, &raw.is) {
        (Some(name), Some(is)) => {
            let spec = names
                .units
                .iter()
                .chain(names.leaders)
                .find(|a| a.name == *name);
            match spec {
                None => {
                    let known: Vec<&str> = names
                        .units
                        .iter()
                        .chain(names.leaders)
                        .map(|a| a.name.as_str())
                        .collect();
                    ctx.err(
                        &p.key("attribute"),
                        format!("unknown attribute '{name}'"),
                        format!("unit and leader attributes: {}", known.join(", ")),
                    );
                    ok = false;
                }
                Some(spec) => match attribute_value(spec, is) {
                    Ok(value) => all.push(Condition::Attribute {
                        name: name.clone(),
                        value,
                    }),
                    Err((problem, hint)) => {
                        ctx.err(&p.key("is"), problem, hint);
                        ok = false;
                    }
                },
            }
        }
        (Some(_), None) => {
            ctx.err(
                &p.key("attribute"),
                "an attribute condition needs `is:`",
                "add is: VALUE, e.g. is: retreat",
            );
            ok = false;
        }
        (None, Some(_)) => {
            ctx.err(
                &p.key("is"),
                "`is:` needs the attribute it tests",
                "add attribute: NAME",
            );
            ok = false;
        }
        (None, None) => {}
    }
    ok
}

/// Ruling conditions (`ruling: {id: option}`) onto `all`: each a ruling of the ruleset and one
/// of its options. Says whether they were right.
fn ruling_conditions(
    ctx: &mut FileCtx,
    p: &YamlPath,
    rulings: &BTreeMap<String, String>,
    names: &VisibilityNames,
    all: &mut Vec<Condition>,
) -> bool {
    let mut ok = true;
    for (id, option) in rulings {
        match names.rulings.iter().find(|r| r.id == *id) {
            None => {
                let known: Vec<&str> = names.rulings.iter().map(|r| r.id.as_str()).collect();
                ctx.err(
                    &p.key("ruling").key(id),
                    format!("unknown ruling '{id}'"),
                    if known.is_empty() {
                        "declare it under rulings: first".to_string()
                    } else {
                        format!("rulings of this ruleset: {}", known.join(", "))
                    },
                );
                ok = false;
            }
            Some(r) if !r.options.iter().any(|o| o.id == *option) => {
                let known: Vec<&str> = r.options.iter().map(|o| o.id.as_str()).collect();
                ctx.err(
                    &p.key("ruling").key(id),
                    format!("ruling '{id}' has no option '{option}'"),
                    format!("options: {}", known.join(", ")),
                );
                ok = false;
            }
            Some(_) => all.push(Condition::Ruling {
                id: id.clone(),
                option: option.clone(),
            }),
        }
    }
    ok
}

pub(super) fn sight_level(raw: RawSightLevel) -> SightLevel {
    match raw {
        RawSightLevel::Hidden => SightLevel::Hidden,
        RawSightLevel::Presence => SightLevel::Presence,
        RawSightLevel::Identity => SightLevel::Identity,
        RawSightLevel::Full => SightLevel::Full,
    }
}

pub(super) fn validate_visibility(
    ctx: &mut FileCtx,
    raw: &RawVisibility,
    names: &VisibilityNames,
) -> Visibility {
    let root = YamlPath::root().key("visibility");
    let mut ids = BTreeSet::new();
    let counters = counter_sights(ctx, raw, names, &mut ids);
    let attributes = attribute_sights(ctx, raw, names, &mut ids);
    let open_results = open_results(ctx, raw, names, &mut ids);
    let results_with_counters = raw.results_with_counters.as_ref().map(|r| {
        sight_source(
            ctx,
            &root.key("results_with_counters"),
            &r.rule,
            &r.source,
            &r.text,
            &None,
        )
    });
    let reveals = reveals(ctx, raw, names, &mut ids);
    if let Some(rule) = &raw.rule
        && is_line_reference(rule)
    {
        ctx.err(
            &root.key("rule"),
            format!("rule '{rule}' is not a rule as the rulebook numbers it"),
            "give the rulebook's number (\"1.4\") or heading path; keep the text's lines in notes",
        );
    }
    Visibility {
        own: match raw.own {
            RawOwner::Side => Owner::Side,
            RawOwner::Team => Owner::Team,
        },
        enemy: sight_level(raw.enemy),
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        counters,
        attributes,
        open_results,
        results_with_counters,
        reveals,
        hidden_entries: match raw.hidden_entries {
            crate::rules::raw::RawHiddenEntries::Renumber => HiddenEntries::Renumber,
            crate::rules::raw::RawHiddenEntries::Placeholder => HiddenEntries::Placeholder,
        },
        notes: raw.notes.clone(),
        declared: true,
    }
}

/// The `counters:` rules: what a side sees of the other sides' counters matching each.
fn counter_sights(
    ctx: &mut FileCtx,
    raw: &RawVisibility,
    names: &VisibilityNames,
    ids: &mut BTreeSet<String>,
) -> Vec<CounterSightRule> {
    let root = YamlPath::root().key("visibility");
    let mut counters = Vec::new();
    for (i, c) in raw.counters.iter().enumerate() {
        let p = root.key("counters").index(i);
        let id_ok = ctx.unique_id(ids, &p.key("id"), "visibility id", &c.id);
        let from = sight_source(ctx, &p, &c.rule, &c.source, &c.text, &c.ruling);
        let when = match &c.when {
            Some(w) => match validate_condition(ctx, &p.key("when"), w, names) {
                Some(w) => Some(w),
                None => continue,
            },
            None => None,
        };
        let see = sight_level(c.see);
        match (see, &c.shown_as) {
            (SightLevel::Presence, None) => {
                ctx.err(
                    &p.key("see"),
                    "a counter seen by its presence only needs the words for it",
                    "add as: \"a face-down Capitano\" (what the other side sees)",
                );
                continue;
            }
            (SightLevel::Presence, Some(_)) | (_, None) => {}
            (_, Some(_)) => {
                ctx.err(
                    &p.key("as"),
                    "`as:` is only for counters seen by their presence",
                    "remove as:, or write see: presence",
                );
                continue;
            }
        }
        if id_ok {
            counters.push(CounterSightRule {
                id: c.id.clone(),
                when,
                see,
                shown_as: c.shown_as.clone(),
                from,
            });
        }
    }
    counters
}

/// The `attributes:` rules: attributes kept from the other sides, each a unit or leader
/// attribute.
fn attribute_sights(
    ctx: &mut FileCtx,
    raw: &RawVisibility,
    names: &VisibilityNames,
    ids: &mut BTreeSet<String>,
) -> Vec<AttributeSightRule> {
    let root = YamlPath::root().key("visibility");
    let mut attributes = Vec::new();
    for (i, a) in raw.attributes.iter().enumerate() {
        let p = root.key("attributes").index(i);
        let id_ok = ctx.unique_id(ids, &p.key("id"), "visibility id", &a.id);
        let from = sight_source(ctx, &p, &a.rule, &a.source, &a.text, &a.ruling);
        let mut ok = id_ok;
        if a.attributes.is_empty() {
            ctx.err(
                &p.key("attributes"),
                "no attribute listed",
                "list the attributes kept from the other sides, e.g. [order]",
            );
            ok = false;
        }
        for (k, name) in a.attributes.iter().enumerate() {
            if !names
                .units
                .iter()
                .chain(names.leaders)
                .any(|x| x.name == *name)
            {
                let known: Vec<&str> = names
                    .units
                    .iter()
                    .chain(names.leaders)
                    .map(|x| x.name.as_str())
                    .collect();
                ctx.err(
                    &p.key("attributes").index(k),
                    format!("unknown attribute '{name}'"),
                    format!("unit and leader attributes: {}", known.join(", ")),
                );
                ok = false;
            }
        }
        let shown_when = match &a.shown_when {
            Some(w) => match validate_condition(ctx, &p.key("shown_when"), w, names) {
                Some(w) => Some(w),
                None => continue,
            },
            None => None,
        };
        if ok {
            attributes.push(AttributeSightRule {
                id: a.id.clone(),
                attributes: a.attributes.clone(),
                shown_when,
                from,
            });
        }
    }
    attributes
}

/// The `open_results:` rules: procedures whose results every side sees, each a procedure of
/// the ruleset.
fn open_results(
    ctx: &mut FileCtx,
    raw: &RawVisibility,
    names: &VisibilityNames,
    ids: &mut BTreeSet<String>,
) -> Vec<OpenResults> {
    let root = YamlPath::root().key("visibility");
    let mut open_results = Vec::new();
    for (i, o) in raw.open_results.iter().enumerate() {
        let p = root.key("open_results").index(i);
        let mut ok = ctx.unique_id(ids, &p.key("id"), "visibility id", &o.id);
        let from = sight_source(ctx, &p, &o.rule, &o.source, &o.text, &o.ruling);
        for (k, proc_id) in o.procedures.iter().enumerate() {
            if !names.procedures.contains(proc_id) {
                ctx.err(
                    &p.key("procedures").index(k),
                    format!("unknown procedure '{proc_id}'"),
                    format!(
                        "procedures of this ruleset: {}",
                        names
                            .procedures
                            .iter()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                ok = false;
            }
        }
        if ok {
            open_results.push(OpenResults {
                id: o.id.clone(),
                procedures: o.procedures.clone(),
                from,
            });
        }
    }
    open_results
}

/// The `reveals:` rules: statuses set and cleared at a step of the Sequence of Play (one with
/// no sub-steps).
fn reveals(
    ctx: &mut FileCtx,
    raw: &RawVisibility,
    names: &VisibilityNames,
    ids: &mut BTreeSet<String>,
) -> Vec<Reveal> {
    let root = YamlPath::root().key("visibility");
    let mut leaves = BTreeSet::new();
    leaf_step_ids(names.steps, &mut leaves);
    let mut reveals = Vec::new();
    for (i, r) in raw.reveals.iter().enumerate() {
        let p = root.key("reveals").index(i);
        let mut ok = ctx.unique_id(ids, &p.key("id"), "visibility id", &r.id);
        let from = sight_source(ctx, &p, &r.rule, &r.source, &r.text, &r.ruling);
        if !leaves.contains(&r.step) {
            ctx.err(
                &p.key("step"),
                format!("'{}' is not a step of the Sequence of Play", r.step),
                "name the id of a sequence_of_play step that has no sub-steps, e.g. d1_intelligence",
            );
            ok = false;
        }
        if r.set.is_empty() && r.clear.is_empty() {
            ctx.err(
                &p,
                "a reveal neither sets nor clears a status",
                "add set: [revealed] and/or clear: [hidden]",
            );
            ok = false;
        }
        for (key, list) in [("set", &r.set), ("clear", &r.clear)] {
            for (k, s) in list.iter().enumerate() {
                if !is_identifier(s) {
                    ctx.err(
                        &p.key(key).index(k),
                        format!("'{s}' is not a status name"),
                        "write a status in snake_case, e.g. revealed",
                    );
                    ok = false;
                }
            }
        }
        let Some(when) = validate_condition(ctx, &p.key("when"), &r.when, names) else {
            continue;
        };
        if ok {
            reveals.push(Reveal {
                id: r.id.clone(),
                step: r.step.clone(),
                when,
                set: r.set.clone(),
                clear: r.clear.clone(),
                from,
            });
        }
    }
    reveals
}
