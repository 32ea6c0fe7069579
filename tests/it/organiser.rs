//! Set-up by the organiser where the text gives none (issue 26, item 5): the Gradisca
//! deployment card is not in the text, so the organiser places the counters with `game add`,
//! saves the set-up with `game save-scenario`, and starts the game from the saved file.

use std::path::Path;
use std::process::Command;

use umpire::game::scenario::{CounterKind, Position};
use umpire::rules::{Library, SourceFile, Value};

fn umpire(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .env_remove("UMPIRE_RULES")
        .env_remove("UMPIRE_AS")
        .arg("--no-user-rules")
        .args(args)
        .output()
        .expect("run umpire");
    (
        out.status.success(),
        format!(
            "umpire {}\n{}{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[track_caller]
fn ok(args: &[&str]) -> String {
    let (ok, out) = umpire(args);
    assert!(ok, "{out}");
    out
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn a_gradisca_set_up_by_the_organiser_is_saved_and_reopened_as_a_scenario() {
    let dir = std::env::temp_dir().join(format!("umpire-organiser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    let setup = dir.join("setup.umpire");
    let saved = dir.join("my_gradisca.yaml");
    let game = dir.join("game.umpire");
    ok(&[
        "game",
        "new",
        "gradisca_war_of_gradisca_1615",
        "-o",
        path(&setup),
        "--seed",
        "3",
    ]);
    // The handout's steps: one `game add` a counter, Forces named by the organiser. The values
    // are the test's, standing for what the card and the printed counters give.
    for (name, side, at, kind, force, sets) in [
        (
            "Austrian Infantry A",
            "austrian",
            "Gradisca",
            "infantry",
            "First Corps",
            "fire_value=3",
        ),
        (
            "Austrian Cavalry A",
            "austrian",
            "Gradisca",
            "heavy_cavalry",
            "First Corps",
            "fire_value=2",
        ),
        (
            "Venetian Infantry A",
            "venetian",
            "Palma",
            "infantry",
            "Venetian Corps",
            "fire_value=3",
        ),
    ] {
        let out = ok(&[
            "game",
            "add",
            path(&setup),
            name,
            "--side",
            side,
            "--at",
            at,
            "--set",
            &format!("unit_type={kind}"),
            "--set",
            sets,
            "--force",
            force,
        ]);
        assert!(out.contains(name), "{out}");
    }
    ok(&[
        "game",
        "add",
        path(&setup),
        "Trautmansdorf",
        "--side",
        "austrian",
        "--at",
        "Gradisca",
        "--leader",
        "--set",
        "leadership=2",
        "--force",
        "First Corps",
    ]);
    let out = ok(&["game", "save-scenario", path(&setup), "-o", path(&saved)]);
    assert!(out.contains("saved"), "{out}");
    // Never over an existing file without --force.
    let (again, out) = umpire(&["game", "save-scenario", path(&setup), "-o", path(&saved)]);
    assert!(
        !again && out.contains("already exists") && out.contains("--force"),
        "{out}"
    );
    ok(&[
        "game",
        "save-scenario",
        path(&setup),
        "-o",
        path(&saved),
        "--force",
    ]);
    let text = std::fs::read_to_string(&saved).expect("saved");
    assert!(
        !text.contains("organiser_setup"),
        "the set-up is given now:\n{text}"
    );

    // It validates like a shipped scenario, and a game starts from it.
    let lib = Library::shipped();
    let scenario = umpire::game::scenario::load_scenario(
        &SourceFile {
            name: path(&saved).to_string(),
            text,
        },
        &lib,
    )
    .unwrap_or_else(|e| panic!("the saved scenario loads:\n{e}"));
    assert_eq!(scenario.calendar.len(), 16);
    let original =
        umpire::game::scenario::load_scenario(&crate::kit::scenario("war_of_gradisca"), &lib)
            .expect("the shipped scenario");
    assert_eq!(
        scenario.victory.len(),
        original.victory.len(),
        "victory kept from the original"
    );
    let by_name = |n: &str| {
        scenario
            .counters
            .iter()
            .find(|c| c.name == n)
            .unwrap_or_else(|| panic!("{n} in the saved scenario"))
    };
    let infantry = by_name("Austrian Infantry A");
    assert_eq!(infantry.position, Position::Area("Gradisca".into()));
    assert_eq!(infantry.attributes["fire_value"], Value::Int(3));
    assert_eq!(
        infantry.attributes["unit_type"],
        Value::Text("infantry".into())
    );
    assert_eq!(infantry.army.as_deref(), Some("austrian"));
    let leader = by_name("Trautmansdorf");
    assert_eq!(leader.kind, CounterKind::Leader);
    assert_eq!(
        infantry.force, leader.force,
        "one Force, named by the organiser"
    );
    assert!(infantry.force.is_some());
    assert_eq!(by_name("Austrian Cavalry A").force, infantry.force);
    assert_ne!(by_name("Venetian Infantry A").force, infantry.force);
    assert_eq!(scenario.counters.len(), 4);

    let out = ok(&[
        "game",
        "new",
        path(&saved),
        "-o",
        path(&game),
        "--seed",
        "3",
    ]);
    assert!(out.contains("The War of Gradisca"), "{out}");
    let status = ok(&["game", "status", path(&game), "--json"]);
    for name in [
        "Austrian Infantry A",
        "Venetian Infantry A",
        "Trautmansdorf",
    ] {
        assert!(
            status.contains(name),
            "{name} in the reopened game:\n{status}"
        );
    }

    // Played to its VP total (Rule 13): a card's VP for the Venetian, Gradisca held by the
    // Austrian Infantry at the end (occupation VP: the Venetian's only if his units occupy it),
    // then the End of Game marker passed.
    ok(&[
        "game",
        "vp",
        path(&game),
        "--side",
        "venetian",
        "3",
        "--reason",
        "a card played for its VP",
    ]);
    let ended = ok(&[
        "game",
        "end",
        path(&game),
        "--reason",
        "the Game Turn marker went beyond the End of Game marker (Rule 4.1)",
    ]);
    // Gradisca is the Austrian's (no Venetian unit in it), Palma and Udine no one's: 0 to 3.
    assert!(
        ended.contains(
            "The Venetian side wins: Victory Points: Austrian 0 VP, Venetian 3 VP (Rule 13)"
        ),
        "{ended}"
    );
    let status = ok(&["game", "status", path(&game)]);
    assert!(status.contains("The game is over"), "{status}");
    let (refused, out) = umpire(&["game", "next", path(&game)]);
    assert!(!refused, "the game is over: {out}");
}
