//! Words, not ids: golden files of how one procedure of each ruleset is explained and recorded
//! (`insta`), and scans of what users read — the command line's text output, the chart text,
//! the desk's labels and a turn report — for ids, text-extraction line numbers and expression
//! operators.

use crate::cli::umpire;

/// Every id (`snake_case_with_underscores`, `mp_a`, a hyphenated id such as `im-minor-2` or
/// `french-army-picardy`), line reference (`L123`), expression operator or engine phrase ("No
/// dice, modified") in `text`.
pub fn leaks(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for op in ["==", "!=", "&&", "||"] {
        if text.contains(op) {
            found.push(op.to_string());
        }
    }
    // An engine phrase: a table read "modified" with no dice to modify.
    if text.contains("No dice, modified") {
        found.push("No dice, modified".to_string());
    }
    // A command quoted in prose is a hint for the command line; a printed paper may name the
    // program's own commands (a player's `umpire game verify`), nothing shorter.
    for (i, quoted) in text.split('`').enumerate() {
        if i % 2 == 1 && !quoted.starts_with("umpire ") {
            found.push(format!("`{quoted}`"));
        }
    }
    // Words, split where an id could not go on (letters, digits, underscores, and the path and
    // command characters an id inside a file name or a flag would have).
    for word in text.split(|c: char| !(c.is_alphanumeric() || "_-./=".contains(c))) {
        if word.contains(['.', '=']) || word.starts_with(['-', '/']) {
            continue; // a file, a command-line flag or a hash
        }
        // "mp_a/mp_b": ids either side of a slash (a path has a dot or starts with one).
        for word in word.split('/') {
            let word = word.trim_end_matches('-');
            // An id set at the head of a sentence is still an id ("French-army-picardy").
            let lowered = word
                .char_indices()
                .map(|(i, c)| if i == 0 { c.to_ascii_lowercase() } else { c })
                .collect::<String>();
            if is_snake_id(word) || is_hyphenated_id(&lowered) || is_line(word) {
                found.push(word.to_string());
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// `snake_case`, `mp_a`: lowercase letters and digits joined by underscores.
fn is_snake_id(word: &str) -> bool {
    word.contains('_')
        && word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && word.starts_with(|c: char| c.is_ascii_lowercase())
}

/// A text-extraction line number: `L123`, `L12–14`.
fn is_line(word: &str) -> bool {
    word.len() > 1
        && word.starts_with('L')
        && word[1..]
            .chars()
            .all(|c| c.is_ascii_digit() || c == '–' || c == '-')
}

/// A hyphenated id: lowercase words and numbers joined by hyphens, that is an id of the shipped
/// rulesets and scenarios, or has a number among its words ("im-minor-2"), or runs to three
/// words or more with no joining word among them ("french-army-picardy"; "out-of-supply" and
/// "hand-to-hand" are English). Dice ("d6-2") and two-word English ("well-known",
/// "two-player", "re-roll") are not.
fn is_hyphenated_id(word: &str) -> bool {
    let parts: Vec<&str> = word.split('-').collect();
    if parts.len() < 2
        || parts.iter().any(|p| p.is_empty())
        || !word.starts_with(|c: char| c.is_ascii_lowercase())
        || !word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return false;
    }
    let dice = parts[0]
        .strip_prefix('d')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    if dice {
        return false;
    }
    let number = parts.iter().any(|p| p.chars().all(|c| c.is_ascii_digit()))
        && parts
            .iter()
            .any(|p| p.chars().all(|c| c.is_ascii_lowercase()));
    const JOINING: [&str; 14] = [
        "a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "per", "the", "to",
    ];
    let long = parts.len() >= 3 && !parts.iter().any(|p| JOINING.contains(p));
    number || long || shipped_ids().contains(word)
}

/// The hyphenated ids of the shipped rulesets and scenarios (`id:` and `key:` values).
fn shipped_ids() -> &'static std::collections::BTreeSet<String> {
    static IDS: std::sync::OnceLock<std::collections::BTreeSet<String>> =
        std::sync::OnceLock::new();
    IDS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut ids = std::collections::BTreeSet::new();
        let mut dirs = vec![root.join("tables"), root.join("scenarios")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml") {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    for (at, _) in text
                        .match_indices("id: ")
                        .chain(text.match_indices("key: "))
                    {
                        let rest = &text[at..];
                        let value = rest[rest.find(' ').unwrap_or(0)..]
                            .trim_start_matches([' ', '"', '\''])
                            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                            .next()
                            .unwrap_or_default();
                        if value.contains('-') {
                            ids.insert(value.to_string());
                        }
                    }
                }
            }
        }
        ids
    })
}

pub(crate) fn assert_in_words(what: &str, text: &str) {
    let found = leaks(text);
    assert!(found.is_empty(), "{what} shows {found:?}:\n{text}");
}

#[test]
fn the_scanner_finds_ids_line_numbers_and_operators() {
    assert_eq!(
        leaks("if(order_a == \"garrison\" || x) [L1456–1474] fine words, file.pdf --seed"),
        vec!["==", "L1456", "order_a", "||"]
    );
    assert!(leaks("Discipline Test [The Discipline Test] 4 − 1 = 3").is_empty());
    // Hyphenated ids, `mp_a`-style names and the engine's "No dice, modified"; hyphenated
    // English, dice and ranges are words.
    assert_eq!(
        leaks(
            "French-army-picardy and french-army-picardy, im-minor-2, (mp_a / mp_b), \
             ve-alviano's Force; No dice, modified, and read"
        ),
        vec![
            "French-army-picardy",
            "No dice, modified",
            "french-army-picardy",
            "im-minor-2",
            "mp_a",
            "mp_b",
            "ve-alviano"
        ]
    );
    assert_eq!(leaks("mp_a/mp_b"), vec!["mp_a", "mp_b"]);
    assert!(
        leaks(
            "well-known two-player re-roll out-of-supply hand-to-hand good-order counter-mine \
             Roll d6-2, rows 1-2 and 3-6, Jan.-Febr., 24-12-2017, a 2-month siege, non-played \
             states, ailsh/venice.umpire"
        )
        .is_empty(),
        "{:?}",
        leaks("well-known two-player re-roll out-of-supply hand-to-hand d6-2 1-2 non-played")
    );
    assert_eq!(
        leaks("then record it with `game move` (check with `umpire game verify`)"),
        vec!["`game move`"]
    );
}

/// A PDF's text, as `pdftotext` (poppler-utils) reads it.
pub(crate) fn pdf_text(pdf: &std::path::Path) -> String {
    let out = crate::common::tool::command("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs (poppler-utils)");
    assert!(out.status.success(), "pdftotext {}: {out:?}", pdf.display());
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// A scratch folder for one test's games.
fn scratch(name: &str) -> std::path::PathBuf {
    crate::common::scratch_dir("words", name)
}

/// Starts a game of `scenario` (seed 1) and runs `then` against it; the text it printed.
fn played(dir: &std::path::Path, scenario: &str, then: &[&[&str]]) -> String {
    let game = dir.join(format!("{scenario}.umpire"));
    let game = game.to_string_lossy().to_string();
    let created = umpire(&["game", "new", scenario, "-o", &game, "--seed", "1"]);
    assert!(created.success, "{}", created.show());
    let mut out = String::new();
    for args in then {
        let mut full: Vec<&str> = vec!["game", args[0], &game];
        full.extend_from_slice(&args[1..]);
        let run = umpire(&full);
        assert!(run.success, "{}", run.show());
        out.push_str(&run.stdout);
    }
    out
}

#[test]
fn one_procedure_of_each_ruleset_is_explained_and_recorded_in_words() {
    let dir = scratch("golden");
    let cases: [(&str, &str, Vec<&[&str]>); 5] = [
        (
            "ailsh",
            "ailsh_1_venice_at_bay_1509",
            vec![
                &[
                    "resolve",
                    "discipline_check",
                    "--counter",
                    "unit=French Gendarmes (Chaumont)",
                    "-i",
                    "reason=combat",
                    "-i",
                    "troop_quality=3",
                    "-i",
                    "reliability=S",
                    "--roll",
                    "4",
                    "--chart-result",
                    "D",
                ],
                &["credit", "1"],
                &["move", "French Gendarmes (Chaumont)", "2833"],
            ],
        ),
        (
            "arquebus",
            "arquebus_cerignola_1503",
            vec![&[
                "resolve",
                "loss_check",
                "-i",
                "flight_level=12",
                "--roll",
                "3",
            ]],
        ),
        (
            "gradisca",
            "gradisca_war_of_gradisca_1615",
            vec![&["resolve", "mine_explosion", "--roll", "5"]],
        ),
        (
            "qrs",
            "qrs_encounter_template",
            vec![&[
                "resolve",
                "discipline_test",
                "-i",
                "discipline=B",
                "-i",
                "outside_command_range=true",
                "--roll",
                "4",
            ]],
        ),
        (
            "rr3",
            "rr3_handbook_1524",
            vec![&["resolve", "mutiny", "-i", "arrears=3", "--roll", "2"]],
        ),
    ];
    for (ruleset, scenario, then) in cases {
        let text = played(&dir, scenario, &then);
        assert_in_words(&format!("{ruleset}: the resolution"), &text);
        insta::assert_snapshot!(format!("words_{ruleset}"), text);
        // The same game's turn report, as its reader reads it.
        let game = dir.join(format!("{scenario}.umpire"));
        let pdf = dir.join(format!("{scenario}.pdf"));
        let report = umpire(&[
            "report",
            &game.to_string_lossy(),
            "-o",
            &pdf.to_string_lossy(),
        ]);
        assert!(report.success, "{}", report.show());
        let text = pdf_text(&pdf);
        // The whole game's report (no --turn) says so in words, not "the end of whole game".
        assert!(
            text.contains("Forces at the end of the game so far"),
            "{text}"
        );
        assert_in_words(&format!("{ruleset}: the turn report"), &text);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_chart_and_every_scenario_status_is_in_words() {
    let dir = scratch("status");
    for ruleset in ["ailsh", "arquebus", "gradisca", "qrs", "rr3"] {
        let shown = umpire(&["rules", "show", ruleset]);
        assert!(shown.success, "{}", shown.show());
        assert_in_words(&format!("the {ruleset} charts"), &shown.stdout);
        let pdf = dir.join(format!("{ruleset}-charts.pdf"));
        let printed = umpire(&["charts", ruleset, "-o", &pdf.to_string_lossy()]);
        assert!(printed.success, "{}", printed.show());
        assert_in_words(&format!("the {ruleset} chart sheets"), &pdf_text(&pdf));
    }
    let ids = [
        "ailsh_1_venice_at_bay_1509",
        "ailsh_2_last_triumph_of_the_swiss_1513",
        "ailsh_3_francois_first_time_1515",
        "ailsh_4_french_lose_the_duchy_1522",
        "ailsh_5_struggle_for_the_duchy_1524",
        "arquebus_cerignola_1503",
        "gradisca_war_of_gradisca_1615",
        "qrs_encounter_template",
        "rr3_handbook_1524",
    ];
    for id in &ids {
        let text = played(&dir, id, &[&["status"]]);
        // The seed commitment and the journal's head are hashes, not ids.
        assert_in_words(&format!("the status of {id}"), &text);
        let pdf = dir.join(format!("{id}-sheet.pdf"));
        let printed = umpire(&["sheet", id, "-o", &pdf.to_string_lossy()]);
        assert!(printed.success, "{}", printed.show());
        assert_in_words(&format!("the scenario sheet of {id}"), &pdf_text(&pdf));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn side_views_ledgers_and_megagame_papers_are_in_words() {
    let dir = scratch("papers");
    let text = played(
        &dir,
        "rr3_handbook_1524",
        &[
            &["resolve", "mutiny", "-i", "arrears=3", "--roll", "2"],
            &["status", "--side", "england"],
            &["ledger"],
        ],
    );
    assert_in_words("an rr3 team's status and the ledgers", &text);
    let game = dir.join("rr3_handbook_1524.umpire");
    let game = game.to_string_lossy();
    for (paper, extra) in [
        ("statement", vec!["--team", "england"]),
        ("announcements", vec![]),
        ("log", vec![]),
    ] {
        let pdf = dir.join(format!("{paper}.pdf"));
        let pdf_name = pdf.to_string_lossy().to_string();
        let mut args = vec!["megagame", paper, &game, "-o", &pdf_name];
        args.extend(extra);
        let printed = umpire(&args);
        assert!(printed.success, "{}", printed.show());
        assert_in_words(&format!("the megagame {paper}"), &pdf_text(&pdf));
    }
    let venice = played(
        &dir,
        "ailsh_1_venice_at_bay_1509",
        &[&["status", "--side", "venetian"]],
    );
    assert_in_words("the Venetian status", &venice);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Side reports of every ruleset go through its visibility rules: a game on a secret seed,
/// resolved with app dice, reported for each side before the seed is revealed, never prints
/// the seed, and reads in the game's words.
#[test]
fn every_rulesets_side_reports_keep_the_seed_and_speak_words() {
    let dir = scratch("sides");
    // One game of each ruleset: the first scenario of each in the paper scan's list.
    let mut seen = std::collections::BTreeSet::new();
    let cases = crate::paper_words::GAMES
        .into_iter()
        .filter(|(scenario, _, _)| seen.insert(scenario.split('_').next().unwrap_or(scenario)));
    for (scenario, resolve, sides) in cases {
        let game = dir.join(format!("{scenario}.umpire"));
        let game = game.to_string_lossy().to_string();
        let created = umpire(&["game", "new", scenario, "-o", &game]);
        assert!(created.success, "{}", created.show());
        let mut args = vec!["game", resolve[0], &game];
        args.extend_from_slice(&resolve[1..]);
        let resolved = umpire(&args);
        assert!(resolved.success, "{}", resolved.show());
        let mut texts = Vec::new();
        for side in sides {
            let pdf = dir.join(format!("{scenario}-{side}.pdf"));
            let printed = umpire(&[
                "report",
                &game,
                "--side",
                side,
                "-o",
                &pdf.to_string_lossy(),
            ]);
            assert!(printed.success, "{}", printed.show());
            let text = pdf_text(&pdf);
            assert_in_words(&format!("{scenario}: the report for {side}"), &text);
            texts.push((side, text));
        }
        let revealed = umpire(&["game", "reveal", &game]);
        assert!(revealed.success, "{}", revealed.show());
        let seed = revealed
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("seed "))
            .and_then(|s| s.split(':').next())
            .expect("the reveal prints the seed")
            .to_string();
        for (side, text) in texts {
            assert!(
                !text.contains(&seed),
                "{scenario}: the report for {side} holds the secret seed {seed}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each side's dice are shown as that side's, never as one sum of both (issue 24): the rr3
/// battle printed "= 34", the activation contest "[2, 5] = 7".
#[test]
fn opposed_dice_are_shown_side_by_side_never_summed() {
    use crate::common::{run_in, shipped};
    let r = run_in(
        shipped("rr3"),
        "battle",
        &[
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
            ("attacker_thousands", "23"),
            ("defender_thousands", "17"),
        ],
        &["3", "5", "2", "6", "3", "1", "4", "3", "5"],
    );
    let roll = r
        .explanation
        .iter()
        .find(|l| l.starts_with("Roll "))
        .expect("a roll line");
    assert!(
        roll.contains("Attacker [3, 5, 2, 6, 3]; Defender [1, 4, 3, 5]"),
        "{roll}"
    );
    assert!(!roll.contains("= 32"), "no sum of both sides' dice: {roll}");
    // The same words where a side's copy, the Control log and the page give the dice.
    let dice = umpire::resolve::dice_words(&r).join("; ");
    assert!(
        dice.contains("Attacker [3, 5, 2, 6, 3]; Defender [1, 4, 3, 5]"),
        "{dice}"
    );
    assert!(!dice.contains("= 32"), "{dice}");

    let r = run_in(
        shipped("ailsh"),
        "activation",
        &[
            ("initiative_a", "3"),
            ("order_a", "attack"),
            ("ma_a", "6"),
            ("initiative_b", "2"),
            ("order_b", "manoeuvre"),
            ("ma_b", "6"),
        ],
        &["2", "5"],
    );
    let roll = r
        .explanation
        .iter()
        .find(|l| l.starts_with("Roll "))
        .expect("a roll line");
    assert!(roll.contains("A [2]; B [5]"), "{roll}");
    assert!(!roll.contains("= 7"), "{roll}");
}

/// An overridden result is headed by the result that stands, with what the roll gave (issue
/// 24: "→ 4 AP" stayed after the override to 2).
#[test]
fn an_overridden_result_is_headed_by_the_result_that_stands() {
    let dir = std::env::temp_dir().join(format!("umpire-words-override-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let game = dir.join("g.umpire").display().to_string();
    assert!(umpire(&["game", "new", "ailsh_1_venice_at_bay_1509", "-o", &game]).success);
    let r = umpire(&[
        "game",
        "resolve",
        &game,
        "order_cost",
        "-i",
        "force=minor",
        "-i",
        "order=stand",
        "--chart-result",
        "1",
    ]);
    assert!(r.success, "{}", r.show());
    let entry = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("recorded entry "))
        .expect("the entry")
        .trim()
        .to_string();
    let o = umpire(&[
        "game",
        "override",
        &game,
        &entry,
        "0",
        "--reason",
        "the umpire's ruling",
    ]);
    assert!(o.success, "{}", o.show());
    let lib = umpire::rules::Library::shipped();
    let g = umpire::game::Game::open(std::path::Path::new(&game), &lib).expect("opens");
    let words = umpire::game::describe::Words::of(&g);
    let n: u64 = entry.parse().expect("a number");
    assert_eq!(
        g.state().values.get(&n),
        Some(&0),
        "the number that stands (what a credit adds) is the override's"
    );
    let line = words.line(&g.events()[n as usize - 1]);
    assert!(
        line.contains("→ 0 AP (overridden; the roll gave 1 AP") && !line.contains("→ 1 AP"),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every effect with its number (issue 24: the rr3 battle's effects read "thousand men left;
/// thousand men left").
#[test]
fn every_effect_says_its_number() {
    use crate::common::{run_in, shipped};
    let r = run_in(
        shipped("rr3"),
        "battle",
        &[
            ("attacker_nationality", "other"),
            ("defender_nationality", "other"),
            ("attacker_thousands", "23"),
            ("defender_thousands", "17"),
        ],
        &["3", "5", "2", "6", "3", "1", "4", "3", "5"],
    );
    let said: Vec<String> = r
        .outcome
        .effects
        .iter()
        .map(umpire::resolve::describe_effect)
        .collect();
    assert!(
        said.contains(&"defender: 9 thousand men left".to_string()),
        "{said:?}"
    );
    assert!(
        said.contains(&"attacker: 21 thousand men left".to_string()),
        "{said:?}"
    );
    for (e, s) in r.outcome.effects.iter().zip(&said) {
        if let Some(a) = e.amount {
            assert!(s.contains(&a.to_string()), "{s:?} leaves out {a}");
        }
    }
}

/// End-of-scenario steps come at the end only (issue 24: "End of the scenario — Fate of the
/// Capitani" after every turn): `next` passes them by on every turn but the last.
#[test]
fn end_of_scenario_steps_only_at_the_end() {
    use umpire::game::Cursor;
    use umpire::game::sequence::{leaf_steps, next_step, previous_step};
    let ailsh = crate::common::shipped("ailsh");
    let steps = leaf_steps(ailsh);
    let end = steps
        .iter()
        .position(|s| s.id == "end_of_scenario")
        .expect("the end-of-scenario step");
    assert!(steps[end].scenario_end);
    let before = Cursor {
        turn: 1,
        step: end - 1,
    };
    let to = next_step(&before, &steps, 4);
    assert_eq!((to.turn, to.step), (2, 0), "turn 1 goes on to turn 2");
    assert_eq!(
        previous_step(&to, &steps, 4).map(|c| (c.turn, c.step)),
        Some((1, end - 1)),
        "and back"
    );
    let last = Cursor {
        turn: 4,
        step: end - 1,
    };
    let to = next_step(&last, &steps, 4);
    assert_eq!(
        (to.turn, to.step),
        (4, end),
        "the last turn ends the scenario"
    );
}

/// A test's result is headed by what happened to the unit (issue 24: "Test … → pass" where the
/// Capitano was eliminated).
#[test]
fn a_test_is_headed_by_what_happened() {
    use crate::common::{run_in, shipped};
    let r = run_in(shipped("ailsh"), "capitano_elimination", &[], &["1"]);
    let test = r
        .explanation
        .iter()
        .find(|l| l.starts_with("Test: "))
        .expect("a test line");
    assert_eq!(r.outcome.code, "eliminated");
    assert!(test.ends_with("→ Capitano eliminated"), "{test}");
    assert!(
        !r.explanation.iter().any(|l| l.ends_with("→ pass")),
        "{:?}",
        r.explanation
    );
}

/// Every text a shipped ruleset gives a result's effect is read by people as it stands (the
/// desk, the reports, the players' view): no id of a procedure, input or value in it ("the
/// activated Force moves its MA less any penalty (mp_a / mp_b)" was printed so).
#[test]
fn every_effect_text_of_the_shipped_rulesets_is_in_words() {
    let lib = umpire::rules::Library::shipped();
    let mut checked = 0;
    for id in ["ailsh", "qrs", "arquebus", "gradisca", "rr3"] {
        let rs = lib.get(id).expect("shipped ruleset");
        for p in &rs.procedures {
            for o in &p.outcomes {
                for text in o.effects.iter().filter_map(|e| e.text.as_deref()) {
                    assert_in_words(&format!("{id} {} {}", p.id, o.code), text);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "effect texts checked: {checked}");
}

/// `game effects` proposes its changes in words ("French Gendarmes (Chaumont): Strength Points
/// (current) 6 → 4"), not as the journal's JSON.
#[test]
fn proposed_changes_are_shown_in_words() {
    let dir = scratch("effects");
    let text = played(
        &dir,
        "ailsh_1_venice_at_bay_1509",
        &[
            &[
                "resolve",
                "attrition",
                "--counter",
                "force=French Gendarmes (Chaumont)",
                "-i",
                "trigger=attrition_segment",
                "-i",
                "force_sp=6",
                "-i",
                "weather=fair",
                "--roll",
                "3",
                "--chart-result",
                "2",
            ],
            &["effects", "2"],
        ],
    );
    assert!(
        text.contains("proposed French Gendarmes (Chaumont): Strength Points (current) 6 → 4"),
        "{text}"
    );
    assert_in_words("game effects", &text);
    assert!(!text.contains("{\""), "{text}");
}
