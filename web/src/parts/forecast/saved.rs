//! What the forecast card keeps across a reload, as the `meta` record
//! `forecast`: its settings, the series shown and the method whose band is
//! drawn — the engine's [`ForecastState`], which a workspace bundle carries
//! too. The forecasts themselves are redone on demand.

use skyplan_engine::bundle::ForecastState;

/// The record's version; a record of another version is not read back.
pub const SAVED_VERSION: u32 = 1;

crate::store::panel_record!(
    /// The forecast card's saved state.
    SavedForecast { forecast: ForecastState },
    "forecast",
    "forecast settings",
    SAVED_VERSION
);
