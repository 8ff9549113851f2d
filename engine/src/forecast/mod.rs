//! Utilization forecasting with honest uncertainty (the forecasting module
//! of §III-A of the resource-shaping paper): what a component will use next,
//! with a *prediction* interval — the likely range of the next
//! observations, not a confidence interval of the model's mean, which is
//! much narrower (§III-A, last paragraph of part 1).
//!
//! - [`arima`]: ARIMA(p, d, q) with a constant (eq. 2), exact Gaussian
//!   maximum likelihood through a Kalman filter on the ARMA state space of
//!   the differenced series, as statsmodels' `SARIMAX` (which `ARIMA` and
//!   pmdarima build on); forecasts with the model's prediction intervals;
//! - [`select`]: the order by AIC over a stated grid (exhaustive, as
//!   pmdarima's `auto_arima(stepwise=False)`) or by pmdarima's stepwise
//!   walk (`stepwise`), the differencing order by KPSS tests (pmdarima's
//!   `ndiffs`);
//! - [`gp`]: GP regression on the history patterns of eq. 5
//!   ([`patterns`]), with the SE kernel of eq. 6, hyperparameters by
//!   evidence maximization (the estimation module's ML-II), restricted to
//!   the latest N patterns, updated online by editing the Cholesky factor;
//! - [`baselines`]: last value, moving average, seasonal naive with the
//!   period from the spectrum ([`period`]);
//! - [`evaluate`]: MAE, RMSE and the coverage and width of the prediction
//!   intervals on a rolling origin — the paper's central claim is that
//!   ARIMA's intervals are too narrow and the GP's honest;
//! - [`series`]: utilization samples on a regular grid, gaps as missing.
//!
//! Series are `&[f64]` on a regular time grid; `NaN` marks a missing
//! observation (a gap, a trace's −1/101 marker). Missing values are never
//! filled in: ARIMA's Kalman filter skips them (only predicting across the
//! gap), the GP drops every pattern that touches one, the baselines look
//! past them. ±∞ is an error.
//!
//! Layers: `error` and `step` at the bottom; `stationary` and `likelihood`
//! (ARIMA's inner loop) below the models; the models; `params` (the
//! models' settings together); `evaluate`; and this file, which declares
//! the files, re-exports their names and runs one [`forecast`].

pub mod arima;
pub mod baselines;
mod error;
pub mod evaluate;
pub mod gp;
mod likelihood;
mod params;
pub mod patterns;
pub mod period;
pub mod select;
pub mod series;
mod stationary;
mod step;
pub mod stepwise;

pub use arima::{Arima, ArimaFit, ArimaOrder, ArimaParams};
pub use baselines::{BaselineParams, Baselines};
pub(crate) use error::check_level;
pub use error::{check_series, ForecastError};
pub use evaluate::{evaluate, EvaluateParams, Evaluation, MethodReport};
pub use gp::{HistoryGp, HistoryGpParams};
pub use params::ForecastParams;
pub use period::{detect_period, PeriodParams};
pub use select::{auto_arima, kpss_ndiffs, Candidate, OrderSearch, SelectParams, Selection};
pub use series::{regular_grid, RegularSeries};
pub use step::{ForecastMethod, StepForecast};

use serde::{Deserialize, Serialize};

/// A forecast from one origin by one method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Forecast {
    /// The method.
    pub method: ForecastMethod,
    /// Interval coverage (e.g. 0.95).
    pub level: f64,
    /// One entry per step ahead, 1 to the horizon.
    pub steps: Vec<StepForecast>,
    /// What the model is, in a few words (the ARIMA order and AIC, the GP's
    /// hyperparameters, the detected period).
    pub model: String,
}

/// The forecast of `values` (regular grid, NaN = missing) by one method,
/// `params.horizon` steps past the last value, the models fitted on the
/// latest `params.training_len()` values.
pub fn forecast(
    values: &[f64],
    method: ForecastMethod,
    params: &ForecastParams,
) -> Result<Forecast, ForecastError> {
    params.validate()?;
    check_series(values)?;
    let train = &values[values.len().saturating_sub(params.training_len())..];
    let (steps, model) = match method {
        ForecastMethod::Gp => {
            let gp = HistoryGp::fit(train, params.window, params.latest, &params.gp)?;
            let model = gp.describe();
            (gp.forecast(params.horizon, params.level)?, model)
        }
        ForecastMethod::Arima => {
            let sel = auto_arima(train, &params.arima)?;
            let model = sel.model.describe();
            (sel.model.forecast(params.horizon, params.level)?, model)
        }
        other => {
            let b = Baselines::new(values, &params.baselines)?;
            let model = b.describe(other);
            (b.forecast(other, params.horizon, params.level)?, model)
        }
    };
    Ok(Forecast {
        method,
        level: params.level,
        steps,
        model,
    })
}

#[cfg(test)]
mod tests;
