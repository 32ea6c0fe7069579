//! No engine words on any paper (issue 30, item 4): every paper kind of the five shipped
//! rulesets and their scenarios — chart sheets, chart cards, the organiser's scenario sheets and
//! each side's handout, turn reports (the whole game's, one turn's, each side's), the megagame's
//! statements, announcements and Control log, and the players' page of each side — is generated
//! from games with steps played and scanned with [`crate::words::leaks`]: no snake_case or
//! hyphenated ids, no `mp_a`-style names, no "No dice, modified", no line numbers or operators.

use std::path::{Path, PathBuf};

use crate::cli::umpire;
use crate::words::{leaks, pdf_text};

/// Each shipped scenario, a procedure to resolve in it (app dice), and its sides.
pub(crate) const GAMES: [(&str, &[&str], &[&str]); 9] = [
    (
        "ailsh_1_venice_at_bay_1509",
        &["resolve", "weather", "--chart-result", "fair"],
        &["french", "venetian"],
    ),
    (
        "ailsh_2_last_triumph_of_the_swiss_1513",
        &["resolve", "weather", "--chart-result", "fair"],
        &["french", "swiss"],
    ),
    (
        "ailsh_3_francois_first_time_1515",
        &["resolve", "weather", "--chart-result", "fair"],
        &["french_coalition", "anti_french"],
    ),
    (
        "ailsh_4_french_lose_the_duchy_1522",
        &["resolve", "weather", "--chart-result", "fair"],
        &["french_coalition", "imperial"],
    ),
    (
        "ailsh_5_struggle_for_the_duchy_1524",
        &["resolve", "weather", "--chart-result", "fair"],
        &["french", "imperial"],
    ),
    (
        "arquebus_cerignola_1503",
        &["resolve", "loss_check", "-i", "flight_level=12"],
        &["spanish", "french"],
    ),
    (
        "gradisca_war_of_gradisca_1615",
        &["resolve", "mine_explosion"],
        &["austrian", "venetian"],
    ),
    (
        "qrs_encounter_template",
        &["resolve", "discipline_test", "-i", "discipline=B"],
        &["side_a", "side_b"],
    ),
    (
        "rr3_handbook_1524",
        &["resolve", "mutiny", "-i", "arrears=3"],
        &["england", "france", "habsburgs", "papacy"],
    ),
];

const RULESETS: [&str; 5] = ["ailsh", "arquebus", "gradisca", "qrs", "rr3"];

/// What one test found: each paper with the engine words it shows.
#[derive(Default)]
struct Findings(Vec<(String, Vec<String>)>, usize);

impl Findings {
    fn scan(&mut self, paper: &str, text: &str) {
        assert!(
            text.split_whitespace().count() > 20,
            "{paper} has words to scan: {text}"
        );
        let found = leaks(text);
        if !found.is_empty() {
            self.0.push((paper.to_string(), found));
        }
    }

    /// Prints a PDF with `args` (the output path appended) and scans its text.
    fn pdf(&mut self, dir: &Path, paper: &str, args: &[&str]) -> String {
        self.1 += 1;
        let pdf = dir.join(format!("paper-{}.pdf", self.1));
        let pdf_name = pdf.to_string_lossy().to_string();
        let mut full = vec!["--no-user-rules"];
        full.extend_from_slice(args);
        full.extend(["--force", "-o", &pdf_name]);
        let run = umpire(&full);
        assert!(run.success, "{paper}: {}", run.show());
        let text = pdf_text(&pdf);
        self.scan(paper, &text);
        text
    }

    fn assert_none(&self) {
        let list: Vec<String> = self
            .0
            .iter()
            .map(|(paper, found)| format!("{paper}: {found:?}"))
            .collect();
        assert!(
            list.is_empty(),
            "engine words on paper:\n{}",
            list.join("\n")
        );
    }
}

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("paper", name)
}

/// A game of `scenario` (seed 1) with `resolve` recorded and a few steps of the Sequence of
/// Play passed (each step's pending items skipped with a reason when it holds the game).
fn played_game(dir: &Path, scenario: &str, resolve: &[&str]) -> String {
    let game = dir.join(format!("{scenario}.umpire"));
    let game = game.to_string_lossy().to_string();
    let created = umpire(&[
        "--no-user-rules",
        "game",
        "new",
        scenario,
        "-o",
        &game,
        "--seed",
        "1",
    ]);
    assert!(created.success, "{}", created.show());
    let mut args = vec!["--no-user-rules", "game", resolve[0], &game];
    args.extend_from_slice(&resolve[1..]);
    let resolved = umpire(&args);
    assert!(resolved.success, "{}", resolved.show());
    for extra in extras(scenario) {
        let mut args = vec!["--no-user-rules", "game", extra[0], &game];
        args.extend_from_slice(&extra[1..]);
        let run = umpire(&args);
        assert!(run.success, "{}", run.show());
    }
    let mut passed = 0;
    for _ in 0..30 {
        if passed == 6 {
            break;
        }
        let next = umpire(&["--no-user-rules", "game", "next", &game]);
        if next.success {
            passed += 1;
            continue;
        }
        if next.stderr.contains("the scenario ends") {
            break;
        }
        // "mandatory items are still pending: 2. Venetian APs …; 3. Weather — …": the first.
        let item = next
            .stderr
            .split_once("pending: ")
            .and_then(|(_, rest)| rest.split_once(". "))
            .map(|(n, _)| n.trim().to_string())
            .unwrap_or_else(|| panic!("{scenario}: {}", next.show()));
        let skipped = umpire(&[
            "--no-user-rules",
            "game",
            "skip",
            &game,
            &item,
            "--reason",
            "played at the table",
        ]);
        assert!(skipped.success, "{}", skipped.show());
    }
    assert!(passed > 0, "{scenario}: no step passed");
    game
}

/// More entries where engine words were seen on paper: the ailsh activation contest (its `mp_a`
/// values, its players) and a status marker ("attack_finished"); an rr3 battle with a table
/// modifier ("spanish_or_swiss").
fn extras(scenario: &str) -> Vec<Vec<&'static str>> {
    match scenario {
        "ailsh_1_venice_at_bay_1509" => vec![
            vec![
                "resolve",
                "activation",
                "--counter",
                "a=Chaumont",
                "--counter",
                "b=Alviano",
                "-i",
                "initiative_a=3",
                "-i",
                "initiative_b=2",
                "-i",
                "ma_a=5",
                "-i",
                "ma_b=5",
            ],
            vec!["mark", "Chaumont", "attack_finished"],
        ],
        "rr3_handbook_1524" => vec![vec![
            "resolve",
            "battle",
            "-i",
            "attacker_thousands=20",
            "-i",
            "attacker_nationality=spanish",
            "-i",
            "defender_thousands=15",
            "-i",
            "defender_nationality=french",
        ]],
        _ => Vec::new(),
    }
}

#[test]
fn chart_sheets_cards_and_scenario_sheets_speak_words() {
    let dir = scratch("charts");
    let mut found = Findings::default();
    for ruleset in RULESETS {
        found.pdf(
            &dir,
            &format!("{ruleset} chart sheets"),
            &["charts", ruleset],
        );
        found.pdf(
            &dir,
            &format!("{ruleset} chart cards"),
            &["charts", ruleset, "--cards"],
        );
    }
    for (scenario, _, sides) in GAMES {
        found.pdf(&dir, &format!("{scenario} sheet"), &["sheet", scenario]);
        for side in sides {
            found.pdf(
                &dir,
                &format!("{scenario} handout for {side}"),
                &["sheet", scenario, "--side", side],
            );
        }
    }
    found.assert_none();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reports_statements_and_players_pages_speak_words() {
    let dir = scratch("games");
    let mut found = Findings::default();
    for (scenario, resolve, sides) in GAMES {
        let game = played_game(&dir, scenario, resolve);
        let report = found.pdf(&dir, &format!("{scenario} report"), &["report", &game]);
        if scenario == "ailsh_1_venice_at_bay_1509" {
            // The activation contest's players by their Capitani, not "Player A/B".
            assert!(
                (report.contains("Chaumont's player decides")
                    || report.contains("Alviano's player decides"))
                    && !report.contains("Player A")
                    && !report.contains("Player B"),
                "{report}"
            );
        }
        found.pdf(
            &dir,
            &format!("{scenario} report of turn 1"),
            &["report", &game, "--turn", "1"],
        );
        for side in sides {
            found.pdf(
                &dir,
                &format!("{scenario} report for {side}"),
                &["report", &game, "--side", side],
            );
        }
        if scenario.starts_with("rr3") {
            for team in sides {
                found.pdf(
                    &dir,
                    &format!("{scenario} statement of {team}"),
                    &["megagame", "statement", &game, "--team", team],
                );
            }
            found.pdf(
                &dir,
                &format!("{scenario} announcements"),
                &["megagame", "announcements", &game],
            );
            found.pdf(
                &dir,
                &format!("{scenario} Control log"),
                &["megagame", "log", &game],
            );
        }
        players_pages(&mut found, scenario, Path::new(&game));
    }
    found.assert_none();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each link's page of the players' view (every side's, the public one), as the phone gets
/// it, scanned as text (markup and the page's script left out).
fn players_pages(found: &mut Findings, scenario: &str, game: &Path) {
    use umpire::rules::Library;
    use umpire::serve::{ServeOptions, Server};
    let server = Server::start(
        &game.to_string_lossy(),
        Library::shipped(),
        &ServeOptions {
            bind: "127.0.0.1:0".parse().expect("addr"),
            max_connections: 8,
        },
    )
    .expect("serves");
    assert!(!server.links.is_empty(), "{scenario}: links to serve");
    for link in &server.links {
        let path = format!("/s/{}", link.token);
        let (status, page) = crate::serve::get(server.addr, &path);
        assert_eq!(status, 200, "{path}: {page}");
        found.scan(
            &format!("{scenario} players' page for {}", link.name),
            &page_text(&page),
        );
    }
}

/// What a page shows: its text without tags, scripts, styles and attributes, entities read.
fn page_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        out.push(' ');
        rest = &rest[at..];
        let lower = rest.get(..8).unwrap_or(rest).to_ascii_lowercase();
        let close = if lower.starts_with("<script") {
            "</script>"
        } else if lower.starts_with("<style") {
            "</style>"
        } else {
            ">"
        };
        match rest.find(close) {
            Some(end) => rest = &rest[end + close.len()..],
            None => rest = "",
        }
    }
    out.push_str(rest);
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
}

#[test]
fn a_page_reads_as_its_text() {
    assert_eq!(
        page_text(
            "<p class=\"x_y\">Chaumont &amp; Louis</p><script>let a_b = 1;</script><b>ok</b>"
        )
        .split_whitespace()
        .collect::<Vec<_>>(),
        vec!["Chaumont", "&", "Louis", "ok"]
    );
}
