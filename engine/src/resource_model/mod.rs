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
mod params;
pub mod quality;

pub use history::History;
pub use lp::{Objective, SkylineLp};
pub use params::{ModelError, ModelParams, SolverKind, Variant};
pub use quality::{flat_percentile, peak_reservation, quality, Quality};

use crate::model::{JobRun, Skyline};
use serde::{Deserialize, Serialize};

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
