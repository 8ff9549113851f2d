//! SLO inference and the skyline LP in a real browser: the same answers in
//! wasm32 as natively (demo workspace, Hadoop's published answer, the flow
//! solver's dual bound, the simplex formulation).

use skyplan_engine::fixtures::demo;
use skyplan_engine::model::JobRun;
use skyplan_engine::resource_model::{fit, ModelParams, SolverKind};
use skyplan_engine::slo::{infer_slos, SloParams};
use skyplan_engine::{import, ImportOptions};
use wasm_bindgen_test::wasm_bindgen_test;

#[path = "../cases/hadoop.rs"]
mod hadoop;
use hadoop::{TPCH_Q12_ANSWER, TPCH_Q12_USAGE};

#[wasm_bindgen_test]
fn demo_slos_in_the_browser() {
    let fx = demo();
    let r = infer_slos(&fx.runs, &SloParams::default()).unwrap();
    assert_eq!(r.slos.len(), 12);
    assert_eq!(r.non_periodic.len(), 2);
    let s = r.slos.iter().find(|s| s.job == "revenue_rollup").unwrap();
    assert!(s.actionable);
    let b = r.slos.iter().find(|s| s.job == "billing_export").unwrap();
    assert!(!b.actionable);
}

#[wasm_bindgen_test]
fn skyline_lp_in_the_browser() {
    let fx = demo();
    let runs: Vec<&JobRun> = fx
        .runs
        .iter()
        .filter(|r| r.job == "revenue_rollup")
        .collect();
    let flow = fit(&runs, &ModelParams::paper()).unwrap();
    let gap = flow.objective.total - flow.lower_bound.unwrap();
    assert!(gap.abs() < 1e-7, "{gap}");
    let simplex = fit(
        &runs,
        &ModelParams {
            solver: SolverKind::Simplex,
            ..ModelParams::paper()
        },
    )
    .unwrap();
    assert!((simplex.objective.total - flow.objective.total).abs() < 1e-6);
}

#[wasm_bindgen_test]
fn hadoop_answer_in_the_browser() {
    let log: String = TPCH_Q12_USAGE
        .iter()
        .enumerate()
        .map(|(i, u)| format!("tpch_q12 50 0 0 35000 tpch_q12_{i} 8192:0| {u}\n"))
        .collect();
    let file = import("tpch_q12.txt", log.as_bytes(), ImportOptions::default()).unwrap();
    let runs: Vec<&JobRun> = file.data.runs.iter().collect();
    let m = fit(&runs, &ModelParams::hadoop()).unwrap();
    for (got, want) in m.skyline.containers.iter().zip(TPCH_Q12_ANSWER) {
        assert!((got - want).abs() <= 0.1 * want, "{got} vs {want}");
    }
}
