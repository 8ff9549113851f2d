//! One whole tuning pass (Fig. 4, step 2): the group-level search of every
//! group, then, with several groups, each group's best latency at every
//! size between its bounds (eq. 2), the reductions of eq. (4) and
//! Algorithm 3's split — and the group-level best again at the size each
//! group receives. What the CLI's `tune` prints and a Web Worker calls.

use super::cluster_dp::{cluster_dp, ClusterSplit, DpVariant, GroupCurve};
use super::latency::compare_unchecked;
use super::model::{validate_jobs, Cluster, GroupConfig, SchedulerKind, TuneJob};
use super::rules::{ConstraintRule, ExecRule, RuleSet};
use super::search::{exhaustive, rrs, Candidate, Point, RrsParams, SearchReport, SearchSpace};
use super::TuneError;
use serde::{Deserialize, Serialize};

/// Exhaustive search or RRS.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SearchMethod {
    /// Recursive random search (the default, as the paper).
    #[default]
    Rrs,
    /// Every grid point.
    Exhaustive,
}

/// Settings of a tuning pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneParams {
    /// The scheduler (default Capacity), unless `current` says otherwise.
    pub scheduler: SchedulerKind,
    /// Queues per group without `current` (default 2, §4.3's smaller case).
    pub queues: usize,
    /// The cluster's containers R (default 8, §4.3's larger Facebook
    /// cluster).
    pub containers: u32,
    /// Containers per machine (default 4, §4.5's nodes).
    pub per_machine: u32,
    /// Search method (default RRS).
    pub search: SearchMethod,
    /// RRS settings.
    pub rrs: RrsParams,
    /// Constraint rule (default: queue limits and placement).
    pub constraint: ConstraintRule,
    /// Execution-time rule (default Algorithm 2).
    pub exec: ExecRule,
    /// The current configuration of every group: its queues' names and
    /// bounds seed the grid (default: §4.3's `q1…` with 10–90 %).
    pub current: Option<GroupConfig>,
}

impl Default for TuneParams {
    fn default() -> Self {
        TuneParams {
            scheduler: SchedulerKind::Capacity,
            queues: 2,
            containers: 8,
            per_machine: 4,
            search: SearchMethod::Rrs,
            rrs: RrsParams::default(),
            constraint: ConstraintRule::LimitsAndPlacement,
            exec: ExecRule::Algorithm2,
            current: None,
        }
    }
}

impl TuneParams {
    /// Checks the counts: at least one container, one per machine, one
    /// queue.
    pub fn validate(&self) -> Result<(), TuneError> {
        for (name, v) in [
            ("containers", self.containers as usize),
            ("containers per machine", self.per_machine as usize),
            ("queues", self.queues),
        ] {
            if v == 0 {
                return Err(TuneError::BadParam {
                    name: name.into(),
                    why: "must be ≥ 1".into(),
                });
            }
        }
        self.rrs.validate()?;
        if let Some(c) = &self.current {
            c.validate()?;
        }
        Ok(())
    }

    /// The grid these settings search.
    pub fn space(&self) -> Result<SearchSpace, TuneError> {
        match &self.current {
            Some(c) => SearchSpace::for_queues(c.scheduler, c.queues.clone()),
            None => SearchSpace::paper(self.scheduler, self.queues),
        }
    }
}

/// One group's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupResult {
    /// Group name.
    pub name: String,
    /// Containers it receives.
    pub containers: u32,
    /// The search at that size (every candidate's estimated latency).
    pub search: SearchReport,
    /// `L*(o, r)` from the lower bound up (several groups only).
    pub curve: Vec<f64>,
}

/// A tuning pass's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    /// Per group.
    pub groups: Vec<GroupResult>,
    /// The cluster-level split (one group: all containers).
    pub split: ClusterSplit,
}

/// Tunes `groups` (name, jobs) sharing `params.containers`;
/// `progress(done, total)` counts group-level searches.
pub fn tune(
    groups: &[(String, Vec<TuneJob>)],
    params: &TuneParams,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<TuneReport, TuneError> {
    params.validate()?;
    let space = params.space()?;
    space.validate()?;
    if groups.is_empty() {
        return Err(TuneError::BadParam {
            name: "groups".into(),
            why: "no group to tune".into(),
        });
    }
    for (_, jobs) in groups {
        validate_jobs(jobs, space.queues.len())?;
    }
    let rules = RuleSet::for_config(
        &space.config(&space.grid()[0]),
        params.constraint,
        params.exec,
    );
    let search = |jobs: &[TuneJob], r: u32| -> Result<SearchReport, TuneError> {
        let cluster = Cluster::of(r, params.per_machine);
        match params.search {
            SearchMethod::Exhaustive => exhaustive(jobs, &cluster, &space, rules, &mut |_, _| {}),
            SearchMethod::Rrs => rrs(jobs, &cluster, &space, rules, &params.rrs, &mut |_, _| {}),
        }
    };
    // Bounds: a job's AM and one task (one container without AMs); at
    // most every job at full width.
    let per_job = 1 + u32::from(rules.application_master);
    // The fewest containers at which every queue's maximum still holds a
    // job's AM and one task, and every queue's AM leaves a container for a
    // task (else the AMs hold the group and nothing runs, in YARN too).
    let floor = per_job.max(u32::from(rules.application_master) * space.queues.len() as u32 + 1);
    let least = (floor..=params.containers.max(floor))
        .find(|&r| {
            space
                .queues
                .iter()
                .all(|q| ((q.max_share * f64::from(r) + 1e-9).floor() as u32).max(1) >= per_job)
        })
        .unwrap_or(floor);
    if params.containers < least * groups.len() as u32 {
        return Err(TuneError::BadParam {
            name: "containers".into(),
            why: format!(
                "{} for {} group(s): each needs {least} (a job's AM and one task within its queue's maximum)",
                params.containers,
                groups.len()
            ),
        });
    }
    let bounds: Vec<(u32, u32)> = groups
        .iter()
        .map(|(_, jobs)| {
            let upper: u32 = jobs.iter().map(|j| j.demand + 1).sum::<u32>();
            (least, upper.clamp(least, params.containers))
        })
        .collect();
    let mut curves = vec![Vec::new(); groups.len()];
    let split = if groups.len() == 1 {
        cluster_dp(
            &[GroupCurve {
                name: groups[0].0.clone(),
                lower: params.containers,
                reduction: vec![0.0],
            }],
            params.containers,
            DpVariant::AsWritten,
            false,
        )?
    } else {
        let total: usize = bounds.iter().map(|(l, u)| (u - l + 1) as usize).sum();
        let mut done = 0;
        let mut gc = Vec::with_capacity(groups.len());
        for (((name, jobs), &(lo, hi)), curve) in groups.iter().zip(&bounds).zip(&mut curves) {
            for r in lo..=hi {
                curve.push(search(jobs, r)?.best().latency_secs);
                done += 1;
                progress(done, total + groups.len());
            }
            gc.push(GroupCurve::from_latencies(name.clone(), lo, curve));
        }
        cluster_dp(&gc, params.containers, DpVariant::AsWritten, false)?
    };
    let mut out = Vec::with_capacity(groups.len());
    for (k, (name, jobs)) in groups.iter().enumerate() {
        let containers = split.containers[k].max(1);
        let mut found = search(jobs, containers)?;
        // The current configuration wins ties.
        if let Some(current) = &params.current {
            let latency_secs = compare_unchecked(
                jobs,
                &Cluster::of(containers, params.per_machine),
                current,
                rules.with_config(current),
            )?
            .mean_latency_secs;
            found.prefer_current(Candidate {
                point: Point {
                    shares: Vec::new(),
                    policy: current.queues[0].policy,
                },
                config: current.clone(),
                latency_secs,
            });
        }
        out.push(GroupResult {
            name: name.clone(),
            containers,
            search: found,
            curve: std::mem::take(&mut curves[k]),
        });
        progress(k + 1, groups.len());
    }
    Ok(TuneReport { groups: out, split })
}
