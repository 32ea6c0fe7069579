//! What is pending or done at a step: its procedures, the items it holds for each Force, the
//! branches it offers, a cycle's draw, reveals, scheduled items, arriving reinforcements and
//! follow-up checks queued by earlier results.

use super::super::event::{CounterChange, Cursor};
use super::super::scenario::{Position, Scenario};
use super::super::state::{GameState, reinforcement_box};
use super::super::steps::{LeafStep, Pending, Whose};
use super::super::words::{attribute_words, side_words};
use super::when::{Contact, ForceHere, Judge, force_order, forces_on_map};
use crate::rules::Ruleset;

mod cards;
mod imposed;
use imposed::primo_capitano;

/// The changes that record the item `key` now — the amount a schedule adds to its counter's
/// attribute, what it sets, a revealed card carried out — with the reason for the journal;
/// None when the item is not pending here, is done, records nothing or its amount is not
/// known yet (its procedure not resolved).
pub fn credit_change(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    key: &str,
) -> Option<(Vec<CounterChange>, String)> {
    pending(ruleset, scenario, state)
        .into_iter()
        .find(|p| p.key == key && !p.done && p.credit.is_some())?;
    if key.starts_with("card:") {
        return cards::card_change(ruleset, state, key);
    }
    let id = key.strip_prefix("schedule:")?.rsplit_once(':')?.0;
    let schedule = scenario.schedules.iter().find(|s| s.id == id)?;
    if let Some((force, attribute, value)) = &schedule.sets {
        let c = primo_capitano(state, force)?;
        return Some((
            vec![CounterChange::Attribute {
                counter: c.id.clone(),
                attribute: attribute.clone(),
                from: c.attributes.get(attribute).cloned(),
                to: value.clone(),
            }],
            format!("{} (scenario schedule)", schedule.name),
        ));
    }
    let credit = schedule.credit.as_ref()?;
    let steps = super::leaf_steps(ruleset);
    let step = steps.get(state.cursor.step)?;
    let contact = Contact::of(state);
    let here = Here {
        ruleset,
        scenario,
        state,
        cursor: &state.cursor,
        step,
        steps: &steps,
        contact: &contact,
    };
    let by = here.scheduled_amount(schedule, key)?;
    Some((
        vec![CounterChange::Adjust {
            counter: credit.counter.clone(),
            attribute: credit.attribute.clone(),
            by,
        }],
        format!("{} (scenario schedule)", schedule.name),
    ))
}

/// The amount the scenario schedules for the item `key` (a side's nominal APs this turn), with
/// where it comes from: what a resolution answering it reads as `game.scheduled_amount`.
pub fn scheduled_for(scenario: &Scenario, key: &str) -> Option<crate::game::effects::Scheduled> {
    let (id, turn) = key.strip_prefix("schedule:")?.rsplit_once(':')?;
    let turn: u32 = turn.parse().ok()?;
    let schedule = scenario.schedules.iter().find(|s| s.id == id)?;
    let amount = schedule
        .amounts
        .iter()
        .find(|(t, _)| *t == turn)
        .map(|(_, a)| *a)?;
    Some(crate::game::effects::Scheduled {
        amount,
        said: format!(
            "the scenario's schedule: {}, {}",
            schedule.name,
            scenario
                .turn_label(turn)
                .map_or_else(|| format!("turn {turn}"), str::to_string)
        ),
    })
}

/// Items for the current step: its procedures, the items it holds for each Force, the
/// branches it offers, a cycle's draw, reveals, scheduled items, arriving reinforcements and
/// follow-up checks queued by earlier results.
pub fn pending(ruleset: &Ruleset, scenario: &Scenario, state: &GameState) -> Vec<Pending> {
    pending_at(ruleset, scenario, state, &state.cursor)
}

/// The items the step at `cursor` would hold with the game as it stands (what `next` looks
/// ahead at to find the next step that needs the umpire).
pub fn pending_at(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    cursor: &Cursor,
) -> Vec<Pending> {
    let steps = super::leaf_steps(ruleset);
    let Some(step) = steps.get(cursor.step) else {
        return Vec::new();
    };
    let contact = Contact::of(state);
    let here = Here {
        ruleset,
        scenario,
        state,
        cursor,
        step,
        steps: &steps,
        contact: &contact,
    };
    // The scenario's schedules first (the APs at start are the game's first bookkeeping),
    // then the step's own items — only when the step applies now: a scenario's schedule or an
    // arrival due at a step is due there whatever the step's `when`.
    // The set-up the text leaves to the players first: nothing is played before it.
    let mut out = here.unplaced_items(scenario);
    out.extend(here.scheduled_items(scenario));
    if here.walk().applies(cursor) {
        out.extend(here.step_items());
        out.extend(here.cycle_item());
        out.extend(here.force_items());
        out.extend(here.enter_items());
        out.extend(here.reveal_items(scenario));
    }
    out.extend(here.sealed_items(scenario));
    out.extend(here.card_items());
    out.extend(here.reinforcement_item(scenario));
    out.extend(here.follow_up_items());
    // A battle's result, at the step it is known.
    out.extend(super::super::victory::battle_item(
        scenario, &steps, state, cursor,
    ));
    if cursor == &state.cursor {
        if state.ended.is_some() {
            // The game is over: nothing is left to resolve (what was done stays listed).
            out.retain(|p| p.done);
        }
        // The standing at the Victory Phase, and the result once the game is over.
        out.extend(super::super::victory::pending_items(
            ruleset, scenario, state,
        ));
    }
    out
}

/// The step at the cursor, and what the state says has been done there.
struct Here<'a> {
    ruleset: &'a Ruleset,
    scenario: &'a Scenario,
    state: &'a GameState,
    cursor: &'a Cursor,
    step: &'a LeafStep,
    steps: &'a [LeafStep],
    contact: &'a Contact,
}

/// The step a resolution of `procedure` made at `at` counts for: that step when the procedure
/// is one of its own, else the step of the same turn it belongs to (the next one that lists
/// it, else the last before): a Weather rolled a step early counts for the Weather Phase, not
/// as a second Weather of the turn.
pub fn step_it_counts_for(steps: &[LeafStep], at: &Cursor, procedure: &str) -> usize {
    let lists = |i: usize| {
        steps
            .get(i)
            .is_some_and(|s| s.procedures.iter().any(|p| p == procedure))
    };
    if lists(at.step) {
        return at.step;
    }
    (at.step..steps.len())
        .find(|&i| lists(i))
        .or_else(|| (0..at.step).rev().find(|&i| lists(i)))
        .unwrap_or(at.step)
}

impl Here<'_> {
    /// Whether the item `key` was skipped with a reason.
    fn skipped(&self, key: &str) -> bool {
        self.state.skipped.iter().any(|(_, k, _)| k == key)
    }

    /// Whether a resolution of `p` made at `at` counts for this step (this turn; made here, or
    /// in a step of the turn that does not list `p`, for the step that does).
    fn counts_here(&self, at: &Cursor, p: &str) -> bool {
        at.turn == self.cursor.turn && step_it_counts_for(self.steps, at, p) == self.cursor.step
    }

    /// Whether procedure `p` was resolved for this step (this turn; in a cycle, since the
    /// game came back to the step).
    fn resolved_here(&self, p: &str) -> bool {
        self.state.resolved.iter().any(|(c, proc_id, seq)| {
            proc_id == p && self.counts_here(c, p) && self.this_round(*seq)
        })
    }

    /// Whether entry `seq` belongs to this pass through the step: any entry of the turn, but
    /// in a cycle only those since the game came back to it.
    fn this_round(&self, seq: u64) -> bool {
        self.step.cycle.is_none() || self.cursor != &self.state.cursor || seq > self.state.arrived
    }

    /// An item's key at this step: in a cycle, the entry that began this pass makes it new.
    fn key(&self, what: &str) -> String {
        let base = format!("step:{}:{}:{what}", self.cursor.turn, self.cursor.step);
        match &self.step.cycle {
            Some(_) if self.cursor == &self.state.cursor => {
                format!("{base}@{}", self.state.arrived)
            }
            _ => base,
        }
    }

    fn judge(&self) -> Judge<'_> {
        Judge {
            ruleset: self.ruleset,
            scenario: self.scenario,
            state: self.state,
            turn: self.cursor.turn,
            contact: self.contact,
        }
    }

    /// A cycle's draw (Gradisca's Command markers): while its cup holds markers, one draw per
    /// pass, waited for when the step draws from it.
    fn cycle_item(&self) -> Option<Pending> {
        let (_, deck) = self.step.cycle.as_ref()?;
        if !self.step.decks.contains(deck) {
            return None;
        }
        let spec = self.ruleset.decks.iter().find(|d| d.id == *deck)?;
        let left: u32 = self.state.deck(spec, None).inside.values().sum();
        let drawn = self.cursor == &self.state.cursor
            && self
                .state
                .draws
                .iter()
                .any(|(seq, d)| d == deck && *seq > self.state.arrived);
        if left == 0 && !drawn {
            return None;
        }
        let key = self.key(&format!("draw:{deck}"));
        Some(Pending {
            label: format!("Draw from {} ({left} left)", spec.name),
            procedure: None,
            mandatory: true,
            done: drawn || self.skipped(&key),
            key,
            credit: None,
            enter: None,
            whose: None,
        })
    }

    /// The items the step holds for each Force on the map, in order of sides: its activation,
    /// its Attrition after a second activation… each only where its condition holds.
    fn force_items(&self) -> Vec<Pending> {
        if self.step.per_force.is_empty() {
            return Vec::new();
        }
        let judge = self.judge();
        let mut out = Vec::new();
        for force in forces_on_map(self.scenario, self.state) {
            for item in &self.step.per_force {
                if !item
                    .condition
                    .as_ref()
                    .is_none_or(|c| judge.holds(c, Some(&force)))
                {
                    continue;
                }
                let key = self.key(&format!("force:{}:{}", force.id, item.procedure));
                let what = item
                    .label
                    .clone()
                    .unwrap_or_else(|| self.name(&item.procedure));
                out.push(Pending {
                    label: format!("{}: {what}", self.force_label(&force)),
                    procedure: Some(item.procedure.clone()),
                    mandatory: item.mandatory,
                    done: match &item.marked {
                        _ if item.battle => self.fought(&force, &judge),
                        Some(st) => self.marked_for(&item.procedure, &force, &judge, st),
                        None => self.resolved_for(&item.procedure, &force, &judge, &key),
                    } || self.skipped(&key),
                    key,
                    credit: None,
                    enter: None,
                    whose: Some(Whose::Force(force.id.clone())),
                });
            }
        }
        out
    }

    /// A Force as the table names it, with its Order: "Tremouille's Force (Manoeuvre)".
    fn force_label(&self, force: &ForceHere) -> String {
        let leaders: Vec<_> = force
            .counters
            .iter()
            .filter_map(|id| self.state.counters.get(id))
            .filter(|c| c.kind == super::super::scenario::CounterKind::Leader)
            .collect();
        let primo = leaders.iter().find(|c| {
            matches!(c.attributes.get("role"), Some(crate::rules::Value::Text(r)) if r == "primo_capitano")
        });
        let known = self.scenario.forces.iter().any(|f| f.id == force.id);
        // As the text names it (the words every command takes); a Force the game made, by its
        // Primo Capitano or first Capitano.
        let name = match (known, primo.or(leaders.first())) {
            (false, Some(l)) => format!("{}'s Force", l.name),
            _ => super::super::words::force_words(self.scenario, &force.id),
        };
        match force_order(self.state, force) {
            // Orders taken off (an AP turn, 5.3.4) and not given yet.
            Some(o) if o == "none" => format!("{name} (no Order)"),
            Some(o) => format!(
                "{name} ({})",
                super::super::words::capitalised(&o.replace('_', " "))
            ),
            None => name,
        }
    }

    /// Whether `procedure` was resolved for the Force at this step this turn (with one of its
    /// counters involved).
    fn resolved_for(&self, procedure: &str, force: &ForceHere, judge: &Judge, key: &str) -> bool {
        self.state.resolved.iter().any(|(at, p, seq)| {
            p == procedure
                && match self.state.answered.get(seq) {
                    Some(answered) => answered == key,
                    None => {
                        at.turn == self.cursor.turn
                            && (at.step == self.cursor.step || self.counts_here(at, p))
                            && self.this_round(*seq)
                            && judge.involves(*seq, force)
                    }
                }
        })
    }

    /// Whether the Force fought a battle this turn: a resolution at a step of a battle branch
    /// with one of its counters involved.
    fn fought(&self, force: &ForceHere, judge: &Judge) -> bool {
        self.state.resolved.iter().any(|(at, _, seq)| {
            at.turn == self.cursor.turn
                && self.steps.get(at.step).is_some_and(|s| s.battle.is_some())
                && judge.involves(*seq, force)
        })
    }

    /// Whether a resolution of `procedure` this turn, at this step, put status `status` on the
    /// Force when its result was applied (the Capitano that activated, not the other).
    fn marked_for(&self, procedure: &str, force: &ForceHere, judge: &Judge, status: &str) -> bool {
        self.state.resolved.iter().any(|(at, p, seq)| {
            p == procedure
                && at.turn == self.cursor.turn
                && (at.step == self.cursor.step || self.counts_here(at, p))
                && judge.marks(*seq, force, status)
        })
    }

    fn walk(&self) -> super::Walk<'_> {
        super::Walk {
            ruleset: self.ruleset,
            scenario: self.scenario,
            state: self.state,
            steps: self.steps,
        }
    }

    /// The branches and repeats the step offers that apply now ("Major Battle"): choosing one
    /// goes to its first step. Never done; never waited for.
    fn enter_items(&self) -> Vec<Pending> {
        let walk = self.walk();
        self.step
            .enter
            .iter()
            .filter_map(|target| {
                let first = self
                    .steps
                    .iter()
                    .position(|s| s.within.iter().any(|w| w == target))?;
                let to = Cursor {
                    turn: self.cursor.turn,
                    step: first,
                };
                if !walk.applies(&to) {
                    return None;
                }
                let name = self.step_name(target);
                let label = if first <= self.cursor.step {
                    format!("Repeat from {name}")
                } else {
                    format!("Go to {name}")
                };
                Some(Pending {
                    key: format!("enter:{}:{}:{target}", self.cursor.turn, self.cursor.step),
                    label,
                    procedure: None,
                    mandatory: false,
                    done: false,
                    credit: None,
                    enter: Some(target.clone()),
                    whose: None,
                })
            })
            .collect()
    }

    /// A step's name as printed, by its id.
    fn step_name(&self, id: &str) -> String {
        fn find<'s>(steps: &'s [crate::rules::Step], id: &str) -> Option<&'s crate::rules::Step> {
            steps.iter().find_map(|s| {
                if s.id == id {
                    Some(s)
                } else {
                    find(&s.steps, id)
                }
            })
        }
        find(&self.ruleset.sequence_of_play, id).map_or_else(|| id.to_string(), |s| s.name.clone())
    }

    /// A procedure's name from the ruleset (its id if the ruleset lacks it).
    fn name(&self, id: &str) -> String {
        self.ruleset
            .procedure(id)
            .map_or_else(|| id.to_string(), |p| p.name.clone())
    }

    /// The step's own procedures (not those it only offers).
    fn step_items(&self) -> Vec<Pending> {
        self.step
            .procedures
            .iter()
            .filter(|p| {
                !self.step.offered.contains(p)
                    && !self.step.per_force.iter().any(|f| f.procedure == **p)
                    && !self.scheduled_here(p)
            })
            .map(|p| {
                let key = self.key(p);
                Pending {
                    label: self.name(p),
                    procedure: Some(p.clone()),
                    mandatory: self.step.mandatory,
                    done: self.resolved_here(p) || self.skipped(&key),
                    key,
                    credit: None,
                    enter: None,
                    whose: None,
                }
            })
            .collect()
    }

    /// Reveals the ruleset offers at this step (ailsh D.1), in words that name no counter.
    fn reveal_items(&self, scenario: &Scenario) -> Vec<Pending> {
        let turn = self.cursor.turn;
        super::super::visibility::reveals_due(self.ruleset, scenario, self.state, &self.step.id)
            .into_iter()
            .map(|(reveal, changes)| {
                let (key, label) = super::super::visibility::reveal_item(reveal, turn, &changes);
                Pending {
                    label,
                    procedure: None,
                    mandatory: self.step.mandatory,
                    done: changes.is_empty() || self.skipped(&key),
                    key,
                    credit: None,
                    enter: None,
                    whose: None,
                }
            })
            .collect()
    }

    /// Orders sealed at this step (the last each side sealed of each kind): each is revealed
    /// before the game moves on — else it would stay sealed for good. Done when revealed (or
    /// skipped with a reason: the orders then never enter the game).
    fn sealed_items(&self, scenario: &Scenario) -> Vec<Pending> {
        super::super::sealed::last_at(self.state, self.cursor)
            .into_iter()
            .map(|(seq, s)| {
                let key = format!("orders:{seq}");
                let kind = self.ruleset.order_kind(&s.order);
                let name = kind.map_or(s.order.as_str(), |k| k.name.as_str());
                let rule = kind.map(|k| format!(" ({})", k.rule)).unwrap_or_default();
                Pending {
                    label: format!(
                        "Reveal {} sealed at {} (entry {seq}){rule}",
                        super::super::sealed::whose_orders(scenario, &s.side, name),
                        s.at.with_timezone(&chrono::Local).format("%H:%M"),
                    ),
                    procedure: None,
                    mandatory: true,
                    done: s.revealed.is_some() || self.skipped(&key),
                    key,
                    credit: None,
                    enter: None,
                    whose: None,
                }
            })
            .collect()
    }

    /// The scenario's schedules for this turn: at their step, the step of their procedure, or
    /// the turn's first step. One that credits an amount names what to add and where; it is
    /// done when credited (or skipped with a reason).
    fn scheduled_items(&self, scenario: &Scenario) -> Vec<Pending> {
        let cursor = self.cursor;
        let mut out = Vec::new();
        for s in &scenario.schedules {
            if !s.turns.contains(&cursor.turn) {
                continue;
            }
            if !self.belongs(s) || self.schedule_over(s) {
                continue;
            }
            let key = format!("schedule:{}:{}", s.id, cursor.turn);
            let nominal = s
                .amounts
                .iter()
                .find(|(t, _)| *t == cursor.turn)
                .map(|(_, a)| *a);
            // The side, unless the item's name says it already ("French APs at start").
            let side = s
                .side
                .as_ref()
                .map(|x| side_words(scenario, x))
                .filter(|w| {
                    let first = w.split_whitespace().next().unwrap_or_default();
                    !s.name.contains(first)
                })
                .map_or_else(String::new, |w| format!(" ({w})"));
            let mut label = match nominal {
                Some(a) => format!("{}: {a}{side}", s.name),
                None => format!("{}{side}", s.name),
            };
            let whose = s.side.clone().map(Whose::Side);
            if let Some(set) = &s.sets {
                out.push(self.set_item(s, set, key, label, whose));
                continue;
            }
            let Some(credit) = &s.credit else {
                let done = s
                    .procedure
                    .as_ref()
                    .is_some_and(|p| self.answering(p, &key).is_some())
                    || self.skipped(&key);
                out.push(Pending {
                    label,
                    procedure: s.procedure.clone(),
                    mandatory: s.mandatory,
                    done,
                    key,
                    credit: None,
                    enter: None,
                    whose,
                });
                continue;
            };
            let target = format!(
                "{}'s {}",
                self.state.counter_name(&credit.counter),
                attribute_words(self.ruleset, &credit.attribute)
            );
            let amount = self.scheduled_amount(s, &key);
            let done = self.carried_out(&key) || self.skipped(&key);
            match (&s.procedure, amount) {
                (Some(p), None) => label.push_str(&format!(
                    " — resolve {}, then add the result to {target}",
                    self.name(p)
                )),
                (_, Some(a)) => label.push_str(&format!(" — add {a} to {target}")),
                (None, None) => {}
            }
            out.push(Pending {
                label,
                procedure: s.procedure.clone(),
                mandatory: s.mandatory,
                credit: amount.filter(|_| !done).map(|a| format!("{a} to {target}")),
                enter: None,
                done,
                key,
                whose,
            });
        }
        out
    }

    /// gave one of its `until` outcomes (the Swiss turned Anti-French, Roist arrived).
    fn schedule_over(&self, s: &super::super::scenario::Schedule) -> bool {
        let Some(p) = &s.procedure else { return false };
        !s.until.is_empty()
            && self.state.resolved.iter().any(|(at, q, seq)| {
                q == p
                    && at.turn < self.cursor.turn
                    && self
                        .state
                        .outcomes
                        .get(seq)
                        .is_some_and(|o| s.until.contains(o))
            })
    }

    /// Whether a schedule due here this turn holds procedure `p` (its items stand for the
    /// step's own: one per side, not one for the step).
    fn scheduled_here(&self, p: &str) -> bool {
        self.scenario.schedules.iter().any(|s| {
            s.procedure.as_deref() == Some(p)
                && s.turns.contains(&self.cursor.turn)
                && self.belongs(s)
                && !self.schedule_over(s)
        })
    }

    /// Whether the schedule `s` is due at this step (its step, its procedure's, or the turn's
    /// first).
    fn belongs(&self, s: &super::super::scenario::Schedule) -> bool {
        match (&s.step, &s.procedure) {
            (Some(step), _) => self.step.id == *step,
            (None, Some(p)) => self.step.procedures.contains(p),
            (None, None) => self.cursor.step == self.walk().first_step_of_turn(self.cursor.turn),
        }
    }

    /// The latest resolution of `p` that answers the schedule item `key`: one recorded as
    /// answering it, or (an entry made before items were recorded) one counted at this step
    /// when no other side's schedule of `p` is due here.
    fn answering(&self, p: &str, key: &str) -> Option<u64> {
        let alone = self
            .scenario
            .schedules
            .iter()
            .filter(|x| {
                x.procedure.as_deref() == Some(p)
                    && x.turns.contains(&self.cursor.turn)
                    && self.belongs(x)
            })
            .count()
            <= 1;
        self.state
            .resolved
            .iter()
            .rev()
            .filter(|(_, proc_id, _)| proc_id == p)
            .find(|(c, _, seq)| match self.state.answered.get(seq) {
                Some(answered) => answered == key,
                None => alone && self.counts_here(c, p) && self.this_round(*seq),
            })
            .map(|(_, _, seq)| *seq)
    }

    /// The amount a schedule credits now: the number its procedure came to at this step (the
    /// latest resolution that stands), else the scenario's amount for the turn.
    fn scheduled_amount(&self, s: &super::super::scenario::Schedule, key: &str) -> Option<i64> {
        match &s.procedure {
            Some(p) => self
                .answering(p, key)
                .and_then(|seq| self.state.values.get(&seq).copied()),
            None => s
                .amounts
                .iter()
                .find(|(t, _)| *t == self.cursor.turn)
                .map(|(_, a)| *a),
        }
    }

    /// Whether the item `key` was carried out by a change (a credit recorded).
    fn carried_out(&self, key: &str) -> bool {
        self.state.carried_out.iter().any(|(_, k, _)| k == key)
    }

    /// Arrivals at this step: the turn's scheduled reinforcements at the ruleset's deployment
    /// step (its `reinforcements_step`, else the turn's first step), done when none is left in
    /// the turn's reinforcement box; a conditional reinforcement once the result that brings
    /// it stands ([`super::arrivals`]).
    fn reinforcement_item(&self, scenario: &Scenario) -> Vec<Pending> {
        super::super::arrivals::pending_items(
            self.ruleset,
            scenario,
            self.state,
            self.cursor,
            |k| self.skipped(k),
        )
    }

    /// Follow-up checks queued by earlier results, whatever the step. One whose procedure the
    /// Sequence of Play places at a later step of the turn (the Genova expedition's Force,
    /// "during the Activation Phase") waits for that step: shown, not waited for, before it.
    fn follow_up_items(&self) -> Vec<Pending> {
        self.state
            .follow_ups
            .iter()
            .map(|f| {
                let due_at = self.follow_up_step(f);
                let why = f
                    .text
                    .as_ref()
                    .map_or_else(String::new, |t| format!(": {t}"));
                let waits = due_at
                    .map_or_else(String::new, |i| format!(" — due at {}", self.steps[i].path));
                Pending {
                    key: format!("follow_up:{}", f.from),
                    label: format!(
                        "{} (queued by entry {}){why}{waits}",
                        self.name(&f.procedure),
                        f.from,
                    ),
                    procedure: Some(f.procedure.clone()),
                    mandatory: due_at.is_none(),
                    done: false,
                    credit: None,
                    enter: None,
                    whose: None,
                }
            })
            .collect()
    }

    /// The later step of the turn a follow-up is due at when it is not due yet: the first step
    /// after the one it was queued at whose procedures or offers hold it, if the cursor has not
    /// reached it in the turn it was queued. None: due now.
    fn follow_up_step(&self, f: &super::super::state::FollowUp) -> Option<usize> {
        let (at, _, _) = self
            .state
            .resolved
            .iter()
            .find(|(_, _, seq)| *seq == f.from)?;
        if at.turn != self.cursor.turn {
            return None;
        }
        let i = (at.step + 1..self.steps.len()).find(|&i| {
            let s = &self.steps[i];
            s.procedures.contains(&f.procedure) || s.offered.contains(&f.procedure)
        })?;
        (self.cursor.step < i).then_some(i)
    }
}

/// This turn's reinforcements still waiting in their box, grouped by where they enter: what
/// the desk's "Place them" moves, one entry per place of entry.
pub fn reinforcements_to_place(
    scenario: &Scenario,
    state: &GameState,
) -> Vec<(Vec<String>, Position)> {
    let waiting = Position::OffMap(reinforcement_box(state.cursor.turn));
    let mut out: Vec<(Vec<String>, Position)> = Vec::new();
    for r in scenario
        .reinforcements
        .iter()
        .filter(|r| r.turn == state.cursor.turn)
    {
        let ids: Vec<String> = r
            .counters
            .iter()
            .filter(|c| {
                state
                    .counters
                    .get(&c.id)
                    .is_some_and(|s| s.removed.is_none() && s.position == waiting)
            })
            .map(|c| c.id.clone())
            .collect();
        if ids.is_empty() {
            continue;
        }
        match out.iter_mut().find(|(_, at)| *at == r.entry) {
            Some((list, _)) => list.extend(ids),
            None => out.push((ids, r.entry.clone())),
        }
    }
    out
}
