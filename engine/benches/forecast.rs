//! Forecasting per step (§III-A, h = 10): the history-kernel GP with N = 100
//! patterns updated incrementally, and ARIMA with the order by AIC, on a
//! NAB series, natively. `engine/benches/forecast_bench.py` times
//! scikit-learn's GaussianProcessRegressor and pmdarima's auto_arima on the
//! same series and steps.
//!
//! `cargo bench -p skyplan-engine --bench forecast [-- --file CSV --steps N
//! --arima-steps N]` prints a markdown table (median and mean per step).
//! The series is a `timestamp,value` CSV, by default
//! `../shared/data/nab/ec2_cpu_utilization_5f5533.csv` from the workspace.

use skyplan_engine::forecast::{auto_arima, HistoryGp, HistoryGpParams, SelectParams};
use std::time::Instant;

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1)?.parse().ok()
}

fn stats(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
    (v.get(v.len() / 2).copied().unwrap_or(f64::NAN), mean)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let default = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/data/nab/ec2_cpu_utilization_5f5533.csv"
    );
    let file: String = arg(&args, "--file").unwrap_or_else(|| default.to_string());
    let steps: usize = arg(&args, "--steps").unwrap_or(1000);
    let arima_steps: usize = arg(&args, "--arima-steps").unwrap_or(100);
    let text = std::fs::read_to_string(&file).expect("the series CSV");
    let y: Vec<f64> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.rsplit(',').next()?.trim().parse().ok())
        .collect();
    let (h, n) = (10, 100);
    let start = y.len() - steps - 1;
    println!("series {file}: {} values; h = {h}, N = {n}", y.len());
    println!("| step | native, median (ms) | native, mean (ms) | steps |");
    println!("| --- | ---: | ---: | ---: |");

    // GP: fit once, then append + one-step forecast per step.
    for (label, m) in [
        (
            "GP, incremental update + 1-step forecast (no refit)",
            usize::MAX,
        ),
        (
            "GP, incremental, ML-II refit every 25 values (amortized)",
            25,
        ),
    ] {
        let params = HistoryGpParams {
            refit_every: m,
            ..HistoryGpParams::default()
        };
        let mut gp = HistoryGp::fit(&y[start - n - h..start], h, n, &params).unwrap();
        let mut t = Vec::with_capacity(steps);
        for &v in &y[start..start + steps] {
            let t0 = Instant::now();
            gp.append(v).unwrap();
            let f = gp.forecast(1, 0.95).unwrap();
            t.push(t0.elapsed().as_secs_f64() * 1e3);
            std::hint::black_box(f);
        }
        let (med, mean) = stats(&mut t);
        println!("| {label} | {med:.4} | {mean:.4} | {steps} |");
    }
    // A full fit (ML-II with 2 restarts) on the latest N patterns.
    let mut t = Vec::new();
    for k in 0..20 {
        let end = start + k * 10;
        let t0 = Instant::now();
        let gp = HistoryGp::fit(&y[end - n - h..end], h, n, &HistoryGpParams::default()).unwrap();
        t.push(t0.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(gp.forecast(1, 0.95).unwrap());
    }
    let (med, mean) = stats(&mut t);
    println!("| GP, full ML-II fit (3 starts) + 1-step forecast | {med:.3} | {mean:.3} | 20 |");

    // ARIMA: order by AIC (exhaustive, p, q ≤ 5, p + q ≤ 5, d by KPSS) on
    // the latest N + h values, then the one-step forecast.
    let mut t = Vec::new();
    for k in 0..arima_steps {
        let end = start + k;
        let t0 = Instant::now();
        let sel = auto_arima(&y[end - n - h..end], &SelectParams::default()).unwrap();
        let f = sel.model.forecast(1, 0.95).unwrap();
        t.push(t0.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(f);
    }
    let (med, mean) = stats(&mut t);
    println!("| ARIMA, AIC order search (21 models) + 1-step forecast | {med:.3} | {mean:.3} | {arima_steps} |");
}
