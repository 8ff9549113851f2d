//! Why a bundle cannot be opened or written.

/// A bundle refused, in words a planner can act on. Opening never changes
/// the workspace in use: the caller keeps it when this comes back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BundleError {
    /// Not a bundle at all: another kind of file.
    #[error("{0} is not a skyplan workspace bundle: {1}")]
    Foreign(String, String),
    /// Cut short: a download or a copy that did not finish.
    #[error("{0} is truncated ({1}); ask for the bundle again")]
    Truncated(String, String),
    /// Damaged: the compressed data or the manifest does not read.
    #[error("{0} is corrupt: {1}")]
    Corrupt(String, String),
    /// Written by a newer skyplan than this one.
    #[error("{0} was written by a newer skyplan (bundle version {1}); this build reads versions up to {2}")]
    Newer(String, u32, u32),
    /// What is in it does not hold together (a file without a name, a
    /// setting out of range).
    #[error("{0}: {1}")]
    Invalid(String, String),
}
