//! Resource shaping in a real browser (`wasm-pack test --headless --chrome
//! engine`): a small generated workload simulated with the oracle at K1 =
//! 100 % reproduces the baseline, and with the GP it runs through, with
//! allocations within capacity and a timeline for the panel; the studio's
//! re-run on kept forecasts gives another application's timelines as a
//! simulation told to record it does.

use skyplan_engine::shaping::{
    generate_for, prepare_forecasts, simulate, simulate_with, timelines, EventKind,
    GeneratorParams, Params, Predictor,
};
use wasm_bindgen_test::wasm_bindgen_test;

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

#[wasm_bindgen_test]
fn shaping_timelines_on_kept_forecasts_in_wasm() {
    let p = small();
    let w = generate_for(&p).expect("workload");
    let f = prepare_forecasts(&w, &p, &mut |_| {});
    let other = (0..w.applications.len())
        .rev()
        .find(|&i| !w.applications[i].is_rigid())
        .expect("an elastic application");
    let told = Params {
        timeline_app: Some(w.applications[other].name.clone()),
        timeline_host: 2,
        ..p.clone()
    };
    let r = simulate_with(&w, &told, &f, |_, _| {}).expect("simulate");
    let t = timelines(&w, &p, &f, other, 2).expect("timelines");
    assert_eq!(Some(&t.shaped_app), r.shaped.app_timeline.as_ref());
    assert_eq!(Some(&t.baseline_app), r.baseline.app_timeline.as_ref());
    assert_eq!(t.shaped_host, r.shaped.host_timeline);
}
