//! Where shaping pays: the baseline against the shaped run over a grid of
//! offered loads, arrival patterns, forecaster settings and seeds (issue 35).
//!
//! The paper's figures (~100× for the oracle, 7.5–10.6× for the
//! forecasters) are each one point of a curve: shaping shortens turnaround
//! only where reservations leave applications queueing that the used
//! resources could have run. Below saturation the baseline starts almost
//! every application on arrival, and no forecaster can shorten a runtime;
//! far above it both queue. So the benefit is a function of the offered
//! load (requested core-seconds over the cluster's, [`GeneratorParams::load`])
//! and of how much of the work arrives at once ([`Arrivals`]), and this grid
//! draws it: each cell is one [`simulate`] of a generated workload, the same
//! run `skyplan shape simulate --load X` makes, so a cell's speed-up is that
//! command's.
//!
//! The generator is not changed by a sweep: a cell moves only the swept
//! settings (load, arrivals, the forecaster's configuration, the seed) of
//! the base [`Params`].

use super::error::ShapingError;
use super::generator::{Arrivals, GeneratorParams};
use super::params::{generate_for, Params, Policy, Predictor};
use super::simulate::{simulate, ShapingReport};
use crate::csv_cell;
use serde::{Deserialize, Serialize};

/// One forecaster configuration of the grid: what K1 and K2 are and which
/// policy acts on the forecasts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// The forecaster.
    pub predictor: Predictor,
    /// The policy.
    pub policy: Policy,
    /// K1, the guaranteed share of the request.
    pub k1: f64,
    /// K2, the multiple of the forecast's spread.
    pub k2: f64,
}

impl Config {
    /// The configuration `params` runs.
    pub fn of(params: &Params) -> Self {
        Config {
            predictor: params.predictor,
            policy: params.policy,
            k1: params.k1,
            k2: params.k2,
        }
    }

    /// `predictor/policy/k1/k2`, as the command line takes it.
    pub fn label(&self) -> String {
        format!(
            "{}/{}/{}/{}",
            self.predictor.name(),
            self.policy.name(),
            self.k1,
            self.k2
        )
    }
}

/// The grid: a base run and the values of each swept setting. Cells are
/// every combination, loads outermost, then arrivals, configurations and
/// seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadSweep {
    /// Everything a cell does not move (hosts, usage model, history, …).
    pub base: Params,
    /// Offered loads: requested core-seconds over the cluster's over the
    /// arrival span (the paper's regime axis).
    pub loads: Vec<f64>,
    /// Arrival patterns.
    pub arrivals: Vec<Arrivals>,
    /// Forecaster configurations.
    pub configs: Vec<Config>,
    /// Workload seeds.
    pub seeds: Vec<u64>,
}

/// What one cell moves.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadPoint {
    /// Offered load.
    pub load: f64,
    /// Arrival pattern.
    pub arrivals: Arrivals,
    /// Forecaster configuration.
    pub config: Config,
    /// Workload seed.
    pub seed: u64,
}

/// One cell's outcome: the point, then what the baseline and the shaped run
/// measured over all applications. Turnaround is a queueing delay plus the
/// runtime, so `baseline_mean_turnaround_s` against `mean_runtime_s` says
/// how saturated the reserved cluster is, and the allocated shares say how
/// much of it each run kept busy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoadRow {
    /// Offered load (the setting).
    pub load: f64,
    /// Arrival pattern.
    pub arrivals: Arrivals,
    /// Forecaster.
    pub predictor: Predictor,
    /// Policy.
    pub policy: Policy,
    /// K1.
    pub k1: f64,
    /// K2.
    pub k2: f64,
    /// Workload seed.
    pub seed: u64,
    /// Requested load as generated (core-seconds requested over the
    /// cluster's during the arrivals): the setting, measured.
    pub requested_cpu_load: f64,
    /// Used load (what the usage traces consume) over the same.
    pub used_cpu_load: f64,
    /// Mean runtime (s): the turnaround of an application that never waits.
    pub mean_runtime_s: f64,
    /// Baseline mean turnaround over all applications (s).
    pub baseline_mean_turnaround_s: f64,
    /// Shaped mean turnaround over all applications (s).
    pub shaped_mean_turnaround_s: f64,
    /// Baseline / shaped mean turnaround (> 1: shaping is faster): the
    /// paper's "×".
    pub turnaround_speedup: f64,
    /// Mean share of the cores the baseline allocated (%).
    pub baseline_allocated_cpu_pct: f64,
    /// Mean share of the cores the shaped run allocated (%).
    pub shaped_allocated_cpu_pct: f64,
    /// The reservations' cores the shaped run did not allocate, as a share
    /// of the cluster's over the baseline's span (%): the baseline's share
    /// times `1 − shaped / baseline` allocated core-seconds. The two shares
    /// above are each over their own run's span, and a shaped run's span
    /// ends with its last resubmitted straggler: on the demo's runway cell
    /// a load 1e-4 lower stretched it from 3.3 to 9.4 days, and their
    /// difference from 2.1 to 40.8 points, while this moved from 2.1 to
    /// 8.4.
    #[serde(default)]
    pub reclaimed_cpu_pct: f64,
    /// Mean share of the cores the shaped run's applications used (%).
    pub shaped_used_cpu_pct: f64,
    /// Applications that failed at least once in the shaped run (%).
    pub failed_apps_pct: f64,
    /// Crashes in the shaped run.
    pub failures: usize,
    /// Work lost to failures and preemptions over the work needed (%).
    pub wasted_pct: f64,
    /// Applications run unshaped after their last allowed crash.
    pub shaping_off_apps: usize,
    /// The worst-off applications: 99th percentile of shaped / own baseline
    /// turnaround (> 1: slower than under reservations).
    pub worst_off_p99: f64,
}

impl LoadSweep {
    /// The sweep of `base` over `loads` alone: its own arrivals,
    /// configuration and seed.
    pub fn over_loads(base: Params, loads: Vec<f64>) -> Self {
        LoadSweep {
            arrivals: vec![base.workload.arrivals],
            configs: vec![Config::of(&base)],
            seeds: vec![base.workload.seed],
            loads,
            base,
        }
    }

    /// Checks the base run and every swept value, once, before any cell
    /// runs: a bad value is named, not found in cell 17.
    pub fn validate(&self) -> Result<(), ShapingError> {
        self.base.validate()?;
        for (name, len) in [
            ("loads", self.loads.len()),
            ("arrivals", self.arrivals.len()),
            ("configs", self.configs.len()),
            ("seeds", self.seeds.len()),
        ] {
            if len == 0 {
                return Err(ShapingError::param(name, "needs at least one value"));
            }
        }
        for k in 0..self.cells() {
            self.params_at(k)?.validate()?;
        }
        Ok(())
    }

    /// Lengths of the axes, outermost first.
    pub fn dims(&self) -> [usize; 4] {
        [
            self.loads.len(),
            self.arrivals.len(),
            self.configs.len(),
            self.seeds.len(),
        ]
    }

    /// Cells in the grid.
    pub fn cells(&self) -> usize {
        self.dims().iter().product()
    }

    /// Cell `k`'s settings, or `None` past the last cell.
    pub fn point(&self, k: usize) -> Option<LoadPoint> {
        if k >= self.cells() {
            return None;
        }
        let [_, a, c, s] = self.dims();
        Some(LoadPoint {
            load: self.loads[k / (a * c * s)],
            arrivals: self.arrivals[k / (c * s) % a],
            config: self.configs[k / s % c],
            seed: self.seeds[k % s],
        })
    }

    /// The full settings of cell `k`: the base with the point's values.
    pub fn params_at(&self, k: usize) -> Result<Params, ShapingError> {
        let p = self.point(k).ok_or_else(|| {
            ShapingError::param(
                "cell",
                format!("{k} is past the grid's {} cells", self.cells()),
            )
        })?;
        Ok(Params {
            predictor: p.config.predictor,
            policy: p.config.policy,
            k1: p.config.k1,
            k2: p.config.k2,
            workload: GeneratorParams {
                load: p.load,
                arrivals: p.arrivals,
                seed: p.seed,
                ..self.base.workload.clone()
            },
            ..self.base.clone()
        })
    }

    /// Runs cell `k`: the workload generated at its settings, the baseline
    /// and the shaped run. A pure function of the sweep and `k`.
    pub fn run_cell(&self, k: usize) -> Result<LoadRow, ShapingError> {
        let params = self.params_at(k)?;
        let workload = generate_for(&params)?;
        let report = simulate(&workload, &params, |_, _| {})?;
        Ok(LoadRow::of(&report))
    }
}

impl LoadRow {
    /// The row of one baseline-and-shaped report.
    pub fn of(r: &ShapingReport) -> Self {
        let (b, s) = (&r.baseline.summary, &r.shaped.summary);
        let p = &r.params;
        LoadRow {
            load: p.workload.load,
            arrivals: p.workload.arrivals,
            predictor: p.predictor,
            policy: p.policy,
            k1: p.k1,
            k2: p.k2,
            seed: p.workload.seed,
            requested_cpu_load: r.workload.requested_cpu_load,
            used_cpu_load: r.workload.used_cpu_load,
            mean_runtime_s: r.workload.mean_runtime_s,
            baseline_mean_turnaround_s: b.mean_turnaround_s,
            shaped_mean_turnaround_s: s.mean_turnaround_s,
            turnaround_speedup: r.turnaround_speedup,
            baseline_allocated_cpu_pct: b.allocated_cpu_pct,
            shaped_allocated_cpu_pct: s.allocated_cpu_pct,
            reclaimed_cpu_pct: if b.allocated_cpu_s > 0.0 {
                b.allocated_cpu_pct * (1.0 - s.allocated_cpu_s / b.allocated_cpu_s)
            } else {
                0.0
            },
            shaped_used_cpu_pct: s.used_cpu_pct,
            failed_apps_pct: s.failed_apps_pct,
            failures: s.failures,
            wasted_pct: s.wasted_pct,
            shaping_off_apps: s.shaping_off_apps,
            worst_off_p99: r.worst_off.p99_slowdown,
        }
    }

    /// The column names of [`LoadRow::cells`], in order.
    pub const COLUMNS: [&'static str; 22] = [
        "load",
        "arrivals",
        "predictor",
        "policy",
        "k1",
        "k2",
        "seed",
        "requested_cpu_load",
        "used_cpu_load",
        "mean_runtime_s",
        "baseline_mean_turnaround_s",
        "shaped_mean_turnaround_s",
        "turnaround_speedup",
        "baseline_allocated_cpu_pct",
        "shaped_allocated_cpu_pct",
        "reclaimed_cpu_pct",
        "shaped_used_cpu_pct",
        "failed_apps_pct",
        "failures",
        "wasted_pct",
        "shaping_off_apps",
        "worst_off_p99",
    ];

    /// The row as CSV cells, in [`LoadRow::COLUMNS`] order (numbers written
    /// shortest, so they read back equal; names through the one cell rule).
    pub fn cells(&self) -> Vec<String> {
        let n = csv_cell::number;
        let t = |s: &str| csv_cell::text(s).into_owned();
        vec![
            n(self.load),
            t(self.arrivals.name()),
            t(self.predictor.name()),
            t(self.policy.name()),
            n(self.k1),
            n(self.k2),
            self.seed.to_string(),
            n(self.requested_cpu_load),
            n(self.used_cpu_load),
            n(self.mean_runtime_s),
            n(self.baseline_mean_turnaround_s),
            n(self.shaped_mean_turnaround_s),
            n(self.turnaround_speedup),
            n(self.baseline_allocated_cpu_pct),
            n(self.shaped_allocated_cpu_pct),
            n(self.reclaimed_cpu_pct),
            n(self.shaped_used_cpu_pct),
            n(self.failed_apps_pct),
            self.failures.to_string(),
            n(self.wasted_pct),
            self.shaping_off_apps.to_string(),
            n(self.worst_off_p99),
        ]
    }
}
