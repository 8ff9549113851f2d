//! Resource shaping in a real browser (`wasm-pack test --headless --chrome
//! engine`): a small generated workload simulated with the oracle at K1 =
//! 100 % reproduces the baseline, and with the GP it runs through, with
//! allocations within capacity and a timeline for the panel.
#![cfg(target_arch = "wasm32")]

use skyplan_engine::shaping::{
    generate_for, simulate, EventKind, GeneratorParams, Params, Predictor,
};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn small() -> Params {
    Params {
        hosts: 8,
        workload: GeneratorParams {
            apps: 80,
            ..GeneratorParams::default()
        },
        ..Params::default()
    }
}

#[wasm_bindgen_test]
fn shaping_oracle_k1_full_is_the_baseline_in_wasm() {
    let p = Params {
        predictor: Predictor::Oracle,
        k1: 1.0,
        k2: 0.0,
        ..small()
    };
    let w = generate_for(&p).expect("workload");
    let r = simulate(&w, &p, |_, _| {}).expect("simulate");
    let b: Vec<_> = r.baseline.apps.iter().map(|a| a.finish).collect();
    let s: Vec<_> = r.shaped.apps.iter().map(|a| a.finish).collect();
    assert_eq!(b, s);
}

#[wasm_bindgen_test]
fn shaping_gp_run_in_wasm() {
    let p = small();
    let w = generate_for(&p).expect("workload");
    let mut calls = 0;
    let r = simulate(&w, &p, |_, _| calls += 1).expect("simulate");
    assert!(calls > 0);
    assert!(r.shaped.summary.min_free_mem > -1e-6 && r.shaped.summary.min_free_cpu > -1e-6);
    let tl = r.shaped.app_timeline.expect("timeline");
    assert!(!tl.points.is_empty());
    assert!(tl.events.iter().any(|e| e.kind == EventKind::Start));
}
