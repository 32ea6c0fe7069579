//! Exact distributions as integer counts over a common total (no floating point, no sampling).

use std::collections::BTreeMap;
use std::fmt;

use num_integer::Integer;
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

/// A probability as a fraction in lowest terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fraction {
    /// Numerator.
    pub numerator: u128,
    /// Denominator (never zero).
    pub denominator: u128,
}

impl Fraction {
    /// `count / total` reduced to lowest terms; `0/1` when total is zero.
    pub fn new(count: u128, total: u128) -> Fraction {
        if total == 0 {
            return Fraction {
                numerator: 0,
                denominator: 1,
            };
        }
        let g = count.gcd(&total).max(1);
        Fraction {
            numerator: count / g,
            denominator: total / g,
        }
    }

    /// The value as a float, for display and bars only.
    pub fn to_f64(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.numerator, self.denominator)
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
    counts: BTreeMap<i64, u128>,
    total: u128,
}

impl Distribution {
    /// A certain value.
    pub fn constant(value: i64) -> Distribution {
        Distribution {
            counts: BTreeMap::from([(value, 1)]),
            total: 1,
        }
    }

    /// Builds a distribution from (value, weight) pairs.
    pub fn from_weights(pairs: impl IntoIterator<Item = (i64, u128)>) -> Distribution {
        let mut counts = BTreeMap::new();
        let mut total = 0u128;
        for (value, weight) in pairs {
            if weight == 0 {
                continue;
            }
            *counts.entry(value).or_insert(0) += weight;
            total += weight;
        }
        Distribution { counts, total }
    }

    /// The distribution of the sum of two independent results (convolution).
    /// Returns `None` on arithmetic overflow (absurdly large pools).
    pub fn add(&self, other: &Distribution) -> Option<Distribution> {
        if let Some(dense) = self.add_dense(other) {
            return dense;
        }
        let mut counts = BTreeMap::new();
        for (&a, &ca) in &self.counts {
            for (&b, &cb) in &other.counts {
                let count = ca.checked_mul(cb)?;
                let slot = counts.entry(a.checked_add(b)?).or_insert(0u128);
                *slot = slot.checked_add(count)?;
            }
        }
        Some(Distribution {
            counts,
            total: self.total.checked_mul(other.total)?,
        })
    }

    /// The same convolution over arrays indexed by value, when both ranges are compact (the
    /// usual dice): many times faster than a map. `None` when the ranges are too wide for
    /// arrays; `Some(None)` on overflow.
    fn add_dense(&self, other: &Distribution) -> Option<Option<Distribution>> {
        let (a_min, a_max) = (self.min()?, self.max()?);
        let (b_min, b_max) = (other.min()?, other.max()?);
        let a_span = usize::try_from(a_max.checked_sub(a_min)?).ok()? + 1;
        let b_span = usize::try_from(b_max.checked_sub(b_min)?).ok()? + 1;
        // Compact enough: the arrays' cells, not the map's entries, bound the work.
        if a_span > 1_000_000 || b_span > 1_000_000 || a_span.checked_mul(b_span)? > 200_000_000 {
            return None;
        }
        let dense = |d: &Distribution, min: i64, span: usize| {
            let mut v = vec![0u128; span];
            for (&value, &count) in &d.counts {
                v[(value - min) as usize] = count;
            }
            v
        };
        let a = dense(self, a_min, a_span);
        let b = dense(other, b_min, b_span);
        let mut out = vec![0u128; a_span + b_span - 1];
        for (i, &ca) in a.iter().enumerate() {
            if ca == 0 {
                continue;
            }
            for (j, &cb) in b.iter().enumerate() {
                if cb == 0 {
                    continue;
                }
                let Some(product) = ca.checked_mul(cb) else {
                    return Some(None);
                };
                let Some(sum) = out[i + j].checked_add(product) else {
                    return Some(None);
                };
                out[i + j] = sum;
            }
        }
        let Some(base) = a_min.checked_add(b_min) else {
            return Some(None);
        };
        let counts = out
            .into_iter()
            .enumerate()
            .filter(|(_, c)| *c > 0)
            .map(|(k, c)| (base + k as i64, c))
            .collect();
        let Some(total) = self.total.checked_mul(other.total) else {
            return Some(None);
        };
        Some(Some(Distribution { counts, total }))
    }

    /// The distribution of `f(a, b)` for two independent results (the higher or lower of two
    /// throws). Returns `None` on arithmetic overflow.
    pub fn combine(
        &self,
        other: &Distribution,
        f: impl Fn(i64, i64) -> i64,
    ) -> Option<Distribution> {
        let mut counts = BTreeMap::new();
        for (&a, &ca) in &self.counts {
            for (&b, &cb) in &other.counts {
                let count = ca.checked_mul(cb)?;
                let slot = counts.entry(f(a, b)).or_insert(0u128);
                *slot = slot.checked_add(count)?;
            }
        }
        Some(Distribution {
            counts,
            total: self.total.checked_mul(other.total)?,
        })
    }

    /// Applies a function to every value, merging equal results.
    pub fn map(&self, f: impl Fn(i64) -> i64) -> Distribution {
        let mut counts = BTreeMap::new();
        for (&value, &count) in &self.counts {
            *counts.entry(f(value)).or_insert(0) += count;
        }
        Distribution {
            counts,
            total: self.total,
        }
    }

    /// Number of equally likely cases.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// (value, count) pairs in ascending order of value.
    pub fn counts(&self) -> impl Iterator<Item = (i64, u128)> + '_ {
        self.counts.iter().map(|(&v, &c)| (v, c))
    }

    /// Probability of one value.
    pub fn probability(&self, value: i64) -> Fraction {
        Fraction::new(self.counts.get(&value).copied().unwrap_or(0), self.total)
    }

    /// Smallest possible value.
    pub fn min(&self) -> Option<i64> {
        self.counts.keys().next().copied()
    }

    /// Largest possible value.
    pub fn max(&self) -> Option<i64> {
        self.counts.keys().next_back().copied()
    }
}
