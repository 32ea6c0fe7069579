//! The umpire's transcription layer: tables transcribed from their own chart sheets, kept in a
//! user folder and laid over the shipped tables. They are validated exactly like shipped ones and
//! never modify shipped files.
//!
//! Layout: `<user rules folder>/<ruleset id>/<table id>.yaml`, each a complete table file that
//! replaces the shipped table of the same id.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::error::{LoadError, LoadErrors};
use super::validate::{RulesetFiles, SourceFile};

/// Environment variable naming the user rules folder.
pub const USER_RULES_ENV: &str = "UMPIRE_USER_RULES";

/// The platform's folder for the umpire's transcriptions (e.g. `~/.config/umpire/rules`).
pub fn default_user_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "umpire", "umpire").map(|d| d.config_dir().join("rules"))
}

/// A transcribed table laid over a shipped one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserTable {
    /// Ruleset id.
    pub ruleset: String,
    /// Table id.
    pub table: String,
    /// The file.
    pub path: PathBuf,
}

#[derive(Deserialize)]
struct IdOnly {
    id: String,
}

fn stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// Lays the user's table files for this ruleset over its shipped files. Returns the layered files
/// and which tables came from the user, or errors naming the user's file.
pub fn apply(
    files: &RulesetFiles,
    ruleset_id: &str,
    user_dir: &Path,
) -> Result<(RulesetFiles, Vec<UserTable>), LoadErrors> {
    let dir = user_dir.join(ruleset_id);
    if !dir.is_dir() {
        return Ok((files.clone(), Vec::new()));
    }
    let mut out = files.clone();
    let mut used = Vec::new();
    let mut errors = Vec::new();
    let entries = std::fs::read_dir(&dir).map_err(|e| {
        LoadErrors(vec![LoadError {
            file: dir.display().to_string(),
            line: 0,
            column: 0,
            problem: format!("cannot read: {e}"),
            hint: "check the folder's permissions".into(),
        }])
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    paths.sort();
    for path in paths {
        let name = path.display().to_string();
        // Refused unread when over the size limit: every command reads this folder.
        let text = match super::limits::read_text(&path) {
            Ok(t) => t,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let table_id = stem(&name);
        match lay_over(&out, ruleset_id, &table_id, &name, text) {
            Ok(layered) => out = layered,
            Err(mut e) => {
                errors.append(&mut e.0);
                continue;
            }
        }
        used.push(UserTable {
            ruleset: ruleset_id.to_string(),
            table: table_id,
            path,
        });
    }
    if errors.is_empty() {
        Ok((out, used))
    } else {
        Err(LoadErrors(errors))
    }
}

/// Lays one table file (`name`, `text`) over a ruleset's files, in the slot of the table
/// `table_id`, with the layer's checks: the ruleset has that table, and the file declares its id.
/// The file's other faults are the loader's, named at their line and column.
pub fn lay_over(
    files: &RulesetFiles,
    ruleset_id: &str,
    table_id: &str,
    name: &str,
    text: String,
) -> Result<RulesetFiles, LoadErrors> {
    let mut out = files.clone();
    let Some(slot) = out.tables.iter_mut().find(|f| stem(&f.name) == table_id) else {
        let ids: Vec<String> = files.tables.iter().map(|f| stem(&f.name)).collect();
        return Err(LoadErrors(vec![LoadError {
            file: name.to_string(),
            line: 1,
            column: 1,
            problem: format!("ruleset {ruleset_id} has no table '{table_id}' to transcribe"),
            hint: format!("name the file after one of its tables: {}", ids.join(", ")),
        }]));
    };
    super::limits::check_size(name, &text).map_err(|e| LoadErrors(vec![e]))?;
    // A file past the limits is left for the loader to refuse, with its place.
    let within_limits = super::limits::check_yaml_depth(name, &text).is_ok();
    if within_limits
        && let Ok(IdOnly { id }) = yaml_serde::from_str::<IdOnly>(&text)
        && id != table_id
    {
        return Err(LoadErrors(vec![LoadError {
            file: name.to_string(),
            line: 1,
            column: 1,
            problem: format!("the file is named {table_id}.yaml but declares id '{id}'"),
            hint: format!("keep id: {table_id}, the table it replaces"),
        }]));
    }
    *slot = SourceFile {
        name: name.to_string(),
        text,
    };
    Ok(out)
}

/// The name a transcription recorded in a game's journal goes by: `<table>.yaml`, as in the
/// umpire's folder (the ruleset's content hash reads a file's name without its folder).
pub fn transcription_name(table_id: &str) -> String {
    format!("{table_id}.yaml")
}

/// The ruleset with one table transcribed: `text` laid over the table `table_id` (see
/// [`lay_over`]) and the whole validated again, as the layer loader does. `name` is the file
/// named in any error (the umpire's file, or a journal entry); the content hash reads it as
/// `<table>.yaml` ([`transcription_name`]) wherever it came from.
pub fn transcribe(
    ruleset: &super::model::Ruleset,
    table_id: &str,
    name: &str,
    text: &str,
) -> Result<super::model::Ruleset, LoadErrors> {
    let mut files = lay_over(
        &ruleset.files,
        &ruleset.id,
        table_id,
        name,
        text.to_string(),
    )?;
    let mut out = super::validate::load_ruleset(&files)?;
    // Errors are named at `name`; the hash is the same wherever the file lies.
    if let Some(slot) = files.tables.iter_mut().find(|f| f.name == name) {
        slot.name = transcription_name(table_id);
    }
    // The rulings stay as the game set them.
    for r in &mut out.rulings {
        if let Some(was) = ruleset.rulings.iter().find(|w| w.id == r.id)
            && r.options.iter().any(|o| o.id == was.selected)
        {
            r.selected.clone_from(&was.selected);
        }
    }
    out.content_hash = super::validate::content_hash(&files);
    out.files = std::sync::Arc::new(files);
    Ok(out)
}

/// The text of a table's file in a ruleset as loaded (shipped or transcribed).
pub fn table_text<'a>(ruleset: &'a super::model::Ruleset, table_id: &str) -> Option<&'a str> {
    ruleset
        .files
        .tables
        .iter()
        .find(|f| stem(&f.name) == table_id)
        .map(|f| f.text.as_str())
}

/// The start of a YAML language server's modeline (`crate::schema::MODELINE_PREFIX`).
const MODELINE_PREFIX: &str = "# yaml-language-server: $schema=";

/// The first line of a transcription template: the table schema, beside the ruleset folders.
pub const TEMPLATE_MODELINE: &str = "# yaml-language-server: $schema=../table.schema.json";

/// A transcription template for one table: the shipped file with a commented header saying
/// which cells to fill in and how to check the result.
pub fn template(
    files: &RulesetFiles,
    ruleset_id: &str,
    table: &super::model::Table,
) -> Option<String> {
    let source = files.tables.iter().find(|f| stem(&f.name) == table.id)?;
    let missing = table.missing_cells();
    let mut out = String::new();
    // An editor's YAML language server reads the first line: the table schema, one folder up
    // from `<ruleset>/<table>.yaml`, where `umpire rules template` writes it (the shipped
    // file's own modeline, which points into the repository's docs/schema, is left out).
    out.push_str(TEMPLATE_MODELINE);
    out.push('\n');
    out.push_str(&format!(
        "# {} — transcription template for ruleset {ruleset_id}\n",
        table.title
    ));
    if let Some(rule) = &table.rule {
        out.push_str(&format!("# Rule reference: {rule}\n"));
    }
    out.push_str("#\n# Replace every \"?\" with the value printed on your own chart sheet; keep the structure\n");
    out.push_str("# (rows, columns, result codes). Save this file as\n");
    out.push_str(&format!(
        "#   <your user rules folder>/{ruleset_id}/{}.yaml\n",
        table.id
    ));
    out.push_str(&format!(
        "# and run `umpire rules check {ruleset_id}`: it is validated like a shipped table and\n"
    ));
    out.push_str("# replaces the shipped one for you only; shipped files are never changed.\n#\n");
    if missing.is_empty() {
        out.push_str("# This table is complete in the rule text; nothing is missing.\n");
    } else {
        out.push_str(&format!("# {} cells to fill:\n", missing.len()));
        for (row, column) in &missing {
            out.push_str(&format!("#   row {row}, column {column}\n"));
        }
    }
    out.push_str(
        "#\n# The first line names the table schema for editors: ../table.schema.json, beside\n",
    );
    out.push_str(
        "# the ruleset folders of your transcription folder (written there with a template\n",
    );
    out.push_str("# saved there; `umpire rules schema --out DIR` writes it anywhere).\n");
    out.push('\n');
    let body = match source.text.split_once('\n') {
        Some((first, rest)) if first.starts_with(MODELINE_PREFIX) => rest,
        _ => source.text.as_str(),
    };
    out.push_str(body);
    Some(out)
}
