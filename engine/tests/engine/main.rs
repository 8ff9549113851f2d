//! The engine's integration tests, natively: property tests of the parsers,
//! the agenda's inputs and the §6.3 simulation, and the references recorded
//! from peer tools in `tests/data/` (`support`: their readers and tolerance).
//! One test binary for the crate's native tests (the browser's are `tests/wasm`).
#![cfg(not(target_arch = "wasm32"))]

mod support;

mod agenda_input_props;
mod demo_fixtures;
mod estimate_reference;
mod forecast_one_step;
mod forecast_reference;
mod forecast_stepwise;
mod import_props;
mod kmeans_reference;
mod optimize_reference;
mod pricing_sim_props;
mod skyline_reference;
