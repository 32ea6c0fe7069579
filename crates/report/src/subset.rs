//! TrueType subsetting by glyph stripping: the glyphs a document uses (and the components of
//! composite glyphs) keep their outlines, every other glyph becomes empty, and the tables a PDF
//! does not read (OpenType layout, kerning, glyph names) are dropped. Glyph ids do not change,
//! so the content stream, `/W` widths and `/ToUnicode` printpdf writes stay valid.
//!
//! Why here: printpdf 0.12 subsets only with its `text_layout` feature, which pulls the azul
//! layout engine this crate avoids (see Cargo.toml); and the `subsetter` crate renumbers glyphs,
//! which would break the glyph ids printpdf has already written into the content stream.
//! DejaVu Sans goes from 740 kB to a few tens of kB per PDF.

use std::collections::BTreeSet;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes([
        *b.get(at)?,
        *b.get(at + 1)?,
        *b.get(at + 2)?,
        *b.get(at + 3)?,
    ]))
}

/// Tables kept in the subset (everything a PDF TrueType font program needs, plus `cmap`,
/// `name` and `OS/2` for printpdf's own parsing and for viewers).
const KEPT: [&[u8; 4]; 12] = [
    b"OS/2", b"cmap", b"cvt ", b"fpgm", b"gasp", b"glyf", b"head", b"hhea", b"hmtx", b"loca",
    b"maxp", b"name",
];

struct Tables<'a> {
    font: &'a [u8],
    records: Vec<([u8; 4], usize, usize)>,
}

impl<'a> Tables<'a> {
    fn parse(font: &'a [u8]) -> Option<Self> {
        let count = usize::from(u16_at(font, 4)?);
        let mut records = Vec::with_capacity(count);
        for i in 0..count {
            let at = 12 + 16 * i;
            let tag: [u8; 4] = font.get(at..at + 4)?.try_into().ok()?;
            let offset = u32_at(font, at + 8)? as usize;
            let length = u32_at(font, at + 12)? as usize;
            font.get(offset..offset + length)?;
            records.push((tag, offset, length));
        }
        Some(Tables { font, records })
    }

    fn get(&self, tag: &[u8; 4]) -> Option<&'a [u8]> {
        self.records
            .iter()
            .find(|(t, _, _)| t == tag)
            .map(|(_, o, l)| &self.font[*o..*o + *l])
    }
}

fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, c| {
        let mut word = [0u8; 4];
        word[..c.len()].copy_from_slice(c);
        sum.wrapping_add(u32::from_be_bytes(word))
    })
}

/// Component glyph ids of a composite glyph (empty for a simple one).
fn components(glyph: &[u8]) -> Vec<u16> {
    let mut out = Vec::new();
    let Some(contours) = u16_at(glyph, 0) else {
        return out;
    };
    if contours & 0x8000 == 0 {
        return out;
    }
    let mut at = 10;
    loop {
        let (Some(flags), Some(gid)) = (u16_at(glyph, at), u16_at(glyph, at + 2)) else {
            return out;
        };
        out.push(gid);
        at += 4 + if flags & 0x0001 != 0 { 4 } else { 2 };
        at += if flags & 0x0008 != 0 {
            2
        } else if flags & 0x0040 != 0 {
            4
        } else if flags & 0x0080 != 0 {
            8
        } else {
            0
        };
        if flags & 0x0020 == 0 {
            return out;
        }
    }
}

/// A copy of the TrueType font `font` keeping the outlines of `glyphs` only (glyph 0 and the
/// components of composite glyphs are added). `None` when the font is not a `glyf` TrueType
/// font this can read.
pub fn strip_glyphs(font: &[u8], glyphs: &BTreeSet<u16>) -> Option<Vec<u8>> {
    let tables = Tables::parse(font)?;
    let head = tables.get(b"head")?;
    let num_glyphs = usize::from(u16_at(tables.get(b"maxp")?, 4)?);
    let long_loca = u16_at(head, 50)? == 1;
    let loca = tables.get(b"loca")?;
    let glyf = tables.get(b"glyf")?;
    let offset = |g: usize| -> Option<usize> {
        if long_loca {
            u32_at(loca, 4 * g).map(|v| v as usize)
        } else {
            u16_at(loca, 2 * g).map(|v| usize::from(v) * 2)
        }
    };
    let glyph = |g: usize| -> Option<&[u8]> { glyf.get(offset(g)?..offset(g + 1)?) };

    // The glyphs to keep, closed over composite components.
    let mut keep: BTreeSet<u16> = glyphs.iter().copied().chain([0]).collect();
    let mut todo: Vec<u16> = keep.iter().copied().collect();
    while let Some(g) = todo.pop() {
        for c in components(glyph(usize::from(g)).unwrap_or_default()) {
            if usize::from(c) < num_glyphs && keep.insert(c) {
                todo.push(c);
            }
        }
    }

    let mut new_glyf = Vec::new();
    let mut new_loca = Vec::with_capacity(4 * (num_glyphs + 1));
    for g in 0..num_glyphs {
        new_loca.extend_from_slice(&(new_glyf.len() as u32).to_be_bytes());
        if keep.contains(&(g as u16)) {
            new_glyf.extend_from_slice(glyph(g)?);
            while !new_glyf.len().is_multiple_of(4) {
                new_glyf.push(0);
            }
        }
    }
    new_loca.extend_from_slice(&(new_glyf.len() as u32).to_be_bytes());

    let mut new_head = head.to_vec();
    new_head.get_mut(8..12)?.copy_from_slice(&[0; 4]); // checkSumAdjustment, set below
    new_head
        .get_mut(50..52)?
        .copy_from_slice(&1u16.to_be_bytes()); // long loca

    let mut out_tables: Vec<([u8; 4], Vec<u8>)> = Vec::new();
    for tag in KEPT {
        let data = match tag {
            b"glyf" => new_glyf.clone(),
            b"loca" => new_loca.clone(),
            b"head" => new_head.clone(),
            _ => match tables.get(tag) {
                Some(d) => d.to_vec(),
                None => continue,
            },
        };
        out_tables.push((*tag, data));
    }
    // A minimal `post` (version 3: no glyph names).
    if let Some(post) = tables.get(b"post").and_then(|p| p.get(..32)) {
        let mut p = post.to_vec();
        p[..4].copy_from_slice(&0x0003_0000u32.to_be_bytes());
        out_tables.push((*b"post", p));
    }
    out_tables.sort_by_key(|t| t.0);

    let n = out_tables.len() as u16;
    let entry_selector = 15 - n.leading_zeros() as u16; // floor(log2(n))
    let search_range = (1u16 << entry_selector) * 16;
    let mut out = Vec::new();
    out.extend_from_slice(&0x0001_0000u32.to_be_bytes());
    out.extend_from_slice(&n.to_be_bytes());
    out.extend_from_slice(&search_range.to_be_bytes());
    out.extend_from_slice(&entry_selector.to_be_bytes());
    out.extend_from_slice(&(n * 16 - search_range).to_be_bytes());
    let mut data_at = 12 + 16 * out_tables.len();
    let mut body = Vec::new();
    let mut head_at = None;
    for (tag, data) in &out_tables {
        if tag == b"head" {
            head_at = Some(data_at);
        }
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(data).to_be_bytes());
        out.extend_from_slice(&(data_at as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        body.extend_from_slice(data);
        while !body.len().is_multiple_of(4) {
            body.push(0);
        }
        data_at = 12 + 16 * out_tables.len() + body.len();
    }
    out.extend_from_slice(&body);
    let adjustment = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
    let at = head_at? + 8;
    out.get_mut(at..at + 4)?
        .copy_from_slice(&adjustment.to_be_bytes());
    Some(out)
}

/// A six-letter subset tag (`ABCDEF`) derived from the glyph set, so the same glyphs give the
/// same name.
pub fn subset_tag(glyphs: &BTreeSet<u16>) -> String {
    // FNV-1a over the glyph ids.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for g in glyphs {
        for b in g.to_be_bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    (0..6)
        .map(|i| char::from(b'A' + ((hash >> (i * 8)) % 26) as u8))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::font::{Face, REGULAR_TTF};

    #[test]
    fn stripped_font_parses_keeps_used_glyphs_and_is_small() {
        let face = Face::from_bytes(REGULAR_TTF).unwrap();
        let used: BTreeSet<u16> = "Cateau-Cambrésis ≤ ⌈x⌉"
            .chars()
            .filter_map(|c| face.parsed.lookup_glyph_index(u32::from(c)))
            .collect();
        let bytes = strip_glyphs(REGULAR_TTF, &used).unwrap();
        assert!(bytes.len() < REGULAR_TTF.len() / 5, "{} bytes", bytes.len());
        let sub = Face::from_bytes(&bytes).unwrap();
        assert_eq!(
            sub.width("Cambrésis ≤", 10.0),
            face.width("Cambrésis ≤", 10.0)
        );
        let tables = Tables::parse(&bytes).unwrap();
        assert_eq!(checksum(&bytes), 0xB1B0_AFBA);
        assert!(tables.get(b"GSUB").is_none());
        assert_eq!(subset_tag(&used).len(), 6);
    }
}
