//! Raw YAML → validated ruleset, collecting every problem with its file, line and column.

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

struct FileCtx<'a> {
    file: &'a SourceFile,
    index: OnceCell<YamlIndex>,
    errors: Vec<LoadError>,
    /// The ruleset's unit and leader attributes, once known: what `adjust`/`set` effects and
    /// inputs' `from:` may name.
    attributes: Option<Vec<AttributeSpec>>,
}

impl<'a> FileCtx<'a> {
    fn new(file: &'a SourceFile) -> FileCtx<'a> {
        FileCtx {
            file,
            index: OnceCell::new(),
            errors: Vec::new(),
            attributes: None,
        }
    }

    fn err(&mut self, path: &YamlPath, problem: impl Into<String>, hint: impl Into<String>) {
        let (line, column) = self
            .index
            .get_or_init(|| YamlIndex::build(&self.file.text))
            .locate(path);
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
                    "see the expression syntax in the README (evalexpr)",
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

fn yaml_error(file: &SourceFile, e: &yaml_serde::Error) -> LoadError {
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
    let ruling_names: BTreeSet<String> =
        rulings.iter().map(|r| format!("ruling_{}", r.id)).collect();
    let geometry = raw.geometry.as_ref().map(|g| Geometry {
        kind: match g.kind {
            RawGeometryKind::Hex => GeometryKind::Hex,
            RawGeometryKind::Area => GeometryKind::Area,
            RawGeometryKind::Free => GeometryKind::Free,
        },
        hex_id_digits: g.hex_id_digits,
        distance_unit: g.distance_unit.clone(),
        rule: g.rule.clone(),
        source_lines: g.source.clone(),
        notes: g.notes.clone(),
        places: Vec::new(),
    });
    let geometry = match (geometry, &raw.geometry) {
        (Some(mut g), Some(raw_g)) => {
            g.places = validate_places(&mut rctx, &root.key("geometry").key("places"), &g, raw_g);
            Some(g)
        }
        (g, _) => g,
    };
    let units = validate_attributes(&mut rctx, &root.key("units"), &raw.units);
    let leaders = validate_attributes(&mut rctx, &root.key("leaders"), &raw.leaders);
    let declared: Vec<AttributeSpec> = units.iter().chain(&leaders).cloned().collect();
    rctx.attributes = Some(declared.clone());
    if let Some(name) = &raw.strength_attribute
        && !units
            .iter()
            .any(|a| a.name == *name && matches!(a.kind, AttributeKind::Int { .. }))
    {
        rctx.err(
            &root.key("strength_attribute"),
            format!("'{name}' is not a whole-number unit attribute"),
            "name the unit attribute that holds strength, e.g. strength_points",
        );
    }

    if let Some(name) = &raw.type_attribute
        && !units.iter().any(|a| a.name == *name)
    {
        rctx.err(
            &root.key("type_attribute"),
            format!("'{name}' is not a unit attribute"),
            "name the unit attribute that holds the unit type, e.g. unit_type",
        );
    }
    let mut tables = BTreeMap::new();
    let mut table_files: BTreeMap<String, String> = BTreeMap::new();
    for (file, raw_table) in &raw_tables {
        let mut tctx = FileCtx::new(file);
        tctx.attributes = Some(declared.clone());
        if let Some(table) = validate_table(&mut tctx, raw_table, &dice) {
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

    let procedure_ids: BTreeSet<String> = raw.procedures.iter().map(|p| p.id.clone()).collect();
    let mut procedures = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, rp) in raw.procedures.iter().enumerate() {
        let path = root.key("procedures").index(i);
        if !seen.insert(rp.id.clone()) {
            rctx.err(
                &path.key("id"),
                format!("procedure id '{}' is used twice", rp.id),
                "give each procedure its own id",
            );
            continue;
        }
        if let Some(p) = validate_procedure(
            &mut rctx,
            &path,
            rp,
            &dice,
            &tables,
            &procedure_ids,
            &ruling_names,
        ) {
            procedures.push(p);
        }
    }
    let mut step_ids = BTreeSet::new();
    let deck_ids: BTreeSet<String> = decks.iter().map(|d| d.id.clone()).collect();
    let sequence_of_play = validate_steps(
        &mut rctx,
        &root.key("sequence_of_play"),
        &raw.sequence_of_play,
        (&procedure_ids, &deck_ids),
        &mut step_ids,
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
    // Follow-ups named in table results must exist too, and a clock's phases must be steps.
    for (file, raw_table) in &raw_tables {
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
    errors.append(&mut rctx.errors);
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    inherit_choice_labels(&mut procedures, tables.values());
    Ok(Ruleset {
        id: raw.id,
        name: raw.name,
        source: raw.source,
        description: raw.description,
        dice,
        procedures,
        tables,
        geometry,
        strength_attribute: raw.strength_attribute,
        type_attribute: raw.type_attribute,
        units,
        leaders,
        sequence_of_play,
        rulings,
        statuses,
        decks,
        visibility,
        notes: raw.notes,
    })
}

/// A choice written as an id with no label of its own takes the heading of a table row or
/// column keyed by it ("s_dr" → "S, DR"), so the desk and the reports show the chart's words.
fn inherit_choice_labels<'t>(
    procedures: &mut [Procedure],
    tables: impl Iterator<Item = &'t Table>,
) {
    let mut headings: BTreeMap<String, String> = BTreeMap::new();
    for t in tables {
        for r in &t.rows {
            if let (Key::Name(k), Some(l)) = (&r.key, &r.label) {
                headings.entry(k.clone()).or_insert_with(|| l.clone());
            }
        }
        for line in &t.lines {
            for (k, l) in line.keys.iter().zip(&line.column_labels) {
                if let Key::Name(k) = k {
                    headings.entry(k.clone()).or_insert_with(|| l.clone());
                }
            }
        }
    }
    for input in procedures.iter_mut().flat_map(|p| p.inputs.iter_mut()) {
        if let InputKind::Choice { choices } = &input.kind {
            for c in choices {
                if let Some(h) = headings.get(c)
                    && !input.choice_labels.contains_key(c)
                {
                    input.choice_labels.insert(c.clone(), h.clone());
                }
            }
        }
    }
}

/// What the `visibility:` section may name.
struct VisibilityNames<'a> {
    units: &'a [AttributeSpec],
    leaders: &'a [AttributeSpec],
    procedures: &'a BTreeSet<String>,
    steps: &'a [Step],
    rulings: &'a [Ruling],
    hex: bool,
}

/// Whether a rule reference is a line of the text ("L194") rather than the rulebook's number.
fn is_line_reference(rule: &str) -> bool {
    let mut chars = rule.trim().chars();
    chars.next() == Some('L') && chars.next().is_some_and(|c| c.is_ascii_digit())
}

fn sight_source(
    ctx: &mut FileCtx,
    p: &YamlPath,
    rule: &str,
    source: &Option<String>,
    text: &Option<String>,
    ruling: &Option<String>,
) -> SightSource {
    if rule.trim().is_empty() || is_line_reference(rule) {
        ctx.err(
            &p.key("rule"),
            format!("rule '{rule}' is not a rule as the rulebook numbers it"),
            "give the rulebook's number (\"1.4\", \"D.1\") or heading path, and the text's lines in source:",
        );
    }
    SightSource {
        rule: rule.to_string(),
        source: source.clone(),
        text: text.clone(),
        ruling: ruling.clone(),
    }
}

fn leaf_step_ids(steps: &[Step], out: &mut BTreeSet<String>) {
    for s in steps {
        if s.steps.is_empty() {
            out.insert(s.id.clone());
        } else {
            leaf_step_ids(&s.steps, out);
        }
    }
}

fn validate_condition(
    ctx: &mut FileCtx,
    p: &YamlPath,
    raw: &RawCondition,
    names: &VisibilityNames,
) -> Option<Condition> {
    let mut all = Vec::new();
    let mut ok = true;
    if let Some(k) = raw.kind {
        all.push(Condition::Kind(match k {
            RawPieceKind::Unit => PieceKind::Unit,
            RawPieceKind::Leader => PieceKind::Leader,
            RawPieceKind::Marker => PieceKind::Marker,
            RawPieceKind::State => PieceKind::State,
        }));
    }
    if let Some(s) = &raw.status {
        if is_identifier(s) {
            all.push(Condition::Status(s.clone()));
        } else {
            ctx.err(
                &p.key("status"),
                format!("'{s}' is not a status name"),
                "write a status in snake_case, e.g. hidden or revealed",
            );
            ok = false;
        }
    }
    match (&raw.attribute, &raw.is) {
        (Some(name), Some(is)) => {
            let spec = names
                .units
                .iter()
                .chain(names.leaders)
                .find(|a| a.name == *name);
            match spec {
                None => {
                    let known: Vec<&str> = names
                        .units
                        .iter()
                        .chain(names.leaders)
                        .map(|a| a.name.as_str())
                        .collect();
                    ctx.err(
                        &p.key("attribute"),
                        format!("unknown attribute '{name}'"),
                        format!("unit and leader attributes: {}", known.join(", ")),
                    );
                    ok = false;
                }
                Some(spec) => match attribute_value(spec, is) {
                    Ok(value) => all.push(Condition::Attribute {
                        name: name.clone(),
                        value,
                    }),
                    Err((problem, hint)) => {
                        ctx.err(&p.key("is"), problem, hint);
                        ok = false;
                    }
                },
            }
        }
        (Some(_), None) => {
            ctx.err(
                &p.key("attribute"),
                "an attribute condition needs `is:`",
                "add is: VALUE, e.g. is: retreat",
            );
            ok = false;
        }
        (None, Some(_)) => {
            ctx.err(
                &p.key("is"),
                "`is:` needs the attribute it tests",
                "add attribute: NAME",
            );
            ok = false;
        }
        (None, None) => {}
    }
    if let Some(on) = raw.on_map {
        all.push(Condition::OnMap(on));
    }
    if let Some(adjacent) = raw.adjacent_to_enemy {
        if names.hex {
            all.push(Condition::AdjacentToEnemy(adjacent));
        } else {
            ctx.err(
                &p.key("adjacent_to_enemy"),
                "adjacency is only known on a hex map",
                "declare geometry: {kind: hex} or leave adjacent_to_enemy out",
            );
            ok = false;
        }
    }
    if let Some(rulings) = &raw.ruling {
        for (id, option) in rulings {
            match names.rulings.iter().find(|r| r.id == *id) {
                None => {
                    let known: Vec<&str> = names.rulings.iter().map(|r| r.id.as_str()).collect();
                    ctx.err(
                        &p.key("ruling").key(id),
                        format!("unknown ruling '{id}'"),
                        if known.is_empty() {
                            "declare it under rulings: first".to_string()
                        } else {
                            format!("rulings of this ruleset: {}", known.join(", "))
                        },
                    );
                    ok = false;
                }
                Some(r) if !r.options.iter().any(|o| o.id == *option) => {
                    let known: Vec<&str> = r.options.iter().map(|o| o.id.as_str()).collect();
                    ctx.err(
                        &p.key("ruling").key(id),
                        format!("ruling '{id}' has no option '{option}'"),
                        format!("options: {}", known.join(", ")),
                    );
                    ok = false;
                }
                Some(_) => all.push(Condition::Ruling {
                    id: id.clone(),
                    option: option.clone(),
                }),
            }
        }
    }
    if let Some(any) = &raw.any {
        let mut alternatives = Vec::new();
        for (i, c) in any.iter().enumerate() {
            match validate_condition(ctx, &p.key("any").index(i), c, names) {
                Some(c) => alternatives.push(c),
                None => ok = false,
            }
        }
        if any.is_empty() {
            ctx.err(
                &p.key("any"),
                "`any:` lists no condition",
                "list the alternatives, e.g. any: [{status: hidden}, {attribute: face_down, is: true}]",
            );
            ok = false;
        }
        all.push(Condition::Any(alternatives));
    }
    if let Some(not) = &raw.not {
        match validate_condition(ctx, &p.key("not"), not, names) {
            Some(c) => all.push(Condition::Not(Box::new(c))),
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    if all.is_empty() {
        ctx.err(
            p,
            "an empty condition",
            "give at least one of kind, status, attribute with is, on_map, adjacent_to_enemy, ruling, any, not — or leave when: out",
        );
        return None;
    }
    Some(if all.len() == 1 {
        all.remove(0)
    } else {
        Condition::All(all)
    })
}

/// The value `is:` gives for an attribute, checked against its type.
fn attribute_value(spec: &AttributeSpec, raw: &RawScalar) -> Result<Value, (String, String)> {
    let name = &spec.name;
    match (&spec.kind, raw) {
        (AttributeKind::Int { .. }, RawScalar::Int(i)) => Ok(Value::Int(*i)),
        (AttributeKind::Flag, RawScalar::Bool(b)) => Ok(Value::Bool(*b)),
        (AttributeKind::Text, RawScalar::Text(t)) => Ok(Value::Text(t.clone())),
        (AttributeKind::Choice { choices } | AttributeKind::Choices { choices }, r) => {
            let t = r.text();
            if choices.contains(&t) {
                Ok(Value::Text(t))
            } else {
                Err((
                    format!("'{t}' is not a choice of {name}"),
                    format!("choices: {}", choices.join(", ")),
                ))
            }
        }
        (AttributeKind::Int { .. }, r) => Err((
            format!("{name} is a whole number, not '{}'", r.text()),
            "write a number".to_string(),
        )),
        (AttributeKind::Flag, r) => Err((
            format!("{name} is a flag, not '{}'", r.text()),
            "write true or false".to_string(),
        )),
        (AttributeKind::Text, r) => Ok(Value::Text(r.text())),
    }
}

fn sight_level(raw: RawSightLevel) -> SightLevel {
    match raw {
        RawSightLevel::Hidden => SightLevel::Hidden,
        RawSightLevel::Presence => SightLevel::Presence,
        RawSightLevel::Identity => SightLevel::Identity,
        RawSightLevel::Full => SightLevel::Full,
    }
}

/// Checks an entry id: snake_case and unique in its list.
fn check_entry_id(ctx: &mut FileCtx, p: &YamlPath, id: &str, ids: &mut BTreeSet<String>) -> bool {
    if is_identifier(id) && ids.insert(id.to_string()) {
        return true;
    }
    ctx.err(
        &p.key("id"),
        format!("id '{id}' is invalid or used twice in visibility"),
        "use a unique snake_case id",
    );
    false
}

fn validate_visibility(
    ctx: &mut FileCtx,
    raw: &RawVisibility,
    names: &VisibilityNames,
) -> Visibility {
    let root = YamlPath::root().key("visibility");
    let mut ids = BTreeSet::new();
    let mut counters = Vec::new();
    for (i, c) in raw.counters.iter().enumerate() {
        let p = root.key("counters").index(i);
        let id_ok = check_entry_id(ctx, &p, &c.id, &mut ids);
        let from = sight_source(ctx, &p, &c.rule, &c.source, &c.text, &c.ruling);
        let when = match &c.when {
            Some(w) => match validate_condition(ctx, &p.key("when"), w, names) {
                Some(w) => Some(w),
                None => continue,
            },
            None => None,
        };
        let see = sight_level(c.see);
        match (see, &c.shown_as) {
            (SightLevel::Presence, None) => {
                ctx.err(
                    &p.key("see"),
                    "a counter seen by its presence only needs the words for it",
                    "add as: \"a face-down Capitano\" (what the other side sees)",
                );
                continue;
            }
            (SightLevel::Presence, Some(_)) | (_, None) => {}
            (_, Some(_)) => {
                ctx.err(
                    &p.key("as"),
                    "`as:` is only for counters seen by their presence",
                    "remove as:, or write see: presence",
                );
                continue;
            }
        }
        if id_ok {
            counters.push(CounterSightRule {
                id: c.id.clone(),
                when,
                see,
                shown_as: c.shown_as.clone(),
                from,
            });
        }
    }
    let mut attributes = Vec::new();
    for (i, a) in raw.attributes.iter().enumerate() {
        let p = root.key("attributes").index(i);
        let id_ok = check_entry_id(ctx, &p, &a.id, &mut ids);
        let from = sight_source(ctx, &p, &a.rule, &a.source, &a.text, &a.ruling);
        let mut ok = id_ok;
        if a.attributes.is_empty() {
            ctx.err(
                &p.key("attributes"),
                "no attribute listed",
                "list the attributes kept from the other sides, e.g. [order]",
            );
            ok = false;
        }
        for (k, name) in a.attributes.iter().enumerate() {
            if !names
                .units
                .iter()
                .chain(names.leaders)
                .any(|x| x.name == *name)
            {
                let known: Vec<&str> = names
                    .units
                    .iter()
                    .chain(names.leaders)
                    .map(|x| x.name.as_str())
                    .collect();
                ctx.err(
                    &p.key("attributes").index(k),
                    format!("unknown attribute '{name}'"),
                    format!("unit and leader attributes: {}", known.join(", ")),
                );
                ok = false;
            }
        }
        let shown_when = match &a.shown_when {
            Some(w) => match validate_condition(ctx, &p.key("shown_when"), w, names) {
                Some(w) => Some(w),
                None => continue,
            },
            None => None,
        };
        if ok {
            attributes.push(AttributeSightRule {
                id: a.id.clone(),
                attributes: a.attributes.clone(),
                shown_when,
                from,
            });
        }
    }
    let mut open_results = Vec::new();
    for (i, o) in raw.open_results.iter().enumerate() {
        let p = root.key("open_results").index(i);
        let mut ok = check_entry_id(ctx, &p, &o.id, &mut ids);
        let from = sight_source(ctx, &p, &o.rule, &o.source, &o.text, &o.ruling);
        for (k, proc_id) in o.procedures.iter().enumerate() {
            if !names.procedures.contains(proc_id) {
                ctx.err(
                    &p.key("procedures").index(k),
                    format!("unknown procedure '{proc_id}'"),
                    format!(
                        "procedures of this ruleset: {}",
                        names
                            .procedures
                            .iter()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                ok = false;
            }
        }
        if ok {
            open_results.push(OpenResults {
                id: o.id.clone(),
                procedures: o.procedures.clone(),
                from,
            });
        }
    }
    let results_with_counters = raw.results_with_counters.as_ref().map(|r| {
        sight_source(
            ctx,
            &root.key("results_with_counters"),
            &r.rule,
            &r.source,
            &r.text,
            &None,
        )
    });
    let mut leaves = BTreeSet::new();
    leaf_step_ids(names.steps, &mut leaves);
    let mut reveals = Vec::new();
    for (i, r) in raw.reveals.iter().enumerate() {
        let p = root.key("reveals").index(i);
        let mut ok = check_entry_id(ctx, &p, &r.id, &mut ids);
        let from = sight_source(ctx, &p, &r.rule, &r.source, &r.text, &r.ruling);
        if !leaves.contains(&r.step) {
            ctx.err(
                &p.key("step"),
                format!("'{}' is not a step of the Sequence of Play", r.step),
                "name the id of a sequence_of_play step that has no sub-steps, e.g. d1_intelligence",
            );
            ok = false;
        }
        if r.set.is_empty() && r.clear.is_empty() {
            ctx.err(
                &p,
                "a reveal neither sets nor clears a status",
                "add set: [revealed] and/or clear: [hidden]",
            );
            ok = false;
        }
        for (key, list) in [("set", &r.set), ("clear", &r.clear)] {
            for (k, s) in list.iter().enumerate() {
                if !is_identifier(s) {
                    ctx.err(
                        &p.key(key).index(k),
                        format!("'{s}' is not a status name"),
                        "write a status in snake_case, e.g. revealed",
                    );
                    ok = false;
                }
            }
        }
        let Some(when) = validate_condition(ctx, &p.key("when"), &r.when, names) else {
            continue;
        };
        if ok {
            reveals.push(Reveal {
                id: r.id.clone(),
                step: r.step.clone(),
                when,
                set: r.set.clone(),
                clear: r.clear.clone(),
                from,
            });
        }
    }
    if let Some(rule) = &raw.rule
        && is_line_reference(rule)
    {
        ctx.err(
            &root.key("rule"),
            format!("rule '{rule}' is not a rule as the rulebook numbers it"),
            "give the rulebook's number (\"1.4\") or heading path; keep the text's lines in notes",
        );
    }
    Visibility {
        own: match raw.own {
            RawOwner::Side => Owner::Side,
            RawOwner::Team => Owner::Team,
        },
        enemy: sight_level(raw.enemy),
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        counters,
        attributes,
        open_results,
        results_with_counters,
        reveals,
        hidden_entries: match raw.hidden_entries {
            crate::rules::raw::RawHiddenEntries::Renumber => HiddenEntries::Renumber,
            crate::rules::raw::RawHiddenEntries::Placeholder => HiddenEntries::Placeholder,
        },
        notes: raw.notes.clone(),
        declared: true,
    }
}

fn validate_rulings(ctx: &mut FileCtx, raw: &[RawRuling]) -> Vec<Ruling> {
    let mut out = Vec::new();
    let mut ids = BTreeSet::new();
    for (i, r) in raw.iter().enumerate() {
        let p = YamlPath::root().key("rulings").index(i);
        if !is_identifier(&r.id) || !ids.insert(r.id.clone()) {
            ctx.err(
                &p.key("id"),
                format!("ruling id '{}' is invalid or used twice", r.id),
                "use a unique snake_case id",
            );
            continue;
        }
        if r.options.len() < 2 {
            ctx.err(
                &p.key("options"),
                "a ruling needs at least two options",
                "list each reading the umpire may choose",
            );
            continue;
        }
        if !r.options.iter().any(|o| o.id == r.default) {
            ctx.err(
                &p.key("default"),
                format!("default '{}' is not one of the options", r.default),
                format!(
                    "options: {}",
                    r.options
                        .iter()
                        .map(|o| o.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            continue;
        }
        out.push(Ruling {
            id: r.id.clone(),
            rule: r.rule.clone(),
            source_lines: r.source.clone(),
            text: r.text.clone(),
            options: r
                .options
                .iter()
                .map(|o| RulingOption {
                    id: o.id.clone(),
                    text: o.text.clone(),
                })
                .collect(),
            selected: r.default.clone(),
        });
    }
    out
}

fn validate_attributes(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawAttribute],
) -> Vec<AttributeSpec> {
    let mut out = Vec::new();
    let mut names = BTreeSet::new();
    for (i, a) in raw.iter().enumerate() {
        let p = path.index(i);
        if !is_identifier(&a.name) || !names.insert(a.name.clone()) {
            ctx.err(
                &p.key("name"),
                format!("attribute name '{}' is invalid or used twice", a.name),
                "use a unique snake_case name",
            );
            continue;
        }
        let choices: Vec<String> = a.choices.iter().flatten().map(RawScalar::text).collect();
        let kind = match a.kind {
            RawAttributeKind::Int => {
                if let (Some(min), Some(max)) = (a.min, a.max)
                    && min > max
                {
                    ctx.err(
                        &p.key("min"),
                        format!("min {min} is above max {max}"),
                        "swap them",
                    );
                    continue;
                }
                AttributeKind::Int {
                    min: a.min,
                    max: a.max,
                }
            }
            RawAttributeKind::Choice | RawAttributeKind::Choices => {
                if choices.is_empty() {
                    ctx.err(
                        &p,
                        format!("attribute '{}' has no choices", a.name),
                        "add choices: [a, b, …]",
                    );
                    continue;
                }
                if a.kind == RawAttributeKind::Choice {
                    AttributeKind::Choice { choices }
                } else {
                    AttributeKind::Choices { choices }
                }
            }
            RawAttributeKind::Flag => AttributeKind::Flag,
            RawAttributeKind::Text => AttributeKind::Text,
        };
        out.push(AttributeSpec {
            name: a.name.clone(),
            label: a.label.clone().unwrap_or_else(|| a.name.replace('_', " ")),
            kind,
            rule: a.rule.clone(),
            source_lines: a.source.clone(),
            help: a.help.clone(),
        });
    }
    out
}

fn validate_steps(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawStep],
    (procedures, decks): (&BTreeSet<String>, &BTreeSet<String>),
    ids: &mut BTreeSet<String>,
) -> Vec<Step> {
    let mut out = Vec::new();
    for (i, s) in raw.iter().enumerate() {
        let p = path.index(i);
        if !is_identifier(&s.id) || !ids.insert(s.id.clone()) {
            ctx.err(
                &p.key("id"),
                format!(
                    "step id '{}' is invalid or used twice in the Sequence of Play",
                    s.id
                ),
                "use a unique snake_case id",
            );
            continue;
        }
        for (k, proc_id) in s.procedures.iter().enumerate() {
            if !procedures.contains(proc_id) {
                ctx.err(
                    &p.key("procedures").index(k),
                    format!("unknown procedure '{proc_id}'"),
                    format!(
                        "procedures of this ruleset: {}",
                        procedures.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
        }
        for (k, deck) in s.decks.iter().enumerate() {
            if !decks.contains(deck) {
                ctx.err(
                    &p.key("decks").index(k),
                    format!("unknown deck '{deck}'"),
                    if decks.is_empty() {
                        "this ruleset declares no decks (a `decks:` section)".to_string()
                    } else {
                        format!(
                            "decks of this ruleset: {}",
                            decks.iter().cloned().collect::<Vec<_>>().join(", ")
                        )
                    },
                );
            }
        }
        let steps = validate_steps(ctx, &p.key("steps"), &s.steps, (procedures, decks), ids);
        out.push(Step {
            id: s.id.clone(),
            name: s.name.clone(),
            rule: s.rule.clone(),
            source_lines: s.source.clone(),
            description: s.description.clone(),
            procedures: s.procedures.clone(),
            decks: s.decks.clone(),
            mandatory: s.mandatory,
            when: s.when.clone(),
            scenario_end: s.scenario_end,
            steps,
        });
    }
    out
}

fn validate_dice(ctx: &mut FileCtx, raw: &[RawDie]) -> DieSet {
    let mut set = DieSet::new();
    for (i, d) in raw.iter().enumerate() {
        let path = YamlPath::root().key("dice").index(i);
        let name_ok = d.name.len() > 1
            && d.name.starts_with('d')
            && d.name[1..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !name_ok {
            ctx.err(
                &path.key("name"),
                format!("die name '{}' is not usable in notation", d.name),
                "start with 'd' followed by letters or digits, e.g. dcmd",
            );
            continue;
        }
        if d.faces.is_empty() {
            ctx.err(
                &path.key("faces"),
                "a die needs at least one face",
                "list its faces with value (and label, weight)",
            );
            continue;
        }
        if d.faces.iter().any(|f| f.weight == Some(0)) {
            ctx.err(
                &path.key("faces"),
                "a face weight of 0 can never come up",
                "use a weight of 1 or more, or remove the face",
            );
            continue;
        }
        set.insert(Die {
            name: d.name.clone(),
            faces: d
                .faces
                .iter()
                .map(|f| DieFace {
                    value: f.value,
                    label: f.label.clone(),
                    weight: f.weight.unwrap_or(1),
                })
                .collect(),
        });
    }
    set
}

fn parse_key(kind: KeyKind, raw: &RawScalar) -> Result<Key, String> {
    let text = raw.text();
    match kind {
        KeyKind::Roll | KeyKind::Bracket => Range::parse(&text)
            .map(Key::Range)
            .ok_or_else(|| format!("'{text}' is not a number or range (write 3, 2-3, ≤0 or 7+)")),
        KeyKind::Name => Ok(Key::Name(text)),
        KeyKind::Number => match raw {
            RawScalar::Int(i) => Ok(Key::Number(*i)),
            _ => text
                .trim()
                .trim_start_matches('+')
                .replace('−', "-")
                .parse()
                .map(Key::Number)
                .map_err(|_| format!("'{text}' is not a whole number")),
        },
        KeyKind::Ratio => Ratio::parse(&text)
            .map(Key::Ratio)
            .ok_or_else(|| format!("'{text}' is not an odds ratio (write 2:1 or 1:2)")),
    }
}

fn kind_of(raw: RawKeyKind) -> KeyKind {
    match raw {
        RawKeyKind::Roll => KeyKind::Roll,
        RawKeyKind::Name => KeyKind::Name,
        RawKeyKind::Number => KeyKind::Number,
        RawKeyKind::Bracket => KeyKind::Bracket,
        RawKeyKind::Ratio => KeyKind::Ratio,
    }
}

/// Checks that ranges are in ascending order, neither overlap nor leave gaps, and are open only
/// at the ends. Returns the problem and the index it concerns.
fn check_ranges(ranges: &[Range]) -> Result<(), (usize, String, String)> {
    for (i, r) in ranges.iter().enumerate() {
        if r.low.is_none() && i != 0 {
            return Err((
                i,
                format!("open-ended range {r} is not the first"),
                "only the first range may be open below (≤N)".into(),
            ));
        }
        if r.high.is_none() && i + 1 != ranges.len() {
            return Err((
                i,
                format!("open-ended range {r} is not the last"),
                "only the last range may be open above (N+)".into(),
            ));
        }
        if i == 0 {
            continue;
        }
        let (Some(prev_high), Some(low)) = (ranges[i - 1].high, r.low) else {
            continue;
        };
        if low <= prev_high {
            return Err((
                i,
                format!("range {r} overlaps {}", ranges[i - 1]),
                "each value may appear in one range only; list ranges in ascending order".into(),
            ));
        }
        if low > prev_high + 1 {
            let missing = Range {
                low: Some(prev_high + 1),
                high: Some(low - 1),
            };
            return Err((
                i,
                format!(
                    "no range covers {missing} (between {} and {r})",
                    ranges[i - 1]
                ),
                "add a row or column for the missing values".into(),
            ));
        }
    }
    Ok(())
}

fn validate_effects(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawEffect],
    known: &BTreeSet<String>,
) -> Vec<EffectSpec> {
    let mut out = Vec::new();
    for (k, e) in raw.iter().enumerate() {
        let p = path.index(k);
        let Some(kind) = EffectKind::from_id(&e.kind) else {
            ctx.err(
                &p.key("kind"),
                format!("unknown effect kind '{}'", e.kind),
                format!(
                    "use one of: {}",
                    EffectKind::ALL.map(EffectKind::id).join(", ")
                ),
            );
            continue;
        };
        if e.kind == "follow_up" && e.procedure.is_none() {
            ctx.err(
                &p,
                "a follow_up effect needs a procedure",
                "add procedure: <id of the procedure to queue>",
            );
        }
        if e.kind == "status" && e.status.is_none() {
            ctx.err(
                &p,
                "a status effect needs a status",
                "add status: e.g. demoralised, disordered",
            );
        }
        check_attribute_effect(ctx, &p, e);
        if e.value.is_some() && e.kind != "set" {
            ctx.err(
                &p.key("value"),
                format!("value: is for set effects, not {}", e.kind),
                "use amount: for a number, or kind: set",
            );
        }
        let amount = match &e.amount {
            Some(a) => ctx.expr(&p.key("amount"), a, known),
            None => None,
        };
        let when = match &e.when {
            Some(w) => ctx.expr(&p.key("when"), w, known),
            None => None,
        };
        out.push(EffectSpec {
            kind,
            when,
            side: e.side.clone(),
            amount_source: e.amount.as_ref().map(RawScalar::text),
            amount,
            status: e.status.clone(),
            procedure: e.procedure.clone(),
            attribute: e.attribute.clone(),
            value: e.value.as_ref().map(|v| match v {
                RawScalar::Int(i) => Value::Int(*i),
                RawScalar::Bool(b) => Value::Bool(*b),
                RawScalar::Text(t) => Value::Text(t.clone()),
            }),
            text: e.text.clone(),
            rule: e.rule.clone(),
            source_lines: e.source.clone(),
        });
    }
    out
}

/// `adjust` and `set` effects: an attribute the ruleset declares, of the right type, and an
/// amount (adjust: the delta) or a value (set).
fn check_attribute_effect(ctx: &mut FileCtx, p: &YamlPath, e: &RawEffect) {
    let wants = matches!(e.kind.as_str(), "adjust" | "set");
    let Some(attribute) = &e.attribute else {
        if wants {
            ctx.err(
                p,
                format!("a {} effect needs an attribute", e.kind),
                "add attribute: e.g. treasury, arrears, in_revolt",
            );
        }
        return;
    };
    if !wants {
        ctx.err(
            &p.key("attribute"),
            format!("attribute: is for adjust and set effects, not {}", e.kind),
            "use kind: adjust (a delta) or kind: set (a value), or remove attribute:",
        );
        return;
    }
    let kind = ctx.attributes.as_ref().map(|attrs| {
        attrs
            .iter()
            .find(|a| a.name == *attribute)
            .map(|a| a.kind.clone())
    });
    let kind = match kind {
        None => None,
        Some(Some(k)) => Some(k),
        Some(None) => {
            let names: Vec<String> = ctx
                .attributes
                .iter()
                .flatten()
                .map(|a| a.name.clone())
                .collect();
            ctx.err(
                &p.key("attribute"),
                format!("unknown attribute '{attribute}'"),
                format!(
                    "name a unit or leader attribute of the ruleset: {}",
                    if names.is_empty() {
                        "none declared".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            );
            return;
        }
    };
    let is_int = kind
        .as_ref()
        .is_none_or(|k| matches!(k, AttributeKind::Int { .. }));
    match e.kind.as_str() {
        "adjust" => {
            if e.amount.is_none() {
                ctx.err(
                    p,
                    "an adjust effect needs an amount (the delta)",
                    "add amount: e.g. -florins_paid, 1",
                );
            }
            if !is_int {
                ctx.err(
                    &p.key("attribute"),
                    format!("'{attribute}' is not a whole number: it cannot be adjusted"),
                    "use kind: set with value: for flags and names",
                );
            }
        }
        _ => match (&e.amount, &e.value) {
            (Some(_), Some(_)) | (None, None) => ctx.err(
                p,
                "a set effect needs exactly one of amount (a number expression) and value",
                "write amount: arrears_after, or value: true",
            ),
            (Some(_), None) if !is_int => ctx.err(
                &p.key("amount"),
                format!("'{attribute}' is not a whole number"),
                "use value: with a flag or a name",
            ),
            (None, Some(v)) => {
                let ok = match (&kind, v) {
                    (None, _) => true,
                    (Some(AttributeKind::Int { .. }), RawScalar::Int(_)) => true,
                    (Some(AttributeKind::Flag), RawScalar::Bool(_)) => true,
                    (Some(AttributeKind::Text), RawScalar::Text(_)) => true,
                    (Some(AttributeKind::Choice { choices }), RawScalar::Text(t)) => {
                        choices.contains(t)
                    }
                    (Some(AttributeKind::Choices { choices }), RawScalar::Text(t)) => {
                        t.split(',').all(|p| choices.iter().any(|c| c == p.trim()))
                    }
                    _ => false,
                };
                if !ok {
                    ctx.err(
                        &p.key("value"),
                        format!("'{}' does not fit attribute '{attribute}'", v.text()),
                        "give a value of the attribute's type (a number, true/false, or one of its choices)",
                    );
                }
            }
            _ => {}
        },
    }
}

fn validate_table(ctx: &mut FileCtx, raw: &RawTable, dice: &DieSet) -> Option<Table> {
    let root = YamlPath::root();
    let before = ctx.errors.len();
    if !is_identifier(&raw.id) {
        ctx.err(
            &root.key("id"),
            format!("table id '{}' is not a valid id", raw.id),
            "use lower case letters, digits and _",
        );
    }
    if let Some(roll) = &raw.roll
        && let Err(e) = DiceExpr::parse(roll, dice)
    {
        ctx.err(
            &root.key("roll"),
            e.to_string(),
            "write dice such as d6, 2d6 or d10",
        );
    }
    let row_key = kind_of(raw.row_key);
    let column_key = raw
        .column_key
        .map(kind_of)
        .or_else(|| (raw.columns.is_some() || raw.header_lines.is_some()).then_some(KeyKind::Name));
    if column_key == Some(KeyKind::Roll) {
        ctx.err(
            &root.key("column_key"),
            "columns cannot be keyed by the roll",
            "use name, number, bracket or ratio",
        );
    }
    // Header lines.
    type RawLine<'a> = (
        YamlPath,
        String,
        Option<String>,
        &'a Vec<RawScalar>,
        Option<&'a Vec<String>>,
    );
    let mut raw_lines: Vec<RawLine> = Vec::new();
    match (&raw.columns, &raw.header_lines) {
        (Some(_), Some(_)) => ctx.err(
            &root.key("header_lines"),
            "both columns and header_lines are given",
            "use columns for one header line, header_lines for alternatives",
        ),
        (Some(cols), None) => raw_lines.push((
            root.key("columns"),
            "default".into(),
            None,
            cols,
            raw.column_labels.as_ref(),
        )),
        (None, Some(lines)) => {
            if lines.is_empty() {
                ctx.err(
                    &root.key("header_lines"),
                    "header_lines is empty",
                    "list at least one header line",
                );
            }
            let mut ids = BTreeSet::new();
            for (i, l) in lines.iter().enumerate() {
                if !ids.insert(l.id.clone()) {
                    ctx.err(
                        &root.key("header_lines").index(i).key("id"),
                        format!("header line '{}' is listed twice", l.id),
                        "give each line its own id",
                    );
                }
                raw_lines.push((
                    root.key("header_lines").index(i).key("columns"),
                    l.id.clone(),
                    l.label.clone(),
                    &l.columns,
                    l.column_labels.as_ref(),
                ));
            }
        }
        (None, None) => {
            if raw.column_key.is_some() {
                ctx.err(
                    &root.key("column_key"),
                    "column_key is set but no columns are listed",
                    "add columns: [...]",
                );
            }
        }
    }
    let mut lines = Vec::new();
    let ncols = raw_lines.first().map_or(1, |l| l.3.len());
    if raw.column_labels.is_some() && raw.columns.is_none() {
        ctx.err(
            &root.key("column_labels"),
            "column_labels without columns",
            "put column_labels on each header line",
        );
    }
    for (path, id, label, cols, column_labels) in &raw_lines {
        if let Some(labels) = column_labels
            && labels.len() != cols.len()
        {
            ctx.err(
                path,
                format!("{} column labels for {} columns", labels.len(), cols.len()),
                "give one label per column, in order",
            );
            continue;
        }
        if cols.is_empty() {
            ctx.err(path, "no columns listed", "list the column headings");
            continue;
        }
        if cols.len() != ncols {
            ctx.err(
                path,
                format!(
                    "header line '{id}' has {} columns, the first has {ncols}",
                    cols.len()
                ),
                "every header line must label every column",
            );
            continue;
        }
        let kind = column_key.unwrap_or(KeyKind::Name);
        let mut keys = Vec::new();
        for (c, col) in cols.iter().enumerate() {
            match parse_key(kind, col) {
                Ok(k) => keys.push(k),
                Err(e) => ctx.err(&path.index(c), e, "fix the column heading"),
            }
        }
        if keys.len() != cols.len() {
            continue;
        }
        check_keys(ctx, path, kind, &keys, "column");
        lines.push(HeaderLine {
            id: id.clone(),
            label: label.clone(),
            keys,
            column_labels: column_labels.cloned().unwrap_or_default(),
        });
    }
    // Results.
    let mut results = Vec::new();
    for (code, r) in &raw.results {
        let path = root.key("results").key(code);
        let count = code.matches("{n}").count();
        if count > 1 || code.trim().is_empty() || code.contains(char::is_whitespace) {
            ctx.err(
                &path,
                format!("result code '{code}' is not usable"),
                "a code is one word, with at most one {n} for a number, e.g. A{n}",
            );
            continue;
        }
        let (prefix, suffix) = code
            .split_once("{n}")
            .map_or((code.clone(), String::new()), |(a, b)| {
                (a.to_string(), b.to_string())
            });
        let known: BTreeSet<String> = OUTCOME_NAMES.iter().map(|s| s.to_string()).collect();
        let effects = validate_effects(ctx, &path.key("effects"), &r.effects, &known);
        results.push(ResultPattern {
            pattern: code.clone(),
            prefix,
            suffix,
            numbered: count == 1,
            label: r.label.clone(),
            effects,
        });
    }
    // Rows.
    if raw.rows.is_empty() {
        ctx.err(
            &root.key("rows"),
            "the table has no rows",
            "add rows, marking unknown cells with \"?\"",
        );
    }
    let mut rows = Vec::new();
    for (r, row) in raw.rows.iter().enumerate() {
        let path = root.key("rows").index(r);
        let key = match parse_key(row_key, &row.key) {
            Ok(k) => k,
            Err(e) => {
                ctx.err(&path.key("key"), e, "fix the row heading");
                continue;
            }
        };
        let cells_raw: Vec<RawScalar> = match (&row.cells, &row.cell) {
            (Some(c), None) => c.clone(),
            (None, Some(c)) => vec![c.clone()],
            (Some(_), Some(_)) => {
                ctx.err(
                    &path.key("cell"),
                    "both cells and cell are given",
                    "use cells: [...] or cell: x",
                );
                continue;
            }
            (None, None) => {
                ctx.err(
                    &path,
                    "the row has no cells",
                    "add cells: [...] (\"?\" for an unknown cell)",
                );
                continue;
            }
        };
        if cells_raw.len() != ncols {
            ctx.err(
                &path.key(if row.cells.is_some() { "cells" } else { "cell" }),
                format!(
                    "row {key} has {} cells, the table has {ncols} columns",
                    cells_raw.len()
                ),
                "give one cell per column; mark unknown cells with \"?\"",
            );
            continue;
        }
        let mut cells = Vec::new();
        for (c, cell) in cells_raw.iter().enumerate() {
            let text = cell.text();
            if text.trim() == "?" {
                cells.push(Cell::Missing);
                continue;
            }
            if !results.is_empty() {
                for token in text.split_whitespace() {
                    if !results.iter().any(|p| p.matches(token).is_some()) {
                        let codes: Vec<&str> = results.iter().map(|p| p.pattern.as_str()).collect();
                        let at = if row.cells.is_some() {
                            path.key("cells").index(c)
                        } else {
                            path.key("cell")
                        };
                        ctx.err(
                            &at,
                            format!("'{token}' is not one of the table's result codes"),
                            format!("codes: {}", codes.join(", ")),
                        );
                    }
                }
            }
            cells.push(Cell::Value(text));
        }
        rows.push(Row {
            key,
            label: row.label.clone(),
            cells,
            rule: row.rule.clone(),
            source_lines: row.source.clone(),
        });
    }
    let keys: Vec<Key> = rows.iter().map(|r| r.key.clone()).collect();
    if keys.len() == raw.rows.len() {
        check_keys(ctx, &root.key("rows"), row_key, &keys, "row");
    }
    let clock = raw
        .clock
        .as_ref()
        .and_then(|c| validate_clock(ctx, c, &rows, &lines));
    if ctx.errors.len() > before {
        return None;
    }
    Some(Table {
        clock,
        id: raw.id.clone(),
        title: raw.title.clone(),
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        notes: raw.notes.clone(),
        ruling: raw.ruling.clone(),
        roll: raw.roll.clone(),
        row_key,
        column_key,
        lines,
        rows,
        results,
        named_codes: raw
            .named_codes
            .iter()
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect(),
        file: ctx.file.name.clone(),
    })
}

/// "HH:MM" → minutes after midnight.
fn clock_minutes(text: &str) -> Option<u32> {
    let (h, m) = text.trim().split_once(':')?;
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60 && text.trim().len() == 5).then_some(h * 60 + m)
}

/// A timetable's `clock:` section (megagames): phase lengths per turn, checked against the
/// table's rows; the phase ids are checked against the Sequence of Play in [`load_ruleset`].
fn validate_clock(
    ctx: &mut FileCtx,
    raw: &RawClock,
    rows: &[Row],
    lines: &[HeaderLine],
) -> Option<Clock> {
    let root = YamlPath::root().key("clock");
    let before = ctx.errors.len();
    if raw.phases.is_empty() {
        ctx.err(
            &root.key("phases"),
            "the clock has no phases",
            "list the Sequence-of-Play step ids that are the clock's phases, e.g. [phase_1, phase_2]",
        );
    }
    let mut seen = BTreeSet::new();
    for (i, p) in raw.phases.iter().enumerate() {
        if !seen.insert(p.as_str()) {
            ctx.err(
                &root.key("phases").index(i),
                format!("phase '{p}' is listed twice"),
                "list each phase once",
            );
        }
    }
    let years_at = raw.years_column.as_ref().and_then(|col| {
        let at = lines
            .first()
            .and_then(|l| l.keys.iter().position(|k| *k == Key::Name(col.clone())));
        if at.is_none() {
            ctx.err(
                &root.key("years_column"),
                format!("this table has no column '{col}'"),
                "name one of the table's columns, e.g. game_years",
            );
        }
        at
    });
    let mut turns: Vec<ClockTurn> = Vec::new();
    for (i, t) in raw.turns.iter().enumerate() {
        let path = root.key("turns").index(i);
        if t.turn == 0 || turns.iter().any(|x| x.turn == t.turn) {
            ctx.err(
                &path.key("turn"),
                format!("turn {} is not a new turn number", t.turn),
                "number the turns from 1, each once",
            );
        }
        let row = t.row.as_ref().and_then(|key| {
            let found = rows.iter().find(|r| r.key == Key::Name(key.clone()));
            if found.is_none() {
                let keys: Vec<String> = rows.iter().map(|r| r.key.to_string()).collect();
                ctx.err(
                    &path.key("row"),
                    format!("this table has no row '{key}'"),
                    format!("rows: {}", keys.join(", ")),
                );
            }
            found
        });
        let years = match (row, years_at) {
            (Some(r), Some(at)) => r.cells.get(at).map(|c| c.text().to_string()),
            _ => None,
        };
        let starts = t.starts.as_ref().map(|s| s.trim().to_string());
        let start_minutes = starts.as_ref().and_then(|s| {
            let m = clock_minutes(s);
            if m.is_none() {
                ctx.err(
                    &path.key("starts"),
                    format!("'{s}' is not a time of day"),
                    "write HH:MM on the 24-hour clock, e.g. \"10:15\"",
                );
            }
            m
        });
        let (phase_seconds, phase_ends) = match (&t.phase_ends, &t.phase_minutes) {
            (Some(_), Some(_)) | (None, None) => {
                ctx.err(
                    &path,
                    "give either phase_ends or phase_minutes",
                    "phase_ends: [\"10:25\", …] with starts: \"10:15\", or phase_minutes: [10, …]",
                );
                continue;
            }
            (None, Some(minutes)) => {
                if let Some(k) = minutes.iter().position(|m| *m == 0) {
                    ctx.err(
                        &path.key("phase_minutes").index(k),
                        "a phase of 0 minutes",
                        "give each phase a length in whole minutes",
                    );
                }
                (
                    minutes.iter().map(|m| m * 60).collect::<Vec<u32>>(),
                    Vec::new(),
                )
            }
            (Some(ends), None) => {
                let Some(mut last) = start_minutes else {
                    if starts.is_none() {
                        ctx.err(
                            &path,
                            "phase_ends needs the turn's start",
                            "add starts: \"HH:MM\"",
                        );
                    }
                    continue;
                };
                let mut secs = Vec::new();
                for (k, e) in ends.iter().enumerate() {
                    match clock_minutes(e) {
                        Some(m) if m > last => {
                            secs.push((m - last) * 60);
                            last = m;
                        }
                        Some(_) => ctx.err(
                            &path.key("phase_ends").index(k),
                            format!("phase end {e} is not after the one before"),
                            "list the phase ends in order, each later than the last",
                        ),
                        None => ctx.err(
                            &path.key("phase_ends").index(k),
                            format!("'{e}' is not a time of day"),
                            "write HH:MM on the 24-hour clock, e.g. \"10:25\"",
                        ),
                    }
                }
                (secs, ends.iter().map(|e| e.trim().to_string()).collect())
            }
        };
        let given = t
            .phase_ends
            .as_ref()
            .map_or_else(|| t.phase_minutes.as_ref().map_or(0, Vec::len), Vec::len);
        if given != raw.phases.len() {
            ctx.err(
                &path,
                format!("{given} phase lengths for {} phases", raw.phases.len()),
                "give one end (or length) per phase listed in clock.phases",
            );
        }
        turns.push(ClockTurn {
            turn: t.turn,
            years,
            starts,
            phase_seconds,
            phase_ends,
            rule: t.rule.clone(),
            source_lines: t.source.clone(),
        });
    }
    if turns.is_empty() {
        ctx.err(
            &root.key("turns"),
            "the clock has no turns",
            "give each turn's phase_ends or phase_minutes",
        );
    }
    if ctx.errors.len() > before {
        return None;
    }
    Some(Clock {
        phases: raw.phases.clone(),
        warning_seconds: raw.warning_minutes.unwrap_or(2) * 60,
        turns,
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        notes: raw.notes.clone(),
    })
}

fn check_keys(ctx: &mut FileCtx, path: &YamlPath, kind: KeyKind, keys: &[Key], what: &str) {
    match kind {
        KeyKind::Roll | KeyKind::Bracket => {
            let ranges: Vec<Range> = keys
                .iter()
                .filter_map(|k| {
                    if let Key::Range(r) = k {
                        Some(*r)
                    } else {
                        None
                    }
                })
                .collect();
            if let Err((i, problem, hint)) = check_ranges(&ranges) {
                let p = if what == "row" {
                    path.index(i).key("key")
                } else {
                    path.index(i)
                };
                ctx.err(&p, problem, hint);
            }
        }
        KeyKind::Name | KeyKind::Number | KeyKind::Ratio => {
            let mut seen = BTreeSet::new();
            for (i, k) in keys.iter().enumerate() {
                if !seen.insert(k.to_string()) {
                    let p = if what == "row" {
                        path.index(i).key("key")
                    } else {
                        path.index(i)
                    };
                    ctx.err(
                        &p,
                        format!("{what} '{k}' is listed twice"),
                        format!("each {what} heading must be unique"),
                    );
                }
            }
        }
    }
}

fn applies_to(raw: RawAppliesTo) -> AppliesTo {
    match raw {
        RawAppliesTo::Roll => AppliesTo::Roll,
        RawAppliesTo::Target => AppliesTo::Target,
        RawAppliesTo::Column => AppliesTo::Column,
        RawAppliesTo::Dice => AppliesTo::Dice,
        RawAppliesTo::EachDie => AppliesTo::EachDie,
    }
}

/// Checks a table reference against the table's shape.
fn validate_table_ref(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &RawTableRef,
    tables: &BTreeMap<String, Table>,
    known: &BTreeSet<String>,
    has_roll: bool,
) -> Option<TableRef> {
    let Some(table) = tables.get(&raw.table) else {
        ctx.err(
            &path.key("table"),
            format!("unknown table '{}'", raw.table),
            format!(
                "tables of this ruleset: {}",
                tables.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        );
        return None;
    };
    let before = ctx.errors.len();
    let row = raw
        .row
        .as_ref()
        .and_then(|r| ctx.expr(&path.key("row"), r, known));
    if raw.row.is_none() {
        if table.row_key != KeyKind::Roll && table.rows.len() > 1 {
            ctx.err(
                path,
                format!(
                    "table '{}' has rows keyed by {:?}, so the lookup needs row:",
                    table.id, table.row_key
                )
                .to_lowercase(),
                "add row: <expression giving the row key>",
            );
        } else if table.row_key == KeyKind::Roll && !has_roll && table.rows.len() > 1 {
            ctx.err(
                path,
                format!(
                    "table '{}' is read with a die roll, but there is no roll here",
                    table.id
                ),
                "add roll: d6 (or the table's dice) to the procedure, or give row:",
            );
        }
    }
    let column = raw
        .column
        .as_ref()
        .and_then(|c| ctx.expr(&path.key("column"), c, known));
    let ratio = match &raw.ratio {
        Some(pair) if pair.len() == 2 => {
            let a = ctx.expr(&path.key("ratio").index(0), &pair[0], known);
            let b = ctx.expr(&path.key("ratio").index(1), &pair[1], known);
            a.zip(b)
        }
        Some(_) => {
            ctx.err(
                &path.key("ratio"),
                "ratio needs exactly two values",
                "write ratio: [attacker_sp, defender_sp]",
            );
            None
        }
        None => None,
    };
    match table.column_key {
        Some(KeyKind::Ratio) => {
            if raw.ratio.is_none() && raw.column.is_none() {
                ctx.err(
                    path,
                    format!(
                        "table '{}' has odds-ratio columns, so the lookup needs ratio:",
                        table.id
                    ),
                    "add ratio: [attacker, defender]",
                );
            }
            if raw.column.is_some() {
                ctx.err(
                    &path.key("column"),
                    "give ratio: for an odds-ratio table, not column:",
                    "replace column: by ratio: [attacker, defender]",
                );
            }
        }
        Some(_) => {
            if raw.column.is_none() {
                ctx.err(
                    path,
                    format!(
                        "table '{}' has columns, so the lookup needs column:",
                        table.id
                    ),
                    "add column: <expression giving the column heading>",
                );
            }
            if raw.ratio.is_some() {
                ctx.err(
                    &path.key("ratio"),
                    format!("table '{}' does not have odds-ratio columns", table.id),
                    "use column: instead",
                );
            }
        }
        None => {
            if raw.column.is_some() || raw.ratio.is_some() {
                ctx.err(
                    &path.key(if raw.column.is_some() {
                        "column"
                    } else {
                        "ratio"
                    }),
                    format!("table '{}' has a single column", table.id),
                    "remove column:/ratio:",
                );
            }
        }
    }
    let line = raw
        .line
        .as_ref()
        .and_then(|l| ctx.expr(&path.key("line"), l, known));
    if table.lines.len() > 1 && raw.line.is_none() {
        let ids: Vec<&str> = table.lines.iter().map(|l| l.id.as_str()).collect();
        ctx.err(
            path,
            format!(
                "table '{}' has several header lines, so the lookup needs line:",
                table.id
            ),
            format!("add line: <expression giving one of {}>", ids.join(", ")),
        );
    }
    if ctx.errors.len() > before {
        return None;
    }
    Some(TableRef {
        table: raw.table.clone(),
        row,
        column,
        ratio,
        line,
    })
}

#[allow(clippy::too_many_lines)]
fn validate_procedure(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &RawProcedure,
    dice: &DieSet,
    tables: &BTreeMap<String, Table>,
    procedure_ids: &BTreeSet<String>,
    ruling_names: &BTreeSet<String>,
) -> Option<Procedure> {
    let before = ctx.errors.len();
    if !is_identifier(&raw.id) {
        ctx.err(
            &path.key("id"),
            format!("procedure id '{}' is not a valid id", raw.id),
            "use lower case letters, digits and _",
        );
    }
    let mut known: BTreeSet<String> = ruling_names.clone();
    let mut scope = Scope::new();
    for name in ruling_names {
        scope.set(name, Value::Text(String::new()));
    }
    let mut inputs = Vec::new();
    for (i, ri) in raw.inputs.iter().enumerate() {
        let p = path.key("inputs").index(i);
        if !is_identifier(&ri.name) {
            ctx.err(
                &p.key("name"),
                format!("input name '{}' is not a valid name", ri.name),
                "use lower case letters, digits and _, starting with a letter",
            );
            continue;
        }
        if LOOKUP_NAMES.contains(&ri.name.as_str()) || OUTCOME_NAMES.contains(&ri.name.as_str()) {
            ctx.err(
                &p.key("name"),
                format!("'{}' is a name the engine sets itself", ri.name),
                "choose another name",
            );
            continue;
        }
        if !known.insert(ri.name.clone()) {
            ctx.err(
                &p.key("name"),
                format!("input '{}' is declared twice", ri.name),
                "give each input its own name",
            );
            continue;
        }
        let kind = match ri.kind {
            RawInputKind::Int => {
                let (Some(min), Some(max)) = (ri.min, ri.max) else {
                    ctx.err(
                        &p,
                        format!("int input '{}' needs min and max", ri.name),
                        "add min: and max: (the range the umpire may enter)",
                    );
                    continue;
                };
                if min > max {
                    ctx.err(
                        &p.key("min"),
                        format!("min {min} is above max {max}"),
                        "swap them",
                    );
                    continue;
                }
                InputKind::Int { min, max }
            }
            RawInputKind::Choice => {
                let choices: Vec<String> =
                    ri.choices.iter().flatten().map(RawScalar::text).collect();
                if choices.is_empty() {
                    ctx.err(
                        &if ri.choices.is_some() {
                            p.key("choices")
                        } else {
                            p.clone()
                        },
                        format!("choice input '{}' has no choices", ri.name),
                        "add choices: [a, b, …]",
                    );
                    continue;
                }
                let unique: BTreeSet<&String> = choices.iter().collect();
                if unique.len() != choices.len() {
                    ctx.err(
                        &p.key("choices"),
                        "a choice is listed twice",
                        "list each choice once",
                    );
                    continue;
                }
                InputKind::Choice { choices }
            }
            RawInputKind::Flag => InputKind::Flag,
        };
        if ri.kind != RawInputKind::Int && (ri.min.is_some() || ri.max.is_some()) {
            ctx.err(
                &p.key(if ri.min.is_some() { "min" } else { "max" }),
                "min/max apply only to int inputs",
                "remove min/max",
            );
        }
        if ri.kind != RawInputKind::Choice && ri.choices.is_some() {
            ctx.err(
                &p.key("choices"),
                "choices apply only to choice inputs",
                "use type: choice or remove choices",
            );
        }
        let mut spec = InputSpec {
            name: ri.name.clone(),
            label: ri
                .label
                .clone()
                .unwrap_or_else(|| ri.name.replace('_', " ")),
            from: input_source(ctx, &p.key("from"), ri.from.as_ref(), &kind),
            kind,
            default: None,
            needed_when: None,
            needed_when_source: None,
            choice_labels: BTreeMap::new(),
            rule: ri.rule.clone(),
            source_lines: ri.source.clone(),
            help: ri.help.clone(),
        };
        if let Some(raw_when) = &ri.needed_when {
            // Read against the inputs above this one (and the rulings) only.
            let mut above = known.clone();
            above.remove(&ri.name);
            if let Some(e) = ctx.expr(&p.key("needed_when"), raw_when, &above) {
                spec.needed_when_source = Some(raw_when.text());
                spec.needed_when = Some(e);
            }
        }
        if let Some(labels) = &ri.choice_labels {
            for (choice, label) in labels {
                match &spec.kind {
                    InputKind::Choice { choices } if choices.contains(choice) => {
                        spec.choice_labels.insert(choice.clone(), label.clone());
                    }
                    _ => ctx.err(
                        &p.key("choice_labels").key(choice),
                        format!("'{choice}' is not one of the input's choices"),
                        "label only the choices listed under choices:",
                    ),
                }
            }
        }
        if let Some(d) = &ri.default {
            match spec.parse_value(&d.text()) {
                Ok(v) => spec.default = Some(v),
                Err(e) => {
                    ctx.err(
                        &p.key("default"),
                        format!("default: {e}"),
                        "give a default of the input's type and range",
                    );
                    continue;
                }
            }
        }
        scope.set(&spec.name, spec.fallback());
        inputs.push(spec);
    }
    let mut derived = Vec::new();
    for (i, rd) in raw.derived.iter().enumerate() {
        let p = path.key("derived").index(i);
        if !is_identifier(&rd.name)
            || known.contains(&rd.name)
            || LOOKUP_NAMES.contains(&rd.name.as_str())
        {
            ctx.err(
                &p.key("name"),
                format!("derived name '{}' is invalid or already used", rd.name),
                "choose a new snake_case name",
            );
            continue;
        }
        let Some(expr) = ctx.expr(&p.key("expr"), &rd.expr, &known) else {
            continue;
        };
        let when = rd.when.as_ref().and_then(|w| {
            let e = ctx.expr(&p.key("when"), w, &known)?;
            if let Some(problem) = type_problem(e.eval(&scope), "flag") {
                ctx.err(&p.key("when"), problem, "write a condition (true or false)");
            }
            Some(e)
        });
        let value = expr.eval(&scope);
        if let Some(problem) = type_problem(value.clone(), "any") {
            ctx.err(
                &p.key("expr"),
                problem,
                "check the types of the names it uses",
            );
        }
        scope.set(&rd.name, value.unwrap_or(Value::Int(0)));
        known.insert(rd.name.clone());
        derived.push(Derived {
            name: rd.name.clone(),
            label: rd.label.clone(),
            source: expr.source().to_string(),
            expr,
            when_source: when.as_ref().map(|w| w.source().to_string()),
            when,
            rule: rd.rule.clone(),
            source_lines: rd.source.clone(),
            ruling: rd.ruling.clone(),
        });
    }
    let Some(raw_lookup) = raw.lookup.kind() else {
        ctx.err(
            &path.key("lookup"),
            "lookup needs exactly one of table:, threshold:, pool:, compute:, opposed:",
            "keep one lookup kind",
        );
        return None;
    };
    let is_pool = matches!(raw_lookup, RawLookup::Pool(_) | RawLookup::Opposed(_));
    let roll = match (&raw.roll, is_pool) {
        (Some(r), false) => match DiceExpr::parse(r, dice) {
            Ok(e) => Some(e),
            Err(e) => {
                ctx.err(
                    &path.key("roll"),
                    e.to_string(),
                    "write dice such as d6, 2d6, d10, d6+1 or ceil(d6/2)",
                );
                None
            }
        },
        (Some(_), true) => {
            ctx.err(
                &path.key("roll"),
                "a pool or opposed procedure takes its dice from its lookup",
                "remove roll:",
            );
            None
        }
        (None, _) => None,
    };
    let lookup_kind = match &raw_lookup {
        RawLookup::Table(_) => "table",
        RawLookup::Threshold(_) => "threshold",
        RawLookup::Pool(_) => "pool",
        RawLookup::Compute(_) => "compute",
        RawLookup::Opposed(_) => "opposed",
    };
    // A compute lookup without dice is plain arithmetic (Force Quality, SP doubling…).
    if raw.roll.is_none() && matches!(raw_lookup, RawLookup::Threshold(_)) {
        ctx.err(
            path,
            format!("a {lookup_kind} procedure needs roll:"),
            "add roll: d6 (or the dice the rule uses)",
        );
    }
    let mut modifiers = Vec::new();
    for (i, rm) in raw.modifiers.iter().enumerate() {
        let p = path.key("modifiers").index(i);
        let target = applies_to(rm.applies_to);
        let allowed = match target {
            AppliesTo::Roll => !matches!(lookup_kind, "pool" | "opposed"),
            AppliesTo::Target => matches!(lookup_kind, "threshold" | "compute" | "opposed"),
            AppliesTo::Column => lookup_kind == "table",
            AppliesTo::Dice | AppliesTo::EachDie => matches!(lookup_kind, "pool" | "opposed"),
        };
        if !allowed {
            ctx.err(&p.key("applies_to"), format!("a modifier to the {target:?} does not fit a {lookup_kind} lookup").to_lowercase(), "roll: table/threshold/compute; target: threshold/compute/opposed; column: table; dice/each_die: pool/opposed");
            continue;
        }
        let when = match &rm.when {
            Some(w) => {
                let Some(e) = ctx.expr(&p.key("when"), w, &known) else {
                    continue;
                };
                if let Some(problem) = type_problem(e.eval(&scope), "flag") {
                    ctx.err(
                        &p.key("when"),
                        problem,
                        "a condition must be true or false, e.g. disordered or sp > 4",
                    );
                    continue;
                }
                Some(e)
            }
            None => None,
        };
        let value = match (&rm.value, &rm.from_table) {
            (Some(v), None) => {
                let Some(e) = ctx.expr(&p.key("value"), v, &known) else {
                    continue;
                };
                if let Some(problem) = type_problem(e.eval(&scope), "number") {
                    ctx.err(
                        &p.key("value"),
                        problem,
                        "a modifier's value must be a whole number",
                    );
                    continue;
                }
                ModifierValue::Expr(e)
            }
            (None, Some(t)) => {
                let Some(r) =
                    validate_table_ref(ctx, &p.key("from_table"), t, tables, &known, false)
                else {
                    continue;
                };
                ModifierValue::Table(r)
            }
            (v, _) => {
                ctx.err(
                    &if v.is_some() {
                        p.key("from_table")
                    } else {
                        p.clone()
                    },
                    format!(
                        "modifier '{}' needs exactly one of value: or from_table:",
                        rm.name
                    ),
                    "give value: -1 (or an expression), or from_table: {table: …}",
                );
                continue;
            }
        };
        if rm.side.is_some() && lookup_kind != "opposed" {
            ctx.err(
                &p.key("side"),
                "side: applies only to opposed rolls",
                "remove side:",
            );
            continue;
        }
        modifiers.push(Modifier {
            name: rm.name.clone(),
            value,
            when,
            rule: rm.rule.clone(),
            source_lines: rm.source.clone(),
            applies_to: target,
            side: rm.side.clone(),
            ruling: rm.ruling.clone(),
        });
    }
    // Lookup: the engine's names, plus die_1, die_2, … for each die of the roll (opposed rolls
    // such as "Initiative − d6" for each player read their own die).
    let mut lookup_known = known.clone();
    lookup_known.extend(LOOKUP_NAMES.iter().map(|s| s.to_string()));
    for name in LOOKUP_NAMES {
        scope.set(name, Value::Int(0));
    }
    if let Some(r) = &roll {
        for k in 1..=r.dice().len() {
            lookup_known.insert(format!("die_{k}"));
            scope.set(&format!("die_{k}"), Value::Int(0));
        }
    }
    let lp = path.key("lookup").key(lookup_kind);
    let mut used_codes: Vec<(YamlPath, String)> = Vec::new();
    let lookup = match &raw_lookup {
        RawLookup::Table(t) => {
            validate_table_ref(ctx, &lp, t, tables, &lookup_known, roll.is_some())
                .map(Lookup::Table)
        }
        RawLookup::Threshold(t) => {
            let target = ctx.expr(&lp.key("target"), &t.target, &lookup_known);
            if let Some(e) = &target
                && let Some(problem) = type_problem(e.eval(&scope), "number")
            {
                ctx.err(
                    &lp.key("target"),
                    problem,
                    "the target must be a whole number",
                );
            }
            used_codes.push((lp.key("pass"), t.pass.clone()));
            used_codes.push((lp.key("fail"), t.fail.clone()));
            target.map(|target| Lookup::Threshold {
                target,
                success: match t.success {
                    RawSuccess::AtLeast => Success::AtLeast,
                    RawSuccess::AtMost => Success::AtMost,
                },
                natural_fail: t.natural_fail.clone(),
                natural_pass: t.natural_pass.clone(),
                pass: t.pass.clone(),
                fail: t.fail.clone(),
            })
        }
        RawLookup::Pool(pool) => {
            let count = ctx.expr(&lp.key("count"), &pool.count, &known);
            if dice.get(&pool.die).is_none() {
                ctx.err(
                    &lp.key("die"),
                    format!("unknown die '{}'", pool.die),
                    "use dN or a die declared under dice:",
                );
            }
            let hits = validate_hits(ctx, &lp.key("hits"), &pool.hits, &known);
            let sum = pool.score == RawPoolScore::Sum;
            if !sum && pool.hits.is_empty() {
                ctx.err(
                    &lp,
                    "a pool scoring hits needs hits: rules",
                    "add hits: [{faces: [6]}] or use score: sum",
                );
            }
            used_codes.push((lp.key("outcome"), pool.outcome.clone()));
            count.map(|count| Lookup::Pool {
                count,
                die: pool.die.clone(),
                sum,
                hits,
                face_floor: pool.face_floor,
                outcome: pool.outcome.clone(),
            })
        }
        RawLookup::Compute(c) => {
            let (lets, cases) = validate_cases(
                ctx,
                &lp,
                &c.lets,
                &c.cases,
                &mut lookup_known,
                &mut scope,
                &mut used_codes,
            );
            Some(Lookup::Compute { lets, cases })
        }
        RawLookup::Opposed(o) => {
            let before_sides = ctx.errors.len();
            if o.sides.len() < 2 {
                ctx.err(
                    &lp.key("sides"),
                    "an opposed roll needs at least two sides",
                    "list each side with its dice",
                );
            }
            let mut sides = Vec::new();
            let mut names = BTreeSet::new();
            for (k, side) in o.sides.iter().enumerate() {
                let sp = lp.key("sides").index(k);
                if !is_identifier(&side.side) || !names.insert(side.side.clone()) {
                    ctx.err(
                        &sp.key("side"),
                        format!("side name '{}' is invalid or used twice", side.side),
                        "use a unique snake_case name such as attacker",
                    );
                    continue;
                }
                if side.dice.is_empty() {
                    ctx.err(
                        &sp.key("dice"),
                        "a side needs dice",
                        "add dice: [{count: …, die: d6}]",
                    );
                }
                let mut groups = Vec::new();
                for (g, group) in side.dice.iter().enumerate() {
                    let gp = sp.key("dice").index(g);
                    if dice.get(&group.die).is_none() {
                        ctx.err(
                            &gp.key("die"),
                            format!("unknown die '{}'", group.die),
                            "use dN or a die declared under dice:",
                        );
                        continue;
                    }
                    let Some(count) = ctx.expr(&gp.key("count"), &group.count, &known) else {
                        continue;
                    };
                    let modifier = match &group.modifier {
                        Some(m) => match ctx.expr(&gp.key("modifier"), m, &known) {
                            Some(e) => Some(e),
                            None => continue,
                        },
                        None => None,
                    };
                    groups.push(DiceGroup {
                        count,
                        die: group.die.clone(),
                        modifier,
                        floor: group.floor,
                        label: group.label.clone(),
                        rule: group.rule.clone(),
                        source_lines: group.source.clone(),
                    });
                }
                lookup_known.insert(format!("{}_score", side.side));
                scope.set(&format!("{}_score", side.side), Value::Int(0));
                sides.push(Side {
                    name: side.side.clone(),
                    groups,
                });
            }
            for (i, m) in raw.modifiers.iter().enumerate() {
                match &m.side {
                    Some(side) if !names.contains(side) => ctx.err(
                        &path.key("modifiers").index(i).key("side"),
                        format!("unknown side '{side}'"),
                        format!(
                            "sides: {}",
                            names.iter().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    ),
                    None if matches!(m.applies_to, RawAppliesTo::Dice | RawAppliesTo::EachDie) => {
                        ctx.err(
                            &path.key("modifiers").index(i),
                            "a dice modifier of an opposed roll needs side:",
                            "add side: <the side whose dice it changes>",
                        )
                    }
                    _ => {}
                }
            }
            let hits = validate_hits(ctx, &lp.key("hits"), &o.hits, &known);
            let sum = o.score == RawPoolScore::Sum;
            if !sum && o.hits.is_empty() {
                ctx.err(
                    &lp,
                    "opposed rolls scoring hits need hits: rules",
                    "add hits: [...] or use score: sum",
                );
            }
            let (lets, cases) = validate_cases(
                ctx,
                &lp,
                &o.lets,
                &o.cases,
                &mut lookup_known,
                &mut scope,
                &mut used_codes,
            );
            (ctx.errors.len() == before_sides).then_some(Lookup::Opposed {
                sides,
                sum,
                hits,
                lets,
                cases,
            })
        }
    };
    // Outcomes.
    let mut outcome_known = lookup_known.clone();
    outcome_known.extend(OUTCOME_NAMES.iter().map(|s| s.to_string()));
    let mut outcomes = Vec::new();
    let mut codes = BTreeSet::new();
    for (i, ro) in raw.outcomes.iter().enumerate() {
        let p = path.key("outcomes").index(i);
        if !codes.insert(ro.code.clone()) {
            ctx.err(
                &p.key("code"),
                format!("outcome '{}' is declared twice", ro.code),
                "declare each outcome once",
            );
            continue;
        }
        let effects = validate_effects(ctx, &p.key("effects"), &ro.effects, &outcome_known);
        for (k, e) in ro.effects.iter().enumerate() {
            if let Some(target) = &e.procedure
                && !procedure_ids.contains(target)
            {
                ctx.err(
                    &p.key("effects").index(k).key("procedure"),
                    format!("unknown procedure '{target}'"),
                    format!(
                        "procedures of this ruleset: {}",
                        procedure_ids.iter().cloned().collect::<Vec<_>>().join(", ")
                    ),
                );
            }
        }
        outcomes.push(OutcomeSpec {
            code: ro.code.clone(),
            label: ro
                .label
                .clone()
                .unwrap_or_else(|| ro.code.replace('_', " ")),
            effects,
            rule: ro.rule.clone(),
            source_lines: ro.source.clone(),
        });
    }
    for (p, code) in used_codes {
        if !codes.contains(&code) {
            ctx.err(
                &p,
                format!("outcome '{code}' is not declared under outcomes:"),
                format!(
                    "declared: {}",
                    codes.iter().cloned().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
    if ctx.errors.len() > before {
        return None;
    }
    Some(Procedure {
        id: raw.id.clone(),
        name: raw.name.clone(),
        rule: raw.rule.clone(),
        source_lines: raw.source.clone(),
        description: raw.description.clone(),
        ruling: raw.ruling.clone(),
        inputs,
        derived,
        roll,
        modifiers,
        lookup: lookup?,
        outcomes,
    })
}

/// Validates `let:` values and ordered `cases:` (compute and opposed lookups).
fn validate_cases(
    ctx: &mut FileCtx,
    lp: &YamlPath,
    c_lets: &[RawDerived],
    c_cases: &[RawCase],
    lookup_known: &mut BTreeSet<String>,
    scope: &mut Scope,
    used_codes: &mut Vec<(YamlPath, String)>,
) -> (Vec<Derived>, Vec<Case>) {
    struct C<'a> {
        lets: &'a [RawDerived],
        cases: &'a [RawCase],
    }
    let c = C {
        lets: c_lets,
        cases: c_cases,
    };
    let mut lets = Vec::new();
    for (k, l) in c.lets.iter().enumerate() {
        let p = lp.key("let").index(k);
        if !is_identifier(&l.name) || lookup_known.contains(&l.name) {
            ctx.err(
                &p.key("name"),
                format!("name '{}' is invalid or already used", l.name),
                "choose a new snake_case name",
            );
            continue;
        }
        if l.when.is_some() {
            ctx.err(
                &p.key("when"),
                "a compute lookup's value is always worked out",
                "put the condition in the cases, or on a derived value of the procedure",
            );
        }
        let Some(expr) = ctx.expr(&p.key("expr"), &l.expr, lookup_known) else {
            continue;
        };
        let value = expr.eval(scope);
        if let Some(problem) = type_problem(value.clone(), "any") {
            ctx.err(
                &p.key("expr"),
                problem,
                "check the types of the names it uses",
            );
        }
        scope.set(&l.name, value.unwrap_or(Value::Int(0)));
        lookup_known.insert(l.name.clone());
        lets.push(Derived {
            name: l.name.clone(),
            label: l.label.clone(),
            source: expr.source().to_string(),
            expr,
            when: None,
            when_source: None,
            rule: l.rule.clone(),
            source_lines: l.source.clone(),
            ruling: l.ruling.clone(),
        });
    }
    if c.cases.is_empty() {
        ctx.err(
            &lp.key("cases"),
            "no cases",
            "list the cases in order; the first that holds gives the outcome",
        );
    }
    let mut cases = Vec::new();
    for (k, case) in c.cases.iter().enumerate() {
        let p = lp.key("cases").index(k);
        let when = match &case.when {
            Some(w) => {
                let Some(e) = ctx.expr(&p.key("when"), w, lookup_known) else {
                    continue;
                };
                if let Some(problem) = type_problem(e.eval(scope), "flag") {
                    ctx.err(&p.key("when"), problem, "a condition must be true or false");
                    continue;
                }
                Some(e)
            }
            None => {
                if k + 1 != c.cases.len() {
                    ctx.err(
                        &p,
                        "only the last case may have no when:",
                        "add when: to this case or move it last",
                    );
                }
                None
            }
        };
        let value = case
            .value
            .as_ref()
            .and_then(|v| ctx.expr(&p.key("value"), v, lookup_known));
        used_codes.push((p.key("outcome"), case.outcome.clone()));
        cases.push(Case {
            when,
            outcome: case.outcome.clone(),
            value,
            rule: case.rule.clone(),
            source_lines: case.source.clone(),
        });
    }
    if c.cases.last().is_some_and(|l| l.when.is_some()) {
        ctx.err(
            &lp.key("cases"),
            "the last case has a condition, so some rolls may match no case",
            "end with a case without when: (the otherwise case)",
        );
    }
    (lets, cases)
}

/// Validates the hit rules of a pool or an opposed roll.
fn validate_hits(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: &[RawHitRule],
    known: &BTreeSet<String>,
) -> Vec<HitRule> {
    let mut hits = Vec::new();
    for (k, h) in raw.iter().enumerate() {
        let hp = path.index(k);
        let given = usize::from(h.faces.is_some())
            + usize::from(h.at_least.is_some())
            + usize::from(h.at_most.is_some());
        if given != 1 {
            ctx.err(
                &hp,
                "a hit rule needs exactly one of faces:, at_least:, at_most:",
                "e.g. faces: [6], or at_most: fire_value",
            );
            continue;
        }
        if h.per == Some(0) {
            ctx.err(
                &hp.key("per"),
                "per must be 1 or more",
                "per: 2 counts pairs (a double 5)",
            );
            continue;
        }
        let at_least = h
            .at_least
            .as_ref()
            .and_then(|e| ctx.expr(&hp.key("at_least"), e, known));
        let at_most = h
            .at_most
            .as_ref()
            .and_then(|e| ctx.expr(&hp.key("at_most"), e, known));
        let when = h
            .when
            .as_ref()
            .and_then(|e| ctx.expr(&hp.key("when"), e, known));
        hits.push(HitRule {
            faces: h.faces.clone(),
            at_least,
            at_most,
            per: h.per.unwrap_or(1),
            hits: h.hits.unwrap_or(1),
            max_hits: h.max_hits,
            when,
            rule: h.rule.clone(),
            source_lines: h.source.clone(),
        });
    }
    hits
}

/// An input's `from:`: a role and an attribute the ruleset declares, of a type that fits.
fn input_source(
    ctx: &mut FileCtx,
    path: &YamlPath,
    raw: Option<&RawInputSource>,
    input: &InputKind,
) -> Option<InputSource> {
    let (role, attribute) = match raw? {
        RawInputSource::Dotted(t) => match t.split_once('.') {
            Some((r, a)) => (r.trim().to_string(), a.trim().to_string()),
            None => {
                ctx.err(
                    path,
                    format!("'{t}' does not name a role and an attribute"),
                    "write from: army.strength_thousands, or from: {role: army, attribute: strength_thousands}",
                );
                return None;
            }
        },
        RawInputSource::Full(f) => (f.role.clone(), f.attribute.clone()),
    };
    if !is_identifier(&role) || !is_identifier(&attribute) {
        ctx.err(
            path,
            format!("'{role}.{attribute}' is not a role and an attribute name"),
            "use lower case letters, digits and _ for both, e.g. army.strength_thousands",
        );
        return None;
    }
    // Inputs that mirror the game: this turn's result of a procedure (a choice of its result
    // codes), or the turn (a number).
    match role.as_str() {
        "result" => {
            if !matches!(input, InputKind::Choice { .. }) {
                ctx.err(
                    path,
                    format!("'result.{attribute}' mirrors a result: the input must be a choice"),
                    "give the input the result codes as its choices",
                );
                return None;
            }
            return Some(InputSource { role, attribute });
        }
        "game" => {
            if attribute != "turn" || !matches!(input, InputKind::Int { .. }) {
                ctx.err(
                    path,
                    format!("'game.{attribute}' is not something the game gives"),
                    "the game gives game.turn, to a number input",
                );
                return None;
            }
            return Some(InputSource { role, attribute });
        }
        _ => {}
    }
    if let Some(attrs) = &ctx.attributes {
        let Some(spec) = attrs.iter().find(|a| a.name == attribute) else {
            let names: Vec<&str> = attrs.iter().map(|a| a.name.as_str()).collect();
            ctx.err(
                path,
                format!("unknown attribute '{attribute}'"),
                format!(
                    "name a unit or leader attribute of the ruleset: {}",
                    if names.is_empty() {
                        "none declared".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            );
            return None;
        };
        let fits = matches!(
            (input, &spec.kind),
            (InputKind::Int { .. }, AttributeKind::Int { .. })
                | (InputKind::Flag, AttributeKind::Flag)
                | (
                    InputKind::Choice { .. },
                    AttributeKind::Choice { .. } | AttributeKind::Text
                )
        );
        if !fits {
            ctx.err(
                path,
                format!("attribute '{attribute}' does not fit this input's type"),
                "an int input reads an int attribute, a flag a flag, a choice a choice or text",
            );
            return None;
        }
    }
    Some(InputSource { role, attribute })
}

/// The gazetteer: each place named once, at a hex of the map's form on a hex map (a quoted
/// string of `hex_id_digits` digits), in a group on an area map.
fn validate_places(
    ctx: &mut FileCtx,
    at: &YamlPath,
    geometry: &Geometry,
    raw: &super::raw::RawGeometry,
) -> Vec<Place> {
    use super::raw::RawPlaceKind as R;
    let mut seen: BTreeSet<(String, Option<String>)> = BTreeSet::new();
    let mut out = Vec::new();
    for (i, p) in raw.places.iter().enumerate() {
        let here = at.index(i);
        if p.name.trim().is_empty() {
            ctx.err(
                &here.key("name"),
                "a place without a name",
                "give its name as printed",
            );
            continue;
        }
        if let Some(hex) = &p.hex {
            let digits = geometry.hex_id_digits.unwrap_or(4) as usize;
            if geometry.kind != GeometryKind::Hex {
                ctx.err(
                    &here.key("hex"),
                    format!("'{}' has a hex on a map without hexes", p.name),
                    "give an area map's places a group, not a hex",
                );
            } else if hex.len() != digits || !hex.chars().all(|c| c.is_ascii_digit()) {
                ctx.err(
                    &here.key("hex"),
                    format!("'{hex}' is not a hex of this map ({digits} digits)"),
                    "write the hex as the map prints it, in quotes: \"2834\"",
                );
            }
        } else if geometry.kind == GeometryKind::Hex {
            ctx.err(
                &here.key("hex"),
                format!("'{}' has no hex", p.name),
                "give the hex the text names it with",
            );
        }
        if !seen.insert((p.name.clone(), p.hex.clone())) {
            ctx.err(
                &here.key("name"),
                format!("'{}' is listed twice", p.name),
                "list each place once",
            );
        }
        out.push(Place {
            name: p.name.trim().to_string(),
            hex: p.hex.clone(),
            group: p.group.clone(),
            kind: p.kind.map(|k| match k {
                R::City => PlaceKind::City,
                R::FortifiedCity => PlaceKind::FortifiedCity,
                R::Fortress => PlaceKind::Fortress,
                R::FortifiedTown => PlaceKind::FortifiedTown,
                R::Town => PlaceKind::Town,
                R::Castle => PlaceKind::Castle,
                R::Village => PlaceKind::Village,
                R::Bridge => PlaceKind::Bridge,
                R::Port => PlaceKind::Port,
                R::Pass => PlaceKind::Pass,
                R::Difficult => PlaceKind::Difficult,
                R::Other => PlaceKind::Other,
            }),
            rule: p.rule.clone(),
            source_lines: p.source.clone(),
            note: p.note.clone(),
        });
    }
    out
}

/// The decks and cups: ids once each, items named once each with a count of at least one, the
/// items adding up to the size the text gives, and a `missing` note wherever the text does not
/// give what is in it (never an invented composition).
fn validate_decks(ctx: &mut FileCtx, at: &YamlPath, raw: &[super::raw::RawDeck]) -> Vec<DeckSpec> {
    use super::raw::{RawDeckKind, RawRefill};
    let mut out: Vec<DeckSpec> = Vec::new();
    for (i, d) in raw.iter().enumerate() {
        let here = at.index(i);
        if !is_identifier(&d.id) {
            ctx.err(
                &here.key("id"),
                format!("deck id '{}' is not a valid id", d.id),
                "use lower case letters, digits and _",
            );
            continue;
        }
        if out.iter().any(|o| o.id == d.id) {
            ctx.err(
                &here.key("id"),
                format!("deck '{}' is listed twice", d.id),
                "list each deck or cup once",
            );
            continue;
        }
        if d.name.trim().is_empty() {
            ctx.err(
                &here.key("name"),
                "a deck without a name",
                "give its name as printed",
            );
        }
        let mut items: Vec<DeckItem> = Vec::new();
        for (k, item) in d.items.iter().enumerate() {
            let name = item.name.trim();
            if name.is_empty() {
                ctx.err(
                    &here.key("items").index(k).key("name"),
                    "an item without a name",
                    "give the card's or marker's name as printed",
                );
                continue;
            }
            if item.count == 0 {
                ctx.err(
                    &here.key("items").index(k).key("count"),
                    format!("'{name}' has a count of 0"),
                    "leave out what is not in it",
                );
                continue;
            }
            if items.iter().any(|o| o.name == name) {
                ctx.err(
                    &here.key("items").index(k).key("name"),
                    format!("'{name}' is listed twice"),
                    "give each kind once with its count",
                );
                continue;
            }
            items.push(DeckItem {
                name: name.to_string(),
                count: item.count,
            });
        }
        let total: u64 = items.iter().map(|i| u64::from(i.count)).sum();
        if let Some(size) = d.size
            && !items.is_empty()
            && total != u64::from(size)
        {
            ctx.err(
                &here.key("items"),
                format!("the items add up to {total}, the size is {size}"),
                "make the counts add up to the size the text gives",
            );
        }
        if items.is_empty() && d.missing.as_deref().is_none_or(|m| m.trim().is_empty()) {
            ctx.err(
                &here.key("missing"),
                format!("deck '{}' has no items and does not say why", d.id),
                "list what the text gives, or say in `missing:` what it does not give and where",
            );
        }
        out.push(DeckSpec {
            id: d.id.clone(),
            name: d.name.trim().to_string(),
            kind: match d.kind {
                RawDeckKind::Deck => DeckKind::Deck,
                RawDeckKind::Cup => DeckKind::Cup,
            },
            items,
            size: d.size,
            missing: d.missing.clone(),
            refill: match d.refill {
                RawRefill::Never => Refill::Never,
                RawRefill::WhenEmpty => Refill::WhenEmpty,
                RawRefill::ByHand => Refill::ByHand,
            },
            hidden: d.hidden,
            per_side: d.per_side,
            rule: d.rule.clone(),
            source_lines: d.source.clone(),
            help: d.help.clone(),
        });
    }
    out
}

/// The status markers: ids as effects name them, each once, each with its printed label.
fn validate_statuses(
    ctx: &mut FileCtx,
    at: &YamlPath,
    raw: &[super::raw::RawStatus],
) -> Vec<StatusMarker> {
    let mut out: Vec<StatusMarker> = Vec::new();
    for (i, s) in raw.iter().enumerate() {
        let here = at.index(i);
        if !is_identifier(&s.id) {
            ctx.err(
                &here.key("id"),
                format!("status id '{}' is not a valid id", s.id),
                "use lower case letters, digits and _",
            );
            continue;
        }
        if out.iter().any(|o| o.id == s.id) {
            ctx.err(
                &here.key("id"),
                format!("status '{}' is listed twice", s.id),
                "list each marker once",
            );
            continue;
        }
        if s.label.trim().is_empty() {
            ctx.err(
                &here.key("label"),
                "a status without a label",
                "give the marker's name as printed",
            );
        }
        out.push(StatusMarker {
            id: s.id.clone(),
            label: s.label.trim().to_string(),
            rule: s.rule.clone(),
            source_lines: s.source.clone(),
            help: s.help.clone(),
        });
    }
    out
}
