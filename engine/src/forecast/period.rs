//! The period of a periodic series from its spectrum: the frequency of the
//! periodogram's dominant peak (the harvesting paper's FFT test, \[32\] of
//! §II), for the seasonal-naive baseline.
//!
//! The series is centred (and linearly detrended, so a ramp does not pass
//! for a long period); missing values count as the mean *for the spectrum
//! only* — they stay missing in every model's training data. The peak is
//! searched among frequencies with at least two full cycles in the data
//! (k ≥ 2) and a period of at least two samples. The series is called
//! periodic when the peak passes Fisher's g test for a hidden periodicity
//! (`g` = peak / total power over m frequencies, p ≈ m (1 − g)^{m−1}) at
//! [`PeriodParams::alpha`] and carries at least
//! [`PeriodParams::min_power_share`] of the power, and the series' sample
//! autocorrelation at that lag is at least
//! [`PeriodParams::min_autocorrelation`]: Fisher's test assumes white
//! noise, and utilization is red (slow drifts put a peak at low
//! frequencies that does not repeat).

use crate::numerics::spectrum::power_by_complex_fft;
use serde::{Deserialize, Serialize};

/// Settings of [`detect_period`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PeriodParams {
    /// Significance of Fisher's g test (default 0.01): white noise spreads
    /// its power evenly, each of the m = n/2 frequencies with ~1/m, and its
    /// largest peak is rarely far above ln m / m.
    pub alpha: f64,
    /// Share of the (non-constant) spectral power the peak must carry
    /// besides (default 0.02), so that a faint ripple in a very long series
    /// does not count.
    pub min_power_share: f64,
    /// Sample autocorrelation the series must have at the period (default
    /// 0.3).
    pub min_autocorrelation: f64,
    /// Fewest observed values to try (default 16).
    pub min_len: usize,
}

impl Default for PeriodParams {
    fn default() -> Self {
        PeriodParams {
            alpha: 0.01,
            min_power_share: 0.02,
            min_autocorrelation: 0.3,
            min_len: 16,
        }
    }
}

/// What the spectrum says.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Period {
    /// The period in samples: `n / k` refined to the lag of largest
    /// autocorrelation within half a frequency bin.
    pub samples: usize,
    /// The peak's share of the spectral power.
    pub power_share: f64,
}

/// The dominant period of `values` (NaN = missing), or `None` when the
/// series is too short, constant, or its peak is too weak.
pub fn detect_period(values: &[f64], params: &PeriodParams) -> Option<Period> {
    let observed: Vec<(usize, f64)> = values
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .collect();
    let n = values.len();
    if observed.len() < params.min_len.max(4) {
        return None;
    }
    // Least-squares line through the observed values.
    let m = observed.len() as f64;
    let (st, sy) = observed
        .iter()
        .fold((0.0, 0.0), |(a, b), (t, v)| (a + *t as f64, b + v));
    let (tm, ym) = (st / m, sy / m);
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (t, v) in &observed {
        sxy += (*t as f64 - tm) * (v - ym);
        sxx += (*t as f64 - tm).powi(2);
    }
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let mut detrended = vec![0.0; n];
    for (t, v) in &observed {
        detrended[*t] = v - ym - slope * (*t as f64 - tm);
    }
    let power = power_by_complex_fft(&detrended);
    let total: f64 = power[1..].iter().sum();
    if total.is_nan() || total <= 0.0 {
        return None;
    }
    let (k, peak) = power
        .iter()
        .enumerate()
        .skip(2)
        .filter(|(k, _)| n / k >= 2)
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    let share = peak / total;
    let m = (power.len() - 1) as f64;
    let p_value = m * (1.0 - share).powf(m - 1.0);
    // The spectrum resolves the period only to n/k ± n/k²; the lag with
    // the largest autocorrelation between the neighbouring frequencies'
    // periods pins it to a sample.
    let centred = buf_values(values, ym);
    let lo = ((n as f64 / (k as f64 + 0.5)).floor() as usize).max(2);
    let hi = ((n as f64 / (k as f64 - 0.5)).ceil() as usize).min(n / 2);
    let (samples, acf) = (lo..=hi.max(lo))
        .map(|lag| (lag, autocorrelation(&centred, lag)))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (share >= params.min_power_share && p_value < params.alpha && acf >= params.min_autocorrelation)
        .then_some(Period {
            samples,
            power_share: share,
        })
}

/// The centred values, missing ones as 0 (the mean).
fn buf_values(values: &[f64], mean: f64) -> Vec<f64> {
    values
        .iter()
        .map(|v| if v.is_finite() { v - mean } else { 0.0 })
        .collect()
}

/// Autocorrelation of centred `x` at `lag`, each product sum divided by
/// its own number of terms (the usual estimator divides by n and so shrinks
/// with the lag, which would pull the refined period short).
fn autocorrelation(x: &[f64], lag: usize) -> f64 {
    let n = x.len();
    let var: f64 = x.iter().map(|v| v * v).sum::<f64>() / n.max(1) as f64;
    if lag >= n || var <= 0.0 {
        return 0.0;
    }
    x[lag..].iter().zip(x).map(|(a, b)| a * b).sum::<f64>() / (n - lag) as f64 / var
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_daily_period_and_rejects_noise() {
        let mut rng = crate::numerics::Rng::new(3);
        let y: Vec<f64> = (0..288 * 7)
            .map(|t| {
                50.0 + 20.0 * (2.0 * std::f64::consts::PI * t as f64 / 288.0).sin()
                    + rng.gauss(0.0, 5.0)
            })
            .collect();
        let p = detect_period(&y, &PeriodParams::default()).unwrap();
        assert!(p.samples.abs_diff(288) <= 2, "{p:?}");
        // Not a whole number of periods (2000/7 = 285.7): within the
        // noise's reach of 288.
        let p = detect_period(&y[..2000], &PeriodParams::default()).unwrap();
        assert!(p.samples.abs_diff(288) <= 2, "{p:?}");
        let noise: Vec<f64> = (0..2000).map(|_| rng.gauss(0.0, 1.0)).collect();
        assert!(detect_period(&noise, &PeriodParams::default()).is_none());
        assert!(detect_period(&[1.0; 100], &PeriodParams::default()).is_none());
    }
}
