//! Where a game is kept: a game file (a path), or a game on a PostgreSQL server, named by a URL
//! `postgres://user[:password]@host[:port]/database?game=NAME` (also `postgresql://`). Every
//! place that takes a game file takes either. `fingerprint=sha256:AB:CD…` pins the server's TLS
//! certificate (see `server::tls`); like `game=`, it is Umpire's and not handed to the
//! PostgreSQL client. A URL as Umpire shows it (the password written `***`) reads back as a URL
//! without a password, which is then looked up as if none had been given.

use std::path::PathBuf;

use super::StoreError;

/// A game on a server: how to connect, and which game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerAddress {
    /// The connection URL without the `game` parameter (handed to the PostgreSQL client).
    pub url: String,
    /// The game's name on the server.
    pub game: String,
    /// The server certificate's SHA-256 fingerprint the desk insists on (`sha256:AB:CD:…`, 32
    /// bytes in upper-case hex), when the URL pins one.
    pub fingerprint: Option<String>,
}

impl ServerAddress {
    /// The URL for people: the password left out (the pin kept: it is no secret).
    pub fn display(&self) -> String {
        let shown = hide_password(&self.url);
        let sep = if shown.contains('?') { '&' } else { '?' };
        match &self.fingerprint {
            Some(pin) => format!("{shown}{sep}fingerprint={pin}&game={}", self.game),
            None => format!("{shown}{sep}game={}", self.game),
        }
    }

    /// The password written in the URL itself, if any.
    pub fn url_password(&self) -> Option<String> {
        let (_, rest) = self.url.split_once("://")?;
        let authority = rest.split(['/', '?']).next()?;
        let (userinfo, _) = authority.rsplit_once('@')?;
        let (_, password) = userinfo.split_once(':')?;
        Some(percent_decode(password))
    }
}

/// `%XX` escapes decoded (as the PostgreSQL client reads a URL's user and password).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(v) = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads a pinned fingerprint, `sha256:` then 32 bytes in hex (colons optional, any case), into
/// its canonical form `sha256:AB:CD:…`.
pub fn parse_fingerprint(text: &str) -> Result<String, String> {
    let t = text.trim();
    let hex = t
        .get(..7)
        .filter(|p| p.eq_ignore_ascii_case("sha256:"))
        .map(|_| &t[7..])
        .ok_or_else(|| {
            format!(
                "fingerprint '{t}' — write sha256: then the certificate's 32-byte SHA-256 in hex, as `control-server.sh fingerprint` prints it"
            )
        })?;
    let digits: String = hex.chars().filter(|c| *c != ':').collect();
    if digits.len() != 64 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "fingerprint '{t}' — a SHA-256 fingerprint has 64 hex digits (32 bytes), as `control-server.sh fingerprint` prints it"
        ));
    }
    let upper = digits.to_ascii_uppercase();
    let pairs: Vec<&str> = (0..32)
        .filter_map(|i| upper.get(i * 2..i * 2 + 2))
        .collect();
    Ok(format!("sha256:{}", pairs.join(":")))
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

/// The URL for people: a password in it written `***`.
pub fn hide_password(url: &str) -> String {
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
        let base = without_shown_password(base);
        let base = base.as_str();
        let mut game = None;
        let mut fingerprint = None;
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some(("game", v)) => game = Some(v.to_string()),
                Some(("fingerprint", v)) => fingerprint = Some(v.to_string()),
                _ => kept.push(pair),
            }
        }
        let shown = hide_password(base);
        let fingerprint = fingerprint
            .map(|f| parse_fingerprint(&f))
            .transpose()
            .map_err(|problem| StoreError::Address {
                shown: shown.clone(),
                problem,
            })?;
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
        Ok(Location::Server(ServerAddress {
            url,
            game,
            fingerprint,
        }))
    }
}

/// The URL with a password written `***` (as Umpire shows it) taken out.
fn without_shown_password(base: &str) -> String {
    let Some((scheme, rest)) = base.split_once("://") else {
        return base.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, "***")) => format!("{scheme}://{user}@{host}{tail}"),
            _ => base.to_string(),
        },
        None => base.to_string(),
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

    #[test]
    fn a_pinned_fingerprint_is_umpires_and_a_shown_password_reads_as_none() {
        let pin = "sha256:bb:d7:28:ff:31:6e:ea:cc:09:01:24:df:2e:67:ee:fc:5c:3f:39:1a:fb:ef:94:a6:b4:7e:ef:6f:44:4c:5d:98";
        let Location::Server(s) = Location::parse(&format!(
            "postgres://anna:p%3Aw@10.0.0.2:5433/umpire?sslmode=require&fingerprint={pin}&game=g"
        ))
        .expect("url") else {
            panic!("not a server");
        };
        assert_eq!(
            s.url,
            "postgres://anna:p%3Aw@10.0.0.2:5433/umpire?sslmode=require"
        );
        assert_eq!(s.url_password().as_deref(), Some("p:w"));
        let canonical = pin.to_ascii_uppercase().replace("SHA256:", "sha256:");
        assert_eq!(s.fingerprint.as_deref(), Some(canonical.as_str()));
        let shown = s.display();
        assert!(!shown.contains("p%3Aw"), "{shown}");
        let Location::Server(again) = Location::parse(&shown).expect("shown url") else {
            panic!("not a server");
        };
        assert_eq!(again.url_password(), None);
        assert_eq!(again.fingerprint, s.fingerprint);
        assert_eq!(again.game, "g");
        assert!(Location::parse("postgres://h/db?game=g&fingerprint=sha256:AB").is_err());
        assert!(Location::parse("postgres://h/db?game=g&fingerprint=md5:AB").is_err());
    }
}
