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
//! F_t and G_t depend on φ and θ only, not on the mean μ: the optimizer's
//! forward-difference gradient evaluates the likelihood at the same φ, θ
//! with μ nudged right after the point itself, so each full pass keeps the
//! F_t and G_t it went through (its *trace*) and a pass with the same φ and
//! θ on the same series replays them — only the state moves, the same
//! arithmetic on the same numbers, so the same sums bit for bit at a
//! fraction of the cost.
//!
//! Missing values break the rank-one structure (the covariance is only
//! propagated across a gap); a series with gaps goes through the Kalman
//! filter instead. Nothing here allocates after the first evaluation: the
//! buffers are made once per fit ([`ArmaLikelihood::new`]) and the trace
//! grows to the series' length once.

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

/// The array size a state of dimension `r` is padded to: the sizes the
/// recursions are compiled for (1–6, 8 and [`MAX_STATE`]).
fn compiled_size(r: usize) -> usize {
    match r {
        0..=6 => r.max(1),
        7 | 8 => 8,
        _ => MAX_STATE,
    }
}

/// Calls `f::<R>(args)` for the compiled size `R` equal to `size` (one of
/// [`compiled_size`]'s values).
macro_rules! at_compiled_size {
    ($size:expr, $f:ident :: $g:ident ($($arg:expr),*)) => {
        match $size {
            1 => $f::$g::<1>($($arg),*),
            2 => $f::$g::<2>($($arg),*),
            3 => $f::$g::<3>($($arg),*),
            4 => $f::$g::<4>($($arg),*),
            5 => $f::$g::<5>($($arg),*),
            6 => $f::$g::<6>($($arg),*),
            8 => $f::$g::<8>($($arg),*),
            _ => $f::$g::<MAX_STATE>($($arg),*),
        }
    };
}

/// One prediction step of the state `a` (padded to `R`) for the centred
/// value `y`: the innovation `v = y − a[0]`, then `a ← T a + G v / F`
/// (`t` is T's first column; `a[i + 1]` is read before it is written).
/// Returns `v² / F`, the step's term of the sum.
#[inline(always)]
fn predict<const R: usize>(
    a: &mut [f64; R],
    t: &[f64; R],
    g: &[f64; R],
    y: f64,
    inv_f: f64,
) -> f64 {
    let v = y - a[0];
    let k = v * inv_f;
    let a0 = a[0];
    for i in 0..R - 1 {
        a[i] = t[i] * a0 + a[i + 1] + g[i] * k;
    }
    a[R - 1] = t[R - 1] * a0 + g[R - 1] * k;
    v * k
}

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
    /// The last full pass, for [`ArmaLikelihood::innovations`] to replay.
    trace: Trace,
}

/// What a full pass went through, all of it independent of μ: the series
/// (address and length) and φ, θ it was made for, and per step the 1/F_t
/// and G_t the state update used (G in a stride of the compiled size), then
/// the held values and Σ ln F.
#[derive(Clone, Debug, Default)]
struct Trace {
    /// Whether the rest describes a pass that succeeded.
    valid: bool,
    /// The series' address and length (the same slice, not a copy).
    series: (usize, usize),
    phi: Vec<f64>,
    theta: Vec<f64>,
    /// 1/F_t of the steps before the recursion held still.
    inv_f: Vec<f64>,
    /// G_t of those steps, `stride` values each.
    g: Vec<f64>,
    stride: usize,
    /// 1/F and G from then on.
    held_inv_f: f64,
    held_g: Vec<f64>,
    /// Σ ln F over the whole series.
    sum_ln_f: f64,
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
            trace: Trace {
                phi: vec![0.0; p],
                theta: vec![0.0; q],
                held_g: vec![0.0; MAX_STATE],
                ..Trace::default()
            },
        })
    }

    /// The innovation sums of `x − mu` (complete: no NaN) under the current
    /// `phi` and `theta`; `None` when they are not stationary or the
    /// recursion breaks down.
    pub fn innovations(&mut self, x: &[f64], mu: f64) -> Option<Innovations> {
        let tr = &self.trace;
        if tr.valid
            && tr.series == (x.as_ptr() as usize, x.len())
            && tr.phi == self.phi
            && tr.theta == self.theta
        {
            return self.replay(x, mu);
        }
        self.trace.valid = false;
        first_column(&self.phi, &self.theta, &mut self.stationary, &mut self.col)?;
        // The state padded with zeros to a compiled size: the extra states
        // stay zero, so the sums are the same, bit for bit.
        let sums = at_compiled_size!(compiled_size(self.r), Self::recurse(self, x, mu))?;
        let tr = &mut self.trace;
        tr.series = (x.as_ptr() as usize, x.len());
        tr.phi.copy_from_slice(&self.phi);
        tr.theta.copy_from_slice(&self.theta);
        tr.valid = true;
        Some(sums)
    }

    /// The sums of `x − mu` from the trace of the last full pass (same
    /// series, φ and θ): the state update of [`ArmaLikelihood::recurse`]
    /// with the F and G it used.
    fn replay(&self, x: &[f64], mu: f64) -> Option<Innovations> {
        at_compiled_size!(self.trace.stride, Self::replay_in(self, x, mu))
    }

    /// [`ArmaLikelihood::replay`] with the state in arrays of `R` (the
    /// trace's stride).
    fn replay_in<const R: usize>(&self, x: &[f64], mu: f64) -> Option<Innovations> {
        let tr = &self.trace;
        let mut t = [0.0; R];
        t[..self.phi.len()].copy_from_slice(&self.phi);
        let mut a = [0.0; R];
        let mut sum_v2f = 0.0;
        let steps = tr.inv_f.len().min(x.len());
        for (s, &xt) in x[..steps].iter().enumerate() {
            let g = <&[f64; R]>::try_from(&tr.g[s * R..(s + 1) * R]).ok()?;
            sum_v2f += predict(&mut a, &t, g, xt - mu, tr.inv_f[s]);
        }
        let g = <&[f64; R]>::try_from(&tr.held_g[..R]).ok()?;
        for &xt in &x[steps..] {
            sum_v2f += predict(&mut a, &t, g, xt - mu, tr.held_inv_f);
        }
        (sum_v2f.is_finite() && !x.is_empty()).then_some(Innovations {
            sum_v2f,
            sum_ln_f: tr.sum_ln_f,
            n: x.len(),
        })
    }

    /// The recursions with the state in arrays of `R ≥ r` (unrolled, no
    /// bounds checks); once steady, only the state moves. Records the
    /// trace.
    fn recurse<const R: usize>(&mut self, x: &[f64], mu: f64) -> Option<Innovations> {
        let tr = &mut self.trace;
        tr.stride = R;
        tr.inv_f.clear();
        tr.g.clear();
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
            tr.inv_f.push(inv_f);
            tr.g.extend_from_slice(&g);
            sum_v2f += predict(&mut a, &t, &g, xt - mu, inv_f);
            product *= f;
            if !(1e-250..=1e250).contains(&product) {
                sum_ln_f += product.ln();
                product = 1.0;
            }
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
            sum_v2f += predict(&mut a, &t, &g, xt - mu, inv_f);
        }
        sum_ln_f += product.ln() + rest.len() as f64 * f.ln();
        tr.held_inv_f = inv_f;
        tr.held_g[..R].copy_from_slice(&g);
        tr.sum_ln_f = sum_ln_f;
        (sum_v2f.is_finite() && !x.is_empty()).then_some(Innovations {
            sum_v2f,
            sum_ln_f,
            n: x.len(),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fresh pass (no trace) of ARMA(φ, θ) at `mu`: also the other
    /// tests' way to evaluate the recursions once.
    pub(crate) fn fresh(phi: &[f64], theta: &[f64], x: &[f64], mu: f64) -> Option<Innovations> {
        let mut lik = ArmaLikelihood::new(phi.len(), theta.len())?;
        lik.phi.copy_from_slice(phi);
        lik.theta.copy_from_slice(theta);
        lik.innovations(x, mu)
    }

    /// Replaying the trace at another μ gives the fresh pass's sums bit for
    /// bit, and any change of φ, θ or the series makes a full pass again.
    #[test]
    fn replay_at_another_mean_is_the_fresh_pass() {
        // An AR(1) around 2 with a cosine.
        let mut rng = crate::numerics::Rng::new(5);
        let mut x = vec![2.0; 120];
        for i in 1..x.len() {
            x[i] += 0.5 * (x[i - 1] - 2.0) + (i as f64 * 0.2).cos() + rng.gauss(0.0, 1.0);
        }
        let shorter = x[..90].to_vec();
        // AR only (steady after p steps), MA near the unit circle (never
        // steady within the series), mixed, and a padded state size.
        let models: [(&[f64], &[f64]); 5] = [
            (&[0.6, -0.2], &[]),
            (&[], &[-0.97]),
            (&[0.5], &[0.4, -0.3]),
            (&[0.3, 0.1, -0.2], &[0.5, 0.2, 0.1]),
            (&[0.1; 7], &[]),
        ];
        for (phi, theta) in models {
            let mut lik = ArmaLikelihood::new(phi.len(), theta.len()).unwrap();
            lik.phi.copy_from_slice(phi);
            lik.theta.copy_from_slice(theta);
            let first = lik.innovations(&x, 2.0);
            assert!(first.is_some(), "{phi:?} {theta:?}");
            assert_eq!(first, fresh(phi, theta, &x, 2.0));
            for mu in [2.0 + 1e-7, -1.5, 2.0] {
                let replayed = lik.innovations(&x, mu);
                assert!(lik.trace.valid);
                assert_eq!(replayed, fresh(phi, theta, &x, mu), "{phi:?} {theta:?}");
            }
            // Another series: a full pass.
            assert_eq!(
                lik.innovations(&shorter, 2.5),
                fresh(phi, theta, &shorter, 2.5)
            );
            assert_eq!(lik.trace.series.1, shorter.len());
            // Other coefficients: a full pass, not the old trace.
            if let Some(v) = lik.theta.first_mut().or(lik.phi.first_mut()) {
                *v *= 0.5;
            }
            let (phi2, theta2) = (lik.phi.clone(), lik.theta.clone());
            assert_eq!(
                lik.innovations(&shorter, 2.5),
                fresh(&phi2, &theta2, &shorter, 2.5)
            );
            assert_ne!(
                lik.innovations(&shorter, 2.5),
                fresh(phi, theta, &shorter, 2.5)
            );
        }
    }
}
