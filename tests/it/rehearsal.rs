//! A Control team's day as a test (issue 27): two turns of "Renaissance and Reformation III" on
//! the real PostgreSQL server, each umpire at a desk of their own (the command line, with their
//! own login), driven by the phase clock: Game Control sets the game up and works the clock,
//! the two Map Controls raise, pay, fight and disband at their tables at the same time,
//! Religious Control holds a debate and a revolt check, Character Control a marriage, Political
//! Control the charts, a treaty and the Diet. Then the paper: a team's statement and the
//! gazette. Asserted: the ledgers, the charts, that no routine action needed a discretion note,
//! and that the journal verifies.
//!
//! The set-up values (treasuries, areas) are test data: the Gazetteer and the briefings that
//! give them are not in the handbook's text.

use crate::common;

use std::process::Command;

use common::pg::PgServer;
use umpire::game::{EventKind, Game};
use umpire::rules::{Library, Value};

const GAME: &str = "rr3-day";

/// The command line as `login`'s desk (`--as` as the server knows them), passwords from the
/// test server's password file.
fn desk(pg: &PgServer, who: &str, args: &[&str]) -> String {
    let login = who.split(':').next().unwrap_or_default().to_lowercase();
    let url = pg.bare_url(&login, GAME);
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if *a == "URL" {
                url.clone()
            } else {
                a.to_string()
            }
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .env_remove("UMPIRE_RULES")
        .env_remove("UMPIRE_AS")
        .env("PGPASSFILE", pg.pgpass())
        .arg("--no-user-rules")
        .args(&args)
        .args(["--as", who])
        .output()
        .expect("run umpire");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{who}: {}\n{text}", args.join(" "));
    text
}

/// The entry a command recorded last ("recorded entry N").
fn entry(text: &str) -> String {
    text.rsplit("recorded entry ")
        .next()
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| panic!("no entry recorded: {text}"))
        .to_string()
}

fn int(game: &Game, counter: &str, attribute: &str) -> i64 {
    match game
        .state()
        .counters
        .get(counter)
        .and_then(|c| c.attributes.get(attribute))
    {
        Some(Value::Int(v)) => *v,
        other => panic!("{counter}.{attribute} is {other:?}"),
    }
}

fn counter_named(game: &Game, name: &str) -> String {
    game.state()
        .counters
        .values()
        .find(|c| c.name == name && c.removed.is_none())
        .map(|c| c.id.clone())
        .unwrap_or_else(|| panic!("no {name} on the table"))
}

const GRETA: &str = "Greta:game";
const ANNA: &str = "Anna:map:the_east";
const BRUNO: &str = "Bruno:map:the_west";
const BEN: &str = "Ben:political";
const RITA: &str = "Rita:religious";
const CARL: &str = "Carl:character";

/// Game Control's set-up: the treasuries, cards and areas the briefings would give.
fn set_up(pg: &PgServer) {
    let new = pg.bare_url("greta", GAME);
    desk(
        pg,
        GRETA,
        &[
            "game",
            "new",
            "rr3_handbook_1524",
            "--server",
            &new,
            "--seed",
            "27",
        ],
    );
    for (state, treasury) in [("france", 30), ("england", 25), ("habsburg_germany", 40)] {
        let t = treasury.to_string();
        desk(pg, GRETA, &["game", "set", "URL", state, "treasury", &t]);
        desk(
            pg,
            GRETA,
            &["game", "set", "URL", state, "unrest_index", "0"],
        );
        desk(
            pg,
            GRETA,
            &["game", "set", "URL", state, "subsidy_cards", "2"],
        );
    }
    desk(
        pg,
        GRETA,
        &["game", "set", "URL", "hesse", "conversion_counters", "0"],
    );
    for (area, owner, table, extra) in [
        ("Picardy", "france", "the_west", "home_area=true"),
        ("Kent", "england", "the_west", "home_area=true"),
        ("Artois", "france", "the_west", "home_area=false"),
        (
            "Upper Austria",
            "habsburg_germany",
            "the_east",
            "home_area=true",
        ),
        (
            "Bohemia",
            "bohemia_hungary",
            "the_east",
            "religious_minority=true",
        ),
    ] {
        let side = match owner {
            "england" => "england",
            "france" => "france",
            _ => "habsburgs",
        };
        let (owner_set, table_set) = (format!("owner={owner}"), format!("map_table={table}"));
        desk(
            pg,
            GRETA,
            &[
                "game",
                "add",
                "URL",
                area,
                "--side",
                side,
                "--at",
                area,
                "--set",
                "unit_kind=area",
                "--set",
                &owner_set,
                "--set",
                &table_set,
                "--set",
                extra,
            ],
        );
    }
}

/// Phase 1 at both tables at once: armies raised, a revenue card played.
fn phase_one(pg: &PgServer, turn: u32) {
    std::thread::scope(|s| {
        s.spawn(|| {
            desk(
                pg,
                ANNA,
                &[
                    "game",
                    "raise",
                    "URL",
                    "habsburg_germany",
                    "Ferdinand's army",
                    "--at",
                    "Upper Austria",
                    "--blocks",
                    "3",
                ],
            );
        });
        s.spawn(|| {
            desk(
                pg,
                BRUNO,
                &[
                    "game",
                    "raise",
                    "URL",
                    "france",
                    "Army of Picardy",
                    "--at",
                    "Picardy",
                    "--blocks",
                    "4",
                ],
            );
            desk(
                pg,
                BRUNO,
                &[
                    "game",
                    "raise",
                    "URL",
                    "england",
                    "Army of Kent",
                    "--at",
                    "Kent",
                    "--blocks",
                    "3",
                ],
            );
            if turn == 1 {
                // A Subsidy card with the physical dice: 5 + 4 florins; the revolt die 6 is not
                // under the Unrest Index (2).
                let out = desk(
                    pg,
                    BRUNO,
                    &[
                        "game",
                        "resolve",
                        "URL",
                        "subsidy",
                        "--counter",
                        "state=france",
                        "--roll",
                        "5",
                        "6",
                    ],
                );
                let n = entry(&out);
                desk(pg, BRUNO, &["game", "apply", "URL", &n, "--proposed"]);
            }
        });
    });
}

/// Phase 2: pay at both tables, a battle with the physical dice, a religious debate.
fn phase_two(pg: &PgServer) {
    std::thread::scope(|s| {
        s.spawn(|| {
            let out = desk(
                pg,
                ANNA,
                &[
                    "game",
                    "resolve",
                    "URL",
                    "pay",
                    "--counter",
                    "army=Ferdinand's army",
                    "--counter",
                    "state=habsburg_germany",
                    "-i",
                    "florins_paid=3",
                ],
            );
            desk(
                pg,
                ANNA,
                &["game", "apply", "URL", &entry(&out), "--proposed"],
            );
        });
        s.spawn(|| {
            for (army, state, florins) in [
                ("Army of Picardy", "france", "4"),
                ("Army of Kent", "england", "3"),
            ] {
                let (a, st, f) = (
                    format!("army={army}"),
                    format!("state={state}"),
                    format!("florins_paid={florins}"),
                );
                let out = desk(
                    pg,
                    BRUNO,
                    &[
                        "game",
                        "resolve",
                        "URL",
                        "pay",
                        "--counter",
                        &a,
                        "--counter",
                        &st,
                        "-i",
                        &f,
                    ],
                );
                desk(
                    pg,
                    BRUNO,
                    &["game", "apply", "URL", &entry(&out), "--proposed"],
                );
            }
            desk(
                pg,
                BRUNO,
                &["game", "move", "URL", "Army of Kent", "Artois"],
            );
            desk(
                pg,
                BRUNO,
                &["game", "move", "URL", "Army of Picardy", "Artois"],
            );
            let out = desk(
                pg,
                BRUNO,
                &[
                    "game",
                    "resolve",
                    "URL",
                    "battle",
                    "--counter",
                    "attacker=Army of Picardy",
                    "--counter",
                    "defender=Army of Kent",
                    "-i",
                    "attacker_nationality=other",
                    "-i",
                    "defender_nationality=other",
                    "--roll",
                    "6",
                    "5",
                    "4",
                    "2",
                    "2",
                    "1",
                    "1",
                ],
            );
            desk(
                pg,
                BRUNO,
                &["game", "apply", "URL", &entry(&out), "--proposed"],
            );
        });
        s.spawn(|| {
            let out = desk(
                pg,
                RITA,
                &[
                    "game",
                    "resolve",
                    "URL",
                    "religious_debate",
                    "--counter",
                    "lutherans=hesse",
                    "-i",
                    "lutheran_issues_won=2",
                ],
            );
            desk(
                pg,
                RITA,
                &["game", "apply", "URL", &entry(&out), "--proposed"],
            );
        });
    });
}

/// Phases 4 to 6 of turn 1: a marriage, a revolt check, the charts, a treaty, the Diet, the
/// winter's disbanding.
fn rest_of_turn_one(pg: &PgServer) {
    desk(pg, GRETA, &["megagame", "clock", "URL", "advance"]); // phase 3
    desk(pg, GRETA, &["megagame", "clock", "URL", "advance"]); // phase 4
    let out = desk(
        pg,
        CARL,
        &[
            "game",
            "resolve",
            "URL",
            "contested_marriage",
            "--counter",
            "suitor_a=Henry VIII",
            "--counter",
            "suitor_b=Margaret of Austria, Viceroy of the Netherlands",
            "--roll",
            "5",
            "2",
        ],
    );
    desk(
        pg,
        CARL,
        &["game", "apply", "URL", &entry(&out), "--proposed"],
    );
    desk(pg, GRETA, &["megagame", "clock", "URL", "advance"]); // phase 5
    let out = desk(
        pg,
        RITA,
        &[
            "game",
            "resolve",
            "URL",
            "religious_revolt",
            "--counter",
            "area=Bohemia",
            "--roll",
            "2",
        ],
    );
    assert!(out.contains("Outcome:"), "{out}");
    desk(pg, GRETA, &["megagame", "clock", "URL", "advance"]); // phase 6
    desk(
        pg,
        BEN,
        &[
            "megagame",
            "record",
            "chart",
            "URL",
            "Prestige",
            "france",
            "habsburgs",
            "england",
            "--reason",
            "the victory at Artois",
        ],
    );
    desk(
        pg,
        RITA,
        &[
            "megagame",
            "record",
            "chart",
            "URL",
            "heavenly_status",
            "papacy",
            "france",
            "lutherans",
            "--reason",
            "the debate",
        ],
    );
    desk(
        pg,
        BEN,
        &[
            "megagame",
            "record",
            "register",
            "URL",
            "treaty",
            "--party",
            "france",
            "--party",
            "venice",
            "--terms",
            "mutual defence in Italy",
            "--until",
            "3",
        ],
    );
    desk(
        pg,
        BEN,
        &[
            "megagame",
            "record",
            "vote",
            "URL",
            "imperial_penny",
            "--question",
            "A tax for the war",
            "--cast",
            "Saxony=for",
            "--cast",
            "Brandenburg=for",
            "--cast",
            "Palatinate=against",
        ],
    );
    std::thread::scope(|s| {
        s.spawn(|| desk(pg, ANNA, &["game", "disband", "URL", "Ferdinand's army"]));
        s.spawn(|| {
            desk(pg, BRUNO, &["game", "disband", "URL", "Army of Picardy"]);
            desk(pg, BRUNO, &["game", "disband", "URL", "Army of Kent"]);
        });
    });
}

#[test]
fn a_control_teams_day_two_turns_of_rr3_on_the_server() {
    let pg = PgServer::start("day");
    pg.add_umpire("Bruno", "map", Some("the_west"));
    pg.add_umpire("Ben", "political", None);
    pg.add_umpire("Rita", "religious", None);
    pg.add_umpire("Carl", "character", None);
    set_up(&pg);
    let lib = Library::shipped();
    let open = || umpire::server::open_at(&pg.url("greta", GAME), &lib).expect("open");

    // The clock drives the Sequence of Play: started, it puts the game at Phase 1.
    desk(
        &pg,
        GRETA,
        &[
            "megagame", "clock", "URL", "start", "--turn", "1", "--phase", "phase_1",
        ],
    );
    let game = open();
    let phase =
        |g: &Game| umpire::megagame::clock::phase_of_step(g.ruleset(), g.state().cursor.step);
    assert_eq!((game.state().cursor.turn, phase(&game)), (1, Some(0)));

    phase_one(&pg, 1);
    desk(&pg, GRETA, &["megagame", "clock", "URL", "advance"]);
    assert_eq!(phase(&open()), Some(1), "Phase 2 by the clock");
    phase_two(&pg);
    rest_of_turn_one(&pg);

    // Turn 2 by the clock: the armies raised again under their old names, and paid.
    desk(&pg, GRETA, &["megagame", "clock", "URL", "advance"]);
    let game = open();
    assert_eq!((game.state().cursor.turn, phase(&game)), (2, Some(0)));
    phase_one(&pg, 2);
    desk(&pg, GRETA, &["megagame", "clock", "URL", "advance"]);
    phase_two(&pg);

    let game = open();
    // The ledgers: France 30 − 4 (raised) + 9 (subsidy) − 4 (pay) in turn 1, − 4 − 4 in turn 2;
    // England 25 − 3 − 3, then − 3 − 3; the Habsburgs 40 − 3 − 3, then − 3 − 3.
    assert_eq!(
        int(&game, "state-france", "treasury"),
        30 - 4 + 9 - 4 - 4 - 4
    );
    assert_eq!(int(&game, "state-england", "treasury"), 25 - 3 - 3 - 3 - 3);
    assert_eq!(int(&game, "state-habsburg_germany", "treasury"), 40 - 12);
    assert_eq!(
        int(&game, "state-france", "unrest_index"),
        2,
        "a subsidy adds 2"
    );
    assert_ne!(
        int(&game, "state-hesse", "conversion_counters"),
        0,
        "the debate counts"
    );
    let picardy = counter_named(&game, "Army of Picardy");
    assert!(
        int(&game, &picardy, "strength_thousands") < 20,
        "the battle cost men"
    );
    // The charts and the register.
    let r = &game.state().records;
    assert_eq!(r.charts["prestige"].ranking[0], "france");
    assert_eq!(r.charts["heavenly_status"].ranking[0], "papacy");
    assert_eq!(r.registers[0].parties, vec!["france", "venice"]);
    assert_eq!(
        r.votes[0].outcome.as_deref(),
        Some("carried, 2 of 3 present for")
    );
    // No routine action needed a discretion note.
    let notes: Vec<&str> = game
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { text } if text.contains("discretion") => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(notes.is_empty(), "{notes:?}");
    // Several umpires wrote it, and the clock stepped it.
    let by: std::collections::BTreeSet<&str> = game
        .events()
        .iter()
        .filter_map(|e| e.by.as_deref())
        .collect();
    for who in [
        "Anna (Map Control, the_east)",
        "Bruno (Map Control, the_west)",
        "Ben (Political Control)",
        "Rita (Religious Control)",
        "Carl (Character Control)",
        "clock (Greta (Game Control))",
    ] {
        assert!(by.contains(who), "{who} wrote nothing: {by:?}");
    }

    // The paper: a team's statement and the gazette.
    let dir = std::env::temp_dir().join(format!("umpire-day-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let statement = dir.join("france.pdf").to_string_lossy().to_string();
    let gazette = dir.join("gazette.pdf").to_string_lossy().to_string();
    let out = desk(
        &pg,
        GRETA,
        &[
            "megagame",
            "statement",
            "URL",
            "--team",
            "france",
            "--turn",
            "1",
            "-o",
            &statement,
            "--json",
        ],
    );
    assert!(out.contains("\"bytes\""), "{out}");
    let out = desk(
        &pg,
        GRETA,
        &[
            "megagame",
            "announcements",
            "URL",
            "--turn",
            "1",
            "-o",
            &gazette,
            "--json",
        ],
    );
    assert!(out.contains("\"bytes\""), "{out}");
    // The journal verifies.
    let out = desk(&pg, GRETA, &["game", "verify", "URL"]);
    assert!(
        out.contains("verified: the hash chain is whole")
            && out.contains(&format!("to entry {}", game.events().len())),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
