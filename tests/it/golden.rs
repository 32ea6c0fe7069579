//! Every kind of printed paper, looked at as a picture: each is made the way a user makes it
//! (the command line), checked as a file (`qpdf --check`, fonts embedded as subsets with
//! `pdffonts`), and its first page is rendered (`pdftoppm`, grey, 24 dpi) and compared with a
//! golden image in `tests/it/golden/`. The comparison allows for a renderer's antialiasing
//! and for the few words that change from run to run (the date printed, a journal hash):
//! at most 2 % of the pixels may differ by more than a quarter of the grey range. A page
//! laid out anew (a column moved, a table lost, a page turned) differs in far more.
//!
//! After a deliberate change of layout, look at the new pages and take them as the golden ones:
//! `UMPIRE_UPDATE_GOLDEN=1 cargo test --test it golden`. With `UMPIRE_KEEP_PDFS=DIR` every PDF
//! made here is copied to DIR, to read page by page.

use std::path::{Path, PathBuf};

use crate::cli::umpire;

/// One kind of paper: a name, the command line that makes it, and whether it is landscape.
struct Kind {
    name: &'static str,
    args: Vec<String>,
    landscape: bool,
}

fn kind(name: &'static str, args: &[&str]) -> Kind {
    Kind {
        name,
        args: args.iter().map(|a| a.to_string()).collect(),
        landscape: false,
    }
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/golden")
}

/// A grey image read from a binary PGM (`P5`), the format `pdftoppm -gray` writes.
struct Grey {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

fn read_pgm(path: &Path) -> Grey {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // Header: "P5", width, height, maxval, each separated by white space, then one space.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).to_string());
    }
    at += 1;
    assert_eq!(fields[0], "P5", "{}: not a binary PGM", path.display());
    assert_eq!(fields[3], "255", "{}: not 8-bit", path.display());
    let width: usize = fields[1].parse().expect("width");
    let height: usize = fields[2].parse().expect("height");
    let pixels = bytes[at..].to_vec();
    assert_eq!(
        pixels.len(),
        width * height,
        "{}: short image",
        path.display()
    );
    Grey {
        width,
        height,
        pixels,
    }
}

/// The share of pixels (0–1) that differ by more than 64 grey levels.
fn differing_share(a: &Grey, b: &Grey) -> f64 {
    let differing = a
        .pixels
        .iter()
        .zip(&b.pixels)
        .filter(|(x, y)| x.abs_diff(**y) > 64)
        .count();
    differing as f64 / a.pixels.len() as f64
}

fn ink_share(image: &Grey) -> f64 {
    image.pixels.iter().filter(|p| **p < 160).count() as f64 / image.pixels.len() as f64
}

fn check_file(name: &str, pdf: &Path) {
    let check = crate::common::tool::command("qpdf")
        .arg("--check")
        .arg(pdf)
        .output()
        .expect("qpdf runs");
    assert!(check.status.success(), "qpdf --check {name}: {check:?}");
    let fonts = crate::common::tool::command("pdffonts")
        .arg(pdf)
        .output()
        .expect("pdffonts runs");
    let fonts = String::from_utf8_lossy(&fonts.stdout).to_string();
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!rows.is_empty(), "{name}: no fonts\n{fonts}");
    for row in rows {
        assert!(
            row.contains("yes yes"),
            "{name}: a font not embedded as a subset: {row}"
        );
    }
}

fn render_first_page(pdf: &Path, prefix: &Path) -> Grey {
    let render = crate::common::tool::command("pdftoppm")
        .args(["-gray", "-r", "24", "-f", "1", "-l", "1", "-singlefile"])
        .arg(pdf)
        .arg(prefix)
        .output()
        .expect("pdftoppm runs");
    assert!(
        render.status.success(),
        "pdftoppm {}: {render:?}",
        pdf.display()
    );
    read_pgm(&prefix.with_extension("pgm"))
}

#[test]
fn every_kind_of_paper_is_well_formed_and_looks_as_it_did() {
    let dir = std::env::temp_dir().join(format!("umpire-golden-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let venice = dir.join("venice.umpire");
    drop(crate::kit::venice_turn_one(&venice));
    let mega = crate::megagame_paper::played_game(&dir);
    let venice = venice.to_str().expect("utf-8").to_string();
    let mega = mega.to_str().expect("utf-8").to_string();

    let mut kinds = vec![
        kind("turn-report", &["report", &venice, "--turn", "1"]),
        kind(
            "side-report",
            &["report", &venice, "--turn", "1", "--side", "venetian"],
        ),
        kind(
            "team-statement",
            &["megagame", "statement", &mega, "--team", "france"],
        ),
        kind("gazette", &["megagame", "announcements", &mega]),
        kind("control-log", &["megagame", "log", &mega]),
        kind(
            "handout",
            &["sheet", "ailsh_1_venice_at_bay_1509", "--side", "venetian"],
        ),
        kind("megagame-handout", &["sheet", "rr3_handbook_1524"]),
        kind("fill-in", &["charts", "ailsh", "--table", "attrition"]),
    ];
    for ruleset in ["ailsh", "arquebus", "gradisca", "qrs", "rr3"] {
        let name: &'static str = Box::leak(format!("cards-{ruleset}").into_boxed_str());
        kinds.push(kind(name, &["charts", ruleset, "--cards"]));
    }
    kinds.push(Kind {
        landscape: true,
        ..kind(
            "cards-landscape",
            &["charts", "ailsh", "--cards", "--landscape"],
        )
    });

    let update = std::env::var_os("UMPIRE_UPDATE_GOLDEN").is_some();
    let keep = std::env::var_os("UMPIRE_KEEP_PDFS").map(PathBuf::from);
    let mut failures = Vec::new();
    for kind in &kinds {
        let pdf = dir.join(format!("{}.pdf", kind.name));
        let mut args: Vec<&str> = kind.args.iter().map(String::as_str).collect();
        args.extend(["-o", pdf.to_str().expect("utf-8")]);
        let run = umpire(&args);
        assert!(run.success, "umpire {args:?}:\n{}", run.show());
        check_file(kind.name, &pdf);
        if let Some(keep) = &keep {
            std::fs::create_dir_all(keep).expect("keep dir");
            std::fs::copy(&pdf, keep.join(format!("{}.pdf", kind.name))).expect("keep");
        }
        let page = render_first_page(&pdf, &dir.join(kind.name));
        assert_eq!(
            page.width > page.height,
            kind.landscape,
            "{}: {} × {}",
            kind.name,
            page.width,
            page.height
        );
        let ink = ink_share(&page);
        assert!(
            ink > 0.01,
            "{}: a page with almost nothing on it ({ink:.3})",
            kind.name
        );
        let golden = golden_dir().join(format!("{}.pgm", kind.name));
        if update || !golden.exists() && std::env::var_os("CI").is_none() {
            std::fs::create_dir_all(golden_dir()).expect("golden dir");
            std::fs::copy(dir.join(format!("{}.pgm", kind.name)), &golden).expect("golden");
            eprintln!("note: took {} as the golden page", golden.display());
            continue;
        }
        assert!(
            golden.exists(),
            "{}: no golden page at {} (make it with UMPIRE_UPDATE_GOLDEN=1)",
            kind.name,
            golden.display()
        );
        let expected = read_pgm(&golden);
        if (expected.width, expected.height) != (page.width, page.height) {
            failures.push(format!(
                "{}: {} × {} now, {} × {} in the golden page",
                kind.name, page.width, page.height, expected.width, expected.height
            ));
            continue;
        }
        let share = differing_share(&page, &expected);
        if share > 0.02 {
            failures.push(format!(
                "{}: {:.1} % of the page differs from the golden one",
                kind.name,
                share * 100.0
            ));
        }
    }
    // The comparison can tell two kinds of page apart.
    let cards = read_pgm(&golden_dir().join("cards-qrs.pgm"));
    let handout = read_pgm(&golden_dir().join("handout.pgm"));
    assert!(differing_share(&cards, &handout) > 0.02);
    assert!(
        failures.is_empty(),
        "pages that changed (look at them; if the change is meant, UMPIRE_UPDATE_GOLDEN=1):\n{}",
        failures.join("\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
