//! Forecasting per step (§III-A, h = 10): the history-kernel GP with N = 100
//! patterns updated incrementally, and ARIMA with the order by AIC, on a
//! NAB series, natively. The loops are `skyplan_bench::data::measure_forecast`,
//! shared with the headless-Chrome benchmark
//! (`bench/tests/wasm/tests/forecast.rs`), so both time the same work;
//! `bench/benches/forecast_bench.py` times scikit-learn's
//! GaussianProcessRegressor and pmdarima's auto_arima on the same series
//! and steps.
//!
//! `cargo bench -p skyplan-bench --bench forecast [-- --file CSV --steps N
//! --arima-steps N]` prints a markdown table (median and mean per step).
//! The series is a `timestamp,value` CSV, by default
//! `fixtures/real/nab/ec2_cpu_utilization_5f5533.csv` from the repository.

use skyplan_bench::data::{csv_values, measure_forecast};

mod common;

fn main() {
    let args = common::Args::from_env();
    let default = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/real/nab/ec2_cpu_utilization_5f5533.csv"
    );
    let file: String = args.value("--file").unwrap_or_else(|| default.to_string());
    let steps: usize = args.value("--steps").unwrap_or(1000);
    let arima_steps: usize = args.value("--arima-steps").unwrap_or(100);
    let text = std::fs::read_to_string(&file).expect("the series CSV");
    let y = csv_values(&text);
    println!("series {file}: {} values; h = 10, N = 100", y.len());
    let mut now = common::clock();
    // Warm-up, as the browser run does.
    measure_forecast(&y, 200, 10, &mut now).expect("warm-up");
    let rows = measure_forecast(&y, steps, arima_steps, &mut now).expect("forecast");
    println!("| step | native, median (ms) | native, mean (ms) | steps |");
    println!("| --- | ---: | ---: | ---: |");
    for r in rows {
        println!(
            "| {} | {:.4} | {:.4} | {} |",
            r.label, r.median_ms, r.mean_ms, r.steps
        );
    }
}
