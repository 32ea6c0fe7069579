//! The end of a game (issue 26): a Major Battle won in "The last triumph of the Swiss, 1513"
//! ends the game at once (Scenario 2, Victory Conditions, L1921); the journal records the result
//! with its reasoning, `game next` is refused with a sentence saying who won, `game status`
//! says so and offers `game reveal`, the whole-game report leads with the result, and undoing
//! the ending reopens the game.

use crate::cli::umpire;
use crate::words::{assert_in_words, pdf_text};

#[test]
fn a_major_battle_won_ends_scenario_2_and_next_is_refused_after() {
    let dir = std::env::temp_dir().join(format!("umpire-victory-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let game = dir.join("s2.umpire").to_string_lossy().to_string();
    let created = umpire(&[
        "game",
        "new",
        "ailsh_2_last_triumph_of_the_swiss_1513",
        "-o",
        &game,
        "--seed",
        "1",
    ]);
    assert!(created.success, "{}", created.show());
    // While it goes on, status says who would win if it ended now.
    let status = umpire(&["game", "status", &game]);
    assert!(status.success, "{}", status.show());
    assert!(
        status.stdout.contains("If the game ended now: "),
        "{}",
        status.show()
    );
    // The French take Novara by the umpire's word: a fact, recorded.
    let control = umpire(&[
        "game",
        "control",
        &game,
        "Novara",
        "--side",
        "French",
        "--conquered",
    ]);
    assert!(control.success, "{}", control.show());
    assert!(
        control.stdout.contains("Novara: Conquered by the French"),
        "{}",
        control.show()
    );
    // A battle won with no battle fought is refused; the Swiss win the Major Battle fought
    // beside Novara: the game ends at once.
    let refused = umpire(&["game", "battle-won", &game, "--side", "Swiss"]);
    assert!(
        !refused.success && refused.stderr.contains("no battle is being fought"),
        "{}",
        refused.show()
    );
    let table = crate::facts::Table { game: game.clone() };
    table.enter_the_major_battle();
    // Not on entering it: its result is recorded once it has been fought (Step 10-a).
    let early = umpire(&["game", "battle-won", &game, "--side", "Swiss"]);
    assert!(
        !early.success && early.stderr.contains("recorded at Step 10-a"),
        "{}",
        early.show()
    );
    table.skip_to_step("step_10a");
    let won = umpire(&["game", "battle-won", &game, "--side", "Swiss"]);
    assert!(won.success, "{}", won.show());
    assert!(
        won.stdout.contains(
            "The Swiss side wins: a Major Battle won by the Swiss (Scenario 2: The last triumph of the Swiss, 1513 › Victory Conditions)"
        ),
        "{}",
        won.show()
    );
    let next = umpire(&["game", "next", &game]);
    assert!(!next.success, "{}", next.show());
    assert!(
        next.stderr
            .contains("the game is over — The Swiss side wins"),
        "{}",
        next.show()
    );
    let status = umpire(&["game", "status", &game]);
    assert!(
        status
            .stdout
            .contains("The game is over: The Swiss side wins"),
        "{}",
        status.show()
    );
    assert!(status.stdout.contains("game reveal"), "{}", status.show());
    let json = umpire(&["game", "status", &game, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(v["victory"]["ended"]["winner"], "swiss", "{}", json.show());
    // The whole game's report leads with the result.
    let pdf = dir.join("s2.pdf");
    let report = umpire(&["report", &game, "-o", &pdf.to_string_lossy()]);
    assert!(report.success, "{}", report.show());
    let text = pdf_text(&pdf);
    let result = text.find("Result").expect("a Result section");
    let entries = text.find("The Swiss side wins").expect("the sentence");
    assert!(result < entries, "{text}");
    assert!(text.contains("Forces at the end of the game\n"), "{text}");
    assert!(text.contains("held Novara (Conquered)"), "{text}");
    assert_in_words("the final report", &text);
    // Undo the ending: the game goes on.
    let undo = umpire(&["game", "undo", &game]);
    assert!(undo.success, "{}", undo.show());
    let next = umpire(&["game", "next", &game]);
    assert!(!next.stderr.contains("the game is over"), "{}", next.show());
    // A place the map does not name is refused in a sentence.
    let bad = umpire(&["game", "control", &game, "Atlantis", "--side", "French"]);
    assert!(!bad.success);
    assert!(
        bad.stderr.contains("the map names no place 'Atlantis'"),
        "{}",
        bad.show()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
