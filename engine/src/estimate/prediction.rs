//! What an estimator predicts: per [`Phase`], by a [`Method`], a
//! [`Prediction`] with its interval. The bottom of `estimate`, with
//! [`super::error`].

use serde::{Deserialize, Serialize};
use std::fmt;

/// A phase of a MapReduce job. `Reduce` is the shuffle and reduce phases
/// together, as in the paper's Table 2 ("we combined the estimate for the
/// Shuffle and Reduce phase into a single estimate").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The map phase.
    Map,
    /// Shuffle and reduce.
    Reduce,
}

impl Phase {
    /// Both phases, in job order.
    pub const ALL: [Phase; 2] = [Phase::Map, Phase::Reduce];

    /// Whether a job has this phase: every job maps; a job without reduce
    /// tasks (map-only, three quarters of SWIM's Facebook jobs) has no
    /// reduce phase. Such jobs neither train the reduce models — their
    /// exact zeros would pass for a noiseless cluster and collapse the
    /// GP's noise estimate — nor need an estimate: theirs is 0.
    pub fn applies(self, features: &crate::model::JobFeatures) -> bool {
        match self {
            Phase::Map => true,
            Phase::Reduce => features.reduce_tasks != Some(0),
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Map => "map",
            Phase::Reduce => "reduce",
        })
    }
}

/// An estimation method (the rows of the paper's Tables 2 and 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Gaussian-process regression.
    Gp,
    /// Ordinary least squares.
    Ols,
    /// Mean and variance of the same job's past runs ("Bin").
    SameJob,
}

impl Method {
    /// Every method, in the order reports list them.
    pub const ALL: [Method; 3] = [Method::Gp, Method::Ols, Method::SameJob];
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Gp => "GP",
            Method::Ols => "OLS",
            Method::SameJob => "same-job",
        })
    }
}

/// A point estimate with its spread and prediction interval, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// Predicted duration.
    pub mean: f64,
    /// Standard deviation of a new observation around `mean` (for OLS and
    /// same-job, the standard error of prediction, scaled so that
    /// `mean ± t·std_dev` is the PI).
    pub std_dev: f64,
    /// Lower end of the PI (may be below zero: the interval is the model's,
    /// not clipped to possible durations).
    pub lower: f64,
    /// Upper end of the PI: what MRM plans a deadline with.
    pub upper: f64,
}

impl Prediction {
    /// `mean ± half_width` with `half_width = factor · std_dev`.
    pub(crate) fn symmetric(mean: f64, std_dev: f64, factor: f64) -> Self {
        Prediction {
            mean,
            std_dev,
            lower: mean - factor * std_dev,
            upper: mean + factor * std_dev,
        }
    }

    /// Width of the PI.
    pub fn length(&self) -> f64 {
        self.upper - self.lower
    }

    /// Whether `actual` falls inside the PI (ends included).
    pub fn covers(&self, actual: f64) -> bool {
        self.lower <= actual && actual <= self.upper
    }
}
