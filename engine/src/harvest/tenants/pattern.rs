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
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        return Err(HarvestError::NotFinite {
            what: "series".into(),
            index: i,
        });
    }
    let n = x.len();
    let mean = x.iter().sum::<f64>() / n as f64;
    let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n as f64;
    let std = var.sqrt();
    let cv = if mean != 0.0 {
        std / mean.abs()
    } else {
        f64::INFINITY
    };
    plan.power(x, mean, power);
    let m = power.len() - 1;
    let energy: f64 = power[1..].iter().sum();
    let span = n as f64 * step_secs;
    let freq = |k: usize, share: f64| Frequency {
        cycles: k,
        period_secs: span / k as f64,
        share,
    };
    let share_of = |v: f64| if energy > 0.0 { v / energy } else { 0.0 };
    // Top bins.
    let mut top: Vec<usize> = Vec::with_capacity(p.top + 1);
    for k in 1..=m {
        if top.len() < p.top || power[k] > power[*top.last().expect("non-empty")] {
            let at = top.partition_point(|&j| power[j] >= power[k]);
            top.insert(at, k);
            top.truncate(p.top);
        }
    }
    let top: Vec<Frequency> = top.iter().map(|&k| freq(k, share_of(power[k]))).collect();
    let low = (m / 10).max(1);
    let low_frequency_share = share_of(power[1..=low].iter().sum());
    // The peak and its harmonics.
    let mut peak = None;
    let (mut peak_share, mut prominence) = (0.0, 0.0);
    if p.min_cycles <= m {
        let k = (p.min_cycles..=m)
            .max_by(|&a, &b| power[a].total_cmp(&power[b]).then(b.cmp(&a)))
            .expect("non-empty range");
        let near_harmonic = |j: usize| {
            let h = ((j as f64 / k as f64).round() as usize).max(1);
            h <= p.harmonics && j.abs_diff(h * k) <= 1
        };
        let mut band = 0.0;
        for (j, &pj) in power.iter().enumerate().skip(1) {
            if near_harmonic(j) {
                band += pj;
            }
        }
        peak_share = share_of(band);
        let (lo, hi) = ((k / 2).max(1), (2 * k).max(k + 8).min(m));
        let mut bg: Vec<f64> = (lo..=hi)
            .filter(|&j| !near_harmonic(j))
            .map(|j| power[j])
            .collect();
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
