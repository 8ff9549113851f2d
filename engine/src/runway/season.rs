//! The seasonal term of the fitted growth: a calendar cycle of the peaks
//! (the week in daily peaks, the year in weekly or monthly samples),
//! found in the history or given by the caller, estimated by classical
//! decomposition and added back to every simulated path.
//!
//! Why: a non-seasonal ARIMA reads a yearly cycle as noise — its band
//! widens by the cycle's amplitude and its drift slows — and cannot time a
//! crossing that comes with next summer's peak. Decomposition keeps the
//! trend model as it is (auto-ARIMA, on the deseasonalized history) and
//! lets the paths' running maximum see the cycle, so the first-passage
//! dates land on the cycle's highs.
//!
//! The decomposition (the textbook "classical" one):
//! - the trend is the centred moving average over one period (a 2×P
//!   average for an even P), defined where its whole window is observed;
//! - the detrended history is the history minus that trend (additive) or
//!   over it (multiplicative: a cycle that widens with the level, as the
//!   airline passengers' does), and the profile is its mean by phase,
//!   centred (to 0, or to 1);
//! - additive or multiplicative is chosen by which leaves the smaller
//!   remainder, in the series' own units (multiplicative only for a
//!   positive series).
//!
//! A period is *found* when the detrended history's autocorrelation at
//! that lag is at least [`min_autocorrelation`] (0.3) and significant
//! ([`Z_ONE_PERCENT`] standard errors of a white noise's, `1/√pairs`): a
//! trend or a random walk, detrended by a moving average over the lag,
//! leaves a remainder with next to no correlation one period apart, a
//! cycle leaves it near 1. Finding needs the remainder to span two whole
//! periods (three periods of history, as the moving average eats one); a
//! period given by the caller needs two periods of history (one of
//! remainder for the profile).

use super::error::RunwayError;
use crate::forecast::PeriodParams;
use serde::{Deserialize, Serialize};

/// A week, days: the cycle of daily peaks (working days and weekends).
pub const WEEK_DAYS: f64 = 7.0;

/// A year, days (the Gregorian mean): the cycle of weekly and monthly
/// samples (seasons, holidays, the fiscal year).
pub const YEAR_DAYS: f64 = 365.2425;

/// Fewest standard errors of a white noise's autocorrelation (`1/√pairs`)
/// the autocorrelation at a period must reach: the one-sided 1 % normal
/// quantile, so that a short history's chance correlation does not pass
/// for a cycle.
pub const Z_ONE_PERCENT: f64 = 2.326;

/// The least autocorrelation at a period that counts as a cycle: the
/// forecast part's own threshold for a period in its spectrum
/// ([`PeriodParams::min_autocorrelation`], 0.3).
pub fn min_autocorrelation() -> f64 {
    PeriodParams::default().min_autocorrelation
}

/// Which season the fitted growth uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeasonChoice {
    /// Found in the history among the calendar's cycles (the default).
    #[default]
    Auto,
    /// None: the trend alone (the growth model before seasons).
    Off,
    /// This period, in the series' own steps (days for daily peaks).
    Period(usize),
}

impl SeasonChoice {
    /// Checks a period given by the caller (at least 2 steps); its length
    /// against the history is checked when fitting.
    pub fn validate(&self) -> Result<(), RunwayError> {
        match self {
            SeasonChoice::Period(p) if *p < 2 => Err(RunwayError::param(
                "season",
                format!("a period of {p} step(s): a cycle lasts at least 2"),
            )),
            _ => Ok(()),
        }
    }
}

/// How the cycle combines with the trend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeasonKind {
    /// Level = trend + profile.
    Additive,
    /// Level = trend × profile.
    Multiplicative,
}

/// A fitted seasonal term.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Season {
    /// The period, in steps.
    pub period: usize,
    /// How it combines with the trend.
    pub kind: SeasonKind,
    /// The profile by phase: `profile[t % period]` at step `t` (t = 0 the
    /// history's first), centred on 0 (additive) or 1 (multiplicative).
    pub profile: Vec<f64>,
    /// The standard error of each phase's mean (the pooled spread of the
    /// detrended history around the profile over √ its count; `None` when
    /// every phase was seen once and there is no spread to pool).
    pub profile_se: Option<Vec<f64>>,
    /// The detrended history's autocorrelation at the period.
    pub autocorrelation: f64,
}

impl Season {
    /// The profile at step `t`.
    pub fn at(&self, t: usize) -> f64 {
        self.profile[t % self.period]
    }

    /// `value` at step `t` with the cycle added (`shift` moves that phase's
    /// profile, for a path's own draw of it).
    pub fn add(&self, value: f64, t: usize, shift: f64) -> f64 {
        let s = self.at(t) + shift;
        match self.kind {
            SeasonKind::Additive => value + s,
            SeasonKind::Multiplicative => value * s,
        }
    }

    /// The history with the cycle taken out (NaN stays NaN).
    pub fn remove(&self, history: &[f64]) -> Vec<f64> {
        history
            .iter()
            .enumerate()
            .map(|(t, &y)| match self.kind {
                SeasonKind::Additive => y - self.at(t),
                SeasonKind::Multiplicative => y / self.at(t),
            })
            .collect()
    }

    /// The period and amplitude (half the profile's range), in a few words.
    pub fn describe(&self) -> String {
        let (lo, hi) = self
            .profile
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        let half = (hi - lo) / 2.0;
        match self.kind {
            SeasonKind::Additive => format!(
                "seasonal period {}, additive, amplitude ±{:.4} (autocorrelation {:.2})",
                self.period, half, self.autocorrelation
            ),
            SeasonKind::Multiplicative => format!(
                "seasonal period {}, multiplicative, amplitude ±{:.1} % (autocorrelation {:.2})",
                self.period,
                half * 100.0,
                self.autocorrelation
            ),
        }
    }
}

/// The calendar's cycles in steps of `step_days` days: a week and a year,
/// rounded to whole steps, those of at least 2 steps (daily peaks: 7 and
/// 365; weekly samples: 52; monthly: 12).
pub fn calendar_periods(step_days: f64) -> Vec<usize> {
    if !(step_days.is_finite() && step_days > 0.0) {
        return Vec::new();
    }
    [WEEK_DAYS, YEAR_DAYS]
        .iter()
        .map(|d| (d / step_days).round())
        .filter(|p| *p >= 2.0 && *p <= 1e7)
        .map(|p| p as usize)
        .collect()
}

/// The centred moving average over `period` steps (2×P for an even P) at
/// each step, NaN where its window runs off the history or holds a gap.
fn moving_trend(y: &[f64], period: usize) -> Vec<f64> {
    let n = y.len();
    let half = period / 2;
    let mut out = vec![f64::NAN; n];
    if n <= 2 * half {
        return out;
    }
    for (t, slot) in out.iter_mut().enumerate().take(n - half).skip(half) {
        let window = &y[t - half..=t + half];
        if window.iter().any(|v| !v.is_finite()) {
            continue;
        }
        *slot = if period % 2 == 1 {
            window.iter().sum::<f64>() / period as f64
        } else {
            // 2×P: the two ends weigh half, the P − 1 inside one each.
            let inner: f64 = window[1..window.len() - 1].iter().sum();
            (inner + 0.5 * (window[0] + window[window.len() - 1])) / period as f64
        };
    }
    out
}

/// Autocorrelation at `lag` of `x` (NaN: missing) over the pairs both
/// observed, each centred on the observed mean; with the number of pairs.
fn autocorrelation(x: &[f64], lag: usize) -> (f64, usize) {
    let seen: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    if seen.len() < 2 || lag >= x.len() {
        return (0.0, 0);
    }
    let mean = seen.iter().sum::<f64>() / seen.len() as f64;
    let var = seen.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / seen.len() as f64;
    let (sum, pairs) = x[lag..]
        .iter()
        .zip(x)
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .fold((0.0, 0usize), |(s, k), (a, b)| {
            (s + (a - mean) * (b - mean), k + 1)
        });
    if var <= 0.0 || pairs == 0 {
        return (0.0, pairs);
    }
    (sum / pairs as f64 / var, pairs)
}

/// The profile of `detrended` by phase (mean of each phase, centred on
/// `centre`), the remainder's sum of squares in the series' units (each
/// residual times `scale[t]`), and the phases' standard errors; `None`
/// when a phase has no value.
fn profile(
    detrended: &[f64],
    period: usize,
    centre: f64,
    scale: &[f64],
) -> Option<(Vec<f64>, f64, Option<Vec<f64>>)> {
    let mut sum = vec![0.0; period];
    let mut count = vec![0usize; period];
    for (t, v) in detrended.iter().enumerate() {
        if v.is_finite() {
            sum[t % period] += v;
            count[t % period] += 1;
        }
    }
    if count.contains(&0) {
        return None;
    }
    let mut prof: Vec<f64> = sum.iter().zip(&count).map(|(s, &c)| s / c as f64).collect();
    let shift = prof.iter().sum::<f64>() / period as f64 - centre;
    let mut within = 0.0;
    let mut rss = 0.0;
    for (t, v) in detrended.iter().enumerate() {
        if v.is_finite() {
            let r = v - prof[t % period];
            within += r * r;
            rss += (r * scale[t]).powi(2);
        }
    }
    for p in &mut prof {
        *p -= shift;
    }
    let seen: usize = count.iter().sum();
    let se = (seen > period).then(|| {
        let var = within / (seen - period) as f64;
        count.iter().map(|&c| (var / c as f64).sqrt()).collect()
    });
    Some((prof, rss, se))
}

/// The season of `history` at `period`, additive or multiplicative by the
/// smaller remainder; `None` when the history does not hold two periods or
/// a phase is never observed away from the ends.
pub fn fit(history: &[f64], period: usize) -> Option<Season> {
    if period < 2 || history.len() < 2 * period {
        return None;
    }
    let trend = moving_trend(history, period);
    let ones = vec![1.0; history.len()];
    let diff: Vec<f64> = history.iter().zip(&trend).map(|(y, m)| y - m).collect();
    let (acf, _) = autocorrelation(&diff, period);
    let additive = profile(&diff, period, 0.0, &ones).map(|(p, rss, se)| {
        (
            Season {
                period,
                kind: SeasonKind::Additive,
                profile: p,
                profile_se: se,
                autocorrelation: acf,
            },
            rss,
        )
    });
    let positive = history.iter().all(|v| !v.is_finite() || *v > 0.0);
    let multiplicative = positive
        .then(|| {
            let ratio: Vec<f64> = history.iter().zip(&trend).map(|(y, m)| y / m).collect();
            profile(&ratio, period, 1.0, &trend)
        })
        .flatten()
        .map(|(p, rss, se)| {
            (
                Season {
                    period,
                    kind: SeasonKind::Multiplicative,
                    profile: p,
                    profile_se: se,
                    autocorrelation: acf,
                },
                rss,
            )
        });
    match (additive, multiplicative) {
        (Some(a), Some(m)) => Some(if m.1 < a.1 { m.0 } else { a.0 }),
        (a, m) => a.or(m).map(|s| s.0),
    }
}

/// The season the evidence supports among `candidates`: the one whose
/// detrended history is most autocorrelated at its period, if that passes
/// [`min_autocorrelation`] and [`Z_ONE_PERCENT`]`/√pairs` over two whole
/// periods of remainder; `None` otherwise.
pub fn detect(history: &[f64], candidates: &[usize]) -> Option<Season> {
    candidates
        .iter()
        .filter(|&&p| p >= 2 && history.len() >= 3 * p)
        .filter_map(|&p| {
            let trend = moving_trend(history, p);
            let diff: Vec<f64> = history.iter().zip(&trend).map(|(y, m)| y - m).collect();
            let (acf, pairs) = autocorrelation(&diff, p);
            let needed = min_autocorrelation().max(Z_ONE_PERCENT / (pairs.max(1) as f64).sqrt());
            (pairs >= p && acf >= needed).then_some((p, acf))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .and_then(|(p, _)| fit(history, p))
}

/// The season `choice` asks for on `history` (steps of `step_days` days):
/// found among the calendar's cycles, none, or the period given — which
/// must fit twice in the history.
pub fn choose(
    history: &[f64],
    choice: SeasonChoice,
    step_days: f64,
) -> Result<Option<Season>, RunwayError> {
    match choice {
        SeasonChoice::Off => Ok(None),
        SeasonChoice::Auto => Ok(detect(history, &calendar_periods(step_days))),
        SeasonChoice::Period(p) => {
            choice.validate()?;
            if p > history.len() / 2 {
                return Err(RunwayError::param(
                    "season",
                    format!(
                        "a period of {p} steps needs two of them in the history, which has {}",
                        history.len()
                    ),
                ));
            }
            fit(history, p).map(Some).ok_or_else(|| {
                RunwayError::param(
                    "season",
                    format!("some phase of the period {p} is never observed away from the history's ends"),
                )
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::rng::Rng;
    use std::f64::consts::PI;

    /// Trend + sinusoid of period `p` and amplitude `a` + Gaussian noise.
    fn wave(n: usize, p: f64, a: f64, noise: f64, seed: u64) -> Vec<f64> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|t| {
                10.0 + 0.02 * t as f64 + a * (2.0 * PI * t as f64 / p).sin() + noise * rng.normal()
            })
            .collect()
    }

    #[test]
    fn the_calendar_periods_are_the_week_and_the_year_in_steps() {
        assert_eq!(calendar_periods(1.0), vec![7, 365]);
        assert_eq!(calendar_periods(7.0), vec![52]);
        assert_eq!(calendar_periods(30.436_875), vec![12]);
        assert!(calendar_periods(f64::NAN).is_empty());
        assert!(calendar_periods(400.0).is_empty());
    }

    #[test]
    fn a_known_cycle_is_found_and_a_trend_with_noise_is_not() {
        // Period 12 among the candidates 7 and 12, over 10 cycles.
        for seed in 0..5 {
            let y = wave(120, 12.0, 1.0, 0.3, seed);
            let s = detect(&y, &[7, 12]).expect("a cycle");
            assert_eq!(s.period, 12, "seed {seed}");
            // The profile is the sinusoid, phase by phase, within noise.
            for k in 0..12 {
                let truth = (2.0 * PI * k as f64 / 12.0).sin();
                assert!((s.at(k) - truth).abs() < 0.35, "phase {k}: {}", s.at(k));
            }
        }
        // A weekly cycle in daily steps, among the calendar's.
        let y = wave(70, 7.0, 1.0, 0.3, 9);
        assert_eq!(
            detect(&y, &calendar_periods(1.0)).map(|s| s.period),
            Some(7)
        );
        // Trend + white noise, and a random walk with drift: no cycle.
        let mut found = 0;
        for seed in 0..20 {
            if detect(&wave(120, 12.0, 0.0, 0.3, seed), &[7, 12]).is_some() {
                found += 1;
            }
            let mut rng = Rng::new(100 + seed);
            let walk: Vec<f64> = (0..120)
                .scan(10.0, |acc, _| {
                    *acc += 0.02 + 0.3 * rng.normal();
                    Some(*acc)
                })
                .collect();
            if detect(&walk, &[7, 12]).is_some() {
                found += 1;
            }
        }
        assert!(found <= 1, "{found} of 40 cycle-free series given a cycle");
    }

    #[test]
    fn a_cycle_that_widens_with_the_level_is_multiplicative() {
        let y: Vec<f64> = (0..96)
            .map(|t| {
                let level = 100.0 * 1.02f64.powi(t);
                level * (1.0 + 0.2 * (2.0 * PI * t as f64 / 12.0).sin())
            })
            .collect();
        let s = fit(&y, 12).unwrap();
        assert_eq!(s.kind, SeasonKind::Multiplicative);
        assert!(s.describe().contains("seasonal period 12"));
        let flat = wave(96, 12.0, 1.0, 0.1, 3);
        assert_eq!(fit(&flat, 12).unwrap().kind, SeasonKind::Additive);
    }

    #[test]
    fn removing_and_adding_the_cycle_round_trips() {
        let y = wave(60, 12.0, 2.0, 0.2, 4);
        let s = fit(&y, 12).unwrap();
        let flat = s.remove(&y);
        for (t, (a, b)) in y.iter().zip(&flat).enumerate() {
            assert!((s.add(*b, t, 0.0) - a).abs() < 1e-9);
        }
    }

    #[test]
    fn bad_periods_are_named() {
        let y = wave(30, 7.0, 1.0, 0.1, 1);
        for (choice, word) in [
            (SeasonChoice::Period(1), "at least 2"),
            (SeasonChoice::Period(0), "at least 2"),
            (SeasonChoice::Period(16), "two of them"),
        ] {
            let e = choose(&y, choice, 1.0).unwrap_err().to_string();
            assert!(e.starts_with("season:") && e.contains(word), "{e}");
        }
        assert!(choose(&y, SeasonChoice::Period(15), 1.0).unwrap().is_some());
        assert!(choose(&y, SeasonChoice::Off, 1.0).unwrap().is_none());
    }
}
