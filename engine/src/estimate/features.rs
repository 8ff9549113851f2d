//! The feature space of MRM §3.2, how features and durations are scaled
//! for the models, and standardization.
//!
//! "The processing time of a MapReduce job depends upon three features: (1)
//! the number of Map tasks, (2) the number of Reduce tasks, (3) the size of
//! the input and output of the Map and Reduce tasks", the latter modelled by
//! the map- and reduce-reduction factors. We keep the byte sizes as well:
//! the factors are ratios, and a job's absolute volume is what its tasks
//! spend their time on.

use super::{EstimateError, Prediction};
use crate::model::JobFeatures;
use serde::{Deserialize, Serialize};

/// Names of the feature columns, in order.
pub const FEATURE_NAMES: [&str; 7] = [
    "map_tasks",
    "reduce_tasks",
    "map_reduction",
    "reduce_reduction",
    "input_bytes",
    "shuffle_bytes",
    "output_bytes",
];

/// How raw feature values enter the models.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FeatureScale {
    /// As they are.
    Linear,
    /// `ln(1 + v)` of every feature (default). Job sizes in a real trace
    /// span many orders of magnitude (SWIM's Facebook inputs go from bytes
    /// to terabytes): on a linear scale a few giant jobs set the feature
    /// spread and every other job sits at one point, which makes a
    /// stationary kernel useless for them.
    #[default]
    Log,
}

/// How durations enter GP and OLS (the same-job baseline always works on
/// seconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetScale {
    /// Seconds, as the paper fits them.
    Linear,
    /// `ln(1 + seconds)` (default). Durations spread over orders of
    /// magnitude and their noise is multiplicative (a straggler delays a
    /// long phase by more seconds than a short one): on the log scale the
    /// noise is one variance for all jobs, which both models assume, and
    /// the PI `[e^{μ−qσ} − 1, e^{μ+qσ} − 1]` widens with the job and never
    /// goes below zero. On seconds, one noise level must serve two-second
    /// and two-hour jobs: too wide for the small, too narrow for the big.
    #[default]
    Log,
}

impl TargetScale {
    /// Seconds → model scale.
    pub fn forward(self, secs: f64) -> f64 {
        match self {
            TargetScale::Linear => secs,
            TargetScale::Log => secs.ln_1p(),
        }
    }

    /// A model-scale normal `N(mean, sd²)` with PI half-width `q·sd` as a
    /// [`Prediction`] in seconds: unchanged on the linear scale; on the log
    /// scale the lognormal's mean and standard deviation (minus the 1 of
    /// `ln(1 + s)`) and the transformed PI ends, the lower one at least 0.
    pub fn back(self, mean: f64, sd: f64, q: f64) -> Prediction {
        match self {
            TargetScale::Linear => Prediction::symmetric(mean, sd, q),
            TargetScale::Log => {
                let centre = (mean + 0.5 * sd * sd).exp();
                Prediction {
                    mean: centre - 1.0,
                    std_dev: centre * (sd * sd).exp_m1().sqrt(),
                    // ln(1 + s) admits −1 < s < 0; no duration does.
                    lower: (mean - q * sd).exp_m1().max(0.0),
                    upper: (mean + q * sd).exp_m1(),
                }
            }
        }
    }
}

/// The feature vector of a job, in [`FEATURE_NAMES`] order, on `scale`.
/// Task counts must be known; sizes must be finite and non-negative.
pub fn feature_vector(f: &JobFeatures, scale: FeatureScale) -> Result<[f64; 7], String> {
    let map = f
        .map_tasks
        .ok_or("the number of map tasks is unknown (MRM needs it as a feature)")?;
    let reduce = f
        .reduce_tasks
        .ok_or("the number of reduce tasks is unknown (MRM needs it as a feature)")?;
    for (name, v) in [
        ("input_bytes", f.input_bytes),
        ("shuffle_bytes", f.shuffle_bytes),
        ("output_bytes", f.output_bytes),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(format!("{name} must be a finite number ≥ 0, got {v}"));
        }
    }
    let raw = [
        f64::from(map),
        f64::from(reduce),
        f.map_reduction(),
        f.reduce_reduction(),
        f.input_bytes,
        f.shuffle_bytes,
        f.output_bytes,
    ];
    Ok(match scale {
        FeatureScale::Linear => raw,
        FeatureScale::Log => raw.map(f64::ln_1p),
    })
}

/// Per-column centring and scaling to unit variance, fitted on training
/// rows and applied to any row. The spread is the population standard
/// deviation (ddof 0, as scikit-learn's `StandardScaler`); a constant
/// column is only centred.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standardizer {
    /// Column means.
    pub mean: Vec<f64>,
    /// Column scales (1 for constant columns).
    pub scale: Vec<f64>,
}

impl Standardizer {
    /// Fits to `rows` (all of the same length `d`; `d` columns of zeros and
    /// ones when `rows` is empty).
    pub fn fit(rows: &[Vec<f64>], d: usize) -> Self {
        let n = rows.len().max(1) as f64;
        let mut mean = vec![0.0; d];
        for r in rows {
            for (m, v) in mean.iter_mut().zip(r) {
                *m += v / n;
            }
        }
        let mut var = vec![0.0; d];
        for r in rows {
            for ((s, v), m) in var.iter_mut().zip(r).zip(&mean) {
                *s += (v - m) * (v - m) / n;
            }
        }
        let scale = var
            .into_iter()
            .map(|v| if v > 0.0 { v.sqrt() } else { 1.0 })
            .collect();
        Standardizer { mean, scale }
    }

    /// The identity (no centring, unit scales) for `d` columns.
    pub fn identity(d: usize) -> Self {
        Standardizer {
            mean: vec![0.0; d],
            scale: vec![1.0; d],
        }
    }

    /// `(row − mean) / scale`, appended to `out`.
    pub fn apply_into(&self, row: &[f64], out: &mut Vec<f64>) {
        out.extend(
            row.iter()
                .zip(self.mean.iter().zip(&self.scale))
                .map(|(v, (m, s))| (v - m) / s),
        );
    }
}

/// Checks a feature matrix and its targets at the edge: at least one row,
/// rows of equal non-zero length, everything finite. Returns the width.
pub(crate) fn check_matrix(x: &[Vec<f64>], y: &[f64]) -> Result<usize, EstimateError> {
    if x.is_empty() {
        return Err(EstimateError::EmptyHistory);
    }
    if x.len() != y.len() {
        return Err(EstimateError::BadInput(format!(
            "{} feature rows but {} targets",
            x.len(),
            y.len()
        )));
    }
    let d = x[0].len();
    if d == 0 {
        return Err(EstimateError::BadInput("feature rows are empty".into()));
    }
    for (i, r) in x.iter().enumerate() {
        if r.len() != d {
            return Err(EstimateError::BadInput(format!(
                "feature row {i} has {} values, row 0 has {d}",
                r.len()
            )));
        }
        if let Some(k) = r.iter().position(|v| !v.is_finite()) {
            return Err(EstimateError::BadInput(format!(
                "feature row {i}, column {k}: {} is not a finite number",
                r[k]
            )));
        }
    }
    if let Some(i) = y.iter().position(|v| !v.is_finite()) {
        return Err(EstimateError::BadInput(format!(
            "target {i}: {} is not a finite number",
            y[i]
        )));
    }
    Ok(d)
}

/// Checks one query row against the training width.
pub(crate) fn check_row(row: &[f64], d: usize) -> Result<(), EstimateError> {
    if row.len() != d {
        return Err(EstimateError::BadQuery(format!(
            "{} feature values, the model has {d}",
            row.len()
        )));
    }
    if let Some(k) = row.iter().position(|v| !v.is_finite()) {
        return Err(EstimateError::BadQuery(format!(
            "feature {k}: {} is not a finite number",
            row[k]
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_scaling() {
        let f = JobFeatures {
            map_tasks: Some(4),
            reduce_tasks: Some(1),
            input_bytes: 400.0,
            shuffle_bytes: 100.0,
            output_bytes: 50.0,
        };
        let v = feature_vector(&f, FeatureScale::Linear).unwrap();
        assert_eq!(v, [4.0, 1.0, 0.25, 0.5, 400.0, 100.0, 50.0]);
        let l = feature_vector(&f, FeatureScale::Log).unwrap();
        assert!((l[0] - 5f64.ln()).abs() < 1e-15);
        let unknown = JobFeatures {
            map_tasks: None,
            ..f.clone()
        };
        assert!(feature_vector(&unknown, FeatureScale::Log).is_err());
        let nan = JobFeatures {
            input_bytes: f64::NAN,
            ..f
        };
        assert!(feature_vector(&nan, FeatureScale::Log)
            .unwrap_err()
            .contains("input_bytes"));
        let s = Standardizer::fit(&[vec![1.0, 5.0], vec![3.0, 5.0]], 2);
        assert_eq!(s.mean, vec![2.0, 5.0]);
        assert_eq!(s.scale, vec![1.0, 1.0]);
        let mut out = Vec::new();
        s.apply_into(&[3.0, 6.0], &mut out);
        assert_eq!(out, vec![1.0, 1.0]);
    }
}
