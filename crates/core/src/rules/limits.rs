//! Limits on what a rules file may hold, checked before anything is parsed: a hostile or
//! mistaken file (a transcription folder is read by every command) gets a sentence naming it,
//! never a stack overflow, a hang or gigabytes of memory.
//!
//! The expression limits live with expressions ([`super::expr`]), the dice notation limits with
//! the notation ([`crate::dice::DiceExpr`]).

use std::io::Read;
use std::path::Path;

use super::error::LoadError;

/// The largest rules file read: a ruleset, a table, a transcription or a scenario.
///
/// The largest shipped file, `tables/ailsh/ruleset.yaml`, is 106 KB, the largest scenario 28 KB,
/// and a chart of 200 rows by 20 columns would be about 100 KB. Reading YAML into a ruleset
/// takes 60 to 100 times the file's size in memory, and a 4 MB table took 18 s to be refused in a
/// debug build (42 MB: 23 s and 2.9 GB in a release build), so 1 MB (ten times the largest real
/// file) keeps a mistaken file (a log, an export, a renamed image) to a refusal.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// A size in bytes as people read it ("42.0 MB", "512 KB").
pub fn human_size(bytes: u64) -> String {
    const MB: u64 = 1024 * 1024;
    if bytes >= MB {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// The refusal of a file over [`MAX_FILE_BYTES`].
pub fn too_large(file: &str, bytes: u64) -> LoadError {
    LoadError {
        file: file.to_string(),
        line: 0,
        column: 0,
        problem: format!(
            "the file is {}; the limit is {}, and no rules file comes near it",
            human_size(bytes),
            human_size(MAX_FILE_BYTES)
        ),
        hint: "check that this is the file you meant to put here; move anything else out of the folder"
            .into(),
    }
}

/// Refuses a text already in memory (a scenario kept in a game file, an import) over the limit.
pub fn check_size(file: &str, text: &str) -> Result<(), LoadError> {
    let bytes = text.len() as u64;
    if bytes > MAX_FILE_BYTES {
        return Err(too_large(file, bytes));
    }
    Ok(())
}

/// Reads a rules file as text, refusing it before reading when it is over the limit. The read
/// itself stops past the limit too, so a file that grows meanwhile (or a device) is refused alike.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let name = path.display().to_string();
    let cannot = |e: std::io::Error| LoadError {
        file: name.clone(),
        line: 0,
        column: 0,
        problem: format!("cannot read: {e}"),
        hint: "check the path and permissions".into(),
    };
    let file = std::fs::File::open(path).map_err(cannot)?;
    let len = file.metadata().map_err(cannot)?.len();
    if len > MAX_FILE_BYTES {
        return Err(too_large(&name, len));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(&name, bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| LoadError {
        file: name.clone(),
        line: 0,
        column: 0,
        problem: format!("cannot read: not UTF-8 text ({e})"),
        hint: "save the file as UTF-8".into(),
    })
}

/// The deepest nesting of YAML collections accepted, flow (`[`, `{`) and block (indentation,
/// `- - x`) together, as [`check_yaml_depth`] counts it: every node that starts further right
/// than the one above counts a level, so the count runs a little over the true depth. Shipped
/// files count at most 10. yaml_serde itself gives up at 128 levels, but only after libyaml has
/// read the whole file, in time quadratic in the flow depth (a 100,000-deep `[[[…` took 12
/// minutes) and holding every event in memory (a line of 1,000,000 `- ` took 340 MB).
pub const MAX_YAML_DEPTH: usize = 100;

/// The lines of a YAML text, split where libyaml splits them (`\n`, `\r\n`, `\r`, and the
/// Unicode breaks NEL, LS and PS).
fn yaml_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some((at, c)) = rest
            .char_indices()
            .find(|(_, c)| matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'))
        else {
            let line = rest;
            rest = "";
            return Some(line);
        };
        let line = &rest[..at];
        let mut end = at + c.len_utf8();
        if c == '\r' && rest[end..].starts_with('\n') {
            end += 1;
        }
        rest = &rest[end..];
        Some(line)
    })
}

/// Measures a YAML text's nesting with a plain scan (linear time, no recursion) and refuses it
/// past [`MAX_YAML_DEPTH`], before any YAML parser sees it, naming the line and column where it
/// first goes too deep. The scan knows enough YAML not to be misled by real files (comments,
/// quoted scalars and their escapes, block scalars, anchors and tags, brackets in plain text)
/// and errs towards counting deeper, never shallower.
pub fn check_yaml_depth(file: &str, text: &str) -> Result<(), LoadError> {
    let (deepest, first) = scan_yaml(text);
    match first {
        None => Ok(()),
        Some((line, column)) => Err(LoadError {
            file: file.to_string(),
            line,
            column,
            problem: format!(
                "lists and mappings are nested {deepest} deep; the limit is {MAX_YAML_DEPTH}"
            ),
            hint: "no rules file nests that deep: look for brackets that are never closed".into(),
        }),
    }
}

/// How deep [`check_yaml_depth`] counts a YAML text's nesting.
pub fn yaml_depth(text: &str) -> usize {
    scan_yaml(text).0
}

/// The deepest nesting counted, and where it first went past the limit (line, column).
fn scan_yaml(text: &str) -> (usize, Option<(usize, usize)>) {
    // Columns of the block nodes open above the current line.
    let mut block: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    let mut deepest = 0usize;
    let mut first: Option<(usize, usize)> = None;
    // Inside a quoted scalar: its quote.
    let mut quote: Option<char> = None;
    // Inside a block scalar (`|`, `>`): the column of the node that holds it.
    let mut block_scalar: Option<usize> = None;
    for (number, line) in yaml_lines(text).enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let indent = chars.iter().take_while(|c| **c == ' ').count();
        let blank = chars[indent..].iter().all(|c| c.is_whitespace());
        if let Some(parent) = block_scalar {
            if blank || indent > parent {
                continue;
            }
            block_scalar = None;
        }
        if quote.is_none() && flow == 0 {
            if blank || chars.get(indent) == Some(&'#') {
                continue;
            }
            while block.last().is_some_and(|&c| c > indent) {
                block.pop();
            }
        }
        // Whether a node may start here: at a line's first character, after `- `, `? `, `: `,
        // a flow indicator, or an anchor or tag.
        let mut node_start = quote.is_none();
        let mut after_space = true;
        let mut i = indent;
        while i < chars.len() {
            let c = chars[i];
            let next = chars.get(i + 1).copied();
            let spaced = next.is_none_or(|n| n == ' ' || n == '\t');
            if let Some(q) = quote {
                // An escape (`\"` in double quotes, `''` in single quotes) skips a character.
                let escape =
                    (c == '\\' && q == '"') || (c == '\'' && q == '\'' && next == Some('\''));
                if escape {
                    i += 1;
                } else if c == q {
                    quote = None;
                    node_start = false;
                }
                i += 1;
                continue;
            }
            if c == ' ' || c == '\t' {
                after_space = true;
                i += 1;
                continue;
            }
            if c == '#' && after_space {
                break;
            }
            after_space = false;
            let mut opened = false;
            match c {
                '[' | '{' if flow > 0 || node_start => {
                    flow += 1;
                    opened = true;
                    node_start = true;
                }
                ']' | '}' if flow > 0 => {
                    flow -= 1;
                    node_start = false;
                }
                ',' if flow > 0 => node_start = true,
                ':' if spaced || flow > 0 => node_start = true,
                '"' | '\'' if node_start => {
                    quote = Some(c);
                    if flow == 0 && block.last().is_none_or(|&top| i > top) {
                        block.push(i);
                        opened = true;
                    }
                }
                '|' | '>' if node_start && flow == 0 => {
                    block_scalar = Some(block.last().copied().unwrap_or(indent));
                    break;
                }
                '&' | '!' if node_start => {
                    // An anchor or a tag: the node itself follows it.
                    while chars.get(i + 1).is_some_and(|n| *n != ' ' && *n != '\t') {
                        i += 1;
                    }
                }
                _ => {
                    if node_start && flow == 0 && block.last().is_none_or(|&top| i > top) {
                        block.push(i);
                        opened = true;
                    }
                    // `- ` and `? ` begin a node of their own on the same line.
                    node_start = node_start && matches!(c, '-' | '?') && spaced;
                }
            }
            if opened {
                let depth = block.len() + flow;
                deepest = deepest.max(depth);
                if depth > MAX_YAML_DEPTH && first.is_none() {
                    first = Some((number + 1, i + 1));
                }
            }
            i += 1;
        }
    }
    (deepest, first)
}
