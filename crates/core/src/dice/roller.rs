//! Rolling: app dice from a seeded ChaCha20 stream with our own sampler, or physical dice typed in.

use rand::SeedableRng;
use rand::TryRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use super::die::Die;
use super::error::DiceError;
use super::expr::DiceExpr;

/// Name and version of the sampler recorded with every app roll. Draw `k` of seed `s` is the
/// first value accepted by rejection sampling from ChaCha20 keyed by `s` (little-endian, zero
/// padded to 32 bytes) on stream `k`: so any single draw can be re-derived from (seed, index).
pub const SAMPLER_ALGORITHM: &str = "chacha20-stream-per-draw/v1";

/// Where a roll came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum Provenance {
    /// Rolled by the app.
    App {
        /// Sampler algorithm, see [`SAMPLER_ALGORITHM`].
        algorithm: String,
        /// The command's seed, for a roll outside a game (`umpire roll --seed`). A game's rolls
        /// leave it out: the game's seed is secret until revealed, behind its commitment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
        /// Index of the first draw used by this roll.
        first_draw: u64,
        /// Number of draws used (one per die).
        draws: u64,
    },
    /// Physical dice typed in by a person.
    Physical {
        /// Who rolled them, if said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entered_by: Option<String>,
    },
}

/// One die of a roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieRoll {
    /// Die name, e.g. `d6`.
    pub die: String,
    /// The face value.
    pub face: i64,
    /// The face's symbol, for symbolic dice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A thrown dice expression: each die, the total and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The notation thrown.
    pub expr: String,
    /// Each die in order.
    pub dice: Vec<DieRoll>,
    /// The expression's total.
    pub total: i64,
    /// App or physical.
    pub provenance: Provenance,
}

impl Roll {
    /// The throw in one line: `2d6 [3, 4] = 7` (without where the dice came from).
    pub fn words(&self) -> String {
        let faces: Vec<String> = self.dice.iter().map(|d| d.face.to_string()).collect();
        format!("{} [{}] = {}", self.expr, faces.join(", "), self.total)
    }

    /// Face values in order.
    pub fn faces(&self) -> Vec<i64> {
        self.dice.iter().map(|d| d.face).collect()
    }

    /// Builds a roll from typed faces (values or face labels), refusing impossible faces.
    pub fn physical(
        expr: &DiceExpr,
        typed: &[String],
        entered_by: Option<String>,
    ) -> Result<Roll, DiceError> {
        let dice = expr.dice();
        if typed.len() != dice.len() {
            let example = dice
                .iter()
                .map(|d| d.faces.first().map_or(0, |f| f.value).to_string())
                .collect::<Vec<_>>()
                .join(" ");
            return Err(DiceError::WrongCount {
                expr: expr.source().to_string(),
                expected: dice.len(),
                given: typed.len(),
                example: if example.is_empty() {
                    "(no dice)".into()
                } else {
                    example
                },
            });
        }
        let mut rolled = Vec::with_capacity(dice.len());
        for (index, (die, text)) in dice.iter().zip(typed).enumerate() {
            let Some(face) = die.face_for(text) else {
                return Err(DiceError::ImpossibleFace {
                    typed: text.trim().to_string(),
                    die: die.name.clone(),
                    faces: die.describe_faces(),
                    position: index + 1,
                    count: dice.len(),
                    expr: expr.source().to_string(),
                });
            };
            rolled.push(DieRoll {
                die: die.name.clone(),
                face: face.value,
                label: face.label.clone(),
            });
        }
        let faces: Vec<i64> = rolled.iter().map(|d| d.face).collect();
        Ok(Roll {
            expr: expr.source().to_string(),
            total: expr.total(&faces),
            dice: rolled,
            provenance: Provenance::Physical { entered_by },
        })
    }
}

/// The app's dice: a seed and the index of the next draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppDice {
    seed: u64,
    next_draw: u64,
    /// The seed is secret (a game's): rolls do not record it.
    #[serde(default)]
    secret: bool,
}

impl AppDice {
    /// Dice for a seed, starting at draw 0.
    pub fn new(seed: u64) -> AppDice {
        AppDice {
            seed,
            next_draw: 0,
            secret: false,
        }
    }

    /// Dice continuing a journal at `next_draw`.
    pub fn resume(seed: u64, next_draw: u64) -> AppDice {
        AppDice {
            seed,
            next_draw,
            secret: false,
        }
    }

    /// A game's dice continuing its journal at `next_draw`: the seed is secret, so the rolls
    /// record only the draw index (the game's commitment stands for the seed).
    pub fn secret(seed: u64, next_draw: u64) -> AppDice {
        AppDice {
            seed,
            next_draw,
            secret: true,
        }
    }

    /// A fresh seed from the operating system.
    pub fn fresh_seed() -> u64 {
        rand::random()
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The index the next draw will use.
    pub fn next_draw(&self) -> u64 {
        self.next_draw
    }

    /// The face index drawn for die `draw_index` of `seed`, among `slots` equally likely slots.
    /// Pure: the same arguments give the same slot forever (a test pins the first values).
    pub fn draw_slot(seed: u64, draw_index: u64, slots: u64) -> u64 {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let mut rng = ChaCha20Rng::from_seed(key);
        rng.set_stream(draw_index);
        let slots = slots.max(1);
        // Rejection sampling on 64-bit words: accept below the largest multiple of `slots`.
        let zone = u64::MAX - (u64::MAX % slots);
        loop {
            let Ok(word) = rng.try_next_u64();
            if word < zone {
                return word % slots;
            }
        }
    }

    /// The face of `die` drawn at `draw_index` for `seed`.
    pub fn face_at(seed: u64, draw_index: u64, die: &Die) -> DieRoll {
        let mut slot = AppDice::draw_slot(seed, draw_index, die.total_weight());
        for face in &die.faces {
            let weight = u64::from(face.weight);
            if slot < weight {
                return DieRoll {
                    die: die.name.clone(),
                    face: face.value,
                    label: face.label.clone(),
                };
            }
            slot -= weight;
        }
        // Unreachable for a die with at least one face; fall back to its last face.
        let face = die.faces.last().map_or(0, |f| f.value);
        DieRoll {
            die: die.name.clone(),
            face,
            label: None,
        }
    }

    /// Throws an expression, consuming one draw per die.
    pub fn roll(&mut self, expr: &DiceExpr) -> Roll {
        let first_draw = self.next_draw;
        let dice: Vec<DieRoll> = expr
            .dice()
            .into_iter()
            .map(|die| {
                let roll = AppDice::face_at(self.seed, self.next_draw, die);
                self.next_draw += 1;
                roll
            })
            .collect();
        let faces: Vec<i64> = dice.iter().map(|d| d.face).collect();
        Roll {
            expr: expr.source().to_string(),
            total: expr.total(&faces),
            provenance: Provenance::App {
                algorithm: SAMPLER_ALGORITHM.to_string(),
                seed: (!self.secret).then_some(self.seed),
                first_draw,
                draws: self.next_draw - first_draw,
            },
            dice,
        }
    }
}
