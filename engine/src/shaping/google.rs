//! A shaping workload from Google cluster-data 2019 `instance_events` and
//! `instance_usage` (BigQuery's CSV or JSON lines; read by
//! `crate::import`'s instance readers, which share the importer's CSV and
//! JSON parsing).
//!
//! - **Applications**: one per `collection_id` (a Borg job), named
//!   `collection-<id>`, whose components are its instances that have
//!   usage rows — instances without usage are left out, and a collection
//!   with none is, as the Alibaba reader leaves out containers without
//!   samples (the two tables of a sample often cover different windows).
//! - **Requests**: each instance's latest `resource_request` (the event
//!   with the latest `time` that has both `cpus` and `memory`). The trace
//!   normalizes both to the largest machine of the cell, so they are read
//!   as that share of `host_cpu` cores and `host_mem` GB, as the Alibaba
//!   reader reads its normalized memory. Instances of equal request make
//!   one [`ComponentGroup`]. An instance with no request, or a request of
//!   0, is a located error (`file:line:1`, its first event) — Borg gives
//!   best-effort instances no request, and the shaping model needs one.
//! - **Core or elastic**: every instance is core. The schema's
//!   `scheduling_class` (latency sensitivity) and `priority` (production,
//!   batch, best-effort tiers) say how much an instance matters, not
//!   whether its job can run without it, so nothing in the trace marks a
//!   component optional; this is the paper's own reading of a trace
//!   without an elastic notion (§III-B's footnote for Alibaba: "all
//!   components are treated as core").
//! - **Arrival**: the collection's first `SUBMIT` (else its first event),
//!   in seconds since the trace's time 0 (µs / 10⁶; the importer's
//!   markers 0 and 2⁶³ − 1 are left out).
//! - **Runtime**: from its instances' first `SCHEDULE` (else their first
//!   usage window) to the last instance end (`EVICT`, `FAIL`, `FINISH`,
//!   `KILL`, `LOST`; an instance that never ends, its last usage window's
//!   end), at least a minute and at most [`MAX_SPAN_DAYS`] days.
//! - **Usage**: per minute from the start, the mean over its instances'
//!   rows covering that minute of `average_usage` / request (CPU and
//!   memory), clamped to [0, 1] as the Alibaba reader clips its
//!   percentages — the trace's 5-minute windows expanded to their minutes;
//!   minutes without rows keep the previous value, leading ones take the
//!   first observed ([`super::input`]'s `minute_trace`). Usage rows of
//!   instances not in the events file are not read.

use super::error::ShapingError;
use super::input::{located, minute_trace, workload_of};
use super::model::{Application, ComponentGroup, Kind, Workload};
use crate::import::{read_instance_events, read_instance_usage, InstanceUsage};
use std::collections::BTreeMap;

/// The longest application span read: the trace covers 31 days, so a
/// longer one is a wrong time, refused before a per-minute trace is
/// allocated for it.
pub const MAX_SPAN_DAYS: i64 = 32;

/// µs in a minute.
const MINUTE_US: i64 = 60_000_000;

/// One instance's events, gathered.
#[derive(Default)]
struct Instance {
    /// Its first event's line, where its errors are located.
    first_line: u64,
    /// The latest request: time, cpus, memory.
    request: Option<(i64, f64, f64)>,
    /// Its first `SCHEDULE`, µs.
    schedule: Option<i64>,
    /// Its last end event, µs.
    end: Option<i64>,
}

/// One collection: its first `SUBMIT`, its first event, its instances.
#[derive(Default)]
struct Collection {
    submit: Option<i64>,
    first_event: Option<i64>,
    instances: BTreeMap<u64, Instance>,
}

/// A workload from Google 2019 `instance_events` and `instance_usage`
/// text (`*_file` names them in errors); `host_cpu` (cores) and
/// `host_mem` (GB) convert the normalized requests. See the module's
/// documentation for how each field is read.
///
/// # Errors
/// [`ShapingError::Input`] with every located error of either file, or of
/// an instance without a positive request or a span beyond
/// [`MAX_SPAN_DAYS`]; [`ShapingError::EmptyWorkload`] when no instance of
/// the events has usage.
pub fn workload_from_google(
    events_file: &str,
    events_text: &str,
    usage_file: &str,
    usage_text: &str,
    host_cpu: f64,
    host_mem: f64,
) -> Result<Workload, ShapingError> {
    let events = read_instance_events(events_file, events_text).map_err(located)?;
    let usage = read_instance_usage(usage_file, usage_text).map_err(located)?;
    let mut collections: BTreeMap<u64, Collection> = BTreeMap::new();
    for (line, e) in &events {
        let c = collections.entry(e.collection_id).or_default();
        c.first_event = Some(c.first_event.map_or(e.time, |t| t.min(e.time)));
        if e.is_submit() {
            c.submit = Some(c.submit.map_or(e.time, |t| t.min(e.time)));
        }
        let i = c
            .instances
            .entry(e.instance_index)
            .or_insert_with(|| Instance {
                first_line: *line,
                ..Instance::default()
            });
        if let (Some(cpus), Some(memory)) = (e.cpus, e.memory) {
            if i.request.is_none_or(|(t, _, _)| e.time >= t) {
                i.request = Some((e.time, cpus, memory));
            }
        }
        if e.is_schedule() {
            i.schedule = Some(i.schedule.map_or(e.time, |t| t.min(e.time)));
        } else if e.ends() {
            i.end = Some(i.end.map_or(e.time, |t| t.max(e.time)));
        }
    }
    let mut rows: BTreeMap<(u64, u64), Vec<&InstanceUsage>> = BTreeMap::new();
    for (_, u) in &usage {
        rows.entry((u.collection_id, u.instance_index))
            .or_default()
            .push(u);
    }
    let mut apps = Vec::new();
    let mut errors = Vec::new();
    for (id, c) in &collections {
        let name = format!("collection-{id}");
        // Instances with usage, each with its request in cores and GB.
        let mut kept: Vec<(&Instance, &[&InstanceUsage], f64, f64)> = Vec::new();
        for (index, i) in &c.instances {
            let Some(samples) = rows.get(&(*id, *index)) else {
                continue;
            };
            match i.request {
                Some((_, cpus, memory)) if cpus > 0.0 && memory > 0.0 => {
                    kept.push((i, samples, cpus, memory));
                }
                Some((_, cpus, memory)) => errors.push(format!(
                    "{events_file}:{}:1: instance {index} of collection {id} requests {cpus} CPU and {memory} memory; both must be > 0",
                    i.first_line
                )),
                None => errors.push(format!(
                    "{events_file}:{}:1: instance {index} of collection {id} has no resource_request with both cpus and memory",
                    i.first_line
                )),
            }
        }
        if kept.is_empty() {
            continue;
        }
        let first_usage = |s: &[&InstanceUsage]| s.iter().map(|u| u.start).min();
        let last_usage = |s: &[&InstanceUsage]| s.iter().map(|u| u.end).max();
        let t0 = kept
            .iter()
            .filter_map(|(i, s, _, _)| i.schedule.or_else(|| first_usage(s)))
            .min();
        let t1 = kept
            .iter()
            .filter_map(|(i, s, _, _)| i.end.or_else(|| last_usage(s)))
            .max();
        let (Some(t0), Some(t1)) = (t0, t1) else {
            continue;
        };
        let span = (t1 - t0).max(0);
        if span > MAX_SPAN_DAYS * 86_400_000_000 {
            errors.push(format!(
                "{events_file}: collection {id} spans {:.1} days, longer than the trace ({MAX_SPAN_DAYS} days at most)",
                span as f64 / 86_400e6
            ));
            continue;
        }
        let runtime = (span as f64 / 1e6).max(60.0);
        let minutes = ((runtime / 60.0).ceil() as usize).max(1);
        let mut sums = vec![[0.0f64; 4]; minutes];
        for (_, samples, cpus, memory) in &kept {
            for u in samples.iter() {
                let from = (u.start - t0).div_euclid(MINUTE_US).max(0) as usize;
                let to = ((u.end - t0 + MINUTE_US - 1).div_euclid(MINUTE_US)).max(0) as usize;
                for s in sums.iter_mut().take(to.min(minutes)).skip(from) {
                    if let Some(v) = u.cpus {
                        s[0] += (v / cpus).clamp(0.0, 1.0);
                        s[1] += 1.0;
                    }
                    if let Some(v) = u.memory {
                        s[2] += (v / memory).clamp(0.0, 1.0);
                        s[3] += 1.0;
                    }
                }
            }
        }
        let mut components: Vec<ComponentGroup> = Vec::new();
        for (_, _, cpus, memory) in &kept {
            let (cpu, mem) = (cpus * host_cpu, memory * host_mem);
            match components.iter_mut().find(|g| g.cpu == cpu && g.mem == mem) {
                Some(g) => g.count += 1,
                None => components.push(ComponentGroup {
                    kind: Kind::Core,
                    count: 1,
                    cpu,
                    mem,
                }),
            }
        }
        let arrival = c.submit.or(c.first_event).unwrap_or(t0).min(t0);
        apps.push(Application {
            name,
            arrival: arrival as f64 / 1e6,
            runtime,
            components,
            usage: minute_trace(&sums),
        });
    }
    workload_of(apps, errors)
}
