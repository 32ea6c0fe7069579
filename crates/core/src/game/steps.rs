//! The Sequence of Play's leaf steps, and the items a step holds: the words every part of the
//! game that offers an item (the walk, arrivals, victory) shares, in a room below them all.

use serde::Serialize;

use crate::rules::{PerForce, Ruleset, Step, StepCondition};

/// A leaf step with the path of phases above it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LeafStep {
    /// Step id.
    pub id: String,
    /// "Phase › Segment › Step".
    pub path: String,
    /// Procedures that belong to it: its items first, then those it holds for each Force,
    /// then those it offers.
    pub procedures: Vec<String>,
    /// Of those, the ones it only offers (resolved when they happen; never pending items).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub offered: Vec<String>,
    /// Decks or cups drawn from at it.
    pub decks: Vec<String>,
    /// Whether its procedures must be resolved (or skipped with a reason) before moving on.
    pub mandatory: bool,
    /// When it happens, if not every turn, in words.
    pub when: Option<String>,
    /// Its conditions and its phases' (every one must hold for it to apply).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<StepCondition>,
    /// Items it holds for each Force.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_force: Vec<PerForce>,
    /// The branch it belongs to (entered by choice only), by the branch step's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// The steps (ids) the umpire may go to from it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub enter: Vec<String>,
    /// The cycle it belongs to: the cycle step's id and the deck or cup that keeps it going.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<(String, String)>,
    /// The game stops here even with nothing to resolve.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stop: bool,
    /// The victory conditions are judged here.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub victory: bool,
    /// Its id and its phases' ids, outermost first.
    #[serde(skip)]
    pub within: Vec<String>,
    /// Only at the end of the scenario: `next` passes it by on every turn but the last.
    pub scenario_end: bool,
    /// Rule reference.
    pub rule: Option<String>,
    /// The battle of the branch it belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub battle: Option<crate::rules::BattleBranch>,
    /// The battle's result is recorded here.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub battle_result: bool,
    /// Status markers that come off every counter on arriving here.
    pub clears: Vec<String>,
    /// Attributes set back on arriving here.
    pub resets: Vec<crate::rules::Reset>,
}

/// What a step passes on to the steps below it.
#[derive(Clone, Default)]
struct Inherited {
    path: String,
    end: bool,
    conditions: Vec<StepCondition>,
    branch: Option<String>,
    cycle: Option<(String, String)>,
    within: Vec<String>,
    battle: Option<crate::rules::BattleBranch>,
}

fn leaf_of(s: &Step, at: &Inherited) -> LeafStep {
    // Its own items, then those it holds for each Force, then those it offers: the order the
    // chart cards and the desk list them in.
    let mut procedures: Vec<String> = Vec::new();
    for p in s
        .procedures
        .iter()
        .chain(s.per_force.iter().map(|f| &f.procedure))
        .chain(&s.offers)
    {
        if !procedures.contains(p) {
            procedures.push(p.clone());
        }
    }
    LeafStep {
        id: s.id.clone(),
        path: at.path.clone(),
        procedures,
        offered: s.offers.clone(),
        decks: s.decks.clone(),
        mandatory: s.mandatory,
        when: s.when.clone(),
        conditions: at.conditions.clone(),
        per_force: s.per_force.clone(),
        branch: at.branch.clone(),
        enter: s.enter.clone(),
        cycle: at.cycle.clone(),
        stop: s.stop,
        victory: s.victory,
        within: at.within.clone(),
        scenario_end: at.end,
        rule: s.rule.clone(),
        battle: at.battle.clone(),
        battle_result: s.battle_result,
        clears: s.clears.clone(),
        resets: s.resets.clone(),
    }
}

/// The leaf steps of a ruleset's Sequence of Play, in order (one "Turn" step if it has none).
pub fn leaf_steps(ruleset: &Ruleset) -> Vec<LeafStep> {
    fn walk(steps: &[Step], above: &Inherited, out: &mut Vec<LeafStep>) {
        for s in steps {
            let mut at = above.clone();
            at.end = above.end || s.scenario_end;
            at.path = if above.path.is_empty() {
                s.name.clone()
            } else {
                format!("{} › {}", above.path, s.name)
            };
            at.conditions.extend(s.condition.clone());
            if s.branch {
                at.branch = Some(s.id.clone());
                at.battle = s.battle.clone();
            }
            if let Some(deck) = &s.repeat_until_empty {
                at.cycle = Some((s.id.clone(), deck.clone()));
            }
            at.within.push(s.id.clone());
            // A step with procedures of its own and sub-steps (ailsh C.2.b: the activated Force
            // acts, then its Field Engineers) is a step itself, before them.
            if s.steps.is_empty()
                || !s.procedures.is_empty()
                || !s.offers.is_empty()
                || !s.per_force.is_empty()
            {
                out.push(leaf_of(s, &at));
            }
            walk(&s.steps, &at, out);
        }
    }
    let mut out = Vec::new();
    walk(&ruleset.sequence_of_play, &Inherited::default(), &mut out);
    if out.is_empty() {
        out.push(LeafStep {
            id: "turn".into(),
            path: "Turn".into(),
            procedures: ruleset.procedures.iter().map(|p| p.id.clone()).collect(),
            ..LeafStep::default()
        });
    }
    out
}

/// Something to do at the current step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pending {
    /// Stable key (used to skip it).
    pub key: String,
    /// What to do.
    pub label: String,
    /// The procedure to resolve, if any.
    pub procedure: Option<String>,
    /// Whether Next refuses to pass it (unless skipped with a reason).
    pub mandatory: bool,
    /// Whether it is done.
    pub done: bool,
    /// What recording it adds, when it credits an amount that is known now ("5 to French AP
    /// marker's Administrative Points"); `game credit` or the desk's Credit button records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit: Option<String>,
    /// The step (its id) this item goes to when chosen: a branch ("Major Battle"), or an
    /// earlier step to repeat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enter: Option<String>,
    /// Whose item it is, when it is one side's (a scheduled roll) or one Force's (its
    /// activation): what a resolution answering it is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whose: Option<Whose>,
}

impl Pending {
    /// The words of the button (or `game credit`) that records it, when it records something:
    /// "Credit 5 to French AP marker's Administrative Points", "Set Mutt's Order to Attack",
    /// "Carry out: Ferdinand's army to Upper Austria; Fatigue 0 → 1".
    pub fn credit_words(&self) -> Option<String> {
        let what = self.credit.as_deref()?;
        Some(if let Some(rest) = what.strip_prefix("set ") {
            format!("Set {rest}")
        } else if let Some(rest) = what.strip_prefix("carry out: ") {
            format!("Carry out: {rest}")
        } else {
            format!("Credit {what}")
        })
    }
}

/// What a resolution names as the item it answers to say it answers none (a roll made for
/// another reason): `--for none`.
pub const NO_ITEM: &str = "none";

/// Whose an item of the Sequence of Play is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Whose {
    /// A side's (or an army's), by id: its scheduled roll, its credit.
    Side(String),
    /// A Force's, by id: its activation, its Attrition.
    Force(String),
}

/// A pending item named the way a person names it: its number in the list (1-based, as
/// `game status` shows it), its key, or its label (any case).
pub fn find_pending<'p>(pending: &'p [Pending], item: &str) -> Option<&'p Pending> {
    let item = item.trim();
    item.parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| pending.get(i))
        .or_else(|| pending.iter().find(|p| p.key == item))
        .or_else(|| pending.iter().find(|p| p.label.eq_ignore_ascii_case(item)))
}
