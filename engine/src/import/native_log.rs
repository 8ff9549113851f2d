//! Apache Hadoop ResourceEstimator "native" log lines.
//!
//! `NormalizedJobName NumInstances SubmitTime StartTime EndTime JobInstanceName memUsage coreUsage`,
//! whitespace-separated; times in epoch milliseconds; usage fields are
//! `containers:offset|containers:offset|…` with offsets in seconds from the
//! job start, each sample holding for one interval (5 s by default).
//!
//! Behaviour follows Hadoop's `NativeSingleLineParser`: the skyline comes from
//! the **core** usage field, one container is `<1 core, 1 GB>`, samples at the
//! same offset add up, empty units (a trailing `|`) are ignored, and the
//! memory field is not interpreted. Offsets that are not multiples of the
//! interval are placed in the interval that contains them.

use super::csv::shorten;
use super::located::{column_of, FieldError};
use crate::model::{ContainerSize, Dataset, JobRun, Skyline};

/// Longest skyline accepted, in samples (one week at 5 s), so a corrupt offset
/// cannot make the parser allocate gigabytes.
const MAX_SAMPLES: i64 = 7 * 86_400 / 5;

pub(crate) struct NativeLogParser {
    interval: u32,
    runs: Vec<JobRun>,
    /// Byte ranges of the current line's fields (reused across lines).
    fields: Vec<(usize, usize)>,
    /// The current line's `(slot, containers)` samples (reused across lines).
    samples: Vec<(i64, f64)>,
}

/// `char::is_whitespace` for an ASCII byte.
fn ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\x0B' | b'\x0C' | b'\r')
}

/// Byte ranges of the whitespace-separated fields of `line` into `out`, as
/// `char::is_whitespace` separates them; ASCII lines (every real log) take a
/// byte loop, others a char loop.
fn split_fields(line: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let mut start = None;
    if line.is_ascii() {
        for (i, &b) in line.as_bytes().iter().enumerate() {
            match (ascii_space(b), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    out.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
    } else {
        for (i, c) in line.char_indices() {
            match (c.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    out.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
    }
    if let Some(s) = start {
        out.push((s, line.len()));
    }
}

impl NativeLogParser {
    pub(crate) fn new(interval_secs: u32) -> Self {
        NativeLogParser {
            interval: interval_secs.max(1),
            runs: Vec::new(),
            fields: Vec::with_capacity(8),
            samples: Vec::new(),
        }
    }

    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        split_fields(line, &mut self.fields);
        if self.fields.len() != 8 {
            let fields = &self.fields;
            let col = fields.get(8).map(|f| column_of(line, f.0)).unwrap_or(1);
            return Err(FieldError::at(
                col,
                format!(
                    "expected 8 fields (NormalizedJobName NumInstances SubmitTime StartTime EndTime JobInstanceName memUsage coreUsage), found {}",
                    fields.len()
                ),
            ));
        }
        let mut fields = [(0, ""); 8];
        for (f, &(a, b)) in fields.iter_mut().zip(&self.fields) {
            *f = (a, &line[a..b]);
        }
        let int = |k: usize, what: &str| -> Result<i64, FieldError> {
            let (off, t) = fields[k];
            t.parse::<i64>().map_err(|_| {
                FieldError::at(
                    column_of(line, off),
                    format!("{what}: `{}` is not an integer", shorten(t)),
                )
            })
        };
        let instances = int(1, "NumInstances")?;
        if instances < 0 {
            return Err(FieldError::at(
                column_of(line, fields[1].0),
                "NumInstances is negative",
            ));
        }
        let submit = int(2, "SubmitTime (ms)")?;
        let start = int(3, "StartTime (ms)")?;
        let end = int(4, "EndTime (ms)")?;
        if end < start {
            return Err(FieldError::at(
                column_of(line, fields[4].0),
                format!("EndTime {end} is before StartTime {start}"),
            ));
        }
        let (off, usage) = fields[7];
        let samples = &mut self.samples;
        samples.clear();
        // Units `containers:seconds`, separated by `|` (byte search: both
        // separators are ASCII, so the slices stay on char boundaries).
        let mut a = 0;
        while a <= usage.len() {
            let b = memchr::memchr(b'|', &usage.as_bytes()[a..]).map_or(usage.len(), |p| a + p);
            let unit = &usage[a..b];
            let here = off + a;
            a = b + 1;
            if unit.is_empty() {
                continue;
            }
            let bad = |why: &str| {
                FieldError::at(
                    column_of(line, here),
                    format!("coreUsage unit `{}`: {why}", shorten(unit)),
                )
            };
            let (n, t) = memchr::memchr(b':', unit.as_bytes())
                .map(|i| (&unit[..i], &unit[i + 1..]))
                .ok_or_else(|| bad("expected containers:seconds"))?;
            let n: u32 = n
                .parse()
                .map_err(|_| bad("container count is not a non-negative integer"))?;
            let t: i64 = t
                .parse()
                .map_err(|_| bad("offset is not an integer number of seconds"))?;
            if t < 0 {
                return Err(bad("offset is negative"));
            }
            let slot = t / i64::from(self.interval);
            if slot >= MAX_SAMPLES {
                return Err(bad("offset is more than a week after the start"));
            }
            samples.push((slot, f64::from(n)));
        }
        if samples.is_empty() {
            return Err(FieldError::at(
                column_of(line, off),
                "coreUsage has no samples",
            ));
        }
        let len = samples.iter().map(|s| s.0).max().unwrap_or(0) as usize + 1;
        let mut containers = vec![0.0; len];
        for &(slot, n) in samples.iter() {
            containers[slot as usize] += n;
        }
        self.runs.push(JobRun {
            job: fields[0].1.to_string(),
            instance: fields[5].1.to_string(),
            submit: submit.div_euclid(1000),
            start: start.div_euclid(1000),
            end: end.div_euclid(1000),
            input_available: None,
            output_first_read: None,
            container: ContainerSize::default(),
            skyline: Skyline::new(self.interval, containers),
        });
        Ok(())
    }

    pub(crate) fn finish(self) -> Dataset {
        Dataset {
            runs: self.runs,
            ..Dataset::default()
        }
    }
}
