//! The ruleset's set-up sections: rulings, counter attributes, custom dice, places, decks and cups, statuses (the Sequence of Play's steps: `steps`).

use super::*;

pub(super) fn leaf_step_ids(steps: &[Step], out: &mut BTreeSet<String>) {
    for s in steps {
        if s.steps.is_empty() {
            out.insert(s.id.clone());
        } else {
            leaf_step_ids(&s.steps, out);
        }
    }
}

/// The value `is:` gives for an attribute, checked against its type.
pub(super) fn attribute_value(
    spec: &AttributeSpec,
    raw: &RawScalar,
) -> Result<Value, (String, String)> {
    let name = &spec.name;
    match (&spec.kind, raw) {
        (AttributeKind::Int { .. }, RawScalar::Int(i)) => Ok(Value::Int(*i)),
        (AttributeKind::Flag, RawScalar::Bool(b)) => Ok(Value::Bool(*b)),
        (AttributeKind::Text, RawScalar::Text(t)) => Ok(Value::Text(t.clone())),
        (AttributeKind::Choice { choices } | AttributeKind::Choices { choices }, r) => {
            let t = r.text();
            if choices.contains(&t) {
                Ok(Value::Text(t))
            } else {
                Err((
                    format!("'{t}' is not a choice of {name}"),
                    format!("choices: {}", choices.join(", ")),
                ))
            }
        }
        (AttributeKind::Int { .. }, r) => Err((
            format!("{name} is a whole number, not '{}'", r.text()),
            "write a number".to_string(),
        )),
        (AttributeKind::Flag, r) => Err((
            format!("{name} is a flag, not '{}'", r.text()),
            "write true or false".to_string(),
        )),
        (AttributeKind::Text, r) => Ok(Value::Text(r.text())),
    }
}

pub(super) fn validate_rulings(ctx: &mut FileCtx, raw: &[RawRuling]) -> Vec<Ruling> {
    let mut out = Vec::new();
    let mut ids = BTreeSet::new();
    for (i, r) in raw.iter().enumerate() {
        let p = YamlPath::root().key("rulings").index(i);
        if !ctx.unique_id(&mut ids, &p.key("id"), "ruling id", &r.id) {
            continue;
        }
        if r.options.len() < 2 {
            ctx.err(
                &p.key("options"),
                "a ruling needs at least two options",
                "list each reading the umpire may choose",
            );
            continue;
        }
        if !r.options.iter().any(|o| o.id == r.default) {
            ctx.err(
                &p.key("default"),
                format!("default '{}' is not one of the options", r.default),
                format!(
                    "options: {}",
                    r.options
                        .iter()
                        .map(|o| o.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            continue;
        }
        out.push(Ruling {
            id: r.id.clone(),
            rule: r.rule.clone(),
            source_lines: r.source.clone(),
            text: r.text.clone(),
            options: r
                .options
                .iter()
                .map(|o| RulingOption {
                    id: o.id.clone(),
                    text: o.text.clone(),
                })
                .collect(),
            selected: r.default.clone(),
        });
    }
    out
}

pub(super) fn validate_attributes(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawAttribute],
) -> Vec<AttributeSpec> {
    let mut out = Vec::new();
    let mut names = BTreeSet::new();
    for (i, a) in raw.iter().enumerate() {
        let p = path.index(i);
        if !ctx.unique_id(&mut names, &p.key("name"), "attribute name", &a.name) {
            continue;
        }
        let choices: Vec<String> = a.choices.iter().flatten().map(RawScalar::text).collect();
        let kind = match a.kind {
            RawAttributeKind::Int => {
                if let (Some(min), Some(max)) = (a.min, a.max)
                    && min > max
                {
                    ctx.err(
                        &p.key("min"),
                        format!("min {min} is above max {max}"),
                        "swap them",
                    );
                    continue;
                }
                AttributeKind::Int {
                    min: a.min,
                    max: a.max,
                }
            }
            RawAttributeKind::Choice | RawAttributeKind::Choices => {
                if choices.is_empty() {
                    ctx.err(
                        &p,
                        format!("attribute '{}' has no choices", a.name),
                        "add choices: [a, b, …]",
                    );
                    continue;
                }
                if a.kind == RawAttributeKind::Choice {
                    AttributeKind::Choice { choices }
                } else {
                    AttributeKind::Choices { choices }
                }
            }
            RawAttributeKind::Flag => AttributeKind::Flag,
            RawAttributeKind::Text => AttributeKind::Text,
        };
        out.push(AttributeSpec {
            name: a.name.clone(),
            label: a.label.clone().unwrap_or_else(|| a.name.replace('_', " ")),
            kind,
            rule: a.rule.clone(),
            source_lines: a.source.clone(),
            help: a.help.clone(),
        });
    }
    out
}

/// The optional rules, each number once.
pub(super) fn validate_optional_rules(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawOptionalRule],
) -> Vec<OptionalRule> {
    let mut seen = BTreeSet::new();
    raw.iter()
        .enumerate()
        .filter(|(i, r)| {
            let at = path.index(*i).key("id");
            ctx.once(&mut seen, r.id.clone(), &at, "optional rule", &r.id)
        })
        .map(|(_, r)| OptionalRule {
            id: r.id.clone(),
            name: r.name.clone(),
            source_lines: r.source.clone(),
        })
        .collect()
}

pub(super) fn validate_dice(ctx: &mut FileCtx, raw: &[RawDie]) -> DieSet {
    let mut set = DieSet::new();
    for (i, d) in raw.iter().enumerate() {
        let path = YamlPath::root().key("dice").index(i);
        let name_ok = d.name.len() > 1
            && d.name.starts_with('d')
            && d.name[1..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !name_ok {
            ctx.err(
                &path.key("name"),
                format!("die name '{}' is not usable in notation", d.name),
                "start with 'd' followed by letters or digits, e.g. dcmd",
            );
            continue;
        }
        if d.faces.is_empty() {
            ctx.err(
                &path.key("faces"),
                "a die needs at least one face",
                "list its faces with value (and label, weight)",
            );
            continue;
        }
        if d.faces.iter().any(|f| f.weight == Some(0)) {
            ctx.err(
                &path.key("faces"),
                "a face weight of 0 can never come up",
                "use a weight of 1 or more, or remove the face",
            );
            continue;
        }
        set.insert(Die {
            name: d.name.clone(),
            faces: d
                .faces
                .iter()
                .map(|f| DieFace {
                    value: f.value,
                    label: f.label.clone(),
                    weight: f.weight.unwrap_or(1),
                })
                .collect(),
        });
    }
    set
}

/// The map's `extent:`, where given: the first and last hex on a hex map (columns and rows
/// in order), x and y ranges on a free-form table; an area map has none.
pub(super) fn validate_extent(
    ctx: &mut FileCtx,
    at: &YamlPath,
    geometry: &Geometry,
    raw: &crate::rules::raw::RawGeometry,
) -> Option<Extent> {
    let e = raw.extent.as_ref()?;
    let at = at.key("extent");
    match geometry.kind {
        GeometryKind::Hex => {
            let digits = geometry.hex_id_digits.unwrap_or(4) as usize;
            let (Some(first), Some(last), None, None) = (&e.first, &e.last, e.x, e.y) else {
                ctx.err(
                    &at,
                    "a hex map's extent is its first and last hex",
                    "write e.g. {first: \"0101\", last: \"2218\"}",
                );
                return None;
            };
            let read = |hex: &str| Extent::col_row(hex, digits);
            match (read(first), read(last)) {
                (Some(a), Some(b)) if a.0 <= b.0 && a.1 <= b.1 => Some(Extent::Hexes {
                    first: first.trim().to_string(),
                    last: last.trim().to_string(),
                    cols: (a.0, b.0),
                    rows: (a.1, b.1),
                }),
                (Some(_), Some(_)) => {
                    ctx.err(
                        &at.key("last"),
                        format!("the last hex {last} comes before the first, {first}"),
                        "give the hex of the lowest column and row first",
                    );
                    None
                }
                _ => {
                    ctx.err(
                        &at,
                        format!("'{first}' to '{last}' are not hex ids of {digits} digits"),
                        "write them as the map prints them, in quotes: \"0101\"",
                    );
                    None
                }
            }
        }
        GeometryKind::Free => {
            let (None, None, Some(x), Some(y)) = (&e.first, &e.last, e.x, e.y) else {
                ctx.err(
                    &at,
                    "a free-form table's extent is its x and y ranges",
                    "write e.g. {x: [0, 72], y: [0, 48]} in base units",
                );
                return None;
            };
            if [x, y]
                .iter()
                .any(|r| !(r[0].is_finite() && r[1].is_finite() && r[0] < r[1]))
            {
                ctx.err(
                    &at,
                    "each range is two finite numbers, the lower first",
                    "write e.g. {x: [0, 72], y: [0, 48]}",
                );
                return None;
            }
            Some(Extent::Table {
                x: (x[0], x[1]),
                y: (y[0], y[1]),
            })
        }
        GeometryKind::Area => {
            ctx.err(
                &at,
                "an area map has no extent: its places are its areas",
                "remove extent",
            );
            None
        }
    }
}

/// The gazetteer: each place named once, at a hex of the map's form on a hex map (a quoted
/// string of `hex_id_digits` digits), in a group on an area map.
pub(super) fn validate_places(
    ctx: &mut FileCtx,
    at: &YamlPath,
    geometry: &Geometry,
    raw: &crate::rules::raw::RawGeometry,
) -> Vec<Place> {
    use crate::rules::raw::RawPlaceKind as R;
    let mut seen: BTreeSet<(String, Option<String>)> = BTreeSet::new();
    let mut out = Vec::new();
    for (i, p) in raw.places.iter().enumerate() {
        let here = at.index(i);
        if p.name.trim().is_empty() {
            ctx.err(
                &here.key("name"),
                "a place without a name",
                "give its name as printed",
            );
            continue;
        }
        if let Some(hex) = &p.hex {
            let digits = geometry.hex_id_digits.unwrap_or(4) as usize;
            if geometry.kind != GeometryKind::Hex {
                ctx.err(
                    &here.key("hex"),
                    format!("'{}' has a hex on a map without hexes", p.name),
                    "give an area map's places a group, not a hex",
                );
            } else if hex.len() != digits || !hex.chars().all(|c| c.is_ascii_digit()) {
                ctx.err(
                    &here.key("hex"),
                    format!("'{hex}' is not a hex of this map ({digits} digits)"),
                    "write the hex as the map prints it, in quotes: \"2834\"",
                );
            } else if let Some(extent) = &geometry.extent
                && let Some(cr) = Extent::col_row(hex, digits)
                && !extent.holds_hex(cr)
            {
                ctx.err(
                    &here.key("hex"),
                    format!("{}'s hex {hex} is off the map", p.name),
                    format!("{} (geometry.extent)", extent.words(None)),
                );
            }
        } else if geometry.kind == GeometryKind::Hex {
            ctx.err(
                &here.key("hex"),
                format!("'{}' has no hex", p.name),
                "give the hex the text names it with",
            );
        }
        let key = (p.name.clone(), p.hex.clone());
        ctx.once(&mut seen, key, &here.key("name"), "place", &p.name);
        for (j, a) in p.also.iter().enumerate() {
            if a.trim().is_empty() {
                ctx.err(
                    &here.key("also").index(j),
                    "an empty name",
                    "give the other name as the text prints it",
                );
            }
        }
        out.push(Place {
            name: p.name.trim().to_string(),
            also: p.also.iter().map(|a| a.trim().to_string()).collect(),
            hex: p.hex.clone(),
            group: p.group.clone(),
            kind: p.kind.map(R::kind),
            rule: p.rule.clone(),
            source_lines: p.source.clone(),
            note: p.note.clone(),
        });
    }
    out
}

/// The decks and cups: ids once each, items named once each with a count of at least one, the
/// items adding up to the size the text gives, and a `missing` note wherever the text does not
/// give what is in it (never an invented composition).
pub(super) fn validate_decks(
    ctx: &mut FileCtx,
    at: &YamlPath,
    raw: &[crate::rules::raw::RawDeck],
) -> Vec<DeckSpec> {
    use crate::rules::raw::{RawDeckKind, RawRefill};
    let mut out: Vec<DeckSpec> = Vec::new();
    let mut ids = BTreeSet::new();
    for (i, d) in raw.iter().enumerate() {
        let here = at.index(i);
        if !ctx.unique_id(&mut ids, &here.key("id"), "deck id", &d.id) {
            continue;
        }
        if d.name.trim().is_empty() {
            ctx.err(
                &here.key("name"),
                "a deck without a name",
                "give its name as printed",
            );
        }
        let mut items: Vec<DeckItem> = Vec::new();
        let mut names = BTreeSet::new();
        for (k, item) in d.items.iter().enumerate() {
            let name = item.name.trim();
            if name.is_empty() {
                ctx.err(
                    &here.key("items").index(k).key("name"),
                    "an item without a name",
                    "give the card's or marker's name as printed",
                );
                continue;
            }
            if item.count == 0 {
                ctx.err(
                    &here.key("items").index(k).key("count"),
                    format!("'{name}' has a count of 0"),
                    "leave out what is not in it",
                );
                continue;
            }
            let at = here.key("items").index(k).key("name");
            if !ctx.once(&mut names, name.to_string(), &at, "item", &name) {
                continue;
            }
            items.push(DeckItem {
                name: name.to_string(),
                count: item.count,
            });
        }
        let total: u64 = items.iter().map(|i| u64::from(i.count)).sum();
        if let Some(size) = d.size
            && !items.is_empty()
            && total != u64::from(size)
        {
            ctx.err(
                &here.key("items"),
                format!("the items add up to {total}, the size is {size}"),
                "make the counts add up to the size the text gives",
            );
        }
        if items.is_empty() && d.missing.as_deref().is_none_or(|m| m.trim().is_empty()) {
            ctx.err(
                &here.key("missing"),
                format!("deck '{}' has no items and does not say why", d.id),
                "list what the text gives, or say in `missing:` what it does not give and where",
            );
        }
        out.push(DeckSpec {
            id: d.id.clone(),
            name: d.name.trim().to_string(),
            kind: match d.kind {
                RawDeckKind::Deck => DeckKind::Deck,
                RawDeckKind::Cup => DeckKind::Cup,
            },
            items,
            size: d.size,
            missing: d.missing.clone(),
            refill: match d.refill {
                RawRefill::Never => Refill::Never,
                RawRefill::WhenEmpty => Refill::WhenEmpty,
                RawRefill::ByHand => Refill::ByHand,
            },
            hidden: d.hidden,
            per_side: d.per_side,
            rule: d.rule.clone(),
            source_lines: d.source.clone(),
            help: d.help.clone(),
        });
    }
    out
}

/// The status markers: ids as effects name them, each once, each with its printed label.
pub(super) fn validate_statuses(
    ctx: &mut FileCtx,
    at: &YamlPath,
    raw: &[crate::rules::raw::RawStatus],
) -> Vec<StatusMarker> {
    let mut out: Vec<StatusMarker> = Vec::new();
    let mut ids = BTreeSet::new();
    for (i, s) in raw.iter().enumerate() {
        let here = at.index(i);
        if !ctx.unique_id(&mut ids, &here.key("id"), "status id", &s.id) {
            continue;
        }
        if s.label.trim().is_empty() {
            ctx.err(
                &here.key("label"),
                "a status without a label",
                "give the marker's name as printed",
            );
        }
        out.push(StatusMarker {
            id: s.id.clone(),
            label: s.label.trim().to_string(),
            rule: s.rule.clone(),
            source_lines: s.source.clone(),
            help: s.help.clone(),
            one_unit: s.falls_on == Some(crate::rules::raw::RawFallsOn::Unit),
        });
    }
    out
}
