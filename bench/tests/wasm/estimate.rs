//! Processing-time estimation (MRM §3.2) in headless Chrome: the work of
//! `bench/benches/estimate.rs` (same histories and timing loop,
//! `skyplan_bench::data::measure_estimate`), timed with `performance.now()`, printed
//! as `BENCH-ESTIMATE wasm …` lines. Run with
//! `cd bench && wasm-pack test --release --headless --chrome
//! --chromedriver /usr/bin/chromedriver . --test estimate -- --nocapture`.

use skyplan_bench::data::measure_estimate;
use skyplan_bench::performance_now;
use skyplan_engine::estimate::GpParams;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

fn bench(jobs: usize, gp: &GpParams, label: &str) {
    let mut now = performance_now;
    // Warm-up: V8 tiers the wasm up while it runs.
    measure_estimate(100, gp, 1, &mut now);
    let reps = if jobs <= 300 {
        5
    } else if jobs <= 1000 {
        3
    } else {
        1
    };
    let mut m = measure_estimate(jobs, gp, reps, &mut now);
    m.train_ms.sort_by(f64::total_cmp);
    m.predict_ms.sort_by(f64::total_cmp);
    console_log!(
        "BENCH-ESTIMATE wasm {label} {} train {:.1} ms predict {:.2} ms evaluations {} hyper_points {}",
        m.jobs,
        m.train_ms[m.train_ms.len() / 2],
        m.predict_ms[m.predict_ms.len() / 2],
        m.evaluations,
        m.hyper_points
    );
}

// One test per size: the page is blocked while a test runs, and the
// runner's webdriver calls give up after 20 s.

#[wasm_bindgen_test]
fn estimate_100() {
    bench(100, &GpParams::default(), "default");
}

#[wasm_bindgen_test]
fn estimate_1000() {
    bench(1000, &GpParams::default(), "default");
}

#[wasm_bindgen_test]
fn estimate_3000() {
    bench(3000, &GpParams::default(), "default");
}

/// The remedies of BENCHMARKS.md at 1,000 jobs: starting points on
/// `hyper_subset` jobs, variances refined on `polish_subset`, `restarts`
/// extra starting points.
fn remedy(hyper_subset: usize, polish_subset: usize, restarts: usize) {
    let gp = GpParams {
        hyper_subset,
        polish_subset,
        restarts,
        ..GpParams::default()
    };
    let label = format!("subset{hyper_subset}-polish{polish_subset}-restarts{restarts}");
    bench(1000, &gp, &label);
}

#[wasm_bindgen_test]
fn estimate_1000_subset256_restarts2() {
    remedy(256, 0, 2);
}

#[wasm_bindgen_test]
fn estimate_1000_subset128_restarts2() {
    remedy(128, 0, 2);
}

#[wasm_bindgen_test]
fn estimate_1000_subset128_polish256_restarts0() {
    remedy(128, 256, 0);
}

#[wasm_bindgen_test]
fn estimate_1000_subset64_polish256_restarts2() {
    remedy(64, 256, 2);
}
