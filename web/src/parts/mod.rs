//! The parts of the product, one folder each and the same shape for all:
//! `protocol` (messages), `host` (worker side), `desk` (page state), `panel`
//! (component) and the part's own charts.

pub mod agenda;
pub mod forecast;
pub mod harvest;
pub mod pricing;
pub mod shaping;
pub mod slos;
pub mod traces;
pub mod tuning;
