//! The safe-guard buffer of §III-B: β = K1·R + K2·V, R the request, V the
//! forecast's variance — a static term (a guaranteed share of the request)
//! and a dynamic one (more room when the forecaster is unsure).
//!
//! Forecasts are made on the application's usage *fraction* and scaled to
//! each component: a component with request R whose fraction is forecast
//! with mean μ and variance σ² is forecast to use μR with variance σ²R²
//! (its own units: cores², GB²). V is the variance itself, as the paper
//! writes it, not a standard deviation.
//!
//! The allocation the shaper aims for is the forecast plus β, never more
//! than the request (a component is never given more than it asked for:
//! with K1 = 100 % the allocation is the request, the baseline).

/// β for one resource of one component.
pub fn beta(k1: f64, k2: f64, request: f64, variance: f64) -> f64 {
    k1 * request + k2 * variance.max(0.0)
}

/// The allocation for one resource of one component: `min(R, μR + β)` with
/// β = K1·R + K2·σ²R², from the fraction's forecast (μ, σ²).
pub fn target(request: f64, mean_fraction: f64, variance_fraction: f64, k1: f64, k2: f64) -> f64 {
    let mean = mean_fraction.max(0.0) * request;
    let variance = variance_fraction.max(0.0) * request * request;
    (mean + beta(k1, k2, request, variance)).min(request)
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
        let t = target(4.0, 0.5, 0.01, 0.05, 3.0);
        assert!((t - (2.0 + 0.2 + 0.48)).abs() < 1e-12);
        assert_eq!(target(4.0, 0.9, 0.0, 1.0, 0.0), 4.0);
        assert_eq!(target(4.0, 0.25, 0.0, 0.0, 0.0), 1.0);
    }
}
