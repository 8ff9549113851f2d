//! Workloads from files: our applications CSV (with its usage CSV), the
//! same as JSON, and the Alibaba cluster-trace-v2018 container tables.
//!
//! - **CSV**: see [`crate::import::read_shaping_apps_csv`] for the two
//!   files. Rows of one application must agree on arrival and runtime;
//!   its usage must cover minutes 0 … n−1 without holes or repeats.
//! - **JSON**: a [`Workload`] as serde writes it:
//!   `{"applications": [{"name", "arrival", "runtime", "components":
//!   [{"kind": "core"|"elastic", "count", "cpu", "mem"}], "usage": {"cpu":
//!   [...], "mem": [...]}}]}`.
//! - **Alibaba v2018** ([`workload_from_alibaba`]): one application per
//!   `app_du`, one core component per container (the trace has no elastic
//!   notion; §III-B's footnote: "all components are treated as core"),
//!   requests from `container_meta` (cpu_request / 100 cores; mem_size is
//!   normalized to a machine, read as that share of `host_mem` GB), the
//!   arrival at the first meta event of its containers, the runtime the
//!   span of its usage samples (at least a minute), and the usage the mean
//!   over its containers of `cpu_util_percent` and `mem_util_percent` / 100
//!   per minute (minutes without samples keep the previous value; values
//!   above 100 % are clipped to the request, the most a reservation gives).
//!
//! Files are checked as a whole; the workload is then checked against the
//! cluster by [`Workload::validate`] when it is simulated.

use super::error::ShapingError;
use super::model::{Application, ComponentGroup, Kind, UsageTrace, Workload};
use crate::import::{
    latest_requests, read_container_meta, read_container_usage, read_shaping_apps_csv,
    read_shaping_usage_csv, ParseError,
};
use crate::model::Resource;
use std::collections::BTreeMap;

/// Located reader errors as the workload's input error.
pub(super) fn located(errors: Vec<ParseError>) -> ShapingError {
    ShapingError::Input(errors.iter().map(|e| e.to_string()).collect())
}

/// A workload from JSON text (`file` names it in errors).
pub fn read_applications_json(file: &str, text: &str) -> Result<Workload, ShapingError> {
    serde_json::from_str(text)
        .map_err(|e| ShapingError::Input(vec![format!("{file}:{}:{}: {e}", e.line(), e.column())]))
}

/// A workload from the applications CSV and its usage CSV.
pub fn read_applications_csv(
    apps_file: &str,
    apps_text: &str,
    usage_file: &str,
    usage_text: &str,
) -> Result<Workload, ShapingError> {
    let rows = read_shaping_apps_csv(apps_file, apps_text).map_err(located)?;
    let usage = read_shaping_usage_csv(usage_file, usage_text).map_err(located)?;
    let mut order: Vec<String> = Vec::new();
    let mut apps: BTreeMap<String, Application> = BTreeMap::new();
    let mut errors = Vec::new();
    for r in rows {
        match apps.get_mut(&r.app) {
            Some(a) => {
                if a.arrival != r.arrival || a.runtime != r.runtime {
                    errors.push(format!(
                        "{apps_file}:{}:1: application `{}` has arrival {} and runtime {} here, {} and {} on an earlier row",
                        r.line, r.app, r.arrival, r.runtime, a.arrival, a.runtime
                    ));
                    continue;
                }
                a.components.push(group(&r));
            }
            None => {
                order.push(r.app.clone());
                apps.insert(
                    r.app.clone(),
                    Application {
                        name: r.app.clone(),
                        arrival: r.arrival,
                        runtime: r.runtime,
                        components: vec![group(&r)],
                        usage: UsageTrace::default(),
                    },
                );
            }
        }
    }
    let mut minutes: BTreeMap<String, BTreeMap<u32, (f64, f64, u64)>> = BTreeMap::new();
    for u in usage {
        if !apps.contains_key(&u.app) {
            errors.push(format!(
                "{usage_file}:{}:1: application `{}` is not in {apps_file}",
                u.line, u.app
            ));
            continue;
        }
        let m = minutes.entry(u.app.clone()).or_default();
        if let Some(&(_, _, first)) = m.get(&u.minute) {
            errors.push(format!(
                "{usage_file}:{}:1: minute {} of `{}` repeats line {first}",
                u.line, u.minute, u.app
            ));
            continue;
        }
        m.insert(u.minute, (u.cpu, u.mem, u.line));
    }
    for name in &order {
        let a = apps.get_mut(name).expect("inserted");
        let Some(m) = minutes.get(name) else {
            errors.push(format!(
                "{usage_file}: application `{name}` has no usage rows"
            ));
            continue;
        };
        let n = m.len();
        if let Some((&last, _)) = m.iter().next_back() {
            if last as usize + 1 != n {
                let hole = (0..).find(|k| !m.contains_key(k)).unwrap_or(0);
                errors.push(format!(
                    "{usage_file}: application `{name}` has no usage at minute {hole} (minutes must run from 0 without holes)"
                ));
                continue;
            }
        }
        a.usage = UsageTrace {
            cpu: m.values().map(|v| v.0 as f32).collect(),
            mem: m.values().map(|v| v.1 as f32).collect(),
        };
    }
    if !errors.is_empty() {
        return Err(ShapingError::Input(errors));
    }
    Ok(Workload {
        applications: order
            .into_iter()
            .map(|n| apps.remove(&n).expect("present"))
            .collect(),
    })
}

/// A trace from per-minute sums `[cpu sum, cpu samples, mem sum, mem
/// samples]` of fractions of the request: each minute the mean of its
/// samples; a minute without samples keeps the previous value, and
/// leading minutes without samples take the first observed value (0 when
/// a resource has none) — a trace sampled coarser than a minute, or with
/// gaps, is held, not read as idle.
pub(super) fn minute_trace(sums: &[[f64; 4]]) -> UsageTrace {
    let held = |sum: usize, n: usize| -> Vec<f32> {
        let mut last = None::<f64>;
        let v: Vec<Option<f64>> = sums
            .iter()
            .map(|s| {
                if s[n] > 0.0 {
                    last = Some(s[sum] / s[n]);
                }
                last
            })
            .collect();
        let first = v.iter().flatten().next().copied().unwrap_or(0.0);
        v.into_iter().map(|x| x.unwrap_or(first) as f32).collect()
    };
    UsageTrace {
        cpu: held(0, 1),
        mem: held(2, 3),
    }
}

fn group(r: &crate::import::ShapingAppRow) -> ComponentGroup {
    ComponentGroup {
        kind: if r.core { Kind::Core } else { Kind::Elastic },
        count: r.count,
        cpu: r.cpu,
        mem: r.mem,
    }
}

/// A workload from Alibaba v2018 `container_meta` and `container_usage`
/// text; `host_mem` (GB) converts the normalized memory.
pub fn workload_from_alibaba(
    meta_file: &str,
    meta_text: &str,
    usage_file: &str,
    usage_text: &str,
    host_mem: f64,
) -> Result<Workload, ShapingError> {
    let meta = read_container_meta(meta_file, meta_text).map_err(located)?;
    let usage = read_container_usage(usage_file, usage_text).map_err(located)?;
    let first_seen: BTreeMap<&str, i64> = meta.iter().fold(BTreeMap::new(), |mut m, r| {
        let e = m.entry(r.container_id.as_str()).or_insert(r.time);
        *e = (*e).min(r.time);
        m
    });
    let requests = latest_requests(&meta);
    // Per container: its samples of CPU and memory.
    let mut series: BTreeMap<&str, [Option<&crate::model::UtilizationSeries>; 2]> = BTreeMap::new();
    for s in &usage.series {
        let e = series.entry(s.server.as_str()).or_default();
        match s.resource {
            Resource::Cpu => e[0] = Some(s),
            Resource::Memory => e[1] = Some(s),
            _ => {}
        }
    }
    // Applications: app_du → containers with requests and usage.
    let mut by_app: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (id, m) in &requests {
        if series.contains_key(id.as_str()) {
            by_app
                .entry(m.app_du.as_str())
                .or_default()
                .push(id.as_str());
        }
    }
    let mut apps = Vec::new();
    let mut errors = Vec::new();
    for (du, containers) in by_app {
        let mut components = Vec::new();
        let mut t0 = i64::MAX;
        let mut t1 = i64::MIN;
        let mut arrival = i64::MAX;
        for c in &containers {
            let m = &requests[*c];
            let (Some(cpu), Some(mem)) = (m.cpu_request, m.mem_size) else {
                errors.push(format!(
                    "{meta_file}: container `{c}` of `{du}` has no CPU or memory request"
                ));
                continue;
            };
            if cpu <= 0.0 || mem <= 0.0 {
                errors.push(format!("{meta_file}: container `{c}` of `{du}` requests {cpu} CPU and {mem} memory; both must be > 0"));
                continue;
            }
            components.push(ComponentGroup {
                kind: Kind::Core,
                count: 1,
                cpu: cpu / 100.0,
                mem: mem / 100.0 * host_mem,
            });
            arrival = arrival.min(first_seen.get(c).copied().unwrap_or(m.time));
            for s in series[*c].iter().flatten() {
                if let (Some(&a), Some(&b)) = (s.timestamps.first(), s.timestamps.last()) {
                    t0 = t0.min(a);
                    t1 = t1.max(b);
                }
            }
        }
        if components.is_empty() || t0 > t1 {
            continue;
        }
        let minutes = (((t1 - t0) as f64 / 60.0).floor() as usize + 1).max(1);
        let mut sums = vec![[0.0f64; 4]; minutes];
        for c in &containers {
            for (r, s) in series[*c].iter().enumerate() {
                let Some(s) = s else { continue };
                for (&t, &v) in s.timestamps.iter().zip(&s.values) {
                    let m = (((t - t0) as f64) / 60.0).floor() as usize;
                    let m = m.min(minutes - 1);
                    sums[m][2 * r] += (v / 100.0).clamp(0.0, 1.0);
                    sums[m][2 * r + 1] += 1.0;
                }
            }
        }
        apps.push(Application {
            name: du.to_string(),
            arrival: arrival.max(0) as f64,
            runtime: ((t1 - t0) as f64).max(60.0),
            components,
            usage: minute_trace(&sums),
        });
    }
    workload_of(apps, errors)
}

/// The applications read from a cluster's tables as a workload: refused
/// with every error when any, and empty when none was read.
pub(super) fn workload_of(
    apps: Vec<Application>,
    errors: Vec<String>,
) -> Result<Workload, ShapingError> {
    if !errors.is_empty() {
        return Err(ShapingError::Input(errors));
    }
    if apps.is_empty() {
        return Err(ShapingError::EmptyWorkload);
    }
    Ok(Workload { applications: apps })
}
