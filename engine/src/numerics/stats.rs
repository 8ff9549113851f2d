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
///
/// A percentile in a tail (among the largest or smallest sixteenth: a 99th
/// percentile) first bounds the tail from a strided sample, then selects
/// among the values past the bound only (a few times the tail) — the one
/// full pass is a comparison per value, with no copy of them. Whatever the
/// sample, the values past the bound are all the values on that side of
/// it, so when they are enough the two order statistics the interpolation
/// needs are exact (and when not, the whole copy is selected from).
pub fn percentile_select(values: &[f64], p: f64, scratch: &mut Vec<f64>) -> f64 {
    let n = values.len();
    if n == 0 {
        return 0.0;
    }
    let rank = p.clamp(0.0, 100.0) / 100.0 * (n - 1) as f64;
    let lo = rank.floor() as usize;
    let between = rank > lo as f64;
    // Order statistics lo and lo + 1 (ascending, in `total_cmp`'s order).
    let upper_tail = n - lo;
    let lower_tail = lo + 1 + usize::from(between);
    let tail = if upper_tail * TAIL_SHARE <= n {
        tail_pair::<true>(values, upper_tail, scratch)
    } else if lower_tail * TAIL_SHARE <= n {
        // The m-th smallest is statistic lo + 1 when between, else lo.
        tail_pair::<false>(values, lower_tail, scratch).map(|(mth, before)| {
            if between {
                (before, mth)
            } else {
                (mth, mth)
            }
        })
    } else {
        None
    };
    let (a, b) = tail.unwrap_or_else(|| {
        scratch.clear();
        scratch.extend_from_slice(values);
        pair_at(scratch, lo)
    });
    let b = if between { b } else { a };
    a + (b - a) * (rank - lo as f64)
}

/// A tail is at most 1/`TAIL_SHARE` of the values, and the sample takes
/// every `TAIL_SHARE`-th.
const TAIL_SHARE: usize = 16;

/// Order statistics `i` and `i + 1` (ascending, `total_cmp`; the second is
/// the first when `i` is the last) of `v`, which it reorders.
fn pair_at(v: &mut [f64], i: usize) -> (f64, f64) {
    let (_, &mut a, upper) = v.select_nth_unstable_by(i, f64::total_cmp);
    let b = upper.iter().copied().min_by(f64::total_cmp).unwrap_or(a);
    (a, b)
}

/// The `m`-th and (m − 1)-th largest values (`LARGEST`; else the m-th and
/// (m − 1)-th smallest) of `values`, or `None` when the sampled bound
/// leaves fewer than `m` past it.
fn tail_pair<const LARGEST: bool>(
    values: &[f64],
    m: usize,
    scratch: &mut Vec<f64>,
) -> Option<(f64, f64)> {
    // A bound about twice the tail deep into the sample.
    scratch.clear();
    scratch.extend(values.iter().step_by(TAIL_SHARE));
    let deep = (2 * m / TAIL_SHARE + 8).min(scratch.len() - 1);
    let at = if LARGEST {
        scratch.len() - 1 - deep
    } else {
        deep
    };
    let bound = *scratch.select_nth_unstable_by(at, f64::total_cmp).1;
    // Everything not kept is strictly short of everything kept (`<`, and
    // so `total_cmp`): the kept values are a whole tail.
    scratch.clear();
    scratch.extend(
        values
            .iter()
            .filter(|&&v| if LARGEST { v >= bound } else { v <= bound }),
    );
    let c = scratch.len();
    if c < m {
        return None;
    }
    if LARGEST {
        Some(pair_at(scratch, c - m))
    } else {
        let (lower, &mut a, _) = scratch.select_nth_unstable_by(m - 1, f64::total_cmp);
        let b = lower.iter().copied().max_by(f64::total_cmp).unwrap_or(a);
        Some((a, b))
    }
}

/// The sum of `v` in eight interleaved partial sums: independent additions
/// the processor overlaps (and vectorizes), where one running sum waits on
/// every addition before — several times faster over a month of slots,
/// and no less accurate (each partial sum adds an eighth of the values).
/// Not bit-identical to `v.iter().sum()`.
pub fn lane_sum(v: &[f64]) -> f64 {
    lane_sum_of(v, |x| x)
}

/// [`lane_sum`] of `f(x)` over `v` (e.g. squared deviations).
#[inline]
pub fn lane_sum_of(v: &[f64], f: impl Fn(f64) -> f64) -> f64 {
    let mut acc = [0.0f64; 8];
    let chunks = v.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a += f(x);
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for &x in rest {
        s += f(x);
    }
    s
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

    #[test]
    fn selection_in_a_tail_or_by_quickselect_is_the_sorts_percentile() {
        // Ascending, descending, alternating signed zeros, ties, random, and
        // a series whose every 16th value is large (the sample misjudges
        // the tail): both tails, the middle and the fallback.
        let mut rng = crate::numerics::Rng::new(3);
        let mut scratch = Vec::new();
        for n in [1usize, 2, 15, 16, 17, 100, 999, 4000] {
            let random: Vec<f64> = (0..n).map(|_| rng.uniform(-50.0, 50.0)).collect();
            let ties: Vec<f64> = (0..n).map(|_| rng.int(-3, 3) as f64).collect();
            let zeros: Vec<f64> = (0..n)
                .map(|i| if i % 2 == 0 { 0.0 } else { -0.0 })
                .collect();
            let up: Vec<f64> = (0..n).map(|i| i as f64).collect();
            let down: Vec<f64> = up.iter().rev().copied().collect();
            let spiky: Vec<f64> = (0..n)
                .map(|i| {
                    if i % 16 == 0 {
                        100.0 + i as f64
                    } else {
                        -(i as f64)
                    }
                })
                .collect();
            for v in [&random, &ties, &zeros, &up, &down, &spiky] {
                for p in [
                    0.0, 0.01, 0.5, 1.0, 5.0, 37.5, 50.0, 95.0, 99.0, 99.5, 99.99, 100.0,
                ] {
                    let want = percentile(v, p).unwrap();
                    let got = percentile_select(v, p, &mut scratch);
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "n {n} p {p}: {got} vs {want}"
                    );
                }
            }
        }
        assert_eq!(percentile_select(&[], 50.0, &mut scratch), 0.0);
    }

    #[test]
    fn lane_sum_is_the_sum() {
        // Integers sum exactly in any order; other values to rounding.
        let mut rng = crate::numerics::Rng::new(5);
        for n in [0usize, 1, 7, 8, 9, 64, 1001] {
            let ints: Vec<f64> = (0..n).map(|_| rng.int(-1000, 1000) as f64).collect();
            assert_eq!(lane_sum(&ints), ints.iter().sum::<f64>(), "n {n}");
            let reals: Vec<f64> = (0..n).map(|_| rng.uniform(0.0, 100.0)).collect();
            let want: f64 = reals.iter().sum();
            assert!(
                (lane_sum(&reals) - want).abs() <= 1e-12 * want.max(1.0),
                "n {n}"
            );
        }
    }
}
