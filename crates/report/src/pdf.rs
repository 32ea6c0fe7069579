//! A small layout layer over printpdf: text runs and wrapped paragraphs, title bands, ruled
//! tables whose header repeats on every page they run onto, page breaks and a footer with page
//! numbers. Chart sheets use it now; turn reports and scenario sheets can reuse it.
//!
//! Coordinates are PDF points from the bottom-left corner; the writer keeps a cursor (`y`)
//! that moves down the page as blocks are added.

use std::collections::BTreeSet;

use printpdf::{
    Color, FontId, Line, LinePoint, Mm, Op, PaintMode, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Pt, Rect, Rgb, TextItem,
};

use super::error::ReportError;
use super::font::{BOLD_TTF, Face, REGULAR_TTF, Weight};
use super::subset::{strip_glyphs, subset_tag};
use super::template::{Template, parse_colour};

/// Points per millimetre.
pub const PT_PER_MM: f32 = 72.0 / 25.4;

/// Millimetres → points.
pub fn mm(v: f32) -> f32 {
    v * PT_PER_MM
}

/// An RGB colour in 0–1.
pub type Rgb3 = (f32, f32, f32);

/// How a run of text looks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextStyle {
    /// Size in points.
    pub size: f32,
    /// Regular or bold.
    pub weight: Weight,
    /// Colour.
    pub colour: Rgb3,
}

/// Horizontal alignment inside a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Flush left.
    Left,
    /// Centred.
    Centre,
}

/// A table cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GridCell {
    /// Text, wrapped to the column.
    Text(String),
    /// An empty box to fill in by hand (a value the rule text does not give).
    Blank,
}

/// A ruled table: header rows (repeated after each page break), body rows; column 0 holds the
/// row keys and is shaded like the header.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grid {
    /// Header rows; every row has the same number of cells as the body rows.
    pub header: Vec<Vec<GridCell>>,
    /// Body rows.
    pub rows: Vec<Vec<GridCell>>,
    /// Caption printed above the repeated header on a following page.
    pub continued: String,
}

impl Grid {
    /// The number of columns: the widest row's cells.
    pub fn columns(&self) -> usize {
        self.header
            .iter()
            .chain(&self.rows)
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    }
}

/// The PDF being written.
pub struct Writer {
    doc: PdfDocument,
    template: Template,
    regular: Face,
    bold: Face,
    regular_id: FontId,
    bold_id: FontId,
    pages: Vec<Vec<Op>>,
    page_w: f32,
    page_h: f32,
    y: f32,
    /// Columns on the page (1: the full width), the one being filled, and where the columns
    /// begin on this page (below what was set at full width).
    columns: usize,
    column: usize,
    column_top: f32,
    /// The lowest point set in the earlier columns of this page.
    lowest: f32,
    footer: String,
    used_regular: BTreeSet<u16>,
    used_bold: BTreeSet<u16>,
    /// A paragraph's line height, as a multiple of its type size.
    leading: f32,
}

/// Resolved template colours.
struct Palette {
    text: Rgb3,
    rule: Rgb3,
    header_fill: Option<Rgb3>,
    stripe_fill: Option<Rgb3>,
    missing_box: Rgb3,
}

fn colour_or(hex: &str, default: Rgb3) -> Rgb3 {
    parse_colour(hex).unwrap_or(default)
}

fn colour(c: Rgb3) -> Color {
    Color::Rgb(Rgb {
        r: c.0,
        g: c.1,
        b: c.2,
        icc_profile: None,
    })
}

fn point(x: f32, y: f32) -> Point {
    Point { x: Pt(x), y: Pt(y) }
}

impl Writer {
    /// Starts a document: `title` goes into the PDF's metadata, `footer` on every page.
    pub fn new(title: &str, footer: &str, template: Template) -> Result<Self, ReportError> {
        let regular = Face::from_bytes(REGULAR_TTF)?;
        let bold = Face::from_bytes(BOLD_TTF)?;
        let mut doc = PdfDocument::new(title);
        doc.metadata.info.creator = "umpire".into();
        doc.metadata.info.producer = "umpire (printpdf)".into();
        let regular_id = doc.add_font(&regular.parsed);
        let bold_id = doc.add_font(&bold.parsed);
        let (w, h) = template.page_mm();
        let mut writer = Writer {
            doc,
            regular,
            bold,
            regular_id,
            bold_id,
            pages: Vec::new(),
            page_w: mm(w),
            page_h: mm(h),
            y: 0.0,
            columns: 1,
            column: 0,
            column_top: 0.0,
            lowest: 0.0,
            footer: footer.to_string(),
            used_regular: BTreeSet::new(),
            used_bold: BTreeSet::new(),
            leading: Self::LEADING,
            template,
        };
        writer.new_page();
        Ok(writer)
    }

    /// A paragraph's usual line height, as a multiple of its type size.
    pub const LEADING: f32 = 1.3;

    /// Sets paragraphs' line height from here on, as a multiple of the type size (a register
    /// set close, like the Control log); [`Writer::LEADING`] is the usual.
    pub fn set_leading(&mut self, leading: f32) {
        self.leading = leading.clamp(1.0, 2.0);
    }

    /// The template in use.
    pub fn template(&self) -> &Template {
        &self.template
    }

    /// The face for a weight.
    pub fn face(&self, weight: Weight) -> &Face {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
        }
    }

    /// The gap between two columns.
    const COLUMN_GAP_MM: f32 = 6.0;

    /// Width of the page's text area, all columns together.
    fn full_width(&self) -> f32 {
        self.page_w - mm(self.template.margins.left) - mm(self.template.margins.right)
    }

    /// Left edge of the text area (of the column being filled).
    pub fn left(&self) -> f32 {
        mm(self.template.margins.left)
            + self.column as f32 * (self.content_width() + mm(Self::COLUMN_GAP_MM))
    }

    /// Width of the text area (of one column).
    pub fn content_width(&self) -> f32 {
        let gaps = (self.columns - 1) as f32 * mm(Self::COLUMN_GAP_MM);
        (self.full_width() - gaps) / self.columns as f32
    }

    /// Sets the text in `n` columns from here down (1: the full width again, below the
    /// longest column). A column that fills up goes on in the next, then on a new page.
    pub fn set_columns(&mut self, n: usize) {
        let n = n.max(1);
        if n == self.columns {
            return;
        }
        if self.columns > 1 {
            // Back to one column: below everything set on this page.
            self.y = self.y.min(self.column_top);
            if self.column > 0 {
                self.y = self.lowest.min(self.y);
            }
        }
        self.columns = n;
        self.column = 0;
        self.column_top = self.y;
        self.lowest = self.y;
    }

    fn top(&self) -> f32 {
        self.page_h - mm(self.template.margins.top)
    }

    fn bottom(&self) -> f32 {
        mm(self.template.margins.bottom)
    }

    /// Height left on the current page, in points.
    pub fn remaining(&self) -> f32 {
        self.y - self.bottom()
    }

    /// Whether nothing has been placed on the current page (or column) yet.
    pub fn at_page_top(&self) -> bool {
        (self.y - self.column_top).abs() < 0.01
    }

    /// Number of pages so far.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Starts a new page (in columns: the next column, then a new page).
    pub fn new_page(&mut self) {
        self.lowest = self.lowest.min(self.y);
        if self.columns > 1 && self.column + 1 < self.columns && !self.pages.is_empty() {
            self.column += 1;
            self.y = self.column_top;
            return;
        }
        self.pages.push(Vec::new());
        self.y = self.top();
        self.column = 0;
        self.column_top = self.y;
        self.lowest = self.y;
    }

    /// Starts a new page unless `height` points still fit on this one.
    pub fn ensure(&mut self, height: f32) {
        if self.remaining() < height && !self.at_page_top() {
            self.new_page();
        }
    }

    /// Moves the cursor down.
    pub fn space(&mut self, height: f32) {
        self.y -= height;
    }

    /// An outline entry (bookmark) to the current page.
    pub fn bookmark(&mut self, name: &str) {
        let page = self.pages.len();
        self.doc.add_bookmark(name, page);
    }

    fn ops(&mut self) -> &mut Vec<Op> {
        if self.pages.is_empty() {
            self.pages.push(Vec::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    /// Places one run of text with its baseline at (`x`, `y`).
    pub fn text_at(&mut self, x: f32, y: f32, text: &str, style: TextStyle) {
        if text.is_empty() {
            return;
        }
        let (font, face, used) = match style.weight {
            Weight::Regular => (
                self.regular_id.clone(),
                &self.regular,
                &mut self.used_regular,
            ),
            Weight::Bold => (self.bold_id.clone(), &self.bold, &mut self.used_bold),
        };
        used.extend(
            text.chars()
                .filter_map(|c| face.parsed.lookup_glyph_index(u32::from(c))),
        );
        self.ops().extend([
            Op::StartTextSection,
            Op::SetFont {
                font: PdfFontHandle::External(font),
                size: Pt(style.size),
            },
            Op::SetFillColor {
                col: colour(style.colour),
            },
            Op::SetTextCursor { pos: point(x, y) },
            Op::ShowText {
                items: vec![TextItem::Text(text.to_string())],
            },
            Op::EndTextSection,
        ]);
    }

    /// A filled rectangle (`x`, `y` the lower-left corner).
    pub fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Rgb3) {
        self.ops().extend([
            Op::SetFillColor { col: colour(fill) },
            Op::DrawRectangle {
                rectangle: Rect {
                    mode: Some(PaintMode::Fill),
                    ..Rect::from_xywh(Pt(x), Pt(y), Pt(w), Pt(h))
                },
            },
        ]);
    }

    /// An outlined rectangle (`x`, `y` the lower-left corner), `width` points thick.
    pub fn stroke_rect(&mut self, x: f32, y: f32, w: f32, h: f32, width: f32, stroke: Rgb3) {
        self.ops().extend([
            Op::SetOutlineColor {
                col: colour(stroke),
            },
            Op::SetOutlineThickness { pt: Pt(width) },
            Op::DrawRectangle {
                rectangle: Rect {
                    mode: Some(PaintMode::Stroke),
                    ..Rect::from_xywh(Pt(x), Pt(y), Pt(w), Pt(h))
                },
            },
        ]);
    }

    /// A straight line.
    pub fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, stroke: Rgb3) {
        self.ops().extend([
            Op::SetOutlineColor {
                col: colour(stroke),
            },
            Op::SetOutlineThickness { pt: Pt(width) },
            Op::DrawLine {
                line: Line {
                    points: vec![
                        LinePoint {
                            p: point(from.0, from.1),
                            bezier: false,
                        },
                        LinePoint {
                            p: point(to.0, to.1),
                            bezier: false,
                        },
                    ],
                    is_closed: false,
                },
            },
        ]);
    }

    /// A wrapped paragraph at the cursor, indented by `indent` points, breaking pages between
    /// lines. `lead` (e.g. "Notes:") is printed bold before the first line.
    pub fn paragraph(&mut self, lead: Option<&str>, text: &str, style: TextStyle, indent: f32) {
        let line_h = style.size * self.leading;
        let width = self.content_width() - indent;
        let bold = TextStyle {
            weight: Weight::Bold,
            ..style
        };
        let lead_w = lead.map_or(0.0, |l| self.bold.width(&format!("{l} "), style.size));
        // A short lead hangs (the text aligns after it); a long one gets a line of its own.
        let (lead, lead_w) = match lead {
            Some(l) if lead_w > width * 0.25 => {
                // On lines of its own, wrapped as the text is.
                let lead_lines = self.bold.wrap(l, style.size, width);
                self.ensure(line_h * (lead_lines.len() as f32 + 1.0));
                for l in &lead_lines {
                    self.text_at(self.left() + indent, self.y - style.size, l, bold);
                    self.y -= line_h;
                }
                (None, 0.0)
            }
            other => (other, lead_w),
        };
        let hang = lead_w;
        let lines = if text.trim().is_empty() && lead.is_none() {
            // A long lead alone (a table's caption) is its own line, without an empty one.
            Vec::new()
        } else {
            self.face(style.weight)
                .wrap(text.trim(), style.size, width - lead_w)
        };
        // No widows or orphans: a short paragraph is kept whole, a long one breaks with two
        // lines at least on each side.
        let n = lines.len();
        for (i, line) in lines.iter().enumerate() {
            let keep = if n <= 3 {
                if i == 0 { n } else { 1 }
            } else if i == 0 || i == n - 2 {
                2
            } else {
                1
            };
            self.ensure(line_h * keep as f32);
            let baseline = self.y - style.size;
            // A paragraph that runs on into the next column goes on at that column's edge.
            let mut x = self.left() + indent;
            if i == 0
                && let Some(l) = lead
            {
                self.text_at(x, baseline, l, bold);
                x += lead_w;
            } else {
                x += hang;
            }
            self.text_at(x, baseline, line, style);
            self.y -= line_h;
        }
    }

    /// The height [`Writer::paragraph`] takes for the same arguments (at one column's width),
    /// to keep a caption with what follows it.
    pub fn paragraph_height(
        &self,
        lead: Option<&str>,
        text: &str,
        style: TextStyle,
        indent: f32,
    ) -> f32 {
        let line_h = style.size * self.leading;
        let width = self.content_width() - indent;
        let lead_w = lead.map_or(0.0, |l| self.bold.width(&format!("{l} "), style.size));
        let (own_line, lead_w) = match lead {
            Some(l) if lead_w > width * 0.25 => {
                (self.bold.wrap(l, style.size, width).len() as f32, 0.0)
            }
            _ => (0.0, lead_w),
        };
        let lines = if text.trim().is_empty() && own_line > 0.0 {
            0
        } else {
            self.face(style.weight)
                .wrap(text.trim(), style.size, width - lead_w)
                .len()
        };
        (own_line + lines as f32) * line_h
    }

    /// A section heading: bold text over a thin rule, kept with the next `keep` points; a long
    /// heading wraps.
    pub fn heading(&mut self, text: &str, size: f32, colour: Rgb3, keep: f32) {
        let lines = self.bold.wrap(text, size, self.content_width());
        let extra = lines.len().saturating_sub(1) as f32 * size * 1.2;
        self.ensure(size * 2.2 + extra + keep);
        self.space(size * 0.5);
        let style = TextStyle {
            size,
            weight: Weight::Bold,
            colour,
        };
        for (i, line) in lines.iter().enumerate() {
            let baseline = self.y - size - i as f32 * size * 1.2;
            self.text_at(self.left(), baseline, line, style);
        }
        self.y -= size * 1.35 + extra;
        let (x, w) = (self.left(), self.content_width());
        self.line((x, self.y), (x + w, self.y), 0.6, colour);
        self.space(size * 0.4);
    }

    /// The title lines of a band and the room they have: a long title wraps rather than
    /// losing its end.
    fn band_lines(&self, text: &str, right: &str, style: TextStyle) -> Vec<String> {
        let pad = mm(1.6);
        let right_size = (style.size * 0.7).max(self.template.fonts.min_table.min(style.size));
        let right_w = self.regular.width(right, right_size);
        let title_room = self.content_width() - 2.0 * pad - right_w - mm(4.0);
        let mut lines = self.face(style.weight).wrap(text, style.size, title_room);
        // Three lines at most; the rest is cut with an ellipsis.
        if lines.len() > 3 {
            let rest = lines[2..].join(" ");
            lines.truncate(2);
            lines.push(fit(self.face(style.weight), &rest, style.size, title_room));
        }
        lines
    }

    /// The height of a [`Writer::band`] with this title in `style`.
    pub fn band_height(&self, text: &str, right: &str, style: TextStyle) -> f32 {
        let lines = self.band_lines(text, right, style).len().max(1) as f32;
        style.size * 1.25 * lines + 2.0 * mm(1.6)
    }

    /// A full-width band with text on it (a chart title); a long title wraps in the band.
    pub fn band(&mut self, text: &str, right: &str, style: TextStyle, fill: Option<Rgb3>) {
        let pad = mm(1.6);
        let lines = self.band_lines(text, right, style);
        let h = self.band_height(text, right, style);
        self.ensure(h);
        let (x, w) = (self.left(), self.content_width());
        if let Some(f) = fill {
            self.fill_rect(x, self.y - h, w, h, f);
        }
        let baseline = self.y - pad - style.size * 0.95;
        let right_style = TextStyle {
            size: (style.size * 0.7).max(self.template.fonts.min_table.min(style.size)),
            weight: Weight::Regular,
            ..style
        };
        let right_w = self.regular.width(right, right_style.size);
        for (i, line) in lines.iter().enumerate() {
            self.text_at(
                x + pad,
                baseline - i as f32 * style.size * 1.25,
                line,
                style,
            );
        }
        self.text_at(x + w - pad - right_w, baseline, right, right_style);
        self.y -= h;
    }

    fn palette(&self) -> Palette {
        let c = &self.template.colours;
        Palette {
            text: colour_or(&c.text, (0.0, 0.0, 0.0)),
            rule: colour_or(&c.rule, (0.2, 0.2, 0.2)),
            header_fill: parse_colour(&c.header_fill),
            stripe_fill: parse_colour(&c.stripe_fill),
            missing_box: colour_or(&c.missing_box, (0.0, 0.0, 0.0)),
        }
    }

    /// Height of a table's header rows and first three body rows as [`Writer::table`] lays
    /// them out: what a caller keeps together with a title placed above the table.
    pub fn table_lead_height(&self, grid: &Grid) -> f32 {
        self.table_height_of(grid, 3)
    }

    /// The height of a whole table, to keep it in one column or page when it fits one.
    pub fn table_height(&self, grid: &Grid) -> f32 {
        self.table_height_of(grid, usize::MAX)
    }

    /// The height of the table's header and its first `rows` rows (of every part, when the
    /// table is split by columns to fit the width).
    fn table_height_of(&self, grid: &Grid, rows: usize) -> f32 {
        let parts = self.split_by_columns(grid);
        let captions = (parts.len() - 1) as f32 * self.continued_height();
        parts
            .iter()
            .map(|g| self.part_height_of(g, rows))
            .sum::<f32>()
            + captions
    }

    /// The height of a continued table's caption.
    fn continued_height(&self) -> f32 {
        self.template
            .fonts
            .min_table
            .max(self.template.fonts.table * 0.9)
            * 1.6
    }

    /// A table too wide for the text width even at the least type size, as parts of it that
    /// fit: each with the key column and as many of the other columns as fit beside it (a wide
    /// chart split by columns rather than set off the page).
    pub fn split_by_columns(&self, grid: &Grid) -> Vec<Grid> {
        let ncols = grid.columns();
        if ncols < 3 {
            return vec![grid.clone()];
        }
        let style = self.template.table;
        let pad = mm(style.cell_padding);
        let box_side = mm(style.missing_box);
        let size = self.template.fonts.min_table;
        let (_, minimum) = self.natural_and_minimum(grid, ncols, pad, box_side, size);
        let avail = self.content_width();
        if minimum.iter().sum::<f32>() <= avail {
            return vec![grid.clone()];
        }
        let mut groups: Vec<Vec<usize>> = vec![Vec::new()];
        let mut used = minimum[0];
        for (c, w) in minimum.iter().enumerate().skip(1) {
            let current = groups.last().map_or(0, Vec::len);
            if current > 0 && used + w > avail {
                groups.push(Vec::new());
                used = minimum[0];
            }
            used += w;
            if let Some(g) = groups.last_mut() {
                g.push(c);
            }
        }
        // As many parts, the columns shared evenly among them when they fit so (not nine
        // columns and then one).
        let per = (ncols - 1).div_ceil(groups.len());
        let even: Vec<Vec<usize>> = (1..ncols)
            .collect::<Vec<_>>()
            .chunks(per)
            .map(<[usize]>::to_vec)
            .collect();
        if even.len() == groups.len()
            && even
                .iter()
                .all(|g| minimum[0] + g.iter().map(|c| minimum[*c]).sum::<f32>() <= avail)
        {
            groups = even;
        }
        let pick = |row: &Vec<GridCell>, cols: &[usize]| -> Vec<GridCell> {
            std::iter::once(0)
                .chain(cols.iter().copied())
                .map(|c| row.get(c).cloned().unwrap_or(GridCell::Text(String::new())))
                .collect()
        };
        groups
            .iter()
            .map(|cols| Grid {
                header: grid.header.iter().map(|r| pick(r, cols)).collect(),
                rows: grid.rows.iter().map(|r| pick(r, cols)).collect(),
                continued: grid.continued.clone(),
            })
            .collect()
    }

    /// The height of one part of a table: its header and its first `rows` rows.
    fn part_height_of(&self, grid: &Grid, rows: usize) -> f32 {
        let ncols = grid.columns();
        if ncols == 0 {
            return 0.0;
        }
        let style = self.template.table;
        let pad = mm(style.cell_padding);
        let box_side = mm(style.missing_box);
        let (size, widths) = self.column_widths(grid, ncols, pad, box_side);
        let line_h = size * 1.2;
        let row_h = |row: &[GridCell], header: bool| -> f32 {
            let base = if row.contains(&GridCell::Blank) {
                box_side
            } else {
                line_h
            };
            widths
                .iter()
                .enumerate()
                .map(|(c, w)| match row.get(c) {
                    Some(GridCell::Text(t)) => {
                        let weight = if header || c == 0 {
                            Weight::Bold
                        } else {
                            Weight::Regular
                        };
                        self.face(weight).wrap(t, size, w - 2.0 * pad).len() as f32 * line_h
                    }
                    _ => 0.0,
                })
                .fold(base, f32::max)
                + 2.0 * pad
        };
        grid.header.iter().map(|r| row_h(r, true)).sum::<f32>()
            + grid
                .rows
                .iter()
                .take(rows)
                .map(|r| row_h(r, false))
                .sum::<f32>()
    }

    /// The height of a page's (or column's) text area.
    pub fn column_height(&self) -> f32 {
        self.top() - self.bottom()
    }

    /// Lays out and draws a ruled table at the cursor. When the next row does not fit, the
    /// table continues on a new page under its `continued` caption and its header rows again.
    /// A table too wide for the text width is set in parts by columns, one under the other,
    /// each with the key column and under the `continued` caption.
    pub fn table(&mut self, grid: &Grid) {
        for (i, part) in self.split_by_columns(grid).iter().enumerate() {
            if i > 0 {
                let size = self
                    .template
                    .fonts
                    .min_table
                    .max(self.template.fonts.table * 0.9);
                let caption = TextStyle {
                    size,
                    weight: Weight::Bold,
                    colour: self.palette().text,
                };
                self.ensure(self.continued_height() + self.part_height_of(part, 3));
                self.space(size * 0.6);
                self.text_at(self.left(), self.y - size, &part.continued, caption);
                self.y -= size;
            }
            self.table_part(part);
        }
    }

    /// Lays out and draws one part of a table (all of it, when it fits the width).
    fn table_part(&mut self, grid: &Grid) {
        let ncols = grid.columns();
        if ncols == 0 {
            return;
        }
        let style = self.template.table;
        let pad = mm(style.cell_padding);
        let box_side = mm(style.missing_box);
        let (size, widths) = self.column_widths(grid, ncols, pad, box_side);
        let line_h = size * 1.2;
        let palette = self.palette();
        // Where the table starts (it moves when the table goes on in the next column).
        let mut x0 = self.left();
        let table_w: f32 = widths.iter().sum();
        // Keys and wide text columns read best flush left; short codes centred.
        let aligns: Vec<Align> = widths
            .iter()
            .enumerate()
            .map(|(c, w)| {
                if c == 0 || *w > mm(32.0) {
                    Align::Left
                } else {
                    Align::Centre
                }
            })
            .collect();

        let layout = |writer: &Writer, row: &[GridCell], header: bool| -> (Vec<Vec<String>>, f32) {
            let mut lines = Vec::new();
            let has_blank = row.contains(&GridCell::Blank);
            let mut h: f32 = if has_blank { box_side } else { line_h } + 2.0 * pad;
            for (c, w) in widths.iter().enumerate() {
                let weight = if header || c == 0 {
                    Weight::Bold
                } else {
                    Weight::Regular
                };
                let cell_lines = match row.get(c) {
                    Some(GridCell::Text(t)) => writer.face(weight).wrap(t, size, w - 2.0 * pad),
                    _ => Vec::new(),
                };
                h = h.max(cell_lines.len() as f32 * line_h + 2.0 * pad);
                lines.push(cell_lines);
            }
            (lines, h)
        };
        let headers: Vec<_> = grid
            .header
            .iter()
            .map(|r| (r.clone(), layout(self, r, true)))
            .collect();
        let header_h: f32 = headers.iter().map(|(_, (_, h))| h).sum();
        let bodies: Vec<_> = grid
            .rows
            .iter()
            .map(|r| (r.clone(), layout(self, r, false)))
            .collect();

        // Keep the header with at least the first rows.
        let first_rows: f32 = bodies.iter().take(3).map(|(_, (_, h))| h).sum();
        self.ensure(header_h + first_rows);
        let mut segment_top = self.y;
        let draw_headers = |writer: &mut Writer| {
            for (row, (lines, h)) in &headers {
                writer.grid_row(
                    row, lines, *h, &widths, &aligns, size, true, false, &palette,
                );
            }
            if !headers.is_empty() {
                let x = writer.left();
                writer.line(
                    (x, writer.y),
                    (x + table_w, writer.y),
                    style.frame_width,
                    palette.rule,
                );
            }
        };
        draw_headers(self);
        for (i, (row, (lines, h))) in bodies.iter().enumerate() {
            if self.remaining() < *h {
                self.frame(x0, segment_top, table_w, style.frame_width, palette.rule);
                self.new_page();
                x0 = self.left();
                let caption = TextStyle {
                    size: size.max(self.template.fonts.min_table),
                    weight: Weight::Bold,
                    colour: palette.text,
                };
                self.text_at(x0, self.y - caption.size, &grid.continued, caption);
                self.y -= caption.size * 1.6;
                segment_top = self.y;
                draw_headers(self);
            }
            self.grid_row(
                row,
                lines,
                *h,
                &widths,
                &aligns,
                size,
                false,
                i % 2 == 1,
                &palette,
            );
        }
        self.frame(x0, segment_top, table_w, style.frame_width, palette.rule);
    }

    fn frame(&mut self, x: f32, top: f32, w: f32, width: f32, stroke: Rgb3) {
        let h = top - self.y;
        if h > 0.0 {
            self.stroke_rect(x, self.y, w, h, width, stroke);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn grid_row(
        &mut self,
        row: &[GridCell],
        lines: &[Vec<String>],
        h: f32,
        widths: &[f32],
        aligns: &[Align],
        size: f32,
        header: bool,
        stripe: bool,
        palette: &Palette,
    ) {
        let style = self.template.table;
        let pad = mm(style.cell_padding);
        let box_side = mm(style.missing_box);
        let line_h = size * 1.2;
        let bottom = self.y - h;
        let mut x = self.left();
        for (c, w) in widths.iter().enumerate() {
            let fill = if header || c == 0 {
                palette.header_fill
            } else if stripe {
                palette.stripe_fill
            } else {
                None
            };
            if let Some(f) = fill {
                self.fill_rect(x, bottom, *w, h, f);
            }
            self.stroke_rect(x, bottom, *w, h, style.grid_width, palette.rule);
            match row.get(c) {
                Some(GridCell::Blank) => {
                    let box_w = (w - 2.0 * pad).max(box_side);
                    let bx = x + (w - box_w) / 2.0;
                    let by = bottom + (h - box_side) / 2.0;
                    self.fill_rect(bx, by, box_w, box_side, (1.0, 1.0, 1.0));
                    self.stroke_rect(bx, by, box_w, box_side, 0.6, palette.missing_box);
                }
                Some(GridCell::Text(_)) => {
                    let weight = if header || c == 0 {
                        Weight::Bold
                    } else {
                        Weight::Regular
                    };
                    let cell_lines = lines.get(c).map_or(&[][..], Vec::as_slice);
                    let text_h = cell_lines.len() as f32 * line_h;
                    let mut baseline = bottom + (h + text_h) / 2.0 - size * 0.93;
                    let text_style = TextStyle {
                        size,
                        weight,
                        colour: palette.text,
                    };
                    let align = if header && c > 0 {
                        Align::Centre
                    } else {
                        aligns.get(c).copied().unwrap_or(Align::Left)
                    };
                    for l in cell_lines {
                        let lw = self.face(weight).width(l, size);
                        let lx = match align {
                            Align::Left => x + pad,
                            Align::Centre => x + (w - lw) / 2.0,
                        };
                        self.text_at(lx, baseline, l, text_style);
                        baseline -= line_h;
                    }
                }
                None => {}
            }
            x += w;
        }
        self.y = bottom;
    }

    /// Font size and column widths so the table fits the text width: columns keep their
    /// natural width when they can; the rest share what is left, never below their longest
    /// word; the font shrinks (down to `fonts.min_table`) when even that does not fit.
    fn column_widths(&self, grid: &Grid, ncols: usize, pad: f32, box_side: f32) -> (f32, Vec<f32>) {
        let avail = self.content_width();
        let fonts = self.template.fonts;
        let mut size = fonts.table;
        loop {
            let (natural, minimum) = self.natural_and_minimum(grid, ncols, pad, box_side, size);
            if natural.iter().sum::<f32>() <= avail {
                return (size, natural);
            }
            if minimum.iter().sum::<f32>() <= avail || size <= fonts.min_table {
                let mut widths = share(&natural, &minimum, avail);
                // Still too wide (a word longer than its column): narrower columns, the long
                // words broken, rather than a table off the page.
                let total: f32 = widths.iter().sum();
                if total > avail {
                    widths.iter_mut().for_each(|w| *w *= avail / total);
                }
                return (size, widths);
            }
            size = (size - 0.5).max(fonts.min_table);
        }
    }

    /// Each column's natural width (its widest line) and its least (its longest word), at
    /// `size`; the key column capped at its share of the width.
    fn natural_and_minimum(
        &self,
        grid: &Grid,
        ncols: usize,
        pad: f32,
        box_side: f32,
        size: f32,
    ) -> (Vec<f32>, Vec<f32>) {
        let avail = self.content_width();
        let mut natural = vec![box_side + 2.0 * pad; ncols];
        let mut minimum = natural.clone();
        let blank_w = mm(self.template.table.missing_column);
        for (r, row) in grid.header.iter().chain(&grid.rows).enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let GridCell::Text(t) = cell else {
                    natural[c] = natural[c].max(blank_w);
                    continue;
                };
                let weight = if r < grid.header.len() || c == 0 {
                    Weight::Bold
                } else {
                    Weight::Regular
                };
                let face = self.face(weight);
                let widest_line = t
                    .split('\n')
                    .map(|l| face.width(l, size))
                    .fold(0.0, f32::max);
                natural[c] = natural[c].max(widest_line + 2.0 * pad);
                minimum[c] = minimum[c].max(face.longest_word(t, size) + 2.0 * pad);
            }
        }
        // Value columns at least a little wider than their contents, for writing in.
        for n in natural.iter_mut().skip(1) {
            *n = n.max(mm(11.0));
        }
        let key_cap = avail * self.template.table.max_key_column;
        natural[0] = natural[0].min(key_cap.max(minimum[0]));
        (natural, minimum)
    }

    /// Writes the footer on every page and returns the PDF bytes (fonts subset and embedded).
    /// How much has been set, in pages: the full pages before the last, and the share of the
    /// last page's columns filled (a last page with one short card on it is 1.1 of 2).
    pub fn pages_used(&self) -> f32 {
        let full = self.pages.len().saturating_sub(1) as f32;
        let height = (self.column_top - self.bottom()).max(1.0);
        let in_column = ((self.column_top - self.y) / height).clamp(0.0, 1.0);
        full + (self.column as f32 + in_column) / self.columns as f32
    }

    pub fn finish(mut self) -> Vec<u8> {
        let total = self.pages.len();
        let size = self.template.fonts.footer;
        let muted = colour_or(&self.template.colours.muted, (0.3, 0.3, 0.3));
        let style = TextStyle {
            size,
            weight: Weight::Regular,
            colour: muted,
        };
        let baseline = mm(self.template.margins.bottom) / 2.0;
        let footer = self.footer.clone();
        // The footer runs across the page, whatever the columns.
        self.columns = 1;
        self.column = 0;
        let pages = std::mem::take(&mut self.pages);
        let mut built = Vec::with_capacity(total);
        let (w_mm, h_mm) = self.template.page_mm();
        for (i, ops) in pages.into_iter().enumerate() {
            self.pages = vec![ops];
            let right = format!("page {} of {total}", i + 1);
            let right_w = self.regular.width(&right, size);
            let left_x = self.left();
            let room = self.content_width() - right_w - mm(5.0);
            let left_text = fit(&self.regular, &footer, size, room);
            self.text_at(left_x, baseline, &left_text, style);
            self.text_at(
                left_x + self.content_width() - right_w,
                baseline,
                &right,
                style,
            );
            let ops = self.pages.pop().unwrap_or_default();
            built.push(PdfPage::new(Mm(w_mm), Mm(h_mm), ops));
        }
        self.subset_fonts();
        let options = PdfSaveOptions {
            subset_fonts: true,
            ..PdfSaveOptions::default()
        };
        self.doc.with_pages(built).save(&options, &mut Vec::new())
    }
}

impl Writer {
    /// Replaces each embedded face by a copy holding only the glyphs used, named with a
    /// subset tag (`ABCDEF+DejaVuSans`); a face that cannot be stripped is embedded whole.
    fn subset_fonts(&mut self) {
        let faces = [
            (
                &self.regular_id,
                REGULAR_TTF,
                &self.used_regular,
                "DejaVuSans",
            ),
            (&self.bold_id, BOLD_TTF, &self.used_bold, "DejaVuSans-Bold"),
        ];
        for (id, ttf, used, name) in faces {
            let Some(bytes) = strip_glyphs(ttf, used) else {
                continue;
            };
            let Ok(face) = Face::from_bytes(&bytes) else {
                continue;
            };
            let mut parsed = face.parsed;
            parsed.font_name = Some(format!("{}+{name}", subset_tag(used)));
            if let Some(font) = self.doc.resources.fonts.map.get_mut(id) {
                font.parsed_font = parsed;
            }
        }
    }
}

/// `text` cut with an ellipsis to fit `width` points.
fn fit(face: &Face, text: &str, size: f32, width: f32) -> String {
    if face.width(text, size) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        out.push(c);
        if face.width(&format!("{out}…"), size) > width {
            out.pop();
            break;
        }
    }
    format!("{}…", out.trim_end())
}

/// Shares `avail` among columns that do not all fit at their natural width: each gets its
/// minimum (longest word) plus a share of what is left in proportion to how much more it
/// would like (the automatic table layout of CSS).
fn share(natural: &[f32], minimum: &[f32], avail: f32) -> Vec<f32> {
    let min_sum: f32 = minimum.iter().sum();
    let want: f32 = natural
        .iter()
        .zip(minimum)
        .map(|(n, m)| (n - m).max(0.0))
        .sum();
    if want <= 0.0 || min_sum >= avail {
        return minimum.to_vec();
    }
    let ratio = ((avail - min_sum) / want).min(1.0);
    natural
        .iter()
        .zip(minimum)
        .map(|(n, m)| m + (n - m).max(0.0) * ratio)
        .collect()
}

/// Whether a document of `used` pages (see [`Writer::pages_used`]) ends on a stray page: more
/// than one page, the last under 30 % set (a page under a quarter full is a page wasted).
fn ends_on_a_stray_page(used: f32) -> bool {
    let last = used.fract();
    used > 1.0 && last > 0.0 && last < 0.3
}

/// Sets a document with `build`, and when its last page is a stray one (a few lines on it),
/// sets it again: first with the type a little smaller by 5 % steps (to `smallest` at the
/// least, and never under the template's least size, `fonts.min_table`) when that saves the
/// page; else a little larger (to 130 %) until the last page holds a fair share. A page with a
/// few lines on it is a page too many to print and to hand out.
pub fn without_a_stray_page<E>(
    template: &Template,
    smallest: f32,
    build: impl Fn(Template) -> Result<Writer, E>,
) -> Result<Vec<u8>, E> {
    let writer = build(template.clone())?;
    let used = writer.pages_used();
    if !ends_on_a_stray_page(used) {
        return Ok(writer.finish());
    }
    let mut scale = 0.95;
    while scale >= smallest - 0.001 {
        let smaller = build(template.scaled(scale))?;
        let fewer = smaller.pages_used();
        if fewer.ceil() < used.ceil() && !ends_on_a_stray_page(fewer) {
            return Ok(smaller.finish());
        }
        scale -= 0.05;
    }
    let mut scale = 1.05;
    while scale <= 1.301 {
        let larger = build(template.scaled(scale))?;
        if !ends_on_a_stray_page(larger.pages_used()) {
            return Ok(larger.finish());
        }
        scale += 0.05;
    }
    Ok(writer.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_fills_the_width_in_proportion_to_what_columns_want() {
        let w = share(&[10.0, 100.0, 200.0], &[5.0, 20.0, 20.0], 155.0);
        assert!((w.iter().sum::<f32>() - 155.0).abs() < 0.01, "{w:?}");
        assert!(w[0] >= 5.0 && w[1] >= 20.0 && w[2] > w[1], "{w:?}");
    }
}

/// The styles a handout sheet sets its text in, read off its template once: the ink and the
/// accent colours, body and small text, and the title and table sizes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PageStyle {
    /// The text colour.
    pub ink: (f32, f32, f32),
    /// The headings' colour.
    pub accent: (f32, f32, f32),
    /// Body text.
    pub body: TextStyle,
    /// Small, muted text.
    pub small: TextStyle,
    /// The size of titles and headings.
    pub title_size: f32,
    /// The size of table text.
    pub table_size: f32,
}

impl PageStyle {
    /// The styles of `t` (a colour the template gives badly falls back to black, grey, ink).
    pub(crate) fn of(t: &super::template::Template) -> PageStyle {
        use super::template::parse_colour;
        let ink = parse_colour(&t.colours.text).unwrap_or((0.0, 0.0, 0.0));
        let muted = parse_colour(&t.colours.muted).unwrap_or((0.3, 0.3, 0.3));
        let accent = parse_colour(&t.colours.title_fill).unwrap_or(ink);
        PageStyle {
            ink,
            accent,
            body: TextStyle {
                size: t.fonts.body,
                weight: Weight::Regular,
                colour: ink,
            },
            small: TextStyle {
                size: t.fonts.subtitle,
                weight: Weight::Regular,
                colour: muted,
            },
            title_size: t.fonts.title,
            table_size: t.fonts.table,
        }
    }

    /// Text in the ink colour at `size` and `weight`.
    pub(crate) fn style(&self, size: f32, weight: Weight) -> TextStyle {
        TextStyle {
            size,
            weight,
            colour: self.ink,
        }
    }
}
