//! What `skyplan estimate` and `skyplan quote` share: the job history they
//! learn from, the flags describing one new job, and the estimate's table.
//! Both commands import this file; neither imports the other.

use crate::common::Failure;
use crate::input::import_loaded;
use skyplan_engine::estimate::{history_from_swim, HistoryParams, JobEstimate, Method};
use skyplan_engine::import::{Format, ImportOptions};
use skyplan_engine::model::{JobFeatures, WorkloadJob};
use std::fmt::Write as _;

/// Loads the history: a job-history CSV or the JobHistory server's jobs
/// and tasks as they are, or SWIM samples turned
/// into one by the engine's generator. Returns the jobs and a description.
pub(crate) fn load(
    path: &str,
    lenient: bool,
    generate: &HistoryParams,
) -> Result<(Vec<WorkloadJob>, String), Failure> {
    let options = ImportOptions {
        lenient,
        ..ImportOptions::default()
    };
    let f = import_loaded(path, &options)?;
    let skipped = if f.skipped_lines > 0 {
        format!(", {} bad line(s) skipped", f.skipped_lines)
    } else {
        String::new()
    };
    match f.format {
        Format::JobHistoryCsv | Format::MapreduceHistoryJson => {
            let n = f.data.workload.len();
            Ok((
                f.data.workload,
                format!("{path}: {n} finished jobs{skipped}"),
            ))
        }
        Format::SwimTsv => {
            let h = history_from_swim(&f.data.workload, generate)
                .map_err(|e| Failure::input(format!("{path}: {e}")))?;
            let what = format!(
                "{path}: {} SWIM samples → {} history jobs generated ({} runs each, seed {}){skipped}",
                f.data.workload.len(),
                h.len(),
                generate.runs_per_job,
                generate.seed
            );
            Ok((h, what))
        }
        other => Err(Failure::input(format!(
            "{path} is {other}; this command needs a job history ({}, {} or {})",
            Format::JobHistoryCsv,
            Format::MapreduceHistoryJson,
            Format::SwimTsv
        ))),
    }
}

/// The flags describing one job to estimate (shared with `skyplan quote`).
#[derive(Default)]
pub(crate) struct JobArgs {
    /// `--job` was given.
    job: bool,
    /// `--name`, for the same-job method.
    pub name: Option<String>,
    map_tasks: Option<u32>,
    reduce_tasks: Option<u32>,
    input: Option<f64>,
    shuffle: Option<f64>,
    output: Option<f64>,
}

impl JobArgs {
    /// The long flags [`JobArgs::take`] reads.
    pub const FLAGS: [&'static str; 7] = [
        "job",
        "name",
        "map-tasks",
        "reduce-tasks",
        "input-bytes",
        "shuffle-bytes",
        "output-bytes",
    ];

    /// Reads the long flag `flag` (one of [`JobArgs::FLAGS`]) and its value.
    pub fn take(&mut self, flag: &str, parser: &mut lexopt::Parser) -> Result<(), Failure> {
        use lexopt::ValueExt;
        match flag {
            "job" => self.job = true,
            "name" => self.name = Some(parser.value()?.string()?),
            "map-tasks" => self.map_tasks = Some(parser.value()?.parse()?),
            "reduce-tasks" => self.reduce_tasks = Some(parser.value()?.parse()?),
            "input-bytes" => self.input = Some(parser.value()?.parse()?),
            "shuffle-bytes" => self.shuffle = Some(parser.value()?.parse()?),
            "output-bytes" => self.output = Some(parser.value()?.parse()?),
            _ => return Err(Failure::usage(format!("unexpected --{flag}"))),
        }
        Ok(())
    }

    /// The job to estimate from the feature flags, if any were given.
    pub fn features(&self) -> Result<Option<JobFeatures>, Failure> {
        let any = self.job
            || self.map_tasks.is_some()
            || self.reduce_tasks.is_some()
            || self.input.is_some()
            || self.shuffle.is_some()
            || self.output.is_some();
        if !any {
            return Ok(None);
        }
        let missing: Vec<&str> = [
            ("--map-tasks", self.map_tasks.is_none()),
            ("--reduce-tasks", self.reduce_tasks.is_none()),
            ("--input-bytes", self.input.is_none()),
            ("--shuffle-bytes", self.shuffle.is_none()),
            ("--output-bytes", self.output.is_none()),
        ]
        .iter()
        .filter(|(_, m)| *m)
        .map(|(f, _)| *f)
        .collect();
        if !missing.is_empty() {
            return Err(Failure::usage(format!(
                "the job to estimate needs {}",
                missing.join(", ")
            )));
        }
        Ok(Some(JobFeatures {
            map_tasks: self.map_tasks,
            reduce_tasks: self.reduce_tasks,
            input_bytes: self.input.unwrap_or(0.0),
            shuffle_bytes: self.shuffle.unwrap_or(0.0),
            output_bytes: self.output.unwrap_or(0.0),
        }))
    }
}

/// Seconds with sensible precision.
pub(crate) fn secs(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// The job's line and the per-phase, per-method table of an estimate;
/// `used` marks the method a quote plans with (`*`).
pub(crate) fn estimate_table(
    out: &mut String,
    e: &JobEstimate,
    f: &JobFeatures,
    used: Option<Method>,
) {
    let _ = writeln!(
        out,
        "job {}: {} map tasks, {} reduce tasks, {} input, {} shuffle, {} output bytes",
        e.job.as_deref().unwrap_or("(unnamed)"),
        f.map_tasks.unwrap_or(0),
        f.reduce_tasks.unwrap_or(0),
        f.input_bytes,
        f.shuffle_bytes,
        f.output_bytes
    );
    let pct = format!("{}% PI (s)", e.level * 100.0);
    let _ = writeln!(
        out,
        "{:<7} {:<9} {:>10} {:>10}  {:<24} note",
        "phase", "method", "mean (s)", "σ (s)", pct
    );
    for ph in &e.phases {
        for m in &ph.methods {
            let (mean, sd, pi) = match &m.prediction {
                Some(p) => (
                    secs(p.mean),
                    secs(p.std_dev),
                    format!("[{}, {}]", secs(p.lower), secs(p.upper)),
                ),
                None => ("—".into(), "—".into(), "—".into()),
            };
            let mark = if used == Some(m.method) { "*" } else { "" };
            let _ = writeln!(
                out,
                "{:<7} {:<9} {:>10} {:>10}  {:<24} {}",
                ph.phase.to_string(),
                format!("{}{mark}", m.method),
                mean,
                sd,
                pi,
                m.note.as_deref().unwrap_or("")
            );
        }
    }
}
