//! The desk window, driven headless through its AccessKit labels (egui_kittest, no GPU).

use crate::kit;
use kit::labels_containing;

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use umpire::app::{
    CHART_RESULT_LABEL, DeskApp, PHYSICAL_DICE_LABEL, ProcedureDesk, USE_CHART_LABEL,
    USE_PHYSICAL_LABEL,
};
use umpire::rules::Library;

const QRS_NAME: &str = "Renaissance miniatures QRS (BU / VBU / VD)";

/// The desk on the shipped rulesets, in a window big enough to show every section.
fn desk() -> Harness<'static, DeskApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(|cc| DeskApp::new(cc, ProcedureDesk::with_seed(Library::shipped(), 2024)))
}

/// Picks ruleset qrs and its Discipline Test by clicking, as an umpire would.
fn open_discipline_test(harness: &mut Harness<'static, DeskApp>) {
    harness.get_by_label("Ruleset").click();
    harness.run();
    harness
        .get_by_role_and_label(Role::Button, QRS_NAME)
        .click();
    harness.run();
    // The procedure list entry (the central heading carries the same text as a plain label).
    harness
        .get_by_role_and_label(Role::Button, "Discipline Test")
        .click();
    harness.run();
    assert_eq!(
        harness.state().desk.procedure().map(|p| p.id.as_str()),
        Some("discipline_test")
    );
}

/// Chooses `choice` in the combo box labelled `label`.
fn choose(harness: &mut Harness<'static, DeskApp>, label: &str, choice: &str) {
    harness.get_by_label(label).click();
    harness.run();
    harness.get_by_role_and_label(Role::Button, choice).click();
    harness.run();
}

/// Types physical dice and presses "Use physical dice".
fn throw_physical(harness: &mut Harness<'static, DeskApp>, faces: &str) {
    harness.get_by_label(PHYSICAL_DICE_LABEL).click();
    harness.run();
    harness.get_by_label(PHYSICAL_DICE_LABEL).type_text(faces);
    harness.run();
    harness.get_by_label(USE_PHYSICAL_LABEL).click();
    harness.run();
}

#[test]
fn discipline_test_with_physical_dice_fails_outside_command_range() {
    let mut harness = desk();
    open_discipline_test(&mut harness);

    choose(&mut harness, "Discipline", "C");
    harness
        .get_by_role_and_label(Role::CheckBox, "Outside Command Range")
        .click();
    harness.run();

    // Live update before any roll: C needs 5, −1 for Outside Command Range, a natural 6 passes.
    harness.get_by_label("1/6");
    harness.get_by_label("5/6");
    assert!(
        harness.query_by_label("1/2").is_none(),
        "odds did not follow the inputs"
    );

    throw_physical(&mut harness, "5");

    // 5 − 1 = 4 < 5: Fail, with the modifier in the explanation.
    harness.get_by_label("Result: Fail");
    assert!(harness.query_by_label("Result: Pass").is_none());
    let lines = labels_containing(&harness, "Outside Command Range");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Modifier: Outside Command Range") && l.contains("−1")),
        "no explanation line for the modifier among {lines:?}"
    );
    assert!(
        !labels_containing(&harness, "Modified roll: 5 − 1 = 4").is_empty(),
        "no modified-roll line among {:?}",
        labels_containing(&harness, "Modified roll")
    );
    assert!(!labels_containing(&harness, "physical dice").is_empty());

    // The session log has the result, and the state agrees with what is shown.
    let desk = &harness.state().desk;
    assert_eq!(desk.log().len(), 1);
    assert_eq!(desk.log()[0].outcome, "Fail");
    assert_eq!(
        desk.last_result().map(|r| r.outcome.code.as_str()),
        Some("fail")
    );
    assert!(!labels_containing(&harness, "d6 rolled 5 (physical dice) → Fail").is_empty());
}

#[test]
fn odds_bars_show_one_half_for_discipline_b() {
    let mut harness = desk();
    open_discipline_test(&mut harness);

    // The QRS gives no Discipline by default: the field is empty and the odds say so.
    assert!(
        !labels_containing(&harness, "needs: Discipline").is_empty(),
        "the odds name the missing input"
    );
    assert!(
        harness.state().desk.input("discipline").is_none(),
        "no Discipline assumed"
    );
    assert!(harness.query_by_label("2/3").is_none(), "no odds yet");

    // Discipline A: pass on 3+, so 2/3 against 1/3.
    choose(&mut harness, "Discipline", "A");
    harness.get_by_label("2/3");
    harness.get_by_label("1/3");
    assert!(harness.query_by_label("1/2").is_none());

    choose(&mut harness, "Discipline", "B");

    // B passes on 4, 5, 6: one bar each for Pass and Fail at exactly 1/2.
    assert_eq!(harness.get_all_by_label("1/2").count(), 2);
    assert_eq!(harness.get_all_by_label("50.0%").count(), 2);
    assert!(
        harness.query_by_label("2/3").is_none(),
        "stale odds still shown"
    );
    assert_eq!(
        harness
            .state()
            .desk
            .preview()
            .and_then(|p| p.odds.as_ref().ok())
            .map(|o| o.outcomes.len()),
        Some(2)
    );
}

#[test]
fn an_impossible_face_is_an_inline_error_not_a_panic() {
    let mut harness = desk();
    open_discipline_test(&mut harness);
    choose(&mut harness, "Discipline", "A");

    throw_physical(&mut harness, "7");

    assert!(!labels_containing(&harness, "7 is not a face of a d6").is_empty());
    assert!(labels_containing(&harness, "Result: ").is_empty());
    assert!(harness.state().desk.log().is_empty());
}

#[test]
fn app_rolls_continue_the_session_stream_and_log_newest_first() {
    let mut harness = desk();
    open_discipline_test(&mut harness);
    choose(&mut harness, "Discipline", "A");

    harness.get_by_label("Roll").click();
    harness.run();
    harness.get_by_label("Roll").click();
    harness.run();

    let desk = &harness.state().desk;
    assert_eq!(desk.app_dice().next_draw(), 2);
    assert_eq!(desk.log().len(), 2);
    assert!(desk.log()[0].dice.contains("app dice, draw 0"));
    assert!(desk.log()[1].dice.contains("app dice, draw 1"));
    assert_eq!(labels_containing(&harness, "Result: ").len(), 1);
    harness.get_by_label("seed 2024 · next draw 2");
}

#[test]
fn every_symbol_the_engine_writes_has_a_glyph() {
    // The harness panics on a missing glyph. These are the non-ASCII characters of the engine's
    // messages and the desk's own, plus every one in the shipped rulesets (read here, so that a
    // new ruleset with a new symbol is covered too).
    let mut symbols: Vec<char> = "– → — … − ≤ ≥ ⌊ ⌋ ⌈ ⌉ × ÷ ° § · • ± ≈ †"
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    for files in umpire::rules::shipped_sources() {
        for file in std::iter::once(&files.ruleset).chain(&files.tables) {
            symbols.extend(
                file.text
                    .chars()
                    .filter(|c| !c.is_ascii() && !c.is_whitespace()),
            );
        }
    }
    symbols.sort_unstable();
    symbols.dedup();
    let text: String = symbols.iter().flat_map(|c| [*c, ' ']).collect();
    let mut harness = Harness::builder()
        .with_context_setup(umpire::app::install_fonts)
        .build_ui(|ui| {
            ui.label(&text);
            ui.label(egui::RichText::new(&text).strong());
            ui.label(egui::RichText::new(&text).monospace());
            ui.heading(&text);
        });
    harness.run();
    assert_eq!(harness.get_all_by_label(&text).count(), 4);
}

/// A small ruleset whose chart has cells missing from the rule text (printed on a chart sheet
/// the umpire has on the table).
fn chart_library() -> Library {
    use umpire::rules::{RulesetFiles, SourceFile};
    let ruleset = r#"
id: chart
name: Chart with gaps
procedures:
  - id: sortie
    name: Sortie
    rule: "§7.1"
    inputs:
      - {name: sortie_type, type: choice, choices: [raid, breakout], label: Sortie type}
    roll: d6
    lookup:
      table: {table: sortie, column: sortie_type}
"#;
    let table = r#"
id: sortie
title: Sortie Table
rule: "§7.1"
roll: d6
column_key: name
columns: [raid, breakout]
rows:
  - {key: 1-2, cells: [R, R]}
  - {key: 3-4, cells: [S, "?"]}
  - {key: 5-6, cells: [S, "?"]}
results:
  R: {label: Repulsed, effects: [{kind: sp_loss, side: attacker, amount: 1}]}
  S: {label: Success, effects: [{kind: advance, side: attacker, amount: 1}]}
  B: {label: Breakout, effects: [{kind: move, side: attacker, text: leaves the fortress}]}
"#;
    let library = Library::load(&[RulesetFiles {
        ruleset: SourceFile {
            name: "chart/ruleset.yaml".into(),
            text: ruleset.into(),
        },
        tables: vec![SourceFile {
            name: "chart/sortie.yaml".into(),
            text: table.into(),
        }],
    }]);
    assert!(
        library.failed.is_empty(),
        "test ruleset does not load: {:?}",
        library.failed
    );
    library
}

#[test]
fn a_missing_chart_cell_asks_for_the_result_read_off_the_chart() {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_eframe(|cc| DeskApp::new(cc, ProcedureDesk::with_seed(chart_library(), 1)));
    choose(&mut harness, "Sortie type", "Breakout");
    // Odds say which share of throws the rule text cannot settle.
    harness.get_by_label("not in the rule text (chart cell missing)");
    harness.get_by_label("2/3");

    throw_physical(&mut harness, "4");
    assert!(
        !labels_containing(&harness, "row 3-4, column Breakout is not in the rule text — read the result off your chart sheet and enter it below").is_empty()
    );
    assert!(labels_containing(&harness, "Result: ").is_empty());

    harness.get_by_label(CHART_RESULT_LABEL).click();
    harness.run();
    harness.get_by_label(CHART_RESULT_LABEL).type_text("B");
    harness.run();
    harness.get_by_label(USE_CHART_LABEL).click();
    harness.run();

    harness.get_by_label("Result: Breakout");
    // The desk marks the result as read off the chart; the explanation names the cell.
    harness.get_by_label("Read off the physical chart.");
    let lines = labels_containing(&harness, "row 3-4, column Breakout");
    assert!(
        lines.iter().any(|l| l.contains("chart") && l.contains('B')),
        "no explanation line for the chart cell among {lines:?}"
    );
    assert!(
        harness.query_by_label(CHART_RESULT_LABEL).is_none(),
        "the chart field should close"
    );
    assert_eq!(harness.state().desk.log().len(), 1);
    assert!(harness.state().desk.log()[0].from_chart);
}

#[test]
fn a_chart_result_replays_the_same_app_dice() {
    let mut desk = ProcedureDesk::with_seed(chart_library(), 99);
    desk.set_input("sortie_type", umpire::rules::Value::Text("breakout".into()));
    // Roll until a throw lands on a missing cell (3–6 on the d6: two throws in three).
    let mut draw = None;
    for _ in 0..64 {
        let before = desk.app_dice().next_draw();
        desk.roll();
        if desk.pending_chart().is_some() {
            draw = Some(before);
            break;
        }
    }
    let draw = draw.expect("no throw landed on a missing cell in 64 draws");
    let after = desk.app_dice().next_draw();
    desk.chart_entry = "B".into();
    desk.use_chart_result();
    let result = desk.last_result().expect("the chart result resolves");
    assert_eq!(result.outcome.code, "B");
    match &result.rolls[0].provenance {
        umpire::dice::Provenance::App { first_draw, .. } => assert_eq!(*first_draw, draw),
        other => panic!("expected app dice, got {other:?}"),
    }
    assert!(
        result.rolls[0].faces()[0] >= 3,
        "replayed a different throw: {:?}",
        result.rolls[0]
    );
    assert_eq!(
        desk.app_dice().next_draw(),
        after,
        "entering the chart result must not throw again"
    );
    assert!(desk.pending_chart().is_none());
}

#[test]
fn switching_a_ruling_changes_the_odds() {
    // RR3 mutiny (L590 against its own example at L592): with 3 Arrears boxes the example's
    // reading mutinies on 1–3 (1/2), the rule's wording on 1–2 (1/3).
    let mut desk = ProcedureDesk::with_seed(Library::shipped(), 7);
    let rr3 = desk
        .library()
        .rulesets
        .iter()
        .position(|r| r.id == "rr3")
        .expect("rr3 ships");
    desk.select_ruleset(rr3);
    let mutiny = desk.library().rulesets[rr3]
        .procedures
        .iter()
        .position(|p| p.id == "mutiny")
        .expect("mutiny");
    desk.select_procedure(mutiny);
    desk.set_input("arrears", umpire::rules::Value::Int(3));
    let chance = |desk: &mut ProcedureDesk| {
        let preview = desk.refresh().expect("preview");
        let odds = preview.odds.as_ref().expect("odds");
        odds.outcomes
            .iter()
            .find(|o| o.code == "mutiny")
            .map(|o| o.fraction.to_string())
            .expect("mutiny outcome")
    };
    assert_eq!(chance(&mut desk), "1/2");
    desk.set_ruling("mutiny_comparator", "less_than_rule");
    assert_eq!(chance(&mut desk), "1/3");
    desk.set_ruling("mutiny_comparator", "nonsense");
    assert!(
        desk.error()
            .is_some_and(|e| e.contains("no option 'nonsense'")),
        "{:?}",
        desk.error()
    );
}
