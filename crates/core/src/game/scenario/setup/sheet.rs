//! One spreadsheet sheet saved as CSV: a UTF-8 byte-order mark dropped, the separator found
//! from the header row (`,`, `;` as European LibreOffice and Excel write it, or a tab), quoted
//! fields, blank rows skipped; each row keeps the line it starts on, for the errors.

use super::ImportProblem;

/// The largest sheet read (a briefing pack is a few hundred rows).
const MAX_SHEET_BYTES: u64 = 8 * 1024 * 1024;

/// A sheet: its file name, header row and rows.
#[derive(Debug, Clone)]
pub struct Sheet {
    /// The file name (`armies.csv`), as errors name it.
    pub file: String,
    /// The header row, as written.
    pub headers: Vec<String>,
    /// The line of the header row.
    pub header_line: u64,
    /// The rows with something in them.
    pub rows: Vec<Row>,
}

/// One row of a sheet.
#[derive(Debug, Clone)]
pub struct Row {
    /// The line of the file it starts on (1 is the first line).
    pub line: u64,
    /// Its cells, trimmed.
    pub cells: Vec<String>,
}

impl Sheet {
    /// The index of a column, by its header (any case; spaces read as `_`).
    pub fn column(&self, name: &str) -> Option<usize> {
        self.headers.iter().position(|h| header_key(h) == name)
    }

    /// A row's cell in a column, if the column is there and the cell is not empty.
    pub fn cell<'r>(&self, row: &'r Row, name: &str) -> Option<&'r str> {
        let i = self.column(name)?;
        row.cells
            .get(i)
            .map(String::as_str)
            .filter(|c| !c.is_empty())
    }
}

/// A header as a column name: trimmed, lower case, spaces and dashes as `_`.
pub fn header_key(h: &str) -> String {
    h.trim().to_lowercase().replace([' ', '-'], "_")
}

/// The separator of a sheet: the one of `,`, `;` and tab found most in its first non-empty line
/// (outside quotes).
fn separator(text: &[u8]) -> u8 {
    let first = text
        .split(|b| *b == b'\n')
        .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
        .unwrap_or_default();
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for b in first {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => counts[0] += 1,
            b';' if !quoted => counts[1] += 1,
            b'\t' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    let seps = [b',', b';', b'\t'];
    let best = (0..3).max_by_key(|i| (counts[*i], 3 - i)).unwrap_or(0);
    seps[best]
}

/// The line (1 is the first) of a byte offset.
fn line_at(bytes: &[u8], offset: u64) -> u64 {
    let mut end = usize::try_from(offset)
        .unwrap_or(usize::MAX)
        .min(bytes.len());
    // A record's position may be the blank lines before it.
    while end < bytes.len() && matches!(bytes[end], b'\n' | b'\r') {
        end += 1;
    }
    1 + bytes[..end].iter().filter(|b| **b == b'\n').count() as u64
}

/// Reads a sheet from its bytes.
pub fn parse_sheet(file: &str, bytes: &[u8]) -> Result<Sheet, ImportProblem> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let problem = |line: u64, what: String| ImportProblem::at(file, Some(line), None, what);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator(bytes))
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut headers: Option<(u64, Vec<String>)> = None;
    let mut rows = Vec::new();
    for record in reader.byte_records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| line_at(bytes, p.byte()));
            problem(line, format!("cannot be read as CSV: {e}"))
        })?;
        // The line from the byte offset: the reader's own line count skips blank lines.
        let line = record.position().map_or(0, |p| line_at(bytes, p.byte()));
        let mut cells = Vec::with_capacity(record.len());
        for field in &record {
            let text = std::str::from_utf8(field).map_err(|_| {
                problem(
                    line,
                    "is not UTF-8 text — save the sheet as CSV with the UTF-8 character set".into(),
                )
            })?;
            cells.push(text.trim().to_string());
        }
        if cells.iter().all(String::is_empty) {
            continue;
        }
        if headers.is_none() {
            headers = Some((line, cells));
        } else {
            rows.push(Row { line, cells });
        }
    }
    let Some((header_line, headers)) = headers else {
        return Err(ImportProblem::at(
            file,
            None,
            None,
            "is empty: it needs a header row (the template's first line)".into(),
        ));
    };
    Ok(Sheet {
        file: file.to_string(),
        headers,
        header_line,
        rows,
    })
}

/// Reads a sheet file (at most 8 MB).
pub fn read_sheet(path: &std::path::Path) -> Result<Sheet, ImportProblem> {
    use std::io::Read;
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let cannot =
        |e: std::io::Error| ImportProblem::at(&file, None, None, format!("cannot be read: {e}"));
    let f = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    f.take(MAX_SHEET_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_SHEET_BYTES {
        return Err(ImportProblem::at(
            &file,
            None,
            None,
            format!("is larger than {} MB", MAX_SHEET_BYTES / 1024 / 1024),
        ));
    }
    parse_sheet(&file, &bytes)
}
