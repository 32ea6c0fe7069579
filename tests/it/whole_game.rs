//! A whole game on the command line (issue 26): "The last triumph of the Swiss, 1513" played
//! from set-up to its winner as an umpire would — the same 13 resolutions as the run that once
//! took 159 skips and 204 nexts — with the Sequence of Play going to what needs the umpire,
//! reinforcements entering in one command, and the Major Battle the Swiss win ending the game
//! (Scenario 2, Victory Conditions, L1921).

use crate::cli::umpire;

/// The inputs of an activation contest (7.2), both sides.
const CONTEST: [&str; 16] = [
    "-i",
    "initiative_a=3",
    "-i",
    "order_a=manoeuvre",
    "-i",
    "second_activation_a=false",
    "-i",
    "bonus_star_a=false",
    "-i",
    "ma_a=8",
    "-i",
    "initiative_b=2",
    "-i",
    "second_activation_b=false",
    "-i",
    "bonus_star_b=false",
];

/// Runs `umpire ARGS…` on the game and checks it succeeded; counts `next` and `skip`.
struct Script {
    game: String,
    steps: u32,
}

impl Script {
    fn run(&mut self, verb: &str, args: &[&str]) -> String {
        let mut all = vec!["game", verb, self.game.as_str()];
        all.extend_from_slice(args);
        if verb == "next" || verb == "skip" {
            self.steps += 1;
        }
        let out = umpire(&all);
        assert!(out.success, "{}", out.show());
        out.stdout
    }

    fn at(&self) -> String {
        let status = umpire(&["game", "status", &self.game]);
        status.stdout.lines().nth(1).unwrap_or_default().to_string()
    }

    /// The activation contest, the Swiss Force's Order as it stands (`order_b`).
    fn contest(&mut self, dice: [&str; 2], order_b: &str) {
        let order_b = format!("order_b={order_b}");
        let mut args = vec![
            "activation",
            "--counter",
            "a=Tremouille's Force",
            "--counter",
            "b=Mutt's Force",
            "-i",
            "ma_b=8",
            "-i",
            &order_b,
            "--roll",
            dice[0],
            "--roll",
            dice[1],
        ];
        args.extend_from_slice(&CONTEST);
        self.run("resolve", &args);
    }
}

#[test]
fn the_last_triumph_of_the_swiss_is_played_to_its_winner_in_a_few_dozen_commands() {
    let dir = std::env::temp_dir().join(format!("umpire-whole-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let game = dir.join("swiss.umpire").to_string_lossy().to_string();
    let new = umpire(&[
        "game",
        "new",
        "ailsh_2_last_triumph_of_the_swiss_1513",
        "-o",
        &game,
        "--seed",
        "13",
    ]);
    assert!(new.success, "{}", new.show());
    let mut s = Script { game, steps: 0 };
    let weather = |s: &mut Script, die: &str| {
        s.run(
            "resolve",
            &["weather", "--roll", die, "--chart-result", "fair"],
        );
    };
    // The game begins at the Weather (18.4 is not played).
    assert!(s.at().ends_with("A) Weather Phase"), "{}", s.at());

    // Turn 1: the Weather, then straight to the activations (no APs in this scenario, L1926).
    weather(&mut s, "4");
    let out = s.run("next", &[]);
    assert!(
        out.contains("passed (nothing to resolve): B) Command Phase"),
        "{out}"
    );
    assert!(
        s.at()
            .ends_with("b. Roll for activation; the activated Force acts")
    );
    s.contest(["1", "6"], "garrison");
    s.run("move", &["Tremouille's Force", "1812"]);
    s.run("next", &[]);

    // Turns 2 and 3: the Swiss reinforcements wait at C.1 and enter in one command each.
    for (turn, hex, dice) in [(2, "2310", ["2", "5"]), (3, "2610", ["1", "4"])] {
        assert!(s.at().starts_with(&format!("Turn {turn}/4")), "{}", s.at());
        weather(&mut s, "3");
        if turn == 3 {
            // Special Rule 2 (L2032–2034): at the beginning of the third turn the Swiss Force
            // in Novara receives an Attack Order, on its Primo Capitano (Mutt, elected, 15.5).
            let refused = umpire(&["game", "next", &s.game]);
            assert!(
                !refused.success && refused.stderr.contains("Attack Order (Special Rule 2)"),
                "{}",
                refused.show()
            );
            s.run("set", &["Mutt", "role", "primo_capitano"]);
            s.run("credit", &["schedule:swiss_attack_order:3"]);
        }
        s.run("next", &[]);
        assert!(
            s.at().ends_with("1. Deployment of Reinforcements"),
            "{}",
            s.at()
        );
        let refused = umpire(&["game", "next", &s.game]);
        assert!(!refused.success, "the reinforcements hold Next");
        s.run("arrive", &[]);
        s.run("next", &[]);
        s.contest(dice, if turn == 3 { "attack" } else { "garrison" });
        // Tremouille marches on Novara (2611); in turn 3 he stands next to it.
        s.run("move", &["Tremouille's Force", hex]);
        s.run("next", &[]);
    }

    // Contact: Intelligence, then Step 2 offers the kinds of battle.
    assert!(s.at().ends_with("1. Intelligence"), "{}", s.at());
    s.run("reveal-contacts", &[]);
    s.run("next", &[]);
    let status = umpire(&["game", "status", &s.game]).stdout;
    assert!(
        status.contains("Go to Major Battle (both Primi Capitani are Capitani Generali)"),
        "{status}"
    );
    s.run(
        "next",
        &[
            "--to",
            "Major Battle (both Primi Capitani are Capitani Generali)",
        ],
    );
    s.run("next", &[]);
    assert!(
        s.at().ends_with("Step 4-a: Battle Initiative"),
        "{}",
        s.at()
    );
    s.run(
        "resolve",
        &["battle_initiative", "-i", "cg_initiative=3", "--roll", "4"],
    );
    s.run(
        "resolve",
        &[
            "tactical_option",
            "-i",
            "option=formation",
            "-i",
            "feature=duration",
        ],
    );
    s.run("next", &[]);
    s.run(
        "resolve",
        &[
            "artillery_fire",
            "-i",
            "context=major_battle",
            "-i",
            "firing_side=attacker",
            "-i",
            "artillery_sp=3",
            "-i",
            "weather=fair",
            "--roll",
            "5",
            "--chart-prints",
            "1",
        ],
    );
    s.run("next", &[]);
    s.run("next", &[]);
    assert!(
        s.at().ends_with("Step 8-a: Combat Resolution"),
        "{}",
        s.at()
    );
    s.run(
        "resolve",
        &[
            "assault",
            "--counter",
            "attacker=Tremouille's Force",
            "--counter",
            "defender=Mutt's Force",
            "-i",
            "battle=major_battle",
            "-i",
            "attacker_q2_sp=20",
            "-i",
            "defender_q3_sp=10",
            "-i",
            "weather=fair",
            "-i",
            "odds_drm=1",
            "-i",
            "attacker_force_sp=20",
            "-i",
            "defender_force_sp=10",
            "--roll",
            "2",
            "--chart-prints",
            "A2",
        ],
    );
    s.run(
        "resolve",
        &[
            "discipline_check",
            "--counter",
            "unit=French Gendarmes (Tremouille)",
            "-i",
            "reason=combat",
            "-i",
            "troop_quality=3",
            "-i",
            "reliability=S",
            "--roll",
            "6",
            "--chart-result",
            "D",
        ],
    );
    s.run("next", &[]);
    s.run("next", &[]);
    assert!(
        s.at().ends_with("Step 10-a: Pursuit & Recovery"),
        "{}",
        s.at()
    );
    // A battle won without a battle is refused (issue 45: it once ended the game at turn 1's
    // Weather); the winner rolls on the Pursuit Table, and the result follows from that roll.
    s.run(
        "resolve",
        &[
            "pursuit",
            "--counter",
            "pursuer=Mutt's Force",
            "-i",
            "context=major_battle",
            "--roll",
            "5",
            "--chart-result",
            "3",
        ],
    );
    let wrong = umpire(&["game", "battle-won", &s.game, "--side", "French"]);
    assert!(
        !wrong.success
            && wrong
                .stderr
                .contains("shows the Swiss as the Major Battle's winner"),
        "{}",
        wrong.show()
    );
    s.run(
        "resolve",
        &[
            "pursuit_losses",
            "-i",
            "pursuit_losses=3",
            "-i",
            "infantry_good_sp=8",
        ],
    );
    // The Swiss win the Major Battle: the scenario is theirs at once (L1921).
    let won = s.run(
        "battle-won",
        &["--reason", "the French Force is Demoralised (Step 8-a)"],
    );
    assert!(
        won.contains("The Swiss side wins: a Major Battle won by the Swiss"),
        "{won}"
    );
    let refused = umpire(&["game", "next", &s.game]);
    assert!(!refused.success, "the game is over: {}", refused.show());

    // 13 resolutions, and the walk between them.
    let journal = umpire(&["game", "export", &s.game, "--jsonl"]);
    assert!(journal.success, "{}", journal.show());
    let resolutions = journal.stdout.matches("\"type\":\"resolved\"").count();
    eprintln!(
        "The last triumph of the Swiss: {} next and skip for {resolutions} resolutions",
        s.steps
    );
    assert_eq!(resolutions, 13, "{}", journal.stdout.len());
    assert!(
        s.steps <= 40,
        "{} next and skip (issue 26: at most 40)",
        s.steps
    );
    let _ = std::fs::remove_dir_all(&dir);
}
