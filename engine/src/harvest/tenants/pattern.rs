//! A tenant's utilization pattern from its spectrum (§3): **constant**
//! (little energy beyond the mean), **periodic** (a dominant spectral peak
//! with its harmonics, e.g. 31 cycles in a 31-day month), or
//! **unpredictable** (neither: energy spread over, and mostly falling
//! with, frequency).
//!
//! The rule, in order, with every number returned as evidence:
//!
//! 1. *Constant* when the standard deviation is at most
//!    [`PatternParams::constant_max_std`] percentage points or the
//!    coefficient of variation at most [`PatternParams::constant_max_cv`]
//!    (by Parseval the energy beyond the mean is n·variance, so this is
//!    "little energy beyond the mean" in the units a harvester cares
//!    about: cores that move).
//! 2. *Periodic* when the strongest bin with at least
//!    [`PatternParams::min_cycles`] cycles in the window, k*, together with
//!    its first [`PatternParams::harmonics`] harmonics (each ±1 bin for
//!    leakage) carries at least [`PatternParams::periodic_min_share`] of
//!    the energy beyond the mean, **and** stands at least
//!    [`PatternParams::periodic_min_prominence`] times above the median bin
//!    of its neighbourhood (k*/2 … 2k*, harmonics excluded). The share
//!    alone is not enough: a random walk puts most of its energy in the
//!    lowest bins too, but its lowest bins are all alike — a periodic
//!    load's peak is isolated.
//! 3. *Unpredictable* otherwise.
//!
//! The defaults are justified on data in `BENCHMARKS.md` (harvest
//! section): the generated tenants of known pattern and the NAB series.

use crate::harvest::error::{check, HarvestError};
use crate::numerics::spectrum::RealSpectrum;
use crate::numerics::stats::{lane_sum, lane_sum_of};
use serde::{Deserialize, Serialize};

/// The three patterns of §3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    /// A dominant spectral peak: the load repeats (user-facing services).
    Periodic,
    /// Roughly flat (crawlers, scrubbers).
    Constant,
    /// Neither (development, testing).
    Unpredictable,
}

impl Pattern {
    /// All three, in the paper's order.
    pub const ALL: [Pattern; 3] = [Pattern::Periodic, Pattern::Constant, Pattern::Unpredictable];

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Periodic => "periodic",
            Pattern::Constant => "constant",
            Pattern::Unpredictable => "unpredictable",
        }
    }
}

/// Thresholds of the pattern rule (see the module notes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PatternParams {
    /// Largest standard deviation of a constant tenant, percentage points
    /// (default 3: generated constant tenants reach 1.6, periodic ones
    /// start at 7.5, unpredictable ones at 13).
    pub constant_max_std: f64,
    /// Largest coefficient of variation of a constant tenant (default
    /// 0.05), for series that are not percentages.
    pub constant_max_cv: f64,
    /// Fewest cycles in the window a periodic peak must have (default 2:
    /// a "period" seen once is not a repetition).
    pub min_cycles: usize,
    /// Harmonics counted with the peak (default 4: a daily load is rarely
    /// a pure sine; its shape lives in 2, 3, 4 cycles per day).
    pub harmonics: usize,
    /// Least share of the energy beyond the mean in the peak and its
    /// harmonics (default 0.2).
    pub periodic_min_share: f64,
    /// Least ratio of the peak to the median bin around it (default 100:
    /// on the generated datacenter, periodic tenants stand ≥ 270× above
    /// their neighbourhood over 7 days and ≥ 2,500× over 30, random walks
    /// with bursts at most 76×; NAB's nyc_taxi daily peak 5,300×).
    pub periodic_min_prominence: f64,
    /// Fewest samples to classify (default 16).
    pub min_len: usize,
    /// Strongest bins reported as evidence (default 5).
    pub top: usize,
}

impl Default for PatternParams {
    fn default() -> Self {
        PatternParams {
            constant_max_std: 3.0,
            constant_max_cv: 0.05,
            min_cycles: 2,
            harmonics: 4,
            periodic_min_share: 0.2,
            periodic_min_prominence: 100.0,
            min_len: 16,
            top: 5,
        }
    }
}

impl PatternParams {
    /// Checks the thresholds.
    pub fn validate(&self) -> Result<(), HarvestError> {
        check(
            self.constant_max_std.is_finite() && self.constant_max_std >= 0.0,
            "constant_max_std",
            "must be a non-negative number",
        )?;
        check(
            self.constant_max_cv.is_finite() && self.constant_max_cv >= 0.0,
            "constant_max_cv",
            "must be a non-negative number",
        )?;
        check(self.min_cycles >= 1, "min_cycles", "must be at least 1")?;
        check(self.harmonics >= 1, "harmonics", "must be at least 1")?;
        check(
            (0.0..=1.0).contains(&self.periodic_min_share),
            "periodic_min_share",
            "must be in [0, 1]",
        )?;
        check(
            self.periodic_min_prominence.is_finite() && self.periodic_min_prominence >= 1.0,
            "periodic_min_prominence",
            "must be at least 1",
        )?;
        check(self.min_len >= 4, "min_len", "must be at least 4")
    }
}

/// One spectral bin reported as evidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frequency {
    /// Cycles in the window (the bin k).
    pub cycles: usize,
    /// Its period, seconds.
    pub period_secs: f64,
    /// Its share of the energy beyond the mean.
    pub share: f64,
}

/// What the rule looked at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternEvidence {
    /// Mean of the series.
    pub mean: f64,
    /// Standard deviation (population).
    pub std: f64,
    /// Coefficient of variation (std / |mean|; infinite for a zero mean).
    pub cv: f64,
    /// The strongest bin with at least `min_cycles` cycles (k*).
    pub peak: Option<Frequency>,
    /// Share of the energy beyond the mean in k* and its harmonics.
    pub peak_share: f64,
    /// k*'s power over the median bin of its neighbourhood.
    pub prominence: f64,
    /// The strongest bins, strongest first.
    pub top: Vec<Frequency>,
    /// Share of the energy in the lowest tenth of the frequencies (high for
    /// an unpredictable tenant: energy falling with frequency).
    pub low_frequency_share: f64,
}

/// A verdict and its evidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternVerdict {
    /// The pattern.
    pub pattern: Pattern,
    /// Why.
    pub evidence: PatternEvidence,
    /// The rule that decided, in words.
    pub reason: String,
}

/// Classifies one series sampled every `step_secs` seconds, reusing
/// `plan` (its length must be the series'). `power` is scratch space and
/// holds the spectrum on return.
pub fn classify_with(
    x: &[f64],
    step_secs: f64,
    p: &PatternParams,
    plan: &mut RealSpectrum,
    power: &mut Vec<f64>,
) -> Result<PatternVerdict, HarvestError> {
    check(
        x.len() >= p.min_len,
        "series",
        &format!("has {} samples, fewer than min_len {}", x.len(), p.min_len),
    )?;
    let n = x.len();
    // A non-finite value makes the sum non-finite; only then look for it.
    let total = lane_sum(x);
    if !total.is_finite() {
        if let Some(i) = x.iter().position(|v| !v.is_finite()) {
            return Err(HarvestError::NotFinite {
                what: "series".into(),
                index: i,
            });
        }
    }
    let mean = total / n as f64;
    let var = lane_sum_of(x, |v| (v - mean) * (v - mean)) / n as f64;
    let std = var.sqrt();
    let cv = if mean != 0.0 {
        std / mean.abs()
    } else {
        f64::INFINITY
    };
    plan.power(x, mean, power);
    let m = power.len() - 1;
    let energy = lane_sum(&power[1..]);
    let span = n as f64 * step_secs;
    let freq = |k: usize, share: f64| Frequency {
        cycles: k,
        period_secs: span / k as f64,
        share,
    };
    let share_of = |v: f64| if energy > 0.0 { v / energy } else { 0.0 };
    // Top bins.
    let mut top: Vec<usize> = Vec::with_capacity(p.top + 1);
    // The weakest kept bin's power, once `top` is full: most bins fall
    // short of it.
    let mut bar = f64::NEG_INFINITY;
    for k in 1..=m {
        if top.len() < p.top || power[k] > bar {
            let at = top.partition_point(|&j| power[j] >= power[k]);
            top.insert(at, k);
            top.truncate(p.top);
            if top.len() == p.top {
                bar = top.last().map_or(f64::NEG_INFINITY, |&j| power[j]);
            }
        }
    }
    let top: Vec<Frequency> = top.iter().map(|&k| freq(k, share_of(power[k]))).collect();
    let low = (m / 10).max(1);
    let low_frequency_share = share_of(lane_sum(&power[1..=low]));
    // The peak and its harmonics.
    let mut peak = None;
    let (mut peak_share, mut prominence) = (0.0, 0.0);
    if p.min_cycles <= m {
        // The strongest bin, the lowest of equals.
        let mut k = p.min_cycles;
        for j in p.min_cycles + 1..=m {
            if power[j].total_cmp(&power[k]).is_gt() {
                k = j;
            }
        }
        let near_harmonic = |j: usize| {
            let h = ((j as f64 / k as f64).round() as usize).max(1);
            h <= p.harmonics && j.abs_diff(h * k) <= 1
        };
        // Only bins within one of a harmonic h·k (h ≤ harmonics) can be
        // near one: visit those, in ascending order and once each, and keep
        // the near ones (ascending) to leave out of the neighbourhood.
        let mut near = Vec::new();
        let mut band = 0.0;
        let mut next = 1;
        for h in 1..=p.harmonics {
            let centre = h.saturating_mul(k);
            if centre.saturating_sub(1) > m {
                break;
            }
            let (from, to) = ((centre - 1).max(next), (centre + 1).min(m));
            for (j, &pj) in power.iter().enumerate().take(to + 1).skip(from) {
                if near_harmonic(j) {
                    band += pj;
                    near.push(j);
                }
            }
            next = next.max(centre + 2);
        }
        peak_share = share_of(band);
        let (lo, hi) = ((k / 2).max(1), (2 * k).max(k + 8).min(m));
        let mut bg: Vec<f64> = Vec::with_capacity(hi + 1 - lo.min(hi + 1));
        let mut skip = near.iter().copied().peekable();
        for (j, &pj) in power.iter().enumerate().take(hi + 1).skip(lo) {
            while skip.next_if(|&s| s < j).is_some() {}
            if skip.next_if_eq(&j).is_none() {
                bg.push(pj);
            }
        }
        prominence = if bg.is_empty() {
            f64::INFINITY
        } else {
            let mid = bg.len() / 2;
            let med = *bg.select_nth_unstable_by(mid, f64::total_cmp).1;
            if med > 0.0 {
                power[k] / med
            } else if power[k] > 0.0 {
                f64::INFINITY
            } else {
                0.0
            }
        };
        peak = Some(freq(k, share_of(power[k])));
    }
    let evidence = PatternEvidence {
        mean,
        std,
        cv,
        peak,
        peak_share,
        prominence,
        top,
        low_frequency_share,
    };
    let (pattern, reason) = if std <= p.constant_max_std || cv <= p.constant_max_cv {
        (
            Pattern::Constant,
            format!(
                "std {std:.2} ≤ {} points or CV {cv:.3} ≤ {}",
                p.constant_max_std, p.constant_max_cv
            ),
        )
    } else if peak_share >= p.periodic_min_share && prominence >= p.periodic_min_prominence {
        let k = evidence.peak.as_ref().map_or(0, |f| f.cycles);
        (
            Pattern::Periodic,
            format!(
                "peak at {k} cycles with {:.0}% of the energy (with harmonics) and {prominence:.0}× its neighbourhood",
                100.0 * peak_share
            ),
        )
    } else {
        (
            Pattern::Unpredictable,
            format!(
                "not constant (std {std:.2}, CV {cv:.3}) and no isolated peak (share {:.0}% < {:.0}% or prominence {prominence:.1} < {})",
                100.0 * peak_share,
                100.0 * p.periodic_min_share,
                p.periodic_min_prominence
            ),
        )
    };
    Ok(PatternVerdict {
        pattern,
        evidence,
        reason,
    })
}

/// Classifies one series sampled every `step_secs` seconds.
pub fn classify_series(
    x: &[f64],
    step_secs: f64,
    p: &PatternParams,
) -> Result<PatternVerdict, HarvestError> {
    p.validate()?;
    let mut plan = RealSpectrum::new(x.len());
    classify_with(x, step_secs, p, &mut plan, &mut Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numerics::Rng;

    /// The peak, its band's share and its prominence as the module notes
    /// define them, over every bin of `power`: the strongest bin from
    /// `min_cycles` (the lowest of equals), bins whose rounded ratio to it
    /// is a harmonic and that lie within one bin of it, the upper median
    /// of the rest of k*/2 … max(2k*, k* + 8).
    fn by_definition(power: &[f64], min_cycles: usize, harmonics: usize) -> (usize, f64, f64) {
        let m = power.len() - 1;
        let mut k = min_cycles;
        for j in min_cycles..=m {
            if power[j] > power[k] {
                k = j;
            }
        }
        let near = |j: usize| {
            let h = ((j as f64 / k as f64).round() as usize).max(1);
            h <= harmonics && j.abs_diff(h * k) <= 1
        };
        let energy: f64 = power[1..].iter().sum();
        let band: f64 = (1..=m).filter(|&j| near(j)).map(|j| power[j]).sum();
        let (lo, hi) = ((k / 2).max(1), (2 * k).max(k + 8).min(m));
        let mut bg: Vec<f64> = (lo..=hi).filter(|&j| !near(j)).map(|j| power[j]).collect();
        bg.sort_by(f64::total_cmp);
        let prominence = match bg.get(bg.len() / 2) {
            None => f64::INFINITY,
            Some(&med) if med > 0.0 => power[k] / med,
            Some(_) if power[k] > 0.0 => f64::INFINITY,
            Some(_) => 0.0,
        };
        (k, band / energy, prominence)
    }

    #[test]
    fn peak_band_and_prominence_are_the_definitions() {
        let mut rng = Rng::new(11);
        for n in [16usize, 17, 64, 101, 720] {
            let tau = 2.0 * std::f64::consts::PI;
            let cycles = (n / 8).max(1) as f64;
            let mut walk = 50.0;
            let series: Vec<Vec<f64>> = vec![
                (0..n).map(|_| rng.uniform(0.0, 100.0)).collect(),
                (0..n)
                    .map(|_| {
                        walk += rng.gauss(0.0, 3.0);
                        walk
                    })
                    .collect(),
                (0..n)
                    .map(|i| {
                        let a = tau * cycles * i as f64 / n as f64;
                        50.0 + 20.0 * a.cos() + 8.0 * (2.0 * a).sin() + rng.gauss(0.0, 1.0)
                    })
                    .collect(),
                (0..n)
                    .map(|i| 50.0 + 30.0 * (tau * i as f64 / n as f64).cos())
                    .collect(),
            ];
            for x in &series {
                for (min_cycles, harmonics) in [(1, 1), (1, 4), (2, 4), (3, 2), (2, 40)] {
                    let p = PatternParams {
                        min_cycles,
                        harmonics,
                        ..PatternParams::default()
                    };
                    let mut plan = RealSpectrum::new(n);
                    let mut power = Vec::new();
                    let v = classify_with(x, 120.0, &p, &mut plan, &mut power).unwrap();
                    let (k, share, prominence) = by_definition(&power, min_cycles, harmonics);
                    let e = &v.evidence;
                    let what = format!("n {n}, min_cycles {min_cycles}, harmonics {harmonics}");
                    assert_eq!(e.peak.as_ref().map(|f| f.cycles), Some(k), "{what}");
                    assert!((e.peak_share - share).abs() <= 1e-12, "{what}: share");
                    assert_eq!(e.prominence, prominence, "{what}: prominence");
                }
            }
        }
    }
}
