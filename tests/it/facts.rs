//! Every fact a game records is right, or the game asks (issue 45), each case played through
//! the command line as an umpire would: the Administrative Points each side receives credited to
//! its own marker, an attribute printed on the counters asked for (and given once), losses by
//! the rule the text gives, a Discipline D that Demoralises. ailsh:
//! seeds/000_73d28750ad550589.txt.

use serde_json::Value;

use crate::cli::umpire;

/// A game played from the command line, each command checked.
pub(crate) struct Table {
    pub(crate) game: String,
}

impl Table {
    /// A new game of a shipped scenario in a scratch folder of its own.
    pub(crate) fn new(scenario: &str, name: &str) -> Table {
        let dir = std::env::temp_dir().join(format!("umpire-facts-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let game = dir.join("game.umpire").to_string_lossy().to_string();
        let made = umpire(&["game", "new", scenario, "-o", &game]);
        assert!(made.success, "{}", made.show());
        Table { game }
    }

    /// `umpire game VERB GAME ARGS…`, which must succeed: its output.
    pub(crate) fn run(&self, verb: &str, args: &[&str]) -> String {
        let out = self.attempt(verb, args);
        assert!(out.success, "{}", out.show());
        out.stdout
    }

    /// `umpire game VERB GAME ARGS…`, which must be refused: its message.
    pub(crate) fn refused(&self, verb: &str, args: &[&str]) -> String {
        let out = self.attempt(verb, args);
        assert!(!out.success, "expected a refusal: {}", out.show());
        out.stderr
    }

    pub(crate) fn attempt(&self, verb: &str, args: &[&str]) -> crate::cli::Run {
        let mut all = vec!["game", verb, self.game.as_str()];
        all.extend_from_slice(args);
        umpire(&all)
    }

    /// `game status --json`.
    pub(crate) fn status(&self) -> Value {
        let out = self.run("status", &["--json"]);
        serde_json::from_str(&out).expect("status JSON")
    }

    /// The pending items: (number as `status` lists it, key, label, done).
    pub(crate) fn items(&self) -> Vec<(usize, String, String, bool)> {
        self.status()["pending"]
            .as_array()
            .expect("pending")
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (
                    i + 1,
                    p["key"].as_str().unwrap_or_default().to_string(),
                    p["label"].as_str().unwrap_or_default().to_string(),
                    p["done"].as_bool().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// A counter's attribute, by the counter's name.
    pub(crate) fn attribute(&self, counter: &str, attribute: &str) -> Value {
        let status = self.status();
        let c = status["counters"]
            .as_array()
            .expect("counters")
            .iter()
            .find(|c| c["name"] == counter)
            .unwrap_or_else(|| panic!("no counter {counter}"))
            .clone();
        c["attributes"][attribute].clone()
    }

    /// Next until the step whose name holds `step` on turn `turn`, resolving each turn's Weather
    /// (Fair, off the physical chart) and skipping what else is mandatory, with a reason.
    pub(crate) fn walk_to(&self, turn: u64, step: &str) {
        for _ in 0..400 {
            let status = self.status();
            let here = status["step"]["path"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            if status["turn"].as_u64() == Some(turn) && here.contains(step) {
                return;
            }
            for (_, key, label, done) in self.items() {
                let open = !done
                    && status["pending"].as_array().is_some_and(|p| {
                        p.iter()
                            .any(|x| x["key"] == key.as_str() && x["mandatory"] == true)
                    });
                if !open {
                    continue;
                }
                if label == "Weather" {
                    self.run(
                        "resolve",
                        &["weather", "--roll", "2", "--chart-result", "fair"],
                    );
                } else if key.starts_with("schedule:") && label.contains("— add ") {
                    self.run("credit", &[&key]);
                } else {
                    self.run("skip", &[&key, "--reason", "not played in this test"]);
                }
            }
            self.run("next", &[]);
        }
        panic!("turn {turn}, {step} never reached");
    }
}

impl Table {
    /// "The last triumph of the Swiss": turn 1's Weather, Tremouille's Force beside Novara
    /// (2610), on to Step 2 of the Battle Resolution (what else is mandatory skipped), and
    /// the Major Battle entered.
    pub(crate) fn enter_the_major_battle(&self) {
        self.run(
            "resolve",
            &["weather", "--roll", "2", "--chart-result", "fair"],
        );
        self.run("next", &[]);
        self.run("move", &["Tremouille's Force", "2610"]);
        self.skip_to_step("battle_step_2");
        self.run("next", &["--to", "major_battle"]);
    }

    /// Next until the step `id` of this turn, what is mandatory on the way skipped with a
    /// reason.
    pub(crate) fn skip_to_step(&self, id: &str) {
        for _ in 0..20 {
            if self.status()["step"]["id"] == id {
                return;
            }
            for (_, key, _, done) in self.items() {
                let mandatory = self.status()["pending"].as_array().is_some_and(|p| {
                    p.iter()
                        .any(|x| x["key"] == key.as_str() && x["mandatory"] == true)
                });
                if mandatory && !done {
                    self.run("skip", &[&key, "--reason", "not played in this test"]);
                }
            }
            self.run("next", &[]);
        }
        panic!("step {id} never reached");
    }
}

/// The number the `recorded entry N` line of a command gives.
pub(crate) fn entry_of(out: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix("recorded entry "))
        .map(|rest| rest.split(':').next().unwrap_or(rest).trim().to_string())
        .unwrap_or_else(|| panic!("no entry recorded: {out}"))
}

/// 4.3.1 (L412): "The number resulting from the table will modify the nominal quantity of APs
/// to be received; the final result (which may never be negative …) will be added to the
/// accumulated total of the Army." Scenario 1, May 1: the French (nominal 4) read −2 at LOC 38
/// (the L414 example's cell) and receive 2; the Venetians (nominal 5) read 0 off their chart and
/// receive 5; each credit goes to its own side's marker; a roll that could be either side's is
/// asked whose; an override to −1 credits 5 − 1; the journal verifies.
#[test]
fn each_side_is_credited_the_aps_its_own_roll_received() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "ap");
    for (item, _, _, _) in t
        .items()
        .into_iter()
        .filter(|(_, k, _, _)| k.contains("at_start"))
    {
        t.run("credit", &[&item.to_string()]);
    }
    assert_eq!(t.attribute("French AP marker", "administrative_points"), 5);
    assert_eq!(
        t.attribute("Venetian AP marker", "administrative_points"),
        4
    );
    t.walk_to(4, "Receive Administrative Points");
    let items = t.items();
    let french = items
        .iter()
        .find(|(_, k, _, _)| k == "schedule:french_ap:4")
        .expect("the French item")
        .0
        .to_string();
    // Both sides' items ask for the roll: whose it is is asked, not guessed.
    let whose = t.refused(
        "resolve",
        &[
            "administrative_points",
            "-i",
            "loc_distance=38",
            "--roll",
            "3",
            "4",
        ],
    );
    assert!(
        whose.contains("due here for several")
            && whose.contains("French")
            && whose.contains("Venetian"),
        "{whose}"
    );
    let out = t.run(
        "resolve",
        &[
            "administrative_points",
            "-i",
            "loc_distance=38",
            "--roll",
            "3",
            "4",
            "--for",
            &french,
        ],
    );
    assert!(out.contains("Nominal APs (scenario schedule) = 4"), "{out}");
    assert!(out.contains("value 2 (APs received"), "{out}");
    // The Venetian item still waits for its own roll: it reads nothing of the French one.
    let venetian = t
        .items()
        .into_iter()
        .find(|(_, k, _, _)| k == "schedule:venetian_ap:4")
        .expect("the Venetian item");
    assert!(
        venetian.2.contains("resolve Receive Administrative Points"),
        "{}",
        venetian.2
    );
    let french_item = t
        .items()
        .into_iter()
        .find(|(_, k, _, _)| k == "schedule:french_ap:4")
        .expect("the French item");
    assert!(
        french_item.2.contains("add 2 to French AP marker"),
        "{}",
        french_item.2
    );
    t.run("credit", &["schedule:french_ap:4"]);
    assert_eq!(
        t.attribute("French AP marker", "administrative_points"),
        7,
        "5 + (4 − 2)"
    );
    // The only item left is the Venetians': their roll answers it without being named; the
    // chart's 0 leaves the nominal 5, never +0.
    let out = t.run(
        "resolve",
        &[
            "administrative_points",
            "-i",
            "loc_distance=20",
            "--roll",
            "2",
            "2",
            "--chart-result",
            "0",
        ],
    );
    assert!(out.contains("Nominal APs (scenario schedule) = 5"), "{out}");
    let roll = entry_of(&out);
    t.run(
        "override",
        &[&roll, "-1", "--reason", "the chart was misread"],
    );
    let credited = t.run("credit", &["schedule:venetian_ap:4"]);
    assert!(credited.contains("Administrative Points +4"), "{credited}");
    assert_eq!(
        t.attribute("Venetian AP marker", "administrative_points"),
        8,
        "4 + (5 − 1)"
    );
    let verified = t.run("verify", &[]);
    assert!(verified.contains("verified:"), "{verified}");
}

/// "Venice at bay": Chaumont's Force assaults Vitelli's in a Skirmish, a 4 rolled and A1 D1
/// read off the chart (the arguments of `game resolve` after the game file).
pub(crate) const VENICE_ASSAULT: [&str; 15] = [
    "assault",
    "--counter",
    "attacker=Chaumont's Force",
    "--counter",
    "defender=Vitelli's Force",
    "-i",
    "battle=skirmish",
    "-i",
    "weather=fair",
    "-i",
    "odds_drm=0",
    "--roll",
    "4",
    "--chart-prints",
    "A1 D1",
];

/// 12.1 (L1258): a Force's Quality is read from its units' Troop Quality, printed on the
/// counters and not in the text (1.3.3, L154). With the Forces in their roles and the Qualities
/// unknown, the Assault is refused naming the counters and the attribute — never resolved with
/// 0 SPs and "Odds = 0 to 1"; given once for every counter alike (`game set-all`, one entry),
/// it resolves with the SPs of each group.
#[test]
fn an_assault_asks_for_the_troop_quality_printed_on_the_counters() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "quality");
    let assault = VENICE_ASSAULT;
    let why = t.refused("resolve", &assault);
    assert!(
        why.contains("the Troop Quality of French Gendarmes (Chaumont) is not known yet"),
        "{why}"
    );
    let before = t.status()["events"].as_u64().expect("events");
    let set = t.run(
        "set-all",
        &["troop_quality=3", "--named", "French Gendarmes"],
    );
    assert!(
        set.contains("French Gendarmes (Chaumont): Troop Quality 3")
            && set.contains("French Gendarmes (Breakdown) 4: Troop Quality 3"),
        "{set}"
    );
    // One entry for every counter alike.
    assert_eq!(t.status()["events"].as_u64(), Some(before + 1));
    // The text's own value stays: Chaumont's Italian Infantry are Q = 2 (L1803).
    let kept = t.refused(
        "set-all",
        &[
            "troop_quality=1",
            "--named",
            "Italian Infantry (French service)",
            "--with",
            "service=French",
        ],
    );
    assert!(kept.contains("holds those values already"), "{kept}");
    let why = t.refused("resolve", &assault);
    assert!(
        why.contains("Italian Infantry (Venetian service, Vitelli)"),
        "{why}"
    );
    t.run(
        "set-all",
        &[
            "troop_quality=1",
            "--named",
            "Italian Infantry (Venetian service)",
        ],
    );
    t.run(
        "set-all",
        &["troop_quality=2", "--named", "Stradiots Light Cavalry"],
    );
    let out = t.run("resolve", &assault);
    assert!(
        out.contains("Attacker: undemoralised SPs of Quality 3 = 6"),
        "{out}"
    );
    assert!(
        out.contains("Attacker: undemoralised SPs of Quality 2 = 12"),
        "{out}"
    );
    assert!(
        out.contains("Odds (read the DRM below the AST) = 6 to 1"),
        "{out}"
    );
}

/// 11.4 Step 10-a (L969): Pursuit Losses fall on Artillery, then Infantry, then Cavalry,
/// Demoralised units first in each, a Demoralised SP absorbing 1 and another 2. The pursued
/// Force's SPs are read from its counters (not 0), and the proposal follows that order.
#[test]
fn pursuit_losses_read_the_force_and_fall_in_the_texts_order() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "pursuit");
    // Pitigliano's Force: 20 SP of Heavy Cavalry, 24 SP of Infantry, 2 of Artillery (L1823–1827).
    t.run("mark", &["Venetian Infantry (Pitigliano) 1", "demoralised"]);
    let out = t.run(
        "resolve",
        &[
            "pursuit_losses",
            "--counter",
            "pursued=Pitigliano's Force",
            "-i",
            "pursuit_losses=9",
        ],
    );
    assert!(out.contains("Artillery SPs — undemoralised = 2"), "{out}");
    assert!(out.contains("Infantry SPs — Demoralised = 6"), "{out}");
    assert!(out.contains("Cavalry SPs — undemoralised = 20"), "{out}");
    // 9 PL: Artillery 2 SP (4 PL), then the Demoralised Infantry 5 SP (5 PL).
    assert!(out.contains("Total SPs lost = 7"), "{out}");
    let effects = t.run("effects", &[&entry_of(&out)]);
    assert!(
        effects.contains("taken in the order the rules give"),
        "{effects}"
    );
    assert!(
        effects.contains("Venetian Artillery: Strength Points (current) 2 → 0")
            && effects
                .contains("Venetian Infantry (Pitigliano) 1: Strength Points (current) 6 → 1"),
        "{effects}"
    );
    assert!(
        !effects.contains("Venetian Heavy Cavalry"),
        "no Cavalry SP lost: {effects}"
    );
}

/// 12.1.7 (L1304): "At least half of the SPs losses must be absorbed by Combat Units belonging
/// to the Quality group used to determine the Quality of the Force". Louis XII's Force with its
/// Swiss at Quality 3 and the French Infantry at 1: the group is the Quality 3 units, and at
/// least half of a 5 SP loss falls on them.
#[test]
fn an_assault_loss_falls_half_on_the_quality_group_that_set_the_forces_quality() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "group");
    t.run("set-all", &["troop_quality=3", "--named", "Swiss Infantry"]);
    t.run(
        "set-all",
        &["troop_quality=3", "--named", "French Gendarmes"],
    );
    t.run(
        "set-all",
        &["troop_quality=1", "--named", "French Infantry"],
    );
    t.run(
        "set-all",
        &[
            "troop_quality=1",
            "--named",
            "Italian Infantry (Venetian service)",
        ],
    );
    t.run(
        "set-all",
        &["troop_quality=2", "--named", "Stradiots Light Cavalry"],
    );
    let out = t.run(
        "resolve",
        &[
            "assault",
            "--counter",
            "attacker=Vitelli's Force",
            "--counter",
            "defender=Louis XII's Force",
            "-i",
            "battle=skirmish",
            "-i",
            "weather=fair",
            "-i",
            "odds_drm=0",
            "--roll",
            "4",
            "--chart-prints",
            "D5",
        ],
    );
    assert!(
        out.contains(
            "Defender Force Quality (group of half or more SPs, higher groups downgraded) = 3"
        ),
        "{out}"
    );
    let applied = t.run("apply", &[&entry_of(&out), "--loss", "defender=5"]);
    let on = |name: &str| applied.matches(name).count();
    let group = on("Swiss Infantry (Louis XII)") + on("French Gendarmes (Louis XII)");
    let others = on("French Infantry (Louis XII)") + on("French Infantry (\"Picardie\")");
    assert!(
        group >= 3,
        "at least 3 of 5 SP on the Quality 3 group: {applied}"
    );
    assert_eq!(group + others, 5, "{applied}");
}

/// 9.1 (L753, L761) and 18.6.3 (L1620): a Discipline Check's D Demoralises the unit (ruling
/// discipline_d_result: the chart's codes are explained below the printed table); the result
/// proposes the Demoralised status, and applying it flips the unit.
#[test]
fn a_discipline_d_proposes_the_unit_demoralised() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "discipline");
    let out = t.run(
        "resolve",
        &[
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
    );
    let entry = entry_of(&out);
    let effects = t.run("effects", &[&entry]);
    assert!(
        effects.contains("French Gendarmes (Chaumont) is now demoralised"),
        "{effects}"
    );
    t.run("apply", &[&entry, "--proposed"]);
    let status = t.status();
    let gendarmes = status["counters"]
        .as_array()
        .expect("counters")
        .iter()
        .find(|c| c["name"] == "French Gendarmes (Chaumont)")
        .expect("Gendarmes")
        .clone();
    assert!(
        gendarmes["statuses"]
            .as_array()
            .is_some_and(|s| s.iter().any(|x| x == "demoralised")),
        "{gendarmes}"
    );
}

/// rr3, Battles › Death of leaders (L667–674): the roll's "dead" falls on the procedure's
/// `character`. A leader put in a role the procedure does not have ("leader") would be marked
/// by nothing: refused, naming the role it takes; in that role the result marks him dead.
#[test]
fn a_death_roll_falls_on_the_leader_in_the_procedures_own_role() {
    let t = Table::new("rr3_handbook_1524", "death-role");
    let roll = |role: &str| {
        t.attempt(
            "resolve",
            &[
                "leader_death",
                "--counter",
                &format!("{role}=Henry VIII"),
                "-i",
                "battle_result=lost",
                "--roll",
                "1",
                "--roll",
                "1",
            ],
        )
    };
    let wrong = roll("leader");
    assert!(!wrong.success, "{}", wrong.show());
    assert!(
        wrong.stderr.contains(
            "Death of leaders has no role 'leader': put the counter in its role 'character'"
        ),
        "{}",
        wrong.stderr
    );
    let right = roll("character");
    assert!(right.success, "{}", right.show());
    assert!(
        right.stdout.contains("The leader is dead"),
        "{}",
        right.stdout
    );
    let entry = t.status()["events"].as_u64().expect("events");
    t.run("apply", &[&entry.to_string(), "--proposed"]);
    assert_eq!(t.attribute("Henry VIII", "alive"), false);
}
