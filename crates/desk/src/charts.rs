//! The chart editor: the umpire transcribes a table's cells from their own chart sheet into the
//! transcription layer (`<user rules folder>/<ruleset>/<table>.yaml`, the file `umpire rules
//! template` writes). Every edit is validated by the loader itself on the would-be file, so a
//! file that would not load is never written; the file is written whole (temp file, then
//! rename), and the desk reloads its rulesets after saving.

use std::ops::Range;
use std::path::{Path, PathBuf};

use eframe::egui::{self, Color32, RichText, Ui};
use saphyr_parser::{Event, Parser};

use umpire_core::rules::layer;
use umpire_core::rules::library::declared_id;
use umpire_core::rules::locate::Seg;
use umpire_core::rules::{
    Library, LoadErrors, RulesetFiles, RulesetSource, SourceFile, load_ruleset,
};

/// Label of the chart editor's ruleset picker.
pub const CHART_RULESET_LABEL: &str = "Chart ruleset";
/// Label of the chart editor's table picker.
pub const CHART_TABLE_LABEL: &str = "Chart table";
/// Label of the chart editor's Save button.
pub const CHART_SAVE_LABEL: &str = "Save transcription";

/// The accessible name of a cell of the grid: `Cell <row> / <column>`.
pub fn cell_label(row: &str, column: &str) -> String {
    format!("Cell {row} / {column}")
}

/// Where the rulesets come from: their files (shipped or `--rules DIR`) and the umpire's
/// transcription folder (None: no transcription layer).
#[derive(Debug, Clone, Default)]
pub struct RulesSetup {
    /// Every ruleset's files.
    pub sources: Vec<RulesetFiles>,
    /// The transcription layer's folder.
    pub user_dir: Option<PathBuf>,
    /// Ruleset folders whose files could not be read (too large, unreadable), by id: they are
    /// listed as failing, the others load.
    pub unread: Vec<(String, LoadErrors)>,
}

impl RulesSetup {
    /// The shipped rulesets with the transcriptions in `user_dir`.
    pub fn shipped(user_dir: Option<PathBuf>) -> RulesSetup {
        RulesSetup {
            sources: umpire_core::rules::shipped_sources(),
            user_dir,
            unread: Vec::new(),
        }
    }

    /// The rulesets at `sources` (shipped, or the folders of `--rules DIR`), read now; a folder
    /// that does not read is kept in [`RulesSetup::unread`].
    pub fn read(sources: &[RulesetSource], user_dir: Option<PathBuf>) -> RulesSetup {
        let mut setup = RulesSetup {
            user_dir,
            ..RulesSetup::default()
        };
        for source in sources {
            match source.read() {
                Ok(files) => setup.sources.push(files),
                Err(e) => setup.unread.push((source.declared_id(), e)),
            }
        }
        setup
    }

    /// Loads the rulesets with the transcription layer.
    pub fn load(&self) -> Library {
        let mut library = self.on_demand();
        library.load_all();
        library
    }

    /// The rulesets with the transcription layer, each loaded when first asked for (see
    /// [`Library::on_demand`]).
    pub fn on_demand(&self) -> Library {
        let sources = self.sources.iter().cloned().map(RulesetSource::Files);
        let mut library = Library::on_demand(sources.collect(), self.user_dir.as_deref());
        library.failed.extend(self.unread.iter().cloned());
        library
    }

    /// The files of a ruleset, by id.
    pub fn files(&self, ruleset: &str) -> Option<&RulesetFiles> {
        self.sources.iter().find(|f| declared_id(f) == ruleset)
    }
}

/// One scalar of a YAML document: its path, its value and its bytes in the text.
#[derive(Debug, Clone, PartialEq)]
struct Scalar {
    path: Vec<Seg>,
    value: String,
    bytes: Range<usize>,
    line: usize,
    column: usize,
}

enum Frame {
    Map { key: Option<String> },
    Seq { next: usize },
}

/// Every value scalar of a document with its path and byte range (empty when it does not parse).
fn scalars(text: &str) -> Vec<Scalar> {
    // saphyr counts characters; splicing needs bytes.
    let byte_at: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .collect();
    let to_byte = |c: usize| byte_at.get(c).copied().unwrap_or(text.len());
    let mut out = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut path: Vec<Seg> = Vec::new();
    for item in Parser::new_from_str(text) {
        let Ok((event, span)) = item else {
            return Vec::new();
        };
        if let (Some(Frame::Map { key }), Event::Scalar(value, ..)) = (stack.last_mut(), &event)
            && key.is_none()
        {
            *key = Some(value.to_string());
            continue;
        }
        let is_node = matches!(
            event,
            Event::Scalar(..)
                | Event::MappingStart(..)
                | Event::SequenceStart(..)
                | Event::Alias(_)
        );
        if is_node {
            let seg = match stack.last_mut() {
                Some(Frame::Map { key }) => key.take().map(Seg::Key),
                Some(Frame::Seq { next }) => {
                    let i = *next;
                    *next += 1;
                    Some(Seg::Index(i))
                }
                None => None,
            };
            if let Some(seg) = &seg {
                path.push(seg.clone());
            }
            match &event {
                Event::MappingStart(..) => stack.push(Frame::Map { key: None }),
                Event::SequenceStart(..) => stack.push(Frame::Seq { next: 0 }),
                other => {
                    if let Event::Scalar(value, ..) = other {
                        out.push(Scalar {
                            path: path.clone(),
                            value: value.to_string(),
                            bytes: to_byte(span.start.index())..to_byte(span.end.index()),
                            line: span.start.line(),
                            column: span.start.col() + 1,
                        });
                    }
                    if seg.is_some() {
                        path.pop();
                    }
                }
            }
            continue;
        }
        if matches!(event, Event::MappingEnd | Event::SequenceEnd) {
            stack.pop();
            if !stack.is_empty() {
                path.pop();
            }
        }
    }
    out
}

/// The cell (row, column) whose scalar starts at `line`:`column` (1-based), as the loader's
/// errors locate it.
fn cell_at(located: &[Scalar], line: usize, column: usize) -> Option<(usize, usize)> {
    let s = located
        .iter()
        .find(|s| s.line == line && s.column == column)?;
    match s.path.as_slice() {
        [
            Seg::Key(rows),
            Seg::Index(r),
            Seg::Key(cells),
            Seg::Index(c),
        ] if rows == "rows" && cells == "cells" => Some((*r, *c)),
        [Seg::Key(rows), Seg::Index(r), Seg::Key(cell)] if rows == "rows" && cell == "cell" => {
            Some((*r, 0))
        }
        _ => None,
    }
}

/// A cell as a YAML scalar: a whole number bare, anything else double-quoted.
fn yaml_scalar(value: &str) -> String {
    let v = value.trim();
    if v.parse::<i64>().is_ok() && !v.starts_with('+') && !(v.len() > 1 && v.starts_with('0')) {
        v.to_string()
    } else {
        serde_json::to_string(v).unwrap_or_else(|_| format!("{v:?}"))
    }
}

/// A cell found in the text: its column, bytes, line and value.
type CellAt = (usize, Range<usize>, usize, String);

/// A table file laid out for editing: the text, where each cell is, and the row and column keys.
#[derive(Debug, Clone)]
pub struct ChartSource {
    /// The ruleset id.
    pub ruleset: String,
    /// The table id.
    pub table: String,
    /// The title of the table.
    pub title: String,
    /// The text the edits are spliced into.
    text: String,
    /// Per row, per column: where the cell's scalar is in `text`, and its line.
    spans: Vec<Vec<(Range<usize>, usize)>>,
    /// Row keys as written.
    pub rows: Vec<String>,
    /// Column keys as written (of the first header line).
    pub columns: Vec<String>,
    /// The cells as they are in the file.
    pub original: Vec<Vec<String>>,
    /// Whether the text comes from the umpire's transcription (else from the shipped table).
    pub from_user: bool,
    /// The ruleset's files with the layer applied, but for this table.
    files: RulesetFiles,
    /// The index of this table in `files.tables`.
    slot: usize,
    /// Where the transcription is written.
    pub target: Option<PathBuf>,
}

fn stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

impl ChartSource {
    /// Lays out table `table` of ruleset `ruleset` for editing: the umpire's transcription if
    /// there is one (and it loads), else the shipped table.
    pub fn load(setup: &RulesSetup, ruleset: &str, table: &str) -> Result<ChartSource, String> {
        let files = setup
            .files(ruleset)
            .ok_or_else(|| format!("no ruleset '{ruleset}'"))?;
        let layered = match &setup.user_dir {
            Some(dir) => layer::apply(files, ruleset, dir)
                .map(|(f, _)| f)
                .map_err(|e| format!("your transcriptions of {ruleset} do not load:\n{e}"))?,
            None => files.clone(),
        };
        let slot = layered
            .tables
            .iter()
            .position(|f| stem(&f.name) == table)
            .ok_or_else(|| format!("no table '{table}' in {ruleset}"))?;
        let target = setup
            .user_dir
            .as_ref()
            .map(|d| d.join(ruleset).join(format!("{table}.yaml")));
        let file = &layered.tables[slot];
        let from_user = target
            .as_ref()
            .is_some_and(|t| Path::new(&file.name) == t.as_path());
        let title = scalars(&file.text)
            .into_iter()
            .find(|s| s.path == [Seg::Key("title".into())])
            .map_or_else(|| table.to_string(), |s| s.value);
        let text = if from_user {
            file.text.clone()
        } else {
            format!(
                "# {title} — your transcription for ruleset {ruleset}, made in the desk's chart \
                 editor.\n# It replaces {} for you only (shipped files are never changed); \
                 `umpire rules check {ruleset}` validates it.\n\n{}",
                file.name, file.text
            )
        };
        ChartSource::lay_out(
            ruleset, table, title, text, from_user, layered, slot, target,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn lay_out(
        ruleset: &str,
        table: &str,
        title: String,
        text: String,
        from_user: bool,
        files: RulesetFiles,
        slot: usize,
        target: Option<PathBuf>,
    ) -> Result<ChartSource, String> {
        let all = scalars(&text);
        if all.is_empty() {
            return Err(format!("{table}: the file does not parse as YAML"));
        }
        let key = |k: &str| Seg::Key(k.to_string());
        let mut rows: Vec<String> = Vec::new();
        let mut columns: Vec<String> = Vec::new();
        let mut header_line_columns: Vec<String> = Vec::new();
        let mut cells: Vec<Vec<CellAt>> = Vec::new();
        for s in &all {
            match s.path.as_slice() {
                [c, Seg::Index(_)] if *c == key("columns") => columns.push(s.value.clone()),
                [h, Seg::Index(0), c, Seg::Index(_)]
                    if *h == key("header_lines") && *c == key("columns") =>
                {
                    header_line_columns.push(s.value.clone());
                }
                [r, Seg::Index(i), k] if *r == key("rows") && *k == key("key") => {
                    if rows.len() <= *i {
                        rows.resize(*i + 1, String::new());
                    }
                    rows[*i] = s.value.clone();
                }
                [r, Seg::Index(i), k, Seg::Index(j)] if *r == key("rows") && *k == key("cells") => {
                    if cells.len() <= *i {
                        cells.resize(*i + 1, Vec::new());
                    }
                    cells[*i].push((*j, s.bytes.clone(), s.line, s.value.clone()));
                }
                [r, Seg::Index(i), k] if *r == key("rows") && *k == key("cell") => {
                    if cells.len() <= *i {
                        cells.resize(*i + 1, Vec::new());
                    }
                    cells[*i].push((0, s.bytes.clone(), s.line, s.value.clone()));
                }
                _ => {}
            }
        }
        if columns.is_empty() {
            columns = header_line_columns;
        }
        cells.resize(rows.len(), Vec::new());
        let width = cells.iter().map(Vec::len).max().unwrap_or(0);
        if columns.len() < width {
            if width == 1 && columns.is_empty() {
                columns.push("result".into());
            } else {
                for c in columns.len()..width {
                    columns.push(format!("column {}", c + 1));
                }
            }
        }
        let mut spans = Vec::new();
        let mut original = Vec::new();
        for mut row in cells {
            row.sort_by_key(|c| c.0);
            spans.push(row.iter().map(|c| (c.1.clone(), c.2)).collect());
            original.push(row.into_iter().map(|c| c.3).collect());
        }
        Ok(ChartSource {
            ruleset: ruleset.to_string(),
            table: table.to_string(),
            title,
            text,
            spans,
            rows,
            columns,
            original,
            from_user,
            files,
            slot,
            target,
        })
    }

    /// The file with `cells` in place of the cells read (whole numbers bare, text quoted).
    pub fn render(&self, cells: &[Vec<String>]) -> String {
        let mut edits: Vec<(Range<usize>, String)> = Vec::new();
        for (r, row) in self.spans.iter().enumerate() {
            for (c, (bytes, _)) in row.iter().enumerate() {
                let Some(new) = cells.get(r).and_then(|row| row.get(c)) else {
                    continue;
                };
                let old = &self.original[r][c];
                if new.trim() != old {
                    edits.push((bytes.clone(), yaml_scalar(new)));
                }
            }
        }
        edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
        let mut text = self.text.clone();
        for (bytes, value) in edits {
            if bytes.end <= text.len() && bytes.start <= bytes.end {
                text.replace_range(bytes, &value);
            }
        }
        text
    }

    /// The file name the loader is given (the target, so that its errors name it).
    fn file_name(&self) -> String {
        self.target.as_ref().map_or_else(
            || format!("{}/{}.yaml", self.ruleset, self.table),
            |t| t.display().to_string(),
        )
    }

    /// Checks `cells` as the loader would check the file: every problem, with the cell it is in
    /// when it is in a cell. Returns the problems and, when there are none, the cells still
    /// missing.
    pub fn check(&self, cells: &[Vec<String>]) -> (Vec<String>, usize) {
        let mut problems = Vec::new();
        for (r, row) in cells.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                if v.trim().is_empty() {
                    problems.push(format!(
                        "{}: empty — type the value printed on your chart, or ? if you do not have it",
                        self.cell_name(r, c)
                    ));
                }
            }
        }
        if !problems.is_empty() {
            return (problems, 0);
        }
        let rendered = self.render(cells);
        let mut files = self.files.clone();
        files.tables[self.slot] = SourceFile {
            name: self.file_name(),
            text: rendered.clone(),
        };
        match load_ruleset(&files) {
            Ok(r) => {
                let missing = r.table(&self.table).map_or(0, |t| t.missing_cells().len());
                (Vec::new(), missing)
            }
            Err(LoadErrors(errors)) => {
                let name = self.file_name();
                let located = scalars(&rendered);
                // A table that does not load also breaks the procedures that read it: show
                // the table's own errors when it has any.
                let ours = errors.iter().any(|e| e.file == name);
                let problems = errors
                    .iter()
                    .filter(|e| !ours || e.file == name)
                    .map(|e| {
                        if e.file == name
                            && let Some((r, c)) = cell_at(&located, e.line, e.column)
                        {
                            // The loader's message starts with the YAML path; the cell's name
                            // says it better.
                            let problem = match e.problem.split_once(": ") {
                                Some((path, rest)) if path.starts_with("rows[") => rest,
                                _ => e.problem.as_str(),
                            };
                            format!("{}: {problem} — {}", self.cell_name(r, c), e.hint)
                        } else {
                            e.to_string()
                        }
                    })
                    .collect();
                (problems, 0)
            }
        }
    }

    /// "row 7, column 38".
    pub fn cell_name(&self, row: usize, column: usize) -> String {
        format!(
            "row {}, column {}",
            self.rows.get(row).map_or("?", String::as_str),
            self.columns.get(column).map_or("?", String::as_str)
        )
    }

    /// Writes the file with `cells` (temp file, then rename: never half-written).
    pub fn save(&self, cells: &[Vec<String>]) -> Result<PathBuf, String> {
        let Some(target) = &self.target else {
            return Err(
                "there is no transcription folder (the desk was started with --no-user-rules)"
                    .into(),
            );
        };
        let (problems, _) = self.check(cells);
        if let Some(p) = problems.first() {
            return Err(format!("not saved: {p}"));
        }
        write_atomically(target, self.render(cells).as_bytes())?;
        Ok(target.clone())
    }
}

/// Writes `bytes` to `path` through a temp file in the same folder and a rename (creating the
/// folder; see [`umpire_core::game::output::write_output`]).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = path
        .parent()
        .ok_or_else(|| format!("{}: no folder", path.display()))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    umpire_core::game::output::write_output(
        path,
        bytes,
        umpire_core::game::output::Existing::Replace,
    )
    .map_err(|e| e.to_string())
}

/// The chart editor window's state.
#[derive(Debug, Default)]
pub struct ChartEditor {
    /// Whether the window is shown.
    pub open: bool,
    /// The ruleset picked.
    pub ruleset: String,
    /// The table picked.
    pub table: String,
    source: Option<std::rc::Rc<ChartSource>>,
    /// The cells as edited.
    pub cells: Vec<Vec<String>>,
    checked: Option<Vec<Vec<String>>>,
    problems: Vec<String>,
    missing: usize,
    /// The last load or save problem, or what was saved.
    pub message: Option<Result<String, String>>,
    /// The transcription last saved, until the desk takes it (to record it in the open game).
    pub saved: Option<SavedTable>,
}

/// A transcription as saved: which table, and the file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedTable {
    /// The ruleset's id.
    pub ruleset: String,
    /// The table's id.
    pub table: String,
    /// The file as written.
    pub text: String,
}

impl ChartEditor {
    /// The problems of the cells as edited (empty: the file would load).
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Whether the edits differ from the file.
    pub fn dirty(&self) -> bool {
        self.source
            .as_ref()
            .is_some_and(|s| s.original.iter().flatten().ne(self.cells.iter().flatten()))
    }

    /// Opens a table for editing.
    pub fn pick(&mut self, setup: &RulesSetup, ruleset: &str, table: &str) {
        self.ruleset = ruleset.to_string();
        self.table = table.to_string();
        self.message = None;
        self.checked = None;
        match ChartSource::load(setup, ruleset, table) {
            Ok(s) => {
                self.cells = s.original.clone();
                self.source = Some(std::rc::Rc::new(s));
                self.revalidate();
            }
            Err(e) => {
                self.source = None;
                self.cells.clear();
                self.message = Some(Err(e));
            }
        }
    }

    /// Re-runs the loader's validation when the cells changed since the last check.
    pub fn revalidate(&mut self) {
        let Some(source) = &self.source else {
            return;
        };
        if self.checked.as_ref() == Some(&self.cells) {
            return;
        }
        let (problems, missing) = source.check(&self.cells);
        self.problems = problems;
        self.missing = missing;
        self.checked = Some(self.cells.clone());
    }

    /// Saves the edits; returns whether the file was written (the desk then reloads).
    pub fn save(&mut self, setup: &RulesSetup) -> bool {
        let Some(source) = &self.source else {
            return false;
        };
        let text = source.render(&self.cells);
        match source.save(&self.cells) {
            Ok(path) => {
                let (ruleset, table) = (self.ruleset.clone(), self.table.clone());
                self.saved = Some(SavedTable {
                    ruleset: ruleset.clone(),
                    table: table.clone(),
                    text,
                });
                self.pick(setup, &ruleset, &table);
                self.message = Some(Ok(format!(
                    "saved {} ({} cells still missing); the desk uses it now",
                    path.display(),
                    self.missing
                )));
                true
            }
            Err(e) => {
                self.message = Some(Err(e));
                false
            }
        }
    }

    /// The window. Returns true when a transcription was saved (reload the rulesets).
    pub fn window_ui(
        &mut self,
        ctx: &egui::Context,
        setup: &RulesSetup,
        library: &Library,
    ) -> bool {
        if !self.open {
            return false;
        }
        let mut open = true;
        let mut saved = false;
        egui::Window::new("Chart editor")
            .open(&mut open)
            .default_size([760.0, 520.0])
            .resizable(true)
            .show(ctx, |ui| saved = self.editor_ui(ui, setup, library));
        self.open = open;
        saved
    }

    /// The ruleset and table pickers (each table with how many cells it misses). Returns the
    /// (ruleset, table) picked this frame (no table: a ruleset alone).
    fn picker_ui(
        &mut self,
        ui: &mut Ui,
        setup: &RulesSetup,
        library: &Library,
    ) -> Option<(String, String)> {
        let ids: Vec<String> = setup.sources.iter().map(declared_id).collect();
        let mut pick: Option<(String, String)> = None;
        ui.horizontal(|ui| {
            let label = ui.label(CHART_RULESET_LABEL);
            egui::ComboBox::from_id_salt("chart_ruleset")
                .selected_text(if self.ruleset.is_empty() {
                    "—"
                } else {
                    &self.ruleset
                })
                .show_ui(ui, |ui| {
                    for id in &ids {
                        if ui
                            .selectable_label(*id == self.ruleset, id)
                            .on_hover_text("Edit this ruleset's tables")
                            .clicked()
                        {
                            pick = Some((id.clone(), String::new()));
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text("The ruleset whose tables you edit");
            let tables: Vec<(String, String, usize)> = library
                .get(&self.ruleset)
                .map(|r| {
                    r.tables
                        .values()
                        .map(|t| (t.id.clone(), t.title.clone(), t.missing_cells().len()))
                        .collect()
                })
                .unwrap_or_default();
            let label = ui.label(CHART_TABLE_LABEL);
            egui::ComboBox::from_id_salt("chart_table")
                .selected_text(if self.table.is_empty() {
                    "—"
                } else {
                    &self.table
                })
                .width(260.0)
                .show_ui(ui, |ui| {
                    for (id, title, missing) in &tables {
                        let text = if *missing > 0 {
                            format!("{id} — {title} ({missing} missing)")
                        } else {
                            format!("{id} — {title}")
                        };
                        if ui
                            .selectable_label(*id == self.table, text)
                            .on_hover_text("Edit this table")
                            .clicked()
                        {
                            pick = Some((self.ruleset.clone(), id.clone()));
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text("The table whose cells you type in");
        });
        pick
    }

    fn editor_ui(&mut self, ui: &mut Ui, setup: &RulesSetup, library: &Library) -> bool {
        let pick = self.picker_ui(ui, setup, library);
        if let Some((ruleset, table)) = pick {
            if table.is_empty() {
                self.ruleset = ruleset;
                self.table.clear();
                self.source = None;
                self.cells.clear();
                self.message = None;
            } else {
                self.pick(setup, &ruleset, &table);
            }
        }
        if setup.user_dir.is_none() {
            ui.label(
                RichText::new(
                    "No transcription folder: the desk was started with --no-user-rules, so \
                     nothing can be saved.",
                )
                .color(ui.visuals().warn_fg_color),
            );
        }
        let mut saved = false;
        if let Some(source) = self.source.clone() {
            ui.label(RichText::new(&source.title).strong());
            ui.label(
                RichText::new(match (&source.target, source.from_user) {
                    (Some(t), true) => format!("Your transcription: {}", t.display()),
                    (Some(t), false) => {
                        format!(
                            "Shipped table; saving writes your transcription to {}",
                            t.display()
                        )
                    }
                    (None, _) => "Shipped table".to_string(),
                })
                .weak(),
            );
            let before = self.cells.clone();
            ui.horizontal_top(|ui| {
                egui::ScrollArea::both()
                    .id_salt("chart_grid")
                    .max_width((ui.available_width() - 240.0).max(300.0))
                    .max_height(420.0)
                    .show(ui, |ui| self.grid_ui(ui, &source));
                ui.vertical(|ui| {
                    ui.set_width(230.0);
                    if self.problems.is_empty() {
                        ui.label(
                            RichText::new(format!(
                                "Valid: the loader accepts it. {} cells still \"?\".",
                                self.missing
                            ))
                            .color(Color32::from_rgb(90, 170, 90)),
                        );
                    } else {
                        ui.label(RichText::new("Problems").strong());
                        for p in &self.problems {
                            ui.label(RichText::new(p).color(ui.visuals().error_fg_color));
                        }
                    }
                });
            });
            if self.cells != before {
                self.message = None;
                self.revalidate();
            }
            ui.horizontal(|ui| {
                let can_save = self.problems.is_empty() && self.dirty() && source.target.is_some();
                let button = ui
                    .add_enabled(
                        can_save,
                        egui::Button::new(RichText::new(CHART_SAVE_LABEL).strong()),
                    )
                    .on_disabled_hover_text(if !self.problems.is_empty() {
                        "fix the problems first"
                    } else if source.target.is_none() {
                        "no transcription folder"
                    } else {
                        "nothing changed"
                    })
                    .on_hover_text(
                        "Save the cells typed into your transcription layer; the rulesets reload",
                    );
                if button.clicked() {
                    saved = self.save(setup);
                }
                if ui
                    .button("Revert")
                    .on_hover_text("Put the cells back as they were saved")
                    .clicked()
                {
                    self.cells = source.original.clone();
                    self.revalidate();
                }
            });
        } else if !self.ruleset.is_empty() && self.message.is_none() {
            ui.label(RichText::new("Pick a table.").weak());
        }
        match &self.message {
            Some(Ok(m)) => {
                ui.label(RichText::new(m).color(Color32::from_rgb(90, 170, 90)));
            }
            Some(Err(e)) => {
                ui.label(RichText::new(e).color(ui.visuals().error_fg_color));
            }
            None => {}
        }
        saved
    }

    fn grid_ui(&mut self, ui: &mut Ui, source: &ChartSource) {
        let missing_fill = ui.visuals().warn_fg_color.gamma_multiply(0.35);
        egui::Grid::new("chart_cells")
            .striped(true)
            .spacing([6.0, 4.0])
            .show(ui, |ui| {
                ui.label(RichText::new("roll / key").weak());
                for c in &source.columns {
                    ui.label(RichText::new(c).strong());
                }
                ui.end_row();
                for (r, row_key) in source.rows.iter().enumerate() {
                    ui.label(RichText::new(row_key).strong());
                    let Some(row) = self.cells.get_mut(r) else {
                        ui.end_row();
                        continue;
                    };
                    for (c, cell) in row.iter_mut().enumerate() {
                        let missing = cell.trim() == "?" || cell.trim().is_empty();
                        let mut edit = egui::TextEdit::singleline(cell).desired_width(56.0);
                        if missing {
                            edit = edit.background_color(missing_fill);
                        }
                        let response = ui
                            .add(edit)
                            .on_hover_text("This cell's result, as your printed chart gives it");
                        let name =
                            cell_label(row_key, source.columns.get(c).map_or("?", String::as_str));
                        let text = cell.clone();
                        response.widget_info(|| {
                            let mut info =
                                egui::WidgetInfo::text_edit(true, text.clone(), text.clone(), "");
                            info.label = Some(name.clone());
                            info
                        });
                    }
                    ui.end_row();
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_give_byte_ranges_of_quoted_and_plain_cells_after_non_ascii_text() {
        let text = "columns: [≤37, \"38\", 39+]\nrows:\n  - {key: 7, cells: [\"?\", -2, \"?\"]}\n";
        let all = scalars(text);
        let cells: Vec<&Scalar> = all
            .iter()
            .filter(|s| s.path.len() == 4 && s.path[2] == Seg::Key("cells".into()))
            .collect();
        assert_eq!(cells.len(), 3);
        assert_eq!(&text[cells[0].bytes.clone()], "\"?\"");
        assert_eq!(&text[cells[1].bytes.clone()], "-2");
        assert_eq!(cells[1].line, 3);
    }

    #[test]
    fn a_bad_cell_is_named_by_the_loader_even_among_several_on_one_line() {
        let setup = RulesSetup::shipped(None);
        let source = ChartSource::load(&setup, "ailsh", "administrative_points").expect("table");
        assert_eq!(source.rows[5], "7");
        assert_eq!(source.columns, ["≤37", "38", "39+"]);
        assert_eq!(source.original[5], ["?", "-2", "?"]);
        let mut cells = source.original.clone();
        cells[5][2] = "Z9".into();
        let (problems, _) = source.check(&cells);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("row 7, column 39+: 'Z9' is not one of"),
            "{problems:?}"
        );
        cells[5][2] = "4".into();
        cells[0][0] = "-1".into();
        assert_eq!(source.check(&cells), (Vec::new(), 30));
        let text = source.render(&cells);
        assert!(text.contains("{key: 7, cells: [\"?\", -2, 4]"), "{text}");
        assert!(
            text.contains("{key: 2, cells: [-1, \"?\", \"?\"]}"),
            "{text}"
        );
    }

    #[test]
    fn yaml_scalars_keep_numbers_bare_and_quote_text() {
        assert_eq!(yaml_scalar("-2"), "-2");
        assert_eq!(yaml_scalar(" 5 "), "5");
        assert_eq!(yaml_scalar("?"), "\"?\"");
        assert_eq!(yaml_scalar("A2/D1"), "\"A2/D1\"");
        assert_eq!(yaml_scalar("07"), "\"07\"");
    }
}
