//! Utilization time series of servers and tenants.

use super::{Resource, Timestamp};
use serde::{Deserialize, Serialize};

/// Utilization of one resource of one server (or primary tenant) over time,
/// in percent of that server's capacity (NAB/CloudWatch convention).
///
/// Stored as two parallel columns so 100 MB traces stay compact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UtilizationSeries {
    /// Server, tenant or series name.
    pub server: String,
    /// The resource measured.
    pub resource: Resource,
    /// Sample times, non-decreasing.
    pub timestamps: Vec<Timestamp>,
    /// Utilization in percent, one per timestamp.
    pub values: Vec<f64>,
}

impl UtilizationSeries {
    /// An empty series.
    pub fn new(server: impl Into<String>, resource: Resource) -> Self {
        UtilizationSeries {
            server: server.into(),
            resource,
            timestamps: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when there are no samples.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// First and last sample time.
    pub fn span(&self) -> Option<(Timestamp, Timestamp)> {
        Some((*self.timestamps.first()?, *self.timestamps.last()?))
    }

    /// The median spacing between samples, in seconds (robust to gaps).
    pub fn median_step_secs(&self) -> Option<i64> {
        let mut d: Vec<i64> = self.timestamps.windows(2).map(|w| w[1] - w[0]).collect();
        if d.is_empty() {
            return None;
        }
        let mid = d.len() / 2;
        Some(*d.select_nth_unstable(mid).1)
    }

    /// `(min, mean, max)` of the values.
    pub fn stats(&self) -> Option<(f64, f64, f64)> {
        if self.values.is_empty() {
            return None;
        }
        let (mut lo, mut hi, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
        for &v in &self.values {
            lo = lo.min(v);
            hi = hi.max(v);
            sum += v;
        }
        Some((lo, sum / self.values.len() as f64, hi))
    }

    /// Sorts samples by time (stable), for traces written out of order.
    pub fn sort_by_time(&mut self) {
        if self.timestamps.windows(2).all(|w| w[0] <= w[1]) {
            return;
        }
        let mut idx: Vec<usize> = (0..self.len()).collect();
        idx.sort_by_key(|&i| self.timestamps[i]);
        self.timestamps = idx.iter().map(|&i| self.timestamps[i]).collect();
        self.values = idx.iter().map(|&i| self.values[i]).collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_and_sort() {
        let mut s = UtilizationSeries::new("a", Resource::Cpu);
        s.timestamps = vec![10, 0, 5, 20];
        s.values = vec![3.0, 1.0, 2.0, 4.0];
        s.sort_by_time();
        assert_eq!(s.timestamps, vec![0, 5, 10, 20]);
        assert_eq!(s.values, vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(s.median_step_secs(), Some(5));
        assert_eq!(s.stats(), Some((1.0, 2.5, 4.0)));
        assert_eq!(s.span(), Some((0, 20)));
    }
}
