//! Harvesting natively: classifying and clustering 1,000 tenants × 30 days
//! at 2-minute slots (21.6 M points; the paper: 2 minutes for DC-9),
//! Algorithm 1 per job for 100 classes (the paper: under 1 ms), and one
//! month of the §6 scheduling simulation for 1,000 servers (time and peak
//! memory).
//!
//! `cargo bench -p skyplan-bench --bench harvest [-- --quick] [-- --dump FILE]`
//! prints markdown tables; `--dump FILE` also writes the 1,000 tenants'
//! series as little-endian f64 rows for `harvest_bench.py` (numpy rfft +
//! scikit-learn KMeans on the same data).

use skyplan_bench::data::{
    harvest_classes, harvest_jobs, measure_classify, measure_harvest_select,
    measure_harvest_simulation,
};

mod common;

fn main() {
    let args = common::Args::from_env();
    let quick = args.flag("--quick");
    let dump = args.text("--dump");
    let mut now = common::clock();

    println!("| classify + cluster | tenants | slots | points | generate (ms) | classify (ms, median of 3) | classes |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (tenants, days) in [(100usize, 30u32), (1000, 30)] {
        let t = measure_classify(tenants, days, &mut now);
        let set = &t.set;
        println!(
            "| native | {tenants} | {} | {:.1} M | {:.0} | {:.0} | {} |",
            set.slots,
            (tenants * set.slots) as f64 / 1e6,
            t.generate_ms,
            t.classify_ms,
            t.classes
        );
        if tenants == 1000 {
            if let Some(path) = dump {
                let mut bytes = Vec::with_capacity(tenants * set.slots * 8);
                for tenant in &set.tenants {
                    for v in &tenant.utilization {
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
    let (r, secs) = measure_harvest_simulation(days, &mut now);
    let l = &r.levels[0];
    println!(
        "| native | {} | {days} | 30 % | 2 × 1 | {} | {} / {} | {secs:.1} | {:.0} |",
        r.servers,
        l.pt.runs[0].jobs,
        l.pt.runs[0].tasks_started,
        l.h.runs[0].tasks_started,
        common::peak_rss_mib().unwrap_or(f64::NAN)
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
