//! Skyline LP solve time in headless Chrome: the work of
//! `bench/benches/skyline.rs` (same histories from `skyplan_bench::data`), timed with
//! `performance.now()`, printed as `BENCH-LP wasm …` lines for
//! `scripts/bench.sh`.

use skyplan_bench::data::skyline_history;
use skyplan_bench::performance_now;
use skyplan_engine::resource_model::{fit, ModelParams, SolverKind};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

fn bench(n: usize, k: usize, solver: SolverKind) {
    let runs = skyline_history(n, k, 7);
    let refs: Vec<_> = runs.iter().collect();
    let params = ModelParams {
        solver,
        ..ModelParams::paper()
    };
    // Warm-up: V8 tiers wasm up while it runs.
    let t0 = performance_now();
    while performance_now() - t0 < 1000.0 {
        fit(&refs, &params).expect("fit");
        if n * k > 2000 {
            break;
        }
    }
    let reps = if n * k <= 2000 { 5 } else { 3 };
    let mut times = Vec::new();
    let mut objective = 0.0;
    for _ in 0..reps {
        let t = performance_now();
        let m = fit(&refs, &params).expect("fit");
        times.push(performance_now() - t);
        objective = m.objective.total;
    }
    times.sort_by(f64::total_cmp);
    let name = if solver == SolverKind::Flow {
        "flow"
    } else {
        "simplex"
    };
    console_log!(
        "BENCH-LP wasm {n} {k} {name} {:.1} {objective:.6}",
        times[times.len() / 2]
    );
}

#[wasm_bindgen_test]
fn skyline_13_x_90() {
    bench(13, 90, SolverKind::Flow);
    bench(13, 90, SolverKind::Simplex);
}

#[wasm_bindgen_test]
fn skyline_30_x_288() {
    bench(30, 288, SolverKind::Flow);
}

#[wasm_bindgen_test]
fn skyline_30_x_1440() {
    bench(30, 1440, SolverKind::Flow);
}
