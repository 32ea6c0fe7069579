//! Decks and cups drawn without replacement (issue 16): filled, drawn by the app and by hand,
//! refilled; the exact odds of the next draw and of at least one in the next k; refusals that
//! name what is there; hidden draws in a side's view.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;
use umpire::dice::Fraction;
use umpire::game::deck::DeckState;

fn umpire(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .output()
        .expect("run umpire");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

fn new_game(tag: &str, scenario: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-decks-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    let path = dir.join("game.umpire");
    let (ok, said) = umpire(&[
        "game",
        "new",
        scenario,
        "-o",
        path.to_str().expect("utf-8"),
        "--seed",
        "5",
    ]);
    assert!(ok, "{said}");
    path
}

fn shown(file: &str, args: &[&str]) -> Value {
    let mut all = vec!["game", "deck", "show", file];
    all.extend_from_slice(args);
    all.push("--json");
    let (ok, said) = umpire(&all);
    assert!(ok, "{said}");
    serde_json::from_str(&said).unwrap_or_else(|e| panic!("{e}: {said}"))
}

/// The hypergeometric odds, exact: 4 Seizure Opportunity among 8 counters.
#[test]
fn odds_of_the_next_draws_are_exact() {
    let state = DeckState {
        inside: [
            ("Seizure Opportunity".to_string(), 4),
            ("Seizure Negation".to_string(), 1),
            ("Battle Cry".to_string(), 1),
            ("Unsteady Troops".to_string(), 1),
            ("Into the Breach".to_string(), 1),
        ]
        .into(),
        ..DeckState::default()
    };
    let next: std::collections::BTreeMap<_, _> = state.next_odds().into_iter().collect();
    assert_eq!(next["Seizure Opportunity"], Fraction::new(1, 2));
    assert_eq!(next["Battle Cry"], Fraction::new(1, 8));
    // 1 − C(4,2)/C(8,2) = 1 − 6/28.
    assert_eq!(
        state.at_least_one("Seizure Opportunity", 2),
        Some(Fraction::new(11, 14))
    );
    // The one Battle Cry among the next 2: 2/8.
    assert_eq!(
        state.at_least_one("Battle Cry", 2),
        Some(Fraction::new(1, 4))
    );
    assert_eq!(state.at_least_one("Battle Cry", 9), None, "only 8 to draw");
    // How many Seizure Opportunity in the next 3: 0 → 4/56, 1 → 24/56, 2 → 24/56, 3 → 4/56.
    let among = state.among_next("Seizure Opportunity", 3).expect("3 ≤ 8");
    assert_eq!(
        among,
        vec![
            (0, Fraction::new(1, 14)),
            (1, Fraction::new(3, 7)),
            (2, Fraction::new(3, 7)),
            (3, Fraction::new(1, 14)),
        ]
    );
}

/// App draws are as likely as the counts say: χ² of the first draw over 8,000 seeds.
#[test]
fn app_draws_follow_the_counts() {
    let state = DeckState {
        inside: [
            ("A".to_string(), 4),
            ("B".to_string(), 3),
            ("C".to_string(), 1),
        ]
        .into(),
        ..DeckState::default()
    };
    let mut seen: std::collections::BTreeMap<String, f64> = Default::default();
    let n = 8_000u64;
    for seed in 0..n {
        let (items, reshuffled, after) = state.draw_app(seed, 0, 1, false).expect("one to draw");
        assert!(!reshuffled);
        assert_eq!(after.left(), 7);
        *seen.entry(items[0].clone()).or_default() += 1.0;
    }
    let chi: f64 = [("A", 4.0), ("B", 3.0), ("C", 1.0)]
        .iter()
        .map(|(k, c)| {
            let expected = n as f64 * c / 8.0;
            (seen.get(*k).copied().unwrap_or(0.0) - expected).powi(2) / expected
        })
        .sum();
    // Critical χ² for 2 degrees of freedom at p = 0.001.
    assert!(chi < 13.82, "χ² = {chi:.2}: {seen:?}");
}

/// The arquebus cup of Seizure Counters: 8 as the text gives them, one cup a side; drawn by the
/// app and by hand; the odds follow what is left; refusals name what is there.
#[test]
fn a_cup_each_side_keeps_is_drawn_and_its_odds_follow() {
    let path = new_game("arquebus", "cerignola_1503");
    let file = path.to_str().expect("utf-8");
    let v = shown(file, &["seizure_counters", "--next", "2"]);
    let decks = v["decks"].as_array().expect("decks");
    assert_eq!(decks.len(), 2, "one cup a side: {v}");
    let first = &decks[0];
    assert_eq!(first["inside"]["Seizure Opportunity"], 4);
    let opportunity = first["next"]
        .as_array()
        .expect("next")
        .iter()
        .find(|n| n["item"] == "Seizure Opportunity")
        .expect("listed");
    assert_eq!(opportunity["fraction"], "1/2");
    let side = first["owner"].as_str().expect("owner").to_string();
    // Whose cup must be said.
    let (ok, said) = umpire(&["game", "deck", "draw", file, "seizure_counters"]);
    assert!(!ok);
    assert!(said.contains("say whose"), "{said}");
    // Two by the app, one typed.
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "draw",
        file,
        "Seizure Counters",
        "--side",
        &side,
        "--count",
        "2",
    ]);
    assert!(ok, "{said}");
    assert!(said.contains("app draw"), "{said}");
    let v = shown(file, &["seizure_counters", "--side", &side]);
    let cup = &v["decks"][0];
    let left: u64 = cup["inside"]
        .as_object()
        .expect("inside")
        .values()
        .map(|c| c.as_u64().expect("count"))
        .sum();
    assert_eq!(left, 6);
    // A counter not in the cup is refused, naming what is.
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "draw",
        file,
        "seizure_counters",
        "--side",
        &side,
        "--item",
        "Cavalry Charge",
    ]);
    assert!(!ok);
    assert!(said.contains("no 'Cavalry Charge'"), "{said}");
    assert!(said.contains("6 left"), "{said}");
    let name = cup["inside"]
        .as_object()
        .expect("inside")
        .keys()
        .next()
        .expect("a kind")
        .clone();
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "draw",
        file,
        "seizure_counters",
        "--side",
        &side,
        "--item",
        &name.to_lowercase(),
    ]);
    assert!(ok, "typed in any case: {said}");
    assert!(said.contains("drawn at the table"), "{said}");
    // The other side's cup is untouched.
    let v = shown(file, &["seizure_counters"]);
    let other = v["decks"]
        .as_array()
        .expect("decks")
        .iter()
        .find(|d| d["owner"] != side.as_str())
        .expect("the other cup");
    assert_eq!(other["inside"]["Seizure Opportunity"], 4);
    let (ok, said) = umpire(&["game", "verify", file]);
    assert!(ok, "{said}");
    // The other side sees that a counter was drawn, not which (the cup is hidden).
    let other_side = other["owner"].as_str().expect("owner");
    let (ok, theirs) = umpire(&["game", "export", file, "--side", other_side, "--jsonl"]);
    assert!(ok, "{theirs}");
    assert!(
        !theirs.contains(&name),
        "{other_side} sees {name}: {theirs}"
    );
    let (ok, mine) = umpire(&["game", "export", file, "--side", &side, "--jsonl"]);
    assert!(ok, "{mine}");
    assert!(
        mine.contains(&name),
        "{side} does not see its own draw: {mine}"
    );
}

/// Gradisca's cup is empty until filled (the text does not give it), and says so; the deck of
/// cards reshuffles its discards when it runs out; "remove if used" takes a card out for good.
#[test]
fn what_the_text_does_not_give_is_filled_and_a_deck_reshuffles() {
    let path = new_game("gradisca", "war_of_gradisca_1615");
    let file = path.to_str().expect("utf-8");
    let (ok, said) = umpire(&["game", "deck", "show", file, "command_markers"]);
    assert!(ok, "{said}");
    assert!(
        said.contains("the text does not give what is in it"),
        "{said}"
    );
    assert!(said.contains("Scenario Instructions card"), "{said}");
    assert!(!said.contains("L60"), "no line numbers for users: {said}");
    let (ok, said) = umpire(&["game", "deck", "draw", file, "command_markers"]);
    assert!(!ok);
    assert!(said.contains("0 to draw"), "{said}");
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "fill",
        file,
        "cards",
        "Plague=1",
        "Spies=oops",
    ]);
    assert!(!ok);
    assert!(said.contains("not a whole number"), "{said}");
    let (ok, said) = umpire(&["game", "deck", "fill", file, "cards", "Plague=2", "Spies=1"]);
    assert!(ok, "{said}");
    let (ok, said) = umpire(&["game", "deck", "draw", file, "cards", "--count", "3"]);
    assert!(ok, "{said}");
    // Empty now: the next draw shuffles the discards back in first (Rule 5).
    let (ok, said) = umpire(&["game", "deck", "draw", file, "cards"]);
    assert!(ok, "{said}");
    assert!(said.contains("shuffled back in"), "{said}");
    let v = shown(file, &["cards"]);
    assert_eq!(
        v["decks"][0]["drawn"]
            .as_object()
            .map(|o| o.values().count()),
        Some(1)
    );
    let drawn = v["decks"][0]["drawn"]
        .as_object()
        .expect("drawn")
        .keys()
        .next()
        .expect("one")
        .clone();
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "remove",
        file,
        "cards",
        &drawn,
        "--reason",
        "REMOVE IF USED",
    ]);
    assert!(ok, "{said}");
    let v = shown(file, &["cards"]);
    assert_eq!(v["decks"][0]["removed"][&drawn], 1, "{v}");
    // Undo puts it back as it was.
    let (ok, said) = umpire(&["game", "undo", file]);
    assert!(ok, "{said}");
    let v = shown(file, &["cards"]);
    assert!(
        v["decks"][0]["removed"]
            .as_object()
            .is_none_or(|o| o.is_empty()),
        "{v}"
    );
    let (ok, said) = umpire(&["game", "verify", file]);
    assert!(ok, "{said}");
}

/// A ruleset's deck is checked as it loads: counts that do not add up to the size the text
/// gives, an empty deck with no word of why, a step naming an unknown deck.
#[test]
fn a_malformed_deck_is_refused_with_where() {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/arquebus");
    let dir = std::env::temp_dir().join(format!("umpire-decks-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    for entry in std::fs::read_dir(&shipped).expect("tables") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), dir.join(entry.file_name())).expect("copy");
    }
    let text = std::fs::read_to_string(dir.join("ruleset.yaml")).expect("ruleset");
    let bad = text.replace(
        "{name: Seizure Opportunity, count: 4}",
        "{name: Seizure Opportunity, count: 4}\n      - {name: Battle Cry, count: 2}",
    );
    assert_ne!(bad, text);
    std::fs::write(dir.join("ruleset.yaml"), &bad).expect("write");
    let file = dir.clone();
    let (ok, said) = umpire(&["rules", "check", file.to_str().expect("utf-8")]);
    assert!(!ok, "{said}");
    assert!(said.contains("item 'Battle Cry' is used twice"), "{said}");
    assert!(said.contains("decks"), "names the field: {said}");
}

/// A look-ahead is held to the budget of exact odds: the next million draws from a cup of six
/// million is refused at once with the most that fit (it ran for over ten minutes), while a
/// look-ahead that fits is still exact.
#[test]
fn a_look_ahead_past_the_budget_is_refused_at_once() {
    let state = DeckState {
        inside: [
            ("Red".to_string(), 2_000_000),
            ("Blue".to_string(), 2_000_000),
            ("White".to_string(), 2_000_000),
        ]
        .into(),
        ..DeckState::default()
    };
    let started = std::time::Instant::now();
    let why = state
        .look_ahead_refusal(1_000_000, &umpire::dice::Budget::default())
        .expect("past the budget");
    assert!(
        why.contains("next 1000000 draws") && why.contains("at most"),
        "{why}"
    );
    assert_eq!(state.at_least_one("Red", 1_000_000), None);
    assert_eq!(state.among_next("Red", 1_000_000), None);
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    assert!(
        state.at_least_one("Red", 3).is_some(),
        "a short look-ahead fits"
    );
}

/// The measured case through the command line: `deck show --next 1000000` on a cup of six
/// million ran for over ten minutes; now it says at once what was too big and what to do. A
/// fill past 32 bits of one kind is refused, not wrapped.
#[test]
fn deck_show_next_on_a_huge_cup_answers_at_once() {
    let path = new_game("huge", "war_of_gradisca_1615");
    let file = path.to_str().expect("utf-8");
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "fill",
        file,
        "cards",
        "Plague=2000000",
        "Spies=2000000",
        "Storm=2000000",
    ]);
    assert!(ok, "{said}");
    let started = std::time::Instant::now();
    let (ok, said) = umpire(&["game", "deck", "show", file, "cards", "--next", "1000000"]);
    assert!(ok, "{said}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "answered at once"
    );
    assert!(
        said.contains("No odds for the next 1000000")
            && said.contains("at most")
            && said.contains("--next"),
        "{said}"
    );
    let v = shown(file, &["cards", "--next", "1000000"]);
    assert!(v["decks"][0]["at_least_one_refused"].is_string(), "{v}");
    let (ok, said) = umpire(&[
        "game",
        "deck",
        "fill",
        file,
        "cards",
        "Plague=4294967295",
        "Plague=1",
    ]);
    assert!(!ok, "{said}");
    assert!(said.contains("more than 4294967295"), "{said}");
}
