//! What the Harvest part computes in the worker: the tenants from the
//! workspace's CPU series (and the tenants file) or from the Alibaba
//! machine tables, their classification and
//! harvestable capacity, a tenant's spectrum, a job's class selection and
//! the §6 simulation.

use super::protocol::{
    ClassView, HarvestSettings, HarvestView, JobSource, JobSpec, SelectionView, SimSettings,
};
use crate::parts::harvest::machines::Machines;
use skyplan_engine::harvest::{
    capacity, classify, dag_from_history, group_series, select, simulate, tenant_series,
    tpcds_like, CapacityParams, ClassState, Classification, ClassifyParams, GroupParams, JobDag,
    JobRequest, SelectParams, SimParams, SimReport, TenantInfo, TenantSet,
};
use skyplan_engine::numerics::Rng;
use skyplan_engine::{Resource, UtilizationSeries, Workspace};

/// TPC-DS-like DAGs drawn for the simulation.
const TPCDS_JOBS: usize = 100;

/// What the worker keeps of the last classification.
pub struct Classified {
    /// Its ticket.
    pub ticket: u32,
    /// The tenants on their grid.
    pub set: TenantSet,
    /// Patterns and classes.
    pub classification: Classification,
    /// The settings it was made with.
    pub settings: HarvestSettings,
}

/// The CPU series that make the tenants, and where they came from.
fn chosen_series(
    workspace: &Workspace,
    tenants: Option<&[TenantInfo]>,
    file: Option<&str>,
) -> Result<(Vec<UtilizationSeries>, String), String> {
    let cpu = |s: &&UtilizationSeries| s.resource == Resource::Cpu;
    if let Some(name) = file {
        let f = workspace
            .files()
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| format!("{name} is not loaded"))?;
        let series: Vec<_> = f.data.series.iter().filter(cpu).cloned().collect();
        return Ok((series, name.to_owned()));
    }
    let all = workspace.series().filter(cpu);
    match tenants {
        Some(tenants) => Ok((
            tenant_series(all, tenants),
            "the series of the tenants file's tenants".into(),
        )),
        None => Ok((all.cloned().collect(), "every CPU series loaded".into())),
    }
}

/// Classifies the tenants and their harvestable capacity: the machine
/// tables' when some are in use (machines grouped by `failure_domain_1`,
/// as the CLI's `--machine-meta`/`--machine-usage`), else the workspace's
/// series with the tenants file.
pub fn classify_view(
    workspace: &Workspace,
    tenants: Option<&[TenantInfo]>,
    machines: Option<&Machines>,
    ticket: u32,
    settings: &HarvestSettings,
) -> Result<(HarvestView, Classified), String> {
    let (series, source, tenants) = match machines {
        Some(m) => (
            m.series.clone(),
            format!(
                "Alibaba v2018 {}: {} machines grouped by failure_domain_1",
                m.name(),
                m.machines()
            ),
            Some(m.tenants.as_slice()),
        ),
        None => {
            let (series, source) = chosen_series(workspace, tenants, settings.file.as_deref())?;
            (series, source, tenants)
        }
    };
    if series.is_empty() {
        return Err(match tenants {
            Some(_) => "No loaded CPU series belongs to a tenant of the tenants file (series named tenant/server, or listed in its server_names).".into(),
            None => "No CPU utilization series is loaded: add one in Traces (the demo's tenant_utilization.csv, NAB series), or read Alibaba v2018 machine_meta.csv with machine_usage.csv here.".into(),
        });
    }
    let (set, missing) =
        group_series(&series, tenants, None, &GroupParams::default()).map_err(|e| e.to_string())?;
    let params = ClassifyParams {
        k: settings.k,
        peak_percentile: settings.peak_percentile,
        ..ClassifyParams::default()
    };
    let c = classify(&set, &params).map_err(|e| e.to_string())?;
    let cap = capacity(
        &c,
        &CapacityParams {
            percentile: settings.capacity_percentile,
            ..CapacityParams::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let view = HarvestView {
        ticket,
        source,
        step_secs: c.step_secs,
        slots: c.slots,
        missing,
        tenants: c.tenants.clone(),
        classes: c
            .classes
            .iter()
            .map(|k| ClassView {
                id: k.id.clone(),
                pattern: k.pattern,
                tenants: k.tenants.clone(),
                servers: k.servers,
                average: k.average,
                peak: k.peak,
                average_day: k.average_day.clone(),
            })
            .collect(),
        k: c.k.clone(),
        capacity: cap,
        current_level: set.mean_utilization(),
        history_jobs: workspace
            .workload()
            .filter(|j| j.map_secs.is_some())
            .map(|j| j.name.clone())
            .collect(),
        millis: 0.0,
    };
    let kept = Classified {
        ticket,
        set,
        classification: c,
        settings: settings.clone(),
    };
    Ok((view, kept))
}

/// Algorithm 1 for `job` on the classes, each at its average day's
/// utilization at `job.hour`.
pub fn selection_view(
    workspace: &Workspace,
    last: &Classified,
    job: &JobSpec,
) -> Result<SelectionView, String> {
    if job.hour > 23 {
        return Err("Hour of day: 0–23".into());
    }
    let (name, request) = match &job.history_job {
        Some(name) => {
            let j = workspace
                .workload()
                .find(|j| &j.name == name)
                .ok_or_else(|| format!("{name} is not in the loaded history"))?;
            let dag = dag_from_history(j);
            let concurrency = dag.concurrency().map_err(|e| e.to_string())?;
            (
                format!(
                    "{name}: {} map → {} reduce tasks",
                    dag.vertices[0].tasks,
                    dag.vertices.get(1).map_or(0, |v| v.tasks)
                ),
                JobRequest {
                    last_run_secs: dag.last_run_secs,
                    containers: concurrency.max,
                },
            )
        }
        None => {
            if job.containers == 0 {
                return Err("Containers: at least 1".into());
            }
            (
                format!("a job of {} containers", job.containers),
                JobRequest {
                    last_run_secs: job.last_run_secs,
                    containers: job.containers,
                },
            )
        }
    };
    let classes: Vec<ClassState> = last
        .classification
        .classes
        .iter()
        .map(|c| {
            let day = &c.average_day;
            let current = if day.is_empty() {
                c.average
            } else {
                day[(job.hour * day.len() / 24).min(day.len() - 1)]
            };
            ClassState::of(c, current)
        })
        .collect();
    let mut rng = Rng::new(job.seed);
    let selection = select(&request, &classes, &SelectParams::default(), &mut rng)
        .map_err(|e| e.to_string())?;
    Ok(SelectionView {
        ticket: last.ticket,
        job: name,
        job_type: selection.job_type,
        last_run_secs: request.last_run_secs,
        hour: job.hour,
        selection,
        millis: 0.0,
    })
}

/// The simulation's jobs.
pub fn sim_jobs(workspace: &Workspace, settings: &SimSettings) -> Result<Vec<JobDag>, String> {
    match settings.source {
        JobSource::Tpcds => Ok(tpcds_like(TPCDS_JOBS, settings.seed)),
        JobSource::History => {
            let jobs: Vec<JobDag> = workspace
                .workload()
                .filter(|j| j.map_secs.is_some())
                .map(dag_from_history)
                .collect();
            if jobs.is_empty() {
                Err("No job history with task durations is loaded (the demo's history.csv has one); or choose the TPC-DS-like jobs.".into())
            } else {
                Ok(jobs)
            }
        }
    }
}

/// Runs the §6 simulation on the last classification's tenants.
pub fn simulate_view(
    last: &Classified,
    jobs: &[JobDag],
    settings: &SimSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SimReport, String> {
    let params = SimParams {
        days: settings.days,
        levels: settings.levels.clone(),
        scaling: settings.scaling,
        runs: settings.runs,
        seed: settings.seed,
        classify: ClassifyParams {
            k: last.settings.k,
            peak_percentile: last.settings.peak_percentile,
            ..ClassifyParams::default()
        },
        ..SimParams::default()
    };
    simulate(&last.set, jobs, &params, progress).map_err(|e| e.to_string())
}
