//! The umpire's transcription layer: templates, filled copies laid over shipped tables,
//! validated like shipped ones, shipped files untouched.

use std::path::{Path, PathBuf};
use std::process::Command;

use umpire::resolve::{DiceSource, ResolveError, parse_inputs, resolve};
use umpire::rules::{Library, read_rules_root};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shapes")
}

fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("transcription", name)
}

fn umpire(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn template_fill_and_layer_over_shipped_table() {
    let user = scratch("fill");
    let rules = fixtures();
    let shipped_before =
        std::fs::read_to_string(rules.join("shapes/sortie.yaml")).expect("fixture");
    let out = umpire(&[
        "--rules",
        rules.to_str().unwrap(),
        "--user-rules",
        user.to_str().unwrap(),
        "rules",
        "template",
        "shapes",
        "sortie",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = user.join("shapes/sortie.yaml");
    let text = std::fs::read_to_string(&written).expect("template written");
    assert!(text.contains("# 2 cells to fill:"), "{text}");
    assert!(text.contains("#   row 3-4, column breakout"), "{text}");
    // Refuses to overwrite without --force.
    let again = umpire(&[
        "--rules",
        rules.to_str().unwrap(),
        "--user-rules",
        user.to_str().unwrap(),
        "rules",
        "template",
        "shapes",
        "sortie",
    ]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));

    // Fill the two missing cells: Breakout on 3-4 and 5-6.
    let filled = text.replace("cells: [S, \"?\"]", "cells: [S, B]");
    assert_ne!(
        filled, text,
        "the template has the shipped cells to replace"
    );
    std::fs::write(&written, filled).expect("write");

    let sources = read_rules_root(&rules).expect("fixtures");
    let lib = Library::load_layered(&sources, Some(&user));
    assert!(lib.failed.is_empty(), "{:?}", lib.failed);
    let rs = lib.get("shapes").expect("shapes");
    assert!(rs.table("sortie").expect("sortie").is_complete());
    assert_eq!(
        lib.user_table("shapes", "sortie").map(|u| u.path.clone()),
        Some(written.clone())
    );
    // A roll that used to land on a missing cell now resolves from the transcription.
    let p = rs.procedure("sortie").expect("procedure");
    let inputs = parse_inputs(
        p,
        &[
            ("sortie_type".into(), "breakout".into()),
            ("garrison".into(), "regulars".into()),
        ],
    )
    .expect("inputs");
    let r = resolve(
        rs,
        p,
        &inputs,
        DiceSource::Physical {
            faces: vec!["5".into()],
            entered_by: None,
        },
        None,
    )
    .expect("resolves");
    assert_eq!(r.outcome.code, "B");
    // Without the layer it is still missing.
    let bare = Library::load(&sources);
    let rs = bare.get("shapes").expect("shapes");
    let p = rs.procedure("sortie").expect("procedure");
    let e = resolve(
        rs,
        p,
        &inputs,
        DiceSource::Physical {
            faces: vec!["5".into()],
            entered_by: None,
        },
        None,
    )
    .expect_err("missing");
    assert!(matches!(e, ResolveError::MissingCell { .. }));

    // `rules check` reports both counts.
    let check = umpire(&[
        "--rules",
        rules.to_str().unwrap(),
        "--user-rules",
        user.to_str().unwrap(),
        "rules",
        "check",
        "shapes",
        "--json",
    ]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&check.stdout).expect("json");
    let sortie = json[0]["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .find(|t| t["id"] == "sortie")
        .expect("sortie")
        .clone();
    assert_eq!(sortie["missing_cells"], 0);
    assert_eq!(sortie["missing_cells_shipped"], 2);
    assert_eq!(sortie["complete"], true);
    // Shipped file untouched.
    assert_eq!(
        std::fs::read_to_string(rules.join("shapes/sortie.yaml")).expect("fixture"),
        shipped_before
    );
    let _ = std::fs::remove_dir_all(&user);
}

#[test]
fn a_bad_transcription_is_refused_with_its_location_and_nothing_half_loaded() {
    let user = scratch("bad");
    std::fs::create_dir_all(user.join("shapes")).expect("dir");
    let bad = user.join("shapes/sortie.yaml");
    std::fs::write(&bad, "id: sortie\ntitle: Sortie Table\nroll: d6\ncolumn_key: name\ncolumns: [raid, breakout]\nrows:\n  - {key: 1-2, cells: [R, R]}\n  - {key: 3-4, cells: [S, X]}\n  - {key: 5-6, cells: [S, B]}\nresults:\n  B: {label: Breakout}\n  R: {label: Repulsed}\n  S: {label: Success}\n").expect("write");
    let sources = read_rules_root(&fixtures()).expect("fixtures");
    let lib = Library::load_layered(&sources, Some(&user));
    assert!(
        lib.get("shapes").is_none(),
        "a ruleset with a bad transcription must not load half-way"
    );
    let (_, errors) = lib
        .failed
        .iter()
        .find(|(id, _)| id == "shapes")
        .expect("shapes failed");
    let e = &errors.0[0];
    assert!(
        e.file.ends_with("shapes/sortie.yaml") && e.file.starts_with(user.to_str().unwrap()),
        "{e}"
    );
    assert_eq!((e.line, e.column), (8, 27), "{e}");
    assert!(
        e.problem
            .contains("'X' is not one of the table's result codes"),
        "{e}"
    );

    // A file named after no table is refused too.
    std::fs::remove_file(&bad).expect("rm");
    std::fs::write(user.join("shapes/nonsense.yaml"), "id: nonsense\n").expect("write");
    let lib = Library::load_layered(&sources, Some(&user));
    let (_, errors) = lib
        .failed
        .iter()
        .find(|(id, _)| id == "shapes")
        .expect("shapes failed");
    assert!(
        errors.0[0].problem.contains("has no table 'nonsense'"),
        "{}",
        errors.0[0]
    );
    let _ = std::fs::remove_dir_all(&user);
}

#[test]
fn rules_show_json_gives_each_table_as_transcribed() {
    let out = umpire(&[
        "--no-user-rules",
        "rules",
        "show",
        "qrs",
        "retreat",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let tables = v.as_array().expect("a list of tables");
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0]["ruleset"], "qrs");
    assert_eq!(tables[0]["table"]["id"], "retreat");
    assert!(tables[0]["transcription"].is_null());
    let rows = tables[0]["table"]["rows"].as_array().expect("rows");
    assert!(
        rows.iter().any(|r| r["cells"]
            .as_array()
            .is_some_and(|c| c.iter().any(|x| x == "3BU"))),
        "{rows:?}"
    );
    // Every table of a ruleset, without naming one.
    let all = umpire(&["--no-user-rules", "rules", "show", "ailsh", "--json"]);
    assert!(all.status.success());
    let v: serde_json::Value = serde_json::from_slice(&all.stdout).expect("JSON");
    assert!(v.as_array().expect("list").len() > 10);
}

#[test]
fn rules_show_prints_a_chart() {
    let out = umpire(&["--no-user-rules", "rules", "show", "qrs", "retreat"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("RETREAT TABLE"), "{text}");
    assert!(
        text.contains("6   │ 1BU  │ 3BU          │ 3BU     │ 3BU"),
        "{text}"
    );
    let missing = umpire(&[
        "--rules",
        fixtures().to_str().unwrap(),
        "--no-user-rules",
        "rules",
        "show",
        "shapes",
        "sortie",
    ]);
    let text = String::from_utf8_lossy(&missing.stdout);
    assert!(
        text.contains("2 of 6 cells are not in the rule text"),
        "{text}"
    );
}
