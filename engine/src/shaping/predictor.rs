//! Forecasts of an application's usage, minute by minute, by the oracle,
//! ARIMA or the GP of the forecasting module (§III-A), as the shaper of §V
//! uses them: after the grace period, every minute, a one-step forecast
//! from the latest `history` observations.
//!
//! A forecast depends only on the application's own usage since its start,
//! never on the scheduling, so an application's forecasts are computed once
//! per workload and replayed at every start, in every run of a grid — the
//! same numbers a shaper would recompute, at a fraction of the cost.
//!
//! - **Oracle**: the next minute's value, variance 0.
//! - **GP**: [`HistoryGp`] fitted on the first `history` observations after
//!   the grace period, then appended to online (its factor edited) with the
//!   hyperparameters refitted every `refit_every` minutes.
//! - **ARIMA**: [`auto_arima`] on the latest `history` observations every
//!   `refit_every` minutes; in between, the chosen order and coefficients
//!   are applied to the latest observations ([`Arima::with_coefficients`]:
//!   one Kalman pass).
//!
//! When a model cannot be fitted (a constant window: nothing to fit, or a
//! failed likelihood) the forecast is the last value with the window's
//! sample variance, and the fit is retried `refit_every` minutes later.

use super::model::UsageTrace;
use super::params::{Params, Predictor};
use crate::forecast::{auto_arima, Arima, ArimaOrder, HistoryGp, HistoryGpParams, SelectParams};
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

fn last_value(window: &[f64]) -> (f64, f64) {
    let n = window.len() as f64;
    let mean = window.iter().sum::<f64>() / n;
    let var = if window.len() > 1 {
        window.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (*window.last().unwrap_or(&0.0), var)
}

struct ArimaState {
    order: ArimaOrder,
    ar: Vec<f64>,
    ma: Vec<f64>,
    mean: Option<f64>,
    sigma2: f64,
}

/// One series: forecasts for minutes `grace..len`, and the fallback count.
fn forecast_series(values: &[f32], params: &Params) -> (SeriesForecast, usize) {
    let y: Vec<f64> = values.iter().map(|&v| v as f64).collect();
    let grace = params.grace_minutes;
    let hist = params.history;
    let n = y.len().saturating_sub(grace);
    let mut out = SeriesForecast {
        mean: Vec::with_capacity(n),
        variance: Vec::with_capacity(n),
    };
    let mut fallbacks = 0;
    let gp_params = HistoryGpParams {
        refit_every: params.refit_every,
        gp: crate::estimate::gp::GpParams {
            restarts: params.gp_restarts,
            ..Default::default()
        },
        ..Default::default()
    };
    let select = SelectParams {
        max_p: params.arima_max_order,
        max_q: params.arima_max_order,
        max_order: params.arima_max_order,
        ..Default::default()
    };
    let mut gp: Option<HistoryGp> = None;
    let mut arima: Option<ArimaState> = None;
    let mut next_try = grace;
    for m in grace..y.len() {
        let window = &y[m - hist..m];
        let mut made: Option<(f64, f64)> = None;
        match params.predictor {
            Predictor::Oracle => unreachable!("the oracle needs no forecasts"),
            Predictor::Gp => {
                if let Some(g) = gp.as_mut() {
                    if g.append(y[m - 1]).is_err() {
                        gp = None;
                        next_try = m;
                    }
                }
                if gp.is_none() && m >= next_try {
                    match HistoryGp::fit(
                        window,
                        params.gp_window,
                        hist - params.gp_window,
                        &gp_params,
                    ) {
                        Ok(g) => gp = Some(g),
                        Err(_) => next_try = m + params.refit_every,
                    }
                }
                if let Some(g) = gp.as_ref() {
                    if let Ok(s) = g.forecast(1, params.level) {
                        made = Some((s[0].mean, s[0].variance));
                    }
                }
            }
            Predictor::Arima => {
                let refit = (arima.is_none() && m >= next_try)
                    || (m - grace).is_multiple_of(params.refit_every);
                if refit {
                    match auto_arima(window, &select) {
                        Ok(sel) => {
                            let f = sel.model.fit_summary().clone();
                            if let Ok(s) = sel.model.forecast(1, params.level) {
                                made = Some((s[0].mean, s[0].variance));
                            }
                            arima = Some(ArimaState {
                                order: f.order,
                                ar: f.ar,
                                ma: f.ma,
                                mean: f.mean,
                                sigma2: f.sigma2,
                            });
                        }
                        Err(_) => {
                            arima = None;
                            next_try = m + params.refit_every;
                        }
                    }
                } else if let Some(a) = arima.as_ref() {
                    if let Ok(model) = Arima::with_coefficients(
                        window,
                        a.order,
                        &a.ar,
                        &a.ma,
                        a.mean,
                        Some(a.sigma2),
                    ) {
                        if let Ok(s) = model.forecast(1, params.level) {
                            made = Some((s[0].mean, s[0].variance));
                        }
                    }
                }
            }
        }
        let (mean, var) = match made {
            Some((mu, v)) if mu.is_finite() && v.is_finite() => (mu, v.max(0.0)),
            _ => {
                fallbacks += 1;
                last_value(window)
            }
        };
        out.mean.push(mean as f32);
        out.variance.push(var as f32);
    }
    (out, fallbacks)
}
