//! The "same job" baseline (the paper's "Bin", after Verma et al. \[29\]): a
//! recurring job will take about what its past runs took. The estimate is
//! the mean of the job's past durations and its PI the Student-t interval of
//! a new observation from a normal sample of `k` runs,
//! `mean ± t_{k−1, (1+c)/2} · s · √(1 + 1/k)` (`s` the sample standard
//! deviation): honest about how little a few runs say. A job seen fewer
//! than `min_runs` times gets no estimate, and says so.

use super::{check_level, EstimateError, Prediction};
use crate::numerics::quantile::student_t_quantile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Past runs of one job, summarized.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunStats {
    /// Runs.
    pub runs: usize,
    /// Mean duration, seconds.
    pub mean: f64,
    /// Sample variance (n − 1 in the denominator; 0 for one run).
    pub variance: f64,
}

/// The same-job estimate for one job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SameJobEstimate {
    /// Enough past runs.
    Estimate {
        /// Past runs used.
        runs: usize,
        /// Mean, spread and PI.
        prediction: Prediction,
    },
    /// Too few past runs of this job (possibly none).
    TooFewRuns {
        /// Past runs found.
        runs: usize,
        /// Runs needed.
        needed: usize,
    },
}

/// Per-job statistics of past durations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SameJob {
    jobs: BTreeMap<String, RunStats>,
    min_runs: usize,
}

impl SameJob {
    /// Summarizes `(job name, duration)` pairs. `min_runs` (at least 2: one
    /// run has no spread) is how many runs a job needs for an estimate.
    pub fn fit<'a>(
        runs: impl IntoIterator<Item = (&'a str, f64)>,
        min_runs: usize,
    ) -> Result<Self, EstimateError> {
        if min_runs < 2 {
            return Err(EstimateError::param(
                "min_runs",
                format!("must be at least 2 (a variance needs two runs), got {min_runs}"),
            ));
        }
        let mut sums: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        for (i, (name, secs)) in runs.into_iter().enumerate() {
            if !(secs.is_finite() && secs >= 0.0) {
                return Err(EstimateError::BadJob {
                    index: i,
                    job: name.to_string(),
                    why: format!("duration must be finite and ≥ 0, got {secs}"),
                });
            }
            sums.entry(name.to_string()).or_default().push(secs);
        }
        if sums.is_empty() {
            return Err(EstimateError::EmptyHistory);
        }
        let jobs = sums
            .into_iter()
            .map(|(name, v)| {
                let k = v.len() as f64;
                let mean = v.iter().sum::<f64>() / k;
                let variance = if v.len() > 1 {
                    v.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / (k - 1.0)
                } else {
                    0.0
                };
                (
                    name,
                    RunStats {
                        runs: v.len(),
                        mean,
                        variance,
                    },
                )
            })
            .collect();
        Ok(SameJob { jobs, min_runs })
    }

    /// Past runs of `job`, if any.
    pub fn stats(&self, job: &str) -> Option<&RunStats> {
        self.jobs.get(job)
    }

    /// The estimate for a run of `job` with its `level` PI.
    pub fn estimate(&self, job: &str, level: f64) -> Result<SameJobEstimate, EstimateError> {
        check_level(level)?;
        let Some(s) = self.jobs.get(job).filter(|s| s.runs >= self.min_runs) else {
            return Ok(SameJobEstimate::TooFewRuns {
                runs: self.jobs.get(job).map_or(0, |s| s.runs),
                needed: self.min_runs,
            });
        };
        let k = s.runs as f64;
        let sd = (s.variance * (1.0 + 1.0 / k)).sqrt();
        let t = student_t_quantile(0.5 + 0.5 * level, k - 1.0);
        Ok(SameJobEstimate::Estimate {
            runs: s.runs,
            prediction: Prediction::symmetric(s.mean, sd, t),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_variance_and_too_few() {
        let m = SameJob::fit([("a", 10.0), ("b", 5.0), ("a", 14.0), ("a", 12.0)], 2).unwrap();
        let s = m.stats("a").unwrap();
        assert_eq!((s.runs, s.mean, s.variance), (3, 12.0, 4.0));
        let SameJobEstimate::Estimate { runs, prediction } = m.estimate("a", 0.95).unwrap() else {
            panic!()
        };
        assert_eq!(runs, 3);
        // t(2, 0.975) · 2 · √(4/3)
        let half = 4.302_652_729_749_462 * 2.0 * (4.0f64 / 3.0).sqrt();
        assert!((prediction.upper - (12.0 + half)).abs() < 1e-9);
        assert_eq!(
            m.estimate("b", 0.95).unwrap(),
            SameJobEstimate::TooFewRuns { runs: 1, needed: 2 }
        );
        assert_eq!(
            m.estimate("new", 0.95).unwrap(),
            SameJobEstimate::TooFewRuns { runs: 0, needed: 2 }
        );
        assert!(SameJob::fit([("a", 1.0)], 1).is_err());
        assert!(SameJob::fit([("a", f64::NAN)], 2).is_err());
        assert_eq!(
            SameJob::fit(std::iter::empty(), 2),
            Err(EstimateError::EmptyHistory)
        );
        assert!(m.estimate("a", 0.0).is_err());
    }
}
