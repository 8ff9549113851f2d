//! Price–deadline curves for a new job against the current queue (MRM §4.2).
//!
//! The new job's earliest feasible finish `f` comes from filling the lazy
//! schedule's slack ([`LazySchedule::earliest_finish`]); every later deadline
//! `D` is feasible, and its price falls with the slack it offers. Four price
//! functions are offered:
//!
//! - [`PriceFunction::Mrm`], eq. (13): `κ·(p_j/(δ_j+1) + Σ_i (p_i/(δ'_i+1) − p_i/(δ_i+1)))`
//!   — the job's own term plus a charge for the slack it takes from queued
//!   jobs it jumps ahead of;
//! - [`PriceFunction::Exponential`], eq. (14): `κ·r_j·exp(−δ_j/p_j)`;
//! - [`PriceFunction::Quadratic`], eq. (15): `κ·r_j − δ_j^z/p_j`;
//! - [`PriceFunction::LoadAware`], eq. (16): `r_j·exp(ρ·p_j/γ)` with
//!   `ρ = max(0, 1 − β/p_j)` and `β = D − Σ_{d_k ≤ D} p_k`.
//!
//! Slack is free processing time (the free share of both phases' slots,
//! seconds) normalized by the mean job processing time `γ`. Eqs. (14)–(16)
//! are bounded below by the reserve price `r_j = reserve·p_j/γ`.

use super::schedule::{LazySchedule, QueuedJob, ScheduleError, Slots};
use serde::{Deserialize, Serialize};

/// A price function.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum PriceFunction {
    /// Eq. (13) with its κ (≥ 1: one unit of processing time at zero slack
    /// costs κ).
    Mrm {
        /// Purchasing-power scale.
        kappa: f64,
    },
    /// Eq. (14).
    Exponential {
        /// κ ≥ 1.
        kappa: f64,
    },
    /// Eq. (15).
    Quadratic {
        /// κ ≥ 1.
        kappa: f64,
        /// Exponent z of the slack.
        z: f64,
    },
    /// Eq. (16).
    LoadAware,
}

/// Settings of a price curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PriceParams {
    /// Which function.
    pub function: PriceFunction,
    /// Mean job processing time γ, seconds (from history; slack unit).
    pub mean_job_secs: f64,
    /// Reserve price per mean job of processing time (eqs. 14–16).
    pub reserve: f64,
    /// Number of deadlines on the curve.
    pub points: usize,
    /// The curve spans deadlines from the earliest finish to it plus this
    /// many mean job times.
    pub span_jobs: f64,
    /// Time quantum of the schedule, seconds.
    pub quantum: f64,
}

impl Default for PriceParams {
    fn default() -> Self {
        PriceParams {
            function: PriceFunction::Mrm { kappa: 1.0 },
            mean_job_secs: 60.0,
            reserve: 0.1,
            points: 40,
            span_jobs: 10.0,
            quantum: 1.0,
        }
    }
}

/// One point of a price–deadline curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PricePoint {
    /// Deadline, seconds from now.
    pub deadline: f64,
    /// Slack the job offers at that deadline, in mean job times.
    pub slack: f64,
    /// Price.
    pub price: f64,
}

/// A new job's quote: earliest feasible finish and its price curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quote {
    /// Earliest feasible finish, seconds from now.
    pub earliest_finish: f64,
    /// Processing time `p_j` of the new job alone on the cluster, seconds.
    pub processing_secs: f64,
    /// Deadlines from the earliest finish on, with prices (non-increasing
    /// for eqs. 13–15).
    pub curve: Vec<PricePoint>,
}

fn check(p: &PriceParams) -> Result<(), ScheduleError> {
    let bad = |s: &str| Err(ScheduleError::Invalid(s.into()));
    match p.function {
        PriceFunction::Mrm { kappa } | PriceFunction::Exponential { kappa }
            if !(kappa.is_finite() && kappa >= 1.0) =>
        {
            return bad("κ must be ≥ 1");
        }
        PriceFunction::Quadratic { kappa, z }
            if !(kappa.is_finite() && kappa >= 1.0 && z.is_finite() && z > 0.0) =>
        {
            return bad("κ must be ≥ 1 and z > 0");
        }
        _ => {}
    }
    if !(p.mean_job_secs.is_finite() && p.mean_job_secs > 0.0) {
        return bad("mean job time must be positive");
    }
    if !(p.reserve.is_finite() && p.reserve >= 0.0) {
        return bad("reserve must be ≥ 0");
    }
    if p.points < 2 || !(p.span_jobs.is_finite() && p.span_jobs > 0.0) {
        return bad("a curve needs at least 2 points over a positive span");
    }
    Ok(())
}

/// Processing time of a job alone on the cluster, seconds.
pub fn processing_secs(map_work: f64, reduce_work: f64, slots: Slots) -> f64 {
    map_work / slots.map + reduce_work / slots.reduce
}

/// Free processing time in `[from, to)`: the free share of both phases'
/// capacity, averaged, in seconds.
fn free_time(s: &LazySchedule, from: f64, to: f64) -> f64 {
    if to <= from {
        return 0.0;
    }
    let m = s.free_between(0, from, to) / s.capacity[0] * s.quantum;
    let r = s.free_between(1, from, to) / s.capacity[1] * s.quantum;
    (m + r) / 2.0
}

/// Quotes a new job with `map_work`/`reduce_work` (slot-seconds, PI upper
/// bounds) against `queue` on `slots`.
pub fn quote(
    queue: &[QueuedJob],
    slots: Slots,
    map_work: f64,
    reduce_work: f64,
    params: &PriceParams,
) -> Result<Quote, ScheduleError> {
    check(params)?;
    if !(map_work.is_finite() && map_work >= 0.0 && reduce_work.is_finite() && reduce_work >= 0.0)
        || map_work + reduce_work <= 0.0
    {
        return Err(ScheduleError::Invalid(
            "the new job needs positive, finite work".into(),
        ));
    }
    let base = LazySchedule::build(queue, slots, params.quantum)?;
    let f = base.earliest_finish(map_work, reduce_work);
    let pj = processing_secs(map_work, reduce_work, slots);
    let gamma = params.mean_job_secs;
    let rj = params.reserve * pj / gamma;
    let before: Vec<f64> = queue
        .iter()
        .map(|q| free_time(&base, 0.0, q.deadline) / gamma)
        .collect();
    let span = params.span_jobs * gamma;
    let mut curve = Vec::with_capacity(params.points);
    for k in 0..params.points {
        let d = f + span * k as f64 / (params.points - 1) as f64;
        let slack = free_time(&base, f, d) / gamma;
        let price = match params.function {
            PriceFunction::Mrm { kappa } => {
                let mut with = queue.to_vec();
                with.push(QueuedJob {
                    name: "\u{0}new".into(),
                    map_work,
                    reduce_work,
                    deadline: d,
                });
                let after = LazySchedule::build(&with, slots, params.quantum)?;
                let mut charge = 0.0;
                for (q, &b) in queue.iter().zip(&before) {
                    let a = free_time(&after, 0.0, q.deadline) / gamma;
                    let pi = processing_secs(q.map_work, q.reduce_work, slots) / gamma;
                    charge += pi / (a + 1.0) - pi / (b + 1.0);
                }
                kappa * (pj / gamma / (slack + 1.0) + charge)
            }
            PriceFunction::Exponential { kappa } => {
                (kappa * rj * (-slack * gamma / pj).exp()).max(rj)
            }
            PriceFunction::Quadratic { kappa, z } => {
                (kappa * rj - slack.powf(z) / (pj / gamma)).max(rj)
            }
            PriceFunction::LoadAware => {
                let ahead: f64 = queue
                    .iter()
                    .filter(|q| q.deadline <= d)
                    .map(|q| processing_secs(q.map_work, q.reduce_work, slots))
                    .sum();
                let beta = d - ahead - pj;
                let rho = (1.0 - beta / pj).max(0.0);
                rj * (rho * pj / gamma).exp()
            }
        };
        curve.push(PricePoint {
            deadline: d,
            slack,
            price,
        });
    }
    Ok(Quote {
        earliest_finish: f,
        processing_secs: pj,
        curve,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(name: &str, map: f64, deadline: f64) -> QueuedJob {
        QueuedJob {
            name: name.into(),
            map_work: map,
            reduce_work: 0.0,
            deadline,
        }
    }

    const ONE: Slots = Slots {
        map: 1.0,
        reduce: 1.0,
    };

    #[test]
    fn empty_queue_eq13_by_hand() {
        // A 60 s job on an empty single-slot cluster, γ = 60 s, κ = 1: at
        // zero slack it pays p_j/γ = 1; with one mean job of slack (the map
        // phase is free, reduce too: free time = D − f) it pays 1/2.
        let p = PriceParams {
            points: 2,
            span_jobs: 1.0,
            ..PriceParams::default()
        };
        let q = quote(&[], ONE, 60.0, 0.0, &p).unwrap();
        assert_eq!(q.earliest_finish, 60.0);
        assert!((q.curve[0].price - 1.0).abs() < 1e-12);
        assert!((q.curve[1].slack - 1.0).abs() < 1e-12);
        assert!((q.curve[1].price - 0.5).abs() < 1e-12);
    }

    #[test]
    fn jumping_ahead_is_charged() {
        // Figure 7's queue: A (10 s) due 70, B (20 s) due 110. A deadline
        // before B's takes slack from B: eq. (13) charges more than the job's
        // own term; a deadline after everyone's charges nothing extra.
        let queue = [job("A", 10.0, 70.0), job("B", 20.0, 110.0)];
        let p = PriceParams {
            points: 30,
            span_jobs: 2.0,
            mean_job_secs: 60.0,
            ..PriceParams::default()
        };
        let q = quote(&queue, ONE, 80.0, 0.0, &p).unwrap();
        assert_eq!(q.earliest_finish, 90.0);
        let own = |pt: &PricePoint| q.processing_secs / 60.0 / (pt.slack + 1.0);
        let early = q.curve.iter().find(|pt| pt.deadline < 110.0).unwrap();
        assert!(early.price > own(early) + 1e-9, "{early:?}");
        let late = q.curve.last().unwrap();
        assert!(late.deadline > 110.0);
        assert!((late.price - own(late)).abs() < 1e-9, "{late:?}");
        for w in q.curve.windows(2) {
            assert!(w[1].price <= w[0].price + 1e-9, "non-increasing: {w:?}");
        }
    }

    #[test]
    fn alternatives_and_validation() {
        let queue = [job("A", 10.0, 70.0)];
        for f in [
            PriceFunction::Exponential { kappa: 2.0 },
            PriceFunction::Quadratic { kappa: 2.0, z: 2.0 },
            PriceFunction::LoadAware,
        ] {
            let q = quote(
                &queue,
                ONE,
                30.0,
                0.0,
                &PriceParams {
                    function: f,
                    ..PriceParams::default()
                },
            )
            .unwrap();
            let r = 0.1 * 30.0 / 60.0;
            assert!(q.curve.iter().all(|pt| pt.price >= r - 1e-12), "{f:?}");
            assert!(
                q.curve.last().unwrap().price <= q.curve[0].price + 1e-12,
                "{f:?}"
            );
        }
        let bad = |f| {
            quote(
                &queue,
                ONE,
                30.0,
                0.0,
                &PriceParams {
                    function: f,
                    ..PriceParams::default()
                },
            )
        };
        assert!(bad(PriceFunction::Mrm { kappa: 0.5 }).is_err());
        assert!(bad(PriceFunction::Quadratic { kappa: 1.0, z: 0.0 }).is_err());
        assert!(quote(&queue, ONE, 0.0, 0.0, &PriceParams::default()).is_err());
        assert!(quote(
            &queue,
            ONE,
            1.0,
            0.0,
            &PriceParams {
                mean_job_secs: 0.0,
                ..PriceParams::default()
            }
        )
        .is_err());
    }
}
