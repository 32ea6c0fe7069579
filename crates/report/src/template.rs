//! The layout of printed output, read from `templates/*.yaml` at run time (the embedded copy is
//! the default), so page size, margins, font sizes and colours change without recompiling.

use serde::Deserialize;

use super::error::ReportError;
use umpire_core::rules::locate::YamlPath;

/// The chart-sheet template as shipped (`templates/charts.yaml`).
pub const CHARTS_TEMPLATE: &str = include_str!("../../../templates/charts.yaml");

/// The scenario-sheet template as shipped (`templates/sheet.yaml`).
pub const SHEET_TEMPLATE: &str = include_str!("../../../templates/sheet.yaml");
/// The shipped chart-card layout (`umpire charts RULESET --cards`).
pub const CARDS_TEMPLATE: &str = include_str!("../../../templates/cards.yaml");

/// Paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in (215.9 × 279.4 mm).
    Letter,
}

impl Paper {
    /// Width and height in millimetres (portrait).
    pub fn size_mm(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }
}

/// How the paper is turned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// Taller than wide.
    #[default]
    Portrait,
    /// Wider than tall.
    Landscape,
}

impl Template {
    /// The page's width and height in millimetres, as the paper is turned.
    pub fn page_mm(&self) -> (f32, f32) {
        let (w, h) = self.paper.size_mm();
        match self.orientation {
            Orientation::Portrait => (w, h),
            Orientation::Landscape => (h, w),
        }
    }

    /// The shipped chart-card template.
    pub fn cards_default() -> Result<Self, ReportError> {
        Self::parse("templates/cards.yaml (embedded)", CARDS_TEMPLATE)
    }
}

impl std::str::FromStr for Paper {
    type Err = ReportError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" | "us-letter" | "us_letter" => Ok(Paper::Letter),
            other => Err(ReportError::Template(format!(
                "unknown paper '{other}' — use a4 or letter"
            ))),
        }
    }
}

/// Page margins in millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Margins {
    /// Top.
    pub top: f32,
    /// Bottom (the footer sits inside it).
    pub bottom: f32,
    /// Left.
    pub left: f32,
    /// Right.
    pub right: f32,
}

impl Default for Margins {
    fn default() -> Self {
        Margins {
            top: 15.0,
            bottom: 15.0,
            left: 14.0,
            right: 14.0,
        }
    }
}

/// Font sizes in points.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FontSizes {
    /// Chart titles.
    pub title: f32,
    /// Rule reference and how a chart is read.
    pub subtitle: f32,
    /// Result codes, notes, rulings.
    pub body: f32,
    /// Table header lines and cells.
    pub table: f32,
    /// The smallest size a wide table may shrink to, and the least any text is set in when a
    /// document is set again smaller to save a page (a wide table splits by columns instead).
    pub min_table: f32,
    /// Page footer.
    pub footer: f32,
}

impl Default for FontSizes {
    fn default() -> Self {
        FontSizes {
            title: 13.0,
            subtitle: 8.5,
            body: 8.0,
            table: 8.5,
            min_table: 8.0,
            footer: 8.0,
        }
    }
}

/// Colours as `#RRGGBB` (an empty string: not painted).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Colours {
    /// Body text.
    pub text: String,
    /// Secondary text: rule references, footer.
    pub muted: String,
    /// Grid lines.
    pub rule: String,
    /// Header lines and the row-key column.
    pub header_fill: String,
    /// The band behind a chart title.
    pub title_fill: String,
    /// Chart title text.
    pub title_text: String,
    /// Outline of the empty box printed for a missing cell.
    pub missing_box: String,
    /// Every other body row.
    pub stripe_fill: String,
}

impl Default for Colours {
    fn default() -> Self {
        Colours {
            text: "#000000".into(),
            muted: "#444444".into(),
            rule: "#333333".into(),
            header_fill: "#D9D9D9".into(),
            title_fill: "#1F3A5F".into(),
            title_text: "#FFFFFF".into(),
            missing_box: "#000000".into(),
            stripe_fill: "#F3F3F3".into(),
        }
    }
}

/// Table geometry.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TableStyle {
    /// Padding inside a cell, millimetres.
    pub cell_padding: f32,
    /// Thin grid lines, points.
    pub grid_width: f32,
    /// Frame and header underline, points.
    pub frame_width: f32,
    /// Height of the empty box printed for a missing cell, millimetres (it spans the cell).
    pub missing_box: f32,
    /// Columns holding an empty box are at least this wide, millimetres (room to write).
    pub missing_column: f32,
    /// Space after each chart, millimetres.
    pub gap_after: f32,
    /// The largest share of the width the row-key column may take.
    pub max_key_column: f32,
}

impl Default for TableStyle {
    fn default() -> Self {
        TableStyle {
            cell_padding: 1.4,
            grid_width: 0.25,
            frame_width: 0.8,
            missing_box: 4.5,
            missing_column: 16.0,
            gap_after: 7.0,
            max_key_column: 0.35,
        }
    }
}

/// A page layout: paper, margins, fonts, colours, table geometry.
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Template {
    /// Paper size.
    pub paper: Paper,
    /// Portrait (the default) or landscape.
    pub orientation: Orientation,
    /// Columns of text on a page (chart cards; 1 elsewhere).
    pub columns: Option<usize>,
    /// Margins.
    pub margins: Margins,
    /// Font sizes.
    pub fonts: FontSizes,
    /// Colours.
    pub colours: Colours,
    /// Table geometry.
    pub table: TableStyle,
}

impl Template {
    /// The template with its type and table geometry scaled by `scale` (paper and margins
    /// kept): the same layout, set smaller.
    pub fn scaled(&self, scale: f32) -> Template {
        let mut template = self.clone();
        let f = &mut template.fonts;
        // Never below the least size (`min_table`): smaller type is not legible at the table.
        let least = f.min_table;
        for size in [&mut f.title, &mut f.subtitle, &mut f.body, &mut f.table] {
            *size = (*size * scale).max(least.min(*size));
        }
        let t = &mut template.table;
        t.cell_padding *= scale;
        t.missing_box *= scale;
        t.gap_after *= scale;
        template
    }

    /// Parses a template; `name` is used in error messages. Every refusal names the file, the
    /// line and the column (`sheet.yaml:7:10: …`), like the rules files' loader: of the YAML
    /// that does not read, or of the key whose value is impossible.
    pub fn parse(name: &str, text: &str) -> Result<Self, ReportError> {
        use umpire_core::rules::SourceFile;
        use umpire_core::rules::locate::YamlIndex;
        umpire_core::rules::limits::check_yaml_depth(name, text)
            .map_err(|e| ReportError::Template(e.to_string()))?;
        let template: Template = yaml_serde::from_str(text).map_err(|e| {
            let file = SourceFile {
                name: name.to_string(),
                text: text.to_string(),
            };
            ReportError::Template(umpire_core::rules::yaml_error(&file, &e).to_string())
        })?;
        template.check().map_err(|(path, what)| {
            // A key left out keeps its default: then its section, or the first line.
            let (line, column) = match YamlIndex::build(text).locate(&path) {
                (0, _) => (1, 1),
                at => at,
            };
            ReportError::Template(format!("{name}:{line}:{column}: {what}"))
        })?;
        Ok(template)
    }

    /// The shipped chart-sheet template.
    pub fn charts_default() -> Result<Self, ReportError> {
        Self::parse("templates/charts.yaml (embedded)", CHARTS_TEMPLATE)
    }

    /// The shipped scenario-sheet template.
    pub fn sheet_default() -> Result<Self, ReportError> {
        Self::parse("templates/sheet.yaml (embedded)", SHEET_TEMPLATE)
    }

    /// Reads a template file.
    pub fn read(path: &std::path::Path) -> Result<Self, ReportError> {
        // Refused unread past the rules files' size limit; a template is a page of settings.
        let text = umpire_core::rules::limits::read_text(path)
            .map_err(|e| ReportError::Template(format!("{}: {}", e.file, e.problem)))?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// The first impossible value, with the path of its key (for its line).
    fn check(&self) -> Result<(), (YamlPath, String)> {
        let at = |key: &str| {
            key.split('.')
                .fold(YamlPath::root(), |path, part| path.key(part))
        };
        let bad = |key: &str, what: &str| Err((at(key), what.to_string()));
        let (w, h) = self.page_mm();
        let m = self.margins;
        if self.columns.is_some_and(|c| !(1..=4).contains(&c)) {
            return bad("columns", "columns must be from 1 to 4");
        }
        let margins = [
            ("top", m.top),
            ("bottom", m.bottom),
            ("left", m.left),
            ("right", m.right),
        ];
        let wide = m.left + m.right > w * 0.6;
        let tall = m.top + m.bottom > h * 0.6;
        if let Some((key, _)) = margins
            .iter()
            .find(|(_, v)| *v < 0.0 || !v.is_finite())
            .or_else(|| wide.then_some(&margins[2]))
            .or_else(|| tall.then_some(&margins[0]))
        {
            return bad(
                &format!("margins.{key}"),
                "margins must be ≥ 0 and leave at least 40% of the page",
            );
        }
        let f = self.fonts;
        for (key, size) in [
            ("title", f.title),
            ("subtitle", f.subtitle),
            ("body", f.body),
            ("table", f.table),
            ("min_table", f.min_table),
            ("footer", f.footer),
        ] {
            if !(3.0..=72.0).contains(&size) {
                return bad(
                    &format!("fonts.{key}"),
                    "font sizes must be between 3 and 72 points",
                );
            }
        }
        if f.min_table > f.table {
            return bad(
                "fonts.min_table",
                "fonts.min_table (8 when left out) must not exceed fonts.table",
            );
        }
        let c = &self.colours;
        for (key, value) in [
            ("text", &c.text),
            ("muted", &c.muted),
            ("rule", &c.rule),
            ("header_fill", &c.header_fill),
            ("title_fill", &c.title_fill),
            ("title_text", &c.title_text),
            ("missing_box", &c.missing_box),
            ("stripe_fill", &c.stripe_fill),
        ] {
            if !value.is_empty() && parse_colour(value).is_none() {
                return bad(
                    &format!("colours.{key}"),
                    &format!("colours.{key}: '{value}' is not #RRGGBB"),
                );
            }
        }
        let t = self.table;
        let table = "table: max_key_column in 0.05–0.9, missing_box > 0, cell_padding ≥ 0";
        if !(0.05..=0.9).contains(&t.max_key_column) {
            return bad("table.max_key_column", table);
        }
        if t.missing_box.is_nan() || t.missing_box <= 0.0 {
            return bad("table.missing_box", table);
        }
        if t.cell_padding.is_nan() || t.cell_padding < 0.0 {
            return bad("table.cell_padding", table);
        }
        Ok(())
    }
}

/// `#RRGGBB` → (r, g, b) in 0–1.
pub fn parse_colour(hex: &str) -> Option<(f32, f32, f32)> {
    let digits = hex.trim().strip_prefix('#')?;
    if digits.len() != 6 || !digits.is_ascii() {
        return None;
    }
    let channel = |i: usize| {
        u8::from_str_radix(&digits[i..i + 2], 16)
            .ok()
            .map(|v| f32::from(v) / 255.0)
    };
    Some((channel(0)?, channel(2)?, channel(4)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_template_equals_the_defaults() {
        assert_eq!(Template::charts_default().unwrap(), Template::default());
    }

    #[test]
    fn bad_colour_is_reported_with_its_key() {
        let err = Template::parse("t", "colours: {rule: red}").unwrap_err();
        assert!(err.to_string().contains("colours.rule"), "{err}");
    }

    /// Every refusal of a template names the file and the line (and column) of what is wrong:
    /// YAML that does not read, an unknown key, a value of the wrong type, an impossible value.
    #[test]
    fn every_refusal_names_the_file_and_line() {
        for (text, at) in [
            ("paper: a4\ncolours:\n  rule: red\n", "t.yaml:3:9"),
            ("paper: a4\nfonts:\n  body: 100\n", "t.yaml:3:9"),
            ("fonts:\n  table: 8\n  min_table: 9\n", "t.yaml:3:14"),
            ("margins: {top: -1}\n", "t.yaml:1:16"),
            (
                "paper: a4\n\nmargins:\n  left: 100\n  right: 100\n",
                "t.yaml:4:9",
            ),
            ("columns: 9\n", "t.yaml:1:10"),
            ("table:\n  max_key_column: 2\n", "t.yaml:2:19"),
            ("paper: a4\npaper_size: a3\n", "t.yaml:2:"),
            ("paper: a5\n", "t.yaml:1:"),
            ("fonts:\n  body: big\n", "t.yaml:2:"),
            ("fonts: {body: 8\n", "t.yaml:"),
            (
                "orientation: landscape\nmargins:\n  top: 90\n  bottom: 90\n",
                "t.yaml:3:8",
            ),
        ] {
            let err = Template::parse("t.yaml", text).expect_err(text).to_string();
            assert!(err.contains(at), "{text:?}: {err}");
            let line: usize = err
                .split("t.yaml:")
                .nth(1)
                .and_then(|rest| rest.split(':').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            assert!(line >= 1, "{text:?}: no line in {err}");
        }
    }
}
