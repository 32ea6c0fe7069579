//! The sheets read against the scenario and its ruleset, then merged into the scenario's text.

use std::collections::BTreeMap;

use yaml_serde::{Mapping, Value as Yaml};

use super::edits::{CharacterEdit, NewCounter, StateEdit};
use super::kinds::SheetKind;
use super::sheet::{Row, Sheet, header_key};
use super::values::{cell_value, flag, key_of};
use super::{ImportProblem, slug};

mod counters;
use crate::game::scenario::{CounterKind, Scenario};
use crate::rules::{AttributeSpec, GeometryKind, Library, Ruleset, SourceFile};
use counters::counters_sheet;

/// An imported set-up: the scenario file's text, and how many rows each sheet gave.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The scenario file (it loads).
    pub text: String,
    /// Rows read, by sheet file name, in the order read.
    pub rows: Vec<(String, usize)>,
}

fn key(k: &str) -> Yaml {
    Yaml::String(k.to_string())
}

/// A state the sheets may name: the scenario's, and those `states.csv` adds.
struct StateRef {
    id: String,
    name: String,
    teams: Vec<String>,
}

/// An area of `areas.csv`, for the pieces placed in it.
struct AreaRef {
    id: String,
    name: String,
    owner: Option<String>,
    side: String,
}

/// The import under way: what the sheets may name, what they change, and the problems found.
struct Ctx<'a> {
    scenario: &'a Scenario,
    ruleset: &'a Ruleset,
    problems: Vec<ImportProblem>,
    states: Vec<StateRef>,
    areas: Vec<AreaRef>,
    /// Every id in use, with where it is from ("the scenario", "armies.csv line 4").
    ids: BTreeMap<String, String>,
    state_edits: Vec<(String, StateEdit)>,
    characters: Vec<CharacterEdit>,
    counters: Vec<NewCounter>,
    /// `counter_values.csv`'s entries of the scenario's `counter_values:`.
    values: Vec<Yaml>,
}

/// One row being read.
struct At<'s> {
    sheet: &'s Sheet,
    row: &'s Row,
}

impl At<'_> {
    fn cell(&self, column: &str) -> Option<&str> {
        self.sheet.cell(self.row, column)
    }
    fn problem(&self, column: Option<&str>, what: String) -> ImportProblem {
        ImportProblem::at(&self.sheet.file, Some(self.row.line), column, what)
    }
}

impl<'a> Ctx<'a> {
    fn new(scenario: &'a Scenario, ruleset: &'a Ruleset) -> Self {
        let mut ids = BTreeMap::new();
        for c in scenario.all_counters() {
            ids.insert(c.id.clone(), "the scenario".to_string());
        }
        for f in &scenario.forces {
            ids.insert(f.id.clone(), "the scenario (a Force)".to_string());
        }
        let states = scenario
            .megagame
            .iter()
            .flat_map(|m| &m.states)
            .map(|s| {
                ids.insert(s.counter.clone(), "the scenario (a ledger)".to_string());
                StateRef {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    teams: s.teams.clone(),
                }
            })
            .collect();
        Ctx {
            scenario,
            ruleset,
            problems: Vec::new(),
            states,
            areas: Vec::new(),
            ids,
            state_edits: Vec::new(),
            characters: Vec::new(),
            counters: Vec::new(),
            values: Vec::new(),
        }
    }

    fn state(&self, text: &str) -> Option<&StateRef> {
        let k = key_of(text);
        self.states
            .iter()
            .find(|s| key_of(&s.id) == k || key_of(&s.name) == k)
    }

    fn state_list(&self) -> String {
        let names: Vec<String> = self.states.iter().map(|s| s.name.clone()).collect();
        if names.is_empty() {
            "none (add them in states.csv)".into()
        } else {
            names.join(", ")
        }
    }

    /// A state named in a row's column, or a problem naming it.
    fn state_at(&mut self, at: &At<'_>, column: &str) -> Option<(String, Vec<String>)> {
        let text = at.cell(column)?;
        if let Some(s) = self.state(text) {
            return Some((s.id.clone(), s.teams.clone()));
        }
        let p = at.problem(
            Some(column),
            format!("no state '{text}' — states: {}", self.state_list()),
        );
        self.problems.push(p);
        None
    }

    fn side(&self, text: &str) -> Option<String> {
        let k = key_of(text);
        self.scenario
            .sides
            .iter()
            .find(|s| key_of(&s.id) == k || key_of(&s.name) == k)
            .map(|s| s.id.clone())
    }

    fn side_list(&self) -> String {
        self.scenario
            .sides
            .iter()
            .map(|s| s.name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The side of a row: its `side` cell, else the first team of `state`.
    fn side_at(&mut self, at: &At<'_>, state: Option<&(String, Vec<String>)>) -> Option<String> {
        if let Some(text) = at.cell("side") {
            let side = self.side(text);
            if side.is_none() {
                let p = at.problem(
                    Some("side"),
                    format!("no team '{text}' — teams: {}", self.side_list()),
                );
                self.problems.push(p);
            }
            return side;
        }
        if let Some(team) = state.and_then(|(_, teams)| teams.first()) {
            return Some(team.clone());
        }
        let what = match state {
            Some((id, _)) => format!("state '{id}' belongs to no team: give the side it is with"),
            None => "give the side (team) it is with, or its state".to_string(),
        };
        let p = at.problem(Some("side"), what);
        self.problems.push(p);
        None
    }

    fn table(&self, text: &str) -> Option<String> {
        let k = key_of(text);
        self.scenario
            .megagame
            .iter()
            .flat_map(|m| &m.tables)
            .find(|t| key_of(&t.id) == k || key_of(&t.name) == k)
            .map(|t| t.id.clone())
    }

    /// A new id (the row's `id`, else one made from its name), refused when already used.
    fn new_id(&mut self, at: &At<'_>, name: &str) -> Option<String> {
        let (id, column) = match at.cell("id") {
            Some(id) => (id.to_string(), "id"),
            None => (slug(name), "name"),
        };
        if id.is_empty() || id.chars().any(char::is_whitespace) {
            let p = at.problem(
                Some(column),
                format!("'{id}' cannot be an id: letters, digits, '-' and '_' only, no spaces"),
            );
            self.problems.push(p);
            return None;
        }
        let here = format!("{} line {}", at.sheet.file, at.row.line);
        if let Some(first) = self.ids.get(&id) {
            let p = at.problem(
                Some(column),
                format!("duplicate id '{id}': already used in {first} — give each row its own id"),
            );
            self.problems.push(p);
            return None;
        }
        self.ids.insert(id.clone(), here);
        Some(id)
    }

    /// The row's cells in attribute columns (the ones not in `fixed`), read as their values.
    fn attributes(&mut self, at: &At<'_>, kind: SheetKind, specs: &[AttributeSpec]) -> Mapping {
        let fixed: Vec<&str> = kind.fixed().iter().map(|f| f.name).collect();
        let mut out = Mapping::new();
        for (i, header) in at.sheet.headers.iter().enumerate() {
            let name = header_key(header);
            if fixed.contains(&name.as_str()) {
                continue;
            }
            let Some(text) = at.row.cells.get(i).filter(|c| !c.is_empty()) else {
                continue;
            };
            let name = self.alias(kind, &name);
            let Some(spec) = specs.iter().find(|s| s.name == name) else {
                continue;
            };
            if name == "map_table"
                && let Some(t) = self.table(text)
            {
                out.insert(key(&name), Yaml::String(t));
                continue;
            }
            match cell_value(spec, text) {
                Ok(v) => {
                    out.insert(key(&name), v);
                }
                Err(e) => self.problems.push(at.problem(Some(header.trim()), e)),
            }
        }
        out
    }

    /// `type` and `strength` in `counters.csv`: the ruleset's type and strength attributes.
    fn alias(&self, kind: SheetKind, name: &str) -> String {
        let by = |a: &Option<String>| a.clone().unwrap_or_else(|| name.to_string());
        match (kind, name) {
            (SheetKind::Counters, "type") => by(&self.ruleset.type_attribute),
            (SheetKind::Counters, "strength") => by(&self.ruleset.strength_attribute),
            _ => name.to_string(),
        }
    }

    fn edit_of(&mut self, id: &str) -> &mut StateEdit {
        if let Some(i) = self.state_edits.iter().position(|(s, _)| s == id) {
            return &mut self.state_edits[i].1;
        }
        self.state_edits
            .push((id.to_string(), StateEdit::default()));
        let last = self.state_edits.len() - 1;
        &mut self.state_edits[last].1
    }
}

/// The header row's problems: a column the sheet does not have, a column twice, a required
/// column missing.
fn check_headers(ctx: &mut Ctx<'_>, kind: SheetKind, sheet: &Sheet) -> bool {
    let before = ctx.problems.len();
    let fixed = kind.fixed();
    let specs: Vec<&AttributeSpec> = match kind {
        SheetKind::Counters | SheetKind::CounterValues => ctx
            .ruleset
            .units
            .iter()
            .chain(&ctx.ruleset.leaders)
            .collect(),
        _ => kind.specs(ctx.ruleset).iter().collect(),
    };
    let reserved: Vec<&str> = if kind.unit_kind().is_some() {
        ctx.ruleset
            .type_attribute
            .iter()
            .map(String::as_str)
            .collect()
    } else {
        Vec::new()
    };
    let problem = |column: &str, what: String| {
        ImportProblem::at(&sheet.file, Some(sheet.header_line), Some(column), what)
    };
    let mut seen: Vec<String> = Vec::new();
    for header in &sheet.headers {
        let name = header_key(header);
        let shown = header.trim();
        if name.is_empty() {
            continue;
        }
        if seen.contains(&name) {
            ctx.problems
                .push(problem(shown, "is a column twice: keep one".into()));
            continue;
        }
        seen.push(name.clone());
        let alias = ctx.alias(kind, &name);
        if reserved.contains(&name.as_str()) {
            ctx.problems.push(problem(
                shown,
                format!(
                    "is set by the sheet ({} are of kind {})",
                    sheet.file,
                    kind.unit_kind().unwrap_or_default()
                ),
            ));
        } else if !fixed.iter().any(|f| f.name == name) && !specs.iter().any(|s| s.name == alias) {
            let mut known: Vec<String> = fixed.iter().map(|f| f.name.to_string()).collect();
            known.extend(kind.attribute_columns(ctx.ruleset));
            ctx.problems.push(problem(
                shown,
                format!(
                    "is not a column of {} — its columns: {} (or any attribute the ruleset declares)",
                    sheet.file,
                    known.join(", ")
                ),
            ));
        }
    }
    for f in fixed.iter().filter(|f| f.required) {
        if sheet.column(f.name).is_none() {
            ctx.problems.push(problem(
                f.name,
                format!(
                    "is missing: {} needs a column \"{}\" — {}",
                    sheet.file, f.name, f.meaning
                ),
            ));
        }
    }
    ctx.problems.len() == before
}

/// A required cell of a row, or a problem naming it.
fn required<'r>(ctx: &mut Ctx<'_>, at: &At<'r>, column: &str) -> Option<&'r str> {
    let cell = at.sheet.cell(at.row, column);
    if cell.is_none() {
        ctx.problems.push(at.problem(
            Some(column),
            "is empty: this column must be filled in".into(),
        ));
    }
    cell
}

fn states_sheet(ctx: &mut Ctx<'_>, sheet: &Sheet) {
    for row in &sheet.rows {
        let at = At { sheet, row };
        let Some(id) = required(ctx, &at, "id") else {
            continue;
        };
        let known = ctx.state(id).map(|s| s.id.clone());
        let mut edit = StateEdit::default();
        if let Some(teams) = at.cell("teams") {
            let mut list = Vec::new();
            for t in teams
                .split([',', '|'])
                .map(str::trim)
                .filter(|t| !t.is_empty())
            {
                match ctx.side(t) {
                    Some(s) => list.push(s),
                    None => {
                        let p = at.problem(
                            Some("teams"),
                            format!("no team '{t}' — teams: {}", ctx.side_list()),
                        );
                        ctx.problems.push(p);
                    }
                }
            }
            edit.teams = Some(list);
        }
        if let Some(t) = at.cell("table") {
            edit.table = ctx.table(t);
            if edit.table.is_none() {
                let p = at.problem(Some("table"), format!("no map table '{t}'"));
                ctx.problems.push(p);
            }
        }
        if let Some(p) = at.cell("played") {
            match flag(p) {
                Ok(b) => edit.played = Some(b),
                Err(e) => ctx.problems.push(at.problem(Some("played"), e)),
            }
        }
        edit.name = at.cell("name").map(str::to_string);
        edit.note = at.cell("note").map(str::to_string);
        let ruleset = ctx.ruleset;
        edit.ledger = ctx.attributes(&at, SheetKind::States, &ruleset.units);
        let id = match known {
            Some(id) => id,
            None => {
                if edit.name.is_none() {
                    let p = at.problem(
                        Some("name"),
                        format!("is empty: '{id}' is a new state, give its name"),
                    );
                    ctx.problems.push(p);
                }
                let Some(new) = ctx.new_id(&at, id).map(|_| id.to_string()) else {
                    continue;
                };
                edit.new = true;
                ctx.states.push(StateRef {
                    id: new.clone(),
                    name: edit.name.clone().unwrap_or_default(),
                    teams: edit.teams.clone().unwrap_or_default(),
                });
                new
            }
        };
        if ctx.state_edits.iter().any(|(s, _)| *s == id) {
            let p = at.problem(
                Some("id"),
                format!("duplicate state '{id}': one row a state"),
            );
            ctx.problems.push(p);
            continue;
        }
        if let Some(s) = ctx.states.iter_mut().find(|s| s.id == id)
            && let Some(t) = &edit.teams
        {
            s.teams.clone_from(t);
        }
        ctx.state_edits.push((id, edit));
    }
}

fn cards_sheet(ctx: &mut Ctx<'_>, sheet: &Sheet) {
    let mut seen: Vec<String> = Vec::new();
    for row in &sheet.rows {
        let at = At { sheet, row };
        if required(ctx, &at, "state").is_none() {
            continue;
        }
        let Some((id, _)) = ctx.state_at(&at, "state") else {
            continue;
        };
        if seen.contains(&id) {
            let p = at.problem(
                Some("state"),
                format!("duplicate state '{id}': one row a state"),
            );
            ctx.problems.push(p);
            continue;
        }
        seen.push(id.clone());
        let ruleset = ctx.ruleset;
        let values = ctx.attributes(&at, SheetKind::Cards, &ruleset.units);
        ctx.edit_of(&id).ledger.extend(values);
    }
}

fn characters_sheet(ctx: &mut Ctx<'_>, sheet: &Sheet) {
    for row in &sheet.rows {
        let at = At { sheet, row };
        let Some(id) = required(ctx, &at, "id") else {
            continue;
        };
        let found = ctx
            .scenario
            .counters
            .iter()
            .find(|c| {
                c.kind == CounterKind::Leader && (c.id == id || key_of(&c.name) == key_of(id))
            })
            .map(|c| c.id.clone());
        let Some(id) = found else {
            let p = at.problem(
                Some("id"),
                format!("no character '{id}' in {} — characters are the scenario's (the template lists them)", ctx.scenario.title),
            );
            ctx.problems.push(p);
            continue;
        };
        if ctx.characters.iter().any(|c| c.id == id) {
            let p = at.problem(
                Some("id"),
                format!("duplicate character '{id}': one row a character"),
            );
            ctx.problems.push(p);
            continue;
        }
        let mut attributes = {
            let ruleset = ctx.ruleset;
            ctx.attributes(&at, SheetKind::Characters, &ruleset.leaders)
        };
        let player = at.cell("player").map(str::to_string);
        if let Some(p) = &player
            && ctx.ruleset.leaders.iter().any(|s| s.name == "player")
        {
            attributes.insert(key("player"), Yaml::String(p.clone()));
        }
        ctx.characters.push(CharacterEdit {
            id,
            name: at.cell("name").map(str::to_string),
            player,
            attributes,
            at: (sheet.file.clone(), row.line),
        });
    }
}

/// An area of `areas.csv` a row names in its `area` column.
fn area_at(ctx: &mut Ctx<'_>, at: &At<'_>) -> Option<usize> {
    let text = required(ctx, at, "area")?;
    let k = key_of(text);
    let found = ctx
        .areas
        .iter()
        .position(|a| key_of(&a.id) == k || key_of(&a.name) == k);
    if found.is_none() {
        let known = if ctx.areas.is_empty() {
            "areas.csv lists none".to_string()
        } else {
            format!(
                "areas: {}",
                ctx.areas
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        ctx.problems.push(at.problem(
            Some("area"),
            format!("no area '{text}' in areas.csv — {known}"),
        ));
    }
    found
}

/// Areas, cities, armies and fleets: counters of their `unit_kind`, in an area.
fn pieces_sheet(ctx: &mut Ctx<'_>, kind: SheetKind, sheet: &Sheet) {
    let unit_kind = kind.unit_kind().unwrap_or_default();
    let state_column = if matches!(kind, SheetKind::Armies | SheetKind::Fleets) {
        "country"
    } else {
        "owner"
    };
    for row in &sheet.rows {
        let at = At { sheet, row };
        let Some(name) = required(ctx, &at, "name") else {
            continue;
        };
        let id = ctx.new_id(&at, name);
        if kind != SheetKind::Areas && at.cell(state_column).is_none() && state_column == "country"
        {
            required(ctx, &at, state_column);
        }
        let state = ctx.state_at(&at, state_column);
        let area = if kind == SheetKind::Areas {
            None
        } else {
            area_at(ctx, &at)
        };
        // A city without an owner is its area's.
        let state = state.or_else(|| {
            let a = area.map(|i| &ctx.areas[i])?;
            let owner = a.owner.clone()?;
            let teams = ctx
                .state(&owner)
                .map(|s| s.teams.clone())
                .unwrap_or_default();
            Some((owner, teams))
        });
        let side = match (kind, area) {
            (SheetKind::Cities, Some(i)) if at.cell("side").is_none() && state.is_none() => {
                Some(ctx.areas[i].side.clone())
            }
            _ => ctx.side_at(&at, state.as_ref()),
        };
        let ruleset = ctx.ruleset;
        let mut attributes = ctx.attributes(&at, kind, &ruleset.units);
        let (Some(id), Some(side)) = (id, side) else {
            continue;
        };
        if let Some(t) = &ctx.ruleset.type_attribute {
            attributes.insert(key(t), key(unit_kind));
        }
        if let Some((state, _)) = &state {
            attributes.insert(key(state_column), Yaml::String(state.clone()));
        }
        let place = match area {
            Some(i) => ctx.areas[i].name.clone(),
            None if kind == SheetKind::Areas => name.to_string(),
            None => continue,
        };
        if kind == SheetKind::Areas {
            ctx.areas.push(AreaRef {
                id: id.clone(),
                name: name.to_string(),
                owner: state.as_ref().map(|s| s.0.clone()),
                side: side.clone(),
            });
        }
        let mut position = Mapping::new();
        position.insert(key("area"), Yaml::String(place));
        ctx.counters.push(NewCounter {
            id,
            name: name.to_string(),
            side,
            list: "units",
            position: Yaml::Mapping(position),
            attributes,
            note: at.cell("note").map(str::to_string),
        });
    }
}

/// The sheets as their kinds, in the order they are read; a file of no kind is a problem.
fn sorted_sheets<'s>(
    ctx: &mut Ctx<'_>,
    kinds: &[SheetKind],
    sheets: &'s [Sheet],
) -> Vec<(SheetKind, &'s Sheet)> {
    let mut out = Vec::new();
    for sheet in sheets {
        match kinds
            .iter()
            .find(|k| k.file().eq_ignore_ascii_case(&sheet.file))
        {
            Some(k) => out.push((*k, sheet)),
            None => ctx.problems.push(ImportProblem::at(
                &sheet.file,
                None,
                None,
                format!(
                    "is not a sheet of {} — its sheets: {}",
                    ctx.scenario.title,
                    kinds
                        .iter()
                        .map(|k| k.file())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }
    out.sort_by_key(|(k, _)| SheetKind::ALL.iter().position(|a| a == k));
    out
}

/// Reads the organiser's sheets against `scenario` (whose file text is `original`) and merges
/// them into it: the scenario file that results, checked by loading it (as `name`), or every
/// problem found.
pub fn import_setup(
    original: &str,
    scenario: &Scenario,
    ruleset: &Ruleset,
    library: &Library,
    sheets: &[Sheet],
    name: &str,
) -> Result<Imported, Vec<ImportProblem>> {
    let mut ctx = Ctx::new(scenario, ruleset);
    let kinds = super::kinds_for(scenario, ruleset);
    let sorted = sorted_sheets(&mut ctx, &kinds, sheets);
    let mut rows = Vec::new();
    for (kind, sheet) in sorted {
        rows.push((sheet.file.clone(), sheet.rows.len()));
        if !check_headers(&mut ctx, kind, sheet) {
            continue;
        }
        match kind {
            SheetKind::States => states_sheet(&mut ctx, sheet),
            SheetKind::Cards => cards_sheet(&mut ctx, sheet),
            SheetKind::Characters => characters_sheet(&mut ctx, sheet),
            SheetKind::Counters => counters_sheet(&mut ctx, sheet),
            SheetKind::CounterValues => {
                let (entries, problems) = super::counter_values::read(scenario, ruleset, sheet);
                ctx.values.extend(entries);
                ctx.problems.extend(problems);
            }
            _ => pieces_sheet(&mut ctx, kind, sheet),
        }
    }
    if !ctx.problems.is_empty() {
        return Err(ctx.problems);
    }
    let mut root: Mapping = yaml_serde::from_str(original).map_err(|e| {
        vec![ImportProblem::at(
            name,
            None,
            None,
            format!("the scenario's text does not read as YAML: {e}"),
        )]
    })?;
    super::merge::apply(&mut root, &ctx.state_edits, &ctx.characters, &ctx.counters)?;
    super::merge::apply_values(&mut root, std::mem::take(&mut ctx.values));
    let files: Vec<&str> = rows.iter().map(|(f, _)| f.as_str()).collect();
    let text = format!(
        "# Set up from the organiser's sheets ({}) by `umpire scenario import-setup`: {}.\n{}",
        files.join(", "),
        scenario.title,
        yaml_serde::to_string(&Yaml::Mapping(root)).map_err(|e| {
            vec![ImportProblem::at(
                name,
                None,
                None,
                format!("could not be written: {e}"),
            )]
        })?
    );
    let file = SourceFile {
        name: name.to_string(),
        text,
    };
    crate::game::scenario::load_scenario(&file, library).map_err(|e| {
        vec![ImportProblem::at(
            name,
            None,
            None,
            format!("the imported scenario would not load:\n{e}"),
        )]
    })?;
    Ok(Imported {
        text: file.text,
        rows,
    })
}
