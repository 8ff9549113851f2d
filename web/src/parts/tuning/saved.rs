//! What the Tuning panel keeps across a reload, as the `meta` record
//! `tuning`: its settings, the queue tree in force, the parent queue and
//! the YARN file read — the engine's [`TuningState`], which a workspace
//! bundle carries too. Runs are not kept: a run is redone, seeded, on
//! demand.

use crate::store::{MetaRecord, PanelRecord};
use serde::{Deserialize, Serialize};
use skyplan_engine::bundle::TuningState;

/// The record's version; a record of another version is not read back.
pub const SAVED_VERSION: u32 = 1;

/// The Tuning panel's saved state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedTuning {
    version: u32,
    tuning: TuningState,
}

impl MetaRecord for SavedTuning {
    const KEY: &'static str = "tuning";
    const WHAT: &'static str = "Tuning panel's settings";
    const VERSION: u32 = SAVED_VERSION;
    fn version(&self) -> u32 {
        self.version
    }
}

impl PanelRecord for SavedTuning {
    type State = TuningState;
    fn of_state(tuning: TuningState) -> Self {
        SavedTuning {
            version: SAVED_VERSION,
            tuning,
        }
    }
    fn into_state(self) -> TuningState {
        self.tuning
    }
}
