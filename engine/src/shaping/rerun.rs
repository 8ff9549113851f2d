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
use super::run::{run, RunSetup};
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
        let r = run(
            &RunSetup::from_params(&scenario, policy, Some(app), false),
            &mut |_| {},
        );
        (r.app_timeline.unwrap_or_default(), r.host_timeline)
    };
    let (baseline_app, baseline_host) = one(Policy::Reservation);
    let (shaped_app, shaped_host) = one(params.policy);
    Ok(Timelines {
        app,
        host,
        baseline_app,
        shaped_app,
        baseline_host,
        shaped_host,
    })
}
