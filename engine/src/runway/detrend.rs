//! The trend-stationary alternative: a polynomial trend in time (a line,
//! or a line bending at a constant rate) with stationary errors around
//! it, chosen when the KPSS test does not reject stationarity around it.
//!
//! Why: the KPSS test of [`crate::forecast`] asks whether a series is
//! stationary around its *mean*; a growing series is not, and auto-ARIMA
//! takes a difference. The differenced model is a random walk with drift
//! (plus ARMA): every innovation moves the level for good, so its
//! interval widens as `√h`. A series whose deviations from a smooth trend
//! come back — the Mauna Loa CO₂ record against its bending curve — is
//! not that: its interval is the trend's own uncertainty plus a bounded
//! spread, and the random walk's was found too wide there (97 % of true
//! crossings inside a nominal 80 % band). The KPSS test around a trend
//! (Kwiatkowski et al. 1992, `η_τ`) is the same test with the trend taken
//! out instead of the mean, so the choice is made on the history, by the
//! test auto-ARIMA already uses, not on any backtest.
//!
//! The order of the trend: a quadratic (growth that may itself grow or
//! slow at a constant rate), never a straight line alone. A line nests in
//! the quadratic, so a history stationary around a line is stationary
//! around the quadratic too; what the quadratic adds is its third
//! coefficient's spread — the acceleration the history cannot rule out,
//! which widens the band as the square of the horizon. A line's band
//! claims the growth rate is known to stay constant: on the Mauna Loa
//! record, cut at short histories whose bend the test cannot see, a line
//! first (then the quadratic) held 43 % of the true crossings in its
//! nominal 80 % band, the crossings all coming before it (BENCHMARKS.md).
//! When the history is not stationary around the quadratic either, the
//! differenced model stays. Below [`MIN_POINTS`] observed steps it is not
//! tried (the test has little power there, and a short random walk would
//! pass for a curve).
//!
//! The paths: the ARMA of the errors simulated as any stationary model
//! ([`super::passage`]), plus the trend, each path drawing its own
//! coefficients around the estimate with their covariance
//! `σ_lr² (XᵀX)⁻¹` — `σ_lr²` the errors' long-run variance
//! `σ² (1 + Σθ)² / (1 − Σφ)²` (autocorrelated errors make a trend's
//! coefficients as uncertain as fewer independent points would), the
//! same correction [`super::passage::PathModel::of_fit`] applies to a
//! drift.

use crate::forecast::select::{interpolated_p_value, kpss_statistic};
use nalgebra::{DMatrix, DVector};

/// Fewest observed steps the trend-stationary alternative is tried on.
pub const MIN_POINTS: usize = 50;

/// The test's size: the history is taken as stationary around the
/// trend unless the test rejects it at this level (auto-ARIMA's own KPSS
/// level, pmdarima's default).
pub const ALPHA: f64 = 0.05;

/// The order of the trend (a quadratic).
pub const DEGREE: usize = 2;

/// Upper-tail critical values of the KPSS statistic around a quadratic
/// trend, at 10 %, 5 %, 2.5 % and 1 %, by simulation of the statistic's
/// law (i.i.d. normal errors, n = 500, 20,000 draws; a second run at
/// n = 1,000 gave 0.0728, 0.0873, 0.1016, 0.1222). The same simulation
/// around a line gives 0.1205, 0.1494, 0.1772 and 0.219, Kwiatkowski et
/// al.'s (1992, Table 1, `η_τ`) 0.119, 0.146, 0.176 and 0.216 within its
/// Monte Carlo and finite-sample error.
const CRITICAL: [f64; 4] = [0.0717, 0.0863, 0.1017, 0.1221];

/// A polynomial trend in time with the uncertainty of its coefficients.
///
/// Time is the step index mapped onto `[−1, 1]` over the history
/// (`s = (step − centre) / half`), so the normal equations stay well
/// conditioned at any length.
#[derive(Clone, Debug, PartialEq)]
pub struct PolyTrend {
    /// 1: a line; 2: a quadratic.
    pub degree: usize,
    /// Coefficients of `1, s, s², …`.
    pub coef: Vec<f64>,
    /// The step mapped to `s = 0`.
    pub centre: f64,
    /// Steps per unit of `s`.
    pub half: f64,
    /// `σ_lr · U⁻¹` with `XᵀX = UᵀU` (U upper triangular): a path's
    /// coefficients are `coef + spread · z` for standard normal `z`.
    pub spread: Vec<f64>,
    /// The KPSS statistic of the history around this trend.
    pub kpss: f64,
}

impl PolyTrend {
    /// The trend at `step` with coefficient draws `z` (one standard
    /// normal a coefficient; zeros: the estimate).
    pub fn at(&self, step: f64, z: &[f64]) -> f64 {
        let s = (step - self.centre) / self.half;
        let k = self.degree + 1;
        let mut value = 0.0;
        let mut power = 1.0;
        for i in 0..k {
            // Row i of spread · z (upper triangular: columns j ≥ i).
            let moved: f64 = (i..k).map(|j| self.spread[i * k + j] * z[j]).sum();
            value += (self.coef[i] + moved) * power;
            power *= s;
        }
        value
    }

    /// The same trend with its coefficients' spread set from the errors'
    /// long-run standard deviation `sd_long_run` (the fit leaves it at
    /// one: the errors' model is chosen after the trend).
    pub fn with_long_run_sd(mut self, sd_long_run: f64) -> PolyTrend {
        for v in &mut self.spread {
            *v *= sd_long_run;
        }
        self
    }

    /// The trend's kind, for the model's description.
    pub fn name(&self) -> &'static str {
        match self.degree {
            0 => "a constant level",
            1 => "a straight trend",
            2 => "a quadratic trend (growth bending at a constant rate)",
            _ => "a polynomial trend",
        }
    }
}

/// The least-squares polynomial of `degree` through the observed steps of
/// `series` and the residuals (missing steps stay missing); its spread is
/// per unit long-run standard deviation. `None` with too few observed
/// steps or a singular fit.
pub fn fit_poly(series: &[f64], degree: usize) -> Option<(PolyTrend, Vec<f64>)> {
    let k = degree + 1;
    let seen: Vec<(f64, f64)> = series
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .map(|(i, &v)| (i as f64, v))
        .collect();
    if seen.len() <= k || series.len() < 2 {
        return None;
    }
    let centre = (series.len() - 1) as f64 / 2.0;
    let half = centre.max(1.0);
    let x = DMatrix::from_fn(seen.len(), k, |r, c| {
        ((seen[r].0 - centre) / half).powi(c as i32)
    });
    let y = DVector::from_iterator(seen.len(), seen.iter().map(|p| p.1));
    let xtx = x.transpose() * &x;
    let chol = xtx.clone().cholesky()?;
    let coef = chol.solve(&(x.transpose() * &y));
    // XᵀX = L Lᵀ, so (XᵀX)⁻¹ = L⁻ᵀ L⁻¹ and L⁻ᵀ z has that covariance.
    let l_inv = chol.l().try_inverse()?;
    let upper = l_inv.transpose();
    let spread: Vec<f64> = (0..k)
        .flat_map(|i| {
            let upper = &upper;
            (0..k).map(move |j| upper[(i, j)])
        })
        .collect();
    let mut trend = PolyTrend {
        degree,
        coef: coef.iter().copied().collect(),
        centre,
        half,
        spread,
        kpss: f64::NAN,
    };
    let zero = vec![0.0; k];
    let residuals: Vec<f64> = series
        .iter()
        .enumerate()
        .map(|(i, &v)| v - trend.at(i as f64, &zero))
        .collect();
    let observed: Vec<f64> = residuals
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .collect();
    trend.kpss = kpss_statistic(&observed);
    trend.kpss.is_finite().then_some((trend, residuals))
}

/// The p-value of a KPSS statistic around a quadratic trend, by linear
/// interpolation in `CRITICAL`, clamped to [0.01, 0.10] as R's
/// `tseries::kpss.test` clamps it (the level test's own interpolation).
pub fn p_value(stat: f64) -> f64 {
    interpolated_p_value(stat, &CRITICAL)
}

/// The quadratic trend of the observed history with the residuals around
/// it, when the history is stationary around it by KPSS at [`ALPHA`];
/// `None` when it is not, or has fewer than [`MIN_POINTS`] observed steps.
pub fn trend_stationary(series: &[f64]) -> Option<(PolyTrend, Vec<f64>)> {
    if series.iter().filter(|v| v.is_finite()).count() < MIN_POINTS {
        return None;
    }
    fit_poly(series, DEGREE).filter(|(trend, _)| p_value(trend.kpss) >= ALPHA)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::rng::Rng;

    /// AR(1) errors with coefficient `phi` and unit innovations.
    fn ar1(n: usize, phi: f64, seed: u64) -> Vec<f64> {
        let mut rng = Rng::new(seed);
        let mut x = 0.0;
        (0..n)
            .map(|_| {
                x = phi * x + rng.normal();
                x
            })
            .collect()
    }

    /// `a + b·t + c·t²` plus AR(1) errors, `n` steps.
    fn curve(n: usize, [a, b, c]: [f64; 3], phi: f64, seed: u64) -> Vec<f64> {
        ar1(n, phi, seed)
            .into_iter()
            .enumerate()
            .map(|(t, e)| a + b * t as f64 + c * (t as f64).powi(2) + e)
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_quadratic_and_its_residuals() {
        // y = 3 + 0.2 t + 0.001 t² + e: the fitted trend at any step is
        // within a few error units of the true one, in original units.
        let y = curve(200, [3.0, 0.2, 0.001], 0.3, 7);
        let (trend, residuals) = fit_poly(&y, 2).unwrap();
        for t in [0.0, 100.0, 199.0, 260.0] {
            let truth = 3.0 + 0.2 * t + 0.001 * t * t;
            assert!((trend.at(t, &[0.0; 3]) - truth).abs() < 1.0, "step {t}");
        }
        let r_mean = residuals.iter().sum::<f64>() / 200.0;
        assert!(r_mean.abs() < 1e-9);
    }

    #[test]
    fn the_coefficient_spread_is_the_least_squares_covariance() {
        // For a line, Var(slope per step) = σ²/Sxx, checked against the
        // closed form on 11 points (σ_lr = 2).
        let y: Vec<f64> = (0..11)
            .map(|t| t as f64 + if t % 2 == 0 { 0.5 } else { -0.5 })
            .collect();
        let (trend, _) = fit_poly(&y, 1).unwrap();
        let trend = trend.with_long_run_sd(2.0);
        // The slope per unit s is row 1 of spread · z: only z_1 moves it
        // (upper triangular), by spread[1·2 + 1]; per step divide by half.
        let sd_slope_per_step = trend.spread[3] / trend.half;
        let sxx: f64 = (0..11).map(|t| (t as f64 - 5.0).powi(2)).sum();
        assert!((sd_slope_per_step - 2.0 / sxx.sqrt()).abs() < 1e-12);
        // The level at the centre: σ/√n, spread over z_0 and z_1.
        let k = 2;
        let level_var: f64 = (0..k).map(|j| trend.spread[j].powi(2)).sum();
        assert!((level_var.sqrt() - 2.0 / 11f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn the_test_keeps_a_bending_trend_and_refuses_a_random_walk() {
        // A quadratic trend with AR(0.5) errors is stationary around a
        // quadratic; a random walk is stationary around neither.
        let bending = curve(400, [300.0, 0.02, 0.0001], 0.5, 3);
        let (trend, _) = trend_stationary(&bending).expect("stationary around a trend");
        assert!(trend.degree >= 1);
        let mut hits = 0;
        for seed in 0..20 {
            let walk = ar1(400, 1.0, 100 + seed);
            hits += usize::from(trend_stationary(&walk).is_some());
        }
        // A random walk passes a 5 % test around a quadratic only by
        // chance; allow a few in 20 (the quadratic's power on 400 steps).
        assert!(hits <= 4, "{hits} of 20 random walks passed");
    }

    #[test]
    fn short_or_empty_histories_are_not_tried() {
        let short: Vec<f64> = (0..MIN_POINTS - 1).map(|t| t as f64).collect();
        assert!(trend_stationary(&short).is_none());
        assert!(fit_poly(&[f64::NAN; 10], 1).is_none());
        assert!(fit_poly(&[1.0, 2.0], 1).is_none());
    }

    #[test]
    fn p_values_interpolate_the_table_and_clamp() {
        assert_eq!(p_value(0.05), 0.10);
        assert_eq!(p_value(0.5), 0.01);
        assert!((p_value(0.0863) - 0.05).abs() < 1e-12);
        let mid = p_value((0.0717 + 0.0863) / 2.0);
        assert!((mid - 0.075).abs() < 1e-12);
    }

    #[test]
    fn the_table_rejects_about_five_percent_of_stationary_series() {
        // The engine's statistic around its own quadratic fit, on white
        // noise of 200 steps, against the 5 % critical value: 600 draws
        // reject about 30 times (binomial sd ≈ 5.3; 3–9 % allowed).
        let mut rejected = 0;
        for seed in 0..600 {
            let e = ar1(200, 0.0, 10_000 + seed);
            let (trend, _) = fit_poly(&e, DEGREE).unwrap();
            rejected += usize::from(p_value(trend.kpss) < ALPHA);
        }
        assert!((18..=54).contains(&rejected), "{rejected} of 600");
    }
}
