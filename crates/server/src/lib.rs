//! A game on a PostgreSQL server, shared by several desks: the same journal as the game file, in
//! tables that only the server's own functions write (`scripts/control-server.sql`, set up by
//! `scripts/control-server.sh`; desks never create or change the schema). Each desk signs in
//! with a login of its umpire's own (a password from the URL, `~/.pgpass` or a prompt:
//! [`pgpass`]) over TLS ([`tls`]); the server knows who each login is
//! ([`Store::login`]) and checks every append: its place (refused whole, [`StoreError::Moved`],
//! when another desk got there first, the game row locked meanwhile so two desks never
//! interleave), each entry's hash in the chain, who it says made it, and the umpire's remit.
//! Every committed append sends a notification (`NOTIFY umpire_journal`), which a [`Listener`]
//! turns into a signal for the desks to take in the new events.

pub mod pgpass;
pub mod referee;
pub mod tls;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use postgres::config::{Host, SslMode};
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, Config};

use umpire_core::game::Game;
use umpire_core::game::event::Event;
use umpire_core::game::journal::location::ServerAddress;
use umpire_core::game::journal::{Entry, GameMeta, Location, Login, Store, StoreError};
use umpire_core::game::refusal::{GameError, SetupError};
use umpire_core::rules::{Library, SourceFile};

/// The schema this build reads and writes on a server (`scripts/control-server.sql`).
pub const SERVER_SCHEMA_VERSION: i32 = 4;

/// The notification channel.
pub const CHANNEL: &str = "umpire_journal";

/// Starts a new game at a location: a game file path, or a server URL
/// (`postgres://user@host/db?game=NAME`, see `umpire_core::game::journal::location`).
pub fn create_at(
    location: &str,
    scenario_file: &SourceFile,
    rulesets: &Library,
    seed: Option<u64>,
) -> Result<Game, GameError> {
    create_at_playing(location, scenario_file, rulesets, seed, &[])
}

/// [`create_at`], playing the optional rules named (their numbers, "18.4").
pub fn create_at_playing(
    location: &str,
    scenario_file: &SourceFile,
    rulesets: &Library,
    seed: Option<u64>,
    optional_rules: &[String],
) -> Result<Game, GameError> {
    match Location::parse(location)? {
        Location::File(path) => {
            Game::create_playing(&path, scenario_file, rulesets, seed, optional_rules)
        }
        Location::Server(server) => {
            Game::create_in_playing(scenario_file, rulesets, seed, optional_rules, |meta| {
                Ok(Box::new(ServerGame::create(&server, meta)?))
            })
        }
    }
}

/// Opens a game at a location: a game file path, or a server URL.
pub fn open_at(location: &str, rulesets: &Library) -> Result<Game, GameError> {
    match Location::parse(location)? {
        Location::File(path) => Game::open(&path, rulesets),
        Location::Server(server) => {
            Game::from_store(Box::new(ServerGame::open(&server)?), rulesets)
        }
    }
}

/// Puts an existing game (a file) on a server under a new name, journal and all; the server
/// game's location, for people.
pub fn publish(game: &mut Game, server: &str) -> Result<String, GameError> {
    let Location::Server(server) = Location::parse(server)? else {
        return Err(SetupError::NotAServer(server.to_string()).into());
    };
    let entries = game.entries()?;
    let mut target = ServerGame::create(&server, game.meta().clone())?;
    target.append(&entries)?;
    Ok(target.location())
}

/// The attributes of a counter the server's remit checks read (what `megagame::People` derives
/// a counter's class, state and map table from); their later changes it takes from the journal.
pub const FACT_ATTRIBUTES: [&str; 5] = ["unit_kind", "map_table", "country", "owner", "played"];

/// SQLSTATEs of the server's refusals (`scripts/control-server.sql`).
mod code {
    /// Another desk wrote first (the journal's length in the detail).
    pub const MOVED: &str = "UM409";
    /// A game of that name is there already.
    pub const EXISTS: &str = "UM410";
    /// The server's referee is not running (`umpire_refereed`).
    pub const NO_REFEREE: &str = "UM503";
}

/// A game on a server.
pub struct ServerGame {
    client: Client,
    address: ServerAddress,
    meta: GameMeta,
    login: Login,
    /// Created by this desk and not yet written to: its first append publishes the journal
    /// (the game's start, or a file's whole journal).
    fresh: bool,
}

fn chain_text(e: &postgres::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text = format!("{text}: {s}");
        source = s.source();
    }
    text
}

fn server_error(address: &ServerAddress, e: &postgres::Error) -> StoreError {
    let (detail, hint) = match e.as_db_error() {
        Some(db) if db.code().code() == "28P01" || db.code().code() == "28000" => (
            db.message().to_string(),
            format!(
                " — check the password for this login (in the URL, {}, or typed when asked) with the server's administrator",
                pgpass_name()
            ),
        ),
        Some(db) => (db.message().to_string(), String::new()),
        None => {
            let text = chain_text(e);
            let hint = if text.contains(tls::NOT_THE_PINNED_CERTIFICATE) {
                " — this may not be your Control server: check the fingerprint with its administrator (`scripts/control-server.sh fingerprint`) before you connect again".to_string()
            } else if text.contains("password missing") || text.contains("no password") {
                format!(
                    " — give this login's password: a line `HOST:PORT:DATABASE:LOGIN:PASSWORD` in {} (chmod 600), or run on a terminal to be asked",
                    pgpass_name()
                )
            } else {
                " — is the server running and reachable? (`scripts/control-server.sh status`)"
                    .to_string()
            };
            (text, hint)
        }
    };
    StoreError::Server {
        location: address.display(),
        message: format!("{detail}{hint}"),
    }
}

fn pgpass_name() -> String {
    match std::env::var_os("PGPASSFILE") {
        Some(p) if !p.is_empty() => format!("PGPASSFILE ({})", p.to_string_lossy()),
        _ => "~/.pgpass".to_string(),
    }
}

/// Where and as whom a URL signs in (the keys of a password-file line).
pub fn target(address: &ServerAddress) -> Result<pgpass::Target, StoreError> {
    let config = config_of(address)?;
    Ok(target_of(&config))
}

fn target_of(config: &Config) -> pgpass::Target {
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(Host::Unix(_)) => "localhost".to_string(),
        None => "localhost".to_string(),
    };
    pgpass::Target {
        host,
        port: config.get_ports().first().copied().unwrap_or(5432),
        database: config
            .get_dbname()
            .or(config.get_user())
            .unwrap_or_default()
            .to_string(),
        user: config.get_user().unwrap_or_default().to_string(),
    }
}

fn config_of(address: &ServerAddress) -> Result<Config, StoreError> {
    address
        .url
        .parse()
        .map_err(|e: postgres::Error| StoreError::Server {
            location: address.display(),
            message: format!("not a usable server URL: {e}"),
        })
}

/// Where this desk's password for `address` would come from, if anywhere: the URL, one given
/// to this process ([`pgpass::remember`]), or the password file. `Err` says why the password
/// file was passed over (it is readable by others), for the caller to show.
pub fn known_password(address: &ServerAddress) -> Result<Option<String>, String> {
    if let Some(p) = address.url_password() {
        return Ok(Some(p));
    }
    let Ok(target) = target(address) else {
        return Ok(None);
    };
    if let Some(p) = pgpass::given(&target) {
        return Ok(Some(p));
    }
    match pgpass::file() {
        Some(file) => pgpass::lookup(&file, &target),
        None => Ok(None),
    }
}

/// Connects to the server of `address` (5 s timeout unless the URL sets one), with the login's
/// password from the URL, this process or the password file, over TLS as `sslmode` says
/// (`prefer` when the URL says nothing; `require` when it pins the certificate).
pub fn connect(address: &ServerAddress) -> Result<Client, StoreError> {
    let mut config = config_of(address)?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(5));
    }
    if config.get_application_name().is_none() {
        config.application_name("umpire");
    }
    if config.get_password().is_none() {
        let target = target_of(&config);
        let password = pgpass::given(&target)
            .or_else(|| pgpass::file().and_then(|f| pgpass::lookup(&f, &target).ok().flatten()));
        if let Some(p) = password {
            config.password(p);
        }
    }
    if address.fingerprint.is_some() {
        if config.get_ssl_mode() == SslMode::Disable {
            return Err(StoreError::Server {
                location: address.display(),
                message: "the URL pins a certificate fingerprint but says sslmode=disable — a pin needs TLS: drop sslmode=disable".into(),
            });
        }
        // A pin is worth nothing if the link may fall back to clear text.
        config.ssl_mode(SslMode::Require);
    }
    let tls =
        tls::connector(address.fingerprint.as_deref()).map_err(|message| StoreError::Server {
            location: address.display(),
            message,
        })?;
    config.connect(tls).map_err(|e| server_error(address, &e))
}

/// A refusal from the server's own checks (the remit, the chain, who made an entry): not a
/// problem with the link, so never retried or queued offline.
/// How long an append whose answer was lost with the link is sent again: long enough for a
/// server restarted under it to come back, short enough that a pulled cable soon leaves the desk
/// working offline.
const RESEND: Duration = Duration::from_secs(8);

/// Whether an error is the link's (the connection closed, or the server going down: SQLSTATE
/// classes 08 and 57) rather than the server's answer to the append.
fn link_lost(e: &postgres::Error) -> bool {
    match e.as_db_error() {
        Some(db) => {
            let c = db.code().code();
            c.starts_with("08") || c.starts_with("57")
        }
        None => true,
    }
}

/// Where this desk keeps values for a shared game (the players' view's link tokens): a file of
/// its own in the user's data folder, named by the game's address (without its password).
fn kept_file(address: &ServerAddress) -> Option<std::path::PathBuf> {
    let dirs = directories::ProjectDirs::from("org", "umpire", "umpire")?;
    let name = umpire_core::game::journal::sha256_hex(address.display().as_bytes());
    Some(
        dirs.data_local_dir()
            .join("kept")
            .join(format!("{}.json", &name[..32])),
    )
}

/// The values kept for a shared game on this machine (none when the file is missing or not
/// readable: the players' view then makes new links).
fn kept_values(address: &ServerAddress) -> std::collections::BTreeMap<String, String> {
    kept_file(address)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Waits (at most 5 s) for the referee's verdict on proposal `id`, heard on the channel
/// `umpire_verdict` (the connection listens before it proposes, so no verdict is missed): the
/// write sent then finds it at once rather than looking for it every 10 ms.
fn await_verdict(client: &mut Client, id: i64) -> Result<(), postgres::Error> {
    let decided: bool = client
        .query_one(
            "SELECT verdict IS NOT NULL FROM umpire_proposals WHERE id = $1",
            &[&id],
        )?
        .get(0);
    if decided {
        return Ok(());
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    let want = id.to_string();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(());
        }
        match client.notifications().timeout_iter(left).next()? {
            Some(n) if n.channel() == "umpire_verdict" && n.payload() == want => return Ok(()),
            Some(_) => {}
            None => return Ok(()),
        }
    }
}

/// Whether the server said its referee is not running (nothing was written).
fn no_referee(e: &postgres::Error) -> bool {
    e.as_db_error()
        .is_some_and(|db| db.code().code() == code::NO_REFEREE)
}

fn refusal(address: &ServerAddress, e: &postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(db) if db.code().code() == code::MOVED => StoreError::Moved {
            location: address.display(),
            len: db.detail().and_then(|d| d.parse().ok()).unwrap_or(0),
        },
        Some(db) if db.code().code().starts_with("UM") => StoreError::Contradiction {
            location: address.display(),
            problem: format!("the server refused: {}", db.message()),
        },
        _ => server_error(address, e),
    }
}

/// Checks that the server's schema is the one this build speaks.
fn check_schema(client: &mut Client, address: &ServerAddress) -> Result<(), StoreError> {
    let err = |e: postgres::Error| server_error(address, &e);
    let exists: bool = client
        .query_one(
            "SELECT to_regclass('public.umpire_schema') IS NOT NULL",
            &[],
        )
        .map_err(err)?
        .get(0);
    if !exists {
        return Err(StoreError::Server {
            location: address.display(),
            message: "this database has no Umpire schema — the server's administrator sets it up with `scripts/control-server.sh init` and `start` (desks do not create it)".into(),
        });
    }
    let version: Option<i32> = client
        .query_opt("SELECT max(version) FROM umpire_schema", &[])
        .map_err(err)?
        .and_then(|r| r.get(0));
    match version {
        Some(3) => Err(StoreError::Server {
            location: address.display(),
            message: "the server's schema is from before its referee (schema 3) — whoever runs the server brings it up to date with this Umpire's `scripts/control-server.sh start`".into(),
        }),
        Some(v) if v < SERVER_SCHEMA_VERSION => Err(StoreError::Server {
            location: address.display(),
            message: format!(
                "the server's games were written by an older Umpire (schema {v}, before per-umpire logins and the server's own checks) — make a new server (`scripts/control-server.sh init --dir …`), add the umpires and publish the games again from their files"
            ),
        }),
        Some(v) if v > SERVER_SCHEMA_VERSION => Err(StoreError::Server {
            location: address.display(),
            message: format!(
                "the server's games were written by a newer Umpire (schema {v}; this build reads up to {SERVER_SCHEMA_VERSION}) — update Umpire"
            ),
        }),
        Some(_) => Ok(()),
        None => Err(StoreError::Server {
            location: address.display(),
            message: "the server's schema has no version — set it up again with `scripts/control-server.sh start`".into(),
        }),
    }
}

/// Who this login is, as the server records it.
fn whoami(client: &mut Client, address: &ServerAddress) -> Result<Login, StoreError> {
    let row = client
        .query_opt(
            "SELECT login::TEXT, name, role, map_table FROM umpire_whoami()",
            &[],
        )
        .map_err(|e| server_error(address, &e))?;
    let Some(row) = row else {
        let user = config_of(address)
            .ok()
            .and_then(|c| c.get_user().map(str::to_string))
            .unwrap_or_default();
        return Err(StoreError::Server {
            location: address.display(),
            message: format!(
                "the login '{user}' is not one of this server's umpires — the server's administrator adds umpires with `scripts/control-server.sh add-umpire NAME ROLE [TABLE]`"
            ),
        });
    };
    Ok(Login {
        user: row.get(0),
        name: row.get(1),
        role: row.get(2),
        table: row.get(3),
    })
}

/// Connects, checks the schema and learns who the login is.
fn sign_in(address: &ServerAddress) -> Result<(Client, Login), StoreError> {
    let mut client = connect(address)?;
    check_schema(&mut client, address)?;
    let login = whoami(&mut client, address)?;
    // A password that worked is kept for this process's other connections (the listener's).
    if let (Some(p), Ok(t)) = (address.url_password(), target(address)) {
        pgpass::remember(&t, &p);
    }
    Ok((client, login))
}

/// The facts the server's remit checks start from: the scenario's counters (kind, army and
/// the [`FACT_ATTRIBUTES`]) and its megagame states, as the game begins. None when the
/// scenario does not load with the rulesets Umpire ships (a ruleset of the club's own): the
/// server then lets only Game Control change counters.
pub fn facts(meta: &GameMeta) -> Option<serde_json::Value> {
    let library = umpire_core::rules::Library::shipped();
    let file = umpire_core::rules::SourceFile {
        name: meta.scenario_file.clone(),
        text: meta.scenario_text.clone(),
    };
    let scenario = umpire_core::game::scenario::load_scenario(&file, &library).ok()?;
    let state = umpire_core::game::state::initial_state(&scenario);
    let counters: Vec<serde_json::Value> = state
        .counters
        .values()
        .map(|c| {
            let attributes: serde_json::Map<String, serde_json::Value> = c
                .attributes
                .iter()
                .filter(|(a, _)| FACT_ATTRIBUTES.contains(&a.as_str()))
                .filter_map(|(a, v)| Some((a.clone(), serde_json::to_value(v).ok()?)))
                .collect();
            serde_json::json!({
                "id": c.id,
                "kind": c.kind,
                "army": c.army,
                "attributes": attributes,
            })
        })
        .collect();
    let states: Vec<serde_json::Value> = scenario
        .megagame
        .iter()
        .flat_map(|m| &m.states)
        .map(|s| {
            serde_json::json!({
                "id": s.id,
                "counter": s.counter,
                "table": s.table,
                "played": s.played,
            })
        })
        .collect();
    // The clock, for the server to judge a clock step as the clock's (`umpire_clock_at`).
    let clock = library
        .get(&meta.ruleset)
        .and_then(|r| umpire_core::megagame::clock::server_clock(r, scenario.turns));
    // The remits, for the server to judge every append by the same clauses as the desks.
    let remits = scenario.remits.as_deref();
    let rules = library
        .get(&meta.ruleset)
        .map(|r| rules_facts(r, scenario.turns));
    Some(serde_json::json!({
        "counters": counters,
        "states": states,
        "clock": clock,
        "remits": remits,
        "records": scenario.records.as_ref(),
        "rules": rules,
    }))
}

/// What the server holds each entry to from the ruleset and scenario (`umpire_check_entry`):
/// each procedure's result codes, the faces of the ruleset's own dice, its decks, the leaf
/// steps of a turn and the scenario's turns.
fn rules_facts(ruleset: &umpire_core::rules::Ruleset, turns: u32) -> serde_json::Value {
    let procedures: serde_json::Map<String, serde_json::Value> = ruleset
        .procedures
        .iter()
        .filter_map(|p| {
            let codes = umpire_core::rules::ResultCodes::of(ruleset, p);
            Some((p.id.clone(), serde_json::to_value(codes).ok()?))
        })
        .collect();
    let dice: serde_json::Map<String, serde_json::Value> = ruleset
        .dice
        .custom()
        .map(|d| {
            let faces: Vec<i64> = d.faces.iter().map(|f| f.value).collect();
            (d.name.clone(), serde_json::json!(faces))
        })
        .collect();
    let decks: Vec<&str> = ruleset.decks.iter().map(|d| d.id.as_str()).collect();
    // What each deck holds before anything is done to it (game::deck::DeckState::initial).
    let deck_items: serde_json::Map<String, serde_json::Value> = ruleset
        .decks
        .iter()
        .map(|d| {
            let inside = umpire_core::game::deck::DeckState::initial(d).inside;
            (d.id.clone(), serde_json::json!(inside))
        })
        .collect();
    // The map's form, for a move's place (`umpire_position_ok`, as `check::position` judges it).
    let geometry = ruleset.geometry.as_ref().map(|g| {
        let kind = match g.kind {
            umpire_core::rules::GeometryKind::Hex => "hex",
            umpire_core::rules::GeometryKind::Area => "area",
            umpire_core::rules::GeometryKind::Free => "free",
        };
        serde_json::json!({ "kind": kind, "digits": g.hex_id_digits.unwrap_or(4) })
    });
    serde_json::json!({
        "geometry": geometry,
        "procedures": procedures,
        "dice": dice,
        "decks": decks,
        "deck_items": deck_items,
        "steps": umpire_core::game::sequence::leaf_steps(ruleset).len(),
        "turns": turns,
    })
}

impl ServerGame {
    /// Puts a new game on the server (a Game Control login only); refuses a name already in
    /// use. The server is told the scenario's facts for its remit checks ([`facts`]).
    pub fn create(address: &ServerAddress, meta: GameMeta) -> Result<ServerGame, StoreError> {
        let (mut client, login) = sign_in(address)?;
        let body = serde_json::to_value(&meta).map_err(|e| StoreError::Server {
            location: address.display(),
            message: e.to_string(),
        })?;
        let public = serde_json::to_string(&meta.public()).map_err(|e| StoreError::Server {
            location: address.display(),
            message: e.to_string(),
        })?;
        let facts = facts(&meta).unwrap_or(serde_json::Value::Null);
        client
            .execute(
                "SELECT umpire_create_game($1, $2, $3, $4)",
                &[&address.game, &body, &public, &facts],
            )
            .map_err(|e| match e.as_db_error() {
                Some(db) if db.code().code() == code::EXISTS => StoreError::Server {
                    location: address.display(),
                    message: db.message().to_string(),
                },
                _ => refusal(address, &e),
            })?;
        Ok(ServerGame {
            client,
            address: address.clone(),
            meta,
            login,
            fresh: true,
        })
    }

    /// Opens a game on the server.
    pub fn open(address: &ServerAddress) -> Result<ServerGame, StoreError> {
        let (mut client, login) = sign_in(address)?;
        let row = client
            .query_opt(
                "SELECT meta FROM umpire_games WHERE name = $1",
                &[&address.game],
            )
            .map_err(|e| server_error(address, &e))?;
        let Some(row) = row else {
            let names: Vec<String> = client
                .query("SELECT name FROM umpire_games ORDER BY name LIMIT 20", &[])
                .map_err(|e| server_error(address, &e))?
                .iter()
                .map(|r| r.get(0))
                .collect();
            return Err(StoreError::Server {
                location: address.display(),
                message: format!(
                    "no game called '{}' on this server — games there: {}",
                    address.game,
                    if names.is_empty() {
                        "none (create one with `umpire game new … --server URL`)".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            });
        };
        let meta: serde_json::Value = row.get(0);
        let meta: GameMeta = serde_json::from_value(meta).map_err(|e| StoreError::Server {
            location: address.display(),
            message: format!("the game's description (meta) is unreadable: {e}"),
        })?;
        Ok(ServerGame {
            client,
            address: address.clone(),
            meta,
            login,
            fresh: false,
        })
    }

    /// Reconnects when the link dropped since the last call.
    fn client(&mut self) -> Result<&mut Client, StoreError> {
        if self.client.is_closed() {
            self.client = connect(&self.address)?;
        }
        Ok(&mut self.client)
    }
}

impl Store for ServerGame {
    fn meta(&self) -> &GameMeta {
        &self.meta
    }

    fn location(&self) -> String {
        self.address.display()
    }

    fn entries_after(&mut self, after: u64) -> Result<Vec<Entry>, StoreError> {
        let address = self.address.clone();
        let sql =
            "SELECT seq, text, hash FROM umpire_events WHERE game = $1 AND seq > $2 ORDER BY seq";
        let params: [&(dyn postgres::types::ToSql + Sync); 2] = [&address.game, &(after as i64)];
        // A read is safe to repeat: a link that dropped since the last call (a server restarted)
        // is made again once before the desk is told.
        let rows = match self.client()?.query(sql, &params) {
            Err(e) if link_lost(&e) => {
                self.client = connect(&address)?;
                self.client.query(sql, &params)
            }
            done => done,
        }
        .map_err(|e| server_error(&address, &e))?;
        let mut out = Vec::with_capacity(rows.len());
        for (expected, row) in (after + 1..).zip(rows.iter()) {
            let seq = row.get::<_, i64>(0) as u64;
            let damaged = |problem: String| StoreError::Server {
                location: address.display(),
                message: format!("journal entry {seq} is damaged ({problem})"),
            };
            if seq != expected {
                return Err(damaged(format!("entry {expected} is missing")));
            }
            let body: String = row.get(1);
            let event: Event = serde_json::from_str(&body).map_err(|e| damaged(e.to_string()))?;
            if event.seq != seq {
                return Err(damaged(format!("it says it is entry {}", event.seq)));
            }
            out.push(Entry {
                event,
                body,
                hash: row.get(2),
            });
        }
        Ok(out)
    }

    fn append(&mut self, entries: &[Entry]) -> Result<(), StoreError> {
        let Some(first) = entries.first().map(|e| e.event.seq) else {
            return Ok(());
        };
        let address = self.address.clone();
        let texts: Vec<&str> = entries.iter().map(|e| e.body.as_str()).collect();
        let hashes: Vec<&str> = entries.iter().map(|e| e.hash.as_str()).collect();
        // One call, one transaction: the server checks and writes, or refuses the whole append.
        let publish = self.fresh && first == 1;
        // A link that drops before the answer leaves it unknown whether the append committed:
        // the same append is sent again once the server answers (for up to RESEND), and the
        // server recognises one it holds already by its entries' hashes and acknowledges it
        // without writing it twice (`umpire_append`, `umpire_publish`).
        let deadline = Instant::now() + RESEND;
        let mut sent = false;
        loop {
            let client = match self.client() {
                Ok(c) => c,
                // Nothing was sent yet: the link is down, and the desk is told at once.
                Err(e) if !sent => return Err(e),
                Err(_) if Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(300));
                    continue;
                }
                Err(e) => return Err(e),
            };
            // Put to the server's referee first (the rules of play, judged by the engine:
            // `referee`); the write then waits for its verdict and stores only what it accepted.
            let proposed = client
                .batch_execute("LISTEN umpire_verdict")
                .and_then(|()| {
                    client.query_one(
                        "SELECT umpire_propose($1, $2, $3, $4)",
                        &[&address.game, &(first as i64), &texts, &hashes],
                    )
                })
                .and_then(|row| await_verdict(client, row.get(0)));
            let done = proposed.and_then(|()| {
                if publish {
                    client.execute(
                        "SELECT umpire_publish($1, $2, $3)",
                        &[&address.game, &texts, &hashes],
                    )
                } else {
                    client.execute(
                        "SELECT umpire_append($1, $2, $3, $4)",
                        &[&address.game, &(first as i64), &texts, &hashes],
                    )
                }
            });
            sent = true;
            match done {
                Ok(_) => break,
                // The link, or a referee still reconnecting after the server restarted.
                Err(e) if (link_lost(&e) || no_referee(&e)) && Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(300));
                }
                Err(e) => return Err(refusal(&address, &e)),
            }
        }
        self.fresh = false;
        Ok(())
    }

    fn login(&self) -> Option<&Login> {
        Some(&self.login)
    }

    fn is_shared(&self) -> bool {
        true
    }

    /// On this desk's machine, not the server (whose every umpire reads everything): a file of
    /// the game's own in the user's data folder ([`kept_file`]).
    fn kept(&mut self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(kept_values(&self.address).remove(key))
    }

    fn keep(&mut self, key: &str, value: &str) -> Result<bool, StoreError> {
        let Some(path) = kept_file(&self.address) else {
            return Ok(false);
        };
        let mut values = kept_values(&self.address);
        values.insert(key.to_string(), value.to_string());
        let text = serde_json::to_string_pretty(&values).unwrap_or_default();
        umpire_core::game::journal::write_atomically(&path, &text, true).map_err(|e| {
            StoreError::Server {
                location: path.display().to_string(),
                message: format!("cannot keep the game's values there: {e}"),
            }
        })?;
        Ok(true)
    }

    fn integrity_check(&mut self) -> Result<String, StoreError> {
        let address = self.address.clone();
        let row = self
            .client()?
            .query_one(
                "SELECT g.len, COUNT(e.seq), COALESCE(MAX(e.seq), 0) FROM umpire_games g
                 LEFT JOIN umpire_events e ON e.game = g.name WHERE g.name = $1 GROUP BY g.len",
                &[&address.game],
            )
            .map_err(|e| server_error(&address, &e))?;
        let (len, count, max): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        Ok(if len == count && count == max {
            "ok".to_string()
        } else {
            format!("journal length {len}, {count} entries, last entry {max}: they should agree")
        })
    }
}

/// What the listener tells a desk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signal {
    /// The journal now has this many entries (another desk, or this one, appended).
    Moved(u64),
    /// The link to the server is down (why); the listener keeps trying.
    Down(String),
    /// The link is back (take in whatever happened meanwhile).
    Up,
}

/// A listener for one game: a thread of its own with its own connection, sending [`Signal`]s.
/// It reconnects by itself after a dropped link, and stops when dropped.
pub struct Listener {
    signals: Receiver<Signal>,
    stop: Arc<AtomicBool>,
}

impl Listener {
    /// Signals received since the last call, without waiting.
    pub fn try_iter(&self) -> impl Iterator<Item = Signal> + '_ {
        self.signals.try_iter()
    }

    /// The next signal, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Signal> {
        self.signals.recv_timeout(timeout).ok()
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Starts listening for appends to one game. The first signal is [`Signal::Up`] once the
/// listener is connected (or [`Signal::Down`] if it can't connect).
pub fn listen(address: &ServerAddress) -> Listener {
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let address = address.clone();
    thread::Builder::new()
        .name(format!("umpire-listen-{}", address.game))
        .spawn(move || listen_loop(&address, &tx, &flag))
        .ok();
    Listener { signals: rx, stop }
}

fn listen_loop(address: &ServerAddress, tx: &Sender<Signal>, stop: &AtomicBool) {
    let prefix = format!("{} ", address.game);
    let mut reported_down = false;
    while !stop.load(Ordering::Relaxed) {
        let connected = connect(address).and_then(|mut c| {
            c.batch_execute(&format!("LISTEN {CHANNEL}"))
                .map_err(|e| server_error(address, &e))?;
            Ok(c)
        });
        let mut client = match connected {
            Ok(c) => c,
            Err(e) => {
                if !reported_down {
                    reported_down = true;
                    let _ = tx.send(Signal::Down(e.to_string()));
                }
                thread::sleep(Duration::from_millis(300));
                continue;
            }
        };
        if tx.send(Signal::Up).is_err() {
            return;
        }
        let mut quiet = 0u32;
        while !stop.load(Ordering::Relaxed) {
            let next = client
                .notifications()
                .timeout_iter(Duration::from_millis(100))
                .next();
            match next {
                Ok(Some(n)) => {
                    quiet = 0;
                    if let Some(len) = n
                        .payload()
                        .strip_prefix(&prefix)
                        .and_then(|l| l.parse::<u64>().ok())
                        && tx.send(Signal::Moved(len)).is_err()
                    {
                        return;
                    }
                }
                Ok(None) => {
                    // Every half second of quiet, make sure the link is still there.
                    quiet += 1;
                    if quiet >= 5 {
                        quiet = 0;
                        if client.is_valid(Duration::from_secs(1)).is_err() {
                            break;
                        }
                    }
                }
                Err(_) => break,
            }
        }
        if stop.load(Ordering::Relaxed) {
            return;
        }
        reported_down = true;
        if tx
            .send(Signal::Down("the link to the server dropped".into()))
            .is_err()
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schema the script sets up (`scripts/control-server.sql`).
    const SQL: &str = include_str!("../../../scripts/control-server.sql");

    #[test]
    fn the_script_sets_up_the_schema_version_this_build_reads() {
        let v = SERVER_SCHEMA_VERSION;
        assert!(
            SQL.contains(&format!(
                "INSERT INTO umpire_schema (version) SELECT {v} WHERE"
            )),
            "scripts/control-server.sql writes another schema version than {v}"
        );
        // A server of the schema before is brought up to this one in place; a newer is refused.
        assert!(SQL.contains(&format!(
            "UPDATE umpire_schema SET version = {v} WHERE version < {v};"
        )));
        assert!(SQL.contains(&format!("ELSIF v > {v} THEN")));
    }

    #[test]
    fn the_server_keeps_the_facts_the_remit_reads() {
        let sql_list = FACT_ATTRIBUTES
            .iter()
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(", ");
        assert!(
            SQL.contains(&format!("SELECT a IN ({sql_list})")),
            "{sql_list}"
        );
    }

    #[test]
    fn facts_come_from_the_scenario_with_only_the_attributes_the_remit_reads() {
        let file = umpire_core::rules::SourceFile {
            name: "rr3_examples.yaml".into(),
            text: include_str!("../../../tests/fixtures/scenarios/rr3_examples.yaml").into(),
        };
        let meta = GameMeta::new(
            "rr3".into(),
            "rr3_examples".into(),
            file.name.clone(),
            file.text.clone(),
            1,
            true,
        );
        let facts = facts(&meta).expect("a shipped ruleset's scenario");
        let army = facts["counters"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["id"] == "monluc-army"))
            .expect("monluc-army");
        assert_eq!(army["kind"], "unit");
        assert_eq!(army["attributes"]["map_table"], "the_mediterranean");
        assert_eq!(army["attributes"]["country"], "france");
        assert!(army["attributes"].get("strength_thousands").is_none());
        let states = facts["states"].as_array().expect("states");
        assert!(
            states
                .iter()
                .any(|s| s["id"] == "ruritannia" && s["played"] == false)
        );
    }
}
