//! What the §6.3 simulation measures, per policy and per user class:
//! tardiness (Table 5, Fig. 9b), waiting (Fig. 9a), earliness (Fig. 9c),
//! slack offered (Tables 6–7), premium paid over resource usage (Table 8)
//! and how many delay-sensitive jobs jump ahead of earlier arrivals.
//!
//! Definitions:
//!
//! - **tardy**: finished more than 1 µs (plus 10⁻¹⁰ of the deadline, for
//!   rounding far into a long run) after the deadline promised at arrival;
//! - **waiting**: `finish − arrival − actual processing time`, the time in
//!   the system not being served (under non-preemptive FCFS and priority it
//!   is `start − arrival`; under preemptive EDF it also counts preemptions);
//! - **earliness**: `deadline − finish` of the jobs that are not tardy;
//! - **slack** (MRM): the free time between a job's earliest feasible
//!   finish and its chosen deadline, seconds — the paper's δ·γ; the
//!   **deadline gap** is the wall-clock `deadline − earliest finish`, equal
//!   on an empty queue and longer when committed work lies in between;
//! - **premium** (MRM): the eq. (13) price paid (tokens: one buys one
//!   second of processing) over the job's actual processing time;
//! - **jumped ahead**: a delay-sensitive job that completes before some job
//!   that arrived earlier — FCFS completes in arrival order, so this is the
//!   paper's comparison with the FCFS completion order; **saw a
//!   delay-tolerant job**: at its arrival a delay-tolerant job was waiting
//!   in the queue (in the system and not in service).

use super::policy::Policy;
use super::sim_workload::SimJob;
use crate::numerics::stats::percentile_sorted;
use serde::{Deserialize, Serialize};

/// Mean and percentiles of a sample.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Sample size.
    pub count: usize,
    /// Mean.
    pub mean: f64,
    /// 5th percentile.
    pub p5: f64,
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
}

impl Summary {
    /// The summary of `values` (sorted in place), `None` when empty.
    pub fn of(values: &mut [f64]) -> Option<Summary> {
        if values.is_empty() {
            return None;
        }
        values.sort_by(f64::total_cmp);
        let pct = |p| percentile_sorted(values, p);
        Some(Summary {
            count: values.len(),
            mean: values.iter().sum::<f64>() / values.len() as f64,
            p5: pct(5.0)?,
            p50: pct(50.0)?,
            p95: pct(95.0)?,
        })
    }
}

/// A metric for delay-sensitive jobs, delay-tolerant jobs and all jobs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ByClass<T> {
    /// Delay-sensitive jobs.
    pub ds: T,
    /// Delay-tolerant jobs.
    pub dt: T,
    /// All jobs.
    pub all: T,
}

/// Pricing metrics, MRM only.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PricingReport {
    /// Slack offered, seconds of free time (Tables 6–7).
    pub slack: ByClass<Option<Summary>>,
    /// Chosen deadline − earliest feasible finish, seconds.
    pub deadline_gap: ByClass<Option<Summary>>,
    /// Price paid / actual processing time (Table 8).
    pub premium: ByClass<Option<Summary>>,
}

/// One policy's results.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyReport {
    /// The policy.
    pub policy: Policy,
    /// Tardy jobs, percent (`None` for an empty class).
    pub tardy_percent: ByClass<Option<f64>>,
    /// Tardiness (finish − deadline) of the tardy jobs, seconds.
    pub tardiness: Option<Summary>,
    /// Waiting time, seconds.
    pub waiting: ByClass<Option<Summary>>,
    /// Earliness of the jobs on time, seconds.
    pub earliness: ByClass<Option<Summary>>,
    /// Slack, deadline gap and premium (MRM).
    pub pricing: Option<PricingReport>,
    /// Delay-sensitive jobs that completed before an earlier arrival,
    /// percent of delay-sensitive jobs.
    pub jumped_ahead_percent: Option<f64>,
    /// Delay-sensitive jobs that saw a delay-tolerant job they could
    /// overtake on arrival, percent of delay-sensitive jobs.
    pub saw_dt_percent: Option<f64>,
    /// Of those, the percentage that jumped ahead.
    pub jumped_ahead_of_those_percent: Option<f64>,
}

/// A job's fate under one policy.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Outcome {
    pub deadline: f64,
    pub finish: f64,
    pub price: f64,
    pub slack: f64,
    pub deadline_gap: f64,
    pub dt_waiting: bool,
}

/// Everything one policy's run records.
pub(crate) struct Run {
    outcomes: Vec<Outcome>,
    order: Vec<u32>,
    priced: bool,
}

impl Run {
    pub fn new(jobs: usize, priced: bool) -> Run {
        Run {
            outcomes: vec![Outcome::default(); jobs],
            order: Vec::with_capacity(jobs),
            priced,
        }
    }

    /// Records a job's admission (its finish comes later).
    pub fn admit(&mut self, id: usize, o: Outcome) {
        self.outcomes[id] = o;
    }

    /// Records a completion; completions come in time order.
    pub fn finish(&mut self, id: usize, at: f64) {
        self.outcomes[id].finish = at;
        self.order.push(id as u32);
    }
}

fn tardy(o: &Outcome) -> bool {
    o.finish > o.deadline + 1e-6 + 1e-10 * o.deadline.abs()
}

fn percent(num: usize, den: usize) -> Option<f64> {
    (den > 0).then(|| 100.0 * num as f64 / den as f64)
}

/// A per-class summary of `f` over the jobs `keep` selects.
fn by_class(
    jobs: &[SimJob],
    outcomes: &[Outcome],
    keep: impl Fn(&Outcome) -> bool,
    f: impl Fn(&SimJob, &Outcome) -> f64,
) -> ByClass<Option<Summary>> {
    let (mut ds, mut dt) = (Vec::new(), Vec::new());
    for (j, o) in jobs.iter().zip(outcomes) {
        if keep(o) {
            if j.ds { &mut ds } else { &mut dt }.push(f(j, o));
        }
    }
    let mut all = [ds.as_slice(), dt.as_slice()].concat();
    ByClass {
        ds: Summary::of(&mut ds),
        dt: Summary::of(&mut dt),
        all: Summary::of(&mut all),
    }
}

pub(crate) fn report(policy: Policy, jobs: &[SimJob], run: &Run) -> PolicyReport {
    let o = &run.outcomes;
    let n_ds = jobs.iter().filter(|j| j.ds).count();
    let n_dt = jobs.len() - n_ds;
    let tardy_ds = jobs.iter().zip(o).filter(|(j, o)| j.ds && tardy(o)).count();
    let tardy_dt = jobs
        .iter()
        .zip(o)
        .filter(|(j, o)| !j.ds && tardy(o))
        .count();
    let mut tardiness: Vec<f64> = o
        .iter()
        .filter(|o| tardy(o))
        .map(|o| o.finish - o.deadline)
        .collect();
    // Jumped ahead: some earlier arrival completes later, i.e. the least
    // arrival index completing after a job is below its own.
    let mut jumped = vec![false; jobs.len()];
    let mut least_after = u32::MAX;
    for &id in run.order.iter().rev() {
        jumped[id as usize] = least_after < id;
        least_after = least_after.min(id);
    }
    let (mut jumps, mut saw, mut saw_jumps) = (0, 0, 0);
    for (i, j) in jobs.iter().enumerate() {
        if j.ds {
            jumps += usize::from(jumped[i]);
            if o[i].dt_waiting {
                saw += 1;
                saw_jumps += usize::from(jumped[i]);
            }
        }
    }
    let pricing = run.priced.then(|| PricingReport {
        slack: by_class(jobs, o, |_| true, |_, o| o.slack),
        deadline_gap: by_class(jobs, o, |_| true, |_, o| o.deadline_gap),
        premium: by_class(jobs, o, |_| true, |j, o| o.price / j.actual),
    });
    PolicyReport {
        policy,
        tardy_percent: ByClass {
            ds: percent(tardy_ds, n_ds),
            dt: percent(tardy_dt, n_dt),
            all: percent(tardy_ds + tardy_dt, jobs.len()),
        },
        tardiness: Summary::of(&mut tardiness),
        waiting: by_class(
            jobs,
            o,
            |_| true,
            |j, o| (o.finish - j.arrival - j.actual).max(0.0),
        ),
        earliness: by_class(jobs, o, |o| !tardy(o), |_, o| o.deadline - o.finish),
        pricing,
        jumped_ahead_percent: percent(jumps, n_ds),
        saw_dt_percent: percent(saw, n_ds),
        jumped_ahead_of_those_percent: percent(saw_jumps, saw),
    }
}
