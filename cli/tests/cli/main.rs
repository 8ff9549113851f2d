//! The `skyplan` binary driven end to end, one module per part (`common`: the
//! shared helpers). One test binary for the crate: each binary is a link and a
//! process, and the contributor loop pays for every one.

mod common;

mod agenda;
mod bundle;
mod cluster_exports;
mod forecast;
mod harvest;
mod help;
mod pricing;
mod report;
mod runway;
mod shaping;
mod slos;
mod sweep;
mod tuning;
mod workspace;
