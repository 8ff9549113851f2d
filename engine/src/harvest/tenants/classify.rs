//! The clustering service of §4.1: every tenant's pattern from its
//! spectrum, then K-Means within each pattern into utilization classes,
//! each tagged with its pattern, average and peak utilization, tenants and
//! servers.
//!
//! Features per pattern (all in utilization percent, so distances are in
//! one unit): a periodic tenant's **average day** (24 hourly means — when
//! it is busy matters, not only how busy); a constant tenant's **mean and
//! peak**; an unpredictable tenant's **mean, peak and standard
//! deviation**. A class's utilization is the core-weighted mean of its
//! tenants' average servers, slot by slot; its peak is the
//! [`ClassifyParams::peak_percentile`] of that series.
//!
//! The work runs on [`ClassifyParams::threads`] threads in three parallel
//! passes ([`crate::parallel::map_jobs`], so the result is the same on one
//! thread or many): the tenants (spectrum, rule, peak, features; one
//! spectrum plan and its buffers per thread), the K-Means runs of every
//! pattern ([`super::kmeans::search_all`]), and the classes' series.

use super::kmeans::{search_all, KMeansParams, Points, Search};
use super::pattern::{classify_with, Pattern, PatternEvidence, PatternParams, PatternVerdict};
use super::tenant::{Tenant, TenantSet};
use crate::harvest::error::{check, HarvestError};
use crate::numerics::spectrum::RealSpectrum;
use crate::numerics::stats::{lane_sum, percentile_select};
use crate::parallel::map_jobs;
use serde::{Deserialize, Serialize};

/// Settings of [`classify`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClassifyParams {
    /// The pattern rule's thresholds.
    pub pattern: PatternParams,
    /// Classes per pattern, overriding the elbow rule (periodic, constant,
    /// unpredictable; default none).
    pub k: [Option<usize>; 3],
    /// Most classes per pattern the elbow rule may pick (default 8; the
    /// paper's DC-9 has 13 periodic, 5 constant and 5 unpredictable).
    pub k_max: usize,
    /// Share of a pattern's spread the classes must explain (default 0.9).
    pub min_explained: f64,
    /// k-means++ restarts, best inertia kept (default 3).
    pub n_init: usize,
    /// Lloyd iterations at most (default 300, scikit-learn's).
    pub max_iter: usize,
    /// Lloyd's iterations stop when the centres move by at most this share
    /// of the features' mean variance (default 1e-4, scikit-learn's; 0
    /// waits until no label changes).
    pub tol: f64,
    /// Seed of the k-means++ draws, scikit-learn's `random_state` for every
    /// pattern's K-Means (default 7; at most 2³² − 1, as numpy's).
    pub seed: u64,
    /// Percentile taken as a tenant's or class's peak utilization (default
    /// 99: one 2-minute spike a month is not the peak a long job must
    /// survive; 100 gives the maximum).
    pub peak_percentile: f64,
    /// Threads, 0 for every core (one in the browser); the results do not
    /// change with it.
    pub threads: usize,
}

impl Default for ClassifyParams {
    fn default() -> Self {
        ClassifyParams {
            pattern: PatternParams::default(),
            k: [None; 3],
            k_max: 8,
            min_explained: 0.9,
            n_init: 3,
            max_iter: 300,
            tol: 1e-4,
            seed: 7,
            peak_percentile: 99.0,
            threads: 0,
        }
    }
}

impl ClassifyParams {
    /// The K-Means settings these give.
    pub fn kmeans(&self) -> KMeansParams {
        KMeansParams {
            n_init: self.n_init,
            max_iter: self.max_iter,
            tol: self.tol,
            threads: self.threads,
        }
    }

    /// Checks the settings.
    pub fn validate(&self) -> Result<(), HarvestError> {
        self.pattern.validate()?;
        check(self.k_max >= 1, "k_max", "must be at least 1")?;
        check(
            self.k.iter().flatten().all(|&k| k >= 1),
            "k",
            "must be at least 1",
        )?;
        check(
            (0.0..=1.0).contains(&self.min_explained),
            "min_explained",
            "must be in [0, 1]",
        )?;
        self.kmeans().validate()?;
        check(
            u32::try_from(self.seed).is_ok(),
            "seed",
            "must be below 2^32 (numpy's RandomState)",
        )?;
        check(
            (0.0..=100.0).contains(&self.peak_percentile),
            "peak_percentile",
            "must be in [0, 100]",
        )
    }
}

/// A row of the tenants table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TenantRow {
    /// Tenant name.
    pub name: String,
    /// Environment.
    pub environment: String,
    /// Machine function.
    pub machine_function: String,
    /// Servers.
    pub servers: usize,
    /// Cores per server.
    pub cores_per_server: f64,
    /// Pattern.
    pub pattern: Pattern,
    /// Its class's id.
    pub class: String,
    /// Mean utilization, percent.
    pub average: f64,
    /// Peak utilization (the peak percentile), percent.
    pub peak: f64,
    /// The spectrum's evidence.
    pub evidence: PatternEvidence,
    /// The rule that decided.
    pub reason: String,
}

/// A utilization class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UtilClass {
    /// `periodic-1`, `constant-2`, …
    pub id: String,
    /// Its tenants' pattern.
    pub pattern: Pattern,
    /// Its tenants.
    pub tenants: Vec<String>,
    /// Servers of its tenants.
    pub servers: usize,
    /// Cores of its servers.
    pub cores: f64,
    /// Mean utilization, percent.
    pub average: f64,
    /// Peak utilization, percent.
    pub peak: f64,
    /// Mean utilization per hour of day (UTC), percent.
    pub average_day: Vec<f64>,
    /// The K-Means centre (in the pattern's features).
    pub centre: Vec<f64>,
    /// Its utilization per slot (core-weighted mean of its tenants);
    /// not serialized (the capacity matrix and simulation read it).
    #[serde(skip)]
    pub utilization: Vec<f64>,
}

/// How many classes a pattern got, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KChoice {
    /// The pattern.
    pub pattern: Pattern,
    /// Tenants of the pattern.
    pub tenants: usize,
    /// Classes.
    pub k: usize,
    /// Inertia at k = 1, 2, … as tried by the elbow rule (empty when
    /// overridden).
    pub inertias: Vec<f64>,
    /// Whether k was given.
    pub overridden: bool,
}

/// Tenants with their patterns and classes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Classification {
    /// Start of slot 0.
    pub start: i64,
    /// Slot length, seconds.
    pub step_secs: i64,
    /// Slots classified.
    pub slots: usize,
    /// The tenants table.
    pub tenants: Vec<TenantRow>,
    /// The classes, periodic first.
    pub classes: Vec<UtilClass>,
    /// k per pattern.
    pub k: Vec<KChoice>,
}

/// The slots of a grid as runs of one hour of day (UTC): a month of
/// 2-minute slots is 720 runs of 30, so hourly means are sums of runs.
struct HourRuns {
    /// (first slot, end slot, hour) per run, in slot order.
    runs: Vec<(usize, usize, usize)>,
}

impl HourRuns {
    fn of(set: &TenantSet) -> Self {
        let mut runs: Vec<(usize, usize, usize)> = Vec::new();
        for i in 0..set.slots {
            let h = set.hour_of(i);
            match runs.last_mut() {
                Some(r) if r.2 == h && r.1 == i => r.1 = i + 1,
                _ => runs.push((i, i + 1, h)),
            }
        }
        HourRuns { runs }
    }

    /// Mean per hour of day of `u` (one value per slot); an hour without
    /// slots gets the mean of `u`.
    fn average_day(&self, u: &[f64]) -> Vec<f64> {
        let mut sum = [0.0; 24];
        let mut n = [0usize; 24];
        for &(a, b, h) in &self.runs {
            let (a, b) = (a.min(u.len()), b.min(u.len()));
            sum[h] += lane_sum(&u[a..b]);
            n[h] += b - a;
        }
        let mut mean = None;
        (0..24)
            .map(|h| {
                if n[h] > 0 {
                    sum[h] / n[h] as f64
                } else {
                    *mean.get_or_insert_with(|| crate::numerics::stats::mean(u))
                }
            })
            .collect()
    }
}

/// Mean per hour of day of a series on `set`'s grid.
pub fn average_day(set: &TenantSet, u: &[f64]) -> Vec<f64> {
    HourRuns::of(set).average_day(u)
}

fn features(
    hours: &HourRuns,
    t: &Tenant,
    pattern: Pattern,
    e: &PatternEvidence,
    peak: f64,
) -> Vec<f64> {
    match pattern {
        Pattern::Periodic => hours.average_day(&t.utilization),
        Pattern::Constant => vec![e.mean, peak],
        Pattern::Unpredictable => vec![e.mean, peak, e.std],
    }
}

/// One tenant's pattern, peak and clustering features.
struct TenantPass {
    verdict: PatternVerdict,
    peak: f64,
    features: Vec<f64>,
}

/// A thread's buffers for the tenant pass: the spectrum plan of the grid's
/// length, the power spectrum, the percentile's heap.
struct Scratch {
    plan: RealSpectrum,
    power: Vec<f64>,
    select: Vec<f64>,
}

fn tenant_pass(
    set: &TenantSet,
    hours: &HourRuns,
    t: &Tenant,
    p: &ClassifyParams,
    s: &mut Scratch,
) -> Result<TenantPass, HarvestError> {
    if t.utilization.is_empty() {
        return Err(HarvestError::EmptySeries {
            tenant: t.info.name.clone(),
        });
    }
    check(
        t.utilization.len() == set.slots,
        "tenants",
        &format!(
            "tenant `{}` has {} slots, the set {}",
            t.info.name,
            t.utilization.len(),
            set.slots
        ),
    )?;
    let verdict = classify_with(
        &t.utilization,
        set.step_secs as f64,
        &p.pattern,
        &mut s.plan,
        &mut s.power,
    )
    .map_err(|e| match e {
        HarvestError::NotFinite { index, .. } => HarvestError::NotFinite {
            what: format!("tenant `{}`", t.info.name),
            index,
        },
        other => other,
    })?;
    let peak = percentile_select(&t.utilization, p.peak_percentile, &mut s.select);
    let features = features(hours, t, verdict.pattern, &verdict.evidence, peak);
    Ok(TenantPass {
        verdict,
        peak,
        features,
    })
}

/// A class before its id: its pattern, K-Means centre and tenants.
struct Members {
    pattern: Pattern,
    centre: Vec<f64>,
    tenants: Vec<usize>,
}

fn build_class(
    set: &TenantSet,
    hours: &HourRuns,
    m: &Members,
    peak_percentile: f64,
    scratch: &mut Vec<f64>,
) -> UtilClass {
    let mut u = vec![0.0; set.slots];
    let mut cores = 0.0;
    let mut servers = 0;
    for &i in &m.tenants {
        let t = &set.tenants[i];
        let w = t.info.servers as f64 * t.info.cores_per_server;
        cores += w;
        servers += t.info.servers;
        for (a, v) in u.iter_mut().zip(&t.utilization) {
            *a += w * v;
        }
    }
    for a in &mut u {
        *a /= cores;
    }
    UtilClass {
        id: String::new(),
        pattern: m.pattern,
        tenants: m
            .tenants
            .iter()
            .map(|&i| set.tenants[i].info.name.clone())
            .collect(),
        servers,
        cores,
        average: crate::numerics::stats::mean(&u),
        peak: percentile_select(&u, peak_percentile, scratch),
        average_day: hours.average_day(&u),
        centre: m.centre.clone(),
        utilization: u,
    }
}

/// Classifies every tenant of `set` and clusters each pattern.
pub fn classify(set: &TenantSet, p: &ClassifyParams) -> Result<Classification, HarvestError> {
    p.validate()?;
    check(!set.tenants.is_empty(), "tenants", "none to classify")?;
    let hours = HourRuns::of(set);
    let passes = map_jobs(
        &set.tenants,
        p.threads,
        || Scratch {
            plan: RealSpectrum::new(set.slots),
            power: Vec::new(),
            select: Vec::new(),
        },
        |s, t| tenant_pass(set, &hours, t, p, s),
        &mut |_, _| {},
    )
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    // Every pattern's search draws from the seed itself, as each KMeans of
    // the peer does from `random_state` (checked to fit 32 bits).
    let seed = u32::try_from(p.seed).unwrap_or(u32::MAX);
    let mut groups: Vec<(usize, Vec<usize>, Points)> = Vec::new();
    for (pi, pattern) in Pattern::ALL.into_iter().enumerate() {
        let idx: Vec<usize> = (0..passes.len())
            .filter(|&i| passes[i].verdict.pattern == pattern)
            .collect();
        if idx.is_empty() {
            continue;
        }
        let data: Vec<Vec<f64>> = idx.iter().map(|&i| passes[i].features.clone()).collect();
        groups.push((pi, idx, Points::new(&data)?));
    }
    let searches: Vec<Search<'_>> = groups
        .iter()
        .map(|(pi, _, points)| Search {
            points,
            k: p.k[*pi],
            seed,
        })
        .collect();
    let found = search_all(&searches, p.k_max, p.min_explained, &p.kmeans())?;
    let mut kinfo = Vec::new();
    let mut members = Vec::new();
    for ((pi, idx, _), f) in groups.iter().zip(found) {
        let pattern = Pattern::ALL[*pi];
        kinfo.push(KChoice {
            pattern,
            tenants: idx.len(),
            k: f.k,
            inertias: f.inertias,
            overridden: p.k[*pi].is_some(),
        });
        let mut of: Vec<Vec<usize>> = vec![Vec::new(); f.k];
        for (j, &i) in idx.iter().enumerate() {
            of[f.result.labels[j]].push(i);
        }
        for (tenants, centre) in of.into_iter().zip(f.result.centres) {
            if !tenants.is_empty() {
                members.push(Members {
                    pattern,
                    centre,
                    tenants,
                });
            }
        }
    }
    let built = map_jobs(
        &members,
        p.threads,
        Vec::new,
        |scratch, m| build_class(set, &hours, m, p.peak_percentile, scratch),
        &mut |_, _| {},
    );
    // Number each pattern's classes by ascending average so ids are stable.
    let mut class_of = vec![String::new(); set.tenants.len()];
    let mut classes = Vec::new();
    let mut built: Vec<(UtilClass, &Members)> = built.into_iter().zip(&members).collect();
    built.sort_by(|a, b| {
        a.0.pattern
            .cmp(&b.0.pattern)
            .then(a.0.average.total_cmp(&b.0.average))
    });
    let mut n = 0;
    for (mut c, m) in built {
        n = if classes
            .last()
            .is_some_and(|l: &UtilClass| l.pattern == c.pattern)
        {
            n + 1
        } else {
            1
        };
        c.id = format!("{}-{n}", c.pattern.name());
        for &t in &m.tenants {
            class_of[t] = c.id.clone();
        }
        classes.push(c);
    }
    let tenants = set
        .tenants
        .iter()
        .zip(passes)
        .zip(class_of)
        .map(|((t, pass), class)| TenantRow {
            name: t.info.name.clone(),
            environment: t.info.environment.clone(),
            machine_function: t.info.machine_function.clone(),
            servers: t.info.servers,
            cores_per_server: t.info.cores_per_server,
            pattern: pass.verdict.pattern,
            class,
            average: pass.verdict.evidence.mean,
            peak: pass.peak,
            evidence: pass.verdict.evidence,
            reason: pass.verdict.reason,
        })
        .collect();
    Ok(Classification {
        start: set.start,
        step_secs: set.step_secs,
        slots: set.slots,
        tenants,
        classes,
        k: kinfo,
    })
}

/// A tenant's series and spectrum for a chart: the power of each bin as a
/// share of the energy beyond the mean, and the detected peak.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TenantSpectrum {
    /// Tenant name.
    pub name: String,
    /// Start of slot 0.
    pub start: i64,
    /// Slot length, seconds.
    pub step_secs: i64,
    /// Utilization per slot, percent.
    pub utilization: Vec<f64>,
    /// Share of the energy at k = 1, 2, … cycles in the window (index 0 is
    /// k = 1).
    pub power_share: Vec<f64>,
    /// The pattern verdict (its evidence holds the peak).
    pub verdict: super::pattern::PatternVerdict,
}

/// The spectrum view of tenant `name` of `set`.
pub fn tenant_spectrum(
    set: &TenantSet,
    name: &str,
    p: &PatternParams,
) -> Result<TenantSpectrum, HarvestError> {
    p.validate()?;
    let t = set.find(name).ok_or_else(|| HarvestError::UnknownTenant {
        what: "spectrum".into(),
        tenant: name.into(),
    })?;
    let mut plan = RealSpectrum::new(t.utilization.len());
    let mut power = Vec::new();
    let verdict = classify_with(
        &t.utilization,
        set.step_secs as f64,
        p,
        &mut plan,
        &mut power,
    )?;
    let e: f64 = power[1..].iter().sum();
    Ok(TenantSpectrum {
        name: name.into(),
        start: set.start,
        step_secs: set.step_secs,
        utilization: t.utilization.clone(),
        power_share: power[1..]
            .iter()
            .map(|v| if e > 0.0 { v / e } else { 0.0 })
            .collect(),
        verdict,
    })
}
