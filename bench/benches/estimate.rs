//! Processing-time estimation (MRM §3.2): training the estimators (GP with
//! restarts, OLS, same-job; map and reduce) on 100, 1,000 and 3,000 history
//! jobs and estimating 100 new ones, natively.
//!
//! `cargo bench -p skyplan-bench --bench estimate [-- --sizes 100,1000
//! --hyper-subset N --polish-subset N --restarts N
//! --max-iterations N]` prints a markdown
//! table. The histories are `skyplan_bench::data::estimate_history` (SWIM-like
//! synthetic jobs through the history generator), the same as the
//! headless-Chrome benchmark's (`bench/tests/wasm/tests/estimate.rs`).

use skyplan_bench::data::measure_estimate;
use skyplan_engine::estimate::GpParams;

mod common;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() {
    let args = common::Args::from_env();
    let sizes: Vec<usize> = args
        .value::<String>("--sizes")
        .map(|s| s.split(',').filter_map(|v| v.parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 1000, 3000]);
    let mut gp = GpParams::default();
    if let Some(v) = args.value("--hyper-subset") {
        gp.hyper_subset = v;
    }
    if let Some(v) = args.value("--polish-subset") {
        gp.polish_subset = v;
    }
    if let Some(v) = args.value("--restarts") {
        gp.restarts = v;
    }
    if let Some(v) = args.value("--max-iterations") {
        gp.max_iterations = v;
    }
    println!(
        "GP: hyper_subset {}, polish_subset {}, restarts {}, max_iterations {}",
        gp.hyper_subset, gp.polish_subset, gp.restarts, gp.max_iterations
    );
    println!("| history jobs | train, native (ms) | predict 100 jobs (ms) | likelihood evaluations | hyper points |");
    println!("| ---: | ---: | ---: | ---: | ---: |");
    let mut now = common::clock();
    for n in sizes {
        let reps = if n <= 300 {
            5
        } else if n <= 1000 {
            3
        } else {
            1
        };
        let mut m = measure_estimate(n, &gp, reps, &mut now);
        println!(
            "| {} | {:.1} | {:.2} | {} | {} |",
            m.jobs,
            median(&mut m.train_ms),
            median(&mut m.predict_ms),
            m.evaluations,
            m.hyper_points
        );
    }
}
