//! Utilization series → tenants on one grid: each tenant's "average
//! server" (§3), the mean of its servers' utilizations in each slot.
//!
//! A CPU series belongs to a tenant, in this order, when: the mapping file
//! names its server; the tenants CSV lists it among a tenant's
//! `server_names`; its name is `tenant/server`; its name is a tenant's own
//! name (a tenant-level series). Without a tenants CSV every other series
//! is a one-server tenant of its own; with one, a series of an unknown
//! tenant is refused. Memory (and other) series are ignored: the paper
//! classifies CPU.

use super::tenant::{Tenant, TenantInfo, TenantSet};
use super::tenants_csv::DEFAULT_CORES;
use crate::harvest::error::{check, HarvestError};
use crate::model::{Resource, UtilizationSeries};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The CPU series among `series` that belong to a tenant of `tenants`: by
/// server name (`server_names`) or by the `tenant/server` naming — what the
/// Harvest panel (and the plan report) classifies when a tenants file is
/// read.
pub fn tenant_series<'a>(
    series: impl IntoIterator<Item = &'a UtilizationSeries>,
    tenants: &[TenantInfo],
) -> Vec<UtilizationSeries> {
    let names: HashSet<&str> = tenants.iter().map(|t| t.name.as_str()).collect();
    let servers: HashSet<&str> = tenants
        .iter()
        .flat_map(|t| t.server_names.iter().map(String::as_str))
        .collect();
    series
        .into_iter()
        .filter(|s| s.resource == Resource::Cpu)
        .filter(|s| {
            let tenant = s
                .server
                .split_once('/')
                .map_or(s.server.as_str(), |(t, _)| t);
            servers.contains(s.server.as_str()) || names.contains(tenant)
        })
        .cloned()
        .collect()
}

/// Settings of [`group_series`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GroupParams {
    /// Slot length in seconds; `None` (default) takes the median of the
    /// series' own median steps (the paper's 120 s for AutoPilot data).
    pub step_secs: Option<i64>,
    /// Most slots a set may have (default 2,000,000: a year of 15 s slots),
    /// so a stray timestamp cannot ask for gigabytes.
    pub max_slots: usize,
}

impl Default for GroupParams {
    fn default() -> Self {
        GroupParams {
            step_secs: None,
            max_slots: 2_000_000,
        }
    }
}

/// Which tenant a series belongs to (see the module notes).
fn tenant_of<'a>(
    name: &'a str,
    mapping: Option<&'a BTreeMap<String, String>>,
    by_server: &HashMap<&'a str, &'a str>,
    known: Option<&HashMap<&'a str, usize>>,
) -> Result<&'a str, HarvestError> {
    if let Some(t) = mapping.and_then(|m| m.get(name)) {
        return Ok(t.as_str());
    }
    if let Some(t) = by_server.get(name) {
        return Ok(t);
    }
    let tenant = name.split_once('/').map_or(name, |(t, _)| t);
    if let Some(k) = known {
        if !k.contains_key(tenant) {
            return Err(HarvestError::UnknownTenant {
                what: format!("series `{name}`"),
                tenant: tenant.to_string(),
            });
        }
    }
    Ok(tenant)
}

/// Groups CPU series into tenants on one grid. `tenants` (from the tenants
/// CSV) fixes the tenants and their server counts; `mapping` assigns
/// servers to tenants. Tenants of the CSV with no series are left out of
/// the set (their names are returned as the second value).
pub fn group_series(
    series: &[UtilizationSeries],
    tenants: Option<&[TenantInfo]>,
    mapping: Option<&BTreeMap<String, String>>,
    params: &GroupParams,
) -> Result<(TenantSet, Vec<String>), HarvestError> {
    if let Some(s) = params.step_secs {
        check(s > 0, "step_secs", "must be positive")?;
    }
    check(params.max_slots > 0, "max_slots", "must be positive")?;
    let cpu: Vec<&UtilizationSeries> = series
        .iter()
        .filter(|s| s.resource == Resource::Cpu)
        .collect();
    if cpu.is_empty() {
        return Err(HarvestError::Invalid {
            name: "series",
            why: "no CPU utilization series".into(),
        });
    }
    let known: Option<HashMap<&str, usize>> = tenants.map(|t| {
        t.iter()
            .enumerate()
            .map(|(i, t)| (t.name.as_str(), i))
            .collect()
    });
    let mut by_server: HashMap<&str, &str> = HashMap::new();
    for t in tenants.unwrap_or(&[]) {
        for s in &t.server_names {
            by_server.insert(s.as_str(), t.name.as_str());
        }
    }
    if let (Some(m), Some(k)) = (mapping, &known) {
        for (server, t) in m {
            if !k.contains_key(t.as_str()) {
                return Err(HarvestError::UnknownTenant {
                    what: format!("mapping of server `{server}`"),
                    tenant: t.clone(),
                });
            }
        }
    }
    // Check values and find the grid.
    let mut steps = Vec::new();
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for s in &cpu {
        if s.is_empty() {
            return Err(HarvestError::EmptySeries {
                tenant: s.server.clone(),
            });
        }
        if let Some(i) = s.values.iter().position(|v| !v.is_finite()) {
            return Err(HarvestError::NotFinite {
                what: format!("series `{}`", s.server),
                index: i,
            });
        }
        if let Some(st) = s.median_step_secs().filter(|&d| d > 0) {
            steps.push(st);
        }
        lo = lo.min(*s.timestamps.iter().min().expect("non-empty"));
        hi = hi.max(*s.timestamps.iter().max().expect("non-empty"));
    }
    let step = match params.step_secs {
        Some(s) => s,
        None => {
            steps.sort_unstable();
            steps.get(steps.len() / 2).copied().unwrap_or(120)
        }
    };
    let start = lo.div_euclid(step) * step;
    let slots = ((hi - start) / step + 1) as usize;
    check(
        slots <= params.max_slots,
        "step_secs",
        &format!(
            "gives {slots} slots for the series' span, above max_slots {}",
            params.max_slots
        ),
    )?;
    // Per tenant: sums and counts of per-server slot means.
    struct Acc {
        sum: Vec<f64>,
        n: Vec<u32>,
        series: usize,
        servers: Vec<String>,
    }
    let mut acc: BTreeMap<&str, Acc> = BTreeMap::new();
    let mut s_sum = vec![0.0; slots];
    let mut s_n = vec![0u32; slots];
    for s in &cpu {
        let t = tenant_of(&s.server, mapping, &by_server, known.as_ref())?;
        let a = acc.entry(t).or_insert_with(|| Acc {
            sum: vec![0.0; slots],
            n: vec![0; slots],
            series: 0,
            servers: Vec::new(),
        });
        a.series += 1;
        a.servers.push(s.server.clone());
        let mut touched = Vec::new();
        for (&ts, &v) in s.timestamps.iter().zip(&s.values) {
            let i = ((ts - start) / step) as usize;
            if s_n[i] == 0 {
                touched.push(i);
            }
            s_sum[i] += v;
            s_n[i] += 1;
        }
        for i in touched {
            a.sum[i] += s_sum[i] / f64::from(s_n[i]);
            a.n[i] += 1;
            s_sum[i] = 0.0;
            s_n[i] = 0;
        }
    }
    let mut out = Vec::new();
    for (name, a) in acc {
        let mut u = vec![f64::NAN; slots];
        let mut filled = 0;
        for (i, v) in u.iter_mut().enumerate() {
            if a.n[i] > 0 {
                *v = a.sum[i] / f64::from(a.n[i]);
            }
        }
        let first = u.iter().copied().find(|v| !v.is_nan()).unwrap_or(0.0);
        let mut last = first;
        for v in &mut u {
            if v.is_nan() {
                *v = last;
                filled += 1;
            } else {
                last = *v;
            }
        }
        let info = match (&known, tenants) {
            (Some(k), Some(t)) => t[k[name]].clone(),
            _ => TenantInfo {
                name: name.to_string(),
                environment: name.to_string(),
                machine_function: name.to_string(),
                servers: a.series,
                server_names: a.servers,
                cores_per_server: DEFAULT_CORES,
                storage_gb_per_server: crate::harvest::DEFAULT_STORAGE_GB,
            },
        };
        out.push(Tenant {
            info,
            utilization: u,
            filled_slots: filled,
            series_used: a.series,
        });
    }
    let missing = tenants
        .unwrap_or(&[])
        .iter()
        .filter(|t| !out.iter().any(|o| o.info.name == t.name))
        .map(|t| t.name.clone())
        .collect();
    Ok((
        TenantSet {
            start,
            step_secs: step,
            slots,
            tenants: out,
        },
        missing,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str, servers: &[&str]) -> TenantInfo {
        TenantInfo {
            name: name.into(),
            environment: "env".into(),
            machine_function: "fn".into(),
            servers: servers.len().max(1),
            server_names: servers.iter().map(|s| s.to_string()).collect(),
            cores_per_server: 12.0,
            storage_gb_per_server: 256.0,
        }
    }

    #[test]
    fn tenant_series_keeps_the_tenants_cpu_series_only() {
        let s = |name: &str, r: Resource| UtilizationSeries::new(name, r);
        let all = [
            s("web/s1", Resource::Cpu),
            s("web/s1", Resource::Memory),
            s("db-7", Resource::Cpu),
            s("other/s2", Resource::Cpu),
            s("webby/s3", Resource::Cpu),
            s("db-8", Resource::Cpu),
        ];
        let tenants = [info("web", &[]), info("db", &["db-7"])];
        let kept: Vec<String> = tenant_series(&all, &tenants)
            .into_iter()
            .map(|s| s.server)
            .collect();
        assert_eq!(kept, ["web/s1", "db-7"]);
        assert!(tenant_series(&all, &[]).is_empty());
    }
}
