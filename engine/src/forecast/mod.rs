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
//!   pmdarima's `auto_arima(stepwise=False)`), the differencing order by
//!   KPSS tests (pmdarima's `ndiffs`);
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

pub mod arima;
pub mod baselines;
pub mod evaluate;
pub mod gp;
pub mod patterns;
pub mod period;
pub mod select;
pub mod series;

pub use arima::{Arima, ArimaFit, ArimaOrder, ArimaParams};
pub use baselines::{BaselineParams, Baselines};
pub use evaluate::{evaluate, EvaluateParams, Evaluation, MethodReport};
pub use gp::{HistoryGp, HistoryGpParams};
pub use period::{detect_period, PeriodParams};
pub use select::{auto_arima, kpss_ndiffs, Candidate, SelectParams, Selection};
pub use series::{regular_grid, RegularSeries};

use crate::numerics::quantile::normal_quantile;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A forecasting method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ForecastMethod {
    /// GP on the history patterns (eqs. 4–8).
    Gp,
    /// ARIMA with the order chosen by AIC.
    Arima,
    /// The last observed value.
    LastValue,
    /// The mean of the last few observed values.
    MovingAverage,
    /// The value one period earlier.
    SeasonalNaive,
}

impl ForecastMethod {
    /// Every method, in the order reports list them.
    pub const ALL: [ForecastMethod; 5] = [
        ForecastMethod::Gp,
        ForecastMethod::Arima,
        ForecastMethod::LastValue,
        ForecastMethod::MovingAverage,
        ForecastMethod::SeasonalNaive,
    ];
}

impl fmt::Display for ForecastMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForecastMethod::Gp => "GP",
            ForecastMethod::Arima => "ARIMA",
            ForecastMethod::LastValue => "last value",
            ForecastMethod::MovingAverage => "moving average",
            ForecastMethod::SeasonalNaive => "seasonal naive",
        })
    }
}

/// One step of a forecast: the predictive mean and variance of the
/// observation `step` points after the origin, and its prediction interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepForecast {
    /// Steps ahead of the last observation (1 = the next one).
    pub step: usize,
    /// Predictive mean.
    pub mean: f64,
    /// Predictive variance of the observation (noise included).
    pub variance: f64,
    /// Lower end of the prediction interval.
    pub lower: f64,
    /// Upper end of the prediction interval.
    pub upper: f64,
}

impl StepForecast {
    /// `mean ± z·√variance`, `z` the normal quantile of `(1 + level) / 2`.
    pub fn gaussian(step: usize, mean: f64, variance: f64, level: f64) -> Self {
        let z = normal_quantile(0.5 + 0.5 * level);
        let sd = variance.max(0.0).sqrt();
        StepForecast {
            step,
            mean,
            variance,
            lower: mean - z * sd,
            upper: mean + z * sd,
        }
    }

    /// Whether `actual` falls inside the interval (ends included).
    pub fn covers(&self, actual: f64) -> bool {
        self.lower <= actual && actual <= self.upper
    }
}

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

/// Settings of [`forecast`]: the paper's where it gives them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ForecastParams {
    /// History window h: the pattern length of eq. 5 (default 10: "both
    /// models consider a small history of the ten past observations", §V).
    pub window: usize,
    /// N: the GP is trained on the latest N patterns (§III-A: "restricting
    /// the dataset X, y to the N latest observations"; the paper gives no
    /// value, default 100). ARIMA is fitted on the same data: the latest
    /// N + h observations.
    pub latest: usize,
    /// Steps ahead (default 1).
    pub horizon: usize,
    /// Prediction-interval coverage (default 0.95).
    pub level: f64,
    /// The GP.
    pub gp: HistoryGpParams,
    /// ARIMA's order search.
    pub arima: SelectParams,
    /// The baselines.
    pub baselines: BaselineParams,
}

impl Default for ForecastParams {
    fn default() -> Self {
        ForecastParams {
            window: 10,
            latest: 100,
            horizon: 1,
            level: 0.95,
            gp: HistoryGpParams::default(),
            arima: SelectParams::default(),
            baselines: BaselineParams::default(),
        }
    }
}

impl ForecastParams {
    /// Checks the settings at the engine's edge.
    pub fn validate(&self) -> Result<(), ForecastError> {
        if self.window == 0 {
            return Err(ForecastError::param("window", "must be at least 1"));
        }
        if self.latest < 2 {
            return Err(ForecastError::param("latest", "must be at least 2"));
        }
        if self.horizon == 0 {
            return Err(ForecastError::param("horizon", "must be at least 1"));
        }
        check_level(self.level)?;
        self.gp.validate()?;
        self.arima.validate()?;
        self.baselines.validate()
    }

    /// Observations the models are fitted on: the latest N patterns need
    /// N + h of them.
    pub fn training_len(&self) -> usize {
        self.latest + self.window
    }
}

/// Why a forecast could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum ForecastError {
    /// A setting is out of range.
    #[error("forecast parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// No observations at all.
    #[error("the series is empty")]
    Empty,
    /// A value is ±∞ (NaN is a missing observation, not an error).
    #[error("value {index} of the series is {value}: not a number a forecast can use")]
    NotFinite {
        /// Position in the series (0-based).
        index: usize,
        /// The value.
        value: f64,
    },
    /// Too few observations for the method.
    #[error("{what} needs at least {needed} observed values, got {got}")]
    TooShort {
        /// Method and setting that need them.
        what: String,
        /// Observations needed.
        needed: usize,
        /// Observations there.
        got: usize,
    },
    /// The training data do not vary: no noise to fit. The last value is
    /// the exact forecast of a constant series; the caller may use the
    /// last-value baseline.
    #[error("{what}: the training data are constant ({value}); a model has no variation to fit (the last-value forecast is exact for a constant series)")]
    Constant {
        /// Method.
        what: String,
        /// The constant.
        value: f64,
    },
    /// The latest values a forecast starts from are missing.
    #[error("{what} needs the last {needed} values observed; value {index} is missing")]
    MissingAtOrigin {
        /// Method.
        what: String,
        /// Values needed.
        needed: usize,
        /// The missing one (0-based).
        index: usize,
    },
    /// The likelihood could not be evaluated or maximized.
    #[error("{0}")]
    Fit(String),
}

impl ForecastError {
    pub(crate) fn param(name: &str, why: impl Into<String>) -> Self {
        ForecastError::Param {
            name: name.to_string(),
            why: why.into(),
        }
    }
}

/// Checks a coverage level: strictly between 0 and 1.
pub(crate) fn check_level(level: f64) -> Result<(), ForecastError> {
    if level.is_finite() && level > 0.0 && level < 1.0 {
        Ok(())
    } else {
        Err(ForecastError::param(
            "level",
            format!("must be strictly between 0 and 1 (e.g. 0.95), got {level}"),
        ))
    }
}

/// Checks a series at the edge: no ±∞ (NaN is missing), at least one
/// observed value. Returns the number of observed values.
pub fn check_series(values: &[f64]) -> Result<usize, ForecastError> {
    if values.is_empty() {
        return Err(ForecastError::Empty);
    }
    let mut observed = 0;
    for (index, v) in values.iter().enumerate() {
        if v.is_infinite() {
            return Err(ForecastError::NotFinite { index, value: *v });
        }
        if !v.is_nan() {
            observed += 1;
        }
    }
    if observed == 0 {
        return Err(ForecastError::TooShort {
            what: "a forecast".into(),
            needed: 1,
            got: 0,
        });
    }
    Ok(observed)
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
