//! Inferring SLOs of periodic jobs from provenance times (Morpheus §4).

use super::periodic::{find_periodic, NonPeriodicJob, PeriodicJob, PeriodicParams};
use super::SloError;
use crate::model::{JobRun, Timestamp};
use crate::numerics::stats::{mad, median, percentile};
use serde::{Deserialize, Serialize};

/// Settings for SLO inference. The paper names the rules and the example
/// percentiles; the thresholds are ours and documented here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SloParams {
    /// Grouping and period detection.
    pub periodic: PeriodicParams,
    /// Percentile of input-available times that sets the earliest start
    /// (paper's example: 95th).
    pub start_percentile: f64,
    /// Percentile of output-first-read times that sets the deadline (paper's
    /// example: 50th).
    pub deadline_percentile: f64,
    /// Largest robust CV (MAD/median) of the output-read time, relative to the
    /// period start, for the deadline to be actionable (default 0.1).
    pub max_read_cv: f64,
    /// Smallest median of `(read − end)/(end − start)` for there to be real
    /// slack (default 0.2: slack of at least a fifth of the run time).
    pub min_slack_ratio: f64,
    /// Fewest runs with both end and read times to judge (default 3).
    pub min_samples: usize,
}

impl Default for SloParams {
    fn default() -> Self {
        SloParams {
            periodic: PeriodicParams::default(),
            start_percentile: 95.0,
            deadline_percentile: 50.0,
            max_read_cv: 0.1,
            min_slack_ratio: 0.2,
            min_samples: 3,
        }
    }
}

impl SloParams {
    /// Checks the settings at the engine's edge.
    pub fn validate(&self) -> Result<(), SloError> {
        self.periodic.validate()?;
        for (name, v) in [
            ("start_percentile", self.start_percentile),
            ("deadline_percentile", self.deadline_percentile),
        ] {
            if !(v.is_finite() && (0.0..=100.0).contains(&v)) {
                return Err(SloError::param(name, "must be a percentile in [0, 100]"));
            }
        }
        if !(self.max_read_cv.is_finite() && self.max_read_cv >= 0.0) {
            return Err(SloError::param(
                "max_read_cv",
                "must be a finite number ≥ 0",
            ));
        }
        if !self.min_slack_ratio.is_finite() {
            return Err(SloError::param("min_slack_ratio", "must be finite"));
        }
        if self.min_samples == 0 {
            return Err(SloError::param("min_samples", "must be at least 1"));
        }
        Ok(())
    }
}

/// The statistics an SLO was inferred from, shown to the user who signs off.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SloEvidence {
    /// Runs of the job.
    pub runs: usize,
    /// Runs with an input-available time.
    pub with_input: usize,
    /// Runs with an output-first-read time.
    pub with_read: usize,
    /// Robust CV of the inter-arrival times.
    pub interarrival_cv: f64,
    /// Robust CV of the read time relative to the period start.
    pub read_cv: Option<f64>,
    /// Median absolute deviation of the read time, seconds.
    pub read_mad_secs: Option<f64>,
    /// Median of `(read − end)/(end − start)`.
    pub slack_ratio: Option<f64>,
    /// Median run time, seconds.
    pub median_runtime_secs: f64,
    /// Median start time relative to the period start, seconds.
    pub median_start_secs: f64,
    /// Median end time relative to the period start, seconds.
    pub median_end_secs: f64,
}

/// An inferred SLO: the window `[earliest_start, deadline]` relative to the
/// start of each period, or the reason there is none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slo {
    /// Templated job name.
    pub job: String,
    /// Period, seconds.
    pub period_secs: i64,
    /// Start of the job's first period; period `i` starts at
    /// `reference + i · period_secs`.
    pub reference: Timestamp,
    /// Earliest start `a`, seconds after the period start (from inputs, or
    /// from submissions when inputs are not traced).
    pub earliest_start_secs: Option<i64>,
    /// Deadline `d`, seconds after the period start, when actionable.
    pub deadline_secs: Option<i64>,
    /// Whether the deadline is actionable.
    pub actionable: bool,
    /// Why not, when it is not; or a note on how it was derived.
    pub reason: Option<String>,
    /// The output is consumed on a longer period than the job's own, so the
    /// deadline was forced to the end of the job's period (§4, footnote 5).
    pub deadline_forced: bool,
    /// What it was inferred from.
    pub evidence: SloEvidence,
    /// Indices of the job's runs in the input.
    pub runs: Vec<usize>,
}

/// SLOs of all periodic jobs, and the groups that are not periodic.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SloReport {
    /// One SLO per periodic job, by name.
    pub slos: Vec<Slo>,
    /// Groups of runs that are not periodic, with the reason.
    pub non_periodic: Vec<NonPeriodicJob>,
}

fn pct(values: &[f64], p: f64) -> Option<i64> {
    percentile(values, p).map(|v| v.round() as i64)
}

fn infer_one(job: &PeriodicJob, runs: &[JobRun], p: &SloParams) -> Slo {
    let period = job.period_secs;
    let starts: Vec<Timestamp> = job
        .period_index
        .iter()
        .map(|&i| job.reference + i * period)
        .collect();
    let rel = |f: &dyn Fn(&JobRun) -> Option<Timestamp>| -> Vec<f64> {
        job.runs
            .iter()
            .zip(&starts)
            .filter_map(|(&i, &s)| f(&runs[i]).map(|t| (t - s) as f64))
            .collect()
    };
    let inputs = rel(&|r| r.input_available);
    let submits = rel(&|r| Some(r.submit));
    let reads = rel(&|r| r.output_first_read);
    let runtimes: Vec<f64> = job
        .runs
        .iter()
        .map(|&i| runs[i].runtime_secs() as f64)
        .collect();
    let slack: Vec<f64> = job
        .runs
        .iter()
        .filter_map(|&i| {
            let r = &runs[i];
            let read = r.output_first_read?;
            let rt = r.runtime_secs().max(1) as f64;
            Some((read - r.end) as f64 / rt)
        })
        .collect();
    let evidence = SloEvidence {
        runs: job.runs.len(),
        with_input: inputs.len(),
        with_read: reads.len(),
        interarrival_cv: job.interarrival_cv,
        read_cv: (!reads.is_empty())
            .then(|| mad(&reads).unwrap_or(0.0) / median(&reads).unwrap_or(0.0).abs().max(1.0)),
        read_mad_secs: mad(&reads),
        slack_ratio: median(&slack),
        median_runtime_secs: median(&runtimes).unwrap_or(0.0),
        median_start_secs: median(&rel(&|r| Some(r.start))).unwrap_or(0.0),
        median_end_secs: median(&rel(&|r| Some(r.end))).unwrap_or(0.0),
    };
    let (earliest, mut note) = if inputs.len() >= p.min_samples {
        (pct(&inputs, p.start_percentile), None)
    } else {
        (
            pct(&submits, p.start_percentile),
            Some("input availability not traced: earliest start from submission times".to_string()),
        )
    };
    let mut slo = Slo {
        job: job.name.clone(),
        period_secs: period,
        reference: job.reference,
        earliest_start_secs: earliest,
        deadline_secs: None,
        actionable: false,
        reason: None,
        deadline_forced: false,
        evidence,
        runs: job.runs.clone(),
    };
    let e = &slo.evidence;
    let not = |why: String| Some(why);
    if reads.len() < p.min_samples {
        slo.reason = not(if reads.is_empty() {
            "output reads are not traced: no deadline can be inferred".into()
        } else {
            format!(
                "only {} run(s) with an output read; {} needed",
                reads.len(),
                p.min_samples
            )
        });
        return slo;
    }
    let median_read = median(&reads).unwrap_or(0.0);
    if median_read > period as f64 {
        // Consumed on a longer period (e.g. a daily job rolled up monthly):
        // force the deadline to the job's own period so provisioning is
        // spread over every period instead of piling up (§4, footnote 5).
        slo.deadline_secs = Some(period);
        slo.deadline_forced = true;
        slo.actionable = true;
        slo.reason = Some(format!(
            "output is read on a longer period (median read {:.1} periods after the start): deadline forced to the end of the job's own period",
            median_read / period as f64
        ));
        return slo;
    }
    let read_cv = e.read_cv.unwrap_or(f64::INFINITY);
    if read_cv > p.max_read_cv {
        slo.reason = not(format!(
            "output read time is not stable: CV (MAD/median) {read_cv:.2} > {:.2}",
            p.max_read_cv
        ));
        return slo;
    }
    let ratio = e.slack_ratio.unwrap_or(0.0);
    if ratio < p.min_slack_ratio {
        slo.reason = not(format!(
            "no real slack: median (read − end)/(end − start) = {ratio:.2} < {:.2}",
            p.min_slack_ratio
        ));
        return slo;
    }
    let deadline = pct(&reads, p.deadline_percentile);
    if let (Some(a), Some(d)) = (earliest, deadline) {
        if d <= a {
            slo.reason = not(format!(
                "deadline {d} s is not after the earliest start {a} s of the period"
            ));
            return slo;
        }
    }
    slo.deadline_secs = deadline;
    slo.actionable = true;
    slo.reason = note.take();
    slo
}

/// Finds the periodic jobs among `runs` and infers each one's SLO.
pub fn infer_slos(runs: &[JobRun], params: &SloParams) -> Result<SloReport, SloError> {
    params.validate()?;
    if runs.is_empty() {
        return Err(SloError::NoRuns);
    }
    let groups = find_periodic(runs, &params.periodic)?;
    Ok(SloReport {
        slos: groups
            .periodic
            .iter()
            .map(|j| infer_one(j, runs, params))
            .collect(),
        non_periodic: groups.non_periodic,
    })
}
