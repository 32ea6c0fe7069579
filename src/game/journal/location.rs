//! Where a game is kept: a game file (a path), or a game on a PostgreSQL server, named by a URL
//! `postgres://user[:password]@host[:port]/database?game=NAME` (also `postgresql://`). Every
//! place that takes a game file takes either.

use std::path::PathBuf;

use super::StoreError;

/// A game on a server: how to connect, and which game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerAddress {
    /// The connection URL without the `game` parameter (handed to the PostgreSQL client).
    pub url: String,
    /// The game's name on the server.
    pub game: String,
}

impl ServerAddress {
    /// The URL for people: the password left out.
    pub fn display(&self) -> String {
        let shown = hide_password(&self.url);
        let sep = if shown.contains('?') { '&' } else { '?' };
        format!("{shown}{sep}game={}", self.game)
    }
}

/// A game file or a game on a server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// An SQLite game file.
    File(PathBuf),
    /// A game on a PostgreSQL server.
    Server(ServerAddress),
}

/// Whether a string names a server rather than a file.
pub fn is_server(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("postgres://") || t.starts_with("postgresql://")
}

fn hide_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

fn valid_game_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl Location {
    /// Reads a game location: a server URL, or else a file path.
    pub fn parse(text: &str) -> Result<Location, StoreError> {
        let text = text.trim();
        if !is_server(text) {
            return Ok(Location::File(PathBuf::from(text)));
        }
        let (base, query) = match text.split_once('?') {
            Some((b, q)) => (b, q),
            None => (text, ""),
        };
        let mut game = None;
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some(("game", v)) => game = Some(v.to_string()),
                _ => kept.push(pair),
            }
        }
        let shown = hide_password(base);
        let Some(game) = game else {
            return Err(StoreError::Address {
                problem: format!(
                    "the URL names no game — add ?game=NAME (e.g. {shown}?game=rr3-saturday)"
                ),
                shown,
            });
        };
        if !valid_game_name(&game) {
            return Err(StoreError::Address {
                shown,
                problem: format!(
                    "game name '{game}' — use letters, digits, '-', '_' or '.' (at most 100)"
                ),
            });
        }
        let url = if kept.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        Ok(Location::Server(ServerAddress { url, game }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_paths() {
        assert_eq!(
            Location::parse("games/rr3.umpire").expect("path"),
            Location::File(PathBuf::from("games/rr3.umpire"))
        );
    }

    #[test]
    fn server_urls_name_a_game() {
        let Location::Server(s) = Location::parse(
            "postgres://control:secret@127.0.0.1:5433/umpire?game=rr3-sat&connect_timeout=3",
        )
        .expect("url") else {
            panic!("not a server");
        };
        assert_eq!(s.game, "rr3-sat");
        assert_eq!(
            s.url,
            "postgres://control:secret@127.0.0.1:5433/umpire?connect_timeout=3"
        );
        assert_eq!(
            s.display(),
            "postgres://control:***@127.0.0.1:5433/umpire?connect_timeout=3&game=rr3-sat"
        );
    }

    #[test]
    fn a_url_without_a_game_is_refused_with_a_hint() {
        let err = Location::parse("postgresql://u:pw@host/db").expect_err("no game");
        let text = err.to_string();
        assert!(text.contains("?game=NAME"), "{text}");
        assert!(!text.contains("pw"), "password shown: {text}");
        assert!(Location::parse("postgres://h/db?game=a b").is_err());
    }
}
