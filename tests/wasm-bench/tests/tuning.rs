//! AdaptiveConfig's search in headless Chrome: the work of
//! `engine/benches/tuning.rs` (the same `bench_data::tuning_group` and
//! `bench_data::tuning_curves` inputs and timing loops), timed with
//! `performance.now()`, printed as `BENCH-TUNING wasm …` lines. Algorithm 3
//! as written is timed up to m = 100 only (10 s natively at m = 500). Run
//! with `cd tests/wasm-bench && wasm-pack test --release --headless --chrome
//! --chromedriver /usr/bin/chromedriver . --test tuning -- --nocapture`.
#![cfg(target_arch = "wasm32")]

use skyplan_engine::bench_data::{median_ms, tuning_curves, tuning_group};
use skyplan_engine::tuning::{
    cluster_dp, exhaustive, rrs, Cluster, ConstraintRule, DpVariant, ExecRule, RrsParams, RuleSet,
    SchedulerKind, SearchSpace,
};
use skyplan_wasm_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn tuning_search_and_dp() {
    let mut now = performance_now;
    let space = SearchSpace::paper(SchedulerKind::Fair, 4).expect("grid");
    let rules = RuleSet::for_config(
        &space.config(&space.grid()[0]),
        ConstraintRule::LimitsAndPlacement,
        ExecRule::Algorithm2,
    );
    // Warm-up: let V8 tier the wasm up before timing.
    let warm = tuning_group(20, 11);
    rrs(
        &warm,
        &Cluster::of(8, 4),
        &space,
        rules,
        &RrsParams::default(),
        &mut |_, _| {},
    )
    .expect("warm-up");
    let mut group_ms = 0.0;
    for (jobs, containers) in [(20, 8), (50, 16), (200, 48)] {
        let group = tuning_group(jobs, 11);
        let cluster = Cluster::of(containers, 4);
        let mut evals = 0;
        let ex = median_ms(5, &mut now, &mut || {
            evals = exhaustive(&group, &cluster, &space, rules, &mut |_, _| {})
                .expect("search")
                .candidates
                .len();
        });
        console_log!(
            "BENCH-TUNING wasm | exhaustive | {jobs} | {containers} | {evals} | {ex:.2} |"
        );
        let r = median_ms(5, &mut now, &mut || {
            evals = rrs(
                &group,
                &cluster,
                &space,
                rules,
                &RrsParams::default(),
                &mut |_, _| {},
            )
            .expect("search")
            .candidates
            .len();
        });
        console_log!("BENCH-TUNING wasm | RRS | {jobs} | {containers} | {evals} | {r:.2} |");
        if jobs == 50 {
            group_ms = r;
        }
    }
    let (lower, span) = (80u32, 16u32);
    let mut dp500 = 0.0;
    for m in [10usize, 50, 100, 250, 500] {
        let curves = tuning_curves(m, lower, span, 3);
        let total = m as u32 * (lower + span);
        let written = (m <= 100).then(|| {
            median_ms(3, &mut now, &mut || {
                cluster_dp(&curves, total, DpVariant::AsWritten, false).expect("dp");
            })
        });
        let bounded = median_ms(5, &mut now, &mut || {
            cluster_dp(&curves, total, DpVariant::Bounded, false).expect("dp");
        });
        if m == 500 {
            dp500 = bounded;
        }
        console_log!(
            "BENCH-TUNING wasm | dp | {m} | {total} | {} | {bounded:.2} |",
            written.map_or("–".into(), |w| format!("{w:.1}"))
        );
    }
    console_log!(
        "BENCH-TUNING wasm | group search (50 jobs, RRS) + Algorithm 3 bounded at 500 groups | {:.1} ms |",
        group_ms + dp500
    );
}
