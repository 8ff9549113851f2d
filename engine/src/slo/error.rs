//! Why SLO inference could not run: the lowest layer of `slo`, imported by
//! every other file of it.

/// Why SLO inference could not run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SloError {
    /// A setting is out of range.
    #[error("SLO parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: &'static str,
        /// What is wrong.
        why: &'static str,
    },
    /// Nothing to infer from.
    #[error("no job runs are loaded")]
    NoRuns,
    /// A decision is not acceptable.
    #[error("decision on `{job}`: {why}")]
    Decision {
        /// The job.
        job: String,
        /// What is wrong.
        why: String,
    },
}

impl SloError {
    pub(crate) fn param(name: &'static str, why: &'static str) -> Self {
        SloError::Param { name, why }
    }
}
