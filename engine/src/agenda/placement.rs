//! What placing one request gives: its allocation, or why there is none.

use serde::{Deserialize, Serialize};

/// A placement: the allocation of one instance, from `start`. Steps inside
/// it may hold nothing (a stage's gangs need not be contiguous).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// Plan step of the first allocated step (first instance).
    pub start: usize,
    /// Containers per step from `start`.
    pub alloc: Vec<f64>,
}

impl Placement {
    /// The allocation `x` over a window starting at step `a`, trimmed to
    /// its first and last step holding anything.
    pub(crate) fn from_window(a: usize, x: &[f64]) -> Placement {
        const EPS: f64 = 1e-9;
        let first = x.iter().position(|&c| c > EPS).unwrap_or(0);
        let last = x.iter().rposition(|&c| c > EPS).unwrap_or(0);
        Placement {
            start: a + first,
            alloc: x[first..=last.max(first)].to_vec(),
        }
    }
}

/// A request that could not be placed, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rejection {
    /// The request's name.
    pub name: String,
    /// Why, in words.
    pub reason: String,
    /// The plan step where it did not fit, if one was to blame.
    pub step: Option<usize>,
    /// The resource that ran out there (`cores` or `memory`).
    pub resource: Option<String>,
}

impl Rejection {
    pub(crate) fn new(name: &str, reason: impl Into<String>) -> Self {
        Rejection {
            name: name.to_string(),
            reason: reason.into(),
            step: None,
            resource: None,
        }
    }
}
