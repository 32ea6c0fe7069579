//! The values printed on the counters, given at the desk's set-up (issue 45, item 2): File ›
//! Counter values… lists each name the counters print with the values the text leaves open,
//! and gives them to every counter of the name as one entry. "Venice at bay": the Troop
//! Quality is printed on the counters (1.3.3, L154 of seeds/000_73d28750ad550589.txt); the
//! value typed is the one the Assault test gives (facts.rs).

use crate::kit;
use kit::{click, desk_at, labels_containing};

use egui_kittest::kittest::{NodeT as _, Queryable as _};

use umpire::app::{COUNTER_VALUES_GIVE_LABEL, Command, UiCommand, open_groups};
use umpire::game::EventKind;
use umpire::rules::Value;

use crate::facts::Table;

#[test]
fn the_desk_gives_a_printed_value_to_every_counter_of_the_name_in_one_entry() {
    let table = Table::new("ailsh_1_venice_at_bay_1509", "desk-values");
    let mut harness = desk_at(&table.game);
    harness
        .state_mut()
        .shell
        .queue
        .push(Command::Ui(UiCommand::CounterValues));
    harness.run();
    harness.run();
    // A row for each printed name, with the values still unknown.
    let heading = labels_containing(&harness, "French Gendarmes (");
    assert!(
        heading.iter().any(|l| l.ends_with(" counters)")),
        "{heading:?}"
    );
    assert!(
        !labels_containing(&harness, "Troop Quality").is_empty(),
        "the Troop Quality field"
    );
    let give = format!("{COUNTER_VALUES_GIVE_LABEL} French Gendarmes");
    assert!(
        harness.get_by_label(&give).accesskit_node().is_disabled(),
        "Give is off until a value is typed"
    );
    let events = |h: &egui_kittest::Harness<'static, umpire::app::DeskApp>| {
        h.state().game.as_ref().expect("game").game().events().len()
    };
    let before = events(&harness);
    harness
        .state_mut()
        .game
        .as_mut()
        .expect("game")
        .values
        .type_value("French Gendarmes", false, "troop_quality", "3");
    harness.run();
    click(&mut harness, &give);
    harness.run();
    let desk = harness.state().game.as_ref().expect("game");
    let game = desk.game();
    assert_eq!(
        events(&harness),
        before + 1,
        "one entry for every counter alike"
    );
    let last = game.events().last().expect("an entry");
    match &last.kind {
        EventKind::Changed {
            changes, reason, ..
        } => {
            assert!(changes.len() >= 5, "{changes:?}");
            assert_eq!(
                reason.as_deref(),
                Some("the values printed on the counters")
            );
        }
        other => panic!("not a change: {other:?}"),
    }
    let gendarmes: Vec<_> = game
        .state()
        .counters
        .values()
        .filter(|c| c.name.starts_with("French Gendarmes"))
        .collect();
    assert!(gendarmes.len() >= 5);
    for c in &gendarmes {
        assert_eq!(
            c.attributes.get("troop_quality"),
            Some(&Value::Int(3)),
            "{}",
            c.name
        );
        assert!(!c.unknown.contains(&"troop_quality".to_string()));
    }
    // The row no longer asks for it; the other names still do.
    let groups = open_groups(&desk.live);
    let row = groups
        .iter()
        .find(|g| g.name == "French Gendarmes")
        .expect("French Gendarmes still miss other values");
    assert!(
        !row.missing.contains(&"troop_quality".to_string()),
        "{row:?}"
    );
    assert!(
        groups.iter().any(|g| g.name == "Stradiots Light Cavalry"
            && g.missing.contains(&"troop_quality".to_string())),
        "{groups:?}"
    );
}
