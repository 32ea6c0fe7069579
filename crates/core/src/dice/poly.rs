//! Polynomials with big whole-number coefficients, the counts of a distribution laid out by
//! value (coefficient `i` counts the cases of value `base + i`). The operations whose cost grows
//! with their output, not with the work of getting there:
//!
//! - the sum of `n` equally likely faces `0..f` by a recurrence of four terms a value (from
//!   (1 − xᶠ)ⁿ/(1 − x)ⁿ), and half of it by symmetry: 5000d6 is 12,500 steps of a few additions,
//!   where one die at a time was 5,000 passes over a growing array;
//! - the power of any other die by J. C. P. Miller's recurrence (from P·Q′ = n·P′·Q for Q = Pⁿ):
//!   each count from the faces' count before it, one product by a small number a face;
//! - the product of two long polynomials by Kronecker substitution: both are packed into one
//!   big integer each, a slot of whole machine words a coefficient, and multiplied once
//!   (num-bigint's Toom-3), where term by term is len(a)·len(b) products of big integers.
//!
//! Written here because no maintained crate multiplies polynomials over big integers (the
//! polynomial crates are over floats or machine-word fields); the big integers are num-bigint's.

use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Counts of the sum of `n` dice each showing `0..faces` once: the coefficients of
/// (1 + x + … + x^(faces−1))ⁿ, `n·(faces−1) + 1` of them.
///
/// From A·B·Q′ = n·(A′B − B′A)·Q with A = 1 − xᶠ, B = 1 − x, Q = Aⁿ/Bⁿ, the coefficient of
/// x^(k−1) gives, with N = n(f−1):
/// k·q_k = (k−1+n)·q_{k−1} + (N−k+f+1)·q_{k−f−1} − (f(n+1)−k)·q_{k−f},
/// an exact division by k. The counts are symmetric (q_k = q_{N−k}), so half are computed.
pub fn uniform_power(faces: u64, n: u64) -> Vec<BigUint> {
    if n == 0 || faces <= 1 {
        return vec![BigUint::one()];
    }
    let f = faces;
    let top = n * (f - 1);
    let len = top as usize + 1;
    let half = len / 2;
    let mut q: Vec<BigUint> = Vec::with_capacity(len);
    q.push(BigUint::one());
    for k in 1..=half as u64 {
        let mut plus = &q[k as usize - 1] * (k - 1 + n);
        if k > f {
            plus += &q[(k - f - 1) as usize] * (top + f + 1 - k);
        }
        if k >= f {
            let minus = &q[(k - f) as usize] * (f * (n + 1) - k);
            plus -= minus;
        }
        plus /= k;
        q.push(plus);
    }
    for k in half + 1..len {
        let mirror = q[len - 1 - k].clone();
        q.push(mirror);
    }
    q
}

/// The coefficients of Pⁿ for P with small coefficients (`p[0]` not zero), by Miller's
/// recurrence: p₀·k·q_k = Σ_{i≥1} ((n+1)·i − k)·p_i·q_{k−i}, q₀ = p₀ⁿ. None when a product
/// passes 64 bits (the caller then multiplies by squaring).
pub fn miller_power(p: &[u64], n: u64) -> Option<Vec<BigUint>> {
    let d = p.len().checked_sub(1)?;
    let p0 = *p.first().filter(|c| **c > 0)?;
    let top = usize::try_from(n.checked_mul(d as u64)?).ok()?;
    let faces: Vec<(u64, u64)> = p
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, c)| **c > 0)
        .map(|(i, c)| (i as u64, *c))
        .collect();
    let mut q: Vec<BigUint> = Vec::with_capacity(top + 1);
    q.push(BigUint::from(p0).pow(u32::try_from(n).ok()?));
    for k in 1..=top as u64 {
        let mut plus = BigUint::zero();
        let mut minus = BigUint::zero();
        for &(i, pi) in &faces {
            if i > k {
                break;
            }
            let lead = (n + 1).checked_mul(i)?;
            let prev = &q[(k - i) as usize];
            if lead >= k {
                plus += prev * (lead - k).checked_mul(pi)?;
            } else {
                minus += prev * (k - lead).checked_mul(pi)?;
            }
        }
        let mut next = plus - minus;
        next /= k.checked_mul(p0)?;
        q.push(next);
    }
    Some(q)
}

/// One group of dice in a sum: the counts of one die, shifted so its lowest face is at 0 (its
/// weight not zero), as a fraction A/B of sparse polynomials with small signed coefficients, and
/// how many are thrown. A run of equal weights is (1 − xᶠ)/(1 − x), four terms in all; any
/// other die is its counts over 1.
#[derive(Debug, Clone)]
pub struct Group {
    a: Vec<(usize, i128)>,
    b: Vec<(usize, i128)>,
    n: u64,
}

impl Group {
    /// `n` dice of `faces` equally likely faces 0..faces (weight 1 each).
    pub fn run(faces: usize, n: u64) -> Group {
        Group {
            a: vec![(0, 1), (faces, -1)],
            b: vec![(0, 1), (1, -1)],
            n,
        }
    }

    /// `n` dice with these counts (the first not zero); None past 64 bits.
    pub fn weights(p: &[u64], n: u64) -> Option<Group> {
        p.first().filter(|c| **c > 0)?;
        Some(Group {
            a: p.iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(i, c)| (i, i128::from(*c)))
                .collect(),
            b: vec![(0, 1)],
            n,
        })
    }
}

/// Sparse product, None when a coefficient passes 96 bits.
fn sparse_mul(x: &[(usize, i128)], y: &[(usize, i128)]) -> Option<Vec<(usize, i128)>> {
    let mut out: std::collections::BTreeMap<usize, i128> = std::collections::BTreeMap::new();
    for &(i, a) in x {
        for &(j, b) in y {
            let v = a.checked_mul(b)?;
            let slot = out.entry(i + j).or_insert(0);
            *slot = slot.checked_add(v)?;
            if slot.unsigned_abs() >= 1u128 << 96 {
                return None;
            }
        }
    }
    Some(out.into_iter().filter(|(_, c)| *c != 0).collect())
}

fn sparse_derivative(x: &[(usize, i128)]) -> Vec<(usize, i128)> {
    x.iter()
        .filter(|(i, _)| *i > 0)
        .map(|(i, c)| (i - 1, c * *i as i128))
        .collect()
}

fn sparse_add(x: &[(usize, i128)], y: &[(usize, i128)], sign: i128) -> Option<Vec<(usize, i128)>> {
    let mut out: std::collections::BTreeMap<usize, i128> = x.iter().copied().collect();
    for &(i, c) in y {
        let slot = out.entry(i).or_insert(0);
        *slot = slot.checked_add(c.checked_mul(sign)?)?;
    }
    Some(out.into_iter().filter(|(_, c)| *c != 0).collect())
}

/// The counts of the sum of several groups of dice, Q = Π Aᵢⁿⁱ / Bᵢⁿⁱ, by one recurrence as
/// for a single group (its cost grows with the result, a few terms a value): from
/// S·Q′ = T·Q with S = Π AᵢBᵢ and T = Σ nᵢ·(Aᵢ′Bᵢ − AᵢBᵢ′)·Π_{j≠i} AⱼBⱼ,
/// s₀·k·q_k = Σⱼ tⱼ·q_{k−1−j} − Σ_{j≥1} sⱼ·(k−j)·q_{k−j}. `len` is the number of values;
/// `symmetric` when every group's counts read the same both ways (then half are computed).
/// None when a coefficient passes 64 bits (the caller multiplies instead).
pub fn product_of_powers(groups: &[Group], len: usize, symmetric: bool) -> Option<Vec<BigUint>> {
    let ab: Vec<Vec<(usize, i128)>> = groups
        .iter()
        .map(|g| sparse_mul(&g.a, &g.b))
        .collect::<Option<_>>()?;
    let mut s_poly = vec![(0usize, 1i128)];
    for x in &ab {
        s_poly = sparse_mul(&s_poly, x)?;
    }
    let mut t_poly: Vec<(usize, i128)> = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        let da = sparse_mul(&sparse_derivative(&g.a), &g.b)?;
        let db = sparse_mul(&g.a, &sparse_derivative(&g.b))?;
        let mut part: Vec<(usize, i128)> = sparse_add(&da, &db, -1)?
            .into_iter()
            .map(|(e, c)| Some((e, c.checked_mul(i128::from(g.n))?)))
            .collect::<Option<_>>()?;
        for (j, x) in ab.iter().enumerate() {
            if j != i {
                part = sparse_mul(&part, x)?;
            }
        }
        t_poly = sparse_add(&t_poly, &part, 1)?;
    }
    let s0 = s_poly.first().filter(|(e, _)| *e == 0).map(|(_, c)| *c)?;
    let s0 = u64::try_from(s0).ok()?;
    let mut q0 = BigUint::one();
    for g in groups {
        let lead = u64::try_from(g.a.first().filter(|(e, _)| *e == 0)?.1).ok()?;
        q0 *= BigUint::from(lead).pow(u32::try_from(g.n).ok()?);
    }
    let upto = if symmetric { len / 2 } else { len - 1 };
    let mut q: Vec<BigUint> = Vec::with_capacity(len);
    q.push(q0);
    for k in 1..=upto {
        let mut plus = BigUint::zero();
        let mut minus = BigUint::zero();
        let mut take = |prev: &BigUint, m: i128| -> Option<()> {
            let size = u64::try_from(m.unsigned_abs()).ok()?;
            if m > 0 {
                plus += prev * size;
            } else if m < 0 {
                minus += prev * size;
            }
            Some(())
        };
        for &(j, t) in &t_poly {
            if j + 1 > k {
                break;
            }
            take(&q[k - 1 - j], t)?;
        }
        for &(j, s) in s_poly.iter().skip(1) {
            if j > k {
                break;
            }
            take(&q[k - j], -s.checked_mul((k - j) as i128)?)?;
        }
        let mut next = plus - minus;
        next /= (k as u64).checked_mul(s0)?;
        q.push(next);
    }
    for k in upto + 1..len {
        let mirror = q[len - 1 - k].clone();
        q.push(mirror);
    }
    Some(q)
}

/// Below this many products of coefficients, term by term beats packing.
const SCHOOLBOOK_PRODUCTS: usize = 4096;

/// The product of two polynomials (the counts of the sum of two independent results).
pub fn multiply(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    if a.len().min(b.len()) <= 8 || a.len().saturating_mul(b.len()) <= SCHOOLBOOK_PRODUCTS {
        return schoolbook(a, b);
    }
    kronecker(a, b)
}

fn schoolbook(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    let mut out = vec![BigUint::zero(); a.len() + b.len() - 1];
    for (i, ca) in a.iter().enumerate() {
        if ca.is_zero() {
            continue;
        }
        for (j, cb) in b.iter().enumerate() {
            if !cb.is_zero() {
                out[i + j] += ca * cb;
            }
        }
    }
    out
}

/// Packs each coefficient into `slot` 32-bit words of one big integer.
fn pack(c: &[BigUint], slot: usize) -> BigUint {
    let mut words = vec![0u32; c.len() * slot];
    for (i, x) in c.iter().enumerate() {
        for (k, w) in x.iter_u32_digits().enumerate() {
            words[i * slot + k] = w;
        }
    }
    BigUint::new(words)
}

fn bits(c: &[BigUint]) -> u64 {
    c.iter().map(BigUint::bits).max().unwrap_or(0)
}

/// Kronecker substitution: a(2^(32·slot)) · b(2^(32·slot)) read back slot by slot, each slot
/// wide enough for the largest coefficient of the product (so no carry crosses a slot).
fn kronecker(a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
    let terms = a.len().min(b.len()) as u64;
    let need = bits(a) + bits(b) + (64 - terms.leading_zeros() as u64) + 1;
    let slot = need.div_ceil(32) as usize;
    let product = pack(a, slot) * pack(b, slot);
    let words = product.to_u32_digits();
    (0..a.len() + b.len() - 1)
        .map(|i| {
            let from = (i * slot).min(words.len());
            let to = ((i + 1) * slot).min(words.len());
            BigUint::from_slice(&words[from..to])
        })
        .collect()
}

/// Pⁿ by squaring, for coefficients too large for [`miller_power`].
pub fn power_by_squaring(p: &[BigUint], n: u64) -> Vec<BigUint> {
    let mut result = vec![BigUint::one()];
    let mut base = p.to_vec();
    let mut e = n;
    while e > 0 {
        if e & 1 == 1 {
            result = multiply(&result, &base);
        }
        e >>= 1;
        if e > 0 {
            base = multiply(&base, &base);
        }
    }
    result
}

/// `acc` times `d` ones shifted by 1..=d (x + x² + … + x^d), all of weight `w`: a sliding
/// window, two additions a value whatever `d`.
pub fn times_run(acc: &[BigUint], d: usize, w: u64) -> Vec<BigUint> {
    let len = acc.len() + d;
    let mut out = Vec::with_capacity(len);
    out.push(BigUint::zero());
    let mut window = BigUint::zero();
    for e in 1..len {
        if let Some(c) = acc.get(e - 1) {
            window += c;
        }
        if e > d
            && let Some(c) = acc.get(e - 1 - d)
        {
            window -= c;
        }
        out.push(if w == 1 { window.clone() } else { &window * w });
    }
    out
}

/// `acc` times a sparse polynomial of small weights (offset, weight), offsets ≥ 0.
pub fn times_sparse(acc: &[BigUint], terms: &[(usize, u64)]) -> Vec<BigUint> {
    let reach = terms.iter().map(|(o, _)| *o).max().unwrap_or(0);
    let mut out = vec![BigUint::zero(); acc.len() + reach];
    for (i, c) in acc.iter().enumerate() {
        if c.is_zero() {
            continue;
        }
        for &(o, w) in terms {
            out[i + o] += c * w;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_power(p: &[u64], n: u64) -> Vec<BigUint> {
        let p: Vec<BigUint> = p.iter().map(|c| BigUint::from(*c)).collect();
        let mut acc = vec![BigUint::one()];
        for _ in 0..n {
            acc = schoolbook(&acc, &p);
        }
        acc
    }

    #[test]
    fn uniform_power_matches_repeated_products() {
        for faces in [2u64, 3, 6, 10, 20] {
            for n in [1u64, 2, 3, 7, 12] {
                let ones = vec![1u64; faces as usize];
                assert_eq!(
                    uniform_power(faces, n),
                    naive_power(&ones, n),
                    "{n} dice of {faces}"
                );
            }
        }
        // 3d6 less 3: 1, 3, 6, 10, 15, 21, 25, 27, 27, 25, …
        let three = uniform_power(6, 3);
        assert_eq!(three[..4], [1u32, 3, 6, 10].map(BigUint::from));
        assert_eq!(three.len(), 16);
    }

    #[test]
    fn miller_power_matches_repeated_products() {
        for p in [
            vec![1u64, 0, 0, 0, 1],
            vec![3, 1, 4, 1, 5],
            vec![2, 7],
            vec![1, 0, 2, 0, 0, 9],
        ] {
            for n in [1u64, 2, 5, 9] {
                assert_eq!(miller_power(&p, n), Some(naive_power(&p, n)), "{p:?}^{n}");
            }
        }
        assert_eq!(miller_power(&[0, 1], 3), None);
    }

    #[test]
    fn products_of_powers_match_repeated_products() {
        // 3d6 + 2d4 (runs), shifted to 0: symmetric.
        let three = naive_power(&[1; 6], 3);
        let two = naive_power(&[1; 4], 2);
        let want = schoolbook(&three, &two);
        let got = product_of_powers(&[Group::run(6, 3), Group::run(4, 2)], want.len(), true);
        assert_eq!(got, Some(want.clone()));
        assert_eq!(
            product_of_powers(&[Group::run(6, 3), Group::run(4, 2)], want.len(), false),
            Some(want)
        );
        // A weighted die with a run, and three groups.
        let w = [2u64, 0, 1, 5];
        let want = schoolbook(
            &schoolbook(&naive_power(&w, 4), &naive_power(&[1; 3], 5)),
            &naive_power(&[3, 1], 2),
        );
        let groups = [
            Group::weights(&w, 4).expect("fits"),
            Group::run(3, 5),
            Group::weights(&[3, 1], 2).expect("fits"),
        ];
        assert_eq!(product_of_powers(&groups, want.len(), false), Some(want));
    }

    #[test]
    fn kronecker_matches_schoolbook() {
        let a: Vec<BigUint> = (0..300u64)
            .map(|i| BigUint::from(i * i + 7).pow(5))
            .collect();
        let b: Vec<BigUint> = (0..200u64)
            .map(|i| BigUint::from(3 * i + 1).pow(9))
            .collect();
        assert_eq!(kronecker(&a, &b), schoolbook(&a, &b));
        assert_eq!(multiply(&a, &b), schoolbook(&a, &b));
        // Zero coefficients at either end and in between.
        let z = vec![
            BigUint::zero(),
            BigUint::one(),
            BigUint::zero(),
            BigUint::from(5u8),
        ];
        assert_eq!(kronecker(&z, &a), schoolbook(&z, &a));
        let p: Vec<BigUint> = [1u64, 2, 3].iter().map(|c| BigUint::from(*c)).collect();
        assert_eq!(power_by_squaring(&p, 13), naive_power(&[1, 2, 3], 13));
    }

    #[test]
    fn runs_and_sparse_products_match_schoolbook() {
        let acc: Vec<BigUint> = (1..40u64).map(|i| BigUint::from(i).pow(7)).collect();
        let run: Vec<BigUint> = (0..=4u64)
            .map(|o| BigUint::from(u64::from(o > 0) * 3))
            .collect();
        assert_eq!(times_run(&acc, 4, 3), schoolbook(&acc, &run));
        let sparse = [(1usize, 2u64), (3, 5)];
        let dense: Vec<BigUint> = [0u64, 2, 0, 5].iter().map(|c| BigUint::from(*c)).collect();
        assert_eq!(times_sparse(&acc, &sparse), schoolbook(&acc, &dense));
    }
}
