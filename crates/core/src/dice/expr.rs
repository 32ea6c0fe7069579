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

use std::fmt;

use super::die::{Die, DieSet};
use super::distribution::Distribution;
use super::exact::{self, Budget, Cost};
use super::roller::DiceError;

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

/// Measures a notation with a plain scan before parsing it, refusing one nested deeper than
/// [`MAX_NOTATION_DEPTH`] or longer than [`MAX_NOTATION_CHARS`].
fn check_shape(source: &str) -> Result<(), DiceError> {
    let (mut depth, mut deepest, mut chars) = (0usize, 0usize, 0usize);
    for c in source.chars() {
        chars += 1;
        match c {
            '(' | '⌈' | '⌊' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | '⌉' | '⌋' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let problem = if deepest > MAX_NOTATION_DEPTH {
        format!("nested {deepest} deep; the limit is {MAX_NOTATION_DEPTH}")
    } else if chars > MAX_NOTATION_CHARS {
        format!("{chars} characters long; the limit is {MAX_NOTATION_CHARS}")
    } else {
        return Ok(());
    };
    // Quote only the start of a notation this long.
    let expr = if chars > 40 {
        format!("{}…", source.chars().take(40).collect::<String>())
    } else {
        source.to_string()
    };
    Err(DiceError::Notation { expr, problem })
}

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
        let cost = self.cost();
        if !cost.fits(budget) {
            return Err(DiceError::TooCostly {
                expr: self.source.clone(),
                problem: self.over_budget(&cost, budget),
            });
        }
        self.exact().ok_or_else(|| DiceError::TooCostly {
            expr: self.source.clone(),
            problem: "a total passes the range of whole numbers (±9.2 × 10¹⁸)".into(),
        })
    }

    /// Why a cost is past the budget, and the largest count of the costliest dice that fits.
    fn over_budget(&self, cost: &Cost, budget: &Budget) -> String {
        let what = if cost.seconds() > budget.seconds {
            format!(
                "exact odds would take about {} (the limit is {})",
                seconds_words(cost.seconds()),
                seconds_words(budget.seconds)
            )
        } else {
            format!(
                "exact odds would hold about {} MiB (the limit is {} MiB)",
                (cost.bytes / 1_048_576.0).ceil(),
                (budget.bytes / 1_048_576.0).round()
            )
        };
        match self.fits_hint(budget) {
            Some(hint) => format!("{what}; within it: {hint}"),
            None => what,
        }
    }

    /// For a notation of one group of dice, the most of those dice that fit the budget.
    fn fits_hint(&self, budget: &Budget) -> Option<String> {
        let [(1, term)] = self.terms.as_slice() else {
            return None;
        };
        let (count, rebuild): (u32, Box<dyn Fn(u32) -> DiceTerm>) = match term.clone() {
            DiceTerm::Dice { count, die } => (
                count,
                Box::new(move |n| DiceTerm::Dice {
                    count: n,
                    die: die.clone(),
                }),
            ),
            DiceTerm::Keep {
                count,
                die,
                keep,
                highest,
            } => (
                count,
                Box::new(move |n| DiceTerm::Keep {
                    count: n,
                    die: die.clone(),
                    keep: keep.min(n),
                    highest,
                }),
            ),
            DiceTerm::Successes { count, die, test } => (
                count,
                Box::new(move |n| DiceTerm::Successes {
                    count: n,
                    die: die.clone(),
                    test,
                }),
            ),
            _ => return None,
        };
        let fits = |n: u32| {
            DiceExpr {
                source: String::new(),
                terms: vec![(1, rebuild(n))],
            }
            .cost()
            .fits(budget)
        };
        let (mut lo, mut hi) = (0u32, count);
        while lo + 1 < hi {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) { lo = mid } else { hi = mid }
        }
        let example = DiceExpr {
            source: String::new(),
            terms: vec![(1, rebuild(lo))],
        };
        (lo > 0).then(|| format!("up to {lo} of these dice ({})", example.describe_term()))
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
        let mut acc = Cost::constant();
        for (_, term) in &self.terms {
            let part = term_cost(term);
            let values = acc.values + part.values;
            acc = Cost::pair(&acc, &part, values);
        }
        acc
    }

    /// The exact distribution, whatever it costs (check [`DiceExpr::cost`] first). `None`
    /// only when a value passes the range of an `i64`.
    fn exact(&self) -> Option<Distribution> {
        let mut acc = Distribution::constant(0);
        for (sign, term) in &self.terms {
            let part = match term {
                DiceTerm::Dice { count, die } => Distribution::from_weights(
                    die.faces.iter().map(|f| (f.value, u128::from(f.weight))),
                )
                .sum_of(u64::from(*count))?,
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
                DiceTerm::Opposed { left, right } => left
                    .exact()?
                    .combine(&right.exact()?, |a, b| (a - b).signum()),
                DiceTerm::Extreme {
                    left,
                    right,
                    highest,
                } => {
                    let f = if *highest { i64::max } else { i64::min };
                    left.exact()?.combine(&right.exact()?, f)
                }
                DiceTerm::Divided {
                    inner,
                    divisor,
                    rounding,
                } => inner.exact()?.map(|v| divide(v, *divisor, *rounding)),
            };
            let signed = if *sign < 0 { part.map(|v| -v) } else { part };
            acc = acc.add(&signed)?;
        }
        Some(acc)
    }
}

/// Seconds as people say them: "40 ms", "3 s", "2 min", "5 hours", "12 days".
fn seconds_words(s: f64) -> String {
    if s < 1.0 {
        format!("{} ms", (s * 1000.0).ceil())
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

fn term_cost(term: &DiceTerm) -> Cost {
    match term {
        DiceTerm::Dice { count, die } => {
            let (faces, span, bits, uniform) = die_shape(die);
            Cost::sum(f64::from(*count), faces, span, bits, uniform)
        }
        DiceTerm::Keep {
            count, die, keep, ..
        } => {
            let (faces, span, bits, _) = die_shape(die);
            Cost::keep(f64::from(*count), f64::from(*keep), faces, span, bits)
        }
        DiceTerm::Successes { count, die, .. } => {
            let (_, _, bits, _) = die_shape(die);
            Cost::successes(f64::from(*count), bits)
        }
        DiceTerm::Constant(_) => Cost::constant(),
        DiceTerm::Scaled { inner, .. } | DiceTerm::Divided { inner, .. } => inner.cost(),
        DiceTerm::Opposed { left, right } => Cost::pair(&left.cost(), &right.cost(), 3.0),
        DiceTerm::Extreme { left, right, .. } => {
            let (a, b) = (left.cost(), right.cost());
            Cost::pair(&a, &b, a.values.max(b.values))
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

struct Parser<'a> {
    source: &'a str,
    chars: Vec<char>,
    pos: usize,
    dice: &'a DieSet,
}

struct Parsed {
    terms: Vec<(i64, DiceTerm)>,
}

/// A parsed part of a notation as a nested expression (inside parentheses, `ceil(…)`,
/// `max(…, …)`, a side of an opposed roll).
fn nested(parsed: Parsed) -> Box<DiceExpr> {
    Box::new(DiceExpr {
        source: String::new(),
        terms: parsed.terms,
    })
}

impl Parser<'_> {
    fn error(&self, problem: String) -> DiceError {
        DiceError::Notation {
            expr: self.source.to_string(),
            problem: format!("{problem} at character {}", self.pos + 1),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let w: Vec<char> = word.chars().collect();
        let end = self.pos + w.len();
        if end <= self.chars.len()
            && self.chars[self.pos..end]
                .iter()
                .zip(&w)
                .all(|(a, b)| a.eq_ignore_ascii_case(b))
        {
            self.pos = end;
            true
        } else {
            false
        }
    }

    fn expr(&mut self) -> Result<Parsed, DiceError> {
        let mut terms = Vec::new();
        let mut sign = 1;
        if self.eat('-') {
            sign = -1;
        } else {
            self.eat('+');
        }
        loop {
            let term = self.term()?;
            terms.push((sign, term));
            if self.eat('+') {
                sign = 1;
            } else if self.eat('-') || self.eat('−') {
                sign = -1;
            } else {
                break;
            }
        }
        Ok(Parsed { terms })
    }

    fn number(&mut self) -> Option<u64> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return None;
        }
        self.chars[start..self.pos]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
            .or(Some(u64::MAX))
    }

    /// An atom, times whole numbers: `2*d6`, `d6*10`, `(d6+1)*2`.
    fn term(&mut self) -> Result<DiceTerm, DiceError> {
        let mut term = self.atom()?;
        while self.eat('*') || self.eat('×') {
            let at = self.pos;
            let next = self.atom()?;
            term = match (term, next) {
                (DiceTerm::Constant(a), DiceTerm::Constant(b)) => DiceTerm::Constant(
                    a.checked_mul(b)
                        .ok_or_else(|| self.error("number too large".into()))?,
                ),
                (DiceTerm::Constant(k), inner) | (inner, DiceTerm::Constant(k)) => {
                    DiceTerm::Scaled {
                        inner: nested(Parsed {
                            terms: vec![(1, inner)],
                        }),
                        factor: k,
                    }
                }
                _ => {
                    self.pos = at;
                    return Err(
                        self.error("multiply dice by a number (2*d6), not by other dice".into())
                    );
                }
            };
        }
        Ok(term)
    }

    fn atom(&mut self) -> Result<DiceTerm, DiceError> {
        // min(…, …) and max(…, …): the lower or higher of two independent throws.
        for (word, highest) in [("max(", true), ("min(", false)] {
            if self.eat_word(word) {
                let left = self.expr()?;
                if !self.eat(',') {
                    return Err(self.error(format!("expected ',' between the two of {word}…)")));
                }
                let right = self.expr()?;
                if !self.eat(')') {
                    return Err(self.error("expected ')'".into()));
                }
                return Ok(DiceTerm::Extreme {
                    left: nested(left),
                    right: nested(right),
                    highest,
                });
            }
        }
        // Parentheses: (d6+1).
        if self.peek() == Some('(') {
            self.pos += 1;
            let inner = self.expr()?;
            if !self.eat(')') {
                return Err(self.error("expected ')'".into()));
            }
            return Ok(DiceTerm::Scaled {
                inner: nested(inner),
                factor: 1,
            });
        }
        let (open, close, rounding) = if self.eat_word("ceil(") {
            (true, ')', Rounding::Up)
        } else if self.eat_word("floor(") {
            (true, ')', Rounding::Down)
        } else if self.eat('⌈') {
            (true, '⌉', Rounding::Up)
        } else if self.eat('⌊') {
            (true, '⌋', Rounding::Down)
        } else {
            (false, ' ', Rounding::Down)
        };
        if open {
            let inner = self.expr_until_slash()?;
            if !self.eat('/') {
                return Err(self.error("expected '/' and a divisor".into()));
            }
            let divisor = self
                .number()
                .filter(|d| (1..=1000).contains(d))
                .ok_or_else(|| self.error("expected a divisor from 1 to 1000".into()))?;
            if !self.eat(close) {
                return Err(self.error(format!("expected '{close}'")));
            }
            return Ok(DiceTerm::Divided {
                inner: nested(inner),
                divisor: divisor as i64,
                rounding,
            });
        }
        let count_at = self.pos;
        let count = self.number();
        if self.peek() == Some('d') || self.peek() == Some('D') {
            self.pos += 1;
            let count = count.unwrap_or(1);
            if count > u64::from(MAX_DICE) {
                return Err(self.error(format!("more than {MAX_DICE} dice")));
            }
            if count == 0 {
                self.pos = count_at;
                return Err(self.error("no dice to throw: write at least one die (1d6)".into()));
            }
            // Inline faces: d{1,1,2,2,3,4}.
            if self.eat('{') {
                let mut faces = Vec::new();
                loop {
                    let at = self.pos;
                    let negative = self.eat('-');
                    let Some(v) = self.number() else {
                        self.pos = at;
                        return Err(self.error("expected a face value in d{…}".into()));
                    };
                    let v = i64::try_from(v).unwrap_or(i64::MAX);
                    let v = if negative { -v } else { v };
                    // A range, as AnyDice writes it: d{1..10} is a ten-sided die read 1–10.
                    if self.eat_word("..") {
                        let at = self.pos;
                        let negative = self.eat('-');
                        let Some(hi) = self.number() else {
                            self.pos = at;
                            return Err(self.error("expected the end of the range in d{…}".into()));
                        };
                        let hi = i64::try_from(hi).unwrap_or(i64::MAX);
                        let hi = if negative { -hi } else { hi };
                        if hi < v || hi - v >= 1000 {
                            self.pos = at;
                            return Err(self.error(format!(
                                "the range {v}..{hi} is empty or longer than 1,000 faces"
                            )));
                        }
                        faces.extend(v..=hi);
                    } else {
                        faces.push(v);
                    }
                    if faces.len() > 1000 {
                        return Err(self.error("more than 1,000 faces in d{…}".into()));
                    }
                    if self.eat(',') {
                        continue;
                    }
                    if self.eat('}') {
                        break;
                    }
                    return Err(self.error("expected ',' or '}' in d{…}".into()));
                }
                return self.after_die(count as u32, Die::inline(&faces));
            }
            let start = self.pos;
            if self.peek() == Some('%') {
                // Percentile dice.
                self.pos += 1;
            }
            // A number of sides is digits only (so `d6kh3` is a d6 kept highest 3); a die's
            // name (`dcmd`) is letters, digits and _.
            let numeric = self.peek().is_some_and(|c| c.is_ascii_digit());
            while self.peek().is_some_and(|c| {
                if numeric {
                    c.is_ascii_digit()
                } else {
                    c.is_ascii_alphanumeric() || c == '_'
                }
            }) {
                self.pos += 1;
            }
            // Sides followed by letters that are not a keep or drop (`d7x`): the whole word is
            // the die's name, and an unknown one.
            if numeric && self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                let next: String = self.chars[self.pos..].iter().take(2).collect();
                let reroll = next.len() == 2
                    && next.starts_with(['r', 'R'])
                    && next[1..].starts_with(|c: char| {
                        c.is_ascii_digit() || c == 'r' || c == 'R' || c == '<'
                    });
                if !reroll && !["kh", "kl", "dh", "dl", "vs", "cs", "cf"].contains(&next.as_str()) {
                    while self
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    {
                        self.pos += 1;
                    }
                }
            }
            // A custom die's name followed by a keep or a count (`2dcmdkh1`): the longest
            // start of the word that names a die.
            let whole: String = self.chars[start..self.pos].iter().collect();
            if !numeric && self.dice.get(&format!("d{whole}")).is_none() {
                let mut end = self.pos;
                while end > start {
                    let candidate: String = self.chars[start..end].iter().collect();
                    let rest: String = self.chars[end..self.pos].iter().collect();
                    let keeps = ["kh", "kl", "dh", "dl", "cs", "cf"].iter().any(|k| {
                        rest.strip_prefix(k)
                            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
                    }) || rest.starts_with("vs")
                        || (rest.starts_with(['r', 'R'])
                            && rest[1..].starts_with(|c: char| {
                                c.is_ascii_digit() || c == 'r' || c == 'R' || c == '<'
                            }));
                    if keeps && self.dice.get(&format!("d{candidate}")).is_some() {
                        self.pos = end;
                        break;
                    }
                    end -= 1;
                }
            }
            let name: String = self.chars[start..self.pos].iter().collect();
            if name.is_empty() {
                return Err(
                    self.error("expected the number of sides or a die name after 'd'".into())
                );
            }
            let full = format!("d{name}");
            let Some(die) = self.dice.get(&full) else {
                let custom: Vec<String> = self.dice.custom().map(|d| d.name.clone()).collect();
                let hint = if custom.is_empty() {
                    "use dN with N from 2 to 1000".to_string()
                } else {
                    format!("use dN or one of: {}", custom.join(", "))
                };
                return Err(DiceError::Notation {
                    expr: self.source.to_string(),
                    problem: format!("unknown die '{full}' — {hint}"),
                });
            };
            return self.after_die(count as u32, die);
        }
        match count {
            Some(n) if n <= i64::MAX as u64 / 4 => Ok(DiceTerm::Constant(n as i64)),
            Some(_) => Err(self.error("number too large".into())),
            None => Err(self.error("expected a number, a die such as d6, or ceil(…/2)".into())),
        }
    }

    /// What may follow a die: keep or drop (`kh3`), a count of successes (`>=5`), or nothing.
    fn after_die(&mut self, count: u32, die: Die) -> Result<DiceTerm, DiceError> {
        // Explode: `d6!` throws again on its highest face and adds, up to a depth.
        let die = if self.eat('!') {
            match exact::explode(&die, exact::explode_depth(&die)) {
                Some(d) => d,
                None => {
                    return Err(self.error(format!(
                        "{} has one face and would explode for ever",
                        die.name
                    )));
                }
            }
        } else {
            die
        };
        // Reroll: `r1` rerolls a 1 once (the second throw stands), `rr1` until it is not a 1;
        // `r<3` / `rr<3` faces below 3. The die becomes the die the rerolls make.
        let die = if matches!(self.peek(), Some('r' | 'R')) {
            let at = self.pos;
            self.pos += 1;
            let always = self.eat('r') || self.eat('R');
            let below = self.eat('<');
            let Some(n) = self.number() else {
                self.pos = at;
                return Err(
                    self.error("expected the face to reroll after 'r' (r1, rr1, r<3)".into())
                );
            };
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            let rerolled = |v: i64| if below { v < n } else { v == n };
            match reroll(&die, rerolled, always) {
                Some(d) => d,
                None => {
                    self.pos = at;
                    return Err(self.error(format!(
                        "rerolling {} every face of {} leaves nothing to keep",
                        if below {
                            format!("below {n}")
                        } else {
                            format!("{n}")
                        },
                        die.name
                    )));
                }
            }
        } else {
            die
        };
        // Keep or drop the highest or lowest: kh3, kl1, dh1, dl1.
        for (word, keep_word, highest) in [
            ("kh", true, true),
            ("kl", true, false),
            ("dh", false, false),
            ("dl", false, true),
        ] {
            if self.eat_word(word) {
                let at = self.pos;
                let Some(k) = self.number() else {
                    return Err(self.error(format!("expected how many dice after '{word}'")));
                };
                let k = u32::try_from(k).unwrap_or(u32::MAX);
                let keep = if keep_word {
                    k
                } else {
                    count.saturating_sub(k)
                };
                if k == 0 || k > count || keep == 0 {
                    self.pos = at;
                    return Err(self.error(format!(
                        "'{word}{k}' of {count} dice leaves none to sum or more than are thrown"
                    )));
                }
                return Ok(DiceTerm::Keep {
                    count,
                    die,
                    keep,
                    highest,
                });
            }
        }
        // Count successes (cs) or failures (cf) as Roll20 writes them: `8d6cs>=5`, `6d10cf<=2`,
        // `8d6cs6` (a face alone: dice showing it).
        let counting = self.eat_word("cs") || self.eat_word("cf");
        if counting && !matches!(self.peek(), Some('>' | '<')) {
            let at = self.pos;
            let negative = self.eat('-');
            let Some(t) = self.number() else {
                self.pos = at;
                return Err(self
                    .error("expected a face or a comparison to count (8d6cs>=5, 8d6cf1)".into()));
            };
            let t = i64::try_from(t).unwrap_or(i64::MAX) * if negative { -1 } else { 1 };
            return Ok(DiceTerm::Successes {
                count,
                die,
                test: Threshold::Exactly(t),
            });
        }
        // Count successes: >=5, >5, <=2, <2 (a number alone after the comparison; dice after
        // it make two sides thrown against each other, read by the caller).
        if matches!(self.peek(), Some('>' | '<')) {
            let before = self.pos;
            let greater = self.peek() == Some('>');
            self.pos += 1;
            let or_equal = self.eat('=');
            let at = self.pos;
            let negative = self.eat('-');
            let number = self.number();
            if !counting
                && (number.is_none() || matches!(self.peek(), Some('d' | 'D' | '(' | '*' | '{')))
            {
                self.pos = before;
                return Ok(DiceTerm::Dice { count, die });
            }
            let Some(t) = number else {
                self.pos = at;
                return Err(self.error("expected the number to meet after the comparison".into()));
            };
            let t = i64::try_from(t).unwrap_or(i64::MAX) * if negative { -1 } else { 1 };
            let test = match (greater, or_equal) {
                (true, true) => Threshold::AtLeast(t),
                (true, false) => Threshold::AtLeast(t.saturating_add(1)),
                (false, true) => Threshold::AtMost(t),
                (false, false) => Threshold::AtMost(t.saturating_sub(1)),
            };
            return Ok(DiceTerm::Successes { count, die, test });
        }
        Ok(DiceTerm::Dice { count, die })
    }

    /// An expression inside ceil(…/n): stops at the '/'.
    fn expr_until_slash(&mut self) -> Result<Parsed, DiceError> {
        self.expr()
    }
}
