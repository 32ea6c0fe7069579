//! A victory condition evaluated on the game as it stands: holds, does not, or the umpire must
//! judge (a place whose owner is not recorded, a condition the counters cannot show), each with
//! its reasons in words.

use std::collections::BTreeMap;

use crate::game::scenario::{Condition, PlaceRef, Position, Scenario, TextItem};
use crate::game::state::GameState;
use crate::game::words::side_words;
use crate::rules::PlaceKind;

/// Whether a condition holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Truth {
    /// It holds.
    Yes,
    /// It does not.
    No,
    /// The engine cannot tell: the umpire judges.
    Unknown,
}

impl Truth {
    fn from(b: bool) -> Truth {
        if b { Truth::Yes } else { Truth::No }
    }
}

/// What a condition reads: the scenario, the state, and whether another side wins (for
/// `no_winner`).
pub(super) struct Eval<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) state: &'a GameState,
    pub(super) other_wins: Truth,
    /// Whether the scenario's end is being evaluated.
    pub(super) scenario_end: bool,
    /// The victory item being evaluated (what an umpire's judgement is of).
    pub(super) item: Option<&'a str>,
}

impl Eval<'_> {
    fn side(&self, id: &str) -> String {
        side_words(self.scenario, id)
    }

    /// Whether the holder `holder` (a side or an army) is, or is of, `by` (a side or an army).
    pub(super) fn is_of(&self, holder: &str, by: &str) -> bool {
        holder == by || self.side_of(holder) == by
    }

    /// The side of an army (a side is its own).
    pub(super) fn side_of<'s>(&'s self, id: &'s str) -> &'s str {
        self.scenario
            .armies
            .iter()
            .find(|a| a.id == id)
            .map_or(id, |a| a.side.as_str())
    }

    /// Whether a counter belongs to `by` (a side or an army).
    fn belongs(&self, c: &crate::game::state::CounterState, by: &str) -> bool {
        c.side == by || c.army.as_deref() == Some(by)
    }

    /// The counters of `by` at a place (on the table), and whether any of them is Besieged.
    fn at(&self, place: &PlaceRef, by: Option<&str>) -> (usize, bool) {
        let here: Vec<_> = self
            .state
            .counters
            .values()
            .filter(|c| c.removed.is_none() && same_place(&c.position, &place.position))
            .filter(|c| c.kind == crate::game::scenario::CounterKind::Unit)
            .filter(|c| by.is_none_or(|b| self.belongs(c, b)))
            .collect();
        let besieged = here.iter().any(|c| c.statuses.contains("besieged"));
        (here.len(), besieged)
    }

    /// Whether a Besieged Force is at a place.
    pub(super) fn besieged(&self, place: &PlaceRef) -> bool {
        self.at(place, None).1
    }

    /// Whether a Force of `by` occupies a place: a unit of it there, and no un-besieged unit
    /// of another side (14.2: a place holding an enemy Force is not taken by standing beside
    /// it; a garrison besieged there no longer holds it).
    pub(super) fn occupied_by(&self, place: &PlaceRef, by: &str) -> bool {
        self.at(place, Some(by)).0 > 0 && !self.held_against(place, by)
    }

    /// Whether a unit of another side than `by` stands at a place un-besieged.
    fn held_against(&self, place: &PlaceRef, by: &str) -> bool {
        self.state.counters.values().any(|c| {
            c.removed.is_none()
                && c.kind == crate::game::scenario::CounterKind::Unit
                && !self.belongs(c, by)
                && self.side_of(&c.side) != self.side_of(by)
                && same_place(&c.position, &place.position)
                && !c.statuses.contains("besieged")
        })
    }

    /// A place's kind as the game knows it: the umpire's entry, else the scenario's (the
    /// organiser's reading of the map), else the text's.
    pub(super) fn kind_of(&self, place: &PlaceRef) -> Option<crate::rules::PlaceKind> {
        self.state
            .place_kinds
            .get(&place.name)
            .map(|(k, _)| *k)
            .or_else(|| {
                self.scenario
                    .places
                    .iter()
                    .find(|p| p.name == place.name)
                    .and_then(|p| p.kind)
            })
            .or(place.kind)
    }

    /// Evaluates `cond` for the side `winner` (what `winner` in the condition names).
    pub(super) fn truth(
        &self,
        cond: &Condition,
        winner: Option<&str>,
        items: &[TextItem],
        depth: u8,
    ) -> (Truth, Vec<String>) {
        let bind = |by: &str| -> String {
            if by == "winner" {
                winner.unwrap_or("winner").to_string()
            } else {
                by.to_string()
            }
        };
        match cond {
            Condition::All(all) => self.combine(all, winner, items, depth, true),
            Condition::Any(any) => self.combine(any, winner, items, depth, false),
            Condition::Not(c) => {
                let (t, r) = self.truth(c, winner, items, depth);
                let t = match t {
                    Truth::Yes => Truth::No,
                    Truth::No => Truth::Yes,
                    Truth::Unknown => Truth::Unknown,
                };
                (t, r)
            }
            Condition::Occupied {
                by,
                places,
                at_least,
                unbesieged,
            } => self.occupied(&bind(by), places, *at_least, *unbesieged),
            Condition::Owned {
                by,
                places,
                at_least,
                conquered,
                not_besieged,
            } => self.owned(&bind(by), places, *at_least, *conquered, *not_besieged),
            Condition::BattleWon { by, battle } => self.battle_won(&bind(by), battle),
            Condition::CapitanoLost { capitano, counters } => {
                let lost = counters.iter().any(|id| {
                    self.state
                        .counters
                        .get(id)
                        .is_some_and(|c| c.removed.is_some())
                });
                let line = if lost {
                    format!("{capitano} is killed or captured")
                } else {
                    format!("{capitano} is neither killed nor captured")
                };
                (Truth::from(lost), vec![line])
            }
            Condition::Won { item } => {
                let found = items.iter().find(|i| i.id == *item);
                match found.and_then(|i| Some((i, i.check.as_ref()?))) {
                    Some((i, check)) if depth < 8 => {
                        let side = check.winner.as_deref().or(winner);
                        match &check.condition {
                            Some(c) => {
                                // "French Standard Victory: no French Force occupies Milano".
                                let (t, mut r) = self.truth(c, side, items, depth + 1);
                                match r.first_mut() {
                                    Some(first) => *first = format!("{}: {first}", i.title),
                                    None => r.push(i.title.clone()),
                                }
                                (t, r)
                            }
                            None => (Truth::Yes, Vec::new()),
                        }
                    }
                    _ => (Truth::Unknown, vec![format!("'{item}' cannot be read")]),
                }
            }
            Condition::NoWinner => {
                let line = match self.other_wins {
                    Truth::Yes => "the other side wins",
                    Truth::No => "the other side did not win",
                    Truth::Unknown => "whether the other side wins is for the umpire to judge",
                };
                let t = match self.other_wins {
                    Truth::Yes => Truth::No,
                    Truth::No => Truth::Yes,
                    Truth::Unknown => Truth::Unknown,
                };
                (t, vec![line.to_string()])
            }
            Condition::ScenarioEnd => {
                let line = if self.scenario_end {
                    "at the end of the Scenario"
                } else {
                    "not the end of the Scenario"
                };
                (Truth::from(self.scenario_end), vec![line.to_string()])
            }
            Condition::Umpire { text } => self.judged(text, winner),
            Condition::MostVictoryPoints { .. } => {
                let Some(side) = winner else {
                    return (Truth::Unknown, vec!["Victory Points of no side".into()]);
                };
                most(self, cond, side)
            }
        }
    }

    /// A battle of a kind won by `by`.
    fn battle_won(&self, by: &str, battle: &str) -> (Truth, Vec<String>) {
        let won = self
            .state
            .battles
            .iter()
            .any(|(_, s, b)| s.as_deref() == Some(by) && b == battle);
        let battle_words = crate::rules::model::choice_words(battle);
        let line = if won {
            format!(
                "a {} won by the {}",
                title_words(&battle_words),
                self.side(by)
            )
        } else {
            format!(
                "no {} won by the {} yet",
                title_words(&battle_words),
                self.side(by)
            )
        };
        (Truth::from(won), vec![line])
    }

    /// What the umpire judges: his judgement recorded for this item (for this side, or for
    /// the item as a whole), else for him to judge.
    fn judged(&self, text: &str, winner: Option<&str>) -> (Truth, Vec<String>) {
        let judged = self.item.and_then(|item| {
            let judged = &self.state.judged;
            judged
                .get(&(item.to_string(), winner.map(str::to_string)))
                .or_else(|| judged.get(&(item.to_string(), None)))
        });
        match judged {
            Some((holds, seq, why)) => (
                Truth::from(*holds),
                vec![format!(
                    "the umpire judged that {}{text} (entry {seq}: {why})",
                    if *holds { "" } else { "it does not hold: " }
                )],
            ),
            None => (Truth::Unknown, vec![format!("the umpire judges: {text}")]),
        }
    }

    fn combine(
        &self,
        all: &[Condition],
        winner: Option<&str>,
        items: &[TextItem],
        depth: u8,
        every: bool,
    ) -> (Truth, Vec<String>) {
        let mut reasons = Vec::new();
        let mut unknown = false;
        for c in all {
            let (t, r) = self.truth(c, winner, items, depth);
            reasons.extend(r);
            match (t, every) {
                (Truth::No, true) => return (Truth::No, reasons),
                (Truth::Yes, false) => return (Truth::Yes, reasons),
                (Truth::Unknown, _) => unknown = true,
                _ => {}
            }
        }
        match (unknown, every) {
            (true, _) => (Truth::Unknown, reasons),
            (false, true) => (Truth::Yes, reasons),
            (false, false) => (Truth::No, reasons),
        }
    }

    fn occupied(
        &self,
        by: &str,
        places: &[PlaceRef],
        at_least: Option<usize>,
        unbesieged: bool,
    ) -> (Truth, Vec<String>) {
        let mut yes = Vec::new();
        let mut no = Vec::new();
        for p in places {
            let (n, besieged) = self.at(p, Some(by));
            if n > 0 && !(unbesieged && besieged) && !self.held_against(p, by) {
                yes.push(place_words(p));
            } else {
                no.push(place_words(p));
            }
        }
        let need = at_least.unwrap_or(places.len());
        let side = self.side(by);
        let mut reasons = Vec::new();
        if !yes.is_empty() {
            reasons.push(format!("a {side} Force occupies {}", yes.join(", ")));
        }
        if !no.is_empty() {
            reasons.push(format!("no {side} Force occupies {}", no.join(", ")));
        }
        (Truth::from(yes.len() >= need), reasons)
    }

    fn owned(
        &self,
        by: &str,
        places: &[PlaceRef],
        at_least: Option<usize>,
        conquered: bool,
        not_besieged: bool,
    ) -> (Truth, Vec<String>) {
        let (mut yes, mut no, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
        for p in places {
            let besieged = not_besieged && self.at(p, None).1;
            match self.state.control.get(&p.name) {
                Some(c)
                    if c.side.as_deref().is_some_and(|s| self.is_of(s, by))
                        && (c.conquered || !conquered) =>
                {
                    if besieged {
                        no.push(format!("{} (Besieged)", place_words(p)));
                    } else {
                        yes.push(place_words(p));
                    }
                }
                Some(_) => no.push(place_words(p)),
                None => unknown.push(place_words(p)),
            }
        }
        let need = at_least.unwrap_or(places.len());
        let side = self.side(by);
        let verb = if conquered { "Conquered" } else { "owned" };
        let mut reasons = Vec::new();
        if !yes.is_empty() {
            reasons.push(format!("{verb} by the {side}: {}", yes.join(", ")));
        }
        if !no.is_empty() {
            reasons.push(format!("not {verb} by the {side}: {}", no.join(", ")));
        }
        if !unknown.is_empty() {
            reasons.push(format!(
                "who owns {} is not recorded (14.1) — record it with `game control`",
                unknown.join(", ")
            ));
        }
        let t = if yes.len() >= need {
            Truth::Yes
        } else if yes.len() + unknown.len() < need {
            Truth::No
        } else {
            Truth::Unknown
        };
        (t, reasons)
    }
}

/// "Novara (2611)", or the area's name.
pub(super) fn place_words(p: &PlaceRef) -> String {
    match &p.position {
        Position::Hex(h) => format!("{} ({h})", p.name),
        _ => p.name.clone(),
    }
}

/// Whether a place of this kind is a City (its VP an end-of-game die), a Town, or not said.
pub(super) fn is_city(kind: Option<PlaceKind>) -> Option<bool> {
    match kind? {
        PlaceKind::City | PlaceKind::FortifiedCity => Some(true),
        PlaceKind::Town | PlaceKind::FortifiedTown => Some(false),
        _ => None,
    }
}

/// Whether two positions are the same place (an area by name, any case).
pub(super) fn same_place(a: &Position, b: &Position) -> bool {
    match (a, b) {
        (Position::Hex(x), Position::Hex(y)) => x == y,
        (Position::Area(x), Position::Area(y)) => x.trim().eq_ignore_ascii_case(y.trim()),
        _ => false,
    }
}

/// "major battle" → "Major Battle".
fn title_words(s: &str) -> String {
    s.split(' ')
        .map(crate::game::words::capitalised)
        .collect::<Vec<_>>()
        .join(" ")
}

// ── Victory Points: the totals and who has the most (Gradisca, Rule 13) ──────────────────────

/// Each side's total, with how it was reached and what is still missing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    /// Side id → VP.
    pub points: BTreeMap<String, i64>,
    /// How, one line each.
    pub lines: Vec<String>,
    /// What the totals do not count yet (a City's die not rolled, a place's kind not given).
    pub missing: Vec<String>,
}

/// The VP totals of every side under a `most_victory_points` condition.
pub(super) fn totals(ev: &Eval, cond: &Condition) -> Totals {
    let mut t = Totals::default();
    for s in &ev.scenario.sides {
        t.points.insert(s.id.clone(), 0);
    }
    for (_, side, vp, why) in &ev.state.victory_points {
        *t.points.entry(ev.side_of(side).to_string()).or_default() += vp;
        t.lines.push(format!(
            "{} {vp:+} VP: {}",
            crate::game::words::side_words(ev.scenario, side),
            why
        ));
    }
    let Condition::MostVictoryPoints {
        places,
        city_procedure,
        occupation,
    } = cond
    else {
        return t;
    };
    let mut cities_owned = 0usize;
    for p in places {
        let Some(owner) = ev
            .state
            .control
            .get(&p.name)
            .and_then(|c| c.side.as_deref())
            .map(|s| ev.side_of(s).to_string())
        else {
            t.missing.push(format!(
                "who owns {} is not recorded (14.1)",
                place_words(p)
            ));
            continue;
        };
        if ev.besieged(p) {
            t.lines
                .push(format!("{} is Besieged: no VP", place_words(p)));
            continue;
        }
        match is_city(ev.kind_of(p)) {
            Some(false) => {
                *t.points.entry(owner.clone()).or_default() += 1;
                t.lines.push(format!(
                    "{} owns the Town of {}: 1 VP",
                    crate::game::words::side_words(ev.scenario, &owner),
                    place_words(p)
                ));
            }
            Some(true) => cities_owned += 1,
            None => t.missing.push(format!(
                "the text does not say whether {} is a Town (1 VP) or a City (a die)",
                place_words(p)
            )),
        }
    }
    if let Some(proc_id) = city_procedure {
        let rolled = ev
            .state
            .resolved
            .iter()
            .filter(|(_, p, seq)| p == proc_id && ev.state.effective.contains(seq))
            .count();
        if rolled < cities_owned {
            t.missing.push(format!(
                "{} of {cities_owned} owned Cities' VP dice not rolled yet",
                cities_owned - rolled
            ));
        }
    }
    for (p, side, vp) in occupation {
        if ev.occupied_by(p, side) {
            *t.points.entry(ev.side_of(side).to_string()).or_default() += vp;
            t.lines.push(format!(
                "{} occupy {}: {vp} VP",
                crate::game::words::side_words(ev.scenario, side),
                place_words(p)
            ));
        }
    }
    t
}

/// Whether `side` has more VP than every other side.
pub(super) fn most(ev: &Eval, cond: &Condition, side: &str) -> (Truth, Vec<String>) {
    let t = totals(ev, cond);
    let mine = t.points.get(side).copied().unwrap_or(0);
    let best_other = t
        .points
        .iter()
        .filter(|(s, _)| s.as_str() != side)
        .map(|(_, v)| *v)
        .max()
        .unwrap_or(0);
    let summary = t
        .points
        .iter()
        .map(|(s, v)| format!("{} {v} VP", crate::game::words::side_words(ev.scenario, s)))
        .collect::<Vec<_>>()
        .join(", ");
    let mut reasons = vec![format!("Victory Points: {summary}")];
    reasons.extend(t.missing.iter().cloned());
    let truth = if !t.missing.is_empty() {
        Truth::Unknown
    } else if mine > best_other {
        Truth::Yes
    } else {
        Truth::No
    };
    (truth, reasons)
}
