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
                        "Turn {} · {}: {}",
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

/// What the record form makes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RecordKind {
    /// An army raised (megagame::raise).
    #[default]
    Raise,
    /// A chart's new order.
    Chart,
    /// A register's entry.
    Register,
    /// A ruling on a register's entry.
    Ruling,
    /// A vote.
    Vote,
    /// A bank's access.
    Bank,
}

impl RecordKind {
    const ALL: [RecordKind; 6] = [
        RecordKind::Raise,
        RecordKind::Chart,
        RecordKind::Register,
        RecordKind::Ruling,
        RecordKind::Vote,
        RecordKind::Bank,
    ];

    fn label(self) -> &'static str {
        match self {
            RecordKind::Raise => "Raise an army",
            RecordKind::Chart => "A chart's new order",
            RecordKind::Register => "A treaty or grievance",
            RecordKind::Ruling => "Control's ruling on an entry",
            RecordKind::Vote => "A vote",
            RecordKind::Bank => "A bank's access this turn",
        }
    }
}

/// The record form's fields, kept between frames.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordForm {
    /// What it makes.
    pub kind: RecordKind,
    /// The chart, register, vote, bank or state (an id).
    pub which: String,
    /// Teams (comma-separated), the army's name, or the entry number.
    pub names: String,
    /// The reason, terms, question or ruling; the place, for an army.
    pub text: String,
    /// Votes, one VOTER=CHOICE a line; the men in 5,000s, for an army.
    pub more: String,
    /// A vote's outcome where the text gives no threshold; a treaty's last turn.
    pub extra: String,
}

/// A team typed by its name or id: its id.
fn team_id(game: &Game, typed: &str) -> String {
    let t = typed.trim();
    game.scenario()
        .sides
        .iter()
        .find(|s| s.id == t || s.name.eq_ignore_ascii_case(t))
        .map_or_else(|| t.to_string(), |s| s.id.clone())
}

fn teams(game: &Game, typed: &str) -> Vec<String> {
    typed
        .split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| team_id(game, t))
        .collect()
}

/// The choices of the form's first field: (id, name).
fn choices(game: &Game, kind: RecordKind) -> Vec<(String, String)> {
    let r = &game.ruleset().records;
    let states = || {
        game.scenario()
            .megagame
            .iter()
            .flat_map(|m| &m.states)
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect::<Vec<_>>()
    };
    match kind {
        RecordKind::Raise => states(),
        RecordKind::Chart => r
            .charts
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect(),
        RecordKind::Register | RecordKind::Ruling => r
            .registers
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect(),
        RecordKind::Vote => r
            .votes
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect(),
        RecordKind::Bank => {
            let banks: Vec<String> = r.banks.iter().flat_map(|b| b.states.clone()).collect();
            states()
                .into_iter()
                .filter(|(id, _)| banks.contains(id))
                .collect()
        }
    }
}

/// The action the form makes, or why it cannot be made yet.
fn form_action(game: &Game, f: &RecordForm) -> Result<umpire_core::game::Action, String> {
    use umpire_core::game::Action;
    let fact = match f.kind {
        RecordKind::Raise => {
            let levy =
                umpire_core::megagame::raise::Levy {
                    state: f.which.clone(),
                    name: f.names.trim().to_string(),
                    at: umpire_core::game::scenario::Position::Area(f.text.trim().to_string()),
                    blocks: f.more.trim().parse().map_err(|_| {
                        "give the men raised in 5,000s (a whole number)".to_string()
                    })?,
                    permission: false,
                };
            return umpire_core::megagame::raise::raise_action(game, &levy);
        }
        RecordKind::Chart => RecordFact::Chart {
            chart: f.which.clone(),
            ranking: teams(game, &f.names),
            reason: f.text.clone(),
        },
        RecordKind::Register => RecordFact::Register {
            register: f.which.clone(),
            parties: teams(game, &f.names),
            terms: f.text.clone(),
            until: f.extra.trim().parse().ok(),
        },
        RecordKind::Ruling => RecordFact::Ruling {
            register: f.which.clone(),
            entry: f
                .names
                .trim()
                .parse()
                .map_err(|_| "give the entry that registered it (its number)".to_string())?,
            ruling: f.text.clone(),
        },
        RecordKind::Vote => RecordFact::Vote {
            vote: f.which.clone(),
            question: f.text.clone(),
            tally: f
                .more
                .lines()
                .filter_map(|l| l.split_once('='))
                .map(|(v, c)| (v.trim().to_string(), c.trim().to_string()))
                .collect(),
            outcome: Some(f.extra.clone()).filter(|o| !o.trim().is_empty()),
        },
        RecordKind::Bank => RecordFact::BankAccess {
            bank: f.which.clone(),
            team: team_id(game, &f.names),
        },
    };
    Ok(Action::Record(fact))
}

/// The form: Control records a chart, a treaty or grievance, a ruling, a vote, a bank's access,
/// or raises an army. The engine checks it (and the gate, the role's remit) when it is sent.
pub fn record_form_ui(
    ui: &mut Ui,
    game: &Game,
    f: &mut RecordForm,
    queue: &mut Vec<crate::commands::Command>,
) {
    egui::CollapsingHeader::new(RichText::new("Record for Control").strong())
        .default_open(false)
        .show(ui, |ui| {
            let before = f.kind;
            egui::ComboBox::from_label("What")
                .selected_text(f.kind.label())
                .show_ui(ui, |ui| {
                    for k in RecordKind::ALL {
                        ui.selectable_value(&mut f.kind, k, k.label())
                            .on_hover_text("Record this");
                    }
                })
                .response
                .on_hover_text("What to record for Control");
            let options = choices(game, f.kind);
            if before != f.kind || !options.iter().any(|(id, _)| *id == f.which) {
                f.which = options
                    .first()
                    .map(|(id, _)| id.clone())
                    .unwrap_or_default();
            }
            let shown = options
                .iter()
                .find(|(id, _)| *id == f.which)
                .map_or(String::new(), |(_, n)| n.clone());
            egui::ComboBox::from_label("Which")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for (id, name) in &options {
                        ui.selectable_value(&mut f.which, id.clone(), name)
                            .on_hover_text("This one");
                    }
                })
                .response
                .on_hover_text("Which it concerns");
            let (names, text, more, extra) = match f.kind {
                RecordKind::Raise => ("Army's name", "Where (an area)", "Men, in 5,000s", ""),
                RecordKind::Chart => ("Teams, highest first (a, b, …)", "What moved them", "", ""),
                RecordKind::Register => ("Parties (a, b, …)", "Terms", "", "Until turn"),
                RecordKind::Ruling => ("Entry", "Ruling", "", ""),
                RecordKind::Vote => ("", "Question", "Votes, VOTER=CHOICE a line", "Outcome"),
                RecordKind::Bank => ("Team granted access", "", "", ""),
            };
            for (label, field) in [
                (names, &mut f.names),
                (text, &mut f.text),
                (extra, &mut f.extra),
            ] {
                if !label.is_empty() {
                    let l = ui.label(label);
                    ui.text_edit_singleline(field).labelled_by(l.id);
                }
            }
            if !more.is_empty() {
                let l = ui.label(more);
                if f.kind == RecordKind::Vote {
                    ui.text_edit_multiline(&mut f.more).labelled_by(l.id);
                } else {
                    ui.text_edit_singleline(&mut f.more).labelled_by(l.id);
                }
            }
            match form_action(game, f) {
                Ok(action) => {
                    if ui
                        .button("Record")
                        .on_hover_text("Record it in the journal")
                        .clicked()
                    {
                        queue.push(crate::commands::Command::Act(action));
                        *f = RecordForm {
                            kind: f.kind,
                            which: f.which.clone(),
                            ..RecordForm::default()
                        };
                    }
                }
                Err(why) => {
                    ui.add_enabled(false, egui::Button::new("Record"))
                        .on_disabled_hover_text("Not yet: the reason is beside it");
                    ui.label(RichText::new(why).weak());
                }
            }
        });
}
