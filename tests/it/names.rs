//! Names and ids are interchangeable in every command (issue 24, deliverable 1): every
//! subcommand that takes a counter, a state's ledger, a side or a procedure is driven once by
//! name and once by id on two copies of the same game, and the two journals must be identical
//! entry for entry. A name looked up as an id once took a unit to 0 ("--loss NAME=1").

use std::path::{Path, PathBuf};

use serde_json::Value;
use umpire::game::Game;
use umpire::rules::Library;

use crate::cli::umpire;

fn scratch(tag: &str) -> PathBuf {
    crate::common::scratch_dir("names", tag)
}

/// Two copies of one new game (the same seed, so app dice agree).
fn two_copies(tag: &str, scenario: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(tag);
    let by_name = dir.join("by-name.umpire");
    let by_id = dir.join("by-id.umpire");
    let made = umpire(&[
        "game",
        "new",
        scenario,
        "-o",
        &by_name.display().to_string(),
        "--seed",
        "24",
    ]);
    assert!(made.success, "{}", made.show());
    std::fs::copy(&by_name, &by_id).expect("copy the game file");
    (by_name, by_id)
}

/// The id of the counter of that name, from `game status --json`.
fn id_of(game: &Path, name: &str) -> String {
    let lib = Library::shipped();
    let g = Game::open(game, &lib).expect("the game opens");
    g.state()
        .counters
        .values()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no counter named {name}"))
        .id
        .clone()
}

/// Each entry's kind, as the journal keeps it (no time or hash, which differ by the second).
fn journal(game: &Path) -> Vec<Value> {
    let lib = Library::shipped();
    let g = Game::open(game, &lib).expect("the game opens");
    g.events()
        .iter()
        .map(|e| serde_json::to_value(&e.kind).expect("an entry serialises"))
        .collect()
}

/// Runs the same command on both copies, `{}` in the arguments standing for the game file:
/// the first copy with `by_name`, the second with `by_id`.
fn both(copies: &(PathBuf, PathBuf), by_name: &[&str], by_id: &[&str]) -> (String, String) {
    let run = |file: &Path, args: &[&str]| {
        let file = file.display().to_string();
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                if *a == "{}" {
                    file.clone()
                } else {
                    a.to_string()
                }
            })
            .collect();
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = umpire(&refs);
        assert!(r.success, "{}", r.show());
        r.stdout
    };
    (run(&copies.0, by_name), run(&copies.1, by_id))
}

fn same_journals(copies: &(PathBuf, PathBuf)) {
    let (a, b) = (journal(&copies.0), journal(&copies.1));
    assert_eq!(a.len(), b.len(), "both copies record as many entries");
    for (n, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(x, y, "entry {} differs between name and id", n + 1);
    }
}

/// `game resolve GAME discipline_check` for `unit` (a name or an id), the README's example
/// inputs and a 4 on the die, then the chart flag and code given.
fn discipline(game: &str, unit: &str, flag: &str, code: &str) -> Vec<String> {
    [
        "game",
        "resolve",
        game,
        "discipline_check",
        "--counter",
        &format!("unit={unit}"),
        "-i",
        "reason=combat",
        "-i",
        "troop_quality=3",
        "-i",
        "reliability=S",
        "--roll",
        "4",
        flag,
        code,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn every_counter_command_records_the_same_by_name_and_by_id() {
    let copies = two_copies("venice", "ailsh_1_venice_at_bay_1509");
    let chaumont = "French Gendarmes (Chaumont)";
    let alviano = "Venetian Infantry (Alviano)";
    let gendarmes = id_of(&copies.0, chaumont);
    let infantry = id_of(&copies.0, alviano);
    let pitigliano = id_of(&copies.0, "Pitigliano");

    both(
        &copies,
        &["game", "move", "{}", chaumont, "2728"],
        &["game", "move", "{}", &gendarmes, "2728"],
    );
    // Any case and spacing of a name.
    both(
        &copies,
        &[
            "game",
            "set",
            "{}",
            "venetian  infantry (alviano)",
            "troop_quality",
            "2",
        ],
        &["game", "set", "{}", &infantry, "troop_quality", "2"],
    );
    both(
        &copies,
        &["game", "mark", "{}", "Pitigliano", "revealed"],
        &["game", "mark", "{}", &pitigliano, "revealed"],
    );
    let resolve = |unit: &str| discipline("{}", unit, "--chart-result", "D");
    let (a, b) = (resolve(chaumont), resolve(&gendarmes));
    both(&copies, &strs(&a), &strs(&b));
    // The procedure by its name too.
    let mut a = resolve(alviano);
    a[3] = "discipline check".into();
    let b = resolve(&infantry);
    both(&copies, &strs(&a), &strs(&b));
    let entries = journal(&copies.0).len().to_string();
    both(
        &copies,
        &[
            "game",
            "apply",
            "{}",
            &entries,
            "--loss",
            &format!("{alviano}=1"),
            "--status",
            &format!("{alviano}=revealed"),
        ],
        &[
            "game",
            "apply",
            "{}",
            &entries,
            "--loss",
            &format!("{infantry}=1"),
            "--status",
            &format!("{infantry}=revealed"),
        ],
    );
    both(
        &copies,
        &[
            "game",
            "remove",
            "{}",
            chaumont,
            "--reason",
            "routed off the map",
        ],
        &[
            "game",
            "remove",
            "{}",
            &gendarmes,
            "--reason",
            "routed off the map",
        ],
    );
    same_journals(&copies);

    // The side by its name or id: the same view.
    let (a, b) = both(
        &copies,
        &[
            "game",
            "status",
            "{}",
            "--side",
            "venetian: the republic of venice",
        ],
        &["game", "status", "{}", "--side", "venetian"],
    );
    assert_eq!(a, b, "a side's view by name and by id");
}

#[test]
fn the_readme_loss_by_name_takes_one_strength_point() {
    let copies = two_copies("readme", "ailsh_1_venice_at_bay_1509");
    let game = copies.0.display().to_string();
    let alviano = "Venetian Infantry (Alviano)";
    let before = strength(&copies.0, alviano);
    assert_eq!(before, 8, "the scenario gives Alviano's infantry 8 SP");
    // The README's tour, command for command.
    let chaumont = "French Gendarmes (Chaumont)";
    for args in [
        vec!["game", "credit", &game, "1"],
        vec!["game", "move", &game, chaumont, "2728"],
    ] {
        let r = umpire(&args);
        assert!(r.success, "{}", r.show());
    }
    let resolved = umpire(&strs(&discipline(&game, chaumont, "--chart-result", "D")));
    assert!(resolved.success, "{}", resolved.show());
    assert!(
        resolved.stdout.contains("recorded entry 4"),
        "{}",
        resolved.show()
    );
    let applied = umpire(&[
        "game",
        "apply",
        &game,
        "4",
        "--proposed",
        "--loss",
        &format!("{alviano}=1"),
    ]);
    assert!(applied.success, "{}", applied.show());
    assert_eq!(strength(&copies.0, alviano), 7, "8 SP less 1 is 7");
    assert!(
        applied
            .stdout
            .contains("Venetian Infantry (Alviano): Strength Points (current) 8 → 7"),
        "the entry says 8 → 7:\n{}",
        applied.show()
    );
    // docs/command-line.md's own tour runs as written in tests/it/examples.rs.
}

fn strength(game: &Path, name: &str) -> i64 {
    let lib = Library::shipped();
    let g = Game::open(game, &lib).expect("the game opens");
    let c = g
        .state()
        .counters
        .values()
        .find(|c| c.name == name)
        .expect("the counter");
    match c.attributes.get("strength_points") {
        Some(umpire::rules::Value::Int(n)) => *n,
        other => panic!("{name} has strength {other:?}"),
    }
}

#[test]
fn an_unknown_name_is_refused_with_the_close_ones_and_nothing_recorded() {
    let copies = two_copies("unknown", "ailsh_1_venice_at_bay_1509");
    let game = copies.0.display().to_string();
    let before = journal(&copies.0).len();
    let r = umpire(&["game", "move", &game, "French Gendarmes (Chamont)", "2728"]);
    assert!(!r.success, "{}", r.show());
    assert!(r.stderr.contains("did you mean"), "{}", r.show());
    let r = umpire(&["game", "status", &game, "--side", "Ottomans"]);
    assert!(!r.success, "{}", r.show());
    assert!(
        r.stderr
            .contains("Venetian: the Republic of Venice (venetian)"),
        "the sides are listed: {}",
        r.show()
    );
    let r = umpire(&[
        "game",
        "apply",
        &game,
        "1",
        "--loss",
        "Venetian Infantry (Alvano)=1",
    ]);
    assert!(!r.success, "{}", r.show());
    assert!(r.stderr.contains("did you mean"), "{}", r.show());
    assert_eq!(journal(&copies.0).len(), before, "nothing recorded");
}

#[test]
fn a_ledger_and_a_deck_by_name_and_by_id() {
    let copies = two_copies("rr3", "rr3_handbook_1524");
    both(
        &copies,
        &["game", "set", "{}", "France", "treasury", "40"],
        &["game", "set", "{}", "state-france", "treasury", "40"],
    );
    both(
        &copies,
        &[
            "game", "adjust", "{}", "France", "treasury", "-5", "--reason", "pay",
        ],
        &[
            "game", "adjust", "{}", "france", "treasury", "-5", "--reason", "pay",
        ],
    );
    both(
        &copies,
        &[
            "game",
            "transfer",
            "{}",
            "France",
            "England",
            "10",
            "--attribute",
            "treasury",
            "--reason",
            "subsidy",
        ],
        &[
            "game",
            "transfer",
            "{}",
            "state-france",
            "state-england",
            "10",
            "--attribute",
            "treasury",
            "--reason",
            "subsidy",
        ],
    );
    same_journals(&copies);

    let copies = two_copies("cups", "arquebus_cerignola_1503");
    both(
        &copies,
        &[
            "game",
            "deck",
            "draw",
            "{}",
            "Seizure Counters",
            "--side",
            "Spanish (Gonsalvo de Cordoba)",
        ],
        &[
            "game",
            "deck",
            "draw",
            "{}",
            "seizure_counters",
            "--side",
            "spanish",
        ],
    );
    same_journals(&copies);
}

/// A chart result the text does not name is refused on the command line with the codes it
/// does name, unless `--chart-prints` confirms the umpire's chart prints it; the journal
/// records the confirmation (issue 24, deliverable 6).
#[test]
fn a_chart_code_the_text_does_not_give_needs_confirming() {
    let copies = two_copies("chart", "ailsh_1_venice_at_bay_1509");
    let game = copies.0.display().to_string();
    let args =
        |flag: &str, code: &str| discipline(&game, "French Gendarmes (Chaumont)", flag, code);
    let run = |v: Vec<String>| umpire(&v.iter().map(String::as_str).collect::<Vec<_>>());
    let before = journal(&copies.0).len();
    let refused = run(args("--chart-result", "Q7"));
    assert!(!refused.success, "{}", refused.show());
    assert!(
        refused
            .stderr
            .contains("'Q7' is not a result the text gives")
            && refused.stderr.contains("--chart-prints"),
        "{}",
        refused.show()
    );
    assert_eq!(journal(&copies.0).len(), before, "nothing recorded");
    let confirmed = run(args("--chart-prints", "Q7"));
    assert!(confirmed.success, "{}", confirmed.show());
    let last = journal(&copies.0).pop().expect("an entry");
    let outcome = &last["resolution"]["outcome"];
    assert_eq!(outcome["code"], "Q7", "{last}");
    assert_eq!(outcome["chart_confirmed"], true, "{last}");
    // A code the text gives needs no confirmation.
    let plain = run(args("--chart-result", "D"));
    assert!(plain.success, "{}", plain.show());
    let last = journal(&copies.0).pop().expect("an entry");
    assert!(last["resolution"]["outcome"]["chart_confirmed"].is_null());
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The engine looks no name up: an action carries counter ids ([`CounterId`]), and a name
/// put where an id belongs is refused, nothing recorded; the same counter through
/// [`Names`] moves.
#[test]
fn the_engine_takes_ids_and_refuses_a_name_in_their_place() {
    use umpire::game::scenario::Position;
    use umpire::game::{Action, Actor, CounterId, Names};
    let copies = two_copies("engine-ids", "ailsh_1_venice_at_bay_1509");
    let mut game = Game::open(&copies.0, &Library::shipped()).expect("opens");
    let before = game.events().len();
    let named = "French Gendarmes (Chaumont)";
    let refused = game.act(
        &Actor::umpire(),
        Action::Move {
            counter: CounterId::new(named),
            to: Position::Hex("2933".into()),
        },
    );
    assert!(refused.is_err(), "a name is not an id");
    assert_eq!(game.events().len(), before, "nothing recorded");
    let id = Names::of(&game).counter(named).expect("the name is known");
    assert_ne!(id.as_str(), named);
    game.act(
        &Actor::umpire(),
        Action::Move {
            counter: id.clone(),
            to: Position::Hex("2933".into()),
        },
    )
    .expect("moves by id");
    assert_eq!(
        game.state().counters[id.as_str()].position,
        Position::Hex("2933".into())
    );
}

/// A side or a team is taken by its id, its name or the name's short form ("French" for
/// "French: the Kingdom of France"), in any case, by every command that takes one: the side's
/// report, the scenario sheet, the side's status and export, a team's statement, ledger and
/// announcement. One nobody has is refused with the sides listed.
#[test]
fn every_command_takes_a_side_or_a_team_by_name() {
    let copies = two_copies("sides", "ailsh_1_venice_at_bay_1509");
    let game = copies.0.display().to_string();
    let dir = copies.0.parent().expect("folder").to_path_buf();
    let pdf = |n: &str| dir.join(n).display().to_string();
    for (i, side) in ["French", "french", "FRENCH: the kingdom of France"]
        .iter()
        .enumerate()
    {
        let out = pdf(&format!("fr{i}.pdf"));
        let r = umpire(&["report", &game, "--side", side, "-o", &out]);
        assert!(r.success, "report --side {side}: {}", r.show());
        let out = pdf(&format!("sheet{i}.pdf"));
        let r = umpire(&[
            "sheet",
            "ailsh_1_venice_at_bay_1509",
            "--side",
            side,
            "-o",
            &out,
        ]);
        assert!(r.success, "sheet --side {side}: {}", r.show());
        let r = umpire(&["game", "status", &game, "--side", side]);
        assert!(r.success, "status --side {side}: {}", r.show());
        let r = umpire(&["game", "export", &game, "--jsonl", "--side", side]);
        assert!(r.success, "export --side {side}: {}", r.show());
    }
    let r = umpire(&["report", &game, "--side", "Ottomans", "-o", &pdf("x.pdf")]);
    assert!(!r.success, "{}", r.show());
    assert!(
        r.stderr.contains("French: the Kingdom of France (french)"),
        "{}",
        r.show()
    );
    let rr3 = two_copies("teams", "rr3_handbook_1524");
    let by_name = rr3.0.display().to_string();
    let by_id = rr3.1.display().to_string();
    for (g, team) in [(&by_name, "the habsburgs"), (&by_id, "habsburgs")] {
        let r = umpire(&[
            "game",
            "announce",
            g,
            "Troops muster",
            "--audience",
            "team",
            "--team",
            team,
        ]);
        assert!(r.success, "announce --team {team}: {}", r.show());
        let r = umpire(&["game", "ledger", g, "--team", team]);
        assert!(r.success, "ledger --team {team}: {}", r.show());
        let out = pdf(&format!("statement-{team}.pdf").replace(' ', "-"));
        let r = umpire(&["megagame", "statement", g, "--team", team, "-o", &out]);
        assert!(r.success, "statement --team {team}: {}", r.show());
    }
    same_journals(&rr3);
    let r = umpire(&["game", "ledger", &by_name, "--team", "Ottomans"]);
    assert!(
        !r.success && r.stderr.contains("The Habsburgs (habsburgs)"),
        "{}",
        r.show()
    );
}
