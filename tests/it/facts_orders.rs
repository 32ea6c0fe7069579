//! Written orders hold to what the form says is not allowed (issue 45, item 5), with the one
//! check the phone, the desk and the command line share (`Game::seal_orders`): a Force left
//! with no Order on a turn its Order was removed (5.2, 5.3.4), a Garrison outside a Town, City
//! or Fortress (5.3), an Attack with half the Force Demoralised (5.3); in rr3, a move by an army
//! raised this phase. ailsh: seeds/000_73d28750ad550589.txt; rr3: seeds/001_a316a7ada873c985.txt.

use crate::facts::Table;

/// `umpire game orders seal GAME --side SIDE --order Orders ASSIGNMENTS…`: its output, or its
/// error.
fn seal(t: &Table, side: &str, assignments: &[&str]) -> Result<String, String> {
    let mut all = vec![
        "game",
        "orders",
        "seal",
        t.game.as_str(),
        "--side",
        side,
        "--order",
        "Orders",
    ];
    all.extend_from_slice(assignments);
    let out = crate::cli::umpire(&all);
    if out.success {
        Ok(out.stdout)
    } else {
        Err(out.stderr)
    }
}

/// "Venice at bay, 1509", turn 4 (an AP turn: every Order removed, 5.3.4), at "d. Issue or
/// re-issue Orders": the French hand in.
#[test]
fn sealed_orders_are_refused_where_the_rules_do_not_allow_them() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "orders-allowed");
    t.walk_to(4, "d. Issue or re-issue Orders");
    // A Force left without an Order: named, nothing kept.
    let why = seal(&t, "french", &["Chaumont.Order=Manoeuvre"]).expect_err("Forces left out");
    assert!(
        why.contains("nothing given for") && why.contains("Louis XII (Order)"),
        "{why}"
    );
    // A Garrison where the map knows no Town, City or Fortress (Louis XII's Force at 2728).
    let why = seal(
        &t,
        "french",
        &[
            "Chaumont.Order=Manoeuvre",
            "Roquebertin.Order=Manoeuvre",
            "Louis XII.Order=Garrison",
        ],
    )
    .expect_err("no town at 2728");
    assert!(
        why.contains("Louis XII: Garrison is not allowed")
            && why.contains("hex 2728")
            && why.contains("must be located in a Town, City or Fortress hex. (5.3)"),
        "{why}"
    );
    // Half of Roquebertin's Combat Units Demoralised: no Attack (5.3).
    let status = t.status();
    let units: Vec<String> = status["counters"]
        .as_array()
        .expect("counters")
        .iter()
        .filter(|c| {
            c["force"]
                == status["counters"]
                    .as_array()
                    .expect("counters")
                    .iter()
                    .find(|x| x["name"] == "Roquebertin")
                    .expect("Roquebertin")["force"]
                && c["kind"] == "unit"
                && c["position"].get("hex").is_some()
        })
        .map(|c| c["id"].as_str().expect("id").to_string())
        .collect();
    assert!(!units.is_empty(), "Roquebertin's Force has units");
    for id in units.iter().take(units.len().div_ceil(2)) {
        t.run("mark", &[id, "demoralised"]);
    }
    let why = seal(
        &t,
        "french",
        &[
            "Chaumont.Order=Manoeuvre",
            "Roquebertin.Order=Attack",
            "Louis XII.Order=Stand",
        ],
    )
    .expect_err("half Demoralised");
    assert!(
        why.contains("Roquebertin: Attack is not allowed")
            && why.contains("Combat Units are Demoralised"),
        "{why}"
    );
    // What the rules allow is kept.
    seal(
        &t,
        "french",
        &[
            "Chaumont.Order=Manoeuvre",
            "Roquebertin.Order=Manoeuvre",
            "Louis XII.Order=Stand",
        ],
    )
    .expect("allowed");
    // The form says so before anything is handed in: the refused choice carries its reason.
    let form = crate::cli::umpire(&["game", "orders", "show", &t.game, "--side", "french"]);
    assert!(form.success, "{}", form.show());
    assert!(
        form.stdout.contains("[not allowed: ")
            && form.stdout.contains("Combat Units are Demoralised")
            && form
                .stdout
                .contains("Order (must be given: it holds none now)"),
        "{}",
        form.stdout
    );
}
