//! The server's referee: the process that holds every append a desk proposes to the rules of
//! play before the server stores it. The server's SQL checks each entry's shape, place, time,
//! dice, result codes and the umpire's remit (`scripts/control-server.sql`); what it cannot
//! reasonably re-check — a move from where a counter was not, an attribute out of its range, a
//! redo of nothing, markers drawn that were not in the cup, an explanation that does not follow
//! from its dice — is the engine's, so the engine judges it: the same audit `game import` and
//! `game verify` hold a whole journal to ([`umpire_core::game::audit::Referee`]).
//!
//! A desk puts its append to the referee (`umpire_propose`), then sends it (`umpire_append`),
//! which waits for the verdict and stores the entries only when the referee accepted them. The
//! referee signs in as `umpire_referee` over the server's Unix socket (peer authentication, as
//! the system user that runs `control-server.sh`: it has no password), listens on the channel
//! `umpire_referee`, and also looks for waiting proposals every second, so a notification lost
//! with a dropped link delays a verdict by a second at most.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, Config, NoTls};

use umpire_core::game::audit::Referee;
use umpire_core::game::event::Event;
use umpire_core::game::journal::GameMeta;
use umpire_core::rules::Library;

/// The channel desks notify when they propose an append.
pub const REFEREE_CHANNEL: &str = "umpire_referee";

/// The application name the server knows the referee's session by (`umpire_referee_running`).
pub const REFEREE_APPLICATION: &str = "umpire-referee";

/// Where the referee finds its server: the cluster's socket directory and port.
#[derive(Debug, Clone)]
pub struct RefereeAt {
    /// The directory holding the server's Unix socket (control-server.sh's `--dir`).
    pub socket: PathBuf,
    /// The server's port (it names the socket file).
    pub port: u16,
}

/// How long the referee keeps trying to reach a server that went away before it gives up (a
/// server stopped without `control-server.sh stop`, or a test's server dropped).
const GIVE_UP: Duration = Duration::from_secs(120);

/// One game as the referee holds it: its referee (or why it cannot judge the game) and the
/// journal the server has committed, read once and then only what is new.
struct Held {
    referee: Result<Referee, String>,
    events: Vec<Event>,
}

/// Runs the referee until the server's socket directory is gone or the server cannot be reached
/// for two minutes; `say` gets a line for each verdict and each link lost or made.
pub fn run(at: &RefereeAt, rulesets: &Library, say: &mut dyn FnMut(&str)) -> Result<(), String> {
    let mut games: HashMap<String, Held> = HashMap::new();
    let mut down_since: Option<Instant> = None;
    loop {
        if !at.socket.is_dir() {
            say("the server's directory is gone: the referee stops");
            return Ok(());
        }
        let mut client = match connect(at) {
            Ok(c) => {
                down_since = None;
                say("connected: judging proposed appends");
                c
            }
            Err(e) => {
                let since = *down_since.get_or_insert_with(Instant::now);
                if since.elapsed() > GIVE_UP {
                    return Err(format!(
                        "the server at {} cannot be reached: {e}",
                        at.socket.display()
                    ));
                }
                thread::sleep(Duration::from_millis(250));
                continue;
            }
        };
        // A server that came back may hold another history: read the journals afresh.
        games.clear();
        match serve(&mut client, &at.socket, rulesets, &mut games, say) {
            Ok(()) => return Ok(()),
            Err(e) => {
                say(&format!(
                    "the link to the server was lost ({e}); reconnecting"
                ));
                thread::sleep(Duration::from_millis(500));
            }
        }
    }
}

/// A server error in full: the message and, for the server's own, what it said.
fn said(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{e}: {}", db.message()),
        None => e.to_string(),
    }
}

fn connect(at: &RefereeAt) -> Result<Client, String> {
    let mut config = Config::new();
    config
        .host_path(&at.socket)
        .port(at.port)
        .user("umpire_referee")
        .dbname("umpire")
        .application_name(REFEREE_APPLICATION)
        .connect_timeout(Duration::from_secs(5));
    let mut client = config.connect(NoTls).map_err(|e| said(&e))?;
    client
        .batch_execute(&format!("LISTEN {REFEREE_CHANNEL}"))
        .map_err(|e| said(&e))?;
    Ok(client)
}

/// Judges what waits, then waits for the next proposal (or a second), until the socket
/// directory is gone (Ok) or the link fails (Err).
fn serve(
    client: &mut Client,
    socket: &Path,
    rulesets: &Library,
    games: &mut HashMap<String, Held>,
    say: &mut dyn FnMut(&str),
) -> Result<(), String> {
    loop {
        judge_waiting(client, rulesets, games, say)?;
        if !socket.is_dir() {
            return Ok(());
        }
        // Drain what came meanwhile: every waiting proposal is read from the table anyway.
        {
            let mut notes = client.notifications();
            let came = notes
                .timeout_iter(Duration::from_secs(1))
                .next()
                .map_err(|e| said(&e))?;
            if came.is_some() {
                // Those already here, without waiting for more.
                while notes.iter().next().map_err(|e| said(&e))?.is_some() {}
            }
        }
        if client.is_closed() {
            return Err("the connection closed".into());
        }
    }
}

/// Every proposal without a verdict, oldest first, judged and answered.
fn judge_waiting(
    client: &mut Client,
    rulesets: &Library,
    games: &mut HashMap<String, Held>,
    say: &mut dyn FnMut(&str),
) -> Result<(), String> {
    loop {
        let rows = client
            .query(
                "SELECT id, game, first_seq, texts FROM umpire_proposals
                  WHERE verdict IS NULL ORDER BY id LIMIT 32",
                &[],
            )
            .map_err(|e| said(&e))?;
        if rows.is_empty() {
            return Ok(());
        }
        for row in rows {
            let id: i64 = row.get(0);
            let game: String = row.get(1);
            let first: i64 = row.get(2);
            let texts: Vec<String> = row.get(3);
            let t0 = Instant::now();
            let verdict = judge(client, rulesets, games, &game, first, &texts)?;
            let took = t0.elapsed().as_secs_f64() * 1000.0;
            match &verdict {
                Ok(()) => say(&format!(
                    "{game}: entries {first}–{} accepted ({took:.1} ms)",
                    first + texts.len() as i64 - 1
                )),
                Err(why) => say(&format!("{game}: refused ({took:.1} ms): {why}")),
            }
            let why = verdict.as_ref().err();
            client
                .execute(
                    "SELECT umpire_judge($1, $2, $3)",
                    &[&id, &verdict.is_ok(), &why],
                )
                .map_err(|e| said(&e))?;
        }
    }
}

/// The verdict on one proposal: Ok to store it, or why play would not have made it. The outer
/// error is the link's.
fn judge(
    client: &mut Client,
    rulesets: &Library,
    games: &mut HashMap<String, Held>,
    game: &str,
    first: i64,
    texts: &[String],
) -> Result<Result<(), String>, String> {
    if !games.contains_key(game) {
        let held = hold(client, rulesets, game)?;
        games.insert(game.to_string(), held);
    }
    let Some(held) = games.get_mut(game) else {
        return Ok(Err(format!("no game called '{game}' on this server")));
    };
    let referee = match &held.referee {
        Ok(r) => r,
        Err(why) => return Ok(Err(why.clone())),
    };
    // The journal as committed, read from where the referee last stopped.
    let rows = client
        .query(
            "SELECT seq, text FROM umpire_events WHERE game = $1 AND seq > $2 ORDER BY seq",
            &[&game, &(held.events.len() as i64)],
        )
        .map_err(|e| said(&e))?;
    for row in rows {
        let seq: i64 = row.get(0);
        let text: String = row.get(1);
        match serde_json::from_str::<Event>(&text) {
            Ok(e) if e.seq == seq as u64 && seq as usize == held.events.len() + 1 => {
                held.events.push(e);
            }
            _ => {
                return Ok(Err(format!(
                    "the server's journal of '{game}' cannot be read at entry {seq}: the referee cannot judge what follows it"
                )));
            }
        }
    }
    let before = usize::try_from(first - 1).unwrap_or(usize::MAX);
    // A proposal for a place another desk has taken since cannot be stored whatever its
    // verdict (the write is refused for its place before the verdict is read).
    if first < 1 || before != held.events.len() {
        return Ok(Err(format!(
            "entry {first} does not follow the journal the server holds (it ends at entry {}): another desk wrote first, or the place is wrong",
            held.events.len()
        )));
    }
    let mut proposed: Vec<Event> = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let seq = first as u64 + i as u64;
        match serde_json::from_str::<Event>(text) {
            Ok(e) if e.seq == seq => proposed.push(e),
            Ok(e) => {
                return Ok(Err(format!(
                    "entry {seq} is refused: it says it is entry {}",
                    e.seq
                )));
            }
            Err(e) => {
                return Ok(Err(format!(
                    "entry {seq} is refused: it is not an entry Umpire writes ({e})"
                )));
            }
        }
    }
    // A journal published from a game file was written by one desk; appends come from the
    // shared game's desks.
    let shared = first > 1;
    // Judged after the journal it holds, in place, then taken off again: no copy of the
    // journal a verdict.
    held.events.extend(proposed);
    let problem = referee.judge(&held.events, before, shared);
    held.events.truncate(before);
    Ok(match problem {
        None => Ok(()),
        Some(p) => Err(format!(
            "entry {} is refused by the rules of play: {}",
            p.entry, p.text
        )),
    })
}

/// A game's referee, from its description on the server.
fn hold(client: &mut Client, rulesets: &Library, game: &str) -> Result<Held, String> {
    let row = client
        .query_opt("SELECT meta FROM umpire_games WHERE name = $1", &[&game])
        .map_err(|e| said(&e))?;
    let referee = match row {
        None => Err(format!("no game called '{game}' on this server")),
        Some(row) => {
            let meta: serde_json::Value = row.get(0);
            match serde_json::from_value::<GameMeta>(meta) {
                Err(e) => Err(format!(
                    "the description of '{game}' on the server is unreadable ({e}): the referee cannot judge it"
                )),
                Ok(meta) => Referee::new(meta, rulesets)
                    .map_err(|e| format!("the server's referee cannot judge '{game}': {e}")),
            }
        }
    };
    Ok(Held {
        referee,
        events: Vec::new(),
    })
}
