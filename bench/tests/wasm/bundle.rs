//! Workspace bundles in headless Chrome: the work of
//! `bench/benches/bundle.rs` (the same workspaces from `skyplan_bench::data`),
//! timed with `performance.now()`, printed as `BENCH-BUNDLE wasm …` lines.

use skyplan_bench::data::{bundle_workspace, measure_bundle};
use skyplan_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

fn bench(mb: usize) {
    let w = bundle_workspace(mb);
    let mut now = performance_now;
    let m = measure_bundle(&w, &mut now);
    console_log!("{}", m.line("wasm", mb));
}

#[wasm_bindgen_test]
fn bundle_1_mb() {
    bench(1);
}

#[wasm_bindgen_test]
fn bundle_10_mb() {
    bench(10);
}

#[wasm_bindgen_test]
fn bundle_100_mb() {
    bench(100);
}
