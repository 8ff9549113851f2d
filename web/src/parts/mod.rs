//! The parts of the product, one folder each and the same shape for all:
//! `protocol` (messages), `host` (worker side), `views` (what the worker
//! computes and sends), `desk` (page state and forms), `panel` (the cards)
//! and the part's own charts; Harvest has two halves of that shape.

pub mod agenda;
pub mod bundle;
pub mod forecast;
pub mod harvest;
pub mod pricing;
pub mod runway;
pub mod shaping;
pub mod slos;
pub mod traces;
pub mod tuning;
