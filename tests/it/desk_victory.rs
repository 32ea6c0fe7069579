//! The victory facts at the desk (issue 45, item 3): a battle's result recorded at the step the
//! Sequence of Play offers it, a victory a side may declare at the Victory Phase, the end of the
//! game with the umpire's reason — and the result shown over the map. The positions are set up
//! through the command line as an umpire would, then the desk is driven through its labels.

use crate::kit;
use kit::{click, desk_at, labels_containing, type_into};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use umpire::app::{
    Command, DECLARE_LABEL, DRAW_LABEL, DeskApp, END_MENU_LABEL, END_NOW_LABEL, END_REASON_LABEL,
    HOLDS_LABEL, UiCommand, WON_BY_LABEL,
};
use umpire::game::{EventKind, VictoryFact};
use umpire::rules::Library;

use crate::facts::Table;

fn ended(harness: &Harness<'static, DeskApp>) -> Option<umpire::game::VictoryResult> {
    harness
        .state()
        .game
        .as_ref()
        .expect("a game is open")
        .game()
        .state()
        .ended
        .as_ref()
        .map(|(_, r)| r.clone())
}

/// "The last triumph of the Swiss": the Major Battle fought beside Novara, at its Step 10-a
/// the desk offers each side's win and a draw; "Won by the Swiss" ends the game (L1921) and
/// the result stands over the map.
#[test]
fn the_desk_records_a_battle_won_at_its_result_step_and_shows_the_result() {
    let table = Table::new("ailsh_2_last_triumph_of_the_swiss_1513", "desk-battle");
    table.enter_the_major_battle();
    // On entering the battle nothing is offered: its result comes at Step 10-a.
    let harness = desk_at(&table.game);
    assert!(
        labels_containing(&harness, WON_BY_LABEL).is_empty(),
        "{:?}",
        labels_containing(&harness, WON_BY_LABEL)
    );
    drop(harness);
    table.skip_to_step("step_10a");
    let mut harness = desk_at(&table.game);
    for side in ["Swiss", "French"] {
        assert!(
            harness
                .query_by_label(&format!("{WON_BY_LABEL} {side}"))
                .is_some(),
            "no '{WON_BY_LABEL} {side}': {:?}",
            labels_containing(&harness, WON_BY_LABEL)
        );
    }
    assert!(harness.query_by_label(DRAW_LABEL).is_some());
    click(&mut harness, &format!("{WON_BY_LABEL} Swiss"));
    harness.run();
    let result = ended(&harness).expect("the game ended");
    assert_eq!(
        result.winner.as_deref(),
        Some("swiss"),
        "{}",
        result.sentence
    );
    // Over the map: who won, and the sentence with its rule.
    let banner = labels_containing(&harness, "The game is over: The Swiss side wins");
    assert!(!banner.is_empty(), "no result over the map");
    assert!(
        !labels_containing(&harness, "The Swiss win").is_empty(),
        "{:?}",
        labels_containing(&harness, "Swiss")
    );
    // Nothing is left to resolve once the game is over.
    assert!(harness.query_by_label("Resolve Pursuit").is_none());
    // The journal holds the battle won, derived from this battle (the Major Battle).
    let events = harness
        .state()
        .game
        .as_ref()
        .expect("game")
        .game()
        .events()
        .to_vec();
    assert!(events.iter().any(|e| matches!(
        &e.kind,
        EventKind::Victory {
            fact: VictoryFact::BattleWon { side, battle, .. }
        } if side == "swiss" && battle == "major_battle"
    )));
}

/// "François I's first time, 1515": the French Force in Milano, no Swiss Force in the six
/// cities: at the Victory Phase the desk offers the French Standard Victory the French "may
/// declare at the end of any turn" (L2056–2058); declaring it ends the game. Undo reopens it,
/// and "End the game…" ends it with the umpire's reason instead.
#[test]
fn the_desk_declares_a_victory_at_the_victory_phase_and_ends_a_game_with_a_reason() {
    let table = Table::new("ailsh_3_francois_first_time_1515", "desk-declare");
    table.run("move", &["Swiss Minor Capitano's Force", "2540"]);
    table.run("move", &["Schiner's Force", "2540"]);
    table.run("move", &["François I's Force", "2624"]);
    for city in ["Parma", "Piacenza"] {
        table.run("control", &[city, "--side", "Anti-French Coalition"]);
    }
    // Before the Victory Phase nothing may be declared.
    let harness = desk_at(&table.game);
    assert!(labels_containing(&harness, DECLARE_LABEL).is_empty());
    drop(harness);
    table.walk_to(1, "E) Victory Phase");
    let mut harness = desk_at(&table.game);
    let declare = format!("{DECLARE_LABEL} French Standard Victory");
    assert!(
        harness.query_by_label(&declare).is_some(),
        "{:?}",
        labels_containing(&harness, "Victory")
    );
    click(&mut harness, &declare);
    harness.run();
    let result = ended(&harness).expect("declared: the game ended");
    assert_eq!(result.winner.as_deref(), Some("french_coalition"));
    assert_eq!(result.level.as_deref(), Some("Standard Victory"));
    assert!(
        !labels_containing(&harness, "— Standard Victory").is_empty(),
        "{:?}",
        labels_containing(&harness, "Victory")
    );
    // Undo reopens the game; the umpire ends it instead, with a reason.
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Ui(UiCommand::Undo));
    harness.run();
    harness.run();
    assert!(ended(&harness).is_none(), "undo reopened the game");
    click(&mut harness, END_MENU_LABEL);
    type_into(&mut harness, END_REASON_LABEL, "the players stop at turn 1");
    click(&mut harness, END_NOW_LABEL);
    harness.run();
    let result = ended(&harness).expect("ended by the umpire");
    assert!(
        result
            .reasons
            .iter()
            .any(|r| r.contains("Ended by the umpire: the players stop at turn 1")),
        "{:?}",
        result.reasons
    );
    assert!(!labels_containing(&harness, "The game is over").is_empty());
}

/// "Venice at bay, 1509" played to its last stop (Weather read off the chart, APs credited,
/// the rest skipped as fought at the table): the end would leave the Venetian Standard Victory
/// to the umpire (L1761), so the desk asks before Next may end the game; "It holds" records the
/// judgement, and Next then ends the game with the Venetian win.
#[test]
fn the_desk_asks_the_umpires_judgement_before_the_game_ends() {
    let dir = std::env::temp_dir().join(format!("umpire-desk-judge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("game.umpire");
    let mut game = kit::venice(&path);
    walk_until_the_end_asks(&mut game);
    drop(game);
    let mut harness = desk_at(&path);
    assert!(
        !labels_containing(&harness, "Before the game ends: Venetian Standard Victory").is_empty()
    );
    // Next is refused while it is open: the game does not end "not decided" by itself.
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Ui(UiCommand::Next));
    harness.run();
    assert!(ended(&harness).is_none());
    // The refusal's message moved the checklist down: let the scroll settle, then click.
    harness.get_by_label(HOLDS_LABEL).scroll_to_me();
    harness.run();
    click(&mut harness, HOLDS_LABEL);
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Ui(UiCommand::Next));
    harness.run();
    harness.run();
    let result = ended(&harness).unwrap_or_else(|| {
        panic!(
            "the game did not end: {:?}",
            harness.state().game.as_ref().and_then(|g| g.message())
        )
    });
    assert_eq!(
        result.winner.as_deref(),
        Some("venetian"),
        "{}",
        result.sentence
    );
    assert!(
        !labels_containing(&harness, "Venetian — Standard Victory").is_empty(),
        "{:?}",
        labels_containing(&harness, "Venetian")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays the game to the stop where the end asks the umpire for what it would leave undecided
/// (the Weather read off the chart, APs credited, the rest skipped as fought at the table).
fn walk_until_the_end_asks(game: &mut umpire::game::Game) {
    use umpire::game::{Action, Actor};
    let me = Actor::umpire();
    let needed = |g: &umpire::game::Game| {
        g.pending()
            .into_iter()
            .any(|p| p.key.starts_with("victory:needed:") && !p.done)
    };
    for _ in 0..400 {
        let open = game
            .pending()
            .into_iter()
            .filter(|p| p.mandatory && !p.done && !p.key.starts_with("victory:needed:"));
        for p in open {
            let action = if p.credit.is_some() {
                Action::Credit { item: p.key }
            } else if p.procedure.as_deref() == Some("weather") {
                Action::Resolve {
                    procedure: "weather".into(),
                    inputs: Vec::new(),
                    physical: Some(vec!["2".into()]),
                    chart_result: Some("fair".into()),
                    chart_confirmed: true,
                    counters: Default::default(),
                    item: None,
                }
            } else {
                Action::Skip {
                    item: p.key,
                    reason: "fought at the table".into(),
                }
            };
            game.act(&me, action).expect("the walk");
        }
        if needed(game) {
            break;
        }
        game.act(&me, Action::Next).expect("next");
    }
    assert!(needed(game), "the end never asked");
    assert_eq!(game.state().cursor.turn, game.scenario().turns);
}

/// "The French lose the Duchy, 1522" played to its last stop: the Victory Points at the end
/// need six places the text does not say are Towns or Cities (L2355); the desk offers Town and
/// City for each under the item, and a click records the umpire's reading of the map.
#[test]
fn the_desk_records_a_place_kind_the_end_needs() {
    let dir = std::env::temp_dir().join(format!("umpire-desk-kind-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("game.umpire");
    let mut game = umpire::game::Game::create(
        &path,
        &kit::scenario("s4_french_lose"),
        &Library::shipped(),
        Some(4),
    )
    .expect("the game starts");
    walk_until_the_end_asks(&mut game);
    drop(game);
    let mut harness = desk_at(&path);
    assert!(
        !labels_containing(&harness, "Alessandria:").is_empty(),
        "{:?}",
        labels_containing(&harness, "Before the game ends")
    );
    // The first place's Town (Alessandria's, in the order the text lists them).
    harness
        .get_all_by_label("Town")
        .next()
        .expect("Town")
        .click();
    harness.run();
    harness.run();
    let kinds = harness
        .state()
        .game
        .as_ref()
        .expect("game")
        .game()
        .state()
        .place_kinds
        .clone();
    assert_eq!(
        kinds.get("Alessandria").map(|(k, _)| *k),
        Some(umpire::rules::PlaceKind::Town),
        "{kinds:?}"
    );
    assert!(
        labels_containing(&harness, "Alessandria:").is_empty(),
        "given once"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// "Struggle for the Duchy of Milano, 1524": Lannoy, De Leyva, Del Vasto and their units have no
/// hex ("set up anywhere in the Duchy of Milano east of the Tesino", L2640): the desk's first
/// step lists them as a mandatory item to set up.
#[test]
fn the_desk_asks_for_the_forces_the_text_gives_no_hex() {
    let dir = std::env::temp_dir().join(format!("umpire-desk-setup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("game.umpire");
    let game = umpire::game::Game::create(
        &path,
        &kit::scenario("s5_struggle"),
        &Library::shipped(),
        Some(5),
    )
    .expect("the game starts");
    drop(game);
    let harness = desk_at(&path);
    let items = labels_containing(&harness, "Set up ");
    assert!(
        items
            .iter()
            .any(|l| l.contains("Lannoy") && l.contains("east of Tesino")),
        "{items:?}"
    );
    // The set-up comes first: nothing else is played before the counters are on the map.
    let first = harness
        .state()
        .game
        .as_ref()
        .expect("a game")
        .game()
        .pending()
        .into_iter()
        .next()
        .expect("items");
    assert_eq!(first.key, "setup:im-duchy", "{}", first.label);
    let _ = std::fs::remove_dir_all(&dir);
}
