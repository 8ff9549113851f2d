//! From a processing-time estimate (MRM §3.2, seconds per phase) to the
//! work the scheduler plans with (slot-seconds per phase).
//!
//! MRM plans with the upper end of each phase's prediction interval (§5)
//! and treats it as the job's processing time `p_j`: in Figure 7 a job
//! "requires 10 seconds of execution time over 16 map slots" — the whole
//! cluster for its duration. The work of a phase is therefore
//!
//! `work = PI upper (s) × slots` slot-seconds,
//!
//! with `slots` the cluster's slots of that phase, and the job's processing
//! time alone ([`super::processing_secs`], `work / slots` per phase) is the
//! sum of its phases' upper bounds: the duration the estimate promises. A
//! phase without tasks (a map-only job's reduce) has no work.
//!
//! Counting only the slots the job's tasks could occupy
//! (`upper × min(tasks, slots)`) would describe the cluster's load more
//! tightly, but the lazy schedule is fluid — a job may spread its work over
//! every slot of its phase — so a job with few tasks would be offered a
//! finish long before its estimated duration, a deadline it cannot meet.
//! Planning each job as occupying the cluster is conservative, as the PI
//! upper bound is: deadlines are met, at the cost of earliness.
//!
//! The estimates are durations on the cluster the history ran on, so the
//! slots given should be that cluster's.

use super::schedule::{ScheduleError, Slots};
use crate::estimate::{JobEstimate, Method, Phase};
use crate::model::{JobFeatures, WorkloadJob};
use serde::{Deserialize, Serialize};

/// A new job's planned work by one estimation method.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobWork {
    /// The method whose estimate was used.
    pub method: Method,
    /// PI upper bound of the map phase, seconds.
    pub map_upper_secs: f64,
    /// PI upper bound of the reduce phase (shuffle + reduce), seconds.
    pub reduce_upper_secs: f64,
    /// Map work, slot-seconds.
    pub map_work: f64,
    /// Reduce work, slot-seconds.
    pub reduce_work: f64,
}

/// Slot-seconds of a phase that lasts `upper_secs` on a cluster with
/// `slots` slots of that phase (negative durations count as zero).
pub fn phase_work(upper_secs: f64, slots: f64) -> f64 {
    upper_secs.max(0.0) * slots
}

/// The work of the job described by `features`, from `estimate` by
/// `method`, on `slots`. Fails when the method has no estimate for a phase
/// the job has (with the method's reason) or the slots are not positive.
pub fn job_work(
    estimate: &JobEstimate,
    method: Method,
    features: &JobFeatures,
    slots: Slots,
) -> Result<JobWork, ScheduleError> {
    if !(slots.map.is_finite() && slots.map > 0.0 && slots.reduce.is_finite() && slots.reduce > 0.0)
    {
        return Err(ScheduleError::Invalid(
            "slot counts must be positive".into(),
        ));
    }
    let upper = |phase: Phase| -> Result<f64, ScheduleError> {
        let Some(ph) = estimate.phases.iter().find(|p| p.phase == phase) else {
            return Err(ScheduleError::Invalid(format!("no {phase} estimate")));
        };
        let m = ph.methods.iter().find(|m| m.method == method);
        match m.and_then(|m| m.prediction) {
            Some(p) => Ok(p.upper.max(0.0)),
            None => Err(ScheduleError::Invalid(format!(
                "{method} has no {phase} estimate: {}",
                m.and_then(|m| m.note.clone())
                    .unwrap_or_else(|| "not computed".into())
            ))),
        }
    };
    let map_upper_secs = upper(Phase::Map)?;
    let reduce_upper_secs = if Phase::Reduce.applies(features) {
        upper(Phase::Reduce)?
    } else {
        0.0
    };
    Ok(JobWork {
        method,
        map_upper_secs,
        reduce_upper_secs,
        map_work: phase_work(map_upper_secs, slots.map),
        reduce_work: phase_work(reduce_upper_secs, slots.reduce),
    })
}

/// The mean processing time γ of the finished jobs in `history`
/// (seconds; the slack unit of the price functions): by the conversion
/// above a job's processing time is the sum of its phase durations, so γ is
/// the mean of `map_secs + reduce_secs` (on any cluster).
/// Jobs without durations are skipped; `None` when no job has a positive
/// processing time.
pub fn mean_processing_secs(history: &[WorkloadJob]) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0usize);
    for j in history {
        let Some(map) = j.map_secs else { continue };
        let p = map.max(0.0) + j.reduce_secs.unwrap_or(0.0).max(0.0);
        if p.is_finite() {
            sum += p;
            n += 1;
        }
    }
    let mean = sum / n as f64;
    (n > 0 && mean > 0.0).then_some(mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::estimator::PhaseEstimate;
    use crate::estimate::{MethodEstimate, Prediction};

    fn pred(upper: f64) -> Option<Prediction> {
        Some(Prediction {
            mean: upper / 2.0,
            std_dev: 1.0,
            lower: 0.0,
            upper,
        })
    }

    fn estimate(map: Option<Prediction>, reduce: Option<Prediction>) -> JobEstimate {
        let phase = |phase, gp: Option<Prediction>| PhaseEstimate {
            phase,
            methods: vec![
                MethodEstimate {
                    method: Method::Gp,
                    prediction: gp,
                    note: None,
                },
                MethodEstimate {
                    method: Method::SameJob,
                    prediction: None,
                    note: Some("too few past runs".into()),
                },
            ],
        };
        JobEstimate {
            job: None,
            level: 0.95,
            phases: vec![phase(Phase::Map, map), phase(Phase::Reduce, reduce)],
        }
    }

    fn features(maps: u32, reduces: u32) -> JobFeatures {
        JobFeatures {
            map_tasks: Some(maps),
            reduce_tasks: Some(reduces),
            input_bytes: 1.0,
            shuffle_bytes: 1.0,
            output_bytes: 1.0,
        }
    }

    const SLOTS: Slots = Slots {
        map: 80.0,
        reduce: 40.0,
    };

    #[test]
    fn upper_bound_times_slots() {
        let e = estimate(pred(100.0), pred(30.0));
        let w = job_work(&e, Method::Gp, &features(10, 200), SLOTS).unwrap();
        assert_eq!((w.map_work, w.reduce_work), (8000.0, 1200.0));
        assert_eq!((w.map_upper_secs, w.reduce_upper_secs), (100.0, 30.0));
        // Alone on the cluster the job takes its upper bounds.
        let p = super::super::processing_secs(w.map_work, w.reduce_work, SLOTS);
        assert!((p - 130.0).abs() < 1e-12);
        assert_eq!(phase_work(5.0, 8.0), 40.0);
        assert_eq!(phase_work(-1.0, 8.0), 0.0);
    }

    #[test]
    fn map_only_and_missing_methods() {
        let e = estimate(pred(100.0), None);
        let w = job_work(&e, Method::Gp, &features(4, 0), SLOTS).unwrap();
        assert_eq!(w.reduce_work, 0.0);
        let err = job_work(&e, Method::Gp, &features(4, 2), SLOTS).unwrap_err();
        assert!(
            err.to_string().contains("GP has no reduce estimate"),
            "{err}"
        );
        let err = job_work(&e, Method::SameJob, &features(4, 0), SLOTS).unwrap_err();
        assert!(err.to_string().contains("too few past runs"), "{err}");
        let zero = Slots {
            map: 0.0,
            reduce: 1.0,
        };
        assert!(job_work(&e, Method::Gp, &features(4, 0), zero).is_err());
    }

    #[test]
    fn mean_processing_time_of_a_history() {
        let job = |maps, map_secs: Option<f64>, reduce_secs| WorkloadJob {
            name: "j".into(),
            submit: 0,
            features: features(maps, 40),
            map_secs,
            reduce_secs,
        };
        // 10 + 5 s and 10 s (no reduce time): 12.5 s on average; jobs
        // without durations do not count.
        let h = [
            job(160, Some(10.0), Some(5.0)),
            job(8, Some(10.0), None),
            job(8, None, None),
        ];
        assert_eq!(mean_processing_secs(&h), Some(12.5));
        assert_eq!(mean_processing_secs(&h[2..]), None);
    }
}
