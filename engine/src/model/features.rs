//! Job size features and phase durations (MRM §3, SWIM traces).

use super::Timestamp;
use serde::{Deserialize, Serialize};

/// Size features of a MapReduce-style job, the regressors of MRM's
/// processing-time model. Counts unknown to a trace are `None`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobFeatures {
    /// Number of map tasks.
    pub map_tasks: Option<u32>,
    /// Number of reduce tasks.
    pub reduce_tasks: Option<u32>,
    /// Map input, bytes.
    pub input_bytes: f64,
    /// Shuffle (map output), bytes.
    pub shuffle_bytes: f64,
    /// Reduce output, bytes.
    pub output_bytes: f64,
}

impl JobFeatures {
    /// Map reduction factor: shuffle bytes per input byte (0 without input).
    pub fn map_reduction(&self) -> f64 {
        if self.input_bytes > 0.0 {
            self.shuffle_bytes / self.input_bytes
        } else {
            0.0
        }
    }

    /// Reduce reduction factor: output bytes per shuffle byte (0 without shuffle).
    pub fn reduce_reduction(&self) -> f64 {
        if self.shuffle_bytes > 0.0 {
            self.output_bytes / self.shuffle_bytes
        } else {
            0.0
        }
    }
}

/// A job of a workload trace: when it arrived, how big it is and, when the
/// trace knows, how long its phases took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadJob {
    /// Job name as traced.
    pub name: String,
    /// Submission time.
    pub submit: Timestamp,
    /// Size features.
    pub features: JobFeatures,
    /// Map phase duration, seconds, if traced.
    pub map_secs: Option<f64>,
    /// Reduce phase duration, seconds, if traced.
    pub reduce_secs: Option<f64>,
}
