//! The job history the estimators learn from: finished jobs with their
//! features and phase durations ([`crate::model::WorkloadJob`] with
//! `map_secs` and `reduce_secs`, as the `job-history-csv` importer reads
//! them), and a generator of such a history from SWIM samples for when no
//! real one is at hand.
//!
//! # The generator's processing-time model
//!
//! SWIM's Facebook samples carry each job's input, shuffle and output bytes
//! but no task counts or durations. [`history_from_swim`] gives each sampled
//! job `runs_per_job` runs (a recurring job, as in the "same job"
//! baseline's setting; reruns `rerun_period_secs` apart, each with its sizes
//! scaled by `exp(size_jitter · N(0, 1))`, the first run as traced) and
//! derives, per run, with the defaults of [`HistoryParams`]:
//!
//! - map tasks `M = max(1, ⌈input / block⌉)` — one task per HDFS block
//!   (the paper's footnote 3: 64 MB blocks, a 640 MB input gives 10 maps);
//! - reduce tasks `R = ⌈shuffle / reduce_bytes_per_task⌉`, 0 for a
//!   map-only job (no shuffle);
//! - map phase `⌈M / map_slots⌉ · (startup + (input/M)/map_rate +
//!   (shuffle/M)/spill_rate) · e^{σ·N(0,1)}`: waves of tasks over the
//!   cluster's map slots (§6.1: 40 servers × 2 slots), each task's time
//!   proportional to the bytes it reads and writes (a map-only job's maps
//!   also write its output at `output_rate`);
//! - reduce phase (shuffle + reduce, as the paper's "Reduce")
//!   `⌈R / reduce_slots⌉ · (startup + (shuffle/R)/shuffle_rate +
//!   (output/R)/output_rate) · e^{σ·N(0,1)}`, 0 without reduces;
//!
//! with `σ = noise_sigma` drawn independently per run and phase
//! (multiplicative lognormal noise: contention with other jobs, stragglers).
//! It is a pure function of its inputs and seed.

use super::features::{feature_vector, FeatureScale};
use super::{EstimateError, Phase};
use crate::model::{JobFeatures, Timestamp, WorkloadJob};
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};

/// One mebibyte.
const MIB: f64 = 1024.0 * 1024.0;

/// Settings of [`history_from_swim`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HistoryParams {
    /// History jobs (runs) to generate (default 1,000; 0 = every SWIM job
    /// × `runs_per_job`). Fewer come out when the sample is smaller.
    pub jobs: usize,
    /// Runs of each SWIM job (default 3).
    pub runs_per_job: u32,
    /// Time between a job's runs, seconds (default one day).
    pub rerun_period_secs: i64,
    /// Calendar time (epoch seconds) of the SWIM trace's start: a run's
    /// submit is `origin` + the SWIM job's submit + `k · rerun_period_secs`.
    /// Default 0: seconds from the trace start, as SWIM's own times, which a
    /// workspace keeps out of its calendar span (see
    /// [`crate::import::LoadedFile::relative_time`]).
    pub origin: Timestamp,
    /// Bytes per map task, the HDFS block (default 64 MiB, the paper's
    /// footnote 3).
    pub block_bytes: f64,
    /// Shuffle bytes per reduce task (default 1 GiB, a common sizing rule).
    pub reduce_bytes_per_task: f64,
    /// Map slots of the cluster (default 80: §6.1's 40 servers × 2).
    pub map_slots: u32,
    /// Reduce slots (default 80).
    pub reduce_slots: u32,
    /// Per-task startup, seconds (default 2: a JVM launch).
    pub task_startup_secs: f64,
    /// Input a map task reads and maps per second (default 32 MiB/s).
    pub map_bytes_per_sec: f64,
    /// Map output a map task sorts and spills per second (default 64 MiB/s).
    pub spill_bytes_per_sec: f64,
    /// Shuffle bytes a reduce task fetches and merges per second (default
    /// 16 MiB/s: the network is shared).
    pub shuffle_bytes_per_sec: f64,
    /// Output bytes a task writes to HDFS per second (default 32 MiB/s).
    pub output_bytes_per_sec: f64,
    /// Lognormal σ of a rerun's size change (default 0.1).
    pub size_jitter: f64,
    /// Lognormal σ of each phase's duration noise (default 0.2).
    pub noise_sigma: f64,
    /// Seed.
    pub seed: u64,
}

impl Default for HistoryParams {
    fn default() -> Self {
        HistoryParams {
            jobs: 1000,
            runs_per_job: 3,
            rerun_period_secs: 86_400,
            origin: 0,
            block_bytes: 64.0 * MIB,
            reduce_bytes_per_task: 1024.0 * MIB,
            map_slots: 80,
            reduce_slots: 80,
            task_startup_secs: 2.0,
            map_bytes_per_sec: 32.0 * MIB,
            spill_bytes_per_sec: 64.0 * MIB,
            shuffle_bytes_per_sec: 16.0 * MIB,
            output_bytes_per_sec: 32.0 * MIB,
            size_jitter: 0.1,
            noise_sigma: 0.2,
            seed: 7,
        }
    }
}

impl HistoryParams {
    /// Checks the settings at the engine's edge.
    pub fn validate(&self) -> Result<(), EstimateError> {
        if self.runs_per_job == 0 {
            return Err(EstimateError::param("runs_per_job", "must be at least 1"));
        }
        if self.rerun_period_secs < 0 {
            return Err(EstimateError::param("rerun_period_secs", "must be ≥ 0"));
        }
        if self.map_slots == 0 || self.reduce_slots == 0 {
            return Err(EstimateError::param(
                "map_slots/reduce_slots",
                "must be at least 1",
            ));
        }
        for (name, v) in [
            ("block_bytes", self.block_bytes),
            ("reduce_bytes_per_task", self.reduce_bytes_per_task),
            ("map_bytes_per_sec", self.map_bytes_per_sec),
            ("spill_bytes_per_sec", self.spill_bytes_per_sec),
            ("shuffle_bytes_per_sec", self.shuffle_bytes_per_sec),
            ("output_bytes_per_sec", self.output_bytes_per_sec),
        ] {
            if !(v.is_finite() && v > 0.0) {
                return Err(EstimateError::param(
                    name,
                    format!("must be finite and > 0, got {v}"),
                ));
            }
        }
        for (name, v) in [
            ("task_startup_secs", self.task_startup_secs),
            ("size_jitter", self.size_jitter),
            ("noise_sigma", self.noise_sigma),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(EstimateError::param(
                    name,
                    format!("must be finite and ≥ 0, got {v}"),
                ));
            }
        }
        Ok(())
    }
}

/// Turns SWIM samples (the `swim-tsv` importer's jobs: sizes, no durations)
/// into a history of finished jobs with task counts and phase durations,
/// by the model in the module documentation. Sorted by submit time.
pub fn history_from_swim(
    swim: &[WorkloadJob],
    params: &HistoryParams,
) -> Result<Vec<WorkloadJob>, EstimateError> {
    params.validate()?;
    if swim.is_empty() {
        return Err(EstimateError::EmptyHistory);
    }
    for (index, j) in swim.iter().enumerate() {
        let f = &j.features;
        if [f.input_bytes, f.shuffle_bytes, f.output_bytes]
            .iter()
            .any(|v| !(v.is_finite() && *v >= 0.0))
        {
            return Err(EstimateError::BadJob {
                index,
                job: j.name.clone(),
                why: "byte sizes must be finite and ≥ 0".into(),
            });
        }
    }
    let runs = params.runs_per_job as usize;
    let sources = if params.jobs == 0 {
        swim.len()
    } else {
        params.jobs.div_ceil(runs).min(swim.len())
    };
    let mut rng = Rng::new(params.seed);
    let mut out = Vec::with_capacity(sources * runs);
    for j in &swim[..sources] {
        for k in 0..runs {
            let mut scale = || {
                if k == 0 {
                    1.0
                } else {
                    (params.size_jitter * rng.normal()).exp()
                }
            };
            let input = (j.features.input_bytes * scale()).round();
            let shuffle = (j.features.shuffle_bytes * scale()).round();
            let output = (j.features.output_bytes * scale()).round();
            out.push(simulate_run(j, k, input, shuffle, output, params, &mut rng));
        }
    }
    out.sort_by_key(|j| j.submit);
    if params.jobs > 0 {
        out.truncate(params.jobs);
    }
    Ok(out)
}

/// One run of `j` with the given sizes, by the module's model.
fn simulate_run(
    j: &WorkloadJob,
    k: usize,
    input: f64,
    shuffle: f64,
    output: f64,
    p: &HistoryParams,
    rng: &mut Rng,
) -> WorkloadJob {
    let maps = (input / p.block_bytes).ceil().max(1.0);
    let reduces = (shuffle / p.reduce_bytes_per_task).ceil();
    let waves = |tasks: f64, slots: u32| (tasks / f64::from(slots)).ceil();
    let map_output = if reduces == 0.0 {
        output / maps / p.output_bytes_per_sec
    } else {
        0.0
    };
    let map_task = p.task_startup_secs
        + input / maps / p.map_bytes_per_sec
        + shuffle / maps / p.spill_bytes_per_sec
        + map_output;
    let map_secs = waves(maps, p.map_slots) * map_task * (p.noise_sigma * rng.normal()).exp();
    let noise = (p.noise_sigma * rng.normal()).exp();
    let reduce_secs = if reduces == 0.0 {
        0.0
    } else {
        let task = p.task_startup_secs
            + shuffle / reduces / p.shuffle_bytes_per_sec
            + output / reduces / p.output_bytes_per_sec;
        waves(reduces, p.reduce_slots) * task * noise
    };
    let round = |s: f64| (s * 1000.0).round() / 1000.0;
    WorkloadJob {
        name: j.name.clone(),
        submit: p
            .origin
            .saturating_add(j.submit)
            .saturating_add(p.rerun_period_secs.saturating_mul(k as i64)),
        features: JobFeatures {
            map_tasks: Some(maps.min(f64::from(u32::MAX)) as u32),
            reduce_tasks: Some(reduces.min(f64::from(u32::MAX)) as u32),
            input_bytes: input,
            shuffle_bytes: shuffle,
            output_bytes: output,
        },
        map_secs: Some(round(map_secs)),
        reduce_secs: Some(round(reduce_secs)),
    }
}

/// A phase's duration of a history job, checked.
pub(crate) fn duration(j: &WorkloadJob, index: usize, phase: Phase) -> Result<f64, EstimateError> {
    let secs = match phase {
        Phase::Map => j.map_secs,
        Phase::Reduce => j.reduce_secs,
    };
    let bad = |why: String| EstimateError::BadJob {
        index,
        job: j.name.clone(),
        why,
    };
    match secs {
        None => Err(bad(format!(
            "no {phase} duration (SWIM traces carry none: generate a history from them)"
        ))),
        Some(s) if s.is_finite() && s >= 0.0 => Ok(s),
        Some(s) => Err(bad(format!(
            "{phase} duration must be a finite number of seconds ≥ 0, got {s}"
        ))),
    }
}

/// The feature rows (on `scale`) and the `phase` durations of a history,
/// every job checked: known task counts, finite non-negative sizes and
/// durations.
pub fn training_data(
    jobs: &[WorkloadJob],
    phase: Phase,
    scale: FeatureScale,
) -> Result<(Vec<Vec<f64>>, Vec<f64>), EstimateError> {
    if jobs.is_empty() {
        return Err(EstimateError::EmptyHistory);
    }
    let mut x = Vec::with_capacity(jobs.len());
    let mut y = Vec::with_capacity(jobs.len());
    for (index, j) in jobs.iter().enumerate() {
        let row = feature_vector(&j.features, scale).map_err(|why| EstimateError::BadJob {
            index,
            job: j.name.clone(),
            why,
        })?;
        x.push(row.to_vec());
        y.push(duration(j, index, phase)?);
    }
    Ok((x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A SWIM sample: sizes only.
    fn swim(name: &str, submit: i64, input: f64, shuffle: f64, output: f64) -> WorkloadJob {
        let features = JobFeatures {
            input_bytes: input,
            shuffle_bytes: shuffle,
            output_bytes: output,
            ..JobFeatures::default()
        };
        let (map_secs, reduce_secs) = (None, None);
        WorkloadJob {
            name: name.into(),
            submit,
            features,
            map_secs,
            reduce_secs,
        }
    }

    #[test]
    fn model_without_noise_is_the_formula() {
        let p = HistoryParams {
            noise_sigma: 0.0,
            runs_per_job: 1,
            ..HistoryParams::default()
        };
        // 640 MiB in: 10 maps, one wave of 2 + 2 + 0.5·(32/64)… seconds.
        let jobs = [
            swim("a", 5, 640.0 * MIB, 2048.0 * MIB, 64.0 * MIB),
            swim("b", 1, 100.0, 0.0, 3.0 * 32.0 * MIB),
        ];
        let h = history_from_swim(&jobs, &p).unwrap();
        assert_eq!(h[0].name, "b");
        let a = &h[1];
        assert_eq!(a.features.map_tasks, Some(10));
        assert_eq!(a.features.reduce_tasks, Some(2));
        // Map: 2 s startup + 64 MiB / 32 MiB/s + 204.8 MiB / 64 MiB/s.
        assert!((a.map_secs.unwrap() - (2.0 + 2.0 + 3.2)).abs() < 1e-3);
        // Reduce: 2 + 1024 MiB / 16 MiB/s + 32 MiB / 32 MiB/s.
        assert!((a.reduce_secs.unwrap() - (2.0 + 64.0 + 1.0)).abs() < 1e-3);
        // Map-only: one map writes the 96 MiB output (3 s), no reduce phase.
        let b = &h[0];
        assert_eq!(b.features.reduce_tasks, Some(0));
        assert_eq!(b.reduce_secs, Some(0.0));
        assert!((b.map_secs.unwrap() - 5.0).abs() < 1e-3, "{:?}", b.map_secs);
        // 100 maps over 80 slots: two waves.
        let big = history_from_swim(&[swim("c", 0, 100.0 * 64.0 * MIB, 0.0, 0.0)], &p).unwrap();
        assert!((big[0].map_secs.unwrap() - 2.0 * 4.0).abs() < 1e-3);
    }

    #[test]
    fn reruns_are_seeded_and_sorted() {
        let jobs: Vec<WorkloadJob> = (0..10)
            .map(|i| swim(&format!("job{i}"), 10 * i, 1e6 * (i + 1) as f64, 5e5, 1e5))
            .collect();
        let p = HistoryParams {
            jobs: 20,
            ..HistoryParams::default()
        };
        let h = history_from_swim(&jobs, &p).unwrap();
        assert_eq!(h.len(), 20);
        assert!(h.windows(2).all(|w| w[0].submit <= w[1].submit));
        // Seven sources × 3 runs = 21, the last one cut.
        assert_eq!(h.iter().filter(|j| j.name == "job0").count(), 3);
        assert_eq!(h, history_from_swim(&jobs, &p).unwrap());
        let other = history_from_swim(
            &jobs,
            &HistoryParams {
                seed: 8,
                ..p.clone()
            },
        )
        .unwrap();
        assert_ne!(h, other);
        let (x, y) = training_data(&h, Phase::Reduce, FeatureScale::Log).unwrap();
        assert_eq!((x.len(), y.len(), x[0].len()), (20, 20, 7));
        // An origin shifts every submit and nothing else.
        let dated = history_from_swim(
            &jobs,
            &HistoryParams {
                origin: 1_793_577_600,
                ..p.clone()
            },
        )
        .unwrap();
        for (d, r) in dated.iter().zip(&h) {
            assert_eq!(d.submit, r.submit + 1_793_577_600);
            assert_eq!((&d.features, d.map_secs), (&r.features, r.map_secs));
        }
    }

    #[test]
    fn invalid_inputs_are_refused() {
        let p = HistoryParams::default();
        assert_eq!(history_from_swim(&[], &p), Err(EstimateError::EmptyHistory));
        let nan = [swim("x", 0, f64::NAN, 0.0, 0.0)];
        assert!(matches!(
            history_from_swim(&nan, &p),
            Err(EstimateError::BadJob { index: 0, .. })
        ));
        let bad = HistoryParams {
            noise_sigma: -1.0,
            ..HistoryParams::default()
        };
        assert!(matches!(
            history_from_swim(&[swim("x", 0, 1.0, 0.0, 0.0)], &bad),
            Err(EstimateError::Param { .. })
        ));
        // SWIM jobs have no durations: not a history.
        let e = training_data(
            &[swim("x", 0, 1.0, 0.0, 0.0)],
            Phase::Map,
            FeatureScale::Log,
        )
        .unwrap_err();
        assert!(e.to_string().contains("task"), "{e}");
    }
}
