//! `umpire-soak`: a testing aid, not part of the product. It performs N actions on a game (notes,
//! app-dice resolutions, moves, undos; or, signed in with a Control role, adjustments of what the
//! role owns), printing `ack N` after each commit: the crash tests kill it mid-flight and check
//! that every acknowledged entry survived, and the shared-game tests run several at once on one
//! server game. It was a hidden `umpire game soak` subcommand; it lives here so that the
//! product's command line, manual pages and completions hold only what users run.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::{Result, anyhow, bail};
use clap::Parser;
use umpire::game::scenario::Position;
use umpire::game::{Action, Actor, CounterId, Game};
use umpire::megagame::remit::{SignedIn, who_acts};
use umpire::rules::Library;

/// Performs N actions on a game, acknowledging each commit on standard output.
#[derive(Debug, Parser)]
#[command(name = "umpire-soak")]
struct Args {
    /// Game file or server URL (the password from the URL or `PGPASSFILE`).
    file: String,
    /// How many actions.
    #[arg(long, default_value_t = 1000)]
    actions: u64,
    /// Who is at the desk (recorded on each event).
    #[arg(long)]
    by: Option<String>,
    /// Only notes and app-dice resolutions (no moves or undos: desks sharing a game).
    #[arg(long)]
    gentle: bool,
    /// Afterwards, wait (up to 60 s) until the journal has this many entries, then print
    /// `state LEN JSON-HASH` (used by the shared-game tests to compare desks).
    #[arg(long)]
    wait_for: Option<u64>,
    /// Sign in as NAME:ROLE[:TABLE], as `umpire --as` does.
    #[arg(long = "as", value_name = "NAME:ROLE[:TABLE]")]
    sign_in: Option<String>,
}

fn main() -> Result<()> {
    soak(&Args::parse())
}

fn soak(args: &Args) -> Result<()> {
    let Args {
        file,
        actions,
        by,
        gentle,
        wait_for,
        sign_in,
    } = args;
    let (actions, gentle, wait_for) = (*actions, *gentle, *wait_for);
    let lib = Library::shipped();
    let mut game = umpire::server::open_at(file, &lib)?;
    let signed_in = sign_in
        .as_deref()
        .map(|s| SignedIn::parse(s).map_err(|e| anyhow!("--as: {e}")))
        .transpose()?;
    let location = game.location();
    let actor = who_acts(
        game.login(),
        &location,
        signed_in.clone(),
        by.as_deref(),
        None,
    )?;
    // A procedure that resolves on its defaults, and a counter on the table.
    let procedure =
        game.ruleset()
            .procedures
            .iter()
            .find(|p| {
                p.inputs.iter().all(|i| {
                    i.default.is_some() || matches!(i.kind, umpire::rules::InputKind::Flag)
                }) && p.roll.is_some()
            })
            .map(|p| p.id.clone());
    let counter = game.state().counters.keys().next().cloned();
    // Signed in with a Control role (--as): the desk's own work, as at a megagame table —
    // adjustments to the whole-number attributes its role owns, between notes.
    let owned = signed_in
        .as_ref()
        .map_or_else(Vec::new, |who| owned_attributes(&game, who));
    let mut out = std::io::stdout().lock();
    for i in 0..actions {
        let phase = if gentle { i % 2 } else { i % 5 };
        if signed_in.is_some() {
            let action = if i % 2 == 0
                && let Some((counter, attribute)) = owned.get((i as usize / 2) % owned.len().max(1))
            {
                Action::Adjust {
                    counter: CounterId::new(counter.as_str()),
                    attribute: attribute.clone(),
                    by: 1,
                    reason: format!("scripted turn, step {i}"),
                }
            } else {
                Action::Note {
                    text: format!("soak {i}"),
                }
            };
            soak_act(&mut game, &actor, action, &mut out)?;
            continue;
        }
        let action = plain_action(&game, i, phase, (&procedure, &counter));
        soak_act(&mut game, &actor, action, &mut out)?;
    }
    if let Some(target) = wait_for {
        wait_for_entries(&mut game, target, &mut out)?;
    }
    Ok(())
}

/// Signed in with a Control role: the whole-number attributes its role owns, as (counter,
/// attribute) pairs — the desk's own work, as at a megagame table.
fn owned_attributes(game: &Game, who: &SignedIn) -> Vec<(String, String)> {
    let people = umpire::megagame::People::of(game);
    game.state()
        .counters
        .values()
        .flat_map(|c| {
            c.attributes
                .iter()
                .filter(|(_, v)| matches!(v, umpire::rules::Value::Int(_)))
                .map(|(a, _)| (c.id.clone(), a.clone()))
        })
        .filter(|(c, a)| {
            people
                .remit_check(who.role, who.table.as_deref(), c, Some(a))
                .remit
                == umpire::megagame::Remit::Own
        })
        .collect()
}

/// The `i`th action of a desk signed in as nobody: notes, app-dice resolutions of `procedure`,
/// moves of `counter` and undos, by `phase`.
fn plain_action(
    game: &Game,
    i: u64,
    phase: u64,
    (procedure, counter): (&Option<String>, &Option<String>),
) -> Action {
    match (phase, procedure, counter) {
        (1, Some(p), _) => Action::Resolve {
            procedure: p.clone(),
            inputs: Vec::new(),
            physical: None,
            chart_result: None,
            chart_confirmed: false,
            counters: BTreeMap::new(),
            item: None,
        },
        (2, _, Some(c)) => Action::Move {
            counter: CounterId::new(c.as_str()),
            to: match game.ruleset().geometry.as_ref().map(|g| g.kind) {
                Some(umpire::rules::GeometryKind::Hex) => {
                    Position::Hex(format!("{:04}", 101 + i % 50))
                }
                Some(umpire::rules::GeometryKind::Area) => {
                    Position::Area(format!("area {}", i % 7))
                }
                _ => Position::Free {
                    x: (i % 40) as f64,
                    y: (i % 13) as f64,
                },
            },
        },
        (4, _, _) if i.is_multiple_of(3) => Action::Undo,
        _ => Action::Note {
            text: format!("soak {i}"),
        },
    }
}

/// Waits (up to 60 s) until the journal has `target` entries, then prints `state LEN HASH`.
fn wait_for_entries(game: &mut Game, target: u64, out: &mut impl Write) -> Result<()> {
    let started = std::time::Instant::now();
    while (game.events().len() as u64) < target {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            bail!(
                "the journal has {} entries after 60 s, not {target}",
                game.events().len()
            );
        }
        if game.refresh().unwrap_or(0) == 0 {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(game.state())?.hash(&mut h);
    writeln!(out, "state {} {:016x}", game.events().len(), h.finish())?;
    Ok(())
}

/// One soak action, printing `ack N` per entry. A server that restarts is waited for (up to
/// 60 s); the action is not lost or doubled. A refused action is skipped (and said).
fn soak_act(game: &mut Game, actor: &Actor, action: Action, out: &mut impl Write) -> Result<()> {
    let started = std::time::Instant::now();
    loop {
        match game.act(actor, action.clone()) {
            Ok(seqs) => {
                for s in seqs {
                    writeln!(out, "ack {s}")?;
                }
                out.flush()?;
            }
            Err(umpire::game::GameError::Refused(e)) => eprintln!("refused: {e}"),
            Err(e @ umpire::game::GameError::Store(umpire::game::StoreError::Server { .. }))
                if started.elapsed() < std::time::Duration::from_secs(60) =>
            {
                eprintln!("retrying: {e}");
                std::thread::sleep(std::time::Duration::from_millis(200));
                continue;
            }
            Err(e) => return Err(e.into()),
        }
        return Ok(());
    }
}
