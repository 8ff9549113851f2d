//! The runway (issue 36): with this cluster and this growth, when does it
//! run out, how many machines to add by when, and what each lever buys
//! instead — the capacity planner's question, on the workspace every other
//! part reads.
//!
//! From the bottom:
//! - [`error`] (`RunwayError`), [`params`] (`RunwayParams`, `Growth`,
//!   steps, headroom targets, horizons);
//! - [`peaks`]: the cluster's daily peak utilization per resource;
//! - [`season`]: the cycle of the peaks (a week of daily peaks, a year of
//!   weekly or monthly samples), found or given, by classical
//!   decomposition;
//! - [`scale`]: the scale the trend is modelled on (the peaks, or their
//!   logarithm for compound growth), asked for or chosen from how the
//!   history's spread moves with its level (Guerrero's criterion);
//! - [`detrend`]: the trend-stationary alternative (a line or a
//!   quadratic with stationary errors, by KPSS around the trend);
//! - [`passage`]: the fitted model's simulated paths and the band of
//!   their running maximum (the days a level is first reached);
//! - [`trend`]: bands of levels ahead — auto-ARIMA on the (deseasonalized)
//!   daily peaks with the cycle added back (the fitted model) and the least-squares line (the planners' rule), with
//!   the evidence they saw;
//! - [`demand`]: what the cluster carries, gathered from the workspace;
//!   [`cluster`]: its size and the machine a purchase adds;
//! - [`limit`]: the limits and the largest growth each meets at a size
//!   (closed form, or re-planning: LowCost, the batch optimizer, the lazy
//!   schedule);
//! - [`growth`]: demand factors a day ahead per limit;
//! - [`answer`]: the runway as plain data; [`planner`]: dates, binding
//!   limit and purchase schedules, re-planned sizes kept between answers;
//! - [`levers`]: what reservations, shaping, harvesting and tuning buy at
//!   the grown load, each from the part's own engine call;
//! - [`backtest`]: the fitted model and the planners' rule cut at past
//!   dates of real series and scored against the crossings that followed.

pub mod answer;
pub mod backtest;
pub mod cluster;
pub mod demand;
pub mod detrend;
pub mod error;
pub mod growth;
pub mod levers;
pub mod limit;
pub mod params;
pub mod passage;
pub mod peaks;
pub mod planner;
pub mod scale;
pub mod season;
#[cfg(test)]
mod tests;
pub mod trend;

pub use answer::{ChartDay, LimitRunway, Outlook, Purchase, PurchasePlan, Runway};
pub use backtest::{backtest, BacktestParams, BacktestReport, MethodScore};
pub use cluster::Cluster;
pub use demand::{AgendaDemand, Demand, QueueDemand};
pub use error::RunwayError;
pub use growth::{GrowthCurve, Quantile};
pub use levers::{Lever, LeverInputs, LeverKind, SHAPING_SEEDS};
pub use limit::{Limit, Packing};
pub use params::{Growth, ResourceTarget, RunwayParams, StepEvent};
pub use peaks::{cluster_peaks, DailyPeaks};
pub use planner::{Planner, Sizes, WarmStep};
pub use scale::{Scale, ScaleChoice};
pub use season::{Season, SeasonChoice, SeasonKind};
pub use trend::{Band, Evidence};

/// The runway of `demand` under `params` (a [`Planner`] used once).
pub fn runway(demand: &Demand, params: &RunwayParams) -> Result<Runway, RunwayError> {
    Planner::new(demand.clone()).answer(params)
}
