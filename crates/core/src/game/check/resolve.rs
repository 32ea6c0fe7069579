//! Checks of resolutions and their results: the app dice, a procedure resolved, a chart code the text does not give, effects applied, changes with a reason, overrides.

use super::*;

pub(super) fn standing_resolution(view: &View, of: u64) -> Result<(), Refusal> {
    match standing(view, of).map(|e| &e.kind) {
        Some(EventKind::Resolved { .. }) => Ok(()),
        _ => Err(Refusal::NotAStandingResolution { entry: of }),
    }
}

/// The app dice, when this copy of the game may roll them.
pub(super) fn app_dice(view: &View) -> Result<AppDice, Refusal> {
    if let Some(entry) = view.state.seed_revealed {
        return Err(Refusal::NoAppDice(NoAppDice::Revealed { entry }));
    }
    let seed = view
        .meta
        .seed
        .ok_or(Refusal::NoAppDice(NoAppDice::Withheld))?;
    Ok(if view.meta.seed_public {
        AppDice::resume(seed, view.state.next_draw)
    } else {
        AppDice::secret(seed, view.state.next_draw)
    })
}

/// A procedure resolved at most once a turn for the counter in its role (a revenue card of
/// each type a turn): refused, naming the earlier entry and the rule, when one counts already.
fn once_per_turn(
    view: &View,
    p: &crate::rules::Procedure,
    counters: &BTreeMap<String, Vec<CounterId>>,
) -> Result<(), Refusal> {
    let Some((role, text, rule)) = &p.once_per_turn else {
        return Ok(());
    };
    let Some(mine) = counters.get(role).filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    let turn = view.state.cursor.turn;
    for (cursor, procedure, seq) in &view.state.resolved {
        if cursor.turn != turn || *procedure != p.id {
            continue;
        }
        let Some(EventKind::Resolved { counters: then, .. }) = view
            .events
            .get((*seq as usize).wrapping_sub(1))
            .map(|e| &e.kind)
        else {
            continue;
        };
        if let Some(c) = then.get(role).and_then(|ids| {
            ids.iter()
                .find(|id| mine.iter().any(|m| m.as_str() == id.as_str()))
        }) {
            return Err(Refusal::Record(format!(
                "{} was resolved for {c} this turn already (entry {seq}): {text} ({rule})",
                p.name
            )));
        }
    }
    Ok(())
}

/// The item of the step a resolution of `p` answers, by key: the one named (its number, key
/// or label as `status` shows it; `none`: no item), else the one open item of the step that
/// asks for `p` and fits the counters involved (their side, their Force). Several sides' items
/// and no way to tell whose: refused, listing them.
pub(crate) fn answered_item(
    view: &View,
    p: &crate::rules::Procedure,
    counters: &BTreeMap<String, Vec<CounterId>>,
    named: Option<&str>,
) -> Result<Option<String>, Refusal> {
    let all = pending_items(view);
    if let Some(named) = named {
        if named
            .trim()
            .eq_ignore_ascii_case(crate::game::steps::NO_ITEM)
        {
            return Ok(None);
        }
        let Some(item) = crate::game::steps::find_pending(&all, named) else {
            return Err(Refusal::NothingPending {
                item: named.to_string(),
                pending: numbered(&all, |x| !x.done && x.procedure.is_some()),
            });
        };
        if item.procedure.as_deref() != Some(p.id.as_str()) {
            return Err(Refusal::ItemNotOfProcedure {
                item: item.label.clone(),
                procedure: p.name.clone(),
                asks: item.procedure.as_deref().map(|x| {
                    view.ruleset
                        .procedure(x)
                        .map_or(x, |q| q.name.as_str())
                        .to_string()
                }),
            });
        }
        return Ok(Some(item.key.clone()));
    }
    let involved: Vec<&CounterState> = counters
        .values()
        .flatten()
        .filter_map(|id| view.state.counters.get(id.as_str()))
        .collect();
    let fits = |x: &Pending| match &x.whose {
        None => true,
        Some(_) if involved.is_empty() => true,
        Some(crate::game::steps::Whose::Side(s)) => involved
            .iter()
            .any(|c| c.side == *s || c.army.as_deref() == Some(s.as_str())),
        Some(crate::game::steps::Whose::Force(f)) => involved
            .iter()
            .any(|c| c.force.as_deref() == Some(f.as_str())),
    };
    // Open, and not answered yet (a side's AP roll made, its credit still to record).
    let answered = |x: &Pending| view.state.answered.values().any(|k| *k == x.key);
    let open: Vec<&Pending> = all
        .iter()
        .filter(|x| {
            !x.done && x.procedure.as_deref() == Some(p.id.as_str()) && fits(x) && !answered(x)
        })
        .collect();
    match open.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.key.clone())),
        several => {
            // Several sides' scheduled rolls cannot be told apart: say whose. Forces' items
            // (an activation with no Force in its role) answer none, as before.
            let sides: std::collections::BTreeSet<&str> = several
                .iter()
                .filter_map(|x| match &x.whose {
                    Some(crate::game::steps::Whose::Side(s)) => Some(s.as_str()),
                    _ => None,
                })
                .collect();
            if sides.len() > 1 {
                return Err(Refusal::WhichItem {
                    procedure: p.name.clone(),
                    items: numbered(&all, |x| several.iter().any(|o| o.key == x.key)),
                });
            }
            Ok(None)
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn check_resolve(
    view: &View,
    actor: &Actor,
    procedure: &str,
    typed: &[(String, String)],
    physical: Option<&[String]>,
    chart: Option<(&str, bool)>,
    counters: &BTreeMap<String, Vec<CounterId>>,
    item: Option<&str>,
) -> Checked {
    let Some(p) = view.ruleset.procedure(procedure) else {
        return Err(Refusal::NoProcedure {
            procedure: procedure.to_string(),
            ruleset: view.ruleset.id.clone(),
            procedures: view
                .ruleset
                .procedures
                .iter()
                .map(|p| p.id.clone())
                .collect(),
        });
    };
    for id in counters.values().flatten() {
        counter(view, id.as_str())?;
    }
    // A counter in a role the procedure does not have while one of its own is left empty: a
    // misnamed role, and what its results do would fall on no one. (A counter named only to
    // say who is involved, beside every role filled, is taken.)
    let roles = crate::game::effects::roles_of(view.ruleset, p);
    let empty = roles
        .iter()
        .any(|r| counters.get(r).is_none_or(Vec::is_empty));
    if let Some(role) = counters
        .keys()
        .find(|r| empty && !roles.is_empty() && !roles.contains(r))
    {
        return Err(Refusal::NoRole {
            procedure: p.name.clone(),
            role: role.clone(),
            roles,
        });
    }
    once_per_turn(view, p, counters)?;
    let item = answered_item(view, p, counters, item)?;
    let scheduled = item
        .as_deref()
        .and_then(|key| crate::game::sequence::scheduled_for(view.scenario, key));
    let game = crate::game::effects::FromGame {
        ruleset: Some(view.ruleset),
        scheduled: scheduled.as_ref(),
    };
    let filled = crate::game::effects::prefill_all(p, view.state, view.events, game, counters);
    not_known_yet(view, p, typed, &filled)?;
    // Inputs typed by the umpire win over those taken from the counters.
    let mut pairs: Vec<(String, String)> = filled
        .values
        .into_iter()
        .filter(|f| !typed.iter().any(|(n, _)| *n == f.input))
        .map(|f| {
            let value = match f.value {
                Value::Bool(b) => b.to_string(),
                v => v.to_string(),
            };
            (f.input, value)
        })
        .collect();
    pairs.extend(typed.iter().cloned());
    let given = parse_inputs(p, &pairs)?;
    city_roll(view, p, &given)?;
    raise_needs(view, p)?;
    let mut app;
    let dice = match physical {
        Some(faces) => DiceSource::Physical {
            faces: faces.to_vec(),
            entered_by: actor.by.clone(),
        },
        None => match app_dice(view) {
            Ok(dice) => {
                app = dice;
                DiceSource::App(&mut app)
            }
            // No app dice here: fine for a procedure that throws none.
            Err(refusal)
                if crate::resolve::prepare(view.ruleset, p, &given)?
                    .dice
                    .is_some() =>
            {
                return Err(refusal);
            }
            Err(_) => DiceSource::Physical {
                faces: Vec::new(),
                entered_by: actor.by.clone(),
            },
        },
    };
    let mut resolution = resolve(view.ruleset, p, &given, dice, chart.map(|(c, _)| c))?;
    if let Some((code, confirmed)) = chart
        && resolution.outcome.from_physical_chart
    {
        chart_code(view.ruleset, p, &mut resolution, code, confirmed)?;
    }
    Ok(vec![EventKind::Resolved {
        resolution: Box::new(resolution),
        counters: crate::game::names::role_ids_text(counters),
        item,
    }])
}

/// An input the counters in its role cannot give yet (an attribute printed on them, not
/// known), which the result reads and the umpire did not type: refused, naming the counters
/// and the attribute — never resolved with its default.
fn not_known_yet(
    view: &View,
    p: &crate::rules::Procedure,
    typed: &[(String, String)],
    filled: &crate::game::effects::Prefill,
) -> Result<(), Refusal> {
    // The same source as an input typed (another Quality group of the same role): the umpire
    // gives that role's split himself, the groups not typed are as the rules default them.
    let source = |name: &str| {
        p.input(name)
            .and_then(|i| i.from.as_ref())
            .map(|f| (f.role.clone(), f.attribute.clone()))
    };
    let open: Vec<&crate::game::effects::Needed> = filled
        .needed
        .iter()
        .filter(|n| {
            !typed.iter().any(|(t, _)| {
                *t == n.input || (source(t).is_some() && source(t) == source(&n.input))
            })
        })
        .collect();
    if open.is_empty() {
        return Ok(());
    }
    // Only what the result can still depend on, with what is known.
    let mut known: BTreeMap<String, Value> = BTreeMap::new();
    for f in &filled.values {
        known.insert(f.input.clone(), f.value.clone());
    }
    for (name, value) in typed {
        if let Some(spec) = p.input(name)
            && let Ok(v) = spec.parse_value(value)
        {
            known.insert(name.clone(), v);
        }
    }
    let read = crate::resolve::needed::needed_inputs(view.ruleset, p, &known);
    let Some(n) = open.into_iter().find(|n| read.contains(&n.input)) else {
        return Ok(());
    };
    Err(Refusal::NotKnownYet {
        procedure: p.name.clone(),
        input: p
            .input(&n.input)
            .map_or_else(|| n.input.clone(), |i| i.label.clone()),
        attribute: crate::game::words::attribute_words(view.ruleset, &n.attribute),
        counters: n
            .counters
            .iter()
            .map(|id| view.state.counter_name(id).to_string())
            .collect(),
    })
}

/// A City's Victory Points die (Scenario 4): once per City, for the side that owns it, only
/// for an owned, un-besieged City.
fn city_roll(
    view: &View,
    p: &crate::rules::Procedure,
    given: &BTreeMap<String, Value>,
) -> Result<(), Refusal> {
    let rolled: Vec<(u64, String)> = view
        .state
        .resolved
        .iter()
        .filter(|(_, proc_id, _)| *proc_id == p.id)
        .filter_map(|(_, _, seq)| match standing(view, *seq).map(|e| &e.kind) {
            Some(EventKind::Resolved { resolution, .. }) => match resolution.inputs.get("city") {
                Some(Value::Text(c)) => Some((*seq, c.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    match crate::game::victory::city_roll_refusal(view.scenario, view.state, &p.id, given, &rolled)
    {
        Some(reason) => Err(Refusal::NoVictory { reason }),
        None => Ok(()),
    }
}

/// A die that raises the result (the Duke of Albany's) is rolled only when the special rule
/// it needs holds, by the umpire's judgement (the Expeditionary Force sent).
fn raise_needs(view: &View, p: &crate::rules::Procedure) -> Result<(), Refusal> {
    for item in &view.scenario.victory {
        let Some(raise) = item.check.as_ref().and_then(|c| c.raise.as_ref()) else {
            continue;
        };
        if raise.procedure != p.id {
            continue;
        }
        let Some(rule) = raise.requires.as_deref() else {
            continue;
        };
        let title = view
            .scenario
            .special_rules
            .iter()
            .find(|r| r.id == rule)
            .map_or(rule, |r| r.title.as_str());
        match crate::game::victory::raise_requirement(view.state, raise) {
            Some(true) => {}
            Some(false) => {
                return Err(Refusal::NoVictory {
                    reason: format!(
                        "{} is rolled only when \"{title}\" holds, and the umpire judged it does not",
                        p.name
                    ),
                });
            }
            None => {
                return Err(Refusal::NoVictory {
                    reason: format!(
                        "{} is rolled only when \"{title}\" holds: record your judgement first (`game judge GAME \"{title}\" --holds --reason …`)",
                        p.name
                    ),
                });
            }
        }
    }
    Ok(())
}

/// A result read off the umpire's chart: taken when it is one of the codes the text gives for
/// that chart (each word of a combined result such as "A1 D3"), else only when the umpire
/// confirms it is what the chart prints — recorded with the result.
pub(super) fn chart_code(
    ruleset: &crate::rules::Ruleset,
    p: &crate::rules::Procedure,
    resolution: &mut crate::resolve::Resolution,
    code: &str,
    confirmed: bool,
) -> Result<(), Refusal> {
    let table = resolution
        .lookup
        .as_ref()
        .and_then(|l| ruleset.table(&l.table));
    // A table with a result key holds the code to it already (the resolver refuses others).
    if table.is_some_and(|t| !t.results.is_empty()) {
        return Ok(());
    }
    // The codes the text gives: the chart's own, and the procedure's outcomes.
    let mut codes: Vec<String> = table
        .map(|t| t.given_codes().into_iter().map(|(c, _)| c).collect())
        .unwrap_or_default();
    for o in &p.outcomes {
        if !codes.contains(&o.code) {
            codes.push(o.code.clone());
        }
    }
    let title = table.map_or_else(|| p.name.clone(), |t| t.title.clone());
    let known = code
        .split_whitespace()
        .all(|w| codes.iter().any(|c| c.eq_ignore_ascii_case(w)));
    if known {
        return Ok(());
    }
    if !confirmed {
        return Err(Refusal::UndeclaredChartCode {
            code: code.trim().to_string(),
            chart: title,
            codes,
        });
    }
    resolution.outcome.chart_confirmed = true;
    resolution.explanation.push(format!(
        "{} is not among the codes the text gives for {title}; the umpire confirmed the chart prints it",
        code.trim()
    ));
    Ok(())
}

pub(super) fn check_apply_effects(
    view: &View,
    actor: &Actor,
    of: u64,
    changes: &[CounterChange],
) -> Checked {
    standing_resolution(view, of)?;
    if view.state.applied.contains(&of) {
        return Err(Refusal::EffectsAlreadyApplied { entry: of });
    }
    check_changes(view, changes)?;
    // A delta past a floor (a treasury below 0) only at the umpire's word, recorded beside.
    let mut words = Vec::new();
    for ((counter, attribute), by) in delta_totals(changes) {
        if let Some(w) = adjust_range(view, counter, attribute, by, actor.reason.as_deref())? {
            words.push(w);
        }
    }
    let mut kinds = vec![EventKind::EffectsApplied {
        of,
        changes: changes.to_vec(),
    }];
    kinds.extend(words.into_iter().map(|text| EventKind::Note { text }));
    Ok(kinds)
}

pub(super) fn check_change(view: &View, changes: &[CounterChange], reason: &str) -> Checked {
    if changes.is_empty() {
        return Err(Refusal::NoChanges);
    }
    needs_reason(reason, "a change of several counters")?;
    check_changes(view, changes)?;
    Ok(changed(changes.to_vec(), Some(reason.to_string())))
}

/// Each change names a counter of the game, a place on its map, and a delta only on a
/// whole-number attribute.
pub(super) fn check_changes(view: &View, changes: &[CounterChange]) -> Result<(), Refusal> {
    for c in changes {
        counter(view, c.counter())?;
        if let CounterChange::Adjust {
            counter, attribute, ..
        } = c
        {
            adjustable(view, counter, attribute)?;
        }
        if let CounterChange::Move { to, .. } = c {
            position(view.ruleset, to)?;
        }
    }
    Ok(())
}

pub(super) fn check_override(view: &View, of: u64, outcome: &str, reason: &str) -> Checked {
    standing_resolution(view, of)?;
    needs_reason(reason, "an override")?;
    let procedure = match standing(view, of).map(|e| &e.kind) {
        Some(EventKind::Resolved { resolution, .. }) => {
            view.ruleset.procedure(&resolution.procedure)
        }
        _ => None,
    };
    let mut effects = Vec::new();
    if let Some(p) = procedure {
        let codes = crate::rules::ResultCodes::of(view.ruleset, p);
        if !codes.admits(outcome) {
            return Err(Refusal::NotAResultOf {
                code: outcome.trim().to_string(),
                procedure: p.name.clone(),
                codes: codes.listed(),
            });
        }
        // The effects of the result that stands now, worked out from the same inputs (an AP
        // Table result overridden to −1 receives max(0, nominal − 1)); none when they read
        // what only a roll gives.
        if let Some(EventKind::Resolved { resolution, .. }) = standing(view, of).map(|e| &e.kind)
            && let Ok(o) = crate::resolve::outcome_of(view.ruleset, p, &resolution.inputs, outcome)
        {
            effects = o.effects;
        }
    }
    Ok(vec![EventKind::Overridden {
        of,
        outcome: outcome.trim().to_string(),
        effects,
        reason: reason.to_string(),
    }])
}
