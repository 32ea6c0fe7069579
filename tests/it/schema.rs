//! The YAML files' schema, written once in the code (`umpire::schema`): the copy committed in
//! `docs/schema/` is what the code generates; every shipped file names its schema on its first
//! line and is valid against it; every type and field is described; and on files changed one
//! field at a time, the schema refuses whatever the loader's deserialiser refuses and refuses
//! nothing the loader accepts.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value};
use umpire::game::scenario::{ScenarioLibrary, load_scenario};
use umpire::rules::{Library, RulesetFiles, SourceFile, load_ruleset, read_ruleset_dir};
use umpire::schema::{self, FileKind};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The shipped YAML files with their kind, told by folder and name as the loader tells them:
/// `tables/<id>/ruleset.yaml` the ruleset, every other YAML file of `tables/<id>/` a table,
/// `scenarios/<ruleset>/*.yaml` scenarios.
fn shipped() -> Vec<(PathBuf, FileKind)> {
    let mut out = Vec::new();
    for top in ["tables", "scenarios"] {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join(top))
            .expect("shipped folder")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("folder")
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
                .collect();
            files.sort();
            for f in files {
                let kind = FileKind::of_path(&f).expect("a YAML file");
                let expected = match (top, f.file_name().and_then(|n| n.to_str())) {
                    ("scenarios", _) => FileKind::Scenario,
                    (_, Some("ruleset.yaml")) => FileKind::Ruleset,
                    _ => FileKind::Table,
                };
                assert_eq!(kind, expected, "{}", f.display());
                out.push((f, kind));
            }
        }
    }
    assert!(out.len() > 90, "{} shipped files", out.len());
    out
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn validator(kind: FileKind) -> jsonschema::Validator {
    jsonschema::draft7::new(&schema::schema(kind)).expect("the schema compiles")
}

fn to_json(text: &str) -> Value {
    yaml_serde::from_str::<Value>(text).expect("YAML")
}

#[test]
fn docs_schema_is_what_the_code_generates() {
    let out = std::env::temp_dir().join(format!("umpire-schema-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["rules", "schema", "--out"])
        .arg(&out)
        .output()
        .expect("the umpire binary runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut stale = Vec::new();
    for (name, _) in schema::files() {
        let fresh = std::fs::read_to_string(out.join(&name)).expect("written");
        let committed =
            std::fs::read_to_string(root().join("docs/schema").join(&name)).unwrap_or_default();
        if fresh != committed {
            stale.push(name);
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        stale.is_empty(),
        "docs/schema/ is out of date ({}): run `cargo run -- rules schema --out docs/schema` and commit the result",
        stale.join(", ")
    );
}

#[test]
fn every_shipped_yaml_file_is_valid_against_its_schema() {
    let validators: BTreeMap<FileKind, jsonschema::Validator> =
        FileKind::ALL.iter().map(|k| (*k, validator(*k))).collect();
    let mut problems = Vec::new();
    for (path, kind) in shipped() {
        let text = std::fs::read_to_string(&path).expect("read");
        let doc = to_json(&text);
        for e in validators[&kind].iter_errors(&doc).take(5) {
            problems.push(format!(
                "{} ({}): at {}: {e}",
                shown(&path),
                kind.id(),
                e.instance_path()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_shipped_yaml_file_names_its_schema_on_its_first_line() {
    let mut wrong = Vec::new();
    for (path, kind) in shipped() {
        let text = std::fs::read_to_string(&path).expect("read");
        let first = text.lines().next().unwrap_or_default();
        let want = kind.modeline("../../docs/schema");
        if first != want {
            wrong.push(format!("{}: {first:?}, want {want:?}", shown(&path)));
        }
        // The path it names is there, relative to the file.
        let target = path
            .parent()
            .expect("folder")
            .join(want.trim_start_matches(schema::MODELINE_PREFIX));
        assert!(
            target.is_file(),
            "{} names {}",
            shown(&path),
            target.display()
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_type_and_field_is_described() {
    for kind in FileKind::ALL {
        let missing = schema::undocumented(&schema::schema(kind));
        assert!(
            missing.is_empty(),
            "{} schema: no description for {}",
            kind.id(),
            missing.join(", ")
        );
    }
}

#[test]
fn a_type_name_means_one_type_in_every_schema() {
    let mut seen: BTreeMap<String, (FileKind, Value)> = BTreeMap::new();
    for kind in FileKind::ALL {
        let s = schema::schema(kind);
        for (name, def) in s["definitions"].as_object().expect("definitions") {
            if let Some((other, first)) = seen.get(name) {
                assert_eq!(
                    first,
                    def,
                    "{name} differs between the {} and {} schemas",
                    other.id(),
                    kind.id()
                );
            } else {
                seen.insert(name.clone(), (kind, def.clone()));
            }
        }
    }
    assert!(seen.contains_key("Effect") && seen.contains_key("Position"));
}

/// The schema's verdict agrees with the loader's on every change below: what the deserialiser
/// refuses, the schema refuses; what the schema refuses, the loader refuses too (the schema
/// may let through what only the whole ruleset can tell wrong: an unknown table, a name an
/// expression does not know).
#[test]
fn the_schema_agrees_with_the_loader_on_changed_files() {
    let validators: BTreeMap<FileKind, jsonschema::Validator> =
        FileKind::ALL.iter().map(|k| (*k, validator(*k))).collect();
    let rulesets = Library::shipped();
    let mut disagreements = Vec::new();
    let mut tried = 0;
    for (n, (path, kind)) in shipped().into_iter().enumerate() {
        let text = std::fs::read_to_string(&path).expect("read");
        let doc = to_json(&text);
        let mut objects = Vec::new();
        objects_in(&doc, String::new(), &mut objects);
        // A few objects of each file, spread over it (a different few for each file).
        let wanted = 3;
        let stride = (objects.len() / wanted).max(1);
        let picks: Vec<&String> = objects
            .iter()
            .skip(n % stride)
            .step_by(stride)
            .take(wanted)
            .collect();
        for pointer in picks {
            for (what, changed) in changes(&doc, pointer) {
                tried += 1;
                let yaml = yaml_serde::to_string(&changed).expect("YAML out");
                let raw_ok = schema::check_raw(kind, &yaml).is_ok();
                let schema_ok = validators[&kind].is_valid(&changed);
                if !raw_ok && schema_ok {
                    disagreements.push(format!(
                        "{} {pointer}: {what}: the deserialiser refuses it, the schema accepts it",
                        shown(&path)
                    ));
                }
                if raw_ok && !schema_ok && loads(&path, kind, &yaml, &rulesets) {
                    let why: Vec<String> = validators[&kind]
                        .iter_errors(&changed)
                        .take(3)
                        .map(|e| format!("{}: {e}", e.instance_path()))
                        .collect();
                    disagreements.push(format!(
                        "{} {pointer}: {what}: the loader accepts it, the schema refuses it ({})",
                        shown(&path),
                        why.join("; ")
                    ));
                }
            }
        }
    }
    assert!(tried > 3000, "{tried} changes tried");
    assert!(
        disagreements.is_empty(),
        "{} of {tried} changes:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

/// JSON pointers of every object in a document.
fn objects_in(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            out.push(at.clone());
            for (k, v) in m {
                objects_in(
                    v,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                objects_in(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The changes tried on the object at `pointer`: a field no type has, each field left out, each
/// field given a float, a list, a mapping and a word instead.
fn changes(doc: &Value, pointer: &str) -> Vec<(String, Value)> {
    let Some(Value::Object(object)) = doc.pointer(pointer) else {
        return Vec::new();
    };
    let with = |f: &dyn Fn(&mut Map<String, Value>)| {
        let mut changed = doc.clone();
        if let Some(Value::Object(m)) = changed.pointer_mut(pointer) {
            f(m);
        }
        changed
    };
    let mut out = vec![(
        "an unknown field".to_string(),
        with(&|m| {
            m.insert("zz_not_a_field".into(), Value::from(1));
        }),
    )];
    for key in object.keys() {
        out.push((
            format!("without {key}"),
            with(&|m| {
                m.remove(key);
            }),
        ));
        let others: [(&str, Value); 4] = [
            ("1.5", Value::from(1.5)),
            ("a list", Value::Array(vec![Value::from(1)])),
            ("a mapping", serde_json::json!({"zz": 1})),
            ("a word", Value::from("zz word")),
        ];
        for (name, value) in others {
            out.push((
                format!("{key} given {name}"),
                with(&|m| {
                    m.insert(key.clone(), value.clone());
                }),
            ));
        }
    }
    out
}

/// Whether the whole loader accepts the changed file: a ruleset or table file with the rest of
/// its ruleset's files, a scenario against the shipped rulesets.
fn loads(path: &Path, kind: FileKind, yaml: &str, rulesets: &Library) -> bool {
    let changed = SourceFile {
        name: shown(path),
        text: yaml.to_string(),
    };
    match kind {
        FileKind::Scenario => load_scenario(&changed, rulesets).is_ok(),
        FileKind::Ruleset | FileKind::Table => {
            let dir = path.parent().expect("ruleset folder");
            let mut files: RulesetFiles = read_ruleset_dir(dir).expect("ruleset files");
            if kind == FileKind::Ruleset {
                files.ruleset = changed;
            } else if let Some(slot) = files
                .tables
                .iter_mut()
                .find(|t| Path::new(&t.name).file_name() == path.file_name())
            {
                *slot = changed;
            }
            load_ruleset(&files).is_ok()
        }
    }
}

#[test]
fn the_modeline_leaves_error_locations_where_they_were() {
    // A mistake on a known line of a shipped file with its modeline: the error names that line.
    let dir = root().join("tables/qrs");
    let mut files = read_ruleset_dir(&dir).expect("qrs");
    let slot = files
        .tables
        .iter_mut()
        .find(|t| t.name.ends_with("firing.yaml"))
        .expect("firing.yaml");
    assert!(slot.text.starts_with(schema::MODELINE_PREFIX));
    let line = slot
        .text
        .lines()
        .position(|l| l.starts_with("title:"))
        .expect("a title line")
        + 1;
    slot.text = slot.text.replacen("title:", "titel:", 1);
    let errors = load_ruleset(&files).expect_err("an unknown field");
    let e = &errors.0[0];
    assert_eq!((e.line, e.column), (line, 1), "{e}");
    assert!(line > 1);
    // And the scenarios load as before.
    let scenarios = ScenarioLibrary::shipped(&Library::shipped());
    assert!(scenarios.failed.is_empty(), "{:?}", scenarios.failed);
}

#[test]
fn a_transcription_template_names_the_table_schema() {
    let user = std::env::temp_dir().join(format!("umpire-schema-template-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&user);
    let run = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--user-rules")
        .arg(&user)
        .args(["rules", "template", "ailsh", "assault"])
        .env_remove("UMPIRE_RULES")
        .output()
        .expect("the umpire binary runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(user.join("ailsh/assault.yaml")).expect("template");
    let first = text.lines().next().unwrap_or_default();
    assert_eq!(first, FileKind::Table.modeline(".."));
    assert_eq!(
        text.matches(schema::MODELINE_PREFIX).count(),
        1,
        "one modeline:\n{text}"
    );
    // The schema it names is written beside the rulesets' folders.
    let written = std::fs::read_to_string(user.join("table.schema.json")).expect("schema");
    assert_eq!(written, schema::schema_text(FileKind::Table));
    // And the template loads as a transcription.
    let lib = Library::load_layered(&umpire::rules::shipped_sources(), Some(&user));
    assert!(lib.failed.is_empty(), "{:?}", lib.failed);
    let _ = std::fs::remove_dir_all(&user);
}
