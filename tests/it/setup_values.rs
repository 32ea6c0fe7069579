//! The values the text leaves to the counters, given once at set-up from the organiser's
//! spreadsheet (issue 45, item 2): `counter_values.csv` in the template of a scenario whose
//! counters leave values open, a row for each printed name, merged by `scenario import-setup`
//! into the scenario's `counter_values:`. The Troop Qualities below are the ones the Venice
//! Assault test gives with `game set-all` (facts.rs); the text prints none (1.3.3, L154 of
//! seeds/000_73d28750ad550589.txt).

use std::path::{Path, PathBuf};

use crate::cli::umpire;

const VENICE: &str = "ailsh_1_venice_at_bay_1509";

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("values", name)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// The template's `counter_values.csv` with `values` filled in: (printed name, column, value).
fn filled(dir: &Path, values: &[(&str, &str, &str)]) -> PathBuf {
    let tpl = dir.join("sheets");
    let made = umpire(&["scenario", "setup-template", VENICE, "-o", path(&tpl)]);
    assert!(made.success, "{}", made.show());
    let file = tpl.join("counter_values.csv");
    let text = std::fs::read_to_string(&file).expect("counter_values.csv in the template");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(str::to_string)
        .collect();
    let mut rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.expect("row").iter().map(str::to_string).collect())
        .collect();
    for (name, column, value) in values {
        let c = header
            .iter()
            .position(|h| h == column)
            .unwrap_or_else(|| panic!("no column {column} in {header:?}"));
        let row = rows
            .iter_mut()
            .find(|r| r[0] == *name)
            .unwrap_or_else(|| panic!("no row {name} in the template"));
        row[c] = (*value).to_string();
    }
    let mut w = csv::Writer::from_path(&file).expect("write");
    w.write_record(&header).expect("header");
    for r in rows {
        w.write_record(&r).expect("row");
    }
    w.flush().expect("flush");
    tpl
}

#[test]
fn the_template_has_a_row_for_each_printed_name_and_a_column_for_each_value_left_open() {
    let dir = scratch("template");
    let tpl = filled(&dir, &[]);
    let text = std::fs::read_to_string(tpl.join("counter_values.csv")).expect("sheet");
    let header = text.lines().next().expect("header");
    assert!(
        header.starts_with("name,kind,with,troop_quality,"),
        "{header}"
    );
    assert!(header.contains(",initiative,"), "{header}");
    // A row per name the counters print, not per counter; no number invented.
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("French Gendarmes,"))
            .count(),
        1,
        "{text}"
    );
    assert!(text.contains("\nChaumont,leader,"), "{text}");
    assert!(
        !text.contains("AP marker"),
        "markers print no ratings: {text}"
    );
    assert!(
        !text
            .lines()
            .skip(1)
            .any(|l| l.split(',').skip(3).any(|c| !c.is_empty())),
        "every value empty: {text}"
    );
    let readme = std::fs::read_to_string(tpl.join("README.md")).expect("README");
    assert!(
        readme.contains("| `troop_quality` | Troop Quality.") && readme.contains("1.3.3"),
        "{readme}"
    );
}

/// The Qualities given on the sheet reach every counter of the name, and the Assault that was
/// refused for want of them (facts.rs) resolves from the first entry of the game.
#[test]
fn qualities_given_on_the_sheet_reach_the_counters_and_the_assault_resolves() {
    let dir = scratch("given");
    let tpl = filled(
        &dir,
        &[
            ("French Gendarmes", "troop_quality", "3"),
            ("Italian Infantry (Venetian service)", "troop_quality", "1"),
            ("Stradiots Light Cavalry", "troop_quality", "2"),
            ("Chaumont", "initiative", "2"),
        ],
    );
    let out = dir.join("venice.yaml");
    let imported = umpire(&[
        "scenario",
        "import-setup",
        path(&tpl),
        "--scenario",
        VENICE,
        "-o",
        path(&out),
    ]);
    assert!(imported.success, "{}", imported.show());
    let yaml = std::fs::read_to_string(&out).expect("written");
    assert!(yaml.contains("counter_values:"), "{yaml}");
    let game = dir.join("game.umpire");
    let made = umpire(&["game", "new", path(&out), "-o", path(&game)]);
    assert!(made.success, "{}", made.show());
    let status = umpire(&["game", "status", path(&game), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&status.stdout).expect("json");
    let counters = v["counters"].as_array().expect("counters");
    let gendarmes: Vec<&serde_json::Value> = counters
        .iter()
        .filter(|c| {
            c["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("French Gendarmes"))
        })
        .collect();
    assert!(gendarmes.len() >= 5, "{gendarmes:?}");
    for g in &gendarmes {
        assert_eq!(g["attributes"]["troop_quality"], 3, "{g}");
    }
    let mut args = vec!["game", "resolve", path(&game)];
    args.extend(crate::facts::VENICE_ASSAULT);
    let resolved = umpire(&args);
    assert!(resolved.success, "{}", resolved.show());
    assert!(
        resolved
            .stdout
            .contains("Attacker: undemoralised SPs of Quality 3 = 6"),
        "{}",
        resolved.stdout
    );
    assert!(
        resolved
            .stdout
            .contains("Odds (read the DRM below the AST) = 6 to 1"),
        "{}",
        resolved.stdout
    );
}

#[test]
fn a_wrong_cell_is_named_by_line_and_column_and_nothing_is_written() {
    let dir = scratch("wrong");
    let tpl = filled(
        &dir,
        &[
            ("French Gendarmes", "troop_quality", "7"),
            ("Stradiots Light Cavalry", "with", "nationality=french"),
            ("Stradiots Light Cavalry", "troop_quality", "2"),
            ("Chaumont", "troop_quality", "3"),
        ],
    );
    // A name no counter prints, added at the end.
    let file = tpl.join("counter_values.csv");
    let mut text = std::fs::read_to_string(&file).expect("sheet");
    let lines = text.lines().count() + 1;
    text.push_str("Swiss Pikemen,unit,,2\n");
    std::fs::write(&file, text).expect("write");
    let out = dir.join("bad.yaml");
    let run = umpire(&[
        "scenario",
        "import-setup",
        path(&tpl),
        "--scenario",
        VENICE,
        "-o",
        path(&out),
    ]);
    assert!(!run.success, "{}", run.show());
    assert!(!out.exists(), "nothing written");
    let said = run.show();
    for expected in [
        "column \"troop_quality\": 7 is out of range for Troop Quality: 1 to 3",
        "column \"with\": no counter named 'Stradiots Light Cavalry' has nationality=french",
        "column \"troop_quality\": 'troop_quality' is not an attribute of a leader",
        &format!("counter_values.csv, line {lines}, column \"name\": no unit of Venice at bay"),
    ] {
        assert!(said.contains(expected), "missing {expected:?} in {said}");
    }
    assert!(!said.contains("panicked"), "{said}");
}
