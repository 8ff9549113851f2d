//! GP regression with the history-dependent kernel (§III-A, eqs. 4–8):
//! `y_t = f(y_{t−1}, …, y_{t−h}) + ε_t`, `f ~ GP(0, k_h)` on the patterns
//! `x̃_t = [t, y_{t−h}, …, y_{t−1}]` ([`super::patterns`]), Gaussian noise,
//! the training set restricted to the latest N patterns.
//!
//! The kernel and the evidence maximization are the estimation module's
//! ([`crate::estimate::gp`]): the squared-exponential kernel with one
//! length scale per input (time and each lag), on standardized inputs and
//! centred, scaled targets — a zero-mean prior on the centred series, as
//! scikit-learn's `normalize_y` — with σf², σn² and the length scales by
//! ML-II (projected L-BFGS, seeded restarts).
//!
//! **Online use.** Refitting the hyperparameters costs O(N³) per likelihood
//! evaluation, tens of them per fit. Between refits, appending a value
//! only edits the Cholesky factor of `K + σn² I`: the oldest pattern's row
//! and column are removed (a rank-one update of the remaining factor) and
//! the new pattern's appended (one triangular solve), O(N²) each, with the
//! hyperparameters and the input/target scaling frozen at the last fit.
//! Every [`HistoryGpParams::refit_every`] values the hyperparameters are
//! refitted on the current window, warm-started from the current ones
//! without random restarts (the first fit has them).
//!
//! **k steps ahead** are *iterated*: the one-step model is applied to its
//! own predicted means, and the variance is propagated to first order
//! (Girard et al. 2003's Taylor approximation): the predicted lags are
//! uncertain, so step j's variance is the GP's predictive variance at the
//! mean input plus `gᵀ Σ_z g`, `g` the gradient of the posterior mean in
//! the lags and `Σ_z` their covariance, which the same linearization keeps
//! across steps. A direct model per horizon would need k GPs.

use super::patterns::{latest_patterns, pattern_at};
use super::{check_level, check_series, ForecastError, StepForecast};
use crate::estimate::features::Standardizer;
use crate::estimate::gp::{GpParams, GpWarning, Hyperparameters};
use crate::estimate::GaussianProcess;
use crate::numerics::linalg::factor;
use nalgebra::{Cholesky, DMatrix, DVector, Dyn};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Settings of the history-kernel GP.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HistoryGpParams {
    /// The GP and its ML-II search (the estimation module's defaults: SE
    /// ARD, standardized inputs, normalized targets, 2 seeded restarts).
    pub gp: GpParams,
    /// M: values appended between hyperparameter refits (default 25; the
    /// paper retrains as data arrive and gives no interval).
    pub refit_every: usize,
    /// Keep the time t in the patterns (eq. 5; default true).
    pub include_time: bool,
}

impl Default for HistoryGpParams {
    fn default() -> Self {
        HistoryGpParams {
            gp: GpParams::default(),
            refit_every: 25,
            include_time: true,
        }
    }
}

impl HistoryGpParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), ForecastError> {
        if self.refit_every == 0 {
            return Err(ForecastError::param("refit_every", "must be at least 1"));
        }
        self.gp
            .validate()
            .map_err(|e| ForecastError::param("gp", e.to_string()))
    }
}

/// The model's state as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryGpSummary {
    /// Training patterns in the window.
    pub patterns: usize,
    /// Hyperparameters (standardized units; length scale 0 is the time's
    /// when it is kept, then one per lag, oldest first).
    pub hyperparameters: Hyperparameters,
    /// Log marginal likelihood at the last fit.
    pub log_marginal_likelihood: f64,
    /// Full fits so far (the first included).
    pub fits: usize,
    /// Patterns added by updating the factor.
    pub updates: usize,
    /// Warnings of the last fit.
    pub warnings: Vec<GpWarning>,
}

/// One prediction in standardized units, with the mean's gradient.
struct Standardized {
    mean: f64,
    /// Latent variance plus noise.
    variance: f64,
    /// ∂mean/∂u per input.
    gradient: Vec<f64>,
}

/// The history-kernel GP, updated online.
#[derive(Clone, Debug)]
pub struct HistoryGp {
    h: usize,
    latest: usize,
    params: HistoryGpParams,
    hyper: Hyperparameters,
    features: Standardizer,
    y_mean: f64,
    y_scale: f64,
    /// Standardized training inputs and targets, oldest first.
    x: VecDeque<Vec<f64>>,
    y: VecDeque<f64>,
    chol: Cholesky<f64, Dyn>,
    alpha: DVector<f64>,
    /// σn² + jitter: the factor's diagonal addition.
    diag_extra: f64,
    /// The latest `latest + h` values (NaN = missing).
    recent: VecDeque<f64>,
    /// Time of `recent[0]`.
    offset: usize,
    since_fit: usize,
    summary: HistoryGpSummary,
}

fn kernel(u: &[f64], v: &[f64], inv_l2: &[f64], sf2: f64) -> f64 {
    let r2: f64 = u
        .iter()
        .zip(v)
        .zip(inv_l2)
        .map(|((a, b), s)| (a - b) * (a - b) * s)
        .sum();
    sf2 * (-0.5 * r2).exp()
}

impl HistoryGp {
    /// Fits the GP to the latest `latest` patterns of window `h` of
    /// `values` (regular grid, NaN = missing; time 0 is `values[0]`).
    pub fn fit(
        values: &[f64],
        h: usize,
        latest: usize,
        params: &HistoryGpParams,
    ) -> Result<Self, ForecastError> {
        params.validate()?;
        check_series(values)?;
        if h == 0 || latest < 2 {
            return Err(ForecastError::param(
                "window/latest",
                "need h ≥ 1 and N ≥ 2",
            ));
        }
        let keep = latest + h;
        let start = values.len().saturating_sub(keep);
        let mut gp =
            HistoryGp {
                h,
                latest,
                params: params.clone(),
                hyper: params.gp.initial.clone().unwrap_or_else(|| {
                    Hyperparameters::initial(h + usize::from(params.include_time))
                }),
                features: Standardizer::identity(0),
                y_mean: 0.0,
                y_scale: 1.0,
                x: VecDeque::new(),
                y: VecDeque::new(),
                chol: Cholesky::new(DMatrix::identity(1, 1)).expect("1×1 identity"),
                alpha: DVector::zeros(0),
                diag_extra: 0.0,
                recent: values[start..].iter().copied().collect(),
                offset: start,
                since_fit: 0,
                summary: HistoryGpSummary {
                    patterns: 0,
                    hyperparameters: Hyperparameters::initial(0),
                    log_marginal_likelihood: f64::NAN,
                    fits: 0,
                    updates: 0,
                    warnings: Vec::new(),
                },
            };
        gp.refit(params.gp.clone())?;
        Ok(gp)
    }

    /// Refits everything (hyperparameters by ML-II unless `gp.optimize` is
    /// off, scaling, factor) on the current window.
    fn refit(&mut self, gp_params: GpParams) -> Result<(), ForecastError> {
        let values: Vec<f64> = self.recent.iter().copied().collect();
        let mut pats = latest_patterns(&values, self.h, self.latest, self.offset as f64);
        if !self.params.include_time {
            pats.rows.iter_mut().for_each(|r| {
                r.remove(0);
            });
        }
        let needed = 3;
        if pats.rows.len() < needed {
            return Err(ForecastError::TooShort {
                what: format!("the GP with window h = {}", self.h),
                needed: self.h + needed,
                got: values.iter().filter(|v| !v.is_nan()).count(),
            });
        }
        let first = pats.targets[0];
        if pats.targets.iter().all(|v| *v == first) {
            return Err(ForecastError::Constant {
                what: "the GP".into(),
                value: first,
            });
        }
        let fitted = GaussianProcess::fit(&pats.rows, &pats.targets, &gp_params)
            .map_err(|e| ForecastError::Fit(format!("the GP: {e}")))?;
        let parts = fitted.into_parts();
        let d = parts.d;
        self.x = parts.x.chunks_exact(d).map(|r| r.to_vec()).collect();
        self.y = parts.y.iter().copied().collect();
        self.features = parts.features;
        self.y_mean = parts.y_mean;
        self.y_scale = parts.y_scale;
        self.hyper = parts.hyper;
        self.diag_extra = self.hyper.noise_variance + parts.jitter;
        self.alpha = parts.chol.solve(&parts.y);
        self.chol = parts.chol;
        self.since_fit = 0;
        self.summary.patterns = self.x.len();
        self.summary.hyperparameters = self.hyper.clone();
        self.summary.log_marginal_likelihood = parts.fit.log_marginal_likelihood;
        self.summary.fits += 1;
        self.summary.warnings = parts.fit.warnings;
        Ok(())
    }

    /// Refactors `K + (σn² + jitter) I` from scratch with the current
    /// hyperparameters and scaling (the fallback when an update loses
    /// positive definiteness, and the check of the updates).
    fn refactor(&mut self) -> Result<(), ForecastError> {
        let d = self.features.mean.len();
        let flat: Vec<f64> = self.x.iter().flatten().copied().collect();
        let k = crate::estimate::gp::se_kernel(&flat, d, &self.hyper);
        let (chol, jitter) = factor(&k, self.hyper.noise_variance, self.params.gp.max_jitter)
            .map_err(|j| {
                ForecastError::Fit(format!(
                    "the GP kernel matrix is not positive definite even with jitter {j:e}"
                ))
            })?;
        self.diag_extra = self.hyper.noise_variance + jitter;
        let y = DVector::from_iterator(self.y.len(), self.y.iter().copied());
        self.alpha = chol.solve(&y);
        self.chol = chol;
        Ok(())
    }

    /// What the model is now.
    pub fn summary(&self) -> &HistoryGpSummary {
        &self.summary
    }

    /// One line: window, patterns, hyperparameters.
    pub fn describe(&self) -> String {
        let h = &self.hyper;
        let ls = h
            .length_scales
            .iter()
            .map(|l| format!("{l:.2}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "GP h={} N={} ℓ=[{ls}] σf²={:.3} σn²={:.3} (standardized) log ML={:.2}",
            self.h,
            self.x.len(),
            h.signal_variance,
            h.noise_variance,
            self.summary.log_marginal_likelihood
        )
    }

    /// Appends the next value (NaN = missing): its pattern, when complete,
    /// enters the window and the oldest leaves, by editing the factor;
    /// every `refit_every` values the hyperparameters are refitted.
    pub fn append(&mut self, value: f64) -> Result<(), ForecastError> {
        if value.is_infinite() {
            return Err(ForecastError::NotFinite {
                index: self.offset + self.recent.len(),
                value,
            });
        }
        self.recent.push_back(value);
        if self.recent.len() > self.latest + self.h {
            self.recent.pop_front();
            self.offset += 1;
        }
        self.since_fit += 1;
        if self.since_fit >= self.params.refit_every {
            let mut warm = self.params.gp.clone();
            warm.initial = Some(self.hyper.clone());
            warm.restarts = 0;
            return self.refit(warm);
        }
        if value.is_nan() {
            return Ok(());
        }
        let n = self.recent.len();
        let values: Vec<f64> = self.recent.range(n - self.h - 1..).copied().collect();
        let Some(mut row) = pattern_at(
            &values,
            self.h,
            self.h,
            (self.offset + n - 1 - self.h) as f64,
        ) else {
            return Ok(());
        };
        if !self.params.include_time {
            row.remove(0);
        }
        let mut u = Vec::with_capacity(row.len());
        self.features.apply_into(&row, &mut u);
        let target = (value - self.y_mean) / self.y_scale;
        self.add(u, target)
    }

    /// `1/ℓ²` per feature, as [`kernel`] takes the length scales.
    fn inv_l2(&self) -> Vec<f64> {
        self.hyper
            .length_scales
            .iter()
            .map(|l| 1.0 / (l * l))
            .collect()
    }

    /// Adds a standardized pattern, dropping the oldest when the window is
    /// full: O(N²).
    fn add(&mut self, u: Vec<f64>, target: f64) -> Result<(), ForecastError> {
        if self.x.len() >= self.latest {
            self.chol = self.chol.remove_column(0);
            self.x.pop_front();
            self.y.pop_front();
        }
        let inv_l2 = self.inv_l2();
        let sf2 = self.hyper.signal_variance;
        let n = self.x.len();
        let mut col = DVector::zeros(n + 1);
        for (i, xi) in self.x.iter().enumerate() {
            col[i] = kernel(xi, &u, &inv_l2, sf2);
        }
        col[n] = sf2 + self.diag_extra;
        self.x.push_back(u);
        self.y.push_back(target);
        let updated = self.chol.insert_column(n, col);
        let pivot = updated.l_dirty()[(n, n)];
        self.summary.updates += 1;
        self.summary.patterns = self.x.len();
        if pivot.is_finite() && pivot * pivot > 1e-12 * (sf2 + self.diag_extra) {
            self.chol = updated;
            let y = DVector::from_iterator(self.y.len(), self.y.iter().copied());
            self.alpha = self.chol.solve(&y);
            Ok(())
        } else {
            self.refactor()
        }
    }

    /// Mean, variance and mean gradient at a standardized input.
    fn predict_standardized(&self, u: &[f64]) -> Standardized {
        let inv_l2 = self.inv_l2();
        let sf2 = self.hyper.signal_variance;
        let n = self.x.len();
        let kvec = DVector::from_iterator(n, self.x.iter().map(|xi| kernel(xi, u, &inv_l2, sf2)));
        let mean = kvec.dot(&self.alpha);
        let v = self
            .chol
            .l_dirty()
            .solve_lower_triangular(&kvec)
            .unwrap_or_else(|| DVector::zeros(n));
        let latent = (sf2 - v.dot(&v)).max(0.0);
        let mut gradient = vec![0.0; u.len()];
        for (i, xi) in self.x.iter().enumerate() {
            let w = self.alpha[i] * kvec[i];
            for (k, g) in gradient.iter_mut().enumerate() {
                *g += w * (xi[k] - u[k]) * inv_l2[k];
            }
        }
        Standardized {
            mean,
            variance: latent + self.hyper.noise_variance,
            gradient,
        }
    }

    /// Forecasts `horizon` values past the last one appended, iterating the
    /// one-step model with first-order variance propagation, with `level`
    /// prediction intervals.
    pub fn forecast(&self, horizon: usize, level: f64) -> Result<Vec<StepForecast>, ForecastError> {
        check_level(level)?;
        if horizon == 0 {
            return Err(ForecastError::param("horizon", "must be at least 1"));
        }
        let n = self.recent.len();
        let h = self.h;
        if n < h {
            return Err(ForecastError::TooShort {
                what: format!("the GP with window h = {h}"),
                needed: h + 1,
                got: n,
            });
        }
        if let Some(i) = (n - h..n).find(|&i| self.recent[i].is_nan()) {
            return Err(ForecastError::MissingAtOrigin {
                what: "the GP".into(),
                needed: h,
                index: self.offset + i,
            });
        }
        let tcol = usize::from(self.params.include_time);
        let s2 = self.y_scale * self.y_scale;
        let mut means: Vec<f64> = Vec::with_capacity(horizon);
        // Covariance of the predicted values (raw units), row-major.
        let mut cov = vec![0.0; horizon * horizon];
        let mut out = Vec::with_capacity(horizon);
        let mut u = Vec::with_capacity(h + 1);
        for j in 0..horizon {
            // Lag l (0 = oldest) is value n + j − h + l of the extended series.
            let lag = |l: usize| -> (f64, Option<usize>) {
                let idx = n + j - h + l;
                if idx < n {
                    (self.recent[idx], None)
                } else {
                    (means[idx - n], Some(idx - n))
                }
            };
            let mut row = Vec::with_capacity(h + 1);
            if tcol == 1 {
                row.push((self.offset + n + j) as f64);
            }
            row.extend((0..h).map(|l| lag(l).0));
            u.clear();
            self.features.apply_into(&row, &mut u);
            let p = self.predict_standardized(&u);
            let g: Vec<f64> = (0..h)
                .map(|l| self.y_scale * p.gradient[tcol + l] / self.features.scale[tcol + l])
                .collect();
            let mut var = p.variance * s2;
            for (l, gl) in g.iter().enumerate() {
                let Some(a) = lag(l).1 else { continue };
                for (m, gm) in g.iter().enumerate() {
                    if let Some(b) = lag(m).1 {
                        var += gl * gm * cov[a * horizon + b];
                    }
                }
            }
            for i in 0..j {
                let c: f64 = g
                    .iter()
                    .enumerate()
                    .filter_map(|(l, gl)| lag(l).1.map(|a| gl * cov[a * horizon + i]))
                    .sum();
                cov[j * horizon + i] = c;
                cov[i * horizon + j] = c;
            }
            cov[j * horizon + j] = var;
            let mean = self.y_mean + self.y_scale * p.mean;
            means.push(mean);
            out.push(StepForecast::gaussian(j + 1, mean, var, level));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::Rng;

    fn ar1(n: usize, phi: f64, seed: u64) -> Vec<f64> {
        let mut rng = Rng::new(seed);
        let mut y = vec![50.0];
        for _ in 1..n {
            let last = *y.last().unwrap();
            y.push(50.0 + phi * (last - 50.0) + rng.gauss(0.0, 2.0));
        }
        y
    }

    #[test]
    fn incremental_updates_match_a_fresh_factorization() {
        let y = ar1(400, 0.8, 5);
        let params = HistoryGpParams {
            refit_every: 10_000,
            ..HistoryGpParams::default()
        };
        let mut gp = HistoryGp::fit(&y[..150], 10, 100, &params).unwrap();
        for &v in &y[150..300] {
            gp.append(v).unwrap();
        }
        assert_eq!(gp.summary().fits, 1);
        assert_eq!(gp.x.len(), 100);
        let mut fresh = gp.clone();
        fresh.refactor().unwrap();
        let a = gp.forecast(5, 0.95).unwrap();
        let b = fresh.forecast(5, 0.95).unwrap();
        for (p, q) in a.iter().zip(&b) {
            assert!(
                (p.mean - q.mean).abs() < 1e-9 * q.mean.abs().max(1.0),
                "{p:?} {q:?}"
            );
            assert!(
                (p.variance - q.variance).abs() < 1e-9 * q.variance,
                "{p:?} {q:?}"
            );
        }
        // Variance grows with the horizon.
        assert!(a[4].variance > a[0].variance);
    }

    #[test]
    fn refits_every_m_values_and_skips_gaps() {
        let mut y = ar1(300, 0.5, 9);
        y[200] = f64::NAN;
        let params = HistoryGpParams {
            refit_every: 30,
            ..HistoryGpParams::default()
        };
        let mut gp = HistoryGp::fit(&y[..120], 10, 100, &params).unwrap();
        for &v in &y[120..215] {
            gp.append(v).unwrap();
        }
        assert_eq!(gp.summary().fits, 1 + 95 / 30);
        // The gap blocks forecasts until h values are observed again.
        let mut g2 = gp.clone();
        assert!(g2.forecast(1, 0.95).is_ok());
        g2.append(f64::NAN).unwrap();
        assert!(matches!(
            g2.forecast(1, 0.95),
            Err(ForecastError::MissingAtOrigin { .. })
        ));
        assert!(gp.append(f64::INFINITY).is_err());
    }

    #[test]
    fn degenerate_inputs_are_refused() {
        let p = HistoryGpParams::default();
        assert!(matches!(
            HistoryGp::fit(&[5.0; 50], 10, 100, &p),
            Err(ForecastError::Constant { .. })
        ));
        assert!(matches!(
            HistoryGp::fit(&[1.0, 2.0, 3.0, 4.0, 5.0], 10, 100, &p),
            Err(ForecastError::TooShort { .. })
        ));
        assert!(matches!(
            HistoryGp::fit(&[], 10, 100, &p),
            Err(ForecastError::Empty)
        ));
    }
}
