//! The counters a scenario places: their attributes, strengths (a Force's SPs distributed over its units), what the text leaves unknown, Forces and their leaders.

use super::*;

pub(super) fn attribute_value(spec: &AttributeSpec, raw: &RawValue) -> Result<Value, String> {
    match (&spec.kind, raw) {
        (AttributeKind::Int { min, max }, RawValue::Int(i)) => {
            if min.is_some_and(|m| *i < m) || max.is_some_and(|m| *i > m) {
                Err(format!(
                    "{i} is out of range {}–{}",
                    min.map_or("…".into(), |m| m.to_string()),
                    max.map_or("…".into(), |m| m.to_string())
                ))
            } else {
                Ok(Value::Int(*i))
            }
        }
        (AttributeKind::Flag, RawValue::Bool(b)) => Ok(Value::Bool(*b)),
        (AttributeKind::Text, RawValue::Text(t)) => Ok(Value::Text(t.clone())),
        (AttributeKind::Text, RawValue::Int(i)) => Ok(Value::Text(i.to_string())),
        (AttributeKind::Choice { choices }, RawValue::Text(t)) => {
            if choices.contains(t) {
                Ok(Value::Text(t.clone()))
            } else {
                Err(format!("'{t}' is not one of {}", choices.join(", ")))
            }
        }
        (AttributeKind::Choices { choices }, RawValue::List(list)) => {
            if let Some(bad) = list.iter().find(|t| !choices.contains(t)) {
                Err(format!("'{bad}' is not one of {}", choices.join(", ")))
            } else {
                Ok(Value::Text(list.join(", ")))
            }
        }
        (AttributeKind::Choices { choices }, RawValue::Text(t)) => {
            if choices.contains(t) {
                Ok(Value::Text(t.clone()))
            } else {
                Err(format!("'{t}' is not one of {}", choices.join(", ")))
            }
        }
        (kind, _) => Err(format!(
            "expects {}",
            match kind {
                AttributeKind::Int { .. } => "a whole number",
                AttributeKind::Flag => "true or false",
                AttributeKind::Text => "text",
                AttributeKind::Choice { .. } => "one name",
                AttributeKind::Choices { .. } => "a list of names",
            }
        )),
    }
}

pub(super) struct Placement<'p> {
    /// Prefix of generated counter ids (the force's id).
    pub(super) prefix: &'p str,
    pub(super) side: &'p str,
    pub(super) army: Option<&'p str>,
    pub(super) position: &'p Position,
    pub(super) force: Option<&'p str>,
    /// The words that tell this group's counters from others of the same name.
    pub(super) label: Option<&'p str>,
}

/// A counter entry's strength points and maximum, one pair per physical counter; `None`
/// when the entry cannot be split (the error is reported).
pub(super) type Strengths = Vec<(Option<u32>, Option<u32>)>;

pub(super) fn counters(
    ctx: &mut Ctx,
    refs: &mut Refs,
    path: &YamlPath,
    raw: &RawCounter,
    kind: CounterKind,
    at: &Placement,
    out: &mut Vec<CounterSpec>,
) {
    let mut ok = true;
    let attributes = counter_attributes(ctx, refs, path, raw, kind, &mut ok);
    let Some(strengths) = strengths(ctx, refs, path, raw, &mut ok) else {
        return;
    };
    if !ok {
        return;
    }
    let base = raw.id.clone().unwrap_or_else(|| {
        if kind == CounterKind::Leader {
            slug(&raw.name)
        } else {
            format!("{}-{}", at.prefix, slug(&raw.name))
        }
    });
    let unknown = counter_unknowns(refs, raw, kind, &attributes);
    let split = !raw.counters.is_empty();
    for (n, (points, maximum)) in strengths.into_iter().enumerate() {
        let id = if split {
            format!("{base}-{}", n + 1)
        } else {
            base.clone()
        };
        if !ctx.once(&mut refs.ids, id.clone(), path, "counter id", &id) {
            return;
        }
        let mut attrs = attributes.clone();
        if let Some((sp_name, max_name)) = refs.strength.clone() {
            if let Some(p) = points {
                attrs.insert(sp_name, Value::Int(i64::from(p)));
            }
            if let Some(m) = maximum {
                attrs.insert(max_name, Value::Int(i64::from(m)));
            }
        }
        if let Some(label) = at.label {
            refs.qualifiers.insert(id.clone(), label.to_string());
        }
        if let Some(note) = &raw.note {
            refs.notes.push(CounterNote {
                counter: id.clone(),
                text: note.clone(),
            });
        }
        out.push(CounterSpec {
            id,
            name: raw.name.clone(),
            printed: raw.name.clone(),
            side: at.side.to_string(),
            army: at.army.map(str::to_string),
            kind,
            attributes: attrs,
            unknown: unknown.clone(),
            position: at.position.clone(),
            force: at.force.map(str::to_string),
        });
    }
}

/// A counter entry's `attributes` and `unknown` list, checked against the ruleset's declared
/// attributes; clears `ok` on an error.
pub(super) fn counter_attributes(
    ctx: &mut Ctx,
    refs: &mut Refs,
    path: &YamlPath,
    raw: &RawCounter,
    kind: CounterKind,
    ok: &mut bool,
) -> BTreeMap<String, Value> {
    let specs = match kind {
        CounterKind::Leader => &refs.ruleset.leaders,
        CounterKind::Unit | CounterKind::Marker | CounterKind::State => &refs.ruleset.units,
    };
    let declared = |name: &str| specs.iter().find(|s| s.name == name);
    let what = if kind == CounterKind::Leader {
        "leaders"
    } else {
        "units"
    };
    let undeclared = |ctx: &mut Ctx, p: &YamlPath, name: &str| {
        ctx.err(
            p,
            format!(
                "unknown {what} attribute '{name}' in ruleset '{}'",
                refs.ruleset.id
            ),
            declared_hint(specs),
        );
    };
    let mut attributes = BTreeMap::new();
    let mut map_tables = Vec::new();
    for (name, value) in &raw.attributes {
        let p = path.key("attributes").key(name);
        let Some(spec) = declared(name) else {
            undeclared(ctx, &p, name);
            *ok = false;
            continue;
        };
        match attribute_value(spec, value) {
            Ok(v) => {
                if let (true, Value::Text(t)) = (name == "map_table", &v) {
                    map_tables.push((p.clone(), t.clone()));
                }
                attributes.insert(name.clone(), v);
            }
            Err(e) => {
                ctx.err(
                    &p,
                    format!("{name}: {e}"),
                    spec.help.clone().unwrap_or_default(),
                );
                *ok = false;
            }
        }
    }
    for (i, name) in raw.unknown.iter().enumerate() {
        let p = path.key("unknown").index(i);
        if declared(name).is_none() {
            undeclared(ctx, &p, name);
            *ok = false;
        } else if attributes.contains_key(name) {
            ctx.err(
                &p,
                format!("'{name}' is both given and listed as unknown"),
                "remove it from one of the two",
            );
            *ok = false;
        }
    }
    refs.map_tables.extend(map_tables);
    attributes
}

/// Splits an `sp` + `counters` entry into physical counters; `None` when it cannot be split
/// (the error is reported). `sp` without `counters` is reported and clears `ok`.
pub(super) fn strengths(
    ctx: &mut Ctx,
    refs: &Refs,
    path: &YamlPath,
    raw: &RawCounter,
    ok: &mut bool,
) -> Option<Strengths> {
    if raw.counters.is_empty() {
        if raw.sp.is_some() {
            ctx.err(
                &path.key("sp"),
                "sp without counters",
                "add counters: [{count: 1, max: 8}]",
            );
            *ok = false;
        }
        return Some(vec![(None, None)]);
    }
    let maxima: Vec<u32> = raw
        .counters
        .iter()
        .flat_map(|c| std::iter::repeat_n(c.max, c.count as usize))
        .collect();
    if maxima.is_empty() || maxima.contains(&0) {
        ctx.err(
            &path.key("counters"),
            "counters need a count and a maximum strength of at least 1",
            "write e.g. [{count: 2, max: 8}]",
        );
        return None;
    }
    if refs.strength.is_none() {
        ctx.err(
            &path.key("counters"),
            "counters given but the scenario does not say which attributes hold strength",
            "add strength: {points: <attribute>, maximum: <attribute>} at the top",
        );
        return None;
    }
    let Some(sp) = raw.sp else {
        return Some(maxima.iter().map(|m| (None, Some(*m))).collect());
    };
    let Some(held) = distribute_sp(sp, &maxima) else {
        ctx.err(
            &path.key("sp"),
            format!(
                "{sp} SP cannot be held by {} counter(s) of maximum strength {}",
                maxima.len(),
                maxima
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "need count ≤ sp ≤ Σ count × max ({} ≤ sp ≤ {})",
                maxima.len(),
                maxima.iter().sum::<u32>()
            ),
        );
        return None;
    };
    Some(
        held.into_iter()
            .zip(&maxima)
            .map(|(h, m)| (Some(h), Some(*m)))
            .collect(),
    )
}

/// The attributes the text is silent on for this counter: its own `unknown` list and the
/// scenario's defaults, unless the entry gives the value (or the strength split sets it).
pub(super) fn counter_unknowns(
    refs: &Refs,
    raw: &RawCounter,
    kind: CounterKind,
    attributes: &BTreeMap<String, Value>,
) -> Vec<String> {
    let defaults = match kind {
        CounterKind::Leader => &refs.unknown_leaders,
        CounterKind::Unit | CounterKind::Marker | CounterKind::State => &refs.unknown_units,
    };
    let mut unknown = raw.unknown.clone();
    for d in defaults {
        let set_by_split = refs.strength.as_ref().is_some_and(|(p, m)| {
            !raw.counters.is_empty() && (d == m || (d == p && raw.sp.is_some()))
        });
        if !attributes.contains_key(d) && !unknown.contains(d) && !set_by_split {
            unknown.push(d.clone());
        }
    }
    unknown
}

/// Validates a force; its counters go to `out`.
pub(super) fn force(
    ctx: &mut Ctx,
    refs: &mut Refs,
    path: &YamlPath,
    raw: &RawForce,
    entry: Option<&Position>,
    out: &mut Vec<CounterSpec>,
) -> Option<ForceSpec> {
    let side_ok = check_side(ctx, refs, &path.key("side"), &raw.side);
    if let Some(army) = &raw.army {
        match refs.armies.get(army) {
            None => {
                let known: Vec<&str> = refs.armies.keys().map(String::as_str).collect();
                ctx.err(
                    &path.key("army"),
                    format!("unknown army '{army}'"),
                    format!("armies: {}", known.join(", ")),
                );
            }
            Some(side) if side != &raw.side => ctx.err(
                &path.key("army"),
                format!("army '{army}' belongs to side '{side}', not '{}'", raw.side),
                "correct the side or the army",
            ),
            Some(_) => {}
        }
    }
    let pos = match (&raw.position, entry) {
        (Some(p), _) => position(ctx, refs, &path.key("position"), p)?,
        (None, Some(e)) => e.clone(),
        (None, None) => {
            ctx.err(
                path,
                "a force needs a position",
                "add position: {hex: \"0114\"} (or off_map)",
            );
            return None;
        }
    };
    if !side_ok {
        return None;
    }
    let force_id = (!raw.loose).then_some(raw.id.as_str());
    if !raw.loose {
        ctx.once(
            &mut refs.ids,
            raw.id.clone(),
            &path.key("id"),
            "id",
            &raw.id,
        );
    }
    let label = raw
        .label
        .as_deref()
        .or_else(|| raw.leaders.first().map(|l| l.name.as_str()))
        .or(raw.place.as_deref());
    let at = Placement {
        prefix: &raw.id,
        side: &raw.side,
        army: raw.army.as_deref(),
        position: &pos,
        force: force_id,
        label,
    };
    for (list, key, kind) in [
        (&raw.leaders, "leaders", CounterKind::Leader),
        (&raw.units, "units", CounterKind::Unit),
        (&raw.markers, "markers", CounterKind::Marker),
    ] {
        for (i, c) in list.iter().enumerate() {
            counters(ctx, refs, &path.key(key).index(i), c, kind, &at, out);
        }
    }
    // A loose group (pool, breakdown units) is not a Force.
    if raw.loose {
        return None;
    }
    if let Some(k) = &raw.keeps
        && !refs.ruleset.leaders.iter().any(|s| s.name == k.attribute)
    {
        ctx.err(
            &path.key("keeps").key("attribute"),
            format!(
                "'{}' is not a leader attribute of ruleset '{}'",
                k.attribute, refs.ruleset.id
            ),
            declared_hint(&refs.ruleset.leaders),
        );
    }
    Some(ForceSpec {
        id: raw.id.clone(),
        side: raw.side.clone(),
        army: raw.army.clone(),
        position: pos,
        place: raw.place.clone(),
        order: raw.order.clone(),
        note: raw.note.clone(),
        unplaced: raw.unplaced,
        keeps: raw.keeps.as_ref().map(|k| super::super::ForceKeeps {
            attribute: k.attribute.clone(),
            through_turn: k.through_turn,
            rule: k.rule.clone(),
            source: k.source.clone(),
            text: k.text.clone(),
        }),
    })
}

/// Gives every counter a name no other counter has, made from the words of the text: a name
/// the scenario uses once stays as it is; others take the words of their group ("French
/// Gendarmes (Chaumont)") and, where that is still shared, a number in order of listing
/// ("Swiss Infantry (Breakdown) 3"). Ids are never used: they are for arguments and JSON.
pub(super) fn unique_names(
    qualifiers: &BTreeMap<String, String>,
    mut counters: Vec<&mut CounterSpec>,
) {
    let mut times: BTreeMap<String, usize> = BTreeMap::new();
    for c in &counters {
        *times.entry(c.name.clone()).or_default() += 1;
    }
    let qualified: Vec<String> = counters
        .iter()
        .map(|c| match qualifiers.get(&c.id) {
            // "Italian Infantry (French service)" + Chaumont → "(French service, Chaumont)".
            Some(q) if times[&c.name] > 1 && *q != c.name => match c.name.strip_suffix(')') {
                Some(open) => format!("{open}, {q})"),
                None => format!("{} ({q})", c.name),
            },
            _ => c.name.clone(),
        })
        .collect();
    let mut shared: BTreeMap<&str, usize> = BTreeMap::new();
    for q in &qualified {
        *shared.entry(q.as_str()).or_default() += 1;
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (c, q) in counters.iter_mut().zip(&qualified) {
        c.name = if shared[q.as_str()] > 1 {
            let n = seen.entry(q.as_str()).or_default();
            *n += 1;
            format!("{q} {n}")
        } else {
            q.clone()
        };
    }
}

/// The hint for an attribute the ruleset does not declare: the ones it does.
pub(super) fn declared_hint(specs: &[AttributeSpec]) -> String {
    format!(
        "declared: {}",
        specs
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Names from `known`, for a hint.
pub(super) fn listed<'k>(known: impl IntoIterator<Item = &'k String>) -> String {
    let v: Vec<&str> = known.into_iter().map(String::as_str).collect();
    if v.is_empty() {
        "none declared".into()
    } else {
        v.join(", ")
    }
}

/// Every leader counter of the scenario: at the start, as a reinforcement or a conditional one.
pub(super) fn leader_ids(
    start: &[CounterSpec],
    reinforcements: &[Reinforcement],
    conditional: &[ConditionalReinforcement],
) -> BTreeSet<String> {
    start
        .iter()
        .chain(reinforcements.iter().flat_map(|r| &r.counters))
        .chain(conditional.iter().flat_map(|r| &r.counters))
        .filter(|c| c.kind == CounterKind::Leader)
        .map(|c| c.id.clone())
        .collect()
}

/// The forces on the map at the start, and their counters.
pub(super) fn start_forces(
    ctx: &mut Ctx,
    refs: &mut Refs,
    raw: &RawScenario,
) -> (Vec<ForceSpec>, Vec<CounterSpec>) {
    let mut forces = Vec::new();
    let mut counters = Vec::new();
    for (i, f) in raw.forces.iter().enumerate() {
        let p = YamlPath::root().key("forces").index(i);
        if let Some(f) = force(ctx, refs, &p, f, None, &mut counters) {
            forces.push(f);
        }
    }
    (forces, counters)
}
