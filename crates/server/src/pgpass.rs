//! Passwords for a server login, as libpq finds them (the `postgres` crate does not): the URL's
//! own, one this process was given (typed at a prompt or in the desk's dialog), or a line of the
//! password file — `PGPASSFILE`, else `~/.pgpass` — `host:port:database:user:password`, each of
//! the first four a value or `*`, `\:` and `\\` escaping a colon and a backslash. As libpq, a
//! password file that the group or others may read is not used (it says why).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Who is signing in where: the four keys of a password-file line (a Unix socket's host is
/// `localhost`, as libpq matches it).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// The host as the URL names it.
    pub host: String,
    /// The port.
    pub port: u16,
    /// The database.
    pub database: String,
    /// The login.
    pub user: String,
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}@{}:{}/{}",
            self.user, self.host, self.port, self.database
        )
    }
}

/// Passwords given to this process, by target (never written anywhere).
static GIVEN: Mutex<BTreeMap<Target, String>> = Mutex::new(BTreeMap::new());

/// Keeps a password for this process's later connections to `target` (the listener's, a
/// reconnection).
pub fn remember(target: &Target, password: &str) {
    if let Ok(mut given) = GIVEN.lock() {
        given.insert(target.clone(), password.to_string());
    }
}

/// A password this process was given for `target`.
pub fn given(target: &Target) -> Option<String> {
    GIVEN.lock().ok()?.get(target).cloned()
}

/// The password file: `PGPASSFILE`, else `~/.pgpass`.
pub fn file() -> Option<PathBuf> {
    match std::env::var_os("PGPASSFILE") {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => std::env::var_os("HOME").map(|h| Path::new(&h).join(".pgpass")),
    }
}

/// What the password file says for `target`: the password, or why the file was not used
/// (`Err`), or nothing (`Ok(None)`: no file, or no line for it).
pub fn lookup(path: &Path, target: &Target) -> Result<Option<String>, String> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(None);
    };
    if !meta.is_file() {
        return Err(format!("{} is not a plain file", path.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o077 != 0 {
            return Err(format!(
                "{} may be read by others, so it is not used — make it yours alone: chmod 600 {}",
                path.display(),
                path.display()
            ));
        }
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    Ok(find(&text, target))
}

/// The first line of a password file's text that matches `target`.
pub fn find(text: &str, target: &Target) -> Option<String> {
    let port = target.port.to_string();
    let wanted = [
        target.host.as_str(),
        port.as_str(),
        target.database.as_str(),
        target.user.as_str(),
    ];
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .find_map(|line| {
            let fields = split(line);
            if fields.len() < 5 {
                return None;
            }
            let matches = wanted
                .iter()
                .zip(&fields)
                .all(|(want, (field, star))| *star || field == want);
            matches.then(|| fields[4].0.clone())
        })
}

/// A line's fields, unescaped, each with whether it was a bare `*` (a wildcard).
fn split(line: &str) -> Vec<(String, bool)> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut escaped_any = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    field.push(next);
                    escaped_any = true;
                }
            }
            ':' if fields.len() < 4 => {
                let star = field == "*" && !escaped_any;
                fields.push((std::mem::take(&mut field), star));
                escaped_any = false;
            }
            c => field.push(c),
        }
    }
    fields.push((field, false));
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(host: &str, user: &str) -> Target {
        Target {
            host: host.into(),
            port: 5433,
            database: "umpire".into(),
            user: user.into(),
        }
    }

    #[test]
    fn lines_match_with_wildcards_and_escapes_in_order() {
        let text = "# a comment\n\
                    10.0.0.9:5433:umpire:anna:other\n\
                    *:5433:umpire:anna:pa\\:ss\\\\word\n\
                    *:*:*:*:fallback\n";
        assert_eq!(
            find(text, &target("127.0.0.1", "anna")).as_deref(),
            Some("pa:ss\\word")
        );
        assert_eq!(
            find(text, &target("10.0.0.9", "anna")).as_deref(),
            Some("other")
        );
        assert_eq!(
            find(text, &target("h", "bruno")).as_deref(),
            Some("fallback")
        );
        assert_eq!(find("h:1:d:u:pw", &target("h", "u")), None, "another port");
        // An escaped star is a host called "*", not a wildcard.
        assert_eq!(find("\\*:5433:umpire:u:pw", &target("h", "u")), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_may_read_is_not_used() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("umpire-pgpass-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("pgpass");
        std::fs::write(&path, "*:*:*:anna:secret\n").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let err = lookup(&path, &target("h", "anna")).expect_err("world-readable");
        assert!(
            err.contains("chmod 600") && !err.contains("secret"),
            "{err}"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        assert_eq!(
            lookup(&path, &target("h", "anna")).expect("ok").as_deref(),
            Some("secret")
        );
        assert_eq!(lookup(&dir.join("none"), &target("h", "anna")), Ok(None));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
