//! Pricing (MRM §3–§6): estimates, the price–deadline curve, admission into
//! the queue drawn as its lazy schedule, and the §6.3 simulation.

pub mod charts;
pub mod desk;
pub mod host;
pub mod panel;
pub mod protocol;
pub mod views;
