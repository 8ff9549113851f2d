//! Google cluster-data 2019 `instance_events` and `instance_usage` read
//! row by row, per instance, for the shaping workload
//! (`crate::shaping::google`). The importer's readers
//! ([`super::google_2019`]) aggregate the same tables into machine series
//! and runs as they stream; a workload needs each instance's request and
//! usage, so these keep the rows (the files a planner drops on the Shaping
//! panel are samples, not the whole trace). Encodings, field names and
//! times are the importer's: CSV with a header (nested fields flattened,
//! `resource_request_cpus`) or JSON lines (`resource_request.cpus`,
//! 64-bit integers possibly strings), times in µs since the trace's time 0.

use super::detect::{detect, detect_json, KeyProbe};
use super::format::Format;
use super::google_2019::{ends, event_type, trace_us, SCHEDULE, SUBMIT};
use super::json::{Fault, Framing, Tokenizer};
use super::json_record::Record;
use super::located::ParseError;
use super::record_rows::read_record_rows;

/// Which of the two instance tables a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoogleTable {
    /// `instance_events` (or `collection_events`: the reader then says
    /// the rows have no `instance_index`).
    Events,
    /// `instance_usage`.
    Usage,
}

/// One `instance_events` row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct InstanceEvent {
    /// The collection (job) the instance belongs to.
    pub collection_id: u64,
    /// The instance's index in its collection.
    pub instance_index: u64,
    /// µs since the trace's time 0.
    pub time: i64,
    /// The schema's `EventType` as a number (`SUBMIT` 0 … `UPDATE_RUNNING`
    /// 10).
    pub kind: u8,
    /// `resource_request.cpus`: normalized compute units, a fraction of
    /// the largest machine's; `None` when the row has none.
    pub cpus: Option<f64>,
    /// `resource_request.memory`: a fraction of the largest machine's
    /// memory; `None` when the row has none.
    pub memory: Option<f64>,
}

impl InstanceEvent {
    /// Whether it is a `SUBMIT`.
    pub(crate) fn is_submit(&self) -> bool {
        self.kind == SUBMIT
    }

    /// Whether it is a `SCHEDULE` (the instance placed on a machine).
    pub(crate) fn is_schedule(&self) -> bool {
        self.kind == SCHEDULE
    }

    /// Whether it ends the instance (`EVICT`, `FAIL`, `FINISH`, `KILL`,
    /// `LOST`).
    pub(crate) fn ends(&self) -> bool {
        ends(self.kind)
    }
}

/// One `instance_usage` row: an instance's mean use over a window.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct InstanceUsage {
    /// The collection the instance belongs to.
    pub collection_id: u64,
    /// The instance's index in its collection.
    pub instance_index: u64,
    /// Window start, µs since the trace's time 0.
    pub start: i64,
    /// Window end (after `start`), µs.
    pub end: i64,
    /// `average_usage.cpus`, in the request's units.
    pub cpus: Option<f64>,
    /// `average_usage.memory`, in the request's units.
    pub memory: Option<f64>,
}

/// The columns an `instance_events` CSV header must have.
const EVENTS_REQUIRED: &[&str] = &[
    "time",
    "type",
    "collection_id",
    "instance_index",
    "resource_request.cpus|resource_request_cpus",
    "resource_request.memory|resource_request_memory",
];

/// Every field an event row is read for (a CSV keeps only these).
const EVENTS_FIELDS: &[&str] = &[
    "time",
    "type",
    "collection_id",
    "instance_index",
    "resource_request.cpus",
    "resource_request_cpus",
    "resource_request.memory",
    "resource_request_memory",
];

/// The columns an `instance_usage` CSV header must have.
const USAGE_REQUIRED: &[&str] = &[
    "start_time",
    "end_time",
    "collection_id",
    "instance_index",
    "average_usage.cpus|average_usage_cpus",
    "average_usage.memory|average_usage_memory",
];

/// Every field a usage row is read for.
const USAGE_FIELDS: &[&str] = &[
    "start_time",
    "end_time",
    "collection_id",
    "instance_index",
    "average_usage.cpus",
    "average_usage_cpus",
    "average_usage.memory",
    "average_usage_memory",
];

/// Which Google instance table `text` is, from its CSV header or its
/// first JSON line's fields, as the importer detects them; `None` for
/// anything else (a workload JSON among them).
pub(crate) fn google_table(text: &str) -> Option<GoogleTable> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    let format = if first.starts_with('{') {
        let mut probe = KeyProbe::default();
        let mut tokenizer = Tokenizer::new(Framing::Document);
        tokenizer
            .feed(first.as_bytes(), &mut probe, &mut |_| {})
            .ok()?;
        detect_json(&probe, true)
    } else {
        detect(first)
    };
    match format? {
        Format::GoogleEvents => Some(GoogleTable::Events),
        Format::GoogleInstanceUsage => Some(GoogleTable::Usage),
        _ => None,
    }
}

/// A non-negative integer id field.
fn id(r: &Record, key: &str, what: &str) -> Result<u64, Fault> {
    let v = r.need_number(key, what)?;
    if v < 0.0 || v.fract() != 0.0 {
        return Err(Fault::at(
            r.at_field(key),
            format!("`{key}` {v} is not a non-negative integer"),
        ));
    }
    Ok(v as u64)
}

/// The first of `keys` as a non-negative number, `None` when absent.
fn amount(r: &Record, keys: &[&str]) -> Result<Option<f64>, Fault> {
    let v = r.number_of(keys)?;
    if let Some(v) = v.filter(|v| *v < 0.0) {
        return Err(Fault::at(
            r.at_field(keys[0]),
            format!("`{}` {v} is negative", keys[0]),
        ));
    }
    Ok(v)
}

fn event_row(r: &Record) -> Result<Option<InstanceEvent>, Fault> {
    let what = "an instance event";
    let Some(time) = trace_us(r, "time")? else {
        return Ok(None);
    };
    if r.get("instance_index")?.is_none() {
        return Err(Fault::at(
            r.at,
            "an event without `instance_index` (a collection_events row?): a workload needs instance_events",
        ));
    }
    Ok(Some(InstanceEvent {
        collection_id: id(r, "collection_id", what)?,
        instance_index: id(r, "instance_index", what)?,
        time,
        kind: event_type(r)?,
        cpus: amount(r, &["resource_request.cpus", "resource_request_cpus"])?,
        memory: amount(r, &["resource_request.memory", "resource_request_memory"])?,
    }))
}

fn usage_row(r: &Record) -> Result<Option<InstanceUsage>, Fault> {
    let what = "a usage row";
    let (Some(start), Some(end)) = (trace_us(r, "start_time")?, trace_us(r, "end_time")?) else {
        return Ok(None);
    };
    if end <= start || end - start > 86_400_000_000 {
        return Err(Fault::at(
            r.at_field("end_time"),
            "`end_time` is not within a day after `start_time`",
        ));
    }
    Ok(Some(InstanceUsage {
        collection_id: id(r, "collection_id", what)?,
        instance_index: id(r, "instance_index", what)?,
        start,
        end,
        cpus: amount(r, &["average_usage.cpus", "average_usage_cpus"])?,
        memory: amount(r, &["average_usage.memory", "average_usage_memory"])?,
    }))
}

/// The rows of an `instance_events` table (`file` names it in errors),
/// each with its 1-based line; rows at the markers before or after the
/// trace are left out. Strict: every bad line, located.
pub(crate) fn read_instance_events(
    file: &str,
    text: &str,
) -> Result<Vec<(u64, InstanceEvent)>, Vec<ParseError>> {
    let (required, fields) = (EVENTS_REQUIRED, EVENTS_FIELDS);
    read_record_rows(file, text, required, fields, "an event", event_row)
}

/// The rows of an `instance_usage` table, each with its line; rows at the
/// markers are left out. Strict: every bad line, located.
pub(crate) fn read_instance_usage(
    file: &str,
    text: &str,
) -> Result<Vec<(u64, InstanceUsage)>, Vec<ParseError>> {
    let (required, fields) = (USAGE_REQUIRED, USAGE_FIELDS);
    read_record_rows(file, text, required, fields, "a usage row", usage_row)
}
