//! Workspace bundles, native: a workspace of 1, 10 and 100 MB of traces
//! (`skyplan_bench::data::bundle_workspace`) written and read back, with the
//! bundle's size. `bench/tests/wasm/tests/bundle.rs` times the same work in
//! headless Chrome.
//!
//! `cargo bench -p skyplan-bench --bench bundle [-- --sizes 1,10]`.

use skyplan_bench::data::{bundle_workspace, measure_bundle};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<usize> = match args.iter().position(|a| a == "--sizes") {
        Some(i) => args[i + 1]
            .split(',')
            .map(|s| s.trim().parse().expect("--sizes takes MB numbers: 1,10"))
            .collect(),
        None => vec![1, 10, 100],
    };
    let origin = Instant::now();
    let mut now_ms = || origin.elapsed().as_secs_f64() * 1e3;
    println!(
        "{:>5} {:>12} {:>12} {:>7} {:>10} {:>10}",
        "MB", "bytes", "bundle", "ratio", "encode ms", "decode ms"
    );
    let mut lines = Vec::new();
    for mb in sizes {
        let w = bundle_workspace(mb);
        let m = measure_bundle(&w, &mut now_ms);
        println!(
            "{:>5} {:>12} {:>12} {:>7.3} {:>10.1} {:>10.1}",
            mb,
            m.bytes,
            m.bundle_bytes,
            m.bundle_bytes as f64 / m.bytes as f64,
            m.encode_ms,
            m.decode_ms
        );
        lines.push(m.line("native", mb));
    }
    for l in lines {
        println!("{l}");
    }
}
