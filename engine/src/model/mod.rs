//! The engine's data model: everything the five parts of the product analyse.
//!
//! - [`JobRun`] with its [`Skyline`]: one run of a (possibly recurring) job,
//!   with provenance times — Morpheus SLOs, skylines and the agenda.
//! - [`UtilizationSeries`]: a server's or tenant's utilization of one
//!   [`Resource`] over time — harvesting classes and resource shaping.
//! - [`WorkloadJob`] with [`JobFeatures`]: a job's size features and phase
//!   durations — MRM processing-time estimates and scheduler tuning.
//! - [`Dataset`]: the records one file contributed, by kind.
//!
//! The model is the bottom of the data flow: it imports no other part (the
//! loaded files and the workspace that keeps them sit above `import`, in
//! [`crate::import::LoadedFile`] and [`crate::workspace`]). This file only
//! declares the model's files and re-exports their types.

mod dataset;
mod features;
mod resources;
mod run;
mod series;
mod skyline;
mod timestamp;

pub use dataset::Dataset;
pub use features::{JobFeatures, WorkloadJob};
pub use resources::{ContainerSize, Resource};
pub use run::JobRun;
pub use series::UtilizationSeries;
pub use skyline::Skyline;
pub use timestamp::Timestamp;
