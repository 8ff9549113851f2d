//! What the Runway panel keeps across a reload, as the `meta` record
//! `runway`: its settings — the engine's [`RunwayState`], which a workspace
//! bundle carries too (the report then plans with them). The runway itself
//! is computed again.

use skyplan_engine::bundle::RunwayState;

/// The record's version; a record of another version is not read back.
pub const SAVED_VERSION: u32 = 1;

crate::store::panel_record!(
    /// The Runway panel's saved settings.
    SavedRunway { runway: RunwayState },
    "runway",
    "runway settings",
    SAVED_VERSION
);
