//! The scenario's other sections: its ruleset, calendar, sides and armies, reinforcements (scheduled and conditional), schedules, supply sources, holdings, Capitano cards, texts.

use super::*;

/// The ruleset the scenario names, loaded; an error naming it when it is unknown or failed.
pub(super) fn scenario_ruleset<'l>(
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
pub(super) fn calendar(ctx: &mut Ctx, raw: &RawScenario) -> Vec<String> {
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
pub(super) fn sides(ctx: &mut Ctx, raw: &RawScenario) -> (Vec<SideSpec>, BTreeSet<String>) {
    let root = YamlPath::root();
    let mut sides = Vec::new();
    let mut side_ids = BTreeSet::new();
    for (i, s) in raw.sides.iter().enumerate() {
        let at = root.key("sides").index(i).key("id");
        ctx.once(&mut side_ids, s.id.clone(), &at, "side id", &s.id);
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
pub(super) fn armies(
    ctx: &mut Ctx,
    raw: &RawScenario,
    side_ids: &BTreeSet<String>,
) -> (Vec<ArmySpec>, BTreeMap<String, String>) {
    let root = YamlPath::root();
    let mut army_sides = BTreeMap::new();
    let mut army_ids = BTreeSet::new();
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
        // An army may share its own side's id, not another side's.
        if side_ids.contains(&a.id) && a.id != a.side {
            ctx.twice(&p.key("id"), "army id", &a.id);
        } else {
            ctx.once(&mut army_ids, a.id.clone(), &p.key("id"), "army id", &a.id);
        }
        army_sides.insert(a.id.clone(), a.side.clone());
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
pub(super) fn strength(
    ctx: &mut Ctx,
    raw: &RawScenario,
    ruleset: &Ruleset,
) -> Option<(String, String)> {
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
pub(super) fn unknown_defaults(
    ctx: &mut Ctx,
    raw: &RawScenario,
    ruleset: &Ruleset,
) -> RawUnknownDefaults {
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

/// Reinforcements by turn, each force placed at its entry.
pub(super) fn reinforcements(
    ctx: &mut Ctx,
    refs: &mut Refs,
    raw: &RawScenario,
) -> Vec<Reinforcement> {
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
pub(super) fn conditional_reinforcements(
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
        let brought_by = r
            .brought_by
            .as_ref()
            .and_then(|b| brought_by(ctx, refs, &p.key("brought_by"), b));
        if let Some(entry) = entry {
            conditional.push(ConditionalReinforcement {
                id: r.id.clone(),
                rule: r.rule.clone(),
                entry,
                counters: cs,
                note: r.note.clone(),
                brought_by,
            });
        }
    }
    conditional
}

/// A conditional reinforcement's `brought_by`: a procedure of the ruleset and outcomes it
/// declares (a procedure read off a table declares none: its codes are the table's).
fn brought_by(
    ctx: &mut Ctx,
    refs: &Refs,
    p: &YamlPath,
    raw: &super::super::raw::RawBroughtBy,
) -> Option<super::super::model::BroughtBy> {
    let Some(procedure) = refs.ruleset.procedure(&raw.procedure) else {
        ctx.err(
            &p.key("procedure"),
            format!(
                "ruleset '{}' has no procedure '{}'",
                refs.ruleset.id, raw.procedure
            ),
            "name a procedure of the ruleset",
        );
        return None;
    };
    if raw.outcomes.is_empty() {
        ctx.err(
            &p.key("outcomes"),
            "no outcome brings them",
            format!("list the outcomes of '{}' that do", raw.procedure),
        );
        return None;
    }
    if !procedure.outcomes.is_empty() {
        for (i, code) in raw.outcomes.iter().enumerate() {
            if procedure.outcome(code).is_none() {
                let codes: Vec<&str> = procedure.outcomes.iter().map(|o| o.code.as_str()).collect();
                ctx.err(
                    &p.key("outcomes").index(i),
                    format!("'{}' has no outcome '{code}'", raw.procedure),
                    format!("outcomes: {}", codes.join(", ")),
                );
                return None;
            }
        }
    }
    Some(super::super::model::BroughtBy {
        procedure: raw.procedure.clone(),
        outcomes: raw.outcomes.clone(),
        after_turns: raw.after_turns,
    })
}

/// The scenario's schedules: turns (and amounts by turn), side and procedure checked.
pub(super) fn schedules(ctx: &mut Ctx, refs: &Refs, raw: &RawScenario) -> Vec<Schedule> {
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
        let mut given = BTreeSet::new();
        for (j, a) in s.amounts.iter().enumerate() {
            let q = p.key("amounts").index(j);
            if let Some(n) = turn(ctx, refs, &q.key("turn"), &a.turn) {
                ctx.once(&mut given, n, &q, "turn", &n);
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
        let sets = s
            .sets
            .as_ref()
            .and_then(|x| scheduled_set(ctx, refs, raw, &p, x));
        schedules.push(Schedule {
            sets,
            id: s.id.clone(),
            name: s.name.clone(),
            turns: turns.into_iter().collect(),
            procedure: s.procedure.clone(),
            step: s.step.clone(),
            mandatory: s.mandatory.unwrap_or(true),
            side: s.side.clone(),
            amounts,
            credit,
            until: schedule_until(ctx, refs, &p, s),
            note: s.note.clone(),
        });
    }
    schedules
}

/// A schedule's `sets`: a Force of the scenario, a leader attribute of the ruleset and a value
/// it takes.
fn scheduled_set(
    ctx: &mut Ctx,
    refs: &Refs,
    raw: &RawScenario,
    p: &YamlPath,
    x: &super::super::raw::RawScheduledSet,
) -> Option<(String, String, crate::rules::Value)> {
    let q = p.key("sets");
    if !raw.forces.iter().any(|f| f.id == x.force) {
        ctx.err(
            &q.key("force"),
            format!("no Force '{}' in this scenario", x.force),
            "name the id of a Force of the scenario's forces",
        );
        return None;
    }
    let Some(spec) = refs.ruleset.leaders.iter().find(|a| a.name == x.attribute) else {
        ctx.err(
            &q.key("attribute"),
            format!("'{}' is not a leader attribute of the ruleset", x.attribute),
            declared_hint(&refs.ruleset.leaders),
        );
        return None;
    };
    match super::counters::attribute_value(spec, &x.value) {
        Ok(v) => Some((x.force.clone(), x.attribute.clone(), v)),
        Err(e) => {
            ctx.err(&q.key("value"), e, "a value the attribute takes");
            None
        }
    }
}

/// A schedule's `until`: outcomes of its procedure (a procedure read off a table names its
/// results there, so any code is taken).
fn schedule_until(ctx: &mut Ctx, refs: &Refs, p: &YamlPath, s: &RawSchedule) -> Vec<String> {
    if s.until.is_empty() {
        return Vec::new();
    }
    let Some(procedure) = s
        .procedure
        .as_ref()
        .and_then(|id| refs.ruleset.procedure(id))
    else {
        ctx.err(
            &p.key("until"),
            "until names outcomes, but the schedule has no procedure",
            "name the schedule's procedure, or leave until out",
        );
        return Vec::new();
    };
    for (i, code) in s.until.iter().enumerate() {
        if !procedure.outcomes.is_empty() && procedure.outcome(code).is_none() {
            let codes: Vec<&str> = procedure.outcomes.iter().map(|o| o.code.as_str()).collect();
            ctx.err(
                &p.key("until").index(i),
                format!("'{}' has no outcome '{code}'", procedure.id),
                format!("outcomes: {}", codes.join(", ")),
            );
        }
    }
    s.until.clone()
}

/// Supply sources, each of a known army at a valid position.
pub(super) fn supply_sources(ctx: &mut Ctx, refs: &Refs, raw: &RawScenario) -> Vec<SupplySource> {
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
pub(super) fn holdings(ctx: &mut Ctx, refs: &Refs, raw: &RawScenario) -> Vec<Holding> {
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
pub(super) fn capitano_cards(ctx: &mut Ctx, refs: &Refs, raw: &RawScenario) -> Vec<CapitanoCard> {
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

pub(super) fn text_items(
    ctx: &mut Ctx,
    refs: &Refs,
    path: &YamlPath,
    raw: &[RawText],
) -> Vec<TextItem> {
    let mut ids = BTreeSet::new();
    let mut out = Vec::new();
    for (i, t) in raw.iter().enumerate() {
        let p = path.index(i);
        ctx.once(&mut ids, t.id.clone(), &p.key("id"), "id", &t.id);
        if t.check.is_some() && path != &YamlPath::root().key("victory") {
            ctx.err(
                &p.key("check"),
                "only a victory condition has a check",
                "move it to an item of `victory:`, or remove it",
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
            check: None,
        });
    }
    out
}
