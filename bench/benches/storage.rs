//! Harvested storage natively: Algorithm 2 and stock HDFS placing 4 M
//! blocks on 10,000 servers (the paper: 2.55 ms per block for HDFS-H,
//! 0.81 ms for stock, clustering included), and the durability simulation
//! of Figure 15 — one year, 4 M blocks, R = 3 and 4, five runs — with its
//! time, its arrays' size and the process's peak memory, plus the panel's
//! default run and the availability curves of Figure 16.
//!
//! `cargo bench -p skyplan-bench --bench storage [-- --quick]` prints
//! markdown tables (`--quick`: 400 k blocks, one run).

use skyplan_bench::data::{harvest_set, measure_placements, storage_datacenter};
use skyplan_engine::harvest::{
    durability_memory, simulate_availability, simulate_durability, AvailabilityParams,
    DurabilityParams, StorageTenant,
};

mod common;

fn main() {
    let quick = common::Args::from_env().flag("--quick");
    let mut now = common::clock();
    let blocks = if quick { 400_000 } else { 4_000_000 };

    let (tenants, history) = storage_datacenter(10_000, 7);
    println!(
        "datacenter: {} tenants, 10,000 servers, {} server reimages in 12 months",
        tenants.len(),
        history.server_reimages()
    );
    println!();
    println!("| placement | policy | servers | blocks | R | total (ms, median of 3) | µs per block | relaxed |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for p in measure_placements(&tenants, blocks, 3, &mut now) {
        println!(
            "| native | {} | 10,000 | {blocks} | {} | {:.0} | {:.3} | {} |",
            p.policy.name(),
            p.replication,
            p.ms,
            p.us_per_block,
            p.relaxed
        );
    }

    println!();
    println!("| durability | blocks | runs | R | threads | HDFS-H lost % (min–max) | stock lost % (min–max) | stock / H | time (s) | arrays (MiB) | peak RSS (MiB) |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    // One thread, then two: the same work (the results are asserted
    // equal), so the second row is the threads' speed-up alone. Peak RSS
    // is the process's so far, so the two-thread row's includes both.
    let paper = DurabilityParams {
        blocks,
        runs: if quick { 1 } else { 5 },
        threads: 1,
        ..DurabilityParams::default()
    };
    let one = durability_row(&tenants, &history, &paper, &mut now);
    let two = durability_row(
        &tenants,
        &history,
        &DurabilityParams {
            threads: 2,
            ..paper.clone()
        },
        &mut now,
    );
    assert_eq!(one, two, "the thread count changed the results");
    let (small, small_h) = storage_datacenter(2_000, 8);
    durability_row(
        &small,
        &small_h,
        &DurabilityParams {
            threads: 1,
            ..DurabilityParams::default()
        },
        &mut now,
    );

    println!();
    println!("| availability | servers | blocks | runs | levels | time (s) |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let set = harvest_set(small.len(), 30, 120, None, 11);
    // The storage tenants take the set's tenant names, in order.
    let renamed: Vec<StorageTenant> = small
        .iter()
        .zip(&set.tenants)
        .map(|(s, t)| StorageTenant {
            name: t.info.name.clone(),
            ..s.clone()
        })
        .collect();
    let p = AvailabilityParams::default();
    let t0 = now();
    let r = simulate_availability(&renamed, &set, &p, &mut |_, _| {}).expect("availability");
    println!(
        "| native | 2,000 | {} | {} | {} | {:.1} |",
        p.blocks,
        p.runs,
        p.levels.len(),
        (now() - t0) / 1000.0
    );
    println!();
    println!("| level % | utilization % | R | HDFS-Stock failed % | HDFS-PT failed % | HDFS-H failed % |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for l in &r.levels {
        for row in l.rows() {
            println!(
                "| {:.0} | {:.1} | {} | {:.3} | {:.3} | {:.3} |",
                l.level, l.utilization, row.replication, row.stock, row.pt, row.h
            );
        }
    }
}

fn durability_row(
    tenants: &[StorageTenant],
    history: &skyplan_engine::harvest::ReimageHistory,
    p: &DurabilityParams,
    now: &mut dyn FnMut() -> f64,
) -> Vec<skyplan_engine::harvest::DurabilityResult> {
    let servers: u32 = tenants.iter().map(|t| t.servers).sum();
    let t0 = now();
    let r = simulate_durability(tenants, history, p, &mut |_, _| {}).expect("durability");
    let secs = (now() - t0) / 1000.0;
    for (k, red) in r.reduction.iter().enumerate() {
        let (h, s) = (&r.results[2 * k], &r.results[2 * k + 1]);
        println!(
            "| native, {servers} servers | {} | {} | {} | {} | {:.5} ({:.5}–{:.5}) | {:.5} ({:.5}–{:.5}) | {} | {secs:.1} | {:.0} | {:.0} |",
            p.blocks,
            p.runs,
            red.replication,
            p.threads,
            h.lost_percent.avg,
            h.lost_percent.min,
            h.lost_percent.max,
            s.lost_percent.avg,
            s.lost_percent.min,
            s.lost_percent.max,
            red.factor.map_or_else(
                || if red.h_lossless { "H lost none".into() } else { "—".into() },
                |f| format!("{f:.0}×")
            ),
            durability_memory(p.blocks, red.replication, servers as usize) as f64 / 1048576.0,
            common::peak_rss_mib().unwrap_or(f64::NAN)
        );
    }
    r.results
}
