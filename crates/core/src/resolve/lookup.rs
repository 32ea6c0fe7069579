//! Finding a row and a column in a table, with the reasons written down.

use std::cmp::Ordering;

use super::error::ResolveError;
use crate::rules::{Cell, Key, KeyKind, Range, Ratio, Table};

/// Where a lookup landed and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Located {
    /// Index of the row or column.
    pub index: usize,
    /// The heading found.
    pub heading: String,
    /// Why (rounding, clamping…), empty when exact.
    pub note: String,
}

fn available(keys: &[&Key]) -> String {
    keys.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn no_such(table: &Table, what: &str, key: &str, keys: &[&Key]) -> ResolveError {
    ResolveError::NoSuchKey {
        table: table.id.clone(),
        title: table.title.clone(),
        what: what.to_string(),
        key: key.to_string(),
        available: available(keys),
    }
}

/// Finds a numeric value among range keys (rolls, brackets), clamping at the edges.
fn locate_range(keys: &[&Key], v: i64, what: &str) -> Option<Located> {
    let ranges: Vec<Range> = keys
        .iter()
        .filter_map(|k| {
            if let Key::Range(r) = k {
                Some(*r)
            } else {
                None
            }
        })
        .collect();
    if ranges.len() != keys.len() {
        return None;
    }
    if let Some(i) = ranges.iter().position(|r| r.contains(v)) {
        return Some(Located {
            index: i,
            heading: ranges[i].to_string(),
            note: String::new(),
        });
    }
    // Ranges are ascending (checked at load): clamp to the nearer edge.
    let (lowest, highest) = (
        ranges.iter().filter_map(|r| r.low).min()?,
        ranges.iter().filter_map(|r| r.high).max()?,
    );
    let (index, edge) = if v < lowest {
        (ranges.iter().position(|r| r.low == Some(lowest))?, lowest)
    } else if v > highest {
        (
            ranges.iter().position(|r| r.high == Some(highest))?,
            highest,
        )
    } else {
        return None;
    };
    Some(Located {
        index,
        heading: ranges[index].to_string(),
        note: format!(
            "{} {v} is off the chart: read at its edge, {edge}",
            capitalise(what)
        ),
    })
}

/// Finds a number among number keys, exact or clamped at the ends.
fn locate_number(keys: &[&Key], v: i64, what: &str) -> Option<Located> {
    let numbers: Vec<(usize, i64)> = keys
        .iter()
        .enumerate()
        .filter_map(|(i, k)| {
            if let Key::Number(n) = k {
                Some((i, *n))
            } else {
                None
            }
        })
        .collect();
    if let Some(&(i, n)) = numbers.iter().find(|(_, n)| *n == v) {
        return Some(Located {
            index: i,
            heading: Key::Number(n).to_string(),
            note: String::new(),
        });
    }
    let &(min_i, min) = numbers.iter().min_by_key(|(_, n)| *n)?;
    let &(max_i, max) = numbers.iter().max_by_key(|(_, n)| *n)?;
    let (index, edge) = match (v < min, v > max) {
        (true, _) => (min_i, min),
        (_, true) => (max_i, max),
        _ => return None,
    };
    Some(Located {
        index,
        heading: Key::Number(edge).to_string(),
        note: format!(
            "{} {} is off the chart: read at its edge, {}",
            capitalise(what),
            Key::Number(v),
            Key::Number(edge)
        ),
    })
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// Compares `a1/d1` with `a2/d2` exactly.
fn cmp_fraction(a1: u64, d1: u64, a2: u64, d2: u64) -> Ordering {
    (u128::from(a1) * u128::from(d2)).cmp(&(u128::from(a2) * u128::from(d1)))
}

/// Rounds attacker:defender down to a listed ratio: the larger side ÷ the smaller, rounded
/// toward 1:1 ("3 SPs attack 7 SPs: 2.3 to 1, rounded down, 2 to 1 against the attacker").
pub fn locate_ratio(keys: &[&Key], attacker: i64, defender: i64) -> Option<Located> {
    let ratios: Vec<(usize, Ratio)> = keys
        .iter()
        .enumerate()
        .filter_map(|(i, k)| {
            if let Key::Ratio(r) = k {
                Some((i, *r))
            } else {
                None
            }
        })
        .collect();
    // 0 against 0 reads as 1:1.
    let (a, d) = match (attacker.max(0) as u64, defender.max(0) as u64) {
        (0, 0) => (1, 1),
        pair => pair,
    };
    let favours = a >= d;
    let (big, small) = if favours { (a, d) } else { (d, a) };
    let side = |r: &Ratio| {
        if r.favours_attacker() {
            (r.attacker, r.defender)
        } else {
            (r.defender, r.attacker)
        }
    };
    let on_side = |r: &Ratio| r.attacker == r.defender || r.favours_attacker() == favours;
    let actual = match (big.checked_div(small), (big * 10).checked_div(small)) {
        (Some(whole), Some(t)) => {
            let against = if favours { "" } else { " against the attacker" };
            format!("{a}:{d} = {whole}.{} to 1{against}", t % 10)
        }
        _ => format!("{a}:{d} (no strength on one side)"),
    };
    // Same-side candidates not stronger than the actual ratio; pick the strongest.
    let best = ratios
        .iter()
        .filter(|(_, r)| on_side(r))
        .filter(|(_, r)| {
            let (rb, rs) = side(r);
            small == 0
                || cmp_fraction(u64::from(rb), u64::from(rs), big, small) != Ordering::Greater
        })
        .max_by(|(_, x), (_, y)| {
            let (xb, xs) = side(x);
            let (yb, ys) = side(y);
            cmp_fraction(u64::from(xb), u64::from(xs), u64::from(yb), u64::from(ys))
        });
    if let Some(&(index, r)) = best {
        let (rb, rs) = side(&r);
        let exact =
            small != 0 && cmp_fraction(u64::from(rb), u64::from(rs), big, small) == Ordering::Equal;
        let against = if r.favours_attacker() || r.attacker == r.defender {
            ""
        } else {
            " against the attacker"
        };
        let note = if exact {
            String::new()
        } else {
            format!("{actual}, rounded down to {rb} to {rs}{against}")
        };
        return Some(Located {
            index,
            heading: r.to_string(),
            note,
        });
    }
    // Weaker than every column on its side: the column nearest 1:1 on that side (or overall).
    let weakest = |list: Vec<(usize, Ratio)>| -> Option<(usize, Ratio)> {
        list.into_iter().min_by(|(_, x), (_, y)| {
            let (xb, xs) = side(x);
            let (yb, ys) = side(y);
            cmp_fraction(u64::from(xb), u64::from(xs), u64::from(yb), u64::from(ys))
        })
    };
    let same: Vec<(usize, Ratio)> = ratios.iter().filter(|(_, r)| on_side(r)).copied().collect();
    let (index, r) = if same.is_empty() {
        weakest(ratios.clone())
    } else {
        weakest(same)
    }?;
    Some(Located {
        index,
        heading: r.to_string(),
        note: format!("{actual} is below every listed ratio: read at {r}"),
    })
}

/// Finds a value among keys of `kind`.
pub fn locate(
    table: &Table,
    keys: &[&Key],
    kind: KeyKind,
    value: &str,
    what: &str,
) -> Result<Located, ResolveError> {
    let found = match kind {
        KeyKind::Name => keys
            .iter()
            .position(|k| k.to_string().eq_ignore_ascii_case(value.trim()))
            .map(|i| Located {
                index: i,
                heading: keys[i].to_string(),
                note: String::new(),
            }),
        KeyKind::Roll | KeyKind::Bracket | KeyKind::Number => {
            let Ok(v) = value.trim().trim_start_matches('+').parse::<i64>() else {
                return Err(no_such(table, what, value, keys));
            };
            if kind == KeyKind::Number {
                locate_number(keys, v, what)
            } else {
                locate_range(keys, v, what)
            }
        }
        KeyKind::Ratio => None,
    };
    found.ok_or_else(|| no_such(table, what, value, keys))
}

/// The row keys of a table.
pub fn row_keys(table: &Table) -> Vec<&Key> {
    table.rows.iter().map(|r| &r.key).collect()
}

/// The cell at (row, column).
pub fn cell(table: &Table, row: usize, column: usize) -> Option<&Cell> {
    table.rows.get(row).and_then(|r| r.cells.get(column))
}
