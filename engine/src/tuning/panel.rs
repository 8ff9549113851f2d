//! The Tuning panel's run, shared by the studio and the plan report: the
//! panel's settings, the window of history jobs cut into groups, the tuning
//! parameters around the configuration in force, and the simulated
//! confirmation (the mean of [`SIM_RUNS`] seeded runs). Moved here from the
//! studio so the report computes what the panel shows.

use super::error::TuneError;
use super::model::{Cluster, GroupConfig, Policy, QueueConf, SchedulerKind, TuneJob};
use super::simulate::{simulate, SimParams};
use super::tune::{SearchMethod, TuneParams};
use super::workload::{jobs_from_swim, SwimTasks};
use crate::model::WorkloadJob;
use serde::{Deserialize, Serialize};

/// Seeded runs of the simulation averaged for the confirmation. Its task
/// times are noisy (σ = 0.1, as on a cluster) and the estimate stands for
/// their mean: one run of a window whose mean latency is mostly one long
/// task sits up to a quarter from it (the demo's windows 61, 161 and 261),
/// five bring that within a few per cent, at a few milliseconds each.
pub const SIM_RUNS: u64 = 5;

/// The Tuning panel's settings: the CLI's defaults (`skyplan tune --help`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuningSettings {
    /// Containers of the cluster R.
    pub containers: u32,
    /// Containers per machine.
    pub per_machine: u32,
    /// Exhaustive search over the grid or recursive random search.
    pub search: SearchMethod,
    /// Seed of RRS and of the jobs' priorities.
    pub seed: u64,
    /// The window's first job (by submission, from 0).
    pub first_job: usize,
    /// Jobs per group.
    pub jobs: usize,
    /// Groups: consecutive windows of `jobs` jobs sharing the cluster.
    pub groups: usize,
    /// Keep the jobs' submission times (otherwise all wait at 0: a tuning
    /// snapshot, as §4.3).
    pub arrivals: bool,
}

impl Default for TuningSettings {
    fn default() -> Self {
        TuningSettings {
            containers: 8,
            per_machine: 4,
            search: SearchMethod::Rrs,
            seed: 7,
            first_job: 0,
            jobs: 20,
            groups: 1,
            arrivals: false,
        }
    }
}

/// The tuning parameters of `settings` around the `current` configuration.
pub fn panel_params(settings: &TuningSettings, current: &GroupConfig) -> TuneParams {
    let mut p = TuneParams {
        scheduler: current.scheduler,
        queues: current.queues.len(),
        containers: settings.containers,
        per_machine: settings.per_machine,
        search: settings.search,
        current: Some(current.clone()),
        ..TuneParams::default()
    };
    p.rrs.seed = settings.seed;
    p
}

/// `n` queues `q1…` of equal share, within §4.2's 10–90 % bounds: the
/// panel's configuration until the planner sets one.
pub fn equal_queues(scheduler: SchedulerKind, n: usize) -> GroupConfig {
    let n = n.max(1);
    let share = match scheduler {
        SchedulerKind::Capacity => 1.0 / n as f64,
        SchedulerKind::Fair => 1.0,
    };
    GroupConfig {
        scheduler,
        queues: (1..=n)
            .map(|k| QueueConf {
                name: format!("q{k}"),
                share,
                min_share: if n > 1 { 0.1 } else { 0.0 },
                max_share: if n > 1 { 0.9 } else { 1.0 },
                policy: Policy::Fifo,
                am_share: None,
                user_limit_factor: None,
            })
            .collect(),
    }
}

/// The window's jobs of `history` (in any order; taken by submission) as
/// `settings.groups` consecutive groups of `settings.jobs` jobs, in
/// `queues` queues (priorities drawn as §4.3), each named by the jobs it
/// holds (`jobs 1–20`).
pub fn window_groups(
    history: &[&WorkloadJob],
    settings: &TuningSettings,
    queues: usize,
) -> Result<Vec<(String, Vec<TuneJob>)>, TuneError> {
    let mut all: Vec<&WorkloadJob> = history.to_vec();
    all.sort_by_key(|j| j.submit);
    if all.is_empty() {
        return Err(TuneError::Window(
            "No job history is loaded: add a SWIM trace or a job history CSV in Traces.".into(),
        ));
    }
    if settings.jobs == 0 || settings.groups == 0 {
        return Err(TuneError::Window(
            "Jobs per group and groups must be at least 1.".into(),
        ));
    }
    let need = settings.jobs.saturating_mul(settings.groups);
    let end = settings.first_job.saturating_add(need);
    if end > all.len() {
        return Err(TuneError::Window(format!(
            "The window needs jobs {}–{} but the history holds {} jobs.",
            settings.first_job.saturating_add(1),
            end,
            all.len()
        )));
    }
    let tasks = SwimTasks {
        seed: settings.seed,
        ..SwimTasks::default()
    };
    (0..settings.groups)
        .map(|g| {
            let from = settings.first_job + g * settings.jobs;
            let slice: Vec<WorkloadJob> = all[from..from + settings.jobs]
                .iter()
                .map(|j| (*j).clone())
                .collect();
            let mut jobs = jobs_from_swim(&slice, queues, &tasks)?;
            if !settings.arrivals {
                jobs.iter_mut().for_each(|j| j.submit = 0.0);
            }
            Ok((format!("jobs {}–{}", from + 1, from + settings.jobs), jobs))
        })
        .collect()
}

/// The simulated confirmation of `config` on `jobs`: the mean latency over
/// [`SIM_RUNS`] seeded runs from `seed` (the same seeds for every
/// configuration, so the recommended and the current one meet the same
/// task times).
pub fn simulated_latency(
    jobs: &[TuneJob],
    cluster: &Cluster,
    config: &GroupConfig,
    seed: u64,
) -> Result<f64, TuneError> {
    let mut sum = 0.0;
    for k in 0..SIM_RUNS {
        let sim = SimParams {
            seed: seed.wrapping_add(k),
            ..SimParams::default()
        };
        sum += simulate(jobs, cluster, config, &sim)?.mean_latency_secs;
    }
    Ok(sum / SIM_RUNS as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::JobFeatures;

    fn job(k: i64) -> WorkloadJob {
        WorkloadJob {
            name: format!("job{k}"),
            // Out of order: the window takes them by submission.
            submit: 1_000 - k * 10,
            features: JobFeatures {
                map_tasks: Some(4 + k as u32 % 3),
                reduce_tasks: Some(1),
                input_bytes: 2e9 * (1 + k % 4) as f64,
                shuffle_bytes: 5e8,
                output_bytes: 1e8,
            },
            map_secs: None,
            reduce_secs: None,
        }
    }

    #[test]
    fn the_window_is_cut_by_submission_into_named_groups() {
        let jobs: Vec<WorkloadJob> = (0..10).map(job).collect();
        let history: Vec<&WorkloadJob> = jobs.iter().collect();
        let settings = TuningSettings {
            first_job: 2,
            jobs: 3,
            groups: 2,
            ..TuningSettings::default()
        };
        let groups = window_groups(&history, &settings, 2).expect("groups");
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].0, "jobs 3–5");
        assert_eq!(groups[1].0, "jobs 6–8");
        assert!(groups.iter().all(|(_, g)| g.len() == 3));
        // A snapshot: everyone waits at 0.
        assert!(groups[0].1.iter().all(|j| j.submit == 0.0));
        // With arrivals, the submissions are kept (relative, in order).
        let kept = TuningSettings {
            arrivals: true,
            ..settings
        };
        let g = window_groups(&history, &kept, 2).expect("groups");
        assert!(g[0].1.windows(2).all(|w| w[0].submit <= w[1].submit));
        // Too few jobs, none, or zero a group: said, not panicking.
        let far = TuningSettings {
            first_job: 8,
            ..settings
        };
        let e = window_groups(&history, &far, 2).unwrap_err().to_string();
        assert!(
            e.contains("needs jobs 9–14 but the history holds 10"),
            "{e}"
        );
        assert!(window_groups(&[], &settings, 2).is_err());
        let zero = TuningSettings {
            jobs: 0,
            ..settings
        };
        assert!(window_groups(&history, &zero, 2).is_err());
        let huge = TuningSettings {
            first_job: usize::MAX,
            ..settings
        };
        assert!(window_groups(&history, &huge, 2).is_err());
    }

    #[test]
    fn the_confirmation_is_the_mean_of_the_seeded_runs() {
        let jobs: Vec<WorkloadJob> = (0..6).map(job).collect();
        let history: Vec<&WorkloadJob> = jobs.iter().collect();
        let settings = TuningSettings {
            jobs: 6,
            ..TuningSettings::default()
        };
        let groups = window_groups(&history, &settings, 2).expect("groups");
        let config = equal_queues(SchedulerKind::Capacity, 2);
        let cluster = Cluster::of(8, 4);
        let mean = simulated_latency(&groups[0].1, &cluster, &config, 7).expect("sim");
        let runs: Vec<f64> = (0..SIM_RUNS)
            .map(|k| {
                let p = SimParams {
                    seed: 7 + k,
                    ..SimParams::default()
                };
                simulate(&groups[0].1, &cluster, &config, &p)
                    .expect("run")
                    .mean_latency_secs
            })
            .collect();
        let expected = runs.iter().sum::<f64>() / SIM_RUNS as f64;
        assert!((mean - expected).abs() < 1e-9, "{mean} vs {expected}");
        assert!(mean > 0.0);
        let p = panel_params(&settings, &config);
        assert_eq!((p.queues, p.containers, p.rrs.seed), (2, 8, 7));
        assert_eq!(p.current.as_ref(), Some(&config));
    }

    #[test]
    fn equal_queues_split_evenly_within_bounds() {
        let c = equal_queues(SchedulerKind::Capacity, 4);
        assert_eq!(c.queues.len(), 4);
        assert!(c.queues.iter().all(|q| (q.share - 0.25).abs() < 1e-12));
        assert!(c.validate().is_ok());
        let one = equal_queues(SchedulerKind::Fair, 0);
        assert_eq!(one.queues.len(), 1);
        assert_eq!(one.queues[0].max_share, 1.0);
    }
}
