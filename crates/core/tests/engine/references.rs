//! Rule references (issue 13): every `rule:` in the shipped rulesets and scenarios is the
//! reference a player looks up in the printed rules (a rule number or a heading path), never a
//! line of the text extraction; and every line the files cite (`source:`, notes, help texts) is
//! inside the text and not blank. The texts' lengths and blank lines come from
//! docs/numbering/<ruleset>.yaml, so CI needs no copy of the texts.

use std::collections::BTreeSet;
use std::path::PathBuf;

const RULESETS: [&str; 5] = ["ailsh", "rr3", "qrs", "arquebus", "gradisca"];

fn root() -> PathBuf {
    crate::root()
}

/// A text's length and its blank lines, from its numbering map.
struct Text {
    lines: u32,
    blank: BTreeSet<u32>,
    starts: Vec<u32>,
}

fn numbers(range: &str) -> (u32, u32) {
    let mut parts = range.split(['–', '-']).map(|p| {
        p.trim()
            .trim_start_matches('L')
            .parse::<u32>()
            .unwrap_or_else(|e| panic!("{range}: {e}"))
    });
    let a = parts.next().expect("a number");
    (a, parts.next().unwrap_or(a))
}

fn text_of(ruleset: &str) -> Text {
    let path = root().join(format!("docs/numbering/{ruleset}.yaml"));
    let map: yaml_serde::Value =
        yaml_serde::from_str(&std::fs::read_to_string(&path).expect("numbering map"))
            .expect("YAML");
    let lines = map["lines"].as_u64().expect("lines") as u32;
    let mut blank = BTreeSet::new();
    for part in map["blank"].as_str().expect("blank").split(", ") {
        let (a, b) = numbers(part);
        blank.extend(a..=b);
    }
    let starts = map["sections"]
        .as_sequence()
        .expect("sections")
        .iter()
        .map(|s| s["line"].as_u64().expect("line") as u32)
        .collect();
    Text {
        lines,
        blank,
        starts,
    }
}

fn yaml_files(ruleset: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["tables", "scenarios"] {
        let Ok(entries) = std::fs::read_dir(root().join(dir).join(ruleset)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "yaml") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "{ruleset}: no files");
    out
}

/// Every line of the shipped YAML that is not a comment: (file as shown, line number, text).
fn content_lines() -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    for ruleset in RULESETS {
        for file in yaml_files(ruleset) {
            let shown = file
                .strip_prefix(root())
                .unwrap_or(&file)
                .display()
                .to_string();
            let body = std::fs::read_to_string(&file).expect("read");
            for (n, line) in body.lines().enumerate() {
                if !line.trim_start().starts_with('#') {
                    out.push((shown.clone(), n + 1, line.to_string()));
                }
            }
        }
    }
    out
}

/// Every `L…` reference in a line of YAML (comments included): (start, end).
fn line_refs(line: &str) -> Vec<(u32, u32)> {
    let bytes: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts_ref = bytes[i] == 'L'
            && bytes.get(i + 1).is_some_and(|c| c.is_ascii_digit())
            && (i == 0 || !bytes[i - 1].is_alphanumeric());
        if !starts_ref {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        let a: u32 = bytes[i + 1..j]
            .iter()
            .collect::<String>()
            .parse()
            .expect("digits");
        let mut b = a;
        if j < bytes.len() && (bytes[j] == '–' || bytes[j] == '-') {
            let mut k = j + 1;
            if bytes.get(k) == Some(&'L') {
                k += 1;
            }
            let start = k;
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            if k > start {
                b = bytes[start..k]
                    .iter()
                    .collect::<String>()
                    .parse()
                    .expect("digits");
                j = k;
            }
        }
        out.push((a, b));
        i = j;
    }
    out
}

#[test]
fn every_cited_line_is_inside_its_text_and_not_blank() {
    let mut checked = 0;
    let mut bad = Vec::new();
    for ruleset in RULESETS {
        let text = text_of(ruleset);
        assert!(
            text.starts.windows(2).all(|w| w[0] <= w[1]),
            "{ruleset}: map in order"
        );
        assert_eq!(
            text.starts.first(),
            Some(&1),
            "{ruleset}: the map starts at line 1"
        );
        for file in yaml_files(ruleset) {
            let body = std::fs::read_to_string(&file).expect("read");
            for (n, line) in body.lines().enumerate() {
                for (a, b) in line_refs(line) {
                    checked += 1;
                    let shown = file.strip_prefix(root()).unwrap_or(&file).display();
                    if a == 0 || b < a || b > text.lines {
                        bad.push(format!(
                            "{shown}:{}: L{a}–{b} is outside 1–{}",
                            n + 1,
                            text.lines
                        ));
                    } else if text.blank.contains(&a) || text.blank.contains(&b) {
                        bad.push(format!(
                            "{shown}:{}: L{a}–{b} begins or ends on a blank line",
                            n + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 2000, "{checked} references checked");
    assert!(
        bad.is_empty(),
        "{} bad references:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn every_rule_is_a_printed_reference_not_a_line_of_the_text() {
    let mut rules = 0;
    let mut bad = Vec::new();
    for (shown, n, line) in content_lines() {
        let mut rest = line.as_str();
        while let Some(at) = rest.find("rule: ") {
            let before = rest[..at].chars().last();
            let value = rest[at + 6..].trim_start_matches('"');
            rest = &rest[at + 6..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            rules += 1;
            if !line_refs(value.split(['"', ',', '}']).next().unwrap_or("")).is_empty() {
                bad.push(format!("{shown}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(rules > 2000, "{rules} rule references");
    assert!(
        bad.is_empty(),
        "{} line references as rules:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn line_references_are_read_as_ranges() {
    assert_eq!(
        line_refs("rule: \"4.3.1\", source: \"L408–416, L1464\""),
        vec![(408, 416), (1464, 1464)]
    );
    assert_eq!(
        line_refs("L254-272 and L12–L14; HL5 is not one"),
        vec![(254, 272), (12, 14)]
    );
}

/// What users read (labels, help, notes, descriptions, cells, rulings) cites the rules as they
/// are printed too: a line of the text appears only in `source:` (and in YAML comments).
#[test]
fn no_text_shown_to_users_cites_a_line_of_the_text() {
    let mut bad = Vec::new();
    let mut lines = 0;
    for (path, n, line) in content_lines() {
        lines += 1;
        // Leave out `source: …` values and a trailing comment.
        let mut shown = String::new();
        let mut rest = line.as_str();
        while let Some(at) = rest.find("source: ") {
            shown.push_str(&rest[..at]);
            let value = &rest[at + 8..];
            let end = if let Some(quoted) = value.strip_prefix('"') {
                // The closing quote: the first one no backslash escapes.
                let mut escaped = false;
                quoted
                    .char_indices()
                    .find(|(_, c)| {
                        let close = *c == '"' && !escaped;
                        escaped = *c == '\\' && !escaped;
                        close
                    })
                    .map_or(value.len(), |(e, _)| e + 2)
            } else {
                value.find([',', '}']).unwrap_or(value.len())
            };
            rest = &value[end..];
        }
        shown.push_str(rest);
        if let Some(c) = shown.find(" # ") {
            shown.truncate(c);
        }
        if !line_refs(&shown).is_empty() {
            bad.push(format!("{path}:{n}: {}", line.trim()));
        }
    }
    assert!(lines > 5000, "{lines} lines read");
    assert!(
        bad.is_empty(),
        "{} lines cite the text's lines:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Every status an effect puts on a counter is one of the markers the ruleset lists (with its
/// printed name and rule), and every ruleset lists its markers: the desk offers that list for
/// hand changes, and a status an effect names outside it would have no name to show.
#[test]
fn every_status_an_effect_names_is_a_listed_marker() {
    let lib = umpire_core::rules::Library::shipped();
    for id in RULESETS {
        let r = lib.get(id).expect("shipped ruleset");
        assert!(!r.statuses.is_empty(), "{id} lists no status markers");
        let listed: BTreeSet<&str> = r.statuses.iter().map(|s| s.id.as_str()).collect();
        for s in &r.statuses {
            assert!(!s.label.is_empty() && s.rule.is_some(), "{id}: {s:?}");
        }
        let named = r
            .procedures
            .iter()
            .flat_map(|p| p.outcomes.iter().flat_map(|o| &o.effects))
            .chain(
                r.tables
                    .values()
                    .flat_map(|t| t.results.iter().flat_map(|x| &x.effects)),
            )
            .filter_map(|e| e.status.as_deref());
        for status in named {
            assert!(
                listed.contains(status),
                "{id}: an effect sets '{status}', which is not in the ruleset's statuses"
            );
        }
    }
}
