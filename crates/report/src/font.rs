//! The embedded font: DejaVu Sans (Bitstream Vera licence, `templates/fonts/LICENSE-DejaVu.txt`),
//! covering accented Latin and the symbols the engine writes (− × ≤ ≥ → ⌈ ⌉ ⌊ ⌋ …). printpdf
//! subsets it on save, so a PDF carries only the glyphs it uses.

use printpdf::ParsedFont;

use super::error::ReportError;

/// DejaVu Sans, regular.
pub const REGULAR_TTF: &[u8] = include_bytes!("../../../templates/fonts/DejaVuSans.ttf");
/// DejaVu Sans, bold.
pub const BOLD_TTF: &[u8] = include_bytes!("../../../templates/fonts/DejaVuSans-Bold.ttf");

/// Regular or bold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    /// Body text.
    Regular,
    /// Titles, headings, row keys.
    Bold,
}

/// A parsed face with what text measurement needs.
#[derive(Debug, Clone)]
pub struct Face {
    /// The parsed font handed to printpdf.
    pub parsed: ParsedFont,
    units_per_em: f32,
    fallback_advance: u16,
}

impl Face {
    /// Parses a TrueType font.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ReportError> {
        let parsed = ParsedFont::from_bytes(bytes, 0, &mut Vec::new())
            .ok_or_else(|| ReportError::Font("the embedded TTF does not parse".into()))?;
        let units_per_em = f32::from(parsed.units_per_em.max(1));
        let fallback_advance = parsed
            .lookup_glyph_index(u32::from('?'))
            .and_then(|g| parsed.get_glyph_width(g))
            .unwrap_or(parsed.units_per_em / 2);
        Ok(Face {
            parsed,
            units_per_em,
            fallback_advance,
        })
    }

    /// Whether the face has a glyph for `c`.
    pub fn covers(&self, c: char) -> bool {
        self.parsed.lookup_glyph_index(u32::from(c)).is_some()
    }

    /// Advance width of `text` at `size` points, in points (no kerning, as printed).
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let units: u32 = text
            .chars()
            .map(|c| {
                let advance = self
                    .parsed
                    .lookup_glyph_index(u32::from(c))
                    .and_then(|g| self.parsed.get_glyph_width(g))
                    .unwrap_or(self.fallback_advance);
                u32::from(advance)
            })
            .sum();
        units as f32 * size / self.units_per_em
    }

    /// Breaks `text` into lines no wider than `max_width` points: at spaces, and inside a word
    /// only when the word alone is too wide. Explicit newlines are kept.
    pub fn wrap(&self, text: &str, size: f32, max_width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for paragraph in text.split('\n') {
            let mut line = String::new();
            for word in paragraph.split_whitespace() {
                let candidate = if line.is_empty() {
                    word.to_string()
                } else {
                    format!("{line} {word}")
                };
                if self.width(&candidate, size) <= max_width {
                    line = candidate;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                // The word alone: split it by characters if it still does not fit.
                for c in word.chars() {
                    let mut next = line.clone();
                    next.push(c);
                    if !line.is_empty() && self.width(&next, size) > max_width {
                        lines.push(std::mem::take(&mut line));
                        line.push(c);
                    } else {
                        line = next;
                    }
                }
            }
            lines.push(line);
        }
        lines
    }

    /// The widest single word of `text`, in points (the narrowest a wrapped column can be).
    pub fn longest_word(&self, text: &str, size: f32) -> f32 {
        text.split_whitespace()
            .map(|w| self.width(w, size))
            .fold(0.0, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_accents_and_engine_symbols() {
        let face = Face::from_bytes(REGULAR_TTF).unwrap();
        for c in
            "François Cateau-Cambrésis Trévoux ÀÉÎÕÜçñ − × ≤ ≥ → ⌈ ⌉ ⌊ ⌋ ÷ ± ½ – — “ ” § ·".chars()
        {
            assert!(face.covers(c), "DejaVu Sans lacks {c:?}");
        }
    }

    #[test]
    fn wrap_keeps_words_and_width() {
        let face = Face::from_bytes(REGULAR_TTF).unwrap();
        let lines = face.wrap("one two three four five six", 10.0, 50.0);
        assert!(lines.len() > 1);
        assert_eq!(lines.join(" "), "one two three four five six");
        assert!(lines.iter().all(|l| face.width(l, 10.0) <= 50.0));
    }
}
