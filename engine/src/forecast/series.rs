//! Utilization samples on a regular time grid, as the forecasters need
//! them: one slot per sampling step, a gap as missing (NaN) — never filled.

use serde::{Deserialize, Serialize};

/// A series on a regular grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegularSeries {
    /// Time of the first slot (seconds since the epoch).
    pub start: i64,
    /// Seconds between slots.
    pub step: i64,
    /// One value per slot; NaN where no sample fell.
    pub values: Vec<f64>,
    /// Slots without a sample.
    pub missing: usize,
    /// Samples that shared a slot with another (their mean is kept).
    pub merged: usize,
}

/// Puts `(timestamps, values)` (sorted by time; NaN values count as
/// missing) on a grid of `step` seconds (`None`: the median spacing) from
/// the first timestamp. A sample goes to the nearest slot; samples sharing
/// a slot are averaged (counted in `merged`).
pub fn regular_grid(timestamps: &[i64], values: &[f64], step: Option<i64>) -> RegularSeries {
    let n = timestamps.len().min(values.len());
    if n == 0 {
        return RegularSeries {
            start: 0,
            step: step.unwrap_or(1).max(1),
            values: Vec::new(),
            missing: 0,
            merged: 0,
        };
    }
    let step = step.filter(|s| *s > 0).unwrap_or_else(|| {
        let mut d: Vec<i64> = timestamps[..n]
            .windows(2)
            .map(|w| w[1] - w[0])
            .filter(|d| *d > 0)
            .collect();
        d.sort_unstable();
        d.get(d.len() / 2).copied().unwrap_or(1)
    });
    let start = timestamps[0];
    let slots = ((timestamps[n - 1] - start) as f64 / step as f64).round() as usize + 1;
    let mut sum = vec![0.0; slots];
    let mut count = vec![0usize; slots];
    for i in 0..n {
        if !values[i].is_finite() {
            continue;
        }
        let k = ((timestamps[i] - start) as f64 / step as f64)
            .round()
            .max(0.0) as usize;
        let k = k.min(slots - 1);
        sum[k] += values[i];
        count[k] += 1;
    }
    let merged = count.iter().map(|c| c.saturating_sub(1)).sum();
    let missing = count.iter().filter(|c| **c == 0).count();
    let values = sum
        .iter()
        .zip(&count)
        .map(|(s, c)| if *c == 0 { f64::NAN } else { s / *c as f64 })
        .collect();
    RegularSeries {
        start,
        step,
        values,
        missing,
        merged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_stay_missing() {
        let r = regular_grid(&[0, 300, 900, 1200, 1210], &[1.0, 2.0, 4.0, 5.0, 7.0], None);
        assert_eq!(r.step, 300);
        assert_eq!(r.values.len(), 5);
        assert!(r.values[2].is_nan());
        assert_eq!(r.values[4], 6.0);
        assert_eq!((r.missing, r.merged), (1, 1));
    }
}
