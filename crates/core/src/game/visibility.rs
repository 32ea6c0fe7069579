//! What each side may see: decided here, and only here, from the ruleset's `visibility:`
//! section (see [`crate::rules::Visibility`]). Every side view goes through this module: a
//! side's turn report, a megagame team's paper, `umpire game status --side`, the desk's "As
//! seen by" view, and side exports of the journal.
//!
//! - A counter is seen at a [`SightLevel`]: not at all, by its presence ("a face-down
//!   Capitano" at a hex), by name and place, or in full (less the attributes kept hidden). A
//!   side sees its own counters in full; the first of the ruleset's counter rules that matches
//!   decides for the others ([`Sighted::counter`]).
//! - A journal entry, judged against the state just before it (and, for an entry that reveals,
//!   just after it), is seen whole ([`Sight::Open`]), as a summary of what the side may know
//!   ([`Sight::Summary`]: "a face-down Capitano (French) moved from hex 2733 to hex 2734",
//!   "Discipline Check: Disordered"), or not at all ([`Sight::Hidden`]); [`SideView::journal`]
//!   judges a whole journal along its [`super::timeline::Timeline`].
//! - Reveals ([`reveals_due`]): statuses the ruleset has set at a step of the Sequence of Play
//!   (ailsh D.1: the Forces in contact reveal their composition), recorded as ordinary status
//!   changes.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::event::{Audience, CounterChange, Event, EventKind};
use super::scenario::{CounterKind, Position, Scenario};
use super::state::{CounterState, GameState, append_event};
use super::timeline::Timeline;
use crate::rules::{Condition, EffectKind, Owner, PieceKind, Reveal, Ruleset, Value, Visibility};

pub use crate::rules::SightLevel;

/// The neighbours of a hex on a map whose ids are column then row ("CCRR"), as
/// [`super::hex::HexId`] lays them out (the desk draws the same). None when the id is not a hex
/// id.
pub fn hex_neighbours(hex: &str) -> Option<Vec<String>> {
    let id = super::hex::HexId::parse_any(hex)?;
    Some(id.neighbours().iter().map(|n| n.id()).collect())
}

/// How a side sees one counter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterSight {
    /// The counter's id (for the program; never shown for a counter seen by presence only).
    #[serde(skip)]
    pub id: String,
    /// The counter's id when the side may know which counter it is (name and place or more).
    #[serde(rename = "id", skip_serializing_if = "Option::is_none")]
    pub known_id: Option<String>,
    /// How much is seen.
    pub level: SightLevel,
    /// Whether it is the side's own.
    pub own: bool,
    /// Its side.
    pub side: String,
    /// Its name, or what the side sees of it ("a face-down Capitano (French)").
    pub label: String,
    /// Unit, leader, marker or ledger (name and place or more).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<CounterKind>,
    /// Where it is.
    pub position: Position,
    /// Why it left the table, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<String>,
    /// Status markers (name and place or more).
    pub statuses: Vec<String>,
    /// Attributes the side may see (in full only).
    pub attributes: BTreeMap<String, Value>,
    /// Attributes the text does not give (in full only).
    pub unknown: Vec<String>,
    /// Attributes kept from the side (in full only; names, for "not shown").
    pub withheld: Vec<String>,
    /// The rule that decided, as the rulebook numbers it ("1.4"), when a rule did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// How a side sees a journal entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "sight", content = "lines", rename_all = "snake_case")]
pub enum Sight {
    /// Whole.
    Open,
    /// Only what it may know, in words (one line each).
    Summary(Vec<String>),
    /// Not at all.
    Hidden,
}

impl Sight {
    /// Whether the side sees anything of it.
    pub fn seen(&self) -> bool {
        !matches!(self, Sight::Hidden)
    }
}

/// A side's own numbers for the entries it sees, 1, 2, 3… in journal order: no gap counts the
/// entries it may not see (ruleset `visibility: hidden_entries`). Steps of the Sequence of Play
/// go unnumbered: a report does not list them, so they would leave gaps of their own.
pub fn side_numbers(sights: &[EntrySight], events: &[Event]) -> BTreeMap<u64, u64> {
    sights
        .iter()
        .filter(|s| s.sight.seen())
        .filter(|s| {
            !events
                .get(s.seq.saturating_sub(1) as usize)
                .is_some_and(|e| matches!(e.kind, EventKind::Stepped { .. }))
        })
        .enumerate()
        .map(|(n, s)| (s.seq, n as u64 + 1))
        .collect()
}

/// One journal entry's sight for a side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntrySight {
    /// The entry.
    pub seq: u64,
    /// How the side sees it.
    pub sight: Sight,
}

/// What one side may see of a game (a megagame team, where the ruleset says so).
#[derive(Debug, Clone)]
pub struct SideView<'a> {
    ruleset: &'a Ruleset,
    scenario: &'a Scenario,
    side: String,
    side_name: String,
}

impl<'a> SideView<'a> {
    /// The view of `side` (a side of the scenario, or a megagame team, which is one).
    pub fn new(
        ruleset: &'a Ruleset,
        scenario: &'a Scenario,
        side: &str,
    ) -> Result<SideView<'a>, String> {
        let Some(spec) = scenario.sides.iter().find(|s| s.id == side) else {
            let known: Vec<&str> = scenario.sides.iter().map(|s| s.id.as_str()).collect();
            return Err(format!(
                "no side '{side}' in {} — sides: {}",
                scenario.title,
                known.join(", ")
            ));
        };
        Ok(SideView {
            ruleset,
            scenario,
            side: side.to_string(),
            side_name: spec.name.clone(),
        })
    }

    /// The view of someone who plays no side: the public (a megagame's announcements sheet,
    /// read out to everyone). It owns nothing and sees every counter as another side's.
    pub fn public(ruleset: &'a Ruleset, scenario: &'a Scenario) -> SideView<'a> {
        SideView {
            ruleset,
            scenario,
            side: String::new(),
            side_name: "the public".to_string(),
        }
    }

    /// The side's id (empty for the public).
    pub fn side(&self) -> &str {
        &self.side
    }

    /// The side's name as the scenario prints it.
    pub fn side_name(&self) -> &str {
        &self.side_name
    }

    /// How the side sees one of Control's records ([`crate::game::records`]).
    fn record_sight(&self, fact: &crate::game::records::RecordFact, before: &Sighted) -> Sight {
        use crate::game::records::RecordFact;
        let mine = |teams: &[String]| teams.contains(&self.side);
        let open = |seen: bool| if seen { Sight::Open } else { Sight::Hidden };
        match fact {
            RecordFact::Chart { chart, ranking, .. } => {
                open(self.ruleset.records.chart(chart).is_some_and(|c| c.public) || mine(ranking))
            }
            RecordFact::Register { parties, .. } => open(mine(parties)),
            RecordFact::Ruling { entry, .. } => open(
                before
                    .state
                    .records
                    .registers
                    .iter()
                    .any(|r| r.entry == *entry && mine(&r.parties)),
            ),
            RecordFact::Vote { .. } => Sight::Open,
            RecordFact::BankAccess { bank, team } => {
                let bank_teams: Vec<String> = self
                    .scenario
                    .megagame
                    .iter()
                    .flat_map(|m| &m.states)
                    .filter(|s| s.id == *bank)
                    .flat_map(|s| s.teams.clone())
                    .collect();
                open(*team == self.side || mine(&bank_teams))
            }
        }
    }

    /// The ruleset's declaration.
    pub fn rules(&self) -> &'a Visibility {
        &self.ruleset.visibility
    }

    /// What the side sees of a state.
    pub fn at<'s>(&'s self, state: &'s GameState) -> Sighted<'s> {
        Sighted::new(self.ruleset, self.scenario, Some(self), state)
    }

    /// How the side sees one entry, judged against the state just before it. An entry that
    /// refers to an earlier one (an undo, a redo, an override, effects applied, a skipped
    /// follow-up) follows that one's sight, which only [`SideView::journal`] knows: judged
    /// alone, it counts as hidden when it needs it.
    pub fn entry(&self, before: &GameState, e: &Event) -> Sight {
        let mut after = before.clone();
        let after = append_event(&mut after, e).ok().map(|()| after);
        let before_sight = self.at(before);
        let after_sight = after.as_ref().map(|a| self.at(a));
        self.judge(&before_sight, after_sight.as_ref(), e, &BTreeMap::new())
    }

    /// Each entry's sight for the side, judged along the journal's timeline. Fails only on a
    /// journal that contradicts its scenario.
    pub fn journal(&self, events: &[Event]) -> Result<Vec<EntrySight>, String> {
        self.sights(&Timeline::new(self.scenario, events)?)
    }

    /// Each entry's sight for the side, judged against the timeline's state just before it
    /// (and just after it, for counter changes: a reveal shows what it reveals).
    pub fn sights(&self, timeline: &Timeline) -> Result<Vec<EntrySight>, String> {
        let mut earlier: BTreeMap<u64, Sight> = BTreeMap::new();
        let mut out = Vec::with_capacity(timeline.len());
        let mut steps = timeline.steps();
        while let Some(step) = steps.next()? {
            let e = step.event;
            let sight = self.next_sight(step.before, step.after, e, &earlier);
            earlier.insert(e.seq, sight.clone());
            out.push(EntrySight { seq: e.seq, sight });
        }
        Ok(out)
    }

    /// How the side sees the entry that follows a journal already judged: `before` and `after`
    /// the states around it, `earlier` the sights of the entries before it (by entry). The same
    /// judgement as [`SideView::sights`] makes along the whole journal; the players' view judges
    /// each new entry so, without walking the journal again.
    pub fn next_sight(
        &self,
        before: &GameState,
        after: &GameState,
        e: &Event,
        earlier: &BTreeMap<u64, Sight>,
    ) -> Sight {
        let seen_before = self.at(before);
        match &e.kind {
            EventKind::Changed { .. } | EventKind::EffectsApplied { .. } => {
                self.judge(&seen_before, Some(&self.at(after)), e, earlier)
            }
            _ => self.judge(&seen_before, None, e, earlier),
        }
    }

    fn judge(
        &self,
        before: &Sighted,
        after: Option<&Sighted>,
        e: &Event,
        earlier: &BTreeMap<u64, Sight>,
    ) -> Sight {
        let follow = |of: &u64, words: String| match earlier.get(of) {
            Some(Sight::Open) => Sight::Open,
            Some(Sight::Summary(_)) => Sight::Summary(vec![words]),
            Some(Sight::Hidden) | None => Sight::Hidden,
        };
        match &e.kind {
            // The seed, once revealed, is for everyone to check the rolls with.
            EventKind::GameStarted { .. }
            | EventKind::Stepped { .. }
            | EventKind::Clock { .. }
            | EventKind::SeedRevealed { .. } => Sight::Open,
            // The tables are the same for every side: a transcription is for all to check.
            EventKind::Transcribed { .. } => Sight::Open,
            // Conquered markers, battles, the VP track and the result are on the table for all.
            EventKind::Victory { .. } => Sight::Open,
            // Control's records: a public chart and the Diet's votes for all; a chart that is
            // not public for the teams on it; a register's entry (and its ruling) for its
            // parties; a bank's grant for the bank's team and the team granted.
            EventKind::Record { fact } => self.record_sight(fact, before),
            // The umpire's notes are the umpire's; an announcement tells the sides.
            EventKind::Note { .. } => Sight::Hidden,
            // A deck whose draws are secret (a hand of cards): the drawing side sees its own
            // draws; the others see that a draw was made, not what.
            EventKind::Deck {
                deck,
                owner,
                change,
                ..
            } => {
                let hidden = crate::game::deck::find(self.ruleset, deck).is_some_and(|d| d.hidden);
                let drew = match change {
                    crate::game::deck::DeckChange::Drawn { side, .. } => side.clone(),
                    _ => None,
                };
                let mine = drew.as_deref().or(owner.as_deref()) == Some(self.side.as_str());
                if !hidden || mine {
                    Sight::Open
                } else if let crate::game::deck::DeckChange::Drawn { items, .. } = change {
                    Sight::Summary(vec![format!(
                        "{} drawn, unseen",
                        if items.len() == 1 {
                            "one".to_string()
                        } else {
                            items.len().to_string()
                        }
                    )])
                } else {
                    Sight::Hidden
                }
            }
            EventKind::Announced { audience, team, .. } => match audience {
                Audience::Public => Sight::Open,
                Audience::Team if team.as_deref() == Some(self.side.as_str()) => Sight::Open,
                Audience::Team | Audience::Control => Sight::Hidden,
            },
            EventKind::Skipped { item, .. } => match item
                .strip_prefix("follow_up:")
                .and_then(|s| s.parse::<u64>().ok())
            {
                Some(of) => follow(&of, format!("a check queued by entry {of} was skipped")),
                None => Sight::Open,
            },
            EventKind::Undone { event } => follow(event, format!("entry {event} was undone")),
            EventKind::Redone { event } => follow(event, format!("entry {event} was restored")),
            EventKind::Overridden { of, outcome, .. } => follow(
                of,
                format!("the result of entry {of} now reads {outcome} (an override)"),
            ),
            EventKind::Changed { changes, .. } => self.changes(before, after, changes, false),
            EventKind::EffectsApplied { of, changes } => {
                // The effects of a result the side sees are open with it (ailsh 1.4).
                let open = earlier.get(of).is_some_and(Sight::seen);
                self.changes(before, after, changes, open)
            }
            EventKind::Resolved {
                resolution,
                counters,
                ..
            } => self.resolution(before, resolution, counters),
            // That a side sealed its orders, and when, is for every side: the commitment is
            // what lets them check the orders later.
            EventKind::OrdersSealed { .. } => Sight::Open,
            EventKind::OrdersRevealed {
                order,
                side,
                orders,
                shown,
                ..
            } => self.revealed_orders(order, side, orders, shown),
        }
    }

    /// How a side sees sealed orders revealed: its own whole; the others' whole when the rules
    /// reveal them to every side at this step; as the visibility entries show each order (the
    /// Retreat Order, on the map); else only that they were revealed, and to whom.
    fn revealed_orders(
        &self,
        order: &str,
        side: &str,
        orders: &crate::game::sealed::Orders,
        shown: &crate::game::sealed::Shown,
    ) -> Sight {
        use crate::game::sealed::{OrderValue, Shown, shown_words};
        if side == self.side || matches!(shown, Shown::Everyone) {
            return Sight::Open;
        }
        let name = self
            .ruleset
            .order_kind(order)
            .map_or_else(|| order.to_string(), |k| k.name.clone());
        let whose = crate::game::sealed::whose_orders_capital(self.scenario, side, &name);
        let were = crate::game::sealed::were(&name);
        let mut lines = vec![match shown {
            Shown::Visibility { .. } => {
                format!("{whose} {were} revealed to the umpire; the rules show you:")
            }
            _ => format!("{whose} {were} revealed {}", shown_words(shown)),
        }];
        if let Shown::Visibility { entries } = shown {
            let rules: Vec<&crate::rules::AttributeSightRule> = self
                .ruleset
                .visibility
                .attributes
                .iter()
                .filter(|r| entries.contains(&r.id))
                .collect();
            for (entry, fields) in orders {
                for (field, value) in fields {
                    let OrderValue::Choice(v) = value else {
                        continue;
                    };
                    let rule = rules.iter().find(|r| {
                        r.attributes.contains(field)
                            && r.shown_when.as_ref().is_some_and(|c| shows(c, field, v))
                    });
                    if let Some(rule) = rule {
                        let label = super::words::force_words(self.scenario, entry);
                        let words = self.ruleset.order_kind(order).map_or_else(
                            || crate::rules::choice_words(v),
                            |k| crate::game::sealed::choice_label(self.ruleset, k, field, v),
                        );
                        lines.push(format!("{label}: {words} ({})", rule.from.rule));
                    }
                }
            }
        }
        if lines.len() == 1 && matches!(shown, Shown::Visibility { .. }) {
            lines[0] = format!(
                "{whose} {were} revealed to the umpire; the rules show you nothing of them"
            );
        }
        Sight::Summary(lines)
    }

    /// How a side sees a resolution: whole when it involves no counter, or its own (or only
    /// counters it sees in full, where the ruleset says so); as the result and dice when the
    /// ruleset opens that procedure's results to both sides; else not at all.
    fn resolution(
        &self,
        before: &Sighted,
        resolution: &crate::resolve::Resolution,
        counters: &BTreeMap<String, Vec<String>>,
    ) -> Sight {
        let involved: Vec<&String> = counters.values().flatten().collect();
        // A roll that involves no counter (the Weather) hides nothing from anyone.
        if involved.is_empty() {
            return Sight::Open;
        }
        // One's own roll is seen whole, but for what it took from the other side's counters
        // that the rules hide (the other Capitano's Order in the activation contest, 5.2).
        if involved.iter().any(|id| before.owns(id)) {
            let withheld = self.withheld_inputs(before, resolution, counters);
            if withheld.is_empty() {
                return Sight::Open;
            }
            return Sight::Summary(self.without(resolution, &withheld));
        }
        let vis = &self.ruleset.visibility;
        if vis.results_with_counters.is_some()
            && !involved.is_empty()
            && involved
                .iter()
                .all(|id| before.level(id) == SightLevel::Full)
        {
            return Sight::Open;
        }
        if vis.open_result(&resolution.procedure).is_none() {
            return Sight::Hidden;
        }
        let name = self
            .ruleset
            .procedure(&resolution.procedure)
            .map_or_else(|| resolution.procedure.clone(), |p| p.name.clone());
        let effects: Vec<String> = resolution
            .outcome
            .effects
            .iter()
            .filter(|x| !matches!(x.kind, EffectKind::FollowUp | EffectKind::Note))
            .map(crate::resolve::describe_effect)
            .collect();
        let mut lines = vec![if effects.is_empty() {
            format!("{name}: {}", resolution.outcome.label)
        } else {
            format!(
                "{name}: {} — {}",
                resolution.outcome.label,
                effects.join("; ")
            )
        }];
        let dice = crate::resolve::dice_words(resolution);
        if !dice.is_empty() {
            lines.push(format!("Dice: {}", dice.join("; ")));
        }
        // Enough to read one's own chart again: the modified roll, where it was read, the
        // result (1.4: results are open).
        let mut read = Vec::new();
        if let (Some(n), Some(m)) = (resolution.natural, resolution.modified)
            && n != m
        {
            read.push(format!(
                "modified roll {n} {} {} = {m}",
                if m >= n { "+" } else { "−" },
                (m - n).abs()
            ));
        } else if let Some(m) = resolution.modified {
            read.push(format!("roll {m}"));
        }
        // The row and column as the chart prints them (the resolver's own words for them).
        if let Some(l) = &resolution.lookup
            && let Some(t) = self.ruleset.table(&l.table)
        {
            let row = t.row_words_for(&l.row);
            read.push(match &l.column {
                Some(c) => format!(
                    "read on {} at row {row}, column {}",
                    t.title,
                    t.column_words_for(c)
                ),
                None => format!("read on {} at row {row}", t.title),
            });
        }
        if !read.is_empty() {
            read.push(format!("→ {}", resolution.outcome.label));
            lines.push(format!("Read: {}", read.join(", ")));
        }
        // The players say which units are affected, and how (ailsh 1.4): the counters by name
        // when the result does something to them (or the text gives no effects to tell); a
        // result that does nothing (an Attrition check losing 0 SP) names no unit still hidden
        // on its card.
        let affects = !resolution
            .outcome
            .effects
            .iter()
            .filter(|x| !matches!(x.kind, EffectKind::FollowUp | EffectKind::Note))
            .all(|x| x.amount == Some(0))
            || resolution.outcome.effects.is_empty();
        let names: Vec<String> = counters
            .iter()
            .map(|(role, ids)| {
                let names: Vec<String> = ids
                    .iter()
                    .map(|id| {
                        if affects {
                            before.named(id)
                        } else {
                            before.unnamed(id)
                        }
                    })
                    .collect();
                format!("{}: {}", role.replace('_', " "), names.join(", "))
            })
            .collect();
        if !names.is_empty() {
            lines.push(format!("Counters: {}", names.join("; ")));
        }
        Sight::Summary(lines)
    }

    /// The inputs of a resolution taken from another side's counters' attributes this side
    /// may not see (an input's `from: role.attribute`), with the derived values that read them.
    fn withheld_inputs(
        &self,
        before: &Sighted,
        resolution: &crate::resolve::Resolution,
        counters: &BTreeMap<String, Vec<String>>,
    ) -> BTreeSet<String> {
        let Some(p) = self.ruleset.procedure(&resolution.procedure) else {
            return BTreeSet::new();
        };
        let mut out: BTreeSet<String> = p
            .inputs
            .iter()
            .filter(|i| resolution.inputs.contains_key(&i.name))
            .filter(|i| {
                let Some(src) = &i.from else { return false };
                let ids = counters.get(&src.role).map_or(&[][..], Vec::as_slice);
                !ids.is_empty()
                    && ids.iter().all(|id| !before.owns(id))
                    && ids.iter().any(|id| {
                        before
                            .counter(id)
                            .is_none_or(|s| !s.attributes.contains_key(&src.attribute))
                    })
            })
            .map(|i| i.name.clone())
            .collect();
        // What reads them is withheld with them: the procedure's derived values and a computed
        // lookup's values (the contest's "B: modified Initiative − die" would give B's Order away).
        let lets = p.lookup.lets();
        loop {
            let n = out.len();
            for d in p.derived.iter().chain(lets) {
                if d.expr.reads().iter().any(|r| out.contains(r)) {
                    out.insert(d.name.clone());
                }
            }
            if out.len() == n {
                break;
            }
        }
        out
    }

    /// A resolution's explanation without the inputs (and derived values) withheld.
    fn without(
        &self,
        resolution: &crate::resolve::Resolution,
        withheld: &BTreeSet<String>,
    ) -> Vec<String> {
        let p = self.ruleset.procedure(&resolution.procedure);
        let label = |name: &str| {
            p.and_then(|p| {
                p.input(name).map(|i| i.label.clone()).or_else(|| {
                    p.derived
                        .iter()
                        .chain(p.lookup.lets())
                        .find(|d| d.name == name)
                        .and_then(|d| d.label.clone())
                })
            })
            .unwrap_or_else(|| name.replace('_', " "))
        };
        let hidden: Vec<String> = withheld.iter().map(|n| label(n)).collect();
        let mut lines = Vec::new();
        for line in &resolution.explanation {
            if let Some(list) = line.strip_prefix("Inputs: ") {
                let kept: Vec<&str> = list
                    .split(", ")
                    .filter(|part| {
                        !hidden
                            .iter()
                            .any(|h| *part == h.as_str() || part.starts_with(&format!("{h} = ")))
                    })
                    .collect();
                if !kept.is_empty() {
                    lines.push(format!("Inputs: {}", kept.join(", ")));
                }
                continue;
            }
            if hidden.iter().any(|h| line.starts_with(&format!("{h} = "))) {
                continue;
            }
            lines.push(line.clone());
        }
        lines.push(format!(
            "Not shown: {} (the other side's, hidden by the rules)",
            hidden.join(", ")
        ));
        lines
    }

    /// The sight of a list of counter changes: whole when every change is seen whole, a
    /// summary of what is seen, or nothing.
    fn changes(
        &self,
        before: &Sighted,
        after: Option<&Sighted>,
        changes: &[CounterChange],
        effects_open: bool,
    ) -> Sight {
        let mut whole = true;
        let mut lines = Vec::new();
        for c in changes {
            match change_sight(before, after, c, effects_open) {
                ChangeSight::Whole => {
                    let id = c.counter();
                    let name = after.map_or_else(|| before.named(id), |a| a.named(id));
                    lines.push(super::words::change_words(
                        self.ruleset,
                        self.scenario,
                        &name,
                        c,
                    ));
                }
                ChangeSight::Words(w) => {
                    whole = false;
                    lines.push(w);
                }
                ChangeSight::Unseen => whole = false,
            }
        }
        if whole {
            Sight::Open
        } else if lines.is_empty() {
            Sight::Hidden
        } else {
            Sight::Summary(lines)
        }
    }
}

enum ChangeSight {
    Whole,
    Words(String),
    Unseen,
}

fn change_sight(
    before: &Sighted,
    after: Option<&Sighted>,
    change: &CounterChange,
    effects_open: bool,
) -> ChangeSight {
    let id = change.counter();
    if effects_open || before.owns(id) || after.is_some_and(|a| a.owns(id)) {
        return ChangeSight::Whole;
    }
    let was = before.counter(id);
    let now = after.and_then(|a| a.counter(id));
    let level_was = was.as_ref().map_or(SightLevel::Hidden, |c| c.level);
    let level_now = now.as_ref().map_or(level_was, |c| c.level);
    let level = level_was.max(level_now);
    let label = now
        .as_ref()
        .filter(|c| c.level >= level_was)
        .or(was.as_ref())
        .map_or_else(String::new, |c| c.label.clone());
    match change {
        CounterChange::Attribute { attribute, .. } | CounterChange::Adjust { attribute, .. } => {
            let shown_now = now
                .as_ref()
                .is_some_and(|c| c.attributes.contains_key(attribute));
            let shown_before = was
                .as_ref()
                .is_some_and(|c| c.attributes.contains_key(attribute));
            if shown_now {
                ChangeSight::Whole
            } else if shown_before {
                ChangeSight::Words(format!("{label}: {} changed", attribute.replace('_', " ")))
            } else {
                ChangeSight::Unseen
            }
        }
        // A counter the side saw goes out of its sight: that much it sees (the change, a
        // status such as `hidden` or a move onto a Card, is the umpire's).
        _ if level_now == SightLevel::Hidden && level_was > SightLevel::Hidden => {
            ChangeSight::Words(format!("{label}: out of sight"))
        }
        _ if level >= SightLevel::Identity => ChangeSight::Whole,
        _ if level == SightLevel::Hidden => ChangeSight::Unseen,
        // A counter that comes into sight, or goes out of it, by its presence.
        _ if level_was == SightLevel::Hidden => match &now {
            Some(c) => ChangeSight::Words(format!("{label} appeared at {}", c.position)),
            None => ChangeSight::Unseen,
        },
        _ => ChangeSight::Words(match change {
            CounterChange::Move { to, .. } => match was.as_ref().map(|c| &c.position) {
                Some(from) => format!("{label} moved from {from} to {to}"),
                None => format!("{label} moved to {to}"),
            },
            CounterChange::Remove { .. } => format!("{label} was removed"),
            CounterChange::Add { at, .. } => format!("{label} appeared at {at}"),
            CounterChange::Status { status, on, .. } => format!(
                "{label} is {}{}",
                if *on { "now " } else { "no longer " },
                status.replace('_', " ")
            ),
            CounterChange::Attribute { .. } | CounterChange::Adjust { .. } => String::new(),
        }),
    }
}

/// A state as one side sees it (or as the rules stand, for reveals): the side's own counters
/// and the enemy units next to each hex, worked out once.
pub struct Sighted<'s> {
    ruleset: &'s Ruleset,
    side: Option<&'s str>,
    side_names: BTreeMap<&'s str, String>,
    state: &'s GameState,
    owned: BTreeSet<String>,
    /// Hex → the sides with a unit on it.
    units_at: BTreeMap<&'s str, BTreeSet<&'s str>>,
}

fn on_map(c: &CounterState) -> bool {
    c.removed.is_none() && !matches!(c.position, Position::OffMap(_))
}

fn piece_kind(kind: CounterKind) -> PieceKind {
    match kind {
        CounterKind::Unit => PieceKind::Unit,
        CounterKind::Leader => PieceKind::Leader,
        CounterKind::Marker => PieceKind::Marker,
        CounterKind::State => PieceKind::State,
    }
}

impl<'s> Sighted<'s> {
    fn new(
        ruleset: &'s Ruleset,
        scenario: &'s Scenario,
        view: Option<&'s SideView<'s>>,
        state: &'s GameState,
    ) -> Sighted<'s> {
        let side = view.map(|v| v.side.as_str());
        let owned = match (side, ruleset.visibility.own) {
            (None, _) => BTreeSet::new(),
            (Some(""), _) => BTreeSet::new(),
            (Some(s), Owner::Side) => state
                .counters
                .values()
                .filter(|c| c.side == s)
                .map(|c| c.id.clone())
                .collect(),
            (Some(s), Owner::Team) => team_counters(scenario, state, s),
        };
        let mut units_at: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for c in state.counters.values() {
            if c.kind == CounterKind::Unit
                && on_map(c)
                && let Position::Hex(h) = &c.position
            {
                units_at
                    .entry(h.as_str())
                    .or_default()
                    .insert(c.side.as_str());
            }
        }
        Sighted {
            ruleset,
            side,
            side_names: scenario
                .sides
                .iter()
                .map(|s| (s.id.as_str(), super::words::side_word(&s.name)))
                .collect(),
            state,
            owned,
            units_at,
        }
    }

    /// Whether the counter is the side's own.
    pub fn owns(&self, id: &str) -> bool {
        self.owned.contains(id)
    }

    /// Whether a condition holds for a counter.
    pub fn holds(&self, condition: &Condition, c: &CounterState) -> bool {
        match condition {
            Condition::All(all) => all.iter().all(|x| self.holds(x, c)),
            Condition::Any(any) => any.iter().any(|x| self.holds(x, c)),
            Condition::Not(x) => !self.holds(x, c),
            Condition::Kind(k) => piece_kind(c.kind) == *k,
            Condition::Status(s) => c.statuses.contains(s),
            Condition::Attribute { name, value } => match (c.attributes.get(name), value) {
                (Some(Value::Text(have)), Value::Text(want)) => {
                    have == want || have.split(',').any(|x| x.trim() == want)
                }
                (Some(have), want) => have == want,
                (None, Value::Bool(false)) => true,
                (None, _) => false,
            },
            Condition::OnMap(want) => on_map(c) == *want,
            Condition::AdjacentToEnemy(want) => self.adjacent_to_enemy(c) == *want,
            Condition::Ruling { id, option } => self.ruleset.ruling(id) == Some(option.as_str()),
        }
    }

    /// Whether an enemy unit stands in a hex next to the counter's, or in its own (a Force
    /// besieged in its town and its besiegers share the hex: in contact all the more).
    pub fn adjacent_to_enemy(&self, c: &CounterState) -> bool {
        let Position::Hex(h) = &c.position else {
            return false;
        };
        if !on_map(c) {
            return false;
        }
        let enemy_here = |x: &str| {
            self.units_at
                .get(x)
                .is_some_and(|sides| sides.iter().any(|s| *s != c.side))
        };
        enemy_here(h) || hex_neighbours(h).is_some_and(|n| n.iter().any(|x| enemy_here(x)))
    }

    /// How much the side sees of a counter (the umpire sees everything).
    pub fn level(&self, id: &str) -> SightLevel {
        self.counter(id).map_or(SightLevel::Hidden, |c| c.level)
    }

    /// The counter's name if the side may know it, else what it sees of it ("a counter" when
    /// it sees nothing: an open result names the counters it affects).
    fn named(&self, id: &str) -> String {
        match self.state.counters.get(id) {
            Some(c) => match self.counter(id) {
                // Seen by its presence only (a face-down Capitano): as it is seen. A unit on
                // its card that a result affects is named (1.4: players say which).
                Some(s) if s.level == SightLevel::Presence => s.label,
                _ => c.name.clone(),
            },
            None => id.to_string(),
        }
    }

    /// The counter as the side sees it without being told which it is: its name if it may
    /// know it, else its side ("a counter (French)").
    fn unnamed(&self, id: &str) -> String {
        match self.counter(id) {
            Some(s) => s.label,
            None => id.to_string(),
        }
    }

    /// How the side sees a counter; None when the state has no such counter.
    pub fn counter(&self, id: &str) -> Option<CounterSight> {
        let c = self.state.counters.get(id)?;
        let vis = &self.ruleset.visibility;
        let own = self.side.is_none() || self.owns(id);
        let (level, shown_as, rule) = if own {
            (SightLevel::Full, None, None)
        } else {
            vis.counters
                .iter()
                .find(|r| r.when.as_ref().is_none_or(|w| self.holds(w, c)))
                .map_or((vis.enemy, None, vis.rule.clone()), |r| {
                    (r.see, r.shown_as.clone(), Some(r.from.rule.clone()))
                })
        };
        let side_word = self
            .side_names
            .get(c.side.as_str())
            .cloned()
            .unwrap_or_else(|| c.side.clone());
        let label = match (level, &shown_as) {
            (SightLevel::Presence, Some(words)) => format!("{words} ({side_word})"),
            // Not seen at all (a unit on its Capitano's card): nothing of it but its side.
            (SightLevel::Presence | SightLevel::Hidden, _) => format!("a counter ({side_word})"),
            _ => c.name.clone(),
        };
        let known = level >= SightLevel::Identity;
        let mut attributes = BTreeMap::new();
        let mut withheld = Vec::new();
        if level == SightLevel::Identity {
            // Seen by name and place: only what a rule shows on the map (ailsh: a Retreat Order
            // placed near the Capitano, 5.2).
            for a in &vis.attributes {
                if a.shown_when.as_ref().is_some_and(|w| self.holds(w, c)) {
                    for name in &a.attributes {
                        if let Some(v) = c.attributes.get(name) {
                            attributes.insert(name.clone(), v.clone());
                        }
                    }
                }
            }
        }
        if level == SightLevel::Full {
            let hidden: BTreeSet<&str> = if own {
                BTreeSet::new()
            } else {
                vis.attributes
                    .iter()
                    .filter(|a| a.shown_when.as_ref().is_none_or(|w| !self.holds(w, c)))
                    .flat_map(|a| a.attributes.iter().map(String::as_str))
                    .collect()
            };
            for (k, v) in &c.attributes {
                if hidden.contains(k.as_str()) {
                    withheld.push(k.clone());
                } else {
                    attributes.insert(k.clone(), v.clone());
                }
            }
        }
        Some(CounterSight {
            id: c.id.clone(),
            known_id: known.then(|| c.id.clone()),
            level,
            own: self.side.is_some() && own,
            side: c.side.clone(),
            label,
            kind: known.then_some(c.kind),
            position: c.position.clone(),
            removed: c.removed.clone(),
            statuses: if known {
                c.statuses.iter().cloned().collect()
            } else {
                Vec::new()
            },
            attributes,
            unknown: if level == SightLevel::Full {
                c.unknown
                    .iter()
                    .filter(|u| !withheld.contains(u))
                    .cloned()
                    .collect()
            } else {
                Vec::new()
            },
            withheld,
            rule,
        })
    }

    /// Every counter the side sees at all (presence or more), in id order.
    pub fn counters(&self) -> Vec<CounterSight> {
        self.state
            .counters
            .keys()
            .filter_map(|id| self.counter(id))
            .filter(|c| c.level > SightLevel::Hidden)
            .collect()
    }
}

/// A megagame team's own counters: its side's, its states' ledgers and what belongs to them,
/// and its characters (as the team's confidential statement lists them).
fn team_counters(scenario: &Scenario, state: &GameState, team: &str) -> BTreeSet<String> {
    let people = super::people::People::new(scenario, state);
    let states: BTreeSet<String> = people.states_of(team).into_iter().collect();
    let members: BTreeSet<String> = people.members_of(team).into_iter().collect();
    state
        .counters
        .values()
        .filter(|c| {
            c.side == team
                || members.contains(&c.id)
                || people.state_of(&c.id).is_some_and(|s| states.contains(s))
                || states
                    .iter()
                    .any(|s| people.ledger_counter(s) == Some(c.id.as_str()))
                || (c.kind == CounterKind::Leader
                    && people
                        .states_of_character(&c.id)
                        .iter()
                        .any(|s| states.contains(s)))
        })
        .map(|c| c.id.clone())
        .collect()
}

/// The status changes a reveal calls for now: on every counter its condition holds for, each
/// status it sets that is missing and each it clears that is there.
pub fn reveal_changes(
    ruleset: &Ruleset,
    scenario: &Scenario,
    state: &GameState,
    reveal: &Reveal,
) -> Vec<CounterChange> {
    let rules = Sighted::new(ruleset, scenario, None, state);
    let mut out = Vec::new();
    for c in state.counters.values() {
        if !rules.holds(&reveal.when, c) {
            continue;
        }
        for s in &reveal.set {
            if !c.statuses.contains(s) {
                out.push(CounterChange::Status {
                    counter: c.id.clone(),
                    status: s.clone(),
                    on: true,
                });
            }
        }
        for s in &reveal.clear {
            if c.statuses.contains(s) {
                out.push(CounterChange::Status {
                    counter: c.id.clone(),
                    status: s.clone(),
                    on: false,
                });
            }
        }
    }
    out
}

/// The reveals of the current step of the Sequence of Play, each with the changes it still
/// calls for (none: done).
pub fn reveals_due<'r>(
    ruleset: &'r Ruleset,
    scenario: &Scenario,
    state: &GameState,
    step_id: &str,
) -> Vec<(&'r Reveal, Vec<CounterChange>)> {
    ruleset
        .visibility
        .reveals
        .iter()
        .filter(|r| r.step == step_id)
        .map(|r| (r, reveal_changes(ruleset, scenario, state, r)))
        .collect()
}

/// The pending item of a reveal: its key ("reveal:d1_intelligence:3") and words that name no
/// counter (the sides see the checklist too).
pub fn reveal_item(reveal: &Reveal, turn: u32, changes: &[CounterChange]) -> (String, String) {
    let counters: BTreeSet<&str> = changes.iter().map(CounterChange::counter).collect();
    let what = match counters.len() {
        0 => "nothing left to reveal".to_string(),
        1 => "1 counter in contact to reveal".to_string(),
        n => format!("{n} counters in contact to reveal"),
    };
    (
        format!("reveal:{}:{turn}", reveal.id),
        format!("Reveal ({}): {what}", reveal.from.rule),
    )
}

/// Whether a visibility condition shows the value `value` of the attribute `field` — only what
/// the condition says of that attribute counts; anything else it asks keeps the order hidden.
fn shows(condition: &Condition, field: &str, value: &str) -> bool {
    match condition {
        Condition::Attribute { name, value: want } => {
            name == field && *want == crate::rules::Value::Text(value.to_string())
        }
        Condition::Any(cs) => cs.iter().any(|c| shows(c, field, value)),
        Condition::All(cs) => !cs.is_empty() && cs.iter().all(|c| shows(c, field, value)),
        _ => false,
    }
}
