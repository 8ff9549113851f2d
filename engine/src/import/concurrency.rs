//! Skylines from intervals of use: a run's tasks, executors or instances,
//! each in use from one time to another, become the mean number in use
//! over each step of the run — exact areas, one pass, memory of one number
//! per step.

use crate::model::Skyline;

/// The step of every skyline a cluster export gives: a minute, the
/// agenda's and YARN's reservation granularity.
pub(crate) const RUN_STEP_SECS: u32 = 60;

/// The longest run read: a year of steps. A longer one is a broken
/// timestamp, refused by the readers before it allocates.
pub(crate) const MAX_RUN_SECS: f64 = 366.0 * 86_400.0;

/// Containers in use over a run, accumulated interval by interval.
#[derive(Clone, Debug, Default)]
pub(crate) struct Concurrency {
    /// Area (container-seconds) inside each step from partial intervals.
    area: Vec<f64>,
    /// Change of the full-step rate at each step.
    diff: Vec<f64>,
}

impl Concurrency {
    /// Nothing in use yet.
    pub(crate) fn new() -> Concurrency {
        Concurrency::default()
    }

    fn grow(&mut self, steps: usize) {
        if self.area.len() < steps {
            self.area.resize(steps, 0.0);
            self.diff.resize(steps + 1, 0.0);
        }
    }

    /// `weight` containers in use from `from` to `to`, seconds from the
    /// run's start (clipped to `[0, MAX_RUN_SECS]`).
    pub(crate) fn add(&mut self, from: f64, to: f64, weight: f64) {
        let step = f64::from(RUN_STEP_SECS);
        let (a, b) = (from.max(0.0), to.min(MAX_RUN_SECS));
        if b <= a || a.is_nan() || b.is_nan() || !weight.is_finite() {
            return;
        }
        let (ia, ib) = ((a / step) as usize, (b / step) as usize);
        self.grow(ib + 1);
        if ia == ib {
            self.area[ia] += weight * (b - a);
            return;
        }
        self.area[ia] += weight * ((ia + 1) as f64 * step - a);
        self.area[ib] += weight * (b - ib as f64 * step);
        self.diff[ia + 1] += weight;
        self.diff[ib] -= weight;
    }

    /// The skyline over `duration` seconds: the mean in use in each step.
    pub(crate) fn skyline(mut self, duration: f64) -> Skyline {
        let step = f64::from(RUN_STEP_SECS);
        let steps = (duration.clamp(0.0, MAX_RUN_SECS) / step).ceil().max(1.0) as usize;
        self.grow(steps);
        let mut rate = 0.0;
        let containers = (0..steps)
            .map(|i| {
                rate += self.diff[i];
                let v = (self.area[i] + rate * step) / step;
                // Rounding leaves dust where an interval ended.
                if v.abs() < 1e-9 {
                    0.0
                } else {
                    v
                }
            })
            .collect();
        Skyline::new(RUN_STEP_SECS, containers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_per_step_keep_the_area() {
        let mut c = Concurrency::new();
        c.add(30.0, 150.0, 2.0);
        c.add(0.0, 60.0, 1.0);
        let s = c.skyline(150.0);
        assert_eq!(s.containers, vec![2.0, 2.0, 1.0]);
        assert!((s.area() - (240.0 + 60.0)).abs() < 1e-9);
        // Nothing in use: one empty step.
        assert_eq!(Concurrency::new().skyline(0.0).containers, vec![0.0]);
    }
}
