//! Exact distributions of pools without enumerating throws: successes by the binomial, keep
//! highest/lowest by dynamic programming over the faces in order, and the cost of computing
//! either before it is done (so a request past the budget is refused at once).
//!
//! The keep algorithm follows the idea in H. Liu, "Icepool: Efficient Computation of Dice Pool
//! Probabilities" (2022): walk the faces from the end being kept, and for each face choose how
//! many of the dice still unplaced show it (a binomial count). Ours stops tracking a throw as
//! soon as its kept dice are all placed: the dice left may show any lower face, which is one
//! power of those faces' weight, so the states are only (dice kept so far < keep, kept sum).

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::die::{Die, DieFace, Threshold};
use super::distribution::{Distribution, choose_big};

/// Faces merged by value, with their weights, lowest value first.
fn merged(die: &Die) -> Vec<(i64, u64)> {
    let mut faces: BTreeMap<i64, u64> = BTreeMap::new();
    for f in &die.faces {
        *faces.entry(f.value).or_insert(0) += u64::from(f.weight);
    }
    faces.into_iter().collect()
}

/// The number of successes among `n` dice: C(n, k)·hitᵏ·missⁿ⁻ᵏ for each k.
pub fn successes(die: &Die, n: u32, test: Threshold) -> Distribution {
    let total = die.total_weight();
    let hit: u64 = die
        .faces
        .iter()
        .filter(|f| test.met(f.value))
        .map(|f| u64::from(f.weight))
        .sum();
    let miss = BigUint::from(total - hit);
    let hit = BigUint::from(hit);
    // miss^(n−k) for k = n down to 0, built upwards.
    let mut miss_pow = Vec::with_capacity(n as usize + 1);
    miss_pow.push(BigUint::one());
    for i in 1..=n as usize {
        let next = &miss_pow[i - 1] * &miss;
        miss_pow.push(next);
    }
    let mut ways = BigUint::one(); // C(n, k)
    let mut hit_pow = BigUint::one();
    let mut pairs = Vec::with_capacity(n as usize + 1);
    for k in 0..=u64::from(n) {
        pairs.push((
            k as i64,
            &ways * &hit_pow * &miss_pow[(u64::from(n) - k) as usize],
        ));
        ways = ways * (u64::from(n) - k) / (k + 1);
        hit_pow *= &hit;
    }
    Distribution::from_counts(pairs)
}

/// The sum of the highest (or lowest) `keep` of `n` dice.
///
/// Faces are visited in the order they are kept. A state is (dice placed, all kept, kept sum):
/// while fewer than `keep` are placed every placed die is kept. At a face of weight `w` with
/// `rest` the weight of the faces still to come, `m` of the `left` unplaced dice show it in
/// C(left, m)·wᵐ ways; when `m` reaches the `need` still to keep, the throw's kept sum is
/// settled and its other dice show any later face: Σ_{m≥need} C(left, m)·wᵐ·restˡᵉᶠᵗ⁻ᵐ =
/// (w+rest)ˡᵉᶠᵗ − Σ_{m<need} C(left, m)·wᵐ·restˡᵉᶠᵗ⁻ᵐ.
pub fn keep(die: &Die, n: u32, keep: u32, highest: bool) -> Option<Distribution> {
    let mut faces = merged(die);
    if highest {
        faces.reverse();
    }
    let n = u64::from(n);
    let k = u64::from(keep.min(n as u32));
    let mut rest: u64 = faces.iter().map(|(_, w)| *w).sum();
    // (kept so far, kept sum) → ways, for throws still placing kept dice.
    let mut open: BTreeMap<(u64, i64), BigUint> = BTreeMap::from([((0, 0), BigUint::one())]);
    let mut settled: BTreeMap<i64, BigUint> = BTreeMap::new();
    // C(left, m) for left in n−k..=n, m < k: looked up, never recomputed.
    let choose_table: Vec<Vec<BigUint>> = (0..=k)
        .map(|j| (0..=k).map(|m| choose_big(n - j, m)).collect())
        .collect();
    for (value, w) in faces {
        rest -= w;
        let (w_big, rest_big, all_big) = (
            BigUint::from(w),
            BigUint::from(rest),
            BigUint::from(w + rest),
        );
        // Powers: w^m for m ≤ k; rest^e and (w+rest)^e for e in n−k..=n.
        let mut w_pow = vec![BigUint::one()];
        for m in 1..=k as usize {
            let next = &w_pow[m - 1] * &w_big;
            w_pow.push(next);
        }
        let low = n - k;
        let powers = |base: &BigUint| {
            let mut v = vec![base.pow(u32::try_from(low).ok()?)];
            for e in 1..=k as usize {
                let next = &v[e - 1] * base;
                v.push(next);
            }
            Some(v)
        };
        let rest_pow = powers(&rest_big)?;
        let all_pow = powers(&all_big)?;
        let mut next: BTreeMap<(u64, i64), BigUint> = BTreeMap::new();
        for ((j, sum), ways) in open {
            let left = n - j;
            let need = k - j;
            let mut short = BigUint::zero(); // Σ_{m<need} C(left, m)·wᵐ·rest^(left−m)
            for m in 0..need.min(left + 1) {
                let placed = &choose_table[j as usize][m as usize] * &w_pow[m as usize];
                // left − m > n − keep, always within the table.
                short += &placed * &rest_pow[(left - m - low) as usize];
                if !placed.is_zero() {
                    let key = (j + m, sum.checked_add(value.checked_mul(m as i64)?)?);
                    *next.entry(key).or_default() += &ways * placed;
                }
            }
            let done = &all_pow[(left - low) as usize] - short;
            if !done.is_zero() {
                let s = sum.checked_add(value.checked_mul(need as i64)?)?;
                *settled.entry(s).or_default() += &ways * done;
            }
        }
        open = next;
    }
    // Throws still open place fewer than `keep` dice: none, when keep ≤ n.
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
}

/// Word operations a second, measured on the benchmark machine (BENCHMARKS.md, "Exact odds of
/// big pools") and rounded down, so that estimates err long.
pub const WORK_PER_SECOND: f64 = 1.5e8;

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

    /// Whether it fits the budget.
    pub fn fits(&self, budget: &Budget) -> bool {
        self.seconds() <= budget.seconds && self.bytes <= budget.bytes
    }

    /// A certain number.
    pub fn constant() -> Cost {
        Cost {
            work: 1.0,
            bytes: 64.0,
            values: 1.0,
            bits: 0.0,
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
    /// `weight_bits` bits of cases each; `uniform` when the sliding window applies.
    pub fn sum(n: f64, faces: f64, span: f64, weight_bits: f64, uniform: bool) -> Cost {
        // Σ over the k-th die of (values so far)·(operations per value), each an allocation
        // and an addition of big integers whose limbs grow with k: values ≈ k·span and limbs
        // ≈ k·bits/64, so Σ ≈ n²/2·span values and n³/3·span·bits/64 limbs. The weights were
        // fitted to release timings of 100d6, 500d6, 1000d6, 200d20 and 200d{1,5} (BENCHMARKS.md,
        // "Exact odds of big pools").
        let (per_value, per_limb) = if uniform {
            (6.0, 0.12)
        } else {
            (2.5 * faces, 0.12 * faces)
        };
        let k_values = n * n / 2.0 * span;
        let k_values_limbs = n * n * n / 3.0 * span * weight_bits / 64.0;
        let values = n * (span - 1.0) + 1.0;
        let bits = n * weight_bits;
        Cost {
            work: per_value * k_values + per_limb * k_values_limbs,
            bytes: 2.0 * Cost::held(values, bits),
            values,
            bits,
        }
    }

    /// Counting successes among `n` dice: n+1 products of powers.
    pub fn successes(n: f64, weight_bits: f64) -> Cost {
        let bits = n * weight_bits;
        Cost {
            work: 4.0 * (n + 1.0) * Cost::limbs(bits) * Cost::limbs(bits),
            bytes: 2.0 * Cost::held(n + 1.0, bits),
            values: n + 1.0,
            bits,
        }
    }

    /// Keeping `keep` of `n` dice of `faces` values spread over `span`.
    pub fn keep(n: f64, keep: f64, faces: f64, span: f64, weight_bits: f64) -> Cost {
        let bits = n * weight_bits;
        let values = keep * (span - 1.0) + 1.0;
        let limbs = Cost::limbs(bits);
        // Per face: open states (kept < keep, sum) × the m < need placements, each a product
        // of big integers; and the powers (by squaring).
        let states = keep * values;
        let work = faces * (states * keep * 3.0 * limbs + 4.0 * keep * limbs * limbs);
        Cost {
            work,
            bytes: 3.0 * Cost::held(states + values, bits),
            values,
            bits,
        }
    }

    /// Two independent results combined value by value (a sum of terms, a max, an opposed roll).
    pub fn pair(a: &Cost, b: &Cost, values: f64) -> Cost {
        let bits = a.bits + b.bits;
        let limbs = Cost::limbs(bits);
        Cost {
            work: a.work + b.work + 2.0 * a.values * b.values * limbs,
            bytes: a.bytes.max(b.bytes) + Cost::held(values, bits),
            values,
            bits,
        }
    }
}
