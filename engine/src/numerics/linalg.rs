//! Dense linear algebra shared by both Gaussian processes (processing-time
//! estimation's and utilization forecasting's): the Cholesky factor of a
//! kernel matrix with jitter when it is not numerically positive definite,
//! and the inverse and triangular solves taken from it. On nalgebra (the
//! engine's dense linear-algebra crate, pure Rust), whose `Cholesky` only
//! refuses non-positive pivots: the pivot test and the jitter ladder are
//! ours, so both models make the same call on a nearly singular matrix.

use nalgebra::{Cholesky, DMatrix, Dyn};

/// Cholesky factor of `k + noise·I`, with jitter when that is not
/// numerically positive definite: a pivot `L_jj² < n·ε·max diag` counts as
/// a failure (nalgebra only refuses non-positive ones). Returns the factor
/// and the jitter added, or the largest jitter tried.
pub fn factor(
    k: &DMatrix<f64>,
    noise: f64,
    max_jitter: f64,
) -> Result<(Cholesky<f64, Dyn>, f64), f64> {
    let n = k.nrows();
    let diag_max = (0..n).map(|i| k[(i, i)]).fold(0.0f64, f64::max) + noise;
    let diag_mean = (0..n).map(|i| k[(i, i)]).sum::<f64>() / n.max(1) as f64 + noise;
    let min_pivot = n as f64 * f64::EPSILON * diag_max;
    let attempt = |extra: f64| -> Option<Cholesky<f64, Dyn>> {
        let mut m = k.clone();
        for i in 0..n {
            m[(i, i)] += noise + extra;
        }
        let c = Cholesky::new(m)?;
        let l = c.l_dirty();
        (0..n)
            .all(|i| {
                let p = l[(i, i)];
                p.is_finite() && p * p >= min_pivot
            })
            .then_some(c)
    };
    if let Some(c) = attempt(0.0) {
        return Ok((c, 0.0));
    }
    let limit = max_jitter * diag_mean * (1.0 + 1e-9);
    let mut jitter = 1e-10 * diag_mean;
    let mut tried = jitter;
    while jitter <= limit {
        tried = jitter;
        if let Some(c) = attempt(jitter) {
            return Ok((c, jitter));
        }
        jitter *= 10.0;
    }
    Err(tried)
}

/// Right-hand sides solved together ([`forward_block`]): each column of
/// `L` is then read once per block instead of once per column.
pub const INVERSE_BLOCK: usize = 8;

/// `a·b` with four accumulators (instruction-level parallelism; the
/// compiler may not reorder a plain floating-point sum).
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// Solves `L W = B` in place for the columns of `block` (column-major,
/// `n` rows each, all zero above row `from`), reading each column of `L`
/// (column-major `n × n`) once for the whole block.
pub fn forward_block(l: &[f64], n: usize, block: &mut [f64], from: usize) {
    for k in from..n {
        let col = &l[k * n..(k + 1) * n];
        let (lkk, below) = (col[k], &col[k + 1..]);
        for w in block.chunks_exact_mut(n) {
            let wk = w[k] / lkk;
            w[k] = wk;
            if wk != 0.0 {
                for (wi, lik) in w[k + 1..].iter_mut().zip(below) {
                    *wi -= wk * lik;
                }
            }
        }
    }
}

/// The lower triangle (column-major, `n × n`; the upper part is zero) of
/// `K⁻¹ = L⁻ᵀL⁻¹` from the Cholesky factor. Column `j` is a forward solve of
/// `e_j` that starts at row `j` and a backward solve that stops there, so
/// the whole costs `n³/3` flops, like the factorization — a third of
/// solving against the identity (nalgebra's `Cholesky::inverse`) — with
/// both inner loops over contiguous columns of `L`, [`INVERSE_BLOCK`]
/// right-hand sides at a time.
pub fn lower_inverse(chol: &Cholesky<f64, Dyn>) -> Vec<f64> {
    let l = chol.l_dirty();
    let n = l.nrows();
    let l = l.as_slice();
    let mut out = vec![0.0; n * n];
    let mut j0 = 0;
    while j0 < n {
        let j1 = (j0 + INVERSE_BLOCK).min(n);
        let block = &mut out[j0 * n..j1 * n];
        for jj in j0..j1 {
            block[(jj - j0) * n + jj] = 1.0;
        }
        // Forward: L w = e_j (w is zero above j).
        forward_block(l, n, block, j0);
        // Backward: Lᵀ z = w in place, rows n−1 down to j only.
        for i in (j0..n).rev() {
            let col = &l[i * n..(i + 1) * n];
            let (lii, below) = (col[i], &col[i + 1..]);
            for w in block.chunks_exact_mut(n).take(j1.min(i + 1) - j0) {
                w[i] = (w[i] - dot(&w[i + 1..], below)) / lii;
            }
        }
        j0 = j1;
    }
    out
}
