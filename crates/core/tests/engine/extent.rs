//! A move off the map is refused (issue 28, item 7): a hex outside the map's numbering, or x, y
//! outside a free-form table, where the ruleset gives the map's extent; x, y on a hex map, or an
//! area on one, always. Without an extent (every shipped ruleset: none of their texts gives
//! the map's size) any hex id of the map's digits is accepted, as the data says nothing more.

use umpire_core::game::check::position;
use umpire_core::game::scenario::Position;
use umpire_core::game::{Action, Actor, Game, Refusal};
use umpire_core::rules::{Library, RulesetFiles, SourceFile, shipped_sources};

/// A shipped ruleset's files with `extent` added to its `geometry:` section.
fn with_extent(id: &str, after: &str, extent: &str) -> RulesetFiles {
    let mut files = shipped_sources()
        .into_iter()
        .find(|f| f.ruleset.text.contains(&format!("\nid: {id}")))
        .expect("shipped");
    assert!(files.ruleset.text.contains(after), "{after}");
    files.ruleset.text =
        files
            .ruleset
            .text
            .replacen(after, &format!("{after}  extent: {extent}\n"), 1);
    files
}

fn loaded(files: RulesetFiles, id: &str) -> Library {
    let lib = Library::load(&[files]);
    assert!(lib.get(id).is_some(), "{:?}", lib.errors(id));
    lib
}

/// An ailsh game whose map runs 0101–5160 (holding every place the text names).
fn ailsh_game(tag: &str) -> Game {
    let lib = loaded(
        with_extent(
            "ailsh",
            "  hex_id_digits: 4\n",
            "{first: \"0101\", last: \"5160\"}",
        ),
        "ailsh",
    );
    let path = crate::root().join("scenarios/ailsh/s1_venice_at_bay_1509.yaml");
    let source = SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("scenario"),
    };
    let dir = std::env::temp_dir().join(format!("umpire-extent-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch");
    Game::create(&dir.join("g.umpire"), &source, &lib, Some(2)).expect("create")
}

#[test]
fn a_move_off_the_hex_map_is_refused_naming_its_extent() {
    let mut game = ailsh_game("hex");
    let unit = game
        .state()
        .counters
        .values()
        .find(|c| matches!(c.position, Position::Hex(_)))
        .map(|c| c.id.clone())
        .expect("a counter on the map");
    let moved = |to: Position, game: &mut Game| {
        game.act(
            &Actor::umpire(),
            Action::Move {
                counter: unit.as_str().into(),
                to,
            },
        )
    };
    let err = moved(Position::Hex("9999".into()), &mut game).expect_err("off the map");
    assert!(matches!(
        err,
        umpire_core::game::GameError::Refused(Refusal::OffTheMap { .. })
    ));
    let text = err.to_string();
    assert!(
        text.contains("9999") && text.contains("0101") && text.contains("5160"),
        "{text}"
    );
    let err = moved(Position::Free { x: 1e9, y: 1e9 }, &mut game).expect_err("x, y on a hex map");
    assert!(err.to_string().contains("its places are hexes"), "{err}");
    moved(Position::Hex("2611".into()), &mut game).expect("on the map");
}

#[test]
fn without_an_extent_any_hex_of_the_maps_digits_is_accepted_but_never_x_y() {
    let lib = Library::shipped();
    let ailsh = lib.get("ailsh").expect("ailsh");
    assert!(ailsh.geometry.as_ref().is_some_and(|g| g.extent.is_none()));
    position(ailsh, &Position::Hex("9999".into())).expect("no extent given: accepted");
    let err = position(ailsh, &Position::Free { x: 1e9, y: 1e9 }).expect_err("not a hex");
    assert!(
        err.to_string().contains("not a place on this game's map"),
        "{err}"
    );
    let err = position(ailsh, &Position::Area("Milano".into())).expect_err("not a hex");
    assert!(err.to_string().contains("give a hex id"), "{err}");
}

#[test]
fn a_point_off_a_free_form_table_is_refused_naming_its_extent() {
    let lib = loaded(
        with_extent("qrs", "  distance_unit: BU\n", "{x: [0, 72], y: [0, 48]}"),
        "qrs",
    );
    let qrs = lib.get("qrs").expect("qrs");
    let err = position(qrs, &Position::Free { x: 1e9, y: 1e9 }).expect_err("off the table");
    let text = err.to_string();
    assert!(
        text.contains("off the map") && text.contains("x 0 to 72") && text.contains("BU"),
        "{text}"
    );
    position(qrs, &Position::Free { x: 12.5, y: 3.0 }).expect("on the table");
    position(qrs, &Position::OffMap("reserve".into())).expect("off-map boxes anywhere");
}

/// The extent is checked where it is written: the gazetteer's places must lie inside it, and
/// its hexes must be the map's; an area map has none.
#[test]
fn an_extent_that_does_not_hold_the_places_is_refused_with_its_line() {
    let lib = Library::load(&[with_extent(
        "ailsh",
        "  hex_id_digits: 4\n",
        "{first: \"0101\", last: \"2218\"}",
    )]);
    let errors = lib
        .errors("ailsh")
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        errors.contains("is off the map") && errors.contains("ruleset.yaml:"),
        "{errors}"
    );
    let lib = Library::load(&[with_extent(
        "ailsh",
        "  hex_id_digits: 4\n",
        "{x: [0, 1], y: [0, 1]}",
    )]);
    let errors = lib
        .errors("ailsh")
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(errors.contains("first and last hex"), "{errors}");
}
