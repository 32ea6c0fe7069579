//! A server login's password when the URL has none: from `~/.pgpass` (or `PGPASSFILE`), else,
//! on a terminal, typed at a prompt that does not echo it. It is kept in this process only and
//! never printed.

use std::io::IsTerminal;

use anyhow::Result;

use umpire::game::Location;
use umpire::server::{self, pgpass};

/// Makes sure a password is at hand for a game on a server (`location` a URL; a file needs
/// none): asks on the terminal when the URL, this process and the password file have none. Off
/// a terminal it asks nothing; the server's refusal then says where to put the password.
pub fn ready(location: &str) -> Result<()> {
    let Ok(Location::Server(address)) = Location::parse(location) else {
        return Ok(());
    };
    match server::known_password(&address) {
        Ok(Some(_)) => return Ok(()),
        Ok(None) => {}
        // A password file others may read is passed over, as libpq does: say so.
        Err(why) => eprintln!("umpire: {why}"),
    }
    if !std::io::stdin().is_terminal() {
        return Ok(());
    }
    let target = server::target(&address)?;
    let password = rpassword::prompt_password(format!("Password for {target}: "))?;
    pgpass::remember(&target, &password);
    Ok(())
}
