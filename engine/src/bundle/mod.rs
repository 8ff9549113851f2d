//! The workspace bundle: everything the studio keeps — the loaded files, the
//! SLO decisions and each panel's state — in one compressed, versioned file
//! (`name.skyplan`) that a colleague opens to carry on, the studio and the
//! CLI alike (`skyplan bundle`, `skyplan report`).
//!
//! - `panels`: each panel's state as the bundle (and the studio's storage)
//!   keeps it: plain data, the same types in the studio and the CLI.
//! - `format`: the bytes — gzip of a header line, a JSON manifest and the
//!   files' bytes — written by [`encode`] and read back by [`decode`], which
//!   refuses a foreign, truncated, corrupt or newer file with a reason.
//! - `migrate`: the steps that bring an older bundle to this version
//!   ([`BUNDLE_VERSION`]).

mod error;
mod format;
mod migrate;
mod panels;
mod state;

pub use error::BundleError;
pub use format::{decode, encode, BUNDLE_EXTENSION, MAGIC};
pub use migrate::{BUNDLE_VERSION, UNKNOWN_REASON};
pub use panels::{
    AdmittedJob, AgendaState, ForecastSettings, ForecastState, HarvestState, PricingSettings,
    PricingState, RunwayState, ShapingFiles, ShapingSettings, ShapingState, TuningSettings,
    TuningState, WorkloadFile, WorkloadSource, DEFAULT_GRID_APPS, DEFAULT_SHAPING_APPS,
    DEFAULT_SHAPING_HOSTS,
};
pub use state::{keeps_records, Bundle, BundleFile, KEEP_RECORDS_ABOVE};

#[cfg(test)]
mod format_tests;
