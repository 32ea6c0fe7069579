//! Tables rendered as text, the way chart sheets print them, so an umpire can compare them with
//! their own charts (`umpire rules show`).

use super::model::{Cell, KeyKind, Ruleset, Table};

fn key_kind_words(kind: KeyKind) -> &'static str {
    match kind {
        KeyKind::Roll => "the modified die roll",
        KeyKind::Name => "name",
        KeyKind::Number => "number (exact; beyond the edges, the edge column)",
        KeyKind::Bracket => "range",
        KeyKind::Ratio => "odds ratio (larger side ÷ smaller, rounded down)",
    }
}

/// Renders a table as a chart: title, how it is read, aligned rows, result codes and notes.
pub fn render_table(ruleset: &Ruleset, table: &Table) -> String {
    let mut out = String::new();
    let rule = table
        .rule
        .as_ref()
        .map_or_else(String::new, |r| format!("   [{r}]"));
    out.push_str(&format!("{}{rule}\n", table.title.to_uppercase()));
    let mut how = Vec::new();
    if let Some(roll) = &table.roll {
        how.push(format!("roll {roll}"));
    }
    how.push(format!("rows by {}", key_kind_words(table.row_key)));
    if let Some(c) = table.column_key {
        how.push(format!("columns by {}", key_kind_words(c)));
    }
    out.push_str(&format!("({})\n", how.join("; ")));

    let ncols = table.column_count();
    let row_heads: Vec<String> = table.rows.iter().map(|r| table.row_words(r)).collect();
    let heads: Vec<Vec<String>> = (0..table.lines.len())
        .map(|i| (0..ncols).map(|c| table.column_words(i, c)).collect())
        .collect();
    let bodies: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|c| ruleset.in_words(&table.cell_words(c), Some(table)))
                .collect()
        })
        .collect();
    let line_labels: Vec<String> = table
        .lines
        .iter()
        .map(|l| l.label.clone().unwrap_or_else(|| l.id.replace('_', " ")))
        .collect();
    let head_width = row_heads
        .iter()
        .chain(line_labels.iter().filter(|_| table.lines.len() > 1))
        .map(|h| h.chars().count())
        .max()
        .unwrap_or(1)
        .max(3);
    let mut widths = vec![1usize; ncols];
    for (c, w) in widths.iter_mut().enumerate() {
        for line in &heads {
            if let Some(k) = line.get(c) {
                *w = (*w).max(k.chars().count());
            }
        }
        for row in &bodies {
            if let Some(cell) = row.get(c) {
                *w = (*w).max(cell.chars().count());
            }
        }
    }
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    for (i, line) in heads.iter().enumerate() {
        let label = if table.lines.len() > 1 {
            line_labels[i].clone()
        } else {
            String::new()
        };
        let cells: Vec<String> = line.iter().zip(&widths).map(|(k, w)| pad(k, *w)).collect();
        out.push_str(&format!(
            "{} │ {}\n",
            pad(&label, head_width),
            cells.join(" │ ")
        ));
    }
    let rule_width =
        head_width + 3 + widths.iter().sum::<usize>() + 3 * widths.len().saturating_sub(1);
    out.push_str(&format!("{}\n", "─".repeat(rule_width)));
    for (row, head) in bodies.iter().zip(&row_heads) {
        let cells: Vec<String> = row.iter().zip(&widths).map(|(c, w)| pad(c, *w)).collect();
        out.push_str(&format!(
            "{} │ {}\n",
            pad(head, head_width),
            cells.join(" │ ")
        ));
    }
    // The result key, as the printed chart has it: each printed code with what it means (codes
    // written as ids are printed in the cells by their words already).
    let key: Vec<&crate::rules::ResultPattern> = table
        .results
        .iter()
        .filter(|r| !crate::rules::model::is_id_like(&r.prefix) || r.numbered)
        .collect();
    if !key.is_empty() {
        out.push_str("Result key:\n");
        for r in key {
            let label = r.label.clone().unwrap_or_default();
            out.push_str(&format!(
                "  {} — {}\n",
                r.pattern.replace("{n}", "n"),
                label.replace("{n}", "n")
            ));
        }
    }
    if let Some(n) = &table.notes {
        out.push_str(&format!(
            "Notes: {}\n",
            ruleset.in_words(n.trim(), Some(table))
        ));
    }
    if let Some(r) = &table.ruling {
        out.push_str(&format!(
            "Ruling: {}\n",
            ruleset.in_words(r.trim(), Some(table))
        ));
    }
    let missing = table
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .filter(|c| **c == Cell::Missing)
        .count();
    if missing > 0 {
        let total: usize = table.rows.iter().map(|r| r.cells.len()).sum();
        out.push_str(&format!("{missing} of {total} cells are not in the rule text (\"?\"): read them off your chart sheet.\n"));
    }
    out
}
