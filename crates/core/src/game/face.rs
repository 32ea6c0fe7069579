//! What a counter's face shows on the desk's map, as the game knows it: its side, a symbol for
//! its type, its strength, and a short name; and a stack's face: the leader of the Force (or the
//! top unit), the stack's strength and how many counters it holds. The desk draws these; what
//! goes on them is decided here, from the ruleset (`strength_attribute`, `type_attribute`) and
//! what the viewer may see of the counter.

use std::collections::BTreeMap;

use super::scenario::CounterKind;
use crate::rules::{Ruleset, Value};

/// The symbol for a counter's type, as on a printed counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symbol {
    /// Foot (infantry, pike, landsknechts, militia).
    Infantry,
    /// Horse (cavalry, gendarmes, stradiots).
    Cavalry,
    /// Guns.
    Artillery,
    /// Engineers, sappers, pontoons.
    Engineers,
    /// Ships.
    Fleet,
    /// An army (a megagame's army counter).
    Army,
    /// A leader (Capitano, commander, character).
    Leader,
    /// A marker (AP marker, Fort, Booty).
    Marker,
    /// A unit of a type the words do not tell.
    Unit,
}

impl Symbol {
    /// The type in words, for a tooltip and the stack inspector.
    pub fn words(self) -> &'static str {
        match self {
            Symbol::Infantry => "infantry",
            Symbol::Cavalry => "cavalry",
            Symbol::Artillery => "artillery",
            Symbol::Engineers => "engineers",
            Symbol::Fleet => "fleet",
            Symbol::Army => "army",
            Symbol::Leader => "leader",
            Symbol::Marker => "marker",
            Symbol::Unit => "unit",
        }
    }
}

/// One counter's face.
#[derive(Debug, Clone, PartialEq)]
pub struct Face {
    /// Its side (id).
    pub side: String,
    /// The symbol of its type.
    pub symbol: Symbol,
    /// Its strength, where the viewer sees it.
    pub strength: Option<i64>,
    /// Its name, short ("Italian Infantry" for "Italian Infantry (French service) 2").
    pub label: String,
}

/// A stack's face: what its top counter shows.
#[derive(Debug, Clone, PartialEq)]
pub struct StackFace {
    /// The side of most of its counters.
    pub side: String,
    /// Whether counters of more than one side share the hex (a battle).
    pub contested: bool,
    /// The symbol on top: the leader's for a Force, else the first unit's.
    pub symbol: Symbol,
    /// The leader's name for a Force, else the top unit's short name.
    pub label: String,
    /// The strength of the stack's units, where the viewer sees all of them.
    pub strength: Option<i64>,
    /// How many counters.
    pub count: usize,
}

/// Words in a type or a name that tell a symbol, checked in this order.
const WORDS: [(Symbol, &[&str]); 6] = [
    (
        Symbol::Engineers,
        &["engineer", "guastatori", "pontoon", "sapper", "pioneer"],
    ),
    (
        Symbol::Artillery,
        &[
            "artillery",
            "cannon",
            "culverin",
            "bombard",
            "howitzer",
            "gun",
        ],
    ),
    (
        Symbol::Cavalry,
        &[
            "cavalry",
            "horse",
            "gendarme",
            "stradiot",
            "lancer",
            "reiter",
            "mounted",
            "hobilar",
            "jinete",
            "cuirassier",
            "dragoon",
        ],
    ),
    (
        Symbol::Fleet,
        &["fleet", "galley", "ship", "navy", "squadron"],
    ),
    (Symbol::Army, &["army"]),
    (
        Symbol::Infantry,
        &[
            "infantry",
            "foot",
            "pike",
            "landsknecht",
            "militia",
            "arquebus",
            "shot",
            "tercio",
            "crossbow",
            "halberd",
            "swiss",
            "musket",
            "archer",
            "bow",
            "fanti",
        ],
    ),
];

fn symbol_in(words: &str) -> Option<Symbol> {
    let words = words.to_lowercase();
    WORDS
        .iter()
        .find(|(_, keys)| keys.iter().any(|k| words.contains(k)))
        .map(|(s, _)| *s)
}

/// A counter's name without what only tells it apart ("(French service)", a number):
/// "Italian Infantry" for "Italian Infantry (French service) 2".
pub fn short_label(name: &str) -> String {
    let base = name.split(" (").next().unwrap_or(name).trim();
    let base = base
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end();
    if base.is_empty() {
        name.to_string()
    } else {
        base.to_string()
    }
}

/// A counter's face from what the viewer knows of it: its side, kind (None when only its
/// presence is seen), name or what is seen of it, and the attributes the viewer sees.
pub fn face(
    ruleset: &Ruleset,
    side: &str,
    kind: Option<CounterKind>,
    label: &str,
    attributes: &BTreeMap<String, Value>,
) -> Face {
    let strength = ruleset
        .strength_attribute
        .as_ref()
        .and_then(|a| attributes.get(a))
        .and_then(|v| match v {
            Value::Int(n) => Some(*n),
            _ => None,
        });
    let typed = ruleset
        .type_attribute
        .as_ref()
        .and_then(|a| attributes.get(a))
        .map(|v| match v {
            Value::Text(s) => s.replace('_', " "),
            other => other.to_string(),
        });
    let mounted = attributes.get("mounted") == Some(&Value::Bool(true));
    let symbol = match kind {
        Some(CounterKind::Leader) => Symbol::Leader,
        Some(CounterKind::Marker) | Some(CounterKind::State) => Symbol::Marker,
        None => Symbol::Unit,
        Some(CounterKind::Unit) => typed
            .as_deref()
            .and_then(symbol_in)
            .or(if mounted { Some(Symbol::Cavalry) } else { None })
            .or_else(|| symbol_in(label))
            .unwrap_or(Symbol::Unit),
    };
    Face {
        side: side.to_string(),
        symbol,
        strength,
        label: match kind {
            Some(CounterKind::Leader) | None => label.to_string(),
            _ => short_label(label),
        },
    }
}

/// A stack's face from its counters' faces, top first: a Force shows its (first) leader's name
/// and the units' total strength; a stack without a leader its top unit.
pub fn stack_face(faces: &[Face]) -> Option<StackFace> {
    let top = faces.first()?;
    let mut by_side: BTreeMap<&str, usize> = BTreeMap::new();
    for f in faces {
        *by_side.entry(f.side.as_str()).or_default() += 1;
    }
    let side = by_side
        .iter()
        .max_by_key(|(_, n)| **n)
        .map_or(top.side.clone(), |(s, _)| s.to_string());
    let leader = faces.iter().find(|f| f.symbol == Symbol::Leader);
    let units: Vec<&Face> = faces
        .iter()
        .filter(|f| !matches!(f.symbol, Symbol::Leader | Symbol::Marker))
        .collect();
    let strength = if units.is_empty() || units.iter().any(|f| f.strength.is_none()) {
        units
            .first()
            .filter(|_| units.len() == 1)
            .and_then(|f| f.strength)
    } else {
        Some(units.iter().filter_map(|f| f.strength).sum())
    };
    let (symbol, label) = match leader {
        Some(l) => (
            units.first().map_or(Symbol::Leader, |u| u.symbol),
            l.label.clone(),
        ),
        None => (top.symbol, top.label.clone()),
    };
    Some(StackFace {
        side,
        contested: by_side.len() > 1,
        symbol,
        label,
        strength,
        count: faces.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(side: &str, label: &str, sp: Option<i64>, symbol: Symbol) -> Face {
        Face {
            side: side.into(),
            symbol,
            strength: sp,
            label: label.into(),
        }
    }

    #[test]
    fn names_and_types_tell_the_symbol() {
        assert_eq!(symbol_in("heavy cavalry"), Some(Symbol::Cavalry));
        assert_eq!(symbol_in("French Gendarmes"), Some(Symbol::Cavalry));
        assert_eq!(symbol_in("siege artillery"), Some(Symbol::Artillery));
        assert_eq!(symbol_in("Pontoon Bridge"), Some(Symbol::Engineers));
        assert_eq!(symbol_in("Swiss Infantry"), Some(Symbol::Infantry));
        assert_eq!(symbol_in("AP marker"), None);
        assert_eq!(
            short_label("Italian Infantry (French service) 2"),
            "Italian Infantry"
        );
        assert_eq!(short_label("Venetian Artillery"), "Venetian Artillery");
    }

    #[test]
    fn a_force_shows_its_leader_and_the_strength_of_its_units() {
        let faces = [
            unit("french", "Chaumont", None, Symbol::Leader),
            unit("french", "French Gendarmes", Some(6), Symbol::Cavalry),
            unit("french", "Italian Infantry", Some(6), Symbol::Infantry),
        ];
        let s = stack_face(&faces).expect("a face");
        assert_eq!(s.label, "Chaumont");
        assert_eq!(s.strength, Some(12));
        assert_eq!(s.count, 3);
        assert_eq!(s.symbol, Symbol::Cavalry);
        assert!(!s.contested);
        // A unit whose strength is not seen leaves the total unsaid.
        let hidden = [
            unit("french", "French Gendarmes", Some(6), Symbol::Cavalry),
            unit("venetian", "a unit", None, Symbol::Unit),
        ];
        let s = stack_face(&hidden).expect("a face");
        assert_eq!(s.strength, None);
        assert!(s.contested);
        assert!(stack_face(&[]).is_none());
    }
}
