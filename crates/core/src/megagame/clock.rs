//! The real-time phase clock of a megagame (rr3 L214–226).
//!
//! The schedule is data: a timetable table's `clock:` section names the Sequence-of-Play steps
//! that are the clock's phases and how long each lasts in each turn ([`crate::rules::Clock`]).
//! The umpire's clock actions (start, hold, resume, advance, set remaining) are journal events
//! carrying their wall-clock time, and [`clock_status`] folds them with `now` into the clock as
//! it stands — a pure function, so a crashed desk or a second desk reading the same journal shows
//! the same clock. [`tick`] then moves the Sequence of Play to the first step of the clock's
//! phase when time has run out; it only ever moves forward, so ticking twice (or from two desks)
//! steps once.

use chrono::{DateTime, TimeDelta, Utc};
use serde::Serialize;

use crate::game::event::{ClockAction, Cursor, Event, EventKind};
use crate::game::refusal::ClockRefusal;
use crate::game::{Action, Actor, Game, GameError, Refusal};
use crate::rules::{Clock, Ruleset, Step};

/// The clock as it stands at a moment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClockStatus {
    /// Whether the umpire has started it.
    pub started: bool,
    /// Whether the last phase of the last turn has run out.
    pub finished: bool,
    /// Whether it is held (not counting down).
    pub held: bool,
    /// Game turn.
    pub turn: u32,
    /// The phase, from 0, in the order of the clock's phases.
    pub phase: usize,
    /// How many phases a turn has.
    pub phases: usize,
    /// The phase's Sequence-of-Play step id.
    pub phase_id: String,
    /// The phase's name in the Sequence of Play.
    pub phase_name: String,
    /// Time left in the phase, in whole seconds (rounded up while running).
    pub remaining_seconds: i64,
    /// The phase's full length, in seconds.
    pub phase_seconds: u32,
    /// Whether the phase ends within the warning window.
    pub warning: bool,
    /// The warning window, in seconds.
    pub warning_seconds: u32,
    /// The turn's game years ("1524 - 1528").
    pub years: Option<String>,
    /// The phase's end on the printed timetable ("10:25"), if the timetable gives one.
    pub scheduled_end: Option<String>,
    /// When the phase will end at this rate (running only).
    pub ends_at: Option<DateTime<Utc>>,
}

impl ClockStatus {
    /// The countdown as `mm:ss` (minutes may pass 59).
    pub fn countdown(&self) -> String {
        let s = self.remaining_seconds.max(0);
        format!("{:02}:{:02}", s / 60, s % 60)
    }

    /// "Turn 1 (1524 - 1528) · Phase 2/6".
    pub fn headline(&self) -> String {
        format!(
            "Turn {}{} · Phase {}/{}",
            self.turn,
            self.years
                .as_ref()
                .map_or_else(String::new, |y| format!(" ({y})")),
            self.phase + 1,
            self.phases
        )
    }
}

/// The running fold.
struct Run<'a> {
    clock: &'a Clock,
    started: bool,
    finished: bool,
    held: bool,
    turn: u32,
    phase: usize,
    /// Time left at `since`.
    remaining: TimeDelta,
    since: DateTime<Utc>,
}

fn seconds(s: u32) -> TimeDelta {
    TimeDelta::seconds(i64::from(s))
}

impl Run<'_> {
    fn length(&self, turn: u32, phase: usize) -> Option<TimeDelta> {
        self.clock
            .turn(turn)
            .and_then(|t| t.phase_seconds.get(phase))
            .map(|s| seconds(*s))
    }

    /// On to the next phase (or the next turn's first), with its full time.
    fn next_phase(&mut self) {
        if self.phase + 1 < self.clock.phases.len() {
            self.phase += 1;
        } else {
            self.turn += 1;
            self.phase = 0;
        }
        match self.length(self.turn, self.phase) {
            Some(len) => self.remaining = len,
            None => {
                self.finished = true;
                self.remaining = TimeDelta::zero();
            }
        }
    }

    /// Lets the clock run up to `to`: phases whose time runs out end, one after another.
    fn run_to(&mut self, to: DateTime<Utc>) {
        if !self.started || self.finished || self.held {
            self.since = self.since.max(to);
            return;
        }
        // A clock on another desk may be a little behind: time never runs backwards.
        let mut elapsed = (to - self.since).max(TimeDelta::zero());
        while !self.finished && elapsed >= self.remaining {
            elapsed -= self.remaining;
            self.next_phase();
        }
        if !self.finished {
            self.remaining -= elapsed;
        }
        self.since = self.since.max(to);
    }

    fn apply(&mut self, action: &ClockAction, at: DateTime<Utc>) {
        self.run_to(at);
        match action {
            ClockAction::Start { turn, phase } => {
                let Some(index) = self.clock.phases.iter().position(|p| p == phase) else {
                    return;
                };
                let Some(len) = self.length(*turn, index) else {
                    return;
                };
                self.started = true;
                self.finished = false;
                self.held = false;
                self.turn = *turn;
                self.phase = index;
                self.remaining = len;
                self.since = at;
            }
            ClockAction::Hold if self.started => self.held = true,
            ClockAction::Resume if self.started => {
                self.held = false;
                self.since = at;
            }
            ClockAction::Advance if self.started && !self.finished => {
                self.next_phase();
                self.since = at;
            }
            ClockAction::SetRemaining { seconds: s } if self.started && !self.finished => {
                self.remaining = seconds(*s);
                self.since = at;
            }
            _ => {}
        }
    }
}

/// The name of a Sequence-of-Play step, by id.
fn step_name<'a>(steps: &'a [Step], id: &str) -> Option<&'a str> {
    for s in steps {
        if s.id == id {
            return Some(&s.name);
        }
        if let Some(n) = step_name(&s.steps, id) {
            return Some(n);
        }
    }
    None
}

/// Folds the journal's clock events up to `now`: the clock as it stands then. None when the
/// ruleset has no phase clock.
pub fn clock_status(
    ruleset: &Ruleset,
    events: &[Event],
    now: DateTime<Utc>,
) -> Option<ClockStatus> {
    let clock = ruleset.clock()?;
    let first = clock.turns.iter().min_by_key(|t| t.turn)?;
    let mut run = Run {
        clock,
        started: false,
        finished: false,
        held: false,
        turn: first.turn,
        phase: 0,
        remaining: first
            .phase_seconds
            .first()
            .map_or(TimeDelta::zero(), |s| seconds(*s)),
        since: events.first().map_or(now, |e| e.at),
    };
    // The clock at `now`: what was done after it (on a desk whose clock runs ahead, or in a
    // look back) does not count yet.
    for e in events.iter().filter(|e| e.at <= now) {
        if let EventKind::Clock { action } = &e.kind {
            run.apply(action, e.at);
        }
    }
    run.run_to(now);
    let turn = clock.turn(run.turn);
    let phase_id = clock.phases.get(run.phase).cloned().unwrap_or_default();
    let ms = run.remaining.num_milliseconds().max(0);
    // A running countdown shows 00:01 until the last second is gone.
    let remaining_seconds = if run.started && !run.held {
        (ms + 999) / 1000
    } else {
        ms / 1000
    };
    Some(ClockStatus {
        started: run.started,
        finished: run.finished,
        held: run.held,
        turn: run.turn,
        phase: run.phase,
        phases: clock.phases.len(),
        phase_name: step_name(&ruleset.sequence_of_play, &phase_id)
            .unwrap_or(&phase_id)
            .to_string(),
        phase_id,
        remaining_seconds,
        phase_seconds: turn
            .and_then(|t| t.phase_seconds.get(run.phase).copied())
            .unwrap_or(0),
        warning: run.started
            && !run.finished
            && remaining_seconds <= i64::from(clock.warning_seconds),
        warning_seconds: clock.warning_seconds,
        years: turn.and_then(|t| t.years.clone()),
        scheduled_end: turn.and_then(|t| t.phase_ends.get(run.phase).cloned()),
        ends_at: (run.started && !run.held && !run.finished).then(|| now + run.remaining),
    })
}

/// The leaf steps under a Sequence-of-Play step: (index of its first leaf, how many leaves),
/// counted as [`crate::game::sequence::leaf_steps`] counts them.
fn leaf_span(steps: &[Step], id: &str) -> Option<(usize, usize)> {
    fn leaves(s: &Step) -> usize {
        if s.steps.is_empty() {
            1
        } else {
            s.steps.iter().map(leaves).sum()
        }
    }
    fn walk(steps: &[Step], id: &str, before: &mut usize) -> Option<(usize, usize)> {
        for s in steps {
            if s.id == id {
                return Some((*before, leaves(s)));
            }
            if s.steps.is_empty() {
                *before += 1;
            } else if let Some(found) = walk(&s.steps, id, before) {
                return Some(found);
            }
        }
        None
    }
    walk(steps, id, &mut 0)
}

/// Where a clock phase begins in the Sequence of Play: its first leaf step in that turn.
pub fn phase_cursor(ruleset: &Ruleset, turn: u32, phase: usize) -> Option<Cursor> {
    let id = ruleset.clock()?.phases.get(phase)?;
    let (step, _) = leaf_span(&ruleset.sequence_of_play, id)?;
    Some(Cursor { turn, step })
}

/// The clock phase a leaf step belongs to, if any.
pub fn phase_of_step(ruleset: &Ruleset, step: usize) -> Option<usize> {
    ruleset.clock()?.phases.iter().position(|id| {
        leaf_span(&ruleset.sequence_of_play, id)
            .is_some_and(|(first, n)| step >= first && step < first + n)
    })
}

/// Where the Sequence of Play should be at least, by the clock: the first step of the clock's
/// phase. None when the clock is not running on, or the Sequence of Play is already there.
pub fn tick_target(ruleset: &Ruleset, status: &ClockStatus, cursor: &Cursor) -> Option<Cursor> {
    if !status.started || status.finished {
        return None;
    }
    let to = phase_cursor(ruleset, status.turn, status.phase)?;
    (*cursor < to).then_some(to)
}

/// Records a clock action, checked against the clock as it stands (a hold while held, or a
/// resume while running, is refused). Returns the entries written.
pub fn act_clock(
    game: &mut Game,
    actor: &Actor,
    action: ClockAction,
) -> Result<Vec<u64>, GameError> {
    let now = Utc::now();
    let Some(status) = clock_status(game.ruleset(), game.events(), now) else {
        return Err(Refusal::NoClock {
            ruleset: game.ruleset().name.clone(),
        }
        .into());
    };
    let refuse = |why: ClockRefusal| Err(Refusal::Clock(why).into());
    match &action {
        ClockAction::Start { .. } => {}
        _ if !status.started => return refuse(ClockRefusal::NotStarted),
        ClockAction::Hold if status.held => return refuse(ClockRefusal::AlreadyHeld),
        ClockAction::Resume if !status.held => return refuse(ClockRefusal::NotHeld),
        ClockAction::Advance | ClockAction::SetRemaining { .. } if status.finished => {
            return refuse(ClockRefusal::Finished);
        }
        _ => {}
    }
    let mut seqs = game.act(actor, Action::Clock(action))?;
    seqs.extend(tick(game, actor, Utc::now())?);
    Ok(seqs)
}

/// The start the umpire most likely means: the phase the Sequence of Play is in (or the turn's
/// first phase).
pub fn default_start(game: &Game) -> Option<ClockAction> {
    let clock = game.ruleset().clock()?;
    let cursor = &game.state().cursor;
    let phase = phase_of_step(game.ruleset(), cursor.step).unwrap_or(0);
    let turn = if clock.turn(cursor.turn).is_some() {
        cursor.turn
    } else {
        clock.turns.first()?.turn
    };
    Some(ClockAction::Start {
        turn,
        phase: clock.phases.get(phase)?.clone(),
    })
}

/// Moves the Sequence of Play to the clock's phase when the clock has moved on (a Stepped
/// event, written as by "clock"). Idempotent: nothing is written when the Sequence of Play is
/// already in that phase or beyond. Returns the entries written.
pub fn tick(game: &mut Game, actor: &Actor, now: DateTime<Utc>) -> Result<Vec<u64>, GameError> {
    let Some(status) = clock_status(game.ruleset(), game.events(), now) else {
        return Ok(Vec::new());
    };
    let Some(to) = tick_target(game.ruleset(), &status, &game.state().cursor) else {
        return Ok(Vec::new());
    };
    if to.turn > game.scenario().turns.max(1) {
        return Ok(Vec::new());
    }
    let by = match &actor.by {
        Some(b) => format!("clock ({b})"),
        None => "clock".to_string(),
    };
    game.act(&actor.as_by(by), Action::ClockStep { to })
}

/// What a Control server needs to know of the clock to judge a clock step itself
/// (`umpire_clock_at` in `scripts/control-server.sql` folds the clock entries as
/// [`clock_status`] does): the phases' first leaf steps and every turn's phase lengths.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServerClock {
    /// The phases' Sequence-of-Play step ids, in order.
    pub phases: Vec<String>,
    /// Each phase's first leaf step (its index among the leaf steps), in the same order.
    pub first_steps: Vec<usize>,
    /// Each turn's phase lengths, in seconds.
    pub turns: Vec<ServerClockTurn>,
    /// The scenario's last turn: the clock never steps the game past it.
    pub last_turn: u32,
}

/// One turn of a [`ServerClock`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServerClockTurn {
    /// Game turn.
    pub turn: u32,
    /// Each phase's length, in seconds.
    pub seconds: Vec<u32>,
}

/// The clock as a Control server is told it when the game is created; None without a clock
/// (or when a phase is not a step of the Sequence of Play).
pub fn server_clock(ruleset: &Ruleset, last_turn: u32) -> Option<ServerClock> {
    let clock = ruleset.clock()?;
    let first_steps = clock
        .phases
        .iter()
        .map(|id| leaf_span(&ruleset.sequence_of_play, id).map(|(first, _)| first))
        .collect::<Option<Vec<usize>>>()?;
    Some(ServerClock {
        phases: clock.phases.clone(),
        first_steps,
        turns: clock
            .turns
            .iter()
            .map(|t| ServerClockTurn {
                turn: t.turn,
                seconds: t.phase_seconds.clone(),
            })
            .collect(),
        last_turn: last_turn.max(1),
    })
}
