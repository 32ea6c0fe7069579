//! The megagame phase clock (rr3 L214–226): the schedule read from tables/rr3/timetable.yaml,
//! folded from journaled clock actions with a fake `now` (no sleeping), and the tick that moves
//! the Sequence of Play. "L…" are lines of seeds/001_a316a7ada873c985.txt.

use std::path::PathBuf;

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use umpire::game::Actor;
use umpire::game::event::{ClockAction, Cursor, Event, EventKind};
use umpire::game::{Action, Game};
use umpire::megagame::clock::{
    ClockStatus, clock_status, phase_cursor, phase_of_step, tick, tick_target,
};
use umpire::rules::{Library, Ruleset, read_ruleset_dir};

use crate::common;
use common::shipped;

fn rr3() -> &'static Ruleset {
    shipped("rr3")
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 9, 10, 15, 0).unwrap()
}

fn min(m: i64) -> TimeDelta {
    TimeDelta::seconds(m * 60)
}

/// A journal of clock actions at the given offsets from t0.
fn journal(actions: &[(TimeDelta, ClockAction)]) -> Vec<Event> {
    actions
        .iter()
        .enumerate()
        .map(|(i, (offset, action))| Event {
            seq: i as u64 + 2,
            at: t0() + *offset,
            by: Some("Game Control".into()),
            cursor: Cursor { turn: 1, step: 0 },
            kind: EventKind::Clock {
                action: action.clone(),
            },
        })
        .collect()
}

fn start(turn: u32, phase: &str) -> ClockAction {
    ClockAction::Start {
        turn,
        phase: phase.into(),
    }
}

fn at(events: &[Event], offset: TimeDelta) -> ClockStatus {
    clock_status(rr3(), events, t0() + offset).expect("rr3 has a clock")
}

/// (turn, phase from 1, remaining seconds).
fn where_(s: &ClockStatus) -> (u32, usize, i64) {
    (s.turn, s.phase + 1, s.remaining_seconds)
}

#[test]
fn schedule_comes_from_the_timetable() {
    let clock = rr3().clock().expect("the timetable carries the clock");
    assert_eq!(
        clock.phases,
        [
            "phase_1", "phase_2", "phase_3", "phase_4", "phase_5", "phase_6"
        ]
    );
    assert_eq!(clock.warning_seconds, 120);
    // Turn 1: 10:15 → 10:25, 10:40, 10:55, 11:05, 11:20, 11:30 (L222–226): 75 minutes.
    let one = clock.turn(1).unwrap();
    let minutes: Vec<u32> = one.phase_seconds.iter().map(|s| s / 60).collect();
    assert_eq!(minutes, [10, 15, 15, 10, 15, 10]);
    assert_eq!(minutes.iter().sum::<u32>(), 75);
    assert_eq!(one.years.as_deref(), Some("1524 - 1528"));
    // Turns 2–6: six ten-minute phases (L214–220).
    for turn in 2..=6 {
        let t = clock.turn(turn).unwrap();
        assert_eq!(t.phase_seconds, vec![600; 6], "turn {turn}");
    }
    assert_eq!(clock.turn(6).unwrap().years.as_deref(), Some("1545 - 1548"));
    assert_eq!(clock.last_turn(), 6);
}

#[test]
fn phases_map_to_the_sequence_of_play_by_step_id() {
    let steps = umpire::game::sequence::leaf_steps(rr3());
    for (phase, first) in [
        (0, "remove_markers"),
        (1, "phase_2_pay"),
        (2, "phase_3_pay"),
        (3, "phase_4_loans"),
        (4, "phase_5_pay"),
        (5, "disband"),
    ] {
        let c = phase_cursor(rr3(), 3, phase).unwrap();
        assert_eq!(c.turn, 3);
        assert_eq!(steps[c.step].id, first, "phase {}", phase + 1);
        assert_eq!(phase_of_step(rr3(), c.step), Some(phase));
    }
    let desertion = steps
        .iter()
        .position(|s| s.id == "phase_3_desertion")
        .unwrap();
    assert_eq!(phase_of_step(rr3(), desertion), Some(2));
    // Registration and the briefing are outside the clock's phases.
    assert_eq!(phase_of_step(rr3(), 0), None);
}

#[test]
fn not_started_until_the_umpire_starts_it() {
    let s = at(&[], min(30));
    assert!(!s.started);
    assert!(!s.warning);
    assert_eq!(s.countdown(), "10:00");
}

#[test]
fn turn_one_runs_seventy_five_minutes_with_its_own_phase_ends() {
    let events = journal(&[(TimeDelta::zero(), start(1, "phase_1"))]);
    assert_eq!(where_(&at(&events, TimeDelta::zero())), (1, 1, 600));
    let s = at(&events, TimeDelta::seconds(9 * 60 + 59));
    assert_eq!(where_(&s), (1, 1, 1));
    assert_eq!(s.countdown(), "00:01");
    assert_eq!(s.scheduled_end.as_deref(), Some("10:25"));
    // 10:25 phase 2 begins, 15 minutes; 10:40 phase 3; 10:55 phase 4; 11:05; 11:20.
    assert_eq!(where_(&at(&events, min(10))), (1, 2, 900));
    assert_eq!(where_(&at(&events, min(25))), (1, 3, 900));
    assert_eq!(where_(&at(&events, min(40))), (1, 4, 600));
    assert_eq!(where_(&at(&events, min(50))), (1, 5, 900));
    let six = at(&events, min(65));
    assert_eq!(where_(&six), (1, 6, 600));
    assert_eq!(six.phase_id, "phase_6");
    assert!(six.phase_name.starts_with("Phase 6"), "{}", six.phase_name);
    assert_eq!(six.scheduled_end.as_deref(), Some("11:30"));
    assert_eq!(six.years.as_deref(), Some("1524 - 1528"));
    // 11:30: Turn 2, game years 1529 - 1532.
    let two = at(&events, min(75));
    assert_eq!(where_(&two), (2, 1, 600));
    assert_eq!(two.years.as_deref(), Some("1529 - 1532"));
    assert_eq!(two.headline(), "Turn 2 (1529 - 1532) · Phase 1/6");
}

#[test]
fn later_turns_have_ten_minute_phases() {
    let events = journal(&[(TimeDelta::zero(), start(2, "phase_1"))]);
    for k in 0..6 {
        let s = at(&events, min(10 * k));
        assert_eq!(where_(&s), (2, k as usize + 1, 600), "minute {}", 10 * k);
        assert_eq!(
            where_(&at(&events, min(10 * k + 7))),
            (2, k as usize + 1, 180)
        );
    }
    assert_eq!(where_(&at(&events, min(60))), (3, 1, 600));
    // Through the end of Turn 6 the clock stops: the game is over.
    let events = journal(&[(TimeDelta::zero(), start(6, "phase_6"))]);
    let end = at(&events, min(10));
    assert!(end.finished);
    assert!(!end.warning);
    assert_eq!(end.remaining_seconds, 0);
}

#[test]
fn hold_and_resume_keep_the_time_left() {
    let events = journal(&[
        (TimeDelta::zero(), start(2, "phase_1")),
        (min(3), ClockAction::Hold),
        (min(20), ClockAction::Resume),
    ]);
    let held = at(&events, min(15));
    assert!(held.held);
    assert_eq!(where_(&held), (2, 1, 420));
    assert_eq!(held.ends_at, None);
    // Resumed at +20 with 7 minutes left: phase 1 ends at +27.
    let running = at(&events, min(24));
    assert!(!running.held);
    assert_eq!(where_(&running), (2, 1, 180));
    assert_eq!(running.ends_at, Some(t0() + min(27)));
    assert_eq!(where_(&at(&events, min(27))), (2, 2, 600));
    // A held clock does not roll into the next phase, however long it waits.
    let events = journal(&[
        (TimeDelta::zero(), start(2, "phase_1")),
        (min(9), ClockAction::Hold),
    ]);
    assert_eq!(where_(&at(&events, min(300))), (2, 1, 60));
}

#[test]
fn warning_window_is_the_last_two_minutes() {
    let events = journal(&[(TimeDelta::zero(), start(2, "phase_3"))]);
    assert!(!at(&events, TimeDelta::seconds(7 * 60 + 59)).warning); // 2:01 left
    let w = at(&events, min(8)); // 2:00 left
    assert!(w.warning);
    assert_eq!(w.warning_seconds, 120);
    assert!(at(&events, TimeDelta::seconds(9 * 60 + 59)).warning);
    assert!(!at(&events, min(10)).warning); // the next phase, 10:00 left
}

#[test]
fn advance_ends_the_phase_now_and_set_remaining_resets_it() {
    let events = journal(&[
        (TimeDelta::zero(), start(1, "phase_1")),
        (min(4), ClockAction::Advance),
    ]);
    // Phase 2 of Turn 1 (15 minutes) from +4.
    assert_eq!(where_(&at(&events, min(4))), (1, 2, 900));
    assert_eq!(where_(&at(&events, min(18))), (1, 2, 60));
    assert_eq!(where_(&at(&events, min(19))), (1, 3, 900));
    let events = journal(&[
        (TimeDelta::zero(), start(1, "phase_1")),
        (min(4), ClockAction::SetRemaining { seconds: 90 }),
    ]);
    let s = at(&events, min(5));
    assert_eq!(where_(&s), (1, 1, 30));
    assert!(s.warning);
    assert_eq!(
        where_(&at(&events, TimeDelta::seconds(5 * 60 + 30))),
        (1, 2, 900)
    );
    // Advancing a held clock keeps it held, with the next phase's full time.
    let events = journal(&[
        (TimeDelta::zero(), start(2, "phase_1")),
        (min(2), ClockAction::Hold),
        (min(3), ClockAction::Advance),
    ]);
    let s = at(&events, min(30));
    assert!(s.held);
    assert_eq!(where_(&s), (2, 2, 600));
}

#[test]
fn the_tick_target_is_the_first_step_of_the_clock_phase() {
    let events = journal(&[(TimeDelta::zero(), start(1, "phase_1"))]);
    let s = at(&events, min(12));
    let before = Cursor { turn: 1, step: 0 };
    let to = tick_target(rr3(), &s, &before).unwrap();
    assert_eq!(to, phase_cursor(rr3(), 1, 1).unwrap());
    // Already there or beyond: nothing to do.
    assert_eq!(tick_target(rr3(), &s, &to), None);
    let later = Cursor {
        turn: 1,
        step: to.step + 2,
    };
    assert_eq!(tick_target(rr3(), &s, &later), None);
}

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("megaclock", name)
}

fn rr3_game(path: &std::path::Path) -> (Game, Library) {
    let lib = Library::shipped();
    let source = umpire::game::scenario::shipped_scenarios()
        .into_iter()
        .find(|f| f.name.ends_with("rr3/handbook_1524.yaml"))
        .expect("the rr3 scenario is shipped");
    let game = Game::create(path, &source, &lib, Some(1524)).expect("create");
    (game, lib)
}

#[test]
fn clock_actions_are_journaled_and_replay_after_a_crash() {
    let dir = scratch("replay");
    let path = dir.join("rr3.umpire");
    let (mut game, lib) = rr3_game(&path);
    let control = Actor::named("Game Control");
    game.act(&control, Action::Clock(start(1, "phase_1")))
        .unwrap();
    game.act(&control, Action::Clock(ClockAction::Hold))
        .unwrap();
    game.act(&control, Action::Clock(ClockAction::Resume))
        .unwrap();
    game.act(
        &control,
        Action::Clock(ClockAction::SetRemaining { seconds: 121 }),
    )
    .unwrap();
    let now = Utc::now() + TimeDelta::seconds(3);
    let before = clock_status(game.ruleset(), game.events(), now).unwrap();
    assert!(before.started && !before.held);
    assert_eq!(before.remaining_seconds, 118);
    assert!(before.warning);
    let clock_events = game
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Clock { .. }))
        .count();
    assert_eq!(clock_events, 4);
    assert!(
        game.events()
            .iter()
            .all(|e| !matches!(e.kind, EventKind::Clock { .. })
                || e.by.as_deref() == Some("Game Control"))
    );
    drop(game); // the desk crashes
    let again = Game::open(&path, &lib).unwrap();
    let after = clock_status(again.ruleset(), again.events(), now).unwrap();
    assert_eq!(before, after);
    // Clock events are not actions undo takes back.
    let mut again = again;
    assert!(again.act(&Actor::umpire(), Action::Undo).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clock_action_needs_a_clock_and_a_real_phase() {
    let dir = scratch("refuse");
    let (mut game, _) = rr3_game(&dir.join("rr3.umpire"));
    let err = game
        .act(&Actor::umpire(), Action::Clock(start(1, "phase_9")))
        .unwrap_err()
        .to_string();
    assert!(err.contains("phase_1, phase_2"), "{err}");
    let err = game
        .act(&Actor::umpire(), Action::Clock(start(9, "phase_1")))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no turn 9"), "{err}");
    let err = umpire::megagame::clock::act_clock(&mut game, &Actor::umpire(), ClockAction::Hold)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not started"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tick_steps_the_sequence_of_play_once_even_from_two_desks() {
    let dir = scratch("tick");
    let path = dir.join("rr3.umpire");
    let (mut desk_a, lib) = rr3_game(&path);
    desk_a
        .act(&Actor::umpire(), Action::Clock(start(1, "phase_1")))
        .unwrap();
    let mut desk_b = Game::open(&path, &lib).unwrap();
    // The clock runs into phase 1 at once: the Sequence of Play leaves the briefing for it.
    let now = Utc::now();
    let written = tick(&mut desk_a, &Actor::umpire(), now).unwrap();
    assert_eq!(written.len(), 1);
    let phase_1 = phase_cursor(desk_a.ruleset(), 1, 0).unwrap();
    assert_eq!(desk_a.state().cursor, phase_1);
    let stepped = desk_a.events().last().unwrap();
    assert!(matches!(stepped.kind, EventKind::Stepped { .. }));
    assert_eq!(stepped.by.as_deref(), Some("clock"));
    // Ticking again does nothing; so does the other desk, which had not seen the step.
    assert!(tick(&mut desk_a, &Actor::umpire(), now).unwrap().is_empty());
    assert!(tick(&mut desk_b, &Actor::umpire(), now).unwrap().is_empty());
    assert_eq!(desk_b.state().cursor, phase_1);
    // Eleven minutes on, phase 1 (10 minutes) is over: one step to phase 2.
    let later = now + min(11);
    assert_eq!(tick(&mut desk_b, &Actor::umpire(), later).unwrap().len(), 1);
    assert!(
        tick(&mut desk_a, &Actor::umpire(), later)
            .unwrap()
            .is_empty()
    );
    desk_a.refresh().unwrap();
    let phase_2 = phase_cursor(desk_a.ruleset(), 1, 1).unwrap();
    assert_eq!(desk_a.state().cursor, phase_2);
    let steps = Game::open(&path, &lib)
        .unwrap()
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Stepped { .. }))
        .count();
    assert_eq!(steps, 2);
    // Held: time runs out on the wall clock, but the Sequence of Play stays.
    desk_a
        .act(&Actor::umpire(), Action::Clock(ClockAction::Hold))
        .unwrap();
    assert!(
        tick(&mut desk_a, &Actor::umpire(), later + min(60))
            .unwrap()
            .is_empty()
    );
    assert_eq!(desk_a.state().cursor, phase_2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_clock_is_refused_with_its_line() {
    let dir = scratch("bad");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tables/rr3");
    let rules = dir.join("rr3");
    std::fs::create_dir_all(&rules).unwrap();
    for f in std::fs::read_dir(&root).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, rules.join(f.file_name().unwrap())).unwrap();
    }
    let timetable = rules.join("timetable.yaml");
    let text = std::fs::read_to_string(&timetable).unwrap();
    let broken = text
        .replace("phase_5, phase_6]", "phase_5, phase_7]")
        .replace("\"10:55\", \"11:05\"", "\"10:55\", \"10:50\"");
    std::fs::write(&timetable, &broken).unwrap();
    let files = read_ruleset_dir(&rules).unwrap();
    let errors = umpire::rules::load_ruleset(&files).unwrap_err().to_string();
    let line_of = |needle: &str| broken.lines().position(|l| l.contains(needle)).unwrap() + 1;
    assert!(
        errors.contains(&format!("timetable.yaml:{}:", line_of("phase_7]")))
            && errors.contains("'phase_7' is not a step of the Sequence of Play"),
        "{errors}"
    );
    assert!(
        errors.contains(&format!("timetable.yaml:{}:", line_of("\"10:50\"")))
            && errors.contains("phase end 10:50 is not after the one before"),
        "{errors}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
