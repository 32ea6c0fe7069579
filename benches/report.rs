//! Printing benchmarks: a 500-event turn report (target ≤ 300 ms) and the size of a one-page
//! scenario sheet (target ≤ 100 KB, fonts subset), printed once.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use umpire::game::CounterId;

use criterion::{Criterion, criterion_group, criterion_main};
use umpire::game::Actor;
use umpire::game::scenario::{Position, load_scenario};
use umpire::game::{Action, Game};
use umpire::report::{ReportOptions, Template, scenario_pdf, turn_report_pdf};
use umpire::rules::{Library, SourceFile};

fn fixture() -> SourceFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scenarios/skirmish.yaml");
    SourceFile {
        name: path.display().to_string(),
        text: std::fs::read_to_string(&path).expect("fixture"),
    }
}

fn five_hundred(lib: &Library) -> Game {
    five_hundred_undoing(lib, "report", None)
}

/// 500 entries: a discipline test, a move and a note in turn, and where `undo_every` says, an
/// undo of the entry before (every other one redone at once).
fn five_hundred_undoing(lib: &Library, name: &str, undo_every: Option<u64>) -> Game {
    let shm = PathBuf::from("/dev/shm");
    let base = if shm.is_dir() {
        shm
    } else {
        std::env::temp_dir()
    };
    let path = base.join(format!("umpire-bench-{name}-{}.umpire", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut game = Game::create(&path, &fixture(), lib, Some(3)).expect("create");
    let mut i = 0u64;
    while game.events().len() < 500 {
        if let Some(n) = undo_every
            && i % n == n - 1
        {
            game.act(&Actor::umpire(), Action::Undo).expect("undo");
            if (i / n).is_multiple_of(2) {
                game.act(&Actor::umpire(), Action::Redo).expect("redo");
            }
            i += 1;
            continue;
        }
        let action = match i % 3 {
            0 => Action::Resolve {
                procedure: "discipline_test".into(),
                inputs: vec![("discipline".into(), "B".into())],
                physical: None,
                chart_result: None,
                chart_confirmed: false,
                counters: [("unit".to_string(), vec![CounterId::from("red-horse")])].into(),
                item: None,
            },
            1 => Action::Move {
                counter: "red-horse".into(),
                to: Position::Free {
                    x: (i % 50) as f64,
                    y: 3.0,
                },
            },
            _ => Action::Note {
                text: format!("note {i}: Cateau-Cambrésis"),
            },
        };
        game.act(&Actor::umpire(), action).expect("act");
        i += 1;
    }
    game
}

fn benches(c: &mut Criterion) {
    let lib = Library::shipped();
    let game = five_hundred(&lib);
    let options = ReportOptions {
        turn: Some(1),
        side: None,
        printed_at: chrono::Local::now(),
    };
    let template = Template::sheet_default().expect("template");
    let bytes = turn_report_pdf(&game, &options, template.clone()).expect("report");
    println!("500-event turn report: {} bytes", bytes.len());
    c.bench_function("turn_report_500_events", |b| {
        b.iter(|| turn_report_pdf(black_box(&game), &options, template.clone()).expect("report"))
    });
    // A side's report of the whole game over a journal that undoes (and redoes) one entry in
    // ten: the side's sights, the after-action entries and the forces at the end.
    let undoing = five_hundred_undoing(&lib, "report-undoing", Some(10));
    let side = ReportOptions {
        turn: None,
        side: Some("red".into()),
        printed_at: chrono::Local::now(),
    };
    c.bench_function("side_report_500_events_undoing", |b| {
        b.iter(|| turn_report_pdf(black_box(&undoing), &side, template.clone()).expect("report"))
    });
    let scenario = load_scenario(&fixture(), &lib).expect("scenario");
    let ruleset = lib.get(&scenario.ruleset).expect("ruleset");
    let sheet = scenario_pdf(&scenario, ruleset, None, template.clone()).expect("sheet");
    println!(
        "one-page scenario sheet (tests/fixtures/scenarios/skirmish.yaml): {} bytes",
        sheet.len()
    );
    c.bench_function("scenario_sheet_one_page", |b| {
        b.iter(|| {
            scenario_pdf(black_box(&scenario), ruleset, None, template.clone()).expect("sheet")
        })
    });
    // The chart cards of "All is lost save Honour": every procedure as a card, two columns.
    let ailsh = lib.get("ailsh").expect("ailsh");
    let cards_template = Template::cards_default().expect("cards template");
    let cards =
        umpire::report::charts::chart_cards_pdf(ailsh, cards_template.clone()).expect("cards");
    println!("ailsh chart cards: {} bytes", cards.len());
    c.bench_function("chart_cards_ailsh", |b| {
        b.iter(|| {
            umpire::report::charts::chart_cards_pdf(black_box(ailsh), cards_template.clone())
                .expect("cards")
        })
    });
}

criterion_group!(report, benches);
criterion_main!(report);
