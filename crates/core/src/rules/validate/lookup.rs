//! The lookup of each shape — a table, a threshold, a pool of dice, a computation (`let:` values
//! and ordered `cases:`), an opposed roll — with the names each may read and the codes it gives.

use super::*;

/// What a lookup is checked against besides the names it may read: the procedure (its path,
/// its modifiers, the names above the lookup, its roll), the ruleset's tables and dice.
pub(super) struct Around<'a> {
    pub(super) path: &'a YamlPath,
    pub(super) raw: &'a RawProcedure,
    pub(super) known: &'a BTreeSet<String>,
    pub(super) roll: Option<&'a DiceExpr>,
    pub(super) tables: &'a BTreeMap<String, Table>,
    pub(super) dice: &'a DieSet,
}

/// The lookup of each shape: a table, a threshold, a pool, a compute, an opposed roll.
pub(super) fn validate_lookup(
    ctx: &mut FileCtx,
    lp: &YamlPath,
    raw_lookup: &RawLookup,
    around: Around,
    lookup_known: &mut BTreeSet<String>,
    scope: &mut Scope,
    used_codes: &mut Vec<(YamlPath, String)>,
) -> Option<Lookup> {
    let Around {
        path,
        raw,
        known,
        roll,
        tables,
        dice,
    } = around;
    match &raw_lookup {
        RawLookup::Table(t) => {
            validate_table_ref(ctx, lp, t, tables, lookup_known, roll.is_some()).map(Lookup::Table)
        }
        RawLookup::Threshold(t) => {
            let target = ctx.expr(&lp.key("target"), &t.target, lookup_known);
            if let Some(e) = &target
                && let Some(problem) = type_problem(e.eval(scope), "number")
            {
                ctx.err(
                    &lp.key("target"),
                    problem,
                    "the target must be a whole number",
                );
            }
            used_codes.push((lp.key("pass"), t.pass.clone()));
            used_codes.push((lp.key("fail"), t.fail.clone()));
            target.map(|target| Lookup::Threshold {
                target,
                success: match t.success {
                    RawSuccess::AtLeast => Success::AtLeast,
                    RawSuccess::AtMost => Success::AtMost,
                },
                natural_fail: t.natural_fail.clone(),
                natural_pass: t.natural_pass.clone(),
                pass: t.pass.clone(),
                fail: t.fail.clone(),
            })
        }
        RawLookup::Pool(pool) => validate_pool(ctx, lp, pool, (known, dice), used_codes),
        RawLookup::Compute(c) => {
            let (lets, cases) =
                validate_cases(ctx, lp, &c.lets, &c.cases, lookup_known, scope, used_codes);
            Some(Lookup::Compute { lets, cases })
        }
        RawLookup::Opposed(o) => {
            let before_sides = ctx.errors.len();
            if o.sides.len() < 2 {
                ctx.err(
                    &lp.key("sides"),
                    "an opposed roll needs at least two sides",
                    "list each side with its dice",
                );
            }
            let mut sides = Vec::new();
            let mut names = BTreeSet::new();
            for (k, side) in o.sides.iter().enumerate() {
                let sp = lp.key("sides").index(k);
                if !ctx.unique_id(&mut names, &sp.key("side"), "side name", &side.side) {
                    continue;
                }
                if side.dice.is_empty() {
                    ctx.err(
                        &sp.key("dice"),
                        "a side needs dice",
                        "add dice: [{count: …, die: d6}]",
                    );
                }
                let groups = dice_groups(ctx, &sp, side, dice, known);
                lookup_known.insert(format!("{}_score", side.side));
                scope.set(&format!("{}_score", side.side), Value::Int(0));
                sides.push(Side {
                    name: side.side.clone(),
                    groups,
                });
            }
            check_side_modifiers(ctx, path, raw, &names);
            let hits = validate_hits(ctx, &lp.key("hits"), &o.hits, known);
            let sum = o.score == RawPoolScore::Sum;
            if !sum && o.hits.is_empty() {
                ctx.err(
                    lp,
                    "opposed rolls scoring hits need hits: rules",
                    "add hits: [...] or use score: sum",
                );
            }
            let (lets, cases) =
                validate_cases(ctx, lp, &o.lets, &o.cases, lookup_known, scope, used_codes);
            (ctx.errors.len() == before_sides).then_some(Lookup::Opposed {
                sides,
                sum,
                hits,
                lets,
                cases,
            })
        }
    }
}

/// Validates `let:` values and ordered `cases:` (compute and opposed lookups).
pub(super) fn validate_cases(
    ctx: &mut FileCtx,
    lp: &YamlPath,
    c_lets: &[RawDerived],
    c_cases: &[RawCase],
    lookup_known: &mut BTreeSet<String>,
    scope: &mut Scope,
    used_codes: &mut Vec<(YamlPath, String)>,
) -> (Vec<Derived>, Vec<Case>) {
    struct C<'a> {
        lets: &'a [RawDerived],
        cases: &'a [RawCase],
    }
    let c = C {
        lets: c_lets,
        cases: c_cases,
    };
    let mut lets = Vec::new();
    for (k, l) in c.lets.iter().enumerate() {
        let p = lp.key("let").index(k);
        if !is_identifier(&l.name) || lookup_known.contains(&l.name) {
            ctx.err(
                &p.key("name"),
                format!("name '{}' is invalid or already used", l.name),
                "choose a new snake_case name",
            );
            continue;
        }
        if l.when.is_some() {
            ctx.err(
                &p.key("when"),
                "a compute lookup's value is always worked out",
                "put the condition in the cases, or on a derived value of the procedure",
            );
        }
        let Some(expr) = ctx.expr(&p.key("expr"), &l.expr, lookup_known) else {
            continue;
        };
        let value = expr.eval(scope);
        if let Some(problem) = type_problem(value.clone(), "any") {
            ctx.err(
                &p.key("expr"),
                problem,
                "check the types of the names it uses",
            );
        }
        scope.set(&l.name, value.unwrap_or(Value::Int(0)));
        lookup_known.insert(l.name.clone());
        lets.push(Derived {
            name: l.name.clone(),
            label: l.label.clone(),
            source: expr.source().to_string(),
            expr,
            when: None,
            when_source: None,
            rule: l.rule.clone(),
            source_lines: l.source.clone(),
            ruling: l.ruling.clone(),
        });
    }
    if c.cases.is_empty() {
        ctx.err(
            &lp.key("cases"),
            "no cases",
            "list the cases in order; the first that holds gives the outcome",
        );
    }
    let mut cases = Vec::new();
    for (k, case) in c.cases.iter().enumerate() {
        let p = lp.key("cases").index(k);
        let when = match &case.when {
            Some(w) => {
                let Some(e) = ctx.expr(&p.key("when"), w, lookup_known) else {
                    continue;
                };
                if let Some(problem) = type_problem(e.eval(scope), "flag") {
                    ctx.err(&p.key("when"), problem, "a condition must be true or false");
                    continue;
                }
                Some(e)
            }
            None => {
                if k + 1 != c.cases.len() {
                    ctx.err(
                        &p,
                        "only the last case may have no when:",
                        "add when: to this case or move it last",
                    );
                }
                None
            }
        };
        let value = case
            .value
            .as_ref()
            .and_then(|v| ctx.expr(&p.key("value"), v, lookup_known));
        used_codes.push((p.key("outcome"), case.outcome.clone()));
        cases.push(Case {
            when,
            outcome: case.outcome.clone(),
            value,
            rule: case.rule.clone(),
            source_lines: case.source.clone(),
        });
    }
    if c.cases.last().is_some_and(|l| l.when.is_some()) {
        ctx.err(
            &lp.key("cases"),
            "the last case has a condition, so some rolls may match no case",
            "end with a case without when: (the otherwise case)",
        );
    }
    (lets, cases)
}

/// Validates the hit rules of a pool or an opposed roll.
pub(super) fn validate_hits(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawHitRule],
    known: &BTreeSet<String>,
) -> Vec<HitRule> {
    let mut hits = Vec::new();
    for (k, h) in raw.iter().enumerate() {
        let hp = path.index(k);
        let given = usize::from(h.faces.is_some())
            + usize::from(h.at_least.is_some())
            + usize::from(h.at_most.is_some());
        if given != 1 {
            ctx.err(
                &hp,
                "a hit rule needs exactly one of faces:, at_least:, at_most:",
                "e.g. faces: [6], or at_most: fire_value",
            );
            continue;
        }
        if h.per == Some(0) {
            ctx.err(
                &hp.key("per"),
                "per must be 1 or more",
                "per: 2 counts pairs (a double 5)",
            );
            continue;
        }
        let at_least = h
            .at_least
            .as_ref()
            .and_then(|e| ctx.expr(&hp.key("at_least"), e, known));
        let at_most = h
            .at_most
            .as_ref()
            .and_then(|e| ctx.expr(&hp.key("at_most"), e, known));
        let when = h
            .when
            .as_ref()
            .and_then(|e| ctx.expr(&hp.key("when"), e, known));
        hits.push(HitRule {
            faces: h.faces.clone(),
            at_least,
            at_most,
            per: h.per.unwrap_or(1),
            hits: h.hits.unwrap_or(1),
            max_hits: h.max_hits,
            when,
            rule: h.rule.clone(),
            source_lines: h.source.clone(),
        });
    }
    hits
}

/// The dice groups of one side of an opposed roll (at `sp`).
fn dice_groups(
    ctx: &mut FileCtx,
    sp: &YamlPath,
    side: &RawSide,
    dice: &DieSet,
    known: &BTreeSet<String>,
) -> Vec<DiceGroup> {
    let mut groups = Vec::new();
    for (g, group) in side.dice.iter().enumerate() {
        let gp = sp.key("dice").index(g);
        if dice.get(&group.die).is_none() {
            ctx.err(
                &gp.key("die"),
                format!("unknown die '{}'", group.die),
                "use dN or a die declared under dice:",
            );
            continue;
        }
        let Some(count) = ctx.expr(&gp.key("count"), &group.count, known) else {
            continue;
        };
        let modifier = match &group.modifier {
            Some(m) => match ctx.expr(&gp.key("modifier"), m, known) {
                Some(e) => Some(e),
                None => continue,
            },
            None => None,
        };
        groups.push(DiceGroup {
            count,
            die: group.die.clone(),
            modifier,
            floor: group.floor,
            label: group.label.clone(),
            rule: group.rule.clone(),
            source_lines: group.source.clone(),
        });
    }
    groups
}

/// An opposed roll's modifiers name its sides: a dice modifier must name one, and a side
/// named must be one of `names`.
fn check_side_modifiers(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &RawProcedure,
    names: &BTreeSet<String>,
) {
    for (i, m) in raw.modifiers.iter().enumerate() {
        match &m.side {
            Some(side) if !names.contains(side) => ctx.err(
                &path.key("modifiers").index(i).key("side"),
                format!("unknown side '{side}'"),
                format!(
                    "sides: {}",
                    names.iter().cloned().collect::<Vec<_>>().join(", ")
                ),
            ),
            None if matches!(m.applies_to, RawAppliesTo::Dice | RawAppliesTo::EachDie) => ctx.err(
                &path.key("modifiers").index(i),
                "a dice modifier of an opposed roll needs side:",
                "add side: <the side whose dice it changes>",
            ),
            _ => {}
        }
    }
}

/// A pool of dice: its count, its die, and how it scores (hits need their rules).
fn validate_pool(
    ctx: &mut FileCtx,
    lp: &YamlPath,
    pool: &RawPool,
    (known, dice): (&BTreeSet<String>, &DieSet),
    used_codes: &mut Vec<(YamlPath, String)>,
) -> Option<Lookup> {
    let count = ctx.expr(&lp.key("count"), &pool.count, known);
    if dice.get(&pool.die).is_none() {
        ctx.err(
            &lp.key("die"),
            format!("unknown die '{}'", pool.die),
            "use dN or a die declared under dice:",
        );
    }
    let hits = validate_hits(ctx, &lp.key("hits"), &pool.hits, known);
    let sum = pool.score == RawPoolScore::Sum;
    if !sum && pool.hits.is_empty() {
        ctx.err(
            lp,
            "a pool scoring hits needs hits: rules",
            "add hits: [{faces: [6]}] or use score: sum",
        );
    }
    used_codes.push((lp.key("outcome"), pool.outcome.clone()));
    count.map(|count| Lookup::Pool {
        count,
        die: pool.die.clone(),
        sum,
        hits,
        face_floor: pool.face_floor,
        outcome: pool.outcome.clone(),
    })
}
