//! `umpire referee --socket DIR --port PORT`: the Control server's referee, which holds every
//! append a desk proposes to the rules of play before the server stores it (the umpire-server
//! crate's `referee`). `scripts/control-server.sh start` runs it in the background; it is not a
//! command an umpire types.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args;

use super::{Cli, library};
use umpire::server::referee::{self, RefereeAt};

/// Arguments of `referee`.
#[derive(Debug, Args)]
pub struct RefereeArgs {
    /// The server's directory, which holds its Unix socket (control-server.sh's `--dir`).
    #[arg(long, value_name = "DIR")]
    pub socket: PathBuf,
    /// The server's port.
    #[arg(long, default_value_t = 5433)]
    pub port: u16,
}

/// Runs the referee until its server is gone.
pub fn run(cli: &Cli, args: &RefereeArgs) -> Result<()> {
    let lib = library(cli)?;
    let at = RefereeAt {
        socket: args.socket.clone(),
        port: args.port,
    };
    let mut say = |line: &str| {
        let now = chrono::Local::now().format("%Y-%m-%d %H:%M:%S");
        let _ = writeln!(std::io::stderr(), "{now} referee: {line}");
    };
    referee::run(&at, &lib, &mut say).map_err(|e| anyhow!("the referee stops: {e}"))
}
