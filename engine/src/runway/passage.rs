//! First passage: when the daily peak *first* reaches a level, by the
//! fitted model's simulated paths — the band of their running maximum.
//!
//! Why not the forecast's own interval: the P10–P90 band of the level on
//! one day is not the band of the day a level is first reached. A path
//! crosses on the first day it is above the level, on any day before; the
//! chance that it has crossed by day `t` is that of its running maximum
//! being above the level, `P(τ ≤ t) = P(max_{s≤t} y_s ≥ L)`, which is larger
//! than `P(y_t ≥ L)` (twice as large for a driftless random walk, by the
//! reflection principle). A stationary series makes this plain: its
//! level band is flat, so it never dates a new high, while its peaks do
//! make new highs, sooner the longer one waits. So the runway's band is the
//! pointwise P10/P50/P90 of the running maximum of simulated paths: the
//! first day its P90 reaches a limit is the P10 of the first-passage day,
//! the first day its P10 does is the P90 — exact quantiles of τ, up to the
//! Monte Carlo error.
//!
//! The paths: the ARIMA(p, d, q) recursion of the fit on the differenced
//! series, started from the history's own innovations (the conditional
//! residuals of the fitted coefficients, a missing day filled by its
//! one-step prediction), new innovations drawn `N(0, σ²)`, differences
//! undone from the last levels. With a constant, each path also draws its
//! own mean of the differenced series around the estimate, with the
//! estimate's standard error `σ·(1 + Σθ)/(1 − Σφ)/√n` (the long-run
//! standard deviation of an ARMA mean over n observations): for a drift
//! this is the trend's uncertainty, which over `h` days grows as `h/√n`
//! and passes the innovations' `√h` once the forecast reaches as far ahead
//! as the history reaches back.

use super::detrend::PolyTrend;
use super::season::Season;
use crate::forecast::arima::difference;
use crate::forecast::ArimaFit;
use crate::numerics::rng::Rng;
use crate::numerics::stats::percentile_select;

/// Paths simulated (2,000: the Monte Carlo standard error of the
/// probability behind a P10 date is `√(0.1·0.9/2000)` ≈ 0.7 points, below
/// the backtest's resolution).
pub const PATHS: usize = 2_000;

/// The paths' seed: the runway is a function of its input, the same
/// answer every run.
pub const SEED: u64 = 0x5EED_0036;

/// Mixed into [`SEED`] for the draws of each path's seasonal profile, so
/// that the trend's paths are the same with a season as without.
pub const SEASON_SEED: u64 = 0x5EA5_0000;

/// Mixed into [`SEED`] for the draws of each path's trend coefficients
/// (the trend-stationary model, [`super::detrend`]).
pub const TREND_SEED: u64 = 0x7E4D_0000;

/// The P10, P50 and P90 of each day ahead, index 0 … days (the trend
/// that reads them makes them its band).
#[derive(Clone, Debug, PartialEq)]
pub struct Quantiles {
    /// The 10th percentile.
    pub p10: Vec<f64>,
    /// The median.
    pub p50: Vec<f64>,
    /// The 90th percentile.
    pub p90: Vec<f64>,
}

/// What the paths are drawn from: an ARIMA model's coefficients, plain.
#[derive(Clone, Debug, PartialEq)]
pub struct PathModel {
    /// Differences `d`.
    pub d: usize,
    /// φ_1 … φ_p.
    pub ar: Vec<f64>,
    /// θ_1 … θ_q.
    pub ma: Vec<f64>,
    /// μ of the differenced series (`None`: no constant, μ = 0).
    pub mean: Option<f64>,
    /// Standard error of μ (0: μ taken as known).
    pub mean_se: f64,
    /// Innovation variance σ².
    pub sigma2: f64,
}

impl PathModel {
    /// The model of a fit to `history`, μ's standard error from the
    /// differenced series' observed days.
    pub fn of_fit(fit: &ArimaFit, history: &[f64]) -> PathModel {
        let n = difference(history, fit.order.d)
            .iter()
            .filter(|v| v.is_finite())
            .count()
            .max(1) as f64;
        let mut model = PathModel {
            d: fit.order.d,
            ar: fit.ar.clone(),
            ma: fit.ma.clone(),
            mean: fit.mean,
            mean_se: 0.0,
            sigma2: fit.sigma2,
        };
        if model.mean.is_some() {
            model.mean_se = model.long_run_sd() / n.sqrt();
        }
        model
    }

    /// The long-run standard deviation of the ARMA part,
    /// `σ |1 + Σθ| / |1 − Σφ|`: the spread of a mean over n steps is this
    /// over √n, as if the steps were independent with this deviation.
    pub fn long_run_sd(&self) -> f64 {
        let ar_sum: f64 = self.ar.iter().sum();
        let ma_sum: f64 = self.ma.iter().sum();
        self.sigma2.max(0.0).sqrt() * (1.0 + ma_sum).abs() / (1.0 - ar_sum).abs().max(1e-6)
    }
}

/// The differenced history's deviations from μ and its innovations, a
/// missing day filled by its one-step prediction (innovation 0).
fn past(model: &PathModel, w: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mu = model.mean.unwrap_or(0.0);
    let mut x = Vec::with_capacity(w.len());
    let mut e = Vec::with_capacity(w.len());
    for &wt in w {
        let t = x.len();
        let predicted = arma_step(model, &x, &e, t);
        if wt.is_finite() {
            x.push(wt - mu);
            e.push(wt - mu - predicted);
        } else {
            x.push(predicted);
            e.push(0.0);
        }
    }
    (x, e)
}

/// The ARMA part's prediction of `x_t` from the values and innovations
/// before `t` (missing lags, before the start, count as 0).
fn arma_step(model: &PathModel, x: &[f64], e: &[f64], t: usize) -> f64 {
    let ar: f64 = (1..=model.ar.len())
        .filter(|&i| i <= t)
        .map(|i| model.ar[i - 1] * x[t - i])
        .sum();
    let ma: f64 = (1..=model.ma.len())
        .filter(|&j| j <= t)
        .map(|j| model.ma[j - 1] * e[t - j])
        .sum();
    ar + ma
}

/// The last value of each difference `Δˡ y`, l = 0 … d−1 (`None` when
/// one is missing: there is no origin to undo the differences from).
fn last_levels(history: &[f64], d: usize) -> Option<Vec<f64>> {
    (0..d)
        .map(|l| {
            difference(history, l)
                .last()
                .copied()
                .filter(|v| v.is_finite())
        })
        .collect()
}

/// `paths` simulated futures of `history` under `model`, `days` ahead:
/// `out[k * days + (t − 1)]` is path `k` on day `t` (1 … days). `None`
/// when the history's last day has no value to start from.
pub fn simulate(
    model: &PathModel,
    history: &[f64],
    days: usize,
    paths: usize,
    seed: u64,
) -> Option<Vec<f64>> {
    let levels = last_levels(history, model.d)?;
    let w = difference(history, model.d);
    if model.d == 0 && !history.last().is_some_and(|v| v.is_finite()) {
        return None;
    }
    let (x0, e0) = past(model, &w);
    let mu = model.mean.unwrap_or(0.0);
    let sigma = model.sigma2.max(0.0).sqrt();
    let mut rng = Rng::new(seed);
    let mut out = vec![0.0; paths * days];
    let mut x = x0.clone();
    let mut e = e0.clone();
    let mut acc = vec![0.0; model.d];
    for path in out.chunks_mut(days.max(1)).take(paths) {
        x.truncate(x0.len());
        e.truncate(e0.len());
        let mu_path = mu + model.mean_se * rng.normal();
        acc.copy_from_slice(&levels);
        for slot in path.iter_mut() {
            let t = x.len();
            let shock = sigma * rng.normal();
            let xt = arma_step(model, &x, &e, t) + shock;
            x.push(xt);
            e.push(shock);
            // Undo the differences: Δˡ y_t = Δˡ y_{t−1} + Δˡ⁺¹ y_t, from
            // the highest difference down.
            let mut v = mu_path + xt;
            for a in acc.iter_mut().rev() {
                *a += v;
                v = *a;
            }
            *slot = v;
        }
    }
    Some(out)
}

/// The P10/P50/P90 band of the running maximum of `paths` simulated
/// futures, `days` ahead; day 0 is `now` in all three.
///
/// With a `season`, `history` is the deseasonalized history the model was
/// fitted on, and each path gets the cycle back at its own phase (step
/// `history.len() − 1 + t` on day `t`) before its running maximum is
/// taken, so a path first reaches a level on a high of the cycle. Each
/// path draws its own profile around the estimate (every phase moved by
/// its standard error times a normal draw): the cycle's uncertainty, as
/// the drawn mean is the trend's.
///
/// With a `trend` ([`super::detrend`]), `model` is that of the errors
/// around it and `history` the errors: each path draws its own trend
/// coefficients and adds its trend before the cycle.
pub fn running_max_band(
    model: &PathModel,
    history: &[f64],
    now: f64,
    days: usize,
    paths: usize,
    season: Option<&Season>,
    trend: Option<&PolyTrend>,
) -> Option<Quantiles> {
    let mut sims = simulate(model, history, days, paths, SEED)?;
    let mut rng = Rng::new(SEED ^ SEASON_SEED);
    let mut trend_rng = Rng::new(SEED ^ TREND_SEED);
    let origin = history.len().saturating_sub(1);
    let mut shifts = Vec::new();
    let mut z = Vec::new();
    for path in sims.chunks_mut(days.max(1)) {
        if let Some(tr) = trend {
            z.clear();
            z.extend((0..=tr.degree).map(|_| trend_rng.normal()));
            for (t, v) in path.iter_mut().enumerate() {
                *v += tr.at((origin + 1 + t) as f64, &z);
            }
        }
        if let Some(s) = season {
            shifts.clear();
            let se = s.profile_se.as_deref().unwrap_or(&[]);
            shifts.extend((0..s.period).map(|k| se.get(k).map_or(0.0, |e| e * rng.normal())));
            for (t, v) in path.iter_mut().enumerate() {
                let step = origin + 1 + t;
                *v = s.add(*v, step, shifts[step % s.period]);
            }
        }
        let mut top = f64::NEG_INFINITY;
        for v in path.iter_mut() {
            top = top.max(*v);
            *v = top;
        }
    }
    Some(band_of(&sims, now, days, paths))
}

/// The pointwise P10/P50/P90 of `sims` (path-major, `days` a path).
pub fn band_of(sims: &[f64], now: f64, days: usize, paths: usize) -> Quantiles {
    let mut band = Quantiles {
        p10: vec![now; days + 1],
        p50: vec![now; days + 1],
        p90: vec![now; days + 1],
    };
    let mut column = Vec::with_capacity(paths);
    let mut scratch = Vec::with_capacity(paths);
    for t in 1..=days {
        column.clear();
        column.extend((0..paths).map(|k| sims[k * days + t - 1]));
        band.p10[t] = percentile_select(&column, 10.0, &mut scratch);
        band.p50[t] = percentile_select(&column, 50.0, &mut scratch);
        band.p90[t] = percentile_select(&column, 90.0, &mut scratch);
    }
    band
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forecast::{Arima, ArimaOrder};

    /// Φ by Abramowitz & Stegun 7.1.26 (error below 1.5e-7), independent
    /// of the engine.
    fn phi(z: f64) -> f64 {
        let x = z.abs() / std::f64::consts::SQRT_2;
        let t = 1.0 / (1.0 + 0.327_591_1 * x);
        let poly = t
            * (0.254_829_592
                + t * (-0.284_496_736
                    + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
        let erf = 1.0 - poly * (-x * x).exp();
        if z >= 0.0 {
            0.5 * (1.0 + erf)
        } else {
            0.5 * (1.0 - erf)
        }
    }

    /// `P(τ ≤ t)` for Brownian motion with drift μ and volatility σ first
    /// reaching `a > 0` (the inverse Gaussian law), the barrier moved up
    /// by Siegmund's 0.5826·σ for a walk observed once a day.
    fn first_passage_cdf(mu: f64, sigma: f64, a: f64, t: f64) -> f64 {
        let a = a + 0.5826 * sigma;
        let s = sigma * t.sqrt();
        phi((mu * t - a) / s) + (2.0 * mu * a / (sigma * sigma)).exp() * phi((-a - mu * t) / s)
    }

    #[test]
    fn first_passage_days_of_a_drifting_walk_match_the_closed_form() {
        // ARIMA(0,1,0) with drift 0.01 a day, σ = 0.03, from 0.3; level
        // 0.8: the running-maximum band's crossing days are the
        // first-passage quantiles of the inverse Gaussian law.
        let model = PathModel {
            d: 1,
            ar: vec![],
            ma: vec![],
            mean: Some(0.01),
            mean_se: 0.0,
            sigma2: 0.03 * 0.03,
        };
        let history = [0.28, 0.29, 0.3];
        let band = running_max_band(&model, &history, 0.3, 200, 4_000, None, None).unwrap();
        let first = |v: &[f64]| v.iter().position(|&x| x >= 0.8).unwrap() as f64;
        for (days, q) in [
            (first(&band.p90), 0.1),
            (first(&band.p50), 0.5),
            (first(&band.p10), 0.9),
        ] {
            // The q-quantile day t: P(τ ≤ t − 1) < q ≤ P(τ ≤ t), within
            // the Monte Carlo error (±0.02 at 4,000 paths, 3 s.e.).
            let before = first_passage_cdf(0.01, 0.03, 0.5, days - 1.0);
            let at = first_passage_cdf(0.01, 0.03, 0.5, days);
            assert!(
                before < q + 0.02 && at > q - 0.02,
                "q {q}: day {days}, F {before:.3}..{at:.3}"
            );
        }
    }

    #[test]
    fn simulated_levels_match_the_state_space_forecast() {
        // ARIMA(1,1,1) with drift: the paths' mean and P10/P90 on days 1,
        // 10 and 40 against the Kalman forecast's mean and 80 % interval
        // (a second formulation of the same model).
        let mut rng = Rng::new(11);
        let (phi1, theta1, mu, sigma) = (0.5, 0.3, 0.002, 0.02);
        let mut w = vec![0.0f64; 300];
        let mut e_prev = 0.0;
        for t in 1..300 {
            let e = sigma * rng.normal();
            w[t] = mu + phi1 * (w[t - 1] - mu) + e + theta1 * e_prev;
            e_prev = e;
        }
        let y: Vec<f64> = w
            .iter()
            .scan(0.4, |acc, v| {
                *acc += v;
                Some(*acc)
            })
            .collect();
        let order = ArimaOrder::new(1, 1, 1);
        let kalman =
            Arima::with_coefficients(&y, order, &[phi1], &[theta1], Some(mu), Some(sigma * sigma))
                .unwrap()
                .forecast(40, 0.8)
                .unwrap();
        let model = PathModel {
            d: 1,
            ar: vec![phi1],
            ma: vec![theta1],
            mean: Some(mu),
            mean_se: 0.0,
            sigma2: sigma * sigma,
        };
        let sims = simulate(&model, &y, 40, 4_000, 5).unwrap();
        let band = band_of(&sims, 0.0, 40, 4_000);
        for day in [1, 10, 40] {
            let k = &kalman[day - 1];
            let half = k.upper - k.mean;
            assert!(
                (band.p50[day] - k.mean).abs() < 0.08 * half,
                "day {day} median"
            );
            assert!(
                (band.p90[day] - k.upper).abs() < 0.08 * half,
                "day {day} P90"
            );
            assert!(
                (band.p10[day] - k.lower).abs() < 0.08 * half,
                "day {day} P10"
            );
        }
    }

    #[test]
    fn a_stationary_model_dates_new_highs_its_level_band_never_reaches() {
        // AR(1) around 0.5: the level band's P90 stays near 0.5 + 1.28·sd,
        // but the running maximum keeps rising, so a level above it is
        // dated.
        let model = PathModel {
            d: 0,
            ar: vec![0.5],
            ma: vec![],
            mean: Some(0.5),
            mean_se: 0.0,
            sigma2: 0.01 * 0.01,
        };
        let history = [0.5, 0.51, 0.49, 0.5];
        let sims = simulate(&model, &history, 60, 2_000, 1).unwrap();
        let level = band_of(&sims, 0.5, 60, 2_000);
        let top = running_max_band(&model, &history, 0.5, 60, 2_000, None, None).unwrap();
        let high = 0.5 + 2.0 * 0.01 / (1.0f64 - 0.25).sqrt();
        assert!(level.p90.iter().all(|&v| v < high));
        assert!(top.p90.iter().any(|&v| v >= high));
        assert!(top.p50.windows(2).skip(1).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn a_missing_last_day_has_no_origin() {
        let model = PathModel {
            d: 1,
            ar: vec![],
            ma: vec![],
            mean: None,
            mean_se: 0.0,
            sigma2: 1.0,
        };
        assert!(simulate(&model, &[0.1, 0.2, f64::NAN], 5, 10, 1).is_none());
    }
}
