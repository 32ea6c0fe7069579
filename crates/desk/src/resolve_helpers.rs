//! A result read off the umpire's own chart, whose codes the text does not define: the
//! helpers that carry it to the counters by role — "attacker loses 1 SP" spread over the
//! Force by the ruleset's rule, a status on the Force — applied with the proposals in one
//! entry.

use std::collections::BTreeMap;

use eframe::egui::{self, RichText, Ui};

use umpire_core::game::CounterChange;

use super::{LOSES_LABEL, ROLE_STATUS_LABEL, ResolvePanel, ResolvedEntry};
use crate::live::LiveGame;

impl ResolvePanel {
    /// Types the loss a role takes ("attacker loses 1 SP") for a result read off the chart.
    pub fn set_role_loss(&mut self, role: &str, sp: &str) {
        if let Some(r) = &mut self.resolved {
            r.losses.insert(role.to_string(), sp.to_string());
        }
    }

    /// Gives a role a status for a result read off the chart (empty: none).
    pub fn set_role_status(&mut self, role: &str, status: &str) {
        if let Some(r) = &mut self.resolved {
            r.statuses.insert(role.to_string(), status.to_string());
        }
    }

    /// The helpers for a result read off the chart: for each role of the resolution, the SPs
    /// it loses and a status it takes.
    pub(super) fn chart_helpers_ui(&mut self, ui: &mut Ui, live: &LiveGame, entry: &ResolvedEntry) {
        let roles: Vec<String> = match live
            .game()
            .events()
            .get(entry.seq.saturating_sub(1) as usize)
            .map(|e| &e.kind)
        {
            Some(umpire_core::game::EventKind::Resolved { counters, .. }) => {
                counters.keys().cloned().collect()
            }
            _ => Vec::new(),
        };
        if roles.is_empty() {
            return;
        }
        let statuses: Vec<(String, String)> = live
            .game()
            .ruleset()
            .statuses
            .iter()
            .map(|s| (s.id.clone(), s.label.clone()))
            .collect();
        ui.add_space(4.0);
        ui.label(RichText::new("What your chart's result does").strong());
        for role in roles {
            ui.horizontal(|ui| {
                let mut sp = entry.losses.get(&role).cloned().unwrap_or_default();
                let label = ui.label(format!("{role} {LOSES_LABEL}"));
                if ui
                    .add(egui::TextEdit::singleline(&mut sp).desired_width(40.0))
                    .labelled_by(label.id)
                    .on_hover_text(format!("The strength points {role} loses"))
                    .changed()
                {
                    self.set_role_loss(&role, &sp);
                }
                let mut status = entry.statuses.get(&role).cloned().unwrap_or_default();
                let shown = statuses
                    .iter()
                    .find(|(id, _)| *id == status)
                    .map_or("—".to_string(), |(_, l)| l.clone());
                let before = status.clone();
                egui::ComboBox::from_label(format!("{role} {ROLE_STATUS_LABEL}"))
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut status, String::new(), "—")
                            .on_hover_text("No change");
                        for (id, label) in &statuses {
                            ui.selectable_value(&mut status, id.clone(), label)
                                .on_hover_text("This becomes of it");
                        }
                    })
                    .response
                    .on_hover_text(format!("What becomes of {role}"));
                if status != before {
                    self.set_role_status(&role, &status);
                }
            });
        }
    }
}

/// The changes a result read off the chart makes by role: each loss typed ("attacker loses 1
/// SP") spread over the role's Force by the ruleset's rule, each status on its Force.
pub(super) fn helper_changes(
    live: &LiveGame,
    r: &ResolvedEntry,
    roles: &BTreeMap<String, Vec<String>>,
) -> Vec<CounterChange> {
    let game = live.game();
    let resolution = live.resolution(r.seq);
    let values = resolution.map(umpire_core::game::effects::resolution_values);
    let mut out = Vec::new();
    for (role, typed) in &r.losses {
        let (Ok(n), Some(ids)) = (typed.trim().parse::<i64>(), roles.get(role)) else {
            continue;
        };
        if n > 0 {
            let spread = umpire_core::game::effects::spread_loss(
                game.ruleset(),
                game.state(),
                umpire_core::game::effects::LossFrom {
                    procedure: resolution.map(|x| x.procedure.as_str()),
                    role: Some(role.as_str()),
                    values: values.as_ref(),
                },
                ids,
                n,
            );
            out.extend(spread.changes);
        }
    }
    for (role, status) in &r.statuses {
        let Some(ids) = roles.get(role).filter(|_| !status.is_empty()) else {
            continue;
        };
        let on =
            umpire_core::game::effects::force_status(game.ruleset(), game.state(), ids, status);
        out.extend(on.changes);
    }
    out
}
