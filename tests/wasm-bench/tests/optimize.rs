//! Batch optimizer benchmarks in headless Chrome: the work of
//! `engine/benches/optimize.rs` (same requests from `bench_data`), timed
//! with `performance.now()`, printed as `BENCH-OPTIMIZE wasm …` lines.
#![cfg(target_arch = "wasm32")]

use skyplan_engine::agenda::{optimize_batch, AgendaParams, Capacity, OptimizeParams, Plan};
use skyplan_engine::bench_data::{agenda_requests, rigid_batch};
use skyplan_wasm_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn optimize_rigid_batches_and_1000_jobs() {
    let cap = vec![Capacity {
        cores: 10_000.0,
        memory_mb: 10_000.0 * 1024.0,
    }];
    let params = AgendaParams {
        period_secs: 14_400,
        ..AgendaParams::default()
    };
    let mut worst = 0.0f64;
    for seed in 1..=10 {
        let reqs = rigid_batch(40, seed);
        let plan = Plan::new(params.clone(), cap.clone()).expect("plan");
        let t = performance_now();
        let out = optimize_batch(&plan, &reqs, &OptimizeParams::default()).expect("optimize");
        let ms = performance_now() - t;
        worst = worst.max(ms);
        console_log!(
            "BENCH-OPTIMIZE wasm rigid40 seed {seed} {ms:.1} ms peak {:.0} gap {:.3}",
            out.report.peak * 10_000.0,
            out.report.gap
        );
    }
    console_log!("BENCH-OPTIMIZE wasm rigid40 worst {worst:.1} ms");
    let requests = agenda_requests(1000, 7);
    let capacity = vec![Capacity {
        cores: 4000.0,
        memory_mb: 4000.0 * 4096.0,
    }];
    let empty = Plan::new(AgendaParams::default(), capacity).expect("plan");
    let t = performance_now();
    let out = optimize_batch(&empty, &requests, &OptimizeParams::default()).expect("optimize");
    console_log!(
        "BENCH-OPTIMIZE wasm agenda1000 {:.1} ms peak {:.4} bound {:.4} gap {:.3}",
        performance_now() - t,
        out.report.peak,
        out.report.lower_bound,
        out.report.gap
    );
}
