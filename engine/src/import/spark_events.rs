//! Spark event logs: what `spark.eventLog.enabled` writes to
//! `spark.eventLog.dir` (one JSON event a line, as Spark's `JsonProtocol`
//! writes them), plain or compressed (the importer undoes the codec first).
//!
//! One run per application (`SparkListenerApplicationStart` … `End`; a log
//! of several applications gives one each): submitted and started at the
//! start event's `Timestamp`, ended at the end event's (an unfinished log,
//! `.inprogress`, ends at its last timestamp, said in the notes). Its
//! skyline is its executors alive (`SparkListenerExecutorAdded` …
//! `Removed`), in containers of the executors' mean `Total Cores` and
//! `spark.executor.memory` (from the environment event); an application
//! without executor events (local mode) counts its tasks running
//! (`SparkListenerTaskEnd`'s `Launch Time` … `Finish Time`). The recurring
//! job is the `App Name`'s template, or a `spark.yarn.tags` tag
//! ([`super::recurring`]). Jobs and stages are counted in the notes; every
//! other event is skipped.

use super::concurrency::{Concurrency, MAX_RUN_SECS};
use super::json::Fault;
use super::json_record::{Record, RecordAt, RecordSink};
use super::recurring::recurring_job;
use crate::model::{ContainerSize, Dataset, JobRun};
use std::collections::HashMap;

/// Every line is one event.
pub(crate) const RECORDS: RecordAt = RecordAt::TopLevel;

/// One application being read.
#[derive(Default)]
struct App {
    name: String,
    id: String,
    tags: String,
    start_ms: f64,
    last_ms: f64,
    end_ms: Option<f64>,
    /// Executors alive: when each was added.
    alive: HashMap<String, f64>,
    executors: Concurrency,
    executor_count: u32,
    cores: f64,
    memory_mb: Option<f64>,
    tasks: Concurrency,
    jobs: u64,
    stages: u64,
}

/// The applications of one log.
#[derive(Default)]
pub(crate) struct SparkEvents {
    current: Option<App>,
    /// The environment event, which Spark writes before the start event:
    /// executor memory and tags, for the application that starts next.
    pending: (Option<f64>, String),
    done: Vec<App>,
    before_start: u64,
}

/// Spark's memory strings (`4g`, `512m`, `2048k`, bytes) in MB.
fn memory_mb(text: &str) -> Option<f64> {
    let t = text.trim().to_ascii_lowercase();
    let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let value: f64 = digits.parse().ok()?;
    let scale = match &t[digits.len()..] {
        "" | "b" => 1.0 / (1024.0 * 1024.0),
        "k" | "kb" => 1.0 / 1024.0,
        "m" | "mb" => 1.0,
        "g" | "gb" => 1024.0,
        "t" | "tb" => 1024.0 * 1024.0,
        _ => return None,
    };
    Some(value * scale)
}

impl App {
    fn secs(&self, ms: f64) -> f64 {
        (ms - self.start_ms) / 1000.0
    }

    fn into_run(mut self) -> (JobRun, bool) {
        let end_ms = self.end_ms.unwrap_or(self.last_ms).max(self.start_ms);
        let secs = ((end_ms - self.start_ms) / 1000.0).min(MAX_RUN_SECS);
        let alive: Vec<f64> = self.alive.drain().map(|(_, t)| t).collect();
        for t in alive {
            let from = self.secs(t);
            self.executors.add(from, secs, 1.0);
        }
        let local = self.executor_count == 0;
        let (usage, cores) = if local {
            (self.tasks, 1.0)
        } else {
            (self.executors, self.cores / f64::from(self.executor_count))
        };
        let run = JobRun {
            job: recurring_job(&self.name, &self.tags),
            instance: self.id,
            submit: (self.start_ms / 1000.0).floor() as i64,
            start: (self.start_ms / 1000.0).floor() as i64,
            end: (end_ms / 1000.0).floor() as i64,
            input_available: None,
            output_first_read: None,
            container: ContainerSize {
                cores: cores.max(f64::MIN_POSITIVE),
                memory_mb: self.memory_mb.unwrap_or(ContainerSize::default().memory_mb),
            },
            skyline: usage.skyline(secs),
        };
        (run, local)
    }
}

fn timestamp(r: &Record, key: &str) -> Result<f64, Fault> {
    let ms = r.need_number(key, "this event")?;
    if !(0.0..=4.1e15).contains(&ms) {
        return Err(Fault::at(
            r.at_field(key),
            format!("`{key}` {ms} is not a time in ms"),
        ));
    }
    Ok(ms)
}

impl RecordSink for SparkEvents {
    fn record(&mut self, _kind: usize, r: &Record) -> Result<(), Fault> {
        let event = r.need_text("Event", "an event line")?;
        if event == "SparkListenerApplicationStart" {
            let start_ms = timestamp(r, "Timestamp")?;
            if let Some(app) = self.current.take() {
                self.done.push(app);
            }
            let name = r.text("App Name")?.unwrap_or("spark").to_string();
            let mut id = r.text("App ID")?.unwrap_or(&name).to_string();
            if let Some(attempt) = r.text("App Attempt ID")? {
                id = format!("{id}_{attempt}");
            }
            let (memory_mb, tags) = std::mem::take(&mut self.pending);
            self.current = Some(App {
                name,
                id,
                tags,
                memory_mb,
                start_ms,
                last_ms: start_ms,
                ..App::default()
            });
            return Ok(());
        }
        if event == "SparkListenerEnvironmentUpdate" {
            let memory = r
                .text("Spark Properties.spark.executor.memory")?
                .and_then(memory_mb);
            let tags = r
                .text("Spark Properties.spark.yarn.tags")?
                .unwrap_or("")
                .to_string();
            match self.current.as_mut() {
                Some(app) => {
                    app.memory_mb = memory.or(app.memory_mb);
                    app.tags = tags;
                }
                None => self.pending = (memory, tags),
            }
            return Ok(());
        }
        let Some(app) = self.current.as_mut() else {
            if event != "SparkListenerLogStart" {
                self.before_start += 1;
            }
            return Ok(());
        };
        if let Some(ms) = r.number("Timestamp")? {
            app.last_ms = app.last_ms.max(ms);
        }
        match event {
            "SparkListenerApplicationEnd" => app.end_ms = Some(timestamp(r, "Timestamp")?),
            "SparkListenerExecutorAdded" => {
                let t = timestamp(r, "Timestamp")?;
                let id = r.need_text("Executor ID", "an executor event")?.to_string();
                app.cores += r
                    .number("Executor Info.Total Cores")?
                    .unwrap_or(1.0)
                    .max(0.0);
                app.executor_count += 1;
                app.alive.insert(id, t);
            }
            "SparkListenerExecutorRemoved" => {
                let t = timestamp(r, "Timestamp")?;
                let id = r.need_text("Executor ID", "an executor event")?;
                if let Some(added) = app.alive.remove(id) {
                    let (from, to) = (app.secs(added), app.secs(t));
                    app.executors.add(from, to, 1.0);
                }
            }
            "SparkListenerTaskEnd" => {
                let (a, b) = (
                    r.number("Task Info.Launch Time")?,
                    r.number("Task Info.Finish Time")?,
                );
                if let (Some(a), Some(b)) = (a, b) {
                    app.last_ms = app.last_ms.max(b);
                    let (from, to) = (app.secs(a), app.secs(b));
                    app.tasks.add(from, to, 1.0);
                }
            }
            "SparkListenerJobStart" => app.jobs += 1,
            "SparkListenerStageCompleted" => app.stages += 1,
            _ => {}
        }
        Ok(())
    }
}

impl SparkEvents {
    /// One run per application, with notes.
    pub(crate) fn finish(mut self) -> Dataset {
        if let Some(app) = self.current.take() {
            self.done.push(app);
        }
        let mut data = Dataset::default();
        for app in self.done {
            let (jobs, stages, open) = (app.jobs, app.stages, app.end_ms.is_none());
            let id = app.id.clone();
            let (run, local) = app.into_run();
            data.notes.push(format!(
                "{id}: {jobs} job(s), {stages} stage(s); skyline of {}{}",
                if local {
                    "running tasks (no executor events)"
                } else {
                    "executors alive"
                },
                if open {
                    "; no application end event: ends at its last event"
                } else {
                    ""
                }
            ));
            data.runs.push(run);
        }
        if self.before_start > 0 {
            data.notes.push(format!(
                "{} event(s) before any application start skipped",
                self.before_start
            ));
        }
        data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spark_memory_strings() {
        assert_eq!(memory_mb("4g"), Some(4096.0));
        assert_eq!(memory_mb("512m"), Some(512.0));
        assert_eq!(memory_mb("1048576"), Some(1.0));
        assert_eq!(memory_mb("lots"), None);
    }
}
