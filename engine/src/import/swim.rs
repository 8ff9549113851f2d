//! SWIM workload TSV (Facebook Hadoop samples).
//!
//! Six tab-separated columns, no header: job name, submit time (seconds from
//! the start of the trace), gap since the previous submission (seconds), map
//! input bytes, shuffle bytes, reduce output bytes. There are no durations.

use super::csv;
use super::located::FieldError;
use crate::model::{Dataset, JobFeatures, WorkloadJob};

#[derive(Default)]
pub(crate) struct SwimParser {
    jobs: Vec<WorkloadJob>,
}

impl SwimParser {
    pub(crate) fn line(&mut self, line: &str) -> Result<(), FieldError> {
        let mut fields = Vec::with_capacity(6);
        csv::split(line, b'\t', &mut fields)?;
        self.record(line, &fields)
    }

    fn record(&mut self, line: &str, f: &[csv::Field<'_>]) -> Result<(), FieldError> {
        if f.len() != 6 {
            return Err(FieldError::at(
                1,
                format!(
                    "expected 6 tab-separated fields (name, submit, gap, input, shuffle, output bytes), found {}",
                    f.len()
                ),
            ));
        }
        let name = f[0].text.trim();
        if name.is_empty() {
            return Err(FieldError::at(1, "empty job name"));
        }
        let submit = csv::count(line, &f[1], "submit time (s)")?;
        csv::count(line, &f[2], "inter-arrival gap (s)")?;
        let bytes = |k: usize, what: &str| -> Result<f64, FieldError> {
            Ok(csv::count(line, &f[k], what)? as f64)
        };
        self.jobs.push(WorkloadJob {
            name: name.to_string(),
            submit: submit.min(i64::MAX as u64) as i64,
            features: JobFeatures {
                map_tasks: None,
                reduce_tasks: None,
                input_bytes: bytes(3, "map input bytes")?,
                shuffle_bytes: bytes(4, "shuffle bytes")?,
                output_bytes: bytes(5, "reduce output bytes")?,
            },
            map_secs: None,
            reduce_secs: None,
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
