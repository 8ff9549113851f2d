//! The safe-guard buffer of §III-B: β = K1·R + K2·V, R the request, V the
//! forecast's variance — a static term (a guaranteed share of the request)
//! and a dynamic one (more room when the forecaster is unsure).
//!
//! Forecasts are made on the application's usage *fraction* and scaled to
//! each component: a component with request R whose fraction is forecast
//! with mean μ and variance σ² is forecast to use μR with variance σ²R²
//! (its own units: cores², GB²).
//!
//! **V: variance or standard deviation.** The paper writes the variance.
//! A variance is in squared units, so K2·V means something different in
//! GB² than in MB², and for fractions of a request it is tiny: a forecast
//! off by 3 % of the request has variance 0.0009, and K2 = 3 adds 0.27 %.
//! The paper's K2 ∈ {0, 1, 2, 3} reads as multiples of a standard
//! deviation, which is what [`Spread::StdDev`] (the default) uses:
//! β = K1·R + K2·σR. [`Spread::Variance`] is the formula as printed, in
//! the resource's units (cores², GB²).
//!
//! The allocation the shaper aims for is the forecast plus β, never more
//! than the request (a component is never given more than it asked for:
//! with K1 = 100 % the allocation is the request, the baseline).

use serde::{Deserialize, Serialize};

/// What the dynamic term multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spread {
    /// The forecast's standard deviation (K2 as a z-score; default).
    StdDev,
    /// The forecast's variance, as printed (units squared).
    Variance,
}

/// β for one resource of one component.
pub fn beta(k1: f64, k2: f64, request: f64, variance: f64) -> f64 {
    k1 * request + k2 * variance.max(0.0)
}

/// The allocation for one resource of one component: `min(R, μR + β)` with
/// β = K1·R + K2·σR (or K2·σ²R² with [`Spread::Variance`]), from the
/// fraction's forecast (μ, σ²).
pub fn target(
    request: f64,
    mean_fraction: f64,
    variance_fraction: f64,
    k1: f64,
    k2: f64,
    spread: Spread,
) -> f64 {
    let mean = mean_fraction.max(0.0) * request;
    let variance = variance_fraction.max(0.0) * request * request;
    let v = match spread {
        Spread::StdDev => variance.sqrt(),
        Spread::Variance => variance,
    };
    (mean + beta(k1, k2, request, v)).min(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_is_static_plus_dynamic() {
        assert_eq!(beta(0.05, 3.0, 10.0, 2.0), 0.5 + 6.0);
        assert_eq!(beta(0.0, 0.0, 10.0, 2.0), 0.0);
    }

    #[test]
    fn target_is_forecast_plus_beta_capped_at_the_request() {
        // 4 cores, 50 % forecast, variance 0.01 of the fraction: 2 + 0.2 + 3·0.16.
        let t = target(4.0, 0.5, 0.01, 0.05, 3.0, Spread::Variance);
        assert!((t - (2.0 + 0.2 + 0.48)).abs() < 1e-12);
        // σR = 0.1 · 4 = 0.4 cores: 2 + 0.2 + 1.2.
        let t = target(4.0, 0.5, 0.01, 0.05, 3.0, Spread::StdDev);
        assert!((t - 3.4).abs() < 1e-12);
        assert_eq!(target(4.0, 0.9, 0.0, 1.0, 0.0, Spread::StdDev), 4.0);
        assert_eq!(target(4.0, 0.25, 0.0, 0.0, 0.0, Spread::StdDev), 1.0);
    }
}
