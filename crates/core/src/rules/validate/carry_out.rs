//! An order's `carry_out:`: the choice field it carries out, the areas field it moves along,
//! the whole-number unit attributes it writes, and a table whose rows its options name and
//! whose column holds a whole-number change.

use super::*;

/// Whether `name` is a whole-number unit attribute; a problem at `at` when it is not.
fn whole_number(ctx: &mut FileCtx, at: &YamlPath, name: &str, units: &[AttributeSpec]) -> bool {
    match units.iter().find(|s| s.name == name) {
        Some(s) if matches!(s.kind, AttributeKind::Int { .. }) => true,
        Some(_) => {
            ctx.err(
                at,
                format!("'{name}' is not a whole-number attribute"),
                "name a unit attribute of type int",
            );
            false
        }
        None => {
            ctx.err(
                at,
                format!("no unit attribute '{name}'"),
                format!(
                    "declared: {}",
                    units
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            false
        }
    }
}

/// Validates `carry_out` against the order's own fields and what the ruleset declares.
pub(super) fn carry_out(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawOrderCarryOut,
    fields: &[OrderField],
    names: &OrderNames,
) -> CarryOut {
    rule_ref(ctx, p, &raw.rule);
    let options = match raw
        .option
        .as_ref()
        .map(|o| (o, fields.iter().find(|f| f.id == *o).map(|f| &f.kind)))
    {
        None => &[][..],
        Some((_, Some(OrderFieldKind::Choice { options }))) => options.as_slice(),
        Some((o, _)) => {
            ctx.err(
                &p.key("option"),
                format!("no choice field '{o}' in this order"),
                "name the id of one of its `choice` fields",
            );
            &[]
        }
    };
    if raw.option.is_none() && raw.along.is_none() {
        ctx.err(
            p,
            "nothing to carry out",
            "name the `option` field carried out, the `areas` field it moves `along`, or both",
        );
    }
    if let Some(along) = &raw.along
        && !fields
            .iter()
            .any(|f| f.id == *along && matches!(f.kind, OrderFieldKind::Areas { .. }))
    {
        ctx.err(
            &p.key("along"),
            format!("no areas field '{along}' in this order"),
            "name the id of its `areas` field",
        );
    }
    if let Some(attr) = &raw.counts_in {
        whole_number(ctx, &p.key("counts_in"), attr, names.units);
    }
    let table = raw.table.as_ref().map(|t| {
        let at = p.key("table");
        match names.tables.get(&t.table) {
            None => ctx.err(
                &at.key("table"),
                format!("no table '{}'", t.table),
                "name a table of the ruleset",
            ),
            Some(table) => {
                if !table
                    .lines
                    .iter()
                    .any(|l| l.keys.iter().any(|k| k.to_string() == t.column))
                {
                    ctx.err(
                        &at.key("column"),
                        format!("table '{}' has no column '{}'", t.table, t.column),
                        "name one of its columns' keys",
                    );
                }
                for o in options {
                    let Some(row) = &o.row else { continue };
                    if !table.rows.iter().any(|r| r.key.to_string() == *row) {
                        ctx.err(
                            &p.key("table").key("table"),
                            format!(
                                "option '{}' reads row '{row}', not in table '{}'",
                                o.id, t.table
                            ),
                            "give the `row` of the table that option reads",
                        );
                    }
                }
            }
        }
        whole_number(ctx, &at.key("attribute"), &t.attribute, names.units);
        (t.table.clone(), t.column.clone(), t.attribute.clone())
    });
    CarryOut {
        option: raw.option.clone(),
        along: raw.along.clone(),
        counts_in: raw.counts_in.clone(),
        table,
        rule: raw.rule.trim().to_string(),
        source_lines: raw.source.clone(),
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{RulesetFiles, SourceFile, load_ruleset};

    const RULESET: &str = r#"id: c
name: Carry-out test
units:
  - {name: kind, type: choice, choices: [army, area], label: Kind}
  - {name: tired, type: int, min: 0, max: 5, label: Fatigue}
  - {name: moved, type: int, min: 0, max: 2, label: Areas moved}
sequence_of_play:
  - {id: move, name: Move}
orders:
  - id: card
    name: Intention Card
    rule: "Movement"
    text: Written each step.
    steps: [move]
    from: army_commander
    each: counter
    each_counter: {attribute: kind, is: army}
    fields:
      - {id: areas, label: Areas, kind: areas, max: 2, area_counters: {attribute: kind, is: area}, rule: "Movement"}
      - {id: step, label: Move, kind: choice, options: [{id: one, label: Move 1 area, moves: 1, row: one}, {id: stay, label: Remain, moves: 0, row: stay}], rule: "Movement"}
    late: {kind: misses_step, text: They miss the step., rule: "Movement"}
    reveal:
      - {to: others, at: as_carried_out, text: As they move., rule: "Movement"}
    carry_out: {option: step, along: areas, counts_in: moved, table: {table: moves, column: change, attribute: tired}, rule: "Movement"}
"#;

    const TABLE: &str = "id: moves\ntitle: Moves\nrow_key: name\ncolumn_key: name\ncolumns: [change]\nrows:\n  - {key: one, cells: [\"0\"]}\n  - {key: stay, cells: [\"-1\"]}\n";

    fn load(text: &str) -> Result<crate::rules::Ruleset, Vec<String>> {
        load_ruleset(&RulesetFiles {
            ruleset: SourceFile {
                name: "ruleset.yaml".into(),
                text: text.into(),
            },
            tables: vec![SourceFile {
                name: "moves.yaml".into(),
                text: TABLE.into(),
            }],
        })
        .map_err(|e| {
            e.0.iter()
                .map(|e| format!("{}:{}: {}", e.line, e.column, e.problem))
                .collect()
        })
    }

    #[track_caller]
    fn refused_with(from: &str, to: &str, needle: &str) {
        assert_eq!(RULESET.matches(from).count(), 1, "{from}");
        let problems = load(&RULESET.replacen(from, to, 1)).expect_err("refused");
        assert!(
            problems.iter().any(|p| p.contains(needle)),
            "no problem says {needle:?}: {problems:#?}"
        );
    }

    #[test]
    fn a_carry_out_loads_and_names_only_what_the_order_and_ruleset_have() {
        let r = load(RULESET).unwrap_or_else(|e| panic!("{e:#?}"));
        let c = r
            .order_kind("card")
            .and_then(|k| k.carry_out.clone())
            .expect("carry_out");
        assert_eq!(c.option.as_deref(), Some("step"));
        assert_eq!(
            c.table,
            Some(("moves".into(), "change".into(), "tired".into()))
        );
        refused_with(
            "{option: step,",
            "{option: areas,",
            "no choice field 'areas' in this order",
        );
        refused_with(
            "along: areas,",
            "along: step,",
            "no areas field 'step' in this order",
        );
        refused_with(
            "counts_in: moved,",
            "counts_in: kind,",
            "'kind' is not a whole-number attribute",
        );
        refused_with(
            "column: change,",
            "column: fatigue,",
            "table 'moves' has no column 'fatigue'",
        );
        refused_with(
            "row: stay}",
            "row: rest}",
            "option 'stay' reads row 'rest', not in table 'moves'",
        );
        refused_with(
            "{option: step, along: areas, counts_in: moved, table: {table: moves, column: change, attribute: tired}, ",
            "{",
            "nothing to carry out",
        );
    }
}
