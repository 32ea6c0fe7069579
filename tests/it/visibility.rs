//! Hidden information by the rules (`game::visibility`, each ruleset's `visibility:` section):
//! on "Venice at bay, 1509" a Venetian report, `game status --side venetian` and the desk's side
//! view keep a French Force's composition and its Order to themselves until the rules reveal
//! them (D.1 Intelligence with the Forces adjacent; a Retreat Order on the map), show a
//! face-down Capitano by its presence only, and show an open Discipline result to both sides; a
//! megagame team sees its own ledgers only. Plus the schema's located errors.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::game::CounterId;

use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use lopdf::Document;

use crate::kit::{click, labels_containing, scenario, type_into};
use umpire::app::{DeskApp, FIND_COUNTER_LABEL, GameDesk, ProcedureDesk, SEEN_BY_PREFIX};
use umpire::game::scenario::Position;
use umpire::game::side::{SideStatus, reveals_action, reveals_now};
use umpire::game::visibility::{self, SideView, Sight, SightLevel, hex_neighbours};
use umpire::game::{Action, Actor, Game};
use umpire::report::{ReportOptions, Template, turn_report_pdf};
use umpire::rules::{Library, RulesetFiles, SourceFile, load_ruleset};

// ── Helpers: every game is made and acted on through these two, so a change to `Game::act`'s
// signature is a one-line fix. ────────────────────────────────────────────────────────────────

fn new_game(name: &str, scenario_part: &str) -> (Game, PathBuf) {
    let dir = std::env::temp_dir().join(format!("umpire-vis-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join("game.umpire");
    let game = Game::create(
        &path,
        &scenario(scenario_part),
        &Library::shipped(),
        Some(1509),
    )
    .expect("the game starts");
    (game, path)
}

fn act(game: &mut Game, action: Action) -> Vec<u64> {
    let what = format!("{action:?}");
    game.act(&Actor::umpire(), action)
        .unwrap_or_else(|e| panic!("{what} refused: {e}"))
}

// ── Small steps of play ─────────────────────────────────────────────────────────────────────

const CHAUMONT_FORCE: [&str; 4] = [
    "chaumont",
    "fr-chaumont-french-gendarmes-1",
    "fr-chaumont-italian-infantry-french-service-1",
    "fr-chaumont-italian-infantry-french-service-2",
];

fn move_to(game: &mut Game, counters: &[&str], hex: &str) {
    for c in counters {
        act(
            game,
            Action::Move {
                counter: c.to_string().into(),
                to: Position::Hex(hex.into()),
            },
        );
    }
}

fn set(game: &mut Game, counter: &str, attribute: &str, value: &str) {
    act(
        game,
        Action::SetAttribute {
            counter: counter.into(),
            attribute: attribute.into(),
            value: value.into(),
            seen: umpire::game::Seen::Unchecked,
        },
    );
}

fn mark(game: &mut Game, counter: &str, status: &str, on: bool) {
    act(
        game,
        Action::SetStatus {
            counter: counter.into(),
            status: status.into(),
            on,
        },
    );
}

/// Steps the Sequence of Play to a step, skipping (with a reason) what is mandatory on the way.
fn step_to(game: &mut Game, step_id: &str) {
    for _ in 0..60 {
        let here = &game.steps()[game.state().cursor.step];
        if here.id == step_id {
            return;
        }
        for p in game.pending() {
            if p.mandatory && !p.done {
                act(
                    game,
                    Action::Skip {
                        item: p.key.clone(),
                        reason: "not under test".into(),
                    },
                );
            }
        }
        act(game, Action::Next);
    }
    panic!("never reached {step_id}");
}

/// Records the reveals due at this step (as the desk and `game reveal-contacts` do): one entry;
/// returns how many status changes it made.
fn reveal_contacts(game: &mut Game) -> usize {
    let n = reveals_now(game).len();
    let action = reveals_action(game).expect("reveals due");
    assert_eq!(act(game, action).len(), 1, "one journal entry");
    n
}

/// Chaumont's Force next to Vitelli's (2834), with a fresh Order on Chaumont's Card.
fn french_in_contact(name: &str) -> (Game, PathBuf) {
    let (mut game, path) = new_game(name, "s1_venice");
    move_to(&mut game, &CHAUMONT_FORCE, "2833");
    set(&mut game, "chaumont", "order", "stand");
    (game, path)
}

// ── Reading what a side gets ────────────────────────────────────────────────────────────────

fn report_text(game: &Game, side: Option<&str>) -> String {
    let options = ReportOptions {
        turn: None,
        side: side.map(str::to_string),
        printed_at: chrono::Local::now(),
    };
    let bytes = turn_report_pdf(game, &options, Template::sheet_default().expect("template"))
        .expect("report");
    let doc = Document::load_mem(&bytes).expect("the PDF parses");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text = doc.extract_text(&pages).expect("text extracts");
    // Cells wrap: compare with white space folded.
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn umpire(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--no-user-rules")
        .args(args)
        .output()
        .expect("umpire runs");
    assert!(
        out.status.success(),
        "umpire {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn status_text(path: &Path, side: &str) -> String {
    umpire(&[
        "game",
        "status",
        path.to_str().expect("utf-8 path"),
        "--side",
        side,
    ])
}

fn status_json(path: &Path, side: &str) -> serde_json::Value {
    let out = umpire(&[
        "game",
        "status",
        path.to_str().expect("utf-8 path"),
        "--side",
        side,
        "--json",
    ]);
    serde_json::from_str(&out).expect("json")
}

/// Each journal entry's sight for a side.
fn sights(game: &Game, side: &str) -> Vec<visibility::EntrySight> {
    SideView::new(game.ruleset(), game.scenario(), side)
        .expect("side")
        .journal(game.events())
        .expect("journal")
}

/// The text holds none of the secrets as a word of its own ("Stand", the Order, is not in
/// "Standard Victory").
fn assert_lacks(text: &str, secrets: &[&str], what: &str) {
    for s in secrets {
        let as_word = text.match_indices(s).any(|(i, _)| {
            let after = text[i + s.len()..].chars().next();
            !after.is_some_and(char::is_alphanumeric)
        });
        assert!(!as_word, "{what} shows {s:?}:\n{text}");
    }
}

fn assert_has(text: &str, needles: &[&str], what: &str) {
    for s in needles {
        assert!(text.contains(s), "{what} lacks {s:?}:\n{text}");
    }
}

/// What gives a French Force away: its units' names and strengths, and its Order.
const COMPOSITION: [&str; 2] = ["French Gendarmes", "Italian Infantry (French service"];

// ── ailsh ───────────────────────────────────────────────────────────────────────────────────

#[test]
fn a_french_force_and_its_order_stay_concealed_from_venice_until_d1_reveals_them() {
    let (mut game, path) = french_in_contact("d1");

    // Before contact is declared: Chaumont by name and place, nothing of his Card.
    let report = report_text(&game, Some("venetian"));
    assert_has(
        &report,
        &["report for Venetian", "Chaumont", "hex 2833"],
        "the report",
    );
    assert_lacks(&report, &COMPOSITION, "the Venetian report before D.1");
    assert_lacks(
        &report,
        &["Order Attack → Stand", "Stand", "stand"],
        "the Venetian report",
    );
    let status = status_text(&path, "venetian");
    assert_has(
        &status,
        &["as seen by Venetian", "Chaumont", "hex 2833"],
        "status",
    );
    assert_lacks(&status, &COMPOSITION, "status --side venetian before D.1");
    assert_lacks(&status, &["stand"], "status --side venetian");
    let json = status_json(&path, "venetian");
    let counters = json["counters"].as_array().expect("counters");
    let chaumont = counters
        .iter()
        .find(|c| c["label"] == "Chaumont")
        .expect("Chaumont is seen");
    assert_eq!(chaumont["level"], "identity");
    assert!(chaumont["attributes"].get("order").is_none(), "{chaumont}");
    assert!(
        !counters
            .iter()
            .any(|c| c["id"] == "fr-chaumont-french-gendarmes-1"),
        "the Gendarmes on Chaumont's Card are not listed"
    );
    // The French see their own Force whole.
    let french = status_text(&path, "french");
    assert_has(
        &french,
        &["French Gendarmes", "Order Stand"],
        "the French status",
    );

    // D) 1. Intelligence: the Forces in contact must be revealed before the phase goes on.
    step_to(&mut game, "d1_intelligence");
    let due = game
        .pending()
        .into_iter()
        .find(|p| p.key.starts_with("reveal:"))
        .expect("D.1 offers the reveal");
    assert!(due.mandatory && !due.done, "{due:?}");
    assert!(
        !COMPOSITION.iter().any(|c| due.label.contains(c)) && !due.label.contains("Chaumont"),
        "the checklist names no counter: {}",
        due.label
    );
    assert!(
        game.act(&Actor::umpire(), Action::Next).is_err(),
        "Next waits for the reveal"
    );
    // Both Forces in contact: Chaumont's four counters and Vitelli's three.
    assert_eq!(reveal_contacts(&mut game), 7);
    assert!(
        game.pending()
            .iter()
            .any(|p| p.key.starts_with("reveal:") && p.done)
    );

    // Now the composition shows, with strengths; the Order is still on the Card (5.2).
    let report = report_text(&game, Some("venetian"));
    assert_has(&report, &COMPOSITION, "the Venetian report after D.1");
    assert_lacks(&report, &["stand"], "the Venetian report after D.1");
    let status = status_text(&path, "venetian");
    assert_has(
        &status,
        &["French Gendarmes", "Strength Points (current) 6", "in full"],
        "status after D.1",
    );
    assert_lacks(&status, &["stand"], "status after D.1");

    // A Retreat Order is placed near the Capitano on the map: it shows.
    set(&mut game, "chaumont", "order", "retreat");
    let status = status_text(&path, "venetian");
    let line = status
        .lines()
        .find(|l| l.contains("Chaumont"))
        .expect("Chaumont's line");
    assert!(line.contains("Order Retreat"), "{line}");

    // The umpire's report holds everything.
    let umpires = report_text(&game, None);
    assert_has(&umpires, &COMPOSITION, "the umpire's report");
    assert_has(
        &umpires,
        &[
            "Chaumont: Order Attack → Stand",
            "Chaumont: Order Stand → Retreat",
        ],
        "the umpire's report",
    );
}

#[test]
fn under_the_other_ruling_a_composition_shows_only_while_in_contact() {
    let (mut game, _path) = french_in_contact("ruling");
    step_to(&mut game, "d1_intelligence");
    reveal_contacts(&mut game);
    let stays = game.ruleset().clone();
    let contact = stays
        .with_rulings(&[(
            "revealed_composition".to_string(),
            "while_in_contact".to_string(),
        )])
        .expect("the ruling exists");
    let gendarmes = "fr-chaumont-french-gendarmes-1";
    // Chaumont's Force pulls back out of contact (the umpire moves it; the rules of movement
    // are not what is under test here).
    let mut away = game.state().clone();
    for c in CHAUMONT_FORCE {
        if let Some(x) = away.counters.get_mut(c) {
            x.position = Position::Hex("2830".into());
        }
    }
    let level = |rs: &umpire::rules::Ruleset, state| {
        SideView::new(rs, game.scenario(), "venetian")
            .expect("side")
            .at(state)
            .level(gendarmes)
    };
    assert_eq!(level(&stays, game.state()), SightLevel::Full);
    assert_eq!(level(&contact, game.state()), SightLevel::Full);
    assert_eq!(level(&stays, &away), SightLevel::Full, "stays known");
    assert_eq!(
        level(&contact, &away),
        SightLevel::Hidden,
        "out of contact, concealed again"
    );
}

#[test]
fn a_face_down_capitano_shows_by_its_presence_only_until_turned_face_up() {
    let (mut game, path) = new_game("face-down", "s1_venice");
    // Louis XII drops Imbault off face down (6.3), next to Vitelli's Force at 2834.
    mark(&mut game, "imbault", "hidden", true);
    set(&mut game, "imbault", "role", "primo_capitano");
    move_to(&mut game, &["imbault"], "2935");

    let status = status_text(&path, "venetian");
    let line = status
        .lines()
        .find(|l| l.contains("a face-down Capitano (French)"))
        .unwrap_or_else(|| panic!("the face-down Capitano is shown:\n{status}"));
    assert!(
        line.contains("hex 2935") && line.contains("presence only"),
        "{line}"
    );
    assert_lacks(&status, &["Imbault"], "status --side venetian");
    let json = status_json(&path, "venetian");
    let seen = json["counters"]
        .as_array()
        .expect("counters")
        .iter()
        .find(|c| c["level"] == "presence")
        .expect("a counter seen by presence");
    assert!(seen.get("id").is_none(), "no id gives it away: {seen}");
    assert_eq!(seen["label"], "a face-down Capitano (French)");
    let report = report_text(&game, Some("venetian"));
    assert_has(
        &report,
        &["a face-down Capitano (French) moved from hex 2728 to hex 2935"],
        "the Venetian report",
    );
    assert_lacks(&report, &["Imbault"], "the Venetian report");
    assert_has(
        &report_text(&game, Some("french")),
        &["Imbault"],
        "the French report",
    );

    // D.1: adjacent to an enemy Force, it is turned face up (and stays visible).
    step_to(&mut game, "d1_intelligence");
    reveal_contacts(&mut game);
    let imbault = &game.state().counters["imbault"];
    assert!(!imbault.statuses.contains("hidden") && imbault.statuses.contains("revealed"));
    let status = status_text(&path, "venetian");
    assert_has(&status, &["Imbault"], "status after D.1");
    assert_lacks(&status, &["face-down"], "status after D.1");
}

#[test]
fn an_open_discipline_result_is_seen_by_both_sides_and_an_order_cost_is_not() {
    let (mut game, path) = new_game("discipline", "s1_venice");
    let unit = |id: &str| -> BTreeMap<String, Vec<CounterId>> {
        [("unit".to_string(), vec![CounterId::from(id)])].into()
    };
    let check = act(
        &mut game,
        Action::Resolve {
            procedure: "discipline_check".into(),
            inputs: vec![
                ("reason".into(), "combat".into()),
                ("troop_quality".into(), "3".into()),
                ("reliability".into(), "S".into()),
            ],
            physical: Some(vec!["4".into()]),
            chart_result: Some("D".into()),
            chart_confirmed: false,
            counters: unit("fr-chaumont-french-gendarmes-1"),
            item: None,
        },
    );
    let seen = sights(&game, "venetian");
    let sight = &seen
        .iter()
        .find(|s| s.seq == check[0])
        .expect("judged")
        .sight;
    let Sight::Summary(lines) = sight else {
        panic!("an open result is summarised for the other side: {sight:?}")
    };
    let text = lines.join(" | ");
    assert!(
        text.starts_with("Discipline Check (one Combat Unit's column): D"),
        "{text}"
    );
    assert!(text.contains("d6: [4] = 4"), "the die is open: {text}");
    assert!(
        text.contains("French Gendarmes"),
        "the players say which unit: {text}"
    );
    assert!(!text.contains("troop quality"), "inputs stay: {text}");
    assert_eq!(
        sights(&game, "french")[check[0] as usize - 1].sight,
        Sight::Open
    );
    let report = report_text(&game, Some("venetian"));
    assert_has(
        &report,
        &[
            "Discipline Check (one Combat Unit's column): D",
            "French Gendarmes",
        ],
        "the Venetian report",
    );
    assert_has(
        &report_text(&game, Some("french")),
        &["Troop Quality (read in the Combat Phase) = 3"],
        "the French report (whole)",
    );
    // Yet the Gendarmes stay off the Venetian list of forces: naming a unit is not revealing
    // the Force.
    let status = status_text(&path, "venetian");
    assert_lacks(&status, &["French Gendarmes"], "status --side venetian");

    // An Order's AP cost is the French player's business.
    let cost = act(
        &mut game,
        Action::Resolve {
            procedure: "order_cost".into(),
            inputs: vec![
                ("force".into(), "minor".into()),
                ("order".into(), "stand".into()),
            ],
            physical: None,
            chart_result: Some("1".into()),
            chart_confirmed: false,
            counters: [("force".to_string(), vec![CounterId::from("chaumont")])].into(),
            item: None,
        },
    );
    assert_eq!(
        sights(&game, "venetian")[cost[0] as usize - 1].sight,
        Sight::Hidden
    );
    // And an undo of it, too.
    let undo = act(&mut game, Action::Undo);
    assert_eq!(
        sights(&game, "venetian")[undo[0] as usize - 1].sight,
        Sight::Hidden
    );
    let undo = act(&mut game, Action::Undo);
    let seen = sights(&game, "venetian");
    assert!(
        matches!(&seen[undo[0] as usize - 1].sight, Sight::Summary(l) if l[0].contains("undone")),
        "{:?}",
        seen[undo[0] as usize - 1]
    );
}

// ── rr3 ─────────────────────────────────────────────────────────────────────────────────────

#[test]
fn a_megagame_team_sees_its_own_ledgers_only() {
    let (mut game, path) = new_game("rr3", "handbook_1524");
    let adjust = |counter: &str, reason: &str| Action::Adjust {
        counter: counter.into(),
        attribute: "treasury".into(),
        by: 3,
        reason: reason.into(),
    };
    let ledgers: Vec<String> = game
        .state()
        .counters
        .values()
        .filter(|c| c.kind == umpire::game::scenario::CounterKind::State)
        .map(|c| c.id.clone())
        .collect();
    assert!(ledgers.contains(&"state-france".to_string()), "{ledgers:?}");
    assert!(
        ledgers.contains(&"state-england".to_string()),
        "{ledgers:?}"
    );
    act(&mut game, adjust("state-france", "Subsidy card Normandy"));
    act(&mut game, adjust("state-england", "Exaction Kent revenue"));

    let status = SideStatus::of(&game, "france").expect("team");
    let seen: Vec<&str> = status.counters.iter().map(|c| c.id.as_str()).collect();
    assert!(seen.contains(&"state-france"), "{seen:?}");
    for other in ledgers.iter().filter(|l| *l != "state-france") {
        assert!(
            !seen.contains(&other.as_str()),
            "France sees {other}: {seen:?}"
        );
    }
    let report = report_text(&game, Some("france"));
    assert_has(&report, &["Subsidy card Normandy"], "France's report");
    assert_lacks(&report, &["Exaction Kent revenue"], "France's report");
    let json = status_json(&path, "france");
    assert!(json["counters"].as_array().expect("counters").len() < game.state().counters.len());
}

// ── The declarations ────────────────────────────────────────────────────────────────────────

#[test]
fn every_shipped_ruleset_declares_what_a_side_sees_by_rule_number() {
    let lib = Library::shipped();
    for id in ["ailsh", "rr3", "qrs", "arquebus", "gradisca"] {
        let rs = lib.get(id).unwrap_or_else(|| panic!("{id} loads"));
        let vis = &rs.visibility;
        assert!(vis.declared, "{id} declares its visibility");
        let rules = vis
            .counters
            .iter()
            .map(|c| &c.from)
            .chain(vis.attributes.iter().map(|a| &a.from))
            .chain(vis.open_results.iter().map(|o| &o.from))
            .chain(vis.reveals.iter().map(|r| &r.from));
        for from in rules {
            assert!(
                !from.rule.starts_with('L'),
                "{id}: {} is a line, not a rule number",
                from.rule
            );
        }
    }
    let ailsh = lib.get("ailsh").expect("ailsh");
    let refs: Vec<&str> = ailsh
        .visibility
        .counters
        .iter()
        .map(|c| c.from.rule.as_str())
        .chain(
            ailsh
                .visibility
                .attributes
                .iter()
                .map(|a| a.from.rule.as_str()),
        )
        .chain(
            ailsh
                .visibility
                .reveals
                .iter()
                .map(|r| r.from.rule.as_str()),
        )
        .collect();
    for r in ["1.4", "2.1", "D.1", "5.2"] {
        assert!(refs.contains(&r), "ailsh cites {r}: {refs:?}");
    }
}

#[test]
fn hex_neighbours_follow_the_desks_layout() {
    let mut even = hex_neighbours("2834").expect("a hex id");
    even.sort();
    // An even column sits half a hex lower than its odd neighbours.
    assert_eq!(even, ["2734", "2735", "2833", "2835", "2934", "2935"]);
    let mut odd = hex_neighbours("2733").expect("a hex id");
    odd.sort();
    assert_eq!(odd, ["2632", "2633", "2732", "2734", "2832", "2833"]);
    assert!(hex_neighbours("Picardy").is_none());
    let (game, _) = new_game("sides", "s1_venice");
    let err = SideView::new(game.ruleset(), game.scenario(), "venice").expect_err("no such side");
    assert!(err.contains("french, venetian"), "{err}");
}

// ── Located errors of the schema ────────────────────────────────────────────────────────────

const BASE: &str = r#"id: vis_fixture
name: Visibility fixture
geometry: {kind: hex, hex_id_digits: 4}
leaders:
  - {name: role, type: choice, choices: [primo_capitano, subordinate]}
  - {name: order, type: choice, choices: [stand, retreat]}
sequence_of_play:
  - {id: d1_intelligence, name: Intelligence}
procedures:
  - id: check
    name: Check
    roll: d6
    lookup: {threshold: {target: 4, pass: pass, fail: fail}}
    outcomes: [{code: pass}, {code: fail}]
"#;

/// Loads BASE plus a `visibility:` section; the single error it must give.
fn visibility_error(section: &str) -> umpire::rules::LoadError {
    let files = RulesetFiles {
        ruleset: SourceFile {
            name: "fixture/ruleset.yaml".into(),
            text: format!("{BASE}{section}"),
        },
        tables: Vec::new(),
    };
    let errors = load_ruleset(&files)
        .err()
        .unwrap_or_else(|| panic!("loads, but should not:\n{section}"));
    assert_eq!(errors.0.len(), 1, "{errors}");
    errors.0[0].clone()
}

/// The line of BASE + section where a section line starts (1-based), for readable cases.
fn line_of(section: &str, needle: &str) -> usize {
    let base_lines = BASE.lines().count();
    base_lines
        + 1
        + section
            .lines()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle} not in the section"))
}

#[test]
fn a_good_visibility_section_loads() {
    let files = RulesetFiles {
        ruleset: SourceFile {
            name: "fixture/ruleset.yaml".into(),
            text: format!(
                "{BASE}visibility:\n  enemy: identity\n  counters:\n    - {{id: face_down, when: {{status: hidden}}, see: presence, as: a face-down leader, rule: \"1.4\"}}\n  attributes:\n    - {{id: orders, attributes: [order], shown_when: {{attribute: order, is: retreat}}, rule: \"5.2\"}}\n  open_results:\n    - {{id: checks, procedures: [check], rule: \"9\"}}\n  reveals:\n    - {{id: contact, step: d1_intelligence, when: {{adjacent_to_enemy: true}}, set: [revealed], clear: [hidden], rule: \"D.1\"}}\n"
            ),
        },
        tables: Vec::new(),
    };
    let rs = load_ruleset(&files).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rs.visibility.counters[0].see, SightLevel::Presence);
    assert_eq!(rs.visibility.reveals[0].step, "d1_intelligence");
}

#[test]
fn bad_visibility_entries_are_refused_where_they_are_written() {
    // (section, the line holding the culprit, its column, a phrase of the problem)
    let cases: [(&str, &str, usize, &str); 9] = [
        (
            "visibility:\n  enemy: full\n  open_results:\n    - id: tables\n      procedures: [check, weather]\n      rule: \"1.4\"\n",
            "procedures:",
            "procedures: [check, ".len() + 7,
            "unknown procedure 'weather'",
        ),
        (
            "visibility:\n  enemy: full\n  counters:\n    - id: face_down\n      when: {status: hidden}\n      see: presence\n      rule: \"1.4\"\n",
            "see: presence",
            12,
            "needs the words for it",
        ),
        (
            "visibility:\n  enemy: full\n  counters:\n    - id: orders\n      when: {attribute: orders, is: stand}\n      see: hidden\n      rule: \"5.2\"\n",
            "when:",
            "      when: {attribute: ".len() + 1,
            "unknown attribute 'orders'",
        ),
        (
            "visibility:\n  enemy: full\n  attributes:\n    - id: orders\n      attributes: [order]\n      shown_when: {attribute: order, is: rout}\n      rule: \"5.2\"\n",
            "shown_when:",
            "      shown_when: {attribute: order, is: ".len() + 1,
            "'rout' is not a choice of order",
        ),
        (
            "visibility:\n  enemy: full\n  reveals:\n    - id: contact\n      step: d9_intelligence\n      when: {on_map: true}\n      set: [revealed]\n      rule: \"D.1\"\n",
            "step:",
            13,
            "'d9_intelligence' is not a step",
        ),
        (
            "visibility:\n  enemy: full\n  counters:\n    - id: cards\n      see: hidden\n      rule: \"L194\"\n",
            "rule:",
            13,
            "not a rule as the rulebook numbers it",
        ),
        (
            "visibility:\n  enemy: full\n  counters:\n    - id: cards\n      see: hidden\n      rule: \"1.4\"\n      hides: everything\n",
            "hides:",
            7,
            "unknown field `hides`",
        ),
        (
            "visibility:\n  enemy: full\n  counters:\n    - id: revealed\n      when: {status: revealed, ruling: {composition: stays}}\n      see: full\n      rule: \"D.1\"\n",
            "ruling:",
            "      when: {status: revealed, ruling: {composition: ".len() + 1,
            "unknown ruling 'composition'",
        ),
        (
            "visibility:\n  enemy: sometimes\n",
            "enemy:",
            10,
            "unknown variant `sometimes`",
        ),
    ];
    for (section, culprit, column, phrase) in cases {
        let e = visibility_error(section);
        assert_eq!(e.file, "fixture/ruleset.yaml");
        assert!(e.problem.contains(phrase), "{phrase:?} not in {e}");
        assert_eq!(
            (e.line, e.column),
            (line_of(section, culprit), column),
            "{e}"
        );
        assert!(!e.hint.is_empty(), "a fix-it hint: {e}");
    }
}

#[test]
fn adjacency_needs_a_hex_map() {
    let text = BASE.replace(
        "geometry: {kind: hex, hex_id_digits: 4}",
        "geometry: {kind: area}",
    );
    let section = "visibility:\n  enemy: full\n  reveals:\n    - id: contact\n      step: d1_intelligence\n      when: {adjacent_to_enemy: true}\n      set: [revealed]\n      rule: \"D.1\"\n";
    let files = RulesetFiles {
        ruleset: SourceFile {
            name: "fixture/ruleset.yaml".into(),
            text: format!("{text}{section}"),
        },
        tables: Vec::new(),
    };
    let errors = load_ruleset(&files).expect_err("refused");
    let e = &errors.0[0];
    assert!(e.problem.contains("only known on a hex map"), "{e}");
    assert_eq!(e.line, line_of(section, "adjacent_to_enemy"));
}

// ── The desk ────────────────────────────────────────────────────────────────────────────────

fn desk_on(path: &Path) -> Harness<'static, DeskApp> {
    let library = Library::shipped();
    let desk = GameDesk::open(path, &library).expect("the game opens");
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(|cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(Library::shipped(), 1), desk)
        })
}

fn open_view_menu(harness: &mut Harness<'static, DeskApp>) {
    harness.get_by_label("View").click();
    harness.run();
}

fn found(harness: &Harness<'static, DeskApp>, text: &str) -> bool {
    harness.query_all_by_label_contains(text).next().is_some()
}

#[test]
fn the_desk_seen_by_venice_hides_what_venice_may_not_see() {
    let (mut game, path) = french_in_contact("desk");
    mark(&mut game, "imbault", "hidden", true);
    set(&mut game, "imbault", "role", "primo_capitano");
    move_to(&mut game, &["imbault"], "2935");
    drop(game);
    let mut harness = desk_on(&path);

    // The umpire's view: everything.
    type_into(&mut harness, FIND_COUNTER_LABEL, "Gendarmes");
    assert!(found(&harness, "French Gendarmes"), "the umpire sees them");
    type_into(&mut harness, FIND_COUNTER_LABEL, "Imbault");
    assert!(found(&harness, "Imbault"));

    // View → As seen by: Venetian.
    open_view_menu(&mut harness);
    click(&mut harness, "As seen by: Venetian: the Republic of Venice");
    assert_eq!(
        harness.state().game.as_ref().and_then(|g| g.live.seen_by()),
        Some("venetian")
    );
    assert!(
        !labels_containing(&harness, SEEN_BY_PREFIX).is_empty(),
        "the view says whose it is"
    );
    type_into(&mut harness, FIND_COUNTER_LABEL, "Gendarmes");
    assert!(
        !found(&harness, "French Gendarmes"),
        "Venice does not see the Gendarmes on Chaumont's Card"
    );
    type_into(&mut harness, FIND_COUNTER_LABEL, "Imbault");
    assert!(
        !found(&harness, "Imbault"),
        "nor the face-down Capitano's name"
    );
    type_into(&mut harness, FIND_COUNTER_LABEL, "face-down");
    assert!(
        found(&harness, "a face-down Capitano (French)"),
        "but his presence"
    );
    type_into(&mut harness, FIND_COUNTER_LABEL, "Chaumont");
    assert!(found(&harness, "Chaumont"), "and Chaumont on the map");
    // The journal: Chaumont's move, not his Order nor his units' moves.
    assert!(!labels_containing(&harness, "Chaumont moved").is_empty());
    assert!(labels_containing(&harness, "Order Attack → Stand").is_empty());
    assert!(labels_containing(&harness, "Imbault").is_empty());

    // Back to the umpire's view, from the side view's banner.
    click(&mut harness, "As seen by: the umpire");
    assert_eq!(
        harness.state().game.as_ref().and_then(|g| g.live.seen_by()),
        None
    );
    type_into(&mut harness, FIND_COUNTER_LABEL, "Gendarmes");
    assert!(found(&harness, "French Gendarmes"));
    assert!(!labels_containing(&harness, "Imbault").is_empty());
}

/// The Venetian and French copies of a busy turn (the example turn, an activation contest
/// between a French and a Venetian Capitano, a French result the Venetian sees summarised) hold
/// no name of a unit the side could not see at the end of it and no Order the rules hide (5.2);
/// a summarised open result can be read again on one's own chart (issue 24).
#[test]
fn side_copies_of_a_busy_turn_hold_no_hidden_unit_name_and_no_hidden_order() {
    let dir = std::env::temp_dir().join(format!("umpire-vis-busy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let mut game = crate::kit::venice_turn_one(&dir.join("venice.umpire"));
    // The activation contest: Louis XII (French, Order Attack) against Pitigliano (Venetian).
    set(&mut game, "louis-xii", "order", "attack");
    let contest = act(
        &mut game,
        Action::Resolve {
            procedure: "activation".into(),
            inputs: vec![
                ("initiative_a".into(), "2".into()),
                ("ma_a".into(), "6".into()),
                ("initiative_b".into(), "3".into()),
                ("ma_b".into(), "6".into()),
            ],
            physical: Some(vec!["2".into(), "5".into()]),
            chart_result: None,
            chart_confirmed: false,
            counters: BTreeMap::from([
                ("a".to_string(), vec![CounterId::from("pitigliano")]),
                ("b".to_string(), vec![CounterId::from("louis-xii")]),
            ]),
            item: None,
        },
    )[0];
    // A French Discipline Check the Venetian sees summarised (1.4: results are open).
    let check = act(
        &mut game,
        Action::Resolve {
            procedure: "discipline_check".into(),
            inputs: vec![
                ("reason".into(), "combat".into()),
                ("troop_quality".into(), "2".into()),
                ("reliability".into(), "N".into()),
            ],
            physical: Some(vec!["4".into()]),
            chart_result: Some("D".into()),
            chart_confirmed: false,
            counters: BTreeMap::from([(
                "unit".to_string(),
                vec![CounterId::from("fr-chaumont-french-gendarmes-1")],
            )]),
            item: None,
        },
    )[0];
    // An Attrition check of Louis XII's Force that loses nothing: it names none of his units,
    // still on his card (1.4 names the units a result affects).
    act(
        &mut game,
        Action::Resolve {
            procedure: "attrition".into(),
            inputs: vec![
                ("trigger".into(), "attrition_segment".into()),
                ("force_sp".into(), "24".into()),
                ("weather".into(), "fair".into()),
            ],
            physical: Some(vec!["3".into()]),
            chart_result: Some("0".into()),
            chart_confirmed: false,
            counters: BTreeMap::from([(
                "force".to_string(),
                vec![
                    CounterId::from("fr-louis-french-gendarmes-1"),
                    CounterId::from("fr-louis-french-gendarmes-2"),
                ],
            )]),
            item: None,
        },
    );
    let whole = report_text(&game, None);
    assert!(
        whole.contains("B: Order = Attack"),
        "the umpire's copy has it:\n{whole}"
    );
    for (side, other) in [("venetian", "french"), ("french", "venetian")] {
        let text = report_text(&game, Some(side));
        // The Sequence of Play's and the procedures' own names are not counters ("Field
        // Engineers of a Besieged Force" is a step, the French "Field Engineers" a unit).
        let mut scrubbed = text.clone();
        for step in umpire::game::sequence::leaf_steps(game.ruleset()) {
            for part in step.path.split(" › ") {
                scrubbed = scrubbed.replace(part, "");
            }
        }
        for p in &game.ruleset().procedures {
            scrubbed = scrubbed.replace(&p.name, "");
        }
        let view = SideView::new(game.ruleset(), game.scenario(), side).expect("side");
        let seen = view.at(game.state());
        // Units of the other side it could not see at the end of the turn.
        let hidden: Vec<String> = game
            .state()
            .counters
            .values()
            .filter(|c| c.side == other)
            .filter(|c| c.kind == umpire::game::scenario::CounterKind::Unit)
            .filter(|c| seen.level(&c.id) == SightLevel::Hidden)
            .map(|c| c.name.clone())
            .collect();
        assert!(!hidden.is_empty(), "{side} has something hidden from it");
        for name in &hidden {
            // A name is hidden only if no other counter the side may see carries it whole.
            let also_seen = game.state().counters.values().any(|c| {
                c.name != *name
                    && c.name.contains(name.as_str())
                    && seen.level(&c.id) > SightLevel::Hidden
            });
            if !also_seen {
                assert!(
                    !scrubbed.contains(name.as_str()),
                    "the {side} copy names {name}:\n{text}"
                );
            }
        }
        if side == "venetian" {
            assert!(
                !text.contains("B: Order = ") && !text.contains("Order = Attack"),
                "the French Order is hidden from the Venetian (5.2):\n{text}"
            );
            assert!(
                text.contains("A: Order = Garrison"),
                "its own Order stays:\n{text}"
            );
            // B's score would give its modified Initiative, so its Order, away (7.2.2, 7.2.4).
            assert!(
                !text.contains("B: modified Initiative − die = ")
                    && !text.contains("B: MPs if activated = "),
                "the French score is withheld with its Order:\n{text}"
            );
            assert!(
                text.contains("A: modified Initiative − die = "),
                "its own score stays:\n{text}"
            );
        } else {
            assert!(
                !text.contains("A: Order = "),
                "the Venetian Order is hidden from the French (5.2):\n{text}"
            );
        }
    }
    let venetian = sights(&game, "venetian");
    let entry = venetian
        .iter()
        .find(|s| s.seq == contest)
        .expect("the contest is in the Venetian's journal");
    assert!(entry.sight.seen(), "the Venetian sees its own contest");
    // A summarised open result gives the modified roll, where it was read, the result.
    let Some(Sight::Summary(lines)) = venetian.iter().find(|s| s.seq == check).map(|s| &s.sight)
    else {
        panic!("the French check is summarised for the Venetian");
    };
    let text = lines.join(" | ");
    assert!(
        text.contains("Read: roll 4, read on Discipline Table at row 4"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ruleset that lets a side know something happened (`hidden_entries: placeholder`): its
/// copy says "Entries you may not see." once where a run of them was, with no count, and
/// still numbers what it sees without a gap.
#[test]
fn a_placeholder_marks_where_hidden_entries_were_without_counting_them() {
    let mut lib = Library::shipped();
    for rs in &mut lib.rulesets {
        if rs.id == "ailsh" {
            rs.visibility.hidden_entries = umpire::rules::HiddenEntries::Placeholder;
        }
    }
    let dir = std::env::temp_dir().join(format!("umpire-vis-gap-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let mut game = Game::create(
        &dir.join("g.umpire"),
        &scenario("s1_venice"),
        &lib,
        Some(1509),
    )
    .expect("game");
    // Three French units moved on Chaumont's card, one entry each: hidden from Venice.
    move_to(&mut game, &CHAUMONT_FORCE[1..], "2833");
    act(
        &mut game,
        Action::Note {
            text: "between".into(),
        },
    );
    let text = report_text(&game, Some("venetian"));
    assert_eq!(
        text.matches("Entries you may not see.").count(),
        1,
        "one line for the run, no count:\n{text}"
    );
    let whole = report_text(&game, None);
    assert!(!whole.contains("Entries you may not see."), "{whole}");
    let _ = std::fs::remove_dir_all(&dir);
}
