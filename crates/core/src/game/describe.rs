//! The one describer: what happened in a game, in the game's words. Every front-end — the
//! desk's journal and result panel, the command line's text output, the turn reports and the
//! megagame papers — words events, counter changes, resolutions and pending items through
//! [`Words`], so a wording fixed here is fixed everywhere. Ids, keys and expression source stay
//! in the JSON and the source details.

use std::collections::BTreeMap;

use super::event::{ClockAction, CounterChange, Event, EventKind, VictoryFact};
use super::scenario::{Position, Scenario};
use super::sequence::LeafStep;
use super::session::Game;
use super::state::GameState;
use crate::dice::{Provenance, Roll};
use crate::resolve::{Resolution, describe_effect};
use crate::rules::model::choice_words;
use crate::rules::{Ruleset, Value};

pub use super::words::{
    and_list, attribute_value_words, attribute_words, capitalised, change_words, force_words,
    place_name, position_words, side_words,
};

/// The describer of one game as it stands (or as it stood, for a report of an earlier turn).
pub struct Words<'g> {
    ruleset: &'g Ruleset,
    scenario: &'g Scenario,
    state: &'g GameState,
    steps: &'g [LeafStep],
    events: &'g [Event],
    seed: String,
}

impl<'g> Words<'g> {
    /// The game as it stands.
    pub fn of(game: &'g Game) -> Words<'g> {
        Words::at(game, game.state())
    }

    /// The game with the counters of `state` (a report's end-of-turn state).
    pub fn at(game: &'g Game, state: &'g GameState) -> Words<'g> {
        Words {
            ruleset: game.ruleset(),
            scenario: game.scenario(),
            state,
            steps: game.steps(),
            events: game.events(),
            seed: game.seed_statement(),
        }
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        self.scenario
    }

    /// How many procedures a Sequence-of-Play step holds.
    pub fn step_procedures(&self, index: usize) -> usize {
        self.steps.get(index).map_or(0, |s| s.procedures.len())
    }

    /// A counter by its name (names are unique within a scenario).
    pub fn counter(&self, id: &str) -> String {
        if let Some(c) = self.state.counters.get(id) {
            return c.name.clone();
        }
        // A counter the state no longer knows (an import of another scenario): its words.
        choice_words(id)
    }

    /// Several counters: "A, B and C".
    pub fn counters<'a>(&self, ids: impl IntoIterator<Item = &'a String>) -> String {
        and_list(ids.into_iter().map(|i| self.counter(i)).collect())
    }

    /// A side (or army) by the short form of its printed name ("French" for "French: the
    /// Kingdom of France").
    pub fn side(&self, id: &str) -> String {
        side_words(self.scenario, id)
    }

    /// An attribute by its label in the ruleset ("Strength Points").
    pub fn attribute(&self, name: &str) -> String {
        attribute_words(self.ruleset, name)
    }
}

impl Words<'_> {
    /// A value in words (a name written as an id in words, a flag as yes or no).
    pub fn value(&self, value: &Value) -> String {
        attribute_value_words(value)
    }

    /// A status marker in words ("disordered", "No Move").
    pub fn status(&self, status: &str) -> String {
        choice_words(status)
    }

    /// Where a counter is.
    pub fn position(&self, p: &Position) -> String {
        position_words(self.scenario, p)
    }

    /// A procedure by its name.
    pub fn procedure(&self, id: &str) -> String {
        self.ruleset
            .procedure(id)
            .map_or_else(|| capitalised(&choice_words(id)), |p| p.name.clone())
    }

    /// A Sequence-of-Play step ("Phase › Segment › Step").
    pub fn step(&self, index: usize) -> String {
        self.steps
            .get(index)
            .map_or_else(|| format!("step {}", index + 1), |s| s.path.clone())
    }

    /// A pending item, from the key it was recorded under (a skip names its key).
    pub fn item(&self, key: &str) -> String {
        // A cycle's item carries the entry that began its pass ("…@12").
        let key = key.split_once('@').map_or(key, |(k, _)| k);
        let parts: Vec<&str> = key.split(':').collect();
        match parts.as_slice() {
            ["step", _, _, procedure] => self.procedure(procedure),
            ["step", _, _, "force", force, procedure] => format!(
                "{} for {}",
                self.procedure(procedure),
                super::words::force_words(self.scenario, force)
            ),
            ["step", _, _, "draw", deck] => format!(
                "the draw from {}",
                self.ruleset
                    .decks
                    .iter()
                    .find(|d| d.id == *deck)
                    .map_or_else(|| choice_words(deck), |d| d.name.clone())
            ),
            ["enter", _, _, step] => format!("going to {}", choice_words(step)),
            ["schedule", id, turn] => self
                .scenario
                .schedules
                .iter()
                .find(|s| s.id == *id)
                .map_or_else(
                    || choice_words(id),
                    |s| {
                        let amount = turn
                            .parse::<u32>()
                            .ok()
                            .and_then(|t| s.amounts.iter().find(|(at, _)| *at == t))
                            .map_or_else(String::new, |(_, a)| format!(": {a}"));
                        format!("{}{amount}", s.name)
                    },
                ),
            ["setup", force] => format!(
                "the set-up of {}",
                super::words::force_words(self.scenario, force)
            ),
            ["victory", "needed", item, ..] => format!(
                "what the end needs: {}",
                self.scenario
                    .victory
                    .iter()
                    .find(|v| v.id == *item)
                    .map_or_else(|| choice_words(item), |v| v.title.clone())
            ),
            ["battle", _] => "the battle's result".into(),
            ["card", seq, counter] => format!(
                "carrying out {}'s orders sealed in entry {seq}",
                self.counter(counter)
            ),
            ["orders", seq] => format!("the reveal of the orders sealed in entry {seq}"),
            ["reinforcements", turn] => format!("the reinforcements of turn {turn}"),
            ["follow_up", from] => format!("the check queued by entry {from}"),
            ["reveal", ..] => "the reveals of this step".into(),
            _ => choice_words(key),
        }
    }

    /// One counter change: "French Gendarmes (Chaumont): Strength Points 6 → 5".
    pub fn change(&self, c: &CounterChange) -> String {
        change_words(self.ruleset, self.scenario, &self.counter(c.counter()), c)
    }

    /// Several changes, with the reason when there is one.
    pub fn changes(&self, changes: &[CounterChange], reason: Option<&str>) -> String {
        let text: Vec<String> = changes.iter().map(|c| self.change(c)).collect();
        let text = if text.is_empty() {
            "no change".to_string()
        } else {
            text.join("; ")
        };
        // A removal's reason is in its own words already ("taken off the table (disbanded)").
        let said = |r: &str| {
            changes.iter().all(
                |c| matches!(c, CounterChange::Remove { reason, .. } if reason.trim() == r.trim()),
            )
        };
        match reason {
            Some(r) if !r.trim().is_empty() && !said(r) => format!("{text} — {r}"),
            _ => text,
        }
    }

    /// "Discipline Check for French Gendarmes (Chaumont)" — the procedure and who it was for.
    pub fn resolution_head(
        &self,
        r: &Resolution,
        counters: &BTreeMap<String, Vec<String>>,
    ) -> String {
        let name = self.procedure(&r.procedure);
        let who: Vec<String> = counters
            .iter()
            .filter(|(_, ids)| !ids.is_empty())
            .map(|(role, ids)| {
                let names = self.counters(ids);
                if counters.len() == 1 {
                    names
                } else {
                    format!("{} {names}", capitalised(&choice_words(role)))
                }
            })
            .collect();
        if who.is_empty() {
            name
        } else if counters.len() == 1 {
            format!("{name} for {}", who.join(""))
        } else {
            format!("{name}: {}", who.join(" against "))
        }
    }

    /// A resolution in one line: "Discipline Check for X → D, read off the physical chart (d6
    /// rolled 4 (physical dice))".
    pub fn resolution_line(
        &self,
        r: &Resolution,
        counters: &BTreeMap<String, Vec<String>>,
    ) -> String {
        self.resolution_line_at(None, r, counters)
    }

    /// [`Words::resolution_line`] of the resolution recorded as entry `seq`: headed by the
    /// result that stands (an override's, not the roll's).
    pub fn resolution_line_at(
        &self,
        seq: Option<u64>,
        r: &Resolution,
        counters: &BTreeMap<String, Vec<String>>,
    ) -> String {
        let chart = if r.outcome.from_physical_chart && self.overridden(seq).is_none() {
            ", read off the physical chart"
        } else {
            ""
        };
        format!(
            "{} → {}{chart} ({})",
            self.resolution_head(r, counters),
            self.players(&self.standing_outcome(seq, r), counters),
            dice(&r.rolls)
        )
    }

    /// "Player A", "Player B" of a procedure between two counters named by the letters A and
    /// B (the ailsh activation contest) as the counters' names: "Alviano's player".
    pub fn players(&self, text: &str, counters: &BTreeMap<String, Vec<String>>) -> String {
        let mut out = text.to_string();
        for (role, ids) in counters {
            if role.chars().count() != 1 || ids.is_empty() {
                continue;
            }
            let player = format!("Player {}", role.to_uppercase());
            if out.contains(&player) {
                out = out.replace(&player, &format!("{}'s player", self.counters(ids)));
            }
        }
        out
    }

    /// A clash held offline ("bohemia: position — Greta (Game Control) at 10:42, entry 17", as
    /// the queue keeps it) in the game's words: the counter's name and the attribute's label.
    pub fn clash(&self, clash: &str) -> String {
        let (key, rest) = clash.split_once(" — ").unwrap_or((clash, ""));
        let Some((id, what)) = key.split_once(": ") else {
            return clash.to_string();
        };
        let what = if what == "position" {
            "where it is".to_string()
        } else {
            self.attribute(what)
        };
        let head = format!("{}: {what}", self.counter(id));
        if rest.is_empty() {
            head
        } else {
            format!("{head} — {rest}")
        }
    }

    /// An application of a result's effects, the result named by the number the reader knows
    /// it by (a side's own number in a side's copy).
    pub fn applied(&self, of: u64, changes: &[CounterChange]) -> String {
        format!(
            "Effects of entry {of} applied: {}",
            self.changes(changes, None)
        )
    }

    /// The override that stands on entry `seq`, if any.
    fn overridden(&self, seq: Option<u64>) -> Option<&String> {
        self.state.overrides.get(&seq?)
    }

    /// The result of the resolution recorded as entry `seq` that stands: an override's, with
    /// what the roll gave; else the roll's own.
    pub fn standing_outcome(&self, seq: Option<u64>, r: &Resolution) -> String {
        match self.overridden(seq) {
            Some(code) => format!(
                "{} (overridden; the roll gave {})",
                self.outcome_label(&r.procedure, code),
                outcome(r)
            ),
            None => outcome(r),
        }
    }

    /// A resolution whole, as a person explains the roll: who it was for, the inputs that
    /// mattered, each modifier with its rule, the dice and the arithmetic, the row and column
    /// read, the result and its effects. The lines are the resolution's own explanation (its
    /// sentences are written by `resolve` when it is resolved), after the counters involved.
    pub fn resolution(
        &self,
        r: &Resolution,
        counters: &BTreeMap<String, Vec<String>>,
    ) -> Vec<String> {
        let mut lines = vec![self.resolution_head(r, counters)];
        // The explanation's first line names the procedure again: the head replaces it. Its
        // inputs line is said again with only the inputs that mattered; its last line gives
        // the outcome with its effects.
        for line in r.explanation.iter().skip(1) {
            if line.starts_with("Inputs: ")
                && let Some(inputs) = self.inputs_that_mattered(r)
            {
                lines.push(inputs);
                continue;
            }
            lines.push(self.players(line, counters));
        }
        if !r.explanation.iter().any(|l| l.starts_with("Outcome:")) {
            let effects: Vec<String> = r.outcome.effects.iter().map(describe_effect).collect();
            lines.push(format!("Outcome: {}", outcome(r)));
            if !effects.is_empty() {
                lines.push(format!("Effects: {}", effects.join("; ")));
            }
        }
        lines
    }

    /// "Inputs: …" with the inputs that mattered: those given a value other than their
    /// default, flags that are set, and every input without a default. None when the
    /// procedure is not in the ruleset (the stored line then stands).
    fn inputs_that_mattered(&self, r: &Resolution) -> Option<String> {
        let procedure = self.ruleset.procedure(&r.procedure)?;
        let shown: Vec<String> = procedure
            .inputs
            .iter()
            .filter_map(|spec| {
                let v = r.inputs.get(&spec.name)?;
                match v {
                    Value::Bool(false) => None,
                    Value::Bool(true) => Some(spec.label.clone()),
                    v if spec.default.as_ref() == Some(v) => None,
                    v => Some(format!("{} = {}", spec.label, spec.value_words(v))),
                }
            })
            .collect();
        Some(if shown.is_empty() {
            "Inputs: none beyond the defaults".to_string()
        } else {
            format!("Inputs: {}", shown.join(", "))
        })
    }

    /// An entry's title ("Counters", the procedure's name, "Sequence of Play"…).
    pub fn title(&self, e: &Event) -> String {
        match &e.kind {
            EventKind::GameStarted { .. } => "Game started".into(),
            EventKind::SeedRevealed { .. } => "App dice seed revealed".into(),
            EventKind::Changed { .. } => "Counters".into(),
            EventKind::EffectsApplied { .. } => "Effects applied".into(),
            EventKind::Resolved { resolution, .. } => self.procedure(&resolution.procedure),
            EventKind::Overridden { .. } => "Result overridden".into(),
            EventKind::Stepped { .. } => "Sequence of Play".into(),
            EventKind::Skipped { .. } => "Skipped".into(),
            EventKind::Note { .. } => "Note".into(),
            EventKind::Undone { .. } => "Undo".into(),
            EventKind::Redone { .. } => "Redo".into(),
            EventKind::Clock { .. } => "Clock".into(),
            EventKind::Announced { audience, .. } => format!("Announcement ({audience})"),
            EventKind::Victory { fact } => match fact {
                VictoryFact::Control { .. } => "Control of a place".into(),
                VictoryFact::BattleWon { .. } => "Battle won".into(),
                VictoryFact::BattleDrawn { .. } => "Battle drawn".into(),
                VictoryFact::PlaceKind { .. } => "What a place is".into(),
                VictoryFact::Judged { .. } => "A victory condition judged".into(),
                VictoryFact::Points { .. } => "Victory Points".into(),
                VictoryFact::Ended { .. } => "The end of the game".into(),
            },
            EventKind::Record { fact } => crate::game::records::title(self.ruleset, fact),
            EventKind::OrdersSealed { .. } | EventKind::OrdersRevealed { .. } => {
                crate::game::sealed::title(self.ruleset, e).unwrap_or_default()
            }
            EventKind::Deck { deck, owner, .. } => {
                let name = crate::game::deck::find(self.ruleset, deck)
                    .map_or_else(|| choice_words(deck), |d| d.name.clone());
                match owner {
                    Some(side) => format!("{name} ({})", self.side(side)),
                    None => name,
                }
            }
            EventKind::Transcribed { .. } => "Transcription".into(),
        }
    }

    /// An entry in one line (the desk's journal, what the command line says it recorded).
    pub fn line(&self, e: &Event) -> String {
        match &e.kind {
            EventKind::Resolved {
                resolution,
                counters,
                ..
            } => self.resolution_line_at(Some(e.seq), resolution, counters),
            EventKind::Changed {
                changes, reason, ..
            } => self.changes(changes, reason.as_deref()),
            EventKind::EffectsApplied { of, changes } => self.applied(*of, changes),
            EventKind::Stepped { to, .. } => {
                format!("Turn {}: {}", to.turn, self.step(to.step))
            }
            EventKind::Note { text } => format!("Note: {text}"),
            EventKind::Transcribed { .. } => one_line(&self.detail(e)),
            // One line: whose orders, as sealed; the orders themselves are the entry's detail.
            EventKind::OrdersRevealed { .. } => format!(
                "{}: {}",
                self.title(e),
                self.detail(e).first().cloned().unwrap_or_default()
            ),
            EventKind::Undone { event } => {
                format!("Undid entry {event}: {}", self.entry_line(*event))
            }
            EventKind::Redone { event } => {
                format!("Redid entry {event}: {}", self.entry_line(*event))
            }
            _ => format!("{}: {}", self.title(e), one_line(&self.detail(e))),
        }
    }

    /// The one-line words of entry `seq` (what an undo or redo took back or restored).
    fn entry_line(&self, seq: u64) -> String {
        match self.events.get(seq.saturating_sub(1) as usize) {
            Some(e)
                if e.seq == seq
                    && !matches!(e.kind, EventKind::Undone { .. } | EventKind::Redone { .. }) =>
            {
                self.line(e)
            }
            Some(e) if e.seq == seq => self.title(e),
            _ => format!("entry {seq}"),
        }
    }

    /// An entry whole, one sentence or line each (the turn reports, the desk's entry details).
    pub fn detail(&self, e: &Event) -> Vec<String> {
        match &e.kind {
            EventKind::GameStarted { scenario, .. } => {
                let title = if *scenario == self.scenario.id {
                    self.scenario.title.clone()
                } else {
                    choice_words(scenario)
                };
                vec![format!("{title}; {}", self.seed)]
            }
            EventKind::SeedRevealed { seed, .. } => vec![format!(
                "Seed {seed}: every app roll can now be checked against the commitment"
            )],
            EventKind::Changed {
                changes, reason, ..
            } => {
                vec![self.changes(changes, reason.as_deref())]
            }
            EventKind::EffectsApplied { of, changes } => {
                vec![format!("Of entry {of}: {}", self.changes(changes, None))]
            }
            EventKind::Resolved {
                resolution,
                counters,
                ..
            } => self.resolution(resolution, counters),
            EventKind::Overridden {
                of,
                outcome,
                reason,
                ..
            } => vec![format!(
                "Entry {of} now reads {}. Reason: {reason}",
                self.override_outcome(*of, outcome)
            )],
            EventKind::Stepped { to, .. } => {
                vec![format!("To turn {}, {}", to.turn, self.step(to.step))]
            }
            EventKind::Skipped { item, reason } => {
                vec![format!(
                    "{}. Reason: {reason}",
                    capitalised(&self.item(item))
                )]
            }
            EventKind::Note { text } => vec![text.clone()],
            EventKind::Undone { event } => vec![format!(
                "Entry {event} undone (it stays in the journal): {}",
                self.entry_line(*event)
            )],
            EventKind::Redone { event } => vec![format!(
                "Entry {event} restored: {}",
                self.entry_line(*event)
            )],
            EventKind::Clock { action } => vec![self.clock(action)],
            EventKind::Announced { team, text, .. } => vec![match team {
                Some(t) => format!("{}: {text}", self.side(t)),
                None => text.clone(),
            }],
            EventKind::Deck {
                deck,
                change,
                after,
                reason,
                ..
            } => self.deck_words(deck, change, after, reason.as_deref()),
            EventKind::Victory { fact } => self.victory_words(fact),
            EventKind::Record { fact } => vec![crate::game::records::words(
                self.ruleset,
                self.scenario,
                fact,
                &|t| self.side(t),
            )],
            EventKind::Transcribed {
                table,
                filled,
                changed,
                ..
            } => vec![transcribed_words(
                &crate::game::transcribed::table_title(self.ruleset, table),
                *filled,
                *changed,
            )],
            EventKind::OrdersSealed { .. } => {
                crate::game::sealed::sealed_words(self.ruleset, self.scenario, e)
            }
            EventKind::OrdersRevealed { .. } => {
                crate::game::sealed::revealed_words(self.ruleset, self.scenario, self.state, e)
            }
        }
    }

    /// A victory fact in words: "Novara: Conquered by the French (a French Force entered …)".
    pub fn victory_words(&self, fact: &VictoryFact) -> Vec<String> {
        let because = |r: &Option<String>| r.as_ref().map_or(String::new(), |r| format!(" ({r})"));
        match fact {
            VictoryFact::Control {
                place,
                side,
                conquered,
                reason,
            } => vec![match side {
                Some(s) if *conquered => format!(
                    "{place}: Conquered by the {}{}",
                    self.side(s),
                    because(reason)
                ),
                Some(s) => format!("{place}: owned by the {}{}", self.side(s), because(reason)),
                None => format!("{place}: owned by no side{}", because(reason)),
            }],
            VictoryFact::BattleWon {
                side,
                battle,
                reason,
            } => vec![format!(
                "{} won by the {}{}",
                crate::game::victory::battle_name(self.ruleset, battle),
                self.side(side),
                because(reason)
            )],
            VictoryFact::BattleDrawn { battle, reason } => vec![format!(
                "{}: a draw, no side won{}",
                crate::game::victory::battle_name(self.ruleset, battle),
                because(reason)
            )],
            VictoryFact::PlaceKind {
                place,
                kind,
                reason,
            } => vec![format!(
                "{place} is a {} ({reason})",
                crate::game::victory::place_kind_words(*kind)
            )],
            VictoryFact::Judged {
                item,
                side,
                holds,
                reason,
            } => {
                let title = self
                    .scenario
                    .victory
                    .iter()
                    .find(|v| v.id == *item)
                    .map_or(item.as_str(), |v| v.title.as_str());
                let whose = side
                    .as_ref()
                    .map_or_else(String::new, |s| format!(" for the {}", self.side(s)));
                vec![format!(
                    "{title}{whose}: the umpire judges that it {} ({reason})",
                    if *holds { "holds" } else { "does not hold" }
                )]
            }
            VictoryFact::Points {
                side,
                points,
                reason,
            } => vec![format!("{} {points:+} VP: {reason}", self.side(side))],
            VictoryFact::Ended { result } => {
                let mut out = vec![capitalised(&result.sentence)];
                // The reasons the sentence does not already say (the umpire's, a die's).
                out.extend(
                    result
                        .reasons
                        .iter()
                        .filter(|r| !result.sentence.contains(r.as_str()))
                        .cloned(),
                );
                out
            }
        }
    }

    /// A deck entry: what was done, then what is left.
    fn deck_words(
        &self,
        deck: &str,
        change: &crate::game::deck::DeckChange,
        after: &crate::game::deck::DeckState,
        reason: Option<&str>,
    ) -> Vec<String> {
        use crate::game::deck::DeckChange;
        let spec = crate::game::deck::find(self.ruleset, deck);
        let (noun, item) = spec.map_or(("deck", "card"), |d| (d.noun(), d.item_noun()));
        let list = |items: &[String]| items.join(", ");
        let mut out = vec![match change {
            DeckChange::Filled => format!("Filled the {noun}."),
            DeckChange::Drawn {
                items,
                provenance,
                side,
                reshuffled,
            } => {
                let how = match provenance {
                    crate::dice::Provenance::App { .. } => "app draw",
                    crate::dice::Provenance::Physical { .. } => "drawn at the table",
                };
                format!(
                    "{}Drew {}{}: {} ({how}).",
                    if *reshuffled {
                        format!("The {noun} ran out and the drawn {item}s were shuffled back in. ")
                    } else {
                        String::new()
                    },
                    if items.len() == 1 {
                        format!("one {item}")
                    } else {
                        format!("{} {item}s", items.len())
                    },
                    side.as_deref()
                        .map_or_else(String::new, |s| format!(" for {}", self.side(s))),
                    list(items)
                )
            }
            DeckChange::Refilled => format!("Everything drawn went back into the {noun}."),
            DeckChange::Returned { items } => format!("Back into the {noun}: {}.", list(items)),
            DeckChange::Removed { items } => format!("Out of play for good: {}.", list(items)),
            DeckChange::Added { items } => format!("Put into the {noun}: {}.", list(items)),
        }];
        if let Some(spec) = spec {
            out.push(format!("Now {}.", after.words(spec)));
        }
        if let Some(r) = reason {
            out.push(format!("Reason: {r}"));
        }
        out
    }

    /// A clock action: "Clock started: turn 1, Phase 1 › Diplomacy".
    pub fn clock(&self, action: &ClockAction) -> String {
        match action {
            ClockAction::Start { turn, phase } => {
                let phase = self
                    .steps
                    .iter()
                    .find(|s| s.id == *phase)
                    .map_or_else(|| choice_words(phase), |s| s.path.clone());
                format!("Clock started: turn {turn}, {phase}")
            }
            ClockAction::Hold => "Clock held".to_string(),
            ClockAction::Resume => "Clock resumed".to_string(),
            ClockAction::Advance => "Clock advanced to the next phase".to_string(),
            ClockAction::SetRemaining { seconds } => {
                format!("Clock set to {:02}:{:02} left", seconds / 60, seconds % 60)
            }
        }
    }

    /// The outcome an override of entry `of` names, by its label in that entry's procedure.
    fn override_outcome(&self, of: u64, code: &str) -> String {
        let procedure = self.events.iter().find_map(|e| match &e.kind {
            EventKind::Resolved { resolution, .. } if e.seq == of => {
                Some(resolution.procedure.as_str())
            }
            _ => None,
        });
        match procedure {
            Some(p) => self.outcome_label(p, code),
            None => code.to_string(),
        }
    }

    /// An outcome code of a procedure by its label (the code itself when it has none).
    pub fn outcome_label(&self, procedure: &str, code: &str) -> String {
        self.ruleset
            .procedure(procedure)
            .and_then(|p| p.outcome(code))
            .map_or_else(|| code.to_string(), |o| o.label.clone())
    }
}

/// The outcome of a resolution in words, with its number when the words do not say it.
pub fn outcome(r: &Resolution) -> String {
    let o = &r.outcome;
    match o.value {
        Some(v) if o.label != v.to_string() && o.label.parse::<i64>().is_err() => {
            format!("{} ({v})", o.label)
        }
        _ => o.label.clone(),
    }
}

/// The dice of a resolution: "d6 rolled 4 (physical dice)", "2d6 rolled 3 and 4 (app
/// dice, draw 12)".
pub fn dice(rolls: &[Roll]) -> String {
    if rolls.is_empty() {
        return "no dice".into();
    }
    rolls
        .iter()
        .map(|r| {
            let faces: Vec<String> = r
                .dice
                .iter()
                .map(|d| d.label.clone().unwrap_or_else(|| d.face.to_string()))
                .collect();
            let from = match &r.provenance {
                Provenance::App { first_draw, .. } => format!("app dice, draw {first_draw}"),
                Provenance::Physical { entered_by } => match entered_by {
                    Some(b) => format!("physical dice rolled by {b}"),
                    None => "physical dice".to_string(),
                },
            };
            format!("{} rolled {} ({from})", r.expr, and_list(faces))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Detail lines on one line: after a line that ends its sentence a space, after a clause "; ",
/// so "… for the Venetian" and "the umpire judges: …" do not run together.
fn one_line(lines: &[String]) -> String {
    let mut out = String::new();
    for line in lines {
        if !out.is_empty() {
            out.push_str(if out.ends_with(['.', '!', '?']) {
                " "
            } else {
                "; "
            });
        }
        out.push_str(line);
    }
    out
}

/// "Transcribed the Weather Table from the umpire's chart sheet: it fills 6 cells".
pub fn transcribed_words(title: &str, filled: usize, changed: usize) -> String {
    let cells = |n: usize| {
        if n == 1 {
            "1 cell".to_string()
        } else {
            format!("{n} cells")
        }
    };
    let what = match (filled, changed) {
        (0, 0) => "it changes no cell".to_string(),
        (f, 0) => format!("it fills {}", cells(f)),
        (0, c) => format!("it changes {}", cells(c)),
        (f, c) => format!("it fills {} and changes {c}", cells(f)),
    };
    let the = if title.to_lowercase().starts_with("the ") {
        ""
    } else {
        "the "
    };
    format!("Transcribed {the}{title} from the umpire's chart sheet: {what}")
}
