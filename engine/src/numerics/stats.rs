//! Summary statistics used across the engine: the mean, numpy's
//! linear-interpolation percentiles (by a sort, on sorted values, or by
//! selection in O(n)), the median, MAD and the robust CV of Morpheus §4,
//! and a run's minimum, mean and maximum.

use serde::{Deserialize, Serialize};

/// Mean of `v` (0 when empty).
pub fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// Median of the values (mean of the middle two for an even count), or
/// `None` when empty or any value is NaN.
pub fn median(values: &[f64]) -> Option<f64> {
    percentile(values, 50.0)
}

/// The `p`-th percentile (0–100) with linear interpolation between closest
/// ranks (numpy's default), or `None` when empty, `p` is outside [0, 100], or
/// any value is NaN.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    if values.is_empty() || !(0.0..=100.0).contains(&p) || values.iter().any(|v| v.is_nan()) {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    percentile_sorted(&v, p)
}

/// [`percentile`] of values already sorted ascending, without the copy and
/// the sort — for several percentiles of one large sample. `None` when
/// empty or `p` is outside [0, 100]; the caller guarantees the order and
/// the absence of NaN.
pub fn percentile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() || !(0.0..=100.0).contains(&p) {
        return None;
    }
    let v = sorted;
    let rank = p / 100.0 * (v.len() - 1) as f64;
    let lo = rank.floor() as usize;
    let hi = rank.ceil() as usize;
    Some(v[lo] + (v[hi] - v[lo]) * (rank - lo as f64))
}

/// [`percentile`] in O(n) by selection instead of a sort (for a month of
/// 2-minute slots per tenant); `scratch` is reused. `p` is clamped to
/// [0, 100]; the values must be finite; 0 when empty.
pub fn percentile_select(values: &[f64], p: f64, scratch: &mut Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    scratch.clear();
    scratch.extend_from_slice(values);
    let rank = p.clamp(0.0, 100.0) / 100.0 * (values.len() - 1) as f64;
    let lo = rank.floor() as usize;
    let (_, &mut a, upper) = scratch.select_nth_unstable_by(lo, f64::total_cmp);
    let b = if rank > lo as f64 {
        upper.iter().copied().fold(f64::INFINITY, f64::min)
    } else {
        a
    };
    a + (b - a) * (rank - lo as f64)
}

/// Median absolute deviation from the median.
pub fn mad(values: &[f64]) -> Option<f64> {
    let m = median(values)?;
    let dev: Vec<f64> = values.iter().map(|v| (v - m).abs()).collect();
    median(&dev)
}

/// Robust coefficient of variation, MAD / median (Morpheus §4). `None` when
/// the median is zero or the input is empty.
pub fn robust_cv(values: &[f64]) -> Option<f64> {
    let m = median(values)?;
    if m == 0.0 {
        return None;
    }
    Some(mad(values)? / m.abs())
}

/// Minimum, mean and maximum over runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MinAvgMax {
    /// Minimum.
    pub min: f64,
    /// Mean.
    pub avg: f64,
    /// Maximum.
    pub max: f64,
}

impl MinAvgMax {
    /// Of `v` (zeros when empty).
    pub fn of(v: &[f64]) -> Self {
        if v.is_empty() {
            return MinAvgMax {
                min: 0.0,
                avg: 0.0,
                max: 0.0,
            };
        }
        MinAvgMax {
            min: v.iter().copied().fold(f64::INFINITY, f64::min),
            avg: v.iter().sum::<f64>() / v.len() as f64,
            max: v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // numpy.percentile([1, 2, 3, 4], [50, 95]) == [2.5, 3.85]
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert!((percentile(&[1.0, 2.0, 3.0, 4.0], 95.0).unwrap() - 3.85).abs() < 1e-12);
        assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
        assert_eq!(percentile_sorted(&[1.0, 2.0, 3.0, 4.0], 50.0), Some(2.5));
        assert_eq!(percentile_sorted(&[], 50.0), None);
        assert_eq!(mad(&[1.0, 1.0, 2.0, 2.0, 4.0, 6.0, 9.0]), Some(1.0));
        assert_eq!(robust_cv(&[10.0, 10.0, 11.0, 9.0, 10.0]), Some(0.0));
        assert_eq!(median(&[]), None);
        assert_eq!(percentile(&[1.0], 101.0), None);
        assert_eq!(median(&[1.0, f64::NAN]), None);
        assert_eq!(robust_cv(&[0.0, 0.0]), None);
    }
}
