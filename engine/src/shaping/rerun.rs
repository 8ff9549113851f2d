//! Another application's or host's timelines after a simulation: a run
//! records one application and one host (recording every application's
//! minutes would cost memory for nothing), so the studio asks for another
//! one by re-running the baseline and the shaped run with the forecasts it
//! kept. The runs are deterministic — the same workload, settings and
//! forecasts make the same decisions whichever application is recorded —
//! so the timelines are those of the runs the summary describes.

use super::error::ShapingError;
use super::model::Workload;
use super::params::{Params, Policy};
use super::predictor::AppForecast;
use super::run::{run, RunReport, RunSetup};
use super::scenario::Scenario;
use super::timeline::{AppTimeline, HostTimeline};
use serde::{Deserialize, Serialize};

/// One application's and one host's timelines in the baseline and the
/// shaped run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timelines {
    /// The application's index in the workload.
    pub app: usize,
    /// The host's index.
    pub host: usize,
    /// The application under the reservation baseline.
    pub baseline_app: AppTimeline,
    /// The application under `params.policy`.
    pub shaped_app: AppTimeline,
    /// The host under the baseline.
    pub baseline_host: HostTimeline,
    /// The host under `params.policy`.
    pub shaped_host: HostTimeline,
}

impl Timelines {
    /// The timelines of application `app` and host `host` that the
    /// baseline and the shaped run recorded, moved out of their reports
    /// (an application the run did not record has an empty timeline).
    /// What a rerun here and the studio's first run (whose report carries
    /// them) both build.
    pub fn taken_from(
        app: usize,
        host: usize,
        baseline: &mut RunReport,
        shaped: &mut RunReport,
    ) -> Timelines {
        Timelines {
            app,
            host,
            baseline_app: baseline.app_timeline.take().unwrap_or_default(),
            shaped_app: shaped.app_timeline.take().unwrap_or_default(),
            baseline_host: std::mem::take(&mut baseline.host_timeline),
            shaped_host: std::mem::take(&mut shaped.host_timeline),
        }
    }
}

/// The timelines of application `app` and host `host` in the runs
/// [`super::simulate_with`] makes of `w` with `params` and `forecasts`
/// (`params.predictor`'s, empty for the oracle).
pub fn timelines(
    w: &Workload,
    params: &Params,
    forecasts: &[AppForecast],
    app: usize,
    host: usize,
) -> Result<Timelines, ShapingError> {
    let params = Params {
        timeline_host: host,
        ..params.clone()
    };
    let scenario = Scenario::new(w, &params)?;
    if app >= w.applications.len() {
        return Err(ShapingError::param(
            "app",
            format!(
                "is {app}, the workload has {} applications",
                w.applications.len()
            ),
        ));
    }
    let scenario = scenario.with_forecasts(forecasts)?;
    let one = |policy: Policy| {
        run(
            &RunSetup::from_params(&scenario, policy, Some(app), false),
            &mut |_| {},
        )
    };
    let mut baseline = one(Policy::Reservation);
    let mut shaped = one(params.policy);
    Ok(Timelines::taken_from(app, host, &mut baseline, &mut shaped))
}
