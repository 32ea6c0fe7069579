//! Exact distributions as integer counts over a common total (no floating point, no sampling).
//! Counts are big integers and probabilities big rationals (`num-bigint`, `num-rational`), so
//! 500d6 (6⁵⁰⁰ cases, 1,293 bits) is as exact as 2d6.

use std::collections::BTreeMap;
use std::fmt;

use num_bigint::BigUint;
use num_rational::Ratio;
use num_traits::{One, ToPrimitive, Zero};

use super::poly;
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

    /// A fraction already in lowest terms (not checked).
    fn reduced(numerator: BigUint, denominator: BigUint) -> Fraction {
        Fraction(Ratio::new_raw(numerator, denominator))
    }

    /// The fraction as people read it: `7631/104976` when it is short, otherwise the float
    /// (`≈ 1.234e-40`) — the exact fraction is in `--json`.
    pub fn words(&self) -> String {
        words(self.numerator(), self.denominator(), None)
    }
}

/// A fraction in lowest terms as people read it: exact when it is at most 24 characters
/// (decided from the numbers' bits before any decimal is built), else `≈ 1.234e-40` from
/// their leading bits. `denominator_decimal` is the denominator's decimal when already built.
fn words(numerator: &BigUint, denominator: &BigUint, denominator_decimal: Option<&str>) -> String {
    // 80 bits are at least 24 decimal digits between them, with the slash one too many.
    if numerator.bits() + denominator.bits() <= 80 {
        let exact = match denominator_decimal {
            Some(d) => format!("{numerator}/{d}"),
            None => format!("{numerator}/{denominator}"),
        };
        if exact.len() <= 24 {
            return exact;
        }
    }
    // log₁₀ of the value from each number's leading bits, so values below a float's
    // range (1/6⁵⁰⁰) still read as a power of ten.
    let log = log10(numerator) - log10(denominator);
    let exponent = log.floor();
    format!("≈ {:.3}e{}", 10f64.powf(log - exponent), exponent as i64)
}

/// One value's probability in lowest terms, reduced once ([`Distribution::reduced`]); the
/// decimal of a denominator is built once for all the values that share it.
#[derive(Debug, Clone)]
pub struct Reduced {
    /// The value.
    pub value: i64,
    /// The numerator, in lowest terms.
    pub numerator: BigUint,
    denominator: std::rc::Rc<Denominator>,
}

#[derive(Debug)]
struct Denominator {
    value: BigUint,
    decimal: std::cell::OnceCell<String>,
}

impl Reduced {
    /// The probability as a float (display and bars only).
    pub fn to_f64(&self) -> f64 {
        ratio_f64(&self.numerator, &self.denominator.value)
    }

    /// The denominator, in lowest terms.
    pub fn denominator(&self) -> &BigUint {
        &self.denominator.value
    }

    fn denominator_decimal(&self) -> &str {
        self.denominator
            .decimal
            .get_or_init(|| self.denominator.value.to_string())
    }

    /// `numerator/denominator` in decimal.
    pub fn fraction_text(&self) -> String {
        format!("{}/{}", self.numerator, self.denominator_decimal())
    }

    /// As [`Fraction::words`].
    pub fn words(&self) -> String {
        let decimal = (self.numerator.bits() + self.denominator.value.bits() <= 80)
            .then(|| self.denominator_decimal());
        words(&self.numerator, &self.denominator.value, decimal)
    }

    /// As a [`Fraction`].
    pub fn fraction(&self) -> Fraction {
        Fraction::reduced(self.numerator.clone(), self.denominator.value.clone())
    }
}

/// Fractions over one total reduced to lowest terms by the total's prime factors, found once:
/// a count's share of each is a division or two, where a greatest common divisor costs a pass
/// a bit of the numbers; the denominators that come out alike are built once.
pub struct Reducer {
    total: BigUint,
    factors: Vec<(u64, u64)>,
    rest: BigUint,
    denominators: std::collections::HashMap<(Vec<u64>, BigUint), std::rc::Rc<Denominator>>,
}

impl Reducer {
    /// Factors `total` (its primes below 2¹⁶, and what is left).
    pub fn new(total: &BigUint) -> Reducer {
        let (factors, rest) = factor(total);
        Reducer {
            total: total.clone(),
            factors,
            rest,
            denominators: std::collections::HashMap::new(),
        }
    }

    /// `count / total` in lowest terms; `0/1` when the total is zero.
    pub fn fraction(&mut self, count: &BigUint) -> Fraction {
        if self.total.is_zero() {
            return Fraction::of(BigUint::zero(), BigUint::zero());
        }
        let (numerator, denominator) = self.shares(count);
        Fraction::reduced(numerator, denominator.value.clone())
    }

    fn shares(&mut self, count: &BigUint) -> (BigUint, std::rc::Rc<Denominator>) {
        let mut numerator = count.clone();
        let mut shares = Vec::with_capacity(self.factors.len());
        for &(p, e) in &self.factors {
            let (v, left) = valuation(&numerator, p, e);
            numerator = left;
            shares.push(v);
        }
        let common = if self.rest.is_one() {
            BigUint::one()
        } else {
            num_integer::Integer::gcd(&numerator, &self.rest)
        };
        if !common.is_one() {
            numerator /= &common;
        }
        let (total, factors) = (&self.total, &self.factors);
        let denominator = self
            .denominators
            .entry((shares, common))
            .or_insert_with_key(|(shares, common)| {
                let mut d = total / common;
                for (&(p, _), &v) in factors.iter().zip(shares) {
                    if v > 0 {
                        d /= BigUint::from(p).pow(v as u32);
                    }
                }
                std::rc::Rc::new(Denominator {
                    value: d,
                    decimal: std::cell::OnceCell::new(),
                })
            })
            .clone();
        (numerator, denominator)
    }
}

/// The primes below 2¹⁶, sieved once a process.
fn small_primes() -> &'static [u64] {
    static PRIMES: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    PRIMES.get_or_init(sieve)
}

fn sieve() -> Vec<u64> {
    const LIMIT: usize = 1 << 16;
    let mut composite = vec![false; LIMIT];
    let mut primes = Vec::new();
    for p in 2..LIMIT {
        if composite[p] {
            continue;
        }
        primes.push(p as u64);
        let mut m = p * p;
        while m < LIMIT {
            composite[m] = true;
            m += p;
        }
    }
    primes
}

/// How many times `p` divides `x`, at most `cap`, and `x` divided by `p` that many times:
/// by the largest power of `p` in 64 bits first, so 3¹⁰⁰⁰⁰ takes 250 divisions, not 10,000.
fn valuation(x: &BigUint, p: u64, cap: u64) -> (u64, BigUint) {
    if p == 2 {
        let v = x.trailing_zeros().unwrap_or(0).min(cap);
        return (v, x >> v);
    }
    let (mut big, mut step) = (p, 1u64);
    while let Some(next) = big.checked_mul(p) {
        big = next;
        step += 1;
    }
    let mut v = 0;
    if let Some(mut small) = x.to_u128().filter(|&s| s > 0) {
        // Two words or fewer: in machine arithmetic.
        for (divisor, by) in [(big, step), (p, 1)] {
            while v + by <= cap && small % u128::from(divisor) == 0 {
                small /= u128::from(divisor);
                v += by;
            }
        }
        return (v, BigUint::from(small));
    }
    let mut x = x.clone();
    for (divisor, by) in [(big, step), (p, 1)] {
        while v + by <= cap && (&x % divisor).is_zero() {
            x /= divisor;
            v += by;
        }
    }
    (v, x)
}

/// The total's prime factors below 2¹⁶ with their powers, and what is left of it: found a
/// product of four primes at a time (one pass over the total each), so a total of 6¹⁰⁰⁰⁰
/// costs a few thousand passes, once.
fn factor(total: &BigUint) -> (Vec<(u64, u64)>, BigUint) {
    let mut rest = total.clone();
    let mut found = Vec::new();
    if rest.is_zero() {
        return (found, rest);
    }
    for chunk in small_primes().chunks(4) {
        if rest.is_one() {
            break;
        }
        let product: u64 = chunk.iter().product();
        let r = (&rest % product).to_u64().unwrap_or(1);
        for &p in chunk {
            if r.is_multiple_of(p) {
                let (v, left) = valuation(&rest, p, u64::MAX);
                found.push((p, v));
                rest = left;
            }
        }
    }
    (found, rest)
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
    let shifted;
    let (a, b) = if shift > 0 {
        shifted = (a >> shift, b >> shift);
        (&shifted.0, &shifted.1)
    } else {
        (a, b)
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

    /// The distribution of the sum of two independent results (convolution): term by term
    /// when either is short, else by one product of big integers ([`poly::multiply`]).
    /// Returns `None` only when a value passes the range of an `i64`.
    pub fn add(&self, other: &Distribution) -> Option<Distribution> {
        let base = self.min()?.checked_add(other.min()?)?;
        self.max()?.checked_add(other.max()?)?;
        if self.counts.len() == 1 && other.counts.len() > 1 {
            return other.add(self);
        }
        if other.counts.len() == 1 {
            // A constant (or one certain value): shift.
            let (v, c) = &other.counts[0];
            let counts = self
                .counts
                .iter()
                .map(|(a, ca)| {
                    Some((
                        a.checked_add(*v)?,
                        if c.is_one() { ca.clone() } else { ca * c },
                    ))
                })
                .collect::<Option<Vec<_>>>()?;
            return Some(Distribution {
                counts,
                total: &self.total * &other.total,
            });
        }
        if let (Some(a_span), Some(b_span)) = (self.dense_span(), other.dense_span())
            && a_span.saturating_add(b_span) <= DENSE_SPAN
        {
            let out = poly::multiply(&self.to_dense(a_span), &other.to_dense(b_span));
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

    /// The sum of `n` independent copies of this result, at a cost that grows with the result:
    /// a run of equally likely whole numbers (d6, d1000, d{1..10}) by a recurrence of four
    /// terms a value ([`poly::uniform_power`]), any other die of small weights by Miller's
    /// recurrence ([`poly::miller_power`]), else by squaring.
    pub fn sum_of(&self, n: u64) -> Option<Distribution> {
        let (lo, hi) = (self.min()?, self.max()?);
        let base = lo.checked_mul(i64::try_from(n).ok()?)?;
        hi.checked_mul(i64::try_from(n).ok()?)?;
        if n == 0 {
            return Some(Distribution::constant(0));
        }
        if n == 1 {
            return Some(self.clone());
        }
        let total = self.total.pow(u32::try_from(n).ok()?);
        let span = usize::try_from(hi - lo).ok()? + 1;
        let dense_ok = span
            .checked_mul(n as usize)
            .is_some_and(|s| s <= DENSE_SPAN);
        if !dense_ok {
            let mut acc = Distribution::constant(0);
            for _ in 0..n {
                acc = acc.add(self)?;
            }
            return Some(acc);
        }
        let w = &self.counts[0].1;
        let uniform = self.counts.len() == span && self.counts.iter().all(|(_, c)| c == w);
        let counts = if uniform {
            let mut q = poly::uniform_power(span as u64, n);
            if !w.is_one() {
                let scale = w.pow(u32::try_from(n).ok()?);
                for c in &mut q {
                    *c *= &scale;
                }
            }
            q
        } else {
            let dense = self.to_dense(span);
            let small: Option<Vec<u64>> = dense.iter().map(|c| c.to_u64()).collect();
            match small.and_then(|p| poly::miller_power(&p, n)) {
                Some(q) => q,
                None => poly::power_by_squaring(&dense, n),
            }
        };
        Some(Distribution::from_dense(base, counts, total))
    }

    /// The sum of several groups of dice, each `n` copies of one die's distribution, added or
    /// (`true`) taken away, by one recurrence over the values ([`poly::product_of_powers`]):
    /// `300d6+200d8` costs what one sum of as many values does, not a product of two sums.
    pub fn sum_of_groups(groups: &[(&Distribution, u64, bool)]) -> Option<Distribution> {
        let signed = |d: Distribution, negative: bool| if negative { d.map(|v| -v) } else { d };
        if let [(one, n, negative)] = groups {
            return Some(signed(one.sum_of(*n)?, *negative));
        }
        let fallback = || {
            let mut acc = Distribution::constant(0);
            for (d, n, negative) in groups {
                acc = acc.add(&signed(d.sum_of(*n)?, *negative))?;
            }
            Some(acc)
        };
        let mut base = 0i64;
        let mut len = 1usize;
        let mut parts = Vec::with_capacity(groups.len());
        let mut scale = BigUint::one();
        let mut symmetric = true;
        let mut total = BigUint::one();
        for (d, n, negative) in groups {
            let (lo, hi) = (d.min()?, d.max()?);
            let times = i64::try_from(*n).ok()?;
            base = base.checked_add(if *negative { -hi } else { lo }.checked_mul(times)?)?;
            let span = usize::try_from(hi - lo).ok()? + 1;
            len = len.checked_add((span - 1).checked_mul(*n as usize)?)?;
            if len > DENSE_SPAN {
                return fallback();
            }
            total *= d.total.pow(u32::try_from(*n).ok()?);
            let w = &d.counts[0].1;
            if d.counts.len() == span && d.counts.iter().all(|(_, c)| c == w) {
                parts.push(poly::Group::run(span, *n));
                scale *= w.pow(u32::try_from(*n).ok()?);
                continue;
            }
            let mut dense = d.to_dense(span);
            if *negative {
                dense.reverse();
            }
            symmetric &= dense.iter().eq(dense.iter().rev());
            let Some(small) = dense
                .iter()
                .map(|c| c.to_u64())
                .collect::<Option<Vec<u64>>>()
            else {
                return fallback();
            };
            match poly::Group::weights(&small, *n) {
                Some(g) => parts.push(g),
                None => return fallback(),
            }
        }
        let Some(mut counts) = poly::product_of_powers(&parts, len, symmetric) else {
            return fallback();
        };
        if !scale.is_one() {
            for c in &mut counts {
                *c *= &scale;
            }
        }
        Some(Distribution::from_dense(base, counts, total))
    }

    /// Two results thrown against each other: 1 when this one is higher, 0 for a tie, −1 when
    /// the other is; one pass over the values with the other's cumulative counts.
    pub fn opposed(&self, other: &Distribution) -> Distribution {
        if self == other {
            // The same dice a side: a tie is a value thrown twice, and either side is higher
            // in half of the rest.
            let tie: BigUint = self.counts.iter().map(|(_, c)| c * c).sum();
            let total = &self.total * &other.total;
            let each = (&total - &tie) >> 1u8;
            return Distribution::from_counts([(-1, each.clone()), (0, tie), (1, each)]);
        }
        let mut higher = BigUint::zero();
        let mut tie = BigUint::zero();
        let mut below = BigUint::zero(); // the other's cases below the current value
        let mut j = 0;
        for (a, ca) in &self.counts {
            while j < other.counts.len() && other.counts[j].0 < *a {
                below += &other.counts[j].1;
                j += 1;
            }
            if !below.is_zero() {
                higher += ca * &below;
            }
            if let Some((b, cb)) = other.counts.get(j)
                && b == a
            {
                tie += ca * cb;
            }
        }
        let total = &self.total * &other.total;
        let lower = &total - &higher - &tie;
        Distribution::from_counts([(-1, lower), (0, tie), (1, higher)])
    }

    /// The higher (or lower) of two independent results: P(max ≤ v) = F(v)·G(v), so each
    /// value's count is one product of cumulative counts less the previous one.
    pub fn extreme(&self, other: &Distribution, highest: bool) -> Distribution {
        let total = &self.total * &other.total;
        let mut counts = Vec::with_capacity(self.counts.len().max(other.counts.len()));
        if self == other {
            // The same dice on both sides (`max(300d6,300d6)`): F(v)² − F(v−1)², as
            // c(v)·(2·F(v−1) + c(v)) — a product a value, and nothing to subtract.
            let mut below = BigUint::zero();
            let ordered: Box<dyn Iterator<Item = &(i64, BigUint)>> = if highest {
                Box::new(self.counts.iter())
            } else {
                Box::new(self.counts.iter().rev())
            };
            for (v, c) in ordered {
                let twice = (&below << 1u8) + c;
                counts.push((*v, c * twice));
                below += c;
            }
            if !highest {
                counts.reverse();
            }
            return Distribution { counts, total };
        }
        // Values of either, in the order the cumulative counts grow.
        let mut values: Vec<i64> = self
            .counts
            .iter()
            .chain(&other.counts)
            .map(|(v, _)| *v)
            .collect();
        values.sort_unstable();
        values.dedup();
        if !highest {
            values.reverse();
        }
        let walk = |d: &Distribution| {
            let mut acc = BigUint::zero();
            let mut out = Vec::with_capacity(values.len());
            let mut it: Box<dyn Iterator<Item = &(i64, BigUint)>> = if highest {
                Box::new(d.counts.iter())
            } else {
                Box::new(d.counts.iter().rev())
            };
            let mut next = it.next();
            for v in &values {
                while let Some((x, c)) = next
                    && x == v
                {
                    acc += c;
                    next = it.next();
                }
                out.push(acc.clone());
            }
            out
        };
        let (f, g) = (walk(self), walk(other));
        let mut previous = BigUint::zero();
        for ((v, fv), gv) in values.iter().zip(f).zip(g) {
            let now = fv * gv;
            let count = &now - &previous;
            if !count.is_zero() {
                counts.push((*v, count));
            }
            previous = now;
        }
        // Walked lowest value first for the highest, highest first for the lowest.
        if !highest {
            counts.reverse();
        }
        Distribution { counts, total }
    }

    /// The distribution of `f(a, b)` for two independent results, pair by pair.
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

    /// Every value's probability in lowest terms, each reduced once by the total's prime
    /// factors (a count's share of each is found by a division or two, where a greatest
    /// common divisor of two numbers of thousands of digits costs a pass a bit).
    pub fn reduced(&self) -> Vec<Reduced> {
        let mut reducer = Reducer::new(&self.total);
        self.counts
            .iter()
            .map(|(value, count)| {
                let (numerator, denominator) = reducer.shares(count);
                Reduced {
                    value: *value,
                    numerator,
                    denominator,
                }
            })
            .collect()
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
