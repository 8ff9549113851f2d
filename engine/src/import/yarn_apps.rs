//! YARN ResourceManager applications: the answer of
//! `GET http://<rm>:8088/ws/v1/cluster/apps` (Hadoop's `AppsInfo` of
//! `AppInfo`s: `{"apps":{"app":[…]}}`), a single application's
//! `{"app":{…}}`, or a saved page of many answers (one after another, or
//! in an array).
//!
//! One run per finished application: `startedTime` is its submission,
//! `launchTime` (Hadoop 3) its start when present, `finishedTime` its end
//! (milliseconds since the epoch). The ResourceManager keeps only totals of
//! what an application used, so its skyline is its mean: `vcoreSeconds`
//! spread evenly over the run, in containers of one vcore and
//! `memorySeconds / vcoreSeconds` MB. Applications still running
//! (`finishedTime` 0) are left out and counted in the file's notes. The
//! recurring job comes from `applicationTags` or the name's template
//! ([`super::recurring`]).

use super::concurrency::{Concurrency, MAX_RUN_SECS};
use super::json::Fault;
use super::json_record::{Record, RecordAt, RecordSink};
use super::recurring::recurring_job;
use crate::model::{ContainerSize, Dataset, JobRun};

/// Where the applications are in an answer.
pub(crate) const RECORDS: RecordAt = RecordAt::Under(&["app"]);

/// The applications read so far.
#[derive(Default)]
pub(crate) struct YarnApps {
    runs: Vec<JobRun>,
    unfinished: u64,
}

/// Milliseconds since the epoch as seconds, and the check that they are a
/// time (a negative or absurdly large value is a broken field).
pub(crate) fn epoch_ms(r: &Record, key: &str, ms: f64) -> Result<i64, Fault> {
    if !(0.0..=4.1e15).contains(&ms) {
        return Err(Fault::at(
            r.at_field(key),
            format!("`{key}` {ms} is not a time in milliseconds since 1970"),
        ));
    }
    Ok((ms / 1000.0).floor() as i64)
}

/// The run's length in seconds from `start_ms` to `end_ms`, checked.
pub(crate) fn run_secs(
    r: &Record,
    end_key: &str,
    start_ms: f64,
    end_ms: f64,
) -> Result<f64, Fault> {
    let secs = (end_ms - start_ms) / 1000.0;
    if secs < 0.0 {
        return Err(Fault::at(
            r.at_field(end_key),
            format!("`{end_key}` is before the start"),
        ));
    }
    if secs > MAX_RUN_SECS {
        return Err(Fault::at(
            r.at_field(end_key),
            format!(
                "the run lasts {:.0} days (more than a year)",
                secs / 86_400.0
            ),
        ));
    }
    Ok(secs)
}

impl RecordSink for YarnApps {
    fn record(&mut self, _kind: usize, r: &Record) -> Result<(), Fault> {
        let id = r.need_text("id", "an application")?.to_string();
        let name = r.text("name")?.unwrap_or(&id).to_string();
        let tags = r.text("applicationTags")?.unwrap_or("");
        let started = r.need_number("startedTime", "an application")?;
        let finished = r.number("finishedTime")?.unwrap_or(0.0);
        if finished <= 0.0 {
            self.unfinished += 1;
            return Ok(());
        }
        let launched = r
            .number("launchTime")?
            .filter(|&l| l >= started && l <= finished);
        let start_ms = launched.unwrap_or(started);
        let secs = run_secs(r, "finishedTime", start_ms, finished)?;
        let vcore_secs = r.need_number("vcoreSeconds", "an application")?;
        let memory_secs = r.number("memorySeconds")?.unwrap_or(0.0);
        if vcore_secs < 0.0 || memory_secs < 0.0 {
            return Err(Fault::at(
                r.at_field("vcoreSeconds"),
                "negative `vcoreSeconds` or `memorySeconds`",
            ));
        }
        let mut usage = Concurrency::new();
        if secs > 0.0 {
            usage.add(0.0, secs, vcore_secs / secs);
        }
        let container = ContainerSize {
            cores: 1.0,
            memory_mb: if vcore_secs > 0.0 && memory_secs > 0.0 {
                memory_secs / vcore_secs
            } else {
                ContainerSize::default().memory_mb
            },
        };
        self.runs.push(JobRun {
            job: recurring_job(&name, tags),
            instance: id,
            submit: epoch_ms(r, "startedTime", started)?,
            start: epoch_ms(r, "launchTime", start_ms)?,
            end: epoch_ms(r, "finishedTime", finished)?,
            input_available: None,
            output_first_read: None,
            container,
            skyline: usage.skyline(secs),
        });
        Ok(())
    }
}

impl YarnApps {
    /// The runs, and a note of the applications left out.
    pub(crate) fn finish(self) -> Dataset {
        let mut notes = Vec::new();
        if self.unfinished > 0 {
            notes.push(format!(
                "{} application(s) still running (no finishedTime) left out",
                self.unfinished
            ));
        }
        Dataset {
            runs: self.runs,
            notes,
            ..Dataset::default()
        }
    }
}
