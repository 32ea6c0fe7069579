//! Where counters are: hexes, areas and free positions in the ruleset's geometry, sides named, turns.

use super::*;

pub(super) struct Refs<'r> {
    pub(super) ruleset: &'r Ruleset,
    pub(super) sides: BTreeSet<String>,
    pub(super) armies: BTreeMap<String, String>,
    pub(super) strength: Option<(String, String)>,
    pub(super) ids: BTreeSet<String>,
    pub(super) calendar: Vec<String>,
    pub(super) turns: u32,
    pub(super) notes: Vec<CounterNote>,
    pub(super) unknown_units: Vec<String>,
    pub(super) unknown_leaders: Vec<String>,
    /// Counters' `map_table` values and where they are written, checked against the
    /// `megagame:` section's tables.
    pub(super) map_tables: Vec<(YamlPath, String)>,
    /// Counter id → the words of its group ("Chaumont", "Breakdown"), for [`unique_names`].
    pub(super) qualifiers: BTreeMap<String, String>,
}

pub(super) fn position(
    ctx: &mut Ctx,
    refs: &Refs,
    path: &YamlPath,
    raw: &RawPosition,
) -> Option<Position> {
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
pub(super) fn geometry_kind(refs: &Refs) -> Option<GeometryKind> {
    refs.ruleset.geometry.as_ref().map(|g| g.kind)
}

/// A position of a kind the ruleset's geometry does not have.
pub(super) fn wrong_geometry(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, what: &str) {
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
pub(super) fn hex_position(
    ctx: &mut Ctx,
    refs: &Refs,
    path: &YamlPath,
    hex: &RawName,
) -> Option<Position> {
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
    let geometry = refs.ruleset.geometry.as_ref();
    if let Some(extent) = geometry.and_then(|g| g.extent.as_ref())
        && let Some(cr) = crate::rules::Extent::col_row(&text, digits.unwrap_or(4) as usize)
        && !extent.holds_hex(cr)
    {
        ctx.err(
            &p,
            format!("hex {text} is off the map of ruleset '{}'", refs.ruleset.id),
            extent.words(None),
        );
        return None;
    }
    Some(Position::Hex(text))
}

/// `{x: 12.5, y: 3}`: both finite, in base units, on a free-form ruleset.
pub(super) fn free_position(
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
    let geometry = refs.ruleset.geometry.as_ref();
    if let Some(extent) = geometry.and_then(|g| g.extent.as_ref())
        && !extent.holds_point(x, y)
    {
        ctx.err(
            path,
            format!(
                "x {x}, y {y} is off the table of ruleset '{}'",
                refs.ruleset.id
            ),
            extent.words(geometry.and_then(|g| g.distance_unit.as_deref())),
        );
        return None;
    }
    Some(Position::Free { x, y })
}

pub(super) fn check_side(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, side: &str) -> bool {
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

/// A turn given as a label, a number or `at_start`.
pub(super) fn turn(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, raw: &RawName) -> Option<u32> {
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
