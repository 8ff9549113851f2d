//! The engine's data model: everything the five parts of the product analyse.
//!
//! - [`JobRun`] with its [`Skyline`]: one run of a (possibly recurring) job,
//!   with provenance times — Morpheus SLOs, skylines and the agenda.
//! - [`UtilizationSeries`]: a server's or tenant's utilization of one
//!   [`Resource`] over time — harvesting classes and resource shaping.
//! - [`WorkloadJob`] with [`JobFeatures`]: a job's size features and phase
//!   durations — MRM processing-time estimates and scheduler tuning.
//! - [`Workspace`]: what has been loaded, file by file, so a file can be removed
//!   again and its provenance shown.

mod features;
mod resources;
mod run;
mod series;
mod skyline;
mod workspace;

pub use features::{JobFeatures, WorkloadJob};
pub use resources::{ContainerSize, Resource};
pub use run::JobRun;
pub use series::UtilizationSeries;
pub use skyline::Skyline;
pub use workspace::{
    Dataset, FileSummary, LoadedFile, Workspace, WorkspaceSummary, RELATIVE_TIME_BEFORE,
};

/// A point in time: seconds since the Unix epoch, UTC (or since the start of
/// the trace for traces that only carry relative times, such as SWIM).
pub type Timestamp = i64;
