//! The result codes a procedure can give: what an override may replace a result with, and
//! what the Control server holds an overridden entry to (`facts` sends them when a game is
//! created).

use serde::Serialize;

use super::{Cell, Lookup, Procedure, Ruleset};

/// A procedure's result codes: the codes its lookup and outcomes name, its table's numbered
/// patterns (`D{n}`: a prefix and suffix around a number), and whether the text leaves some
/// of them unknown (a chart with missing cells and no result key: then a code read off the
/// physical chart cannot be held to a list, and any is admitted).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ResultCodes {
    /// The codes, as the text prints them.
    pub codes: Vec<String>,
    /// Numbered codes: (prefix, suffix) around the number.
    pub patterns: Vec<(String, String)>,
    /// Whether some codes are not in the text.
    pub open: bool,
}

impl ResultCodes {
    /// The codes `p` can give under `ruleset`.
    pub fn of(ruleset: &Ruleset, p: &Procedure) -> ResultCodes {
        let mut out = ResultCodes::default();
        for o in &p.outcomes {
            out.add(&o.code);
        }
        match &p.lookup {
            Lookup::Table(r) => match ruleset.table(&r.table) {
                Some(t) => {
                    for pattern in &t.results {
                        if pattern.numbered {
                            out.patterns
                                .push((pattern.prefix.clone(), pattern.suffix.clone()));
                        } else {
                            out.add(&pattern.pattern);
                        }
                    }
                    for c in &t.named_codes {
                        out.add(c);
                    }
                    let mut missing = false;
                    for cell in t.rows.iter().flat_map(|row| &row.cells) {
                        match cell {
                            Cell::Missing => missing = true,
                            Cell::Value(v) => v.split_whitespace().for_each(|w| out.add(w)),
                        }
                    }
                    out.open = missing && t.results.is_empty() && t.named_codes.is_empty();
                }
                None => out.open = true,
            },
            Lookup::Threshold { pass, fail, .. } => {
                out.add(pass);
                out.add(fail);
            }
            Lookup::Pool { outcome, .. } => out.add(outcome),
            Lookup::Opposed { cases, .. } | Lookup::Compute { cases, .. } => {
                for c in cases {
                    out.add(&c.outcome);
                }
            }
        }
        out
    }

    fn add(&mut self, code: &str) {
        let code = code.trim();
        if !code.is_empty() && !self.codes.iter().any(|c| c == code) {
            self.codes.push(code.to_string());
        }
    }

    /// Whether `code` (each word of a combined result such as "A1 D3") is one of them.
    pub fn admits(&self, code: &str) -> bool {
        if self.open {
            return !code.trim().is_empty();
        }
        let mut words = code.split_whitespace().peekable();
        words.peek().is_some()
            && words.all(|w| {
                self.codes.iter().any(|c| c.eq_ignore_ascii_case(w))
                    || self.patterns.iter().any(|(pre, suf)| {
                        w.strip_prefix(pre.as_str())
                            .and_then(|r| r.strip_suffix(suf.as_str()))
                            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                    })
            })
    }

    /// The codes in words, for a refusal (numbered ones as `D{n}`).
    pub fn listed(&self) -> Vec<String> {
        self.codes
            .iter()
            .cloned()
            .chain(self.patterns.iter().map(|(p, s)| format!("{p}n{s}")))
            .collect()
    }
}
