//! Raw YAML → validated ruleset, collecting every problem with its file, line and column. This
//! file holds the context every check writes its problems to ([`FileCtx`]) and the order the
//! ruleset is read in ([`load_ruleset`]); each section has its file: [`setup`] (rulings,
//! attributes, steps, dice, places, decks, statuses), [`visibility`], [`tables`], [`effects`],
//! [`clock`], [`procedures`] and [`lookup`] (each lookup shape).

mod carry_out;
mod clock;
mod effects;
mod lookup;
mod losses;
mod order_restrictions;
mod orders;
mod procedures;
mod records;
mod remits;
mod setup;
mod steps;
mod tables;
mod visibility;

use clock::*;
use effects::*;
use lookup::*;
use losses::*;
use orders::*;
use procedures::*;
use records::*;
use remits::*;
use setup::*;
use steps::*;
use tables::*;
use visibility::*;

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use super::error::{LoadError, LoadErrors};
use super::expr::{Expr, Scope, Value};
use super::locate::{YamlIndex, YamlPath};
use super::model::*;
use super::raw::*;
use crate::dice::{DiceExpr, Die, DieFace, DieSet};

/// A rules file: its display name and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Path or `embedded:<ruleset>/<file>`.
    pub name: String,
    /// Contents.
    pub text: String,
}

/// The files of one ruleset: `ruleset.yaml` and one file per table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesetFiles {
    /// `ruleset.yaml`.
    pub ruleset: SourceFile,
    /// Table files.
    pub tables: Vec<SourceFile>,
}

/// Names the engine sets during a lookup; inputs may not use them.
pub const LOOKUP_NAMES: [&str; 5] = [
    "natural",
    "roll",
    "roll_modifier",
    "target_modifier",
    "dice_modifier",
];
const OUTCOME_NAMES: [&str; 2] = ["value", "n"];

/// The problems found in one file, each located at the line and column of the YAML path it is
/// about: the one collector the ruleset's validator ([`FileCtx`]) and the scenario's
/// (`game::scenario`) both write to, so a problem reads the same wherever it is found.
pub(crate) struct Problems<'a> {
    /// The file.
    pub(crate) file: &'a SourceFile,
    index: OnceCell<YamlIndex>,
    /// What is wrong so far, in the order found.
    pub(crate) errors: Vec<LoadError>,
}

impl<'a> Problems<'a> {
    /// No problems yet in `file`.
    pub(crate) fn new(file: &'a SourceFile) -> Problems<'a> {
        Problems {
            file,
            index: OnceCell::new(),
            errors: Vec::new(),
        }
    }

    /// Where a path is in the file (line and column from 1).
    pub(crate) fn locate(&self, path: &YamlPath) -> (usize, usize) {
        self.index
            .get_or_init(|| YamlIndex::build(&self.file.text))
            .locate(path)
    }

    /// Records a problem at `path`, with the hint that says how to put it right.
    pub(crate) fn err(
        &mut self,
        path: &YamlPath,
        problem: impl Into<String>,
        hint: impl Into<String>,
    ) {
        let (line, column) = self.locate(path);
        let mut problem = problem.into();
        if !path.0.is_empty() {
            problem = format!("{path}: {problem}");
        }
        self.errors.push(LoadError {
            file: self.file.name.clone(),
            line,
            column,
            problem,
            hint: hint.into(),
        });
    }
}

/// The one check of a list's ids (and names, codes, headings): where a list's entries must each
/// be named once, and where an id must also be snake_case, every validator asks this. `seen` is
/// the list's names so far (a section's lists may share one set).
impl Problems<'_> {
    /// Adds `key` to `seen`; if it was there already, records "WHAT 'SHOWN' is used twice" at
    /// `at` and says false.
    pub(crate) fn once<K: Ord>(
        &mut self,
        seen: &mut BTreeSet<K>,
        key: K,
        at: &YamlPath,
        what: &str,
        shown: &dyn std::fmt::Display,
    ) -> bool {
        if seen.insert(key) {
            return true;
        }
        self.twice(at, what, shown);
        false
    }

    /// Records "WHAT 'SHOWN' is used twice" at `at`: for a list whose names clash with another
    /// list's (an army named as another side), so the message reads as [`Problems::once`]'s.
    pub(crate) fn twice(&mut self, at: &YamlPath, what: &str, shown: &dyn std::fmt::Display) {
        self.err(
            at,
            format!("{what} '{shown}' is used twice"),
            format!("list each {what} once"),
        );
    }

    /// [`Problems::once`] for an id that must also be snake_case (lower case letters, digits and
    /// `_`, from a letter): records "WHAT 'ID' is not a valid id" at `at` if it is not.
    pub(crate) fn unique_id(
        &mut self,
        seen: &mut BTreeSet<String>,
        at: &YamlPath,
        what: &str,
        id: &str,
    ) -> bool {
        if !is_identifier(id) {
            self.err(
                at,
                format!("{what} '{id}' is not a valid id"),
                "use lower case letters, digits and _, from a letter (snake_case)",
            );
            return false;
        }
        self.once(seen, id.to_string(), at, what, &id)
    }
}

/// The ruleset validator's context: the file's [`Problems`], and what a later section may name.
struct FileCtx<'a> {
    problems: Problems<'a>,
    /// The ruleset's unit and leader attributes, once known: what `adjust`/`set` effects and
    /// inputs' `from:` may name.
    attributes: Option<Vec<AttributeSpec>>,
}

impl<'a> std::ops::Deref for FileCtx<'a> {
    type Target = Problems<'a>;
    fn deref(&self) -> &Problems<'a> {
        &self.problems
    }
}

impl std::ops::DerefMut for FileCtx<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.problems
    }
}

impl<'a> FileCtx<'a> {
    fn new(file: &'a SourceFile) -> FileCtx<'a> {
        FileCtx {
            problems: Problems::new(file),
            attributes: None,
        }
    }

    /// Compiles an expression and checks that it reads only `known` names.
    fn expr(&mut self, path: &YamlPath, raw: &RawScalar, known: &BTreeSet<String>) -> Option<Expr> {
        let source = raw.text();
        if source.trim().is_empty() {
            self.err(
                path,
                "empty expression",
                "write a number, a name or a formula",
            );
            return None;
        }
        // Measured before compiling, with its own hint: evalexpr is not asked to read it.
        if let Err(e) = super::expr::check_shape(&source) {
            self.err(
                path,
                e,
                "split it into named steps (a procedure's derived: values) or a table",
            );
            return None;
        }
        let expr = match Expr::compile(&source) {
            Ok(e) => e,
            Err(e) => {
                self.err(
                    path,
                    e,
                    "see the expression syntax in docs/rulesets.md (evalexpr)",
                );
                return None;
            }
        };
        for name in expr.reads() {
            if !known.contains(name) {
                let list: Vec<&str> = known.iter().map(String::as_str).collect();
                self.err(
                    path,
                    format!("'{source}' reads unknown name '{name}'"),
                    format!("known here: {}", list.join(", ")),
                );
                return None;
            }
        }
        Some(expr)
    }
}

/// Trial evaluation with fallback values catches type errors (a number where a flag is
/// needed…) at load time. Division by zero and overflow depend on the values, so they are not
/// errors here.
fn type_problem(result: Result<Value, String>, want: &str) -> Option<String> {
    match result {
        Ok(v) => {
            let ok = match want {
                "number" => matches!(v, Value::Int(_)),
                "flag" => matches!(v, Value::Bool(_)),
                _ => true,
            };
            (!ok).then(|| format!("gives {} where {want} is needed", v.type_name()))
        }
        Err(e) => {
            let lower = e.to_lowercase();
            (!(lower.contains("dividing") || lower.contains("overflow"))).then_some(e)
        }
    }
}

/// A serde error of a YAML file as a [`LoadError`]: the file, line and column, the problem in
/// words and a hint. Shared with the other YAML files Umpire reads (page templates).
pub fn yaml_error(file: &SourceFile, e: &yaml_serde::Error) -> LoadError {
    // A few whole-document errors (a second document…) carry no position: point at the start.
    let start = usize::from(!file.text.is_empty());
    let (line, column) = e
        .location()
        .map_or((start, start), |l| (l.line(), l.column()));
    let mut problem = e.to_string();
    // Drop the position the location already gives; keep a syntax error's context position
    // ("while scanning a quoted scalar at line 2 column 8" says where the quote opened).
    let mark = format!(" at line {line} column {column}");
    if let Some(i) = problem.find(&mark) {
        problem.replace_range(i..i + mark.len(), "");
    }
    let (line, column) = clamp_to_text(&file.text, line, column);
    // yaml_serde stops at 128 levels of nesting, and at aliases that multiply the document.
    if problem.starts_with("recursion limit exceeded") {
        problem = "lists or mappings are nested too deep (more than 128 levels)".into();
    } else if problem.starts_with("repetition limit exceeded") {
        problem = "aliases (*name) repeat parts of the file too many times".into();
    }
    let hint = if problem.contains("nested too deep") {
        "no rules file nests that deep: look for brackets that are never closed"
    } else if problem.contains("aliases (*name)") {
        "write the repeated parts out, or use fewer aliases"
    } else if problem.contains("unknown field") {
        "remove the field or correct its spelling"
    } else if problem.contains("missing field") {
        "add the field"
    } else if problem.contains("unknown variant") {
        "use one of the values listed"
    } else if problem.contains("invalid type") {
        "check the value's type (number, text, list or mapping); quote ids with leading zeros, e.g. \"0114\""
    } else if problem.contains("did not match any variant") {
        "write a number, true/false or text"
    } else if problem.contains("duplicate") {
        "write each key once in a mapping: remove or rename the repeated one"
    } else {
        "check the YAML syntax (indentation, quotes, colons)"
    };
    // Name no internal type: RawScalar is the one untagged enum.
    let problem = problem.replace(
        "data did not match any variant of untagged enum RawScalar",
        "a list or mapping is given where a number, true/false or text is needed",
    );
    LoadError {
        file: file.name.clone(),
        line,
        column,
        problem,
        hint: hint.to_string(),
    }
}

/// libyaml puts the end of a file that lacks a final line break on a line after the last one;
/// point at the end of the last line instead. (Line breaks as libyaml counts them.)
fn clamp_to_text(text: &str, line: usize, column: usize) -> (usize, usize) {
    let (mut breaks, mut last_len) = (0, 0);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            if c == '\r' {
                chars.next_if_eq(&'\n');
            }
            breaks += 1;
            last_len = 0;
        } else {
            last_len += 1;
        }
    }
    if line > breaks + 1 {
        (breaks + 1, last_len + 1)
    } else {
        (line, column)
    }
}

/// Deserialises a file. yaml_serde checks the shape of the events read before a syntax error
/// and reports a shape error first (a misplaced line reads as "missing field"); reading the
/// text as a plain value, which has no shape to fail, brings the syntax error forward.
///
/// A file past the size or nesting limits ([`super::limits`]) is refused before any YAML
/// parser reads it: files read from disk were measured before reading, but a text may come
/// from anywhere (a scenario kept in a game file, an import).
pub(crate) fn parse_yaml<T: serde::de::DeserializeOwned>(
    file: &SourceFile,
) -> Result<T, LoadError> {
    super::limits::check_size(&file.name, &file.text)?;
    super::limits::check_yaml_depth(&file.name, &file.text)?;
    yaml_serde::from_str(&file.text).map_err(|e| {
        let syntax = yaml_serde::from_str::<yaml_serde::Value>(&file.text).err();
        yaml_error(file, syntax.as_ref().unwrap_or(&e))
    })
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Loads and validates a ruleset. Either everything loads or nothing does.
/// SHA-256 of a ruleset's files as read — `ruleset.yaml`, then each table file by its file name
/// (not its folder: the same files read from another place are the same ruleset) — each as its
/// name, its length and its text. What a game commits to in its first entry (with the rulings
/// chosen: `Ruleset::content`), so a table changed after the game began is named by verify;
/// over the files rather than the ruleset as loaded, so a later Umpire that reads the same files
/// into another form still finds them the same.
pub(crate) fn content_hash(files: &RulesetFiles) -> String {
    use sha2::{Digest, Sha256};
    let base = |f: &SourceFile| {
        std::path::Path::new(&f.name)
            .file_name()
            .map_or_else(|| f.name.clone(), |n| n.to_string_lossy().into_owned())
    };
    let mut tables: Vec<&SourceFile> = files.tables.iter().collect();
    tables.sort_by_key(|f| base(f));
    let mut hasher = Sha256::new();
    for f in std::iter::once(&files.ruleset).chain(tables) {
        hasher.update(format!("{}\n{}\n", base(f), f.text.len()).as_bytes());
        hasher.update(f.text.as_bytes());
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn load_ruleset(files: &RulesetFiles) -> Result<Ruleset, LoadErrors> {
    let mut errors = Vec::new();
    let raw: Option<RawRuleset> = match parse_yaml(&files.ruleset) {
        Ok(r) => Some(r),
        Err(e) => {
            errors.push(e);
            None
        }
    };
    let mut raw_tables = Vec::new();
    for file in &files.tables {
        match parse_yaml::<RawTable>(file) {
            Ok(t) => raw_tables.push((file, t)),
            Err(e) => errors.push(e),
        }
    }
    let Some(raw) = raw else {
        return Err(LoadErrors(errors));
    };

    let mut rctx = FileCtx::new(&files.ruleset);
    let root = YamlPath::root();
    if !is_identifier(&raw.id) {
        rctx.err(
            &root.key("id"),
            format!("ruleset id '{}' is not a valid id", raw.id),
            "use lower case letters, digits and _",
        );
    }
    let dice = validate_dice(&mut rctx, &raw.dice);
    let rulings = validate_rulings(&mut rctx, &raw.rulings);
    let statuses = validate_statuses(&mut rctx, &root.key("statuses"), &raw.statuses);
    let decks = validate_decks(&mut rctx, &root.key("decks"), &raw.decks);
    let geometry = geometry(&mut rctx, raw.geometry.as_ref());
    let units = validate_attributes(&mut rctx, &root.key("units"), &raw.units);
    let leaders = validate_attributes(&mut rctx, &root.key("leaders"), &raw.leaders);
    let declared: Vec<AttributeSpec> = units.iter().chain(&leaders).cloned().collect();
    rctx.attributes = Some(declared.clone());
    check_named_attributes(&mut rctx, &raw, &units);
    let tables = table_files(&raw_tables, &declared, &dice, &mut errors);
    let procedure_ids: BTreeSet<String> = raw.procedures.iter().map(|p| p.id.clone()).collect();
    let mut procedures = procedures(&mut rctx, &raw, (&dice, &tables), &rulings);
    let (sequence_of_play, optional_rules, step_ids) = sequence(
        &mut rctx,
        &raw,
        (&procedure_ids, &procedures),
        (&decks, &statuses),
    );
    let visibility = match &raw.visibility {
        Some(v) => validate_visibility(
            &mut rctx,
            v,
            &VisibilityNames {
                units: &units,
                leaders: &leaders,
                procedures: &procedure_ids,
                steps: &sequence_of_play,
                rulings: &rulings,
                hex: geometry
                    .as_ref()
                    .is_some_and(|g| g.kind == GeometryKind::Hex),
            },
        ),
        None => Visibility::default(),
    };
    if let Some(step) = &raw.reinforcements_step
        && !step_ids.contains(step)
    {
        rctx.err(
            &root.key("reinforcements_step"),
            format!("'{step}' is not a step of the Sequence of Play"),
            "name the id of a sequence_of_play step, e.g. c1_reinforcements",
        );
    }
    let status_list: Vec<String> = statuses.iter().map(|s| s.id.clone()).collect();
    let losses = validate_losses(&mut rctx, &raw.losses, &procedure_ids, &status_list);
    let (remits, records) = control_sections(&mut rctx, &raw, &procedure_ids);
    let names = OrderNames {
        steps: &step_ids,
        tables: &tables,
        units: &units,
        leaders: &leaders,
        rulings: &rulings,
        visibility: &visibility,
        statuses: &status_list,
    };
    let orders = validate_orders(&mut rctx, &raw.orders, &names);
    check_table_references(&raw_tables, &step_ids, &procedure_ids, &mut errors);
    errors.append(&mut rctx.errors);
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    inherit_choice_labels(&mut procedures, tables.values());
    Ok(Ruleset {
        content_hash: content_hash(files),
        id: raw.id,
        name: raw.name,
        source: raw.source,
        description: raw.description,
        dice,
        procedures,
        tables,
        geometry,
        strength_attribute: raw.strength_attribute,
        losses,
        remits,
        records,
        type_attribute: raw.type_attribute,
        units,
        leaders,
        sequence_of_play,
        optional_rules,
        reinforcements_step: raw.reinforcements_step,
        rulings,
        statuses,
        decks,
        visibility,
        orders,
        notes: raw.notes,
        files: std::sync::Arc::new(files.clone()),
    })
}

/// A megagame's Control sections: the remits and the records.
fn control_sections(
    rctx: &mut FileCtx,
    raw: &RawRuleset,
    procedure_ids: &BTreeSet<String>,
) -> (Option<Remits>, Records) {
    let remits = raw
        .remits
        .as_ref()
        .map(|r| validate_remits(rctx, r, procedure_ids));
    let records = raw
        .records
        .as_ref()
        .map(|r| validate_records(rctx, r))
        .unwrap_or_default();
    (remits, records)
}

/// The Sequence of Play and the optional rules its steps name, checked; with the steps' ids.
fn sequence(
    rctx: &mut FileCtx,
    raw: &RawRuleset,
    (procedure_ids, specs): (&BTreeSet<String>, &[Procedure]),
    (decks, statuses): (&[DeckSpec], &[StatusMarker]),
) -> (Vec<Step>, Vec<OptionalRule>, BTreeSet<String>) {
    let root = YamlPath::root();
    let mut step_ids = BTreeSet::new();
    let deck_ids: BTreeSet<String> = decks.iter().map(|d| d.id.clone()).collect();
    let optional_rules =
        validate_optional_rules(rctx, &root.key("optional_rules"), &raw.optional_rules);
    let optional_ids: BTreeSet<String> = optional_rules.iter().map(|o| o.id.clone()).collect();
    let status_ids: BTreeSet<String> = statuses.iter().map(|s| s.id.clone()).collect();
    let ruling_options: BTreeMap<String, Vec<String>> = raw
        .rulings
        .iter()
        .map(|r| {
            (
                r.id.clone(),
                r.options.iter().map(|o| o.id.clone()).collect(),
            )
        })
        .collect();
    let attribute_names: BTreeSet<String> = raw
        .units
        .iter()
        .chain(&raw.leaders)
        .map(|a| a.name.clone())
        .collect();
    let sequence_of_play = validate_steps(
        rctx,
        &root.key("sequence_of_play"),
        &raw.sequence_of_play,
        &StepNames {
            procedures: procedure_ids,
            decks: &deck_ids,
            statuses: &status_ids,
            optional: &optional_ids,
            specs,
            rulings: &ruling_options,
            attributes: &attribute_names,
        },
        &mut step_ids,
    );
    check_enter_targets(
        rctx,
        &root.key("sequence_of_play"),
        &raw.sequence_of_play,
        &step_ids,
    );
    (sequence_of_play, optional_rules, step_ids)
}

/// The `geometry:` section: how positions are given, and the places of the gazetteer.
fn geometry(ctx: &mut FileCtx, raw: Option<&RawGeometry>) -> Option<Geometry> {
    let raw = raw?;
    let mut g = Geometry {
        kind: match raw.kind {
            RawGeometryKind::Hex => GeometryKind::Hex,
            RawGeometryKind::Area => GeometryKind::Area,
            RawGeometryKind::Free => GeometryKind::Free,
        },
        hex_id_digits: raw.hex_id_digits,
        distance_unit: raw.distance_unit.clone(),
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        notes: raw.notes.clone(),
        places: Vec::new(),
        extent: None,
    };
    g.extent = setup::validate_extent(ctx, &YamlPath::root().key("geometry"), &g, raw);
    let at = YamlPath::root().key("geometry").key("places");
    g.places = validate_places(ctx, &at, &g, raw);
    Some(g)
}

/// `strength_attribute` and `type_attribute` must name unit attributes (strength a whole number).
fn check_named_attributes(ctx: &mut FileCtx, raw: &RawRuleset, units: &[AttributeSpec]) {
    let root = YamlPath::root();
    if let Some(name) = &raw.strength_attribute
        && !units
            .iter()
            .any(|a| a.name == *name && matches!(a.kind, AttributeKind::Int { .. }))
    {
        ctx.err(
            &root.key("strength_attribute"),
            format!("'{name}' is not a whole-number unit attribute"),
            "name the unit attribute that holds strength, e.g. strength_points",
        );
    }

    if let Some(name) = &raw.type_attribute
        && !units.iter().any(|a| a.name == *name)
    {
        ctx.err(
            &root.key("type_attribute"),
            format!("'{name}' is not a unit attribute"),
            "name the unit attribute that holds the unit type, e.g. unit_type",
        );
    }
}

/// The table files, each table id in one file only; their problems go to `errors`.
fn table_files(
    raw_tables: &[(&SourceFile, RawTable)],
    declared: &[AttributeSpec],
    dice: &DieSet,
    errors: &mut Vec<LoadError>,
) -> BTreeMap<String, Table> {
    let mut tables = BTreeMap::new();
    let mut table_files: BTreeMap<String, String> = BTreeMap::new();
    for (file, raw_table) in raw_tables {
        let mut tctx = FileCtx::new(file);
        tctx.attributes = Some(declared.to_vec());
        if let Some(table) = validate_table(&mut tctx, raw_table, dice) {
            if let Some(other) = table_files.get(&table.id) {
                tctx.err(
                    &YamlPath::root().key("id"),
                    format!("table id '{}' is also used by {other}", table.id),
                    "give each table its own id",
                );
            } else {
                table_files.insert(table.id.clone(), file.name.clone());
                tables.insert(table.id.clone(), table);
            }
        }
        errors.append(&mut tctx.errors);
    }
    tables
}

/// The procedures, each id once.
fn procedures(
    ctx: &mut FileCtx,
    raw: &RawRuleset,
    (dice, tables): (&DieSet, &BTreeMap<String, Table>),
    rulings: &[Ruling],
) -> Vec<Procedure> {
    let ruling_names: BTreeSet<String> =
        rulings.iter().map(|r| format!("ruling_{}", r.id)).collect();
    let procedure_ids: BTreeSet<String> = raw.procedures.iter().map(|p| p.id.clone()).collect();
    let mut procedures = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, rp) in raw.procedures.iter().enumerate() {
        let path = YamlPath::root().key("procedures").index(i);
        if !ctx.once(
            &mut seen,
            rp.id.clone(),
            &path.key("id"),
            "procedure id",
            &rp.id,
        ) {
            continue;
        }
        if let Some(p) =
            validate_procedure(ctx, &path, rp, dice, tables, &procedure_ids, &ruling_names)
        {
            procedures.push(p);
        }
    }
    procedures
}

/// What table files name in ruleset.yaml: a clock's phases must be steps, follow-ups in table
/// results must be procedures. Problems go to `errors`.
fn check_table_references(
    raw_tables: &[(&SourceFile, RawTable)],
    step_ids: &BTreeSet<String>,
    procedure_ids: &BTreeSet<String>,
    errors: &mut Vec<LoadError>,
) {
    for (file, raw_table) in raw_tables {
        let mut tctx = FileCtx::new(file);
        if let Some(clock) = &raw_table.clock {
            for (i, p) in clock.phases.iter().enumerate() {
                if !step_ids.contains(p) {
                    tctx.err(
                        &YamlPath::root().key("clock").key("phases").index(i),
                        format!("'{p}' is not a step of the Sequence of Play"),
                        "name the ids of sequence_of_play steps in ruleset.yaml, e.g. phase_1",
                    );
                }
            }
        }
        for (code, result) in &raw_table.results {
            for (k, effect) in result.effects.iter().enumerate() {
                if let Some(p) = &effect.procedure
                    && !procedure_ids.contains(p)
                {
                    tctx.err(
                        &YamlPath::root()
                            .key("results")
                            .key(code)
                            .key("effects")
                            .index(k)
                            .key("procedure"),
                        format!("unknown procedure '{p}'"),
                        format!(
                            "procedures of this ruleset: {}",
                            procedure_ids.iter().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    );
                }
            }
        }
        errors.append(&mut tctx.errors);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(yaml: &str) -> Vec<String> {
        let files = RulesetFiles {
            ruleset: SourceFile {
                name: "ruleset.yaml".into(),
                text: yaml.into(),
            },
            tables: Vec::new(),
        };
        match load_ruleset(&files) {
            Ok(_) => Vec::new(),
            Err(LoadErrors(errors)) => errors
                .iter()
                .map(|e| format!("{}:{}: {} — {}", e.line, e.column, e.problem, e.hint))
                .collect(),
        }
    }

    #[test]
    fn an_id_is_checked_once_the_same_way_everywhere() {
        let said = problems(
            "id: ids\nname: Ids\n\
             rulings:\n  - {id: Bad, text: T, options: [{id: a, text: A}], default: a}\n\
             decks:\n  - {id: cards, name: Cards, kind: deck, items: [{name: X, count: 1}, {name: X, count: 2}]}\n\
             \x20 - {id: cards, name: Again, kind: cup}\n",
        );
        assert_eq!(
            said,
            [
                "4:10: rulings[0].id: ruling id 'Bad' is not a valid id — use lower case letters, digits and _, from a letter (snake_case)",
                "6:78: decks[0].items[1].name: item 'X' is used twice — list each item once",
                "7:10: decks[1].id: deck id 'cards' is used twice — list each deck id once",
            ],
            "{said:#?}"
        );
    }
}
