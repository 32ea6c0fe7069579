//! The journal's hash chain. Each entry's hash covers the previous entry's hash and the entry's
//! exact stored text, and the chain starts from a hash of what the game started from (ruleset,
//! scenario text, seed commitment), so deleting, reordering, renumbering, editing or truncating
//! any entry changes every hash after it. A player who noted the journal head (entry count and
//! hash, printed on every report) can later prove the journal they were shown was not rewritten.
//!
//! The formulas are plain SHA-256 over text, so the PostgreSQL server checks each entry with its
//! own `sha256()` (see `server.rs`):
//!
//! - genesis = SHA-256(`"umpire-journal/v1\n"` ‖ the public description, as JSON)
//! - hash(n) = SHA-256(hash(n − 1) in hex ‖ `"\n"` ‖ entry n's stored JSON text)
//! - seed commitment = SHA-256(`"umpire-seed/v1\n"` ‖ seed in decimal ‖ `"\n"` ‖ salt in hex)

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Prefix of the genesis hash's input (the version of these formulas).
pub const GENESIS_TAG: &str = "umpire-journal/v1\n";

/// Prefix of the seed commitment's input.
pub const SEED_TAG: &str = "umpire-seed/v1\n";

/// SHA-256 of `bytes`, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        out.push(char::from_digit(u32::from(b & 0xf), 16).unwrap_or('0'));
    }
    out
}

/// The hash the chain starts from: of the game's public description as JSON text.
pub fn genesis(public_json: &str) -> String {
    let mut input = String::with_capacity(GENESIS_TAG.len() + public_json.len());
    input.push_str(GENESIS_TAG);
    input.push_str(public_json);
    sha256_hex(input.as_bytes())
}

/// The hash of an entry: the previous entry's hash (or the genesis) and the entry's text.
pub fn link(previous: &str, body: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(previous.as_bytes());
    hasher.update(b"\n");
    hasher.update(body.as_bytes());
    hex(&hasher.finalize())
}

/// The commitment to a seed: shown from the start, while the seed stays secret; anyone can
/// check it once the seed and salt are revealed.
pub fn commitment(seed: u64, salt: &str) -> String {
    sha256_hex(format!("{SEED_TAG}{seed}\n{salt}").as_bytes())
}

/// A fresh random salt (16 bytes, hex) for a seed commitment.
pub fn fresh_salt() -> String {
    let bytes: [u8; 16] = rand::random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where a journal stands: how many entries, and the last one's hash. Printed on reports so a
/// player can check later that the journal they were shown was not rewritten.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// Entries in the journal.
    pub entries: u64,
    /// The last entry's hash (the genesis hash when there is none).
    pub hash: String,
}

impl Head {
    /// `94:3f2a…` as typed back to `game verify --head`.
    pub fn token(&self) -> String {
        format!("{}:{}", self.entries, self.hash)
    }

    /// Reads `ENTRIES:HASH` (the hash may be shortened to its first 12 or more characters).
    pub fn parse(text: &str) -> Result<Head, String> {
        let (n, hash) = text.trim().split_once(':').ok_or_else(|| {
            format!("'{text}' is not a journal head — give ENTRIES:HASH as a report prints it")
        })?;
        let entries: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("'{n}' is not a number of entries"))?;
        let hash = hash.trim().to_ascii_lowercase();
        if hash.len() < 12 || hash.len() > 64 || !hash.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!(
                "'{hash}' is not a journal hash — give at least its first 12 hex digits"
            ));
        }
        Ok(Head { entries, hash })
    }

    /// Whether `other` names this head (a shortened hash matches its prefix).
    pub fn matches(&self, other: &Head) -> bool {
        self.entries == other.entries && self.hash.starts_with(&other.hash)
    }
}

impl std::fmt::Display for Head {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} entries, head {}", self.entries, self.hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_sha256_of_the_documented_text() {
        // SHA-256("abc"), the FIPS 180-2 example.
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let g = genesis("{}");
        assert_eq!(g, sha256_hex(b"umpire-journal/v1\n{}"));
        assert_eq!(link(&g, "x"), sha256_hex(format!("{g}\nx").as_bytes()));
        assert_ne!(link(&g, "x"), link(&g, "y"));
        assert_eq!(commitment(42, "00"), sha256_hex(b"umpire-seed/v1\n42\n00"));
        assert_ne!(fresh_salt(), fresh_salt());
    }

    #[test]
    fn heads_round_trip_and_accept_a_prefix() {
        let head = Head {
            entries: 94,
            hash: sha256_hex(b"x"),
        };
        assert_eq!(Head::parse(&head.token()).expect("parse"), head);
        let short = Head::parse(&format!("94:{}", &head.hash[..12])).expect("short");
        assert!(head.matches(&short));
        assert!(!head.matches(&Head::parse("95:2d711642b726").expect("other")));
        assert!(Head::parse("94").is_err());
        assert!(Head::parse("94:xyz").is_err());
    }
}
