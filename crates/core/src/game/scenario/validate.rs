//! Raw scenario → validated [`Scenario`], checked against its ruleset, with located errors.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use saphyr_parser::{Event, Parser, ScalarStyle};

use super::model::*;
use super::raw::*;
use crate::rules::locate::{YamlIndex, YamlPath};
use crate::rules::{
    AttributeKind, AttributeSpec, GeometryKind, Library, LoadError, LoadErrors, Ruleset,
    SourceFile, Value,
};

/// Month names of the 5-day turn calendar.
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

struct Ctx<'a> {
    file: &'a SourceFile,
    index: YamlIndex,
    /// Start positions of plain (unquoted) scalars.
    plain: HashSet<(usize, usize)>,
    errors: Vec<LoadError>,
}

impl<'a> Ctx<'a> {
    fn new(file: &'a SourceFile) -> Ctx<'a> {
        let mut plain = HashSet::new();
        for item in Parser::new_from_str(&file.text) {
            let Ok((event, span)) = item else { break };
            if let Event::Scalar(_, ScalarStyle::Plain, ..) = event {
                plain.insert((span.start.line(), span.start.col() + 1));
            }
        }
        Ctx {
            file,
            index: YamlIndex::build(&file.text),
            plain,
            errors: Vec::new(),
        }
    }

    fn err(&mut self, path: &YamlPath, problem: impl Into<String>, hint: impl Into<String>) {
        let (line, column) = self.index.locate(path);
        let mut problem = problem.into();
        if !path.0.is_empty() {
            problem = format!("{path}: {problem}");
        }
        self.errors.push(LoadError {
            file: self.file.name.clone(),
            line,
            column,
            problem,
            hint: hint.into(),
        });
    }

    /// Whether the scalar at `path` was written without quotes.
    fn is_plain(&self, path: &YamlPath) -> bool {
        self.plain.contains(&self.index.locate(path))
    }
}

/// The same deserialisation, with the same located errors, as ruleset files.
fn parse_yaml<T: serde::de::DeserializeOwned>(file: &SourceFile) -> Result<T, LoadError> {
    crate::rules::validate::parse_yaml(file)
}

/// Labels of a 5-day-turn calendar: "<Month>, <n>", six turns to a month, the year shown on
/// turn 1 and when it changes ("January, 1 (1525)"). ailsh digest §6.3; L1703–1704.
pub fn five_day_calendar(
    month: usize,
    turn: u32,
    year: i32,
    turns_per_month: u32,
    count: u32,
) -> Vec<String> {
    let (mut m, mut t, mut y) = (month, turn, year);
    let mut out = Vec::new();
    for i in 0..count {
        let label = format!("{}, {t}", MONTHS[m % 12]);
        if i == 0 || (m % 12 == 0 && t == 1) {
            out.push(format!("{label} ({y})"));
        } else {
            out.push(label);
        }
        t += 1;
        if t > turns_per_month {
            t = 1;
            m += 1;
            if m == 12 {
                m = 0;
                y += 1;
            }
        }
    }
    out
}

/// Splits `sp` Strength Points over counters of the given maximum strengths, as evenly as
/// possible: each SP goes to the counter holding least that still has room, larger counters
/// first on ties. `None` if the SPs do not fit (`count ≤ sp ≤ Σ max`).
pub fn distribute_sp(sp: u32, maxima: &[u32]) -> Option<Vec<u32>> {
    let total: u32 = maxima.iter().sum();
    if maxima.is_empty() || sp < maxima.len() as u32 || sp > total {
        return None;
    }
    let mut order: Vec<usize> = (0..maxima.len()).collect();
    order.sort_by(|&a, &b| maxima[b].cmp(&maxima[a]).then(a.cmp(&b)));
    let mut held = vec![0u32; maxima.len()];
    for _ in 0..sp {
        let next = order
            .iter()
            .copied()
            .filter(|&i| held[i] < maxima[i])
            .min_by_key(|&i| held[i])?;
        held[next] += 1;
    }
    Some(held)
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

struct Refs<'r> {
    ruleset: &'r Ruleset,
    sides: BTreeSet<String>,
    armies: BTreeMap<String, String>,
    strength: Option<(String, String)>,
    ids: BTreeSet<String>,
    calendar: Vec<String>,
    turns: u32,
    notes: Vec<CounterNote>,
    unknown_units: Vec<String>,
    unknown_leaders: Vec<String>,
    /// Counters' `map_table` values and where they are written, checked against the
    /// `megagame:` section's tables.
    map_tables: Vec<(YamlPath, String)>,
    /// Counter id → the words of its group ("Chaumont", "Breakdown"), for [`unique_names`].
    qualifiers: BTreeMap<String, String>,
}

fn position(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, raw: &RawPosition) -> Option<Position> {
    let given = [
        raw.hex.is_some(),
        raw.area.is_some(),
        raw.x.is_some() || raw.y.is_some(),
        raw.off_map.is_some(),
    ];
    if given.iter().filter(|g| **g).count() != 1 {
        ctx.err(
            path,
            "a position needs exactly one of hex, area, x and y, off_map",
            "write e.g. {hex: \"0114\"}, {area: Milano}, {x: 12.5, y: 3}, {off_map: reinforcement pool}",
        );
        return None;
    }
    if let Some(hex) = &raw.hex {
        return hex_position(ctx, refs, path, hex);
    }
    if let Some(area) = &raw.area {
        if geometry_kind(refs) != Some(GeometryKind::Area) {
            wrong_geometry(ctx, refs, path, "an area");
            return None;
        }
        if area.trim().is_empty() {
            ctx.err(&path.key("area"), "empty area name", "name the area");
            return None;
        }
        return Some(Position::Area(area.clone()));
    }
    if let Some(off) = &raw.off_map {
        if off.trim().is_empty() {
            ctx.err(
                &path.key("off_map"),
                "empty off-map place",
                "say where: reinforcement pool, breakdown units available…",
            );
            return None;
        }
        return Some(Position::OffMap(off.clone()));
    }
    free_position(ctx, refs, path, raw.x, raw.y)
}

/// The kind of geometry the scenario's ruleset has, if any.
fn geometry_kind(refs: &Refs) -> Option<GeometryKind> {
    refs.ruleset.geometry.as_ref().map(|g| g.kind)
}

/// A position of a kind the ruleset's geometry does not have.
fn wrong_geometry(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, what: &str) {
    ctx.err(
        path,
        format!(
            "{what} position, but ruleset '{}' has {} geometry",
            refs.ruleset.id,
            match geometry_kind(refs) {
                Some(GeometryKind::Hex) => "hex",
                Some(GeometryKind::Area) => "area",
                Some(GeometryKind::Free) => "free-form",
                None => "no",
            }
        ),
        "use the kind of position the ruleset's geometry gives, or off_map",
    );
}

/// `{hex: "0114"}`: a quoted id of the digits the ruleset's hex ids have.
fn hex_position(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, hex: &RawName) -> Option<Position> {
    let p = path.key("hex");
    let text = match hex {
        RawName::Text(t) if ctx.is_plain(&p) && t.chars().all(|c| c.is_ascii_digit()) => {
            ctx.err(
                &p,
                format!("hex id {t} is written as a number"),
                format!("quote it so that it stays a string with its leading zeros: \"{t}\""),
            );
            return None;
        }
        RawName::Text(t) => t.clone(),
        RawName::Int(i) => {
            ctx.err(
                &p,
                format!("hex id {i} is written as a number"),
                format!("quote it so that it stays a string with its leading zeros: \"{i:04}\""),
            );
            return None;
        }
        RawName::Float(f) => {
            ctx.err(
                &p,
                format!("hex id {f} is a number"),
                "write the hex id as a quoted string: \"0114\"",
            );
            return None;
        }
    };
    if geometry_kind(refs) != Some(GeometryKind::Hex) {
        wrong_geometry(ctx, refs, path, "a hex");
        return None;
    }
    let digits = refs.ruleset.geometry.as_ref().and_then(|g| g.hex_id_digits);
    let bad = text.is_empty()
        || digits.is_some_and(|d| {
            text.chars().count() != d as usize || !text.chars().all(|c| c.is_ascii_digit())
        });
    if bad {
        ctx.err(
            &p,
            format!("'{text}' is not a hex id of ruleset '{}'", refs.ruleset.id),
            match digits {
                Some(d) => format!("write {d} digits in quotes, e.g. \"0114\""),
                None => "write the hex id in quotes".to_string(),
            },
        );
        return None;
    }
    Some(Position::Hex(text))
}

/// `{x: 12.5, y: 3}`: both finite, in base units, on a free-form ruleset.
fn free_position(
    ctx: &mut Ctx,
    refs: &Refs,
    path: &YamlPath,
    x: Option<f64>,
    y: Option<f64>,
) -> Option<Position> {
    let (Some(x), Some(y)) = (x, y) else {
        ctx.err(
            path,
            "a free position needs both x and y",
            "add the missing one",
        );
        return None;
    };
    if geometry_kind(refs) != Some(GeometryKind::Free) {
        wrong_geometry(ctx, refs, path, "a free-form");
        return None;
    }
    if !(x.is_finite() && y.is_finite()) {
        ctx.err(
            path,
            "x and y must be finite numbers",
            "write numbers in base units",
        );
        return None;
    }
    Some(Position::Free { x, y })
}

fn check_side(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, side: &str) -> bool {
    if refs.sides.contains(side) || refs.armies.contains_key(side) {
        return true;
    }
    let known: Vec<&str> = refs.sides.iter().map(String::as_str).collect();
    ctx.err(
        path,
        format!("unknown side '{side}'"),
        format!("sides: {}", known.join(", ")),
    );
    false
}

fn attribute_value(spec: &AttributeSpec, raw: &RawValue) -> Result<Value, String> {
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

struct Placement<'p> {
    /// Prefix of generated counter ids (the force's id).
    prefix: &'p str,
    side: &'p str,
    army: Option<&'p str>,
    position: &'p Position,
    force: Option<&'p str>,
    /// The words that tell this group's counters from others of the same name.
    label: Option<&'p str>,
}

/// A counter entry's strength points and maximum, one pair per physical counter; `None`
/// when the entry cannot be split (the error is reported).
type Strengths = Vec<(Option<u32>, Option<u32>)>;

fn counters(
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
        if !refs.ids.insert(id.clone()) {
            ctx.err(
                path,
                format!("counter id '{id}' is used twice"),
                "give this entry its own id: …",
            );
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
fn counter_attributes(
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
fn strengths(
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
fn counter_unknowns(
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
fn force(
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
    if !raw.loose && !refs.ids.insert(raw.id.clone()) {
        ctx.err(
            &path.key("id"),
            format!("id '{}' is used twice", raw.id),
            "use a unique id",
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
    Some(ForceSpec {
        id: raw.id.clone(),
        side: raw.side.clone(),
        army: raw.army.clone(),
        position: pos,
        place: raw.place.clone(),
        order: raw.order.clone(),
        note: raw.note.clone(),
    })
}

/// A turn given as a label, a number or `at_start`.
fn turn(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, raw: &RawName) -> Option<u32> {
    let n = match raw {
        RawName::Int(i) => u32::try_from(*i).ok(),
        RawName::Text(t) if t == "at_start" => Some(1),
        RawName::Text(t) => turn_of_label(&refs.calendar, t),
        RawName::Float(_) => None,
    };
    match n {
        Some(n) if (1..=refs.turns).contains(&n) => Some(n),
        _ => {
            let text = match raw {
                RawName::Int(i) => i.to_string(),
                RawName::Text(t) => t.clone(),
                RawName::Float(f) => f.to_string(),
            };
            ctx.err(
                path,
                format!("'{text}' is not a turn of this scenario"),
                format!(
                    "write a turn 1–{} or a calendar label ({} … {})",
                    refs.turns,
                    refs.calendar.first().map_or("", String::as_str),
                    refs.calendar.last().map_or("", String::as_str)
                ),
            );
            None
        }
    }
}

fn text_items(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, raw: &[RawText]) -> Vec<TextItem> {
    let mut ids = BTreeSet::new();
    let mut out = Vec::new();
    for (i, t) in raw.iter().enumerate() {
        let p = path.index(i);
        if !ids.insert(t.id.clone()) {
            ctx.err(
                &p.key("id"),
                format!("id '{}' is used twice", t.id),
                "use a unique id",
            );
        }
        if let Some(side) = &t.side {
            check_side(ctx, refs, &p.key("side"), side);
        }
        if let Some(proc_id) = &t.procedure
            && refs.ruleset.procedure(proc_id).is_none()
        {
            ctx.err(
                &p.key("procedure"),
                format!("ruleset '{}' has no procedure '{proc_id}'", refs.ruleset.id),
                "name a procedure of the ruleset",
            );
        }
        out.push(TextItem {
            id: t.id.clone(),
            title: t.title.clone(),
            text: t.text.trim().to_string(),
            side: t.side.clone(),
            procedure: t.procedure.clone(),
            rule: t.rule.clone(),
            source_lines: t.source.clone(),
        });
    }
    out
}

/// Loads and validates a scenario against the loaded rulesets. Either everything loads or
/// nothing does.
pub fn load_scenario(file: &SourceFile, rulesets: &Library) -> Result<Scenario, LoadErrors> {
    let raw: RawScenario = parse_yaml(file).map_err(|e| LoadErrors(vec![e]))?;
    let mut ctx = Ctx::new(file);
    let root = YamlPath::root();
    let ruleset = scenario_ruleset(&mut ctx, &raw, rulesets)?;
    let calendar = calendar(&mut ctx, &raw);
    let (sides, side_ids) = sides(&mut ctx, &raw);
    let (armies, army_sides) = armies(&mut ctx, &raw, &side_ids);
    let strength = strength(&mut ctx, &raw, ruleset);
    let defaults = unknown_defaults(&mut ctx, &raw, ruleset);
    let mut refs = Refs {
        ruleset,
        sides: side_ids,
        armies: army_sides,
        strength,
        ids: BTreeSet::new(),
        calendar: calendar.clone(),
        turns: raw.turns,
        notes: Vec::new(),
        unknown_units: defaults.units,
        unknown_leaders: defaults.leaders,
        map_tables: Vec::new(),
        qualifiers: BTreeMap::new(),
    };
    if let Some(fp) = &raw.first_player {
        check_side(&mut ctx, &refs, &root.key("first_player"), fp);
    }
    let (forces, mut start_counters) = start_forces(&mut ctx, &mut refs, &raw);
    let reinforcements = reinforcements(&mut ctx, &mut refs, &raw);
    let special_rules = text_items(
        &mut ctx,
        &refs,
        &root.key("special_rules"),
        &raw.special_rules,
    );
    let conditional = conditional_reinforcements(&mut ctx, &mut refs, &raw, &special_rules);
    let schedules = schedules(&mut ctx, &refs, &raw);
    let supply_sources = supply_sources(&mut ctx, &refs, &raw);
    let holdings = holdings(&mut ctx, &refs, &raw);
    let capitano_cards = capitano_cards(&mut ctx, &refs, &raw);
    let regions = raw
        .regions
        .iter()
        .map(|r| RegionAlignment {
            region: r.region.clone(),
            alignment: r.alignment.clone(),
            alternative: r.alternative.clone(),
            note: r.note.clone(),
        })
        .collect();
    let victory = text_items(&mut ctx, &refs, &root.key("victory"), &raw.victory);
    let rulings = text_items(&mut ctx, &refs, &root.key("rulings"), &raw.rulings);
    let megagame = raw.megagame.as_ref().map(|m| {
        let leaders = leader_ids(&start_counters, &reinforcements, &conditional);
        megagame_section(
            &mut ctx,
            &mut refs,
            &root.key("megagame"),
            m,
            &leaders,
            &mut start_counters,
        )
    });

    if !ctx.errors.is_empty() {
        return Err(LoadErrors(ctx.errors));
    }
    let mut reinforcements = reinforcements;
    let mut conditional = conditional;
    unique_names(
        &refs.qualifiers,
        start_counters
            .iter_mut()
            .chain(
                reinforcements
                    .iter_mut()
                    .flat_map(|r| r.counters.iter_mut()),
            )
            .chain(conditional.iter_mut().flat_map(|r| r.counters.iter_mut()))
            .collect(),
    );
    Ok(Scenario {
        id: raw.id,
        ruleset: raw.ruleset,
        title: raw.title,
        source: raw.source,
        date: raw.date,
        turns: raw.turns,
        calendar,
        sides,
        armies,
        first_player: raw.first_player,
        map: raw.map,
        forces,
        counters: start_counters,
        counter_notes: refs.notes,
        reinforcements,
        conditional_reinforcements: conditional,
        schedules,
        supply_sources,
        regions,
        holdings,
        capitano_cards,
        victory,
        special_rules,
        rulings,
        notes: raw.notes,
        megagame,
        places: refs
            .ruleset
            .geometry
            .as_ref()
            .map(|g| g.places.clone())
            .unwrap_or_default(),
    })
}

/// Gives every counter a name no other counter has, made from the words of the text: a name
/// the scenario uses once stays as it is; others take the words of their group ("French
/// Gendarmes (Chaumont)") and, where that is still shared, a number in order of listing
/// ("Swiss Infantry (Breakdown) 3"). Ids are never used: they are for arguments and JSON.
fn unique_names(qualifiers: &BTreeMap<String, String>, mut counters: Vec<&mut CounterSpec>) {
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

/// The ruleset the scenario names, loaded; an error naming it when it is unknown or failed.
fn scenario_ruleset<'l>(
    ctx: &mut Ctx,
    raw: &RawScenario,
    rulesets: &'l Library,
) -> Result<&'l Ruleset, LoadErrors> {
    if let Some(ruleset) = rulesets.get(&raw.ruleset) {
        return Ok(ruleset);
    }
    let failed = rulesets.errors(&raw.ruleset).is_some();
    ctx.err(
        &YamlPath::root().key("ruleset"),
        if failed {
            format!("ruleset '{}' failed to load", raw.ruleset)
        } else {
            format!("unknown ruleset '{}'", raw.ruleset)
        },
        format!("loaded rulesets: {}", rulesets.ids().join(", ")),
    );
    Err(LoadErrors(std::mem::take(&mut ctx.errors)))
}

/// The turn labels: a five-day calendar from its start, or the scenario's own labels.
fn calendar(ctx: &mut Ctx, raw: &RawScenario) -> Vec<String> {
    let root = YamlPath::root();
    if raw.turns == 0 {
        ctx.err(
            &root.key("turns"),
            "a scenario needs at least one turn",
            "write turns: 1 or more",
        );
    }
    let cal = &raw.calendar;
    let cal_path = root.key("calendar");
    match (&cal.start, &cal.labels) {
        (Some(start), None) => {
            let per = cal.turns_per_month.unwrap_or(6);
            let month = MONTHS.iter().position(|m| *m == start.month);
            match month {
                Some(m) if (1..=per).contains(&start.turn) && per > 0 => {
                    five_day_calendar(m, start.turn, start.year, per, raw.turns)
                }
                _ => {
                    ctx.err(
                        &cal_path.key("start"),
                        format!(
                            "'{}, {}' is not a turn of the calendar",
                            start.month, start.turn
                        ),
                        format!("a month name in English and a turn 1–{per}"),
                    );
                    Vec::new()
                }
            }
        }
        (None, Some(labels)) => {
            if labels.len() != raw.turns as usize {
                ctx.err(
                    &cal_path.key("labels"),
                    format!("{} labels for {} turns", labels.len(), raw.turns),
                    "give one label per turn",
                );
            }
            labels.clone()
        }
        _ => {
            ctx.err(
                &cal_path,
                "a calendar needs either start or labels",
                "write start: {month: April, turn: 4, year: 1509} or labels: [...]",
            );
            Vec::new()
        }
    }
}

/// The scenario's sides, each id once.
fn sides(ctx: &mut Ctx, raw: &RawScenario) -> (Vec<SideSpec>, BTreeSet<String>) {
    let root = YamlPath::root();
    let mut sides = Vec::new();
    let mut side_ids = BTreeSet::new();
    for (i, s) in raw.sides.iter().enumerate() {
        if !side_ids.insert(s.id.clone()) {
            ctx.err(
                &root.key("sides").index(i).key("id"),
                format!("side '{}' twice", s.id),
                "use a unique id",
            );
        }
        sides.push(SideSpec {
            id: s.id.clone(),
            name: s.name.clone(),
            armies: s.armies.clone(),
        });
    }
    (sides, side_ids)
}

/// The scenario's armies, each of a declared side, and the sides' army lists checked against
/// them; the army → side map.
fn armies(
    ctx: &mut Ctx,
    raw: &RawScenario,
    side_ids: &BTreeSet<String>,
) -> (Vec<ArmySpec>, BTreeMap<String, String>) {
    let root = YamlPath::root();
    let mut army_sides = BTreeMap::new();
    let mut armies = Vec::new();
    for (i, a) in raw.armies.iter().enumerate() {
        let p = root.key("armies").index(i);
        if !side_ids.contains(&a.side) {
            ctx.err(
                &p.key("side"),
                format!("unknown side '{}'", a.side),
                "name a side id",
            );
        }
        if army_sides.insert(a.id.clone(), a.side.clone()).is_some()
            || side_ids.contains(&a.id) && a.id != a.side
        {
            ctx.err(
                &p.key("id"),
                format!("army id '{}' is used twice", a.id),
                "use a unique id",
            );
        }
        armies.push(ArmySpec {
            id: a.id.clone(),
            name: a.name.clone(),
            side: a.side.clone(),
            capitani_generali: a.capitani_generali.clone(),
            minor_capitani: a.minor_capitani.clone(),
            note: a.note.clone(),
        });
    }
    for (i, s) in raw.sides.iter().enumerate() {
        for (j, a) in s.armies.iter().enumerate() {
            if army_sides.get(a) != Some(&s.id) {
                ctx.err(
                    &root.key("sides").index(i).key("armies").index(j),
                    format!("army '{a}' is not declared for side '{}'", s.id),
                    "declare it under armies: with this side",
                );
            }
        }
    }
    (armies, army_sides)
}

/// Which unit attributes hold a counter's strength points and maximum (both int attributes).
fn strength(ctx: &mut Ctx, raw: &RawScenario, ruleset: &Ruleset) -> Option<(String, String)> {
    let root = YamlPath::root();
    let strength = raw
        .strength
        .as_ref()
        .map(|s| (s.points.clone(), s.maximum.clone()));
    if let Some((points, maximum)) = &strength {
        for (key, name) in [("points", points), ("maximum", maximum)] {
            let ok = ruleset
                .units
                .iter()
                .any(|u| u.name == *name && matches!(u.kind, AttributeKind::Int { .. }));
            if !ok {
                ctx.err(
                    &root.key("strength").key(key),
                    format!(
                        "'{name}' is not a number attribute of the units of ruleset '{}'",
                        ruleset.id
                    ),
                    "name a declared int unit attribute",
                );
            }
        }
    }
    strength
}

/// The attributes the text is silent on for every unit or leader, each one declared.
fn unknown_defaults(ctx: &mut Ctx, raw: &RawScenario, ruleset: &Ruleset) -> RawUnknownDefaults {
    let root = YamlPath::root();
    let defaults = raw.unknown_defaults.clone().unwrap_or_default();
    for (key, names, specs) in [
        ("units", &defaults.units, &ruleset.units),
        ("leaders", &defaults.leaders, &ruleset.leaders),
    ] {
        for (i, n) in names.iter().enumerate() {
            if !specs.iter().any(|s| s.name == *n) {
                ctx.err(
                    &root.key("unknown_defaults").key(key).index(i),
                    format!("unknown {key} attribute '{n}' in ruleset '{}'", ruleset.id),
                    declared_hint(specs),
                );
            }
        }
    }
    defaults
}

/// Every leader counter of the scenario: at the start, as a reinforcement or a conditional one.
fn leader_ids(
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
fn start_forces(
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

/// Reinforcements by turn, each force placed at its entry.
fn reinforcements(ctx: &mut Ctx, refs: &mut Refs, raw: &RawScenario) -> Vec<Reinforcement> {
    let root = YamlPath::root();
    let mut reinforcements = Vec::new();
    for (i, r) in raw.reinforcements.iter().enumerate() {
        let p = root.key("reinforcements").index(i);
        let t = turn(ctx, refs, &p.key("turn"), &r.turn);
        let entry = position(ctx, refs, &p.key("entry"), &r.entry);
        let mut cs = Vec::new();
        for (j, f) in r.forces.iter().enumerate() {
            let q = p.key("forces").index(j);
            force(ctx, refs, &q, f, entry.as_ref(), &mut cs);
        }
        if let (Some(turn), Some(entry)) = (t, entry) {
            reinforcements.push(Reinforcement {
                turn,
                entry,
                counters: cs,
                note: r.note.clone(),
            });
        }
    }
    reinforcements.sort_by_key(|r| r.turn);
    reinforcements
}

/// Reinforcements that arrive when a special rule of the scenario says so.
fn conditional_reinforcements(
    ctx: &mut Ctx,
    refs: &mut Refs,
    raw: &RawScenario,
    special_rules: &[TextItem],
) -> Vec<ConditionalReinforcement> {
    let root = YamlPath::root();
    let mut conditional = Vec::new();
    for (i, r) in raw.conditional_reinforcements.iter().enumerate() {
        let p = root.key("conditional_reinforcements").index(i);
        if !special_rules.iter().any(|s| s.id == r.rule) {
            ctx.err(
                &p.key("rule"),
                format!("no special rule '{}'", r.rule),
                "name the id of a special rule of this scenario",
            );
        }
        let entry = position(ctx, refs, &p.key("entry"), &r.entry);
        let mut cs = Vec::new();
        for (j, f) in r.forces.iter().enumerate() {
            let q = p.key("forces").index(j);
            force(ctx, refs, &q, f, entry.as_ref(), &mut cs);
        }
        if let Some(entry) = entry {
            conditional.push(ConditionalReinforcement {
                id: r.id.clone(),
                rule: r.rule.clone(),
                entry,
                counters: cs,
                note: r.note.clone(),
            });
        }
    }
    conditional
}

/// The scenario's schedules: turns (and amounts by turn), side and procedure checked.
fn schedules(ctx: &mut Ctx, refs: &Refs, raw: &RawScenario) -> Vec<Schedule> {
    let root = YamlPath::root();
    let mut schedules = Vec::new();
    for (i, s) in raw.schedules.iter().enumerate() {
        let p = root.key("schedules").index(i);
        if let Some(side) = &s.side {
            check_side(ctx, refs, &p.key("side"), side);
        }
        if let Some(proc_id) = &s.procedure
            && refs.ruleset.procedure(proc_id).is_none()
        {
            ctx.err(
                &p.key("procedure"),
                format!("ruleset '{}' has no procedure '{proc_id}'", refs.ruleset.id),
                "name a procedure of the ruleset",
            );
        }
        let mut turns = BTreeSet::new();
        for (j, t) in s.turns.iter().enumerate() {
            if let Some(n) = turn(ctx, refs, &p.key("turns").index(j), t) {
                turns.insert(n);
            }
        }
        let mut amounts = Vec::new();
        for (j, a) in s.amounts.iter().enumerate() {
            let q = p.key("amounts").index(j);
            if let Some(n) = turn(ctx, refs, &q.key("turn"), &a.turn) {
                if amounts.iter().any(|(t, _)| *t == n) {
                    ctx.err(
                        &q,
                        format!("turn {n} is given twice"),
                        "give each turn once",
                    );
                }
                turns.insert(n);
                amounts.push((n, a.amount));
            }
        }
        amounts.sort_by_key(|(t, _)| *t);
        if let Some(step) = &s.step
            && !crate::game::sequence::leaf_steps(refs.ruleset)
                .iter()
                .any(|l| l.id == *step)
        {
            ctx.err(
                &p.key("step"),
                format!("ruleset '{}' has no step '{step}'", refs.ruleset.id),
                "name a step of the ruleset's Sequence of Play (one without sub-steps)",
            );
        }
        let credit = s.credit.as_ref().and_then(|c| {
            let q = p.key("credit");
            if !refs.ids.contains(&c.counter) {
                ctx.err(
                    &q.key("counter"),
                    format!("no counter '{}' in this scenario", c.counter),
                    "name the id of a counter (e.g. the army's AP marker)",
                );
                return None;
            }
            let whole = refs.ruleset.units.iter().any(|a| {
                a.name == c.attribute && matches!(a.kind, crate::rules::AttributeKind::Int { .. })
            });
            if !whole {
                ctx.err(
                    &q.key("attribute"),
                    format!(
                        "'{}' is not a whole-number unit attribute of the ruleset",
                        c.attribute
                    ),
                    declared_hint(&refs.ruleset.units),
                );
                return None;
            }
            Some(Credit {
                counter: c.counter.clone(),
                attribute: c.attribute.clone(),
            })
        });
        schedules.push(Schedule {
            id: s.id.clone(),
            name: s.name.clone(),
            turns: turns.into_iter().collect(),
            procedure: s.procedure.clone(),
            step: s.step.clone(),
            mandatory: s.mandatory.unwrap_or(true),
            side: s.side.clone(),
            amounts,
            credit,
            note: s.note.clone(),
        });
    }
    schedules
}

/// Supply sources, each of a known army at a valid position.
fn supply_sources(ctx: &mut Ctx, refs: &Refs, raw: &RawScenario) -> Vec<SupplySource> {
    let root = YamlPath::root();
    let mut supply_sources = Vec::new();
    for (i, s) in raw.supply_sources.iter().enumerate() {
        let p = root.key("supply_sources").index(i);
        check_side(ctx, refs, &p.key("army"), &s.army);
        if let Some(pos) = position(ctx, refs, &p.key("position"), &s.position) {
            supply_sources.push(SupplySource {
                army: s.army.clone(),
                position: pos,
                label: s.label.clone(),
                note: s.note.clone(),
            });
        }
    }
    supply_sources
}

/// Places held at the start, each by a known side at a valid position.
fn holdings(ctx: &mut Ctx, refs: &Refs, raw: &RawScenario) -> Vec<Holding> {
    let root = YamlPath::root();
    let mut holdings = Vec::new();
    for (i, h) in raw.holdings.iter().enumerate() {
        let p = root.key("holdings").index(i);
        check_side(ctx, refs, &p.key("side"), &h.side);
        if let Some(pos) = position(ctx, refs, &p.key("position"), &h.position) {
            holdings.push(Holding {
                place: h.place.clone(),
                position: pos,
                side: h.side.clone(),
                status: h.status.clone(),
            });
        }
    }
    holdings
}

/// Capitano cards, each of a known army.
fn capitano_cards(ctx: &mut Ctx, refs: &Refs, raw: &RawScenario) -> Vec<CapitanoCard> {
    let root = YamlPath::root();
    let mut capitano_cards = Vec::new();
    for (i, c) in raw.capitano_cards.iter().enumerate() {
        check_side(
            ctx,
            refs,
            &root.key("capitano_cards").index(i).key("army"),
            &c.army,
        );
        capitano_cards.push(CapitanoCard {
            army: c.army.clone(),
            name: c.name.clone(),
            card: c.card,
        });
    }
    capitano_cards
}

/// The hint for an attribute the ruleset does not declare: the ones it does.
fn declared_hint(specs: &[AttributeSpec]) -> String {
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
fn listed<'k>(known: impl IntoIterator<Item = &'k String>) -> String {
    let v: Vec<&str> = known.into_iter().map(String::as_str).collect();
    if v.is_empty() {
        "none declared".into()
    } else {
        v.join(", ")
    }
}

/// Validates the `megagame:` section; each state's ledger becomes an off-map counter of kind
/// [`CounterKind::State`] in `out`.
fn megagame_section(
    ctx: &mut Ctx,
    refs: &mut Refs,
    path: &YamlPath,
    raw: &RawMegagame,
    leaders: &BTreeSet<String>,
    out: &mut Vec<CounterSpec>,
) -> MegagameSpec {
    let (tables, table_ids) = map_tables(ctx, path, raw);
    // Counters work at declared tables.
    if !table_ids.is_empty() {
        for (p, t) in std::mem::take(&mut refs.map_tables) {
            check_table(ctx, &table_ids, &p, &t);
        }
    }
    let umpires = control(ctx, path, raw, &table_ids);
    let (states, state_ids) = states(ctx, refs, path, raw, &table_ids, out);
    let players = players(ctx, path, raw, leaders);
    let characters = character_links(ctx, refs, path, raw, leaders, &state_ids);
    MegagameSpec {
        tables,
        umpires,
        states,
        players,
        characters,
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
    }
}

/// The megagame's map tables, each id once; their ids.
fn map_tables(
    ctx: &mut Ctx,
    path: &YamlPath,
    raw: &RawMegagame,
) -> (Vec<MapTableSpec>, BTreeSet<String>) {
    let mut table_ids = BTreeSet::new();
    let mut tables = Vec::new();
    for (i, t) in raw.tables.iter().enumerate() {
        let p = path.key("tables").index(i);
        if t.id.trim().is_empty() {
            ctx.err(
                &p.key("id"),
                "empty table id",
                "give the table an id, e.g. the_east",
            );
        } else if !table_ids.insert(t.id.clone()) {
            ctx.err(
                &p.key("id"),
                format!("table '{}' is declared twice", t.id),
                "give each map table its own id",
            );
        }
        tables.push(MapTableSpec {
            id: t.id.clone(),
            name: t.name.clone(),
            rule: t.rule.clone(),
            source_lines: t.source.clone(),
            note: t.note.clone(),
        });
    }
    (tables, table_ids)
}

/// `table` must be one of the megagame's map tables.
fn check_table(ctx: &mut Ctx, table_ids: &BTreeSet<String>, p: &YamlPath, table: &str) {
    if !table_ids.contains(table) {
        ctx.err(
            p,
            format!("unknown map table '{table}'"),
            format!("tables of this scenario: {}", listed(table_ids)),
        );
    }
}

/// Every team named must be one of the scenario's sides.
fn check_teams(ctx: &mut Ctx, refs: &Refs, p: &YamlPath, teams: &[String]) {
    for (j, team) in teams.iter().enumerate() {
        if !refs.sides.contains(team) {
            ctx.err(
                &p.index(j),
                format!("unknown team '{team}'"),
                format!("teams are the scenario's sides: {}", listed(&refs.sides)),
            );
        }
    }
}

/// `id` must be a leader counter of the scenario (a megagame character).
fn check_character(ctx: &mut Ctx, leaders: &BTreeSet<String>, p: &YamlPath, id: &str) -> bool {
    if leaders.contains(id) {
        return true;
    }
    ctx.err(
        p,
        format!("'{id}' is not a character (leader counter) of this scenario"),
        "name a leader counter id",
    );
    false
}

/// Control: each umpire's role, and a Map Control's table.
fn control(
    ctx: &mut Ctx,
    path: &YamlPath,
    raw: &RawMegagame,
    table_ids: &BTreeSet<String>,
) -> Vec<UmpireSpec> {
    let mut umpires = Vec::new();
    for (i, u) in raw.umpires.iter().enumerate() {
        let p = path.key("umpires").index(i);
        let role = match u.role.parse::<ControlRole>() {
            Ok(r) => r,
            Err(e) => {
                ctx.err(
                    &p.key("role"),
                    e,
                    "write one of the six Control roles (The Control Team)",
                );
                continue;
            }
        };
        match &u.table {
            Some(t) => check_table(ctx, table_ids, &p.key("table"), t),
            None if role == ControlRole::Map => ctx.err(
                &p,
                format!("Map Control '{}' needs a table", u.name),
                format!(
                    "add table: one of {} — each map table has its own Map Control (The Map)",
                    listed(table_ids)
                ),
            ),
            None => {}
        }
        umpires.push(UmpireSpec {
            name: u.name.clone(),
            role,
            table: u.table.clone(),
            note: u.note.clone(),
        });
    }
    umpires
}

/// States and their ledgers; each ledger becomes a counter in `out`. Their ids.
fn states(
    ctx: &mut Ctx,
    refs: &mut Refs,
    path: &YamlPath,
    raw: &RawMegagame,
    table_ids: &BTreeSet<String>,
    out: &mut Vec<CounterSpec>,
) -> (Vec<StateSpec>, BTreeSet<String>) {
    let mut state_ids = BTreeSet::new();
    let mut states = Vec::new();
    for (i, st) in raw.states.iter().enumerate() {
        let p = path.key("states").index(i);
        if st.id.trim().is_empty() {
            ctx.err(
                &p.key("id"),
                "empty state id",
                "give the state an id, e.g. france",
            );
            continue;
        }
        if !state_ids.insert(st.id.clone()) {
            ctx.err(
                &p.key("id"),
                format!("state '{}' is declared twice", st.id),
                "give each state its own id",
            );
            continue;
        }
        check_teams(ctx, refs, &p.key("teams"), &st.teams);
        if let Some(t) = &st.table {
            check_table(ctx, table_ids, &p.key("table"), t);
        }
        let attributes = ledger(ctx, refs, &p, st);
        let counter = st
            .counter
            .clone()
            .unwrap_or_else(|| format!("state-{}", st.id));
        if !refs.ids.insert(counter.clone()) {
            ctx.err(
                &p.key("id"),
                format!("ledger counter id '{counter}' is already used"),
                "give the state another id, or its ledger a counter: id",
            );
            continue;
        }
        let side = st
            .teams
            .first()
            .cloned()
            .or_else(|| refs.sides.iter().next().cloned())
            .unwrap_or_default();
        out.push(CounterSpec {
            id: counter.clone(),
            name: st.name.clone(),
            printed: st.name.clone(),
            side,
            army: None,
            kind: CounterKind::State,
            attributes,
            unknown: st.unknown.clone(),
            position: Position::OffMap(format!("ledger: {}", st.name)),
            force: None,
        });
        states.push(StateSpec {
            id: st.id.clone(),
            name: st.name.clone(),
            counter,
            teams: st.teams.clone(),
            table: st.table.clone(),
            played: st.played,
            rule: st.rule.clone(),
            source_lines: st.source.clone(),
            note: st.note.clone(),
        });
    }
    (states, state_ids)
}

/// A state's ledger: the ruleset's unit attributes it gives, and those it lists as unknown.
fn ledger(ctx: &mut Ctx, refs: &Refs, p: &YamlPath, st: &RawState) -> BTreeMap<String, Value> {
    let mut attributes = BTreeMap::new();
    let units = &refs.ruleset.units;
    let undeclared = |ctx: &mut Ctx, q: &YamlPath, name: &str| {
        ctx.err(
            q,
            format!(
                "unknown ledger attribute '{name}' in ruleset '{}'",
                refs.ruleset.id
            ),
            format!(
                "ledgers take the ruleset's unit attributes: {}",
                listed(units.iter().map(|u| &u.name))
            ),
        );
    };
    for (name, value) in &st.ledger {
        let q = p.key("ledger").key(name);
        let Some(spec) = units.iter().find(|u| u.name == *name) else {
            undeclared(ctx, &q, name);
            continue;
        };
        match attribute_value(spec, value) {
            Ok(v) => {
                attributes.insert(name.clone(), v);
            }
            Err(e) => ctx.err(
                &q,
                format!("{name}: {e}"),
                spec.help
                    .clone()
                    .unwrap_or_else(|| "see the ruleset's units".into()),
            ),
        }
    }
    for (j, name) in st.unknown.iter().enumerate() {
        let q = p.key("unknown").index(j);
        if !units.iter().any(|u| u.name == *name) {
            undeclared(ctx, &q, name);
        } else if attributes.contains_key(name) {
            ctx.err(
                &q,
                format!("'{name}' is both given and listed as unknown"),
                "remove it from one of the two",
            );
        }
    }
    attributes
}

/// Players, each id once, each character played by one player.
fn players(
    ctx: &mut Ctx,
    path: &YamlPath,
    raw: &RawMegagame,
    leaders: &BTreeSet<String>,
) -> Vec<PlayerSpec> {
    let mut players = Vec::new();
    let mut played_by: BTreeMap<String, String> = BTreeMap::new();
    let mut player_ids = BTreeSet::new();
    for (i, pl) in raw.players.iter().enumerate() {
        let p = path.key("players").index(i);
        let id = pl.id.clone().unwrap_or_else(|| slug(&pl.name));
        if !player_ids.insert(id.clone()) {
            ctx.err(
                &p,
                format!("player id '{id}' is used twice"),
                "give the player an id: …",
            );
        }
        for (j, c) in pl.characters.iter().enumerate() {
            let q = p.key("characters").index(j);
            if check_character(ctx, leaders, &q, c)
                && let Some(other) = played_by.insert(c.clone(), id.clone())
            {
                ctx.err(
                    &q,
                    format!("character '{c}' is already played by '{other}'"),
                    "a character has one player at a time",
                );
            }
        }
        players.push(PlayerSpec {
            id,
            name: pl.name.clone(),
            characters: pl.characters.clone(),
        });
    }
    players
}

/// Characters' links to teams and states.
fn character_links(
    ctx: &mut Ctx,
    refs: &Refs,
    path: &YamlPath,
    raw: &RawMegagame,
    leaders: &BTreeSet<String>,
    state_ids: &BTreeSet<String>,
) -> Vec<CharacterLinks> {
    let mut characters = Vec::new();
    for (i, l) in raw.characters.iter().enumerate() {
        let p = path.key("characters").index(i);
        check_character(ctx, leaders, &p.key("character"), &l.character);
        check_teams(ctx, refs, &p.key("teams"), &l.teams);
        for (j, st) in l.states.iter().enumerate() {
            if !state_ids.contains(st) {
                ctx.err(
                    &p.key("states").index(j),
                    format!("unknown state '{st}'"),
                    format!("states of this scenario: {}", listed(state_ids)),
                );
            }
        }
        characters.push(CharacterLinks {
            character: l.character.clone(),
            teams: l.teams.clone(),
            states: l.states.clone(),
            rule: l.rule.clone(),
            source_lines: l.source.clone(),
        });
    }
    characters
}
