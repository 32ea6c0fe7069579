//! Facts that decide the winner held to the journal (issue 45), played through the command
//! line: a place answers to every name the texts give it, a place's kind the text leaves open
//! is given, a City's Victory Points die is rolled once and only by its owner, the umpire's
//! judgement of what the counters cannot show is recorded, a raising die needs its condition,
//! and a place held by an un-besieged enemy Force is not occupied. ailsh:
//! seeds/000_73d28750ad550589.txt.

use crate::facts::{Table, entry_of};

/// The headline `game status` gives ("If the game ended now: …").
fn headline(t: &Table) -> String {
    let out = t.run("status", &[]);
    out.lines()
        .find(|l| l.starts_with("If the game ended now") || l.starts_with("The game is over"))
        .unwrap_or_default()
        .to_string()
}

/// Scenario 4 (L2354): "Each side wins at end of any turn, if every of the following
/// cities/towns: … Trezzo d'Adda (3032) is owned by that side and not besieged." The Imperial
/// side takes back the French-held Cremona, Soncino and Trezzo — the last named as the victory
/// text names it — and owns all ten: the condition holds.
#[test]
fn a_place_answers_to_every_name_the_texts_give_it() {
    let t = Table::new("ailsh_4_french_lose_the_duchy_1522", "alias");
    let trezzo = t.run(
        "control",
        &[
            "Trezzo d'Adda",
            "--side",
            "Imperial",
            "--reason",
            "re-entered",
        ],
    );
    assert!(trezzo.contains("Trezzo: owned by the Imperial"), "{trezzo}");
    for place in ["Cremona", "Soncino"] {
        t.run("control", &[place, "--side", "Imperial"]);
    }
    let status = t.status();
    let line = status["victory"]["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .find(|l| l["item"] == "sudden_death" && l["side"] == "imperial")
        .expect("the Imperial line")
        .clone();
    assert_eq!(line["truth"], "yes", "{line}");
    assert!(
        headline(&t).contains("The Imperial side wins"),
        "{}",
        headline(&t)
    );
}

/// Scenario 4 (L2355): "for each owned and not besieged City, a die is rolled". The text does not
/// say which of the ten are Cities: a place's kind is given by the umpire (an entry); the die is
/// refused for a place whose kind is not known, for the side that does not own it, and a second
/// time; it is rolled once by the owner.
#[test]
fn a_citys_victory_points_die_is_rolled_once_and_by_its_owner() {
    let t = Table::new("ailsh_4_french_lose_the_duchy_1522", "city");
    let roll = |side: &str, city: &str| {
        t.attempt(
            "resolve",
            &[
                "city_victory_points",
                "-i",
                &format!("side={side}"),
                "-i",
                &format!("city={city}"),
                "--roll",
                "5",
            ],
        )
    };
    let unknown = roll("imperial", "novara");
    assert!(
        !unknown.success && unknown.stderr.contains("Town or a City"),
        "{}",
        unknown.show()
    );
    let kind = t.run(
        "place-kind",
        &["Novara", "city", "--reason", "the map draws it walled"],
    );
    assert!(kind.contains("Novara is a City"), "{kind}");
    // The text's own kind stays: Cremona is "the city of Cremona" (L112).
    let kept = t.refused("place-kind", &["Cremona", "town", "--reason", "a guess"]);
    assert!(kept.contains("stays one"), "{kept}");
    let not_owner = roll("french_coalition", "novara");
    assert!(
        !not_owner.success && not_owner.stderr.contains("owned by the Imperial"),
        "{}",
        not_owner.show()
    );
    let once = roll("imperial", "novara");
    assert!(once.success, "{}", once.show());
    let entry = entry_of(&once.stdout);
    let twice = roll("imperial", "novara");
    assert!(
        !twice.success && twice.stderr.contains(&format!("rolled in entry {entry}")),
        "{}",
        twice.show()
    );
    // Cremona is French-held at the start (L2536): the French roll its die.
    assert!(roll("french_coalition", "cremona").success);
}

/// Scenario 1 (L1761): the Venetian Standard Victory reads what the counters cannot show ("no
/// French Force occupies a Fortress east of the Adda river and north of the Po river"): the
/// umpire's judgement is recorded with its reason, and the end then gives the Venetian win.
#[test]
fn the_umpires_judgement_of_a_condition_is_recorded_and_decides() {
    let t = Table::new("ailsh_1_venice_at_bay_1509", "judge");
    assert!(headline(&t).contains("not decided"), "{}", headline(&t));
    let judged = t.run(
        "judge",
        &[
            "Venetian Standard Victory",
            "--holds",
            "--reason",
            "no French Force stands east of the Adda",
        ],
    );
    assert!(
        judged.contains("the umpire judges that it holds"),
        "{judged}"
    );
    assert!(
        headline(&t).contains("The Venetian side wins a Standard Victory"),
        "{}",
        headline(&t)
    );
    let refused = t.refused(
        "judge",
        &["French Standard Victory", "--holds", "--reason", "x"],
    );
    assert!(
        refused.contains("not a victory condition the umpire judges"),
        "{refused}"
    );
    let ended = t.run("end", &["--reason", "time is up at the club"]);
    assert!(
        ended.contains("The Venetian side wins a Standard Victory"),
        "{ended}"
    );
    assert!(t.run("verify", &[]).contains("verified:"));
}

/// Scenario 5, special rule 3 (L2724): the Duke of Albany's die raises the result only if the
/// French committed the Expeditionary Force — refused until the umpire judges it was sent.
#[test]
fn the_albany_die_needs_the_expedition_sent() {
    let t = Table::new("ailsh_5_struggle_for_the_duchy_1524", "albany");
    let die = ["albany_victory_die", "-i", "level=draw", "--roll", "6"];
    let refused = t.refused("resolve", &die);
    assert!(
        refused.contains("Expedition of the Duke of Albany"),
        "{refused}"
    );
    t.run(
        "judge",
        &[
            "3) Expedition of the Duke of Albany",
            "--fails",
            "--reason",
            "no Force exited at 0252",
        ],
    );
    let refused = t.refused("resolve", &die);
    assert!(refused.contains("judged it does not"), "{refused}");
    t.run("undo", &[]);
    t.run(
        "judge",
        &[
            "3) Expedition of the Duke of Albany",
            "--holds",
            "--reason",
            "Albany's Force exited at 0252 on December, 2",
        ],
    );
    let rolled = t.run("resolve", &die);
    assert!(
        rolled.contains("the level of victory increases"),
        "{rolled}"
    );
}

/// 14.2 (L1360): a place holding an enemy Force is not taken by standing in it. Scenario 2's
/// "French side wins if it occupies Novara": a French Force put in Novara's hex beside the Swiss
/// garrison does not occupy it; once the garrison is Besieged, it does.
#[test]
fn a_place_held_by_an_unbesieged_enemy_is_not_occupied() {
    let t = Table::new("ailsh_2_last_triumph_of_the_swiss_1513", "occupy");
    t.run("move", &["Tremouille's Force", "2611"]);
    let line = |t: &Table| {
        t.status()["victory"]["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .find(|l| l["item"] == "french_novara")
            .expect("the French line")
            .clone()
    };
    assert_eq!(line(&t)["truth"], "no", "{}", line(&t));
    let status = t.status();
    let swiss: Vec<String> = status["counters"]
        .as_array()
        .expect("counters")
        .iter()
        .filter(|c| c["side"] == "swiss" && c["kind"] == "unit" && c["position"]["hex"] == "2611")
        .map(|c| c["name"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(!swiss.is_empty(), "the Swiss garrison of Novara");
    for name in &swiss {
        t.run("mark", &[name, "besieged"]);
    }
    assert_eq!(line(&t)["truth"], "yes", "{}", line(&t));
}
