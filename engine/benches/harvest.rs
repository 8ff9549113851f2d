//! Harvesting natively: classifying and clustering 1,000 tenants × 30 days
//! at 2-minute slots (21.6 M points; the paper: 2 minutes for DC-9),
//! Algorithm 1 per job for 100 classes (the paper: under 1 ms), and one
//! month of the §6 scheduling simulation for 1,000 servers (time and peak
//! memory).
//!
//! `cargo bench -p skyplan-engine --bench harvest [-- --quick] [-- --dump FILE]`
//! prints markdown tables; `--dump FILE` also writes the 1,000 tenants'
//! series as little-endian f64 rows for `harvest_bench.py` (numpy rfft +
//! scikit-learn KMeans on the same data).

use skyplan_engine::bench_data::{
    harvest_classes, harvest_jobs, harvest_set, measure_harvest_select, median_ms,
};
use skyplan_engine::harvest::{classify, simulate, tpcds_like, ClassifyParams, SimParams};
use std::time::Instant;

/// Peak resident memory of this process, MiB (Linux `VmHWM`).
fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let dump = args
        .iter()
        .position(|a| a == "--dump")
        .and_then(|i| args.get(i + 1).cloned());
    let start = Instant::now();
    let mut now = || start.elapsed().as_secs_f64() * 1000.0;

    println!("| classify + cluster | tenants | slots | points | generate (ms) | classify (ms, median of 3) | classes |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (tenants, days) in [(100usize, 30u32), (1000, 30)] {
        let t0 = now();
        let set = harvest_set(tenants, days, 120, None, 11);
        let gen = now() - t0;
        let mut classes = 0;
        let ms = median_ms(3, &mut now, &mut || {
            classes = classify(&set, &ClassifyParams::default())
                .expect("classify")
                .classes
                .len();
        });
        println!(
            "| native | {tenants} | {} | {:.1} M | {gen:.0} | {ms:.0} | {classes} |",
            set.slots,
            (tenants * set.slots) as f64 / 1e6
        );
        if tenants == 1000 {
            if let Some(path) = &dump {
                let mut bytes = Vec::with_capacity(tenants * set.slots * 8);
                for t in &set.tenants {
                    for v in &t.utilization {
                        bytes.extend_from_slice(&v.to_le_bytes());
                    }
                }
                std::fs::write(path, bytes).expect("dump");
                println!("(wrote {path}: {tenants} × {} f64)", set.slots);
            }
        }
    }

    println!();
    println!("| Algorithm 1 | classes | jobs | µs per job (median of 5) |");
    println!("| --- | --- | --- | --- |");
    for n in [23usize, 100, 1000] {
        let classes = harvest_classes(n, 5);
        let jobs = harvest_jobs(100_000, 6);
        let us = measure_harvest_select(&classes, &jobs, 5, &mut now);
        println!("| native | {n} | {} | {us:.3} |", jobs.len());
    }

    println!();
    println!("| scheduling simulation | servers | days | level | systems × runs | jobs per run | tasks started (PT / H) | time (s) | peak RSS (MiB) |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let days = if quick { 7 } else { 30 };
    let set = harvest_set(40, days, 120, Some(1000), 13);
    let jobs = tpcds_like(52, 3);
    let p = SimParams {
        days: f64::from(days),
        runs: 1,
        levels: vec![30.0],
        ..SimParams::default()
    };
    let t0 = now();
    let r = simulate(&set, &jobs, &p, &mut |_, _| {}).expect("simulate");
    let secs = (now() - t0) / 1000.0;
    let l = &r.levels[0];
    println!(
        "| native | {} | {days} | 30 % | 2 × 1 | {} | {} / {} | {secs:.1} | {:.0} |",
        r.servers,
        l.pt.runs[0].jobs,
        l.pt.runs[0].tasks_started,
        l.h.runs[0].tasks_started,
        peak_rss_mib()
    );
    println!(
        "(level 30 %: PT {:.0} s, H {:.0} s average job time; kills {} / {}; improvement {:.1} %)",
        l.pt.avg_job_secs.avg,
        l.h.avg_job_secs.avg,
        l.pt.kills.avg,
        l.h.kills.avg,
        l.improvement.avg
    );
}
