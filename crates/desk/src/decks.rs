//! The Decks and cups panel (at the top of the resolve column): what is in the chosen deck or
//! cup, the exact odds of the next draw and of at least one of each kind in the next k, its
//! draws, refill and fill; and the exact odds of any roll no procedure covers. Its buttons
//! queue the engine's deck actions.

use eframe::egui::{self, RichText, Ui};

use umpire_core::dice::Fraction;
use umpire_core::game::deck::DeckState;
use umpire_core::game::{Action, DeckOp};
use umpire_core::rules::DeckSpec;

use super::commands::{Command, UiCommand};
use super::live::LiveGame;

/// The label of the notation field of "Odds of any roll".
pub const ANY_ROLL_LABEL: &str = "Any dice";

/// The Decks and cups panel's choices and fields.
#[derive(Debug, Clone)]
pub struct DecksPanel {
    /// The deck or cup shown (its id).
    pub deck: Option<String>,
    /// Whose, for decks each side keeps.
    pub owner: Option<String>,
    /// How many draws ahead the "at least one" odds look.
    pub ahead: u64,
    /// The item drawn at the table, chosen from what is inside.
    pub typed: Option<String>,
    /// NAME=COUNT lines to fill it with.
    pub fill: String,
    /// A notation whose exact odds to show (any roll: d66, 4d6kh3…).
    pub notation: String,
    /// The odds last worked out for `notation` (worked out again only when it changes).
    pub odds: Option<(String, AnyRollOdds)>,
    /// The step (turn, index) the panel last saw: arriving at a step that draws shows its deck.
    pub step_seen: Option<(u32, usize)>,
}

/// Each value of a notation with its probability and its fraction in words, or why not.
pub type AnyRollOdds = Result<Vec<(String, f64, String)>, String>;

impl Default for DecksPanel {
    fn default() -> DecksPanel {
        DecksPanel {
            deck: None,
            owner: None,
            ahead: 2,
            typed: None,
            fill: String::new(),
            notation: String::new(),
            odds: None,
            step_seen: None,
        }
    }
}

impl DecksPanel {
    /// The Decks and cups section, when the ruleset has decks: open at a step that draws from
    /// one (Gradisca's "Draw a Command marker"), folded away elsewhere; each step keeps its own
    /// fold.
    pub fn ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        if !live.game().ruleset().decks.is_empty() {
            let cursor = live.game().state().cursor.clone();
            let here: Vec<String> = live
                .game()
                .steps()
                .get(cursor.step)
                .map(|s| s.decks.clone())
                .unwrap_or_default();
            // On arriving at a step that draws, its deck is the one shown.
            let at = (cursor.turn, cursor.step);
            if self.step_seen != Some(at) {
                self.step_seen = Some(at);
                if let Some(first) = here.first()
                    && self.deck.as_ref().is_none_or(|d| !here.contains(d))
                {
                    self.deck = Some(first.clone());
                }
            }
            egui::CollapsingHeader::new(RichText::new("Decks and cups").strong())
                .id_salt(("decks", cursor.turn, cursor.step))
                .default_open(!here.is_empty())
                .show(ui, |ui| self.decks_ui(ui, live, queue));
            ui.add_space(4.0);
        }
    }

    /// The exact odds of a notation typed in the desk, worked out once per notation and within a
    /// quarter of a second (a notation past it is refused at once, saying what fits).
    pub fn any_roll_odds(&mut self, live: &LiveGame, notation: &str) -> AnyRollOdds {
        if let Some((n, odds)) = &self.odds
            && n == notation
        {
            return odds.clone();
        }
        let dice = live.game().ruleset().dice.clone();
        let odds = umpire_core::dice::DiceExpr::parse(notation, &dice)
            .and_then(|expr| {
                let budget = umpire_core::dice::Budget {
                    seconds: 0.25,
                    ..Default::default()
                };
                // Shown as text: the budget covers reducing and wording each value too.
                let dist = expr.distribution_printed(&budget, umpire_core::dice::Output::Text)?;
                Ok(dist
                    .reduced()
                    .into_iter()
                    .map(|p| {
                        let v = p.value;
                        let value = if expr.is_opposed() {
                            match v {
                                1 => "first higher".to_string(),
                                0 => "a tie".to_string(),
                                _ => "second higher".to_string(),
                            }
                        } else {
                            v.to_string()
                        };
                        (value, p.to_f64(), p.words())
                    })
                    .collect())
            })
            .map_err(|e| e.to_string());
        self.odds = Some((notation.to_string(), odds.clone()));
        odds
    }

    /// Decks of cards and cups of markers: what is in the chosen one, the exact odds of the
    /// next draw and of at least one of each kind in the next k, and its draws.
    fn decks_ui(&mut self, ui: &mut Ui, live: &LiveGame, queue: &mut Vec<Command>) {
        let Some((spec, owner)) = self.chooser_ui(ui, live) else {
            return;
        };
        let state = live.game().state().deck(&spec, owner.as_deref());
        if let Some(help) = &spec.help {
            ui.label(RichText::new(help.trim()).weak().small());
        }
        let never_filled = state.left() == 0 && state.drawn() == 0 && state.removed.is_empty();
        let op = |op| deck_command(&spec.id, owner.as_ref(), op);
        if never_filled {
            if let Some(missing) = &spec.missing {
                ui.label(
                    RichText::new(format!(
                        "The text does not give what is in it. {}",
                        missing.trim()
                    ))
                    .color(ui.visuals().warn_fg_color),
                );
            }
        } else {
            let words = state.words(&spec);
            ui.label(format!("{}{}", words[..1].to_uppercase(), &words[1..]));
        }
        if state.left() > 0 {
            self.draws_ui(ui, &spec, &state, owner.as_ref(), queue);
        }
        if state.drawn() > 0
            && ui
                .button(format!("Put the drawn {}s back", spec.item_noun()))
                .on_hover_text("When the rules say: everything drawn goes back in and is shuffled")
                .clicked()
        {
            queue.push(op(umpire_core::game::DeckOp::Refill));
        }
        egui::CollapsingHeader::new(format!("Fill the {}", spec.noun()))
            .id_salt("deck_fill")
            .default_open(never_filled)
            .show(ui, |ui| {
                let label = ui.label(
                    RichText::new("One kind a line: its name, =, how many (Venetian Corps = 2).")
                        .weak(),
                );
                ui.add(
                    egui::TextEdit::multiline(&mut self.fill)
                        .desired_rows(3)
                        .desired_width(260.0),
                )
                .labelled_by(label.id)
                .on_hover_text("The cards or chits to put in, one a line");
                if ui
                    .button("Fill")
                    .on_hover_text("Put the cards or chits typed into the deck or cup")
                    .clicked()
                {
                    match parse_fill_lines(&self.fill) {
                        Ok(items) => queue.push(op(umpire_core::game::DeckOp::Fill { items })),
                        Err(problem) => queue.push(UiCommand::Problem(problem).into()),
                    }
                }
            });
    }

    /// The deck or cup shown, and whose (for decks each side keeps).
    fn chooser_ui(&mut self, ui: &mut Ui, live: &LiveGame) -> Option<(DeckSpec, Option<String>)> {
        let specs = live.game().ruleset().decks.clone();
        if specs.is_empty() {
            return None;
        }
        let sides: Vec<(String, String)> = live
            .game()
            .scenario()
            .sides
            .iter()
            .map(|s| (s.id.clone(), s.name.clone()))
            .collect();
        let chosen = self
            .deck
            .clone()
            .filter(|d| specs.iter().any(|s| &s.id == d))
            .unwrap_or_else(|| specs[0].id.clone());
        let spec = specs
            .iter()
            .find(|s| s.id == chosen)
            .cloned()
            .unwrap_or_else(|| specs[0].clone());
        ui.horizontal(|ui| {
            let label = ui.label("Deck or cup");
            egui::ComboBox::from_id_salt("deck_choice")
                .selected_text(&spec.name)
                .show_ui(ui, |ui| {
                    for s in &specs {
                        if ui
                            .selectable_label(s.id == spec.id, &s.name)
                            .on_hover_text("Work this deck or cup")
                            .clicked()
                        {
                            self.deck = Some(s.id.clone());
                            self.typed = None;
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text("The deck or cup to work");
        });
        let owner = if spec.per_side {
            let owner = self
                .owner
                .clone()
                .filter(|o| sides.iter().any(|(id, _)| id == o))
                .or_else(|| sides.first().map(|(id, _)| id.clone()));
            ui.horizontal(|ui| {
                let label = ui.label("Whose");
                let shown = sides
                    .iter()
                    .find(|(id, _)| Some(id) == owner.as_ref())
                    .map_or("—", |(_, n)| n.as_str());
                egui::ComboBox::from_id_salt("deck_owner")
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        for (id, name) in &sides {
                            if ui
                                .selectable_label(Some(id) == owner.as_ref(), name)
                                .on_hover_text("This side's deck or cup")
                                .clicked()
                            {
                                self.owner = Some(id.clone());
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id)
                    .on_hover_text("Whose deck or cup this is");
            });
            owner
        } else {
            None
        };
        Some((spec, owner))
    }

    /// The odds of the next draw and of at least one of each kind in the next k, an app
    /// draw, and a draw made at the table.
    fn draws_ui(
        &mut self,
        ui: &mut Ui,
        spec: &DeckSpec,
        state: &DeckState,
        owner: Option<&String>,
        queue: &mut Vec<Command>,
    ) {
        let op = |op| deck_command(&spec.id, owner, op);
        ui.label(RichText::new(format!("Next {}:", spec.item_noun())).strong());
        egui::Grid::new("deck_next").num_columns(3).show(ui, |ui| {
            for (name, p) in state.next_odds() {
                odds_row(ui, &name, &p);
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("At least one in the next");
            ui.add(egui::DragValue::new(&mut self.ahead).range(1..=state.left().max(1)))
                .labelled_by(label.id)
                .on_hover_text("How many draws ahead the odds look");
            ui.label("draws:");
        });
        let k = self.ahead.clamp(1, state.left().max(1));
        // Held to the budget of exact odds: a huge cup asked about its next million says so.
        if let Some(why) = state.look_ahead_refusal(k, &umpire_core::dice::Budget::default()) {
            ui.label(format!("No odds for the next {k}: {why}."));
        }
        egui::Grid::new("deck_ahead").num_columns(3).show(ui, |ui| {
            for name in state.inside.keys() {
                if let Some(p) = state.at_least_one(name, k) {
                    odds_row(ui, name, &p);
                }
            }
        });
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new(format!("Draw a {}", spec.item_noun())).strong())
                .on_hover_text("An app draw from the game's seed, verifiable like app dice")
                .clicked()
            {
                queue.push(op(umpire_core::game::DeckOp::Draw {
                    count: 1,
                    typed: Vec::new(),
                    side: owner.cloned(),
                }));
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Drawn at the table");
            let shown = self.typed.clone().unwrap_or_else(|| "—".into());
            egui::ComboBox::from_id_salt("deck_typed")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for name in state.inside.keys() {
                        if ui
                            .selectable_label(self.typed.as_ref() == Some(name), name)
                            .on_hover_text("This card or chit was drawn")
                            .clicked()
                        {
                            self.typed = Some(name.clone());
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text("The card or chit drawn at the table, to record");
            if let Some(name) = self.typed.clone().filter(|n| state.inside.contains_key(n))
                && ui
                    .button("Record it")
                    .on_hover_text("Record the card or chit drawn at the table in the journal")
                    .clicked()
            {
                queue.push(op(umpire_core::game::DeckOp::Draw {
                    count: 0,
                    typed: vec![name],
                    side: owner.cloned(),
                }));
                self.typed = None;
            }
        });
    }

    /// The exact odds of any notation (d66, d%, 4d6kh3, 2d6 > 2d6), for a roll no procedure
    /// covers. Odds only: a roll that counts is made through a procedure, in the journal.
    pub fn any_roll_ui(&mut self, ui: &mut Ui, live: &LiveGame) {
        egui::CollapsingHeader::new("Odds of any roll")
            .id_salt("any_roll")
            .default_open(false)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label(ANY_ROLL_LABEL);
                    ui.add(
                        egui::TextEdit::singleline(&mut self.notation)
                            .hint_text("d66, 4d6kh3, 8d6>=5")
                            .desired_width(160.0),
                    )
                    .labelled_by(label.id).on_hover_text("Any dice roll in dice notation, e.g. 2d6 or d66");
                });
                let notation = self.notation.trim().to_string();
                if notation.is_empty() {
                    return;
                }
                let rows = self.any_roll_odds(live, &notation);
                match rows {
                    Ok(rows) => {
                        egui::Grid::new("any_roll_odds").num_columns(3).show(ui, |ui| {
                            for (value, p, words) in rows.iter().take(60) {
                                ui.label(value);
                                ui.add(
                                    egui::ProgressBar::new(*p as f32)
                                        .desired_width(90.0)
                                        .text(format!("{:.2}%", p * 100.0)),
                                );
                                ui.label(RichText::new(words).monospace());
                                ui.end_row();
                            }
                        });
                        if rows.len() > 60 {
                            ui.label(
                                RichText::new(format!(
                                    "{} values in all: the command line lists them (umpire roll … --odds).",
                                    rows.len()
                                ))
                                .weak(),
                            );
                        }
                    }
                    Err(problem) => {
                        ui.label(RichText::new(problem).color(ui.visuals().warn_fg_color));
                    }
                }
            });
    }
}

/// A deck action as the engine takes it.
fn deck_command(deck: &str, owner: Option<&String>, op: DeckOp) -> Command {
    Command::Act(Action::Deck {
        deck: deck.to_string(),
        owner: owner.cloned(),
        op,
        reason: None,
    })
}

/// NAME=COUNT lines (or NAME alone, one of it) into a deck's contents.
fn parse_fill_lines(text: &str) -> Result<Vec<(String, u32)>, String> {
    let mut items = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (name, count) = match line.rsplit_once('=') {
            Some((n, c)) => (
                n.trim(),
                c.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("'{line}': the count is not a whole number"))?,
            ),
            None => (line, 1),
        };
        items.push((name.to_string(), count));
    }
    if items.is_empty() {
        return Err("type what is in it first, one kind a line".into());
    }
    Ok(items)
}

/// One row of a deck's odds: the item, a bar with its percentage, the exact fraction in words.
fn odds_row(ui: &mut Ui, name: &str, p: &Fraction) {
    ui.label(name);
    ui.add(
        egui::ProgressBar::new(p.to_f64() as f32)
            .desired_width(90.0)
            .text(format!("{:.1}%", p.to_f64() * 100.0)),
    );
    ui.label(RichText::new(p.words()).monospace());
    ui.end_row();
}
