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

use super::kmeans::{choose_k, kmeans, KMeansResult};
use super::pattern::{classify_with, Pattern, PatternEvidence, PatternParams};
use super::tenant::{Tenant, TenantSet};
use crate::harvest::error::{check, HarvestError};
use crate::numerics::spectrum::RealSpectrum;
use crate::numerics::Rng;
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
    /// Seed of the k-means++ draws (default 7).
    pub seed: u64,
    /// Percentile taken as a tenant's or class's peak utilization (default
    /// 99: one 2-minute spike a month is not the peak a long job must
    /// survive; 100 gives the maximum).
    pub peak_percentile: f64,
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
            seed: 7,
            peak_percentile: 99.0,
        }
    }
}

impl ClassifyParams {
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
        check(self.n_init >= 1, "n_init", "must be at least 1")?;
        check(self.max_iter >= 1, "max_iter", "must be at least 1")?;
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

/// Mean per hour of day of a series on `set`'s grid.
pub fn average_day(set: &TenantSet, u: &[f64]) -> Vec<f64> {
    let mut sum = [0.0; 24];
    let mut n = [0usize; 24];
    for (i, v) in u.iter().enumerate() {
        let h = set.hour_of(i);
        sum[h] += v;
        n[h] += 1;
    }
    let mean = crate::numerics::stats::mean(u);
    (0..24)
        .map(|h| if n[h] > 0 { sum[h] / n[h] as f64 } else { mean })
        .collect()
}

fn features(
    set: &TenantSet,
    t: &Tenant,
    pattern: Pattern,
    e: &PatternEvidence,
    peak: f64,
) -> Vec<f64> {
    match pattern {
        Pattern::Periodic => average_day(set, &t.utilization),
        Pattern::Constant => vec![e.mean, peak],
        Pattern::Unpredictable => vec![e.mean, peak, e.std],
    }
}

/// Classifies every tenant of `set` and clusters each pattern.
pub fn classify(set: &TenantSet, p: &ClassifyParams) -> Result<Classification, HarvestError> {
    p.validate()?;
    check(!set.tenants.is_empty(), "tenants", "none to classify")?;
    let mut plan = RealSpectrum::new(set.slots);
    let mut power = Vec::new();
    let mut scratch = Vec::new();
    let mut verdicts = Vec::with_capacity(set.tenants.len());
    let mut peaks = Vec::with_capacity(set.tenants.len());
    for t in &set.tenants {
        if t.utilization.is_empty() {
            return Err(HarvestError::EmptySeries {
                tenant: t.info.name.clone(),
            });
        }
        let v = classify_with(
            &t.utilization,
            set.step_secs as f64,
            &p.pattern,
            &mut plan,
            &mut power,
        )
        .map_err(|e| match e {
            HarvestError::NotFinite { index, .. } => HarvestError::NotFinite {
                what: format!("tenant `{}`", t.info.name),
                index,
            },
            other => other,
        })?;
        verdicts.push(v);
        peaks.push(crate::numerics::stats::percentile_select(
            &t.utilization,
            p.peak_percentile,
            &mut scratch,
        ));
    }
    let mut rng = Rng::new(p.seed);
    let mut class_of = vec![String::new(); set.tenants.len()];
    let mut classes = Vec::new();
    let mut kinfo = Vec::new();
    for (pi, pattern) in Pattern::ALL.into_iter().enumerate() {
        let idx: Vec<usize> = (0..set.tenants.len())
            .filter(|&i| verdicts[i].pattern == pattern)
            .collect();
        if idx.is_empty() {
            continue;
        }
        let data: Vec<Vec<f64>> = idx
            .iter()
            .map(|&i| {
                features(
                    set,
                    &set.tenants[i],
                    pattern,
                    &verdicts[i].evidence,
                    peaks[i],
                )
            })
            .collect();
        let (k, result, inertias, overridden): (usize, KMeansResult, Vec<f64>, bool) = match p.k[pi]
        {
            Some(k) => {
                let k = k.min(data.len());
                (
                    k,
                    kmeans(&data, k, p.n_init, p.max_iter, &mut rng)?,
                    Vec::new(),
                    true,
                )
            }
            None => {
                let (k, r, inertias) = choose_k(
                    &data,
                    p.k_max,
                    p.min_explained,
                    p.n_init,
                    p.max_iter,
                    &mut rng,
                )?;
                (k, r, inertias, false)
            }
        };
        kinfo.push(KChoice {
            pattern,
            tenants: idx.len(),
            k,
            inertias,
            overridden,
        });
        // Number classes by descending average so ids are stable.
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); k];
        for (j, &i) in idx.iter().enumerate() {
            members[result.labels[j]].push(i);
        }
        let mut built: Vec<UtilClass> = Vec::new();
        for (c, m) in members.into_iter().enumerate() {
            if m.is_empty() {
                continue;
            }
            let mut u = vec![0.0; set.slots];
            let mut cores = 0.0;
            let mut servers = 0;
            for &i in &m {
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
            built.push(UtilClass {
                id: String::new(),
                pattern,
                tenants: m
                    .iter()
                    .map(|&i| set.tenants[i].info.name.clone())
                    .collect(),
                servers,
                cores,
                average: crate::numerics::stats::mean(&u),
                peak: crate::numerics::stats::percentile_select(
                    &u,
                    p.peak_percentile,
                    &mut scratch,
                ),
                average_day: average_day(set, &u),
                centre: result.centres[c].clone(),
                utilization: u,
            });
        }
        built.sort_by(|a, b| a.average.total_cmp(&b.average));
        for (n, mut c) in built.into_iter().enumerate() {
            c.id = format!("{}-{}", pattern.name(), n + 1);
            for name in &c.tenants {
                let i = set
                    .tenants
                    .iter()
                    .position(|t| &t.info.name == name)
                    .expect("member");
                class_of[i] = c.id.clone();
            }
            classes.push(c);
        }
    }
    let tenants = set
        .tenants
        .iter()
        .zip(verdicts)
        .zip(peaks)
        .zip(class_of)
        .map(|(((t, v), peak), class)| TenantRow {
            name: t.info.name.clone(),
            environment: t.info.environment.clone(),
            machine_function: t.info.machine_function.clone(),
            servers: t.info.servers,
            cores_per_server: t.info.cores_per_server,
            pattern: v.pattern,
            class,
            average: v.evidence.mean,
            peak,
            evidence: v.evidence,
            reason: v.reason,
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
