//! The paper's layout, read back from the PDFs: every kind of paper (chart sheets portrait and
//! landscape, chart cards on A4 and Letter, scenario sheets and each side's handout for every
//! shipped scenario, turn reports whole and for a side, the after-action report, a megagame's
//! statements, announcements and Control log) is set in legible type — cards at 7 pt and more
//! (6.5 pt for the footer), sheets and reports at 8 pt and more — with no word off the page, and
//! chart sheets in landscape take no more pages than in portrait.
//!
//! Type sizes are read from the content streams (lopdf): each `Tf` size times the text
//! matrix's scale, for the text shown after it. Word boxes come from `pdftotext -bbox`
//! (poppler-utils, installed by .ci/run).

use std::path::{Path, PathBuf};

use lopdf::content::Content;
use lopdf::{Document, Object};
use umpire::game::{Action, Actor, Game};
use umpire::report::template::Orientation;
use umpire::report::{Paper, ReportOptions, Template};
use umpire::rules::{Library, SourceFile};

const RULESETS: [&str; 5] = ["ailsh", "arquebus", "gradisca", "qrs", "rr3"];

/// One PDF to check: its name in messages, its bytes, and the least type size for its text
/// and for its footer.
struct Doc {
    name: String,
    bytes: Vec<u8>,
    least: f32,
    least_footer: f32,
}

fn sheet(name: String, bytes: Vec<u8>) -> Doc {
    Doc {
        name,
        bytes,
        least: 8.0,
        least_footer: 8.0,
    }
}

fn number(o: &Object) -> f32 {
    match o {
        Object::Integer(i) => *i as f32,
        Object::Real(r) => *r,
        _ => f32::NAN,
    }
}

/// Every run of text shown: (page, baseline y, size in points).
fn text_sizes(bytes: &[u8]) -> Vec<(u32, f32, f32)> {
    let doc = Document::load_mem(bytes).expect("the PDF parses");
    let mut out = Vec::new();
    for (page, id) in doc.get_pages() {
        let content = doc.get_page_content(id);
        let ops = Content::decode(&content)
            .expect("content decodes")
            .operations;
        let (mut size, mut scale, mut y) = (0.0_f32, 1.0_f32, 0.0_f32);
        for op in ops {
            let n: Vec<f32> = op.operands.iter().map(number).collect();
            match op.operator.as_str() {
                "BT" => (scale, y) = (1.0, 0.0),
                "Tf" => size = n.get(1).copied().unwrap_or(f32::NAN),
                "Tm" if n.len() == 6 => {
                    scale = n[2].hypot(n[3]);
                    y = n[5];
                }
                "Td" | "TD" if n.len() == 2 => y += n[1] * scale,
                "Tj" | "TJ" | "'" | "\"" => out.push((page, y, size * scale)),
                _ => {}
            }
        }
    }
    out
}

/// Words outside the page less a small margin: (page, word, x min, x max, page width).
fn words_off_the_page(path: &Path) -> Vec<String> {
    let out = crate::common::tool::command("pdftotext")
        .args(["-bbox"])
        .arg(path)
        .arg("-")
        .output()
        .expect("pdftotext runs (poppler-utils)");
    assert!(out.status.success(), "pdftotext failed: {out:?}");
    let html = String::from_utf8_lossy(&out.stdout);
    let attr = |line: &str, key: &str| -> f32 {
        line.split(&format!("{key}=\""))
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(f32::NAN)
    };
    let (mut page, mut w, mut h) = (0, 0.0, 0.0);
    let mut off = Vec::new();
    let margin = 8.0;
    for line in html.lines() {
        if line.contains("<page ") {
            page += 1;
            (w, h) = (attr(line, "width"), attr(line, "height"));
        } else if line.contains("<word ") {
            let (x0, y0, x1, y1) = (
                attr(line, "xMin"),
                attr(line, "yMin"),
                attr(line, "xMax"),
                attr(line, "yMax"),
            );
            if x0 < margin || y0 < margin || x1 > w - margin || y1 > h - margin {
                let word = line.split('>').nth(1).unwrap_or("").split('<').next();
                off.push(format!(
                    "page {page}: {:?} at x {x0:.0}–{x1:.0}, y {y0:.0}–{y1:.0} (page {w:.0} × {h:.0})",
                    word.unwrap_or("")
                ));
            }
        }
    }
    off
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-paper-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Checks every document: type sizes, and no word off the page.
fn check(docs: &[Doc]) {
    let dir = scratch();
    let mut faults = Vec::new();
    for d in docs {
        let sizes = text_sizes(&d.bytes);
        assert!(!sizes.is_empty(), "{}: no text read", d.name);
        // The footer sits in the bottom margin, under every template's 10 mm.
        for (page, y, size) in &sizes {
            let least = if *y < 25.0 { d.least_footer } else { d.least };
            if *size < least - 0.01 || size.is_nan() {
                faults.push(format!(
                    "{}: page {page}: text at {size:.2} pt (y {y:.0}), under {least} pt",
                    d.name
                ));
                break;
            }
        }
        // No page under a quarter full, but a document's only page.
        let heights = page_heights(&d.bytes);
        if heights.len() > 1 {
            for (page, h) in heights.iter().enumerate() {
                let page = page as u32 + 1;
                let lowest = sizes
                    .iter()
                    .filter(|(p, y, _)| *p == page && *y >= 25.0)
                    .map(|(_, y, _)| *y)
                    .fold(f32::MAX, f32::min);
                let used = (h - lowest) / h;
                if used < 0.25 {
                    faults.push(format!(
                        "{}: page {page} of {} is {:.0} % full",
                        d.name,
                        heights.len(),
                        used.max(0.0) * 100.0
                    ));
                }
            }
        }
        let path = dir.join(format!("{}.pdf", d.name.replace([' ', '/'], "-")));
        std::fs::write(&path, &d.bytes).expect("write");
        let off = words_off_the_page(&path);
        if !off.is_empty() {
            faults.push(format!(
                "{}: {} words off the page, e.g. {}",
                d.name,
                off.len(),
                off[..off.len().min(3)].join("; ")
            ));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// Each page's height, in points, in page order.
fn page_heights(bytes: &[u8]) -> Vec<f32> {
    let doc = Document::load_mem(bytes).expect("the PDF parses");
    doc.get_pages()
        .values()
        .map(|id| {
            let page = doc.get_dictionary(*id).expect("page");
            let mb = page
                .get(b"MediaBox")
                .and_then(Object::as_array)
                .expect("MediaBox");
            number(&mb[3]) - number(&mb[1])
        })
        .collect()
}

fn page_count(bytes: &[u8]) -> usize {
    Document::load_mem(bytes)
        .expect("the PDF parses")
        .get_pages()
        .len()
}

fn landscape(mut t: Template) -> Template {
    t.orientation = Orientation::Landscape;
    t
}

#[test]
fn chart_sheets_and_cards_are_legible_on_the_page_and_landscape_is_no_longer() {
    let lib = Library::shipped();
    let mut docs = Vec::new();
    for id in RULESETS {
        let ruleset = lib.get(id).expect("shipped ruleset");
        let charts = Template::charts_default().expect("template");
        let portrait = umpire::report::charts_pdf(ruleset, &[], charts.clone()).expect("charts");
        let wide = umpire::report::charts_pdf(ruleset, &[], landscape(charts)).expect("charts");
        assert!(
            page_count(&wide) <= page_count(&portrait),
            "{id}: chart sheets take {} pages in landscape, {} in portrait",
            page_count(&wide),
            page_count(&portrait)
        );
        docs.push(sheet(format!("{id} charts"), portrait));
        docs.push(sheet(format!("{id} charts landscape"), wide));
        let cards = Template::cards_default().expect("template");
        let mut letter = cards.clone();
        letter.paper = Paper::Letter;
        if id == "qrs" {
            // A rule every row shares is said once, not in a Rule column on every row.
            let bytes =
                umpire::report::charts::chart_cards_pdf(ruleset, cards.clone()).expect("cards");
            let all = pages_text(&bytes).join(" ");
            let folded = all.split_whitespace().collect::<Vec<_>>().join(" ");
            let repeats = folded.matches("Melee › Impetus Bonus").count();
            assert!(
                (1..=2).contains(&repeats),
                "the Impetus bonus rule {repeats} times:\n{folded}"
            );
        }
        let mut three = landscape(cards.clone());
        three.columns = Some(3);
        let upright = page_count(
            &umpire::report::charts::chart_cards_pdf(ruleset, cards.clone()).expect("cards"),
        );
        for (kind, t) in [("A4", cards), ("Letter", letter), ("landscape", three)] {
            let bytes = umpire::report::charts::chart_cards_pdf(ruleset, t).expect("cards");
            assert!(
                kind != "landscape" || page_count(&bytes) <= upright,
                "{id}: chart cards take {} pages in landscape, {upright} in portrait",
                page_count(&bytes)
            );
            docs.push(Doc {
                name: format!("{id} cards {kind}"),
                bytes,
                least: 7.0,
                least_footer: 6.5,
            });
        }
    }
    check(&docs);
}

/// Every shipped scenario file, read.
fn shipped_scenarios() -> Vec<SourceFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files = Vec::new();
    for id in RULESETS {
        let mut names: Vec<PathBuf> = std::fs::read_dir(root.join(id))
            .expect("scenarios folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        names.sort();
        for path in names {
            files.push(SourceFile {
                name: format!("scenarios/{id}/{}", path.file_name().unwrap().display()),
                text: std::fs::read_to_string(&path).expect("scenario"),
            });
        }
    }
    assert!(files.len() >= 9, "the shipped scenarios: {}", files.len());
    files
}

#[test]
fn scenario_sheets_and_side_handouts_are_legible_on_the_page() {
    let lib = Library::shipped();
    let mut docs = Vec::new();
    for source in shipped_scenarios() {
        let scenario =
            umpire::game::scenario::load_scenario(&source, &lib).expect("shipped scenario");
        let ruleset = lib.get(&scenario.ruleset).expect("its ruleset");
        let t = Template::sheet_default().expect("template");
        let whole = umpire::report::scenario_pdf(&scenario, ruleset, None, t.clone())
            .expect("scenario sheet");
        let text = pages_text(&whole);
        // A side's schedules and the turn track read as words, without a stray semicolon.
        assert!(
            text.iter().all(|p| !p.contains("\n; minor")),
            "{}: a leading semicolon",
            scenario.id
        );
        if scenario.id == "ailsh_5_struggle_for_the_duchy_1524" {
            let all = text.join("\n");
            assert!(
                all.contains("Receive Administrative Points") && all.contains("6 on turn 2"),
                "the turn track marks the AP turns and the schedules read in words:\n{all}"
            );
        }
        docs.push(sheet(format!("{} sheet", scenario.id), whole.clone()));
        for side in &scenario.sides {
            let bytes = umpire::report::scenario_pdf(&scenario, ruleset, Some(&side.id), t.clone())
                .expect("side handout");
            assert_ne!(
                bytes, whole,
                "{} {}: the handout is the sheet",
                scenario.id, side.id
            );
            // Whose it is, on every page; the other sides' rows are not in its Sides table.
            let short = side.name.split(':').next().unwrap_or_default().trim();
            let whose = format!("Side's handout: {short}");
            for (i, page) in pages_text(&bytes).iter().enumerate() {
                let folded = page.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    folded.contains(&whose),
                    "{} page {}: not marked {whose:?}:\n{folded}",
                    scenario.id,
                    i + 1
                );
            }
            docs.push(sheet(format!("{} {} handout", scenario.id, side.id), bytes));
        }
    }
    check(&docs);
}

/// Each page's text, in page order.
fn pages_text(bytes: &[u8]) -> Vec<String> {
    let doc = Document::load_mem(bytes).expect("the PDF parses");
    doc.get_pages()
        .keys()
        .map(|p| doc.extract_text(&[*p]).expect("text extracts"))
        .collect()
}

/// A game of a shipped scenario, a few entries in: a note, and (where it has one) a leader taken
/// off the table, whose "removed (…)" line is the longest a report prints.
fn game_of(source: &SourceFile, lib: &Library, n: usize) -> Game {
    let path = scratch().join(format!("game-{n}.umpire"));
    let _ = std::fs::remove_file(&path);
    let mut game = Game::create(&path, source, lib, Some(7)).expect("game");
    let umpire = Actor::umpire();
    game.act(
        &umpire,
        Action::Note {
            text: "The umpire's note for the turn".into(),
        },
    )
    .expect("note");
    let leader = game
        .state()
        .counters
        .values()
        .find(|c| c.kind == umpire::game::scenario::CounterKind::Leader)
        .map(|c| c.id.clone());
    if let Some(id) = leader {
        game.act(
            &umpire,
            Action::Remove {
                counter: id.as_str().into(),
                reason: "Capitano eliminated in the assault on the town; his army retreats".into(),
            },
        )
        .expect("remove");
    }
    game
}

#[test]
fn turn_and_after_action_reports_are_legible_on_the_page() {
    let lib = Library::shipped();
    let mut docs = Vec::new();
    for (n, source) in shipped_scenarios().iter().enumerate() {
        let game = game_of(source, &lib, n);
        let sides: Vec<String> = game.scenario().sides.iter().map(|s| s.id.clone()).collect();
        let views = std::iter::once(None).chain(sides.iter().map(Some));
        for side in views {
            for turn in [Some(1), None] {
                let options = ReportOptions {
                    turn,
                    side: side.cloned(),
                    printed_at: chrono::Local::now(),
                };
                let bytes = umpire::report::turn_report_pdf(
                    &game,
                    &options,
                    Template::sheet_default().expect("template"),
                )
                .expect("report");
                docs.push(sheet(
                    format!(
                        "{} report {} {}",
                        source.name,
                        side.map_or("umpire", String::as_str),
                        turn.map_or("whole game".into(), |t| format!("turn {t}"))
                    ),
                    bytes,
                ));
            }
        }
    }
    check(&docs);
}

#[test]
fn megagame_papers_are_legible_on_the_page() {
    use umpire::report::megagame::{
        PaperOptions, announcements_pdf, control_log_pdf, known_teams, statement_pdf,
    };
    let lib = Library::shipped();
    let source = shipped_scenarios()
        .into_iter()
        .find(|s| s.name.starts_with("scenarios/rr3/"))
        .expect("the rr3 scenario");
    let game = game_of(&source, &lib, 100);
    let options = PaperOptions {
        turn: None,
        printed_at: chrono::Local::now(),
    };
    let t = || Template::sheet_default().expect("template");
    let mut docs = vec![
        sheet(
            "rr3 announcements".into(),
            announcements_pdf(&game, &options, t()).expect("announcements"),
        ),
        sheet(
            "rr3 Control log".into(),
            control_log_pdf(&game, &options, t()).expect("log"),
        ),
    ];
    let teams = known_teams(&game);
    assert!(!teams.is_empty(), "the rr3 game has teams");
    for (id, _) in teams {
        docs.push(sheet(
            format!("rr3 statement {id}"),
            statement_pdf(&game, &id, &options, t()).expect("statement"),
        ));
    }
    check(&docs);
}
