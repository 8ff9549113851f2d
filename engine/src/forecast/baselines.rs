//! Baselines any forecaster must beat: the last value, a moving average,
//! and the seasonal naive forecast (the value one period earlier) for
//! periodic series, the period from the spectrum ([`super::period`]).
//!
//! Their intervals are empirical: the k-step variance is the mean squared
//! error of the same rule applied from every earlier origin of the last
//! [`BaselineParams::error_window`] values, so the interval is as wide as
//! the rule has actually been wrong on this series, with a normal quantile.
//! Missing values are skipped (the last *observed* value, the mean of the
//! last observed ones) and never filled in.

use super::period::{detect_period, Period, PeriodParams};
use super::{check_level, check_series, ForecastError, ForecastMethod, StepForecast};
use serde::{Deserialize, Serialize};

/// Settings of the baselines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BaselineParams {
    /// Values the moving average spans (default 10, the paper's h).
    pub moving_average: usize,
    /// The seasonal period in samples; `None` (default): detected.
    pub period: Option<usize>,
    /// Period detection.
    pub period_detection: PeriodParams,
    /// Latest values the empirical error variances are measured on
    /// (default 1000).
    pub error_window: usize,
}

impl Default for BaselineParams {
    fn default() -> Self {
        BaselineParams {
            moving_average: 10,
            period: None,
            period_detection: PeriodParams::default(),
            error_window: 1000,
        }
    }
}

impl BaselineParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), ForecastError> {
        if self.moving_average == 0 {
            return Err(ForecastError::param("moving_average", "must be at least 1"));
        }
        if self.period.is_some_and(|p| p < 2) {
            return Err(ForecastError::param("period", "must be at least 2"));
        }
        if self.error_window < 3 {
            return Err(ForecastError::param("error_window", "must be at least 3"));
        }
        Ok(())
    }
}

/// The baselines on one series.
#[derive(Clone, Debug)]
pub struct Baselines<'a> {
    values: &'a [f64],
    params: BaselineParams,
    period: Option<Period>,
}

/// The mean of the last `m` observed values of `v[..end]`.
fn moving_average(v: &[f64], end: usize, m: usize) -> Option<f64> {
    let (mut s, mut c) = (0.0, 0);
    for x in v[..end].iter().rev().filter(|x| !x.is_nan()).take(m) {
        s += x;
        c += 1;
    }
    (c > 0).then(|| s / c as f64)
}

/// The last observed value of `v[..end]`.
fn last_value(v: &[f64], end: usize) -> Option<f64> {
    v[..end].iter().rev().find(|x| !x.is_nan()).copied()
}

/// The seasonal-naive forecast of `v[end − 1 + k]` from `v[..end]`: the
/// value a whole number of periods earlier (the latest observed of up to
/// three such).
fn seasonal(v: &[f64], end: usize, k: usize, period: usize) -> Option<f64> {
    let target = end - 1 + k;
    let first = k.div_ceil(period);
    (first..first + 3)
        .filter_map(|m| target.checked_sub(m * period))
        .filter(|i| *i < end)
        .map(|i| v[i])
        .find(|x| !x.is_nan())
}

impl<'a> Baselines<'a> {
    /// The baselines on `values` (regular grid, NaN = missing); detects the
    /// period unless the params give it.
    pub fn new(values: &'a [f64], params: &BaselineParams) -> Result<Self, ForecastError> {
        params.validate()?;
        check_series(values)?;
        let period = match params.period {
            Some(p) => Some(Period {
                samples: p,
                power_share: f64::NAN,
            }),
            None => detect_period(values, &params.period_detection),
        };
        Ok(Baselines {
            values,
            params: params.clone(),
            period,
        })
    }

    /// The period used by the seasonal naive forecast, if any.
    pub fn period(&self) -> Option<Period> {
        self.period
    }

    /// The point forecast of `method` for `v[end − 1 + k]` from `v[..end]`.
    fn point(&self, method: ForecastMethod, v: &[f64], end: usize, k: usize) -> Option<f64> {
        match method {
            ForecastMethod::LastValue => last_value(v, end),
            ForecastMethod::MovingAverage => moving_average(v, end, self.params.moving_average),
            ForecastMethod::SeasonalNaive => seasonal(v, end, k, self.period?.samples),
            _ => None,
        }
    }

    /// One line on the method.
    pub fn describe(&self, method: ForecastMethod) -> String {
        match method {
            ForecastMethod::MovingAverage => {
                format!("mean of the last {} values", self.params.moving_average)
            }
            ForecastMethod::SeasonalNaive => match self.period {
                Some(p) if p.power_share.is_nan() => {
                    format!("period {} samples (given)", p.samples)
                }
                Some(p) => format!(
                    "period {} samples ({:.0} % of the spectral power)",
                    p.samples,
                    100.0 * p.power_share
                ),
                None => "no period".into(),
            },
            _ => "last observed value".into(),
        }
    }

    /// Forecasts `horizon` steps past the end with empirical `level`
    /// intervals.
    pub fn forecast(
        &self,
        method: ForecastMethod,
        horizon: usize,
        level: f64,
    ) -> Result<Vec<StepForecast>, ForecastError> {
        check_level(level)?;
        if method == ForecastMethod::SeasonalNaive && self.period.is_none() {
            return Err(ForecastError::Fit(
                "seasonal naive: no period in the spectrum (set one explicitly)".into(),
            ));
        }
        let v = self.values;
        let n = v.len();
        let from = n.saturating_sub(self.params.error_window).max(1);
        (1..=horizon)
            .map(|k| {
                let mean = self.point(method, v, n, k).ok_or_else(|| {
                    ForecastError::Fit(format!("{method}: no observed value to forecast from"))
                })?;
                // Past k-step errors of the same rule, origins inside the
                // error window.
                let (mut s, mut c) = (0.0, 0usize);
                for end in from..n.saturating_sub(k - 1) {
                    let target = v[end - 1 + k];
                    if target.is_nan() {
                        continue;
                    }
                    if let Some(f) = self.point(method, v, end, k) {
                        s += (target - f).powi(2);
                        c += 1;
                    }
                }
                if c < 2 {
                    return Err(ForecastError::TooShort {
                        what: format!("{method} {k} steps ahead (its error variance)"),
                        needed: k + 3,
                        got: n,
                    });
                }
                Ok(StepForecast::gaussian(k, mean, s / c as f64, level))
            })
            .collect()
    }
}
