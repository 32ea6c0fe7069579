//! The tables in force at an entry (issue 45, item 7): an entry is held to the ruleset the game
//! began with and the transcriptions recorded before it — never one recorded after it.

use umpire_core::game::transcribed::{InForce, lay_journal};
use umpire_core::game::{Action, Actor, Event, EventKind, Game};
use umpire_core::rules::{Library, SourceFile};

/// The Weather Table with every cell transcribed (1 Frost … 6 Heat; row 2 as `two`).
fn sheet(two: &str) -> String {
    let shipped =
        std::fs::read_to_string(crate::root().join("tables/ailsh/weather.yaml")).expect("table");
    let mut out = shipped;
    for (key, result) in [
        (1, "frost"),
        (2, two),
        (3, "fair"),
        (4, "fair"),
        (5, "rain"),
        (6, "heat"),
    ] {
        out = out.replace(
            &format!("{{key: {key}, cell: \"?\"}}"),
            &format!("{{key: {key}, cell: {result}}}"),
        );
    }
    out
}

fn act(game: &mut Game, action: Action) -> u64 {
    let seqs = game.act(&Actor::umpire(), action).expect("recorded");
    *seqs.first().expect("an entry")
}

fn transcribe(game: &mut Game, content: String) -> u64 {
    act(
        game,
        Action::Transcribe {
            table: "weather".into(),
            content,
        },
    )
}

fn weather_complete(ruleset: &umpire_core::rules::Ruleset) -> bool {
    ruleset.table("weather").expect("weather").is_complete()
}

#[test]
fn each_entry_is_held_to_the_tables_in_force_when_it_was_made() {
    let lib = Library::shipped();
    let path = crate::root().join("scenarios/ailsh/s1_venice_at_bay_1509.yaml");
    let source = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-in-force-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    let file = dir.join("g.umpire");
    let mut game = Game::create(&file, &source, &lib, Some(2)).expect("create");
    // A result read off the physical chart for a missing cell (roll 2: Fair).
    let typed = act(
        &mut game,
        Action::Resolve {
            procedure: "weather".into(),
            inputs: Vec::new(),
            physical: Some(vec!["2".into()]),
            chart_result: Some("fair".into()),
            chart_confirmed: false,
            counters: Default::default(),
            item: None,
        },
    );
    // The sheet prints Mud there; later corrected to Rain.
    let first = transcribe(&mut game, sheet("mud"));
    let second = transcribe(&mut game, sheet("rain"));
    assert!(typed < first && first < second);
    assert!(weather_complete(game.ruleset()), "the game reads it now");

    let events: Vec<Event> = game.events().to_vec();
    let Some(EventKind::GameStarted {
        ruleset_hash: Some(began),
        ..
    }) = events.first().map(|e| &e.kind)
    else {
        panic!("a start with a ruleset hash");
    };
    let latest = {
        let in_force = InForce::of(game.ruleset(), &events).expect("in force");
        assert_eq!(in_force.len(), 2);
        // The typed result, and the first transcription's own entry: the table as the text
        // gives it.
        assert!(!weather_complete(in_force.at(typed)));
        assert!(!weather_complete(in_force.at(first)));
        let cell = |seq: u64| {
            in_force.at(seq).table("weather").expect("weather").rows[1].cells[0]
                .text()
                .to_string()
        };
        assert_eq!(cell(second), "mud", "the second is made on the first");
        assert_eq!(cell(second + 1), "rain");
        // The ruleset it began with is the one its start committed to.
        assert_eq!(in_force.start().content(), *began);
        cell(second + 1)
    };
    assert_ne!(game.ruleset().content(), *began);
    let v = game.verify(None).expect("verify");
    assert!(v.is_sound(), "{:?}", v.problems);
    assert_eq!(v.transcriptions, 2);

    // Opened again on the shipped rulesets (no transcription folder): the journal's tables.
    drop(game);
    let mut reopened = Game::open(&file, &lib).expect("open");
    let t = reopened.ruleset().table("weather").expect("weather");
    assert_eq!(t.rows[1].cells[0].text(), latest);
    let Some(EventKind::Transcribed { hash, .. }) = reopened.events().last().map(|e| &e.kind)
    else {
        panic!("the last entry is the transcription");
    };
    assert_eq!(reopened.ruleset().content(), *hash);
    assert!(reopened.verify(None).expect("verify").is_sound());

    // A forged `before` (the first said it replaced another text): named at its entry.
    let mut forged = events.clone();
    if let EventKind::Transcribed { before, .. } = &mut forged[second as usize - 1].kind {
        before.push_str("\n# changed\n");
    }
    let problem = InForce::of(lib.get("ailsh").expect("ailsh"), &forged)
        .err()
        .expect("a problem");
    assert_eq!(problem.entry, second, "{problem}");
    // A damaged one: an error naming it, the ruleset untouched.
    let mut damaged = events;
    if let EventKind::Transcribed { content, .. } = &mut damaged[first as usize - 1].kind {
        *content = "id: weather\nrows: [\n".into();
    }
    let said = lay_journal(lib.get("ailsh").expect("ailsh"), &damaged).expect_err("refused");
    assert!(said.contains(&format!("entry {first}")), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
