//! The journal's timeline (`game::timeline`): folded once, it gives the same state around each
//! entry as a fresh fold of the journal up to it, and the side views judged along it are the
//! entries judged against those fresh folds — on a shipped scenario with a busy journal (moves
//! in and out of sight, statuses, notes, steps, undos and redos).

use umpire_core::game::scenario::Position;
use umpire_core::game::state::replay;
use umpire_core::game::timeline::{STRIDE, Timeline};
use umpire_core::game::visibility::SideView;
use umpire_core::game::{Action, Actor, EventKind, Game};
use umpire_core::rules::{Library, SourceFile};

/// "Venice at bay, 1509" with a few hundred entries.
fn busy_game(name: &str) -> Game {
    let path = crate::root().join("scenarios/ailsh/s1_venice_at_bay_1509.yaml");
    let source = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario file"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-timeline-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    let lib = Library::shipped();
    let mut game = Game::create(&dir.join("game.umpire"), &source, &lib, Some(5)).expect("create");
    let ids: Vec<String> = game.state().counters.keys().cloned().collect();
    let hexes = [
        "2832", "2833", "2733", "2734", "2934", "3033", "1227", "1527",
    ];
    let me = Actor::umpire();
    for i in 0..400usize {
        let id = ids[(i * 7) % ids.len()].as_str();
        // Now and then a run of undos reaching back past a kept state, then redos.
        let action = match (i % 61, i % 13) {
            (20..=31, _) => Action::Undo,
            (32..=35, _) => Action::Redo,
            (_, k) => match k {
                0 | 4 | 8 => Action::Move {
                    counter: id.into(),
                    to: Position::Hex(hexes[i % hexes.len()].into()),
                },
                1 => Action::SetStatus {
                    counter: id.into(),
                    status: "disordered".into(),
                    on: i % 2 == 1,
                },
                3 | 9 => Action::Undo,
                10 => Action::Redo,
                6 if i % 4 == 0 => Action::Next,
                _ => Action::Note {
                    text: format!("note {i}"),
                },
            },
        };
        // Some actions are refused (nothing to redo, a status the counter cannot take): the
        // journal is what was accepted.
        let _ = game.act(&me, action);
    }
    let _ = std::fs::remove_dir_all(&dir);
    game
}

fn count(game: &Game, undo: bool) -> usize {
    game.events()
        .iter()
        .filter(|e| match e.kind {
            EventKind::Undone { .. } => undo,
            EventKind::Redone { .. } => !undo,
            _ => false,
        })
        .count()
}

#[test]
fn each_state_equals_a_fresh_fold_of_the_journal_up_to_it() {
    let game = busy_game("states");
    let events = game.events();
    assert!(
        events.len() > 300,
        "a busy journal: {} entries",
        events.len()
    );
    let (undos, redos) = (count(&game, true), count(&game, false));
    assert!(undos > 10 && redos > 3, "{undos} undos, {redos} redos");
    // Some undo reaches back past the last state kept before it.
    assert!(events.iter().enumerate().any(|(i, e)| matches!(
        e.kind,
        EventKind::Undone { event } if (event as usize) <= i / STRIDE * STRIDE
    )));
    let timeline = Timeline::new(game.scenario(), events).expect("folds");
    assert_eq!(timeline.len(), events.len());
    assert_eq!(timeline.end(), game.state());
    let fresh: Vec<_> = (0..=events.len())
        .map(|n| replay(game.scenario(), &events[..n]).expect("replays"))
        .collect();
    assert_eq!(timeline.start(), &fresh[0]);
    for (n, state) in fresh.iter().enumerate() {
        assert_eq!(
            &*timeline.state_at(n).expect("state"),
            state,
            "after {n} entries"
        );
    }
    // The walk: each entry with the states just before and after it.
    let mut steps = timeline.steps();
    let mut walked = 0;
    while let Some(step) = steps.next().expect("walks") {
        assert_eq!(step.index, walked);
        assert_eq!(step.event, &events[walked]);
        assert_eq!(step.before, &fresh[walked], "before entry {}", walked + 1);
        assert_eq!(step.after, &fresh[walked + 1], "after entry {}", walked + 1);
        walked += 1;
    }
    assert_eq!(walked, events.len());
    // Not a whole state per entry: the start, every STRIDE-th, the end.
    let most = 2 + events.len() / STRIDE;
    assert!(
        timeline.kept() <= most,
        "{} states kept, at most {most}",
        timeline.kept()
    );
}

#[test]
fn the_turns_span_as_the_reports_take_it() {
    let game = busy_game("turns");
    let timeline = game.timeline().expect("folds");
    let events = game.events();
    let last_turn = game.state().cursor.turn;
    for turn in 1..=last_turn + 1 {
        let end = timeline.end_of_turn(turn);
        let start = timeline.start_of_turn(turn);
        assert!(events[..end].iter().all(|e| e.cursor.turn <= turn));
        assert!(events[end..].iter().all(|e| e.cursor.turn > turn));
        assert!(events[..start].iter().all(|e| e.cursor.turn < turn));
        assert!(events[start..].iter().all(|e| e.cursor.turn >= turn));
    }
    assert_eq!(timeline.start_of_turn(1), 0);
    assert_eq!(timeline.end_of_turn(last_turn), events.len());
}

#[test]
fn side_views_along_the_timeline_judge_each_entry_against_a_fresh_fold() {
    let game = busy_game("sights");
    let events = game.events();
    let timeline = game.timeline().expect("folds");
    for side in ["french", "venetian"] {
        let view = SideView::new(game.ruleset(), game.scenario(), side).expect("side");
        let sights = view.sights(&timeline).expect("judged");
        assert_eq!(sights, view.journal(events).expect("judged"));
        assert_eq!(sights.len(), events.len());
        let mut summarised = 0;
        for (i, (e, s)) in events.iter().zip(&sights).enumerate() {
            assert_eq!(s.seq, e.seq);
            // An entry that follows an earlier one's sight is judged only along the journal.
            if matches!(
                e.kind,
                EventKind::Undone { .. }
                    | EventKind::Redone { .. }
                    | EventKind::Overridden { .. }
                    | EventKind::EffectsApplied { .. }
                    | EventKind::Skipped { .. }
            ) {
                continue;
            }
            let before = replay(game.scenario(), &events[..i]).expect("replays");
            assert_eq!(s.sight, view.entry(&before, e), "{side}, entry {}", e.seq);
            summarised += usize::from(!matches!(
                s.sight,
                umpire_core::game::visibility::Sight::Open
            ));
        }
        assert!(summarised > 0, "{side} sees some entries only in part");
    }
}
