//! The scale the fitted growth's trend is modelled on: the peaks
//! themselves (growth by so much a day) or their logarithm (growth by a
//! share a day, compounded — as capacity planners state growth, "% a
//! month", and as the runway's growth set by hand already is).
//!
//! Why both: a series that grows by a share each step (airline passengers
//! about 12 % a year, its cycle widening with the level) leaves a trend
//! linear in the level behind, its crossings coming a cycle earlier than
//! the band's early end; a series that grows by a fixed amount a step is
//! bent upward by a log model. With `auto`, which one a series follows
//! is read from its own history ([`super::trend::fitted_band`], a
//! hold-out of its last part), never set per series by hand; the default
//! stays the level scale until that choice is reliable on short
//! histories ([`ScaleChoice::Auto`]).
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
    /// Chosen from the history: the log scale when every peak is above
    /// zero and it forecasts the held-out last part of the history
    /// better. Not the default: on a straight trend with a weekly cycle
    /// the hold-out (a fifth of eight weeks) cannot tell the scales
    /// apart, picks the log about a third of the time, and the log
    /// model's compounding then dates crossings early — 34 of 60 true
    /// crossings inside P10–P90 where the level model has 68–92 %
    /// (docs/runway.md, "The scale of the trend").
    Auto,
    /// The peaks themselves (the default: the growth model before the
    /// scale choice).
    #[default]
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

#[cfg(test)]
mod tests {
    use super::*;

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
