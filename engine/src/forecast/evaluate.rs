//! Forecast quality on a rolling origin: from each origin o, every method
//! forecasts values o … o + K − 1 from values before o only; per method and
//! step ahead: MAE, RMSE, and the **coverage and mean width of the
//! prediction interval** — the paper's central claim (§III-A, Discussion)
//! is that ARIMA's intervals are "excessively small, even smaller than the
//! measured prediction error", the GP's honest.
//!
//! Both models are used online, as §III-A describes: fitted once at the
//! first origin, then each new value is appended — the GP edits its
//! Cholesky factor ([`super::gp`]), ARIMA re-runs its Kalman filter on the
//! latest window with the coefficients kept (σ² re-estimated) — and both
//! re-estimate everything every M values: the GP its hyperparameters
//! (`gp.refit_every`), ARIMA its order and coefficients
//! ([`EvaluateParams::arima_refit_every`], the same M by default). The
//! seasonal period is detected once, on the values before the first origin.
//! An origin where a method cannot forecast (a gap at the origin, a
//! constant window) counts as a failure of that method and is left out of
//! its scores.

use super::arima::Arima;
use super::baselines::Baselines;
use super::gp::HistoryGp;
use super::period::detect_period;
use super::select::auto_arima;
use super::{check_series, ForecastError, ForecastMethod, ForecastParams, StepForecast};
use serde::{Deserialize, Serialize};

/// Settings of [`evaluate`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EvaluateParams {
    /// The forecasters (window h, latest N, horizon K, level, models).
    pub forecast: ForecastParams,
    /// Origins evaluated: the last this many positions where a K-step
    /// forecast can be checked (default 500), one per value.
    pub origins: usize,
    /// Values between ARIMA order re-selections (default 25, the GP's M).
    pub arima_refit_every: usize,
    /// Methods compared (default: all).
    pub methods: Vec<ForecastMethod>,
    /// Keep every origin's one-step forecast in the report (default
    /// false): what the studio draws as a band over the history.
    pub keep_one_step: bool,
}

impl Default for EvaluateParams {
    fn default() -> Self {
        EvaluateParams {
            forecast: ForecastParams::default(),
            origins: 500,
            arima_refit_every: 25,
            methods: ForecastMethod::ALL.to_vec(),
            keep_one_step: false,
        }
    }
}

/// Scores of one method at one step ahead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepScore {
    /// Steps ahead.
    pub step: usize,
    /// Forecasts scored.
    pub forecasts: usize,
    /// Mean absolute error.
    pub mae: f64,
    /// Root mean squared error.
    pub rmse: f64,
    /// Share of actual values inside the interval (nominal: the level).
    pub coverage: f64,
    /// Mean interval width.
    pub mean_width: f64,
    /// Mean predicted standard deviation (compare with the RMSE: an honest
    /// model's are close).
    pub mean_sd: f64,
}

/// One method's scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodReport {
    /// The method.
    pub method: ForecastMethod,
    /// Per step ahead, 1 to K.
    pub steps: Vec<StepScore>,
    /// Origins where it could not forecast.
    pub failures: usize,
    /// Why, the first time.
    pub first_failure: Option<String>,
    /// The model at the last origin.
    pub last_model: String,
    /// With [`EvaluateParams::keep_one_step`]: each origin's one-step
    /// forecast with the index of the value it forecasts, in order.
    pub one_step: Vec<(usize, StepForecast)>,
}

/// The report for one series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Values in the series.
    pub len: usize,
    /// First origin (index of the first forecast value).
    pub first_origin: usize,
    /// Origins evaluated.
    pub origins: usize,
    /// Nominal coverage.
    pub level: f64,
    /// The seasonal period used (samples), if one was found.
    pub period: Option<usize>,
    /// One report per method.
    pub methods: Vec<MethodReport>,
}

#[derive(Default)]
struct Acc {
    n: usize,
    abs: f64,
    sq: f64,
    covered: usize,
    width: f64,
    sd: f64,
}

impl Acc {
    fn add(&mut self, f: &StepForecast, actual: f64) {
        let e = actual - f.mean;
        self.n += 1;
        self.abs += e.abs();
        self.sq += e * e;
        self.covered += usize::from(f.covers(actual));
        self.width += f.upper - f.lower;
        self.sd += f.variance.max(0.0).sqrt();
    }

    fn score(&self, step: usize) -> StepScore {
        let n = self.n.max(1) as f64;
        StepScore {
            step,
            forecasts: self.n,
            mae: self.abs / n,
            rmse: (self.sq / n).sqrt(),
            coverage: self.covered as f64 / n,
            mean_width: self.width / n,
            mean_sd: self.sd / n,
        }
    }
}

/// One method's running scores: method, online state, per-step
/// accumulators, failures, the first failure, the last model.
struct Running {
    method: ForecastMethod,
    runner: Runner,
    accs: Vec<Acc>,
    failures: usize,
    first_failure: Option<String>,
    last_model: String,
    one_step: Vec<(usize, StepForecast)>,
}

/// One method's online state.
enum Runner {
    Gp(Option<Box<HistoryGp>>),
    Arima(Option<Box<Arima>>, usize),
    Baseline,
}

/// Rolling-origin evaluation of `params.methods` on `values` (regular grid,
/// NaN = missing).
pub fn evaluate(values: &[f64], params: &EvaluateParams) -> Result<Evaluation, ForecastError> {
    let fp = &params.forecast;
    fp.validate()?;
    check_series(values)?;
    if params.origins == 0 {
        return Err(ForecastError::param("origins", "must be at least 1"));
    }
    if params.arima_refit_every == 0 {
        return Err(ForecastError::param(
            "arima_refit_every",
            "must be at least 1",
        ));
    }
    let k = fp.horizon;
    let n = values.len();
    let min_train = fp.training_len();
    if n < min_train + k {
        return Err(ForecastError::TooShort {
            what: format!(
                "a rolling-origin evaluation with h = {}, N = {}, K = {k}",
                fp.window, fp.latest
            ),
            needed: min_train + k,
            got: n,
        });
    }
    let last_origin = n - k; // forecasts values[o..o + k]
    let first = last_origin
        .saturating_sub(params.origins - 1)
        .max(min_train);
    let mut baseline_params = fp.baselines.clone();
    if baseline_params.period.is_none() {
        baseline_params.period =
            detect_period(&values[..first], &baseline_params.period_detection).map(|p| p.samples);
    }
    let period = baseline_params.period;
    let window = |o: usize| &values[o.saturating_sub(min_train)..o];
    let mut reports: Vec<Running> = params
        .methods
        .iter()
        .map(|&m| {
            let runner = match m {
                ForecastMethod::Gp => Runner::Gp(None),
                ForecastMethod::Arima => Runner::Arima(None, 0),
                _ => Runner::Baseline,
            };
            let accs = (0..k).map(|_| Acc::default()).collect();
            Running {
                method: m,
                runner,
                accs,
                failures: 0,
                first_failure: None,
                last_model: String::new(),
                one_step: Vec::new(),
            }
        })
        .collect();
    for o in first..=last_origin {
        for Running {
            method,
            runner,
            accs,
            failures,
            first_failure,
            last_model,
            one_step,
        } in reports.iter_mut()
        {
            let result: Result<Vec<StepForecast>, ForecastError> = match runner {
                Runner::Gp(state) => {
                    // Feed the value that arrived since the last origin, or
                    // (re)fit when there is no model yet.
                    let step = match state.as_mut() {
                        Some(gp) => gp.append(values[o - 1]),
                        None => HistoryGp::fit(window(o), fp.window, fp.latest, &fp.gp)
                            .map(|g| *state = Some(Box::new(g))),
                    };
                    match step {
                        Err(e) => {
                            *state = None;
                            Err(e)
                        }
                        Ok(()) => {
                            let gp = state.as_ref().expect("fitted above");
                            *last_model = gp.describe();
                            gp.forecast(k, fp.level)
                        }
                    }
                }
                Runner::Arima(state, age) => {
                    let w = window(o);
                    let refit = state.is_none() || *age >= params.arima_refit_every;
                    let model = if refit {
                        *age = 0;
                        auto_arima(w, &fp.arima).map(|s| s.model)
                    } else {
                        let f = state.as_ref().expect("checked").fit_summary();
                        Arima::with_coefficients(w, f.order, &f.ar, &f.ma, f.mean, None)
                    };
                    *age += 1;
                    match model {
                        Err(e) => {
                            *state = None;
                            Err(e)
                        }
                        Ok(m) => {
                            *last_model = m.describe();
                            let f = m.forecast(k, fp.level);
                            *state = Some(Box::new(m));
                            f
                        }
                    }
                }
                // No period before the first origin: no seasonal forecast
                // at any origin (rather than one detected later on less
                // history than the others had).
                Runner::Baseline if *method == ForecastMethod::SeasonalNaive && period.is_none() => {
                    Err(ForecastError::Fit(
                        "seasonal naive: no period in the spectrum of the values before the first origin".into(),
                    ))
                }
                Runner::Baseline => Baselines::new(&values[..o], &baseline_params).and_then(|b| {
                    *last_model = b.describe(*method);
                    b.forecast(*method, k, fp.level)
                }),
            };
            match result {
                Ok(steps) => {
                    if params.keep_one_step {
                        if let Some(first) = steps.first() {
                            one_step.push((o - 1 + first.step, *first));
                        }
                    }
                    for (acc, s) in accs.iter_mut().zip(&steps) {
                        let actual = values[o - 1 + s.step];
                        if !actual.is_nan() {
                            acc.add(s, actual);
                        }
                    }
                }
                Err(e) => {
                    *failures += 1;
                    first_failure.get_or_insert_with(|| format!("origin {o}: {e}"));
                }
            }
        }
    }
    Ok(Evaluation {
        len: n,
        first_origin: first,
        origins: last_origin + 1 - first,
        level: fp.level,
        period,
        methods: reports
            .into_iter()
            .map(|r| MethodReport {
                method: r.method,
                steps: r
                    .accs
                    .iter()
                    .enumerate()
                    .map(|(i, a)| a.score(i + 1))
                    .collect(),
                failures: r.failures,
                first_failure: r.first_failure,
                last_model: r.last_model,
                one_step: r.one_step,
            })
            .collect(),
    })
}
