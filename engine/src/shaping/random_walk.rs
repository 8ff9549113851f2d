//! The reference simulator's usage model (`TraceAllZoeWLGenerator.
//! generateResourceUtilization`), the §IV generator's default: per second,
//! a cumulative sum of sparse jumps N(0, 1) × Bernoulli(0.01); smoothed by
//! a 10-s moving average; divided by its span (max − min) and shifted to
//! start at 0 so it lies in [0, 1]; then scaled (clamped to [0, 1]) until
//! its mean is the application's mean to 0.001 (at most 10,000 rounds, as
//! the reference; a curve that cannot reach it — clamping stalls it — is
//! drawn again, at most 10 times here where the reference retries without
//! bound). A smooth random walk that often grows back — what makes an
//! optimistic shaper fail and a forecaster's variance informative.
//!
//! The shaper sees a minute at a time: the trace's value for a minute is
//! the largest of its seconds (the reference checks a component's use
//! against its allocation over the 60 s since the last check, and feeds its
//! predictor that maximum).

use crate::numerics::Rng;

/// The per-second jump probability (the reference's Bernoulli(0.01)).
pub const JUMP_RATE: f64 = 0.01;
/// The moving average's width (s).
pub const SMOOTH_S: usize = 10;
/// Draws of a curve before the closest one is kept.
const MAX_DRAWS: usize = 10;
/// Scaling rounds per draw (the reference's `maxSteps`).
const MAX_ROUNDS: usize = 10_000;

/// The raw walk: `seconds` values, the cumulative sum from 0 of sparse
/// N(0, 1) jumps (the first value 0, as the reference's `scanLeft`).
pub fn walk(rng: &mut Rng, seconds: usize) -> Vec<f64> {
    let mut v = Vec::with_capacity(seconds);
    let mut level = 0.0;
    v.push(level);
    // The next jump after a geometric gap: the same process as a
    // Bernoulli draw per second, one draw per jump.
    let mut next = 1 + geometric_gap(rng);
    for s in 1..seconds {
        if s == next {
            level += rng.normal();
            next = s + 1 + geometric_gap(rng);
        }
        v.push(level);
    }
    v
}

/// Seconds without a jump before the next one (Geometric(JUMP_RATE) − 1).
fn geometric_gap(rng: &mut Rng) -> usize {
    let u = (1.0 - rng.unit()).max(1e-300);
    (u.ln() / (1.0 - JUMP_RATE).ln()).floor().min(1e12) as usize
}

/// The moving average of width [`SMOOTH_S`], centred and keeping the
/// length (breeze's `convolve` with `PreserveLength`: the ends average
/// over the part of the window inside the series' zero-padding, as the
/// reference).
pub fn smooth(v: &[f64]) -> Vec<f64> {
    let n = v.len();
    let w = SMOOTH_S;
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    for x in v {
        prefix.push(prefix[prefix.len() - 1] + x);
    }
    let half = w / 2;
    (0..n)
        .map(|i| {
            let lo = (i + 1).saturating_sub(w - half);
            let hi = (i + half + 1).min(n);
            (prefix[hi] - prefix[lo]) / w as f64
        })
        .collect()
}

/// Normalised to [0, 1] and scaled to `mean` (clamped to [0, 1]); `None`
/// when the scaling cannot reach the mean to 0.001.
fn scale_to_mean(v: &mut [f64], mean: f64) -> Option<()> {
    let (lo, hi) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let span = hi - lo;
    if span.is_nan() || span <= 0.0 {
        // A flat curve (no jump): the mean itself.
        v.iter_mut().for_each(|x| *x = mean);
        return Some(());
    }
    v.iter_mut().for_each(|x| *x = (*x - lo) / span);
    let avg = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let target = (mean * 1000.0).round();
    let mut m = avg(v);
    for _ in 0..MAX_ROUNDS {
        if (target - (m * 1000.0).round()).abs() <= 1.0 {
            return Some(());
        }
        if m <= 0.0 {
            return None;
        }
        let r = mean / m;
        v.iter_mut().for_each(|x| *x = (*x * r).clamp(0.0, 1.0));
        let next = avg(v);
        if next == m {
            break;
        }
        m = next;
    }
    ((target - (m * 1000.0).round()).abs() <= 1.0).then_some(())
}

/// One series of `seconds` per-second values in [0, 1] with mean `mean`
/// (walk, smoothing, normalisation, scaling).
pub fn per_second(rng: &mut Rng, seconds: usize, mean: f64) -> Vec<f64> {
    let seconds = seconds.max(1);
    let mut last = Vec::new();
    for _ in 0..MAX_DRAWS {
        let mut v = smooth(&walk(rng, seconds));
        if scale_to_mean(&mut v, mean).is_some() {
            return v;
        }
        last = v;
    }
    last
}

/// The largest value of each minute (the last minute may be partial).
pub fn per_minute_max(v: &[f64]) -> Vec<f32> {
    v.chunks(60)
        .map(|c| c.iter().copied().fold(0.0, f64::max) as f32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jumps_come_at_the_reference_rate_with_unit_spread() {
        let mut rng = Rng::new(11);
        let v = walk(&mut rng, 2_000_000);
        let jumps: Vec<f64> = v
            .windows(2)
            .map(|w| w[1] - w[0])
            .filter(|d| *d != 0.0)
            .collect();
        let rate = jumps.len() as f64 / (v.len() - 1) as f64;
        // 20,000 expected; 3 standard deviations ≈ 0.0002.
        assert!((rate - JUMP_RATE).abs() < 3e-4, "{rate}");
        let n = jumps.len() as f64;
        let mean = jumps.iter().sum::<f64>() / n;
        let var = jumps.iter().map(|j| (j - mean).powi(2)).sum::<f64>() / (n - 1.0);
        assert!(
            mean.abs() < 0.03 && (var - 1.0).abs() < 0.05,
            "{mean} {var}"
        );
    }

    #[test]
    fn smoothing_is_a_ten_second_moving_average() {
        // A unit step at 100: the brute-force centred average of 10.
        let v: Vec<f64> = (0..200).map(|s| if s >= 100 { 1.0 } else { 0.0 }).collect();
        let s = smooth(&v);
        for (i, &si) in s.iter().enumerate() {
            let lo = i as i64 - 4;
            let hi = i as i64 + 5;
            let brute: f64 = (lo..=hi)
                .filter(|&k| k >= 0 && (k as usize) < v.len())
                .map(|k| v[k as usize])
                .sum::<f64>()
                / 10.0;
            assert!((si - brute).abs() < 1e-12, "{i}");
        }
        // The step becomes a ramp over ten seconds.
        assert_eq!(s[94], 0.0);
        assert!((s[100] - 0.6).abs() < 1e-12);
        assert_eq!(s[105], 1.0);
    }

    #[test]
    fn a_series_lies_in_the_unit_interval_at_its_mean() {
        let mut rng = Rng::new(5);
        for &mean in &[0.1, 0.4, 0.8] {
            let v = per_second(&mut rng, 36_000, mean);
            assert!(v.iter().all(|&x| (0.0..=1.0).contains(&x)));
            let m = v.iter().sum::<f64>() / v.len() as f64;
            assert!((m - mean).abs() <= 0.0015, "{m} {mean}");
            let mins = per_minute_max(&v);
            assert_eq!(mins.len(), 600);
            for (k, &x) in mins.iter().enumerate() {
                let brute = v[k * 60..(k + 1) * 60].iter().copied().fold(0.0, f64::max);
                assert_eq!(x, brute as f32);
            }
        }
    }
}
