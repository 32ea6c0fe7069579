//! Why an action was refused, typed: each refusal carries what its message needs, and the
//! message is written once, here. Nothing is written to the journal when an action is refused.

use thiserror::Error;

use super::journal::error::StoreError;
use crate::resolve::ResolveError;

/// Everything that can stop an action or a game from opening.
#[derive(Debug, Error)]
pub enum GameError {
    /// Where the journal is kept (the game file or the server).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The action does not fit the game, the rules or the actor's remit.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The game cannot be set up from what it started from.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// Why a game cannot be started or opened.
#[derive(Debug, Error)]
pub enum SetupError {
    /// The scenario does not load (as given, or as stored in the game).
    #[error("{0}")]
    Scenario(String),
    /// The ruleset the game needs is not loaded.
    #[error("{what} needs ruleset {ruleset}, which is not loaded")]
    RulesetMissing {
        /// The scenario or game.
        what: String,
        /// The ruleset id.
        ruleset: String,
    },
    /// The journal does not begin with the game's start.
    #[error("{location}: the journal does not begin with the game's start")]
    NoStart {
        /// The game.
        location: String,
    },
    /// A location that is not a server, where one is needed.
    #[error("{0} is not a server URL — give postgres://user@host/database?game=NAME")]
    NotAServer(String),
}

impl From<ResolveError> for GameError {
    fn from(e: ResolveError) -> Self {
        GameError::Refused(Refusal::Resolve(e))
    }
}

/// A value range's end for messages ("…" when open).
impl Refusal {
    /// Whether this is a change taken below its floor (a treasury below 0), which goes ahead
    /// at the umpire's word with a reason.
    pub fn below_floor(&self) -> bool {
        matches!(self, Refusal::AdjustOutOfRange { after, min: Some(m), .. } if after < m)
    }
}

fn bound(b: Option<i64>) -> String {
    b.map_or("…".into(), |m| m.to_string())
}

fn or_nothing(list: &[String]) -> String {
    if list.is_empty() {
        "nothing".into()
    } else {
        list.join(", ")
    }
}

/// Why an action was refused.
#[derive(Debug, Error)]
pub enum Refusal {
    /// The resolver refused the inputs or dice.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    /// No such counter.
    #[error("no counter '{counter}' in this game — {}", if close.is_empty() { "see `umpire game status` for the counters".to_string() } else { format!("did you mean: {}", close.join(", ")) })]
    NoCounter {
        /// What was asked for.
        counter: String,
        /// Counters with a similar id.
        close: Vec<String>,
    },
    /// A name two or more counters share.
    #[error("'{counter}' names more than one counter — give one of: {}", matches.join(", "))]
    AmbiguousCounter {
        /// What was asked for.
        counter: String,
        /// The counters of that name, "name" (id).
        matches: Vec<String>,
    },
    /// A chart result the text does not name, not confirmed as printed on the umpire's chart.
    #[error("'{code}' is not a result the text gives for {chart}{} — if your chart prints it, confirm it (`--chart-prints {code}` on the command line, \"My chart prints …\" at the desk)", if codes.is_empty() { " (the text names none)".to_string() } else { format!(" (it gives: {})", codes.join(", ")) })]
    UndeclaredChartCode {
        /// As typed.
        code: String,
        /// The chart's title.
        chart: String,
        /// The codes the text gives.
        codes: Vec<String>,
    },
    /// A set of a value another desk changed after the umpire saw it.
    #[error("{} set {counter}'s {attribute} to {now}{}{} (you saw {saw}) — set it to {to} anyway? Press Set again at the desk, or give `--was {now}` on the command line", by.as_deref().unwrap_or("another desk"), at.as_ref().map_or_else(String::new, |t| format!(" at {t}")), entry.map_or_else(String::new, |n| format!(", entry {n}")))]
    ChangedSince {
        /// The counter's name.
        counter: String,
        /// The attribute.
        attribute: String,
        /// What the umpire saw.
        saw: String,
        /// What it is now.
        now: String,
        /// What the umpire wanted to set.
        to: String,
        /// Who changed it last, if the journal names them.
        by: Option<String>,
        /// The entry that changed it last.
        entry: Option<u64>,
        /// When (the desk's local time, HH:MM).
        at: Option<String>,
    },
    /// A hex id of the wrong shape.
    #[error("'{hex}' is not a hex id of this map — hex ids have {digits} digits, e.g. \"0114\"")]
    NotAHex {
        /// As typed.
        hex: String,
        /// Digits a hex id has.
        digits: usize,
    },
    /// A hex on a game without a hex map.
    #[error("this game has no hex map ({geometry} geometry)")]
    NoHexMap {
        /// The game's geometry.
        geometry: String,
    },
    /// A position outside the map's extent (as the ruleset gives it).
    #[error("{position} is off the map — {extent}")]
    OffTheMap {
        /// The position, in words ("hex 9999", "x 1000000000, y 1000000000").
        position: String,
        /// How far the map runs, in words.
        extent: String,
    },
    /// A position of a form the game's map does not have: x, y on a hex or area map, an area
    /// on a hex map or a free-form table.
    #[error("{position} is not a place on this game's map — {hint}")]
    NotThisMapsForm {
        /// The position, in words.
        position: String,
        /// The form the map's places have, and an example.
        hint: String,
    },
    /// No place typed.
    #[error("type where to: a hex id, an area, or x, y")]
    NoPlace,
    /// Not two numbers on a free-form table.
    #[error("'{text}': type two numbers, x, y, in base units")]
    FreeNeedsNumbers {
        /// As typed.
        text: String,
    },
    /// An area with no name.
    #[error("an area needs a name")]
    EmptyArea,
    /// A free-form position that is not two numbers.
    #[error("a free-form position needs two numbers")]
    BadFreePosition,
    /// No such attribute on this kind of counter.
    #[error("{counter} has no attribute '{attribute}' — attributes: {}", names.join(", "))]
    NoAttribute {
        /// The counter (its name).
        counter: String,
        /// What was asked for.
        attribute: String,
        /// The attributes it has.
        names: Vec<String>,
    },
    /// A whole number was needed.
    #[error("{attribute} is a whole number, not '{text}'")]
    NotAWholeNumber {
        /// The attribute.
        attribute: String,
        /// As typed.
        text: String,
    },
    /// Outside the attribute's range.
    #[error("{attribute} must be from {} to {}, not {value}", bound(*min), bound(*max))]
    OutOfRange {
        /// The attribute.
        attribute: String,
        /// The value given.
        value: i64,
        /// Lowest allowed.
        min: Option<i64>,
        /// Highest allowed.
        max: Option<i64>,
    },
    /// Not one of the attribute's choices.
    #[error("{attribute} must be one of {}, not '{text}'", choices.join(", "))]
    NotAChoice {
        /// The attribute.
        attribute: String,
        /// As typed.
        text: String,
        /// The choices.
        choices: Vec<String>,
    },
    /// A delta on an attribute that is not a whole number.
    #[error(
        "{counter}'s {attribute} is not a number: it cannot be adjusted by a delta — set it with `game set`"
    )]
    NotAdjustable {
        /// The counter.
        counter: String,
        /// The attribute.
        attribute: String,
    },
    /// A delta on an attribute this kind of counter does not have.
    #[error("{counter} has no attribute '{attribute}' — whole-number attributes: {}", names.join(", "))]
    NoWholeNumberAttribute {
        /// The counter.
        counter: String,
        /// What was asked for.
        attribute: String,
        /// Its whole-number attributes.
        names: Vec<String>,
    },
    /// A delta on an attribute whose value is not a number.
    #[error("{counter}'s {attribute} is '{value}', not a number: it cannot be adjusted by a delta")]
    ValueNotANumber {
        /// The counter.
        counter: String,
        /// The attribute.
        attribute: String,
        /// Its value.
        value: String,
    },
    /// A delta whose result passes the whole numbers Umpire keeps: refused, never saturated.
    #[error(
        "{counter}'s {attribute} is {now}; adding {by} would pass the largest whole number Umpire keeps (±9,223,372,036,854,775,807) — nothing was changed; adjust by a smaller amount"
    )]
    AdjustOverflow {
        /// The counter.
        counter: String,
        /// The attribute.
        attribute: String,
        /// Its value now.
        now: i64,
        /// The delta (several added up, perhaps past 64 bits).
        by: String,
    },
    /// A delta that takes an attribute out of its range.
    #[error("{counter}'s {attribute} would be {after} ({now} {by:+}), outside {}–{}{}", bound(*min), bound(*max), if min.is_some_and(|m| *after < m) { format!(" — the ruleset keeps it at {} or more{}; to go below anyway, give the reason (`--discretion REASON`, or the desk's Reason field)", bound(*min), rule.as_ref().map_or_else(String::new, |r| format!(" [{r}]"))) } else { String::new() })]
    AdjustOutOfRange {
        /// The counter.
        counter: String,
        /// The attribute.
        attribute: String,
        /// Its value now.
        now: i64,
        /// The delta.
        by: i64,
        /// The value after.
        after: i64,
        /// Lowest allowed.
        min: Option<i64>,
        /// Highest allowed.
        max: Option<i64>,
        /// The rule that bounds it, as the ruleset cites it.
        rule: Option<String>,
    },
    /// No such procedure.
    #[error("no procedure '{procedure}' in {ruleset} — procedures: {}", procedures.join(", "))]
    NoProcedure {
        /// What was asked for.
        procedure: String,
        /// The ruleset.
        ruleset: String,
        /// Its procedures.
        procedures: Vec<String>,
    },
    /// A counter put in a role the procedure does not have: its effects would fall on no one
    /// (a leader killed in battle never marked dead).
    #[error("{procedure} has no role '{role}': put the counter in {}", if roles.len() == 1 { format!("its role '{}'", roles[0]) } else { format!("one of its roles: {}", roles.join(", ")) })]
    NoRole {
        /// The procedure, by name.
        procedure: String,
        /// The role given.
        role: String,
        /// The roles it has.
        roles: Vec<String>,
    },
    /// The entry is not a resolution that stands (not one, or undone).
    #[error("entry {entry} is not a resolution that stands")]
    NotAStandingResolution {
        /// The entry.
        entry: u64,
    },
    /// Effects applied twice.
    #[error("the effects of entry {entry} are already applied (undo that first to change them)")]
    EffectsAlreadyApplied {
        /// The resolution's entry.
        entry: u64,
    },
    /// A reason is needed for the journal.
    #[error("{what} needs a reason, for the journal")]
    ReasonNeeded {
        /// What needs it ("an override", "skipping"…).
        what: &'static str,
    },
    /// Mandatory items still pending.
    #[error("mandatory items are still pending: {} — resolve them, or skip each with a reason", items.join("; "))]
    MandatoryPending {
        /// The items, "number. label" (the number as `game status` shows it).
        items: Vec<String>,
    },
    /// Past the last turn.
    #[error("the scenario ends after turn {turns}")]
    ScenarioEnds {
        /// The scenario's turns.
        turns: u32,
    },
    /// A step the current one does not offer.
    #[error("{}", no_entry_words(step, offered))]
    NoEntry {
        /// The step asked for.
        step: String,
        /// What this step offers, in words.
        offered: Vec<String>,
    },
    /// Back from the first step.
    #[error("this is the first step of the game")]
    FirstStep,
    /// The game has ended: only undo (of the ending, to reopen it), notes, announcements and
    /// the seed's reveal go on.
    #[error(
        "the game is over — {sentence} Undo the ending (`umpire game undo FILE`) to reopen it; `umpire game reveal FILE` shows the dice's seed"
    )]
    GameOver {
        /// The result, in one sentence.
        sentence: String,
    },
    /// A transcription that cannot be recorded: the ruleset has no such table, its file does
    /// not load as the layer loader would load it, or it changes nothing.
    #[error("the {table} cannot be recorded as transcribed: {problem}")]
    Transcription {
        /// The table (its title, or the id given).
        table: String,
        /// What is wrong, with the file's line and column where it has them.
        problem: String,
    },
    /// A place the map does not name.
    #[error("the map names no place '{place}'{}", if close.is_empty() { String::new() } else { format!(" — the places the victory conditions name: {}", close.join(", ")) })]
    NoSuchPlace {
        /// The place given.
        place: String,
        /// The places the game tracks.
        close: Vec<String>,
    },
    /// A victory item the scenario does not have, or one that cannot be declared now.
    #[error("{reason}")]
    NoVictory {
        /// Why, in words.
        reason: String,
    },
    /// No pending item of that key.
    #[error(
        "'{item}' is not pending at this step (done already, or another step's) — pending: {}",
        or_nothing(pending)
    )]
    NothingPending {
        /// The item given (its label when it is one of this step's).
        item: String,
        /// The items pending, "number. label".
        pending: Vec<String>,
    },
    /// An input the counters in its role would give, but an attribute it reads is not known
    /// yet (printed on the counters, not in the rule text): asked for, never counted as 0.
    #[error(
        "{procedure} needs {input}, and the {attribute} of {} is not known yet (it is printed on the counters, not in the rule text) — give it once with `game set` (or `game set-all` for every counter alike), or type {input} yourself",
        counters.join(", ")
    )]
    NotKnownYet {
        /// The procedure's name.
        procedure: String,
        /// The input's label.
        input: String,
        /// The attribute in words.
        attribute: String,
        /// The counters without it, by name.
        counters: Vec<String>,
    },
    /// Values for counters, but no counters named.
    #[error(
        "say which counters: by the name they print (\"French Gendarmes\") or by an attribute they have (unit_type=heavy_cavalry)"
    )]
    NoCountersNamed,
    /// No counter of the game is the one named.
    #[error("no counter of the game is {which}")]
    NoCountersMatch {
        /// The counters named, in words.
        which: String,
    },
    /// Every value given is known already.
    #[error(
        "every counter named holds those values already (a value the text or an earlier entry gives stays)"
    )]
    AlreadyKnown,
    /// A resolution that could answer several sides' (or Forces') items, none named.
    #[error(
        "{procedure} is due here for several: say whose it is with the item it answers ({}), or `none` for a roll made for another reason",
        items.join("; ")
    )]
    WhichItem {
        /// The procedure's name.
        procedure: String,
        /// The items it could answer, "number. label".
        items: Vec<String>,
    },
    /// An item named for a resolution that does not ask for that procedure.
    #[error("{item} is not answered by {procedure}{}", match asks { Some(p) => format!(" (it asks for {p})"), None => String::new() })]
    ItemNotOfProcedure {
        /// The item's label.
        item: String,
        /// The procedure resolved.
        procedure: String,
        /// The procedure the item asks for, if any.
        asks: Option<String>,
    },
    /// Nothing to credit under that name.
    #[error(
        "'{item}' has nothing to credit now (done already, another step's, or its procedure not resolved yet) — items to credit: {}",
        or_nothing(creditable)
    )]
    NothingToCredit {
        /// The item given (its label when it is one of this step's).
        item: String,
        /// The items that can be credited now, "number. label".
        creditable: Vec<String>,
    },
    /// A status with no name.
    #[error("a status needs a name, e.g. disordered")]
    EmptyStatus,
    /// A transfer of nothing or less.
    #[error(
        "a transfer moves a positive amount, not {amount} — swap the two counters to move it the other way"
    )]
    TransferNotPositive {
        /// The amount given.
        amount: i64,
    },
    /// A transfer from a counter to itself.
    #[error("a transfer needs two different counters")]
    TransferToItself,
    /// A change of nothing.
    #[error("no changes given")]
    NoChanges,
    /// A counter added under a name the game already has, or none.
    #[error("a counter needs a name no other counter has ('{name}')")]
    NameTaken {
        /// The name given.
        name: String,
    },
    /// A counter added to a side the scenario does not have.
    #[error("the scenario has no side '{side}' (sides: {sides})")]
    NoSide {
        /// The side given.
        side: String,
        /// The sides it has.
        sides: String,
    },
    /// A stack moved to where it already is.
    #[error("nothing to move: every counter of the stack is there already")]
    AlreadyThere,
    /// Nothing to undo.
    #[error("nothing to undo")]
    NothingToUndo,
    /// Nothing to redo.
    #[error("nothing to redo")]
    NothingToRedo,
    /// A clock action in a game without a clock.
    #[error("{ruleset} has no phase clock (a megagame timetable's clock: section)")]
    NoClock {
        /// The ruleset's name.
        ruleset: String,
    },
    /// A clock start on a turn the clock does not have.
    #[error("the clock has no turn {turn} — turns: {}", turns.join(", "))]
    NoClockTurn {
        /// The turn asked for.
        turn: u32,
        /// The clock's turns.
        turns: Vec<String>,
    },
    /// A clock start on a phase the clock does not have.
    #[error("'{phase}' is not a phase of the clock — phases: {}", phases.join(", "))]
    NoClockPhase {
        /// The phase asked for.
        phase: String,
        /// The clock's phases.
        phases: Vec<String>,
    },
    /// A clock action that does not fit the clock as it stands.
    #[error("{0}")]
    Clock(ClockRefusal),
    /// A step a turn does not have.
    #[error("there is no step {step} in a turn")]
    NoStep {
        /// The step (1-based).
        step: usize,
    },
    /// An announcement with no text.
    #[error("an announcement needs a text")]
    EmptyAnnouncement,
    /// A team announcement with no team.
    #[error("a team announcement needs the team (--team ID)")]
    TeamNeeded,
    /// App dice without the seed (revealed, or a copy imported without it).
    #[error("{0}")]
    NoAppDice(NoAppDice),
    /// A deck or cup action that cannot be done, in a sentence naming what is there.
    #[error("{0}")]
    Deck(String),
    /// A record Control keeps (a chart, a register, a vote, a bank's access) that cannot be
    /// made, in a sentence with the rule.
    #[error("{0}")]
    Record(String),
    /// Sealed orders that cannot be handed in or revealed (late, not due, not the side's),
    /// in a sentence with the rule and, for a late order, the rules' consequence.
    #[error("{0}")]
    Orders(String),
    /// The seed was revealed already.
    #[error("the seed was already revealed (entry {entry})")]
    AlreadyRevealed {
        /// The entry that revealed it.
        entry: u64,
    },
    /// Outside the actor's remit.
    #[error(
        "{who} may not touch {what}: {why} ({rule}) — ask the umpire whose remit it is, or Game Control"
    )]
    OutsideRemit {
        /// Who acted.
        who: String,
        /// The counter (and attribute).
        what: String,
        /// Why not.
        why: String,
        /// The rule.
        rule: String,
    },
    /// An action over the whole game that is another role's (stepping the Sequence of Play,
    /// revealing the seed, a public announcement, overriding another umpire's result).
    #[error("{who} may not {what}: {why} ({rule}) — ask {whose}")]
    NotYourAction {
        /// Who acted.
        who: String,
        /// What, in words ("step the Sequence of Play").
        what: String,
        /// Why not.
        why: String,
        /// The rule.
        rule: String,
        /// Who may ("Game Control").
        whose: String,
    },
    /// An override with a code the procedure never gives.
    #[error("'{code}' is not a result of {procedure} — its results are {}", codes.join(", "))]
    NotAResultOf {
        /// The code given.
        code: String,
        /// The procedure's name.
        procedure: String,
        /// The codes it gives.
        codes: Vec<String>,
    },
    /// The phase clock is worked by another role.
    #[error("{who} may not work the phase clock: {why} ({rule})")]
    ClockNotYours {
        /// Who acted.
        who: String,
        /// Whose it is.
        why: String,
        /// The rule.
        rule: String,
    },
    /// At Control's discretion, but no reason given.
    #[error("{who} may do this only at Control's discretion, with a reason: {} — give one (--discretion REASON, or the desk's Reason field)", items.join("; "))]
    DiscretionNeedsReason {
        /// Who acted.
        who: String,
        /// What rests on discretion, with the rule.
        items: Vec<String>,
    },
    /// Other desks kept winning the race for the journal.
    #[error("{location}: other desks kept writing; the action was not recorded — try again")]
    Busy {
        /// The game.
        location: String,
    },
    /// The link is down and the action may not wait in the offline queue.
    #[error("{cause}\nWorking offline: not recorded — {why}.")]
    NotOffline {
        /// Why the server could not be reached.
        cause: Box<StoreError>,
        /// Why this action may not be queued.
        why: String,
    },
    /// No held offline action of that number.
    #[error("no held action {index} — {held} held")]
    NoHeldAction {
        /// The number given.
        index: usize,
        /// How many are held.
        held: usize,
    },
    /// Signed in as someone the server does not know this login as.
    #[error("{0}")]
    Identity(String),
}

/// A clock action that does not fit the clock as it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ClockRefusal {
    /// Not started.
    #[error("the clock has not started — start it first")]
    NotStarted,
    /// Hold while held.
    #[error("the clock is already held")]
    AlreadyHeld,
    /// Resume while running.
    #[error("the clock is running, not held")]
    NotHeld,
    /// Past the last turn.
    #[error("the clock has run through its last turn")]
    Finished,
}

/// Why the app cannot roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum NoAppDice {
    /// The seed was revealed: the next rolls are known to everyone.
    #[error(
        "the app dice's seed was revealed (entry {entry}): anyone can work out the next rolls — roll physical dice and type them in"
    )]
    Revealed {
        /// The entry that revealed it.
        entry: u64,
    },
    /// This copy of the game does not hold the seed.
    #[error(
        "this copy of the game does not hold the app dice's seed (it was imported without it) — roll physical dice and type them in"
    )]
    Withheld,
}

fn no_entry_words(step: &str, offered: &[String]) -> String {
    if offered.is_empty() {
        format!("this step offers no step to go to ('{step}' asked for)")
    } else {
        format!(
            "this step does not offer '{step}' — it offers: {}",
            offered.join("; ")
        )
    }
}
