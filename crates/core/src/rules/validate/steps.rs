//! The Sequence of Play's steps: each step's references, its `when`, the items it holds for
//! each Force, its battle, the markers it clears and the attributes it sets back.

use super::*;

/// What a step's references are checked against.
pub(super) struct StepNames<'a> {
    /// Procedure ids.
    pub procedures: &'a BTreeSet<String>,
    /// Deck ids.
    pub decks: &'a BTreeSet<String>,
    /// Status ids.
    pub statuses: &'a BTreeSet<String>,
    /// Optional rules' numbers.
    pub optional: &'a BTreeSet<String>,
    /// The procedures as validated (a per-Force item's inputs are checked against theirs).
    pub specs: &'a [Procedure],
    /// Each ruling's options, by ruling id.
    pub rulings: &'a BTreeMap<String, Vec<String>>,
    /// The units' and leaders' attribute names.
    pub attributes: &'a BTreeSet<String>,
}

/// A per-Force item's inputs, each an input of its procedure with a value of that input's type
/// and range (a choice among its choices).
fn per_force_inputs(
    ctx: &mut FileCtx,
    path: &YamlPath,
    item: &RawPerForce,
    specs: &[Procedure],
) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    // A procedure unknown (or refused) is said where it is named.
    let Some(procedure) = specs.iter().find(|p| p.id == item.procedure) else {
        return out;
    };
    for (name, raw) in &item.inputs {
        let Some(spec) = procedure.input(name) else {
            ctx.err(
                &path.key(name),
                format!("'{name}' is not an input of {}", procedure.name),
                format!(
                    "name one of its inputs: {}",
                    procedure
                        .inputs
                        .iter()
                        .map(|i| i.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            continue;
        };
        match spec.parse_value(&raw.text()) {
            Ok(value) => {
                out.insert(name.clone(), value);
            }
            Err(e) => ctx.err(
                &path.key(name),
                format!("{name}: {e}"),
                "give a value of the input's type and range (one of its choices)",
            ),
        }
    }
    out
}

fn check_known(ctx: &mut FileCtx, path: &YamlPath, id: &str, known: &BTreeSet<String>, what: &str) {
    if !known.contains(id) {
        ctx.err(
            path,
            format!("unknown {what} '{id}'"),
            if known.is_empty() {
                format!("this ruleset declares no {what}s")
            } else {
                format!(
                    "{what}s of this ruleset: {}",
                    known.iter().cloned().collect::<Vec<_>>().join(", ")
                )
            },
        );
    }
}

/// A step's condition clauses, checked.
fn validate_condition(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &RawStepCondition,
    names: &StepNames,
) -> StepCondition {
    if let Some(p) = &raw.schedule {
        check_known(ctx, &path.key("schedule"), p, names.procedures, "procedure");
    }
    if let Some(o) = &raw.optional {
        check_known(
            ctx,
            &path.key("optional"),
            o,
            names.optional,
            "optional rule",
        );
    }
    if let Some(st) = &raw.status {
        check_known(ctx, &path.key("status"), st, names.statuses, "status");
    }
    if let Some(r) = &raw.resolved {
        if let Some(st) = &r.marked {
            let at = path.key("resolved").key("marked");
            check_known(ctx, &at, st, names.statuses, "status");
        }
        for (k, p) in r.procedures.iter().enumerate() {
            let at = path.key("resolved").key("procedures").index(k);
            check_known(ctx, &at, p, names.procedures, "procedure");
        }
    }
    for (id, option) in &raw.ruling {
        let at = path.key("ruling").key(id);
        match names.rulings.get(id) {
            None => check_known(ctx, &at, id, &BTreeSet::new(), "ruling"),
            Some(options) if !options.contains(option) => ctx.err(
                &at,
                format!("ruling '{id}' has no option '{option}'"),
                format!("options: {}", options.join(", ")),
            ),
            Some(_) => {}
        }
    }
    StepCondition {
        ruling: raw.ruling.clone(),
        schedule: raw.schedule.clone(),
        contact: raw.contact,
        optional: raw.optional.clone(),
        status: raw.status.clone(),
        resolved: raw.resolved.as_ref().map(|r| ResolvedTimes {
            procedures: r.procedures.clone(),
            times: r.times,
            marked: r.marked.clone(),
        }),
        orders: raw.orders.clone(),
    }
}

/// A step's `when`: its words and its clauses.
fn validate_when(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: Option<&RawWhen>,
    names: &StepNames,
) -> (Option<String>, Option<StepCondition>) {
    match raw {
        None => (None, None),
        Some(RawWhen::Text(t)) => (Some(t.clone()), None),
        Some(RawWhen::Clauses(c)) => (
            c.text.clone(),
            Some(validate_condition(ctx, path, c, names)),
        ),
    }
}

pub(super) fn validate_steps(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawStep],
    names: &StepNames,
    ids: &mut BTreeSet<String>,
) -> Vec<Step> {
    let mut out = Vec::new();
    for (i, s) in raw.iter().enumerate() {
        let p = path.index(i);
        if !ctx.unique_id(ids, &p.key("id"), "step id", &s.id) {
            continue;
        }
        for (k, proc_id) in s.procedures.iter().enumerate() {
            check_known(
                ctx,
                &p.key("procedures").index(k),
                proc_id,
                names.procedures,
                "procedure",
            );
        }
        for (k, proc_id) in s.offers.iter().enumerate() {
            check_known(
                ctx,
                &p.key("offers").index(k),
                proc_id,
                names.procedures,
                "procedure",
            );
        }
        for (k, deck) in s.decks.iter().enumerate() {
            check_known(ctx, &p.key("decks").index(k), deck, names.decks, "deck");
        }
        if let Some(deck) = &s.repeat_until_empty {
            check_known(ctx, &p.key("repeat_until_empty"), deck, names.decks, "deck");
        }
        let (when, condition) = validate_when(ctx, &p.key("when"), s.when.as_ref(), names);
        let per_force = validate_per_force(ctx, &p, s, names);
        let steps = validate_steps(ctx, &p.key("steps"), &s.steps, names, ids);
        out.push(Step {
            id: s.id.clone(),
            name: s.name.clone(),
            rule: s.rule.clone(),
            source_lines: s.source.clone(),
            description: s.description.clone(),
            procedures: s.procedures.clone(),
            decks: s.decks.clone(),
            mandatory: s.mandatory,
            when,
            condition,
            offers: s.offers.clone(),
            per_force,
            branch: s.branch,
            enter: s.enter.clone(),
            repeat_until_empty: s.repeat_until_empty.clone(),
            stop: s.stop,
            victory: s.victory,
            scenario_end: s.scenario_end,
            steps,
            battle: validate_battle(ctx, &p, s, names),
            battle_result: s.battle_result,
            clears: known_statuses(ctx, &p.key("clears"), &s.clears, names),
            resets: validate_resets(ctx, &p.key("resets"), &s.resets, names),
        });
    }
    out
}

/// A step's items for each Force, each of a known procedure (and status, when `marked`).
fn validate_per_force(
    ctx: &mut FileCtx,
    p: &YamlPath,
    s: &RawStep,
    names: &StepNames,
) -> Vec<PerForce> {
    s.per_force
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let at = p.key("per_force").index(k);
            check_known(
                ctx,
                &at.key("procedure"),
                &f.procedure,
                names.procedures,
                "procedure",
            );
            if let Some(st) = &f.marked {
                check_known(ctx, &at.key("marked"), st, names.statuses, "status");
            }
            PerForce {
                marked: f.marked.clone(),
                battle: f.battle,
                procedure: f.procedure.clone(),
                label: f.label.clone(),
                mandatory: f.mandatory,
                condition: f
                    .when
                    .as_ref()
                    .map(|c| validate_condition(ctx, &at.key("when"), c, names)),
                rule: f.rule.clone(),
                inputs: per_force_inputs(ctx, &at.key("inputs"), f, names.specs),
            }
        })
        .collect()
}

/// A branch's battle: only on a branch, its winner read off a known procedure.
fn validate_battle(
    ctx: &mut FileCtx,
    p: &YamlPath,
    s: &RawStep,
    names: &StepNames,
) -> Option<BattleBranch> {
    let b = s.battle.as_ref()?;
    if !s.branch {
        ctx.err(
            &p.key("battle"),
            "a battle on a step that is not a branch",
            "a battle is fought in a branch entered by choice (branch: true)",
        );
    }
    if let Some(w) = &b.winner {
        check_known(
            ctx,
            &p.key("battle").key("winner").key("procedure"),
            &w.procedure,
            names.procedures,
            "procedure",
        );
    }
    Some(BattleBranch {
        kind: b.kind.clone(),
        name: b.name.clone(),
        winner: b
            .winner
            .as_ref()
            .map(|w| (w.procedure.clone(), w.role.clone())),
    })
}

/// A step's resets, each of an attribute the ruleset declares (and its flag).
fn validate_resets(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawReset],
    names: &StepNames,
) -> Vec<Reset> {
    let mut out = Vec::new();
    for (k, r) in raw.iter().enumerate() {
        let at = path.index(k);
        check_known(
            ctx,
            &at.key("attribute"),
            &r.attribute,
            names.attributes,
            "attribute",
        );
        if let Some(keep) = &r.keep {
            check_known(
                ctx,
                &at.key("keep").key("flag"),
                &keep.flag,
                names.attributes,
                "attribute",
            );
        }
        out.push(Reset {
            attribute: r.attribute.clone(),
            to: match &r.to {
                RawScalar::Int(i) => Value::Int(*i),
                RawScalar::Bool(b) => Value::Bool(*b),
                RawScalar::Text(t) => Value::Text(t.clone()),
            },
            keep: r.keep.as_ref().map(|k| (k.value.clone(), k.flag.clone())),
        });
    }
    out
}

/// The statuses of a list that the ruleset declares (each other one said where it is named).
fn known_statuses(
    ctx: &mut FileCtx,
    path: &YamlPath,
    list: &[String],
    names: &StepNames,
) -> Vec<String> {
    let mut out = Vec::new();
    for (k, st) in list.iter().enumerate() {
        check_known(ctx, &path.index(k), st, names.statuses, "status");
        if names.statuses.contains(st) {
            out.push(st.clone());
        }
    }
    out
}

/// Every `enter` names a step of the Sequence of Play.
pub(super) fn check_enter_targets(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawStep],
    ids: &BTreeSet<String>,
) {
    for (i, s) in raw.iter().enumerate() {
        let p = path.index(i);
        for (k, target) in s.enter.iter().enumerate() {
            check_known(ctx, &p.key("enter").index(k), target, ids, "step");
        }
        check_enter_targets(ctx, &p.key("steps"), &s.steps, ids);
    }
}
