//! Traces: loading files (drag-and-drop, picker, the demo), what is loaded,
//! import problems, and charts of the loaded runs and series.

pub mod protocol;
page_side! {
    pub mod charts;
    pub mod desk;
    pub mod panel;
    pub mod problems;
}
worker_side! {
    pub mod host;
    pub mod views;
}
