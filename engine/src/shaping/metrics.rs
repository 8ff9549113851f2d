//! What a run measured (§IV-A): turnaround (submission to completion),
//! resource slack (allocated minus used, over allocated), failures,
//! preemptions and the work they wasted; and the box-plot statistics of
//! Figure 2.

use super::params::{Policy, Predictor};
use crate::numerics::stats::percentile_sorted;
use serde::{Deserialize, Serialize};

/// Box-plot statistics of a sample (Figure 2: quartiles, whiskers at the
/// furthest points within 1.5 IQR, and the mean, the red triangle).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BoxStats {
    /// Sample size.
    pub count: usize,
    /// Smallest value.
    pub min: f64,
    /// Lower whisker: smallest value ≥ q1 − 1.5 IQR.
    pub whisker_low: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Upper whisker: largest value ≤ q3 + 1.5 IQR.
    pub whisker_high: f64,
    /// Largest value.
    pub max: f64,
    /// Mean.
    pub mean: f64,
}

impl BoxStats {
    /// The statistics of `values` (NaN dropped; all zero when empty).
    pub fn of(values: &[f64]) -> BoxStats {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan()).collect();
        if v.is_empty() {
            return BoxStats::default();
        }
        v.sort_by(|a, b| a.total_cmp(b));
        let q = |p: f64| percentile_sorted(&v, p).unwrap_or(f64::NAN);
        let (q1, median, q3) = (q(25.0), q(50.0), q(75.0));
        let iqr = q3 - q1;
        let lo = q1 - 1.5 * iqr;
        let hi = q3 + 1.5 * iqr;
        BoxStats {
            count: v.len(),
            min: v[0],
            whisker_low: v.iter().copied().find(|&x| x >= lo).unwrap_or(v[0]),
            q1,
            median,
            q3,
            whisker_high: v
                .iter()
                .rev()
                .copied()
                .find(|&x| x <= hi)
                .unwrap_or(v[v.len() - 1]),
            max: v[v.len() - 1],
            mean: v.iter().sum::<f64>() / v.len() as f64,
        }
    }
}

/// One application's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AppOutcome {
    /// Its name.
    pub name: String,
    /// Submission (s).
    pub arrival: f64,
    /// Completion (s); `None` only if the run ended without it, which the
    /// run never does (nothing is abandoned) — kept typed so that a bug
    /// shows as `unfinished` rather than a panic.
    pub finish: Option<f64>,
    /// Starts (1 when it ran through).
    pub attempts: u32,
    /// Failures, the crashes (its use exceeded its allocation, or the OS
    /// killed it); each one a resubmission.
    pub failures: u32,
    /// Shaping was turned off for it after `max_crashes` crashes.
    #[serde(default)]
    pub shaping_off: bool,
    /// Whole preemptions by Algorithm 1.
    pub preemptions: u32,
    /// Elastic components preempted.
    pub component_preemptions: u32,
    /// Work lost (component-seconds).
    pub wasted: f64,
    /// CPU slack over its life: 100 × (allocated − used) / allocated.
    pub slack_cpu_pct: f64,
    /// Memory slack over its life.
    pub slack_mem_pct: f64,
}

impl AppOutcome {
    /// Completion minus submission (s), when completed.
    pub fn turnaround(&self) -> Option<f64> {
        self.finish.map(|f| f - self.arrival)
    }

    /// Times it went back to the queue: each failure and each whole
    /// preemption.
    pub fn resubmissions(&self) -> u32 {
        self.failures + self.preemptions
    }
}

/// Every application's turnaround (s), in order, and how many did not
/// finish. An unfinished one counts from its arrival to `end` — a lower
/// bound — so the mean is always over **all** applications: a mean over
/// the finished ones only flatters a policy that fails the slow ones.
pub fn all_turnarounds(outcomes: &[AppOutcome], end: f64) -> (Vec<f64>, usize) {
    let mut unfinished = 0;
    let t = outcomes
        .iter()
        .map(|o| match o.turnaround() {
            Some(t) => t,
            None => {
                unfinished += 1;
                (end - o.arrival).max(0.0)
            }
        })
        .collect();
    (t, unfinished)
}

/// Who pays for the speed-up: each application's shaped turnaround over
/// its own baseline turnaround (> 1: it waited longer than it would have
/// under reservations).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorstOff {
    /// The 99th percentile of the per-application slowdown.
    pub p99_slowdown: f64,
    /// The median slowdown.
    pub median_slowdown: f64,
    /// The largest slowdown.
    pub max_slowdown: f64,
    /// Applications slower than under reservations (slowdown > 1.01).
    pub slower_apps: usize,
    /// The worst few: (name, slowdown, crashes), worst first.
    pub worst: Vec<(String, f64, u32)>,
}

/// How many of the worst applications [`WorstOff::worst`] names.
pub const WORST_NAMED: usize = 5;

impl WorstOff {
    /// The per-application slowdown of `shaped` against `baseline` (the
    /// same applications, in the same order; over all of them).
    pub fn of(baseline: &[AppOutcome], shaped: &[AppOutcome], end_b: f64, end_s: f64) -> Self {
        let (tb, _) = all_turnarounds(baseline, end_b);
        let (ts, _) = all_turnarounds(shaped, end_s);
        let mut ratios: Vec<(f64, usize)> = tb
            .iter()
            .zip(&ts)
            .enumerate()
            .map(|(i, (&b, &s))| (s.max(1e-9) / b.max(1e-9), i))
            .collect();
        if ratios.is_empty() {
            return WorstOff::default();
        }
        ratios.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let sorted: Vec<f64> = ratios.iter().map(|r| r.0).collect();
        let q = |p: f64| percentile_sorted(&sorted, p).unwrap_or(f64::NAN);
        WorstOff {
            p99_slowdown: q(99.0),
            median_slowdown: q(50.0),
            max_slowdown: sorted[sorted.len() - 1],
            slower_apps: sorted.iter().filter(|&&r| r > 1.01).count(),
            worst: ratios
                .iter()
                .rev()
                .take(WORST_NAMED)
                .map(|&(r, i)| (shaped[i].name.clone(), r, shaped[i].failures))
                .collect(),
        }
    }
}

/// The summary of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Its policy.
    pub policy: Policy,
    /// Its forecasts.
    pub predictor: Predictor,
    /// K1.
    pub k1: f64,
    /// K2.
    pub k2: f64,
    /// Applications.
    pub apps: usize,
    /// Completed.
    pub completed: usize,
    /// Not completed when the run ended: 0, nothing is abandoned (counted
    /// in the turnaround at the run's end if it ever were not).
    pub unfinished: usize,
    /// Mean turnaround over all applications (s).
    pub mean_turnaround_s: f64,
    /// Median turnaround (s).
    pub median_turnaround_s: f64,
    /// 95th percentile of the turnaround (s).
    pub p95_turnaround_s: f64,
    /// Mean over applications of their CPU slack (%).
    pub mean_slack_cpu_pct: f64,
    /// Mean over applications of their memory slack (%).
    pub mean_slack_mem_pct: f64,
    /// Cluster CPU slack: (allocated − used) / allocated over the run (%).
    pub cluster_slack_cpu_pct: f64,
    /// Cluster memory slack (%).
    pub cluster_slack_mem_pct: f64,
    /// Mean share of the cluster's cores allocated, first arrival to last
    /// completion (%).
    pub allocated_cpu_pct: f64,
    /// Core-seconds allocated over the run, every attempt's (failed ones
    /// too). Unlike [`RunSummary::allocated_cpu_pct`] it does not depend on
    /// when the last application finishes: one straggler's resubmission
    /// stretches the span and lowers that share without freeing a core.
    #[serde(default)]
    pub allocated_cpu_s: f64,
    /// Mean share of the cluster's cores used (%).
    pub used_cpu_pct: f64,
    /// Mean share of the cluster's memory allocated (%).
    pub allocated_mem_pct: f64,
    /// Mean share of the cluster's memory used (%).
    pub used_mem_pct: f64,
    /// Applications that failed at least once.
    pub failed_apps: usize,
    /// `failed_apps / apps` (%): the paper's "application failures".
    pub failed_apps_pct: f64,
    /// Failures (crashes) in all.
    pub failures: usize,
    /// Resubmissions in all: failures and whole preemptions.
    pub resubmissions: usize,
    /// Applications for which shaping was turned off after `max_crashes`
    /// crashes.
    pub shaping_off_apps: usize,
    /// Applications preempted whole at least once.
    pub preempted_apps: usize,
    /// Whole preemptions in all.
    pub app_preemptions: usize,
    /// Elastic components preempted.
    pub component_preemptions: usize,
    /// Work lost to failures and preemptions (component-hours).
    pub wasted_component_hours: f64,
    /// Work lost over the work the applications need (%).
    pub wasted_pct: f64,
    /// Last completion (s).
    pub makespan_s: f64,
    /// Events processed.
    pub events: usize,
    /// Least free CPU seen on any host after any event (≥ 0: allocations
    /// never exceed capacity).
    pub min_free_cpu: f64,
    /// Least free memory seen on any host after any event.
    pub min_free_mem: f64,
    /// Host-events found over capacity when every event is verified
    /// against the components (0 unless verification is on).
    pub overcommits: usize,
    /// Minutes where a model could not be fitted and the last value stood in.
    pub forecast_fallbacks: usize,
}

/// One cell, averaged over the workloads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridCell {
    /// The forecaster.
    pub predictor: Predictor,
    /// K1.
    pub k1: f64,
    /// K2.
    pub k2: f64,
    /// Mean over workloads of baseline mean turnaround / shaped (> 1:
    /// better than the baseline).
    pub turnaround_ratio: f64,
    /// Mean memory slack (%).
    pub slack_mem_pct: f64,
    /// Mean CPU slack (%).
    pub slack_cpu_pct: f64,
    /// Applications failed at least once (%).
    pub failed_apps_pct: f64,
    /// Applications preempted whole at least once (%).
    pub preempted_apps_pct: f64,
    /// Work wasted (%).
    pub wasted_pct: f64,
    /// Crashes per application (mean).
    pub crashes_per_app: f64,
    /// Resubmissions (crashes and whole preemptions) per application.
    pub resubmissions_per_app: f64,
    /// Applications run unshaped after `max_crashes` crashes (%).
    pub shaping_off_pct: f64,
    /// The worst-off applications: the 99th percentile of shaped / own
    /// baseline turnaround.
    pub worst_off_p99: f64,
}
