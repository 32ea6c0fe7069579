//! Procedures: inputs (and where they come from), derived values, modifiers, the lookup of each shape (table, threshold, pool, compute, opposed), outcomes.

use super::*;

pub(super) fn applies_to(raw: RawAppliesTo) -> AppliesTo {
    match raw {
        RawAppliesTo::Roll => AppliesTo::Roll,
        RawAppliesTo::Target => AppliesTo::Target,
        RawAppliesTo::Column => AppliesTo::Column,
        RawAppliesTo::Dice => AppliesTo::Dice,
        RawAppliesTo::EachDie => AppliesTo::EachDie,
    }
}

/// Checks a table reference against the table's shape.
pub(super) fn validate_table_ref(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &RawTableRef,
    tables: &BTreeMap<String, Table>,
    known: &BTreeSet<String>,
    has_roll: bool,
) -> Option<TableRef> {
    let Some(table) = tables.get(&raw.table) else {
        ctx.err(
            &path.key("table"),
            format!("unknown table '{}'", raw.table),
            format!(
                "tables of this ruleset: {}",
                tables.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        );
        return None;
    };
    let before = ctx.errors.len();
    let row = raw
        .row
        .as_ref()
        .and_then(|r| ctx.expr(&path.key("row"), r, known));
    if raw.row.is_none() {
        if table.row_key != KeyKind::Roll && table.rows.len() > 1 {
            ctx.err(
                path,
                format!(
                    "table '{}' has rows keyed by {:?}, so the lookup needs row:",
                    table.id, table.row_key
                )
                .to_lowercase(),
                "add row: <expression giving the row key>",
            );
        } else if table.row_key == KeyKind::Roll && !has_roll && table.rows.len() > 1 {
            ctx.err(
                path,
                format!(
                    "table '{}' is read with a die roll, but there is no roll here",
                    table.id
                ),
                "add roll: d6 (or the table's dice) to the procedure, or give row:",
            );
        }
    }
    let column = raw
        .column
        .as_ref()
        .and_then(|c| ctx.expr(&path.key("column"), c, known));
    let ratio = match &raw.ratio {
        Some(pair) if pair.len() == 2 => {
            let a = ctx.expr(&path.key("ratio").index(0), &pair[0], known);
            let b = ctx.expr(&path.key("ratio").index(1), &pair[1], known);
            a.zip(b)
        }
        Some(_) => {
            ctx.err(
                &path.key("ratio"),
                "ratio needs exactly two values",
                "write ratio: [attacker_sp, defender_sp]",
            );
            None
        }
        None => None,
    };
    match table.column_key {
        Some(KeyKind::Ratio) => {
            if raw.ratio.is_none() && raw.column.is_none() {
                ctx.err(
                    path,
                    format!(
                        "table '{}' has odds-ratio columns, so the lookup needs ratio:",
                        table.id
                    ),
                    "add ratio: [attacker, defender]",
                );
            }
            if raw.column.is_some() {
                ctx.err(
                    &path.key("column"),
                    "give ratio: for an odds-ratio table, not column:",
                    "replace column: by ratio: [attacker, defender]",
                );
            }
        }
        Some(_) => {
            if raw.column.is_none() {
                ctx.err(
                    path,
                    format!(
                        "table '{}' has columns, so the lookup needs column:",
                        table.id
                    ),
                    "add column: <expression giving the column heading>",
                );
            }
            if raw.ratio.is_some() {
                ctx.err(
                    &path.key("ratio"),
                    format!("table '{}' does not have odds-ratio columns", table.id),
                    "use column: instead",
                );
            }
        }
        None => {
            if raw.column.is_some() || raw.ratio.is_some() {
                ctx.err(
                    &path.key(if raw.column.is_some() {
                        "column"
                    } else {
                        "ratio"
                    }),
                    format!("table '{}' has a single column", table.id),
                    "remove column:/ratio:",
                );
            }
        }
    }
    let line = raw
        .line
        .as_ref()
        .and_then(|l| ctx.expr(&path.key("line"), l, known));
    if table.lines.len() > 1 && raw.line.is_none() {
        let ids: Vec<&str> = table.lines.iter().map(|l| l.id.as_str()).collect();
        ctx.err(
            path,
            format!(
                "table '{}' has several header lines, so the lookup needs line:",
                table.id
            ),
            format!("add line: <expression giving one of {}>", ids.join(", ")),
        );
    }
    if ctx.errors.len() > before {
        return None;
    }
    Some(TableRef {
        table: raw.table.clone(),
        row,
        column,
        ratio,
        line,
    })
}

#[allow(clippy::too_many_lines)]
pub(super) fn validate_procedure(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &RawProcedure,
    dice: &DieSet,
    tables: &BTreeMap<String, Table>,
    procedure_ids: &BTreeSet<String>,
    ruling_names: &BTreeSet<String>,
) -> Option<Procedure> {
    let before = ctx.errors.len();
    if !is_identifier(&raw.id) {
        ctx.err(
            &path.key("id"),
            format!("procedure id '{}' is not a valid id", raw.id),
            "use lower case letters, digits and _",
        );
    }
    let mut known: BTreeSet<String> = ruling_names.clone();
    let mut scope = Scope::new();
    for name in ruling_names {
        scope.set(name, Value::Text(String::new()));
    }
    let mut inputs = Vec::new();
    for (i, ri) in raw.inputs.iter().enumerate() {
        let p = path.key("inputs").index(i);
        if !is_identifier(&ri.name) {
            ctx.err(
                &p.key("name"),
                format!("input name '{}' is not a valid name", ri.name),
                "use lower case letters, digits and _, starting with a letter",
            );
            continue;
        }
        if LOOKUP_NAMES.contains(&ri.name.as_str()) || OUTCOME_NAMES.contains(&ri.name.as_str()) {
            ctx.err(
                &p.key("name"),
                format!("'{}' is a name the engine sets itself", ri.name),
                "choose another name",
            );
            continue;
        }
        if !known.insert(ri.name.clone()) {
            ctx.err(
                &p.key("name"),
                format!("input '{}' is declared twice", ri.name),
                "give each input its own name",
            );
            continue;
        }
        let kind = match ri.kind {
            RawInputKind::Int => {
                let (Some(min), Some(max)) = (ri.min, ri.max) else {
                    ctx.err(
                        &p,
                        format!("int input '{}' needs min and max", ri.name),
                        "add min: and max: (the range the umpire may enter)",
                    );
                    continue;
                };
                if min > max {
                    ctx.err(
                        &p.key("min"),
                        format!("min {min} is above max {max}"),
                        "swap them",
                    );
                    continue;
                }
                InputKind::Int { min, max }
            }
            RawInputKind::Choice => {
                let choices: Vec<String> =
                    ri.choices.iter().flatten().map(RawScalar::text).collect();
                if choices.is_empty() {
                    ctx.err(
                        &if ri.choices.is_some() {
                            p.key("choices")
                        } else {
                            p.clone()
                        },
                        format!("choice input '{}' has no choices", ri.name),
                        "add choices: [a, b, …]",
                    );
                    continue;
                }
                let unique: BTreeSet<&String> = choices.iter().collect();
                if unique.len() != choices.len() {
                    ctx.err(
                        &p.key("choices"),
                        "a choice is listed twice",
                        "list each choice once",
                    );
                    continue;
                }
                InputKind::Choice { choices }
            }
            RawInputKind::Flag => InputKind::Flag,
        };
        if ri.kind != RawInputKind::Int && (ri.min.is_some() || ri.max.is_some()) {
            ctx.err(
                &p.key(if ri.min.is_some() { "min" } else { "max" }),
                "min/max apply only to int inputs",
                "remove min/max",
            );
        }
        if ri.kind != RawInputKind::Choice && ri.choices.is_some() {
            ctx.err(
                &p.key("choices"),
                "choices apply only to choice inputs",
                "use type: choice or remove choices",
            );
        }
        let mut spec = InputSpec {
            name: ri.name.clone(),
            label: ri
                .label
                .clone()
                .unwrap_or_else(|| ri.name.replace('_', " ")),
            from: input_source(ctx, &p.key("from"), ri.from.as_ref(), &kind),
            kind,
            default: None,
            needed_when: None,
            needed_when_source: None,
            choice_labels: BTreeMap::new(),
            rule: ri.rule.clone(),
            source_lines: ri.source.clone(),
            help: ri.help.clone(),
        };
        if let Some(raw_when) = &ri.needed_when {
            // Read against the inputs above this one (and the rulings) only.
            let mut above = known.clone();
            above.remove(&ri.name);
            if let Some(e) = ctx.expr(&p.key("needed_when"), raw_when, &above) {
                spec.needed_when_source = Some(raw_when.text());
                spec.needed_when = Some(e);
            }
        }
        if let Some(labels) = &ri.choice_labels {
            for (choice, label) in labels {
                match &spec.kind {
                    InputKind::Choice { choices } if choices.contains(choice) => {
                        spec.choice_labels.insert(choice.clone(), label.clone());
                    }
                    _ => ctx.err(
                        &p.key("choice_labels").key(choice),
                        format!("'{choice}' is not one of the input's choices"),
                        "label only the choices listed under choices:",
                    ),
                }
            }
        }
        if let Some(d) = &ri.default {
            match spec.parse_value(&d.text()) {
                Ok(v) => spec.default = Some(v),
                Err(e) => {
                    ctx.err(
                        &p.key("default"),
                        format!("default: {e}"),
                        "give a default of the input's type and range",
                    );
                    continue;
                }
            }
        }
        scope.set(&spec.name, spec.fallback());
        inputs.push(spec);
    }
    let mut derived = Vec::new();
    for (i, rd) in raw.derived.iter().enumerate() {
        let p = path.key("derived").index(i);
        if !is_identifier(&rd.name)
            || known.contains(&rd.name)
            || LOOKUP_NAMES.contains(&rd.name.as_str())
        {
            ctx.err(
                &p.key("name"),
                format!("derived name '{}' is invalid or already used", rd.name),
                "choose a new snake_case name",
            );
            continue;
        }
        let Some(expr) = ctx.expr(&p.key("expr"), &rd.expr, &known) else {
            continue;
        };
        let when = rd.when.as_ref().and_then(|w| {
            let e = ctx.expr(&p.key("when"), w, &known)?;
            if let Some(problem) = type_problem(e.eval(&scope), "flag") {
                ctx.err(&p.key("when"), problem, "write a condition (true or false)");
            }
            Some(e)
        });
        let value = expr.eval(&scope);
        if let Some(problem) = type_problem(value.clone(), "any") {
            ctx.err(
                &p.key("expr"),
                problem,
                "check the types of the names it uses",
            );
        }
        scope.set(&rd.name, value.unwrap_or(Value::Int(0)));
        known.insert(rd.name.clone());
        derived.push(Derived {
            name: rd.name.clone(),
            label: rd.label.clone(),
            source: expr.source().to_string(),
            expr,
            when_source: when.as_ref().map(|w| w.source().to_string()),
            when,
            rule: rd.rule.clone(),
            source_lines: rd.source.clone(),
            ruling: rd.ruling.clone(),
        });
    }
    let Some(raw_lookup) = raw.lookup.kind() else {
        ctx.err(
            &path.key("lookup"),
            "lookup needs exactly one of table:, threshold:, pool:, compute:, opposed:",
            "keep one lookup kind",
        );
        return None;
    };
    let is_pool = matches!(raw_lookup, RawLookup::Pool(_) | RawLookup::Opposed(_));
    let roll = match (&raw.roll, is_pool) {
        (Some(r), false) => match DiceExpr::parse(r, dice) {
            Ok(e) => Some(e),
            Err(e) => {
                ctx.err(
                    &path.key("roll"),
                    e.to_string(),
                    "write dice such as d6, 2d6, d10, d6+1 or ceil(d6/2)",
                );
                None
            }
        },
        (Some(_), true) => {
            ctx.err(
                &path.key("roll"),
                "a pool or opposed procedure takes its dice from its lookup",
                "remove roll:",
            );
            None
        }
        (None, _) => None,
    };
    let lookup_kind = match &raw_lookup {
        RawLookup::Table(_) => "table",
        RawLookup::Threshold(_) => "threshold",
        RawLookup::Pool(_) => "pool",
        RawLookup::Compute(_) => "compute",
        RawLookup::Opposed(_) => "opposed",
    };
    // A compute lookup without dice is plain arithmetic (Force Quality, SP doubling…).
    if raw.roll.is_none() && matches!(raw_lookup, RawLookup::Threshold(_)) {
        ctx.err(
            path,
            format!("a {lookup_kind} procedure needs roll:"),
            "add roll: d6 (or the dice the rule uses)",
        );
    }
    let mut modifiers = Vec::new();
    for (i, rm) in raw.modifiers.iter().enumerate() {
        let p = path.key("modifiers").index(i);
        let target = applies_to(rm.applies_to);
        let allowed = match target {
            AppliesTo::Roll => !matches!(lookup_kind, "pool" | "opposed"),
            AppliesTo::Target => matches!(lookup_kind, "threshold" | "compute" | "opposed"),
            AppliesTo::Column => lookup_kind == "table",
            AppliesTo::Dice | AppliesTo::EachDie => matches!(lookup_kind, "pool" | "opposed"),
        };
        if !allowed {
            ctx.err(&p.key("applies_to"), format!("a modifier to the {target:?} does not fit a {lookup_kind} lookup").to_lowercase(), "roll: table/threshold/compute; target: threshold/compute/opposed; column: table; dice/each_die: pool/opposed");
            continue;
        }
        let when = match &rm.when {
            Some(w) => {
                let Some(e) = ctx.expr(&p.key("when"), w, &known) else {
                    continue;
                };
                if let Some(problem) = type_problem(e.eval(&scope), "flag") {
                    ctx.err(
                        &p.key("when"),
                        problem,
                        "a condition must be true or false, e.g. disordered or sp > 4",
                    );
                    continue;
                }
                Some(e)
            }
            None => None,
        };
        let value = match (&rm.value, &rm.from_table) {
            (Some(v), None) => {
                let Some(e) = ctx.expr(&p.key("value"), v, &known) else {
                    continue;
                };
                if let Some(problem) = type_problem(e.eval(&scope), "number") {
                    ctx.err(
                        &p.key("value"),
                        problem,
                        "a modifier's value must be a whole number",
                    );
                    continue;
                }
                ModifierValue::Expr(e)
            }
            (None, Some(t)) => {
                let Some(r) =
                    validate_table_ref(ctx, &p.key("from_table"), t, tables, &known, false)
                else {
                    continue;
                };
                ModifierValue::Table(r)
            }
            (v, _) => {
                ctx.err(
                    &if v.is_some() {
                        p.key("from_table")
                    } else {
                        p.clone()
                    },
                    format!(
                        "modifier '{}' needs exactly one of value: or from_table:",
                        rm.name
                    ),
                    "give value: -1 (or an expression), or from_table: {table: …}",
                );
                continue;
            }
        };
        if rm.side.is_some() && lookup_kind != "opposed" {
            ctx.err(
                &p.key("side"),
                "side: applies only to opposed rolls",
                "remove side:",
            );
            continue;
        }
        modifiers.push(Modifier {
            name: rm.name.clone(),
            value,
            when,
            rule: rm.rule.clone(),
            source_lines: rm.source.clone(),
            applies_to: target,
            side: rm.side.clone(),
            ruling: rm.ruling.clone(),
        });
    }
    // Lookup: the engine's names, plus die_1, die_2, … for each die of the roll (opposed rolls
    // such as "Initiative − d6" for each player read their own die).
    let mut lookup_known = known.clone();
    lookup_known.extend(LOOKUP_NAMES.iter().map(|s| s.to_string()));
    for name in LOOKUP_NAMES {
        scope.set(name, Value::Int(0));
    }
    if let Some(r) = &roll {
        for k in 1..=r.dice().len() {
            lookup_known.insert(format!("die_{k}"));
            scope.set(&format!("die_{k}"), Value::Int(0));
        }
    }
    let lp = path.key("lookup").key(lookup_kind);
    let mut used_codes: Vec<(YamlPath, String)> = Vec::new();
    let lookup = match &raw_lookup {
        RawLookup::Table(t) => {
            validate_table_ref(ctx, &lp, t, tables, &lookup_known, roll.is_some())
                .map(Lookup::Table)
        }
        RawLookup::Threshold(t) => {
            let target = ctx.expr(&lp.key("target"), &t.target, &lookup_known);
            if let Some(e) = &target
                && let Some(problem) = type_problem(e.eval(&scope), "number")
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
        RawLookup::Pool(pool) => {
            let count = ctx.expr(&lp.key("count"), &pool.count, &known);
            if dice.get(&pool.die).is_none() {
                ctx.err(
                    &lp.key("die"),
                    format!("unknown die '{}'", pool.die),
                    "use dN or a die declared under dice:",
                );
            }
            let hits = validate_hits(ctx, &lp.key("hits"), &pool.hits, &known);
            let sum = pool.score == RawPoolScore::Sum;
            if !sum && pool.hits.is_empty() {
                ctx.err(
                    &lp,
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
        RawLookup::Compute(c) => {
            let (lets, cases) = validate_cases(
                ctx,
                &lp,
                &c.lets,
                &c.cases,
                &mut lookup_known,
                &mut scope,
                &mut used_codes,
            );
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
                if !is_identifier(&side.side) || !names.insert(side.side.clone()) {
                    ctx.err(
                        &sp.key("side"),
                        format!("side name '{}' is invalid or used twice", side.side),
                        "use a unique snake_case name such as attacker",
                    );
                    continue;
                }
                if side.dice.is_empty() {
                    ctx.err(
                        &sp.key("dice"),
                        "a side needs dice",
                        "add dice: [{count: …, die: d6}]",
                    );
                }
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
                    let Some(count) = ctx.expr(&gp.key("count"), &group.count, &known) else {
                        continue;
                    };
                    let modifier = match &group.modifier {
                        Some(m) => match ctx.expr(&gp.key("modifier"), m, &known) {
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
                lookup_known.insert(format!("{}_score", side.side));
                scope.set(&format!("{}_score", side.side), Value::Int(0));
                sides.push(Side {
                    name: side.side.clone(),
                    groups,
                });
            }
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
                    None if matches!(m.applies_to, RawAppliesTo::Dice | RawAppliesTo::EachDie) => {
                        ctx.err(
                            &path.key("modifiers").index(i),
                            "a dice modifier of an opposed roll needs side:",
                            "add side: <the side whose dice it changes>",
                        )
                    }
                    _ => {}
                }
            }
            let hits = validate_hits(ctx, &lp.key("hits"), &o.hits, &known);
            let sum = o.score == RawPoolScore::Sum;
            if !sum && o.hits.is_empty() {
                ctx.err(
                    &lp,
                    "opposed rolls scoring hits need hits: rules",
                    "add hits: [...] or use score: sum",
                );
            }
            let (lets, cases) = validate_cases(
                ctx,
                &lp,
                &o.lets,
                &o.cases,
                &mut lookup_known,
                &mut scope,
                &mut used_codes,
            );
            (ctx.errors.len() == before_sides).then_some(Lookup::Opposed {
                sides,
                sum,
                hits,
                lets,
                cases,
            })
        }
    };
    // Outcomes.
    let mut outcome_known = lookup_known.clone();
    outcome_known.extend(OUTCOME_NAMES.iter().map(|s| s.to_string()));
    let mut outcomes = Vec::new();
    let mut codes = BTreeSet::new();
    for (i, ro) in raw.outcomes.iter().enumerate() {
        let p = path.key("outcomes").index(i);
        if !codes.insert(ro.code.clone()) {
            ctx.err(
                &p.key("code"),
                format!("outcome '{}' is declared twice", ro.code),
                "declare each outcome once",
            );
            continue;
        }
        let effects = validate_effects(ctx, &p.key("effects"), &ro.effects, &outcome_known);
        for (k, e) in ro.effects.iter().enumerate() {
            if let Some(target) = &e.procedure
                && !procedure_ids.contains(target)
            {
                ctx.err(
                    &p.key("effects").index(k).key("procedure"),
                    format!("unknown procedure '{target}'"),
                    format!(
                        "procedures of this ruleset: {}",
                        procedure_ids.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
        }
        outcomes.push(OutcomeSpec {
            code: ro.code.clone(),
            label: ro
                .label
                .clone()
                .unwrap_or_else(|| ro.code.replace('_', " ")),
            effects,
            rule: ro.rule.clone(),
            source_lines: ro.source.clone(),
        });
    }
    for (p, code) in used_codes {
        if !codes.contains(&code) {
            ctx.err(
                &p,
                format!("outcome '{code}' is not declared under outcomes:"),
                format!(
                    "declared: {}",
                    codes.iter().cloned().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
    if ctx.errors.len() > before {
        return None;
    }
    Some(Procedure {
        id: raw.id.clone(),
        name: raw.name.clone(),
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        description: raw.description.clone(),
        ruling: raw.ruling.clone(),
        inputs,
        derived,
        roll,
        modifiers,
        lookup: lookup?,
        outcomes,
    })
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

/// An input's `from:`: a role and an attribute the ruleset declares, of a type that fits.
pub(super) fn input_source(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: Option<&RawInputSource>,
    input: &InputKind,
) -> Option<InputSource> {
    let (role, attribute) = match raw? {
        RawInputSource::Dotted(t) => match t.split_once('.') {
            Some((r, a)) => (r.trim().to_string(), a.trim().to_string()),
            None => {
                ctx.err(
                    path,
                    format!("'{t}' does not name a role and an attribute"),
                    "write from: army.strength_thousands, or from: {role: army, attribute: strength_thousands}",
                );
                return None;
            }
        },
        RawInputSource::Full(f) => (f.role.clone(), f.attribute.clone()),
    };
    if !is_identifier(&role) || !is_identifier(&attribute) {
        ctx.err(
            path,
            format!("'{role}.{attribute}' is not a role and an attribute name"),
            "use lower case letters, digits and _ for both, e.g. army.strength_thousands",
        );
        return None;
    }
    // Inputs that mirror the game: this turn's result of a procedure (a choice of its result
    // codes), or the turn (a number).
    match role.as_str() {
        "result" => {
            if !matches!(input, InputKind::Choice { .. }) {
                ctx.err(
                    path,
                    format!("'result.{attribute}' mirrors a result: the input must be a choice"),
                    "give the input the result codes as its choices",
                );
                return None;
            }
            return Some(InputSource { role, attribute });
        }
        "game" => {
            if attribute != "turn" || !matches!(input, InputKind::Int { .. }) {
                ctx.err(
                    path,
                    format!("'game.{attribute}' is not something the game gives"),
                    "the game gives game.turn, to a number input",
                );
                return None;
            }
            return Some(InputSource { role, attribute });
        }
        _ => {}
    }
    if let Some(attrs) = &ctx.attributes {
        let Some(spec) = attrs.iter().find(|a| a.name == attribute) else {
            let names: Vec<&str> = attrs.iter().map(|a| a.name.as_str()).collect();
            ctx.err(
                path,
                format!("unknown attribute '{attribute}'"),
                format!(
                    "name a unit or leader attribute of the ruleset: {}",
                    if names.is_empty() {
                        "none declared".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            );
            return None;
        };
        let fits = matches!(
            (input, &spec.kind),
            (InputKind::Int { .. }, AttributeKind::Int { .. })
                | (InputKind::Flag, AttributeKind::Flag)
                | (
                    InputKind::Choice { .. },
                    AttributeKind::Choice { .. } | AttributeKind::Text
                )
        );
        if !fits {
            ctx.err(
                path,
                format!("attribute '{attribute}' does not fit this input's type"),
                "an int input reads an int attribute, a flag a flag, a choice a choice or text",
            );
            return None;
        }
    }
    Some(InputSource { role, attribute })
}
