//! A chart card is enough to resolve its procedure: every card of the five shipped rulesets
//! prints what decides — the target, the natural results, the cases, how a pool counts hits,
//! how opposed scores are made — worded from the YAML that resolves it (issue 30, item 1).

use std::path::{Path, PathBuf};
use std::process::Command;

const RULESETS: [&str; 5] = ["ailsh", "arquebus", "gradisca", "qrs", "rr3"];

/// The chart cards of `ruleset` as text, whitespace run together (a sentence wraps on a card).
fn cards_text(ruleset: &str, test: &str) -> String {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("umpire-cards-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pdf = dir.join(format!("{ruleset}.pdf"));
    let run = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args([
            "--no-user-rules",
            "charts",
            ruleset,
            "--cards",
            "--force",
            "-o",
        ])
        .arg(&pdf)
        .output()
        .expect("umpire runs");
    assert!(
        run.status.success(),
        "umpire charts {ruleset} --cards: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    text_of(&pdf)
}

fn text_of(pdf: &Path) -> String {
    let out = crate::common::tool::command("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(out.status.success(), "pdftotext failed: {out:?}");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_card_says_what_decides() {
    for ruleset in RULESETS {
        let text = cards_text(ruleset, "vague");
        for vague in [
            "the target or more passes",
            "the target or less passes",
            "follows from the cases below",
            "the scores are compared",
        ] {
            assert!(
                !text.contains(vague),
                "{ruleset}: a card still says {vague:?} without what decides:\n{text}"
            );
        }
        // Each "transcribed below" has what it promises after it.
        if let Some(at) = text.find("transcribed below") {
            assert!(
                text[at..].contains("Snow:"),
                "{ruleset}: nothing transcribed below:\n{}",
                &text[at..]
            );
        }
        crate::words::assert_in_words(&format!("the {ruleset} chart cards"), &text);
    }
}

#[test]
fn the_named_cards_print_their_deciding_numbers() {
    let expected: [(&str, &[&str]); 4] = [
        (
            "qrs",
            &[
                // The Discipline Test: the target by its rule, and the natural results.
                "the target by Discipline: A 3+, B 4+, C 5+",
                "An unmodified 1 always fails; an unmodified 6 always passes",
                // Loss of a Leader (shooting).
                "Roll d6, modified: 5 or more — Leader dead",
                // The Cohesion Test: the Critical Number and the losses.
                "Critical Number = VBU − DAMAGE (hits) + the modifiers to the target",
                "the greater of 1 and 6 − Critical Number",
                "the unmodified roll − Critical Number",
                // Shooting: what a hit is.
                "each die of 6 scores a hit",
                "each pair of 5s scores a hit",
            ],
        ),
        (
            "ailsh",
            &[
                // Capitano Elimination Check (3.6.1).
                "2 or less — Capitano eliminated",
                // The Weather card: its results and their effects.
                "Snow: +1 to Attrition die rolls",
                "Rain: +1 to Attrition die rolls",
            ],
        ),
        (
            "gradisca",
            &[
                // Unit fire: a die at most the fire value hits (rule 7.1).
                "Roll d6, modified: Value used or less — Hit",
                "fire value 1: ",
                "a die of 1 or less hits",
                "a die of 2 or less hits",
                "Hits absorbed by the defender",
            ],
        ),
        (
            "rr3",
            &[
                // The Subsidy card: +2 Unrest, revolt if the die is less than the index.
                "Added to the Unrest Index = 0 if",
                "else 2",
                "is less than Unrest Index for the revolt roll: Revolt",
            ],
        ),
    ];
    for (ruleset, lines) in expected {
        let text = cards_text(ruleset, "named");
        for line in lines {
            assert!(
                text.contains(line),
                "{ruleset}: the cards lack {line:?}:\n{text}"
            );
        }
    }
}

/// Every card of every shipped ruleset prints what decides its procedure: a table read with
/// dice names its roll and table (the table is on the card), any other procedure its deciding
/// sentences — the target, the cases, how hits are counted — worded from the YAML that
/// resolves it, and the card carries the first words of each.
#[test]
fn every_card_of_every_ruleset_carries_its_deciding_sentences() {
    use umpire::rules::Lookup;
    use umpire::rules::spoken::Speaker;
    let library = umpire::rules::Library::shipped();
    for ruleset in RULESETS {
        let text = cards_text(ruleset, "every");
        let rules = library.get(ruleset).expect("a shipped ruleset");
        for p in &rules.procedures {
            let deciding = Speaker::new(rules, p).deciding();
            let lines: Vec<String> = match (&p.lookup, &p.roll) {
                (Lookup::Table(t), Some(roll)) if deciding.is_empty() => {
                    let table = rules.table(&t.table).expect("its table");
                    vec![format!(
                        "Roll {}, modified, and read the {}",
                        roll.source(),
                        table.title
                    )]
                }
                (Lookup::Table(_), None) if deciding.is_empty() => {
                    vec!["No dice: read the ".to_string()]
                }
                _ => deciding,
            };
            assert!(
                !lines.is_empty(),
                "{ruleset}: {} has nothing that decides it",
                p.name
            );
            // What decides says a number, a case, a roll or a table to read.
            assert!(
                lines.iter().any(|l| l.chars().any(|c| c.is_ascii_digit())
                    || ["If ", "Always", "Otherwise", "read the ", "Roll "]
                        .iter()
                        .any(|w| l.contains(w))),
                "{ruleset}: {} decides by {lines:?}",
                p.name
            );
            for line in &lines {
                let words: Vec<&str> = line.split_whitespace().take(8).collect();
                let head = words.join(" ");
                assert!(
                    text.contains(&head),
                    "{ruleset}: the card of {} lacks {head:?}",
                    p.name
                );
            }
        }
    }
}

/// `umpire describe` prints the same deciding sentences as the card.
#[test]
fn describe_prints_what_decides() {
    let run = crate::cli::umpire(&["--no-user-rules", "describe", "qrs", "discipline_test"]);
    assert!(run.success, "{}", run.show());
    for line in [
        "Roll d6, modified; the target by Discipline: A 3+, B 4+, C 5+ — Pass; less: Fail.",
        "An unmodified 1 always fails; an unmodified 6 always passes.",
    ] {
        assert!(run.stdout.contains(line), "{line:?}:\n{}", run.stdout);
    }
    let run = crate::cli::umpire(&["--no-user-rules", "describe", "rr3", "reduce_unrest"]);
    assert!(run.success, "{}", run.show());
    assert!(
        run.stdout
            .contains("If Unrest Index is more than 0: Unrest Index reduced by 1."),
        "{}",
        run.stdout
    );
    let run = crate::cli::umpire(&["--no-user-rules", "describe", "gradisca", "--json"]);
    assert!(run.success, "{}", run.show());
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let combat = json["procedures"]
        .as_array()
        .expect("procedures")
        .iter()
        .find(|p| p["name"] == "Field Combat (one round)")
        .expect("Field Combat");
    let deciding = combat["deciding"].to_string();
    assert!(
        deciding.contains("Advanced rules: no (in force: Basic Rules only (§1–§13)).")
            && !deciding.contains("never"),
        "{deciding}"
    );
}
