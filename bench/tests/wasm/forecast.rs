//! Forecasting per step (§III-A, h = 10, N = 100) in headless Chrome: the
//! work of `bench/benches/forecast.rs` (same NAB series and timing loops,
//! `skyplan_bench::data::measure_forecast`), timed with `performance.now()`, printed
//! as `BENCH-FORECAST wasm …` lines. Run with
//! `cd bench && wasm-pack test --release --headless --chrome
//! --chromedriver /usr/bin/chromedriver . --test forecast -- --nocapture`.

use skyplan_bench::data::{csv_values, measure_forecast};
use skyplan_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

/// The NAB series the native benchmark uses by default.
const SERIES: &str = include_str!("../../../fixtures/real/nab/ec2_cpu_utilization_5f5533.csv");

#[wasm_bindgen_test]
fn forecast_per_step() {
    let y = csv_values(SERIES);
    let mut now = performance_now;
    // Warm-up: let V8 tier the wasm up before timing.
    measure_forecast(&y, 200, 10, &mut now).expect("warm-up");
    for row in measure_forecast(&y, 1000, 100, &mut now).expect("forecast") {
        console_log!(
            "BENCH-FORECAST wasm | {} | {:.4} | {:.4} | {} |",
            row.label,
            row.median_ms,
            row.mean_ms,
            row.steps
        );
    }
}
