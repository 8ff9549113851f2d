//! One usage series' forecaster, as the shaper runs it: observations come
//! in one a minute, and each minute a one-step forecast is made from the
//! latest `history` of them.
//!
//! It is one state machine for both uses: the forecasts of a first attempt,
//! computed once per workload over the whole trace
//! ([`super::predictor::forecast_app`]), and the forecasts of a restarted
//! application, made during the run by a forecaster that starts from what
//! the earlier attempts observed (`shaping::learning`) — so both follow the
//! same rules:
//!
//! - **GP**: [`HistoryGp`] fitted on the latest `history` observations,
//!   then appended to online (its factor edited) with every new
//!   observation, the hyperparameters refitted every `refit_every` minutes
//!   by the GP itself;
//! - **ARIMA**: [`auto_arima`] on the latest `history` observations every
//!   `refit_every` forecasts; in between, the chosen order and coefficients
//!   are applied to the latest observations ([`Arima::with_coefficients`]:
//!   one Kalman pass).
//!
//! When a model cannot be fitted (a constant window: nothing to fit, or a
//! failed likelihood) the forecast is the last value with the window's
//! sample variance, and the fit is retried `refit_every` minutes later.

use super::params::{Params, Predictor};
use crate::forecast::{auto_arima, Arima, ArimaOrder, HistoryGp, HistoryGpParams, SelectParams};

/// ARIMA's order and coefficients from its latest search.
struct ArimaState {
    order: ArimaOrder,
    ar: Vec<f64>,
    ma: Vec<f64>,
    mean: Option<f64>,
    sigma2: f64,
}

/// One series' forecaster: its observations and its model.
pub struct SeriesForecaster {
    predictor: Predictor,
    history: usize,
    gp_window: usize,
    refit_every: usize,
    level: f64,
    gp_params: HistoryGpParams,
    select: SelectParams,
    /// The observations so far (for a restarted application: the earlier
    /// attempts' latest ones first).
    y: Vec<f64>,
    gp: Option<HistoryGp>,
    /// Observations the GP has been given (fitted on or appended).
    gp_fed: usize,
    arima: Option<ArimaState>,
    /// Observation count from which a failed fit is retried.
    next_try: usize,
    /// Observation count at the first forecast (ARIMA refits count from it).
    first: Option<usize>,
    /// Forecasts where the last value stood in.
    pub fallbacks: usize,
}

/// The last value of `window` with its sample variance: the stand-in when
/// no model fits.
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

impl SeriesForecaster {
    /// A forecaster by `predictor` (ARIMA or the GP; the oracle needs none)
    /// with `params`' history, pattern length, refit interval and level,
    /// having observed `seen` (oldest first).
    pub fn new(predictor: Predictor, params: &Params, seen: &[f64]) -> Self {
        SeriesForecaster {
            predictor,
            history: params.history,
            gp_window: params.gp_window,
            refit_every: params.refit_every,
            level: params.level,
            gp_params: HistoryGpParams {
                refit_every: params.refit_every,
                gp: crate::estimate::gp::GpParams {
                    restarts: params.gp_restarts,
                    ..Default::default()
                },
                ..Default::default()
            },
            select: SelectParams {
                max_p: params.arima_max_order,
                max_q: params.arima_max_order,
                max_order: params.arima_max_order,
                ..Default::default()
            },
            y: seen.to_vec(),
            gp: None,
            gp_fed: 0,
            arima: None,
            next_try: 0,
            first: None,
            fallbacks: 0,
        }
    }

    /// Observations so far.
    pub fn observed(&self) -> usize {
        self.y.len()
    }

    /// The latest `n` observations (fewer when fewer were made).
    pub fn latest(&self, n: usize) -> &[f64] {
        &self.y[self.y.len().saturating_sub(n)..]
    }

    /// One more observation.
    pub fn observe(&mut self, v: f64) {
        self.y.push(v);
    }

    /// The forecast (mean, variance) of the next observation from the
    /// latest `history`; `None` before `history` observations.
    pub fn forecast(&mut self) -> Option<(f64, f64)> {
        let m = self.y.len();
        let hist = self.history;
        if m < hist || hist == 0 {
            return None;
        }
        let first = *self.first.get_or_insert(m);
        let made = match self.predictor {
            Predictor::Oracle => None,
            Predictor::Gp => self.gp_step(m),
            Predictor::Arima => self.arima_step(m, first),
        };
        let window = &self.y[m - hist..m];
        Some(match made {
            Some((mu, v)) if mu.is_finite() && v.is_finite() => (mu, v.max(0.0)),
            _ => {
                self.fallbacks += 1;
                last_value(window)
            }
        })
    }

    fn gp_step(&mut self, m: usize) -> Option<(f64, f64)> {
        let hist = self.history;
        if let Some(g) = self.gp.as_mut() {
            let mut failed = false;
            for &v in &self.y[self.gp_fed..m] {
                if g.append(v).is_err() {
                    failed = true;
                    break;
                }
            }
            if failed {
                self.gp = None;
                self.next_try = m;
            } else {
                self.gp_fed = m;
            }
        }
        if self.gp.is_none() && m >= self.next_try {
            match HistoryGp::fit(
                &self.y[m - hist..m],
                self.gp_window,
                hist - self.gp_window,
                &self.gp_params,
            ) {
                Ok(g) => {
                    self.gp = Some(g);
                    self.gp_fed = m;
                }
                Err(_) => self.next_try = m + self.refit_every,
            }
        }
        let s = self.gp.as_ref()?.forecast(1, self.level).ok()?;
        Some((s[0].mean, s[0].variance))
    }

    fn arima_step(&mut self, m: usize, first: usize) -> Option<(f64, f64)> {
        let window = &self.y[m - self.history..m];
        let refit = (self.arima.is_none() && m >= self.next_try)
            || (m - first).is_multiple_of(self.refit_every);
        if refit {
            match auto_arima(window, &self.select) {
                Ok(sel) => {
                    let f = sel.model.fit_summary().clone();
                    let made = sel
                        .model
                        .forecast(1, self.level)
                        .ok()
                        .map(|s| (s[0].mean, s[0].variance));
                    self.arima = Some(ArimaState {
                        order: f.order,
                        ar: f.ar,
                        ma: f.ma,
                        mean: f.mean,
                        sigma2: f.sigma2,
                    });
                    made
                }
                Err(_) => {
                    self.arima = None;
                    self.next_try = m + self.refit_every;
                    None
                }
            }
        } else {
            let a = self.arima.as_ref()?;
            let model =
                Arima::with_coefficients(window, a.order, &a.ar, &a.ma, a.mean, Some(a.sigma2))
                    .ok()?;
            let s = model.forecast(1, self.level).ok()?;
            Some((s[0].mean, s[0].variance))
        }
    }
}
