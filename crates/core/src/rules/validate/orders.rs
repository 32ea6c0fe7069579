//! The `orders:` section: each kind of written order due at known steps, its fields naming
//! known tables, columns, rows, attributes and rulings, its reveals naming known Control roles,
//! steps and visibility entries; every id once, every text given, every rule the rulebook's.

use super::*;

/// What the `orders:` section may name.
pub(super) struct OrderNames<'a> {
    pub(super) steps: &'a BTreeSet<String>,
    pub(super) tables: &'a BTreeMap<String, Table>,
    pub(super) units: &'a [AttributeSpec],
    pub(super) leaders: &'a [AttributeSpec],
    pub(super) rulings: &'a [Ruling],
    pub(super) visibility: &'a Visibility,
    pub(super) statuses: &'a [String],
}

/// Validates the order kinds, each id once.
pub(super) fn validate_orders(
    ctx: &mut FileCtx,
    raw: &[RawOrderKind],
    names: &OrderNames,
) -> Vec<OrderKind> {
    let mut ids = BTreeSet::new();
    let mut out = Vec::new();
    for (i, o) in raw.iter().enumerate() {
        let p = YamlPath::root().key("orders").index(i);
        if ctx.unique_id(&mut ids, &p.key("id"), "order id", &o.id) {
            out.push(order_kind(ctx, &p, o, names));
        }
    }
    out
}

fn order_kind(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawOrderKind,
    names: &OrderNames,
) -> OrderKind {
    given(ctx, p, "name", &raw.name);
    given(ctx, p, "text", &raw.text);
    rule_ref(ctx, p, &raw.rule);
    if raw.steps.is_empty() {
        ctx.err(
            &p.key("steps"),
            "an order due at no step",
            "name the ids of the sequence_of_play steps at which it is due",
        );
    }
    for (i, s) in raw.steps.iter().enumerate() {
        known_step(ctx, &p.key("steps").index(i), s, names);
    }
    let each = match (raw.each, &raw.each_counter) {
        (RawOrderEach::Force, None) => OrderEach::Force,
        (RawOrderEach::Force, Some(_)) => {
            ctx.err(
                &p.key("each_counter"),
                "each_counter is for `each: counter`",
                "leave each_counter out, or write each: counter",
            );
            OrderEach::Force
        }
        (RawOrderEach::Counter, test) => {
            let at = p.key("each_counter");
            let test = match test {
                Some(t) => counter_test(ctx, &at, t, names.units),
                None => {
                    ctx.err(
                        &p.key("each"),
                        "`each: counter` needs each_counter",
                        "add each_counter: {attribute: ATTRIBUTE, is: VALUE}",
                    );
                    None
                }
            };
            OrderEach::Counter(test.unwrap_or(CounterTest {
                attribute: String::new(),
                is: Value::Bool(false),
            }))
        }
    };
    if raw.fields.is_empty() {
        ctx.err(
            &p.key("fields"),
            "an order that holds nothing",
            "list what each order holds (an Order from a table, areas, a box)",
        );
    }
    let mut field_ids = BTreeSet::new();
    let mut fields = Vec::new();
    for (i, f) in raw.fields.iter().enumerate() {
        let at = p.key("fields").index(i);
        if ctx.unique_id(&mut field_ids, &at.key("id"), "field id", &f.id)
            && let Some(f) = field(ctx, &at, f, names)
        {
            fields.push(f);
        }
    }
    let late = {
        let at = p.key("late");
        given(ctx, &at, "text", &raw.late.text);
        rule_ref(ctx, &at, &raw.late.rule);
        LateOrder {
            kind: match raw.late.kind {
                RawLateOrderKind::MissesStep => LateOrderKind::MissesStep,
                RawLateOrderKind::NotStated => LateOrderKind::NotStated,
            },
            text: raw.late.text.trim().to_string(),
            rule: raw.late.rule.trim().to_string(),
            source_lines: raw.late.source.clone(),
        }
    };
    if raw.reveal.is_empty() {
        ctx.err(
            &p.key("reveal"),
            "an order never revealed",
            "say when the rules reveal it and to whom (to: control or others)",
        );
    }
    let reveals = raw
        .reveal
        .iter()
        .enumerate()
        .map(|(i, r)| reveal(ctx, &p.key("reveal").index(i), r, names))
        .collect();
    let carry_out = raw
        .carry_out
        .as_ref()
        .map(|c| super::carry_out::carry_out(ctx, &p.key("carry_out"), c, &fields, names));
    OrderKind {
        id: raw.id.clone(),
        name: raw.name.trim().to_string(),
        rule: raw.rule.trim().to_string(),
        source_lines: raw.source.clone(),
        text: raw.text.trim().to_string(),
        steps: raw.steps.clone(),
        from: match raw.from {
            RawOrderFrom::Side => OrderFrom::Side,
            RawOrderFrom::Team => OrderFrom::Team,
            RawOrderFrom::ArmyCommander => OrderFrom::ArmyCommander,
        },
        each,
        fields,
        late,
        carry_out,
        reveals,
        notes: raw.notes.clone(),
    }
}

/// Records "a … without its KEY" when `text` is empty.
pub(super) fn given(ctx: &mut FileCtx, p: &YamlPath, key: &str, text: &str) {
    if text.trim().is_empty() {
        ctx.err(
            &p.key(key),
            format!("empty {key}"),
            format!("give the {key} in the game's words"),
        );
    }
}

/// A rule reference: given, and the rulebook's number or heading rather than a line.
pub(super) fn rule_ref(ctx: &mut FileCtx, p: &YamlPath, rule: &str) {
    if rule.trim().is_empty() || is_line_reference(rule) {
        ctx.err(
            &p.key("rule"),
            format!("rule '{rule}' is not a rule as the rulebook numbers it"),
            "give the rulebook's number (\"5.2\") or heading path (\"The Campaign System › Movement\"), and the text's lines in source:",
        );
    }
}

fn known_step(ctx: &mut FileCtx, p: &YamlPath, step: &str, names: &OrderNames) {
    if !names.steps.contains(step) {
        ctx.err(
            p,
            format!("'{step}' is not a step of the Sequence of Play"),
            "name the id of a sequence_of_play step, e.g. b2d_issue_orders",
        );
    }
}

/// `{attribute, is}` against the attributes `attrs`.
fn counter_test(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawOrderCounterTest,
    attrs: &[AttributeSpec],
) -> Option<CounterTest> {
    let Some(spec) = attrs.iter().find(|a| a.name == raw.attribute) else {
        let known: Vec<&str> = attrs.iter().map(|a| a.name.as_str()).collect();
        ctx.err(
            &p.key("attribute"),
            format!("unknown attribute '{}'", raw.attribute),
            format!("attributes here: {}", known.join(", ")),
        );
        return None;
    };
    match attribute_value(spec, &raw.is) {
        Ok(is) => Some(CounterTest {
            attribute: raw.attribute.clone(),
            is,
        }),
        Err((problem, hint)) => {
            ctx.err(&p.key("is"), problem, hint);
            None
        }
    }
}

fn field(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawOrderField,
    names: &OrderNames,
) -> Option<OrderField> {
    given(ctx, p, "label", &raw.label);
    rule_ref(ctx, p, &raw.rule);
    let wrong = |ctx: &mut FileCtx, key: &str, kind: &str| {
        ctx.err(
            &p.key(key),
            format!("{key} is not for a field of kind {kind}"),
            format!("leave {key} out of this field"),
        );
    };
    let kind_name = match raw.kind {
        RawOrderFieldKind::TableRow => "table_row",
        RawOrderFieldKind::Choice => "choice",
        RawOrderFieldKind::Areas => "areas",
        RawOrderFieldKind::Flag => "flag",
    };
    for (key, present, allowed) in [
        ("table", raw.table.is_some(), RawOrderFieldKind::TableRow),
        ("cost", raw.cost.is_some(), RawOrderFieldKind::TableRow),
        (
            "options",
            !raw.options.is_empty(),
            RawOrderFieldKind::Choice,
        ),
        ("max", raw.max.is_some(), RawOrderFieldKind::Areas),
        (
            "area_counters",
            raw.area_counters.is_some(),
            RawOrderFieldKind::Areas,
        ),
    ] {
        if present && raw.kind != allowed {
            wrong(ctx, key, kind_name);
        }
    }
    let kind = match raw.kind {
        RawOrderFieldKind::TableRow => table_row(ctx, p, raw, names)?,
        RawOrderFieldKind::Choice => OrderFieldKind::Choice {
            options: options(ctx, p, &raw.options),
        },
        RawOrderFieldKind::Areas => {
            let max = raw.max.unwrap_or(0);
            if max == 0 {
                ctx.err(
                    &p.key("max"),
                    "an areas field needs the most areas an order names",
                    "add max: N, as the rules give it",
                );
            }
            OrderFieldKind::Areas {
                max,
                area_counters: raw
                    .area_counters
                    .as_ref()
                    .and_then(|t| counter_test(ctx, &p.key("area_counters"), t, names.units)),
            }
        }
        RawOrderFieldKind::Flag => OrderFieldKind::Flag,
    };
    let choices: Vec<String> = match &kind {
        OrderFieldKind::TableRow { table, .. } => names.tables[table]
            .rows
            .iter()
            .map(|r| r.key.to_string())
            .collect(),
        OrderFieldKind::Choice { options } => options.iter().map(|o| o.id.clone()).collect(),
        _ => Vec::new(),
    };
    let restrictions = super::order_restrictions::restrictions(
        ctx,
        p,
        &raw.restrictions,
        &choices,
        names.statuses,
    );
    let sets = raw.sets.clone().filter(|a| {
        let spec = names.leaders.iter().find(|x| x.name == *a);
        if spec.is_none() {
            ctx.err(
                &p.key("sets"),
                format!("'{a}' is not a leader attribute of the ruleset"),
                "name the leader attribute the revealed choice is put on (order)",
            );
        }
        spec.is_some()
    });
    Some(OrderField {
        sets,
        id: raw.id.clone(),
        label: raw.label.trim().to_string(),
        kind,
        restrictions,
        required: raw.required,
        rule: raw.rule.trim().to_string(),
        source_lines: raw.source.clone(),
        help: raw.help.clone(),
    })
}

fn options(ctx: &mut FileCtx, p: &YamlPath, raw: &[RawOrderOption]) -> Vec<OrderOption> {
    if raw.is_empty() {
        ctx.err(
            &p.key("options"),
            "a choice field without options",
            "list the options as the rules print them",
        );
    }
    let mut ids = BTreeSet::new();
    let mut out = Vec::new();
    for (i, o) in raw.iter().enumerate() {
        let at = p.key("options").index(i);
        if ctx.unique_id(&mut ids, &at.key("id"), "option id", &o.id) {
            given(ctx, &at, "label", &o.label);
            out.push(OrderOption {
                id: o.id.clone(),
                label: o.label.trim().to_string(),
                moves: o.moves,
                row: o.row.clone(),
            });
        }
    }
    out
}

/// A `table_row` field: a known table, its cost from known columns.
fn table_row(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawOrderField,
    names: &OrderNames,
) -> Option<OrderFieldKind> {
    let Some(id) = &raw.table else {
        ctx.err(
            &p.key("table"),
            "a table_row field needs its table",
            "add table: ID, the table whose rows are the choices (e.g. orders)",
        );
        return None;
    };
    let Some(table) = names.tables.get(id) else {
        let known: Vec<&str> = names.tables.keys().map(String::as_str).collect();
        ctx.err(
            &p.key("table"),
            format!("unknown table '{id}'"),
            format!("tables of this ruleset: {}", known.join(", ")),
        );
        return None;
    };
    let cost = raw.cost.as_ref().map(|c| {
        let at = p.key("cost");
        given(ctx, &at, "unit", &c.unit);
        if c.columns.is_empty() {
            ctx.err(
                &at.key("columns"),
                "a cost from no column",
                "name the table's columns a Force pays from, first match first",
            );
        }
        let keys: Vec<String> = table
            .lines
            .iter()
            .flat_map(|l| l.keys.iter().map(ToString::to_string))
            .collect();
        let columns = c
            .columns
            .iter()
            .enumerate()
            .map(|(i, col)| {
                let here = at.key("columns").index(i);
                if !keys.contains(&col.column) {
                    ctx.err(
                        &here.key("column"),
                        format!("table '{id}' has no column '{}'", col.column),
                        format!("columns: {}", keys.join(", ")),
                    );
                }
                CostColumn {
                    column: col.column.clone(),
                    when: col
                        .when
                        .as_ref()
                        .map(|w| force_test(ctx, &here.key("when"), w, names))
                        .unwrap_or_default(),
                }
            })
            .collect();
        let paid_from = c.paid_from.clone().filter(|a| {
            let whole = names
                .units
                .iter()
                .any(|x| x.name == *a && matches!(x.kind, crate::rules::AttributeKind::Int { .. }));
            if !whole {
                ctx.err(
                    &p.key("cost").key("paid_from"),
                    format!("'{a}' is not a whole-number unit attribute of the ruleset"),
                    "name the attribute of the side's marker the costs are paid from (administrative_points)",
                );
            }
            whole
        });
        OrderCost {
            unit: c.unit.trim().to_string(),
            paid_from,
            columns,
        }
    });
    Some(OrderFieldKind::TableRow {
        table: id.clone(),
        cost,
    })
}

fn force_test(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawOrderForceTest,
    names: &OrderNames,
) -> ForceTest {
    let mut rulings = Vec::new();
    for (id, option) in raw.ruling.iter().flatten() {
        match names.rulings.iter().find(|r| r.id == *id) {
            None => ctx.err(
                &p.key("ruling").key(id),
                format!("unknown ruling '{id}'"),
                "name a ruling of this ruleset",
            ),
            Some(r) if !r.options.iter().any(|o| o.id == *option) => ctx.err(
                &p.key("ruling").key(id),
                format!("ruling '{id}' has no option '{option}'"),
                format!(
                    "options: {}",
                    r.options
                        .iter()
                        .map(|o| o.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            Some(_) => rulings.push((id.clone(), option.clone())),
        }
    }
    ForceTest {
        leader: raw
            .leader
            .as_ref()
            .and_then(|t| counter_test(ctx, &p.key("leader"), t, names.leaders)),
        all_units: raw
            .all_units
            .as_ref()
            .and_then(|t| counter_test(ctx, &p.key("all_units"), t, names.units)),
        strength: raw.strength,
        rulings,
    }
}

fn reveal(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawOrderReveal,
    names: &OrderNames,
) -> OrderReveal {
    for (i, r) in raw.roles.iter().enumerate() {
        if !REMIT_ROLES.contains(&r.as_str()) {
            ctx.err(
                &p.key("roles").index(i),
                format!("'{r}' is not a Control role"),
                format!("name one of {}", REMIT_ROLES.join(", ")),
            );
        }
    }
    let to = match raw.to {
        RawOrderRevealTo::Control => OrderRevealTo::Control(raw.roles.clone()),
        RawOrderRevealTo::Others => {
            if !raw.roles.is_empty() {
                ctx.err(
                    &p.key("roles"),
                    "roles are for `to: control`",
                    "leave roles out, or write to: control",
                );
            }
            OrderRevealTo::Others
        }
    };
    if raw.at != RawOrderRevealAt::Steps && !raw.steps.is_empty() {
        ctx.err(
            &p.key("steps"),
            "steps are for `at: steps`",
            "leave steps out, or write at: steps",
        );
    }
    if raw.at != RawOrderRevealAt::Visibility && !raw.visibility.is_empty() {
        ctx.err(
            &p.key("visibility"),
            "visibility is for `at: visibility`",
            "leave visibility out, or write at: visibility",
        );
    }
    let at = match raw.at {
        RawOrderRevealAt::StepStart => OrderRevealAt::StepStart,
        RawOrderRevealAt::AsCarriedOut => OrderRevealAt::AsCarriedOut,
        RawOrderRevealAt::Steps => {
            if raw.steps.is_empty() {
                ctx.err(
                    &p.key("at"),
                    "`at: steps` names no step",
                    "add steps: [STEP_ID, …]",
                );
            }
            for (i, s) in raw.steps.iter().enumerate() {
                known_step(ctx, &p.key("steps").index(i), s, names);
            }
            OrderRevealAt::Steps(raw.steps.clone())
        }
        RawOrderRevealAt::Visibility => {
            visibility_entries(ctx, p, &raw.visibility, names.visibility);
            OrderRevealAt::Visibility(raw.visibility.clone())
        }
    };
    given(ctx, p, "text", &raw.text);
    OrderReveal {
        to,
        at,
        from: sight_source(
            ctx,
            p,
            &raw.rule,
            &raw.source,
            &Some(raw.text.clone()),
            &raw.ruling,
        ),
    }
}

/// Every id in `ids` an entry of the `visibility:` section.
fn visibility_entries(ctx: &mut FileCtx, p: &YamlPath, ids: &[String], v: &Visibility) {
    if ids.is_empty() {
        ctx.err(
            &p.key("at"),
            "`at: visibility` names no visibility entry",
            "add visibility: [ENTRY_ID, …], ids of the visibility: section",
        );
    }
    let known: Vec<&str> = v
        .counters
        .iter()
        .map(|c| c.id.as_str())
        .chain(v.attributes.iter().map(|a| a.id.as_str()))
        .chain(v.open_results.iter().map(|o| o.id.as_str()))
        .chain(v.reveals.iter().map(|r| r.id.as_str()))
        .collect();
    for (i, id) in ids.iter().enumerate() {
        if !known.contains(&id.as_str()) {
            ctx.err(
                &p.key("visibility").index(i),
                format!("'{id}' is not an entry of the visibility: section"),
                if known.is_empty() {
                    "declare the visibility: section's entries first".to_string()
                } else {
                    format!("entries: {}", known.join(", "))
                },
            );
        }
    }
}

#[cfg(test)]
mod tests;
