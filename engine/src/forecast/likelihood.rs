//! The exact Gaussian likelihood of a complete, stationary ARMA(p, q)
//! series by the Chandrasekhar recursions (Morf, Sidhu & Kailath 1974; for
//! ARMA models Mélard 1984) — the order search's inner loop.
//!
//! Why not the Kalman filter of [`super::arima`]: its covariance update
//! `P ← T (P − P e1 e1ᵀ P / F) Tᵀ + R Rᵀ` costs O(r²) a step, and the
//! likelihood is evaluated tens of thousands of times per order search.
//! Started at the stationary covariance Σ (`Σ = T Σ Tᵀ + R Rᵀ`), the first
//! change `P_2 − P_1 = −G_1 G_1ᵀ / F_1` (G = T P e1) has rank one, and so
//! has every later one: writing `P_{t+1} − P_t = M_t W_t W_tᵀ` (M a
//! scalar, W an r-vector) with `w = W_t[0]`,
//!
//! - `F_{t+1} = F_t + M_t w²`,
//! - `G_{t+1} = G_t + M_t w · T W_t`,
//! - `W_{t+1} = T W_t − w · G_{t+1} / F_{t+1}`,
//! - `M_{t+1} = M_t + M_t² w² / F_t`,
//!
//! from `W_1 = G_1`, `M_1 = −1 / F_1`: O(r) a step, and the same
//! innovations `v_t` and variances `F_t` as the Kalman filter to rounding
//! (the recursion is the Kalman filter's, rewritten; `P_{t+2} − P_{t+1} =
//! A (δP + δP e1 e1ᵀ δP / F_t) Aᵀ` with `A = T − K_{t+1} e1ᵀ`). As the
//! filter does, the recursion stops once the change `|M| max W_i²` is
//! below 1e-13 and F and G are held from then on. Only Σ's first column
//! is needed ([`super::stationary::first_column`]).
//!
//! Missing values break the rank-one structure (the covariance is only
//! propagated across a gap); a series with gaps goes through the Kalman
//! filter instead. Nothing here allocates: the buffers are made once per
//! fit ([`ArmaLikelihood::new`]).

use super::stationary::{first_column, Scratch};

/// What one pass gives (σ² = 1): the sums the concentrated likelihood is
/// made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Innovations {
    /// Σ v²/F.
    pub sum_v2f: f64,
    /// Σ ln F.
    pub sum_ln_f: f64,
    /// Values filtered.
    pub n: usize,
}

/// The largest state dimension the recursions are compiled for (r ≤ 12:
/// p, q ≤ 11); larger models go through the Kalman filter.
pub(crate) const MAX_STATE: usize = 12;

/// The buffers of one ARMA(p, q) likelihood, reused by every evaluation.
#[derive(Clone, Debug)]
pub(crate) struct ArmaLikelihood {
    /// State dimension max(p, q + 1).
    r: usize,
    /// φ_1 … φ_p, set by the caller before each evaluation.
    pub phi: Vec<f64>,
    /// θ_1 … θ_q, likewise.
    pub theta: Vec<f64>,
    stationary: Scratch,
    /// Σ's first column.
    col: Vec<f64>,
}

impl ArmaLikelihood {
    /// Buffers for ARMA(p, q); `None` past [`MAX_STATE`].
    pub fn new(p: usize, q: usize) -> Option<Self> {
        let r = p.max(q + 1);
        (r <= MAX_STATE).then(|| ArmaLikelihood {
            r,
            phi: vec![0.0; p],
            theta: vec![0.0; q],
            stationary: Scratch::new(r),
            col: vec![0.0; r],
        })
    }

    /// The innovation sums of `x − mu` (complete: no NaN) under the current
    /// `phi` and `theta`; `None` when they are not stationary or the
    /// recursion breaks down.
    pub fn innovations(&mut self, x: &[f64], mu: f64) -> Option<Innovations> {
        first_column(&self.phi, &self.theta, &mut self.stationary, &mut self.col)?;
        // The state padded with zeros to a compiled size: the extra states
        // stay zero, so the sums are the same, bit for bit.
        match self.r {
            1 => self.recurse::<1>(x, mu),
            2 => self.recurse::<2>(x, mu),
            3 => self.recurse::<3>(x, mu),
            4 => self.recurse::<4>(x, mu),
            5 => self.recurse::<5>(x, mu),
            6 => self.recurse::<6>(x, mu),
            7 | 8 => self.recurse::<8>(x, mu),
            _ => self.recurse::<MAX_STATE>(x, mu),
        }
    }

    /// The recursions with the state in arrays of `R ≥ r` (unrolled, no
    /// bounds checks); once steady, only the state moves.
    fn recurse<const R: usize>(&self, x: &[f64], mu: f64) -> Option<Innovations> {
        // T's first column (φ padded), Σ e1, G = T Σ e1.
        let mut t = [0.0; R];
        t[..self.phi.len()].copy_from_slice(&self.phi);
        let mut col = [0.0; R];
        col[..self.r].copy_from_slice(&self.col);
        let mut f = col[0];
        if !(f.is_finite() && f > 0.0) {
            return None;
        }
        let mut g = [0.0; R];
        for i in 0..R {
            g[i] = t[i] * col[0] + if i + 1 < R { col[i + 1] } else { 0.0 };
        }
        let mut w = g;
        let mut a = [0.0; R];
        let mut m = -1.0 / f;
        let mut inv_f = 1.0 / f;
        let (mut sum_v2f, mut sum_ln_f, mut product) = (0.0, 0.0, 1.0f64);
        let mut rest = x;
        while let Some((&xt, tail)) = rest.split_first() {
            rest = tail;
            let v = (xt - mu) - a[0];
            let k = v * inv_f;
            sum_v2f += v * k;
            product *= f;
            if !(1e-250..=1e250).contains(&product) {
                sum_ln_f += product.ln();
                product = 1.0;
            }
            // a ← T a + G v / F (a[i + 1] is read before it is written).
            let a0 = a[0];
            for i in 0..R - 1 {
                a[i] = t[i] * a0 + a[i + 1] + g[i] * k;
            }
            a[R - 1] = t[R - 1] * a0 + g[R - 1] * k;
            // The rank-one change of P: F, G, W, M for the next step.
            let w0 = w[0];
            let change = m.abs() * w.iter().fold(0.0f64, |acc, v| acc.max(v * v));
            let mw0 = m * w0;
            let f_next = f + mw0 * w0;
            if !(f_next.is_finite() && f_next > 0.0) {
                return None;
            }
            let scale = w0 / f_next;
            for i in 0..R {
                let tw = t[i] * w0 + if i + 1 < R { w[i + 1] } else { 0.0 };
                g[i] += tw * mw0;
                w[i] = tw - g[i] * scale;
            }
            m += mw0 * mw0 * inv_f;
            f = f_next;
            inv_f = 1.0 / f;
            if change <= 1e-13 {
                break;
            }
        }
        // Steady: F and G held, only the state moves.
        for &xt in rest {
            let v = (xt - mu) - a[0];
            let k = v * inv_f;
            sum_v2f += v * k;
            let a0 = a[0];
            for i in 0..R - 1 {
                a[i] = t[i] * a0 + a[i + 1] + g[i] * k;
            }
            a[R - 1] = t[R - 1] * a0 + g[R - 1] * k;
        }
        sum_ln_f += product.ln() + rest.len() as f64 * f.ln();
        (sum_v2f.is_finite() && !x.is_empty()).then_some(Innovations {
            sum_v2f,
            sum_ln_f,
            n: x.len(),
        })
    }
}
