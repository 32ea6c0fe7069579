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
    check_column_shape(ctx, path, raw, table);
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

/// A lookup's `column:`/`ratio:` as the table's columns need: ratio for odds-ratio columns,
/// column for other columns, neither for a single column.
fn check_column_shape(ctx: &mut FileCtx, path: &YamlPath, raw: &RawTableRef, table: &Table) {
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
        if !ctx.once(
            &mut known,
            ri.name.clone(),
            &p.key("name"),
            "input",
            &ri.name,
        ) {
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
                let mut unique = BTreeSet::new();
                let at = p.key("choices");
                let once = choices.iter().enumerate().fold(true, |once, (j, c)| {
                    ctx.once(&mut unique, c, &at.index(j), "choice", c) && once
                });
                if !once {
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
    let lookup = validate_lookup(
        ctx,
        &lp,
        &raw_lookup,
        Around {
            path,
            raw,
            known: &known,
            roll: roll.as_ref(),
            tables,
            dice,
        },
        &mut lookup_known,
        &mut scope,
        &mut used_codes,
    );
    // Outcomes.
    let mut outcome_known = lookup_known.clone();
    outcome_known.extend(OUTCOME_NAMES.iter().map(|s| s.to_string()));
    let mut outcomes = Vec::new();
    let mut codes = BTreeSet::new();
    for (i, ro) in raw.outcomes.iter().enumerate() {
        let p = path.key("outcomes").index(i);
        if !ctx.once(
            &mut codes,
            ro.code.clone(),
            &p.key("code"),
            "outcome",
            &ro.code,
        ) {
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
        once_per_turn: raw
            .once_per_turn
            .as_ref()
            .map(|o| (o.role.clone(), o.text.clone(), o.rule.clone())),
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

/// An input's `from:`: a role and an attribute the ruleset declares, of a type that fits.
pub(super) fn input_source(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: Option<&RawInputSource>,
    input: &InputKind,
) -> Option<InputSource> {
    let raw = raw?;
    let (only, unless) = match raw {
        RawInputSource::Full(f) => (
            f.only
                .as_ref()
                .map(|o| super::losses::counter_filter(ctx, &path.key("only"), o, &[])),
            f.unless
                .iter()
                .enumerate()
                .map(|(i, u)| {
                    super::losses::counter_filter(ctx, &path.key("unless").index(i), u, &[])
                })
                .collect(),
        ),
        RawInputSource::Dotted(_) => (None, Vec::new()),
    };
    let (role, attribute) = match raw {
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
            return Some(InputSource {
                role,
                attribute,
                only: None,
                unless: Vec::new(),
            });
        }
        "game" => {
            if !["turn", "scheduled_amount"].contains(&attribute.as_str())
                || !matches!(input, InputKind::Int { .. })
            {
                ctx.err(
                    path,
                    format!("'game.{attribute}' is not something the game gives"),
                    "the game gives game.turn and game.scheduled_amount (the amount the scenario schedules for the item resolved), to a number input",
                );
                return None;
            }
            return Some(InputSource {
                role,
                attribute,
                only: None,
                unless: Vec::new(),
            });
        }
        _ => {}
    }
    if let Some(attrs) = &ctx.attributes {
        let Some(spec) = attrs.iter().find(|a| a.name == attribute) else {
            let names: Vec<&str> = attrs.iter().map(|a| a.name.as_str()).collect();
            let hint = format!(
                "name a unit or leader attribute of the ruleset: {}",
                if names.is_empty() {
                    "none declared".to_string()
                } else {
                    names.join(", ")
                }
            );
            ctx.err(path, format!("unknown attribute '{attribute}'"), hint);
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
    Some(InputSource {
        role,
        attribute,
        only,
        unless,
    })
}
