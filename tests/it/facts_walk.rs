//! The walk asks exactly what the rules require (issue 45), played through the command line:
//! an activation contest counts for the Capitano that activated, not the one that lost (7.2.2,
//! L569: "non-activating Capitani remain eligible"), the Attrition after a second activation only
//! after an actual second one (7.2, 8), the Activation markers off at Joint Consolidation (C.3);
//! a one-time roll is asked no more once its result happened (Scenario 3, special rule 6); a
//! roll the text places in the Activation Phase does not hold up the Weather Phase (Scenario 5,
//! special rule 1); D.1 reveals Forces sharing a hex. ailsh: seeds/000_73d28750ad550589.txt.

use crate::facts::{Table, entry_of};

/// The labels of the open (not done) items.
fn open_labels(t: &Table) -> Vec<String> {
    t.items()
        .into_iter()
        .filter(|(_, _, _, done)| !done)
        .map(|(_, _, label, _)| label)
        .collect()
}

/// Whether the item whose label ends with `end` and starts with `force` is done.
fn item_done(t: &Table, force: &str, end: &str) -> bool {
    t.items()
        .into_iter()
        .find(|(_, _, label, _)| label.starts_with(force) && label.ends_with(end))
        .unwrap_or_else(|| panic!("no item {force} … {end}: {:?}", t.items()))
        .3
}

/// An activation contest between Chaumont's Force (A) and Alviano's Force (B), A winning the
/// roll; the deciding player activates `activates` (a Capitano's name). Its entry.
fn contest(t: &Table, activates: &str) -> String {
    let out = t.run(
        "resolve",
        &[
            "activation",
            "--counter",
            "a=Chaumont's Force",
            "--counter",
            "b=Alviano's Force",
            "-i",
            "initiative_a=3",
            "-i",
            "initiative_b=2",
            "-i",
            "ma_a=6",
            "-i",
            "ma_b=6",
            "--roll",
            "1",
            "5",
        ],
    );
    let entry = entry_of(&out);
    let effects = t.run("effects", &[&entry]);
    assert!(
        effects.contains("choose which of"),
        "the deciding player's choice is asked: {effects}"
    );
    let status = format!("{activates}=activated");
    t.run("apply", &[&entry, "--status", &status]);
    entry
}

/// Scenario 1, turn 1: the French win the contest and Alviano activates. Alviano's activation is
/// done, Chaumont's is not (he remains eligible); no Attrition is asked of either until Alviano
/// activates a second time, then only of Alviano's Force; Next to Joint Consolidation takes the
/// Activation markers off.
#[test]
fn an_activation_counts_for_the_capitano_that_activated() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "activation");
    t.walk_to(1, "b. Roll for activation");
    contest(&t, "Alviano");
    assert!(item_done(&t, "Alviano's Force", ": Activation"));
    assert!(
        !item_done(&t, "Chaumont's Force", ": Activation"),
        "the Capitano that did not activate remains eligible: {:?}",
        t.items()
    );
    assert!(
        !open_labels(&t)
            .iter()
            .any(|l| l.contains("Attrition after a second activation")),
        "{:?}",
        t.items()
    );
    // Chaumont indicated again, Alviano again: two contests lost by Chaumont, none won.
    contest(&t, "Alviano");
    let attrition: Vec<String> = open_labels(&t)
        .into_iter()
        .filter(|l| l.contains("Attrition after a second activation"))
        .collect();
    assert_eq!(attrition.len(), 1, "{attrition:?}");
    assert!(attrition[0].starts_with("Alviano's Force"), "{attrition:?}");
    let key = t
        .items()
        .into_iter()
        .find(|(_, _, l, _)| l.contains("Attrition after a second activation"))
        .map(|(_, k, _, _)| k)
        .expect("the item");
    t.run("skip", &[&key, "--reason", "resolved at the table"]);
    assert_eq!(
        t.status()["counters"]
            .as_array()
            .expect("counters")
            .iter()
            .find(|c| c["name"] == "Alviano")
            .expect("Alviano")["statuses"],
        serde_json::json!(["activated"])
    );
    // Next passes Joint Consolidation (C.3, "Activation markers removed") on its way.
    let out = t.run("next", &[]);
    assert!(out.contains("3. Joint Consolidation"), "{out}");
    assert_eq!(
        t.status()["counters"]
            .as_array()
            .expect("counters")
            .iter()
            .find(|c| c["name"] == "Alviano")
            .expect("Alviano")["statuses"],
        serde_json::json!([]),
        "{out}"
    );
    let verify = t.run("verify", &[]);
    assert!(
        verify.contains("verified: the hash chain is whole"),
        "{verify}"
    );
}

/// Scenario 3, special rule 6 (L2253–2294): "Once the Swiss are Anti-French, the rule is no more
/// in effect." Rolled Anti-French on its first turn, the Swiss Alignment roll is not asked on the
/// next.
#[test]
fn a_one_time_roll_is_not_asked_again_after_its_result() {
    let t = Table::new("ailsh_3_francois_first_time_1515", "swiss");
    let key = t
        .items()
        .into_iter()
        .find(|(_, k, _, _)| k.starts_with("schedule:swiss_alignment_roll:"))
        .map(|(_, k, _, _)| k)
        .expect("the Swiss Alignment roll is due on the first turn");
    let out = t.run(
        "resolve",
        &[
            "swiss_alignment",
            "--for",
            &key,
            "-i",
            "french_aps_spent=0",
            "-i",
            "anti_french_aps_spent=0",
            "--roll",
            "1",
        ],
    );
    assert!(out.contains("Anti-French"), "{out}");
    t.walk_to(2, "A) Weather Phase");
    assert!(
        !t.items()
            .iter()
            .any(|(_, k, _, _)| k.starts_with("schedule:swiss_alignment_roll:")),
        "{:?}",
        t.items()
    );
}

/// Scenario 5, special rule 1 (L2694): a 5 or 6 at the end of the Weather Phase, and "two dice
/// are rolled during the Activation Phase on the expedition table": the expedition's Force is
/// shown from the Weather Phase on, due at the Deployment of Reinforcements, and Next is not
/// held up by it before then.
#[test]
fn a_roll_of_the_activation_phase_does_not_hold_up_the_weather() {
    let t = Table::new("ailsh_5_struggle_for_the_duchy_1524", "genova");
    let due = t
        .items()
        .into_iter()
        .find(|(_, k, _, _)| k.starts_with("schedule:genova_expedition_roll:"));
    // The first roll is on November, 1 (not the start turn): walk there.
    if due.is_none() {
        t.walk_to(2, "A) Weather Phase");
    }
    let key = t
        .items()
        .into_iter()
        .find(|(_, k, _, _)| k.starts_with("schedule:genova_expedition_roll:"))
        .map(|(_, k, _, _)| k)
        .expect("the Genova roll is due");
    t.run(
        "resolve",
        &["genova_expedition", "--for", &key, "--roll", "6"],
    );
    let follow = follow_up(&t).expect("the expedition's Force is queued");
    assert_eq!(follow["mandatory"], false, "{follow}");
    assert!(
        follow["label"].as_str().is_some_and(
            |l| l.contains("due at C) Activation Phase › 1. Deployment of Reinforcements")
        ),
        "{follow}"
    );
    t.walk_to(
        t.status()["turn"].as_u64().expect("turn"),
        "1. Deployment of Reinforcements",
    );
    let here = follow_up(&t).expect("still queued");
    assert_eq!(here["mandatory"], true, "due now: {here}");
}

/// The follow-up item pending (its JSON).
fn follow_up(t: &Table) -> Option<serde_json::Value> {
    t.status()["pending"]
        .as_array()
        .expect("pending")
        .iter()
        .find(|p| {
            p["key"]
                .as_str()
                .is_some_and(|k| k.starts_with("follow_up:"))
        })
        .cloned()
}

/// D.1 (L247–249): Capitani adjacent to enemy Forces reveal their Forces. A Force moved into the
/// hex of an enemy Force (a siege) is in contact all the more: the reveal has counters to do.
#[test]
fn forces_sharing_a_hex_are_revealed_at_intelligence() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "samehex");
    t.walk_to(1, "b. Roll for activation");
    // Chaumont's Force (2832) marches into Orzinuovi (2342), where Pitigliano's Force stands.
    t.run("move", &["Chaumont's Force", "2342"]);
    t.run("next", &[]);
    assert!(
        t.status()["step"]["path"]
            .as_str()
            .is_some_and(|p| p.contains("1. Intelligence")),
        "the walk stops at D.1: {}",
        t.status()["step"]
    );
    let reveal = t
        .items()
        .into_iter()
        .find(|(_, k, _, _)| k.starts_with("reveal:"))
        .expect("the reveal item");
    assert!(!reveal.3, "{reveal:?}");
    assert!(
        reveal.2.contains("counters in contact to reveal"),
        "{reveal:?}"
    );
}

/// `umpire game orders VERB GAME ARGS…`: its output, or its error.
fn orders(t: &Table, args: &[&str]) -> Result<String, String> {
    let mut all = vec!["game", "orders", args[0], t.game.as_str()];
    all.extend_from_slice(&args[1..]);
    let out = crate::cli::umpire(&all);
    if out.success {
        Ok(out.stdout)
    } else {
        Err(out.stderr)
    }
}

/// The French Army's AP marker's Administrative Points.
fn french_aps(t: &Table) -> i64 {
    t.attribute("French AP marker", "administrative_points")
        .as_i64()
        .expect("a number")
}

/// 5.3.4 (L477–482) and 5.2–5.3: on an AP turn every Order comes off (an Attack kept as a
/// Previous Attack marker); the Orders sealed and revealed go on the Primo Capitani, each paid
/// from the Army's AP marker where the text gives the cost (1 AP for a Minor Force's Manoeuvre
/// or Attack) and named where it does not (a Major Force's Order); a Force given none is named;
/// a reveal while the Venetians handed in nothing asks first.
#[test]
fn revealed_orders_reach_the_counters_and_are_paid_for() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "orders");
    t.walk_to(4, "d. Issue or re-issue Orders");
    assert_eq!(t.attribute("Chaumont", "order"), "none", "5.3.4: removed");
    assert_eq!(t.attribute("Chaumont", "previous_attack"), true);
    assert_eq!(t.attribute("Louis XII", "order"), "none");
    let before = french_aps(&t);
    orders(
        &t,
        &[
            "seal",
            "--side",
            "french",
            "--order",
            "Orders",
            "Chaumont.Order=Attack",
            "Roquebertin.Order=Manoeuvre",
            "Louis XII.Order=Stand",
        ],
    )
    .expect("sealed");
    let why = orders(&t, &["reveal"]).expect_err("asks first");
    assert!(
        why.contains("the Venetian Orders were not handed in") && why.contains("--anyway"),
        "{why}"
    );
    assert_eq!(french_aps(&t), before, "nothing recorded");
    let out = orders(&t, &["reveal", "--anyway"]).expect("revealed");
    assert_eq!(t.attribute("Chaumont", "order"), "attack");
    assert_eq!(t.attribute("Roquebertin", "order"), "manoeuvre");
    assert_eq!(t.attribute("Louis XII", "order"), "stand");
    assert_eq!(french_aps(&t), before - 2, "{out}");
    assert!(
        out.contains("the cost of Louis XII's Order is not in the text"),
        "{out}"
    );
    let verify = t.run("verify", &[]);
    assert!(
        verify.contains("verified: the hash chain is whole"),
        "{verify}"
    );
}

/// 7.8 and 11.2 (L820–858): a Force in an enemy ZOC must attack, or renounce and compel an enemy
/// Force to attack it. Scenario 2, Tremouille's Force beside Novara: at Step 2 both Forces in
/// contact have a mandatory item, Next waits for them (naming them), entering the battle is not
/// held up by them, and a renunciation skipped with its reason lets the game go on.
#[test]
fn a_force_in_contact_attacks_or_renounces() {
    let t = Table::new("ailsh_2_last_triumph_of_the_swiss_1513", "zoc");
    t.run(
        "resolve",
        &["weather", "--roll", "2", "--chart-result", "fair"],
    );
    t.run("next", &[]);
    t.run("move", &["Tremouille's Force", "2610"]);
    t.skip_to_step("battle_step_2");
    assert_eq!(t.status()["step"]["id"], "battle_step_2");
    let items: Vec<(String, String)> = t
        .items()
        .into_iter()
        .filter(|(_, _, label, done)| label.contains("Attack, or renounce") && !done)
        .map(|(_, key, label, _)| (key, label))
        .collect();
    assert_eq!(items.len(), 2, "both Forces in contact: {items:?}");
    assert!(
        items
            .iter()
            .any(|(_, l)| l.starts_with("Tremouille's Force")),
        "{items:?}"
    );
    let refused = t.refused("next", &[]);
    assert!(refused.contains("Attack, or renounce"), "{refused}");
    // The battle may be entered with them open: it is what settles them.
    let copy = format!("{}.copy", t.game);
    std::fs::copy(&t.game, &copy).expect("copy");
    let fight = Table { game: copy };
    fight.run("next", &["--to", "major_battle"]);
    // Renounced (11.2.4): skipped with the reason, the game goes on.
    for (key, _) in &items {
        t.run(
            "skip",
            &[key, "--reason", "renounced: not in an enemy ZOC (11.2.4)"],
        );
    }
    t.run("next", &[]);
    assert_ne!(t.status()["step"]["id"], "battle_step_2");
}
