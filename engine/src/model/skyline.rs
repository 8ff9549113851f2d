//! Resource skylines: containers in use over time, on a fixed step.

use serde::{Deserialize, Serialize};

/// Containers in use by one job run, sampled on a fixed step from the run's
/// start: `containers[i]` is the count during `[start + i·step, start + (i+1)·step)`.
///
/// Counts are `f64` because averaged and LP skylines are fractional; traced
/// ones are whole numbers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Skyline {
    /// Sampling step in seconds (Hadoop's native log: 5 s).
    pub step_secs: u32,
    /// Container count per step.
    pub containers: Vec<f64>,
}

impl Skyline {
    /// A skyline from a step and its samples.
    pub fn new(step_secs: u32, containers: Vec<f64>) -> Self {
        Skyline {
            step_secs,
            containers,
        }
    }

    /// Number of steps.
    pub fn len(&self) -> usize {
        self.containers.len()
    }

    /// True when there are no samples.
    pub fn is_empty(&self) -> bool {
        self.containers.is_empty()
    }

    /// Length of the skyline in seconds.
    pub fn duration_secs(&self) -> i64 {
        self.containers.len() as i64 * i64::from(self.step_secs)
    }

    /// Largest container count.
    pub fn peak(&self) -> f64 {
        self.containers.iter().copied().fold(0.0, f64::max)
    }

    /// Total work in container-seconds.
    pub fn area(&self) -> f64 {
        self.containers.iter().sum::<f64>() * f64::from(self.step_secs)
    }

    /// Containers in use `offset_secs` after the start (0 outside the skyline).
    pub fn at(&self, offset_secs: i64) -> f64 {
        if offset_secs < 0 || self.step_secs == 0 {
            return 0.0;
        }
        let i = offset_secs / i64::from(self.step_secs);
        self.containers.get(i as usize).copied().unwrap_or(0.0)
    }

    /// The same work re-sampled on another step: each output step holds the
    /// average container count over its interval (area is preserved up to the
    /// last, partial step).
    pub fn resample(&self, step_secs: u32) -> Skyline {
        if step_secs == 0 || self.step_secs == 0 {
            return Skyline::new(step_secs, Vec::new());
        }
        let total = self.duration_secs();
        let out_len = (total + i64::from(step_secs) - 1) / i64::from(step_secs);
        let mut out = vec![0.0; out_len as usize];
        let (a, b) = (i64::from(self.step_secs), i64::from(step_secs));
        for (i, &c) in self.containers.iter().enumerate() {
            let (lo, hi) = (i as i64 * a, (i as i64 + 1) * a);
            let mut t = lo;
            while t < hi {
                let j = t / b;
                let end = ((j + 1) * b).min(hi);
                out[j as usize] += c * (end - t) as f64 / b as f64;
                t = end;
            }
        }
        Skyline::new(step_secs, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basics() {
        let s = Skyline::new(5, vec![1.0, 3.0, 2.0]);
        assert_eq!(s.duration_secs(), 15);
        assert_eq!(s.peak(), 3.0);
        assert_eq!(s.area(), 30.0);
        assert_eq!(s.at(7), 3.0);
        assert_eq!(s.at(15), 0.0);
        assert_eq!(s.at(-1), 0.0);
    }

    #[test]
    fn resample_preserves_area() {
        let s = Skyline::new(5, vec![1.0, 3.0, 2.0, 4.0]);
        let r = s.resample(10);
        assert_eq!(r.containers, vec![2.0, 3.0]);
        assert_eq!(r.area(), s.area());
        let r = s.resample(3);
        assert!((r.area() - s.area()).abs() < 1e-9);
        let r = s.resample(60);
        assert_eq!(r.len(), 1);
        assert!((r.area() - s.area()).abs() < 1e-9);
    }
}
