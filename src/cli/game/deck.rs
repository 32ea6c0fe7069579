//! `umpire game deck …`: decks of cards and cups of markers — what is in them, the exact odds
//! of the next draws, and draws (app or typed), refills, returns, removals and additions.

use crate::cli::GameFile;

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;
use serde_json::json;

use super::{act_on, actor, open};
use crate::cli::{Cli, print_json};
use umpire::dice::Budget;
use umpire::game::deck::{self, DeckState};
use umpire::game::{Action, DeckOp, Game};
use umpire::rules::DeckSpec;

/// `game deck` subcommands.
#[derive(Debug, Subcommand)]
pub enum DeckCommand {
    /// What is in each deck or cup, and the exact odds of the next draw (and of the next K).
    Show {
        #[command(flatten)]
        game: GameFile,
        /// One deck or cup (id or name); all when left out.
        deck: Option<String>,
        /// Whose own deck, for decks each side keeps (a side, by name or id).
        #[arg(long)]
        side: Option<String>,
        /// Also the chance of at least one of each kind among the next K draws.
        #[arg(long, value_name = "K")]
        next: Option<u64>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Draw: by the app (seeded and verifiable, like app dice), or type what was drawn at
    /// the table with --item.
    Draw {
        #[command(flatten)]
        game: GameFile,
        /// Deck or cup (id or name).
        deck: String,
        /// How many the app draws.
        #[arg(long, default_value_t = 1)]
        count: u32,
        /// What was drawn at the table (repeat for several); the app draws nothing then.
        #[arg(long = "item", value_name = "NAME")]
        items: Vec<String>,
        /// The side drawing (into its hand), or whose own deck it is.
        #[arg(long)]
        side: Option<String>,
        /// Why, for the journal.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Say what is in a deck or cup, NAME=COUNT for each kind (for what the text does not
    /// give: Gradisca's Command markers follow the Scenario Instructions card).
    Fill {
        #[command(flatten)]
        game: GameFile,
        /// Deck or cup (id or name).
        deck: String,
        /// NAME=COUNT, one per kind.
        #[arg(required = true)]
        items: Vec<String>,
        /// Whose own deck, for decks each side keeps.
        #[arg(long)]
        side: Option<String>,
        /// Why, for the journal.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Put everything drawn back in (and shuffle), when the rules say.
    Refill {
        #[command(flatten)]
        game: GameFile,
        /// Deck or cup (id or name).
        deck: String,
        /// Whose own deck, for decks each side keeps.
        #[arg(long)]
        side: Option<String>,
        /// Why, for the journal.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Put drawn cards or markers back in.
    Return {
        #[command(flatten)]
        game: GameFile,
        /// Deck or cup (id or name).
        deck: String,
        /// Their names.
        #[arg(required = true)]
        items: Vec<String>,
        /// Whose own deck, for decks each side keeps.
        #[arg(long)]
        side: Option<String>,
        /// Why, for the journal.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Take cards or markers out of play for good ("remove if used").
    Remove {
        #[command(flatten)]
        game: GameFile,
        /// Deck or cup (id or name).
        deck: String,
        /// Their names.
        #[arg(required = true)]
        items: Vec<String>,
        /// Whose own deck, for decks each side keeps.
        #[arg(long)]
        side: Option<String>,
        /// Why, for the journal.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Put new cards or markers in (cards joining the deck, a marker for a Corps that enters).
    Add {
        #[command(flatten)]
        game: GameFile,
        /// Deck or cup (id or name).
        deck: String,
        /// Their names.
        #[arg(required = true)]
        items: Vec<String>,
        /// Whose own deck, for decks each side keeps.
        #[arg(long)]
        side: Option<String>,
        /// Why, for the journal.
        #[arg(long)]
        reason: Option<String>,
    },
}

/// The deck's id, and its owner when each side keeps one (the side given).
fn owner_of(game: &Game, deck: &str, side: Option<&String>) -> Result<(String, Option<String>)> {
    let spec = deck::find(game.ruleset(), deck).ok_or_else(|| {
        let known: Vec<String> = game
            .ruleset()
            .decks
            .iter()
            .map(|d| format!("{} ({})", d.name, d.id))
            .collect();
        if known.is_empty() {
            anyhow!("{} has no decks or cups", game.ruleset().name)
        } else {
            anyhow!("no deck or cup '{deck}' — there are: {}", known.join("; "))
        }
    })?;
    let owner = match (spec.per_side, side) {
        (true, Some(s)) => Some(umpire::game::Names::of(game).side(s)?.into()),
        _ => None,
    };
    Ok((spec.id.clone(), owner))
}

fn parse_fill(items: &[String]) -> Result<Vec<(String, u32)>> {
    items
        .iter()
        .map(|i| {
            let (name, count) = i
                .rsplit_once('=')
                .ok_or_else(|| anyhow!("'{i}': write NAME=COUNT (\"Venetian Corps=3\")"))?;
            let count: u32 = count
                .trim()
                .parse()
                .map_err(|_| anyhow!("'{i}': the count '{count}' is not a whole number"))?;
            Ok((name.trim().to_string(), count))
        })
        .collect()
}

/// Runs a `game deck` subcommand.
pub fn run(cli: &Cli, command: &DeckCommand) -> Result<()> {
    let (file, deck, side, reason, op) = match command {
        DeckCommand::Show {
            game: GameFile { file },
            deck,
            side,
            next,
            json,
        } => {
            let (game, _) = open(cli, file)?;
            return show(&game, deck.as_deref(), side.as_deref(), *next, *json);
        }
        DeckCommand::Draw {
            game: GameFile { file },
            deck,
            count,
            items,
            side,
            reason,
        } => (
            file,
            deck,
            side,
            reason,
            DeckOp::Draw {
                count: *count,
                typed: items.clone(),
                side: side.clone(),
            },
        ),
        DeckCommand::Fill {
            game: GameFile { file },
            deck,
            items,
            side,
            reason,
        } => (
            file,
            deck,
            side,
            reason,
            DeckOp::Fill {
                items: parse_fill(items)?,
            },
        ),
        DeckCommand::Refill {
            game: GameFile { file },
            deck,
            side,
            reason,
        } => (file, deck, side, reason, DeckOp::Refill),
        DeckCommand::Return {
            game: GameFile { file },
            deck,
            items,
            side,
            reason,
        } => (
            file,
            deck,
            side,
            reason,
            DeckOp::Return {
                items: items.clone(),
            },
        ),
        DeckCommand::Remove {
            game: GameFile { file },
            deck,
            items,
            side,
            reason,
        } => (
            file,
            deck,
            side,
            reason,
            DeckOp::Remove {
                items: items.clone(),
            },
        ),
        DeckCommand::Add {
            game: GameFile { file },
            deck,
            items,
            side,
            reason,
        } => (
            file,
            deck,
            side,
            reason,
            DeckOp::Add {
                items: items.clone(),
            },
        ),
    };
    let (mut game, _) = open(cli, file)?;
    let who = actor(cli, &game, None)?;
    let (deck, owner) = owner_of(&game, deck, side.as_ref())?;
    // The side drawing into its hand, as an id (a side's name works as well).
    let mut op = op;
    if let DeckOp::Draw { side: Some(s), .. } = &mut op {
        *s = umpire::game::Names::of(&game).side(s)?.into();
    }
    act_on(
        &mut game,
        &who,
        Action::Deck {
            deck,
            owner,
            op,
            reason: reason.clone(),
        },
    )
}

/// Percent and fraction, as the odds print them.
fn odds_words(f: &umpire::dice::Fraction) -> String {
    format!("{:.1}% ({})", f.to_f64() * 100.0, f.words())
}

fn show(
    game: &Game,
    only: Option<&str>,
    side: Option<&str>,
    next: Option<u64>,
    json_out: bool,
) -> Result<()> {
    let ruleset = game.ruleset();
    let specs: Vec<&DeckSpec> = match only {
        Some(named) => vec![deck::find(ruleset, named).ok_or_else(|| {
            anyhow!(
                "no deck or cup '{named}' — there are: {}",
                ruleset
                    .decks
                    .iter()
                    .map(|d| d.name.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        })?],
        None => ruleset.decks.iter().collect(),
    };
    if specs.is_empty() {
        bail!("{} has no decks or cups", ruleset.name);
    }
    let mut rows = Vec::new();
    for spec in specs {
        // Decks each side keeps: the side asked for, or every side.
        let owners: Vec<Option<String>> = if spec.per_side {
            match side {
                Some(s) => vec![Some(s.to_string())],
                None => game
                    .scenario()
                    .sides
                    .iter()
                    .map(|s| Some(s.id.clone()))
                    .collect(),
            }
        } else {
            vec![None]
        };
        for owner in owners {
            let state = game.state().deck(spec, owner.as_deref());
            rows.push((spec, owner, state));
        }
    }
    if json_out {
        let out: Vec<_> = rows
            .iter()
            .map(|(spec, owner, state)| deck_json(spec, owner.as_deref(), state, next))
            .collect();
        return print_json(&json!({ "decks": out }));
    }
    for (spec, owner, state) in rows {
        let whose = owner
            .as_deref()
            .map(|o| format!(", {}", umpire::game::words::side_words(game.scenario(), o)))
            .unwrap_or_default();
        let rule = spec
            .rule
            .as_deref()
            .map(|r| format!(" — {r}"))
            .unwrap_or_default();
        println!("{} ({}{whose}){rule}", spec.name, spec.noun());
        if state.left() == 0 && state.drawn() == 0 && state.removed.is_empty() {
            match &spec.missing {
                Some(m) => println!(
                    "  Empty: the text does not give what is in it. {m}\n  Fill it from your own components: umpire game deck fill GAME {} NAME=COUNT …",
                    spec.id
                ),
                None => println!("  Empty."),
            }
            continue;
        }
        println!("  {}", capitalise(&state.words(spec)));
        if state.left() > 0 {
            println!("  Next {}:", spec.item_noun());
            for (name, p) in state.next_odds() {
                println!("    {name:<28} {}", odds_words(&p));
            }
        }
        if let Some(k) = next {
            let refused = state.look_ahead_refusal(k, &Budget::default());
            match state.inside.keys().next() {
                _ if k > state.left() => {
                    println!("  Only {} left: no odds for the next {k}.", state.left())
                }
                _ if refused.is_some() => {
                    let why = refused.as_deref().unwrap_or_default();
                    println!("  No odds for the next {k}: {why} — ask for fewer with --next N.")
                }
                None => {}
                Some(_) => {
                    println!("  At least one in the next {k}:");
                    for name in state.inside.keys() {
                        if let Some(p) = state.at_least_one(name, k) {
                            println!("    {name:<28} {}", odds_words(&p));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn deck_json(
    spec: &DeckSpec,
    owner: Option<&str>,
    state: &DeckState,
    next: Option<u64>,
) -> serde_json::Value {
    let next_odds: Vec<_> = state
        .next_odds()
        .into_iter()
        .map(
            |(name, p)| json!({"item": name, "probability": p.to_f64(), "fraction": p.to_string()}),
        )
        .collect();
    let too_far = next.and_then(|k| state.look_ahead_refusal(k, &Budget::default()));
    let at_least_one: Vec<_> = match next {
        Some(k) => state
            .inside
            .keys()
            .filter_map(|name| {
                state.at_least_one(name, k).map(|p| {
                    json!({"item": name, "draws": k, "probability": p.to_f64(), "fraction": p.to_string()})
                })
            })
            .collect(),
        None => Vec::new(),
    };
    json!({
        "id": spec.id,
        "name": spec.name,
        "kind": spec.kind,
        "owner": owner,
        "rule": spec.rule,
        "missing": spec.missing,
        "inside": state.inside,
        "drawn": state.out,
        "removed": state.removed,
        "next": next_odds,
        "at_least_one": at_least_one,
        "at_least_one_refused": too_far,
    })
}
