//! The studio's and the CLI's entry point: a workload, the reservation
//! baseline and the shaped run side by side (§IV-B), with timelines.

use super::error::ShapingError;
use super::metrics::{RunSummary, WorstOff};
use super::model::{Kind, Workload};
use super::params::{Params, Policy, Predictor};
use super::predictor::AppForecast;
use super::run::{run, RunReport, RunSetup};
use super::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// The workload in a few numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadSummary {
    /// Applications.
    pub apps: usize,
    /// Rigid ones (core components only).
    pub rigid: usize,
    /// Components in all.
    pub components: usize,
    /// Largest component count of one application.
    pub max_components: usize,
    /// First to last arrival (s).
    pub arrival_span_s: f64,
    /// Mean runtime (s).
    pub mean_runtime_s: f64,
    /// Longest runtime (s).
    pub max_runtime_s: f64,
    /// Requested core-seconds over the cluster's core-seconds during the
    /// arrivals.
    pub requested_cpu_load: f64,
    /// Used core-seconds (the traces) over the same.
    pub used_cpu_load: f64,
}

impl WorkloadSummary {
    /// The summary of `w` on a cluster of `cluster_cpu` cores.
    pub fn of(w: &Workload, cluster_cpu: f64) -> Self {
        let n = w.applications.len();
        let first = w
            .applications
            .iter()
            .map(|a| a.arrival)
            .fold(f64::INFINITY, f64::min);
        let last = w.applications.iter().map(|a| a.arrival).fold(0.0, f64::max);
        let span = (last - first).max(60.0);
        let mut requested = 0.0;
        let mut used = 0.0;
        for a in &w.applications {
            let (c, _) = a.request(Kind::Core);
            let (e, _) = a.request(Kind::Elastic);
            requested += (c + e) * a.runtime;
            let mean_cpu: f64 =
                a.usage.cpu.iter().map(|&v| v as f64).sum::<f64>() / a.usage.len().max(1) as f64;
            used += (c + e) * a.runtime * mean_cpu;
        }
        WorkloadSummary {
            apps: n,
            rigid: w.applications.iter().filter(|a| a.is_rigid()).count(),
            components: w.applications.iter().map(|a| a.component_count()).sum(),
            max_components: w
                .applications
                .iter()
                .map(|a| a.component_count())
                .max()
                .unwrap_or(0),
            arrival_span_s: last - first,
            mean_runtime_s: w.applications.iter().map(|a| a.runtime).sum::<f64>() / n.max(1) as f64,
            max_runtime_s: w.applications.iter().map(|a| a.runtime).fold(0.0, f64::max),
            requested_cpu_load: requested / (cluster_cpu * span),
            used_cpu_load: used / (cluster_cpu * span),
        }
    }
}

/// The baseline and the shaped run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapingReport {
    /// The settings.
    pub params: Params,
    /// The workload.
    pub workload: WorkloadSummary,
    /// The reservation baseline.
    pub baseline: RunReport,
    /// The shaped run (`params.policy`, `params.predictor`, K1, K2).
    pub shaped: RunReport,
    /// Baseline mean turnaround / shaped mean turnaround, both over all
    /// applications (the paper's "×" improvements; > 1 is better).
    pub turnaround_speedup: f64,
    /// Who pays for it: each application's shaped turnaround over its own
    /// baseline turnaround.
    #[serde(default)]
    pub worst_off: WorstOff,
    /// The application whose timelines are recorded.
    pub timeline_app: Option<String>,
}

/// The application the timelines follow: `params.timeline_app` by name, or
/// the first elastic application running at least an hour after the first
/// tenth of the arrivals, or the longest.
pub fn pick_timeline_app(w: &Workload, params: &Params) -> Result<Option<usize>, ShapingError> {
    if let Some(name) = &params.timeline_app {
        return match w.applications.iter().position(|a| &a.name == name) {
            Some(i) => Ok(Some(i)),
            None => Err(ShapingError::param(
                "timeline_app",
                format!("no application is named `{name}`"),
            )),
        };
    }
    let mut order: Vec<usize> = (0..w.applications.len()).collect();
    order.sort_by(|&a, &b| {
        w.applications[a]
            .arrival
            .total_cmp(&w.applications[b].arrival)
    });
    let skip = order.len() / 10;
    let pick = order[skip..]
        .iter()
        .copied()
        .find(|&i| !w.applications[i].is_rigid() && w.applications[i].runtime >= 3600.0)
        .or_else(|| {
            (0..w.applications.len()).max_by(|&a, &b| {
                w.applications[a]
                    .runtime
                    .total_cmp(&w.applications[b].runtime)
            })
        });
    Ok(pick)
}

/// Validates, forecasts, and runs the baseline and the shaped run.
/// `progress(done, total)` counts forecast applications, then completed
/// applications of each run.
pub fn simulate(
    w: &Workload,
    params: &Params,
    mut progress: impl FnMut(usize, usize),
) -> Result<ShapingReport, ShapingError> {
    let scenario = Scenario::new(w, params)?;
    let n = w.applications.len();
    let fc = if params.predictor == Predictor::Oracle {
        0
    } else {
        n
    };
    let total = fc + 2 * n;
    // Checked before the (long) forecasting, as before.
    pick_timeline_app(w, params)?;
    let scenario = if fc > 0 {
        scenario.forecast(&mut |d| progress(d, total))
    } else {
        scenario
    };
    baseline_and_shaped(&scenario, |d, _| progress(fc + d, total))
}

/// [`simulate`] on forecasts already computed by
/// [`prepare_forecasts`](super::prepare_forecasts)
/// (`params.predictor`'s; empty for the oracle): the studio forecasts once
/// (with its own progress), keeps the forecasts and re-runs for other
/// timelines ([`super::rerun::timelines`]) or policies. The same report as
/// [`simulate`]; `progress(done, total)` counts completed applications of
/// both runs.
pub fn simulate_with(
    w: &Workload,
    params: &Params,
    forecasts: &[AppForecast],
    progress: impl FnMut(usize, usize),
) -> Result<ShapingReport, ShapingError> {
    let scenario = Scenario::new(w, params)?.with_forecasts(forecasts)?;
    baseline_and_shaped(&scenario, progress)
}

/// The reservation baseline and the shaped run of `scenario`.
fn baseline_and_shaped(
    scenario: &Scenario<'_>,
    mut progress: impl FnMut(usize, usize),
) -> Result<ShapingReport, ShapingError> {
    let (w, params) = (scenario.workload(), scenario.params());
    let n = w.applications.len();
    let total = 2 * n;
    let timeline_app = pick_timeline_app(w, params)?;
    let setup = |policy: Policy| RunSetup::from_params(scenario, policy, timeline_app, false);
    let baseline = run(&setup(Policy::Reservation), &mut |d| progress(d, total));
    let shaped = run(&setup(params.policy), &mut |d| progress(n + d, total));
    let speedup = speedup(&baseline.summary, &shaped.summary);
    let worst_off = WorstOff::of(
        &baseline.apps,
        &shaped.apps,
        baseline.summary.makespan_s,
        shaped.summary.makespan_s,
    );
    Ok(ShapingReport {
        params: params.clone(),
        workload: WorkloadSummary::of(w, params.hosts as f64 * params.host_cpu),
        baseline,
        shaped,
        turnaround_speedup: speedup,
        worst_off,
        timeline_app: timeline_app.map(|i| w.applications[i].name.clone()),
    })
}

/// Baseline mean turnaround / shaped mean turnaround (NaN when the shaped
/// mean is 0).
pub fn speedup(baseline: &RunSummary, shaped: &RunSummary) -> f64 {
    if shaped.mean_turnaround_s > 0.0 {
        baseline.mean_turnaround_s / shaped.mean_turnaround_s
    } else {
        f64::NAN
    }
}

/// One run with every event verified against the components (tests): the
/// report's `overcommits` counts host-events over capacity.
pub fn simulate_verified(
    w: &Workload,
    params: &Params,
    policy: Policy,
) -> Result<RunReport, ShapingError> {
    let scenario = Scenario::new(w, params)?.forecast(&mut |_| {});
    let timeline_app = pick_timeline_app(w, params)?;
    Ok(run(
        &RunSetup::from_params(&scenario, policy, timeline_app, true),
        &mut |_| {},
    ))
}
