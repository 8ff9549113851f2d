//! SLOs (Morpheus §4–§5): recurring jobs with their inferred windows, the
//! LP skyline of each, and the owner's sign-off, override or rejection.

pub mod desk;
pub mod fit_chart;
pub mod host;
pub mod panel;
pub mod protocol;
pub mod views;
