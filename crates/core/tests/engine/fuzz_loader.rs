//! Property tests of the loader: whatever text arrives as `ruleset.yaml` or as a table file,
//! loading never panics and every error says what is wrong and where.
//!
//! Bounded: 300 cases per property (`UMPIRE_FUZZ_CASES` overrides), no regression files written.

use proptest::prelude::*;
use proptest::test_runner::Config;

use umpire_core::rules::locate::{YamlIndex, YamlPath};
use umpire_core::rules::{LoadErrors, RulesetFiles, SourceFile, load_ruleset, read_ruleset_dir};

fn config() -> Config {
    Config {
        // UMPIRE_FUZZ_CASES=20000 for a longer run.
        cases: std::env::var("UMPIRE_FUZZ_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300),
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    }
}

const MIN_RULESET: &str = "id: fuzz\nname: Fuzz\n";
const MIN_TABLE: &str =
    "id: t\ntitle: T\nroll: d6\nrows:\n  - {key: 1-3, cell: a}\n  - {key: 4-6, cell: b}\n";

fn source(name: &str, text: &str) -> SourceFile {
    SourceFile {
        name: name.to_string(),
        text: text.to_string(),
    }
}

/// Loads, then checks every error names a file that exists, says what is wrong, how to fix
/// it, and has a position (line and column ≥ 1) when its file has any text.
fn load_and_check(files: &RulesetFiles) -> Result<(), TestCaseError> {
    let Err(LoadErrors(errors)) = load_ruleset(files) else {
        return Ok(());
    };
    prop_assert!(!errors.is_empty(), "Err with no errors");
    for e in &errors {
        prop_assert!(!e.problem.trim().is_empty(), "empty problem: {:?}", e);
        prop_assert!(!e.hint.trim().is_empty(), "empty hint: {:?}", e);
        let text = std::iter::once(&files.ruleset)
            .chain(&files.tables)
            .find(|f| f.name == e.file)
            .map(|f| f.text.as_str());
        prop_assert!(
            text.is_some(),
            "error names a file that was not loaded: {:?}",
            e
        );
        if text.is_some_and(|t| t.lines().next().is_some()) {
            prop_assert!(
                e.line >= 1 && e.column >= 1,
                "no position in a file with text: {}",
                e
            );
        }
        if let Some(t) = text {
            // The line exists (the end of the file may be just past the last line break).
            prop_assert!(
                e.line <= yaml_lines(t),
                "line {} past the end ({} lines): {}",
                e.line,
                yaml_lines(t),
                e
            );
        }
    }
    Ok(())
}

/// Lines as the YAML parser counts them: breaks are \n, \r\n, a lone \r, and (YAML 1.1, as
/// libyaml reads it) NEL, LS and PS.
fn yaml_lines(text: &str) -> usize {
    let mut lines = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                chars.next_if_eq(&'\n');
                lines += 1;
            }
            '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' => lines += 1,
            _ => {}
        }
    }
    lines
}

// ---------------------------------------------------------------------------------------------
// (a) Arbitrary text.

/// Random bytes read as text (invalid UTF-8 replaced), or random Unicode.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..400)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        ".{0,300}",
        // Mostly YAML punctuation, to reach deeper into the parser.
        prop::collection::vec(
            prop::sample::select(vec![
                ":", " ", "  ", "\n", "- ", "-", "{", "}", "[", "]", ",", "\"", "'", "#", "&a",
                "*a", "!", "|", ">", "?", "\t", "id", "x", "1",
            ]),
            0..120
        )
        .prop_map(|v| v.concat()),
    ]
}

const KEYS: &[&str] = &[
    "id",
    "name",
    "title",
    "source",
    "description",
    "dice",
    "faces",
    "value",
    "label",
    "weight",
    "procedures",
    "inputs",
    "type",
    "min",
    "max",
    "choices",
    "default",
    "derived",
    "expr",
    "roll",
    "modifiers",
    "when",
    "from_table",
    "applies_to",
    "lookup",
    "table",
    "row",
    "column",
    "ratio",
    "line",
    "threshold",
    "target",
    "success",
    "natural_fail",
    "natural_pass",
    "pass",
    "fail",
    "pool",
    "count",
    "die",
    "score",
    "hits",
    "per",
    "at_least",
    "at_most",
    "face_floor",
    "outcome",
    "compute",
    "let",
    "cases",
    "outcomes",
    "code",
    "effects",
    "kind",
    "side",
    "amount",
    "status",
    "procedure",
    "text",
    "rule",
    "ruling",
    "notes",
    "row_key",
    "column_key",
    "columns",
    "header_lines",
    "rows",
    "key",
    "cells",
    "cell",
    "results",
    "bogus",
];

const VALUES: &[&str] = &[
    "t",
    "bad",
    "test",
    "d6",
    "2d6",
    "d10",
    "d6+2",
    "ceil(d6/2)",
    "2d7x",
    "dcmd",
    "4d6",
    "1-3",
    "4-6",
    "3",
    "7+",
    "≤0",
    "1:2",
    "2:1",
    "\"?\"",
    "?",
    "true",
    "false",
    "0",
    "-1",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999",
    "lots",
    "\"\"",
    "''",
    "[]",
    "{}",
    "[a, b]",
    "[1, 2, 3]",
    "[A, B, C]",
    "{table: t}",
    "{table: t, row: x}",
    "{key: 1-3, cell: a}",
    "{target: 4, pass: pass, fail: fail}",
    "int",
    "choice",
    "flag",
    "roll",
    "target",
    "column",
    "dice",
    "each_die",
    "name",
    "number",
    "bracket",
    "ratio",
    "at_least",
    "at_most",
    "hits",
    "sum",
    "follow_up",
    "status",
    "sp_loss",
    "pass",
    "fail",
    "disordered",
    "sp > 4",
    "sp",
    "natural",
    "'if(x == \"A\", 3, 4)'",
    "\"(sp + 1\"",
    "n",
    "value",
    "~",
    "null",
    "&anchor x",
    "*anchor",
    "!tag x",
    "\"unclosed",
    "a: b",
    "- x",
];

#[derive(Debug, Clone)]
enum Node {
    Scalar(String),
    /// Entries: key, indentation offset (-1, 0 or +1 from the regular column), value.
    Map(Vec<(String, i8, Node)>),
    /// Items: indentation offset, value.
    Seq(Vec<(i8, Node)>),
}

fn offset() -> impl Strategy<Value = i8> {
    prop_oneof![12 => Just(0i8), 1 => Just(-1i8), 1 => Just(1i8), 1 => Just(2i8)]
}

/// YAML-ish trees from the schema's vocabulary, nested up to depth 4.
fn node() -> impl Strategy<Value = Node> {
    let leaf = prop::sample::select(VALUES).prop_map(|s| Node::Scalar(s.to_string()));
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(
                (
                    prop::sample::select(KEYS).prop_map(str::to_string),
                    offset(),
                    inner.clone()
                ),
                0..6
            )
            .prop_map(Node::Map),
            prop::collection::vec((offset(), inner), 0..4).prop_map(Node::Seq),
        ]
    })
}

fn render(node: &Node, indent: usize, step: usize, out: &mut String) {
    let pad = |off: i8| " ".repeat(indent.saturating_add_signed(off as isize));
    match node {
        Node::Scalar(s) => {
            out.push_str(&pad(0));
            out.push_str(s);
            out.push('\n');
        }
        Node::Map(entries) => {
            for (key, off, value) in entries {
                out.push_str(&pad(*off));
                out.push_str(key);
                out.push(':');
                inline_or_nested(value, indent + step, step, out);
            }
        }
        Node::Seq(items) => {
            for (off, value) in items {
                out.push_str(&pad(*off));
                out.push('-');
                inline_or_nested(value, indent + step, step, out);
            }
        }
    }
}

fn inline_or_nested(value: &Node, indent: usize, step: usize, out: &mut String) {
    match value {
        Node::Scalar(s) => {
            out.push(' ');
            out.push_str(s);
            out.push('\n');
        }
        Node::Map(m) if m.is_empty() => out.push_str(" {}\n"),
        Node::Seq(s) if s.is_empty() => out.push_str(" []\n"),
        nested => {
            out.push('\n');
            render(nested, indent, step, out);
        }
    }
}

/// A YAML-ish document: a tree rendered with an indentation step of 1 to 4 spaces.
fn yamlish() -> impl Strategy<Value = String> {
    (node(), 1usize..=4).prop_map(|(n, step)| {
        let mut out = String::new();
        render(&n, 0, step, &mut out);
        out
    })
}

// Schema-shaped documents: the right keys in the right places (so the text gets past the shape
// check and into validation), with values drawn from plausible and implausible ones.

/// A small deterministic generator (xorshift); proptest supplies the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

enum Field {
    /// A scalar from the list.
    Scalar(&'static [&'static str]),
    /// A mapping of the named shape.
    Map(&'static str),
    /// A list of mappings of the named shape.
    List(&'static str),
    /// Result codes → result mappings.
    Results,
}

use Field::{List, Map, Scalar};

const IDS: &[&str] = &["test", "other", "t", "u", "bad", "Test", "x y", "\"\""];
const TEXT: &[&str] = &["L1", "Some text", "\"quoted: text\"", "\"\""];
const INTS: &[&str] = &[
    "0",
    "1",
    "4",
    "6",
    "-1",
    "10",
    "lots",
    "9223372036854775807",
    "-9223372036854775808",
    "1.5",
];
const EXPRS: &[&str] = &[
    "sp",
    "sp > 4",
    "disordered",
    "arm",
    "1",
    "-1",
    "natural",
    "roll",
    "n",
    "value",
    "x",
    "true",
    "'(sp + 1'",
    "sp / 0",
    "'if(arm == \"foot\", 1, 2)'",
    "9223372036854775807 + 1",
    "-sp",
    "target_modifier",
    "\"\"",
    "'arm == \"horse\" && disordered'",
];
const ROLLS: &[&str] = &[
    "d6",
    "2d6",
    "d10",
    "d6+2",
    "ceil(d6/2)",
    "dx",
    "2d7x",
    "4d6",
    "0d6",
    "201d6",
    "d1000",
    "d1001",
    "2dx",
    "d6-7",
];
const KEYS_RANGE: &[&str] = &[
    "1-3",
    "4-6",
    "3-6",
    "1-2",
    "4+",
    "6",
    "≤0",
    "foot",
    "horse",
    "\"1:2\"",
    "x",
    "7+",
    "0",
    "-3",
    "9223372036854775807",
    "6-1",
];
const COLUMNS: &[&str] = &[
    "[a, b]",
    "[foot, horse]",
    "[\"1:2\", \"1:1\", \"2:1\"]",
    "[1-3, 4-6]",
    "[]",
    "[a, a]",
    "[1, 2]",
];
const CELLS: &[&str] = &[
    "[a, b]",
    "[a]",
    "[hit, miss]",
    "[\"?\", a]",
    "[1, 2]",
    "[a, b, c]",
    "[]",
    "[\"A1 B2\", \"3BU\"]",
];
const CELL: &[&str] = &["a", "b", "hit", "\"?\"", "1", "mis", "3BU", "\"\""];

fn shape(name: &str) -> &'static [(&'static str, Field)] {
    match name {
        "ruleset" => &[
            ("id", Scalar(&["bad", "Bad", "a b"])),
            ("name", Scalar(TEXT)),
            ("source", Scalar(TEXT)),
            ("dice", List("die")),
            ("procedures", List("procedure")),
        ],
        "die" => &[
            ("name", Scalar(&["dx", "d", "x", "d6", "dcmd"])),
            ("faces", List("face")),
            ("rule", Scalar(TEXT)),
        ],
        "face" => &[
            ("value", Scalar(INTS)),
            ("label", Scalar(TEXT)),
            ("weight", Scalar(&["1", "0", "3", "-1"])),
        ],
        "procedure" => &[
            ("id", Scalar(IDS)),
            ("name", Scalar(TEXT)),
            ("rule", Scalar(TEXT)),
            ("inputs", List("input")),
            ("derived", List("derived")),
            ("roll", Scalar(ROLLS)),
            ("modifiers", List("modifier")),
            ("lookup", Map("lookup")),
            ("outcomes", List("outcome")),
        ],
        "input" => &[
            (
                "name",
                Scalar(&["sp", "arm", "disordered", "roll", "n", "Bad"]),
            ),
            ("type", Scalar(&["int", "choice", "flag", "number"])),
            ("min", Scalar(INTS)),
            ("max", Scalar(INTS)),
            (
                "choices",
                Scalar(&["[foot, horse]", "[A, B, A]", "[]", "[1, true]"]),
            ),
            ("default", Scalar(&["1", "foot", "true", "9", "A"])),
            ("label", Scalar(TEXT)),
        ],
        "derived" => &[
            ("name", Scalar(&["target", "sp", "bonus", "natural"])),
            ("expr", Scalar(EXPRS)),
            ("label", Scalar(TEXT)),
        ],
        "modifier" => &[
            ("name", Scalar(TEXT)),
            ("value", Scalar(EXPRS)),
            ("from_table", Map("table_ref")),
            ("when", Scalar(EXPRS)),
            (
                "applies_to",
                Scalar(&["roll", "target", "column", "dice", "each_die", "sideways"]),
            ),
        ],
        "lookup" => &[
            ("table", Map("table_ref")),
            ("threshold", Map("threshold")),
            ("pool", Map("pool")),
            ("compute", Map("compute")),
        ],
        "table_ref" => &[
            ("table", Scalar(&["t", "u", "nosuch"])),
            ("row", Scalar(EXPRS)),
            ("column", Scalar(EXPRS)),
            ("ratio", Scalar(&["[sp, 1]", "[1]", "[2, 1]"])),
            ("line", Scalar(EXPRS)),
        ],
        "threshold" => &[
            ("target", Scalar(EXPRS)),
            ("success", Scalar(&["at_least", "at_most", "sometimes"])),
            ("natural_fail", Scalar(&["[1]", "[]", "[1, 6]"])),
            ("natural_pass", Scalar(&["[6]", "[]"])),
            ("pass", Scalar(&["pass", "win"])),
            ("fail", Scalar(&["fail", "lose"])),
        ],
        "pool" => &[
            ("count", Scalar(EXPRS)),
            ("die", Scalar(&["d6", "dx", "d7x"])),
            ("score", Scalar(&["hits", "sum", "most"])),
            ("hits", List("hit")),
            ("face_floor", Scalar(INTS)),
            ("outcome", Scalar(&["hits", "pass"])),
        ],
        "hit" => &[
            ("faces", Scalar(&["[6]", "[5, 6]", "[]"])),
            ("at_least", Scalar(EXPRS)),
            ("at_most", Scalar(EXPRS)),
            ("per", Scalar(&["1", "2", "0"])),
            ("hits", Scalar(&["1", "2"])),
        ],
        "compute" => &[("let", List("derived")), ("cases", List("case"))],
        "case" => &[
            ("when", Scalar(EXPRS)),
            ("outcome", Scalar(&["pass", "fail", "hits"])),
            ("value", Scalar(EXPRS)),
        ],
        "outcome" => &[
            ("code", Scalar(&["pass", "fail", "hits", "pass"])),
            ("label", Scalar(TEXT)),
            ("effects", List("effect")),
        ],
        "effect" => &[
            (
                "kind",
                Scalar(&[
                    "sp_loss",
                    "status",
                    "retreat",
                    "follow_up",
                    "eliminate",
                    "note",
                    "dance",
                ]),
            ),
            ("amount", Scalar(EXPRS)),
            ("status", Scalar(&["disordered"])),
            ("procedure", Scalar(IDS)),
            ("text", Scalar(TEXT)),
        ],
        "table" => &[
            ("id", Scalar(&["t", "u", "T"])),
            ("title", Scalar(TEXT)),
            ("roll", Scalar(ROLLS)),
            (
                "row_key",
                Scalar(&["roll", "name", "number", "bracket", "ratio", "other"]),
            ),
            (
                "column_key",
                Scalar(&["roll", "name", "number", "bracket", "ratio"]),
            ),
            ("columns", Scalar(COLUMNS)),
            ("header_lines", List("header_line")),
            ("rows", List("row")),
            ("results", Field::Results),
        ],
        "header_line" => &[
            ("id", Scalar(&["day", "night", "day"])),
            ("label", Scalar(TEXT)),
            ("columns", Scalar(COLUMNS)),
        ],
        "row" => &[
            ("key", Scalar(KEYS_RANGE)),
            ("cells", Scalar(CELLS)),
            ("cell", Scalar(CELL)),
        ],
        "result" => &[("label", Scalar(TEXT)), ("effects", List("effect"))],
        other => panic!("no shape {other}"),
    }
}

/// An indentation offset: almost always 0, so most documents parse.
fn jitter(rng: &mut Rng) -> i8 {
    if rng.next() % 1000 < 4 {
        if rng.chance(50) { 1 } else { -1 }
    } else {
        0
    }
}

/// Fields the schema requires (kept nearly always).
const REQUIRED: &[(&str, &str)] = &[
    ("ruleset", "id"),
    ("ruleset", "name"),
    ("die", "name"),
    ("die", "faces"),
    ("face", "value"),
    ("procedure", "id"),
    ("procedure", "name"),
    ("procedure", "lookup"),
    ("input", "name"),
    ("input", "type"),
    ("derived", "name"),
    ("derived", "expr"),
    ("modifier", "name"),
    ("table_ref", "table"),
    ("threshold", "target"),
    ("threshold", "pass"),
    ("threshold", "fail"),
    ("pool", "count"),
    ("pool", "die"),
    ("pool", "outcome"),
    ("compute", "cases"),
    ("case", "outcome"),
    ("outcome", "code"),
    ("effect", "kind"),
    ("table", "id"),
    ("table", "title"),
    ("table", "rows"),
    ("header_line", "id"),
    ("header_line", "columns"),
    ("row", "key"),
];

fn shaped(rng: &mut Rng, name: &str, depth: usize) -> Node {
    let mut entries = Vec::new();
    // A lookup usually has one kind, sometimes two or none.
    let lookup_kinds = if name == "lookup" {
        if rng.chance(90) { 1 } else { rng.below(3) * 2 }
    } else {
        0
    };
    let lookup_start = rng.below(4);
    for (i, (key, field)) in shape(name).iter().enumerate() {
        let keep = if name == "lookup" {
            (i + 4 - lookup_start) % 4 < lookup_kinds
        } else {
            rng.chance(if REQUIRED.contains(&(name, *key)) {
                97
            } else {
                40
            })
        };
        if !keep {
            continue;
        }
        let key = if rng.chance(1) {
            format!("{key}x")
        } else {
            key.to_string()
        };
        let value = match field {
            Scalar(values) => Node::Scalar(rng.pick(values).to_string()),
            _ if depth >= 5 => Node::Scalar("[]".to_string()),
            Map(inner) => shaped(rng, inner, depth + 1),
            List(inner) => Node::Seq(
                (0..rng.below(3) + usize::from(depth == 0))
                    .map(|_| (jitter(rng), shaped(rng, inner, depth + 1)))
                    .collect(),
            ),
            Field::Results => Node::Map(
                (0..rng.below(4))
                    .map(|_| {
                        (
                            rng.pick(&[
                                "a",
                                "b",
                                "hit",
                                "miss",
                                "\"{n}BU\"",
                                "\"0\"",
                                "\"{n}{n}\"",
                                "\"two words\"",
                            ])
                            .to_string(),
                            jitter(rng),
                            shaped(rng, "result", depth + 1),
                        )
                    })
                    .collect(),
            ),
        };
        entries.push((key, jitter(rng), value));
    }
    Node::Map(entries)
}

fn shaped_text(seed: u64, name: &str) -> String {
    let mut rng = Rng(seed | 1);
    let mut out = String::new();
    render(&shaped(&mut rng, name, 0), 0, 2, &mut out);
    out
}

fn shaped_files(seed: u64, tables: usize) -> RulesetFiles {
    RulesetFiles {
        ruleset: source("ruleset.yaml", &shaped_text(seed, "ruleset")),
        tables: (0..tables)
            .map(|i| {
                source(
                    &format!("t{i}.yaml"),
                    &shaped_text(seed.rotate_left(17 * (i as u32 + 1)) ^ 0x9e37_79b9, "table"),
                )
            })
            .collect(),
    }
}

#[test]
fn shaped_documents_reach_validation() {
    // Most shaped documents must get past the YAML and shape checks, or the property below
    // only tests the parser.
    let total: u64 = 500;
    let reached = (0..total)
        .filter(
            |seed| match load_ruleset(&shaped_files(seed * 7919 + 1, 2)) {
                Ok(_) => true,
                Err(e) => e.0.iter().any(|e| {
                    !e.hint.contains("YAML syntax")
                        && !e.problem.contains("field")
                        && !e.problem.contains("invalid type")
                        && !e.problem.contains("variant")
                }),
            },
        )
        .count();
    assert!(
        reached as u64 * 3 >= total,
        "only {reached} of {total} shaped documents reached validation"
    );
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn shaped_ruleset_and_tables_never_panic(seed in any::<u64>(), tables in 0usize..4) {
        let files = shaped_files(seed, tables);
        let shown = std::iter::once(&files.ruleset).chain(&files.tables).map(|f| format!("--- {}\n{}", f.name, f.text)).collect::<String>();
        let result = std::panic::catch_unwind(|| load_and_check(&files));
        match result {
            Ok(r) => r.map_err(|e| TestCaseError::fail(format!("{e}\n{shown}")))?,
            Err(_) => prop_assert!(false, "load_ruleset panicked on:\n{}", shown),
        }
    }

    #[test]
    fn arbitrary_text_as_ruleset_never_panics(text in any_text()) {
        let files = RulesetFiles { ruleset: source("ruleset.yaml", &text), tables: vec![source("t.yaml", MIN_TABLE)] };
        load_and_check(&files)?;
    }

    #[test]
    fn arbitrary_text_as_table_never_panics(text in any_text()) {
        let files = RulesetFiles { ruleset: source("ruleset.yaml", MIN_RULESET), tables: vec![source("t.yaml", &text)] };
        load_and_check(&files)?;
    }

    #[test]
    fn yamlish_ruleset_never_panics(text in yamlish()) {
        let files = RulesetFiles { ruleset: source("ruleset.yaml", &text), tables: vec![source("t.yaml", MIN_TABLE)] };
        load_and_check(&files)?;
    }

    #[test]
    fn yamlish_table_never_panics(text in yamlish()) {
        let files = RulesetFiles { ruleset: source("ruleset.yaml", MIN_RULESET), tables: vec![source("t.yaml", &text)] };
        load_and_check(&files)?;
    }

    #[test]
    fn yamlish_everywhere_never_panics(rs in yamlish(), a in yamlish(), b in yamlish()) {
        let files = RulesetFiles { ruleset: source("ruleset.yaml", &rs), tables: vec![source("a.yaml", &a), source("b.yaml", &b)] };
        load_and_check(&files)?;
    }

    #[test]
    fn yaml_index_never_panics(text in prop_oneof![any_text(), yamlish()], keys in prop::collection::vec((prop::sample::select(KEYS), 0usize..4), 0..6)) {
        let index = YamlIndex::build(&text);
        let mut path = YamlPath::root();
        for (key, i) in keys {
            path = path.key(key);
            let (line, column) = index.locate(&path);
            prop_assert_eq!(line == 0, column == 0, "half a position for {}", path);
            path = path.index(i);
            let _ = index.locate(&path);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (b) Mutations of the shipped, valid qrs ruleset.

fn qrs() -> RulesetFiles {
    read_ruleset_dir(&crate::root().join("tables/qrs")).expect("tables/qrs is readable")
}

#[derive(Debug, Clone)]
/// Positions are taken modulo the number of lines, numbers or bytes.
enum Mutation {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    ChangeNumber(usize, String),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let number = prop_oneof![
        (-20i64..40).prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "0",
            "-1",
            "1000",
            "1001",
            "65536",
            "4294967296",
            "9223372036854775807",
            "-9223372036854775808",
            "99999999999999999999"
        ])
        .prop_map(str::to_string),
        any::<i64>().prop_map(|n| n.to_string()),
    ];
    prop_oneof![
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (any::<usize>(), number).prop_map(|(i, n)| Mutation::ChangeNumber(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    match m {
        Mutation::DeleteLine(i) if !lines.is_empty() => {
            lines.remove(i % lines.len());
            lines.concat()
        }
        Mutation::DuplicateLine(i) if !lines.is_empty() => {
            let k = i % lines.len();
            let mut line = lines[k].to_string();
            if !line.ends_with('\n') {
                line.push('\n');
            }
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            out.insert(k, line);
            out.concat()
        }
        Mutation::SwapLines(a, b) if !lines.is_empty() => {
            let mut out: Vec<String> = lines
                .iter()
                .map(|l| l.trim_end_matches('\n').to_string())
                .collect();
            let (a, b) = (a % out.len(), b % out.len());
            out.swap(a, b);
            out.join("\n") + "\n"
        }
        Mutation::ChangeNumber(i, n) => {
            let numbers: Vec<(usize, usize)> = digit_runs(text);
            if numbers.is_empty() {
                return text.to_string();
            }
            let (start, end) = numbers[i % numbers.len()];
            format!("{}{n}{}", &text[..start], &text[end..])
        }
        Mutation::Truncate(i) => {
            let mut at = i % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text[..at].to_string()
        }
        _ => text.to_string(),
    }
}

/// Byte ranges of the runs of ASCII digits.
fn digit_runs(text: &str) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_ascii_digit(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push((s, text.len()));
    }
    runs
}

#[test]
fn mutations_are_exercised() {
    // The mutator really changes text (else the property below proves nothing).
    let text = "a: 1\nb: 22\nc: x\n";
    assert_eq!(mutate(text, &Mutation::DeleteLine(3)), "b: 22\nc: x\n");
    assert_eq!(
        mutate(text, &Mutation::DuplicateLine(2)),
        "a: 1\nb: 22\nc: x\nc: x\n"
    );
    assert_eq!(
        mutate(text, &Mutation::SwapLines(0, 2)),
        "c: x\nb: 22\na: 1\n"
    );
    assert_eq!(digit_runs(text), vec![(3, 4), (8, 10)]);
    assert_eq!(
        mutate(text, &Mutation::ChangeNumber(1, "-7".into())),
        "a: 1\nb: -7\nc: x\n"
    );
    assert_eq!(mutate(text, &Mutation::Truncate(7)), "a: 1\nb:");
    assert_eq!(mutate("é", &Mutation::Truncate(1)), "");
    assert!(
        load_ruleset(&qrs()).is_ok(),
        "the unmutated qrs ruleset must load"
    );
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_qrs_never_panics(file in 0usize..5, m in mutation(), second in proptest::option::of((0usize..5, mutation()))) {
        let mut files = qrs();
        for (f, m) in std::iter::once((file, m)).chain(second) {
            let n = files.tables.len();
            let target = if f == 0 { &mut files.ruleset } else { &mut files.tables[(f - 1) % n] };
            target.text = mutate(&target.text, &m);
        }
        load_and_check(&files)?;
    }
}
