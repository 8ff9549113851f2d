//! Why a shaping run could not be made: typed, with the offending setting
//! or application named, so the CLI and the panel can say what to fix.

use serde::{Deserialize, Serialize};

/// An error of the shaping module.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize)]
pub enum ShapingError {
    /// A setting is out of range (NaN, negative, zero where it must not be).
    #[error("shaping parameter `{name}` {why}")]
    Param {
        /// The setting.
        name: String,
        /// What is wrong.
        why: String,
    },
    /// The cluster has no hosts, or hosts without capacity.
    #[error("the cluster is empty: {0}")]
    EmptyCluster(String),
    /// The workload has no applications.
    #[error("the workload has no applications")]
    EmptyWorkload,
    /// An application is malformed (no components, bad numbers, usage out
    /// of [0, 1], …).
    #[error("application `{app}`: {why}")]
    Application {
        /// The application's name.
        app: String,
        /// What is wrong.
        why: String,
    },
    /// An application can never run: one of its components is larger than
    /// any host, or its core components do not fit even the empty cluster.
    #[error("application `{app}` can never run: {why}")]
    Infeasible {
        /// The application's name.
        app: String,
        /// Why.
        why: String,
    },
    /// Input files could not be read (every located error, `file:line:col:
    /// reason`).
    #[error("{}", .0.join("\n"))]
    Input(Vec<String>),
}

impl ShapingError {
    pub(crate) fn param(name: &str, why: impl Into<String>) -> Self {
        ShapingError::Param {
            name: name.to_string(),
            why: why.into(),
        }
    }

    pub(crate) fn app(app: &str, why: impl Into<String>) -> Self {
        ShapingError::Application {
            app: app.to_string(),
            why: why.into(),
        }
    }
}

/// Checks that `value` is finite and ≥ 0.
pub(crate) fn non_negative(name: &str, value: f64) -> Result<(), ShapingError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(ShapingError::param(
            name,
            format!("must be a finite number ≥ 0, got {value}"),
        ))
    }
}

/// Checks that `value` is finite and > 0.
pub(crate) fn positive(name: &str, value: f64) -> Result<(), ShapingError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(ShapingError::param(
            name,
            format!("must be a finite number > 0, got {value}"),
        ))
    }
}
