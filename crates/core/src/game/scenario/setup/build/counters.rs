//! `counters.csv`, the one sheet of a game that is not a megagame: each counter with its side,
//! kind, position and attributes.

use super::*;

/// A `counters.csv` position: `off map: …`, else a hex id or an area's name as the ruleset's
/// geometry has them, or `x, y` on a free-form table.
fn position_of(ruleset: &Ruleset, text: &str) -> Result<Yaml, String> {
    let mut m = Mapping::new();
    let lower = text.to_lowercase();
    if let Some(rest) = ["off map:", "off_map:", "off-map:"]
        .iter()
        .find_map(|p| lower.strip_prefix(p).and_then(|_| text.get(p.len()..)))
    {
        m.insert(key("off_map"), Yaml::String(rest.trim().to_string()));
        return Ok(Yaml::Mapping(m));
    }
    match ruleset.geometry.as_ref().map(|g| g.kind) {
        Some(GeometryKind::Hex) => {
            m.insert(key("hex"), Yaml::String(text.trim().to_string()));
        }
        Some(GeometryKind::Area) => {
            m.insert(key("area"), Yaml::String(text.trim().to_string()));
        }
        Some(GeometryKind::Free) => {
            let parts: Vec<f64> = text
                .split([',', ' '])
                .filter(|p| !p.is_empty())
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|_| format!("'{text}' is not x, y (two numbers) or off map: …"))?;
            let [x, y] = parts[..] else {
                return Err(format!("'{text}' is not x, y (two numbers) or off map: …"));
            };
            m.insert(
                key("x"),
                yaml_serde::to_value(x).map_err(|e| e.to_string())?,
            );
            m.insert(
                key("y"),
                yaml_serde::to_value(y).map_err(|e| e.to_string())?,
            );
        }
        None => {
            return Err(format!(
                "ruleset '{}' has no map: write off map: and the place",
                ruleset.id
            ));
        }
    }
    Ok(Yaml::Mapping(m))
}

/// `counters.csv`: any game's counters, with their side, kind, position and attributes.
pub(super) fn counters_sheet(ctx: &mut Ctx<'_>, sheet: &Sheet) {
    for row in &sheet.rows {
        let at = At { sheet, row };
        let Some(name) = required(ctx, &at, "name") else {
            continue;
        };
        let id = ctx.new_id(&at, name);
        let side = required(ctx, &at, "side").and_then(|_| ctx.side_at(&at, None));
        let ruleset = ctx.ruleset;
        let (list, specs) = match at.cell("kind").map(key_of).as_deref() {
            None | Some("unit") => ("units", &ruleset.units),
            Some("leader") => ("leaders", &ruleset.leaders),
            Some("marker") => ("markers", &ruleset.units),
            Some(other) => {
                let p = at.problem(
                    Some("kind"),
                    format!("'{other}' is not unit, leader or marker"),
                );
                ctx.problems.push(p);
                continue;
            }
        };
        let position =
            required(ctx, &at, "position").and_then(|p| match position_of(ctx.ruleset, p) {
                Ok(p) => Some(p),
                Err(e) => {
                    ctx.problems.push(at.problem(Some("position"), e));
                    None
                }
            });
        let attributes = ctx.attributes(&at, SheetKind::Counters, specs);
        let (Some(id), Some(side), Some(position)) = (id, side, position) else {
            continue;
        };
        ctx.counters.push(NewCounter {
            id,
            name: name.to_string(),
            side,
            list,
            position,
            attributes,
            note: at.cell("note").map(str::to_string),
        });
    }
}
