//! Gaussian-process regression (Rasmussen & Williams, ch. 2 and 5), the
//! estimator MRM chose (§3.2): no parametric form is assumed for how
//! durations depend on the features, and the predictive variance is the
//! principled error bar MRM's deadlines need.
//!
//! Model, on standardized features `x` and centred, scaled targets `y`:
//! `y = f(x) + ε`, `f ~ GP(0, k)`, `ε ~ N(0, σn²)` with the
//! squared-exponential ARD kernel
//! `k(x, x') = σf² · exp(−½ Σ_k (x_k − x'_k)² / ℓ_k²)` — one length scale
//! per feature, so irrelevant features get long scales. This is
//! scikit-learn's `ConstantKernel(σf²) * RBF(ℓ) + WhiteKernel(σn²)` with
//! `normalize_y=True`, against which it is tested.
//!
//! Hyperparameters `θ = (ln ℓ, ln σf², ln σn²)` maximize the log marginal
//! likelihood `−½ yᵀK⁻¹y − ½ ln|K| − n/2 ln 2π` (analytic gradient
//! `½ tr((ααᵀ − K⁻¹) ∂K/∂θ)`, `α = K⁻¹y`) by a box-constrained L-BFGS from
//! several seeded starting points. Each evaluation is a Cholesky
//! factorization and an inverse of the kernel matrix, O(m³), so above
//! [`GpParams::hyper_subset`] jobs the starting points are optimized on a
//! seeded random subset, the best one's signal and noise variances are
//! refined on a larger one ([`GpParams::polish_subset`]), and the final
//! model is solved once on every job: the hyperparameters of a smooth
//! kernel are well determined by a few hundred jobs, while the posterior
//! mean and variance use them all. (This is what brings 1,000 jobs under a
//! second in the browser; BENCHMARKS.md has the measurements.)
//!
//! Linear algebra is nalgebra's `Cholesky` through the numerics floor
//! ([`crate::numerics::linalg`]). A kernel matrix that is not
//! numerically positive definite (duplicate jobs with no noise) gets jitter
//! on its diagonal, `1e-10` times its mean diagonal growing ×10 up to
//! [`GpParams::max_jitter`], and the fit reports it as a warning.

use super::features::{check_matrix, check_row, Standardizer};
use super::optimize::{self, Options};
use super::{check_level, EstimateError, Prediction};
use crate::numerics::linalg::{factor, forward_block, lower_inverse, INVERSE_BLOCK};
use crate::numerics::quantile::two_sided_z;
use crate::numerics::Rng;
use nalgebra::{Cholesky, DMatrix, DVector, Dyn};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;
use std::fmt;

/// Kernel hyperparameters, in the model's standardized units (features
/// divided by their spread, targets by theirs when the params say so).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hyperparameters {
    /// One length scale `ℓ_k > 0` per feature.
    pub length_scales: Vec<f64>,
    /// Signal variance `σf² > 0`.
    pub signal_variance: f64,
    /// Noise variance `σn² ≥ 0`.
    pub noise_variance: f64,
}

impl Hyperparameters {
    /// The default first starting point: unit length scales (one standard
    /// deviation of each feature), unit signal variance (the targets'
    /// variance), noise a tenth of it.
    pub fn initial(d: usize) -> Self {
        Hyperparameters {
            length_scales: vec![1.0; d],
            signal_variance: 1.0,
            noise_variance: 0.1,
        }
    }

    /// Checks them against a feature count.
    pub fn validate(&self, d: usize) -> Result<(), EstimateError> {
        if self.length_scales.len() != d {
            return Err(EstimateError::param(
                "length_scales",
                format!("has {} values for {d} features", self.length_scales.len()),
            ));
        }
        if self
            .length_scales
            .iter()
            .any(|l| !(l.is_finite() && *l > 0.0))
        {
            return Err(EstimateError::param(
                "length_scales",
                "must all be finite and > 0",
            ));
        }
        if !(self.signal_variance.is_finite() && self.signal_variance > 0.0) {
            return Err(EstimateError::param(
                "signal_variance",
                "must be finite and > 0",
            ));
        }
        if !(self.noise_variance.is_finite() && self.noise_variance >= 0.0) {
            return Err(EstimateError::param(
                "noise_variance",
                "must be finite and ≥ 0",
            ));
        }
        Ok(())
    }

    /// `θ = (ln ℓ_1 … ln ℓ_d, ln σf², ln σn²)`.
    pub fn to_log(&self) -> Vec<f64> {
        let mut t: Vec<f64> = self.length_scales.iter().map(|l| l.ln()).collect();
        t.push(self.signal_variance.ln());
        t.push(self.noise_variance.ln());
        t
    }

    /// The inverse of [`Hyperparameters::to_log`].
    pub fn from_log(theta: &[f64]) -> Self {
        let d = theta.len() - 2;
        Hyperparameters {
            length_scales: theta[..d].iter().map(|t| t.exp()).collect(),
            signal_variance: theta[d].exp(),
            noise_variance: theta[d + 1].exp(),
        }
    }
}

/// Settings of the GP. The paper gives none beyond "GP regression"
/// ([8, 25]: Rasmussen & Williams); the defaults are scikit-learn's where it
/// has one and chosen for speed in the browser otherwise (see
/// BENCHMARKS.md, "Processing-time estimation").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GpParams {
    /// Standardize each feature to zero mean, unit variance (default true),
    /// so length scales are in feature standard deviations.
    pub standardize_features: bool,
    /// Centre and scale the targets (scikit-learn's `normalize_y`; default
    /// true), so signal and noise variances are fractions of the targets'.
    pub normalize_targets: bool,
    /// Fit hyperparameters by maximum marginal likelihood (default true);
    /// `false` uses [`GpParams::initial`] as given.
    pub optimize: bool,
    /// Starting points besides the first (default 2): random, seeded. More
    /// guard better against local optima; each costs a full optimization.
    pub restarts: usize,
    /// Seed of the restarts' starting points and of the subset.
    pub seed: u64,
    /// Iterations per start (default 100).
    pub max_iterations: usize,
    /// Largest number of jobs the starting points are optimized on
    /// (default 128; 0 = all): above it, a seeded random subset.
    pub hyper_subset: usize,
    /// Largest number of jobs the signal and noise variances of the best
    /// start are then refined on, length scales held (default 256; 0 = no
    /// refinement). The subsets are nested (one seeded permutation). A
    /// small subset mostly misjudges the noise, which narrows the PIs;
    /// refining the two variances on more jobs restores the coverage in
    /// ~10 evaluations, where refining all parameters takes ~50
    /// (BENCHMARKS.md, "Processing-time estimation").
    pub polish_subset: usize,
    /// Box for every length scale (default `[1e-2, 1e3]` standard
    /// deviations).
    pub length_scale_bounds: [f64; 2],
    /// Box for the signal variance (default `[1e-3, 1e3]`).
    pub signal_variance_bounds: [f64; 2],
    /// Box for the noise variance (default `[1e-6, 10]`): the lower bound
    /// keeps the kernel matrix well conditioned.
    pub noise_variance_bounds: [f64; 2],
    /// The first starting point (or, without `optimize`, the
    /// hyperparameters); `None`: [`Hyperparameters::initial`].
    pub initial: Option<Hyperparameters>,
    /// Largest jitter, relative to the kernel's mean diagonal (default
    /// 1e-4). Jitter starts at 1e-10 and grows ×10.
    pub max_jitter: f64,
}

impl Default for GpParams {
    fn default() -> Self {
        GpParams {
            standardize_features: true,
            normalize_targets: true,
            optimize: true,
            restarts: 2,
            seed: 0x4D52_4D32,
            max_iterations: 100,
            hyper_subset: 128,
            polish_subset: 256,
            length_scale_bounds: [1e-2, 1e3],
            signal_variance_bounds: [1e-3, 1e3],
            noise_variance_bounds: [1e-6, 10.0],
            initial: None,
            max_jitter: 1e-4,
        }
    }
}

impl GpParams {
    /// Checks the settings at the engine's edge.
    pub fn validate(&self) -> Result<(), EstimateError> {
        let bounds = |name: &str, b: [f64; 2]| {
            if b[0].is_finite() && b[1].is_finite() && b[0] > 0.0 && b[0] <= b[1] {
                Ok(())
            } else {
                Err(EstimateError::param(
                    name,
                    format!("must be finite with 0 < low ≤ high, got {b:?}"),
                ))
            }
        };
        bounds("length_scale_bounds", self.length_scale_bounds)?;
        bounds("signal_variance_bounds", self.signal_variance_bounds)?;
        bounds("noise_variance_bounds", self.noise_variance_bounds)?;
        if self.optimize && self.max_iterations == 0 {
            return Err(EstimateError::param("max_iterations", "must be at least 1"));
        }
        if self.hyper_subset == 1 {
            return Err(EstimateError::param(
                "hyper_subset",
                "must be 0 (all jobs) or at least 2",
            ));
        }
        if self.polish_subset == 1 {
            return Err(EstimateError::param(
                "polish_subset",
                "must be 0 (no refinement) or at least 2",
            ));
        }
        if !(self.max_jitter.is_finite() && self.max_jitter >= 1e-10) {
            return Err(EstimateError::param(
                "max_jitter",
                "must be finite and ≥ 1e-10 (the first jitter tried)",
            ));
        }
        Ok(())
    }
}

/// Something the fit wants the caller to know.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum GpWarning {
    /// The kernel matrix was not numerically positive definite (e.g.
    /// duplicate feature rows with little noise); `added` was put on its
    /// diagonal, in standardized target units.
    Jitter {
        /// The jitter.
        added: f64,
    },
    /// A starting point could not be evaluated even with the largest jitter.
    StartFailed {
        /// Which start (0 = the initial point).
        start: usize,
    },
    /// Refining the best start's variances on more jobs failed (kernel
    /// matrix singular there); the unrefined hyperparameters are used.
    PolishFailed,
    /// The best start stopped at the iteration limit.
    NotConverged {
        /// Which start.
        start: usize,
        /// Iterations done.
        iterations: usize,
    },
    /// A fitted hyperparameter sits on its bound: the data push it further
    /// (a length scale at the lower bound: the data vary faster than the
    /// jobs are spaced; noise at the lower bound: nearly noiseless data).
    /// Length scales at the upper bound (irrelevant features) are normal
    /// and not reported.
    AtBound {
        /// `length_scale[k]`, `signal_variance` or `noise_variance`.
        parameter: String,
        /// Its value.
        value: f64,
    },
}

impl fmt::Display for GpWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpWarning::Jitter { added } => write!(
                f,
                "kernel matrix not positive definite: jitter {added:.1e} added to its diagonal"
            ),
            GpWarning::StartFailed { start } => write!(
                f,
                "starting point {start} could not be evaluated (kernel matrix singular)"
            ),
            GpWarning::PolishFailed => write!(
                f,
                "refining the hyperparameters on more jobs failed; the subset's are used"
            ),
            GpWarning::NotConverged { start, iterations } => write!(
                f,
                "the best starting point ({start}) stopped after {iterations} iterations without converging"
            ),
            GpWarning::AtBound { parameter, value } => {
                write!(f, "{parameter} = {value:.3e} is at its bound")
            }
        }
    }
}

/// How one starting point of the hyperparameter search went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartOutcome {
    /// Log marginal likelihood reached (on the hyperparameter subset);
    /// `None` when the start could not be evaluated.
    pub log_marginal_likelihood: Option<f64>,
    /// Iterations.
    pub iterations: usize,
    /// Evaluations of the likelihood and its gradient.
    pub evaluations: usize,
    /// A stopping rule was met.
    pub converged: bool,
}

/// What a fit found, as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpFit {
    /// The hyperparameters used.
    pub hyperparameters: Hyperparameters,
    /// Log marginal likelihood of all training jobs under them
    /// (standardized targets, as scikit-learn's
    /// `log_marginal_likelihood_value_`).
    pub log_marginal_likelihood: f64,
    /// Training jobs.
    pub points: usize,
    /// Jobs the starting points were optimized on.
    pub restart_points: usize,
    /// Jobs the final hyperparameters were fitted on (after refinement).
    pub hyper_points: usize,
    /// One entry per starting point (empty without optimization).
    pub starts: Vec<StartOutcome>,
    /// The refinement of the best start's variances on `hyper_points`
    /// jobs, if done.
    pub polish: Option<StartOutcome>,
    /// Jitter on the final kernel's diagonal (0 when none was needed).
    pub jitter: f64,
    /// Warnings.
    pub warnings: Vec<GpWarning>,
}

/// A GP prediction at one point, in the targets' units.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpPrediction {
    /// Posterior mean.
    pub mean: f64,
    /// Variance of a new observation: latent variance plus noise
    /// (scikit-learn's `predict(return_std=True)` squared, with a
    /// `WhiteKernel`).
    pub variance: f64,
    /// Variance of the latent function `f` alone.
    pub latent_variance: f64,
}

impl GpPrediction {
    /// `mean ± z·σ` with `z` the normal quantile of `(1 + level) / 2`.
    pub fn interval(&self, level: f64) -> Result<Prediction, EstimateError> {
        check_level(level)?;
        let z = two_sided_z(level);
        Ok(Prediction::symmetric(self.mean, self.variance.sqrt(), z))
    }
}

/// A fitted Gaussian process.
#[derive(Clone, Debug)]
pub struct GaussianProcess {
    /// Standardized training features, row-major `n × d`.
    x: Vec<f64>,
    d: usize,
    /// Standardized targets.
    y: DVector<f64>,
    features: Standardizer,
    y_mean: f64,
    y_scale: f64,
    hyper: Hyperparameters,
    chol: Cholesky<f64, Dyn>,
    alpha: DVector<f64>,
    max_jitter: f64,
    fit: GpFit,
}

/// A fitted GP taken apart ([`GaussianProcess::into_parts`]).
pub(crate) struct GpParts {
    /// Standardized training features, row-major `n × d`.
    pub x: Vec<f64>,
    /// Features per row.
    pub d: usize,
    /// Standardized targets.
    pub y: DVector<f64>,
    /// The feature standardization.
    pub features: Standardizer,
    /// Target centre.
    pub y_mean: f64,
    /// Target scale.
    pub y_scale: f64,
    /// Hyperparameters (standardized units).
    pub hyper: Hyperparameters,
    /// Factor of `K + (σn² + jitter) I`.
    pub chol: Cholesky<f64, Dyn>,
    /// Jitter on the diagonal.
    pub jitter: f64,
    /// The fit's summary.
    pub fit: GpFit,
}

/// The log marginal likelihood, its gradient in `θ` and the jitter used.
struct Evaluation {
    lml: f64,
    grad: Vec<f64>,
}

/// Squared-exponential part of the kernel between the rows of `x` (row-major,
/// `n × d`), i.e. without noise.
pub(crate) fn se_kernel(x: &[f64], d: usize, h: &Hyperparameters) -> DMatrix<f64> {
    let n = x.len() / d;
    let inv: Vec<f64> = h.length_scales.iter().map(|l| 1.0 / l).collect();
    let u: Vec<f64> = x
        .chunks_exact(d)
        .flat_map(|r| r.iter().zip(&inv).map(|(v, s)| v * s))
        .collect();
    let mut k = DMatrix::<f64>::zeros(n, n);
    let sf2 = h.signal_variance;
    let data = k.as_mut_slice();
    for j in 0..n {
        let uj = &u[j * d..(j + 1) * d];
        data[j * n + j] = sf2;
        for i in j + 1..n {
            let ui = &u[i * d..(i + 1) * d];
            let r2: f64 = ui.iter().zip(uj).map(|(a, b)| (a - b) * (a - b)).sum();
            let v = sf2 * (-0.5 * r2).exp();
            data[j * n + i] = v;
            data[i * n + j] = v;
        }
    }
    k
}

/// Log marginal likelihood of standardized data at `h`, with its gradient
/// in `θ = (ln ℓ, ln σf², ln σn²)` when `grad` is set.
fn log_marginal(
    x: &[f64],
    d: usize,
    y: &DVector<f64>,
    h: &Hyperparameters,
    max_jitter: f64,
    grad: bool,
) -> Result<Evaluation, f64> {
    let n = y.len();
    let kse = se_kernel(x, d, h);
    let (chol, _) = factor(&kse, h.noise_variance, max_jitter)?;
    let alpha = chol.solve(y);
    let l = chol.l_dirty();
    let log_det_half: f64 = (0..n).map(|i| l[(i, i)].ln()).sum();
    let lml = -0.5 * y.dot(&alpha) - log_det_half - 0.5 * n as f64 * (2.0 * PI).ln();
    if !grad {
        return Ok(Evaluation {
            lml,
            grad: Vec::new(),
        });
    }
    // A = ααᵀ − K⁻¹; dL/dθ = ½ Σ_ij A_ij ∂K_ij/∂θ, over the lower triangle
    // (off-diagonal terms twice).
    let kinv = lower_inverse(&chol);
    let inv_l2: Vec<f64> = h.length_scales.iter().map(|l| 1.0 / (l * l)).collect();
    let mut g = vec![0.0; d + 2];
    let kse = kse.as_slice();
    let mut trace_a = 0.0;
    for j in 0..n {
        let xj = &x[j * d..(j + 1) * d];
        let a_jj = alpha[j] * alpha[j] - kinv[j * n + j];
        trace_a += a_jj;
        g[d] += a_jj * kse[j * n + j];
        for i in j + 1..n {
            let w = 2.0 * (alpha[i] * alpha[j] - kinv[j * n + i]) * kse[j * n + i];
            g[d] += w;
            let xi = &x[i * d..(i + 1) * d];
            for k in 0..d {
                let dx = xi[k] - xj[k];
                g[k] += w * dx * dx * inv_l2[k];
            }
        }
    }
    for v in g.iter_mut() {
        *v *= 0.5;
    }
    g[d + 1] = 0.5 * h.noise_variance * trace_a;
    Ok(Evaluation { lml, grad: g })
}

/// A seeded random permutation of `0..n` (Fisher–Yates): its prefixes are
/// nested random subsets.
fn permutation(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    for i in 0..n {
        let j = i + (rng.next_u64() % (n - i) as u64) as usize;
        idx.swap(i, j);
    }
    idx
}

impl GaussianProcess {
    /// Fits a GP to feature rows `x` (all of one length `d`) and targets `y`.
    pub fn fit(x: &[Vec<f64>], y: &[f64], params: &GpParams) -> Result<Self, EstimateError> {
        params.validate()?;
        let d = check_matrix(x, y)?;
        let n = x.len();
        let features = if params.standardize_features {
            Standardizer::fit(x, d)
        } else {
            Standardizer::identity(d)
        };
        let mut xs = Vec::with_capacity(n * d);
        for r in x {
            features.apply_into(r, &mut xs);
        }
        let (y_mean, y_scale) = if params.normalize_targets {
            let m = y.iter().sum::<f64>() / n as f64;
            let v = y.iter().map(|t| (t - m) * (t - m)).sum::<f64>() / n as f64;
            (m, if v > 0.0 { v.sqrt() } else { 1.0 })
        } else {
            (0.0, 1.0)
        };
        let ys = DVector::from_iterator(n, y.iter().map(|t| (t - y_mean) / y_scale));
        let initial = params
            .initial
            .clone()
            .unwrap_or_else(|| Hyperparameters::initial(d));
        initial.validate(d)?;

        let mut warnings = Vec::new();
        let search = if params.optimize {
            optimize_hyper(&xs, d, &ys, &initial, params, &mut warnings)?
        } else {
            Search {
                best: initial,
                starts: Vec::new(),
                polish: None,
                restart_points: 0,
                hyper_points: 0,
            }
        };
        let hyper = search.best;
        let kse = se_kernel(&xs, d, &hyper);
        let (chol, jitter) = factor(&kse, hyper.noise_variance, params.max_jitter)
            .map_err(|jitter| EstimateError::NotPositiveDefinite { jitter })?;
        drop(kse);
        if jitter > 0.0 {
            warnings.push(GpWarning::Jitter { added: jitter });
        }
        let alpha = chol.solve(&ys);
        let l = chol.l_dirty();
        let lml = -0.5 * ys.dot(&alpha)
            - (0..n).map(|i| l[(i, i)].ln()).sum::<f64>()
            - 0.5 * n as f64 * (2.0 * PI).ln();
        let fit = GpFit {
            hyperparameters: hyper.clone(),
            log_marginal_likelihood: lml,
            points: n,
            restart_points: search.restart_points,
            hyper_points: search.hyper_points,
            starts: search.starts,
            polish: search.polish,
            jitter,
            warnings,
        };
        Ok(GaussianProcess {
            x: xs,
            d,
            y: ys,
            features,
            y_mean,
            y_scale,
            hyper,
            chol,
            alpha,
            max_jitter: params.max_jitter,
            fit,
        })
    }

    /// The model's pieces, for the history-kernel forecaster
    /// (`crate::forecast::gp`), which slides its training window by editing
    /// the Cholesky factor instead of refitting.
    pub(crate) fn into_parts(self) -> GpParts {
        GpParts {
            x: self.x,
            d: self.d,
            y: self.y,
            features: self.features,
            y_mean: self.y_mean,
            y_scale: self.y_scale,
            hyper: self.hyper,
            chol: self.chol,
            jitter: self.fit.jitter,
            fit: self.fit,
        }
    }

    /// What the fit found.
    pub fn fit_summary(&self) -> &GpFit {
        &self.fit
    }

    /// The hyperparameters in use.
    pub fn hyperparameters(&self) -> &Hyperparameters {
        &self.hyper
    }

    /// Number of features.
    pub fn dimension(&self) -> usize {
        self.d
    }

    /// Log marginal likelihood of the training data at `h` and its gradient
    /// in `(ln ℓ_1 … ln ℓ_d, ln σf², ln σn²)` — what the optimizer climbs,
    /// exposed for checks (finite differences, scikit-learn).
    pub fn log_marginal_likelihood_at(
        &self,
        h: &Hyperparameters,
    ) -> Result<(f64, Vec<f64>), EstimateError> {
        h.validate(self.d)?;
        log_marginal(&self.x, self.d, &self.y, h, self.max_jitter, true)
            .map(|e| (e.lml, e.grad))
            .map_err(|jitter| EstimateError::NotPositiveDefinite { jitter })
    }

    /// Predicts at one feature row (raw, as given to [`GaussianProcess::fit`]).
    pub fn predict(&self, row: &[f64]) -> Result<GpPrediction, EstimateError> {
        Ok(self.predict_many(std::slice::from_ref(&row.to_vec()))?[0])
    }

    /// Predicts at many rows at once (one triangular solve with all of them
    /// as right-hand sides).
    pub fn predict_many(&self, rows: &[Vec<f64>]) -> Result<Vec<GpPrediction>, EstimateError> {
        let n = self.y.len();
        let d = self.d;
        let m = rows.len();
        let inv: Vec<f64> = self.hyper.length_scales.iter().map(|l| 1.0 / l).collect();
        let mut u = Vec::with_capacity(d);
        let mut kstar = DMatrix::<f64>::zeros(n, m);
        let sf2 = self.hyper.signal_variance;
        for (c, row) in rows.iter().enumerate() {
            check_row(row, d)?;
            u.clear();
            self.features.apply_into(row, &mut u);
            let col = &mut kstar.as_mut_slice()[c * n..(c + 1) * n];
            for (i, k) in col.iter_mut().enumerate() {
                let xi = &self.x[i * d..(i + 1) * d];
                let r2: f64 = xi
                    .iter()
                    .zip(&u)
                    .zip(&inv)
                    .map(|((a, b), s)| ((a - b) * s).powi(2))
                    .sum();
                *k = sf2 * (-0.5 * r2).exp();
            }
        }
        let means = kstar.tr_mul(&self.alpha);
        let l = self.chol.l_dirty().as_slice();
        for block in kstar.as_mut_slice().chunks_mut(INVERSE_BLOCK * n) {
            forward_block(l, n, block, 0);
        }
        let s2 = self.y_scale * self.y_scale;
        Ok((0..m)
            .map(|c| {
                let v = kstar.column(c);
                let latent = (sf2 - v.dot(&v)).max(0.0);
                GpPrediction {
                    mean: self.y_mean + self.y_scale * means[c],
                    variance: (latent + self.hyper.noise_variance) * s2,
                    latent_variance: latent * s2,
                }
            })
            .collect())
    }
}

/// What the hyperparameter search found.
struct Search {
    best: Hyperparameters,
    starts: Vec<StartOutcome>,
    polish: Option<StartOutcome>,
    restart_points: usize,
    hyper_points: usize,
}

/// The rows `idx` (sorted) of the standardized data.
fn rows(xs: &[f64], d: usize, ys: &DVector<f64>, idx: &[usize]) -> (Vec<f64>, DVector<f64>) {
    let mut idx = idx.to_vec();
    idx.sort_unstable();
    let x = idx
        .iter()
        .flat_map(|&i| xs[i * d..(i + 1) * d].iter().copied())
        .collect();
    let y = DVector::from_iterator(idx.len(), idx.iter().map(|&i| ys[i]));
    (x, y)
}

fn outcome(o: &Option<optimize::Outcome>) -> StartOutcome {
    match o {
        None => StartOutcome {
            log_marginal_likelihood: None,
            iterations: 0,
            evaluations: 1,
            converged: false,
        },
        Some(o) => StartOutcome {
            log_marginal_likelihood: Some(-o.f),
            iterations: o.iterations,
            evaluations: o.evaluations,
            converged: o.converged,
        },
    }
}

/// Maximizes the log marginal likelihood from the initial point and
/// `params.restarts` seeded random ones on at most `params.hyper_subset`
/// jobs, then refines the best one's variances on at most
/// `params.polish_subset` jobs (a superset of the first).
fn optimize_hyper(
    xs: &[f64],
    d: usize,
    ys: &DVector<f64>,
    initial: &Hyperparameters,
    params: &GpParams,
    warnings: &mut Vec<GpWarning>,
) -> Result<Search, EstimateError> {
    let n = ys.len();
    let mut rng = Rng::new(params.seed);
    let coarse = if params.hyper_subset == 0 {
        n
    } else {
        params.hyper_subset.min(n)
    };
    let fine = if coarse < n && params.polish_subset > coarse {
        params.polish_subset.min(n)
    } else {
        coarse
    };
    // A whole seeded permutation (so the subsets, and the random starts
    // drawn after it, do not depend on the refinement's size).
    let order = if coarse < n {
        permutation(n, &mut rng)
    } else {
        (0..n).collect()
    };
    let ln = |b: [f64; 2]| [b[0].ln(), b[1].ln()];
    let (lb, sb, nb) = (
        ln(params.length_scale_bounds),
        ln(params.signal_variance_bounds),
        ln(params.noise_variance_bounds),
    );
    let mut lo = vec![lb[0]; d];
    let mut hi = vec![lb[1]; d];
    lo.extend([sb[0], nb[0]]);
    hi.extend([sb[1], nb[1]]);
    // Random starts: length scales 0.1–10 standard deviations, signal
    // variance 0.1–10, noise 1e-3–1 of the targets' variance (log-uniform),
    // where the optimum of standardized data usually is.
    let mut points = vec![initial.to_log()];
    for _ in 0..params.restarts {
        let mut t: Vec<f64> = (0..d)
            .map(|_| rng.uniform(0.1f64.ln(), 10f64.ln()))
            .collect();
        t.push(rng.uniform(0.1f64.ln(), 10f64.ln()));
        t.push(rng.uniform(1e-3f64.ln(), 0.0));
        points.push(t);
    }
    let options = Options {
        max_iterations: params.max_iterations,
        ..Options::default()
    };
    let run = |x: &[f64], y: &DVector<f64>, start: &[f64], lo: &[f64], hi: &[f64]| {
        let mut objective = |theta: &[f64]| -> Option<(f64, Vec<f64>)> {
            let h = Hyperparameters::from_log(theta);
            let e = log_marginal(x, d, y, &h, params.max_jitter, true).ok()?;
            Some((-e.lml, e.grad.iter().map(|g| -g).collect()))
        };
        optimize::minimize(
            optimize::Objective::Joint(&mut objective),
            start,
            lo,
            hi,
            &options,
        )
    };
    let (xc, yc) = rows(xs, d, ys, &order[..coarse]);
    let mut best: Option<(usize, optimize::Outcome)> = None;
    let mut starts = Vec::new();
    for (s, p) in points.iter().enumerate() {
        let o = run(&xc, &yc, p, &lo, &hi);
        starts.push(outcome(&o));
        match o {
            None => warnings.push(GpWarning::StartFailed { start: s }),
            Some(o) => {
                if best.as_ref().is_none_or(|(_, b)| o.f < b.f) {
                    best = Some((s, o));
                }
            }
        }
    }
    let Some((s, mut o)) = best else {
        return Err(EstimateError::NotPositiveDefinite {
            jitter: params.max_jitter,
        });
    };
    let mut polish = None;
    let mut hyper_points = coarse;
    if fine > coarse {
        let (xf, yf) = rows(xs, d, ys, &order[..fine]);
        // Only the variances move: the length scales are pinned where the
        // subset put them (a box of zero width).
        let (mut plo, mut phi) = (lo.clone(), hi.clone());
        plo[..d].copy_from_slice(&o.x[..d]);
        phi[..d].copy_from_slice(&o.x[..d]);
        let p = run(&xf, &yf, &o.x, &plo, &phi);
        polish = Some(outcome(&p));
        match p {
            Some(p) => {
                o = p;
                hyper_points = fine;
            }
            None => warnings.push(GpWarning::PolishFailed),
        }
    }
    if !o.converged {
        warnings.push(GpWarning::NotConverged {
            start: s,
            iterations: o.iterations,
        });
    }
    for (k, t) in o.x.iter().enumerate() {
        // A length scale at its upper bound only says the feature does not
        // matter; anything else on a bound is worth a word.
        let at = (t - lo[k]).abs() < 1e-6 || (k >= d && (t - hi[k]).abs() < 1e-6);
        if at {
            let parameter = if k < d {
                format!("length_scale[{k}]")
            } else if k == d {
                "signal_variance".into()
            } else {
                "noise_variance".into()
            };
            warnings.push(GpWarning::AtBound {
                parameter,
                value: t.exp(),
            });
        }
    }
    Ok(Search {
        best: Hyperparameters::from_log(&o.x),
        starts,
        polish,
        restart_points: coarse,
        hyper_points,
    })
}
