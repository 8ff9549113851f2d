//! Pricing (MRM §3–§6): estimates, the price–deadline curve, admission into
//! the queue drawn as its lazy schedule, and the §6.3 simulation.

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
