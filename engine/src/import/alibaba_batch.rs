//! Alibaba cluster-trace-v2018's batch tables as job runs (the Traces
//! panel's): `batch_task.csv` (9 columns: task_name, instance_num,
//! job_name, task_type, status, start_time, end_time, plan_cpu, plan_mem)
//! and `batch_instance.csv` (14: instance_name, task_name, job_name,
//! task_type, status, start_time, end_time, machine_id, seq_no,
//! total_seq_no, cpu_avg, cpu_max, mem_avg, mem_max), headerless, times in
//! seconds from the trace's start.
//!
//! One run per job with a finished task or instance. Its skyline is, from
//! `batch_instance`, its instances running (one container each); from
//! `batch_task`, each task's `instance_num` containers over the task's
//! span (the table does not say when each instance ran). Containers are
//! the mean `plan_cpu` / 100 cores (`batch_task`) or one core.
//!
//! Job names are per run (`j_1234`), so a **recurring job** is recognised
//! by its plan instead: the same tasks (the DAG their names encode,
//! `M1`, `R2_1`…) with the same instance counts and requests (for
//! `batch_instance`: the same task names) recur across the trace's days.
//! It is named `dag<tasks>_<8 letters>`, the letters a hash of the plan.

use super::concurrency::{Concurrency, MAX_RUN_SECS};
use super::csv::shorten;
use super::located::{column_of, FieldError};
use crate::model::{ContainerSize, Dataset, JobRun};
use std::collections::BTreeMap;

/// Columns of `batch_task.csv`.
pub(crate) const TASK_WIDTH: usize = 9;
/// Columns of `batch_instance.csv`.
pub(crate) const INSTANCE_WIDTH: usize = 14;

/// Whether a first line is a batch table's row (its width, its job name,
/// its status).
pub(crate) fn is_batch_row(line: &str) -> bool {
    let f: Vec<&str> = line.split(',').collect();
    let job_at = match f.len() {
        TASK_WIDTH => 2,
        INSTANCE_WIDTH => 2,
        _ => return false,
    };
    f[job_at].starts_with("j_") && f[4].chars().all(|c| c.is_ascii_alphabetic()) && !f[4].is_empty()
}

/// One job's pieces: intervals (seconds from the trace start) with their
/// containers, and the plan they say.
#[derive(Default)]
struct Job {
    pieces: Vec<(f64, f64, f64)>,
    plan: Vec<String>,
    cores: f64,
    tasks: u32,
}

/// A batch table being read.
pub(crate) struct AlibabaBatch {
    width: Option<usize>,
    jobs: BTreeMap<String, Job>,
}

fn number(line: &str, fields: &[(usize, usize)], k: usize, what: &str) -> Result<f64, FieldError> {
    let (a, b) = fields[k];
    let t = line[a..b].trim();
    if t.is_empty() {
        return Ok(0.0);
    }
    t.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| {
            FieldError::at(
                column_of(line, a),
                format!("{what} `{}` is not a number", shorten(t)),
            )
        })
}

/// Eight letters of a 64-bit FNV-1a hash: stable across builds and free of
/// digits, so the SLO part's templating keeps them.
fn letters(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (0..8)
        .map(|i| char::from(b'a' + ((h >> (i * 8)) % 26) as u8))
        .collect()
}

impl AlibabaBatch {
    /// Nothing read yet.
    pub(crate) fn new() -> AlibabaBatch {
        AlibabaBatch {
            width: None,
            jobs: BTreeMap::new(),
        }
    }

    /// One line of either table (all lines of a file the same table).
    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        let mut f = Vec::with_capacity(INSTANCE_WIDTH);
        if !super::csv::split_ranges(line, b',', &mut f) {
            return Err(FieldError::at(1, "quotes in a batch table line"));
        }
        let width = *self.width.get_or_insert(f.len());
        if f.len() != width || !(width == TASK_WIDTH || width == INSTANCE_WIDTH) {
            return Err(FieldError::at(
                1,
                format!(
                    "expected {width} fields (the trace's schema), found {}",
                    f.len()
                ),
            ));
        }
        let text = |k: usize| line[f[k].0..f[k].1].trim();
        let job = text(2);
        if job.is_empty() {
            return Err(FieldError::at(column_of(line, f[2].0), "empty job_name"));
        }
        let start = number(line, &f, 5, "start_time")?;
        let end = number(line, &f, 6, "end_time")?;
        let entry = self.jobs.entry(job.to_string()).or_default();
        let (containers, plan) = if width == TASK_WIDTH {
            let instances = number(line, &f, 1, "instance_num")?.max(0.0);
            let cpu = number(line, &f, 7, "plan_cpu")?.max(0.0);
            let mem = number(line, &f, 8, "plan_mem")?.max(0.0);
            entry.cores += cpu / 100.0;
            entry.tasks += 1;
            (instances, format!("{}x{instances}c{cpu}m{mem}", text(0)))
        } else {
            (1.0, text(1).to_string())
        };
        if !entry.plan.contains(&plan) {
            entry.plan.push(plan);
        }
        if end > start && start > 0.0 && end - start <= MAX_RUN_SECS {
            entry.pieces.push((start, end, containers));
        }
        Ok(())
    }

    /// One run per job, with notes.
    pub(crate) fn finish(self) -> Dataset {
        let mut data = Dataset::default();
        let mut unfinished = 0u64;
        for (name, mut job) in self.jobs {
            if job.pieces.is_empty() {
                unfinished += 1;
                continue;
            }
            let start = job.pieces.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let end = job.pieces.iter().map(|p| p.1).fold(0.0, f64::max);
            let mut usage = Concurrency::new();
            for &(a, b, c) in &job.pieces {
                usage.add(a - start, b - start, c);
            }
            job.plan.sort();
            let tasks = job.plan.len();
            let cores = if job.tasks > 0 && job.cores > 0.0 {
                job.cores / f64::from(job.tasks)
            } else {
                1.0
            };
            data.runs.push(JobRun {
                job: format!("dag{tasks}_{}", letters(&job.plan.join("|"))),
                instance: name,
                submit: start as i64,
                start: start as i64,
                end: end.ceil() as i64,
                input_available: None,
                output_first_read: None,
                container: ContainerSize {
                    cores,
                    ..ContainerSize::default()
                },
                skyline: usage.skyline(end - start),
            });
        }
        if unfinished > 0 {
            data.notes.push(format!(
                "{unfinished} job(s) with nothing finished left out"
            ));
        }
        data
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_names_are_letters() {
        let a = letters("M1x10c100m0.5");
        assert_eq!(a.len(), 8);
        assert!(a.bytes().all(|b| b.is_ascii_lowercase()));
        assert_eq!(a, letters("M1x10c100m0.5"));
        assert_ne!(a, letters("M1x11c100m0.5"));
        assert!(is_batch_row("M1,10,j_1,1,Terminated,157213,157229,100,0.3"));
        assert!(!is_batch_row("m_1,0,1,2,3,4,5,6,7"));
    }
}
