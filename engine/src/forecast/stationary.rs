//! The stationary ARMA(p, q) process `y_t = Σ φ_j y_{t−j} + Σ θ_j ε_{t−j}`
//! (θ_0 = 1, σ² = 1): its ψ weights, its autocovariances, and the
//! stationary covariance of Harvey's state (the start of the exact
//! likelihood's filter).
//!
//! Why not the textbook solve: the state covariance Σ solves the discrete
//! Lyapunov equation `Σ = T Σ Tᵀ + R Rᵀ`, an r² × r² linear system (r =
//! max(p, q + 1)) — for r = 6 a 36 × 36 LU, which with its allocations was
//! a fifth of every likelihood evaluation of the order search. Σ is instead
//! written through the process's autocovariances γ(0 … r) and ψ weights
//! (the covariances of `y` with past innovations): γ(0 … p) solve a
//! (p + 1) × (p + 1) system (Brockwell & Davis §3.3, R's `ARMAacf`), the
//! rest follow by recursion, and every element of Σ is a short sum of them.
//! The likelihood's fast recursions ([`super::likelihood`]) need only Σ's
//! first column. The Lyapunov solve stays in the tests as the independent
//! reference.
//!
//! In Harvey's form the state is `α_t[0] = y_t` and, for i ≥ 1,
//! `α_t[i] = Σ_{j=i}^{r−1} (φ_{j+1} y_{t−1−(j−i)} + θ_j ε_{t−(j−i)})`, so
//! `Cov(α_t[i], y_t) = Σ_{j=i}^{r−1} (φ_{j+1} γ(j−i+1) + θ_j ψ_{j−i})`.
//!
//! Buffers live in [`Scratch`], allocated once per fit and reused by every
//! evaluation: [`first_column`], on the likelihood's path, allocates
//! nothing.

/// Reusable buffers for one state dimension r (and AR order p ≤ r).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// ψ_0 … ψ_r.
    psi: Vec<f64>,
    /// γ(0) … γ(r).
    gamma: Vec<f64>,
    /// The (p + 1) × (p + 1) system, row-major, with its right-hand side
    /// as an extra column.
    system: Vec<f64>,
}

impl Scratch {
    /// Buffers for state dimension `r`.
    pub fn new(r: usize) -> Self {
        Scratch {
            psi: vec![0.0; r + 1],
            gamma: vec![0.0; r + 1],
            system: vec![0.0; (r + 1) * (r + 2)],
        }
    }
}

/// φ_j (1-based; 0 past p).
#[inline]
fn ar_at(phi: &[f64], j: usize) -> f64 {
    if j >= 1 && j <= phi.len() {
        phi[j - 1]
    } else {
        0.0
    }
}

/// θ_j (θ_0 = 1; 0 past q).
#[inline]
fn ma_at(theta: &[f64], j: usize) -> f64 {
    if j == 0 {
        1.0
    } else if j <= theta.len() {
        theta[j - 1]
    } else {
        0.0
    }
}

/// Fills `psi[0 … len)` with the MA(∞) weights `ψ_k = θ_k + Σ φ_j ψ_{k−j}`:
/// `ψ_k = E[y_t ε_{t−k}]` for σ² = 1.
fn psi_weights(phi: &[f64], theta: &[f64], psi: &mut [f64]) {
    for k in 0..psi.len() {
        let mut v = ma_at(theta, k);
        for j in 1..=k.min(phi.len()) {
            v += phi[j - 1] * psi[k - j];
        }
        psi[k] = v;
    }
}

/// `Σ_{j=k}^{q} θ_j ψ_{j−k}`: the right-hand side of the autocovariance
/// equations (zero past q).
fn ma_term(theta: &[f64], psi: &[f64], k: usize) -> f64 {
    (k..=theta.len())
        .map(|j| ma_at(theta, j) * psi[j - k])
        .sum()
}

/// Fills `gamma[0 … len)` with the autocovariances (σ² = 1) of the
/// stationary ARMA(φ, θ), given its ψ weights (at least `len` of them).
/// Multiplying the model by `y_{t−k}` and taking expectations gives
/// `γ(k) − Σ_j φ_j γ(|k − j|) = Σ_{j=k}^{q} θ_j ψ_{j−k}`; the equations
/// k = 0 … p are solved by Gaussian elimination with partial pivoting, the
/// rest by recursion. `None` when the system is singular (a unit root) or
/// the variance comes out non-positive.
fn autocovariances(
    phi: &[f64],
    theta: &[f64],
    psi: &[f64],
    system: &mut [f64],
    gamma: &mut [f64],
) -> Option<()> {
    let p = phi.len();
    let n = p + 1;
    let w = n + 1;
    let a = &mut system[..n * w];
    for k in 0..n {
        let row = &mut a[k * w..(k + 1) * w];
        row.iter_mut().for_each(|v| *v = 0.0);
        row[k] += 1.0;
        for j in 1..=p {
            row[k.abs_diff(j)] -= phi[j - 1];
        }
        row[n] = ma_term(theta, psi, k);
    }
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i * w + col].abs().total_cmp(&a[j * w + col].abs()))
            .unwrap_or(col);
        if pivot != col {
            for c in 0..w {
                a.swap(col * w + c, pivot * w + c);
            }
        }
        let d = a[col * w + col];
        if d.is_nan() || d.abs() <= 1e-300 {
            return None;
        }
        for i in col + 1..n {
            let f = a[i * w + col] / d;
            if f != 0.0 {
                for c in col..w {
                    a[i * w + c] -= f * a[col * w + c];
                }
            }
        }
    }
    let len = gamma.len();
    for k in (0..n).rev() {
        let mut v = a[k * w + n];
        for c in k + 1..n {
            v -= a[k * w + c] * a[c * w + n];
        }
        a[k * w + n] = v / a[k * w + k];
        if k < len {
            gamma[k] = a[k * w + n];
        }
    }
    for k in n..len {
        gamma[k] = (1..=p).map(|j| phi[j - 1] * gamma[k - j]).sum::<f64>() + ma_term(theta, psi, k);
    }
    (gamma[0].is_finite() && gamma[0] > 0.0).then_some(())
}

/// `Cov(α_t[i], y_t)` from γ and ψ (state dimension `r`).
fn first_column_entry(
    phi: &[f64],
    theta: &[f64],
    r: usize,
    gamma: &[f64],
    psi: &[f64],
    i: usize,
) -> f64 {
    if i == 0 {
        return gamma[0];
    }
    (i..r)
        .map(|j| ar_at(phi, j + 1) * gamma[j - i + 1] + ma_at(theta, j) * psi[j - i])
        .sum()
}

/// The first column of the stationary state covariance Σ (σ² = 1) of
/// ARMA(φ, θ) in Harvey's form of dimension `r = col.len()` — all the
/// likelihood's fast recursions need. `None` when φ is not stationary.
pub(crate) fn first_column(
    phi: &[f64],
    theta: &[f64],
    scratch: &mut Scratch,
    col: &mut [f64],
) -> Option<()> {
    let r = col.len();
    let psi = &mut scratch.psi[..=r];
    psi_weights(phi, theta, psi);
    let gamma = &mut scratch.gamma[..=r];
    autocovariances(phi, theta, psi, &mut scratch.system, gamma)?;
    for (i, c) in col.iter_mut().enumerate() {
        *c = first_column_entry(phi, theta, r, gamma, psi, i);
    }
    col.iter().all(|v| v.is_finite()).then_some(())
}

/// The whole stationary state covariance Σ (σ² = 1, row-major r × r,
/// `r² = out.len()`), for the Kalman filter that also forecasts. For
/// i, k ≥ 1, with `α[i] = Σ_{a=1}^{r−i} φ_{a+i} y_{t−a} + Σ_{b=0}^{r−1−i}
/// θ_{b+i} ε_{t−b}`, the covariance is the sum over pairs of terms of
/// γ(|a − a′|), ψ_{b−a} (b ≥ a) and δ_{bb′}. `None` when φ is not
/// stationary.
pub(crate) fn covariance(phi: &[f64], theta: &[f64], r: usize, out: &mut [f64]) -> Option<()> {
    let mut scratch = Scratch::new(r);
    let mut col = vec![0.0; r];
    first_column(phi, theta, &mut scratch, &mut col)?;
    let (gamma, psi) = (&scratch.gamma, &scratch.psi);
    // E[y_{t−a} ε_{t−b}] = ψ_{b−a} for b ≥ a.
    let cross = |a: usize, b: usize| if b >= a { psi[b - a] } else { 0.0 };
    for i in 0..r {
        out[i * r] = col[i];
        out[i] = col[i];
    }
    for i in 1..r {
        for k in i..r {
            let mut v = 0.0;
            for a in 1..=r - i {
                let fa = ar_at(phi, a + i);
                if fa != 0.0 {
                    for a2 in 1..=r - k {
                        v += fa * ar_at(phi, a2 + k) * gamma[a.abs_diff(a2)];
                    }
                    for b2 in 0..r - k {
                        v += fa * ma_at(theta, b2 + k) * cross(a, b2);
                    }
                }
            }
            for b in 0..r - i {
                let tb = ma_at(theta, b + i);
                if tb != 0.0 {
                    for a2 in 1..=r - k {
                        v += tb * ar_at(phi, a2 + k) * cross(a2, b);
                    }
                    if b < r - k {
                        // The same innovation ε_{t−b} in both.
                        v += tb * ma_at(theta, b + k);
                    }
                }
            }
            out[i * r + k] = v;
            out[k * r + i] = v;
        }
    }
    out.iter().all(|v| v.is_finite()).then_some(())
}
