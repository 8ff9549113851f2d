//! The engine's benchmarks in headless Chrome, one module per part: the same
//! work as `bench/benches/*.rs` natively, on the same inputs from
//! [`skyplan_bench::data`], timed by the page's clock. `make bench` runs it
//! (`wasm-pack test --release --headless --chrome bench --test wasm -- --nocapture`);
//! `make test` never does. One test binary for the crate.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::wasm_bindgen_test_configure;

wasm_bindgen_test_configure!(run_in_browser);

mod agenda;
mod bundle;
mod estimate;
mod forecast;
mod harvest;
mod import;
mod optimize;
mod pricing;
mod shaping;
mod skyline;
mod storage;
mod tuning;
