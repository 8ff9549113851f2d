//! Isolating periodic jobs (Morpheus §4): runs grouped by templated name, kept
//! when their inter-arrival times are near-constant, with the period derived
//! from submission times (not subject to queuing delays).

use super::template::template_name;
use super::SloError;
use crate::model::{JobRun, Timestamp};
use crate::numerics::stats::{mad, median};
use crate::time::{format_duration, DAY};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Settings for [`find_periodic`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PeriodicParams {
    /// Largest robust CV (MAD / median) of inter-arrival times for a job to
    /// count as periodic. The paper filters "large CV" without a number; 0.1
    /// keeps hourly jobs with a few minutes of jitter and rejects ad-hoc ones.
    pub max_interarrival_cv: f64,
    /// Fewest runs needed to call a job periodic (3: two inter-arrivals).
    pub min_runs: usize,
    /// Relative distance within which the median inter-arrival is snapped to
    /// a natural period (a divisor of a day, or whole days up to four weeks).
    pub snap_tolerance: f64,
}

impl Default for PeriodicParams {
    fn default() -> Self {
        PeriodicParams {
            max_interarrival_cv: 0.1,
            min_runs: 3,
            snap_tolerance: 0.05,
        }
    }
}

impl PeriodicParams {
    /// Checks the settings at the engine's edge.
    pub fn validate(&self) -> Result<(), SloError> {
        if !(self.max_interarrival_cv.is_finite() && self.max_interarrival_cv >= 0.0) {
            return Err(SloError::param(
                "max_interarrival_cv",
                "must be a finite number ≥ 0",
            ));
        }
        if self.min_runs < 2 {
            return Err(SloError::param("min_runs", "must be at least 2"));
        }
        if !(self.snap_tolerance.is_finite() && (0.0..0.5).contains(&self.snap_tolerance)) {
            return Err(SloError::param("snap_tolerance", "must be in [0, 0.5)"));
        }
        Ok(())
    }
}

/// A periodic (recurring) job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PeriodicJob {
    /// Templated name.
    pub name: String,
    /// Indices of its runs in the input slice, by submission time.
    pub runs: Vec<usize>,
    /// The period, seconds (snapped to a natural period when close).
    pub period_secs: i64,
    /// Median inter-arrival time, seconds, before snapping.
    pub median_interarrival_secs: f64,
    /// Robust CV of the inter-arrival times.
    pub interarrival_cv: f64,
    /// Whether the period was snapped to a natural one.
    pub snapped: bool,
    /// Time of the first event recorded for the job (the paper's
    /// `AbsoluteReferenceTime`): the earliest input-available or submit time
    /// of its first run.
    pub reference: Timestamp,
    /// Period index of each run (same order as `runs`): the run belongs to the
    /// period starting at `reference + index · period`. Robust to skipped runs.
    pub period_index: Vec<i64>,
}

/// A group of runs that is not periodic, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NonPeriodicJob {
    /// Templated name.
    pub name: String,
    /// Number of runs.
    pub runs: usize,
    /// Why it is not periodic.
    pub reason: String,
}

/// The result of grouping.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Periodicity {
    /// Periodic jobs, by name.
    pub periodic: Vec<PeriodicJob>,
    /// Groups that are not periodic, by name.
    pub non_periodic: Vec<NonPeriodicJob>,
}

/// Natural periods: divisors of a day from 5 minutes, then whole days.
fn natural_periods() -> Vec<i64> {
    let mut v: Vec<i64> = (300..=DAY)
        .filter(|p| DAY % p == 0 && p % 60 == 0)
        .collect();
    v.extend((2..=28).map(|d| d * DAY));
    v
}

/// Snaps a median inter-arrival time to the nearest natural period when
/// within `tolerance` (relative); otherwise rounds it to whole seconds.
pub fn snap_period(median_secs: f64, tolerance: f64) -> (i64, bool) {
    let best = natural_periods()
        .into_iter()
        .map(|p| (p, ((median_secs - p as f64) / p as f64).abs()))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    match best {
        Some((p, d)) if d <= tolerance => (p, true),
        _ => (median_secs.round().max(1.0) as i64, false),
    }
}

/// Groups runs by templated name and keeps the near-periodic groups.
pub fn find_periodic(runs: &[JobRun], params: &PeriodicParams) -> Result<Periodicity, SloError> {
    params.validate()?;
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, r) in runs.iter().enumerate() {
        groups.entry(template_name(&r.job)).or_default().push(i);
    }
    let mut out = Periodicity::default();
    for (name, mut idx) in groups {
        idx.sort_by_key(|&i| (runs[i].submit, i));
        let reject = |reason: String| NonPeriodicJob {
            name: name.clone(),
            runs: idx.len(),
            reason,
        };
        if idx.len() < params.min_runs {
            out.non_periodic.push(reject(format!(
                "only {} run(s); at least {} are needed to see a period",
                idx.len(),
                params.min_runs
            )));
            continue;
        }
        let gaps: Vec<f64> = idx
            .windows(2)
            .map(|w| (runs[w[1]].submit - runs[w[0]].submit) as f64)
            .collect();
        let m = median(&gaps).unwrap_or(0.0);
        if m <= 0.0 {
            out.non_periodic
                .push(reject("most runs are submitted at the same time".into()));
            continue;
        }
        let cv = mad(&gaps).unwrap_or(0.0) / m;
        if cv > params.max_interarrival_cv {
            out.non_periodic.push(reject(format!(
                "irregular inter-arrival times: CV (MAD/median) {cv:.2} > {:.2} (median gap {})",
                params.max_interarrival_cv,
                format_duration(m.round() as i64)
            )));
            continue;
        }
        let (period, snapped) = snap_period(m, params.snap_tolerance);
        let first = &runs[idx[0]];
        let reference = first
            .input_available
            .map_or(first.submit, |t| t.min(first.submit));
        let period_index = idx
            .iter()
            .map(|&i| ((runs[i].submit - first.submit) as f64 / period as f64).round() as i64)
            .collect();
        out.periodic.push(PeriodicJob {
            name,
            runs: idx,
            period_secs: period,
            median_interarrival_secs: m,
            interarrival_cv: cv,
            snapped,
            reference,
            period_index,
        });
    }
    Ok(out)
}
