//! Reading a table: the value a table reference stands for, and the cell a lookup lands on (row, column, header line, the reasons written down).

use super::*;

/// Reads a numeric cell (a modifier's value) from a table.
pub(super) fn table_value(
    ruleset: &Ruleset,
    r: &TableRef,
    scope: &Scope,
    roll: Option<i64>,
) -> Result<(i64, String), ResolveError> {
    let (table, trace, notes) = find_cell(ruleset, r, scope, roll, 0)?;
    let cell = trace.cell.clone();
    let v = cell
        .trim()
        .trim_start_matches('+')
        .replace('−', "-")
        .parse::<i64>()
        .map_err(|_| ResolveError::NotANumber {
            table: table.id.clone(),
            title: table.title.clone(),
            cell: cell.clone(),
            row: trace.row.clone(),
            column: trace.column.clone().unwrap_or_default(),
            reason: if cell.eq_ignore_ascii_case("no") {
                " (the chart says this is not allowed)".into()
            } else {
                String::new()
            },
        })?;
    // The row as the chart prints it ("Spanish or Swiss"), not its key.
    let row = table.row_words_for(&trace.row);
    let at = trace
        .column
        .as_ref()
        .map_or_else(|| row.clone(), |c| format!("{row} × {c}"));
    let how = if notes.is_empty() {
        String::new()
    } else {
        format!("; {}", notes.join("; "))
    };
    Ok((v, format!("{}: {at} = {cell}{how}", table.title)))
}

/// Finds a cell: the row, the column (with shifts), and the header line.
pub(super) fn find_cell<'r>(
    ruleset: &'r Ruleset,
    r: &TableRef,
    scope: &Scope,
    roll: Option<i64>,
    shift: i64,
) -> Result<(&'r Table, LookupTrace, Vec<String>), ResolveError> {
    let Some(table) = ruleset.table(&r.table) else {
        return Err(ResolveError::Expression {
            what: "table lookup".into(),
            problem: format!("unknown table {}", r.table),
        });
    };
    let mut notes = Vec::new();
    let line = header_line(table, r, scope, &mut notes)?;
    let column = column(table, line, (r, scope), shift, &mut notes)?;
    let row = row(table, r, scope, roll)?;
    if !row.note.is_empty() {
        notes.push(row.note.clone());
    }
    let col_index = column.as_ref().map_or(0, |c| c.index);
    let cell = lookup::cell(table, row.index, col_index)
        .cloned()
        .unwrap_or(Cell::Missing);
    let trace = LookupTrace {
        table: table.id.clone(),
        line: line.filter(|_| table.lines.len() > 1).map(|l| l.id.clone()),
        row: row.heading.clone(),
        column: column.as_ref().map(|c| c.heading.clone()),
        cell: cell.text().to_string(),
    };
    if cell == Cell::Missing {
        let row_words = table.row_words_for(&row.heading);
        let at = match &column {
            Some(c) if table.lines.first().is_some_and(|l| l.keys.len() > 1) => format!(
                "row {row_words}, column {}",
                table.column_words_for(&c.heading)
            ),
            _ => format!("row {row_words}"),
        };
        return Err(ResolveError::MissingCell {
            at,
            table: table.id.clone(),
            title: table.title.clone(),
            rule: table
                .rule
                .as_ref()
                .map_or_else(String::new, |r| format!(" [{r}]")),
            row: row.heading,
            column: column.map_or_else(|| "result".into(), |c| c.heading),
        });
    }
    Ok((table, trace, notes))
}

/// The header line a lookup reads (named by its `line:` when the table has several).
fn header_line<'t>(
    table: &'t Table,
    r: &TableRef,
    scope: &Scope,
    notes: &mut Vec<String>,
) -> Result<Option<&'t crate::rules::HeaderLine>, ResolveError> {
    if table.lines.len() > 1 {
        let id = r
            .line
            .as_ref()
            .map(|e| e.eval_text(scope))
            .transpose()
            .map_err(expr_err("header line"))?
            .unwrap_or_default();
        let Some(l) = table.lines.iter().find(|l| l.id == id) else {
            return Err(ResolveError::NoSuchKey {
                table: table.id.clone(),
                title: table.title.clone(),
                what: "header line".into(),
                key: id,
                available: table
                    .lines
                    .iter()
                    .map(|l| l.id.clone())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        notes.push(format!(
            "Header line: {}",
            l.label.as_deref().unwrap_or(&l.id)
        ));
        Ok(Some(l))
    } else {
        Ok(table.lines.first())
    }
}

/// The column a lookup lands on in `line` (by ratio or heading), with the column shift.
fn column(
    table: &Table,
    line: Option<&crate::rules::HeaderLine>,
    (r, scope): (&TableRef, &Scope),
    shift: i64,
    notes: &mut Vec<String>,
) -> Result<Option<Located>, ResolveError> {
    match (line, table.column_key) {
        (Some(l), Some(kind)) => {
            let keys: Vec<&Key> = l.keys.iter().collect();
            let mut located = if kind == KeyKind::Ratio {
                let (a, d) = r.ratio.as_ref().ok_or_else(|| ResolveError::Expression {
                    what: "table lookup".into(),
                    problem: "no ratio given".into(),
                })?;
                let a = a
                    .eval_int(scope)
                    .map_err(expr_err("attacker's side of the ratio"))?;
                let d = d
                    .eval_int(scope)
                    .map_err(expr_err("defender's side of the ratio"))?;
                lookup::locate_ratio(&keys, a, d).ok_or_else(|| ResolveError::NoSuchKey {
                    table: table.id.clone(),
                    title: table.title.clone(),
                    what: "column".into(),
                    key: format!("{a}:{d}"),
                    available: keys
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                })?
            } else {
                let key = r
                    .column
                    .as_ref()
                    .map(|e| e.eval_text(scope))
                    .transpose()
                    .map_err(expr_err("column"))?
                    .unwrap_or_default();
                lookup::locate(table, &keys, kind, &key, "column")?
            };
            if !located.note.is_empty() {
                notes.push(located.note.clone());
            }
            if shift != 0 {
                let last = keys.len() as i64 - 1;
                let target = located.index as i64 + shift;
                let clamped = target.clamp(0, last.max(0));
                let new_index = clamped as usize;
                notes.push(format!(
                    "Column shift {}: {} → {}{}",
                    signed(shift),
                    located.heading,
                    keys[new_index],
                    if clamped == target {
                        ""
                    } else {
                        " (the chart's edge)"
                    }
                ));
                located = Located {
                    index: new_index,
                    heading: keys[new_index].to_string(),
                    note: String::new(),
                };
            }
            Ok(Some(located))
        }
        _ => Ok(None),
    }
}

/// The row a lookup lands on: by its `row:`, by the modified roll, or the table's one row.
fn row(
    table: &Table,
    r: &TableRef,
    scope: &Scope,
    roll: Option<i64>,
) -> Result<Located, ResolveError> {
    let rkeys = lookup::row_keys(table);
    Ok(match (&r.row, roll) {
        (Some(e), _) => {
            let key = e.eval_text(scope).map_err(expr_err("row"))?;
            lookup::locate(table, &rkeys, table.row_key, &key, "row")?
        }
        (None, Some(v)) if table.row_key == KeyKind::Roll => lookup::locate(
            table,
            &rkeys,
            KeyKind::Roll,
            &v.to_string(),
            "modified roll",
        )?,
        _ if table.rows.len() == 1 => Located {
            index: 0,
            heading: table.rows[0].key.to_string(),
            note: String::new(),
        },
        _ => {
            return Err(ResolveError::Expression {
                what: format!("{} lookup", table.title),
                problem: "no roll or row given".into(),
            });
        }
    })
}
