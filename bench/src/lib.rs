//! skyplan's benchmarks, kept out of the engine that ships to the browser.
//!
//! [`data`] holds the deterministic large inputs and the timing loops; the
//! native benchmarks (`benches/*.rs`, `cargo bench -p skyplan-bench`) and
//! the headless-Chrome ones (`tests/wasm`, run by `make bench` with
//!
//! ```sh
//! wasm-pack test --release --headless --chrome --chromedriver /usr/bin/chromedriver \
//!     bench --test wasm -- --nocapture
//! ```
//!
//! ) call the same functions, so both targets time the same work on the same
//! bytes and only print it. What only a native process has (its command
//! line, clock and `/proc` meters) is `benches/common/`.
//!
//! Every browser benchmark times its work with [`performance_now`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod data;

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The page's high-resolution clock, milliseconds.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    pub fn performance_now() -> f64;
}
