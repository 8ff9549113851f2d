//! The Tuning part: AdaptiveConfig's scheduler configuration tuning on the
//! loaded job history — the queue tree (editable, or read from the
//! cluster's YARN files), every candidate configuration's estimated latency,
//! the chosen one's schedule, Algorithm 3's split among groups and the tuned
//! configuration as YARN XML.

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
