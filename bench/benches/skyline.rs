//! Skyline LP solve time (Morpheus §5) for N runs × K steps, natively.
//!
//! `cargo bench -p skyplan-bench --bench skyline [-- --simplex-max-cells N]`
//! prints a markdown table: flow solver (default) and minilp's simplex (only
//! up to a size where it finishes in reasonable time), both on the same
//! deterministic histories as the headless-Chrome benchmark.

use skyplan_bench::data::skyline_history;
use skyplan_engine::resource_model::{fit, ModelParams, SolverKind};
use std::time::Instant;

fn main() {
    let mut simplex_max_cells = 30 * 288;
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--simplex-max-cells") {
        simplex_max_cells = args
            .get(i + 1)
            .and_then(|v| v.parse().ok())
            .unwrap_or(simplex_max_cells);
    }
    // `--dump DIR` writes each history's rows as JSON for
    // scripts/bench_highs.py, which times HiGHS on the very same LPs.
    if let Some(i) = args.iter().position(|a| a == "--dump") {
        let dir = std::path::PathBuf::from(args.get(i + 1).expect("--dump DIR"));
        std::fs::create_dir_all(&dir).expect("create dump dir");
        for (n, k) in [(13, 90), (30, 288), (30, 1440)] {
            let runs = skyline_history(n, k, 7);
            let rows: Vec<&Vec<f64>> = runs.iter().map(|r| &r.skyline.containers).collect();
            let json = format!(
                "{{\"alpha\": 0.01, \"lo\": 1.0, \"beta_fraction\": 0.1, \"rows\": {rows:?}}}"
            );
            std::fs::write(dir.join(format!("{n}x{k}.json")), json).expect("write dump");
        }
        return;
    }
    println!("| runs × steps | solver | two-pass solve (ms) | objective | dual gap |");
    println!("| --- | --- | --- | --- | --- |");
    for (n, k) in [(13, 90), (30, 288), (30, 1440)] {
        let runs = skyline_history(n, k, 7);
        let refs: Vec<_> = runs.iter().collect();
        for solver in [SolverKind::Flow, SolverKind::Simplex] {
            if solver == SolverKind::Simplex && n * k > simplex_max_cells {
                println!("| {n} × {k} | simplex | skipped (> {simplex_max_cells} cells) | | |");
                continue;
            }
            let params = ModelParams {
                solver,
                ..ModelParams::paper()
            };
            let reps = if n * k <= 2000 { 5 } else { 3 };
            let mut times = Vec::new();
            let mut last = None;
            for _ in 0..reps {
                let t = Instant::now();
                let m = fit(&refs, &params).expect("fit");
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                last = Some(m);
            }
            times.sort_by(f64::total_cmp);
            let m = last.expect("one run");
            let gap = m
                .lower_bound
                .map(|b| format!("{:.1e}", m.objective.total - b))
                .unwrap_or_else(|| "—".into());
            println!(
                "| {n} × {k} | {} | {:.1} | {:.6} | {gap} |",
                if solver == SolverKind::Flow {
                    "flow"
                } else {
                    "simplex"
                },
                times[times.len() / 2],
                m.objective.total
            );
        }
    }
}
