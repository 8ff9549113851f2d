//! What the Shaping part computes in the worker and sends: a workload read
//! from files (told apart by their headers), the baseline and the shaped
//! run on forecasts computed once and kept, another application's
//! timelines from those forecasts, Figure 2's policies, the K1 × K2 grid
//! for one forecaster, and the CSV exports.

use super::protocol::{
    AppChoice, GridView, ShapingSettings, ShapingView, TimelinesView, WorkloadSource,
};
use skyplan_engine::shaping::{
    generate_for, grid, pick_timeline_app, prepare_forecasts, recommend, simulate_with,
    AppForecast, AppOutcome, GridParams, GridReport, Params, Predictor, ShapingReport,
    Timelines, Workload,
};
use std::fmt::Write as _;

pub use skyplan_engine::shaping::{error_text, read_checked as read_files};

/// What the worker keeps of the last run: enough to re-run it for other
/// timelines and policies, and to export it.
pub struct LastRun {
    /// The run's ticket.
    pub ticket: u32,
    /// The workload.
    pub workload: Workload,
    /// The settings.
    pub params: Params,
    /// `params.predictor`'s forecasts (empty for the oracle).
    pub forecasts: Vec<AppForecast>,
    /// Per-application outcomes of the baseline and the shaped run.
    pub outcomes: [Vec<AppOutcome>; 2],
}

/// Calls `post(done, total)` at most once per percent of the work (and at
/// the end): the engine reports every application, and a message per
/// application would flood the page.
pub struct Throttle<F: FnMut(usize, usize)> {
    post: F,
    last: Option<usize>,
}

impl<F: FnMut(usize, usize)> Throttle<F> {
    /// Reports through `post`.
    pub fn new(post: F) -> Self {
        Throttle { post, last: None }
    }

    /// `done` of `total` items.
    pub fn tick(&mut self, done: usize, total: usize) {
        let pct = (done * 100).checked_div(total).unwrap_or(100);
        if self.last != Some(pct) || done == total {
            self.last = Some(pct);
            (self.post)(done, total);
        }
    }
}

/// The run's workload: generated, or the one read from files.
pub fn workload_for(
    settings: &ShapingSettings,
    loaded: Option<&(String, Workload)>,
) -> Result<(String, Workload), String> {
    match settings.source {
        WorkloadSource::Generated => {
            let w = generate_for(&settings.params).map_err(|e| error_text(&e))?;
            let g = &settings.params.workload;
            Ok((
                format!(
                    "generated: {} applications, seed {}, load {}",
                    g.apps, g.seed, g.load
                ),
                w,
            ))
        }
        WorkloadSource::Files => loaded.cloned().ok_or_else(|| {
            "No workload file is read: choose files in Workload, or the generator.".to_owned()
        }),
    }
}

/// The applications, for the picker.
fn choices(w: &Workload) -> Vec<AppChoice> {
    w.applications
        .iter()
        .map(|a| AppChoice {
            name: a.name.clone(),
            elastic: !a.is_rigid(),
            components: a.component_count(),
            arrival_s: a.arrival,
            runtime_s: a.runtime,
        })
        .collect()
}

/// Forecasts every application (progress per application), then runs the
/// baseline and the shaped run on them. `now` is the clock the forecasts
/// are timed by (milliseconds; [`crate::protocol::now_ms`] in the worker,
/// a stand-in in native tests, which have no `performance`).
pub fn run(
    ticket: u32,
    settings: &ShapingSettings,
    loaded: Option<&(String, Workload)>,
    forecast_progress: &mut dyn FnMut(usize, usize),
    run_progress: &mut dyn FnMut(usize, usize),
    now: &dyn Fn() -> f64,
) -> Result<(ShapingView, LastRun), String> {
    let t0 = now();
    let params = &settings.params;
    params.validate().map_err(|e| error_text(&e))?;
    let (source, workload) = workload_for(settings, loaded)?;
    workload
        .validate(&params.cluster())
        .map_err(|e| error_text(&e))?;
    pick_timeline_app(&workload, params).map_err(|e| error_text(&e))?;
    let n = workload.applications.len();
    let forecasts = if params.predictor == Predictor::Oracle {
        Vec::new()
    } else {
        prepare_forecasts(&workload, params, &mut |d| forecast_progress(d, n))
    };
    let forecast_millis = now() - t0;
    let mut report =
        simulate_with(&workload, params, &forecasts, run_progress).map_err(|e| error_text(&e))?;
    let timelines = take_timelines(&workload, &mut report, params.timeline_host);
    let view = ShapingView {
        ticket,
        source,
        apps: choices(&workload),
        timelines: timelines.map(|timelines| TimelinesView { ticket, timelines }),
        forecast_millis,
        millis: 0.0,
        report,
    };
    let last = LastRun {
        ticket,
        outcomes: [
            view.report.baseline.apps.clone(),
            view.report.shaped.apps.clone(),
        ],
        workload,
        params: params.clone(),
        forecasts,
    };
    Ok((view, last))
}

/// Moves the report's recorded timelines out (they travel once, as
/// [`Timelines`]).
fn take_timelines(w: &Workload, report: &mut ShapingReport, host: usize) -> Option<Timelines> {
    let name = report.timeline_app.clone()?;
    let app = w.applications.iter().position(|a| a.name == name)?;
    Some(Timelines::taken_from(
        app,
        host,
        &mut report.baseline,
        &mut report.shaped,
    ))
}

/// The K1 × K2 grid of Figure 3 for the settings' forecaster, on one
/// workload: generated with `apps` applications, or the one read from
/// files. `progress(done, total)` counts runs.
pub fn run_grid(
    ticket: u32,
    settings: &ShapingSettings,
    apps: usize,
    target_failed_pct: f64,
    loaded: Option<&(String, Workload)>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GridView, String> {
    let mut settings = settings.clone();
    settings.params.workload.apps = apps;
    let g = GridParams {
        predictors: vec![settings.params.predictor],
        seeds: 1,
        target_failed_pct,
        ..GridParams::default()
    };
    g.validate().map_err(|e| error_text(&e))?;
    settings.params.validate().map_err(|e| error_text(&e))?;
    let (source, workload) = workload_for(&settings, loaded)?;
    let report = grid(&[workload], &settings.params, &g, progress).map_err(|e| error_text(&e))?;
    Ok(GridView {
        ticket,
        source,
        report,
        millis: 0.0,
    })
}

/// The grid's recommendation for another target.
pub fn retarget(report: &mut GridReport, target_failed_pct: f64) -> Result<(), String> {
    if !(target_failed_pct.is_finite() && target_failed_pct >= 0.0) {
        return Err(format!(
            "Target failures: a percentage ≥ 0, got {target_failed_pct}"
        ));
    }
    report.grid.target_failed_pct = target_failed_pct;
    report.recommended = report
        .grid
        .predictors
        .iter()
        .filter_map(|&p| recommend(&report.cells, p, target_failed_pct))
        .collect();
    Ok(())
}

/// A CSV number ([`skyplan_engine::export::cell::number`]): empty when not
/// finite.
fn num(v: f64) -> String {
    if v.is_finite() {
        skyplan_engine::export::cell::number(v)
    } else {
        String::new()
    }
}

/// The last run's per-application outcomes, one row per application and
/// run (baseline, then shaped).
pub fn outcomes_csv(last: &LastRun) -> String {
    let mut out = String::from(
        "run,policy,app,arrival_s,runtime_s,finish_s,turnaround_s,attempts,failures,preemptions,component_preemptions,wasted_component_s,slack_cpu_pct,slack_mem_pct\n",
    );
    let policies = [
        skyplan_engine::shaping::Policy::Reservation,
        last.params.policy,
    ];
    for (k, (run, outcomes)) in ["baseline", "shaped"]
        .iter()
        .zip(&last.outcomes)
        .enumerate()
    {
        for (o, a) in outcomes.iter().zip(&last.workload.applications) {
            let _ = writeln!(
                out,
                "{run},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                policies[k].name(),
                skyplan_engine::export::cell::text(&o.name),
                num(o.arrival),
                num(a.runtime),
                o.finish.map(num).unwrap_or_default(),
                o.turnaround().map(num).unwrap_or_default(),
                o.attempts,
                o.failures,
                o.preemptions,
                o.component_preemptions,
                num(o.wasted),
                num(o.slack_cpu_pct),
                num(o.slack_mem_pct),
            );
        }
    }
    out
}

/// The grid, one row per cell, the recommended ones flagged.
pub fn grid_csv(report: &GridReport) -> String {
    let mut out = String::from(
        "predictor,k1,k2,turnaround_ratio,slack_mem_pct,slack_cpu_pct,failed_apps_pct,preempted_apps_pct,wasted_pct,crashes_per_app,resubmissions_per_app,shaping_off_pct,worst_off_p99,recommended\n",
    );
    for c in &report.cells {
        let recommended = report
            .recommended
            .iter()
            .any(|r| r.predictor == c.predictor && r.cell.k1 == c.k1 && r.cell.k2 == c.k2);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            c.predictor.name(),
            num(c.k1),
            num(c.k2),
            num(c.turnaround_ratio),
            num(c.slack_mem_pct),
            num(c.slack_cpu_pct),
            num(c.failed_apps_pct),
            num(c.preempted_apps_pct),
            num(c.wasted_pct),
            num(c.crashes_per_app),
            num(c.resubmissions_per_app),
            num(c.shaping_off_pct),
            num(c.worst_off_p99),
            recommended
        );
    }
    out
}
