//! The pricing part (MRM §3–§6): `skyplan estimate`, `skyplan quote` and
//! `skyplan simulate-pricing`; `job` holds what estimate and quote share.

pub mod estimate;
pub mod job;
pub mod quote;
pub mod simulate;
