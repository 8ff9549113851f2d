//! Traces: loading files (drag-and-drop, picker, the demo), what is loaded,
//! import problems, and charts of the loaded runs and series.

pub mod charts;
pub mod desk;
pub mod host;
pub mod panel;
pub mod problems;
pub mod protocol;
pub mod views;
