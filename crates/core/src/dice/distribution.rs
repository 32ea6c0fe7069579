//! Exact distributions as integer counts over a common total (no floating point, no sampling).
//! Counts are big integers and probabilities big rationals (`num-bigint`, `num-rational`), so
//! 500d6 (6⁵⁰⁰ cases, 1,293 bits) is as exact as 2d6.

use std::collections::BTreeMap;
use std::fmt;

use num_bigint::BigUint;
use num_rational::Ratio;
use num_traits::{One, ToPrimitive, Zero};
use serde::Serialize;

/// n choose k, or None past 128 bits (never a wrapped value). The shorter of the two
/// products keeps the running value small: C(n, k) = C(n, n−k).
pub fn choose(n: u128, k: u128) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r = 1u128;
    for i in 0..k {
        // r·(n−i) is divisible by i+1 at each step (r is then C(n, i+1)).
        r = r.checked_mul(n - i)? / (i + 1);
    }
    Some(r)
}

/// n choose k exactly, however large.
pub fn choose_big(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut r = BigUint::one();
    for i in 0..k {
        r *= n - i;
        r /= i + 1;
    }
    r
}

/// A probability as a fraction in lowest terms (a big rational: never rounded, never wrapped).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fraction(Ratio<BigUint>);

impl Fraction {
    /// `count / total` reduced to lowest terms; `0/1` when total is zero.
    pub fn new(count: u128, total: u128) -> Fraction {
        Fraction::of(BigUint::from(count), BigUint::from(total))
    }

    /// `count / total` for counts of any size, reduced to lowest terms; `0/1` when total is 0.
    pub fn of(count: BigUint, total: BigUint) -> Fraction {
        if total.is_zero() {
            return Fraction(Ratio::new_raw(BigUint::zero(), BigUint::one()));
        }
        Fraction(Ratio::new(count, total))
    }

    /// The numerator, in lowest terms.
    pub fn numerator(&self) -> &BigUint {
        self.0.numer()
    }

    /// The denominator, in lowest terms (never zero).
    pub fn denominator(&self) -> &BigUint {
        self.0.denom()
    }

    /// The value as a float, for display and bars only. Exact numbers too large for a float
    /// (6⁵⁰⁰ is past 10³⁰⁸) are shifted down together first.
    pub fn to_f64(&self) -> f64 {
        ratio_f64(self.numerator(), self.denominator())
    }

    /// The fraction as people read it: `7631/104976` when it is short, otherwise the float
    /// (`≈ 1.234e-40`) — the exact fraction is in `--json`.
    pub fn words(&self) -> String {
        let exact = self.to_string();
        if exact.len() <= 24 {
            return exact;
        }
        // log₁₀ of the value from each number's leading bits, so values below a float's
        // range (1/6⁵⁰⁰) still read as a power of ten.
        let log = log10(self.numerator()) - log10(self.denominator());
        let exponent = log.floor();
        format!("≈ {:.3}e{}", 10f64.powf(log - exponent), exponent as i64)
    }
}

/// log₁₀ of a big number from its leading 64 bits (−∞ for zero).
fn log10(x: &BigUint) -> f64 {
    let shift = x.bits().saturating_sub(64);
    let top = (x >> shift).to_f64().unwrap_or(0.0);
    top.log10() + shift as f64 * std::f64::consts::LOG10_2
}

/// a / b as a float, shifting both down when they are too large for one.
pub fn ratio_f64(a: &BigUint, b: &BigUint) -> f64 {
    if b.is_zero() {
        return 0.0;
    }
    let bits = a.bits().max(b.bits());
    let shift = bits.saturating_sub(1000);
    let (a, b) = if shift > 0 {
        (a >> shift, b >> shift)
    } else {
        (a.clone(), b.clone())
    };
    match (a.to_f64(), b.to_f64()) {
        // A numerator lost below a float's range against a huge denominator.
        (Some(x), Some(y)) if y > 0.0 => x / y,
        _ => 0.0,
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.numerator(), self.denominator())
    }
}

impl Serialize for Fraction {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Distribution of an integer result: how many of `total` equally likely cases give each value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distribution {
    /// (value, count) in ascending order of value, no zero counts.
    counts: Vec<(i64, BigUint)>,
    total: BigUint,
}

/// The widest value range convolved over arrays (beyond it, a map of the values present).
const DENSE_SPAN: usize = 4_000_000;

impl Distribution {
    /// A certain value.
    pub fn constant(value: i64) -> Distribution {
        Distribution {
            counts: vec![(value, BigUint::one())],
            total: BigUint::one(),
        }
    }

    /// Builds a distribution from (value, weight) pairs.
    pub fn from_weights(pairs: impl IntoIterator<Item = (i64, u128)>) -> Distribution {
        Distribution::from_counts(pairs.into_iter().map(|(v, w)| (v, BigUint::from(w))))
    }

    /// Builds a distribution from (value, count) pairs of any size.
    pub fn from_counts(pairs: impl IntoIterator<Item = (i64, BigUint)>) -> Distribution {
        let mut map: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (value, count) in pairs {
            if count.is_zero() {
                continue;
            }
            *map.entry(value).or_default() += count;
        }
        let total = map.values().sum();
        Distribution {
            counts: map.into_iter().collect(),
            total,
        }
    }

    /// Values and counts from a dense array starting at `base` (zero counts dropped).
    fn from_dense(base: i64, dense: Vec<BigUint>, total: BigUint) -> Distribution {
        let counts = dense
            .into_iter()
            .enumerate()
            .filter(|(_, c)| !c.is_zero())
            .map(|(k, c)| (base + k as i64, c))
            .collect();
        Distribution { counts, total }
    }

    /// The value range as an array span, when it is compact enough for arrays.
    fn dense_span(&self) -> Option<usize> {
        let span = usize::try_from(self.max()?.checked_sub(self.min()?)?).ok()? + 1;
        (span <= DENSE_SPAN).then_some(span)
    }

    fn to_dense(&self, span: usize) -> Vec<BigUint> {
        let min = self.min().unwrap_or(0);
        let mut v = vec![BigUint::zero(); span];
        for (value, count) in &self.counts {
            v[(value - min) as usize] = count.clone();
        }
        v
    }

    /// The distribution of the sum of two independent results (convolution).
    /// Returns `None` only when a value passes the range of an `i64`.
    pub fn add(&self, other: &Distribution) -> Option<Distribution> {
        let base = self.min()?.checked_add(other.min()?)?;
        self.max()?.checked_add(other.max()?)?;
        if let (Some(a_span), Some(b_span)) = (self.dense_span(), other.dense_span())
            && a_span.saturating_add(b_span) <= DENSE_SPAN
        {
            // Over arrays indexed by value: many times faster than a map.
            let a = self.to_dense(a_span);
            let b = other.to_dense(b_span);
            let mut out = vec![BigUint::zero(); a_span + b_span - 1];
            for (i, ca) in a.iter().enumerate() {
                if ca.is_zero() {
                    continue;
                }
                for (j, cb) in b.iter().enumerate() {
                    if cb.is_zero() {
                        continue;
                    }
                    out[i + j] += ca * cb;
                }
            }
            return Some(Distribution::from_dense(
                base,
                out,
                &self.total * &other.total,
            ));
        }
        let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (a, ca) in &self.counts {
            for (b, cb) in &other.counts {
                *counts.entry(a + b).or_default() += ca * cb;
            }
        }
        Some(Distribution {
            counts: counts.into_iter().collect(),
            total: &self.total * &other.total,
        })
    }

    /// The sum of `n` independent copies of this result. A die whose faces are the whole
    /// numbers of a range, equally likely (d6, d1000, d{1..10}), adds one die at a time by a
    /// sliding window: each new count is the previous one plus the count entering the window
    /// minus the count leaving it, two additions a value instead of one per face. Other dice
    /// convolve one at a time.
    pub fn sum_of(&self, n: u64) -> Option<Distribution> {
        let (lo, hi) = (self.min()?, self.max()?);
        lo.checked_mul(i64::try_from(n).ok()?)?;
        hi.checked_mul(i64::try_from(n).ok()?)?;
        let faces = usize::try_from(hi - lo).ok()? + 1;
        let uniform = self.counts.len() == faces
            && self.counts.iter().all(|(_, c)| c == &self.counts[0].1)
            && faces
                .checked_mul(n as usize + 1)
                .is_some_and(|s| s <= DENSE_SPAN);
        if !uniform {
            let mut acc = Distribution::constant(0);
            for _ in 0..n {
                acc = acc.add(self)?;
            }
            return Some(acc);
        }
        if n == 0 {
            return Some(Distribution::constant(0));
        }
        // Counts of the sum of k dice less k·lo, at 0..=k·(faces−1); each face weighs `w`.
        let w = &self.counts[0].1;
        let mut cur: Vec<BigUint> = vec![w.clone(); faces];
        for k in 1..n as usize {
            let len = (k + 1) * (faces - 1) + 1;
            let mut next = Vec::with_capacity(len);
            let mut window = BigUint::zero();
            for s in 0..len {
                if let Some(c) = cur.get(s) {
                    window += c;
                }
                if s >= faces {
                    window -= &cur[s - faces];
                }
                next.push(&window * w);
            }
            cur = next;
        }
        let total = self.total.pow(u32::try_from(n).ok()?);
        Some(Distribution::from_dense(lo * n as i64, cur, total))
    }

    /// The distribution of `f(a, b)` for two independent results (the higher or lower of two
    /// throws).
    pub fn combine(&self, other: &Distribution, f: impl Fn(i64, i64) -> i64) -> Distribution {
        let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (a, ca) in &self.counts {
            for (b, cb) in &other.counts {
                *counts.entry(f(*a, *b)).or_default() += ca * cb;
            }
        }
        Distribution {
            counts: counts.into_iter().collect(),
            total: &self.total * &other.total,
        }
    }

    /// Applies a function to every value, merging equal results.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Distribution {
        let mut counts: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (value, count) in &self.counts {
            *counts.entry(f(*value)).or_default() += count;
        }
        Distribution {
            counts: counts.into_iter().collect(),
            total: self.total.clone(),
        }
    }

    /// Number of equally likely cases.
    pub fn total(&self) -> &BigUint {
        &self.total
    }

    /// (value, count) pairs in ascending order of value.
    pub fn counts(&self) -> impl Iterator<Item = (i64, &BigUint)> + '_ {
        self.counts.iter().map(|(v, c)| (*v, c))
    }

    /// Probability of one value.
    pub fn probability(&self, value: i64) -> Fraction {
        let count = self
            .counts
            .binary_search_by_key(&value, |(v, _)| *v)
            .map_or_else(|_| BigUint::zero(), |i| self.counts[i].1.clone());
        Fraction::of(count, self.total.clone())
    }

    /// Smallest possible value.
    pub fn min(&self) -> Option<i64> {
        self.counts.first().map(|(v, _)| *v)
    }

    /// Largest possible value.
    pub fn max(&self) -> Option<i64> {
        self.counts.last().map(|(v, _)| *v)
    }

    /// The mean, as a float.
    pub fn mean(&self) -> f64 {
        self.counts
            .iter()
            .map(|(v, c)| *v as f64 * ratio_f64(c, &self.total))
            .sum()
    }
}
