//! Forecasts of an application's usage, minute by minute, by the oracle,
//! ARIMA or the GP of the forecasting module (§III-A), as the shaper of §V
//! uses them: after the grace period, every minute, a one-step forecast
//! from the latest `history` observations.
//!
//! A first attempt's forecasts depend only on the application's own usage
//! since its start, never on the scheduling, so they are computed once per
//! workload and shared by every run of a grid — the same numbers a shaper
//! would compute, at a fraction of the cost. A restarted application's
//! forecaster continues from what its earlier attempts observed, which
//! depends on when they ended: those forecasts are made during the run
//! (`shaping::learning`), by the same [`SeriesForecaster`].
//!
//! - **Oracle**: the next minute's value, variance 0.
//! - **GP** and **ARIMA**: see [`super::forecaster`].

use super::forecaster::SeriesForecaster;
use super::model::UsageTrace;
use super::params::{Params, Predictor};
use serde::{Deserialize, Serialize};

/// One series' forecasts: mean and variance of the fraction for every
/// minute from the grace period on (index `m − grace`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SeriesForecast {
    /// Predictive means.
    pub mean: Vec<f32>,
    /// Predictive variances.
    pub variance: Vec<f32>,
}

/// An application's forecasts for CPU and memory.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AppForecast {
    /// CPU fraction.
    pub cpu: SeriesForecast,
    /// Memory fraction.
    pub mem: SeriesForecast,
    /// Minutes where a model could not be fitted and the last value stood
    /// in (both series).
    pub fallbacks: usize,
}

/// A forecast at one minute: (mean, variance) for CPU and memory.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MinuteForecast {
    /// CPU fraction mean.
    pub cpu_mean: f64,
    /// CPU fraction variance.
    pub cpu_var: f64,
    /// Memory fraction mean.
    pub mem_mean: f64,
    /// Memory fraction variance.
    pub mem_var: f64,
}

impl AppForecast {
    /// The forecast for minute `m` (≥ grace) of `usage`: the oracle's is the
    /// value itself; past the computed range the last forecast stands.
    pub fn at(
        &self,
        predictor: Predictor,
        usage: &UsageTrace,
        grace: usize,
        m: usize,
    ) -> MinuteForecast {
        if predictor == Predictor::Oracle || self.cpu.mean.is_empty() {
            let (c, r) = usage.at(m);
            return MinuteForecast {
                cpu_mean: c,
                cpu_var: 0.0,
                mem_mean: r,
                mem_var: 0.0,
            };
        }
        let i = (m.saturating_sub(grace)).min(self.cpu.mean.len() - 1);
        MinuteForecast {
            cpu_mean: self.cpu.mean[i] as f64,
            cpu_var: self.cpu.variance[i] as f64,
            mem_mean: self.mem.mean[i] as f64,
            mem_var: self.mem.variance[i] as f64,
        }
    }
}

/// The forecasts of one application (empty for the oracle, and for a trace
/// that ends within the grace period).
pub fn forecast_app(usage: &UsageTrace, params: &Params) -> AppForecast {
    if params.predictor == Predictor::Oracle || usage.len() <= params.grace_minutes {
        return AppForecast::default();
    }
    let (cpu, f1) = forecast_series(&usage.cpu, params);
    let (mem, f2) = forecast_series(&usage.mem, params);
    AppForecast {
        cpu,
        mem,
        fallbacks: f1 + f2,
    }
}

/// One series: forecasts for minutes `grace..len` by one
/// [`SeriesForecaster`] fed the trace minute by minute, and the fallback
/// count.
fn forecast_series(values: &[f32], params: &Params) -> (SeriesForecast, usize) {
    let y: Vec<f64> = values.iter().map(|&v| v as f64).collect();
    let grace = params.grace_minutes.min(y.len());
    let n = y.len() - grace;
    let mut out = SeriesForecast {
        mean: Vec::with_capacity(n),
        variance: Vec::with_capacity(n),
    };
    let mut f = SeriesForecaster::new(params.predictor, params, &y[..grace]);
    for &v in &y[grace..] {
        let (mean, var) = f.forecast().unwrap_or((v, 0.0));
        out.mean.push(mean as f32);
        out.variance.push(var as f32);
        f.observe(v);
    }
    (out, f.fallbacks)
}
