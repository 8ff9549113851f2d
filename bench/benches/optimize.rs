//! Batch optimizer benchmarks (issue 16): ten seeded batches of 40 rigid
//! one-offs against HiGHS's optima recorded by
//! `tests/data/optimize_highs.py` (LowCost's peak, ours, the ratio to the
//! optimum, our time and HiGHS's), and the 1,000-request agenda benchmark
//! optimized next to LowCost.

use skyplan_bench::data::{agenda_capacity, agenda_requests, rigid_batch, rigid_batch_plan};
use skyplan_engine::agenda::{optimize_batch, AgendaParams, Method, OptimizeParams, Plan};
use std::time::Instant;

mod common;

/// `--node-limit N` and `--ip-max-vars N` override the optimizer's
/// defaults (to measure what the integer program's budget buys);
/// `--skip-large` leaves out the 1,000-request run.
fn main() {
    let args = common::Args::from_env();
    let arg = |name: &str| args.text(name).map(|v| v.parse::<u64>().expect("a number"));
    let mut opt_params = OptimizeParams::default();
    if let Some(n) = arg("--node-limit") {
        opt_params.ip_node_limit = n;
    }
    if let Some(n) = arg("--ip-max-vars") {
        opt_params.ip_max_vars = n as usize;
    }
    println!(
        "integer program: at most {} variables, {} nodes",
        opt_params.ip_max_vars, opt_params.ip_node_limit
    );
    let doc: serde_json::Value =
        serde_json::from_str(include_str!("../../engine/tests/data/optimize_highs.json"))
            .expect("json");
    println!("| seed | optimum | LowCost | optimized | / optimum | bound | gap | ms | HiGHS s |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let (mut sum, mut worst, mut times) = (0.0, 0.0f64, Vec::new());
    let bench = doc["bench"].as_array().expect("bench");
    for b in bench {
        let seed = b["seed"].as_u64().expect("seed");
        let opt = b["optimum_containers"].as_f64().expect("opt");
        let reqs = rigid_batch(40, seed);
        let plan = rigid_batch_plan();
        let t = Instant::now();
        let out = optimize_batch(&plan, &reqs, &opt_params).expect("optimize");
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        times.push(ms);
        let r = out.report;
        let ratio = r.peak * 10_000.0 / opt;
        sum += ratio;
        worst = worst.max(ratio);
        println!(
            "| {seed} | {opt:.0} | {:.0} | {:.0} | {ratio:.3} | {:.0} ({:?}) | {:.1} % | {ms:.0} | {} |",
            r.start_peak * 10_000.0,
            r.peak * 10_000.0,
            r.lower_bound * 10_000.0,
            r.bound,
            r.gap * 100.0,
            b["highs_secs"]
        );
    }
    times.sort_by(f64::total_cmp);
    println!(
        "\nmean ratio {:.3}, worst {:.3}; time per batch median {:.0} ms, max {:.0} ms",
        sum / bench.len() as f64,
        worst,
        times[times.len() / 2],
        times[times.len() - 1]
    );

    if args.flag("--skip-large") {
        return;
    }
    let requests = agenda_requests(1000, 7);
    let capacity = agenda_capacity();
    let mut low = Plan::new(AgendaParams::default(), capacity.clone()).expect("plan");
    let t = Instant::now();
    for r in &requests {
        let _ = low.admit(r.clone(), Method::LowCost);
    }
    let low_ms = t.elapsed().as_secs_f64() * 1000.0;
    let empty = Plan::new(AgendaParams::default(), capacity).expect("plan");
    let t = Instant::now();
    let out = optimize_batch(&empty, &requests, &opt_params).expect("optimize");
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let r = out.report;
    println!("\n| 1,000 requests | peak | bound | gap | ms |");
    println!("| --- | --- | --- | --- | --- |");
    println!("| LowCost | {:.4} | | | {low_ms:.0} |", low.peak());
    println!(
        "| optimized | {:.4} | {:.4} ({:?}) | {:.1} % | {ms:.0} |",
        r.peak,
        r.lower_bound,
        r.bound,
        r.gap * 100.0
    );
    println!("moves {}", r.moves);
}
