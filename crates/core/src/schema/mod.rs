//! The YAML files' schema, written once, in the code: JSON Schemas (draft 7, what editors'
//! YAML language servers read) derived from the raw serde types the loader reads the files into
//! (`rules::raw`, `game::scenario::raw`), their doc comments becoming the descriptions, and a
//! Markdown reference generated from the same schemas. `umpire rules schema --out DIR` writes
//! them; `docs/schema/` holds the copy in the repository, kept equal by a test.
//!
//! What the schema checks is what the loader's deserialiser checks (field names, types, the
//! values of enumerations), plus the rules of the validator that need no other file: ids
//! written as identifiers, "exactly one of" groups, what a kind of input or effect needs. What
//! needs the ruleset (a scenario's attribute names, a procedure's table, an expression's names)
//! is left to `umpire rules check` and the scenario loader.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use crate::game::scenario::raw::RawScenario;
use crate::rules::raw::{RawRuleset, RawTable};
use crate::rules::validate::{SourceFile, parse_yaml};

pub(crate) mod fields;

/// The three kinds of YAML file Umpire reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileKind {
    /// `tables/<ruleset>/ruleset.yaml`: the ruleset and its procedures.
    Ruleset,
    /// Every other file of `tables/<ruleset>/`: one table each (and the user's transcriptions).
    Table,
    /// `scenarios/<ruleset>/<id>.yaml`: a scenario.
    Scenario,
}

impl FileKind {
    /// Every kind, in the order the reference lists them.
    pub const ALL: [FileKind; 3] = [FileKind::Ruleset, FileKind::Table, FileKind::Scenario];

    /// The short name (`ruleset`, `table`, `scenario`).
    pub fn id(self) -> &'static str {
        match self {
            FileKind::Ruleset => "ruleset",
            FileKind::Table => "table",
            FileKind::Scenario => "scenario",
        }
    }

    /// The schema's file name (`ruleset.schema.json`).
    pub fn schema_file(self) -> String {
        format!("{}.schema.json", self.id())
    }

    /// The kind of a YAML file by where it lies, as the loader tells them: `ruleset.yaml` in a
    /// ruleset folder, any other `.yaml`/`.yml` beside it a table, and a file under a
    /// `scenarios` folder a scenario. None for anything else.
    pub fn of_path(path: &std::path::Path) -> Option<FileKind> {
        let is_yaml = path.extension().is_some_and(|x| x == "yaml" || x == "yml");
        if !is_yaml {
            return None;
        }
        let in_scenarios = path
            .parent()
            .and_then(std::path::Path::parent)
            .and_then(std::path::Path::file_name)
            .is_some_and(|n| n == "scenarios");
        if in_scenarios {
            Some(FileKind::Scenario)
        } else if path.file_name().is_some_and(|n| n == "ruleset.yaml") {
            Some(FileKind::Ruleset)
        } else {
            Some(FileKind::Table)
        }
    }

    /// The modeline that points an editor's YAML language server at this kind's schema, for a
    /// file at `relative` from the folder that holds the schemas (`../../docs/schema`).
    pub fn modeline(self, relative: &str) -> String {
        let dir = relative.trim_end_matches('/');
        format!(
            "# yaml-language-server: $schema={dir}/{}",
            self.schema_file()
        )
    }

    fn title(self) -> &'static str {
        match self {
            FileKind::Ruleset => "Umpire ruleset file (tables/<ruleset>/ruleset.yaml)",
            FileKind::Table => "Umpire table file (tables/<ruleset>/<table>.yaml)",
            FileKind::Scenario => "Umpire scenario file (scenarios/<ruleset>/<scenario>.yaml)",
        }
    }
}

/// The first line of a shipped YAML file that names its schema, if it has one.
pub const MODELINE_PREFIX: &str = "# yaml-language-server: $schema=";

/// The JSON Schema of one kind of file (draft 7), descriptions from the doc comments.
pub fn schema(kind: FileKind) -> Value {
    let generator = SchemaSettings::draft07().into_generator();
    let root = match kind {
        FileKind::Ruleset => generator.into_root_schema_for::<RawRuleset>(),
        FileKind::Table => generator.into_root_schema_for::<RawTable>(),
        FileKind::Scenario => generator.into_root_schema_for::<RawScenario>(),
    };
    let mut value = root.to_value();
    if let Value::Object(map) = &mut value {
        map.insert("title".into(), kind.title().into());
    }
    finish(&mut value);
    value
}

/// The schema as written to its file: pretty JSON with a final line break.
pub fn schema_text(kind: FileKind) -> String {
    let mut text = serde_json::to_string_pretty(&schema(kind)).unwrap_or_default();
    text.push('\n');
    text
}

/// Every file `umpire rules schema` writes: (file name, contents).
pub fn files() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = FileKind::ALL
        .iter()
        .map(|k| (k.schema_file(), schema_text(*k)))
        .collect();
    out.push(("schema.md".into(), markdown()));
    out
}

/// Reads `text` as the loader's deserialiser does for a file of `kind` (unknown fields refused,
/// types checked), without validating it against anything else. The schema must refuse
/// whatever this refuses.
pub fn check_raw(kind: FileKind, text: &str) -> Result<(), String> {
    let file = SourceFile {
        name: format!("a {} file", kind.id()),
        text: text.to_string(),
    };
    let result = match kind {
        FileKind::Ruleset => parse_yaml::<RawRuleset>(&file).map(|_| ()),
        FileKind::Table => parse_yaml::<RawTable>(&file).map(|_| ()),
        FileKind::Scenario => parse_yaml::<RawScenario>(&file).map(|_| ()),
    };
    result.map_err(|e| e.to_string())
}

// --- Finishing the generated schema ------------------------------------------------------------

/// What the derived schema needs after generation: text fields that take any scalar (the
/// deserialiser reads `rule: 4.3` or `name: 1509` as text), descriptions joined into
/// paragraphs, and the types' names without the `Raw` of the code.
fn finish(value: &mut Value) {
    let renames = rename_map(value);
    walk(value, &mut |node| {
        let Value::Object(map) = node else { return };
        if let Some(Value::Object(props)) = map.get_mut("properties") {
            for prop in props.values_mut() {
                textify(prop);
            }
        }
        if let Some(Value::String(d)) = map.get_mut("description") {
            *d = paragraphs(d);
        }
        // `default: null` says nothing an optional field does not; `int64`, `uint32`… are
        // not formats a validator knows (a `minimum` says what `uint32` means here).
        if map.get("default").is_some_and(Value::is_null) {
            map.remove("default");
        }
        if map.get("format").is_some_and(|f| {
            matches!(
                f.as_str(),
                Some(
                    "int8"
                        | "int16"
                        | "int32"
                        | "int64"
                        | "uint8"
                        | "uint16"
                        | "uint32"
                        | "uint64"
                        | "uint"
                        | "int"
                        | "float"
                        | "double"
                )
            )
        }) {
            map.remove("format");
        }
        if let Some(Value::String(r)) = map.get_mut("$ref")
            && let Some(name) = r.strip_prefix("#/definitions/")
            && let Some(new) = renames.get(name)
        {
            *r = format!("#/definitions/{new}");
        }
    });
    if let Some(Value::Object(defs)) = value.get_mut("definitions") {
        let old = std::mem::take(defs);
        for (name, def) in old {
            let new = renames.get(&name).cloned().unwrap_or(name);
            defs.insert(new, def);
        }
    }
}

/// `RawStep` → `Step`: the names the reference shows.
fn rename_map(value: &Value) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Some(Value::Object(defs)) = value.get("definitions") {
        for name in defs.keys() {
            if let Some(short) = name.strip_prefix("Raw") {
                out.insert(name.clone(), short.to_string());
            }
        }
    }
    out
}

fn walk(value: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    f(value);
    match value {
        Value::Object(map) => map.values_mut().for_each(|v| walk(v, f)),
        Value::Array(items) => items.iter_mut().for_each(|v| walk(v, f)),
        _ => {}
    }
}

/// A field of text takes any scalar, as the deserialiser reads it: `"4.3"`, `4.3`, `true`.
fn textify(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    let fixed = [
        "$ref", "enum", "const", "pattern", "anyOf", "oneOf", "format",
    ];
    if fixed.iter().any(|k| map.contains_key(*k)) {
        return;
    }
    let types: Vec<String> = match map.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(str::to_string))
            .collect(),
        _ => return,
    };
    if types.iter().any(|t| t == "string") {
        let mut out: Vec<Value> = vec!["string".into(), "number".into(), "boolean".into()];
        if types.iter().any(|t| t == "null") {
            out.push("null".into());
        }
        map.insert("type".into(), Value::Array(out));
    } else if types.iter().any(|t| t == "array") {
        if let Some(items) = map.get_mut("items") {
            textify(items);
        }
    } else if types.iter().any(|t| t == "object")
        && let Some(values) = map.get_mut("additionalProperties")
    {
        textify(values);
    }
}

/// A doc comment's lines joined into paragraphs: a line break inside a paragraph is a space.
fn paragraphs(doc: &str) -> String {
    doc.split("\n\n")
        .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n")
}

// --- The Markdown reference --------------------------------------------------------------------

/// The reference, generated from the three schemas: one section per type, each field with its
/// type, whether it is required and its description.
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str("# The YAML files' reference\n\n");
    out.push_str(
        "Generated by `umpire rules schema --out docs/schema` from the types the loader reads the \
         files into (`crates/core/src/rules/raw/`, `crates/core/src/game/scenario/raw.rs`) and \
         their doc comments; do not edit it by hand. The JSON Schemas beside it \
         (`ruleset.schema.json`, `table.schema.json`, `scenario.schema.json`) are made from the \
         same types, for editors (see docs/rulesets.md).\n\n",
    );
    out.push_str(
        "*text* takes any scalar (`4.3`, `true` and `\"4.3\"` all read as text); a *string* \
         must be one to YAML, not a number or `true`/`false` (quote digits: `\"0114\"`); a \
         *whole number* is written without quotes. Fields not marked required may be left out. \
         Wherever a rule is cited, `rule:` is the reference a player looks up in the printed \
         rules (\"4.3.1\", \"Rule 7.5\", \"The Discipline Test › Additional Modifiers\") and \
         `source:` the lines of the text extraction it comes from (\"L408–416\"), kept as \
         provenance.\n\n",
    );
    out.push_str(
        "The schema checks what needs no other file: field names and types, the allowed values, \
         ids, groups of which exactly one is given, what a kind of input or effect needs. \
         `umpire rules check` and the scenario loader check the rest (an unknown table or \
         procedure, a name an expression does not know, a scenario's attributes against its \
         ruleset). Where YAML is read two ways they can differ: a key with nothing after it \
         (`name:`) is null to the schema, refused where a value is needed, though the loader \
         reads empty text or an empty list; `1.0` passes the schema as a whole number but not \
         the loader; and editors read YAML 1.2, where a bare `0114` is the number 114 (the \
         loader keeps it as text, and refuses it unquoted as a hex id).\n\n",
    );
    out.push_str("Files:\n\n");
    for kind in FileKind::ALL {
        let root = root_name(kind);
        out.push_str(&format!(
            "- [{}](#{}): `{}`\n",
            kind.title(),
            anchor(&root),
            kind.schema_file()
        ));
    }
    out.push('\n');
    let mut written: BTreeSet<String> = BTreeSet::new();
    for kind in FileKind::ALL {
        let s = schema(kind);
        let defs = s
            .get("definitions")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        out.push_str(&format!("## {}\n\n", kind.title()));
        out.push_str(&format!(
            "Schema: `{}`. Modeline for the first line of the file: `{}`\n\n",
            kind.schema_file(),
            kind.modeline("../../docs/schema")
        ));
        let root = root_name(kind);
        let mut root_schema = s.clone();
        if let Value::Object(m) = &mut root_schema {
            m.remove("definitions");
            m.remove("$schema");
            m.remove("title");
        }
        let mut order = vec![(root.clone(), root_schema.clone())];
        let mut queue: VecDeque<Value> = VecDeque::from([root_schema]);
        let mut seen: BTreeSet<String> = BTreeSet::from([root.clone()]);
        while let Some(node) = queue.pop_front() {
            for r in refs_in(&node) {
                if seen.insert(r.clone())
                    && let Some(def) = defs.get(&r)
                {
                    order.push((r.clone(), def.clone()));
                    queue.push_back(def.clone());
                }
            }
        }
        let shared: Vec<&String> = order
            .iter()
            .map(|(n, _)| n)
            .filter(|n| written.contains(*n))
            .collect();
        if !shared.is_empty() {
            out.push_str(&format!(
                "Also used here, described above: {}.\n\n",
                shared
                    .iter()
                    .map(|n| format!("[{n}](#{})", anchor(n)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        for (name, def) in &order {
            if !written.insert(name.clone()) {
                continue;
            }
            section(&mut out, name, def);
        }
    }
    out
}

fn root_name(kind: FileKind) -> String {
    match kind {
        FileKind::Ruleset => "Ruleset",
        FileKind::Table => "Table",
        FileKind::Scenario => "Scenario",
    }
    .to_string()
}

/// GitHub's anchor for a heading of one word.
fn anchor(name: &str) -> String {
    name.to_lowercase()
}

/// The definitions a schema refers to, in the order they appear.
fn refs_in(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    fn go(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref")
                    && let Some(name) = r.strip_prefix("#/definitions/")
                {
                    out.push(name.to_string());
                }
                // Properties in their order, then the rest.
                for v in m.values() {
                    go(v, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| go(v, out)),
            _ => {}
        }
    }
    go(value, &mut out);
    out
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
        .replace("\n\n", "<br><br>")
        .replace('\n', " ")
}

fn section(out: &mut String, name: &str, def: &Value) {
    out.push_str(&format!("### {name}\n\n"));
    if let Some(d) = def.get("description").and_then(Value::as_str) {
        out.push_str(d);
        out.push_str("\n\n");
    }
    if let Some(props) = def.get("properties").and_then(Value::as_object) {
        let required: BTreeSet<&str> = def
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        out.push_str("| field | type | required | description |\n|---|---|---|---|\n");
        let mut fields: Vec<(&String, &Value)> = props.iter().collect();
        fields.sort_by_key(|(f, _)| !required.contains(f.as_str()));
        for (field, schema) in fields {
            let mut description = schema
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if let Some(default) = schema.get("default") {
                description.push_str(&format!(" Default: `{default}`."));
            }
            out.push_str(&format!(
                "| `{field}` | {} | {} | {} |\n",
                cell(&type_words(schema)),
                if required.contains(field.as_str()) {
                    "required"
                } else {
                    ""
                },
                cell(description.trim())
            ));
        }
        out.push('\n');
        let extra = constraints(def);
        if !extra.is_empty() {
            out.push_str(&extra);
            out.push('\n');
        }
    } else if let Some(values) = enum_values(def)
        && values.iter().any(|(_, d)| !d.is_empty())
    {
        out.push_str("| value | meaning |\n|---|---|\n");
        for (v, d) in values {
            out.push_str(&format!("| `{v}` | {} |\n", cell(&d)));
        }
        out.push('\n');
    } else {
        out.push_str(&format!("Written as: {}.\n\n", type_words(def)));
        let described: Vec<String> = def
            .get("anyOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|alt| {
                let d = alt.get("description").and_then(Value::as_str)?;
                Some(format!("- {}: {}\n", type_words(alt), cell(d)))
            })
            .collect();
        if !described.is_empty() {
            out.push_str(&described.concat());
            out.push('\n');
        }
    }
}

/// The values of an enumeration with their meanings (`oneOf` of `const`s, or `enum`).
fn enum_values(def: &Value) -> Option<Vec<(String, String)>> {
    if let Some(values) = def.get("enum").and_then(Value::as_array) {
        return Some(
            values
                .iter()
                .map(|v| (v.as_str().unwrap_or_default().to_string(), String::new()))
                .collect(),
        );
    }
    let alts = def.get("oneOf").and_then(Value::as_array)?;
    let mut out = Vec::new();
    for alt in alts {
        let description = alt
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        if let Some(c) = alt.get("const").and_then(Value::as_str) {
            out.push((c.to_string(), description));
        } else if let Some(values) = alt.get("enum").and_then(Value::as_array) {
            for v in values {
                out.push((
                    v.as_str().unwrap_or_default().to_string(),
                    description.clone(),
                ));
            }
        } else {
            return None;
        }
    }
    Some(out)
}

/// The rules of an object beyond its fields, in words: groups of which exactly one is given,
/// pairs never given together, what a kind needs.
fn constraints(def: &Value) -> String {
    let mut out = String::new();
    let fields = |v: &Value| -> String {
        v.get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            })
            .unwrap_or_default()
    };
    if let Some(alts) = def.get("oneOf").and_then(Value::as_array) {
        let groups: Vec<String> = alts.iter().map(fields).collect();
        out.push_str(&format!("Exactly one of: {}.\n", groups.join("; ")));
    }
    if let Some(not) = def.get("not") {
        out.push_str(&format!("Never both: {}.\n", fields(not)));
    }
    if let Some(n) = def.get("minProperties").and_then(Value::as_u64) {
        out.push_str(&format!("At least {n} field(s) given.\n"));
    }
    for rule in def
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(d) = rule.get("description").and_then(Value::as_str) {
            out.push_str(&format!("- {d}\n"));
        }
    }
    out
}

/// A schema's type in words, with links to the types it names.
fn type_words(schema: &Value) -> String {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/definitions/").unwrap_or(r);
        return format!("[{name}](#{})", anchor(name));
    }
    if let Some(values) = enum_values(schema)
        && schema.get("properties").is_none()
    {
        return format!(
            "one of {}",
            values
                .iter()
                .map(|(v, _)| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if let Some([only]) = schema
        .get("allOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        return type_words(only);
    }
    if let Some(alts) = schema.get("anyOf").and_then(Value::as_array) {
        let words: Vec<String> = alts
            .iter()
            .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
            .map(type_words)
            .collect();
        return words.join(" or ");
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let types: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
    if types.contains(&"string") && types.contains(&"number") {
        return "text".into();
    }
    match types.first().copied() {
        Some("string") => match schema.get("pattern").and_then(Value::as_str) {
            Some(p) => format!("string matching `{p}`"),
            None => "string".into(),
        },
        Some("integer") => match schema.get("minimum").and_then(Value::as_i64) {
            Some(0) => "whole number ≥ 0".into(),
            Some(m) => format!("whole number ≥ {m}"),
            None => "whole number".into(),
        },
        Some("number") => "number".into(),
        Some("boolean") => "true/false".into(),
        Some("array") => format!(
            "list of {}",
            schema.get("items").map_or("values".into(), type_words)
        ),
        Some("object") => match schema.get("additionalProperties") {
            Some(v) if v.is_object() => format!("map of name → {}", type_words(v)),
            _ => "mapping".into(),
        },
        _ => "any".into(),
    }
}

/// Every property and definition of a schema that has no description: (where, name).
pub fn undocumented(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let defs = value
        .get("definitions")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_else(Map::new);
    let mut check = |name: &str, def: &Value| {
        let has = |v: &Value| {
            v.get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.trim().is_empty())
        };
        if !has(def) {
            out.push(name.to_string());
        }
        if let Some(props) = def.get("properties").and_then(Value::as_object) {
            for (field, schema) in props {
                if !has(schema) {
                    out.push(format!("{name}.{field}"));
                }
            }
        }
        if let Some(alts) = def.get("oneOf").and_then(Value::as_array) {
            for (i, alt) in alts.iter().enumerate() {
                if alt.get("const").is_some() && !has(alt) {
                    out.push(format!("{name} value {i}"));
                }
            }
        }
    };
    check("(root)", value);
    for (name, def) in &defs {
        check(name, def);
    }
    out
}
