//! PDF chart sheets: the file parses, carries the text an umpire searches for (accents
//! included), draws missing cells as empty boxes, honours A4 and Letter, and repeats a long
//! table's header on the pages it runs onto. `qpdf --check` and `pdftotext` run when installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::game::CounterId;

use lopdf::content::Content;
use lopdf::{Document, Object};
use umpire::game::Actor;
use umpire::report::{Paper, Template, charts_pdf};
use umpire::rules::{Library, Ruleset, RulesetFiles, SourceFile, load_ruleset};

const RULESET: &str = r#"
id: fixture_fr
name: Guerres d'Italie (fixture)
source: "test fixture for tests/report.rs"
"#;

const SIEGE: &str = r#"
id: siege
title: Siège de Cateau-Cambrésis
rule: "§7.2 (François Iᵉʳ)"
notes: Applies at Trévoux and Cateau-Cambrésis; a modified roll ≤ 1 reads the first row, ≥ 6 the last.
roll: d6
column_key: name
columns: [Trévoux, Bâle, Genève]
rows:
  - {key: 1, cells: [R2, "?", A1]}
  - {key: 2, cells: [R1, "?", A1]}
  - {key: 3, cells: [NE, "?", NE]}
  - {key: 4, cells: [NE, NE, "?"]}
  - {key: 5, cells: [D1, D1, D1]}
  - {key: 6, cells: [D2, D2, D1]}
results:
  "D{n}": {label: "Défenseur perd {n} PF"}
  "A{n}": {label: "Assaillant perd {n} PF"}
  "R{n}": {label: "Retraite de {n} hex"}
  NE: {label: Sans effet}
"#;

const MISSING_IN_FIXTURE: usize = 4;

fn long_table() -> String {
    let mut s = String::from(
        "id: muster\ntitle: Muster Roll of the Companies\nrule: \"§9.9\"\nrow_key: name\n\
         column_key: name\ncolumns: [Capitano, Strength Points, Troop Quality]\nrows:\n",
    );
    for i in 1..=90 {
        s.push_str(&format!(
            "  - {{key: \"Company {i:02}\", cells: [\"Condottiere {i}\", \"{}\", \"{}\"]}}\n",
            i % 7 + 1,
            ["A", "B", "C"][i % 3]
        ));
    }
    s
}

fn fixture() -> Ruleset {
    let file = |name: &str, text: &str| SourceFile {
        name: format!("fixture/{name}"),
        text: text.to_string(),
    };
    let files = RulesetFiles {
        ruleset: file("ruleset.yaml", RULESET),
        tables: vec![
            file("siege.yaml", SIEGE),
            file("muster.yaml", &long_table()),
        ],
    };
    match load_ruleset(&files) {
        Ok(r) => r,
        Err(e) => panic!("fixture does not load:\n{e}"),
    }
}

fn pdf(paper: Paper, only: &[&str]) -> Vec<u8> {
    let mut template = Template::charts_default().expect("shipped template");
    template.paper = paper;
    let only: Vec<String> = only.iter().map(|s| s.to_string()).collect();
    charts_pdf(&fixture(), &only, template).expect("charts_pdf")
}

fn parse(bytes: &[u8]) -> Document {
    Document::load_mem(bytes).expect("the PDF parses")
}

fn page_text(doc: &Document, page: u32) -> String {
    doc.extract_text(&[page]).expect("text extracts")
}

fn all_text(doc: &Document) -> String {
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    pages
        .iter()
        .map(|p| page_text(doc, *p))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Page sizes in points, from each page's MediaBox.
fn media_boxes(doc: &Document) -> Vec<(f32, f32)> {
    doc.get_pages()
        .values()
        .map(|id| {
            let page = doc.get_dictionary(*id).expect("page dictionary");
            let Ok(Object::Array(b)) = page.get(b"MediaBox") else {
                panic!("page without MediaBox")
            };
            let n: Vec<f32> = b.iter().map(|o| o.as_float().expect("number")).collect();
            (n[2] - n[0], n[3] - n[1])
        })
        .collect()
}

/// Rectangles (`re`) of a page's content `height` points high.
fn boxes(doc: &Document, page: u32, height: f32) -> usize {
    let id = doc.get_pages()[&page];
    let content = Content::decode(&doc.get_page_content(id)).expect("decodes");
    content
        .operations
        .iter()
        .filter(|op| op.operator == "re")
        .filter(|op| {
            let v: Vec<f32> = op
                .operands
                .iter()
                .filter_map(|o| o.as_float().ok())
                .collect();
            v.len() == 4 && (v[3] - height).abs() < 0.05
        })
        .count()
}

fn write_temp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write pdf");
    path
}

/// Runs the binary (shipped tables only) to write a PDF at `out`, and says so if it failed.
fn umpire_pdf(args: &[&str], out: &Path) {
    let run = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--no-user-rules")
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .expect("umpire runs");
    assert!(
        run.status.success(),
        "umpire {args:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

fn pdftotext(path: &Path) -> String {
    let out = crate::common::tool::command("pdftotext")
        .args(["-layout"])
        .arg(path)
        .arg("-")
        .output()
        .expect("pdftotext runs");
    assert!(out.status.success(), "pdftotext failed: {out:?}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn chart_text_is_searchable_with_accents() {
    let doc = parse(&pdf(Paper::A4, &["siege"]));
    let text = all_text(&doc);
    for expected in [
        "Siège de Cateau-Cambrésis",
        "§7.2 (François",
        "Trévoux",
        "Bâle",
        "Genève",
        "Roll d6",
        "Défenseur perd n PF",
        "Sans effet",
        "≤ 1",
        "≥ 6",
        "Notes:",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // Row keys 1–6 and the result codes as cells.
    for code in ["R2", "A1", "NE", "D1", "D2"] {
        assert!(text.contains(code), "missing cell {code:?} in:\n{text}");
    }
}

#[test]
fn missing_cells_are_empty_boxes_not_question_marks() {
    let template = Template::charts_default().expect("template");
    let side = template.table.missing_box * 72.0 / 25.4;
    let doc = parse(&pdf(Paper::A4, &["siege"]));
    let text = all_text(&doc);
    assert!(!text.contains('?'), "a '?' was printed:\n{text}");
    assert!(
        text.contains(&format!(
            "{MISSING_IN_FIXTURE} of 18 cells are not in the rule text"
        )),
        "{text}"
    );
    // Each box is filled white and outlined: two rectangles per missing cell.
    assert_eq!(boxes(&doc, 1, side), 2 * MISSING_IN_FIXTURE);
}

#[test]
fn a4_and_letter_page_sizes() {
    let a4 = media_boxes(&parse(&pdf(Paper::A4, &["siege"])));
    let letter = media_boxes(&parse(&pdf(Paper::Letter, &["siege"])));
    for (w, h) in a4 {
        assert!(
            (w - 595.28).abs() < 0.5 && (h - 841.89).abs() < 0.5,
            "A4 is {w}×{h}"
        );
    }
    for (w, h) in letter {
        assert!(
            (w - 612.0).abs() < 0.5 && (h - 792.0).abs() < 0.5,
            "Letter is {w}×{h}"
        );
    }
}

#[test]
fn long_table_breaks_with_its_header_repeated() {
    let doc = parse(&pdf(Paper::A4, &["muster"]));
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    assert!(pages.len() >= 2, "90 rows fit on {} page(s)", pages.len());
    let first = page_text(&doc, pages[0]);
    assert!(first.contains("Company 01") && !first.contains("Company 90"));
    for p in &pages[1..] {
        let text = page_text(&doc, *p);
        assert!(
            text.contains("Muster Roll of the Companies (continued)"),
            "page {p}:\n{text}"
        );
        for heading in ["Capitano", "Strength Points", "Troop Quality"] {
            assert!(text.contains(heading), "page {p} lacks header {heading:?}");
        }
        assert!(text.contains(&format!("page {p} of {}", pages.len())));
    }
    let last = page_text(&doc, *pages.last().expect("pages"));
    assert!(last.contains("Company 90"));
    // Every row is printed exactly once.
    let all = all_text(&doc);
    for i in 1..=90 {
        assert_eq!(
            all.matches(&format!("Company {i:02}")).count(),
            1,
            "row {i}"
        );
    }
}

#[test]
fn template_changes_layout_without_recompiling() {
    let custom = Template::parse(
        "custom",
        "paper: letter\nfonts: {table: 12, min_table: 6}\n",
    )
    .expect("parses");
    let bytes = charts_pdf(&fixture(), &["muster".into()], custom).expect("pdf");
    let doc = parse(&bytes);
    assert!((media_boxes(&doc)[0].0 - 612.0).abs() < 0.5);
    let default_pages = parse(&pdf(Paper::Letter, &["muster"])).get_pages().len();
    assert!(
        doc.get_pages().len() > default_pages,
        "larger type, more pages"
    );
    let err = Template::parse("bad", "paper: a5\n").expect_err("a5 is not offered");
    assert!(err.to_string().contains("bad"), "{err}");
}

#[test]
fn font_is_embedded_subset_and_checked_by_poppler_and_qpdf() {
    let bytes = pdf(Paper::A4, &[]);
    let doc = parse(&bytes);
    // A FontFile2 stream far smaller than the 740 kB TTF: the font was subset.
    let font_files: Vec<usize> = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter_map(|d| d.get(b"FontFile2").ok())
        .filter_map(|r| r.as_reference().ok())
        .filter_map(|id| doc.get_object(id).ok()?.as_stream().ok())
        .map(|s| s.content.len())
        .collect();
    assert!(!font_files.is_empty(), "no embedded TrueType font");
    assert!(
        font_files.iter().all(|n| *n < 200_000),
        "font sizes {font_files:?}"
    );

    let path = write_temp("fixture.pdf", &bytes);
    {
        let out = crate::common::tool::command("qpdf")
            .arg("--check")
            .arg(&path)
            .output()
            .expect("qpdf");
        assert!(
            out.status.success(),
            "qpdf --check: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    {
        let text = pdftotext(&path);
        for expected in ["Siège de Cateau-Cambrésis", "Trévoux", "Company 90", "≤ 1"] {
            assert!(
                text.contains(expected),
                "pdftotext lacks {expected:?}:\n{text}"
            );
        }
        assert!(!text.contains('?'));
        let fonts = crate::common::tool::command("pdffonts")
            .arg(&path)
            .output()
            .expect("pdffonts");
        let fonts = String::from_utf8_lossy(&fonts.stdout).to_string();
        let dejavu: Vec<&str> = fonts.lines().filter(|l| l.contains("DejaVu")).collect();
        assert!(!dejavu.is_empty(), "pdffonts:\n{fonts}");
        for line in dejavu {
            let name = line.split_whitespace().next().unwrap_or_default();
            assert!(
                name.len() > 7 && name.as_bytes()[6] == b'+',
                "not a subset name: {line}"
            );
            assert!(line.contains(" yes "), "not embedded: {line}");
        }
    }
}

#[test]
fn cli_prints_the_shipped_charts_with_transcriptions() {
    let dir = std::env::temp_dir().join(format!("umpire-report-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out_pdf = dir.join("ailsh.pdf");
    umpire_pdf(&["charts", "ailsh", "--paper", "letter"], &out_pdf);
    let doc = Document::load(&out_pdf).expect("parses");
    assert!((media_boxes(&doc)[0].0 - 612.0).abs() < 0.5);
    let text = all_text(&doc);
    for expected in ["Assault Table (AST)", "The Fate of the Capitano", "18.8"] {
        assert!(text.contains(expected), "missing {expected:?}");
    }
    // --template reads a layout file at run time.
    let layout = dir.join("letter.yaml");
    std::fs::write(&layout, "paper: letter\nmargins: {left: 25}\n").expect("write template");
    let out_a4 = dir.join("capitano.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args([
            "--no-user-rules",
            "charts",
            "ailsh",
            "--table",
            "capitano_fate",
        ])
        .arg("--template")
        .arg(&layout)
        .arg("-o")
        .arg(&out_a4)
        .output()
        .expect("umpire runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = Document::load(&out_a4).expect("parses");
    assert!((media_boxes(&doc)[0].0 - 612.0).abs() < 0.5);
    let text = all_text(&doc);
    assert!(text.contains("The Fate of the Capitano") && !text.contains("Assault Table"));
    let bad = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["charts", "ailsh", "--table", "no_such_table", "-o"])
        .arg(dir.join("x.pdf"))
        .output()
        .expect("umpire runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown table 'no_such_table'"));
}

#[test]
fn cli_prints_a_scenario_sheet_with_a_turn_track() {
    let dir = std::env::temp_dir().join(format!("umpire-report-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out_pdf = dir.join("s1.pdf");
    umpire_pdf(&["sheet", "ailsh_1_venice_at_bay_1509"], &out_pdf);
    let doc = Document::load(&out_pdf).expect("parses");
    let text = all_text(&doc);
    for expected in [
        "Venice at bay, 1509",
        "Sides",
        "Set-up",
        "Pitigliano",
        "Victory conditions",
        "Turn track",
        "April, 4 (1509)",
    ] {
        assert!(text.contains(expected), "missing {expected:?}");
    }
    // Each side's set-up as one line a Force, what the text leaves out said once per kind,
    // and what the victory conditions depend on.
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Cassano (hex 2832) — Chaumont, Attack: French Gendarmes 6, Italian Infantry (French service) 6 + 6",
        "Venetian Heavy Cavalry ×2",
        "Pio, Dal Monte and Saccoccio:",
        "Supply sources",
        "Venetian: hex 1152, hex 1552, hex 2552, hex 2752 — road exiting east, north of the Po",
        "Regions",
        "Holdings at start",
        "Capitano cards",
    ] {
        assert!(
            folded.contains(expected),
            "missing {expected:?} in {folded}"
        );
    }
    assert_eq!(
        folded.matches("Not in the text:").count(),
        2,
        "once for units, once for leaders: {folded}"
    );
    // The turn track: one empty box per turn (9 turns), each filled and outlined.
    let template = Template::sheet_default().expect("template");
    let side = template.table.missing_box * 72.0 / 25.4;
    let last = *doc.get_pages().keys().last().expect("pages");
    assert_eq!(boxes(&doc, last, side), 2 * 9);
}

#[test]
fn the_megagame_handout_has_the_cast_the_control_roster_and_the_timetable() {
    let dir = std::env::temp_dir().join(format!("umpire-report-cast-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out_pdf = dir.join("rr3.pdf");
    umpire_pdf(&["sheet", "rr3_handbook_1524"], &out_pdf);
    let text = pdftotext(&out_pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for expected in [
        "Cast",
        "England: states: England — characters: Henry VIII; Cardinal Wolsey",
        "Control",
        "Map Control (The East)",
        "Game Control",
        "Timetable",
        "Turn 1 (1524 - 1528), starts 10:15",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in {text}");
    }
}

#[test]
fn a_sides_handout_holds_that_sides_set_up_only() {
    let dir = std::env::temp_dir().join(format!("umpire-report-hand-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out_pdf = dir.join("s1-venetian.pdf");
    umpire_pdf(
        &["sheet", "ailsh_1_venice_at_bay_1509", "--side", "venetian"],
        &out_pdf,
    );
    let text = pdftotext(&out_pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains(
            "Treviglio (hex 2834) — Vitelli, Garrison: Italian Infantry (Venetian service) 2"
        ),
        "{text}"
    );
    assert!(
        !text.contains("Cassano (hex 2832)") && !text.contains("Louis XII, G. Trivulzio"),
        "the French set-up stays off the Venetian handout: {text}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args([
            "sheet",
            "ailsh_1_venice_at_bay_1509",
            "--side",
            "milan",
            "-o",
        ])
        .arg(dir.join("x.pdf"))
        .output()
        .expect("umpire runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no side 'milan'"));
}

#[test]
fn charts_use_the_umpires_transcriptions() {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/shapes");
    let user = std::env::temp_dir().join(format!("umpire-report-user-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&user);
    std::fs::create_dir_all(user.join("shapes")).expect("user dir");
    let shipped = std::fs::read_to_string(rules.join("shapes/sortie.yaml")).expect("fixture");
    let filled = shipped.replace("cells: [S, \"?\"]", "cells: [S, B]");
    assert_ne!(filled, shipped);
    std::fs::write(user.join("shapes/sortie.yaml"), filled).expect("transcription");

    let chart = |layered: bool| -> (String, usize) {
        let out_pdf = user.join(format!("sortie-{layered}.pdf"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
        cmd.arg("--rules").arg(&rules);
        if layered {
            cmd.arg("--user-rules").arg(&user);
        } else {
            cmd.arg("--no-user-rules");
        }
        let out = cmd
            .args(["charts", "shapes", "--table", "sortie", "-o"])
            .arg(&out_pdf)
            .output()
            .expect("umpire runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc = Document::load(&out_pdf).expect("parses");
        let side = Template::charts_default()
            .expect("template")
            .table
            .missing_box
            * 72.0
            / 25.4;
        (all_text(&doc), boxes(&doc, 1, side))
    };
    let (bare, bare_boxes) = chart(false);
    assert!(
        bare.contains("2 of 6 cells are not in the rule text"),
        "{bare}"
    );
    assert_eq!(bare_boxes, 2 * 2);
    let (layered, layered_boxes) = chart(true);
    assert!(layered.contains("Sortie Table") && layered.contains("Breakout"));
    assert!(!layered.contains("not in the rule text"), "{layered}");
    assert_eq!(layered_boxes, 0);
}

// ── Turn reports ─────────────────────────────────────────────────────────────────────────

fn skirmish_game(dir: &str) -> (umpire::game::Game, Library) {
    use umpire::game::scenario::Position;
    use umpire::game::{Action, Game};
    let lib = Library::shipped();
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios/skirmish.yaml");
    let source = umpire::rules::SourceFile {
        name: scenario.display().to_string(),
        text: std::fs::read_to_string(&scenario).expect("fixture"),
    };
    let path =
        std::env::temp_dir().join(format!("umpire-report-{dir}-{}.umpire", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut game = Game::create(&path, &source, &lib, Some(5)).expect("create");
    let unit = |id: &str| [("unit".to_string(), vec![CounterId::from(id)])].into();
    game.act(
        &Actor::umpire(),
        Action::Resolve {
            procedure: "discipline_test".into(),
            inputs: vec![
                ("discipline".into(), "B".into()),
                ("outside_command_range".into(), "true".into()),
            ],
            physical: None,
            chart_result: None,
            chart_confirmed: false,
            counters: unit("red-musketeers"),
            item: None,
        },
    )
    .expect("roll");
    game.act(
        &Actor::umpire(),
        Action::SetStatus {
            counter: "blue-pikes".into(),
            status: "hidden".into(),
            on: true,
        },
    )
    .expect("hide");
    game.act(
        &Actor::umpire(),
        Action::Move {
            counter: "blue-pikes".into(),
            to: Position::Free { x: 3.0, y: 4.0 },
        },
    )
    .expect("move");
    game.act(
        &Actor::umpire(),
        Action::Note {
            text: "Cateau-Cambrésis reached".into(),
        },
    )
    .expect("note");
    let anna = Actor::named("Anna");
    let seqs = game
        .act(
            &anna,
            Action::Resolve {
                procedure: "cohesion_test".into(),
                inputs: vec![
                    ("damage".into(), "1".into()),
                    ("test_from".into(), "shooting".into()),
                    ("shot_range".into(), "point_blank".into()),
                ],
                physical: Some(vec!["6".into()]),
                chart_result: None,
                chart_confirmed: false,
                counters: unit("blue-pikes"),
                item: None,
            },
        )
        .expect("cohesion");
    game.act(
        &anna,
        Action::Override {
            of: seqs[0],
            outcome: "pass".into(),
            reason: "umpire ruling: cover".into(),
        },
    )
    .expect("override");
    (game, lib)
}

fn report_text(game: &umpire::game::Game, side: Option<&str>) -> String {
    let options = umpire::report::ReportOptions {
        turn: Some(1),
        side: side.map(str::to_string),
        printed_at: chrono::Local::now(),
    };
    let bytes = umpire::report::turn_report_pdf(
        game,
        &options,
        Template::sheet_default().expect("template"),
    )
    .expect("report");
    // Cells wrap: compare with white space folded.
    all_text(&parse(&bytes))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_turn_report_shows_each_resolution_with_its_dice_and_the_overrides() {
    let (game, _lib) = skirmish_game("umpire");
    let text = report_text(&game, None);
    for needle in [
        "Test skirmish",
        "turn 1 (Morning)",
        "umpire's report",
        "printed ",
        "Discipline Test",
        "Discipline Test for Red musketeers",
        "Modifier: Outside Command Range −1 to the roll [The Discipline Test]",
        "Modified roll: 4 − 1 = 3",
        "draw 0",
        "physical dice rolled by Anna",
        "Overridden (entry 7)",
        "Entry 6 now reads Pass",
        "umpire ruling: cover",
        "Cateau-Cambrésis reached",
        "Forces at the end of turn 1",
        "Blue pikes",
        "hidden",
    ] {
        assert!(
            text.contains(needle),
            "the umpire's report lacks {needle:?}:\n{text}"
        );
    }
}

#[test]
fn a_sides_report_hides_what_that_side_may_not_know() {
    let (game, _lib) = skirmish_game("red");
    let text = report_text(&game, Some("red"));
    assert!(text.contains("report for Red"), "{text}");
    assert!(
        text.contains("Red musketeers") && text.contains("Discipline Test"),
        "own forces and rolls are shown:\n{text}"
    );
    for secret in ["blue-pikes", "Cohesion Test", "(3, 4)", "now hidden"] {
        assert!(
            !text.contains(secret),
            "red's report shows {secret:?}:\n{text}"
        );
    }
    // Red saw the pikes go out of sight (qrs: Terrain › Visibility), and no more of them.
    assert!(text.contains("Blue pikes: out of sight"), "{text}");
    let forces = text
        .split("Forces at the end")
        .nth(1)
        .expect("the forces table");
    assert!(!forces.contains("Blue pikes"), "{forces}");
    // Enemy counters in sight show on the open table.
    assert!(forces.contains("Blue reserve"), "{forces}");
}

/// The example turn of "Venice at bay" as an after-action report: short (the report of the
/// same turn took 11 pages as an event dump), and every resolution can be checked from the
/// page.
#[test]
fn the_example_turn_reads_as_an_after_action_report() {
    let dir = std::env::temp_dir().join(format!("umpire-report-aar-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let game = crate::kit::venice_turn_one(&dir.join("venice.umpire"));
    let options = umpire::report::ReportOptions {
        turn: Some(1),
        side: None,
        printed_at: chrono::Local::now(),
    };
    let bytes = umpire::report::turn_report_pdf(
        &game,
        &options,
        Template::sheet_default().expect("template"),
    )
    .expect("report");
    let path = dir.join("turn1.pdf");
    std::fs::write(&path, &bytes).expect("write");
    let doc = Document::load_mem(&bytes).expect("parses");
    let pages = doc.get_pages().len();
    let entries = game.events().len();
    // Once 90-odd entries, most of them skips of steps with nothing in them; the Sequence of
    // Play now passes those (issue 26), and the turn is its resolutions, moves and steps.
    assert!(
        (15..=40).contains(&entries),
        "the example turn has {entries} entries"
    );
    // As an event dump the same turn took 13 pages; the after-action report a third at most.
    assert!(pages <= 4, "{pages} pages");
    let text = pdftotext(&path)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for fact in [
        // The Skirmish, recomputable from the page: who, where, the modifier with its rule,
        // the dice, the modified roll, the row and column, the result.
        "#15 Attack on the Assault Table (AST): Attacker French Gendarmes (Chaumont)",
        "Who: Attacker: French Gendarmes (Chaumont) (6 SP)",
        "Where: Attacker at hex 2833; Defender at hex 2834 (Treviglio)",
        "Kind of attack = Skirmish",
        "Modifier: SP ratio (below the AST) +2 to the roll [12.1]",
        "Roll d6: [5] = 5 (physical dice)",
        "Modified roll: 5 + 2 = 7",
        "Assault Table (AST): row 7, column 0 is not in the rule text; result read off the physical chart: D1",
        "AST header line = Not affecting",
        // The loser's Discipline Check and what was applied.
        "Discipline Check (one Combat Unit's column) for Italian Infantry (Venetian service, Vitelli) → D",
        "Strength Points (current) -1",
        // Moves per Force, skips folded with their reason, quiet steps in one line.
        "Chaumont's Force: hex 2832 (Cassano) → hex 2833",
        "nothing to resolve this turn",
        "Nothing recorded at",
        // Each side's losses and state at the end.
        "Venetian — Strength Points (current) 71 (lost 1 of 72)",
        "French — Strength Points (current) 82, no losses",
        "French AP marker: Administrative Points 5",
        "Italian Infantry (Venetian service, Vitelli): 1 [disrupted, revealed]",
    ] {
        assert!(text.contains(fact), "the report lacks {fact:?}:\n{text}");
    }
    // A phase heading once, not a breadcrumb per entry; the journal's head in the footer.
    assert_eq!(text.matches("C) Activation Phase").count(), 1, "{text}");
    let head = &game.head().hash[..16];
    assert_eq!(
        text.matches(&format!("head {head}")).count(),
        pages + 1,
        "the head on every page's footer (and once at the top)"
    );
    assert!(
        crate::words::leaks(&text).is_empty(),
        "{:?}",
        crate::words::leaks(&text)
    );

    // The Venetian's report of the same turn: Chaumont's move and the Skirmish it sees, not the
    // moves of his units before the reveal, nor the French AP marker.
    let venetian = umpire::report::turn_report_pdf(
        &game,
        &umpire::report::ReportOptions {
            side: Some("venetian".into()),
            ..options
        },
        Template::sheet_default().expect("template"),
    )
    .expect("side report");
    let side_path = dir.join("turn1-venetian.pdf");
    std::fs::write(&side_path, &venetian).expect("write");
    let text = pdftotext(&side_path)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("report for Venetian"), "{text}");
    // The Venetian's own numbers: 1, 2, 3… over what it sees, so no gap counts the French
    // units that moved on Chaumont's card (entries 7–9 of the journal).
    let sights =
        umpire::game::visibility::SideView::new(game.ruleset(), game.scenario(), "venetian")
            .expect("side")
            .journal(game.events())
            .expect("sights");
    let numbers = umpire::game::visibility::side_numbers(&sights, game.events());
    let mut values: Vec<u64> = numbers.values().copied().collect();
    values.sort_unstable();
    assert_eq!(
        values,
        (1..=values.len() as u64).collect::<Vec<_>>(),
        "no gap"
    );
    for hidden in 7..=9 {
        assert!(
            !numbers.contains_key(&hidden),
            "entry {hidden} is not the Venetian's to see"
        );
    }
    assert!(
        text.contains(&format!(
            "#{} Chaumont's Force: hex 2832 (Cassano) → hex 2833",
            numbers[&6]
        )),
        "{text}"
    );
    assert!(!text.contains("French AP marker"), "{text}");
    assert!(
        text.contains(&format!(
            "#{} Attack on the Assault Table (AST)",
            numbers[&15]
        )),
        "{text}"
    );
    let found = crate::words::leaks(&text);
    assert!(found.is_empty(), "{found:?}");
}

/// Chart cards: every procedure of a ruleset as a card in two columns — how it is resolved, its
/// modifiers with their rules and values, its table, its results — in the game's words.
#[test]
fn chart_cards_hold_each_procedure_with_its_modifiers() {
    let dir = std::env::temp_dir().join(format!("umpire-report-cards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for ruleset in ["qrs", "ailsh", "arquebus", "gradisca", "rr3"] {
        let out_pdf = dir.join(format!("{ruleset}-cards.pdf"));
        umpire_pdf(&["charts", ruleset, "--cards"], &out_pdf);
        let bytes = std::fs::read(&out_pdf).expect("pdf");
        assert!(bytes.len() < 200_000, "{ruleset}: {} bytes", bytes.len());
        let text = pdftotext(&out_pdf)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let found = crate::words::leaks(&text);
        assert!(found.is_empty(), "{ruleset}: {found:?}");
        // Landscape (three columns) takes no more pages than portrait, on either paper.
        let pages_of = |path: &Path| Document::load(path).expect("parses").get_pages().len();
        let portrait = pages_of(&out_pdf);
        for paper in ["a4", "letter"] {
            let landscape = dir.join(format!("{ruleset}-cards-{paper}-landscape.pdf"));
            umpire_pdf(
                &[
                    "charts",
                    ruleset,
                    "--cards",
                    "--landscape",
                    "--paper",
                    paper,
                ],
                &landscape,
            );
            let pages = pages_of(&landscape);
            assert!(
                pages <= portrait,
                "{ruleset}: {pages} landscape {paper} pages, {portrait} portrait A4"
            );
            // Three sides at 7 pt (two at 6 pt before: the type is legible now, the cards take
            // a page more rather than set smaller).
            if ruleset == "qrs" {
                assert!(pages <= 3, "the QRS on {paper} landscape: {pages} pages");
            }
        }
        if ruleset == "qrs" {
            let letter = dir.join("qrs-cards-letter.pdf");
            umpire_pdf(&["charts", "qrs", "--cards", "--paper", "letter"], &letter);
            let pages = pages_of(&letter);
            assert!(pages <= 3, "the QRS on Letter: {pages} pages");
        }
        if ruleset == "qrs" {
            let doc = Document::load_mem(&bytes).expect("parses");
            let pages = doc.get_pages().len();
            assert!(
                pages <= 3,
                "the QRS cards take {pages} pages (the printed QRS: 2 sides, in smaller type)"
            );
            // In the order the cards set it (two columns interleave in a layout extraction).
            let text = all_text(&doc)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            for expected in [
                "Discipline Test",
                "Roll d6, modified; the target by Discipline: A 3+, B 4+, C 5+",
                "Outside Command Range −1",
                "Firing Table",
                "1BU (point blank)",
                "Cohesion Test and losses",
            ] {
                assert!(
                    text.contains(expected),
                    "qrs cards lack {expected:?}: {text}"
                );
            }
        }
    }
}

/// A chart whose column headings the text does not give (the Attrition Table's Force-size
/// brackets) prints as a blank chart with room for the printed one: six empty columns with
/// empty headings, not a single placeholder column.
#[test]
fn a_chart_without_its_columns_prints_as_a_generous_blank_grid() {
    let dir = std::env::temp_dir().join(format!("umpire-report-fill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out_pdf = dir.join("attrition.pdf");
    umpire_pdf(&["charts", "ailsh", "--table", "attrition"], &out_pdf);
    let doc = Document::load(&out_pdf).expect("parses");
    let side = Template::charts_default()
        .expect("template")
        .table
        .missing_box
        * 72.0
        / 25.4;
    // 17 rows (≤-2 … 14+), six boxes each; each box is filled and outlined.
    assert_eq!(boxes(&doc, 1, side), 2 * 17 * 6);
    let text = all_text(&doc)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("write your chart's headings in the empty header cells"),
        "{text}"
    );
}

/// An application later undone says so where it stands, once — not "Applied" with a line
/// under Corrections pages later that said each undo twice; a counter that leaves its Force
/// moves under its own name, the Force staying where it is (issue 24).
#[test]
fn an_undone_application_says_so_once_and_a_lone_counter_moves_under_its_name() {
    use std::collections::BTreeMap;
    use umpire::game::scenario::Position;
    use umpire::game::{Action, CounterChange, Game};
    let dir = std::env::temp_dir().join(format!("umpire-report-undone-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("venice.umpire");
    let mut game = Game::create(
        &path,
        &crate::kit::scenario("s1_venice"),
        &Library::shipped(),
        Some(24),
    )
    .expect("the game starts");
    let me = Actor::umpire();
    let alviano = game
        .state()
        .counter_id("Venetian Infantry (Alviano)")
        .expect("Alviano's infantry")
        .to_string();
    let gendarmes = game
        .state()
        .counter_id("French Gendarmes (Chaumont)")
        .expect("the Gendarmes")
        .to_string();
    let seqs = game
        .act(
            &me,
            Action::Resolve {
                procedure: "discipline_check".into(),
                inputs: vec![
                    ("reason".into(), "combat".into()),
                    ("troop_quality".into(), "3".into()),
                    ("reliability".into(), "S".into()),
                ],
                physical: Some(vec!["4".into()]),
                chart_result: Some("D".into()),
                chart_confirmed: false,
                counters: BTreeMap::from([(
                    "unit".to_string(),
                    vec![CounterId::from(alviano.as_str())],
                )]),
                item: None,
            },
        )
        .expect("resolved");
    let resolved = seqs[0];
    let applied = game
        .act(
            &me,
            Action::ApplyEffects {
                of: resolved,
                changes: vec![CounterChange::Attribute {
                    counter: alviano.clone(),
                    attribute: "strength_points".into(),
                    from: Some(umpire::rules::Value::Int(8)),
                    to: umpire::rules::Value::Int(0),
                }],
            },
        )
        .expect("applied")[0];
    game.act(&me, Action::Undo).expect("undone");
    game.act(
        &me,
        Action::Move {
            counter: gendarmes.into(),
            to: Position::Hex("2933".into()),
        },
    )
    .expect("the Gendarmes alone");
    let options = umpire::report::ReportOptions {
        turn: Some(1),
        side: None,
        printed_at: chrono::Local::now(),
    };
    let bytes = umpire::report::turn_report_pdf(
        &game,
        &options,
        Template::sheet_default().expect("template"),
    )
    .expect("report");
    let pdf = dir.join("turn1.pdf");
    std::fs::write(&pdf, &bytes).expect("write");
    let text = pdftotext(&pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        !text.contains(&format!("Applied (entry {applied})")),
        "an undone application is not printed as applied:\n{text}"
    );
    assert_eq!(
        text.matches(&format!("Undone (entry {applied})")).count(),
        1,
        "said once, where it stands:\n{text}"
    );
    assert!(
        !text.contains(&format!("entry {applied} undone"))
            && !text.contains(&format!("entry {applied} (")),
        "not said again under Corrections:\n{text}"
    );
    assert!(
        text.contains("French Gendarmes (Chaumont): hex 2832 (Cassano) → hex 2933"),
        "the Gendarmes moved, under their name:\n{text}"
    );
    assert!(
        !text.contains("Chaumont's Force: hex 2832 (Cassano) → hex 2933"),
        "the Force stayed at Cassano:\n{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An application of a result a side sees only summarised stands on its own line in that
/// side's copy (there is no block to file it under), naming the result by the side's own
/// number; undone, it says so.
#[test]
fn an_application_of_a_summarised_result_stands_on_its_own_line() {
    use std::collections::BTreeMap;
    use umpire::game::{Action, CounterChange, Game};
    let dir = std::env::temp_dir().join(format!("umpire-report-summ-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut game = Game::create(
        &dir.join("g.umpire"),
        &crate::kit::scenario("s1_venice"),
        &Library::shipped(),
        Some(24),
    )
    .expect("game");
    let me = Actor::umpire();
    let check = game
        .act(
            &me,
            Action::Resolve {
                procedure: "discipline_check".into(),
                inputs: vec![
                    ("reason".into(), "combat".into()),
                    ("troop_quality".into(), "3".into()),
                    ("reliability".into(), "S".into()),
                ],
                physical: Some(vec!["4".into()]),
                chart_result: Some("D".into()),
                chart_confirmed: false,
                counters: BTreeMap::from([(
                    "unit".to_string(),
                    vec![CounterId::from("fr-chaumont-french-gendarmes-1")],
                )]),
                item: None,
            },
        )
        .expect("the French check")[0];
    let alviano = game
        .state()
        .counter_id("Venetian Infantry (Alviano)")
        .expect("Alviano")
        .to_string();
    game.act(
        &me,
        Action::ApplyEffects {
            of: check,
            changes: vec![CounterChange::Attribute {
                counter: alviano,
                attribute: "strength_points".into(),
                from: Some(umpire::rules::Value::Int(8)),
                to: umpire::rules::Value::Int(7),
            }],
        },
    )
    .expect("applied");
    game.act(&me, Action::Undo).expect("undone");
    let bytes = umpire::report::turn_report_pdf(
        &game,
        &umpire::report::ReportOptions {
            turn: Some(1),
            side: Some("venetian".into()),
            printed_at: chrono::Local::now(),
        },
        Template::sheet_default().expect("template"),
    )
    .expect("report");
    let pdf = dir.join("venetian.pdf");
    std::fs::write(&pdf, &bytes).expect("write");
    let text = pdftotext(&pdf)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let sights =
        umpire::game::visibility::SideView::new(game.ruleset(), game.scenario(), "venetian")
            .expect("side")
            .journal(game.events())
            .expect("sights");
    let n = umpire::game::visibility::side_numbers(&sights, game.events())[&check];
    assert!(
        text.contains(&format!(
            "Effects of entry {n} applied: Venetian Infantry (Alviano): Strength Points (current) 8 → 7"
        )) && text.contains("Undone (entry"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
