//! The forecasting methods, and one step of a forecast with its prediction
//! interval: what every method gives back.

use crate::numerics::quantile::two_sided_z;
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
        let z = two_sided_z(level);
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
