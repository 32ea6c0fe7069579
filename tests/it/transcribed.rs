//! A transcription is part of the record (issue 45, item 7), played through the command line:
//! a chart result typed in for a missing cell, the table transcribed from the umpire's sheet
//! mid-game (a cell that differs from the typed result, one that agrees), play going on with the
//! transcribed cells; `game verify` and a player's `verify-side` hold each entry to the tables
//! in force when it was made; forged and damaged transcriptions are named.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::broken::{export, forge_file, text};
use crate::cli::umpire;
use crate::facts::Table;

const SCENARIO: &str = "ailsh_1_venice_at_bay_1509";
const WEATHER_PHASE: &str = "A) Weather Phase";
/// The line every recorded transcription of the sheet below says.
const RECORDED: &str =
    "Transcribed the Weather Table from the umpire's chart sheet: it fills 6 cells";

fn scratch(tag: &str) -> PathBuf {
    crate::common::scratch_dir("transcribed", tag)
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// The Weather Table as an umpire's chart sheet prints it (an invented sheet): 1 Frost, 2 Mud,
/// 3 Fair, 4 Fair, 5 Rain, 6 Heat. The text gives no cell of it.
fn weather_sheet() -> String {
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/ailsh/weather.yaml"),
    )
    .expect("the shipped Weather Table");
    let mut out = shipped.clone();
    for (key, result) in [
        (1, "frost"),
        (2, "mud"),
        (3, "fair"),
        (4, "fair"),
        (5, "rain"),
        (6, "heat"),
    ] {
        let missing = format!("{{key: {key}, cell: \"?\"}}");
        assert!(out.contains(&missing), "the shipped row {key} is missing");
        out = out.replace(&missing, &format!("{{key: {key}, cell: {result}}}"));
    }
    assert_ne!(out, shipped);
    out
}

/// A game whose turn 1 and 2 Weather were read off the physical chart (roll 3: Fair, as the
/// sheet prints it; roll 2: Fair, where the sheet prints Mud), then the sheet transcribed,
/// then turn 3's Weather rolled on the transcribed table. Its scratch folder and the entry of
/// the transcription.
fn played(tag: &str) -> (Table, PathBuf, u64) {
    let dir = scratch(tag);
    let t = Table::new(SCENARIO, &format!("transcribed-{tag}"));
    t.run(
        "resolve",
        &["weather", "--roll", "3", "--chart-result", "fair"],
    );
    t.walk_to(2, WEATHER_PHASE);
    t.run(
        "resolve",
        &["weather", "--roll", "2", "--chart-result", "fair"],
    );
    let sheet = dir.join("weather.yaml");
    std::fs::write(&sheet, weather_sheet()).expect("the sheet");
    let said = t.run("transcribe", &[&s(&sheet)]);
    assert!(said.contains(RECORDED), "{said}");
    let entry: u64 = said
        .lines()
        .find(|l| l.contains(RECORDED))
        .and_then(|l| l.strip_prefix("recorded entry "))
        .and_then(|l| l.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no entry number in: {said}"));
    t.walk_to(3, WEATHER_PHASE);
    // The transcribed cell answers: no chart result is asked for.
    let said = t.run("resolve", &["weather", "--roll", "2"]);
    assert!(said.contains("Mud"), "{said}");
    (t, dir, entry)
}

/// stdout and stderr of a run, for assertions on what it says anywhere.
fn all(run: &crate::cli::Run) -> String {
    format!("{}\n{}", run.stdout, run.stderr)
}

#[test]
fn a_chart_transcribed_mid_game_is_recorded_and_each_result_keeps_its_tables() {
    let (t, dir, entry) = played("mid");
    // The typed turn-2 result (Fair, where the sheet prints Mud) is checked against the table
    // as it was then: verify passes, and says what it held.
    let verified = t.attempt("verify", &[]);
    assert!(verified.success, "{}", verified.show());
    assert!(
        verified
            .stdout
            .contains("1 table transcribed during the game"),
        "{}",
        verified.show()
    );
    // The entry carries the table's text: a player's export verifies with no transcription
    // folder at all.
    let exported = dir.join("game.jsonl");
    t.run("export", &["--jsonl", "-o", &s(&exported)]);
    let side = umpire(&["--no-user-rules", "game", "verify-side", &s(&exported)]);
    assert!(side.success, "{}", side.show());
    let journal = std::fs::read_to_string(&exported).expect("export");
    let line: Value = journal
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|l| l["seq"] == json!(entry))
        .expect("the transcription's line");
    assert_eq!(line["entry"]["type"], "transcribed", "{line}");
    assert_eq!(line["entry"]["table"], "weather", "{line}");
    assert_eq!(line["entry"]["filled"], 6, "{line}");
    assert_eq!(
        line["entry"]["content"].as_str(),
        Some(weather_sheet().as_str())
    );
    // The same table again: nothing to record, nothing recorded.
    let sheet = dir.join("weather.yaml");
    let again = t.refused("transcribe", &[&s(&sheet)]);
    assert!(again.contains("nothing to record"), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn forged_and_damaged_transcriptions_are_named() {
    let (t, dir, entry) = played("forged");
    let game = PathBuf::from(&t.game);
    let honest = export(&game);
    let k = entry as usize - 1;
    let check = |tag: &str, forge: &dyn Fn(&mut Vec<Value>), words: &[&str]| {
        let mut ex = export(&game);
        forge(&mut ex.entries);
        let jsonl = dir.join(format!("{tag}.jsonl"));
        std::fs::write(&jsonl, text(&ex)).expect("write");
        let run = umpire(&["--no-user-rules", "game", "verify-side", &s(&jsonl)]);
        assert!(!run.success, "{tag}: {}", run.show());
        assert!(!all(&run).contains("panicked"), "{tag}: {}", run.show());
        for w in words {
            assert!(all(&run).contains(w), "{tag}: no '{w}' in {}", run.show());
        }
    };
    // Honest, re-chained the way the forgeries are: it verifies.
    let jsonl = dir.join("honest.jsonl");
    std::fs::write(&jsonl, text(&honest)).expect("write");
    let run = umpire(&["--no-user-rules", "game", "verify-side", &s(&jsonl)]);
    assert!(run.success, "{}", run.show());
    // A cell changed in the recorded table after it was recorded (the chain made good again).
    check(
        "changed",
        &|entries| {
            let content = entries[k]["content"].as_str().unwrap_or_default();
            let forged = content.replace("{key: 3, cell: fair}", "{key: 3, cell: rain}");
            assert_ne!(forged, content);
            entries[k]["content"] = json!(forged);
        },
        &[&format!("entry {entry}"), "is not the one it records"],
    );
    // The transcription moved before the result typed in for the missing cell: that result is
    // then read against the transcribed cell (Mud), not the one the journal records (Fair).
    check(
        "moved",
        &|entries| {
            entries.swap(k - 1, k);
            entries[k - 1]["seq"] = json!(entry - 1);
            entries[k]["seq"] = json!(entry);
        },
        &[
            &format!("entry {entry}"),
            "gives mud with these inputs and dice, the journal says fair",
        ],
    );
    // A damaged transcription (not YAML a table reads): named, no panic.
    check(
        "damaged",
        &|entries| entries[k]["content"] = json!("id: weather\nrows: [\n"),
        &[&format!("entry {entry}"), "does not load"],
    );
    // A table of another ruleset.
    check(
        "other",
        &|entries| entries[k]["ruleset"] = json!("qrs"),
        &[&format!("entry {entry}"), "ruleset qrs"],
    );
    // The damaged entry in a game file (a careful forger with sqlite3): the game does not open,
    // and says why.
    let mut ex = export(&game);
    ex.entries[k]["content"] = json!("id: weather\nrows: [\n");
    let forged = dir.join("damaged.umpire");
    forge_file(&game, &ex, &forged);
    let run = umpire(&["--no-user-rules", "game", "status", &s(&forged)]);
    assert!(!run.success, "{}", run.show());
    assert!(!all(&run).contains("panicked"), "{}", run.show());
    assert!(
        all(&run).contains(&format!("entry {entry} records a transcription")),
        "{}",
        run.show()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_transcription_from_the_umpires_folder_is_recorded_and_a_bad_one_refused() {
    let dir = scratch("layer");
    let user = dir.join("rules");
    let game = s(&dir.join("game.umpire"));
    let u = |args: &[&str]| {
        let mut with = vec!["--user-rules", user.to_str().expect("utf-8")];
        with.extend_from_slice(args);
        umpire(&with)
    };
    let entries = || -> u64 {
        let run = u(&["game", "status", &game, "--json"]);
        assert!(run.success, "{}", run.show());
        let status: Value = serde_json::from_str(&run.stdout).expect("status JSON");
        status["events"].as_u64().expect("events")
    };
    let made = u(&["game", "new", SCENARIO, "-o", &game]);
    assert!(made.success, "{}", made.show());
    let typed = u(&[
        "game",
        "resolve",
        &game,
        "weather",
        "--roll",
        "2",
        "--chart-result",
        "fair",
    ]);
    assert!(typed.success, "{}", typed.show());
    // The umpire fills a template in their folder, as the README says.
    let template = u(&["rules", "template", "ailsh", "weather"]);
    assert!(template.success, "{}", template.show());
    std::fs::write(user.join("ailsh/weather.yaml"), weather_sheet()).expect("filled");
    // Not recorded yet: the game still reads the tables it began with (the typed Fair stands),
    // and says which of the folder's tables it does not read.
    let listed = u(&["game", "transcribe", &game]);
    assert!(listed.success, "{}", listed.show());
    assert!(
        listed
            .stdout
            .contains("Weather Table (weather): transcribed in your folder, not recorded"),
        "{}",
        listed.show()
    );
    let verified = u(&["game", "verify", &game]);
    assert!(verified.success, "{}", verified.show());
    // A bad file is refused with its line and column; nothing is recorded.
    let before = entries();
    let bad = dir.join("bad/weather.yaml");
    std::fs::create_dir_all(bad.parent().expect("folder")).expect("folder");
    std::fs::write(
        &bad,
        weather_sheet().replace("{key: 2, cell: mud}", "{key: 2, cell: mud"),
    )
    .expect("bad");
    let refused = u(&["game", "transcribe", &game, &s(&bad)]);
    assert!(!refused.success, "{}", refused.show());
    assert!(
        refused.stderr.contains("the Weather Table is not recorded"),
        "{}",
        refused.show()
    );
    let placed = refused.stderr.lines().any(|l| {
        l.split_once("weather.yaml:").is_some_and(|(_, rest)| {
            let mut parts = rest.split(':');
            parts
                .next()
                .is_some_and(|n| n.parse::<usize>().is_ok_and(|n| n > 0))
                && parts.next().is_some_and(|n| n.parse::<usize>().is_ok())
        })
    });
    assert!(placed, "no file:line:column in {}", refused.show());
    assert_eq!(entries(), before, "nothing recorded");
    // From the folder, by the table's title.
    let recorded = u(&["game", "transcribe", &game, "--from-layer", "Weather Table"]);
    assert!(recorded.success, "{}", recorded.show());
    assert!(recorded.stdout.contains(RECORDED), "{}", recorded.show());
    assert_eq!(entries(), before + 1);
    let listed = u(&["game", "transcribe", &game]);
    assert!(
        listed.stdout.contains("reads every table"),
        "{}",
        listed.show()
    );
    // Verified here, and on a machine without the folder.
    for run in [
        u(&["game", "verify", &game]),
        umpire(&["--no-user-rules", "game", "verify", &game]),
    ] {
        assert!(run.success, "{}", run.show());
        assert!(run.stdout.contains("1 table transcribed"), "{}", run.show());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The phones' Verify page reads each result against the tables in force when it was made:
/// the turn-2 Weather typed in as Fair (where the sheet transcribed later prints Mud) is no
/// "problem found" for either side, and the page says a table was transcribed.
#[test]
fn the_phones_verify_page_holds_each_result_to_the_tables_of_its_time() {
    let (t, dir, _) = played("phone");
    let server = umpire::serve::Server::start(
        &t.game,
        umpire::rules::Library::shipped(),
        &umpire::serve::ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections: 32,
        },
    )
    .expect("serves");
    for side in ["french", "venetian"] {
        let token =
            crate::serve::link(&server, &umpire::serve::Audience::Side(side.into())).to_string();
        let (status, page) = crate::serve::get(server.addr, &format!("/s/{token}/verify"));
        assert_eq!(status, 200, "{page}");
        assert!(
            page.contains("Verified: the hash chain is whole") && !page.contains("Problems found"),
            "{side}: {page}"
        );
        assert!(
            page.contains("1 table transcribed from the umpire's chart sheet during the game"),
            "{side}: {page}"
        );
    }
    server.stop();
    let _ = std::fs::remove_dir_all(&dir);
}
