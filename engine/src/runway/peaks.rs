//! The cluster's daily peak utilization per resource: what a capacity
//! planner's trend is drawn through. A day's peak is the highest cluster
//! utilization (the mean over servers at one instant) of that day; the
//! peak, not the mean, is what runs into the headroom target, and one value
//! a day takes out the daily cycle that would otherwise dominate a trend.

use crate::model::{Resource, Timestamp, UtilizationSeries};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Seconds in a day.
pub const DAY: i64 = 86_400;

/// A day with fewer samples than this share of the fullest day's is left
/// out (NaN): a partial day's peak would read low and bend the trend down.
pub const MIN_DAY_COVERAGE: f64 = 0.5;

/// One resource's daily peaks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DailyPeaks {
    /// The resource.
    pub resource: Resource,
    /// 00:00 UTC of the first day.
    pub first_day: Timestamp,
    /// One peak a day, a fraction of capacity (NaN: a day too partial to
    /// count).
    pub peaks: Vec<f64>,
    /// Servers (series) summed.
    pub servers: usize,
}

impl DailyPeaks {
    /// Days with a peak.
    pub fn days_seen(&self) -> usize {
        self.peaks.iter().filter(|p| p.is_finite()).count()
    }

    /// 00:00 UTC of the last day.
    pub fn last_day(&self) -> Timestamp {
        self.first_day + DAY * (self.peaks.len() as i64 - 1).max(0)
    }
}

/// The daily peaks of the cluster's utilization, one entry per resource
/// present (in resource order): at each instant (samples bucketed on the
/// first series' median step) the mean utilization of the servers sampled
/// then, and each day's highest.
pub fn cluster_peaks<'a>(
    series: impl IntoIterator<Item = &'a UtilizationSeries>,
) -> Vec<DailyPeaks> {
    let mut by_resource: BTreeMap<Resource, Vec<&UtilizationSeries>> = BTreeMap::new();
    for s in series {
        if !s.is_empty() {
            by_resource.entry(s.resource.clone()).or_default().push(s);
        }
    }
    by_resource
        .into_iter()
        .filter_map(|(resource, list)| peaks_of(resource, &list))
        .collect()
}

/// The daily peaks of one resource's series.
fn peaks_of(resource: Resource, list: &[&UtilizationSeries]) -> Option<DailyPeaks> {
    let step = list
        .iter()
        .find_map(|s| s.median_step_secs())
        .unwrap_or(DAY)
        .max(1);
    let mut instants: BTreeMap<i64, (f64, usize)> = BTreeMap::new();
    let mut servers: Vec<&str> = Vec::new();
    for s in list {
        if !servers.contains(&s.server.as_str()) {
            servers.push(&s.server);
        }
        for (t, v) in s.timestamps.iter().zip(&s.values) {
            if v.is_finite() {
                let e = instants.entry(t.div_euclid(step)).or_insert((0.0, 0));
                e.0 += v / 100.0;
                e.1 += 1;
            }
        }
    }
    let (&first, _) = instants.iter().next()?;
    let (&last, _) = instants.iter().next_back()?;
    let day_of = |bucket: i64| (bucket * step).div_euclid(DAY);
    let first_day = day_of(first);
    let days = (day_of(last) - first_day + 1) as usize;
    let mut peak = vec![f64::NEG_INFINITY; days];
    let mut count = vec![0usize; days];
    for (bucket, (sum, n)) in instants {
        let d = (day_of(bucket) - first_day) as usize;
        peak[d] = peak[d].max(sum / n as f64);
        count[d] += 1;
    }
    let fullest = count.iter().copied().max().unwrap_or(0) as f64;
    let peaks: Vec<f64> = peak
        .iter()
        .zip(&count)
        .map(|(&p, &c)| {
            if c as f64 >= MIN_DAY_COVERAGE * fullest && p.is_finite() {
                p
            } else {
                f64::NAN
            }
        })
        .collect();
    // Whole days only: partial days at the ends are dropped, not kept as
    // gaps.
    let lead = peaks.iter().position(|p| p.is_finite())?;
    let tail = peaks.iter().rposition(|p| p.is_finite())?;
    Some(DailyPeaks {
        resource,
        first_day: (first_day + lead as i64) * DAY,
        peaks: peaks[lead..=tail].to_vec(),
        servers: servers.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(server: &str, start: i64, step: i64, values: &[f64]) -> UtilizationSeries {
        UtilizationSeries {
            server: server.into(),
            resource: Resource::Cpu,
            timestamps: (0..values.len() as i64).map(|i| start + i * step).collect(),
            values: values.to_vec(),
        }
    }

    #[test]
    fn a_days_peak_is_the_highest_mean_over_servers_at_one_instant() {
        // Two servers, 6-hour samples over two days: day 1 peaks at
        // (40 + 20) / 2 = 30 %, day 2 at (10 + 90) / 2 = 50 % — not at
        // either server's own peak (90 %) nor at the sum of their peaks.
        let a = series(
            "a",
            0,
            6 * 3600,
            &[10.0, 40.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0],
        );
        let b = series(
            "b",
            0,
            6 * 3600,
            &[0.0, 20.0, 0.0, 0.0, 90.0, 0.0, 0.0, 0.0],
        );
        let p = cluster_peaks([&a, &b]);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].servers, 2);
        assert_eq!(p[0].first_day, 0);
        assert!((p[0].peaks[0] - 0.3).abs() < 1e-12 && (p[0].peaks[1] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn partial_days_at_the_ends_are_dropped_and_inside_are_gaps() {
        // Day 0 has one sample of four, day 1 four, day 2 one, day 3 four.
        let mut values = vec![50.0; 16];
        values[0] = 99.0;
        let mut s = series("a", 0, 6 * 3600, &values);
        s.timestamps.drain(1..4);
        s.values.drain(1..4);
        s.timestamps.drain(5..8);
        s.values.drain(5..8);
        let p = cluster_peaks([&s]);
        assert_eq!(p[0].first_day, DAY);
        assert_eq!(p[0].peaks.len(), 3);
        assert!(p[0].peaks[1].is_nan());
        assert_eq!(p[0].days_seen(), 2);
        assert_eq!(p[0].last_day(), 3 * DAY);
    }
}
