//! Starting data entered once (issue 27, item 3): the organiser's sheets (CSV files saved from
//! a spreadsheet) merged into a scenario with `umpire scenario import-setup`, the template
//! written by `umpire scenario setup-template`, and the result printed as the cast and Control
//! roster. The areas, cities, armies, fleets and every number in `tests/fixtures/setup/` are
//! fictional TEST data (marked "TEST"), not the handbook's.

use std::path::{Path, PathBuf};
use std::process::Command;

use umpire::game::scenario::load_scenario;
use umpire::rules::{Library, SourceFile, Value};

fn umpire(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .env_remove("UMPIRE_RULES")
        .env_remove("UMPIRE_AS")
        .arg("--no-user-rules")
        .args(args)
        .output()
        .expect("run umpire");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[track_caller]
fn ok(args: &[&str]) -> String {
    let (ok, out) = umpire(args);
    assert!(ok, "umpire {}: {out}", args.join(" "));
    out
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/setup")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("setup", name)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

fn pdf_text(pdf: &Path) -> String {
    let out = crate::common::tool::command("pdftotext")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs");
    assert!(out.status.success(), "pdftotext: {out:?}");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn loaded(file: &Path) -> umpire::game::scenario::Scenario {
    let text = std::fs::read_to_string(file).expect("written");
    let source = SourceFile {
        name: path(file).to_string(),
        text,
    };
    load_scenario(&source, &Library::shipped()).expect("the imported scenario loads")
}

fn attr<'s>(s: &'s umpire::game::scenario::Scenario, id: &str, name: &str) -> Option<&'s Value> {
    s.counter(id).and_then(|c| c.attributes.get(name))
}

#[test]
fn a_briefing_pack_imported_from_sheets_loads_and_prints_the_cast_and_roster() {
    let dir = scratch("good");
    let out = dir.join("my_rr3.yaml");
    let said = ok(&[
        "scenario",
        "import-setup",
        path(&fixture("good")),
        "--scenario",
        "rr3_handbook_1524",
        "-o",
        path(&out),
    ]);
    assert!(
        said.contains("armies.csv 2") && said.contains("it loads"),
        "{said}"
    );
    ok(&["scenario", "check", path(&out)]);
    let s = loaded(&out);
    // The ledgers: states.csv and cards.csv (by the state's id or its name), no longer unknown.
    let england = s.counter("state-england").expect("England's ledger");
    assert_eq!(england.attributes.get("treasury"), Some(&Value::Int(12)));
    assert_eq!(
        england.attributes.get("subsidy_cards"),
        Some(&Value::Int(2))
    );
    assert!(
        !england.unknown.contains(&"treasury".to_string()),
        "{:?}",
        england.unknown
    );
    assert_eq!(
        attr(&s, "state-france", "persuasion_cards"),
        Some(&Value::Int(4))
    );
    // Untouched states keep their unknowns.
    let spain = s.counter("state-habsburg_spain").expect("ledger");
    assert!(spain.unknown.contains(&"treasury".to_string()));
    // A new, non-played state.
    let mega = s.megagame.as_ref().expect("megagame");
    let ottoman = mega
        .states
        .iter()
        .find(|st| st.id == "ottoman_empire")
        .expect("added");
    assert!(!ottoman.played);
    // The pieces: kind, state, area, values; a city's owner from its area.
    assert_eq!(
        attr(&s, "english-army", "unit_kind"),
        Some(&Value::Text("army".into()))
    );
    assert_eq!(
        attr(&s, "english-army", "country"),
        Some(&Value::Text("england".into()))
    );
    assert_eq!(
        attr(&s, "english-army", "strength_thousands"),
        Some(&Value::Int(8))
    );
    assert_eq!(
        attr(&s, "dover", "owner"),
        Some(&Value::Text("england".into()))
    );
    assert_eq!(attr(&s, "dover", "fortification"), Some(&Value::Int(3)));
    assert_eq!(
        attr(&s, "ile-de-france", "map_table"),
        Some(&Value::Text("the_west".into()))
    );
    let fleet = s.counter("english-fleet").expect("fleet");
    assert_eq!(
        fleet.side, "england",
        "a sea area's side, the fleet's state's team"
    );
    assert_eq!(
        fleet.position,
        umpire::game::scenario::Position::Area("The Channel (TEST sea)".into())
    );
    // The characters: attributes and the person playing.
    assert_eq!(attr(&s, "henry-viii", "age"), Some(&Value::Int(33)));
    assert!(s.organiser_setup.is_none(), "the set-up is given now");
    // The cast and the Control roster print from it.
    let pdf = dir.join("handout.pdf");
    ok(&["sheet", path(&out), "-o", path(&pdf)]);
    let text = pdf_text(&pdf);
    for expected in [
        "Cast",
        "players: Anna Test (Henry VIII)",
        "Bruno Test (His Most Christian Majesty Francis I)",
        "Control",
        "Map Control (The East)",
        "English army (TEST) 8",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in {text}");
    }
    // And a game starts from it, the team's statement showing its ledger.
    let game = dir.join("game.umpire");
    ok(&["game", "new", path(&out), "-o", path(&game), "--seed", "1"]);
    let statement = dir.join("england.pdf");
    ok(&[
        "megagame",
        "statement",
        path(&game),
        "--team",
        "england",
        "-o",
        path(&statement),
    ]);
    let text = pdf_text(&statement);
    assert!(text.contains("Subsidy cards left 2"), "{text}");
    assert!(text.contains("English army (TEST)"), "{text}");
}

/// The good sheets as a European LibreOffice writes them: a byte-order mark, `;` separators,
/// every field quoted, blank `;;;` rows at the end.
fn semicolon_copy(dir: &Path) {
    for entry in std::fs::read_dir(fixture("good")).expect("fixtures") {
        let p = entry.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("read");
        let mut rows: Vec<String> = Vec::new();
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes());
        let mut width = 0;
        for r in reader.records() {
            let r = r.expect("record");
            width = r.len();
            let cells: Vec<String> = r
                .iter()
                .map(|c| format!("\"{}\"", c.replace('"', "\"\"")))
                .collect();
            rows.push(cells.join(";"));
        }
        rows.push(";".repeat(width - 1));
        rows.push(";".repeat(width - 1));
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(rows.join("\r\n").into_bytes());
        bytes.extend(b"\r\n");
        std::fs::write(dir.join(p.file_name().expect("name")), bytes).expect("write");
    }
    // A note with the separator and a quote in it.
    let armies = dir.join("armies.csv");
    let text = std::fs::read_to_string(&armies).expect("read");
    let text = text
        .replacen("\"fatigue\"", "\"fatigue\";\"note\"", 1)
        .replacen(
            "\"0\";\"0\"\r\n",
            "\"0\";\"0\";\"Mustered in Kent; \"\"TEST\"\" note\"\r\n",
            1,
        );
    std::fs::write(&armies, text).expect("write");
}

#[test]
fn a_spreadsheet_saved_with_a_bom_semicolons_quotes_and_blank_rows_imports_the_same() {
    let dir = scratch("semicolon");
    let sheets = dir.join("sheets");
    std::fs::create_dir_all(&sheets).expect("dir");
    semicolon_copy(&sheets);
    let raw = std::fs::read(sheets.join("states.csv")).expect("written");
    assert!(
        raw.starts_with(b"\xEF\xBB\xBF\"id\";\"name\""),
        "{:?}",
        &raw[..20]
    );
    let out = dir.join("semi.yaml");
    ok(&[
        "scenario",
        "import-setup",
        path(&sheets),
        "--scenario",
        "rr3_handbook_1524",
        "-o",
        path(&out),
    ]);
    let plain = dir.join("plain.yaml");
    ok(&[
        "scenario",
        "import-setup",
        path(&fixture("good")),
        "--scenario",
        "rr3_handbook_1524",
        "-o",
        path(&plain),
    ]);
    let (semi, plain) = (loaded(&out), loaded(&plain));
    let note = semi
        .counter_notes
        .iter()
        .find(|n| n.counter == "english-army")
        .expect("the note kept");
    assert_eq!(note.text, "Mustered in Kent; \"TEST\" note");
    let ids = |s: &umpire::game::scenario::Scenario| {
        s.counters
            .iter()
            .map(|c| (c.id.clone(), c.attributes.clone(), c.position.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&semi), ids(&plain), "the same set-up either way");
}

#[test]
fn every_problem_is_named_by_file_line_and_column_and_nothing_is_written() {
    let dir = scratch("bad");
    let out = dir.join("bad.yaml");
    let (ok, said) = umpire(&[
        "scenario",
        "import-setup",
        path(&fixture("bad")),
        "--scenario",
        "rr3_handbook_1524",
        "-o",
        path(&out),
    ]);
    assert!(!ok, "{said}");
    assert!(!out.exists(), "nothing written on error");
    for expected in [
        "5 problems",
        "cities.csv, line 1, column \"area\": is missing",
        "armies.csv, line 3, column \"strength_thousands\": 'twelve' is not a whole number",
        "armies.csv, line 4, column \"id\": duplicate id 'english-army': already used in armies.csv line 2",
        "armies.csv, line 5, column \"area\": no area 'Lothian (TEST)' in areas.csv",
        // Line 7 of the file (a blank line 6 before it is counted).
        "armies.csv, line 7, column \"country\": no state 'burgundy' — states: England, France,",
    ] {
        assert!(said.contains(expected), "missing {expected:?} in {said}");
    }
    assert!(!said.contains("panicked"), "{said}");
}

#[test]
fn the_json_lists_the_problems_with_their_places() {
    let dir = scratch("json");
    let out = dir.join("bad.yaml");
    let (ok, said) = umpire(&[
        "scenario",
        "import-setup",
        path(&fixture("bad")),
        "--scenario",
        "rr3_handbook_1524",
        "-o",
        path(&out),
        "--json",
    ]);
    assert!(!ok);
    let json_end = said.rfind('}').expect("json");
    let v: serde_json::Value = serde_json::from_str(&said[..=json_end]).expect("json");
    let problems = v["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 5);
    assert!(
        problems
            .iter()
            .any(|p| p["file"] == "armies.csv" && p["line"] == 7 && p["column"] == "country")
    );
}

#[test]
fn an_existing_output_is_kept_unless_forced_and_a_stray_file_is_refused() {
    let dir = scratch("force");
    let out = dir.join("exists.yaml");
    std::fs::write(&out, "keep me").expect("write");
    let good = fixture("good");
    let args = [
        "scenario",
        "import-setup",
        path(&good),
        "--scenario",
        "rr3_handbook_1524",
        "-o",
        path(&out),
    ];
    let (ok, said) = umpire(&args);
    assert!(!ok && said.contains("already exists"), "{said}");
    assert_eq!(std::fs::read_to_string(&out).expect("kept"), "keep me");
    let mut forced = args.to_vec();
    forced.push("--force");
    self::ok(&forced);
    assert!(
        std::fs::read_to_string(&out)
            .expect("replaced")
            .contains("english-army")
    );
    // A sheet of a name the import does not know.
    let sheets = dir.join("sheets");
    std::fs::create_dir_all(&sheets).expect("dir");
    std::fs::write(
        sheets.join("army.csv"),
        "name,country,area\nX,england,kent\n",
    )
    .expect("write");
    let (ok, said) = umpire(&[
        "scenario",
        "import-setup",
        path(&sheets),
        "--scenario",
        "rr3_handbook_1524",
        "-o",
        path(&dir.join("stray.yaml")),
    ]);
    assert!(
        !ok && said.contains("army.csv: is not a sheet of"),
        "{said}"
    );
    assert!(said.contains("armies.csv"), "the sheets listed: {said}");
}

#[test]
fn the_shipped_template_is_what_setup_template_writes_and_imports_as_it_is() {
    let dir = scratch("template");
    let tpl = dir.join("tpl");
    ok(&[
        "scenario",
        "setup-template",
        "rr3_handbook_1524",
        "-o",
        path(&tpl),
    ]);
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/setup");
    let readme = std::fs::read_to_string(shipped.join("README.md")).expect("README");
    for sheet in [
        "states.csv",
        "cards.csv",
        "characters.csv",
        "areas.csv",
        "cities.csv",
        "armies.csv",
        "fleets.csv",
    ] {
        let written = std::fs::read_to_string(tpl.join(sheet)).expect(sheet);
        let ours = std::fs::read_to_string(shipped.join("rr3").join(sheet)).expect(sheet);
        assert_eq!(written, ours, "templates/setup/rr3/{sheet} is out of date");
        assert!(
            readme.contains(&format!("### {sheet}")),
            "{sheet} documented"
        );
        for column in written.lines().next().expect("header").split(',') {
            assert!(
                readme.contains(&format!("| `{column}` |")),
                "{sheet}: {column} documented"
            );
        }
    }
    // Only what the text gives: the states' teams and tables, the characters; no number.
    let states = std::fs::read_to_string(tpl.join("states.csv")).expect("states");
    assert!(
        states.contains("england,England,england,the_west,yes,,,,,"),
        "{states}"
    );
    assert!(
        !states.chars().any(|c| c.is_ascii_digit()),
        "no number invented: {states}"
    );
    let characters = std::fs::read_to_string(tpl.join("characters.csv")).expect("characters");
    assert_eq!(characters.lines().count(), 1 + 32, "the 32 roles");
    assert_eq!(
        std::fs::read_to_string(tpl.join("armies.csv"))
            .expect("armies")
            .lines()
            .count(),
        1
    );
    // Written again only with --force.
    let (again, said) = umpire(&[
        "scenario",
        "setup-template",
        "rr3_handbook_1524",
        "-o",
        path(&tpl),
    ]);
    assert!(!again && said.contains("already exist"), "{said}");
    // The template as it is imports: the scenario unchanged but for its header.
    let out = dir.join("as_is.yaml");
    ok(&[
        "scenario",
        "import-setup",
        path(&tpl),
        "--scenario",
        "rr3_handbook_1524",
        "-o",
        path(&out),
    ]);
    let s = loaded(&out);
    assert!(
        s.counter("state-england")
            .expect("ledger")
            .unknown
            .contains(&"treasury".to_string())
    );
}

#[test]
fn another_game_takes_one_counters_sheet_with_side_type_position_and_strength() {
    let dir = scratch("generic");
    let tpl = dir.join("tpl");
    ok(&[
        "scenario",
        "setup-template",
        "ailsh_1_venice_at_bay_1509",
        "-o",
        path(&tpl),
    ]);
    let header = std::fs::read_to_string(tpl.join("counters.csv")).expect("counters.csv");
    assert_eq!(header, "id,name,side,kind,position,note,type,strength\n");
    std::fs::write(
        tpl.join("counters.csv"),
        "id,name,side,kind,position,note,type,strength\n\
         test-militia,Militia (TEST),Venetian: the Republic of Venice,,2728,,militia,2\n\
         test-pool,Light cavalry (TEST),french,unit,off map: reinforcement pool (TEST),,Light Cavalry,3\n\
         test-bad,Bad (TEST),french,unit,2728,,musketeers,x\n",
    )
    .expect("write");
    let out = dir.join("generic.yaml");
    let args = [
        "scenario",
        "import-setup",
        path(&tpl),
        "--scenario",
        "ailsh_1_venice_at_bay_1509",
        "-o",
        path(&out),
    ];
    let (fine, said) = umpire(&args);
    assert!(!fine, "{said}");
    assert!(
        said.contains("counters.csv, line 4, column \"type\": 'musketeers' is not one of"),
        "{said}"
    );
    assert!(
        said.contains("counters.csv, line 4, column \"strength\": 'x' is not a whole number"),
        "{said}"
    );
    let good: String = std::fs::read_to_string(tpl.join("counters.csv"))
        .expect("read")
        .lines()
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(tpl.join("counters.csv"), good).expect("write");
    ok(&args);
    let s = loaded(&out);
    let militia = s.counter("test-militia").expect("placed");
    assert_eq!(militia.side, "venetian");
    assert_eq!(
        militia.position,
        umpire::game::scenario::Position::Hex("2728".into())
    );
    assert_eq!(
        militia.attributes.get("strength_points"),
        Some(&Value::Int(2))
    );
    assert_eq!(
        attr(&s, "test-pool", "unit_type"),
        Some(&Value::Text("light_cavalry".into()))
    );
}

#[test]
fn the_desk_imports_a_set_up_from_a_folder_and_lists_every_problem() {
    use crate::kit::{click, labels_containing, scenario, type_into};
    use eframe::egui;
    use egui_kittest::Harness;
    use umpire::app::{
        DeskApp, GameDesk, IMPORT_SETUP_FOLDER_LABEL, IMPORT_SETUP_LABEL, IMPORT_SETUP_PATH_LABEL,
        ProcedureDesk, RulesSetup, UiCommand,
    };

    let dir = scratch("desk");
    let rules = RulesSetup::shipped(Some(dir.join("rules")));
    let library = rules.load();
    let game = GameDesk::create(
        &dir.join("setup.umpire"),
        &scenario("rr3/handbook_1524"),
        &library,
        Some(3),
    )
    .expect("game");
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(move |cc| {
            DeskApp::with_game(cc, ProcedureDesk::with_seed(library.clone(), 1), game)
                .with_rules(rules.clone())
                .with_config_dir(Some(dir.join("config")))
        });
    harness.run();
    harness
        .state_mut()
        .shell
        .queue
        .push(UiCommand::ImportSetup.into());
    // The command is applied at the end of a frame: the window draws on the next ones.
    harness.run_steps(3);
    let dir = scratch("desk-out");
    // The bad sheets: every problem listed, nothing written.
    let out = dir.join("desk.yaml");
    type_into(
        &mut harness,
        IMPORT_SETUP_FOLDER_LABEL,
        path(&fixture("bad")),
    );
    type_into(&mut harness, IMPORT_SETUP_PATH_LABEL, path(&out));
    click(&mut harness, IMPORT_SETUP_LABEL);
    assert!(!labels_containing(&harness, "Nothing written — 5 problems").is_empty());
    assert!(
        !labels_containing(
            &harness,
            "armies.csv, line 7, column \"country\": no state 'burgundy'"
        )
        .is_empty()
    );
    assert!(!out.exists());
    // The good ones: written, and it loads.
    type_into(
        &mut harness,
        IMPORT_SETUP_FOLDER_LABEL,
        path(&fixture("good")),
    );
    click(&mut harness, IMPORT_SETUP_LABEL);
    assert!(!labels_containing(&harness, "Wrote ").is_empty());
    let s = loaded(&out);
    assert!(s.counter("english-fleet").is_some());
    // Again: asked before the file is replaced.
    click(&mut harness, IMPORT_SETUP_LABEL);
    assert!(!labels_containing(&harness, "already exists. Replace it?").is_empty());
}
