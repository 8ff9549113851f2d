//! Price–deadline curves (MRM §4.2) in headless Chrome: the work of
//! `bench/benches/pricing.rs` (same 1,000-job queue and timing loop,
//! `skyplan_bench::data::measure_quote`), timed with `performance.now()`, printed as
//! `BENCH-PRICING wasm …` lines. Run with
//! `cd bench && wasm-pack test --release --headless --chrome
//! --chromedriver /usr/bin/chromedriver . --test pricing -- --nocapture`.

use skyplan_bench::data::{measure_quote, PRICING_FUNCTIONS};
use skyplan_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn price_curve_1000_jobs() {
    let mut now = performance_now;
    for (name, f) in PRICING_FUNCTIONS {
        // Warm-up: V8 tiers the wasm up while it runs (after one quote eq.
        // 13 still ran baseline code: 11 ms instead of 1.8).
        measure_quote(1000, f, 5, &mut now);
        let ms = measure_quote(1000, f, 5, &mut now).expect("quote");
        console_log!("BENCH-PRICING wasm {} 1000 {ms:.2}", name.replace(' ', ""));
    }
}
