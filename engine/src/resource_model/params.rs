//! The resource model's settings and errors: which variant and solver, their
//! published defaults, and why a fit fails. Below the model's solvers and
//! history builder (which read them) and [`fit`](super::fit) (which calls
//! those), so no file here imports the module that calls it.

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
