//! Helpers shared by the desk tests (egui_kittest): drive the desk through its AccessKit labels
//! as a person would. (Each test crate uses a subset.)
#![allow(dead_code)]

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use umpire::game::CounterId;

use umpire::app::{DeskApp, GameDesk, ProcedureDesk};
use umpire::game::scenario::shipped_scenarios;
use umpire::rules::{Library, SourceFile};

/// Scrolls to the field labelled `label`, clicks it and types `text` into it.
pub fn type_into(harness: &mut Harness<'static, DeskApp>, label: &str, text: &str) {
    harness.get_by_label(label).scroll_to_me();
    harness.run();
    harness.get_by_label(label).click();
    harness.run();
    harness.get_by_label(label).set_text_value_accesskit(text);
    harness.run();
}

/// Scrolls to the widget labelled `label` and clicks it.
pub fn click(harness: &mut Harness<'static, DeskApp>, label: &str) {
    harness.get_by_label(label).scroll_to_me();
    harness.run();
    harness.get_by_label(label).click();
    harness.run();
}

/// Texts of the labels that contain `text`.
pub fn labels_containing(harness: &Harness<'static, DeskApp>, text: &str) -> Vec<String> {
    harness
        .query_all_by_label_contains(text)
        .filter_map(|n| {
            let node = n.accesskit_node();
            if node.role() == Role::Label {
                node.value()
            } else {
                node.label()
            }
        })
        .collect()
}

/// The shipped scenario whose file name contains `name_part`.
pub fn scenario(name_part: &str) -> SourceFile {
    shipped_scenarios()
        .into_iter()
        .find(|f| f.name.contains(name_part))
        .unwrap_or_else(|| panic!("no shipped scenario {name_part}"))
}

/// A new game of "Venice at bay, 1509" in a game file at `path`, on the seed 1509.
pub fn venice(path: &std::path::Path) -> umpire::game::Game {
    umpire::game::Game::create(
        path,
        &scenario("s1_venice"),
        &Library::shipped(),
        Some(1509),
    )
    .expect("the game starts")
}

/// Turn 1 of "Venice at bay, 1509" as an umpire plays it (the project's example turn): the
/// APs at start credited, the Weather read off the chart, Orders unchanged, Chaumont's Force
/// moving from Cassano (2832) to 2833 beside Vitelli, the Intelligence reveals, a Skirmish on
/// the Assault Table and the loser's Discipline Check with the results read off the chart and
/// applied, every other mandatory item skipped with its reason, until turn 2 begins.
pub fn venice_turn_one(path: &std::path::Path) -> umpire::game::Game {
    venice_turn_one_until(path, "")
}

/// Turn 1 of "Venice at bay, 1509" played as [`venice_turn_one`] plays it, stopped on
/// arriving at the step `stop` (its id; nothing done there yet), or at turn 2.
pub fn venice_turn_one_until(path: &std::path::Path, stop: &str) -> umpire::game::Game {
    use umpire::game::scenario::Position;
    use umpire::game::{Action, Actor, CounterChange, Game, Refusal};
    let mut game = venice(path);
    let umpire_actor = Actor::umpire();
    let act = |game: &mut Game, action: Action| {
        game.act(&umpire_actor, action)
            .unwrap_or_else(|e| panic!("the example turn: {e}"))
    };
    let resolve = |procedure: &str,
                   inputs: &[(&str, &str)],
                   roll: &str,
                   chart: Option<&str>,
                   counters: &[(&str, &[&str])]| Action::Resolve {
        procedure: procedure.into(),
        inputs: inputs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        physical: Some(vec![roll.to_string()]),
        chart_result: chart.map(str::to_string),
        // Read off the umpire's own chart (the Assault Table is not in the text).
        chart_confirmed: chart.is_some(),
        counters: counters
            .iter()
            .map(|(role, ids)| {
                (
                    role.to_string(),
                    ids.iter().map(|i| CounterId::from(*i)).collect(),
                )
            })
            .collect(),
        item: None,
    };
    const CHAUMONT: [&str; 4] = [
        "chaumont",
        "fr-chaumont-french-gendarmes-1",
        "fr-chaumont-italian-infantry-french-service-1",
        "fr-chaumont-italian-infantry-french-service-2",
    ];
    const VITELLI: [&str; 3] = [
        "vitelli",
        "ve-vitelli-italian-infantry-venetian-service-1",
        "ve-vitelli-stradiots-light-cavalry-1",
    ];
    while game.status().turn == 1 {
        let step = game.status().step.id;
        if step == stop {
            break;
        }
        match step.as_str() {
            "phase_a_weather" => {
                act(&mut game, resolve("weather", &[], "4", Some("fair"), &[]));
            }
            "c2b_activate" => {
                for c in CHAUMONT {
                    act(
                        &mut game,
                        Action::Move {
                            counter: c.into(),
                            to: Position::Hex("2833".into()),
                        },
                    );
                }
            }
            "d1_intelligence" => {
                if let Some(reveal) = umpire::game::side::reveals_action(&game) {
                    act(&mut game, reveal);
                }
            }
            // Chaumont attacks Vitelli's hex: a Skirmish, the branch Step 2 offers.
            "battle_step_2" => {
                act(
                    &mut game,
                    Action::Enter {
                        step: "skirmish".into(),
                    },
                );
            }
            "step_4b" => {
                act(
                    &mut game,
                    resolve(
                        "assault",
                        &[
                            ("battle", "skirmish"),
                            ("attacker_q3_sp", "6"),
                            ("attacker_q2_sp", "12"),
                            ("defender_q2_sp", "2"),
                            ("defender_q1_sp", "1"),
                            ("weather", "fair"),
                            ("odds_drm", "2"),
                            ("attacker_force_sp", "18"),
                            ("defender_force_sp", "3"),
                        ],
                        "5",
                        Some("D1"),
                        &[("attacker", &CHAUMONT[1..]), ("defender", &VITELLI[1..])],
                    ),
                );
                act(
                    &mut game,
                    resolve(
                        "discipline_check",
                        &[
                            ("reason", "combat"),
                            ("troop_quality", "2"),
                            ("reliability", "S"),
                        ],
                        "3",
                        Some("D"),
                        &[("unit", &VITELLI[1..2])],
                    ),
                );
                act(
                    &mut game,
                    Action::Change {
                        changes: vec![
                            CounterChange::Adjust {
                                counter: VITELLI[1].into(),
                                attribute: "strength_points".into(),
                                by: -1,
                            },
                            CounterChange::Status {
                                counter: VITELLI[1].into(),
                                status: "disrupted".into(),
                                on: true,
                            },
                        ],
                        reason: "Assault result D1 and Discipline result D, read off the charts"
                            .into(),
                    },
                );
            }
            _ => {}
        }
        for p in game.status().pending {
            if p.done {
                continue;
            }
            if p.credit.is_some() {
                act(
                    &mut game,
                    Action::Credit {
                        item: p.key.clone(),
                    },
                );
            } else if p.mandatory {
                act(
                    &mut game,
                    Action::Skip {
                        item: p.key.clone(),
                        reason: "nothing to resolve this turn".into(),
                    },
                );
            }
        }
        match game.act(&umpire_actor, Action::Next) {
            Ok(_) => {}
            Err(umpire::game::GameError::Refused(Refusal::ScenarioEnds { .. })) => break,
            Err(e) => panic!("the example turn: {e}"),
        }
    }
    game
}

/// The desk on `game`, in a 1400×1000 window, its app dice on seed 1.
pub fn desk_on(game: GameDesk) -> Harness<'static, DeskApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), game)
        });
    harness.run();
    harness
}

/// The desk opened on the game file at `path`, as the umpire opens it.
pub fn desk_at(path: impl AsRef<std::path::Path>) -> Harness<'static, DeskApp> {
    desk_on(GameDesk::open(path.as_ref(), &Library::shipped()).expect("the game opens"))
}
