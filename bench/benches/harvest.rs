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

use skyplan_engine::harvest::{Classification, TenantSet};

use skyplan_bench::data::{
    harvest_classes, harvest_jobs, measure_classify, measure_harvest_select,
    measure_harvest_simulation,
};

mod common;

/// Writes the tenants' series as little-endian f64 rows to `path`, and
/// to `path.json` the grid, each tenant's servers and cores and skyplan's
/// pattern and class (index into the classes) per tenant, for
/// `harvest_bench.py`.
fn write_classified(path: &str, set: &TenantSet, c: &Classification) {
    if let Some(dir) = std::path::Path::new(path).parent() {
        std::fs::create_dir_all(dir).expect("dump directory");
    }
    let mut bytes = Vec::with_capacity(set.tenants.len() * set.slots * 8);
    for tenant in &set.tenants {
        for v in &tenant.utilization {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    std::fs::write(path, bytes).expect("dump");
    let class_index = |id: &str| c.classes.iter().position(|k| k.id == id).expect("class");
    let meta = serde_json::json!({
        "start": set.start,
        "step_secs": set.step_secs,
        "servers": set.tenants.iter().map(|t| t.info.servers).collect::<Vec<_>>(),
        "cores": set.tenants.iter().map(|t| t.info.cores_per_server).collect::<Vec<_>>(),
        "patterns": c.tenants.iter().map(|t| t.pattern.name()).collect::<Vec<_>>(),
        "classes": c.tenants.iter().map(|t| class_index(&t.class)).collect::<Vec<_>>(),
    });
    std::fs::write(format!("{path}.json"), meta.to_string()).expect("dump labels");
}

fn main() {
    let args = common::Args::from_env();
    let quick = args.flag("--quick");
    let peer = args.flag("--peer");
    let default_dump = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/bench/harvest_classify.f64"
    );
    let dump = args
        .text("--dump")
        .or(if peer { Some(default_dump) } else { None });
    let mut now = common::clock();

    println!("load average before: {}", common::load_average());
    println!("| classify + cluster | tenants | slots | points | generate (ms) | 1 thread (ms, median of 5) | 2 threads (ms, median of 5) | classes |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (tenants, days) in [(100usize, 30u32), (1000, 30)] {
        let t = measure_classify(tenants, days, &[1, 2], 5, &mut now);
        let set = &t.set;
        println!(
            "| native | {tenants} | {} | {:.1} M | {:.0} | {:.0} | {:.0} | {} |",
            set.slots,
            (tenants * set.slots) as f64 / 1e6,
            t.generate_ms,
            t.classify_ms[0],
            t.classify_ms[1],
            t.classification.classes.len()
        );
        if tenants == 1000 {
            if let Some(path) = dump {
                write_classified(path, set, &t.classification);
                println!(
                    "(wrote {path} and {path}.json: {tenants} × {} f64, skyplan's labels)",
                    set.slots
                );
            }
        }
    }
    if let Some(path) = dump.filter(|_| peer) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/harvest_bench.py");
        let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        let status = std::process::Command::new(&python)
            .args([script, path])
            .status()
            .expect("run the numpy + scikit-learn peer (set PYTHON)");
        assert!(status.success(), "the peer failed");
    }
    println!("load average after: {}", common::load_average());
    if args.flag("--classify") {
        return;
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
