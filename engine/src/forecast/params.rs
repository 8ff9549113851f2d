//! The settings of a forecast: the paper's where it gives them.

use super::baselines::BaselineParams;
use super::error::{check_level, ForecastError};
use super::gp::HistoryGpParams;
use super::select::SelectParams;
use serde::{Deserialize, Serialize};

/// Settings of [`forecast`](super::forecast()): the paper's where it gives them.
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
