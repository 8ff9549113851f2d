//! The Alibaba cluster-trace-v2018 container tables, what resource shaping
//! needs: per container its requests (`container_meta.csv`) and its
//! utilization over time (`container_usage.csv`). Standalone readers, like
//! [`super::read_queue_csv`]: the files are headerless, their columns fixed
//! by the trace's `schema.md`:
//!
//! - `container_meta`: container_id, machine_id, time_stamp, app_du,
//!   status, cpu_request, cpu_limit (100 = one core), mem_size (normalized,
//!   [0, 100]) — one row per event of a container;
//! - `container_usage`: container_id, machine_id, time_stamp (seconds,
//!   may be fractional), cpu_util_percent, mem_util_percent, cpi, mem_gps,
//!   mpki, net_in, net_out, disk_io_percent.
//!
//! **Bad values.** The trace marks abnormal measurements with −1 or 101
//! (`schema.md`, disk_io_percent) and leaves some fields empty. In the
//! usage table a utilization that is empty, NaN, −1, 101 or otherwise
//! outside [0, 100] makes that *sample* missing for that resource: it is
//! dropped and counted in [`ContainerUsage::bad_values`], so on a regular
//! grid ([`crate::forecast::regular_grid`]) it becomes a gap — never
//! interpolated into training data. Text that is not a number at all, a
//! wrong field count, an empty id or a bad timestamp is a located error
//! (file, line, column, reason), and any error refuses the file. Columns
//! the forecasters do not use (cpi, mem_gps, …) are not checked beyond
//! the field count. In the meta table, empty numbers are unknown (`None`);
//! negative requests and memory outside [0, 100] are errors.

use super::csv::Field;
use super::headerless::{each_line, fields, id, optional, time};
use super::located::{column_of, FieldError, ParseError};
use crate::model::{Resource, UtilizationSeries};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Columns of `container_meta.csv`, in order.
pub const CONTAINER_META_COLUMNS: [&str; 8] = [
    "container_id",
    "machine_id",
    "time_stamp",
    "app_du",
    "status",
    "cpu_request",
    "cpu_limit",
    "mem_size",
];

/// Columns of `container_usage.csv`, in order.
pub const CONTAINER_USAGE_COLUMNS: [&str; 11] = [
    "container_id",
    "machine_id",
    "time_stamp",
    "cpu_util_percent",
    "mem_util_percent",
    "cpi",
    "mem_gps",
    "mpki",
    "net_in",
    "net_out",
    "disk_io_percent",
];

/// One row of `container_meta.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContainerMeta {
    /// Container id.
    pub container_id: String,
    /// Host machine.
    pub machine_id: String,
    /// Seconds from the trace's start.
    pub time: i64,
    /// Deploy unit (application group).
    pub app_du: String,
    /// Status (e.g. `started`).
    pub status: String,
    /// CPU request, 100 = one core.
    pub cpu_request: Option<f64>,
    /// CPU limit, 100 = one core.
    pub cpu_limit: Option<f64>,
    /// Memory, normalized to [0, 100].
    pub mem_size: Option<f64>,
}

/// The usage table as utilization series, with what was dropped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContainerUsage {
    /// Per container, a CPU and a memory series (server = container id),
    /// samples sorted by time, bad values left out.
    pub series: Vec<UtilizationSeries>,
    /// Rows read.
    pub rows: usize,
    /// Utilization values dropped as bad (−1/101 markers, empty, NaN, out
    /// of [0, 100]), CPU and memory counted separately.
    pub bad_values: usize,
}

/// Reads `container_meta.csv` (`file` names it in errors). Strict: every
/// bad line is returned and the file refused.
pub fn read_container_meta(file: &str, text: &str) -> Result<Vec<ContainerMeta>, Vec<ParseError>> {
    let mut out = Vec::new();
    let mut buf = Vec::with_capacity(8);
    each_line(file, text, |line| {
        fields(line, 8, &mut buf)?;
        let nonneg = |k: usize, what: &str| -> Result<Option<f64>, FieldError> {
            let v = optional(line, &buf[k], what)?;
            match v {
                Some(x) if x.is_nan() => Ok(None),
                Some(x) if x < 0.0 || x.is_infinite() => Err(FieldError::at(
                    column_of(line, buf[k].offset),
                    format!("{what} {x} is negative or infinite"),
                )),
                v => Ok(v),
            }
        };
        let mem_size = nonneg(7, "mem_size")?;
        if let Some(m) = mem_size.filter(|m| *m > 100.0) {
            return Err(FieldError::at(
                column_of(line, buf[7].offset),
                format!("mem_size {m} is above 100 (normalized to [0, 100])"),
            ));
        }
        out.push(ContainerMeta {
            container_id: id(line, &buf[0], "container_id")?,
            machine_id: buf[1].text.trim().to_string(),
            time: time(line, &buf[2])? as i64,
            app_du: buf[3].text.trim().to_string(),
            status: buf[4].text.trim().to_string(),
            cpu_request: nonneg(5, "cpu_request")?,
            cpu_limit: nonneg(6, "cpu_limit")?,
            mem_size,
        });
        Ok(())
    })?;
    Ok(out)
}

/// The latest row of each container (its current request), by container id.
pub fn latest_requests(meta: &[ContainerMeta]) -> BTreeMap<String, ContainerMeta> {
    let mut out: BTreeMap<String, ContainerMeta> = BTreeMap::new();
    for m in meta {
        match out.get(&m.container_id) {
            Some(prev) if prev.time > m.time => {}
            _ => {
                out.insert(m.container_id.clone(), m.clone());
            }
        }
    }
    out
}

/// A utilization value: `Some` when it is a real measurement in [0, 100],
/// `None` for the trace's bad values (empty, NaN, −1, 101, out of range).
fn utilization(line: &str, f: &Field<'_>, what: &str) -> Result<Option<f64>, FieldError> {
    Ok(optional(line, f, what)?.filter(|v| (0.0..=100.0).contains(v)))
}

/// One usage row: time, CPU and memory utilization (`None` when bad).
type Sample = (f64, Option<f64>, Option<f64>);

/// Reads `container_usage.csv` into a CPU and a memory series per
/// container. Strict for malformed lines (all returned, file refused);
/// bad values are dropped and counted, see the module notes.
pub fn read_container_usage(file: &str, text: &str) -> Result<ContainerUsage, Vec<ParseError>> {
    let mut by: BTreeMap<String, Vec<Sample>> = BTreeMap::new();
    let mut rows = 0;
    let mut bad = 0;
    let mut buf = Vec::with_capacity(11);
    each_line(file, text, |line| {
        fields(line, 11, &mut buf)?;
        let c = id(line, &buf[0], "container_id")?;
        let t = time(line, &buf[2])?;
        let cpu = utilization(line, &buf[3], "cpu_util_percent")?;
        let mem = utilization(line, &buf[4], "mem_util_percent")?;
        rows += 1;
        bad += usize::from(cpu.is_none()) + usize::from(mem.is_none());
        by.entry(c).or_default().push((t, cpu, mem));
        Ok(())
    })?;
    let mut series = Vec::new();
    for (c, mut samples) in by {
        samples.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (resource, pick) in [(Resource::Cpu, 1usize), (Resource::Memory, 2usize)] {
            let mut s = UtilizationSeries::new(c.clone(), resource);
            for (t, cpu, mem) in &samples {
                let v = if pick == 1 { cpu } else { mem };
                if let Some(v) = v {
                    s.timestamps.push(t.round() as i64);
                    s.values.push(*v);
                }
            }
            series.push(s);
        }
    }
    Ok(ContainerUsage {
        series,
        rows,
        bad_values: bad,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lines in the layout of the trace (ids and values made up).
    const META: &str = "\
c_1,m_2556,0,app_5052,started,400,400,1.56
c_1,m_2556,287942,app_5052,started,800,800,3.13
c_2,m_962,0,app_8125,started,400,400,1.56
c_3,m_7,0,app_1,allocated,,,
";

    const USAGE: &str = "\
c_1,m_1673,300,8,29,,,,,,
c_1,m_1673,0,5,30,1.3,2.5,4,1.2,1.1,3
c_1,m_1673,600,-1,31,,,,,,101
c_1,m_1673,900,101,,,,,,,
c_2,m_962,10.4,12,20,,,,,,
";

    #[test]
    fn meta_rows_and_latest_requests() {
        let m = read_container_meta("container_meta.csv", META).unwrap();
        assert_eq!(m.len(), 4);
        assert_eq!(m[3].cpu_request, None);
        let latest = latest_requests(&m);
        assert_eq!(latest["c_1"].cpu_request, Some(800.0));
        assert_eq!(latest["c_1"].mem_size, Some(3.13));
        assert_eq!(latest.len(), 3);
    }

    #[test]
    fn usage_drops_bad_values_and_sorts() {
        let u = read_container_usage("container_usage.csv", USAGE).unwrap();
        assert_eq!(u.rows, 5);
        // c_1 cpu: -1 and 101 dropped; mem: empty dropped.
        assert_eq!(u.bad_values, 3);
        let cpu = &u.series[0];
        assert_eq!(
            (cpu.server.as_str(), &cpu.resource),
            ("c_1", &Resource::Cpu)
        );
        assert_eq!(cpu.timestamps, vec![0, 300]);
        assert_eq!(cpu.values, vec![5.0, 8.0]);
        let mem = &u.series[1];
        assert_eq!(mem.timestamps, vec![0, 300, 600]);
        // On a grid, the dropped samples are gaps.
        let g = crate::forecast::regular_grid(&cpu.timestamps, &cpu.values, Some(300));
        assert_eq!(g.values.len(), 2);
        let full: Vec<i64> = vec![0, 300, 900];
        let g = crate::forecast::regular_grid(&full, &[5.0, 8.0, 7.0], Some(300));
        assert!(g.values[2].is_nan());
        assert_eq!(u.series[2].timestamps, vec![10]);
    }

    #[test]
    fn malformed_lines_are_located() {
        let bad = "c_1,m_1,0,5,30,,,,,,\nc_1,m_1,x,5,30,,,,,,\nc_1,m_1,5,lots,30,,,,,,\nc_1,m_1,5,5\n,m_1,5,5,5,,,,,,\n";
        let e = read_container_usage("u.csv", bad).unwrap_err();
        assert_eq!(e.len(), 4);
        assert_eq!((e[0].line, e[0].column), (2, 9));
        assert!(e[0].reason.contains("time_stamp"), "{}", e[0]);
        assert_eq!((e[1].line, e[1].column), (3, 11));
        assert!(e[2].reason.contains("expected 11 fields"), "{}", e[2]);
        assert!(e[3].reason.contains("container_id is empty"), "{}", e[3]);
        let e = read_container_meta("m.csv", "c,m,0,a,s,-4,1,2\nc,m,0,a,s,1,1,120\n").unwrap_err();
        assert_eq!(e.len(), 2);
        assert!(e[0].reason.contains("cpu_request"));
        assert!(e[1].reason.contains("mem_size"));
        assert_eq!(
            e[1].to_string(),
            "m.csv:2:15: mem_size 120 is above 100 (normalized to [0, 100])"
        );
    }
}
