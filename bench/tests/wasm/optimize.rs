//! Batch optimizer benchmarks in headless Chrome: the work of
//! `bench/benches/optimize.rs` (same requests from `skyplan_bench::data`), timed
//! with `performance.now()`, printed as `BENCH-OPTIMIZE wasm …` lines.

use skyplan_bench::data::{agenda_capacity, agenda_requests, rigid_batch, rigid_batch_plan};
use skyplan_bench::performance_now;
use skyplan_engine::agenda::{optimize_batch, AgendaParams, OptimizeParams, Plan};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn optimize_rigid_batches_and_1000_jobs() {
    let mut worst = 0.0f64;
    for seed in 1..=10 {
        let reqs = rigid_batch(40, seed);
        let plan = rigid_batch_plan();
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
    let empty = Plan::new(AgendaParams::default(), agenda_capacity()).expect("plan");
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
