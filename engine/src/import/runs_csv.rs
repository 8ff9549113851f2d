//! skyplan's job-runs CSV: one run per line, with provenance times and the
//! run's skyline. It is what the demo fixtures and the exports use.
//!
//! Header (any order, case-insensitive): `job`, `submit`, `start`, `end`,
//! `skyline` are required; `instance`, `input_available`, `output_first_read`,
//! `container_cores` (default 1), `container_memory_mb` (default 1024) and
//! `step_secs` (default 60) are optional. Times are epoch seconds or
//! `YYYY-MM-DD HH:MM:SS` UTC; an empty optional time means unknown. `skyline`
//! is the container count per step from `start`, separated by `;` or spaces.

use super::csv;
use super::located::{column_of, FieldError};
use crate::model::{ContainerSize, Dataset, JobRun, Skyline};
use crate::time::parse_timestamp;

/// Columns in the order [`crate::export::runs_csv`] writes them.
pub const COLUMNS: [&str; 11] = [
    "job",
    "instance",
    "submit",
    "start",
    "end",
    "input_available",
    "output_first_read",
    "container_cores",
    "container_memory_mb",
    "step_secs",
    "skyline",
];
const REQUIRED: [&str; 5] = ["job", "submit", "start", "end", "skyline"];
const JOB: usize = 0;
const INSTANCE: usize = 1;
const SUBMIT: usize = 2;
const START: usize = 3;
const END: usize = 4;
const INPUT: usize = 5;
const READ: usize = 6;
const CORES: usize = 7;
const MEMORY: usize = 8;
const STEP: usize = 9;
const SKYLINE: usize = 10;

/// Longest skyline accepted, in samples.
pub(crate) const MAX_SAMPLES: usize = 1 << 20;

pub(crate) struct RunsCsvParser {
    header: Option<csv::Header>,
    runs: Vec<JobRun>,
}

impl RunsCsvParser {
    pub(crate) fn new(_lenient: bool) -> Self {
        RunsCsvParser {
            header: None,
            runs: Vec::new(),
        }
    }

    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        let mut fields = Vec::with_capacity(COLUMNS.len());
        csv::split(line, b',', &mut fields)?;
        let Some(header) =
            csv::header_or_width(&mut self.header, line, &fields, &COLUMNS, &REQUIRED)?
        else {
            return Ok(());
        };
        let field = |k: usize| header.pos[k].map(|i| &fields[i]);
        let req = |k: usize| field(k).ok_or_else(|| FieldError::at(1, "missing field"));
        let time = |k: usize| -> Result<Option<i64>, FieldError> {
            match field(k) {
                None => Ok(None),
                Some(f) if f.text.trim().is_empty() => Ok(None),
                Some(f) => parse_timestamp(&f.text).map(Some).map_err(|e| {
                    FieldError::at(column_of(line, f.offset), format!("{}: {e}", COLUMNS[k]))
                }),
            }
        };
        let need = |k: usize| -> Result<i64, FieldError> {
            time(k)?.ok_or_else(|| {
                FieldError::at(
                    field(k).map(|f| column_of(line, f.offset)).unwrap_or(1),
                    format!("{} is required", COLUMNS[k]),
                )
            })
        };
        let job = req(JOB)?;
        if job.text.trim().is_empty() {
            return Err(FieldError::at(
                column_of(line, job.offset),
                "empty job name",
            ));
        }
        let (submit, start, end) = (need(SUBMIT)?, need(START)?, need(END)?);
        if start < submit {
            let f = req(START)?;
            return Err(FieldError::at(
                column_of(line, f.offset),
                format!("start {start} is before submit {submit}"),
            ));
        }
        if end < start {
            let f = req(END)?;
            return Err(FieldError::at(
                column_of(line, f.offset),
                format!("end {end} is before start {start}"),
            ));
        }
        let positive = |k: usize, default: f64| -> Result<f64, FieldError> {
            match field(k) {
                Some(f) if !f.text.trim().is_empty() => {
                    let v = csv::number(line, f, COLUMNS[k])?;
                    if v <= 0.0 {
                        return Err(FieldError::at(
                            column_of(line, f.offset),
                            format!("{} must be positive, got {v}", COLUMNS[k]),
                        ));
                    }
                    Ok(v)
                }
                _ => Ok(default),
            }
        };
        let cores = positive(CORES, 1.0)?;
        let memory_mb = positive(MEMORY, 1024.0)?;
        let step = match field(STEP) {
            Some(f) if !f.text.trim().is_empty() => {
                let v = csv::count(line, f, "step_secs")?;
                if v == 0 || v > u64::from(u32::MAX) {
                    return Err(FieldError::at(
                        column_of(line, f.offset),
                        format!("step_secs must be between 1 and {}", u32::MAX),
                    ));
                }
                v as u32
            }
            _ => 60,
        };
        let sky = req(SKYLINE)?;
        let containers = csv::samples(line, sky, "skyline", MAX_SAMPLES)?;
        if containers.is_empty() {
            return Err(FieldError::at(
                column_of(line, sky.offset),
                "skyline is empty",
            ));
        }
        let instance = field(INSTANCE)
            .map(|f| f.text.trim().to_string())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format!("{}@{submit}", job.text.trim()));
        self.runs.push(JobRun {
            job: job.text.trim().to_string(),
            instance,
            submit,
            start,
            end,
            input_available: time(INPUT)?,
            output_first_read: time(READ)?,
            container: ContainerSize { cores, memory_mb },
            skyline: Skyline::new(step, containers),
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
