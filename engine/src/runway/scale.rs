//! The scale the fitted growth's trend is modelled on: the peaks
//! themselves (growth by so much a day) or their logarithm (growth by a
//! share a day, compounded — as capacity planners state growth, "% a
//! month", and as the runway's growth set by hand already is).
//!
//! Why both: a series that grows by a share each step (airline passengers
//! about 12 % a year, its cycle widening with the level) leaves a trend
//! linear in the level behind, its crossings coming a cycle earlier than
//! the band's early end; a series that grows by a fixed amount a step is
//! bent upward by a log model. With `auto` (the default), which one a
//! series follows is read from its own history — whether its spread grows
//! with its level ([`guerrero_cv`], Guerrero's criterion as R's
//! `forecast` package uses it to choose a Box–Cox transformation) —
//! never set per series by hand.
//!
//! On the log scale the paths are simulated as logarithms and brought
//! back by `exp`; `exp` is increasing, so the running maximum of the
//! exponentiated path is the exponential of the log path's running
//! maximum, and the P10/P50/P90 of the exponentiated maxima are the
//! exponentials of the log maxima's — [`Scale::undo`] applied to the band
//! is exactly "exponentiated before the running maximum and first
//! passage".

use super::error::RunwayError;
use serde::{Deserialize, Serialize};

/// Which scale the caller asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScaleChoice {
    /// Chosen from the history (the default): the log scale when every
    /// peak is above zero and its spread grows with its level
    /// ([`guerrero_cv`]). On the airline passengers' backtest it takes
    /// the log on 107 of 115 cuts (coverage 88.6 %, median error 8 %,
    /// where the level gives 67.2 % and 84 %); on a straight trend with a
    /// weekly cycle it keeps the level on 50 of 60 short histories, and
    /// the interval's coverage stays within the nominal band
    /// (docs/runway.md, "The scale of the trend").
    #[default]
    Auto,
    /// The peaks themselves (the growth model before the scale choice).
    Level,
    /// Their logarithm (every peak must be above zero).
    Log,
}

/// The scale a trend was modelled on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scale {
    /// The peaks themselves.
    #[default]
    Level,
    /// Their natural logarithm.
    Log,
}

impl Scale {
    /// `series` on this scale (NaN stays NaN).
    pub fn apply(self, series: &[f64]) -> Vec<f64> {
        match self {
            Scale::Level => series.to_vec(),
            Scale::Log => series.iter().map(|v| v.ln()).collect(),
        }
    }

    /// A value of this scale back in the peaks' units.
    pub fn undo(self, value: f64) -> f64 {
        match self {
            Scale::Level => value,
            Scale::Log => value.exp(),
        }
    }

    /// A value in the peaks' units on this scale.
    pub fn of(self, value: f64) -> f64 {
        match self {
            Scale::Level => value,
            Scale::Log => value.ln(),
        }
    }
}

/// Whether every observed peak is above zero: the logarithm is defined
/// on all of them (a gap, NaN, is left out).
pub fn log_defined(peaks: &[f64]) -> bool {
    peaks.iter().filter(|v| !v.is_nan()).all(|&v| v > 0.0)
}

/// Checks that the log scale, asked for by the caller, can be used on
/// `peaks`; names the first peak at or below zero.
pub fn check_log(peaks: &[f64]) -> Result<(), RunwayError> {
    match peaks.iter().position(|v| !v.is_nan() && *v <= 0.0) {
        Some(i) => Err(RunwayError::param(
            "scale",
            format!(
                "the log scale needs every peak above 0; step {i} is {}",
                peaks[i]
            ),
        )),
        None => Ok(()),
    }
}

/// Guerrero's (1993) criterion for a Box–Cox λ, as R's `forecast`
/// package computes it (`BoxCox.lambda(x, method = "guerrero")`): the
/// history's last whole blocks of `period` steps (2 for a series with no
/// season), each block's standard deviation over its mean to the power
/// 1 − λ, and the coefficient of variation of those ratios. The λ whose
/// spread is most nearly constant across the levels is the one whose
/// scale makes the noise the same size everywhere: 1 leaves the peaks as
/// they are (noise of a fixed size, growth by an amount), 0 is the
/// logarithm (noise in proportion to the level, growth by a share).
/// `None` with fewer than two blocks of two observed values, or a block
/// whose mean is not above zero.
pub fn guerrero_cv(peaks: &[f64], period: usize, lambda: f64) -> Option<f64> {
    let period = period.max(2);
    let blocks = peaks.len() / period;
    let start = peaks.len() - blocks * period;
    let mut ratios = Vec::with_capacity(blocks);
    for block in peaks[start..].chunks(period) {
        let seen: Vec<f64> = block.iter().copied().filter(|v| v.is_finite()).collect();
        if seen.len() < 2 {
            continue;
        }
        let mean = seen.iter().sum::<f64>() / seen.len() as f64;
        if mean <= 0.0 {
            return None;
        }
        let var = seen.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (seen.len() - 1) as f64;
        ratios.push(var.sqrt() / mean.powf(1.0 - lambda));
    }
    if ratios.len() < 2 {
        return None;
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    let var = ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (ratios.len() - 1) as f64;
    let cv = var.sqrt() / mean;
    cv.is_finite().then_some(cv)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The λ in [−1, 2] minimizing [`guerrero_cv`], by golden-section
    /// search to 1e-6 (R's `optimize` is Brent's method to ~1.2e-4).
    fn guerrero_lambda(x: &[f64], period: usize) -> f64 {
        let (mut a, mut b) = (-1.0f64, 2.0f64);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        while b - a > 1e-6 {
            let c = b - g * (b - a);
            let d = a + g * (b - a);
            if guerrero_cv(x, period, c).unwrap() < guerrero_cv(x, period, d).unwrap() {
                b = d;
            } else {
                a = c;
            }
        }
        (a + b) / 2.0
    }

    #[test]
    fn guerreros_lambda_of_the_airline_passengers_is_r_forecasts() {
        // R: forecast::BoxCox.lambda(AirPassengers) = -0.2947156 (the
        // package's documented example; method "guerrero" is its default).
        let text = include_str!("../../../fixtures/real/growth/air_passengers_monthly.csv");
        let x: Vec<f64> = text
            .lines()
            .skip(1)
            .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(x.len(), 144);
        let lambda = guerrero_lambda(&x, 12);
        assert!((lambda - -0.2947156).abs() < 1e-3, "λ = {lambda}");
        // The two scales the runway chooses between: the log's spread is
        // the more nearly constant.
        assert!(guerrero_cv(&x, 12, 0.0).unwrap() < guerrero_cv(&x, 12, 1.0).unwrap());
    }

    #[test]
    fn guerrero_by_hand_and_where_it_is_undefined() {
        // Blocks (1, 3) and (2, 6) (the 9 is before the last whole
        // blocks): at λ = 1 the ratios are the blocks' sds, √2 and √8,
        // and cv is their sd over their mean.
        let cv = guerrero_cv(&[9.0, 1.0, 3.0, 2.0, 6.0], 2, 1.0).unwrap();
        let (r1, r2) = (2f64.sqrt(), 8f64.sqrt());
        let m = (r1 + r2) / 2.0;
        let sd = ((r1 - m).powi(2) + (r2 - m).powi(2)).sqrt();
        assert!((cv - sd / m).abs() < 1e-12, "{cv}");
        // At λ = 0 the ratios are sd/mean: √2/2 and √8/4, equal: cv 0.
        assert!(guerrero_cv(&[9.0, 1.0, 3.0, 2.0, 6.0], 2, 0.0).unwrap() < 1e-12);
        assert_eq!(guerrero_cv(&[1.0, 3.0], 2, 1.0), None);
        assert_eq!(guerrero_cv(&[1.0, 3.0, -2.0, -1.0], 2, 1.0), None);
    }

    #[test]
    fn log_and_exp_round_trip_and_gaps_stay_gaps() {
        let y = [0.5, f64::NAN, 2.0];
        let l = Scale::Log.apply(&y);
        assert!((l[0] - 0.5f64.ln()).abs() < 1e-15 && l[1].is_nan());
        assert!((Scale::Log.undo(l[2]) - 2.0).abs() < 1e-12);
        assert_eq!(Scale::Level.apply(&y)[2], 2.0);
        assert!(log_defined(&y));
        assert!(!log_defined(&[0.5, 0.0]));
        let e = check_log(&[0.5, 0.3, -0.1]).unwrap_err().to_string();
        assert!(e.starts_with("scale:") && e.contains("step 2"), "{e}");
    }
}
