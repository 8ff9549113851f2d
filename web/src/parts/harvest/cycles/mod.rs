//! The Harvest part's spare-cycle half (the harvesting paper, §3–§6):
//! tenants and their patterns by FFT, classes by K-Means, the harvestable
//! capacity per class and hour, Algorithm 1's class selection for a job,
//! and the task-scheduling simulation of YARN-PT against YARN-H.

pub mod protocol;
page_side! {
    pub mod charts;
    pub mod desk;
    pub mod panel;
}
worker_side! {
    pub mod host;
    pub mod views;
}
