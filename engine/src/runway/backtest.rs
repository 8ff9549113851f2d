//! Backtests on real series: cut a series' daily peaks at a past day,
//! forecast when its peak crosses a level it really crossed later, and
//! score the forecast against what happened — for the fitted model
//! (auto-ARIMA on daily peaks, [`super::trend::fitted_band`]) and the
//! planners' simple rule (the least-squares line on daily peaks with its
//! prediction interval, [`super::trend::linear_band`]), on the same cuts.
//!
//! A *case* is a cut day `c` (every `cut_every_days` from
//! `min_history_days` on) and a level `(1 + rise) ×` the highest peak seen
//! up to `c`, kept only when a later peak really reaches it; its true time
//! is the days from `c` to the first such peak. The forecast's P50 time is
//! the first day its median reaches the level (not within the horizon:
//! the horizon, counted as the prediction), its P10–P90 interval runs from
//! the first day the upper band reaches it to the first day the lower band
//! does (never: unbounded). Every case counts: the error is
//! `|predicted − true| / true`; coverage is the share of cases whose true
//! time falls inside the interval (nominal 80 %). A cut either method
//! cannot fit (too short a history, or shorter than two periods of a
//! season given by the caller) is left out for both.

use super::error::RunwayError;
use super::scale::{Scale, ScaleChoice};
use super::season::SeasonChoice;
use super::trend::{fitted_band, linear_band, Band};
use crate::numerics::stats::percentile;
use serde::{Deserialize, Serialize};

/// The backtest's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BacktestParams {
    /// Fewest days of history before the first cut (default 7: a week,
    /// above the trend's minimum of 5).
    pub min_history_days: usize,
    /// Days between cuts (default 1).
    pub cut_every_days: usize,
    /// Levels as rises over the highest peak seen (default 2 %, 5 %,
    /// 10 %, 20 %).
    pub rises: Vec<f64>,
    /// Days a forecast looks ahead (default 365).
    pub horizon_days: usize,
    /// The fitted model's seasonal term (default: found in each cut's
    /// history, [`super::season`]); a period is in steps.
    pub season: SeasonChoice,
    /// The scale of the fitted model's trend (default `Auto`: chosen in
    /// each cut's history by how its spread moves with its level,
    /// [`super::scale`]).
    pub scale: ScaleChoice,
    /// Days a step of the series spans (default 1: daily peaks; 7 for
    /// weekly samples), which turns the calendar's week and year into
    /// the periods a season is looked for at.
    pub step_days: f64,
}

impl Default for BacktestParams {
    fn default() -> Self {
        BacktestParams {
            min_history_days: 7,
            cut_every_days: 1,
            rises: vec![0.02, 0.05, 0.10, 0.20],
            horizon_days: 365,
            season: SeasonChoice::Auto,
            scale: ScaleChoice::Auto,
            step_days: 1.0,
        }
    }
}

/// One method's scores over every case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodScore {
    /// Share of cases whose true time fell inside P10–P90.
    pub coverage: f64,
    /// Median of `|predicted − true| / true`.
    pub median_error: f64,
    /// Its 25th and 75th percentiles.
    pub error_quartiles: [f64; 2],
    /// Its 90th percentile.
    pub error_p90: f64,
    /// Cases whose median forecast never reached the level within the
    /// horizon.
    pub never: usize,
    /// Cases missed because the level was crossed before the interval's
    /// early end (the forecast was late).
    pub truth_before_p10: usize,
    /// Cases missed because the level was crossed after the interval's
    /// late end (the forecast was early).
    pub truth_after_p90: usize,
}

/// A backtest of one or more series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BacktestReport {
    /// The series, by name.
    pub series: Vec<String>,
    /// Cases scored.
    pub cases: usize,
    /// Cut days.
    pub cuts: usize,
    /// The median true time to crossing, days.
    pub median_true_days: f64,
    /// Cases whose true time is past the horizon (no forecast can date
    /// them: a median that never reaches the level counts as the horizon).
    pub beyond_horizon: usize,
    /// The fitted model's scores.
    #[serde(flatten)]
    pub fitted: MethodScore,
    /// The planners' rule's scores.
    pub baseline: MethodScore,
    /// The seasonal periods the fitted model used, each with its number of
    /// cuts (cuts without a season are not counted), by period.
    pub seasons: Vec<[usize; 2]>,
    /// Cuts whose fitted model was on the log scale.
    #[serde(default)]
    pub log_scale_cuts: usize,
}

/// One case's outcome for one method: error, where the truth fell
/// against P10–P90 (−1 before its early end, 0 inside, 1 after its late
/// end), never.
type Outcome = (f64, i8, bool);

/// The first day `1..=h` at which `v` reaches `level`.
fn reach(v: &[f64], level: f64) -> Option<usize> {
    v.iter()
        .enumerate()
        .skip(1)
        .find(|(_, &x)| x >= level)
        .map(|(d, _)| d)
}

fn outcome(band: &Band, level: f64, truth: usize, horizon: usize) -> Outcome {
    let p50 = reach(&band.p50, level);
    let early = reach(&band.p90, level).unwrap_or(usize::MAX);
    let late = reach(&band.p10, level).unwrap_or(usize::MAX);
    let predicted = p50.unwrap_or(horizon) as f64;
    (
        (predicted - truth as f64).abs() / truth as f64,
        if truth < early {
            -1
        } else if truth > late {
            1
        } else {
            0
        },
        p50.is_none(),
    )
}

fn score(outcomes: &[Outcome]) -> MethodScore {
    let errors: Vec<f64> = outcomes.iter().map(|o| o.0).collect();
    let q = |p: f64| percentile(&errors, p).unwrap_or(f64::NAN);
    MethodScore {
        coverage: outcomes.iter().filter(|o| o.1 == 0).count() as f64
            / outcomes.len().max(1) as f64,
        truth_before_p10: outcomes.iter().filter(|o| o.1 < 0).count(),
        truth_after_p90: outcomes.iter().filter(|o| o.1 > 0).count(),
        median_error: q(50.0),
        error_quartiles: [q(25.0), q(75.0)],
        error_p90: q(90.0),
        never: outcomes.iter().filter(|o| o.2).count(),
    }
}

/// Backtests `series` (name, daily peaks; NaN = a day left out) together:
/// every case of every series scored by both methods.
pub fn backtest(
    series: &[(String, Vec<f64>)],
    params: &BacktestParams,
) -> Result<BacktestReport, RunwayError> {
    if params.cut_every_days == 0 || params.horizon_days == 0 {
        return Err(RunwayError::Backtest(
            "cuts and horizon must be at least one day".into(),
        ));
    }
    if params.rises.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
        return Err(RunwayError::Backtest(
            "rises must be positive fractions".into(),
        ));
    }
    if !(params.step_days.is_finite() && params.step_days > 0.0) {
        return Err(RunwayError::param(
            "step",
            format!(
                "{} days: a step is a positive number of days",
                params.step_days
            ),
        ));
    }
    params.season.validate()?;
    if let SeasonChoice::Period(p) = params.season {
        let longest = series.iter().map(|s| s.1.len()).max().unwrap_or(0);
        if p > longest / 2 {
            return Err(RunwayError::param(
                "season",
                format!("a period of {p} steps needs two of them in a history; the longest series has {longest}"),
            ));
        }
    }
    if params.scale == ScaleChoice::Log {
        for (_, peaks) in series {
            super::scale::check_log(peaks)?;
        }
    }
    let mut fitted = Vec::new();
    let mut baseline = Vec::new();
    let mut truths = Vec::new();
    let mut cuts = 0;
    let mut seasons = std::collections::BTreeMap::new();
    let mut log_cuts = 0;
    for (name, peaks) in series {
        let mut c = params
            .min_history_days
            .max(super::trend::MIN_DAYS)
            .saturating_sub(1);
        while c + 1 < peaks.len() {
            let history = &peaks[..=c];
            let seen = history
                .iter()
                .copied()
                .filter(|p| p.is_finite())
                .fold(f64::NEG_INFINITY, f64::max);
            let cases: Vec<(f64, usize)> = params
                .rises
                .iter()
                .filter_map(|r| {
                    let level = seen * (1.0 + r);
                    let t = peaks[c + 1..].iter().position(|&p| p >= level)? + 1;
                    Some((level, t))
                })
                .collect();
            if !cases.is_empty() && seen.is_finite() && seen > 0.0 {
                let ours = fitted_band(
                    history,
                    params.horizon_days,
                    name,
                    params.season,
                    params.scale,
                    params.step_days,
                );
                let line = linear_band(history, params.horizon_days, name);
                if let (Ok(ours), Ok(line)) = (ours, line) {
                    cuts += 1;
                    if let Some(p) = ours.season {
                        *seasons.entry(p).or_insert(0) += 1;
                    }
                    if ours.scale == Scale::Log {
                        log_cuts += 1;
                    }
                    for (level, t) in cases {
                        fitted.push(outcome(&ours, level, t, params.horizon_days));
                        baseline.push(outcome(&line, level, t, params.horizon_days));
                        truths.push(t as f64);
                    }
                }
            }
            c += params.cut_every_days;
        }
    }
    if truths.is_empty() {
        return Err(RunwayError::Backtest(
            "no cut of these series is followed by a crossing to forecast (series too short or never rising)".into(),
        ));
    }
    Ok(BacktestReport {
        series: series.iter().map(|(n, _)| n.clone()).collect(),
        cases: truths.len(),
        cuts,
        median_true_days: percentile(&truths, 50.0).unwrap_or(f64::NAN),
        beyond_horizon: truths
            .iter()
            .filter(|&&t| t > params.horizon_days as f64)
            .count(),
        fitted: score(&fitted),
        baseline: score(&baseline),
        seasons: seasons.into_iter().map(|(p, c)| [p, c]).collect(),
        log_scale_cuts: log_cuts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_line_is_forecast_exactly_by_both_methods_rule() {
        // Peaks rising exactly 1 % a day: the line's crossing is exact, so
        // its error is zero on every case.
        let peaks: Vec<f64> = (0..40).map(|d| 0.2 + 0.01 * d as f64).collect();
        let r = backtest(&[("line".into(), peaks)], &BacktestParams::default()).unwrap();
        assert!(r.cases > 10, "{}", r.cases);
        assert!(r.baseline.median_error < 1e-9, "{:?}", r.baseline);
        assert_eq!(r.baseline.never, 0);
    }

    #[test]
    fn scores_are_computed_over_every_case_by_hand() {
        // Three outcomes: errors 0.5, 0.0 and 1.0, one covered, one
        // crossed after the interval, one before.
        let s = score(&[(0.5, 0, false), (0.0, 1, true), (1.0, -1, false)]);
        assert!((s.coverage - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!((s.truth_before_p10, s.truth_after_p90), (1, 1));
        assert_eq!(s.median_error, 0.5);
        assert_eq!(s.never, 1);
    }

    #[test]
    fn a_series_that_never_rises_has_nothing_to_score() {
        let e = backtest(
            &[("flat".into(), vec![0.5; 30])],
            &BacktestParams::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("no cut"), "{e}");
    }

    #[test]
    fn bad_steps_and_seasons_are_named() {
        let peaks: Vec<f64> = (0..40).map(|d| 0.2 + 0.01 * d as f64).collect();
        let series = [("line".to_string(), peaks)];
        let bad = |step_days: f64, season: SeasonChoice| BacktestParams {
            step_days,
            season,
            ..BacktestParams::default()
        };
        for (p, word) in [
            (bad(f64::NAN, SeasonChoice::Auto), "step:"),
            (bad(1.0, SeasonChoice::Period(1)), "season:"),
            (bad(1.0, SeasonChoice::Period(21)), "season:"),
        ] {
            let e = backtest(&series, &p).unwrap_err().to_string();
            assert!(e.starts_with(word), "{e}");
        }
    }
}
