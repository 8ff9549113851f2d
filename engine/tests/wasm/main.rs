//! The engine in a real browser: compiled to wasm32 and run in headless
//! Chrome (`wasm-pack test --headless --chrome engine --test wasm`, part of
//! `make test`): the importers, the SLO and skyline path, shaping. One test
//! binary, so the browser run compiles only it (not the unit tests) for wasm32.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::wasm_bindgen_test_configure;

wasm_bindgen_test_configure!(run_in_browser);

mod import;
mod shaping;
mod slo;
