//! The job resource model of Morpheus §5: a tight reservation skyline `R*`
//! fitted by LP to a recurring job's history runs, and the quality figures of
//! any proposed skyline.
//!
//! Two variants share one LP family ([`lp::SkylineLp`]):
//!
//! - [`Variant::Paper`]: α-weighted average over-allocation vs. average final
//!   debt, solved once without regularization to get `V`, then again with
//!   `β·ε` added and `β = 0.1·V` (§5, "Avoiding lazy solutions").
//! - [`Variant::Hadoop`]: Apache Hadoop's `hadoop-resourceestimator`
//!   behaviour — α = 0.1, fixed β = 0.1, 5 s intervals, each interval's usage
//!   the largest count in it, reservation truncated to whole containers.
//!
//! Two solvers: [`SolverKind::Flow`] (default; the LP's dual as a min-cost
//! flow, exact, fast enough for a month of one-minute steps in the browser)
//! and [`SolverKind::Simplex`] (the LP written out for minilp, the reference
//! for small histories).

pub mod flow;
pub mod history;
pub mod lp;
pub mod quality;

pub use history::History;
pub use lp::{Objective, SkylineLp};
pub use quality::{flat_percentile, peak_reservation, quality, Quality};

use crate::model::{JobRun, Skyline};
use serde::{Deserialize, Serialize};

/// Which formulation of §5 to fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// The paper's two-pass scheme with `β = 0.1·V`.
    Paper,
    /// Hadoop ResourceEstimator's fixed-β variant.
    Hadoop,
}

/// Which solver to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    /// Network simplex on the dual min-cost flow (default).
    Flow,
    /// minilp's simplex on the LP as written.
    Simplex,
}

/// Settings of the resource model. [`ModelParams::paper`] (the default) and
/// [`ModelParams::hadoop`] give each variant's published defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelParams {
    /// Formulation.
    pub variant: Variant,
    /// α ∈ [0, 1]: weight of over-allocation against final under-allocation.
    /// Paper: 0.01, the best balance of Fig. 9c; Hadoop: 0.1.
    pub alpha: f64,
    /// Quantization step, seconds. Paper: 60 ("typically one minute");
    /// Hadoop: 5.
    pub step_secs: u32,
    /// Paper variant: β as a fraction of the first pass's optimum `V` (0.1).
    pub beta_fraction: f64,
    /// Hadoop variant: the fixed β (0.1).
    pub hadoop_beta: f64,
    /// Smallest reservation at any step while the job runs, in containers
    /// (§5 "Estimating parallelism": one container by default; Hadoop: 0).
    pub min_parallelism: f64,
    /// Largest reservation at any step (e.g. a queue's limit), if any.
    pub max_parallelism: Option<f64>,
    /// Solver.
    pub solver: SolverKind,
}

impl Default for ModelParams {
    fn default() -> Self {
        ModelParams::paper()
    }
}

impl ModelParams {
    /// The paper's defaults.
    pub fn paper() -> Self {
        ModelParams {
            variant: Variant::Paper,
            alpha: 0.01,
            step_secs: 60,
            beta_fraction: 0.1,
            hadoop_beta: 0.1,
            min_parallelism: 1.0,
            max_parallelism: None,
            solver: SolverKind::Flow,
        }
    }

    /// Hadoop ResourceEstimator's defaults.
    pub fn hadoop() -> Self {
        ModelParams {
            variant: Variant::Hadoop,
            alpha: 0.1,
            step_secs: 5,
            min_parallelism: 0.0,
            ..ModelParams::paper()
        }
    }

    /// Checks the settings at the engine's edge.
    pub fn validate(&self) -> Result<(), ModelError> {
        let bad = |name: &'static str, why: &'static str| Err(ModelError::Param { name, why });
        if !(self.alpha.is_finite() && (0.0..=1.0).contains(&self.alpha)) {
            return bad("alpha", "must be in [0, 1]");
        }
        if self.step_secs == 0 {
            return bad("step_secs", "must be at least 1 second");
        }
        if !(self.beta_fraction.is_finite() && self.beta_fraction >= 0.0) {
            return bad("beta_fraction", "must be a finite number ≥ 0");
        }
        if !(self.hadoop_beta.is_finite() && self.hadoop_beta >= 0.0) {
            return bad("hadoop_beta", "must be a finite number ≥ 0");
        }
        if !(self.min_parallelism.is_finite() && self.min_parallelism >= 0.0) {
            return bad("min_parallelism", "must be a finite number ≥ 0");
        }
        if let Some(m) = self.max_parallelism {
            if m.is_nan() || m < self.min_parallelism {
                return bad("max_parallelism", "must be ≥ min_parallelism");
            }
        }
        Ok(())
    }
}

/// Why a resource model could not be fitted.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum ModelError {
    /// A setting is out of range.
    #[error("resource-model parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: &'static str,
        /// What is wrong.
        why: &'static str,
    },
    /// No runs were given.
    #[error("the job has no history runs")]
    EmptyHistory,
    /// Every run's skyline is all zeros.
    #[error("every history run has an all-zero skyline: there is no usage to model")]
    AllZero,
    /// A run's skyline is unusable.
    #[error("run `{instance}`: {why}")]
    BadRun {
        /// The run.
        instance: String,
        /// What is wrong.
        why: String,
    },
    /// The LP would be too large for this machine.
    #[error("history too large: {runs} runs × {steps} steps (use a coarser step)")]
    TooLarge {
        /// Runs.
        runs: usize,
        /// Steps.
        steps: usize,
    },
    /// The solver failed.
    #[error("solver failed: {0}")]
    Solver(String),
}

/// A fitted reservation skyline `R*` and how it was obtained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResourceModel {
    /// The reservation, containers per step from the job's start (Hadoop:
    /// truncated to whole containers, as Hadoop does).
    pub skyline: Skyline,
    /// The LP's solution before any truncation.
    pub lp_solution: Vec<f64>,
    /// Objective terms at `lp_solution` for the final pass.
    pub objective: Objective,
    /// Paper variant: the first pass's objective (its `total` is `V`).
    pub first_pass: Option<Objective>,
    /// The β used in the final pass.
    pub beta: f64,
    /// Flow solver: the dual bound; `objective.total − lower_bound` is the
    /// optimality gap (≈ 0).
    pub lower_bound: Option<f64>,
    /// Runs used.
    pub runs: usize,
    /// Steps `K`.
    pub steps: usize,
    /// Runs left out for having an all-zero skyline.
    pub dropped_runs: Vec<String>,
    /// The settings used.
    pub params: ModelParams,
}

fn solve_lp(lp: &SkylineLp, solver: SolverKind) -> Result<(Vec<f64>, Option<f64>), ModelError> {
    match solver {
        SolverKind::Flow => {
            let r = flow::solve(lp)?;
            Ok((r.skyline, Some(r.lower_bound)))
        }
        SolverKind::Simplex => Ok((lp.solve_simplex()?, None)),
    }
}

/// Fits `R*` to the history `runs` of one job.
pub fn fit(runs: &[&JobRun], params: &ModelParams) -> Result<ResourceModel, ModelError> {
    params.validate()?;
    let h = history::build(runs, params.step_secs, params.variant)?;
    let hi = params.max_parallelism.unwrap_or(f64::INFINITY);
    let mut lp = SkylineLp {
        rows: h.rows,
        alpha: params.alpha,
        beta: 0.0,
        lo: params.min_parallelism,
        hi,
    };
    let (first_pass, beta) = match params.variant {
        Variant::Paper => {
            let (s, _) = solve_lp(&lp, params.solver)?;
            let v = lp.evaluate(&s);
            (Some(v), params.beta_fraction * v.total)
        }
        Variant::Hadoop => (None, params.hadoop_beta),
    };
    lp.beta = beta;
    let (s, lower_bound) = solve_lp(&lp, params.solver)?;
    let objective = lp.evaluate(&s);
    let containers = match params.variant {
        Variant::Paper => s.clone(),
        // Hadoop casts the LP value to int: truncation (a hair of slack
        // guards against 2.9999999 from floating point).
        Variant::Hadoop => s.iter().map(|&x| (x + 1e-7).floor().max(0.0)).collect(),
    };
    Ok(ResourceModel {
        skyline: Skyline::new(params.step_secs, containers),
        lp_solution: s,
        objective,
        first_pass,
        beta,
        lower_bound,
        runs: lp.n(),
        steps: lp.k(),
        dropped_runs: h.dropped,
        params: params.clone(),
    })
}

#[cfg(test)]
mod tests;
