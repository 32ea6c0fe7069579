//! Each scenario played to its end (issue 45, item 8): the walk from the first turn to the last,
//! resolving what it asks — the Weather read off the physical chart, the Administrative Points
//! credited, the reinforcements placed, the facts the victory conditions read recorded where
//! the text puts them — and what else is mandatory skipped with the umpire's reason (fought at
//! the table). Each ends with the winner its text gives for the position played.
//!
//! ailsh: seeds/000_73d28750ad550589.txt; Gradisca: its seed in ../shared/seeds/README.md.

use std::collections::BTreeMap;

use umpire_core::game::scenario::Position;
use umpire_core::game::state::CounterState;
use umpire_core::game::{Action, Actor, CounterId, Game, VictoryFact, VictoryResult};
use umpire_core::rules::{Library, SourceFile};

fn library() -> &'static Library {
    static LIB: std::sync::OnceLock<Library> = std::sync::OnceLock::new();
    LIB.get_or_init(Library::shipped)
}

/// A new game of a shipped scenario file (under scenarios/).
fn game_of(file: &str, name: &str) -> Game {
    let path = crate::root().join("scenarios").join(file);
    let source = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario file"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-played-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    Game::create(&dir.join("game.umpire"), &source, library(), Some(7)).expect("create")
}

fn act(game: &mut Game, action: Action) {
    let what = format!("{action:?}");
    game.act(&Actor::umpire(), action)
        .unwrap_or_else(|e| panic!("refused: {e}\n{what}"));
}

fn step_id(game: &Game) -> String {
    game.steps()[game.state().cursor.step].id.clone()
}

/// A procedure resolved with the physical dice typed in (and the chart's result, if read off
/// a physical chart).
fn resolve(game: &mut Game, procedure: &str, inputs: &[(&str, &str)], dice: &[&str]) {
    act(
        game,
        Action::Resolve {
            procedure: procedure.into(),
            inputs: inputs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            physical: Some(dice.iter().map(|d| d.to_string()).collect()),
            chart_result: None,
            chart_confirmed: false,
            counters: BTreeMap::new(),
            item: None,
        },
    );
}

/// The counters of a Force (by its id) on the map, or of a side in a place.
fn counters_where(game: &Game, keep: impl Fn(&CounterState) -> bool) -> Vec<CounterId> {
    game.state()
        .counters
        .values()
        .filter(|c| !matches!(c.position, Position::OffMap(_)) && keep(c))
        .map(|c| c.id.clone().into())
        .collect()
}

fn move_all(game: &mut Game, counters: Vec<CounterId>, to: Position) {
    assert!(!counters.is_empty(), "nothing to move to {to:?}");
    act(game, Action::MoveStack { counters, to });
}

/// What the walk asks at the step, resolved: credits credited, arrivals placed, the Weather
/// read off the physical chart (Fair); anything else mandatory skipped with the reason.
fn resolve_the_step(game: &mut Game, weather: &dyn Fn(&mut Game)) {
    for _ in 0..20 {
        let Some(p) = game.pending().into_iter().find(|p| p.mandatory && !p.done) else {
            return;
        };
        if p.credit.is_some() {
            act(game, Action::Credit { item: p.key });
        } else if p.key.starts_with("reinforcements:") || p.key.starts_with("arrival:") {
            let arrival = umpire_core::game::arrivals::find_arrival(
                game.ruleset(),
                game.scenario(),
                game.state(),
                Some(&p.key),
            )
            .expect("the arrival");
            let (changes, reason) =
                umpire_core::game::arrivals::arrival_changes(&arrival, game.state(), None);
            act(game, Action::Change { changes, reason });
        } else if p.procedure.as_deref() == Some("weather") {
            weather(game);
        } else if p.key.starts_with("victory:") {
            panic!("the end asks what this play never gave: {}", p.label);
        } else {
            act(
                game,
                Action::Skip {
                    item: p.key,
                    reason: "fought at the table: nothing to record here".into(),
                },
            );
        }
    }
    panic!("the step's items never close: {:?}", game.pending());
}

/// Plays the scenario to its end: at each step `hook` first (the umpire's facts), then what
/// the walk asks, then Next. Returns the result and how many turns were played.
fn play_to_the_end(
    game: &mut Game,
    weather: &dyn Fn(&mut Game),
    mut hook: impl FnMut(&mut Game, u32, &str),
) -> VictoryResult {
    let mut visited = 0;
    while game.state().ended.is_none() {
        visited += 1;
        assert!(visited < 2000, "the game never ends: at {}", step_id(game));
        let turn = game.state().cursor.turn;
        let step = step_id(game);
        hook(game, turn, &step);
        if game.state().ended.is_some() {
            break;
        }
        resolve_the_step(game, weather);
        act(game, Action::Next);
    }
    game.state().ended.as_ref().expect("ended").1.clone()
}

/// The ailsh Weather: the die typed in, the result read off the physical chart (Fair).
fn ailsh_weather(game: &mut Game) {
    act(
        game,
        Action::Resolve {
            procedure: "weather".into(),
            inputs: Vec::new(),
            physical: Some(vec!["2".into()]),
            chart_result: Some("fair".into()),
            chart_confirmed: true,
            counters: BTreeMap::new(),
            item: None,
        },
    );
}

/// Scenario 1 (L1757–1762), 9 turns: the French never take Cremona; at the end the umpire
/// judges that no French Force occupies a Fortress east of the Adda: the Venetians win a
/// Standard Victory.
#[test]
fn venice_at_bay_ends_with_the_venetian_standard_victory() {
    let mut game = game_of("ailsh/s1_venice_at_bay_1509.yaml", "s1");
    let turns = game.scenario().turns;
    let mut asked = None;
    let result = play_to_the_end(&mut game, &ailsh_weather, |game, _, _| {
        let needed = game
            .pending()
            .into_iter()
            .find(|p| !p.done && p.key.starts_with("victory:needed:venetian_standard"));
        if let Some(p) = needed {
            // The last stop asks for it: the game does not end "not decided" by itself.
            asked = Some((game.state().cursor.turn, p.label));
            act(
                game,
                Action::Victory(VictoryFact::Judged {
                    item: "Venetian Standard Victory".into(),
                    side: None,
                    holds: true,
                    reason: "no French Force east of the Adda and north of the Po at the end"
                        .into(),
                }),
            );
        }
    });
    let (turn, label) = asked.expect("the Venetian condition was asked for before the end");
    assert_eq!(turn, turns);
    assert!(
        label.contains("Before the game ends: Venetian Standard Victory (Venetian)"),
        "{label}"
    );
    assert_eq!(
        result.winner.as_deref(),
        Some("venetian"),
        "{}",
        result.sentence
    );
    assert_eq!(result.level.as_deref(), Some("Standard Victory"));
    assert_eq!(game.state().cursor.turn, turns, "played to its last turn");
}

/// Scenario 3 (L2054–2064), 12 turns: the French never take Milano, and François I lives: at the
/// end of the Scenario the Anti-French Coalition wins a Standard Victory ("the French side did
/// not win"); no draw is possible.
#[test]
fn francois_first_time_ends_with_the_anti_french_standard_victory() {
    let mut game = game_of("ailsh/s3_francois_first_time_1515.yaml", "s3");
    let turns = game.scenario().turns;
    let result = play_to_the_end(&mut game, &ailsh_weather, |_, _, _| {});
    assert_eq!(
        result.winner.as_deref(),
        Some("anti_french"),
        "{}",
        result.sentence
    );
    assert_eq!(result.level.as_deref(), Some("Standard Victory"));
    assert_eq!(game.state().cursor.turn, turns);
}

/// Scenario 4 (L2352–2358), 16 turns: no side holds all ten places, so the Victory Points
/// decide at the end. The six places the text does not say are Towns or Cities are given by the
/// umpire (Towns, read off the map); each owned City's die is rolled once, halved and rounded
/// up: the Imperials (six Towns, Pavia 6 → 3) have 9 VP, the French (Cremona, Soncino, Trezzo,
/// 1 each → 1) have 3: the Imperials win.
#[test]
fn the_french_lose_the_duchy_ends_on_victory_points() {
    let mut game = game_of("ailsh/s4_french_lose_the_duchy_1522.yaml", "s4");
    let turns = game.scenario().turns;
    let mut rolled = false;
    let mut kinds = false;
    let result = play_to_the_end(&mut game, &ailsh_weather, |game, _, _| {
        if !kinds {
            kinds = true;
            for place in [
                "Alessandria",
                "Novara",
                "Vigevano",
                "Como",
                "Lodi",
                "Derthona",
            ] {
                act(
                    game,
                    Action::Victory(VictoryFact::PlaceKind {
                        place: place.into(),
                        kind: umpire_core::rules::PlaceKind::Town,
                        reason: "a Town on the map sheet".into(),
                    }),
                );
            }
        }
        let turn = game.state().cursor.turn;
        let due = game
            .pending()
            .iter()
            .any(|p| !p.done && p.procedure.as_deref() == Some("city_victory_points"));
        if turn == turns && due && !rolled {
            rolled = true;
            for (side, city, die) in [
                ("imperial", "pavia", "6"),
                ("french_coalition", "cremona", "1"),
                ("french_coalition", "soncino", "1"),
                ("french_coalition", "trezzo", "1"),
            ] {
                resolve(
                    game,
                    "city_victory_points",
                    &[("side", side), ("city", city)],
                    &[die],
                );
            }
        }
    });
    assert!(rolled, "the Cities' dice were never asked for");
    assert_eq!(
        result.winner.as_deref(),
        Some("imperial"),
        "{}",
        result.sentence
    );
    assert!(
        result.reasons.iter().any(|r| r.contains("Imperial 9 VP")),
        "{:?}",
        result.reasons
    );
}

/// Scenario 5 (L2560–2568), 25 turns: the French march out of Novara on the last turn, and no
/// French Force is left in any town or city of the Duchy: at the end of the Scenario the
/// Imperials win a Standard Victory.
#[test]
fn the_struggle_for_the_duchy_ends_with_the_imperial_standard_victory() {
    let mut game = game_of("ailsh/s5_struggle_for_the_duchy_1524.yaml", "s5");
    let turns = game.scenario().turns;
    // Lannoy, De Leyva, Del Vasto and their units have no hex (L2640): the first step asks for
    // them; the Imperial player sets them up in Lodi (2032), east of the Tesino.
    let setup = game
        .pending()
        .into_iter()
        .find(|p| p.key == "setup:im-duchy")
        .expect("the unplaced Force is asked for");
    assert!(setup.mandatory && !setup.done, "{}", setup.label);
    assert!(setup.label.contains("Lannoy"), "{}", setup.label);
    let waiting: Vec<CounterId> = game
        .state()
        .counters
        .values()
        .filter(|c| c.force.as_deref() == Some("im-duchy"))
        .map(|c| c.id.clone().into())
        .collect();
    move_all(&mut game, waiting, Position::Hex("2032".into()));
    assert!(
        game.pending()
            .iter()
            .any(|p| p.key == "setup:im-duchy" && p.done),
        "placed: done"
    );
    let result = play_to_the_end(&mut game, &ailsh_weather, |game, turn, step| {
        if turn == turns && step == "phase_e_victory" {
            let in_novara = counters_where(game, |c| {
                c.side == "french" && c.position == Position::Hex("2611".into())
            });
            if !in_novara.is_empty() {
                move_all(game, in_novara, Position::Hex("2603".into()));
            }
        }
    });
    assert_eq!(
        result.winner.as_deref(),
        Some("imperial"),
        "{}",
        result.sentence
    );
    assert_eq!(result.level.as_deref(), Some("Standard Victory"));
    assert_eq!(game.state().cursor.turn, turns);
}

/// "The War of Gradisca" (Rule 13, L276–292), 16 turns to Mar.-Apr. 1618: the deployment is on
/// the Scenario Instructions card (not in the text), so the organiser places one unit a side —
/// the Venetians in Goritia, the Austrians in Udine. At the end the occupied areas score (Goritia
/// 10 for the Venetians, Udine 10 for the Austrians) with the Victory Points gained from cards
/// (3 for the Venetians): the Venetians win, 13 to 10.
#[test]
fn the_war_of_gradisca_ends_with_the_most_victory_points() {
    let mut game = game_of("gradisca/war_of_gradisca_1615.yaml", "gradisca");
    let turns = game.scenario().turns;
    for (name, side, area) in [
        ("Venetian infantry", "venetian", "goritia"),
        ("Austrian infantry", "austrian", "udine"),
    ] {
        act(
            &mut game,
            Action::AddCounter {
                name: name.into(),
                side: side.into(),
                kind: umpire_core::game::scenario::CounterKind::Unit,
                at: Position::Area(area.into()),
                attributes: vec![("unit_type".into(), "infantry".into())],
                force: None,
                note: Some("the Scenario Instructions card".into()),
            },
        );
    }
    act(
        &mut game,
        Action::Victory(VictoryFact::Points {
            side: "venetian".into(),
            points: 3,
            reason: "a card played for Victory Points (Rule 13)".into(),
        }),
    );
    let result = play_to_the_end(&mut game, &|_| {}, |_, _, _| {});
    assert_eq!(
        result.winner.as_deref(),
        Some("venetian"),
        "{}",
        result.sentence
    );
    assert!(
        result.reasons.iter().any(|r| r.contains("Venetian 13 VP")),
        "{:?}",
        result.reasons
    );
    assert_eq!(game.state().cursor.turn, turns);
}

/// Scenario 2 (L1919–1923): the Swiss march out of Novara in turn 2 and Tremouille's Force
/// marches in; at the end of that turn the French occupy Novara (2611) and win — the game ends
/// there, two turns before its last.
#[test]
fn the_last_triumph_of_the_swiss_ends_when_the_french_hold_novara() {
    let mut game = game_of("ailsh/s2_last_triumph_of_the_swiss_1513.yaml", "s2");
    let mut marched = false;
    let result = play_to_the_end(&mut game, &ailsh_weather, |game, turn, _| {
        if turn == 2 && !marched {
            marched = true;
            let novara = Position::Hex("2611".into());
            let swiss = counters_where(game, |c| c.side == "swiss" && c.position == novara);
            move_all(game, swiss, Position::Hex("2603".into()));
            let french = counters_where(game, |c| c.force.as_deref() == Some("fr-tremouille"));
            move_all(game, french, novara);
        }
    });
    assert_eq!(
        result.winner.as_deref(),
        Some("french"),
        "{}",
        result.sentence
    );
    assert_eq!(game.state().cursor.turn, 2, "{}", result.sentence);
}

/// Scenario 2, Special Rule 2 (L2032–2034): "At the beginning of the third turn it [the Swiss
/// Force in Novara] receives an Attack Order." The walk asks for it at turn 3's first step; the
/// Order goes on the Force's Primo Capitano, asked for first while his role is not recorded
/// (elected under 15.5); recorded from the list, he holds the Attack Order.
#[test]
fn the_swiss_in_novara_receive_their_attack_order_at_the_third_turn() {
    let mut game = game_of("ailsh/s2_last_triumph_of_the_swiss_1513.yaml", "s2-attack");
    let item = |game: &Game| {
        game.pending()
            .into_iter()
            .find(|p| p.key.starts_with("schedule:swiss_attack_order"))
    };
    while game.state().cursor.turn < 3 {
        assert!(item(&game).is_none(), "not before the third turn");
        resolve_the_step(&mut game, &ailsh_weather);
        act(&mut game, Action::Next);
    }
    let asked = item(&game).expect("asked at the beginning of the third turn");
    assert!(asked.mandatory && !asked.done);
    assert!(asked.credit.is_none(), "{}", asked.label);
    assert!(
        asked.label.contains("record who he is first"),
        "{}",
        asked.label
    );
    let mutt = game
        .state()
        .counters
        .values()
        .find(|c| c.name == "Mutt")
        .expect("Mutt")
        .id
        .clone();
    act(
        &mut game,
        Action::SetAttribute {
            counter: mutt.clone().into(),
            attribute: "role".into(),
            value: "primo_capitano".into(),
            seen: umpire_core::game::action::Seen::Unchecked,
        },
    );
    let asked = item(&game).expect("still asked");
    assert_eq!(
        asked.credit.as_deref(),
        Some("set Mutt's Order to Attack"),
        "{}",
        asked.label
    );
    act(&mut game, Action::Credit { item: asked.key });
    assert_eq!(
        game.state().counters[&mutt].attributes.get("order"),
        Some(&umpire_core::rules::Value::Text("attack".into()))
    );
    assert!(item(&game).expect("listed").done);
}
