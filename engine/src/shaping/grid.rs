//! The K1 × K2 grid of §IV-B (Figure 3): for each forecaster and each
//! (K1, K2), the shaped run against the reservation baseline — turnaround
//! ratio, slack and failures — averaged over several seeded workloads.
//! Forecasts and baselines are computed once per workload and shared by
//! the 24 cells (a forecast does not depend on K1, K2 or the scheduling).

use super::error::{non_negative, ShapingError};
use super::generator::generate;
use super::metrics::{GridCell, RunSummary, WorstOff};
use super::model::{Host, Workload};
use super::params::Policy;
use super::params::{Params, Predictor};
use super::recommend::{recommend, Recommendation};
use super::run::{run, RunSetup};
use super::scenario::{prepare_forecasts, Scenario};
use super::simulate::speedup;
use serde::{Deserialize, Serialize};

/// Settings of [`grid`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GridParams {
    /// K1 values (default 0, 5, 10, 25, 50, 100 %, Figure 3).
    pub k1: Vec<f64>,
    /// K2 values (default 0, 1, 2, 3, Figure 3).
    pub k2: Vec<f64>,
    /// Forecasters (default ARIMA and GP, Figure 3a and 3b).
    pub predictors: Vec<Predictor>,
    /// Seeded workloads averaged (default 3; the paper's 10 runs at full
    /// scale are reported in BENCHMARKS.md).
    pub seeds: usize,
    /// The failure rate the recommendation must meet (% of applications,
    /// default 1).
    pub target_failed_pct: f64,
}

impl Default for GridParams {
    fn default() -> Self {
        GridParams {
            k1: vec![0.0, 0.05, 0.10, 0.25, 0.50, 1.0],
            k2: vec![0.0, 1.0, 2.0, 3.0],
            predictors: vec![Predictor::Arima, Predictor::Gp],
            seeds: 3,
            target_failed_pct: 1.0,
        }
    }
}

impl GridParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), ShapingError> {
        if self.k1.is_empty() || self.k2.is_empty() {
            return Err(ShapingError::param(
                "k1/k2",
                "the grid needs at least one value of each",
            ));
        }
        for &k in &self.k1 {
            non_negative("k1", k)?;
        }
        for &k in &self.k2 {
            non_negative("k2", k)?;
        }
        if self.predictors.is_empty() {
            return Err(ShapingError::param("predictors", "needs at least one"));
        }
        if self.seeds == 0 {
            return Err(ShapingError::param("seeds", "must be at least 1"));
        }
        non_negative("target_failed_pct", self.target_failed_pct)
    }
}

/// The whole grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridReport {
    /// The grid's settings.
    pub grid: GridParams,
    /// The run's settings (policy, cluster, forecasting).
    pub params: Params,
    /// Every cell, predictor by predictor, K2 rows, K1 columns.
    pub cells: Vec<GridCell>,
    /// The baseline of each workload.
    pub baselines: Vec<RunSummary>,
    /// Per forecaster, the best cell for the target failure rate.
    pub recommended: Vec<Recommendation>,
}

/// One run of the grid on `scenario`: no timeline followed.
fn setup<'a>(
    scenario: &'a Scenario<'a>,
    (policy, predictor, k1, k2): (Policy, Predictor, f64, f64),
) -> RunSetup<'a> {
    RunSetup {
        scenario,
        policy,
        predictor,
        k1,
        k2,
        timeline_app: None,
        verify: false,
    }
}

/// The grid on the given workloads (one per seed); `progress(done,
/// total)` counts runs (forecasting a workload counts as one).
pub fn grid(
    workloads: &[Workload],
    params: &Params,
    g: &GridParams,
    mut progress: impl FnMut(usize, usize),
) -> Result<GridReport, ShapingError> {
    params.validate()?;
    g.validate()?;
    if workloads.is_empty() {
        return Err(ShapingError::EmptyWorkload);
    }
    let scenarios = workloads
        .iter()
        .map(|w| Scenario::new(w, params))
        .collect::<Result<Vec<_>, _>>()?;
    let per_pred = 1 + g.k1.len() * g.k2.len();
    let total = workloads.len() * (1 + g.predictors.len() * per_pred);
    let mut done = 0;
    let nk = g.k1.len() * g.k2.len();
    // sums[p][cell] accumulated over workloads.
    let mut acc = vec![vec![[0.0f64; 10]; nk]; g.predictors.len()];
    let mut baselines = Vec::new();
    for scenario in &scenarios {
        let base = run(
            &setup(scenario, (Policy::Reservation, Predictor::Oracle, 0.0, 0.0)),
            &mut |_| {},
        );
        done += 1;
        progress(done, total);
        for (pi, &pred) in g.predictors.iter().enumerate() {
            let p = Params {
                predictor: pred,
                ..params.clone()
            };
            let forecasts = prepare_forecasts(scenario.workload(), &p, &mut |_| {});
            let forecast = scenario.clone().with_forecasts(forecasts)?;
            done += 1;
            progress(done, total);
            for (j, &k2) in g.k2.iter().enumerate() {
                for (i, &k1) in g.k1.iter().enumerate() {
                    let shaped = run(
                        &setup(&forecast, (params.policy, pred, k1, k2)),
                        &mut |_| {},
                    );
                    let s = &shaped.summary;
                    let ratio = speedup(&base.summary, s);
                    let worst = WorstOff::of(
                        &base.apps,
                        &shaped.apps,
                        base.summary.makespan_s,
                        s.makespan_s,
                    );
                    let n = s.apps as f64;
                    let cell = &mut acc[pi][j * g.k1.len() + i];
                    cell[0] += ratio;
                    cell[1] += s.mean_slack_mem_pct;
                    cell[2] += s.mean_slack_cpu_pct;
                    cell[3] += s.failed_apps_pct;
                    cell[4] += 100.0 * s.preempted_apps as f64 / n;
                    cell[5] += s.wasted_pct;
                    cell[6] += s.failures as f64 / n;
                    cell[7] += s.resubmissions as f64 / n;
                    cell[8] += 100.0 * s.shaping_off_apps as f64 / n;
                    cell[9] += worst.p99_slowdown;
                    done += 1;
                    progress(done, total);
                }
            }
        }
        baselines.push(base.summary);
    }
    let m = workloads.len() as f64;
    let mut cells = Vec::with_capacity(g.predictors.len() * nk);
    for (pi, &pred) in g.predictors.iter().enumerate() {
        for (j, &k2) in g.k2.iter().enumerate() {
            for (i, &k1) in g.k1.iter().enumerate() {
                let c = acc[pi][j * g.k1.len() + i];
                cells.push(GridCell {
                    predictor: pred,
                    k1,
                    k2,
                    turnaround_ratio: c[0] / m,
                    slack_mem_pct: c[1] / m,
                    slack_cpu_pct: c[2] / m,
                    failed_apps_pct: c[3] / m,
                    preempted_apps_pct: c[4] / m,
                    wasted_pct: c[5] / m,
                    crashes_per_app: c[6] / m,
                    resubmissions_per_app: c[7] / m,
                    shaping_off_pct: c[8] / m,
                    worst_off_p99: c[9] / m,
                });
            }
        }
    }
    let recommended = g
        .predictors
        .iter()
        .filter_map(|&p| recommend(&cells, p, g.target_failed_pct))
        .collect();
    Ok(GridReport {
        grid: g.clone(),
        params: params.clone(),
        cells,
        baselines,
        recommended,
    })
}

/// The grid on `g.seeds` generated workloads (seeds `params.workload.seed`,
/// +1, …).
pub fn grid_generated(
    params: &Params,
    g: &GridParams,
    progress: impl FnMut(usize, usize),
) -> Result<GridReport, ShapingError> {
    params.validate()?;
    g.validate()?;
    let host = Host {
        cpu: params.host_cpu,
        mem: params.host_mem,
    };
    let workloads = (0..g.seeds as u64)
        .map(|s| {
            let mut wp = params.workload.clone();
            wp.seed = wp.seed.wrapping_add(s);
            generate(&wp, params.hosts, host)
        })
        .collect::<Result<Vec<_>, _>>()?;
    grid(&workloads, params, g, progress)
}
