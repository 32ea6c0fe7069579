//! Control's records at the desk (a megagame's `records:`): the charts as they stand
//! (Prestige, the Heavenly Status Chart), the registers (treaties, grievances with Control's
//! ruling), the votes of the Diet and this turn's bank grants — at the top of the Ledgers
//! panel. In a side's view only what that side may see: the public charts, its own treaties
//! and grievances, the votes, its own bank grants.

use eframe::egui::{self, RichText, Ui};
use umpire_core::game::Game;
use umpire_core::game::records::{RecordFact, title, words};

/// The records section; nothing when the ruleset keeps none.
pub fn records_ui(ui: &mut Ui, game: &Game, side: Option<&str>) {
    let declared = &game.ruleset().records;
    if declared.charts.is_empty() && declared.registers.is_empty() && declared.votes.is_empty() {
        return;
    }
    let team = |t: &str| umpire_core::game::records::team_name(game.scenario(), t);
    egui::CollapsingHeader::new(RichText::new("Charts, registers and votes").strong())
        .default_open(true)
        .show(ui, |ui| {
            let records = &game.state().records;
            for c in &declared.charts {
                let Some(s) = records.charts.get(&c.id) else {
                    ui.label(format!("{}: not yet set ({})", c.name, c.rule));
                    continue;
                };
                if side.is_some_and(|me| !c.public && !s.ranking.iter().any(|t| t == me)) {
                    continue;
                }
                let order: Vec<String> = s
                    .ranking
                    .iter()
                    .enumerate()
                    .map(|(i, t)| format!("{}. {}", i + 1, team(t)))
                    .collect();
                ui.label(RichText::new(format!("{} (turn {})", c.name, s.turn)).strong())
                    .on_hover_text(c.rewards.clone().unwrap_or_else(|| c.rule.clone()));
                ui.label(order.join("   "));
                ui.label(RichText::new(format!("moved by: {}", s.reason)).weak());
            }
            let turn = game.state().cursor.turn;
            for e in game.events() {
                let umpire_core::game::EventKind::Record { fact } = &e.kind else {
                    continue;
                };
                let mine = |teams: &[String]| side.is_none_or(|me| teams.iter().any(|t| t == me));
                let shown = match fact {
                    RecordFact::Chart { .. } => false,
                    RecordFact::Register { parties, .. } => mine(parties),
                    RecordFact::Ruling { entry, .. } => records
                        .registers
                        .iter()
                        .any(|r| r.entry == *entry && mine(&r.parties)),
                    RecordFact::Vote { .. } => true,
                    RecordFact::BankAccess { team: to, .. } => {
                        e.cursor.turn == turn && mine(std::slice::from_ref(to))
                    }
                };
                if shown {
                    ui.label(format!(
                        "{} · {}: {}",
                        e.cursor.turn,
                        title(game.ruleset(), fact),
                        words(game.ruleset(), game.scenario(), fact, &team)
                    ));
                }
            }
            death_rolls_ui(ui, game, side);
        });
    ui.separator();
}

/// Character Control's death-roll list for this turn (Control's desks only).
fn death_rolls_ui(ui: &mut Ui, game: &Game, side: Option<&str>) {
    if side.is_some() {
        return;
    }
    let turn = game.state().cursor.turn;
    let list = umpire_core::megagame::deaths::death_rolls(game, turn);
    if list.is_empty() {
        return;
    }
    ui.label(RichText::new(format!("Death rolls, turn {turn}")).strong())
        .on_hover_text("Character Control's list (Death, Marriage, Birth and Family › Death)");
    for l in list {
        let done = match &l.rolled {
            Some((entry, result)) => format!("{result} (entry {entry})"),
            None if l.alive => "not yet rolled".to_string(),
            None => "dead".to_string(),
        };
        ui.label(format!(
            "{}: {} — {done}",
            l.name,
            l.list.as_deref().unwrap_or("not on the list")
        ));
    }
}
