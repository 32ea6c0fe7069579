//! Dice notation: `d6`, `2d6`, `d10` (faces 0–9), `d66` (two d6 read as tens and units, 11–66),
//! `d%` (percentile, 1–100, as `d100`), `d6+2`, `d6-2`, `4d6` (a pool: the faces are kept as a
//! list), `ceil(d6/2)` / `floor(d6/2)` (also written `⌈d6/2⌉`, `⌊d6/2⌋`) and custom dice declared
//! by a ruleset (`2dcmd`). `0d6` is refused: there is nothing to throw. Keep or drop the
//! highest or lowest (`4d6kh3`, `2d20kl1`, `4d6dl1`) and count successes (`8d6>=5`, `6d10<=2`),
//! both computed exactly without enumerating the throws; Fudge dice (`4dF`) and inline faces
//! (`d{1,1,2,2,3,4}`, `d{1..10}`); parentheses, `*` by a number, `min(…, …)` and `max(…, …)`;
//! two sides against each other (`2d6 > 2d6`, `d20+5 vs d20+3`: 1, 0 or −1).
//!
//! Grammar:
//! - `notation := expr [(> | >= | < | = | vs) expr]` (two sides against each other)
//! - `expr := [+|-] term {(+|-) term}`
//! - `term := atom {* atom}` (one side of each product a number)
//! - `atom := INT | [INT] d DIE [(r|rr) [<] INT] [(kh|kl|dh|dl) INT | (>=|>|<=|<) INT] | ( expr ) |
//!   (ceil|floor) ( expr / INT ) | (min|max) ( expr , expr )`
//! - `DIE := SIDES | 66 | % | F | { FACE {, FACE} } | NAME` (a FACE is `INT` or `INT..INT`)

mod parse;

use parse::*;

use std::fmt;

use super::die::{Die, DieSet, Threshold};
use super::distribution::Distribution;
use super::error::DiceError;
use super::exact::Output;
use super::exact::{self, Budget, Cost};

/// How a halved (divided) die is rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// Round up (⌈x/n⌉).
    Up,
    /// Round down (⌊x/n⌋).
    Down,
}

/// One term of a dice expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiceTerm {
    /// `count` dice of one kind; their faces are summed.
    Dice {
        /// How many dice.
        count: u32,
        /// Which die.
        die: Die,
    },
    /// `count` dice of one kind of which only the highest (or lowest) `keep` are summed:
    /// `4d6kh3`, `2d20kl1`; `dh`/`dl` (drop) are written as the keep they leave.
    Keep {
        /// How many dice are thrown.
        count: u32,
        /// Which die.
        die: Die,
        /// How many are kept (1 ≤ keep ≤ count).
        keep: u32,
        /// The highest (true) or the lowest (false).
        highest: bool,
    },
    /// `count` dice of one kind, counting those that succeed: `8d6>=5` counts the 5s and 6s.
    Successes {
        /// How many dice are thrown.
        count: u32,
        /// Which die.
        die: Die,
        /// The test each face meets or fails.
        test: Threshold,
    },
    /// An inner expression times a whole number: `2*d6`, `(d6+1)*10`; `(…)` alone is times 1.
    Scaled {
        /// What is multiplied.
        inner: Box<DiceExpr>,
        /// By how much.
        factor: i64,
    },
    /// The higher (or lower) of two expressions thrown independently: `max(d6, d6)`.
    Extreme {
        /// The first.
        left: Box<DiceExpr>,
        /// The second.
        right: Box<DiceExpr>,
        /// The higher (true) or the lower (false).
        highest: bool,
    },
    /// Two sides thrown against each other (`2d6 > 2d6`): 1 when the first is higher, 0 for a
    /// tie, −1 when the second is higher.
    Opposed {
        /// The first side.
        left: Box<DiceExpr>,
        /// The second side.
        right: Box<DiceExpr>,
    },
    /// A fixed number.
    Constant(i64),
    /// An inner expression divided by `divisor` and rounded.
    Divided {
        /// What is divided.
        inner: Box<DiceExpr>,
        /// The divisor (≥ 1).
        divisor: i64,
        /// Rounding direction.
        rounding: Rounding,
    },
}

/// The die a reroll makes: `always` rerolls the faces `rerolled` until another comes up (those
/// faces are gone); once, the second throw stands: each face's weight over T² slots is
/// w·T (kept at once, when not rerolled) + W_R·w (after a reroll), W_R the rerolled weight.
/// None when every face would be rerolled, or the weights pass 32 bits.
fn reroll(die: &Die, rerolled: impl Fn(i64) -> bool, always: bool) -> Option<Die> {
    let total: u64 = die.total_weight();
    let hit: u64 = die
        .faces
        .iter()
        .filter(|f| rerolled(f.value))
        .map(|f| u64::from(f.weight))
        .sum();
    if hit == total {
        return None;
    }
    let faces = die
        .faces
        .iter()
        .filter_map(|f| {
            let w = u64::from(f.weight);
            let weight = if always {
                if rerolled(f.value) {
                    return None;
                }
                w
            } else if rerolled(f.value) {
                hit * w
            } else {
                w * total + hit * w
            };
            Some(super::die::DieFace {
                value: f.value,
                label: f.label.clone(),
                weight: u32::try_from(weight).ok()?,
            })
        })
        .collect::<Vec<_>>();
    // A face whose weight did not fit: refuse rather than round.
    let kept = die
        .faces
        .iter()
        .filter(|f| !(always && rerolled(f.value)))
        .count();
    if faces.len() != kept {
        return None;
    }
    // Lowest terms: the same odds with the smallest weights.
    let g = faces
        .iter()
        .fold(0u32, |g, f| num_integer::Integer::gcd(&g, &f.weight));
    let faces = faces
        .into_iter()
        .map(|mut f| {
            f.weight /= g.max(1);
            f
        })
        .collect();
    Some(Die {
        name: die.name.clone(),
        faces,
    })
}

/// A parsed dice expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceExpr {
    source: String,
    terms: Vec<(i64, DiceTerm)>,
}

/// The most dice one expression may hold (keeps enumeration and memory bounded).
pub const MAX_DICE: u32 = 10_000;

/// The most dice a pool procedure may throw.
pub const MAX_POOL: u32 = 100;

/// The deepest nesting of halved dice (`ceil(…)`, `⌊…⌋`). Shipped rules halve once
/// (`ceil(d6/2)`); the parser, the roller and the odds all recurse into each level.
pub const MAX_NOTATION_DEPTH: usize = 8;

/// The longest notation, in characters. Shipped notations are at most 10 (`ceil(d6/2)`); 200
/// allows a long sum of dice and constants ([`MAX_DICE`] bounds the dice themselves).
pub const MAX_NOTATION_CHARS: usize = 200;

impl DiceExpr {
    /// Parses notation using the standard dice and `dice`'s custom ones, refusing a notation
    /// past the limits ([`MAX_NOTATION_DEPTH`], [`MAX_NOTATION_CHARS`]) before parsing it.
    pub fn parse(source: &str, dice: &DieSet) -> Result<DiceExpr, DiceError> {
        check_shape(source)?;
        let chars: Vec<char> = source.chars().filter(|c| !c.is_whitespace()).collect();
        let mut parser = Parser {
            source,
            chars,
            pos: 0,
            dice,
        };
        let mut expr = parser.expr()?;
        // Two sides against each other: `2d6 > 2d6`, `d20+5 vs d20+3`.
        if parser.eat_word(">=")
            || parser.eat('>')
            || parser.eat_word("vs")
            || parser.eat('<')
            || parser.eat('=')
        {
            let right = parser.expr()?;
            expr = Parsed {
                terms: vec![(
                    1,
                    DiceTerm::Opposed {
                        left: nested(expr),
                        right: nested(right),
                    },
                )],
            };
        }
        if parser.pos < parser.chars.len() {
            return Err(parser.error(format!("unexpected '{}'", parser.chars[parser.pos])));
        }
        let parsed = DiceExpr {
            source: source.trim().to_string(),
            terms: expr.terms,
        };
        if parsed.dice().len() > MAX_DICE as usize {
            return Err(DiceError::Notation {
                expr: source.to_string(),
                problem: format!("more than {MAX_DICE} dice"),
            });
        }
        Ok(parsed)
    }

    /// A pool of `count` dice of one kind (used by dice-pool procedures).
    pub fn pool(count: u32, die: &Die) -> DiceExpr {
        DiceExpr {
            source: format!("{count}{}", die.name),
            terms: vec![(
                1,
                DiceTerm::Dice {
                    count,
                    die: die.clone(),
                },
            )],
        }
    }

    /// Several groups of dice thrown together (an opposed roll's sides, in order).
    pub fn groups(groups: &[(u32, &Die)]) -> DiceExpr {
        DiceExpr {
            source: groups
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, d)| format!("{n}{}", d.name))
                .collect::<Vec<_>>()
                .join("+"),
            terms: groups
                .iter()
                .map(|(n, d)| {
                    (
                        1,
                        DiceTerm::Dice {
                            count: *n,
                            die: (*d).clone(),
                        },
                    )
                })
                .collect(),
        }
    }

    /// Whether this is two sides thrown against each other (`2d6 > 2d6`): its values are 1
    /// (the first side higher), 0 (a tie) and −1 (the second side higher).
    pub fn is_opposed(&self) -> bool {
        matches!(self.terms.as_slice(), [(1, DiceTerm::Opposed { .. })])
    }

    /// The notation as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The terms with their signs (+1 or −1).
    pub fn terms(&self) -> &[(i64, DiceTerm)] {
        &self.terms
    }

    /// Every die to throw, in the order their faces are read.
    pub fn dice(&self) -> Vec<&Die> {
        let mut out = Vec::new();
        for (_, term) in &self.terms {
            match term {
                DiceTerm::Dice { count, die } => {
                    for _ in 0..*count {
                        out.push(die);
                    }
                }
                DiceTerm::Keep { count, die, .. } | DiceTerm::Successes { count, die, .. } => {
                    for _ in 0..*count {
                        out.push(die);
                    }
                }
                DiceTerm::Constant(_) => {}
                DiceTerm::Divided { inner, .. } | DiceTerm::Scaled { inner, .. } => {
                    out.extend(inner.dice())
                }
                DiceTerm::Extreme { left, right, .. } | DiceTerm::Opposed { left, right } => {
                    out.extend(left.dice());
                    out.extend(right.dice());
                }
            }
        }
        out
    }

    /// The total of the expression given the face values of [`DiceExpr::dice`], in order.
    /// Extra or missing faces are the caller's error; missing ones count as 0.
    pub fn total(&self, faces: &[i64]) -> i64 {
        let mut index = 0;
        self.total_from(faces, &mut index)
    }

    fn total_from(&self, faces: &[i64], index: &mut usize) -> i64 {
        let mut sum = 0i64;
        for (sign, term) in &self.terms {
            let value = match term {
                DiceTerm::Dice { count, .. } => {
                    let mut s = 0i64;
                    for _ in 0..*count {
                        s = s.saturating_add(faces.get(*index).copied().unwrap_or(0));
                        *index += 1;
                    }
                    s
                }
                DiceTerm::Keep {
                    count,
                    keep,
                    highest,
                    ..
                } => {
                    let mut thrown: Vec<i64> = (0..*count)
                        .map(|_| {
                            let f = faces.get(*index).copied().unwrap_or(0);
                            *index += 1;
                            f
                        })
                        .collect();
                    thrown.sort_unstable();
                    if *highest {
                        thrown.reverse();
                    }
                    thrown
                        .iter()
                        .take(*keep as usize)
                        .fold(0i64, |a, f| a.saturating_add(*f))
                }
                DiceTerm::Successes { count, test, .. } => {
                    let mut hits = 0i64;
                    for _ in 0..*count {
                        if test.met(faces.get(*index).copied().unwrap_or(0)) {
                            hits += 1;
                        }
                        *index += 1;
                    }
                    hits
                }
                DiceTerm::Constant(c) => *c,
                DiceTerm::Scaled { inner, factor } => {
                    inner.total_from(faces, index).saturating_mul(*factor)
                }
                DiceTerm::Opposed { left, right } => {
                    let a = left.total_from(faces, index);
                    let b = right.total_from(faces, index);
                    (a - b).signum()
                }
                DiceTerm::Extreme {
                    left,
                    right,
                    highest,
                } => {
                    let a = left.total_from(faces, index);
                    let b = right.total_from(faces, index);
                    if *highest { a.max(b) } else { a.min(b) }
                }
                DiceTerm::Divided {
                    inner,
                    divisor,
                    rounding,
                } => divide(inner.total_from(faces, index), *divisor, *rounding),
            };
            sum = sum.saturating_add(sign * value);
        }
        sum
    }

    /// The exact distribution of the total, within the default [`Budget`] (one second).
    pub fn distribution(&self) -> Result<Distribution, DiceError> {
        self.distribution_within(&Budget::default())
    }

    /// The exact distribution of the total, refused at once (before any work) when its
    /// estimated [`Cost`] passes `budget`, with what would fit.
    pub fn distribution_within(&self, budget: &Budget) -> Result<Distribution, DiceError> {
        self.distribution_printed(budget, Output::None)
    }

    /// The exact distribution, refused at once when computing it and then printing it as
    /// `output` ([`write_odds`](super::write_odds)) would pass `budget`: the budget is the
    /// whole command's.
    pub fn distribution_printed(
        &self,
        budget: &Budget,
        output: Output,
    ) -> Result<Distribution, DiceError> {
        let cost = self.cost_printed(output);
        if !cost.fits(budget) {
            return Err(DiceError::TooCostly {
                expr: self.source.clone(),
                problem: self.over_budget(&cost, budget, output),
            });
        }
        self.exact().ok_or_else(|| DiceError::TooCostly {
            expr: self.source.clone(),
            problem: "a total passes the range of whole numbers (±9.2 × 10¹⁸)".into(),
        })
    }

    /// Why a cost is past the budget, and the largest count of the costliest dice that fits.
    fn over_budget(&self, cost: &Cost, budget: &Budget, output: Output) -> String {
        let what = if cost.seconds_at_worst() > budget.seconds {
            format!(
                "exact odds would take about {}, {} at worst (the limit is {})",
                seconds_words(cost.seconds()),
                seconds_words(cost.seconds_at_worst()),
                seconds_words(budget.seconds)
            )
        } else {
            format!(
                "exact odds would hold about {} MiB (the limit is {} MiB)",
                (cost.bytes / 1_048_576.0).ceil(),
                (budget.bytes / 1_048_576.0).round()
            )
        };
        match self.fits_hint(budget, output) {
            Some(hint) => format!("{what}; within it: {hint}"),
            None => what,
        }
    }

    /// For a notation of one group of dice, the most of those dice that fit the budget: a
    /// keep stays a keep (the same number kept of fewer dice, or failing that the same share
    /// of them), never a plain sum.
    fn fits_hint(&self, budget: &Budget, output: Output) -> Option<String> {
        let [(1, term)] = self.terms.as_slice() else {
            return None;
        };
        let (count, rebuild): (u32, Box<dyn Fn(u32) -> Option<DiceTerm>>) = match term.clone() {
            DiceTerm::Dice { count, die } => (
                count,
                Box::new(move |n| {
                    Some(DiceTerm::Dice {
                        count: n,
                        die: die.clone(),
                    })
                }),
            ),
            DiceTerm::Keep {
                count,
                die,
                keep,
                highest,
            } => {
                let one = |n: u32| DiceExpr {
                    source: String::new(),
                    terms: vec![(
                        1,
                        DiceTerm::Keep {
                            count: n,
                            die: die.clone(),
                            keep: keep.min(n.saturating_sub(1)).max(1),
                            highest,
                        },
                    )],
                };
                // The same number kept of fewer dice, when more than it fit.
                let same_keep = keep < count && one(keep + 1).cost_printed(output).fits(budget);
                (
                    count,
                    Box::new(move |n| {
                        let kept = if same_keep {
                            keep
                        } else {
                            // The same share kept.
                            (u64::from(n) * u64::from(keep) / u64::from(count)) as u32
                        };
                        (kept >= 1 && kept < n).then(|| DiceTerm::Keep {
                            count: n,
                            die: die.clone(),
                            keep: kept,
                            highest,
                        })
                    }),
                )
            }
            DiceTerm::Successes { count, die, test } => (
                count,
                Box::new(move |n| {
                    Some(DiceTerm::Successes {
                        count: n,
                        die: die.clone(),
                        test,
                    })
                }),
            ),
            _ => return None,
        };
        let expr_of = |n: u32| {
            rebuild(n).map(|t| DiceExpr {
                source: String::new(),
                terms: vec![(1, t)],
            })
        };
        let fits = |n: u32| expr_of(n).is_some_and(|e| e.cost_printed(output).fits(budget));
        let (mut lo, mut hi) = (0u32, count);
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) { lo = mid } else { hi = mid }
        }
        // A keep of the same share may not be a keep at the smallest counts.
        while lo > 0 && !fits(lo) {
            lo -= 1;
        }
        let example = expr_of(lo).filter(|_| lo > 0)?;
        Some(format!(
            "up to {lo} of these dice ({})",
            example.describe_term()
        ))
    }

    /// The first term written back as notation (for the hint of what fits).
    fn describe_term(&self) -> String {
        match self.terms.first().map(|(_, t)| t) {
            Some(DiceTerm::Dice { count, die }) => format!("{count}{}", die.name),
            Some(DiceTerm::Keep {
                count,
                die,
                keep,
                highest,
            }) => format!(
                "{count}{}k{}{keep}",
                die.name,
                if *highest { "h" } else { "l" }
            ),
            Some(DiceTerm::Successes { count, die, test }) => match test {
                Threshold::AtLeast(t) => format!("{count}{}>={t}", die.name),
                Threshold::AtMost(t) => format!("{count}{}<={t}", die.name),
                Threshold::Exactly(t) => format!("{count}{}cs{t}", die.name),
            },
            _ => self.source.clone(),
        }
    }

    /// What the exact distribution will take, estimated from the notation alone.
    pub fn cost(&self) -> Cost {
        let terms = self.merged_terms();
        let groups: Vec<Cost> = terms
            .iter()
            .filter_map(|(_, term)| match term {
                DiceTerm::Dice { .. } => Some(term_cost(term)),
                _ => None,
            })
            .collect();
        let mut acc = match groups.as_slice() {
            [] => Cost::constant(),
            [one] => *one,
            many => Cost::groups(many),
        };
        for (_, term) in &terms {
            if matches!(term, DiceTerm::Dice { .. }) {
                continue;
            }
            let part = term_cost(term);
            let values = acc.values + part.values;
            acc = Cost::pair(&acc, &part, values);
        }
        acc
    }

    /// The terms with the dice of one kind and sign gathered into one term (`12d1000+12d1000`
    /// is `24d1000`: one sum of many dice costs less than the sum of two sums).
    fn merged_terms(&self) -> Vec<(i64, DiceTerm)> {
        let mut out: Vec<(i64, DiceTerm)> = Vec::with_capacity(self.terms.len());
        for (sign, term) in &self.terms {
            if let DiceTerm::Dice { count, die } = term
                && let Some((_, DiceTerm::Dice { count: before, .. })) =
                    out.iter_mut().find(|(s, t)| {
                        *s == *sign && matches!(t, DiceTerm::Dice { die: d, .. } if d == die)
                    })
            {
                *before += count;
                continue;
            }
            out.push((*sign, term.clone()));
        }
        out
    }

    /// What the exact distribution and printing it as `output` will take.
    pub fn cost_printed(&self, output: Output) -> Cost {
        self.cost().printed(output)
    }

    /// The exact distribution, whatever it costs (check [`DiceExpr::cost`] first). `None`
    /// only when a value passes the range of an `i64`.
    fn exact(&self) -> Option<Distribution> {
        let terms = self.merged_terms();
        // The groups of plain dice, summed together in one pass over the values.
        let dice: Vec<(Distribution, u64, bool)> = terms
            .iter()
            .filter_map(|(sign, term)| match term {
                DiceTerm::Dice { count, die } => Some((
                    Distribution::from_weights(
                        die.faces.iter().map(|f| (f.value, u128::from(f.weight))),
                    ),
                    u64::from(*count),
                    *sign < 0,
                )),
                _ => None,
            })
            .collect();
        let mut acc = if dice.is_empty() {
            Distribution::constant(0)
        } else {
            let refs: Vec<(&Distribution, u64, bool)> =
                dice.iter().map(|(d, n, neg)| (d, *n, *neg)).collect();
            Distribution::sum_of_groups(&refs)?
        };
        for (sign, term) in terms {
            let part = match &term {
                DiceTerm::Dice { .. } => continue,
                DiceTerm::Keep {
                    count,
                    die,
                    keep,
                    highest,
                } => exact::keep(die, *count, *keep, *highest)?,
                DiceTerm::Successes { count, die, test } => exact::successes(die, *count, *test),
                DiceTerm::Constant(c) => Distribution::constant(*c),
                DiceTerm::Scaled { inner, factor } => {
                    inner.exact()?.map(|v| v.saturating_mul(*factor))
                }
                DiceTerm::Opposed { left, right } => {
                    let (a, b) = both(left, right)?;
                    a.opposed(&b)
                }
                DiceTerm::Extreme {
                    left,
                    right,
                    highest,
                } => {
                    let (a, b) = both(left, right)?;
                    a.extreme(&b, *highest)
                }
                DiceTerm::Divided {
                    inner,
                    divisor,
                    rounding,
                } => inner.exact()?.map(|v| divide(v, *divisor, *rounding)),
            };
            let signed = if sign < 0 { part.map(|v| -v) } else { part };
            acc = acc.add(&signed)?;
        }
        Some(acc)
    }
}

/// The distributions of two sides, computed once when they are the same dice (`2d6 > 2d6`).
fn both(left: &DiceExpr, right: &DiceExpr) -> Option<(Distribution, Distribution)> {
    let a = left.exact()?;
    let b = if left.terms == right.terms {
        a.clone()
    } else {
        right.exact()?
    };
    Some((a, b))
}

/// Seconds as people say them: "40 ms", "1.1 s", "3 s", "14 s", "2 min", "5 hours", "12 days".
pub(crate) fn seconds_words(s: f64) -> String {
    if s < 1.0 {
        format!("{} ms", (s * 1000.0).ceil())
    } else if s < 10.0 {
        // Tenths below ten seconds: 1.04 s is "1.1 s", not "2 s"; a whole number stays whole.
        let tenths = (s * 10.0).ceil() / 10.0;
        if tenths.fract() == 0.0 {
            format!("{tenths} s")
        } else {
            format!("{tenths:.1} s")
        }
    } else if s < 120.0 {
        format!("{} s", s.ceil())
    } else if s < 7200.0 {
        format!("{} min", (s / 60.0).ceil())
    } else if s < 172_800.0 {
        format!("{} hours", (s / 3600.0).ceil())
    } else if s < 3.2e9 {
        format!("{} days", (s / 86_400.0).ceil())
    } else {
        "longer than a century".into()
    }
}

/// The facts of a die the cost model needs: faces, value span, log₂ of its cases, and
/// whether it is a run of equally likely whole numbers.
fn die_shape(die: &Die) -> (f64, f64, f64, bool) {
    let faces = die.faces.len() as f64;
    let span = (die.max_value() - die.min_value()) as f64 + 1.0;
    let bits = (die.total_weight().max(1) as f64).log2();
    let uniform =
        die.faces.len() as f64 == span && die.faces.iter().all(|f| f.weight == die.faces[0].weight);
    (faces, span, bits, uniform)
}

/// How many odd primes divide a die's number of cases (6: one, 8: none, 30: two).
fn odd_primes(die: &Die) -> f64 {
    let mut t = die.total_weight().max(1);
    while t.is_multiple_of(2) {
        t /= 2;
    }
    let mut count = 0.0;
    let mut p = 3;
    while p * p <= t {
        if t.is_multiple_of(p) {
            count += 1.0;
            while t.is_multiple_of(p) {
                t /= p;
            }
        }
        p += 2;
    }
    if t > 1 { count + 1.0 } else { count }
}

/// The costs of two sides, the second computed for nothing when it is the same dice ([`both`]).
fn sides_cost(left: &DiceExpr, right: &DiceExpr) -> (Cost, Cost) {
    let a = left.cost();
    let mut b = right.cost();
    if left.terms == right.terms {
        b.work = 0.0;
    }
    (a, b)
}

fn term_cost(term: &DiceTerm) -> Cost {
    match term {
        DiceTerm::Dice { count, die } => {
            let (faces, span, bits, uniform) = die_shape(die);
            Cost::sum(
                f64::from(*count),
                faces,
                span,
                bits,
                uniform,
                odd_primes(die),
            )
        }
        DiceTerm::Keep {
            count, die, keep, ..
        } => Cost::keep(
            f64::from(*count),
            f64::from(*keep),
            die_shape(die),
            odd_primes(die),
        ),
        DiceTerm::Successes { count, die, test } => {
            let (_, _, bits, _) = die_shape(die);
            // The counts are C(n, k)·hitᵏ·missⁿ⁻ᵏ: reduced, their weights are hit and miss over
            // their common divisor, and the numerators as long as (hit + miss)ⁿ over it.
            let hit = exact::hit_weight(die, *test);
            let total = die.total_weight().max(1);
            let common = num_integer::Integer::gcd(&hit, &(total - hit)).max(1);
            let reduced_bits = ((total / common) as f64).log2().max(1.0);
            Cost::successes(f64::from(*count), bits, odd_primes(die), reduced_bits)
        }
        DiceTerm::Constant(_) => Cost::constant(),
        DiceTerm::Scaled { inner, .. } | DiceTerm::Divided { inner, .. } => inner.cost(),
        DiceTerm::Opposed { left, right } => {
            let (a, b) = sides_cost(left, right);
            Cost::compared(&a, &b, 3.0)
        }
        DiceTerm::Extreme { left, right, .. } => {
            let (a, b) = sides_cost(left, right);
            Cost::compared(&a, &b, a.values.max(b.values))
        }
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

fn divide(value: i64, divisor: i64, rounding: Rounding) -> i64 {
    match rounding {
        Rounding::Down => value.div_euclid(divisor),
        Rounding::Up => -((-value).div_euclid(divisor)),
    }
}
