//! Harvested storage in headless Chrome: the work of
//! `bench/benches/storage.rs` (same generated datacenter from
//! `skyplan_bench::data`), timed with `performance.now()`, printed as
//! `BENCH-STORAGE wasm …` lines: Algorithm 2 and stock HDFS placing 4 M
//! blocks on 10,000 servers (goal: under 10 s), and the panel's default
//! durability run (100,000 blocks, R = 3 and 4, five runs; goal: under
//! 5 s), and the paper's durability run (4 M blocks on 10,000 servers,
//! R = 3 and 4, five runs: one thread, as in the studio's worker). Run with `cd bench && wasm-pack test --release
//! --headless --chrome --chromedriver /usr/bin/chromedriver . --test
//! storage -- --nocapture`.

use skyplan_bench::data::{measure_placements, storage_datacenter};
use skyplan_bench::performance_now;
use skyplan_engine::harvest::{simulate_durability, DurabilityParams};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn storage_place_and_durability() {
    let mut now = performance_now;
    let (tenants, _) = storage_datacenter(10_000, 7);
    let blocks = 4_000_000;
    for p in measure_placements(&tenants, blocks, 1, &mut now) {
        console_log!(
            "BENCH-STORAGE wasm | {} | 10,000 | {blocks} | {} | {:.0} | {:.3} | {} |",
            p.policy.name(),
            p.replication,
            p.ms,
            p.us_per_block,
            p.relaxed
        );
    }
    let (small, history) = storage_datacenter(2_000, 8);
    let p = DurabilityParams::default();
    let t0 = now();
    let r = simulate_durability(&small, &history, &p, &mut |_, _| {}).expect("durability");
    let secs = (now() - t0) / 1000.0;
    for (k, red) in r.reduction.iter().enumerate() {
        console_log!(
            "BENCH-STORAGE wasm | durability 2,000 servers | {} blocks | {} runs | R = {} | H {:.5} % | stock {:.5} % | {secs:.1} s |",
            p.blocks,
            p.runs,
            red.replication,
            r.results[2 * k].lost_percent.avg,
            r.results[2 * k + 1].lost_percent.avg
        );
    }
}

#[wasm_bindgen_test]
fn storage_durability_paper_size() {
    let (tenants, history) = storage_datacenter(10_000, 7);
    let p = DurabilityParams {
        blocks: DurabilityParams::PAPER_BLOCKS,
        ..DurabilityParams::default()
    };
    let t0 = performance_now();
    let r = simulate_durability(&tenants, &history, &p, &mut |_, _| {}).expect("durability");
    let secs = (performance_now() - t0) / 1000.0;
    for (k, red) in r.reduction.iter().enumerate() {
        console_log!(
            "BENCH-STORAGE wasm | durability 10,000 servers | {} blocks | {} runs | R = {} | H {:.5} % | stock {:.5} % | {secs:.1} s | arrays {:.0} MiB |",
            p.blocks,
            p.runs,
            red.replication,
            r.results[2 * k].lost_percent.avg,
            r.results[2 * k + 1].lost_percent.avg,
            r.memory_bytes as f64 / 1048576.0
        );
    }
}
