//! Chart sheets: every table of a ruleset printed as a chart — title, rule reference, how it is
//! read, header line(s), rows, result codes, notes, ruling — with an empty box for each cell the
//! rule text does not give, to fill in by hand (`umpire charts`).

use umpire_core::rules::{Cell, KeyKind, Ruleset, Table};

use super::error::ReportError;
use super::font::Weight;
use super::pdf::{Grid, GridCell, TextStyle, Writer, mm};
use super::template::{Template, parse_colour};

fn key_kind_words(kind: KeyKind) -> &'static str {
    match kind {
        KeyKind::Roll => "the modified die roll",
        KeyKind::Name => "name",
        KeyKind::Number => "number (exact; beyond the edges, the edge column)",
        KeyKind::Bracket => "range",
        KeyKind::Ratio => "odds ratio (larger side ÷ smaller, rounded down)",
    }
}

/// How a table is read, in words: "Roll d6; rows by …; columns by …".
pub fn how_to_read(table: &Table) -> String {
    let mut how = Vec::new();
    if let Some(roll) = &table.roll {
        how.push(format!("Roll {roll}"));
    }
    how.push(format!("rows by {}", key_kind_words(table.row_key)));
    if let Some(c) = table.column_key {
        how.push(format!("columns by {}", key_kind_words(c)));
    }
    if table.lines.len() > 1 {
        how.push("use the header line that applies".into());
    }
    let mut out = how.join("; ");
    if let Some(first) = out.get(..1) {
        out = format!("{}{}", first.to_uppercase(), &out[1..]);
    }
    out
}

/// The rule every row of a table cites, when they all cite the same one and it is not the
/// table's own: printed once under the title instead of a Rule column repeating it.
pub fn shared_row_rule(table: &Table) -> Option<String> {
    let first = table.rows.first()?.rule.clone()?;
    let all_same = table.rows.iter().all(|r| r.rule.as_deref() == Some(&first));
    (all_same && table.rule.as_deref() != Some(&first)).then_some(first)
}

/// Whether the rows cite rules that differ from row to row (a Rule column is printed only
/// then).
fn rules_differ_by_row(table: &Table) -> bool {
    table.rows.iter().any(|r| r.rule.is_some())
        && table
            .rows
            .iter()
            .any(|r| r.rule != table.rows.first().and_then(|f| f.rule.clone()))
}

/// The table as a ruled grid: one header row per header line (its label in the key column),
/// one body row per row, a blank box per missing cell, and a Rule column when the rows cite
/// rules that differ from row to row.
pub fn table_grid(ruleset: &Ruleset, table: &Table) -> Grid {
    if placeholder_columns(table) {
        return fill_in_grid(table);
    }
    let ncols = table.column_count();
    let with_rules = rules_differ_by_row(table);
    let corner = table.roll.clone().unwrap_or_else(|| match table.row_key {
        KeyKind::Roll => "Roll".into(),
        KeyKind::Name => String::new(),
        KeyKind::Number => "Number".into(),
        KeyKind::Bracket => "Range".into(),
        KeyKind::Ratio => "Odds".into(),
    });
    let mut header = Vec::new();
    if table.lines.is_empty() {
        let mut row = vec![GridCell::Text(corner.clone())];
        row.extend((0..ncols).map(|_| GridCell::Text("Result".into())));
        header.push(row);
    }
    for (i, line) in table.lines.iter().enumerate() {
        let label = if table.lines.len() > 1 {
            let name = line
                .label
                .clone()
                .unwrap_or_else(|| line.id.replace('_', " "));
            format!("{corner} · {name}")
        } else {
            corner.clone()
        };
        let mut row = vec![GridCell::Text(label.trim_start_matches(" · ").to_string())];
        row.extend((0..ncols).map(|c| GridCell::Text(table.column_words(i, c))));
        header.push(row);
    }
    if with_rules {
        for row in &mut header {
            row.push(GridCell::Text("Rule".into()));
        }
    }
    let rows = table
        .rows
        .iter()
        .map(|r| {
            let mut cells = vec![GridCell::Text(table.row_words(r))];
            cells.extend(r.cells.iter().map(|c| match c {
                Cell::Missing => GridCell::Blank,
                Cell::Value(_) => {
                    GridCell::Text(ruleset.in_words(&table.cell_words(c), Some(table)))
                }
            }));
            if with_rules {
                cells.push(GridCell::Text(r.rule.clone().unwrap_or_default()));
            }
            cells
        })
        .collect();
    Grid {
        header,
        rows,
        continued: format!("{} (continued)", table.title),
    }
}

/// Columns a blank fill-in chart gives where the text does not give the printed columns.
const FILL_IN_COLUMNS: usize = 6;

/// Whether a table's columns are a placeholder for headings the text does not give (one
/// bracket column such as "1+", every cell missing): its printed chart has more columns.
fn placeholder_columns(table: &Table) -> bool {
    table.column_key == Some(KeyKind::Bracket)
        && table.column_count() == 1
        && table
            .rows
            .iter()
            .all(|r| r.cells.iter().all(|c| *c == Cell::Missing))
}

/// A blank chart to copy a printed chart onto: the rows as the text gives them, and generous
/// empty columns with empty headings for the chart's own (the text does not give them).
fn fill_in_grid(table: &Table) -> Grid {
    let corner = table.roll.clone().unwrap_or_else(|| "Roll".into());
    let mut head = vec![GridCell::Text(corner)];
    head.extend((0..FILL_IN_COLUMNS).map(|_| GridCell::Text(" ".into())));
    let rows = table
        .rows
        .iter()
        .map(|r| {
            let mut cells = vec![GridCell::Text(table.row_words(r))];
            cells.extend((0..FILL_IN_COLUMNS).map(|_| GridCell::Blank));
            cells
        })
        .collect();
    Grid {
        header: vec![head],
        rows,
        continued: format!("{} (continued)", table.title),
    }
}

/// Draws one chart at the writer's cursor.
pub fn write_chart(writer: &mut Writer, ruleset: &Ruleset, table: &Table) {
    let t = writer.template().clone();
    let text = parse_colour(&t.colours.text).unwrap_or((0.0, 0.0, 0.0));
    let muted = parse_colour(&t.colours.muted).unwrap_or((0.3, 0.3, 0.3));
    let title_text = parse_colour(&t.colours.title_text).unwrap_or((1.0, 1.0, 1.0));
    let body = TextStyle {
        size: t.fonts.body,
        weight: Weight::Regular,
        colour: text,
    };
    let subtitle = TextStyle {
        size: t.fonts.subtitle,
        weight: Weight::Regular,
        colour: muted,
    };
    let grid = table_grid(ruleset, table);
    let title_style = TextStyle {
        size: t.fonts.title,
        weight: Weight::Bold,
        colour: title_text,
    };
    let rule = table
        .rule
        .as_ref()
        .map_or_else(String::new, |r| format!("Rule {r}"));
    // The rule reference shares the title band when both fit; else it goes under the band.
    let band_room = writer.content_width() - mm(8.0);
    let together = writer.face(Weight::Bold).width(&table.title, t.fonts.title)
        + writer
            .face(Weight::Regular)
            .width(&rule, (t.fonts.title * 0.7).max(t.fonts.min_table))
        <= band_room;
    // Keep the title with the how-to line and the table, whole when it fits on a page (or
    // column), else its top.
    let lead = writer.band_height(&table.title, if together { &rule } else { "" }, title_style)
        + if together {
            0.0
        } else {
            mm(1.0) + writer.paragraph_height(None, &rule, subtitle, 0.0)
        }
        + mm(2.2)
        + writer.paragraph_height(None, &how_to_read(table), subtitle, 0.0);
    let whole = lead + writer.table_height(&grid);
    writer.ensure(if whole < writer.column_height() * 0.9 {
        whole
    } else {
        lead + writer.table_lead_height(&grid)
    });
    writer.bookmark(&table.title);
    if together {
        writer.band(
            &table.title,
            &rule,
            title_style,
            parse_colour(&t.colours.title_fill),
        );
    } else {
        writer.band(
            &table.title,
            "",
            title_style,
            parse_colour(&t.colours.title_fill),
        );
        writer.space(mm(1.0));
        writer.paragraph(None, &rule, subtitle, 0.0);
    }
    writer.space(mm(1.2));
    if let Some(r) = shared_row_rule(table) {
        writer.paragraph(Some("Every row:"), &format!("Rule {r}"), subtitle, 0.0);
    }
    writer.paragraph(None, &how_to_read(table), subtitle, 0.0);
    writer.space(mm(1.0));
    writer.table(&grid);
    writer.space(mm(1.5));
    write_chart_key(writer, ruleset, table, body);
    write_chart_gaps(writer, table, body, subtitle);
    writer.space(mm(t.table.gap_after));
}

/// Under a chart: the result key (each printed code with what it means; codes written as ids
/// are printed in the cells by their words already), the notes and the ruling.
fn write_chart_key(writer: &mut Writer, ruleset: &Ruleset, table: &Table, body: TextStyle) {
    let key: Vec<_> = table
        .results
        .iter()
        .filter(|r| r.numbered || !umpire_core::rules::model::is_id_like(&r.prefix))
        .collect();
    if !key.is_empty() {
        let shown = key.len().min(6) as f32 + 1.0;
        writer.ensure(body.size * 1.3 * shown);
        writer.paragraph(Some("Result key"), "", body, 0.0);
        for r in key {
            let code = r.pattern.replace("{n}", "n");
            let label = r.label.clone().unwrap_or_default().replace("{n}", "n");
            writer.paragraph(Some(&code), &label, body, mm(3.0));
        }
    }
    if let Some(n) = &table.notes {
        writer.paragraph(Some("Notes:"), &ruleset.in_words(n, Some(table)), body, 0.0);
    }
    if let Some(r) = &table.ruling {
        writer.paragraph(Some("Ruling:"), &ruling_text(ruleset, r), body, 0.0);
    }
}

/// Under a chart: what the rule text leaves out (the column headings, or cells), to fill in.
fn write_chart_gaps(writer: &mut Writer, table: &Table, body: TextStyle, subtitle: TextStyle) {
    let missing = table
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .filter(|c| **c == Cell::Missing)
        .count();
    if placeholder_columns(table) {
        writer.paragraph(
            None,
            &format!(
                "The column headings are not in the rule text{}: write your chart's headings in \
                 the empty header cells, then its values below.",
                table
                    .rule
                    .as_ref()
                    .map_or_else(String::new, |r| format!(" (rule {r})"))
            ),
            body,
            0.0,
        );
    } else if missing > 0 {
        let total: usize = table.rows.iter().map(|r| r.cells.len()).sum();
        writer.paragraph(
            None,
            &format!(
                "{missing} of {total} cells are not in the rule text: the empty boxes are for the \
                 values of your own chart sheet."
            ),
            subtitle,
            0.0,
        );
    }
}

/// A table's `ruling:` as printed: the ruling's question and the reading in force when it
/// names one of the ruleset's rulings, else the text as written.
fn ruling_text(ruleset: &Ruleset, ruling: &str) -> String {
    let Some(r) = ruleset.rulings.iter().find(|r| r.id == ruling.trim()) else {
        return ruling.trim().to_string();
    };
    let rule = r
        .rule
        .as_ref()
        .map_or_else(String::new, |x| format!(" [{x}]"));
    let chosen = r
        .options
        .iter()
        .find(|o| o.id == r.selected)
        .map_or_else(|| r.selected.clone(), |o| o.text.clone());
    format!("{}{rule} In force: {chosen}.", r.text.trim())
}

/// The chart sheets of a ruleset as a PDF: a heading, then every table (or those whose id is
/// in `only`, when it is not empty), in id order.
pub fn charts_pdf(
    ruleset: &Ruleset,
    only: &[String],
    template: Template,
) -> Result<Vec<u8>, ReportError> {
    super::pdf::without_a_stray_page(&template, 0.9, |t| set_charts(ruleset, only, t))
}

fn set_charts(
    ruleset: &Ruleset,
    only: &[String],
    template: Template,
) -> Result<Writer, ReportError> {
    let tables: Vec<&Table> = ruleset
        .tables
        .values()
        .filter(|t| only.is_empty() || only.contains(&t.id))
        .collect();
    let title = format!("{} — chart sheets", ruleset.name);
    let mut writer = Writer::new(&title, &format!("Umpire · {title}"), template)?;
    write_charts_intro(&mut writer, ruleset, &title, &tables);
    writer.space(mm(4.0));
    // A landscape page is set in two columns: one wide column of short charts would take
    // more pages than portrait.
    let landscape = writer.template().orientation == super::template::Orientation::Landscape;
    writer.set_columns(
        writer
            .template()
            .columns
            .unwrap_or(if landscape { 2 } else { 1 }),
    );
    for table in tables {
        write_chart(&mut writer, ruleset, table);
    }
    Ok(writer)
}

/// The chart sheets' title, source and what the charts leave to fill in by hand.
fn write_charts_intro(writer: &mut Writer, ruleset: &Ruleset, title: &str, tables: &[&Table]) {
    let t = writer.template().clone();
    let text = parse_colour(&t.colours.text).unwrap_or((0.0, 0.0, 0.0));
    let muted = parse_colour(&t.colours.muted).unwrap_or((0.3, 0.3, 0.3));
    writer.paragraph(
        None,
        title,
        TextStyle {
            size: t.fonts.title * 1.4,
            weight: Weight::Bold,
            colour: text,
        },
        0.0,
    );
    let intro = TextStyle {
        size: t.fonts.subtitle,
        weight: Weight::Regular,
        colour: muted,
    };
    if let Some(source) = &ruleset.source {
        writer.paragraph(Some("Source:"), source, intro, 0.0);
    }
    let incomplete = tables.iter().filter(|t| !t.is_complete()).count();
    writer.paragraph(
        None,
        &format!(
            "{} charts, {incomplete} with cells the rule text does not give: those are printed \
             as empty boxes to fill in by hand (or transcribe them with `umpire rules template`).",
            tables.len()
        ),
        intro,
        0.0,
    );
}

/// How a procedure is resolved, in one line when a table decides it ("Roll 2d6, modified, and
/// read the Assault Table."), else what decides it in the words of its lookup
/// ([`umpire_core::rules::spoken::Speaker::deciding`]): the target and the natural results, how a
/// pool counts its hits, how opposed scores are made and compared, the cases.
fn how_procedure(ruleset: &Ruleset, p: &umpire_core::rules::Procedure) -> Vec<String> {
    use umpire_core::rules::Lookup;
    match &p.lookup {
        Lookup::Table(t) => {
            let speaker = umpire_core::rules::spoken::Speaker::new(ruleset, p);
            if let Some(cases) = speaker.row_cases(t) {
                return cases;
            }
            let title = ruleset
                .table(&t.table)
                .map_or_else(|| "the table".to_string(), |x| format!("the {}", x.title));
            match (&p.roll, &t.row) {
                (Some(r), _) => vec![format!("Roll {}, modified, and read {title}.", r.source())],
                (None, Some(row)) => {
                    vec![format!("No dice: read {title} by {}.", speaker.words(row))]
                }
                (None, None) => vec![format!("No dice: read {title}.")],
            }
        }
        _ => umpire_core::rules::spoken::Speaker::new(ruleset, p).deciding(),
    }
}

/// One procedure as a card: its name and rule, how it is resolved, its modifiers with their
/// rules, its table (the first time a table is met), and its results in words.
fn write_card(
    writer: &mut Writer,
    ruleset: &Ruleset,
    p: &umpire_core::rules::Procedure,
    printed: &mut std::collections::BTreeSet<String>,
) {
    use umpire_core::rules::{Lookup, ModifierValue};
    let t = writer.template().clone();
    let ink = parse_colour(&t.colours.text).unwrap_or((0.0, 0.0, 0.0));
    let title_text = parse_colour(&t.colours.title_text).unwrap_or((1.0, 1.0, 1.0));
    let body = TextStyle {
        size: t.fonts.body,
        weight: Weight::Regular,
        colour: ink,
    };
    let small = TextStyle {
        size: t.fonts.table,
        weight: Weight::Regular,
        colour: ink,
    };
    let title_style = TextStyle {
        size: t.fonts.title * 0.85,
        weight: Weight::Bold,
        colour: title_text,
    };
    writer.ensure(t.fonts.title * 2.0 + t.fonts.body * 6.0);
    writer.bookmark(&p.name);
    writer.band(
        &p.name,
        "",
        title_style,
        parse_colour(&t.colours.title_fill),
    );
    writer.space(mm(1.0));
    if let Some(rule) = &p.rule {
        writer.paragraph(Some("Rule"), rule, small, 0.0);
    }
    // The first line in the body's size, what follows it (values, cases) as the modifiers are.
    for (i, line) in how_procedure(ruleset, p).iter().enumerate() {
        writer.paragraph(None, line, if i == 0 { body } else { small }, 0.0);
    }
    // The modifiers grouped under their rule, as a printed aid lists them ("For Evasion: Evasion
    // from charging foot +1; …"), the procedure's own rule said once above.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for m in &p.modifiers {
        let value = match &m.value {
            ModifierValue::Expr(e) => match e.source().trim().parse::<i64>() {
                Ok(n) if n < 0 => format!("−{}", -n),
                Ok(n) => format!("+{n}"),
                Err(_) => match p.input(e.source().trim().trim_start_matches('-')) {
                    Some(i) => format!("the {}", i.label),
                    None => "as computed".to_string(),
                },
            },
            ModifierValue::Table(x) => ruleset.table(&x.table).map_or_else(
                || "from a table".into(),
                |x| format!("from the {}", x.title),
            ),
        };
        let target = if m.applies_to == umpire_core::rules::AppliesTo::Roll {
            String::new()
        } else {
            format!(" {}", m.applies_to.words())
        };
        let rule = match (&m.rule, &p.rule) {
            // "The Discipline Test › For Evasion" under "The Discipline Test": "For Evasion".
            (Some(r), Some(own)) if r == own => String::new(),
            (Some(r), Some(own)) => r
                .strip_prefix(own.as_str())
                .and_then(|rest| rest.strip_prefix(" › "))
                .map_or_else(|| r.clone(), str::to_string),
            (Some(r), None) => r.clone(),
            (None, _) => String::new(),
        };
        let line = format!("{} {value}{target}", m.name);
        match groups.iter_mut().find(|(r, _)| *r == rule) {
            Some((_, list)) => list.push(line),
            None => groups.push((rule, vec![line])),
        }
    }
    if !groups.is_empty() {
        writer.paragraph(Some("Modifiers"), "", small, 0.0);
        for (rule, list) in groups {
            let lead = if rule.is_empty() {
                None
            } else {
                Some(format!("{rule}:"))
            };
            writer.paragraph(lead.as_deref(), &list.join("; "), small, mm(2.0));
        }
    }
    // A table read by a choice the card words as cases (rr3's results of a rule that is
    // arithmetic only) only names the results: the cases decide, and the table is not printed.
    if let Lookup::Table(r) = &p.lookup
        && let Some(table) = ruleset.table(&r.table)
        && umpire_core::rules::spoken::Speaker::new(ruleset, p)
            .row_cases(r)
            .is_none()
    {
        if printed.insert(table.id.clone()) {
            let grid = table_grid(ruleset, table);
            // A table that fits in a column is kept whole in one, with its caption; a longer
            // one keeps its caption with its header and first rows.
            let caption = mm(1.0) + writer.paragraph_height(Some(&table.title), "", small, 0.0);
            let whole = writer.table_height(&grid);
            writer.ensure(
                caption
                    + if whole < writer.column_height() * 0.9 {
                        whole
                    } else {
                        writer.table_lead_height(&grid)
                    },
            );
            writer.space(mm(1.0));
            writer.paragraph(Some(&table.title), "", small, 0.0);
            if let Some(r) = shared_row_rule(table) {
                writer.paragraph(Some("Every row:"), &format!("Rule {r}"), small, 0.0);
            }
            writer.table(&grid);
            write_table_effects(writer, ruleset, table, small);
        } else {
            writer.paragraph(None, &format!("({} above.)", table.title), small, 0.0);
        }
    }
    let results: Vec<String> = p
        .outcomes
        .iter()
        .filter(|o| o.label != o.code || !umpire_core::rules::model::is_id_like(&o.code))
        .map(|o| o.label.clone())
        .collect();
    if !results.is_empty() && !matches!(p.lookup, Lookup::Table(_)) {
        writer.paragraph(Some("Results"), &results.join(" · "), small, 0.0);
    }
    writer.space(mm(3.0));
}

/// Under a table on a card: each result the table declares with its effects ("Snow: +1 to
/// Attrition die rolls; −1 MA for each Combat Unit …"), from the table's own results, with its
/// notes before them when there are effects to show.
fn write_table_effects(writer: &mut Writer, ruleset: &Ruleset, table: &Table, small: TextStyle) {
    let lines: Vec<(String, String)> = table
        .results
        .iter()
        .filter_map(|r| {
            let texts: Vec<String> = r
                .effects
                .iter()
                .filter_map(|e| e.text.as_ref())
                .map(|t| ruleset.in_words(t, Some(table)))
                .collect();
            if texts.is_empty() {
                return None;
            }
            let name = r
                .label
                .clone()
                .unwrap_or_else(|| r.pattern.replace("{n}", "n"));
            Some((format!("{name}:"), texts.join("; ")))
        })
        .collect();
    if lines.is_empty() {
        return;
    }
    writer.space(mm(1.0));
    if let Some(n) = &table.notes {
        writer.paragraph(None, &ruleset.in_words(n, Some(table)), small, 0.0);
    }
    for (name, text) in lines {
        writer.paragraph(Some(&name), &text, small, mm(2.0));
    }
}

/// The chart cards of a ruleset: a player aid laid out in two columns, each procedure as a card
/// in the order of the Sequence of Play (how it is resolved, its modifiers, its table, its
/// results), then the tables no procedure reads.
pub fn chart_cards_pdf(ruleset: &Ruleset, template: Template) -> Result<Vec<u8>, ReportError> {
    // A last page with a card or two on it is a page too many: the cards are set again a little
    // smaller (down to 85 % of the template's sizes) when that saves the page.
    super::pdf::without_a_stray_page(&template, 0.85, |t| set_cards(ruleset, t))
}

fn set_cards(ruleset: &Ruleset, template: Template) -> Result<Writer, ReportError> {
    let title = format!("{} — chart cards", ruleset.name);
    let mut writer = Writer::new(&title, &format!("Umpire · {title}"), template)?;
    let t = writer.template().clone();
    let ink = parse_colour(&t.colours.text).unwrap_or((0.0, 0.0, 0.0));
    let muted = parse_colour(&t.colours.muted).unwrap_or((0.3, 0.3, 0.3));
    writer.paragraph(
        None,
        &title,
        TextStyle {
            size: t.fonts.title * 1.2,
            weight: Weight::Bold,
            colour: ink,
        },
        0.0,
    );
    if let Some(source) = &ruleset.source {
        writer.paragraph(
            None,
            source,
            TextStyle {
                size: t.fonts.subtitle,
                weight: Weight::Regular,
                colour: muted,
            },
            0.0,
        );
    }
    writer.space(mm(2.0));
    let columns = t.columns.unwrap_or(2);
    writer.set_columns(columns);
    // The procedures in the order the Sequence of Play meets them, then the others.
    let mut order: Vec<&umpire_core::rules::Procedure> = Vec::new();
    for step in umpire_core::game::sequence::leaf_steps(ruleset) {
        for id in &step.procedures {
            if let Some(p) = ruleset.procedure(id)
                && !order.iter().any(|x| x.id == p.id)
            {
                order.push(p);
            }
        }
    }
    for p in &ruleset.procedures {
        if !order.iter().any(|x| x.id == p.id) {
            order.push(p);
        }
    }
    let mut printed = std::collections::BTreeSet::new();
    for p in order {
        write_card(&mut writer, ruleset, p, &mut printed);
    }
    for table in ruleset.tables.values() {
        if !printed.contains(&table.id) {
            write_chart(&mut writer, ruleset, table);
        }
    }
    Ok(writer)
}
