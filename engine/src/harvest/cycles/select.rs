//! Class selection, Algorithm 1 of §4.1, as stated:
//!
//! 1. the job's type from its last run's length against two thresholds
//!    (§6.1's 173 s and 433 s; a job that never ran is medium);
//! 2. its maximum concurrent containers from its DAG ([`super::dag`]);
//! 3. each class's headroom for that type — short: 1 − current average
//!    utilization; medium: 1 − max(average, current); long: 1 −
//!    max(peak, current) — in containers over the class's servers, each
//!    server's primary usage rounded up to whole cores (§5.1's NM-H) and
//!    the primary's reserve kept; its weighted room = headroom × the
//!    ranking weight W[type, pattern];
//! 4. if some classes fit the job alone (headroom ≥ concurrency), one of
//!    them with probability ∝ weighted room; else, if all classes together
//!    fit it, several drawn one by one without replacement ∝ weighted room
//!    until their headroom covers the job; else none.
//!
//! The ranking orders are the paper's: long jobs constant > periodic >
//! unpredictable; medium periodic > constant > unpredictable; short
//! unpredictable > periodic > constant — weights 3, 2, 1 by default.

use crate::harvest::error::{check, HarvestError};
use crate::harvest::tenants::classify::UtilClass;
use crate::harvest::tenants::pattern::Pattern;
use crate::numerics::Rng;
use serde::{Deserialize, Serialize};

/// A job's length type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobType {
    /// Shorter than the short threshold.
    Short,
    /// Between the thresholds, or never run.
    Medium,
    /// Longer than the long threshold.
    Long,
}

/// Ranking weights per pattern (periodic, constant, unpredictable).
pub type PatternWeights = [f64; 3];

/// Settings of Algorithm 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SelectParams {
    /// Jobs whose last run was shorter are short (default 173 s, §6.1).
    pub short_max_secs: f64,
    /// Jobs whose last run was longer are long (default 433 s, §6.1).
    pub long_min_secs: f64,
    /// Weights for short jobs (default unpredictable 3 > periodic 2 >
    /// constant 1).
    pub short_weights: PatternWeights,
    /// Weights for medium jobs (default periodic 3 > constant 2 >
    /// unpredictable 1).
    pub medium_weights: PatternWeights,
    /// Weights for long jobs (default constant 3 > periodic 2 >
    /// unpredictable 1).
    pub long_weights: PatternWeights,
    /// Cores kept free on every server for the primary tenant (default 4
    /// of 12, §6).
    pub reserved_cores: f64,
    /// Cores of one container (default 1).
    pub container_cores: f64,
}

impl Default for SelectParams {
    fn default() -> Self {
        SelectParams {
            short_max_secs: 173.0,
            long_min_secs: 433.0,
            short_weights: [2.0, 1.0, 3.0],
            medium_weights: [3.0, 2.0, 1.0],
            long_weights: [2.0, 3.0, 1.0],
            reserved_cores: 4.0,
            container_cores: 1.0,
        }
    }
}

impl SelectParams {
    /// Checks the settings.
    pub fn validate(&self) -> Result<(), HarvestError> {
        check(
            self.short_max_secs.is_finite() && self.short_max_secs >= 0.0,
            "short_max_secs",
            "must be a non-negative number",
        )?;
        check(
            self.long_min_secs.is_finite() && self.long_min_secs >= self.short_max_secs,
            "long_min_secs",
            "must be a number at least short_max_secs",
        )?;
        for w in [self.short_weights, self.medium_weights, self.long_weights] {
            check(
                w.iter().all(|v| v.is_finite() && *v >= 0.0),
                "weights",
                "must be non-negative numbers",
            )?;
        }
        check(
            self.reserved_cores.is_finite() && self.reserved_cores >= 0.0,
            "reserved_cores",
            "must be a non-negative number",
        )?;
        check(
            self.container_cores.is_finite() && self.container_cores > 0.0,
            "container_cores",
            "must be positive",
        )
    }

    /// The type of a job whose last run took `last` seconds (line 3).
    pub fn job_type(&self, last: Option<f64>) -> JobType {
        match last {
            None => JobType::Medium,
            Some(s) if s < self.short_max_secs => JobType::Short,
            Some(s) if s > self.long_min_secs => JobType::Long,
            Some(_) => JobType::Medium,
        }
    }

    /// W[type, pattern] (line 6).
    pub fn weight(&self, t: JobType, p: Pattern) -> f64 {
        let w = match t {
            JobType::Short => self.short_weights,
            JobType::Medium => self.medium_weights,
            JobType::Long => self.long_weights,
        };
        w[p as usize]
    }
}

/// A class as the selection sees it now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassState {
    /// Class id.
    pub id: String,
    /// Pattern.
    pub pattern: Pattern,
    /// Servers.
    pub servers: usize,
    /// Cores per server (the class's cores over its servers).
    pub cores_per_server: f64,
    /// Historical mean utilization, percent.
    pub average: f64,
    /// Historical peak utilization, percent.
    pub peak: f64,
    /// Current utilization, percent.
    pub current: f64,
    /// Containers of batch work already running there.
    pub used_containers: f64,
}

impl ClassState {
    /// A class at `current` utilization with nothing running yet.
    pub fn of(c: &UtilClass, current: f64) -> Self {
        ClassState {
            id: c.id.clone(),
            pattern: c.pattern,
            servers: c.servers,
            cores_per_server: if c.servers > 0 {
                c.cores / c.servers as f64
            } else {
                0.0
            },
            average: c.average,
            peak: c.peak,
            current,
            used_containers: 0.0,
        }
    }

    /// The class at the last slot of its history.
    pub fn latest(c: &UtilClass) -> Self {
        Self::of(c, c.utilization.last().copied().unwrap_or(c.average))
    }

    /// Headroom as a fraction of a server for job type `t` (§4.1).
    pub fn headroom_fraction(&self, t: JobType) -> f64 {
        let u = match t {
            JobType::Short => self.current,
            JobType::Medium => self.average.max(self.current),
            JobType::Long => self.peak.max(self.current),
        };
        (1.0 - u / 100.0).clamp(0.0, 1.0)
    }

    /// Headroom in containers: per server the cores left after the
    /// primary's usage (rounded up to whole cores) and the reserve, over
    /// the class's servers, less the batch containers already there.
    pub fn headroom_containers(&self, t: JobType, p: &SelectParams) -> f64 {
        let used = ((1.0 - self.headroom_fraction(t)) * self.cores_per_server - 1e-9).ceil();
        let free = (self.cores_per_server - used.max(0.0) - p.reserved_cores).max(0.0);
        ((self.servers as f64 * free / p.container_cores).floor() - self.used_containers).max(0.0)
    }

    fn check(&self) -> Result<(), HarvestError> {
        for (v, what) in [
            (self.average, "average"),
            (self.peak, "peak"),
            (self.current, "current"),
            (self.used_containers, "used_containers"),
            (self.cores_per_server, "cores_per_server"),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(HarvestError::Invalid {
                    name: "class",
                    why: format!("`{}`: {what} {v} is not a non-negative number", self.id),
                });
            }
        }
        Ok(())
    }
}

/// What a job asks for.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRequest {
    /// Its last run's length, seconds (`None`: never ran).
    pub last_run_secs: Option<f64>,
    /// Maximum concurrent containers (from its DAG).
    pub containers: u64,
}

/// Which branch of Algorithm 1 was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// One class fits the job (lines 9–11).
    One,
    /// Several classes together (lines 12–14).
    Several,
    /// No combination fits (lines 15–17).
    None,
}

/// One class in a selection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassOption {
    /// Class id.
    pub id: String,
    /// Pattern.
    pub pattern: Pattern,
    /// Headroom as a fraction of a server.
    pub headroom_fraction: f64,
    /// Headroom in containers.
    pub headroom_containers: f64,
    /// W[type, pattern].
    pub weight: f64,
    /// Headroom × weight.
    pub weighted_room: f64,
    /// Whether it fits the job alone.
    pub fits: bool,
    /// Probability of being picked (outcome one) or of being the first
    /// drawn (outcome several); 0 with outcome none.
    pub probability: f64,
}

/// Algorithm 1's answer for one job.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Selection {
    /// The job's type.
    pub job_type: JobType,
    /// Concurrent containers it needs.
    pub containers: u64,
    /// The branch taken.
    pub outcome: Outcome,
    /// Every class with its headroom and probability.
    pub options: Vec<ClassOption>,
    /// The classes picked (ids), in draw order.
    pub picked: Vec<String>,
}

/// Scratch space of [`select_indices`] (reused across jobs).
#[derive(Clone, Debug, Default)]
pub struct SelectScratch {
    room: Vec<f64>,
    weighted: Vec<f64>,
    fits: Vec<bool>,
}

/// Draws index i with probability ∝ w[i] (uniformly among `eligible`
/// when all weights are 0); `None` when nothing is eligible.
fn draw(w: &[f64], eligible: &[bool], rng: &mut Rng) -> Option<usize> {
    let total: f64 = w.iter().zip(eligible).filter(|e| *e.1).map(|e| *e.0).sum();
    let count = eligible.iter().filter(|e| **e).count();
    if count == 0 {
        return None;
    }
    if total > 0.0 {
        let mut r = rng.unit() * total;
        let mut last = None;
        for (i, (&wi, &e)) in w.iter().zip(eligible).enumerate() {
            if e && wi > 0.0 {
                if r < wi {
                    return Some(i);
                }
                r -= wi;
                last = Some(i);
            }
        }
        last
    } else {
        let mut k = (rng.unit() * count as f64) as usize % count;
        eligible.iter().position(|&e| {
            if e {
                if k == 0 {
                    return true;
                }
                k -= 1;
            }
            false
        })
    }
}

/// Algorithm 1 without names: the branch, and the picked classes'
/// indices in `picks`. `classes` and `p` must be valid (see [`select`]).
pub fn select_indices(
    job: &JobRequest,
    classes: &[ClassState],
    p: &SelectParams,
    rng: &mut Rng,
    s: &mut SelectScratch,
    picks: &mut Vec<usize>,
) -> (JobType, Outcome) {
    let t = p.job_type(job.last_run_secs);
    let req = job.containers as f64;
    s.room.clear();
    s.weighted.clear();
    s.fits.clear();
    for c in classes {
        let r = c.headroom_containers(t, p);
        s.room.push(r);
        s.weighted.push(r * p.weight(t, c.pattern));
        s.fits.push(r >= req);
    }
    picks.clear();
    if s.fits.iter().any(|&f| f) {
        if let Some(i) = draw(&s.weighted, &s.fits, rng) {
            picks.push(i);
        }
        return (t, Outcome::One);
    }
    let total: f64 = s.room.iter().sum();
    if total < req || req == 0.0 {
        return (t, Outcome::None);
    }
    // Several: draw without replacement until the headroom covers the job.
    for (f, &r) in s.fits.iter_mut().zip(&s.room) {
        *f = r > 0.0;
    }
    let mut covered = 0.0;
    while covered < req {
        let Some(i) = draw(&s.weighted, &s.fits, rng) else {
            break;
        };
        s.fits[i] = false;
        covered += s.room[i];
        picks.push(i);
    }
    (t, Outcome::Several)
}

/// Algorithm 1 for one job, with every class's headroom and probability.
pub fn select(
    job: &JobRequest,
    classes: &[ClassState],
    p: &SelectParams,
    rng: &mut Rng,
) -> Result<Selection, HarvestError> {
    p.validate()?;
    if let Some(s) = job.last_run_secs {
        check(
            s.is_finite() && s >= 0.0,
            "last_run_secs",
            "must be a non-negative number",
        )?;
    }
    for c in classes {
        c.check()?;
    }
    let mut scratch = SelectScratch::default();
    let mut picks = Vec::new();
    let (t, outcome) = select_indices(job, classes, p, rng, &mut scratch, &mut picks);
    // Probabilities of the (first) draw.
    let eligible: Vec<bool> = match outcome {
        Outcome::One => scratch
            .room
            .iter()
            .map(|&r| r >= job.containers as f64)
            .collect(),
        Outcome::Several => scratch.room.iter().map(|&r| r > 0.0).collect(),
        Outcome::None => vec![false; classes.len()],
    };
    let total: f64 = scratch
        .weighted
        .iter()
        .zip(&eligible)
        .filter(|e| *e.1)
        .map(|e| *e.0)
        .sum();
    let count = eligible.iter().filter(|e| **e).count();
    let options = classes
        .iter()
        .enumerate()
        .map(|(i, c)| ClassOption {
            id: c.id.clone(),
            pattern: c.pattern,
            headroom_fraction: c.headroom_fraction(t),
            headroom_containers: scratch.room[i],
            weight: p.weight(t, c.pattern),
            weighted_room: scratch.weighted[i],
            fits: scratch.room[i] >= job.containers as f64,
            probability: if !eligible[i] {
                0.0
            } else if total > 0.0 {
                scratch.weighted[i] / total
            } else {
                1.0 / count as f64
            },
        })
        .collect();
    Ok(Selection {
        job_type: t,
        containers: job.containers,
        outcome,
        options,
        picked: picks.iter().map(|&i| classes[i].id.clone()).collect(),
    })
}
