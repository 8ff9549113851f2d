//! The utilization series of one file as they stream in, in bounded memory.
//!
//! Every sample is kept while the file has at most [`EXACT_POINTS`] of
//! them — every file the studio met before gigabyte traces, so their
//! series are exactly what the file says. Past that the file is
//! **aggregated**: each series becomes the means of its samples over
//! windows of one width (a rung of [`LADDER`], so a coarser window is a
//! whole number of finer ones and merging stays exact), the widths chosen so
//! that all series together keep about [`WINDOW_BUDGET`] windows. A series
//! whose windows would outgrow its share is coarsened on the spot; the
//! shares shrink as series appear. What was aggregated is said in the
//! file's notes.

use crate::model::{Resource, Timestamp, UtilizationSeries};
use std::collections::HashMap;

/// Samples kept exactly, over all series of a file (about 64 MB).
pub(crate) const EXACT_POINTS: usize = 4_000_000;
/// Windows kept over all series of an aggregated file (about 24 MB): some
/// 2,000 per series for a thousand machines, the panels' resolution.
pub(crate) const WINDOW_BUDGET: usize = 2_000_000;
/// The fewest windows a series may be cut to, whatever the series count.
pub(crate) const MIN_WINDOWS: usize = 256;
/// Window widths, seconds: each a multiple of the one before; beyond the
/// last, widths double.
pub(crate) const LADDER: [i64; 13] = [
    1, 5, 10, 30, 60, 300, 600, 1800, 3600, 10800, 21600, 43200, 86400,
];

/// The width after `w`.
fn next_width(w: i64) -> i64 {
    LADDER
        .iter()
        .copied()
        .find(|&l| l > w)
        .unwrap_or_else(|| w.saturating_mul(2))
}

/// Windows of one series: sums and counts from key `base` on (key =
/// timestamp ÷ width, rounded down).
#[derive(Debug, Default)]
struct Windows {
    width: i64,
    base: i64,
    sum: Vec<f64>,
    count: Vec<u32>,
}

impl Windows {
    fn len(&self) -> usize {
        self.sum.len()
    }

    fn add(&mut self, t: Timestamp, v: f64) {
        let k = t.div_euclid(self.width);
        if self.sum.is_empty() {
            self.base = k;
        }
        if k < self.base {
            let grow = usize::try_from(self.base - k).unwrap_or(usize::MAX);
            let room = grow.max(self.sum.len() / 2);
            let mut sum = vec![0.0; room];
            let mut count = vec![0; room];
            sum.extend_from_slice(&self.sum);
            count.extend_from_slice(&self.count);
            self.sum = sum;
            self.count = count;
            self.base -= room as i64;
        }
        let i = usize::try_from(k - self.base).unwrap_or(usize::MAX);
        if i >= self.sum.len() {
            self.sum.resize(i + 1, 0.0);
            self.count.resize(i + 1, 0);
        }
        self.sum[i] += v;
        self.count[i] += 1;
    }

    /// Windows `factor` times wider.
    fn coarsen(&mut self) {
        let width = next_width(self.width);
        let factor = width / self.width;
        let mut out = Windows {
            width,
            ..Windows::default()
        };
        for (i, (&s, &c)) in self.sum.iter().zip(&self.count).enumerate() {
            if c > 0 {
                let k = (self.base + i as i64).div_euclid(factor);
                out.add_window(k, s, c);
            }
        }
        *self = out;
    }

    fn add_window(&mut self, k: i64, s: f64, c: u32) {
        if self.sum.is_empty() {
            self.base = k;
        }
        let i = usize::try_from(k - self.base).unwrap_or(0);
        if i >= self.sum.len() {
            self.sum.resize(i + 1, 0.0);
            self.count.resize(i + 1, 0);
        }
        self.sum[i] += s;
        self.count[i] += c;
    }

    /// The span of windows if `t` were added.
    fn span_with(&self, t: Timestamp) -> usize {
        if self.sum.is_empty() {
            return 1;
        }
        let k = t.div_euclid(self.width);
        let lo = k.min(self.base);
        let hi = k.max(self.base + self.sum.len() as i64 - 1);
        usize::try_from(hi - lo + 1).unwrap_or(usize::MAX)
    }

    /// The windows as samples: their means, or for an integrating set
    /// their areas over their width.
    fn into_series(self, series: &mut UtilizationSeries, integrate: bool) {
        let width = self.width as f64;
        for (i, (s, c)) in self.sum.into_iter().zip(self.count).enumerate() {
            if c > 0 {
                series.timestamps.push((self.base + i as i64) * self.width);
                series.values.push(if integrate {
                    s / width
                } else {
                    s / f64::from(c)
                });
            }
        }
    }
}

/// One series: exact samples, or windows once the file is aggregated.
#[derive(Debug)]
struct Entry {
    series: UtilizationSeries,
    windows: Option<Windows>,
}

/// The series of one file.
#[derive(Debug, Default)]
pub(crate) struct SeriesSet {
    entries: Vec<Entry>,
    index: HashMap<(String, Resource), usize>,
    /// Samples added.
    points: u64,
    aggregated: bool,
    /// Samples are rates over intervals, summed as areas ([`SeriesSet::integrating`]).
    integrate: bool,
    /// The width new series' windows start at.
    base_width: i64,
    /// Series count at the last sweep of the shares.
    swept_at: usize,
}

impl SeriesSet {
    /// No series yet.
    pub(crate) fn new() -> SeriesSet {
        SeriesSet {
            base_width: LADDER[0],
            ..SeriesSet::default()
        }
    }

    /// Series of totals: each sample a rate over an interval
    /// ([`SeriesSet::add_area`]), several of which may overlap (the
    /// instances on one machine), summed into windows of `width` seconds (a
    /// rung of [`LADDER`]) and read back as the mean total over each window.
    pub(crate) fn integrating(width: i64) -> SeriesSet {
        SeriesSet {
            aggregated: true,
            integrate: true,
            base_width: width,
            ..SeriesSet::default()
        }
    }

    /// Adds `rate` over `[from, to)` seconds to series `i` of an
    /// integrating set.
    pub(crate) fn add_area(&mut self, i: usize, from: Timestamp, to: Timestamp, rate: f64) {
        if to <= from {
            return;
        }
        self.points += 1;
        let share = self.share();
        let Some(w) = self.entries[i].windows.as_mut() else {
            return;
        };
        while w.span_with(from) > share || w.span_with(to - 1) > share {
            w.coarsen();
        }
        let mut t = from;
        while t < to {
            let end = ((t.div_euclid(w.width) + 1) * w.width).min(to);
            w.add(t, rate * (end - t) as f64);
            t = end;
        }
    }

    /// The index of the series `name`/`resource`, created when new.
    pub(crate) fn series(&mut self, name: &str, resource: &Resource) -> usize {
        if let Some(&i) = self.index.get(&(name.to_string(), resource.clone())) {
            return i;
        }
        let i = self.entries.len();
        self.index.insert((name.to_string(), resource.clone()), i);
        let windows = self.aggregated.then(|| Windows {
            width: self.base_width,
            ..Windows::default()
        });
        self.entries.push(Entry {
            series: UtilizationSeries::new(name, resource.clone()),
            windows,
        });
        if self.aggregated && self.entries.len() >= 2 * self.swept_at.max(1) {
            self.sweep();
        }
        i
    }

    /// Windows each series may keep now.
    fn share(&self) -> usize {
        (WINDOW_BUDGET / self.entries.len().max(1)).max(MIN_WINDOWS)
    }

    /// Adds a sample to series `i`.
    pub(crate) fn add(&mut self, i: usize, t: Timestamp, v: f64) {
        self.points += 1;
        if !self.aggregated {
            let s = &mut self.entries[i].series;
            s.timestamps.push(t);
            s.values.push(v);
            if self.points as usize > EXACT_POINTS {
                self.aggregate();
            }
            return;
        }
        let share = self.share();
        let Some(w) = self.entries[i].windows.as_mut() else {
            return;
        };
        while w.span_with(t) > share {
            w.coarsen();
        }
        w.add(t, v);
    }

    /// Switches every series to windows: each starts at the rung just
    /// above its median sample spacing.
    fn aggregate(&mut self) {
        self.aggregated = true;
        self.swept_at = self.entries.len();
        let share = self.share();
        for e in &mut self.entries {
            let step = e.series.median_step_secs().unwrap_or(1).max(1);
            let mut width = LADDER[0];
            while width < step {
                width = next_width(width);
            }
            let mut w = Windows {
                width,
                ..Windows::default()
            };
            let empty = UtilizationSeries::new(e.series.server.clone(), e.series.resource.clone());
            let s = std::mem::replace(&mut e.series, empty);
            for (&t, &v) in s.timestamps.iter().zip(&s.values) {
                while w.span_with(t) > share {
                    w.coarsen();
                }
                w.add(t, v);
            }
            e.windows = Some(w);
        }
    }

    /// Brings every series within its (smaller) share.
    fn sweep(&mut self) {
        self.swept_at = self.entries.len();
        let share = self.share();
        for w in self.entries.iter_mut().filter_map(|e| e.windows.as_mut()) {
            while w.len() > share {
                w.coarsen();
            }
        }
    }

    /// The series (empty ones dropped, samples in time order) and, when
    /// the file was aggregated, a note saying how.
    pub(crate) fn finish(mut self) -> (Vec<UtilizationSeries>, Option<String>) {
        if self.aggregated {
            self.sweep();
        }
        let (points, integrate) = (self.points, self.integrate);
        let mut widths: Vec<i64> = Vec::new();
        let mut out = Vec::with_capacity(self.entries.len());
        for mut e in self.entries {
            if let Some(w) = e.windows.take() {
                widths.push(w.width);
                w.into_series(&mut e.series, integrate);
            }
            if !e.series.is_empty() {
                e.series.sort_by_time();
                out.push(e.series);
            }
        }
        let note = self.aggregated.then(|| {
            let kept: usize = out.iter().map(UtilizationSeries::len).sum();
            let (lo, hi) = (
                widths.iter().copied().min().unwrap_or(0),
                widths.iter().copied().max().unwrap_or(0),
            );
            let width = if lo == hi {
                crate::time::format_duration(lo)
            } else {
                format!(
                    "{} to {}",
                    crate::time::format_duration(lo),
                    crate::time::format_duration(hi)
                )
            };
            let what = if integrate { "totals" } else { "means" };
            format!(
                "aggregated: {points} samples of {} series kept as {kept} {what} over windows of {width}",
                out.len()
            )
        });
        (out, note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_until_the_budget() {
        let mut set = SeriesSet::new();
        let a = set.series("a", &Resource::Cpu);
        for t in [20, 0, 10] {
            set.add(a, t, t as f64);
        }
        let (series, note) = set.finish();
        assert_eq!(note, None);
        assert_eq!(series[0].timestamps, vec![0, 10, 20]);
        assert_eq!(series[0].values, vec![0.0, 10.0, 20.0]);
    }

    #[test]
    fn integrating_sums_overlapping_intervals() {
        let mut set = SeriesSet::integrating(300);
        let m = set.series("m1", &Resource::Cpu);
        // Two instances on the machine over the first window, one of them
        // reaching into the second.
        set.add_area(m, 0, 300, 10.0);
        set.add_area(m, 150, 450, 20.0);
        let (series, _) = set.finish();
        assert_eq!(series[0].timestamps, vec![0, 300]);
        assert_eq!(series[0].values, vec![20.0, 10.0]);
    }

    #[test]
    fn windows_keep_means_and_stay_within_the_budget() {
        let mut w = Windows {
            width: 10,
            ..Windows::default()
        };
        for (t, v) in [(5, 1.0), (7, 3.0), (25, 5.0), (-3, 7.0)] {
            w.add(t, v);
        }
        let mut s = UtilizationSeries::new("x", Resource::Cpu);
        w.coarsen();
        assert_eq!(w.width, 30);
        w.into_series(&mut s, false);
        assert_eq!(s.timestamps, vec![-30, 0]);
        assert_eq!(s.values, vec![7.0, 3.0]);

        // Far past the exact budget: bounded windows, the overall mean kept.
        let mut set = SeriesSet::new();
        let ids: Vec<usize> = (0..4)
            .map(|k| set.series(&format!("s{k}"), &Resource::Cpu))
            .collect();
        let n = EXACT_POINTS as i64 / 2;
        for t in 0..n {
            for &i in &ids {
                set.add(i, t * 10, (t % 7) as f64);
            }
        }
        let (series, note) = set.finish();
        assert!(note.unwrap().starts_with("aggregated:"));
        for s in &series {
            assert!(s.len() <= WINDOW_BUDGET / 4, "{}", s.len());
            let (_, mean, _) = s.stats().unwrap();
            assert!((mean - 3.0).abs() < 0.01, "{mean}");
        }
    }
}
