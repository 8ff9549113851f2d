//! Forecasts that learn across attempts. In the reference simulator a
//! job's predictor lives as long as the job: a killed and resubmitted job
//! keeps its observations, so its next attempt is forecast from what the
//! earlier ones saw (and, past the grace period, resized from its first
//! minute). Replaying the first attempt's forecasts instead would make a
//! failure repeat itself at the same minute at every start.
//!
//! A first attempt's forecasts are the ones computed once per workload
//! ([`super::predictor`]). When an attempt ends (failure or preemption),
//! the latest `history` observations it and the earlier attempts made are
//! kept; a restarted application's forecaster is a
//! [`SeriesForecaster`] started from them and fed this attempt's minutes
//! as they come. The grace period counts observations over all attempts.

use super::forecaster::SeriesForecaster;
use super::model::UsageTrace;
use super::params::{Params, Predictor};
use super::predictor::{AppForecast, MinuteForecast};

/// What the ended attempts of one application observed.
struct Seen {
    /// Their latest CPU observations (at most `history`), oldest first.
    cpu: Vec<f64>,
    /// Their latest memory observations.
    mem: Vec<f64>,
    /// Minutes they observed in all.
    total: usize,
}

/// The forecasters of a restarted application's current attempt.
struct Live {
    cpu: SeriesForecaster,
    mem: SeriesForecaster,
    /// Minutes of this attempt given to them.
    fed: usize,
}

/// Per application: what its earlier attempts observed, and the live
/// forecasters of its current attempt once restarted.
pub(crate) struct Learning {
    seen: Vec<Option<Box<Seen>>>,
    live: Vec<Option<Box<Live>>>,
    /// Fallbacks of the live forecasters of ended attempts.
    ended_fallbacks: usize,
}

/// The latest `n` of `earlier` followed by `now`.
fn tail(earlier: &[f64], now: impl Iterator<Item = f64>, n: usize) -> Vec<f64> {
    let mut v: Vec<f64> = earlier.iter().copied().chain(now).collect();
    let cut = v.len().saturating_sub(n);
    v.drain(..cut);
    v
}

impl Learning {
    /// Nothing observed yet, for `n` applications.
    pub fn new(n: usize) -> Self {
        Learning {
            seen: (0..n).map(|_| None).collect(),
            live: (0..n).map(|_| None).collect(),
            ended_fallbacks: 0,
        }
    }

    /// Application `i`'s attempt ended having observed its minutes
    /// `0..minutes` of `usage`: keep the latest `history` observations.
    pub fn attempt_ended(&mut self, i: usize, usage: &UsageTrace, minutes: usize, history: usize) {
        let minutes = minutes.min(usage.len());
        let (earlier_cpu, earlier_mem, total) = match &self.seen[i] {
            Some(s) => (s.cpu.as_slice(), s.mem.as_slice(), s.total),
            None => (&[][..], &[][..], 0),
        };
        let from = minutes.saturating_sub(history);
        let cpu = tail(
            earlier_cpu,
            usage.cpu[from..minutes].iter().map(|&v| v as f64),
            history,
        );
        let mem = tail(
            earlier_mem,
            usage.mem[from..minutes].iter().map(|&v| v as f64),
            history,
        );
        self.seen[i] = Some(Box::new(Seen {
            cpu,
            mem,
            total: total + minutes,
        }));
        if let Some(l) = self.live[i].take() {
            self.ended_fallbacks += l.cpu.fallbacks + l.mem.fallbacks;
        }
    }

    /// The forecast for minute `minute` of application `i`'s current
    /// attempt, `None` while its observations over all attempts are fewer
    /// than the grace period (or too few to forecast from). A first
    /// attempt uses `first` (the forecasts computed once); a restarted one
    /// its live forecasters.
    pub fn forecast(
        &mut self,
        i: usize,
        predictor: Predictor,
        params: &Params,
        usage: &UsageTrace,
        minute: usize,
        first: &AppForecast,
    ) -> Option<MinuteForecast> {
        let grace = params.grace_minutes;
        let Some(seen) = self.seen[i].as_deref() else {
            return (minute >= grace).then(|| first.at(predictor, usage, grace, minute));
        };
        if seen.total + minute < grace {
            return None;
        }
        if predictor == Predictor::Oracle {
            return Some(first.at(predictor, usage, grace, minute));
        }
        let live = self.live[i].get_or_insert_with(|| {
            Box::new(Live {
                cpu: SeriesForecaster::new(predictor, params, &seen.cpu),
                mem: SeriesForecaster::new(predictor, params, &seen.mem),
                fed: 0,
            })
        });
        // This attempt's minutes before `minute` (its trace repeats its
        // last minute past the end, as [`UsageTrace::at`]).
        while live.fed < minute {
            let (c, m) = usage.at(live.fed);
            live.cpu.observe(c);
            live.mem.observe(m);
            live.fed += 1;
        }
        let (cpu_mean, cpu_var) = live.cpu.forecast()?;
        let (mem_mean, mem_var) = live.mem.forecast()?;
        Some(MinuteForecast {
            cpu_mean,
            cpu_var,
            mem_mean,
            mem_var,
        })
    }

    /// Forecasts made by live forecasters where the last value stood in.
    pub fn fallbacks(&self) -> usize {
        self.ended_fallbacks
            + self
                .live
                .iter()
                .flatten()
                .map(|l| l.cpu.fallbacks + l.mem.fallbacks)
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_observations_are_the_latest_over_attempts() {
        let usage = UsageTrace {
            cpu: (0..20).map(|m| m as f32).collect(),
            mem: (0..20).map(|m| 100.0 + m as f32).collect(),
        };
        let mut l = Learning::new(1);
        // First attempt saw minutes 0..3, the second 0..2: 0 1 2 | 0 1.
        l.attempt_ended(0, &usage, 3, 4);
        l.attempt_ended(0, &usage, 2, 4);
        let s = l.seen[0].as_deref().expect("seen");
        assert_eq!(s.cpu, vec![1.0, 2.0, 0.0, 1.0]);
        assert_eq!(s.mem, vec![101.0, 102.0, 100.0, 101.0]);
        assert_eq!(s.total, 5);
    }
}
