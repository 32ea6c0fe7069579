//! The Sequence of Play as the game walks it (issue 26): `next` goes to the next step that
//! needs the umpire; a step applies only when its `when` holds on the game (an AP turn of the
//! scenario's schedule, Forces in contact, an optional rule in play); the activation holds one
//! item per Force; the kinds of battle are branches entered by choice; Gradisca's Command
//! markers cycle until the container is empty.

use std::collections::BTreeMap;

use umpire_core::game::scenario::Position;
use umpire_core::game::{Action, Actor, Game};
use umpire_core::rules::{Library, SourceFile};

fn library() -> &'static Library {
    static LIB: std::sync::OnceLock<Library> = std::sync::OnceLock::new();
    LIB.get_or_init(Library::shipped)
}

/// A new game of a shipped scenario file (under scenarios/), playing these optional rules.
fn game_of(file: &str, name: &str, optional: &[&str]) -> Game {
    let path = crate::root().join("scenarios").join(file);
    let source = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario file"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-walk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    let optional: Vec<String> = optional.iter().map(|s| s.to_string()).collect();
    Game::create_playing(
        &dir.join("game.umpire"),
        &source,
        library(),
        Some(5),
        &optional,
    )
    .expect("create")
}

fn step_id(game: &Game) -> String {
    game.steps()[game.state().cursor.step].id.clone()
}

fn next(game: &mut Game) {
    game.act(&Actor::umpire(), Action::Next).expect("next");
}

/// The inputs of one side of an activation contest (7.2).
const CONTEST: [(&str, &str); 12] = [
    ("initiative_a", "3"),
    ("order_a", "manoeuvre"),
    ("second_activation_a", "false"),
    ("bonus_star_a", "false"),
    ("ma_a", "8"),
    ("imt_a", "0"),
    ("initiative_b", "2"),
    ("order_b", "manoeuvre"),
    ("second_activation_b", "false"),
    ("bonus_star_b", "false"),
    ("ma_b", "8"),
    ("imt_b", "0"),
];

fn contest(game: &mut Game, a: &[&str], b: &[&str]) {
    resolve_with(
        game,
        "activation",
        &CONTEST,
        Some(&["1", "6"]),
        None,
        &[("a", a), ("b", b)],
    );
}

fn resolve(game: &mut Game, procedure: &str, chart: Option<&str>, roles: &[(&str, &[&str])]) {
    resolve_with(game, procedure, &[], None, chart, roles);
}

fn resolve_with(
    game: &mut Game,
    procedure: &str,
    inputs: &[(&str, &str)],
    physical: Option<&[&str]>,
    chart: Option<&str>,
    roles: &[(&str, &[&str])],
) {
    let counters: BTreeMap<String, Vec<umpire_core::game::CounterId>> = roles
        .iter()
        .map(|(r, ids)| (r.to_string(), ids.iter().map(|i| (*i).into()).collect()))
        .collect();
    game.act(
        &Actor::umpire(),
        Action::Resolve {
            procedure: procedure.into(),
            inputs: inputs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            physical: physical.map(|d| d.iter().map(|x| x.to_string()).collect()),
            chart_result: chart.map(str::to_string),
            chart_confirmed: chart.is_some(),
            counters,
            item: None,
        },
    )
    .unwrap_or_else(|e| panic!("resolve {procedure}: {e}"));
}

/// The counters of a Force on the map.
fn force(game: &Game, id: &str) -> Vec<String> {
    game.state()
        .counters
        .values()
        .filter(|c| c.force.as_deref() == Some(id) && !matches!(c.position, Position::OffMap(_)))
        .map(|c| c.id.clone())
        .collect()
}

fn move_force(game: &mut Game, id: &str, hex: &str) {
    let counters = force(game, id).into_iter().map(Into::into).collect();
    game.act(
        &Actor::umpire(),
        Action::MoveStack {
            counters,
            to: Position::Hex(hex.into()),
        },
    )
    .expect("move");
}

/// "The last triumph of the Swiss": no APs in this scenario (L1926), no optional rules, no
/// contact at the start. The game begins at the Weather (the Interphase offer, 18.4, is not
/// played); after the Weather, Next passes the Command Phase (not an AP turn) and the
/// reinforcement step to the activation, with one item per Force; then the next turn's Weather,
/// passing the Combat and Attrition Phase (no Forces in contact).
#[test]
fn a_turn_without_contact_stops_only_at_the_weather_and_the_activations() {
    let mut game = game_of("ailsh/s2_last_triumph_of_the_swiss_1513.yaml", "s2", &[]);
    // The game begins at the Weather: the Interphase offer (18.4) is not played.
    assert_eq!(step_id(&game), "phase_a_weather");
    assert!(
        !game
            .walk()
            .applies(&umpire_core::game::Cursor { turn: 1, step: 0 })
    );
    let refused = game
        .act(&Actor::umpire(), Action::Next)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("Weather"), "{refused}");
    assert!(
        !refused.contains("umpire game"),
        "the engine's words: {refused}"
    );
    resolve(&mut game, "weather", Some("fair"), &[]);
    let (_, passed) = game.walk().next_stop();
    let passed = umpire_core::game::sequence::passed_between(&game.walk(), &passed);
    assert!(
        passed
            .iter()
            .any(|p| p.ends_with("b. Designate a Supply Source")),
        "{passed:?}"
    );
    assert!(
        !passed
            .iter()
            .any(|p| p.contains("Receive Administrative Points")),
        "not an AP turn in a scenario without APs: {passed:?}"
    );
    next(&mut game);
    assert_eq!(step_id(&game), "c2b_activate");
    let items = game.pending();
    let labels: Vec<&str> = items.iter().map(|p| p.label.as_str()).collect();
    assert!(
        labels.contains(&"Tremouille's Force (Manoeuvre): Activation"),
        "{labels:?}"
    );
    assert!(
        labels.iter().all(|l| l.ends_with(": Activation")),
        "{labels:?}"
    );
    assert!(
        items.iter().all(|p| !p.mandatory),
        "an activation is offered, not waited for"
    );
    assert!(
        !labels.iter().any(|l| l.contains("Assault")),
        "the Force's procedures are offered, not items: {labels:?}"
    );
    next(&mut game);
    assert_eq!(game.state().cursor.turn, 2);
    assert_eq!(step_id(&game), "phase_a_weather");
}

/// An activation contest counts for the Capitano the deciding player activates (the Activation
/// marker, applied with its result), not for the other, who remains eligible (7.2.2, L569); a
/// second actual activation brings the Force's Attrition (7.2, 8), which Next waits for.
#[test]
fn a_second_activation_holds_the_forces_attrition() {
    let mut game = game_of(
        "ailsh/s2_last_triumph_of_the_swiss_1513.yaml",
        "s2-act",
        &[],
    );

    resolve(&mut game, "weather", Some("fair"), &[]);
    next(&mut game);
    let french = force(&game, "fr-tremouille");
    let swiss = force(&game, "sw-novara");
    assert!(
        !french.is_empty() && !swiss.is_empty(),
        "{french:?} {swiss:?}"
    );
    let fr: Vec<&str> = french.iter().map(String::as_str).collect();
    let sw: Vec<&str> = swiss.iter().map(String::as_str).collect();
    contest(&mut game, &fr, &sw);
    let item_done = |game: &Game, force: &str| {
        game.pending()
            .iter()
            .any(|p| p.done && p.label.starts_with(force) && p.label.ends_with(": Activation"))
    };
    assert!(
        !item_done(&game, "Tremouille's Force"),
        "no Capitano activated until the marker is placed"
    );
    activate(&mut game, "tremouille");
    assert!(item_done(&game, "Tremouille's Force"));
    assert!(
        !game.pending().iter().any(|p| p.done
            && p.label.ends_with(": Activation")
            && !p.label.starts_with("Tremouille")),
        "the Swiss Capitano did not activate: he remains eligible"
    );
    contest(&mut game, &fr, &sw);
    activate(&mut game, "tremouille");
    let attrition: Vec<_> = game
        .pending()
        .into_iter()
        .filter(|p| p.label.contains("Attrition after a second activation"))
        .collect();
    assert_eq!(
        attrition.len(),
        1,
        "only Tremouille activated twice: {attrition:?}"
    );
    assert!(
        attrition[0].label.starts_with("Tremouille"),
        "{attrition:?}"
    );
    assert!(attrition.iter().all(|p| p.mandatory && !p.done));
    let refused = game
        .act(&Actor::umpire(), Action::Next)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("Attrition after a second activation"),
        "{refused}"
    );
    resolve_with(
        &mut game,
        "attrition",
        &[("trigger", "second_activation"), ("force_sp", "30")],
        Some(&["3"]),
        Some("0"),
        &[("force", &fr)],
    );
    let open: Vec<_> = game
        .pending()
        .into_iter()
        .filter(|p| p.mandatory && !p.done)
        .map(|p| p.label)
        .collect();
    assert!(open.is_empty(), "{open:?}");
}

/// The Activation marker placed on `capitano` (a counter id) by applying the last result.
fn activate(game: &mut Game, capitano: &str) {
    let of = game.events().len() as u64;
    game.act(
        &Actor::umpire(),
        Action::ApplyEffects {
            of,
            changes: vec![umpire_core::game::CounterChange::Status {
                counter: capitano.into(),
                status: "activated".into(),
                on: true,
            }],
        },
    )
    .expect("the Activation marker placed");
}

/// Forces in contact bring the Combat Phase: Intelligence, then Step 2 offering the kinds of
/// battle as branches; entering the Major Battle walks its steps, not the Skirmish's; and the
/// Attrition Segment holds one item per Force in contact.
#[test]
fn contact_brings_the_battle_steps_and_a_battle_is_a_branch() {
    let mut game = game_of(
        "ailsh/s2_last_triumph_of_the_swiss_1513.yaml",
        "s2-contact",
        &[],
    );

    resolve(&mut game, "weather", Some("fair"), &[]);
    next(&mut game);
    // Tremouille next to Novara (2611): 2610 is adjacent.
    move_force(&mut game, "fr-tremouille", "2610");
    next(&mut game);
    assert_eq!(step_id(&game), "d1_intelligence", "{:?}", game.pending());
    // Reveal what D.1 asks, then on.
    for p in game.pending() {
        if !p.done {
            game.act(
                &Actor::umpire(),
                Action::Skip {
                    item: p.key.clone(),
                    reason: "revealed at the table".into(),
                },
            )
            .expect("skip");
        }
    }
    next(&mut game);
    assert_eq!(step_id(&game), "battle_step_2");
    let offered: Vec<String> = game
        .pending()
        .iter()
        .filter(|p| p.enter.is_some())
        .map(|p| p.label.clone())
        .collect();
    assert!(
        offered.contains(
            &"Go to Major Battle (both Primi Capitani are Capitani Generali)".to_string()
        ),
        "{offered:?}"
    );
    assert!(
        !offered.iter().any(|o| o.contains("reduced version")),
        "18.9 is not in play: {offered:?}"
    );
    game.act(
        &Actor::umpire(),
        Action::Enter {
            step: "Major Battle (both Primi Capitani are Capitani Generali)".into(),
        },
    )
    .expect("enter the Major Battle");
    assert_eq!(step_id(&game), "step_3a");
    next(&mut game);
    assert_eq!(step_id(&game), "step_4a");
    let refused = game
        .act(
            &Actor::umpire(),
            Action::Enter {
                step: "Skirmish".into(),
            },
        )
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("offers no step to go to ('Skirmish'"),
        "{refused}"
    );
    for p in ["battle_initiative", "tactical_option"] {
        let key = game
            .pending()
            .into_iter()
            .find(|x| x.procedure.as_deref() == Some(p))
            .unwrap()
            .key;
        game.act(
            &Actor::umpire(),
            Action::Skip {
                item: key,
                reason: "test".into(),
            },
        )
        .unwrap();
    }
    // Through the battle: every stop is one of its steps, never the Skirmish's.
    let mut seen = Vec::new();
    while game.state().cursor.turn == 1 && step_id(&game) != "d5_attrition" {
        for p in game.pending() {
            if p.mandatory && !p.done {
                game.act(
                    &Actor::umpire(),
                    Action::Skip {
                        item: p.key,
                        reason: "test".into(),
                    },
                )
                .unwrap();
            }
        }
        next(&mut game);
        seen.push(step_id(&game));
        assert!(seen.len() < 30, "{seen:?}");
    }
    assert!(seen.contains(&"step_8a".to_string()), "{seen:?}");
    assert!(
        !seen.iter().any(|s| s.ends_with('b') || s.ends_with('c')),
        "{seen:?}"
    );
    let attrition: Vec<_> = game.pending().into_iter().filter(|p| p.mandatory).collect();
    assert_eq!(
        attrition.len(),
        2,
        "one per Force in contact: {attrition:?}"
    );
}

/// On an AP turn of the scenario's schedule the Administrative Segment applies; on another
/// turn it does not (Venice at bay).
#[test]
fn the_ap_step_applies_on_the_schedules_turns_only() {
    let game = game_of("ailsh/s1_venice_at_bay_1509.yaml", "s1-ap", &[]);
    let at = |turn: u32| umpire_core::game::Cursor {
        turn,
        step: game
            .steps()
            .iter()
            .position(|s| s.id == "b1a_receive_aps_remove_orders")
            .unwrap(),
    };
    let schedule_turns: Vec<u32> = game
        .scenario()
        .schedules
        .iter()
        .filter(|s| s.procedure.as_deref() == Some("administrative_points"))
        .flat_map(|s| s.turns.clone())
        .collect();
    assert_eq!(schedule_turns, [4, 8, 4, 8], "both armies' AP turns");
    assert!(game.walk().applies(&at(4)));
    assert!(game.walk().applies(&at(8)));
    for off in [1, 2, 3, 5] {
        assert!(
            !game.walk().applies(&at(off)),
            "turn {off} is not an AP turn"
        );
    }
}

/// An optional rule's steps apply only in a game that plays it: the Fate of the Capitano
/// (18.8) at the end of the scenario.
#[test]
fn an_optional_rules_step_applies_only_when_it_is_played() {
    let plain = game_of(
        "ailsh/s2_last_triumph_of_the_swiss_1513.yaml",
        "s2-plain",
        &[],
    );
    let with = game_of(
        "ailsh/s2_last_triumph_of_the_swiss_1513.yaml",
        "s2-188",
        &["18.8"],
    );
    let last = plain.scenario().turns;
    let fate = |g: &Game| umpire_core::game::Cursor {
        turn: last,
        step: g
            .steps()
            .iter()
            .position(|s| s.id == "end_of_scenario")
            .unwrap(),
    };
    assert!(!plain.walk().applies(&fate(&plain)));
    assert!(with.walk().applies(&fate(&with)));
    let dir = std::env::temp_dir().join(format!("umpire-walk-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = crate::root().join("scenarios/ailsh/s2_last_triumph_of_the_swiss_1513.yaml");
    let source = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).unwrap(),
    };
    let refused = Game::create_playing(
        &dir.join("g.umpire"),
        &source,
        library(),
        Some(1),
        &["19.1".into()],
    )
    .err()
    .expect("no rule 19.1")
    .to_string();
    assert!(
        refused.contains("no optional rule 19.1") && refused.contains("18.4 Interphase Turns"),
        "{refused}"
    );
}

/// Gradisca's Command markers (Rule 4.1): the draw waits while the container holds markers,
/// and Next from the activation goes round to the next draw until it is empty.
#[test]
fn the_command_cycle_goes_round_until_the_cup_is_empty() {
    let mut game = game_of("gradisca/war_of_gradisca_1615.yaml", "gradisca", &[]);
    let me = Actor::umpire();
    // Walk to the draw, filling the container with two markers on the way.
    let fill = Action::Deck {
        deck: "command_markers".into(),
        owner: None,
        op: umpire_core::game::DeckOp::Fill {
            items: vec![("Corps A".into(), 1), ("Corps B".into(), 1)],
        },
        reason: None,
    };
    game.act(&me, fill).expect("fill");
    for _ in 0..6 {
        if step_id(&game) == "draw_command" {
            break;
        }
        for p in game.pending() {
            if p.mandatory && !p.done {
                game.act(
                    &me,
                    Action::Skip {
                        item: p.key,
                        reason: "test".into(),
                    },
                )
                .unwrap();
            }
        }
        next(&mut game);
    }
    assert_eq!(step_id(&game), "draw_command");
    for round in 0..2 {
        let refused = game.act(&me, Action::Next).unwrap_err().to_string();
        assert!(refused.contains("Draw from"), "round {round}: {refused}");
        let draw = Action::Deck {
            deck: "command_markers".into(),
            owner: None,
            op: umpire_core::game::DeckOp::Draw {
                count: 1,
                typed: Vec::new(),
                side: None,
            },
            reason: None,
        };
        game.act(&me, draw).expect("draw");
        next(&mut game);
        assert_eq!(step_id(&game), "activate_areas", "round {round}");
        next(&mut game);
        if round == 0 {
            assert_eq!(
                step_id(&game),
                "draw_command",
                "one marker left: round again"
            );
        }
    }
    assert_ne!(step_id(&game), "draw_command", "the container is empty");
    assert_eq!(game.state().cursor.turn, 1);
}
