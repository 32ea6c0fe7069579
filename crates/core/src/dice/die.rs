//! A die: its faces, each with a value, an optional label and a weight.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One face of a die.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieFace {
    /// The number the face counts as.
    pub value: i64,
    /// A symbol printed on the face, for symbolic dice (e.g. "Cmd").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// How many of the die's equally likely slots carry this face (weighted dice).
    #[serde(default = "one")]
    pub weight: u32,
}

fn one() -> u32 {
    1
}

/// A die with a name such as `d6`, `d10` (read 0–9) or a custom one declared in a ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    /// The name used in notation, e.g. `d6`.
    pub name: String,
    /// Its faces, in order.
    pub faces: Vec<DieFace>,
}

impl Die {
    /// A standard die with `sides` faces numbered 1..=sides, except `d10`, whose faces read
    /// 0–9 (a 0 counts as zero), as the ten-sided dice of "Arquebus" are read.
    pub fn standard(sides: u32) -> Die {
        let (low, high) = if sides == 10 {
            (0, 9)
        } else {
            (1, i64::from(sides))
        };
        Die {
            name: format!("d{sides}"),
            faces: (low..=high)
                .map(|value| DieFace {
                    value,
                    label: None,
                    weight: 1,
                })
                .collect(),
        }
    }

    /// `d66`: two six-sided dice read as tens and units (11, 12, … 16, 21, … 66), 36 equally
    /// likely results — not one die of 66 sides. Typed in as the two digits ("35").
    pub fn d66() -> Die {
        Die {
            name: "d66".into(),
            faces: (1..=6)
                .flat_map(|tens| (1..=6).map(move |units| tens * 10 + units))
                .map(|value| DieFace {
                    value,
                    label: None,
                    weight: 1,
                })
                .collect(),
        }
    }

    /// `d%`: percentile dice, two ten-sided dice read as tens and units, 00 counting as 100:
    /// the results 1–100, equally likely (the same as `d100`).
    pub fn percentile() -> Die {
        Die {
            name: "d%".into(),
            ..Die::standard(100)
        }
    }

    /// `dF`: a Fudge (Fate) die, faces −1, 0, +1 twice each (equally likely: −1, 0, +1).
    pub fn fudge() -> Die {
        Die {
            name: "dF".into(),
            faces: [-1, 0, 1]
                .into_iter()
                .map(|value| DieFace {
                    value,
                    label: None,
                    weight: 1,
                })
                .collect(),
        }
    }

    /// A die written with its faces inline, `d{1,1,2,2,3,4}`: each listed face one equally
    /// likely slot (a value listed twice is twice as likely).
    pub fn inline(faces: &[i64]) -> Die {
        let mut merged: Vec<DieFace> = Vec::new();
        for &value in faces {
            match merged.iter_mut().find(|f| f.value == value) {
                Some(f) => f.weight += 1,
                None => merged.push(DieFace {
                    value,
                    label: None,
                    weight: 1,
                }),
            }
        }
        merged.sort_by_key(|f| f.value);
        Die {
            name: format!(
                "d{{{}}}",
                faces
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            faces: merged,
        }
    }

    /// Sum of the face weights: the number of equally likely slots.
    pub fn total_weight(&self) -> u64 {
        self.faces.iter().map(|face| u64::from(face.weight)).sum()
    }

    /// Lowest face value.
    pub fn min_value(&self) -> i64 {
        self.faces.iter().map(|f| f.value).min().unwrap_or(0)
    }

    /// Highest face value.
    pub fn max_value(&self) -> i64 {
        self.faces.iter().map(|f| f.value).max().unwrap_or(0)
    }

    /// Finds the face a typed-in value or label stands for.
    pub fn face_for(&self, typed: &str) -> Option<&DieFace> {
        let typed = typed.trim();
        if let Some(face) = self.faces.iter().find(|f| {
            f.label
                .as_deref()
                .is_some_and(|l| l.eq_ignore_ascii_case(typed))
        }) {
            return Some(face);
        }
        let value: i64 = typed.parse().ok()?;
        self.faces.iter().find(|f| f.value == value)
    }

    /// Human description of the acceptable faces, for error messages.
    pub fn describe_faces(&self) -> String {
        let plain = self.faces.iter().all(|f| f.label.is_none());
        let values: Vec<i64> = self.faces.iter().map(|f| f.value).collect();
        let contiguous = values.windows(2).all(|w| w[1] == w[0] + 1);
        if plain && contiguous && values.len() > 2 {
            format!("{}–{}", self.min_value(), self.max_value())
        } else {
            self.faces
                .iter()
                .map(|f| match &f.label {
                    Some(label) => format!("{label} ({})", f.value),
                    None => f.value.to_string(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

/// The dice a ruleset may name: the standard dN plus its own custom dice.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DieSet {
    custom: BTreeMap<String, Die>,
}

impl DieSet {
    /// An empty set: standard dice only.
    pub fn new() -> DieSet {
        DieSet::default()
    }

    /// Adds a custom die; its name replaces any standard die of the same name.
    pub fn insert(&mut self, die: Die) {
        self.custom.insert(die.name.clone(), die);
    }

    /// Looks up a die by name (`d6`, `d10`, `d66`, `d%`, or a custom name such as `dcmd`).
    pub fn get(&self, name: &str) -> Option<Die> {
        if let Some(die) = self.custom.get(name) {
            return Some(die.clone());
        }
        match name {
            "d66" => return Some(Die::d66()),
            "d%" => return Some(Die::percentile()),
            "dF" => return Some(Die::fudge()),
            _ => {}
        }
        let sides: u32 = name.strip_prefix('d')?.parse().ok()?;
        (2..=1000).contains(&sides).then(|| Die::standard(sides))
    }

    /// The custom dice, by name.
    pub fn custom(&self) -> impl Iterator<Item = &Die> {
        self.custom.values()
    }
}

/// The test a die's face meets to count as a success.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threshold {
    /// At least this value (`>=5`).
    AtLeast(i64),
    /// At most this value (`<=2`).
    AtMost(i64),
    /// Exactly this value (`cs6`).
    Exactly(i64),
}

impl Threshold {
    /// Whether a face meets the test.
    pub fn met(self, value: i64) -> bool {
        match self {
            Threshold::AtLeast(t) => value >= t,
            Threshold::AtMost(t) => value <= t,
            Threshold::Exactly(t) => value == t,
        }
    }
}
