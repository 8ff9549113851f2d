//! Why a runway cannot be computed: every bad input named in one line, so
//! the CLI, the studio and the report print it as it is — never a panic,
//! never an invented date.

/// A runway that cannot be computed, and why.
#[derive(Clone, Debug, PartialEq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum RunwayError {
    /// A setting is out of range (NaN, negative, absurd); names the setting.
    #[error("{0}: {1}")]
    Param(String, String),
    /// The history is too short to fit a trend on.
    #[error(
        "the {resource} series has {days} whole day(s) of history; a trend needs at least {needed} (set growth by hand with --growth, or load a longer series)"
    )]
    TooShort {
        /// The resource whose series is short.
        resource: String,
        /// Whole days seen.
        days: usize,
        /// Whole days needed.
        needed: usize,
    },
    /// Nothing in the workspace has a limit to run out of.
    #[error("nothing to plan against: load a utilization series, admit SLO jobs to the agenda or load a pricing queue")]
    NoDemand,
    /// The cluster's size is unknown (no utilization series to count
    /// servers in, and no size given).
    #[error("the cluster's size is unknown: {0}")]
    Cluster(String),
    /// The growth model could not be fitted.
    #[error("the growth model could not be fitted on the {0} series: {1}")]
    Fit(String, String),
    /// A lever's own engine call failed.
    #[error("the {0} lever: {1}")]
    Lever(String, String),
    /// A backtest has nothing to score.
    #[error("backtest: {0}")]
    Backtest(String),
}

impl RunwayError {
    /// A setting out of range.
    pub fn param(name: &str, why: impl Into<String>) -> Self {
        RunwayError::Param(name.to_string(), why.into())
    }
}
