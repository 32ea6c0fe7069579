//! The victory facts the Sequence of Play asks for at the desk, each where the walk offers it:
//! a battle's result (who won, or a draw) at the battle's result step, a victory a side may
//! declare at the Victory Phase, and the end of the game (the End of Game marker passed) with
//! the umpire's reason. Each button queues one journal entry; the engine's checks refuse what
//! the rules do not allow (a winner other than the one the battle's own rolls show).

use eframe::egui::{self, RichText, Ui};

use umpire_core::game::sequence::Pending;
use umpire_core::game::{Action, VictoryFact};

use super::commands::Command;
use super::live::LiveGame;

/// Start of a battle's result button ("Won by the French").
pub const WON_BY_LABEL: &str = "Won by the";
/// The button that records a battle fought to no winner.
pub const DRAW_LABEL: &str = "A draw";
/// Start of the button that declares a victory ("Declare: Swiss Decisive Victory").
pub const DECLARE_LABEL: &str = "Declare:";
/// The button that records a condition the umpire judges as holding.
pub const HOLDS_LABEL: &str = "It holds";
/// The button that records a condition the umpire judges as not holding.
pub const FAILS_LABEL: &str = "It does not hold";
/// The menu that ends the game now, with a reason.
pub const END_MENU_LABEL: &str = "End the game…";
/// The reason field of the end menu.
pub const END_REASON_LABEL: &str = "Why the game ends now";
/// The button in the end menu that ends it.
pub const END_NOW_LABEL: &str = "End it now";

/// A battle's result step: the side its rolls show as the winner, or each side and a draw when
/// nothing shows one yet.
pub fn battle_result_ui(ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
    let game = live.game();
    let Some(here) = umpire_core::game::victory::battle_here(game.steps(), game.state()) else {
        return;
    };
    let scenario = game.scenario();
    let record = |side: Option<String>| {
        Command::Act(Action::Victory(match side {
            Some(side) => VictoryFact::BattleWon {
                side,
                battle: here.battle.kind.clone(),
                reason: None,
            },
            None => VictoryFact::BattleDrawn {
                battle: here.battle.kind.clone(),
                reason: None,
            },
        }))
    };
    // The winner its own rolls show is the only one the journal takes: one button.
    let sides: Vec<String> = match &here.winner {
        Some((side, _)) => vec![side.clone()],
        None => scenario.sides.iter().map(|s| s.id.clone()).collect(),
    };
    for side in sides {
        let words = umpire_core::game::words::side_words(scenario, &side);
        if ui
            .button(RichText::new(format!("{WON_BY_LABEL} {words}")).strong())
            .on_hover_text(format!(
                "Record the {} won by the {words}: the victory conditions read it",
                here.battle.name
            ))
            .clicked()
        {
            queue.push(record(Some(side.clone())));
        }
    }
    if here.winner.is_none()
        && ui
            .button(DRAW_LABEL)
            .on_hover_text(format!(
                "Record the {} fought to no winner (both are losers)",
                here.battle.name
            ))
            .clicked()
    {
        queue.push(record(None));
    }
}

/// A victory a side may declare at this Victory Phase: one button that ends the game with it.
pub fn declare_ui(ui: &mut Ui, live: &LiveGame, p: &Pending, queue: &mut Vec<Command>) {
    let Some(id) = p.key.strip_prefix("victory:declare:") else {
        return;
    };
    let scenario = live.game().scenario();
    let title = scenario
        .victory
        .iter()
        .find(|v| v.id == id)
        .map_or_else(|| id.replace('_', " "), |v| v.title.clone());
    if ui
        .button(RichText::new(format!("{DECLARE_LABEL} {title}")).strong())
        .on_hover_text("The side declares it: the game ends now with this result")
        .clicked()
    {
        let turn = live.status().turn;
        queue.push(Command::Act(Action::EndGame {
            declare: Some(id.to_string()),
            reason: format!("declared at the Victory Phase of turn {turn}"),
        }));
    }
}

/// A condition the end would leave to the umpire ("no French Force occupies a Fortress east of
/// the Adda"): judged here, holding or not, before the game ends. Other needs (a place's kind,
/// a City's die) are given where they are recorded; the item says which.
pub fn judge_ui(ui: &mut Ui, live: &LiveGame, p: &Pending, queue: &mut Vec<Command>) {
    let Some(rest) = p.key.strip_prefix("victory:needed:") else {
        return;
    };
    let (id, side) = rest
        .split_once(':')
        .map_or((rest, None), |(i, s)| (i, Some(s.to_string())));
    // Once, under the first of them.
    let first = live
        .pending_shown()
        .into_iter()
        .find(|x| x.key.starts_with("victory:needed:") && !x.done)
        .is_some_and(|x| x.key == p.key);
    if first {
        place_kinds_ui(ui, live, queue);
    }
    let Some(item) = live.game().scenario().victory.iter().find(|v| {
        v.id == id
            && v.check
                .as_ref()
                .and_then(|c| c.condition.as_ref())
                .is_some_and(umpire_core::game::victory::asks_the_umpire)
    }) else {
        return;
    };
    // An item of one side is judged as it stands; one judged for each side names the side.
    let side = if item.side.is_some() { None } else { side };
    for (label, holds) in [(HOLDS_LABEL, true), (FAILS_LABEL, false)] {
        if ui
            .button(label)
            .on_hover_text("Record the umpire's judgement of this condition, for the journal")
            .clicked()
        {
            queue.push(Command::Act(Action::Victory(VictoryFact::Judged {
                item: id.to_string(),
                side: side.clone(),
                holds,
                reason: "judged by the umpire at the table before the game ends".into(),
            })));
        }
    }
}

/// The places the end scores by their kind where nothing says which they are: a Town or a
/// City for each, read off the map, one entry each.
fn place_kinds_ui(ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
    let game = live.game();
    let open = umpire_core::game::victory::places_needing_kind(game.scenario(), game.state());
    if open.is_empty() {
        return;
    }
    // One row a place, under the item (the row of actions wraps around it).
    ui.end_row();
    ui.vertical(|ui| {
        for place in &open {
            ui.horizontal(|ui| place_kind_row(ui, place, queue));
        }
    });
    ui.end_row();
}

/// "Alessandria: [Town] [City]".
fn place_kind_row(ui: &mut Ui, place: &str, queue: &mut Vec<Command>) {
    {
        ui.label(RichText::new(format!("{place}:")).small());
        for (kind, words) in [
            (umpire_core::rules::PlaceKind::Town, "Town"),
            (umpire_core::rules::PlaceKind::City, "City"),
        ] {
            if ui
                .small_button(words)
                .on_hover_text(format!(
                    "Record {place} as a {words}, as the map prints it: the Victory Points read it"
                ))
                .clicked()
            {
                queue.push(Command::Act(Action::Victory(VictoryFact::PlaceKind {
                    place: place.to_string(),
                    kind,
                    reason: "read off the map at the table".into(),
                })));
            }
        }
    }
}

/// "End the game…": the End of Game marker passed or the umpire's ruling, with the reason
/// typed (the result is the one the conditions give now). Offered at a Victory Phase and on
/// the last turn.
pub fn end_menu_ui(ui: &mut Ui, live: &LiveGame, reason: &mut String, queue: &mut Vec<Command>) {
    let status = live.status();
    let game = live.game();
    let at_victory = game
        .steps()
        .get(game.state().cursor.step)
        .is_some_and(umpire_core::game::victory::is_victory_step);
    if status.victory.ended.is_some() || live.seen_by().is_some() {
        return;
    }
    if !at_victory && status.turn < status.turns {
        return;
    }
    egui::containers::menu::MenuButton::new(END_MENU_LABEL)
        .config(
            egui::containers::menu::MenuConfig::new()
                .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside),
        )
        .ui(ui, |ui| {
            if let Some(line) = status.victory.headline() {
                ui.label(RichText::new(line).small());
            }
            let label = ui.label(END_REASON_LABEL);
            ui.add(
                egui::TextEdit::singleline(reason)
                    .hint_text("the End of Game marker passed…")
                    .desired_width(240.0),
            )
            .labelled_by(label.id)
            .on_hover_text("Why the game ends now, for the journal");
            if ui
                .add_enabled(!reason.trim().is_empty(), egui::Button::new(END_NOW_LABEL))
                .on_hover_text("End the game with the result the conditions give now")
                .clicked()
            {
                queue.push(Command::Act(Action::EndGame {
                    declare: None,
                    reason: reason.trim().to_string(),
                }));
                reason.clear();
                ui.close();
            }
        })
        .0
        .on_hover_text("End the game now, with the reason for the journal");
}

/// The result over the table once the game has ended: who won, at what level, by which
/// condition.
pub fn result_banner_ui(ui: &mut Ui, live: &LiveGame) {
    let Some(result) = live.status().victory.ended.as_ref() else {
        return;
    };
    let (fill, ink) = if result.winner.is_some() {
        (
            egui::Color32::from_rgb(31, 58, 96),
            egui::Color32::from_rgb(255, 246, 214),
        )
    } else {
        (egui::Color32::from_gray(70), egui::Color32::WHITE)
    };
    egui::Frame::new()
        .fill(fill)
        .inner_margin(egui::Margin::symmetric(14, 10))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            let title = match (&result.winner, &result.level) {
                (Some(w), Some(level)) => format!(
                    "{} — {level}",
                    umpire_core::game::words::side_words(live.game().scenario(), w)
                ),
                (Some(w), None) => format!(
                    "The {} win",
                    umpire_core::game::words::side_words(live.game().scenario(), w)
                ),
                (None, _) => "No side wins".to_string(),
            };
            ui.label(RichText::new(title).size(22.0).strong().color(ink));
            ui.label(
                RichText::new(format!("The game is over: {}", result.sentence))
                    .size(15.0)
                    .color(ink),
            );
        });
}
