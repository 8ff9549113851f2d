//! What Algorithm 1 answers, in either reading: each job's waiting,
//! execution and latency with its allocations, and their mean (line 16).
//! Below both readings, so neither depends on the other.

use super::exec_time::Allocation;
use serde::{Deserialize, Serialize};

/// One job's estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobLatency {
    /// Its name.
    pub name: String,
    /// Its queue.
    pub queue: usize,
    /// Waiting time `w_v`, seconds.
    pub wait_secs: f64,
    /// Execution time `e_v`, seconds.
    pub exec_secs: f64,
    /// Latency `l_v = w_v + e_v`, seconds.
    pub latency_secs: f64,
    /// Its allocations `R_v^job`.
    pub allocations: Vec<Allocation>,
}

/// Algorithm 1's answer for one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyReport {
    /// Mean job latency (line 16), seconds.
    pub mean_latency_secs: f64,
    /// Per job, in input order.
    pub jobs: Vec<JobLatency>,
}

/// Line 16: the mean over the jobs' estimates.
pub(crate) fn report(jobs: impl Iterator<Item = JobLatency>) -> LatencyReport {
    let out: Vec<JobLatency> = jobs.collect();
    let mean = if out.is_empty() {
        0.0
    } else {
        out.iter().map(|j| j.latency_secs).sum::<f64>() / out.len() as f64
    };
    LatencyReport {
        mean_latency_secs: mean,
        jobs: out,
    }
}
