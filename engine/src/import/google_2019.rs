//! Google cluster-data 2019 (the `clusterdata-2019` Borg traces, CC-BY
//! 4.0), its tables as BigQuery exports them: CSV with a header, or JSON
//! lines (`bq extract --destination_format NEWLINE_DELIMITED_JSON`). Field
//! names are the schema's; a nested field is `average_usage.cpus` in JSON
//! and `average_usage_cpus` (or `average_usage.cpus`) in a CSV header;
//! 64-bit integers may be strings.
//!
//! Times are microseconds since 600 s before the trace began (1 May 2019
//! 00:00 PDT), turned into calendar time; 0 (before the trace) and
//! 2⁶³ − 1 (after it) are left out and counted.
//!
//! - **`instance_usage`** → one CPU and one memory series per machine:
//!   each row's `average_usage` (normalized compute units and memory, a
//!   fraction of the largest machine) over its `start_time`…`end_time`
//!   window, summed over the instances on the machine, × 100 — the machine's
//!   use in percent of the largest machine, on the trace's 5-minute windows
//!   (wider when the file is large: [`SeriesSet::integrating`]).
//!   `maximum_usage`, `random_sample_usage`, the CPU histograms and the
//!   rest are not read.
//! - **`collection_events`** and **`instance_events`** (alone or in one
//!   file) → one run per collection that ended (`FINISH`, `FAIL`, `KILL`,
//!   `LOST`): submitted at `SUBMIT`, started at the first `SCHEDULE`; its
//!   skyline is its instances running (each from `SCHEDULE` to its end),
//!   when the file has instance rows, else one container. The recurring
//!   job is `collection_logical_name` (the trace's own "same program"
//!   name) when known, else `collection-<id>`.

use super::concurrency::{Concurrency, MAX_RUN_SECS};
use super::json::Fault;
use super::json_record::{Record, RecordAt, RecordSink};
use super::recurring::recurring_job;
use super::series_set::SeriesSet;
use crate::model::{ContainerSize, Dataset, JobRun, Resource};
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, HashMap};

/// Every line (or CSV row) is one row of the table.
pub(crate) const RECORDS: RecordAt = RecordAt::TopLevel;

/// Unix seconds of the trace's time 0: 1 May 2019 07:00 UTC (00:00 PDT)
/// less the 600 s offset.
pub(crate) const TRACE_EPOCH: i64 = 1_556_694_000 - 600;

/// The trace's window, seconds.
pub(crate) const WINDOW_SECS: i64 = 300;

/// The columns a usage table's CSV header must have.
pub(crate) const USAGE_COLUMNS: &[&str] = &[
    "start_time",
    "end_time",
    "machine_id",
    "average_usage.cpus|average_usage_cpus",
];

/// The columns an events table's CSV header must have.
pub(crate) const EVENTS_COLUMNS: &[&str] = &["time", "type", "collection_id"];

/// A trace time in µs since the trace's time 0; `None` for the markers
/// before (0) and after (2⁶³ − 1) the trace.
pub(crate) fn trace_us(r: &Record, key: &str) -> Result<Option<i64>, Fault> {
    let us = r.need_number(key, "a row")?;
    if us <= 0.0 || us >= 9.2e18 {
        return Ok(None);
    }
    if us > 1e16 {
        return Err(Fault::at(
            r.at_field(key),
            format!("`{key}` {us} is not a trace time in µs"),
        ));
    }
    Ok(Some(us as i64))
}

/// A trace time in µs as Unix seconds; `None` for the markers before and
/// after the trace.
fn trace_time(r: &Record, key: &str) -> Result<Option<i64>, Fault> {
    Ok(trace_us(r, key)?.map(|us| TRACE_EPOCH + us.div_euclid(1_000_000)))
}

/// The usage read per machine: `average_usage`'s fields as JSON (`a.b`)
/// and flattened CSV (`a_b`) name them, and the resource of each.
const USAGE: [([&str; 2], Resource); 2] = [
    (["average_usage.cpus", "average_usage_cpus"], Resource::Cpu),
    (
        ["average_usage.memory", "average_usage_memory"],
        Resource::Memory,
    ),
];

/// Every field [`GoogleUsage`] reads (a CSV table keeps only these).
const USAGE_FIELDS: &[&str] = &[
    "start_time",
    "end_time",
    "machine_id",
    "average_usage.cpus",
    "average_usage_cpus",
    "average_usage.memory",
    "average_usage_memory",
];

/// `instance_usage` rows as machine series.
pub(crate) struct GoogleUsage {
    set: SeriesSet,
    /// Each machine's CPU and memory series, by machine id.
    machines: FxHashMap<String, [usize; 2]>,
    /// The last row's machine and its series: an export lists a machine's
    /// instances together, so most rows skip the map.
    last: Option<(String, [usize; 2])>,
    /// Which spelling of each usage field (`USAGE`) the rows have.
    spelling: [usize; 2],
    outside: u64,
}

impl GoogleUsage {
    /// Nothing read yet.
    pub(crate) fn new() -> GoogleUsage {
        GoogleUsage {
            set: SeriesSet::integrating(WINDOW_SECS),
            machines: FxHashMap::default(),
            last: None,
            spelling: [0; 2],
            outside: 0,
        }
    }

    /// The machine series, with notes.
    pub(crate) fn finish(self) -> Dataset {
        let (series, aggregated) = self.set.finish();
        let mut notes = vec![
            "machine totals of the instances' average_usage, in percent of the largest machine"
                .to_string(),
        ];
        notes.extend(aggregated);
        if self.outside > 0 {
            notes.push(format!(
                "{} row(s) outside the trace's time left out",
                self.outside
            ));
        }
        Dataset {
            series,
            notes,
            ..Dataset::default()
        }
    }
}

impl RecordSink for GoogleUsage {
    fn fields_read(&self) -> Option<&'static [&'static str]> {
        Some(USAGE_FIELDS)
    }

    fn record(&mut self, _kind: usize, r: &Record) -> Result<(), Fault> {
        let (Some(from), Some(to)) = (trace_time(r, "start_time")?, trace_time(r, "end_time")?)
        else {
            self.outside += 1;
            return Ok(());
        };
        if to < from || to - from > 86_400 {
            return Err(Fault::at(
                r.at_field("end_time"),
                "`end_time` is not within a day after `start_time`",
            ));
        }
        let machine = r.need_text("machine_id", "a usage row")?;
        let ids = match &mut self.last {
            Some((id, ids)) if id == machine => *ids,
            last => {
                let ids = match self.machines.get(machine) {
                    Some(ids) => *ids,
                    None => {
                        let name = format!("machine-{machine}");
                        let ids = USAGE.map(|(_, resource)| self.set.series(&name, &resource));
                        self.machines.insert(machine.to_string(), ids);
                        ids
                    }
                };
                let (id, kept) = last.get_or_insert_with(|| (String::new(), ids));
                id.clear();
                id.push_str(machine);
                *kept = ids;
                ids
            }
        };
        for (((keys, _), i), first) in USAGE.iter().zip(ids).zip(&mut self.spelling) {
            let Some(v) = r.number_of_from(keys, first)? else {
                continue;
            };
            if v < 0.0 {
                return Err(Fault::at(
                    r.at_field(keys[0]),
                    format!("`{}` {v} is negative", keys[0]),
                ));
            }
            self.set.add_area(i, from, to.max(from + 1), v * 100.0);
        }
        Ok(())
    }
}

/// An event type, by number or name (the schema's `EventType`).
pub(crate) fn event_type(r: &Record) -> Result<u8, Fault> {
    const NAMES: [&str; 11] = [
        "SUBMIT",
        "QUEUE",
        "ENABLE",
        "SCHEDULE",
        "EVICT",
        "FAIL",
        "FINISH",
        "KILL",
        "LOST",
        "UPDATE_PENDING",
        "UPDATE_RUNNING",
    ];
    let text = r.need_text("type", "an event")?;
    if let Ok(n) = text.trim().parse::<u8>() {
        if usize::from(n) < NAMES.len() {
            return Ok(n);
        }
    }
    NAMES
        .iter()
        .position(|n| n.eq_ignore_ascii_case(text.trim()))
        .map(|p| p as u8)
        .ok_or_else(|| {
            Fault::at(
                r.at_field("type"),
                format!("event type `{text}` is not one of the schema's"),
            )
        })
}

/// The schema's `SCHEDULE` event: an instance placed on a machine.
pub(crate) const SCHEDULE: u8 = 3;
/// The schema's `SUBMIT` event.
pub(crate) const SUBMIT: u8 = 0;

/// Whether an event type ends a collection or an instance (`EVICT`,
/// `FAIL`, `FINISH`, `KILL`, `LOST`).
pub(crate) fn ends(t: u8) -> bool {
    matches!(t, 4..=8)
}

/// One collection's events.
#[derive(Default)]
struct Collection {
    name: Option<String>,
    submit: Option<i64>,
    schedule: Option<i64>,
    end: Option<i64>,
    /// Running instances: when each was scheduled.
    running: HashMap<u64, i64>,
    /// Instances' intervals, Unix seconds.
    intervals: Vec<(i64, i64)>,
    instance_rows: bool,
}

/// `collection_events` / `instance_events` rows as runs.
#[derive(Default)]
pub(crate) struct GoogleEvents {
    collections: BTreeMap<u64, Collection>,
    outside: u64,
}

impl RecordSink for GoogleEvents {
    fn record(&mut self, _kind: usize, r: &Record) -> Result<(), Fault> {
        let Some(t) = trace_time(r, "time")? else {
            self.outside += 1;
            return Ok(());
        };
        let kind = event_type(r)?;
        let id = r.need_number("collection_id", "an event")?;
        if id < 0.0 {
            return Err(Fault::at(
                r.at_field("collection_id"),
                "negative `collection_id`",
            ));
        }
        let c = self.collections.entry(id as u64).or_default();
        match r.number("instance_index")? {
            Some(index) => {
                c.instance_rows = true;
                let index = index.max(0.0) as u64;
                if kind == SCHEDULE {
                    c.running.insert(index, t);
                } else if ends(kind) {
                    if let Some(from) = c.running.remove(&index) {
                        c.intervals.push((from, t));
                    }
                }
            }
            None => {
                if let Some(name) = r.text("collection_logical_name")? {
                    if !name.is_empty() {
                        c.name = Some(name.to_string());
                    }
                }
                match kind {
                    SUBMIT => c.submit = Some(c.submit.map_or(t, |s| s.min(t))),
                    SCHEDULE => c.schedule = Some(c.schedule.map_or(t, |s| s.min(t))),
                    k if ends(k) && k != 4 => c.end = Some(t),
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

impl GoogleEvents {
    /// One run per ended collection, with notes.
    pub(crate) fn finish(self) -> Dataset {
        let mut data = Dataset::default();
        let mut unfinished = 0u64;
        for (id, c) in self.collections {
            let first_instance = c.intervals.iter().map(|i| i.0).min();
            let last_instance = c.intervals.iter().map(|i| i.1).max();
            let end = match (c.end, c.running.is_empty(), last_instance) {
                (Some(e), _, _) => e,
                (None, true, Some(e)) => e,
                _ => {
                    unfinished += 1;
                    continue;
                }
            };
            let start = c
                .schedule
                .or(first_instance)
                .or(c.submit)
                .unwrap_or(end)
                .min(end);
            let submit = c.submit.unwrap_or(start).min(start);
            let secs = ((end - start) as f64).min(MAX_RUN_SECS);
            let mut usage = Concurrency::new();
            if c.instance_rows {
                for &(a, b) in &c.intervals {
                    usage.add((a - start) as f64, (b - start) as f64, 1.0);
                }
            } else {
                usage.add(0.0, secs, 1.0);
            }
            let name = match &c.name {
                Some(n) => recurring_job(n, ""),
                None => format!("collection-{id}"),
            };
            data.runs.push(JobRun {
                job: name,
                instance: id.to_string(),
                submit,
                start,
                end,
                input_available: None,
                output_first_read: None,
                container: ContainerSize::default(),
                skyline: usage.skyline(secs),
            });
        }
        if unfinished > 0 {
            data.notes.push(format!(
                "{unfinished} collection(s) without an end event left out"
            ));
        }
        if self.outside > 0 {
            data.notes.push(format!(
                "{} event(s) outside the trace's time left out",
                self.outside
            ));
        }
        data
    }
}
