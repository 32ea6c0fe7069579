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

/// Puts a TEST counter of the Habsburgs' Austria on the table in the organiser's way (`game
/// add`; the Gazetteer is not in the handbook): an `area` owned by Austria, or an `army` of
/// Austria, with the other values `sets` gives.
fn austrian(t: &Table, name: &str, kind: &str, at: &str, sets: &[&str]) {
    let state = if kind == "area" {
        "owner=austria"
    } else {
        "country=austria"
    };
    let mut args = vec![
        name,
        "--side",
        "habsburgs",
        "--at",
        at,
        "--type",
        kind,
        "--set",
        state,
    ];
    for set in sets {
        args.extend(["--set", set]);
    }
    t.run("add", &args);
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
    // The map prints a Town there (the umpire reads it off the map, as for a Garrison in an
    // invented hex of this test): recorded by its hex, the Garrison is allowed.
    t.run(
        "place-kind",
        &[
            "2728",
            "town",
            "--reason",
            "TEST: the map prints a Town at 2728",
        ],
    );
    let form = crate::cli::umpire(&["game", "orders", "show", &t.game, "--side", "french"]);
    assert!(
        form.success && !form.stdout.contains("Garrison [not allowed"),
        "{}",
        form.show()
    );
    t.run("undo", &[]);
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

/// "The last triumph of the Swiss", Special Rule 2 (L2034): "The Swiss Force in Novara (2611)
/// may not change its Order for the first two turns." A hand change of its Order is refused
/// with the rule, and on the written form every Order but the one it holds (Garrison) is not
/// allowed; at turn 3 the Attack Order the rule gives it is recorded.
#[test]
fn the_swiss_force_in_novara_keeps_its_order_for_the_first_two_turns() {
    let t = Table::new("ailsh_2_last_triumph_of_the_swiss_1513", "orders-kept");
    let why = t.refused("set", &["Mutt", "order", "attack"]);
    assert!(
        why.contains("keeps its Order through turn 2")
            && why.contains("may not change its Order for the first two turns")
            && why.contains("2) Swiss Activation Limitation"),
        "{why}"
    );
    assert!(!why.contains("L2034"), "no line numbers in words: {why}");
    // Another Swiss Force's Order changes as usual.
    t.run("set", &["Hohensax", "order", "attack"]);
    // The written form (S2 issues none: its Orders change by hand) holds it the same.
    let game = umpire::game::Game::open(
        std::path::Path::new(&t.game),
        &umpire::rules::Library::shipped(),
    )
    .expect("open");
    let form = game.order_form("orders", "swiss").expect("form");
    let novara = form
        .entries
        .iter()
        .find(|e| e.id == "sw-novara")
        .expect("the Swiss Force in Novara");
    let umpire::game::orders::FormInput::Choose { choices, .. } = &novara.fields[0].input else {
        panic!("an Order is chosen");
    };
    for c in choices {
        assert_eq!(
            c.refused.is_none(),
            c.id == "garrison",
            "{}: {:?}",
            c.label,
            c.refused
        );
    }
    assert!(
        choices
            .iter()
            .filter_map(|c| c.refused.as_deref())
            .all(|r| r.starts_with(
                "kept through turn 2: The Swiss Force in Novara (2611) may not change"
            )),
        "{choices:?}"
    );
    drop(game);
    // Turn 3: the rule's own Attack Order, and the Force's Order is the umpire's again.
    t.walk_to(3, "A) Weather Phase");
    t.run("set", &["Mutt", "role", "primo_capitano"]);
    t.run("set", &["Mutt", "order", "attack"]);
}

/// rr3's Intention Card names the areas an army moves through (The Campaign System ›
/// Movement, L596). The handbook game prints no area: the organiser puts the Gazetteer's areas
/// on the table with `game add`, and from then on an area the game does not know is refused
/// (with the one it most likely means); while it knows none, the form says the names are
/// taken as written for Map Control to check.
#[test]
fn an_intention_card_names_areas_the_game_knows() {
    let t = Table::new("rr3_handbook_1524", "orders-areas");
    let intention = |areas: &str| {
        crate::cli::umpire(&[
            "game",
            "orders",
            "seal",
            &t.game,
            "--side",
            "habsburgs",
            "--order",
            "Intention Card",
            "Ferdinand's army.Move=Move 1 area",
            &format!("Ferdinand's army.Area(s) to be moved through={areas}"),
        ])
    };
    // TEST areas and army, in the organiser's way (the Gazetteer is not in the handbook).
    austrian(
        &t,
        "Ferdinand's army",
        "army",
        "Vienna (TEST)",
        &["map_table=the_east", "strength_thousands=10"],
    );
    t.walk_to(1, "First movement step");
    let form = crate::cli::umpire(&["game", "orders", "show", &t.game, "--side", "habsburgs"]);
    assert!(form.success, "{}", form.show());
    // Where a piece stands is not the map's list of areas: no area counter yet.
    assert!(
        form.stdout.contains("knows no area of the map"),
        "{}",
        form.stdout
    );
    for area in ["Upper Austria (TEST)", "Styria (TEST)"] {
        austrian(&t, area, "area", area, &["map_table=the_east"]);
    }
    let refused = intention("Uper Austria (TEST)");
    assert!(!refused.success, "{}", refused.show());
    assert!(
        refused
            .stderr
            .contains("'Uper Austria (TEST)' is not an area of the map")
            && refused
                .stderr
                .contains("did you mean Upper Austria (TEST)?"),
        "{}",
        refused.stderr
    );
    let sealed = intention("Upper Austria (TEST)");
    assert!(sealed.success, "{}", sealed.show());
}

/// With no area on the table at all, names cannot be checked: the form says so.
#[test]
fn an_intention_card_says_when_no_area_is_known() {
    let t = Table::new("rr3_handbook_1524", "orders-no-areas");
    austrian(&t, "Ferdinand's army", "army", "off map: mustering", &[]);
    t.walk_to(1, "First movement step");
    let form = crate::cli::umpire(&["game", "orders", "show", &t.game, "--side", "habsburgs"]);
    assert!(form.success, "{}", form.show());
    assert!(
        form.stdout
            .contains("The game knows no area of the map by name yet"),
        "{}",
        form.stdout
    );
}

/// rr3, The Campaign System › Movement (L596–608): a revealed Intention Card reaches the
/// table. Each army's card is an item Map Control carries out as one entry — the army to the
/// last area it names, the areas counted, its Fatigue by its option off the movement table
/// (+1 for two areas, −1 when it stays) — and Next waits for it; another team sees the card
/// only once carried out. A card that names more areas than its option moves, or none for a
/// move, is refused at the hand-in.
#[test]
fn a_revealed_intention_card_is_carried_out_on_the_table() {
    let t = Table::new("rr3_handbook_1524", "orders-carried-out");
    for area in ["Vienna (TEST)", "Upper Austria (TEST)", "Styria (TEST)"] {
        austrian(&t, area, "area", area, &[]);
    }
    for (army, at, fatigue) in [
        ("Ferdinand's army", "Vienna (TEST)", "0"),
        ("Frundsberg's army", "Styria (TEST)", "2"),
    ] {
        austrian(
            &t,
            army,
            "army",
            at,
            &["map_table=the_east", &format!("fatigue={fatigue}")],
        );
    }
    t.walk_to(1, "First movement step");
    let card = |assignments: &[&str]| {
        let mut all = vec![
            "game",
            "orders",
            "seal",
            t.game.as_str(),
            "--side",
            "habsburgs",
            "--order",
            "Intention Card",
        ];
        all.extend_from_slice(assignments);
        crate::cli::umpire(&all)
    };
    let too_far = card(&[
        "Ferdinand's army.Move=Move 1 area",
        "Ferdinand's army.Area(s) to be moved through=Upper Austria (TEST), Styria (TEST)",
    ]);
    assert!(
        !too_far.success
            && too_far
                .stderr
                .contains("Move 1 area moves 1 area, and the card names 2"),
        "{}",
        too_far.show()
    );
    let nowhere = card(&["Ferdinand's army.Move=Move 1 area"]);
    assert!(
        !nowhere.success && nowhere.stderr.contains("names no area"),
        "{}",
        nowhere.show()
    );
    let sealed = card(&[
        "Ferdinand's army.Move=Move 2 areas but gain 1 Fatigue marker",
        "Ferdinand's army.Area(s) to be moved through=Upper Austria (TEST), Styria (TEST)",
        "Frundsberg's army.Move=Remain stationary and remove 1 Fatigue marker",
    ]);
    assert!(sealed.success, "{}", sealed.show());
    let revealed = crate::cli::umpire(&["game", "orders", "reveal", &t.game]);
    assert!(revealed.success, "{}", revealed.show());
    let items = t.items();
    let ferdinand = items
        .iter()
        .find(|(_, _, label, _)| label.starts_with("Ferdinand's army — its Intention Card"))
        .unwrap_or_else(|| panic!("no card item: {items:?}"));
    assert!(
        ferdinand.2.contains(
            "Move 2 areas but gain 1 Fatigue marker, through Upper Austria (TEST), Styria (TEST)"
        ),
        "{ferdinand:?}"
    );
    // Next waits for the cards.
    let held = t.attempt("next", &[]);
    assert!(!held.success, "{}", held.show());
    // The Habsburgs see their card; the French do not before it is carried out.
    let side = |s: &str| t.run("status", &["--side", s]);
    assert!(side("habsburgs").contains("Ferdinand's army — its Intention Card"));
    assert!(
        !side("france").contains("Intention Card:"),
        "{}",
        side("france")
    );
    let out = t.run("credit", &[&ferdinand.0.to_string()]);
    assert!(
        out.contains("Ferdinand's army moved from Vienna (TEST) to Styria (TEST)")
            && out.contains("Fatigue boxes marked 0 → 1")
            && out.contains("Areas moved this step 2"),
        "{out}"
    );
    let stays = t
        .items()
        .into_iter()
        .find(|(_, _, label, _)| label.starts_with("Frundsberg's army — its Intention Card"))
        .expect("Frundsberg's card");
    let out = t.run("credit", &[&stays.0.to_string()]);
    assert!(
        out.contains("Fatigue boxes marked 2 → 1") && !out.contains("moved from"),
        "{out}"
    );
    assert!(side("france").contains("Ferdinand's army — its Intention Card"));
    assert_eq!(t.attribute("Ferdinand's army", "fatigue"), 1);
    assert_eq!(t.attribute("Frundsberg's army", "fatigue"), 1);
    let status = t.status();
    let at = status["counters"]
        .as_array()
        .expect("counters")
        .iter()
        .find(|c| c["name"] == "Ferdinand's army")
        .expect("army")["position"]
        .clone();
    assert_eq!(at["area"], "Styria (TEST)", "{at}");
    t.run("next", &[]);
    let verified = t.run("verify", &[]);
    assert!(verified.contains("verified:"), "{verified}");
}
