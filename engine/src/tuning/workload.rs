//! Job mixes for tuning: SWIM's Facebook jobs turned into tasks, and
//! generated Google-like mixes (§4.2–§4.3).
//!
//! # SWIM → tasks
//!
//! SWIM gives a job's submission time and its input, shuffle and output
//! bytes, no tasks or durations. We give it `⌈input / block⌉` map tasks
//! (at most `max_maps`, at least 1) of `map_overhead + (input/maps) /
//! map_rate` seconds and, with a shuffle, `⌈shuffle / reduce_bytes⌉`
//! reduce tasks (at most `max_reduces`) of `reduce_overhead + (shuffle /
//! reduces) / reduce_rate` seconds, in a second stage. With the defaults
//! (128 MiB blocks at 32 MiB/s, 1 GiB per reduce at 16 MiB/s, 3 s and 5 s
//! overheads) most of the sample's jobs are one map of a few seconds and
//! a few run for minutes, as the trace's 47 % under 32 s. Priorities are
//! drawn uniformly from 2–8 (§4.2: "randomly assign priorities") and map
//! to queues by [`queue_for_priority`].
//!
//! # Google-like mixes
//!
//! The Google trace is not in the repository. [`google_like_mix`] draws
//! jobs the way §4.2 describes its scenarios: priorities 2–8, Poisson
//! submissions, heavy-tailed task counts (1 to 2^U(0,4) tasks) and
//! log-normal task times (median 60 s, σ = 1, the trace's median job of
//! about 3 minutes), a container size of 1–2 cores and 2–4 GB (DRF sees
//! it), and for a share of jobs a task placement constraint (half of the
//! machines).

use super::model::{queue_for_priority, Task, TuneJob};
use super::{check_range, TuneError};
use crate::model::WorkloadJob;
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};

/// How SWIM byte counts become tasks (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwimTasks {
    /// Map input per map task, bytes (default 128 MiB, an HDFS block).
    pub block_bytes: f64,
    /// Map throughput per task, bytes/s (default 32 MiB/s).
    pub map_rate: f64,
    /// Fixed time of a map task, seconds (default 3).
    pub map_overhead: f64,
    /// Shuffle per reduce task, bytes (default 1 GiB).
    pub reduce_bytes: f64,
    /// Reduce throughput per task, bytes/s (default 16 MiB/s).
    pub reduce_rate: f64,
    /// Fixed time of a reduce task, seconds (default 5).
    pub reduce_overhead: f64,
    /// Most map tasks a job gets (default 8: the paper's clusters have 6
    /// and 8 containers).
    pub max_maps: u32,
    /// Most reduce tasks (default 4).
    pub max_reduces: u32,
    /// Seed of the priorities (default 7).
    pub seed: u64,
}

impl Default for SwimTasks {
    fn default() -> Self {
        const MIB: f64 = 1024.0 * 1024.0;
        SwimTasks {
            block_bytes: 128.0 * MIB,
            map_rate: 32.0 * MIB,
            map_overhead: 3.0,
            reduce_bytes: 1024.0 * MIB,
            reduce_rate: 16.0 * MIB,
            reduce_overhead: 5.0,
            max_maps: 8,
            max_reduces: 4,
            seed: 7,
        }
    }
}

impl SwimTasks {
    /// Checks the ranges.
    pub fn validate(&self) -> Result<(), TuneError> {
        for (name, v) in [
            ("block bytes", self.block_bytes),
            ("map rate", self.map_rate),
            ("reduce bytes", self.reduce_bytes),
            ("reduce rate", self.reduce_rate),
        ] {
            check_range(name, v, 1.0, 1e15)?;
        }
        check_range("map overhead", self.map_overhead, 0.0, 1e6)?;
        check_range("reduce overhead", self.reduce_overhead, 0.0, 1e6)?;
        if self.max_maps == 0 {
            return Err(TuneError::BadParam {
                name: "max maps".into(),
                why: "must be ≥ 1".into(),
            });
        }
        Ok(())
    }
}

/// SWIM jobs as tuning jobs for a group of `queues` queues, submission
/// times shifted so the first is at 0.
pub fn jobs_from_swim(
    swim: &[WorkloadJob],
    queues: usize,
    p: &SwimTasks,
) -> Result<Vec<TuneJob>, TuneError> {
    p.validate()?;
    let mut rng = Rng::new(p.seed);
    let t0 = swim.iter().map(|j| j.submit).min().unwrap_or(0);
    swim.iter()
        .enumerate()
        .map(|(index, j)| {
            let f = &j.features;
            if ![f.input_bytes, f.shuffle_bytes]
                .iter()
                .all(|v| v.is_finite() && *v >= 0.0)
            {
                return Err(TuneError::BadJob {
                    index,
                    name: j.name.clone(),
                    why: "byte sizes must be finite and ≥ 0".into(),
                });
            }
            let maps = ((f.input_bytes / p.block_bytes).ceil() as u32).clamp(1, p.max_maps);
            let map_secs = p.map_overhead + f.input_bytes / f64::from(maps) / p.map_rate;
            let mut tasks = vec![
                Task {
                    stage: 0,
                    secs: map_secs.max(0.1),
                };
                maps as usize
            ];
            if f.shuffle_bytes > 0.0 && p.max_reduces > 0 {
                let reduces =
                    ((f.shuffle_bytes / p.reduce_bytes).ceil() as u32).clamp(1, p.max_reduces);
                let secs = p.reduce_overhead + f.shuffle_bytes / f64::from(reduces) / p.reduce_rate;
                tasks.extend(std::iter::repeat_n(
                    Task {
                        stage: 1,
                        secs: secs.max(0.1),
                    },
                    reduces as usize,
                ));
            }
            let priority = rng.int(2, 8) as u8;
            Ok(TuneJob::new(
                j.name.clone(),
                (j.submit - t0) as f64,
                queue_for_priority(priority, queues),
                tasks,
            ))
        })
        .collect()
}

/// A generated Google-like mix of `jobs` jobs for `queues` queues on
/// `machines` machines, arriving over `span_secs` (see the module
/// documentation); `placement_share` of them may use only half the
/// machines.
pub fn google_like_mix(
    seed: u64,
    jobs: usize,
    queues: usize,
    machines: u32,
    span_secs: f64,
    placement_share: f64,
) -> Vec<TuneJob> {
    let mut rng = Rng::new(seed);
    let mut t = 0.0;
    let gap = span_secs / jobs.max(1) as f64;
    (0..jobs)
        .map(|k| {
            let n = (2f64.powf(rng.uniform(0.0, 4.0))).floor() as usize;
            let median = 60.0 * (rng.normal()).exp();
            let tasks: Vec<Task> = (0..n.max(1))
                .map(|_| Task {
                    stage: 0,
                    secs: (median * (0.3 * rng.normal()).exp())
                        .clamp(1.0, 3600.0)
                        .round(),
                })
                .collect();
            let priority = rng.int(2, 8) as u8;
            let mut j = TuneJob::new(
                format!("g{k}"),
                t,
                queue_for_priority(priority, queues),
                tasks,
            );
            j.demand = j.demand.min(8);
            j.cores = if rng.chance(0.3) { 2.0 } else { 1.0 };
            j.mem_gb = if rng.chance(0.3) { 4.0 } else { 2.0 };
            if machines > 1 && rng.chance(placement_share) {
                let half = machines / 2;
                let first = rng.int(0, 1) as u32 * half;
                j.machines = Some((first..first + half.max(1)).collect());
            }
            t += -gap * (1.0 - rng.unit()).ln();
            t = t.round();
            j
        })
        .collect()
}
