//! Agenda benchmarks in headless Chrome: the work of
//! `bench/benches/agenda.rs` (same requests from `skyplan_bench::data`), timed with
//! `performance.now()`, printed as `BENCH-AGENDA wasm …` lines.

use skyplan_bench::data::{agenda_capacity, agenda_requests};
use skyplan_bench::performance_now;
use skyplan_engine::agenda::{AgendaParams, Method, Plan};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn agenda_1000_jobs() {
    let requests = agenda_requests(1000, 7);
    let capacity = agenda_capacity();
    let place = |method| {
        let mut plan = Plan::new(AgendaParams::default(), capacity.clone()).expect("plan");
        for r in &requests {
            let _ = plan.admit(r.clone(), method);
        }
        plan
    };
    // Warm-up, then the median of three.
    place(Method::LowCost);
    let mut times = Vec::new();
    let mut plan = None;
    for _ in 0..3 {
        let t = performance_now();
        plan = Some(place(Method::LowCost));
        times.push(performance_now() - t);
    }
    times.sort_by(f64::total_cmp);
    let plan = plan.expect("placed");
    console_log!(
        "BENCH-AGENDA wasm lowcost 1000 {:.1} {:.4}",
        times[1],
        plan.peak()
    );
    let ids: Vec<(u32, usize, usize)> = plan
        .reservations()
        .iter()
        .map(|r| (r.id, r.window.0, r.window.1 - r.alloc.len()))
        .collect();
    let t = performance_now();
    let mut n = 0;
    for &(id, lo, hi) in ids.iter().take(200) {
        for s in [lo, (lo + hi) / 2, hi] {
            let _ = plan.preview_move(id, s).expect("preview");
            n += 1;
        }
    }
    console_log!(
        "BENCH-AGENDA wasm preview {} {:.4}",
        ids.len(),
        (performance_now() - t) / n as f64
    );
}
