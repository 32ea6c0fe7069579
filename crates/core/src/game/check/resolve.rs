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

pub(super) fn check_resolve(
    view: &View,
    actor: &Actor,
    procedure: &str,
    typed: &[(String, String)],
    physical: Option<&[String]>,
    chart: Option<(&str, bool)>,
    counters: &BTreeMap<String, Vec<CounterId>>,
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
    once_per_turn(view, p, counters)?;
    // Inputs typed by the umpire win over those taken from the counters.
    let mut pairs: Vec<(String, String)> =
        crate::game::effects::prefill(p, view.state, view.events, Some(view.ruleset), counters)
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
    }])
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

/// The outcomes a recorded resolution's procedure can give: its declared outcomes and the codes
/// its chart gives (each word of a combined result); a number always (a chart of numbers).
/// Empty when the text names none (nothing to hold an override to).
fn outcome_known(view: &View, of: u64, outcome: &str) -> Result<(), Refusal> {
    let Some(EventKind::Resolved { resolution, .. }) = standing(view, of).map(|e| &e.kind) else {
        return Ok(());
    };
    let Some(p) = view.ruleset.procedure(&resolution.procedure) else {
        return Ok(());
    };
    let mut codes: Vec<String> = resolution
        .lookup
        .as_ref()
        .and_then(|l| view.ruleset.table(&l.table))
        .map(|t| t.given_codes().into_iter().map(|(c, _)| c).collect())
        .unwrap_or_default();
    for o in &p.outcomes {
        if !codes.contains(&o.code) {
            codes.push(o.code.clone());
        }
    }
    let known =
        |w: &str| w.parse::<i64>().is_ok() || codes.iter().any(|c| c.eq_ignore_ascii_case(w));
    if codes.is_empty() || outcome.split_whitespace().all(known) {
        return Ok(());
    }
    Err(Refusal::NoSuchOutcome {
        outcome: outcome.trim().to_string(),
        procedure: p.name.clone(),
        codes,
    })
}

pub(super) fn check_override(view: &View, of: u64, outcome: &str, reason: &str) -> Checked {
    standing_resolution(view, of)?;
    needs_reason(reason, "an override")?;
    outcome_known(view, of, outcome)?;
    Ok(vec![EventKind::Overridden {
        of,
        outcome: outcome.to_string(),
        effects: Vec::new(),
        reason: reason.to_string(),
    }])
}
