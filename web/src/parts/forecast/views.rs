//! What the worker sends the forecast view: a series put on its regular
//! grid, the rolling one-step forecasts of every method over its last
//! origins with their scores, and each method's forecast ahead.
//!
//! Runs in the worker only; the page draws what it gets.

use super::protocol::{BandPoint, ForecastSettings, ForecastView, MethodView};
use skyplan_engine::forecast::{
    evaluate, forecast, regular_grid, EvaluateParams, ForecastMethod, ForecastParams,
};
use skyplan_engine::Workspace;

/// Observations shown before the first origin, as context.
const CONTEXT: usize = 100;

/// Forecasts the utilization series at `index` by every method.
///
/// # Errors
/// No such series, or the engine's message (settings out of range, a series
/// too short for them).
pub fn forecast_view(
    ws: &Workspace,
    ticket: u32,
    index: usize,
    settings: &ForecastSettings,
) -> Result<ForecastView, String> {
    let s = ws
        .series()
        .nth(index)
        .ok_or_else(|| format!("there is no series #{index} any more"))?;
    let grid = regular_grid(&s.timestamps, &s.values, None);
    let at = |i: usize| grid.start + grid.step * i as i64;
    let params = ForecastParams {
        window: settings.window,
        latest: settings.latest,
        horizon: 1,
        level: settings.level,
        ..ForecastParams::default()
    };
    let evaluation = evaluate(
        &grid.values,
        &EvaluateParams {
            forecast: params.clone(),
            origins: settings.origins,
            methods: ForecastMethod::ALL.to_vec(),
            keep_one_step: true,
            ..EvaluateParams::default()
        },
    )
    .map_err(|e| e.to_string())?;
    let ahead_params = ForecastParams {
        horizon: settings.horizon,
        ..params
    };
    let band = |i: usize, mean: f64, lower: f64, upper: f64| BandPoint {
        at: at(i),
        mean,
        lower,
        upper,
    };
    let n = grid.values.len();
    let methods = evaluation
        .methods
        .iter()
        .map(|r| {
            let score = r.steps.first();
            let ahead = forecast(&grid.values, r.method, &ahead_params)
                .map(|f| {
                    f.steps
                        .iter()
                        .map(|s| band(n - 1 + s.step, s.mean, s.lower, s.upper))
                        .collect()
                })
                .unwrap_or_default();
            MethodView {
                method: r.method,
                one_step: r
                    .one_step
                    .iter()
                    .map(|(i, f)| band(*i, f.mean, f.lower, f.upper))
                    .collect(),
                ahead,
                forecasts: score.map_or(0, |s| s.forecasts),
                mae: score.map_or(f64::NAN, |s| s.mae),
                rmse: score.map_or(f64::NAN, |s| s.rmse),
                coverage: score.map_or(f64::NAN, |s| s.coverage),
                width: score.map_or(f64::NAN, |s| s.mean_width),
                failures: r.failures,
                first_failure: r.first_failure.clone(),
                model: r.last_model.clone(),
            }
        })
        .collect();
    let from = evaluation.first_origin.saturating_sub(CONTEXT);
    let actual = grid.values[from..]
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .map(|(i, &v)| (at(from + i), v))
        .collect();
    Ok(ForecastView {
        ticket,
        index,
        server: s.server.clone(),
        resource: s.resource.name().to_owned(),
        step_secs: grid.step,
        missing: grid.missing,
        actual,
        level: evaluation.level,
        period: evaluation.period,
        methods,
        millis: 0.0,
    })
}
