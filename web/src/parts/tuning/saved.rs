//! What the Tuning panel keeps across a reload, as the `meta` record
//! `tuning`: its settings, the queue tree in force, the parent queue and
//! the YARN file read — the engine's [`TuningState`], which a workspace
//! bundle carries too. Runs are not kept: a run is redone, seeded, on
//! demand.

use skyplan_engine::bundle::TuningState;

/// The record's version; a record of another version is not read back.
pub const SAVED_VERSION: u32 = 1;

crate::store::panel_record!(
    /// The Tuning panel's saved state.
    SavedTuning { tuning: TuningState },
    "tuning",
    "Tuning panel's settings",
    SAVED_VERSION
);
