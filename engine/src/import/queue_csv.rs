//! A pricing queue as CSV: the jobs already admitted, each with its planned
//! work and committed deadline (what `skyplan quote` prices a new job
//! against, and the studio's Pricing panel exports). The inverse of
//! [`crate::export::queue_csv`].
//!
//! Header (any order, case-insensitive), every column required: `name`,
//! `map_work`, `reduce_work` (slot-seconds: the PI upper bound of the phase
//! times the slots its tasks occupy, see [`crate::pricing::work`]) and
//! `deadline` (seconds from now, the instant the queue is quoted at).
//! Numbers are finite and ≥ 0; names are non-empty and unique. Every bad line
//! is reported with its line and column; a bad header stops the reading.

use super::csv;
use super::located::{column_of, FieldError, ParseError};
use crate::pricing::QueuedJob;
use std::collections::HashSet;

/// Columns in the order [`crate::export::queue_csv`] writes them.
pub const QUEUE_COLUMNS: [&str; 4] = ["name", "map_work", "reduce_work", "deadline"];

/// Reads a queue CSV (`file` names it in errors). Strict: any bad line
/// refuses the file, and every bad line is returned.
pub fn read_queue_csv(file: &str, text: &str) -> Result<Vec<QueuedJob>, Vec<ParseError>> {
    let mut names = HashSet::new();
    csv::read_rows(
        file,
        text,
        &QUEUE_COLUMNS,
        &QUEUE_COLUMNS,
        |line, fields, h| {
            let field = |k: usize| &fields[h.pos[k].unwrap_or(0)];
            let value = |k: usize| -> Result<f64, FieldError> {
                let f = field(k);
                let v = csv::number(line, f, QUEUE_COLUMNS[k])?;
                if v < 0.0 {
                    return Err(FieldError::at(
                        column_of(line, f.offset),
                        format!("{} must not be negative", QUEUE_COLUMNS[k]),
                    ));
                }
                Ok(v)
            };
            let name = field(0).text.trim().to_string();
            if name.is_empty() {
                return Err(FieldError::at(
                    column_of(line, field(0).offset),
                    "name is required",
                ));
            }
            let job = QueuedJob {
                map_work: value(1)?,
                reduce_work: value(2)?,
                deadline: value(3)?,
                name,
            };
            if !names.insert(job.name.clone()) {
                return Err(FieldError::at(
                    column_of(line, field(0).offset),
                    format!("job `{}` appears twice", job.name),
                ));
            }
            Ok(job)
        },
    )
}
