//! ARIMA(p, d, q) with a constant (eq. 2 of §III-A):
//! `(1 − Σ φ_i Lⁱ)(1 − L)ᵈ y_t = δ + (1 + Σ θ_i Lⁱ) ε_t`, `ε_t ~ N(0, σ²)`.
//!
//! Fitted by exact Gaussian maximum likelihood, as statsmodels' `SARIMAX`
//! (what `statsmodels.tsa.arima.model.ARIMA` and pmdarima are built on)
//! does: the series is differenced d times and the ARMA(p, q) part is put in
//! Harvey's state-space form — state dimension `r = max(p, q + 1)`,
//! transition `T` with φ in its first column and ones above the diagonal,
//! `R = (1, θ_1, …, θ_{r−1})ᵀ`, `w_t = α_{t,1}`, the constant δ in the state
//! intercept — started at its stationary mean and covariance (the discrete
//! Lyapunov equation's solution, written through the process's
//! autocovariances: `forecast::stationary`). A Kalman filter gives the
//! one-step innovations `v_t` and their variances `σ² F_t`, so
//! `ln L = −½ Σ (ln 2π + ln σ²F_t + v_t² / (σ² F_t))`. σ² is concentrated
//! out (`σ̂² = Σ v²/F / n`), which leaves the same maximum as statsmodels'
//! unconcentrated search with one parameter fewer. Differencing the series
//! first is what statsmodels' exact-diffuse treatment of the integrated
//! states amounts to: the first d values only fix the levels. Missing
//! values (NaN) are skipped by the filter, which then only predicts.
//!
//! While the optimizer searches, the likelihood of a complete series is
//! evaluated by the Chandrasekhar recursions instead
//! (`forecast::likelihood`: the same innovations to rounding, O(r) a step
//! instead of O(r²), no allocation); the fitted model, its likelihood, AIC
//! and forecasts come from one pass of the Kalman filter at the optimum.
//!
//! The AR and MA coefficients are searched in an unconstrained space mapped
//! to stationary and invertible polynomials through partial
//! autocorrelations (Monahan 1984, statsmodels' `constrain_stationary_
//! univariate`); the constant as the differenced series' mean μ, scaled by
//! its spread, `δ = μ(1 − Σφ)`. The optimizer is the estimation module's
//! projected L-BFGS with forward-difference gradients, minimizing
//! `−ln L / n` as statsmodels does, from up to four starting points
//! (Hannan–Rissanen regressions, zero coefficients, and for p + q ≥ 2 two
//! with partial autocorrelations ±0.45 of opposite signs for AR and MA:
//! ARMA likelihoods have local optima where roots nearly cancel); within
//! the order search, Hannan–Rissanen and the optima of the nested smaller
//! models.
//!
//! Forecasts run the state forward from the filter's last prediction; their
//! variance is the state covariance's, so the interval is the model's
//! **prediction interval** for new observations (what statsmodels'
//! `get_forecast(k).conf_int()` returns, despite the name), not a confidence
//! interval for the mean. d > 0 is undone by cumulative sums of the
//! forecasts and, for the variance, of the forecast-error covariances.

use super::likelihood::{ArmaLikelihood, Innovations};
use super::stationary;
use super::{check_level, check_series, ForecastError, StepForecast};
use crate::estimate::optimize::{self, Options};
use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;
use std::fmt;

/// The order (p, d, q).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArimaOrder {
    /// Autoregressive order.
    pub p: usize,
    /// Differences.
    pub d: usize,
    /// Moving-average order.
    pub q: usize,
}

impl ArimaOrder {
    /// `(p, d, q)`.
    pub fn new(p: usize, d: usize, q: usize) -> Self {
        ArimaOrder { p, d, q }
    }
}

impl fmt::Display for ArimaOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.p, self.d, self.q)
    }
}

/// Settings of one ARIMA fit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ArimaParams {
    /// Fit the constant δ (default true: eq. 2 has one; pmdarima's
    /// `with_intercept`).
    pub include_constant: bool,
    /// L-BFGS iterations per starting point (default 100; statsmodels stops
    /// at 50, which sometimes leaves the optimum unreached).
    pub max_iterations: usize,
}

impl Default for ArimaParams {
    fn default() -> Self {
        ArimaParams {
            include_constant: true,
            max_iterations: 100,
        }
    }
}

impl ArimaParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), ForecastError> {
        if self.max_iterations == 0 {
            return Err(ForecastError::param("max_iterations", "must be at least 1"));
        }
        Ok(())
    }
}

/// A fitted model, as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArimaFit {
    /// The order.
    pub order: ArimaOrder,
    /// δ of eq. 2 (statsmodels' `intercept`), when fitted.
    pub constant: Option<f64>,
    /// The differenced series' mean `δ / (1 − Σφ)`, when fitted.
    pub mean: Option<f64>,
    /// φ_1 … φ_p.
    pub ar: Vec<f64>,
    /// θ_1 … θ_q.
    pub ma: Vec<f64>,
    /// Innovation variance σ².
    pub sigma2: f64,
    /// Exact log-likelihood of the differenced series.
    pub log_likelihood: f64,
    /// `−2 ln L + 2k`, k = coefficients + constant + σ² (statsmodels').
    pub aic: f64,
    /// Observed values of the differenced series (the likelihood's n).
    pub observations: usize,
    /// k of the AIC.
    pub parameters: usize,
    /// Optimizer iterations of the best start.
    pub iterations: usize,
    /// A stopping rule was met (rather than the iteration limit).
    pub converged: bool,
}

/// The ARMA part in state-space form.
#[derive(Clone, Debug)]
struct StateSpace {
    r: usize,
    /// First column of T (φ padded with zeros to r).
    phi: Vec<f64>,
    /// R = (1, θ_1, …) padded to r.
    rvec: Vec<f64>,
    /// State intercept (first element).
    c: f64,
}

impl StateSpace {
    fn new(ar: &[f64], ma: &[f64], c: f64) -> Self {
        let r = ar.len().max(ma.len() + 1);
        let mut phi = vec![0.0; r];
        phi[..ar.len()].copy_from_slice(ar);
        let mut rvec = vec![0.0; r];
        rvec[0] = 1.0;
        rvec[1..=ma.len()].copy_from_slice(ma);
        StateSpace { r, phi, rvec, c }
    }

    /// `T x` (T: φ in column 0, ones above the diagonal).
    fn tx(&self, x: &[f64], out: &mut [f64]) {
        let r = self.r;
        for i in 0..r {
            out[i] = self.phi[i] * x[0] + if i + 1 < r { x[i + 1] } else { 0.0 };
        }
    }

    /// `T M Tᵀ + R Rᵀ` for a symmetric row-major `M`.
    fn propagate(&self, m: &[f64], tmp: &mut [f64], out: &mut [f64]) {
        let r = self.r;
        // tmp = T M (row i = φ_i M[0,:] + M[i+1,:]).
        for i in 0..r {
            for j in 0..r {
                tmp[i * r + j] =
                    self.phi[i] * m[j] + if i + 1 < r { m[(i + 1) * r + j] } else { 0.0 };
            }
        }
        // out = tmp Tᵀ (column j = φ_j tmp[:,0] + tmp[:,j+1]) + R Rᵀ.
        for i in 0..r {
            for j in 0..r {
                out[i * r + j] = self.phi[j] * tmp[i * r]
                    + if j + 1 < r { tmp[i * r + j + 1] } else { 0.0 }
                    + self.rvec[i] * self.rvec[j];
            }
        }
    }

    /// Stationary mean and covariance (σ² = 1) of the state: the mean
    /// solves `a = T a + c e1` (`a[0] = c / (1 − Σφ)`, `a[i] = a[0] Σ_{j>i}
    /// φ_j`), the covariance is [`stationary::covariance`]'s.
    fn stationary(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        let r = self.r;
        let phi_sum: f64 = self.phi.iter().sum();
        let level = self.c / (1.0 - phi_sum);
        let mean: Vec<f64> = (0..r)
            .map(|i| {
                if i == 0 {
                    level
                } else {
                    level * self.phi[i..].iter().sum::<f64>()
                }
            })
            .collect();
        let mut p = vec![0.0; r * r];
        stationary::covariance(&self.phi, &self.rvec[1..], r, &mut p)?;
        // The first state is the series: it must vary. The others may not
        // (without MA terms, R Rᵀ has zeros on its diagonal).
        if !(level.is_finite() && p[0].is_finite() && p[0] > 0.0)
            || (0..r).any(|i| !(p[i * r + i].is_finite() && p[i * r + i] >= -1e-10))
        {
            return None;
        }
        Some((mean, p))
    }
}

/// What one pass of the Kalman filter gives (σ² = 1).
struct Filtered {
    /// The innovation sums.
    sums: Innovations,
    /// Predicted state for the step after the last value.
    a: Vec<f64>,
    /// Its covariance (row-major r × r).
    p: Vec<f64>,
}

impl Innovations {
    /// `σ̂² = Σ v²/F / n` and the concentrated log-likelihood.
    fn concentrated(&self) -> Option<(f64, f64)> {
        let n = self.n as f64;
        let s2 = self.sum_v2f / n;
        if !(s2.is_finite() && s2 > 1e-300) {
            return None;
        }
        let ll = -0.5 * n * ((2.0 * PI).ln() + 1.0 + s2.ln()) - 0.5 * self.sum_ln_f;
        Some((s2, ll))
    }

    /// The log-likelihood at a given σ².
    fn at_sigma2(&self, s2: f64) -> f64 {
        let n = self.n as f64;
        -0.5 * (n * (2.0 * PI).ln() + n * s2.ln() + self.sum_ln_f + self.sum_v2f / s2)
    }
}

/// The Kalman filter over `w` (NaN = missing). Once the state covariance
/// stops changing (|ΔP| ≤ 1e-13, an invertible MA converges fast) the gain is
/// held: each further step costs O(r) instead of O(r²).
fn filter(w: &[f64], ss: &StateSpace) -> Option<Filtered> {
    let r = ss.r;
    let (mut a, mut p) = ss.stationary()?;
    let mut tmp = vec![0.0; r * r];
    let mut pn = vec![0.0; r * r];
    let mut m = vec![0.0; r * r];
    let mut ta = vec![0.0; r];
    let mut gain = vec![0.0; r];
    let mut steady = false;
    let mut f = 0.0;
    let (mut sum_v2f, mut sum_ln_f, mut n) = (0.0, 0.0, 0usize);
    for &wt in w {
        if wt.is_nan() {
            steady = false;
            ss.tx(&a, &mut ta);
            a.copy_from_slice(&ta);
            a[0] += ss.c;
            ss.propagate(&p, &mut tmp, &mut pn);
            std::mem::swap(&mut p, &mut pn);
            continue;
        }
        if !steady {
            f = p[0];
            if !(f.is_finite() && f > 0.0) {
                return None;
            }
            // K = T P e1 / F.
            let col: Vec<f64> = (0..r).map(|i| p[i * r]).collect();
            ss.tx(&col, &mut gain);
            gain.iter_mut().for_each(|g| *g /= f);
        }
        let v = wt - a[0];
        sum_v2f += v * v / f;
        sum_ln_f += f.ln();
        n += 1;
        ss.tx(&a, &mut ta);
        for i in 0..r {
            a[i] = ta[i] + gain[i] * v;
        }
        a[0] += ss.c;
        if !steady {
            // P ← T (P − P e1 e1ᵀ P / F) Tᵀ + R Rᵀ.
            for i in 0..r {
                for j in 0..r {
                    m[i * r + j] = p[i * r + j] - p[i * r] * p[j * r] / f;
                }
            }
            ss.propagate(&m, &mut tmp, &mut pn);
            let change = pn
                .iter()
                .zip(&p)
                .fold(0.0f64, |acc, (x, y)| acc.max((x - y).abs()));
            std::mem::swap(&mut p, &mut pn);
            steady = change <= 1e-13;
        }
    }
    if n == 0 || !sum_v2f.is_finite() {
        return None;
    }
    Some(Filtered {
        sums: Innovations {
            sum_v2f,
            sum_ln_f,
            n,
        },
        a,
        p,
    })
}

/// PACF-like values in (−1, 1) → stationary AR coefficients of
/// `1 − Σ φ_i Lⁱ` (Durbin–Levinson).
fn constrain(u: &[f64]) -> Vec<f64> {
    let mut phi = vec![0.0; u.len()];
    let mut tmp = vec![0.0; u.len()];
    constrain_into(u, &mut phi, &mut tmp);
    phi
}

/// [`constrain`] into `phi` (same length as `u`), with `tmp` as scratch:
/// no allocation, for the likelihood's inner loop.
fn constrain_into(u: &[f64], phi: &mut [f64], tmp: &mut [f64]) {
    for (k, &uk) in u.iter().enumerate() {
        let r = uk / (1.0 + uk * uk).sqrt();
        tmp[..k].copy_from_slice(&phi[..k]);
        for i in 0..k {
            phi[i] = tmp[i] - r * tmp[k - 1 - i];
        }
        phi[k] = r;
    }
}

/// The inverse of [`constrain`]; `None` when `phi` is not stationary.
fn unconstrain(phi: &[f64]) -> Option<Vec<f64>> {
    let mut a = phi.to_vec();
    let mut u = vec![0.0; phi.len()];
    for k in (0..phi.len()).rev() {
        let r = a[k];
        if r.is_nan() || r.abs() >= 0.999_999 {
            return None;
        }
        u[k] = r / (1.0 - r * r).sqrt();
        let prev: Vec<f64> = (0..k)
            .map(|i| (a[i] + r * a[k - 1 - i]) / (1.0 - r * r))
            .collect();
        a = prev;
    }
    Some(u)
}

/// `Δᵈ y` (NaN where any term is missing).
pub fn difference(y: &[f64], d: usize) -> Vec<f64> {
    let mut w = y.to_vec();
    for _ in 0..d {
        w = w.windows(2).map(|p| p[1] - p[0]).collect();
    }
    w
}

/// How the search vector maps to coefficients.
#[derive(Clone, Copy, Debug)]
struct Layout {
    p: usize,
    q: usize,
    constant: bool,
    /// Centre and scale of the mean parameter.
    centre: f64,
    scale: f64,
}

impl Layout {
    fn len(&self) -> usize {
        self.p + self.q + usize::from(self.constant)
    }

    /// (ar, ma, μ) from the search vector.
    fn decode(&self, x: &[f64]) -> (Vec<f64>, Vec<f64>, f64) {
        let k = usize::from(self.constant);
        let mu = if self.constant {
            self.centre + self.scale * x[0]
        } else {
            0.0
        };
        let ar = constrain(&x[k..k + self.p]);
        let ma: Vec<f64> = constrain(&x[k + self.p..]).iter().map(|v| -v).collect();
        (ar, ma, mu)
    }

    /// [`Layout::decode`] into the likelihood's φ and θ (no allocation);
    /// returns μ.
    fn decode_into(&self, x: &[f64], lik: &mut ArmaLikelihood, tmp: &mut [f64]) -> f64 {
        let k = usize::from(self.constant);
        constrain_into(&x[k..k + self.p], &mut lik.phi, tmp);
        constrain_into(&x[k + self.p..], &mut lik.theta, tmp);
        lik.theta.iter_mut().for_each(|v| *v = -*v);
        if self.constant {
            self.centre + self.scale * x[0]
        } else {
            0.0
        }
    }

    fn encode(&self, ar: &[f64], ma: &[f64], mu: f64) -> Option<Vec<f64>> {
        let mut x = Vec::with_capacity(self.len());
        if self.constant {
            x.push((mu - self.centre) / self.scale);
        }
        x.extend(unconstrain(ar)?);
        let neg: Vec<f64> = ma.iter().map(|v| -v).collect();
        x.extend(unconstrain(&neg)?);
        Some(x)
    }
}

/// The state space of (ar, ma, μ): δ = μ(1 − Σφ).
fn state_space(ar: &[f64], ma: &[f64], mu: f64) -> StateSpace {
    StateSpace::new(ar, ma, mu * (1.0 - ar.iter().sum::<f64>()))
}

/// Least squares `min ‖X b − y‖` by SVD (`None` when degenerate).
fn least_squares(rows: &[Vec<f64>], y: &[f64]) -> Option<Vec<f64>> {
    let k = rows.first()?.len();
    if rows.len() <= k || k == 0 {
        return None;
    }
    let x = DMatrix::from_fn(rows.len(), k, |i, j| rows[i][j]);
    let b = DVector::from_column_slice(y);
    let svd = x.svd(true, true);
    let sol = svd.solve(&b, 1e-10).ok()?;
    Some(sol.iter().copied().collect())
}

/// Hannan–Rissanen starting coefficients on a centred, complete series:
/// a long autoregression's residuals stand in for the innovations, then one
/// regression on lagged values and lagged residuals.
fn hannan_rissanen(x: &[f64], p: usize, q: usize) -> Option<(Vec<f64>, Vec<f64>)> {
    let n = x.len();
    let long = if q > 0 {
        (p + q + 2).max(((n as f64).ln() * 2.0) as usize).min(n / 4)
    } else {
        0
    };
    let resid: Vec<f64> = if q > 0 {
        if long == 0 {
            return None;
        }
        let rows: Vec<Vec<f64>> = (long..n)
            .map(|t| (1..=long).map(|i| x[t - i]).collect())
            .collect();
        let coef = least_squares(&rows, &x[long..])?;
        let mut e = vec![0.0; n];
        for t in long..n {
            e[t] = x[t] - (1..=long).map(|i| coef[i - 1] * x[t - i]).sum::<f64>();
        }
        e
    } else {
        Vec::new()
    };
    let start = long + q.max(p).max(1);
    if n <= start + p + q + 1 {
        return None;
    }
    let rows: Vec<Vec<f64>> = (start..n)
        .map(|t| {
            (1..=p)
                .map(|i| x[t - i])
                .chain((1..=q).map(|i| resid[t - i]))
                .collect()
        })
        .collect();
    let b = least_squares(&rows, &x[start..])?;
    Some((b[..p].to_vec(), b[p..].to_vec()))
}

/// A fitted ARIMA model, ready to forecast.
#[derive(Clone, Debug)]
pub struct Arima {
    fit: ArimaFit,
    ss: StateSpace,
    /// Predicted state after the last value, and its covariance (σ² = 1).
    a: Vec<f64>,
    p: Vec<f64>,
    /// The last value of `Δˡ y` for l = 0 … d−1 (NaN when missing).
    levels: Vec<f64>,
    /// Length of the series fitted.
    len: usize,
}

/// The coefficients a model is assembled from: AR and MA, μ of the
/// differenced series (`None`: no constant) and σ² (`None`: its
/// maximum-likelihood value).
struct Coefficients<'a> {
    ar: &'a [f64],
    ma: &'a [f64],
    mean: Option<f64>,
    sigma2: Option<f64>,
}

impl Arima {
    /// Fits ARIMA(p, d, q) to `y` (NaN = missing) by exact maximum
    /// likelihood.
    pub fn fit(y: &[f64], order: ArimaOrder, params: &ArimaParams) -> Result<Self, ForecastError> {
        Self::fit_from(y, order, params, &[])
    }

    /// [`Arima::fit`] with extra starting points: `(ar, ma, mean)`
    /// coefficient sets, shorter than the order's and padded with zeros (a
    /// nested model's optimum, so the larger model's likelihood is never
    /// below it).
    pub(crate) fn fit_from(
        y: &[f64],
        order: ArimaOrder,
        params: &ArimaParams,
        extra: &[&ArimaFit],
    ) -> Result<Self, ForecastError> {
        params.validate()?;
        check_series(y)?;
        let w = difference(y, order.d);
        let observed: Vec<f64> = w.iter().copied().filter(|v| !v.is_nan()).collect();
        let k = order.p + order.q + usize::from(params.include_constant);
        let needed = k + 2;
        if observed.len() < needed {
            return Err(ForecastError::TooShort {
                what: format!("ARIMA{order}"),
                needed: needed + order.d,
                got: observed.len() + order.d,
            });
        }
        let n = observed.len() as f64;
        let mean = observed.iter().sum::<f64>() / n;
        let var = observed.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
        if var <= 1e-24 * mean.abs().max(1.0).powi(2) {
            return Err(ForecastError::Constant {
                what: format!("ARIMA{order} (after {} differences)", order.d),
                value: mean,
            });
        }
        let layout = Layout {
            p: order.p,
            q: order.q,
            constant: params.include_constant,
            centre: mean,
            scale: var.sqrt(),
        };
        // −ln L / n: a complete series by the Chandrasekhar recursions
        // (allocation-free), one with gaps by the Kalman filter.
        let mut fast = ArmaLikelihood::new(order.p, order.q).filter(|_| observed.len() == w.len());
        let mut tmp = vec![0.0; order.p.max(order.q)];
        let mut objective = |x: &[f64]| -> Option<f64> {
            let sums = if let Some(lik) = fast.as_mut() {
                let mu = layout.decode_into(x, lik, &mut tmp);
                lik.innovations(&w, mu)?
            } else {
                let (ar, ma, mu) = layout.decode(x);
                filter(&w, &state_space(&ar, &ma, mu))?.sums
            };
            let (_, ll) = sums.concentrated()?;
            Some(-ll / sums.n as f64)
        };
        // Starting points: Hannan–Rissanen (when the series is complete and
        // its coefficients are admissible), then zeros.
        let mut starts = Vec::new();
        if observed.len() == w.len() && order.p + order.q > 0 {
            let centred: Vec<f64> = w.iter().map(|v| v - mean).collect();
            if let Some((ar, ma)) = hannan_rissanen(&centred, order.p, order.q) {
                if let Some(x) = layout.encode(&ar, &ma, mean) {
                    starts.push(x);
                }
            }
        }
        // Within the order search, the nested models' optima (which had all
        // the starts below) replace the generic ones: a third of the time.
        for f in extra {
            let mut ar = f.ar.clone();
            let mut ma = f.ma.clone();
            if ar.len() > order.p || ma.len() > order.q {
                continue;
            }
            ar.resize(order.p, 0.0);
            ma.resize(order.q, 0.0);
            if let Some(x) = layout.encode(&ar, &ma, f.mean.unwrap_or(mean)) {
                starts.push(x);
            }
        }
        if extra.is_empty() || starts.is_empty() {
            starts.push(vec![0.0; k]);
            // ARMA likelihoods are often multimodal (near-cancelling
            // roots): two more starts with opposite signs of the partial
            // autocorrelations, AR against MA.
            if order.p + order.q >= 2 {
                for sign in [1.0, -1.0] {
                    let mut x = vec![0.0; k];
                    let c = usize::from(params.include_constant);
                    x[c..c + order.p].iter_mut().for_each(|v| *v = 0.5 * sign);
                    x[c + order.p..].iter_mut().for_each(|v| *v = -0.5 * sign);
                    starts.push(x);
                }
            }
        }
        let options = Options {
            max_iterations: params.max_iterations,
            ..Options::default()
        };
        let inf = vec![f64::INFINITY; k];
        let neg_inf = vec![f64::NEG_INFINITY; k];
        let mut best: Option<optimize::Outcome> = None;
        for x0 in &starts {
            let outcome = if k == 0 {
                objective(x0).map(|f| optimize::Outcome {
                    x: Vec::new(),
                    f,
                    iterations: 0,
                    evaluations: 1,
                    converged: true,
                })
            } else {
                optimize::minimize(
                    optimize::Objective::ForwardDifferences(&mut objective),
                    x0,
                    &neg_inf,
                    &inf,
                    &options,
                )
            };
            if let Some(o) = outcome {
                if best.as_ref().is_none_or(|b| o.f < b.f) {
                    best = Some(o);
                }
            }
        }
        let best = best.ok_or_else(|| {
            ForecastError::Fit(format!(
                "ARIMA{order}: the likelihood cannot be evaluated at any starting point"
            ))
        })?;
        let (ar, ma, mu) = layout.decode(&best.x);
        let coefficients = Coefficients {
            ar: &ar,
            ma: &ma,
            mean: params.include_constant.then_some(mu),
            sigma2: None,
        };
        Self::assemble(y, order, coefficients, best.iterations, best.converged)
    }

    /// The model with given coefficients (no fitting): `mean` is μ of the
    /// differenced series (`None`: no constant), `sigma2` σ² (`None`: its
    /// maximum-likelihood value). For checks against other implementations
    /// and for reusing a fit on new data.
    pub fn with_coefficients(
        y: &[f64],
        order: ArimaOrder,
        ar: &[f64],
        ma: &[f64],
        mean: Option<f64>,
        sigma2: Option<f64>,
    ) -> Result<Self, ForecastError> {
        check_series(y)?;
        if ar.len() != order.p || ma.len() != order.q {
            return Err(ForecastError::param(
                "coefficients",
                format!(
                    "{} AR and {} MA coefficients for order {order}",
                    ar.len(),
                    ma.len()
                ),
            ));
        }
        if ar
            .iter()
            .chain(ma)
            .chain(&mean)
            .chain(&sigma2)
            .any(|v| !v.is_finite())
            || sigma2.is_some_and(|s| s <= 0.0)
        {
            return Err(ForecastError::param(
                "coefficients",
                "must be finite (σ² > 0)",
            ));
        }
        let coefficients = Coefficients {
            ar,
            ma,
            mean,
            sigma2,
        };
        Self::assemble(y, order, coefficients, 0, true)
    }

    /// The model of `y` with `coefficients`, filtered once; `iterations`
    /// and `converged` tell how the fit that found them went.
    fn assemble(
        y: &[f64],
        order: ArimaOrder,
        coefficients: Coefficients<'_>,
        iterations: usize,
        converged: bool,
    ) -> Result<Self, ForecastError> {
        let Coefficients {
            ar,
            ma,
            mean,
            sigma2,
        } = coefficients;
        let w = difference(y, order.d);
        let ss = state_space(ar, ma, mean.unwrap_or(0.0));
        let f = filter(&w, &ss).ok_or_else(|| {
            ForecastError::Fit(format!(
                "ARIMA{order}: the coefficients are not stationary, or the filter failed"
            ))
        })?;
        let (s2, ll) = match sigma2 {
            Some(s2) => (s2, f.sums.at_sigma2(s2)),
            None => f.sums.concentrated().ok_or_else(|| {
                ForecastError::Fit(format!("ARIMA{order}: zero innovation variance"))
            })?,
        };
        let parameters = order.p + order.q + usize::from(mean.is_some()) + 1;
        let levels = (0..order.d)
            .map(|l| *difference(y, l).last().unwrap_or(&f64::NAN))
            .collect();
        Ok(Arima {
            fit: ArimaFit {
                order,
                constant: mean.map(|m| m * (1.0 - ar.iter().sum::<f64>())),
                mean,
                ar: ar.to_vec(),
                ma: ma.to_vec(),
                sigma2: s2,
                log_likelihood: ll,
                aic: -2.0 * ll + 2.0 * parameters as f64,
                observations: f.sums.n,
                parameters,
                iterations,
                converged,
            },
            ss,
            a: f.a,
            p: f.p,
            levels,
            len: y.len(),
        })
    }

    /// What the fit found.
    pub fn fit_summary(&self) -> &ArimaFit {
        &self.fit
    }

    /// One line: order, coefficients, σ², AIC.
    pub fn describe(&self) -> String {
        let f = &self.fit;
        let list = |v: &[f64]| {
            v.iter()
                .map(|x| format!("{x:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "ARIMA{} δ={} φ=[{}] θ=[{}] σ²={:.4} AIC={:.2}",
            f.order,
            f.constant.map_or("none".into(), |c| format!("{c:.4}")),
            list(&f.ar),
            list(&f.ma),
            f.sigma2,
            f.aic
        )
    }

    /// Forecasts `horizon` steps past the last value, with `level`
    /// prediction intervals.
    pub fn forecast(&self, horizon: usize, level: f64) -> Result<Vec<StepForecast>, ForecastError> {
        check_level(level)?;
        if horizon == 0 {
            return Err(ForecastError::param("horizon", "must be at least 1"));
        }
        if let Some(l) = self.levels.iter().position(|v| v.is_nan()) {
            return Err(ForecastError::MissingAtOrigin {
                what: format!("ARIMA{}", self.fit.order),
                needed: self.fit.order.d + 1,
                index: self.len - 1 - l,
            });
        }
        let r = self.ss.r;
        let s2 = self.fit.sigma2;
        // Means and forecast-error covariances of the differenced series.
        let mut a = self.a.clone();
        let mut p = self.p.clone();
        let mut ta = vec![0.0; r];
        let mut tmp = vec![0.0; r * r];
        let mut pn = vec![0.0; r * r];
        let mut means = Vec::with_capacity(horizon);
        let mut cov = vec![0.0; horizon * horizon];
        let mut v = vec![0.0; r];
        let mut tv = vec![0.0; r];
        for i in 0..horizon {
            means.push(a[0]);
            // Cov(w_i, w_j) = (T^{j−i} P_i)[0, 0] for j ≥ i.
            for (k, vk) in v.iter_mut().enumerate() {
                *vk = p[k * r];
            }
            for j in i..horizon {
                if j > i {
                    self.ss.tx(&v, &mut tv);
                    std::mem::swap(&mut v, &mut tv);
                }
                cov[i * horizon + j] = v[0] * s2;
                cov[j * horizon + i] = v[0] * s2;
            }
            self.ss.tx(&a, &mut ta);
            a.copy_from_slice(&ta);
            a[0] += self.ss.c;
            self.ss.propagate(&p, &mut tmp, &mut pn);
            std::mem::swap(&mut p, &mut pn);
        }
        // Undo the differences: cumulative sums from the last levels, and
        // the same sums over the error covariance (C Σ Cᵀ per level).
        for l in (0..self.fit.order.d).rev() {
            let mut acc = self.levels[l];
            for m in means.iter_mut() {
                acc += *m;
                *m = acc;
            }
            for row in 0..horizon {
                for col in 1..horizon {
                    cov[row * horizon + col] += cov[row * horizon + col - 1];
                }
            }
            for col in 0..horizon {
                for row in 1..horizon {
                    cov[row * horizon + col] += cov[(row - 1) * horizon + col];
                }
            }
        }
        Ok((0..horizon)
            .map(|i| StepForecast::gaussian(i + 1, means[i], cov[i * horizon + i], level))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constrain_round_trips() {
        for u in [vec![0.3], vec![-1.2, 0.4], vec![2.0, -0.5, 0.7, 0.1]] {
            let phi = constrain(&u);
            let back = unconstrain(&phi).unwrap();
            for (a, b) in u.iter().zip(&back) {
                assert!((a - b).abs() < 1e-9, "{u:?} → {phi:?} → {back:?}");
            }
        }
        // AR(2) with a root inside the unit circle is refused.
        assert!(unconstrain(&[1.5, -0.2]).is_none());
    }

    /// The stationary covariance by the textbook route, independent of
    /// [`stationary`]: `vec(Σ) = (I − T ⊗ T)⁻¹ vec(R Rᵀ)`, an r² × r² LU.
    fn lyapunov_by_kronecker(ss: &StateSpace) -> Vec<f64> {
        let r = ss.r;
        let t = |i: usize, j: usize| -> f64 {
            if j == 0 {
                ss.phi[i]
            } else if j == i + 1 {
                1.0
            } else {
                0.0
            }
        };
        let r2 = r * r;
        let big = DMatrix::from_fn(r2, r2, |a, b| {
            let (i, j, k, l) = (a / r, a % r, b / r, b % r);
            f64::from(u8::from(a == b)) - t(i, k) * t(j, l)
        });
        let rhs = DVector::from_fn(r2, |a, _| ss.rvec[a / r] * ss.rvec[a % r]);
        big.lu().solve(&rhs).unwrap().iter().copied().collect()
    }

    /// Stationary, invertible ARMA(p, q) coefficients from a seed, with
    /// partial autocorrelations within ±`bound`.
    fn random_arma(
        rng: &mut crate::numerics::Rng,
        p: usize,
        q: usize,
        bound: f64,
    ) -> (Vec<f64>, Vec<f64>) {
        // constrain maps u to u / √(1 + u²).
        let u_max = bound / (1.0 - bound * bound).sqrt();
        let u: Vec<f64> = (0..p).map(|_| rng.uniform(-u_max, u_max)).collect();
        let v: Vec<f64> = (0..q).map(|_| rng.uniform(-u_max, u_max)).collect();
        (constrain(&u), constrain(&v).iter().map(|x| -x).collect())
    }

    #[test]
    fn stationary_covariance_solves_the_lyapunov_equation() {
        let mut rng = crate::numerics::Rng::new(7);
        for p in 0..=5 {
            for q in 0..=5 {
                for _ in 0..5 {
                    let (ar, ma) = random_arma(&mut rng, p, q, 0.93);
                    let ss = state_space(&ar, &ma, 0.3);
                    let (mean, got) = ss.stationary().unwrap();
                    let want = lyapunov_by_kronecker(&ss);
                    let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                    for (g, w) in got.iter().zip(&want) {
                        assert!(
                            (g - w).abs() <= 1e-10 * scale,
                            "({p}, {q}) {ar:?} {ma:?}: {got:?} vs {want:?}"
                        );
                    }
                    // The mean is a fixed point of a ← T a + c e1.
                    let mut ta = vec![0.0; ss.r];
                    ss.tx(&mean, &mut ta);
                    ta[0] += ss.c;
                    for (a, b) in ta.iter().zip(&mean) {
                        assert!(
                            (a - b).abs() <= 1e-10 * (1.0 + b.abs()),
                            "({p}, {q}) mean {mean:?}"
                        );
                    }
                }
            }
        }
    }

    /// The fast recursions against the Kalman filter on the same models, the
    /// sums relative to their size plus n (both hold F once its change is
    /// below 1e-13, possibly a step apart): to 1e-10 with partial
    /// autocorrelations within ±0.5, 1e-8 within ±0.8 (an ARMA(5, 5) there
    /// has roots near the unit circle). Closer to it still the
    /// likelihood itself is ill-conditioned and neither is exact: against a
    /// 60-digit Cholesky evaluation of the Gaussian likelihood, an ARMA(4, 5)
    /// with partial autocorrelations up to 0.93 had the filter 2e-12 off and
    /// the recursions 1.3e-9; an ARMA(3, 5) with MA partial autocorrelations
    /// of 0.99999 had both off by ~2e-3, equally.
    #[test]
    fn chandrasekhar_recursions_match_the_kalman_filter() {
        let mut rng = crate::numerics::Rng::new(11);
        let x: Vec<f64> = (0..150)
            .map(|i| 3.0 + (i as f64 * 0.3).sin() + rng.gauss(0.0, 1.0))
            .collect();
        for (bound, tol) in [(0.5, 1e-10), (0.8, 1e-8)] {
            // Every order to (5, 5), and state sizes padded to 8 and 12.
            let orders = (0..=5).flat_map(|p| (0..=5).map(move |q| (p, q))).chain([
                (7, 0),
                (0, 6),
                (9, 3),
                (2, 11),
            ]);
            for (p, q) in orders {
                for _ in 0..5 {
                    let (ar, ma) = random_arma(&mut rng, p, q, bound);
                    let mu = rng.uniform(2.0, 4.0);
                    let kalman = filter(&x, &state_space(&ar, &ma, mu)).unwrap().sums;
                    let fast = super::super::likelihood::tests::fresh(&ar, &ma, &x, mu).unwrap();
                    assert_eq!(fast.n, kalman.n);
                    for (a, b) in [
                        (fast.sum_v2f, kalman.sum_v2f),
                        (fast.sum_ln_f, kalman.sum_ln_f),
                    ] {
                        assert!(
                            (a - b).abs() <= tol * (b.abs() + x.len() as f64),
                            "({p}, {q}) {ar:?} {ma:?}: {fast:?} vs {kalman:?}"
                        );
                    }
                }
            }
        }
        // Past the compiled sizes there is no fast path.
        assert!(ArmaLikelihood::new(13, 0).is_none());
        assert!(ArmaLikelihood::new(12, 0).is_some());
        assert!(ArmaLikelihood::new(0, 12).is_none());
    }

    #[test]
    fn ar1_stationary_variance() {
        let ss = state_space(&[0.5], &[], 2.0);
        let (m, p) = ss.stationary().unwrap();
        assert!((m[0] - 2.0).abs() < 1e-12);
        assert!((p[0] - 1.0 / 0.75).abs() < 1e-12);
    }
}
