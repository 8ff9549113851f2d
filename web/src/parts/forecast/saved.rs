//! What the forecast card keeps across a reload, as the `meta` record
//! `forecast`: its settings, the series shown and the method whose band is
//! drawn — the engine's [`ForecastState`], which a workspace bundle carries
//! too. The forecasts themselves are redone on demand.

use crate::store::{MetaRecord, PanelRecord};
use serde::{Deserialize, Serialize};
use skyplan_engine::bundle::ForecastState;

/// The record's version; a record of another version is not read back.
pub const SAVED_VERSION: u32 = 1;

/// The forecast card's saved state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedForecast {
    version: u32,
    forecast: ForecastState,
}

impl MetaRecord for SavedForecast {
    const KEY: &'static str = "forecast";
    const WHAT: &'static str = "forecast settings";
    const VERSION: u32 = SAVED_VERSION;
    fn version(&self) -> u32 {
        self.version
    }
}

impl PanelRecord for SavedForecast {
    type State = ForecastState;
    fn of_state(forecast: ForecastState) -> Self {
        SavedForecast {
            version: SAVED_VERSION,
            forecast,
        }
    }
    fn into_state(self) -> ForecastState {
        self.forecast
    }
}
