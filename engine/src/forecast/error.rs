//! Why a forecast could not be made, and the checks at the edge: a
//! coverage level, a series. The bottom of `forecast`.

use serde::{Deserialize, Serialize};

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
