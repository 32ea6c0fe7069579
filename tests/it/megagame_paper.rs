//! The paper of a megagame (digest §6.2): a team's confidential statement shows its own
//! treasury lines and forces and nothing of another team's; the public announcements sheet shows
//! what was made public and not what was for Control; the Control log names who made each
//! entry. Driven through the command line where a person would use it; the PDFs are read back
//! with lopdf and checked with `qpdf --check` when it is installed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::game::CounterId;

use lopdf::Document;
use umpire::game::Actor;
use umpire::game::{Action, Game};
use umpire::rules::{Library, SourceFile};

fn fixture() -> SourceFile {
    let name = "tests/fixtures/scenarios/megagame_two_teams.yaml";
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).expect("fixture");
    SourceFile {
        name: name.into(),
        text,
    }
}

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("megapaper", name)
}

fn umpire(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--no-user-rules")
        .args(args)
        .output()
        .expect("umpire runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn ok(args: &[&str]) -> String {
    let (success, stdout, stderr) = umpire(args);
    assert!(success, "umpire {args:?} failed:\n{stderr}");
    stdout
}

fn text_of(path: &Path) -> String {
    let doc = Document::load(path).expect("the PDF parses");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text = doc.extract_text(&pages).expect("text extracts");
    // Table cells wrap: compare with line breaks as spaces.
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn qpdf_check(path: &Path) {
    let out = crate::common::tool::command("qpdf")
        .arg("--check")
        .arg(path)
        .output()
        .expect("qpdf runs");
    assert!(
        out.status.success(),
        "qpdf --check {}: {}{}",
        path.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A turn of play: money in and out of both treasuries, a hidden French army, a death, and
/// announcements to each audience.
pub(crate) fn played_game(dir: &Path) -> PathBuf {
    let path = dir.join("mega.umpire");
    let lib = Library::shipped();
    let mut game = Game::create(&path, &fixture(), &lib, Some(1524)).expect("create");
    let ben = Actor::named("Ben (Political Control)");
    let adjust = |counter: &str, by: i64, reason: &str| Action::Adjust {
        counter: counter.into(),
        attribute: "treasury".into(),
        by,
        reason: reason.into(),
    };
    game.act(&ben, adjust("state-france", 12, "Subsidy card Picardy"))
        .expect("adjust");
    game.act(&ben, adjust("state-france", -6, "Pay Army of Picardy"))
        .expect("adjust");
    game.act(&ben, adjust("state-england", 20, "Exaction Kent revenue"))
        .expect("adjust");
    let anne = Actor::named("Anne (Map Control)");
    game.act(
        &anne,
        Action::SetStatus {
            counter: "fr-army-secret".into(),
            status: "hidden".into(),
            on: true,
        },
    )
    .expect("hide");
    let dora = Actor::named("Dora (Character Control)");
    let mut roles = BTreeMap::new();
    roles.insert("character".to_string(), vec![CounterId::from("henry-viii")]);
    game.act(
        &dora,
        Action::Resolve {
            procedure: "death_roll".into(),
            inputs: vec![("turn".into(), "1".into())],
            physical: None,
            chart_result: Some("dies".into()),
            chart_confirmed: false,
            counters: roles,
            item: None,
        },
    )
    .expect("death roll");
    drop(game);
    let file = path.to_str().expect("utf-8 path");
    ok(&[
        "game",
        "announce",
        file,
        "The Diet meets at Speyer",
        "--audience",
        "public",
        "--by",
        "Cleo (Game Control)",
    ]);
    ok(&[
        "game",
        "announce",
        file,
        "Control only: the French army in Picardy is a decoy",
        "--audience",
        "control",
        "--by",
        "Cleo (Game Control)",
    ]);
    ok(&[
        "game",
        "announce",
        file,
        "Your ambassador is expected in Rome",
        "--audience",
        "team",
        "--team",
        "france",
        "--by",
        "Ben (Political Control)",
    ]);
    path
}

#[test]
fn a_team_statement_shows_its_own_ledger_and_nothing_of_the_other_team() {
    let dir = scratch("statement");
    let game = played_game(&dir);
    let file = game.to_str().unwrap();
    let fr = dir.join("france.pdf");
    ok(&[
        "megagame",
        "statement",
        file,
        "--team",
        "france",
        "--turn",
        "1",
        "-o",
        fr.to_str().unwrap(),
    ]);
    qpdf_check(&fr);
    let text = text_of(&fr);
    for expected in [
        "France — confidential statement — Turn 1 (1524 - 1528)",
        "Kingdom of France — treasury",
        "Start of turn 1",
        "Subsidy card Picardy",
        "+12",
        "Pay Army of Picardy",
        "-6",
        "End of turn 1",
        "46",
        "National debt (florins) 5",
        "Army of Picardy",
        "Secret French army",
        "Francis I",
        "Henri, Duke of Orleans",
        "Your ambassador is expected in Rome",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    for absent in [
        "Kingdom of England",
        "Exaction Kent revenue",
        "Army of Kent",
        "Channel fleet",
        "Control only",
    ] {
        assert!(
            !text.contains(absent),
            "{absent:?} leaked into France's statement:\n{text}"
        );
    }

    let en = dir.join("england.pdf");
    ok(&[
        "megagame",
        "statement",
        file,
        "--team",
        "england",
        "-o",
        en.to_str().unwrap(),
    ]);
    qpdf_check(&en);
    let text = text_of(&en);
    for expected in [
        "Exaction Kent revenue",
        "+20",
        "97",
        "Army of Kent",
        "Channel fleet",
        "Henry VIII",
        "Death roll",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    for absent in [
        "Kingdom of France",
        "Subsidy card Picardy",
        "Secret French army",
        "Your ambassador",
    ] {
        assert!(
            !text.contains(absent),
            "{absent:?} leaked into England's statement:\n{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_announcements_sheet_shows_what_was_made_public_only() {
    let dir = scratch("announcements");
    let game = played_game(&dir);
    let out = dir.join("announcements.pdf");
    let json = ok(&[
        "megagame",
        "announcements",
        game.to_str().unwrap(),
        "--turn",
        "1",
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert!(v["bytes"].as_u64().unwrap() > 1000, "{json}");
    qpdf_check(&out);
    let text = text_of(&out);
    for expected in [
        "Announcements — Turn 1 (1524 - 1528)",
        "The Diet meets at Speyer",
        "Cleo (Game Control)",
        "Deaths",
        "Henry VIII",
        "The character dies",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    for absent in [
        "decoy",
        "Your ambassador",
        "Secret French army",
        "Subsidy card",
    ] {
        assert!(!text.contains(absent), "{absent:?} is not public:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_control_log_names_who_made_each_entry() {
    let dir = scratch("log");
    let game = played_game(&dir);
    let file = game.to_str().unwrap();
    ok(&[
        "megagame",
        "clock",
        file,
        "start",
        "--by",
        "Cleo (Game Control)",
    ]);
    ok(&[
        "megagame",
        "clock",
        file,
        "hold",
        "--by",
        "Cleo (Game Control)",
    ]);
    let out = dir.join("log.pdf");
    ok(&["megagame", "log", file, "-o", out.to_str().unwrap()]);
    qpdf_check(&out);
    let text = text_of(&out);
    for expected in [
        "Control log — whole game",
        "Ben (Political Control)",
        "Anne (Map Control)",
        "Dora (Character Control)",
        "Cleo (Game Control)",
        "Death roll",
        "Subsidy card Picardy",
        "Secret French army is now hidden",
        "decoy",
        "Clock started: turn 1, phase 1",
        "Clock held",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // Every entry of the journal is there, with its number.
    let events = Game::open(&game, &Library::shipped())
        .unwrap()
        .events()
        .len();
    assert!(events >= 10);
    assert!(
        text.contains(&format!(" {events} ")),
        "entry {events} missing:\n{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_clearly() {
    let dir = scratch("bad");
    let game = played_game(&dir);
    let file = game.to_str().unwrap();
    let out = dir.join("x.pdf");
    let (success, _, stderr) = umpire(&[
        "megagame",
        "statement",
        file,
        "--team",
        "spain",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!success);
    assert!(
        stderr.contains("no team 'spain'") && stderr.contains("France (france), England (england)"),
        "{stderr}"
    );
    let (success, _, stderr) = umpire(&["game", "announce", file, "Hello", "--audience", "team"]);
    assert!(!success);
    assert!(stderr.contains("needs the team"), "{stderr}");
    let (success, _, stderr) =
        umpire(&["game", "announce", file, "Hello", "--audience", "everyone"]);
    assert!(!success);
    assert!(stderr.contains("public, team or control"), "{stderr}");
    let (success, _, stderr) = umpire(&["megagame", "clock", file, "set", "--remaining", "7:75"]);
    assert!(!success);
    assert!(
        stderr.contains("not started") || stderr.contains("mm:ss"),
        "{stderr}"
    );
    let (success, _, stderr) = umpire(&[
        "megagame",
        "log",
        file,
        "--turn",
        "9",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!success);
    assert!(stderr.contains("turn 9 is not in the scenario"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_clock_from_the_command_line() {
    let dir = scratch("clock");
    let game = played_game(&dir);
    let file = game.to_str().unwrap();
    let status: serde_json::Value =
        serde_json::from_str(&ok(&["megagame", "clock", file, "--json"])).unwrap();
    assert_eq!(status["started"], false);
    assert_eq!(status["countdown"], "10:00");
    let started = ok(&["megagame", "clock", file, "start"]);
    assert!(
        started.contains("Turn 1 (1524 - 1528) · Phase 1/6"),
        "{started}"
    );
    // The Sequence of Play followed the clock into Phase 1.
    assert!(started.contains("Remove 'Looted'"), "{started}");
    let held: serde_json::Value =
        serde_json::from_str(&ok(&["megagame", "clock", file, "hold", "--json"])).unwrap();
    assert_eq!(held["held"], true);
    let (success, _, stderr) = umpire(&["megagame", "clock", file, "hold"]);
    assert!(!success && stderr.contains("already held"), "{stderr}");
    let set: serde_json::Value = serde_json::from_str(&ok(&[
        "megagame",
        "clock",
        file,
        "set",
        "--remaining",
        "1:30",
        "--json",
    ]))
    .unwrap();
    assert_eq!(set["remaining_seconds"], 90);
    assert_eq!(set["warning"], true);
    let adv: serde_json::Value =
        serde_json::from_str(&ok(&["megagame", "clock", file, "advance", "--json"])).unwrap();
    assert_eq!(adv["phase_id"], "phase_2");
    assert_eq!(adv["remaining_seconds"], 900);
    assert_eq!(adv["held"], true);
    // Advancing stepped the Sequence of Play to Phase 2's first step; tick has nothing to do.
    let tick: serde_json::Value =
        serde_json::from_str(&ok(&["megagame", "clock", file, "tick", "--json"])).unwrap();
    assert_eq!(tick["recorded"].as_array().unwrap().len(), 0);
    let steps = umpire::game::sequence::leaf_steps(Library::shipped().get("rr3").unwrap());
    let at = tick["cursor"]["step"].as_u64().unwrap() as usize;
    assert_eq!(steps[at].id, "phase_2_pay");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_statement_for_an_earlier_turn_shows_that_turn() {
    let dir = scratch("earlier");
    let game = played_game(&dir);
    let file = game.to_str().unwrap();
    // On into turn 2: the clock started there steps the Sequence of Play with it.
    ok(&[
        "megagame", "clock", file, "start", "--turn", "2", "--phase", "phase_1",
    ]);
    ok(&[
        "game",
        "adjust",
        file,
        "state-france",
        "treasury",
        "+100",
        "--reason",
        "Turn two loan",
    ]);
    ok(&["game", "set", file, "fr-army-1", "strength_thousands", "5"]);
    let t1 = dir.join("t1.pdf");
    ok(&[
        "megagame",
        "statement",
        file,
        "--team",
        "france",
        "--turn",
        "1",
        "-o",
        t1.to_str().unwrap(),
    ]);
    let text = text_of(&t1);
    assert!(!text.contains("Turn two loan"), "{text}");
    assert!(text.contains("End of turn 1 46"), "{text}");
    assert!(text.contains("Army of Picardy army Picardy 20"), "{text}");
    let t2 = dir.join("t2.pdf");
    ok(&[
        "megagame",
        "statement",
        file,
        "--team",
        "france",
        "-o",
        t2.to_str().unwrap(),
    ]);
    let text = text_of(&t2);
    assert!(text.contains("Turn 2 (1529 - 1532)"), "{text}");
    assert!(text.contains("Start of turn 2 46"), "{text}");
    assert!(text.contains("Turn two loan"), "{text}");
    assert!(text.contains("End of turn 2 146"), "{text}");
    assert!(text.contains("Army of Picardy army Picardy 5"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
