//! The Forecast part's messages. Carried by
//! [`crate::protocol::Request::Forecast`] and
//! [`crate::protocol::Response::Forecast`].

use crate::toolkit::protocol::{Failure, Supersedes};
use serde::{Deserialize, Serialize};
use skyplan_engine::bundle::ForecastState;
use skyplan_engine::forecast::ForecastMethod;
use skyplan_engine::Timestamp;

/// The panel's settings (the paper's where it gives them): the engine's
/// panel type, which the saved record and a workspace bundle carry.
pub use skyplan_engine::bundle::ForecastSettings;

/// What the forecast view asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum ForecastRequest {
    /// Forecast the utilization series at `index` of the workspace by every
    /// method (answered by [`ForecastResponse::Ready`] or
    /// [`ForecastResponse::Failed`]). Only the latest of those queued runs.
    Run {
        /// The app's ticket, echoed; stale answers are dropped.
        ticket: u32,
        /// Position among the workspace's utilization series.
        index: usize,
        /// Settings.
        settings: ForecastSettings,
    },
    /// Send the card's saved state (answered by
    /// [`ForecastResponse::Restored`]); the page asks once, at start.
    Open,
    /// Save the card's settings, the series shown and the band drawn for
    /// the next page; no answer.
    Keep(ForecastState),
}

impl ForecastRequest {
    /// A later forecast supersedes one still queued.
    pub fn supersedes_key(&self) -> Option<Supersedes> {
        match self {
            ForecastRequest::Run { .. } => Supersedes::any("forecast run"),
            ForecastRequest::Keep(_) => Supersedes::any("forecast keep"),
            ForecastRequest::Open => None,
        }
    }
}

/// What the worker tells the forecast view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op")]
pub enum ForecastResponse {
    /// The card's saved state (the defaults when nothing was saved).
    Restored(ForecastState),
    /// The forecasts of one series.
    Ready(Box<ForecastView>),
    /// The engine refused (too short a series, bad settings).
    Failed(Failure),
}

/// One point of a forecast band, on the series' regular grid.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BandPoint {
    /// Time of the forecast observation (Unix seconds).
    pub at: Timestamp,
    /// Predictive mean.
    pub mean: f64,
    /// Lower end of the prediction interval.
    pub lower: f64,
    /// Upper end of the prediction interval.
    pub upper: f64,
}

/// One method's forecasts and scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodView {
    /// The method.
    pub method: ForecastMethod,
    /// Rolling one-step forecasts over the last origins.
    pub one_step: Vec<BandPoint>,
    /// The forecast ahead of the last observation (empty when it failed).
    pub ahead: Vec<BandPoint>,
    /// One-step forecasts scored.
    pub forecasts: usize,
    /// Mean absolute one-step error.
    pub mae: f64,
    /// Root mean squared one-step error.
    pub rmse: f64,
    /// Share of the observations inside their one-step interval.
    pub coverage: f64,
    /// Mean width of the one-step interval.
    pub width: f64,
    /// Origins where the method could not forecast.
    pub failures: usize,
    /// Why, the first time.
    pub first_failure: Option<String>,
    /// The last model, in a few words.
    pub model: String,
}

/// A series' forecasts by every method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForecastView {
    /// The request's ticket.
    pub ticket: u32,
    /// Position among the workspace's utilization series.
    pub index: usize,
    /// Server or tenant.
    pub server: String,
    /// Resource name.
    pub resource: String,
    /// The grid's step, seconds.
    pub step_secs: i64,
    /// Slots of the grid without a sample.
    pub missing: usize,
    /// The observations shown (the history around the origins), as
    /// `(time, value)`; gaps are left out.
    pub actual: Vec<(Timestamp, f64)>,
    /// Interval coverage asked for.
    pub level: f64,
    /// The seasonal period found (slots), if any.
    pub period: Option<usize>,
    /// One entry per method.
    pub methods: Vec<MethodView>,
    /// Worker time, milliseconds.
    pub millis: f64,
}
