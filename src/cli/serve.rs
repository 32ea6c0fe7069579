//! `umpire serve GAME [--bind ADDR:PORT]`: the players' view — each side follows the game live
//! on its own phones over the LAN, its side only; the one thing it takes from a phone is a side's sealed orders (the umpire-serve crate).

use crate::cli::GameFile;
use std::io::Write;
use std::net::SocketAddr;

use anyhow::{Result, anyhow};
use clap::Args;

use super::{Cli, library};
use umpire::serve::{ServeOptions, Server};

/// Arguments of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub game: GameFile,
    /// Where to listen: this machine's address on the club's LAN and a port (default: the LAN
    /// address found, port 8080). 127.0.0.1:PORT keeps it to this machine.
    #[arg(long, value_name = "ADDR:PORT")]
    pub bind: Option<SocketAddr>,
    /// The most phones following live at once (one link may hold at most half of them, so the
    /// public link pinned on the wall always leaves the sides room).
    #[arg(long, default_value_t = 64)]
    pub max_connections: usize,
    /// Leave out the QR codes (links and short codes only).
    #[arg(long)]
    pub no_qr: bool,
    /// Make new links: every link given out before is refused from now on. Without it the
    /// links are the ones kept with the game, so a restart keeps the phones' pages working.
    #[arg(long)]
    pub new_links: bool,
}

/// Runs `serve` until interrupted.
pub fn run(cli: &Cli, args: &ServeArgs) -> Result<()> {
    let lib = library(cli)?;
    super::password::ready(&args.game.file.to_string_lossy())?;
    let bind = args.bind.unwrap_or_else(|| {
        let ip = umpire::serve::lan_address().unwrap_or(std::net::IpAddr::from([127, 0, 0, 1]));
        SocketAddr::new(ip, 8080)
    });
    if args.new_links {
        umpire::serve::forget_links(&args.game.file.to_string_lossy(), &lib)
            .map_err(|e| anyhow!(e))?;
    }
    let server = Server::start(
        &args.game.file.to_string_lossy(),
        lib,
        &ServeOptions {
            bind,
            max_connections: args.max_connections,
        },
    )
    .map_err(|e| anyhow!(e))?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "players' view on http://{} (it writes only the sealed orders a side hands in)",
        server.addr
    )?;
    for link in &server.links {
        writeln!(
            out,
            "{}: {}  (code {})",
            link.name,
            link.url,
            link.short_code()
        )?;
        if !args.no_qr {
            writeln!(out, "{}", link.qr_text())?;
        }
    }
    writeln!(
        out,
        "Each link shows only what that side may see. Ctrl-C stops serving."
    )?;
    if server.links_kept {
        writeln!(
            out,
            "The links are kept with the game: serving it again gives the same ones (--new-links makes new ones)."
        )?;
    } else {
        writeln!(
            out,
            "The links cannot be kept with this game (it is open for reading only): serving it again gives new ones."
        )?;
    }
    out.flush()?;
    drop(out);
    loop {
        std::thread::park();
    }
}
