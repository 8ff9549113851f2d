//! SLOs (Morpheus §4–§5): recurring jobs with their inferred windows, the
//! LP skyline of each, and the owner's sign-off, override or rejection.

pub mod protocol;
page_side! {
    pub mod desk;
    pub mod fit_chart;
    pub mod panel;
}
worker_side! {
    pub mod host;
    pub mod views;
}
