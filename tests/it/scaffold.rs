//! `umpire rules new` (a ruleset folder to start from) and `docs/writing-a-ruleset.md` (the guide
//! from a one-page rules sheet to a working ruleset), run against the built binary: the scaffold
//! loads, checks clean, resolves each procedure with app and typed dice and its scenario starts
//! a game; a second `rules new` into the same place is refused and changes nothing; the guide's
//! YAML blocks are its files, its folder loads and starts a game, and following its steps one by
//! one loads at every step.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use umpire::schema::{self, FileKind};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder of the test's own under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    crate::common::scratch_dir("scaffold", name)
}

/// What a run of the binary gave.
struct Run {
    shown: String,
    success: bool,
    stdout: String,
    stderr: String,
}

impl Run {
    fn ok(&self) -> &Self {
        assert!(self.success, "expected success:\n{}", self.shown);
        self
    }

    fn json(&self) -> Value {
        self.ok();
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.shown))
    }

    /// Fails with every phrase on stderr, and nothing on stdout.
    fn fails_saying(&self, phrases: &[&str]) {
        assert!(!self.success, "expected failure:\n{}", self.shown);
        assert!(
            self.stdout.trim().is_empty(),
            "stdout on error:\n{}",
            self.shown
        );
        for p in phrases {
            assert!(
                self.stderr.contains(p),
                "stderr lacks {p:?}:\n{}",
                self.shown
            );
        }
    }
}

/// Runs `umpire ARGS` in `dir`, without the caller's rulesets or transcriptions.
fn umpire_in(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--no-user-rules")
        .args(args)
        .current_dir(dir)
        .env_remove("UMPIRE_RULES")
        .output()
        .expect("the umpire binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    Run {
        shown: format!(
            "umpire {} → {:?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
            args.join(" "),
            out.status.code()
        ),
        success: out.status.success(),
        stdout,
        stderr,
    }
}

/// Every file under `dir` (relative path → bytes).
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d)
            .expect("folder")
            .filter_map(Result::ok)
        {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let rel = path.strip_prefix(dir).expect("inside").to_path_buf();
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    out
}

/// Checks a YAML file against the JSON Schema of its kind.
fn valid(path: &Path, kind: FileKind) {
    let text = std::fs::read_to_string(path).expect("read");
    let doc: Value = yaml_serde::from_str(&text).expect("YAML");
    let validator = jsonschema::draft7::new(&schema::schema(kind)).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{}: {}",
        path.display(),
        errors.join("\n")
    );
}

/// `rules new NAME --dir my-rules` in a scratch folder.
fn scaffold(test: &str, name: &str) -> PathBuf {
    let dir = scratch(test);
    let run = umpire_in(&dir, &["rules", "new", name, "--dir", "my-rules"]);
    run.ok();
    dir
}

#[test]
fn rules_new_writes_a_commented_ruleset_that_checks_clean() {
    let dir = scratch("writes");
    let run = umpire_in(&dir, &["rules", "new", "club_game", "--dir", "my-rules"]);
    run.ok();
    let folder = dir.join("my-rules/club_game");
    for (file, kind, schemas) in [
        ("ruleset.yaml", FileKind::Ruleset, ".."),
        ("melee_table.yaml", FileKind::Table, ".."),
        ("scenarios/first_clash.yaml", FileKind::Scenario, "../.."),
    ] {
        let path = folder.join(file);
        assert!(
            run.stdout
                .contains(&format!("wrote my-rules/club_game/{file}")),
            "{}",
            run.shown
        );
        let text = std::fs::read_to_string(&path).expect("written");
        // The first line names the schema written beside the folder, by a path that is there.
        assert_eq!(text.lines().next(), Some(kind.modeline(schemas).as_str()));
        let named = path
            .parent()
            .expect("folder")
            .join(format!("{schemas}/{}", kind.schema_file()));
        assert_eq!(
            std::fs::read_to_string(&named).expect("schema written"),
            schema::schema_text(kind)
        );
        // The new id where the example's was (a table does not name its ruleset).
        assert_eq!(
            text.contains("club_game"),
            kind != FileKind::Table,
            "{file}"
        );
        assert!(!text.contains("my_club_game"), "{file}");
        // Commented: the first line that opens each field has a comment line above it.
        let lines: Vec<&str> = text.lines().collect();
        let mut seen = std::collections::BTreeSet::new();
        for (i, line) in lines.iter().enumerate() {
            let field = line.trim_start().trim_start_matches("- ");
            let Some((key, _)) = field.split_once(':') else {
                continue;
            };
            let is_key = !key.is_empty()
                && key.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                && !field.starts_with('#');
            if is_key && seen.insert(key.to_string()) {
                let above = i.checked_sub(1).map_or("", |j| lines[j]);
                assert!(
                    above.trim_start().starts_with('#'),
                    "{file}:{}: `{key}` has no comment above it",
                    i + 1
                );
            }
        }
        assert!(seen.len() > 8, "{file}: {seen:?}");
        valid(&path, kind);
    }
    let ruleset = std::fs::read_to_string(folder.join("ruleset.yaml")).expect("read");
    assert!(ruleset.contains("name: My club's game"), "a made-up game");
    for shape in [
        "threshold:",
        "table: {table: melee_table",
        "pool:",
        "opposed:",
    ] {
        assert!(ruleset.contains(shape), "no {shape}");
    }
    // The next commands, with the folder as typed.
    for next in [
        "umpire --rules my-rules rules check club_game",
        "umpire --rules my-rules describe club_game",
        "umpire --rules my-rules resolve club_game",
        "umpire --rules my-rules game new my-rules/club_game/scenarios/first_clash.yaml",
    ] {
        assert!(run.stdout.contains(next), "no {next:?}:\n{}", run.shown);
    }
    // It loads and every table is complete, by id and by folder.
    let check = umpire_in(
        &dir,
        &["--rules", "my-rules", "rules", "check", "club_game"],
    );
    check.ok();
    assert!(check.stdout.contains("melee_table"), "{}", check.shown);
    assert!(check.stdout.contains("complete"), "{}", check.shown);
    assert!(!check.stdout.contains("missing"), "{}", check.shown);
    umpire_in(&dir, &["rules", "check", "my-rules/club_game"]).ok();
    let list = umpire_in(&dir, &["--rules", "my-rules", "rules", "list"]);
    assert!(
        list.ok().stdout.contains("My club's game"),
        "{}",
        list.shown
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rules_new_without_dir_writes_into_the_rules_folder() {
    let dir = scratch("rules-dir");
    umpire_in(&dir, &["--rules", "lib", "rules", "new", "raid"]).ok();
    assert!(dir.join("lib/raid/ruleset.yaml").is_file());
    assert!(dir.join("lib/ruleset.schema.json").is_file());
    umpire_in(&dir, &["rules", "new", "here"]).ok();
    assert!(dir.join("here/ruleset.yaml").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

fn outcome(dir: &Path, procedure: &str, args: &[&str]) -> Value {
    let mut all = vec![
        "--rules",
        "my-rules",
        "resolve",
        "club_game",
        procedure,
        "--json",
    ];
    all.extend_from_slice(args);
    umpire_in(dir, &all).json()
}

#[test]
fn each_procedure_of_the_scaffold_resolves_with_typed_and_app_dice() {
    let dir = scaffold("resolve", "club_game");
    // Morale test: 4 or more on a d6; a natural 1 fails; +1 with the general near.
    let v = outcome(&dir, "morale_test", &["-i", "morale=4", "--roll", "4"]);
    assert_eq!(v["outcome"]["code"], "steady");
    let v = outcome(&dir, "morale_test", &["-i", "morale=2", "--roll", "1"]);
    assert_eq!(v["outcome"]["code"], "falls_back", "a natural 1 fails");
    let kinds: Vec<&Value> = v["outcome"]["effects"]
        .as_array()
        .expect("effects")
        .iter()
        .map(|e| &e["kind"])
        .collect();
    assert_eq!(kinds, ["status", "retreat"]);
    let v = outcome(
        &dir,
        "morale_test",
        &["-i", "morale=4", "-i", "general_near=true", "--roll", "3"],
    );
    assert_eq!(v["outcome"]["code"], "steady", "3 + 1 reaches 4");
    // Melee: the column is attacker − defender, clamped at +2.
    let v = outcome(
        &dir,
        "melee",
        &[
            "-i",
            "attacker_stands=6",
            "-i",
            "defender_stands=1",
            "--roll",
            "5",
        ],
    );
    assert_eq!(v["derived"][0]["name"], "difference");
    assert_eq!(v["derived"][0]["value"], 5);
    assert_eq!(v["lookup"]["column"], "+2");
    assert_eq!(v["lookup"]["row"], "5-6");
    assert_eq!(v["outcome"]["code"], "DE");
    let v = outcome(
        &dir,
        "melee",
        &[
            "-i",
            "attacker_stands=1",
            "-i",
            "defender_stands=2",
            "-i",
            "charging=true",
            "--roll",
            "6",
        ],
    );
    assert_eq!(v["lookup"]["column"], "-1");
    assert_eq!(v["lookup"]["row"], "7", "6 + 1 charging");
    assert_eq!(v["outcome"]["code"], "DB");
    // Shooting: one die per stand, 5s and 6s hit; long range takes a die away.
    let v = outcome(
        &dir,
        "shooting",
        &["-i", "stands=4", "--roll", "5", "2", "6", "1"],
    );
    assert_eq!(v["outcome"]["value"], 2);
    assert_eq!(v["outcome"]["effects"][0]["amount"], 2);
    let v = outcome(
        &dir,
        "shooting",
        &[
            "-i",
            "stands=4",
            "-i",
            "long_range=true",
            "--roll",
            "6",
            "6",
            "5",
        ],
    );
    assert_eq!(v["outcome"]["value"], 3);
    // Initiative: each side a d6, the higher first; a tie rolls again.
    let v = outcome(&dir, "initiative", &["--roll", "3", "5"]);
    assert_eq!(v["outcome"]["code"], "blue_first");
    let v = outcome(
        &dir,
        "initiative",
        &["-i", "red_bonus=2", "--roll", "3", "5"],
    );
    assert_eq!(v["outcome"]["code"], "roll_again", "3 + 2 ties 5");
    // The app's dice: every procedure resolves to one of its outcomes, the same for one seed.
    for (procedure, inputs, codes) in [
        (
            "morale_test",
            vec!["-i", "morale=4"],
            vec!["steady", "falls_back"],
        ),
        (
            "melee",
            vec!["-i", "attacker_stands=3", "-i", "defender_stands=3"],
            vec!["-", "AB", "DB", "DE"],
        ),
        ("shooting", vec!["-i", "stands=5"], vec!["hits"]),
        (
            "initiative",
            vec![],
            vec!["red_first", "blue_first", "roll_again"],
        ),
    ] {
        let mut args = inputs.clone();
        args.extend(["--seed", "11"]);
        let v = outcome(&dir, procedure, &args);
        let code = v["outcome"]["code"].as_str().expect("code");
        assert!(codes.contains(&code), "{procedure}: {code}");
        assert_eq!(v["rolls"][0]["provenance"]["source"], "app", "{procedure}");
        assert_eq!(outcome(&dir, procedure, &args), v, "{procedure}: same seed");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_scaffold_scenario_starts_a_game_with_two_forces() {
    let dir = scaffold("scenario", "club_game");
    let scenario = "my-rules/club_game/scenarios/first_clash.yaml";
    let check = umpire_in(
        &dir,
        &["--rules", "my-rules", "scenario", "check", scenario],
    );
    assert!(check.ok().stdout.contains("4 counters"), "{}", check.shown);
    umpire_in(
        &dir,
        &[
            "--rules", "my-rules", "game", "new", scenario, "-o", "g.umpire", "--seed", "1",
        ],
    )
    .ok();
    let status = umpire_in(&dir, &["--rules", "my-rules", "game", "status", "g.umpire"]);
    for counter in [
        "Red spearmen",
        "Red archers",
        "Blue swordsmen",
        "Blue slingers",
    ] {
        assert!(status.ok().stdout.contains(counter), "{}", status.shown);
    }
    // The inputs marked `from:` are read off the counters: 4 stands against 4, column 0.
    let resolved = umpire_in(
        &dir,
        &[
            "--rules",
            "my-rules",
            "game",
            "resolve",
            "g.umpire",
            "melee",
            "--counter",
            "attacker=Red spearmen",
            "--counter",
            "defender=Blue swordsmen",
            "--roll",
            "5",
            "--json",
        ],
    );
    let v = resolved.json();
    assert_eq!(v["lookup"]["column"], "0", "{}", resolved.shown);
    assert_eq!(v["outcome"]["code"], "DB");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_rules_new_is_refused_and_changes_nothing() {
    let dir = scaffold("twice", "club_game");
    let ruleset = dir.join("my-rules/club_game/ruleset.yaml");
    let mut text = std::fs::read_to_string(&ruleset).expect("read");
    text.push_str("# the umpire's own edit\n");
    std::fs::write(&ruleset, &text).expect("edit");
    let before = snapshot(&dir);
    umpire_in(&dir, &["rules", "new", "club_game", "--dir", "my-rules"])
        .fails_saying(&["my-rules/club_game exists", "nothing was written"]);
    assert_eq!(snapshot(&dir), before, "files untouched");
    // Another folder declaring the same id is refused too.
    std::fs::create_dir_all(dir.join("my-rules/other")).expect("folder");
    std::fs::write(
        dir.join("my-rules/other/ruleset.yaml"),
        "id: raid\nname: Raid\n",
    )
    .expect("write");
    let before = snapshot(&dir);
    umpire_in(&dir, &["rules", "new", "raid", "--dir", "my-rules"])
        .fails_saying(&["my-rules/other/ruleset.yaml already declares the ruleset id 'raid'"]);
    assert_eq!(snapshot(&dir), before, "files untouched");
    // A name that is not an id says what an id is, and writes nothing.
    for bad in ["My Game", "9lives", "with-dash", "Caps", ""] {
        umpire_in(&dir, &["rules", "new", bad, "--dir", "my-rules"]).fails_saying(&[
            "is not a ruleset id",
            "lower case letters, digits and _, starting with a letter",
        ]);
    }
    assert_eq!(snapshot(&dir), before, "files untouched");
    let _ = std::fs::remove_dir_all(&dir);
}

// --- the guide ---------------------------------------------------------------------------------

const GUIDE: &str = "docs/writing-a-ruleset.md";
const GUIDE_FILES: &str = "docs/writing-a-ruleset";

/// The guide's blocks tagged ```` ```yaml file=PATH [part=N] ````: (path, part, text), in order.
fn guide_blocks() -> Vec<(String, Option<usize>, String)> {
    let text = std::fs::read_to_string(root().join(GUIDE)).expect("the guide");
    let mut out = Vec::new();
    let mut open: Option<(String, Option<usize>, String)> = None;
    for line in text.split_inclusive('\n') {
        if let Some((path, part, body)) = &mut open {
            if line.trim_end() == "```" {
                out.push((path.clone(), *part, std::mem::take(body)));
                open = None;
            } else {
                body.push_str(line);
            }
            continue;
        }
        let Some(info) = line.trim_end().strip_prefix("```yaml ") else {
            continue;
        };
        let mut path = None;
        let mut part = None;
        for word in info.split_whitespace() {
            if let Some(p) = word.strip_prefix("file=") {
                // The reader's folder is my-rules; the guide's copy is docs/writing-a-ruleset.
                let p = p.strip_prefix("my-rules/").unwrap_or(p);
                path = Some(p.to_string());
            } else if let Some(n) = word.strip_prefix("part=") {
                part = Some(n.parse().expect("part=N"));
            }
        }
        open = Some((path.expect("file=PATH"), part, String::new()));
    }
    assert!(open.is_none(), "an unclosed block in {GUIDE}");
    out
}

/// The parts of `path` in order, each checked to be numbered 1, 2, 3…
fn parts_of(blocks: &[(String, Option<usize>, String)], path: &str) -> Vec<String> {
    let parts: Vec<_> = blocks
        .iter()
        .filter(|(p, n, _)| p == path && n.is_some())
        .collect();
    for (i, (_, n, _)) in parts.iter().enumerate() {
        assert_eq!(*n, Some(i + 1), "{path}: parts in order");
    }
    parts.iter().map(|(_, _, t)| t.clone()).collect()
}

#[test]
fn the_guides_yaml_blocks_are_its_files() {
    let blocks = guide_blocks();
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for (path, part, body) in &blocks {
        if part.is_none() {
            assert!(
                files.insert(path.clone(), body.clone()).is_none(),
                "{path} twice"
            );
        }
    }
    for path in blocks.iter().filter(|b| b.1.is_some()).map(|b| b.0.clone()) {
        files.insert(path.clone(), parts_of(&blocks, &path).concat());
    }
    assert!(parts_of(&blocks, "skirmish/ruleset.yaml").len() >= 4);
    // Every YAML file of the folder is in the guide, and is what the guide shows.
    let on_disk = snapshot(&root().join(GUIDE_FILES));
    let yaml: Vec<String> = on_disk
        .keys()
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| p.display().to_string())
        .collect();
    assert_eq!(yaml, files.keys().cloned().collect::<Vec<_>>());
    for (path, shown) in &files {
        let file = std::fs::read_to_string(root().join(GUIDE_FILES).join(path)).expect("file");
        assert_eq!(
            &file, shown,
            "{GUIDE}'s block for {path} differs from {GUIDE_FILES}/{path}"
        );
        let kind = match path.as_str() {
            p if p.contains("/scenarios/") => FileKind::Scenario,
            p if p.ends_with("/ruleset.yaml") => FileKind::Ruleset,
            _ => FileKind::Table,
        };
        valid(&root().join(GUIDE_FILES).join(path), kind);
    }
    // The schemas the files' first lines name are there, as `rules new` writes them.
    for kind in FileKind::ALL {
        let copy = root().join(GUIDE_FILES).join(kind.schema_file());
        assert_eq!(
            std::fs::read_to_string(&copy).unwrap_or_default(),
            schema::schema_text(kind),
            "{} is stale: cp docs/schema/*.schema.json {GUIDE_FILES}/",
            copy.display()
        );
    }
}

#[test]
fn the_guides_folder_loads_and_its_scenario_starts_a_game() {
    let dir = scratch("guide-folder");
    let rules = root().join(GUIDE_FILES);
    let rules = rules.to_str().expect("path");
    let check = umpire_in(&dir, &["--rules", rules, "rules", "check", "skirmish"]);
    assert!(check.ok().stdout.contains("melee_table"), "{}", check.shown);
    let scenario = root()
        .join(GUIDE_FILES)
        .join("skirmish/scenarios/the_ford.yaml");
    let scenario = scenario.to_str().expect("path");
    umpire_in(
        &dir,
        &[
            "--rules",
            rules,
            "game",
            "new",
            scenario,
            "-o",
            "ford.umpire",
            "--seed",
            "1",
        ],
    )
    .ok();
    let status = umpire_in(&dir, &["--rules", rules, "game", "status", "ford.umpire"]);
    for counter in [
        "Raider axes",
        "Raider bows",
        "Village spears",
        "Village slings",
    ] {
        assert!(status.ok().stdout.contains(counter), "{}", status.shown);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Follows the guide from `rules new` on, writing each block where the guide says, and checks
/// that the ruleset loads after every step.
#[test]
fn following_the_guide_loads_at_every_step() {
    let blocks = guide_blocks();
    let block = |path: &str| {
        blocks
            .iter()
            .find(|(p, n, _)| p == path && n.is_none())
            .map(|(_, _, t)| t.clone())
            .expect("block")
    };
    let parts = parts_of(&blocks, "skirmish/ruleset.yaml");
    let guide = std::fs::read_to_string(root().join(GUIDE)).expect("guide");
    let dir = scratch("follow");
    let check = || {
        umpire_in(&dir, &["--rules", "my-rules", "rules", "check", "skirmish"]).ok();
    };
    // Step 1.
    assert!(guide.contains("$ umpire rules new skirmish --dir my-rules"));
    umpire_in(&dir, &["rules", "new", "skirmish", "--dir", "my-rules"]).ok();
    check();
    let rm = "rm my-rules/skirmish/melee_table.yaml my-rules/skirmish/scenarios/first_clash.yaml";
    assert!(guide.contains(rm));
    for file in rm.split_whitespace().skip(1) {
        std::fs::remove_file(dir.join(file)).expect(file);
    }
    let folder = dir.join("my-rules/skirmish");
    // Step 2: the threshold test.
    std::fs::write(folder.join("ruleset.yaml"), &parts[0]).expect("write");
    check();
    let v = umpire_in(
        &dir,
        &[
            "--rules",
            "my-rules",
            "resolve",
            "skirmish",
            "grit_test",
            "-i",
            "grit=4",
            "--roll",
            "1",
            "--json",
        ],
    )
    .json();
    assert_eq!(v["outcome"]["code"], "wavers");
    // Step 3: the table, then the procedure that reads it.
    std::fs::write(
        folder.join("melee_table.yaml"),
        block("skirmish/melee_table.yaml"),
    )
    .expect("write");
    check();
    let append = |text: &str| {
        let path = folder.join("ruleset.yaml");
        let mut all = std::fs::read_to_string(&path).expect("read");
        all.push_str(text);
        std::fs::write(&path, all).expect("write");
    };
    append(&parts[1]);
    check();
    // Step 4: the pool; step 5: the turn and the scenario.
    append(&parts[2]);
    check();
    for part in &parts[3..] {
        append(part);
        check();
    }
    std::fs::write(
        folder.join("scenarios/the_ford.yaml"),
        block("skirmish/scenarios/the_ford.yaml"),
    )
    .expect("write");
    let scenario = "my-rules/skirmish/scenarios/the_ford.yaml";
    umpire_in(
        &dir,
        &["--rules", "my-rules", "scenario", "check", scenario],
    )
    .ok();
    umpire_in(
        &dir,
        &[
            "--rules",
            "my-rules",
            "game",
            "new",
            scenario,
            "-o",
            "ford.umpire",
        ],
    )
    .ok();
    // What the reader typed is the guide's folder.
    for file in [
        "ruleset.yaml",
        "melee_table.yaml",
        "scenarios/the_ford.yaml",
    ] {
        assert_eq!(
            std::fs::read_to_string(folder.join(file)).expect("read"),
            std::fs::read_to_string(root().join(GUIDE_FILES).join("skirmish").join(file))
                .expect("read"),
            "{file}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
