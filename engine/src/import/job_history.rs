//! skyplan's job-history CSV: one finished MapReduce job per line with its
//! size features and phase durations — the training data of MRM's
//! processing-time estimators (§3.2, `crate::estimate`).
//!
//! Header (any order, case-insensitive), every column required: `job`,
//! `submit`, `map_tasks`, `reduce_tasks`, `input_bytes`, `shuffle_bytes`,
//! `output_bytes`, `map_secs`, `reduce_secs`. `submit` is epoch seconds (or
//! seconds from the trace start: a file whose submits are all before 1980 is
//! taken as trace-relative, [`crate::import::LoadedFile::relative_time`]) or
//! `YYYY-MM-DD HH:MM:SS` UTC; task counts are
//! non-negative integers; bytes and seconds non-negative finite numbers.
//! `reduce_secs` is the shuffle and reduce phases together (as the paper's
//! Table 2 "Reduce"), 0 for a map-only job.

use super::csv;
use super::located::{column_of, FieldError};
use crate::model::{Dataset, JobFeatures, WorkloadJob};
use crate::time::parse_timestamp;

/// Columns in the order [`crate::export::job_history_csv`] writes them.
pub const COLUMNS: [&str; 9] = [
    "job",
    "submit",
    "map_tasks",
    "reduce_tasks",
    "input_bytes",
    "shuffle_bytes",
    "output_bytes",
    "map_secs",
    "reduce_secs",
];
const JOB: usize = 0;
const SUBMIT: usize = 1;
const MAP_TASKS: usize = 2;
const REDUCE_TASKS: usize = 3;
const INPUT: usize = 4;
const SHUFFLE: usize = 5;
const OUTPUT: usize = 6;
const MAP_SECS: usize = 7;
const REDUCE_SECS: usize = 8;

pub(crate) struct JobHistoryParser {
    header: Option<csv::Header>,
    jobs: Vec<WorkloadJob>,
}

impl JobHistoryParser {
    pub(crate) fn new() -> Self {
        JobHistoryParser {
            header: None,
            jobs: Vec::new(),
        }
    }

    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        let mut fields = Vec::with_capacity(COLUMNS.len());
        csv::split(line, b',', &mut fields)?;
        let Some(header) =
            csv::header_or_width(&mut self.header, line, &fields, &COLUMNS, &COLUMNS)?
        else {
            return Ok(());
        };
        // Every column is required, so the header maps each one to a field.
        let field = |k: usize| &fields[header.pos[k].unwrap_or(0)];
        let job = field(JOB);
        let name = job.text.trim();
        if name.is_empty() {
            return Err(FieldError::at(
                column_of(line, job.offset),
                "empty job name",
            ));
        }
        let submit = parse_timestamp(&field(SUBMIT).text).map_err(|e| {
            FieldError::at(
                column_of(line, field(SUBMIT).offset),
                format!("submit: {e}"),
            )
        })?;
        let tasks = |k: usize| -> Result<u32, FieldError> {
            let f = field(k);
            let v = csv::count(line, f, COLUMNS[k])?;
            u32::try_from(v).map_err(|_| {
                FieldError::at(
                    column_of(line, f.offset),
                    format!("{}: {v} is more than {} tasks", COLUMNS[k], u32::MAX),
                )
            })
        };
        let amount = |k: usize| -> Result<f64, FieldError> {
            let f = field(k);
            let v = csv::number(line, f, COLUMNS[k])?;
            if v < 0.0 {
                return Err(FieldError::at(
                    column_of(line, f.offset),
                    format!("{} must not be negative, got {v}", COLUMNS[k]),
                ));
            }
            Ok(v)
        };
        self.jobs.push(WorkloadJob {
            name: name.to_string(),
            submit,
            features: JobFeatures {
                map_tasks: Some(tasks(MAP_TASKS)?),
                reduce_tasks: Some(tasks(REDUCE_TASKS)?),
                input_bytes: amount(INPUT)?,
                shuffle_bytes: amount(SHUFFLE)?,
                output_bytes: amount(OUTPUT)?,
            },
            map_secs: Some(amount(MAP_SECS)?),
            reduce_secs: Some(amount(REDUCE_SECS)?),
        });
        Ok(())
    }

    pub(crate) fn finish(self) -> Dataset {
        Dataset {
            workload: self.jobs,
            ..Dataset::default()
        }
    }
}
