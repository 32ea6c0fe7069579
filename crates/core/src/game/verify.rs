//! Verifying a journal, as the umpire or as a player holding a side's export: the hash chain
//! from the game's description to the last entry, the seed against the commitment shown from
//! the start, every app roll against the seed and its draw index, every result against its
//! recorded inputs and dice, and the journal's head against one a player noted from a report.
//! The first problem names the first entry that does not match.

use std::collections::BTreeMap;

use serde::Serialize;

use super::event::{Event, EventKind};
use super::journal::{Entry, GameMeta, Head, PublicMeta, commitment, link};
use super::refusal::GameError;
use super::scenario::Scenario;
use super::session::Game;
use super::transcribed::InForce;
use crate::dice::{AppDice, Provenance};
use crate::resolve::{DiceSource, resolve};
use crate::rules::Ruleset;

/// One line of a journal as a verifier holds it: an entry in full, or only its place and hash
/// (an entry a side's export leaves sealed).
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// The entry, its text and hash.
    Open(Entry),
    /// Sealed: what it was is hidden from this reader; its hash keeps the chain whole.
    Sealed {
        /// Its place.
        seq: u64,
        /// Its hash.
        hash: String,
    },
}

impl Line {
    /// Its place in the journal.
    pub fn seq(&self) -> u64 {
        match self {
            Line::Open(e) => e.event.seq,
            Line::Sealed { seq, .. } => *seq,
        }
    }

    /// Its hash.
    pub fn hash(&self) -> &str {
        match self {
            Line::Open(e) => &e.hash,
            Line::Sealed { hash, .. } => hash,
        }
    }
}

/// Something that does not match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The entry (0: the game's description or the journal as a whole).
    pub entry: u64,
    /// What, in a sentence.
    pub text: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.entry == 0 {
            f.write_str(&self.text)
        } else {
            write!(f, "entry {}: {}", self.entry, self.text)
        }
    }
}

/// What the seed allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedCheck {
    /// The seed was at hand (held, chosen or revealed) and matches the commitment: every app
    /// roll was re-derived.
    Checked,
    /// The seed is still secret: app rolls can be checked once it is revealed.
    Secret,
    /// The seed does not match the commitment.
    Mismatch,
}

/// What verification found.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// Entries read.
    pub entries: u64,
    /// Entries sealed (a side's export).
    pub sealed: u64,
    /// Where the journal stands.
    pub head: Head,
    /// Resolutions re-resolved.
    pub resolutions: usize,
    /// App dice re-derived from the seed.
    pub app_dice: usize,
    /// Sealed orders revealed and held to the commitment made when they were sealed.
    #[serde(default)]
    pub orders: usize,
    /// Tables transcribed during the game (each entry held to the tables in force when it
    /// was made).
    #[serde(default)]
    pub transcriptions: usize,
    /// The seed against its commitment.
    pub seed: SeedCheck,
    /// Everything that does not match, in journal order.
    pub problems: Vec<Problem>,
    /// What a player should know that is not a failure, in sentences: a game begun before its
    /// ruleset was committed to; app rolls made before the reveal that no head noted after it
    /// holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Verification {
    /// Whether nothing was found wrong.
    pub fn is_sound(&self) -> bool {
        self.problems.is_empty()
    }

    /// The first problem, if any.
    pub fn first(&self) -> Option<&Problem> {
        self.problems.first()
    }
}

/// What a journal is verified against.
pub struct Context<'a> {
    /// The ruleset.
    pub ruleset: &'a Ruleset,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The Sequence of Play's leaf steps.
    pub steps: &'a [super::sequence::LeafStep],
    /// How the game started, as anyone may know it.
    pub public: &'a PublicMeta,
    /// The seed and salt the verifier holds (the umpire's game file), if any.
    pub held_seed: Option<(u64, String)>,
    /// A head the verifier noted earlier (from a report), to hold the journal to.
    pub expected: Option<&'a Head>,
    /// The head the store recorded with its last append, if it keeps one.
    pub recorded: Option<Head>,
    /// Whether several desks shared the journal (see [`super::audit::Rules::shared`]).
    pub shared: bool,
}

struct Checker<'a> {
    cx: &'a Context<'a>,
    /// The rulesets in force entry by entry (tables transcribed during the game).
    in_force: InForce<'a>,
    problems: Vec<Problem>,
    notes: Vec<String>,
}

impl Checker<'_> {
    fn problem(&mut self, entry: u64, text: String) {
        self.problems.push(Problem { entry, text });
    }
}

/// Verifies a journal's lines (all open for the umpire; some sealed in a side's export).
pub fn verify_lines(cx: &Context, lines: &[Line]) -> Verification {
    let opened: Vec<&Event> = lines
        .iter()
        .filter_map(|l| match l {
            Line::Open(e) => Some(&e.event),
            Line::Sealed { .. } => None,
        })
        .collect();
    let (in_force, damaged) = match InForce::of(cx.ruleset, opened.iter().copied()) {
        Ok(in_force) => (in_force, None),
        // A damaged transcription is named; the rest is read with the ruleset given.
        Err(problem) => (InForce::given(cx.ruleset), Some(problem)),
    };
    let mut ck = Checker {
        cx,
        in_force,
        problems: damaged.into_iter().collect(),
        notes: Vec::new(),
    };
    let genesis = cx.public.genesis();
    chain(&mut ck, &genesis, lines);
    start(&mut ck, lines);
    let (seed, seed_check) = seed(&mut ck, &opened);
    let app_dice = rolls(&mut ck, &opened, seed, lines.len() == opened.len());
    let all_open = lines.len() == opened.len();
    let resolutions = results(&mut ck, &opened, all_open);
    shape(&mut ck, &opened, all_open);
    content(&mut ck, &opened);
    let orders = sealed_orders(&mut ck, &opened);
    if all_open {
        rules_of_play(&mut ck, &opened, seed);
    }
    let head = Head {
        entries: lines.len() as u64,
        hash: lines
            .last()
            .map_or_else(|| genesis.clone(), |l| l.hash().to_string()),
    };
    heads(&mut ck, lines, &head);
    revealed_rolls(&mut ck, &opened);
    let notes = std::mem::take(&mut ck.notes);
    let transcriptions = ck.in_force.len();
    let mut problems = ck.problems;
    problems.sort_by_key(|p| p.entry);
    Verification {
        entries: lines.len() as u64,
        sealed: lines
            .iter()
            .filter(|l| matches!(l, Line::Sealed { .. }))
            .count() as u64,
        head,
        resolutions,
        app_dice,
        orders,
        transcriptions,
        seed: seed_check,
        problems,
        notes,
    }
}

/// Every reveal of sealed orders against the commitment of the entry that sealed them: the
/// same side, the same kind of order, and the orders and salt hashing to the commitment shown
/// before. A reveal whose sealing entry the reader may not see is left unchecked (a side's
/// export); the count says how many were checked.
fn sealed_orders(ck: &mut Checker, events: &[&Event]) -> usize {
    let mut checked = 0;
    for e in events {
        let EventKind::OrdersRevealed {
            sealed,
            order,
            side,
            salt,
            orders,
            ..
        } = &e.kind
        else {
            continue;
        };
        let Some(s) = events.iter().find(|x| x.seq == *sealed) else {
            continue;
        };
        let EventKind::OrdersSealed {
            order: o,
            side: sd,
            commitment,
            ..
        } = &s.kind
        else {
            ck.problem(
                e.seq,
                format!("it reveals orders of entry {sealed}, which sealed none"),
            );
            continue;
        };
        if o != order || sd != side || *sealed >= e.seq {
            ck.problem(
                e.seq,
                format!("it does not reveal the orders entry {sealed} sealed (another side, kind or place)"),
            );
        } else if super::sealed::commitment(salt, orders) != *commitment {
            ck.problem(
                e.seq,
                format!("the revealed orders do not match the commitment of entry {sealed}: they were changed after they were sealed"),
            );
        } else {
            checked += 1;
        }
    }
    checked
}

/// The hash chain: each open entry's hash follows from the previous entry's hash and its text.
fn chain(ck: &mut Checker, genesis: &str, lines: &[Line]) {
    let mut previous = genesis.to_string();
    for (i, line) in lines.iter().enumerate() {
        let place = i as u64 + 1;
        if line.seq() != place {
            ck.problem(
                place,
                format!(
                    "the entry in place {place} says it is entry {}: entries were removed, inserted or renumbered",
                    line.seq()
                ),
            );
        }
        if let Line::Open(entry) = line {
            if entry.hash.is_empty() {
                ck.problem(place, "it has no hash: it was not written by Umpire".into());
            } else if link(&previous, &entry.body) != entry.hash {
                let text = if i == 0 {
                    "it does not follow from the game's description (ruleset, scenario text, seed commitment): the description or this entry was changed"
                } else {
                    "it does not match its hash: it was changed after it was recorded, or an entry before it was removed, moved or inserted"
                };
                ck.problem(place, text.into());
            }
        }
        previous = line.hash().to_string();
    }
}

/// Entry 1 is the game's start, with the commitment of the description.
fn start(ck: &mut Checker, lines: &[Line]) {
    let Some(Line::Open(first)) = lines.first() else {
        ck.problem(1, "the journal does not begin with the game's start".into());
        return;
    };
    match &first.event.kind {
        EventKind::GameStarted {
            seed_commitment,
            seed,
            ..
        } => {
            let public = ck.cx.public;
            if !seed_commitment.is_empty() && *seed_commitment != public.seed_commitment {
                ck.problem(1, "the seed commitment made at the start is not the game's: the game was re-seeded".into());
            }
            if seed.is_some() && *seed != public.seed {
                ck.problem(
                    1,
                    "the seed recorded at the start is not the game's: the game was re-seeded"
                        .into(),
                );
            }
        }
        _ => ck.problem(1, "the journal does not begin with the game's start".into()),
    }
}

/// The seed the rolls are checked with (held, chosen or revealed), checked against the
/// commitment.
fn seed(ck: &mut Checker, events: &[&Event]) -> (Option<u64>, SeedCheck) {
    let public = ck.cx.public;
    let revealed = events.iter().find_map(|e| match &e.kind {
        EventKind::SeedRevealed { seed, salt } => Some((e.seq, *seed, salt.clone())),
        _ => None,
    });
    if let Some((entry, seed, salt)) = &revealed
        && commitment(*seed, salt) != public.seed_commitment
    {
        ck.problem(
            *entry,
            "the revealed seed does not match the commitment shown from the start: the game was re-seeded".into(),
        );
        return (None, SeedCheck::Mismatch);
    }
    if let Some((seed, salt)) = &ck.cx.held_seed
        && commitment(*seed, salt) != public.seed_commitment
    {
        ck.problem(
            0,
            format!(
                "the seed {seed} does not match the commitment made at the start: it is not this game's seed (mistyped, or the game was re-seeded)"
            ),
        );
        return (None, SeedCheck::Mismatch);
    }
    match revealed
        .map(|(_, s, _)| s)
        .or(ck.cx.held_seed.as_ref().map(|(s, _)| *s))
        .or(public.seed)
    {
        Some(seed) => (Some(seed), SeedCheck::Checked),
        None => (None, SeedCheck::Secret),
    }
}

/// App rolls: each die re-derived from the seed and its draw index; draws never reused, taken in
/// order (`contiguous` when every entry is open), none after the seed was revealed.
fn rolls(ck: &mut Checker, events: &[&Event], seed: Option<u64>, contiguous: bool) -> usize {
    let mut draws = Draws {
        seed,
        contiguous,
        ..Draws::default()
    };
    for e in events {
        if matches!(e.kind, EventKind::SeedRevealed { .. }) {
            draws.revealed = Some(e.seq);
        }
        // App draws from a deck or cup: the same draw indexes as dice, re-derived from the
        // seed and the deck as it was before.
        if let EventKind::Deck {
            change:
                crate::game::deck::DeckChange::Drawn {
                    items,
                    provenance:
                        Provenance::App {
                            first_draw,
                            draws: n,
                            ..
                        },
                    reshuffled,
                    ..
                },
            before,
            ..
        } = &e.kind
        {
            draws.deck(ck, e, before, items, (first_draw, n), reshuffled);
            continue;
        }
        let EventKind::Resolved { resolution, .. } = &e.kind else {
            continue;
        };
        for roll in &resolution.rolls {
            draws.roll(ck, e, roll);
        }
    }
    draws.checked
}

/// The app draws as [`rolls`] goes through the journal.
#[derive(Default)]
struct Draws {
    /// The seed to re-derive them with, when known.
    seed: Option<u64>,
    /// Whether every entry is open (draws then follow one another).
    contiguous: bool,
    /// The next unused draw.
    next: u64,
    /// Draw index → the entry that used it.
    used: BTreeMap<u64, u64>,
    /// The entry that revealed the seed, once it has.
    revealed: Option<u64>,
    /// Dice and items re-derived.
    checked: usize,
}

impl Draws {
    /// One app draw from a deck or cup, re-derived from the seed and the deck as it was before.
    fn deck(
        &mut self,
        ck: &mut Checker,
        e: &Event,
        before: &crate::game::deck::DeckState,
        items: &[String],
        (first_draw, draws): (&u64, &u64),
        reshuffled: &bool,
    ) {
        if let Some(at) = self.revealed {
            ck.problem(
                e.seq,
                format!("app draws were made after the seed was revealed (entry {at})"),
            );
        }
        if self.contiguous && *first_draw != self.next {
            ck.problem(
                e.seq,
                format!(
                    "its app draws start at draw {first_draw}; the next unused draw was {}",
                    self.next
                ),
            );
        }
        if items.len() as u64 != *draws {
            ck.problem(e.seq, format!("{} drawn for {draws} draws", items.len()));
        }
        self.next = self.next.max(first_draw.saturating_add(*draws));
        for k in 0..*draws {
            let index = first_draw.saturating_add(k);
            if let Some(other) = self.used.insert(index, e.seq) {
                ck.problem(
                    e.seq,
                    format!("draw {index} was already used by entry {other}"),
                );
            }
        }
        if let Some(seed) = self.seed {
            match before.draw_app(seed, *first_draw, *draws as u32, *reshuffled) {
                Ok((again, _, _)) if again == items => self.checked += items.len(),
                Ok((again, _, _)) => ck.problem(
                    e.seq,
                    format!(
                        "the seed draws {}, the journal says {}",
                        again.join(", "),
                        items.join(", ")
                    ),
                ),
                Err(had) => ck.problem(e.seq, format!("{draws} drawn from a deck that held {had}")),
            }
        }
    }

    /// One roll of app dice, each die re-derived from the seed and its draw index.
    fn roll(&mut self, ck: &mut Checker, e: &Event, roll: &crate::dice::Roll) {
        let seed = self.seed;
        let Provenance::App {
            seed: recorded,
            first_draw,
            draws,
            ..
        } = &roll.provenance
        else {
            return;
        };
        if let Some(at) = self.revealed {
            ck.problem(
                e.seq,
                format!("app dice were rolled after the seed was revealed (entry {at})"),
            );
        }
        if let (Some(r), Some(s)) = (recorded, seed)
            && *r != s
        {
            ck.problem(e.seq, format!("rolled with seed {r}, not the game's"));
        }
        if self.contiguous && *first_draw != self.next {
            ck.problem(
                e.seq,
                format!(
                    "its app dice start at draw {first_draw}; the next unused draw was {}",
                    self.next
                ),
            );
        }
        if roll.dice.len() as u64 != *draws {
            ck.problem(
                e.seq,
                format!("{} dice recorded for {draws} draws", roll.dice.len()),
            );
        }
        self.next = self.next.max(first_draw.saturating_add(*draws));
        // The dice as the notation makes them (a rerolled or exploding die is not the
        // plain die its name says), else by name.
        let made = crate::dice::DiceExpr::parse(&roll.expr, &ck.cx.ruleset.dice)
            .ok()
            .map(|e| e.dice().into_iter().cloned().collect::<Vec<_>>())
            .filter(|d| {
                d.len() == roll.dice.len()
                    && d.iter()
                        .zip(&roll.dice)
                        .all(|(made, rolled)| made.name == rolled.die)
            });
        for (k, die) in roll.dice.iter().enumerate() {
            let index = first_draw.saturating_add(k as u64);
            if let Some(other) = self.used.insert(index, e.seq) {
                ck.problem(
                    e.seq,
                    format!("draw {index} was already used by entry {other}"),
                );
            }
            let Some(seed) = seed else { continue };
            let Some(d) = made
                .as_ref()
                .and_then(|m| m.get(k).cloned())
                .or_else(|| ck.cx.ruleset.dice.get(&die.die))
            else {
                ck.problem(e.seq, format!("unknown die {}", die.die));
                continue;
            };
            let again = AppDice::face_at(seed, index, &d);
            self.checked += 1;
            if again.face != die.face {
                ck.problem(
                    e.seq,
                    format!(
                        "draw {index} is a {} on a {}, the journal says {}",
                        again.face, die.die, die.face
                    ),
                );
            }
        }
    }
}

/// Results: the same inputs and dice must give the same outcome.
///
/// In a side's export (sealed entries: no audit, [`rules_of_play`]) of a game that committed to
/// its ruleset, each shown result's explanation is held to its inputs and dice too, word for
/// word (a forged "Outcome: Pass" under a Fail result is named).
fn results(ck: &mut Checker, events: &[&Event], whole: bool) -> usize {
    let strict = !whole
        && events.first().is_some_and(|e| {
            matches!(
                e.kind,
                EventKind::GameStarted {
                    ruleset_hash: Some(_),
                    ..
                }
            )
        });
    let mut n = 0;
    for e in events {
        let EventKind::Resolved { resolution, .. } = &e.kind else {
            continue;
        };
        n += 1;
        // Held to the tables in force when it was made.
        let ruleset = ck.in_force.at(e.seq);
        let Some(p) = ruleset.procedure(&resolution.procedure) else {
            ck.problem(
                e.seq,
                format!("procedure {} is not in the ruleset", resolution.procedure),
            );
            continue;
        };
        let faces: Vec<String> = resolution
            .rolls
            .iter()
            .flat_map(|r| r.dice.iter().map(|d| d.face.to_string()))
            .collect();
        let chart = resolution
            .outcome
            .from_physical_chart
            .then_some(resolution.outcome.code.as_str());
        let dice = DiceSource::Physical {
            faces,
            entered_by: None,
        };
        match resolve(ruleset, p, &resolution.inputs, dice, chart) {
            Ok(again)
                if again.outcome.code == resolution.outcome.code
                    && again.outcome.value == resolution.outcome.value =>
            {
                // A chart code the umpire confirmed carries a line the resolver does not make.
                if strict
                    && !resolution.outcome.chart_confirmed
                    && let Some(text) = super::audit::resolution_mismatch(&again, resolution)
                {
                    ck.problem(e.seq, text);
                }
            }
            Ok(again) => ck.problem(
                e.seq,
                format!(
                    "{} gives {} with these inputs and dice, the journal says {}",
                    p.name, again.outcome.code, resolution.outcome.code
                ),
            ),
            Err(err) => ck.problem(e.seq, format!("cannot be re-resolved: {err}")),
        }
    }
    n
}

/// Places and references: turns and steps the scenario has; undo, redo, effects and overrides
/// naming earlier entries of the right kind.
fn shape(ck: &mut Checker, events: &[&Event], all_open: bool) {
    let turns = ck.cx.scenario.turns.max(1);
    let steps = ck.cx.steps.len().max(1);
    let kinds: BTreeMap<u64, &EventKind> = events.iter().map(|e| (e.seq, &e.kind)).collect();
    for e in events {
        if e.cursor.turn == 0 || e.cursor.turn > turns {
            ck.problem(
                e.seq,
                format!("turn {} of a {turns}-turn scenario", e.cursor.turn),
            );
        }
        if e.cursor.step >= steps {
            ck.problem(
                e.seq,
                format!("step {} of a {steps}-step turn", e.cursor.step + 1),
            );
        }
        let (target, resolution) = match &e.kind {
            EventKind::EffectsApplied { of, .. } | EventKind::Overridden { of, .. } => (*of, true),
            EventKind::Undone { event } | EventKind::Redone { event } => (*event, false),
            EventKind::GameStarted { .. } if e.seq != 1 => {
                ck.problem(e.seq, "a second start of the game".into());
                continue;
            }
            _ => continue,
        };
        if target >= e.seq {
            ck.problem(
                e.seq,
                format!("it names entry {target}, which comes after it"),
            );
            continue;
        }
        match kinds.get(&target) {
            Some(EventKind::Resolved { .. }) => {}
            Some(k) if resolution => ck.problem(
                e.seq,
                format!(
                    "it names entry {target}, a {}, not a resolution",
                    k.name().replace('_', " ")
                ),
            ),
            Some(k) if !k.is_undoable() && !matches!(k, EventKind::Undone { .. }) => ck.problem(
                e.seq,
                format!(
                    "it undoes entry {target}, a {}, which cannot be undone",
                    k.name().replace('_', " ")
                ),
            ),
            // A sealed entry (a side's export): its kind is not known here.
            None if !all_open => {}
            None => ck.problem(
                e.seq,
                format!("it names entry {target}, which does not exist"),
            ),
            _ => {}
        }
    }
}

/// The head: against the one the store recorded, and the one the verifier noted.
fn heads(ck: &mut Checker, lines: &[Line], head: &Head) {
    if let Some(recorded) = &ck.cx.recorded
        && recorded != head
    {
        if recorded.entries > head.entries {
            ck.problem(
                head.entries + 1,
                format!(
                    "missing: the journal ends at entry {}, but {} entries were recorded — entries were cut off the end, or an older copy was put back",
                    head.entries, recorded.entries
                ),
            );
        } else {
            ck.problem(
                head.entries,
                format!(
                    "the journal's head is not the one recorded with its last entry ({}): it was rewritten",
                    recorded.token()
                ),
            );
        }
    }
    let Some(expected) = ck.cx.expected else {
        return;
    };
    if expected.entries > head.entries {
        ck.problem(
            head.entries + 1,
            format!(
                "missing: the journal has {} entries; the head you hold ({}) says it had {} — entries were cut off, or the journal was replaced",
                head.entries,
                expected.token(),
                expected.entries
            ),
        );
        return;
    }
    let Some(line) = lines.get(expected.entries.saturating_sub(1) as usize) else {
        return;
    };
    let hash = if expected.entries == 0 {
        head.hash.as_str()
    } else {
        line.hash()
    };
    if !hash.starts_with(&expected.hash) {
        ck.problem(
            expected.entries,
            format!(
                "its hash is {hash}, the head you hold says {}: the journal was rewritten up to here",
                expected.hash
            ),
        );
    }
}

/// Every entry held to the rules of play ([`super::audit`]): the first one play would not have
/// made. Only for a whole journal (a sealed entry hides what the game was when the next came).
fn rules_of_play(ck: &mut Checker, events: &[&Event], seed: Option<u64>) {
    let public = ck.cx.public;
    let meta = GameMeta {
        ruleset: public.ruleset.clone(),
        scenario: public.scenario.clone(),
        scenario_file: public.scenario_file.clone(),
        scenario_text: public.scenario_text.clone(),
        seed,
        salt: ck.cx.held_seed.as_ref().map(|(_, salt)| salt.clone()),
        seed_commitment: public.seed_commitment.clone(),
        seed_public: public.seed.is_some(),
        created_by: public.created_by.clone(),
    };
    let events: Vec<Event> = events.iter().map(|e| (*e).clone()).collect();
    let rules = super::audit::Rules {
        ruleset: ck.cx.ruleset,
        scenario: ck.cx.scenario,
        steps: ck.cx.steps,
        meta: &meta,
        shared: ck.cx.shared,
    };
    if let Some(p) = super::audit::audit(&rules, &events) {
        ck.problems.push(p);
    }
}

/// The hash of a ruleset's content, as the game's first entry commits to it
/// ([`Ruleset::content`]): its files as read (the tables an umpire transcribed over the shipped
/// ones included) and the option each ruling is set to — over the files, not the ruleset as
/// loaded, so an Umpire whose ruleset model changed still finds the same files the same.
pub fn ruleset_hash(ruleset: &Ruleset) -> String {
    ruleset.content()
}

/// The hash of a scenario's content as the game's first entry commits to it: SHA-256 of the
/// scenario's text exactly as the game keeps it (the text is the scenario: the game stores it
/// whole, and the chain's genesis covers the same bytes).
pub fn scenario_hash(text: &str) -> String {
    super::journal::sha256_hex(text.as_bytes())
}

/// The ruleset and scenario against the contents the game began with (its first entry).
fn content(ck: &mut Checker, events: &[&Event]) {
    let Some(EventKind::GameStarted {
        ruleset_hash: ruleset_at_start,
        scenario_hash: scenario_at_start,
        ..
    }) = events.first().filter(|e| e.seq == 1).map(|e| &e.kind)
    else {
        return;
    };
    let Some(at_start) = ruleset_at_start else {
        ck.notes.push(format!(
            "this game began before Umpire committed to the ruleset's content (by {}): the ruleset given ({}) cannot be checked against the one it began with",
            ck.cx.public.created_by, ck.cx.ruleset.name
        ));
        return;
    };
    if *at_start != ruleset_hash(ck.in_force.start()) {
        ck.problem(
            1,
            format!(
                "the ruleset given is not the one this game began with: {} ({}) differs from the ruleset the game committed to at its start (begun by {}) — a table transcribed since the game began but not recorded in it (record it: `umpire game transcribe`), a changed copy of the tables, or an Umpire that reads them differently",
                ck.cx.ruleset.name, ck.cx.ruleset.id, ck.cx.public.created_by
            ),
        );
    }
    if let Some(at_start) = scenario_at_start
        && *at_start != scenario_hash(&ck.cx.public.scenario_text)
    {
        ck.problem(
            1,
            "the scenario given is not the one this game began with: its text differs from the one the game committed to at its start".into(),
        );
    }
}

/// After the reveal, anyone can work out every roll: app-dice entries made before the reveal are
/// held only by a head a player noted after it (else entries with app dice could have been
/// slipped in before the reveal, made to look right with the now-known seed). Named as a note,
/// so the player knows which head to keep.
fn revealed_rolls(ck: &mut Checker, events: &[&Event]) {
    let Some(revealed) = events.iter().find_map(|e| match e.kind {
        EventKind::SeedRevealed { .. } => Some(e.seq),
        _ => None,
    }) else {
        return;
    };
    let Some((first, last)) = app_entries_before(events, revealed) else {
        return;
    };
    if ck.cx.expected.is_some_and(|h| h.entries >= revealed) {
        return;
    }
    ck.notes.push(app_dice_words(first, last, revealed));
}

/// The first and last entries with app dice or app draws before entry `revealed`.
pub fn app_entries_before(events: &[&Event], revealed: u64) -> Option<(u64, u64)> {
    let app = |e: &&&Event| {
        e.seq < revealed
            && match &e.kind {
                EventKind::Resolved { resolution, .. } => resolution
                    .rolls
                    .iter()
                    .any(|r| matches!(r.provenance, Provenance::App { .. })),
                EventKind::Deck {
                    change: super::deck::DeckChange::Drawn { provenance, .. },
                    ..
                } => matches!(provenance, Provenance::App { .. }),
                _ => false,
            }
    };
    let first = events.iter().find(app)?.seq;
    let last = events.iter().rev().find(app)?.seq;
    Some((first, last))
}

/// "entries 12–40 were made with app dice before the seed was revealed; …".
pub fn app_dice_words(first: u64, last: u64, revealed: u64) -> String {
    let which = if first == last {
        format!("entry {first} was")
    } else {
        format!("entries {first}–{last} were")
    };
    format!(
        "{which} made with app dice before the seed was revealed (entry {revealed}); keep a head noted after the reveal to hold them (anyone who knows the seed could write such entries)"
    )
}

impl Game {
    /// Once the seed is revealed: the entries made with app dice before the reveal, in a
    /// sentence telling a player to keep a head noted after the reveal (a report printed now
    /// prints one). None before the reveal, or with no app dice before it.
    pub fn app_dice_before_reveal(&self) -> Option<String> {
        let revealed = self.state().seed_revealed?;
        let events: Vec<&Event> = self.events().iter().collect();
        let (first, last) = app_entries_before(&events, revealed)?;
        Some(app_dice_words(first, last, revealed))
    }

    /// Verifies this game's journal as its umpire (who holds the seed): see [`verify_lines`].
    /// `expected`: a head noted earlier from a report, to hold the journal to.
    pub fn verify(&mut self, expected: Option<&Head>) -> Result<Verification, GameError> {
        let public = self.public_meta();
        let meta = self.meta().clone();
        let recorded = self.journal_mut().recorded_head()?;
        let head_missing = self.journal_mut().head_row_missing()?;
        let lines: Vec<Line> = self.read_entries()?.into_iter().map(Line::Open).collect();
        let cx = Context {
            ruleset: self.ruleset(),
            scenario: self.scenario(),
            steps: self.steps(),
            public: &public,
            held_seed: meta.seed.zip(meta.salt.clone()),
            expected,
            recorded,
            shared: self.is_shared(),
        };
        let mut v = verify_lines(&cx, &lines);
        if head_missing {
            v.problems.insert(
                0,
                Problem {
                    entry: 0,
                    text: "the game file's recorded head is missing: every append records it, so it was deleted — entries cut off the end could not be told; hold the journal to a head you noted (--head)".into(),
                },
            );
        }
        Ok(v)
    }
}
