//! AdaptiveConfig's search in headless Chrome: the work of
//! `bench/benches/tuning.rs` (the same inputs and timing loops,
//! `skyplan_bench::data::GroupSearch` and `skyplan_bench::data::measure_cluster_dp`), timed with
//! `performance.now()`, printed as `BENCH-TUNING wasm …` lines. Algorithm 3
//! as written is timed up to m = 100 only (10 s natively at m = 500). Run
//! with `cd bench && wasm-pack test --release --headless --chrome
//! --chromedriver /usr/bin/chromedriver . --test tuning -- --nocapture`.

use skyplan_bench::data::{measure_cluster_dp, GroupSearch, GROUP_SEARCH_SIZES};
use skyplan_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn tuning_search_and_dp() {
    let mut now = performance_now;
    let search = GroupSearch::paper();
    // Warm-up: let V8 tier the wasm up before timing.
    search.warm_up();
    let mut group_ms = 0.0;
    for (jobs, containers) in GROUP_SEARCH_SIZES {
        let t = search.measure(jobs, containers, &mut now);
        console_log!(
            "BENCH-TUNING wasm | exhaustive | {jobs} | {containers} | {} | {:.2} |",
            t.exhaustive_evaluations,
            t.exhaustive_ms
        );
        console_log!(
            "BENCH-TUNING wasm | RRS | {jobs} | {containers} | {} | {:.2} |",
            t.rrs_evaluations,
            t.rrs_ms
        );
        if jobs == 50 {
            group_ms = t.rrs_ms;
        }
    }
    let mut dp500 = 0.0;
    for m in [10usize, 50, 100, 250, 500] {
        let t = measure_cluster_dp(m, (m <= 100).then_some(3), &mut now);
        if m == 500 {
            dp500 = t.bounded_ms;
        }
        console_log!(
            "BENCH-TUNING wasm | dp | {m} | {} | {} | {:.2} |",
            t.total,
            t.written_ms.map_or("–".into(), |w| format!("{w:.1}")),
            t.bounded_ms
        );
    }
    console_log!(
        "BENCH-TUNING wasm | group search (50 jobs, RRS) + Algorithm 3 bounded at 500 groups | {:.1} ms |",
        group_ms + dp500
    );
}
