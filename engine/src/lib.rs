//! The skyplan engine: every algorithm of the studio, as pure Rust with no I/O.
//!
//! Data flows one way: text → [`import`] → [`model`] → analysis → view. The
//! engine never reads files, clocks or the network: callers hand it bytes and
//! parameters and get plain serde-serializable data back, so the same code runs
//! natively (the `skyplan` CLI, benchmarks) and as WebAssembly in the studio's
//! Web Worker.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod agenda;
pub mod bundle;
pub mod csv_cell;
pub mod estimate;
pub mod export;
pub mod fixtures;
pub mod forecast;
pub mod harvest;
pub mod import;
pub mod model;
pub mod netflow;
pub mod numerics;
pub mod parallel;
pub mod pricing;
pub mod resource_model;
pub mod runway;
pub mod shaping;
pub mod slo;
pub mod sweep;
pub mod time;
pub mod tuning;
pub mod workspace;

pub use import::{
    import, FileSummary, Format, ImportError, ImportOptions, Importer, LoadedFile, ParseError,
};
pub use model::{
    ContainerSize, Dataset, JobFeatures, JobRun, Resource, Skyline, Timestamp, UtilizationSeries,
    WorkloadJob,
};
pub use workspace::{Workspace, WorkspaceSummary};
