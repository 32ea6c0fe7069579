//! The typed effects that are facts of the game rather than counter changes (issue 26): a
//! place held (`control`) and reinforcements brought (`arrival`), folded from the result that
//! carries them, and refused in a ruleset without what they name.

use umpire_core::game::{Action, Actor, Game};
use umpire_core::rules::{Library, RulesetFiles, SourceFile, load_ruleset, shipped_sources};

/// The shipped ailsh ruleset with `extra` effects added to the Weather Table's Fair result (a
/// stand-in for a result that brings them: the effects are what is tested, not the weather).
fn ailsh_with_fair_effects(extra: &str) -> RulesetFiles {
    let mut files = shipped_sources()
        .into_iter()
        .find(|f| f.ruleset.text.contains("\nid: ailsh"))
        .expect("ailsh");
    let weather = files
        .tables
        .iter_mut()
        .find(|t| t.name.ends_with("weather.yaml"))
        .expect("the Weather Table");
    let fair = "      - {kind: note, text: no effects, rule: \"17.2\", source: \"L1470\"}\n";
    assert!(weather.text.contains(fair));
    weather.text = weather.text.replace(fair, &format!("{fair}{extra}"));
    files
}

fn game(files: RulesetFiles, scenario: &str, tag: &str) -> Game {
    let lib = Library::load(&[files]);
    assert!(lib.get("ailsh").is_some(), "{:?}", lib.errors("ailsh"));
    let path = crate::root().join("scenarios/ailsh").join(scenario);
    let source = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-facts-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    Game::create(&dir.join("g.umpire"), &source, &lib, Some(2)).expect("create")
}

fn fair_weather(game: &mut Game) {
    game.act(
        &Actor::umpire(),
        Action::Resolve {
            procedure: "weather".into(),
            inputs: Vec::new(),
            physical: Some(vec!["4".into()]),
            chart_result: Some("fair".into()),
            chart_confirmed: false,
            counters: Default::default(),
            item: None,
        },
    )
    .expect("weather");
}

#[test]
fn a_control_effect_hands_the_place_over_and_undo_takes_it_back() {
    let files = ailsh_with_fair_effects(
        "      - {kind: control, side: french, value: Novara, status: conquered, rule: \"14.2\"}\n",
    );
    let mut g = game(files, "s2_last_triumph_of_the_swiss_1513.yaml", "control");
    assert!(
        g.state()
            .control
            .get("Novara")
            .is_none_or(|c| c.side.as_deref() != Some("french"))
    );
    fair_weather(&mut g);
    let novara = g.state().control.get("Novara").expect("Novara is tracked");
    assert_eq!(novara.side.as_deref(), Some("french"));
    assert!(novara.conquered);
    g.act(&Actor::umpire(), Action::Undo).expect("undo");
    assert!(
        g.state()
            .control
            .get("Novara")
            .is_none_or(|c| c.side.as_deref() != Some("french")),
        "the undone result no longer holds it"
    );
}

#[test]
fn an_arrival_effect_brings_a_conditional_reinforcement() {
    let files = ailsh_with_fair_effects("      - {kind: arrival, value: swiss_roist}\n");
    let mut g = game(files, "s3_francois_first_time_1515.yaml", "arrival");
    let due = |g: &Game| {
        umpire_core::game::arrivals::arrivals(g.ruleset(), g.scenario(), g.state())
            .into_iter()
            .find(|a| a.key == "arrival:swiss_roist")
            .is_some_and(|a| a.due)
    };
    assert!(!due(&g), "not before the result");
    fair_weather(&mut g);
    // Brought at the Weather, due from C.1 of the same turn.
    let mut guard = 0;
    while g.status().step.id != "c1_reinforcements" {
        guard += 1;
        assert!(guard < 10, "C.1 holds Roist: {}", g.status().step.path);
        for p in g.pending() {
            if p.mandatory && !p.done && !p.key.starts_with("arrival:") {
                let item = p.key;
                let action = if p.credit.is_some() {
                    Action::Credit { item }
                } else {
                    Action::Skip {
                        item,
                        reason: "not this test's".into(),
                    }
                };
                g.act(&Actor::umpire(), action).expect("credit or skip");
            }
        }
        g.act(&Actor::umpire(), Action::Next).expect("next");
    }
    assert!(due(&g));
    assert!(
        g.pending()
            .iter()
            .any(|p| p.key == "arrival:swiss_roist" && p.mandatory),
        "{:?}",
        g.pending()
    );
}

#[test]
fn control_and_arrival_effects_name_what_they_are_about() {
    for (effect, said) in [
        ("{kind: control, value: Novara}", "needs the side"),
        ("{kind: control, side: french}", "names its place in value:"),
        (
            "{kind: arrival}",
            "names its conditional reinforcement in value:",
        ),
        (
            "{kind: note, text: x, value: Novara}",
            "value: is for set, control and arrival",
        ),
    ] {
        let files = ailsh_with_fair_effects(&format!("      - {effect}\n"));
        let errors = load_ruleset(&files).expect_err("refused").0;
        assert!(
            errors.iter().any(|e| e.problem.contains(said)
                && e.file.ends_with("weather.yaml")
                && e.line > 0),
            "{effect}: {errors:?}"
        );
    }
}
