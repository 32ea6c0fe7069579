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
    let out = Command::new("pdftotext")
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
