//! Preparing a resolution: inputs checked, derived values worked out, modifiers summed, the dice to throw (an opposed roll's groups too) — everything before the dice.

use super::*;

use std::collections::BTreeSet;

impl<'r> Prepared<'r> {
    /// Sum of the active modifiers to one target.
    pub fn total(&self, target: AppliesTo) -> i64 {
        self.modifiers
            .iter()
            .filter(|m| m.active && m.applies_to == target)
            .filter_map(|m| m.value)
            .sum()
    }

    /// The values expressions see (inputs, derived values, rulings, modifier totals).
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The explanation so far (inputs, derived values, modifiers).
    pub fn explanation(&self) -> &[String] {
        &self.explanation
    }
}

/// Works out inputs, derived values and modifiers.
pub fn prepare<'r>(
    ruleset: &'r Ruleset,
    procedure: &'r Procedure,
    given: &BTreeMap<String, Value>,
) -> Result<Prepared<'r>, ResolveError> {
    let mut scope = Scope::new();
    let mut explanation = vec![format!(
        "{}{}",
        procedure.name,
        rule_suffix(&procedure.rule)
    )];
    for r in &ruleset.rulings {
        scope.set(&format!("ruling_{}", r.id), Value::Text(r.selected.clone()));
    }
    check_given(procedure, given)?;
    let needed = needed_now(ruleset, procedure, given);
    // Inputs the case in hand does not need (their `needed_when` is false): not asked for, and
    // whatever reads them is left out rather than fed a made-up value.
    let mut not_needed: BTreeSet<String> = BTreeSet::new();
    let inputs = take_inputs(procedure, given, &mut scope, &needed, &mut not_needed)?;
    explanation.extend(inputs_line(procedure, &inputs));
    let derived = derive(procedure, &mut scope, &mut not_needed, &mut explanation)?;
    let (modifiers, unknown_modifier) =
        modifiers(ruleset, procedure, &scope, &not_needed, &mut explanation)?;
    let mut prepared = Prepared {
        ruleset,
        procedure,
        inputs,
        derived,
        modifiers,
        dice: procedure.roll.clone(),
        unknown_modifier,
        groups: Vec::new(),
        scope,
        explanation,
    };
    for name in crate::rules::LOOKUP_NAMES {
        prepared.scope.set(name, Value::Int(0));
    }
    let (roll_mod, target_mod, dice_mod) = (
        prepared.total(AppliesTo::Roll),
        prepared.total(AppliesTo::Target),
        prepared.total(AppliesTo::Dice),
    );
    prepared.scope.set("roll_modifier", Value::Int(roll_mod));
    prepared
        .scope
        .set("target_modifier", Value::Int(target_mod));
    prepared.scope.set("dice_modifier", Value::Int(dice_mod));
    if let Lookup::Pool { count, die, .. } = &procedure.lookup {
        prepare_pool(&mut prepared, (count, die), dice_mod)?;
    }
    if let Lookup::Opposed { sides, .. } = &procedure.lookup {
        prepare_opposed(&mut prepared, sides)?;
    }
    Ok(prepared)
}

/// Every input given must be one of the procedure's.
fn check_given(procedure: &Procedure, given: &BTreeMap<String, Value>) -> Result<(), ResolveError> {
    for name in given.keys() {
        if procedure.input(name).is_none() {
            return Err(ResolveError::UnknownInput {
                procedure: procedure.id.clone(),
                name: name.clone(),
                valid: procedure
                    .inputs
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    Ok(())
}

/// What the result can depend on under the values known: an input nothing live reads is not
/// asked for (needed.rs). Worked out only when some input has no value (given, default, or a
/// flag's off): a resolution with every input given pays nothing for it.
fn needed_now(
    ruleset: &Ruleset,
    procedure: &Procedure,
    given: &BTreeMap<String, Value>,
) -> BTreeSet<String> {
    let valued = |spec: &crate::rules::InputSpec| {
        given
            .get(&spec.name)
            .cloned()
            .or_else(|| spec.default.clone())
            .or_else(|| {
                matches!(spec.kind, crate::rules::InputKind::Flag).then_some(Value::Bool(false))
            })
    };
    if procedure.inputs.iter().all(|spec| {
        given.contains_key(&spec.name)
            || spec.default.is_some()
            || matches!(spec.kind, crate::rules::InputKind::Flag)
    }) {
        BTreeSet::new()
    } else {
        let known: BTreeMap<String, Value> = procedure
            .inputs
            .iter()
            .filter_map(|spec| valued(spec).map(|v| (spec.name.clone(), v)))
            .collect();
        needed::needed_inputs(ruleset, procedure, &known)
    }
}

/// The inputs' values (given, default, a flag's off) into `scope`; an input this case does not
/// need goes to `not_needed`; every input still without a value is named at once.
fn take_inputs(
    procedure: &Procedure,
    given: &BTreeMap<String, Value>,
    scope: &mut Scope,
    needed: &BTreeSet<String>,
    not_needed: &mut BTreeSet<String>,
) -> Result<BTreeMap<String, Value>, ResolveError> {
    let mut inputs = BTreeMap::new();
    let mut missing = Vec::new();
    for spec in &procedure.inputs {
        let value = match given.get(&spec.name) {
            Some(v) => {
                spec.check(v).map_err(ResolveError::BadInput)?;
                v.clone()
            }
            None => match &spec.default {
                Some(d) => d.clone(),
                None if matches!(spec.kind, crate::rules::InputKind::Flag) => Value::Bool(false),
                None if spec.needed_when.as_ref().is_some_and(|w| {
                    // An error here (an input above it missing too) counts as needed: the
                    // missing list then names both.
                    w.eval_bool(scope).is_ok_and(|needed| !needed)
                }) =>
                {
                    not_needed.insert(spec.name.clone());
                    continue;
                }
                None if !needed.contains(&spec.name) => {
                    not_needed.insert(spec.name.clone());
                    continue;
                }
                None => {
                    // Every input the rules give no value for is named at once.
                    missing.push(MissingInput {
                        name: spec.name.clone(),
                        label: spec.label.clone(),
                        expected: describe_kind(spec),
                    });
                    continue;
                }
            },
        };
        scope.set(&spec.name, value.clone());
        inputs.insert(spec.name.clone(), value);
    }
    if !missing.is_empty() {
        return Err(ResolveError::MissingInputs {
            procedure: procedure.name.clone(),
            missing,
        });
    }
    Ok(inputs)
}

/// The explanation's line of inputs (flags only when set, to keep it readable), if any.
fn inputs_line(procedure: &Procedure, inputs: &BTreeMap<String, Value>) -> Option<String> {
    // Flags are listed only when set, to keep the line readable.
    let list: Vec<String> = procedure
        .inputs
        .iter()
        .filter_map(|i| inputs.get(&i.name).map(|v| (i, v)))
        .filter(|(_, v)| **v != Value::Bool(false))
        .map(|(i, v)| {
            if *v == Value::Bool(true) {
                i.label.clone()
            } else {
                format!("{} = {}", i.label, i.value_words(v))
            }
        })
        .collect();
    (!list.is_empty()).then(|| format!("Inputs: {}", list.join(", ")))
}

/// The derived values into `scope`, those labelled for people into the explanation; one for
/// another case (`when:`), or reading what this case does not need, goes to `not_needed`.
fn derive(
    procedure: &Procedure,
    scope: &mut Scope,
    not_needed: &mut BTreeSet<String>,
    explanation: &mut Vec<String>,
) -> Result<Vec<NamedValue>, ResolveError> {
    let mut derived = Vec::new();
    for d in &procedure.derived {
        // A value for one case of the procedure only (`when:`): not worked out, nor shown,
        // in another, and whatever reads it is left out with it.
        if let Some(w) = &d.when {
            let holds = match w.partial(scope) {
                crate::rules::Partial::Known(v) => v == Value::Bool(true),
                crate::rules::Partial::Open(_) => w
                    .eval_bool(scope)
                    .map_err(expr_err(format!("derived value '{}' (when)", d.name)))?,
            };
            if !holds {
                not_needed.insert(d.name.clone());
                continue;
            }
        }
        let value = if d.expr.reads().iter().any(|n| not_needed.contains(n)) {
            // Reads an input this case does not need: its value when the rest decides it
            // (`if(no_engineers, 1, fire_value)`), else not computed, nor what reads it.
            match d.expr.partial(scope) {
                crate::rules::Partial::Known(v) => v,
                crate::rules::Partial::Open(_) => {
                    not_needed.insert(d.name.clone());
                    continue;
                }
            }
        } else {
            d.expr
                .eval(scope)
                .map_err(expr_err(format!("derived value '{}'", d.name)))?
        };
        // A value the ruleset labels for people is said in words; an unlabelled helper (and
        // every expression) stays in the JSON's derived values and the procedure's description.
        if let Some(label) = &d.label {
            // A name the ruleset writes as an id ("not_affecting") in words.
            let shown = match &value {
                Value::Text(t) if crate::rules::model::is_id_like(t) => {
                    crate::rules::model::key_words(&crate::rules::model::Key::Name(t.clone()))
                }
                Value::Bool(true) => "yes".to_string(),
                Value::Bool(false) => "no".to_string(),
                v => v.to_string(),
            };
            explanation.push(format!("{label} = {shown}{}", rule_suffix(&d.rule)));
        }
        scope.set(&d.name, value.clone());
        derived.push(NamedValue {
            name: d.name.clone(),
            value,
            rule: d.rule.clone(),
        });
    }
    Ok(derived)
}

/// The modifiers, each on or off with its value, into the explanation; a chart modifier whose
/// cell is missing is the second value (its value unknown).
fn modifiers(
    ruleset: &Ruleset,
    procedure: &Procedure,
    scope: &Scope,
    not_needed: &BTreeSet<String>,
    explanation: &mut Vec<String>,
) -> Result<(Vec<ModifierState>, Option<ResolveError>), ResolveError> {
    let mut modifiers = Vec::new();
    let mut unknown_modifier = None;
    for m in &procedure.modifiers {
        let reads_unneeded = m
            .when
            .iter()
            .flat_map(|w| w.reads())
            .chain(match &m.value {
                ModifierValue::Expr(e) => e.reads(),
                ModifierValue::Table(_) => &[],
            })
            .any(|n| not_needed.contains(n));
        let active = match &m.when {
            // Reads an input this case does not need: on only when the rest decides it is.
            Some(w) if reads_unneeded => {
                w.partial(scope) == crate::rules::Partial::Known(Value::Bool(true))
                    && match &m.value {
                        ModifierValue::Expr(e) => !e.reads().iter().any(|n| not_needed.contains(n)),
                        ModifierValue::Table(_) => true,
                    }
            }
            _ if reads_unneeded => false,
            Some(w) => w
                .eval_bool(scope)
                .map_err(expr_err(format!("condition of modifier '{}'", m.name)))?,
            None => true,
        };
        let (value, note) = if !active {
            (None, String::new())
        } else {
            match &m.value {
                ModifierValue::Expr(e) => (
                    Some(
                        e.eval_int(scope)
                            .map_err(expr_err(format!("value of modifier '{}'", m.name)))?,
                    ),
                    String::new(),
                ),
                ModifierValue::Table(r) => match table_value(ruleset, r, scope, None) {
                    Ok((v, trace)) => (Some(v), trace),
                    Err(e @ ResolveError::MissingCell { .. }) => {
                        unknown_modifier.get_or_insert(e);
                        (None, "chart cell missing".to_string())
                    }
                    Err(e) => return Err(e),
                },
            }
        };
        if active {
            let shown = value.map_or_else(|| "?".to_string(), signed);
            let target = match m.applies_to {
                AppliesTo::Roll => "to the roll",
                AppliesTo::Target => "to the target",
                AppliesTo::Column => "column shift",
                AppliesTo::Dice => "dice",
                AppliesTo::EachDie => "to each die",
            };
            let how = if note.is_empty() {
                String::new()
            } else {
                format!(" ({note})")
            };
            explanation.push(format!(
                "Modifier: {} {shown} {target}{how}{}",
                m.name,
                rule_suffix(&m.rule)
            ));
        }
        modifiers.push(ModifierState {
            name: m.name.clone(),
            value,
            source: m.rule.clone().unwrap_or_default(),
            applies_to: m.applies_to,
            side: m.side.clone(),
            active,
            note,
        });
    }
    Ok((modifiers, unknown_modifier))
}

/// A pool's dice: its count plus the dice modifiers (no fewer than 0, no more than the most).
fn prepare_pool(
    prepared: &mut Prepared,
    (count, die): (&crate::rules::Expr, &String),
    dice_mod: i64,
) -> Result<(), ResolveError> {
    let ruleset = prepared.ruleset;
    let base = count
        .eval_int(&prepared.scope)
        .map_err(expr_err("number of dice"))?;
    let n = (base + dice_mod).max(0);
    let extra = if dice_mod == 0 {
        String::new()
    } else {
        format!(" {} = {n}", plus_minus(dice_mod))
    };
    prepared.explanation.push(format!(
        "Dice: {base}{extra}{}",
        if base + dice_mod < 0 {
            " (no fewer than 0)"
        } else {
            ""
        }
    ));
    if n > i64::from(crate::dice::MAX_POOL) {
        return Err(ResolveError::TooLarge(format!(
            "a pool of {n} dice is more than {} dice",
            crate::dice::MAX_POOL
        )));
    }
    let Some(die) = ruleset.dice.get(die) else {
        return Err(ResolveError::Expression {
            what: "pool".into(),
            problem: format!("unknown die {die}"),
        });
    };
    prepared.dice = Some(DiceExpr::pool(n as u32, &die));
    Ok(())
}

/// Works out each side's dice: group sizes (plus that side's dice modifiers, on its first group)
/// and per-die modifiers (the group's own plus that side's each-die modifiers).
pub(super) fn prepare_opposed(
    prepared: &mut Prepared,
    sides: &[crate::rules::Side],
) -> Result<(), ResolveError> {
    let side_total = |p: &Prepared, side: &str, target: AppliesTo| -> i64 {
        p.modifiers
            .iter()
            .filter(|m| m.active && m.applies_to == target && m.side.as_deref() == Some(side))
            .filter_map(|m| m.value)
            .sum()
    };
    let mut total_dice = 0i64;
    for (i, side) in sides.iter().enumerate() {
        let extra_dice = side_total(prepared, &side.name, AppliesTo::Dice);
        let each = side_total(prepared, &side.name, AppliesTo::EachDie);
        let mut parts = Vec::new();
        for (g, group) in side.groups.iter().enumerate() {
            let base = group
                .count
                .eval_int(&prepared.scope)
                .map_err(expr_err(format!("{} dice", side.name)))?;
            let n = (base + if g == 0 { extra_dice } else { 0 }).max(0);
            // A group that throws no dice has no modifier to work out (what it reads may not
            // have been asked: needed.rs).
            let own = match &group.modifier {
                Some(e) if n > 0 => e
                    .eval_int(&prepared.scope)
                    .map_err(expr_err(format!("{} die modifier", side.name)))?,
                _ => 0,
            };
            let Some(die) = prepared.ruleset.dice.get(&group.die) else {
                return Err(ResolveError::Expression {
                    what: "opposed roll".into(),
                    problem: format!("unknown die {}", group.die),
                });
            };
            total_dice += n;
            let modifier = own + each;
            let label = group.label.clone().unwrap_or_default();
            let m = if modifier == 0 {
                String::new()
            } else {
                format!(" {} each", signed(modifier))
            };
            let floor = group
                .floor
                .map_or_else(String::new, |f| format!(", no lower than {f}"));
            if n > 0 {
                parts.push(format!(
                    "{n}{}{m}{floor}{}",
                    die.name,
                    if label.is_empty() {
                        String::new()
                    } else {
                        format!(" ({label})")
                    }
                ));
            }
            prepared.groups.push(PreparedGroup {
                side: i,
                count: n as u32,
                die,
                modifier,
                floor: group.floor,
            });
        }
        prepared.explanation.push(format!(
            "{}: {}",
            side.name,
            if parts.is_empty() {
                "no dice".to_string()
            } else {
                parts.join(" + ")
            }
        ));
    }
    if total_dice > i64::from(crate::dice::MAX_DICE) {
        return Err(ResolveError::TooLarge(format!(
            "{total_dice} dice are more than {}",
            crate::dice::MAX_DICE
        )));
    }
    let groups: Vec<(u32, &crate::dice::Die)> =
        prepared.groups.iter().map(|g| (g.count, &g.die)).collect();
    prepared.dice = Some(DiceExpr::groups(&groups));
    Ok(())
}
