//! The command line's JSON contract and error messages, run against the built binary and the
//! shipped rulesets.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// What a run of the binary gave.
pub(crate) struct Run {
    args: String,
    pub(crate) success: bool,
    code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    pub(crate) fn show(&self) -> String {
        format!(
            "umpire {} → exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.args, self.code, self.stdout, self.stderr
        )
    }

    /// Stdout parsed as JSON, after checking the run succeeded.
    fn json(&self) -> Value {
        assert!(self.success, "expected success:\n{}", self.show());
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.show()))
    }

    /// Checks the run failed with a message on stderr only, containing every phrase.
    fn fails_saying(&self, phrases: &[&str]) {
        assert!(!self.success, "expected failure:\n{}", self.show());
        assert!(
            self.stdout.trim().is_empty(),
            "stdout must stay empty on error:\n{}",
            self.show()
        );
        for p in phrases {
            assert!(
                self.stderr.contains(p),
                "stderr does not mention {p:?}:\n{}",
                self.show()
            );
        }
    }
}

pub(crate) fn umpire(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        // The shipped rulesets, whatever the caller's environment says.
        .env_remove("UMPIRE_RULES")
        .output()
        .expect("the umpire binary runs");
    Run {
        args: args.join(" "),
        success: out.status.success(),
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect()
}

fn set<'a>(names: &[&'a str]) -> BTreeSet<&'a str> {
    names.iter().copied().collect()
}

/// The object has at least these keys.
fn has_keys(v: &Value, names: &[&str], what: &str) {
    let missing: Vec<&&str> = names.iter().filter(|k| v.get(**k).is_none()).collect();
    assert!(
        missing.is_empty(),
        "{what} lacks {missing:?}; it has {:?}",
        keys(v)
    );
}

fn array<'a>(v: &'a Value, what: &str) -> &'a Vec<Value> {
    v.as_array()
        .unwrap_or_else(|| panic!("{what} is not an array: {v}"))
}

// --- roll ------------------------------------------------------------------------------------

#[test]
fn roll_with_seed_gives_dice_total_and_provenance() {
    let run = umpire(&["roll", "2d6", "--seed", "5", "--json"]);
    let v = run.json();
    assert_eq!(
        keys(&v),
        set(&["expr", "dice", "total", "provenance"]),
        "{}",
        run.show()
    );
    assert_eq!(v["expr"], "2d6");
    let dice = array(&v["dice"], "dice");
    assert_eq!(dice.len(), 2);
    let mut sum = 0;
    for d in dice {
        assert_eq!(d["die"], "d6");
        let face = d["face"].as_i64().expect("face is a number");
        assert!((1..=6).contains(&face), "face {face}");
        sum += face;
    }
    assert_eq!(v["total"].as_i64(), Some(sum));
    assert_eq!(
        v["provenance"]["seed"].as_u64(),
        Some(5),
        "provenance: {}",
        v["provenance"]
    );
    assert_eq!(v["provenance"]["source"], "app");

    let again = umpire(&["roll", "2d6", "--seed", "5", "--json"]);
    assert_eq!(run.stdout, again.stdout, "same seed, different output");
}

#[test]
fn roll_odds_gives_the_exact_distribution() {
    let run = umpire(&["roll", "2d6", "--odds", "--json"]);
    let v = run.json();
    assert_eq!(
        keys(&v),
        set(&["expr", "exact", "cases", "distribution"]),
        "{}",
        run.show()
    );
    assert_eq!(v["expr"], "2d6");
    assert_eq!(v["exact"], true);
    assert_eq!(v["cases"], "36");
    let rows = array(&v["distribution"], "distribution");
    assert_eq!(rows.len(), 11);
    let values: Vec<i64> = rows
        .iter()
        .map(|r| r["value"].as_i64().expect("value"))
        .collect();
    assert_eq!(values, (2..=12).collect::<Vec<_>>());
    let mut total = 0.0;
    for r in rows {
        assert_eq!(keys(r), set(&["value", "probability", "fraction"]));
        total += r["probability"].as_f64().expect("probability");
    }
    assert!((total - 1.0).abs() < 1e-9, "probabilities sum to {total}");
    let seven = rows.iter().find(|r| r["value"] == 7).expect("a row for 7");
    assert_eq!(seven["fraction"], "1/6");
    assert!((seven["probability"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12);
}

// --- rules -----------------------------------------------------------------------------------

#[test]
fn rules_list_names_the_shipped_rulesets() {
    let v = umpire(&["rules", "list", "--json"]).json();
    let list = array(&v, "rules list");
    let qrs = list
        .iter()
        .find(|r| r["id"] == "qrs")
        .unwrap_or_else(|| panic!("qrs not listed: {v}"));
    has_keys(
        qrs,
        &["id", "name", "procedures", "tables"],
        "rules list entry",
    );
    assert!(qrs["name"].as_str().is_some_and(|n| !n.is_empty()));
    assert!(qrs["procedures"].as_u64().is_some_and(|n| n > 0));
}

/// `rules orders`: the written orders a ruleset declares, in the game's words (ids only in the
/// JSON).
#[test]
fn rules_orders_reads_the_declaration_in_the_games_words() {
    let run = umpire(&["rules", "orders", "rr3"]);
    assert!(run.success, "{}", run.show());
    for words in [
        "Intention Card (The Campaign System › Movement)",
        "First movement step",
        "From: each army's commander",
        "Holds: Intention to engage — a box, ticked or not",
        "A late order: misses the step — If players are not ready",
        "Revealed: to Map Control, when the step it is due at begins",
    ] {
        assert!(
            run.stdout.contains(words),
            "{words:?} not in {}",
            run.show()
        );
    }
    for id in [
        "intention_card",
        "phase_2_step_1",
        "misses_step",
        "army_commander",
    ] {
        assert!(!run.stdout.contains(id), "{id} shown: {}", run.show());
    }
    let v = umpire(&["rules", "orders", "ailsh", "--json"]).json();
    assert_eq!(v["orders"][0]["id"], "orders", "{v}");
    assert_eq!(v["orders"][0]["steps"][0], "b2d_issue_orders", "{v}");
    assert_eq!(v["orders"][0]["late"]["kind"], "not_stated", "{v}");
    let run = umpire(&["rules", "orders", "qrs"]);
    assert!(
        run.success && run.stdout.contains("the rules call for no written orders"),
        "{}",
        run.show()
    );
}

#[test]
fn rules_check_reports_every_table() {
    let run = umpire(&["rules", "check", "--json"]);
    let v: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", run.show()));
    let report = array(&v, "rules check");
    assert!(!report.is_empty());
    let failing: Vec<String> = report
        .iter()
        .filter(|r| r["errors"].as_array().is_none_or(|e| !e.is_empty()))
        .map(|r| format!("{}: {}", r["ruleset"], r["errors"][0]["message"]))
        .collect();
    assert!(
        failing.is_empty(),
        "shipped rulesets that do not load:\n{}",
        failing.join("\n")
    );
    assert!(
        run.success,
        "every ruleset loads, yet the check failed:\n{}",
        run.show()
    );
    for r in report {
        assert_eq!(
            keys(r),
            set(&["ruleset", "tables", "errors"]),
            "check entry {r}"
        );
        for t in array(&r["tables"], "tables") {
            has_keys(t, &["id", "complete", "missing_cells"], "table entry");
            assert!(
                t["complete"].is_boolean() && t["missing_cells"].is_u64(),
                "table entry {t}"
            );
            assert_eq!(
                t["complete"].as_bool(),
                Some(t["missing_cells"] == 0),
                "complete and missing_cells disagree: {t}"
            );
        }
    }
    let qrs = report
        .iter()
        .find(|r| r["ruleset"] == "qrs")
        .expect("qrs is checked");
    let ids: BTreeSet<&str> = array(&qrs["tables"], "tables")
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert!(
        ids.contains("retreat") && ids.contains("firing"),
        "qrs tables: {ids:?}"
    );
}

#[test]
fn rules_check_of_a_malformed_folder_fails_with_located_errors() {
    // Every malformed fixture: non-zero exit, and the JSON names file, line and column.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/malformed");
    let mut dirs: Vec<String> = std::fs::read_dir(&root)
        .expect("fixtures exist")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 24);
    for dir in &dirs {
        let path = format!("tests/fixtures/malformed/{dir}");
        let run = umpire(&["rules", "check", &path, "--json"]);
        assert!(!run.success, "{dir}: check passed:\n{}", run.show());
        let v: Value = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("{dir}: stdout is not JSON ({e}):\n{}", run.show()));
        let report = array(&v, "rules check");
        assert_eq!(
            report.len(),
            1,
            "{dir}: one ruleset checked:\n{}",
            run.show()
        );
        assert_eq!(keys(&report[0]), set(&["ruleset", "tables", "errors"]));
        let errors = array(&report[0]["errors"], "errors");
        assert!(
            !errors.is_empty(),
            "{dir}: no errors listed:\n{}",
            run.show()
        );
        for e in errors {
            has_keys(
                e,
                &["file", "line", "column", "problem", "hint", "message"],
                "error",
            );
            let file = e["file"].as_str().expect("file is text");
            assert!(
                file.contains(dir.as_str()) && file.ends_with(".yaml"),
                "{dir}: file {file}"
            );
            assert!(
                e["line"].as_u64().is_some_and(|l| l >= 1),
                "{dir}: line {}",
                e["line"]
            );
            assert!(
                e["column"].as_u64().is_some_and(|c| c >= 1),
                "{dir}: column {}",
                e["column"]
            );
            let message = e["message"].as_str().expect("message is text");
            assert!(
                message.starts_with(&format!("{file}:{}:{}: ", e["line"], e["column"])),
                "{dir}: message {message}"
            );
        }
        assert!(
            run.stderr.contains("do not load"),
            "{dir}: stderr: {}",
            run.stderr
        );
    }
}

#[test]
fn rules_check_of_one_fixture_gives_its_exact_location() {
    let run = umpire(&[
        "rules",
        "check",
        "tests/fixtures/malformed/07_overlapping_ranges",
        "--json",
    ]);
    assert!(!run.success);
    let v: Value = serde_json::from_str(&run.stdout).expect("JSON");
    let e = &v[0]["errors"][0];
    assert!(
        e["file"]
            .as_str()
            .is_some_and(|f| f.ends_with("07_overlapping_ranges/t.yaml")),
        "{e}"
    );
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(6), Some(11)),
        "{e}"
    );
    assert!(
        e["problem"]
            .as_str()
            .is_some_and(|p| p.contains("overlaps")),
        "{e}"
    );
}

#[test]
fn rules_check_without_json_prints_errors_on_stderr() {
    let run = umpire(&[
        "rules",
        "check",
        "tests/fixtures/malformed/13_unknown_input_name",
    ]);
    assert!(!run.success);
    assert!(
        run.stderr.contains("ruleset.yaml:12:15: "),
        "{}",
        run.show()
    );
    assert!(run.stderr.contains("disorderd"), "{}", run.show());
}

// --- describe ----------------------------------------------------------------------------------

#[test]
fn describe_lists_inputs_outcomes_and_rule_references() {
    let run = umpire(&["describe", "qrs", "discipline_test", "--json"]);
    let v = run.json();
    has_keys(&v, &["procedures"], "describe");
    let procs = array(&v["procedures"], "procedures");
    assert_eq!(procs.len(), 1);
    let p = &procs[0];
    assert_eq!(p["id"], "discipline_test");
    assert!(
        p["rule"].as_str().is_some_and(|r| !r.is_empty()),
        "procedure rule reference: {}",
        p["rule"]
    );
    let inputs = array(&p["inputs"], "inputs");
    for i in inputs {
        has_keys(i, &["name", "type"], "input");
        match i["type"].as_str() {
            Some("choice") => assert!(array(&i["choices"], "choices").len() > 1, "{i}"),
            Some("int") => {
                let (min, max) = (
                    i["min"].as_i64().expect("min"),
                    i["max"].as_i64().expect("max"),
                );
                assert!(min <= max, "{i}");
            }
            Some("flag") => assert!(i.get("choices").is_none() && i.get("min").is_none(), "{i}"),
            other => panic!("input type {other:?}: {i}"),
        }
    }
    let discipline = inputs
        .iter()
        .find(|i| i["name"] == "discipline")
        .expect("discipline input");
    assert_eq!(discipline["choices"], serde_json::json!(["A", "B", "C"]));
    assert!(
        discipline["rule"].as_str().is_some_and(|r| !r.is_empty()),
        "input rule reference"
    );
    let evasions = inputs
        .iter()
        .find(|i| i["name"] == "earlier_evasions")
        .expect("an int input");
    assert_eq!(
        (evasions["min"].as_i64(), evasions["max"].as_i64()),
        (Some(0), Some(10))
    );
    let outcomes = array(&p["outcomes"], "outcomes");
    let codes: Vec<&str> = outcomes.iter().filter_map(|o| o["code"].as_str()).collect();
    assert_eq!(codes, vec!["pass", "fail"]);
    let fail = &outcomes[1];
    assert!(
        fail["rule"].as_str().is_some_and(|r| r.starts_with('L')),
        "outcome rule reference: {fail}"
    );
}

// --- resolve -----------------------------------------------------------------------------------

#[test]
fn resolve_with_physical_dice_explains_the_outcome() {
    let run = umpire(&[
        "resolve",
        "qrs",
        "discipline_test",
        "--input",
        "discipline=B",
        "--input",
        "outside_command_range=true",
        "--roll",
        "4",
        "--json",
    ]);
    let v = run.json();
    has_keys(
        &v,
        &[
            "procedure",
            "inputs",
            "rolls",
            "modifiers",
            "outcome",
            "explanation",
        ],
        "resolution",
    );
    assert_eq!(v["procedure"], "discipline_test");
    assert_eq!(v["inputs"]["discipline"], "B");
    assert_eq!(v["inputs"]["outside_command_range"], true);
    let rolls = array(&v["rolls"], "rolls");
    assert_eq!(rolls.len(), 1);
    assert_eq!(rolls[0]["dice"][0]["face"], 4);
    let modifiers = array(&v["modifiers"], "modifiers");
    assert_eq!(
        modifiers.len(),
        1,
        "only the Outside Command Range modifier applies: {}",
        v["modifiers"]
    );
    has_keys(&modifiers[0], &["name", "value", "source"], "modifier");
    assert_eq!(modifiers[0]["name"], "Outside Command Range");
    assert_eq!(modifiers[0]["value"], -1);
    assert_eq!(modifiers[0]["source"], "The Discipline Test");
    has_keys(&v["outcome"], &["code", "effects"], "outcome");
    assert_eq!(v["outcome"]["code"], "fail", "4 − 1 = 3 against 4+");
    assert!(v["outcome"]["effects"].is_array());
    let explanation = array(&v["explanation"], "explanation");
    assert!(
        !explanation.is_empty() && explanation.iter().all(Value::is_string),
        "{}",
        v["explanation"]
    );
    assert!(explanation.iter().any(|l| {
        l.as_str()
            .is_some_and(|l| l.contains("Outside Command Range"))
    }));
}

#[test]
fn resolve_with_the_same_seed_gives_the_same_output() {
    let args = [
        "resolve",
        "qrs",
        "discipline_test",
        "--input",
        "discipline=B",
        "--seed",
        "9",
        "--json",
    ];
    let (a, b) = (umpire(&args), umpire(&args));
    let v = a.json();
    assert_eq!(a.stdout, b.stdout, "seed 9 twice gave different output");
    let provenance = &v["rolls"][0]["provenance"];
    assert_eq!(provenance["seed"].as_u64(), Some(9), "{provenance}");
    assert!(v["outcome"]["code"] == "pass" || v["outcome"]["code"] == "fail");
}

// --- odds --------------------------------------------------------------------------------------

#[test]
fn odds_give_exact_fractions_per_outcome() {
    let run = umpire(&[
        "odds",
        "qrs",
        "discipline_test",
        "--input",
        "discipline=B",
        "--json",
    ]);
    let v = run.json();
    has_keys(&v, &["procedure", "outcomes"], "odds");
    assert_eq!(v["procedure"], "discipline_test");
    let outcomes = array(&v["outcomes"], "outcomes");
    let mut total = 0.0;
    for o in outcomes {
        has_keys(o, &["code", "probability", "fraction"], "outcome odds");
        total += o["probability"].as_f64().expect("probability");
    }
    assert!((total - 1.0).abs() < 1e-9, "probabilities sum to {total}");
    let pass = outcomes
        .iter()
        .find(|o| o["code"] == "pass")
        .expect("pass listed");
    assert_eq!(pass["fraction"], "1/2", "B needs 4+ on a d6");
}

// --- errors ------------------------------------------------------------------------------------

#[test]
fn unknown_ruleset_lists_the_valid_ones() {
    umpire(&["describe", "nosuch"]).fails_saying(&["unknown ruleset 'nosuch'", "qrs"]);
    umpire(&[
        "resolve",
        "nosuch",
        "discipline_test",
        "--roll",
        "3",
        "--json",
    ])
    .fails_saying(&["unknown ruleset 'nosuch'", "qrs"]);
    umpire(&["odds", "nosuch", "discipline_test", "--json"])
        .fails_saying(&["unknown ruleset 'nosuch'", "qrs"]);
    umpire(&["rules", "check", "nosuch", "--json"])
        .fails_saying(&["unknown ruleset 'nosuch'", "qrs"]);
}

#[test]
fn unknown_procedure_lists_the_valid_ones() {
    umpire(&["resolve", "qrs", "nosuch", "--roll", "3", "--json"]).fails_saying(&[
        "unknown procedure 'nosuch'",
        "discipline_test",
        "retreat",
    ]);
    umpire(&["describe", "qrs", "nosuch", "--json"])
        .fails_saying(&["unknown procedure 'nosuch'", "discipline_test"]);
}

#[test]
fn unknown_input_lists_the_valid_inputs() {
    umpire(&[
        "resolve",
        "qrs",
        "discipline_test",
        "--input",
        "colour=red",
        "--roll",
        "3",
        "--json",
    ])
    .fails_saying(&[
        "no input 'colour'",
        "discipline",
        "test_for",
        "outside_command_range",
    ]);
    umpire(&[
        "odds",
        "qrs",
        "discipline_test",
        "--input",
        "colour=red",
        "--json",
    ])
    .fails_saying(&["no input 'colour'", "discipline"]);
}

#[test]
fn impossible_face_names_the_die_faces() {
    umpire(&[
        "resolve",
        "qrs",
        "discipline_test",
        "--input",
        "discipline=B",
        "--roll",
        "7",
        "--json",
    ])
    .fails_saying(&["7 is not a face of a d6", "1–6"]);
}

#[test]
fn bad_choice_names_the_choices() {
    umpire(&[
        "resolve",
        "qrs",
        "discipline_test",
        "--input",
        "discipline=Z",
        "--roll",
        "3",
        "--json",
    ])
    .fails_saying(&["'Z'", "A, B, C"]);
}

#[test]
fn missing_input_names_it() {
    umpire(&["resolve", "qrs", "discipline_test", "--roll", "3", "--json"])
        .fails_saying(&["discipline", "--input discipline="]);
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("umpire-cli-pipe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let game = dir.join("long.umpire");
    let game = game.to_string_lossy();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scenarios/skirmish.yaml"
    );
    assert!(umpire(&["game", "new", fixture, "-o", &game, "--seed", "1"]).success);
    // A journal long enough that its export cannot fit in the pipe.
    let soaked = Command::new(env!("CARGO_BIN_EXE_umpire-soak"))
        .args([game.as_ref(), "--actions", "400"])
        .output()
        .expect("umpire-soak runs");
    assert!(soaked.status.success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["game", "export", &game, "--jsonl"])
        .env_remove("UMPIRE_RULES")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("first line");
    assert!(first.starts_with('{'), "{first}");
    // The reader is gone (like `| head -1`): the writer must stop without a panic report.
    let out = child.wait_with_output().expect("wait");
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(!errors.contains("panicked"), "{errors}");
    assert!(out.status.success(), "{:?} {errors}", out.status);
    let _ = std::fs::remove_dir_all(&dir);
}

/// References as the rulebook prints them; the text's lines only on asking (`--sources`) and in
/// the JSON.
#[test]
fn describe_cites_the_rulebook_and_the_text_lines_only_as_source() {
    let plain = umpire(&["describe", "qrs", "discipline_test"]);
    assert!(plain.success, "{}", plain.show());
    assert!(
        plain
            .stdout
            .contains("modifier   -1  Outside Command Range  [The Discipline Test]"),
        "{}",
        plain.stdout
    );
    assert!(!plain.stdout.contains("L39"), "{}", plain.stdout);
    let sourced = umpire(&["describe", "qrs", "discipline_test", "--sources"]);
    assert!(
        sourced
            .stdout
            .contains("Outside Command Range  [The Discipline Test; text L39]"),
        "{}",
        sourced.stdout
    );
    let v = umpire(&["describe", "qrs", "discipline_test", "--json"]).json();
    let m = &v["procedures"][0]["modifiers"][0];
    assert_eq!(m["rule"], "The Discipline Test");
    assert_eq!(m["source"], "L39");
}

/// `game status` numbers the pending items in words (no keys); `game skip` takes the number.
#[test]
fn pending_items_are_numbered_in_words_and_skipped_by_number() {
    let dir = std::env::temp_dir().join(format!("umpire-cli-skip-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let game = dir.join("venice.umpire");
    let game = game.to_string_lossy();
    assert!(umpire(&["game", "new", "ailsh_1_venice_at_bay_1509", "-o", &game]).success);
    let status = umpire(&["game", "status", &game]);
    assert!(
        status.stdout.contains(
            "! 1. French APs at start (actual): 5 — add 5 to French AP marker's Administrative Points"
        ),
        "{}",
        status.stdout
    );
    assert!(!status.stdout.contains("schedule:"), "{}", status.stdout);
    // Counters by their names, never their ids; a name works as an argument.
    assert!(
        status.stdout.contains("French Gendarmes (Chaumont)")
            && status.stdout.contains("Strength Points (current) 6")
            && !status.stdout.contains("fr-chaumont")
            && !status.stdout.contains("strength_points"),
        "{}",
        status.stdout
    );
    let moved = umpire(&["game", "move", &game, "french gendarmes (chaumont)", "2833"]);
    assert!(
        moved.success
            && moved
                .stdout
                .contains("French Gendarmes (Chaumont) moved from hex 2832 (Cassano) to hex 2833"),
        "{}",
        moved.show()
    );
    umpire(&["game", "move", &game, "French Gendarmes", "2833"]).fails_saying(&[
        "no counter 'French Gendarmes'",
        "\"French Gendarmes (Chaumont)\"",
    ]);
    // The scheduled APs are credited to the AP marker as an entry; the item is then done.
    let credited = umpire(&["game", "credit", &game, "1"]);
    assert!(
        credited.stdout.contains(
            "French AP marker: Administrative Points +5 — French APs at start (actual) (scenario schedule)"
        ),
        "{}",
        credited.show()
    );
    let status = umpire(&["game", "status", &game]);
    assert!(
        status.stdout.contains("✓ 1. French APs at start")
            && status.stdout.contains("Administrative Points 5"),
        "{}",
        status.stdout
    );
    umpire(&["game", "credit", &game, "1"]).fails_saying(&["has nothing to credit now"]);
    let skipped = umpire(&["game", "skip", &game, "2", "--reason", "on the AP track"]);
    assert!(skipped.success, "{}", skipped.show());
    let status = umpire(&["game", "status", &game]);
    assert!(
        status.stdout.contains("✓ 2. Venetian APs at start"),
        "{}",
        status.stdout
    );
    umpire(&["game", "skip", &game, "9", "--reason", "x"]).fails_saying(&[
        "no pending item '9' at this step",
        "1. French APs at start (actual)",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A leading minus is a value where a value is expected: `umpire roll -d6` rolls minus a d6,
/// and `--chart-result -2` reaches the table (which then names its own codes), without `--`.
#[test]
fn a_leading_minus_is_a_value() {
    let r = umpire(&["roll", "-d6", "--odds"]);
    assert!(r.success, "{}", r.show());
    assert!(
        r.stdout.contains("-6") && r.stdout.contains("1/6"),
        "{}",
        r.show()
    );
    let r = umpire(&[
        "resolve",
        "ailsh",
        "weather",
        "--roll",
        "4",
        "--chart-result",
        "-2",
    ]);
    assert!(!r.success);
    assert!(
        r.show().contains("'-2' is not a result of Weather Table"),
        "the value reached the engine: {}",
        r.show()
    );
}

/// `umpire --version` says the version and the commit it was built from.
#[test]
fn the_version_names_the_commit() {
    let run = umpire(&["--version"]);
    assert!(run.success, "{}", run.show());
    let line = run.stdout.trim();
    let commit = line
        .strip_prefix(&format!("umpire {} (", env!("CARGO_PKG_VERSION")))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line}"));
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{line}"
    );
}

/// Bash completes `umpire game <TAB>` with the game subcommands, and `umpire game deck d<TAB>`
/// with draw.
#[test]
fn bash_completes_the_subcommands() {
    let run = umpire(&["completions", "bash"]);
    assert!(run.success, "{}", run.show());
    let dir = std::env::temp_dir().join(format!("umpire-completions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let script = dir.join("umpire.bash");
    std::fs::write(&script, &run.stdout).expect("write");
    // The script asks `umpire` itself (dynamic completion): the binary under test first on PATH.
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_umpire"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let complete = |words: &str, cword: usize, current: &str, previous: &str| -> String {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!(
                "source '{}'; COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_TYPE=9; \
                 _clap_complete_umpire umpire '{current}' '{previous}'; \
                 printf '%s\\n' \"${{COMPREPLY[@]}}\"",
                script.display()
            ))
            .env("PATH", &path)
            .output()
            .expect("bash");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let game = complete("umpire game ''", 2, "", "game");
    for sub in ["new", "resolve", "deck", "verify", "export"] {
        assert!(game.lines().any(|l| l == sub), "{sub} not offered: {game}");
    }
    let deck = complete("umpire game deck d", 3, "d", "deck");
    assert!(deck.lines().any(|l| l == "draw"), "{deck}");
    // zsh and fish get the same protocol's registration.
    for shell in ["zsh", "fish"] {
        let run = umpire(&["completions", shell]);
        assert!(
            run.success && run.stdout.contains("COMPLETE") && run.stdout.contains("umpire"),
            "{shell}: {}",
            run.show()
        );
    }
}

/// The manual pages: umpire(1) and one per subcommand, whose synopsis is what is typed; `man -l`
/// renders them.
#[test]
fn the_manual_pages_are_written_and_render() {
    let dir = std::env::temp_dir().join(format!("umpire-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = umpire(&["manpages", dir.to_str().expect("utf-8")]);
    assert!(run.success, "{}", run.show());
    for page in [
        "umpire.1",
        "umpire-game.1",
        "umpire-game-deck-draw.1",
        "umpire-serve.1",
        "umpire-roll.1",
    ] {
        assert!(dir.join(page).is_file(), "{page}");
    }
    let out = crate::common::tool::command("man")
        .args(["-l", "-P", "cat"])
        .arg(dir.join("umpire-game-deck-draw.1"))
        .env("MANWIDTH", "100")
        .output()
        .expect("man (Debian's man-db; .ci/run installs it)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("umpire game deck draw"), "{text}");
    assert!(text.contains("--item"), "{text}");
    // A subcommand's page carries the global options too (issue 31): --rules, --no-user-rules.
    for global in ["--rules", "--no-user-rules", "UMPIRE_RULES"] {
        assert!(text.contains(global), "the page lacks {global}:\n{text}");
    }
    // `man umpire-game-apply` shows its examples (docs/examples.md), as --help does, and
    // `man umpire` lists the subcommands, each with its line.
    let page = |name: &str| {
        let out = crate::common::tool::command("man")
            .args(["-l", "-P", "cat"])
            .arg(dir.join(name))
            .env("MANWIDTH", "100")
            .output()
            .expect("man");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let apply = page("umpire-game-apply.1");
    let examples = apply.split("EXAMPLES").nth(1).unwrap_or_default();
    assert!(
        examples.contains("$ umpire game apply agnadello.umpire 4 --proposed"),
        "{apply}"
    );
    let help = umpire(&["game", "apply", "--help"]);
    assert!(
        help.stdout
            .contains("$ umpire game apply agnadello.umpire 4 --proposed"),
        "{}",
        help.show()
    );
    let top = page("umpire.1");
    // Words, as man justifies the lines with extra spaces.
    let subcommands = top
        .split("SUBCOMMANDS")
        .nth(1)
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (page, line) in [
        ("umpire-roll(1)", "Roll dice"),
        ("umpire-game(1)", "Game sessions"),
        ("umpire-megagame(1)", "Megagame mode"),
    ] {
        let at = subcommands
            .find(page)
            .unwrap_or_else(|| panic!("{page}:\n{top}"));
        assert!(subcommands[at..].contains(line), "{page}: {line}\n{top}");
    }
}

/// `umpire FILE` is for game files: anything else is refused before a window opens.
#[test]
fn a_file_that_is_not_a_game_is_refused_before_the_desk_opens() {
    let run = umpire(&["Cargo.toml"]);
    assert!(!run.success);
    assert!(
        run.stderr.contains("Cargo.toml: not an Umpire game file"),
        "{}",
        run.show()
    );
    // Global options still go before a subcommand (the game file is only for the desk).
    let run = umpire(&["--no-user-rules", "rules", "list"]);
    assert!(run.success, "{}", run.show());
    let run = umpire(&["no-such-game.umpire"]);
    assert!(!run.success);
    assert!(
        run.stderr.contains("no-such-game.umpire: no such file"),
        "{}",
        run.show()
    );
}

/// `game move` moves a whole Force in one entry — named as the text names it ("Chaumont's
/// Force") or with `--force` beside one of its counters — and one undo takes it back; `game add`
/// puts a new counter on the table with its side, place and attributes, and refuses what the
/// ruleset does not know in words, writing nothing.
#[test]
fn a_force_moves_in_one_entry_and_a_counter_is_added_from_the_command_line() {
    let dir = std::env::temp_dir().join(format!("umpire-cli-force-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let game = dir.join("venice.umpire");
    let game = game.to_string_lossy();
    assert!(umpire(&["game", "new", "ailsh_1_venice_at_bay_1509", "-o", &game]).success);
    let entries = |game: &str| {
        umpire(&["game", "status", game, "--json"]).json()["events"]
            .as_u64()
            .expect("entries")
    };
    let before = entries(&game);
    // By the Force's words: every counter of Chaumont's Force on the table, one entry.
    let moved = umpire(&["game", "move", &game, "Chaumont's Force", "2731"]);
    assert!(moved.success, "{}", moved.show());
    for name in [
        "Chaumont moved from hex 2832 (Cassano) to hex 2731",
        "French Gendarmes (Chaumont) moved from hex 2832 (Cassano) to hex 2731",
        "Italian Infantry (French service, Chaumont) 2 moved from hex 2832 (Cassano) to hex 2731",
    ] {
        assert!(moved.stdout.contains(name), "{name}: {}", moved.show());
    }
    assert!(
        !moved.stdout.contains("Louis XII moved"),
        "{}",
        moved.show()
    );
    assert_eq!(entries(&game), before + 1, "one entry for the Force");
    // One undo takes the whole Force back.
    assert!(umpire(&["game", "undo", &game]).success);
    let status = umpire(&["game", "status", &game]).stdout;
    assert!(
        status
            .lines()
            .any(|l| l.contains("French Gendarmes (Chaumont)") && l.contains("hex 2832")),
        "{status}"
    );
    // A counter with --force brings its Force; alone it moves alone.
    let with = umpire(&["game", "move", &game, "Chaumont", "2731", "--force"]);
    assert!(
        with.success && with.stdout.contains("French Gendarmes (Chaumont) moved"),
        "{}",
        with.show()
    );
    let alone = umpire(&["game", "move", &game, "Chaumont", "2832"]);
    assert!(
        alone.success
            && alone.stdout.contains("Chaumont moved from hex 2731")
            && !alone.stdout.contains("Gendarmes"),
        "{}",
        alone.show()
    );
    // A new counter, with its side by name and an attribute; the side's view shows it, the
    // other side's does not (not in contact).
    let added = umpire(&[
        "game",
        "add",
        &game,
        "Venetian Militia",
        "--side",
        "Venetian",
        "--at",
        "2342",
        "--set",
        "strength_points=3",
        "--note",
        "raised at Crema",
    ]);
    assert!(
        added.success
            && added
                .stdout
                .contains("Venetian Militia (Venetian) put on the table at hex 2342 (Orzinuovi) — raised at Crema"),
        "{}",
        added.show()
    );
    let venetian = umpire(&["game", "status", &game, "--side", "Venetian"]).stdout;
    assert!(
        venetian
            .lines()
            .any(|l| l.contains("Venetian Militia") && l.contains("Strength Points (current) 3")),
        "{venetian}"
    );
    let french = umpire(&["game", "status", &game, "--side", "French"]).stdout;
    assert!(!french.contains("Venetian Militia"), "{french}");
    // Refusals in words; nothing written.
    let written = entries(&game);
    umpire(&[
        "game", "add", &game, "Bad", "--side", "French", "--at", "2342", "--set", "sp=3",
    ])
    .fails_saying(&["Bad has no attribute 'sp'", "strength_points"]);
    umpire(&[
        "game", "add", &game, "Bad", "--side", "French", "--at", "2342", "--set", "sp",
    ])
    .fails_saying(&["--set sp: give NAME=VALUE"]);
    umpire(&[
        "game", "add", &game, "Bad", "--side", "Turks", "--at", "2342",
    ])
    .fails_saying(&["no side 'Turks'"]);
    umpire(&["game", "move", &game, "Nobody's Force", "2342"]).fails_saying(&["no counter"]);
    assert_eq!(entries(&game), written, "nothing written by a refusal");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shell's completion asks `umpire` itself (clap_complete's protocol, as the script from
/// `umpire completions bash` does): the counters offered are those of the game file typed, the
/// procedures those of the ruleset typed.
#[test]
fn completion_offers_the_typed_games_counters_and_the_typed_rulesets_procedures() {
    let dir = std::env::temp_dir().join(format!("umpire-complete-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let game = dir.join("venice.umpire");
    let made = umpire(&[
        "game",
        "new",
        "ailsh_1_venice_at_bay_1509",
        "-o",
        game.to_str().expect("utf-8"),
    ]);
    assert!(made.success, "{}", made.show());
    let offered = |words: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
            .arg("--")
            .args(words)
            .env("COMPLETE", "bash")
            .env("_CLAP_IFS", "\n")
            .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
            .env("_CLAP_COMPLETE_COMP_TYPE", "9")
            .env("_CLAP_COMPLETE_SPACE", "true")
            .output()
            .expect("run umpire");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let file = game.to_str().expect("utf-8");
    let counters = offered(&["umpire", "game", "move", file, "ch"]);
    assert_eq!(counters, vec!["chaumont".to_string()], "{counters:?}");
    let all = offered(&["umpire", "game", "set", file, ""]);
    assert!(
        all.len() > 50 && all.contains(&"chaumont".to_string()),
        "{all:?}"
    );
    let procedures = offered(&["umpire", "resolve", "qrs", "dis"]);
    assert_eq!(
        procedures,
        vec!["discipline_test".to_string()],
        "{procedures:?}"
    );
    let scenarios = offered(&["umpire", "game", "new", "ailsh_1_"]);
    assert_eq!(scenarios, vec!["ailsh_1_venice_at_bay_1509".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}
