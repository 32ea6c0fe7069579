//! `umpire game orders …`: sealed written orders — what is due at this step and what has been
//! sealed, orders handed in on paper entered and sealed at the desk, and the reveal the step
//! calls for (`umpire::game::sealed`).

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;
use serde_json::json;

use super::{actor, open, print_status_line};
use crate::cli::{Cli, GameFile, print_json};
use umpire::game::describe::Words;
use umpire::game::orders::{FormInput, OrderForm};
use umpire::game::sealed::{self, parse_assignments};
use umpire::game::{Game, Names};

/// `game orders` subcommands.
#[derive(Debug, Subcommand)]
pub enum OrdersCommand {
    /// The written orders due at this step: each side's form (its Forces, the choices the
    /// rules allow with their cost), and what each side has sealed (when, the commitment).
    Show {
        #[command(flatten)]
        game: GameFile,
        /// One side (by name or id); every side when left out.
        #[arg(long)]
        side: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Seal a side's orders handed in on paper: ENTRY.FIELD=VALUE for each (the Force by its
    /// Capitano's name, the field by its label, the choice in the rules' words). Only the
    /// commitment enters the journal; the orders are kept beside it until the step reveals
    /// them. Sealing again before the reveal replaces them.
    Seal {
        #[command(flatten)]
        game: GameFile,
        /// The side whose orders they are.
        #[arg(long)]
        side: String,
        /// The kind of order (its name or id), when more than one is due at this step.
        #[arg(long)]
        order: Option<String>,
        /// ENTRY.FIELD=VALUE, one per field ("Trivulzio.Order=Attack").
        orders: Vec<String>,
        /// How they came in, for the journal.
        #[arg(
            long,
            default_value = "handed in on paper, entered on the command line"
        )]
        via: String,
    },
    /// Reveal the orders sealed at this step, as the rules say (to every side, to Control, or
    /// as the visibility rules show them): the orders and the salt enter the journal, held to
    /// the commitment made when they were sealed.
    Reveal {
        #[command(flatten)]
        game: GameFile,
        /// Reveal although a side has handed in nothing: that side is held to the rules'
        /// consequence of an order not given (without it, such a reveal is refused, saying which).
        #[arg(long)]
        anyway: bool,
    },
}

/// Runs a `game orders` subcommand.
pub fn run(cli: &Cli, command: &OrdersCommand) -> Result<()> {
    match command {
        OrdersCommand::Show { game, side, json } => show(cli, game, side.as_deref(), *json),
        OrdersCommand::Seal {
            game,
            side,
            order,
            orders,
            via,
        } => seal(cli, game, side, order.as_deref(), orders, via),
        OrdersCommand::Reveal { game, anyway } => {
            let (mut g, _) = open(cli, &game.file)?;
            let actor = actor(cli, &g, None)?;
            let missing = g.orders_not_handed_in();
            if !missing.is_empty() && !anyway {
                bail!(
                    "nothing revealed: {}. Revealing now holds that side to it; give --anyway to reveal all the same",
                    missing.join("; ")
                );
            }
            let seqs = g.reveal_orders(&actor)?;
            print_status_line(&g);
            let words = Words::of(&g);
            for s in seqs {
                if let Some(e) = g.events().get(s as usize - 1) {
                    println!("recorded entry {}: {}", e.seq, words.title(e));
                    for line in words.detail(e) {
                        println!("  {line}");
                    }
                }
            }
            Ok(())
        }
    }
}

/// The kind named, or the only one due at this step.
fn kind_id(game: &Game, order: Option<&str>) -> Result<String> {
    let due = game.orders_due_now();
    match order {
        Some(o) => game
            .ruleset()
            .orders
            .iter()
            .find(|k| k.id.eq_ignore_ascii_case(o) || k.name.eq_ignore_ascii_case(o))
            .map(|k| k.id.clone())
            .ok_or_else(|| {
                anyhow!(
                    "{} declares no order '{o}'{}",
                    game.ruleset().name,
                    list(game.ruleset().orders.iter().map(|k| k.name.as_str()))
                )
            }),
        None => match due.as_slice() {
            [one] => Ok(one.id.clone()),
            [] => bail!(
                "no written orders are due at this step ({}){}",
                game.status().step.path,
                if game.ruleset().orders.is_empty() {
                    String::new()
                } else {
                    format!(
                        " — {} are due at their own steps (see `umpire rules orders {}`)",
                        list_plain(game.ruleset().orders.iter().map(|k| k.name.as_str())),
                        game.ruleset().id
                    )
                }
            ),
            many => bail!(
                "several orders are due at this step: give --order {}",
                list_plain(many.iter().map(|k| k.name.as_str()))
            ),
        },
    }
}

fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all = list_plain(names);
    if all.is_empty() {
        String::new()
    } else {
        format!(" — its orders: {all}")
    }
}

fn list_plain<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

fn seal(
    cli: &Cli,
    file: &GameFile,
    side: &str,
    order: Option<&str>,
    typed: &[String],
    via: &str,
) -> Result<()> {
    let (mut game, _) = open(cli, &file.file)?;
    let actor = actor(cli, &game, None)?;
    let side = Names::of(&game).side(side)?.as_str().to_string();
    let kind = kind_id(&game, order)?;
    let form = game.order_form(&kind, &side)?;
    let orders = parse_assignments(&form, typed).map_err(|e| anyhow!("{e}"))?;
    let seq = game.seal_orders(&actor, &kind, &side, orders, Some(via.to_string()))?;
    print_status_line(&game);
    if let Some(e) = game.events().get(seq as usize - 1) {
        println!("recorded entry {}: {}", e.seq, Words::of(&game).line(e));
    }
    Ok(())
}

fn show(cli: &Cli, file: &GameFile, side: Option<&str>, json: bool) -> Result<()> {
    let (game, _) = open(cli, &file.file)?;
    let sides: Vec<String> = match side {
        Some(s) => vec![Names::of(&game).side(s)?.as_str().to_string()],
        None => game.scenario().sides.iter().map(|s| s.id.clone()).collect(),
    };
    let due = game.orders_due_now();
    let mut forms: Vec<OrderForm> = Vec::new();
    for kind in &due {
        for s in &sides {
            forms.push(game.order_form(&kind.id, s)?);
        }
    }
    let cursor = game.state().cursor.clone();
    let sealed_here = sealed::last_at(game.state(), &cursor);
    if json {
        return print_json(&json!({
            "step": game.status().step.path,
            "due": due.iter().map(|k| &k.id).collect::<Vec<_>>(),
            "forms": forms,
            "sealed": sealed_here.iter().map(|(seq, s)| json!({
                "entry": seq, "order": s.order, "side": s.side, "commitment": s.commitment,
                "at": s.at, "via": s.via, "revealed": s.revealed,
            })).collect::<Vec<_>>(),
        }));
    }
    print_status_line(&game);
    if due.is_empty() {
        println!("No written orders are due at this step.");
    }
    for kind in &due {
        println!();
        println!(
            "{} ({}) — due now; late: {}",
            kind.name,
            kind.rule,
            sealed::late_words_of(kind)
        );
        for form in forms.iter().filter(|f| f.order == kind.id) {
            print_form(&game, form, &sealed_here);
        }
    }
    Ok(())
}

fn print_form(game: &Game, form: &OrderForm, sealed_here: &[(u64, &sealed::SealedState)]) {
    let side = umpire::game::words::side_words(game.scenario(), &form.side);
    match sealed_here
        .iter()
        .find(|(_, s)| s.order == form.order && s.side == form.side)
    {
        Some((seq, s)) => println!(
            "  {side}: sealed in entry {seq} at {}{} — commitment {}",
            s.at.with_timezone(&chrono::Local).format("%H:%M"),
            match s.revealed {
                Some(r) => format!(", revealed in entry {r}"),
                None => String::new(),
            },
            s.commitment
        ),
        None => println!("  {side}: not handed in"),
    }
    for entry in &form.entries {
        let strength = entry
            .strength
            .map(|s| format!(", strength {s}"))
            .unwrap_or_default();
        println!("    {} ({}{strength})", entry.name, entry.place);
        for field in &entry.fields {
            let what = match &field.input {
                FormInput::Choose { choices, .. } => choices
                    .iter()
                    .map(|c| {
                        let choice = match &c.cost {
                            Some(cost) => format!("{} ({})", c.label, cost.words()),
                            None => c.label.clone(),
                        };
                        match &c.refused {
                            Some(why) => format!("{choice} [not allowed: {why}]"),
                            None => choice,
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" | "),
                FormInput::Areas { max } => format!("up to {max} areas, by name"),
                FormInput::Flag => "yes or no".to_string(),
            };
            let must = if field.required {
                " (must be given: it holds none now)"
            } else {
                ""
            };
            println!("      {}{must}: {what}", field.label);
        }
    }
    if let Some(note) = form.areas_unchecked() {
        println!("  {note}");
    }
}
