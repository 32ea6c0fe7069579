//! Exact distributions of pools without enumerating throws: successes by the binomial, keep
//! highest/lowest by the face each throw's kept dice end at, and the cost of computing either
//! before it is done (so a request past the budget is refused at once).
//!
//! The keep algorithm began from the idea in H. Liu, "Icepool: Efficient Computation of Dice
//! Pool Probabilities" (2022): walk the faces from the end being kept, and count how many of
//! the dice show each (a binomial count). Ours needs no state for the dice kept so far: a throw
//! is settled by the face its kept dice end at ([`keep`]), so the work is one polynomial a
//! face, taken by Horner's rule.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::die::{Die, DieFace, Threshold};
use super::distribution::Distribution;

/// What will be done with a distribution once computed (its cost is part of the budget).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Nothing printed (a procedure's odds, the desk's bars).
    None,
    /// A line a value: the percentage and the fraction when short.
    Text,
    /// Every value's exact fraction in lowest terms.
    Json,
}

/// Faces merged by value, with their weights, lowest value first.
fn merged(die: &Die) -> Vec<(i64, u64)> {
    let mut faces: BTreeMap<i64, u64> = BTreeMap::new();
    for f in &die.faces {
        *faces.entry(f.value).or_insert(0) += u64::from(f.weight);
    }
    faces.into_iter().collect()
}

/// The weight of a die's faces that meet the test.
pub fn hit_weight(die: &Die, test: Threshold) -> u64 {
    die.faces
        .iter()
        .filter(|f| test.met(f.value))
        .map(|f| u64::from(f.weight))
        .sum()
}

/// The number of successes among `n` dice: C(n, k)·hitᵏ·missⁿ⁻ᵏ for each k, each count from
/// the one before by a product and an exact division by small numbers:
/// count(k+1) = count(k)·(n−k)·hit / ((k+1)·miss).
pub fn successes(die: &Die, n: u32, test: Threshold) -> Distribution {
    let total = die.total_weight();
    let hit = hit_weight(die, test);
    let miss = total - hit;
    let n = u64::from(n);
    if hit == 0 || miss == 0 {
        let all = if hit == 0 { 0 } else { n as i64 };
        return Distribution::from_counts([(all, BigUint::from(total).pow(n as u32))]);
    }
    let mut count = BigUint::from(miss).pow(n as u32);
    let mut pairs = Vec::with_capacity(n as usize + 1);
    for k in 0..n {
        let next = &count * ((n - k) * hit) / ((k + 1) * miss);
        pairs.push((k as i64, count));
        count = next;
    }
    pairs.push((n as i64, count));
    Distribution::from_counts(pairs)
}

/// The sum of the highest (or lowest) `keep` of `n` dice.
///
/// Faces are taken in the order they are kept, v₁ first. A throw of more than `keep` dice is
/// settled by its boundary face vᵢ: the j ≤ keep dice above it are all kept, and more than
/// keep − j dice show vᵢ exactly (the rest show later faces). So its kept sum is the sum of j
/// dice over the faces above vᵢ plus (keep − j)·vᵢ, and its count
/// C(n, j) · Uʲ · F(n − j, keep − j + 1), with U the faces above vᵢ and F(m, r) the ways m
/// dice show vᵢ at least r times and later faces otherwise:
/// Σ_{t≥r} C(m, t)·aᵗ·b^(m−t), a the weight of vᵢ and b of the faces after it. F follows
/// itself as j falls (m − r stays n − keep − 1): F(m+1, r+1) = (a+b)·F(m, r) − b·C(m, r)·aʳ·b^(m−r).
/// The polynomial Σⱼ cⱼ·Uʲ is taken by Horner's rule, one product by U a step, and by a sliding
/// window when the faces above vᵢ are a run of equal weights (a d6): the cost is keep² values
/// a face, where a state for each (dice kept, kept sum) was keep³.
pub fn keep(die: &Die, n: u32, keep: u32, highest: bool) -> Option<Distribution> {
    let mut faces = merged(die);
    if highest {
        faces.reverse();
    }
    let (n, k) = (u64::from(n), u64::from(keep.min(n)));
    if k == n {
        let one = Distribution::from_weights(faces.iter().map(|(v, w)| (*v, u128::from(*w))));
        return one.sum_of(n);
    }
    if k == 0 {
        let total: u64 = faces.iter().map(|(_, w)| *w).sum();
        return Some(Distribution::from_counts([(
            0,
            BigUint::from(total).pow(u32::try_from(n).ok()?),
        )]));
    }
    // C(n, j) for j ≤ k.
    let mut choose_n = Vec::with_capacity(k as usize + 1);
    choose_n.push(BigUint::one());
    for j in 1..=k {
        let next = &choose_n[j as usize - 1] * (n - j + 1) / j;
        choose_n.push(next);
    }
    let gap = u32::try_from(n - k - 1).ok()?;
    let mut settled: BTreeMap<i64, BigUint> = BTreeMap::new();
    let mut after: u64 = faces.iter().map(|(_, w)| *w).sum();
    for (i, &(value, a)) in faces.iter().enumerate() {
        after -= a;
        let b = after;
        // cⱼ = C(n, j)·F(n−j, k−j+1), j from k down to 0.
        let mut c = vec![BigUint::zero(); k as usize + 1];
        let b_gap = BigUint::from(b).pow(gap);
        let mut f = BigUint::from(a + b).pow(gap + 1) - &b_gap * b;
        let mut choose_mr = BigUint::from(n - k); // C(m, r) at (n−k, 1)
        let mut a_pow = BigUint::from(a); // aʳ
        let mut j = k;
        loop {
            c[j as usize] = &choose_n[j as usize] * &f;
            if j == 0 {
                break;
            }
            // (m, r) = (n−j, k−j+1) → (m+1, r+1).
            let (m, r) = (n - j, k - j + 1);
            f = &f * (a + b) - &choose_mr * &a_pow * &b_gap * b;
            choose_mr = choose_mr * (m + 1) / (r + 1);
            a_pow *= a;
            j -= 1;
        }
        if i == 0 {
            // Nothing above the first face: only j = 0.
            let s = value.checked_mul(k as i64)?;
            *settled.entry(s).or_default() += &c[0];
            continue;
        }
        // The faces above, as offsets from vᵢ (1 and up).
        let above: Vec<(usize, u64)> = faces[..i]
            .iter()
            .map(|(v, w)| Some((usize::try_from((v - value).abs()).ok()?, *w)))
            .collect::<Option<_>>()?;
        let run = above.iter().all(|(_, w)| *w == above[0].1)
            && above.len() == above.iter().map(|(o, _)| *o).max().unwrap_or(0);
        let mut acc = vec![c[k as usize].clone()];
        for j in (0..k as usize).rev() {
            acc = if run {
                super::poly::times_run(&acc, above.len(), above[0].1)
            } else {
                super::poly::times_sparse(&acc, &above)
            };
            acc[0] += &c[j];
        }
        let start = value.checked_mul(k as i64)?;
        let step: i64 = if highest { 1 } else { -1 };
        for (e, count) in acc.into_iter().enumerate() {
            if !count.is_zero() {
                let s = start.checked_add(step.checked_mul(e as i64)?)?;
                *settled.entry(s).or_default() += count;
            }
        }
    }
    Some(Distribution::from_counts(settled))
}

/// How deep an exploding die goes: icepool's default (9 further dice) unless the die's cases
/// would pass 32 bits, then as deep as they fit.
pub fn explode_depth(die: &Die) -> u32 {
    let total = die.total_weight().max(2) as u128;
    let mut depth = 0u32;
    while depth < 9 && total.pow(depth + 2) <= u128::from(u32::MAX) {
        depth += 1;
    }
    depth
}

/// An exploding die (`d6!`): each time it shows its highest face it is thrown again and added,
/// at most `depth` more times (the last throw stands). Over T^(depth+1) equally likely cases: a
/// throw that explodes L times and then shows face v ≠ the highest weighs
/// w_v·w_topᴸ·T^(depth−L) (the throws it did not need, padded); the last level keeps every face.
/// None when the die has a single face (it would explode for ever).
pub fn explode(die: &Die, depth: u32) -> Option<Die> {
    let faces = merged(die);
    if faces.len() < 2 {
        return None;
    }
    let total = u128::from(die.total_weight());
    let (top, w_top) = *faces.last()?;
    let mut out: BTreeMap<i64, u128> = BTreeMap::new();
    for level in 0..=depth {
        let base = top.checked_mul(i64::from(level))?;
        let lead = u128::from(w_top).checked_pow(level)?;
        let pad = total.checked_pow(depth - level)?;
        for &(v, w) in &faces {
            if v == top && level < depth {
                continue;
            }
            *out.entry(base.checked_add(v)?).or_insert(0) +=
                u128::from(w).checked_mul(lead)?.checked_mul(pad)?;
        }
    }
    let faces = out
        .into_iter()
        .map(|(value, weight)| {
            Some(DieFace {
                value,
                label: None,
                weight: u32::try_from(weight).ok()?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Die {
        name: format!("{}!", die.name),
        faces,
    })
}

/// What computing an exact distribution will take, estimated before it is done.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cost {
    /// Word operations on big integers (additions and multiplications of 64-bit limbs).
    pub work: f64,
    /// Bytes held at the peak.
    pub bytes: f64,
    /// Number of distinct values of the result.
    pub values: f64,
    /// log₂ of the number of equally likely cases.
    pub bits: f64,
    /// log₂ of the largest numerator once reduced, when it is known to be smaller than the
    /// number of cases (a count of successes: C(n, k) times powers of the reduced weights).
    pub numer_bits: f64,
    /// 1 when the counts come from weighted faces (an exploding die, `d{1,1,2}`): rich in the
    /// total's prime factors, so slower to reduce; 0 for runs of equal weights.
    pub skew: f64,
    /// How many odd primes divide the number of cases (each a pass over every count to reduce
    /// its probability; a power of two costs none).
    pub primes: f64,
    /// Terms of the recurrence a value, for a sum of dice (see [`Cost::groups`]).
    pub terms: f64,
}

/// Word operations a second, measured on the benchmark machine (BENCHMARKS.md, "Exact odds of
/// big pools") and rounded down, so that estimates err long.
pub const WORK_PER_SECOND: f64 = 1.5e8;

/// The estimate's margin: a notation is taken when its estimate times this fits the budget.
/// The cost model's estimates run from 0.57 to 1.9 of the time measured over two sittings
/// (BENCHMARKS.md, "Odds at the limit": printing 1000d20 as text is the longest against its
/// estimate, and varies most between sittings), so with this margin a notation taken finishes
/// within its budget.
pub const ESTIMATE_MARGIN: f64 = 1.8;

/// The limits an exact computation must fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Seconds.
    pub seconds: f64,
    /// Bytes.
    pub bytes: f64,
}

impl Default for Budget {
    /// One second and 512 MiB.
    fn default() -> Budget {
        Budget {
            seconds: 1.0,
            bytes: 512.0 * 1024.0 * 1024.0,
        }
    }
}

impl Cost {
    /// Seconds, as estimated.
    pub fn seconds(&self) -> f64 {
        self.work / WORK_PER_SECOND
    }

    /// Seconds at worst: the estimate with its margin ([`ESTIMATE_MARGIN`]).
    pub fn seconds_at_worst(&self) -> f64 {
        self.seconds() * ESTIMATE_MARGIN
    }

    /// Whether it fits the budget, at worst: a notation taken finishes within it.
    pub fn fits(&self, budget: &Budget) -> bool {
        self.seconds_at_worst() <= budget.seconds && self.bytes <= budget.bytes
    }

    /// A certain number.
    pub fn constant() -> Cost {
        Cost {
            work: 1.0,
            bytes: 64.0,
            values: 1.0,
            bits: 0.0,
            numer_bits: 0.0,
            skew: 0.0,
            primes: 0.0,
            terms: 1.0,
        }
    }

    fn limbs(bits: f64) -> f64 {
        bits / 64.0 + 1.0
    }

    /// A number of values each held as a big integer of `bits`.
    fn held(values: f64, bits: f64) -> f64 {
        values * (32.0 + 8.0 * Cost::limbs(bits))
    }

    /// The sum of `n` dice of `faces` distinct values over `span` consecutive values of
    /// `weight_bits` bits of cases each; `uniform` when they are a run of equal weights; the
    /// die's number of cases has `primes` odd prime factors.
    pub fn sum(
        n: f64,
        faces: f64,
        span: f64,
        weight_bits: f64,
        uniform: bool,
        primes: f64,
    ) -> Cost {
        let values = n * (span - 1.0) + 1.0;
        let bits = n * weight_bits;
        let limbs = Cost::limbs(bits);
        let work = if n <= 1.0 {
            faces
        } else if n * span > DENSE_SPAN {
            // Past arrays: one die at a time over a map, each value against each face.
            n * n / 2.0 * span * faces * (SUM_MAP_VALUE + SUM_MAP_LIMB * limbs)
        } else if uniform {
            // Half the values by a recurrence of four terms, the other half mirrored.
            SUM_FIXED + values * (SUM_UNIFORM_VALUE + SUM_UNIFORM_LIMB * limbs)
        } else {
            // Miller's recurrence: each value from the faces' values before it.
            SUM_FIXED + values * faces * (SUM_MILLER_VALUE + SUM_MILLER_LIMB * limbs)
        };
        Cost {
            work,
            bytes: 2.0 * Cost::held(values, bits),
            values,
            bits,
            numer_bits: bits,
            skew: if uniform { 0.0 } else { 1.0 },
            primes,
            terms: if uniform { 4.0 } else { faces },
        }
    }

    /// Several groups of dice summed by one recurrence (each group's [`Cost::sum`] given):
    /// about (groups + 1)·Π(terms of each) products a value, four terms for a run of equal
    /// weights, a term a face otherwise.
    pub fn groups(parts: &[Cost]) -> Cost {
        let values = parts.iter().map(|c| c.values - 1.0).sum::<f64>() + 1.0;
        let bits: f64 = parts.iter().map(|c| c.bits).sum();
        // Terms of S and T that cancel or merge (the runs' common 1 − x): about a sixth are
        // left (fitted to 300d6+200d8, 1000d6+1000d5, 12d1000+12d999, 100d100+100d99).
        let terms =
            (parts.len() as f64 + 1.0) * parts.iter().map(|c| c.terms).product::<f64>() / 6.0;
        let work = if values > DENSE_SPAN {
            parts.iter().map(|c| c.work).sum::<f64>() + values * values
        } else {
            SUM_FIXED + values * terms * (SUM_MILLER_VALUE + SUM_MILLER_LIMB * Cost::limbs(bits))
        };
        Cost {
            work,
            bytes: 2.0 * Cost::held(values, bits),
            values,
            bits,
            numer_bits: parts.iter().map(|c| c.numer_bits).sum(),
            skew: parts.iter().map(|c| c.skew).fold(0.0, f64::max),
            primes: parts.iter().map(|c| c.primes).sum(),
            terms,
        }
    }

    /// Counting successes among `n` dice: each count from the one before.
    pub fn successes(n: f64, weight_bits: f64, primes: f64, reduced_bits: f64) -> Cost {
        let bits = n * weight_bits;
        Cost {
            work: (n + 1.0) * (COUNT_VALUE + COUNT_LIMB * Cost::limbs(bits)),
            bytes: 2.0 * Cost::held(n + 1.0, bits),
            values: n + 1.0,
            bits,
            numer_bits: n * reduced_bits,
            skew: 0.0,
            primes,
            terms: 1.0,
        }
    }

    /// Keeping `keep` of `n` dice of `faces` values spread over `span`; `run` when the faces
    /// are a run of equal weights (each product by the faces above is a sliding window).
    pub fn keep(
        n: f64,
        keep: f64,
        (faces, span, weight_bits, run): (f64, f64, f64, bool),
        primes: f64,
    ) -> Cost {
        if keep >= n {
            return Cost::sum(n, faces, span, weight_bits, run, primes);
        }
        let bits = n * weight_bits;
        let values = keep * (span - 1.0) + 1.0;
        let limbs = Cost::limbs(bits);
        // For the i-th face (i faces above it, spread over about i·span/faces values), keep
        // steps of Horner's rule over up to keep·i·span/faces values, each value a window of
        // two additions (a run) or a product a face above.
        let mut steps = 0.0;
        let mut i = 1.0;
        while i < faces {
            let reach = i * (span - 1.0) / (faces - 1.0).max(1.0);
            let per_value = if run { 2.0 } else { i };
            steps += keep * keep / 2.0 * reach * per_value;
            i += 1.0;
        }
        let work = KEEP_FIXED
            + steps * (KEEP_STEP + KEEP_LIMB * limbs)
            + faces * (150.0 + keep * 2.0 * limbs);
        Cost {
            work,
            bytes: 3.0 * Cost::held(2.0 * values, bits),
            values,
            bits,
            numer_bits: bits,
            skew: if run { 0.0 } else { 1.0 },
            primes,
            terms: 1.0,
        }
    }

    /// The sum of two independent results: term by term when either is short, else one
    /// product of two packed big integers (Toom-3, about (words)^1.47).
    pub fn pair(a: &Cost, b: &Cost, values: f64) -> Cost {
        let bits = a.bits + b.bits;
        let (short, long) = (a.values.min(b.values), a.values.max(b.values));
        let work = if short <= 8.0 || short * long <= 4096.0 {
            short * long * (PAIR_TERM + PAIR_LIMB * Cost::limbs(a.bits) * Cost::limbs(b.bits))
        } else {
            let words = (a.values + b.values) * (Cost::limbs(bits) + 1.0);
            KRONECKER_WORD * words.powf(1.47) + values * (PAIR_TERM + Cost::limbs(bits))
        };
        Cost::joined(a, b, values, work)
    }

    /// Two results made one (added or compared) by `work`: their counts multiply, so their
    /// bits add.
    fn joined(a: &Cost, b: &Cost, values: f64, work: f64) -> Cost {
        let bits = a.bits + b.bits;
        Cost {
            work: a.work + b.work + work,
            bytes: a.bytes.max(b.bytes) + 3.0 * Cost::held(values, bits),
            values,
            bits,
            numer_bits: a.numer_bits + b.numer_bits,
            skew: a.skew.max(b.skew),
            primes: a.primes + b.primes,
            terms: 1.0,
        }
    }

    /// Two results compared (an opposed roll, the higher or lower of two): one pass over the
    /// values, a product of counts each.
    pub fn compared(a: &Cost, b: &Cost, values: f64) -> Cost {
        let products = a.values + b.values;
        let work = products * (PAIR_TERM + PAIR_LIMB * Cost::limbs(a.bits) * Cost::limbs(b.bits));
        Cost::joined(a, b, values, work)
    }

    /// This cost and printing its result: reducing each probability (a few passes over its
    /// count for each prime of the total, more when weighted faces leave counts rich in them),
    /// and for JSON each numerator's decimal (num-bigint's conversion, about words^1.5).
    pub fn printed(&self, output: Output) -> Cost {
        let limbs = Cost::limbs(self.bits);
        let reduce = self.primes
            * (PRINT_REDUCE_PRIME + PRINT_REDUCE_LIMB * limbs * (1.0 + self.skew * limbs / 8.0));
        let decimal = PRINT_DECIMAL * Cost::limbs(self.numer_bits).powf(1.5);
        let per_value = match output {
            Output::None => return *self,
            Output::Text => PRINT_TEXT_VALUE + reduce,
            Output::Json => PRINT_TEXT_VALUE + reduce + decimal,
        };
        Cost {
            work: self.work + PRINT_FIXED + decimal + self.values * per_value,
            ..*self
        }
    }
}

// The weights of the cost model, in word operations (at WORK_PER_SECOND), fitted to release
// timings on the benchmark machine (BENCHMARKS.md, "Odds at the limit"): each is the time of
// one step of its algorithm, a fixed part and a part per 64-bit word of the numbers.
const SUM_FIXED: f64 = 1_500.0;
const SUM_UNIFORM_VALUE: f64 = 7.0;
const SUM_UNIFORM_LIMB: f64 = 0.85;
const SUM_MILLER_VALUE: f64 = 4.0;
const SUM_MILLER_LIMB: f64 = 0.15;
const SUM_MAP_VALUE: f64 = 40.0;
const SUM_MAP_LIMB: f64 = 2.0;
const COUNT_VALUE: f64 = 8.0;
const COUNT_LIMB: f64 = 1.05;
const KEEP_FIXED: f64 = 2_000.0;
const KEEP_STEP: f64 = 2.6;
const KEEP_LIMB: f64 = 0.03;
const PAIR_TERM: f64 = 8.0;
const PAIR_LIMB: f64 = 0.05;
const KRONECKER_WORD: f64 = 0.25;
const PRINT_FIXED: f64 = 12_000.0;
const PRINT_TEXT_VALUE: f64 = 45.0;
const PRINT_REDUCE_PRIME: f64 = 35.0;
const PRINT_REDUCE_LIMB: f64 = 3.4;
const PRINT_DECIMAL: f64 = 1.9;

/// The widest value range the sums take over arrays (as `distribution.rs`).
const DENSE_SPAN: f64 = 4_000_000.0;
