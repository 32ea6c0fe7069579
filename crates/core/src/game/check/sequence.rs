//! Checks of the Sequence of Play and the megagame clock: next, back, skip, credit, the clock's work and its steps.

use super::*;

/// The game's walk, for `next`, `back` and entering a branch.
fn walk<'v>(view: &View<'v>) -> Walk<'v> {
    Walk {
        ruleset: view.ruleset,
        scenario: view.scenario,
        state: view.state,
        steps: view.steps,
    }
}

pub(super) fn check_next(view: &View) -> Checked {
    let open = numbered(&pending_items(view), |p| p.mandatory && !p.done);
    if !open.is_empty() {
        return Err(Refusal::MandatoryPending { items: open });
    }
    let (to, passed) = walk(view).next_stop();
    let past_the_end = to.turn > view.scenario.turns.max(1);
    // The Victory Phase, or the scenario's end, decides the game (13): when Next is at it or
    // passes it on the way.
    if let Some(result) = victory_on_the_way(view, &passed, past_the_end) {
        return Ok(vec![crate::game::victory::ended(result)]);
    }
    if past_the_end {
        return Err(Refusal::ScenarioEnds {
            turns: view.scenario.turns,
        });
    }
    let cleared = arrival_changes(view, &passed, to.step);
    let mut kinds = vec![EventKind::Stepped {
        from: view.state.cursor.clone(),
        to,
    }];
    kinds.extend(cleared);
    Ok(kinds)
}

/// What the steps Next passes or arrives at do to the counters, as one change saying why: the
/// status markers that come off (ailsh C.3: the Activation markers) and the attributes set back
/// (5.3.4 on AP turns: every Order removed, an Attack kept as a Previous Attack marker).
fn arrival_changes(view: &View, passed: &[usize], to: usize) -> Option<EventKind> {
    let mut why = Vec::new();
    let mut changes = Vec::new();
    for i in passed.iter().copied().chain(std::iter::once(to)) {
        let Some(step) = view.steps.get(i) else {
            continue;
        };
        for status in &step.clears {
            let before = changes.len();
            for c in view.state.counters.values() {
                if c.removed.is_none() && c.statuses.contains(status) {
                    changes.push(CounterChange::Status {
                        counter: c.id.clone(),
                        status: status.clone(),
                        on: false,
                    });
                }
            }
            if changes.len() > before {
                let label = view
                    .ruleset
                    .statuses
                    .iter()
                    .find(|s| s.id == *status)
                    .map_or_else(|| status.replace('_', " "), |s| s.label.clone());
                let rule = step
                    .rule
                    .as_deref()
                    .map_or_else(String::new, |r| format!(", {r}"));
                why.push(format!("{label} markers removed ({}{rule})", step.path));
            }
        }
    }
    for i in passed.iter().copied().chain(std::iter::once(to)) {
        let Some(step) = view.steps.get(i) else {
            continue;
        };
        let before = changes.len();
        changes.extend(resets(view, &step.resets));
        if changes.len() > before {
            let rule = step
                .rule
                .as_deref()
                .map_or_else(String::new, |r| format!(", {r}"));
            why.push(format!("set back as the step says ({}{rule})", step.path));
        }
    }
    (!changes.is_empty()).then(|| EventKind::Changed {
        changes,
        reason: Some(why.join("; ")),
        item: None,
    })
}

/// The attribute changes a step's resets make, on every counter on the table that has the
/// attribute: each reset in turn on the counter's values, only what ends up changed.
fn resets(view: &View, resets: &[crate::rules::Reset]) -> Vec<CounterChange> {
    let mut out = Vec::new();
    if resets.is_empty() {
        return out;
    }
    for c in view.state.counters.values().filter(|c| c.removed.is_none()) {
        let mut now = c.attributes.clone();
        for r in resets {
            let Some(value) = now.get(&r.attribute).cloned() else {
                continue;
            };
            if let Some((kept, flag)) = &r.keep
                && value == Value::Text(kept.clone())
            {
                now.insert(flag.clone(), Value::Bool(true));
            }
            now.insert(r.attribute.clone(), r.to.clone());
        }
        for (name, value) in &now {
            let was = c.attributes.get(name);
            if was != Some(value) {
                out.push(CounterChange::Attribute {
                    counter: c.id.clone(),
                    attribute: name.clone(),
                    from: was.cloned(),
                    to: value.clone(),
                });
            }
        }
    }
    out
}

/// The result the Victory Phase (or the scenario's end) gives when Next is at it or passes it:
/// the conditions judged with the game at that step.
fn victory_on_the_way(
    view: &View,
    passed: &[usize],
    past_the_end: bool,
) -> Option<crate::game::event::VictoryResult> {
    let here = view.state.cursor.step;
    let at = std::iter::once(here)
        .chain(passed.iter().copied())
        .find(|i| {
            view.steps
                .get(*i)
                .is_some_and(crate::game::victory::is_victory_step)
        });
    match at {
        Some(step) if step != here => {
            let mut there = view.state.clone();
            there.cursor.step = step;
            crate::game::victory::ending_at_next(view.scenario, &there, view.steps, past_the_end)
        }
        _ => crate::game::victory::ending_at_next(
            view.scenario,
            view.state,
            view.steps,
            past_the_end,
        ),
    }
}

pub(super) fn check_back(view: &View) -> Checked {
    let to = walk(view).previous_stop().ok_or(Refusal::FirstStep)?;
    Ok(vec![EventKind::Stepped {
        from: view.state.cursor.clone(),
        to,
    }])
}

pub(super) fn check_enter(view: &View, step: &str) -> Checked {
    let walk = walk(view);
    let items = pending_items(view);
    let offered: Vec<&Pending> = items.iter().filter(|p| p.enter.is_some()).collect();
    let wanted = step.trim();
    let target = offered.iter().find_map(|p| {
        let id = p.enter.as_deref()?;
        let name = p
            .label
            .trim_start_matches("Go to ")
            .trim_start_matches("Repeat from ");
        (id == wanted || name.eq_ignore_ascii_case(wanted) || p.label.eq_ignore_ascii_case(wanted))
            .then_some(id)
    });
    let Some(to) = target.and_then(|id| walk.entry(id)) else {
        return Err(Refusal::NoEntry {
            step: wanted.to_string(),
            offered: offered.iter().map(|p| p.label.clone()).collect(),
        });
    };
    // A Force's "attack or renounce" is done by the battle this branch fights: not waited for.
    let battle_items: Vec<&str> = view
        .steps
        .get(view.state.cursor.step)
        .map(|s| {
            s.per_force
                .iter()
                .filter(|f| f.battle)
                .map(|f| f.procedure.as_str())
                .collect()
        })
        .unwrap_or_default();
    let open = numbered(&items, |p| {
        p.mandatory
            && !p.done
            && !(matches!(p.whose, Some(crate::game::steps::Whose::Force(_)))
                && p.procedure
                    .as_deref()
                    .is_some_and(|q| battle_items.contains(&q)))
    });
    if to.step > view.state.cursor.step && !open.is_empty() {
        return Err(Refusal::MandatoryPending { items: open });
    }
    Ok(vec![EventKind::Stepped {
        from: view.state.cursor.clone(),
        to,
    }])
}

/// A pending item named by its label (its key when it is not one of this step's).
pub(super) fn item_words(all: &[Pending], key: &str) -> String {
    all.iter()
        .find(|p| p.key == key)
        .map_or_else(|| key.to_string(), |p| p.label.clone())
}

/// The items that pass `keep`, "number. label" as `game status` numbers them.
pub(super) fn numbered(all: &[Pending], keep: impl Fn(&Pending) -> bool) -> Vec<String> {
    all.iter()
        .enumerate()
        .filter(|(_, p)| keep(p))
        .map(|(n, p)| format!("{}. {}", n + 1, p.label))
        .collect()
}

pub(super) fn check_skip(view: &View, item: &str, reason: &str) -> Checked {
    needs_reason(reason, "skipping")?;
    let all = pending_items(view);
    if !all.iter().any(|p| p.key == item && !p.done) {
        return Err(Refusal::NothingPending {
            item: item_words(&all, item),
            pending: numbered(&all, |p| !p.done),
        });
    }
    Ok(vec![EventKind::Skipped {
        item: item.to_string(),
        reason: reason.to_string(),
    }])
}

pub(super) fn check_credit(view: &View, item: &str) -> Checked {
    let Some((changes, reason)) =
        crate::game::sequence::credit_change(view.ruleset, view.scenario, view.state, item)
    else {
        let all = pending_items(view);
        return Err(Refusal::NothingToCredit {
            item: item_words(&all, item),
            creditable: numbered(&all, |p| p.credit.is_some()),
        });
    };
    for change in &changes {
        counter(view, change.counter())?;
    }
    Ok(vec![EventKind::Changed {
        changes,
        reason: Some(reason),
        item: Some(item.to_string()),
    }])
}

pub(super) fn check_clock(view: &View, action: &ClockAction) -> Checked {
    let Some(clock) = view.ruleset.clock() else {
        return Err(Refusal::NoClock {
            ruleset: view.ruleset.name.clone(),
        });
    };
    if let ClockAction::Start { turn, phase } = action {
        if clock.turn(*turn).is_none() {
            return Err(Refusal::NoClockTurn {
                turn: *turn,
                turns: clock.turns.iter().map(|t| t.turn.to_string()).collect(),
            });
        }
        if !clock.phases.contains(phase) {
            return Err(Refusal::NoClockPhase {
                phase: phase.clone(),
                phases: clock.phases.clone(),
            });
        }
    }
    Ok(vec![EventKind::Clock {
        action: action.clone(),
    }])
}

pub(super) fn check_clock_step(view: &View, to: &Cursor) -> Checked {
    if *to <= view.state.cursor {
        Ok(Vec::new())
    } else if to.step >= view.steps.len() {
        Err(Refusal::NoStep { step: to.step + 1 })
    } else {
        Ok(vec![EventKind::Stepped {
            from: view.state.cursor.clone(),
            to: to.clone(),
        }])
    }
}
