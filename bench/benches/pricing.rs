//! Price–deadline curve against a queue of 1,000 jobs (MRM §4.2, eq. 13):
//! 40 deadlines; the lazy schedule is built once and indexed by prefix sums.
//! The queue and the timing loop are `skyplan_bench::data::measure_quote`, shared
//! with the headless-Chrome benchmark (`bench/tests/wasm/tests/pricing.rs`).
//! Prints `BENCH-PRICING native …` lines and a table.

use skyplan_bench::data::{measure_quote, PRICING_FUNCTIONS};
use std::time::Instant;

fn main() {
    let start = Instant::now();
    let mut now = || start.elapsed().as_secs_f64() * 1000.0;
    let mut rows = Vec::new();
    for (name, f) in PRICING_FUNCTIONS {
        // Warm-up, then the median of 5.
        measure_quote(1000, f, 1, &mut now);
        let ms = measure_quote(1000, f, 5, &mut now).expect("quote");
        println!(
            "BENCH-PRICING native {} 1000 {ms:.2}",
            name.replace(' ', "")
        );
        rows.push((name, ms));
    }
    println!("| price function | queue | points | curve (ms) |");
    println!("| --- | --- | --- | --- |");
    for (name, ms) in rows {
        println!("| {name} | 1,000 jobs | 40 | {ms:.1} |");
    }
}
