//! Harvesting in headless Chrome: the work of `bench/benches/harvest.rs`
//! (same generated tenants, classes and jobs from `skyplan_bench::data`), timed
//! with `performance.now()`, printed as `BENCH-HARVEST wasm …` lines. Run
//! with `cd bench && wasm-pack test --release --headless
//! --chrome --chromedriver /usr/bin/chromedriver . --test harvest --
//! --nocapture`.

use skyplan_bench::data::{
    harvest_classes, harvest_jobs, measure_classify, measure_harvest_select,
    measure_harvest_simulation,
};
use skyplan_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn harvest_classify_select_simulate() {
    let mut now = performance_now;
    for tenants in [100usize, 1000] {
        // One thread: the browser's worker has no others.
        let t = measure_classify(tenants, 30, &[1], 3, &mut now);
        console_log!(
            "BENCH-HARVEST wasm | classify | {tenants} | {} | {:.0} | {:.0} | {} |",
            t.set.slots,
            t.generate_ms,
            t.classify_ms[0],
            t.classification.classes.len()
        );
    }
    for n in [23usize, 100, 1000] {
        let classes = harvest_classes(n, 5);
        let jobs = harvest_jobs(100_000, 6);
        let us = measure_harvest_select(&classes, &jobs, 5, &mut now);
        console_log!("BENCH-HARVEST wasm | select | {n} | {us:.3} |");
    }
    let (r, secs) = measure_harvest_simulation(7, &mut now);
    console_log!(
        "BENCH-HARVEST wasm | simulate 1000 servers, 7 days, 2 systems | {secs:.1} s | {} jobs |",
        r.levels[0].pt.runs[0].jobs
    );
}
