//! Malformed rulesets: every fixture under `tests/fixtures/malformed/` holds exactly one problem,
//! and loading it must fail with that problem, in the right file, at the right line and column,
//! with a fix-it hint. Nothing of a failing ruleset may load.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use umpire_core::rules::{
    Library, LoadError, RulesetFiles, SourceFile, load_ruleset, read_ruleset_dir,
};

/// One malformed fixture and the single error it must give.
struct Case {
    /// Folder under `tests/fixtures/malformed/`.
    dir: &'static str,
    /// File the error must name.
    file: &'static str,
    /// 1-based line.
    line: usize,
    /// 1-based column.
    column: usize,
    /// A phrase the problem must contain.
    phrase: &'static str,
}

const fn case(
    dir: &'static str,
    file: &'static str,
    line: usize,
    column: usize,
    phrase: &'static str,
) -> Case {
    Case {
        dir,
        file,
        line,
        column,
        phrase,
    }
}

/// Lines and columns counted by hand against the fixtures; a location is where the offending
/// value starts (or the key, for unknown fields; or the mapping, when a key is missing).
const CASES: &[Case] = &[
    case(
        "01_unknown_field_ruleset",
        "ruleset.yaml",
        3,
        1,
        "unknown field `author`",
    ),
    case(
        "02_unknown_field_table",
        "t.yaml",
        4,
        1,
        "unknown field `colour`",
    ),
    case(
        "03_missing_field",
        "ruleset.yaml",
        4,
        5,
        "missing field `name`",
    ),
    case(
        "04_wrong_type",
        "ruleset.yaml",
        9,
        14,
        "invalid type: string \"lots\", expected i64",
    ),
    case(
        "05_yaml_bad_indentation",
        "ruleset.yaml",
        6,
        4,
        "did not find expected '-' indicator",
    ),
    case(
        "06_yaml_unclosed_quote",
        "t.yaml",
        7,
        1,
        "while scanning a quoted scalar at line 2 column 8",
    ),
    case(
        "07_overlapping_ranges",
        "t.yaml",
        6,
        11,
        "range 3-6 overlaps 1-3",
    ),
    case(
        "08_range_gap",
        "t.yaml",
        6,
        11,
        "no range covers 3 (between 1-2 and 4-6)",
    ),
    case(
        "09_open_range_not_last",
        "t.yaml",
        6,
        11,
        "open-ended range 4+ is not the last",
    ),
    case(
        "10_row_cell_count",
        "t.yaml",
        7,
        23,
        "row 4-6 has 3 cells, the table has 2 columns",
    ),
    case("11_empty_table", "t.yaml", 4, 7, "the table has no rows"),
    case(
        "12_unknown_table",
        "ruleset.yaml",
        8,
        22,
        "unknown table 'nosuch'",
    ),
    case(
        "13_unknown_input_name",
        "ruleset.yaml",
        12,
        15,
        "reads unknown name 'disorderd'",
    ),
    case(
        "14_condition_not_flag",
        "ruleset.yaml",
        12,
        15,
        "gives a number where flag is needed",
    ),
    case(
        "15_unparseable_expression",
        "ruleset.yaml",
        11,
        16,
        "cannot read expression '(sp + 1'",
    ),
    case(
        "16_unknown_dice",
        "ruleset.yaml",
        6,
        11,
        "unknown die 'd7x'",
    ),
    case(
        "17_die_without_faces",
        "ruleset.yaml",
        5,
        12,
        "a die needs at least one face",
    ),
    case(
        "18_duplicate_procedure_id",
        "ruleset.yaml",
        12,
        9,
        "procedure id 'test' is used twice",
    ),
    case(
        "19_duplicate_table_id",
        "b.yaml",
        2,
        5,
        "table id 't' is also used by",
    ),
    case(
        "20_choice_without_choices",
        "ruleset.yaml",
        9,
        18,
        "choice input 'discipline' has no choices",
    ),
    case(
        "21_int_min_above_max",
        "ruleset.yaml",
        7,
        36,
        "min 6 is above max 1",
    ),
    case(
        "22_default_out_of_range",
        "ruleset.yaml",
        11,
        18,
        "input 'sp' must be from 1 to 6, got 9",
    ),
    case(
        "23_undeclared_outcome",
        "ruleset.yaml",
        10,
        15,
        "outcome 'win' is not declared under outcomes:",
    ),
    case(
        "24_follow_up_unknown_procedure",
        "ruleset.yaml",
        13,
        42,
        "unknown procedure 'rally_test'",
    ),
    case(
        "25_cell_not_a_result_code",
        "t.yaml",
        7,
        29,
        "'hti' is not one of the table's result codes",
    ),
    case(
        "26_single_cell_not_a_result_code",
        "t.yaml",
        6,
        22,
        "'mis' is not one of the table's result codes",
    ),
    case(
        "27_header_lines_without_line",
        "ruleset.yaml",
        11,
        9,
        "has several header lines, so the lookup needs line:",
    ),
    case(
        "28_ratio_table_with_column",
        "ruleset.yaml",
        12,
        17,
        "give ratio: for an odds-ratio table, not column:",
    ),
    case(
        "29_modifier_value_and_from_table",
        "ruleset.yaml",
        12,
        21,
        "needs exactly one of value: or from_table:",
    ),
    case(
        "30_modifier_dice_on_threshold",
        "ruleset.yaml",
        9,
        21,
        "a modifier to the dice does not fit a threshold lookup",
    ),
    case(
        "31_lookup_two_kinds",
        "ruleset.yaml",
        8,
        7,
        "lookup needs exactly one of table:, threshold:, pool:, compute:",
    ),
    case(
        "32_unknown_input_type",
        "ruleset.yaml",
        7,
        26,
        "unknown variant `number`",
    ),
    case(
        "33_min_on_flag_input",
        "ruleset.yaml",
        9,
        14,
        "min/max apply only to int inputs",
    ),
    case(
        "34_row_with_cells_and_cell",
        "t.yaml",
        8,
        11,
        "both cells and cell are given",
    ),
    case(
        "35_column_on_single_column_table",
        "ruleset.yaml",
        10,
        33,
        "table 't' has a single column",
    ),
    // yaml_serde places a repeated key at the start of its mapping (here the document), not at
    // the repetition on line 7: the message names the key.
    case(
        "36_duplicate_key",
        "t.yaml",
        1,
        1,
        "duplicate entry with key \"title\"",
    ),
    // A value that must be a scalar: yaml_serde reports it at the enclosing mapping (the row),
    // without the field name, so the location is the row, not its key on column 11.
    case(
        "37_list_where_scalar_needed",
        "t.yaml",
        6,
        5,
        "rows[1]: a list or mapping is given where a number, true/false or text is needed",
    ),
    // A derived value's `when:` must be a condition.
    case(
        "38_derived_when_not_a_condition",
        "ruleset.yaml",
        9,
        45,
        "where flag is needed",
    ),
    // A per-Force item's inputs: each an input of its procedure, with a value it takes.
    case(
        "39_per_force_input_not_of_the_procedure",
        "ruleset.yaml",
        20,
        16,
        "'why' is not an input of Test",
    ),
    case(
        "40_per_force_input_not_a_choice",
        "ruleset.yaml",
        20,
        19,
        "reason: ",
    ),
];

fn fixtures_root() -> PathBuf {
    crate::root().join("tests/fixtures/malformed")
}

fn fixture(dir: &str) -> RulesetFiles {
    read_ruleset_dir(&fixtures_root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: cannot read the fixture: {e}"))
}

fn show(e: &LoadError) -> String {
    format!(
        "{}:{}:{}: {} — hint: {:?}",
        e.file, e.line, e.column, e.problem, e.hint
    )
}

/// Everything wrong with one case's result, or None when it is as expected.
fn check(case: &Case) -> Option<String> {
    let files = fixture(case.dir);
    let errors = match load_ruleset(&files) {
        Ok(r) => {
            return Some(format!(
                "loaded (ruleset '{}', {} procedures, {} tables) but should fail",
                r.id,
                r.procedures.len(),
                r.tables.len()
            ));
        }
        Err(e) => e.0,
    };
    let expected = format!(
        "{}:{}:{}: …{}…",
        case.file, case.line, case.column, case.phrase
    );
    if errors.len() != 1 {
        let list: Vec<String> = errors
            .iter()
            .map(|e| format!("      {}", show(e)))
            .collect();
        return Some(format!(
            "expected exactly one error\n    expected: {expected}\n    actual ({}):\n{}",
            errors.len(),
            list.join("\n")
        ));
    }
    let e = &errors[0];
    let mut wrong = Vec::new();
    let path = Path::new(&e.file);
    if !path.ends_with(Path::new(case.dir).join(case.file)) {
        wrong.push(format!(
            "file {:?} is not {}/{}",
            e.file, case.dir, case.file
        ));
    }
    if (e.line, e.column) != (case.line, case.column) {
        wrong.push(format!(
            "location {}:{} is not {}:{}",
            e.line, e.column, case.line, case.column
        ));
    }
    if !e.problem.contains(case.phrase) {
        wrong.push(format!("problem does not contain {:?}", case.phrase));
    }
    if e.hint.trim().is_empty() {
        wrong.push("hint is empty".to_string());
    }
    let display = e.to_string();
    let want_display = format!(
        "{}:{}:{}: {} — {}",
        e.file, e.line, e.column, e.problem, e.hint
    );
    if display != want_display {
        wrong.push(format!(
            "displayed as {display:?}, not file:line:column: problem — hint"
        ));
    }
    (!wrong.is_empty()).then(|| {
        format!(
            "{}\n    expected: {expected}\n    actual:   {}",
            wrong.join("; "),
            show(e)
        )
    })
}

#[test]
fn every_malformed_fixture_fails_with_its_located_error() {
    let failures: Vec<String> = CASES
        .iter()
        .filter_map(|c| check(c).map(|f| format!("[{}] {f}", c.dir)))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} malformed cases are wrong:\n\n{}\n",
        failures.len(),
        CASES.len(),
        failures.join("\n\n")
    );
}

#[test]
fn cases_and_fixture_folders_match() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(fixtures_root())
        .expect("tests/fixtures/malformed exists")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    let listed: BTreeSet<String> = CASES.iter().map(|c| c.dir.to_string()).collect();
    assert_eq!(listed.len(), CASES.len(), "a case is listed twice");
    let untested: Vec<&String> = on_disk.difference(&listed).collect();
    let missing: Vec<&String> = listed.difference(&on_disk).collect();
    assert!(
        untested.is_empty() && missing.is_empty(),
        "fixture folders without a case: {untested:?}; cases without a folder: {missing:?}"
    );
    assert!(
        CASES.len() >= 24,
        "at least 24 malformed cases, got {}",
        CASES.len()
    );
}

#[test]
fn fixtures_use_a_minimal_valid_ruleset_shape() {
    // The fixtures are built from a small valid ruleset; check that shape loads, so each
    // fixture's failure comes from its one change and not from the scaffolding.
    let ok = RulesetFiles {
        ruleset: SourceFile {
            name: "ruleset.yaml".into(),
            text: "id: ok\nname: Valid fixture\nprocedures:\n  - id: test\n    name: Test\n    roll: d6\n    lookup:\n      table: {table: t}\n"
                .into(),
        },
        tables: vec![SourceFile {
            name: "t.yaml".into(),
            text: "id: t\ntitle: T\nroll: d6\nrows:\n  - {key: 1-3, cell: a}\n  - {key: 4-6, cell: b}\n".into(),
        }],
    };
    let r = load_ruleset(&ok).unwrap_or_else(|e| panic!("the valid scaffold does not load:\n{e}"));
    assert_eq!(
        (r.id.as_str(), r.procedures.len(), r.tables.len()),
        ("ok", 1, 1)
    );
}

fn shipped_qrs() -> RulesetFiles {
    read_ruleset_dir(&crate::root().join("tables/qrs")).expect("tables/qrs is readable")
}

#[test]
fn shipped_qrs_loads() {
    let r =
        load_ruleset(&shipped_qrs()).unwrap_or_else(|e| panic!("tables/qrs does not load:\n{e}"));
    assert_eq!(r.id, "qrs");
    assert!(r.procedure("discipline_test").is_some());
}

#[test]
fn one_bad_table_loads_nothing() {
    // The valid qrs ruleset plus one table with overlapping ranges.
    let mut files = shipped_qrs();
    let bad = fixture("07_overlapping_ranges").tables.remove(0);
    let bad_name = bad.name.clone();
    files.tables.push(SourceFile {
        name: bad_name.clone(),
        text: bad.text,
    });

    let errors = match load_ruleset(&files) {
        Ok(r) => panic!(
            "ruleset '{}' loaded with {} tables despite a bad table",
            r.id,
            r.tables.len()
        ),
        Err(e) => e.0,
    };
    assert_eq!(
        errors.len(),
        1,
        "one bad table, one error; got:\n{}",
        errors.iter().map(show).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(errors[0].file, bad_name);
    assert_eq!((errors[0].line, errors[0].column), (6, 11));

    // Through the library: no ruleset at all, and the failure is filed under its id.
    let lib = Library::load(&[files]);
    assert!(
        lib.rulesets.is_empty(),
        "partial ruleset loaded: {:?}",
        lib.ids()
    );
    assert!(lib.get("qrs").is_none());
    assert_eq!(lib.failed.len(), 1);
    assert_eq!(lib.failed[0].0, "qrs");
}

#[test]
fn a_bad_ruleset_does_not_stop_the_others() {
    let lib = Library::load(&[
        fixture("23_undeclared_outcome"),
        shipped_qrs(),
        fixture("11_empty_table"),
    ]);
    assert_eq!(lib.ids(), vec!["qrs"]);
    let failed: Vec<&str> = lib.failed.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(failed, vec!["bad", "bad"]);
}

#[test]
fn errors_in_several_files_are_all_reported() {
    // A bad ruleset.yaml and a bad table: both files are named, neither error hides the other.
    let mut files = fixture("13_unknown_input_name");
    files.tables = fixture("10_row_cell_count").tables;
    let errors = load_ruleset(&files).expect_err("two problems").0;
    let named: BTreeSet<String> = errors
        .iter()
        .map(|e| {
            Path::new(&e.file)
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string()
        })
        .collect();
    assert_eq!(
        named,
        BTreeSet::from(["ruleset.yaml".to_string(), "t.yaml".to_string()]),
        "{}",
        errors.iter().map(show).collect::<Vec<_>>().join("\n")
    );
}
