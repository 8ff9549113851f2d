//! What can be wrong with a tuning request, and the range check at the
//! edge. The bottom of `tuning`.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// What can be wrong with a tuning request. Every variant names the thing
/// at fault, so the CLI and the studio can point at it.
#[derive(Clone, Debug, Error, PartialEq, Serialize, Deserialize)]
pub enum TuneError {
    /// A parameter out of its range.
    #[error("{name}: {why}")]
    BadParam {
        /// The parameter.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// A job that cannot be scheduled as given.
    #[error("job {index} ({name}): {why}")]
    BadJob {
        /// Position in the input.
        index: usize,
        /// Its name.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// A configuration that cannot be applied.
    #[error("configuration: {0}")]
    BadConfig(String),
    /// Not enough containers for the groups' lower bounds (Algorithm 3, line 1).
    #[error("the groups' lower bounds need {needed} containers, the cluster has {available}")]
    TooFewContainers {
        /// Σ r_i^Lower.
        needed: u64,
        /// R.
        available: u64,
    },
    /// The window of history jobs the panel tunes cannot be cut
    /// ([`super::panel::window_groups`]).
    #[error("{0}")]
    Window(String),
}

/// Checks that `v` is finite and within `[lo, hi]`.
pub(crate) fn check_range(name: &str, v: f64, lo: f64, hi: f64) -> Result<(), TuneError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(TuneError::BadParam {
            name: name.into(),
            why: format!("{v} is not in [{lo}, {hi}]"),
        })
    }
}
