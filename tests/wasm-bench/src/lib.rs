//! Import benchmarks of the engine in headless Chrome; the code is in
//! `tests/import.rs`, run with
//!
//! ```sh
//! wasm-pack test --release --headless --chrome --chromedriver /usr/bin/chromedriver \
//!     tests/wasm-bench -- --nocapture
//! ```
//!
//! (`make bench` does, with the native benchmark, and writes the table of
//! BENCHMARKS.md). The inputs and the timing loop are
//! `skyplan_engine::bench_data`, shared with `engine/benches/import.rs`, so
//! both targets time the same work on the same bytes.
//!
//! Every benchmark times its work with [`performance_now`].

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The page's high-resolution clock, milliseconds.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    pub fn performance_now() -> f64;
}
