//! `umpire rules new NAME [--dir DIR]`: a new ruleset folder to start from, a made-up example
//! game with one procedure of each common shape, every field commented
//! (`templates/new-ruleset/my_club_game/`, embedded).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use umpire::rules::{RulesetSource, rules_root_sources};
use umpire::schema::{FileKind, schema_text};

/// The id the embedded example is written with; `rules new NAME` writes NAME in its place.
const EXAMPLE_ID: &str = "my_club_game";

/// The example's files, relative to the new ruleset's folder, and what each is for.
const FILES: [(&str, &str, &str); 3] = [
    (
        "ruleset.yaml",
        include_str!("../../templates/new-ruleset/my_club_game/ruleset.yaml"),
        "the ruleset: a morale test (threshold), a melee (table with a worked-out column), shooting (dice pool) and initiative (opposed roll)",
    ),
    (
        "melee_table.yaml",
        include_str!("../../templates/new-ruleset/my_club_game/melee_table.yaml"),
        "the table the melee reads",
    ),
    (
        "scenarios/first_clash.yaml",
        include_str!("../../templates/new-ruleset/my_club_game/scenarios/first_clash.yaml"),
        "a scenario with two Forces; `game new` takes it as a file",
    ),
];

/// Whether `name` is a ruleset id: lower case letters, digits and `_`, starting with a letter.
fn is_id(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// How a path is written in a command the user can paste (quoted when it holds a space).
fn typed(path: &Path) -> String {
    let text = path.display().to_string();
    if text.contains(char::is_whitespace) || text.contains('\'') {
        format!("\"{text}\"")
    } else {
        text
    }
}

/// Writes the new ruleset `name` under `dir` (created if need be), and the schemas its files'
/// first lines name beside its folder. Refuses a name that is not an id, a folder that exists
/// and an id another ruleset under `dir` already declares.
pub fn write(name: &str, dir: &Path) -> Result<()> {
    if !is_id(name) {
        bail!(
            "'{name}' is not a ruleset id — an id is lower case letters, digits and _, starting with a letter (e.g. my_skirmish)"
        );
    }
    let folder = dir.join(name);
    if folder.exists() {
        bail!(
            "{} exists — choose another name or folder (nothing was written)",
            folder.display()
        );
    }
    if dir.is_dir()
        && let Ok(sources) = rules_root_sources(dir)
        && let Some(RulesetSource::Dir(other)) =
            sources.into_iter().find(|s| s.declared_id() == name)
    {
        bail!(
            "{} already declares the ruleset id '{name}' — choose another name (nothing was written)",
            other.join("ruleset.yaml").display()
        );
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    // create_dir, not create_dir_all: if another process made the folder meanwhile, stop.
    std::fs::create_dir(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    for (file, text, what) in FILES {
        let path = folder.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text.replace(EXAMPLE_ID, name))
            .map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
        println!("wrote {} ({what})", path.display());
    }
    let mut schemas = Vec::new();
    for kind in FileKind::ALL {
        let path = dir.join(kind.schema_file());
        std::fs::write(&path, schema_text(kind))
            .map_err(|e| anyhow!("cannot write {}: {e}", path.display()))?;
        schemas.push(path.display().to_string());
    }
    println!(
        "wrote {} (the schemas the files' first lines name, for editors)",
        schemas.join(", ")
    );
    let rules = typed(dir);
    let scenario = typed(&folder.join("scenarios").join("first_clash.yaml"));
    println!(
        "\nIt is a made-up example game: replace its names, numbers and rules with your own \
         (docs/writing-a-ruleset.md walks through it). Next:\n  \
         umpire --rules {rules} rules check {name}\n  \
         umpire --rules {rules} describe {name}\n  \
         umpire --rules {rules} resolve {name} morale_test -i morale=4\n  \
         umpire --rules {rules} resolve {name} shooting -i stands=4 --roll 5 2 6 1\n  \
         umpire --rules {rules} game new {scenario} -o first_clash.umpire"
    );
    Ok(())
}

/// The folder `rules new` writes into: `--dir`, else the `--rules` folder, else the current one.
pub fn folder(dir: Option<&Path>, rules: Option<&Path>) -> PathBuf {
    dir.or(rules)
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}
