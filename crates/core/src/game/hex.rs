//! Hex ids as the maps print them ("0114": column 01, row 14), their neighbours, distances and
//! centres, and reading a typed place (a hex id, an area, or x, y in base units) in the game's
//! geometry. The hex maths is the `hexx` crate's; the layout is the one the printed maps use:
//! flat-topped hexes in columns, each even column half a hex lower than its neighbours.

use hexx::{Hex, HexLayout, HexOrientation, OffsetHexMode, Vec2};

use super::refusal::Refusal;
use super::scenario::Position;
use crate::rules::GeometryKind;

/// A hex by column and row, as its id prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HexId {
    col: u32,
    row: u32,
    digits: usize,
}

/// Half the height of a hex in units of its radius: √3 / 2.
const HALF_HEIGHT: f64 = 0.866_025_403_784_438_6;

fn layout() -> HexLayout {
    // hexx's flat layout (even columns shoved down) puts row 0 of an even column at y = 0 and
    // of an odd column half a hex above; the maps' odd columns start at y = 0, so the origin
    // moves down half a hex.
    HexLayout {
        orientation: HexOrientation::Flat,
        origin: Vec2::new(0.0, HALF_HEIGHT as f32),
        scale: Vec2::ONE,
    }
}

impl HexId {
    /// A hex of `digits`-digit ids (even: half for the column, half for the row).
    pub fn new(col: u32, row: u32, digits: usize) -> HexId {
        HexId { col, row, digits }
    }

    /// Reads an id of exactly `digits` digits ("0114" for 4).
    pub fn parse(text: &str, digits: usize) -> Option<HexId> {
        let t = text.trim();
        if digits < 2
            || !digits.is_multiple_of(2)
            || t.len() != digits
            || !t.chars().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        let (c, r) = t.split_at(digits / 2);
        Some(HexId {
            col: c.parse().ok()?,
            row: r.parse().ok()?,
            digits,
        })
    }

    /// Reads an id of any even number of digits.
    pub fn parse_any(text: &str) -> Option<HexId> {
        HexId::parse(text, text.trim().len())
    }

    /// The column.
    pub fn col(&self) -> u32 {
        self.col
    }

    /// The row.
    pub fn row(&self) -> u32 {
        self.row
    }

    /// The id as printed ("0114").
    pub fn id(&self) -> String {
        let half = self.digits / 2;
        format!("{:0half$}{:0half$}", self.col, self.row)
    }

    fn largest(&self) -> u32 {
        10u32.saturating_pow((self.digits / 2) as u32) - 1
    }

    fn hex(&self) -> Hex {
        Hex::from_offset_coordinates(
            [self.col as i32, self.row as i32],
            OffsetHexMode::Even,
            HexOrientation::Flat,
        )
    }

    fn from_hex(hex: Hex, digits: usize) -> Option<HexId> {
        let [col, row] = hex.to_offset_coordinates(OffsetHexMode::Even, HexOrientation::Flat);
        let id = HexId {
            col: u32::try_from(col).ok()?,
            row: u32::try_from(row).ok()?,
            digits,
        };
        (id.col <= id.largest() && id.row <= id.largest()).then_some(id)
    }

    /// The six hexes around it (fewer at the edge of what ids can number).
    pub fn neighbours(&self) -> Vec<HexId> {
        self.hex()
            .all_neighbors()
            .into_iter()
            .filter_map(|h| HexId::from_hex(h, self.digits))
            .collect()
    }

    /// Whether two hexes touch.
    pub fn is_adjacent(&self, other: &HexId) -> bool {
        self.distance(other) == 1
    }

    /// Hexes between the two, counting the second but not the first.
    pub fn distance(&self, other: &HexId) -> u32 {
        self.hex().unsigned_distance_to(other.hex())
    }

    /// The centre, in hex radii: x to the right, y down the map.
    pub fn centre(&self) -> [f64; 2] {
        let shift = if self.col.is_multiple_of(2) { 1.0 } else { 0.0 };
        [
            1.5 * f64::from(self.col),
            2.0 * HALF_HEIGHT * f64::from(self.row) + HALF_HEIGHT * shift,
        ]
    }

    /// The hex a point (in hex radii, as [`HexId::centre`]) falls in, if ids can number it.
    pub fn at(point: [f64; 2], digits: usize) -> Option<HexId> {
        let hex = layout().world_pos_to_hex(Vec2::new(point[0] as f32, point[1] as f32));
        HexId::from_hex(hex, digits)
    }
}

impl std::fmt::Display for HexId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.id())
    }
}

/// Reads a typed place in the game's geometry: "x, y" (two numbers, base units) on a free-form
/// table; a hex id on a hex map; else an area's name (digits alone read as a hex id where the
/// geometry is not known); on any table, `off map: ` and the place (a box, a pool), as the
/// counters print their place and the set-up sheet takes it. Shared by the command line and
/// the desk.
pub fn read_position(text: &str, geometry: Option<GeometryKind>) -> Result<Position, Refusal> {
    let t = text.trim();
    if t.is_empty() {
        return Err(Refusal::NoPlace);
    }
    if let Some(place) = t
        .get(..8)
        .filter(|p| p.eq_ignore_ascii_case("off map:"))
        .map(|_| t[8..].trim())
    {
        if place.is_empty() {
            return Err(Refusal::NoPlace);
        }
        return Ok(Position::OffMap(place.to_string()));
    }
    let parts: Vec<&str> = t.split([',', ' ']).filter(|p| !p.is_empty()).collect();
    if let [x, y] = parts.as_slice()
        && let (Ok(x), Ok(y)) = (x.parse::<f64>(), y.parse::<f64>())
    {
        return Ok(Position::Free { x, y });
    }
    let digits = t.chars().all(|c| c.is_ascii_digit());
    Ok(match geometry {
        // A hex id typed on a free-form table: the check says there is no hex map.
        Some(GeometryKind::Hex) | Some(GeometryKind::Free) if digits => {
            Position::Hex(t.to_string())
        }
        Some(GeometryKind::Hex) => Position::Hex(t.to_string()),
        Some(GeometryKind::Free) => {
            return Err(Refusal::FreeNeedsNumbers {
                text: t.to_string(),
            });
        }
        _ if digits => Position::Hex(t.to_string()),
        _ => Position::Area(t.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_map_and_its_place_read_as_off_the_map_on_any_table() {
        for g in [None, Some(GeometryKind::Area), Some(GeometryKind::Hex)] {
            assert_eq!(
                read_position("Off map: mustering", g).ok(),
                Some(Position::OffMap("mustering".into()))
            );
        }
        assert!(read_position("off map:  ", Some(GeometryKind::Area)).is_err());
        assert_eq!(
            read_position("Offenburg", Some(GeometryKind::Area)).ok(),
            Some(Position::Area("Offenburg".into()))
        );
    }

    fn h(id: &str) -> HexId {
        HexId::parse(id, 4).expect("hex id")
    }

    #[test]
    fn ids_keep_their_zeros_and_refuse_other_shapes() {
        assert_eq!(h("0114").id(), "0114");
        assert_eq!((h("0114").col(), h("0114").row()), (1, 14));
        assert!(HexId::parse("114", 4).is_none());
        assert!(HexId::parse("01a4", 4).is_none());
        assert!(HexId::parse("011", 3).is_none());
        assert_eq!(HexId::parse_any("010203"), Some(HexId::new(10, 203, 6)));
    }

    #[test]
    fn neighbours_follow_the_printed_columns() {
        // Odd column 15 sits half a hex above its even neighbours 14 and 16.
        let mut n: Vec<String> = h("1514").neighbours().iter().map(HexId::id).collect();
        n.sort();
        assert_eq!(n, ["1413", "1414", "1513", "1515", "1613", "1614"]);
        let mut n: Vec<String> = h("1614").neighbours().iter().map(HexId::id).collect();
        n.sort();
        assert_eq!(n, ["1514", "1515", "1613", "1615", "1714", "1715"]);
        // At the corner of the numbering only the hexes that exist.
        assert_eq!(h("0000").neighbours().len(), 3);
        assert!(h("1514").is_adjacent(&h("1413")));
        // Three columns down-right reach 1815; three more rows to 1818.
        assert_eq!(h("1514").distance(&h("1818")), 6);
    }

    #[test]
    fn centres_and_points_agree() {
        for col in 0..30 {
            for row in 0..30 {
                let id = HexId::new(col, row, 4);
                let [x, y] = id.centre();
                assert_eq!(HexId::at([x, y], 4), Some(id), "centre of {id}");
                assert_eq!(HexId::at([x + 0.4, y - 0.3], 4), Some(id), "inside {id}");
                for n in id.neighbours() {
                    let [nx, ny] = n.centre();
                    let d = ((nx - x).powi(2) + (ny - y).powi(2)).sqrt();
                    assert!((d - 3f64.sqrt()).abs() < 1e-9, "{id}–{n}: {d}");
                }
            }
        }
        // Even columns sit half a hex lower.
        assert!(h("0200").centre()[1] > h("0100").centre()[1]);
    }

    #[test]
    fn typed_places_read_in_the_geometry() {
        assert_eq!(
            read_position("0114", Some(GeometryKind::Hex)).expect("hex"),
            Position::Hex("0114".into())
        );
        assert_eq!(
            read_position(" 3.5, 2 ", Some(GeometryKind::Free)).expect("free"),
            Position::Free { x: 3.5, y: 2.0 }
        );
        assert!(read_position("left flank", Some(GeometryKind::Free)).is_err());
        assert_eq!(
            read_position("Upper Austria", Some(GeometryKind::Area)).expect("area"),
            Position::Area("Upper Austria".into())
        );
        assert_eq!(
            read_position("2728", None).expect("digits"),
            Position::Hex("2728".into())
        );
        assert!(read_position("  ", None).is_err());
    }
}
