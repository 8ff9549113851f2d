//! The harvesting module's typed errors: bad parameters, bad inputs (with
//! their location when they come from a file), cyclic DAGs.

use crate::import::ParseError;

/// What went wrong in the harvesting module.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HarvestError {
    /// A parameter is out of its range.
    #[error("harvest parameter `{name}` {why}")]
    Invalid {
        /// The parameter.
        name: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A file read whole holds nothing usable.
    #[error("{file}: {why}")]
    File {
        /// The file's name.
        file: String,
        /// What it lacks.
        why: String,
    },
    /// A file has bad lines (every one is listed).
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
    Parse(Vec<ParseError>),
    /// A tenant's series is empty or has no usable value.
    #[error("tenant `{tenant}` has no utilization samples")]
    EmptySeries {
        /// The tenant.
        tenant: String,
    },
    /// A value is NaN or infinite.
    #[error("{what}: value {index} is not a finite number")]
    NotFinite {
        /// Which series or input.
        what: String,
        /// 0-based sample index.
        index: usize,
    },
    /// A series or a job names a tenant or class that is not known.
    #[error("{what}: unknown tenant `{tenant}`")]
    UnknownTenant {
        /// Where it was named (a series, a file line).
        what: String,
        /// The name.
        tenant: String,
    },
    /// A job's DAG has a cycle.
    #[error("job `{job}`: the DAG has a cycle through vertex `{vertex}`")]
    CyclicDag {
        /// The job.
        job: String,
        /// A vertex on the cycle.
        vertex: String,
    },
    /// A DAG is malformed (unknown vertex in an edge, duplicate vertex, no
    /// vertex).
    #[error("job `{job}`: {why}")]
    BadDag {
        /// The job.
        job: String,
        /// What is wrong.
        why: String,
    },
    /// The blocks' replicas do not fit in the space the servers offer.
    #[error(
        "the cluster is full: {needed} replicas are needed, the servers offer room for {capacity}"
    )]
    ClusterFull {
        /// Replicas needed (blocks × R).
        needed: u64,
        /// Replicas the servers can hold.
        capacity: u64,
    },
    /// A replica has nowhere to go (no server with room in an unused
    /// environment, or the writer is full).
    #[error("block {block}, replica {replica}: {why}")]
    Unplaceable {
        /// 0-based block.
        block: u64,
        /// 1-based replica.
        replica: usize,
        /// What is missing.
        why: String,
    },
}

impl From<Vec<ParseError>> for HarvestError {
    fn from(e: Vec<ParseError>) -> Self {
        HarvestError::Parse(e)
    }
}

/// `Err(Invalid)` unless `ok`.
pub(crate) fn check(ok: bool, name: &'static str, why: &str) -> Result<(), HarvestError> {
    if ok {
        Ok(())
    } else {
        Err(HarvestError::Invalid {
            name,
            why: why.into(),
        })
    }
}
