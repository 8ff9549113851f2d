//! The batch optimizer against HiGHS's integer optima recorded by
//! `data/optimize_highs.py` (scipy.optimize.milp on a time-indexed model
//! written independently): on small seeded plans of rigid one-offs,
//! multi-stage `R_ORDER` requests and periodic requests with several
//! instances per LCM, the optimized peak is never below the optimum, is
//! within the recorded gap target of it, and the certified lower bound
//! never exceeds it.

use skyplan_engine::agenda::{
    optimize_batch, AgendaParams, Capacity, Interpreter, OptimizeParams, Plan, Recurrence,
    ReservationRequest, Stage,
};
use skyplan_engine::model::ContainerSize;

fn requests(inst: &serde_json::Value) -> Vec<ReservationRequest> {
    inst["requests"]
        .as_array()
        .expect("requests")
        .iter()
        .map(|r| {
            let stages = r["stages"]
                .as_array()
                .expect("stages")
                .iter()
                .map(|s| {
                    let len = s[0].as_f64().expect("len");
                    let h = s[1].as_f64().expect("h");
                    Stage {
                        demand: len * h * 60.0,
                        max_parallelism: h,
                        gang: h,
                    }
                })
                .collect();
            ReservationRequest {
                name: r["name"].as_str().expect("name").to_string(),
                recurrence: match r["period"].as_i64() {
                    Some(p) => Recurrence::Periodic {
                        period_secs: p * 60,
                    },
                    None => Recurrence::OneOff,
                },
                arrival_secs: r["a"].as_i64().expect("a") * 60,
                deadline_secs: r["d"].as_i64().expect("d") * 60,
                container: ContainerSize::default(),
                stages,
                interpreter: if r["order"].as_bool().expect("order") {
                    Interpreter::ROrder
                } else {
                    Interpreter::ROrderNoGap
                },
                problematic: false,
            }
        })
        .collect()
}

fn plan_for(inst: &serde_json::Value) -> Plan {
    let steps = inst["steps"].as_i64().expect("steps");
    let cap = inst["capacity"].as_f64().expect("capacity");
    Plan::new(
        AgendaParams {
            period_secs: steps * 60,
            step_secs: 60,
            ..AgendaParams::default()
        },
        vec![Capacity {
            cores: cap,
            memory_mb: cap * 1024.0,
        }],
    )
    .expect("plan")
}

#[test]
fn optimized_peaks_match_highs_optima() {
    let doc: serde_json::Value =
        serde_json::from_str(include_str!("../data/optimize_highs.json")).expect("reference JSON");
    let target = doc["gap_target"].as_f64().expect("gap target");
    let tests = doc["tests"].as_array().expect("tests");
    assert_eq!(tests.len(), 15);
    let mut kinds = std::collections::BTreeSet::new();
    for inst in tests {
        let kind = inst["kind"].as_str().expect("kind");
        kinds.insert(kind.to_string());
        let opt = inst["optimum"].as_f64().expect("optimum");
        let reqs = requests(inst);
        let out = optimize_batch(&plan_for(inst), &reqs, &OptimizeParams::default())
            .unwrap_or_else(|e| panic!("{kind} {}: {e}", inst["seed"]));
        let r = &out.report;
        let what = format!("{kind} seed {}: {r:?}, optimum {opt}", inst["seed"]);
        assert!((out.plan.peak() - r.peak).abs() < 1e-9, "{what}");
        assert!(r.peak >= opt - 1e-9, "below the optimum: {what}");
        assert!(r.peak <= opt * (1.0 + target) + 1e-9, "too far: {what}");
        assert!(
            r.lower_bound <= opt + 1e-9,
            "bound above the optimum: {what}"
        );
        assert!(r.peak <= r.start_peak + 1e-9, "worse than LowCost: {what}");
        assert_eq!(out.plan.reservations().len(), reqs.len(), "{what}");
        // Every reservation keeps its window.
        for res in out.plan.reservations() {
            assert!(res.start >= res.window.0, "{what}");
            assert!(res.start + res.alloc.len() <= res.window.1, "{what}");
            let work: f64 = res.alloc.iter().sum::<f64>() * 60.0;
            assert!((work - res.request.total_demand()).abs() < 1e-6, "{what}");
        }
    }
    assert_eq!(kinds.len(), 3);
}
