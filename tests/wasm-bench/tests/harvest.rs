//! Harvesting in headless Chrome: the work of `engine/benches/harvest.rs`
//! (same generated tenants, classes and jobs from `bench_data`), timed
//! with `performance.now()`, printed as `BENCH-HARVEST wasm …` lines. Run
//! with `cd tests/wasm-bench && wasm-pack test --release --headless
//! --chrome --chromedriver /usr/bin/chromedriver . --test harvest --
//! --nocapture`.
#![cfg(target_arch = "wasm32")]

use skyplan_engine::bench_data::{
    harvest_classes, harvest_jobs, harvest_set, measure_harvest_select, median_ms,
};
use skyplan_engine::harvest::{classify, simulate, tpcds_like, ClassifyParams, SimParams};
use skyplan_wasm_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn harvest_classify_select_simulate() {
    let mut now = performance_now;
    for tenants in [100usize, 1000] {
        let t0 = now();
        let set = harvest_set(tenants, 30, 120, None, 11);
        let gen = now() - t0;
        let mut classes = 0;
        let ms = median_ms(3, &mut now, &mut || {
            classes = classify(&set, &ClassifyParams::default())
                .expect("classify")
                .classes
                .len();
        });
        console_log!(
            "BENCH-HARVEST wasm | classify | {tenants} | {} | {gen:.0} | {ms:.0} | {classes} |",
            set.slots
        );
    }
    for n in [23usize, 100, 1000] {
        let classes = harvest_classes(n, 5);
        let jobs = harvest_jobs(100_000, 6);
        let us = measure_harvest_select(&classes, &jobs, 5, &mut now);
        console_log!("BENCH-HARVEST wasm | select | {n} | {us:.3} |");
    }
    let set = harvest_set(40, 7, 120, Some(1000), 13);
    let p = SimParams {
        days: 7.0,
        runs: 1,
        levels: vec![30.0],
        ..SimParams::default()
    };
    let t0 = now();
    let r = simulate(&set, &tpcds_like(52, 3), &p, &mut |_, _| {}).expect("simulate");
    console_log!(
        "BENCH-HARVEST wasm | simulate 1000 servers, 7 days, 2 systems | {:.1} s | {} jobs |",
        (now() - t0) / 1000.0,
        r.levels[0].pt.runs[0].jobs
    );
}
