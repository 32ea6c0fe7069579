//! Where a counter is: a hex, an area, a point on a free-form table, or off the map. Its own
//! room, below the scenario's model and its victory conditions, which both name places.

use serde::Serialize;

/// Where a counter is.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// A hex by its id, a string that keeps its leading zeros ("0114").
    Hex(String),
    /// A named area.
    Area(String),
    /// A point on a free-form table, in base units.
    Free {
        /// Across.
        x: f64,
        /// Along.
        y: f64,
    },
    /// Off the map ("reinforcement pool", "breakdown units available", "Capitano card of X").
    OffMap(String),
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Position::Hex(h) => write!(f, "hex {h}"),
            Position::Area(a) => f.write_str(a),
            Position::Free { x, y } => write!(f, "({x}, {y})"),
            Position::OffMap(o) => write!(f, "off map: {o}"),
        }
    }
}
