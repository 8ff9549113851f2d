//! Import throughput in headless Chrome: one test per size, each timing both
//! inputs with `performance.now()` and printing the `BENCH wasm …` lines that
//! `scripts/bench.sh` collects. Sizes are the native benchmark's
//! (`SIZES_MB`), or the comma-separated MB list in `SKYPLAN_BENCH_SIZES` at
//! build time.

use skyplan_bench::data::{measure, Input, SIZES_MB};
use skyplan_bench::performance_now;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

fn selected(mb: usize) -> bool {
    match option_env!("SKYPLAN_BENCH_SIZES") {
        Some(list) => list.split(',').any(|s| s.trim().parse() == Ok(mb)),
        None => SIZES_MB.contains(&mb),
    }
}

fn bench(mb: usize) {
    if !selected(mb) {
        console_log!("skipping {mb} MB (not in SKYPLAN_BENCH_SIZES)");
        return;
    }
    for input in Input::ALL {
        let m = measure(input, mb, &mut performance_now);
        console_log!("{}", m.line("wasm"));
    }
}

#[wasm_bindgen_test]
fn import_1_mb() {
    bench(1);
}

#[wasm_bindgen_test]
fn import_10_mb() {
    bench(10);
}

#[wasm_bindgen_test]
fn import_100_mb() {
    bench(100);
}
