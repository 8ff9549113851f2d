//! Dynamic resource shaping in headless Chrome: the studio's default run
//! (`shaping::Params::default()`: 1,000 generated applications on 250
//! hosts, GP forecasts, the baseline and the pessimistic run) — the work
//! of `bench/benches/shaping.rs` (`skyplan_bench::data::measure_shaping`), timed
//! with `performance.now()`, printed as `BENCH-SHAPING wasm …` lines. Run
//! with `cd bench && wasm-pack test --release --headless
//! --chrome --chromedriver /usr/bin/chromedriver . --test shaping --
//! --nocapture`.

use skyplan_bench::data::measure_shaping;
use skyplan_bench::performance_now;
use skyplan_engine::shaping::{Params, Predictor};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

#[wasm_bindgen_test]
fn shaping_default_run() {
    let mut now = performance_now;
    // Warm-up: let V8 tier the wasm up before timing.
    let mut small = Params::default();
    small.workload.apps = 200;
    measure_shaping(&small, &mut now).expect("warm-up");
    for predictor in [Predictor::Gp, Predictor::Oracle, Predictor::Arima] {
        let params = Params {
            predictor,
            ..Params::default()
        };
        let (t, r) = measure_shaping(&params, &mut now).expect("simulate");
        console_log!(
            "BENCH-SHAPING wasm | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2}× |",
            params.workload.apps,
            params.hosts,
            predictor,
            t.generate_ms / 1e3,
            t.forecast_ms / 1e3,
            t.simulate_ms / 1e3,
            t.total_ms / 1e3,
            r.turnaround_speedup
        );
    }
}
