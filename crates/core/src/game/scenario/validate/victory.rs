//! The `check:` of victory items: sides, places, procedures, tables and items it names, each
//! checked with its file, line and column.

use super::*;
use crate::game::scenario::victory::*;

/// What a victory check may name besides the ruleset: the scenario's counters (name → ids) and
/// its victory items.
pub(super) struct VictoryRefs<'v> {
    pub(super) counters: BTreeMap<String, Vec<String>>,
    pub(super) items: BTreeSet<&'v str>,
    pub(super) special_rules: BTreeSet<&'v str>,
}

/// Validates every victory item's `check:` into the items.
pub(super) fn victory_checks(
    ctx: &mut Ctx,
    refs: &Refs,
    vrefs: &VictoryRefs,
    raw: &[RawText],
    items: &mut [TextItem],
) {
    let root = YamlPath::root().key("victory");
    for (i, (t, item)) in raw.iter().zip(items.iter_mut()).enumerate() {
        let Some(c) = &t.check else { continue };
        let p = root.index(i).key("check");
        let winner = match c.winner.as_deref().or(t.side.as_deref()) {
            Some("each_side") | None => None,
            Some(w) => {
                check_side(ctx, refs, &p.key("winner"), w);
                Some(w.to_string())
            }
        };
        if c.draw && winner.is_some() && c.winner.is_some() {
            ctx.err(
                &p.key("draw"),
                "a draw has no winner",
                "remove `winner` or `draw`",
            );
        }
        let condition = c
            .condition
            .as_ref()
            .map(|raw| condition(ctx, refs, vrefs, &p.key("if"), raw));
        let raise = c.raise.as_ref().map(|r| {
            let rp = p.key("raise");
            if refs.ruleset.procedure(&r.procedure).is_none() {
                ctx.err(
                    &rp.key("procedure"),
                    format!(
                        "ruleset '{}' has no procedure '{}'",
                        refs.ruleset.id, r.procedure
                    ),
                    "name a procedure of the ruleset",
                );
            }
            for (from, to) in &r.steps {
                for id in [from, to] {
                    if !vrefs.items.contains(id.as_str()) {
                        ctx.err(
                            &rp.key("steps").key(from),
                            format!("no victory item '{id}'"),
                            "name victory items of this scenario by id",
                        );
                    }
                }
            }
            if let Some(req) = &r.requires
                && !vrefs.special_rules.contains(req.as_str())
            {
                ctx.err(
                    &rp.key("requires"),
                    format!("no special rule '{req}'"),
                    "name the special rule whose condition the die needs, by id",
                );
            }
            Raise {
                procedure: r.procedure.clone(),
                outcome: r.outcome.clone(),
                steps: r
                    .steps
                    .iter()
                    .map(|(a, b)| (a.clone(), b.clone()))
                    .collect(),
                requires: r.requires.clone(),
            }
        });
        for (j, id) in c.supersedes.iter().enumerate() {
            if !vrefs.items.contains(id.as_str()) {
                ctx.err(
                    &p.key("supersedes").index(j),
                    format!("no victory item '{id}'"),
                    "name victory items of this scenario by id",
                );
            }
        }
        item.check = Some(VictoryCheck {
            supersedes: c.supersedes.clone(),
            when: c.when,
            winner: if c.draw { None } else { winner },
            level: c.level.clone(),
            draw: c.draw,
            optional: c.optional,
            condition,
            raise,
        });
    }
}

fn by(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, by: &str) -> String {
    if by != "winner" {
        check_side(ctx, refs, path, by);
    }
    by.to_string()
}

fn place_refs(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, names: &[String]) -> Vec<PlaceRef> {
    let geometry = refs.ruleset.geometry.as_ref();
    let places = geometry.map(|g| g.places.as_slice()).unwrap_or_default();
    let mut out = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let found = places.iter().find(|p| p.answers_to(name));
        match found {
            Some(p) => {
                let position = match &p.hex {
                    Some(h) => Position::Hex(h.clone()),
                    None => Position::Area(p.name.clone()),
                };
                out.push(PlaceRef {
                    name: p.name.clone(),
                    position,
                    kind: p.kind,
                });
            }
            None => ctx.err(
                &path.index(i),
                format!("the map names no place '{name}'"),
                "name a place of the ruleset's `geometry.places` as printed",
            ),
        }
    }
    out
}

fn places(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, raw: &RawPlaces) -> Vec<PlaceRef> {
    let out = place_refs(ctx, refs, &path.key("places"), &raw.places);
    if let Some(n) = raw.at_least
        && (n == 0 || n > raw.places.len())
    {
        ctx.err(
            &path.key("at_least"),
            format!("at_least {n} of {} places", raw.places.len()),
            "give a number from 1 to the number of places",
        );
    }
    out
}

fn condition(
    ctx: &mut Ctx,
    refs: &Refs,
    vrefs: &VictoryRefs,
    path: &YamlPath,
    raw: &RawConditionOrWord,
) -> Condition {
    let raw = match raw {
        RawConditionOrWord::Word(w) => {
            return match w.trim() {
                "no_winner" => Condition::NoWinner,
                "scenario_end" => Condition::ScenarioEnd,
                other => {
                    ctx.err(
                        path,
                        format!("'{other}' is not a condition"),
                        "write no_winner, scenario_end, or one of all, any, not, occupied, owned, battle_won, capitano_lost, won, most_victory_points, umpire",
                    );
                    Condition::NoWinner
                }
            };
        }
        RawConditionOrWord::Condition(c) => c,
    };
    let given = [
        raw.all.is_some(),
        raw.any.is_some(),
        raw.not.is_some(),
        raw.occupied.is_some(),
        raw.owned.is_some(),
        raw.battle_won.is_some(),
        raw.capitano_lost.is_some(),
        raw.won.is_some(),
        raw.most_victory_points.is_some(),
        raw.umpire.is_some(),
    ]
    .iter()
    .filter(|g| **g)
    .count();
    if given != 1 {
        ctx.err(
            path,
            format!("a condition has exactly one kind, not {given}"),
            "write one of all, any, not, occupied, owned, battle_won, capitano_lost, won, most_victory_points, umpire (put several under all: or any:)",
        );
    }
    one(ctx, refs, vrefs, path, raw)
}

fn one(
    ctx: &mut Ctx,
    refs: &Refs,
    vrefs: &VictoryRefs,
    path: &YamlPath,
    raw: &RawCondition,
) -> Condition {
    let list = |ctx: &mut Ctx, key: &str, all: &[RawConditionOrWord]| -> Vec<Condition> {
        all.iter()
            .enumerate()
            .map(|(i, c)| condition(ctx, refs, vrefs, &path.key(key).index(i), c))
            .collect()
    };
    if let Some(all) = &raw.all {
        return Condition::All(list(ctx, "all", all));
    }
    if let Some(any) = &raw.any {
        return Condition::Any(list(ctx, "any", any));
    }
    if let Some(c) = &raw.not {
        return Condition::Not(Box::new(condition(ctx, refs, vrefs, &path.key("not"), c)));
    }
    if let Some(p) = &raw.occupied {
        return Condition::Occupied {
            by: by(ctx, refs, &path.key("occupied").key("by"), &p.by),
            places: places(ctx, refs, &path.key("occupied"), p),
            at_least: p.at_least,
            unbesieged: p.unbesieged,
        };
    }
    if let Some(p) = &raw.owned {
        return Condition::Owned {
            by: by(ctx, refs, &path.key("owned").key("by"), &p.by),
            places: places(ctx, refs, &path.key("owned"), p),
            at_least: p.at_least,
            conquered: p.conquered,
            not_besieged: p.not_besieged,
        };
    }
    if let Some(b) = &raw.battle_won {
        return Condition::BattleWon {
            by: by(ctx, refs, &path.key("battle_won").key("by"), &b.by),
            battle: b.battle.clone(),
        };
    }
    if let Some(name) = &raw.capitano_lost {
        let counters = vrefs.counters.get(name.trim()).cloned().unwrap_or_default();
        if counters.is_empty() {
            ctx.err(
                &path.key("capitano_lost"),
                format!("the scenario has no counter named '{name}'"),
                "name a Capitano of the scenario as its counter is named",
            );
        }
        return Condition::CapitanoLost {
            capitano: name.trim().to_string(),
            counters,
        };
    }
    if let Some(item) = &raw.won {
        if !vrefs.items.contains(item.as_str()) {
            ctx.err(
                &path.key("won"),
                format!("no victory item '{item}'"),
                "name a victory item of this scenario by id",
            );
        }
        return Condition::Won { item: item.clone() };
    }
    if let Some(p) = &raw.most_victory_points {
        return points(ctx, refs, &path.key("most_victory_points"), p);
    }
    Condition::Umpire {
        text: raw.umpire.clone().unwrap_or_default(),
    }
}

fn points(ctx: &mut Ctx, refs: &Refs, path: &YamlPath, p: &RawPoints) -> Condition {
    let places = place_refs(ctx, refs, &path.key("places"), &p.places);
    if let Some(proc_id) = &p.city_procedure
        && refs.ruleset.procedure(proc_id).is_none()
    {
        ctx.err(
            &path.key("city_procedure"),
            format!("ruleset '{}' has no procedure '{proc_id}'", refs.ruleset.id),
            "name a procedure of the ruleset",
        );
    }
    let mut occupation = Vec::new();
    if let Some(table_id) = &p.occupation_table {
        match refs.ruleset.table(table_id) {
            Some(table) => {
                for row in &table.rows {
                    let (Some(side), Some(vp)) = (row.cells.first(), row.cells.get(1)) else {
                        continue;
                    };
                    let name = row.label.clone().unwrap_or_default();
                    let place = place_refs(
                        ctx,
                        refs,
                        &path.key("occupation_table"),
                        std::slice::from_ref(&name),
                    );
                    let vp = vp.text().parse::<i64>().ok();
                    if let (Some(place), Some(vp)) = (place.into_iter().next(), vp) {
                        occupation.push((place, side.text().to_string(), vp));
                    }
                }
            }
            None => ctx.err(
                &path.key("occupation_table"),
                format!("ruleset '{}' has no table '{table_id}'", refs.ruleset.id),
                "name a table of the ruleset with columns side and vp",
            ),
        }
    }
    Condition::MostVictoryPoints {
        places,
        city_procedure: p.city_procedure.clone(),
        occupation,
    }
}
