//! Trends through daily peaks, with their intervals, as bands of levels a
//! day ahead: the fitted growth model (auto-ARIMA of [`crate::forecast`] on
//! the daily peaks) and the planners' simple rule it is compared with (a
//! least-squares line through the daily peaks, with the textbook
//! prediction interval).
//!
//! Why ARIMA on daily peaks: the daily cycle is taken out by taking one
//! peak a day; what is left is a level that drifts (a random walk with
//! drift, ARIMA(0,1,0) with a constant, is the classic model of growth),
//! mean-reverts (ARMA) or both, and the KPSS tests and AIC choose among
//! them on the evidence. Its interval widens with the horizon as a drifting
//! level's should (√h for a random walk), where the straight line's widens
//! only with the distance from the data's centre.
//!
//! Both bands are at 80 % (P10 to P90): the runway's P10 date is when the
//! upper band reaches a limit, its P90 date when the lower one does. The
//! fitted band is that of the highest peak so far (simulated paths,
//! [`super::passage`]), so these are the quantiles of the day a limit is
//! first reached; the line's is the textbook interval of the level on each
//! day, as planners use it, kept as the rule it is compared with.

use super::detrend::{trend_stationary, PolyTrend};
use super::error::RunwayError;
use super::passage::{running_max_band, PathModel, PATHS};
use super::scale::{check_log, guerrero_cv, log_defined, Scale, ScaleChoice};
use super::season::{
    calendar_periods, choose, min_autocorrelation, Season, SeasonChoice, SeasonKind,
};
use crate::forecast::{auto_arima, ArimaParams, SelectParams, Selection};
use crate::numerics::quantile::student_t_quantile;
use crate::numerics::stats::median;
use serde::{Deserialize, Serialize};

/// Fewest days with a peak a trend is fitted on: with fewer, a line
/// through them is mostly noise and ARIMA has no degrees of freedom left.
pub const MIN_DAYS: usize = 5;

/// Days of the latest peaks whose median is "today's" level (a week: one
/// of each weekday, so a weekly cycle does not move it).
pub const LEVEL_DAYS: usize = 7;

/// A forecast is supported as far ahead as its history reaches back; a
/// date further out is marked as extrapolated.
pub const SUPPORT_RATIO: f64 = 1.0;

/// Levels a day ahead, index 0 = the last day of history, P10/P50/P90.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Band {
    /// The 10th percentile of each day's peak.
    pub p10: Vec<f64>,
    /// The median.
    pub p50: Vec<f64>,
    /// The 90th percentile.
    pub p90: Vec<f64>,
    /// The model, in a few words.
    pub model: String,
    /// The seasonal period the fitted model used, in steps (`None`: no
    /// season, or not the fitted model).
    #[serde(default)]
    pub season: Option<usize>,
    /// The scale the fitted model's trend was modelled on (the level for
    /// the line and for a band with no model).
    #[serde(default)]
    pub scale: Scale,
}

impl Band {
    /// A band of one level for every day (no interval).
    pub fn flat(level: f64, days: usize, model: &str) -> Band {
        Band {
            p10: vec![level; days + 1],
            p50: vec![level; days + 1],
            p90: vec![level; days + 1],
            model: model.to_string(),
            season: None,
            scale: Scale::Level,
        }
    }
}

/// What the fit saw: how much history and how far its forecast is
/// supported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Days with a peak.
    pub days: usize,
    /// Days spanned, first to last.
    pub span_days: usize,
    /// How many days ahead the forecast is supported
    /// ([`SUPPORT_RATIO`] × the span).
    pub supported_days: usize,
}

impl Evidence {
    /// The evidence of `peaks`.
    pub fn of(peaks: &[f64]) -> Evidence {
        let days = peaks.iter().filter(|p| p.is_finite()).count();
        Evidence {
            days,
            span_days: peaks.len(),
            supported_days: (SUPPORT_RATIO * peaks.len() as f64).floor() as usize,
        }
    }
}

/// Today's level: the median of the latest [`LEVEL_DAYS`] peaks.
pub fn level_now(peaks: &[f64]) -> Option<f64> {
    let recent: Vec<f64> = peaks
        .iter()
        .rev()
        .filter(|p| p.is_finite())
        .take(LEVEL_DAYS)
        .copied()
        .collect();
    median(&recent)
}

/// Checks there is enough history; names the resource when not.
fn enough(peaks: &[f64], resource: &str) -> Result<(), RunwayError> {
    let days = peaks.iter().filter(|p| p.is_finite()).count();
    if days < MIN_DAYS {
        return Err(RunwayError::TooShort {
            resource: resource.to_string(),
            days,
            needed: MIN_DAYS,
        });
    }
    Ok(())
}

/// Whether the peaks are (numerically) all the same: no trend to fit, and
/// no spread for a model to estimate.
fn is_flat(peaks: &[f64]) -> Option<f64> {
    let seen: Vec<f64> = peaks.iter().copied().filter(|p| p.is_finite()).collect();
    let lo = seen.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = seen.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (hi - lo <= 1e-9 * hi.abs().max(1.0)).then_some(lo)
}

/// The auto-ARIMA search of the fitted model (p, q ≤ 2, d by KPSS up to
/// 1, with a constant).
fn select() -> SelectParams {
    SelectParams {
        max_p: 2,
        max_q: 2,
        max_order: 2,
        max_d: 1,
        fit: ArimaParams::default(),
        ..SelectParams::default()
    }
}

/// A trend model fitted on one scale: the season taken out, the ARIMA
/// selected on what is left.
struct TrendFit {
    /// The season found or given (on this scale).
    cycle: Option<Season>,
    /// The series the ARIMA was fitted on (deseasonalized, on the scale).
    trend_of: Vec<f64>,
    /// The selected ARIMA.
    fit: Selection,
}

/// Fits `series` (already on its scale): the season `season` asks for,
/// then auto-ARIMA on the deseasonalized series.
fn fit_trend(
    series: &[f64],
    season: SeasonChoice,
    step_days: f64,
    resource: &str,
) -> Result<TrendFit, RunwayError> {
    let cycle = choose(series, season, step_days)?;
    let trend_of = cycle
        .as_ref()
        .map_or_else(|| series.to_vec(), |c| c.remove(series));
    let fit = auto_arima(&trend_of, &select())
        .map_err(|e| RunwayError::Fit(resource.to_string(), e.to_string()))?;
    Ok(TrendFit {
        cycle,
        trend_of,
        fit,
    })
}

/// The scale `choice` asks for on `peaks`, with why in a few words.
///
/// `Auto` reads it from how the history's spread moves with its level,
/// by Guerrero's criterion as R's `forecast` package applies it to choose
/// a Box–Cox transformation ([`guerrero_cv`]; blocks of the season's
/// period, or of two steps with no season), restricted to the two scales
/// the runway models: the log when its spread is the more nearly constant
/// (and every peak is above zero). Why this and not a hold-out of the
/// history's last part (the rule before): a hold-out of a fifth of a
/// short history is a coin toss between two trends that agree over it,
/// while the spread's growth with the level is seen over the whole
/// history; where the level hardly moves the two scales forecast alike
/// and the choice hardly matters. Where the criterion is undefined (fewer
/// than two blocks), the level scale is kept.
fn choose_scale(
    peaks: &[f64],
    choice: ScaleChoice,
    season: SeasonChoice,
    step_days: f64,
) -> Result<(Scale, String), RunwayError> {
    match choice {
        ScaleChoice::Level => Ok((Scale::Level, "level scale".into())),
        ScaleChoice::Log => {
            check_log(peaks)?;
            Ok((Scale::Log, "log scale (asked for)".into()))
        }
        ScaleChoice::Auto if !log_defined(peaks) => Ok((
            Scale::Level,
            "level scale (a peak at or below 0 has no logarithm)".into(),
        )),
        ScaleChoice::Auto => {
            let period = choose(peaks, season, step_days)
                .ok()
                .flatten()
                .map_or(2, |c| c.period);
            let level = guerrero_cv(peaks, period, 1.0);
            let log = guerrero_cv(peaks, period, 0.0);
            Ok(match (level, log) {
                (Some(a), Some(b)) if b < a => (
                    Scale::Log,
                    format!(
                        "log scale (spread against level, Guerrero's variation over blocks of {period}: {b:.3} on the log against {a:.3} on the level)"
                    ),
                ),
                (Some(a), Some(b)) => (
                    Scale::Level,
                    format!(
                        "level scale (spread against level, Guerrero's variation over blocks of {period}: {a:.3} on the level against {b:.3} on the log)"
                    ),
                ),
                _ => (
                    Scale::Level,
                    "level scale (too short a history to read its spread against its level)".into(),
                ),
            })
        }
    }
}

/// Whether the peaks (no gaps) lie on one straight line.
fn is_exact_line(peaks: &[f64]) -> bool {
    if peaks.iter().any(|p| !p.is_finite()) {
        return false;
    }
    let d: Vec<f64> = peaks.windows(2).map(|w| w[1] - w[0]).collect();
    is_flat(&d).is_some()
}

/// The fitted model: auto-ARIMA (p, q ≤ 2, d by KPSS up to 1, with a
/// constant) on the daily peaks, `days` ahead, as the band of the highest
/// peak reached so far ([`super::passage`]): the days its quantiles reach
/// a level are the quantiles of the day the peaks first reach it. Day 0 is
/// today's level ([`level_now`]) in all three quantiles.
///
/// With a season ([`super::season`]: found among the calendar's cycles in
/// steps of `step_days` days, or the period `season` gives), the ARIMA is
/// fitted on the deseasonalized peaks and every path gets the cycle back
/// before its running maximum is taken; the model string names the
/// period and amplitude, or says that none was found.
///
/// On the scale `scale` asks for ([`super::scale`]; `Auto`: chosen from
/// how the history's spread moves with its level, `choose_scale`): on the log
/// scale the season and the ARIMA are fitted on the logarithm of the
/// peaks and the band of the paths' running maximum is exponentiated
/// (exactly the band of the exponentiated paths', `exp` being
/// increasing); the model string says which scale and why.
pub fn fitted_band(
    peaks: &[f64],
    days: usize,
    resource: &str,
    season: SeasonChoice,
    scale: ScaleChoice,
    step_days: f64,
) -> Result<Band, RunwayError> {
    enough(peaks, resource)?;
    let now = level_now(peaks).unwrap_or(0.0);
    if let Some(level) = is_flat(peaks) {
        return Ok(Band::flat(level, days, "flat: every daily peak the same"));
    }
    if is_exact_line(peaks) {
        // No variation around a straight line for a model to fit: the
        // line is the forecast, exactly.
        let mut band = linear_band(peaks, days, resource)?;
        band.p10[0] = now;
        band.p50[0] = now;
        band.p90[0] = now;
        return Ok(band);
    }
    let (scale, why_scale) = choose_scale(peaks, scale, season, step_days)?;
    let series = scale.apply(peaks);
    let TrendFit {
        cycle,
        trend_of,
        fit,
    } = fit_trend(&series, season, step_days, resource)?;
    let Paths {
        model,
        history,
        trend,
        described,
    } = paths_of(&fit, &trend_of, resource)?;
    let cycle = cycle.map(|c| with_spread(c, model.sigma2, &trend_of));
    let q = running_max_band(
        &model,
        &history,
        scale.of(now),
        days,
        PATHS,
        cycle.as_ref(),
        trend.as_ref(),
    )
    .ok_or_else(|| {
        RunwayError::Fit(
            resource.to_string(),
            "the last day has no peak to start the forecast from".into(),
        )
    })?;
    let back = |v: Vec<f64>| -> Vec<f64> { v.into_iter().map(|x| scale.undo(x)).collect() };
    let mut band = Band {
        p10: back(q.p10),
        p50: back(q.p50),
        p90: back(q.p90),
        model: String::new(),
        season: cycle.as_ref().map(|c| c.period),
        scale,
    };
    if band
        .p10
        .iter()
        .chain(&band.p50)
        .chain(&band.p90)
        .any(|v| !v.is_finite())
    {
        return Err(RunwayError::Fit(
            resource.to_string(),
            "the model forecast a non-finite level".into(),
        ));
    }
    let seasonal = match (&cycle, season) {
        (Some(c), _) => format!("{}, trend deseasonalized", c.describe()),
        (None, SeasonChoice::Off) => "no seasonal term (season off)".to_string(),
        (None, _) => {
            let periods = calendar_periods(step_days);
            let tried: Vec<usize> = periods
                .iter()
                .copied()
                .filter(|&p| peaks.len() >= 3 * p)
                .collect();
            if tried.is_empty() {
                format!(
                    "no season looked for (the calendar's periods {periods:?} need three of them in the history; it has {} steps)",
                    peaks.len()
                )
            } else {
                format!(
                    "no season found (the autocorrelation of the detrended history at {tried:?} is under {:.1} or not significant)",
                    min_autocorrelation()
                )
            }
        }
    };
    band.model = format!(
        "auto-ARIMA on daily peaks, {why_scale}, {seasonal}, highest peak so far over {PATHS} simulated paths: {described}"
    );
    Ok(band)
}

/// What the paths are drawn from: the model, the history it continues,
/// and the trend added to it (the trend-stationary alternative).
struct Paths {
    /// The ARIMA of the paths (of the errors around `trend`, with one).
    model: PathModel,
    /// The history the model continues (the errors, with a trend).
    history: Vec<f64>,
    /// The trend added to each path.
    trend: Option<PolyTrend>,
    /// The model, in a few words.
    described: String,
}

/// The paths of `fit` on the deseasonalized `trend_of`: when auto-ARIMA
/// took a difference (the history is not stationary around its mean) but
/// the history is stationary around a line or a quadratic by KPSS
/// ([`super::detrend`]), that trend with ARMA errors (no difference, no
/// constant: the trend has the level); otherwise the fit itself.
fn paths_of(fit: &Selection, trend_of: &[f64], resource: &str) -> Result<Paths, RunwayError> {
    let chosen = fit.model.fit_summary();
    let around = if chosen.order.d > 0 {
        trend_stationary(trend_of)
    } else {
        None
    };
    let Some((trend, errors)) = around else {
        return Ok(Paths {
            model: PathModel::of_fit(chosen, trend_of),
            history: trend_of.to_vec(),
            trend: None,
            described: fit.model.describe(),
        });
    };
    let params = SelectParams {
        d: Some(0),
        fit: ArimaParams {
            include_constant: false,
            ..ArimaParams::default()
        },
        ..select()
    };
    let arma = auto_arima(&errors, &params)
        .map_err(|e| RunwayError::Fit(resource.to_string(), e.to_string()))?;
    let model = PathModel::of_fit(arma.model.fit_summary(), &errors);
    let trend = trend.with_long_run_sd(model.long_run_sd());
    let described = format!(
        "{} with stationary errors, {} (KPSS around the trend {:.3}, stationary at 5 %; around its mean the history is not: {})",
        trend.name(),
        arma.model.describe(),
        trend.kpss,
        fit.model.describe()
    );
    Ok(Paths {
        model,
        history: errors,
        trend: Some(trend),
        described,
    })
}

/// `cycle` with a spread for every phase: when every phase was seen once
/// (no spread to pool), each phase's error is taken as one innovation of
/// the trend's fit (σ, over the mean level for a multiplicative cycle) —
/// a profile read off one cycle is as uncertain as one day of it.
fn with_spread(mut cycle: Season, sigma2: f64, deseasonalized: &[f64]) -> Season {
    if cycle.profile_se.is_none() {
        let sd = sigma2.max(0.0).sqrt();
        let sd = match cycle.kind {
            SeasonKind::Additive => sd,
            SeasonKind::Multiplicative => {
                let seen: Vec<f64> = deseasonalized
                    .iter()
                    .copied()
                    .filter(|v| v.is_finite())
                    .collect();
                let level = seen.iter().sum::<f64>() / seen.len().max(1) as f64;
                if level > 0.0 {
                    sd / level
                } else {
                    0.0
                }
            }
        };
        cycle.profile_se = Some(vec![sd; cycle.period]);
    }
    cycle
}

/// The planners' rule: the least-squares line through the daily peaks
/// (day index against peak, gaps left out), `days` ahead of the last day,
/// with the 80 % prediction interval of ordinary least squares
/// (`s·√(1 + 1/n + (x − x̄)²/Sxx)`, Student's t with n − 2 degrees of
/// freedom). Day 0 is the line at the last day.
pub fn linear_band(peaks: &[f64], days: usize, resource: &str) -> Result<Band, RunwayError> {
    enough(peaks, resource)?;
    let pts: Vec<(f64, f64)> = peaks
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_finite())
        .map(|(i, &p)| (i as f64, p))
        .collect();
    let n = pts.len() as f64;
    let xm = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let ym = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pts.iter().map(|p| (p.0 - xm).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - xm) * (p.1 - ym)).sum();
    let slope = sxy / sxx;
    let icpt = ym - slope * xm;
    let rss: f64 = pts.iter().map(|p| (p.1 - icpt - slope * p.0).powi(2)).sum();
    let s = (rss / (n - 2.0)).sqrt();
    let t = student_t_quantile(0.9, n - 2.0);
    let last = (peaks.len() - 1) as f64;
    let mut band = Band::flat(0.0, days, "");
    for d in 0..=days {
        let x = last + d as f64;
        let mean = icpt + slope * x;
        let half = t * s * (1.0 + 1.0 / n + (x - xm).powi(2) / sxx).sqrt();
        band.p10[d] = mean - half;
        band.p50[d] = mean;
        band.p90[d] = mean + half;
    }
    band.model = format!(
        "least-squares line on daily peaks: {:+.4} a day from {:.4}",
        slope,
        icpt + slope * last
    );
    Ok(band)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`fitted_band`] of a CPU series in daily steps.
    fn fit(
        peaks: &[f64],
        days: usize,
        season: SeasonChoice,
        scale: ScaleChoice,
    ) -> Result<Band, RunwayError> {
        fitted_band(peaks, days, "cpu", season, scale, 1.0)
    }

    #[test]
    fn a_line_through_exact_points_has_no_interval_and_extends_the_line() {
        // y = 0.3 + 0.01·d exactly, plus one zero-residual check: the
        // band's median continues the line and its width is zero.
        let peaks: Vec<f64> = (0..10).map(|d| 0.3 + 0.01 * d as f64).collect();
        let b = linear_band(&peaks, 20, "cpu").unwrap();
        assert!((b.p50[0] - 0.39).abs() < 1e-12);
        assert!((b.p50[20] - 0.59).abs() < 1e-12);
        assert!((b.p90[20] - b.p10[20]).abs() < 1e-9);
    }

    #[test]
    fn the_linear_interval_matches_the_textbook_formula_by_hand() {
        // Five points; the interval at x = 6 computed independently.
        let peaks = [1.0, 2.0, 2.0, 4.0, 5.0];
        let b = linear_band(&peaks, 2, "cpu").unwrap();
        // slope = Sxy/Sxx = 10/10 = 1, intercept = 2.8 − 2 = 0.8, RSS =
        // 0.04 + 0.64 + 0.36 + 0.04 + 0.04 = 1.12... recomputed below.
        let (xm, ym) = (2.0, 2.8);
        let sxx = 10.0;
        let sxy: f64 = peaks
            .iter()
            .enumerate()
            .map(|(i, y)| (i as f64 - xm) * (y - ym))
            .sum();
        let slope = sxy / sxx;
        let icpt = ym - slope * xm;
        let rss: f64 = peaks
            .iter()
            .enumerate()
            .map(|(i, y)| (y - icpt - slope * i as f64).powi(2))
            .sum();
        let s = (rss / 3.0).sqrt();
        // t(0.9, 3) = 1.637744 (tables).
        let half = 1.637_744 * s * (1.0 + 0.2 + (6.0 - xm).powi(2) / sxx).sqrt();
        assert!((b.p50[2] - (icpt + slope * 6.0)).abs() < 1e-12);
        assert!(
            (b.p90[2] - b.p50[2] - half).abs() < 1e-5,
            "{} vs {half}",
            b.p90[2] - b.p50[2]
        );
    }

    #[test]
    fn too_short_and_flat_histories_are_said_not_fitted() {
        let e = fitted_band(
            &[0.5, 0.6, f64::NAN, 0.7],
            10,
            "cpu",
            SeasonChoice::Auto,
            ScaleChoice::Level,
            1.0,
        )
        .unwrap_err();
        assert!(e.to_string().contains("3 whole day(s)"), "{e}");
        let flat = fit(&[0.4; 9], 30, SeasonChoice::Auto, ScaleChoice::Level).unwrap();
        assert!(flat.p90.iter().all(|&v| v == 0.4));
    }

    #[test]
    fn a_growing_series_is_forecast_to_keep_growing_with_a_band_of_highs() {
        // A noisy upward drift of 0.5 points a day over 60 days. The band
        // is the running maximum's: it never falls, and (the drift being
        // known closely from 60 days) its width need not grow — the
        // highest of many noisy days spreads less than one day does.
        let mut rng = crate::numerics::rng::Rng::new(3);
        let peaks: Vec<f64> = (0..60)
            .map(|d| 0.30 + 0.005 * d as f64 + 0.01 * (rng.unit() - 0.5))
            .collect();
        let b = fit(&peaks, 90, SeasonChoice::Auto, ScaleChoice::Level).unwrap();
        assert!(b.p50[90] > b.p50[1] + 0.3, "{}", b.model);
        // The line continued: 0.30 + 0.005 × 149 ≈ 1.045 on day 90.
        assert!((b.p50[90] - 1.045).abs() < 0.03, "{}", b.p50[90]);
        for v in [&b.p10, &b.p50, &b.p90] {
            assert!(v[1..].windows(2).all(|w| w[0] <= w[1]));
        }
        assert!(b
            .p10
            .iter()
            .zip(&b.p50)
            .zip(&b.p90)
            .all(|((l, m), u)| l <= m && m <= u));
    }

    /// Daily peaks 0.3 + 0.002·t + 0.05·sin(2πt/7) + N(0, σ²), days
    /// `from..to`, the noise from `seed`.
    fn weekly(from: usize, to: usize, sigma: f64, seed: u64) -> Vec<f64> {
        let mut rng = crate::numerics::rng::Rng::new(seed);
        (from..to)
            .map(|t| {
                let t = t as f64;
                0.3 + 0.002 * t
                    + 0.05 * (2.0 * std::f64::consts::PI * t / 7.0).sin()
                    + sigma * rng.normal()
            })
            .collect()
    }

    /// The first day after `n − 1` at which `v` (a path from day `n` on)
    /// reaches `level`, counted from `n − 1`.
    fn crossing(v: &[f64], level: f64) -> Option<usize> {
        v.iter().position(|&x| x >= level).map(|i| i + 1)
    }

    #[test]
    fn a_weekly_cycle_is_found_and_its_first_passage_is_the_curves_crossing() {
        // 10 weeks of history, level 0.45: the noiseless curve first
        // reaches it on a high of the cycle; the band's P50 day is that
        // day within a day (the noise, σ = 0.003, moves it little).
        let n = 70;
        let peaks = weekly(0, n, 0.003, 5);
        let b = fit(&peaks, 60, SeasonChoice::Auto, ScaleChoice::Level).unwrap();
        assert_eq!(b.season, Some(7), "{}", b.model);
        assert!(b.model.contains("seasonal period 7"), "{}", b.model);
        let level = 0.45;
        let truth = crossing(&weekly(n, n + 60, 0.0, 0), level).unwrap();
        let p50 = reach_day(&b.p50, level).unwrap();
        assert!(p50.abs_diff(truth) <= 1, "P50 day {p50}, curve {truth}");
        // Season off: the trend alone, and the model says so.
        let off = fit(&peaks, 60, SeasonChoice::Off, ScaleChoice::Level).unwrap();
        assert_eq!(off.season, None);
        assert!(off.model.contains("season off"), "{}", off.model);
        // A trend with white noise has no season, and says so.
        let mut rng = crate::numerics::rng::Rng::new(8);
        let plain: Vec<f64> = (0..n)
            .map(|t| 0.3 + 0.002 * t as f64 + 0.01 * rng.normal())
            .collect();
        let b = fit(&plain, 60, SeasonChoice::Auto, ScaleChoice::Level).unwrap();
        assert_eq!(b.season, None);
        assert!(b.model.contains("no season found"), "{}", b.model);
        let short = fit(&plain[..20], 10, SeasonChoice::Auto, ScaleChoice::Level).unwrap();
        assert!(
            short.model.contains("no season looked for"),
            "{}",
            short.model
        );
    }

    /// The first day `1..` at which `v` reaches `level`.
    fn reach_day(v: &[f64], level: f64) -> Option<usize> {
        v.iter().skip(1).position(|&x| x >= level).map(|i| i + 1)
    }

    #[test]
    fn the_seasonal_first_passage_interval_holds_the_truth_about_80_percent_of_the_time() {
        // 60 histories of 8 weeks of the same process (σ = 0.01), each
        // continued by the process itself: the share whose true first
        // passage of 0.5 falls inside P10–P90 is near the nominal 80 %
        // (60 draws: a binomial standard error of 5 points). The same
        // with the scale chosen (`Auto`): the weekly cycle's spread does
        // not grow with the level, so the log is rarely taken, and where
        // it is the calibration holds.
        for scale in [ScaleChoice::Level, ScaleChoice::Auto] {
            seasonal_coverage(scale);
        }
    }

    fn seasonal_coverage(scale: ScaleChoice) {
        let (n, level) = (56, 0.5);
        let mut covered = 0;
        let mut scored = 0;
        let mut logs = 0;
        for seed in 0..60 {
            let all = weekly(0, n + 90, 0.01, 1_000 + seed);
            let (history, future) = all.split_at(n);
            if history.iter().any(|&v| v >= level) {
                continue;
            }
            let Some(truth) = crossing(future, level) else {
                continue;
            };
            let b = fit(history, 90, SeasonChoice::Auto, scale).unwrap();
            logs += usize::from(b.scale == Scale::Log);
            let early = reach_day(&b.p90, level).unwrap_or(usize::MAX);
            let late = reach_day(&b.p10, level).unwrap_or(usize::MAX);
            scored += 1;
            if early <= truth && truth <= late {
                covered += 1;
            }
        }
        let share = covered as f64 / scored as f64;
        assert!(scored >= 50, "{scored}");
        assert!(
            (0.68..=0.92).contains(&share),
            "{scale:?}: {covered} of {scored} ({logs} on the log scale)"
        );
        eprintln!("{scale:?}: {covered} of {scored} covered, {logs} on the log scale");
    }

    /// Daily peaks on a bending trend, `0.3 + 0.002·t + 0.00002·t²`, with
    /// AR(1) deviations (φ = 0.6, σ = 0.01) that come back to it, days
    /// `0..n`, from `seed`.
    fn bending(n: usize, seed: u64) -> Vec<f64> {
        let mut rng = crate::numerics::rng::Rng::new(seed);
        let mut e = 0.0;
        (0..n)
            .map(|t| {
                e = 0.6 * e + 0.01 * rng.normal();
                let t = t as f64;
                0.3 + 0.002 * t + 0.000_02 * t * t + e
            })
            .collect()
    }

    #[test]
    fn deviations_that_come_back_to_a_bending_trend_are_modelled_so_and_calibrated() {
        // 60 histories of 120 days of the bending process, each continued
        // by the process itself: the model says it is the trend-stationary
        // one on most, and the share of true first passages of 0.95 inside
        // P10–P90 is near the nominal 80 % (60 draws: a binomial standard
        // error of 5 points).
        let (n, level) = (120, 0.95);
        let (mut covered, mut scored, mut stationary) = (0, 0, 0);
        for seed in 0..60 {
            let all = bending(n + 150, 2_000 + seed);
            let (history, future) = all.split_at(n);
            let Some(truth) = crossing(future, level) else {
                continue;
            };
            let b = fit(history, 150, SeasonChoice::Off, ScaleChoice::Level).unwrap();
            stationary += usize::from(b.model.contains("quadratic trend"));
            let early = reach_day(&b.p90, level).unwrap_or(usize::MAX);
            let late = reach_day(&b.p10, level).unwrap_or(usize::MAX);
            scored += 1;
            covered += usize::from(early <= truth && truth <= late);
        }
        let share = covered as f64 / scored as f64;
        assert!(scored >= 50, "{scored}");
        assert!(stationary >= 40, "{stationary} of 60 trend-stationary");
        assert!(
            (0.68..=0.92).contains(&share),
            "{covered} of {scored} covered ({stationary} trend-stationary)"
        );
        eprintln!("bending: {covered} of {scored} covered, {stationary} trend-stationary");
    }

    #[test]
    fn a_season_longer_than_half_the_history_or_of_one_day_is_refused() {
        let peaks = weekly(0, 20, 0.003, 1);
        for (p, word) in [(1, "at least 2"), (11, "two of them")] {
            let e = fit(&peaks, 10, SeasonChoice::Period(p), ScaleChoice::Level)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("season:") && e.contains(word), "{e}");
        }
        let b = fit(&peaks, 10, SeasonChoice::Period(7), ScaleChoice::Level).unwrap();
        assert_eq!(b.season, Some(7));
    }

    #[test]
    fn compound_growth_is_fitted_on_the_log_scale_and_crosses_when_the_curve_does() {
        // 1 % a step compounded from 0.2, noise of σ = 0.01 on the log
        // scale, 120 steps: the spread grows with the level, so the log
        // model is chosen, and the
        // P50 first-passage day of 1.2 is the curve's own, ln(1.2/0.2) /
        // ln(1.01) = 180.07 → step 181, day 62 after the last (step
        // 119), within 3 days (the noise's highs cross a little early).
        let mut rng = crate::numerics::rng::Rng::new(21);
        let peaks: Vec<f64> = (0..120)
            .map(|t| 0.2 * 1.01f64.powi(t) * (0.01 * rng.normal()).exp())
            .collect();
        let b = fit(&peaks, 120, SeasonChoice::Off, ScaleChoice::Auto).unwrap();
        assert_eq!(b.scale, Scale::Log, "{}", b.model);
        assert!(
            b.model.contains("log scale (spread against level"),
            "{}",
            b.model
        );
        let analytic = ((1.2f64 / 0.2).ln() / 1.01f64.ln()).ceil() as usize - 119;
        let p50 = reach_day(&b.p50, 1.2).unwrap();
        assert!(
            p50.abs_diff(analytic) <= 3,
            "P50 day {p50}, curve {analytic}"
        );
        // The level model, asked for, falls behind the compounding: its
        // median crossing is later than the curve's.
        let level = fit(&peaks, 120, SeasonChoice::Off, ScaleChoice::Level).unwrap();
        assert_eq!(level.scale, Scale::Level);
        assert!(reach_day(&level.p50, 1.2).is_none_or(|d| d > analytic + 3));
    }

    #[test]
    fn a_straight_line_is_fitted_on_the_level_scale() {
        // 0.1 + 0.01·t over 100 steps, σ = 0.005: in logs the line bends
        // (the log model would carry the early steps' 10 % a step on),
        // and the noise's spread does not grow with the level, so the
        // level model is kept, whose P50 crosses 1.5
        // when the line does: (1.5 − 0.1) / 0.01 = step 140, day 41.
        let mut rng = crate::numerics::rng::Rng::new(4);
        let peaks: Vec<f64> = (0..100)
            .map(|t| 0.1 + 0.01 * t as f64 + 0.005 * rng.normal())
            .collect();
        let b = fit(&peaks, 90, SeasonChoice::Off, ScaleChoice::Auto).unwrap();
        assert_eq!(b.scale, Scale::Level, "{}", b.model);
        assert!(
            b.model.contains("level scale (spread against level"),
            "{}",
            b.model
        );
        let p50 = reach_day(&b.p50, 1.5).unwrap();
        assert!(p50.abs_diff(41) <= 3, "P50 day {p50}");
    }

    #[test]
    fn the_log_scale_is_refused_for_a_peak_at_zero_and_never_chosen_for_it() {
        let mut peaks: Vec<f64> = (0..30).map(|t| 0.1 + 0.01 * t as f64).collect();
        peaks[3] = 0.0;
        peaks[7] += 0.02;
        let e = fit(&peaks, 10, SeasonChoice::Off, ScaleChoice::Log)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("scale:") && e.contains("step 3"), "{e}");
        let b = fit(&peaks, 10, SeasonChoice::Off, ScaleChoice::Auto).unwrap();
        assert_eq!(b.scale, Scale::Level);
        assert!(b.model.contains("no logarithm"), "{}", b.model);
    }
}
