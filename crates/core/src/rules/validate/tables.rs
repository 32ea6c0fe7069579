//! Table files: keys and ranges, header lines, cells, result patterns.

use super::*;

/// A choice written as an id with no label of its own takes the heading of a table row or
/// column keyed by it ("s_dr" → "S, DR"), so the desk and the reports show the chart's words.
pub(super) fn inherit_choice_labels<'t>(
    procedures: &mut [Procedure],
    tables: impl Iterator<Item = &'t Table>,
) {
    let mut headings: BTreeMap<String, String> = BTreeMap::new();
    for t in tables {
        for r in &t.rows {
            if let (Key::Name(k), Some(l)) = (&r.key, &r.label) {
                headings.entry(k.clone()).or_insert_with(|| l.clone());
            }
        }
        for line in &t.lines {
            for (k, l) in line.keys.iter().zip(&line.column_labels) {
                if let Key::Name(k) = k {
                    headings.entry(k.clone()).or_insert_with(|| l.clone());
                }
            }
        }
    }
    for input in procedures.iter_mut().flat_map(|p| p.inputs.iter_mut()) {
        if let InputKind::Choice { choices } = &input.kind {
            for c in choices {
                if let Some(h) = headings.get(c)
                    && !input.choice_labels.contains_key(c)
                {
                    input.choice_labels.insert(c.clone(), h.clone());
                }
            }
        }
    }
}

pub(super) fn parse_key(kind: KeyKind, raw: &RawScalar) -> Result<Key, String> {
    let text = raw.text();
    match kind {
        KeyKind::Roll | KeyKind::Bracket => Range::parse(&text)
            .map(Key::Range)
            .ok_or_else(|| format!("'{text}' is not a number or range (write 3, 2-3, ≤0 or 7+)")),
        KeyKind::Name => Ok(Key::Name(text)),
        KeyKind::Number => match raw {
            RawScalar::Int(i) => Ok(Key::Number(*i)),
            _ => text
                .trim()
                .trim_start_matches('+')
                .replace('−', "-")
                .parse()
                .map(Key::Number)
                .map_err(|_| format!("'{text}' is not a whole number")),
        },
        KeyKind::Ratio => Ratio::parse(&text)
            .map(Key::Ratio)
            .ok_or_else(|| format!("'{text}' is not an odds ratio (write 2:1 or 1:2)")),
    }
}

pub(super) fn kind_of(raw: RawKeyKind) -> KeyKind {
    match raw {
        RawKeyKind::Roll => KeyKind::Roll,
        RawKeyKind::Name => KeyKind::Name,
        RawKeyKind::Number => KeyKind::Number,
        RawKeyKind::Bracket => KeyKind::Bracket,
        RawKeyKind::Ratio => KeyKind::Ratio,
    }
}

/// Checks that ranges are in ascending order, neither overlap nor leave gaps, and are open only
/// at the ends. Returns the problem and the index it concerns.
pub(super) fn check_ranges(ranges: &[Range]) -> Result<(), (usize, String, String)> {
    for (i, r) in ranges.iter().enumerate() {
        if r.low.is_none() && i != 0 {
            return Err((
                i,
                format!("open-ended range {r} is not the first"),
                "only the first range may be open below (≤N)".into(),
            ));
        }
        if r.high.is_none() && i + 1 != ranges.len() {
            return Err((
                i,
                format!("open-ended range {r} is not the last"),
                "only the last range may be open above (N+)".into(),
            ));
        }
        if i == 0 {
            continue;
        }
        let (Some(prev_high), Some(low)) = (ranges[i - 1].high, r.low) else {
            continue;
        };
        if low <= prev_high {
            return Err((
                i,
                format!("range {r} overlaps {}", ranges[i - 1]),
                "each value may appear in one range only; list ranges in ascending order".into(),
            ));
        }
        if low > prev_high + 1 {
            let missing = Range {
                low: Some(prev_high + 1),
                high: Some(low - 1),
            };
            return Err((
                i,
                format!(
                    "no range covers {missing} (between {} and {r})",
                    ranges[i - 1]
                ),
                "add a row or column for the missing values".into(),
            ));
        }
    }
    Ok(())
}

pub(super) fn validate_table(ctx: &mut FileCtx, raw: &RawTable, dice: &DieSet) -> Option<Table> {
    let root = YamlPath::root();
    let before = ctx.errors.len();
    if !is_identifier(&raw.id) {
        ctx.err(
            &root.key("id"),
            format!("table id '{}' is not a valid id", raw.id),
            "use lower case letters, digits and _",
        );
    }
    if let Some(roll) = &raw.roll
        && let Err(e) = DiceExpr::parse(roll, dice)
    {
        ctx.err(
            &root.key("roll"),
            e.to_string(),
            "write dice such as d6, 2d6 or d10",
        );
    }
    let row_key = kind_of(raw.row_key);
    let column_key = raw
        .column_key
        .map(kind_of)
        .or_else(|| (raw.columns.is_some() || raw.header_lines.is_some()).then_some(KeyKind::Name));
    if column_key == Some(KeyKind::Roll) {
        ctx.err(
            &root.key("column_key"),
            "columns cannot be keyed by the roll",
            "use name, number, bracket or ratio",
        );
    }
    let (lines, ncols) = header_lines(ctx, raw, column_key);
    let results = result_patterns(ctx, raw);
    let rows = rows(ctx, raw, (row_key, ncols), &results);
    let keys: Vec<Key> = rows.iter().map(|r| r.key.clone()).collect();
    if keys.len() == raw.rows.len() {
        check_keys(ctx, &root.key("rows"), row_key, &keys, "row");
    }
    let clock = raw
        .clock
        .as_ref()
        .and_then(|c| validate_clock(ctx, c, &rows, &lines));
    if ctx.errors.len() > before {
        return None;
    }
    Some(Table {
        clock,
        id: raw.id.clone(),
        title: raw.title.clone(),
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        notes: raw.notes.clone(),
        ruling: raw.ruling.clone(),
        roll: raw.roll.clone(),
        row_key,
        column_key,
        lines,
        rows,
        results,
        named_codes: raw
            .named_codes
            .iter()
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect(),
        file: ctx.file.name.clone(),
    })
}

/// The table's header lines (`columns:`, or alternatives under `header_lines:`), each keyed by
/// `column_key`; and how many columns the first has (1 without columns).
fn header_lines(
    ctx: &mut FileCtx,
    raw: &RawTable,
    column_key: Option<KeyKind>,
) -> (Vec<HeaderLine>, usize) {
    let root = YamlPath::root();
    type RawLine<'a> = (
        YamlPath,
        String,
        Option<String>,
        &'a Vec<RawScalar>,
        Option<&'a Vec<String>>,
    );
    let mut raw_lines: Vec<RawLine> = Vec::new();
    match (&raw.columns, &raw.header_lines) {
        (Some(_), Some(_)) => ctx.err(
            &root.key("header_lines"),
            "both columns and header_lines are given",
            "use columns for one header line, header_lines for alternatives",
        ),
        (Some(cols), None) => raw_lines.push((
            root.key("columns"),
            "default".into(),
            None,
            cols,
            raw.column_labels.as_ref(),
        )),
        (None, Some(lines)) => {
            if lines.is_empty() {
                ctx.err(
                    &root.key("header_lines"),
                    "header_lines is empty",
                    "list at least one header line",
                );
            }
            let mut ids = BTreeSet::new();
            for (i, l) in lines.iter().enumerate() {
                let at = root.key("header_lines").index(i).key("id");
                ctx.once(&mut ids, l.id.clone(), &at, "header line", &l.id);
                raw_lines.push((
                    root.key("header_lines").index(i).key("columns"),
                    l.id.clone(),
                    l.label.clone(),
                    &l.columns,
                    l.column_labels.as_ref(),
                ));
            }
        }
        (None, None) => {
            if raw.column_key.is_some() {
                ctx.err(
                    &root.key("column_key"),
                    "column_key is set but no columns are listed",
                    "add columns: [...]",
                );
            }
        }
    }
    let mut lines = Vec::new();
    let ncols = raw_lines.first().map_or(1, |l| l.3.len());
    if raw.column_labels.is_some() && raw.columns.is_none() {
        ctx.err(
            &root.key("column_labels"),
            "column_labels without columns",
            "put column_labels on each header line",
        );
    }
    for (path, id, label, cols, column_labels) in &raw_lines {
        if let Some(labels) = column_labels
            && labels.len() != cols.len()
        {
            ctx.err(
                path,
                format!("{} column labels for {} columns", labels.len(), cols.len()),
                "give one label per column, in order",
            );
            continue;
        }
        if cols.is_empty() {
            ctx.err(path, "no columns listed", "list the column headings");
            continue;
        }
        if cols.len() != ncols {
            ctx.err(
                path,
                format!(
                    "header line '{id}' has {} columns, the first has {ncols}",
                    cols.len()
                ),
                "every header line must label every column",
            );
            continue;
        }
        let kind = column_key.unwrap_or(KeyKind::Name);
        let mut keys = Vec::new();
        for (c, col) in cols.iter().enumerate() {
            match parse_key(kind, col) {
                Ok(k) => keys.push(k),
                Err(e) => ctx.err(&path.index(c), e, "fix the column heading"),
            }
        }
        if keys.len() != cols.len() {
            continue;
        }
        check_keys(ctx, path, kind, &keys, "column");
        lines.push(HeaderLine {
            id: id.clone(),
            label: label.clone(),
            keys,
            column_labels: column_labels.cloned().unwrap_or_default(),
        });
    }
    (lines, ncols)
}

/// What the table's result codes mean: each code one word with at most one `{n}`.
fn result_patterns(ctx: &mut FileCtx, raw: &RawTable) -> Vec<ResultPattern> {
    let root = YamlPath::root();
    let mut results = Vec::new();
    for (code, r) in &raw.results {
        let path = root.key("results").key(code);
        let count = code.matches("{n}").count();
        if count > 1 || code.trim().is_empty() || code.contains(char::is_whitespace) {
            ctx.err(
                &path,
                format!("result code '{code}' is not usable"),
                "a code is one word, with at most one {n} for a number, e.g. A{n}",
            );
            continue;
        }
        let (prefix, suffix) = code
            .split_once("{n}")
            .map_or((code.clone(), String::new()), |(a, b)| {
                (a.to_string(), b.to_string())
            });
        let known: BTreeSet<String> = OUTCOME_NAMES.iter().map(|s| s.to_string()).collect();
        let effects = validate_effects(ctx, &path.key("effects"), &r.effects, &known);
        results.push(ResultPattern {
            pattern: code.clone(),
            prefix,
            suffix,
            numbered: count == 1,
            label: r.label.clone(),
            effects,
        });
    }
    results
}

/// The table's rows, each keyed by `row_key` with a cell per column (`ncols`), each cell a
/// result code of `results` (when the table has them) or "?".
fn rows(
    ctx: &mut FileCtx,
    raw: &RawTable,
    (row_key, ncols): (KeyKind, usize),
    results: &[ResultPattern],
) -> Vec<Row> {
    let root = YamlPath::root();
    if raw.rows.is_empty() {
        ctx.err(
            &root.key("rows"),
            "the table has no rows",
            "add rows, marking unknown cells with \"?\"",
        );
    }
    let mut rows = Vec::new();
    for (r, row) in raw.rows.iter().enumerate() {
        let path = root.key("rows").index(r);
        let key = match parse_key(row_key, &row.key) {
            Ok(k) => k,
            Err(e) => {
                ctx.err(&path.key("key"), e, "fix the row heading");
                continue;
            }
        };
        let cells_raw: Vec<RawScalar> = match (&row.cells, &row.cell) {
            (Some(c), None) => c.clone(),
            (None, Some(c)) => vec![c.clone()],
            (Some(_), Some(_)) => {
                ctx.err(
                    &path.key("cell"),
                    "both cells and cell are given",
                    "use cells: [...] or cell: x",
                );
                continue;
            }
            (None, None) => {
                ctx.err(
                    &path,
                    "the row has no cells",
                    "add cells: [...] (\"?\" for an unknown cell)",
                );
                continue;
            }
        };
        if cells_raw.len() != ncols {
            ctx.err(
                &path.key(if row.cells.is_some() { "cells" } else { "cell" }),
                format!(
                    "row {key} has {} cells, the table has {ncols} columns",
                    cells_raw.len()
                ),
                "give one cell per column; mark unknown cells with \"?\"",
            );
            continue;
        }
        let mut cells = Vec::new();
        for (c, cell) in cells_raw.iter().enumerate() {
            let text = cell.text();
            if text.trim() == "?" {
                cells.push(Cell::Missing);
                continue;
            }
            if !results.is_empty() {
                for token in text.split_whitespace() {
                    if !results.iter().any(|p| p.matches(token).is_some()) {
                        let codes: Vec<&str> = results.iter().map(|p| p.pattern.as_str()).collect();
                        let at = if row.cells.is_some() {
                            path.key("cells").index(c)
                        } else {
                            path.key("cell")
                        };
                        ctx.err(
                            &at,
                            format!("'{token}' is not one of the table's result codes"),
                            format!("codes: {}", codes.join(", ")),
                        );
                    }
                }
            }
            cells.push(Cell::Value(text));
        }
        rows.push(Row {
            key,
            label: row.label.clone(),
            cells,
            rule: row.rule.clone(),
            source_lines: row.source.clone(),
        });
    }
    rows
}

pub(super) fn check_keys(
    ctx: &mut FileCtx,
    path: &YamlPath,
    kind: KeyKind,
    keys: &[Key],
    what: &str,
) {
    match kind {
        KeyKind::Roll | KeyKind::Bracket => {
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
            if let Err((i, problem, hint)) = check_ranges(&ranges) {
                let p = if what == "row" {
                    path.index(i).key("key")
                } else {
                    path.index(i)
                };
                ctx.err(&p, problem, hint);
            }
        }
        KeyKind::Name | KeyKind::Number | KeyKind::Ratio => {
            let mut seen = BTreeSet::new();
            for (i, k) in keys.iter().enumerate() {
                let p = if what == "row" {
                    path.index(i).key("key")
                } else {
                    path.index(i)
                };
                ctx.once(&mut seen, k.to_string(), &p, what, k);
            }
        }
    }
}
