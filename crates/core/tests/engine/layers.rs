//! The engine's layers, held by a test rather than by a tool outside the project: inside
//! `umpire-core`, `dice ← rules ← resolve ← game ← megagame`; a module names (`crate::…`) only
//! the layers below it and itself. (The crates above the engine are held by Cargo: core cannot
//! name them at all.)

use std::path::Path;

/// Each layer and the layers it may name besides itself. `schema` (the YAML reference's
/// helper types) may be named by the layers whose YAML it describes.
const LAYERS: [(&str, &[&str]); 5] = [
    ("dice", &[]),
    ("rules", &["dice", "schema"]),
    ("resolve", &["dice", "rules"]),
    ("game", &["dice", "rules", "resolve", "schema"]),
    ("megagame", &["dice", "rules", "resolve", "game"]),
];

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn each_engine_layer_names_only_the_layers_below_it() {
    let src = crate::root().join("crates/core/src");
    let names: Vec<&str> = LAYERS.iter().map(|(l, _)| *l).collect();
    let mut checked = 0;
    for (layer, below) in LAYERS {
        let mut files = Vec::new();
        sources(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "{layer} has sources");
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for (n, line) in text.lines().enumerate() {
                for (i, _) in line.match_indices("crate::") {
                    let rest = &line[i + "crate::".len()..];
                    let named: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !names.contains(&named.as_str()) || named == layer {
                        continue;
                    }
                    checked += 1;
                    assert!(
                        below.contains(&named.as_str()),
                        "{}:{}: the {layer} layer names crate::{named}, above it: {line}",
                        file.strip_prefix(&src).unwrap_or(&file).display(),
                        n + 1
                    );
                }
            }
        }
    }
    assert!(checked > 50, "cross-layer references checked: {checked}");
}
