//! One run of a job.

use super::{ContainerSize, Skyline, Timestamp};
use serde::{Deserialize, Serialize};

/// One run (instance) of a job, with the provenance times Morpheus uses to
/// infer SLOs (§4): when its input became available and when its output was
/// first read, where the trace knows them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRun {
    /// Job name as traced: the recurring job's template name when the trace
    /// normalizes it (Hadoop's `NormalizedJobName`), otherwise the raw name.
    pub job: String,
    /// This run's own id (Hadoop's `JobInstanceName`).
    pub instance: String,
    /// Submission time.
    pub submit: Timestamp,
    /// Time the first container started.
    pub start: Timestamp,
    /// Time the last container finished.
    pub end: Timestamp,
    /// Time the last input became available, if traced.
    pub input_available: Option<Timestamp>,
    /// Time the output was first read by a consumer, if traced.
    pub output_first_read: Option<Timestamp>,
    /// The container the skyline counts in.
    pub container: ContainerSize,
    /// Containers in use from `start`, on a fixed step.
    pub skyline: Skyline,
}

impl JobRun {
    /// Wall-clock run time, `end − start`, in seconds.
    pub fn runtime_secs(&self) -> i64 {
        self.end - self.start
    }

    /// Slack between the end of the run and the first read of its output.
    pub fn read_slack_secs(&self) -> Option<i64> {
        self.output_first_read.map(|r| r - self.end)
    }
}
