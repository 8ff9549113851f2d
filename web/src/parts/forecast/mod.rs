//! Forecast (resource-shaping paper §III-A, §V): a utilization series'
//! rolling one-step forecasts over its history and its forecast ahead, by
//! the history-kernel GP, auto-ARIMA and the baselines, with the coverage
//! and width of their prediction intervals. Shown in the Traces panel under
//! the chart of a series.

pub mod protocol;
page_side! {
    pub mod charts;
    pub mod desk;
    pub mod panel;
}
worker_side! {
    pub mod host;
    pub mod saved;
    pub mod views;
}
