//! The Alibaba cluster-trace-v2018 machine tables, the public trace of a
//! co-located cluster: `machine_meta.csv` (machine_id, time_stamp,
//! failure_domain_1, failure_domain_2, cpu_num, mem_size, status) and
//! `machine_usage.csv` (machine_id, time_stamp, cpu_util_percent,
//! mem_util_percent, mem_gps, mkpi, net_in, net_out, disk_io_percent),
//! headerless as the trace's `schema.md` gives them. Read like
//! [`crate::import::read_container_usage`]: a CPU value that is empty,
//! NaN, −1, 101 or outside [0, 100] is a missing sample (dropped and
//! counted); text that is not a number, a wrong field count, an empty id
//! or a bad timestamp is a located error and refuses the file.
//!
//! Machines become tenants by `failure_domain_1` (one tenant per failure
//! domain: machines that fail — and are managed — together), or by a
//! `server,tenant` mapping file.

use super::tenant::TenantInfo;
use crate::harvest::error::HarvestError;
use crate::import::fields::headerless::{self, fields, id, optional, time};
use crate::import::fields::{column_of, FieldError};
use crate::model::{Resource, UtilizationSeries};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Columns of `machine_meta.csv`, in order.
pub const MACHINE_META_COLUMNS: [&str; 7] = [
    "machine_id",
    "time_stamp",
    "failure_domain_1",
    "failure_domain_2",
    "cpu_num",
    "mem_size",
    "status",
];

/// Columns of `machine_usage.csv`, in order.
pub const MACHINE_USAGE_COLUMNS: [&str; 9] = [
    "machine_id",
    "time_stamp",
    "cpu_util_percent",
    "mem_util_percent",
    "mem_gps",
    "mkpi",
    "net_in",
    "net_out",
    "disk_io_percent",
];

/// One row of `machine_meta.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineMeta {
    /// Machine id.
    pub machine_id: String,
    /// Seconds from the trace's start.
    pub time: i64,
    /// First failure domain (the grouping into tenants).
    pub failure_domain_1: String,
    /// Second failure domain.
    pub failure_domain_2: String,
    /// Cores (`None` when empty).
    pub cpu_num: Option<f64>,
    /// Status (e.g. `USING`).
    pub status: String,
}

/// `machine_usage.csv` as CPU series, one per machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineUsage {
    /// CPU series (server = machine id), sorted by time, bad values left out.
    pub series: Vec<UtilizationSeries>,
    /// Rows read.
    pub rows: usize,
    /// CPU values dropped as bad.
    pub bad_values: usize,
}

/// Calls `row` with every line, refusing the file with every bad line.
fn each_line<'a>(
    file: &str,
    text: &'a str,
    row: impl FnMut(&'a str) -> Result<(), FieldError>,
) -> Result<(), HarvestError> {
    headerless::each_line(file, text, row).map_err(HarvestError::Parse)
}

/// Reads `machine_meta.csv`.
pub fn read_machine_meta(file: &str, text: &str) -> Result<Vec<MachineMeta>, HarvestError> {
    let mut out = Vec::new();
    let mut buf = Vec::with_capacity(7);
    each_line(file, text, |line| {
        fields(line, 7, &mut buf)?;
        let cpu_num = match optional(line, &buf[4], "cpu_num")? {
            Some(v) if v.is_nan() => None,
            Some(v) if v <= 0.0 || v.is_infinite() => {
                return Err(FieldError::at(
                    column_of(line, buf[4].offset),
                    format!("cpu_num {v} is not a positive number of cores"),
                ))
            }
            v => v,
        };
        out.push(MachineMeta {
            machine_id: id(line, &buf[0], "machine_id")?,
            time: time(line, &buf[1])? as i64,
            failure_domain_1: buf[2].text.trim().to_string(),
            failure_domain_2: buf[3].text.trim().to_string(),
            cpu_num,
            status: buf[6].text.trim().to_string(),
        });
        Ok(())
    })?;
    Ok(out)
}

/// Reads `machine_usage.csv` into one CPU series per machine.
pub fn read_machine_usage(file: &str, text: &str) -> Result<MachineUsage, HarvestError> {
    let mut by: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    let (mut rows, mut bad) = (0, 0);
    let mut buf = Vec::with_capacity(9);
    each_line(file, text, |line| {
        fields(line, 9, &mut buf)?;
        let m = id(line, &buf[0], "machine_id")?;
        let t = time(line, &buf[1])?;
        let cpu =
            optional(line, &buf[2], "cpu_util_percent")?.filter(|v| (0.0..=100.0).contains(v));
        rows += 1;
        match cpu {
            Some(v) => by.entry(m).or_default().push((t, v)),
            None => {
                bad += 1;
                by.entry(m).or_default();
            }
        }
        Ok(())
    })?;
    let series = by
        .into_iter()
        .map(|(m, mut samples)| {
            samples.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut s = UtilizationSeries::new(m, Resource::Cpu);
            s.timestamps = samples.iter().map(|p| p.0.round() as i64).collect();
            s.values = samples.iter().map(|p| p.1).collect();
            s
        })
        .collect();
    Ok(MachineUsage {
        series,
        rows,
        bad_values: bad,
    })
}

/// Tenants from the machine table: one per `failure_domain_1` (named
/// `fd1-<value>`, environment the same), or — with a `server,tenant`
/// `mapping` — one per mapped tenant. Each machine's latest row gives its
/// cores (`default_cores` when the trace leaves them empty); machine
/// functions are the machines' `failure_domain_2` when they agree, else
/// `mixed`.
pub fn tenants_from_machines(
    meta: &[MachineMeta],
    mapping: Option<&BTreeMap<String, String>>,
    default_cores: f64,
) -> Vec<TenantInfo> {
    let mut latest: BTreeMap<&str, &MachineMeta> = BTreeMap::new();
    for m in meta {
        match latest.get(m.machine_id.as_str()) {
            Some(p) if p.time > m.time => {}
            _ => {
                latest.insert(&m.machine_id, m);
            }
        }
    }
    let mut groups: BTreeMap<String, Vec<&MachineMeta>> = BTreeMap::new();
    for (id, m) in &latest {
        let t = match mapping {
            Some(map) => match map.get(*id) {
                Some(t) => t.clone(),
                None => continue,
            },
            None => format!("fd1-{}", m.failure_domain_1),
        };
        groups.entry(t).or_default().push(m);
    }
    groups
        .into_iter()
        .map(|(name, ms)| {
            let fd2 = &ms[0].failure_domain_2;
            let function = if ms.iter().all(|m| &m.failure_domain_2 == fd2) {
                fd2.clone()
            } else {
                "mixed".into()
            };
            let cores = ms.iter().filter_map(|m| m.cpu_num).fold(0.0, f64::max);
            TenantInfo {
                environment: if mapping.is_some() {
                    name.clone()
                } else {
                    ms[0].failure_domain_1.clone()
                },
                name,
                machine_function: function,
                servers: ms.len(),
                server_names: ms.iter().map(|m| m.machine_id.clone()).collect(),
                cores_per_server: if cores > 0.0 { cores } else { default_cores },
                storage_gb_per_server: crate::harvest::DEFAULT_STORAGE_GB,
            }
        })
        .collect()
}

/// Cores of a machine whose `cpu_num` the trace leaves empty: the trace's
/// machines have 96.
pub const MACHINE_DEFAULT_CORES: f64 = 96.0;

/// The machine tables as the Harvest panel (and the plan report) use them
/// in place of a tenants file: `meta` and `usage` (name, text) read, one
/// tenant per `failure_domain_1`, one CPU series per machine with samples.
///
/// # Errors
/// The tables' located errors; [`HarvestError::File`] when the meta table
/// lists no machine or the usage table has no CPU sample.
pub fn machine_tenants(
    meta: (&str, &str),
    usage: (&str, &str),
) -> Result<(Vec<TenantInfo>, Vec<UtilizationSeries>), HarvestError> {
    let rows = read_machine_meta(meta.0, meta.1)?;
    let read = read_machine_usage(usage.0, usage.1)?;
    let tenants = tenants_from_machines(&rows, None, MACHINE_DEFAULT_CORES);
    if tenants.is_empty() {
        return Err(HarvestError::File {
            file: meta.0.to_string(),
            why: "no machine listed".into(),
        });
    }
    let series: Vec<UtilizationSeries> = read
        .series
        .into_iter()
        .filter(|s| !s.values.is_empty())
        .collect();
    if series.is_empty() {
        return Err(HarvestError::File {
            file: usage.0.to_string(),
            why: "no CPU sample".into(),
        });
    }
    Ok((tenants, series))
}
