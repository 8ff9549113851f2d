//! Dynamic resource shaping (§IV): the trace-driven simulation natively —
//! the studio's default run (`shaping::Params::default()`), a run at a
//! chosen scale (the paper's: `--apps 150000`), and the whole K1 × K2 grid.
//! The work is `skyplan_bench::data::measure_shaping` / `measure_shaping_grid`,
//! shared with the headless-Chrome benchmark
//! (`bench/tests/wasm/tests/shaping.rs`).
//!
//! `cargo bench -p skyplan-bench --bench shaping [-- --apps N
//! --predictor oracle|arima|gp --policy P --grid --seeds N]` prints
//! markdown rows; the peak resident memory comes from `/proc/self/status`
//! (VmHWM) on Linux.

use skyplan_bench::data::{measure_shaping, measure_shaping_grid};
use skyplan_engine::shaping::{GridParams, Params, Policy, Predictor};

mod common;

fn main() {
    let args = common::Args::from_env();
    let mut now = common::clock();
    let mut params = Params::default();
    if let Some(n) = args.value("--apps") {
        params.workload.apps = n;
    }
    if let Some(h) = args.value("--hosts") {
        params.hosts = h;
    }
    if let Some(s) = args.value::<u64>("--seed") {
        params.workload.seed = s;
    }
    if let Some(p) = args.value::<String>("--predictor") {
        params.predictor = match p.as_str() {
            "oracle" => Predictor::Oracle,
            "arima" => Predictor::Arima,
            _ => Predictor::Gp,
        };
    }
    if let Some(p) = args.value::<String>("--policy") {
        params.policy = match p.as_str() {
            "optimistic" => Policy::Optimistic,
            "reservation" => Policy::Reservation,
            _ => Policy::Pessimistic,
        };
    }
    if let Some(k) = args.value("--k1") {
        params.k1 = k;
    }
    if let Some(k) = args.value("--k2") {
        params.k2 = k;
    }
    if let Some(r) = args.value("--gp-restarts") {
        params.gp_restarts = r;
    }
    if let Some(r) = args.value("--refit-every") {
        params.refit_every = r;
    }
    if let Some(r) = args.value("--max-crashes") {
        params.max_crashes = r;
    }
    if args.flag("--grid") {
        let g = GridParams {
            seeds: args.value("--seeds").unwrap_or(GridParams::default().seeds),
            ..GridParams::default()
        };
        let c0 = common::cpu_s().unwrap_or(0.0);
        let (t, report) = measure_shaping_grid(&params, &g, &mut now).expect("grid");
        let cpu = common::cpu_s().unwrap_or(0.0) - c0;
        println!("| grid | apps | hosts | seeds | runs | wall (s) | CPU (s) |");
        println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        println!(
            "| {} × {} × {:?} | {} | {} | {} | {} | {:.1} | {cpu:.1} |",
            g.k1.len(),
            g.k2.len(),
            g.predictors,
            params.workload.apps,
            params.hosts,
            g.seeds,
            t.runs,
            t.total_ms / 1e3
        );
        println!(
            "\n| predictor | K2 \\ K1 | turnaround ratio | mem slack % | failed % | wasted % |"
        );
        for c in &report.cells {
            println!(
                "| {} | {} \\ {} | {:.2} | {:.1} | {:.2} | {:.2} |",
                c.predictor,
                c.k2,
                c.k1,
                c.turnaround_ratio,
                c.slack_mem_pct,
                c.failed_apps_pct,
                c.wasted_pct
            );
        }
        for r in &report.recommended {
            println!(
                "recommended {}: K1 = {}, K2 = {} (ratio {:.2}, failed {:.2} %, meets {} %: {})",
                r.predictor,
                r.cell.k1,
                r.cell.k2,
                r.cell.turnaround_ratio,
                r.cell.failed_apps_pct,
                r.target_failed_pct,
                r.meets_target
            );
        }
    } else {
        // Warm-up on a small run, as the browser run does.
        let mut small = params.clone();
        small.workload.apps = 200.min(params.workload.apps);
        measure_shaping(&small, &mut now).expect("warm-up");
        let c0 = common::cpu_s().unwrap_or(0.0);
        let (t, report) = measure_shaping(&params, &mut now).expect("simulate");
        let cpu = common::cpu_s().unwrap_or(0.0) - c0;
        println!("| run | apps | hosts | predictor | generate (s) | forecasts (s) | baseline + shaped (s) | wall (s) | CPU (s) | peak RSS (MB) |");
        println!("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        println!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {cpu:.2} | {} |",
            params.policy,
            params.workload.apps,
            params.hosts,
            params.predictor,
            t.generate_ms / 1e3,
            t.forecast_ms / 1e3,
            t.simulate_ms / 1e3,
            t.total_ms / 1e3,
            common::peak_rss_mib()
                .map(|m| format!("{m:.0}"))
                .unwrap_or_else(|| "n/a".into())
        );
        let w = &report.workload;
        println!(
            "\nworkload: {} apps ({} rigid), {} components (max {}), arrivals over {:.1} days, mean runtime {:.0} s (max {:.1} days), requested CPU load {:.2}, used {:.2}",
            w.apps, w.rigid, w.components, w.max_components, w.arrival_span_s / 86400.0, w.mean_runtime_s, w.max_runtime_s / 86400.0, w.requested_cpu_load, w.used_cpu_load
        );
        for (name, r) in [("baseline", &report.baseline), ("shaped", &report.shaped)] {
            let s = &r.summary;
            println!(
                "{name}: turnaround mean {:.0} s median {:.0} s; slack cpu {:.1} % mem {:.1} % (cluster {:.1} / {:.1}); alloc cpu {:.1} % used {:.1} %; failed apps {:.2} %, preempted {} apps ({} times), {} components; wasted {:.2} %; unfinished {}; crashes {}; resubmissions {}; shaping off {}; makespan {:.1} days; events {}; min free {:.3}/{:.3}; fallbacks {}",
                s.mean_turnaround_s, s.median_turnaround_s, s.mean_slack_cpu_pct, s.mean_slack_mem_pct, s.cluster_slack_cpu_pct, s.cluster_slack_mem_pct, s.allocated_cpu_pct, s.used_cpu_pct, s.failed_apps_pct, s.preempted_apps, s.app_preemptions, s.component_preemptions, s.wasted_pct, s.unfinished, s.failures, s.resubmissions, s.shaping_off_apps, s.makespan_s / 86400.0, s.events, s.min_free_cpu, s.min_free_mem, s.forecast_fallbacks
            );
        }
        println!(
            "turnaround speedup (baseline / shaped): {:.2}×",
            report.turnaround_speedup
        );
    }
}
