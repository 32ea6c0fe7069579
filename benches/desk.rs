//! Desk benchmark: the CPU time of one frame of the game view with 1,000 counters on the hex map
//! in 400 stacks of two or three, each stack drawn as a face (side colour, type symbol,
//! strength, count badge; the leader's name at the closer zoom), with the places of the
//! gazetteer (1920×1200, every panel), built headless with `egui::Context::run_ui` and
//! tessellated, as eframe does before handing the triangles to the GPU. No GPU, no window.
//! Target (2-core CI machine): ≤ 4 ms per frame.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use eframe::egui;
use umpire::app::{GameDesk, ProcedureDesk, Screen, Shell, set_up_look};
use umpire::game::Action;
use umpire::game::scenario::{Position, shipped_scenarios};
use umpire::rules::{Library, SourceFile};

/// `line` with every number that follows `key` replaced by `value`.
fn set_numbers(line: &str, key: &str, value: u32) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(key) {
        let after = &rest[at + key.len()..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        out.push_str(&rest[..at + key.len()]);
        if digits > 0 {
            out.push_str(&value.to_string());
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// "Venice at bay, 1509" with every force split into many counters, 1,000 of them moved onto a
/// 20 × 20 block of hexes, two or three to a hex.
fn thousand_counters(library: &Library) -> GameDesk {
    let base = shipped_scenarios()
        .into_iter()
        .find(|f| f.name.contains("s1_venice"))
        .expect("scenario 1 ships");
    let text: String = base
        .text
        .lines()
        .map(|l| {
            set_numbers(
                &set_numbers(&set_numbers(l, "{count: ", 60), "sp: ", 100),
                "max: ",
                10,
            ) + "\n"
        })
        .collect();
    let big = SourceFile {
        name: "big.yaml".into(),
        text,
    };
    let dir = std::env::temp_dir().join(format!("umpire-bench-desk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut game =
        GameDesk::create(&dir.join("thousand.umpire"), &big, library, Some(7)).expect("game");
    let ids: Vec<String> = game
        .game()
        .state()
        .counters
        .keys()
        .take(1000)
        .cloned()
        .collect();
    assert_eq!(ids.len(), 1000, "enough counters");
    for (i, id) in ids.iter().enumerate() {
        let k = i * 2 / 5;
        let hex = format!("{:02}{:02}", 10 + k % 20, 10 + k / 20);
        assert!(game.act(Action::Move {
            counter: id.clone().into(),
            to: Position::Hex(hex),
        }));
    }
    assert!(
        game.live.stacks().len() >= 400,
        "400 stacks and the set-up's"
    );
    game.map.zoom = 14.0;
    game.map.fitted = true;
    game
}

fn benches(c: &mut Criterion) {
    let library = Library::shipped();
    let mut game = Some(thousand_counters(&library));
    let mut desk = ProcedureDesk::with_seed(library, 1);
    let mut shell = Shell::new(None);
    shell.screen = Screen::Game;
    let ctx = egui::Context::default();
    set_up_look(&ctx);
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1920.0, 1200.0),
        )),
        ..Default::default()
    };
    let mut frame = || {
        let output = ctx.run_ui(input(), |ui| shell.frame_ui(ui, &mut desk, &mut game));
        ctx.tessellate(output.shapes, output.pixels_per_point)
    };
    // Fonts, layout caches and the map's stacks settle over the first frames.
    for _ in 0..5 {
        black_box(frame());
    }
    c.bench_function("game_view_frame_1000_counters", |b| {
        b.iter(|| black_box(frame()).len())
    });
    // The same frame without tessellation: the layout alone.
    c.bench_function("game_view_layout_1000_counters", |b| {
        b.iter(|| {
            let output = ctx.run_ui(input(), |ui| shell.frame_ui(ui, &mut desk, &mut game));
            black_box(output.shapes.len())
        })
    });
    // Closer: the faces with their leaders' names, fewer of them in view.
    if let Some(g) = game.as_mut() {
        g.map.zoom = 30.0;
    }
    let mut frame = || {
        let output = ctx.run_ui(input(), |ui| shell.frame_ui(ui, &mut desk, &mut game));
        ctx.tessellate(output.shapes, output.pixels_per_point)
    };
    for _ in 0..5 {
        black_box(frame());
    }
    c.bench_function("game_view_frame_faces_with_names", |b| {
        b.iter(|| black_box(frame()).len())
    });
}

criterion_group!(desk, benches);
criterion_main!(desk);
